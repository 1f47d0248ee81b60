/* stage.c: the skeleton of an eigen stage at one shift: pencil, factors, Krylov-Schur on
   the shift-invert operator, modes, check; one agreed status after each step. */
#include "stage.h"

#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../linalg/blas.h"
#include "../linalg/factor_cache.h"
#include "shift_invert.h"
#include "singular.h"

static double now (void) { return MPI_Wtime (); }

void stage_log (const stage *st, const char *fmt, ...)
{
  if (!st->log) return;
  va_list ap;
  va_start (ap, fmt);
  vfprintf (st->log, fmt, ap);
  va_end (ap);
  fflush (st->log);
}

void stage_detail (const stage *st, const char *fmt, ...)
{
  if (!st->detail) return;
  va_list ap;
  va_start (ap, fmt);
  vfprintf (st->detail, fmt, ap);
  va_end (ap);
  fflush (st->detail);
}

void stage_factor_opts (const stage *st, int own_ordering, factor_opts *fo)
{
  const eigen_solver *s = &st->opts->solver;
  factor_opts_default (fo);
  fo->ordering = s->has_ordering ? s->ordering : own_ordering;
  if (s->has_workspace) fo->icntl14 = s->workspace;
  fo->low_rank = s->low_rank;
}

/* Progress of Krylov-Schur: a line at most every 2 s (and after the first restart). */
typedef struct progress_ctx { FILE *out; double t0, last; } progress_ctx;

static void progress_print (void *ctx, int restart, int nconv, int nev, double worst)
{
  progress_ctx *p = ctx;
  double t = now ();
  if (!p->out || (t - p->last < 2.0 && restart > 0)) return;
  p->last = t;
  fprintf (p->out, "  restart %4d: %3d of %d converged, worst residual %.2e  [%.1f s]\n",
           restart, nconv < nev ? nconv : nev, nev, worst, t - p->t0);
  fflush (p->out);
}

/* The shift as the log and the factor's name write it: "-0.001 rad^2/s^2", "0.001+0i 1/s". */
static void shift_text (const stage_ops *ops, double complex sigma, char *buf, size_t len)
{
  if (ops->complex_arith)
    snprintf (buf, len, "%.6g%+.6gi %s", creal (sigma), cimag (sigma), ops->unit);
  else
    snprintf (buf, len, "%.6g %s", creal (sigma), ops->unit);
}

/* 1: the stage at st->sigma runs in complex arithmetic (the damped stage at a shift with an
   imaginary part); 0: real (the undamped stage; the damped one at a real shift, where
   OP of GEP (31) is a real operator: its eigenvalues come in conjugate pairs, which the
   real Krylov-Schur keeps whole; ops->complex_arith == 2: complex at every shift). */
static int complex_at (const stage_ops *ops, const stage *st)
{
  return ops->complex_arith == 2 || (ops->complex_arith && cimag (st->sigma) != 0.0);
}

/* The factorization of A - sigma B at st->sigma: real or complex (complex_at), LDL^T or LU
   (st->symmetric). */
static factor_kind kind_at (const stage_ops *ops, const stage *st)
{
  if (complex_at (ops, st))
    return st->symmetric ? FACTOR_COMPLEX_SYMMETRIC : FACTOR_COMPLEX_GENERAL;
  return st->symmetric ? FACTOR_REAL_SYMMETRIC : FACTOR_REAL_GENERAL;
}

/* Rank 0: what Krylov-Schur did, into the result. */
static void record_krylov (eigen_result *out, const ks_opts *o, const ks_result *ks)
{
  out->nev = o->nev;
  out->ncv = ks->ncv;
  out->restarts = ks->restarts;
  out->nconv = ks->nconv;
  out->converged = ks->converged;
  out->op_applies = ks->applies;
}

/* What the Krylov phase did, as rank 0 saw it, for the profile (times [s], rank 0's clock). */
typedef struct krylov_facts {
  double t_apply, t_orth, t_schur, t_basis;  /* Krylov-Schur's own split (ks_result) */
  double t_solve;                            /* solves in OP, scatter included */
  long rhs;                                  /* right-hand sides solved */
  long calls, block_calls, solved_rhs;       /* solve calls, multi-RHS ones, RHS (MUMPS) */
  int block;                                 /* block size */
} krylov_facts;

/* x, but at most what is left of *budget, which it then uses up: consecutive parts of one
   interval stay disjoint even when two clocks disagree by a little. */
static double take (double *budget, double x)
{
  double t = fmin (fmax (x, 0.0), fmax (*budget, 0.0));
  *budget -= t;
  return t;
}

/* Rank 0. out->profile's times, counts and floor from the stage's timings (out), the
   Krylov phase (kf), the slowest rank's dgemm rate and the ranks. The parts split the
   stage's wall time into disjoint intervals (docs/output.md, `profile`). The floor
   (docs/method.md): factorization + k solves at the measured time per right-hand side +
   orthogonalization of N x k as BLAS-3 at the measured rate on every rank, with
   k = min (nconv, nev) + block. */
static void profile_fill (const stage_ops *ops, const stage *st, const krylov_facts *kf,
                          double rate)
{
  eigen_result *out = st->out;
  eigen_profile *p = &out->profile;
  double total = out->time_total;
  p->done = 1;
  p->time_pencil = take (&total, out->time_assemble);
  double fac = take (&total, out->time_factor);
  p->time_analysis = take (&fac, out->factor.time_analysis);
  p->time_factor = fac;
  double iter = take (&total, out->time_iterate);
  p->time_solves = take (&iter, kf->t_solve);
  p->time_apply_other = take (&iter, kf->t_apply - kf->t_solve);
  p->time_orth = take (&iter, kf->t_orth);
  p->time_schur = take (&iter, kf->t_schur);
  p->time_basis = take (&iter, kf->t_basis);
  p->time_krylov_other = iter;
  double post = take (&total, out->time_post);
  p->time_check = take (&post, out->time_check);
  p->time_post = post;
  p->time_other = fmax (total, 0.0);

  p->rhs = kf->rhs;
  p->block_solves = kf->block_calls;
  p->single_solves = kf->calls - kf->block_calls;
  p->block_rhs = kf->solved_rhs - p->single_solves;
  p->block = kf->block > 0 ? kf->block : 1;
  p->gemm_rate = rate;
  long k = (out->nconv < out->nev ? out->nconv : out->nev) + p->block;
  if (k > st->N) k = st->N;
  p->floor_solves = k;
  p->time_per_rhs = kf->rhs > 0 ? kf->t_solve / (double) kf->rhs : 0.0;
  p->orth_flops = (complex_at (ops, st) ? 16.0 : 4.0) * (double) st->N * (double) k * (double) k;
  p->time_floor = rate > 0.0 && kf->rhs > 0
                ? out->time_factor + (double) k * p->time_per_rhs
                    + p->orth_flops / (rate * st->nranks)
                : 0.0;
}

