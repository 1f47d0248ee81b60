/* factor.c: the MUMPS backend: analysis, factorization with workspace retries, refactorization
   on the same analysis, null pivots, solves. */
#include "factor.h"

#include <complex.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <dmumps_c.h>
#include <zmumps_c.h>

#define ICNTL(f, k) (ctl (f)[(k) - 1])   /* MUMPS's 1-based ICNTL(k) */
#define INFOG(f, k) (glob (f)[(k) - 1])  /* MUMPS's 1-based INFOG(k), same on every rank */
#define CNTL(f, k) (rctl (f)[(k) - 1])   /* MUMPS's 1-based CNTL(k) */
#define INFO(f, k) (loc_info (f)[(k) - 1])  /* MUMPS's 1-based INFO(k), this rank's own */

enum {
  JOB_INIT = -1, JOB_END = -2, JOB_ANALYSE = 1, JOB_FACTOR = 2, JOB_SOLVE = 3,
  ICNTL14_DEFAULT = 30,      /* percent of extra workspace over the analysis estimate */
  ICNTL14_MAX = 1 << 20,
  MAX_RETRIES = 5            /* refactorizations after a workspace failure, per call */
};

struct factor {
  MPI_Comm comm;       /* borrowed from the caller */
  int rank, size;      /* in comm */
  factor_kind kind;
  int n;               /* order */
  int dist;            /* 1: distributed input (ICNTL(18) = 3), each rank its triplets */
  long nnz;            /* triplets given: rank 0's count, known everywhere; distributed:
                          this rank's own */
  long nnz_all;        /* triplets given over all ranks */
  MUMPS_INT *irn;      /* 1-based rows, size nnz, rank 0 only (distributed: every rank) */
  MUMPS_INT *jcn;      /* 1-based columns, size nnz, as irn */
  void *a;             /* values (double or double complex), size nnz, as irn */
  DMUMPS_STRUC_C *d;   /* the instance for the real kinds, else NULL */
  ZMUMPS_STRUC_C *z;   /* the instance for the complex kinds, else NULL */
  int alive;           /* 1: job = -1 ran, job = -2 is owed */
  int factored;        /* 1: the factors are usable (same on every rank) */
  int retries;         /* factorizations redone after workspace failures */
  factor_opts opts;    /* as used (rank 0's; verbosity resolved per rank) */
  int refactors;       /* successful factor_refactor calls */
  int nfactor;         /* successful factorizations (job 2) */
  long solves, rhs;    /* solve calls, right-hand sides solved */
  double t_analysis;   /* wall time of job 1 on this rank [s] */
  double t_factor;     /* wall time of every job 2 on this rank [s] */
  double t_last;       /* wall time of the last factorization with its retries [s] */
  double t_solve;      /* wall time of every job 3 on this rank [s] */
  double t_ana_max;    /* max of t_analysis over ranks [s] */
  double t_fac_max;    /* max of t_factor over ranks [s] */
  double t_last_max;   /* max of t_last over ranks [s] */
  double t_solve_max;  /* max of t_solve over ranks [s] */
  int nnull;           /* INFOG(28) of the last factorization with detection, else -1 */
  int null_singular;   /* 1: distributed input without the caller's detection: null pivots
                          detected at MUMPS's own threshold and any one fails the
                          factorization as singular (see factor_create_opts) */
  int *nullrows;       /* 0-based null pivot rows, size nnull, every rank; NULL when none */
  char name[128];      /* matrix name for messages */
  int holds;           /* extra holders (factor_hold): factor_free drops one, frees at 0 */
  int analysed;        /* 1: the analysis ran for the current use (0 after factor_reuse) */
  int nfactor_base;    /* nfactor when the current use began (factor_reuse) */
  /* factor_solve_rows: MUMPS's distributed right-hand sides and solution, and the plan that
     moves the solution from MUMPS's rows (ISOL_loc) to the callers' rows. All owned by f,
     grown on demand (never shrunk), freed by factor_free. */
  int *lay;            /* 3 size ints: row0, nloc, nrhs of every rank in the current call */
  int *plan_lay;       /* 3 size ints: the layout the plan was built for (nrhs unused) */
  int plan_ok;         /* 1: a plan was built (same on every rank) */
  int plan_gen;        /* f->nfactor when the plan was built */
  int plan_nsol;       /* this rank's INFO(23) when the plan was built */
  int *cnt;            /* 8 size ints: entries per rank sent and received (scount, sdispl,
                          rcount, rdispl), then MPI_Alltoallw's counts and byte
                          displacements (send, then receive) */
  MPI_Datatype *types; /* 2 size: MPI_Alltoallw's send and receive datatypes of a call */
  MUMPS_INT *irhs;     /* IRHS_loc: row0 + 1 .. row0 + nloc, cap_irhs */
  MUMPS_INT *isol;     /* ISOL_loc, filled by each solve, cap_sol */
  MUMPS_INT *isol_plan;/* ISOL_loc when the plan was built, cap_plan */
  int *sperm;          /* send position p (grouped by destination) -> index into SOL_loc,
                          cap_perm */
  int *rrow;           /* receive position q (grouped by source) -> the caller's local row
                          times w (its offset in doubles within a column of B), cap_rrow */
  double *sol;         /* SOL_loc, cap_solv doubles */
  double *sbuf;        /* one column of SOL_loc (INFO(23) w doubles): the scratch of the
                          reordering in place, and of the plan's setup; cap_sbuf doubles */
  size_t cap_irhs, cap_sol, cap_plan, cap_perm, cap_rrow, cap_solv, cap_sbuf;
};

static MUMPS_INT *ctl (factor *f)
{
  return f->z ? f->z->icntl : f->d->icntl;
}

static const MUMPS_INT *glob (const factor *f)
{
  return f->z ? f->z->infog : f->d->infog;
}

static const MUMPS_INT *loc_info (const factor *f)
{
  return f->z ? f->z->info : f->d->info;
}

static double *rctl (factor *f)
{
  return f->z ? f->z->cntl : f->d->cntl;
}

/* Runs MUMPS phase `job` on this rank's instance. */
static void mumps_run (factor *f, int job)
{
  if (f->z) {
    f->z->job = job;
    zmumps_c (f->z);
  } else {
    f->d->job = job;
    dmumps_c (f->d);
  }
}

/* 1 for the ZMUMPS kinds. */
static int is_complex (factor_kind kind)
{
  return kind == FACTOR_COMPLEX_GENERAL || kind == FACTOR_COMPLEX_SYMMETRIC;
}

/* 1 for the LDL^T kinds (SYM=2: the lower triangle is given). */
static int is_symmetric (factor_kind kind)
{
  return kind == FACTOR_REAL_SYMMETRIC || kind == FACTOR_COMPLEX_SYMMETRIC;
}

/* Failures that more workspace (larger ICNTL(14)) cures, per the MUMPS 5.5 guide. */
static int is_workspace (int e)
{
  return e == -8 || e == -9 || e == -11 || e == -12 || e == -14 || e == -15 || e == -17
         || e == -20;
}

