/* test_report.c: the text table and the YAML report: keys, order, exact number round-trip. */
#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <yaml.h>

#include "check.h"
#include "linalg/blas.h"
#include "report/compare.h"
#include "report/report.h"
#include "toy_model.h"

static char tmpdir[] = "/tmp/mbmodal_test_report_XXXXXX";
static char written[32][600];  /* files to remove at the end */
static int nwritten;

static const char *tmp_path (const char *name)
{
  snprintf (written[nwritten], sizeof written[0], "%s/%s", tmpdir, name);
  return written[nwritten++];
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
  r->factor = (factor_stats) { 2, 1, 0, n + m, 5678, 91011, -1, 12.5, 30, 0, 0.01, 0.02, 6, 0.0 };
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
  free (r->profile.memory_bytes);
  memset (r, 0, sizeof *r);
}

/* The profile of a stage on 2 ranks (the parts of make_modal's total 1.0 s: 0.1 + ... +
   0.0625 = 1, binary fractions so that the sum is exact), the floor of 0.5 s, and peak
   memories of 300 MiB on rank 0 and 400 MiB on rank 1. */
static void add_profile (eigen_result *r)
{
  eigen_profile *p = &r->profile;
  p->done = 1;
  p->time_pencil = 0.0625;
  p->time_analysis = 0.03125;
  p->time_factor = 0.125;
  p->time_solves = 0.25;
  p->time_apply_other = 0.03125;
  p->time_orth = 0.125;
  p->time_schur = 0.0625;
  p->time_basis = 0.0625;
  p->time_krylov_other = 0.03125;
  p->time_post = 0.0625;
  p->time_check = 0.125;
  p->time_other = 0.03125;
  p->rhs = 120;
  p->single_solves = 0;
  p->block_solves = 15;
  p->block_rhs = 120;
  p->block = 8;
  p->gemm_rate = 1e10;
  p->floor_solves = 30;
  p->time_per_rhs = 0.25 / 120;
  p->orth_flops = 4.0 * 22 * 30 * 30;
  p->time_floor = 0.5;
  p->nranks = 2;
  p->memory_bytes = calloc (2, sizeof *p->memory_bytes);
  p->memory_bytes[0] = 300L << 20;
  p->memory_bytes[1] = 400L << 20;
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
  CHECK ("modal report written", report_write_yaml (path, &r, deck, NULL, 1, NULL, &err) == 0);
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
  CHECK ("top-level keys: no title, no missed_mode_check, no profile", nkeys == 11);
  CHECK ("no format_minor in a matrix report without a profile", !at (&d, "format_minor"));
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
         report_write_yaml (path, &r, NULL, "Title: \"x\" \xe2\x86\x92 y", 1, NULL, &err) == 0);
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
         report_write_yaml (path, &r, "d.yaml", "t", 0, NULL, &err) == 0);
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
  CHECK ("missed report written", report_write_yaml (path, &r, NULL, NULL, 1, NULL, &err) == 0);
  if (load_doc (path, &d)) {
    CHECK ("missed_mode_check missed",
           strcmp (str (at (&d, "missed_mode_check.status")), "missed") == 0);
    CHECK ("m = 0: no multipliers even with vectors",
           !get (&d, item (&d, at (&d, "modes"), 0), "multipliers")
             && seq_len (get (&d, item (&d, at (&d, "modes"), 0), "vector")) == 4);
    yaml_document_delete (&d);
  }
  else CHECK ("missed report is valid YAML", 0);

  /* the status from the eigenvalues found when known: 3 found (2 reported, a third copy
     of the top one beyond `modes`) of 3 counted is ok; 2 found of 3 is missed */
  for (int found = 3; found >= 2; found--) {
    r.sturm_found = found;
    path = tmp_path ("found.yaml");
    CHECK ("report with eigenvalues_found written",
           report_write_yaml (path, &r, NULL, NULL, 0, NULL, &err) == 0);
    if (load_doc (path, &d)) {
      CHECK ("eigenvalues_found written", num_is (at (&d, "missed_mode_check.eigenvalues_found"),
                                                  found)
                                          && num_is (at (&d, "missed_mode_check.modes_reported_below"), 2));
      CHECK ("status from eigenvalues_found", strcmp (str (at (&d, "missed_mode_check.status")),
                                                      found == 3 ? "ok" : "missed") == 0);
      yaml_document_delete (&d);
    }
    else CHECK ("report with eigenvalues_found is valid YAML", 0);
  }
  r.sturm_found = 0;

  free_result (&r);
  make_modal (&r, 2, 0);
  for (int i = 0; i < r.nmodes; i++) free (r.modes[i].x);
  free (r.modes);
  r.modes = NULL;
  r.nmodes = 0;
  path = tmp_path ("empty.yaml");
  CHECK ("empty report written", report_write_yaml (path, &r, NULL, NULL, 1, NULL, &err) == 0);
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
                            "a\xc2\x85" "b\xe2\x80\xa8" "c\xef\xbb\xbf" "d", 0, NULL, &err) == 0);
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
  CHECK ("unwritable path: MB_EIO", report_write_yaml (bad, &r, NULL, NULL, 1, NULL, &err) == MB_EIO);
  CHECK ("error names the path", strstr (err.where, "no/such/dir/r.yaml") != NULL);
  free_result (&r);
}

