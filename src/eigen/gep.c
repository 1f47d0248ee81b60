/* gep.c: the two eigen stages as instances of the stage skeleton (stage.c): the undamped
   stage on GEP (18) and the damped stage on GEP (31) (seed 001), each an ops table. */
#include "gep.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "modes.h"
#include "stage.h"

#define TWO_PI 6.283185307179586476925286766559

/* Rank 0. DOFs with a nonzero entry in their row of M (*with_damping: the others with a
   nonzero entry in their row of R). */
static int mass_dofs (const gep_system *sys, int *with_damping)
{
  int n = sys->n, count = 0;
  char *has = mb_calloc ((size_t) n + 1, 1);
  if (with_damping) *with_damping = 0;
  if (!has) return n;  /* the bound then falls back to n */
  for (long k = 0; k < sys->M->nnz; k++) if (sys->M->val[k] != 0.0) has[sys->M->row[k]] = 1;
  for (int i = 0; i < n; i++) count += has[i];
  if (with_damping && sys->R) {
    for (long k = 0; k < sys->R->nnz; k++)
      if (sys->R->val[k] != 0.0 && !has[sys->R->row[k]]) has[sys->R->row[k]] = 2;
    for (int i = 0; i < n; i++) *with_damping += has[i] == 2;
  }
  free (has);
  return count;
}

/* Collective. An upper bound on the finite eigenvalues of the pencil from its structure
   (rank 0, broadcast). The degree of a determinant is at most the sum of its rows' degrees:
   undamped, det (K - lambda M) has degree <= r, the DOFs whose row of M is not zero; damped,
   det (lambda^2 M + lambda R + K) has degree <= 2 r + d, d the massless DOFs with damping.
   Constraints (Cq of full row rank in a regular pencil) leave n - m DOFs: at most n - m,
   and 2 (n - m) damped. A damped mode is a pair or a real eigenvalue: modes <= the bound. */
static int finite_bound (MPI_Comm comm, const gep_system *sys, int damped)
{
  int rank, b = 0;
  MPI_Comm_rank (comm, &rank);
  if (rank == 0) {
    int d;
    long r = mass_dofs (sys, &d), n = sys->n, m = sys->m;
    long bound = damped ? (2 * r + d < 2 * (n - m) ? 2 * r + d : 2 * (n - m))
                        : (r < n - m ? r : n - m);
    b = bound < 0 ? 0 : bound > INT_MAX ? INT_MAX : (int) bound;
  }
  MPI_Bcast (&b, 1, MPI_INT, 0, comm);
  return b;
}

/* Every rank (bound as finite_bound gives it, the same everywhere): caps o->modes at the
   bound with a line in o->log (rank 0 only). Returns 0, or MB_EDECK (err set, the same on
   every rank) when the pencil has no finite eigenvalue at all. */
static int cap_modes (MPI_Comm comm, const gep_system *sys, int damped, int bound,
                      eigen_opts *o, mb_err *err)
{
  int rank;
  MPI_Comm_rank (comm, &rank);
  const char *label = damped ? "complex" : "modal";
  if (bound == 0)
    return mb_fail (err, MB_EDECK, "%s stage: the pencil has no finite eigenvalue (%s)", label,
                    sys->m >= sys->n ? "as many constraint rows as DOFs" : "M is zero");
  if (o->modes > bound) {
    if (o->log && rank == 0)
      fprintf (o->log, "%s: %d modes asked, but the pencil has at most %d finite eigenvalues "
               "(%d DOFs, %d constraints, %d DOFs with mass; the others are infinite): "
               "computing %d\n", label, o->modes, bound, sys->n, sys->m,
               mass_dofs (sys, NULL), bound);
    o->modes = bound;
  }
  return 0;
}

/* Rank 0 logs (every rank records): the bound in out, and why fewer modes came back. */
static void record_bound (MPI_Comm comm, const eigen_opts *opts, int asked, int bound,
                          eigen_result *out)
{
  int rank;
  MPI_Comm_rank (comm, &rank);
  out->finite_max = bound;
  out->modes_asked = asked;
  if (opts->log && rank == 0 && out->nmodes < asked)
    fprintf (opts->log, "%s: %d of the %d modes asked were found; the pencil has at most %d "
             "finite eigenvalues%s\n", out->stage == STAGE_COMPLEX ? "complex" : "modal",
             out->nmodes, asked, bound, out->stage == STAGE_COMPLEX
             ? " (a conjugate pair is one mode)" : out->nmodes < bound ? "" : ": that is why");
}

