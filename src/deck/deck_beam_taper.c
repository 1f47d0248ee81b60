/* deck_beam_taper.c: reads a beam's `section` key: one section name, or a list with one
   entry per polyline segment, each a name or a pair [start, end] (a linear taper). */
#include "deck_beam_theory.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* *out = copy of scalar v, a non-empty name; else an error at v naming what it is. */
static int section_name (deck_ctx *c, const char *sec, const yaml_node_t *v, char **out)
{
  char g[96];
  if (v->type != YAML_SCALAR_NODE || deck_is_null (v) || v->data.scalar.length == 0
      || memchr (v->data.scalar.value, 0, v->data.scalar.length))
    return deck_fail_at (c, v, "%s: a section must be a name (got %s)", sec,
                         deck_describe (v, g, sizeof g));
  *out = deck_dup ((const char *) v->data.scalar.value, v->data.scalar.length);
  return *out ? 0 : deck_no_memory (c);
}

/* section: NAME, or [entry, ...] with entry NAME | [NAME, NAME]. The list's length is
   checked against the segments by model_build (beam_taper.c), which knows both. */
int deck_beam_section_fn (deck_ctx *c, const char *sec, deck_field *f)
{
  deck_beam *b = f->dst;
  char lab[200], g[96];
  snprintf (lab, sizeof lab, "%s: section", sec ? sec : "beam");
  if (f->v->type != YAML_SEQUENCE_NODE) {
    if (f->v->type != YAML_SCALAR_NODE || deck_is_null (f->v))
      return deck_fail_at (c, deck_is_null (f->v) ? f->k : f->v, "%s: 'section' must be a"
                           " name or a list with one entry per segment (got %s)", sec,
                           deck_describe (f->v, g, sizeof g));
    return section_name (c, sec, f->v, &b->section);
  }
  long n = f->v->data.sequence.items.top - f->v->data.sequence.items.start;
  if (n < 1)
    return deck_fail_at (c, f->v, "%s: the list is empty (one entry per segment)", lab);
  if (n > 10000000) return deck_fail_at (c, f->v, "%s: too many entries", lab);
  b->seg_sections = deck_calloc ((size_t) (2 * n), sizeof *b->seg_sections);
  b->seg_pos = deck_calloc ((size_t) n, sizeof *b->seg_pos);
  if (!b->seg_sections || !b->seg_pos) return deck_no_memory (c);
  b->nseg_sections = (int) n;
  for (long i = 0; i < n; i++) {
    const yaml_node_t *e = deck_seq_item (c, f->v, i);
    char item[220];
    snprintf (item, sizeof item, "%s[%ld]", lab, i);
    b->seg_pos[i] = deck_pos_of (e);
    if (e->type == YAML_SEQUENCE_NODE) {
      long m = e->data.sequence.items.top - e->data.sequence.items.start;
      if (m != 2)
        return deck_fail_at (c, e, "%s: a taper is a pair [start, end] of sections (got %ld"
                             " entr%s)", item, m, m == 1 ? "y" : "ies");
      MB_TRY (section_name (c, item, deck_seq_item (c, e, 0), &b->seg_sections[2 * i]));
      MB_TRY (section_name (c, item, deck_seq_item (c, e, 1), &b->seg_sections[2 * i + 1]));
    } else {
      MB_TRY (section_name (c, item, e, &b->seg_sections[2 * i]));
      b->seg_sections[2 * i + 1] = deck_dup (b->seg_sections[2 * i],
                                             strlen (b->seg_sections[2 * i]));
      if (!b->seg_sections[2 * i + 1]) return deck_no_memory (c);
    }
  }
  b->section = deck_dup (b->seg_sections[0], strlen (b->seg_sections[0]));
  return b->section ? 0 : deck_no_memory (c);
}

/* Frees b's segment sections and zeroes them. */
void deck_beam_sections_free (deck_beam *b)
{
  for (int i = 0; b->seg_sections && i < 2 * b->nseg_sections; i++) free (b->seg_sections[i]);
  free (b->seg_sections);
  free (b->seg_pos);
  b->seg_sections = NULL;
  b->seg_pos = NULL;
  b->nseg_sections = 0;
}
