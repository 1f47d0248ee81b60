/* krylov_schur.c: Krylov-Schur eigensolver, real and complex, written for mbmodal.

   The algorithm (seed 001, Algorithm 1; Stewart 2002) keeps a Krylov-Schur decomposition
       OP V_k = V_k S_k + V(:, k:k+p-1) B,
   expands it by band Arnoldi on blocks of p columns (Algorithm 2 for p = 1; p > 1, the
   default for large real operators, see block_size, applies OP to p vectors at once, one
   multi-RHS solve) to
       OP V_m = V_m H_m + V(:, m:m+p-1) E,   H of p subdiagonals,
   orthogonalizing each block by block classical Gram-Schmidt twice (BLAS-3 against the
   basis, one reduction per pass), the second pass lagged and fused with the next block's
   first pass (block DCGS2: the basis read twice per block; else BCGS2 with the first
   pass's update fused with the second pass's product, three reads); a rank-deficient block
   is deflated by a random direction in OP's range, and a single vector that finds none
   ends the solve with the exact decomposition. It brings the active part of H_m to Schur
   form T = Z^H H Z sorted by decreasing |mu| (LAPACK gees + trexc), tests the Ritz
   residuals |E Z y_i| against tol |mu_i|, locks the converged leading Ritz pairs (their
   columns of E Z are set to zero: deflation), and truncates to the k leading Schur vectors
   and the p residual vectors. Real arithmetic keeps the 2x2 blocks of complex conjugate
   pairs whole when it truncates, locks or returns. Between restarts it probes convergence
   at block boundaries (the decomposition is exact there with the columns so far) and ends
   as soon as the nev wanted pairs have converged.

   As in SLEPc, the solver is split: bv.c holds the basis vectors' kernels (Gram-Schmidt,
   norms, rotations), ds.c the projected problem (sorted Schur form, its eigenvectors, Ritz
   residuals, the dense eigenproblem), and this file the solver. Each is written once
   (bv_impl.h, ds_impl.h, and here one template header per path) and instantiated for double
   and for double complex; this file includes, per arithmetic:
     ks_common_impl.h     the names and where new directions come from (KS_DIRS,
                          KS_RANDOM_UNIT),
     ks_block_impl.h      the expansion by blocks (lagged block Gram-Schmidt), its
                          breakdown rule and the probes,
     ks_dense_impl.h      the dense path (OP formed column by column, LAPACK),
     krylov_schur_impl.h  the restart loop: Schur step, convergence and locking,
                          truncation, the Ritz vectors, the solves and the entry. */
#include "krylov_schur.h"
#include "bv.h"
#include "ds.h"

#include <float.h>
#include <lapacke.h>
#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* Collective. Rank 0's status info of the LAPACK step `what` (the other ranks pass 0)
   shared with every rank: 0 when it is 0, else lapack_fail's code, the same on every rank. */
static int lapack_status (const ks_dist *d, int info, mb_err *err, const char *what)
{
  double infod = info;
  share (d, &infod, 1);
  return infod != 0.0 ? lapack_fail (err, infod, what) : 0;
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
/* The member of ks_result that holds the kept Ritz vectors by rows in each arithmetic. */
#define KS_KEPT_r xr
#define KS_KEPT_c x

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
#include "ks_common_impl.h"
#include "ks_block_impl.h"
#include "ks_dense_impl.h"
#include "krylov_schur_impl.h"
#undef KS_SCALAR
#undef KS_SUFFIX
#undef KS_APPLY
#undef KS_ENTRY

#define KS_SCALAR double complex
#define KS_SUFFIX(name) name##_c
#define KS_APPLY ks_apply_complex
#define KS_ENTRY ks_solve_complex
#include "ks_common_impl.h"
#include "ks_block_impl.h"
#include "ks_dense_impl.h"
#include "krylov_schur_impl.h"
