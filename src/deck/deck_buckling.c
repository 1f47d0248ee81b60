/* deck_buckling.c: the `buckling:` section of a model deck, every key and range checked.

   buckling := { enabled?: bool, modes?: int >= 1, tolerance?: real in (0, 1e-2],
                 max_restarts?: int >= 1, subspace?: int >= modes + 2 }
   Model decks only. An empty `buckling:` asks for the 5 lowest load factors. */
#include "deck_yaml.h"

#include <limits.h>
#include <math.h>
#include <string.h>

#include "deck.h"

/* the defaults of deck_buckling.h; enabled until the deck says otherwise */
static void buckling_defaults (deck_buckling *b)
{
  memset (b, 0, sizeof *b);
  b->enabled = 1;
  b->modes = 5;
  b->tolerance = 1e-10;
  b->max_restarts = 300;
}

int deck_buckling_section (deck_ctx *c, const yaml_node_t *map, const char *sec)
{
  deck_buckling *b = &c->d->buckling;
  buckling_defaults (b);
  deck_field f[] = {
    { .key = "enabled", .type = F_BOOL, .dst = &b->enabled },
    { .key = "modes", .type = F_INT, .dst = &b->modes, .lo = 1, .hi = DECK_MAX_MODES,
      .range = ">= 1", .cap = "the eigen stages' cap on modes" },
    { .key = "tolerance", .type = F_REAL, .dst = &b->tolerance, .lo = 0, .lo_open = 1,
      .hi = 1e-2, .range = "in (0, 1e-2]" },
    { .key = "max_restarts", .type = F_INT, .dst = &b->max_restarts, .lo = 1,
      .hi = INT_MAX, .range = ">= 1" },
    { .key = "subspace", .type = F_INT, .dst = &b->subspace, .lo = 3,
      .hi = DECK_MAX_SUBSPACE, .range = ">= modes + 2",
      .cap = "the eigen stages' cap on the subspace" },
  };
  MB_TRY (deck_walk (c, map, sec, f, (int) (sizeof f / sizeof f[0])));
  if (f[4].k && b->subspace < b->modes + 2)
    return deck_fail_at (c, f[4].v, "%s: 'subspace' (%d) must be at least modes + 2 (%d)",
                         sec, b->subspace, b->modes + 2);
  return 0;
}

int deck_buckling_finish (deck_ctx *c, const yaml_node_t *k, int model_deck)
{
  deck_buckling *b = &c->d->buckling;
  if (!model_deck)
    return deck_fail_at (c, k, "'buckling' needs a model deck (beams, joints, forces): a "
                         "matrix deck has no loads to scale");
  if (b->modes == 0) buckling_defaults (b);  /* `buckling:` with an empty value */
  b->line = (int) k->start_mark.line + 1;
  b->col = (int) k->start_mark.column + 1;
  return 0;
}
