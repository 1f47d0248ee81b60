/* deck_frf.c: the `frf:` section (frequency response and state-space export), every key,
   type and range checked.

   frf := { inputs: [input, ...], outputs: [output, ...],
            frequencies: { min: real > 0 [Hz], max: real > min [Hz],
                           count: int in 2 .. 100000, spacing?: log | linear },
            damping: real in [0, 1) | [real in [0, 1), ...] | complex,
            static_correction?: bool, state_space?: text (a folder),
            state_space_model?: modal | full }
   input  := { name?: text, node: text, direction: vec3 | dofname,
               type?: force | torque }                                              model
           | { name?: text, dof: int >= 1 }                                       matrix
   output := { name?: text, node: text, direction: vec3 | dofname, rotation?: bool,
               quantity?: displacement | velocity | acceleration }                model
           | { name?: text, dof: int >= 1, quantity?: ... }                       matrix
   Defaults: spacing log, type force, rotation false, quantity displacement,
   static_correction true, state_space none, state_space_model modal. A dofname (dx dy dz
   rx ry rz; x y z the old names of dx dy dz) is the unit vector of that global axis, and rx
   ry rz make the item a torque (input) or a rotation (output). A list of ratios
   gives mode i its ratio i (the last one for the modes beyond the list). */
#include "deck_yaml.h"

#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "deck_frf.h"

enum { FRF_MAX_POINTS = 10000, FRF_MAX_COUNT = 100000, FRF_MAX_RATIOS = 1000000 };

/* F_FN: one of the words names[0..n) (case-insensitive) into *(int *) f->dst */
static int word_value (deck_ctx *c, const char *sec, deck_field *f, const char *const *names,
                       int n, const char *expected)
{
  const yaml_node_t *v = f->v;
  char g[96];
  if (v->type == YAML_SCALAR_NODE && !deck_is_null (v))
    for (int i = 0; i < n; i++)
      if (deck_same_nocase (v, names[i])) return *(int *) f->dst = i, 0;
  return deck_fail_at (c, deck_is_null (v) ? f->k : v, "%s: '%s' must be %s (got %s)", sec,
                       f->key, expected, deck_describe (v, g, sizeof g));
}

static int type_value (deck_ctx *c, const char *sec, deck_field *f)
{
  static const char *const w[] = { "force", "torque" };
  return word_value (c, sec, f, w, 2, "force or torque");
}

static int quantity_value (deck_ctx *c, const char *sec, deck_field *f)
{
  static const char *const w[] = { "displacement", "velocity", "acceleration" };
  return word_value (c, sec, f, w, 3, "displacement, velocity or acceleration");
}

static int spacing_value (deck_ctx *c, const char *sec, deck_field *f)
{
  static const char *const w[] = { "linear", "log" };
  return word_value (c, sec, f, w, 2, "log or linear");
}

static int model_value (deck_ctx *c, const char *sec, deck_field *f)
{
  static const char *const w[] = { "modal", "full" };
  return word_value (c, sec, f, w, 2, "modal or full");
}

/* The DOF names, translations along and rotations about the global x y z. */
static const char *const dof_names[6] = { "dx", "dy", "dz", "rx", "ry", "rz" };

/* The DOF name of a scalar: 0..5 for dx dy dz rx ry rz (x, y, z: the old names of dx, dy,
   dz, as a lock joint's dofs), -1 for anything else. */
static int dof_name_index (const yaml_node_t *v)
{
  static const char *const old[] = { "x", "y", "z" };
  if (v->type != YAML_SCALAR_NODE || deck_is_null (v)) return -1;
  for (int j = 0; j < 6; j++)
    if (deck_same (v, dof_names[j]) || (j < 3 && deck_same (v, old[j]))) return j;
  return -1;
}

/* F_FN: direction [x, y, z], not zero, normalized into (double *) f->dst; or a DOF name
   dx .. rz: the unit vector of its global axis (point_item makes rx .. rz a rotation) */
