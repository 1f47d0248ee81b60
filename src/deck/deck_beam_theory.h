/* deck_beam_theory.h: the deck keys of Timoshenko beams (a beam's theory, a section's
   shear areas or shear factor) and of line loads on beams, read by deck_model.c's section
   and beam objects. */
#ifndef MB_DECK_BEAM_THEORY_H
#define MB_DECK_BEAM_THEORY_H

#include "deck_yaml.h"

/* F_FN of beams.*.theory: euler_bernoulli | timoshenko into (int *) f->dst
   (BEAM_THEORY_EB, BEAM_THEORY_TIMOSHENKO). */
int deck_beam_theory_fn (deck_ctx *c, const char *sec, deck_field *f);

/* After deck_walk of a section: f[0..2] the fields Asy, Asz, shear_factor (already read
   into s). Checks that Asy and Asz come together and not with shear_factor, and sets
   s->shear_default from the shape (shape: 0 rectangle, 1 circle, 2 tube, -1 properties).
   Returns 0 or MB_EDECK (the message at the offending key). */
int deck_section_shear (deck_ctx *c, const yaml_node_t *map, const char *label,
                        const deck_field *f, int shape, deck_section *s);

/* F_FN of beams.*.line_load: { value: [qx, qy, qz] (N/m, finite), frame?: global | body }
   into the deck_beam f->dst (line_load, line_load_body, has_line_load). */
int deck_beam_line_load_fn (deck_ctx *c, const char *sec, deck_field *f);

/* F_FN of beams.*.section (deck_beam_taper.c): a name into b->section, or a list with one
   entry per segment, each a name or [start, end] (a linear taper), into b->seg_sections
   (b->section = the first entry's first name). f->dst is the deck_beam. */
int deck_beam_section_fn (deck_ctx *c, const char *sec, deck_field *f);

/* Frees the segment sections of b (deck_model_clear). */
void deck_beam_sections_free (deck_beam *b);

#endif
