/* deck_statics.h: the `statics:` section of a model deck: which static equilibrium method
   and its parameters (seed 002's names and defaults; seed 000's p_f). */
#ifndef MB_DECK_STATICS_H
#define MB_DECK_STATICS_H

typedef enum {
  STATICS_FIM,     /* force imbalance method: Newton on F(q, gamma) = 0, C(q) = 0 */
  STATICS_MKEAM    /* maximum kinetic energy attrition, then a FIM polish */
} statics_method;

/* The statics section. present = 0: no static stage (the eigen stages linearize about the
   deck configuration, as without this section). Defaults (seed 002): method fim,
   max_imbalance 1e-4 [N, N m], max_error 1e-4 [m, rad], stability 1e-10, max_num_iter 50
   (fim) or 100 (mkeam), max_ke_tol 1e-5 [J], max_dq_tol 1e-3, p_f 0 (singularity removal
   off, seed 000), allow_unconverged false. */
typedef struct deck_statics {
  int present;            /* 1: the deck has a statics section */
  statics_method method;
  double max_imbalance;   /* > 0: inf-norm of F = f_int - f_ext + Cq^T gamma [N, N m] */
  int imbalance_given;    /* 1: max_imbalance is the deck's (absolute); 0: the default,
                             relative to the load scale with max_imbalance as its floor */
  double max_error;       /* > 0: inf-norm of the Newton update and of C(q) [m, rad] */
  double stability;       /* >= 0: sqrt(stability) M is added to the Newton Jacobian */
  int max_num_iter;       /* >= 1: Newton iterations (fim) or energy peaks (mkeam) */
  double max_ke_tol;      /* > 0: kinetic energy at a peak below which mkeam stops [J] */
  double max_dq_tol;      /* > 0: largest state change over a peak-to-peak iteration */
  double p_f;             /* 0: off; > 0: null pivots become grounded springs p_f |k_max| */
  int allow_unconverged;  /* 1: the eigen stages run about an unconverged best state */
  int line, col;          /* position of the `statics` key (1-based), for messages */
} deck_statics;

/* Every default of the section (seed 002), as an empty `statics:` gives them: method fim,
   its 50 iterations; present = 0. */
void deck_statics_defaults (deck_statics *s);

/* The word for a method ("fim", "mkeam"). Static string. */
const char *deck_statics_method_name (statics_method m);

/* ---- for deck.c only (the parser's context and nodes stay opaque here) ---- */
struct deck_ctx;
struct yaml_node_s;

/* Reads the statics mapping map (section name sec) into c->d->statics: defaults first,
   then every key checked (types, ranges, unknown keys with a "did you mean"). MB_EDECK
   with path:line:col on a bad key or value. */
int deck_statics_section (struct deck_ctx *c, const struct yaml_node_s *map, const char *sec);

/* After the root walk, when the deck has a `statics` key (key node k): an error in a
   matrix deck (model_deck = 0); an empty `statics:` takes the defaults; marks the section
   present and keeps its position. Returns 0 or MB_EDECK. */
int deck_statics_finish (struct deck_ctx *c, const struct yaml_node_s *k, int model_deck);

#endif
