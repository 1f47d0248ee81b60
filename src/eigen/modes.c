/* modes.c: Ritz pairs -> physical modes of the eigen stages (rank 0, or every rank on its
   own rows for the undamped stage by rows). */
#include "modes.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../linalg/rowdist.h"
#include "own_scale.h"
#include "pencil.h"

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
/* Members of a cluster of equal eigenvalues whose M phi mass_orthonormalize_rows keeps. */
#define MO_CACHE 8

/* Frees the modes and their vectors and the profile's memory list (owned by r), zeroes *r. */
void eigen_result_clear (eigen_result *r)
{
  if (!r) return;
  for (int i = 0; i < r->nmodes; i++) {
    free (r->modes[i].x);
    free (r->modes[i].xi);
  }
  free (r->modes);
  free (r->profile.memory_bytes);
  memset (r, 0, sizeof *r);
}

/* The rounding floor of rigid-body eigenvalues: the largest |lambda| (modal: omega^2;
   damped: |lambda|, so the square root of the undamped floor) that counts as a rigid-body
   mode whatever its residual. RIGID_RTOL max|K| / max|M| undamped, its square root damped
   (a free body undamped in R is a 2 x 2 Jordan block at 0 in GEP (31): rounding of size
   eps moves it by sqrt(eps) times the pencil's omega scale). The same at every shift (the
   eigenvalues are refined from the vectors, accurate whatever the shift; a mode's own
   residual widens it, see modes_is_rigid and damped_is_rigid). */
double modes_rigid_threshold (const gep_system *sys, int damped)
{
  const gep_measures *ms = sys->measures;  /* by rows: measured over the ranks */
  double kmax = ms ? ms->kmax : spm_max_abs (sys->K), mmax = ms ? ms->mmax : spm_max_abs (sys->M);
  double ratio = mmax > 0.0 ? kmax / mmax : kmax;
  if (!damped) return RIGID_RTOL * ratio;
  return sqrt (RIGID_RTOL * ratio);
}

/* Undamped: a mode is rigid-body when |lambda| is below the rounding floor, or below what
   its own true residual rho allows lambda to be off by: for a symmetric pencil the
   eigenvalue error is about rho (||A|| + |lambda| ||B||) / ||B|| (norms as in the
   residual), so a mode with a poor residual and |lambda| within that of 0 cannot be told
   from a rigid one. Neither term depends on the shift. */
static int modes_is_rigid (double complex lambda, double rho, double floor_round, double anorm,
                           double bnorm)
{
  double l = cabs (lambda);
  return l <= floor_round || l <= rho * (anorm + l * bnorm) / bnorm;
}

/* Damped: a mode is rigid-body when l = |lambda| is below the rounding floor, or when its
   true residual rho cannot tell it from a perturbed zero. A zero of GEP (31) that is a
   2 x 2 Jordan block (a free body, R u = 0) moves by the square root of a perturbation:
   with K u = R u = 0, the pair (l, [u; l u]) has the residual l^2 ||M u|| / ((||A|| +
   l ||B||) ||[u; l u]||), so a residual rho allows
       l^2 <= d max(1, l),   d = rho (||A|| + l ||B||) / ||B||,
   and a simple zero allows l <= d (below the former when d < 1). Neither depends on the
   shift. */
static int damped_is_rigid (double complex lambda, double rho, double floor_round, double anorm,
                            double bnorm)
{
  double l = cabs (lambda), d = rho * (anorm + l * bnorm) / bnorm;
  return l <= floor_round || l <= d || l * l <= d * fmax (1.0, l);
}

/* The root nearest `near` of a lambda^2 + b lambda + c = 0 (c / b when a = 0; `near` when
   a = b = 0 or the root is not finite), without cancellation. */
static double complex quadratic_root_near (double complex a, double complex b, double complex c,
                                           double complex near)
{
  double complex r1, r2;
  if (a == 0.0) {
    if (b == 0.0) return near;
    r1 = r2 = -c / b;
  } else {
    double complex sq = csqrt (b * b - 4.0 * a * c);
    if (creal (conj (b) * sq) < 0.0) sq = -sq;  /* no cancellation in b + sq */
    double complex q = -0.5 * (b + sq);
    r1 = q / a;
    r2 = q != 0.0 ? c / q : r1;
  }
  double complex r = cabs (r1 - near) <= cabs (r2 - near) ? r1 : r2;
  return isfinite (creal (r)) && isfinite (cimag (r)) ? r : near;
}

/* The damped stage's refinement (drows_candidate): the eigenvalue refined from the
   position part u of a mode of GEP (31) is the root nearest the Ritz value of the
   quadratic Rayleigh quotient
       u^T (lambda^2 M + lambda R + K) u = 0
   (unconjugated: for symmetric M, R, K the left eigenvector is u itself, so the root is
   accurate to the square of u's error; for the rest, to its first power). With conj (R not
   symmetric: a gyroscopic G in it) u^H instead of u^T: for symmetric M, K and skew G the
   left eigenvector of an undamped whirl is conj(u), and u^T G u = 0 would drop G (a
   circular whirl also has u^T M u = 0, and u in null(K) fits lambda = 0 as well: the
   unconjugated root of a free spinning body's nutation is 0). Cq u = 0 drops the
   multipliers. lambda = sigma + 1/mu loses |sigma| times the Ritz value's error, which a far
   shift makes large; the quotient does not depend on the shift (quadratic_root_near keeps
   the Ritz value when the root is not finite). */
/* A refined eigenvalue of a pencil with a non-symmetric R is kept when its true residual is
   below GYRO_ACCEPT times the tolerance, even if above the Ritz pair's: a gyroscopic
   system's Ritz values carry an error in Re lambda of |lambda| times the residual's
   relative size against ||K|| (1e-9 of a whirl frequency beside rigid-body modes: a false
   'unstable' at 1e-10), which the two-sided quotient removes, while the residual, scaled
   by ||A||, rises from 1e-16 to 1e-14, both far below any tolerance. */
#define GYRO_ACCEPT 1e-2

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

/* Number of leading candidates (sorted by lambda) that are rigid-body. */
static int ncand_rigid_prefix (const candidate *c, int nc, double rigid_tol)
{
  int k = 0;
  while (k < nc && fabs (creal (c[k].lambda)) <= rigid_tol) k++;
  return k;
}

/* Every rank. The largest |mu| of ks's nconv Ritz values; a Ritz value at or below
   INFINITE_MU_RTOL of it is an infinite eigenvalue (a constraint or massless direction). */
static double ritz_mu_max (const ks_result *ks)
{
  double mu_max = 0.0;
  for (int i = 0; i < ks->nconv; i++) mu_max = fmax (mu_max, cabs (ks->mu[i]));
  return mu_max;
}

/* Every rank. Which part of a conjugate pair of real Ritz columns Ritz value i is, from
   prev, i - 1's: 1 the first of a pair (j, j+1) (x_j = xr_j + i xr_{j+1}), 2 its second
   (x_{j+1} = conj x_j), 0 a real value's column or a complex column (ks->x). */
static int ritz_part (const ks_result *ks, int i, int prev)
{
  if (prev == 1) return 2;
  return !ks->x && cimag (ks->mu[i]) != 0.0 && i + 1 < ks->nconv ? 1 : 0;
}

/* Every rank. Ritz vector i (its part, ritz_part) on this rank's nl rows, columns ld apart,
   as its real and imaginary parts re and im (nl doubles each; im zero for a real column). */
static void ritz_vector_parts (const ks_result *ks, int i, int part, int nl, size_t ld,
                               double *re, double *im)
{
  const double complex *z = ks->x ? ks->x + (size_t) i * ld : NULL;
  const double *xr = z ? NULL : ks->xr + (size_t) (part == 2 ? i - 1 : i) * ld;
  for (int k = 0; k < nl; k++) {
    re[k] = z ? creal (z[k]) : xr[k];
    im[k] = z ? cimag (z[k]) : part == 1 ? xr[ld + k] : part == 2 ? 0.0 - xr[ld + k] : 0.0;
  }
}

/* Rank 0. The real vector of Ritz pair i of a symmetric pencil (its eigenvalue is real):
   Re x_i, or Im x_i when mu_i has a negative imaginary part (x_i and x_{i+1} of a split
   pair, conjugates, give Re and Im between them). From ks->xr (a pair (j, j+1): x_j =
   xr_j + i xr_{j+1}, x_{j+1} its conjugate; the sign of Im x_{j+1} = -xr_{j+1} is written
   into that column), else from ks->x, rewritten in place as N doubles at the start of its
   column (entry k of the doubles overwrites no complex entry above k). Returns the
   column; all pointers into ks. */
static double *real_column (ks_result *ks, int i, int N)
{
  int neg = cimag (ks->mu[i]) < 0.0;
  if (!ks->xr) {
    double complex *x = ks->x + (size_t) i * N;
    double *xr = (double *) x;
    for (int k = 0; k < N; k++) {
      double v = neg ? cimag (x[k]) : creal (x[k]);
      xr[k] = v;
    }
    return xr;
  }
  /* pairs: mu_j complex and mu_{j+1} its conjugate, scanned from the first column */
  int first = -1;
  for (int j = 0; j < ks->nconv; j++) {
    if (cimag (ks->mu[j]) == 0.0 || j + 1 >= ks->nconv) continue;
    if (j == i || j + 1 == i) { first = j; break; }
    j++;  /* the pair (j, j+1) lies before i */
  }
  double *re = ks->xr + (size_t) (first >= 0 ? first : i) * N;
  if (first < 0) return re;                 /* a real Ritz pair: its column */
  double *im = re + N;
  if (i == first) return neg ? im : re;     /* x_j = re + i im */
  if (!neg) return re;                      /* x_{j+1} = re - i im */
  for (int k = 0; k < N; k++) im[k] = -im[k];  /* Im x_{j+1} = -im; x_j, if used, took re */
  return im;
}

/* Rank 0. Ritz pairs -> candidates (see modes.h): mu ~ 0 is an infinite eigenvalue
   (constraint or massless direction), the others give lambda = sigma + 1/mu, real. */
int modes_candidates (ks_result *ks, int N, double sigma, candidate **cand, int *ncand,
                      eigen_result *out, mb_err *err)
{
  *cand = NULL;
  *ncand = 0;
  double mu_max = ritz_mu_max (ks);
  candidate *c0 = mb_calloc ((size_t) ks->nconv + 1, sizeof *c0);
  if (!c0) return mb_fail (err, MB_ENOMEM, "out of memory for modes");
  int nc = 0;
  for (int i = 0; i < ks->nconv; i++) {
    if (cabs (ks->mu[i]) <= INFINITE_MU_RTOL * mu_max) { out->n_infinite++; continue; }
    candidate *c = &c0[nc++];
    /* real eigenvalues: real vectors (a split repeated pair: its Re and Im parts) */
    c->lambda = creal (sigma + 1.0 / ks->mu[i]);
    c->xr = real_column (ks, i, N);
    c->dist = cabs (c->lambda - sigma);
  }
  *cand = c0;
  *ncand = nc;
  return 0;
}

