/* check.h: a tiny test harness: CHECK counts, CHECK_DONE prints "N passed, N failed". */
#ifndef MB_CHECK_H
#define MB_CHECK_H

#include <stdio.h>

static int n_run, n_pass;
#define CHECK(descr, c) do { n_run++; if (c) n_pass++; else \
  printf ("FAIL %s:%d: %s\n", __FILE__, __LINE__, descr); } while (0)
#define CHECK_DONE() (printf ("%d passed, %d failed\n", n_pass, n_run - n_pass), \
  n_run != n_pass)

#endif
