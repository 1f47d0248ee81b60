/* compare.c: `mbmodal compare`: pairs the modes of two YAML reports and checks tolerances.

   Reads both files with libyaml's document loader and copies out only what it checks,
   ignoring every other key (so reports with future keys still compare):

     format: mbmodal-report        required (otherwise "not an mbmodal report")
     format_version: 1             optional; only 1 is read
     stage: modal | complex        required; A and B must agree (static: the whole
                                   comparison is compare_static.c's)
     rtol: 1e-3                    optional, reference only: tolerance when --rtol is absent
     modes:                        required sequence, possibly []
       - mode: 1                   optional label (default: position in the list)
         eigenvalue: x | [re, im]  optional; null (a non-finite value) never matches
         frequency_hz: f           required, >= 0
         damping_ratio: z          optional; null never matches
         kind: rigid-body | oscillatory | overdamped | unstable     optional; compared
                                   when both reports give it (unless --ignore-kinds)
         vector: [..]              optional, real
         vector_re: [..]           optional complex vector, with vector_im of equal length
         vector_im: [..]
         nodes:                    optional, read only when no vector is given (model
           - {value: [..]}         reports): the node-wise vector, items concatenated in
           - {re: [..], im: [..]}  order (value: real; re and im: complex)

   Before loading, an event pass applies the deck reader's limits (nesting, anchors) and
   bounds alias expansion (prescan). Pairing and checks: see compare.h and docs/compare.md
   ("How modes are paired", "What is checked in each pair"). */
#include "compare.h"

#include <complex.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include <lapacke.h>
#include <yaml.h>

#include "../eigen/eigen.h"
#include "compare_static.h"
#include "report.h"

/* cmp_report.stage of a static report (stage: static), besides STAGE_MODAL, STAGE_COMPLEX */
#define STAGE_STATIC_CMP 2

/* The name of a cmp_report.stage. */
static const char *stage_name (int stage)
{
  return stage == STAGE_MODAL ? "modal" : stage == STAGE_COMPLEX ? "complex" : "static";
}

#define RIGID_REL 1e-6     /* rigid: frequency at most this times A's largest frequency, */
#define RIGID_LABEL_REL 1e-3  /* or this times it when labelled rigid-body (a damped rigid
                                 mode has |lambda| = the mass-proportional damping), */
#define RIGID_ABS 1e-6     /* or at most this [Hz] (a reference of rigid-body modes only) */
#define WINDOW_FACTOR 10.0 /* MAC pairing looks at eigenvalues within 10 rtol */
#define RANK_TOL 1e-8      /* cluster vectors with |R_jj| below this times max are dropped */

/* One mode as read from a report. */
typedef struct cmp_mode {
  int label;              /* 'mode' key, or position + 1 */
  int has_lambda;         /* 1: eigenvalue given, -1: given as null (not finite), 0: absent */
  double complex lambda;  /* eigenvalue: modal [rad^2/s^2], complex [1/s] */
  double freq;            /* frequency_hz [Hz] */
  int has_zeta;           /* 1: damping_ratio given, -1: null (not finite), 0: absent */
  double zeta;            /* damping ratio [-] */
  int kind;               /* mode_kind, -1 when not given */
  int nvec;               /* vector length, 0 when no vector */
  double complex *vec;    /* eigenvector, size nvec, NULL when absent */
} cmp_mode;

/* What compare needs of one report file. */
typedef struct cmp_report {
  int stage;        /* STAGE_MODAL or STAGE_COMPLEX */
  size_t stage_line, stage_col;  /* where 'stage' stood (1-based), for a mismatch error */
  int has_rtol;     /* 1: top-level rtol given */
  double rtol;
  int nmodes;
  cmp_mode *modes;  /* size nmodes */
} cmp_report;

static void cmp_report_clear (cmp_report *r)
{
  for (int i = 0; r->modes && i < r->nmodes; i++) free (r->modes[i].vec);
  free (r->modes);
  memset (r, 0, sizeof *r);
}

void compare_opts_init (compare_opts *o)
{
  o->rtol = 1e-6;
  o->mac_min = 0.99;
  o->modes = 0;
  o->rtol_given = 0;
  o->ignore_kinds = 0;
}

/* ---------------------------------------------------------------- reading */

typedef struct reader {
  const char *path;
  yaml_document_t *doc;
  mb_err *err;
} reader;

/* MB_EDECK at node nd: "path:line:col: message" (libyaml marks are 0-based). */
static int fail_node (reader *rd, const yaml_node_t *nd, const char *fmt, ...)
  __attribute__ ((format (printf, 3, 4)));
static int fail_node (reader *rd, const yaml_node_t *nd, const char *fmt, ...)
{
  char msg[768];
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (msg, sizeof msg, fmt, ap);
  va_end (ap);
  size_t line = nd ? nd->start_mark.line + 1 : 0, col = nd ? nd->start_mark.column + 1 : 0;
  return mb_fail_at (rd->err, MB_EDECK, rd->path, line, col, "%s", msg);
}

static int scalar_is (const yaml_node_t *nd, const char *s)
{
  size_t len = strlen (s);
  return nd->type == YAML_SCALAR_NODE && nd->data.scalar.length == len
         && memcmp (nd->data.scalar.value, s, len) == 0;
}

/* A plain scalar YAML reads as null: "", "~", "null", "Null", "NULL". */
static int is_null (const yaml_node_t *nd)
{
  if (nd->type != YAML_SCALAR_NODE || nd->data.scalar.style != YAML_PLAIN_SCALAR_STYLE)
    return 0;
  return nd->data.scalar.length == 0 || scalar_is (nd, "~") || scalar_is (nd, "null")
         || scalar_is (nd, "Null") || scalar_is (nd, "NULL");
}

/* A null eigenvalue: null, or a pair [re, im] with a null part (report.c writes null for
   a non-finite number). */
static int is_null_value (reader *rd, const yaml_node_t *nd)
{
  if (is_null (nd)) return 1;
  if (nd->type != YAML_SEQUENCE_NODE) return 0;
  for (yaml_node_item_t *it = nd->data.sequence.items.start; it < nd->data.sequence.items.top;
       it++) {
    yaml_node_t *x = yaml_document_get_node (rd->doc, *it);
    if (x && is_null (x)) return 1;
  }
  return 0;
}

/* The value of key in mapping map into *out (NULL when absent); a key given twice is an
   error at its second occurrence. */
