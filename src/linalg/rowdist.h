/* rowdist.h: a sparse matrix distributed by rows over the ranks, and its product with a
   block of row-distributed vectors by a halo exchange (no full vector on any rank). */
#ifndef MB_ROWDIST_H
#define MB_ROWDIST_H

#include <mpi.h>

#include "../error.h"
#include "sparse.h"

/* An n x n sparse matrix's rows that this rank owns in a vector layout of order N >= n
   (contiguous blocks per rank in rank order, rows row0 .. row0 + nloc - 1; rows >= n are
   not A's and their products are 0), with the plan to fetch the vector entries that these
   rows need from the other ranks (a halo exchange: each rank sends only the entries others
   need, and only to the ranks that need them). */
typedef struct spm_rows spm_rows;

/* Collective on comm. A (compressed, square, n <= N) on rank 0 only, NULL elsewhere; each
   rank gets its rows by MPI_Scatterv from rank 0 (no rank but 0 ever holds the whole
   matrix) and the halo plan is built. Rank 0 keeps its rows' values in A itself (no
   copy), so A must outlive the result on rank 0 and its values must not change. Every rank passes its own (row0, nloc); together
   they must tile 0 .. N-1 in rank order. Returns a new spm_rows (free with spm_rows_free)
   or NULL with err set, identically on every rank (mb_agree): MB_EUSAGE for an A that is
   not compressed or not square, n > N or a layout that does not tile; MB_ENOMEM (fault
   site "rowdist"). Memory per rank: O(local nnz + halo + size). */
spm_rows *spm_rows_scatter (MPI_Comm comm, const spm *A, int N, int row0, int nloc,
                            mb_err *err);

/* Collective; every rank passes the same nb. Y = A X on this rank's rows for nb columns
   (X, Y this rank's nloc rows, column-major, leading dimensions ldx, ldy >= max (nloc, 1);
   X and Y must not overlap; rows of the layout >= n set to 0). Each column is bit for bit
   the corresponding rows of spm_matvec (A, x) on the whole matrix. One halo exchange of
   all nb columns per call (none on one rank, none for a rank without neighbours). Work
   buffers owned by R, grown on demand (the growth agreed over the ranks). Returns 0, or
   MB_ENOMEM with err set on every rank (fault site "rowdist" when the buffers grow). */
int spm_rows_matmat (spm_rows *R, int nb, const double *X, int ldx, double *Y, int ldy,
                     mb_err *err);

/* Rank-local. The halo plan's size on this rank: entries received per column (ghosts),
   entries sent per column, and the number of ranks it exchanges with (either way). Any
   pointer may be NULL. */
void spm_rows_plan (const spm_rows *R, int *nghost, int *nsend, int *nneigh);

/* Frees R (NULL is a no-op); returns NULL. Not collective. */
spm_rows *spm_rows_free (spm_rows *R);

#endif
