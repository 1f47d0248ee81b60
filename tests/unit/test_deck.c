/* test_deck.c: deck_parse on valid decks, on every class of bad deck, and under failing
   allocations. Expected values are read off the deck texts by hand: positions are
   1-based line:column of the offending node counted in the C string (a tab or each byte
   counts 1), defaults are the ones the deck schema specifies. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "deck/deck.h"

static int streq (const char *a, const char *b)
{
  return a && b && !strcmp (a, b);
}

static int all_zero (const deck *d)
{
  static const deck z;
  return !memcmp (d, &z, sizeof z);
}

/* ---- valid decks ---- */

/* every key given; the deck lives in a folder so relative paths get the folder */
static const char full_deck[] =
  "# any comments\n"
  "title: \"cantilever, matrices from beamgrid\"   # optional string\n"
  "matrices:\n"
  "  K: K.mtx\n"                       /* line 4, col 3 */
  "  M: /data/M.mtx\n"                 /* line 5: absolute, kept */
  "  R: sub/R.mtx\n"                   /* line 6 */
  "  Cq: Cq.mtx\n"                     /* line 7 */
  "modal:\n"
  "  enabled: yes\n"
  "  modes: 12\n"
  "  target_frequency: 2.5\n"
  "  tolerance: 1.0e-8\n"
  "  max_restarts: 40\n"
  "  subspace: 14\n"                   /* = modes + 2, the smallest nonzero accepted */
  "complex:\n"
  "  enabled: Off\n"
  "  modes: +3\n"
  "  shift:\n"
  "    - -1.5e-3\n"
  "    - 6\n"
  "  tolerance: 0.01\n"                /* upper end of (0, 1e-2], included */
  "  max_restarts: 1\n"
  "  subspace: 0\n"
  "output:\n"
  "  directory: out/run 1\n"
  "  name: cantilever\n"
  "  eigenvectors: false\n";

static void test_full (void)
{
  deck d;
  mb_err e;
  mb_err_init (&e);
  int rc = deck_parse (full_deck, strlen (full_deck), "decks/beam/full.yaml", &d, &e);
  CHECK ("full deck parses", rc == 0 && e.code == 0);
  if (rc) printf ("  got %s: %s\n", e.where, e.msg);
  CHECK ("path copied", streq (d.path, "decks/beam/full.yaml"));
  CHECK ("title", streq (d.title, "cantilever, matrices from beamgrid"));
  CHECK ("K resolved", streq (d.matrices.K, "decks/beam/K.mtx"));
  CHECK ("M absolute kept", streq (d.matrices.M, "/data/M.mtx"));
  CHECK ("R resolved with subfolder", streq (d.matrices.R, "decks/beam/sub/R.mtx"));
  CHECK ("Cq resolved", streq (d.matrices.Cq, "decks/beam/Cq.mtx"));
  CHECK ("K at 4:3", d.matrices.line_K == 4 && d.matrices.col_K == 3);
  CHECK ("M at 5:3", d.matrices.line_M == 5 && d.matrices.col_M == 3);
  CHECK ("R at 6:3", d.matrices.line_R == 6 && d.matrices.col_R == 3);
  CHECK ("Cq at 7:3", d.matrices.line_Cq == 7 && d.matrices.col_Cq == 3);
  CHECK ("modal enabled (yes)", d.modal.enabled == 1);
  CHECK ("modal modes", d.modal.modes == 12);
  CHECK ("modal target", d.modal.has_target == 1 && d.modal.target_hz == 2.5);
  CHECK ("modal no shift", d.modal.has_shift == 0);
  CHECK ("modal tolerance", d.modal.tolerance == 1.0e-8);
  CHECK ("modal restarts", d.modal.max_restarts == 40);
  CHECK ("modal subspace", d.modal.subspace == 14);
  CHECK ("complex disabled (Off) although R given", d.damped.enabled == 0);
  CHECK ("complex modes +3", d.damped.modes == 3);
  CHECK ("complex shift block sequence",
         d.damped.has_shift == 1 && d.damped.shift_re == -1.5e-3 && d.damped.shift_im == 6.0);
  CHECK ("complex no target", d.damped.has_target == 0);
  CHECK ("complex tolerance 1e-2 included", d.damped.tolerance == 0.01);
  CHECK ("complex restarts", d.damped.max_restarts == 1);
  CHECK ("complex subspace auto", d.damped.subspace == 0);
  CHECK ("output directory kept as written", streq (d.output.directory, "out/run 1"));
  CHECK ("output name", streq (d.output.name, "cantilever"));
  CHECK ("output eigenvectors", d.output.eigenvectors == 0);
  deck_clear (&d);
  CHECK ("deck_clear zeroes", all_zero (&d));
  deck_clear (&d);   /* twice is harmless */
  deck_clear (NULL);
}

