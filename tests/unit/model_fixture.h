/* model_fixture.h: builds deck_model structs by hand for the model and assembly tests
   (the YAML parser is tested on its own), plus small independent math helpers. */
#ifndef MB_MODEL_FIXTURE_H
#define MB_MODEL_FIXTURE_H

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "deck/deck_model.h"
#include "linalg/sparse.h"
#include "model/assemble.h"
#include "model/model.h"

enum { TD_MAX = 512, TD_PTS = 8 };

/* A deck_model with fixed-size storage; names are string literals (model_build copies). */
typedef struct tdeck {
  deck_model dm;
  deck_material mats[8];
  deck_section secs[8];
  deck_body bodies[TD_MAX];
  deck_beam beams[16];
  deck_joint joints[TD_MAX];
  deck_force forces[32];
  double pts[16][3 * TD_PTS];
  int els[16][TD_PTS];
  deck_beam_node named[16][4];
} tdeck;

static inline void td_init (tdeck *t)
{
  memset (t, 0, sizeof *t);
  t->dm.present = 1;
  t->dm.materials = t->mats;
  t->dm.sections = t->secs;
  t->dm.bodies = t->bodies;
  t->dm.beams = t->beams;
  t->dm.joints = t->joints;
  t->dm.forces = t->forces;
}

static inline deck_pos td_pos (size_t line, size_t col)
{
  deck_pos p = { line, col };
  return p;
}

static inline void eye3 (double R[9])
{
  memset (R, 0, 9 * sizeof *R);
  R[0] = R[4] = R[8] = 1.0;
}

static inline deck_material *td_material (tdeck *t, char *name, double E, double G, double rho)
{
  deck_material *m = &t->mats[t->dm.nmaterials++];
  m->name = name; m->E = E; m->G = G; m->rho = rho;
  m->pos = td_pos (100 + (size_t) t->dm.nmaterials, 3);
  return m;
}

static inline deck_section *td_section (tdeck *t, char *name, double A, double Iy, double Iz,
                                 double J)
{
  deck_section *s = &t->secs[t->dm.nsections++];
  s->name = name; s->A = A; s->Iy = Iy; s->Iz = Iz; s->J = J;
  s->pos = td_pos (200 + (size_t) t->dm.nsections, 3);
  return s;
}

/* a body with principal inertia Jd (body axes), axes R (NULL: identity) */
static inline deck_body *td_body (tdeck *t, char *name, double mass, const double Jd[3],
                           const double x[3], const double *R)
{
  deck_body *b = &t->bodies[t->dm.nbodies++];
  b->name = name;
  b->mass = mass;
  for (int i = 0; i < 3; i++) { b->J[4 * i] = Jd ? Jd[i] : 0.0; b->x[i] = x[i]; }
  if (R) memcpy (b->R, R, sizeof b->R);
  else eye3 (b->R);
  b->pos = td_pos (300 + (size_t) t->dm.nbodies, 3);
  return b;
}

/* a polyline beam through npts points (3 npts doubles), els[s] elements per segment,
   y axis (NULL: not given) */
static inline deck_beam *td_beam (tdeck *t, char *name, char *mat, char *sec, int npts,
                           const double *pts, const int *els, const double *y)
{
  int ib = t->dm.nbeams++;
  deck_beam *b = &t->beams[ib];
  b->name = name;
  b->material = mat;
  b->section = sec;
  b->npoints = npts;
  memcpy (t->pts[ib], pts, 3 * (size_t) npts * sizeof *pts);
  memcpy (t->els[ib], els, (size_t) (npts - 1) * sizeof *els);
  b->points = t->pts[ib];
  b->elements = t->els[ib];
  if (y) {
    double n = sqrt (y[0] * y[0] + y[1] * y[1] + y[2] * y[2]);
    b->has_y_axis = 1;
    for (int i = 0; i < 3; i++) b->y_axis[i] = y[i] / n;
  }
  b->named = t->named[ib];
  b->pos = td_pos (400 + (size_t) ib * 10, 3);
  b->pos_material = td_pos (401 + (size_t) ib * 10, 15);
  b->pos_section = td_pos (402 + (size_t) ib * 10, 14);
  b->pos_y_axis = td_pos (403 + (size_t) ib * 10, 13);
  return b;
}

