/* deck.c: YAML deck text -> deck struct, every key, type and range checked.

   Accepted schema (YAML 1.1 read by libyaml's document API; keys are case-sensitive;
   unknown keys, duplicate keys and more than one YAML document are errors):

     deck     := { title?: text, units?: SI, gravity?: vec3, materials?, sections?, bodies?,
                   beams?, joints?, forces?, matrices?: matrices, modal?: stage,
                   complex?: stage, output?: output,
                   statics?: statics (model decks only; schema in deck_statics.c) }
                 A deck is either a matrix deck (matrices given) or a model deck (any of
                 units, gravity, materials, sections, bodies, beams, joints, forces given);
                 not both, not neither. A model deck needs 'units: SI' and at least one
                 body or beam. The model keys are read by deck_model.c, whose top comment
                 holds their schema.
     matrices := { K: path, M: path, R?: path, Cq?: path }
     stage    := { enabled?: bool, modes?: int >= 1, target_frequency?: real >= 0 [Hz],
                   shift?: sigma, tolerance?: real in (0, 1e-2], max_restarts?: int >= 1,
                   subspace?: 0 | int >= modes + 2 }
                 sigma = real [rad^2/s^2] in modal, [real [1/s], real [rad/s]] in complex;
                 shift and target_frequency exclude each other.
     output   := { directory?: text, name?: text without '/', eigenvectors?: bool,
                   export_matrices?: text, vtk?: bool }
     (the complex section fills deck.damped)

     text = any non-empty scalar (title may be empty); path = text, resolved against the
     deck's folder unless it starts with '/'; bool = plain true/false/yes/no/on/off (any
     case); int = plain [+-]?[0-9]+ within C int; real = plain scalar that strtod reads
     completely and that is finite (.inf/.nan rejected); a section whose value is empty
     (`modal:`) takes its defaults, except matrices.

   Defaults: modal enabled; complex enabled iff matrices.R is given (matrix deck) or the
   model has damping (model deck: deck_model.has_damping); modes 10, tolerance 1e-10,
   max_restarts 300, subspace 0 (automatic); output directory ".", name = deck file name
   without .yaml/.yml, eigenvectors true, export_matrices none, vtk true. directory and
   export_matrices are kept as written (relative to the current directory).

   Errors: "path:line:col: message" through mb_fail_at, at the offending node: the key for
   unknown/duplicate keys and empty values, the value for bad values, the mapping for a
   missing required key. YAML syntax errors come from parser.problem / problem_mark. */
#include "deck_yaml.h"

#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef deck_ctx ctx;
typedef deck_field field;

/* The non-static helpers below (deck_alloc ... deck_walk) are documented at their
   prototypes in deck_yaml.h; deck_model.c uses them for the model sections. */

/* ---- allocation, with a countdown that lets tests fail the n-th allocation ---- */

static long fail_countdown; /* > 0: the allocation that brings it to 0 fails */

void deck_test_fail_alloc (long n)
{
  fail_countdown = n > 0 ? n : 0;
}

void *deck_alloc (size_t n)
{
  if (fail_countdown > 0 && --fail_countdown == 0) return NULL;
  return malloc (n ? n : 1);
}

void *deck_calloc (size_t count, size_t size)
{
  if (size && count > SIZE_MAX / size) return NULL;
  size_t n = count * size;
  void *p = deck_alloc (n);
  if (p) memset (p, 0, n > 0 ? n : 1);
  return p;
}

char *deck_dup (const char *s, size_t n)
{
  if (n == SIZE_MAX) return NULL;
  char *t = deck_alloc (n + 1);
  if (t) memcpy (t, s, n), t[n] = 0;
  return t;
}

/* ---- messages ---- */

int deck_fail_at (ctx *c, const yaml_node_t *n, const char *fmt, ...)
{
  char msg[sizeof c->err->msg];
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (msg, sizeof msg, fmt, ap);
  va_end (ap);
  return mb_fail_at (c->err, MB_EDECK, c->path, n->start_mark.line + 1,
                     n->start_mark.column + 1, "%s", msg);
}

int deck_fail_pos (ctx *c, deck_pos p, const char *fmt, ...)
{
  char msg[sizeof c->err->msg];
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (msg, sizeof msg, fmt, ap);
  va_end (ap);
  return mb_fail_at (c->err, MB_EDECK, c->path, p.line, p.col, "%s", msg);
}

int deck_no_memory (ctx *c)
{
  return mb_fail (c->err, MB_ENOMEM, "out of memory while reading deck %s", c->path);
}

