/* test_deck_model.c: the model part of deck_parse: a full model deck read to the expected
   numbers, the orientation forms against formulas written here, the damping default, every
   error message at its position, and failing allocations.

   Sources of the reference numbers: section properties from the closed forms of the deck
   spec (rectangle torsion constant after Roark, the formula of shared/bench/beamgrid.py;
   circle and tube from pi d^4/64); rotations from Rodrigues' formula in matrix form
   R = I + sin(t) K + (1 - cos(t)) K^2 (K the cross-product matrix), from the quaternion
   q = [cos(t/2), n sin(t/2)] of the same rotation, and from vectors worked out by hand;
   G = E / (2 (1 + nu)); eigenvalues of 2x2 blocks by hand. Positions of errors are the
   1-based line:column of a marker text in the deck, found by a search written here. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "deck/deck.h"

static const double PI = 3.14159265358979323846;

static int streq (const char *a, const char *b)
{
  return a && b && !strcmp (a, b);
}

static int near (double a, double b, double tol)
{
  return fabs (a - b) <= tol * fmax (1, fmax (fabs (a), fabs (b)));
}

static int all_zero (const deck *d)
{
  static const deck z;
  return !memcmp (d, &z, sizeof z);
}

/* "path:line:col" of the first occurrence of marker in text (line, col 1-based); a '|' in
   the marker stands for the position inside it ("x: |[0, 0, 0]": the value after x) */
static void where_of (const char *text, const char *marker, const char *path, char *buf,
                      size_t size)
{
  char m[256];
  const char *bar = strchr (marker, '|');
  size_t off = bar ? (size_t) (bar - marker) : 0;
  snprintf (m, sizeof m, "%s", marker);
  if (bar) memmove (m + off, m + off + 1, strlen (m + off));
  const char *p = strstr (text, m);
  size_t line = 1, col = 1;
  if (!p) {
    snprintf (buf, size, "(marker '%s' not in the deck)", marker);
    return;
  }
  p += off;
  for (const char *q = text; q < p; q++) {
    if (*q == '\n') line++, col = 1;
    else col++;
  }
  snprintf (buf, size, "%s:%zu:%zu", path, line, col);
}

/* deck_pos of a marker, for the positions the parser stores */
static int pos_is (const char *text, const char *marker, deck_pos p)
{
  char want[64], got[64];
  where_of (text, marker, "", want, sizeof want);
  snprintf (got, sizeof got, ":%zu:%zu", p.line, p.col);
  return !strcmp (want, got);
}

/* max |A - B| over 9 entries */
static double diff9 (const double *A, const double *B)
{
  double m = 0;
  for (int i = 0; i < 9; i++) m = fmax (m, fabs (A[i] - B[i]));
  return m;
}

/* Rodrigues in matrix form: R = I + sin(t) K + (1 - cos(t)) K K, K = [n]x, n = unit(a) */
static void rodrigues (const double *a, double t, double *R)
{
  double l = sqrt (a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
  double n[3] = { a[0] / l, a[1] / l, a[2] / l };
  double K[9] = { 0, -n[2], n[1], n[2], 0, -n[0], -n[1], n[0], 0 }, K2[9];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      K2[3 * i + j] = 0;
      for (int k = 0; k < 3; k++) K2[3 * i + j] += K[3 * i + k] * K[3 * k + j];
    }
  for (int i = 0; i < 9; i++) R[i] = (i % 4 == 0) + sin (t) * K[i] + (1 - cos (t)) * K2[i];
}

/* R^T R = I and det R = 1 to 1e-14 */
static int is_rotation (const double *R)
{
  double e = 0;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      double s = 0;
      for (int k = 0; k < 3; k++) s += R[3 * k + i] * R[3 * k + j];
      e = fmax (e, fabs (s - (i == j)));
    }
  double det = R[0] * (R[4] * R[8] - R[5] * R[7]) - R[1] * (R[3] * R[8] - R[5] * R[6])
               + R[2] * (R[3] * R[7] - R[4] * R[6]);
  return e < 1e-14 && fabs (det - 1) < 1e-14;
}

/* column j of R equals v (hand-worked) to 1e-15 */
static int column_is (const double *R, int j, double x, double y, double z)
{
  return fabs (R[j] - x) < 1e-15 && fabs (R[3 + j] - y) < 1e-15 && fabs (R[6 + j] - z) < 1e-15;
}

static int parse (const char *text, deck *d, mb_err *e)
{
  mb_err_init (e);
  int rc = deck_parse (text, strlen (text), "m/model.yaml", d, e);
  if (rc) printf ("  parse failed: %s: %s\n", e->where, e->msg);
  return rc;
}

/* ---- a full model deck ---- */

static const char full[] =
  "title: model deck test\n"
  "units: si\n"
  "gravity: [0, 0, -9.81]\n"
  "materials:\n"
  "  steel: {E: 210e9, nu: 0.3, rho: 7850}\n"
  "  soft: {E: 100e6, G: 40e6, rho: 1000, alpha: 1e-3, beta: 1e-5}\n"
  "sections:\n"
  "  plate: {shape: rectangle, y: 0.3, z: 0.05}\n"
  "  tall: {shape: rectangle, y: 0.02, z: 0.1}\n"
  "  rod: {shape: circle, diameter: 0.02}\n"
  "  pipe: {shape: tube, outer_diameter: 0.1, wall: 0.005}\n"
  "  custom: {A: 1e-3, Iy: 2e-7, Iz: 3e-7, J: 4e-7}\n"
  "bodies:\n"
  "  tip:\n"
  "    mass: 4000\n"
  "    inertia: [10, 20, 30]\n"
  "    position: [0, 0, 2]\n"
  "    orientation: {axis: [0, 0, 2], degrees: 30}\n"
  "  hub:\n"
  "    mass: 2\n"
  "    inertia: [[2, -0.5, 0], [-0.5, 3, 0], [0, 0, 4]]\n"
  "    position: [1, 2, 3]\n"
  "    orientation: {axis: [1, 2, 2], angle: 0.7}\n"
  "  frame2: {mass: 1, position: [0, 0, 0], orientation: {x: [1, 1, 0], y: [0, 1, 0]}}\n"
  "  frame3: {mass: 1, position: [0, 0, 0], orientation: {z: [1, 0, 0], y: [0, 0, 1]}}\n"
  "  frame4: {mass: 1, position: [0, 0, 0], orientation: {x: [0, 1, 0], z: [0, 0, 2]}}\n"
  "  point: {mass: 0, position: [5, 0, 0]}\n"
  "  flat: {mass: 1, inertia: [0, 1, 1], position: [0, 0, 0]}\n"
  "beams:\n"
  "  arm:\n"
  "    material: steel\n"
  "    section: plate\n"
  "    from: [0, 0, 0]\n"
  "    to: [0, 0, 2]\n"
  "    elements: 10\n"
  "    y_axis: [0, 2, 0]\n"
  "    nodes: {root: start, top: end, mid: 5, last: 10}\n"
  "  bent:\n"
  "    material: soft\n"
  "    section: rod\n"
  "    points: [[0, 0, 0], [1, 0, 0], [1, 1, 0]]\n"
  "    elements: [2, 3]\n"
  "joints:\n"
  "  clamp: {type: weld, nodes: [ground, root]}\n"
  "  hinge: {type: revolute, nodes: [tip, hub], axis: [0, 3, 0], at: [0, 0, 2]}\n"
  "  ball: {type: spherical, nodes: [hub, ground], frame: {quaternion: [2, 0, 0, 0]}}\n"
  "  slide: {type: prismatic, nodes: [point, ground], axis: [0, 0, -1]}\n"
  "  cyl: {type: cylindrical, nodes: [point, hub], axis: [1, 1, 1]}\n"
  "  cross: {type: universal, nodes: [frame2, frame3], axes: [[2, 0, 0], [1, 1, 0]]}\n"
  "  plane: {type: planar, nodes: [ground, frame3], axis: [0, 0, 1]}\n"
  "  rope: {type: distance, nodes: [bent.end, ground], points: [[1, 1, 0], [1, 1, 1]]}\n"
  "  link: {type: distance, nodes: [frame4, flat]}\n"
  "  stop: {type: lock, nodes: [arm.3, ground], dofs: [rz, x, ry],"
  " frame: {axis: [0, 0, 1], degrees: 90}}\n"
  "forces:\n"
  "  spring1: {type: spring, nodes: [tip, ground], points: [[0, 0, 2], [0, 1, 2]], k: 1e4,"
  " c: 10, free_length: 1.0, preload: 5}\n"
  "  spring2: {type: spring, nodes: [tip, hub], k: 3}\n"
  "  twist: {type: rotational_spring, nodes: [ground, tip], axis: [0, 0, 5], k: 500,"
  " preload: -1}\n"
  "  mount:\n"
  "    type: bushing\n"
  "    nodes: [ground, tip]\n"
  "    at: [0, 0, 2]\n"
  "    frame: {axis: [0, 0, 1], degrees: 45}\n"
  "    stiffness: [1e6, 1e6, 1e6, 1e4, 1e4, 0]\n"
  "    damping: [[2, 1, 0, 0, 0, 0], [1, 2, 0, 0, 0, 0], [0, 0, 1, 0, 0, 0],"
  " [0, 0, 0, 1, 0, 0], [0, 0, 0, 0, 1, 0], [0, 0, 0, 0, 0, 1]]\n"
  "  push: {type: force, node: tip, at: [0, 0, 2.1], value: [0, 100, 0], frame: body}\n"
  "  spin: {type: torque, node: hub, value: [0, 0, 10]}\n"
  "output:\n"
  "  export_matrices: out/mats\n"
  "  vtk: false\n";

