/* mmio_ranks.c: a Matrix Market file read by every rank at once: each rank's share of the
   entries, or all of them gathered on rank 0. */
#include "mmio.h"
#include "mmio_parts.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Collective. The status of the first error in the file, in file order: each rank's rc
   with the line where it stopped (out of memory before any line, then the lowest line);
   the winning rank's err is copied to every rank. Returns that status, the same on every
   rank. */
static int agree_first (MPI_Comm comm, int rc, size_t line, mb_err *err)
{
  struct { double key; int rank; } mine, win;
  MPI_Comm_rank (comm, &mine.rank);
  mine.key = rc == 0 ? HUGE_VAL : rc == MB_ENOMEM ? -1.0 : (double) line;
  MPI_Allreduce (&mine, &win, 1, MPI_DOUBLE_INT, MPI_MINLOC, comm);
  if (win.key == HUGE_VAL) return 0;
  MPI_Bcast (err, (int) sizeof *err, MPI_BYTE, win.rank, comm);
  return err->code;
}

/* Collective. Every rank's entries S appended, in rank order, to T on rank 0 (T has room
   for them all; NULL elsewhere). One message per array and rank (a rank's share of a
   file holds fewer than 2^31 entries: 34 GB of text). */
static void gather_entries (MPI_Comm comm, const spm *S, spm *T)
{
  int rank, size;
  MPI_Comm_rank (comm, &rank);
  MPI_Comm_size (comm, &size);
  long count = S->nnz;
  if (rank != 0) {
    MPI_Send (&count, 1, MPI_LONG, 0, 0, comm);
    if (count > 0) {
      MPI_Send (S->row, (int) count, MPI_INT, 0, 1, comm);
      MPI_Send (S->col, (int) count, MPI_INT, 0, 2, comm);
      MPI_Send (S->val, (int) count, MPI_DOUBLE, 0, 3, comm);
    }
    return;
  }
  memcpy (T->row, S->row, (size_t) count * sizeof *T->row);
  memcpy (T->col, S->col, (size_t) count * sizeof *T->col);
  memcpy (T->val, S->val, (size_t) count * sizeof *T->val);
  T->nnz = count;
  for (int r = 1; r < size; r++) {
    long c = 0;
    MPI_Recv (&c, 1, MPI_LONG, r, 0, comm, MPI_STATUS_IGNORE);
    if (c > 0) {
      MPI_Recv (T->row + T->nnz, (int) c, MPI_INT, r, 1, comm, MPI_STATUS_IGNORE);
      MPI_Recv (T->col + T->nnz, (int) c, MPI_INT, r, 2, comm, MPI_STATUS_IGNORE);
      MPI_Recv (T->val + T->nnz, (int) c, MPI_DOUBLE, r, 3, comm, MPI_STATUS_IGNORE);
    }
    T->nnz += c;
  }
}

/* Collective. The small-file path of mmio_read_share: rank 0 reads the whole matrix
   (mmio_read) into *S_out; the other ranks get an empty matrix of its shape. Returns 0 or
   an error, the same on every rank. */
static int read_on_rank0 (MPI_Comm comm, const char *path, spm **S_out, mb_err *err)
{
  int rank;
  MPI_Comm_rank (comm, &rank);
  spm *A = NULL;
  int rc = rank == 0 ? mmio_read (path, &A, err) : 0;
  rc = mb_agree (comm, rc, err);
  if (rc < 0) return rc;
  int shape[2] = { rank == 0 ? A->nrows : 0, rank == 0 ? A->ncols : 0 };
  MPI_Bcast (shape, 2, MPI_INT, 0, comm);
  if (rank != 0) A = spm_create (shape[0], shape[1], 1);
  rc = mb_agree (comm, A ? 0 : mb_fail (err, MB_ENOMEM, "out of memory reading %s", path),
                 err);
  if (rc < 0) { spm_free (A); return rc; }
  *S_out = A;
  return 0;
}