/* Candidates handled per block in rayleigh_quotients (one spm_matmat chunk: more would
   only hold more products), and the doubles of work it needs. */
#define RQ_BLOCK SPM_MM_CHUNK
#define RQ_WORK(n, m) ((size_t) RQ_BLOCK * (size_t) (2 * (n) + (m)) + SPM_MM_WORK (n))

/* The candidates sorted by real lambda (insertion sort: stable, so that equal eigenvalues
   keep their order on every rank). */
static void sort_by_lambda (candidate *c, int nc)
{
  for (int i = 1; i < nc; i++)
    for (int j = i; j > 0 && creal (c[j - 1].lambda) > creal (c[j].lambda); j--) {
      candidate t = c[j]; c[j] = c[j - 1]; c[j - 1] = t;
    }
}

/* The end of the cluster of equal eigenvalues that starts at c[i0] (sorted by lambda):
   the first i1 > i0 whose lambda differs from c[i0]'s by more than 1e-8 relative (rigid-body
   modes, all below rigid_tol, are one cluster). */
static int cluster_end (const candidate *c, int nc, int i0, double rigid_tol)
{
  int i1 = i0 + 1;
  double l0 = creal (c[i0].lambda);
  while (i1 < nc) {
    double l1 = creal (c[i1].lambda);
    int both_rigid = fabs (l0) <= rigid_tol && fabs (l1) <= rigid_tol;
    if (!both_rigid && fabs (l1 - l0) > 1e-8 * fmax (fabs (l0), rigid_tol)) break;
    i1++;
  }
  return i1;
}

/* fmax (a, b) for a running maximum a >= +0 (never NaN) and b = |...| (+0, positive or
   NaN): b when b > a, else a (a NaN b leaves a, as in fmax), without fmax's library call
   in the loops over rows. */
static inline double max_up (double a, double b)
{
  return b > a ? b : a;
}

/* Collective. buf (count doubles) summed over the ranks, rank 0's sum on every rank
   (MPI_Reduce, then MPI_Bcast): the ranks take decisions on these sums (which eigenvalue,
   which candidate first), and an all-reduce need not give every rank the same rounding. */
static void sum_everywhere (MPI_Comm comm, double *buf, int count)
{
  int rank;
  MPI_Comm_rank (comm, &rank);
  MPI_Reduce (rank == 0 ? MPI_IN_PLACE : buf, buf, count, MPI_DOUBLE, MPI_SUM, 0, comm);
  MPI_Bcast (buf, count, MPI_DOUBLE, 0, comm);
}

/* ---- the undamped stage by rows: symmetric pencil, any number of ranks ----------------- */

/* What the by-rows post-processing shares between its steps (all owned by it): the rows
   of this rank (d), M's and A0 = [K, s Cq^T; s Cq, 0]'s rows with their halo plans (A0 is
   the pencil at sigma = 0, both triangles: x^T A0 x = phi^T K phi + 2 xi^T s Cq phi is the
   Rayleigh quotient's numerator and A0 x - lambda [M phi; 0] the residual), the scale s,
   the order n of K, and work blocks of RQ_BLOCK columns of ld = max (nloc, 1) rows: X
   (candidates packed), MX = M X, AX = A0 X, and the M products that mass_orthonormalize_rows
   keeps (MO_CACHE + 1 columns). */
typedef struct rows_ctx {
  const ks_dist *d;
  spm_rows *mrows, *arows;
  double s, anorm, bnorm;
  int n;
  size_t ld;
  double *X, *MX, *AX, *cache;
  mb_err *err;
} rows_ctx;

/* Collective. X = the nb candidates' columns (this rank's rows), MX = M X and, when with_a,
   AX = A0 X: one halo exchange per matrix for the block. Returns 0 or an agreed error. */
static int rows_products (rows_ctx *r, candidate *const *c, int nb, int with_a)
{
  size_t nl = (size_t) r->d->nloc;
  for (int j = 0; j < nb; j++) memcpy (r->X + (size_t) j * r->ld, c[j]->xr, nl * sizeof *r->X);
  int rc = spm_rows_matmat (r->mrows, nb, r->X, (int) r->ld, r->MX, (int) r->ld, r->err);
  if (rc == 0 && with_a)
    rc = spm_rows_matmat (r->arows, nb, r->X, (int) r->ld, r->AX, (int) r->ld, r->err);
  return rc;
}

/* Collective, after rows_products (..., with_a = 1) on the same nb candidates. With
   update (1: when phi^T M phi > 0 and the numerator is finite; 2: when phi^T M phi > 0)
   the eigenvalue becomes the Rayleigh quotient
       lambda = x^T A0 x / phi^T M phi = (phi^T K phi + 2 xi^T (s Cq) phi) / phi^T M phi:
   sigma + 1/mu loses eps |sigma| / |lambda| of relative accuracy for a shift far from
   lambda, while the quotient is accurate to the square of the vector's error at any
   shift. Then the true residual of
   (lambda, x) on the unscaled pencil: r = [K phi + Cq^T (s xi) -
   lambda M phi; Cq phi] (the rows of A0 x, the constraint rows divided by s), relative to
   (||A|| + |lambda| ||B||) max|phi|, into c->resid, phi^T M phi into c->q, fresh = 1 (they
   hold until mass_orthonormalize_rows or refine_against_rigid_rows changes the vector's
   direction). Two reductions for the block. */
static void rows_rayleigh (rows_ctx *r, candidate *const *c, int nb, int update)
{
  int nl = r->d->nloc, row0 = r->d->row0;
  double sums[2 * RQ_BLOCK], ext[2 * RQ_BLOCK];
  for (int j = 0; j < nb; j++) {
    const double *x = r->X + (size_t) j * r->ld, *mx = r->MX + (size_t) j * r->ld;
    const double *ax = r->AX + (size_t) j * r->ld;
    double q = 0.0, num = 0.0;
    for (int k = 0; k < nl; k++) { q += x[k] * mx[k]; num += x[k] * ax[k]; }
    sums[2 * j] = q;
    sums[2 * j + 1] = num;
  }
  sum_everywhere (r->d->comm, sums, 2 * nb);
  for (int j = 0; j < nb; j++) {
    double q = sums[2 * j], num = sums[2 * j + 1];
    if (q > 0.0 && (update == 2 || (update == 1 && isfinite (num)))) c[j]->lambda = num / q;
    c[j]->q = q;
    double lambda = creal (c[j]->lambda), rn = 0.0, xn = 0.0;
    const double *x = r->X + (size_t) j * r->ld, *mx = r->MX + (size_t) j * r->ld;
    const double *ax = r->AX + (size_t) j * r->ld;
    int kd = r->n - row0 < 0 ? 0 : r->n - row0 < nl ? r->n - row0 : nl;  /* DOF rows */
    for (int k = 0; k < kd; k++) {
      rn = max_up (rn, fabs (ax[k] - lambda * mx[k]));
      xn = max_up (xn, fabs (x[k]));
    }
    for (int k = kd; k < nl; k++) rn = max_up (rn, fabs (ax[k] / r->s));
    ext[2 * j] = rn;
    ext[2 * j + 1] = xn;
  }
  MPI_Allreduce (MPI_IN_PLACE, ext, 2 * nb, MPI_DOUBLE, MPI_MAX, r->d->comm);
  for (int j = 0; j < nb; j++) {
    double lambda = creal (c[j]->lambda), xn = ext[2 * j + 1];
    c[j]->resid = ext[2 * j] / ((r->anorm + fabs (lambda) * r->bnorm) * (xn > 0.0 ? xn : 1.0));
    c[j]->fresh = 1;
  }
}

/* Collective. rows_rayleigh for the candidates c[0..nc-1], RQ_BLOCK at a time; only those
   that are not fresh when stale_only. */
static int rows_rayleigh_all (rows_ctx *r, candidate *c, int nc, int update, int stale_only)
{
  candidate *blk[RQ_BLOCK];
  int nb = 0, rc = 0;
  for (int i = 0; i < nc && rc == 0; i++) {
    if (!stale_only || !c[i].fresh) blk[nb++] = &c[i];
    if (nb == RQ_BLOCK || (i == nc - 1 && nb > 0)) {
      rc = rows_products (r, blk, nb, 1);
      if (rc == 0) rows_rayleigh (r, blk, nb, update);
      nb = 0;
    }
  }
  return rc;
}

/* Collective. sum over the ranks of x . y on this rank's nloc rows. */
static double rows_dot (const rows_ctx *r, const double *x, const double *y)
{
  double s = 0.0;
  for (int k = 0; k < r->d->nloc; k++) s += x[k] * y[k];
  sum_everywhere (r->d->comm, &s, 1);
  return s;
}

/* Collective. The cluster c[i0..i1-1] (equal real lambda) M-orthonormalized on its phi
   parts, xi carried along, so that phi^T M phi = 1: modified Gram-Schmidt in the M inner
   product on this rank's rows (a lone fresh candidate scaled by its q, no product), the
   first MO_CACHE products M x_j kept in r->cache, one reduction per projection
   (clusters are a few repeated or rigid-body modes). M X is zero on the multiplier rows,
   so the dot products over all rows are phi's. */
static int mass_orthonormalize_rows (rows_ctx *r, candidate *c, int i0, int i1)
{
  int nl = r->d->nloc;
  if (i1 == i0 + 1 && c[i0].fresh) {
    if (c[i0].q > 0.0) {
      double sq = sqrt (c[i0].q);
      for (int k = 0; k < nl; k++) c[i0].xr[k] /= sq;
    }
    return 0;
  }
  for (int i = i0; i < i1; i++) {
    c[i].fresh = 0;
    for (int j = i0; j < i; j++) {
      double *t = r->cache + (size_t) (j - i0) * r->ld;
      if (j - i0 >= MO_CACHE) {
        t = r->cache + (size_t) MO_CACHE * r->ld;
        int rc = spm_rows_matmat (r->mrows, 1, c[j].xr, (int) r->ld, t, (int) r->ld, r->err);
        if (rc < 0) return rc;
      }
      double proj = rows_dot (r, t, c[i].xr);
      for (int k = 0; k < nl; k++) c[i].xr[k] -= proj * c[j].xr[k];
    }
    double *t = r->cache + (size_t) (i - i0 < MO_CACHE ? i - i0 : MO_CACHE) * r->ld;
    int rc = spm_rows_matmat (r->mrows, 1, c[i].xr, (int) r->ld, t, (int) r->ld, r->err);
    if (rc < 0) return rc;
    double q = rows_dot (r, t, c[i].xr);
    if (q > 0.0) {
      double sq = sqrt (q);
      for (int k = 0; k < nl; k++) { c[i].xr[k] /= sq; t[k] /= sq; }
    }
  }
  return 0;
}

