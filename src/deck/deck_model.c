/* deck_model.c: the model sections of a deck -> deck_model, with every check that needs
   one object only (deck_model.h says what is checked here and what model_build checks).

   Accepted schema (deck.c's words: real, int, text; vec3 = [real, real, real]; a key that
   belongs to another joint, force or section type is an error naming the type):

     units       := SI (any case; required in a model deck)
     gravity     := vec3 [m/s^2]
     materials   := { NAME: { E: real > 0, nu: real in (-1, 0.5) | G: real > 0 (exactly one),
                              rho: real >= 0, alpha?: real >= 0, beta?: real >= 0 } }
     sections    := { NAME: { shape: rectangle, y: real > 0, z: real > 0 }
                          | { shape: circle, diameter: real > 0 }
                          | { shape: tube, outer_diameter: real > 0, wall: real > 0,
                              wall < outer_diameter / 2 }
                          | { A: real > 0, Iy: real > 0, Iz: real > 0, J: real > 0 } }
                   each section may add Asy: real > 0, Asz: real > 0 (both) or
                   shear_factor: real in (0, 1e6] (deck_beam_theory.c)
     bodies      := { NAME: { mass: real >= 0, inertia?: [I1, I2, I3] | [[3], [3], [3]],
                              position: vec3, orientation?: orientation,
                              spin?: spin } }
     spin        := { axis?: vec3 != 0 (required for a body), speed: real [rad/s] |
                      rpm: real } (deck_spin.c)
     orientation := { axis: vec3 != 0, angle: real [rad] | degrees: real }
                  | { two of x: vec3, y: vec3, z: vec3 (not parallel) }
                  | { quaternion: [w, x, y, z] != 0 }
     beams       := { NAME: { material: text, section: text | [text | [text, text], ...]
                              (one per segment; a pair tapers from the first to the
                              second: deck_beam_taper.c),
                              from: vec3, to: vec3 | points: [vec3, vec3, ...],
                              elements: int | [int, ...] (one per segment; 1 .. 1e7, and
                              at most 1e7 in all), y_axis?: vec3 != 0,
                              nodes?: { NAME: start | end | int 0 .. elements },
                              spin?: spin,
                              theory?: euler_bernoulli | timoshenko,
                              line_load?: { value: vec3 [N/m], frame?: global | body } } }
     joints      := { NAME: { type, nodes: [A, B], ... } }  keys per type:
                    weld, spherical: at?, frame?;  revolute, prismatic, cylindrical,
                    planar: at?, axis;  universal: at?, axes: [vec3, vec3];  distance:
                    points?: [vec3, vec3];  lock: at?, frame?, dofs: [dx|dy|dz|rx|ry|rz, ...]
                    (x, y, z: the old names of dx, dy, dz)
     forces      := { NAME: { type, ... } }  keys per type:
                    spring: nodes, points?, k, c?, free_length?, preload?;
                    rotational_spring: nodes, axis, k, c?, preload?;
                    bushing: nodes, at?, frame?: orientation, stiffness, damping?
                      (6 numbers = diagonal, or 6 rows of 6; symmetric, positive
                      semi-definite);
                    force: node, at?, value: vec3, frame?: global | body;
                    torque: node, value: vec3, frame?: global | body

   Names: the keys of each collection are unique in it; bodies, beams and beam nodes share
   one namespace, may not contain '.' and may not be "ground". Node references (nodes,
   node) are names, "ground" allowed for one end of two.
   Messages count segments and polyline points from 1 ("segment 1 has zero length (points 1
   and 2 coincide)") and bracketed items from 0 ('position[2]', as 'shift[1]' in deck.c). */
#include "deck_yaml.h"
#include "deck_spin.h"
#include "deck_lock.h"
#include "deck_masses.h"
#include "deck_beam_theory.h"

#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef deck_ctx ctx;
typedef deck_field field;

enum { LABEL = 192,                  /* object labels: "beam 'NAME': node 'NAME'" */
       MAX_BEAM_ELEMENTS = 10000000 };
static const double PI = 3.14159265358979323846;
static const double PARALLEL_TOL = 1e-9;  /* |a x b| of unit vectors below it: parallel */
static const double SYM_TOL = 1e-9;       /* relative: symmetry, semi-definiteness, I1+I2>=I3 */

/* ---- small vector and matrix helpers (3-vectors, row-major matrices) ---- */

/* a . b */
static double dot3 (const double *a, const double *b)
{
  return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

/* c = a x b */
static void cross3 (const double *a, const double *b, double *c)
{
  c[0] = a[1] * b[2] - a[2] * b[1];
  c[1] = a[2] * b[0] - a[0] * b[2];
  c[2] = a[0] * b[1] - a[1] * b[0];
}

/* |v|, without overflow for huge components */
static double norm3 (const double *v)
{
  double m = fmax (fabs (v[0]), fmax (fabs (v[1]), fabs (v[2])));
  if (m == 0) return 0;
  double a = v[0] / m, b = v[1] / m, c = v[2] / m;
  return m * sqrt (a * a + b * b + c * c);
}

/* v = v / |v|; returns 0 (v unchanged) when v is the zero vector */
static int unit3 (double *v)
{
  double m = fmax (fabs (v[0]), fmax (fabs (v[1]), fabs (v[2])));
  if (m == 0) return 0;
  double a = v[0] / m, b = v[1] / m, c = v[2] / m, n = sqrt (a * a + b * b + c * c);
  v[0] = a / n, v[1] = b / n, v[2] = c / n;
  return 1;
}

/* R with columns e1, e2, e3 (local axes in global coordinates) */
static void set_columns (double *R, const double *e1, const double *e2, const double *e3)
{
  for (int i = 0; i < 3; i++) R[3 * i] = e1[i], R[3 * i + 1] = e2[i], R[3 * i + 2] = e3[i];
}

/* R = I */
static void identity3 (double *R)
{
  static const double I[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 };
  memcpy (R, I, sizeof I);
}

/* Rodrigues: R = cos(t) I + sin(t) [n]x + (1 - cos(t)) n n^T, n a unit vector */
static void rot_axis_angle (const double *n, double t, double *R)
{
  double c = cos (t), s = sin (t), u = 1 - c, x = n[0], y = n[1], z = n[2];
  R[0] = c + u * x * x;     R[1] = u * x * y - s * z; R[2] = u * x * z + s * y;
  R[3] = u * x * y + s * z; R[4] = c + u * y * y;     R[5] = u * y * z - s * x;
  R[6] = u * x * z - s * y; R[7] = u * y * z + s * x; R[8] = c + u * z * z;
}

/* unit quaternion q = [w, x, y, z] -> R (the rotation by 2 acos(w) about (x, y, z)) */
static void rot_quaternion (const double *q, double *R)
{
  double w = q[0], x = q[1], y = q[2], z = q[3];
  R[0] = 1 - 2 * (y * y + z * z); R[1] = 2 * (x * y - w * z);     R[2] = 2 * (x * z + w * y);
  R[3] = 2 * (x * y + w * z);     R[4] = 1 - 2 * (x * x + z * z); R[5] = 2 * (y * z - w * x);
  R[6] = 2 * (x * z - w * y);     R[7] = 2 * (y * z + w * x);     R[8] = 1 - 2 * (x * x + y * y);
}

/* Joint frame from its axis e3 (unit): g = the global axis least aligned with e3 (first on
   ties), e1 = unit(g - (g . e3) e3), e2 = e3 x e1; R = [e1 e2 e3] */
static void frame_from_axis (const double *e3, double *R)
{
  double g[3] = { 0, 0, 0 }, e1[3], e2[3];
  int k = 0;
  for (int i = 1; i < 3; i++)
    if (fabs (e3[i]) < fabs (e3[k])) k = i;
  g[k] = 1;
  for (int i = 0; i < 3; i++) e1[i] = g[i] - e3[k] * e3[i];
  unit3 (e1);
  cross3 (e3, e1, e2);
  set_columns (R, e1, e2, e3);
}

/* Eigenvalues w (ascending) of the symmetric n x n matrix A (n <= 6, row-major) by cyclic
   Jacobi rotations A <- P^T A P, on A scaled by its largest entry. */
static void sym_eigenvalues (int n, const double *A, double *w)
{
  double a[36], m = 0;
  for (int i = 0; i < n * n; i++) m = fmax (m, fabs (A[i]));
  for (int i = 0; i < n * n; i++) a[i] = m > 0 ? A[i] / m : 0;
  for (int sweep = 0; sweep < 60; sweep++) {
    double off = 0;
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++)
        if (i != j) off += a[i * n + j] * a[i * n + j];
    if (off < 1e-40) break;
    for (int p = 0; p < n - 1; p++)
      for (int q = p + 1; q < n; q++) {
        double apq = a[p * n + q];
        if (apq == 0) continue;
        double th = (a[q * n + q] - a[p * n + p]) / (2 * apq);
        double t = (th >= 0 ? 1 : -1) / (fabs (th) + sqrt (th * th + 1));
        double cs = 1 / sqrt (t * t + 1), sn = t * cs;
        for (int k = 0; k < n; k++) {  /* columns p, q: A P */
          double akp = a[k * n + p], akq = a[k * n + q];
          a[k * n + p] = cs * akp - sn * akq;
          a[k * n + q] = sn * akp + cs * akq;
        }
        for (int k = 0; k < n; k++) {  /* rows p, q: P^T (A P) */
          double apk = a[p * n + k], aqk = a[q * n + k];
          a[p * n + k] = cs * apk - sn * aqk;
          a[q * n + k] = sn * apk + cs * aqk;
        }
      }
  }
  for (int i = 0; i < n; i++) w[i] = a[i * n + i] * m;
  for (int i = 1; i < n; i++)  /* insertion sort, ascending */
    for (int j = i; j > 0 && w[j] < w[j - 1]; j--) {
      double x = w[j];
      w[j] = w[j - 1], w[j - 1] = x;
    }
}

/* F_FN: [x, y, z] into (double *) f->dst */
static int vec3_fn (ctx *c, const char *sec, field *f)
{
  return deck_get_numbers (c, sec, f->k, f->v, f->key, 3, f->dst);
}

