/* deck_masses.c: the masses: section of a model deck (point masses on named nodes). */
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

/* Frees the masses (names and node references). */
void deck_masses_clear (deck_model *m)
{
  for (int i = 0; m->masses && i < m->nmasses; i++) {
    free (m->masses[i].name);
    free (m->masses[i].node.name);
  }
  free (m->masses);
  m->masses = NULL;
  m->nmasses = 0;
}