/* The meaning of INFOG(1) = e < 0 in words (MUMPS 5.5 user guide, section on INFO(1)). */
static const char *mumps_words (int e)
{
  switch (e) {
  case -2: return "NNZ out of range (INFOG(2) is NNZ)";
  case -3: return "invalid JOB or phases called out of order";
  case -4: return "error in the pivot order given to MUMPS";
  case -5: return "out of memory: real workspace allocation failed during analysis (INFOG(2) "
                  "is the size)";
  case -7: return "out of memory: integer workspace allocation failed during analysis "
                  "(INFOG(2) is the size)";
  case -8: return "integer workspace IW too small for factorization";
  case -9: return "real workspace S too small for factorization";
  case -11: return "real workspace too small for the solution";
  case -12: return "real workspace too small for iterative refinement";
  case -13: return "out of memory: memory allocation failed (INFOG(2) is the size, "
                   "negative: millions)";
  case -14: return "integer workspace too small for the solution";
  case -15: return "integer workspace too small for iterative refinement or error analysis";
  case -16: return "order N out of range (INFOG(2) is N)";
  case -17: return "internal send buffer too small";
  case -19: return "memory limit ICNTL(23) too small";
  case -20: return "internal reception buffer too small";
  case -21: return "PAR = 0 needs more than one MPI rank";
  case -22: return "a MUMPS input array is missing or too small (INFOG(2) says which)";
  case -23: return "MPI was not initialized";
  case -40: return "matrix declared positive definite has a negative or zero pivot";
  case -44: return "solve asked after the factors were discarded";
  case -45: return "NRHS out of range";
  case -90: return "out-of-core error";
  default: return NULL;
  }
}

/* err = INFOG(1) < 0 of MUMPS `phase` in words, naming the matrix; returns MB_ENOMEM for
   allocation failures, else MB_ESOLVE. The same on every rank as INFOG is. */
static int mumps_fail (factor *f, const char *phase, mb_err *err)
{
  int e = INFOG (f, 1), e2 = INFOG (f, 2);
  const char *words = mumps_words (e);
  if (e == -6 || e == -10)
    return mb_fail (err, MB_ESOLVE,
                    "matrix '%s' is singular at the shift: try another shift "
                    "(MUMPS %s: %s, INFOG(1)=%d INFOG(2)=%d)", f->name, phase,
                    e == -6 ? "structurally singular, INFOG(2) is the structural rank"
                            : "numerically singular", e, e2);
  if (e == -1)
    return mb_fail (err, MB_ESOLVE,
                    "MUMPS %s of matrix '%s' failed on MPI rank %d (INFOG(1)=%d INFOG(2)=%d)",
                    phase, f->name, e2, e, e2);
  int code = (e == -5 || e == -7 || e == -13) ? MB_ENOMEM : MB_ESOLVE;
  if (is_workspace (e))
    return mb_fail (err, code,
                    "MUMPS %s of matrix '%s' failed: %s even with ICNTL(14)=%d after %d "
                    "retries (INFOG(1)=%d INFOG(2)=%d)", phase, f->name, words,
                    (int) ICNTL (f, 14), f->retries, e, e2);
  if (words)
    return mb_fail (err, code, "MUMPS %s of matrix '%s' failed: %s (INFOG(1)=%d INFOG(2)=%d)",
                    phase, f->name, words, e, e2);
  return mb_fail (err, code, "MUMPS %s of matrix '%s' failed: MUMPS error INFOG(1)=%d "
                  "INFOG(2)=%d", phase, f->name, e, e2);
}

/* Collective. One status for every rank from this rank's rc and message in `mine`
   (mb_agree: the lowest code wins, with the message of the lowest rank failing with it),
   set into err with mb_fail (an error already in err is kept). Returns the code. */
static int agree (MPI_Comm comm, int rc, mb_err *mine, mb_err *err)
{
  int code = mb_agree (comm, rc, mine);
  if (code < 0) return mb_fail (err, code, "%s", mine->msg);
  return 0;
}

/* Next ICNTL(14) after a workspace failure: doubled, at least 10, at most ICNTL14_MAX. */
static int grow_icntl14 (int p)
{
  long q = 2L * p;
  if (q < 10) q = 10;
  if (q > ICNTL14_MAX) q = ICNTL14_MAX;
  return (int) q;
}

/* Collective. Times of analysis and factorization: max over ranks. */
static void sync_times (factor *f)
{
  double t[3] = { f->t_analysis, f->t_factor, f->t_last }, m[3];
  MPI_Allreduce (t, m, 3, MPI_DOUBLE, MPI_MAX, f->comm);
  f->t_ana_max = m[0];
  f->t_fac_max = m[1];
  f->t_last_max = m[2];
}

/* Collective. After a factorization with detection on: INFOG(28) null pivots and the
   host's PIVNUL_LIST (1-based) into f->nnull and f->nullrows (0-based) on every rank.
   Returns 0 or MB_ENOMEM (the same on every rank). */
static int share_null_pivots (factor *f, mb_err *err)
{
  free (f->nullrows);
  f->nullrows = NULL;
  f->nnull = (int) INFOG (f, 28);
  if (f->nnull <= 0) return 0;
  int rc = 0;
  mb_err mine;
  mb_err_init (&mine);
  f->nullrows = mb_calloc ((size_t) f->nnull, sizeof *f->nullrows);
  if (!f->nullrows)
    rc = mb_fail (&mine, MB_ENOMEM, "matrix '%s': out of memory for %d null pivots", f->name,
                  f->nnull);
  int code = agree (f->comm, rc, &mine, err);
  if (code < 0) return code;
  if (f->rank == 0) {
    const MUMPS_INT *list = f->z ? f->z->pivnul_list : f->d->pivnul_list;
    for (int k = 0; k < f->nnull; k++) f->nullrows[k] = list ? (int) list[k] - 1 : -1;
  }
  MPI_Bcast (f->nullrows, f->nnull, MPI_INT, 0, f->comm);
  return 0;
}

/* Collective. job = 2, redone with ICNTL(14) doubled while INFOG(1) reports too little
   workspace (at most MAX_RETRIES times). Returns 0 or the error. */
static int factorize (factor *f, const char *phase, mb_err *err)
{
  f->t_last = 0;
  for (int tries = 0;; tries++) {
    double t0 = MPI_Wtime ();
    mumps_run (f, JOB_FACTOR);
    double dt = MPI_Wtime () - t0;
    f->t_factor += dt;
    f->t_last += dt;
    int e = INFOG (f, 1);
    if (e >= 0 && f->null_singular && INFOG (f, 28) > 0) {
      f->factored = 0;
      sync_times (f);
      return mb_fail (err, MB_ESOLVE, "matrix '%s' is singular at the shift: try another "
                      "shift (MUMPS %s with distributed input: %d null pivot%s)", f->name,
                      phase, (int) INFOG (f, 28), INFOG (f, 28) > 1 ? "s" : "");
    }
    if (e >= 0) {
      f->factored = 1;
      f->nfactor++;
      sync_times (f);
      if (f->opts.null_pivots && share_null_pivots (f, err) < 0) {
        f->factored = 0;
        return err->code;
      }
      return 0;
    }
    f->factored = 0;
    if (!is_workspace (e) || tries == MAX_RETRIES || ICNTL (f, 14) >= ICNTL14_MAX) {
      sync_times (f);
      return mumps_fail (f, phase, err);
    }
    ICNTL (f, 14) = grow_icntl14 (ICNTL (f, 14));
    f->retries++;
  }
}

/* Rank 0 (distributed input: every rank, its own triplets): checks the triplets and copies
   them 1-based into f. Returns 0 or an error. */