/* Rank 0. The profile in the log: the breakdown, the solves, the memory of the ranks, the
   floor. */
static void profile_log (const stage_ops *ops, const stage *st)
{
  const eigen_result *out = st->out;
  const eigen_profile *p = &out->profile;
  double total = out->time_total > 0.0 ? out->time_total : 1.0;
  double krylov = p->time_solves + p->time_apply_other + p->time_orth + p->time_schur
                  + p->time_basis + p->time_krylov_other;
  stage_detail (st, "%s: the stage's %.2f s: pencil %.2f, analysis %.2f, factorization %.2f, "
             "Krylov-Schur %.2f, post-processing %.2f, missed-mode check %.2f (%.0f %%%s), "
             "other %.2f\n", ops->label, out->time_total, p->time_pencil, p->time_analysis,
             p->time_factor, krylov, p->time_post, p->time_check,
             100.0 * p->time_check / total, out->sturm_done ? "; target at most 15 %" : "",
             p->time_other);
  stage_detail (st, "%s: Krylov-Schur's %.2f s: solves %.2f, OP's B x and row exchanges "
             "%.2f, orthogonalization %.2f, Schur (projected problem) %.2f, basis rotations "
             "%.2f, the rest %.2f\n", ops->label, krylov, p->time_solves, p->time_apply_other,
             p->time_orth, p->time_schur, p->time_basis, p->time_krylov_other);
  stage_detail (st, "%s: %ld right-hand sides solved, %.3g ms each: %ld single solves, %ld "
             "multi-RHS solves of %ld (block size %d)\n", ops->label, p->rhs,
             1e3 * p->time_per_rhs, p->single_solves, p->block_solves, p->block_rhs, p->block);
  if (p->memory_bytes) {
    int peak = 0;
    double sum = 0.0;
    char list[400] = "";
    size_t len = 0;
    for (int r = 0; r < p->nranks; r++) {
      if (p->memory_bytes[r] > p->memory_bytes[peak]) peak = r;
      sum += p->memory_bytes[r] > 0 ? (double) p->memory_bytes[r] : 0.0;
      if (len < sizeof list - 40)
        len += (size_t) snprintf (list + len, sizeof list - len, "%s%.1f", r ? ", " : "",
                                  p->memory_bytes[r] / 1048576.0);
      else if (r == p->nranks - 1)
        snprintf (list + len, sizeof list - len, ", ...");
    }
    stage_detail (st, "%s: peak resident memory (VmHWM) of rank%s 0..%d: %s MiB; largest on "
               "rank %d, sum %.1f MiB\n", ops->label, p->nranks > 1 ? "s" : "",
               p->nranks - 1, list, peak, sum / 1048576.0);
  }
  if (p->time_floor > 0.0)
    stage_detail (st, "%s: floor %.2f s = factorization %.2f + %ld solves x %.3g ms + "
               "orthogonalization %.2f (%s N k^2 = %.3g flop, N = %d, k = %ld, at %.3g Gflop/s "
               "(dgemm) on %d rank%s); the stage took %.2f x the floor\n", ops->label,
               p->time_floor, out->time_factor, p->floor_solves, 1e3 * p->time_per_rhs,
               p->orth_flops / (p->gemm_rate * st->nranks), complex_at (ops, st) ? "16" : "4",
               p->orth_flops, st->N, p->floor_solves, 1e-9 * p->gemm_rate, st->nranks,
               st->nranks > 1 ? "s" : "", out->time_total / p->time_floor);
}

/* Collective. The end of a stage that reached its end: every rank measures its dgemm rate
   (blas_gemm_rate, once per run) and its peak resident memory (mb_peak_memory_bytes);
   rank 0 gathers them (the slowest rate; every rank's memory into a new list that
   out->profile owns, left NULL when rank 0 cannot allocate it), fills out->profile
   (profile_fill) and logs it. Nothing here fails the stage. */
static void profile_finish (const stage_ops *ops, stage *st, const krylov_facts *kf)
{
  eigen_profile *p = &st->out->profile;
  double rate = blas_gemm_rate (), slowest = 0.0;
  MPI_Reduce (&rate, &slowest, 1, MPI_DOUBLE, MPI_MIN, 0, st->comm);
  long mem = mb_peak_memory_bytes ();
  int have = 1;
  if (st->rank == 0) {
    free (p->memory_bytes);
    p->nranks = st->nranks;
    p->memory_bytes = mb_calloc ((size_t) st->nranks, sizeof *p->memory_bytes);
    have = p->memory_bytes != NULL;
  }
  MPI_Bcast (&have, 1, MPI_INT, 0, st->comm);
  if (have)
    MPI_Gather (&mem, 1, MPI_LONG, p->memory_bytes, 1, MPI_LONG, 0, st->comm);
  if (st->rank != 0) return;
  profile_fill (ops, st, kf, slowest);
  profile_log (ops, st);
}

/* Collective. The end of the Krylov phase: the status agreed (mb_agree), the iteration
   time and convergence flag on every rank, the shift-invert buffers freed; the factors
   too when the stage has no check (the check reuses their analysis). Returns the agreed
   status. */
static int end_krylov (MPI_Comm comm, int rc, double t0, factor **f, int keep,
                       shift_invert *si, eigen_result *out, mb_err *err)
{
  rc = mb_agree (comm, rc, err);
  out->time_iterate = now () - t0;
  MPI_Bcast (&out->converged, 1, MPI_INT, 0, comm);
  if (rc < 0 || !keep) *f = factor_free (*f);
  shift_invert_clear (si);
  return rc;
}

/* Collective. A - sigma B (st's triplets, rank 0: the pencil of GEP (18), or the reduced
   matrix of GEP (31), singular exactly when the pencil is; rows q then xi in both) failed
   to factor (as kind): its null pivots (factor_deficiency) say where; the pencil at a second,
   unrelated shift says whether it is singular at every shift (the model is at fault:
   MB_EDECK, naming the DOFs and constraint rows) or only at this one (an eigenvalue at the
   shift: MB_ESOLVE, try another shift). The triplets stay st's. Returns the agreed status,
   err set. */
