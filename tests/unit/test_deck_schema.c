/* test_deck_schema.c: extreme numbers in every numeric key (issue 9), table-driven from the
   parser's own field tables.

   deck_test_trace (deck_yaml.h) lists every row of every field table deck_walk meets and
   every number deck_get_int / deck_get_real read, with its range and its place in the
   text. Four base decks (two matrix decks, a model deck with every object type and a small
   model deck with a sweep's values) must
   together give every key of every table (a key added to a table and missing here fails
   the coverage check, naming it). Then each number of each base deck is replaced in turn
   by each extreme literal (0, -1, -0, 1e-300, 1e300, inf, .nan, huge counts, a 90-digit
   literal, ...), and the deck parsed again:
   - a literal outside the number's own range (not a number of the key's kind, not finite,
     beyond lo/hi) must be rejected as MB_EDECK at that scalar's line:col, the message
     naming the key;
   - a literal inside it must be accepted, or rejected by a rule across keys (subspace >=
     modes + 2, a shift that overflows, zero vectors, semi-definiteness, ...) as MB_EDECK
     with a deck position; never another status, never a crash (the sanitizer build runs
     this too).
   Whether a literal is in range is decided here with the C library's strtod / strtoll and
   the traced bounds, not with the parser's code. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "deck/deck.h"
#include "deck/deck_yaml.h"

/* ---- the base decks: every key of every table in at least one ---- */

static const char matrix_a[] =
  "title: schema test\n"
  "matrices: {K: a.mtx, M: b.mtx, R: c.mtx, Cq: d.mtx}\n"
  "modal: {enabled: true, modes: 5, target_frequency: 2, tolerance: 1e-8, max_restarts: 50,"
  " subspace: 20}\n"
  "complex: {enabled: true, modes: 3, shift: [0.5, 3], tolerance: 1e-8, max_restarts: 50,"
  " subspace: 0}\n"
  "output: {directory: out, name: run, eigenvectors: false, export_matrices: mats,"
  " vtk: false, csv: true, plots: false}\n"
  "frf: {inputs: [{name: f, dof: 2}], outputs: [{name: x, dof: 1, quantity: velocity}],"
  " frequencies: {min: 0.5, max: 20, count: 30, spacing: linear}, damping: [0.01, 0.02],"
  " static_correction: false, state_space: ss, state_space_model: modal}\n";

static const char matrix_b[] =
  "matrices: {K: a.mtx, M: b.mtx, R: c.mtx}\n"
  "modal: {shift: -1.5}\n"
  "complex: {target_frequency: 7}\n"
  "solver: {block: 4, ordering: amd, workspace: 50, low_rank: 1e-10, early_exit: false,"
  " lagged_orthogonalization: false}\n";

