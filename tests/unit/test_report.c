/* test_report.c: the text table and the YAML report: keys, order, exact number round-trip. */
#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <yaml.h>

#include "check.h"
#include "report/report.h"

static char tmpdir[] = "/tmp/mbmodal_test_report_XXXXXX";
static char written[16][600];  /* files to remove at the end */
static int nwritten;

static const char *tmp_path (const char *name)
{
  snprintf (written[nwritten], sizeof written[0], "%s/%s", tmpdir, name);
  return written[nwritten++];
}

/* The whole file as a string (caller frees), NULL if unreadable. */
static char *slurp (const char *path)
{
  FILE *f = fopen (path, "rb");
  if (!f) return NULL;
  size_t cap = 1 << 16, len = 0;
  char *s = malloc (cap);
  size_t got;
  while (s && (got = fread (s + len, 1, cap - len - 1, f)) > 0) {
    len += got;
    if (cap - len - 1 == 0) {
      char *t = realloc (s, cap *= 2);
      if (!t) free (s);
      s = t;
    }
  }
  fclose (f);
  if (s) s[len] = '\0';
  return s;
}

/* ---- a minimal YAML walker over libyaml's document model, for the checks */

static int load_doc (const char *path, yaml_document_t *doc)
{
  FILE *f = fopen (path, "rb");
  if (!f) return 0;
  yaml_parser_t p;
  yaml_parser_initialize (&p);
  yaml_parser_set_input_file (&p, f);
  int ok = yaml_parser_load (&p, doc);
  yaml_parser_delete (&p);
  fclose (f);
  return ok;
}

/* Child of a mapping by key, NULL if absent. */
static yaml_node_t *get (yaml_document_t *d, yaml_node_t *map, const char *key)
{
  if (!map || map->type != YAML_MAPPING_NODE) return NULL;
  for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top;
       p++) {
    yaml_node_t *k = yaml_document_get_node (d, p->key);
    if (k->type == YAML_SCALAR_NODE && strcmp ((char *) k->data.scalar.value, key) == 0)
      return yaml_document_get_node (d, p->value);
  }
  return NULL;
}

/* Node at a dotted path of mapping keys from the root ("settings.shift"). */
static yaml_node_t *at (yaml_document_t *d, const char *path)
{
  char buf[256];
  snprintf (buf, sizeof buf, "%s", path);
  yaml_node_t *nd = yaml_document_get_root_node (d);
  for (char *save, *tok = strtok_r (buf, ".", &save); tok && nd;
       tok = strtok_r (NULL, ".", &save))
    nd = get (d, nd, tok);
  return nd;
}

static int seq_len (yaml_node_t *s)
{
  if (!s || s->type != YAML_SEQUENCE_NODE) return -1;
  return (int) (s->data.sequence.items.top - s->data.sequence.items.start);
}

static yaml_node_t *item (yaml_document_t *d, yaml_node_t *s, int i)
{
  if (seq_len (s) <= i) return NULL;
  return yaml_document_get_node (d, s->data.sequence.items.start[i]);
}

static const char *str (yaml_node_t *nd)
{
  return nd && nd->type == YAML_SCALAR_NODE ? (const char *) nd->data.scalar.value : "";
}

/* Bitwise equality of the number in a scalar with v (so -0 differs from 0). */
static int num_is (yaml_node_t *nd, double v)
{
  if (!nd || nd->type != YAML_SCALAR_NODE) return 0;
  char *end;
  double x = strtod (str (nd), &end);
  return *end == '\0' && end != str (nd) && memcmp (&x, &v, sizeof v) == 0;
}

/* ---- hand-built results */

/* Awkward doubles for the round-trip: decimal fractions, thirds, extremes, a subnormal. */
static const double awkward[] = { 0.1, 1.0 / 3.0, -2.0 / 3.0, 1e-300, 4.9406564584124654e-324,
                                  -0.0, DBL_MAX, 9007199254740992.0, 1e22, 123456.789,
                                  3.141592653589793, -1.7976931348623157e308, 2.5e-8,
                                  0.30000000000000004, 1.0, -7.0, 6.02214076e23,
                                  2.2250738585072014e-308, 1.0000000000000002, 5e-324 };
#define NAWK ((int) (sizeof awkward / sizeof awkward[0]))