/* Collective. The elastic candidates c[nrigid..nc-1] made M-orthogonal to the M-unit
   rigid-body modes on this rank's rows, RQ_BLOCK at a time: x -= sum_r (phi_r^T M phi) x_r
   (one reduction of the block's projections), then the Rayleigh quotient of the cleaned
   vector (rows_rayleigh, update 2, which also gives its residual) and unit mass. With a
   shift near zero, OP is ~1/|sigma| on rigid modes and ~1/lambda on elastic ones, so
   rounding leaves rigid components of relative size eps lambda / |sigma| in elastic Ritz
   vectors; exact eigenvectors have none (M-orthogonality), and the quotient of the
   cleaned vector is accurate to the square of its error. */
static int refine_against_rigid_rows (rows_ctx *r, candidate *c, int nrigid, int nc,
                                      double *proj)
{
  int nl = r->d->nloc;
  for (int i0 = nrigid; i0 < nc; i0 += RQ_BLOCK) {
    int nb = nc - i0 < RQ_BLOCK ? nc - i0 : RQ_BLOCK;
    candidate *blk[RQ_BLOCK];
    for (int j = 0; j < nb; j++) blk[j] = &c[i0 + j];
    int rc = rows_products (r, blk, nb, 0);
    if (rc < 0) return rc;
    for (int j = 0; j < nb; j++)
      for (int q = 0; q < nrigid; q++) {
        double s = 0.0;
        const double *mx = r->MX + (size_t) j * r->ld;
        for (int k = 0; k < nl; k++) s += c[q].xr[k] * mx[k];
        proj[(size_t) j * nrigid + q] = s;
      }
    MPI_Allreduce (MPI_IN_PLACE, proj, nb * nrigid, MPI_DOUBLE, MPI_SUM, r->d->comm);
    for (int j = 0; j < nb; j++)
      for (int q = 0; q < nrigid; q++) {
        double p = proj[(size_t) j * nrigid + q];
        for (int k = 0; k < nl; k++) blk[j]->xr[k] -= p * c[q].xr[k];
      }
    rc = rows_products (r, blk, nb, 1);
    if (rc < 0) return rc;
    rows_rayleigh (r, blk, nb, 2);
    for (int j = 0; j < nb; j++)
      if (blk[j]->q > 0.0) {
        double sq = sqrt (blk[j]->q);
        for (int k = 0; k < nl; k++) blk[j]->xr[k] /= sq;
      }
  }
  return 0;
}

/* A by-rows finisher's buffers (finish_open .. finish_close): the reductions' scratch (big,
   first: 2 nsel + 2 each), rank 0's row counts and offsets of every rank, and with gather
   (keep_vectors) rank 0's whole column (cplx + 1 columns of order N), where each kept
   mode's vector is gathered for the report. */
typedef struct finish_buf {
  MPI_Comm comm;
  int rank, gather, cplx, nl, row0, n, m, N;
  size_t ld;
  double *big, *col;
  int *first, *counts, *displs;
  mb_err *err;
} finish_buf;

/* Collective. Opens b for nsel modes of order N = n + m (undamped) or 2n + m (damped, cplx
   1: a real and an imaginary column a mode) on d's rows (leading dimension ld). Returns 0
   or MB_ENOMEM, the same on every rank; finish_close in both cases. */
static int finish_open (finish_buf *b, const ks_dist *d, int n, int m, int N, size_t ld,
                        int cplx, int nsel, int keep_vectors, mb_err *err)
{
  int size;
  memset (b, 0, sizeof *b);
  b->comm = d->comm, b->nl = d->nloc, b->row0 = d->row0, b->n = n, b->m = m, b->N = N;
  b->ld = ld, b->cplx = cplx, b->err = err;
  MPI_Comm_rank (b->comm, &b->rank);
  MPI_Comm_size (b->comm, &size);
  b->gather = keep_vectors != 0;
  b->big = mb_calloc ((size_t) 2 * nsel + 2, sizeof *b->big);
  b->first = mb_calloc ((size_t) 2 * nsel + 2, sizeof *b->first);
  b->counts = mb_calloc ((size_t) size, sizeof *b->counts);
  b->displs = mb_calloc ((size_t) size, sizeof *b->displs);
  if (b->rank == 0 && b->gather) b->col = mb_calloc ((size_t) (cplx + 1) * N, sizeof *b->col);
  int fail = !b->big || !b->first || !b->counts || !b->displs
             || (b->rank == 0 && b->gather && !b->col);
  int rc = mb_agree (b->comm, fail ? mb_fail (err, MB_ENOMEM, "out of memory for modes") : 0,
                     err);
  if (rc < 0) return rc;
  MPI_Gather (&b->nl, 1, MPI_INT, b->counts, 1, MPI_INT, 0, b->comm);
  MPI_Gather (&b->row0, 1, MPI_INT, b->displs, 1, MPI_INT, 0, b->comm);
  return 0;
}

/* Collective. Mode md's vector (this rank's rows re, and im when b->cplx), when b keeps
   vectors, gathered on rank 0 into md->x (rows 0..n-1) and md->xi (rows N-m..N-1), new
   arrays owned by the mode: the one step that brings a vector by rows to rank 0's writer.
   Returns 0 or MB_ENOMEM on every rank. */
static int finish_keep (finish_buf *b, mode *md, const double *re, const double *im)
{
  int n = b->n, m = b->m, N = b->N, nl = b->nl;
  if (!b->gather) return 0;
  MPI_Gatherv (re, nl, MPI_DOUBLE, b->col, b->counts, b->displs, MPI_DOUBLE, 0, b->comm);
  if (b->cplx)
    MPI_Gatherv (im, nl, MPI_DOUBLE, b->col ? b->col + N : NULL, b->counts, b->displs,
                 MPI_DOUBLE, 0, b->comm);
  int fail = 0;
  if (b->rank == 0) {
    const double *xr = b->col, *xm = b->cplx ? b->col + N : NULL;
    md->x = mb_calloc ((size_t) n, sizeof *md->x);
    md->xi = m > 0 ? mb_calloc ((size_t) m, sizeof *md->xi) : NULL;
    fail = !md->x || (m > 0 && !md->xi);
    for (int k = 0; k < n && !fail; k++) md->x[k] = CMPLX (xr[k], xm ? xm[k] : 0.0);
    for (int k = 0; k < m && !fail; k++)
      md->xi[k] = CMPLX (xr[N - m + k], xm ? xm[N - m + k] : 0.0);
  }
  return mb_agree (b->comm, fail ? mb_fail (b->err, MB_ENOMEM, "out of memory for modes") : 0,
                   b->err);
}

static void finish_close (finish_buf *b)
{
  free (b->big); free (b->first); free (b->counts); free (b->displs); free (b->col);
}

/* Collective. The selected candidates c[0..nsel-1] (real, M-unit) -> modes, on this rank's
   rows: the sign that makes the largest phi entry positive (the first entry within 1e-8 of the
   largest modulus over all ranks: one MAX and one MINLOC reduction for all modes),
   multipliers scaled back by s, the mode's fields from the candidate's (fresh) residual,
   and, when keep_vectors, the vector gathered on rank 0 into the mode's arrays. Every
   rank fills out->modes the same way. */
static int finish_rows (rows_ctx *r, candidate *c, int nsel, double rigid_tol,
                        int keep_vectors, eigen_result *out)
{
  int nl = r->d->nloc, row0 = r->d->row0, n = r->n, N = r->d->n;
  MPI_Comm comm = r->d->comm;
  finish_buf b;
  int rc = finish_open (&b, r->d, n, N - n, N, r->ld, 0, nsel, keep_vectors, r->err);
  double *big = b.big;
  int *first = b.first;
  if (rc < 0) goto done;
  for (int i = 0; i < nsel; i++)
    for (int k = 0; k < nl && row0 + k < n; k++) big[i] = max_up (big[i], fabs (c[i].xr[k]));
  MPI_Allreduce (MPI_IN_PLACE, big, nsel, MPI_DOUBLE, MPI_MAX, comm);
  for (int i = 0; i < nsel; i++) {  /* (global row, 1 when negative), MPI_2INT */
    first[2 * i] = N;
    first[2 * i + 1] = 0;
    for (int k = 0; k < nl && row0 + k < n; k++)
      if (fabs (c[i].xr[k]) >= big[i] * (1.0 - 1e-8)) {
        first[2 * i] = row0 + k;
        first[2 * i + 1] = c[i].xr[k] < 0.0;
        break;
      }
  }
  MPI_Allreduce (MPI_IN_PLACE, first, nsel, MPI_2INT, MPI_MINLOC, comm);
  for (int i = 0; i < nsel && rc == 0; i++) {
    double *x = c[i].xr;
    if (first[2 * i + 1]) for (int k = 0; k < nl; k++) x[k] = 0.0 - x[k];  /* no -0 */
    for (int k = 0; k < nl; k++) if (row0 + k >= n) x[k] *= r->s;  /* multipliers back */
    mode *md = &out->modes[out->nmodes];
    double lr = creal (c[i].lambda);
    md->lambda = lr;
    md->freq_hz = sqrt (fabs (lr)) / TWO_PI;
    md->damped_freq_hz = md->freq_hz;
    md->zeta = 0.0;
    md->residual = isfinite (c[i].resid) ? c[i].resid : INFINITY;
    md->kind = modes_is_rigid (lr, md->residual, rigid_tol, r->anorm, r->bnorm) ? MODE_RIGID
             : lr < 0.0 ? MODE_UNSTABLE : MODE_OSCILLATORY;
    out->max_residual = fmax (out->max_residual, md->residual);
    if (!(md->residual <= EIGEN_RESIDUAL_SAFETY * out->tolerance)) out->n_above_tol++;
    out->nmodes++;
    rc = finish_keep (&b, md, x, NULL);
  }
done:
  finish_close (&b);
  return rc;
}

