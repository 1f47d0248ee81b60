/* beam.c: the 3D Euler-Bernoulli beam element (stiffness, consistent mass, Rayleigh
   damping), the same as ../shared/bench/beamgrid.py's element() and rotation(). */
#include "elements.h"

void beam_default_y (const double ex[3], double y[3])
{
  int k = 0;
  for (int i = 1; i < 3; i++)
    if (fabs (ex[i]) < fabs (ex[k])) k = i;
  y[0] = y[1] = y[2] = 0.0;
  y[k] = 1.0;
}

double beam_axes (const model_beam *b, const double xa[3], const double xb[3],
                  double L[9])
{
  double d[3], y[3], ez[3], ey[3];
  vec_sub (xb, xa, d);
  double len = vec_norm (d);
  for (int i = 0; i < 3; i++) L[i] = d[i] / len;            /* ex */
  if (b->y_given) for (int i = 0; i < 3; i++) y[i] = b->y_axis[i];
  else beam_default_y (L, y);
  vec_cross (L, y, ez);
  double nz = vec_norm (ez);
  for (int i = 0; i < 3; i++) ez[i] /= nz;                 /* ez = unit(ex x y) */
  vec_cross (ez, L, ey);                                   /* ey = ez x ex */
  for (int i = 0; i < 3; i++) { L[3 + i] = ey[i]; L[6 + i] = ez[i]; }
  return len;
}

/* Local 12 x 12 stiffness k and mass m (row-major) of an element of length L on
   (u v w rx ry rz) per node, beamgrid.py's element(): axial EA/L, torsion GJ/L, bending
   in x-y (v, rz; Iz; sign s = +1) and x-z (w, ry; Iy; s = -1) with the cubic Hermite
   stiffness; consistent mass rho A L (1/3, 1/6) axial, rho (Iy + Iz) L (1/3, 1/6)
   torsion, rho A L / 420 [156 22L 54 -13L; ...] bending, no rotary inertia. */
static void beam_local (const model_beam *b, double L, double k[144], double m[144])
{
  memset (k, 0, 144 * sizeof *k);
  memset (m, 0, 144 * sizeof *m);
  double ea = b->E * b->A / L, gj = b->G * b->J / L;
  k[0] = k[6 * 12 + 6] = ea;
  k[6] = k[6 * 12] = -ea;
  k[3 * 12 + 3] = k[9 * 12 + 9] = gj;
  k[3 * 12 + 9] = k[9 * 12 + 3] = -gj;
  double mt = b->rho * b->A * L, ip = b->rho * (b->Iy + b->Iz) * L;
  m[0] = m[6 * 12 + 6] = mt / 3;
  m[6] = m[6 * 12] = mt / 6;
  m[3 * 12 + 3] = m[9 * 12 + 9] = ip / 3;
  m[3 * 12 + 9] = m[9 * 12 + 3] = ip / 6;
  const int vv[2] = { 1, 2 }, rr[2] = { 5, 4 };
  const double II[2] = { b->Iz, b->Iy }, ss[2] = { 1.0, -1.0 };
  for (int p = 0; p < 2; p++) {
    double c = b->E * II[p], s = ss[p];
    double a1 = 12 * c / (L * L * L), a2 = 6 * c / (L * L), a3 = 4 * c / L, a4 = 2 * c / L;
    const double kb[16] = { a1, s * a2, -a1, s * a2,
                            s * a2, a3, -s * a2, a4,
                            -a1, -s * a2, a1, -s * a2,
                            s * a2, a4, -s * a2, a3 };
    double cm = mt / 420.0;
    const double mb[16] = { 156, s * 22 * L, 54, -s * 13 * L,
                            s * 22 * L, 4 * L * L, s * 13 * L, -3 * L * L,
                            54, s * 13 * L, 156, -s * 22 * L,
                            -s * 13 * L, -3 * L * L, -s * 22 * L, 4 * L * L };
    const int idx[4] = { vv[p], rr[p], vv[p] + 6, rr[p] + 6 };
    for (int i = 0; i < 4; i++)
      for (int j = 0; j < 4; j++) {
        k[12 * idx[i] + idx[j]] = kb[4 * i + j];
        m[12 * idx[i] + idx[j]] = cm * mb[4 * i + j];
      }
  }
}

/* g = T^T l T with T = blockdiag(Lam, Lam, Lam, Lam), per 3 x 3 block: Lam^T l_IJ Lam. */
static void beam_rotate (const double Lam[9], const double l[144], double g[144])
{
  for (int bi = 0; bi < 4; bi++)
    for (int bj = 0; bj < 4; bj++) {
      double t[9] = { 0 };                          /* t = l_IJ Lam (l_IJ is sparse) */
      for (int i = 0; i < 3; i++)
        for (int q = 0; q < 3; q++) {
          double lv = l[(3 * bi + i) * 12 + 3 * bj + q];
          if (lv != 0)
            for (int j = 0; j < 3; j++) t[3 * i + j] += lv * Lam[3 * q + j];
        }
      for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
          double s = 0;
          for (int q = 0; q < 3; q++) s += Lam[3 * q + i] * t[3 * q + j];
          g[(3 * bi + i) * 12 + 3 * bj + j] = s;
        }
    }
}

/* K = T^T k T, M = T^T m T of element k of beam ib (nodes first + k, first + k + 1);
   C = alpha M + beta K when alpha or beta > 0. */
void beam_element (const model *m, int ib, int k, elem *e)
{
  const model_beam *b = &m->beams[ib];
  int na = b->first_node + k, nb = na + 1;
  double Lam[9], kl[144], ml[144];
  double L = beam_axes (b, m->nodes[na].x, m->nodes[nb].x, Lam);
  beam_local (b, L, kl, ml);
  e->nnode = 2;
  e->node[0] = na;
  e->node[1] = nb;
  e->has_K = e->has_M = 1;
  beam_rotate (Lam, kl, e->K);
  beam_rotate (Lam, ml, e->M);
  e->has_C = b->alpha > 0 || b->beta > 0;
  if (e->has_C)
    for (int i = 0; i < 144; i++) e->C[i] = b->alpha * e->M[i] + b->beta * e->K[i];
  else memset (e->C, 0, sizeof e->C);
}
