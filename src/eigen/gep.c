/* gep.c: the eigen stages: build A - sigma B for GEP (18) or (31) (seed 001), factor it
   once with MUMPS on every rank, run Krylov-Schur on OP = (A - sigma B)^-1 B with the basis
   distributed by rows, and turn the Ritz pairs (gathered on rank 0) into physical modes. */
#include "gep.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "../linalg/factor.h"
#include "krylov_schur.h"

#define TWO_PI 6.283185307179586476925286766559

/* Relative size of |mu| below which a Ritz value is an infinite eigenvalue (constraint or
   massless direction): mu = 1 / (lambda - sigma) -> 0. */
#define INFINITE_MU_RTOL 1e-11
/* Rigid-body modes have lambda = 0; what is computed is noise: the Krylov-Schur tolerance
   times the distance to the shift, and rounding of order eps max|K| / max|M|. A mode is
   rigid-body when |lambda| is below both floors with a wide margin (rigid_threshold). A
   threshold relative to max|K| / max|M| alone would call the first bending mode of a long,
   finely meshed structure rigid: lambda_1 / lambda_max can be 1e-10 there. */
#define RIGID_RTOL 1e-12

void eigen_result_clear (eigen_result *r)
{
  if (!r) return;
  for (int i = 0; i < r->nmodes; i++) {
    free (r->modes[i].x);
    free (r->modes[i].xi);
  }
  free (r->modes);
  memset (r, 0, sizeof *r);
}

static double now (void) { return MPI_Wtime (); }

/* Rank 0. The largest |lambda| (modal: omega^2; damped: |lambda|, so the square root of
   the bound) that counts as a rigid-body mode, for tolerance tol and shift sigma. */
static double rigid_threshold (const gep_system *sys, double tol, double complex sigma,
                               int damped)
{
  double kmax = spm_max_abs (sys->K), mmax = spm_max_abs (sys->M);
  double ratio = mmax > 0.0 ? kmax / mmax : kmax;
  double floor_round = damped ? sqrt (RIGID_RTOL * ratio) : RIGID_RTOL * ratio;
  return fmax (floor_round, 100.0 * tol * cabs (sigma));
}

/* ---- shift-invert operator, collective: OP = (A - sigma B)^-1 B ------------------------ */

/* The Krylov vectors are distributed by rows (ks_dist); OP gathers x on rank 0, forms B x
   there (M lives on rank 0), solves with MUMPS on every rank and scatters the result. */
typedef struct shift_invert {
  MPI_Comm comm;
  factor *f;
  const gep_system *sys;
  ks_dist dist;             /* rows of this rank */
  int *counts, *displs;     /* rank 0: rows of every rank */
  void *full, *full2;       /* rank 0: two whole vectors (double or double complex) */
  mb_err *err;
  double t_solve;           /* wall time spent in solves [s] */
  int solves;               /* solves done */
} shift_invert;

/* Collective. Sets up the distribution of order N and the buffers (vsize bytes an entry).
   Returns 0 or MB_ENOMEM on every rank. */
static int shift_invert_init (shift_invert *si, MPI_Comm comm, factor *f, const gep_system *sys,
                              int N, size_t vsize, mb_err *err)
{
  int rank, size;
  MPI_Comm_rank (comm, &rank);
  MPI_Comm_size (comm, &size);
  memset (si, 0, sizeof *si);
  si->comm = comm;
  si->f = f;
  si->sys = sys;
  si->err = err;
  ks_dist_init (&si->dist, comm, N);
  int ok = !mb_fault ("krylov");
  if (rank == 0 && ok) {
    si->counts = mb_calloc ((size_t) size, sizeof *si->counts);
    si->displs = mb_calloc ((size_t) size, sizeof *si->displs);
    si->full = mb_calloc ((size_t) N, vsize);
    si->full2 = mb_calloc ((size_t) N, vsize);
    ok = si->counts && si->displs && si->full && si->full2;
  }
  int rc = ok ? 0 : mb_fail (err, MB_ENOMEM, "out of memory for the shift-invert vectors "
                             "(order %d)", N);
  rc = mb_agree (comm, rc, err);
  if (rc < 0) return rc;
  MPI_Gather (&si->dist.nloc, 1, MPI_INT, si->counts, 1, MPI_INT, 0, comm);
  MPI_Gather (&si->dist.row0, 1, MPI_INT, si->displs, 1, MPI_INT, 0, comm);
  return 0;
}

static void shift_invert_clear (shift_invert *si)
{
  free (si->counts); free (si->displs); free (si->full); free (si->full2);
  memset (si, 0, sizeof *si);
}

/* Collective. z (rank 0, whole) solved in place, then scattered into y (this rank's rows). */
static int solve_and_scatter (shift_invert *si, void *z, void *y, MPI_Datatype type)
{
  double t = now ();
  int rc = factor_solve (si->f, z, si->err);
  if (rc == 0)
    MPI_Scatterv (z, si->counts, si->displs, type, y, si->dist.nloc, type, 0, si->comm);
  si->t_solve += now () - t;
  si->solves++;
  return rc;
}

/* Collective. y = (A - sigma B)^-1 B x for the undamped pencil: z = [M x_q; 0], solve. */
static int apply_undamped (void *ctx, const double *x, double *y)
{
  shift_invert *si = ctx;
  int n = si->sys->n, m = si->sys->m, rank;
  MPI_Comm_rank (si->comm, &rank);
  double *xf = si->full, *z = si->full2;
  MPI_Gatherv (x, si->dist.nloc, MPI_DOUBLE, xf, si->counts, si->displs, MPI_DOUBLE, 0, si->comm);
  if (rank == 0) {
    spm_matvec (si->sys->M, xf, z);
    memset (z + n, 0, (size_t) m * sizeof *z);
  }
  return solve_and_scatter (si, rank == 0 ? z : NULL, y, MPI_DOUBLE);
}

/* y = M x for complex x with real M. */
static void matvec_complex (const spm *A, const double complex *x, double complex *y)
{
  memset (y, 0, (size_t) A->nrows * sizeof *y);
  for (long k = 0; k < A->nnz; k++) y[A->row[k]] += A->val[k] * x[A->col[k]];
}

