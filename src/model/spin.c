/* spin.c: spinning bodies and beams: deck spin -> model, the gyroscopic matrices G, and
   the whirl direction of the complex modes. */
#include "spin.h"

#include <math.h>
#include <string.h>

#include "elements.h"

static const double WHIRL_NORMAL = 1e-6;   /* relative: no motion normal to the axis */

/* Copies speed and axis (deck: unit, global). */
void spin_body_init (const deck_body *db, model_body *b)
{
  b->spin = db->spin.given ? db->spin.speed : 0.0;
  memcpy (b->spin_axis, db->spin.axis, sizeof b->spin_axis);
}

/* Speed signed along first -> last point (deck_spin_beam_check made the axis parallel to
   it); round section required. */
int spin_beam_init (const deck_beam *db, const char *path, model_beam *b, mb_err *err)
{
  b->spin = 0.0;
  if (!db->spin.given || db->spin.speed == 0.0) return 0;
  if (fabs (b->Iy - b->Iz) > 1e-9 * fmax (b->Iy, b->Iz))
    return mb_fail_at (err, MB_EDECK, path, db->spin.pos.line, db->spin.pos.col,
                       "beam '%s': spin needs a section with Iy = Iz (Iy = %g, Iz = %g): the"
                       " linear model of a shaft that is not round is periodic in time",
                       db->name, b->Iy, b->Iz);
  const double *p0 = db->points, *p1 = db->points + 3 * (db->npoints - 1);
  double d = 0.0;
  for (int i = 0; i < 3; i++) d += (p1[i] - p0[i]) * db->spin.axis[i];
  b->spin = d >= 0 ? db->spin.speed : -db->spin.speed;
  return 0;
}

/* Any body or beam with a non-zero speed. */
int model_has_spin (const model *m)
{
  for (int i = 0; i < m->nbodies; i++)
    if (m->bodies[i].spin != 0.0) return 1;
  for (int i = 0; i < m->nbeams; i++)
    if (m->beams[i].spin != 0.0) return 1;
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
    for (int c = 0; c < 3; c++) e->G[12 * (3 + r) + 3 + c] = g * S[3 * r + c] + 0.0;  /* no -0 */
}

/* Phi_z = v' and Phi_y = -w' at xi in [0, 1] as rows over the 12 local DOFs (u v w rx ry
   rz per node): v = N1 v1 + N2 rz1 + N3 v2 + N4 rz2, w = N1 w1 - N2 ry1 + N3 w2 - N4 ry2
   (beam.c's Hermite convention: rz = v', ry = -w'). */
static void section_rotations (double xi, double L, double pz[12], double py[12])
{
  double d1 = (-6 * xi + 6 * xi * xi) / L, d2 = 1 - 4 * xi + 3 * xi * xi;
  double d3 = (6 * xi - 6 * xi * xi) / L, d4 = -2 * xi + 3 * xi * xi;
  memset (pz, 0, 12 * sizeof *pz);
  memset (py, 0, 12 * sizeof *py);
  pz[1] = d1; pz[5] = d2; pz[7] = d3; pz[11] = d4;
  py[2] = -d1; py[4] = d2; py[8] = -d3; py[10] = d4;
}

/* G_local by 3-point Gauss on [0, 1] (the integrand is a polynomial of degree 4), then
   G = T^T G_local T per 3 x 3 block (Lam rows: the element axes). */
void spin_beam_gyro (const model *m, const model_state *s, int ib, int k, elem *e)
{
  const model_beam *b = &m->beams[ib];
  e->has_G = b->spin != 0.0;
  if (!e->has_G) return;
  int na = b->first_node + k, nb = na + 1;
  double Lam[9], Lam0[9];
  double L0 = beam_axes (b, m->nodes[na].x, m->nodes[nb].x, Lam0);
  beam_axes (b, node_xs (m, s, na), node_xs (m, s, nb), Lam);
  double gl[144] = { 0 }, c = b->spin * b->rho * (b->Iy + b->Iz) * L0;
  const double gx[3] = { 0.5 - sqrt (0.15), 0.5, 0.5 + sqrt (0.15) };
  const double gw[3] = { 5.0 / 18.0, 8.0 / 18.0, 5.0 / 18.0 };
  for (int q = 0; q < 3; q++) {
    double pz[12], py[12];
    section_rotations (gx[q], L0, pz, py);
    for (int i = 0; i < 12; i++)
      for (int j = 0; j < 12; j++)
        gl[12 * i + j] += c * gw[q] * (py[i] * pz[j] - pz[i] * py[j]);
  }
  for (int bi = 0; bi < 4; bi++)
    for (int bj = 0; bj < 4; bj++)
      for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
          double v = 0.0;
          for (int p = 0; p < 3; p++)
            for (int q = 0; q < 3; q++)
              v += Lam[3 * p + i] * gl[12 * (3 * bi + p) + 3 * bj + q] * Lam[3 * q + j];
          e->G[12 * (3 * bi + i) + 3 * bj + j] = v;
        }
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
double spin_whirl_measure (const model *m, const double complex *x)
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
  for (int ib = 0; ib < m->nbeams; ib++) {
    const model_beam *b = &m->beams[ib];
    if (b->spin == 0.0) continue;
    double sgn = b->spin > 0 ? 1.0 : -1.0;
    for (int k = 0; k <= b->nelements; k++) {
      int nd = b->first_node + k;
      int n0 = k > 0 ? nd - 1 : nd, n1 = k < b->nelements ? nd + 1 : nd;
      double d[3], a[3], len = 0.0;
      vec_sub (m->nodes[n1].x, m->nodes[n0].x, d);
      for (int i = 0; i < 3; i++) len += d[i] * d[i];
      len = sqrt (len);
      if (!(len > 0)) continue;
      for (int i = 0; i < 3; i++) a[i] = d[i] / len;
      double h = 0.5 * len;   /* tributary length */
      whirl_add (x + 6 * (size_t) nd, a, b->rho * b->A * h, sgn, &num, &den, &all);
      whirl_add (x + 6 * (size_t) nd + 3, a, b->rho * b->Iy * h, sgn, &num, &den, &all);
    }
  }
  return den > WHIRL_NORMAL * all ? num / den : 0.0;
}

/* Each mode's whirl (spin.h); repeated eigenvalues and modes without a vector: 0. */
int spin_whirl_of (double q)
{
  return q > SPIN_WHIRL_MIN ? 1 : q < -SPIN_WHIRL_MIN ? -1 : 0;
}

const char *spin_whirl_name (int whirl)
{
  return whirl > 0 ? "forward" : whirl < 0 ? "backward" : NULL;
}