/* only the required keys: every default shows */
static void test_defaults (void)
{
  static const char text[] = "matrices: {K: k.mtx, M: m.mtx}\n";
  deck d;
  mb_err e;
  mb_err_init (&e);
  int rc = deck_parse (text, strlen (text), "minimal.yaml", &d, &e);
  CHECK ("minimal deck parses", rc == 0);
  CHECK ("no title", d.title == NULL);
  CHECK ("no folder: paths as written", streq (d.matrices.K, "k.mtx")
         && streq (d.matrices.M, "m.mtx"));
  CHECK ("no R, no Cq", d.matrices.R == NULL && d.matrices.Cq == NULL);
  CHECK ("K key at 1:12", d.matrices.line_K == 1 && d.matrices.col_K == 12);
  CHECK ("absent R has no position", d.matrices.line_R == 0 && d.matrices.col_R == 0);
  const deck_stage *s[2] = { &d.modal, &d.damped };
  for (int i = 0; i < 2; i++) {
    CHECK ("default modes 10", s[i]->modes == 10);
    CHECK ("default tolerance 1e-10", s[i]->tolerance == 1e-10);
    CHECK ("default restarts 300", s[i]->max_restarts == 300);
    CHECK ("default subspace 0", s[i]->subspace == 0);
    CHECK ("no target, no shift", !s[i]->has_target && !s[i]->has_shift);
  }
  CHECK ("modal enabled by default", d.modal.enabled == 1);
  CHECK ("complex disabled without R", d.damped.enabled == 0);
  CHECK ("default directory", streq (d.output.directory, "."));
  CHECK ("default name: base name without .yaml", streq (d.output.name, "minimal"));
  CHECK ("default eigenvectors", d.output.eigenvectors == 1);
  deck_clear (&d);
}

/* path resolution and default names for several deck paths */
static void test_paths (void)
{
  static const struct {
    const char *text, *path, *K, *R, *name;
  } t[] = {
    { "matrices: {K: K.mtx, M: M.mtx, R: R.mtx}\n", "a/b/c.yaml",
      "a/b/K.mtx", "a/b/R.mtx", "c" },
    { "matrices: {K: ../K.mtx, M: M.mtx, R: /R.mtx}\n", "/abs/d.yml",
      "/abs/../K.mtx", "/R.mtx", "d" },
    { "matrices: {K: K.mtx, M: M.mtx}\n", "/root.deck", "/K.mtx", NULL, "root.deck" },
    { "matrices: {K: K.mtx, M: M.mtx}\n", "x/.yaml", "x/K.mtx", NULL, ".yaml" },
    { "matrices: {K: K.mtx, M: M.mtx}\n", "x/", "x/K.mtx", NULL, "deck" },
    { "matrices: {K: 'with space.mtx', M: M.mtx}\noutput: {name: run.v2}\n", "q.yaml",
      "with space.mtx", NULL, "run.v2" },
    /* an alias followed: K and M name the same file */
    { "matrices:\n  K: &f both.mtx\n  M: *f\n", "e/f.yaml", "e/both.mtx", NULL, "f" },
  };
  for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
    deck d;
    mb_err e;
    mb_err_init (&e);
    int rc = deck_parse (t[i].text, strlen (t[i].text), t[i].path, &d, &e);
    CHECK ("path case parses", rc == 0);
    CHECK ("K resolved", streq (d.matrices.K, t[i].K));
    CHECK ("R resolved", t[i].R ? streq (d.matrices.R, t[i].R) : d.matrices.R == NULL);
    CHECK ("default or given name", streq (d.output.name, t[i].name));
    CHECK ("complex on iff R", d.damped.enabled == (t[i].R != NULL));
    if (i == 6) CHECK ("alias: M same as K", streq (d.matrices.M, "e/both.mtx"));
    deck_clear (&d);
  }
}

/* other accepted spellings */
static void test_accepted (void)
{
  static const struct {
    const char *text;
    int modal_on, modes, restarts, cplx_on;
    double tol, shift, im;
  } t[] = {
    { "matrices: {K: a, M: b}\nmodal: {enabled: TRUE, modes: 1, tolerance: 1e-3}\n",
      1, 1, 300, 0, 1e-3, 0, 0 },
    { "matrices: {K: a, M: b}\nmodal: {enabled: no, shift: -1, max_restarts: 2147483647}\n",
      0, 10, 2147483647, 0, 1e-10, -1, 0 },
    { "matrices: {K: a, M: b, R: c}\nmodal:\ncomplex: {shift: [0, -3.5], modes: 007}\n",
      1, 10, 300, 1, 1e-10, 0, -3.5 },   /* modal: empty -> defaults; 007 read as 7 */
    { "matrices: {K: a, M: b, R: c}\ncomplex:\n  enabled: on\n  shift: [.5, +2.]\n",
      1, 10, 300, 1, 1e-10, 0.5, 2 },
    { "matrices: {K: a, M: b}\nmodal: {shift: 0, tolerance: 1E-2}\noutput: {}\n",
      1, 10, 300, 0, 1e-2, 0, 0 },
    { "%YAML 1.1\n---\nmatrices: {K: a, M: b}\nmodal: {enabled: Off}\n...\n",
      0, 10, 300, 0, 1e-10, 0, 0 },
  };
  for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
    deck d;
    mb_err e;
    mb_err_init (&e);
    int rc = deck_parse (t[i].text, strlen (t[i].text), "t.yaml", &d, &e);
    CHECK ("accepted deck parses", rc == 0);
    if (rc) printf ("  case %zu: %s: %s\n", i, e.where, e.msg);
    CHECK ("modal enabled", d.modal.enabled == t[i].modal_on);
    CHECK ("complex enabled", d.damped.enabled == t[i].cplx_on);
    if (i == 2 || i == 3) {
      CHECK ("complex shift", d.damped.shift_re == t[i].shift && d.damped.shift_im == t[i].im);
      CHECK ("complex modes", d.damped.modes == (i == 2 ? 7 : 10));
    } else {
      CHECK ("modes", d.modal.modes == t[i].modes);
      CHECK ("restarts", d.modal.max_restarts == t[i].restarts);
      CHECK ("tolerance", d.modal.tolerance == t[i].tol);
      CHECK ("shift", d.modal.shift_re == t[i].shift);
    }
    deck_clear (&d);
  }
}