/* Collective. y = (A - sigma B)^-1 B x for the damped pencil: z = [x_u; M x_v; 0], solve. */
static int apply_damped (void *ctx, const double complex *x, double complex *y)
{
  shift_invert *si = ctx;
  int n = si->sys->n, m = si->sys->m, rank;
  MPI_Comm_rank (si->comm, &rank);
  double complex *xf = si->full, *z = si->full2;
  MPI_Gatherv (x, si->dist.nloc, MPI_C_DOUBLE_COMPLEX, xf, si->counts, si->displs,
               MPI_C_DOUBLE_COMPLEX, 0, si->comm);
  if (rank == 0) {
    memcpy (z, xf, (size_t) n * sizeof *z);
    matvec_complex (si->sys->M, xf + n, z + n);
    memset (z + 2 * n, 0, (size_t) m * sizeof *z);
  }
  return solve_and_scatter (si, rank == 0 ? z : NULL, y, MPI_C_DOUBLE_COMPLEX);
}

/* ---- pencils ------------------------------------------------------------------------ */

/* Complex triplets for the damped pencil (spm holds reals only). */
typedef struct ztrip { long nnz, cap; int *row, *col; double complex *val; } ztrip;

static int ztrip_add (ztrip *t, int i, int j, double complex v)
{
  if (t->nnz == t->cap) {
    long cap = 2 * t->cap + 64;
    int *r = realloc (t->row, (size_t) cap * sizeof *r);
    if (!r) return MB_ENOMEM;
    t->row = r;
    int *c = realloc (t->col, (size_t) cap * sizeof *c);
    if (!c) return MB_ENOMEM;
    t->col = c;
    double complex *w = realloc (t->val, (size_t) cap * sizeof *w);
    if (!w) return MB_ENOMEM;
    t->val = w;
    t->cap = cap;
  }
  t->row[t->nnz] = i;
  t->col[t->nnz] = j;
  t->val[t->nnz] = v;
  t->nnz++;
  return 0;
}

static void ztrip_clear (ztrip *t)
{
  free (t->row); free (t->col); free (t->val);
  memset (t, 0, sizeof *t);
}

/* A - sigma B = [K - sigma M, s Cq^T; s Cq, 0] as real triplets; only the lower triangle
   when lower_only (for LDL^T). Returns a new matrix (caller frees) or NULL. */
static spm *pencil_undamped (const gep_system *sys, double sigma, double s, int lower_only)
{
  int n = sys->n, m = sys->m;
  long cq_nnz = sys->Cq ? sys->Cq->nnz : 0;
  spm *A = spm_create (n + m, n + m, sys->K->nnz + sys->M->nnz + 2 * cq_nnz);
  if (!A) return NULL;
  int rc = 0;
  for (long k = 0; k < sys->K->nnz && rc == 0; k++)
    if (!lower_only || sys->K->row[k] >= sys->K->col[k])
      rc = spm_add (A, sys->K->row[k], sys->K->col[k], sys->K->val[k]);
  for (long k = 0; k < sys->M->nnz && rc == 0; k++)
    if (!lower_only || sys->M->row[k] >= sys->M->col[k])
      rc = spm_add (A, sys->M->row[k], sys->M->col[k], -sigma * sys->M->val[k]);
  for (long k = 0; k < cq_nnz && rc == 0; k++) {
    rc = spm_add (A, n + sys->Cq->row[k], sys->Cq->col[k], s * sys->Cq->val[k]);
    if (rc == 0 && !lower_only)
      rc = spm_add (A, sys->Cq->col[k], n + sys->Cq->row[k], s * sys->Cq->val[k]);
  }
  if (rc == 0) rc = spm_compress (A);
  return rc == 0 ? A : spm_free (A);
}

/* A - sigma B for GEP (31) in balanced form (order 2n + m). With u~ = w u (w a power of two
   near sqrt(max|K| / max|M|), a typical omega) and xi = s xi~, the rows
       w v = lambda u~,   -(K/w) u~ - R v - s Cq^T xi~ = lambda M v,   -(s/w) Cq u~ = 0
   have entries of one size, while lambda is unchanged:
       A - sigma B = [-sigma I, w I, 0; -K/w, -R - sigma M, -s Cq^T; -(s/w) Cq, 0, 0].
   Unbalanced, the identity blocks beside K make some eigenvalues far more sensitive than
   the Krylov-Schur tolerance says. */
static int pencil_damped (const gep_system *sys, double complex sigma, double s, double w,
                          ztrip *t)
{
  int n = sys->n;
  for (int i = 0; i < n; i++) {
    MB_TRY (ztrip_add (t, i, i, -sigma));
    MB_TRY (ztrip_add (t, i, n + i, w));
  }
  for (long k = 0; k < sys->K->nnz; k++)
    MB_TRY (ztrip_add (t, n + sys->K->row[k], sys->K->col[k], -sys->K->val[k] / w));
  if (sys->R)
    for (long k = 0; k < sys->R->nnz; k++)
      MB_TRY (ztrip_add (t, n + sys->R->row[k], n + sys->R->col[k], -sys->R->val[k]));
  for (long k = 0; k < sys->M->nnz; k++)
    MB_TRY (ztrip_add (t, n + sys->M->row[k], n + sys->M->col[k], -sigma * sys->M->val[k]));
  if (sys->Cq)
    for (long k = 0; k < sys->Cq->nnz; k++) {
      MB_TRY (ztrip_add (t, n + sys->Cq->col[k], 2 * n + sys->Cq->row[k], -s * sys->Cq->val[k]));
      MB_TRY (ztrip_add (t, 2 * n + sys->Cq->row[k], sys->Cq->col[k], -s / w * sys->Cq->val[k]));
    }
  return 0;
}

/* The balancing factor w of the damped pencil: a power of two near sqrt(max|K| / max|M|). */
static double omega_scale_for (const gep_system *sys)
{
  double kmax = spm_max_abs (sys->K), mmax = spm_max_abs (sys->M);
  if (!(kmax > 0.0) || !(mmax > 0.0)) return 1.0;
  return ldexp (1.0, (int) lround (0.5 * log2 (kmax / mmax)));
}

/* Scale for Cq so that its entries match K's magnitude (seed 001, sec. 5): a power of two
   near max|K| / max|Cq|, so scaling and scaling back are exact. */
static double cq_scale_for (const gep_system *sys)
{
  if (!sys->Cq || sys->Cq->nnz == 0) return 1.0;
  double kmax = spm_max_abs (sys->K), cmax = spm_max_abs (sys->Cq);
  if (!(kmax > 0.0) || !(cmax > 0.0)) return 1.0;
  return ldexp (1.0, (int) lround (log2 (kmax / cmax)));
}

/* Row sums of |A| into sums (size A->nrows) added; column sums of |A| added into csums. */
static void abs_row_sums (const spm *A, double *sums, int transpose)
{
  if (!A) return;
  for (long k = 0; k < A->nnz; k++) sums[transpose ? A->col[k] : A->row[k]] += fabs (A->val[k]);
}

/* Infinity norms of the unscaled pencil: ||A||, ||B|| for GEP (18) or (31). Returns 0 or
   MB_ENOMEM (err set). */
