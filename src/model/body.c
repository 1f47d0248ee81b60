/* body.c: the rigid body element: mass and inertia at its node (the centre of mass). */
#include "elements.h"

/* M = diag(m I3, J) with J = R J_body R^T (global axes, about the centre of mass); the
   whole 6 x 6 block is kept (zeros included). No stiffness, no damping. */
void body_element (const model *m, int i, elem *e)
{
  const model_body *b = &m->bodies[i];
  memset (e, 0, sizeof *e);
  e->nnode = 1;
  e->node[0] = b->node;
  e->node[1] = MODEL_GROUND;
  e->has_M = 1;
  for (int k = 0; k < 3; k++) e->M[12 * k + k] = b->mass;
  blk_add (e->M, 1, 1, 1.0, b->J);
}