yaml_node_t *deck_node (ctx *c, int i)
{
  return yaml_document_get_node (c->doc, i);
}

deck_pos deck_pos_of (const yaml_node_t *n)
{
  deck_pos p = { n->start_mark.line + 1, n->start_mark.column + 1 };
  return p;
}

/* ---- scalars ---- */

int deck_is_plain (const yaml_node_t *v)
{
  return v->type == YAML_SCALAR_NODE && v->data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
}

/* 1 when the n bytes at a equal the string b, ASCII case ignored */
static int eq_nocase (const unsigned char *a, size_t n, const char *b)
{
  if (strlen (b) != n) return 0;
  for (size_t i = 0; i < n; i++) {
    int x = a[i], y = (unsigned char) b[i];
    if (x >= 'A' && x <= 'Z') x += 'a' - 'A';
    if (y >= 'A' && y <= 'Z') y += 'a' - 'A';
    if (x != y) return 0;
  }
  return 1;
}

int deck_same_nocase (const yaml_node_t *v, const char *s)
{
  return eq_nocase (v->data.scalar.value, v->data.scalar.length, s);
}

int deck_same (const yaml_node_t *v, const char *s)
{
  return v->type == YAML_SCALAR_NODE && v->data.scalar.length == strlen (s)
         && !memcmp (v->data.scalar.value, s, v->data.scalar.length);
}

int deck_is_null (const yaml_node_t *v)
{
  return deck_is_plain (v) && (v->data.scalar.length == 0 || deck_same_nocase (v, "~")
                               || deck_same_nocase (v, "null"));
}

const char *deck_shown_bytes (const unsigned char *s, size_t n, char *buf, size_t size)
{
  size_t k = n;
  if (n > 40 && size >= 44)
    for (k = 40; k > 0 && (s[k] & 0xC0) == 0x80; k--) {}  /* s[k] starts a character */
  else if (n + 1 > size) k = size - 1;
  for (size_t i = 0; i < k; i++) buf[i] = s[i] < 0x20 || s[i] == 0x7f ? '?' : (char) s[i];
  if (k < n && size >= 44) memcpy (buf + k, "...", 3), k += 3;
  buf[k] = 0;
  return buf;
}

const char *deck_shown (const yaml_node_t *v, char *buf, size_t size)
{
  return deck_shown_bytes (v->data.scalar.value, v->data.scalar.length, buf, size);
}

const char *deck_describe (const yaml_node_t *v, char *buf, size_t size)
{
  char s[64];
  if (v->type == YAML_MAPPING_NODE) return "a mapping";
  if (v->type == YAML_SEQUENCE_NODE) return "a sequence";
  if (deck_is_null (v)) return "an empty value";
  if (!deck_is_plain (v))
    snprintf (buf, size, "the quoted string '%s'", deck_shown (v, s, sizeof s));
  else snprintf (buf, size, "'%s'", deck_shown (v, s, sizeof s));
  return buf;
}

/* ---- the schema, as a table per mapping ---- */

void deck_prefix (char *buf, size_t size, const char *sec)
{
  if (sec) snprintf (buf, size, "%s: ", sec);
  else buf[0] = 0;
}

/* 1 when sec labels an object ("body 'tip'") rather than naming a section ("modal") */
static int is_label (const char *sec)
{
  return sec && strchr (sec, '\'');
}

int deck_type_error (ctx *c, const char *sec, const field *f, const yaml_node_t *v,
                     const char *what, const char *name)
{
  char p[160], g[96];
  deck_prefix (p, sizeof p, sec);
  return deck_fail_at (c, deck_is_null (v) && f->k ? f->k : v, "%s'%s' must be %s (got %s)",
                       p, name ? name : f->key, what, deck_describe (v, g, sizeof g));
}

/* lo <= x <= hi, each end excluded when open */
static int range_ok (const field *f, double x)
{
  return (f->lo_open ? x > f->lo : x >= f->lo) && (f->hi_open ? x < f->hi : x <= f->hi);
}

/* F_TEXT may be empty (null -> NULL), F_STR not, F_NAME holds no '/', F_PATH gets the
   folder prefix of c->path unless absolute */