/* Collective. Opens r (r->d, r->n, r->ld and r->err set by the caller) for an undamped
   stage's modes by rows (fault site "modes"): rank 0's s, the norms ||A||, ||B|| of
   GEP (18) (pencil_norms) and the rigid-body floor (*rigid_tol) on every rank; the rows of
   M (the parts', the system by rows in d's layout) and of A0 = [K, a Cq^T; a Cq, 0] (the
   pencil at sigma = 0; a = s, the scaled pencil's, or a = 1 with unscaled: the unscaled
   pencil's), each rank building its rows of A0 into *A0p, with their halo plans. *A0p is
   the caller's to free after r->arows (which borrows its values). Returns 0 or an error,
   the same on every rank. */
static int rows_open (rows_ctx *r, const gep_system *sys, const gep_parts *parts, double s,
                      int unscaled, double *rigid_tol, spm_part *A0p)
{
  const ks_dist *d = r->d;
  mb_err *err = r->err;
  int rank;
  MPI_Comm_rank (d->comm, &rank);
  double par[4] = { s, 1.0, 1.0, 0.0 };  /* s, anorm, bnorm, rigid_tol: rank 0's */
  int rc = mb_fault ("modes") ? mb_fail (err, MB_ENOMEM, "out of memory for modes") : 0;
  if (rank == 0 && rc == 0) {
    par[3] = modes_rigid_threshold (sys, 0);
    rc = pencil_norms (sys, 0, &par[1], &par[2], err);
  }
  rc = mb_agree (d->comm, rc, err);
  MPI_Bcast (par, 4, MPI_DOUBLE, 0, d->comm);
  r->s = par[0]; r->anorm = par[1]; r->bnorm = par[2];
  *rigid_tol = par[3];
  if (rc == 0)
    rc = mb_agree (d->comm, pencil_undamped_part (parts, 0.0, unscaled ? 1.0 : r->s, 0,
                                                  A0p) < 0
                   ? mb_fail (err, MB_ENOMEM, "out of memory for modes") : 0, err);
  if (rc == 0) r->mrows = spm_rows_from_part (d->comm, &parts->M, sys->n, d->n, d->row0,
                                              d->nloc, err);
  if (rc == 0 && !r->mrows) rc = err->code ? err->code : MB_ENOMEM;  /* agreed there */
  if (rc == 0) r->arows = spm_rows_from_part (d->comm, A0p, d->n, d->n, d->row0, d->nloc,
                                              err);
  if (rc == 0 && !r->arows) rc = err->code ? err->code : MB_ENOMEM;
  return rc;
}

int modes_undamped_rows (const ks_dist *d, const gep_system *sys, const gep_parts *parts,
                         double s, int want, int keep_vectors, candidate *cand, int ncand,
                         eigen_result *out, mb_err *err)
{
  rows_ctx r = { .d = d, .n = sys->n, .err = err };
  r.ld = d->nloc > 0 ? (size_t) d->nloc : 1;
  spm_part A0p = { 0 };  /* this rank's rows of A0 */
  double rigid_tol;
  int rc = rows_open (&r, sys, parts, s, 0, &rigid_tol, &A0p);
  int nsel = ncand < want ? ncand : want;
  double *proj = NULL;
  if (rc == 0) {
    r.X = mb_calloc ((size_t) 3 * RQ_BLOCK * r.ld, sizeof *r.X);
    r.cache = mb_calloc ((size_t) (MO_CACHE + 1) * r.ld, sizeof *r.cache);
    proj = mb_calloc ((size_t) RQ_BLOCK * (ncand + 1), sizeof *proj);
    out->modes = mb_calloc ((size_t) nsel + 1, sizeof *out->modes);
    int fail = !r.X || !r.cache || !proj || !out->modes;
    rc = mb_agree (d->comm, fail ? mb_fail (err, MB_ENOMEM, "out of memory for modes") : 0,
                   err);
  }
  if (rc == 0) {
    r.MX = r.X + (size_t) RQ_BLOCK * r.ld;
    r.AX = r.MX + (size_t) RQ_BLOCK * r.ld;
    qsort (cand, (size_t) ncand, sizeof *cand, by_dist);
    rc = rows_rayleigh_all (&r, cand, ncand, 1, 0);
  }
  if (rc == 0) {
    sort_by_lambda (cand, ncand);
    for (int i0 = 0; i0 < ncand && rc == 0;) {  /* clusters of equal lambda */
      int i1 = cluster_end (cand, ncand, i0, rigid_tol);
      rc = mass_orthonormalize_rows (&r, cand, i0, i1);
      i0 = i1;
    }
  }
  int nrigid = rc == 0 ? ncand_rigid_prefix (cand, ncand, rigid_tol) : 0;
  if (rc == 0 && nrigid > 0) rc = refine_against_rigid_rows (&r, cand, nrigid, ncand, proj);
  if (rc == 0) {
    qsort (cand, (size_t) ncand, sizeof *cand, by_dist);
    rc = rows_rayleigh_all (&r, cand, nsel, 0, 1);  /* residuals of the edited vectors */
  }
  if (rc == 0) rc = finish_rows (&r, cand, nsel, rigid_tol, keep_vectors, out);
  if (rc == 0) qsort (out->modes, (size_t) out->nmodes, sizeof *out->modes, by_freq);
  spm_rows_free (r.mrows);
  spm_rows_free (r.arows);
  spm_part_clear (&A0p);  /* after arows, which borrows its values */
  free (r.X); free (r.cache); free (proj);
  return rc;
}

/* ---- the damped stage by rows: real or complex arithmetic, several ranks -------------- */

/* What the damped post-processing by rows shares (all owned by it): the Krylov layout d
   (order N = 2n + m: positions u, velocities v, multipliers xi), this rank's rows of the
   unscaled GEP (31) in that layout,
       A = [0 I 0; -K -R -Cq^T; -Cq 0 0],   B = diag (I, M, 0),
   and of S = [0 0 0; I 0 0; 0 0 0], which moves the position rows to the velocity rows
   (S [u; 0; 0] = [0; u; 0]), with their halo plans; the norms ||A||, ||B|| and the rigid
   floor, and work columns of ld = max (nloc, 1) rows. A vector of GEP (31) is complex: two
   real columns, re and im. */
typedef struct drows_ctx {
  const ks_dist *d;
  int n, m;
  spm_part Ap, Bp, Sp;
  spm_rows *A, *B, *S;
  double anorm, bnorm, floor_round;
  int conj_u;       /* R not symmetric: the quotient conjugated (above GYRO_ACCEPT) */
  double tol;       /* the stage's tolerance (GYRO_ACCEPT) */
  size_t ld;
  double *W;        /* 20 columns: drows_candidate's (drows_residual uses the first 6) */
  mb_err *err;
} drows_ctx;

/* One candidate mode by rows: its eigenvalue and its own copy of its vector's rows. */
typedef struct dcand {
  double complex lambda;
  double dist;      /* |lambda - sigma| */
  double *re, *im;  /* this rank's rows of x = re + i im (ld each) */
  int mult;         /* complex arithmetic: 2 when it stands for a folded conjugate pair, or
                       the multiplicity fold_rigid_rows gives; 0: one */
} dcand;

static int by_dcand_dist (const void *a, const void *b)
{
  const dcand *x = a, *y = b;
  return (x->dist > y->dist) - (x->dist < y->dist);
}

/* Every rank: the triplets of its parts' rows as rows of A, B and S (global indices of order
   2n + m): K's row i gives A(n + i, j) = -K(i, j), R's A(n + i, n + j) = -R(i, j), Cq^T's
   A(n + i, 2n + r) = -Cq(r, i), Cq's row r A(2n + r, j) = -Cq(r, j); M's B(n + i, n + j);
   every DOF row i of the parts' layout A(i, n + i) = 1, B(i, i) = 1, S(n + i, i) = 1. Then
   each routed to the rows' owners in d (spm_part_route). Returns 0 or an agreed error. */
static int drows_build (drows_ctx *c, const gep_parts *P)
{
  int n = c->n, m = c->m, N = 2 * n + m;
  const spm *K = &P->K.L, *R = P->R.L.rowptr ? &P->R.L : NULL, *M = &P->M.L;
  const spm *Ct = P->CqT.L.rowptr ? &P->CqT.L : NULL, *C = P->Cq.L.rowptr ? &P->Cq.L : NULL;
  int d0 = P->row0 < n ? P->row0 : n, d1 = P->row0 + P->nloc < n ? P->row0 + P->nloc : n;
  long na = K->nnz + (R ? R->nnz : 0) + (Ct ? Ct->nnz : 0) + (C ? C->nnz : 0) + (d1 - d0);
  long nb = M->nnz + (d1 - d0);
  int *ar = mb_calloc ((size_t) na + 1, sizeof *ar), *ac = mb_calloc ((size_t) na + 1, sizeof *ac);
  int *br = mb_calloc ((size_t) nb + 1, sizeof *br), *bc = mb_calloc ((size_t) nb + 1, sizeof *bc);
  int *sr = mb_calloc ((size_t) (d1 - d0) + 1, sizeof *sr);
  int *sc = mb_calloc ((size_t) (d1 - d0) + 1, sizeof *sc);
  double *av = mb_calloc ((size_t) na + 1, sizeof *av);
  double *bv = mb_calloc ((size_t) nb + 1, sizeof *bv);
  double *sv = mb_calloc ((size_t) (d1 - d0) + 1, sizeof *sv);
  int fail = !ar || !ac || !br || !bc || !sr || !sc || !av || !bv || !sv;
  int rc = mb_agree (c->d->comm, fail ? mb_fail (c->err, MB_ENOMEM, "out of memory for the "
                     "damped modes by rows") : 0, c->err);
  long ka = 0, kb = 0, ks = 0;
  for (int li = 0; rc == 0 && li < K->nrows; li++) {
    int i = P->K.first + li;
    for (int e = K->rowptr[li]; e < K->rowptr[li + 1]; e++, ka++)
      ar[ka] = n + i, ac[ka] = K->col[e], av[ka] = -K->val[e];
    for (int e = R ? R->rowptr[li] : 0; R && e < R->rowptr[li + 1]; e++, ka++)
      ar[ka] = n + i, ac[ka] = n + R->col[e], av[ka] = -R->val[e];
    for (int e = Ct ? Ct->rowptr[li] : 0; Ct && e < Ct->rowptr[li + 1]; e++, ka++)
      ar[ka] = n + i, ac[ka] = 2 * n + Ct->col[e], av[ka] = -Ct->val[e];
    for (int e = M->rowptr[li]; e < M->rowptr[li + 1]; e++, kb++)
      br[kb] = n + i, bc[kb] = n + M->col[e], bv[kb] = M->val[e];
  }
  for (int lr = 0; rc == 0 && C && lr < C->nrows; lr++)
    for (int e = C->rowptr[lr]; e < C->rowptr[lr + 1]; e++, ka++)
      ar[ka] = 2 * n + P->Cq.first + lr, ac[ka] = C->col[e], av[ka] = -C->val[e];
  for (int i = d0; rc == 0 && i < d1; i++, ka++, kb++, ks++) {
    ar[ka] = i, ac[ka] = n + i, av[ka] = 1.0;
    br[kb] = i, bc[kb] = i, bv[kb] = 1.0;
    sr[ks] = n + i, sc[ks] = i, sv[ks] = 1.0;
  }
  const ks_dist *d = c->d;
  if (rc == 0)
    rc = spm_part_route (d->comm, N, N, ka, ar, ac, av, d->row0, d->nloc, &c->Ap, c->err);
  if (rc == 0)
    rc = spm_part_route (d->comm, N, N, kb, br, bc, bv, d->row0, d->nloc, &c->Bp, c->err);
  if (rc == 0)
    rc = spm_part_route (d->comm, N, N, ks, sr, sc, sv, d->row0, d->nloc, &c->Sp, c->err);
  free (ar); free (ac); free (av); free (br); free (bc); free (bv); free (sr); free (sc); free (sv);
  if (rc == 0 && !(c->A = spm_rows_from_part (d->comm, &c->Ap, N, N, d->row0, d->nloc, c->err)))
    rc = c->err->code ? c->err->code : MB_ENOMEM;
  if (rc == 0 && !(c->B = spm_rows_from_part (d->comm, &c->Bp, N, N, d->row0, d->nloc, c->err)))
    rc = c->err->code ? c->err->code : MB_ENOMEM;
  if (rc == 0 && !(c->S = spm_rows_from_part (d->comm, &c->Sp, N, N, d->row0, d->nloc, c->err)))
    rc = c->err->code ? c->err->code : MB_ENOMEM;
  return rc;
}