/* ---- undamped stage: GEP (18), real, LDL^T when symmetric, missed-mode check ---------- */

/* Rank 0. Symmetry decides LDL^T; Cq scaled to K's size; the lower triangle only for LDL^T. */
static int modal_pencil (stage *st)
{
  const gep_system *sys = st->sys;
  st->symmetric = spm_is_symmetric (sys->K, 1e-12) && spm_is_symmetric (sys->M, 1e-12);
  st->s = pencil_cq_scale (sys);
  st->A = pencil_undamped (sys, creal (st->sigma), st->s, st->symmetric);
  if (!st->A) return MB_ENOMEM;
  st->nnz = st->A->nnz;
  st->row = st->A->row;
  st->col = st->A->col;
  st->val = st->A->val;
  return 0;
}

static void modal_pencil_clear (stage *st)
{
  st->A = spm_free (st->A);
  st->nnz = 0;
  st->row = st->col = NULL;
  st->val = NULL;
}

/* The wanted modes and a few more, for the missed-mode check. */
static void modal_krylov_opts (const stage *st, ks_opts *o)
{
  int want = st->opts->modes, extra = want / 10 > 2 ? want / 10 : 2;
  o->nev = want + extra;
  o->seed = 1;
  stage_log (st, "modal: Krylov-Schur for %d eigenvalues (%d wanted + %d for the check)\n",
             o->nev, want, extra);
}

/* Rank 0. Candidates -> modes, and the interval of the missed-mode check. */
static int modal_modes (stage *st, ks_result *ks, mb_err *err)
{
  const gep_system *sys = st->sys;
  double sigma = creal (st->sigma);
  candidate *cand = NULL;
  int ncand = 0;
  int rc = modes_candidates (ks, st->N, sys->n, sigma, 0, st->symmetric, 1.0, &cand, &ncand,
                             st->out, err);
  if (rc == 0)
    rc = modes_undamped (sys, st->s, st->symmetric, st->opts->modes, st->opts->keep_vectors,
                         cand, ncand, st->out, err);
  if (rc == 0) missed_check_plan (sys, st->out, cand, ncand, sigma, st->symmetric, &st->mc);
  free (cand);
  return rc;
}

static int modal_check (stage *st, mb_err *err)
{
  return missed_check_run (st->comm, st->sys, &st->mc, st->symmetric ? st->f : NULL,
                           st->nnz_factored, st->log, st->out, err);
}

/* Rank 0. A tenth of the lowest elastic eigenvalue below zero, when that is further from
   zero than the shift was: there rigid-body and elastic modes both converge accurately. */
static double modal_retry_shift (const stage *st)
{
  const eigen_result *out = st->out;
  double lowest = 0.0;
  for (int i = 0; i < out->nmodes; i++)
    if (out->modes[i].kind != MODE_RIGID && creal (out->modes[i].lambda) > 0.0) {
      lowest = creal (out->modes[i].lambda);
      break;
    }
  return -0.1 * lowest < 10.0 * creal (st->sigma) ? -0.1 * lowest : 0.0;
}

static const stage_ops modal_ops = {
  .kind = STAGE_MODAL, .label = "modal", .gep = "GEP (18)", .unit = "rad^2/s^2",
  .complex_arith = 0, .pencil = modal_pencil, .pencil_clear = modal_pencil_clear,
  .krylov_opts = modal_krylov_opts, .modes = modal_modes, .check = modal_check,
  .retry_shift = modal_retry_shift
};