/* F_FN: a direction [x, y, z], not zero, stored as a unit vector */
static int axis_fn (ctx *c, const char *sec, field *f)
{
  char p[LABEL];
  MB_TRY (vec3_fn (c, sec, f));
  deck_prefix (p, sizeof p, sec);
  if (!unit3 (f->dst))
    return deck_fail_at (c, f->v, "%s'%s' must not be the zero vector", p, f->key);
  return 0;
}

/* scalar v (value of key node k) must be one of names[0..n-1]: its index into *out;
   otherwise an error listing them, with a "did you mean" */
static int pick (ctx *c, const char *label, const yaml_node_t *k, const yaml_node_t *v,
                 const char *what, const char *const *names, int n, int *out)
{
  char list[200] = "", hint[64] = "", g[96];
  size_t len = 0;
  int best = 3;
  for (int i = 0; i < n; i++) {
    if (v->type == YAML_SCALAR_NODE && deck_same (v, names[i])) return *out = i, 0;
    len += (size_t) snprintf (list + len, sizeof list - len, "%s%s", i ? ", " : "", names[i]);
    if (len >= sizeof list) len = sizeof list - 1;
  }
  if (v->type != YAML_SCALAR_NODE || deck_is_null (v))
    return deck_fail_at (c, deck_is_null (v) ? k : v, "%s: '%s' must be one of %s (got %s)",
                         label, what, list, deck_describe (v, g, sizeof g));
  for (int i = 0; i < n; i++) {
    int dd = deck_same_nocase (v, names[i]) ? 0
             : deck_distance (v->data.scalar.value, v->data.scalar.length, names[i]);
    if (dd < best) best = dd, snprintf (hint, sizeof hint, "; did you mean '%s'?", names[i]);
  }
  return deck_fail_at (c, v, "%s: unknown %s %s (expected %s%s)", label, what,
                       deck_describe (v, g, sizeof g), list, hint);
}

/* *name = copy of the key k, *pos = its position */
static int copy_name (ctx *c, const yaml_node_t *k, char **name, deck_pos *pos)
{
  *name = deck_dup ((const char *) k->data.scalar.value, k->data.scalar.length);
  if (!*name) return deck_no_memory (c);
  *pos = deck_pos_of (k);
  return 0;
}

/* k names an object of collection sec: a non-empty scalar without NUL */
static int name_key (ctx *c, const yaml_node_t *k, const char *sec)
{
  char g[96];
  if (k->type != YAML_SCALAR_NODE)
    return deck_fail_at (c, k, "%s: names must be plain scalars (got %s)", sec,
                         deck_describe (k, g, sizeof g));
  if (deck_is_null (k) || k->data.scalar.length == 0)
    return deck_fail_at (c, k, "%s: a name must not be empty", sec);
  if (memchr (k->data.scalar.value, 0, k->data.scalar.length))
    return deck_fail_at (c, k, "%s: a name must not contain a NUL character", sec);
  return 0;
}

/* names of bodies, beams and beam nodes: not "ground", no '.' */
static int node_name_check (ctx *c, const yaml_node_t *k, const char *label)
{
  if (deck_same (k, "ground"))
    return deck_fail_at (c, k, "%s: the name 'ground' is reserved for the ground", label);
  if (memchr (k->data.scalar.value, '.', k->data.scalar.length))
    return deck_fail_at (c, k, "%s: names of bodies, beams and nodes must not contain '.'"
                         " (BEAM.start, BEAM.end and BEAM.<index> name beam nodes)", label);
  return 0;
}

/* ---- unique names ---- */

enum { NAME_MATERIAL, NAME_SECTION, NAME_BODY, NAME_BEAM, NAME_NODE, NAME_JOINT, NAME_FORCE,
       NAME_MASS };
static const char *const kind_word[] = { "material", "section", "body", "beam", "node",
                                         "joint", "force", "mass" };

typedef struct name_entry {
  const char *name;   /* borrowed from the deck */
  deck_pos pos;
  int kind;           /* NAME_* */
  const char *owner;  /* NAME_NODE: its beam's name */
} name_entry;

/* 1 when position a comes before b in the deck */
static int pos_before (deck_pos a, deck_pos b)
{
  return a.line < b.line || (a.line == b.line && a.col < b.col);
}

/* qsort order: by name, then by position */
static int entry_cmp (const void *x, const void *y)
{
  const name_entry *a = x, *b = y;
  int s = strcmp (a->name, b->name);
  if (s) return s;
  return pos_before (a->pos, b->pos) ? -1 : pos_before (b->pos, a->pos) ? 1 : 0;
}

/* "body 'tip'" or "beam 'arm': node 'tip'" */
static void entry_label (const name_entry *e, char *buf, size_t size)
{
  char a[64], b[64];
  deck_shown_bytes ((const unsigned char *) e->name, strlen (e->name), a, sizeof a);
  if (e->kind == NAME_NODE)
    snprintf (buf, size, "beam '%s': node '%s'",
              deck_shown_bytes ((const unsigned char *) e->owner, strlen (e->owner), b,
                                sizeof b), a);
  else snprintf (buf, size, "%s '%s'", kind_word[e->kind], a);
}

/* Sorts e[0..n) by name and position; the repeat of a name that comes first in the
   document is an error at the repeat, saying where the first definition is. */
static int unique (ctx *c, name_entry *e, size_t n)
{
  const name_entry *dup = NULL, *first = NULL;
  qsort (e, n, sizeof *e, entry_cmp);
  for (size_t i = 1; i < n; i++)
    if (!strcmp (e[i].name, e[i - 1].name) && (i < 2 || strcmp (e[i - 1].name, e[i - 2].name))
        && (!dup || pos_before (e[i].pos, dup->pos)))
      dup = &e[i], first = &e[i - 1];
  if (!dup) return 0;
  char l[LABEL], w[LABEL], b[64];
  entry_label (dup, l, sizeof l);
  if (dup->kind == first->kind && (dup->kind != NAME_NODE || !strcmp (dup->owner, first->owner)))
    return deck_fail_pos (c, dup->pos, "%s is defined twice (first at %zu:%zu)", l,
                          first->pos.line, first->pos.col);
  if (first->kind == NAME_NODE)
    snprintf (w, sizeof w, "a node of beam '%s'",
              deck_shown_bytes ((const unsigned char *) first->owner, strlen (first->owner), b,
                                sizeof b));
  else snprintf (w, sizeof w, "a %s", kind_word[first->kind]);
  return deck_fail_pos (c, dup->pos, "%s: the name is already taken by %s (first at"
                        " %zu:%zu)", l, w, first->pos.line, first->pos.col);
}

/* ---- collections: mapping NAME -> object ---- */

typedef int (*object_fn) (ctx *c, const yaml_node_t *k, const yaml_node_t *map,
                          const char *label, void *obj);

/* Reads each NAME: mapping pair of map into arr[*n] (arr has room for every pair, zeroed;
   *n counts the objects begun, so deck_clear frees partial ones), then checks that the
   names (at offsets name_off, pos_off of each object) are unique. */
static int collection (ctx *c, const yaml_node_t *map, const char *sec, int kind, void *arr,
                       size_t size, int *n, object_fn fn, size_t name_off, size_t pos_off)
{
  char *a = arr;
  for (yaml_node_pair_t *pr = map->data.mapping.pairs.start;
       pr < map->data.mapping.pairs.top; pr++) {
    const yaml_node_t *k = deck_node (c, pr->key), *v = deck_node (c, pr->value);
    char label[LABEL], g[64], h[96];
    if (!k || !v) return deck_fail_at (c, map, "%s: malformed mapping", sec);
    MB_TRY (name_key (c, k, sec));
    snprintf (label, sizeof label, "%s '%s'", kind_word[kind], deck_shown (k, g, sizeof g));
    if (v->type != YAML_MAPPING_NODE)
      return deck_fail_at (c, deck_is_null (v) ? k : v, "%s must be a mapping (got %s)", label,
                           deck_describe (v, h, sizeof h));
    void *obj = a + (size_t) (*n)++ * size;
    MB_TRY (fn (c, k, v, label, obj));
  }
  if (*n < 2) return 0;
  name_entry *e = deck_calloc ((size_t) *n, sizeof *e);
  if (!e) return deck_no_memory (c);
  for (int i = 0; i < *n; i++) {
    e[i].name = *(char **) (a + (size_t) i * size + name_off);
    e[i].pos = *(deck_pos *) (a + (size_t) i * size + pos_off);
    e[i].kind = kind;
  }
  int rc = unique (c, e, (size_t) *n);
  free (e);
  return rc;
}

/* a new zeroed array with one slot of size bytes per pair of map, or NULL */
static void *slots (const yaml_node_t *map, size_t size)
{
  return deck_calloc ((size_t) deck_map_len (map), size);
}

/* ---- units, gravity ---- */

/* units: SI, any case (nothing stored: SI is the only system) */
int deck_model_units (ctx *c, const char *sec, field *f)
{
  char g[96];
  (void) sec;
  if (f->v->type == YAML_SCALAR_NODE && deck_same_nocase (f->v, "SI")) return 0;
  return deck_fail_at (c, deck_is_null (f->v) ? f->k : f->v, "'units' must be SI (m, kg, s,"
                       " N, Pa, rad: the only system accepted) (got %s)",
                       deck_describe (f->v, g, sizeof g));
}

/* gravity: [gx, gy, gz] [m/s^2] into (double *) f->dst */
int deck_model_gravity (ctx *c, const char *sec, field *f)
{
  return vec3_fn (c, sec, f);
}

/* ---- materials ---- */

