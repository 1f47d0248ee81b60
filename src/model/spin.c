/* spin.c: spinning bodies: deck spin -> model, the gyroscopic matrix G, and
   the whirl direction of the complex modes. */
#include "spin.h"

#include <math.h>
#include <string.h>

#include "elements.h"

static const double WHIRL_MIN = 1e-3;      /* |q| below it: no direction said */
static const double WHIRL_NORMAL = 1e-6;   /* relative: no motion normal to the axis */
static const double REPEATED_TOL = 1e-6;   /* relative: a repeated eigenvalue */

/* Copies speed and axis (deck: unit, global). */
void spin_body_init (const deck_body *db, model_body *b)
{
  b->spin = db->spin.given ? db->spin.speed : 0.0;
  memcpy (b->spin_axis, db->spin.axis, sizeof b->spin_axis);
}

/* Any body with a non-zero speed. */
int model_has_spin (const model *m)
{
  for (int i = 0; i < m->nbodies; i++)
    if (m->bodies[i].spin != 0.0) return 1;
  return 0;
}

/* G = -Omega Jp [a]x in the rotation block (rows and columns 3..5). */
void spin_body_gyro (const model *m, const model_state *s, int i, elem *e)
{
  const model_body *b = &m->bodies[i];
  e->has_G = b->spin != 0.0;
  if (!e->has_G) return;
  memset (e->G, 0, sizeof e->G);
  const double *a0 = b->spin_axis;
  double jp = 0.0, a[3];
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 3; c++) jp += a0[r] * b->J[3 * r + c] * a0[c];
  node_dir (m, s, b->node, a0, a);
  double g = -b->spin * jp;
  const double S[9] = { 0, -a[2], a[1], a[2], 0, -a[0], -a[1], a[0], 0 };   /* [a]x */
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 3; c++) e->G[12 * (3 + r) + 3 + c] = g * S[3 * r + c];
}

/* One 3-vector x (complex) of a spinning part: adds w sgn a.(Im x X Re x) to *num,
   w (|Re x_p|^2 + |Im x_p|^2) / 2 to *den, x_p the part normal to a, and w |x|^2 / 2 to
   *all. */
static void whirl_add (const double complex *x, const double a[3], double w, double sgn,
                       double *num, double *den, double *all)
{
  double u[3], v[3], ua = 0.0, va = 0.0;
  for (int i = 0; i < 3; i++) u[i] = creal (x[i]), v[i] = cimag (x[i]);
  for (int i = 0; i < 3; i++) ua += u[i] * a[i], va += v[i] * a[i];
  double c[3];
  vec_cross (v, u, c);
  *num += w * sgn * (c[0] * a[0] + c[1] * a[1] + c[2] * a[2]);
  double nu = 0.0, nv = 0.0;
  for (int i = 0; i < 3; i++) {
    nu += (u[i] - ua * a[i]) * (u[i] - ua * a[i]);
    nv += (v[i] - va * a[i]) * (v[i] - va * a[i]);
  }
  *den += 0.5 * w * (nu + nv);
  for (int i = 0; i < 3; i++) *all += 0.5 * w * (u[i] * u[i] + v[i] * v[i]);
}

/* q of one mode vector x (n = 6 nnodes entries), the spec in spin.h; 0 when the
   spinning parts do not move, or move along their axes only (an axial or torsional mode:
   the motion normal to the axes below WHIRL_NORMAL of all their motion). */
static double whirl_measure (const model *m, const double complex *x)
{
  double num = 0.0, den = 0.0, all = 0.0;
  for (int i = 0; i < m->nbodies; i++) {
    const model_body *b = &m->bodies[i];
    if (b->spin == 0.0) continue;
    const double *a = b->spin_axis;
    double jp = 0.0, tr = b->J[0] + b->J[4] + b->J[8];
    for (int r = 0; r < 3; r++)
      for (int c = 0; c < 3; c++) jp += a[r] * b->J[3 * r + c] * a[c];
    double sgn = b->spin > 0 ? 1.0 : -1.0;
    whirl_add (x + 6 * (size_t) b->node, a, b->mass, sgn, &num, &den, &all);
    whirl_add (x + 6 * (size_t) b->node + 3, a, 0.5 * (tr - jp), sgn, &num, &den, &all);
  }
  return den > WHIRL_NORMAL * all ? num / den : 0.0;
}

/* Each mode's whirl (spin.h); repeated eigenvalues and modes without a vector: 0. */
void spin_whirl_modes (const model *m, eigen_result *r)
{
  r->has_whirl = model_has_spin (m);
  for (int i = 0; r->modes && i < r->nmodes; i++) {
    mode *md = &r->modes[i];
    md->whirl = 0;
    if (!r->has_whirl || !md->x || md->kind != MODE_OSCILLATORY || !(cimag (md->lambda) > 0))
      continue;
    int repeated = md->multiplicity > 1;
    for (int j = 0; j < r->nmodes && !repeated; j++)
      if (j != i && cabs (r->modes[j].lambda - md->lambda) <= REPEATED_TOL * cabs (md->lambda))
        repeated = 1;
    if (repeated) continue;
    double q = whirl_measure (m, md->x);
    md->whirl = q > WHIRL_MIN ? 1 : q < -WHIRL_MIN ? -1 : 0;
  }
}

const char *spin_whirl_name (int whirl)
{
  return whirl > 0 ? "forward" : whirl < 0 ? "backward" : NULL;
}
