/* deck_read.c: the deck's bytes: rank 0 reads the file (at most DECK_MAX_BYTES) and
   broadcasts them, so that every rank parses the same text or meets the same error. */
#include "deck.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Rank 0: the bytes of path into *buf (NUL-terminated, caller frees) and their count into
   *n; refuses a directory, a file larger than DECK_MAX_BYTES (by its size when it has one,
   else after reading one byte past the cap, so /dev/zero ends at once) and a read error.
   Returns 0, MB_EDECK with the path and strerror, or MB_ENOMEM. */
static int read_file (const char *path, char **buf, size_t *n, mb_err *err)
{
  const size_t cap = DECK_MAX_BYTES;
  char *b = NULL;
  size_t size = 0, used = 0;
  int rc = 0;
  errno = 0;
  FILE *f = fopen (path, "rb");
  if (!f)
    return mb_fail_at (err, MB_EDECK, path, 0, 0, "cannot read the deck: %s",
                       strerror (errno ? errno : EIO));
  struct stat st;
  if (fstat (fileno (f), &st) == 0 && S_ISDIR (st.st_mode))
    rc = mb_fail_at (err, MB_EDECK, path, 0, 0, "cannot read the deck: %s", strerror (EISDIR));
  else if (fstat (fileno (f), &st) == 0 && S_ISREG (st.st_mode) && st.st_size > (off_t) cap)
    rc = mb_fail_at (err, MB_EDECK, path, 0, 0, "deck too large: %lld bytes, more than the"
                     " %zu MiB a deck may hold (large matrices belong in Matrix Market"
                     " files that the deck names)", (long long) st.st_size, cap >> 20);
  while (rc == 0) {
    if (used == size) {  /* grow: 64 KiB, doubling, up to one byte past the cap */
      size_t next = size ? 2 * size : (size_t) 1 << 16;
      if (next > cap + 1) next = cap + 1;
      char *nb = mb_fault ("deck") ? NULL : realloc (b, next + 1);
      if (!nb) {
        rc = mb_fail (err, MB_ENOMEM, "out of memory reading the deck %s (%zu bytes)", path,
                      next + 1);
        break;
      }
      b = nb;
      size = next;
    }
    size_t got = fread (b + used, 1, size - used, f);
    used += got;
    if (used > cap)
      rc = mb_fail_at (err, MB_EDECK, path, 0, 0, "deck too large: more than the %zu MiB a"
                       " deck may hold (large matrices belong in Matrix Market files that the"
                       " deck names)", cap >> 20);
    else if (got == 0 && ferror (f))
      rc = mb_fail_at (err, MB_EDECK, path, 0, 0, "cannot read the deck: %s",
                       strerror (errno ? errno : EIO));
    else if (got == 0)
      break;  /* end of file */
  }
  fclose (f);
  if (rc < 0) {
    free (b);
    return rc;
  }
  if (!b && !(b = mb_fault ("deck") ? NULL : malloc (1)))  /* an empty file */
    return mb_fail (err, MB_ENOMEM, "out of memory reading the deck %s", path);
  b[used] = '\0';
  *buf = b;
  *n = used;
  return 0;
}

int deck_read_shared (MPI_Comm comm, const char *path, char **text, long *len, mb_err *err)
{
  int rank;
  MPI_Comm_rank (comm, &rank);
  char *buf = NULL;
  size_t n = 0;
  int rc = rank == 0 ? read_file (path ? path : "", &buf, &n, err) : 0;
  rc = mb_agree (comm, rc, err);
  if (rc < 0) {
    free (buf);
    return rc;
  }
  long ln = (long) n;  /* <= DECK_MAX_BYTES: fits a long and an int count */
  MPI_Bcast (&ln, 1, MPI_LONG, 0, comm);
  if (rank != 0) {
    buf = mb_fault ("deck") ? NULL : malloc ((size_t) ln + 1);
    rc = buf ? 0 : mb_fail (err, MB_ENOMEM, "out of memory for the deck (%ld bytes)", ln);
  }
  rc = mb_agree (comm, rc, err);
  if (rc < 0) {
    free (buf);
    return rc;
  }
  MPI_Bcast (buf, (int) ln, MPI_CHAR, 0, comm);
  buf[ln] = '\0';
  *text = buf;
  *len = ln;
  return 0;
}