int deck_get_text (ctx *c, const char *sec, field *f)
{
  const yaml_node_t *v = f->v;
  char p[160];
  deck_prefix (p, sizeof p, sec);
  if (v->type != YAML_SCALAR_NODE || (deck_is_null (v) && f->type != F_TEXT))
    return deck_type_error (c, sec, f, v, f->type == F_PATH ? "a file name" : "a string",
                            NULL);
  if (deck_is_null (v)) return 0;  /* title: empty -> NULL */
  size_t n = v->data.scalar.length;
  const char *s = (const char *) v->data.scalar.value;
  if (memchr (s, 0, n))
    return deck_fail_at (c, v, "%s'%s' must not contain a NUL character", p, f->key);
  if (f->type == F_NAME && memchr (s, '/', n)) {
    char g[64];
    return deck_fail_at (c, v, "%s'%s' must be a plain file name without '/' (got '%s');"
                         " put folders in 'directory'", p, f->key, deck_shown (v, g, sizeof g));
  }
  if (f->type != F_TEXT && n == 0)
    return deck_fail_at (c, v, "%s'%s' must not be empty", p, f->key);
  size_t pre = (f->type == F_PATH && s[0] != '/') ? c->dirlen : 0;
  if (n > (size_t) -1 - pre - 1) return deck_no_memory (c);
  char *out = deck_alloc (pre + n + 1);
  if (!out) return deck_no_memory (c);
  memcpy (out, c->path, pre);
  memcpy (out + pre, s, n);
  out[pre + n] = 0;
  *(char **) f->dst = out;
  return 0;
}

/* plain true/yes/on -> 1, false/no/off -> 0, any case */
static int get_bool (ctx *c, const char *sec, field *f)
{
  static const char *yes[] = { "true", "yes", "on" }, *no[] = { "false", "no", "off" };
  const yaml_node_t *v = f->v;
  if (deck_is_plain (v))
    for (int i = 0; i < 3; i++) {
      if (deck_same_nocase (v, yes[i])) return *(int *) f->dst = 1, 0;
      if (deck_same_nocase (v, no[i])) return *(int *) f->dst = 0, 0;
    }
  return deck_type_error (c, sec, f, v, "true or false", NULL);
}

/* plain [+-]?[0-9]+ -> int, overflow and range checked */
int deck_get_int (ctx *c, const char *sec, field *f)
{
  const yaml_node_t *v = f->v;
  char p[160], g[64];
  if (!deck_is_plain (v) || deck_is_null (v))
    return deck_type_error (c, sec, f, v, "an integer", NULL);
  const unsigned char *s = v->data.scalar.value;
  size_t n = v->data.scalar.length, i = 0;
  int neg = 0;
  if (s[0] == '+' || s[0] == '-') neg = s[i++] == '-';
  if (i == n) return deck_type_error (c, sec, f, v, "an integer", NULL);
  long long x = 0;
  for (; i < n; i++) {
    if (s[i] < '0' || s[i] > '9') return deck_type_error (c, sec, f, v, "an integer", NULL);
    if (x <= (long long) INT_MAX + 1) x = 10 * x + (s[i] - '0');  /* saturates, no UB */
  }
  if (neg) x = -x;
  deck_prefix (p, sizeof p, sec);
  if (x > INT_MAX || x < INT_MIN)
    return deck_fail_at (c, v, "%s'%s' is out of range (integer overflow): must be %s"
                         " (got '%s')", p, f->key, f->range, deck_shown (v, g, sizeof g));
  if (!range_ok (f, (double) x))
    return deck_fail_at (c, v, "%s'%s' must be %s (got %lld)", p, f->key, f->range, x);
  *(int *) f->dst = (int) x;
  return 0;
}

/* plain scalar -> finite double; name is the key shown ("shift[1]" for a pair item) */
int deck_get_real (ctx *c, const char *sec, field *f, const yaml_node_t *v,
                   const char *name, double *out)
{
  char p[160], g[64], buf[64];
  if (!deck_is_plain (v) || deck_is_null (v))
    return deck_type_error (c, sec, f, v, "a number", name);
  const char *s = (const char *) v->data.scalar.value;
  size_t n = v->data.scalar.length, i = (s[0] == '+' || s[0] == '-');
  static const char *nonfinite[] = { ".inf", ".nan", "inf", "nan", "infinity" };
  int bad = 0;
  for (int j = 0; j < 5; j++) bad |= eq_nocase (v->data.scalar.value + i, n - i, nonfinite[j]);
  deck_prefix (p, sizeof p, sec);
  if (bad)
    return deck_fail_at (c, v, "%s'%s' must be a finite number (got '%s')", p, name,
                         deck_shown (v, g, sizeof g));
  if (n >= sizeof buf || strspn (s, "0123456789+-.eE") != n)
    return deck_type_error (c, sec, f, v, "a number", name);
  memcpy (buf, s, n);
  buf[n] = 0;
  char *end;
  double x = strtod (buf, &end);
  if (end == buf || *end) return deck_type_error (c, sec, f, v, "a number", name);
  if (!isfinite (x))
    return deck_fail_at (c, v, "%s'%s' is out of range (overflow): must be a finite number"
                         " (got '%s')", p, name, buf);
  if (!range_ok (f, x))
    return deck_fail_at (c, v, "%s'%s' must be %s (got %s)", p, name, f->range, buf);
  *out = x;
  return 0;
}