static int pencil_norms (const gep_system *sys, int damped, double *anorm, double *bnorm,
                         mb_err *err)
{
  int n = sys->n, m = sys->m;
  double *rows = mb_calloc ((size_t) (n + m), sizeof *rows);
  double *mrows = mb_calloc ((size_t) n, sizeof *mrows);
  *anorm = *bnorm = 1.0;
  if (!rows || !mrows) {
    free (rows); free (mrows);
    return mb_fail (err, MB_ENOMEM, "out of memory for the pencil norms");
  }
  abs_row_sums (sys->K, rows, 0);
  if (damped) abs_row_sums (sys->R, rows, 0);
  abs_row_sums (sys->Cq, rows, 1);   /* Cq^T in the first block rows */
  if (sys->Cq) for (long k = 0; k < sys->Cq->nnz; k++) rows[n + sys->Cq->row[k]] += fabs (sys->Cq->val[k]);
  abs_row_sums (sys->M, mrows, 0);
  double a = damped ? 1.0 : 0.0, b = damped ? 1.0 : 0.0;
  for (int i = 0; i < n + m; i++) a = fmax (a, rows[i]);
  for (int i = 0; i < n; i++) b = fmax (b, mrows[i]);
  *anorm = a > 0.0 ? a : 1.0;
  *bnorm = b > 0.0 ? b : 1.0;
  free (rows); free (mrows);
  return 0;
}

static double inf_norm_c (int len, const double complex *x)
{
  double s = 0.0;
  for (int i = 0; i < len; i++) s = fmax (s, cabs (x[i]));
  return s;
}

/* Relative residual of (lambda, [phi; xi]) for GEP (18), unscaled, infinity norms:
   r = [K phi + Cq^T xi - lambda M phi; Cq phi], ||r|| / ((||A|| + |lambda| ||B||) ||phi||).
   ||phi|| rather than ||[phi; xi]||: the multipliers are forces, of K's size, and would make
   the quotient look better than the mode is. */
static double residual_undamped (const gep_system *sys, double complex lambda,
                                 const double complex *phi, const double complex *xi,
                                 double anorm, double bnorm, double complex *work)
{
  int n = sys->n, m = sys->m;
  double complex *r = work, *t = work + n + m;
  matvec_complex (sys->K, phi, r);
  matvec_complex (sys->M, phi, t);
  for (int i = 0; i < n; i++) r[i] -= lambda * t[i];
  for (int i = 0; i < m; i++) r[n + i] = 0.0;
  if (sys->Cq)
    for (long k = 0; k < sys->Cq->nnz; k++) {
      r[sys->Cq->col[k]] += sys->Cq->val[k] * xi[sys->Cq->row[k]];
      r[n + sys->Cq->row[k]] += sys->Cq->val[k] * phi[sys->Cq->col[k]];
    }
  double xn = inf_norm_c (n, phi);  /* the DOFs, not the multipliers (forces) */
  return inf_norm_c (n + m, r) / ((anorm + cabs (lambda) * bnorm) * (xn > 0.0 ? xn : 1.0));
}

/* Relative residual for GEP (31), unscaled, x = [u; v; xi], scaled by ||[u; v]||:
   r = [v - lambda u; -K u - R v - Cq^T xi - lambda M v; -Cq u]. */
static double residual_damped (const gep_system *sys, double complex lambda,
                               const double complex *x, const double complex *xi,
                               double anorm, double bnorm, double complex *work)
{
  int n = sys->n, m = sys->m;
  const double complex *u = x, *v = x + n;
  double complex *r = work, *t = work + 2 * n + m;
  for (int i = 0; i < n; i++) r[i] = v[i] - lambda * u[i];
  matvec_complex (sys->K, u, r + n);
  matvec_complex (sys->M, v, t);
  for (int i = 0; i < n; i++) r[n + i] = -r[n + i] - lambda * t[i];
  if (sys->R) {
    matvec_complex (sys->R, v, t);
    for (int i = 0; i < n; i++) r[n + i] -= t[i];
  }
  for (int i = 0; i < m; i++) r[2 * n + i] = 0.0;
  if (sys->Cq)
    for (long k = 0; k < sys->Cq->nnz; k++) {
      r[n + sys->Cq->col[k]] -= sys->Cq->val[k] * xi[sys->Cq->row[k]];
      r[2 * n + sys->Cq->row[k]] -= sys->Cq->val[k] * u[sys->Cq->col[k]];
    }
  double xn = inf_norm_c (2 * n, x);  /* positions and velocities, not the multipliers */
  return inf_norm_c (2 * n + m, r) / ((anorm + cabs (lambda) * bnorm) * (xn > 0.0 ? xn : 1.0));
}

/* Index of the entry of largest modulus; among entries within 1e-8 of it, the first, so that
   the choice does not flip between runs that differ by rounding. */
static int canonical_index (int len, const double complex *x)
{
  double big = inf_norm_c (len, x);
  for (int i = 0; i < len; i++)
    if (cabs (x[i]) >= big * (1.0 - 1e-8)) return i;
  return 0;
}

/* ---- stage plumbing ----------------------------------------------------------------- */

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

static void logf_rank0 (const gep_log *log, const char *fmt, ...)
  __attribute__ ((format (printf, 2, 3)));