/* Numbers at the ends of their ranges and long literals, read as the numbers they are.
   Reference values: the C compiler's conversion of the same digits (a double literal in
   this file), independent of deck_get_real; the caps from deck.h's documentation. */
static void test_long_numbers (void)
{
  static const char d90[] =   /* 90 digits */
    "123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890";
  char text[2400], zeros[1101];
  deck d;
  mb_err e;

  snprintf (text, sizeof text, "matrices: {K: a, M: b}\nmodal: {shift: %s}\n", d90);
  mb_err_init (&e);
  CHECK ("90-digit shift accepted", deck_parse (text, strlen (text), "t.yaml", &d, &e) == 0);
  CHECK ("90-digit shift is its number", d.modal.shift_re
         == 123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890.0);
  deck_clear (&d);

  snprintf (text, sizeof text, "matrices: {K: a, M: b}\nmodal: {shift: -%s.%se-80}\n", d90,
            d90);
  mb_err_init (&e);
  CHECK ("181-character shift accepted", deck_parse (text, strlen (text), "t.yaml", &d, &e) == 0);
  CHECK ("181-character shift is its number", d.modal.shift_re
         == -123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890.123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890e-80);
  deck_clear (&d);

  /* 1000 leading zeros then 1.5 (longer than any stack buffer), and 0.000...1 = 1e-300 */
  memset (zeros, '0', 1000);
  zeros[1000] = 0;
  snprintf (text, sizeof text, "matrices: {K: a, M: b}\nmodal: {shift: +%s1.5,"
            " tolerance: 0.%s1}\n", zeros, zeros + 701);
  mb_err_init (&e);
  CHECK ("leading zeros and a long fraction accepted",
         deck_parse (text, strlen (text), "t.yaml", &d, &e) == 0);
  if (e.code) printf ("  got %s: %s\n", e.where, e.msg);
  CHECK ("1000 leading zeros: 1.5", d.modal.shift_re == 1.5);
  CHECK ("0.(299 zeros)1 = 1e-300", d.modal.tolerance == 1e-300);
  deck_clear (&d);

  /* an int with 1000 leading zeros is 7; with a sign and 1000 zeros before 2147483648 it
     still overflows */
  snprintf (text, sizeof text, "matrices: {K: a, M: b}\nmodal: {modes: +%s7}\n", zeros);
  mb_err_init (&e);
  CHECK ("1000 leading zeros: modes 7", deck_parse (text, strlen (text), "t.yaml", &d, &e) == 0
         && d.modal.modes == 7);
  deck_clear (&d);
  snprintf (text, sizeof text, "matrices: {K: a, M: b}\nmodal: {modes: -%s2147483649}\n",
            zeros);
  mb_err_init (&e);
  CHECK ("1000 leading zeros do not hide an int overflow",
         deck_parse (text, strlen (text), "t.yaml", &d, &e) == MB_EDECK
         && strstr (e.msg, "integer overflow") && !strcmp (e.where, "t.yaml:2:16"));
  deck_clear (&d);

  /* the largest values the caps and the shift check let through */
  static const char edge[] =
    "matrices: {K: a, M: b, R: c}\n"
    "modal: {modes: 1000000, subspace: 4000000, target_frequency: 2.13e153}\n"
    "complex: {modes: 1000000, target_frequency: 2.86e307}\n";
  mb_err_init (&e);
  CHECK ("caps and largest targets accepted", deck_parse (edge, strlen (edge), "t.yaml", &d,
                                                         &e) == 0);
  if (e.code) printf ("  got %s: %s\n", e.where, e.msg);
  CHECK ("modes cap", d.modal.modes == DECK_MAX_MODES && d.damped.modes == 1000000);
  CHECK ("subspace cap", d.modal.subspace == DECK_MAX_SUBSPACE && DECK_MAX_SUBSPACE == 4000000);
  CHECK ("largest targets", d.modal.target_hz == 2.13e153 && d.damped.target_hz == 2.86e307);
  deck_clear (&d);

  static const char far[] = "matrices: {K: a, M: b, R: c}\ncomplex: {shift: [-1e308, 1e308]}\n";
  mb_err_init (&e);
  CHECK ("complex shift with a finite modulus 1.41e308 accepted",
         deck_parse (far, strlen (far), "t.yaml", &d, &e) == 0 && d.damped.shift_im == 1e308);
  deck_clear (&d);
}

/* ---- bad decks: exact position and a piece of the message ---- */

