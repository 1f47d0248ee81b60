/* deck_sweep.c: the `sweep:` section of a model deck, every key and range checked.

   sweep := { parameter: PATH | [PATH, PATH], values?: [real, ...],
              range?: { from: real, to: real, steps: int >= 2 },
              orders?: [real > 0, ...] (at most 4; default [1, 2]),
              mac_min?: real in (0, 1) (default 0.5) }
   Exactly one of values and range. A range has `steps` values from `from` to `to`,
   evenly spaced, both ends included. */
#include "deck_yaml.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "deck.h"

/* F_FN: parameter: one path, or a list of one or two paths, into c->d->sweep */
static int parameter_value (deck_ctx *c, const char *sec, deck_field *f)
{
  deck_sweep *s = &c->d->sweep;
  const yaml_node_t *v = f->v;
  char g[96];
  long n = v->type == YAML_SEQUENCE_NODE ? deck_seq_len (v) : 1;
  if ((v->type != YAML_SCALAR_NODE && v->type != YAML_SEQUENCE_NODE) || deck_is_null (v)
      || n < 1 || n > DECK_SWEEP_MAX_PATHS)
    return deck_fail_at (c, deck_is_null (v) ? f->k : v, "%s: 'parameter' must be a deck "
                         "value's path such as forces.mount.k, or a list of %d such paths "
                         "(got %s)", sec, DECK_SWEEP_MAX_PATHS, deck_describe (v, g, sizeof g));
  for (long i = 0; i < n; i++) {
    const yaml_node_t *x = v->type == YAML_SEQUENCE_NODE ? deck_seq_item (c, v, i) : v;
    if (!x || x->type != YAML_SCALAR_NODE || deck_is_null (x) || x->data.scalar.length == 0)
      return deck_fail_at (c, x ? x : v, "%s: 'parameter' must name deck values by path, "
                           "such as bodies.tip.mass", sec);
    s->path[i] = deck_dup ((const char *) x->data.scalar.value, x->data.scalar.length);
    if (!s->path[i]) return deck_no_memory (c);
    s->pos_path[i] = deck_pos_of (x);
    s->npaths = (int) i + 1;
  }
  return 0;
}

/* The length of field f's value, a list of 1 to max numbers (words: "numbers" or
   "positive numbers"), into *n; else MB_EDECK at the key (a null value) or the value. */
static int list_length (deck_ctx *c, const char *sec, const deck_field *f, int max,
                        const char *words, long *n)
{
  const yaml_node_t *v = f->v;
  char g[96];
  *n = v->type == YAML_SEQUENCE_NODE ? deck_seq_len (v) : 0;
  if (*n < 1 || *n > max)
    return deck_fail_at (c, deck_is_null (v) ? f->k : v, "%s: '%s' must be a list of 1 "
                         "to %d %s (got %s)", sec, f->key, max, words,
                         deck_describe (v, g, sizeof g));
  return 0;
}

/* The n items of the list v, each a number within r's range (r->key names them
   KEY[i]), into out. MB_EDECK at the first item that is not. */
static int list_numbers (deck_ctx *c, const char *sec, const yaml_node_t *v,
                         deck_field *r, long n, double *out)
{
  for (long i = 0; i < n; i++) {
    const yaml_node_t *x = deck_seq_item (c, v, i);
    char name[48];
    snprintf (name, sizeof name, "%s[%ld]", r->key, i);
    if (!x || x->type != YAML_SCALAR_NODE)
      return deck_fail_at (c, x ? x : v, "%s: '%s' must be a number", sec, name);
    MB_TRY (deck_get_real (c, sec, r, x, name, &out[i]));
  }
  return 0;
}

/* F_FN: values: a list of at least one number */
static int values_value (deck_ctx *c, const char *sec, deck_field *f)
{
  deck_sweep *s = &c->d->sweep;
  long n;
  MB_TRY (list_length (c, sec, f, DECK_SWEEP_MAX_VALUES, "numbers", &n));
  if (!(s->values = deck_calloc ((size_t) n, sizeof *s->values))) return deck_no_memory (c);
  s->nvalues = (int) n;
  deck_field r = { .key = "values", .type = F_REAL, .lo = -1e300, .hi = 1e300,
                   .range = "finite" };
  MB_TRY (list_numbers (c, sec, f->v, &r, n, s->values));
  s->pos_values = deck_pos_of (f->v);
  return 0;
}

