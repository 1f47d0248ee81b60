/* deck_lock.h: a lock joint on a list of nodes or on every node of a beam (deck_lock.c):
   the keys, and their expansion into one lock joint per node. Private to src/deck. */
#ifndef MB_DECK_LOCK_H
#define MB_DECK_LOCK_H

#include "deck_model.h"

struct deck_ctx;
struct deck_field;
struct yaml_node_s;

/* nodes: [A, B, C, ...] of a lock joint into (deck_joint *) f->dst (F_FN): two names as any
   joint's nodes; three or more lock each of B, C, ... to A (A may be ground, the others may
   not; no name twice): node[0] = A, node[1] = B, the rest into more / nmore (owned). */
int deck_lock_nodes_fn (struct deck_ctx *c, const char *sec, struct deck_field *f);

/* beam: NAME of a lock joint into (deck_joint *) f->dst's beam (F_FN): every node of that
   beam locked to ground. */
int deck_lock_beam_fn (struct deck_ctx *c, const char *sec, struct deck_field *f);

/* After a joint's keys are read: a lock needs 'nodes' or 'beam', not both, and a lock on
   several nodes takes no 'at' (each node is locked at its own position). nodes_k, beam_k
   and at_k are the keys given (NULL: absent); label names the joint. */
int deck_lock_check (struct deck_ctx *c, const deck_joint *j, const char *label,
                     const struct yaml_node_s *map, const struct yaml_node_s *nodes_k,
                     const struct yaml_node_s *beam_k, const struct yaml_node_s *at_k);

/* Once the beams are known: each lock on several nodes becomes one lock joint per locked
   node, named "NAME:NODE" ("NAME:BEAM.i" for a beam's node i), with the same dofs and
   frame, in the order of the list (of the beam's nodes); m->joints is replaced (owned). A
   beam that does not exist is an error at its name. */
int deck_lock_expand (struct deck_ctx *c, deck_model *m);

/* deck_model.c's reader of a joint's or force's 'nodes: [A, B]' into (deck_ref *) f->dst,
   exported for deck_lock.c (same contract as there). */
int deck_model_nodes_fn (struct deck_ctx *c, const char *sec, struct deck_field *f);

/* Frees what j owns for a lock on several nodes (more, beam.name); j itself is not freed. */
void deck_lock_clear (deck_joint *j);

#endif