static int lookup (reader *rd, const yaml_node_t *map, const char *key, yaml_node_t **out)
{
  *out = NULL;
  for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top;
       p++) {
    yaml_node_t *k = yaml_document_get_node (rd->doc, p->key);
    if (!k || !scalar_is (k, key)) continue;
    if (*out) return fail_node (rd, k, "key '%s' is given twice", key);
    *out = yaml_document_get_node (rd->doc, p->value);
  }
  return 0;
}

/* nd as a finite double: a plain scalar that strtod reads entirely. */
static int get_number (reader *rd, const yaml_node_t *nd, const char *what, double *v)
{
  char buf[64];
  if (nd->type != YAML_SCALAR_NODE || nd->data.scalar.style != YAML_PLAIN_SCALAR_STYLE
      || nd->data.scalar.length == 0 || nd->data.scalar.length >= sizeof buf)
    return fail_node (rd, nd, "%s must be a number", what);
  memcpy (buf, nd->data.scalar.value, nd->data.scalar.length);
  buf[nd->data.scalar.length] = '\0';
  char *end;
  double x = strtod (buf, &end);
  if (end == buf || *end != '\0')
    return fail_node (rd, nd, "%s must be a number, not '%s'", what, buf);
  if (!isfinite (x))
    return fail_node (rd, nd, "%s must be a finite number, not '%s'", what, buf);
  *v = x;
  return 0;
}

/* nd as an int: a number without fraction in [INT_MIN, INT_MAX]. */
static int get_int (reader *rd, const yaml_node_t *nd, const char *what, int *v)
{
  double x;
  MB_TRY (get_number (rd, nd, what, &x));
  if (x != floor (x) || x < INT_MIN || x > INT_MAX)
    return fail_node (rd, nd, "%s must be an integer", what);
  *v = (int) x;
  return 0;
}

/* A scalar eigenvalue (real) or a [re, im] pair. */
static int get_eigenvalue (reader *rd, const yaml_node_t *nd, double complex *z)
{
  double re, im = 0.0;
  if (nd->type == YAML_SEQUENCE_NODE) {
    yaml_node_item_t *it = nd->data.sequence.items.start;
    if (nd->data.sequence.items.top - it != 2)
      return fail_node (rd, nd, "eigenvalue must be a number or a pair [re, im]");
    MB_TRY (get_number (rd, yaml_document_get_node (rd->doc, it[0]), "eigenvalue", &re));
    MB_TRY (get_number (rd, yaml_document_get_node (rd->doc, it[1]), "eigenvalue", &im));
  }
  else MB_TRY (get_number (rd, nd, "eigenvalue", &re));
  *z = CMPLX (re, im);
  return 0;
}

/* The numbers of sequence nd into the real (part 0) or imaginary (part 1) parts of
   *vec, allocated here with size *n when *vec is NULL, else checked to have size *n. */
static int get_vector (reader *rd, const yaml_node_t *nd, const char *what,
                       double complex **vec, int *n, int part)
{
  if (nd->type != YAML_SEQUENCE_NODE)
    return fail_node (rd, nd, "%s must be a sequence of numbers", what);
  yaml_node_item_t *it = nd->data.sequence.items.start;
  long len = (long) (nd->data.sequence.items.top - it);
  if (len > INT_MAX) return fail_node (rd, nd, "%s is too long", what);
  if (*vec && len != *n)
    return fail_node (rd, nd, "%s has %ld entries, its real part %d", what, len, *n);
  if (!*vec) {
    *vec = mb_calloc ((size_t) (len > 0 ? len : 1), sizeof **vec);
    if (!*vec) return mb_fail (rd->err, MB_ENOMEM, "out of memory reading %s", rd->path);
    *n = (int) len;
  }
  for (long i = 0; i < len; i++) {
    double x;
    MB_TRY (get_number (rd, yaml_document_get_node (rd->doc, it[i]), what, &x));
    if (part) (*vec)[i] = CMPLX (creal ((*vec)[i]), x);
    else (*vec)[i] = CMPLX (x, cimag ((*vec)[i]));
  }
  return 0;
}

/* The numbers of sequence nd (len entries, checked) into the real (part 0) or imaginary
   (part 1) parts of dst[0 .. len-1]. */
static int get_numbers (reader *rd, const yaml_node_t *nd, const char *what,
                        double complex *dst, long len, int part)
{
  if (nd->type != YAML_SEQUENCE_NODE)
    return fail_node (rd, nd, "%s must be a sequence of numbers", what);
  yaml_node_item_t *it = nd->data.sequence.items.start;
  if ((long) (nd->data.sequence.items.top - it) != len)
    return fail_node (rd, nd, "%s has %ld entries, %ld expected", what,
                      (long) (nd->data.sequence.items.top - it), len);
  for (long i = 0; i < len; i++) {
    double x;
    MB_TRY (get_number (rd, yaml_document_get_node (rd->doc, it[i]), what, &x));
    dst[i] = part ? CMPLX (creal (dst[i]), x) : CMPLX (x, cimag (dst[i]));
  }
  return 0;
}

/* The value (or re, im) sequences of one item of a mode's 'nodes' into *re, *im (im NULL
   for a real item); fails unless the item is a mapping with value, or re and im. */
static int node_parts (reader *rd, const yaml_node_t *nd, yaml_node_t **re, yaml_node_t **im)
{
  if (nd->type != YAML_MAPPING_NODE)
    return fail_node (rd, nd, "each item of 'nodes' must be a mapping {node, value} or "
                      "{node, re, im}");
  MB_TRY (lookup (rd, nd, "value", re));
  *im = NULL;
  if (*re) return 0;
  MB_TRY (lookup (rd, nd, "re", re));
  MB_TRY (lookup (rd, nd, "im", im));
  if (!*re || !*im)
    return fail_node (rd, nd, "a node of 'nodes' needs 'value', or 're' and 'im'");
  if ((*re)->type != YAML_SEQUENCE_NODE)
    return fail_node (rd, *re, "re must be a sequence of numbers");
  return 0;
}