static int diagnose_singular (const stage_ops *ops, stage *st, factor_kind kind, mb_err *err)
{
  int count = -1, count2 = -1, *rows = NULL, *rows2 = NULL;
  mb_err e2;
  mb_err_init (&e2);
  int dist = stage_pencil_by_rows (st);  /* every rank's rows, or rank 0's whole pencil */
  int rc = factor_deficiency_dist (st->comm, kind, st->Nf, st->nnz, st->row, st->col, st->val,
                                   "A - sigma B", dist, &count, &rows, NULL, &e2);
  if (rc < 0 || count <= 0) {  /* no null pivot found: MUMPS's own message stands */
    free (rows);
    return MB_ESOLVE;
  }
  /* the same at sigma2 = sigma + 0.618 max(1, |sigma|) (and + 0.3 i in the damped stage
     built on rank 0; by rows its pencil is real, and so is sigma2) */
  double complex sigma = st->sigma, step = 0.6180339887498949 * fmax (1.0, cabs (sigma));
  st->sigma = sigma + (ops->complex_arith && !dist ? step * (1.0 + 0.3 * I) : step);
  int fail = 0;
  if (st->rank == 0 || dist) {
    ops->pencil_clear (st);
    fail = ops->pencil (st) < 0;
  }
  rc = mb_agree (st->comm, fail ? mb_fail (&e2, MB_ENOMEM, "out of memory") : 0, &e2);
  if (rc == 0)  /* the damped stage's second shift is complex: so is its matrix */
    rc = factor_deficiency_dist (st->comm, kind_at (ops, st), st->Nf, st->nnz, st->row,
                                 st->col, st->val, "A - sigma2 B", dist, &count2, &rows2, NULL,
                                 &e2);
  st->sigma = sigma;
  char where[1200] = "", shift[96];
  shift_text (ops, sigma, shift, sizeof shift);
  if (rc == 0) mb_err_init (err);  /* the diagnosis replaces MUMPS's message */
  if (rc == 0 && count2 > 0) {
    gep_system whole = *st->sys;  /* a system by rows is gathered for the description */
    spm *K = NULL, *M = NULL, *Cq = NULL, *R = NULL;
    if (st->sys->parts
        && gep_parts_gather (st->comm, st->sys->parts, &K, &M, &Cq,
                             ops->complex_arith ? &R : NULL, &e2) == 0) {
      whole.K = K, whole.M = M, whole.Cq = Cq, whole.R = R;
      whole.parts = NULL, whole.measures = NULL;
    }
    if (st->rank == 0)
      singular_describe (whole.K ? &whole : st->sys, ops->complex_arith, count2, rows2, 0,
                         where, sizeof where);
    spm_free (K); spm_free (M); spm_free (Cq); spm_free (R);
    rc = mb_fail (err, MB_EDECK, "%s stage: A - sigma B is singular at every shift (%d null "
                  "pivot%s at %s and at a second shift): %s. The model is at fault: give "
                  "those DOFs mass or stiffness, remove redundant constraint rows",
                  ops->label, count2, count2 > 1 ? "s" : "", shift, where);
  } else if (rc == 0) {
    if (st->rank == 0)
      singular_describe (st->sys, ops->complex_arith, count, rows, 1, where, sizeof where);
    rc = mb_fail (err, MB_ESOLVE, "%s stage: A - sigma B is singular at the shift %s: an "
                  "eigenvalue lies there (%d null pivot%s, at %s; none at a second shift): "
                  "try another shift", ops->label, shift, count, count > 1 ? "s" : "", where);
  } else {
    rc = MB_ESOLVE;
  }
  free (rows);
  free (rows2);
  return mb_agree (st->comm, rc, err);
}

/* Collective. Steps 1-2: A - sigma B on rank 0 (fault site "pencil"), or with st->parts
   each rank's rows after rank 0's scaling, factored on every rank (distributed input with
   parts). Returns the factors (caller frees) or NULL with the agreed status in *rc. */
static factor *build_and_factor (const stage_ops *ops, stage *st, int *rc, mb_err *err)
{
  eigen_result *out = st->out;
  double t_start = now ();
  int fail = mb_fault ("pencil");
  if (stage_pencil_by_rows (st)) {
    if (st->rank == 0) ops->scaling (st);
    double sc[3] = { st->symmetric, st->s, st->w };
    MPI_Bcast (sc, 3, MPI_DOUBLE, 0, st->comm);
    st->symmetric = (int) sc[0];
    st->s = sc[1];
    st->w = sc[2];
    if (!fail) fail = ops->pencil (st) < 0;
  } else if (st->rank == 0 && !fail) fail = ops->pencil (st) < 0;
  *rc = fail ? mb_fail (err, MB_ENOMEM, "out of memory building A - sigma B (order %d)",
                        st->Nf) : 0;
  MPI_Bcast (&st->symmetric, 1, MPI_INT, 0, st->comm);
  MPI_Bcast (&st->w, 1, MPI_DOUBLE, 0, st->comm);
  MPI_Bcast (&st->s, 1, MPI_DOUBLE, 0, st->comm);  /* the modes by rows scale back by s */
  out->cq_scale = st->s;
  *rc = mb_agree (st->comm, *rc, err);
  if (*rc < 0) { ops->pencil_clear (st); return NULL; }
  out->time_assemble = now () - t_start;

  char shift[96], name[160];
  shift_text (ops, st->sigma, shift, sizeof shift);
  factor_kind kind = kind_at (ops, st);
  stage_log (st, "%s: %s, order %d (%d DOFs, %d constraints), shift %s\n", ops->label,
             ops->gep, st->N, st->sys->n, st->sys->m, shift);
  if (st->Nf != st->N)
    stage_detail (st, "%s: factoring the reduced matrix [K + sigma R + sigma^2 M, c Cq^T; c Cq, "
               "0] of order %d (%s, MUMPS, %d rank%s) ...\n", ops->label, st->Nf,
               complex_at (ops, st) ? (st->symmetric ? "complex symmetric LDL^T" : "complex LU")
               : st->symmetric ? "real symmetric LDL^T" : "real LU", st->nranks,
               st->nranks > 1 ? "s" : "");
  else
    stage_detail (st, "%s: factoring A - sigma B (%s, MUMPS, %d rank%s) ...\n", ops->label,
               ops->complex_arith ? "complex LU" : st->symmetric ? "LDL^T" : "LU", st->nranks,
               st->nranks > 1 ? "s" : "");
  double t0 = now ();
  snprintf (name, sizeof name, "A - sigma B (%s stage, sigma = %s)", ops->label, shift);
  /* the undamped pencil (LDL^T): QAMD with the pivot threshold 0.1 (scripts/bench/README.md,
     "2 ranks"); other stages: MUMPS's automatic ordering. A deck's solver section over both. */
  int undamped_ldlt = !ops->complex_arith && kind == FACTOR_REAL_SYMMETRIC;
  factor_opts fo;
  stage_factor_opts (st, undamped_ldlt ? 6 : 7, &fo);
  if (undamped_ldlt) fo.pivot_threshold = 0.1;
  fo.distributed = stage_pencil_by_rows (st);   /* a null pivot then fails as singular */
  /* a sweep's step: on the last step's analysis when the pattern is the same */
  factor *f = factor_cache_create (st->opts->factor_cache, st->comm, kind, st->Nf, st->nnz,
                                   st->row, st->col, st->val, name, &fo, NULL, err);
  st->nnz_factored = st->nnz;
  if (!f && err->code == MB_ESOLVE) {
    if (stage_pencil_by_rows (st)) st->singular_by_rows = 1;
    *rc = diagnose_singular (ops, st, kind, err);
    ops->pencil_clear (st);
    return NULL;
  }
  ops->pencil_clear (st);
  if (!f) { *rc = err->code ? err->code : MB_ESOLVE; return NULL; }
  factor_get_stats (f, &out->factor);
  out->time_factor = now () - t0;
  stage_detail (st, "%s: factored in %.2f s: %ld entries in factors, %.1f MB, ordering %s\n",
                ops->label, out->time_factor, out->factor.nnz_factors, out->factor.memory_mb,
                factor_ordering_name (out->factor.ordering));
  /* an ordering the MUMPS build lacks falls back to MUMPS's own choice: said, not hidden */
  if (fo.ordering != 7 && out->factor.ordering != fo.ordering)
    stage_log (st, "%s: the deck's ordering %s is not in this MUMPS build; MUMPS used %s\n",
               ops->label, factor_ordering_name (fo.ordering),
               factor_ordering_name (out->factor.ordering));
  return f;
}

