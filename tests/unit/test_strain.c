/* test_strain.c: model_strain_energy and model_strain_gram (src/model/strain.c) against
   closed forms on a finely meshed straight beam: a rigid motion stores no energy, a
   constant curvature kappa stores x^T K x = E I kappa^2 L (the cubic Hermite element
   reproduces it exactly), a constant twist G J tau^2 L, a constant stretch E A eps^2 L, and
   the interior nodes of such a state carry no force. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "check.h"
#include "model/strain.h"
#include "model_fixture.h"

enum { NEL = 1000 };

static const double EE = 2e11, GG = 8e10, RHO = 7800, AA = 0.015, IY = 3.125e-6,
                    IZ = 1.125e-4, JJ = 1e-5, LL = 80.0;

/* One beam along x, 1000 elements, section y axis = global y (so Iz bends in x-y). */
static int build (tdeck *t, model *m)
{
  td_init (t);
  td_material (t, "steel", EE, GG, RHO);
  td_section (t, "plate", AA, IY, IZ, JJ);
  double p[6] = { 0, 0, 0, LL, 0, 0 };
  td_beam (t, "beam", "steel", "plate", 2, p, (int[1]) { NEL }, (double[3]) { 0, 1, 0 });
  mb_err e;
  mb_err_init (&e);
  int rc = model_build_deck (&t->dm, "deck.yaml", m, &e);
  if (rc) printf ("  %s: %s\n", e.where, e.msg);
  return rc;
}

/* The DOF vector of a field: node i at x_i gets u = (eps x, kz x^2 / 2, ky x^2 / 2) and
   rotations (tau x, -ky x, kz x) (the x-z plane's rotation ry = -dw/dx). */
static void field (const model *m, double eps, double kz, double ky, double tau, double *phi)
{
  for (int i = 0; i < m->nnodes; i++) {
    double x = m->nodes[i].x[0], *q = phi + 6 * (size_t) i;
    q[0] = eps * x;
    q[1] = 0.5 * kz * x * x;
    q[2] = 0.5 * ky * x * x;
    q[3] = tau * x;
    q[4] = -ky * x;
    q[5] = kz * x;
  }
}

int main (void)
{
  tdeck *t = calloc (1, sizeof *t);
  model m;
  if (!t || build (t, &m)) {
    CHECK ("the beam builds", 0);
    return CHECK_DONE ();
  }
  size_t n = 6 * (size_t) m.nnodes;
  double *phi = calloc (n, sizeof *phi), *kphi = calloc (n, sizeof *kphi);
  double *kabs = calloc (2 * n, sizeof *kabs), eabs[2];
  double *X = calloc (2 * n, sizeof *X), G[4];
  CHECK ("work", phi && kphi && kabs && X);

  /* a rigid motion: translation (1, -2, 3) m and rotation (0.3, -0.2, 0.1) rad, about the
     origin: no strain energy, to the rounding of the rigid motion's removal */
  const double tr[3] = { 1, -2, 3 }, rt[3] = { 0.3, -0.2, 0.1 };
  for (int i = 0; i < m.nnodes; i++) {
    double c[3];
    cross3 (rt, m.nodes[i].x, c);
    for (int k = 0; k < 3; k++) {
      phi[6 * i + k] = tr[k] + c[k];
      phi[6 * i + 3 + k] = rt[k];
    }
  }
  double e = model_strain_energy (&m, phi, kphi, kabs, eabs);
  CHECK ("rigid motion: |E| <= (16 eps)^2 sum |x| |K| |x|",
         fabs (e) <= 256 * 4.93e-32 * eabs[0]);
  printf ("rigid motion: E = %.3g (scale %.3g)\n", e, eabs[0]);

  /* constant curvature in x-y: 2 U = E Iz kz^2 L (closed form); interior nodes carry no
     force; the end rz row carries the moment E Iz kz */
  double kz = 1e-3, ref = EE * IZ * kz * kz * LL;
  field (&m, 0, kz, 0, 0, phi);
  e = model_strain_energy (&m, phi, kphi, kabs, eabs);
  CHECK ("x-y bending: E Iz kappa^2 L to 1e-9", fabs (e - ref) <= 1e-9 * ref);
  printf ("x-y bending: %.15g against %.15g\n", e, ref);
  double fint = 0.0, fbig = 0.0;
  for (int i = 1; i + 1 < m.nnodes; i++)
    for (int k = 0; k < 6; k++) {
      fint = fmax (fint, fabs (kphi[6 * i + k]));
      fbig = fmax (fbig, kabs[6 * i + k]);
    }
  CHECK ("x-y bending: interior forces zero to 1e-9 of their terms", fint <= 1e-9 * fbig);
  double mend = kphi[6 * (size_t) (m.nnodes - 1) + 5], mref = EE * IZ * kz;
  CHECK ("x-y bending: end moment E Iz kappa", fabs (mend - mref) <= 1e-9 * mref);

  /* x-z bending, twist and stretch together: their energies add (closed forms) */
  double ky = 2e-3, tau = 5e-4, eps = 1e-4;
  ref = EE * IY * ky * ky * LL + GG * JJ * tau * tau * LL + EE * AA * eps * eps * LL;
  field (&m, eps, 0, ky, tau, phi);
  e = model_strain_energy (&m, phi, NULL, NULL, eabs);
  CHECK ("x-z bending + twist + stretch to 1e-9", fabs (e - ref) <= 1e-9 * ref);
  printf ("x-z bending + twist + stretch: %.15g against %.15g\n", e, ref);

  /* Gram matrix of (x-y bending, twist): diagonal E Iz kz^2 L, G J tau^2 L; the two
     decouple (off-diagonal zero to rounding) */
  field (&m, 0, kz, 0, 0, X);
  field (&m, 0, 0, 0, tau, X + n);
  CHECK ("gram runs", model_strain_gram (&m, 2, X, (int) n, G) == 0);
  double g11 = EE * IZ * kz * kz * LL, g22 = GG * JJ * tau * tau * LL;
  CHECK ("gram: x-y bending", fabs (G[0] - g11) <= 1e-9 * g11);
  CHECK ("gram: twist", fabs (G[3] - g22) <= 1e-9 * g22);
  CHECK ("gram: symmetric, uncoupled", fabs (G[1]) <= 1e-9 * sqrt (g11 * g22)
         && fabs (G[2]) <= 1e-9 * sqrt (g11 * g22));

  free (phi); free (kphi); free (kabs); free (X);
  model_clear (&m);
  free (t);
  return CHECK_DONE ();
}
