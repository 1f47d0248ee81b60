/* test_deck_read.c: deck_read_shared on 1 and 2 ranks: the same bytes or the same error on
   every rank; a missing path, a directory, a file over DECK_MAX_BYTES and /dev/zero end at
   once as MB_EDECK with the path; an allocation failure on one rank is shared. Expected
   messages use the C library's own strerror texts. */
#include <errno.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "deck/deck.h"

static int rank, nranks;

/* CHECK on every rank: each holds its own copy of the result */
#define CHECK_ALL(descr, c) do { int ok_ = (c), all_; \
  MPI_Allreduce (&ok_, &all_, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD); \
  if (rank == 0) CHECK (descr, all_); } while (0)

static char dir[64];  /* a scratch folder made by rank 0, named alike on every rank */

/* rank 0 writes n bytes of s to dir/name; path into buf */
static void make_file (const char *name, const char *s, size_t n, char *buf, size_t size)
{
  snprintf (buf, size, "%s/%s", dir, name);
  if (rank == 0) {
    FILE *f = fopen (buf, "wb");
    if (f) {
      fwrite (s, 1, n, f);
      fclose (f);
    }
  }
  MPI_Barrier (MPI_COMM_WORLD);
}

/* reads path; 1 when every rank got status want and, for an error, where == path and a
   message holding piece */
static int fails_as (const char *path, int want, const char *piece)
{
  char *text = NULL;
  long len = -1;
  mb_err e;
  mb_err_init (&e);
  double t = MPI_Wtime ();
  int rc = deck_read_shared (MPI_COMM_WORLD, path, &text, &len, &e);
  int ok = rc == want && e.code == want && text == NULL && len == -1
           && strstr (e.msg, piece) != NULL && MPI_Wtime () - t < 10.0;
  if (want == MB_EDECK) ok = ok && !strcmp (e.where, path);
  if (!ok && rank == 0) printf ("  %s: rc %d, %s: %s\n", path, rc, e.where, e.msg);
  free (text);
  return ok;
}

static void test_read (void)
{
  static const char deck_text[] = "matrices: {K: a, M: b}\n# \0 a NUL byte is carried too\n";
  char path[128], *text = NULL;
  long len = -1;
  mb_err e;
  mb_err_init (&e);
  make_file ("ok.yaml", deck_text, sizeof deck_text - 1, path, sizeof path);
  int rc = deck_read_shared (MPI_COMM_WORLD, path, &text, &len, &e);
  CHECK_ALL ("a deck is read on every rank", rc == 0 && e.code == 0 && text != NULL);
  CHECK_ALL ("every rank has its bytes", len == (long) sizeof deck_text - 1 && text
             && !memcmp (text, deck_text, sizeof deck_text - 1) && text[len] == '\0');
  free (text);

  text = NULL;
  make_file ("empty.yaml", "", 0, path, sizeof path);
  rc = deck_read_shared (MPI_COMM_WORLD, path, &text, &len, &e);
  CHECK_ALL ("an empty file is 0 bytes, NUL-terminated", rc == 0 && len == 0 && text
             && text[0] == '\0');
  free (text);
}

static void test_refused (void)
{
  char path[128];
  snprintf (path, sizeof path, "%s/nowhere.yaml", dir);
  CHECK_ALL ("missing deck: MB_EDECK with the path and strerror (ENOENT)",
             fails_as (path, MB_EDECK, strerror (ENOENT)));
  CHECK_ALL ("missing deck: the message says what failed",
             fails_as (path, MB_EDECK, "cannot read the deck"));
  CHECK_ALL ("a directory: strerror (EISDIR)", fails_as (dir, MB_EDECK, strerror (EISDIR)));

  /* a sparse file one byte over the cap: refused by its size, without reading it */
  snprintf (path, sizeof path, "%s/big.yaml", dir);
  if (rank == 0) {
    FILE *f = fopen (path, "wb");
    if (f) {
      if (ftruncate (fileno (f), (off_t) DECK_MAX_BYTES + 1) != 0) perror ("ftruncate");
      fclose (f);
    }
  }
  MPI_Barrier (MPI_COMM_WORLD);
  CHECK_ALL ("64 MiB + 1 byte: deck too large, with its size",
             fails_as (path, MB_EDECK, "deck too large: 67108865 bytes, more than the 64 MiB"));
  CHECK_ALL ("/dev/zero: deck too large at once (10 s bound)",
             fails_as ("/dev/zero", MB_EDECK, "deck too large: more than the 64 MiB"));
  CHECK_ALL ("the cap is 64 MiB", DECK_MAX_BYTES == 67108864);
}

/* an allocation failure on one rank (rank 0: reading; rank 1: receiving) is every rank's */
static void test_fault (void)
{
  char path[128];
  make_file ("f.yaml", "title: x\n", 9, path, sizeof path);
  for (int r = 0; r < nranks; r++) {
    char spec[32], descr[80];
    snprintf (spec, sizeof spec, "%d:deck", r);
    mb_fault_set (spec);
    snprintf (descr, sizeof descr, "fault at 'deck' on rank %d: MB_ENOMEM on every rank", r);
    CHECK_ALL (descr, fails_as (path, MB_ENOMEM, "out of memory"));
    mb_fault_set (NULL);
  }
}

int main (int argc, char **argv)
{
  MPI_Init (&argc, &argv);
  MPI_Comm_rank (MPI_COMM_WORLD, &rank);
  MPI_Comm_size (MPI_COMM_WORLD, &nranks);
  long pid = (long) getpid ();
  MPI_Bcast (&pid, 1, MPI_LONG, 0, MPI_COMM_WORLD);
  snprintf (dir, sizeof dir, "/tmp/test_deck_read.%ld", pid);
  if (rank == 0 && mkdir (dir, 0700) != 0) perror (dir);
  MPI_Barrier (MPI_COMM_WORLD);
  test_read ();
  test_refused ();
  test_fault ();
  if (rank == 0) {
    const char *names[] = { "ok.yaml", "empty.yaml", "big.yaml", "f.yaml" };
    char path[128];
    for (int i = 0; i < 4; i++) {
      snprintf (path, sizeof path, "%s/%s", dir, names[i]);
      remove (path);
    }
    rmdir (dir);
  }
  int status = rank == 0 ? CHECK_DONE () : 0;
  MPI_Bcast (&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Finalize ();
  return status;
}
