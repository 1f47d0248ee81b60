/* check.h: a tiny test harness: CHECK counts, CHECK_DONE prints "N passed, N failed". */
#ifndef MB_CHECK_H
#define MB_CHECK_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static int n_run, n_pass;
#define CHECK(descr, c) do { n_run++; if (c) n_pass++; else \
  printf ("FAIL %s:%d: %s\n", __FILE__, __LINE__, descr); } while (0)
#define CHECK_DONE() (printf ("%d passed, %d failed\n", n_pass, n_run - n_pass), \
  n_run != n_pass)

/* The whole file as a NUL-terminated string (caller frees), NULL if unreadable. */
static inline char *slurp (const char *path)
{
  FILE *f = fopen (path, "rb");
  if (!f) return NULL;
  size_t cap = 1 << 16, len = 0, got;
  char *s = malloc (cap);
  while (s && (got = fread (s + len, 1, cap - len - 1, f)) > 0) {
    len += got;
    if (cap - len - 1 == 0) {
      char *t = realloc (s, cap *= 2);
      if (!t) free (s);
      s = t;
    }
  }
  fclose (f);
  if (s) s[len] = '\0';
  return s;
}

/* The next number of a xorshift64 sequence whose state (nonzero) the caller owns: the same
   pseudo-random test data on every run. */
static inline uint64_t xorshift64 (uint64_t *state)
{
  *state ^= *state << 13;
  *state ^= *state >> 7;
  *state ^= *state << 17;
  return *state;
}

#endif
