/* bv.c: the Krylov basis vectors of Krylov-Schur (SLEPc's BV): the row distribution, the
   reductions over the ranks, and the basis kernels of bv_impl.h instantiated for double
   (_r) and double complex (_c); only the BLAS calls differ, by the macros below. */
#include "bv.h"

#include <cblas.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

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

/* Reduce on rank 0 and broadcast: the sum's bits are rank 0's on every rank. */
void bv_allsum (const ks_dist *d, double *buf, int count)
{
  int rank, size;
  MPI_Comm_size (d->comm, &size);
  if (size == 1 || count == 0) return;
  MPI_Comm_rank (d->comm, &rank);
  MPI_Reduce (rank == 0 ? MPI_IN_PLACE : buf, buf, count, MPI_DOUBLE, MPI_SUM, 0, d->comm);
  MPI_Bcast (buf, count, MPI_DOUBLE, 0, d->comm);
}

/* xorshift64*: state ^= shifts, then the top 53 bits of state * 2685821657736338717 scaled
   to [-1, 1). */
double bv_uniform (unsigned long long *state)
{
  unsigned long long x = *state;
  x ^= x >> 12;
  x ^= x << 25;
  x ^= x >> 27;
  *state = x;
  return (double) ((x * 2685821657736338717ULL) >> 11) * (2.0 / 9007199254740992.0) - 1.0;
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

/* Rows per block of the two-column and fused products: a block of the q basis columns
   (q counted in doubles), about 256 KB, stays in the L2 cache while both products use it,
   so that the basis is read from memory once for both: one read of the basis instead of
   the two of DGKS as two GEMV passes (the timings: scripts/bench/README.md,
   "Behind the comments"). */
static int gs_rows (int q)
{
  int rows = 32768 / (q > 0 ? q : 1);
  return rows < 64 ? 64 : rows;
}

/* w^H w of a complex vector by the dot product (its real part), as the real ddot. */
static double zdotc_self (int n, const double complex *w)
{
  double complex s;
  cblas_zdotc_sub (n, w, 1, w, 1, &s);
  return creal (s);
}

/* t^2: a squared 2-norm. */
static double square (double t)
{
  return t * t;
}

static const double one_r = 1.0, zero_r = 0.0, mone_r = -1.0;
static const double complex one_c = 1.0, zero_c = 0.0, mone_c = -1.0;

/* ---- double ---------------------------------------------------------------------------- */
#define BV_SCALAR double
#define BV_NAME(f) f##_r
#define BV_DOUBLES 1
#define BV_ABS fabs
#define BV_CT CblasTrans
#define BV_ONE (&one_r)
#define BV_ZERO (&zero_r)
#define BV_MONE (&mone_r)
#define BV_GEMV(tr, m, n, a, A, lda, x, b, y) \
  cblas_dgemv (CblasColMajor, tr, m, n, *(a), A, lda, x, 1, *(b), y, 1)
#define BV_GEMM(ta, tb, m, n, k, a, A, lda, B, ldb, b, C, ldc) \
  cblas_dgemm (CblasColMajor, ta, tb, m, n, k, *(a), A, lda, B, ldb, *(b), C, ldc)
#define BV_TRSM(m, n, a, R, ldr, W, ldw) \
  cblas_dtrsm (CblasColMajor, CblasRight, CblasUpper, CblasNoTrans, CblasNonUnit, m, n, \
               *(a), R, ldr, W, ldw)
#define BV_NRM2(n, x) cblas_dnrm2 (n, x, 1)
#define BV_SELF_DOT(n, w) cblas_ddot (n, w, 1, w, 1)
#define BV_SQ_NORM(n, w) cblas_ddot (n, w, 1, w, 1)
#include "bv_impl.h"

/* ---- double complex -------------------------------------------------------------------- */
#define BV_SCALAR double complex
#define BV_NAME(f) f##_c
#define BV_DOUBLES 2
#define BV_ABS cabs
#define BV_CT CblasConjTrans
#define BV_ONE (&one_c)
#define BV_ZERO (&zero_c)
#define BV_MONE (&mone_c)
#define BV_GEMV(tr, m, n, a, A, lda, x, b, y) \
  cblas_zgemv (CblasColMajor, tr, m, n, a, A, lda, x, 1, b, y, 1)
#define BV_GEMM(ta, tb, m, n, k, a, A, lda, B, ldb, b, C, ldc) \
  cblas_zgemm (CblasColMajor, ta, tb, m, n, k, a, A, lda, B, ldb, b, C, ldc)
#define BV_TRSM(m, n, a, R, ldr, W, ldw) \
  cblas_ztrsm (CblasColMajor, CblasRight, CblasUpper, CblasNoTrans, CblasNonUnit, m, n, \
               a, R, ldr, W, ldw)
#define BV_NRM2(n, x) cblas_dznrm2 (n, x, 1)
#define BV_SELF_DOT(n, w) zdotc_self (n, w)
#define BV_SQ_NORM(n, w) square (cblas_dznrm2 (n, w, 1))
#include "bv_impl.h"