static void test_full_materials_sections (const deck *d)
{
  const deck_model *m = &d->model;
  CHECK ("2 materials", m->nmaterials == 2);
  if (m->nmaterials != 2) return;
  const deck_material *s = &m->materials[0], *o = &m->materials[1];
  CHECK ("steel", streq (s->name, "steel") && s->E == 210e9 && s->rho == 7850);
  CHECK ("steel G = E / (2 (1 + nu))", near (s->G, 210e9 / (2 * 1.3), 1e-15));
  CHECK ("steel undamped", s->alpha == 0 && s->beta == 0);
  CHECK ("steel name position", pos_is (full, "steel:", s->pos));
  CHECK ("soft G given", streq (o->name, "soft") && o->G == 40e6 && o->E == 100e6);
  CHECK ("soft Rayleigh", o->alpha == 1e-3 && o->beta == 1e-5);

  CHECK ("5 sections", m->nsections == 5);
  if (m->nsections != 5) return;
  /* rectangle y = 0.3, z = 0.05: a = 0.3, b = 0.05 (Roark) */
  double y = 0.3, z = 0.05, a = 0.3, b = 0.05;
  double J = a * b * b * b * (1.0 / 3 - 0.21 * b / a * (1 - b * b * b * b / (12 * a * a * a * a)));
  const deck_section *p = &m->sections[0];
  CHECK ("plate A = y z", near (p->A, y * z, 1e-15));
  CHECK ("plate Iy = y z^3 / 12", near (p->Iy, y * z * z * z / 12, 1e-15));
  CHECK ("plate Iz = z y^3 / 12", near (p->Iz, z * y * y * y / 12, 1e-15));
  CHECK ("plate J (Roark)", near (p->J, J, 1e-14));
  /* rectangle y = 0.02, z = 0.1: a = z now */
  y = 0.02, z = 0.1, a = 0.1, b = 0.02;
  J = a * b * b * b * (1.0 / 3 - 0.21 * b / a * (1 - b * b * b * b / (12 * a * a * a * a)));
  p = &m->sections[1];
  CHECK ("tall Iy, Iz", near (p->Iy, y * z * z * z / 12, 1e-15)
         && near (p->Iz, z * y * y * y / 12, 1e-15));
  CHECK ("tall J uses a = max(y, z)", near (p->J, J, 1e-14));
  p = &m->sections[2];
  double dd = 0.02;
  CHECK ("rod A = pi d^2/4", near (p->A, PI * dd * dd / 4, 1e-15));
  CHECK ("rod Iy = Iz = pi d^4/64, J = 2 Iy", near (p->Iy, PI * pow (dd, 4) / 64, 1e-15)
         && p->Iz == p->Iy && near (p->J, PI * pow (dd, 4) / 32, 1e-15));
  p = &m->sections[3];
  double Do = 0.1, Di = 0.09;
  CHECK ("pipe A", near (p->A, PI * (Do * Do - Di * Di) / 4, 1e-13));
  CHECK ("pipe Iy, Iz, J", near (p->Iy, PI * (pow (Do, 4) - pow (Di, 4)) / 64, 1e-13)
         && near (p->Iz, p->Iy, 0) && near (p->J, 2 * p->Iy, 1e-15));
  p = &m->sections[4];
  CHECK ("custom as given", streq (p->name, "custom") && p->A == 1e-3 && p->Iy == 2e-7
         && p->Iz == 3e-7 && p->J == 4e-7);
}

static void test_full_bodies (const deck *d)
{
  const deck_model *m = &d->model;
  double R[9];
  CHECK ("7 bodies", m->nbodies == 7);
  if (m->nbodies != 7) return;
  const deck_body *t = &m->bodies[0];
  CHECK ("tip", streq (t->name, "tip") && t->mass == 4000 && pos_is (full, "tip:", t->pos));
  CHECK ("tip principal inertia on the diagonal", t->J[0] == 10 && t->J[4] == 20
         && t->J[8] == 30 && t->J[1] == 0 && t->J[2] == 0 && t->J[5] == 0);
  CHECK ("tip position", t->x[0] == 0 && t->x[1] == 0 && t->x[2] == 2);
  rodrigues ((double[]) { 0, 0, 1 }, PI / 6, R);
  CHECK ("tip: 30 degrees about z = Rodrigues", diff9 (t->R, R) < 1e-15);
  CHECK ("tip: first column (cos 30, sin 30, 0)",
         column_is (t->R, 0, sqrt (3) / 2, 0.5, 0) || diff9 (t->R, R) < 1e-15);

  const deck_body *h = &m->bodies[1];
  double Jh[9] = { 2, -0.5, 0, -0.5, 3, 0, 0, 0, 4 };
  CHECK ("hub tensor kept", diff9 (h->J, Jh) == 0);
  rodrigues ((double[]) { 1, 2, 2 }, 0.7, R);
  CHECK ("hub: 0.7 rad about (1,2,2)/3 = Rodrigues", diff9 (h->R, R) < 1e-15);
  CHECK ("hub R is a rotation", is_rotation (h->R));

  /* {x: (1,1,0), y: (0,1,0)}: e1 = (1,1,0)/sqrt2, e2 = (-1,1,0)/sqrt2, e3 = (0,0,1) */
  const double r = sqrt (0.5);
  const double *F = m->bodies[2].R;
  CHECK ("x, y form: e1", column_is (F, 0, r, r, 0));
  CHECK ("x, y form: e2 made orthogonal", fabs (F[1] + r) < 1e-15 && fabs (F[4] - r) < 1e-15
         && fabs (F[7]) < 1e-15);
  CHECK ("x, y form: e3 = e1 x e2", column_is (F, 2, 0, 0, 1));
  /* {z: (1,0,0), y: (0,0,1)}: y kept first (x, y, z order), z = (1,0,0), x = y x z = (0,1,0) */
  F = m->bodies[3].R;
  CHECK ("y, z form", column_is (F, 0, 0, 1, 0) && column_is (F, 1, 0, 0, 1)
         && column_is (F, 2, 1, 0, 0));
  /* {x: (0,1,0), z: (0,0,2)}: y = z x x = (-1,0,0) */
  F = m->bodies[4].R;
  CHECK ("x, z form", column_is (F, 0, 0, 1, 0) && column_is (F, 1, -1, 0, 0)
         && column_is (F, 2, 0, 0, 1));
  const deck_body *p = &m->bodies[5];
  static const double I[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 }, Z[9];
  CHECK ("massless point: zero inertia, identity", p->mass == 0 && diff9 (p->J, Z) == 0
         && diff9 (p->R, I) == 0);
  CHECK ("flat plate inertia [0, 1, 1]: I1 + I2 = I3 accepted",
         m->bodies[6].J[0] == 0 && m->bodies[6].J[8] == 1);
}

static void test_full_beams (const deck *d)
{
  const deck_model *m = &d->model;
  CHECK ("2 beams", m->nbeams == 2);
  if (m->nbeams != 2) return;
  const deck_beam *a = &m->beams[0], *b = &m->beams[1];
  CHECK ("arm refs", streq (a->name, "arm") && streq (a->material, "steel")
         && streq (a->section, "plate"));
  CHECK ("arm ref positions", pos_is (full, "steel\n", a->pos_material)
         && pos_is (full, "plate\n", a->pos_section));
  CHECK ("arm from/to -> 2 points", a->npoints == 2 && a->points[0] == 0 && a->points[5] == 2);
  CHECK ("arm 10 elements", a->elements && a->elements[0] == 10);
  CHECK ("arm y_axis normalized", a->has_y_axis && a->y_axis[0] == 0 && a->y_axis[1] == 1
         && a->y_axis[2] == 0 && pos_is (full, "[0, 2, 0]", a->pos_y_axis));
  CHECK ("arm 4 named nodes", a->nnamed == 4);
  if (a->nnamed == 4) {
    CHECK ("root = start = 0", streq (a->named[0].name, "root") && a->named[0].index == 0);
    CHECK ("top = end = -1", streq (a->named[1].name, "top") && a->named[1].index == -1);
    CHECK ("mid = 5", streq (a->named[2].name, "mid") && a->named[2].index == 5);
    CHECK ("last = 10 (= elements, in range)", a->named[3].index == 10);
    CHECK ("node name position", pos_is (full, "mid:", a->named[2].pos));
  }
  CHECK ("bent polyline", b->npoints == 3 && b->points[3] == 1 && b->points[7] == 1);
  CHECK ("bent elements per segment", b->elements && b->elements[0] == 2 && b->elements[1] == 3);
  CHECK ("bent without y_axis", b->has_y_axis == 0 && b->pos_y_axis.line == 0);
  CHECK ("bent no named nodes", b->nnamed == 0 && b->named == NULL);
}