/* E, nu | G, rho, alpha, beta; G = E / (2 (1 + nu)) when nu is given */
static int material_obj (ctx *c, const yaml_node_t *k, const yaml_node_t *map,
                         const char *label, void *obj)
{
  deck_material *m = obj;
  double nu = 0;
  MB_TRY (copy_name (c, k, &m->name, &m->pos));
  field f[] = {
    { .key = "E", .type = F_REAL, .dst = &m->E, .required = 1, .lo = 0, .lo_open = 1,
      .hi = HUGE_VAL, .range = "> 0" },
    { .key = "nu", .type = F_REAL, .dst = &nu, .lo = -1, .lo_open = 1, .hi = 0.5,
      .hi_open = 1, .range = "in (-1, 0.5)" },
    { .key = "G", .type = F_REAL, .dst = &m->G, .lo = 0, .lo_open = 1, .hi = HUGE_VAL,
      .range = "> 0" },
    { .key = "rho", .type = F_REAL, .dst = &m->rho, .required = 1, .lo = 0, .hi = HUGE_VAL,
      .range = ">= 0" },
    { .key = "alpha", .type = F_REAL, .dst = &m->alpha, .lo = 0, .hi = HUGE_VAL,
      .range = ">= 0" },
    { .key = "beta", .type = F_REAL, .dst = &m->beta, .lo = 0, .hi = HUGE_VAL,
      .range = ">= 0" },
  };
  MB_TRY (deck_walk (c, map, label, f, 6));
  m->pos_E = deck_pos_of (f[0].v);
  m->pos_rho = deck_pos_of (f[3].v);
  if (f[1].k && f[2].k)
    return deck_fail_at (c, deck_later (f[1].k, f[2].k), "%s: give either 'nu' or 'G', not both",
                         label);
  if (!f[1].k && !f[2].k)
    return deck_fail_at (c, map, "%s: missing 'nu' or 'G' (give one of them)", label);
  if (f[1].k) m->G = m->E / (2 * (1 + nu));
  if (m->alpha > 0 || m->beta > 0) c->d->model.has_damping = 1;
  return 0;
}

/* materials: NAME -> material; the array is owned by the deck */
int deck_model_materials (ctx *c, const yaml_node_t *map, const char *sec)
{
  deck_model *m = &c->d->model;
  if (!(m->materials = slots (map, sizeof *m->materials))) return deck_no_memory (c);
  return collection (c, map, sec, NAME_MATERIAL, m->materials, sizeof *m->materials,
                     &m->nmaterials, material_obj, offsetof (deck_material, name),
                     offsetof (deck_material, pos));
}

/* ---- sections ---- */

enum { SHAPE_RECTANGLE, SHAPE_CIRCLE, SHAPE_TUBE };
static const char *const shape_names[] = { "rectangle", "circle", "tube" };

/* A, Iy, Iz, J given, or from a shape:
   rectangle: A = y z, Iy = y z^3/12, Iz = z y^3/12,
              J = a b^3 (1/3 - 0.21 (b/a) (1 - b^4/(12 a^4))), a = max(y,z), b = min(y,z);
   circle:    A = pi d^2/4, Iy = Iz = pi d^4/64, J = 2 Iy;
   tube:      di = do - 2 wall, A = pi (do^2 - di^2)/4, Iy = Iz = pi (do^4 - di^4)/64,
              J = 2 Iy */
static int section_obj (ctx *c, const yaml_node_t *k, const yaml_node_t *map,
                        const char *label, void *obj)
{
  deck_section *s = obj;
  int shape = -1;  /* -1: explicit A, Iy, Iz, J */
  double y = 0, z = 0, d = 0, od = 0, wall = 0;
  char unused[64];
  MB_TRY (copy_name (c, k, &s->name, &s->pos));
  const yaml_node_t *tk = NULL, *tv = deck_map_find (c, map, "shape", &tk);
  if (tv) MB_TRY (pick (c, label, tk, tv, "shape", shape_names, 3, &shape));
  if (shape >= 0) snprintf (unused, sizeof unused, "a %s section", shape_names[shape]);
  else snprintf (unused, sizeof unused, "a section without 'shape'");
#define POSITIVE(k_, d_) { .key = k_, .type = F_REAL, .dst = d_, .lo = 0, .lo_open = 1, \
                           .hi = HUGE_VAL, .range = "> 0" }
  field f[] = {
    { .key = "shape", .type = F_SKIP },
    POSITIVE ("y", &y), POSITIVE ("z", &z), POSITIVE ("diameter", &d),
    POSITIVE ("outer_diameter", &od), POSITIVE ("wall", &wall),
    POSITIVE ("A", &s->A), POSITIVE ("Iy", &s->Iy), POSITIVE ("Iz", &s->Iz),
    POSITIVE ("J", &s->J),
    POSITIVE ("Asy", &s->Asy), POSITIVE ("Asz", &s->Asz),
    { .key = "shear_factor", .type = F_REAL, .dst = &s->shear_factor, .lo = 0, .lo_open = 1,
      .hi = 1e6, .range = "in (0, 1e6]" },
  };
#undef POSITIVE
  static const int owner[10] = { -2, SHAPE_RECTANGLE, SHAPE_RECTANGLE, SHAPE_CIRCLE,
                                 SHAPE_TUBE, SHAPE_TUBE, -1, -1, -1, -1 };
  for (int i = 1; i < 10; i++) {
    if (owner[i] == shape) f[i].required = 1;
    else f[i].unused = unused;
  }
  MB_TRY (deck_walk (c, map, label, f, 13));
  MB_TRY (deck_section_shear (c, map, label, f + 10, shape, s));
  s->shape = shape + 1;
  s->dim[0] = shape == SHAPE_RECTANGLE ? y : shape == SHAPE_CIRCLE ? d : od;
  s->dim[1] = shape == SHAPE_RECTANGLE ? z : wall;
  if (shape == SHAPE_RECTANGLE) {
    double a = fmax (y, z), b = fmin (y, z);
    s->A = y * z;
    s->Iy = y * z * z * z / 12;
    s->Iz = z * y * y * y / 12;
    s->J = a * b * b * b * (1.0 / 3 - 0.21 * (b / a) * (1 - pow (b / a, 4) / 12));
  } else if (shape == SHAPE_CIRCLE) {
    s->A = PI * d * d / 4;
    s->Iy = s->Iz = PI * d * d * d * d / 64;
    s->J = 2 * s->Iy;
  } else if (shape == SHAPE_TUBE) {
    if (!(wall < od / 2))
      return deck_fail_at (c, f[5].v, "%s: 'wall' must be < outer_diameter/2 = %g (got %g)",
                           label, od / 2, wall);
    double di = od - 2 * wall;
    s->A = PI * (od * od - di * di) / 4;
    s->Iy = s->Iz = PI * (od * od * od * od - di * di * di * di) / 64;
    s->J = 2 * s->Iy;
  }
  double p[4] = { s->A, s->Iy, s->Iz, s->J };
  for (int i = 0; i < 4; i++)
    if (!(p[i] > 0) || !isfinite (p[i]))
      return deck_fail_at (c, map, "%s: the section properties are out of range (A = %g,"
                           " Iy = %g, Iz = %g, J = %g)", label, s->A, s->Iy, s->Iz, s->J);
  return 0;
}

/* sections: NAME -> section; the array is owned by the deck */
int deck_model_sections (ctx *c, const yaml_node_t *map, const char *sec)
{
  deck_model *m = &c->d->model;
  if (!(m->sections = slots (map, sizeof *m->sections))) return deck_no_memory (c);
  return collection (c, map, sec, NAME_SECTION, m->sections, sizeof *m->sections,
                     &m->nsections, section_obj, offsetof (deck_section, name),
                     offsetof (deck_section, pos));
}

/* ---- orientation ---- */

/* F_FN: [w, x, y, z] into (double *) f->dst */
static int quaternion_fn (ctx *c, const char *sec, field *f)
{
  return deck_get_numbers (c, sec, f->k, f->v, f->key, 4, f->dst);
}

/* Of the orientation keys walked into o (axis, angle, degrees, x, y, z, quaternion), the
   one form given: 0 axis-angle, 1 two axes, 2 quaternion, into *form; none, or keys of
   two forms (the later form's first key named), is MB_EDECK. */
static int orientation_form (ctx *c, const yaml_node_t *v, const char *lab, const field *o,
                             int *form)
{
  /* which forms are given: 0 axis-angle, 1 two axes, 2 quaternion; first key of each */
  static const int form_of[7] = { 0, 0, 0, 1, 1, 1, 2 };
  const yaml_node_t *first[3] = { NULL, NULL, NULL };
  for (int i = 0; i < 7; i++)
    if (o[i].k && (!first[form_of[i]] || deck_later (first[form_of[i]], o[i].k) == first[form_of[i]]))
      first[form_of[i]] = o[i].k;
  int a = -1, b = -1;  /* the earliest and the second earliest form */
  for (int fm = 0; fm < 3; fm++) {
    if (!first[fm]) continue;
    if (a < 0 || deck_later (first[a], first[fm]) == first[a]) b = a, a = fm;
    else if (b < 0 || deck_later (first[b], first[fm]) == first[b]) b = fm;
  }
  if (a < 0)
    return deck_fail_at (c, v, "%s: give {axis, angle | degrees}, two of {x, y, z}, or"
                         " {quaternion}", lab);
  if (b >= 0) {
    char g[64], h[64];
    return deck_fail_at (c, first[b], "%s: '%s' does not mix with '%s': give one of {axis,"
                         " angle | degrees}, two of {x, y, z}, {quaternion}", lab,
                         deck_shown (first[b], g, sizeof g), deck_shown (first[a], h, sizeof h));
  }
  *form = a;
  return 0;
}

/* {axis, angle [rad] | degrees} -> R by Rodrigues' formula; the axis (not zero) made a
   unit vector, exactly one of angle and degrees. */
static int from_axis_angle (ctx *c, const char *lab, const field *o, double *axis,
                            double angle, double deg, double *R)
{
  if (!o[0].k)
    return deck_fail_at (c, o[1].k ? o[1].k : o[2].k, "%s: '%s' needs 'axis'", lab,
                         o[1].k ? "angle" : "degrees");
  if (o[1].k && o[2].k)
    return deck_fail_at (c, deck_later (o[1].k, o[2].k), "%s: give either 'angle' or 'degrees',"
                         " not both", lab);
  if (!o[1].k && !o[2].k)
    return deck_fail_at (c, o[0].k, "%s: 'axis' needs 'angle' [rad] or 'degrees'", lab);
  if (!unit3 (axis))
    return deck_fail_at (c, o[0].v, "%s: 'axis' must not be the zero vector", lab);
  rot_axis_angle (axis, o[1].k ? angle : deg * (PI / 180), R);
  return 0;
}

