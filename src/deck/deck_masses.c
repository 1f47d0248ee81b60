/* deck_masses.c: the masses: section of a model deck (point masses on named nodes) and
   the planar: key (a model that moves in one coordinate plane). */
#include "deck_yaml.h"
#include "deck_masses.h"

#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

/* One mass: node (a body or beam node, not ground), mass > 0, inertia (zero by default,
   about its own centre of mass, global axes, checked as a body's: symmetric, positive
   semi-definite, triangle inequality), offset from the node (zero by default). */
static int mass_obj (deck_ctx *c, const yaml_node_t *k, const yaml_node_t *map,
                     const char *label, void *obj)
{
  deck_mass *m = obj;
  m->name = deck_dup ((const char *) k->data.scalar.value, k->data.scalar.length);
  if (!m->name) return deck_no_memory (c);
  m->pos = deck_pos_of (k);
  deck_field f[] = {
    { .key = "node", .type = F_FN, .dst = &m->node, .required = 1,
      .parse = deck_model_node_fn },
    { .key = "mass", .type = F_REAL, .dst = &m->mass, .required = 1, .lo = 0,
      .lo_open = 1, .hi = HUGE_VAL, .range = "> 0" },
    { .key = "inertia", .type = F_FN, .dst = m->J, .parse = deck_model_inertia_fn },
    { .key = "offset", .type = F_FN, .dst = m->offset, .parse = deck_model_vec3_fn },
  };
  return deck_walk (c, map, label, f, 4);
}

/* masses: NAME -> mass; names unique among the masses */
int deck_model_masses (deck_ctx *c, const yaml_node_t *map, const char *sec)
{
  deck_model *m = &c->d->model;
  if (!(m->masses = deck_calloc ((size_t) deck_map_len (map), sizeof *m->masses)))
    return deck_no_memory (c);
  return deck_model_mass_collection (c, map, sec, m->masses, sizeof *m->masses, &m->nmasses,
                                     mass_obj, offsetof (deck_mass, name),
                                     offsetof (deck_mass, pos));
}

/* planar: one of xy, yz, zx (or xz, zy, yx), any case: the plane's index */
int deck_model_planar (deck_ctx *c, const char *sec, deck_field *f)
{
  static const char *const names[] = { "xy", "yx", "yz", "zy", "zx", "xz" };
  deck_model *m = f->dst;
  const yaml_node_t *v = f->v;
  char g[96];
  (void) sec;
  for (int i = 0; i < 6; i++)
    if (v->type == YAML_SCALAR_NODE && deck_same_nocase (v, names[i])) {
      m->planar = PLANAR_XY + i / 2;
      m->pos_planar = deck_pos_of (v);
      return 0;
    }
  return deck_fail_at (c, deck_is_null (v) ? f->k : v, "'planar' must be xy, yz or zx (the"
                       " plane the model moves in) (got %s)", deck_describe (v, g, sizeof g));
}

/* Frees the masses (names and node references), and the vertex names of points: that a
   failed parse left in the beams' vnamed. */
void deck_masses_clear (deck_model *m)
{
  for (int i = 0; m->masses && i < m->nmasses; i++) {
    free (m->masses[i].name);
    free (m->masses[i].node.name);
  }
  free (m->masses);
  m->masses = NULL;
  m->nmasses = 0;
  for (int i = 0; m->beams && i < m->nbeams; i++) {   /* names of vertices not yet moved */
    deck_beam *b = &m->beams[i];
    for (int k = 0; b->vnamed && k < b->nvnamed; k++) free (b->vnamed[k].name);
    free (b->vnamed);
    b->vnamed = NULL;
    b->nvnamed = 0;
  }
}