static void test_full_joints (const deck *d)
{
  const deck_model *m = &d->model;
  static const double I[9] = { 1, 0, 0, 0, 1, 0, 0, 0, 1 };
  double R[9];
  CHECK ("10 joints", m->njoints == 10);
  if (m->njoints != 10) return;
  const deck_joint *j = m->joints;
  CHECK ("clamp: weld ground-root, identity", j[0].type == JOINT_WELD
         && streq (j[0].node[0].name, "ground") && streq (j[0].node[1].name, "root")
         && diff9 (j[0].R, I) == 0 && !j[0].has_at && j[0].pos_axis.line == 0);
  CHECK ("clamp node positions", pos_is (full, "ground, root", j[0].node[0].pos)
         && pos_is (full, "root]", j[0].node[1].pos));
  /* revolute axis (0,1,0): least aligned global axis x (tie x, z: first); e1 = x,
     e2 = e3 x e1 = y x x = -z */
  CHECK ("hinge: revolute, at", j[1].type == JOINT_REVOLUTE && j[1].has_at && j[1].at[2] == 2);
  CHECK ("hinge frame: e1 = x, e2 = -z, e3 = y", column_is (j[1].R, 0, 1, 0, 0)
         && column_is (j[1].R, 1, 0, 0, -1) && column_is (j[1].R, 2, 0, 1, 0));
  CHECK ("hinge pos_axis", pos_is (full, "[0, 3, 0]", j[1].pos_axis));
  CHECK ("ball: quaternion [2,0,0,0] normalized -> identity", j[2].type == JOINT_SPHERICAL
         && diff9 (j[2].R, I) < 1e-16);
  /* prismatic axis (0,0,-1): g = x, e1 = x, e2 = e3 x e1 = -z x x = -y */
  CHECK ("slide frame", j[3].type == JOINT_PRISMATIC && column_is (j[3].R, 2, 0, 0, -1)
         && column_is (j[3].R, 0, 1, 0, 0) && column_is (j[3].R, 1, 0, -1, 0));
  /* cylindrical axis (1,1,1)/sqrt3: tie, g = x: e1 = (x - e3/sqrt3) normalized
     = (2, -1, -1)/sqrt6 */
  const double s3 = 1 / sqrt (3), s6 = 1 / sqrt (6);
  CHECK ("cyl e3 = unit axis", j[4].type == JOINT_CYLINDRICAL
         && fabs (j[4].R[2] - s3) < 1e-15 && fabs (j[4].R[5] - s3) < 1e-15
         && fabs (j[4].R[8] - s3) < 1e-15);
  CHECK ("cyl e1 = (2,-1,-1)/sqrt6", fabs (j[4].R[0] - 2 * s6) < 1e-15
         && fabs (j[4].R[3] + s6) < 1e-15 && fabs (j[4].R[6] + s6) < 1e-15);
  CHECK ("cyl frame is a rotation", is_rotation (j[4].R));
  /* universal axes (2,0,0), (1,1,0): e1 = x, e3 = unit(a1 x a2) = z, e2 = y */
  CHECK ("cross: universal frame = identity", j[5].type == JOINT_UNIVERSAL
         && diff9 (j[5].R, I) < 1e-15 && pos_is (full, "[[2, 0, 0]", j[5].pos_axis));
  CHECK ("plane: planar, e3 = z", j[6].type == JOINT_PLANAR && column_is (j[6].R, 2, 0, 0, 1));
  CHECK ("rope: distance with points", j[7].type == JOINT_DISTANCE && j[7].has_points
         && j[7].points[2] == 0 && j[7].points[5] == 1 && streq (j[7].node[0].name, "bent.end"));
  CHECK ("link: distance, points defaulted", j[8].type == JOINT_DISTANCE && !j[8].has_points);
  CHECK ("stop: lock mask rz | x | ry", j[9].type == JOINT_LOCK
         && j[9].lock_mask == (LOCK_RZ | LOCK_X | LOCK_RY));
  rodrigues ((double[]) { 0, 0, 1 }, PI / 2, R);
  CHECK ("stop: frame 90 degrees about z", diff9 (j[9].R, R) < 1e-15);
  CHECK ("stop: node arm.3", streq (j[9].node[0].name, "arm.3"));
}

static void test_full_forces (const deck *d)
{
  const deck_model *m = &d->model;
  double R[9];
  CHECK ("6 forces", m->nforces == 6);
  if (m->nforces != 6) return;
  const deck_force *f = m->forces;
  CHECK ("spring1", f[0].type == FORCE_SPRING && f[0].nnodes == 2 && f[0].has_points
         && f[0].points[4] == 1 && f[0].k == 1e4 && f[0].c == 10 && f[0].has_free_length
         && f[0].free_length == 1.0 && f[0].preload == 5);
  CHECK ("spring2 defaults", f[1].type == FORCE_SPRING && !f[1].has_points && f[1].c == 0
         && !f[1].has_free_length && f[1].preload == 0 && streq (f[1].node[1].name, "hub"));
  CHECK ("twist", f[2].type == FORCE_ROTATIONAL_SPRING && f[2].axis[2] == 1
         && f[2].axis[0] == 0 && f[2].k == 500 && f[2].preload == -1);
  CHECK ("mount: bushing frame and origin", f[3].type == FORCE_BUSHING && f[3].has_at
         && f[3].at[2] == 2);
  rodrigues ((double[]) { 0, 0, 1 }, PI / 4, R);
  CHECK ("mount: frame 45 degrees", diff9 (f[3].R, R) < 1e-15);
  int ok = 1;
  static const double kd[6] = { 1e6, 1e6, 1e6, 1e4, 1e4, 0 };
  for (int i = 0; i < 6; i++)
    for (int k = 0; k < 6; k++) ok &= f[3].K6[6 * i + k] == (i == k ? kd[i] : 0);
  CHECK ("mount: diagonal stiffness", ok);
  CHECK ("mount: full damping", f[3].C6[1] == 1 && f[3].C6[6] == 1 && f[3].C6[0] == 2
         && f[3].C6[35] == 1 && f[3].C6[2] == 0);
  CHECK ("push: force, body frame", f[4].type == FORCE_POINT && f[4].nnodes == 1
         && streq (f[4].node[0].name, "tip") && f[4].node[1].name == NULL && f[4].has_at
         && f[4].at[2] == 2.1 && f[4].value[1] == 100 && f[4].body_fixed == 1);
  CHECK ("spin: torque, global by default", f[5].type == FORCE_TORQUE && f[5].nnodes == 1
         && f[5].value[2] == 10 && f[5].body_fixed == 0 && !f[5].has_at);
  CHECK ("force name position", pos_is (full, "spin:", f[5].pos));
}

static void test_full (void)
{
  deck d;
  mb_err e;
  int rc = parse (full, &d, &e);
  CHECK ("full model deck parses", rc == 0);
  if (rc) return;
  CHECK ("model present", d.model.present == 1);
  CHECK ("no matrices", d.matrices.K == NULL && d.matrices.M == NULL);
  CHECK ("gravity", d.model.gravity[0] == 0 && d.model.gravity[2] == -9.81);
  CHECK ("has damping (soft alpha, spring c, bushing damping)", d.model.has_damping == 1);
  CHECK ("complex on by default with damping", d.damped.enabled == 1);
  CHECK ("export_matrices kept as written", streq (d.output.export_matrices, "out/mats"));
  CHECK ("vtk false", d.output.vtk == 0);
  CHECK ("title", streq (d.title, "model deck test"));
  test_full_materials_sections (&d);
  test_full_bodies (&d);
  test_full_beams (&d);
  test_full_joints (&d);
  test_full_forces (&d);
  deck_clear (&d);
  CHECK ("deck_clear zeroes a model deck", all_zero (&d));
}

/* ---- orientation forms against each other ---- */