static const char model[] =
  "units: SI\n"
  "gravity: [0, 0, -9.81]\n"
  "materials:\n"
  "  steel: {E: 210e9, nu: 0.3, rho: 7850}\n"
  "  soft: {E: 100e6, G: 40e6, rho: 1000, alpha: 1e-3, beta: 1e-5}\n"
  "sections:\n"
  "  plate: {shape: rectangle, y: 0.3, z: 0.05}\n"
  "  rod: {shape: circle, diameter: 0.02, shear_factor: 0.9}\n"
  "  pipe: {shape: tube, outer_diameter: 0.1, wall: 0.005}\n"
  "  custom: {A: 1e-3, Iy: 2e-7, Iz: 3e-7, J: 4e-7, Asy: 8e-4, Asz: 7e-4}\n"
  "bodies:\n"
  "  tip: {mass: 4000, inertia: [10, 20, 30], position: [0, 0, 2],"
  " orientation: {axis: [0, 0, 2], degrees: 30}}\n"
  "  hub: {mass: 2, inertia: [[2, -0.5, 0], [-0.5, 3, 0], [0, 0, 4]], position: [1, 2, 3],"
  " orientation: {axis: [1, 2, 2], angle: 0.7}}\n"
  "  f2: {mass: 1, position: [0, 0, 0], orientation: {x: [1, 1, 0], y: [0, 1, 0]}}\n"
  "  f3: {mass: 1, position: [0, 0, 0], orientation: {z: [1, 0, 0], y: [0, 0, 1]}}\n"
  "  f4: {mass: 1, position: [0, 0, 0], orientation: {quaternion: [1, 0, 0, 1]}}\n"
  "  point: {mass: 0, position: [5, 0, 0]}\n"
  "  rotor: {mass: 1, position: [0, 0, 0], spin: {axis: [0, 0, 1], speed: 10}}\n"
  "  wheel: {mass: 1, position: [0, 0, 0], spin: {axis: [0, 1, 0], rpm: 60}}\n"
  "beams:\n"
  "  arm: {material: steel, section: plate, from: [0, 0, 0], to: [0, 0, 2], elements: 10,"
  " y_axis: [0, 2, 0], nodes: {root: start, top: end, mid: 5}}\n"
  "  bent: {material: soft, section: rod, points: [[0, 0, 0], {at: [1, 0, 0], name: knee},"
  " [1, 1, 0]],"
  " elements: [2, 3], theory: timoshenko,"
  " line_load: {value: [0, 0, -10], frame: body}}\n"
  "  shaft: {material: steel, section: rod, from: [0, 3, 0], to: [1, 3, 0], elements: 2,"
  " spin: {axis: [-1, 0, 0], rpm: 600}}\n"
  "joints:\n"
  "  clamp: {type: weld, nodes: [ground, root], at: [0, 0, 0],"
  " frame: {axis: [0, 0, 1], degrees: 10}}\n"
  "  hinge: {type: revolute, nodes: [tip, hub], axis: [0, 3, 0], at: [0, 0, 2]}\n"
  "  ball: {type: spherical, nodes: [hub, ground], frame: {quaternion: [2, 0, 0, 0]}}\n"
  "  slide: {type: prismatic, nodes: [point, ground], axis: [0, 0, -1]}\n"
  "  cyl: {type: cylindrical, nodes: [point, hub], axis: [1, 1, 1]}\n"
  "  cross: {type: universal, nodes: [f2, f3], axes: [[2, 0, 0], [1, 1, 0]]}\n"
  "  plane: {type: planar, nodes: [ground, f3], axis: [0, 0, 1]}\n"
  "  rope: {type: distance, nodes: [bent.end, ground], points: [[1, 1, 0], [1, 1, 1]]}\n"
  "  stop: {type: lock, nodes: [arm.3, ground], dofs: [rz, x], at: [0, 0, 1],"
  " frame: {x: [1, 0, 0], y: [0, 1, 1]}}\n"
  "  fix: {type: weld, nodes: [f4, ground], frame: {z: [0, 0, 1], x: [1, 0, 0]}}\n"
  "  held: {type: lock, beam: shaft, dofs: [dy], frame: {axis: [0, 0, 1], degrees: 5}}\n"
  "statics: {method: mkeam, max_imbalance: 1e-4, max_error: 1e-4, stability: 1e-10,"
  " max_num_iter: 80, max_ke_tol: 1e-5, max_dq_tol: 1e-3, p_f: 1e-6, allow_unconverged: true}\n"
  "buckling: {enabled: true, modes: 3, tolerance: 1e-9, max_restarts: 50, subspace: 10}\n"
  "forces:\n"
  "  s1: {type: spring, nodes: [tip, ground], points: [[0, 0, 2], [0, 1, 2]], k: 1e4,"
  " c: 10, free_length: 1.0, preload: 5}\n"
  "  twist: {type: rotational_spring, nodes: [ground, tip], axis: [0, 0, 5], k: 500, c: 2,"
  " preload: -1}\n"
  "  mount: {type: bushing, nodes: [ground, tip], at: [0, 0, 2],"
  " frame: {axis: [0, 0, 1], angle: 0.5}, stiffness: [1e6, 1e6, 1e6, 1e4, 1e4, 0],"
  " damping: [[2, 1, 0, 0, 0, 0], [1, 2, 0, 0, 0, 0], [0, 0, 1, 0, 0, 0],"
  " [0, 0, 0, 1, 0, 0], [0, 0, 0, 0, 1, 0], [0, 0, 0, 0, 0, 1]]}\n"
  "  push: {type: force, node: tip, at: [0, 0, 2.1], value: [0, 100, 0], frame: body}\n"
  "  spin: {type: torque, node: hub, value: [0, 0, 10], frame: global}\n"
  "masses:\n"
  "  lamp: {node: knee, mass: 2.5, offset: [0.1, 0, 0], inertia: [0.01, 0.01, 0.02]}\n"
  "  bulb: {node: mid, mass: 1, inertia: [[2, -0.5, 0], [-0.5, 3, 0], [0, 0, 4]]}\n"
  "planar: zx\n"
  "output: {reference_point: [0, 0, 1]}\n"
  "frf: {inputs: [{node: tip, direction: [0, 0, 2], type: torque}],"
  " outputs: [{node: hub, direction: [1, 0, 0], rotation: true, quantity: acceleration}],"
  " frequencies: {min: 1, max: 10, count: 5}, damping: complex, state_space_model: full}\n"
  "sweep: {parameter: [forces.s1.k, forces.twist.k], range: {from: 1e3, to: 1e5, steps: 3},"
  " orders: [1, 2.5], mac_min: 0.6}\n";