/* complex shift: [Re, Im], a sequence of exactly 2 finite numbers */
static int get_pair (ctx *c, const char *sec, field *f)
{
  const yaml_node_t *v = f->v;
  char p[160];
  double *x = f->dst;
  deck_prefix (p, sizeof p, sec);
  if (v->type != YAML_SEQUENCE_NODE)
    return deck_type_error (c, sec, f, v, "a sequence of 2 numbers [Re 1/s, Im rad/s]", NULL);
  yaml_node_item_t *it = v->data.sequence.items.start;
  long n = (long) (v->data.sequence.items.top - it);
  if (n != 2)
    return deck_fail_at (c, v, "%s'%s' must have exactly 2 numbers [Re 1/s, Im rad/s]"
                         " (got %ld)", p, f->key, n);
  for (int i = 0; i < 2; i++) {
    char name[32];
    const yaml_node_t *e = deck_node (c, it[i]);
    snprintf (name, sizeof name, "%s[%d]", f->key, i);
    if (!e) return deck_fail_at (c, v, "%s'%s' is malformed", p, name);
    if (e->type != YAML_SCALAR_NODE || deck_is_null (e)) {
      char g[96];
      return deck_fail_at (c, e->type == YAML_SCALAR_NODE ? v : e, "%s'%s' must be a number"
                           " (got %s)", p, name, deck_describe (e, g, sizeof g));
    }
    MB_TRY (deck_get_real (c, sec, f, e, name, &x[i]));
  }
  return 0;
}

int deck_distance (const unsigned char *a, size_t n, const char *b)
{
  size_t m = strlen (b);
  int row[64], prev;
  if (n > 60 || m > 60) return 3;
  for (size_t j = 0; j <= m; j++) row[j] = (int) j;
  for (size_t i = 1; i <= n; i++) {
    prev = row[0];
    row[0] = (int) i;
    for (size_t j = 1; j <= m; j++) {
      int cur = row[j], best = prev + (a[i - 1] != (unsigned char) b[j - 1]);
      if (row[j] + 1 < best) best = row[j] + 1;
      if (row[j - 1] + 1 < best) best = row[j - 1] + 1;
      row[j] = best;
      prev = cur;
    }
  }
  return row[m] < 3 ? row[m] : 3;
}

/* the keys of f that the object takes, ", "-separated, into list */
static void key_list (char *list, size_t size, const field *f, int nf)
{
  size_t len = 0;
  list[0] = 0;
  for (int i = 0; i < nf; i++) {
    if (f[i].unused) continue;
    len += (size_t) snprintf (list + len, size - len, "%s%s", len ? ", " : "", f[i].key);
    if (len >= size) len = size - 1;
  }
}

static int unknown_key (ctx *c, const yaml_node_t *k, const char *sec, field *f, int nf)
{
  char list[256], hint[96] = "", g[64];
  int best = 3, bi = -1;
  key_list (list, sizeof list, f, nf);
  for (int i = 0; i < nf; i++) {
    int dd = deck_same_nocase (k, f[i].key) ? 0 : deck_distance (k->data.scalar.value,
                                                                 k->data.scalar.length, f[i].key);
    if (dd < best && (dd == 0 || strlen (f[i].key) > 3)) best = dd, bi = i;
  }
  if (bi >= 0) snprintf (hint, sizeof hint, "; did you mean '%s'?", f[bi].key);
  if (is_label (sec))
    return deck_fail_at (c, k, "%s: unknown key '%s' (expected %s%s)", sec,
                         deck_shown (k, g, sizeof g), list, hint);
  if (sec)
    return deck_fail_at (c, k, "unknown key '%s' in '%s' (expected %s%s)",
                         deck_shown (k, g, sizeof g), sec, list, hint);
  return deck_fail_at (c, k, "unknown key '%s' at the top level (expected %s%s)",
                       deck_shown (k, g, sizeof g), list, hint);
}