static void test_rotations (void)
{
  static const double cases[][4] = {   /* axis, angle [rad] */
    { 1, 0, 0, 0.3 }, { 0, 1, 0, -2.0 }, { 1, 2, 3, 1.1 }, { -0.3, 0.2, 0.9, 3.0 },
    { 5, -4, 1e-3, PI }, { 0, 0, 1, 0 }, { 1, 1, 1, 12.0 },
  };
  for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    const double *a = cases[i];
    double l = sqrt (a[0] * a[0] + a[1] * a[1] + a[2] * a[2]), t = a[3], R[9];
    double q[4] = { cos (t / 2), sin (t / 2) * a[0] / l, sin (t / 2) * a[1] / l,
                    sin (t / 2) * a[2] / l };
    char text[1024];
    snprintf (text, sizeof text,
              "units: SI\nbodies:\n"
              "  a: {mass: 1, position: [0, 0, 0], orientation: {axis: [%.17g, %.17g, %.17g],"
              " angle: %.17g}}\n"
              "  d: {mass: 1, position: [0, 0, 0], orientation: {axis: [%.17g, %.17g, %.17g],"
              " degrees: %.17g}}\n"
              "  q: {mass: 1, position: [0, 0, 0], orientation: {quaternion: [%.17g, %.17g,"
              " %.17g, %.17g]}}\n"
              "  s: {mass: 1, position: [0, 0, 0], orientation: {quaternion: [%.17g, %.17g,"
              " %.17g, %.17g]}}\n",
              a[0], a[1], a[2], t, a[0], a[1], a[2], t * 180 / PI, q[0], q[1], q[2], q[3],
              -3 * q[0], -3 * q[1], -3 * q[2], -3 * q[3]);
    deck d;
    mb_err e;
    if (parse (text, &d, &e)) {
      CHECK ("rotation deck parses", 0);
      continue;
    }
    rodrigues (a, t, R);
    const deck_body *b = d.model.bodies;
    CHECK ("axis-angle = Rodrigues", diff9 (b[0].R, R) < 1e-14);
    CHECK ("degrees = radians", diff9 (b[1].R, R) < 1e-14);
    CHECK ("quaternion = axis-angle", diff9 (b[2].R, R) < 1e-14);
    CHECK ("scaled, negated quaternion = same rotation", diff9 (b[3].R, R) < 1e-14);
    CHECK ("each is a rotation", is_rotation (b[0].R) && is_rotation (b[2].R));
    /* two-axes form from the columns of R: x and a tilted y give R back */
    snprintf (text, sizeof text,
              "units: SI\nbodies:\n"
              "  t: {mass: 1, position: [0, 0, 0], orientation: {x: [%.17g, %.17g, %.17g],"
              " y: [%.17g, %.17g, %.17g]}}\n",
              2 * R[0], 2 * R[3], 2 * R[6], R[1] + 0.5 * R[0], R[4] + 0.5 * R[3],
              R[7] + 0.5 * R[6]);
    deck_clear (&d);
    if (parse (text, &d, &e)) {
      CHECK ("two-axes deck parses", 0);
      continue;
    }
    CHECK ("two axes (x, y + x/2) rebuild R", diff9 (d.model.bodies[0].R, R) < 1e-14);
    deck_clear (&d);
  }
}

/* ---- the complex stage's default ---- */

static void test_damping_default (void)
{
  static const struct { const char *extra; int damped, enabled; } t[] = {
    { "", 0, 0 },
    { "complex: {enabled: true}\n", 0, 1 },         /* allowed on an undamped model */
    { "materials: {m: {E: 1, nu: 0, rho: 1, beta: 1e-4}}\n", 1, 1 },
    { "materials: {m: {E: 1, nu: 0, rho: 1, alpha: 0, beta: 0}}\n", 0, 0 },
    { "forces: {s: {type: spring, nodes: [b, ground], points: [[0, 0, 0], [1, 0, 0]],"
      " k: 1, c: 0}}\n", 0, 0 },
    { "forces: {s: {type: rotational_spring, nodes: [b, ground], axis: [1, 0, 0], k: 1,"
      " c: 0.5}}\n", 1, 1 },
    { "forces: {s: {type: bushing, nodes: [b, ground], stiffness: [1, 1, 1, 1, 1, 1],"
      " damping: [0, 0, 0, 0, 0, 1e-9]}}\n", 1, 1 },
    { "forces: {s: {type: bushing, nodes: [b, ground], stiffness: [1, 1, 1, 1, 1, 1],"
      " damping: [0, 0, 0, 0, 0, 0]}}\n", 0, 0 },
    { "materials: {m: {E: 1, nu: 0, rho: 1, alpha: 2}}\ncomplex: {enabled: no}\n", 1, 0 },
  };
  for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
    char text[512];
    snprintf (text, sizeof text, "units: SI\nbodies: {b: {mass: 1, position: [0, 0, 0]}}\n%s",
              t[i].extra);
    deck d;
    mb_err e;
    int rc = parse (text, &d, &e);
    CHECK ("damping case parses", rc == 0);
    CHECK ("has_damping", d.model.has_damping == t[i].damped);
    CHECK ("complex enabled", d.damped.enabled == t[i].enabled);
    CHECK ("defaults: vtk on, no export", d.output.vtk == 1 && d.output.export_matrices == NULL);
    deck_clear (&d);
  }
}

/* vertices named in points: the node index follows 'elements' (vertex v is node
   sum_{s < v} elements[s]), after the names of nodes:; planar: and masses: are read */
static void test_named_points (void)
{
  static const struct { const char *elements; int foot, corner; } t[] = {
    { "[3, 5]", 0, 3 }, { "[2, 4]", 0, 2 }, { "7", 0, 7 },
  };
  for (size_t i = 0; i < sizeof t / sizeof t[0]; i++) {
    char text[512];
    snprintf (text, sizeof text, "units: SI\nmaterials: {m: {E: 1, nu: 0, rho: 1}}\n"
              "sections: {s: {shape: circle, diameter: 0.1}}\nplanar: XY\n"
              "beams:\n  f: {material: m, section: s, elements: %s, nodes: {tip: end},\n"
              "      points: [{at: [0, 0, 0], name: foot}, {name: corner, at: [0, 1, 0]},"
              " [1, 1, 0]]}\nmasses: {pm: {node: corner, mass: 2, offset: [0, 0, 0.5]}}\n",
              t[i].elements);
    deck d;
    mb_err e;
    int rc = parse (text, &d, &e);
    CHECK ("named points parse", rc == 0);
    if (rc) { printf ("  %s\n", e.msg); continue; }
    const deck_beam *b = &d.model.beams[0];
    CHECK ("three named nodes", b->nnamed == 3 && b->nvnamed == 0 && !b->vnamed);
    CHECK ("nodes: first", b->nnamed == 3 && !strcmp (b->named[0].name, "tip"));
    CHECK ("foot at its vertex", b->nnamed == 3 && !strcmp (b->named[1].name, "foot")
           && b->named[1].index == t[i].foot);
    CHECK ("corner at its vertex", b->nnamed == 3 && !strcmp (b->named[2].name, "corner")
           && b->named[2].index == t[i].corner);
    CHECK ("vertex coordinates", b->npoints == 3 && b->points[4] == 1.0 && b->points[6] == 1.0);
    CHECK ("planar xy", d.model.planar == PLANAR_XY);
    CHECK ("a mass", d.model.nmasses == 1 && d.model.masses[0].mass == 2.0
           && d.model.masses[0].offset[2] == 0.5 && !strcmp (d.model.masses[0].node.name, "corner"));
    deck_clear (&d);
  }
}

/* ---- bad model decks: position of a marker and a piece of the message ---- */

typedef struct bad {
  const char *text;
  const char *at;    /* the error is at the first occurrence of this text */
  const char *msg;   /* substring of the message */
} bad;

#define B "units: SI\nbodies:\n  b: {mass: 1, position: [0, 0, 0]}\n"   /* lines 1-3 */

