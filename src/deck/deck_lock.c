/* deck_lock.c: a lock joint on a list of nodes (`nodes: [A, B, C, ...]`) or on every node
   of a beam (`beam: NAME`), expanded into one lock joint per locked node. */
#include "deck_yaml.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "deck_lock.h"
#include "deck_masses.h"

enum { LOCK_LABEL = 192 };

/* The scalar e as a node name into *r (name owned by r); item names it in messages. */
static int lock_ref (deck_ctx *c, const char *p, const yaml_node_t *seq, const yaml_node_t *e,
                     const char *item, deck_ref *r)
{
  char g[96];
  if (!e) return deck_fail_at (c, seq, "%s'%s' is malformed", p, item);
  if (e->type != YAML_SCALAR_NODE || deck_is_null (e) || e->data.scalar.length == 0)
    return deck_fail_at (c, e->type == YAML_SCALAR_NODE ? seq : e, "%s'%s' must be a node"
                         " name (got %s)", p, item, deck_describe (e, g, sizeof g));
  if (memchr (e->data.scalar.value, 0, e->data.scalar.length))
    return deck_fail_at (c, e, "%s'%s' must not contain a NUL character", p, item);
  if (!(r->name = deck_dup ((const char *) e->data.scalar.value, e->data.scalar.length)))
    return deck_no_memory (c);
  r->pos = deck_pos_of (e);
  return 0;
}

/* nodes of a lock: 2 names as deck_model.c reads them; n >= 3: A then the locked nodes.
   Ownership: node[0], node[1] and more[] (with their names) belong to the joint. */
int deck_lock_nodes_fn (deck_ctx *c, const char *sec, deck_field *f)
{
  deck_joint *j = f->dst;
  const yaml_node_t *v = f->v;
  char p[LOCK_LABEL], g[96];
  deck_prefix (p, sizeof p, sec);
  if (v->type != YAML_SEQUENCE_NODE || deck_seq_len (v) <= 2) {
    deck_field two = *f;
    two.dst = j->node;
    return deck_model_nodes_fn (c, sec, &two);
  }
  long n = deck_seq_len (v);
  if (!(j->more = deck_calloc ((size_t) (n - 2), sizeof *j->more))) return deck_no_memory (c);
  for (long i = 0; i < n; i++) {
    char item[32];
    deck_ref *r = i < 2 ? &j->node[i] : &j->more[i - 2];
    snprintf (item, sizeof item, "nodes[%ld]", i);
    MB_TRY (lock_ref (c, p, v, deck_seq_item (c, v, i), item, r));
    if (i >= 2) j->nmore = (int) (i - 1);
    if (i > 0 && !strcmp (r->name, "ground"))
      return deck_fail_pos (c, r->pos, "%s'%s' is ground: a lock on several nodes locks"
                            " nodes[1..] to nodes[0]; only nodes[0] may be ground", p, item);
    for (long k = 0; k < i; k++) {
      const deck_ref *o = k < 2 ? &j->node[k] : &j->more[k - 2];
      if (!strcmp (o->name, r->name))
        return deck_fail_pos (c, r->pos, "%s'nodes' names '%s' twice", p,
                              deck_shown (deck_seq_item (c, v, i), g, sizeof g));
    }
  }
  return 0;
}

/* beam: NAME (a name; whether the beam exists is checked by deck_lock_expand) */
int deck_lock_beam_fn (deck_ctx *c, const char *sec, deck_field *f)
{
  deck_joint *j = f->dst;
  char p[LOCK_LABEL];
  deck_prefix (p, sizeof p, sec);
  return lock_ref (c, p, f->v, f->v, "beam", &j->beam);
}

int deck_lock_check (deck_ctx *c, const deck_joint *j, const char *label,
                     const yaml_node_t *map, const yaml_node_t *nodes_k,
                     const yaml_node_t *beam_k, const yaml_node_t *at_k)
{
  if (nodes_k && beam_k)
    return deck_fail_at (c, deck_later (nodes_k, beam_k), "%s: give 'nodes' or 'beam', not"
                         " both", label);
  if (!nodes_k && !beam_k)
    return deck_fail_at (c, map, "%s: missing required key 'nodes' (or 'beam': lock every"
                         " node of a beam to ground)", label);
  if (at_k && (beam_k || j->nmore > 0))
    return deck_fail_at (c, at_k, "%s: 'at' is for a lock on 2 nodes; a lock on several"
                         " nodes (or a beam) locks each at its own position", label);
  return 0;
}

