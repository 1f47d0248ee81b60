/* deck_yaml.c: the YAML walking helpers of src/deck: allocation with a test countdown,
   messages at deck positions, scalars (text, bool, int, real, pair), and deck_walk, which
   reads a mapping against a table of fields. deck.c (the root schema, eigen and output
   sections) and deck_model.c (the model sections) both use them; this file uses neither.
   The prototypes, with their documentation, are in deck_yaml.h. */
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

/* ---- the testing tracer (deck_test_trace) ---- */

static deck_trace_fn trace_fn;
static void *trace_arg;

void deck_test_trace (deck_trace_fn fn, void *arg)
{
  trace_fn = fn;
  trace_arg = arg;
}

/* reports number v (key or item name) of range f to the tracer, if any */
static void trace_number (const char *sec, const deck_field *f, const yaml_node_t *v,
                          const char *name, int type)
{
  if (!trace_fn || !v) return;
  deck_trace_row r = { .sec = sec, .key = name, .number = 1, .type = type, .lo = f->lo,
                       .hi = f->hi, .lo_open = f->lo_open, .hi_open = f->hi_open,
                       .start = v->start_mark.index, .end = v->end_mark.index,
                       .line = v->start_mark.line + 1, .col = v->start_mark.column + 1 };
  trace_fn (&r, trace_arg);
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
  trace_number (sec, f, v, f->key, F_INT);
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
  if (f->cap && x > f->hi)
    return deck_fail_at (c, v, "%s'%s' must be at most %.0f, %s (got %lld)", p, f->key, f->hi,
                         f->cap, x);
  if (!range_ok (f, (double) x))
    return deck_fail_at (c, v, "%s'%s' must be %s (got %lld)", p, f->key, f->range, x);
  *(int *) f->dst = (int) x;
  return 0;
}

/* plain scalar -> finite double; name is the key shown ("shift[1]" for a pair item). The
   scalar must hold only [0-9+-.eE] and strtod must read all of it, whatever its length. */
int deck_get_real (ctx *c, const char *sec, field *f, const yaml_node_t *v,
                   const char *name, double *out)
{
  char p[160], g[64], stack[256];
  trace_number (sec, f, v, name, F_REAL);
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
  for (i = 0; i < n; i++)
    if (!memchr ("0123456789+-.eE", s[i], 15))
      return deck_type_error (c, sec, f, v, "a number", name);
  char *buf = n < sizeof stack ? stack : deck_alloc (n + 1);  /* strtod needs a NUL */
  if (!buf) return deck_no_memory (c);
  memcpy (buf, s, n);
  buf[n] = 0;
  char *end;
  double x = strtod (buf, &end);
  int whole = end != buf && !*end;
  if (buf != stack) free (buf);
  if (!whole) return deck_type_error (c, sec, f, v, "a number", name);
  if (!isfinite (x))
    return deck_fail_at (c, v, "%s'%s' is out of range (overflow): must be a finite number"
                         " (got '%s')", p, name, deck_shown (v, g, sizeof g));
  if (!range_ok (f, x))
    return deck_fail_at (c, v, "%s'%s' must be %s (got %s)", p, name, f->range,
                         deck_shown (v, g, sizeof g));
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
  for (int i = 0; trace_fn && i < nf; i++) {
    deck_trace_row r = { .sec = sec, .key = f[i].key, .type = f[i].type,
                         .present = f[i].k != NULL, .unused = f[i].unused != NULL };
    trace_fn (&r, trace_arg);
  }
  return 0;
}

/* ---- sequences, mappings, numbers ---- */

/* number of items of sequence v */
long deck_seq_len (const yaml_node_t *v)
{
  return (long) (v->data.sequence.items.top - v->data.sequence.items.start);
}

/* item i of sequence v (NULL when the document is malformed) */
const yaml_node_t *deck_seq_item (ctx *c, const yaml_node_t *v, long i)
{
  return deck_node (c, v->data.sequence.items.start[i]);
}

/* number of pairs of mapping v */
long deck_map_len (const yaml_node_t *v)
{
  return (long) (v->data.mapping.pairs.top - v->data.mapping.pairs.start);
}

/* the value of the first pair of mapping map whose key is key (the key node into *kn), or
   NULL */
const yaml_node_t *deck_map_find (ctx *c, const yaml_node_t *map, const char *key,
                                    const yaml_node_t **kn)
{
  for (yaml_node_pair_t *pr = map->data.mapping.pairs.start;
       pr < map->data.mapping.pairs.top; pr++) {
    const yaml_node_t *k = deck_node (c, pr->key);
    if (k && deck_same (k, key)) return *kn = k, deck_node (c, pr->value);
  }
  return NULL;
}

/* the later (in document order) of two nodes */
const yaml_node_t *deck_later (const yaml_node_t *a, const yaml_node_t *b)
{
  return a->start_mark.index > b->start_mark.index ? a : b;
}

/* item e of sequence seq -> finite number; name ("position[1]") for messages */
static int item_real (ctx *c, const char *sec, const yaml_node_t *seq, const yaml_node_t *e,
                      const char *name, double *out)
{
  char p[192], g[96];
  deck_prefix (p, sizeof p, sec);
  if (!e) return deck_fail_at (c, seq, "%s'%s' is malformed", p, name);
  if (e->type != YAML_SCALAR_NODE || deck_is_null (e))
    return deck_fail_at (c, e->type == YAML_SCALAR_NODE ? seq : e, "%s'%s' must be a number"
                         " (got %s)", p, name, deck_describe (e, g, sizeof g));
  field any = { .key = name, .lo = -HUGE_VAL, .hi = HUGE_VAL, .range = "finite" };
  return deck_get_real (c, sec, &any, e, name, out);
}

/* v, the value of key `key` (key node k, or NULL), -> n finite numbers out[0..n) */
int deck_get_numbers (ctx *c, const char *sec, const yaml_node_t *k, const yaml_node_t *v,
                        const char *key, int n, double *out)
{
  char p[192], g[96];
  deck_prefix (p, sizeof p, sec);
  if (v->type != YAML_SEQUENCE_NODE)
    return deck_fail_at (c, deck_is_null (v) && k ? k : v, "%s'%s' must be a sequence of %d"
                         " numbers (got %s)", p, key, n, deck_describe (v, g, sizeof g));
  long m = deck_seq_len (v);
  if (m != n)
    return deck_fail_at (c, v, "%s'%s' must have exactly %d numbers (got %ld)", p, key, n, m);
  for (int i = 0; i < n; i++) {
    char name[96];
    snprintf (name, sizeof name, "%s[%d]", key, i);
    MB_TRY (item_real (c, sec, v, deck_seq_item (c, v, i), name, &out[i]));
  }
  return 0;
}