static int copy_matrix (factor *f, int n, long nnz, const int *irow, const int *jcol,
                        const void *a, mb_err *err)
{
  char who[48] = "";  /* distributed: whose entry a message names */
  if (f->dist) snprintf (who, sizeof who, " (rank %d's entries)", f->rank);
  if (n < 1) return mb_fail (err, MB_ESOLVE, "matrix '%s': order %d < 1", f->name, n);
  if (nnz < 0 || (nnz > 0 && (!irow || !jcol || !a)))
    return mb_fail (err, MB_ESOLVE, "matrix '%s': no entries given (nnz = %ld)%s", f->name,
                    nnz, who);
  int cplx = is_complex (f->kind);
  size_t vsize = cplx ? sizeof (double complex) : sizeof (double);
  f->irn = mb_calloc (nnz > 0 ? (size_t) nnz : 1, sizeof *f->irn);
  f->jcn = mb_calloc (nnz > 0 ? (size_t) nnz : 1, sizeof *f->jcn);
  f->a = mb_calloc (nnz > 0 ? (size_t) nnz : 1, vsize);
  if (!f->irn || !f->jcn || !f->a || mb_fault ("factor"))
    return mb_fail (err, MB_ENOMEM, "matrix '%s': out of memory copying %ld entries%s",
                    f->name, nnz, who);
  for (long k = 0; k < nnz; k++) {
    int i = irow[k], j = jcol[k];
    if (i < 0 || i >= n || j < 0 || j >= n)
      return mb_fail (err, MB_ESOLVE, "matrix '%s': entry %ld%s at (%d, %d) is outside %d x %d",
                      f->name, k, who, i, j, n, n);
    if (is_symmetric (f->kind) && i < j)
      return mb_fail (err, MB_ESOLVE, "matrix '%s': entry %ld%s at (%d, %d) is above the "
                      "diagonal; give the lower triangle only", f->name, k, who, i, j);
    int finite = cplx ? isfinite (creal (((const double complex *) a)[k]))
                          && isfinite (cimag (((const double complex *) a)[k]))
                      : isfinite (((const double *) a)[k]);
    if (!finite)
      return mb_fail (err, MB_ESOLVE, "matrix '%s': entry %ld%s at (%d, %d) is not finite",
                      f->name, k, who, i, j);
    f->irn[k] = i + 1;
    f->jcn[k] = j + 1;
  }
  if (nnz > 0) memcpy (f->a, a, (size_t) nnz * vsize);
  return 0;
}

/* The verbosity of factor_opts -1: MBMODAL_MUMPS_VERBOSE in this rank's environment (a
   level 1..4, another non-empty value 2), unset or empty 0. */
static int env_verbosity (void)
{
  const char *verbose = getenv ("MBMODAL_MUMPS_VERBOSE");
  if (!verbose || !*verbose) return 0;
  long level = strtol (verbose, NULL, 10);
  return level >= 1 && level <= 4 ? (int) level : 2;
}

void factor_opts_default (factor_opts *o)
{
  memset (o, 0, sizeof *o);
  o->icntl14 = ICNTL14_DEFAULT;
  o->verbosity = -1;
  o->ordering = 7;
  o->pivot_threshold = -1.0;
  o->null_pivots = 0;
  o->null_threshold = 0.0;
  o->null_fixation = 0.0;
}

double factor_null_threshold (int n)
{
  return 100.0 * DBL_EPSILON * (n > 1 ? n : 1);
}

/* ICNTL for assembled input (centralized, or distributed with f->dist) and dense
   centralized right-hand sides, from the resolved options f->opts. */
static void set_controls (factor *f)
{
  const factor_opts *o = &f->opts;
  if (o->verbosity > 0) {
    ICNTL (f, 1) = 6;                                /* errors to stdout */
    ICNTL (f, 2) = 0;                                /* no diagnostics */
    ICNTL (f, 3) = 6;                                /* global information to stdout */
    ICNTL (f, 4) = o->verbosity <= 4 ? o->verbosity : 4;
  } else {
    ICNTL (f, 1) = -1;
    ICNTL (f, 2) = -1;
    ICNTL (f, 3) = -1;
    ICNTL (f, 4) = 0;
  }
  ICNTL (f, 5) = 0;    /* assembled matrix */
  if (o->ordering != 7) ICNTL (f, 7) = o->ordering;   /* else MUMPS's automatic choice */
  ICNTL (f, 18) = f->dist ? 3 : 0;   /* each rank its entries, or all on the host */
  ICNTL (f, 20) = 0;   /* dense right-hand sides */
  ICNTL (f, 21) = 0;   /* solution centralized on the host */
  ICNTL (f, 14) = o->icntl14;
  if (o->low_rank > 0.0) {   /* block low-rank factors (BLR), dropping at this tolerance */
    ICNTL (f, 35) = 2;
    CNTL (f, 7) = o->low_rank;
  }
  if (o->pivot_threshold >= 0.0) CNTL (f, 1) = o->pivot_threshold;
  ICNTL (f, 24) = o->null_pivots || f->null_singular ? 1 : 0;   /* null pivot detection */
  if (f->null_singular) CNTL (f, 3) = 0.0;   /* MUMPS's own: 1e-5 eps ||A_pre|| */
  if (o->null_pivots) {
    CNTL (f, 3) = o->null_threshold;
    CNTL (f, 5) = o->null_fixation;
  }
  /* LDL^T: no ScaLAPACK on the root node, so that INFOG(12) counts every negative pivot
     (with ICNTL(13) = 0 the root's pivots are left out of INFOG(12) on > 1 rank); null
     pivots are detected only outside a ScaLAPACK root, for either kind */
  if (f->kind == FACTOR_REAL_SYMMETRIC || o->null_pivots || f->null_singular)
    ICNTL (f, 13) = 1;
}

/* Hands rank 0's matrix to the instance; distributed, each rank's own entries (the
   structure read at analysis, the values at each factorization). */
static void set_matrix (factor *f)
{
  MUMPS_INT8 nnz = f->nnz;
  MUMPS_INT nz = f->nnz <= INT_MAX ? (MUMPS_INT) f->nnz : 0;
  if (f->dist && f->z) {
    f->z->n = f->n;
    f->z->nnz_loc = nnz;
    f->z->nz_loc = nz;
    f->z->irn_loc = f->irn;
    f->z->jcn_loc = f->jcn;
    f->z->a_loc = (ZMUMPS_COMPLEX *) f->a;
  } else if (f->dist) {
    f->d->n = f->n;
    f->d->nnz_loc = nnz;
    f->d->nz_loc = nz;
    f->d->irn_loc = f->irn;
    f->d->jcn_loc = f->jcn;
    f->d->a_loc = (DMUMPS_COMPLEX *) f->a;
  } else if (f->z) {
    f->z->n = f->n;
    if (f->rank != 0) return;
    f->z->nnz = nnz;
    f->z->nz = nz;
    f->z->irn = f->irn;
    f->z->jcn = f->jcn;
    f->z->a = (ZMUMPS_COMPLEX *) f->a;
  } else {
    f->d->n = f->n;
    if (f->rank != 0) return;
    f->d->nnz = nnz;
    f->d->nz = nz;
    f->d->irn = f->irn;
    f->d->jcn = f->jcn;
    f->d->a = (DMUMPS_COMPLEX *) f->a;
  }
}

/* Rank 0: options as given, with -1 resolved; checks their ranges. Returns 0 or MB_ESOLVE. */
static int resolve_opts (factor *f, const factor_opts *in, mb_err *err)
{
  factor_opts o;
  if (in) o = *in;
  else factor_opts_default (&o);
  f->opts = o;
  if (o.icntl14 < 0 || o.icntl14 > ICNTL14_MAX)
    return mb_fail (err, MB_ESOLVE, "matrix '%s': initial ICNTL(14) %d is outside 0..%d",
                    f->name, o.icntl14, (int) ICNTL14_MAX);
  if (o.ordering < 0 || o.ordering > 7 || o.ordering == 1)
    return mb_fail (err, MB_ESOLVE, "matrix '%s': ordering ICNTL(7) = %d is not one of 0, "
                    "2..7", f->name, o.ordering);
  if (!(o.low_rank >= 0.0 && o.low_rank < 1.0))
    return mb_fail (err, MB_ESOLVE, "matrix '%s': low-rank tolerance %g is outside [0, 1)",
                    f->name, o.low_rank);
  if (!(o.pivot_threshold <= 1.0))   /* NaN too; any value < 0 is MUMPS's default */
    return mb_fail (err, MB_ESOLVE, "matrix '%s': pivot threshold CNTL(1) = %g is not in "
                    "[0, 1] (or negative for MUMPS's default)", f->name, o.pivot_threshold);
  if (!isfinite (o.null_threshold) || !isfinite (o.null_fixation))
    return mb_fail (err, MB_ESOLVE, "matrix '%s': null-pivot threshold and fixation must be "
                    "finite", f->name);
  return 0;
}

