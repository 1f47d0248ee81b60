/* stage.c: the skeleton of an eigen stage at one shift: pencil, factors, Krylov-Schur on
   the shift-invert operator, modes, check; one agreed status after each step. */
#include "stage.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

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

/* Collective. A - sigma B (st's triplets, rank 0) failed to factor: its null pivots
   (factor_deficiency) say where; the pencil at a second, unrelated shift says whether it
   is singular at every shift (the model is at fault: MB_EDECK, naming the DOFs and
   constraint rows) or only at this one (an eigenvalue at the shift: MB_ESOLVE, try another
   shift). The triplets stay st's. Returns the agreed status, err set. */
static int diagnose_singular (const stage_ops *ops, stage *st, factor_kind kind, mb_err *err)
{
  int count = -1, count2 = -1, *rows = NULL, *rows2 = NULL;
  mb_err e2;
  mb_err_init (&e2);
  int rc = factor_deficiency (st->comm, kind, st->N, st->nnz, st->row, st->col, st->val,
                              "A - sigma B", &count, &rows, &e2);
  if (rc < 0 || count <= 0) {  /* no null pivot found: MUMPS's own message stands */
    free (rows);
    return MB_ESOLVE;
  }
  /* the same at sigma2 = sigma + 0.618 max(1, |sigma|) (and + 0.3 i in the damped stage) */
  double complex sigma = st->sigma, step = 0.6180339887498949 * fmax (1.0, cabs (sigma));
  st->sigma = sigma + (ops->complex_arith ? step * (1.0 + 0.3 * I) : step);
  int fail = 0;
  if (st->rank == 0) {
    ops->pencil_clear (st);
    fail = ops->pencil (st) < 0;
  }
  rc = mb_agree (st->comm, fail ? mb_fail (&e2, MB_ENOMEM, "out of memory") : 0, &e2);
  if (rc == 0)
    rc = factor_deficiency (st->comm, kind, st->N, st->nnz, st->row, st->col, st->val,
                            "A - sigma2 B", &count2, &rows2, &e2);
  st->sigma = sigma;
  char where[1200] = "", shift[96];
  shift_text (ops, sigma, shift, sizeof shift);
  if (rc == 0) mb_err_init (err);  /* the diagnosis replaces MUMPS's message */
  if (rc == 0 && count2 > 0) {
    if (st->rank == 0)
      singular_describe (st->sys, ops->complex_arith, count2, rows2, 0, where, sizeof where);
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

/* Collective. Steps 1-2: A - sigma B on rank 0 (fault site "pencil"), factored on every
   rank. Returns the factors (caller frees) or NULL with the agreed status in *rc. */
static factor *build_and_factor (const stage_ops *ops, stage *st, int *rc, mb_err *err)
{
  eigen_result *out = st->out;
  double t_start = now ();
  int fail = mb_fault ("pencil");
  if (st->rank == 0 && !fail) fail = ops->pencil (st) < 0;
  *rc = fail ? mb_fail (err, MB_ENOMEM, "out of memory building A - sigma B (order %d)",
                        st->N) : 0;
  MPI_Bcast (&st->symmetric, 1, MPI_INT, 0, st->comm);
  out->cq_scale = st->s;
  *rc = mb_agree (st->comm, *rc, err);
  if (*rc < 0) { ops->pencil_clear (st); return NULL; }
  out->time_assemble = now () - t_start;

  char shift[96], name[160];
  shift_text (ops, st->sigma, shift, sizeof shift);
  factor_kind kind = ops->complex_arith ? FACTOR_COMPLEX_GENERAL
                   : st->symmetric ? FACTOR_REAL_SYMMETRIC : FACTOR_REAL_GENERAL;
  stage_log (st, "%s: %s, order %d (%d DOFs, %d constraints), shift %s\n", ops->label,
             ops->gep, st->N, st->sys->n, st->sys->m, shift);
  stage_log (st, "%s: factoring A - sigma B (%s, MUMPS, %d rank%s) ...\n", ops->label,
             ops->complex_arith ? "complex LU" : st->symmetric ? "LDL^T" : "LU", st->nranks,
             st->nranks > 1 ? "s" : "");
  double t0 = now ();
  snprintf (name, sizeof name, "A - sigma B (%s stage, sigma = %s)", ops->label, shift);
  factor *f = factor_create (st->comm, kind, st->N, st->nnz, st->row, st->col, st->val, name,
                             err);
  st->nnz_factored = st->nnz;
  if (!f && err->code == MB_ESOLVE) {
    *rc = diagnose_singular (ops, st, kind, err);
    ops->pencil_clear (st);
    return NULL;
  }
  ops->pencil_clear (st);
  if (!f) { *rc = err->code ? err->code : MB_ESOLVE; return NULL; }
  factor_get_stats (f, &out->factor);
  out->time_factor = now () - t0;
  stage_log (st, "%s: factored in %.2f s: %ld entries in factors, %.1f MB\n", ops->label,
             out->time_factor, out->factor.nnz_factors, out->factor.memory_mb);
  return f;
}

/* Collective. Some reported modes have true residuals above EIGEN_RESIDUAL_SAFETY x the
   tolerance although Krylov-Schur called them converged: the result is marked not
   converged, each such mode is logged, and the message says why when the shift is far
   from those modes (|sigma| above 1e3 times their largest |lambda|): there
   OP = (A - sigma B)^-1 B is nearly 1/sigma times the identity on every mode, its eigenvalues differ in their last digits and the Ritz vectors mix modes.
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
  if (far)
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

/* Collective. The stage at one shift: pencil and factors, Krylov-Schur (fault site
   "krylov" in the operator's buffers), modes on rank 0 (fault site "modes" on the other
   ranks), check, convergence. Returns the agreed status. */
static int run_at_shift (const stage_ops *ops, stage *st, mb_err *err)
{
  eigen_result *out = st->out;
  const eigen_opts *opts = st->opts;
  memset (out, 0, sizeof *out);
  double t_start = now ();
  out->stage = ops->kind;
  out->n = st->sys->n;
  out->m = st->sys->m;
  out->shift = st->sigma;
  out->tolerance = opts->tolerance;
  out->max_restarts = opts->max_restarts;
  st->symmetric = 0;  /* the pencil's fields, afresh for this shift */
  st->s = st->w = 1.0;
  st->nnz = 0;
  st->row = st->col = NULL;
  st->val = NULL;
  st->A = NULL;
  memset (&st->t, 0, sizeof st->t);
  memset (&st->mc, 0, sizeof st->mc);
  st->residual_failed = 0;

  int rc;
  factor *f = build_and_factor (ops, st, &rc, err);
  if (!f) return rc;

  shift_invert si;
  ks_result ks;
  memset (&ks, 0, sizeof ks);
  double t0 = now ();
  progress_ctx pc = { st->log, t0, t0 };
  ks_opts o = { .ncv = opts->subspace, .tol = opts->tolerance, .max_restarts = opts->max_restarts,
                .progress = progress_print, .progress_ctx = &pc };
  ops->krylov_opts (st, &o);
  o.apply_block_real = shift_invert_apply_block_undamped;  /* block path, when chosen */
  o.apply_block_complex = shift_invert_apply_block_damped;
  if (o.ncv > 0 && o.ncv < o.nev + 2) o.ncv = o.nev + 2;
  rc = shift_invert_init (&si, st->comm, f, st->sys, st->N,
                          ops->complex_arith ? sizeof (double complex) : sizeof (double), err);
  if (rc == 0)
    rc = ops->complex_arith
       ? ks_solve_complex (&si.dist, shift_invert_apply_damped, &si, &o, &ks, err)
       : ks_solve_real (&si.dist, shift_invert_apply_undamped, &si, &o, &ks, err);
  if (st->rank == 0) record_krylov (out, &o, &ks);
  double ks_worst = ks.worst, t_solve = si.t_solve;
  int solves = si.solves, block_solves = si.block_solves;
  rc = end_krylov (st->comm, rc, t0, &f, ops->check != NULL, &si, out, err);
  if (rc < 0) { ks_result_clear (&ks); return rc; }

  double t_post = now ();
  if (st->rank == 0) {
    stage_log (st, "%s: %d Ritz pairs converged after %d restarts, %.2f s (%d solves: "
               "%.2f s)\n", ops->label, out->nconv, out->restarts, out->time_iterate, solves,
               t_solve);
    stage_log (st, "%s: Krylov-Schur block %d: apply %.2f s, orthogonalization %.2f s (%d "
               "second passes), Schur %.2f s, basis %.2f s, %d block solves\n", ops->label,
               ks.block, ks.time_apply, ks.time_orth, ks.reorths, ks.time_schur, ks.time_basis,
               block_solves);
    rc = ops->modes (st, &ks, err);
  } else if (mb_fault ("modes")) {
    rc = mb_fail (err, MB_ENOMEM, "out of memory for modes");
  }
  ks_result_clear (&ks);
  rc = mb_agree (st->comm, rc, err);
  st->f = f;
  if (rc == 0 && ops->check) rc = ops->check (st, err);
  st->f = NULL;
  factor_free (f);
  if (rc < 0) return rc;
  out->time_post = now () - t_post;
  out->time_total = now () - t_start;
  if (ops->check && out->sturm_done)
    stage_log (st, "%s: the missed-mode check took %.2f s, %.0f %% of the stage's %.2f s\n",
               ops->label, out->time_check, 100.0 * out->time_check
               / (out->time_total > 0.0 ? out->time_total : 1.0), out->time_total);
  int bad = st->rank == 0 ? out->n_above_tol : 0;
  MPI_Bcast (&bad, 1, MPI_INT, 0, st->comm);
  if (bad > 0 && out->converged) return residual_failure (ops, st, err);
  if (st->rank == 0 && out->converged && out->max_residual > out->tolerance) {
    int above = 0;
    for (int i = 0; i < out->nmodes; i++) above += out->modes[i].residual > out->tolerance;
    stage_log (st, "%s: %d mode%s with true residuals above the tolerance %.1e (worst %.2e) "
               "but within the safety factor %.0f (the true residual is the pencil's backward "
               "error, not Krylov-Schur's measure): accepted as converged\n", ops->label, above,
               above == 1 ? "" : "s", out->tolerance, out->max_residual, EIGEN_RESIDUAL_SAFETY);
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
  st.sigma = sigma;
  st.N = N;
  st.out = out;
  /* a zero row of A - sigma B by structure: refused before any analysis */
  int rc = st.rank == 0 ? singular_structure (sys, ops->complex_arith, err) : 0;
  rc = mb_agree (comm, rc, err);
  if (rc < 0) {
    memset (out, 0, sizeof *out);
    return rc;
  }
  rc = run_at_shift (ops, &st, err);
  if ((rc < 0 && !st.residual_failed) || opts->has_shift || opts->has_target) return rc;
  /* With rigid-body modes, OP is ~1/|sigma| on them and ~1/|lambda| on the elastic modes:
     when |lambda| / |sigma| is huge, rounding caps the elastic modes' accuracy above the
     tolerance although Krylov-Schur's estimate says converged. The true residuals show
     it; then the stage runs again at a shift the stage chooses (ops->retry_shift). */
  double next = st.rank == 0 && out->max_residual > opts->tolerance
              ? ops->retry_shift (&st) : 0.0;
  MPI_Bcast (&next, 1, MPI_DOUBLE, 0, comm);
  if (next == 0.0) return rc;
  stage_log (&st, "%s: residual %.1e above the tolerance at shift %.3g (rigid-body modes "
             "dominate the operator): again at shift %.6g %s\n", ops->label,
             out->max_residual, creal (sigma), next, ops->unit);
  eigen_result_clear (out);
  mb_err_init (err);
  st.sigma = next;
  st.residual_failed = 0;
  return run_at_shift (ops, &st, err);
}