typedef struct bad {
  const char *text;
  size_t len;          /* 0: strlen (text) */
  const char *where;   /* "t.yaml:line:col" */
  const char *msg;     /* substring of the message */
} bad;

static const bad bads[] = {
  /* empty */
  { "", 0, "t.yaml:1:1", "empty deck" },
  { "# only a comment\n\n", 0, "t.yaml:1:1", "empty deck" },
  { "---\n", 0, "t.yaml:1:1", "empty deck" },
  { "---\n...\n", 0, "t.yaml:1:1", "empty deck" },
  { "~\n", 0, "t.yaml:1:1", "empty deck" },
  /* top level not a mapping: at the root node */
  { "- K\n- M\n", 0, "t.yaml:1:1", "must be a mapping" },
  { "\nmatrices K.mtx\n", 0, "t.yaml:2:1", "must be a mapping" },
  /* YAML syntax: libyaml's problem at its problem_mark */
  { "matrices: {K: a, M: b\n", 0, "t.yaml:2:1", "did not find expected ',' or '}'" },
  { "matrices:\n  K: a\n  M: b\n  - x\n", 0, "t.yaml:4:3", "did not find expected key" },
  { "matrices:\n\tK: a\n", 0, "t.yaml:2:1", "cannot start any token" },
  { "title: \"abc\n", 0, "t.yaml:2:1", "unexpected end of stream" },
  { "title: \xff\n", 0, "t.yaml:1:8", "invalid leading UTF-8 octet" },
  { "title: a\0b\n", 11, "t.yaml:1:9", "control characters are not allowed" },
  { "matrices: *m\n", 0, "t.yaml:1:11", "found undefined alias" },
  /* more than one document: at the second document's start */
  { "matrices: {K: a, M: b}\n---\nmatrices: {K: a, M: b}\n", 0, "t.yaml:2:1",
    "more than one YAML document" },
  { "matrices: {K: a, M: b}\n--- x\n", 0, "t.yaml:2:1", "more than one YAML document" },
  /* nesting: the 33rd level is the 32nd '[' after the root mapping, column 8 + 31 */
  { "title: [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]\n",
    0, "t.yaml:1:39", "nested more than 32 levels" },
  /* unknown keys: at the key, listing the accepted ones (the list goes on with later keys) */
  { "matrices: {K: a, M: b}\nstifnes: 1\n", 0, "t.yaml:2:1",
    "unknown key 'stifnes' at the top level (expected title, units, gravity, materials,"
    " sections, bodies, beams, joints, forces, masses, planar, matrices, modal, complex, output, statics" },
  { "matrices:\n  K: a\n  M: b\n  stifnes: c\n", 0, "t.yaml:4:3",
    "unknown key 'stifnes' in 'matrices' (expected K, M, R, Cq)" },
  { "matrices: {k: a, M: b}\n", 0, "t.yaml:1:12", "did you mean 'K'?" },
  { "matrices: {K: a, M: b}\nmodal:\n  tolerence: 1e-8\n", 0, "t.yaml:3:3",
    "unknown key 'tolerence' in 'modal'" },
  { "matrices: {K: a, M: b}\nmodal:\n  tolerence: 1e-8\n", 0, "t.yaml:3:3",
    "did you mean 'tolerance'?" },
  { "output:\n  format: vtk\nmatrices: {K: a, M: b}\n", 0, "t.yaml:2:3",
    "unknown key 'format' in 'output' (expected directory, name, eigenvectors,"
    " export_matrices, vtk, reference_point, csv, plots)" },
  /* output.reference_point: three numbers, and only in a model deck */
  { "matrices: {K: a, M: b}\noutput: {reference_point: [0, 0, 0]}\n", 0, "t.yaml:2:10",
    "output: 'reference_point' needs a model deck" },
  { "units: SI\nbodies: {b: {mass: 1, position: [0, 0, 0]}}\n"
    "output: {reference_point: [1, 2]}\n", 0, "t.yaml:3:27",
    "'reference_point' must have exactly 3 numbers (got 2)" },
  { "units: SI\nbodies: {b: {mass: 1, position: [0, 0, 0]}}\n"
    "output: {reference_point: 1}\n", 0, "t.yaml:3:27",
    "'reference_point' must be a sequence of 3 numbers" },
  { "units: SI\nbodies: {b: {mass: 1, position: [0, 0, 0]}}\n"
    "output: {reference_point: [1, .nan, 2]}\n", 0, "t.yaml:3:31", "must be a finite number" },
  { "matrices: {K: a, M: b}\ncomplex: {sigma: 1}\n", 0, "t.yaml:2:11",
    "unknown key 'sigma' in 'complex'" },
  { "[a]: 1\n", 0, "t.yaml:1:1", "keys must be plain names" },
  /* duplicate keys: at the second one */
  { "matrices: {K: a, M: b}\nmatrices: {K: a, M: b}\n", 0, "t.yaml:2:1",
    "duplicate key 'matrices' (first at line 1)" },
  { "matrices: {K: a, M: b, K: c}\n", 0, "t.yaml:1:24",
    "duplicate key 'K' in 'matrices'" },
  { "matrices: {K: a, M: b}\nmodal:\n  modes: 1\n  modes: 2\n", 0, "t.yaml:4:3",
    "duplicate key 'modes' in 'modal' (first at line 3)" },
  /* missing required keys: at the mapping */
  { "title: x\n", 0, "t.yaml:1:1", "missing required key 'matrices'" },
  { "# c\nmatrices:\n  K: a\n", 0, "t.yaml:3:3", "missing required key 'M' in 'matrices'" },
  { "matrices: {M: b}\n", 0, "t.yaml:1:11", "missing required key 'K' in 'matrices'" },
  /* wrong types */
  { "matrices:\n", 0, "t.yaml:1:1", "'matrices' must be a mapping (got an empty value)" },
  { "matrices: K.mtx\n", 0, "t.yaml:1:11", "'matrices' must be a mapping" },
  { "matrices: {K: a, M: b}\nmodal: [1]\n", 0, "t.yaml:2:8", "'modal' must be a mapping" },
  { "matrices: {K: a, M: b}\nmodal:\n  modes: 10.5\n", 0, "t.yaml:3:10",
    "'modes' must be an integer" },
  { "matrices: {K: a, M: b}\nmodal: {modes: \"10\"}\n", 0, "t.yaml:2:16",
    "'modes' must be an integer" },
  { "matrices: {K: a, M: b}\nmodal: {modes: 1e3}\n", 0, "t.yaml:2:16",
    "'modes' must be an integer" },
  { "matrices: {K: a, M: b}\nmodal: {modes: 0x10}\n", 0, "t.yaml:2:16",
    "'modes' must be an integer" },
  { "matrices: {K: a, M: b}\nmodal: {modes: -}\n", 0, "t.yaml:2:16",
    "'modes' must be an integer" },
  { "matrices: {K: a, M: b}\nmodal:\n  modes:\n", 0, "t.yaml:3:3",
    "'modes' must be an integer (got an empty value)" },
  { "matrices: {K: a, M: b}\nmodal:\n  enabled: maybe\n", 0, "t.yaml:3:12",
    "'enabled' must be true or false" },
  { "matrices: {K: a, M: b}\nmodal:\n  enabled: 1\n", 0, "t.yaml:3:12",
    "must be true or false" },
  { "matrices: {K: a, M: b}\noutput: {eigenvectors: 'true'}\n", 0, "t.yaml:2:24",
    "'eigenvectors' must be true or false" },
  { "matrices: {K: a, M: b}\nmodal: {tolerance: abc}\n", 0, "t.yaml:2:20",
    "'tolerance' must be a number" },
  { "matrices: {K: a, M: b}\nmodal: {tolerance: 0x1p-10}\n", 0, "t.yaml:2:20",
    "must be a number" },
  { "matrices: {K: a, M: b}\nmodal: {shift: 1e-3e}\n", 0, "t.yaml:2:16",
    "must be a number" },
  { "matrices: {K: a, M: b}\nmodal: {shift: [1, 2]}\n", 0, "t.yaml:2:16",
    "'shift' must be a number (got a sequence)" },
  { "matrices: [a, b]\n", 0, "t.yaml:1:11", "must be a mapping (got a sequence)" },
  { "matrices: {K: [a, b], M: b}\n", 0, "t.yaml:1:15", "'K' must be a file name" },
  { "matrices: {K: a, M: {x: 1}}\n", 0, "t.yaml:1:21", "'M' must be a file name" },
  { "matrices: {K: \"\", M: b}\n", 0, "t.yaml:1:15", "'K' must not be empty" },
  { "matrices: {K: \"a\\0b\", M: b}\n", 0, "t.yaml:1:15", "NUL character" },
  { "title: {a: 1}\nmatrices: {K: a, M: b}\n", 0, "t.yaml:1:8", "'title' must be a string" },
  { "matrices: {K: a, M: b}\noutput: {directory: [a]}\n", 0, "t.yaml:2:21",
    "'directory' must be a string" },
  { "matrices: {K: a, M: b}\noutput: {name: a/b}\n", 0, "t.yaml:2:16",
    "must be a plain file name without '/'" },
  { "matrices: {K: a, M: b}\noutput: {name: ''}\n", 0, "t.yaml:2:16",
    "'name' must not be empty" },
  /* NaN, Inf, overflow */
  { "matrices: {K: a, M: b}\nmodal: {tolerance: .nan}\n", 0, "t.yaml:2:20",
    "'tolerance' must be a finite number (got '.nan')" },
  { "matrices: {K: a, M: b}\nmodal: {shift: -.Inf}\n", 0, "t.yaml:2:16",
    "must be a finite number" },
  { "matrices: {K: a, M: b}\nmodal: {shift: inf}\n", 0, "t.yaml:2:16",
    "must be a finite number" },
  { "matrices: {K: a, M: b}\nmodal: {target_frequency: NaN}\n", 0, "t.yaml:2:27",
    "must be a finite number" },
  { "matrices: {K: a, M: b}\nmodal: {shift: 1e999}\n", 0, "t.yaml:2:16",
    "out of range (overflow)" },
  { "matrices: {K: a, M: b}\nmodal: {shift: -Infinity}\n", 0, "t.yaml:2:16",
    "must be a finite number" },
  { "matrices: {K: a, M: b}\nmodal: {shift: info}\n", 0, "t.yaml:2:16",
    "'shift' must be a number (got 'info')" },
  { "matrices: {K: a, M: b}\nmodal:\n  modes: 2147483648\n", 0, "t.yaml:3:10",
    "integer overflow" },
  { "matrices: {K: a, M: b}\nmodal:\n  max_restarts: -2147483649\n", 0, "t.yaml:3:17",
    "integer overflow" },
  { "matrices: {K: a, M: b}\nmodal:\n  modes: 99999999999999999999999999999\n", 0,
    "t.yaml:3:10", "integer overflow" },
  /* out of range, with the range in the message */
  { "matrices: {K: a, M: b}\nmodal:\n  modes: 0\n", 0, "t.yaml:3:10",
    "'modes' must be >= 1 (got 0)" },
  { "matrices: {K: a, M: b}\nmodal:\n  max_restarts: 0\n", 0, "t.yaml:3:17",
    "'max_restarts' must be >= 1" },
  { "matrices: {K: a, M: b}\nmodal:\n  subspace: -1\n", 0, "t.yaml:3:13",
    "'subspace' must be >= 0" },
  { "matrices: {K: a, M: b}\nmodal:\n  subspace: 5\n", 0, "t.yaml:3:13",
    "'subspace' must be 0 (automatic) or >= modes + 2 = 12 (got 5)" },
  { "matrices: {K: a, M: b}\nmodal:\n  subspace: 4\n  modes: 3\n", 0, "t.yaml:3:13",
    ">= modes + 2 = 5 (got 4)" },
  { "matrices: {K: a, M: b}\nmodal:\n  tolerance: 0\n", 0, "t.yaml:3:14",
    "'tolerance' must be in (0, 1e-2] (got 0)" },
  { "matrices: {K: a, M: b}\nmodal:\n  tolerance: 0.0100001\n", 0, "t.yaml:3:14",
    "in (0, 1e-2]" },
  { "matrices: {K: a, M: b}\nmodal:\n  tolerance: -1e-8\n", 0, "t.yaml:3:14",
    "in (0, 1e-2]" },
  { "matrices: {K: a, M: b}\nmodal:\n  target_frequency: -0.5\n", 0, "t.yaml:3:21",
    "'target_frequency' must be >= 0" },
  /* cross-key rules */
  { "matrices: {K: a, M: b}\nmodal:\n  shift: -1\n  target_frequency: 2\n", 0,
    "t.yaml:4:3", "give either shift or target_frequency" },
  { "matrices: {K: a, M: b}\nmodal: {target_frequency: 2, shift: -1}\n", 0,
    "t.yaml:2:30", "give either shift or target_frequency" },
  { "matrices: {K: a, M: b}\ncomplex:\n  modes: 4\n  enabled: yes\n", 0, "t.yaml:4:3",
    "complex stage needs matrices.R" },
  /* complex shift */
  { "matrices: {K: a, M: b, R: c}\ncomplex:\n  shift: 0.1\n", 0, "t.yaml:3:10",
    "'shift' must be a sequence of 2 numbers" },
  { "matrices: {K: a, M: b, R: c}\ncomplex:\n  shift: [1, 2, 3]\n", 0, "t.yaml:3:10",
    "'shift' must have exactly 2 numbers [Re 1/s, Im rad/s] (got 3)" },
  { "matrices: {K: a, M: b, R: c}\ncomplex:\n  shift: []\n", 0, "t.yaml:3:10",
    "(got 0)" },
  { "matrices: {K: a, M: b, R: c}\ncomplex:\n  shift:\n    - 1\n    - x\n", 0,
    "t.yaml:5:7", "'shift[1]' must be a number" },
  { "matrices: {K: a, M: b, R: c}\ncomplex:\n  shift: [.inf, 0]\n", 0, "t.yaml:3:11",
    "'shift[0]' must be a finite number" },
  { "matrices: {K: a, M: b, R: c}\ncomplex:\n  shift: [1, {a: 1}]\n", 0, "t.yaml:3:14",
    "'shift[1]' must be a number (got a mapping)" },
  /* a recursive alias is a type error, not a loop */
  { "matrices: {K: a, M: b, R: c}\ncomplex:\n  shift: &s [1, *s]\n", 0, "t.yaml:3:10",
    "'shift[1]' must be a number (got a sequence)" },
  /* caps on counts (deck.h: DECK_MAX_MODES, DECK_MAX_SUBSPACE), below int overflow */
  { "matrices: {K: a, M: b}\nmodal:\n  modes: 1000001\n", 0, "t.yaml:3:10",
    "'modes' must be at most 1000000, the most modes one stage may ask for (got 1000001)" },
  { "matrices: {K: a, M: b, R: c}\ncomplex: {modes: 2147483647}\n", 0, "t.yaml:2:18",
    "complex: 'modes' must be at most 1000000" },
  { "matrices: {K: a, M: b}\nmodal: {subspace: 4000001}\n", 0, "t.yaml:2:19",
    "'subspace' must be at most 4000000" },
  /* shifts that overflow: (2 pi f)^2 > DBL_MAX for f > sqrt(DBL_MAX) / 2 pi = 2.134e153 */
  { "matrices: {K: a, M: b}\nmodal: {target_frequency: 1e300}\n", 0, "t.yaml:2:27",
    "modal: 'target_frequency' 1e300 Hz gives the shift sigma = (2 pi f)^2 beyond the"
    " largest double (overflow); it must be at most 2.13e+153 Hz" },
  { "matrices: {K: a, M: b}\nmodal: {target_frequency: 2.14e153}\n", 0, "t.yaml:2:27",
    "(overflow)" },
  /* 2 pi f > DBL_MAX for f > DBL_MAX / 2 pi = 2.861e307 */
  { "matrices: {K: a, M: b, R: c}\ncomplex: {target_frequency: 2.87e307}\n", 0,
    "t.yaml:2:29", "complex: 'target_frequency' 2.87e307 Hz gives the shift sigma = i 2 pi f"
    " beyond the largest double" },
  /* |sigma| = 1.7e308 sqrt(2) > DBL_MAX */
  { "matrices: {K: a, M: b, R: c}\ncomplex: {shift: [1.7e308, -1.7e308]}\n", 0,
    "t.yaml:2:18", "complex: 'shift' [1.7e+308, -1.7e+308] has a modulus |sigma| beyond" },
  /* long literals: a 400-digit integer part overflows; letters after many digits */
  { "matrices: {K: a, M: b}\nmodal: {shift: 1"
    "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "000000000000000000000000000000000000}\n", 0, "t.yaml:2:16", "out of range (overflow)" },
  { "matrices: {K: a, M: b}\nmodal: {shift: 1"
    "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000"
    "x}\n", 0, "t.yaml:2:16", "'shift' must be a number (got '1000000000000000000000000000"
    "000000000000...')" },
  { "matrices: {K: a, M: b}\nmodal: {tolerance: 1e-400}\n", 0, "t.yaml:2:20",
    "'tolerance' must be in (0, 1e-2] (got 1e-400)" },
  /* first error in document order wins */
  { "matrices: {K: a, M: b}\nmodal:\n  modes: 0\n  bogus: 1\n", 0, "t.yaml:3:10",
    "'modes' must be >= 1" },
};