/* A model report's node-wise eigenvector: the items of 'nodes' concatenated in order. */
static int get_node_vector (reader *rd, const yaml_node_t *nd, cmp_mode *md)
{
  if (nd->type != YAML_SEQUENCE_NODE)
    return fail_node (rd, nd, "'nodes' must be a sequence");
  yaml_node_item_t *it = nd->data.sequence.items.start;
  long count = (long) (nd->data.sequence.items.top - it), total = 0;
  for (long k = 0; k < count; k++) {
    yaml_node_t *re, *im;
    MB_TRY (node_parts (rd, yaml_document_get_node (rd->doc, it[k]), &re, &im));
    if (re->type != YAML_SEQUENCE_NODE)
      return fail_node (rd, re, "value must be a sequence of numbers");
    total += (long) (re->data.sequence.items.top - re->data.sequence.items.start);
    if (total > INT_MAX) return fail_node (rd, nd, "'nodes' is too long");
  }
  md->vec = mb_calloc ((size_t) (total > 0 ? total : 1), sizeof *md->vec);
  if (!md->vec) return mb_fail (rd->err, MB_ENOMEM, "out of memory reading %s", rd->path);
  md->nvec = (int) total;
  double complex *dst = md->vec;
  for (long k = 0; k < count; k++) {
    yaml_node_t *re, *im;
    MB_TRY (node_parts (rd, yaml_document_get_node (rd->doc, it[k]), &re, &im));
    long len = (long) (re->data.sequence.items.top - re->data.sequence.items.start);
    MB_TRY (get_numbers (rd, re, im ? "re" : "value", dst, len, 0));
    if (im) MB_TRY (get_numbers (rd, im, "im", dst, len, 1));
    dst += len;
  }
  return 0;
}

/* One item of 'modes'; label is its default label. md is zeroed by the caller. */
static int read_mode (reader *rd, const yaml_node_t *nd, int label, cmp_mode *md)
{
  yaml_node_t *v;
  if (nd->type != YAML_MAPPING_NODE)
    return fail_node (rd, nd, "each item of 'modes' must be a mapping");
  md->label = label;
  md->kind = -1;
  MB_TRY (lookup (rd, nd, "mode", &v));
  if (v) MB_TRY (get_int (rd, v, "mode", &md->label));
  MB_TRY (lookup (rd, nd, "frequency_hz", &v));
  if (!v) return fail_node (rd, nd, "mode %d: 'frequency_hz' is missing", md->label);
  MB_TRY (get_number (rd, v, "frequency_hz", &md->freq));
  if (md->freq < 0) return fail_node (rd, v, "frequency_hz must be >= 0");
  MB_TRY (lookup (rd, nd, "eigenvalue", &v));
  if (v && is_null_value (rd, v)) md->has_lambda = -1;  /* written for a non-finite value */
  else if (v) {
    MB_TRY (get_eigenvalue (rd, v, &md->lambda));
    md->has_lambda = 1;
  }
  MB_TRY (lookup (rd, nd, "damping_ratio", &v));
  if (v && is_null (v)) md->has_zeta = -1;
  else if (v) {
    MB_TRY (get_number (rd, v, "damping_ratio", &md->zeta));
    md->has_zeta = 1;
  }
  MB_TRY (lookup (rd, nd, "kind", &v));
  if (v) {
    for (int k = MODE_RIGID; k <= MODE_UNSTABLE; k++)
      if (scalar_is (v, report_kind_name ((mode_kind) k))) md->kind = k;
    if (md->kind < 0)
      return fail_node (rd, v, "kind must be rigid-body, oscillatory, overdamped or unstable");
  }
  yaml_node_t *re, *im;
  MB_TRY (lookup (rd, nd, "vector_re", &re));
  MB_TRY (lookup (rd, nd, "vector_im", &im));
  if ((re != NULL) != (im != NULL))
    return fail_node (rd, re ? re : im, "vector_re and vector_im must be given together");
  if (re) {
    MB_TRY (get_vector (rd, re, "vector_re", &md->vec, &md->nvec, 0));
    MB_TRY (get_vector (rd, im, "vector_im", &md->vec, &md->nvec, 1));
  }
  else {
    MB_TRY (lookup (rd, nd, "vector", &v));
    if (v) MB_TRY (get_vector (rd, v, "vector", &md->vec, &md->nvec, 0));
    else {
      MB_TRY (lookup (rd, nd, "nodes", &v));
      if (v) MB_TRY (get_node_vector (rd, v, md));
    }
  }
  if (md->nvec == 0) {  /* an empty vector is no vector */
    free (md->vec);
    md->vec = NULL;
  }
  return 0;
}

/* The report fields from the document root. */
static int read_report (reader *rd, cmp_report *out)
{
  yaml_node_t *root = yaml_document_get_root_node (rd->doc), *v;
  if (!root)
    return mb_fail_at (rd->err, MB_EDECK, rd->path, 1, 1,
                       "not an mbmodal report: the file is empty");
  if (root->type != YAML_MAPPING_NODE)
    return fail_node (rd, root, "not an mbmodal report: the top level is not a mapping");
  MB_TRY (lookup (rd, root, "format", &v));
  if (!v)
    return fail_node (rd, root, "not an mbmodal report: no 'format: mbmodal-report' key");
  if (!scalar_is (v, "mbmodal-report"))
    return fail_node (rd, v, "not an mbmodal report: format must be 'mbmodal-report'");
  MB_TRY (lookup (rd, root, "format_version", &v));
  if (v) {
    int version;
    MB_TRY (get_int (rd, v, "format_version", &version));
    if (version != 1)
      return fail_node (rd, v, "format_version %d is not supported (this mbmodal reads 1)",
                        version);
  }
  MB_TRY (lookup (rd, root, "stage", &v));
  if (!v) return fail_node (rd, root, "'stage' (modal or complex) is missing");
  if (scalar_is (v, "modal")) out->stage = STAGE_MODAL;
  else if (scalar_is (v, "complex")) out->stage = STAGE_COMPLEX;
  else if (scalar_is (v, "static")) out->stage = STAGE_STATIC_CMP;
  else return fail_node (rd, v, "stage must be modal, complex or static");
  out->stage_line = v->start_mark.line + 1;
  out->stage_col = v->start_mark.column + 1;
  if (out->stage == STAGE_STATIC_CMP) return 0;  /* compare_static_reports reads the rest */
  MB_TRY (lookup (rd, root, "rtol", &v));
  if (v) {
    MB_TRY (get_number (rd, v, "rtol", &out->rtol));
    if (!(out->rtol > 0)) return fail_node (rd, v, "rtol must be > 0");
    out->has_rtol = 1;
  }
  MB_TRY (lookup (rd, root, "modes", &v));
  if (!v) return fail_node (rd, root, "'modes' is missing");
  if (v->type != YAML_SEQUENCE_NODE)
    return fail_node (rd, v, "'modes' must be a sequence (modes: [] when empty)");
  yaml_node_item_t *it = v->data.sequence.items.start;
  long count = (long) (v->data.sequence.items.top - it);
  if (count > INT_MAX) return fail_node (rd, v, "too many modes");
  out->modes = mb_calloc ((size_t) (count > 0 ? count : 1), sizeof *out->modes);
  if (!out->modes) return mb_fail (rd->err, MB_ENOMEM, "out of memory reading %s", rd->path);
  for (long i = 0; i < count; i++) {
    out->nmodes = (int) i + 1;  /* so that clear frees this mode's vector on failure */
    MB_TRY (read_mode (rd, yaml_document_get_node (rd->doc, it[i]), (int) i + 1,
                       &out->modes[i]));
  }
  out->nmodes = (int) count;
  return 0;
}