/* A modal result: n DOFs, m constraints, 3 modes of a unit-mass system with
   lambda = 0 (rigid), (2 pi)^2 and (4 pi)^2, so f = sqrt(lambda)/(2 pi) = 0, 1, 2 Hz. */
static void make_modal (eigen_result *r, int n, int m)
{
  memset (r, 0, sizeof *r);
  r->stage = STAGE_MODAL;
  r->n = n;
  r->m = m;
  r->shift = -0.001;
  r->nev = 20;
  r->ncv = 40;
  r->tolerance = 1e-10;
  r->max_restarts = 300;
  r->cq_scale = 1e6;
  r->converged = 1;
  r->restarts = 3;
  r->op_applies = 120;
  r->nconv = 22;
  r->n_infinite = 2;
  r->max_residual = 1.5e-14;
  r->factor = (factor_stats) { 2, 1, 0, n + m, 5678, 91011, -1, 12.5, 30, 0, 0.01, 0.02 };
  r->time_assemble = 0.1;
  r->time_factor = 0.2;
  r->time_iterate = 0.3;
  r->time_post = 0.4;
  r->time_total = 1.0;
  r->nmodes = 3;
  r->modes = calloc (3, sizeof *r->modes);
  const double two_pi = 6.283185307179586;
  for (int i = 0; i < 3; i++) {
    mode *md = &r->modes[i];
    md->lambda = (two_pi * i) * (two_pi * i);
    md->freq_hz = i;             /* sqrt(lambda)/(2 pi) */
    md->damped_freq_hz = i;
    md->kind = i == 0 ? MODE_RIGID : MODE_OSCILLATORY;
    md->residual = 1e-15 * (i + 1);
    md->x = calloc ((size_t) n, sizeof *md->x);
    for (int k = 0; k < n; k++) md->x[k] = awkward[(k + i) % NAWK];
    if (m > 0) {
      md->xi = calloc ((size_t) m, sizeof *md->xi);
      for (int k = 0; k < m; k++) md->xi[k] = awkward[(k + 5 + i) % NAWK];
    }
  }
}

/* A damped result: one mode of m x'' + c x' + k x = 0 with omega = 2 pi, zeta = 0.05:
   lambda = -zeta omega + i omega sqrt(1 - zeta^2), f = |lambda|/(2 pi) = 1 Hz. */
static void make_complex (eigen_result *r, int n, int m)
{
  make_modal (r, n, m);
  r->stage = STAGE_COMPLEX;
  r->shift = CMPLX (0.5, 6.25);
  r->factor.symmetric = 0;
  r->factor.complex_arith = 1;
  r->factor.negative_pivots = 7;
  const double two_pi = 6.283185307179586, zeta = 0.05;
  for (int i = 0; i < r->nmodes; i++) {
    mode *md = &r->modes[i];
    double w = two_pi * (i + 1);
    md->lambda = CMPLX (-zeta * w, w * sqrt (1 - zeta * zeta));
    md->freq_hz = i + 1;
    md->damped_freq_hz = (i + 1) * sqrt (1 - zeta * zeta);
    md->zeta = zeta;
    md->kind = MODE_OSCILLATORY;
    for (int k = 0; k < n; k++) md->x[k] = CMPLX (awkward[(k + i) % NAWK], awkward[(k + 3) % NAWK]);
    for (int k = 0; k < m; k++) md->xi[k] = CMPLX (awkward[k % NAWK], -awkward[(k + 1) % NAWK]);
  }
}

static void free_result (eigen_result *r)
{
  for (int i = 0; r->modes && i < r->nmodes; i++) {
    free (r->modes[i].x);
    free (r->modes[i].xi);
  }
  free (r->modes);
  memset (r, 0, sizeof *r);
}

/* ---- tests */