/* range: { from, to, steps } -> the values, both ends included */
static int range_section (deck_ctx *c, const yaml_node_t *map, const char *sec)
{
  deck_sweep *s = &c->d->sweep;
  double from = 0, to = 0;
  int steps = 0;
  deck_field f[] = {
    { .key = "from", .type = F_REAL, .dst = &from, .required = 1, .lo = -1e300, .hi = 1e300,
      .range = "finite" },
    { .key = "to", .type = F_REAL, .dst = &to, .required = 1, .lo = -1e300, .hi = 1e300,
      .range = "finite" },
    { .key = "steps", .type = F_INT, .dst = &steps, .required = 1, .lo = 2,
      .hi = DECK_SWEEP_MAX_VALUES, .range = ">= 2", .cap = "the sweep's cap on steps" },
  };
  MB_TRY (deck_walk (c, map, sec, f, 3));
  if (!(s->values = deck_calloc ((size_t) steps, sizeof *s->values))) return deck_no_memory (c);
  s->nvalues = steps;
  for (int i = 0; i < steps; i++)
    s->values[i] = i == steps - 1 ? to : from + (to - from) * i / (steps - 1);
  s->pos_values = deck_pos_of (map);
  return 0;
}

/* F_FN: orders: a list of 1..DECK_SWEEP_MAX_ORDERS positive numbers */
static int orders_value (deck_ctx *c, const char *sec, deck_field *f)
{
  deck_sweep *s = &c->d->sweep;
  long n;
  MB_TRY (list_length (c, sec, f, DECK_SWEEP_MAX_ORDERS, "positive numbers", &n));
  deck_field r = { .key = "orders", .type = F_REAL, .lo = 0, .lo_open = 1, .hi = 1e6,
                   .range = "in (0, 1e6]" };
  MB_TRY (list_numbers (c, sec, f->v, &r, n, s->orders));
  s->norders = (int) n;
  return 0;
}

int deck_sweep_section (deck_ctx *c, const yaml_node_t *map, const char *sec)
{
  deck_sweep *s = &c->d->sweep;
  s->present = 1;
  s->mac_min = 0.5;
  s->norders = 2;
  s->orders[0] = 1;
  s->orders[1] = 2;
  deck_field f[] = {
    { .key = "parameter", .type = F_FN, .required = 1, .parse = parameter_value },
    { .key = "values", .type = F_FN, .parse = values_value },
    { .key = "range", .type = F_MAP, .no_null = 1, .section = range_section },
    { .key = "orders", .type = F_FN, .parse = orders_value },
    { .key = "mac_min", .type = F_REAL, .dst = &s->mac_min, .lo = 0, .lo_open = 1, .hi = 1,
      .hi_open = 1, .range = "in (0, 1)" },
  };
  MB_TRY (deck_walk (c, map, sec, f, 5));
  if (f[1].k && f[2].k)
    return deck_fail_at (c, deck_later (f[1].k, f[2].k), "%s: give either 'values' or "
                         "'range', not both", sec);
  if (!f[1].k && !f[2].k)
    return deck_fail_at (c, map, "%s: missing 'values' (a list) or 'range' ({from, to, "
                         "steps}): the values to step through", sec);
  return 0;
}

int deck_sweep_finish (deck_ctx *c, const yaml_node_t *k, int model_deck)
{
  deck_sweep *s = &c->d->sweep;
  s->pos = deck_pos_of (k);
  if (!model_deck)
    return deck_fail_at (c, k, "'sweep' needs a model deck: its parameter names a model "
                         "value (bodies, forces, materials, masses)");
  if (!s->present)
    return deck_fail_at (c, k, "sweep: missing 'parameter' and 'values' or 'range'");
  return 0;
}

void deck_sweep_clear (deck_sweep *s)
{
  for (int i = 0; i < DECK_SWEEP_MAX_PATHS; i++) free (s->path[i]);
  free (s->values);
  memset (s, 0, sizeof *s);
}