/* Collective. This rank's equal share [s, e) of the data region [data, size) of the open
   file fd read into *sh (mmio_share_read; its text the caller's to free), fd closed.
   Returns 0, MB_ENOMEM or MB_EIO, the same on every rank. */
static int read_my_share (MPI_Comm comm, int fd, const char *path, long long data,
                          long long size, mmio_share *sh, mb_err *err)
{
  int rank, nranks, rc = 0;
  MPI_Comm_rank (comm, &rank);
  MPI_Comm_size (comm, &nranks);
  /* this rank's bytes [s, e) of the data region [data, size) */
  long long L = size - data;
  long long s = data + (long long) ((double) L * rank / nranks);
  long long e = rank == nranks - 1 ? size
              : data + (long long) ((double) L * (rank + 1) / nranks);
  if (mmio_share_read (fd, data, size, s, e, sh) < 0)
    rc = errno == ENOMEM ? mb_fail (err, MB_ENOMEM, "out of memory reading %s", path)
                         : mb_fail_at (err, MB_EIO, path, 0, 0, "cannot read: %s",
                                       strerror (errno));
  close (fd);
  return mb_agree (comm, rc, err);
}

/* Collective. The entry lines of this rank's share sh parsed into *S_out (new): its lines
   numbered from the prefix sum of the newlines before the share, its entries from the
   prefix sum of the entry lines (only those within the header's nnz kept); the first
   error in file order wins (agree_first); fewer entries than declared in all is the
   error at the file's last line, as mmio_read. Frees sh's text. Returns 0 or an error,
   the same on every rank. */
static int parse_my_share (MPI_Comm comm, const char *path, const mmio_header *h,
                           mmio_share *sh, spm **S_out, mb_err *err)
{
  int rank, rc;
  MPI_Comm_rank (comm, &rank);
  long long before = 0;  /* '\n' in [data, s) */
  MPI_Exscan (&sh->newlines, &before, 1, MPI_LONG_LONG, MPI_SUM, comm);
  if (rank == 0) before = 0;
  size_t first_line = h->size_line + 1 + (size_t) (before + sh->before);

  /* the share's entry lines numbered across the ranks, then parsed */
  long mine = mmio_share_entries (sh), first = 0;
  MPI_Exscan (&mine, &first, 1, MPI_LONG, MPI_SUM, comm);
  if (rank == 0) first = 0;
  long keep = first >= h->nnz ? 0 : mine < h->nnz - first ? mine : h->nnz - first;
  spm *S = spm_create ((int) h->nrows, (int) h->ncols, h->symmetric ? 2 * keep : keep);
  size_t line = first_line;
  rc = S ? mmio_share_parse (path, sh, first_line, h, first, S, &line, err)
         : mb_fail (err, MB_ENOMEM, "out of memory reading %s", path);
  free (sh->text);
  sh->text = NULL;
  rc = agree_first (comm, rc, line, err);

  /* fewer entries than declared: the error at the file's last line, as mmio_read */
  long total = 0;
  long long lines = 0;
  MPI_Allreduce (&mine, &total, 1, MPI_LONG, MPI_SUM, comm);
  MPI_Allreduce (&sh->lines, &lines, 1, MPI_LONG_LONG, MPI_SUM, comm);
  if (rc == 0 && total < h->nnz)
    rc = mmio_fail_short (path, h->size_line + (size_t) lines, total, h, err);
  if (rc < 0) { spm_free (S); return rc; }
  *S_out = S;
  return 0;
}

/* Rank 0 reads the header; every rank reads and parses the entry lines that start in its
   equal share of the bytes after it, numbering its lines from a prefix sum of the newlines
   before its share and its entries from a prefix sum of the entry lines; the first error in
   file order wins. Memory: each rank holds its share's text, then its entries. A small file
   (or one rank, or a file not every rank can open) is read by rank 0 alone, its share the
   whole matrix; the shape then reaches the other ranks by a broadcast.
   Steps: read_on_rank0 (small files), or the header on rank 0, read_my_share and
   parse_my_share. */