static void test_modal (void)
{
  eigen_result r;
  make_modal (&r, NAWK, 2);
  const char *deck = "decks/we\"ird \\ name\n\t\x01 caf\xc3\xa9.yaml";
  const char *path = tmp_path ("modal.yaml");
  mb_err err;
  mb_err_init (&err);
  CHECK ("modal report written", report_write_yaml (path, &r, deck, NULL, 1, &err) == 0);
  yaml_document_t d;
  int ok = load_doc (path, &d);
  CHECK ("modal report is valid YAML", ok);
  if (!ok) {
    free_result (&r);
    return;
  }
  /* the top-level keys, in the documented order */
  static const char *const order[] = { "format", "format_version", "stage", "deck", "units",
                                       "problem", "settings", "convergence", "factorization",
                                       "timings_s", "modes" };
  yaml_node_t *root = yaml_document_get_root_node (&d);
  int nkeys = (int) (root->data.mapping.pairs.top - root->data.mapping.pairs.start), inorder = 1;
  for (int k = 0; k < nkeys && k < 11; k++) {
    yaml_node_t *key = yaml_document_get_node (&d, root->data.mapping.pairs.start[k].key);
    if (strcmp (str (key), order[k]) != 0) inorder = 0;
  }
  CHECK ("top-level keys: no title, no missed_mode_check", nkeys == 11);
  CHECK ("top-level keys in the documented order", inorder);
  CHECK ("format", strcmp (str (at (&d, "format")), "mbmodal-report") == 0);
  CHECK ("format_version", strcmp (str (at (&d, "format_version")), "1") == 0);
  CHECK ("stage modal", strcmp (str (at (&d, "stage")), "modal") == 0);
  CHECK ("deck string escaped and read back", strcmp (str (at (&d, "deck")), deck) == 0);
  CHECK ("units", strcmp (str (at (&d, "units.eigenvalue")), "rad^2/s^2") == 0
                  && strcmp (str (at (&d, "units.frequency")), "Hz") == 0);
  CHECK ("problem.dofs", num_is (at (&d, "problem.dofs"), NAWK));
  CHECK ("problem.constraints", num_is (at (&d, "problem.constraints"), 2));
  CHECK ("settings.shift is a real number", num_is (at (&d, "settings.shift"), -0.001));
  CHECK ("settings.subspace", num_is (at (&d, "settings.subspace"), 40));
  CHECK ("settings.tolerance", num_is (at (&d, "settings.tolerance"), 1e-10));
  CHECK ("settings.cq_scale", num_is (at (&d, "settings.cq_scale"), 1e6));
  CHECK ("convergence.converged", strcmp (str (at (&d, "convergence.converged")), "true") == 0);
  CHECK ("convergence.operator_applications",
         num_is (at (&d, "convergence.operator_applications"), 120));
  CHECK ("convergence.infinite_filtered", num_is (at (&d, "convergence.infinite_filtered"), 2));
  CHECK ("convergence.max_residual", num_is (at (&d, "convergence.max_residual"), 1.5e-14));
  CHECK ("factorization.method", strcmp (str (at (&d, "factorization.method")), "LDLt") == 0);
  CHECK ("factorization.arithmetic",
         strcmp (str (at (&d, "factorization.arithmetic")), "real") == 0);
  CHECK ("factorization.factor_entries", num_is (at (&d, "factorization.factor_entries"), 91011));
  CHECK ("negative_pivots omitted when -1", at (&d, "factorization.negative_pivots") == NULL);
  CHECK ("factorization.memory_mb", num_is (at (&d, "factorization.memory_mb"), 12.5));
  CHECK ("factorization.time_factor_s", num_is (at (&d, "factorization.time_factor_s"), 0.02));
  CHECK ("timings_s.iterate", num_is (at (&d, "timings_s.iterate"), 0.3));
  CHECK ("timings_s.total", num_is (at (&d, "timings_s.total"), 1.0));
  yaml_node_t *modes = at (&d, "modes");
  CHECK ("three modes", seq_len (modes) == 3);
  int exact = 1, lengths = 1, nodamp = 1, labels = 1;
  for (int i = 0; i < 3 && seq_len (modes) == 3; i++) {
    yaml_node_t *md = item (&d, modes, i), *x = get (&d, md, "vector");
    yaml_node_t *xi = get (&d, md, "multipliers");
    if (!num_is (get (&d, md, "mode"), i + 1)) labels = 0;
    if (!num_is (get (&d, md, "eigenvalue"), creal (r.modes[i].lambda))) exact = 0;
    if (!num_is (get (&d, md, "frequency_hz"), r.modes[i].freq_hz)) exact = 0;
    if (!num_is (get (&d, md, "residual"), r.modes[i].residual)) exact = 0;
    if (get (&d, md, "damping_ratio") || get (&d, md, "damped_frequency_hz")
        || get (&d, md, "vector_re"))
      nodamp = 0;
    if (seq_len (x) != NAWK || seq_len (xi) != 2) {
      lengths = 0;
      continue;
    }
    for (int k = 0; k < NAWK; k++)
      if (!num_is (item (&d, x, k), creal (r.modes[i].x[k]))) exact = 0;
    for (int k = 0; k < 2; k++)
      if (!num_is (item (&d, xi, k), creal (r.modes[i].xi[k]))) exact = 0;
  }
  CHECK ("mode labels 1, 2, 3", labels);
  CHECK ("vector has n entries, multipliers m", lengths);
  CHECK ("every number reads back bit for bit (incl. -0, subnormals, DBL_MAX)", exact);
  CHECK ("no damping keys in the modal stage", nodamp);
  CHECK ("kind rigid-body",
         strcmp (str (get (&d, item (&d, modes, 0), "kind")), "rigid-body") == 0);
  CHECK ("kind oscillatory",
         strcmp (str (get (&d, item (&d, modes, 2), "kind")), "oscillatory") == 0);
  yaml_document_delete (&d);

  char *text = slurp (path);
  CHECK ("file readable", text != NULL);
  if (text) {
    CHECK ("first line is the stage comment",
           strncmp (text, "# mbmodal report: undamped modes", 32) == 0);
    CHECK ("exponent numbers carry a '.' (YAML 1.1 float)", strstr (text, "1.0e-300") != NULL
                                                            && strstr (text, " 1e-300") == NULL);
    CHECK ("0.1 written as 0.1 (shortest round-trip)", strstr (text, "[0.1, ") != NULL);
    CHECK ("long vectors wrap after 8 numbers",
           strstr (text, "    vector: [0.1, 0.3333333333333333, -0.6666666666666666, "
                         "1.0e-300, 4.94065645841247e-324, -0, "
                         "1.7976931348623157e+308, 9007199254740992,\n      1.0e+22, ")
             != NULL);
    free (text);
  }
  free_result (&r);
}