static void test_bad (void)
{
  for (size_t i = 0; i < sizeof bads / sizeof bads[0]; i++) {
    const bad *b = &bads[i];
    deck d;
    mb_err e;
    char descr[96];
    mb_err_init (&e);
    int rc = deck_parse (b->text, b->len ? b->len : strlen (b->text), "t.yaml", &d, &e);
    snprintf (descr, sizeof descr, "bad deck %zu is rejected as MB_EDECK", i);
    CHECK (descr, rc == MB_EDECK && e.code == MB_EDECK);
    snprintf (descr, sizeof descr, "bad deck %zu: where is %s", i, b->where);
    CHECK (descr, !strcmp (e.where, b->where));
    snprintf (descr, sizeof descr, "bad deck %zu: message holds the expected text", i);
    CHECK (descr, strstr (e.msg, b->msg) != NULL);
    if (strcmp (e.where, b->where) || !strstr (e.msg, b->msg))
      printf ("  got %s: %s\n  want %s: ...%s...\n", e.where, e.msg, b->where, b->msg);
    snprintf (descr, sizeof descr, "bad deck %zu leaves the deck zeroed", i);
    CHECK (descr, all_zero (&d));
    deck_clear (&d);
  }
}

/* odd calls: NULL text with zero length, a long key cut in the message, an error
   already set (the first one wins) */