/* Collective. The norms and the rigid floor from the rows: ||A||, ||B|| the largest row
   sums of |A|, |B| (pencil_norms' values, summed in another order), and
   modes_rigid_threshold's floor from max|K| and max|M| over the parts. */
static void drows_measures (drows_ctx *c, const gep_parts *P)
{
  /* anorm, bnorm (at least 1: the identities), kmax, mmax */
  double loc[4] = { 1.0, 1.0, 0.0, 0.0 };
  const spm *L[2] = { &c->Ap.L, &c->Bp.L };
  for (int t = 0; t < 2; t++)
    for (int i = 0; i < L[t]->nrows; i++) {
      double sum = 0.0;
      for (int e = L[t]->rowptr[i]; e < L[t]->rowptr[i + 1]; e++) sum += fabs (L[t]->val[e]);
      loc[t] = fmax (loc[t], sum);
    }
  for (long e = 0; e < P->K.L.nnz; e++) loc[2] = fmax (loc[2], fabs (P->K.L.val[e]));
  for (long e = 0; e < P->M.L.nnz; e++) loc[3] = fmax (loc[3], fabs (P->M.L.val[e]));
  MPI_Allreduce (MPI_IN_PLACE, loc, 4, MPI_DOUBLE, MPI_MAX, c->d->comm);
  c->anorm = loc[0];
  c->bnorm = loc[1];
  double ratio = loc[3] > 0.0 ? loc[2] / loc[3] : loc[2];
  c->floor_round = sqrt (RIGID_RTOL * ratio);
}

/* Collective. The true residual of (lambda, x = re + i im) on the unscaled GEP (31),
   r = [v - lambda u; -K u - R v - Cq^T xi - lambda M v; -Cq u]:
   ||A x - lambda B x|| / ((||A|| + |lambda| ||B||) ||[u; v]||), infinity norms (the
   multipliers left out of the vector's norm; im NULL: a real vector). One halo exchange
   for A and one for B. */
static int drows_residual (drows_ctx *c, double complex lambda, const double *re,
                           const double *im, double *rho)
{
  int nl = c->d->nloc, row0 = c->d->row0, n = c->n;
  size_t ld = c->ld;
  double *X = c->W, *AX = c->W + 2 * ld, *BX = c->W + 4 * ld;
  memcpy (X, re, (size_t) nl * sizeof *X);
  if (im) memcpy (X + ld, im, (size_t) nl * sizeof *X);
  else memset (X + ld, 0, (size_t) nl * sizeof *X);
  int rc = spm_rows_matmat (c->A, 2, X, (int) ld, AX, (int) ld, c->err);
  if (rc == 0) rc = spm_rows_matmat (c->B, 2, X, (int) ld, BX, (int) ld, c->err);
  if (rc < 0) return rc;
  double ext[2] = { 0.0, 0.0 };  /* ||r||, ||[u; v]|| */
  for (int k = 0; k < nl; k++) {
    double complex r = CMPLX (AX[k], AX[ld + k]) - lambda * CMPLX (BX[k], BX[ld + k]);
    ext[0] = fmax (ext[0], cabs (r));
    if (row0 + k < 2 * n) ext[1] = fmax (ext[1], cabs (CMPLX (X[k], X[ld + k])));
  }
  MPI_Allreduce (MPI_IN_PLACE, ext, 2, MPI_DOUBLE, MPI_MAX, c->d->comm);
  *rho = ext[0] / ((c->anorm + cabs (lambda) * c->bnorm) * (ext[1] > 0.0 ? ext[1] : 1.0));
  return 0;
}

/* Collective. One Ritz value's candidate (columns re, im of this rank's rows, im NULL for
   a real one) into c's own columns (from store: 2 ld doubles):
   u scaled back by w, the multipliers by s; then the eigenvalue refined by the quadratic
   Rayleigh quotient (see above GYRO_ACCEPT) and kept, with the velocity part v = lambda u, when
   that lowers the true residual. With x = [u; v; xi] split into X1 = [u; 0; 0],
   X3 = [0; 0; xi], Xv = [0; v; 0] and X2 = S X1 = [0; u; 0] (complex: re and im columns):
       u^T M u, u^T R u, u^T K u = the velocity rows of X2 . B X2, -X2 . A X2, -X2 . A X1
   (unconjugated; conjugated, u^H, with c->conj_u), and, as B X1 = X1 and B X3 = 0, the residuals of (lambda, x) and of
   (lr, [u; lr u; xi]) are those of
       A x = A X1 + A Xv + A X3,  B x = X1 + B Xv;  A X1 + lr A X2 + A X3,  X1 + lr B X2.
   Three halo exchanges (S; A on 8 columns; B on 4) and two reductions. */
static int drows_candidate (drows_ctx *c, const double *re, const double *im,
                            double complex lambda, double w, double s, double *store, dcand *out)
{
  int nl = c->d->nloc, row0 = c->d->row0, n = c->n;
  size_t ld = c->ld;
  out->re = store;
  out->im = store + ld;
  for (int k = 0; k < nl; k++) {  /* as modes_candidates: u / w, xi s */
    int g = row0 + k;
    double x = re[k], y = im ? im[k] : 0.0;
    out->re[k] = g < n ? x / w : g >= 2 * n ? x * s : x;
    out->im[k] = g < n ? y / w : g >= 2 * n ? y * s : y;
  }
  out->lambda = lambda;
  /* W: X1, X3, X2, Xv (A's 8 columns; B's are X2, Xv), then A of them, then B of X2, Xv */
  double *X1 = c->W, *X3 = X1 + 2 * ld, *X2 = X1 + 4 * ld, *Xv = X1 + 6 * ld;
  double *A1 = X1 + 8 * ld, *A3 = A1 + 2 * ld, *A2 = A1 + 4 * ld, *Av = A1 + 6 * ld;
  double *B2 = X1 + 16 * ld, *Bv = B2 + 2 * ld;
  for (int k = 0; k < nl; k++) {
    int g = row0 + k, pos = g < n, vel = g >= n && g < 2 * n, mul = g >= 2 * n;
    for (int t = 0; t < 2; t++) {
      double x = (t ? out->im : out->re)[k];
      X1[t * ld + k] = pos ? x : 0.0;
      X3[t * ld + k] = mul ? x : 0.0;
      Xv[t * ld + k] = vel ? x : 0.0;
    }
  }
  int rc = spm_rows_matmat (c->S, 2, X1, (int) ld, X2, (int) ld, c->err);
  if (rc == 0) rc = spm_rows_matmat (c->A, 8, X1, (int) ld, A1, (int) ld, c->err);
  if (rc == 0) rc = spm_rows_matmat (c->B, 4, X2, (int) ld, B2, (int) ld, c->err);
  if (rc < 0) return rc;
  double complex qa = 0.0, qb = 0.0, qc = 0.0;
  for (int k = 0; k < nl; k++)
    if (row0 + k >= n && row0 + k < 2 * n) {
      double complex u = CMPLX (X2[k], X2[ld + k]);
      if (c->conj_u) u = conj (u);
      qa += u * CMPLX (B2[k], B2[ld + k]);
      qb -= u * CMPLX (A2[k], A2[ld + k]);
      qc -= u * CMPLX (A1[k], A1[ld + k]);
    }
  double sums[6] = { creal (qa), cimag (qa), creal (qb), cimag (qb), creal (qc), cimag (qc) };
  sum_everywhere (c->d->comm, sums, 6);
  double complex lr = quadratic_root_near (CMPLX (sums[0], sums[1]), CMPLX (sums[2], sums[3]),
                                           CMPLX (sums[4], sums[5]), lambda);
  if (lr == lambda) return 0;
  double ext[4] = { 0.0, 0.0, 0.0, 0.0 };  /* ||r||, ||[u; v]|| at lambda, then at lr */
  for (int k = 0; k < nl; k++) {
    double complex a1 = CMPLX (A1[k], A1[ld + k]), a3 = CMPLX (A3[k], A3[ld + k]);
    double complex x1 = CMPLX (X1[k], X1[ld + k]), x = CMPLX (out->re[k], out->im[k]);
    double complex r = a1 + CMPLX (Av[k], Av[ld + k]) + a3
                     - lambda * (x1 + CMPLX (Bv[k], Bv[ld + k]));
    double complex r2 = a1 + lr * CMPLX (A2[k], A2[ld + k]) + a3
                      - lr * (x1 + lr * CMPLX (B2[k], B2[ld + k]));
    ext[0] = fmax (ext[0], cabs (r));
    ext[2] = fmax (ext[2], cabs (r2));
    if (row0 + k < 2 * n) {
      ext[1] = fmax (ext[1], cabs (x));
      ext[3] = fmax (ext[3], row0 + k < n ? cabs (x) : cabs (lr * CMPLX (X2[k], X2[ld + k])));
    }
  }
  MPI_Allreduce (MPI_IN_PLACE, ext, 4, MPI_DOUBLE, MPI_MAX, c->d->comm);
  double rho = ext[0] / ((c->anorm + cabs (lambda) * c->bnorm) * (ext[1] > 0.0 ? ext[1] : 1.0));
  double rho_r = ext[2] / ((c->anorm + cabs (lr) * c->bnorm) * (ext[3] > 0.0 ? ext[3] : 1.0));
  if (!(rho_r <= rho || !isfinite (rho) || (c->conj_u && rho_r <= GYRO_ACCEPT * c->tol)))
    return 0;
  out->lambda = lr;
  for (int k = 0; k < nl; k++)
    if (row0 + k >= n && row0 + k < 2 * n) {
      double complex v = lr * CMPLX (X2[k], X2[ld + k]);
      out->re[k] = creal (v);
      out->im[k] = cimag (v);
    }
  return 0;
}