static void test_complex (void)
{
  eigen_result r;
  make_complex (&r, 3, 1);
  r.sturm_done = 1;  /* not meaningful for the damped stage, but the writer must handle it */
  r.sturm_lambda = 2.0;
  r.sturm_count = 1;
  const char *path = tmp_path ("complex.yaml");
  mb_err err;
  mb_err_init (&err);
  CHECK ("complex report written",
         report_write_yaml (path, &r, NULL, "Title: \"x\" \xe2\x86\x92 y", 1, &err) == 0);
  yaml_document_t d;
  if (!load_doc (path, &d)) {
    CHECK ("complex report is valid YAML", 0);
    free_result (&r);
    return;
  }
  CHECK ("stage complex", strcmp (str (at (&d, "stage")), "complex") == 0);
  CHECK ("deck omitted when NULL", at (&d, "deck") == NULL);
  CHECK ("title with quotes and UTF-8",
         strcmp (str (at (&d, "title")), "Title: \"x\" \xe2\x86\x92 y") == 0);
  CHECK ("units 1/s", strcmp (str (at (&d, "units.eigenvalue")), "1/s") == 0);
  yaml_node_t *shift = at (&d, "settings.shift");
  CHECK ("shift is [re, im]", seq_len (shift) == 2 && num_is (item (&d, shift, 0), 0.5)
                              && num_is (item (&d, shift, 1), 6.25));
  CHECK ("method LU", strcmp (str (at (&d, "factorization.method")), "LU") == 0);
  CHECK ("arithmetic complex",
         strcmp (str (at (&d, "factorization.arithmetic")), "complex") == 0);
  CHECK ("negative_pivots written when known",
         num_is (at (&d, "factorization.negative_pivots"), 7));
  /* hand count: Re lambda = -0.05 * 2 pi k < 2 for k = 1, 2, 3: three below, count 1 */
  CHECK ("missed_mode_check.shift", num_is (at (&d, "missed_mode_check.shift"), 2.0));
  CHECK ("modes_reported_below", num_is (at (&d, "missed_mode_check.modes_reported_below"), 3));
  CHECK ("status inconsistent when more reported than counted",
         strcmp (str (at (&d, "missed_mode_check.status")), "inconsistent") == 0);
  yaml_node_t *modes = at (&d, "modes");
  int exact = seq_len (modes) == 3;
  for (int i = 0; exact && i < 3; i++) {
    yaml_node_t *md = item (&d, modes, i), *ev = get (&d, md, "eigenvalue");
    yaml_node_t *re = get (&d, md, "vector_re"), *im = get (&d, md, "vector_im");
    yaml_node_t *mre = get (&d, md, "multipliers_re"), *mim = get (&d, md, "multipliers_im");
    exact = seq_len (ev) == 2 && num_is (item (&d, ev, 0), creal (r.modes[i].lambda))
            && num_is (item (&d, ev, 1), cimag (r.modes[i].lambda))
            && num_is (get (&d, md, "damping_ratio"), 0.05)
            && num_is (get (&d, md, "damped_frequency_hz"), r.modes[i].damped_freq_hz)
            && seq_len (re) == 3 && seq_len (im) == 3 && seq_len (mre) == 1
            && seq_len (mim) == 1 && get (&d, md, "vector") == NULL
            && num_is (item (&d, mre, 0), creal (r.modes[i].xi[0]))
            && num_is (item (&d, mim, 0), cimag (r.modes[i].xi[0]));
    for (int k = 0; exact && k < 3; k++)
      exact = num_is (item (&d, re, k), creal (r.modes[i].x[k]))
              && num_is (item (&d, im, k), cimag (r.modes[i].x[k]));
  }
  CHECK ("complex eigenvalues, damping, vectors and multipliers exact", exact);
  yaml_document_delete (&d);
  free_result (&r);
}

