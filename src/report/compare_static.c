/* compare_static.c: `mbmodal compare` on static reports: positions, displacements,
   rotations and reactions paired by name and checked against a tolerance. */
#include "compare_static.h"

#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

enum { Q_POSITION, Q_DISPLACEMENT, Q_ROTATION, Q_FORCE, Q_TORQUE, NQ };
static const char *const q_name[NQ] = { "position", "displacement", "rotation", "force",
                                        "torque" };
static const char *const q_unit[NQ] = { "m", "m", "rad", "N", "N m" };
enum { MAX_VALUES = 3, MAX_FAIL_LINES = 20 };

/* One compared item: a labelled short vector of one quantity, e.g. node "bob" position. */
typedef struct st_item {
  char *label;            /* "node \"bob\" position": the pairing key and what is printed;
                             owned (st_clear frees) */
  int q;                  /* Q_POSITION .. Q_TORQUE */
  int n;                  /* numbers, 1..MAX_VALUES */
  int has_null;           /* 1: a number was null (not finite) */
  double v[MAX_VALUES];
} st_item;

/* What compare needs of one static report. */
typedef struct st_report {
  const char *path;
  yaml_document_t doc;
  int loaded;
  int converged;          /* convergence.converged: 1, 0, or -1 when absent */
  int has_rtol;
  double rtol;
  int nitems, cap;
  st_item *items;         /* sorted by label after reading */
  mb_err *err;
} st_report;

/* MB_EDECK at node nd of r's file: "path:line:col: message". */
static int st_fail (st_report *r, const yaml_node_t *nd, const char *fmt, ...)
  __attribute__ ((format (printf, 3, 4)));
static int st_fail (st_report *r, const yaml_node_t *nd, const char *fmt, ...)
{
  char msg[512];
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (msg, sizeof msg, fmt, ap);
  va_end (ap);
  return mb_fail_at (r->err, MB_EDECK, r->path, nd ? nd->start_mark.line + 1 : 1,
                     nd ? nd->start_mark.column + 1 : 1, "%s", msg);
}

static int is_scalar (const yaml_node_t *nd, const char *s)
{
  size_t len = strlen (s);
  return nd && nd->type == YAML_SCALAR_NODE && nd->data.scalar.length == len
         && memcmp (nd->data.scalar.value, s, len) == 0;
}

/* The value of key in mapping map, NULL when absent (or map not a mapping). */
static yaml_node_t *get (st_report *r, const yaml_node_t *map, const char *key)
{
  if (!map || map->type != YAML_MAPPING_NODE) return NULL;
  for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top;
       p++)
    if (is_scalar (yaml_document_get_node (&r->doc, p->key), key))
      return yaml_document_get_node (&r->doc, p->value);
  return NULL;
}

/* nd as a double into *v; 1 when it is null (a value that was not finite), 0 when a
   number, MB_EDECK otherwise. */
static int get_real (st_report *r, const yaml_node_t *nd, const char *what, double *v)
{
  char buf[64];
  if (!nd || nd->type != YAML_SCALAR_NODE || nd->data.scalar.length >= sizeof buf)
    return st_fail (r, nd, "%s must be a number", what);
  size_t len = nd->data.scalar.length;
  memcpy (buf, nd->data.scalar.value, len);
  buf[len] = '\0';
  if (len == 0 || !strcmp (buf, "null") || !strcmp (buf, "~")) return 1;
  char *end;
  double x = strtod (buf, &end);
  if (end == buf || *end != '\0' || !isfinite (x))
    return st_fail (r, nd, "%s must be a finite number, not '%s'", what, buf);
  *v = x;
  return 0;
}

/* Appends the item "kind name key" of quantity q from node nd (a number or a sequence of
   1..MAX_VALUES numbers). */