static void test_odd (void)
{
  deck d;
  mb_err e;
  mb_err_init (&e);
  CHECK ("NULL text, length 0: empty deck",
         deck_parse (NULL, 0, "n.yaml", &d, &e) == MB_EDECK && !strcmp (e.where, "n.yaml:1:1"));
  mb_err_init (&e);
  CHECK ("NULL path allowed", deck_parse ("matrices: {K: a, M: b}", 22, NULL, &d, &e) == 0
         && streq (d.output.name, "deck") && streq (d.matrices.K, "a"));
  deck_clear (&d);

  char text[400];
  snprintf (text, sizeof text, "matrices: {K: a, M: b}\n%0200d: 1\n", 7);
  mb_err_init (&e);
  CHECK ("long key rejected", deck_parse (text, strlen (text), "t.yaml", &d, &e) == MB_EDECK);
  CHECK ("long key cut with ...", strstr (e.msg, "...'") && strlen (e.msg) < 300
         && !strcmp (e.where, "t.yaml:2:1"));

  /* 39 ASCII bytes then two 2-byte characters: the cut at 40 bytes would split the
     first one, so it falls back to 39 bytes */
  snprintf (text, sizeof text, "matrices: {K: a, M: b}\n%s\xc3\xa9\xc3\xa9: 1\n",
            "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa");
  mb_err_init (&e);
  CHECK ("UTF-8 key rejected", deck_parse (text, strlen (text), "t.yaml", &d, &e) == MB_EDECK);
  CHECK ("UTF-8 key cut before a whole character",
         strstr (e.msg, "'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa...'") != NULL);

  mb_err_init (&e);
  mb_fail (&e, MB_EIO, "earlier failure");
  CHECK ("failure returned", deck_parse ("x", 1, "t.yaml", &d, &e) == MB_EDECK);
  CHECK ("first error kept", e.code == MB_EIO && !strcmp (e.msg, "earlier failure"));

  /* the text need not be NUL-terminated: only len bytes are read */
  static const char unterminated[23] = "matrices: {K: a, M: b}X";
  mb_err_init (&e);
  CHECK ("len bounds the text", deck_parse (unterminated, 22, "t.yaml", &d, &e) == 0
         && streq (d.matrices.M, "b"));
  deck_clear (&d);
}