/* Collective, once on a freshly opened b. For each of the nsel candidates (complex, this
   rank's rows re + i im), its largest entry among the first b->n rows (positions or DOFs)
   of the whole vector: the first within 1e-8 of the largest modulus over all ranks (one
   MAX and one MINLOC reduction for all: the same entry on every rank, which rounding
   between runs does not flip), its value from the rank that holds it by a sum, into
   b->big[2 i] (real part) and b->big[2 i + 1] (imaginary part) on every rank. */
static void largest_entries (finish_buf *b, const dcand *cand, int nsel)
{
  int nl = b->nl, row0 = b->row0, n = b->n, N = b->N;
  double *big = b->big;
  int *first = b->first;
  for (int i = 0; i < nsel; i++)
    for (int k = 0; k < nl && row0 + k < n; k++)
      big[i] = fmax (big[i], cabs (CMPLX (cand[i].re[k], cand[i].im[k])));
  MPI_Allreduce (MPI_IN_PLACE, big, nsel, MPI_DOUBLE, MPI_MAX, b->comm);
  for (int i = 0; i < nsel; i++) {  /* (global row, rank), MPI_2INT */
    first[2 * i] = N;
    first[2 * i + 1] = b->rank;
    for (int k = 0; k < nl && row0 + k < n; k++)
      if (cabs (CMPLX (cand[i].re[k], cand[i].im[k])) >= big[i] * (1.0 - 1e-8)) {
        first[2 * i] = row0 + k;
        break;
      }
  }
  MPI_Allreduce (MPI_IN_PLACE, first, nsel, MPI_2INT, MPI_MINLOC, b->comm);
  for (int i = 0; i < nsel; i++) {  /* the entry's value, from the rank that holds it */
    int g = first[2 * i], k = g - row0;
    big[2 * i] = big[2 * i + 1] = 0.0;
    if (g < N && k >= 0 && k < nl) big[2 * i] = cand[i].re[k], big[2 * i + 1] = cand[i].im[k];
  }
  MPI_Allreduce (MPI_IN_PLACE, big, 2 * nsel, MPI_DOUBLE, MPI_SUM, b->comm);
}

/* Collective. The selected candidates as modes: the largest position entry over all ranks
   (largest_entries) made 1, the residual of the scaled vector, the fields and kind; with
   keep_vectors each mode's u and xi gathered on rank 0. Every rank fills out->modes the
   same way. */
static int drows_finish (drows_ctx *c, dcand *cand, int nsel, int keep_vectors,
                         eigen_result *out)
{
  int nl = c->d->nloc, n = c->n, m = c->m, N = 2 * n + m;
  finish_buf b;
  int rc = finish_open (&b, c->d, n, m, N, c->ld, 1, nsel, keep_vectors, c->err);
  double *big = b.big;
  if (rc < 0) goto done;
  largest_entries (&b, cand, nsel);
  for (int i = 0; i < nsel && rc == 0; i++) {
    double complex scale = CMPLX (big[2 * i], big[2 * i + 1]);
    if (scale == 0.0) scale = 1.0;
    for (int k = 0; k < nl; k++) {
      double complex x = CMPLX (cand[i].re[k], cand[i].im[k]) / scale;
      cand[i].re[k] = creal (x);
      cand[i].im[k] = cimag (x);
    }
    mode *md = &out->modes[out->nmodes];
    double complex l = cand[i].lambda;
    double rho;
    rc = drows_residual (c, l, cand[i].re, cand[i].im, &rho);
    if (rc < 0) break;
    md->lambda = l;
    md->multiplicity = cand[i].mult > 1 ? cand[i].mult : 0;
    md->freq_hz = cabs (l) / TWO_PI;
    md->damped_freq_hz = fabs (cimag (l)) / TWO_PI;
    md->zeta = cabs (l) > 0.0 ? -creal (l) / cabs (l) : 0.0;
    md->residual = isfinite (rho) ? rho : INFINITY;
    md->kind = damped_is_rigid (l, md->residual, c->floor_round, c->anorm, c->bnorm) ? MODE_RIGID
             : creal (l) > 1e-10 * cabs (l) ? MODE_UNSTABLE
             : cimag (l) == 0.0 ? MODE_OVERDAMPED : MODE_OSCILLATORY;
    if (md->kind == MODE_RIGID) md->zeta = 0.0;  /* no direction to decay along */
    out->max_residual = fmax (out->max_residual, md->residual);
    if (!(md->residual <= EIGEN_RESIDUAL_SAFETY * out->tolerance)) out->n_above_tol++;
    out->nmodes++;
    rc = finish_keep (&b, md, cand[i].re, cand[i].im);
  }
done:
  finish_close (&b);
  return rc;
}

/* Every rank (the same candidates on every rank). The candidates of complex arithmetic
   (each Ritz vector its own, no conjugate partner implied) folded onto Im lambda >= 0, in
   their order: one with Im lambda below -tol whose conjugate (within 1e-6
   relative) is among the others still kept is dropped, that one standing for the pair
   (mult 2); without its partner it is reported as the partner (conj lambda, conj x); one
   real to tol is made real. Returns the candidates left, in order. */
static int fold_pairs_rows (const drows_ctx *c, dcand *cand, int nc)
{
  int nl = c->d->nloc, kept = 0;
  for (int i = 0; i < nc; i++) cand[i].mult = 0, cand[i].dist = 0.0;  /* dist: 1 = dropped */
  for (int i = 0; i < nc; i++) {
    dcand *x = &cand[i];
    double tol = 1e-8 * fmax (cabs (x->lambda), c->floor_round);
    if (cimag (x->lambda) < -tol) {
      int found = 0;
      for (int j = 0; j < nc && !found; j++)
        if (j != i && cand[j].dist == 0.0
            && cabs (cand[j].lambda - conj (x->lambda)) <= 1e-6 * cabs (x->lambda)) {
          x->dist = 1.0;
          cand[j].mult = 2;
          found = 1;
        }
      if (!found) {
        x->lambda = conj (x->lambda);
        for (int k = 0; k < nl; k++) x->im[k] = 0.0 - x->im[k];
      }
    } else if (fabs (cimag (x->lambda)) <= tol) {
      x->lambda = creal (x->lambda);
    }
  }
  for (int i = 0; i < nc; i++)
    if (cand[i].dist == 0.0) cand[kept++] = cand[i];
  return kept;
}

/* Collective. u = candidate x's position rows made unit (this rank's np rows), then
   [0; u; 0] through S (the scaling to the unscaled pencil), A and B by rows: u^H M u from
   B's velocity rows, u^H R u from -A's. Returns 1 when R leaves u undamped
   (|u^H R u| <= 0.1 |lambda| |u^H M u|), 0 when not (or u is zero), or an error of the
   products; the same on every rank. */
static int unit_undamped_rows (drows_ctx *c, const dcand *x, double complex *u)
{
  const ks_dist *d = c->d;
  int nl = d->nloc, n = c->n, np = d->row0 >= n ? 0 : n - d->row0 < nl ? n - d->row0 : nl;
  size_t ld = c->ld;
  double *X1 = c->W, *X2 = c->W + 2 * ld, *AX = c->W + 4 * ld, *BX = c->W + 6 * ld;
  double l = cabs (x->lambda), sq[1] = { 0.0 };
  for (int k = 0; k < np; k++) sq[0] += x->re[k] * x->re[k] + x->im[k] * x->im[k];
  sum_everywhere (d->comm, sq, 1);
  double unrm = sqrt (sq[0]);
  if (!(unrm > 0.0)) return 0;
  memset (X1, 0, 2 * ld * sizeof *X1);
  for (int k = 0; k < np; k++) {
    u[k] = CMPLX (x->re[k], x->im[k]) / unrm;
    X1[k] = creal (u[k]);
    X1[ld + k] = cimag (u[k]);
  }
  int rc = spm_rows_matmat (c->S, 2, X1, (int) ld, X2, (int) ld, c->err);
  if (rc == 0) rc = spm_rows_matmat (c->A, 2, X2, (int) ld, AX, (int) ld, c->err);
  if (rc == 0) rc = spm_rows_matmat (c->B, 2, X2, (int) ld, BX, (int) ld, c->err);
  if (rc < 0) return rc;
  double q[4] = { 0.0, 0.0, 0.0, 0.0 };  /* u^H M u, u^H R u (R u = -A's velocity rows) */
  for (int k = 0; k < nl; k++)
    if (d->row0 + k >= n && d->row0 + k < 2 * n) {
      double complex v = conj (CMPLX (X2[k], X2[ld + k]));
      double complex qm = v * CMPLX (BX[k], BX[ld + k]), qr = -v * CMPLX (AX[k], AX[ld + k]);
      q[0] += creal (qm), q[1] += cimag (qm), q[2] += creal (qr), q[3] += cimag (qr);
    }
  sum_everywhere (d->comm, q, 4);
  return cabs (CMPLX (q[2], q[3])) <= 0.1 * l * cabs (CMPLX (q[0], q[1]));
}

/* Collective. Two classical Gram-Schmidt passes of u (this rank's np rows) against the nk
   kept motions (columns ld apart in basis), one reduction per coefficient: coef[b] the
   coefficients; returns ||u|| after them, the same on every rank. */
static double fold_project (MPI_Comm comm, size_t ld, int np, const double complex *basis,
                            int nk, double complex *u, double complex *coef)
{
  for (int g = 0; g < 2; g++)
    for (int b = 0; b < nk; b++) {
      const double complex *e = basis + (size_t) b * ld;
      double complex t = 0.0;
      for (int k = 0; k < np; k++) t += conj (e[k]) * u[k];
      double ts[2] = { creal (t), cimag (t) };
      sum_everywhere (comm, ts, 2);
      t = CMPLX (ts[0], ts[1]);
      for (int k = 0; k < np; k++) u[k] -= t * e[k];
      coef[b] += t;
    }
  double left[1] = { 0.0 };
  for (int k = 0; k < np; k++) left[0] += creal (u[k] * conj (u[k]));
  sum_everywhere (comm, left, 1);
  return sqrt (left[0]);
}