factor *factor_create (MPI_Comm comm, factor_kind kind, int n, long nnz, const int *irow,
                       const int *jcol, const void *a, const char *name, mb_err *err)
{
  return factor_create_opts (comm, kind, n, nnz, irow, jcol, a, name, NULL, err);
}

/* A new factor of kind `kind` named `name` ("A" when NULL) on comm, with its (empty)
   real or complex MUMPS instance; NULL, or a factor without an instance, when out of
   memory (factor_create_opts says so). The caller frees it (factor_free). */
static factor *factor_new (MPI_Comm comm, int rank, int size, factor_kind kind,
                           const char *name)
{
  factor *f = mb_calloc (1, sizeof *f);
  if (f) {
    f->comm = comm;
    f->rank = rank;
    f->size = size;
    f->kind = kind;
    snprintf (f->name, sizeof f->name, "%s", name ? name : "A");
    if (is_complex (kind)) f->z = mb_calloc (1, sizeof *f->z);
    else f->d = mb_calloc (1, sizeof *f->d);
  }
  return f;
}

/* Collective. The input of factor_create_opts checked on every rank (the distributed flag
   and the order the same everywhere, a known kind) and, on rank 0 or every rank with
   distributed input, the matrix copied into f (copy_matrix) and rank 0's options resolved
   (resolve_opts). *dist: the distributed flag. Returns 0 or the error, agreed (agree). */
static int factor_input (MPI_Comm comm, factor *f, factor_kind kind, int n, long nnz,
                         const int *irow, const int *jcol, const void *a, const char *name,
                         const factor_opts *opts, int *dist, mb_err *err)
{
  int rank, rc = 0;
  mb_err mine;
  mb_err_init (&mine);
  MPI_Comm_rank (comm, &rank);
  /* distributed input: the flag and the order the same on every rank */
  *dist = opts && opts->distributed;
  int lo_hi[4] = { *dist, -*dist, n, -n }, agreed[4];
  MPI_Allreduce (lo_hi, agreed, 4, MPI_INT, MPI_MIN, comm);
  if (!f || (!f->z && !f->d))
    rc = mb_fail (&mine, MB_ENOMEM, "matrix '%s': out of memory for the MUMPS instance",
                  name ? name : "A");
  else if (kind != FACTOR_REAL_SYMMETRIC && kind != FACTOR_REAL_GENERAL
           && kind != FACTOR_COMPLEX_GENERAL && kind != FACTOR_COMPLEX_SYMMETRIC)
    rc = mb_fail (&mine, MB_ESOLVE, "matrix '%s': unknown factor kind %d", f->name, (int) kind);
  else if (agreed[0] != -agreed[1])
    rc = mb_fail (&mine, MB_EUSAGE, "matrix '%s': distributed input asked on some ranks only",
                  f->name);
  else if (*dist && agreed[2] != -agreed[3])
    rc = mb_fail (&mine, MB_ESOLVE, "matrix '%s': the ranks give orders %d to %d", f->name,
                  agreed[2], -agreed[3]);
  else if (rank == 0 || *dist) {
    f->dist = *dist;
    rc = copy_matrix (f, n, nnz, irow, jcol, a, &mine);
    if (rc == 0 && rank == 0) rc = resolve_opts (f, opts, &mine);
  }
  return agree (comm, rc, &mine, err);
}

/* Collective. Rank 0's order, entry count and options to every rank (the entries summed
   over the ranks with distributed input), the MUMPS verbosity from the environment when
   asked (-1), and the null-pivot policy of distributed input. */
static void factor_header (factor *f, int n, long nnz, int dist)
{
  long head[2] = { n, nnz };                          /* rank 0's order and entries */
  MPI_Bcast (head, 2, MPI_LONG, 0, f->comm);
  f->n = (int) head[0];
  f->nnz = dist ? nnz : head[1];
  f->nnz_all = f->nnz;
  if (dist) MPI_Allreduce (&f->nnz, &f->nnz_all, 1, MPI_LONG, MPI_SUM, f->comm);
  f->dist = dist;
  MPI_Bcast (&f->opts, (int) sizeof f->opts, MPI_BYTE, 0, f->comm);   /* rank 0's options */
  if (f->opts.verbosity == -1) f->opts.verbosity = env_verbosity ();
  f->nnull = -1;
  /* Distributed input is scaled otherwise by MUMPS (ICNTL(8) = 7, not the analysis-time -2
     of centralized input), and rounding can then leave a singular matrix's pivot tiny
     instead of zero, which MUMPS accepts (a doubled constraint row on 2 ranks,
     eigen_singular.sh). So, unless the caller asked for detection itself, null pivots are
     detected at MUMPS's own threshold (|pivot| <= 1e-5 eps ||A||, far below a regular
     matrix's pivots; seed 000's 100 eps n flagged regular pivots of the 120x120 grid's
     pencil) and any one is a singular matrix, as MUMPS's exact zero is centrally. */
  f->null_singular = dist && !f->opts.null_pivots;
}

/* Collective. job = -1: the MUMPS instance started on every rank of f->comm, the host
   working too (par = 1), symmetric (sym = 2) for the symmetric kinds; then its controls
   and matrix set. Returns 0 or the error (mumps_fail). */
static int factor_start (factor *f, mb_err *err)
{
  /* job = -1: start the instance on every rank of comm, the host working too */
  MUMPS_INT fcomm = (MUMPS_INT) MPI_Comm_c2f (f->comm);
  if (f->z) {
    f->z->sym = f->kind == FACTOR_COMPLEX_SYMMETRIC ? 2 : 0;
    f->z->par = 1;
    f->z->comm_fortran = fcomm;
  } else {
    f->d->sym = f->kind == FACTOR_REAL_SYMMETRIC ? 2 : 0;
    f->d->par = 1;
    f->d->comm_fortran = fcomm;
  }
  mumps_run (f, JOB_INIT);
  f->alive = 1;
  if (INFOG (f, 1) < 0) return mumps_fail (f, "initialization", err);
  set_controls (f);
  set_matrix (f);
  return 0;
}

/* Collective; see factor.h. Steps: factor_new, factor_input, factor_header,
   factor_start (job -1), the analysis (job 1) and the factorization. */
factor *factor_create_opts (MPI_Comm comm, factor_kind kind, int n, long nnz,
                            const int *irow, const int *jcol, const void *a,
                            const char *name, const factor_opts *opts, mb_err *err)
{
  int rank, size, dist = 0;
  MPI_Comm_rank (comm, &rank);
  MPI_Comm_size (comm, &size);
  factor *f = factor_new (comm, rank, size, kind, name);
  if (factor_input (comm, f, kind, n, nnz, irow, jcol, a, name, opts, &dist, err) < 0)
    return factor_free (f);
  factor_header (f, n, nnz, dist);
  if (factor_start (f, err) < 0) return factor_free (f);
  double t0 = MPI_Wtime ();
  mumps_run (f, JOB_ANALYSE);
  f->t_analysis = MPI_Wtime () - t0;
  if (INFOG (f, 1) < 0) {
    mumps_fail (f, "analysis", err);
    return factor_free (f);
  }
  f->analysed = 1;
  if (factorize (f, "factorization", err) < 0) return factor_free (f);
  return f;
}

/* Hands the right-hand sides to the host's instance. */
static void set_rhs (factor *f, void *b, int nrhs)
{
  if (f->rank != 0) return;
  if (f->z) {
    f->z->rhs = (ZMUMPS_COMPLEX *) b;
    f->z->nrhs = nrhs;
    f->z->lrhs = f->n;
  } else {
    f->d->rhs = (DMUMPS_COMPLEX *) b;
    f->d->nrhs = nrhs;
    f->d->lrhs = f->n;
  }
}

