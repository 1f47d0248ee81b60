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

/* Deterministic uniform numbers in [-1, 1) (xorshift64*). */
static double uniform (unsigned long long *state)
{
  unsigned long long x = *state;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  *state = x;
  return (double) ((x * 2685821657736338717ULL) >> 11) * (2.0 / 9007199254740992.0) - 1.0;
}

void ks_dist_init (ks_dist *d, MPI_Comm comm, int n)
{
  int rank, size;
  MPI_Comm_rank (comm, &rank);
  MPI_Comm_size (comm, &size);
  d->comm = comm;
  d->n = n;
  d->row0 = (int) ((long long) n * rank / size);
  d->nloc = (int) ((long long) n * (rank + 1) / size) - d->row0;
}

/* buf (count doubles) = its sum over the ranks, bitwise the same on every rank (reduced on
   rank 0, then broadcast: an allreduce may round differently per rank). */
static void allsum (const ks_dist *d, double *buf, int count)
{
  int rank, size;
  MPI_Comm_size (d->comm, &size);
  if (size == 1 || count == 0) return;
  MPI_Comm_rank (d->comm, &rank);
  MPI_Reduce (rank == 0 ? MPI_IN_PLACE : buf, buf, count, MPI_DOUBLE, MPI_SUM, 0, d->comm);
  MPI_Bcast (buf, count, MPI_DOUBLE, 0, d->comm);
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

/* buf (count doubles) = its sum over the ranks in one collective (MPI_Allreduce), for the
   Gram-Schmidt passes. Every rank must get the same bits, since each takes the
   re-orthogonalization and breakdown decisions itself: Open MPI's and MPICH's allreduce
   algorithms (recursive doubling, ring, reduce-scatter + allgather) combine identical
   partial sums on every rank, and a + b == b + a in IEEE arithmetic. */
static void allsum_one (const ks_dist *d, double *buf, int count)
{
  int size;
  MPI_Comm_size (d->comm, &size);
  if (size == 1 || count == 0) return;
  MPI_Allreduce (MPI_IN_PLACE, buf, count, MPI_DOUBLE, MPI_SUM, d->comm);
}

/* One classical Gram-Schmidt pass against V(:, 0:j-1) with one collective: h = V^H w and
   s = w^H w (w as given), both summed over the ranks in the same message, then w -= V h on
   the local rows (V has leading dimension max (nloc, 1)). red is workspace of
   KS_DOUBLES j + 1 doubles. Returns s. Real and complex. */
static double gs_pass_r (const ks_dist *d, int j, const double *V, double *w, double *h,
                         double *red)
{
  int nl = d->nloc, ld = nl > 0 ? nl : 1;
  if (nl > 0) {
    if (j > 0) cblas_dgemv (CblasColMajor, CblasTrans, nl, j, 1.0, V, ld, w, 1, 0.0, red, 1);
    red[j] = cblas_ddot (nl, w, 1, w, 1);
  } else {
    memset (red, 0, (size_t) (j + 1) * sizeof *red);
  }
  allsum_one (d, red, j + 1);
  memcpy (h, red, (size_t) j * sizeof *h);
  if (nl > 0 && j > 0) cblas_dgemv (CblasColMajor, CblasNoTrans, nl, j, -1.0, V, ld, h, 1, 1.0, w, 1);
  return red[j];
}

static double gs_pass_c (const ks_dist *d, int j, const double complex *V, double complex *w,
                         double complex *h, double *red)
{
  const double complex one = 1.0, zero = 0.0, mone = -1.0;
  int nl = d->nloc, ld = nl > 0 ? nl : 1;
  double complex *hr = (double complex *) red;  /* red: j complex entries, then s */
  if (nl > 0) {
    if (j > 0) cblas_zgemv (CblasColMajor, CblasConjTrans, nl, j, &one, V, ld, w, 1, &zero, hr, 1);
    double complex s;
    cblas_zdotc_sub (nl, w, 1, w, 1, &s);
    red[2 * j] = creal (s);
  } else {
    memset (red, 0, (size_t) (2 * j + 1) * sizeof *red);
  }
  allsum_one (d, red, 2 * j + 1);
  memcpy (h, hr, (size_t) j * sizeof *h);
  if (nl > 0 && j > 0) cblas_zgemv (CblasColMajor, CblasNoTrans, nl, j, &mone, V, ld, h, 1, &one, w, 1);
  return red[2 * j];
}

/* Rows per block of the two-column products below: a block of the q basis columns, about
   256 KB, stays in the L2 cache while both columns use it, so that the basis is read from
   memory once for both: one read of the basis instead of the two of DGKS as two GEMV
   passes (the timings: scripts/bench/README.md,
   "Behind the comments"). */
static int gs_rows (int q)
{
  int rows = 32768 / (q > 0 ? q : 1);
  return rows < 64 ? 64 : rows;
}

/* X ((j+1) x 2) = V(:, 0:j)^H V(:, j:j+1), summed over the ranks in one collective: the
   fused reduction of the lagged Gram-Schmidt step (both columns in one read of V). red is
   workspace of KS_DOUBLES 2 (j + 1) doubles. */
static void gram2_r (const ks_dist *d, int j, const double *V, double *X, double *red)
{
  int nl = d->nloc, ld = nl > 0 ? nl : 1, q = j + 1, rb = gs_rows (q);
  const double *u = V + (size_t) j * ld, *w = u + ld;
  memset (red, 0, (size_t) 2 * q * sizeof *red);
  for (int r0 = 0; r0 < nl; r0 += rb) {
    int rows = nl - r0 < rb ? nl - r0 : rb;
    cblas_dgemv (CblasColMajor, CblasTrans, rows, q, 1.0, V + r0, ld, u + r0, 1, 1.0, red, 1);
    cblas_dgemv (CblasColMajor, CblasTrans, rows, q, 1.0, V + r0, ld, w + r0, 1, 1.0, red + q, 1);
  }
  allsum_one (d, red, 2 * q);
  memcpy (X, red, (size_t) 2 * q * sizeof *X);
}

static void gram2_c (const ks_dist *d, int j, const double complex *V, double complex *X,
                     double *red)
{
  const double complex one = 1.0;
  int nl = d->nloc, ld = nl > 0 ? nl : 1, q = j + 1, rb = gs_rows (2 * q);
  const double complex *u = V + (size_t) j * ld, *w = u + ld;
  double complex *xr = (double complex *) red;
  memset (red, 0, (size_t) 4 * q * sizeof *red);
  for (int r0 = 0; r0 < nl; r0 += rb) {
    int rows = nl - r0 < rb ? nl - r0 : rb;
    cblas_zgemv (CblasColMajor, CblasConjTrans, rows, q, &one, V + r0, ld, u + r0, 1, &one, xr, 1);
    cblas_zgemv (CblasColMajor, CblasConjTrans, rows, q, &one, V + r0, ld, w + r0, 1, &one,
                 xr + q, 1);
  }
  allsum_one (d, red, 4 * q);
  memcpy (X, red, (size_t) 2 * q * sizeof *X);
}

/* V(:, j:j+1) -= V(:, 0:j-1) Y (Y is j x 2) on the local rows: both columns updated in one
   read of V (row blocks as in gram2). */
static void update2_r (int nl, int j, double *V, const double *Y)
{
  int ld = nl > 0 ? nl : 1, rb = gs_rows (j);
  double *u = V + (size_t) j * ld, *w = u + ld;
  for (int r0 = 0; r0 < nl && j > 0; r0 += rb) {
    int rows = nl - r0 < rb ? nl - r0 : rb;
    cblas_dgemv (CblasColMajor, CblasNoTrans, rows, j, -1.0, V + r0, ld, Y, 1, 1.0, u + r0, 1);
    cblas_dgemv (CblasColMajor, CblasNoTrans, rows, j, -1.0, V + r0, ld, Y + j, 1, 1.0, w + r0, 1);
  }
}

static void update2_c (int nl, int j, double complex *V, const double complex *Y)
{
  const double complex one = 1.0, mone = -1.0;
  int ld = nl > 0 ? nl : 1, rb = gs_rows (2 * j);
  double complex *u = V + (size_t) j * ld, *w = u + ld;
  for (int r0 = 0; r0 < nl && j > 0; r0 += rb) {
    int rows = nl - r0 < rb ? nl - r0 : rb;
    cblas_zgemv (CblasColMajor, CblasNoTrans, rows, j, &mone, V + r0, ld, Y, 1, &one, u + r0, 1);
    cblas_zgemv (CblasColMajor, CblasNoTrans, rows, j, &mone, V + r0, ld, Y + j, 1, &one,
                 w + r0, 1);
  }
}

/* One block Gram-Schmidt pass of the nb columns W (local rows, leading dimension ld)
   against V(:, 0:q-1) with one collective: C (q x nb) = V^H W and, with nrm != NULL, the
   squared column norms of W as given, summed over the ranks in one message (BLAS-3; the
   update W -= V C is left to the caller: block_fused). red is workspace of
   KS_DOUBLES q nb + nb doubles. */
static void block_pass_r (const ks_dist *d, int q, int nb, const double *V, const double *W,
                          double *C, double *nrm, double *red)
{
  int nl = d->nloc, ld = nl > 0 ? nl : 1, cnt = q * nb + (nrm ? nb : 0);
  memset (red, 0, (size_t) cnt * sizeof *red);
  if (nl > 0) {
    if (q > 0) cblas_dgemm (CblasColMajor, CblasTrans, CblasNoTrans, q, nb, nl, 1.0, V, ld, W, ld,
                            0.0, red, q);
    if (nrm) for (int i = 0; i < nb; i++) red[q * nb + i] = cblas_ddot (nl, W + (size_t) i * ld, 1,
                                                                     W + (size_t) i * ld, 1);
  }
  allsum_one (d, red, cnt);
  memcpy (C, red, (size_t) q * nb * sizeof *C);
  if (nrm) memcpy (nrm, red + q * nb, (size_t) nb * sizeof *nrm);
}

static void block_pass_c (const ks_dist *d, int q, int nb, const double complex *V,
                          const double complex *W, double complex *C, double *nrm, double *red)
{
  const double complex one = 1.0, zero = 0.0;
  int nl = d->nloc, ld = nl > 0 ? nl : 1, cnt = 2 * q * nb + (nrm ? nb : 0);
  memset (red, 0, (size_t) cnt * sizeof *red);
  if (nl > 0) {
    if (q > 0) cblas_zgemm (CblasColMajor, CblasConjTrans, CblasNoTrans, q, nb, nl, &one, V, ld,
                            W, ld, &zero, (double complex *) red, q);
    if (nrm) for (int i = 0; i < nb; i++) {
      double t = cblas_dznrm2 (nl, W + (size_t) i * ld, 1);
      red[2 * q * nb + i] = t * t;
    }
  }
  allsum_one (d, red, cnt);
  memcpy (C, red, (size_t) q * nb * sizeof *C);
  if (nrm) memcpy (nrm, red + 2 * q * nb, (size_t) nb * sizeof *nrm);
}

/* The middle of block classical Gram-Schmidt twice (BCGS2): W -= V C (the first pass's
   update, C q x nb) and then C = V^H W (the second pass's coefficients, summed over the
   ranks in one collective), fused: one block of gs_rows (q) rows of V at a time, so that
   the block, still in the cache, serves both products and V is read from memory three
   times per block of columns instead of four. red is workspace of KS_DOUBLES q nb doubles. */
static void block_fused_r (const ks_dist *d, int q, int nb, const double *V, double *W,
                           double *C, double *red)
{
  int nl = d->nloc, ld = nl > 0 ? nl : 1, rb = gs_rows (q);
  memset (red, 0, (size_t) q * nb * sizeof *red);
  for (int r0 = 0; r0 < nl && q > 0; r0 += rb) {
    int rows = nl - r0 < rb ? nl - r0 : rb;
    cblas_dgemm (CblasColMajor, CblasNoTrans, CblasNoTrans, rows, nb, q, -1.0, V + r0, ld, C, q,
                 1.0, W + r0, ld);
    cblas_dgemm (CblasColMajor, CblasTrans, CblasNoTrans, q, nb, rows, 1.0, V + r0, ld, W + r0,
                 ld, 1.0, red, q);
  }
  allsum_one (d, red, q * nb);
  memcpy (C, red, (size_t) q * nb * sizeof *C);
}

static void block_fused_c (const ks_dist *d, int q, int nb, const double complex *V,
                           double complex *W, double complex *C, double *red)
{
  const double complex one = 1.0, mone = -1.0;
  int nl = d->nloc, ld = nl > 0 ? nl : 1, rb = gs_rows (2 * q);
  double complex *cr = (double complex *) red;
  memset (red, 0, (size_t) 2 * q * nb * sizeof *red);
  for (int r0 = 0; r0 < nl && q > 0; r0 += rb) {
    int rows = nl - r0 < rb ? nl - r0 : rb;
    cblas_zgemm (CblasColMajor, CblasNoTrans, CblasNoTrans, rows, nb, q, &mone, V + r0, ld, C, q,
                 &one, W + r0, ld);
    cblas_zgemm (CblasColMajor, CblasConjTrans, CblasNoTrans, q, nb, rows, &one, V + r0, ld,
                 W + r0, ld, &one, cr, q);
  }
  allsum_one (d, red, 2 * q * nb);
  memcpy (C, red, (size_t) q * nb * sizeof *C);
}

/* W -= V C (V: q columns, C: q x nb) on the local rows: the second pass's update. */
static void block_update_r (int nl, int q, int nb, const double *V, double *W, const double *C)
{
  int ld = nl > 0 ? nl : 1;
  if (nl > 0 && q > 0)
    cblas_dgemm (CblasColMajor, CblasNoTrans, CblasNoTrans, nl, nb, q, -1.0, V, ld, C, q, 1.0, W,
                 ld);
}

static void block_update_c (int nl, int q, int nb, const double complex *V, double complex *W,
                            const double complex *C)
{
  const double complex one = 1.0, mone = -1.0;
  int ld = nl > 0 ? nl : 1;
  if (nl > 0 && q > 0)
    cblas_zgemm (CblasColMajor, CblasNoTrans, CblasNoTrans, nl, nb, q, &mone, V, ld, C, q, &one,
                 W, ld);
}

/* W := W R^-1 on the local rows (W: nb columns, leading dimension max (nloc, 1); R nb x nb
   upper triangular, ld nb): the lagged block step's scaling of its two blocks. */
static void block_trsm_r (int nl, int nb, const double *R, double *W)
{
  if (nl > 0)
    cblas_dtrsm (CblasColMajor, CblasRight, CblasUpper, CblasNoTrans, CblasNonUnit, nl, nb, 1.0,
                 R, nb, W, nl);
}

static void block_trsm_c (int nl, int nb, const double complex *R, double complex *W)
{
  const double complex one = 1.0;
  if (nl > 0)
    cblas_ztrsm (CblasColMajor, CblasRight, CblasUpper, CblasNoTrans, CblasNonUnit, nl, nb, &one,
                 R, nb, W, nl);
}

/* Complex conjugate in each arithmetic (the identity for real numbers). */
#define KS_CONJ_r(x) (x)
#define KS_CONJ_c(x) conj (x)

/* max |V^H V - I| of the q distributed columns of V (leading dimension max (nloc, 1)),
   the Gram matrix summed over the ranks; G is workspace of q^2 entries. Collective. */
static double orth_loss_r (const ks_dist *d, int q, const double *V, double *G)
{
  int nl = d->nloc, ld = nl > 0 ? nl : 1;
  if (nl > 0) cblas_dgemm (CblasColMajor, CblasTrans, CblasNoTrans, q, q, nl, 1.0, V, ld, V, ld,
                           0.0, G, q);
  else memset (G, 0, (size_t) q * q * sizeof *G);
  allsum (d, G, q * q);
  double worst = 0.0;
  for (int j = 0; j < q; j++)
    for (int i = 0; i < q; i++) worst = fmax (worst, fabs (G[i + (size_t) j * q] - (i == j)));
  return worst;
}

static double orth_loss_c (const ks_dist *d, int q, const double complex *V, double complex *G)
{
  const double complex one = 1.0, zero = 0.0;
  int nl = d->nloc, ld = nl > 0 ? nl : 1;
  if (nl > 0) cblas_zgemm (CblasColMajor, CblasConjTrans, CblasNoTrans, q, q, nl, &one, V, ld, V,
                           ld, &zero, G, q);
  else memset (G, 0, (size_t) q * q * sizeof *G);
  allsum (d, (double *) G, 2 * q * q);
  double worst = 0.0;
  for (int j = 0; j < q; j++)
    for (int i = 0; i < q; i++) worst = fmax (worst, cabs (G[i + (size_t) j * q] - (i == j)));
  return worst;
}

/* Rows of the basis rotated per block by KS_ROTATE: 8 MB or less of workspace. */
#define KS_ROW_BLOCK 2048

/* C (rows x q, ld ldc) = V (rows x mm, ld ldv) Z (mm x q, ld ldz). */
static void gemm_ld_r (int rows, int q, int mm, const double *V, int ldv, const double *Z,
                       int ldz, double *C, int ldc)
{
  cblas_dgemm (CblasColMajor, CblasNoTrans, CblasNoTrans, rows, q, mm, 1.0, V, ldv, Z, ldz, 0.0,
               C, ldc);
}

static void gemm_ld_c (int rows, int q, int mm, const double complex *V, int ldv,
                       const double complex *Z, int ldz, double complex *C, int ldc)
{
  const double complex one = 1.0, zero = 0.0;
  cblas_zgemm (CblasColMajor, CblasNoTrans, CblasNoTrans, rows, q, mm, &one, V, ldv, Z, ldz,
               &zero, C, ldc);
}

/* 2-norm of this rank's rows. */
static double nrm2_local_r (int nl, const double *x) { return cblas_dnrm2 (nl, x, 1); }
static double nrm2_local_c (int nl, const double complex *x) { return cblas_dznrm2 (nl, x, 1); }

/* Global 2-norm of a distributed vector (local rows x). */
static double nrm2_r (const ks_dist *d, const double *x)
{
  double s = d->nloc > 0 ? cblas_dnrm2 (d->nloc, x, 1) : 0.0;
  s *= s;
  allsum (d, &s, 1);
  return sqrt (s);
}

static double nrm2_c (const ks_dist *d, const double complex *x)
{
  double s = d->nloc > 0 ? cblas_dznrm2 (d->nloc, x, 1) : 0.0;
  s *= s;
  allsum (d, &s, 1);
  return sqrt (s);
}

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