/* Collective. Damped stage, on the ranks' rows. A rigid-body motion u (K u = 0 and Cq u = 0) that R does not damp
   (R u = 0) is a 2 x 2 Jordan block at lambda = 0 of GEP (31): rounding of size eps splits
   it into two eigenvalues +-delta, |delta| ~ sqrt(eps) times the pencil's omega scale
   (within floor_round, modes_rigid_threshold), whose position parts are both u; listed
   apart they are one motion twice, and they take two of the `modes` asked. Candidates
   0..nc-1 with |lambda| <= floor_round and |u^H R u| <= 0.1 |lambda| |u^H M u| (no damping
   that could separate two zeros: a damped motion's zero is simple, its other eigenvalue
   -u^H R u / u^H M u stays apart) are taken nearest zero first; each position part, made
   unit, is orthogonalized against those kept (two classical Gram-Schmidt passes); one with
   less than 1e-3 of its norm left is the other half of a kept motion: dropped, and counted
   in the mult of the kept one it lies along most (largest |coefficient|). A candidate into
   which fold_pairs_rows folded a conjugate partner (mult 2 on entry; 0 otherwise) counts 2. When the
   eigenvalues counted are twice the motions kept, every kept one stands for 2 (each Jordan
   block has two; which half lies along which motion is up to rounding); a kept one standing
   for 2 or more is made real (the pair is in mult, not in Im lambda). At most FOLD_MAX motions
   are kept as a basis (beyond that nothing more is folded); without memory for the work
   nothing is folded. Returns the candidates left (in order), their mult set (0: one), or a
   negative error of the products, the same on every rank. */
#define FOLD_MAX 64
static int fold_rigid_rows (drows_ctx *c, dcand *cand, int nc)
{
  const ks_dist *d = c->d;
  int n = c->n, nl = d->nloc, nk = 0, total = 0, kept_at[FOLD_MAX], count[FOLD_MAX], rc = 0;
  int np = d->row0 >= n ? 0 : n - d->row0 < nl ? n - d->row0 : nl;
  double complex *basis = mb_calloc (c->ld * FOLD_MAX, sizeof *basis);
  double complex *u = mb_calloc (c->ld, sizeof *u);
  char *state = mb_calloc ((size_t) nc + 1, 1);  /* 1 visited, 2 dropped */
  int ok = basis && u && state, all;
  MPI_Allreduce (&ok, &all, 1, MPI_INT, MPI_MIN, d->comm);
  for (;;) {
    if (!all) break;
    int i = -1;  /* the next candidate within the floor, nearest zero */
    for (int j = 0; j < nc; j++)
      if (!state[j] && cabs (cand[j].lambda) <= c->floor_round
          && (i < 0 || cabs (cand[j].lambda) < cabs (cand[i].lambda)))
        i = j;
    if (i < 0) break;
    state[i] = 1;
    if ((rc = unit_undamped_rows (c, &cand[i], u)) < 0) break;
    if (rc == 0) continue;  /* damped: a simple zero */
    rc = 0;
    int here = cand[i].mult == 2 ? 2 : 1;  /* a conjugate pair folded into i: 2 */
    double complex coef[FOLD_MAX] = { 0 };
    double left = fold_project (d->comm, c->ld, np, basis, nk, u, coef);
    if (left <= 1e-3 && nk > 0) {  /* the other half of a kept motion */
      int best = 0;
      for (int b = 1; b < nk; b++) if (cabs (coef[b]) > cabs (coef[best])) best = b;
      state[i] = 2;
      count[best] += here;
      total += here;
    } else if (nk < FOLD_MAX) {
      for (int k = 0; k < np; k++) basis[(size_t) nk * c->ld + k] = u[k] / left;
      count[nk] = here;
      kept_at[nk++] = i;
      total += here;
    }
  }
  for (int b = 0; b < nk && rc == 0; b++) {  /* every Jordan block has two: rounding pairs them */
    dcand *x = &cand[kept_at[b]];
    int k = total == 2 * nk ? 2 : count[b];
    x->mult = k > 1 ? k : 0;
    if (k > 1) x->lambda = creal (x->lambda);  /* the pair is in mult, not Im lambda */
  }
  int kept = 0;
  for (int i = 0; i < nc && rc == 0; i++) {
    if (state && state[i] == 2) continue;
    if (cand[i].mult == 2 && cabs (cand[i].lambda) > c->floor_round) cand[i].mult = 0;  /* a pair */
    cand[kept++] = cand[i];
  }
  free (basis); free (u); free (state);
  return rc < 0 ? rc : kept;
}

/* Collective. The rows of the unscaled A, B and S for c (drows_build), the pencil's
   measures, and with a non-symmetric R the conjugated quotient (c->conj_u, c->tol: the
   stage's tolerance for GYRO_ACCEPT). Returns 0 or an error, the same on every rank. */
static int drows_open (drows_ctx *c, const gep_parts *parts, double tol)
{
  int rc = drows_build (c, parts);
  if (rc == 0) drows_measures (c, parts);
  if (rc == 0 && parts->R.L.rowptr) {   /* a non-symmetric R: conjugated quotient */
    int rsym = 1;
    rc = spm_part_is_symmetric (c->d->comm, &parts->R, parts->n, 1e-12, &rsym, c->err);
    c->conj_u = !rsym;
    c->tol = tol;
  }
  return rc;
}

/* Every rank. Real arithmetic: candidate x of a conjugate pair (j, j+1) folded onto
   Im lambda >= 0: below -tol it is reported as its partner (conj lambda, conj x); real to
   tol (1e-8 max (|lambda|, the rigid floor)), both members are kept as on one rank (the
   second into cand[*nc], its columns from store). */
static void fold_real_pair (const drows_ctx *c, dcand *cand, dcand *x, int *nc, double *store)
{
  int nl = c->d->nloc;
  double tol = 1e-8 * fmax (cabs (x->lambda), c->floor_round);
  if (cimag (x->lambda) < -tol) {       /* report the partner: conj (x) */
    x->lambda = conj (x->lambda);
    for (int k = 0; k < nl; k++) x->im[k] = 0.0 - x->im[k];
  } else if (fabs (cimag (x->lambda)) <= tol) {  /* real: both members, as on one rank */
    x->lambda = creal (x->lambda);
    dcand *y = &cand[*nc];
    y->re = store + (size_t) 2 * c->ld * *nc;
    y->im = y->re + c->ld;
    memcpy (y->re, x->re, (size_t) nl * sizeof *y->re);
    for (int k = 0; k < nl; k++) y->im[k] = 0.0 - x->im[k];
    y->lambda = x->lambda;
    (*nc)++;
  }
}

/* Collective. Every finite Ritz pair of ks as candidates cand[0..*nc-1] (drows_candidate,
   columns in store; split: the Ritz vector's re and im, ritz_vector_parts), infinite ones
   (|mu| below INFINITE_MU_RTOL of the largest) counted in out->n_infinite; real
   arithmetic folds each conjugate pair here (fold_real_pair), complex arithmetic after
   (fold_pairs_rows, fold_rigid_rows). Returns 0 or an error, the same on every rank. */
static int drows_all_candidates (drows_ctx *c, ks_result *ks, double complex sigma,
                                 double w, double s, dcand *cand, double *store,
                                 double *split, int *nc, eigen_result *out)
{
  int nconv = ks->nconv, zvec = ks->x != NULL, rc = 0;
  MPI_Bcast (ks->mu, 2 * nconv, MPI_DOUBLE, 0, c->d->comm);  /* rank 0's, everywhere */
  double mu_max = ritz_mu_max (ks);
  *nc = 0;
  for (int j = 0; rc == 0 && j < nconv; j++) {
    int pair = ritz_part (ks, j, 0) == 1;  /* real arithmetic: (j, j+1), one candidate */
    if (cabs (ks->mu[j]) <= INFINITE_MU_RTOL * mu_max) {
      out->n_infinite += 1 + pair;
      j += pair;
      continue;
    }
    ritz_vector_parts (ks, j, pair, c->d->nloc, c->ld, split, split + c->ld);
    dcand *x = &cand[*nc];
    rc = drows_candidate (c, split, split + c->ld, sigma + 1.0 / ks->mu[j], w, s,
                          store + (size_t) 2 * c->ld * *nc, x);
    if (rc < 0) break;
    (*nc)++;
    if (zvec) continue;  /* folded by the caller (fold_pairs_rows) */
    if (pair) {
      fold_real_pair (c, cand, x, nc, store);
      j++;
    } else if (fabs (cimag (x->lambda)) <= 1e-8 * fmax (cabs (x->lambda), c->floor_round)) {
      x->lambda = creal (x->lambda);
    }
  }
  return rc;
}

int modes_damped_rows (const ks_dist *d, const gep_parts *parts, ks_result *ks,
                       double complex sigma, double w, double s, int want, int keep_vectors,
                       eigen_result *out, mb_err *err)
{
  drows_ctx c = { .d = d, .n = parts->n, .m = parts->m, .err = err };
  c.ld = d->nloc > 0 ? (size_t) d->nloc : 1;
  int nconv = ks->nconv, nc = 0;
  dcand *cand = NULL;
  double *store = NULL, *split = NULL;
  int rc = mb_fault ("modes") ? mb_fail (err, MB_ENOMEM, "out of memory for modes") : 0;
  if (rc == 0) {
    c.W = mb_calloc (20 * c.ld, sizeof *c.W);
    /* a pair whose eigenvalue is real to rounding gives two candidates */
    cand = mb_calloc ((size_t) nconv + 1, sizeof *cand);
    store = mb_calloc ((size_t) 2 * c.ld * (nconv + 1), sizeof *store);
    split = mb_calloc ((size_t) 2 * c.ld, sizeof *split);  /* a Ritz vector's re, im */
    if (!c.W || !cand || !store || !split)
      rc = mb_fail (err, MB_ENOMEM, "out of memory for modes");
  }
  rc = mb_agree (d->comm, rc, err);
  if (rc == 0) rc = drows_open (&c, parts, out->tolerance);
  if (rc == 0) rc = drows_all_candidates (&c, ks, sigma, w, s, cand, store, split, &nc, out);
  if (rc == 0 && ks->x) {  /* complex arithmetic: pairs, then a double zero once */
    nc = fold_pairs_rows (&c, cand, nc);
    int kept = fold_rigid_rows (&c, cand, nc);
    if (kept < 0) rc = kept;
    else nc = kept;
  }
  for (int i = 0; i < nc; i++) cand[i].dist = cabs (cand[i].lambda - sigma);
  int nsel = nc < want ? nc : want;
  if (rc == 0) {
    qsort (cand, (size_t) nc, sizeof *cand, by_dcand_dist);
    out->modes = mb_calloc ((size_t) nsel + 1, sizeof *out->modes);
    rc = mb_agree (d->comm, out->modes ? 0 : mb_fail (err, MB_ENOMEM, "out of memory for "
                   "modes"), err);
  }
  if (rc == 0) rc = drows_finish (&c, cand, nsel, keep_vectors, out);
  if (rc == 0) qsort (out->modes, (size_t) out->nmodes, sizeof *out->modes, by_freq);
  spm_rows_free (c.A); spm_rows_free (c.B); spm_rows_free (c.S);
  spm_part_clear (&c.Ap); spm_part_clear (&c.Bp); spm_part_clear (&c.Sp);
  free (c.W); free (cand); free (store); free (split);
  return rc;
}

