/* toy_model.h: a small model built by hand (no deck, no model_build) for the report, VTK
   and export tests: two bodies, a beam of two elements, a spring, a bushing to ground, a
   point force, a revolute joint and a distance joint. model_clear frees it. */
#ifndef MB_TOY_MODEL_H
#define MB_TOY_MODEL_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "model/model.h"

/* Toy numbers, chosen so that energies have closed forms (see test_report.c). */
#define TOY_M_TIP 2.0      /* [kg] */
#define TOY_M_HUB 3.0      /* [kg] */
#define TOY_RHO 1000.0     /* [kg/m^3] */
#define TOY_A 1e-3         /* [m^2] */
#define TOY_E 6e6          /* [Pa] */
#define TOY_L 2.0          /* beam length [m] */
#define TOY_K 1000.0       /* spring [N/m] */

static char *toy_str (const char *s)
{
  char *c = malloc (strlen (s) + 1);
  if (c) strcpy (c, s);
  return c;
}

static void toy_identity (double R[9])
{
  memset (R, 0, 9 * sizeof *R);
  R[0] = R[4] = R[8] = 1.0;
}

/* Nodes: 0 tip (body) at (0,0,0); 1 hub (body) at (1,0,0); 2..4 arm.0..arm.2 along x from
   (0,1,0) to (2,1,0), arm.0 also named "root". Forces: spring s1 tip-hub along x
   (k = TOY_K), bushing "mount" ground-hub at (1,0,-0.5), point force "push" on tip.
   Joints: revolute "hinge" ground-tip about z (rows 0..4), distance "tie" hub-arm.2
   (row 5). */
static void toy_model_build (model *m)
{
  memset (m, 0, sizeof *m);
  m->nnodes = 5;
  m->nodes = calloc (5, sizeof *m->nodes);
  static const char *const names[5] = { "tip", "hub", "arm.0", "arm.1", "arm.2" };
  static const double xyz[5][3] = { { 0, 0, 0 }, { 1, 0, 0 }, { 0, 1, 0 }, { 1, 1, 0 },
                                    { 2, 1, 0 } };
  for (int i = 0; i < 5; i++) {
    model_node *nd = &m->nodes[i];
    nd->name = toy_str (names[i]);
    memcpy (nd->x, xyz[i], sizeof nd->x);
    toy_identity (nd->R);
    nd->body = i < 2 ? i : -1;
    nd->beam = i < 2 ? -1 : 0;
    nd->beam_index = i < 2 ? 0 : i - 2;
  }
  /* aliases sorted by name (strcmp) */
  static const char *const al[] = { "arm.0", "arm.1", "arm.2", "arm.end", "arm.start", "hub",
                                    "root", "tip" };
  static const int aln[] = { 2, 3, 4, 4, 2, 1, 2, 0 };
  m->naliases = 8;
  m->aliases = calloc (8, sizeof *m->aliases);
  for (int i = 0; i < 8; i++) {
    m->aliases[i].name = toy_str (al[i]);
    m->aliases[i].node = aln[i];
  }
  m->nbodies = 2;
  m->bodies = calloc (2, sizeof *m->bodies);
  for (int i = 0; i < 2; i++) {
    model_body *b = &m->bodies[i];
    b->name = toy_str (names[i]);
    b->node = i;
    b->mass = i == 0 ? TOY_M_TIP : TOY_M_HUB;
    memset (b->J, 0, sizeof b->J);
    b->J[0] = b->J[4] = b->J[8] = 0.1 * (i + 1);
  }
  m->nbeams = 1;
  m->beams = calloc (1, sizeof *m->beams);
  model_beam *bm = &m->beams[0];
  bm->name = toy_str ("arm");
  bm->first_node = 2;
  bm->nelements = 2;
  bm->E = TOY_E;
  bm->G = TOY_E / 2.6;
  bm->rho = TOY_RHO;
  bm->A = TOY_A;
  bm->Iy = bm->Iz = 1e-7;
  bm->J = 2e-7;
  bm->y_axis[1] = 1.0;
  m->nforces = 3;
  m->forces = calloc (3, sizeof *m->forces);
  model_force *s = &m->forces[0];
  s->name = toy_str ("s1");
  s->type = FORCE_SPRING;
  s->a = 0;
  s->b = 1;
  memcpy (s->pa, xyz[0], sizeof s->pa);
  memcpy (s->pb, xyz[1], sizeof s->pb);
  s->k = TOY_K;
  s->free_length = 1.0;
  toy_identity (s->R);
  model_force *bu = &m->forces[1];
  bu->name = toy_str ("mount");
  bu->type = FORCE_BUSHING;
  bu->a = MODEL_GROUND;
  bu->b = 1;
  bu->x[0] = 1.0;
  bu->x[2] = -0.5;
  memcpy (bu->pa, bu->x, sizeof bu->pa);
  memcpy (bu->pb, bu->x, sizeof bu->pb);
  toy_identity (bu->R);
  for (int k = 0; k < 6; k++) bu->K6[7 * k] = 1.0;  /* tiny: no effect on the test modes */
  model_force *pf = &m->forces[2];
  pf->name = toy_str ("push");
  pf->type = FORCE_POINT;
  pf->a = 0;
  pf->b = -2;
  toy_identity (pf->R);
  m->njoints = 2;
  m->joints = calloc (2, sizeof *m->joints);
  model_joint *h = &m->joints[0];
  h->name = toy_str ("hinge");
  h->type = JOINT_REVOLUTE;
  h->a = MODEL_GROUND;
  h->b = 0;
  toy_identity (h->R);
  h->nrows = 5;  /* v1 v2 v3 w1 w2 in frame axes = global axes */
  for (int k = 0; k < 5; k++) {
    h->is_rotation[k] = k >= 3;
    h->frame_axis[k] = k % 3;
    h->dir[k][k % 3] = 1.0;
  }
  h->first_row = 0;
  model_joint *t = &m->joints[1];
  t->name = toy_str ("tie, \"long\"");  /* a name CSV must quote */
  t->type = JOINT_DISTANCE;
  t->a = 1;
  t->b = 4;
  memcpy (t->pa, xyz[1], sizeof t->pa);
  memcpy (t->pb, xyz[4], sizeof t->pb);
  toy_identity (t->R);
  t->nrows = 1;
  t->frame_axis[0] = -1;
  t->dir[0][0] = t->dir[0][1] = 1.0 / sqrt (2.0);
  t->first_row = 5;
  m->nconstraints = 6;
}

#endif
