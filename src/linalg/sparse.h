/* sparse.h: real sparse matrices: a triplet form for assembly, a compressed (CSR) form for use. */
#ifndef MB_SPARSE_H
#define MB_SPARSE_H

#include "../error.h"

/* A real nrows x ncols matrix as triplets (row[k], col[k], val[k]), 0-based.
   Triplet form (compressed = 0, rowptr = NULL): any order, duplicates allowed and mean a
   sum; spm_add appends. Both triangles of a symmetric matrix are stored (Matrix Market
   "symmetric" files are expanded on reading).
   Compressed form (after spm_compress: compressed = 1): the same arrays sorted by
   (row, col) with no duplicates, and rowptr[i] .. rowptr[i+1]-1 the entries of row i, so
   that (rowptr, col, val) is a CSR matrix with no copy and (row, col, val) still reads as
   triplets. Stored zeros are kept: they are structure. Values may be changed in place in
   either form; indices only through spm_add (which returns the matrix to triplet form).
   The operations below that need rows (product, sum, extraction, transpose) accept either
   form: on a triplet matrix they work on a compressed temporary copy. Their results are new
   compressed matrices whose pattern is the structural one (stored zeros and products that
   cancel are kept), so that the same inputs' patterns always give the same result pattern:
   what a refactorization of a fixed pattern needs. */
typedef struct spm {
  int nrows, ncols;  /* shape */
  long nnz, nzmax;   /* entries used, entries allocated */
  int *row, *col;    /* indices, size nzmax */
  double *val;       /* values, size nzmax */
  int *rowptr;       /* compressed: size nrows + 1, NULL while in triplet form */
  int compressed;    /* 1: sorted by (row, col), no duplicates, rowptr valid; 0: triplets */
} spm;

/* Returns a new empty nrows x ncols matrix (triplet form) with room for nzmax entries;
   caller frees. NULL when out of memory. */
spm *spm_create (int nrows, int ncols, long nzmax);

/* Frees A (NULL is a no-op); returns NULL. */
spm *spm_free (spm *A);

/* Appends A(i,j) += v (grows storage). A compressed A returns to triplet form first
   (rowptr freed, compressed = 0; its triplets stay valid): call spm_compress again
   before using rowptr. Returns 0 or MB_ENOMEM. */
int spm_add (spm *A, int i, int j, double v);

/* Sums duplicates, sorting by (row, col), and builds rowptr: A becomes compressed. Stored
   zeros are kept: they are structure, and a pattern with whole node blocks gives MUMPS
   coarser elimination trees and faster solves than the bare nonzeros. A no-op on a
   compressed A. Returns 0 or MB_ENOMEM (also for more than INT_MAX entries, which rowptr
   cannot index); on failure A is unchanged. */
int spm_compress (spm *A);

/* Returns a new copy of A in the same form; caller frees. NULL when out of memory. */
spm *spm_copy (const spm *A);

/* y = A x (y is overwritten; sizes ncols, nrows). */
void spm_matvec (const spm *A, const double *x, double *y);

/* Columns that spm_matmat multiplies per pass over A, and the doubles of work it needs
   for an A of ncols columns. */
#define SPM_MM_CHUNK 4
#define SPM_MM_WORK(ncols) ((size_t) SPM_MM_CHUNK * (size_t) (ncols))

/* Y = A X for nb columns (X column-major with leading dimension ldx >= ncols, Y with
   ldy >= nrows; Y overwritten, X and Y must not overlap): A read once for every
   SPM_MM_CHUNK columns (X copied row-interleaved into work, SPM_MM_WORK (ncols) doubles,
   caller owned). Each column is bit for bit spm_matvec's. */
void spm_matmat (const spm *A, int nb, const double *X, int ldx, double *Y, int ldy,
                 double *work);

/* The same with the columns anywhere: y[j] = A x[j], j = 0 .. nb-1 (no y[j] may overlap an
   x column or another y[j]). */
void spm_matmat_cols (const spm *A, int nb, const double *const *x, double *const *y,
                      double *work);

