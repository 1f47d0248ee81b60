/* node_ref.c: node names to node indices (model_find_node, model_ref_node), with a "did
   you mean" for unknown names; a leaf of model/ that model.c, joint.c, force.c and
   point_mass.c call, so that the builders and model.c do not call each other. */
#include <stdio.h>
#include <string.h>

#include "elements.h"

/* Levenshtein distance of a and b, capped at 3 (enough for "did you mean"). */
static int edit_distance (const char *a, const char *b)
{
  size_t na = strlen (a), nb = strlen (b);
  if (na > nb + 3 || nb > na + 3 || na > 200 || nb > 200) return 3;
  int prev[202], cur[202];
  for (size_t j = 0; j <= nb; j++) prev[j] = (int) j;
  for (size_t i = 1; i <= na; i++) {
    cur[0] = (int) i;
    for (size_t j = 1; j <= nb; j++) {
      int sub = prev[j - 1] + (a[i - 1] != b[j - 1]);
      int del = prev[j] + 1, ins = cur[j - 1] + 1;
      cur[j] = sub < del ? (sub < ins ? sub : ins) : (del < ins ? del : ins);
    }
    memcpy (prev, cur, (nb + 1) * sizeof *prev);
  }
  return prev[nb] < 3 ? prev[nb] : 3;
}

/* The closest node name to name (alias or "ground") within 1 edit for short names and
   2 otherwise, or NULL. */
static const char *suggest_node (const model *m, const char *name)
{
  int limit = strlen (name) <= 3 ? 1 : 2;
  const char *best = NULL;
  int bd = limit + 1;
  if (edit_distance (name, "ground") < bd) { best = "ground"; bd = edit_distance (name, "ground"); }
  for (int i = 0; i < m->naliases; i++) {
    int d = edit_distance (name, m->aliases[i].name);
    if (d < bd) { bd = d; best = m->aliases[i].name; }
  }
  return best;
}

/* Binary search of the sorted aliases: the node of name, or -1 (model.h). */
int model_find_node (const model *m, const char *name)
{
  int lo = 0, hi = m->naliases - 1;
  while (lo <= hi) {
    int mid = lo + (hi - lo) / 2;
    int c = strcmp (m->aliases[mid].name, name);
    if (c == 0) return m->aliases[mid].node;
    if (c < 0) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/* Unknown node name: a hint for BEAM.<i> out of range, else the closest name. */
static int fail_unknown_node (const model *m, const deck_ref *r, const char *path,
                              const char *what, mb_err *err)
{
  const char *dot = strchr (r->name, '.');
  if (dot) {
    size_t n = (size_t) (dot - r->name);
    for (int b = 0; b < m->nbeams; b++) {
      const model_beam *bm = &m->beams[b];
      if (strlen (bm->name) == n && !strncmp (bm->name, r->name, n))
        return mb_fail_at (err, MB_EDECK, path, r->pos.line, r->pos.col,
                           "%s: unknown node '%s' (beam '%s' has nodes %s.0 .. %s.%d, "
                           "%s.start and %s.end)", what, r->name, bm->name, bm->name,
                           bm->name, bm->nelements, bm->name, bm->name);
    }
  }
  for (int b = 0; b < m->nbeams; b++)
    if (!strcmp (m->beams[b].name, r->name))
      return mb_fail_at (err, MB_EDECK, path, r->pos.line, r->pos.col,
                         "%s: '%s' is a beam, not a node (use %s.start, %s.end or %s.<index>, "
                         "0 .. %d)", what, r->name, r->name, r->name, r->name,
                         m->beams[b].nelements);
  const char *s = suggest_node (m, r->name);
  if (s)
    return mb_fail_at (err, MB_EDECK, path, r->pos.line, r->pos.col,
                       "%s: unknown node '%s' (did you mean '%s'?)", what, r->name, s);
  return mb_fail_at (err, MB_EDECK, path, r->pos.line, r->pos.col,
                     "%s: unknown node '%s'", what, r->name);
}

/* "ground" -> MODEL_GROUND, an alias -> its node, else MB_EDECK at r (elements.h). */
int model_ref_node (const model *m, const deck_ref *r, const char *path, const char *what,
                    int *node, mb_err *err)
{
  if (!r->name || !r->name[0])
    return mb_fail_at (err, MB_EDECK, path, r->pos.line, r->pos.col,
                       "%s: a node name is missing", what);
  if (!strcmp (r->name, "ground")) { *node = MODEL_GROUND; return 0; }
  int i = model_find_node (m, r->name);
  if (i < 0) return fail_unknown_node (m, r, path, what, err);
  *node = i;
  return 0;
}