int mmio_read_share (MPI_Comm comm, const char *path, long long min_bytes, spm **S_out,
                     int *symmetric, mb_err *err)
{
  int rank, nranks;
  if (symmetric) *symmetric = 0;
  MPI_Comm_rank (comm, &rank);
  MPI_Comm_size (comm, &nranks);
  /* every rank opens the file; rank 0 says whether it is a regular file, and its size */
  int fd = path && nranks > 1 ? open (path, O_RDONLY) : -1;
  long long info[2] = { 0, 0 };  /* [regular file: 1, size] */
  if (rank == 0 && fd >= 0) {
    struct stat st;
    if (fstat (fd, &st) == 0 && S_ISREG (st.st_mode)) info[0] = 1, info[1] = st.st_size;
  }
  MPI_Bcast (info, 2, MPI_LONG_LONG, 0, comm);
  int opened = fd >= 0, all = 0;
  MPI_Allreduce (&opened, &all, 1, MPI_INT, MPI_MIN, comm);
  if (nranks == 1 || !info[0] || !all || info[1] < min_bytes) {  /* rank 0 alone */
    if (fd >= 0) close (fd);
    return read_on_rank0 (comm, path, S_out, err);
  }

  mmio_header h;
  long long data = 0, size = info[1];
  int rc = rank == 0 ? mmio_header_read (fd, size, path, &h, &data, err) : 0;
  rc = mb_agree (comm, rc, err);
  if (rc < 0) { close (fd); return rc; }
  MPI_Bcast (&h, (int) sizeof h, MPI_BYTE, 0, comm);
  MPI_Bcast (&data, 1, MPI_LONG_LONG, 0, comm);
  mmio_share sh;
  rc = read_my_share (comm, fd, path, data, size, &sh, err);
  if (rc < 0) { free (sh.text); return rc; }
  rc = parse_my_share (comm, path, &h, &sh, S_out, err);
  if (rc < 0) return rc;
  if (symmetric) *symmetric = h.symmetric;
  return 0;
}

/* mmio_read_share, then rank 0 gathers the entries in rank order, which is file order, into
   one matrix with room for them all. Memory: rank 0 then holds all entries, as mmio_read
   does, but not the whole text. */
int mmio_read_ranks (MPI_Comm comm, const char *path, long long min_bytes, spm **A,
                     mb_err *err)
{
  int rank, nranks;
  MPI_Comm_rank (comm, &rank);
  MPI_Comm_size (comm, &nranks);
  spm *S = NULL;
  int rc = mmio_read_share (comm, path, min_bytes, &S, NULL, err);
  if (rc < 0) return rc;
  if (nranks == 1) {
    *A = S;
    return 0;
  }
  long stored = S->nnz, all_stored = 0, on_root = S->nnz;
  MPI_Allreduce (&stored, &all_stored, 1, MPI_LONG, MPI_SUM, comm);
  MPI_Bcast (&on_root, 1, MPI_LONG, 0, comm);
  if (on_root == all_stored) {  /* rank 0 read it all (or holds every entry): no copy */
    if (rank == 0) *A = S;
    else spm_free (S);
    return 0;
  }
  spm *T = NULL;
  int no_room = 0;
  if (rank == 0) {
    T = spm_create (S->nrows, S->ncols, all_stored > 0 ? all_stored : 1);
    no_room = !T;
  }
  rc = mb_agree (comm, no_room ? mb_fail (err, MB_ENOMEM, "out of memory reading %s", path)
                               : 0, err);
  if (rc == 0) gather_entries (comm, S, T);
  spm_free (S);
  if (rc == 0 && rank == 0) *A = T;
  return rc;
}