/* Two of {x, y, z} (o[3..5], values e) -> R: the first in x, y, z order kept (unit), the
   second made orthogonal to it, s - (s . p) p, and unit (not parallel), the third their
   right-handed complement (x = y z, y = z x, z = x y); columns = the axes. */
static int from_two_axes (ctx *c, const char *lab, const field *o, double e[3][3], double *R)
{
  int ax[3], n = 0;
  for (int i = 0; i < 3; i++)
    if (o[3 + i].k) ax[n++] = i;
  if (n == 1)
    return deck_fail_at (c, o[3 + ax[0]].k, "%s: give two of x, y, z (got only '%s')", lab,
                         o[3 + ax[0]].key);
  if (n == 3) {
    const yaml_node_t *last = deck_later (deck_later (o[3].k, o[4].k), o[5].k);
    return deck_fail_at (c, last, "%s: give two of x, y, z, not three", lab);
  }
  for (int i = 0; i < 2; i++)
    if (!unit3 (e[ax[i]]))
      return deck_fail_at (c, o[3 + ax[i]].v, "%s: '%s' must not be the zero vector", lab,
                           o[3 + ax[i]].key);
  double *p = e[ax[0]], *s = e[ax[1]], d = dot3 (p, s), t[3];
  for (int i = 0; i < 3; i++) s[i] -= d * p[i];   /* s = s - (s . p) p */
  if (norm3 (s) <= PARALLEL_TOL) {
    const field *l = deck_later (o[3 + ax[0]].k, o[3 + ax[1]].k) == o[3 + ax[0]].k
                     ? &o[3 + ax[0]] : &o[3 + ax[1]];
    return deck_fail_at (c, l->v, "%s: '%s' and '%s' are parallel", lab, o[3 + ax[0]].key,
                         o[3 + ax[1]].key);
  }
  unit3 (s);
  int third = 3 - ax[0] - ax[1];
  cross3 (e[(third + 1) % 3], e[(third + 2) % 3], t);  /* x = y z, y = z x, z = x y */
  memcpy (e[third], t, sizeof t);
  set_columns (R, e[0], e[1], e[2]);
  return 0;
}

/* {quaternion: [w, x, y, z]} (o[6], not zero) -> R: scaled by its largest entry, then
   normalized. */
static int from_quaternion (ctx *c, const char *lab, const field *o, double *q, double *R)
{
  double m = fmax (fmax (fabs (q[0]), fabs (q[1])), fmax (fabs (q[2]), fabs (q[3])));
  if (m == 0)
    return deck_fail_at (c, o[6].v, "%s: 'quaternion' must not be zero", lab);
  double n = 0;
  for (int i = 0; i < 4; i++) q[i] /= m, n += q[i] * q[i];
  for (int i = 0; i < 4; i++) q[i] /= sqrt (n);
  rot_quaternion (q, R);
  return 0;
}

/* F_FN: an orientation mapping -> rotation matrix (double *) f->dst, columns = local axes:
   {axis, angle | degrees} (Rodrigues), two of {x, y, z} (the first in x, y, z order kept,
   the second made orthogonal to it, the third their right-handed complement), or
   {quaternion: [w, x, y, z]} (normalized).
   Steps: orientation_form, then from_axis_angle, from_two_axes or from_quaternion. */
static int orientation_fn (ctx *c, const char *sec, field *f)
{
  double *R = f->dst, axis[3], angle = 0, deg = 0, e[3][3], q[4];
  const yaml_node_t *v = f->v;
  char lab[LABEL];
  snprintf (lab, sizeof lab, "%s: %s", sec ? sec : "", f->key);
  if (v->type != YAML_MAPPING_NODE)
    return deck_type_error (c, sec, f, v, "a mapping such as {axis: [0, 0, 1], degrees: 30}",
                            NULL);
  field o[] = {
    { .key = "axis", .type = F_FN, .dst = axis, .parse = vec3_fn },
    { .key = "angle", .type = F_REAL, .dst = &angle, .lo = -HUGE_VAL, .hi = HUGE_VAL,
      .range = "finite" },
    { .key = "degrees", .type = F_REAL, .dst = &deg, .lo = -HUGE_VAL, .hi = HUGE_VAL,
      .range = "finite" },
    { .key = "x", .type = F_FN, .dst = e[0], .parse = vec3_fn },
    { .key = "y", .type = F_FN, .dst = e[1], .parse = vec3_fn },
    { .key = "z", .type = F_FN, .dst = e[2], .parse = vec3_fn },
    { .key = "quaternion", .type = F_FN, .dst = q, .parse = quaternion_fn },
  };
  MB_TRY (deck_walk (c, v, lab, o, 7));
  int a = -1;
  MB_TRY (orientation_form (c, v, lab, o, &a));
  if (a == 0) return from_axis_angle (c, lab, o, axis, angle, deg, R);
  if (a == 1) return from_two_axes (c, lab, o, e, R);
  return from_quaternion (c, lab, o, q, R);
}

/* ---- bodies ---- */

/* F_FN: inertia [I1, I2, I3] (principal, body axes) or a symmetric 3x3 tensor into
   (double *) f->dst; positive semi-definite, principal moments with I1 + I2 >= I3 */
static int inertia_fn (ctx *c, const char *sec, field *f)
{
  double *J = f->dst, w[3], m = 0;
  const yaml_node_t *v = f->v, *e0;
  char p[LABEL], g[96];
  deck_prefix (p, sizeof p, sec);
  if (v->type != YAML_SEQUENCE_NODE)
    return deck_fail_at (c, deck_is_null (v) ? f->k : v, "%s'inertia' must be [I1, I2, I3]"
                         " or a 3x3 symmetric tensor [[Ixx, Ixy, Ixz], ...] (got %s)", p,
                         deck_describe (v, g, sizeof g));
  if (deck_seq_len (v) != 3)
    return deck_fail_at (c, v, "%s'inertia' must have 3 principal moments or 3 rows (got %ld)",
                         p, deck_seq_len (v));
  memset (J, 0, 9 * sizeof *J);
  if ((e0 = deck_seq_item (c, v, 0)) && e0->type == YAML_SEQUENCE_NODE) {
    for (int i = 0; i < 3; i++) {
      char name[32];
      const yaml_node_t *row = deck_seq_item (c, v, i);
      snprintf (name, sizeof name, "inertia[%d]", i);
      if (!row) return deck_fail_at (c, v, "%s'%s' is malformed", p, name);
      MB_TRY (deck_get_numbers (c, sec, NULL, row, name, 3, J + 3 * i));
    }
    for (int i = 0; i < 9; i++) m = fmax (m, fabs (J[i]));
    for (int i = 0; i < 3; i++)
      for (int j = i + 1; j < 3; j++) {
        if (fabs (J[3 * i + j] - J[3 * j + i]) > SYM_TOL * m)
          return deck_fail_at (c, v, "%sinertia is not symmetric (inertia[%d][%d] = %g but"
                               " inertia[%d][%d] = %g)", p, i, j, J[3 * i + j], j, i,
                               J[3 * j + i]);
        J[3 * i + j] = J[3 * j + i] = (J[3 * i + j] + J[3 * j + i]) / 2;
      }
  } else {
    double d[3];
    MB_TRY (deck_get_numbers (c, sec, f->k, v, "inertia", 3, d));
    for (int i = 0; i < 3; i++) J[4 * i] = d[i];
  }
  sym_eigenvalues (3, J, w);
  m = fmax (fabs (w[0]), fabs (w[2]));
  if (w[0] < -SYM_TOL * m)
    return deck_fail_at (c, v, "%sinertia is not positive semi-definite (principal moments"
                         " %g, %g, %g)", p, w[0], w[1], w[2]);
  if (w[0] + w[1] < w[2] - SYM_TOL * m)
    return deck_fail_at (c, v, "%sinertia violates the triangle inequality I1 + I2 >= I3"
                         " (principal moments %g, %g, %g)", p, w[0], w[1], w[2]);
  return 0;
}

/* a body: mass >= 0, inertia (zero by default), position, orientation (identity by
   default); mass 0 needs zero inertia */
static int body_obj (ctx *c, const yaml_node_t *k, const yaml_node_t *map, const char *label,
                     void *obj)
{
  deck_body *b = obj;
  MB_TRY (node_name_check (c, k, label));
  MB_TRY (copy_name (c, k, &b->name, &b->pos));
  identity3 (b->R);
  field f[] = {
    { .key = "mass", .type = F_REAL, .dst = &b->mass, .required = 1, .lo = 0,
      .hi = HUGE_VAL, .range = ">= 0" },
    { .key = "inertia", .type = F_FN, .dst = b->J, .parse = inertia_fn },
    { .key = "position", .type = F_FN, .dst = b->x, .required = 1, .parse = vec3_fn },
    { .key = "orientation", .type = F_FN, .dst = b->R, .parse = orientation_fn },
    { .key = "spin", .type = F_FN, .dst = &b->spin, .parse = deck_spin_fn },
  };
  MB_TRY (deck_walk (c, map, label, f, 5));
  MB_TRY (deck_spin_body_check (c, &f[4], label, b));
  if (b->mass == 0 && f[1].k)
    for (int i = 0; i < 9; i++)
      if (b->J[i] != 0)
        return deck_fail_at (c, f[1].v, "%s: mass is 0 but inertia is not (a massless point"
                             " must have zero inertia)", label);
  return 0;
}

/* bodies: NAME -> body; the array is owned by the deck */
int deck_model_bodies (ctx *c, const yaml_node_t *map, const char *sec)
{
  deck_model *m = &c->d->model;
  if (!(m->bodies = slots (map, sizeof *m->bodies))) return deck_no_memory (c);
  return collection (c, map, sec, NAME_BODY, m->bodies, sizeof *m->bodies, &m->nbodies,
                     body_obj, offsetof (deck_body, name), offsetof (deck_body, pos));
}

/* ---- beams ---- */

