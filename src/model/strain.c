/* strain.c: a model's strain energy x^T K x as a sum of element energies, beams with their
   rigid motion removed first (model_strain_energy, strain.h). */
#include "strain.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "elements.h"

/* Adds element e's contribution for its deformation d (12 doubles, node blocks of e;
   ground blocks zero and skipped): kphi += K_e d, kabs += |K_e| |d| and kabs + nq += |K_e| |x|
   (nq: the model's DOFs), eabs[0] += |x|^T |K_e| |x|
   with x the element's part of phi, eabs[1] += (|x|^T |K_e d|)^2 and eabs[2] +=
   |d|^T |K_e| |d|. Returns d^T K_e d. */
static double elem_add (const elem *e, const double d[12], const double x[12], size_t nq,
                        double *kphi, double *kabs, double *eabs)
{
  double en = 0.0, ea = 0.0, ex = 0.0, ed = 0.0;
  for (int bi = 0; bi < e->nnode; bi++) {
    if (e->node[bi] < 0) continue;
    for (int i = 0; i < 6; i++) {
      int r = 6 * bi + i;
      double f = 0.0, fa = 0.0, xa = 0.0;
      for (int bj = 0; bj < e->nnode; bj++) {
        if (e->node[bj] < 0) continue;
        for (int j = 0; j < 6; j++) {
          double v = e->K[12 * r + 6 * bj + j];
          f += v * d[6 * bj + j];
          fa += fabs (v) * fabs (d[6 * bj + j]);
          xa += fabs (v) * fabs (x[6 * bj + j]);
        }
      }
      en += d[r] * f;
      ea += fabs (x[r]) * xa;
      ex += fabs (x[r]) * fabs (f);
      ed += fabs (d[r]) * fa;
      size_t g = 6 * (size_t) e->node[bi] + i;
      if (kphi) kphi[g] += f;
      if (kabs) {
        kabs[g] += fa;
        kabs[nq + g] += xa;
      }
    }
  }
  eabs[0] += ea;
  eabs[1] += ex * ex;
  eabs[2] += ed;
  return en;
}

/* The element's part of phi (12 doubles; zero for a ground node). */
static void elem_gather (const elem *e, const double *phi, double x[12])
{
  memset (x, 0, 12 * sizeof *x);
  for (int b = 0; b < e->nnode; b++)
    if (e->node[b] >= 0) memcpy (x + 6 * b, phi + 6 * (size_t) e->node[b], 6 * sizeof *x);
}

/* Element e's deformation d (12 doubles) of the vector x (its 12 entries): for a beam
   (beam 1) x less node a's rigid motion (translation u_a, rotation th_a): d_a = 0,
   d_b = (u_b - u_a - th_a x (x_b - x_a), th_b - th_a); for a force element x itself. */
static void elem_deformation (const model *mdl, const elem *e, int beam, const double x[12],
                              double d[12])
{
  if (!beam) {
    memcpy (d, x, 12 * sizeof *d);
    return;
  }
  double dx[3], rot[3];
  vec_sub (mdl->nodes[e->node[1]].x, mdl->nodes[e->node[0]].x, dx);
  vec_cross (x + 3, dx, rot);
  memset (d, 0, 6 * sizeof *d);
  for (int i = 0; i < 3; i++) {
    d[6 + i] = (x[6 + i] - x[i]) - rot[i];
    d[9 + i] = x[9 + i] - x[3 + i];
  }
}

/* Sum over the elements in assembly order (bodies have no stiffness): beams from d =
   x minus node a's rigid motion, force elements from x itself (their stiffness does not
   grow as the mesh is refined, and a preloaded spring's is not zero on rigid motion). */
double model_strain_energy (const model *mdl, const double *phi, double *kphi, double *kabs,
                            double eabs[2])
{
  size_t n = 6 * (size_t) mdl->nnodes;
  if (kphi) memset (kphi, 0, n * sizeof *kphi);
  if (kabs) memset (kabs, 0, 2 * n * sizeof *kabs);
  double energy = 0.0, ea[3] = { 0.0, 0.0, 0.0 };
  elem e;
  for (int ib = 0; ib < mdl->nbeams; ib++)
    for (int q = 0; q < mdl->beams[ib].nelements; q++) {
      beam_element (mdl, NULL, ib, q, 0, &e);
      double x[12], d[12];
      elem_gather (&e, phi, x);
      elem_deformation (mdl, &e, 1, x, d);
      energy += elem_add (&e, d, x, n, kphi, kabs, ea);
    }
  for (int f = 0; f < mdl->nforces; f++) {
    force_element (mdl, NULL, f, &e);
    if (!e.has_K) continue;
    double x[12];
    elem_gather (&e, phi, x);
    energy += elem_add (&e, x, x, n, kphi, kabs, ea);
  }
  if (eabs) {
    eabs[0] = ea[0];
    eabs[1] = 8.0 * sqrt (ea[1]) + ea[2];
  }
  return energy;
}

/* G += D^T K_e D for element e over the nv columns of X (D: 12 x nv deformations, F: K_e D;
   both 12 nv doubles of work). */
static void elem_gram (const model *mdl, const elem *e, int beam, int nv, const double *X,
                       int ldx, double *D, double *F, double *G)
{
  for (int j = 0; j < nv; j++) {
    double x[12];
    elem_gather (e, X + (size_t) j * ldx, x);
    elem_deformation (mdl, e, beam, x, D + 12 * (size_t) j);
  }
  for (int j = 0; j < nv; j++)
    for (int r = 0; r < 12; r++) {
      double f = 0.0;
      if (e->node[r / 6] >= 0)
        for (int c = 0; c < 12; c++)
          if (e->node[c / 6] >= 0) f += e->K[12 * r + c] * D[12 * (size_t) j + c];
      F[12 * (size_t) j + r] = f;
    }
  for (int j = 0; j < nv; j++)
    for (int i = 0; i < nv; i++) {
      double g = 0.0;
      for (int r = 0; r < 12; r++) g += D[12 * (size_t) i + r] * F[12 * (size_t) j + r];
      G[(size_t) j * nv + i] += g;
    }
}

int model_strain_gram (const model *mdl, int nv, const double *X, int ldx, double *G)
{
  double *D = malloc (24 * (size_t) (nv > 0 ? nv : 1) * sizeof *D);
  if (!D) return MB_ENOMEM;
  double *F = D + 12 * (size_t) (nv > 0 ? nv : 1);
  memset (G, 0, (size_t) nv * nv * sizeof *G);
  elem e;
  for (int ib = 0; ib < mdl->nbeams; ib++)
    for (int q = 0; q < mdl->beams[ib].nelements; q++) {
      beam_element (mdl, NULL, ib, q, 0, &e);
      elem_gram (mdl, &e, 1, nv, X, ldx, D, F, G);
    }
  for (int f = 0; f < mdl->nforces; f++) {
    force_element (mdl, NULL, f, &e);
    if (e.has_K) elem_gram (mdl, &e, 0, nv, X, ldx, D, F, G);
  }
  free (D);
  return 0;
}