/* a small model deck for the sweep keys the model deck above cannot also hold */
static const char *const model_sweep =
  "units: SI\n"
  "bodies:\n"
  "  b: {mass: 1, position: [0, 0, 0]}\n"
  "sweep: {parameter: bodies.b.mass, values: [1, 2.5, 4]}\n";

static const char *const bases[] = { matrix_a, matrix_b, model, model_sweep };
enum { NBASES = 4 };

/* ---- what the tracer reports ---- */

typedef struct key_row {
  char table[96], key[64];
  int needed;    /* a row that some object takes (not marked unused) */
  int present;   /* given in some base deck */
} key_row;

typedef struct num {
  char key[96];
  int type;                   /* F_INT or F_REAL */
  double lo, hi;
  int lo_open, hi_open;
  size_t start, end, line, col;
} num;

static key_row rows[600];
static int nrows;
static num nums[1200];
static int nnums;

/* "modal", "body", "orientation" (of "body 'tip': orientation"), "(root)": the table */
static void table_of (const char *sec, char *buf, size_t size)
{
  const char *last = NULL, *p = sec;
  if (!sec) {
    snprintf (buf, size, "(root)");
    return;
  }
  while (p && (p = strstr (p, "': "))) last = p += 3;
  if (last) snprintf (buf, size, "%s", last);
  else {
    const char *q = strstr (sec, " '");
    snprintf (buf, size, "%.*s", q ? (int) (q - sec) : (int) strlen (sec), sec);
  }
}

static void tracer (const deck_trace_row *r, void *arg)
{
  (void) arg;
  if (r->number) {
    if (nnums == (int) (sizeof nums / sizeof nums[0])) return;
    num *n = &nums[nnums++];
    snprintf (n->key, sizeof n->key, "%s", r->key);
    n->type = r->type;
    n->lo = r->lo, n->hi = r->hi, n->lo_open = r->lo_open, n->hi_open = r->hi_open;
    n->start = r->start, n->end = r->end, n->line = r->line, n->col = r->col;
    return;
  }
  if (r->type == F_SKIP) return;  /* read before the walk, e.g. a joint's type */
  char t[96];
  table_of (r->sec, t, sizeof t);
  int i = 0;
  while (i < nrows && (strcmp (rows[i].table, t) || strcmp (rows[i].key, r->key))) i++;
  if (i == nrows) {
    if (nrows == (int) (sizeof rows / sizeof rows[0])) return;
    snprintf (rows[nrows].table, sizeof rows[nrows].table, "%s", t);
    snprintf (rows[nrows].key, sizeof rows[nrows].key, "%s", r->key);
    nrows++;
  }
  rows[i].needed |= !r->unused;
  rows[i].present |= r->present;
}

/* ---- the extreme literals, classified with the C library ---- */

static const char *const literals[] = {
  "0", "-0", "-1", "1", "1.5", "1e-300", "4e-324", "1e-400", "1e300", "-1e300", "1e6",
  "inf", ".inf", "-.inf", ".nan", "nan", ".NaN", "1e999",
  "1000000", "1000001", "4000001", "10000001", "2147483647", "2147483648", "-2147483649",
  "99999999999999999999999999999",
  "123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890",
};
enum { NLIT = sizeof literals / sizeof literals[0] };

/* 1 when s is a deck int ([+-]?[0-9]+) within C int; its value into *x */
static int int_literal (const char *s, long long *x)
{
  size_t i = (s[0] == '+' || s[0] == '-');
  if (!s[i] || strspn (s + i, "0123456789") != strlen (s + i)) return 0;
  errno = 0;
  *x = strtoll (s, NULL, 10);
  return errno == 0 && *x >= -2147483648LL && *x <= 2147483647LL;
}