static int add_item (st_report *r, const char *kind, const char *name, const char *key, int q,
                     const yaml_node_t *nd)
{
  if (r->nitems == r->cap) {
    int cap = r->cap ? 2 * r->cap : 64;
    st_item *it = realloc (r->items, (size_t) cap * sizeof *it);
    if (!it) return mb_fail (r->err, MB_ENOMEM, "out of memory reading %s", r->path);
    r->items = it;
    r->cap = cap;
  }
  st_item *it = &r->items[r->nitems];
  memset (it, 0, sizeof *it);
  size_t len = strlen (kind) + strlen (name) + strlen (key) + 5;
  if (!(it->label = malloc (len)))
    return mb_fail (r->err, MB_ENOMEM, "out of memory reading %s", r->path);
  snprintf (it->label, len, "%s \"%s\" %s", kind, name, key);
  r->nitems++;  /* owns its label from here on (st_clear frees it) */
  it->q = q;
  if (nd->type == YAML_SEQUENCE_NODE) {
    yaml_node_item_t *s = nd->data.sequence.items.start;
    long n = (long) (nd->data.sequence.items.top - s);
    if (n < 1 || n > MAX_VALUES)
      return st_fail (r, nd, "%s must hold 1 to %d numbers", key, MAX_VALUES);
    for (long k = 0; k < n; k++) {
      int rc = get_real (r, yaml_document_get_node (&r->doc, s[k]), key, &it->v[k]);
      if (rc < 0) return rc;
      if (rc == 1) it->has_null = 1;
    }
    it->n = (int) n;
  }
  else {
    int rc = get_real (r, nd, key, &it->v[0]);
    if (rc < 0) return rc;
    it->has_null = rc == 1;
    it->n = 1;
  }
  return 0;
}

/* The name of an entry (its `name`, else `node` key) as a new string in *out (caller
   frees). */
static int entry_name (st_report *r, const yaml_node_t *e, const char *sec, char **out)
{
  const yaml_node_t *nm = get (r, e, "name");
  if (!nm) nm = get (r, e, "node");
  if (!nm || nm->type != YAML_SCALAR_NODE)
    return st_fail (r, e, "an entry of '%s' has no name", sec);
  size_t n = nm->data.scalar.length;
  if (!(*out = malloc (n + 1))) return mb_fail (r->err, MB_ENOMEM, "out of memory");
  memcpy (*out, nm->data.scalar.value, n);
  (*out)[n] = '\0';
  return 0;
}

/* The items of section sec (a sequence of mappings): for each entry, each key of keys[]
   present, as quantity qs[k]; "sub" (bushings) reads the entries of the entry's `nodes`
   list too, named "entry/node". */
static int read_section (st_report *r, const yaml_node_t *root, const char *sec,
                         const char *kind, const char *const *keys, const int *qs, int nkeys)
{
  const yaml_node_t *list = get (r, root, sec);
  if (!list) return 0;
  if (list->type != YAML_SEQUENCE_NODE) return st_fail (r, list, "'%s' must be a list", sec);
  for (yaml_node_item_t *s = list->data.sequence.items.start; s < list->data.sequence.items.top;
       s++) {
    const yaml_node_t *e = yaml_document_get_node (&r->doc, *s);
    if (!e || e->type != YAML_MAPPING_NODE)
      return st_fail (r, e, "an entry of '%s' must be a mapping", sec);
    char *name;
    MB_TRY (entry_name (r, e, sec, &name));
    int rc = 0;
    for (int k = 0; k < nkeys && rc == 0; k++) {
      const yaml_node_t *v = get (r, e, keys[k]);
      if (v) rc = add_item (r, kind, name, keys[k], qs[k], v);
    }
    const yaml_node_t *sub = get (r, e, "nodes");  /* a bushing: per node force, torque */
    if (rc == 0 && sub && sub->type == YAML_SEQUENCE_NODE)
      for (yaml_node_item_t *t = sub->data.sequence.items.start;
           rc == 0 && t < sub->data.sequence.items.top; t++) {
        const yaml_node_t *b = yaml_document_get_node (&r->doc, *t);
        if (!b || b->type != YAML_MAPPING_NODE) continue;
        char *bn, *full;
        rc = entry_name (r, b, sec, &bn);
        if (rc < 0) break;
        size_t len = strlen (name) + strlen (bn) + 2;
        if ((full = malloc (len))) {
          snprintf (full, len, "%s/%s", name, bn);
          for (int k = 0; k < nkeys && rc == 0; k++) {
            const yaml_node_t *v = get (r, b, keys[k]);
            if (v) rc = add_item (r, kind, full, keys[k], qs[k], v);
          }
        }
        else rc = mb_fail (r->err, MB_ENOMEM, "out of memory reading %s", r->path);
        free (full);
        free (bn);
      }
    free (name);
    if (rc < 0) return rc;
  }
  return 0;
}