int factor_solve_many (factor *f, void *b, int nrhs, mb_err *err)
{
  if (!f) return mb_fail (err, MB_ESOLVE, "no factorization to solve with");
  int rc = 0;
  mb_err mine;
  mb_err_init (&mine);
  size_t bytes = 0;
  void *copy = NULL;  /* rank 0: b as given, to solve again after a refactorization */
  if (f->rank == 0) {
    size_t vsize = f->z ? sizeof (double complex) : sizeof (double);
    if (!b || nrhs < 1)
      rc = mb_fail (&mine, MB_ESOLVE, "solve with matrix '%s': no right-hand side given "
                    "(nrhs = %d)", f->name, nrhs);
    else if ((size_t) nrhs > SIZE_MAX / vsize / (size_t) f->n)
      rc = mb_fail (&mine, MB_ENOMEM, "solve with matrix '%s': %d right-hand sides are too "
                    "many", f->name, nrhs);
    else {
      bytes = (size_t) f->n * (size_t) nrhs * vsize;
      copy = malloc (bytes);
      if (!copy)
        rc = mb_fail (&mine, MB_ENOMEM, "solve with matrix '%s': out of memory for %d "
                      "right-hand sides", f->name, nrhs);
      else memcpy (copy, b, bytes);
    }
  }
  if ((rc = agree (f->comm, rc, &mine, err)) < 0) goto done;
  if (!f->factored) {
    rc = mb_fail (err, MB_ESOLVE, "solve with matrix '%s': its factorization was lost "
                  "after an earlier failure", f->name);
    goto done;
  }
  for (int tries = 0;; tries++) {
    set_rhs (f, b, nrhs);
    double t0 = MPI_Wtime ();
    mumps_run (f, JOB_SOLVE);
    f->t_solve += MPI_Wtime () - t0;
    int e = INFOG (f, 1);
    if (e >= 0) break;
    if (!is_workspace (e) || tries == MAX_RETRIES || ICNTL (f, 14) >= ICNTL14_MAX) {
      rc = mumps_fail (f, "solve", err);
      goto done;
    }
    /* more workspace is allocated at factorization: refactor, then solve b again */
    ICNTL (f, 14) = grow_icntl14 (ICNTL (f, 14));
    f->retries++;
    if ((rc = factorize (f, "refactorization", err)) < 0) goto done;
    if (f->rank == 0) memcpy (b, copy, bytes);
  }
  double t[2] = { f->t_solve, f->rank == 0 ? nrhs : 0 }, m[2];   /* max over ranks */
  MPI_Allreduce (t, m, 2, MPI_DOUBLE, MPI_MAX, f->comm);
  f->t_solve_max = m[0];
  f->solves++;
  f->rhs += (long) m[1];
  rc = 0;
done:
  set_rhs (f, NULL, 0);
  free (copy);
  return rc < 0 ? rc : 0;
}

int factor_solve (factor *f, void *b, mb_err *err)
{
  return factor_solve_many (f, b, 1, err);
}

/* ---- solves with right-hand sides and solutions distributed by rows ------------------ */

/* p (owned, may be NULL) with room for at least `need` elements of `size` bytes (*cap
   counts them): p itself when it is large enough, else a new zeroed block (p freed, its
   contents dropped). NULL when out of memory or the fault site "factor" fires: p is then
   freed and *cap = 0. */
static void *grow (void *p, size_t *cap, size_t need, size_t size)
{
  int fault = mb_fault ("factor");
  if (p && *cap >= need && !fault) return p;
  free (p);
  *cap = 0;
  p = fault ? NULL : mb_calloc (need, size);
  if (p) *cap = need;
  return p;
}

/* This rank's buffers for one rows solve: IRHS_loc for nloc rows, ISOL_loc and SOL_loc for
   INFO(23) pivots and nrhs columns of w doubles (w = 2 complex), one column of scratch (no
   send or receive buffer: the exchange sends from SOL_loc and receives into B).
   Fills IRHS_loc with row0 + 1 .. row0 + nloc. Returns 0 or MB_ENOMEM in `mine`. */
static int rows_buffers (factor *f, int row0, int nloc, int nrhs, mb_err *mine)
{
  size_t w = f->z ? 2 : 1, nsol = INFO (f, 23) > 0 ? (size_t) INFO (f, 23) : 0;
  size_t ns = nsol * (size_t) nrhs * w;
  if (ns > INT_MAX || (size_t) nloc * (size_t) nrhs * w > INT_MAX
      || nsol * w * sizeof (double) > INT_MAX)
    return mb_fail (mine, MB_ENOMEM, "rows solve with matrix '%s': %zu or %d rows times %d "
                    "right-hand sides are too many for one exchange", f->name, nsol, nloc,
                    nrhs);
  if (!(f->irhs = grow (f->irhs, &f->cap_irhs, (size_t) nloc, sizeof *f->irhs))
      || !(f->isol = grow (f->isol, &f->cap_sol, nsol, sizeof *f->isol))
      || !(f->sol = grow (f->sol, &f->cap_solv, ns, sizeof *f->sol))
      || !(f->sbuf = grow (f->sbuf, &f->cap_sbuf, nsol * w + 1, sizeof *f->sbuf)))
    return mb_fail (mine, MB_ENOMEM, "rows solve with matrix '%s': out of memory for the "
                    "distributed right-hand sides and solution", f->name);
  for (int i = 0; i < nloc; i++) f->irhs[i] = row0 + i + 1;
  return 0;
}

/* Hands this rank's rows to the instance (on = 1: ICNTL(20) = 10 distributed right-hand
   sides RHS_loc = B with LRHS_loc = ldb, ICNTL(21) = 1 distributed solution into SOL_loc
   and ISOL_loc), or (on = 0) restores the centralized controls 0/0 and clears them. */
static void rows_controls (factor *f, int on, int nloc, void *B, int ldb, int nrhs)
{
  ICNTL (f, 20) = on ? 10 : 0;
  ICNTL (f, 21) = on ? 1 : 0;
  MUMPS_INT nsol = on ? INFO (f, 23) : 0;
  if (f->z) {
    f->z->nrhs = on ? nrhs : 0;
    f->z->nloc_rhs = on ? nloc : 0;
    f->z->lrhs_loc = on ? ldb : 0;
    f->z->irhs_loc = on ? f->irhs : NULL;
    f->z->rhs_loc = on ? (ZMUMPS_COMPLEX *) B : NULL;
    f->z->lsol_loc = nsol;
    f->z->isol_loc = on ? f->isol : NULL;
    f->z->sol_loc = on ? (ZMUMPS_COMPLEX *) f->sol : NULL;
  } else {
    f->d->nrhs = on ? nrhs : 0;
    f->d->nloc_rhs = on ? nloc : 0;
    f->d->lrhs_loc = on ? ldb : 0;
    f->d->irhs_loc = on ? f->irhs : NULL;
    f->d->rhs_loc = on ? (DMUMPS_COMPLEX *) B : NULL;
    f->d->lsol_loc = nsol;
    f->d->isol_loc = on ? f->isol : NULL;
    f->d->sol_loc = on ? (DMUMPS_COMPLEX *) f->sol : NULL;
  }
}

/* The rank owning 0-based row g in the layout f->lay (row0 ascending; ranks with no rows
   share the next rank's row0): the last rank r with row0_r <= g. */
