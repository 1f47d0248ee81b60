/* beam_taper.c: stepped and tapered beams: the section properties of each element when a
   beam's `section` is a list with one entry per segment (a name, or a pair tapering
   linearly from one section to another of the same shape), by the midpoint rule. */
#include "elements.h"

#include <stdlib.h>

static const double PI = 3.14159265358979323846;

/* The deck section called name, or NULL. */
static const deck_section *section_named (const deck_model *dm, const char *name)
{
  for (int i = 0; i < dm->nsections; i++)
    if (!strcmp (dm->sections[i].name, name)) return &dm->sections[i];
  return NULL;
}

/* p = (A, Iy, Iz, J) of a shape (deck_section.shape: 1, 2, 3) with dimensions d
   (deck_model.c section_obj's formulas):
   rectangle (y, z): A = y z, Iy = y z^3/12, Iz = z y^3/12,
     J = a b^3 (1/3 - 0.21 (b/a) (1 - (b/a)^4/12)), a = max, b = min;
   circle (d): A = pi d^2/4, Iy = Iz = pi d^4/64, J = 2 Iy;
   tube (do, wall): di = do - 2 wall, A = pi (do^2 - di^2)/4, Iy = Iz = pi (do^4 - di^4)/64,
     J = 2 Iy. */
static void shape_props (int shape, const double d[2], double p[4])
{
  if (shape == 1) {
    double y = d[0], z = d[1], a = fmax (y, z), b = fmin (y, z);
    p[0] = y * z;
    p[1] = y * z * z * z / 12;
    p[2] = z * y * y * y / 12;
    p[3] = a * b * b * b * (1.0 / 3 - 0.21 * (b / a) * (1 - pow (b / a, 4) / 12));
  } else if (shape == 2) {
    p[0] = PI * d[0] * d[0] / 4;
    p[1] = p[2] = PI * pow (d[0], 4) / 64;
    p[3] = 2 * p[1];
  } else {
    double o = d[0], i = d[0] - 2 * d[1];
    p[0] = PI * (o * o - i * i) / 4;
    p[1] = p[2] = PI * (pow (o, 4) - pow (i, 4)) / 64;
    p[3] = 2 * p[1];
  }
}

/* Element table of beam b from deck beam db (section list given): b->esec, 6 numbers per
   element (A, Iy, Iz, J, Asy, Asz), owned by the model (model_clear frees it). Element j of
   n in a segment from section a to section c, at its midpoint t = (j + 1/2) / n:
     same name: a's properties;
     a taper (same shape): the shape of dimensions (1 - t) d_a + t d_c; sections given by
     their properties: (1 - t) p_a + t p_c;
   shear areas k(t) A(t), k = As / A of each end (beam_shear_areas) interpolated linearly.
   Errors (MB_EDECK, at the entry): an unknown section, a count other than the segments',
   a taper between different shapes, Iy != Iz without y_axis. b->esec NULL when the deck
   gave one name. Returns 0, MB_EDECK or MB_ENOMEM. */
int beam_taper_build (const deck_model *dm, const deck_beam *db, const char *path,
                      model_beam *b, mb_err *err)
{
  b->esec = NULL;
  if (db->nseg_sections == 0) return 0;
  int nseg = db->npoints - 1;
  if (db->nseg_sections != nseg)
    return mb_fail_at (err, MB_EDECK, path, db->pos_section.line, db->pos_section.col,
                       "beam '%s': 'section' has %d entr%s but the beam has %d segment%s",
                       db->name, db->nseg_sections, db->nseg_sections == 1 ? "y" : "ies",
                       nseg, nseg == 1 ? "" : "s");
  if (!(b->esec = calloc ((size_t) b->nelements * 6, sizeof *b->esec))) return MB_ENOMEM;
  double *out = b->esec;
  for (int s = 0; s < nseg; s++) {
    const deck_section *sc[2];
    double k[2][2];
    deck_pos p = db->seg_pos[s];
    for (int e = 0; e < 2; e++) {
      const char *nm = db->seg_sections[2 * s + e];
      if (!(sc[e] = section_named (dm, nm)))
        return mb_fail_at (err, MB_EDECK, path, p.line, p.col,
                           "beam '%s': segment %d: unknown section '%s'", db->name, s + 1, nm);
      if (!db->has_y_axis && fabs (sc[e]->Iy - sc[e]->Iz) > 1e-12 * fmax (sc[e]->Iy, sc[e]->Iz))
        return mb_fail_at (err, MB_EDECK, path, p.line, p.col,
                           "beam '%s': y_axis is required: section '%s' has Iy != Iz "
                           "(Iy = %g, Iz = %g)", db->name, nm, sc[e]->Iy, sc[e]->Iz);
      model_beam t = *b;
      MB_TRY (beam_shear_areas (db, sc[e], path, &t, err));
      k[e][0] = t.Asy / sc[e]->A;
      k[e][1] = t.Asz / sc[e]->A;
    }
    int taper = strcmp (sc[0]->name, sc[1]->name) != 0;
    if (taper && sc[0]->shape != sc[1]->shape)
      return mb_fail_at (err, MB_EDECK, path, p.line, p.col,
                         "beam '%s': segment %d tapers from section '%s' to '%s': a taper "
                         "needs two sections of the same shape", db->name, s + 1,
                         sc[0]->name, sc[1]->name);
    int n = db->elements[s];
    for (int j = 0; j < n; j++, out += 6) {
      double t = (j + 0.5) / n, pa[4] = { sc[0]->A, sc[0]->Iy, sc[0]->Iz, sc[0]->J };
      double pc[4] = { sc[1]->A, sc[1]->Iy, sc[1]->Iz, sc[1]->J };
      if (!taper || sc[0]->shape == 0)
        for (int i = 0; i < 4; i++) out[i] = (1 - t) * pa[i] + t * pc[i];
      else {
        double d[2] = { (1 - t) * sc[0]->dim[0] + t * sc[1]->dim[0],
                        (1 - t) * sc[0]->dim[1] + t * sc[1]->dim[1] };
        shape_props (sc[0]->shape, d, out);
      }
      out[4] = ((1 - t) * k[0][0] + t * k[1][0]) * out[0];
      out[5] = ((1 - t) * k[0][1] + t * k[1][1]) * out[0];
    }
  }
  return 0;
}

/* Beam ib with the section of its element k: the model's own beam when uniform, else a copy
   in *tmp with A, Iy, Iz, J, Asy, Asz from b->esec (borrowed; valid while tmp is). */
const model_beam *beam_of_element (const model *m, int ib, int k, model_beam *tmp)
{
  const model_beam *b = &m->beams[ib];
  if (!b->esec) return b;
  *tmp = *b;
  const double *p = b->esec + 6 * (size_t) k;
  tmp->A = p[0]; tmp->Iy = p[1]; tmp->Iz = p[2]; tmp->J = p[3];
  tmp->Asy = p[4]; tmp->Asz = p[5];
  return tmp;
}
