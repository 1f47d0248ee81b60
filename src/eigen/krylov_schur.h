/* krylov_schur.h: Krylov-Schur (Stewart 2002; seed 001, Algorithms 1-3) for the largest
   eigenvalues mu of an operator given only by its action y = OP x, in real and in complex
   arithmetic. With OP = (A - sigma B)^-1 B these are the eigenvalues nearest sigma. */
#ifndef MB_KRYLOV_SCHUR_H
#define MB_KRYLOV_SCHUR_H

#include <complex.h>
#include <mpi.h>
#include <stdio.h>
#include "../error.h"
#include "bv.h"

/* The Krylov basis is distributed by rows (ks_dist, bv.h): each rank of comm holds rows
   [row0, row0 + nloc) of every vector; the small projected matrices are computed on rank 0
   and broadcast, so every rank takes the same decisions. */

/* Collective. The operator: Y = OP X for nb >= 1 columns at once (this rank's rows of each;
   column j of X at X + j ldx, of Y at Y + j ldy; ldx, ldy >= max (nloc, 1)). The solver
   applies it to a block of p columns (nb = p; one column for single vectors, p = 1), so
   that one multi-RHS solve serves the block. Returns 0 or a negative MB_E* code, the same on
   every rank, which stops the iteration. */
typedef int (*ks_apply_real) (void *ctx, int nb, const double *X, int ldx, double *Y, int ldy);
typedef int (*ks_apply_complex) (void *ctx, int nb, const double complex *X, int ldx,
                                 double complex *Y, int ldy);

/* Called on rank 0 after each restart: restarts so far, converged Ritz pairs, nev, and the
   largest relative Ritz residual among the nev wanted ones. */
typedef void (*ks_progress) (void *ctx, int restart, int nconv, int nev, double worst);

typedef struct ks_opts {
  int nev;             /* wanted eigenvalues (largest |mu|), 1 <= nev <= n - 1 */
  int ncv;             /* Krylov subspace size, nev + 2 <= ncv <= n; 0 = max(2 nev, nev + 15) */
  double tol;          /* converged when ||OP x - mu x|| <= tol |mu| (x unit) */
  int max_restarts;    /* restarts before giving up */
  unsigned long seed;  /* seed of the start vector (deterministic) */
  ks_progress progress;  /* may be NULL */
  void *progress_ctx;
  int check_orthogonality;  /* 1: measure ks_result.orth_loss after each expansion (costs a
                               Gram matrix of the basis, for tests); 0: off */
  int block;           /* block size p of the block Krylov-Schur path: 1 = the single-vector
                          path (DCGS2); 2..KS_MAX_BLOCK = block path (band Arnoldi, p
                          vectors applied at once); 0 = default: KS_DEFAULT_BLOCK for orders
                          from KS_BLOCK_MIN_ORDER on (see block_size in krylov_schur.c) */
  int no_early_exit;   /* 1: the block path expands fully, no convergence probes at block
                          boundaries inside an expansion; 0 (default): probes */
  int no_lag;          /* 1: the block path's second Gram-Schmidt pass right away; 0
                          (default): lagged by one block (KS_SUFFIX (lag_step)) */
  FILE *stats;         /* rank 0: one line of counts and times after the solve
                          ("krylov-schur: ..."), or NULL */
  int whole;           /* 1: the dense path (the whole space, OP formed column by column and
                          solved by LAPACK) whatever nev and ncv: the caller wants about as
                          many eigenvalues as OP has nonzero ones, where the Krylov subspace
                          would reach into OP's null space (infinite eigenvalues, often
                          defective) and converge spurious pairs there. The same on every
                          rank */
} ks_opts;

#define KS_MAX_BLOCK 16
/* The default block path: block size 8 for real operators from order 1000 on, where p
   solves at once cost much less than p single solves and the Gram-Schmidt work a block
   adds does not outweigh that; complex operators keep single vectors (p = 1) by default
   (their extra Gram-Schmidt on a basis of order 2n + m outweighs the cheaper block
   solves); the damped stage at a real shift is real and takes p = 8 (the timings behind
   8: scripts/bench/README.md,
   "Behind the comments"). */
