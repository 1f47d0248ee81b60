/* deck_buckling.h: the `buckling:` section of a model deck: the linear buckling stage
   (load factors of the deck's loads) and its Krylov-Schur settings. */
#ifndef MB_DECK_BUCKLING_H
#define MB_DECK_BUCKLING_H

/* The buckling section. enabled = 0 (no section): no buckling stage. Defaults: 5 modes,
   tolerance 1e-10, max_restarts 300, subspace automatic (0). */
typedef struct deck_buckling {
  int enabled;        /* 1: the deck has a buckling section (and 'enabled' is not false) */
  int modes;          /* load factors wanted, 1 .. DECK_MAX_MODES */
  double tolerance;   /* Krylov-Schur: Ritz residual / |mu|, in (0, 1e-2] */
  int max_restarts;   /* >= 1 */
  int subspace;       /* Krylov subspace size; 0 = automatic */
  int line, col;      /* position of the `buckling` key (1-based), for messages */
} deck_buckling;

/* ---- for deck.c only (the parser's context and nodes stay opaque here) ---- */
struct deck_ctx;
struct yaml_node_s;

/* Reads the buckling mapping map (section name sec) into c->d->buckling: defaults first,
   then every key checked. MB_EDECK with path:line:col on a bad key or value. */
int deck_buckling_section (struct deck_ctx *c, const struct yaml_node_s *map,
                           const char *sec);

/* After the root walk, when the deck has a `buckling` key (key node k): an error in a
   matrix deck (model_deck = 0); an empty `buckling:` takes the defaults. Returns 0 or
   MB_EDECK. */
int deck_buckling_finish (struct deck_ctx *c, const struct yaml_node_s *k, int model_deck);

#endif