int deck_walk (ctx *c, const yaml_node_t *map, const char *sec, field *f, int nf)
{
  char p[160];
  deck_prefix (p, sizeof p, sec);
  for (yaml_node_pair_t *pr = map->data.mapping.pairs.start;
       pr < map->data.mapping.pairs.top; pr++) {
    const yaml_node_t *k = deck_node (c, pr->key), *v = deck_node (c, pr->value);
    char g[96];
    int i;
    if (!k || !v) return deck_fail_at (c, map, "%smalformed mapping", p);
    if (k->type != YAML_SCALAR_NODE)
      return deck_fail_at (c, k, "%skeys must be plain names (got %s)", p,
                           deck_describe (k, g, sizeof g));
    for (i = 0; i < nf; i++)
      if (deck_same (k, f[i].key)) break;
    if (i == nf) return unknown_key (c, k, sec, f, nf);
    if (f[i].k) {
      if (is_label (sec))
        return deck_fail_at (c, k, "%s: duplicate key '%s' (first at line %zu)", sec,
                             f[i].key, f[i].k->start_mark.line + 1);
      return deck_fail_at (c, k, "duplicate key '%s'%s%s%s (first at line %zu)", f[i].key,
                           sec ? " in '" : "", sec ? sec : "", sec ? "'" : "",
                           f[i].k->start_mark.line + 1);
    }
    f[i].k = k;
    f[i].v = v;
    if (f[i].unused) {
      char list[256];
      key_list (list, sizeof list, f, nf);
      return deck_fail_at (c, k, "%s'%s' is not used by %s (it takes %s)", p, f[i].key,
                           f[i].unused, list);
    }
    switch (f[i].type) {
    case F_TEXT: case F_STR: case F_PATH: case F_NAME:
      MB_TRY (deck_get_text (c, sec, &f[i]));
      break;
    case F_BOOL: MB_TRY (get_bool (c, sec, &f[i])); break;
    case F_INT: MB_TRY (deck_get_int (c, sec, &f[i])); break;
    case F_REAL: MB_TRY (deck_get_real (c, sec, &f[i], v, f[i].key, f[i].dst)); break;
    case F_PAIR: MB_TRY (get_pair (c, sec, &f[i])); break;
    case F_FN: MB_TRY (f[i].parse (c, sec, &f[i])); break;
    case F_SKIP: break;
    case F_MAP:
      if (deck_is_null (v) && !f[i].required && !f[i].no_null) break;  /* `modal:` alone */
      if (v->type != YAML_MAPPING_NODE)
        return deck_type_error (c, sec, &f[i], v, "a mapping", NULL);
      MB_TRY (f[i].section (c, v, f[i].key));
      break;
    }
  }
  for (int i = 0; i < nf; i++)
    if (f[i].required && !f[i].k) {
      if (is_label (sec))
        return deck_fail_at (c, map, "%s: missing required key '%s'", sec, f[i].key);
      if (sec)
        return deck_fail_at (c, map, "missing required key '%s' in '%s'", f[i].key, sec);
      return deck_fail_at (c, map, "missing required key '%s'", f[i].key);
    }
  return 0;
}

/* ---- sections ---- */

/* matrices: file names resolved against the deck folder; key positions kept */
static int matrices_section (ctx *c, const yaml_node_t *map, const char *sec)
{
  deck_matrices *m = &c->d->matrices;
  field f[] = {
    { .key = "K", .type = F_PATH, .dst = &m->K, .required = 1 },
    { .key = "M", .type = F_PATH, .dst = &m->M, .required = 1 },
    { .key = "R", .type = F_PATH, .dst = &m->R },
    { .key = "Cq", .type = F_PATH, .dst = &m->Cq },
  };
  MB_TRY (deck_walk (c, map, sec, f, 4));
  size_t *lc[4][2] = { { &m->line_K, &m->col_K }, { &m->line_M, &m->col_M },
                       { &m->line_R, &m->col_R }, { &m->line_Cq, &m->col_Cq } };
  for (int i = 0; i < 4; i++)
    if (f[i].k) {
      *lc[i][0] = f[i].k->start_mark.line + 1;
      *lc[i][1] = f[i].k->start_mark.column + 1;
    }
  return 0;
}

/* stage defaults: enabled, 10 modes, tolerance 1e-10, 300 restarts, automatic ncv */
static void stage_defaults (deck_stage *s)
{
  memset (s, 0, sizeof *s);
  s->enabled = 1;
  s->modes = 10;
  s->tolerance = 1e-10;
  s->max_restarts = 300;
  s->subspace = 0;
}

