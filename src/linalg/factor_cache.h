/* factor_cache.h: one factor kept between the steps of a sweep, refactored on its MUMPS
   analysis while the matrix pattern stays the same. */
#ifndef MB_FACTOR_CACHE_H
#define MB_FACTOR_CACHE_H

#include "factor.h"

/* One cached factorization (e.g. one eigen stage's A - sigma B over a sweep's steps).
   Zero-initialize it (every rank); the same calls on every rank; free with
   factor_cache_clear. Its owner (the sweep) hands it down; NULL means no cache. */
typedef struct factor_cache {
  factor *f;              /* the kept factor, or NULL */
  factor_opts opts;       /* the options f was created with (rank 0's) */
  int used;               /* factorizations through the cache since factor_cache_step */
  int first_reused;       /* the first of them: 1 analysis reused, 0 analysed anew */
  int fell_back;          /* since factor_cache_step: refactorizations that failed and were
                             factored anew */
  long reuses, analyses;  /* over the cache's life: refactorizations, new factors */
} factor_cache;

/* Not collective. Begins a step: used and fell_back restart from 0. NULL: no-op. */
void factor_cache_step (factor_cache *c);

/* Collective on comm. As factor_create_opts (same arguments, same result and errors), with
   c NULL exactly that. With a cache: when c's factor has the same pattern (kind, order,
   input mode, every rank's triplets' rows and columns in order: factor_same_pattern) and
   was created with the same options, it is refactored with the values a (factor_refactor:
   the analysis is reused) and renamed name; a refactorization that fails drops it and
   factors anew. Otherwise the old factor is freed first and a new one made and kept (one
   factor in memory). The result is also held by c: the caller frees it with factor_free as
   usual, which leaves c's copy alive. *reused (may be NULL) = 1 when the analysis was
   reused, else 0, the same on every rank. */
factor *factor_cache_create (factor_cache *c, MPI_Comm comm, factor_kind kind, int n,
                             long nnz, const int *irow, const int *jcol, const void *a,
                             const char *name, const factor_opts *opts, int *reused,
                             mb_err *err);

/* Collective. Frees the kept factor (callers must have freed theirs) and zeroes c. */
void factor_cache_clear (factor_cache *c);

#endif
