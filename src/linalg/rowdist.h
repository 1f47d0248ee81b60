/* rowdist.h: a sparse matrix distributed by rows over the ranks, and its product with a
   block of row-distributed vectors by a halo exchange (no full vector on any rank). */
#ifndef MB_ROWDIST_H
#define MB_ROWDIST_H

#include <mpi.h>

#include "../error.h"
#include "sparse.h"

/* This rank's rows first .. first + L.nrows - 1 of a compressed matrix A (A's own row
   numbers; L's row k is A's row first + k), columns global: L is compressed (rowptr from 0,
   sorted columns, no duplicates) with L.row NULL, L.ncols = A's. The ranks' parts are where
   a distributed matrix lives: rows handed out by rank 0 (spm_part_scatter) or routed from
   anywhere to their owners (spm_part_route). */
typedef struct spm_part {
  int first;        /* A's row number of L's row 0 */
  spm L;
  int borrowed;     /* 1: L.col and L.val point into rank 0's A (not freed here) */
} spm_part;

/* Collective. Every rank asks for A's rows first .. first + count - 1 (its own range; the
   ranges need not cover A, must not overlap, may be empty); A (compressed) on rank 0 only.
   Rank 0 sends each rank its rows (MPI_Scatterv; its own are borrowed from A, not copied:
   A must outlive P on rank 0 and keep its values). Returns 0, or MB_EUSAGE (A not compressed,
   a range outside A) or MB_ENOMEM (fault site "rowdist"), the same on every rank; P is then
   empty. */
int spm_part_scatter (MPI_Comm comm, const spm *A, int first, int count, spm_part *P,
                      mb_err *err);

/* Collective. The parts of a matrix of nrows x ncols given as triplets spread over the ranks
   in any way (this rank's nnz triplets row[k], col[k], val[k], 0-based, any order,
   duplicates anywhere mean a sum): each triplet is sent to the rank whose range holds its
   row (ranges: every rank's own first, count; contiguous in rank order, covering 0 ..
   nrows-1), one MPI_Alltoallv per array, and each rank compresses what it received into P
   (the sum of duplicates in the order of the ranks, then of each rank's triplets; stored
   zeros kept). Returns 0, or MB_EUSAGE (a triplet outside the matrix, ranges that do not
   tile) or MB_ENOMEM (fault site "rowdist"), the same on every rank. */
int spm_part_route (MPI_Comm comm, int nrows, int ncols, long nnz, const int *row,
                    const int *col, const double *val, int first, int count, spm_part *P,
                    mb_err *err);

/* Collective. The nrows x ncols matrix whose rows the ranks hold in their parts (in rank
   order, tiling its rows; a rank without rows passes an empty part) gathered on rank 0 as a
   new compressed matrix, the same entries and values (*A on rank 0, caller frees; untouched
   elsewhere). For a matrix that must be whole on one rank (a path that has no parts).
   Returns 0 or MB_ENOMEM (also for more than INT_MAX entries; fault site "rowdist"), the
   same on every rank. */
int spm_part_gather (MPI_Comm comm, const spm_part *P, int nrows, int ncols, spm **A,
                     mb_err *err);

/* Collective. *sym = 1 when the n x n matrix whose rows the ranks hold in their parts (as
   spm_part_gather takes them) is symmetric by spm_is_symmetric's test (|A(i,j) - A(j,i)|
   <= rtol max|A| for every entry, a missing entry being 0), else 0; the same on every rank.
   The transpose's rows are routed to the same ranks for the test (spm_part_route: as much
   memory again as the part, for the call). Returns 0 or an error, the same on every rank. */
int spm_part_is_symmetric (MPI_Comm comm, const spm_part *P, int n, double rtol, int *sym,
                           mb_err *err);

/* The global row of each of P's entries (size P->L.nnz, at least 1): a new array (caller
   frees) or NULL when out of memory; with P->L.col and P->L.val, P's triplets. Not
   collective. */
int *spm_part_rows (const spm_part *P);

/* Frees what P owns and empties it. Not collective. */
void spm_part_clear (spm_part *P);

/* An n x n sparse matrix's rows that this rank owns in a vector layout of order N >= n
   (contiguous blocks per rank in rank order, rows row0 .. row0 + nloc - 1; rows >= n are
   not A's and their products are 0), with the plan to fetch the vector entries that these
   rows need from the other ranks (a halo exchange: each rank sends only the entries others
   need, and only to the ranks that need them). */
typedef struct spm_rows spm_rows;

/* Collective on comm. The rows of a matrix A of order n (n <= N, the same on every rank)
   that this rank holds in P, in the layout of every rank's (row0, nloc): P's rows must be
   this rank's rows of A (first = row0 and L.nrows = the rows of A among row0 .. row0 +
   nloc - 1; an empty P when none), and together the layouts must tile 0 .. N-1 in rank
   order. The columns are copied and the halo plan is built; the values are borrowed from
   P (P must outlive the result and keep its values). No rank ever holds the whole matrix.
   Returns a new spm_rows (free with spm_rows_free) or NULL with err set, identically on
   every rank (mb_agree): MB_EUSAGE for n > N, a layout that does not tile or a P that is
   not the layout's rows; MB_ENOMEM (fault site "rowdist"). Memory per rank: O(local nnz
   + halo + size). */
spm_rows *spm_rows_from_part (MPI_Comm comm, const spm_part *P, int n, int N, int row0,
                              int nloc, mb_err *err);

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