/* 1 when s is a deck real: [0-9+-.eE] only, read whole by strtod, finite; value into *x */
static int real_literal (const char *s, double *x)
{
  char *end;
  if (!*s || strspn (s, "0123456789+-.eE") != strlen (s)) return 0;
  *x = strtod (s, &end);
  return *end == 0 && isfinite (*x);
}

/* 1 when literal s lies in number n's own range */
static int in_own_range (const num *n, const char *s)
{
  double x;
  long long k;
  if (n->type == F_INT) {
    if (!int_literal (s, &k)) return 0;
    x = (double) k;
  } else if (!real_literal (s, &x)) return 0;
  return (n->lo_open ? x > n->lo : x >= n->lo) && (n->hi_open ? x < n->hi : x <= n->hi);
}

/* ---- the test ---- */

/* base with the text of number n replaced by s, into buf */
static void mutate (const char *base, const num *n, const char *s, char *buf, size_t size)
{
  snprintf (buf, size, "%.*s%s%s", (int) n->start, base, s, base + n->end);
}

static void test_schema (void)
{
  static char text[8192];
  int first[NBASES + 1];
  long accepted = 0, own = 0, cross = 0;

  /* the base decks parse, and list their tables and numbers */
  deck_test_trace (tracer, NULL);
  for (int b = 0; b < NBASES; b++) {
    deck d;
    mb_err e;
    mb_err_init (&e);
    first[b] = nnums;
    int rc = deck_parse (bases[b], strlen (bases[b]), "t.yaml", &d, &e);
    CHECK ("base deck parses", rc == 0);
    if (rc) printf ("  base %d: %s: %s\n", b, e.where, e.msg);
    deck_clear (&d);
  }
  first[NBASES] = nnums;
  deck_test_trace (NULL, NULL);
  CHECK ("tracer tables did not overflow", nrows < (int) (sizeof rows / sizeof rows[0])
         && nnums < (int) (sizeof nums / sizeof nums[0]));

  /* coverage: every key that some object takes is in a base deck */
  int missing = 0, numeric = 0;
  for (int i = 0; i < nrows; i++) {
    numeric += rows[i].needed && rows[i].present;
    if (rows[i].needed && !rows[i].present) {
      printf ("  key '%s' of table '%s' is in no base deck: add it to test_deck_schema.c\n",
              rows[i].key, rows[i].table);
      missing++;
    }
  }
  CHECK ("every key of every table is in a base deck", missing == 0);
  CHECK ("the tracer sees the 97 (table, key) rows of the schema today, or more",
         numeric >= 97);
  CHECK ("the base decks hold numbers", nnums > 200);

  /* every number of every base deck, replaced by every literal */
  for (int b = 0; b < NBASES; b++)
    for (int i = first[b]; i < first[b + 1]; i++) {
      const num *n = &nums[i];
      char where[64];
      snprintf (where, sizeof where, "t.yaml:%zu:%zu", n->line, n->col);
      for (int l = 0; l < NLIT; l++) {
        deck d;
        mb_err e;
        char descr[200];
        mb_err_init (&e);
        mutate (bases[b], n, literals[l], text, sizeof text);
        int rc = deck_parse (text, strlen (text), "t.yaml", &d, &e);
        int inside = in_own_range (n, literals[l]);
        snprintf (descr, sizeof descr, "deck %d, '%s' at %s = %s: %s", b, n->key, where,
                  literals[l], inside ? "accepted or a rule across keys"
                                      : "rejected there, naming the key");
        if (inside) {
          int ok = rc == 0 || (rc == MB_EDECK && e.code == MB_EDECK
                               && !strncmp (e.where, "t.yaml:", 7) && e.msg[0]);
          CHECK (descr, ok);
          if (rc == 0) accepted++;
          else cross++;
          if (!ok) printf ("  got %d %s: %s\n", rc, e.where, e.msg);
        } else {
          int ok = rc == MB_EDECK && !strcmp (e.where, where) && strstr (e.msg, n->key);
          CHECK (descr, ok);
          own++;
          if (!ok) printf ("  got %d %s: %s\n", rc, e.where, e.msg);
        }
        deck_clear (&d);
      }
    }
  printf ("schema: %d table keys, %d numbers x %d literals: %ld accepted, %ld refused by"
          " their own range, %ld by a rule across keys\n", nrows, nnums, NLIT, accepted,
          own, cross);
}

int main (void)
{
  test_schema ();
  return CHECK_DONE ();
}