/* modal (cplx = 0) or complex (cplx = 1) stage */
static int stage_section (ctx *c, const yaml_node_t *map, const char *sec, int cplx)
{
  deck_stage *s = cplx ? &c->d->damped : &c->d->modal;
  double pair[2] = { 0, 0 };
  field f[] = {
    { .key = "enabled", .type = F_BOOL, .dst = &s->enabled },
    { .key = "modes", .type = F_INT, .dst = &s->modes, .lo = 1, .hi = INT_MAX,
      .range = ">= 1" },
    { .key = "target_frequency", .type = F_REAL, .dst = &s->target_hz, .lo = 0,
      .hi = HUGE_VAL, .range = ">= 0 [Hz]" },
    { .key = "shift", .type = cplx ? F_PAIR : F_REAL, .dst = cplx ? pair : &s->shift_re,
      .lo = -HUGE_VAL, .hi = HUGE_VAL, .range = "finite" },
    { .key = "tolerance", .type = F_REAL, .dst = &s->tolerance, .lo = 0, .lo_open = 1,
      .hi = 1e-2, .range = "in (0, 1e-2]" },
    { .key = "max_restarts", .type = F_INT, .dst = &s->max_restarts, .lo = 1,
      .hi = INT_MAX, .range = ">= 1" },
    { .key = "subspace", .type = F_INT, .dst = &s->subspace, .lo = 0, .hi = INT_MAX,
      .range = ">= 0 (0 = automatic)" },
  };
  MB_TRY (deck_walk (c, map, sec, f, 7));
  s->has_target = f[2].k != NULL;
  s->has_shift = f[3].k != NULL;
  if (cplx && s->has_shift) s->shift_re = pair[0], s->shift_im = pair[1];
  if (cplx) c->cplx_key = f[0].k;
  if (s->has_target && s->has_shift) {
    const field *later = f[2].k->start_mark.index > f[3].k->start_mark.index ? &f[2] : &f[3];
    return deck_fail_at (c, later->k, "%s: give either shift or target_frequency, not both",
                         sec);
  }
  if (s->subspace != 0 && (long long) s->subspace < (long long) s->modes + 2)
    return deck_fail_at (c, f[6].v, "%s: 'subspace' must be 0 (automatic) or >= modes + 2"
                         " = %lld (got %d)", sec, (long long) s->modes + 2, s->subspace);
  return 0;
}

static int modal_section (ctx *c, const yaml_node_t *map, const char *sec)
{
  return stage_section (c, map, sec, 0);
}

static int complex_section (ctx *c, const yaml_node_t *map, const char *sec)
{
  return stage_section (c, map, sec, 1);
}

/* output: report directory, base name, eigenvectors switch, matrix export folder, VTK */
static int output_section (ctx *c, const yaml_node_t *map, const char *sec)
{
  deck_output *o = &c->d->output;
  field f[] = {
    { .key = "directory", .type = F_STR, .dst = &o->directory },
    { .key = "name", .type = F_NAME, .dst = &o->name },
    { .key = "eigenvectors", .type = F_BOOL, .dst = &o->eigenvectors },
    { .key = "export_matrices", .type = F_STR, .dst = &o->export_matrices },
    { .key = "vtk", .type = F_BOOL, .dst = &o->vtk },
  };
  return deck_walk (c, map, sec, f, 5);
}

/* ---- the whole document ---- */

/* output name from the deck path: base name without .yaml/.yml ("deck" if that is empty) */
static char *default_name (const char *path)
{
  const char *b = strrchr (path, '/');
  b = b ? b + 1 : path;
  size_t n = strlen (b);
  if (n > 5 && !strcmp (b + n - 5, ".yaml")) n -= 5;
  else if (n > 4 && !strcmp (b + n - 4, ".yml")) n -= 4;
  if (n == 0) return deck_dup ("deck", 4);
  return deck_dup (b, n);
}

/* the later (in document order) of two nodes */
static const yaml_node_t *later_of (const yaml_node_t *a, const yaml_node_t *b)
{
  return a->start_mark.index > b->start_mark.index ? a : b;
}

/* the root mapping; then the rules that span sections (matrices or a model) and the
   defaults that depend on other keys (complex.enabled on R or damping, output.name on
   the path) */