/* Collective. Some reported modes have true residuals above EIGEN_RESIDUAL_SAFETY x the
   tolerance although Krylov-Schur called them converged: the result is marked not
   converged, each such mode is logged, and the message says why when the shift is far
   from those modes (|sigma| above 1e3 times their largest |lambda|): there
   OP = (A - sigma B)^-1 B is nearly 1/sigma times the identity on every mode, its eigenvalues differ in their last digits and the Ritz vectors mix modes. A shift the
   deck did not set (neither shift nor target_frequency) is not the user's to move: the
   message then says so, and advises on modes and subspace instead.
   Returns MB_ENOCONV on every rank (rank 0 sets err). */
static int residual_failure (const stage_ops *ops, stage *st, mb_err *err)
{
  eigen_result *out = st->out;
  out->converged = 0;
  st->residual_failed = 1;
  MPI_Bcast (&out->converged, 1, MPI_INT, 0, st->comm);
  if (st->rank != 0) return mb_agree (st->comm, MB_ENOCONV, err);
  double lmax = 0.0, limit = EIGEN_RESIDUAL_SAFETY * out->tolerance;
  for (int i = 0; i < out->nmodes; i++) {
    const mode *md = &out->modes[i];
    if (!(md->residual <= limit)) lmax = fmax (lmax, cabs (md->lambda));
    if (!(md->residual <= limit))
      stage_log (st, "%s: mode %d (%.6g Hz): true residual %.2e above %.0f x the tolerance "
                 "%.1e: not converged\n", ops->label, i + 1, md->freq_hz, md->residual,
                 EIGEN_RESIDUAL_SAFETY, out->tolerance);
  }
  double sig = cabs (st->sigma);
  int far = sig > 1e3 * fmax (lmax, DBL_MIN) || !isfinite (sig);
  char why[400] = "; move the shift nearer those modes (or leave it out)", shift[96];
  shift_text (ops, st->sigma, shift, sizeof shift);
  int own = !st->opts->has_shift && !st->opts->has_target;  /* the deck set no shift */
  if (own)  /* no advice about a shift the deck never set */
    snprintf (why, sizeof why, " (at the stage's own shift %s); ask for fewer modes, or raise "
              "'subspace'", shift);
  if (far && !own)
    snprintf (why, sizeof why, ": the shift %s is far from those modes (|lambda| up to "
              "%.3g), where (A - sigma B)^-1 B is nearly 1/sigma times the identity and cannot "
              "tell the modes apart; give a shift (or target_frequency) near the wanted modes, "
              "or none", shift, lmax);
  mb_fail (err, MB_ENOCONV, "%s stage: %d of %d modes have true residuals above %.0f x the "
           "tolerance %.1e (worst %.2e) although Krylov-Schur's estimate converged%s",
           ops->label, out->n_above_tol, out->nmodes, EIGEN_RESIDUAL_SAFETY, out->tolerance,
           out->max_residual, why);
  return mb_agree (st->comm, MB_ENOCONV, err);
}

/* Every rank. A fresh result and pencil fields for one run at st->sigma (the factors,
   triplets and check interval of a previous run are gone: nothing here is freed). */
static void begin_at_shift (const stage_ops *ops, stage *st)
{
  eigen_result *out = st->out;
  const eigen_opts *opts = st->opts;
  memset (out, 0, sizeof *out);
  out->stage = ops->kind;
  out->n = st->sys->n;
  out->m = st->sys->m;
  out->shift = st->sigma;
  out->tolerance = opts->tolerance;
  out->max_restarts = opts->max_restarts;
  st->symmetric = 0;  /* the pencil's fields, afresh for this shift */
  st->Nf = st->sys->n + st->sys->m;
  st->s = st->w = 1.0;
  st->nnz = 0;
  st->row = st->col = NULL;
  st->val = NULL;
  st->A = NULL;
  memset (&st->Ap, 0, sizeof st->Ap);
  st->Arow = NULL;
  memset (&st->t, 0, sizeof st->t);
  memset (&st->mc, 0, sizeof st->mc);
  st->residual_failed = 0;
}

/* Collective. One Krylov-Schur solve of OP = (A - sigma B)^-1 B (si), in complex
   arithmetic when zarith, else real. Returns its status (not yet agreed). */
static int ks_once (int zarith, shift_invert *si, const ks_opts *o, ks_result *ks, mb_err *err)
{
  return zarith ? ks_solve_complex (&si->dist, shift_invert_apply_block_complex, si, o, ks, err)
                : ks_solve_real (&si->dist, shift_invert_apply_block_real, si, o, ks, err);
}

/* Collective. The policy's first rule (stage_policy), inside the Krylov phase because it
   reuses the factors: the block path did not converge (the same on every rank), so once
   more with single vectors (blocks of 1) on the same factors, which converges where a block
   stalls (a defective zero of the free damped chain, test_gep). The first solve's times
   go to first[4] (apply, orthogonalization, Schur, basis) so that the profile adds both;
   o->block becomes 1. Returns the second solve's status, or rc when the rule does not
   apply. */