/* The deck reader's limits (src/deck/deck.c), and a bound on what aliases may add. */
enum { MAX_DEPTH = 32,           /* nesting; libyaml's scanner is quadratic in depth */
       MAX_ANCHORS = 64 };       /* libyaml looks aliases up linearly */
#define MAX_ALIAS_EXTRA 100000.0 /* nodes aliases may add beyond the document's own */

/* libyaml's failure in p as MB_EDECK (or MB_ENOMEM, MB_EIO) naming path. */
static int yaml_error (yaml_parser_t *p, FILE *f, const char *path, mb_err *err)
{
  if (p->error == YAML_MEMORY_ERROR)
    return mb_fail (err, MB_ENOMEM, "out of memory reading %s", path);
  if (ferror (f))
    return mb_fail_at (err, MB_EIO, path, 0, 0, "cannot read: %s", strerror (errno));
  if (p->error == YAML_READER_ERROR)
    return mb_fail_at (err, MB_EDECK, path, 0, 0, "%s (at byte %zu)",
                       p->problem ? p->problem : "unreadable text", p->problem_offset);
  if (p->context)  /* "did not find ... while parsing a flow sequence (from 2:8)" */
    return mb_fail_at (err, MB_EDECK, path, p->problem_mark.line + 1,
                       p->problem_mark.column + 1, "%s %s (from %zu:%zu)",
                       p->problem ? p->problem : "malformed YAML", p->context,
                       p->context_mark.line + 1, p->context_mark.column + 1);
  return mb_fail_at (err, MB_EDECK, path, p->problem_mark.line + 1,
                     p->problem_mark.column + 1, "%s", p->problem ? p->problem : "malformed YAML");
}

/* An anchor seen by prescan: its name and the nodes it stands for (aliases inside it
   expanded). */
typedef struct scan_anchor {
  char *name;
  double nodes;
} scan_anchor;

/* Event pass over f before loading it: refuses nesting deeper than MAX_DEPTH, more than
   MAX_ANCHORS anchors and aliases that would expand the document by more than twice its
   own nodes plus MAX_ALIAS_EXTRA (each alias counts the nodes of its anchor, aliases
   inside expanded), so that hostile text is refused before yaml_parser_load or the
   readers below spend minutes or gigabytes on it. Reports written by mbmodal hold no
   anchor at all. */
static int prescan (FILE *f, const char *path, mb_err *err)
{
  yaml_parser_t p;
  yaml_event_t ev;
  scan_anchor anchors[MAX_ANCHORS];
  struct open_node { int anchor; double start; } open[MAX_DEPTH + 1];  /* open collections */
  int nanchors = 0, depth = 0, rc = 0;
  double own = 0, expanded = 0;  /* nodes in the text; nodes with aliases expanded */
  if (!yaml_parser_initialize (&p))
    return mb_fail (err, MB_ENOMEM, "out of memory starting the YAML parser");
  yaml_parser_set_input_file (&p, f);
  for (;;) {
    if (!yaml_parser_parse (&p, &ev)) {
      rc = yaml_error (&p, f, path, err);
      break;
    }
    yaml_event_type_t type = ev.type;
    size_t line = ev.start_mark.line + 1, col = ev.start_mark.column + 1;
    const yaml_char_t *anchor = type == YAML_SCALAR_EVENT ? ev.data.scalar.anchor
      : type == YAML_SEQUENCE_START_EVENT ? ev.data.sequence_start.anchor
      : type == YAML_MAPPING_START_EVENT ? ev.data.mapping_start.anchor : NULL;
    int ai = -1;
    if (anchor) {
      if (nanchors == MAX_ANCHORS)
        rc = mb_fail_at (err, MB_EDECK, path, line, col, "YAML: more than %d anchors",
                         MAX_ANCHORS);
      else if (!(anchors[nanchors].name = malloc (strlen ((const char *) anchor) + 1)))
        rc = mb_fail (err, MB_ENOMEM, "out of memory reading %s", path);
      else {
        strcpy (anchors[nanchors].name, (const char *) anchor);
        anchors[nanchors].nodes = 1;
        ai = nanchors++;
      }
    }
    if (rc == 0) switch (type) {
    case YAML_SCALAR_EVENT:
      own += 1;
      expanded += 1;
      break;
    case YAML_SEQUENCE_START_EVENT:
    case YAML_MAPPING_START_EVENT:
      own += 1;
      expanded += 1;
      if (depth == MAX_DEPTH)
        rc = mb_fail_at (err, MB_EDECK, path, line, col, "YAML: nested more than %d levels "
                         "deep (a report needs 6)", MAX_DEPTH);
      else open[depth++] = (struct open_node) { ai, expanded - 1 };
      break;
    case YAML_SEQUENCE_END_EVENT:
    case YAML_MAPPING_END_EVENT:
      if (depth > 0 && open[--depth].anchor >= 0)
        anchors[open[depth].anchor].nodes = expanded - open[depth].start;
      break;
    case YAML_ALIAS_EVENT: {
      const char *name = (const char *) ev.data.alias.anchor;
      double nodes = 1;  /* an undefined alias: libyaml's loader reports it */
      for (int k = nanchors - 1; k >= 0; k--)  /* the latest definition of the name */
        if (strcmp (anchors[k].name, name) == 0) {
          nodes = anchors[k].nodes;
          for (int d = 0; d < depth; d++)  /* an anchor still open: what it holds so far */
            if (open[d].anchor == k) nodes = expanded - open[d].start;
          break;
        }
      expanded += nodes;
      if (expanded > 2 * own + MAX_ALIAS_EXTRA)
        rc = mb_fail_at (err, MB_EDECK, path, line, col, "YAML: aliases expand the file "
                         "beyond %.0f nodes (an alias bomb?); a report needs no alias",
                         2 * own + MAX_ALIAS_EXTRA);
      break;
    }
    default:
      break;
    }
    yaml_event_delete (&ev);
    if (rc < 0 || type == YAML_STREAM_END_EVENT) break;
  }
  for (int k = 0; k < nanchors; k++) free (anchors[k].name);
  yaml_parser_delete (&p);
  return rc;
}

