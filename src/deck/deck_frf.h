/* deck_frf.h: the `frf:` section: named inputs and outputs, frequencies and damping of a
   frequency response by modal superposition (and of its state-space export). */
#ifndef MB_DECK_FRF_H
#define MB_DECK_FRF_H

#include "deck_model.h"

typedef enum { FRF_DISPLACEMENT = 0, FRF_VELOCITY = 1, FRF_ACCELERATION = 2 } frf_quantity;

/* One input (a force or torque) or output (a displacement, velocity or acceleration). */
typedef struct deck_frf_point {
  char *name;          /* as given, or "in1", "out2", ... */
  char *node;          /* model deck: the node's name (resolved by the run); NULL otherwise */
  double dir[3];       /* model deck: unit direction in global axes */
  int rotation;        /* model deck: 1 torque input / rotation output, 0 force / translation */
  int dof;             /* matrix deck: the DOF, 1-based; 0 in a model deck */
  int quantity;        /* outputs: frf_quantity; inputs: FRF_DISPLACEMENT (unused) */
  deck_pos pos;        /* the item's node or dof value, for messages */
} deck_frf_point;

/* The frf section (present = 0: none). */
typedef struct deck_frf {
  int present;
  int ninputs, noutputs;
  deck_frf_point *inputs, *outputs;   /* owned */
  double fmin, fmax;   /* [Hz], 0 < fmin < fmax */
  int count;           /* frequencies, 2 .. 100000 */
  int log_spacing;     /* 1: log (default), 0: linear */
  int complex_modes;   /* 1: damping 'complex': the damped stage's modes */
  int nratios;         /* modal damping ratios given (1: one for every mode) */
  double *ratios;      /* owned, each in [0, 1) */
  int static_correction; /* 1 (default): residual flexibility of the modes left out */
  char *state_space;   /* folder for the state-space export, NULL: none */
  int state_space_full;  /* 1: the full first-order model; 0 (default): modal */
  int line, col;       /* the frf key */
} deck_frf;

/* ---- for deck.c only ---- */
struct deck_ctx;
struct yaml_node_s;

/* Reads the frf mapping into c->d->frf (every key, type and range checked). */
int deck_frf_section (struct deck_ctx *c, const struct yaml_node_s *map, const char *sec);

/* After the root walk (frf key node k): inputs and outputs by node in a model deck, by
   dof in a matrix deck; the stage the damping needs enabled. Returns 0 or MB_EDECK. */
int deck_frf_finish (struct deck_ctx *c, const struct yaml_node_s *k, int model_deck);

/* Frees the section's arrays and zeroes it. */
void deck_frf_clear (deck_frf *f);

#endif