static const bad bads[] = {
  /* matrices or a model */
  { "matrices: {K: a, M: b}\nunits: SI\n", "units", "give either 'matrices' or a model"
    " (bodies/beams), not both" },
  { B "matrices: {K: a, M: b}\n", "matrices", "not both" },
  { "modal: {modes: 3}\n", "modal", "the deck needs either 'matrices' or a model"
    " (bodies/beams)" },
  { "bodies:\n  b: {mass: 1, position: [0, 0, 0]}\n", "bodies", "missing required key"
    " 'units': a model deck must say 'units: SI'" },
  { "units: imperial\nbodies: {b: {mass: 1, position: [0, 0, 0]}}\n", "imperial",
    "'units' must be SI (m, kg, s, N, Pa, rad: the only system accepted) (got 'imperial')" },
  { "units:\nbodies: {b: {mass: 1, position: [0, 0, 0]}}\n", "units", "'units' must be SI" },
  { "units: SI\ngravity: [0, 0, -9.81]\n", "units", "the model has no bodies and no beams" },
  { "units: SI\nbodies: {}\n", "units", "the model has no bodies and no beams" },
  { B "gravity: [0, 0]\n", "[0, 0]\n", "'gravity' must have exactly 3 numbers (got 2)" },
  { B "gravity: [0, 0, g]\n", "g]", "'gravity[2]' must be a number (got 'g')" },
  { B "gravity: [0, 0, .nan]\n", ".nan", "'gravity[2]' must be a finite number" },
  /* materials */
  { B "materials:\n  soft: {E: -1, nu: 0.3, rho: 1}\n", "-1",
    "material 'soft': 'E' must be > 0 (got -1)" },
  { B "materials:\n  soft: {E: 1, nu: 0.5, rho: 1}\n", "0.5",
    "material 'soft': 'nu' must be in (-1, 0.5) (got 0.5)" },
  { B "materials:\n  soft: {E: 1, nu: -1, rho: 1}\n", "-1", "'nu' must be in (-1, 0.5)" },
  { B "materials:\n  soft: {E: 1, G: 1, nu: 0.3, rho: 1}\n", "nu",
    "material 'soft': give either 'nu' or 'G', not both" },
  { B "materials:\n  soft: {E: 1, rho: 1}\n", "{E", "material 'soft': missing 'nu' or 'G'" },
  { B "materials:\n  soft: {E: 1, nu: 0.3}\n", "{E",
    "material 'soft': missing required key 'rho'" },
  { B "materials:\n  soft: {E: 1, nu: 0.3, rho: 1, alpha: -1e-3}\n", "-1e-3",
    "material 'soft': 'alpha' must be >= 0 (got -1e-3)" },
  { B "materials:\n  soft: {E: 1, nu: 0.3, rho: 1, alpah: 1}\n", "alpah",
    "material 'soft': unknown key 'alpah' (expected E, nu, G, rho, alpha, beta; did you mean"
    " 'alpha'?)" },
  { B "materials:\n  soft: {E: 1, nu: 0.3, rho: 1}\n  soft: {E: 2, nu: 0.3, rho: 1}\n",
    "soft: {E: 2", "material 'soft' is defined twice (first at 5:3)" },
  { B "materials:\n  soft: 5\n", "5\n", "material 'soft' must be a mapping (got '5')" },
  { B "materials:\n  soft:\n", "soft", "material 'soft' must be a mapping (got an empty"
    " value)" },
  { B "materials: [a]\n", "[a]", "'materials' must be a mapping (got a sequence)" },
  { B "materials:\n  [a]: {E: 1}\n", "[a]", "materials: names must be plain scalars" },
  { B "materials:\n  '': {E: 1}\n", "''", "materials: a name must not be empty" },
  { B "materials:\n  soft: {E: 1, nu: 0.3, rho: 1, rho: 2}\n", "rho: 2",
    "material 'soft': duplicate key 'rho' (first at line 5)" },
  /* sections */
  { B "sections:\n  plate: {shape: rectangle, y: -0.3, z: 0.05}\n", "-0.3",
    "section 'plate': 'y' must be > 0 (got -0.3)" },
  { B "sections:\n  plate: {shape: rectangle, y: 0.3}\n", "{shape",
    "section 'plate': missing required key 'z'" },
  { B "sections:\n  r: {shape: circle, diameter: 1, A: 1}\n", "A:",
    "section 'r': 'A' is not used by a circle section (it takes shape, diameter, Asy,"
    " Asz, shear_factor)" },
  { B "sections:\n  c: {A: 1, Iy: 1, Iz: 1, J: 1, y: 1}\n", "y: 1}",
    "section 'c': 'y' is not used by a section without 'shape' (it takes shape, A, Iy, Iz,"
    " J, Asy, Asz, shear_factor)" },
  { B "sections:\n  c: {A: 1, Iy: 1, Iz: 1}\n", "{A", "section 'c': missing required key 'J'" },
  { B "sections:\n  c: {shape: rectangel, y: 1, z: 1}\n", "rectangel",
    "section 'c': unknown shape 'rectangel' (expected rectangle, circle, tube; did you mean"
    " 'rectangle'?)" },
  { B "sections:\n  c: {shape: , y: 1, z: 1}\n", "shape",
    "section 'c': 'shape' must be one of rectangle, circle, tube (got an empty value)" },
  { B "sections:\n  p: {shape: tube, outer_diameter: 0.1, wall: 0.06}\n", "0.06",
    "section 'p': 'wall' must be < outer_diameter/2 = 0.05 (got 0.06)" },
  { B "sections:\n  p: {shape: tube, outer_diameter: 0.1, wall: 0.05}\n", "0.05}",
    "'wall' must be < outer_diameter/2" },
  { B "sections:\n  p: {shape: circle, diameter: 1e-90}\n", "{shape",
    "section 'p': the section properties are out of range" },
  { B "sections:\n  p: {shape: circle, diameter: 1e100}\n", "{shape",
    "section 'p': the section properties are out of range" },
  /* bodies: inertia */
  { "units: SI\nbodies:\n  tip: {mass: 1, position: [0, 0, 0], inertia: [-1, 2, 3]}\n",
    "[-1", "body 'tip': inertia is not positive semi-definite (principal moments -1, 2, 3)" },
  { "units: SI\nbodies:\n  tip: {mass: 1, position: [0, 0, 0], inertia: [1, 1, 3]}\n",
    "[1, 1, 3]", "body 'tip': inertia violates the triangle inequality I1 + I2 >= I3"
    " (principal moments 1, 1, 3)" },
  { "units: SI\nbodies:\n  tip: {mass: 1, position: [0, 0, 0], inertia: [1, 2.000001, 3.00001]}\n",
    "[1", "triangle inequality" },
  /* [[1,2,0],[2,1,0],[0,0,1]]: the 2x2 block has eigenvalues 1 -+ 2 */
  { "units: SI\nbodies:\n  t:\n    mass: 1\n    position: [0, 0, 0]\n"
    "    inertia: [[1, 2, 0], [2, 1, 0], [0, 0, 1]]\n", "[[1",
    "body 't': inertia is not positive semi-definite (principal moments -1, 1, 3)" },
  { "units: SI\nbodies:\n  t:\n    mass: 1\n    position: [0, 0, 0]\n"
    "    inertia: [[1, 0, 0], [0.5, 1, 0], [0, 0, 1]]\n", "[[1",
    "body 't': inertia is not symmetric (inertia[0][1] = 0 but inertia[1][0] = 0.5)" },
  { "units: SI\nbodies:\n  t:\n    mass: 1\n    position: [0, 0, 0]\n"
    "    inertia: [[1, 0, 0], [0, 1, 0], [0, 0]]\n", "[0, 0]]",
    "body 't': 'inertia[2]' must have exactly 3 numbers (got 2)" },
  { "units: SI\nbodies:\n  t: {mass: 1, position: [0, 0, 0], inertia: [1, 2]}\n", "[1, 2]",
    "body 't': 'inertia' must have 3 principal moments or 3 rows (got 2)" },
  { "units: SI\nbodies:\n  t: {mass: 1, position: [0, 0, 0], inertia: 5}\n", "5}",
    "body 't': 'inertia' must be [I1, I2, I3] or a 3x3 symmetric tensor" },
  { "units: SI\nbodies:\n  p: {mass: 0, position: [0, 0, 0], inertia: [0, 1e-3, 1e-3]}\n",
    "[0, 1e-3", "body 'p': mass is 0 but inertia is not (a massless point must have zero"
    " inertia)" },
  { "units: SI\nbodies:\n  p: {mass: -2, position: [0, 0, 0]}\n", "-2",
    "body 'p': 'mass' must be >= 0 (got -2)" },
  { "units: SI\nbodies:\n  p: {mass: 2}\n", "{mass", "body 'p': missing required key"
    " 'position'" },
  { "units: SI\nbodies:\n  p: {mass: 2, position: [0, 0, 0], velocity: 1}\n", "velocity",
    "body 'p': unknown key 'velocity' (expected mass, inertia, position, orientation, spin)" },
  { "units: SI\nbodies:\n  p: {mass: 2, position: {x: 1}}\n", "{x",
    "body 'p': 'position' must be a sequence of 3 numbers (got a mapping)" },
  /* names */
  { "units: SI\nbodies:\n  ground: {mass: 1, position: [0, 0, 0]}\n", "ground",
    "body 'ground': the name 'ground' is reserved for the ground" },
  { "units: SI\nbodies:\n  a.b: {mass: 1, position: [0, 0, 0]}\n", "a.b",
    "body 'a.b': names of bodies, beams and nodes must not contain '.'" },
  { B "beams:\n  b: {material: m, section: s, from: [0, 0, 0], to: [1, 0, 0], elements: 1}\n",
    "b: {material", "beam 'b': the name is already taken by a body (first at 3:3)" },
  { "units: SI\nbeams:\n  arm: {material: m, section: s, from: [0, 0, 0], to: [1, 0, 0],"
    " elements: 2, nodes: {tip: end}}\nbodies:\n  tip: {mass: 1, position: [0, 0, 0]}\n",
    "tip: {mass", "body 'tip': the name is already taken by a node of beam 'arm' (first at"
    " 3:87)" },
  { "units: SI\nbeams:\n  a1: {material: m, section: s, from: [0, 0, 0], to: [1, 0, 0],"
    " elements: 2, nodes: {n: end}}\n  a2: {material: m, section: s, from: [0, 0, 0],"
    " to: [1, 0, 0], elements: 2, nodes: {n: start}}\n", "n: start",
    "beam 'a2': node 'n': the name is already taken by a node of beam 'a1' (first at 3:86)" },
  { "units: SI\nbodies:\n  b: {mass: 1, position: [0, 0, 0]}\n  b: {mass: 2,"
    " position: [0, 0, 0]}\n", "b: {mass: 2", "body 'b' is defined twice (first at 3:3)" },
  /* orientation */
  { B "  o: {mass: 1, position: [0, 0, 0], orientation: {axis: [0, 0, 0], angle: 1}}\n",
    "[0, 0, 0], angle", "body 'o': orientation: 'axis' must not be the zero vector" },
  { B "  o: {mass: 1, position: [0, 0, 0], orientation: {axis: [0, 0, 1]}}\n", "axis",
    "body 'o': orientation: 'axis' needs 'angle' [rad] or 'degrees'" },
  { B "  o: {mass: 1, position: [0, 0, 0], orientation: {degrees: 3}}\n", "degrees",
    "body 'o': orientation: 'degrees' needs 'axis'" },
  { B "  o: {mass: 1, position: [0, 0, 0], orientation: {axis: [0, 0, 1], angle: 1,"
    " degrees: 3}}\n", "degrees", "give either 'angle' or 'degrees', not both" },
  { B "  o: {mass: 1, position: [0, 0, 0], orientation: {x: [1, 0, 0], y: [2, 0, 0]}}\n",
    "[2, 0, 0]", "body 'o': orientation: 'x' and 'y' are parallel" },
  { B "  o: {mass: 1, position: [0, 0, 0], orientation: {z: [0, 0, 1], x: [0, 0, -3]}}\n",
    "[0, 0, -3]", "body 'o': orientation: 'x' and 'z' are parallel" },
  { B "  o: {mass: 1, position: [0, 0, 0], orientation: {x: [1, 0, 0], y: [0, 1, 0],"
    " z: [0, 0, 1]}}\n", "z:", "body 'o': orientation: give two of x, y, z, not three" },
  { B "  o: {mass: 1, position: [0, 0, 0], orientation: {y: [1, 0, 0]}}\n", "y:",
    "body 'o': orientation: give two of x, y, z (got only 'y')" },
  { B "  o: {mass: 1, position: [0, 0, 0], orientation: {y: [1, 0, 0], x: [0, 0, 0]}}\n",
    "x: |[0, 0, 0]", "body 'o': orientation: 'x' must not be the zero vector" },
  { B "  o: {mass: 1, position: [0, 0, 0], orientation: {quaternion: [0, 0, 0, 0]}}\n",
    "[0, 0, 0, 0]", "body 'o': orientation: 'quaternion' must not be zero" },
  { B "  o: {mass: 1, position: [0, 0, 0], orientation: {quaternion: [1, 0, 0]}}\n",
    "[1, 0, 0]", "'quaternion' must have exactly 4 numbers (got 3)" },
  { B "  o: {mass: 1, position: [0, 0, 0], orientation: {axis: [0, 0, 1], x: [1, 0, 0],"
    " angle: 1}}\n", "x:", "body 'o': orientation: 'x' does not mix with 'axis'" },
  { B "  o: {mass: 1, position: [0, 0, 0], orientation: {}}\n", "{}",
    "body 'o': orientation: give {axis, angle | degrees}, two of {x, y, z}, or {quaternion}" },
  { B "  o: {mass: 1, position: [0, 0, 0], orientation: {axis: [0, 0, 1], angel: 1}}\n",
    "angel", "body 'o': orientation: unknown key 'angel' (expected axis, angle, degrees, x,"
    " y, z, quaternion; did you mean 'angle'?)" },
  { B "  o: {mass: 1, position: [0, 0, 0], orientation: [1, 0, 0]}\n", "[1, 0, 0]}",
    "body 'o': 'orientation' must be a mapping" },
  /* beams */
  { B "beams:\n  arm: {material: m, section: s, points: [[0, 0, 0], [1, 0, 0], [1, 0, 0]],"
    " elements: 1}\n", "[1, 0, 0]]", "beam 'arm': segment 2 has zero length (points 2 and 3"
    " coincide)" },
  { B "beams:\n  arm: {material: m, section: s, from: [1, 2, 3], to: [1, 2, 3], elements: 1}\n",
    "[1, 2, 3], elements", "beam 'arm': segment 1 has zero length ('from' and 'to' coincide)" },
  { B "beams:\n  arm: {material: m, section: s, from: [0, 0, 0], points: [[0, 0, 0],"
    " [1, 0, 0]], elements: 1}\n", "points", "beam 'arm': give either 'points' or 'from' and"
    " 'to', not both" },
  { B "beams:\n  arm: {material: m, section: s, from: [0, 0, 0], elements: 1}\n", "from",
    "beam 'arm': 'from' needs 'to'" },
  /* the pair checks (pair_of) and the beam and orientation steps split out of beam_obj and
     orientation_fn: each message's text from the format in deck_model.c */
  { B "beams:\n  arm: {material: m, section: s, to: [1, 0, 0], elements: 1}\n", "to:",
    "beam 'arm': 'to' needs 'from'" },
  { B "beams:\n  arm: {material: m, section: s, from: [0, 0, 0], to: [1, 0, 0],"
    " elements: [1, 2]}\n", "[1, 2]", "beam 'arm': 'elements' has 2 entries but the beam has"
    " 1 segment" },
  { B "  o: {mass: 1, position: [0, 0, 0], orientation: {angle: 1}}\n", "angle",
    "body 'o': orientation: 'angle' needs 'axis'" },
  { B "joints:\n  u: {type: universal, nodes: [ground, b], axes: 7}\n", "7}",
    "joint 'u': 'axes' must be a sequence of 2 axes [[x, y, z], [x, y, z]] (got '7')" },
  { B "joints:\n  h: {type: revolute, nodes: ground, axis: [0, 0, 1]}\n", "ground,",
    "joint 'h': 'nodes' must be a sequence of 2 node names [A, B] (got 'ground')" },
  { B "forces:\n  s: {type: spring, nodes: [ground, b], points: [[0, 0, 0]], k: 1}\n",
    "[[0", "force 's': 'points' must have exactly 2 points [pA, pB] (got 1)" },
  { B "forces:\n  s: {type: spring, nodes: [ground, b], points: 5, k: 1}\n", "5,",
    "force 's': 'points' must be a sequence of 2 points [pA, pB] (got '5')" },
  /* the sweep's lists (list_length, list_numbers in deck_sweep.c); the caps 10000 values
     and 4 orders from deck_sweep.h */
  { B "sweep: {parameter: bodies.b.mass, values: 3}\n", "3}",
    "sweep: 'values' must be a list of 1 to 10000 numbers (got '3')" },
  { B "sweep: {parameter: bodies.b.mass, values: [1, x]}\n", "x]",
    "sweep: 'values[1]' must be a number" },
  { B "sweep: {parameter: bodies.b.mass, values: [1], orders: [1, 2, 3, 4, 5]}\n", "[1, 2",
    "sweep: 'orders' must be a list of 1 to 4 positive numbers (got a sequence)" },
  { B "sweep: {parameter: bodies.b.mass, values: [1], orders: [1, 0]}\n", "[1, |0]}",
    "sweep: 'orders[1]' must be in (0, 1e6] (got 0)" },
  { B "beams:\n  arm: {material: m, section: s, elements: 1}\n", "{material",
    "beam 'arm': give 'from' and 'to', or 'points'" },
  { B "beams:\n  arm: {material: m, section: s, points: [[0, 0, 0]], elements: 1}\n",
    "[[0", "beam 'arm': 'points' must have at least 2 points (got 1)" },
  { B "beams:\n  arm: {material: m, section: s, points: [[0, 0, 0], [1, 0]], elements: 1}\n",
    "[1, 0]]", "beam 'arm': 'points[1]' must have exactly 3 numbers (got 2)" },
  { B "beams:\n  arm: {material: m, section: s, points: [[0, 0, 0], [1, 0, 0], [1, 1, 0]],"
    " elements: [1, 2, 3]}\n", "[1, 2, 3]", "beam 'arm': 'elements' has 3 entries but the"
    " beam has 2 segments" },
  { B "beams:\n  arm: {material: m, section: s, from: [0, 0, 0], to: [1, 0, 0], elements: 0}\n",
    "0}", "beam 'arm': 'elements' must be an integer in 1 .. 10000000 (got 0)" },
  { B "beams:\n  arm: {material: m, section: s, points: [[0, 0, 0], [1, 0, 0], [1, 1, 0]],"
    " elements: [1, 0]}\n", "[1, |0]}", "beam 'arm': 'elements[1]' must be an integer in"
    " 1 .. 10000000 (got 0)" },
  { B "beams:\n  arm: {material: m, section: s, points: [[0, 0, 0], [1, 0, 0], [1, 1, 0]],"
    " elements: [9000000, 2000000]}\n", "[9000000", "beam 'arm': 11000000 elements in all;"
    " at most 10000000 per beam" },
  { B "beams:\n  arm: {material: m, section: s, from: [0, 0, 0], to: [1, 0, 0]}\n",
    "{material", "beam 'arm': missing required key 'elements'" },
  { B "beams:\n  arm: {section: s, from: [0, 0, 0], to: [1, 0, 0], elements: 1}\n",
    "{section", "beam 'arm': missing required key 'material'" },
  { B "beams:\n  arm: {material: m, section: s, points: [[0, 0, 0], [1, 0, 0], [1, 1, 0]],"
    " elements: 1, y_axis: [0, -2, 0]}\n", "[0, -2, 0]", "beam 'arm': 'y_axis' is parallel to"
    " segment 2" },
  { B "beams:\n  arm: {material: m, section: s, from: [0, 0, 0], to: [1, 0, 0], elements: 1,"
    " y_axis: [0, 0, 0]}\n", "y_axis: |[0", "beam 'arm': 'y_axis' must not be the zero vector" },
  { B "beams:\n  arm: {material: m, section: s, from: [0, 0, 0], to: [1, 0, 0], elements: 4,"
    " nodes: {mid: 5}}\n", "5}", "beam 'arm': node 'mid' index 5 is out of range (the beam"
    " has 4 elements: indices 0 .. 4)" },
  { B "beams:\n  arm: {material: m, section: s, points: [[0, 0, 0], [1, 0, 0], [1, 1, 0]],"
    " elements: [2, 3], nodes: {a: 5, b: 6}}\n", "6}", "node 'b' index 6 is out of range (the"
    " beam has 5 elements: indices 0 .. 5)" },
  { B "beams:\n  arm: {material: m, section: s, from: [0, 0, 0], to: [1, 0, 0], elements: 4,"
    " nodes: {mid: middle}}\n", "middle", "beam 'arm': node 'mid' must be start, end or an"
    " index 0 .. number of elements (got 'middle')" },
  { B "beams:\n  arm: {material: m, section: s, from: [0, 0, 0], to: [1, 0, 0], elements: 4,"
    " nodes: {mid: -1}}\n", "-1", "beam 'arm': node 'mid' must be start, end or an index" },
  { B "beams:\n  arm: {material: m, section: s, from: [0, 0, 0], to: [1, 0, 0], elements: 4,"
    " nodes: {ground: end}}\n", "ground", "beam 'arm': node 'ground': the name 'ground' is"
    " reserved for the ground" },
  { B "beams:\n  arm: {material: m, section: s, from: [0, 0, 0], to: [1, 0, 0], elements: 4,"
    " nodes: {arm.tip: end}}\n", "arm.tip", "beam 'arm': node 'arm.tip': names of bodies,"
    " beams and nodes must not contain '.'" },
  { B "beams:\n  ground: {material: m, section: s, from: [0, 0, 0], to: [1, 0, 0],"
    " elements: 4}\n", "ground", "beam 'ground': the name 'ground' is reserved" },
  { B "beams:\n  arm: {material: m, section: s, from: [0, 0, 0], to: [1, 0, 0], elements: 4,"
    " nodes: [a]}\n", "[a]", "beam 'arm': 'nodes' must be a mapping NAME: start | end |"
    " index" },
  /* joints */
  { B "joints:\n  j: {type: revolut, nodes: [ground, b], axis: [0, 0, 1]}\n", "revolut",
    "joint 'j': unknown type 'revolut' (expected weld, revolute, spherical, prismatic,"
    " cylindrical, universal, planar, distance, lock; did you mean 'revolute'?)" },
  { B "joints:\n  j: {nodes: [ground, b]}\n", "{nodes", "joint 'j': missing required key"
    " 'type'" },
  { B "joints:\n  clamp: {type: weld, nodes: [ground, b], axis: [0, 0, 1]}\n", "axis",
    "joint 'clamp': 'axis' is not used by a weld joint (it takes type, nodes, at, frame)" },
  { B "joints:\n  j: {type: distance, nodes: [ground, b], at: [0, 0, 1]}\n", "at:",
    "joint 'j': 'at' is not used by a distance joint (it takes type, nodes, points)" },
  { B "joints:\n  j: {type: spherical, nodes: [ground, b], dofs: [x]}\n", "dofs",
    "joint 'j': 'dofs' is not used by a spherical joint" },
  { B "joints:\n  hinge: {type: revolute, nodes: [ground, b]}\n", "{type",
    "joint 'hinge': missing required key 'axis'" },
  { B "joints:\n  hinge: {type: revolute, nodes: [ground, b], axis: [0, 0, 0]}\n",
    "axis: |[0", "joint 'hinge': 'axis' must not be the zero vector" },
  { B "joints:\n  u: {type: universal, nodes: [ground, b], axes: [[1, 0, 0], [-2, 0, 0]]}\n",
    "[[1", "joint 'u': universal axes are parallel" },
  { B "joints:\n  u: {type: universal, nodes: [ground, b], axes: [[1, 0, 0]]}\n",
    "[[1", "joint 'u': 'axes' must have exactly 2 axes (got 1)" },
  { B "joints:\n  u: {type: universal, nodes: [ground, b], axes: [[1, 0, 0], [0, 0, 0]]}\n",
    "[0, 0, 0]]", "joint 'u': 'axes[1]' must not be the zero vector" },
  { B "joints:\n  u: {type: universal, nodes: [ground, b]}\n", "{type",
    "joint 'u': missing required key 'axes'" },
  { B "joints:\n  l: {type: lock, nodes: [ground, b], dofs: [x, rz, x]}\n", "x]",
    "joint 'l': 'dofs' repeats 'dx'" },
  { B "joints:\n  l: {type: lock, nodes: [ground, b], dofs: [dz, rz, z]}\n", "z]",
    "joint 'l': 'dofs' repeats 'dz'" },
  { B "joints:\n  l: {type: lock, nodes: [ground, b], dofs: [x, q]}\n", "q]",
    "joint 'l': unknown dof 'q' in 'dofs' (expected dx, dy, dz, rx, ry, rz; x, y, z are the"
    " old names of dx, dy, dz)" },
  { B "joints:\n  l: {type: lock, nodes: [ground, b], dofs: []}\n", "[]",
    "joint 'l': 'dofs' must list at least one of dx, dy, dz, rx, ry, rz" },
  { B "joints:\n  l: {type: lock, nodes: [ground, b]}\n", "{type",
    "joint 'l': missing required key 'dofs'" },
  { B "joints:\n  j: {type: weld, nodes: [ground, ground]}\n", "ground]",
    "joint 'j': 'nodes' are both ground: one end must be a body or beam node" },
  { B "joints:\n  j: {type: weld, nodes: [b, b]}\n", "b]}", "joint 'j': 'nodes' names 'b'"
    " twice" },
  { B "joints:\n  j: {type: weld, nodes: [b, ground, b]}\n", "[b,",
    "joint 'j': 'nodes' must name exactly 2 nodes [A, B] (got 3)" },
  { B "joints:\n  j: {type: weld, nodes: [b, [c]]}\n", "[c]",
    "joint 'j': 'nodes[1]' must be a node name (got a sequence)" },
  { B "joints:\n  j: {type: weld}\n", "{type", "joint 'j': missing required key 'nodes'" },
  { B "joints:\n  d: {type: distance, nodes: [ground, b], points: [[1, 2, 3], [1, 2, 3]]}\n",
    "[[1", "joint 'd': the two points coincide" },
  { B "joints:\n  w: {type: weld, nodes: [ground, b], frame: {x: [1, 0, 0], y: [1, 0, 0]}}\n",
    "[1, 0, 0]}}", "joint 'w': frame: 'x' and 'y' are parallel" },
  { B "joints:\n  w: {type: weld, nodes: [ground, b]}\n  w: {type: weld, nodes: [ground, b]}\n",
    "b]}\n  |w:", "joint 'w' is defined twice (first at 5:3)" },
  /* forces */
  { B "forces:\n  s: {type: spring, nodes: [b, ground], k: 1}\n", "ground]",
    "force 's': 'points' is required when an end is ground" },
  { B "forces:\n  s: {type: spring, nodes: [b, ground], points: [[0, 0, 0], [0, 0, 0]],"
    " k: 1}\n", "[[0", "force 's': the two points coincide" },
  { B "forces:\n  s: {type: spring, nodes: [b, ground], points: [[0, 0, 0], [0, 0, 1]],"
    " k: -1}\n", "-1", "force 's': 'k' must be >= 0 (got -1)" },
  { B "forces:\n  s: {type: spring, nodes: [b, ground], points: [[0, 0, 0], [0, 0, 1]]}\n",
    "{type", "force 's': missing required key 'k'" },
  { B "forces:\n  s: {type: spring, nodes: [b, ground], k: 1, axis: [0, 0, 1]}\n", "axis",
    "force 's': 'axis' is not used by a spring (it takes type, nodes, points, k, c,"
    " free_length, preload)" },
  { B "forces:\n  s: {type: spring, nodes: [b, ground], k: 1, free_length: -1}\n", "-1",
    "force 's': 'free_length' must be >= 0" },
  { B "forces:\n  r: {type: rotational_spring, nodes: [b, ground], k: 1}\n", "{type",
    "force 'r': missing required key 'axis'" },
  { B "forces:\n  r: {type: rotational_spring, nodes: [b, ground], axis: [0, 0, 1], k: 1,"
    " free_length: 1}\n", "free_length", "force 'r': 'free_length' is not used by a"
    " rotational_spring" },
  { B "forces:\n  m: {type: bushing, nodes: [b, ground], stiffness: [1, 1, 1, 1, -1, 1]}\n",
    "[1, 1", "force 'm': 'stiffness' is not positive semi-definite (eigenvalues -1, 1, 1, 1,"
    " 1, 1)" },
  { B "forces:\n  m: {type: bushing, nodes: [b, ground], stiffness: [1, 1, 1, 1, 1]}\n",
    "[1, 1", "force 'm': 'stiffness' must be 6 numbers (the diagonal) or 6 rows of 6 numbers"
    " (got 5 items)" },
  /* [[1, 2], [2, 1]] block: eigenvalues -1, 3 */
  { B "forces:\n  m: {type: bushing, nodes: [b, ground], stiffness: [[1, 2, 0, 0, 0, 0],"
    " [2, 1, 0, 0, 0, 0], [0, 0, 1, 0, 0, 0], [0, 0, 0, 1, 0, 0], [0, 0, 0, 0, 1, 0],"
    " [0, 0, 0, 0, 0, 1]]}\n", "[[1", "force 'm': 'stiffness' is not positive semi-definite"
    " (eigenvalues -1, 1, 1, 1, 1, 3)" },
  { B "forces:\n  m: {type: bushing, nodes: [b, ground], stiffness: [[1, 0, 0, 0, 0, 0],"
    " [0, 1, 0, 0, 0, 0], [0, 0, 1, 0, 0, 0], [0, 0, 0, 1, 0, 0], [0, 0, 0, 0, 1, 0],"
    " [0, 0, 0, 0, 7, 1]]}\n", "[[1", "force 'm': 'stiffness' is not symmetric"
    " (stiffness[4][5] = 0 but stiffness[5][4] = 7)" },
  { B "forces:\n  m: {type: bushing, nodes: [b, ground], stiffness: [1, 1, 1, 1, 1, 1],"
    " damping: [0, 0, -1, 0, 0, 0]}\n", "[0, 0, -1", "force 'm': 'damping' is not positive"
    " semi-definite" },
  { B "forces:\n  m: {type: bushing, nodes: [b, ground]}\n", "{type",
    "force 'm': missing required key 'stiffness'" },
  { B "forces:\n  p: {type: force, node: ground, value: [1, 0, 0]}\n", "ground",
    "force 'p': 'node' must be a body or beam node, not ground" },
  { B "forces:\n  p: {type: force, node: b, value: [1, 0, 0], frame: bod}\n", "bod}",
    "force 'p': unknown frame 'bod' (expected global, body; did you mean 'body'?)" },
  { B "forces:\n  p: {type: force, nodes: [b, ground], value: [1, 0, 0]}\n", "nodes",
    "force 'p': 'nodes' is not used by a point force (type force) (it takes type, node, at,"
    " frame, value)" },
  { B "forces:\n  t: {type: torque, node: b}\n", "{type", "force 't': missing required key"
    " 'value'" },
  { B "forces:\n  t: {type: torque, node: b, value: [1, 0, 0], at: [0, 0, 0]}\n", "at:",
    "force 't': 'at' is not used by a torque" },
  { B "forces:\n  t: {type: torqe, node: b, value: [1, 0, 0]}\n", "torqe",
    "force 't': unknown type 'torqe' (expected spring, rotational_spring, bushing, force,"
    " torque; did you mean 'torque'?)" },
  { B "forces:\n  t: {type: pull, node: b, value: [1, 0, 0]}\n", "pull",
    "force 't': unknown type 'pull' (expected spring, rotational_spring, bushing, force,"
    " torque)" },
  { B "forces:\n  t: {node: b, value: [1, 0, 0]}\n", "{node", "force 't': missing required"
    " key 'type'" },
  /* output */
  { B "output: {vtk: maybe}\n", "maybe", "output: 'vtk' must be true or false" },
  { B "output: {export_matrices: ''}\n", "''", "output: 'export_matrices' must not be empty" },
  /* masses (point masses on nodes) */
  { B "masses:\n  pm: {node: b, mass: 0}\n", "0}", "mass 'pm': 'mass' must be > 0" },
  { B "masses:\n  pm: {mass: 1}\n", "{mass: 1}", "mass 'pm': missing required key 'node'" },
  { B "masses:\n  pm: {node: ground, mass: 1}\n", "ground",
    "'node' must be a body or beam node, not ground" },
  { B "masses:\n  pm: {node: b, mass: 1, offset: [0, 1]}\n", "[0, 1]",
    "'offset' must have exactly 3 numbers (got 2)" },
  { B "masses:\n  pm: {node: b, mass: 1, inertia: [1, 1, 3]}\n", "[1, 1, 3]",
    "inertia violates the triangle inequality" },
  { B "masses:\n  pm: {node: b, mass: 1}\n  pm: {node: b, mass: 2}\n", "pm: {node: b, mass: 2",
    "mass 'pm' is defined twice" },
  { B "masses:\n  pm: {node: b, mass: 1, at: [0, 0, 0]}\n", "at:", "unknown key 'at'" },
  /* named vertices in points */
  { "units: SI\nbeams:\n  f: {material: m, section: s, elements: 2,\n"
    "      points: [{at: [0, 0, 0], name: a}, {at: [0, 1, 0], name: a}]}\n", "a}]",
    "beam 'f': node 'a' is defined twice" },
  { "units: SI\nbeams:\n  f: {material: m, section: s, elements: 2,\n"
    "      points: [{name: a}, [0, 1, 0]]}\n", "{name", "missing required key 'at'" },
  { "units: SI\nbeams:\n  f: {material: m, section: s, elements: 2,\n"
    "      points: [{at: [0, 0, 0], name: a.b}, [0, 1, 0]]}\n", "a.b",
    "names of bodies, beams and nodes must not contain '.'" },
  { "units: SI\nbeams:\n  f: {material: m, section: s, elements: 2,\n"
    "      points: [{at: [0, 0, 0], nmae: a}, [0, 1, 0]]}\n", "nmae", "unknown key 'nmae'" },
  /* planar */
  { B "planar: xyz\n", "xyz", "'planar' must be xy, yz or zx (the plane the"
    " model moves in) (got 'xyz')" },
  { B "planar:\n", "planar", "'planar' must be xy, yz or zx" },
  /* first error in document order within an object */
  { B "  o: {mass: -1, position: [0, 0], inertia: [-1, 0, 0]}\n", "-1",
    "body 'o': 'mass' must be >= 0" },
};