static int block_to_single (const stage_ops *ops, stage *st, int zarith, shift_invert *si,
                            ks_opts *o, ks_result *ks, double first[4], int rc, mb_err *err)
{
  if (rc != 0 || ks->converged || ks->block <= 1) return rc;
  stage_log (st, "%s: the block path (block %d) did not converge after %d restarts (%d of "
             "%d; worst residual %.2e): again with single vectors\n", ops->label,
             ks->block, ks->restarts, ks->nconv, o->nev, ks->worst);
  st->attempts.block_to_single++;
  first[0] = ks->time_apply;
  first[1] = ks->time_orth;
  first[2] = ks->time_schur;
  first[3] = ks->time_basis;
  ks_result_clear (ks);
  o->block = 1;
  return ks_once (zarith, si, o, ks, err);
}

/* Collective. The Krylov phase on the factors *f: Krylov-Schur's options (ops->krylov_opts),
   the shift-invert operator, the stage's dense hook or Krylov-Schur (fault site "krylov" in
   the operator's buffers), block_to_single; the result into out (rank 0), what it did into
   kf (for the profile) and the worst residual estimate into *ks_worst. The factors are
   freed here on failure or when the stage has no check (end_krylov). Returns the agreed
   status; ks is the caller's to clear. */
static int krylov_at_shift (const stage_ops *ops, stage *st, factor **f, ks_result *ks,
                            krylov_facts *kf, double *ks_worst, mb_err *err)
{
  const eigen_opts *opts = st->opts;
  eigen_result *out = st->out;
  shift_invert si;
  double t0 = now ();
  progress_ctx pc = { st->log, t0, t0 };
  ks_opts o = { .ncv = opts->subspace, .tol = st->ks_tol > 0.0 ? st->ks_tol : opts->tolerance,
                .max_restarts = opts->max_restarts, .block = opts->block,
                .no_early_exit = opts->solver.no_early_exit, .no_lag = opts->solver.no_lag,
                .stats = st->detail, .progress = progress_print, .progress_ctx = &pc };
  ops->krylov_opts (st, &o);
  /* real arithmetic unless the shift is complex (complex_at) */
  int zarith = complex_at (ops, st);
  if (o.ncv > 0 && o.ncv < o.nev + 2) o.ncv = o.nev + 2;
  /* the operator by rows always; the Ritz vectors stay by rows on every rank count, one
     rank being one block: real columns in real arithmetic, complex ones in complex */
  int rc = shift_invert_init (&si, st->comm, *f, st->sys, st->parts, st->N, err);
  shift_invert_set_damped (&si, st->sigma, st->w);
  int dense = rc == 0 && ops->dense ? ops->dense (st, *f, ks, err) : 0;  /* every one */
  if (dense < 0) rc = dense;
  if (rc == 0 && !dense) rc = ks_once (zarith, &si, &o, ks, err);
  double first[4] = { 0.0, 0.0, 0.0, 0.0 };
  rc = block_to_single (ops, st, zarith, &si, &o, ks, first, rc, err);
  if (st->rank == 0) record_krylov (out, &o, ks);
  *ks_worst = ks->worst;
  factor_phases ph;
  factor_get_phases (*f, &ph);
  krylov_facts facts = { first[0] + ks->time_apply, first[1] + ks->time_orth,
                         first[2] + ks->time_schur, first[3] + ks->time_basis, si.t_solve,
                         si.solves, ph.solves, si.block_solves, ph.solved_rhs, ks->block };
  if (dense) {  /* the dense hook's solves: multi-RHS calls on the factors, outside OP */
    facts.t_solve = ks->time_total;
    facts.rhs = ph.solved_rhs;
    facts.block_calls = ph.solves;
  }
  *kf = facts;
  double t_solve = si.t_solve;
  int solves = si.solves;
  rc = end_krylov (st->comm, rc, t0, f, ops->check != NULL, &si, out, err);
  if (rc >= 0 && st->rank == 0)
    stage_log (st, "%s: %d Ritz pairs converged after %d restarts, %.2f s (%d solves: "
               "%.2f s)\n", ops->label, out->nconv, out->restarts, out->time_iterate, solves,
               t_solve);
  return rc;
}

/* Collective. The Ritz pairs in ks -> modes (ops->modes, every rank on its own rows: the
   dense path's vectors, whole on rank 0, are handed out by rows there), agreed; then the
   stage's check (ops->check) on the factors f, which it frees. Returns the agreed
   status. */
static int modes_and_check (const stage_ops *ops, stage *st, factor *f, ks_result *ks,
                            mb_err *err)
{
  int rc = ops->modes (st, ks, err);
  ks_result_clear (ks);
  rc = mb_agree (st->comm, rc, err);
  st->f = f;
  if (rc == 0 && ops->check) rc = ops->check (st, err);
  st->f = NULL;
  factor_free (f);
  return rc;
}

/* Collective. The verdict on a run whose modes are in out: true residuals above
   EIGEN_RESIDUAL_SAFETY x the tolerance where Krylov-Schur said converged fail it
   (residual_failure); above the tolerance but within that factor (or within the mesh's
   own rounding floor, modes_own_refine) they are accepted and logged; not converged is
   MB_ENOCONV naming Krylov-Schur's counts and its worst estimate ks_worst. Returns the
   agreed status. */
static int verdict_at_shift (const stage_ops *ops, stage *st, double ks_worst, mb_err *err)
{
  eigen_result *out = st->out;
  int bad = st->rank == 0 ? out->n_above_tol : 0;
  MPI_Bcast (&bad, 1, MPI_INT, 0, st->comm);
  if (bad > 0 && out->converged) return residual_failure (ops, st, err);
  if (st->rank == 0 && out->converged && out->max_residual > out->tolerance) {
    int above = 0;
    for (int i = 0; i < out->nmodes; i++) above += out->modes[i].residual > out->tolerance;
    if (out->max_residual <= EIGEN_RESIDUAL_SAFETY * out->tolerance)
      stage_log (st, "%s: %d mode%s with true residuals above the tolerance %.1e (worst %.2e) "
                 "but within the safety factor %.0f (the true residual is the pencil's "
                 "backward error, not Krylov-Schur's measure): accepted as converged\n",
                 ops->label, above, above == 1 ? "" : "s", out->tolerance, out->max_residual,
                 EIGEN_RESIDUAL_SAFETY);
    else  /* only below the mesh's own floor (modes_own_refine) */
      stage_log (st, "%s: %d mode%s with residuals above the tolerance %.1e (worst %.2e) but "
                 "within the rounding floor %.1e of this mesh's element forces: accepted as "
                 "converged (their eigenvalues' accuracy is the conditioning estimate's)\n",
                 ops->label, above, above == 1 ? "" : "s", out->tolerance, out->max_residual,
                 out->resid_floor);
  }
  if (!out->converged) {
    if (st->rank == 0)
      mb_fail (err, MB_ENOCONV, "%s stage did not converge: %d of %d eigenpairs within "
               "tolerance %.1e after %d restarts (worst residual %.2e); raise max_restarts or "
               "subspace", ops->label, out->nconv, out->nev, out->tolerance, out->restarts,
               ks_worst);
    return mb_agree (st->comm, MB_ENOCONV, err);
  }
  return 0;
}