/* the elements key before the number of segments is known */
typedef struct beam_elements {
  deck_beam *b;
  int per_segment;   /* scalar form: elements of every segment; 0: list form */
  int nlist;         /* list form: entries in b->elements */
} beam_elements;

/* F_FN: points [[x, y, z], ...] (>= 2) into b->points, b->npoints; dst = deck_beam * */
static int points_fn (ctx *c, const char *sec, field *f)
{
  deck_beam *b = f->dst;
  const yaml_node_t *v = f->v;
  char p[LABEL], g[96];
  deck_prefix (p, sizeof p, sec);
  if (v->type != YAML_SEQUENCE_NODE)
    return deck_fail_at (c, deck_is_null (v) ? f->k : v, "%s'points' must be a sequence of"
                         " points [[x, y, z], ...] (got %s)", p, deck_describe (v, g, sizeof g));
  long n = deck_seq_len (v);
  if (n < 2)
    return deck_fail_at (c, v, "%s'points' must have at least 2 points (got %ld)", p, n);
  if (n > INT_MAX / 3) return deck_fail_at (c, v, "%s'points' has too many points", p);
  if (!(b->points = deck_calloc ((size_t) n * 3, sizeof *b->points))) return deck_no_memory (c);
  b->npoints = (int) n;
  for (long i = 0; i < n; i++) {
    char name[32];
    const yaml_node_t *e = deck_seq_item (c, v, i);
    snprintf (name, sizeof name, "points[%ld]", i);
    if (!e) return deck_fail_at (c, v, "%s'%s' is malformed", p, name);
    if (e->type == YAML_MAPPING_NODE) {       /* {at: [x, y, z], name?: NAME} */
      MB_TRY (deck_points_named_vertex (c, sec, e, name, b, (int) i));
      continue;
    }
    MB_TRY (deck_get_numbers (c, sec, v, e, name, 3, b->points + 3 * i));
  }
  return 0;
}

/* F_FN: elements N or [N1, N2, ...], each in 1 .. MAX_BEAM_ELEMENTS; dst = beam_elements * */
static int elements_fn (ctx *c, const char *sec, field *f)
{
  beam_elements *t = f->dst;
  const yaml_node_t *v = f->v;
  field e = *f;
  e.lo = 1;
  e.hi = MAX_BEAM_ELEMENTS;
  e.range = "an integer in 1 .. 10000000";
  if (v->type != YAML_SEQUENCE_NODE) {
    e.dst = &t->per_segment;
    return deck_get_int (c, sec, &e);
  }
  long n = deck_seq_len (v);
  if (n == 0) {
    char p[LABEL];
    deck_prefix (p, sizeof p, sec);
    return deck_fail_at (c, v, "%s'elements' must not be an empty list", p);
  }
  if (n > INT_MAX) return deck_no_memory (c);
  if (!(t->b->elements = deck_calloc ((size_t) n, sizeof *t->b->elements)))
    return deck_no_memory (c);
  t->nlist = (int) n;
  for (long i = 0; i < n; i++) {
    char name[32];
    snprintf (name, sizeof name, "elements[%ld]", i);
    e.key = name;
    e.k = v;
    e.v = deck_seq_item (c, v, i);
    e.dst = &t->b->elements[i];
    if (!e.v) return deck_fail_at (c, v, "%s: '%s' is malformed", sec, name);
    MB_TRY (deck_get_int (c, sec, &e));
  }
  return 0;
}

/* F_FN: nodes { NAME: start | end | index } into b->named; dst = deck_beam * (the index
   range is checked once the number of elements is known) */
static int beam_nodes_fn (ctx *c, const char *sec, field *f)
{
  deck_beam *b = f->dst;
  const yaml_node_t *v = f->v;
  char lab[LABEL];
  snprintf (lab, sizeof lab, "%s: nodes", sec);
  if (v->type != YAML_MAPPING_NODE)
    return deck_type_error (c, sec, f, v, "a mapping NAME: start | end | index", NULL);
  if (!(b->named = deck_calloc ((size_t) deck_map_len (v), sizeof *b->named)))
    return deck_no_memory (c);
  for (yaml_node_pair_t *pr = v->data.mapping.pairs.start;
       pr < v->data.mapping.pairs.top; pr++) {
    const yaml_node_t *k = deck_node (c, pr->key), *x = deck_node (c, pr->value);
    char label[LABEL], g[64], h[96];
    if (!k || !x) return deck_fail_at (c, v, "%s: malformed mapping", lab);
    MB_TRY (name_key (c, k, lab));
    snprintf (label, sizeof label, "%s: node '%s'", sec, deck_shown (k, g, sizeof g));
    MB_TRY (node_name_check (c, k, label));
    deck_beam_node *nd = &b->named[b->nnamed++];
    MB_TRY (copy_name (c, k, &nd->name, &nd->pos));
    if (deck_is_plain (x) && deck_same (x, "start")) nd->index = 0;
    else if (deck_is_plain (x) && deck_same (x, "end")) nd->index = -1;
    else {
      const unsigned char *s = x->data.scalar.value;
      size_t n = x->type == YAML_SCALAR_NODE ? x->data.scalar.length : 0, i = n && s[0] == '+';
      long long idx = 0;
      int ok = deck_is_plain (x) && i < n;
      for (; ok && i < n; i++) {
        ok = s[i] >= '0' && s[i] <= '9';
        if (idx <= INT_MAX) idx = 10 * idx + (s[i] - '0');
      }
      if (!ok || idx > INT_MAX)
        return deck_fail_at (c, deck_is_null (x) ? k : x, "%s must be start, end or an index"
                             " 0 .. number of elements (got %s)", label,
                             deck_describe (x, h, sizeof h));
      nd->index = (int) idx;
    }
  }
  return 0;
}

/* 1 when |q - p| <= 1e-12 max(|p|, |q|): points equal up to rounding */
static int coincide (const double *p, const double *q)
{
  double d[3] = { q[0] - p[0], q[1] - p[1], q[2] - p[2] };
  return norm3 (d) <= 1e-12 * fmax (norm3 (p), norm3 (q));
}

/* The beam's geometry from its walked fields f (from f[2], to f[3], points f[4]): either
   points or from and to (both; then the two points), and no segment of zero length
   (coincide). MB_EDECK at the key or item at fault. */
static int beam_geometry (ctx *c, const yaml_node_t *map, const char *label, const field *f,
                          const double *from, const double *to, deck_beam *b)
{
  const yaml_node_t *ft = f[2].k ? f[2].k : f[3].k;   /* the first of from, to */
  if (f[2].k && f[3].k && deck_later (f[2].k, f[3].k) == f[2].k) ft = f[3].k;
  if (f[4].k && ft)
    return deck_fail_at (c, deck_later (f[4].k, ft), "%s: give either 'points' or 'from' and 'to',"
                         " not both", label);
  if (!f[4].k) {
    if (!ft) return deck_fail_at (c, map, "%s: give 'from' and 'to', or 'points'", label);
    if (!f[3].k) return deck_fail_at (c, f[2].k, "%s: 'from' needs 'to'", label);
    if (!f[2].k) return deck_fail_at (c, f[3].k, "%s: 'to' needs 'from'", label);
    if (!(b->points = deck_calloc (6, sizeof *b->points))) return deck_no_memory (c);
    b->npoints = 2;
    memcpy (b->points, from, 3 * sizeof *from);
    memcpy (b->points + 3, to, 3 * sizeof *to);
  }
  int nseg = b->npoints - 1;
  for (int s = 0; s < nseg; s++)
    if (coincide (b->points + 3 * s, b->points + 3 * s + 3)) {
      if (!f[4].k)
        return deck_fail_at (c, f[3].v, "%s: segment 1 has zero length ('from' and 'to'"
                             " coincide)", label);
      return deck_fail_at (c, deck_seq_item (c, f[4].v, s + 1), "%s: segment %d has zero length"
                           " (points %d and %d coincide)", label, s + 1, s + 1, s + 2);
    }
  return 0;
}

/* Elements per segment of the beam's nseg segments: a list (t->nlist entries, one per
   segment) or one count for every segment (t->per_segment, into a new b->elements); the
   total (*total) at most MAX_BEAM_ELEMENTS. MB_EDECK at 'elements' (fe). */
static int beam_element_counts (ctx *c, const char *label, const field *fe,
                                const beam_elements *t, int nseg, deck_beam *b,
                                long long *total)
{
  if (t->nlist && t->nlist != nseg)
    return deck_fail_at (c, fe->v, "%s: 'elements' has %d entr%s but the beam has %d"
                         " segment%s", label, t->nlist, t->nlist == 1 ? "y" : "ies", nseg,
                         nseg == 1 ? "" : "s");
  if (!t->nlist) {
    if (!(b->elements = deck_calloc ((size_t) nseg, sizeof *b->elements)))
      return deck_no_memory (c);
    for (int s = 0; s < nseg; s++) b->elements[s] = t->per_segment;
  }
  *total = 0;
  for (int s = 0; s < nseg; s++) *total += b->elements[s];
  if (*total > MAX_BEAM_ELEMENTS)
    return deck_fail_at (c, fe->v, "%s: %lld elements in all; at most %d per beam", label,
                         *total, MAX_BEAM_ELEMENTS);
  return 0;
}

/* y_axis (field fy, when given): not parallel to any of the nseg segments, |y x d| >
   PARALLEL_TOL with d the segment's unit direction. MB_EDECK at 'y_axis'. */
static int beam_y_axis (ctx *c, const char *label, const field *fy, int nseg, deck_beam *b)
{
  if (!fy->k) return 0;
  b->has_y_axis = 1;
  b->pos_y_axis = deck_pos_of (fy->v);
  for (int s = 0; s < nseg; s++) {
    double d[3], x[3];
    for (int i = 0; i < 3; i++) d[i] = b->points[3 * s + 3 + i] - b->points[3 * s + i];
    unit3 (d);
    cross3 (b->y_axis, d, x);
    if (norm3 (x) <= PARALLEL_TOL)
      return deck_fail_at (c, fy->v, "%s: 'y_axis' is parallel to segment %d", label,
                           s + 1);
  }
  return 0;
}