static void test_bad (void)
{
  for (size_t i = 0; i < sizeof bads / sizeof bads[0]; i++) {
    const bad *b = &bads[i];
    deck d;
    mb_err e;
    char want[128], descr[256];
    where_of (b->text, b->at, "t.yaml", want, sizeof want);
    mb_err_init (&e);
    int rc = deck_parse (b->text, strlen (b->text), "t.yaml", &d, &e);
    snprintf (descr, sizeof descr, "bad model deck %zu is rejected as MB_EDECK", i);
    CHECK (descr, rc == MB_EDECK && e.code == MB_EDECK);
    snprintf (descr, sizeof descr, "bad model deck %zu: where is %s", i, want);
    CHECK (descr, !strcmp (e.where, want));
    snprintf (descr, sizeof descr, "bad model deck %zu: message holds the expected text", i);
    CHECK (descr, strstr (e.msg, b->msg) != NULL);
    if (strcmp (e.where, want) || !strstr (e.msg, b->msg))
      printf ("  got %s: %s\n  want %s: ...%s...\n", e.where, e.msg, want, b->msg);
    snprintf (descr, sizeof descr, "bad model deck %zu leaves the deck zeroed", i);
    CHECK (descr, all_zero (&d));
    deck_clear (&d);
  }
}

/* every allocation made while reading the full model deck fails once in turn: MB_ENOMEM,
   the deck zeroed (leaks: the sanitizer build) */