static void test_variants (void)
{
  eigen_result r;
  mb_err err;
  yaml_document_t d;
  make_modal (&r, 4, 0);
  /* hand count: lambda = 0, 39.48, 157.9 vs shift 100: two below; count 2 -> ok */
  r.sturm_done = 1;
  r.sturm_lambda = 100.0;
  r.sturm_count = 2;
  r.modes[1].residual = NAN;
  const char *path = tmp_path ("novec.yaml");
  mb_err_init (&err);
  CHECK ("report without vectors written",
         report_write_yaml (path, &r, "d.yaml", "t", 0, &err) == 0);
  if (load_doc (path, &d)) {
    yaml_node_t *md = item (&d, at (&d, "modes"), 1);
    CHECK ("no vectors when with_vectors = 0", md && !get (&d, md, "vector")
                                                && !get (&d, md, "multipliers"));
    CHECK ("missed_mode_check ok", strcmp (str (at (&d, "missed_mode_check.status")), "ok") == 0
                                     && num_is (at (&d, "missed_mode_check.eigenvalues_below"), 2));
    CHECK ("a NaN residual is written as null",
           strcmp (str (get (&d, md, "residual")), "null") == 0);
    CHECK ("title key present", strcmp (str (at (&d, "title")), "t") == 0);
    yaml_document_delete (&d);
  }
  else CHECK ("report without vectors is valid YAML", 0);
  char *text = slurp (path);
  CHECK ("no nan or inf anywhere", text && !strstr (text, "nan") && !strstr (text, "inf,")
                                     && !strstr (text, "inf\n") && !strstr (text, "inf}"));
  free (text);

  r.sturm_count = 3;  /* one eigenvalue below 100 was not reported */
  path = tmp_path ("missed.yaml");
  CHECK ("missed report written", report_write_yaml (path, &r, NULL, NULL, 1, &err) == 0);
  if (load_doc (path, &d)) {
    CHECK ("missed_mode_check missed",
           strcmp (str (at (&d, "missed_mode_check.status")), "missed") == 0);
    CHECK ("m = 0: no multipliers even with vectors",
           !get (&d, item (&d, at (&d, "modes"), 0), "multipliers")
             && seq_len (get (&d, item (&d, at (&d, "modes"), 0), "vector")) == 4);
    yaml_document_delete (&d);
  }
  else CHECK ("missed report is valid YAML", 0);

  free_result (&r);
  make_modal (&r, 2, 0);
  for (int i = 0; i < r.nmodes; i++) free (r.modes[i].x);
  free (r.modes);
  r.modes = NULL;
  r.nmodes = 0;
  path = tmp_path ("empty.yaml");
  CHECK ("empty report written", report_write_yaml (path, &r, NULL, NULL, 1, &err) == 0);
  text = slurp (path);
  CHECK ("empty modes list is 'modes: []'", text && strstr (text, "\nmodes: []\n"));
  free (text);
  if (load_doc (path, &d)) {
    CHECK ("modes: [] parses as an empty sequence", seq_len (at (&d, "modes")) == 0);
    yaml_document_delete (&d);
  }
  else CHECK ("empty report is valid YAML", 0);

  /* text YAML cannot hold raw: an invalid UTF-8 byte (written as \xFF, read as U+00FF),
     NEL U+0085 and line separator U+2028 (line breaks in YAML 1.1), BOM U+FEFF */
  path = tmp_path ("strings.yaml");
  CHECK ("odd strings written",
         report_write_yaml (path, &r, "bad\xff.yaml",
                            "a\xc2\x85" "b\xe2\x80\xa8" "c\xef\xbb\xbf" "d", 0, &err) == 0);
  if (load_doc (path, &d)) {
    CHECK ("invalid byte read back as U+00FF",
           strcmp (str (at (&d, "deck")), "bad\xc3\xbf.yaml") == 0);
    CHECK ("NEL, LS and BOM read back unchanged",
           strcmp (str (at (&d, "title")), "a\xc2\x85" "b\xe2\x80\xa8" "c\xef\xbb\xbf" "d") == 0);
    yaml_document_delete (&d);
  }
  else CHECK ("odd strings: valid YAML", 0);

  mb_err_init (&err);
  char bad[700];
  snprintf (bad, sizeof bad, "%s/no/such/dir/r.yaml", tmpdir);
  CHECK ("unwritable path: MB_EIO", report_write_yaml (bad, &r, NULL, NULL, 1, &err) == MB_EIO);
  CHECK ("error names the path", strstr (err.where, "no/such/dir/r.yaml") != NULL);
  free_result (&r);
}

