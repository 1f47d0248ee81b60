/* mmio.h: Matrix Market coordinate files <-> triplet matrices (spm), errors by line. */
#ifndef MB_MMIO_H
#define MB_MMIO_H

#include <mpi.h>
#include <stddef.h>
#include "../error.h"
#include "sparse.h"

/* Parses Matrix Market text (len bytes, need not be NUL-terminated; may hold any bytes).
   Accepts "%%MatrixMarket matrix coordinate real|integer general|symmetric"
   (case-insensitive), then comment lines (%) and blank lines anywhere, one size line
   "rows cols entries" and exactly that many lines "i j value" (1-based indices).
   Symmetric files must hold the lower triangle only (i >= j); they are expanded to both
   triangles, A(i,j) = A(j,i) = value, the diagonal once. Duplicates are kept (spm sums
   them). Values are decimal (strtod syntax without hex, NaN or Inf) and must be finite;
   array, complex, pattern, hermitian and skew-symmetric files are rejected by name. A
   leading UTF-8 byte order mark is skipped. name is used in messages ("K.mtx:12").
   Returns 0 with a new matrix (0-based indices) in *A, caller frees with spm_free;
   MB_EDECK with err->where = "name:LINE" (1-based line of the offending text; for an
   early end of file, the file's last line); MB_ENOMEM. On failure *A is untouched.
   No MPI: any rank may call it. */
int mmio_parse (const char *text, size_t len, const char *name, spm **A, mb_err *err);

/* Reads the whole file at path and parses it as mmio_parse (name = path).
   Returns 0 with a new matrix in *A (caller frees); MB_EIO "cannot open"/"cannot read"
   with err->where = path; MB_EDECK on content; MB_ENOMEM. No MPI: the caller picks the
   rank that reads (rank 0, then broadcast). */
int mmio_read (const char *path, spm **A, mb_err *err);

/* Collective on comm. The matrix of the file at path on rank 0 as mmio_read gives it (the
   same entries in the same order, the same errors with the same lines), read by every rank
   at once when the file is a regular file of at least min_bytes bytes that every rank can
   open and comm has more than one rank: rank 0 reads the banner and the size line, each
   rank reads and parses the entry lines that start in its equal share of the bytes after
   them, and rank 0 gathers the entries. Otherwise rank 0 calls mmio_read. The first error
   in the file wins and every rank returns it (err the same on every rank). *A is set on
   rank 0 only (a new triplet matrix, caller frees); on the other ranks it is untouched. */
int mmio_read_ranks (MPI_Comm comm, const char *path, long long min_bytes, spm **A,
                     mb_err *err);

/* Collective on comm. The entries of the file at path spread over the ranks, with no
   gather: each rank gets *S (a new triplet matrix of the file's shape, caller frees), the
   entries that it parsed, so that the ranks' S in rank order, each in its own order, are
   mmio_read's entries in file order. Which rank parses what is mmio_read_ranks's rule: a
   share of the bytes each when the file is large enough (and comm has more than one rank,
   and every rank can open it); otherwise rank 0 reads it all and the other ranks get an
   empty matrix of the same shape. With symmetric != NULL, *symmetric = 1 (every rank) when
   the ranks parsed shares of a file whose banner says "symmetric" (its matrix is then
   exactly symmetric: each entry is written into both triangles), 0 otherwise (also when
   rank 0 read it alone: not known). The same errors as mmio_read_ranks, on every rank (no
   S is set then). */
int mmio_read_share (MPI_Comm comm, const char *path, long long min_bytes, spm **S,
                     int *symmetric, mb_err *err);

/* Writes A to path as "%%MatrixMarket matrix coordinate real general": size line
   "nrows ncols nnz", then "i j value" per stored entry (1-based, values with 17 significant
   digits, so mmio_read gives back every double bit for bit; NaN/Inf are written as such
   and will not read back). Duplicates are written as stored. Returns 0 or MB_EIO with
   err->where = path. No MPI: call it on one rank (rank 0). */
int mmio_write (const char *path, const spm *A, mb_err *err);

#endif