static void logf_rank0 (const gep_log *log, const char *fmt, ...)
{
  if (!log || !log->out) return;
  va_list ap;
  va_start (ap, fmt);
  vfprintf (log->out, fmt, ap);
  va_end (ap);
  fflush (log->out);
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

/* Collective. The end of a stage's Krylov phase: the status agreed (mb_agree), the
   iteration time and convergence flag on every rank, the factorization and the shift-invert
   buffers freed. Returns the agreed status. */
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

/* Ritz pair turned into a candidate mode (rank 0). */
typedef struct candidate {
  double complex lambda;
  double dist;             /* |lambda - sigma| ordering key: larger |mu| first */
  double complex *x;       /* full pencil vector, borrowed from (and edited in) ks_result */
} candidate;

static int by_dist (const void *a, const void *b)
{
  const candidate *x = a, *y = b;
  return (x->dist > y->dist) - (x->dist < y->dist);
}

static int by_freq (const void *a, const void *b)
{
  const mode *x = a, *y = b;
  if (x->freq_hz != y->freq_hz) return (x->freq_hz > y->freq_hz) - (x->freq_hz < y->freq_hz);
  return (cimag (x->lambda) < cimag (y->lambda)) - (cimag (x->lambda) > cimag (y->lambda));
}

/* M-orthonormalize the candidates i0..i1-1 (one cluster of equal real lambda) on their phi
   parts, carrying the xi parts along; then phi^T M phi = 1. Real vectors. */
static void mass_orthonormalize (const gep_system *sys, candidate *c, int i0, int i1, int N,
                                 double *mphi)
{
  int n = sys->n;
  for (int i = i0; i < i1; i++) {
    for (int j = i0; j < i; j++) {  /* x_i -= (phi_j^T M phi_i) x_j, phi_j M-unit */
      double complex *xj = c[j].x;
      for (int k = 0; k < n; k++) mphi[k] = creal (xj[k]);
      double *t = mphi + n;
      spm_matvec (sys->M, mphi, t);
      double proj = 0.0;
      for (int k = 0; k < n; k++) proj += t[k] * creal (c[i].x[k]);
      for (int k = 0; k < N; k++) c[i].x[k] -= proj * xj[k];
    }
    for (int k = 0; k < n; k++) mphi[k] = creal (c[i].x[k]);
    spm_matvec (sys->M, mphi, mphi + n);
    double q = 0.0;
    for (int k = 0; k < n; k++) q += mphi[n + k] * mphi[k];
    if (q > 0.0) for (int k = 0; k < N; k++) c[i].x[k] /= sqrt (q);
  }
}

/* Number of leading candidates (sorted by lambda) that are rigid-body. */
static int ncand_rigid_prefix (const candidate *c, int nc, double rigid_tol)
{
  int k = 0;
  while (k < nc && fabs (creal (c[k].lambda)) <= rigid_tol) k++;
  return k;
}

/* Candidate i (an elastic mode of a symmetric pencil) made M-orthogonal to the rigid-body
   modes 0..nrigid-1 (M-orthonormal), then its eigenvalue taken as the Rayleigh quotient
       lambda = x^T A x / x^T B x = (phi^T K phi + 2 xi^T (s Cq) phi) / phi^T M phi.
   With a shift near zero, OP is ~1/|sigma| on rigid modes and ~1/lambda on elastic ones, so
   rounding leaves rigid components of relative size eps lambda / |sigma| in elastic Ritz
   vectors; exact eigenvectors have none (M-orthogonality), and the Rayleigh quotient of the
   cleaned vector is accurate to the square of its error. */
static void refine_against_rigid (const gep_system *sys, candidate *c, int nrigid, int i, int N,
                                  double s, double *work)
{
  int n = sys->n, m = sys->m;
  double *phi = work, *mphi = work + n;
  for (int k = 0; k < n; k++) phi[k] = creal (c[i].x[k]);
  spm_matvec (sys->M, phi, mphi);
  for (int r = 0; r < nrigid; r++) {
    double proj = 0.0;  /* phi_r^T M phi_i */
    for (int k = 0; k < n; k++) proj += creal (c[r].x[k]) * mphi[k];
    for (int k = 0; k < N; k++) c[i].x[k] -= proj * c[r].x[k];
  }
  for (int k = 0; k < n; k++) phi[k] = creal (c[i].x[k]);
  spm_matvec (sys->M, phi, mphi);
  double q = 0.0, kq = 0.0, cq = 0.0;
  for (int k = 0; k < n; k++) q += phi[k] * mphi[k];
  spm_matvec (sys->K, phi, mphi);
  for (int k = 0; k < n; k++) kq += phi[k] * mphi[k];
  if (sys->Cq && m > 0)
    for (long k = 0; k < sys->Cq->nnz; k++)
      cq += creal (c[i].x[n + sys->Cq->row[k]]) * s * sys->Cq->val[k] * phi[sys->Cq->col[k]];
  if (q > 0.0) {
    c[i].lambda = (kq + 2.0 * cq) / q;
    for (int k = 0; k < N; k++) c[i].x[k] /= sqrt (q);
  }
}

/* ---- undamped stage ----------------------------------------------------------------- */

/* Collective. The undamped stage at one shift sigma (see gep_modal). */
static int modal_at_shift (MPI_Comm comm, const gep_system *sys, const deck_stage *st,
                           int keep_vectors, const gep_log *log, double sigma,
                           eigen_result *out, mb_err *err)
{
  int rank, nranks;
  MPI_Comm_rank (comm, &rank);
  MPI_Comm_size (comm, &nranks);
  memset (out, 0, sizeof *out);
  double t_start = now ();
  int n = sys->n, m = sys->m, N = n + m, rc = 0;
  out->stage = STAGE_MODAL;
  out->n = n;
  out->m = m;
  out->shift = sigma;
  out->tolerance = st->tolerance;
  out->max_restarts = st->max_restarts;

  /* rank 0 decides symmetry and scaling and builds the pencil */
  int symmetric = 0;
  double s = 1.0;
  spm *A = NULL;
  int fail = mb_fault ("pencil");
  if (rank == 0) {
    symmetric = spm_is_symmetric (sys->K, 1e-12) && spm_is_symmetric (sys->M, 1e-12);
    s = cq_scale_for (sys);
    A = fail ? NULL : pencil_undamped (sys, sigma, s, symmetric);
    fail = !A;
  }
  if (fail) rc = mb_fail (err, MB_ENOMEM, "out of memory building A - sigma B (order %d)", N);
  MPI_Bcast (&symmetric, 1, MPI_INT, 0, comm);
  out->cq_scale = s;
  rc = mb_agree (comm, rc, err);
  if (rc < 0) { spm_free (A); return rc; }
  out->time_assemble = now () - t_start;

  logf_rank0 (log, "modal: GEP (18), order %d (%d DOFs, %d constraints), shift %.6g rad^2/s^2\n",
              N, n, m, sigma);
  logf_rank0 (log, "modal: factoring A - sigma B (%s, MUMPS, %d rank%s) ...\n",
              symmetric ? "LDL^T" : "LU", nranks, nranks > 1 ? "s" : "");
  double t0 = now ();
  char name[128];
  snprintf (name, sizeof name, "A - sigma B (modal stage, sigma = %.6g rad^2/s^2)", sigma);
  factor *f = factor_create (comm, symmetric ? FACTOR_REAL_SYMMETRIC : FACTOR_REAL_GENERAL, N,
                             A ? A->nnz : 0, A ? A->row : NULL, A ? A->col : NULL,
                             A ? A->val : NULL, name, err);
  A = spm_free (A);
  if (!f) return err->code ? err->code : MB_ESOLVE;
  factor_get_stats (f, &out->factor);
  out->time_factor = now () - t0;
  logf_rank0 (log, "modal: factored in %.2f s: %ld entries in factors, %.1f MB\n",
              out->time_factor, out->factor.nnz_factors, out->factor.memory_mb);

  shift_invert si;
  candidate *cand = NULL;
  int ncand = 0;
  ks_result ks;
  memset (&ks, 0, sizeof ks);
  double ks_worst = 0.0;
  int extra = st->modes / 10 > 2 ? st->modes / 10 : 2;  /* a few more, for the missed-mode check */
  t0 = now ();
  progress_ctx pc = { log ? log->out : NULL, t0, t0 };
  ks_opts o = { .nev = st->modes + extra, .ncv = st->subspace, .tol = st->tolerance,
                .max_restarts = st->max_restarts, .seed = 1,
                .progress = progress_print, .progress_ctx = &pc };
  if (o.ncv > 0 && o.ncv < o.nev + 2) o.ncv = o.nev + 2;
  logf_rank0 (log, "modal: Krylov-Schur for %d eigenvalues (%d wanted + %d for the check)\n",
              o.nev, st->modes, extra);
  rc = shift_invert_init (&si, comm, f, sys, N, sizeof (double), err);
  if (rc == 0) rc = ks_solve_real (&si.dist, apply_undamped, &si, &o, &ks, err);
  if (rank == 0) {
    record_krylov (out, &o, &ks);
    ks_worst = ks.worst;
    /* candidates: finite Ritz values; a conjugate pair (a split repeated eigenvalue, or
       flutter when K is not symmetric) gives its real and imaginary parts */
    double mu_max = 0.0;
    for (int i = 0; i < ks.nconv; i++) mu_max = fmax (mu_max, cabs (ks.mu[i]));
    cand = rc == 0 ? mb_calloc ((size_t) ks.nconv + 1, sizeof *cand) : NULL;
    if (rc == 0 && !cand) rc = mb_fail (err, MB_ENOMEM, "out of memory for modes");
    for (int i = 0; i < ks.nconv && rc == 0; i++) {
      if (cabs (ks.mu[i]) <= INFINITE_MU_RTOL * mu_max) { out->n_infinite++; continue; }
      double complex lambda = sigma + 1.0 / ks.mu[i];
      int real_pair = symmetric && fabs (cimag (ks.mu[i])) > 0.0;
      candidate *c = &cand[ncand++];
      c->x = ks.x + (size_t) i * N;
      if (symmetric) {  /* real eigenvalues: real vectors (a split pair: Re and Im parts) */
        c->lambda = creal (lambda);
        for (int k = 0; k < N; k++) c->x[k] = real_pair && cimag (ks.mu[i]) < 0 ? cimag (c->x[k]) : creal (c->x[k]);
      } else {
        c->lambda = lambda;
      }
      c->dist = cabs (c->lambda - sigma);
    }
  }
  double t_solve = si.t_solve;
  int solves = si.solves;
  rc = end_krylov (comm, rc, t0, &f, &si, out, err);
  if (rc < 0) {
    ks_result_clear (&ks);
    free (cand);
    return rc;
  }

  /* physical modes on rank 0: cluster-wise M-orthonormal, sign, residual, selection */
  double t_post = now ();
  double sturm_hi = 0.0, sturm_lo = 0.0;
  int need_lo = 0, nfound_interval = 0;
  if (rank == 0) {
    logf_rank0 (log, "modal: %d Ritz pairs converged after %d restarts, %.2f s (%d solves: "
                "%.2f s)\n", ks.nconv, ks.restarts, now () - t0, solves, t_solve);
    double rigid_tol = rigid_threshold (sys, st->tolerance, sigma, 0);
    qsort (cand, (size_t) ncand, sizeof *cand, by_dist);
    /* order the candidates by lambda for clustering */
    double anorm, bnorm;
    rc = pencil_norms (sys, 0, &anorm, &bnorm, err);
    double *mwork = mb_calloc ((size_t) 2 * n, sizeof *mwork);
    double complex *work = mb_calloc ((size_t) 2 * (N + n), sizeof *work);
    int nsel = ncand < st->modes ? ncand : st->modes;
    out->modes = mb_calloc ((size_t) nsel + 1, sizeof *out->modes);
    if (rc == 0 && (!mwork || !work || !out->modes || mb_fault ("modes")))
      rc = mb_fail (err, MB_ENOMEM, "out of memory for modes");
    if (rc == 0 && symmetric) {
      /* clusters of equal lambda among all candidates (sorted by lambda inside by_dist
         order is not guaranteed: use an index sort by lambda) */
      for (int i = 1; i < ncand; i++)  /* insertion sort by real lambda, stable */
        for (int j = i; j > 0 && creal (cand[j - 1].lambda) > creal (cand[j].lambda); j--) {
          candidate t = cand[j]; cand[j] = cand[j - 1]; cand[j - 1] = t;
        }
      for (int i0 = 0; i0 < ncand;) {
        int i1 = i0 + 1;
        double l0 = creal (cand[i0].lambda);
        while (i1 < ncand) {
          double l1 = creal (cand[i1].lambda);
          int both_rigid = fabs (l0) <= rigid_tol && fabs (l1) <= rigid_tol;
          if (!both_rigid && fabs (l1 - l0) > 1e-8 * fmax (fabs (l0), rigid_tol)) break;
          i1++;
        }
        mass_orthonormalize (sys, cand, i0, i1, N, mwork);
        i0 = i1;
      }
      int nrigid = ncand_rigid_prefix (cand, ncand, rigid_tol);  /* sorted by lambda */
      for (int i = nrigid; nrigid > 0 && i < ncand; i++)
        refine_against_rigid (sys, cand, nrigid, i, N, s, mwork);
      qsort (cand, (size_t) ncand, sizeof *cand, by_dist);
    }
    for (int i = 0; i < nsel && rc == 0; i++) {
      candidate *c = &cand[i];
      mode *md = &out->modes[out->nmodes];
      double complex *phi = c->x, *xi = c->x + n;
      if (!symmetric) {  /* unit mass-norm when possible, else unit inf-norm */
        double q = 0.0;
        for (int k = 0; k < n; k++) mwork[k] = creal (phi[k]);
        spm_matvec (sys->M, mwork, mwork + n);
        for (int k = 0; k < n; k++) q += mwork[n + k] * mwork[k];
        double scale = q > 0.0 ? sqrt (q) : inf_norm_c (n, phi);
        if (scale > 0.0) for (int k = 0; k < N; k++) c->x[k] /= scale;
      }
      int big = canonical_index (n, phi);  /* sign (phase): largest entry real positive */
      double complex ph = cabs (phi[big]) > 0.0 ? conj (phi[big]) / cabs (phi[big]) : 1.0;
      for (int k = 0; k < N; k++) c->x[k] *= ph;
      for (int k = 0; k < m; k++) xi[k] *= s;  /* multipliers scaled back */
      md->lambda = c->lambda;
      double lr = creal (c->lambda);
      md->freq_hz = sqrt (cabs (c->lambda)) / TWO_PI;
      md->damped_freq_hz = md->freq_hz;
      md->zeta = 0.0;
      md->kind = fabs (lr) <= rigid_tol && fabs (cimag (c->lambda)) <= rigid_tol ? MODE_RIGID
               : (lr < 0.0 || fabs (cimag (c->lambda)) > 1e-8 * cabs (c->lambda)) ? MODE_UNSTABLE
               : MODE_OSCILLATORY;
      md->residual = residual_undamped (sys, c->lambda, phi, xi, anorm, bnorm, work);
      out->max_residual = fmax (out->max_residual, md->residual);
      if (keep_vectors) {
        md->x = mb_calloc ((size_t) n, sizeof *md->x);
        md->xi = m > 0 ? mb_calloc ((size_t) m, sizeof *md->xi) : NULL;
        if (!md->x || (m > 0 && !md->xi)) rc = mb_fail (err, MB_ENOMEM, "out of memory for modes");
        else {
          memcpy (md->x, phi, (size_t) n * sizeof *md->x);
          if (m > 0) memcpy (md->xi, xi, (size_t) m * sizeof *md->xi);
        }
      }
      out->nmodes++;
    }
    if (rc == 0) qsort (out->modes, (size_t) out->nmodes, sizeof *out->modes, by_freq);
    /* missed-mode check interval [lo, hi] around the reported modes */
    if (rc == 0 && symmetric && out->nmodes > 0) {
      double lo = creal (out->modes[0].lambda), hi = lo;
      for (int i = 0; i < out->nmodes; i++) {
        lo = fmin (lo, creal (out->modes[i].lambda));
        hi = fmax (hi, creal (out->modes[i].lambda));
      }
      double delta = 1e-6 * fmax (fmax (fabs (lo), fabs (hi)), rigid_tol);
      sturm_hi = hi + delta;
      sturm_lo = lo - delta;
      need_lo = !(sigma < sturm_lo);
      if (!need_lo) sturm_lo = sigma;
      for (int i = 0; i < ncand; i++) {
        double l = creal (cand[i].lambda);
        if (l > sturm_lo && l < sturm_hi) nfound_interval++;
      }
    }
    free (mwork);
    free (work);
  }
  ks_result_clear (&ks);
  free (cand);
  if (rank != 0 && mb_fault ("modes")) rc = mb_fail (err, MB_ENOMEM, "out of memory for modes");
  rc = mb_agree (comm, rc, err);
  if (rc < 0) return rc;

  /* missed-mode check: negative pivots of [K - s M, Cq^T; Cq, 0] = (eigenvalues below s) + m */
  double sturm[3] = { symmetric && rank == 0 && out->nmodes > 0 ? 1.0 : 0.0, sturm_hi, need_lo ? sturm_lo : 0.0 };
  int do_lo = need_lo;
  MPI_Bcast (sturm, 3, MPI_DOUBLE, 0, comm);
  MPI_Bcast (&do_lo, 1, MPI_INT, 0, comm);
  if (sturm[0] != 0.0) {
    long below[2] = { 0, out->factor.negative_pivots - m };  /* [hi, lo] */
    for (int pass = 0; pass < 1 + do_lo && rc == 0; pass++) {
      double at = pass == 0 ? sturm[1] : sturm[2];
      int fail = mb_fault ("check");
      spm *As = rank == 0 && !fail ? pencil_undamped (sys, at, out->cq_scale, 1) : NULL;
      if (rank == 0) fail = !As;
      int brc = fail ? mb_fail (err, MB_ENOMEM, "out of memory building A - s B for the "
                                "missed-mode check (order %d)", N) : 0;
      rc = mb_agree (comm, brc, err);
      if (rc < 0) { spm_free (As); return rc; }
      factor *fs = factor_create (comm, FACTOR_REAL_SYMMETRIC, N, As ? As->nnz : 0,
                                  As ? As->row : NULL, As ? As->col : NULL,
                                  As ? As->val : NULL, "A - s B (missed-mode check)", err);
      spm_free (As);
      if (!fs) return err->code ? err->code : MB_ESOLVE;
      factor_stats fst;
      factor_get_stats (fs, &fst);
      below[pass] = fst.negative_pivots - m;
      factor_free (fs);
    }
    if (rank == 0) {
      out->sturm_done = 1;
      out->sturm_lambda = sturm[1];
      out->sturm_count = below[0] - below[1];
      if (out->sturm_count > nfound_interval)
        logf_rank0 (log, "modal: WARNING: the inertia counts %ld eigenvalues in [%.6g, %.6g] "
                    "rad^2/s^2 but %d were found: modes may be missing; raise 'modes' or "
                    "'subspace'\n", out->sturm_count, need_lo ? sturm_lo : sigma, sturm[1],
                    nfound_interval);
      else
        logf_rank0 (log, "modal: missed-mode check: %ld eigenvalues below %.6g rad^2/s^2, "
                    "all found\n", out->sturm_count, sturm[1]);
    }
  }
  out->time_post = now () - t_post;
  out->time_total = now () - t_start;
  if (!out->converged) {
    if (rank == 0)
      rc = mb_fail (err, MB_ENOCONV, "modal stage did not converge: %d of %d eigenpairs "
                    "within tolerance %.1e after %d restarts (worst residual %.2e); raise "
                    "max_restarts or subspace", out->nconv, out->nev, out->tolerance,
                    out->restarts, ks_worst);
    return mb_agree (comm, MB_ENOCONV, err);
  }
  return 0;
}

int gep_modal (MPI_Comm comm, const gep_system *sys, const deck_stage *st, int keep_vectors,
               const gep_log *log, eigen_result *out, mb_err *err)
{
  /* shift: given, or (2 pi f_c)^2 for a target frequency, or just below zero */
  double sigma = st->has_shift ? st->shift_re
               : st->has_target ? pow (TWO_PI * st->target_hz, 2) : -1e-3;
  int rc = modal_at_shift (comm, sys, st, keep_vectors, log, sigma, out, err);
  if (rc < 0 || st->has_shift || st->has_target) return rc;
  /* With rigid-body modes, OP is ~1/|sigma| on them and ~1/lambda on elastic modes: when
     lambda / |sigma| is huge, rounding caps the elastic modes' accuracy above the
     tolerance although Krylov-Schur's estimate says converged. The true residuals show
     it; then the stage runs again with sigma a tenth of the lowest elastic eigenvalue
     below zero, where both kinds converge accurately. */
  int rank;
  MPI_Comm_rank (comm, &rank);
  double next = 0.0;
  if (rank == 0 && out->max_residual > 10.0 * st->tolerance) {
    double lowest = 0.0;
    for (int i = 0; i < out->nmodes; i++)
      if (out->modes[i].kind != MODE_RIGID && creal (out->modes[i].lambda) > 0.0) {
        lowest = creal (out->modes[i].lambda);
        break;
      }
    if (-0.1 * lowest < 10.0 * sigma) next = -0.1 * lowest;
  }
  MPI_Bcast (&next, 1, MPI_DOUBLE, 0, comm);
  if (next == 0.0) return rc;
  logf_rank0 (log, "modal: residual %.1e above the tolerance at shift %.3g (rigid-body modes "
              "dominate the operator): again at shift %.6g rad^2/s^2\n", out->max_residual,
              sigma, next);
  eigen_result_clear (out);
  return modal_at_shift (comm, sys, st, keep_vectors, log, next, out, err);
}

/* ---- damped stage ------------------------------------------------------------------- */

/* Rank 0: candidates -> physical modes of GEP (31): one per conjugate pair (Im >= 0),
   nearest the shift first, unit largest position entry, residual, kind. */
static int damped_modes (const gep_system *sys, double complex sigma, double s, int want,
                         int keep_vectors, candidate *cand, int ncand, eigen_result *out,
                         mb_err *err)
{
  int n = sys->n, m = sys->m, N = 2 * n + m, rc = 0;
  double rigid_tol = rigid_threshold (sys, out->tolerance, sigma, 1);
  /* fold each pair onto Im >= 0; drop the second member of a pair */
  int *keep = mb_fault ("modes") ? NULL : mb_calloc ((size_t) ncand + 1, sizeof *keep);
  if (!keep) {
    free (cand);  /* owned by this function, as on every other return */
    return mb_fail (err, MB_ENOMEM, "out of memory for modes");
  }
  for (int i = 0; i < ncand; i++) keep[i] = 1;
  for (int i = 0; i < ncand; i++) {
    candidate *c = &cand[i];
    double tol = 1e-8 * fmax (cabs (c->lambda), rigid_tol);
    if (cimag (c->lambda) < -tol) {
      for (int j = 0; j < ncand; j++)
        if (j != i && keep[j] && cabs (cand[j].lambda - conj (c->lambda)) <= 1e-6 * cabs (c->lambda)) {
          keep[i] = 0;
          break;
        }
      if (keep[i]) {  /* its partner was not found: report the partner, conj (x) */
        c->lambda = conj (c->lambda);
        for (int k = 0; k < N; k++) c->x[k] = conj (c->x[k]);
      }
    } else if (fabs (cimag (c->lambda)) <= tol) {
      c->lambda = creal (c->lambda);
    }
    c->dist = cabs (c->lambda - sigma);
  }
  int kept = 0;
  for (int i = 0; i < ncand; i++)
    if (keep[i]) cand[kept++] = cand[i];
  free (keep);
  qsort (cand, (size_t) kept, sizeof *cand, by_dist);
  double anorm, bnorm;
  rc = pencil_norms (sys, 1, &anorm, &bnorm, err);
  int nsel = kept < want ? kept : want;
  double complex *work = mb_calloc ((size_t) 2 * N, sizeof *work);
  out->modes = mb_calloc ((size_t) nsel + 1, sizeof *out->modes);
  if (rc == 0 && (!work || !out->modes)) rc = mb_fail (err, MB_ENOMEM, "out of memory for modes");
  for (int i = 0; i < nsel && rc == 0; i++) {
    candidate *c = &cand[i];
    mode *md = &out->modes[out->nmodes];
    double complex *x = c->x, *xi = c->x + 2 * n;
    int big = canonical_index (n, x);  /* largest position entry = 1 */
    double complex scale = x[big] != 0.0 ? x[big] : 1.0;
    for (int k = 0; k < N; k++) x[k] /= scale;
    for (int k = 0; k < m; k++) xi[k] *= s;  /* multipliers scaled back */
    double complex l = c->lambda;
    md->lambda = l;
    md->freq_hz = cabs (l) / TWO_PI;
    md->damped_freq_hz = fabs (cimag (l)) / TWO_PI;
    md->zeta = cabs (l) > 0.0 ? -creal (l) / cabs (l) : 0.0;
    md->kind = cabs (l) <= rigid_tol ? MODE_RIGID
             : creal (l) > 1e-10 * cabs (l) ? MODE_UNSTABLE
             : cimag (l) == 0.0 ? MODE_OVERDAMPED : MODE_OSCILLATORY;
    if (md->kind == MODE_RIGID) md->zeta = 0.0;  /* no direction to decay along */
    md->residual = residual_damped (sys, l, x, xi, anorm, bnorm, work);
    out->max_residual = fmax (out->max_residual, md->residual);
    if (keep_vectors) {
      md->x = mb_calloc ((size_t) n, sizeof *md->x);
      md->xi = m > 0 ? mb_calloc ((size_t) m, sizeof *md->xi) : NULL;
      if (!md->x || (m > 0 && !md->xi)) rc = mb_fail (err, MB_ENOMEM, "out of memory for modes");
      else {
        memcpy (md->x, x, (size_t) n * sizeof *x);
        if (m > 0) memcpy (md->xi, xi, (size_t) m * sizeof *xi);
      }
    }
    out->nmodes++;
  }
  if (rc == 0) qsort (out->modes, (size_t) out->nmodes, sizeof *out->modes, by_freq);
  free (work);
  free (cand);
  return rc;
}

/* The damped stage at one shift sigma (see gep_complex). */
static int complex_at_shift (MPI_Comm comm, const gep_system *sys, const deck_stage *st,
                             int keep_vectors, const gep_log *log, double complex sigma,
                             eigen_result *out, mb_err *err)
{
  int rank, nranks;
  MPI_Comm_rank (comm, &rank);
  MPI_Comm_size (comm, &nranks);
  memset (out, 0, sizeof *out);
  double t_start = now ();
  int n = sys->n, m = sys->m, N = 2 * n + m, rc = 0;
  out->stage = STAGE_COMPLEX;
  out->n = n;
  out->m = m;
  out->shift = sigma;
  out->tolerance = st->tolerance;
  out->max_restarts = st->max_restarts;

  double s = 1.0, w = 1.0;
  ztrip t = { 0, 0, NULL, NULL, NULL };
  int fail = mb_fault ("pencil");
  if (rank == 0) {
    w = omega_scale_for (sys);
    s = cq_scale_for (sys) / w;  /* Cq^T's block beside K / w */
    fail = fail || pencil_damped (sys, sigma, s, w, &t) < 0;
  }
  if (fail) rc = mb_fail (err, MB_ENOMEM, "out of memory building A - sigma B (order %d)", N);
  out->cq_scale = s;
  rc = mb_agree (comm, rc, err);
  if (rc < 0) { ztrip_clear (&t); return rc; }
  out->time_assemble = now () - t_start;
  logf_rank0 (log, "complex: GEP (31), order %d (%d DOFs, %d constraints), shift %.6g%+.6gi 1/s\n",
              N, n, m, creal (sigma), cimag (sigma));
  logf_rank0 (log, "complex: factoring A - sigma B (complex LU, MUMPS, %d rank%s) ...\n",
              nranks, nranks > 1 ? "s" : "");
  double t0 = now ();
  char name[128];
  snprintf (name, sizeof name, "A - sigma B (complex stage, sigma = %.6g%+.6gi 1/s)",
            creal (sigma), cimag (sigma));
  factor *f = factor_create (comm, FACTOR_COMPLEX_GENERAL, N, t.nnz, t.row, t.col, t.val,
                             name, err);
  ztrip_clear (&t);
  if (!f) return err->code ? err->code : MB_ESOLVE;
  factor_get_stats (f, &out->factor);
  out->time_factor = now () - t0;
  logf_rank0 (log, "complex: factored in %.2f s: %ld entries in factors, %.1f MB\n",
              out->time_factor, out->factor.nnz_factors, out->factor.memory_mb);

  shift_invert si;
  candidate *cand = NULL;
  int ncand = 0;
  ks_result ks;
  memset (&ks, 0, sizeof ks);
  double ks_worst = 0.0;
  t0 = now ();
  progress_ctx pc = { log ? log->out : NULL, t0, t0 };
  /* both members of a conjugate pair are eigenvalues of the complex operator */
  ks_opts o = { .nev = 2 * st->modes, .ncv = st->subspace, .tol = st->tolerance,
                .max_restarts = st->max_restarts, .seed = 2,
                .progress = progress_print, .progress_ctx = &pc };
  if (o.ncv > 0 && o.ncv < o.nev + 2) o.ncv = o.nev + 2;
  logf_rank0 (log, "complex: Krylov-Schur for %d eigenvalues (%d modes, conjugates included)\n",
              o.nev, st->modes);
  rc = shift_invert_init (&si, comm, f, sys, N, sizeof (double complex), err);
  if (rc == 0) rc = ks_solve_complex (&si.dist, apply_damped, &si, &o, &ks, err);
  if (rank == 0) {
    record_krylov (out, &o, &ks);
    ks_worst = ks.worst;
    double mu_max = 0.0;
    for (int i = 0; i < ks.nconv; i++) mu_max = fmax (mu_max, cabs (ks.mu[i]));
    cand = rc == 0 ? mb_calloc ((size_t) ks.nconv + 1, sizeof *cand) : NULL;
    if (rc == 0 && !cand) rc = mb_fail (err, MB_ENOMEM, "out of memory for modes");
    for (int i = 0; i < ks.nconv && rc == 0; i++) {
      if (cabs (ks.mu[i]) <= INFINITE_MU_RTOL * mu_max) { out->n_infinite++; continue; }
      candidate *c = &cand[ncand++];
      c->lambda = sigma + 1.0 / ks.mu[i];
      c->dist = cabs (c->lambda - sigma);
      c->x = ks.x + (size_t) i * N;
      for (int k = 0; k < n; k++) c->x[k] /= w;  /* u = u~ / w */
    }
  }
  double t_solve = si.t_solve;
  int solves = si.solves;
  rc = end_krylov (comm, rc, t0, &f, &si, out, err);
  if (rc < 0) {
    ks_result_clear (&ks);
    free (cand);
    return rc;
  }
  double t_post = now ();
  if (rank == 0) {
    logf_rank0 (log, "complex: %d Ritz pairs converged after %d restarts, %.2f s (%d solves: "
                "%.2f s)\n", out->nconv, out->restarts, out->time_iterate, solves, t_solve);
    rc = damped_modes (sys, sigma, s, st->modes, keep_vectors, cand, ncand, out, err);
  } else if (mb_fault ("modes")) {
    rc = mb_fail (err, MB_ENOMEM, "out of memory for modes");
  }
  ks_result_clear (&ks);
  rc = mb_agree (comm, rc, err);
  if (rc < 0) return rc;
  out->time_post = now () - t_post;
  out->time_total = now () - t_start;
  if (!out->converged) {
    if (rank == 0)
      rc = mb_fail (err, MB_ENOCONV, "complex stage did not converge: %d of %d eigenpairs "
                    "within tolerance %.1e after %d restarts (worst residual %.2e); raise "
                    "max_restarts or subspace", out->nconv, out->nev, out->tolerance,
                    out->restarts, ks_worst);
    return mb_agree (comm, MB_ENOCONV, err);
  }
  return 0;
}

int gep_complex (MPI_Comm comm, const gep_system *sys, const deck_stage *st, int keep_vectors,
                 const gep_log *log, eigen_result *out, mb_err *err)
{
  double complex sigma = st->has_shift ? st->shift_re + I * st->shift_im
                       : st->has_target ? 1e-3 + I * TWO_PI * st->target_hz : 1e-3;
  int rc = complex_at_shift (comm, sys, st, keep_vectors, log, sigma, out, err);
  if (rc < 0 || st->has_shift || st->has_target) return rc;
  /* As in gep_modal: rigid-body modes (lambda = 0, and -alpha with Rayleigh damping) sit
     next to the default shift, so OP is ~1/|sigma| on them and ~1/|lambda| on the elastic
     modes, and rounding caps the elastic modes' true residual above the tolerance. Then
     the stage runs again with a real shift a tenth of the lowest elastic |lambda| to the
     right of the imaginary axis (never on a stable eigenvalue), where both kinds converge. */
  int rank;
  MPI_Comm_rank (comm, &rank);
  double next = 0.0;
  if (rank == 0 && out->max_residual > 10.0 * st->tolerance) {
    for (int i = 0; i < out->nmodes; i++)
      if (out->modes[i].kind == MODE_OSCILLATORY) {
        next = 0.1 * cabs (out->modes[i].lambda);
        break;
      }
    if (next <= 10.0 * creal (sigma)) next = 0.0;
  }
  MPI_Bcast (&next, 1, MPI_DOUBLE, 0, comm);
  if (next == 0.0) return rc;
  logf_rank0 (log, "complex: residual %.1e above the tolerance at shift %.3g (rigid-body modes "
              "dominate the operator): again at shift %.6g 1/s\n", out->max_residual,
              creal (sigma), next);
  eigen_result_clear (out);
  return complex_at_shift (comm, sys, st, keep_vectors, log, next, out, err);
}