static inline void td_beam_name (tdeck *t, deck_beam *b, char *name, int index)
{
  int ib = (int) (b - t->beams);
  deck_beam_node *n = &t->named[ib][b->nnamed++];
  n->name = name;
  n->index = index;
  n->pos = td_pos (404 + (size_t) ib * 10 + (size_t) b->nnamed, 7);
}

static inline deck_joint *td_joint (tdeck *t, char *name, joint_type type, char *a, char *b)
{
  int k = t->dm.njoints++;
  deck_joint *j = &t->joints[k];
  j->name = name;
  j->type = type;
  j->node[0].name = a;
  j->node[1].name = b;
  j->node[0].pos = td_pos (1000 + (size_t) k * 10, 13);
  j->node[1].pos = td_pos (1000 + (size_t) k * 10, 21);
  eye3 (j->R);
  j->pos = td_pos (1001 + (size_t) k * 10, 3);
  return j;
}

static inline deck_force *td_force (tdeck *t, char *name, force_type type, char *a, char *b)
{
  int k = t->dm.nforces++;
  deck_force *f = &t->forces[k];
  f->name = name;
  f->type = type;
  f->nnodes = b ? 2 : 1;
  f->node[0].name = a;
  f->node[1].name = b;
  f->node[0].pos = td_pos (2000 + (size_t) k * 10, 11);
  f->node[1].pos = td_pos (2000 + (size_t) k * 10, 19);
  eye3 (f->R);
  f->pos = td_pos (2001 + (size_t) k * 10, 3);
  return f;
}

/* ---- independent math ---- */

static inline void cross3 (const double a[3], const double b[3], double c[3])
{
  c[0] = a[1] * b[2] - a[2] * b[1];
  c[1] = a[2] * b[0] - a[0] * b[2];
  c[2] = a[0] * b[1] - a[1] * b[0];
}

static inline double dot3 (const double a[3], const double b[3])
{
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

static inline void unit3 (double a[3])
{
  double n = sqrt (dot3 (a, a));
  for (int i = 0; i < 3; i++) a[i] /= n;
}

/* Rodrigues: R = exp(skew(th)) = I + sin(p)/p S + (1 - cos(p))/p^2 S^2, p = |th| */
static inline void rodrigues (const double th[3], double R[9])
{
  double p = sqrt (dot3 (th, th)), S[9] = { 0, -th[2], th[1], th[2], 0, -th[0],
                                            -th[1], th[0], 0 };
  double a = p > 0 ? sin (p) / p : 1.0, b = p > 0 ? (1 - cos (p)) / (p * p) : 0.5;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      double s2 = 0;
      for (int k = 0; k < 3; k++) s2 += S[3 * i + k] * S[3 * k + j];
      R[3 * i + j] = (i == j) + a * S[3 * i + j] + b * s2;
    }
}

static inline void matvec3 (const double R[9], const double x[3], double y[3])
{
  for (int i = 0; i < 3; i++) y[i] = R[3 * i] * x[0] + R[3 * i + 1] * x[1] + R[3 * i + 2] * x[2];
}

/* A right-handed frame with e3 = a (unit): columns of R (row-major) are e1, e2, e3. */
static inline void frame_from_axis (const double a[3], double R[9])
{
  double e3[3] = { a[0], a[1], a[2] }, t[3] = { 1, 0, 0 }, e1[3], e2[3];
  unit3 (e3);
  if (fabs (e3[0]) > 0.8) { t[0] = 0; t[1] = 1; }
  cross3 (t, e3, e1);       /* e1 = unit(t x e3), e2 = e3 x e1 */
  unit3 (e1);
  cross3 (e3, e1, e2);
  for (int i = 0; i < 3; i++) { R[3 * i] = e1[i]; R[3 * i + 1] = e2[i]; R[3 * i + 2] = e3[i]; }
}

/* Dense column-major copy of A (nrows x ncols, duplicates summed); caller frees. */
static inline double *dense_of (const spm *A)
{
  double *D = calloc ((size_t) A->nrows * (size_t) A->ncols + 1, sizeof *D);
  if (!D) return NULL;
  for (long k = 0; k < A->nnz; k++)
    D[(size_t) A->col[k] * (size_t) A->nrows + (size_t) A->row[k]] += A->val[k];
  return D;
}

#endif