static int root (ctx *c, const yaml_node_t *r)
{
  deck *d = c->d;
  enum { MODEL_FIRST = 1, MODEL_LAST = 8, MATRICES = 9, STATICS = 13, NF = 14 };
  field f[NF] = {
    { .key = "title", .type = F_TEXT, .dst = &d->title },
    { .key = "units", .type = F_FN, .parse = deck_model_units },
    { .key = "gravity", .type = F_FN, .dst = d->model.gravity, .parse = deck_model_gravity },
    { .key = "materials", .type = F_MAP, .section = deck_model_materials },
    { .key = "sections", .type = F_MAP, .section = deck_model_sections },
    { .key = "bodies", .type = F_MAP, .section = deck_model_bodies },
    { .key = "beams", .type = F_MAP, .section = deck_model_beams },
    { .key = "joints", .type = F_MAP, .section = deck_model_joints },
    { .key = "forces", .type = F_MAP, .section = deck_model_forces },
    { .key = "matrices", .type = F_MAP, .no_null = 1, .section = matrices_section },
    { .key = "modal", .type = F_MAP, .section = modal_section },
    { .key = "complex", .type = F_MAP, .section = complex_section },
    { .key = "output", .type = F_MAP, .section = output_section },
    { .key = "statics", .type = F_MAP, .section = deck_statics_section },
  };
  if (!r || deck_is_null (r))
    return mb_fail_at (c->err, MB_EDECK, c->path, 1, 1, "empty deck");
  if (r->type != YAML_MAPPING_NODE) {
    char g[96];
    return deck_fail_at (c, r, "the deck must be a mapping of keys such as 'matrices:'"
                         " or 'bodies:' (got %s)", deck_describe (r, g, sizeof g));
  }
  MB_TRY (deck_walk (c, r, NULL, f, NF));
  const yaml_node_t *model_key = NULL;  /* the first model key in the document */
  for (int i = MODEL_FIRST; i <= MODEL_LAST; i++)
    if (f[i].k && (!model_key || model_key == later_of (model_key, f[i].k)))
      model_key = f[i].k;
  if (model_key && f[MATRICES].k)
    return deck_fail_at (c, later_of (model_key, f[MATRICES].k), "give either 'matrices' or"
                         " a model (bodies/beams), not both");
  if (!model_key && !f[MATRICES].k)
    return deck_fail_at (c, r, "missing required key 'matrices': the deck needs either"
                         " 'matrices' or a model (bodies/beams)");
  if (model_key) MB_TRY (deck_model_finish (c, r, f[1].k));
  if (f[STATICS].k) MB_TRY (deck_statics_finish (c, f[STATICS].k, model_key != NULL));
  if (!c->cplx_key)  /* default */
    d->damped.enabled = model_key ? d->model.has_damping : d->matrices.R != NULL;
  else if (d->damped.enabled && !model_key && !d->matrices.R)
    return deck_fail_at (c, c->cplx_key, "complex: complex stage needs matrices.R"
                         " (a damping matrix); give R or set 'enabled: false'");
  if (!d->output.directory && !(d->output.directory = deck_dup (".", 1)))
    return deck_no_memory (c);
  if (!d->output.name && !(d->output.name = default_name (c->path)))
    return deck_no_memory (c);
  return 0;
}

/* libyaml's own failure -> mb_err; text is the input, for reader errors' byte offset */
static int yaml_failure (ctx *c, const yaml_parser_t *p, const char *text, size_t len)
{
  size_t line = p->problem_mark.line + 1, col = p->problem_mark.column + 1;
  const char *problem = p->problem ? p->problem : "unknown YAML error";
  switch (p->error) {
  case YAML_MEMORY_ERROR:
    return deck_no_memory (c);
  case YAML_READER_ERROR: {
    size_t off = p->problem_offset < len ? p->problem_offset : len, bol = 0;
    line = 1;
    for (size_t i = 0; i < off; i++)
      if (text[i] == '\n') line++, bol = i + 1;
    col = off - bol + 1;
    if (p->problem_value >= 0)
      return mb_fail_at (c->err, MB_EDECK, c->path, line, col, "YAML: %s (#%X)", problem,
                         (unsigned) p->problem_value);
    return mb_fail_at (c->err, MB_EDECK, c->path, line, col, "YAML: %s", problem);
  }
  default:
    if (p->context)
      return mb_fail_at (c->err, MB_EDECK, c->path, line, col, "YAML: %s (%s at %zu:%zu)",
                         problem, p->context, p->context_mark.line + 1,
                         p->context_mark.column + 1);
    return mb_fail_at (c->err, MB_EDECK, c->path, line, col, "YAML: %s", problem);
  }
}

enum { MAX_DEPTH = 32,     /* a deck needs 5 levels; libyaml's scanner is quadratic in depth */
       MAX_ANCHORS = 64 };  /* libyaml looks aliases up linearly */

/* Event pass before loading the document: reports the first syntax error, rejects a second
   document, nesting deeper than MAX_DEPTH and more than MAX_ANCHORS anchors, so that
   hostile text cannot make yaml_parser_load run for minutes. */