static void test_nomem (void)
{
  long n, failed = 0;
  int all_nomem = 1, all_zeroed = 1;
  for (n = 1; n < 5000; n++) {
    deck d;
    mb_err e;
    mb_err_init (&e);
    deck_test_fail_alloc (n);
    int rc = deck_parse (full, strlen (full), "m/model.yaml", &d, &e);
    deck_test_fail_alloc (0);
    if (rc == 0) {
      CHECK ("model deck complete after the sweep", d.model.nforces == 6
             && streq (d.output.name, "model"));
      deck_clear (&d);
      break;
    }
    failed++;
    all_nomem &= rc == MB_ENOMEM && e.code == MB_ENOMEM;
    all_zeroed &= all_zero (&d);
  }
  CHECK ("every failed allocation -> MB_ENOMEM", all_nomem);
  CHECK ("every failed allocation leaves the deck zeroed", all_zeroed);
  /* at least: path, 2 + 5 + 7 + 2 + 10 + 6 collection arrays and names, ... */
  CHECK ("the sweep failed many allocations and then succeeded", failed > 60 && n < 5000);
}

int main (void)
{
  test_full ();
  test_rotations ();
  test_damping_default ();
  test_named_points ();
  test_bad ();
  test_nomem ();
  return CHECK_DONE ();
}