/* Named nodes (field fn, 'nodes'): each index within 0 .. total elements. MB_EDECK at
   the named node's value. */
static int beam_named_range (ctx *c, const char *label, const field *fn, long long total,
                             const deck_beam *b)
{
  for (int i = 0; i < b->nnamed; i++)
    if (b->named[i].index > total) {
      const yaml_node_t *x = deck_node (c, fn->v->data.mapping.pairs.start[i].value);
      char g[64];
      return deck_fail_at (c, x, "%s: node '%s' index %d is out of range (the beam has %lld"
                           " element%s: indices 0 .. %lld)", label,
                           deck_shown_bytes ((const unsigned char *) b->named[i].name,
                                             strlen (b->named[i].name), g, sizeof g),
                           b->named[i].index, total, total == 1 ? "" : "s", total);
    }
  return 0;
}

/* a beam: geometry (from/to or points), elements per segment, y_axis not parallel to a
   segment, named nodes within 0 .. total elements
   Steps: the walk, beam_geometry, beam_element_counts, beam_y_axis, the spin and the
   vertex nodes, beam_named_range. */
static int beam_obj (ctx *c, const yaml_node_t *k, const yaml_node_t *map, const char *label,
                     void *obj)
{
  deck_beam *b = obj;
  beam_elements t = { .b = b };
  double from[3], to[3];
  MB_TRY (node_name_check (c, k, label));
  MB_TRY (copy_name (c, k, &b->name, &b->pos));
  field f[] = {
    { .key = "material", .type = F_STR, .dst = &b->material, .required = 1 },
    { .key = "section", .type = F_FN, .dst = b, .required = 1, .parse = deck_beam_section_fn },
    { .key = "from", .type = F_FN, .dst = from, .parse = vec3_fn },
    { .key = "to", .type = F_FN, .dst = to, .parse = vec3_fn },
    { .key = "points", .type = F_FN, .dst = b, .parse = points_fn },
    { .key = "elements", .type = F_FN, .dst = &t, .required = 1, .parse = elements_fn },
    { .key = "y_axis", .type = F_FN, .dst = b->y_axis, .parse = axis_fn },
    { .key = "nodes", .type = F_FN, .dst = b, .parse = beam_nodes_fn },
    { .key = "spin", .type = F_FN, .dst = &b->spin, .parse = deck_spin_fn },
    { .key = "theory", .type = F_FN, .dst = &b->theory, .parse = deck_beam_theory_fn },
    { .key = "line_load", .type = F_FN, .dst = b, .parse = deck_beam_line_load_fn },
  };
  MB_TRY (deck_walk (c, map, label, f, 11));
  if (f[9].v) b->pos_theory = deck_pos_of (f[9].v);
  b->pos_material = deck_pos_of (f[0].v);
  b->pos_section = deck_pos_of (f[1].v);
  MB_TRY (beam_geometry (c, map, label, f, from, to, b));   /* from + to, or points */
  int nseg = b->npoints - 1;
  long long total = 0;
  MB_TRY (beam_element_counts (c, label, &f[5], &t, nseg, b, &total));
  MB_TRY (beam_y_axis (c, label, &f[6], nseg, b));
  MB_TRY (deck_spin_beam_check (c, &f[8], label, b));
  MB_TRY (deck_points_vertex_nodes (c, b));   /* vertices named in points: */
  return beam_named_range (c, label, &f[7], total, b);   /* index within 0 .. total */
}

/* beams: NAME -> beam; the array is owned by the deck */
int deck_model_beams (ctx *c, const yaml_node_t *map, const char *sec)
{
  deck_model *m = &c->d->model;
  if (!(m->beams = slots (map, sizeof *m->beams))) return deck_no_memory (c);
  return collection (c, map, sec, NAME_BEAM, m->beams, sizeof *m->beams, &m->nbeams,
                     beam_obj, offsetof (deck_beam, name), offsetof (deck_beam, pos));
}

/* ---- node references ---- */

/* item e of a node list (or the value of 'node') -> r: a non-empty scalar name */
static int get_ref (ctx *c, const char *sec, const yaml_node_t *at, const yaml_node_t *e,
                    const char *name, deck_ref *r)
{
  char p[LABEL], g[96];
  deck_prefix (p, sizeof p, sec);
  if (!e) return deck_fail_at (c, at, "%s'%s' is malformed", p, name);
  if (e->type != YAML_SCALAR_NODE || deck_is_null (e) || e->data.scalar.length == 0)
    return deck_fail_at (c, e->type == YAML_SCALAR_NODE ? at : e, "%s'%s' must be a node"
                         " name (got %s)", p, name, deck_describe (e, g, sizeof g));
  if (memchr (e->data.scalar.value, 0, e->data.scalar.length))
    return deck_fail_at (c, e, "%s'%s' must not contain a NUL character", p, name);
  if (!(r->name = deck_dup ((const char *) e->data.scalar.value, e->data.scalar.length)))
    return deck_no_memory (c);
  r->pos = deck_pos_of (e);
  return 0;
}

/* The value of field f (key `key`) a sequence of exactly 2 items: else MB_EDECK, "must be a
   sequence of 2 <shape> (got ...)" at the key (a null value) or the value, or "must
   <exactly> (got N)" at the value; p: the section's prefix. Shared by nodes, points and
   axes. */
static int pair_of (ctx *c, const char *p, const field *f, const char *key, const char *shape,
                    const char *exactly)
{
  const yaml_node_t *v = f->v;
  char g[96];
  if (v->type != YAML_SEQUENCE_NODE)
    return deck_fail_at (c, deck_is_null (v) ? f->k : v, "%s'%s' must be a sequence of 2 %s"
                         " (got %s)", p, key, shape, deck_describe (v, g, sizeof g));
  if (deck_seq_len (v) != 2)
    return deck_fail_at (c, v, "%s'%s' must %s (got %ld)", p, key, exactly, deck_seq_len (v));
  return 0;
}

/* F_FN: nodes [A, B] into (deck_ref *) f->dst; not both ground, not the same name twice */
static int nodes_fn (ctx *c, const char *sec, field *f)
{
  deck_ref *r = f->dst;
  const yaml_node_t *v = f->v;
  char p[LABEL], g[96];
  deck_prefix (p, sizeof p, sec);
  MB_TRY (pair_of (c, p, f, "nodes", "node names [A, B]", "name exactly 2 nodes [A, B]"));
  for (int i = 0; i < 2; i++) {
    char name[32];
    snprintf (name, sizeof name, "nodes[%d]", i);
    MB_TRY (get_ref (c, sec, v, deck_seq_item (c, v, i), name, &r[i]));
  }
  if (!strcmp (r[0].name, "ground") && !strcmp (r[1].name, "ground"))
    return deck_fail_pos (c, r[1].pos, "%s'nodes' are both ground: one end must be a body or"
                          " beam node", p);
  if (!strcmp (r[0].name, r[1].name))
    return deck_fail_pos (c, r[1].pos, "%s'nodes' names '%s' twice: the two ends must be"
                          " different nodes", p, deck_shown (deck_seq_item (c, v, 1), g, sizeof g));
  return 0;
}

/* F_FN: node A into (deck_ref *) f->dst; not ground */
static int node_fn (ctx *c, const char *sec, field *f)
{
  deck_ref *r = f->dst;
  char p[LABEL];
  MB_TRY (get_ref (c, sec, deck_is_null (f->v) ? f->k : f->v, f->v, f->key, r));
  deck_prefix (p, sizeof p, sec);
  if (!strcmp (r->name, "ground"))
    return deck_fail_at (c, f->v, "%s'node' must be a body or beam node, not ground", p);
  return 0;
}

/* F_FN: points [pA, pB] into (double *) f->dst (6 numbers) */
static int points2_fn (ctx *c, const char *sec, field *f)
{
  double *x = f->dst;
  const yaml_node_t *v = f->v;
  char p[LABEL];
  deck_prefix (p, sizeof p, sec);
  MB_TRY (pair_of (c, p, f, "points", "points [pA, pB]", "have exactly 2 points [pA, pB]"));
  for (int i = 0; i < 2; i++) {
    char name[32];
    const yaml_node_t *e = deck_seq_item (c, v, i);
    snprintf (name, sizeof name, "points[%d]", i);
    if (!e) return deck_fail_at (c, v, "%s'%s' is malformed", p, name);
    MB_TRY (deck_get_numbers (c, sec, v, e, name, 3, x + 3 * i));
  }
  return 0;
}

/* ---- joints ---- */

/* joint types, in the order of joint_type */
static const char *const joint_names[] = { "weld", "revolute", "spherical", "prismatic",
                                           "cylindrical", "universal", "planar", "distance",
                                           "lock" };
enum { JK_AT = 1, JK_AXIS = 2, JK_AXES = 4, JK_FRAME = 8, JK_DOFS = 16, JK_POINTS = 32 };
/* optional keys each type takes (type and nodes: all), and the required ones */
static const int joint_takes[] = {
  JK_AT | JK_FRAME, JK_AT | JK_AXIS, JK_AT | JK_FRAME, JK_AT | JK_AXIS, JK_AT | JK_AXIS,
  JK_AT | JK_AXES, JK_AT | JK_AXIS, JK_POINTS, JK_AT | JK_FRAME | JK_DOFS };
static const int joint_needs[] = { 0, JK_AXIS, 0, JK_AXIS, JK_AXIS, JK_AXES, JK_AXIS, 0,
                                   JK_DOFS };

/* F_FN: axes [a1, a2] (universal) into (double *) f->dst: two unit vectors, not parallel */
static int axes_fn (ctx *c, const char *sec, field *f)
{
  double *a = f->dst, x[3];
  const yaml_node_t *v = f->v;
  char p[LABEL];
  deck_prefix (p, sizeof p, sec);
  MB_TRY (pair_of (c, p, f, "axes", "axes [[x, y, z], [x, y, z]]", "have exactly 2 axes"));
  for (int i = 0; i < 2; i++) {
    char name[32];
    const yaml_node_t *e = deck_seq_item (c, v, i);
    snprintf (name, sizeof name, "axes[%d]", i);
    if (!e) return deck_fail_at (c, v, "%s'%s' is malformed", p, name);
    MB_TRY (deck_get_numbers (c, sec, v, e, name, 3, a + 3 * i));
    if (!unit3 (a + 3 * i))
      return deck_fail_at (c, e, "%s'%s' must not be the zero vector", p, name);
  }
  cross3 (a, a + 3, x);
  if (norm3 (x) <= PARALLEL_TOL)
    return deck_fail_at (c, v, "%suniversal axes are parallel", p);
  return 0;
}