/* ---- the undamped stage by rows: an unsymmetric pencil, any number of ranks ----------- */

/* Collective. Every finite Ritz pair of ks (rank 0's mu, broadcast: |mu| above
   INFINITE_MU_RTOL of the largest; the others are infinite eigenvalues, counted in
   out->n_infinite) as a candidate cand[0..] in ks's order: lambda = sigma + 1/mu (complex:
   a conjugate pair is flutter, or a split repeated eigenvalue), dist = |lambda - sigma|,
   and its own copy of the vector's rows (2 ld doubles of store each, re then im): from
   real columns (ks->xr by rows, a conjugate pair (j, j+1) as x_j = xr_j + i xr_{j+1},
   x_{j+1} its conjugate) or complex ones (ks->x by rows, each its own). Returns how many. */
static int unsym_candidates (const ks_dist *d, ks_result *ks, double sigma, size_t ld,
                             dcand *cand, double *store, eigen_result *out)
{
  int nconv = ks->nconv, nc = 0;
  MPI_Bcast (ks->mu, 2 * nconv, MPI_DOUBLE, 0, d->comm);  /* rank 0's, everywhere */
  double mu_max = ritz_mu_max (ks);
  for (int i = 0, part = 0; i < nconv; i++) {
    part = ritz_part (ks, i, part);
    if (cabs (ks->mu[i]) <= INFINITE_MU_RTOL * mu_max) { out->n_infinite++; continue; }
    dcand *c = &cand[nc];
    c->re = store + 2 * ld * (size_t) nc++;
    c->im = c->re + ld;
    c->mult = 0;
    c->lambda = sigma + 1.0 / ks->mu[i];
    c->dist = cabs (c->lambda - sigma);
    ritz_vector_parts (ks, i, part, d->nloc, ld, c->re, c->im);
  }
  return nc;
}

/* Collective. The selected candidates cand[0..nsel-1] as modes, on this rank's rows (r:
   M's rows and the unscaled A0 = [K, Cq^T; Cq, 0]'s, X, MX, AX of 2 columns each), with
   modes_undamped_rows' conventions for an unsymmetric pencil: x = [phi; xi] scaled to
   q = (Re phi)^T M (Re phi) = 1 (the real part only: a real mode's is its mass norm), or to
   a largest entry of modulus 1 when q <= 0; the phase that makes the largest phi entry real
   positive (largest_entries: the same entry on every rank); the multipliers scaled back
   by s; the residual on the unscaled pencil,
       ||[K phi + Cq^T xi - lambda M phi; Cq phi]|| / ((||A|| + |lambda| ||B||) ||phi||)
   (infinity norms: pencil_residual_undamped's); the kind (unstable for Re lambda < 0 or
   Im lambda above 1e-8 |lambda|); with keep_vectors the vector gathered on rank 0
   (finish_keep). One halo exchange and one or two reductions a mode for the scale, two
   exchanges and one reduction for the residual. Every rank fills out->modes alike. */
static int unsym_finish (rows_ctx *r, dcand *cand, int nsel, double rigid_tol,
                         int keep_vectors, eigen_result *out)
{
  const ks_dist *d = r->d;
  int nl = d->nloc, row0 = d->row0, n = r->n, N = d->n, ld = (int) r->ld;
  finish_buf b;
  int rc = finish_open (&b, d, n, N - n, N, r->ld, 1, nsel, keep_vectors, r->err);
  for (int i = 0; i < nsel && rc == 0; i++) {  /* unit mass norm, else unit inf-norm */
    dcand *c = &cand[i];
    rc = spm_rows_matmat (r->mrows, 1, c->re, ld, r->MX, ld, r->err);
    if (rc < 0) break;
    double q[1] = { 0.0 }, inf = 0.0;
    for (int k = 0; k < nl && row0 + k < n; k++) {
      q[0] += r->MX[k] * c->re[k];
      inf = fmax (inf, cabs (CMPLX (c->re[k], c->im[k])));
    }
    sum_everywhere (d->comm, q, 1);
    if (!(q[0] > 0.0)) MPI_Allreduce (MPI_IN_PLACE, &inf, 1, MPI_DOUBLE, MPI_MAX, d->comm);
    double scale = q[0] > 0.0 ? sqrt (q[0]) : inf;
    if (scale > 0.0)
      for (int k = 0; k < nl; k++) c->re[k] /= scale, c->im[k] /= scale;
  }
  if (rc < 0) goto done;
  largest_entries (&b, cand, nsel);
  for (int i = 0; i < nsel && rc == 0; i++) {
    dcand *c = &cand[i];
    double complex big = CMPLX (b.big[2 * i], b.big[2 * i + 1]);
    double complex ph = cabs (big) > 0.0 ? conj (big) / cabs (big) : 1.0;
    for (int k = 0; k < nl; k++) {  /* largest entry real positive, multipliers back */
      double complex x = CMPLX (c->re[k], c->im[k]) * ph;
      if (row0 + k >= n) x *= r->s;
      c->re[k] = creal (x);
      c->im[k] = cimag (x);
    }
    memcpy (r->X, c->re, (size_t) nl * sizeof *r->X);
    memcpy (r->X + ld, c->im, (size_t) nl * sizeof *r->X);
    rc = spm_rows_matmat (r->arows, 2, r->X, ld, r->AX, ld, r->err);
    if (rc == 0) rc = spm_rows_matmat (r->mrows, 2, r->X, ld, r->MX, ld, r->err);
    if (rc < 0) break;
    double complex l = c->lambda;
    double ext[2] = { 0.0, 0.0 };  /* ||r||, ||phi|| */
    for (int k = 0; k < nl; k++) {
      double complex res = CMPLX (r->AX[k], r->AX[ld + k]);
      if (row0 + k < n) {
        res -= l * CMPLX (r->MX[k], r->MX[ld + k]);
        ext[1] = fmax (ext[1], cabs (CMPLX (c->re[k], c->im[k])));
      }
      ext[0] = fmax (ext[0], cabs (res));
    }
    MPI_Allreduce (MPI_IN_PLACE, ext, 2, MPI_DOUBLE, MPI_MAX, d->comm);
    double rho = ext[0] / ((r->anorm + cabs (l) * r->bnorm) * (ext[1] > 0.0 ? ext[1] : 1.0));
    mode *md = &out->modes[out->nmodes];
    md->lambda = l;
    md->freq_hz = sqrt (cabs (l)) / TWO_PI;
    md->damped_freq_hz = md->freq_hz;
    md->zeta = 0.0;
    md->residual = isfinite (rho) ? rho : INFINITY;
    md->kind = modes_is_rigid (l, md->residual, rigid_tol, r->anorm, r->bnorm) ? MODE_RIGID
             : (creal (l) < 0.0 || fabs (cimag (l)) > 1e-8 * cabs (l)) ? MODE_UNSTABLE
             : MODE_OSCILLATORY;
    out->max_residual = fmax (out->max_residual, md->residual);
    if (!(md->residual <= EIGEN_RESIDUAL_SAFETY * out->tolerance)) out->n_above_tol++;
    out->nmodes++;
    rc = finish_keep (&b, md, c->re, c->im);
  }
done:
  finish_close (&b);
  return rc;
}

int modes_unsymmetric_rows (const ks_dist *d, const gep_system *sys, const gep_parts *parts,
                            ks_result *ks, double sigma, double s, int want, int keep_vectors,
                            eigen_result *out, mb_err *err)
{
  rows_ctx r = { .d = d, .n = sys->n, .err = err };
  r.ld = d->nloc > 0 ? (size_t) d->nloc : 1;
  spm_part A0p = { 0 };  /* this rank's rows of the unscaled A0 */
  double rigid_tol;
  int rc = rows_open (&r, sys, parts, s, 1, &rigid_tol, &A0p);
  int nconv = ks->nconv, nsel = 0;
  dcand *cand = NULL;
  double *store = NULL;
  if (rc == 0) {
    r.X = mb_calloc (6 * r.ld, sizeof *r.X);  /* X, MX, AX: 2 columns each */
    cand = mb_calloc ((size_t) nconv + 1, sizeof *cand);
    store = mb_calloc (2 * r.ld * ((size_t) nconv + 1), sizeof *store);
    int fail = !r.X || !cand || !store;
    rc = mb_agree (d->comm, fail ? mb_fail (err, MB_ENOMEM, "out of memory for modes") : 0,
                   err);
  }
  if (rc == 0) {
    r.MX = r.X + 2 * r.ld;
    r.AX = r.MX + 2 * r.ld;
    int nc = unsym_candidates (d, ks, sigma, r.ld, cand, store, out);
    qsort (cand, (size_t) nc, sizeof *cand, by_dcand_dist);  /* nearest sigma first */
    nsel = nc < want ? nc : want;
    out->modes = mb_calloc ((size_t) nsel + 1, sizeof *out->modes);
    rc = mb_agree (d->comm, out->modes ? 0 : mb_fail (err, MB_ENOMEM, "out of memory for "
                   "modes"), err);
  }
  if (rc == 0) rc = unsym_finish (&r, cand, nsel, rigid_tol, keep_vectors, out);
  if (rc == 0) qsort (out->modes, (size_t) out->nmodes, sizeof *out->modes, by_freq);
  spm_rows_free (r.mrows);
  spm_rows_free (r.arows);
  spm_part_clear (&A0p);
  free (r.X); free (cand); free (store);
  return rc;
}