/* The core of both: y[j] = A x_j for nc <= SPM_MM_CHUNK columns that the caller has packed
   row-interleaved, packed[c * nc + j] = x_j[c] (c < ncols; e.g. columns gathered one at a
   time); each y[j] (nrows, overwritten) bit for bit spm_matvec (A, x_j). */
void spm_matmat_packed (const spm *A, int nc, const double *packed, double *const *y);

/* y = A x for real A and complex x, y (double complex; y overwritten; sizes ncols,
   nrows). */
void spm_matvec_complex (const spm *A, const _Complex double *x, _Complex double *y);

/* y = A^T x (sizes nrows, ncols). */
void spm_matvec_t (const spm *A, const double *x, double *y);

/* Infinity norm max_i sum_j |A(i,j)| (duplicates summed first if compressed). */
double spm_norm_inf (const spm *A);

/* Largest |A(i,j)| over stored entries. */
double spm_max_abs (const spm *A);

/* colmax[j] = max_i |A(i,j)| over stored entries (size ncols; 0 for an empty column):
   a column of M that is 0 here is a massless DOF, one of Cq an unconstrained DOF. */
void spm_col_max_abs (const spm *A, double *colmax);

/* 1 when A is square and A(i,j) == A(j,i) to rtol * max|A|; A must be compressed. */
int spm_is_symmetric (const spm *A, double rtol);

/* A = alpha A (values only; the pattern is kept, also for alpha = 0). */
void spm_scale (spm *A, double alpha);

/* D = A as a dense column-major nrows x ncols array (overwritten; duplicates summed). */
void spm_to_dense (const spm *A, double *D);

/* Returns a new compressed ncols x nrows matrix A^T; caller frees. NULL when out of
   memory. */
spm *spm_transpose (const spm *A);

/* Returns a new compressed C = A B (A m x k, B k x n); caller frees. The pattern is the
   structural product. NULL when out of memory or A->ncols != B->nrows. */
spm *spm_multiply (const spm *A, const spm *B);

/* Returns a new compressed C = alpha A + beta B (same shape); caller frees. The pattern is
   the union of both patterns, whatever alpha and beta (so K - sigma M has one pattern for
   every sigma). NULL when out of memory or the shapes differ. */
spm *spm_sum (double alpha, const spm *A, double beta, const spm *B);

/* Returns a new compressed (r1 - r0) x (c1 - c0) matrix A(r0:r1-1, c0:c1-1) (half-open
   ranges, 0 <= r0 <= r1 <= nrows, 0 <= c0 <= c1 <= ncols); caller frees. NULL when out
   of memory or a range is invalid. */
spm *spm_block (const spm *A, int r0, int r1, int c0, int c1);

/* Returns a new compressed nr x nc matrix B(a, b) = A(rows[a], cols[b]); caller frees.
   rows may list a row any number of times and in any order; cols must not repeat a
   column. rows == NULL means all rows in order (nr = nrows), cols == NULL all columns
   (nc = ncols). A permutation is a selection with every index once. NULL when out of
   memory, an index is outside A, or cols repeats one. */
spm *spm_select (const spm *A, int nr, const int *rows, int nc, const int *cols);

/* Returns a new compressed lower triangle of A (entries with i >= j): what
   FACTOR_REAL_SYMMETRIC takes. Caller frees; NULL when out of memory. */
spm *spm_lower (const spm *A);

/* T(r0 + i, c0 + j) += alpha A(i, j) for every stored entry of A, or, with transpose = 1,
   T(r0 + j, c0 + i) += alpha A(i, j): places a block (or its transpose) into a larger
   matrix being assembled, e.g. [K - sigma M, Cq^T; Cq, 0]. Entries are appended even when
   alpha A(i,j) is 0 (the pattern does not depend on alpha). T returns to triplet form.
   Returns 0, MB_ENOMEM, or MB_EUSAGE when the block does not fit in T. */
int spm_add_block (spm *T, int r0, int c0, double alpha, const spm *A, int transpose);

#endif
