/* deck_points.c: polyline vertices of a beam given as {at: [x, y, z], name: NAME}: the
   name becomes a named node of the beam at that vertex, whatever 'elements' says. */
#include "deck_yaml.h"
#include "deck_masses.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* See deck_masses.h. The names are kept with their vertex in b->vnamed (one slot per
   point, allocated on the first name) until deck_points_vertex_nodes. */
int deck_points_named_vertex (deck_ctx *c, const char *sec, const yaml_node_t *e,
                              const char *item, deck_beam *b, int i)
{
  char label[200], *name = NULL;
  snprintf (label, sizeof label, "%s: %s", sec, item);
  deck_field f[] = {
    { .key = "at", .type = F_FN, .dst = b->points + 3 * i, .required = 1,
      .parse = deck_model_vec3_fn },
    { .key = "name", .type = F_STR, .dst = &name },
  };
  int rc = deck_walk (c, e, label, f, 2);
  if (rc || !f[1].k) { free (name); return rc; }   /* a name read before a later error */
  rc = deck_model_node_name (c, f[1].v, label);
  if (rc == 0 && !b->vnamed
      && !(b->vnamed = deck_calloc ((size_t) b->npoints, sizeof *b->vnamed)))
    rc = deck_no_memory (c);
  if (rc) { free (name); return rc; }
  deck_beam_node *nd = &b->vnamed[b->nvnamed++];
  nd->name = name;
  nd->index = i;
  nd->pos = deck_pos_of (f[1].v);
  return 0;
}

/* See deck_masses.h: vertex v is node sum_{s < v} elements[s]. */
int deck_points_vertex_nodes (deck_ctx *c, deck_beam *b)
{
  if (b->nvnamed == 0) return 0;
  deck_beam_node *all = realloc (b->named, ((size_t) b->nnamed + (size_t) b->nvnamed)
                                               * sizeof *all);
  if (!all) return deck_no_memory (c);
  b->named = all;
  for (int k = 0; k < b->nvnamed; k++) {
    deck_beam_node nd = b->vnamed[k];
    int node = 0;
    for (int s = 0; s < nd.index; s++) node += b->elements[s];
    nd.index = node;
    b->named[b->nnamed++] = nd;
    b->vnamed[k].name = NULL;                  /* moved */
  }
  free (b->vnamed);
  b->vnamed = NULL;
  b->nvnamed = 0;
  return 0;
}