/* Loads path into *doc after prescan (compare_static.h); on failure *doc holds nothing. */
int compare_load_yaml (const char *path, yaml_document_t *doc, mb_err *err)
{
  FILE *f = fopen (path, "rb");
  if (!f) return mb_fail_at (err, MB_EIO, path, 0, 0, "cannot open: %s", strerror (errno));
  int rc = prescan (f, path, err);
  if (rc == 0 && fseek (f, 0, SEEK_SET) != 0)
    rc = mb_fail_at (err, MB_EIO, path, 0, 0, "cannot read it twice (not a regular file?): %s",
                     strerror (errno));
  if (rc < 0) {
    fclose (f);
    return rc;
  }
  yaml_parser_t parser;
  if (!yaml_parser_initialize (&parser)) {
    fclose (f);
    return mb_fail (err, MB_ENOMEM, "out of memory starting the YAML parser");
  }
  yaml_parser_set_input_file (&parser, f);
  if (!yaml_parser_load (&parser, doc)) rc = yaml_error (&parser, f, path, err);
  yaml_parser_delete (&parser);
  fclose (f);
  return rc;
}

/* Loads path into *out; on failure *out is left empty. */
static int load_report (const char *path, cmp_report *out, mb_err *err)
{
  memset (out, 0, sizeof *out);
  yaml_document_t doc;
  MB_TRY (compare_load_yaml (path, &doc, err));
  reader rd = { path, &doc, err };
  int rc = read_report (&rd, out);
  yaml_document_delete (&doc);
  if (rc < 0) cmp_report_clear (out);
  return rc;
}

/* ---------------------------------------------------------------- pairing */

typedef struct pair_cand {
  int i, j;      /* mode of A, mode of B (0-based) */
  double score;  /* MAC (phase 1, larger first) or distance (phase 2, smaller first) */
  double d;      /* relative difference, to break ties */
} pair_cand;

static int by_mac_desc (const void *p, const void *q)
{
  const pair_cand *a = p, *b = q;
  if (a->score != b->score) return a->score > b->score ? -1 : 1;
  if (a->d != b->d) return a->d < b->d ? -1 : 1;
  if (a->i != b->i) return a->i < b->i ? -1 : 1;
  return (a->j > b->j) - (a->j < b->j);
}

static int by_dist_asc (const void *p, const void *q)
{
  const pair_cand *a = p, *b = q;
  if (a->score != b->score) return a->score < b->score ? -1 : 1;
  if (a->i != b->i) return a->i < b->i ? -1 : 1;
  return (a->j > b->j) - (a->j < b->j);
}

/* Relative difference of two modes: |la - lb| / max(|la|, |lb|) when both have a finite
   eigenvalue, else |fa - fb| / max(fa, fb); 0 when both are 0, +inf when it overflows. */
static double rel_diff (const cmp_mode *a, const cmp_mode *b)
{
  double num, den;
  if (a->has_lambda == 1 && b->has_lambda == 1) {
    num = cabs (a->lambda - b->lambda);
    den = fmax (cabs (a->lambda), cabs (b->lambda));
  }
  else {
    num = fabs (a->freq - b->freq);
    den = fmax (a->freq, b->freq);
  }
  double d = den > 0 ? num / den : 0.0;
  return d >= 0 ? d : INFINITY;  /* NaN (inf/inf) sorts as the farthest */
}

/* Rigid-body when the numbers say so: a frequency at most max(RIGID_REL fmax_A,
   RIGID_ABS) [Hz], or, for a mode labelled rigid-body, at most max(RIGID_LABEL_REL fmax_A,
   RIGID_ABS). The label alone is not trusted: a 5 Hz mode labelled rigid-body is compared
   as a 5 Hz mode unless the reference's modes reach 5 kHz (labels are compared on their
   own, check_pairs). */
static int is_rigid (const cmp_mode *md, double fmax_a)
{
  double rel = md->kind == MODE_RIGID ? RIGID_LABEL_REL : RIGID_REL;
  return md->freq <= fmax (rel * fmax_a, RIGID_ABS);
}

/* max_k |x_k|; 0 for a zero vector, not finite when an entry is not. */
static double max_abs (const double complex *x, int n)
{
  double m = 0;
  for (int k = 0; k < n; k++) {
    double v = cabs (x[k]);
    if (!(v <= m)) m = v;  /* also takes a NaN */
  }
  return m;
}

/* MAC(a, b) = |a^H b|^2 / ((a^H a)(b^H b)), formed on a / max|a_k| and b / max|b_k| (the
   MAC does not change with the scale of either vector) so that entries of 1e200 do not
   overflow nor entries of 1e-160 underflow; 0 when either vector is zero or not finite. */
static double mac (const double complex *a, const double complex *b, int n)
{
  double sa = max_abs (a, n), sb = max_abs (b, n);
  if (!(sa > 0 && sb > 0 && isfinite (sa) && isfinite (sb))) return 0.0;
  double complex ab = 0;
  double aa = 0, bb = 0;
  for (int k = 0; k < n; k++) {
    double complex x = a[k] / sa, y = b[k] / sb;
    ab += conj (x) * y;
    aa += creal (conj (x) * x);
    bb += creal (conj (y) * y);
  }
  if (!(aa > 0 && bb > 0)) return 0.0;
  double v = creal (ab * conj (ab)) / (aa * bb);
  return v >= 0 ? (v > 1.0 ? 1.0 : v) : 0.0;  /* NaN after overflow: no match */
}

/* A cluster of B's modes with (near-)equal eigenvalues and vectors of one length n: an
   orthonormal basis Q (n x rank, column-major) of the span of their vectors. */
typedef struct cluster {
  int size;              /* members */
  int rank;              /* columns of Q kept */
  double complex *Q;     /* n x rank; NULL until computed (only for size > 1) */
} cluster;

/* Q = orth(span of the vectors of B's members of cluster c), by Householder QR (zgeqrf,
   zungqr); columns whose |R_jj| < RANK_TOL max |R_ii| are dropped. */