int gep_modal (MPI_Comm comm, const gep_system *sys, const eigen_opts *opts,
               eigen_result *out, mb_err *err)
{
  /* shift: given, or (2 pi f_c)^2 for a target frequency, or just below zero */
  double sigma = opts->has_shift ? creal (opts->shift)
               : opts->has_target ? pow (TWO_PI * opts->target_hz, 2) : -1e-3;
  eigen_opts o = *opts;
  int bound = finite_bound (comm, sys, 0);
  if (cap_modes (comm, sys, 0, bound, &o, err) < 0) {
    memset (out, 0, sizeof *out);
    return MB_EDECK;
  }
  int rc = stage_solve (&modal_ops, comm, sys, &o, sigma, sys->n + sys->m, out, err);
  record_bound (comm, &o, opts->modes, bound, out);
  return rc;
}

/* ---- damped stage: GEP (31), balanced, complex LU -------------------------------------- */

/* Rank 0. The balanced pencil: w near a typical omega, Cq^T's block beside K / w. */
static int complex_pencil (stage *st)
{
  const gep_system *sys = st->sys;
  st->w = pencil_omega_scale (sys);
  st->s = pencil_cq_scale (sys) / st->w;
  MB_TRY (pencil_damped (sys, st->sigma, st->s, st->w, &st->t));
  st->nnz = st->t.nnz;
  st->row = st->t.row;
  st->col = st->t.col;
  st->val = st->t.val;
  return 0;
}

static void complex_pencil_clear (stage *st)
{
  ztrip_clear (&st->t);
  st->nnz = 0;
  st->row = st->col = NULL;
  st->val = NULL;
}

/* Both members of a conjugate pair are eigenvalues of the complex operator. */
static void complex_krylov_opts (const stage *st, ks_opts *o)
{
  o->nev = 2 * st->opts->modes;
  o->seed = 2;
  stage_log (st, "complex: Krylov-Schur for %d eigenvalues (%d modes, conjugates included)\n",
             o->nev, st->opts->modes);
}

/* Rank 0. Candidates (positions scaled back by w) -> one mode per conjugate pair. */
static int complex_modes (stage *st, ks_result *ks, mb_err *err)
{
  candidate *cand = NULL;
  int ncand = 0;
  int rc = modes_candidates (ks, st->N, st->sys->n, st->sigma, 1, 0, st->w, &cand, &ncand,
                             st->out, err);
  if (rc == 0)
    rc = modes_damped (st->sys, st->sigma, st->s, st->opts->modes, st->opts->keep_vectors, cand,
                       ncand, st->out, err);
  free (cand);
  return rc;
}

/* Rank 0. Rigid-body modes (lambda = 0, and -alpha with Rayleigh damping) sit next to the
   default shift: a real shift a tenth of the lowest oscillatory |lambda| to the right of
   the imaginary axis (never on a stable eigenvalue), where both kinds converge. */
static double complex_retry_shift (const stage *st)
{
  const eigen_result *out = st->out;
  double next = 0.0;
  for (int i = 0; i < out->nmodes; i++)
    if (out->modes[i].kind == MODE_OSCILLATORY) {
      next = 0.1 * cabs (out->modes[i].lambda);
      break;
    }
  return next <= 10.0 * creal (st->sigma) ? 0.0 : next;
}

static const stage_ops complex_ops = {
  .kind = STAGE_COMPLEX, .label = "complex", .gep = "GEP (31)", .unit = "1/s",
  .complex_arith = 1, .pencil = complex_pencil, .pencil_clear = complex_pencil_clear,
  .krylov_opts = complex_krylov_opts, .modes = complex_modes, .check = NULL,
  .retry_shift = complex_retry_shift
};

int gep_complex (MPI_Comm comm, const gep_system *sys, const eigen_opts *opts,
                 eigen_result *out, mb_err *err)
{
  double complex sigma = opts->has_shift ? opts->shift
                       : opts->has_target ? 1e-3 + I * TWO_PI * opts->target_hz : 1e-3;
  eigen_opts o = *opts;
  int bound = finite_bound (comm, sys, 1);
  if (cap_modes (comm, sys, 1, bound, &o, err) < 0) {
    memset (out, 0, sizeof *out);
    return MB_EDECK;
  }
  int rc = stage_solve (&complex_ops, comm, sys, &o, sigma, 2 * sys->n + sys->m, out, err);
  record_bound (comm, &o, opts->modes, bound, out);
  return rc;
}