/* Collective. The stage at one shift: begin_at_shift, pencil and factors
   (build_and_factor), the Krylov phase (krylov_at_shift), modes and check
   (modes_and_check), the profile (profile_finish), the verdict (verdict_at_shift).
   Returns the agreed status. */
static int run_at_shift (const stage_ops *ops, stage *st, mb_err *err)
{
  eigen_result *out = st->out;
  double t_start = now ();
  begin_at_shift (ops, st);
  int rc;
  factor *f = build_and_factor (ops, st, &rc, err);
  if (!f) return rc;

  ks_result ks;
  memset (&ks, 0, sizeof ks);
  krylov_facts kf;
  double ks_worst = 0.0;
  rc = krylov_at_shift (ops, st, &f, &ks, &kf, &ks_worst, err);
  if (rc < 0) { ks_result_clear (&ks); return rc; }

  double t_post = now ();
  rc = modes_and_check (ops, st, f, &ks, err);
  if (rc < 0) return rc;
  out->time_post = now () - t_post;
  out->time_total = now () - t_start;
  if (ops->check && out->sturm_done)
    stage_detail (st, "%s: the missed-mode check took %.2f s, %.0f %% of the stage's %.2f s\n",
               ops->label, out->time_check, 100.0 * out->time_check
               / (out->time_total > 0.0 ? out->time_total : 1.0), out->time_total);
  profile_finish (ops, st, &kf);
  return verdict_at_shift (ops, st, ks_worst, err);
}

/* ---- the rerun policy ---------------------------------------------------------------

   One stage is a sequence of attempts (stage_policy), each rule tried in this order after
   a run at a shift; each rule that fires logs one line and counts in st->attempts:
   1. block to single vector: the block path did not converge: single vectors (blocks of
      1) on the same factors (block_to_single, inside the Krylov phase because it keeps them);
   2. second shift: true residuals above the tolerance at the stage's own shift: the
      stage at ops->retry_shift (rule_second_shift);
   3. tighter tolerance: true residuals still above the tolerance: the same shift with
      Krylov-Schur's tolerance tightened (rule_tighter);
   4. the system whole: the pencil handed out by rows failed as singular: the whole
      sequence again from the first shift with the system on rank 0 (rule_whole).
   After this sequence (stage_solve) and the stage's refusal (ops->refuse), stage_run tries
   the rules only one stage has, each running the sequence again: 5. the missed-mode rerun
   (ops->missed_rerun, rule_missed) and 6. the complex rerun after rigid-body modes from
   real arithmetic (ops->rigid_rerun, rule_complex_rigid). */

/* Collective. Rule 2: st ran at the stage's own shift sigma (status rc, st->out filled)
   with true residuals above the tolerance (and above the mesh's rounding floor). With
   rigid-body modes, OP is ~1/|sigma| on them and ~1/|lambda| on the elastic modes: when
   |lambda| / |sigma| is huge, rounding caps the elastic modes' accuracy above the
   tolerance although Krylov-Schur's estimate says converged. The true residuals show it;
   then, unless the deck set the shift, the stage runs again at a shift it chooses
   (ops->retry_shift, rank 0, 0 for none). Returns the status of the run kept (rc when the
   rule does not fire), the same on every rank. */
static int rule_second_shift (const stage_ops *ops, stage *st, int rc, mb_err *err)
{
  const eigen_opts *opts = st->opts;
  eigen_result *out = st->out;
  double next = !opts->has_shift && !opts->has_target && st->rank == 0
              && out->max_residual > fmax (opts->tolerance, out->resid_floor)
              ? ops->retry_shift (st) : 0.0;
  MPI_Bcast (&next, 1, MPI_DOUBLE, 0, st->comm);
  if (next == 0.0) return rc;
  stage_log (st, "%s: residual %.1e above the tolerance at the stage's own shift %.3g "
             "(rigid-body modes or rounding near it can cap the accuracy): again at shift "
             "%.6g %s\n", ops->label, out->max_residual, creal (st->sigma), next, ops->unit);
  st->attempts.second_shift++;
  eigen_result_clear (out);
  mb_err_init (err);
  st->sigma = next;
  st->residual_failed = 0;
  st->attempts.runs++;
  return run_at_shift (ops, st, err);
}

/* Collective. Rule 3: the stage ran at its shift (status rc, st->out filled) with true
   residuals above the tolerance tol (rank 0's out->max_residual = rho): the true residual
   (the pencil's backward error) is Krylov-Schur's residual of OP amplified, roughly by
   |lambda - sigma| / |lambda| for a shift far from the modes, and by the rounding of a
   block's estimate, so that an estimate of tol can give a true residual of g tol,
   g = rho / tol. The stage then runs once more at the same shift with Krylov-Schur's
   tolerance tol / (4 g), when that is at least REFINE_TOL_FLOOR (below it the shift is
   too far for any tolerance: the first result and its message stand), and not on the
   dense path (opts->whole: no Krylov-Schur tolerance to tighten). The second result
   replaces the first unless it failed where the first had been accepted (within
   EIGEN_RESIDUAL_SAFETY); then the first stands. Returns the status of the result kept,
   the same on every rank. */
#define REFINE_TOL_FLOOR 1e-13
static int rule_tighter (const stage_ops *ops, stage *st, int rc, mb_err *err)
{
  double tol = st->opts->tolerance;
  double rho = st->rank == 0 ? st->out->max_residual : 0.0;
  double floor = st->rank == 0 ? st->out->resid_floor : 0.0;  /* the mesh's own (own_scale.h) */
  MPI_Bcast (&rho, 1, MPI_DOUBLE, 0, st->comm);
  MPI_Bcast (&floor, 1, MPI_DOUBLE, 0, st->comm);
  if (!(rho > fmax (tol, floor)) || !isfinite (rho) || st->opts->whole) return rc;  /* dense */
  double ks_tol = tol / (4.0 * (rho / tol));
  if (ks_tol < REFINE_TOL_FLOOR) return rc;
  stage_log (st, "%s: true residuals up to %.2e, above the tolerance %.1e at this shift "
             "(far from the modes, it amplifies Krylov-Schur's residual %.0f times): again "
             "with Krylov-Schur's tolerance %.1e\n", ops->label, rho, tol, rho / tol, ks_tol);
  st->attempts.tighter++;
  eigen_result first = *st->out;  /* moved: the modes now belong to first */
  mb_err first_err = *err;
  memset (st->out, 0, sizeof *st->out);
  mb_err_init (err);
  st->ks_tol = ks_tol;
  st->residual_failed = 0;
  st->attempts.runs++;
  int rc2 = run_at_shift (ops, st, err);
  st->ks_tol = 0.0;
  if (rc2 < 0 && rc == 0) {
    stage_log (st, "%s: the second run failed (%s); the first result stands (true residuals "
               "within %.0f x the tolerance)\n", ops->label, err->msg, EIGEN_RESIDUAL_SAFETY);
    eigen_result_clear (st->out);
    *st->out = first;
    *err = first_err;
    return rc;
  }
  eigen_result_clear (&first);
  return rc2;
}

