/* deck_statics.c: the `statics:` section of a model deck, every key and range checked.

   statics := { method?: fim | mkeam, max_imbalance?: real > 0 [N, N m],
                max_error?: real > 0 [m, rad], stability?: real >= 0,
                max_num_iter?: int >= 1, max_ke_tol?: real > 0 [J], max_dq_tol?: real > 0,
                p_f?: real > 0, allow_unconverged?: bool }
   Model decks only. An empty `statics:` runs FIM with the defaults of deck_statics.h. */
#include "deck_yaml.h"

#include <limits.h>
#include <math.h>
#include <string.h>

#include "deck_statics.h"

const char *deck_statics_method_name (statics_method m)
{
  return m == STATICS_MKEAM ? "mkeam" : "fim";
}

/* seed 002's defaults; max_num_iter 0 = by method (set after the walk) */
static void statics_defaults (deck_statics *s)
{
  memset (s, 0, sizeof *s);
  s->method = STATICS_FIM;
  s->max_imbalance = 1e-4;
  s->max_error = 1e-4;
  s->stability = 1e-10;
  s->max_ke_tol = 1e-5;
  s->max_dq_tol = 1e-3;
  s->p_f = 0;
}

void deck_statics_defaults (deck_statics *s)
{
  statics_defaults (s);
  s->max_num_iter = 50;
}

/* method: fim | mkeam (case-insensitive), with a "did you mean" */
static int method_value (deck_ctx *c, const char *sec, deck_field *f)
{
  static const char *const names[] = { "fim", "mkeam" };
  const yaml_node_t *v = f->v;
  char g[96], hint[64] = "";
  statics_method *m = f->dst;
  if (v->type == YAML_SCALAR_NODE && !deck_is_null (v))
    for (int i = 0; i < 2; i++)
      if (deck_same_nocase (v, names[i])) return *m = (statics_method) i, 0;
  if (v->type != YAML_SCALAR_NODE || deck_is_null (v))
    return deck_fail_at (c, deck_is_null (v) ? f->k : v, "%s: 'method' must be fim or mkeam"
                         " (got %s)", sec, deck_describe (v, g, sizeof g));
  int best = 3;
  for (int i = 0; i < 2; i++) {
    int d = deck_distance (v->data.scalar.value, v->data.scalar.length, names[i]);
    if (d < best) best = d, snprintf (hint, sizeof hint, "; did you mean '%s'?", names[i]);
  }
  return deck_fail_at (c, v, "%s: unknown method %s (expected fim or mkeam%s)", sec,
                       deck_describe (v, g, sizeof g), hint);
}

int deck_statics_section (deck_ctx *c, const yaml_node_t *map, const char *sec)
{
  deck_statics *s = &c->d->statics;
  statics_defaults (s);
  deck_field f[] = {
    { .key = "method", .type = F_FN, .dst = &s->method, .parse = method_value },
    { .key = "max_imbalance", .type = F_REAL, .dst = &s->max_imbalance, .lo = 0,
      .lo_open = 1, .hi = HUGE_VAL, .range = "> 0 [N, N m]" },
    { .key = "max_error", .type = F_REAL, .dst = &s->max_error, .lo = 0, .lo_open = 1,
      .hi = HUGE_VAL, .range = "> 0 [m, rad]" },
    { .key = "stability", .type = F_REAL, .dst = &s->stability, .lo = 0, .hi = HUGE_VAL,
      .range = ">= 0" },
    { .key = "max_num_iter", .type = F_INT, .dst = &s->max_num_iter, .lo = 1,
      .hi = INT_MAX, .range = ">= 1" },
    { .key = "max_ke_tol", .type = F_REAL, .dst = &s->max_ke_tol, .lo = 0, .lo_open = 1,
      .hi = HUGE_VAL, .range = "> 0 [J]" },
    { .key = "max_dq_tol", .type = F_REAL, .dst = &s->max_dq_tol, .lo = 0, .lo_open = 1,
      .hi = HUGE_VAL, .range = "> 0" },
    { .key = "p_f", .type = F_REAL, .dst = &s->p_f, .lo = 0, .lo_open = 1, .hi = HUGE_VAL,
      .range = "> 0 (leave it out to keep singularity removal off)" },
    { .key = "allow_unconverged", .type = F_BOOL, .dst = &s->allow_unconverged },
  };
  MB_TRY (deck_walk (c, map, sec, f, (int) (sizeof f / sizeof f[0])));
  s->imbalance_given = f[1].k != NULL;
  if (!f[4].k) s->max_num_iter = s->method == STATICS_MKEAM ? 100 : 50;
  s->present = 1;
  return 0;
}

int deck_statics_finish (deck_ctx *c, const yaml_node_t *k, int model_deck)
{
  deck_statics *s = &c->d->statics;
  if (!model_deck)
    return deck_fail_at (c, k, "'statics' needs a model deck (bodies, beams, joints, "
                         "forces): a matrix deck has no configuration to solve for");
  if (!s->present) {  /* `statics:` with an empty value */
    deck_statics_defaults (s);
    s->present = 1;
  }
  s->line = (int) k->start_mark.line + 1;
  s->col = (int) k->start_mark.column + 1;
  return 0;
}