/* F_FN: dofs [x, y, z, rx, ry, rz] (at least one, no repeats) -> LOCK_* bits in
   (int *) f->dst */
static int dofs_fn (ctx *c, const char *sec, field *f)
{
  /* one vocabulary with the rest of mbmodal (dx dy dz rx ry rz); x, y, z still accepted */
  static const char *const dof[] = { "dx", "dy", "dz", "rx", "ry", "rz" };
  static const char *const old[] = { "x", "y", "z" };
  int *mask = f->dst;
  const yaml_node_t *v = f->v;
  char p[LABEL], g[96];
  deck_prefix (p, sizeof p, sec);
  if (v->type != YAML_SEQUENCE_NODE)
    return deck_fail_at (c, deck_is_null (v) ? f->k : v, "%s'dofs' must be a sequence of"
                         " dx, dy, dz, rx, ry, rz (got %s)", p, deck_describe (v, g, sizeof g));
  if (deck_seq_len (v) == 0)
    return deck_fail_at (c, v, "%s'dofs' must list at least one of dx, dy, dz, rx, ry, rz", p);
  *mask = 0;
  for (long i = 0; i < deck_seq_len (v); i++) {
    const yaml_node_t *e = deck_seq_item (c, v, i);
    int j = 0;
    if (!e) return deck_fail_at (c, v, "%s'dofs' is malformed", p);
    while (j < 6 && !(e->type == YAML_SCALAR_NODE
                      && (deck_same (e, dof[j]) || (j < 3 && deck_same (e, old[j]))))) j++;
    if (j == 6)
      return deck_fail_at (c, e->type == YAML_SCALAR_NODE && deck_is_null (e) ? v : e,
                           "%sunknown dof %s in 'dofs' (expected dx, dy, dz, rx, ry, rz;"
                           " x, y, z are the old names of dx, dy, dz)", p,
                           deck_describe (e, g, sizeof g));
    if (*mask & (1 << j))
      return deck_fail_at (c, e, "%s'dofs' repeats '%s'", p, dof[j]);
    *mask |= 1 << j;
  }
  return 0;
}

/* a joint: its type read first (it decides which keys belong), then the keys; the frame
   as in deck_model.h */
static int joint_obj (ctx *c, const yaml_node_t *k, const yaml_node_t *map, const char *label,
                      void *obj)
{
  deck_joint *j = obj;
  int type;
  double axis[3], axes[6];
  char unused[48];
  MB_TRY (copy_name (c, k, &j->name, &j->pos));
  const yaml_node_t *tk = NULL, *tv = deck_map_find (c, map, "type", &tk);
  if (!tv)
    return deck_fail_at (c, map, "%s: missing required key 'type' (weld, revolute,"
                         " spherical, prismatic, cylindrical, universal, planar, distance,"
                         " lock)", label);
  MB_TRY (pick (c, label, tk, tv, "type", joint_names, 9, &type));
  j->type = (joint_type) type;
  identity3 (j->R);
  snprintf (unused, sizeof unused, "a %s joint", joint_names[type]);
  field f[] = {
    { .key = "type", .type = F_SKIP },
    { .key = "nodes", .type = F_FN, .dst = j->node, .required = 1, .parse = nodes_fn },
    { .key = "beam", .type = F_FN, .dst = j, .parse = deck_lock_beam_fn, .unused = unused },
    { .key = "at", .type = F_FN, .dst = j->at, .parse = vec3_fn },
    { .key = "axis", .type = F_FN, .dst = axis, .parse = axis_fn },
    { .key = "axes", .type = F_FN, .dst = axes, .parse = axes_fn },
    { .key = "frame", .type = F_FN, .dst = j->R, .parse = orientation_fn },
    { .key = "dofs", .type = F_FN, .dst = &j->lock_mask, .parse = dofs_fn },
    { .key = "points", .type = F_FN, .dst = j->points, .parse = points2_fn },
  };
  for (int i = 3, bit = 1; i < 9; i++, bit <<= 1) {
    if (!(joint_takes[type] & bit)) f[i].unused = unused;
    if (joint_needs[type] & bit) f[i].required = 1;
  }
  if (j->type == JOINT_LOCK) {  /* nodes: [A, B, C, ...] or beam: NAME (deck_lock.c) */
    f[1] = (field) { .key = "nodes", .type = F_FN, .dst = j, .parse = deck_lock_nodes_fn };
    f[2].unused = NULL;
  }
  MB_TRY (deck_walk (c, map, label, f, 9));
  if (j->type == JOINT_LOCK) MB_TRY (deck_lock_check (c, j, label, map, f[1].k, f[2].k, f[3].k));
  for (int i = 3; i < 9; i++) f[i - 1] = f[i];  /* the indices below: at = 2 .. points = 7 */
  j->has_at = f[2].k != NULL;
  if (j->has_at) j->pos_at = deck_pos_of (f[2].v);
  j->has_points = f[7].k != NULL;
  for (int i = 3; i < 6; i++)
    if (f[i].k) j->pos_axis = deck_pos_of (f[i].v);
  if (f[3].k) frame_from_axis (axis, j->R);
  if (f[4].k) {  /* universal: e1 = a1, e3 = unit(a1 x a2), e2 = e3 x e1 */
    double e2[3], e3[3];
    cross3 (axes, axes + 3, e3);
    unit3 (e3);
    cross3 (e3, axes, e2);
    set_columns (j->R, axes, e2, e3);
  }
  if (j->has_points) {
    double d[3] = { j->points[3] - j->points[0], j->points[4] - j->points[1],
                    j->points[5] - j->points[2] };
    if (norm3 (d) < 1e-9)
      return deck_fail_at (c, f[7].v, "%s: the two points coincide (a distance joint needs"
                           " them at least 1e-9 m apart)", label);
  }
  return 0;
}

/* joints: NAME -> joint; the array is owned by the deck */
int deck_model_joints (ctx *c, const yaml_node_t *map, const char *sec)
{
  deck_model *m = &c->d->model;
  if (!(m->joints = slots (map, sizeof *m->joints))) return deck_no_memory (c);
  return collection (c, map, sec, NAME_JOINT, m->joints, sizeof *m->joints, &m->njoints,
                     joint_obj, offsetof (deck_joint, name), offsetof (deck_joint, pos));
}

/* ---- forces ---- */

/* force types, in the order of force_type, and as messages name them */
static const char *const force_names[] = { "spring", "rotational_spring", "bushing", "force",
                                           "torque" };
static const char *const force_words[] = { "a spring", "a rotational_spring", "a bushing",
                                           "a point force (type force)", "a torque" };
enum { FK_NODES = 1, FK_NODE = 2, FK_POINTS = 4, FK_K = 8, FK_C = 16, FK_FREE = 32,
       FK_PRELOAD = 64, FK_AXIS = 128, FK_AT = 256, FK_FRAME = 512, FK_STIFFNESS = 1024,
       FK_DAMPING = 2048, FK_VALUE = 4096 };
static const int force_takes[] = {
  FK_NODES | FK_POINTS | FK_K | FK_C | FK_FREE | FK_PRELOAD,
  FK_NODES | FK_AXIS | FK_K | FK_C | FK_PRELOAD,
  FK_NODES | FK_AT | FK_FRAME | FK_STIFFNESS | FK_DAMPING,
  FK_NODE | FK_AT | FK_VALUE | FK_FRAME,
  FK_NODE | FK_VALUE | FK_FRAME };
static const int force_needs[] = { FK_NODES | FK_K, FK_NODES | FK_AXIS | FK_K,
                                   FK_NODES | FK_STIFFNESS, FK_NODE | FK_VALUE,
                                   FK_NODE | FK_VALUE };

/* F_FN: a bushing matrix, 6 numbers (the diagonal) or 6 rows of 6, into (double *) f->dst
   (row-major 6x6); symmetric and positive semi-definite. Semi-definiteness is tested on
   D^-1/2 A D^-1/2 (D = the positive diagonal), which mixed units [N/m], [N m/rad] do not
   upset. */
static int matrix6_fn (ctx *c, const char *sec, field *f)
{
  double *A = f->dst, m = 0, s[6], B[36], w[6];
  const yaml_node_t *v = f->v, *e0;
  char p[LABEL], g[96];
  deck_prefix (p, sizeof p, sec);
  if (v->type != YAML_SEQUENCE_NODE)
    return deck_fail_at (c, deck_is_null (v) ? f->k : v, "%s'%s' must be 6 numbers (the"
                         " diagonal) or 6 rows of 6 numbers (got %s)", p, f->key,
                         deck_describe (v, g, sizeof g));
  if (deck_seq_len (v) != 6)
    return deck_fail_at (c, v, "%s'%s' must be 6 numbers (the diagonal) or 6 rows of 6"
                         " numbers (got %ld items)", p, f->key, deck_seq_len (v));
  memset (A, 0, 36 * sizeof *A);
  if ((e0 = deck_seq_item (c, v, 0)) && e0->type == YAML_SEQUENCE_NODE) {
    for (int i = 0; i < 6; i++) {
      char name[48];
      const yaml_node_t *row = deck_seq_item (c, v, i);
      snprintf (name, sizeof name, "%s[%d]", f->key, i);
      if (!row) return deck_fail_at (c, v, "%s'%s' is malformed", p, name);
      MB_TRY (deck_get_numbers (c, sec, NULL, row, name, 6, A + 6 * i));
    }
    for (int i = 0; i < 36; i++) m = fmax (m, fabs (A[i]));
    for (int i = 0; i < 6; i++)
      for (int j = i + 1; j < 6; j++) {
        if (fabs (A[6 * i + j] - A[6 * j + i]) > SYM_TOL * m)
          return deck_fail_at (c, v, "%s'%s' is not symmetric (%s[%d][%d] = %g but"
                               " %s[%d][%d] = %g)", p, f->key, f->key, i, j, A[6 * i + j],
                               f->key, j, i, A[6 * j + i]);
        A[6 * i + j] = A[6 * j + i] = (A[6 * i + j] + A[6 * j + i]) / 2;
      }
  } else {
    double d[6];
    MB_TRY (deck_get_numbers (c, sec, f->k, v, f->key, 6, d));
    for (int i = 0; i < 6; i++) A[7 * i] = d[i];
  }
  int bad = 0;
  for (int i = 0; i < 6; i++) {
    bad |= A[7 * i] < 0;
    s[i] = A[7 * i] > 0 ? 1 / sqrt (A[7 * i]) : 1;
  }
  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 6; j++) B[6 * i + j] = s[i] * A[6 * i + j] * s[j];
  sym_eigenvalues (6, B, w);
  m = fmax (fabs (w[0]), fabs (w[5]));
  if (bad || w[0] < -SYM_TOL * m) {
    sym_eigenvalues (6, A, w);
    return deck_fail_at (c, v, "%s'%s' is not positive semi-definite (eigenvalues %g, %g, %g,"
                         " %g, %g, %g)", p, f->key, w[0], w[1], w[2], w[3], w[4], w[5]);
  }
  return 0;
}