/* every allocation deck.c makes fails once in turn: MB_ENOMEM, deck zeroed, no leak
   (the leak part is checked by the sanitizer build) */
static void test_nomem (void)
{
  long n, failed = 0;
  for (n = 1; n < 1000; n++) {
    deck d;
    mb_err e;
    mb_err_init (&e);
    deck_test_fail_alloc (n);
    int rc = deck_parse (full_deck, strlen (full_deck), "decks/beam/full.yaml", &d, &e);
    deck_test_fail_alloc (0);
    if (rc == 0) {
      CHECK ("deck after the sweep is complete", streq (d.output.name, "cantilever"));
      deck_clear (&d);
      break;
    }
    failed++;
    CHECK ("failed allocation -> MB_ENOMEM", rc == MB_ENOMEM && e.code == MB_ENOMEM);
    CHECK ("failed allocation leaves the deck zeroed", all_zero (&d));
  }
  /* full_deck allocates path, title, K, M, R, Cq, directory, name: 8 strings */
  CHECK ("sweep failed each of the 8 allocations", failed == 8);

  /* defaults allocate too: directory "." and the name */
  static const char mini[] = "matrices: {K: a, M: b}\n";
  for (n = 1, failed = 0; n < 100; n++) {
    deck d;
    mb_err e;
    mb_err_init (&e);
    deck_test_fail_alloc (n);
    int rc = deck_parse (mini, strlen (mini), "m.yaml", &d, &e);
    deck_test_fail_alloc (0);
    if (rc == 0) {
      deck_clear (&d);
      break;
    }
    failed++;
    CHECK ("failed default allocation -> MB_ENOMEM", rc == MB_ENOMEM && all_zero (&d));
  }
  CHECK ("sweep failed path, K, M, directory, name", failed == 5);

  /* a model deck: one object of each kind */
  static const char model[] =
    "units: SI\n"
    "materials: {m: {E: 1, nu: 0.3, rho: 1}}\n"
    "sections: {s: {A: 1, Iy: 1, Iz: 1, J: 1}}\n"
    "bodies: {b: {mass: 1, position: [0, 0, 0]}}\n"
    "beams: {arm: {material: m, section: s, from: [0, 0, 0], to: [1, 0, 0], elements: 2,"
    " nodes: {n: end}}}\n"
    "joints: {j: {type: weld, nodes: [ground, b]}}\n"
    "forces: {f: {type: spring, nodes: [b, n], k: 1}}\n";
  for (n = 1, failed = 0; n < 200; n++) {
    deck d;
    mb_err e;
    mb_err_init (&e);
    deck_test_fail_alloc (n);
    int rc = deck_parse (model, strlen (model), "m.yaml", &d, &e);
    deck_test_fail_alloc (0);
    if (rc == 0) {
      CHECK ("model deck after the sweep is complete", d.model.present && d.model.nforces == 1
             && streq (d.model.forces[0].node[1].name, "n"));
      deck_clear (&d);
      break;
    }
    failed++;
    CHECK ("failed model allocation -> MB_ENOMEM, deck zeroed",
           rc == MB_ENOMEM && e.code == MB_ENOMEM && all_zero (&d));
  }
  /* path 1; materials array, name 2; sections array, name 2; bodies array, name 2;
     beams array, name, material, section, nodes array, node name, points, elements 8;
     joints array, name, 2 node names 4; forces array, name, 2 node names 4; the name
     check of bodies, beams and nodes 1; directory, name 2: 26 */
  CHECK ("sweep failed each of the 26 model allocations", failed == 26);
}

