/* deck_masses.h: the deck's masses: section (point masses on nodes) and planar: key,
   read by deck_masses.c into deck_model (deck_model.h), and the readers of deck_model.c
   that it shares. Private to src/deck. */
#ifndef MB_DECK_MASSES_H
#define MB_DECK_MASSES_H

#include <stddef.h>

#include "deck_model.h"

struct deck_ctx;
struct deck_field;
struct yaml_node_s;

/* masses: NAME -> { node, mass, inertia?, offset? } (F_MAP); the array is owned by the
   deck (deck_masses_clear frees it). Returns 0, MB_EDECK or MB_ENOMEM. */
int deck_model_masses (struct deck_ctx *c, const struct yaml_node_s *map, const char *sec);

/* planar: xy | yz | zx (xz, zy, yx: the same planes) into (deck_model *) f->dst's
   planar and pos_planar (F_FN). */
int deck_model_planar (struct deck_ctx *c, const char *sec, struct deck_field *f);

/* Frees m->masses and what its entries own; zeroes nmasses. */
void deck_masses_clear (deck_model *m);

/* points: item i of beam b given as {at: [x, y, z], name?: NAME} (deck_points.c): the
   vertex into b->points, its name (a node name, checked as nodes: names are) into
   b->vnamed with index i. item names it in messages ("points[2]"). */
int deck_points_named_vertex (struct deck_ctx *c, const char *sec,
                              const struct yaml_node_s *e, const char *item, deck_beam *b,
                              int i);

/* Once b's elements per segment are known: each named vertex becomes a named node of b
   (index = the elements of the segments before it), appended to b->named; vnamed freed. */
int deck_points_vertex_nodes (struct deck_ctx *c, deck_beam *b);

/* deck_model.c's readers, exported for deck_masses.c (same contracts as there). */
int deck_model_vec3_fn (struct deck_ctx *c, const char *sec, struct deck_field *f);
int deck_model_inertia_fn (struct deck_ctx *c, const char *sec, struct deck_field *f);
int deck_model_node_fn (struct deck_ctx *c, const char *sec, struct deck_field *f);
/* k is a valid node name (non-empty scalar, not "ground", no '.'); label for messages */
int deck_model_node_name (struct deck_ctx *c, const struct yaml_node_s *k, const char *label);
int deck_model_mass_collection (struct deck_ctx *c, const struct yaml_node_s *map,
                                const char *sec, void *arr, size_t size, int *n,
                                int (*fn) (struct deck_ctx *, const struct yaml_node_s *,
                                           const struct yaml_node_s *, const char *, void *),
                                size_t name_off, size_t pos_off);

#endif
