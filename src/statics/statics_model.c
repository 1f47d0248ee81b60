/* statics_model.c: the model as a static problem: evaluation by assemble_at at the
   current state, steps by the exponential map, DOF names for the singular-tangent error. */
#include "statics_model.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int sm_eval (void *ctx, const double *gamma, statics_eval *e, mb_err *err)
{
  statics_model *sm = ctx;
  int n = sm->p.n, m = sm->p.m;
  if (m > 0) memcpy (sm->s.gamma, gamma, (size_t) m * sizeof *gamma);
  MB_TRY (assemble_at (sm->mdl, &sm->s, &sm->a, err));
  for (int i = 0; i < n; i++) sm->r[i] = sm->a.f_int[i] - sm->a.f_ext[i];
  e->K = sm->a.K, e->M = sm->a.M, e->Cq = sm->a.Cq;
  e->r = sm->r, e->c = sm->a.c, e->fext = sm->a.f_ext;
  e->nonsymmetric = sm->a.nonsymmetric;
  e->R = sm->a.R;
  return 0;
}

static void sm_step (void *ctx, const double *dq, double a)
{
  statics_model *sm = ctx;
  model_state_step (&sm->s, dq, a);
  model_state_track (sm->mdl, &sm->s);  /* rotational springs' angles, continuous */
}

static void sm_save (void *ctx, int slot)
{
  statics_model *sm = ctx;
  model_state_assign (&sm->slot[slot], &sm->s);
}

static void sm_load (void *ctx, int slot)
{
  statics_model *sm = ctx;
  model_state_assign (&sm->s, &sm->slot[slot]);
}

/* "body 'b' dx", "beam 'arm' node 3 rz" */
static void sm_dof_name (void *ctx, int i, char *buf, size_t size)
{
  statics_model *sm = ctx;
  const model_node *nd = &sm->mdl->nodes[i / 6];
  const char *dof = model_dof_label (i % 6);
  if (nd->body >= 0) snprintf (buf, size, "body '%s' %s", sm->mdl->bodies[nd->body].name, dof);
  else if (nd->beam >= 0)
    snprintf (buf, size, "beam '%s' node %d %s", sm->mdl->beams[nd->beam].name,
              nd->beam_index, dof);
  else snprintf (buf, size, "node '%s' %s", nd->name, dof);
}

int statics_model_init (const model *mdl, statics_model *sm, mb_err *err)
{
  memset (sm, 0, sizeof *sm);
  sm->mdl = mdl;
  int n = 6 * mdl->nnodes, m = mdl->nconstraints;
  MB_TRY (model_state_init (mdl, &sm->s, err));
  for (int k = 0; k < STATICS_SLOTS; k++) MB_TRY (model_state_copy (&sm->s, &sm->slot[k], err));
  sm->r = mb_calloc ((size_t) n + 1, sizeof *sm->r);
  sm->is_rotation = mb_calloc ((size_t) n + 1, 1);
  if (!sm->r || !sm->is_rotation || mb_fault ("statics"))
    return mb_fail (err, MB_ENOMEM, "out of memory for the static stage (n = %d)", n);
  for (int i = 0; i < n; i++) sm->is_rotation[i] = i % 6 >= 3;
  statics_problem p = { n, m, sm, sm_eval, sm_step, sm_save, sm_load, sm_dof_name,
                        sm->is_rotation };
  sm->p = p;
  return 0;
}

int statics_model_assemble (statics_model *sm, const double *gamma, mb_err *err)
{
  statics_eval e;
  return sm_eval (sm, gamma, &e, err);
}

void statics_model_clear (statics_model *sm)
{
  if (!sm) return;
  model_state_clear (&sm->s);
  for (int k = 0; k < STATICS_SLOTS; k++) model_state_clear (&sm->slot[k]);
  assembly_clear (&sm->a);
  free (sm->r);
  free (sm->is_rotation);
  memset (sm, 0, sizeof *sm);
}