static int by_label (const void *p, const void *q)
{
  return strcmp (((const st_item *) p)->label, ((const st_item *) q)->label);
}

/* Loads path and collects its items (sorted by label); MB_EDECK when it is not a static
   mbmodal report. */
static int st_load (const char *path, st_report *r, mb_err *err)
{
  memset (r, 0, sizeof *r);
  r->path = path;
  r->err = err;
  r->converged = -1;
  MB_TRY (compare_load_yaml (path, &r->doc, err));
  r->loaded = 1;
  yaml_node_t *root = yaml_document_get_root_node (&r->doc);
  if (!root || root->type != YAML_MAPPING_NODE || !is_scalar (get (r, root, "format"),
                                                              "mbmodal-report"))
    return st_fail (r, root, "not an mbmodal report (no 'format: mbmodal-report')");
  if (!is_scalar (get (r, root, "stage"), "static"))
    return st_fail (r, root, "not a static report");
  const yaml_node_t *v = get (r, root, "rtol");
  if (v) {
    if (get_real (r, v, "rtol", &r->rtol) != 0 || !(r->rtol > 0))
      return st_fail (r, v, "rtol must be a number > 0");
    r->has_rtol = 1;
  }
  v = get (r, get (r, root, "convergence"), "converged");
  if (v) r->converged = is_scalar (v, "true") ? 1 : is_scalar (v, "false") ? 0 : -1;
  static const char *const node_keys[] = { "position", "displacement", "rotation" };
  static const int node_q[] = { Q_POSITION, Q_DISPLACEMENT, Q_ROTATION };
  static const char *const joint_keys[] = { "force", "torque" };
  static const int joint_q[] = { Q_FORCE, Q_TORQUE };
  static const char *const spring_keys[] = { "force", "torque", "elongation", "rotation" };
  static const int spring_q[] = { Q_FORCE, Q_TORQUE, Q_DISPLACEMENT, Q_ROTATION };
  MB_TRY (read_section (r, root, "nodes", "node", node_keys, node_q, 3));
  MB_TRY (read_section (r, root, "joints", "joint", joint_keys, joint_q, 2));
  MB_TRY (read_section (r, root, "springs", "spring", spring_keys, spring_q, 4));
  if (r->nitems > 1) qsort (r->items, (size_t) r->nitems, sizeof *r->items, by_label);
  return 0;
}

static void st_clear (st_report *r)
{
  if (r->loaded) yaml_document_delete (&r->doc);
  for (int i = 0; i < r->nitems; i++) free (r->items[i].label);
  free (r->items);
  memset (r, 0, sizeof *r);
}

/* The items of A against B: per quantity q the scale s_q = max over A's items of q of
   max_k |a_k| (1 when 0), and for each item of A its partner in B by label with
   d = max_k |a_k - b_k| <= rtol s_q. Prints the per-quantity table and up to
   MAX_FAIL_LINES failed items; returns the count of failed items. */