static int cluster_basis (cluster *cl, const cmp_report *B, const int *cid, int c, int n,
                          mb_err *err)
{
  int k = cl->size, kq = k < n ? k : n;
  double complex *Q = mb_calloc ((size_t) n * (size_t) k, sizeof *Q);
  double complex *tau = mb_calloc ((size_t) k, sizeof *tau);
  double *rdiag = mb_calloc ((size_t) k, sizeof *rdiag);
  int rc = 0;
  if (!Q || !tau || !rdiag) {
    rc = mb_fail (err, MB_ENOMEM, "out of memory in compare");
    goto done;
  }
  for (int j = 0, col = 0; j < B->nmodes; j++)  /* each vector / its largest |entry| */
    if (cid[j] == c) {
      const double complex *v = B->modes[j].vec;
      double sv = max_abs (v, n);
      double complex *q = Q + (size_t) n * col++;
      for (int k = 0; k < n; k++) q[k] = sv > 0 && isfinite (sv) ? v[k] / sv : 0.0;
    }
  lapack_int info = LAPACKE_zgeqrf (LAPACK_COL_MAJOR, n, k, Q, n, tau);
  if (info == 0) {
    double rmax = 0;
    for (int j = 0; j < kq; j++) {
      rdiag[j] = cabs (Q[(size_t) n * j + j]);
      rmax = fmax (rmax, rdiag[j]);
    }
    info = LAPACKE_zungqr (LAPACK_COL_MAJOR, n, kq, kq, Q, n, tau);
    if (info == 0) {
      int r = 0;  /* keep the columns of independent directions, packed */
      for (int j = 0; j < kq; j++)
        if (rdiag[j] > RANK_TOL * rmax) {
          if (r != j) memmove (Q + (size_t) n * r, Q + (size_t) n * j, (size_t) n * sizeof *Q);
          r++;
        }
      cl->rank = r;
    }
  }
  if (info != 0) {
    rc = mb_fail (err, MB_ESOLVE, "LAPACK QR of a cluster of eigenvectors failed: info %d",
                  (int) info);
    goto done;
  }
  cl->Q = Q;
  Q = NULL;
done:
  free (Q);
  free (tau);
  free (rdiag);
  return rc;
}

/* Subspace MAC = ||Q^H a||^2 / (a^H a) for orthonormal Q (n x r), formed on
   a / max|a_k| (no overflow or underflow). */
static double subspace_mac (const double complex *a, const double complex *Q, int n, int r)
{
  double sa = max_abs (a, n), aa = 0, p = 0;
  if (!(sa > 0 && isfinite (sa))) return 0.0;
  for (int k = 0; k < n; k++) aa += creal (conj (a[k] / sa) * (a[k] / sa));
  for (int j = 0; j < r; j++) {
    double complex qa = 0;
    const double complex *q = Q + (size_t) n * j;
    for (int k = 0; k < n; k++) qa += conj (q[k]) * (a[k] / sa);
    p += creal (qa * conj (qa));
  }
  if (!(aa > 0)) return 0.0;
  double v = p / aa;
  return v >= 0 ? (v > 1.0 ? 1.0 : v) : 0.0;
}

/* Everything one comparison holds; freed by ctx_clear. */
typedef struct ctx {
  cmp_report A, B;
  int na;            /* modes of A checked */
  double rtol, mac_min;
  double fmax_a;     /* A's largest frequency [Hz], the scale of is_rigid */
  int ignore_kinds;  /* 1: kind labels are not compared */
  int *cid;          /* cluster of each B mode, size B.nmodes (-1: no vector) */
  cluster *cl;       /* size B.nmodes */
  int *match;        /* B mode paired with each A mode, -1: unmatched; size na */
  int *used;         /* 1: B mode paired; size B.nmodes */
  pair_cand *cand;   /* candidate pairs, size na * B.nmodes */
} ctx;

static void ctx_clear (ctx *c)
{
  for (int j = 0; c->cl && j < c->B.nmodes; j++) free (c->cl[j].Q);
  cmp_report_clear (&c->A);
  cmp_report_clear (&c->B);
  free (c->cid);
  free (c->cl);
  free (c->match);
  free (c->used);
  free (c->cand);
}

static int find_root (int *parent, int j)
{
  while (parent[j] != j) j = parent[j] = parent[parent[j]];
  return j;
}

/* Clusters of B: modes with vectors of equal length whose eigenvalues are within rtol
   (relative) or which are both rigid, joined transitively (union-find). */
static int make_clusters (ctx *c, mb_err *err)
{
  int nb = c->B.nmodes;
  for (int j = 0; j < nb; j++) c->cid[j] = c->B.modes[j].vec ? j : -1;
  for (int j = 0; j < nb; j++) {
    const cmp_mode *bj = &c->B.modes[j];
    if (!bj->vec) continue;
    for (int k = j + 1; k < nb; k++) {
      const cmp_mode *bk = &c->B.modes[k];
      if (!bk->vec || bk->nvec != bj->nvec) continue;
      int close = (is_rigid (bj, c->fmax_a) && is_rigid (bk, c->fmax_a))
                  || rel_diff (bj, bk) <= c->rtol;
      if (close) {
        int rj = find_root (c->cid, j), rk = find_root (c->cid, k);
        if (rj != rk) c->cid[rk > rj ? rk : rj] = rk > rj ? rj : rk;
      }
    }
  }
  for (int j = 0; j < nb; j++)
    if (c->cid[j] >= 0) c->cid[j] = find_root (c->cid, j);
  for (int j = 0; j < nb; j++)
    if (c->cid[j] >= 0) c->cl[c->cid[j]].size++;
  for (int j = 0; j < nb; j++)
    if (c->cid[j] == j && c->cl[j].size > 1)
      MB_TRY (cluster_basis (&c->cl[j], &c->B, c->cid, j, c->B.modes[j].nvec, err));
  return 0;
}

/* MAC of A's mode i with B's mode j: the subspace MAC with j's cluster when it has more
   than one member, else the plain MAC; -1 when the two do not both have vectors of one
   length. */
static double pair_mac (const ctx *c, int i, int j)
{
  const cmp_mode *a = &c->A.modes[i], *b = &c->B.modes[j];
  if (!a->vec || !b->vec || a->nvec != b->nvec) return -1.0;
  const cluster *cl = &c->cl[c->cid[j]];
  if (cl->size > 1) return subspace_mac (a->vec, cl->Q, a->nvec, cl->rank);
  return mac (a->vec, b->vec, a->nvec);
}

