/* blas.c: claim the BLAS work buffer at start-up, measure the BLAS-3 rate (see blas.h). */
#include "blas.h"

#include <mpi.h>
#include <stdlib.h>

/* Reference BLAS prototype (Fortran calling convention), provided by OpenBLAS. */
void dgemm_ (const char *ta, const char *tb, const int *m, const int *n, const int *k,
             const double *alpha, const double *a, const int *lda, const double *b,
             const int *ldb, const double *beta, double *c, const int *ldc);

/* OpenBLAS's per-thread buffer on x86-64 (BUFFER_SIZE, 128 MiB) plus its alignment and
   guard pages, with a margin. */
#define BLAS_BUFFER_BYTES ((size_t) 136 << 20)

int blas_reserve (mb_err *err)
{
  void *trial = mb_fault ("blas") ? NULL : malloc (BLAS_BUFFER_BYTES);
  if (!trial) {
    int rank = 0;
    MPI_Comm_rank (MPI_COMM_WORLD, &rank);
    return mb_fail (err, MB_ENOMEM, "out of memory before any stage: the BLAS library "
                    "(OpenBLAS) needs a work buffer of %zu MiB on each rank and rank %d "
                    "could not allocate it (check `ulimit -v` and the job's memory limit)",
                    BLAS_BUFFER_BYTES >> 20, rank);
  }
  free (trial);
  /* a product large enough to pass OpenBLAS's small-matrix shortcut (which takes no
     buffer) and its forwarding of one-column products to dgemv: 128 x 128 squares */
  enum { DIM = 128 };
  double *a = mb_calloc ((size_t) 3 * DIM * DIM, sizeof *a);
  if (!a) return mb_fail (err, MB_ENOMEM, "out of memory before any stage (BLAS check)");
  double *b = a + (size_t) DIM * DIM, *c = b + (size_t) DIM * DIM;
  const int dim = DIM;
  const double alpha = 1.0, beta = 0.0;
  dgemm_ ("N", "N", &dim, &dim, &dim, &alpha, a, &dim, b, &dim, &beta, c, &dim);
  free (a);
  return 0;
}

/* The rate of dgemm on n x n matrices with entries a_ij = 1 / (i + j + 1) (no zeros, no
   subnormals): 2 n^3 flops over the best of 3 wall times. Cached after the first call. */
double blas_gemm_rate (void)
{
  static double rate = -1.0;
  if (rate >= 0.0) return rate;
  const int n = BLAS_RATE_ORDER;
  const double alpha = 1.0, beta = 0.0;
  double *a = mb_calloc ((size_t) 3 * n * n, sizeof *a);
  if (!a) return 0.0;  /* not cached: a later call may find the memory */
  double *b = a + (size_t) n * n, *c = b + (size_t) n * n;
  for (int j = 0; j < n; j++)
    for (int i = 0; i < n; i++) a[i + (size_t) j * n] = b[i + (size_t) j * n] = 1.0 / (i + j + 1);
  double best = 0.0;
  for (int rep = 0; rep < 3; rep++) {
    double t0 = MPI_Wtime ();
    dgemm_ ("N", "N", &n, &n, &n, &alpha, a, &n, b, &n, &beta, c, &n);
    double dt = MPI_Wtime () - t0;
    if (rep == 0 || dt < best) best = dt;
  }
  free (a);
  rate = best > 0.0 ? 2.0 * n * (double) n * n / best : 0.0;
  return rate;
}
