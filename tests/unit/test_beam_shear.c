/* test_beam_shear.c: the planar Timoshenko element (beam_bending_plane, src/model/
   beam_shear.c) against closed forms: rigid in shear (As = 0) the cubic Hermite element,
   EI/L^3 [12 6L -12 6L; 6L 4L^2 -6L 2L^2; ...] and rho A L/420 [156 22L 54 -13L; ...];
   with a huge shear area the same stiffness (to phi) and that mass plus the rotary inertia
   rho I/(30 L) [36 3L -36 3L; 3L 4L^2 -3L -L^2; ...] (the Euler-Bernoulli limit with rotary
   inertia); at phi = 1 the stiffness EI/(2 L^3) [12 6L -12 6L; 6L 5L^2 -6L L^2; ...] of the
   Przemieniecki element, and its tip deflection under a unit end load P L^3/(3EI) +
   P L/(G As) (Timoshenko's cantilever), solved here from the 2 x 2 free block. */
#include <math.h>
#include <stdio.h>

#include "check.h"
#include "model/elements.h"

static double maxrel (const double *a, const double *b, int n)
{
  double d = 0, s = 0;
  for (int i = 0; i < n; i++) {
    d = fmax (d, fabs (a[i] - b[i]));
    s = fmax (s, fabs (b[i]));
  }
  return d / s;
}

int main (void)
{
  const double E = 2e11, G = 8e10, rho = 7800, A = 1e-2, Ib = 8e-6, L = 0.5;
  double kb[16], mb[16];
  const double c = E * Ib / (L * L * L), r = rho * A * L / 420, q = rho * Ib / (30 * L);
  const double keb[16] = { 12 * c, 6 * L * c, -12 * c, 6 * L * c,
                           6 * L * c, 4 * L * L * c, -6 * L * c, 2 * L * L * c,
                           -12 * c, -6 * L * c, 12 * c, -6 * L * c,
                           6 * L * c, 2 * L * L * c, -6 * L * c, 4 * L * L * c };
  const double meb[16] = { 156 * r, 22 * L * r, 54 * r, -13 * L * r,
                           22 * L * r, 4 * L * L * r, 13 * L * r, -3 * L * L * r,
                           54 * r, 13 * L * r, 156 * r, -22 * L * r,
                           -13 * L * r, -3 * L * L * r, -22 * L * r, 4 * L * L * r };
  const double mrot[16] = { 36 * q, 3 * L * q, -36 * q, 3 * L * q,
                            3 * L * q, 4 * L * L * q, -3 * L * q, -L * L * q,
                            -36 * q, -3 * L * q, 36 * q, -3 * L * q,
                            3 * L * q, -L * L * q, -3 * L * q, 4 * L * L * q };
  beam_bending_plane (E, G, rho, A, Ib, 0.0, L, 1.0, kb, mb);
  CHECK ("As = 0: the cubic stiffness", maxrel (kb, keb, 16) < 1e-14);
  CHECK ("As = 0: the cubic mass, no rotary inertia", maxrel (mb, meb, 16) < 1e-14);
  double big = 1e9 * A, mt[16];
  beam_bending_plane (E, G, rho, A, Ib, big, L, 1.0, kb, mb);
  for (int i = 0; i < 16; i++) mt[i] = meb[i] + mrot[i];
  CHECK ("As huge: the cubic stiffness (phi = 2.4e-10)", maxrel (kb, keb, 16) < 1e-9);
  CHECK ("As huge: cubic mass plus rotary inertia", maxrel (mb, mt, 16) < 1e-9);
  beam_bending_plane (E, G, rho, A, Ib, big, L, -1.0, kb, mb);
  int signs = 1;
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++) {
      double s = ((i + j) % 2) ? -1.0 : 1.0;
      signs &= fabs (kb[4 * i + j] - s * keb[4 * i + j]) <= 1e-9 * fabs (keb[4 * i + j])
               && fabs (mb[4 * i + j] - s * mt[4 * i + j]) <= 1e-9 * fabs (mt[4 * i + j]) + 1e-30;
    }
  CHECK ("s = -1: the translation-rotation entries change sign", signs);
  double As1 = 12 * E * Ib / (G * L * L);              /* phi = 1 */
  beam_bending_plane (E, G, rho, A, Ib, As1, L, 1.0, kb, mb);
  const double h = c / 2;
  const double k1[16] = { 12 * h, 6 * L * h, -12 * h, 6 * L * h,
                          6 * L * h, 5 * L * L * h, -6 * L * h, L * L * h,
                          -12 * h, -6 * L * h, 12 * h, -6 * L * h,
                          6 * L * h, L * L * h, -6 * L * h, 5 * L * L * h };
  CHECK ("phi = 1: Przemieniecki's stiffness", maxrel (kb, k1, 16) < 1e-14);
  /* clamped at node 1, unit force at node 2: [k33 k34; k43 k44] [w; th] = [1; 0] */
  double det = kb[10] * kb[15] - kb[11] * kb[14], w = kb[15] / det;
  double want = L * L * L / (3 * E * Ib) + L / (G * As1);
  CHECK ("phi = 1: the cantilever's tip deflection P L^3/3EI + P L/(G As)",
         fabs (w - want) < 1e-12 * want);
  return CHECK_DONE ();
}
