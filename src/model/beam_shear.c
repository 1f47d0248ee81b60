/* beam_shear.c: a beam's shear areas from its deck theory and section (Timoshenko beams),
   and the planar Timoshenko element matrices beam.c builds its local element from. */
#include "elements.h"

/* Shear areas of beam db with section sec into b->Asy, b->Asz:
   theory euler_bernoulli: 0 (rigid in shear);
   else the section's Asy, Asz, or shear_factor k A for both, when given;
   else theory timoshenko: the shape's default k A (sec->shear_default); a section given by
   its properties has no default: MB_EDECK at the beam's theory key;
   else 0. Returns 0 or MB_EDECK. */
int beam_shear_areas (const deck_beam *db, const deck_section *sec, const char *path,
                      model_beam *b, mb_err *err)
{
  b->Asy = b->Asz = 0.0;
  if (db->theory == BEAM_THEORY_EB) return 0;
  if (sec->Asy > 0) {
    b->Asy = sec->Asy;
    b->Asz = sec->Asz;
  } else if (sec->shear_factor > 0) {
    b->Asy = b->Asz = sec->shear_factor * sec->A;
  } else if (db->theory == BEAM_THEORY_TIMOSHENKO) {
    if (!(sec->shear_default > 0))
      return mb_fail_at (err, MB_EDECK, path, db->pos_theory.line, db->pos_theory.col,
                         "beam '%s': theory timoshenko needs the shear areas of section '%s'"
                         " (give 'shear_factor' or 'Asy' and 'Asz' in the section)",
                         db->name, sec->name);
    b->Asy = b->Asz = sec->shear_default * sec->A;
  }
  return 0;
}

/* Planar bending of a Timoshenko element of length L on (v, r, v, r) with sign s (+1 in
   x-y: r = dv/dx; -1 in x-z: r = -dw/dx), the interdependent interpolation element
   (Przemieniecki 1968; Friedman and Kosmatka 1993): phi = 12 E Ib / (G As L^2),
   K = E Ib / ((1 + phi) L^3) [12, 6L, -12, 6L; ., (4 + phi) L^2, -6L, (2 - phi) L^2; ...],
   M = rho A L / (1 + phi)^2 (translational, m1..m6 below) + rho Ib / ((1 + phi)^2 L)
   (rotary, r1..r4). Entries coupling a translation with a rotation carry s. As = 0 (rigid
   in shear): phi = 0 and no rotary inertia, the cubic Euler-Bernoulli element. kb, mb:
   4 x 4 row-major. */
void beam_bending_plane (double E, double G, double rho, double A, double Ib, double As,
                         double L, double s, double kb[16], double mb[16])
{
  double phi = As > 0 ? 12.0 * E * Ib / (G * As * L * L) : 0.0, p2 = phi * phi;
  double q = 1.0 + phi, c = E * Ib / (q * L * L * L);
  double k4[16] = { 12, 6 * L, -12, 6 * L,
                    6 * L, (4 + phi) * L * L, -6 * L, (2 - phi) * L * L,
                    -12, -6 * L, 12, -6 * L,
                    6 * L, (2 - phi) * L * L, -6 * L, (4 + phi) * L * L };
  double m1 = 13.0 / 35 + 7 * phi / 10 + p2 / 3;
  double m2 = (11.0 / 210 + 11 * phi / 120 + p2 / 24) * L;
  double m3 = 9.0 / 70 + 3 * phi / 10 + p2 / 6;
  double m4 = (13.0 / 420 + 3 * phi / 40 + p2 / 24) * L;
  double m5 = (1.0 / 105 + phi / 60 + p2 / 120) * L * L;
  double m6 = (1.0 / 140 + phi / 60 + p2 / 120) * L * L;
  double mt[16] = { m1, m2, m3, -m4,
                    m2, m5, m4, -m6,
                    m3, m4, m1, -m2,
                    -m4, -m6, -m2, m5 };
  double r1 = 6.0 / 5, r2 = (1.0 / 10 - phi / 2) * L;
  double r3 = (2.0 / 15 + phi / 6 + p2 / 3) * L * L, r4 = (-1.0 / 30 - phi / 6 + p2 / 6) * L * L;
  double mr[16] = { r1, r2, -r1, r2,
                    r2, r3, -r2, r4,
                    -r1, -r2, r1, -r2,
                    r2, r4, -r2, r3 };
  double ct = rho * A * L / (q * q), cr = As > 0 ? rho * Ib / (q * q * L) : 0.0;
  for (int i = 0; i < 4; i++)
    for (int j = 0; j < 4; j++) {
      double sg = ((i ^ j) & 1) ? s : 1.0;   /* one index a rotation: the sign s */
      kb[4 * i + j] = sg * c * k4[4 * i + j];
      mb[4 * i + j] = sg * (ct * mt[4 * i + j] + cr * mr[4 * i + j]);
    }
}