#define KS_DEFAULT_BLOCK 8
#define KS_BLOCK_MIN_ORDER 1000

/* The converged Ritz pairs, wanted first (descending |mu|). Real arithmetic keeps a
   conjugate pair together, so nconv may be nev + 1. */
typedef struct ks_result {
  int n;                 /* vector length */
  int nconv;             /* converged pairs returned */
  int converged;         /* 1: nconv >= nev */
  int restarts;          /* restarts done */
  int applies;           /* applications of OP */
  int ncv;               /* subspace size used */
  double worst;          /* largest relative residual among the first min(nconv, nev) */
  int reorths;           /* second Gram-Schmidt passes (DGKS criterion) */
  int block;             /* block size used (1: single vectors) */
  int block_applies;     /* calls of the block operator (multi-vector applies) */
  int deflated;          /* block path: vectors of rank-deficient blocks replaced by random
                            directions (OP V nearly in the span of the basis) */
  int probes;            /* block path: convergence tests at block boundaries inside an
                            expansion (the restart's test on the partial decomposition) */
  int early;             /* 1: a probe found the nev pairs converged and the solve ended
                            there, before the expansion reached ncv */
  int lagged;            /* block path: second Gram-Schmidt passes done lagged, fused with
                            the next block's first pass (of reorths) */
  int lag_retries;       /* block path: lagged steps not trusted (an extra block apply) */
  double orth_loss;      /* with opts->check_orthogonality: the largest max |V^H V - I| of the
                            basis V(:, 0:ncv) after an expansion; else 0 */
  double time_total;     /* seconds (this rank's clock) in the iteration, of which: */
  double time_apply;     /*   in OP */
  double time_orth;      /*   Gram-Schmidt (and its reductions) */
  double time_schur;     /*   the projected problem: Schur form, Ritz residuals, broadcasts */
  double time_basis;     /*   basis rotations at restarts and the Ritz vectors' gathering */
  double complex *mu;    /* Ritz values, size nconv */
  double *resid;         /* relative Ritz residual estimates, size nconv */
  double complex *x;     /* Ritz vectors of unit 2-norm, column-major: from ks_solve_complex,
                            this rank's rows of them on every rank (nloc x nconv, leading
                            dimension max (nloc, 1) of the ks_dist; rows = 1); from the
                            dense path (either arithmetic), the whole vectors on rank 0
                            (n x nconv; NULL elsewhere; rows = 0). NULL otherwise */
  double *xr;            /* from ks_solve_real (not the dense path): the same vectors as real
                            columns, this rank's rows on every rank (nloc x nconv, leading
                            dimension max (nloc, 1); rows = 1): a conjugate pair (j, j+1)
                            is held as the real and imaginary parts of x_j in columns j
                            and j+1 (x_j = xr_j + i xr_{j+1}, x_{j+1} its conjugate). NULL
                            otherwise */
  int rows;              /* 1: xr (real) or x (complex) holds this rank's rows; 0: the dense
                            path's whole vectors on rank 0; the same on every rank */
} ks_result;

/* Collective on d->comm. Runs Krylov-Schur on a real operator (real Schur form, 2x2 blocks
   for complex pairs). Fills *res (caller frees with ks_result_clear). Returns 0 (also when
   not converged: see res->converged), or the operator's error, MB_ENOMEM, MB_ESOLVE
   (LAPACK failure); the same on every rank. */
int ks_solve_real (const ks_dist *d, ks_apply_real op, void *ctx, const ks_opts *opts,
                   ks_result *res, mb_err *err);

/* Collective. The same in complex arithmetic (complex Schur form). */
int ks_solve_complex (const ks_dist *d, ks_apply_complex op, void *ctx, const ks_opts *opts,
                      ks_result *res, mb_err *err);

/* Frees the arrays of res and zeroes it. */
void ks_result_clear (ks_result *res);

#endif