static int row_owner (const factor *f, int g)
{
  int lo = 0, hi = f->size - 1;
  while (lo < hi) {
    int mid = (lo + hi + 1) / 2;
    if (f->lay[3 * mid] <= g) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/* Collective. The plan for the layout f->lay and this solve's ISOL_loc (nsol = INFO(23)
   entries): SOL_loc entry k holds row g = ISOL_loc(k) - 1 of X, owned by rank
   d = row_owner (g). scount[d] = entries sent to d, grouped by d in sperm (stable in k);
   rcount[s] = entries received from s, and rrow[q] = g - row0 for received position q,
   learnt by sending the g along once. Checks that every rank receives exactly its nloc rows.
   Returns 0 or an error, the same on every rank. */
static int rows_plan (factor *f, int row0, int nloc, mb_err *err)
{
  int rc = 0, P = f->size, nsol = INFO (f, 23) > 0 ? (int) INFO (f, 23) : 0;
  mb_err mine;
  mb_err_init (&mine);
  f->plan_ok = 0;
  if (!(f->isol_plan = grow (f->isol_plan, &f->cap_plan, (size_t) nsol,
                             sizeof *f->isol_plan))
      || !(f->sperm = grow (f->sperm, &f->cap_perm, (size_t) nsol, sizeof *f->sperm))
      || !(f->rrow = grow (f->rrow, &f->cap_rrow, (size_t) nloc, sizeof *f->rrow))
      || (!f->cnt && !(f->cnt = mb_calloc (8 * (size_t) P, sizeof *f->cnt)))
      || (!f->types && !(f->types = mb_calloc (2 * (size_t) P, sizeof *f->types))))
    rc = mb_fail (&mine, MB_ENOMEM, "rows solve with matrix '%s': out of memory for the "
                  "exchange plan", f->name);
  for (int k = 0; rc == 0 && k < nsol; k++)
    if (f->isol[k] < 1 || f->isol[k] > f->n)
      rc = mb_fail (&mine, MB_ESOLVE, "rows solve with matrix '%s': MUMPS's ISOL_loc(%d) = %d "
                    "is outside 1..%d on rank %d", f->name, k + 1, (int) f->isol[k], f->n,
                    f->rank);
  if ((rc = agree (f->comm, rc, &mine, err)) < 0) return rc;
  int *scount = f->cnt, *sdispl = scount + P, *rcount = sdispl + P, *rdispl = rcount + P;
  for (int d = 0; d < P; d++) scount[d] = 0;
  for (int k = 0; k < nsol; k++) scount[row_owner (f, (int) f->isol[k] - 1)]++;
  sdispl[0] = 0;
  for (int d = 1; d < P; d++) sdispl[d] = sdispl[d - 1] + scount[d - 1];
  int *next = rcount;                       /* scratch: next free send position per rank */
  for (int d = 0; d < P; d++) next[d] = sdispl[d];
  int *gsend = (int *) f->sbuf;             /* the rows sent, 0-based global */
  for (int k = 0; k < nsol; k++) {
    int g = (int) f->isol[k] - 1, p = next[row_owner (f, g)]++;
    f->sperm[p] = k;
    gsend[p] = g;
    f->isol_plan[k] = f->isol[k];
  }
  MPI_Alltoall (scount, 1, MPI_INT, rcount, 1, MPI_INT, f->comm);
  rdispl[0] = 0;
  for (int s = 1; s < P; s++) rdispl[s] = rdispl[s - 1] + rcount[s - 1];
  long total = (long) rdispl[P - 1] + rcount[P - 1];
  if (total != nloc)
    rc = mb_fail (&mine, MB_ESOLVE, "rows solve with matrix '%s': MUMPS's solution holds %ld "
                  "of rank %d's %d rows", f->name, total, f->rank, nloc);
  if ((rc = agree (f->comm, rc, &mine, err)) < 0) return rc;
  MPI_Alltoallv (gsend, scount, sdispl, MPI_INT, f->rrow, rcount, rdispl, MPI_INT, f->comm);
  for (int q = 0; rc == 0 && q < nloc; q++) {
    f->rrow[q] -= row0;
    if (f->rrow[q] < 0 || f->rrow[q] >= nloc)
      rc = mb_fail (&mine, MB_ESOLVE, "rows solve with matrix '%s': rank %d received row %d "
                    "outside its rows %d..%d", f->name, f->rank, f->rrow[q] + row0, row0,
                    row0 + nloc - 1);
  }
  if ((rc = agree (f->comm, rc, &mine, err)) < 0) return rc;
  for (int q = 0; q < nloc; q++) f->rrow[q] *= f->z ? 2 : 1;  /* offsets in doubles */
  memcpy (f->plan_lay, f->lay, 3 * (size_t) P * sizeof *f->lay);
  f->plan_gen = f->nfactor;
  f->plan_nsol = nsol;
  f->plan_ok = 1;
  return 0;
}

/* Collective. 1 on every rank when the plan must be (re)built: none yet, another
   factorization since, another layout (row0 or nloc of any rank), or this rank's INFO(23)
   or ISOL_loc differ from the plan's (compared entry by entry, O(INFO(23))). */
static int rows_plan_stale (factor *f)
{
  int stale = !f->plan_ok || f->plan_gen != f->nfactor;
  for (int r = 0; !stale && r < f->size; r++)
    stale = f->lay[3 * r] != f->plan_lay[3 * r] || f->lay[3 * r + 1] != f->plan_lay[3 * r + 1];
  int nsol = INFO (f, 23) > 0 ? (int) INFO (f, 23) : 0;
  if (!stale) stale = nsol != f->plan_nsol;
  if (!stale && nsol > 0)
    stale = memcmp (f->isol, f->isol_plan, (size_t) nsol * sizeof *f->isol) != 0;
  MPI_Allreduce (MPI_IN_PLACE, &stale, 1, MPI_INT, MPI_MAX, f->comm);
  return stale;
}

/* Collective. SOL_loc (nrhs columns of INFO(23) entries, w doubles each) to the callers'
   rows of B by the plan, with no packed copy: each column of SOL_loc is put in send order
   in place (sperm: grouped by destination; one column of scratch), so that what goes to
   rank d is the vector type of nrhs blocks of w scount[d] doubles, stride w INFO(23), at
   w sdispl[d]; what comes from rank s lands in B through the indexed type of its rows
   (rrow[rdispl[s] ..], w doubles each) repeated over the nrhs columns (stride ldb). One
   MPI_Alltoallw moves every column, this rank's own rows included. */
static void rows_exchange (factor *f, void *B, int ldb, int nrhs)
{
  int P = f->size, w = f->z ? 2 : 1, nsol = f->plan_nsol;
  int *scount = f->cnt, *sdispl = scount + P, *rcount = sdispl + P, *rdispl = rcount + P;
  int *sc = rdispl + P, *sd = sc + P, *rcn = sd + P, *rd = rcn + P;
  MPI_Datatype *stype = f->types, *rtype = f->types + P;
  double *tmp = f->sbuf;
  for (int j = 0; j < nrhs; j++) {
    double *col = f->sol + (size_t) w * j * nsol;
    for (int p = 0; p < nsol; p++)
      for (int c = 0; c < w; c++) tmp[w * p + c] = col[(size_t) w * f->sperm[p] + c];
    memcpy (col, tmp, (size_t) w * nsol * sizeof *col);
  }
  for (int d = 0; d < P; d++) {
    sc[d] = scount[d] > 0;
    sd[d] = (int) (sizeof (double) * (size_t) w * sdispl[d]);
    stype[d] = MPI_DOUBLE;
    if (sc[d]) {
      MPI_Type_vector (nrhs, w * scount[d], w * nsol, MPI_DOUBLE, &stype[d]);
      MPI_Type_commit (&stype[d]);
    }
    rcn[d] = rcount[d] > 0;
    rd[d] = 0;
    rtype[d] = MPI_DOUBLE;
    if (rcn[d]) {
      MPI_Datatype rows;
      MPI_Type_create_indexed_block (rcount[d], w, f->rrow + rdispl[d], MPI_DOUBLE, &rows);
      MPI_Type_create_hvector (nrhs, 1, (MPI_Aint) ldb * w * (MPI_Aint) sizeof (double), rows,
                               &rtype[d]);
      MPI_Type_commit (&rtype[d]);
      MPI_Type_free (&rows);
    }
  }
  MPI_Alltoallw (f->sol, sc, sd, stype, B, rcn, rd, rtype, f->comm);
  for (int d = 0; d < P; d++) {
    if (sc[d]) MPI_Type_free (&stype[d]);
    if (rcn[d]) MPI_Type_free (&rtype[d]);
  }
}

int factor_solve_rows (factor *f, int row0, int nloc, void *B, int ldb, int nrhs, mb_err *err)
{
  if (!f) return mb_fail (err, MB_ESOLVE, "no factorization to solve with");
  int rc = 0, P = f->size;
  mb_err mine;
  mb_err_init (&mine);
  if (nloc < 0 || row0 < 0 || nrhs < 1 || ldb < (nloc > 1 ? nloc : 1) || (nloc > 0 && !B))
    rc = mb_fail (&mine, MB_ESOLVE, "rows solve with matrix '%s': rank %d gives rows %d + %d, "
                  "ldb %d, nrhs %d, B %s", f->name, f->rank, row0, nloc, ldb, nrhs,
                  B ? "given" : "NULL");
  else if ((!f->lay && !(f->lay = mb_calloc (3 * (size_t) P, sizeof *f->lay)))
           || (!f->plan_lay && !(f->plan_lay = mb_calloc (3 * (size_t) P, sizeof *f->lay))))
    rc = mb_fail (&mine, MB_ENOMEM, "rows solve with matrix '%s': out of memory for the "
                  "layout", f->name);
  if ((rc = agree (f->comm, rc, &mine, err)) < 0) return rc;

  /* the layout of every rank, checked identically everywhere */
  int own[3] = { row0, nloc, nrhs };
  MPI_Allgather (own, 3, MPI_INT, f->lay, 3, MPI_INT, f->comm);
  long next = 0;
  for (int r = 0; r < P; r++) {
    if (f->lay[3 * r + 2] != f->lay[2])
      return mb_fail (err, MB_ESOLVE, "rows solve with matrix '%s': rank %d gives %d "
                      "right-hand sides, rank 0 %d", f->name, r, f->lay[3 * r + 2],
                      f->lay[2]);
    if (f->lay[3 * r] != next)
      return mb_fail (err, MB_ESOLVE, "rows solve with matrix '%s': rank %d's rows start at "
                      "%d, not %ld (ranks' rows must be contiguous, in rank order)", f->name,
                      r, f->lay[3 * r], next);
    next += f->lay[3 * r + 1];
  }
  if (next != f->n)
    return mb_fail (err, MB_ESOLVE, "rows solve with matrix '%s': the ranks give %ld rows, "
                    "its order is %d", f->name, next, f->n);
  if (!f->factored)
    return mb_fail (err, MB_ESOLVE, "solve with matrix '%s': its factorization was lost "
                    "after an earlier failure", f->name);

  double t0 = MPI_Wtime ();
  for (int tries = 0;; tries++) {
    /* INFO(23) may change with each factorization: buffers sized for the current one */
    rc = rows_buffers (f, row0, nloc, nrhs, &mine);
    if ((rc = agree (f->comm, rc, &mine, err)) < 0) goto done;
    rows_controls (f, 1, nloc, B, ldb, nrhs);
    mumps_run (f, JOB_SOLVE);
    rows_controls (f, 0, 0, NULL, 0, 0);
    int e = INFOG (f, 1);
    if (e >= 0) break;
    if (!is_workspace (e) || tries == MAX_RETRIES || ICNTL (f, 14) >= ICNTL14_MAX) {
      rc = mumps_fail (f, "solve", err);
      goto done;
    }
    /* more workspace is allocated at factorization: refactor, then solve again (MUMPS reads
       RHS_loc = B without writing it, the solution goes to SOL_loc) */
    ICNTL (f, 14) = grow_icntl14 (ICNTL (f, 14));
    f->retries++;
    double t1 = MPI_Wtime ();
    rc = factorize (f, "refactorization", err);
    t0 += MPI_Wtime () - t1;                /* counted as factorization, not solve */
    if (rc < 0) goto done;
  }
  if (rows_plan_stale (f) && (rc = rows_plan (f, row0, nloc, err)) < 0) goto done;
  rows_exchange (f, B, ldb, nrhs);
  f->t_solve += MPI_Wtime () - t0;
  MPI_Allreduce (&f->t_solve, &f->t_solve_max, 1, MPI_DOUBLE, MPI_MAX, f->comm);
  f->solves++;
  f->rhs += nrhs;
  rc = 0;
done:
  return rc < 0 ? rc : 0;
}

/* Rank 0 (distributed: every rank, its own): checks the new values (finite) and copies them
   over f->a. Returns 0 or an error; on failure f->a is unchanged. */
static int copy_values (factor *f, const void *a, mb_err *err)
{
  int cplx = is_complex (f->kind);
  if (f->nnz > 0 && !a)
    return mb_fail (err, MB_ESOLVE, "refactor matrix '%s': no values given", f->name);
  for (long k = 0; k < f->nnz; k++) {
    int finite = cplx ? isfinite (creal (((const double complex *) a)[k]))
                          && isfinite (cimag (((const double complex *) a)[k]))
                      : isfinite (((const double *) a)[k]);
    if (!finite)
      return mb_fail (err, MB_ESOLVE, "refactor matrix '%s': entry %ld%s at (%d, %d) is not "
                      "finite", f->name, k, f->dist ? " (distributed)" : "",
                      (int) f->irn[k] - 1, (int) f->jcn[k] - 1);
  }
  if (f->nnz > 0)
    memcpy (f->a, a, (size_t) f->nnz * (cplx ? sizeof (double complex) : sizeof (double)));
  return 0;
}

int factor_refactor (factor *f, const void *a, mb_err *err)
{
  if (!f) return mb_fail (err, MB_ESOLVE, "no factorization to refactor");
  int rc = 0;
  mb_err mine;
  mb_err_init (&mine);
  if (f->rank == 0 || f->dist) rc = copy_values (f, a, &mine);
  if ((rc = agree (f->comm, rc, &mine, err)) < 0) return rc;
  set_matrix (f);   /* the same arrays: only the values changed */
  if ((rc = factorize (f, "refactorization", err)) < 0) return rc;
  f->refactors++;
  return 0;
}

int factor_null_pivots (const factor *f, int *count, int **rows)
{
  if (rows) *rows = NULL;
  if (!f || !f->opts.null_pivots) {
    *count = -1;
    return 0;
  }
  *count = f->nnull > 0 ? f->nnull : 0;
  if (!rows || *count == 0) return 0;
  *rows = mb_calloc ((size_t) *count, sizeof **rows);
  if (!*rows) return MB_ENOMEM;
  memcpy (*rows, f->nullrows, (size_t) *count * sizeof **rows);
  return 0;
}

int factor_deficiency (MPI_Comm comm, factor_kind kind, int n, long nnz, const int *irow,
                       const int *jcol, const void *a, const char *name, int *count,
                       int **rows, mb_err *err)
{
  return factor_deficiency_inertia (comm, kind, n, nnz, irow, jcol, a, name, count, rows, NULL,
                                    err);
}

int factor_deficiency_inertia (MPI_Comm comm, factor_kind kind, int n, long nnz,
                               const int *irow, const int *jcol, const void *a,
                               const char *name, int *count, int **rows, long *negative,
                               mb_err *err)
{
  return factor_deficiency_dist (comm, kind, n, nnz, irow, jcol, a, name, 0, count, rows,
                                 negative, err);
}

int factor_deficiency_dist (MPI_Comm comm, factor_kind kind, int n, long nnz,
                            const int *irow, const int *jcol, const void *a, const char *name,
                            int distributed, int *count, int **rows, long *negative,
                            mb_err *err)
{
  int rank, rc = 0;
  mb_err mine;
  mb_err_init (&mine);
  MPI_Comm_rank (comm, &rank);
  *count = -1;
  if (rows) *rows = NULL;
  /* rank 0: the triplets plus an explicit zero on every diagonal entry (distributed: every
     rank its own triplets, rank 0 the diagonal) */
  int *ir = NULL, *jc = NULL, ndiag = rank == 0 && n > 0 ? n : 0;
  void *v = NULL;
  long nz = 0;
  if (rank == 0 || distributed) {
    size_t vsize = is_complex (kind) ? sizeof (double complex) : sizeof (double);
    nz = (nnz > 0 ? nnz : 0) + ndiag;
    ir = mb_calloc (nz > 0 ? (size_t) nz : 1, sizeof *ir);
    jc = mb_calloc (nz > 0 ? (size_t) nz : 1, sizeof *jc);
    v = mb_calloc (nz > 0 ? (size_t) nz : 1, vsize);      /* zeros: the added diagonal */
    if (!ir || !jc || !v)
      rc = mb_fail (&mine, MB_ENOMEM, "matrix '%s': out of memory for its diagnosis",
                    name ? name : "A");
    else if (nnz > 0 && (!irow || !jcol || !a))
      rc = mb_fail (&mine, MB_ESOLVE, "matrix '%s': no entries given (nnz = %ld)",
                    name ? name : "A", nnz);
    else {
      if (nnz > 0) {
        memcpy (ir, irow, (size_t) nnz * sizeof *ir);
        memcpy (jc, jcol, (size_t) nnz * sizeof *jc);
        memcpy (v, a, (size_t) nnz * vsize);
      }
      long at = nnz > 0 ? nnz : 0;
      for (int i = 0; i < ndiag; i++) ir[at + i] = jc[at + i] = i;
    }
  }
  factor *f = NULL;
  if ((rc = agree (comm, rc, &mine, err)) == 0) {
    factor_opts o;
    factor_opts_default (&o);
    o.null_pivots = 1;
    o.null_threshold = factor_null_threshold (n);
    o.null_fixation = 0.0;
    o.distributed = distributed;
    f = factor_create_opts (comm, kind, n, nz, ir, jc, v, name, &o, err);
    rc = f ? 0 : err->code;
  }
  free (ir);
  free (jc);
  free (v);
  if (f && negative) {
    factor_stats st;
    factor_get_stats (f, &st);
    *negative = st.negative_pivots;
  }
  if (f) {
    rc = factor_null_pivots (f, count, rows);
    if (rc < 0)
      mb_fail (&mine, rc, "matrix '%s': out of memory for its null pivot list", f->name);
    rc = agree (comm, rc, &mine, err);
    if (rc < 0) {
      *count = -1;
      if (rows) {
        free (*rows);
        *rows = NULL;
      }
    }
  }
  factor_free (f);
  return rc < 0 ? rc : 0;
}

void factor_get_stats (const factor *f, factor_stats *s)
{
  memset (s, 0, sizeof *s);
  s->negative_pivots = -1;
  if (!f) return;
  s->ranks = f->size;
  s->symmetric = is_symmetric (f->kind);
  s->complex_arith = is_complex (f->kind);
  s->order = f->n;
  s->nnz_matrix = f->nnz_all;
  long nf = INFOG (f, 29);               /* negative: -nf millions of entries */
  s->nnz_factors = nf >= 0 ? nf : -nf * 1000000L;
  if (f->kind == FACTOR_REAL_SYMMETRIC) s->negative_pivots = INFOG (f, 12);
  s->memory_mb = INFOG (f, 22);
  s->icntl14 = (int) (f->z ? f->z->icntl[13] : f->d->icntl[13]);
  s->retries = f->retries;
  s->time_analysis = f->t_ana_max;
  s->time_factor = f->t_fac_max;
  s->ordering = (int) INFOG (f, 7);
  s->low_rank = f->opts.low_rank;
}

const char *factor_ordering_name (int icntl7)
{
  static const char *const names[] = { "amd", "unknown", "amf", "scotch", "pord", "metis",
                                       "qamd", "automatic" };
  return icntl7 >= 0 && icntl7 <= 7 ? names[icntl7] : "unknown";
}

void factor_get_phases (const factor *f, factor_phases *p)
{
  memset (p, 0, sizeof *p);
  p->null_pivots = -1;
  if (!f) return;
  p->analyses = f->analysed;
  p->factorizations = f->nfactor - f->nfactor_base;
  p->refactorizations = f->refactors;
  p->retries = f->retries;
  p->solves = f->solves;
  p->solved_rhs = f->rhs;
  p->time_analysis = f->t_ana_max;
  p->time_factor = f->t_fac_max;
  p->time_factor_last = f->t_last_max;
  p->time_solve = f->t_solve_max;
  p->null_detection = f->opts.null_pivots != 0;
  p->null_pivots = f->opts.null_pivots ? f->nnull : -1;
  p->ordering = (int) INFOG (f, 7);
}

factor *factor_free (factor *f)
{
  if (!f) return NULL;
  if (f->holds > 0) {  /* another holder keeps it (factor_hold) */
    f->holds--;
    return NULL;
  }
  if (f->alive) mumps_run (f, JOB_END);
  free (f->d);
  free (f->z);
  free (f->irn);
  free (f->jcn);
  free (f->a);
  free (f->nullrows);
  free (f->lay);
  free (f->plan_lay);
  free (f->cnt);
  free (f->irhs);
  free (f->isol);
  free (f->isol_plan);
  free (f->sperm);
  free (f->rrow);
  free (f->sol);
  free (f->sbuf);
  free (f->types);
  free (f);
  return NULL;
}

/* One more holder of f: the next factor_free only drops it. Same calls on every rank. */
void factor_hold (factor *f)
{
  if (f) f->holds++;
}

/* Collective on comm. 1 on every rank when ok is 1 on every rank and f (non-NULL) was
   created with this kind, order and options' input mode and holds the same triplets'
   rows and columns (0-based irow, jcol against f's 1-based copy; rank 0's, or with
   distributed input every rank's own): then factor_refactor takes values in this order. */
int factor_same_pattern (MPI_Comm comm, const factor *f, int ok, factor_kind kind, int n,
                         long nnz, const int *irow, const int *jcol, int distributed)
{
  int rank;
  MPI_Comm_rank (comm, &rank);
  int same = ok && f && f->kind == kind && f->n == n && f->dist == (distributed != 0);
  if (same && (rank == 0 || f->dist)) {
    same = f->nnz == nnz && (nnz == 0 || (irow && jcol));
    for (long k = 0; same && k < nnz; k++)
      same = f->irn[k] == irow[k] + 1 && f->jcn[k] == jcol[k] + 1;
  }
  int all = 0;
  MPI_Allreduce (&same, &all, 1, MPI_INT, MPI_MIN, comm);
  return all;
}

/* Starts a new use of f on its analysis: the counts and times of factor_get_stats and
   factor_get_phases restart from zero, and no analysis is counted, so that the next
   factor_refactor's are the use's own; name (NULL: kept) names the matrix in messages.
   Same calls on every rank. Not collective. */
void factor_reuse (factor *f, const char *name)
{
  if (!f) return;
  if (name) snprintf (f->name, sizeof f->name, "%s", name);
  f->analysed = 0;
  f->nfactor_base = f->nfactor;
  f->retries = 0;
  f->refactors = 0;
  f->solves = 0;
  f->rhs = 0;
  f->t_analysis = f->t_ana_max = 0.0;
  f->t_factor = f->t_fac_max = 0.0;
  f->t_last = f->t_last_max = 0.0;
  f->t_solve = f->t_solve_max = 0.0;
}
