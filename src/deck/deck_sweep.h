/* deck_sweep.h: the `sweep:` section of a model deck: one or two deck values, named by
   path, stepped over a list or a range (src/sweep.c runs it). */
#ifndef MB_DECK_SWEEP_H
#define MB_DECK_SWEEP_H

#include "deck_model.h"

enum { DECK_SWEEP_MAX_PATHS = 2,       /* deck values set to each step's value */
       DECK_SWEEP_MAX_VALUES = 10000,  /* steps */
       DECK_SWEEP_MAX_ORDERS = 4 };    /* excitation orders of a Campbell diagram */

/* present = 0: no sweep section. Paths are kept as text here; src/sweep.c resolves them
   against the parsed model (bodies.NAME.mass, forces.NAME.k, ...) and checks each value
   against the range of the key it sets. */
typedef struct deck_sweep {
  int present;
  int npaths;                          /* 1 or 2: every path takes the step's value */
  char *path[DECK_SWEEP_MAX_PATHS];    /* "bodies.tip.mass", ... */
  deck_pos pos_path[DECK_SWEEP_MAX_PATHS];
  int nvalues;                         /* >= 1 */
  double *values;                      /* the steps' values, in order */
  deck_pos pos_values;                 /* the values or range value */
  int norders;                         /* orders: excitation lines of a spin sweep */
  double orders[DECK_SWEEP_MAX_ORDERS];  /* default 1, 2 */
  double mac_min;                      /* below it a tracked mode is lost; default 0.5 */
  deck_pos pos;                        /* the sweep key */
} deck_sweep;

/* ---- for deck.c only ---- */
struct deck_ctx;
struct yaml_node_s;

/* Reads the sweep mapping: parameter: PATH | [PATH, PATH] (required), exactly one of
   values: [v, ...] and range: {from, to, steps >= 2}, orders?: [k, ...] (> 0),
   mac_min?: (0, 1). MB_EDECK at the offending key or value. */
int deck_sweep_section (struct deck_ctx *c, const struct yaml_node_s *map, const char *sec);

/* After the root walk, with the sweep key k: a model deck is required. */
int deck_sweep_finish (struct deck_ctx *c, const struct yaml_node_s *k, int model_deck);

/* Frees the paths and values and zeroes *s. */
void deck_sweep_clear (deck_sweep *s);

#endif
