/* deck_solver.c: the `solver:` section of a deck, every key and range checked.

   solver := { block?: int 0..16, ordering?: auto | amd | amf | scotch | pord | metis |
               qamd | mumps, workspace?: int 0..1048576 [%], low_rank?: real in [0, 1e-2],
               early_exit?: bool, lagged_orthogonalization?: bool }
   Matrix and model decks. An absent or empty `solver:` keeps the defaults (block 0 =
   automatic, ordering auto = the stage's own choice, workspace 30 %, low_rank 0 = exact
   factors, early_exit and lagged_orthogonalization true). */
#include "deck_yaml.h"

#include <string.h>

#include "deck_solver.h"

/* The orderings by name, with their ICNTL(7) codes (-1: auto, the stage's own choice). */
static const struct { const char *name; int icntl7; } orderings[] = {
  { "auto", -1 }, { "amd", 0 }, { "amf", 2 }, { "scotch", 3 }, { "pord", 4 },
  { "metis", 5 }, { "qamd", 6 }, { "mumps", 7 },
};
enum { NORDERINGS = (int) (sizeof orderings / sizeof orderings[0]) };

void deck_solver_defaults (deck_solver *s)
{
  memset (s, 0, sizeof *s);
  s->early_exit = 1;
  s->lagged_orthogonalization = 1;
}

/* ordering: one of the names above (case-insensitive), with a "did you mean" */
static int ordering_value (deck_ctx *c, const char *sec, deck_field *f)
{
  const yaml_node_t *v = f->v;
  deck_solver *s = f->dst;
  char g[96], hint[64] = "";
  if (v->type == YAML_SCALAR_NODE && !deck_is_null (v))
    for (int i = 0; i < NORDERINGS; i++)
      if (deck_same_nocase (v, orderings[i].name)) {
        s->has_ordering = orderings[i].icntl7 >= 0;
        s->ordering = orderings[i].icntl7 >= 0 ? orderings[i].icntl7 : 0;
        return 0;
      }
  if (v->type == YAML_SCALAR_NODE && !deck_is_null (v)) {
    int best = 3;
    for (int i = 0; i < NORDERINGS; i++) {
      int d = deck_distance (v->data.scalar.value, v->data.scalar.length, orderings[i].name);
      if (d < best)
        best = d, snprintf (hint, sizeof hint, "; did you mean '%s'?", orderings[i].name);
    }
  }
  return deck_fail_at (c, deck_is_null (v) ? f->k : v, "%s: 'ordering' must be auto, amd, "
                       "amf, scotch, pord, metis, qamd or mumps (got %s%s)", sec,
                       deck_describe (v, g, sizeof g), hint);
}

int deck_solver_section (deck_ctx *c, const yaml_node_t *map, const char *sec)
{
  deck_solver *s = &c->d->solver;
  deck_solver_defaults (s);
  deck_field f[] = {
    { .key = "block", .type = F_INT, .dst = &s->block, .lo = 0, .hi = 16,
      .range = "in 0..16 (0 = automatic)" },
    { .key = "ordering", .type = F_FN, .dst = s, .parse = ordering_value },
    { .key = "workspace", .type = F_INT, .dst = &s->workspace, .lo = 0, .hi = 1048576,
      .range = "in 0..1048576 [%]" },
    { .key = "low_rank", .type = F_REAL, .dst = &s->low_rank, .lo = 0, .hi = 1e-2,
      .range = "in [0, 1e-2] (0 = exact factors)" },
    { .key = "early_exit", .type = F_BOOL, .dst = &s->early_exit },
    { .key = "lagged_orthogonalization", .type = F_BOOL,
      .dst = &s->lagged_orthogonalization },
  };
  MB_TRY (deck_walk (c, map, sec, f, (int) (sizeof f / sizeof f[0])));
  s->has_workspace = f[2].k != NULL;
  return 0;
}
