/* stage.c: the skeleton of an eigen stage at one shift: pencil, factors, Krylov-Schur on
   the shift-invert operator, modes, check; one agreed status after each step. */
#include "stage.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "shift_invert.h"

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
   time and convergence flag on every rank, the factors and the shift-invert buffers
   freed. Returns the agreed status. */
static int end_krylov (MPI_Comm comm, int rc, double t0, factor **f, shift_invert *si,
                       eigen_result *out, mb_err *err)
{
  rc = mb_agree (comm, rc, err);
  out->time_iterate = now () - t0;
  MPI_Bcast (&out->converged, 1, MPI_INT, 0, comm);
  *f = factor_free (*f);
  shift_invert_clear (si);
  return rc;
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
  ops->pencil_clear (st);
  if (!f) { *rc = err->code ? err->code : MB_ESOLVE; return NULL; }
  factor_get_stats (f, &out->factor);
  out->time_factor = now () - t0;
  stage_log (st, "%s: factored in %.2f s: %ld entries in factors, %.1f MB\n", ops->label,
             out->time_factor, out->factor.nnz_factors, out->factor.memory_mb);
  return f;
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
  rc = end_krylov (st->comm, rc, t0, &f, &si, out, err);
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
  if (rc == 0 && ops->check) rc = ops->check (st, err);
  if (rc < 0) return rc;
  out->time_post = now () - t_post;
  out->time_total = now () - t_start;
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
  int rc = run_at_shift (ops, &st, err);
  if (rc < 0 || opts->has_shift || opts->has_target) return rc;
  /* With rigid-body modes, OP is ~1/|sigma| on them and ~1/|lambda| on the elastic modes:
     when |lambda| / |sigma| is huge, rounding caps the elastic modes' accuracy above the
     tolerance although Krylov-Schur's estimate says converged. The true residuals show
     it; then the stage runs again at a shift the stage chooses (ops->retry_shift). */
  double next = st.rank == 0 && out->max_residual > 10.0 * opts->tolerance
              ? ops->retry_shift (&st) : 0.0;
  MPI_Bcast (&next, 1, MPI_DOUBLE, 0, comm);
  if (next == 0.0) return rc;
  stage_log (&st, "%s: residual %.1e above the tolerance at shift %.3g (rigid-body modes "
             "dominate the operator): again at shift %.6g %s\n", ops->label,
             out->max_residual, creal (sigma), next, ops->unit);
  eigen_result_clear (out);
  st.sigma = next;
  return run_at_shift (ops, &st, err);
}