/* Rule 4, its test: a pencil given to MUMPS by rows (distributed input, scaled by MUMPS's
   iterative row and column scaling) whose factorization found null pivots at MUMPS's
   threshold (st->singular_by_rows): the pivots are either those of a singular pencil (a
   repeated constraint row) or the rounding of an ill-conditioned regular one (a beam
   meshed into elements far shorter than the model: ||K|| / (lambda_1 ||M||) ~ (L / h)^4,
   1e16 and more), which the two scalings round differently. The stage then runs again with
   the whole system on rank 0 (centralized input, analysis-time scaling, where MUMPS's zero
   pivot is exact): that run's verdict stands, singular or not. Only for a system that
   stage_solve handed out itself (parts_own), and once. */
static int rule_whole (const stage *st, int rc, int parts_own)
{
  return rc < 0 && st->singular_by_rows && parts_own && st->attempts.whole == 0;
}

/* Collective. The whole system sys (rank 0's matrices) handed out by rows into *parts
   (gep_parts_scatter, owned by the caller): matrices not yet compressed are compressed in
   copies on rank 0 first (freed here). Returns 0 or an error, the same on every rank. */
static int scatter_whole (MPI_Comm comm, const gep_system *sys, int with_r, gep_parts *parts,
                          mb_err *err)
{
  int rank, rc = 0;
  MPI_Comm_rank (comm, &rank);
  gep_system view = *sys;
  spm *tmp[4] = { NULL, NULL, NULL, NULL };
  const spm **mat[4] = { &view.K, &view.M, &view.Cq, &view.R };
  for (int t = 0; rank == 0 && t < 4 && rc == 0; t++)
    if (*mat[t] && !(*mat[t])->compressed) {
      tmp[t] = spm_copy (*mat[t]);
      if (!tmp[t] || spm_compress (tmp[t]) < 0)
        rc = mb_fail (err, MB_ENOMEM, "out of memory for the system by rows");
      *mat[t] = tmp[t];
    }
  rc = mb_agree (comm, rc, err);
  if (rc == 0) rc = gep_parts_scatter (comm, &view, with_r, parts, err);
  for (int t = 0; t < 4; t++) spm_free (tmp[t]);
  return rc;
}

/* Collective. The attempts of one stage, in the order of the rules above: the stage at
   sigma (run_at_shift, rule 1 inside it); unless that failed for another reason than its
   true residuals, rule 2, then rule 3; on a failure that rule 4 takes, the pencil's parts
   (*parts, owned when parts_own) are freed and the sequence starts again at sigma with
   the system whole. st->attempts counts the runs and the rules that fired (logged with
   -v). Returns the status of the result kept, the same on every rank. */
static int stage_policy (const stage_ops *ops, stage *st, gep_parts *parts, int parts_own,
                         mb_err *err)
{
  double complex sigma = st->sigma;
  int rc;
  for (;;) {
    st->attempts.runs++;
    rc = run_at_shift (ops, st, err);
    if (rc >= 0 || st->residual_failed) {
      rc = rule_second_shift (ops, st, rc, err);
      if (rc >= 0 || st->residual_failed) rc = rule_tighter (ops, st, rc, err);
    }
    if (!rule_whole (st, rc, parts_own)) break;
    stage_log (st, "%s: the pencil by rows had null pivots at MUMPS's threshold: singular, "
               "or the rounding of an ill-conditioned pencil; again with the system whole on "
               "rank 0 (centralized input), whose factorization decides\n", ops->label);
    st->attempts.whole++;
    st->centralized = 1;  /* the parts stay for the operator and the modes */
    eigen_result_clear (st->out);
    mb_err_init (err);
    st->singular_by_rows = 0;
    st->residual_failed = 0;
    st->sigma = sigma;
  }
  if (parts_own && st->parts) {  /* the parts served every run of this sequence */
    gep_parts_clear (parts);
    st->parts = NULL;
  }
  const stage_attempts *a = &st->attempts;
  if (a->runs > 1 || a->block_to_single)
    stage_detail (st, "%s: %d run%s at a shift (block to single vector %d, second shift %d, "
                  "tighter tolerance %d, the system whole %d)\n", ops->label, a->runs,
                  a->runs == 1 ? "" : "s", a->block_to_single, a->second_shift, a->tighter,
                  a->whole);
  return rc;
}

int stage_solve (const stage_ops *ops, MPI_Comm comm, const gep_system *sys,
                 const eigen_opts *opts, double complex sigma, int N, eigen_result *out,
                 mb_err *err)
{
  stage st;
  memset (&st, 0, sizeof st);
  st.comm = comm;
  MPI_Comm_rank (comm, &st.rank);
  MPI_Comm_size (comm, &st.nranks);
  st.sys = sys;
  st.opts = opts;
  st.log = st.rank == 0 ? opts->log : NULL;
  st.detail = st.rank == 0 ? opts->detail : NULL;
  st.sigma = sigma;
  st.N = N;
  st.out = out;
  /* a zero row of A - sigma B by structure: refused before any analysis */
  int rc;
  if (sys->parts) rc = singular_structure_parts (comm, sys, ops->complex_arith != 0, err);
  else rc = mb_agree (comm, st.rank == 0 ? singular_structure (sys, ops->complex_arith, err)
                                         : 0, err);
  if (rc < 0) {
    memset (out, 0, sizeof *out);
    return rc;
  }
  /* the system by rows: as read (a matrix deck on more than one rank), or handed out by
     rows below from rank 0's whole matrices */
  if (sys->parts) {  /* given by rows (every stage takes it so, an unsymmetric undamped
                        pencil's too) */
    st.parts = sys->parts;
    stage_detail (&st, "%s: the system by rows on %d rank%s as read: each builds its rows "
                  "of A - sigma B and gives them to MUMPS (distributed input)\n", ops->label,
                  st.nranks, st.nranks == 1 ? "" : "s");
    return stage_policy (ops, &st, NULL, 0, err);
  }
  /* a whole system is handed out by rows, one rank being one block: each rank builds its
     rows of the pencil (real or complex arithmetic) and finishes its modes there */
  gep_parts parts;
  double t0 = now ();
  rc = scatter_whole (comm, sys, ops->complex_arith != 0, &parts, err);   /* agreed */
  if (rc < 0) {
    memset (out, 0, sizeof *out);
    return rc;
  }
  st.parts = &parts;
  st.centralized = st.nranks == 1;  /* one rank: MUMPS reads the pencil whole */
  if (st.nranks == 1)
    stage_detail (&st, "%s: the system by rows on 1 rank, one block (%.2f s): A - sigma B "
                  "goes to MUMPS whole (centralized input)\n", ops->label, now () - t0);
  else
    stage_detail (&st, "%s: the system by rows on %d ranks (%.2f s): each builds its rows of "
                  "A - sigma B and gives them to MUMPS (distributed input)\n", ops->label,
                  st.nranks, now () - t0);
  return stage_policy (ops, &st, &parts, 1, err);
}

