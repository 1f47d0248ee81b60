/* test_beams.c: the planar Timoshenko element (beam_bending_plane, src/model/
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
#include "model_fixture.h"

static double maxrel (const double *a, const double *b, int n)
{
  double d = 0, s = 0;
  for (int i = 0; i < n; i++) {
    d = fmax (d, fabs (a[i] - b[i]));
    s = fmax (s, fabs (b[i]));
  }
  return d / s;
}

/* A 3-element Timoshenko beam tapering in its properties (Asy, Asz set), line load q (global
   or follower), gravity; a deformed state (rotations ~0.3 rad); each element's K against
   central differences (h = 1e-6) of its f_int - f_ext over its 12 DOFs. Returns the largest
   error relative to the loads' part of K (K less K without line load and gravity), and
   *deck_err, the deck f_ext's error against the fixed-end loads. */
static double tangent_error (int follower, double *deck_err)
{
  tdeck *t = calloc (1, sizeof *t);
  td_init (t);
  td_material (t, "m", 2e5, 8e4, 1000);
  deck_section *a = td_section (t, "a", 1e-2, 8e-6, 6e-6, 1e-5);
  deck_section *c = td_section (t, "c", 6e-3, 4e-6, 3e-6, 5e-6);
  a->Asy = 8e-3; a->Asz = 7e-3; c->Asy = 5e-3; c->Asz = 4e-3;
  double p[6] = { 0, 0, 0, 1.2, 0.3, -0.4 };
  deck_beam *b = td_beam (t, "bm", "m", "a", 2, p, (int[1]) { 3 }, (double[3]) { 0, 0, 1 });
  static char *seg[2] = { "a", "c" };
  static deck_pos sp[1];
  b->seg_sections = seg; b->seg_pos = sp; b->nseg_sections = 1;
  b->has_line_load = 1; b->line_load_body = follower;
  b->line_load[0] = 30; b->line_load[1] = -50; b->line_load[2] = 80;
  t->dm.gravity[2] = -9.81;
  model m;
  model_state s = { 0 }, q = { 0 };
  mb_err e;
  mb_err_init (&e);
  double err = 1.0;
  *deck_err = 1.0;
  if (model_build_deck (&t->dm, "deck.yaml", &m, &e) || model_state_init (&m, &s, &e)) {
    printf ("  %s: %s\n", e.where, e.msg);
    free (t);
    return err;
  }
  /* at the deck, gravity off: f_ext = (q L/2, +-(L^2/12) e1 x q) per element */
  elem el;
  double L = sqrt (1.2 * 1.2 + 0.3 * 0.3 + 0.4 * 0.4) / 3, e1[3] = { 1.2, 0.3, -0.4 }, mq[3];
  for (int i = 0; i < 3; i++) e1[i] /= 3 * L;
  vec_cross (e1, b->line_load, mq);
  m.gravity[2] = 0;
  beam_element (&m, NULL, 0, 1, EVAL_GRAVITY, &el);
  *deck_err = 0;
  for (int i = 0; i < 3; i++) {
    *deck_err = fmax (*deck_err, fabs (el.f_ext[i] - b->line_load[i] * L / 2));
    *deck_err = fmax (*deck_err, fabs (el.f_ext[6 + i] - b->line_load[i] * L / 2));
    *deck_err = fmax (*deck_err, fabs (el.f_ext[3 + i] - mq[i] * L * L / 12));
    *deck_err = fmax (*deck_err, fabs (el.f_ext[9 + i] + mq[i] * L * L / 12));
  }
  *deck_err /= 80 * L / 2;
  m.gravity[2] = -9.81;
  int n = 6 * m.nnodes;
  double *dq = calloc ((size_t) n, sizeof *dq);
  unsigned seed = 7u;
  for (int i = 0; i < n; i++) {
    seed = seed * 1103515245u + 12345u;
    double u = (double) (seed >> 8) / (double) (1u << 24) - 0.5;
    dq[i] = (i % 6 < 3 ? 0.05 : 0.6) * u;
  }
  model_state_step (&s, dq, 1.0);
  model_state_copy (&s, &q, &e);
  err = 0;
  for (int k = 0; k < 3; k++) {
    double lmax = 0, dmax = 0, Fp[12], Fm[12], q0[3];
    elem ek, ep, e0;
    memcpy (q0, m.beams[0].q, sizeof q0);     /* the loads' part of K: without them */
    memset (m.beams[0].q, 0, sizeof q0);
    m.gravity[2] = 0;
    beam_element (&m, &s, 0, k, EVAL_GRAVITY, &e0);
    memcpy (m.beams[0].q, q0, sizeof q0);
    m.gravity[2] = -9.81;
    beam_element (&m, &s, 0, k, EVAL_GRAVITY, &ek);
    for (int i = 0; i < 144; i++) lmax = fmax (lmax, fabs (ek.K[i] - e0.K[i]));
    for (int j = 0; j < 12; j++) {
      int g = 6 * ek.node[j / 6] + j % 6;
      const double h = 1e-6;
      for (int sg = -1; sg <= 1; sg += 2) {
        memset (dq, 0, (size_t) n * sizeof *dq);
        dq[g] = sg * h;
        model_state_assign (&q, &s);
        model_state_step (&q, dq, 1.0);
        beam_element (&m, &q, 0, k, EVAL_GRAVITY, &ep);
        for (int i = 0; i < 12; i++) (sg > 0 ? Fp : Fm)[i] = ep.f_int[i] - ep.f_ext[i];
      }
      for (int i = 0; i < 12; i++)
        dmax = fmax (dmax, fabs (ek.K[12 * i + j] - (Fp[i] - Fm[i]) / (2 * h)));
    }
    err = fmax (err, dmax / lmax);
  }
  free (dq);
  model_state_clear (&s);
  model_state_clear (&q);
  model_clear (&m);
  free (t);
  return err;
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
  for (int follower = 0; follower < 2; follower++) {
    double dk, ek = tangent_error (follower, &dk);
    char what[200];
    snprintf (what, sizeof what, "%s line load on a tapered corotational Timoshenko beam with "
              "gravity: K = d(f_int - f_ext)/dq (error %.1e of the load stiffness), deck "
              "loads (%.1e)",
              follower ? "follower" : "global", ek, dk);
    printf ("  %s\n", what);
    CHECK (what, ek < 1e-5 && dk < 1e-14);
  }
  return CHECK_DONE ();
}
