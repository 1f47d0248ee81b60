/* krylov_schur.c: Krylov-Schur eigensolver, real and complex, written for mbmodal.

   The algorithm (seed 001, Algorithm 1; Stewart 2002) keeps a Krylov-Schur decomposition
       OP V_k = V_k S_k + v_{k+1} b^T,
   expands it by Arnoldi steps with classical Gram-Schmidt done twice (Algorithm 2; the
   second pass lagged one step and fused with the first pass of the next vector, DCGS2) to
       OP V_m = V_m H_m + beta v_{m+1} e_m^T,
   brings the active part of H_m to Schur form T = Z^H H Z sorted by decreasing |mu|
   (LAPACK gees + trexc), tests the Ritz residuals |b^T y_i| against tol |mu_i|, locks the
   converged leading Ritz pairs (their b entries are set to zero: deflation), and truncates
   to the k leading Schur vectors. Real arithmetic keeps the 2x2 blocks of complex
   conjugate pairs whole when it truncates, locks or returns.

   The block path (ks_opts.block = p > 1; the default for large real operators, see block_size)
   keeps OP V_m = V_m H_m + V(:, m:m+p-1) E with H of p subdiagonals: band Arnoldi applies
   OP to p vectors at once (one multi-RHS solve), orthogonalizes the block by block
   classical Gram-Schmidt twice (BLAS-3 against the basis, one reduction per pass), the
   second pass lagged and fused with the next block's first pass (block DCGS2: the basis
   read twice per block; else BCGS2 with the first pass's update fused with the second
   pass's product, three reads), deflates a rank-deficient block by a random
   direction, and restarts with the p-row residual block E Z; Ritz residuals are |E Z y|.
   Between restarts it probes convergence at block boundaries (the decomposition is exact
   there with the columns so far) and ends as soon as the nev wanted pairs have converged.

   The algorithm body is written once in krylov_schur_impl.h and included twice, for
   double and for double complex; the few LAPACK calls that differ between the two are the
   small helpers below. */
#include "krylov_schur.h"
#include "bv.h"