/* The profile block of a result that has one (add_profile), read back with libyaml: its
   keys, every number exact, times >= 0 summing to at most the total, memory > 0 with one
   entry per rank, the largest and the sum; the floor's ratio; compare ignores the block. */
static void test_profile (void)
{
  eigen_result r;
  make_modal (&r, 22, 2);
  add_profile (&r);
  r.sturm_done = 1;
  r.sturm_lambda = 100.0;
  r.sturm_count = 2;
  r.time_check = r.profile.time_check;
  const char *path = tmp_path ("profile.modal.yaml");
  mb_err err;
  mb_err_init (&err);
  CHECK ("report with a profile written",
         report_write_yaml (path, &r, "d.yaml", NULL, 1, NULL, &err) == 0);
  yaml_document_t d;
  if (!load_doc (path, &d)) {
    CHECK ("report with a profile is valid YAML", 0);
    free_result (&r);
    return;
  }
  static const char *const order[] = { "format", "format_version", "format_minor", "stage",
                                       "deck", "units", "problem", "settings", "convergence",
                                       "factorization", "missed_mode_check", "timings_s",
                                       "profile", "modes" };
  yaml_node_t *root = yaml_document_get_root_node (&d);
  int nkeys = (int) (root->data.mapping.pairs.top - root->data.mapping.pairs.start), inorder = 1;
  for (int k = 0; k < nkeys && k < 14; k++) {
    yaml_node_t *key = yaml_document_get_node (&d, root->data.mapping.pairs.start[k].key);
    if (strcmp (str (key), order[k]) != 0) inorder = 0;
  }
  CHECK ("profile: 14 top-level keys in the documented order", nkeys == 14 && inorder);
  CHECK ("format_minor 2 with a profile", num_is (at (&d, "format_minor"), 2));
  CHECK ("format_version stays 1", num_is (at (&d, "format_version"), 1));

  /* time_s: total first, then the parts in the documented order, each >= 0 */
  static const char *const parts[] = { "total", "pencil", "analysis", "factorization", "solves",
                                       "operator_other", "orthogonalization", "schur",
                                       "basis_rotations", "krylov_other", "post_processing",
                                       "missed_mode_check", "other" };
  const double want[] = { 1.0, 0.0625, 0.03125, 0.125, 0.25, 0.03125, 0.125, 0.0625, 0.0625,
                          0.03125, 0.0625, 0.125, 0.03125 };
  yaml_node_t *ts = at (&d, "profile.time_s");
  int ntimes = ts && ts->type == YAML_MAPPING_NODE
             ? (int) (ts->data.mapping.pairs.top - ts->data.mapping.pairs.start) : -1;
  int named = ntimes == 13, exact = 1, nonneg = 1;
  double sum = 0.0;
  for (int k = 0; named && k < 13; k++) {
    yaml_node_t *key = yaml_document_get_node (&d, ts->data.mapping.pairs.start[k].key);
    yaml_node_t *v = yaml_document_get_node (&d, ts->data.mapping.pairs.start[k].value);
    if (strcmp (str (key), parts[k]) != 0) named = 0;
    if (!num_is (v, want[k])) exact = 0;
    double t = strtod (str (v), NULL);
    if (!(t >= 0.0)) nonneg = 0;
    if (k > 0) sum += t;
  }
  CHECK ("profile.time_s: total and 12 parts, in order", named);
  CHECK ("profile.time_s: every time read back exactly", exact);
  CHECK ("profile.time_s: every time >= 0", nonneg);
  CHECK ("profile.time_s: the parts sum to at most the total",
         sum <= strtod (str (at (&d, "profile.time_s.total")), NULL));
  /* 0.125 / 1.0: the check's share of the stage */
  CHECK ("profile.missed_mode_check_share", num_is (at (&d, "profile.missed_mode_check_share"), 0.125));
  CHECK ("profile.solves: counts and block size",
         num_is (at (&d, "profile.solves.right_hand_sides"), 120)
           && num_is (at (&d, "profile.solves.single"), 0)
           && num_is (at (&d, "profile.solves.multi_rhs"), 15)
           && num_is (at (&d, "profile.solves.multi_rhs_right_hand_sides"), 120)
           && num_is (at (&d, "profile.solves.block_size"), 8));
  CHECK ("profile.solves.time_per_rhs_s", num_is (at (&d, "profile.solves.time_per_rhs_s"),
                                                  0.25 / 120));
  /* ratio = total / floor = 1.0 / 0.5 */
  CHECK ("profile.floor: time, ratio, solves, flops, rate",
         num_is (at (&d, "profile.floor.time_s"), 0.5) && num_is (at (&d, "profile.floor.ratio"), 2.0)
           && num_is (at (&d, "profile.floor.solves"), 30)
           && num_is (at (&d, "profile.floor.orthogonalization_flop"), 4.0 * 22 * 30 * 30)
           && num_is (at (&d, "profile.floor.blas3_flop_per_s"), 1e10));
  yaml_node_t *mem = at (&d, "profile.peak_memory_bytes.ranks");
  int positive = seq_len (mem) == 2;
  for (int k = 0; positive && k < 2; k++) positive = strtod (str (item (&d, mem, k)), NULL) > 0;
  CHECK ("profile.peak_memory_bytes.ranks: one entry per rank, each > 0", positive);
  CHECK ("profile.peak_memory_bytes: exact bytes",
         num_is (item (&d, mem, 0), 300.0 * 1048576) && num_is (item (&d, mem, 1), 400.0 * 1048576));
  /* rank 1 holds the most; 300 + 400 MiB in all */
  CHECK ("profile.peak_memory_bytes: peak_rank, max, sum",
         num_is (at (&d, "profile.peak_memory_bytes.peak_rank"), 1)
           && num_is (at (&d, "profile.peak_memory_bytes.max"), 400.0 * 1048576)
           && num_is (at (&d, "profile.peak_memory_bytes.sum"), 700.0 * 1048576));
  yaml_document_delete (&d);

  /* no floor when it is unknown; 9 ranks wrap the memory list and still read back */
  r.profile.time_floor = 0.0;
  free (r.profile.memory_bytes);
  r.profile.nranks = 9;
  r.profile.memory_bytes = calloc (9, sizeof *r.profile.memory_bytes);
  for (int k = 0; k < 9; k++) r.profile.memory_bytes[k] = (k + 1) * 1000L;
  const char *path9 = tmp_path ("profile9.modal.yaml");
  CHECK ("report with 9 ranks written", report_write_yaml (path9, &r, NULL, NULL, 0, NULL, &err) == 0);
  if (load_doc (path9, &d)) {
    mem = at (&d, "profile.peak_memory_bytes.ranks");
    int ok = seq_len (mem) == 9;
    for (int k = 0; ok && k < 9; k++) ok = num_is (item (&d, mem, k), (k + 1) * 1000.0);
    CHECK ("9 ranks: 9 memory entries in rank order", ok);
    /* 1000 + ... + 9000 = 45000, the largest on rank 8 */
    CHECK ("9 ranks: sum and peak rank", num_is (at (&d, "profile.peak_memory_bytes.sum"), 45000)
                                         && num_is (at (&d, "profile.peak_memory_bytes.peak_rank"), 8));
    CHECK ("no floor when unknown", at (&d, "profile.floor") == NULL);
    yaml_document_delete (&d);
  }
  else CHECK ("report with 9 ranks: valid YAML", 0);

  /* compare reads only what it needs: the same modes with and without a profile agree */
  eigen_result plain;
  make_modal (&plain, 22, 2);
  const char *ppath = tmp_path ("plain.modal.yaml");
  CHECK ("report without a profile written",
         report_write_yaml (ppath, &plain, NULL, NULL, 1, NULL, &err) == 0);
  compare_opts o;
  compare_opts_init (&o);
  mb_err_init (&err);
  CHECK ("compare: a report with a profile against one without passes",
         compare_reports (ppath, path, &o, NULL, &err) == 0
           && compare_reports (path, ppath, &o, NULL, &err) == 0);
  free_result (&plain);
  free_result (&r);

  /* the two measurements the stages put in the profile, on this process: a resident peak
     (Linux /proc) and a dgemm rate, both > 0; the rate is measured once (the same value) */
  CHECK ("mb_peak_memory_bytes: > 0 (VmHWM)", mb_peak_memory_bytes () > 0);
  double rate = blas_gemm_rate ();
  CHECK ("blas_gemm_rate: > 0, measured once", rate > 0.0 && blas_gemm_rate () == rate);
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


/* ---- model reports (toy_model.h) */

/* A result on the toy model (n = 30, m = 6) with three modes:
   1: tip dx = 1, hub dx = 0.01;
   2: tip dx = 1; beam nodes dx = 0, 0.5, 1 (a linear axial field);
   3: x_k = sin(k + 1), kind rigid-body (no strain shares listed).
   Complex stage: the same shapes times exp(0.3 i), which leaves every share unchanged. */
static void make_toy_result (eigen_result *r, int damped)
{
  make_modal (r, 30, 6);
  if (damped) {
    for (int i = 0; i < r->nmodes; i++) r->modes[i].lambda = CMPLX (-0.1 * (i + 1), i + 1.0);
    r->stage = STAGE_COMPLEX;
  }
  double complex ph = damped ? cexp (0.3 * I) : 1.0;
  for (int i = 0; i < 3; i++) r->modes[i].kind = i == 2 ? MODE_RIGID : MODE_OSCILLATORY;
  for (int i = 0; i < 3; i++) {
    double complex *x = r->modes[i].x;
    for (int k = 0; k < 30; k++) x[k] = 0;
    if (i == 0) {
      x[0] = ph;
      x[6] = 0.01 * ph;
    }
    else if (i == 1) {
      x[0] = ph;
      x[18] = 0.5 * ph;
      x[24] = ph;
    }
    else
      for (int k = 0; k < 30; k++) x[k] = sin (k + 1.0) * ph;
  }
}

/* 1 when the share item s is {part: name, kind: kind, share} with share within 1e-12
   (relative) of v. */
static int share_is (yaml_document_t *d, yaml_node_t *s, const char *name, const char *kind,
                     double v)
{
  yaml_node_t *sh = get (d, s, "share");
  if (!sh || strcmp (str (get (d, s, "part")), name) || strcmp (str (get (d, s, "kind")), kind))
    return 0;
  return fabs (strtod (str (sh), NULL) - v) <= 1e-12 * fabs (v);
}

static void test_model_report (void)
{
  model m;
  toy_model_build (&m);
  eigen_result r;
  make_toy_result (&r, 0);
  mb_err err;
  mb_err_init (&err);
  const char *path = tmp_path ("toy.modal.yaml");
  int rc = report_write_yaml (path, &r, "toy.yaml", "Toy", 1, &m, &err);
  CHECK ("model report written", rc == 0);
  if (rc) printf ("  %s: %s\n", err.where, err.msg);
  yaml_document_t d;
  if (!load_doc (path, &d)) {
    CHECK ("model report is valid YAML", 0);
    free_result (&r);
    model_clear (&m);
    return;
  }
  static const char *const order[] = { "format", "format_version", "format_minor", "stage",
                                       "deck", "title", "units", "problem", "settings",
                                       "convergence", "factorization", "timings_s", "model",
                                       "modes" };
  yaml_node_t *root = yaml_document_get_root_node (&d);
  int nkeys = (int) (root->data.mapping.pairs.top - root->data.mapping.pairs.start), inorder = 1;
  for (int k = 0; k < nkeys && k < 14; k++) {
    yaml_node_t *key = yaml_document_get_node (&d, root->data.mapping.pairs.start[k].key);
    if (strcmp (str (key), order[k]) != 0) inorder = 0;
  }
  CHECK ("model report: 14 top-level keys in order", nkeys == 14 && inorder);
  CHECK ("format_minor 1", num_is (at (&d, "format_minor"), 1));
  CHECK ("format_version stays 1", num_is (at (&d, "format_version"), 1));

  /* the model block: the toy's nodes in DOF order with positions, user names, parts */
  CHECK ("model.node_count", num_is (at (&d, "model.node_count"), 5));
  yaml_node_t *labels = at (&d, "model.dof_labels");
  CHECK ("dof labels dx .. rz", seq_len (labels) == 6 && !strcmp (str (item (&d, labels, 0)), "dx")
                                && !strcmp (str (item (&d, labels, 5)), "rz"));
  yaml_node_t *nodes = at (&d, "model.nodes");
  int nodes_ok = seq_len (nodes) == 5;
  for (int i = 0; nodes_ok && i < 5; i++) {
    yaml_node_t *nd = item (&d, nodes, i), *pos = get (&d, nd, "position");
    nodes_ok = !strcmp (str (get (&d, nd, "name")), m.nodes[i].name) && seq_len (pos) == 3;
    for (int k = 0; nodes_ok && k < 3; k++) nodes_ok = num_is (item (&d, pos, k), m.nodes[i].x[k]);
  }
  CHECK ("model.nodes: names and positions in DOF order", nodes_ok);
  yaml_node_t *al = get (&d, item (&d, nodes, 2), "aliases");
  CHECK ("user name 'root' listed for arm.0",
         seq_len (al) == 1 && !strcmp (str (item (&d, al, 0)), "root"));
  CHECK ("no aliases for a body node, nor for arm.2 (arm.end is generated)",
         !get (&d, item (&d, nodes, 0), "aliases") && !get (&d, item (&d, nodes, 4), "aliases"));
  yaml_node_t *parts = at (&d, "model.parts");
  static const char *const pn[] = { "tip", "hub", "arm", "s1", "mount" };
  static const char *const pk[] = { "body", "body", "beam", "spring", "bushing" };
  int parts_ok = seq_len (parts) == 5;
  for (int i = 0; parts_ok && i < 5; i++)
    parts_ok = !strcmp (str (get (&d, item (&d, parts, i), "name")), pn[i])
               && !strcmp (str (get (&d, item (&d, parts, i), "kind")), pk[i]);
  CHECK ("model.parts: bodies, beam, spring, bushing (no point force)", parts_ok);
  yaml_node_t *arm = item (&d, parts, 2), *mount = item (&d, parts, 4);
  CHECK ("beam part: elements and end nodes",
         num_is (get (&d, arm, "elements"), 2)
           && !strcmp (str (item (&d, get (&d, arm, "nodes"), 1)), "arm.2"));
  CHECK ("bushing part: nodes [ground, hub]",
         !strcmp (str (item (&d, get (&d, mount, "nodes"), 0)), "ground")
           && !strcmp (str (item (&d, get (&d, mount, "nodes"), 1)), "hub"));
  CHECK ("body part: its node", !strcmp (str (get (&d, item (&d, parts, 1), "node")), "hub"));

  /* per mode: node-wise vectors (bit for bit), no flat vector, multipliers kept */
  yaml_node_t *modes = at (&d, "modes");
  int exact = seq_len (modes) == 3, flat = 0, mult = 1;
  for (int i = 0; exact && i < 3; i++) {
    yaml_node_t *md = item (&d, modes, i), *nv = get (&d, md, "nodes");
    if (get (&d, md, "vector")) flat = 1;
    if (seq_len (get (&d, md, "multipliers")) != 6) mult = 0;
    exact = seq_len (nv) == 5;
    for (int j = 0; exact && j < 5; j++) {
      yaml_node_t *it = item (&d, nv, j), *v = get (&d, it, "value");
      exact = !strcmp (str (get (&d, it, "node")), m.nodes[j].name) && seq_len (v) == 6;
      for (int q = 0; exact && q < 6; q++)
        exact = num_is (item (&d, v, q), creal (r.modes[i].x[6 * j + q]));
    }
  }
  CHECK ("modes[].nodes: name and [dx..rz] of every node, bit for bit", exact);
  CHECK ("no flat vector in a model report", !flat);
  CHECK ("multipliers still written (m = 6)", mult);

  /* energy shares, closed forms with the quadratic forms x^T M_p x, x^T K_p x:
     mode 1: kinetic tip m_tip 1^2 = 2, hub m_hub 0.01^2 = 3e-4 (share 1.5e-4 >= 1e-4:
     listed); strain spring k (1 - 0.01)^2, bushing 1 * 0.01^2 (hub moves 0.01 along x
     relative to ground, K6 = I; share 1e-7: not listed). */
  yaml_node_t *e1 = get (&d, item (&d, modes, 0), "energy");
  yaml_node_t *k1 = get (&d, e1, "kinetic"), *s1 = get (&d, e1, "strain");
  double kin_tip = TOY_M_TIP / (TOY_M_TIP + TOY_M_HUB * 1e-4);
  double kin_hub = TOY_M_HUB * 1e-4 / (TOY_M_TIP + TOY_M_HUB * 1e-4);
  double str_s1 = TOY_K * 0.99 * 0.99 / (TOY_K * 0.99 * 0.99 + 1e-4);
  CHECK ("mode 1 kinetic: tip, then hub (1.5e-4)",
         seq_len (k1) == 2 && share_is (&d, item (&d, k1, 0), "tip", "body", kin_tip)
           && share_is (&d, item (&d, k1, 1), "hub", "body", kin_hub));
  CHECK ("mode 1 strain: s1 only listed",
         seq_len (s1) == 1 && share_is (&d, item (&d, s1, 0), "s1", "spring", str_s1));
  /* mode 2: kinetic tip m_tip = 2, beam integral of rho A u^2 over a linear u from 0 to 1
     = rho A L / 3 = 2/3 (the consistent axial mass is exact for a linear field): shares
     0.75, 0.25; strain: beam EA/L (1 - 0)^2 = 3000, spring k 1^2 = 1000: 0.75, 0.25 */
  yaml_node_t *e2 = get (&d, item (&d, modes, 1), "energy");
  yaml_node_t *k2 = get (&d, e2, "kinetic"), *s2 = get (&d, e2, "strain");
  CHECK ("mode 2 kinetic: tip 0.75, arm 0.25, largest first",
         seq_len (k2) == 2 && share_is (&d, item (&d, k2, 0), "tip", "body", 0.75)
           && share_is (&d, item (&d, k2, 1), "arm", "beam", 0.25));
  CHECK ("mode 2 strain: arm 0.75, s1 0.25",
         seq_len (s2) == 2 && share_is (&d, item (&d, s2, 0), "arm", "beam", 0.75)
           && share_is (&d, item (&d, s2, 1), "s1", "spring", 0.25));
  CHECK ("mode 2 strain items: material = share, geometric 0 (no prestress at the deck)",
         num_is (get (&d, item (&d, s2, 0), "material"), 0.75)
           && num_is (get (&d, item (&d, s2, 0), "geometric"), 0)
           && num_is (get (&d, item (&d, s2, 1), "material"), 0.25)
           && num_is (get (&d, item (&d, s2, 1), "geometric"), 0)
           && !get (&d, item (&d, k2, 0), "material"));
  yaml_node_t *e3 = get (&d, item (&d, modes, 2), "energy");
  CHECK ("rigid-body mode 3: kinetic shares, strain: []",
         seq_len (get (&d, e3, "kinetic")) > 0 && seq_len (get (&d, e3, "strain")) == 0);
  yaml_document_delete (&d);

  /* the log lines: the same shares in percent */
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream (&buf, &len);
  CHECK ("energy lines printed", report_print_energy (f, &m, &r, &err) == 0);
  fclose (f);
  CHECK ("energy line of mode 2",
         buf && strstr (buf, "     2  kinetic: tip 75.0%, arm 25.0%; strain: arm 75.0%, s1 25.0%\n"));
  CHECK ("energy line of mode 1", buf && strstr (buf, "     1  kinetic: tip 100.0%, hub <0.1%; strain: s1 100.0%\n"));
  CHECK ("energy line of the rigid mode 3: no strain", buf && strstr (buf, "     3  kinetic: ")
                                                         && strstr (buf, "; strain: -\n"));
  free (buf);

  /* compare reads the node-wise vectors: a model report against the matrix-deck report
     of the same result pairs every mode with MAC 1 */
  const char *flatpath = tmp_path ("toy-flat.modal.yaml");
  CHECK ("matrix-deck report of the same result",
         report_write_yaml (flatpath, &r, NULL, NULL, 1, NULL, &err) == 0);
  buf = NULL;
  f = open_memstream (&buf, &len);
  compare_opts o;
  compare_opts_init (&o);
  o.mac_min = 0.999999;
  rc = compare_reports (flatpath, path, &o, f, &err);
  fclose (f);
  CHECK ("compare: matrix report vs model report passes", rc == 0);
  CHECK ("compare: shapes were compared (MAC shown)", buf && strstr (buf, "1.000000  ok"));
  free (buf);
  CHECK ("compare: model report vs itself passes", compare_reports (path, path, &o, NULL, &err) == 0);
  /* a model report with a profile: format_minor 2, the profile between timings_s and model */
  add_profile (&r);
  const char *profiled = tmp_path ("toy-profile.modal.yaml");
  CHECK ("model report with a profile written",
         report_write_yaml (profiled, &r, NULL, NULL, 1, &m, &err) == 0);
  if (load_doc (profiled, &d)) {
    yaml_node_t *pr = yaml_document_get_root_node (&d);
    int np = (int) (pr->data.mapping.pairs.top - pr->data.mapping.pairs.start), where = -1;
    for (int k = 0; k + 1 < np; k++) {
      yaml_node_t *key = yaml_document_get_node (&d, pr->data.mapping.pairs.start[k].key);
      yaml_node_t *next = yaml_document_get_node (&d, pr->data.mapping.pairs.start[k + 1].key);
      if (!strcmp (str (key), "profile") && !strcmp (str (next), "model")) where = k;
    }
    CHECK ("model report: format_minor 2, profile just before model",
           num_is (at (&d, "format_minor"), 2) && where > 0
             && seq_len (at (&d, "profile.peak_memory_bytes.ranks")) == 2);
    yaml_document_delete (&d);
  }
  else CHECK ("model report with a profile: valid YAML", 0);
  CHECK ("compare: matrix report vs model report with a profile passes",
         compare_reports (flatpath, profiled, &o, NULL, &err) == 0);
  /* a changed shape in the model report is a MAC failure */
  r.modes[1].x[18] = -0.5;
  const char *changed = tmp_path ("toy-changed.modal.yaml");
  CHECK ("changed model report written",
         report_write_yaml (changed, &r, NULL, NULL, 1, &m, &err) == 0);
  mb_err_init (&err);
  CHECK ("compare: a changed node vector is a regression",
         compare_reports (flatpath, changed, &o, NULL, &err) == MB_EREGRESS);

  /* without vectors: energy kept, nodes left out */
  const char *novec = tmp_path ("toy-novec.modal.yaml");
  CHECK ("model report without vectors written",
         report_write_yaml (novec, &r, NULL, NULL, 0, &m, &err) == 0);
  if (load_doc (novec, &d)) {
    yaml_node_t *md = item (&d, at (&d, "modes"), 1);
    CHECK ("no vectors: no nodes, no multipliers, energy present",
           md && !get (&d, md, "nodes") && !get (&d, md, "multipliers") && get (&d, md, "energy"));
    yaml_document_delete (&d);
  }
  else CHECK ("report without vectors: valid YAML", 0);

  /* a model that does not match the result */
  mb_err_init (&err);
  r.n = 24;
  CHECK ("model of 5 nodes, result of 24 DOFs: MB_EIO",
         report_write_yaml (tmp_path ("bad.yaml"), &r, NULL, NULL, 1, &m, &err) == MB_EIO
           && strstr (err.msg, "5 nodes"));
  r.n = 30;
  free_result (&r);

  /* complex stage: re and im per node, shares unchanged by the phase */
  make_toy_result (&r, 1);
  path = tmp_path ("toy.complex.yaml");
  mb_err_init (&err);
  CHECK ("complex model report written", report_write_yaml (path, &r, NULL, NULL, 1, &m, &err) == 0);
  if (load_doc (path, &d)) {
    modes = at (&d, "modes");
    exact = seq_len (modes) == 3;
    for (int i = 0; exact && i < 3; i++) {
      yaml_node_t *nv = get (&d, item (&d, modes, i), "nodes");
      exact = seq_len (nv) == 5 && !get (&d, item (&d, modes, i), "vector_re");
      for (int j = 0; exact && j < 5; j++) {
        yaml_node_t *it = item (&d, nv, j), *re = get (&d, it, "re"), *im = get (&d, it, "im");
        exact = seq_len (re) == 6 && seq_len (im) == 6 && !get (&d, it, "value");
        for (int q = 0; exact && q < 6; q++)
          exact = num_is (item (&d, re, q), creal (r.modes[i].x[6 * j + q]))
                  && num_is (item (&d, im, q), cimag (r.modes[i].x[6 * j + q]));
      }
    }
    CHECK ("complex: nodes with re and im, bit for bit; no flat vectors", exact);
    yaml_node_t *e = get (&d, item (&d, modes, 1), "energy");
    CHECK ("complex mode 2: the same shares as the real shape",
           share_is (&d, item (&d, get (&d, e, "kinetic"), 0), "tip", "body", 0.75)
             && share_is (&d, item (&d, get (&d, e, "strain"), 1), "s1", "spring", 0.25));
    yaml_document_delete (&d);
  }
  else CHECK ("complex model report: valid YAML", 0);
  const char *cflat = tmp_path ("toy-flat.complex.yaml");
  CHECK ("complex matrix-deck report", report_write_yaml (cflat, &r, NULL, NULL, 1, NULL, &err) == 0);
  CHECK ("compare: complex matrix report vs complex model report passes",
         compare_reports (cflat, path, &o, NULL, &err) == 0);
  free_result (&r);

  /* malformed node-wise vectors are errors with their position */
  const char *bad = tmp_path ("badnodes.yaml");
  FILE *bf = fopen (bad, "w");
  if (bf) {
    fputs ("format: mbmodal-report\nstage: complex\nmodes:\n  - frequency_hz: 1\n"
           "    nodes:\n      - {node: a, re: [1, 2]}\n", bf);
    fclose (bf);
  }
  mb_err_init (&err);
  CHECK ("compare: a node with re but no im is MB_EDECK at its line",
         compare_reports (bad, bad, NULL, NULL, &err) == MB_EDECK && strstr (err.where, ":6:")
           && strstr (err.msg, "'re' and 'im'"));
  bf = fopen (bad, "w");
  if (bf) {
    fputs ("format: mbmodal-report\nstage: complex\nmodes:\n  - frequency_hz: 1\n"
           "    nodes:\n      - {node: a, re: [1, 2], im: [3]}\n", bf);
    fclose (bf);
  }
  mb_err_init (&err);
  CHECK ("compare: re and im of different lengths is MB_EDECK",
         compare_reports (bad, bad, NULL, NULL, &err) == MB_EDECK && strstr (err.msg, "im has 1"));
  model_clear (&m);
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
  test_profile ();
  test_model_report ();
  for (int i = 0; i < nwritten; i++) unlink (written[i]);
  rmdir (tmpdir);
  return CHECK_DONE ();
}