/* output.reference_point: absent by default; given, its three numbers */
static void test_reference_point (void)
{
  static const char plain[] = "units: SI\nbodies: {b: {mass: 1, position: [0, 0, 0]}}\n";
  static const char given[] = "units: SI\nbodies: {b: {mass: 1, position: [0, 0, 0]}}\n"
                              "output: {reference_point: [1.5, -2, 0.25]}\n";
  deck d;
  mb_err e;
  mb_err_init (&e);
  CHECK ("model deck without reference_point", deck_parse (plain, strlen (plain), "p.yaml",
                                                           &d, &e) == 0);
  CHECK ("reference_point absent by default", d.output.has_reference_point == 0);
  deck_clear (&d);
  CHECK ("model deck with reference_point", deck_parse (given, strlen (given), "p.yaml",
                                                        &d, &e) == 0);
  CHECK ("reference_point read", d.output.has_reference_point == 1
         && d.output.reference_point[0] == 1.5 && d.output.reference_point[1] == -2.0
         && d.output.reference_point[2] == 0.25);
  deck_clear (&d);
}

int main (void)
{
  test_full ();
  test_reference_point ();
  test_defaults ();
  test_paths ();
  test_accepted ();
  test_long_numbers ();
  test_bad ();
  test_odd ();
  test_nomem ();
  return CHECK_DONE ();
}