/* The nodes of beam b: sum of its elements per segment, plus one. */
static int beam_node_count (const deck_beam *b)
{
  int n = 1;
  for (int s = 0; s + 1 < b->npoints; s++) n += b->elements[s];
  return n;
}

/* The number of lock joints j stands for (1 for any joint not on several nodes), or -1
   with an error when its beam does not exist. */
static int lock_count (deck_ctx *c, const deck_model *m, const deck_joint *j)
{
  if (j->beam.name) {
    for (int b = 0; b < m->nbeams; b++)
      if (!strcmp (m->beams[b].name, j->beam.name)) return beam_node_count (&m->beams[b]);
    deck_fail_pos (c, j->beam.pos, "joint '%s': 'beam' names '%s', which is not a beam",
                   j->name, j->beam.name);
    return -1;
  }
  return 1 + j->nmore;
}

/* out = a lock like j from a to b, named "NAME:BNAME"; names owned by out. */
static int one_lock (deck_ctx *c, const deck_joint *j, const deck_ref *a, const char *bname,
                     deck_pos bpos, deck_joint *out)
{
  memset (out, 0, sizeof *out);
  out->type = j->type;
  memcpy (out->R, j->R, sizeof out->R);
  out->lock_mask = j->lock_mask;
  out->pos = j->pos;
  out->pos_axis = j->pos_axis;
  size_t len = strlen (j->name) + 1 + strlen (bname) + 1;
  out->name = malloc (len);
  out->node[0].name = deck_dup (a->name, strlen (a->name));
  out->node[1].name = deck_dup (bname, strlen (bname));
  if (!out->name || !out->node[0].name || !out->node[1].name) return deck_no_memory (c);
  snprintf (out->name, len, "%s:%s", j->name, bname);
  out->node[0].pos = a->pos;
  out->node[1].pos = bpos;
  return 0;
}

/* frees the names of joints t[0..n) and t */
static void free_joints (deck_joint *t, int n)
{
  for (int i = 0; t && i < n; i++) {
    free (t[i].name);
    free (t[i].node[0].name);
    free (t[i].node[1].name);
    deck_lock_clear (&t[i]);
  }
  free (t);
}

int deck_lock_expand (deck_ctx *c, deck_model *m)
{
  long total = 0;
  int any = 0;
  for (int i = 0; i < m->njoints; i++) {
    int n = lock_count (c, m, &m->joints[i]);
    if (n < 0) return MB_EDECK;
    total += n;
    any |= m->joints[i].beam.name || m->joints[i].nmore > 0;
  }
  if (!any) return 0;
  if (total > 100000000L)
    return deck_fail_pos (c, m->joints[0].pos, "joints: more than 1e8 lock joints");
  deck_joint *t = deck_calloc ((size_t) total, sizeof *t);
  if (!t) return deck_no_memory (c);
  int k = 0;
  for (int i = 0; i < m->njoints; i++) {
    deck_joint *j = &m->joints[i];
    int rc = 0;
    if (j->beam.name) {
      char ground_name[] = "ground";
      deck_ref ground = { ground_name, j->beam.pos };
      int n = lock_count (c, m, j);
      size_t len = strlen (j->beam.name) + 16;
      char *bn = malloc (len);
      if (!bn) rc = deck_no_memory (c);
      for (int q = 0; q < n && rc == 0; q++) {
        snprintf (bn, len, "%s.%d", j->beam.name, q);   /* the beam's node q */
        rc = one_lock (c, j, &ground, bn, j->beam.pos, &t[k]);
        k++;
      }
      free (bn);
    } else if (j->nmore > 0) {
      for (int q = 0; q <= j->nmore && rc == 0; q++) {
        const deck_ref *b = q == 0 ? &j->node[1] : &j->more[q - 1];
        rc = one_lock (c, j, &j->node[0], b->name, b->pos, &t[k]);
        k++;
      }
    } else {
      t[k++] = *j;   /* moved: its names now belong to t */
      memset (j, 0, sizeof *j);
    }
    if (rc) {
      free_joints (t, k);
      return rc;
    }
  }
  free_joints (m->joints, m->njoints);
  m->joints = t;
  m->njoints = k;
  return 0;
}

void deck_lock_clear (deck_joint *j)
{
  for (int i = 0; j->more && i < j->nmore; i++) free (j->more[i].name);
  free (j->more);
  free (j->beam.name);
  j->more = NULL;
  j->nmore = 0;
  j->beam.name = NULL;
}
