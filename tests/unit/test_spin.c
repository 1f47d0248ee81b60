/* test_spin.c: the gyroscopic matrices of spinning bodies and beams (src/model/spin.c)
   against closed forms: a body's G = -Omega Jp [a]x (Euler's equations linearized about
   the steady spin), and a beam element's G from the integral of the Hermite slopes,
   int_0^L N'^T N' dx = 1/(30 L) [36 3L -36 3L; 3L 4L^2 -3L -L^2; ...] (the rotary inertia
   matrix's shape, Przemieniecki, Theory of Matrix Structural Analysis, 11.3; the
   gyroscopic element of Nelson & McVaugh 1976 is this matrix times rho Ip Omega, skew). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "deck/deck.h"
#include "model/elements.h"
#include "model/model.h"
#include "model/spin.h"

static const char *DECK =
  "units: SI\n"
  "materials:\n"
  "  steel: {E: 2.0e11, nu: 0.3, rho: 7850}\n"
  "sections:\n"
  "  rod: {shape: circle, diameter: 0.04}\n"
  "bodies:\n"
  "  disc: {mass: 2, inertia: [2, 2, 3], position: [0, 0, 0],\n"
  "         orientation: {x: [1, 0, 0], z: [0, 0.6, 0.8]}, spin: {axis: [0, 0.6, 0.8], speed: 7}}\n"
  "  still: {mass: 1, position: [0, 0, 1]}\n"
  "beams:\n"
  "  shaft: {material: steel, section: rod, from: [0, 0, 0], to: [0.5, 0, 0], elements: 1,\n"
  "          spin: {rpm: 600}}\n"
  "  skew: {material: steel, section: rod, from: [0, 1, 0], to: [0.3, 1.2, 0.4], elements: 2,\n"
  "         spin: {axis: [-0.3, -0.2, -0.4], speed: 5}}\n";

/* max |G + G^T| over the element's 12 x 12 (or 6 x 6) */
static double skew_error (const elem *e)
{
  int n = 6 * e->nnode;
  double w = 0.0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) w = fmax (w, fabs (e->G[12 * i + j] + e->G[12 * j + i]));
  return w;
}

int main (void)
{
  deck d;
  model m;
  mb_err err;
  mb_err_init (&err);
  int rc = deck_parse (DECK, strlen (DECK), "t.yaml", &d, &err);
  CHECK ("deck parses", rc == 0);
  if (rc) { printf ("  %s: %s\n", err.where, err.msg); return CHECK_DONE (); }
  rc = model_build (&d, &m, &err);
  CHECK ("model builds", rc == 0);
  if (rc) { printf ("  %s: %s\n", err.where, err.msg); deck_clear (&d); return CHECK_DONE (); }
  CHECK ("the model spins", model_has_spin (&m));

  /* body: Jp = 3 about a = (0, 0.6, 0.8), Omega = 7: G_rot = -21 [a]x */
  elem e;
  memset (&e, 0, sizeof e);
  spin_body_gyro (&m, NULL, 0, &e);
  const double a[3] = { 0, 0.6, 0.8 };
  const double S[9] = { 0, -a[2], a[1], a[2], 0, -a[0], -a[1], a[0], 0 };
  double worst = 0.0, trans = 0.0;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      worst = fmax (worst, fabs (e.G[12 * (3 + i) + 3 + j] + 21.0 * S[3 * i + j]));
      trans = fmax (trans, fabs (e.G[12 * i + j]) + fabs (e.G[12 * i + 3 + j])
                           + fabs (e.G[12 * (3 + i) + j]));
    }
  CHECK ("body: has G", e.has_G == 1);
  CHECK ("body: G = -Omega Jp [a]x (1e-12)", worst <= 1e-12 * 21.0);
  CHECK ("body: no G on the translations", trans == 0.0);
  spin_body_gyro (&m, NULL, 1, &e);
  CHECK ("a body without spin has no G", e.has_G == 0);

  /* beam along x (local = global: ey = y, ez = z), L = 0.5, Omega = 600 rpm:
     G(w-group, v-group) = c D S, G(v-group, w-group) = -c S D, c = Omega rho Ip,
     groups (v1, rz1, v2, rz2) = DOFs 1 5 7 11 and (w1, ry1, w2, ry2) = 2 4 8 10,
     D = diag(-1, 1, -1, 1) (ry = -w'), S = int N'^T N' dx */
  const double pi = 3.14159265358979323846;
  double L = 0.5, ip = pi * pow (0.04, 4) / 32, om = 600 * 2 * pi / 60;
  double c = om * 7850 * ip;
  const double Sm[16] = { 36, 3 * L, -36, 3 * L, 3 * L, 4 * L * L, -3 * L, -L * L,
                          -36, -3 * L, 36, -3 * L, 3 * L, -L * L, -3 * L, 4 * L * L };
  const int vg[4] = { 1, 5, 7, 11 }, wg[4] = { 2, 4, 8, 10 };
  const double D[4] = { -1, 1, -1, 1 };
  spin_beam_gyro (&m, NULL, 0, 0, &e);
  CHECK ("beam: has G", e.has_G == 1);
  double ref[144] = { 0 }, big = 0.0;
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++) {
      double s = c * Sm[4 * i + j] / (30 * L);
      ref[12 * wg[i] + vg[j]] = D[i] * s;
      ref[12 * vg[i] + wg[j]] = -s * D[j];
    }
  worst = 0.0;
  for (int k = 0; k < 144; k++) {
    worst = fmax (worst, fabs (e.G[k] - ref[k]));
    big = fmax (big, fabs (ref[k]));
  }
  CHECK ("beam element: G against c / (30 L) D S (1e-12)", worst <= 1e-12 * big);
  if (worst > 1e-12 * big) printf ("  worst %g of %g\n", worst, big);

  /* a skew beam (axis given against start -> end: the speed flips): G skew, zero on
     rigid translations, and spin < 0 */
  CHECK ("skew beam: spin signed along start -> end", m.beams[1].spin == -5.0);
  spin_beam_gyro (&m, NULL, 1, 1, &e);
  big = 0.0;
  for (int k = 0; k < 144; k++) big = fmax (big, fabs (e.G[k]));
  CHECK ("skew beam: G skew-symmetric (1e-13)", big > 0 && skew_error (&e) <= 1e-13 * big);
  double tr = 0.0;
  for (int i = 0; i < 12; i++)
    for (int t = 0; t < 3; t++) tr = fmax (tr, fabs (e.G[12 * i + t] + e.G[12 * i + 6 + t]));
  CHECK ("skew beam: a rigid translation gives no gyroscopic moment", tr <= 1e-13 * big);

  model_clear (&m);
  deck_clear (&d);
  return CHECK_DONE ();
}
