/* deck_beam_theory.c: reads the Timoshenko keys of a deck (beams.*.theory and the shear
   keys of a section: Asy, Asz, shear_factor, with the shape's default shear factor) and a
   beam's line load (beams.*.line_load). */
#include "deck_beam_theory.h"

#include <stdio.h>

/* theory: euler_bernoulli | timoshenko (exact spelling), else an error at the value that
   lists both. */
int deck_beam_theory_fn (deck_ctx *c, const char *sec, deck_field *f)
{
  int *out = f->dst;
  if (f->v->type == YAML_SCALAR_NODE && deck_same (f->v, "euler_bernoulli"))
    return *out = BEAM_THEORY_EB, 0;
  if (f->v->type == YAML_SCALAR_NODE && deck_same (f->v, "timoshenko"))
    return *out = BEAM_THEORY_TIMOSHENKO, 0;
  char g[96];
  return deck_fail_at (c, deck_is_null (f->v) ? f->k : f->v,
                       "%s: 'theory' must be one of euler_bernoulli, timoshenko (got %s)",
                       sec ? sec : "beam", deck_describe (f->v, g, sizeof g));
}

/* Shear keys of a section: Asy and Asz both or neither, not with shear_factor. Default
   shear factors k (shear area k A) of the shapes: rectangle 5/6, solid circle 9/10, thin
   tube 1/2 (Cowper's values for nu = 0.3 round to these: 0.850, 0.886, 0.53). */
int deck_section_shear (deck_ctx *c, const yaml_node_t *map, const char *label,
                        const deck_field *f, int shape, deck_section *s)
{
  (void) map;
  if (f[2].k && (f[0].k || f[1].k))
    return deck_fail_at (c, deck_later (f[2].k, f[0].k ? f[0].k : f[1].k),
                         "%s: give either 'shear_factor' or 'Asy' and 'Asz', not both", label);
  if (f[0].k && !f[1].k) return deck_fail_at (c, f[0].k, "%s: 'Asy' needs 'Asz'", label);
  if (f[1].k && !f[0].k) return deck_fail_at (c, f[1].k, "%s: 'Asz' needs 'Asy'", label);
  static const double kdef[3] = { 5.0 / 6.0, 0.9, 0.5 };
  s->shear_default = shape >= 0 && shape < 3 ? kdef[shape] : 0.0;
  return 0;
}

/* line_load: a mapping { value: 3 finite numbers [N/m], frame?: global | body }: a load per
   unit of deck length along the beam, fixed in global axes (global) or turning with the
   beam's cross-sections (body: a follower load; value given at the deck configuration). */
int deck_beam_line_load_fn (deck_ctx *c, const char *sec, deck_field *f)
{
  deck_beam *b = f->dst;
  char lab[200], g[96];
  snprintf (lab, sizeof lab, "%s: %s", sec ? sec : "beam", f->key);
  if (f->v->type != YAML_MAPPING_NODE)
    return deck_type_error (c, sec, f, f->v, "a mapping such as {value: [0, 0, -100]}", NULL);
  deck_field o[] = {
    { .key = "value", .type = F_SKIP, .required = 1 },
    { .key = "frame", .type = F_SKIP },
  };
  MB_TRY (deck_walk (c, f->v, lab, o, 2));
  MB_TRY (deck_get_numbers (c, lab, o[0].k, o[0].v, "value", 3, b->line_load));
  b->line_load_body = 0;
  if (o[1].v) {
    if (o[1].v->type == YAML_SCALAR_NODE && deck_same (o[1].v, "body")) b->line_load_body = 1;
    else if (!(o[1].v->type == YAML_SCALAR_NODE && deck_same (o[1].v, "global")))
      return deck_fail_at (c, deck_is_null (o[1].v) ? o[1].k : o[1].v,
                           "%s: 'frame' must be one of global, body (got %s)", lab,
                           deck_describe (o[1].v, g, sizeof g));
  }
  b->has_line_load = 1;
  return 0;
}
