/* mmio_parts.h: the pieces of a Matrix Market read that several ranks share out
   (mmio_ranks.c): the header, one rank's share of the entry lines, its parse. No MPI here:
   mmio.c, which defines them, is also built alone (the fuzz target). Internal to linalg. */
#ifndef MB_MMIO_PARTS_H
#define MB_MMIO_PARTS_H

#include "../error.h"
#include "sparse.h"

/* What the lines before the entries say: the banner's field and symmetry, the size line. */
typedef struct mmio_header {
  int integer_field, symmetric;
  long nrows, ncols, nnz;
  size_t size_line;  /* 1-based line of the size line */
} mmio_header;

/* The header of the open file fd (a regular file of size bytes) into *h and the byte
   offset just after the size line's '\n' into *data, reading a prefix of the file that
   doubles until the size line is whole in it. Returns 0, MB_EDECK (err at "path:LINE",
   as mmio_read gives it), MB_EIO, MB_ENOMEM. */
int mmio_header_read (int fd, long long size, const char *path, mmio_header *h,
                      long long *data, mb_err *err);

/* One rank's share of the entry lines: the lines that start in bytes [s, e) of the data
   region [data, size), read into a NUL-terminated buffer (owned: free (text)) with the rest
   of the last one. */
typedef struct mmio_share {
  char *text;         /* the lines, from the first that starts at or after s */
  long long len;      /* bytes of text (to the end of the last line, its '\n' included) */
  long long newlines; /* '\n' in [s, e), for the line numbers of the shares after it */
  long long before;   /* '\n' in [s, the first line's start): 0 or 1 */
  long long lines;    /* lines that start in [s, e) */
} mmio_share;

/* Reads the share [s, e) of fd (see mmio_share). Returns 0 or -1 with errno (a read
   error, or ENOMEM). */
int mmio_share_read (int fd, long long data, long long size, long long s, long long e,
                     mmio_share *sh);

/* Entry lines (neither blank nor comments) in the share. */
long mmio_share_entries (const mmio_share *sh);

/* Parses the share's entry lines into S (h's shape; room grows as needed), its first line
   being line first_line of the file and its first entry the file's entry number first
   (0-based): entries past h->nnz are the "more entries" error. Sets *line to the line where
   it stopped (the error's line). Returns 0, MB_EDECK (err at "path:LINE" with mmio_read's
   message) or MB_ENOMEM. */
int mmio_share_parse (const char *path, const mmio_share *sh, size_t first_line,
                      const mmio_header *h, long first, spm *S, size_t *line, mb_err *err);

/* The error of a file with fewer entries than h->nnz: got entries, its last line last_line
   (mmio_read's message). Returns MB_EDECK. */
int mmio_fail_short (const char *path, size_t last_line, long got, const mmio_header *h,
                     mb_err *err);

#endif
