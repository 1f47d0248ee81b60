/* missed_check.c: the missed-mode check (inertia / Sturm count) of the undamped stage. */
#include "missed_check.h"

#include <float.h>
#include <stdlib.h>
#include <math.h>
#include <string.h>

#include "../linalg/factor.h"
#include "pencil.h"

/* Rank 0. lo = min lambda - delta, hi = max lambda + delta over out's modes, with delta the
   largest of 1e-6 max(|lo|, |hi|), the rigid-body rounding floor, 10 times each mode's
   eigenvalue error bound from its true residual, rho (||A|| + |lambda| ||B||) / ||B||, and
   eps ||A|| / ||B|| (K = 0 has no rounding floor; a margin of zero would count at 0). None
   depends on the shift (the eigenvalues are Rayleigh quotients). lo is raised to sigma when
   sigma is above it (the stage's own factorization then counts below lo). */
void missed_check_plan (const gep_system *sys, const eigen_result *out, const candidate *cand,
                        int ncand, double sigma, int symmetric, missed_check *mc)
{
  memset (mc, 0, sizeof *mc);
  if (!symmetric || out->nmodes <= 0) return;
  double anorm = 1.0, bnorm = 1.0;
  mb_err e;
  mb_err_init (&e);
  if (pencil_norms (sys, 0, &anorm, &bnorm, &e) < 0) anorm = bnorm = 1.0;
  double margin = fmax (modes_rigid_threshold (sys, 0), DBL_EPSILON * anorm / bnorm);
  double lo = creal (out->modes[0].lambda), hi = lo;
  for (int i = 0; i < out->nmodes; i++) {
    double l = creal (out->modes[i].lambda), rho = out->modes[i].residual;
    lo = fmin (lo, l);
    hi = fmax (hi, l);
    if (isfinite (rho)) margin = fmax (margin, 10.0 * rho * (anorm + fabs (l) * bnorm) / bnorm);
  }
  double delta = fmax (1e-6 * fmax (fabs (lo), fabs (hi)), margin);
  mc->run = 1;
  mc->hi = hi + delta;
  mc->lo = lo - delta;
  mc->need_lo = !(sigma < mc->lo);
  if (!mc->need_lo) mc->lo = sigma;
  for (int i = 0; i < ncand; i++) {
    double l = creal (cand[i].lambda);
    if (l > mc->lo && l < mc->hi) mc->nfound++;
  }
}

/* The pencil A - s B of one count, owned here: rank 0's whole (As, without parts) or
   every rank's rows (Ap with their row indices arow, with parts); mine = this rank's
   entries, vals = their values (borrowed from As or Ap). */
typedef struct shifted {
  spm *As;
  spm_part Ap;
  int *arow;
  long mine;
  const void *vals;
} shifted;

/* Frees the pencil of one count (NULL parts too). */
static void shifted_clear (shifted *p)
{
  spm_free (p->As);
  spm_part_clear (&p->Ap);
  free (p->arow);
  p->As = NULL;
  p->arow = NULL;
}

/* Collective. The pencil [K - s M, s_c Cq^T; s_c Cq, 0] (s_c = out->cq_scale) at s into
   *p: rank 0's whole (pencil_undamped) or, with parts, every rank's rows
   (pencil_undamped_part). Fault site "check". Returns 0 or MB_ENOMEM, the same on every
   rank (p cleared on failure). */
static int shifted_build (MPI_Comm comm, const gep_system *sys, const gep_parts *parts,
                          double s, const eigen_result *out, shifted *p, mb_err *err)
{
  int rank, N = sys->n + sys->m;
  MPI_Comm_rank (comm, &rank);
  int fail = mb_fault ("check");
  /* the pencil at s: rank 0's whole, or every rank's rows (values and triplets) */
  p->As = rank == 0 && !fail && !parts ? pencil_undamped (sys, s, out->cq_scale, 1) : NULL;
  if (parts && !fail)
    fail = pencil_undamped_part (parts, s, out->cq_scale, 1, &p->Ap) < 0
           || !(p->arow = spm_part_rows (&p->Ap));
  else if (rank == 0) fail = !p->As;
  p->mine = parts ? p->Ap.L.nnz : p->As ? p->As->nnz : 0;
  p->vals = parts ? (const void *) p->Ap.L.val : p->As ? (const void *) p->As->val : NULL;
  int rc = fail ? mb_fail (err, MB_ENOMEM, "out of memory building A - s B for the "
                           "missed-mode check (order %d)", N) : 0;
  rc = mb_agree (comm, rc, err);
  if (rc < 0) shifted_clear (p);
  return rc;
}

/* Collective. The LDL^T inertia of the pencil p (which this frees): refactored on the
   stage's analysis f when *reuse (every rank's pattern of nnz entries, else *reuse = 0;
   a refactorization that fails as MB_ESOLVE, e.g. the analysis' scaling unfit for these
   values, falls back, *reuse = 0, with a line to log), else factored anew with the
   options anew (distributed input with parts) and freed. *fst: the factorization's
   statistics. Returns 0 or an error, the same on every rank. */