/* Collective, after a converged undamped stage (rule 5). When its missed-mode check counted
   more eigenvalues in the modes' interval than Krylov-Schur found (found < count: a
   repeated eigenvalue that single vectors see once, or a cluster that the restarts cut),
   the stage runs once more asking Krylov-Schur for every eigenvalue the inertia counts plus
   a margin (count + max (2, count / 10)), in blocks of p = count - found + 1 (4 to
   KS_MAX_BLOCK: a block of p finds up to p copies of an eigenvalue), with a subspace the
   user set raised to twice that. The reported modes are then the lowest of all the
   eigenvalues there, ties at the top taken in any order. When the second run still finds
   fewer than its own check counts, the result is not converged: MB_ENOCONV naming the
   counts (the modes found are kept). Returns 0, or the second run's status, the same on
   every rank. missed_counts: (collective) rank 0's counted and found eigenvalues when
   found < counted, else 0 and 0, on every rank. */
static void missed_counts (MPI_Comm comm, const eigen_result *out, long c[2])
{
  int rank;
  MPI_Comm_rank (comm, &rank);
  c[0] = c[1] = 0;
  if (rank == 0 && out->sturm_done && out->sturm_count > out->sturm_found) {
    c[0] = out->sturm_count;
    c[1] = out->sturm_found;
  }
  MPI_Bcast (c, 2, MPI_LONG, 0, comm);
}

static int rule_missed (const stage_ops *ops, MPI_Comm comm, const gep_system *sys,
                        const eigen_opts *o, double complex sigma, int N, eigen_result *out,
                        mb_err *err)
{
  int rank;
  MPI_Comm_rank (comm, &rank);
  long seen[2];  /* counted, found */
  missed_counts (comm, out, seen);
  if (seen[0] == 0) return 0;
  eigen_opts o2 = *o;
  long nev = seen[0] + (seen[0] / 10 > 2 ? seen[0] / 10 : 2);
  o2.min_nev = nev < INT_MAX / 4 ? (int) nev : INT_MAX / 4;
  long p = seen[0] - seen[1] + 1;
  o2.block = p < 4 ? 4 : p > KS_MAX_BLOCK ? KS_MAX_BLOCK : (int) p;
  if (o2.subspace > 0 && o2.subspace < 2 * o2.min_nev) o2.subspace = 2 * o2.min_nev;
  if (rank == 0 && o->log) {
    fprintf (o->log, "%s: the inertia counts %ld eigenvalues in the modes' interval, "
             "Krylov-Schur found %ld (a repeated eigenvalue or a cluster): the stage again, "
             "for %d eigenvalues in blocks of %d\n", ops->label, seen[0], seen[1], o2.min_nev,
             o2.block);
    fflush (o->log);
  }
  eigen_result_clear (out);
  int rc = stage_solve (ops, comm, sys, &o2, sigma, N, out, err);
  if (rc < 0) return rc;
  long again[2];
  missed_counts (comm, out, again);
  if (again[0] == 0) return 0;
  out->converged = 0;
  if (rank == 0)
    mb_fail (err, MB_ENOCONV, "%s stage: modes are missing: the inertia counts %ld "
             "eigenvalues below %.6g %s around the modes found, Krylov-Schur found %ld "
             "of them, also when asked for %d in blocks of %d; raise 'subspace' (or 'modes')",
             ops->label, again[0], out->sturm_lambda, ops->unit, again[1], o2.min_nev,
             o2.block);
  return mb_agree (comm, MB_ENOCONV, err);
}

/* Collective (rule 6, its test). 1 when the stage ran in real arithmetic (a real shift)
   and reported a rigid-body mode: a multiple real eigenvalue (the zeros of several free
   bodies, -alpha with Rayleigh damping) that rounding split into a conjugate pair
   +-i delta is folded by modes_damped_rows into one mode, where it holds two (the complex
   path's split is not conjugate: both members are reported); which multiplicities come
   back then differs with the rounding (1 and 2 ranks, decks/free-free). Rank 0 decides,
   every rank returns it. */
static int real_path_rigid (MPI_Comm comm, int rc, const eigen_result *out)
{
  int rank, again = 0;
  MPI_Comm_rank (comm, &rank);
  if (rank == 0 && (rc == 0 || rc == MB_ENOCONV) && !out->factor.complex_arith)
    for (int i = 0; i < out->nmodes; i++) again |= out->modes[i].kind == MODE_RIGID;
  MPI_Bcast (&again, 1, MPI_INT, 0, comm);
  return again;
}

/* Collective. Rule 6: the stage again as ops->rigid_rerun (complex arithmetic) at the same
   shift, on the system as it is (a system by rows stays by rows). Returns its status, the
   same on every rank. */
static int rule_complex_rigid (const stage_ops *ops, MPI_Comm comm, const gep_system *sys,
                               const eigen_opts *o, double complex sigma, int N,
                               eigen_result *out, mb_err *err)
{
  int rank;
  MPI_Comm_rank (comm, &rank);
  if (rank == 0 && o->log)
    fprintf (o->log, "%s: rigid-body modes from real arithmetic (a multiple real "
             "eigenvalue may come back as one conjugate pair): again in complex arithmetic\n",
             ops->label);
  eigen_result_clear (out);
  mb_err_init (err);
  return stage_solve (ops->rigid_rerun, comm, sys, o, sigma, N, out, err);
}

int stage_run (const stage_ops *ops, MPI_Comm comm, const gep_system *sys,
               const eigen_opts *opts, double complex sigma, int N, eigen_result *out,
               mb_err *err)
{
  int rc = stage_solve (ops, comm, sys, opts, sigma, N, out, err);  /* rules 1 to 4 */
  if (ops->refuse) rc = ops->refuse (comm, rc, out, err);
  if (rc == 0 && ops->missed_rerun)
    rc = rule_missed (ops, comm, sys, opts, sigma, N, out, err);
  if (ops->rigid_rerun && real_path_rigid (comm, rc, out))
    rc = rule_complex_rigid (ops, comm, sys, opts, sigma, N, out, err);
  return rc;
}
