/* factor_cache.c: one factor kept between a sweep's steps, refactored on its analysis. */
#include "factor_cache.h"

#include <string.h>

void factor_cache_step (factor_cache *c)
{
  if (!c) return;
  c->used = 0;
  c->fell_back = 0;
}

/* 1 when a and b ask for the same factorization (verbosity aside: each rank's own). */
static int same_opts (const factor_opts *a, const factor_opts *b)
{
  return a->icntl14 == b->icntl14 && a->ordering == b->ordering
         && a->pivot_threshold == b->pivot_threshold && a->null_pivots == b->null_pivots
         && a->null_threshold == b->null_threshold && a->null_fixation == b->null_fixation
         && a->low_rank == b->low_rank && a->distributed == b->distributed;
}

/* Collective. The cache's verdict on this factorization: reuse the kept factor's analysis
   (same options and pattern on every rank: factor_same_pattern agrees), else factor anew.
   The kept factor is held once by c (factor_hold) besides the caller's reference; a
   replaced one is freed before the new one is made, so at most one is alive. */
factor *factor_cache_create (factor_cache *c, MPI_Comm comm, factor_kind kind, int n,
                             long nnz, const int *irow, const int *jcol, const void *a,
                             const char *name, const factor_opts *opts, int *reused,
                             mb_err *err)
{
  if (reused) *reused = 0;
  if (!c) return factor_create_opts (comm, kind, n, nnz, irow, jcol, a, name, opts, err);
  factor_opts want;
  if (opts) want = *opts;
  else factor_opts_default (&want);
  int distributed = want.distributed != 0;
  /* c->f and the options are the same on every rank (rank 0's deck, parsed by every rank) */
  int ok = c->f != NULL && same_opts (&c->opts, &want);
  int same = c->f ? factor_same_pattern (comm, c->f, ok, kind, n, nnz, irow, jcol,
                                         distributed) : 0;
  int first = c->used == 0;
  c->used++;
  if (same) {
    factor_reuse (c->f, name);
    mb_err mine;
    mb_err_init (&mine);
    if (factor_refactor (c->f, a, &mine) == 0) {  /* agreed on every rank */
      c->reuses++;
      if (first) c->first_reused = 1;
      if (reused) *reused = 1;
      factor_hold (c->f);
      return c->f;
    }
    c->fell_back++;  /* never a wrong answer: factor anew below, from the same values */
  }
  c->f = factor_free (c->f);
  if (first) c->first_reused = 0;
  factor *f = factor_create_opts (comm, kind, n, nnz, irow, jcol, a, name, &want, err);
  if (!f) return NULL;
  c->f = f;
  c->opts = want;
  c->analyses++;
  factor_hold (f);
  return f;
}

void factor_cache_clear (factor_cache *c)
{
  if (!c) return;
  factor_free (c->f);
  memset (c, 0, sizeof *c);
}