static int shifted_inertia (MPI_Comm comm, const gep_parts *parts, int N, shifted *p,
                            factor *f, const factor_opts *anew, long nnz, FILE *log,
                            int *reuse, factor_stats *fst, mb_err *err)
{
  int rank;
  MPI_Comm_rank (comm, &rank);
  /* not the same pattern (on any rank): from scratch */
  if ((parts || rank == 0) && p->mine != nnz) *reuse = 0;
  MPI_Allreduce (MPI_IN_PLACE, reuse, 1, MPI_INT, MPI_MIN, comm);
  if (*reuse) {
    int rc = factor_refactor (f, p->vals, err);
    if (rc == MB_ESOLVE) {  /* e.g. the analysis' scaling unfit for these values: anew */
      mb_err_init (err);
      *reuse = 0;
      if (log) fprintf (log, "modal: missed-mode check: refactorization on the stage's "
                        "analysis failed; factoring anew\n");
    } else if (rc < 0) {
      shifted_clear (p);
      return rc;  /* agreed by factor_refactor */
    } else {
      shifted_clear (p);
      factor_get_stats (f, fst);
      return 0;
    }
  }
  factor_opts fo;
  fo = *anew;
  fo.distributed = parts != NULL;   /* a null pivot then fails as singular */
  factor *fs = factor_create_opts (comm, FACTOR_REAL_SYMMETRIC, N, p->mine,
                                   parts ? p->arow : p->As ? p->As->row : NULL,
                                   parts ? p->Ap.L.col : p->As ? p->As->col : NULL, p->vals,
                                   "A - s B (missed-mode check)", &fo, err);
  shifted_clear (p);
  if (!fs) return err->code ? err->code : MB_ESOLVE;  /* agreed by factor_create */
  factor_get_stats (fs, fst);
  factor_free (fs);
  return 0;
}

/* Rank 0. The count's verdict into out->sturm_* (sturm_count = below hi - below lo) and
   to log (or NULL): modes missing, candidates that are no eigenvalues (inconsistent), or
   all found; then the factorizations' count and time to detail (or NULL: -v). */
static void report_count (const missed_check *mc, double hi, const long below[2], int do_lo,
                          int reuse, FILE *log, FILE *detail, eigen_result *out)
{
  out->sturm_done = 1;
  out->sturm_lambda = hi;
  out->sturm_count = below[0] - below[1];
  out->sturm_found = mc->nfound;
  if (log && out->sturm_count > mc->nfound)
    fprintf (log, "modal: missed-mode check: the inertia counts %ld eigenvalues in [%.6g, "
             "%.6g] rad^2/s^2 but %d were found: modes are missing\n", out->sturm_count,
             mc->lo, hi, mc->nfound);
  else if (log && out->sturm_count < mc->nfound)  /* the report's status: inconsistent */
    fprintf (log, "modal: missed-mode check: the inertia counts %ld eigenvalues in [%.6g, "
             "%.6g] rad^2/s^2 but %d converged candidates lie there: %ld of them are not "
             "eigenvalues of the pencil (inconsistent)\n", out->sturm_count, mc->lo, hi,
             mc->nfound, (long) mc->nfound - out->sturm_count);
  else if (log)
    fprintf (log, "modal: missed-mode check: %ld eigenvalues below %.6g rad^2/s^2, "
             "all found\n", out->sturm_count, hi);
  if (detail)
    fprintf (detail, "modal: missed-mode check: %d factorization%s (%s) in %.2f s\n",
             1 + do_lo, do_lo ? "s" : "", reuse ? "the stage's analysis reused" : "new analysis",
             out->time_check);
  if (log) fflush (log);
}

/* Collective. Negative pivots of [K - s M, s_c Cq^T; s_c Cq, 0] = (eigenvalues below s) + m:
   the count in (lo, hi) is below(hi) - below(lo). With f (the stage's LDL^T factors of the
   same pattern, nnz entries) the pencil at s is refactored on f's analysis (factor_refactor:
   numerical factorization only); without it, a new factorization from scratch. Steps:
   rank 0's plan broadcast, then for hi (and lo when needed) the pencil at s
   (shifted_build) and its negative pivots less m (shifted_inertia); below lo without a
   second count, the stage's own factorization's; rank 0's verdict (report_count). */
int missed_check_run (MPI_Comm comm, const gep_system *sys, const gep_parts *parts,
                      const missed_check *mc, factor *f, const factor_opts *anew, long nnz,
                      FILE *log, FILE *detail, eigen_result *out, mb_err *err)
{
  int rank, m = sys->m, N = sys->n + sys->m;
  MPI_Comm_rank (comm, &rank);
  double t0 = MPI_Wtime ();
  double at[3] = { rank == 0 && mc->run ? 1.0 : 0.0, mc->hi, mc->need_lo ? mc->lo : 0.0 };
  int do_lo = mc->need_lo;
  MPI_Bcast (at, 3, MPI_DOUBLE, 0, comm);
  MPI_Bcast (&do_lo, 1, MPI_INT, 0, comm);
  if (at[0] == 0.0) return 0;
  long below[2] = { 0, out->factor.negative_pivots - m };  /* [hi, lo] */
  int reuse = f != NULL;
  for (int pass = 0; pass < 1 + do_lo; pass++) {
    shifted p = { 0 };
    factor_stats fst;
    int rc = shifted_build (comm, sys, parts, at[1 + pass], out, &p, err);
    if (rc < 0) return rc;
    rc = shifted_inertia (comm, parts, N, &p, f, anew, nnz, log, &reuse, &fst, err);
    if (rc < 0) return rc;
    below[pass] = fst.negative_pivots - m;
  }
  out->time_check = MPI_Wtime () - t0;
  if (rank == 0) report_count (mc, at[1], below, do_lo, reuse, log, detail, out);
  return 0;
}