#include <cblas.h>
#include <float.h>
#include <lapacke.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Status of the small dense helpers below when their own workspace could not be allocated:
   LAPACKE's code for the same event, so that one test tells out of memory from a LAPACK
   failure (LAPACK's own info is >= -20 or positive). */
#define KS_NOMEM LAPACK_WORK_MEMORY_ERROR

/* 1 when a LAPACKE status means out of memory (ours or LAPACKE's workspace). */
static int lapack_nomem (double info)
{
  return info == LAPACK_WORK_MEMORY_ERROR || info == LAPACK_TRANSPOSE_MEMORY_ERROR;
}

/* Collective outcome of a rank-0 LAPACK step `what` whose status (shared) is info:
   MB_ENOMEM for out of memory, MB_ESOLVE with the info for a LAPACK failure. */
static int lapack_fail (mb_err *err, double info, const char *what)
{
  if (lapack_nomem (info))
    return mb_fail (err, MB_ENOMEM, "Krylov-Schur: out of memory for the workspace of the %s",
                    what);
  return mb_fail (err, MB_ESOLVE, "Krylov-Schur: LAPACK %s failed (info %d)", what, (int) info);
}

/* Rank 0's count doubles to every rank. */
static void share (const ks_dist *d, void *buf, int count)
{
  int size;
  MPI_Comm_size (d->comm, &size);
  if (size > 1 && count > 0) MPI_Bcast (buf, count, MPI_DOUBLE, 0, d->comm);
}

static int is_root (const ks_dist *d)
{
  int rank;
  MPI_Comm_rank (d->comm, &rank);
  return rank == 0;
}

void ks_result_clear (ks_result *res)
{
  if (!res) return;
  free (res->mu);
  free (res->resid);
  free (res->x);
  free (res->xr);
  memset (res, 0, sizeof *res);
}

/* ---- real helpers ------------------------------------------------------------------ */

/* Size (1 or 2) of the diagonal block of the quasi-triangular T (ld) starting at i. */
static int block_r (int mm, const double *T, int ld, int i)
{
  return (i + 1 < mm && T[(i + 1) + (size_t) i * ld] != 0.0) ? 2 : 1;
}

static int block_c (int mm, const double complex *T, int ld, int i)
{
  (void) mm; (void) T; (void) ld; (void) i;
  return 1;
}

/* Eigenvalue at position i of the standardized quasi-triangular T: for a 2x2 block
   [a b; c a] (b c < 0) the one at i is a + i sqrt(-b c), at i+1 its conjugate. */
static double complex diag_mu_r (int mm, const double *T, int ld, int i)
{
  double a = T[i + (size_t) i * ld];
  if (block_r (mm, T, ld, i) == 2) {
    double b = T[i + (size_t) (i + 1) * ld], c = T[(i + 1) + (size_t) i * ld];
    return a + I * sqrt (fabs (b * c));
  }
  if (i > 0 && T[i + (size_t) (i - 1) * ld] != 0.0) {  /* second of a pair */
    double b = T[(i - 1) + (size_t) i * ld], c = T[i + (size_t) (i - 1) * ld];
    return a - I * sqrt (fabs (b * c));
  }
  return a;
}

static double complex diag_mu_c (int mm, const double complex *T, int ld, int i)
{
  (void) mm;
  return T[i + (size_t) i * ld];
}

/* T = Z^T S Z: real Schur form of S (mm x mm, ld), then blocks sorted by decreasing |mu|
   (ties: positive imaginary part first), Z accumulating every transformation.
   S is overwritten by T. Returns 0, the LAPACK info, or KS_NOMEM (workspace; also when
   mb_fault ("schur") asks for it). */
static int schur_sorted_r (int mm, double *S, int ld, double *Z)
{
  lapack_int sdim = 0;
  if (mb_fault ("schur")) return KS_NOMEM;
  double *wr = malloc ((size_t) mm * sizeof *wr), *wi = malloc ((size_t) mm * sizeof *wi);
  if (!wr || !wi) { free (wr); free (wi); return KS_NOMEM; }
  lapack_int info = LAPACKE_dgees (LAPACK_COL_MAJOR, 'V', 'N', NULL, mm, S, ld, &sdim,
                                   wr, wi, Z, ld);
  free (wr); free (wi);
  if (info != 0) return (int) info;
  for (int pos = 0; pos < mm; pos += block_r (mm, S, ld, pos)) {
    int best = pos;
    double best_abs = cabs (diag_mu_r (mm, S, ld, pos));
    for (int i = pos; i < mm; i += block_r (mm, S, ld, i)) {
      double a = cabs (diag_mu_r (mm, S, ld, i));
      if (a > best_abs * (1.0 + 1e-14)) { best = i; best_abs = a; }
    }
    if (best != pos) {
      lapack_int ifst = best + 1, ilst = pos + 1;
      LAPACKE_dtrexc (LAPACK_COL_MAJOR, 'V', mm, S, ld, Z, ld, &ifst, &ilst);
      /* a failed swap (info 1: too ill-conditioned) leaves the order a little off */
    }
  }
  return 0;
}

static int schur_sorted_c (int mm, double complex *S, int ld, double complex *Z)
{
  lapack_int sdim = 0;
  if (mb_fault ("schur")) return KS_NOMEM;
  double complex *w = malloc ((size_t) mm * sizeof *w);
  if (!w) return KS_NOMEM;
  lapack_int info = LAPACKE_zgees (LAPACK_COL_MAJOR, 'V', 'N', NULL, mm, S, ld, &sdim,
                                   w, Z, ld);
  free (w);
  if (info != 0) return (int) info;
  for (int pos = 0; pos < mm; pos++) {
    int best = pos;
    double complex mb = S[pos + (size_t) pos * ld];
    for (int i = pos + 1; i < mm; i++) {
      double complex mi = S[i + (size_t) i * ld];
      if (cabs (mi) > cabs (mb) * (1.0 + 1e-14)
          || (cabs (mi) >= cabs (mb) * (1.0 - 1e-14) && cimag (mi) > cimag (mb) + 1e-14 * cabs (mb))) {
        best = i;
        mb = mi;
      }
    }
    if (best != pos) LAPACKE_ztrexc (LAPACK_COL_MAJOR, 'V', mm, S, ld, Z, ld, best + 1, pos + 1);
  }
  return 0;
}

/* Y: eigenvectors of the quasi-triangular T (p x p, ld), as complex columns (p x p).
   Returns 0, the LAPACK info or KS_NOMEM. */
static int eigvecs_r (int p, const double *T, int ld, double complex *Y)
{
  double *Tc = mb_calloc ((size_t) p * p, sizeof *Tc), *VR = mb_calloc ((size_t) p * p, sizeof *VR);
  if (!Tc || !VR) { free (Tc); free (VR); return KS_NOMEM; }
  for (int j = 0; j < p; j++)
    for (int i = 0; i < p; i++) Tc[i + (size_t) j * p] = T[i + (size_t) j * ld];
  lapack_int mout = 0;
  lapack_int info = LAPACKE_dtrevc (LAPACK_COL_MAJOR, 'R', 'A', NULL, p, Tc, p, NULL, 1, VR, p,
                                    p, &mout);
  if (info == 0)
    for (int j = 0; j < p; j += block_r (p, Tc, p, j)) {
      if (block_r (p, Tc, p, j) == 1) {
        for (int i = 0; i < p; i++) Y[i + (size_t) j * p] = VR[i + (size_t) j * p];
      } else {  /* columns j, j+1 hold the real and imaginary parts for mu_j (Im > 0) */
        for (int i = 0; i < p; i++) {
          double complex y = VR[i + (size_t) j * p] + I * VR[i + (size_t) (j + 1) * p];
          Y[i + (size_t) j * p] = y;
          Y[i + (size_t) (j + 1) * p] = conj (y);
        }
      }
    }
  free (Tc); free (VR);
  return (int) info;
}

static int eigvecs_c (int p, const double complex *T, int ld, double complex *Y)
{
  double complex *Tc = mb_calloc ((size_t) p * p, sizeof *Tc);
  if (!Tc) return KS_NOMEM;
  for (int j = 0; j < p; j++)
    for (int i = 0; i < p; i++) Tc[i + (size_t) j * p] = T[i + (size_t) j * ld];
  lapack_int mout = 0;
  lapack_int info = LAPACKE_ztrevc (LAPACK_COL_MAJOR, 'R', 'A', NULL, p, Tc, p, NULL, 1, Y, p,
                                    p, &mout);
  free (Tc);
  return (int) info;
}

/* Complex conjugate in each arithmetic (the identity for real numbers). */
#define KS_CONJ_r(x) (x)
#define KS_CONJ_c(x) conj (x)

/* Scalars per entry of each arithmetic, for messages of doubles. */
#define KS_DOUBLES_r 1
#define KS_DOUBLES_c 2
/* Largest order of a dense matrix the solver holds and sends whole (the n x n operator
   of the dense path, the (ncv + 1)^2 projected matrices): KS_DOUBLES order^2 must fit
   the int count of an MPI message. Larger would also take more than 17 GB per copy. */
#define KS_MAX_ORDER_r 46340
#define KS_MAX_ORDER_c 32767
/* MPI type of one entry of each arithmetic. */
#define KS_MPI_TYPE_r MPI_DOUBLE
#define KS_MPI_TYPE_c MPI_C_DOUBLE_COMPLEX

/* ---- small problems: the whole space ------------------------------------------------- */

/* All eigenpairs of the real n x n matrix A (column-major, overwritten) with LAPACK dgeev:
   mu (n) and unit 2-norm eigenvectors X (n x n, complex: a conjugate pair's columns are
   conjugates). Returns LAPACK's info or KS_NOMEM. */
static int dense_eig_r (int n, double *A, double complex *mu, double complex *X)
{
  double *wr = mb_calloc ((size_t) n, sizeof *wr), *wi = mb_calloc ((size_t) n, sizeof *wi);
  double *vr = mb_calloc ((size_t) n * n, sizeof *vr);
  int info = KS_NOMEM;
  if (wr && wi && vr)
    info = LAPACKE_dgeev (LAPACK_COL_MAJOR, 'N', 'V', n, A, n, wr, wi, NULL, 1, vr, n);
  for (int j = 0; info == 0 && j < n; j++) {
    mu[j] = wr[j] + I * wi[j];
    if (wi[j] != 0.0 && j + 1 < n) {  /* columns j, j+1 hold Re and Im of the pair */
      mu[j + 1] = wr[j + 1] + I * wi[j + 1];
      for (int i = 0; i < n; i++) {
        double re = vr[i + (size_t) j * n], im = vr[i + (size_t) (j + 1) * n];
        X[i + (size_t) j * n] = re + I * im;
        X[i + (size_t) (j + 1) * n] = re - I * im;
      }
      j++;
    } else {
      for (int i = 0; i < n; i++) X[i + (size_t) j * n] = vr[i + (size_t) j * n];
    }
  }
  free (wr); free (wi); free (vr);
  return info;
}

/* The same for a complex matrix, with zgeev. */
static int dense_eig_c (int n, double complex *A, double complex *mu, double complex *X)
{
  return LAPACKE_zgeev (LAPACK_COL_MAJOR, 'N', 'V', n, A, n, mu, NULL, 1, X, n);
}

/* Rank 0, the dense path. r[k] = ||A0 x_k - mu_k x_k||_2 for the p unit columns of X
   (n x p, complex) by matrix products (BLAS-3) instead of a triple loop: real A0 times the
   real and the imaginary parts of X (two dgemm). work: 4 n p doubles. */
static void dense_resid_r (int n, int p, const double *A0, const double complex *X,
                           const double complex *mu, double *r, double *work)
{
  double *Xr = work, *Xi = work + (size_t) n * p, *Yr = Xi + (size_t) n * p;
  double *Yi = Yr + (size_t) n * p;
  for (size_t i = 0; i < (size_t) n * p; i++) Xr[i] = creal (X[i]), Xi[i] = cimag (X[i]);
  cblas_dgemm (CblasColMajor, CblasNoTrans, CblasNoTrans, n, p, n, 1.0, A0, n, Xr, n, 0.0,
               Yr, n);
  cblas_dgemm (CblasColMajor, CblasNoTrans, CblasNoTrans, n, p, n, 1.0, A0, n, Xi, n, 0.0,
               Yi, n);
  for (int k = 0; k < p; k++) {
    double r2 = 0.0;
    for (int i = 0; i < n; i++) {
      size_t e = i + (size_t) k * n;
      double complex s = (Yr[e] + I * Yi[e]) - mu[k] * X[e];
      r2 += creal (s * conj (s));
    }
    r[k] = sqrt (r2);
  }
}

/* The same for a complex A0 (one zgemm). work: 4 n p doubles. */
static void dense_resid_c (int n, int p, const double complex *A0, const double complex *X,
                           const double complex *mu, double *r, double *work)
{
  double complex *Y = (double complex *) work, one = 1.0, zero = 0.0;
  cblas_zgemm (CblasColMajor, CblasNoTrans, CblasNoTrans, n, p, n, &one, A0, n, X, n, &zero,
               Y, n);
  for (int k = 0; k < p; k++) {
    double r2 = 0.0;
    for (int i = 0; i < n; i++) {
      size_t e = i + (size_t) k * n;
      double complex s = Y[e] - mu[k] * X[e];
      r2 += creal (s * conj (s));
    }
    r[k] = sqrt (r2);
  }
}

/* The block size of a solve, the same on every rank: opts->block, or when 0 the
   default: KS_DEFAULT_BLOCK for real (real = 1)
   operators of order KS_BLOCK_MIN_ORDER or more (where a solve costs more than the
   Gram-Schmidt work it brings), at most (m - nev) / 4 so that a restart expands by 4
   blocks or more; 1 (single vector) below that order and in complex arithmetic (the extra
   Gram-Schmidt on the basis of order 2n + m outweighs the cheaper block solves; the
   counts and times: scripts/bench/README.md,
   "Behind the comments"). Clamped
   to 1..KS_MAX_BLOCK, to n - m (the m + p basis vectors must fit the space) and to
   m / 2. */
static int block_size (const ks_opts *opts, int n, int m, int nev, int real)
{
  double pd = opts->block;
  if (opts->block <= 0)
    pd = real && n >= KS_BLOCK_MIN_ORDER ? fmin (KS_DEFAULT_BLOCK, (m - nev) / 4) : 1.0;
  int p = pd < 1.0 ? 1 : pd > KS_MAX_BLOCK ? KS_MAX_BLOCK : (int) pd;
  if (p > n - m) p = n - m;
  if (p > m / 2) p = m / 2;
  return p < 1 ? 1 : p;
}

/* ---- the algorithm, once per arithmetic --------------------------------------------- */

#define KS_SCALAR double
#define KS_SUFFIX(name) name##_r
#define KS_APPLY ks_apply_real
#define KS_ENTRY ks_solve_real
#include "krylov_schur_impl.h"
#undef KS_SCALAR
#undef KS_SUFFIX
#undef KS_APPLY
#undef KS_ENTRY

#define KS_SCALAR double complex
#define KS_SUFFIX(name) name##_c
#define KS_APPLY ks_apply_complex
#define KS_ENTRY ks_solve_complex
#include "krylov_schur_impl.h"
