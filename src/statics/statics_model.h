/* statics_model.h: a model at a state as a static problem (statics.h): assemble_at gives
   the residual and the tangent, model_state_step moves the state on SO(3). */
#ifndef MB_STATICS_MODEL_H
#define MB_STATICS_MODEL_H

#include "../model/assemble.h"
#include "../model/model.h"
#include "../model/state.h"
#include "statics.h"

typedef struct statics_model {
  const model *mdl;                   /* borrowed */
  model_state s;                      /* the current state (its gamma: the last evaluated) */
  model_state slot[STATICS_SLOTS];    /* saved states */
  assembly a;                         /* assemble_at's system at the last evaluation */
  double *r;                          /* n: f_int - f_ext */
  unsigned char *is_rotation;         /* n: rows 6i+3 .. 6i+5 */
  statics_problem p;                  /* the problem; p.ctx = this struct */
} statics_model;

/* Rank 0. The deck configuration of mdl (gamma = 0) as a problem in sm->p. Returns 0 or
   MB_ENOMEM; caller clears with statics_model_clear (also after a failure). sm must not
   move after this call (p.ctx points to it). */
int statics_model_init (const model *mdl, statics_model *sm, mb_err *err);

/* Rank 0. sm->a = the system at the current state with multipliers gamma (m entries), for
   the eigen stages: K with Kc(gamma), M, R, Cq. Returns 0 or MB_ENOMEM. */
int statics_model_assemble (statics_model *sm, const double *gamma, mb_err *err);

void statics_model_clear (statics_model *sm);

#endif
