/* body.c: the rigid body element: mass and inertia at its node (the centre of mass), its
   weight, and the pose helpers of nodes at a state shared by the element files. */
#include "elements.h"

/* dR = R R0^T; identity for ground or a node at its deck pose. */
void node_drot (const model *m, const model_state *s, int i, double dR[9])
{
  if (node_at_deck (m, s, i)) {
    memset (dR, 0, 9 * sizeof *dR);
    dR[0] = dR[4] = dR[8] = 1.0;
    return;
  }
  double R0t[9];
  mat_transpose (m->nodes[i].R, R0t);
  mat_mul (node_Rs (m, s, i), R0t, dR);
}

/* r = dR (p0 - x0), p = x + r; exactly r = p0 - x0, p = p0 at the deck pose; ground:
   r = 0 (its block is dropped), p = p0. */
void node_point (const model *m, const model_state *s, int i, const double p0[3],
                 double r[3], double p[3])
{
  if (i < 0) {
    r[0] = r[1] = r[2] = 0.0;
    memcpy (p, p0, 3 * sizeof *p);
    return;
  }
  double r0[3];
  vec_sub (p0, m->nodes[i].x, r0);
  if (node_at_deck (m, s, i)) {
    memcpy (r, r0, sizeof r0);
    memcpy (p, p0, 3 * sizeof *p);
    return;
  }
  double dR[9];
  const double *x = node_xs (m, s, i);
  node_drot (m, s, i, dR);
  mat_vec (dR, r0, r);
  for (int k = 0; k < 3; k++) p[k] = x[k] + r[k];
}

/* e = dR e0 (e0 for ground or the deck pose). */
void node_dir (const model *m, const model_state *s, int i, const double e0[3], double e[3])
{
  if (node_at_deck (m, s, i)) { memcpy (e, e0, 3 * sizeof *e); return; }
  double dR[9];
  node_drot (m, s, i, dR);
  mat_vec (dR, e0, e);
}

/* M = diag(m I3, J) with J = dR J0 dR^T (J0 global at the deck, about the centre of
   mass); the whole 6 x 6 block is kept (zeros included). Weight m g at the node. */
void body_element (const model *m, const model_state *s, int i, int flags, elem *e)
{
  const model_body *b = &m->bodies[i];
  memset (e, 0, sizeof *e);
  e->nnode = 1;
  e->node[0] = b->node;
  e->node[1] = MODEL_GROUND;
  e->has_M = 1;
  for (int k = 0; k < 3; k++) e->M[12 * k + k] = b->mass;
  if (node_at_deck (m, s, b->node)) blk_add (e->M, 1, 1, 1.0, b->J);
  else {
    double dR[9], dRt[9], T[9], J[9];
    node_drot (m, s, b->node, dR);
    mat_transpose (dR, dRt);
    mat_mul (dR, b->J, T);
    mat_mul (T, dRt, J);
    blk_add (e->M, 1, 1, 1.0, J);
  }
  if (flags & EVAL_GRAVITY)
    for (int k = 0; k < 3; k++) e->f_ext[k] = b->mass * m->gravity[k];
}