static int check_items (const st_report *A, const st_report *B, double rtol, FILE *out)
{
  double scale[NQ] = { 0 }, worst[NQ] = { 0 };
  int count[NQ] = { 0 }, bad[NQ] = { 0 };
  for (int i = 0; i < A->nitems; i++)
    for (int k = 0; k < A->items[i].n; k++)
      scale[A->items[i].q] = fmax (scale[A->items[i].q], fabs (A->items[i].v[k]));
  for (int q = 0; q < NQ; q++) if (!(scale[q] > 0)) scale[q] = 1.0;
  int failed = 0, lines = 0;
  for (int i = 0; i < A->nitems; i++) {
    const st_item *a = &A->items[i];
    const st_item *b = B->nitems > 0 ? bsearch (a, B->items, (size_t) B->nitems,
                                                 sizeof *B->items, by_label) : NULL;
    double tol = rtol * scale[a->q], d = 0.0;
    const char *why = NULL;
    if (!b) why = "missing in the report";
    else if (a->n != b->n) why = "a different count of numbers";
    else if (a->has_null || b->has_null) why = "null (not finite)";
    else {
      for (int k = 0; k < a->n; k++) d = fmax (d, fabs (a->v[k] - b->v[k]));
      if (!(d <= tol)) why = "differs";
    }
    count[a->q]++;
    worst[a->q] = fmax (worst[a->q], d);  /* 0 for a missing, null or misshapen item */
    if (!why) continue;
    failed++;
    bad[a->q]++;
    if (out && lines++ < MAX_FAIL_LINES) {
      if (b && a->n == b->n && !a->has_null && !b->has_null)
        fprintf (out, "  FAIL %s: differs by %.3g %s > %.3g %s\n", a->label, d,
                 q_unit[a->q], tol, q_unit[a->q]);
      else fprintf (out, "  FAIL %s: %s\n", a->label, why);
    }
  }
  if (out && lines > MAX_FAIL_LINES)
    fprintf (out, "  ... %d more failed items\n", lines - MAX_FAIL_LINES);
  if (out) {
    fprintf (out, " %-12s  %6s  %12s  %12s  %-6s  %s\n", "quantity", "items", "max diff",
             "tolerance", "unit", "status");
    for (int q = 0; q < NQ; q++) {
      if (count[q] == 0) continue;
      fprintf (out, " %-12s  %6d  %12.3g  %12.3g  %-6s  ", q_name[q], count[q], worst[q],
               rtol * scale[q], q_unit[q]);
      if (bad[q]) fprintf (out, "FAIL (%d)\n", bad[q]);
      else fprintf (out, "ok\n");
    }
  }
  return failed;
}

int compare_static_reports (const char *path_a, const char *path_b, const compare_opts *opts,
                            FILE *out, mb_err *err)
{
  compare_opts def;
  compare_opts_init (&def);
  if (!opts) opts = &def;
  st_report A, B;
  memset (&B, 0, sizeof B);
  int rc = st_load (path_a, &A, err);
  if (rc == 0) rc = st_load (path_b, &B, err);
  if (rc < 0) goto done;
  double rtol = opts->rtol_given || !A.has_rtol ? opts->rtol : A.rtol;
  if (out)
    fprintf (out, "compare: %s (reference) vs %s: stage static, %d items, rtol %g of each "
             "quantity's largest value in the reference\n", path_a, path_b, A.nitems, rtol);
  int failed = check_items (&A, &B, rtol, out);
  int total = A.nitems;
  if (A.converged == 1 && B.converged != 1) {
    if (out) fprintf (out, "  FAIL the report did not converge (the reference did)\n");
    failed++;
    total++;
  }
  if (out) fprintf (out, "compare: %d items ok, %d failed\n", total - failed, failed);
  if (failed > 0)
    rc = mb_fail (err, MB_EREGRESS, "%d of %d items of %s differ in %s", failed, total,
                  path_a, path_b);
done:
  st_clear (&A);
  st_clear (&B);
  return rc;
}