/* Pairs A's modes with distinct B modes: first greedily by decreasing MAC among pairs
   within the window (both rigid, or relative difference <= 10 rtol), then the rest
   greedily by increasing relative difference (0 for two rigid modes). */
static void pair_modes (ctx *c)
{
  int nb = c->B.nmodes, nc = 0;
  for (int i = 0; i < c->na; i++) c->match[i] = -1;
  for (int i = 0; i < c->na; i++)
    for (int j = 0; j < nb; j++) {
      const cmp_mode *a = &c->A.modes[i], *b = &c->B.modes[j];
      double d = rel_diff (a, b), m = pair_mac (c, i, j);
      int both_rigid = is_rigid (a, c->fmax_a) && is_rigid (b, c->fmax_a);
      if (m >= 0 && (both_rigid || d <= WINDOW_FACTOR * c->rtol))
        c->cand[nc++] = (pair_cand) { i, j, m, d };
    }
  qsort (c->cand, (size_t) nc, sizeof *c->cand, by_mac_desc);
  for (int k = 0; k < nc; k++) {
    const pair_cand *p = &c->cand[k];
    if (c->match[p->i] < 0 && !c->used[p->j]) {
      c->match[p->i] = p->j;
      c->used[p->j] = 1;
    }
  }
  nc = 0;
  for (int i = 0; i < c->na; i++) {
    if (c->match[i] >= 0) continue;
    for (int j = 0; j < nb; j++) {
      if (c->used[j]) continue;
      const cmp_mode *a = &c->A.modes[i], *b = &c->B.modes[j];
      double d = rel_diff (a, b);
      int both_rigid = is_rigid (a, c->fmax_a) && is_rigid (b, c->fmax_a);
      c->cand[nc++] = (pair_cand) { i, j, both_rigid ? 0.0 : d, d };
    }
  }
  qsort (c->cand, (size_t) nc, sizeof *c->cand, by_dist_asc);
  for (int k = 0; k < nc; k++) {
    const pair_cand *p = &c->cand[k];
    if (c->match[p->i] < 0 && !c->used[p->j]) {
      c->match[p->i] = p->j;
      c->used[p->j] = 1;
    }
  }
}

/* Checks each pair, prints the table; returns the number of failed modes. */
static int check_pairs (const ctx *c, FILE *out)
{
  int failed = 0;
  if (out)
    fprintf (out, "%7s %7s %14s %14s %10s %9s  %s\n", "mode A", "mode B", "f_A [Hz]",
             "f_B [Hz]", "rel diff", "MAC", "status");
  for (int i = 0; i < c->na; i++) {
    const cmp_mode *a = &c->A.modes[i];
    int j = c->match[i];
    if (j < 0) {
      failed++;
      if (out)
        fprintf (out, "%7d %7s %14.8g %14s %10s %9s  unmatched\n", a->label, "-", a->freq,
                 "-", "-", "-");
      continue;
    }
    const cmp_mode *b = &c->B.modes[j];
    double d = rel_diff (a, b), m = pair_mac (c, i, j);
    int both_rigid = is_rigid (a, c->fmax_a) && is_rigid (b, c->fmax_a);
    char status[128] = "";
    if (a->has_lambda && b->has_lambda && (a->has_lambda < 0 || b->has_lambda < 0))
      strcat (status, ", eigenvalue null");  /* not finite: never a match */
    else if (!both_rigid && !(d <= c->rtol))
      strcat (status, a->has_lambda == 1 && b->has_lambda == 1 ? ", eigenvalue" : ", frequency");
    if (a->has_zeta && b->has_zeta && (a->has_zeta < 0 || b->has_zeta < 0))
      strcat (status, ", damping null");
    else if (a->has_zeta && b->has_zeta && !both_rigid  /* zeta of lambda ~ 0 is noise */
             && !(fabs (a->zeta - b->zeta) <= c->rtol * fmax (1.0, fmax (fabs (a->zeta),
                                                                          fabs (b->zeta)))))
      strcat (status, ", damping");
    if (!c->ignore_kinds && a->kind >= 0 && b->kind >= 0 && a->kind != b->kind) {
      size_t len = strlen (status);
      snprintf (status + len, sizeof status - len, ", kind %s/%s",
                report_kind_name ((mode_kind) a->kind), report_kind_name ((mode_kind) b->kind));
    }
    /* vectors of different lengths (the same structure as two models, e.g. constrained
       and reduced) are not compared: such modes pair by frequency and show no MAC */
    if (m >= 0 && !(m >= c->mac_min)) strcat (status, ", MAC");
    if (status[0]) failed++;
    if (!out) continue;
    char dbuf[16], mbuf[16];
    if (both_rigid) snprintf (dbuf, sizeof dbuf, "rigid");
    else snprintf (dbuf, sizeof dbuf, "%.2e", d);
    if (m >= 0) snprintf (mbuf, sizeof mbuf, "%.6f", m);
    else snprintf (mbuf, sizeof mbuf, "-");
    fprintf (out, "%7d %7d %14.8g %14.8g %10s %9s  %s%s\n", a->label, b->label, a->freq,
             b->freq, dbuf, mbuf, status[0] ? "FAIL " : "ok", status[0] ? status + 2 : "");
  }
  return failed;
}