static int direction_value (deck_ctx *c, const char *sec, deck_field *f)
{
  double *d = f->dst;
  int j = dof_name_index (f->v);
  if (j >= 0) {
    d[0] = d[1] = d[2] = 0.0;
    d[j % 3] = 1.0;
    return 0;
  }
  if (f->v->type == YAML_SCALAR_NODE && !deck_is_null (f->v)) {
    char g[96];
    return deck_fail_at (c, f->v, "%s: 'direction' must be a vector [x, y, z] or a DOF name "
                         "dx, dy, dz, rx, ry, rz (got %s)", sec, deck_describe (f->v, g, sizeof g));
  }
  MB_TRY (deck_get_numbers (c, sec, f->k, f->v, "direction", 3, d));
  double s = sqrt (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
  if (!(s > 0) || !isfinite (s))
    return deck_fail_at (c, f->v, "%s: 'direction' must be a non-zero finite vector", sec);
  for (int i = 0; i < 3; i++) d[i] /= s;
  return 0;
}

/* One item of inputs (output = 0) or outputs into *p; index i for the default name. */
static int point_item (deck_ctx *c, const yaml_node_t *v, int output, int i, deck_frf_point *p)
{
  char sec[64], g[96];
  snprintf (sec, sizeof sec, "frf: %s[%d]", output ? "outputs" : "inputs", i);
  if (v->type != YAML_MAPPING_NODE)
    return deck_fail_at (c, v, "%s must be a mapping such as {node: tip, direction: [0, 0, "
                         "1]} (got %s)", sec, deck_describe (v, g, sizeof g));
  deck_field f[] = {
    { .key = "name", .type = F_STR, .dst = &p->name },
    { .key = "node", .type = F_STR, .dst = &p->node },
    { .key = "direction", .type = F_FN, .dst = p->dir, .parse = direction_value },
    { .key = "dof", .type = F_INT, .dst = &p->dof, .lo = 1, .hi = INT_MAX, .range = ">= 1" },
    { .key = "type", .type = F_FN, .dst = &p->rotation, .parse = type_value,
      .unused = output ? "an output (use 'rotation' and 'quantity')" : NULL },
    { .key = "rotation", .type = F_BOOL, .dst = &p->rotation,
      .unused = output ? NULL : "an input (use 'type: torque')" },
    { .key = "quantity", .type = F_FN, .dst = &p->quantity, .parse = quantity_value,
      .unused = output ? NULL : "an input" },
  };
  MB_TRY (deck_walk (c, v, sec, f, (int) (sizeof f / sizeof f[0])));
  if (f[1].k && f[3].k)
    return deck_fail_at (c, deck_later (f[1].k, f[3].k), "%s: give 'node' (model deck) or "
                         "'dof' (matrix deck), not both", sec);
  if (!f[1].k && !f[3].k)
    return deck_fail_at (c, v, "%s: missing 'node' (model deck) or 'dof' (matrix deck)", sec);
  if (f[1].k && !f[2].k)
    return deck_fail_at (c, v, "%s: missing required key 'direction'", sec);
  if (f[3].k && (f[2].k || f[4].k || f[5].k))
    return deck_fail_at (c, f[2].k ? f[2].k : f[4].k ? f[4].k : f[5].k, "%s: a 'dof' item "
                         "takes no direction, type or rotation", sec);
  /* a named direction says translation (dx dy dz) or rotation (rx ry rz) itself: an
     explicit type or rotation must agree */
  int j = f[2].k ? dof_name_index (f[2].v) : -1;
  if (j >= 0) {
    const deck_field *said = f[4].k ? &f[4] : f[5].k ? &f[5] : NULL;
    if (said && p->rotation != (j >= 3))
      return deck_fail_at (c, said->v, "%s: direction %s is a %s, but '%s' says a %s", sec,
                           dof_names[j],
                           j >= 3 ? "rotation" : "translation", said->key,
                           p->rotation ? (output ? "rotation" : "torque")
                                       : (output ? "translation" : "force"));
    p->rotation = j >= 3;
  }
  p->pos = deck_pos_of (f[1].k ? f[1].v : f[3].v);
  if (!p->name) {
    char nm[32];
    snprintf (nm, sizeof nm, "%s%d", output ? "out" : "in", i + 1);
    if (!(p->name = deck_dup (nm, strlen (nm)))) return deck_no_memory (c);
  }
  return 0;
}

/* F_FN: inputs or outputs (f->dst: deck_frf, the key tells which) */
static int points_value (deck_ctx *c, const char *sec, deck_field *f)
{
  deck_frf *fr = f->dst;
  int output = !strcmp (f->key, "outputs");
  char g[96];
  long n = f->v->type == YAML_SEQUENCE_NODE ? deck_seq_len (f->v) : 0;
  if (n < 1 || n > FRF_MAX_POINTS)
    return deck_fail_at (c, f->v->type == YAML_SEQUENCE_NODE ? f->v : f->k, "%s: '%s' must be "
                         "a sequence of 1 to %d items (got %s)", sec, f->key, FRF_MAX_POINTS,
                         deck_describe (f->v, g, sizeof g));
  deck_frf_point *p = deck_calloc ((size_t) n, sizeof *p);
  if (!p) return deck_no_memory (c);
  if (output) fr->outputs = p, fr->noutputs = (int) n;
  else fr->inputs = p, fr->ninputs = (int) n;
  for (long i = 0; i < n; i++)
    MB_TRY (point_item (c, deck_seq_item (c, f->v, i), output, (int) i, &p[i]));
  return 0;
}

/* frequencies mapping */
static int frequencies_section (deck_ctx *c, const yaml_node_t *map, const char *sec)
{
  (void) sec;
  deck_frf *fr = &c->d->frf;
  fr->log_spacing = 1;
  deck_field f[] = {
    { .key = "min", .type = F_REAL, .dst = &fr->fmin, .required = 1, .lo = 0, .lo_open = 1,
      .hi = HUGE_VAL, .range = "> 0 [Hz]" },
    { .key = "max", .type = F_REAL, .dst = &fr->fmax, .required = 1, .lo = 0, .lo_open = 1,
      .hi = HUGE_VAL, .range = "> 0 [Hz]" },
    { .key = "count", .type = F_INT, .dst = &fr->count, .required = 1, .lo = 2,
      .hi = FRF_MAX_COUNT, .range = "in 2 .. 100000" },
    { .key = "spacing", .type = F_FN, .dst = &fr->log_spacing, .parse = spacing_value },
  };
  MB_TRY (deck_walk (c, map, "frf: frequencies", f, (int) (sizeof f / sizeof f[0])));
  if (!(fr->fmax > fr->fmin))
    return deck_fail_at (c, f[1].v, "frf: frequencies: 'max' must be larger than 'min'");
  return 0;
}

/* F_FN: damping: one ratio, a list of ratios, or the word complex */
static int damping_value (deck_ctx *c, const char *sec, deck_field *f)
{
  deck_frf *fr = f->dst;
  const yaml_node_t *v = f->v;
  char g[96];
  deck_field r = { .key = "damping", .type = F_REAL, .lo = 0, .hi = 1, .hi_open = 1,
                   .range = "in [0, 1)" };
  if (v->type == YAML_SCALAR_NODE && deck_same_nocase (v, "complex"))
    return fr->complex_modes = 1, 0;
  long n = v->type == YAML_SEQUENCE_NODE ? deck_seq_len (v) : 1;
  if ((v->type != YAML_SCALAR_NODE && v->type != YAML_SEQUENCE_NODE) || deck_is_null (v)
      || n < 1 || n > FRF_MAX_RATIOS)
    return deck_fail_at (c, deck_is_null (v) ? f->k : v, "%s: 'damping' must be a ratio in "
                         "[0, 1), a list of ratios (one per mode) or complex (got %s)", sec,
                         deck_describe (v, g, sizeof g));
  if (!(fr->ratios = deck_calloc ((size_t) n, sizeof *fr->ratios))) return deck_no_memory (c);
  fr->nratios = (int) n;
  for (long i = 0; i < n; i++) {
    const yaml_node_t *x = v->type == YAML_SEQUENCE_NODE ? deck_seq_item (c, v, i) : v;
    char name[48];
    snprintf (name, sizeof name, v->type == YAML_SEQUENCE_NODE ? "damping[%ld]" : "damping", i);
    if (!x || x->type != YAML_SCALAR_NODE)
      return deck_fail_at (c, x ? x : v, "%s: '%s' must be a number", sec, name);
    MB_TRY (deck_get_real (c, sec, &r, x, name, &fr->ratios[i]));
  }
  return 0;
}

int deck_frf_section (deck_ctx *c, const yaml_node_t *map, const char *sec)
{
  deck_frf *fr = &c->d->frf;
  fr->static_correction = 1;
  deck_field f[] = {
    { .key = "inputs", .type = F_FN, .dst = fr, .required = 1, .parse = points_value },
    { .key = "outputs", .type = F_FN, .dst = fr, .required = 1, .parse = points_value },
    { .key = "frequencies", .type = F_MAP, .required = 1, .no_null = 1,
      .section = frequencies_section },
    { .key = "damping", .type = F_FN, .dst = fr, .required = 1, .parse = damping_value },
    { .key = "static_correction", .type = F_BOOL, .dst = &fr->static_correction },
    { .key = "state_space", .type = F_STR, .dst = &fr->state_space },
    { .key = "state_space_model", .type = F_FN, .dst = &fr->state_space_full,
      .parse = model_value },
  };
  MB_TRY (deck_walk (c, map, sec, f, (int) (sizeof f / sizeof f[0])));
  fr->present = 1;
  return 0;
}

int deck_frf_finish (deck_ctx *c, const yaml_node_t *k, int model_deck)
{
  deck_frf *fr = &c->d->frf;
  if (!fr->present)
    return deck_fail_at (c, k, "frf: the section needs inputs, outputs, frequencies and "
                         "damping");
  fr->line = (int) k->start_mark.line + 1;
  fr->col = (int) k->start_mark.column + 1;
  for (int o = 0; o < 2; o++) {
    deck_frf_point *p = o ? fr->outputs : fr->inputs;
    int n = o ? fr->noutputs : fr->ninputs;
    for (int i = 0; i < n; i++)
      if (model_deck ? p[i].node == NULL : p[i].node != NULL)
        return deck_fail_pos (c, p[i].pos, "frf: %s '%s': a %s deck names %s", o ? "output"
                              : "input", p[i].name, model_deck ? "model" : "matrix",
                              model_deck ? "a 'node' and a 'direction'" : "a 'dof'");
  }
  if (fr->complex_modes && !c->d->damped.enabled)
    return deck_fail_at (c, k, "frf: 'damping: complex' needs the complex stage (damping "
                         "in the model, or matrices.R)");
  if (!fr->complex_modes && !c->d->modal.enabled)
    return deck_fail_at (c, k, "frf: modal damping ratios need the modal stage enabled");
  return 0;
}

void deck_frf_clear (deck_frf *f)
{
  if (!f) return;
  for (int i = 0; i < f->ninputs; i++) free (f->inputs[i].name), free (f->inputs[i].node);
  for (int i = 0; i < f->noutputs; i++) free (f->outputs[i].name), free (f->outputs[i].node);
  free (f->inputs);
  free (f->outputs);
  free (f->ratios);
  free (f->state_space);
  memset (f, 0, sizeof *f);
}