/* Lines of text, counting a final line without newline. */
static int count_lines (const char *s)
{
  int n = 0;
  for (; *s; s++) n += *s == '\n';
  return n;
}

static void test_table (void)
{
  eigen_result r;
  make_modal (&r, 2, 0);
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream (&buf, &len);
  report_print_table (f, &r);
  fclose (f);
  CHECK ("modal table: header + 3 rows + infinite line", count_lines (buf) == 5);
  CHECK ("modal header", strstr (buf, "frequency [Hz]") && !strstr (buf, "damping"));
  /* f = 1 Hz at %14.6g is "1" right-aligned, kind left-aligned */
  CHECK ("modal row 2", strstr (buf, "     2               1  oscillatory") != NULL);
  CHECK ("rigid row", strstr (buf, "     1               0  rigid-body") != NULL);
  CHECK ("infinite count", strstr (buf, "2 infinite eigenvalues filtered") != NULL);
  free (buf);
  free_result (&r);

  make_complex (&r, 2, 1);
  r.n_infinite = 0;
  buf = NULL;
  f = open_memstream (&buf, &len);
  report_print_table (f, &r);
  fclose (f);
  CHECK ("complex table: header + 3 rows", count_lines (buf) == 4);
  CHECK ("complex header", strstr (buf, "damping ratio") && strstr (buf, "damped f. [Hz]"));
  /* zeta 0.05, damped f = sqrt(1 - 0.0025) = 0.998749 (6 digits) */
  CHECK ("complex row 1", strstr (buf, "     1               1           0.05          0.998749")
                            != NULL);
  CHECK ("no infinite line when none", strstr (buf, "infinite") == NULL);
  free (buf);
  free_result (&r);
  CHECK ("kind names", strcmp (report_kind_name (MODE_OVERDAMPED), "overdamped") == 0
                       && strcmp (report_kind_name (MODE_UNSTABLE), "unstable") == 0
                       && strcmp (report_kind_name ((mode_kind) 42), "unknown") == 0);
}

int main (void)
{
  if (!mkdtemp (tmpdir)) {
    printf ("cannot create a temporary folder\n");
    return 1;
  }
  test_modal ();
  test_complex ();
  test_variants ();
  test_table ();
  for (int i = 0; i < nwritten; i++) unlink (written[i]);
  rmdir (tmpdir);
  return CHECK_DONE ();
}
