/* gep.c: the two eigen stages as instances of the stage skeleton (stage.c): the undamped
   stage on GEP (18) and the damped stage on GEP (31) (seed 001), each an ops table. */
#include "gep.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cblas.h>
#include <float.h>
#include <lapacke.h>

#include "../linalg/factor.h"
#include "modes.h"
#include "own_scale.h"
#include "stage.h"
#include "shift_invert.h"

#define TWO_PI 6.283185307179586476925286766559

/* Rank 0. DOFs with a nonzero entry in their row of M (*with_damping: the others with a
   nonzero entry in their row of R). */
static int mass_dofs (const gep_system *sys, int *with_damping)
{
  int n = sys->n, count = 0;
  if (sys->measures) {  /* by rows: counted over the ranks */
    if (with_damping) *with_damping = (int) sys->measures->damped_dofs;
    return (int) sys->measures->mass_dofs;
  }
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

/* Rank 0. The eigenvalues a mode stands for: a damped mode with Im lambda != 0 is a
   conjugate pair, 2; a folded rigid-body zero its multiplicity; every other mode 1. */
static int mode_stands_for (const eigen_result *out, const mode *md)
{
  int k = md->multiplicity > 1 ? md->multiplicity : 1;
  return k * (1 + (out->stage == STAGE_COMPLEX && cimag (md->lambda) != 0.0));
}

/* Rank 0. The eigenvalues out's modes stand for (mode_stands_for, summed). */
static int modes_stand_for (const eigen_result *out)
{
  int found = 0;
  for (int i = 0; i < out->nmodes; i++) found += mode_stands_for (out, &out->modes[i]);
  return found;
}

/* Rank 0. Modes that stand for more eigenvalues than the pencil can have finite (bound, from
   `what`) cannot all be finite: the excess are infinite eigenvalues that rounding left
   large but finite (|mu| just above the filter of modes_candidates; any huge eigenvalue
   has a small backward error, so their residuals pass). They are the ones farthest from
   the shift: dropped (vectors freed) until the rest stand for at most bound, counted in
   n_infinite, max_residual and n_above_tol recomputed, and a log line. This happens only
   when nearly every eigenvalue is asked for (the small-problem path of Krylov-Schur). */
static void drop_beyond (eigen_result *out, int bound, const char *what, FILE *log)
{
  int found = modes_stand_for (out), dropped = 0, before = found;
  double lo = INFINITY, hi = 0.0;
  while (found > bound && out->nmodes > 0) {
    int far = 0;
    for (int i = 1; i < out->nmodes; i++)
      if (cabs (out->modes[i].lambda - out->shift) > cabs (out->modes[far].lambda - out->shift))
        far = i;
    mode *md = &out->modes[far];
    int k = mode_stands_for (out, md);
    lo = fmin (lo, cabs (md->lambda));
    hi = fmax (hi, cabs (md->lambda));
    free (md->x);
    free (md->xi);
    memmove (md, md + 1, (size_t) (out->nmodes - far - 1) * sizeof *md);
    out->nmodes--;
    found -= k;
    out->n_infinite += k;
    dropped++;
  }
  if (dropped == 0) return;
  out->max_residual = 0.0;
  out->n_above_tol = 0;
  for (int i = 0; i < out->nmodes; i++) {
    out->max_residual = fmax (out->max_residual, out->modes[i].residual);
    if (!(out->modes[i].residual <= EIGEN_RESIDUAL_SAFETY * out->tolerance)) out->n_above_tol++;
  }
  if (log)
    fprintf (log, "%s: the modes found stood for %d eigenvalues, but %s allows at most %d "
             "finite ones: the %d mode%s farthest from the shift (|lambda| %.3g .. %.3g) %s "
             "infinite eigenvalues that rounding left finite, dropped\n",
             out->stage == STAGE_COMPLEX ? "complex" : "modal", before, what, bound, dropped,
             dropped == 1 ? "" : "s", lo, hi, dropped == 1 ? "is an" : "are");
}

/* Rank 0 logs (every rank records): the bound in out, and why fewer modes came back. */
static void record_bound (MPI_Comm comm, const eigen_opts *opts, int asked, int bound,
                          eigen_result *out)
{
  int rank;
  MPI_Comm_rank (comm, &rank);
  out->finite_max = bound;
  out->modes_asked = asked;
  if (rank == 0) drop_beyond (out, bound, "the structure of the pencil", opts->log);
  if (opts->log && rank == 0 && out->nmodes < asked)
    fprintf (opts->log, "%s: %d of the %d modes asked were found; the pencil has at most %d "
             "finite eigenvalues%s\n", out->stage == STAGE_COMPLEX ? "complex" : "modal",
             out->nmodes, asked, bound, out->stage == STAGE_COMPLEX
             ? " (a conjugate pair is one mode)" : out->nmodes < bound ? "" : ": that is why");
}

/* Collective. The nullity *k of [P, c Cq^T; c Cq, 0] (P = M, or M + R when with_r; c a power
   of two bringing Cq to P's size), by LDL^T with null-pivot detection
   (factor_deficiency_inertia), and *psd = 1 when P is positive semi-definite on null(Cq):
   with Cq of full row rank the inertia is that of Z^T P Z (Z a basis of null(Cq)) plus m
   negative and m positive pivots, so exactly m negative pivots. For such P the null
   vectors are (x, 0) with x in null(P) and null(Cq): *k = dim (null(P) ^ null(Cq)). A
   system by rows (undamped) gives each rank's rows as distributed input.
   Returns 0 or an error, the same on every rank (err set); *k = -1 then. */
static int bordered_nullity (MPI_Comm comm, const gep_system *sys, int with_r, int *k,
                             int *psd, mb_err *err)
{
  int rank, n = sys->n, m = sys->m, fail = 0, dist = sys->parts != NULL;
  MPI_Comm_rank (comm, &rank);
  *k = -1;
  *psd = 0;
  spm *A = NULL;
  if (dist) {  /* by rows: each rank its rows of M (and R) and Cq, as triplets */
    const gep_parts *P = sys->parts;
    const spm *Ml = &P->M.L, *Cl = &P->Cq.L;
    const spm *Rl = with_r && P->R.L.rowptr ? &P->R.L : NULL;
    const gep_measures *ms = sys->measures;
    double pmax = with_r ? fmax (ms->mmax, ms->rmax) : ms->mmax;
    double c = pmax > 0.0 && ms->cmax > 0.0
             ? ldexp (1.0, (int) lround (log2 (pmax / ms->cmax))) : 1.0;
    long cap = Ml->nnz + Cl->nnz + (Rl ? Rl->nnz : 0);
    A = spm_create (n + m, n + m, cap > 0 ? cap : 1);
    int r = A ? 0 : MB_ENOMEM;
    for (int i = 0; i < Ml->nrows && r == 0; i++)
      for (int e = Ml->rowptr[i]; e < Ml->rowptr[i + 1] && r == 0; e++)
        if (P->M.first + i >= Ml->col[e]) r = spm_add (A, P->M.first + i, Ml->col[e], Ml->val[e]);
    for (int i = 0; Rl && i < Rl->nrows && r == 0; i++)
      for (int e = Rl->rowptr[i]; e < Rl->rowptr[i + 1] && r == 0; e++)
        if (P->R.first + i >= Rl->col[e]) r = spm_add (A, P->R.first + i, Rl->col[e], Rl->val[e]);
    for (int i = 0; i < Cl->nrows && r == 0; i++)
      for (int e = Cl->rowptr[i]; e < Cl->rowptr[i + 1] && r == 0; e++)
        r = spm_add (A, n + P->Cq.first + i, Cl->col[e], c * Cl->val[e]);
    fail = r < 0;
  } else if (rank == 0) {
    const spm *R = with_r ? sys->R : NULL;
    long nnz = sys->M->nnz + (R ? R->nnz : 0) + (sys->Cq ? sys->Cq->nnz : 0);
    A = spm_create (n + m, n + m, nnz > 0 ? nnz : 1);
    double pmax = fmax (spm_max_abs (sys->M), R ? spm_max_abs (R) : 0.0);
    double cmax = sys->Cq ? spm_max_abs (sys->Cq) : 0.0;
    double c = pmax > 0.0 && cmax > 0.0 ? ldexp (1.0, (int) lround (log2 (pmax / cmax))) : 1.0;
    int r = A ? 0 : MB_ENOMEM;
    for (long e = 0; e < sys->M->nnz && r == 0; e++)
      if (sys->M->row[e] >= sys->M->col[e])
        r = spm_add (A, sys->M->row[e], sys->M->col[e], sys->M->val[e]);
    for (long e = 0; R && e < R->nnz && r == 0; e++)
      if (R->row[e] >= R->col[e]) r = spm_add (A, R->row[e], R->col[e], R->val[e]);
    for (long e = 0; sys->Cq && e < sys->Cq->nnz && r == 0; e++)
      r = spm_add (A, n + sys->Cq->row[e], sys->Cq->col[e], c * sys->Cq->val[e]);
    if (r == 0) r = spm_compress (A);
    fail = r < 0;
  }
  int rc = mb_agree (comm, fail ? mb_fail (err, MB_ENOMEM, "out of memory counting the finite "
                                           "eigenvalues") : 0, err);
  if (rc < 0) {
    spm_free (A);
    return rc;
  }
  int count = -1;
  long neg = -1;
  rc = factor_deficiency_dist (comm, FACTOR_REAL_SYMMETRIC, n + m, A ? A->nnz : 0,
                               A ? A->row : NULL, A ? A->col : NULL, A ? A->val : NULL,
                               with_r ? "[M + R, Cq^T; Cq, 0]" : "[M, Cq^T; Cq, 0]", dist,
                               &count, NULL, &neg, err);
  spm_free (A);
  if (rc < 0) return rc;
  *k = count;
  *psd = neg == m;
  return 0;
}

/* Rank 0. 1 when K and M (and R for the damped stage) are symmetric: the measures of a
   system by rows, or the whole matrices' test at 1e-12. */
static int symmetric_system (const gep_system *sys, int damped)
{
  return sys->measures ? (damped ? sys->measures->damped_symmetric : sys->measures->symmetric)
         : spm_is_symmetric (sys->K, 1e-12) && spm_is_symmetric (sys->M, 1e-12)
           && (!damped || !sys->R || spm_is_symmetric (sys->R, 1e-12));
}

/* Collective. The finite eigenvalues of a symmetric pencil counted from the nullities
   k0 = dim (null(M) ^ null(Cq)) and k1 = dim (null(M) ^ null(R) ^ null(Cq))
   (bordered_nullity; k1 = k0 without R): *count = (n - m) - k0 undamped,
   2 (n - m) - k0 - k1 damped (see count_finite), k = {k0, k1}, *psd = 1 when M (and
   M + R) are positive semi-definite on null(Cq), where the count holds. Returns 0 or
   bordered_nullity's error (e), the same on every rank; *count, k and *psd are rank 0's. */
static int finite_count_exact (MPI_Comm comm, const gep_system *sys, int damped, long *count,
                               int k[2], int *psd, mb_err *e)
{
  int rank;
  MPI_Comm_rank (comm, &rank);
  int has_r = rank == 0 && damped && (sys->measures ? sys->measures->has_r : sys->R != NULL);
  MPI_Bcast (&has_r, 1, MPI_INT, 0, comm);
  int k0 = -1, k1 = 0, psd0 = 0, psd1 = 1;
  int rc = bordered_nullity (comm, sys, 0, &k0, &psd0, e);
  if (rc == 0 && damped) {
    if (has_r) rc = bordered_nullity (comm, sys, 1, &k1, &psd1, e);
    else k1 = k0;
  }
  long nm = (long) sys->n - sys->m;
  *count = damped ? 2 * nm - k0 - k1 : nm - k0;
  k[0] = k0, k[1] = k1;
  *psd = psd0 && psd1;
  return rc;
}

/* Collective, after a stage that gave fewer modes than asked (rank 0 decides, broadcast).
   For symmetric K, M (and R), the finite eigenvalues counted from ranks: with M (and
   M + R) positive semi-definite on null(Cq), k0 = dim (null(M) ^ null(Cq)) and
   k1 = dim (null(M) ^ null(R) ^ null(Cq)) (bordered_nullity),
       undamped: (n - m) - k0,      damped: 2 (n - m) - k0 - k1
   (the degree of det (K - lambda M), det (lambda^2 M + lambda R + K) on null(Cq): 2 per
   DOF with mass, 1 per massless DOF with damping, 0 for the others). These equal the true
   count when K is regular on the massless, undamped directions; so the number is called
   exact only when the modes found stand for as many eigenvalues (a conjugate pair for two),
   and then it is recorded in out->finite_count and said in the log: that is why fewer came
   back. Otherwise the log says the rank bound and what was found. A failure of the count
   is not an error of the stage (logged, the count stays unknown). */
static void count_finite (MPI_Comm comm, const gep_system *sys, int damped, int asked,
                          const eigen_opts *opts, eigen_result *out)
{
  int rank, go = 0, found = 0;
  MPI_Comm_rank (comm, &rank);
  const char *label = damped ? "complex" : "modal";
  int pairs = 0;
  if (rank == 0 && out->nmodes < asked) {
    go = symmetric_system (sys, damped);
    for (int i = 0; i < out->nmodes; i++) {
      pairs += damped && cimag (out->modes[i].lambda) != 0.0;
      found += mode_stands_for (out, &out->modes[i]);
    }
  }
  MPI_Bcast (&go, 1, MPI_INT, 0, comm);
  if (!go) return;
  mb_err e;
  mb_err_init (&e);
  long count;
  int psd, k[2];
  int rc = finite_count_exact (comm, sys, damped, &count, k, &psd, &e);
  if (rank != 0) return;
  int k0 = k[0], k1 = k[1];
  if (rc < 0) {
    if (opts->log)
      fprintf (opts->log, "%s: the finite eigenvalues could not be counted: %s\n", label, e.msg);
    return;
  }
  if (!psd) {
    if (opts->log)
      fprintf (opts->log, "%s: M%s is not positive semi-definite on null(Cq): the finite "
               "eigenvalues are not counted (the bound above stands)\n", label,
               damped ? " or M + R" : "");
    return;
  }
  if (count < found && count > 0) {
    drop_beyond (out, (int) count, damped ? "the ranks of M and M + R on null(Cq)"
                 : "the rank of M on null(Cq)", opts->log);
    found = modes_stand_for (out);
    pairs = 0;
    for (int i = 0; i < out->nmodes; i++) pairs += damped && cimag (out->modes[i].lambda) != 0.0;
  }
  if (count == found) {
    out->finite_count = (int) count;
    if (opts->log) {
      if (damped)
        fprintf (opts->log, "complex: the pencil has exactly %ld finite eigenvalues (2 (n - m) "
                 "- %d - %d: %d massless directions on null(Cq), %d of them also undamped) and "
                 "all came back: %d conjugate pair%s and %d real, %d modes: that is why fewer "
                 "than %d\n", count, k0, k1, k0, k1, pairs,
                 pairs == 1 ? "" : "s", found - 2 * pairs, out->nmodes, asked);
      else
        fprintf (opts->log, "modal: the pencil has exactly %ld finite eigenvalues (n - m - %d: "
                 "%d massless directions on null(Cq)) and all came back: that is why fewer "
                 "than %d\n", count, k0, k0, asked);
    }
  } else if (opts->log) {
    fprintf (opts->log, "%s: the ranks of M%s on null(Cq) allow at most %ld finite eigenvalues; "
             "the %d modes found stand for %d\n", label, damped ? " and M + R" : "", count,
             out->nmodes, found);
  }
}

/* Collective, before a stage. When the modes asked, with the margin Krylov-Schur takes
   for them (nev: undamped want + max (2, want / 10), damped 2 want), reach a quarter of
   the structural bound, the finite eigenvalues are counted exactly as count_finite does
   (symmetric K, M (and R); bordered_nullity: undamped (n - m) - k0, damped
   2 (n - m) - k0 - k1). With that count F known: o->modes is capped at F, and when nev >= F
   Krylov-Schur is told to take the whole space (o->whole, its dense path): OP =
   (A - sigma B)^-1 B has only F nonzero eigenvalues, and a Krylov subspace asked for more
   reaches into its null space (the infinite eigenvalues, defective for constraints) where
   it converges spurious pairs (a finite mode of 7e7 Hz with residual 0.1, a real one lost;
   issue 22). Each step is said in the log. Returns F, or -1 when not counted; the same on
   every rank. */
static int exact_before (MPI_Comm comm, const gep_system *sys, int damped, int bound,
                         eigen_opts *o)
{
  int rank, go = 0;
  MPI_Comm_rank (comm, &rank);
  const char *label = damped ? "complex" : "modal";
  long want = o->modes, nev = damped ? 2 * want : want + (want / 10 > 2 ? want / 10 : 2);
  if (o->min_nev > nev) nev = o->min_nev;
  if (rank == 0 && 4 * nev >= bound) go = symmetric_system (sys, damped);
  MPI_Bcast (&go, 1, MPI_INT, 0, comm);
  if (!go) return -1;
  mb_err e;
  mb_err_init (&e);
  long count;
  int psd, k[2];
  int rc = finite_count_exact (comm, sys, damped, &count, k, &psd, &e);
  int f = rc == 0 && psd && count > 0 && count <= bound ? (int) count : -1;
  MPI_Bcast (&f, 1, MPI_INT, 0, comm);  /* rank 0's verdict */
  if (f < 0) return -1;
  FILE *log = rank == 0 ? o->log : NULL;
  if (o->modes > f) {
    if (log)
      fprintf (log, "%s: the pencil has exactly %d finite eigenvalues (the rank%s of M%s on "
               "null(Cq)): %d modes asked, %s %d\n", label, f, damped ? "s" : "",
               damped ? " and M + R" : "", o->modes,
               damped ? "at most" : "computing", f);  /* damped: a pair is one mode */
    o->modes = f;
    nev = damped ? 2 * (long) f : f + (f / 10 > 2 ? f / 10 : 2);
    if (o->min_nev > nev) nev = o->min_nev;
  }
  if (nev >= f) {
    o->whole = 1;
    o->finite = f;
    if (log)
      fprintf (log, "%s: %ld eigenvalues wanted (%d modes and the margin) where the pencil has "
               "exactly %d finite ones: all of them from the dense eigenproblem of the "
               "operator (a Krylov subspace would reach into its null space)\n", label, nev,
               o->modes, f);
  }
  return f;
}

/* ---- undamped stage: GEP (18), real, LDL^T when symmetric, missed-mode check ---------- */

/* The stage takes the real pencil A (NULL: out of memory) as the matrix it factors: the
   stage owns A (st->A, freed by the stage's pencil_clear); the triplet views point into it.
   Returns 0 or MB_ENOMEM. */
static int take_real_pencil (stage *st, spm *A)
{
  st->A = A;
  if (!A) return MB_ENOMEM;
  st->nnz = A->nnz;
  st->row = A->row;
  st->col = A->col;
  st->val = A->val;
  return 0;
}

/* The stage takes this rank's rows of its pencil (st->Ap, built into it; NULL rows: out of
   memory) as the triplets it factors (distributed input): the rows of the entries in
   st->Arow. Returns 0 or MB_ENOMEM. */
static int take_pencil_rows (stage *st, int rc)
{
  if (rc < 0 || !(st->Arow = spm_part_rows (&st->Ap))) return MB_ENOMEM;
  st->nnz = st->Ap.L.nnz;
  st->row = st->Arow;
  st->col = st->Ap.L.col;
  st->val = st->Ap.L.val;
  return 0;
}

/* Rank 0. Symmetry decides LDL^T; Cq scaled to K's size. */
static void modal_scaling (stage *st)
{
  const gep_system *sys = st->sys;
  st->symmetric = sys->measures ? sys->measures->symmetric
                : spm_is_symmetric (sys->K, 1e-12) && spm_is_symmetric (sys->M, 1e-12);
  st->s = pencil_cq_scale (sys);
}

/* Rank 0 (with st->parts every rank, after modal_scaling on rank 0 and its broadcast):
   A - sigma B, the lower triangle only for LDL^T; by rows, this rank's rows as triplets
   (st->Ap and their rows st->Arow). */
static int modal_pencil (stage *st)
{
  if (!stage_pencil_by_rows (st)) {
    modal_scaling (st);
    return take_real_pencil (st, pencil_undamped (st->sys, creal (st->sigma), st->s,
                                                  st->symmetric));
  }
  return take_pencil_rows (st, pencil_undamped_part (st->parts, creal (st->sigma), st->s,
                                                    st->symmetric, &st->Ap));
}

static void modal_pencil_clear (stage *st)
{
  spm_part_clear (&st->Ap);
  free (st->Arow);
  st->Arow = NULL;
  st->A = spm_free (st->A);
  st->nnz = 0;
  st->row = st->col = NULL;
  st->val = NULL;
}

/* The wanted modes and a few more, for the missed-mode check; the Ritz vectors kept by rows
   as real columns (real arithmetic: a conjugate pair as its real and imaginary parts). */
static void modal_krylov_opts (const stage *st, ks_opts *o)
{
  int want = st->opts->modes, extra = want / 10 > 2 ? want / 10 : 2;
  o->nev = want + extra;
  o->seed = 1;
  o->whole = st->opts->whole;
  if (o->whole) {  /* the dense path: exactly the finite eigenvalues, the nearest ones */
    o->nev = st->opts->finite;
    stage_log (st, "modal: the %d finite eigenvalues (%d wanted), from the whole space\n",
               o->nev, want);
    return;
  }
  /* the Ritz vectors come as real columns by rows (ks->xr): modes_candidates takes them
     (a symmetric pencil), modes_unsymmetric_rows a conjugate pair from its two columns */
  if (st->opts->min_nev > o->nev) {
    o->nev = st->opts->min_nev;
    stage_detail (st, "modal: Krylov-Schur for %d eigenvalues (all that the inertia counts "
               "around the %d wanted, and a margin)\n", o->nev, want);
    return;
  }
  stage_detail (st, "modal: Krylov-Schur for %d eigenvalues (%d wanted + %d for the check)\n",
             o->nev, want, extra);
}

/* keep_vectors for the modes by rows: none (0), or each kept mode's vector gathered on
   rank 0 for the report (1). */
static int keep_rows (const stage *st)
{
  return st->opts->keep_vectors != 0;
}

/* Rank 0's log: the modes are found by rows, and where their kept vectors go. */
static void log_rows_modes (const stage *st)
{
  int keep = keep_rows (st);
  stage_detail (st, "%s: modes from the Ritz vectors by rows on %d rank%s (%s)\n",
             st->out->stage == STAGE_COMPLEX ? "complex" : "modal", st->nranks,
             st->nranks == 1 ? "" : "s",
             keep ? "each mode's vector then gathered on rank 0" : "no vector kept");
}

static int ritz_to_rows (const stage *st, const ks_dist *d, ks_result *ks, mb_err *err);

/* Collective. Candidates -> modes on every rank's rows, and (rank 0) the interval of the
   missed-mode check. The dense path's Ritz vectors, whole on rank 0, are handed out by rows
   first (ritz_to_rows), so that both paths finish alike. The Ritz values are rank 0's on
   every rank, so that every rank takes the same candidates. An unsymmetric pencil's modes
   (complex) come from modes_unsymmetric_rows; a symmetric one's from its real candidates
   (modes_candidates, then modes_undamped_rows). */
static int modal_modes (stage *st, ks_result *ks, mb_err *err)
{
  const gep_system *sys = st->sys;
  double sigma = creal (st->sigma);
  candidate *cand = NULL;
  int ncand = 0, rc = 0;
  ks_dist d;
  ks_dist_init (&d, st->comm, st->N);
  if (!ks->rows) MB_TRY (ritz_to_rows (st, &d, ks, err));  /* the dense path's, by rows */
  log_rows_modes (st);
  if (!st->symmetric) {  /* complex modes */
    rc = modes_unsymmetric_rows (&d, sys, st->parts, ks, sigma, st->s, st->opts->modes,
                                 keep_rows (st), st->out, err);
  } else {
    MPI_Bcast (ks->mu, 2 * ks->nconv, MPI_DOUBLE, 0, st->comm);
    rc = modes_candidates (ks, d.nloc > 0 ? d.nloc : 1, sigma, &cand, &ncand, st->out,
                           err);
    rc = mb_agree (st->comm, rc, err);
    if (rc == 0)
      rc = modes_undamped_rows (&d, sys, st->parts, st->s, st->opts->modes, keep_rows (st),
                                cand, ncand, st->out, err);
  }
  if (rc == 0 && st->rank == 0)
    missed_check_plan (sys, st->out, cand, ncand, sigma, st->symmetric, &st->mc);
  free (cand);
  return rc;
}

/* Collective. The modes refined at their own scale (modes_own_refine: model decks), then
   the missed-mode check, unless the refinement says the assembled matrices' inertia cannot
   place them (a fine mesh: the log says so, the report has no verdict). */
static int modal_check (stage *st, mb_err *err)
{
  int inertia_ok = 1;
  int rc = modes_own_refine (st->comm, st->sys, st->f, st->symmetric, st->s, st->log, st->out,
                             &inertia_ok, err);
  if (rc < 0) return rc;
  if (!inertia_ok) {
    stage_log (st, "modal: missed-mode check skipped: the assembled matrices' rounding at "
               "these modes' scale exceeds a tenth of the lowest eigenvalue, so their inertia "
               "cannot count the modes (elements far shorter than the model)\n");
    return 0;
  }
  factor_opts anew;
  stage_factor_opts (st, 6, &anew);   /* the stage's LDL^T choice: QAMD */
  return missed_check_run (st->comm, st->sys, stage_pencil_by_rows (st) ? st->parts : NULL,
                           &st->mc, st->symmetric ? st->f : NULL,
                           &anew, st->nnz_factored, st->log, st->detail, st->out, err);
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

/* Rank 0 of modal_dense. M = L L^T: M's one triangle (whichever the entries hold, the
   diagonal once) into *L (n x n, column-major, new), Cholesky by dpotrf; *W (N x n, new,
   zero) for the right-hand sides. Not tried for n^2 >= 4e8 or a non-symmetric pencil.
   Returns 1 when M is positive definite (L, W the caller's to free, whatever the result). */
static int mass_cholesky (const stage *st, double **L, double **W)
{
  const gep_system *sys = st->sys;
  int n = sys->n, N = st->N;
  if (!st->symmetric || (long) n * n >= 400000000L) return 0;
  *L = mb_calloc ((size_t) n * n, sizeof **L);
  *W = mb_calloc ((size_t) N * n, sizeof **W);
  if (!*L || !*W) return 0;
  const spm *M = sys->M;
  int lower = 0;
  for (long e = 0; e < M->nnz; e++) lower |= M->row[e] > M->col[e];
  for (long e = 0; e < M->nnz; e++) {
    int r = M->row[e], c = M->col[e];
    if (r == c || (r > c) == (lower != 0))
      (*L)[(r > c ? r : c) + (size_t) (r > c ? c : r) * n] += M->val[e];
  }
  return LAPACKE_dpotrf (LAPACK_COL_MAJOR, 'L', n, *L, n) == 0;
}

/* Rank 0 of modal_dense. C = L^T W(0:n, :) (dgemm, L's strict upper part zeroed first:
   dpotrf left M's there), made symmetric (the mean of C and C^T: equal up to rounding),
   and its eigen-decomposition by dsyevd: C's columns the eigenvectors, w (n) the
   ascending eigenvalues. Returns 0, or 1 when LAPACK failed. */
static int dense_symmetric_eigen (int n, int N, double *L, const double *W, double *C,
                                  double *w)
{
  for (int j = 0; j < n; j++)  /* the strict upper part of L: zero (dpotrf left M's) */
    for (int i = 0; i < j; i++) L[i + (size_t) j * n] = 0.0;
  cblas_dgemm (CblasColMajor, CblasTrans, CblasNoTrans, n, n, n, 1.0, L, n, W, N, 0.0,
               C, n);
  for (int j = 0; j < n; j++)  /* symmetric up to rounding: its mean */
    for (int i = j + 1; i < n; i++) {
      double a = 0.5 * (C[i + (size_t) j * n] + C[j + (size_t) i * n]);
      C[i + (size_t) j * n] = C[j + (size_t) i * n] = a;
    }
  return LAPACKE_dsyevd (LAPACK_COL_MAJOR, 'V', 'L', n, C, n, w) != 0;
}

/* Rank 0 of modal_dense. The p largest |mu| of the ascending w (taken from both ends)
   into ks->mu (new), with the residual estimate eps max|mu| / |mu| (ks->resid, new;
   ks->worst their largest) and the vectors X = W Y (N x p), Y's column k = C's column
   / mu_k. Returns 0, or 1 when out of memory. */
static int keep_largest (int n, int N, int p, const double *C, const double *w,
                         const double *W, double *X, ks_result *ks)
{
  ks->mu = mb_calloc ((size_t) p, sizeof *ks->mu);
  ks->resid = mb_calloc ((size_t) p, sizeof *ks->resid);
  double *Y = mb_calloc ((size_t) n * p, sizeof *Y);
  int fail = !ks->mu || !ks->resid || !Y;
  double mu_max = n > 0 ? fmax (fabs (w[0]), fabs (w[n - 1])) : 0.0;
  for (int k = 0, lo = 0, hi = n - 1; !fail && k < p && lo <= hi; k++) {
    int j = fabs (w[lo]) > fabs (w[hi]) ? lo++ : hi--;
    ks->mu[k] = w[j];
    ks->resid[k] = DBL_EPSILON * mu_max / fmax (fabs (w[j]), DBL_MIN);
    ks->worst = fmax (ks->worst, ks->resid[k]);
    for (int i = 0; i < n; i++) Y[i + (size_t) k * n] = C[i + (size_t) j * n] / w[j];
  }
  if (!fail)
    cblas_dgemm (CblasColMajor, CblasNoTrans, CblasNoTrans, N, p, n, 1.0, W, N, Y, n, 0.0,
                 X, N);
  free (Y);
  return fail;
}

/* Collective (rank 0 computes). Every finite eigenvalue of a symmetric undamped pencil
   whose M is positive definite, from one symmetric LAPACK call instead of the dense path's
   nonsymmetric one: with M = L L^T (dpotrf) and W = (A - sigma B)^-1 [L; 0] (n right-hand
   sides in one multi-RHS solve with the stage's factors), OP = (A - sigma B)^-1 B is
   similar on its range to C = L^T W(0:n, :), symmetric of order n, whose eigenvalues
   (dsyevd) are mu = 1 / (lambda - sigma) for the n - m finite lambda and m exact zeros
   (constraints: not defective here, unlike OP's). The p = opts->finite largest |mu| are
   kept with x = W y / mu (one dgemm; order N = n + m, Cq scaled as in the factors) and the
   relative residual estimate eps max|mu| / |mu| (dsyevd is backward stable on C; the modes
   compute their own true residuals). Applies with opts->whole and finite > 0, a symmetric
   pencil whose M is whole on rank 0 (sys->parts NULL; the stage's own factors may be by
   rows, the right-hand sides are rank 0's) and M positive definite; else returns 0
   and nothing is done (a failed Cholesky too: M semi-definite, the dense path then).
   Returns 1 with ks filled (rank 0: mu, resid, xr of N x p; other ranks: counts), 0, or
   an error, the same on every rank.
   Steps: mass_cholesky, the multi-RHS solve, dense_symmetric_eigen, keep_largest. */
static int modal_dense (stage *st, factor *f, ks_result *ks, mb_err *err)
{
  const gep_system *sys = st->sys;
  int n = sys->n, N = st->N, p = st->opts->finite, go = 0;
  int root = st->rank == 0;
  if (!st->opts->whole || p <= 0 || sys->parts) return 0;  /* M whole on rank 0 */
  double *L = NULL, *W = NULL;
  if (root) go = mass_cholesky (st, &L, &W);
  MPI_Bcast (&go, 1, MPI_INT, 0, st->comm);
  if (!go) { free (L); free (W); return 0; }
  double t0 = MPI_Wtime ();
  if (root)
    for (int j = 0; j < n; j++)
      for (int i = j; i < n; i++) W[i + (size_t) j * N] = L[i + (size_t) j * n];
  int rc = factor_solve_many (f, W, n, err);  /* collective; agreed */
  double *C = NULL, *w = NULL, *X = NULL;
  int fail = 0;
  if (rc == 0 && root) {
    C = mb_calloc ((size_t) n * n, sizeof *C);
    w = mb_calloc ((size_t) n, sizeof *w);
    X = mb_calloc ((size_t) N * p, sizeof *X);
    fail = !C || !w || !X;
    if (!fail) fail = dense_symmetric_eigen (n, N, L, W, C, w);
    if (!fail) fail = keep_largest (n, N, p, C, w, W, X, ks);
    if (!fail) {
      ks->xr = X;
      X = NULL;
      ks->n = N;
      ks->nconv = p;
      ks->converged = 1;
      ks->ncv = N;
      ks->block = 1;
      ks->time_total = MPI_Wtime () - t0;
      stage_log (st, "modal: the %d finite eigenvalues at once: M = L L^T, C = L^T (A - sigma "
                 "B)^-1 [L; 0] of order %d (%d right-hand sides in one solve), dsyevd "
                 "(%.2f s)\n", p, n, n, ks->time_total);
    }
  }
  free (L); free (W); free (C); free (w); free (X);
  if (rc == 0 && root && fail) rc = mb_fail (err, MB_ENOMEM, "out of memory (or LAPACK "
                                             "failed) in the dense symmetric eigenproblem of "
                                             "order %d", n);
  rc = mb_agree (st->comm, rc, err);
  if (rc < 0) { ks_result_clear (ks); return rc; }
  ks->nconv = p;
  ks->converged = 1;
  return 1;
}

static int refuse_complex_undamped (MPI_Comm comm, int rc, eigen_result *out, mb_err *err);

static const stage_ops modal_ops = {
  .kind = STAGE_MODAL, .label = "modal", .gep = "GEP (18)", .unit = "rad^2/s^2",
  .complex_arith = 0, .scaling = modal_scaling, .pencil = modal_pencil,
  .pencil_clear = modal_pencil_clear,
  .krylov_opts = modal_krylov_opts, .modes = modal_modes, .check = modal_check,
  .dense = modal_dense, .retry_shift = modal_retry_shift,
  .refuse = refuse_complex_undamped, .missed_rerun = 1
};

static int run_stage (MPI_Comm comm, const gep_system *sys, int damped,
                      const eigen_opts *opts, eigen_result *out, mb_err *err);

int gep_modal (MPI_Comm comm, const gep_system *sys, const eigen_opts *opts,
               eigen_result *out, mb_err *err)
{
  /* by rows on any system and pencil: the operator, and the modes (an unsymmetric
     pencil's complex ones too) */
  return run_stage (comm, sys, 0, opts, out, err);
}

/* Collective, after the undamped stage (status rc). A pencil that is not symmetric (K of
   a follower load or another non-conservative force) can have complex eigenvalues
   lambda = a +- i b (flutter), which the undamped stage's report cannot hold: it writes
   omega^2 as a real number, so a pair would come out as two equal real parts. Rank 0
   looks at the modes it found (Im lambda above 1e-8 |lambda|, the rule that labels such a
   mode unstable in modes_unsymmetric_rows); when there is one, the stage is refused (every rank:
   out->refused_complex = 1, so that the damped stage still runs): MB_ESOLVE
   naming the first pair and pointing to the damped stage, which reports complex
   eigenvalues. Returns rc otherwise, the same on every rank. */
static int refuse_complex_undamped (MPI_Comm comm, int rc, eigen_result *out,
                                    mb_err *err)
{
  int rank, first = -1, pairs = 0;
  MPI_Comm_rank (comm, &rank);
  if (rank == 0 && (rc == 0 || rc == MB_ENOCONV))
    for (int i = 0; i < out->nmodes; i++)
      if (fabs (cimag (out->modes[i].lambda)) > 1e-8 * cabs (out->modes[i].lambda)) {
        if (first < 0) first = i;
        pairs++;
      }
  MPI_Bcast (&first, 1, MPI_INT, 0, comm);
  if (first < 0) return rc;
  out->refused_complex = 1;
  if (rank == 0) {
    double complex l = out->modes[first].lambda;
    mb_err_init (err);
    mb_fail (err, MB_ESOLVE, "modal stage: the pencil is not symmetric (K of a follower load "
             "or another non-conservative force) and has complex eigenvalues lambda = "
             "omega^2, %.6g %s %.6g i rad^2/s^2 among them (%d of the %d modes found; a flutter "
             "pair), which the undamped stage's real table cannot show: refused. The damped "
             "stage reports complex eigenvalues; it runs after this refusal when the deck has "
             "it (a 'complex' section; a model without damping: 'complex: {enabled: true}'; "
             "a matrix deck: with matrices.R, zero allowed)",
             creal (l), cimag (l) < 0.0 ? "-" : "+", fabs (cimag (l)), pairs, out->nmodes);
  }
  return mb_agree (comm, MB_ESOLVE, err);
}

/* The undamped stage's solve with the options o of run_stage: at the shift given, or
   (2 pi f_c)^2 for a target frequency, or just below zero; an unsymmetric pencil's complex
   eigenvalues refused (modal_ops.refuse); the missed-mode rerun (stage_run's rule 5). */
static int modal_solve (MPI_Comm comm, const gep_system *sys, eigen_opts *o,
                        eigen_result *out, mb_err *err)
{
  double sigma = o->has_shift ? creal (o->shift)
               : o->has_target ? pow (TWO_PI * o->target_hz, 2) : -1e-3;
  return stage_run (&modal_ops, comm, sys, o, sigma, sys->n + sys->m, out, err);
}

/* ---- damped stage: GEP (31), balanced, reduced to order n + m ------------------------- */

/* Rank 0. The balanced pencil's scaling: w near a typical omega, Cq^T's block beside K / w
   (s = c / w, c = s w bringing Cq to K's size), and symmetry (K, R and M symmetric: LDL^T). */
static void complex_scaling (stage *st)
{
  const gep_system *sys = st->sys;
  st->w = pencil_omega_scale (sys);
  st->s = pencil_cq_scale (sys) / st->w;
  st->symmetric = sys->measures ? sys->measures->damped_symmetric
                : spm_is_symmetric (sys->K, 1e-12) && spm_is_symmetric (sys->M, 1e-12)
                  && (!sys->R || spm_is_symmetric (sys->R, 1e-12));
}

/* Rank 0 (with st->parts every rank, after complex_scaling on rank 0 and its broadcast).
   The matrix that is factored: the reduced [P(sigma), c Cq^T; c Cq, 0] of order n + m
   (pencil_damped_reduced), the lower triangle only for LDL^T; real (st->A,
   pencil_damped_reduced_real; by rows, this rank's rows in st->Ap,
   pencil_damped_reduced_part) at a real shift, where the stage runs in real arithmetic,
   complex (st->t, pencil_damped_reduced; by rows, this rank's rows,
   pencil_damped_reduced_part_z) at a complex one. */
static int complex_pencil_as (stage *st, int real)
{
  const gep_system *sys = st->sys;
  st->Nf = sys->n + sys->m;
  int by_rows = stage_pencil_by_rows (st);
  if (!by_rows) complex_scaling (st);
  double c = st->s * st->w;
  if (real && by_rows)
    return take_pencil_rows (st, pencil_damped_reduced_part (st->parts, creal (st->sigma), c,
                                                             st->symmetric, &st->Ap));
  if (real)  /* real shift: a real matrix, for DMUMPS */
    return take_real_pencil (st, pencil_damped_reduced_real (sys, creal (st->sigma), c,
                                                             st->symmetric));
  if (by_rows)  /* this rank's rows, complex, for ZMUMPS's distributed input */
    MB_TRY (pencil_damped_reduced_part_z (st->parts, st->sigma, c, st->symmetric, &st->t));
  else
    MB_TRY (pencil_damped_reduced (sys, st->sigma, c, st->symmetric, &st->t));
  st->nnz = st->t.nnz;
  st->row = st->t.row;
  st->col = st->t.col;
  st->val = st->t.val;
  return 0;
}

/* Rank 0 (by rows: every rank): real at a real shift (complex_ops), complex always
   (complex_ops_z). */
static int complex_pencil (stage *st) { return complex_pencil_as (st, cimag (st->sigma) == 0.0); }
static int complex_pencil_z (stage *st) { return complex_pencil_as (st, 0); }

static void complex_pencil_clear (stage *st)
{
  modal_pencil_clear (st);
  ztrip_clear (&st->t);
}

/* Both members of a conjugate pair are eigenvalues of the complex operator. The Ritz
   vectors stay by rows: as real columns in real arithmetic (ks->xr), complex ones in
   complex arithmetic (ks->x). */
static void complex_krylov_opts (const stage *st, ks_opts *o)
{
  o->nev = 2 * st->opts->modes;
  o->seed = 2;
  o->whole = st->opts->whole;
  if (o->whole) o->nev = st->opts->finite;  /* the dense path: the finite ones */
  stage_detail (st, "complex: Krylov-Schur for %d eigenvalues (%d modes, conjugates included)\n",
             o->nev, st->opts->modes);
}

/* Collective. Ritz vectors that came whole to rank 0 (a dense path of a small problem:
   Krylov-Schur's, ks->x, N x nconv complex, or the undamped stage's LAPACK one, ks->xr,
   N x nconv real) handed out by rows: each column's rows scattered to their ranks in d's
   layout, so that ks->x (ks->xr) becomes this rank's rows (nloc x nconv, leading
   dimension max (nloc, 1)) on every rank and ks->rows = 1, as Krylov-Schur leaves them;
   ks->nconv and ks->mu become rank 0's on every rank. Returns 0 or MB_ENOMEM, the same on
   every rank (ks unchanged then). */
static int ritz_to_rows (const stage *st, const ks_dist *d, ks_result *ks, mb_err *err)
{
  int ld = d->nloc > 0 ? d->nloc : 1, head[2] = { ks->nconv, ks->xr != NULL };
  MPI_Bcast (head, 2, MPI_INT, 0, st->comm);  /* rank 0's count and kind */
  int nc = head[0], real = head[1];
  size_t size = real ? sizeof (double) : sizeof (double complex);
  MPI_Datatype type = real ? MPI_DOUBLE : MPI_C_DOUBLE_COMPLEX;
  char *rows = mb_calloc ((size_t) ld * (nc > 0 ? nc : 1), size);
  int *counts = mb_calloc ((size_t) st->nranks, sizeof *counts);
  int *displs = mb_calloc ((size_t) st->nranks, sizeof *displs);
  double complex *mu = st->rank == 0 ? NULL : mb_calloc ((size_t) nc + 1, sizeof *mu);
  int rc = rows && counts && displs && (st->rank == 0 || mu) ? 0
         : mb_fail (err, MB_ENOMEM, "out of memory for %d Ritz vectors by rows", nc);
  if ((rc = mb_agree (st->comm, rc, err)) < 0) {
    free (rows); free (counts); free (displs); free (mu);
    return rc;
  }
  if (st->rank != 0) {  /* the Ritz values too, rank 0's */
    free (ks->mu);
    ks->mu = mu;
  }
  ks->nconv = nc;
  MPI_Bcast (ks->mu, 2 * nc, MPI_DOUBLE, 0, st->comm);
  MPI_Gather (&d->nloc, 1, MPI_INT, counts, 1, MPI_INT, 0, st->comm);
  MPI_Gather (&d->row0, 1, MPI_INT, displs, 1, MPI_INT, 0, st->comm);
  const char *whole = st->rank != 0 ? NULL : real ? (const char *) ks->xr : (const char *) ks->x;
  for (int i = 0; i < nc; i++)
    MPI_Scatterv (whole ? whole + (size_t) i * d->n * size : NULL, counts, displs, type,
                  rows + (size_t) i * ld * size, d->nloc, type, 0, st->comm);
  if (real) {
    free (ks->xr);
    ks->xr = (double *) (void *) rows;
  } else {
    free (ks->x);
    ks->x = (double complex *) (void *) rows;
  }
  ks->rows = 1;
  free (counts); free (displs);
  return 0;
}

/* Collective. The damped stage's modes on the ranks' rows (its system is always by rows;
   the dense path's vectors, whole on rank 0, are handed out by rows first: ritz_to_rows):
   modes_damped_rows, one mode per conjugate pair. */
static int complex_modes (stage *st, ks_result *ks, mb_err *err)
{
  ks_dist d;
  ks_dist_init (&d, st->comm, st->N);
  if (!ks->rows) MB_TRY (ritz_to_rows (st, &d, ks, err));  /* the dense path's, by rows */
  log_rows_modes (st);
  return modes_damped_rows (&d, st->parts, ks, st->sigma, st->w, st->s, st->opts->modes,
                            keep_rows (st), st->out, err);
}

/* Rank 0. Rigid-body modes (lambda = 0, and -alpha with Rayleigh damping) sit next to the
   default shift: a real shift a tenth of the lowest oscillatory |lambda| to the right of
   the imaginary axis (never on a stable eigenvalue), when that is further from zero than
   ten times the shift: there both kinds converge accurately. Oscillatory here by the
   eigenvalue (Im lambda above the rigid-body rounding floor), not by the mode's kind: the
   kind of a mode whose residual is poor can say rigid-body (its residual cannot tell it
   from zero), and then the retry that would cure it would never run. When that gives
   nothing beyond ten times the shift (a free body's Jordan zeros split by rounding into
   pairs with small imaginary parts, as on the real path), the lowest |lambda| among the
   modes whose true residual is above EIGEN_RESIDUAL_SAFETY x the tolerance stands for it. */
static double complex_retry_shift (const stage *st)
{
  const eigen_result *out = st->out;
  double floor_rigid = modes_rigid_threshold (st->sys, 1), next = INFINITY, bad = INFINITY;
  for (int i = 0; i < out->nmodes; i++) {
    double complex l = out->modes[i].lambda;
    if (cimag (l) > floor_rigid) next = fmin (next, 0.1 * cabs (l));
    if (!(out->modes[i].residual <= EIGEN_RESIDUAL_SAFETY * out->tolerance))
      bad = fmin (bad, 0.1 * cabs (l));
  }
  if (!(next > 10.0 * creal (st->sigma) && isfinite (next))) next = bad;
  if (!isfinite (next)) return 0.0;
  return next <= 10.0 * creal (st->sigma) ? 0.0 : next;
}

static const stage_ops complex_ops_z;  /* below: complex_ops's rule 6 runs it */

static const stage_ops complex_ops = {
  .kind = STAGE_COMPLEX, .label = "complex", .gep = "GEP (31)", .unit = "1/s",
  .complex_arith = 1, .scaling = complex_scaling, .pencil = complex_pencil,
  .pencil_clear = complex_pencil_clear,
  .krylov_opts = complex_krylov_opts, .modes = complex_modes, .check = NULL,
  .retry_shift = complex_retry_shift,
  .rigid_rerun = &complex_ops_z
};

/* The same stage in complex arithmetic at every shift (complex_arith = 2). */
static const stage_ops complex_ops_z = {
  .kind = STAGE_COMPLEX, .label = "complex", .gep = "GEP (31)", .unit = "1/s",
  .complex_arith = 2, .scaling = complex_scaling, .pencil = complex_pencil_z,
  .pencil_clear = complex_pencil_clear,
  .krylov_opts = complex_krylov_opts, .modes = complex_modes, .check = NULL,
  .retry_shift = complex_retry_shift
};

/* The damped stage's first shift: given, or eps + i 2 pi f_c for a target frequency, or
   just right of zero. */
static double complex complex_shift (const eigen_opts *opts)
{
  return opts->has_shift ? opts->shift
       : opts->has_target ? 1e-3 + I * TWO_PI * opts->target_hz : 1e-3;
}

/* A system by rows stays so at every shift: its pencil is built by rows (real at a real
   shift, complex at a complex one), and the modes are finished on the ranks' rows. */
int gep_complex (MPI_Comm comm, const gep_system *sys, const eigen_opts *opts,
                 eigen_result *out, mb_err *err)
{
  return run_stage (comm, sys, 1, opts, out, err);
}

/* The damped stage's solve with the options o of run_stage, at complex_shift: in real
   arithmetic at a real shift, again in complex arithmetic (a system by rows still by rows)
   when that found rigid-body modes (stage_run's rule 6, complex_ops.rigid_rerun). */
static int complex_solve (MPI_Comm comm, const gep_system *sys, eigen_opts *o,
                          eigen_result *out, mb_err *err)
{
  return stage_run (&complex_ops, comm, sys, o, complex_shift (o), 2 * sys->n + sys->m, out,
                    err);
}

/* gep_modal (damped 0) or gep_complex (damped 1) on a system that it takes as it is (whole;
   or by rows: the undamped stage with a symmetric pencil, the damped one at every shift):
   the modes asked capped by the bound on finite eigenvalues (or a refusal, MB_EDECK),
   exactly that many asked when the bound is near, the stage's solve, then the bound and the
   finite count recorded in out. */
static int run_stage (MPI_Comm comm, const gep_system *sys, int damped,
                      const eigen_opts *opts, eigen_result *out, mb_err *err)
{
  eigen_opts o = *opts;
  int bound = finite_bound (comm, sys, damped);
  if (cap_modes (comm, sys, damped, bound, &o, err) < 0) {
    memset (out, 0, sizeof *out);
    return MB_EDECK;
  }
  exact_before (comm, sys, damped, bound, &o);
  int rc = damped ? complex_solve (comm, sys, &o, out, err)
                  : modal_solve (comm, sys, &o, out, err);
  record_bound (comm, &o, opts->modes, bound, out);
  if (rc == 0) count_finite (comm, sys, damped, opts->modes, &o, out);
  return rc;
}
