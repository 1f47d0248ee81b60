/* blas.h: the BLAS library's work buffer, claimed at start-up so that running out of
   memory later is an error and not a hang; the measured BLAS-3 rate of a rank. */
#ifndef MB_BLAS_H
#define MB_BLAS_H

#include "../error.h"

/* Rank-local. OpenBLAS allocates a work buffer of about 128 MiB on its first level-3 call
   and, when that allocation fails, retries it forever (a run under `ulimit -v` spins at
   100 % CPU inside MUMPS's dense kernels). This checks that the buffer fits (a trial
   allocation of BLAS_BUFFER_BYTES, freed at once) and then makes one tiny dgemm call,
   so that OpenBLAS takes its buffer now and reuses it for every later call of this
   thread. Returns 0, or MB_ENOMEM with a message saying how much memory is missing.
   Call it once per rank before any stage; make the status collective (mb_agree). */
int blas_reserve (mb_err *err);

/* Rank-local. The BLAS-3 rate of this rank [flop/s]: the best of 3 timings of a dgemm
   C = A B of order BLAS_RATE_ORDER (2 n^3 flops, a few ms), measured on the first call and
   returned from then on (once per run). 0 when the test matrices cannot be allocated. */
double blas_gemm_rate (void);

#define BLAS_RATE_ORDER 192

#endif
