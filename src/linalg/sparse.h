/* sparse.h: real sparse matrices in coordinate (triplet) form, the one exchange format. */
#ifndef MB_SPARSE_H
#define MB_SPARSE_H

#include "../error.h"

/* A real nrows x ncols matrix as triplets (row[k], col[k], val[k]), 0-based.
   Duplicates are allowed and mean a sum. Both triangles of a symmetric matrix are stored
   (Matrix Market "symmetric" files are expanded on reading). */
typedef struct spm {
  int nrows, ncols;  /* shape */
  long nnz, nzmax;   /* entries used, entries allocated */
  int *row, *col;    /* indices, size nzmax */
  double *val;       /* values, size nzmax */
} spm;

/* Returns a new empty nrows x ncols matrix with room for nzmax entries; caller frees.
   NULL when out of memory. */
spm *spm_create (int nrows, int ncols, long nzmax);

/* Frees A (NULL is a no-op); returns NULL. */
spm *spm_free (spm *A);

/* Appends A(i,j) += v (grows storage). Returns 0 or MB_ENOMEM. */
int spm_add (spm *A, int i, int j, double v);

/* Sums duplicates, sorting by (row, col). Stored zeros are kept: they are structure, and
   a pattern with whole node blocks gives MUMPS coarser elimination trees and faster solves
   than the bare nonzeros. Returns 0 or MB_ENOMEM. */
int spm_compress (spm *A);

/* y = A x (y is overwritten; sizes ncols, nrows). */
void spm_matvec (const spm *A, const double *x, double *y);

/* y = A^T x (sizes nrows, ncols). */
void spm_matvec_t (const spm *A, const double *x, double *y);

/* Infinity norm max_i sum_j |A(i,j)| (duplicates summed first if compressed). */
double spm_norm_inf (const spm *A);

/* Largest |A(i,j)| over stored entries. */
double spm_max_abs (const spm *A);

/* 1 when A is square and A(i,j) == A(j,i) to rtol * max|A|; A must be compressed. */
int spm_is_symmetric (const spm *A, double rtol);

#endif