int compare_reports (const char *path_a, const char *path_b, const compare_opts *opts,
                     FILE *out, mb_err *err)
{
  compare_opts def;
  compare_opts_init (&def);
  if (!opts) opts = &def;
  if (!path_a || !path_b) return mb_fail (err, MB_EUSAGE, "compare needs two report files");
  if (!(opts->rtol > 0) || !isfinite (opts->rtol))
    return mb_fail (err, MB_EUSAGE, "rtol must be a positive number");
  if (!(opts->mac_min >= 0 && opts->mac_min <= 1))
    return mb_fail (err, MB_EUSAGE, "the MAC threshold must be in [0, 1]");
  if (opts->modes < 0) return mb_fail (err, MB_EUSAGE, "--modes must be >= 0");

  ctx c;
  memset (&c, 0, sizeof c);
  int rc = load_report (path_a, &c.A, err);
  if (rc == 0) rc = load_report (path_b, &c.B, err);
  if (rc == 0 && c.A.stage != c.B.stage)
    rc = mb_fail_at (err, MB_EDECK, path_b, c.B.stage_line, c.B.stage_col,
                     "stage '%s' differs from the reference's stage '%s' (%s)",
                     stage_name (c.B.stage), stage_name (c.A.stage), path_a);
  if (rc < 0) goto done;
  if (c.A.stage == STAGE_STATIC_CMP) {  /* two static reports: compare_static.c */
    rc = compare_static_reports (path_a, path_b, opts, out, err);
    goto done;
  }

  c.na = opts->modes > 0 && opts->modes < c.A.nmodes ? opts->modes : c.A.nmodes;
  c.rtol = opts->rtol_given || !c.A.has_rtol ? opts->rtol : c.A.rtol;
  c.mac_min = opts->mac_min;
  for (int i = 0; i < c.A.nmodes; i++) c.fmax_a = fmax (c.fmax_a, c.A.modes[i].freq);
  c.ignore_kinds = opts->ignore_kinds;
  size_t nb = (size_t) c.B.nmodes;
  c.cid = mb_calloc (nb, sizeof *c.cid);
  c.cl = mb_calloc (nb, sizeof *c.cl);
  c.used = mb_calloc (nb, sizeof *c.used);
  c.match = mb_calloc ((size_t) c.na, sizeof *c.match);
  c.cand = (size_t) c.na * nb <= SIZE_MAX / sizeof *c.cand
             ? mb_calloc ((size_t) c.na * nb, sizeof *c.cand) : NULL;
  if (!c.cid || !c.cl || !c.used || !c.match || !c.cand) {
    rc = mb_fail (err, MB_ENOMEM, "out of memory in compare");
    goto done;
  }
  rc = make_clusters (&c, err);
  if (rc < 0) goto done;
  pair_modes (&c);

  if (out)
    fprintf (out, "compare: %s (reference) vs %s: stage %s, %d mode%s, rtol %g, MAC >= %g\n",
             path_a, path_b, c.A.stage == STAGE_MODAL ? "modal" : "complex", c.na,
             c.na == 1 ? "" : "s", c.rtol, c.mac_min);
  int failed = check_pairs (&c, out);
  if (out) fprintf (out, "compare: %d modes ok, %d failed\n", c.na - failed, failed);
  if (failed > 0)
    rc = mb_fail (err, MB_EREGRESS, "%d of %d modes of %s differ in %s", failed, c.na,
                  path_a, path_b);
done:
  ctx_clear (&c);
  return rc;
}

/* ---------------------------------------------------------------- command line */

static const char compare_usage[] =
  "usage: mbmodal compare [--rtol X] [--mac X] [--modes N] [--ignore-kinds] REFERENCE.yaml"
  " REPORT.yaml\n"
  "  --rtol X        relative tolerance on eigenvalues/frequencies (default 1e-6, or the\n"
  "                  reference's top-level 'rtol')\n"
  "  --mac X         smallest accepted MAC of paired eigenvectors, in [0, 1] (default 0.99)\n"
  "  --modes N       check only the first N modes of the reference (default 0: all)\n"
  "  --ignore-kinds  a differing mode kind (rigid-body, oscillatory, ...) is not a failure\n"
  "two static reports (stage: static) compare positions, displacements, rotations and\n"
  "reactions by name within --rtol of each quantity's largest value (docs/compare.md)\n"
  "exit status: 0 all modes ok, 6 regression, 1 usage error, 2 unreadable or invalid file\n";

static int usage_error (const char *fmt, const char *arg)
{
  fprintf (stderr, "mbmodal: compare: ");
  fprintf (stderr, fmt, arg);
  fprintf (stderr, "\n%.*s(mbmodal compare --help for more)\n",
           (int) (strchr (compare_usage, '\n') - compare_usage + 1), compare_usage);
  return 1;
}

/* s as a finite double, whole string; 0 or -1. */
static int parse_double (const char *s, double *v)
{
  char *end;
  errno = 0;
  double x = strtod (s, &end);
  if (end == s || *end != '\0' || !isfinite (x) || errno == ERANGE) return -1;
  *v = x;
  return 0;
}

int compare_main (int argc, char **argv)
{
  compare_opts o;
  compare_opts_init (&o);
  const char *files[2] = { NULL, NULL };
  int nfiles = 0, options_done = 0;
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!a) continue;
    if (!options_done && (strcmp (a, "-h") == 0 || strcmp (a, "--help") == 0)) {
      fputs (compare_usage, stdout);
      return 0;
    }
    if (!options_done && strcmp (a, "--") == 0) {
      options_done = 1;
      continue;
    }
    if (!options_done && strcmp (a, "--ignore-kinds") == 0) {
      o.ignore_kinds = 1;
      continue;
    }
    if (!options_done && a[0] == '-' && a[1] != '\0') {
      static const char *const names[] = { "--rtol", "--mac", "--modes" };
      int opt = -1;
      const char *val = NULL;
      for (int k = 0; k < 3; k++) {
        size_t len = strlen (names[k]);
        if (strncmp (a, names[k], len) == 0 && (a[len] == '\0' || a[len] == '=')) {
          opt = k;
          val = a[len] == '=' ? a + len + 1 : NULL;
        }
      }
      if (opt < 0) return usage_error ("unknown option '%s'", a);
      if (!val) {
        if (i + 1 >= argc || !argv[i + 1]) return usage_error ("%s needs a value", names[opt]);
        val = argv[++i];
      }
      double x;
      if (parse_double (val, &x) < 0) return usage_error ("'%s' is not a number", val);
      if (opt == 0) {
        if (!(x > 0)) return usage_error ("--rtol must be > 0, not '%s'", val);
        o.rtol = x;
        o.rtol_given = 1;
      }
      else if (opt == 1) {
        if (!(x >= 0 && x <= 1)) return usage_error ("--mac must be in [0, 1], not '%s'", val);
        o.mac_min = x;
      }
      else {
        if (!(x >= 0 && x <= INT_MAX && x == floor (x)))
          return usage_error ("--modes must be an integer >= 0, not '%s'", val);
        o.modes = (int) x;
      }
      continue;
    }
    if (nfiles == 2) return usage_error ("too many files ('%s'): give two reports", a);
    files[nfiles++] = a;
  }
  if (nfiles < 2) return usage_error ("%s", "two report files are needed");
  mb_err err;
  mb_err_init (&err);
  int rc = compare_reports (files[0], files[1], &o, stdout, &err);
  fflush (stdout);
  if (rc == 0) return 0;
  mb_err_print (&err);
  if (rc == MB_EIO || rc == MB_EDECK) return 2;
  return mb_exit_status (rc);
}