static int prescan (ctx *c, const char *text, size_t len)
{
  yaml_parser_t p;
  yaml_event_t ev;
  int depth = 0, docs = 0, anchors = 0, rc = 0;
  if (!yaml_parser_initialize (&p)) return deck_no_memory (c);
  yaml_parser_set_input_string (&p, (const unsigned char *) text, len);
  for (;;) {
    if (!yaml_parser_parse (&p, &ev)) {
      rc = yaml_failure (c, &p, text, len);
      break;
    }
    yaml_event_type_t type = ev.type;
    const yaml_char_t *anchor = type == YAML_SCALAR_EVENT ? ev.data.scalar.anchor
      : type == YAML_SEQUENCE_START_EVENT ? ev.data.sequence_start.anchor
      : type == YAML_MAPPING_START_EVENT ? ev.data.mapping_start.anchor : NULL;
    size_t line = ev.start_mark.line + 1, col = ev.start_mark.column + 1;
    if (anchor && ++anchors > MAX_ANCHORS)
      rc = mb_fail_at (c->err, MB_EDECK, c->path, line, col,
                       "YAML: more than %d anchors in the deck", MAX_ANCHORS);
    else if ((type == YAML_SEQUENCE_START_EVENT || type == YAML_MAPPING_START_EVENT)
             && ++depth > MAX_DEPTH)
      rc = mb_fail_at (c->err, MB_EDECK, c->path, line, col, "YAML: nested more than %d"
                       " levels deep (a deck needs at most 5)", MAX_DEPTH);
    else if (type == YAML_SEQUENCE_END_EVENT || type == YAML_MAPPING_END_EVENT)
      depth--;
    else if (type == YAML_DOCUMENT_START_EVENT && ++docs > 1)
      rc = mb_fail_at (c->err, MB_EDECK, c->path, line, col,
                       "the deck holds more than one YAML document; keep only the first");
    yaml_event_delete (&ev);
    if (rc < 0 || type == YAML_STREAM_END_EVENT) break;
  }
  yaml_parser_delete (&p);
  return rc;
}

int deck_parse (const char *text, size_t len, const char *path, deck *d, mb_err *err)
{
  yaml_parser_t parser;
  yaml_document_t doc, extra;
  deck t;
  ctx c = { .doc = &doc, .path = path ? path : "", .err = err, .d = &t };
  int rc = 0, have_doc = 0, have_extra = 0;

  memset (d, 0, sizeof *d);
  memset (&t, 0, sizeof t);
  stage_defaults (&t.modal);
  stage_defaults (&t.damped);
  t.output.eigenvectors = 1;
  t.output.vtk = 1;
  const char *slash = strrchr (c.path, '/');
  c.dirlen = slash ? (size_t) (slash - c.path) + 1 : 0;
  if (!text && len) return mb_fail (err, MB_EDECK, "no deck text for %s", c.path);
  if (!(t.path = deck_dup (c.path, strlen (c.path)))) return deck_no_memory (&c);
  if (!text) text = "";
  if ((rc = prescan (&c, text, len)) < 0) {
    deck_clear (&t);
    return rc;
  }

  if (!yaml_parser_initialize (&parser)) {
    deck_clear (&t);
    return deck_no_memory (&c);
  }
  yaml_parser_set_input_string (&parser, (const unsigned char *) text, len);
  if (!yaml_parser_load (&parser, &doc)) {
    rc = yaml_failure (&c, &parser, text, len);
    goto done;
  }
  have_doc = 1;
  if (!yaml_parser_load (&parser, &extra)) {  /* the rest of the stream must be empty */
    rc = yaml_failure (&c, &parser, text, len);
    goto done;
  }
  have_extra = 1;
  if (yaml_document_get_root_node (&extra)) {
    rc = mb_fail_at (err, MB_EDECK, c.path, extra.start_mark.line + 1,
                     extra.start_mark.column + 1,
                     "the deck holds more than one YAML document; keep only the first");
    goto done;
  }
  rc = root (&c, yaml_document_get_root_node (&doc));

done:
  if (have_extra) yaml_document_delete (&extra);
  if (have_doc) yaml_document_delete (&doc);
  yaml_parser_delete (&parser);
  if (rc < 0) deck_clear (&t);
  else *d = t;
  return rc;
}

void deck_clear (deck *d)
{
  if (!d) return;
  free (d->path);
  free (d->title);
  free (d->matrices.K);
  free (d->matrices.M);
  free (d->matrices.R);
  free (d->matrices.Cq);
  free (d->output.directory);
  free (d->output.name);
  free (d->output.export_matrices);
  deck_model_clear (&d->model);
  memset (d, 0, sizeof *d);
}