/* F_FN: frame of a point force or torque: global (0) | body (1) into (int *) f->dst */
static int follower_fn (ctx *c, const char *sec, field *f)
{
  static const char *const frames[] = { "global", "body" };
  char lab[LABEL];
  snprintf (lab, sizeof lab, "%s", sec ? sec : "force");
  return pick (c, lab, f->k, f->v, "frame", frames, 2, f->dst);
}

/* a force element: its type read first (it decides which keys belong), then the keys;
   sets has_damping for c > 0 or a non-zero bushing damping */
static int force_obj (ctx *c, const yaml_node_t *k, const yaml_node_t *map, const char *label,
                      void *obj)
{
  deck_force *fo = obj;
  int type;
  MB_TRY (copy_name (c, k, &fo->name, &fo->pos));
  const yaml_node_t *tk = NULL, *tv = deck_map_find (c, map, "type", &tk);
  if (!tv)
    return deck_fail_at (c, map, "%s: missing required key 'type' (spring,"
                         " rotational_spring, bushing, force, torque)", label);
  MB_TRY (pick (c, label, tk, tv, "type", force_names, 5, &type));
  fo->type = (force_type) type;
  fo->nnodes = type <= FORCE_BUSHING ? 2 : 1;
  identity3 (fo->R);
#define NONNEG(k_, d_) { .key = k_, .type = F_REAL, .dst = d_, .lo = 0, .hi = HUGE_VAL, \
                         .range = ">= 0" }
  field f[] = {
    { .key = "type", .type = F_SKIP },
    { .key = "nodes", .type = F_FN, .dst = fo->node, .parse = nodes_fn },
    { .key = "node", .type = F_FN, .dst = &fo->node[0], .parse = node_fn },
    { .key = "points", .type = F_FN, .dst = fo->points, .parse = points2_fn },
    NONNEG ("k", &fo->k), NONNEG ("c", &fo->c), NONNEG ("free_length", &fo->free_length),
    { .key = "preload", .type = F_REAL, .dst = &fo->preload, .lo = -HUGE_VAL, .hi = HUGE_VAL,
      .range = "finite" },
    { .key = "axis", .type = F_FN, .dst = fo->axis, .parse = axis_fn },
    { .key = "at", .type = F_FN, .dst = fo->at, .parse = vec3_fn },
    { .key = "frame", .type = F_FN, .dst = type == FORCE_BUSHING ? (void *) fo->R
                                           : (void *) &fo->body_fixed,
      .parse = type == FORCE_BUSHING ? orientation_fn : follower_fn },
    { .key = "stiffness", .type = F_FN, .dst = fo->K6, .parse = matrix6_fn },
    { .key = "damping", .type = F_FN, .dst = fo->C6, .parse = matrix6_fn },
    { .key = "value", .type = F_FN, .dst = fo->value, .parse = vec3_fn },
  };
#undef NONNEG
  for (int i = 1, bit = 1; i < 14; i++, bit <<= 1) {
    if (!(force_takes[type] & bit)) f[i].unused = force_words[type];
    if (force_needs[type] & bit) f[i].required = 1;
  }
  MB_TRY (deck_walk (c, map, label, f, 14));
  fo->has_points = f[3].k != NULL;
  fo->has_free_length = f[6].k != NULL;
  fo->has_at = f[9].k != NULL;
  if (type == FORCE_SPRING) {
    for (int i = 0; i < 2; i++)
      if (!fo->has_points && !strcmp (fo->node[i].name, "ground"))
        return deck_fail_pos (c, fo->node[i].pos, "%s: 'points' is required when an end is"
                              " ground (the ground has no position)", label);
    if (fo->has_points && coincide (fo->points, fo->points + 3))
      return deck_fail_at (c, f[3].v, "%s: the two points coincide (a spring needs a"
                           " direction)", label);
  }
  if ((type == FORCE_SPRING || type == FORCE_ROTATIONAL_SPRING) && fo->c > 0)
    c->d->model.has_damping = 1;
  for (int i = 0; type == FORCE_BUSHING && i < 36; i++)
    if (fo->C6[i] != 0) c->d->model.has_damping = 1;
  return 0;
}

/* forces: NAME -> force element; the array is owned by the deck */
int deck_model_forces (ctx *c, const yaml_node_t *map, const char *sec)
{
  deck_model *m = &c->d->model;
  if (!(m->forces = slots (map, sizeof *m->forces))) return deck_no_memory (c);
  return collection (c, map, sec, NAME_FORCE, m->forces, sizeof *m->forces, &m->nforces,
                     force_obj, offsetof (deck_force, name), offsetof (deck_force, pos));
}

/* ---- the whole model ---- */

int deck_model_finish (ctx *c, const yaml_node_t *root, const yaml_node_t *units_key)
{
  deck_model *m = &c->d->model;
  if (!units_key)
    return deck_fail_at (c, root, "missing required key 'units': a model deck must say"
                         " 'units: SI'");
  if (m->nbodies + m->nbeams == 0)
    return deck_fail_at (c, root, "the model has no bodies and no beams: a model deck needs"
                         " at least one of them");
  size_t n = (size_t) m->nbodies + (size_t) m->nbeams, k = 0;
  for (int i = 0; i < m->nbeams; i++) n += (size_t) m->beams[i].nnamed;
  name_entry *e = deck_calloc (n, sizeof *e);
  if (!e) return deck_no_memory (c);
  for (int i = 0; i < m->nbodies; i++)
    e[k++] = (name_entry) { m->bodies[i].name, m->bodies[i].pos, NAME_BODY, NULL };
  for (int i = 0; i < m->nbeams; i++) {
    const deck_beam *b = &m->beams[i];
    e[k++] = (name_entry) { b->name, b->pos, NAME_BEAM, NULL };
    for (int j = 0; j < b->nnamed; j++)
      e[k++] = (name_entry) { b->named[j].name, b->named[j].pos, NAME_NODE, b->name };
  }
  int rc = unique (c, e, n);
  free (e);
  if (rc == 0) rc = deck_lock_expand (c, m);   /* locks on several nodes, one per node */
  if (rc == 0) m->present = 1;
  return rc;
}

void deck_model_clear (deck_model *m)
{
  deck_masses_clear (m);   /* masses, and vertex names a failed parse left in beams */
  for (int i = 0; m->materials && i < m->nmaterials; i++) free (m->materials[i].name);
  for (int i = 0; m->sections && i < m->nsections; i++) free (m->sections[i].name);
  for (int i = 0; m->bodies && i < m->nbodies; i++) free (m->bodies[i].name);
  for (int i = 0; m->beams && i < m->nbeams; i++) {
    deck_beam *b = &m->beams[i];
    free (b->name);
    free (b->material);
    free (b->section);
    deck_beam_sections_free (b);
    free (b->points);
    free (b->elements);
    for (int j = 0; b->named && j < b->nnamed; j++) free (b->named[j].name);
    free (b->named);
  }
  for (int i = 0; m->joints && i < m->njoints; i++) {
    free (m->joints[i].name);
    free (m->joints[i].node[0].name);
    free (m->joints[i].node[1].name);
    deck_lock_clear (&m->joints[i]);
  }
  for (int i = 0; m->forces && i < m->nforces; i++) {
    free (m->forces[i].name);
    free (m->forces[i].node[0].name);
    free (m->forces[i].node[1].name);
  }
  free (m->materials);
  free (m->sections);
  free (m->bodies);
  free (m->beams);
  free (m->joints);
  free (m->forces);
  memset (m, 0, sizeof *m);
}

/* ---- for deck_masses.c: the shared readers above, under exported names ---- */

int deck_model_vec3_fn (ctx *c, const char *sec, field *f) { return vec3_fn (c, sec, f); }
int deck_model_inertia_fn (ctx *c, const char *sec, field *f) { return inertia_fn (c, sec, f); }
int deck_model_node_fn (ctx *c, const char *sec, field *f) { return node_fn (c, sec, f); }
int deck_model_nodes_fn (ctx *c, const char *sec, field *f) { return nodes_fn (c, sec, f); }
int deck_model_node_name (ctx *c, const yaml_node_t *k, const char *label)
{
  MB_TRY (name_key (c, k, label));
  return node_name_check (c, k, label);
}

/* collection () for the masses: unique names among the masses */
int deck_model_mass_collection (ctx *c, const yaml_node_t *map, const char *sec, void *arr,
                                size_t size, int *n,
                                int (*fn) (ctx *, const yaml_node_t *, const yaml_node_t *,
                                           const char *, void *),
                                size_t name_off, size_t pos_off)
{
  return collection (c, map, sec, NAME_MASS, arr, size, n, fn, name_off, pos_off);
}
