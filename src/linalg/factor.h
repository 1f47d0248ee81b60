/* factor.h: the MUMPS backend: factor a sparse matrix once on every rank, then solve. */
#ifndef MB_FACTOR_H
#define MB_FACTOR_H

#include <mpi.h>

#include "../error.h"

typedef enum {
  FACTOR_REAL_SYMMETRIC,   /* DMUMPS, SYM=2: A = L D L^T, D with 1x1 and 2x2 pivots */
  FACTOR_REAL_GENERAL,     /* DMUMPS, SYM=0: P A Q = L U */
  FACTOR_COMPLEX_GENERAL   /* ZMUMPS, SYM=0: P A Q = L U */
} factor_kind;

/* Facts of one factorization (from MUMPS INFOG), as the stages report them. */
typedef struct factor_stats {
  int ranks;               /* MPI ranks used */
  int symmetric;           /* 1: LDL^T (SYM=2), 0: LU */
  int complex_arith;       /* 1: ZMUMPS */
  long order;              /* N of the factored matrix */
  long nnz_matrix;         /* entries given to MUMPS */
  long nnz_factors;        /* INFOG(29) */
  long negative_pivots;    /* INFOG(12), symmetric only; -1 when unknown */
  double memory_mb;        /* INFOG(22): total MB over ranks, effective */
  int icntl14;             /* final workspace relaxation percentage */
  int retries;             /* factorizations redone after INFOG(1) = -9 */
  double time_analysis;    /* [s] */
  double time_factor;      /* [s] */
} factor_stats;

/* Owns one DMUMPS_STRUC_C or ZMUMPS_STRUC_C and, on rank 0, a 1-based copy of the matrix. */
typedef struct factor factor;

/* Collective on comm. Analyses and factors the n x n matrix A (called `name` in messages,
   e.g. "A - sigma B") given on rank 0 as nnz triplets A(irow[k], jcol[k]) += a[k] with
   0-based indices; the other ranks pass NULL and 0 (n is taken from rank 0).
   FACTOR_REAL_SYMMETRIC takes the lower triangle only (irow[k] >= jcol[k]).
   a is `const double *` for the real kinds, `const double complex *` for the complex one.
   The arrays are copied: the caller may free them on return.
   MBMODAL_ICNTL14 (rank 0's environment) sets the initial ICNTL(14), default 30; a
   workspace failure refactors with it doubled, up to 5 times. MBMODAL_MUMPS_VERBOSE (each
   rank's environment; a level 1..4, default 2) turns MUMPS's own output on.
   Returns a new factor (caller frees with factor_free) or NULL with err set to MB_ESOLVE
   or MB_ENOMEM, identically on every rank. */
factor *factor_create (MPI_Comm comm, factor_kind kind, int n, long nnz, const int *irow,
                       const int *jcol, const void *a, const char *name, mb_err *err);

/* Collective. x = A^-1 b in place: b (size n, double or double complex by kind) is read
   and overwritten on rank 0 only; other ranks pass NULL. Returns 0 or MB_ESOLVE
   (MB_ENOMEM) on every rank. */
int factor_solve (factor *f, void *b, mb_err *err);

/* Collective. X = A^-1 B in place for nrhs >= 1 right-hand sides: B is n x nrhs,
   column-major, on rank 0 only (NULL elsewhere; nrhs is taken from rank 0).
   Returns 0 or MB_ESOLVE (MB_ENOMEM) on every rank. */
int factor_solve_many (factor *f, void *b, int nrhs, mb_err *err);

/* Facts of the last factorization into *s: order, entries, INFOG(29) factor entries,
   INFOG(12) negative pivots (the number of negative eigenvalues of A by Sylvester's law,
   FACTOR_REAL_SYMMETRIC only, else -1), INFOG(22) memory, final ICNTL(14), retries and
   wall times (max over ranks). Same values on every rank. */
void factor_get_stats (const factor *f, factor_stats *s);

/* Collective. Frees the MUMPS instance (job = -2) and f; NULL is a no-op. Returns NULL. */
factor *factor_free (factor *f);

#endif
