/* test_model.c: model_build (nodes, names, references, errors), the beam element against
   closed-form cantilever solutions and rigid-body kinetic energies, and every load and
   preload stiffness term against finite differences of the generalized force computed
   here with exact nonlinear kinematics. References: Euler-Bernoulli cantilever formulas
   (Timoshenko & Gere), line integrals of rho A |v|^2 written below, Rodrigues' formula. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <lapacke.h>

#include "check.h"
#include "model_fixture.h"

static int streq (const char *a, const char *b)
{
  return a && b && !strcmp (a, b);
}

static int has (const char *s, const char *sub)
{
  return s && sub && strstr (s, sub) != NULL;
}

static int near (double a, double b, double rtol)
{
  return fabs (a - b) <= rtol * fmax (fabs (a), fabs (b)) + 1e-300;
}

/* ---- nodes and names ---- */

/* bodies hub, tip; beam arm: polyline (0,0,0)-(1,0,0)-(1,2,0), 2 + 4 elements, named
   root: 0, mid: 2, far: end; beam rod (0,0,1)-(0,0,2), 1 element, circular section */
static void build_sample (tdeck *t)
{
  td_init (t);
  td_material (t, "soft", 1e8, 4e7, 1000);
  td_material (t, "steel", 2e11, 8e10, 7800);
  td_section (t, "plate", 0.015, 3.125e-6, 1.125e-4, 1e-5);
  td_section (t, "rod", 3.14e-4, 7.85e-9, 7.85e-9, 1.57e-8);
  double Rz[9] = { 0, -1, 0, 1, 0, 0, 0, 0, 1 };     /* 90 degrees about z */
  td_body (t, "hub", 5.0, (double[3]) { 1, 2, 3 }, (double[3]) { 1, 2, 3 }, Rz);
  td_body (t, "tip", 1.0, NULL, (double[3]) { 1, 2, 0 }, NULL);
  double p[9] = { 0, 0, 0, 1, 0, 0, 1, 2, 0 };
  deck_beam *arm = td_beam (t, "arm", "steel", "plate", 3, p, (int[2]) { 2, 4 },
                            (double[3]) { 0, 0, 1 });
  td_beam_name (t, arm, "root", 0);
  td_beam_name (t, arm, "mid", 2);
  td_beam_name (t, arm, "far", -1);
  double q[6] = { 0, 0, 1, 0, 0, 2 };
  td_beam (t, "rod", "soft", "rod", 2, q, (int[1]) { 1 }, NULL);
}

static void test_nodes (void)
{
  tdeck *t = calloc (1, sizeof *t);
  build_sample (t);
  model m;
  mb_err e;
  mb_err_init (&e);
  int rc = model_build_deck (&t->dm, "deck.yaml", &m, &e);
  CHECK ("sample builds", rc == 0);
  if (rc) { printf ("  %s: %s\n", e.where, e.msg); free (t); return; }
  CHECK ("2 bodies + 7 arm + 2 rod nodes", m.nnodes == 11);
  CHECK ("body nodes first", streq (m.nodes[0].name, "hub") && streq (m.nodes[1].name, "tip"));
  CHECK ("arm first node 2", m.beams[0].first_node == 2 && m.beams[0].nelements == 6);
  CHECK ("rod first node 9", m.beams[1].first_node == 9 && m.beams[1].nelements == 1);
  CHECK ("arm.1 halfway on segment 1", m.nodes[3].x[0] == 0.5 && m.nodes[3].x[1] == 0);
  CHECK ("arm.2 the shared vertex", m.nodes[4].x[0] == 1 && m.nodes[4].x[1] == 0);
  CHECK ("arm.3 a quarter of segment 2", m.nodes[5].x[0] == 1 && m.nodes[5].x[1] == 0.5);
  CHECK ("arm.6 the last vertex", m.nodes[8].x[0] == 1 && m.nodes[8].x[1] == 2);
  CHECK ("beam node names", streq (m.nodes[5].name, "arm.3") && streq (m.nodes[10].name, "rod.1"));
  CHECK ("beam node fields", m.nodes[5].beam == 0 && m.nodes[5].beam_index == 3 &&
         m.nodes[5].body == -1 && m.nodes[0].body == 0 && m.nodes[0].beam == -1);
  CHECK ("find body", model_find_node (&m, "tip") == 1);
  CHECK ("find start/end", model_find_node (&m, "arm.start") == 2 &&
         model_find_node (&m, "arm.end") == 8 && model_find_node (&m, "rod.end") == 10);
  CHECK ("find index", model_find_node (&m, "arm.4") == 6);
  CHECK ("find user names", model_find_node (&m, "root") == 2 &&
         model_find_node (&m, "mid") == 4 && model_find_node (&m, "far") == 8);
  CHECK ("unknown name", model_find_node (&m, "arm.7") == -1 &&
         model_find_node (&m, "ground") == -1);
  /* hub: R = 90 deg about z maps body x to global y: global J = diag(2, 1, 3) */
  const double *J = m.bodies[0].J;
  CHECK ("body inertia to global axes", fabs (J[0] - 2) < 1e-15 && fabs (J[4] - 1) < 1e-15 &&
         fabs (J[8] - 3) < 1e-15 && fabs (J[1]) < 1e-15);
  CHECK ("material and section copied", m.beams[0].E == 2e11 && m.beams[0].Iz == 1.125e-4 &&
         m.beams[1].rho == 1000);
  CHECK ("y axis given", m.beams[0].y_given == 1 && m.beams[0].y_axis[2] == 1);
  CHECK ("default y axis normal to the rod", m.beams[1].y_given == 0 &&
         fabs (m.beams[1].y_axis[2]) < 1e-15);
  CHECK ("DOF labels", streq (model_dof_label (0), "dx") && streq (model_dof_label (5), "rz"));
  model_clear (&m);
  CHECK ("clear zeroes", m.nnodes == 0 && m.nodes == NULL);
  model_clear (NULL);
  free (t);
}

/* ---- errors ---- */

typedef void (*mutate_fn) (tdeck *t);

static void bad_material (tdeck *t) { t->beams[0].material = "stel"; }
static void bad_section (tdeck *t) { t->beams[1].section = "rood"; }
static void bad_joint_node (tdeck *t)
{
  td_joint (t, "hinge", JOINT_REVOLUTE, "ground", "tipp");
}
static void bad_beam_index (tdeck *t)
{
  td_joint (t, "hinge", JOINT_SPHERICAL, "arm.9", "tip");
}
static void bad_no_y_axis (tdeck *t) { t->beams[0].has_y_axis = 0; }
static void bad_named_index (tdeck *t) { t->named[0][1].index = 7; }
static void bad_distance (tdeck *t)
{
  td_body (t, "twin", 1.0, NULL, (double[3]) { 1, 2, 0 }, NULL);   /* where tip is */
  td_joint (t, "rope", JOINT_DISTANCE, "tip", "twin");
}
static void bad_spring_preload (tdeck *t)
{
  deck_force *f = td_force (t, "s", FORCE_SPRING, "tip", "far");   /* same place */
  f->k = 10;
  f->preload = 5;
}
static void bad_spring_free_length (tdeck *t)
{
  deck_force *f = td_force (t, "s", FORCE_SPRING, "tip", "far");
  f->k = 10;
  f->has_free_length = 1;
  f->free_length = 0.1;
}
static void bad_force_ground (tdeck *t)
{
  deck_force *f = td_force (t, "push", FORCE_POINT, "ground", NULL);
  f->value[0] = 1;
}
static void bad_same_node (tdeck *t)
{
  td_joint (t, "self", JOINT_WELD, "arm.end", "far");
}
static void bad_duplicate (tdeck *t) { t->bodies[1].name = "mid"; }
static void bad_spring_ground (tdeck *t)
{
  deck_force *f = td_force (t, "s", FORCE_SPRING, "ground", "tip");
  f->k = 10;
}
static void bad_distance_ground (tdeck *t)
{
  td_joint (t, "rope", JOINT_DISTANCE, "ground", "tip");
}
static void bad_beam_as_node (tdeck *t)
{
  td_joint (t, "pin", JOINT_SPHERICAL, "rod", "tip");
}
static void bad_both_ground (tdeck *t)
{
  td_joint (t, "nothing", JOINT_WELD, "ground", "ground");
}

typedef struct bad_case {
  const char *what;
  mutate_fn mutate;
  const char *where;   /* exact */
  const char *msg;     /* substring */
} bad_case;

/* positions: see model_fixture.h (beam ib at 400 + 10 ib, material 401:15, section
   402:14, named node k at 404 + 10 ib + k + 1 : 7; joint k names at 1000 + 10k : 13/21,
   its key at 1001 + 10k : 3; force k nodes 2000 + 10k : 11/19, key 2001 + 10k : 3) */
static const bad_case bad_cases[] = {
  { "unknown material", bad_material, "deck.yaml:401:15",
    "beam 'arm': unknown material 'stel' (materials: soft, steel)" },
  { "unknown section", bad_section, "deck.yaml:412:14",
    "beam 'rod': unknown section 'rood' (sections: plate, rod)" },
  { "unknown joint node", bad_joint_node, "deck.yaml:1000:21",
    "joint 'hinge': unknown node 'tipp' (did you mean 'tip'?)" },
  { "beam index out of range", bad_beam_index, "deck.yaml:1000:13",
    "joint 'hinge': unknown node 'arm.9' (beam 'arm' has nodes arm.0 .. arm.6" },
  { "y axis required", bad_no_y_axis, "deck.yaml:400:3",
    "beam 'arm': y_axis is required: section 'plate' has Iy != Iz" },
  { "named index beyond the beam", bad_named_index, "deck.yaml:406:7",
    "beam 'arm': node 'mid' has index 7, but the beam's nodes are 0 .. 6" },
  { "distance points coincide", bad_distance, "deck.yaml:1001:3",
    "joint 'rope': the points of a distance joint must be at least 1e-9 m apart" },
  { "zero-length spring with preload", bad_spring_preload, "deck.yaml:2001:3",
    "force 's': the spring's points coincide (|pB - pA| = 0 m), so its preload has no "
    "direction" },
  { "zero-length spring with free length", bad_spring_free_length, "deck.yaml:2001:3",
    "so its free length has no direction" },
  { "force on ground", bad_force_ground, "deck.yaml:2000:11",
    "force 'push': a force cannot act on ground" },
  { "joint on one node", bad_same_node, "deck.yaml:1000:21",
    "joint 'self': both ends are the same node 'arm.6'" },
  { "duplicate node name", bad_duplicate, "deck.yaml:406:7",
    "node name 'mid' is used twice (also at line 302)" },
  { "spring to ground without points", bad_spring_ground, "deck.yaml:2001:3",
    "force 's': a spring to ground needs points" },
  { "distance to ground without points", bad_distance_ground, "deck.yaml:1001:3",
    "joint 'rope': a distance joint to ground needs points" },
  { "a beam's name as a node", bad_beam_as_node, "deck.yaml:1000:13",
    "joint 'pin': 'rod' is a beam, not a node (use rod.start, rod.end or rod.<index>, 0 .. 1)" },
  { "joint between ground and ground", bad_both_ground, "deck.yaml:1000:21",
    "joint 'nothing': both nodes are ground" },
};

static void test_errors (void)
{
  tdeck *t = calloc (1, sizeof *t);
  for (size_t i = 0; i < sizeof bad_cases / sizeof *bad_cases; i++) {
    const bad_case *c = &bad_cases[i];
    build_sample (t);
    c->mutate (t);
    model m;
    mb_err e;
    mb_err_init (&e);
    int rc = model_build_deck (&t->dm, "deck.yaml", &m, &e);
    int ok = rc == MB_EDECK && e.code == MB_EDECK && streq (e.where, c->where) &&
             has (e.msg, c->msg) && m.nnodes == 0 && m.nodes == NULL;
    CHECK (c->what, ok);
    if (!ok) printf ("  rc %d, got '%s: %s'\n", rc, e.where, e.msg);
  }
  /* no materials at all */
  build_sample (t);
  t->dm.nmaterials = 0;
  model m;
  mb_err e;
  mb_err_init (&e);
  model_build_deck (&t->dm, "deck.yaml", &m, &e);
  CHECK ("no materials listed", has (e.msg, "unknown material 'steel' (no materials are defined)"));
  /* an empty model */
  td_init (t);
  mb_err_init (&e);
  CHECK ("empty model", model_build_deck (&t->dm, "deck.yaml", &m, &e) == MB_EDECK &&
         has (e.msg, "no nodes"));
  free (t);
}

/* ---- cantilever ---- */

/* Clamps node 0 of an nn-node model and solves K u = f (f on the last node, 6 values);
   returns the last node's 6 displacements in u6. */
static int cantilever_solve (const spm *K, int nn, const double f6[6], double u6[6])
{
  int n = 6 * nn, nr = n - 6;
  double *D = dense_of (K), *A = calloc ((size_t) nr * (size_t) nr, sizeof *A);
  double *b = calloc ((size_t) nr, sizeof *b);
  lapack_int *piv = calloc ((size_t) nr, sizeof *piv);
  for (int j = 0; j < nr; j++)
    for (int i = 0; i < nr; i++) A[(size_t) j * nr + i] = D[(size_t) (j + 6) * n + i + 6];
  for (int i = 0; i < 6; i++) b[nr - 6 + i] = f6[i];
  int info = LAPACKE_dgesv (LAPACK_COL_MAJOR, nr, 1, A, nr, piv, b, nr);
  for (int i = 0; i < 6; i++) u6[i] = b[nr - 6 + i];
  free (D); free (A); free (b); free (piv);
  return info;
}

static void test_cantilever (void)
{
  tdeck *t = calloc (1, sizeof *t);
  td_init (t);
  const double E = 2.1e11, G = 8.1e10, A = 1.2e-3, Iy = 2.0e-7, Iz = 5.0e-7, J = 3.0e-7;
  td_material (t, "steel", E, G, 7800);
  td_section (t, "s", A, Iy, Iz, J);
  double d[3] = { 1, 2, 2 };            /* |d| = 3: L = 3 */
  double p[6] = { 0.5, -1, 2, 0.5 + d[0], -1 + d[1], 2 + d[2] };
  double y[3] = { 0.3, -0.7, 0.9 };
  td_beam (t, "c", "steel", "s", 2, p, (int[1]) { 4 }, y);
  model m;
  mb_err e;
  mb_err_init (&e);
  assembly a;
  int rc = model_build_deck (&t->dm, "deck.yaml", &m, &e);
  if (!rc) rc = assemble_system (&m, &a, &e);
  CHECK ("cantilever builds", rc == 0);
  if (rc) { free (t); return; }
  /* local axes computed here: ex along, ey = unit(y - (y.ex) ex), ez = ex x ey */
  double L = 3.0, ex[3], ey[3], ez[3];
  for (int i = 0; i < 3; i++) ex[i] = d[i] / L;
  for (int i = 0; i < 3; i++) ey[i] = y[i] - dot3 (y, ex) * ex[i];
  unit3 (ey);
  cross3 (ex, ey, ez);
  const double P = 1000.0, T = 50.0;
  double u[6], f[6];
  struct { const char *what; const double *dir; int moment; double disp, rot;
           const double *rdir; } cases[] = {
    /* tip force along ey: v = P L^3 / (3 E Iz), rotation about ez = P L^2 / (2 E Iz) */
    { "bending in x-y", ey, 0, P * L * L * L / (3 * E * Iz), P * L * L / (2 * E * Iz), ez },
    /* along ez: w = P L^3 / (3 E Iy), rotation about ey = -P L^2 / (2 E Iy) */
    { "bending in x-z", ez, 0, P * L * L * L / (3 * E * Iy), -P * L * L / (2 * E * Iy), ey },
    /* axial: u = P L / (E A) */
    { "axial", ex, 0, P * L / (E * A), 0.0, ex },
  };
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    for (int i = 0; i < 3; i++) { f[i] = P * cases[c].dir[i]; f[3 + i] = 0; }
    cantilever_solve (a.K, m.nnodes, f, u);
    double ud = dot3 (u, cases[c].dir), rd = dot3 (u + 3, cases[c].rdir);
    double uperp = 0;
    for (int i = 0; i < 3; i++) uperp = fmax (uperp, fabs (u[i] - ud * cases[c].dir[i]));
    CHECK (cases[c].what, near (ud, cases[c].disp, 1e-9) && uperp < 1e-9 * fabs (ud));
    if (cases[c].rot != 0) CHECK (cases[c].what, near (rd, cases[c].rot, 1e-9));
    else CHECK (cases[c].what, fabs (rd) < 1e-12);
  }
  /* torsion: twist T L / (G J) about ex */
  for (int i = 0; i < 3; i++) { f[i] = 0; f[3 + i] = T * ex[i]; }
  cantilever_solve (a.K, m.nnodes, f, u);
  CHECK ("torsion", near (dot3 (u + 3, ex), T * L / (G * J), 1e-9) &&
         fabs (dot3 (u, u)) < 1e-24);
  CHECK ("K symmetric", spm_is_symmetric (a.K, 1e-14));
  CHECK ("no damping, no constraints", a.R == NULL && a.Cq == NULL && a.m == 0);
  assembly_clear (&a);
  model_clear (&m);
  free (t);
}

/* ---- mass: rigid motions ---- */

/* q^T M q for the rigid motion (velocity w x (x - c) + v, rotation w) of every node */
static double rigid_energy (const model *m, const spm *M, const double v[3],
                            const double w[3], const double c[3])
{
  int n = 6 * m->nnodes;
  double *q = calloc ((size_t) n, sizeof *q), *Mq = calloc ((size_t) n, sizeof *Mq);
  for (int i = 0; i < m->nnodes; i++) {
    double r[3], wr[3];
    for (int k = 0; k < 3; k++) r[k] = m->nodes[i].x[k] - c[k];
    cross3 (w, r, wr);
    for (int k = 0; k < 3; k++) { q[6 * i + k] = v[k] + wr[k]; q[6 * i + 3 + k] = w[k]; }
  }
  spm_matvec (M, q, Mq);
  double s = 0;
  for (int i = 0; i < n; i++) s += q[i] * Mq[i];
  free (q); free (Mq);
  return s;
}

static void test_mass (void)
{
  tdeck *t = calloc (1, sizeof *t);
  td_init (t);
  const double rho = 2700, A = 3e-4, Iy = 4e-8, Iz = 9e-8, mb = 2.5;
  td_material (t, "al", 7e10, 2.6e10, rho);
  td_section (t, "s", A, Iy, Iz, 1e-8);
  double Rb[9], th[3] = { 0.3, -0.2, 0.7 }, Jd[3] = { 0.4, 0.5, 0.6 };
  rodrigues (th, Rb);
  double xb[3] = { 0.2, 0.4, -0.3 };
  td_body (t, "b", mb, Jd, xb, Rb);
  double p[9] = { 0, 0, 0, 1.2, 0.5, -0.4, 1.5, 2.0, 0.3 };
  td_beam (t, "bar", "al", "s", 3, p, (int[2]) { 3, 5 }, (double[3]) { 0, 0, 1 });
  model m;
  mb_err e;
  mb_err_init (&e);
  assembly a;
  int rc = model_build_deck (&t->dm, "deck.yaml", &m, &e);
  if (!rc) rc = assemble_system (&m, &a, &e);
  CHECK ("mass model builds", rc == 0);
  if (rc) { free (t); return; }
  double Ls[2], exs[2][3];
  for (int s = 0; s < 2; s++) {
    double dd[3];
    for (int k = 0; k < 3; k++) dd[k] = p[3 * (s + 1) + k] - p[3 * s + k];
    Ls[s] = sqrt (dot3 (dd, dd));
    for (int k = 0; k < 3; k++) exs[s][k] = dd[k] / Ls[s];
  }
  /* translation t: q^T M q = (rho A (L1 + L2) + m_b) |t|^2 */
  double tv[3] = { 0.6, -0.8, 1.1 }, zero[3] = { 0, 0, 0 };
  double mtot = rho * A * (Ls[0] + Ls[1]) + mb;
  CHECK ("rigid translation: total mass",
         near (rigid_energy (&m, a.M, tv, zero, zero), mtot * dot3 (tv, tv), 1e-12));
  /* rotation w about c: per segment rho A L (|a|^2 + a.b + |b|^2/3), a = w x (p0 - c),
     b = w x (p1 - p0) (exact integral of rho A |v|^2 along it) + torsion rho (Iy + Iz) L
     (w.ex)^2; body m |w x (x_b - c)|^2 + w^T R J R^T w */
  double w[3] = { 0.7, -1.3, 0.4 }, c[3] = { 0.9, -0.5, 0.25 };
  double ref = 0;
  for (int s = 0; s < 2; s++) {
    double r0[3], dd[3], av[3], bv[3];
    for (int k = 0; k < 3; k++) {
      r0[k] = p[3 * s + k] - c[k];
      dd[k] = p[3 * (s + 1) + k] - p[3 * s + k];
    }
    cross3 (w, r0, av);
    cross3 (w, dd, bv);
    ref += rho * A * Ls[s] * (dot3 (av, av) + dot3 (av, bv) + dot3 (bv, bv) / 3);
    ref += rho * (Iy + Iz) * Ls[s] * dot3 (w, exs[s]) * dot3 (w, exs[s]);
  }
  double rb[3], vb[3], wl[3];
  for (int k = 0; k < 3; k++) rb[k] = xb[k] - c[k];
  cross3 (w, rb, vb);
  ref += mb * dot3 (vb, vb);
  for (int k = 0; k < 3; k++) wl[k] = Rb[k] * w[0] + Rb[3 + k] * w[1] + Rb[6 + k] * w[2];
  ref += Jd[0] * wl[0] * wl[0] + Jd[1] * wl[1] * wl[1] + Jd[2] * wl[2] * wl[2];
  CHECK ("rigid rotation: inertia about a point",
         near (rigid_energy (&m, a.M, zero, w, c), ref, 1e-12));
  CHECK ("M symmetric", spm_is_symmetric (a.M, 1e-14));
  assembly_clear (&a);
  model_clear (&m);
  free (t);
}

/* ---- finite differences of generalized forces ---- */

/* The state of the 2-body FD models: bodies A (node 0) and B (node 1). */
typedef struct fd_model {
  double x[2][3], R[2][9];
} fd_model;

/* Configuration for q (12): displacement u_i, rotation exp(skew(theta_i)). Position of the
   material point that is at p in the reference, on node i (ground: p). */
static void moved_point (const fd_model *fm, const double *q, int i, const double p[3],
                         double out[3])
{
  if (i < 0) { memcpy (out, p, 3 * sizeof *out); return; }
  double Rq[9], r[3], rr[3];
  rodrigues (q + 6 * i + 3, Rq);
  for (int k = 0; k < 3; k++) r[k] = p[k] - fm->x[i][k];
  matvec3 (Rq, r, rr);
  for (int k = 0; k < 3; k++) out[k] = fm->x[i][k] + q[6 * i + k] + rr[k];
}

/* Q_i += [f; (p' - x_i') x f] for a force f at moved point p' on node i (ground: none) */
static void add_force (const fd_model *fm, const double *q, int i, const double pm[3],
                       const double f[3], double *Q)
{
  if (i < 0) return;
  double r[3], m[3];
  for (int k = 0; k < 3; k++) r[k] = pm[k] - (fm->x[i][k] + q[6 * i + k]);
  cross3 (r, f, m);
  for (int k = 0; k < 3; k++) { Q[6 * i + k] += f[k]; Q[6 * i + 3 + k] += m[k]; }
}

typedef struct fd_force {
  int type;              /* 0 spring, 1 rotational, 2 bushing, 3 force, 4 follower force,
                            5 torque, 6 body torque */
  int a, b;              /* 0, 1 or -1 (ground) */
  double pa[3], pb[3], k, L0, P, axis[3], K6[36], Rf[9], value[3];
} fd_force;

static void fd_generalized (const fd_model *fm, const fd_force *f, const double *q, double *Q)
{
  memset (Q, 0, 12 * sizeof *Q);
  double pa[3], pb[3], d[3], fv[3], Rq[9];
  switch (f->type) {
  case 0: {                      /* spring: tension F = P + k (L - L0) along n, A <- B */
    moved_point (fm, q, f->a, f->pa, pa);
    moved_point (fm, q, f->b, f->pb, pb);
    for (int k = 0; k < 3; k++) d[k] = pb[k] - pa[k];
    double L = sqrt (dot3 (d, d));
    for (int k = 0; k < 3; k++)  /* L0 = 0, P = 0: F n = k d (no direction needed) */
      fv[k] = f->L0 == 0 && f->P == 0 ? f->k * d[k] : (f->P + f->k * (L - f->L0)) * d[k] / L;
    add_force (fm, q, f->a, pa, fv, Q);
    for (int k = 0; k < 3; k++) fv[k] = -fv[k];
    add_force (fm, q, f->b, pb, fv, Q);
    break;
  }
  case 1: {                      /* torque (P - k a.(th_b - th_a)) a', a' turning with A */
    double ap[3], dth = 0;
    if (f->a >= 0) { rodrigues (q + 6 * f->a + 3, Rq); matvec3 (Rq, f->axis, ap); }
    else memcpy (ap, f->axis, sizeof ap);
    for (int k = 0; k < 3; k++)
      dth += f->axis[k] * ((f->b >= 0 ? q[6 * f->b + 3 + k] : 0) -
                           (f->a >= 0 ? q[6 * f->a + 3 + k] : 0));
    double T = f->P - f->k * dth;
    for (int k = 0; k < 3; k++) {
      if (f->b >= 0) Q[6 * f->b + 3 + k] += T * ap[k];
      if (f->a >= 0) Q[6 * f->a + 3 + k] -= T * ap[k];
    }
    break;
  }
  case 2: {                      /* bushing at pa with frame Rf: f6 = -K6 u on B */
    double u[6], f6[6], g[3], mg[3], fl[3], ml[3];
    moved_point (fm, q, f->a, f->pa, pa);
    moved_point (fm, q, f->b, f->pa, pb);
    for (int k = 0; k < 3; k++) d[k] = pb[k] - pa[k];
    double dth[3];
    for (int k = 0; k < 3; k++)
      dth[k] = (f->b >= 0 ? q[6 * f->b + 3 + k] : 0) - (f->a >= 0 ? q[6 * f->a + 3 + k] : 0);
    for (int k = 0; k < 3; k++) {
      u[k] = f->Rf[k] * d[0] + f->Rf[3 + k] * d[1] + f->Rf[6 + k] * d[2];
      u[3 + k] = f->Rf[k] * dth[0] + f->Rf[3 + k] * dth[1] + f->Rf[6 + k] * dth[2];
    }
    for (int i = 0; i < 6; i++) {
      f6[i] = 0;
      for (int j = 0; j < 6; j++) f6[i] -= f->K6[6 * i + j] * u[j];
    }
    for (int k = 0; k < 3; k++) { fl[k] = f6[k]; ml[k] = f6[3 + k]; }
    matvec3 (f->Rf, fl, g);
    matvec3 (f->Rf, ml, mg);
    add_force (fm, q, f->b, pb, g, Q);
    for (int k = 0; k < 3 && f->b >= 0; k++) Q[6 * f->b + 3 + k] += mg[k];
    for (int k = 0; k < 3; k++) g[k] = -g[k];
    add_force (fm, q, f->a, pa, g, Q);
    for (int k = 0; k < 3 && f->a >= 0; k++) Q[6 * f->a + 3 + k] -= mg[k];
    break;
  }
  case 3:                        /* global force at pa */
    moved_point (fm, q, f->a, f->pa, pa);
    add_force (fm, q, f->a, pa, f->value, Q);
    break;
  case 4:                        /* follower: f = exp(th) R value */
    moved_point (fm, q, f->a, f->pa, pa);
    rodrigues (q + 6 * f->a + 3, Rq);
    matvec3 (fm->R[f->a], f->value, d);
    matvec3 (Rq, d, fv);
    add_force (fm, q, f->a, pa, fv, Q);
    break;
  case 5:                        /* global torque */
    for (int k = 0; k < 3; k++) Q[6 * f->a + 3 + k] += f->value[k];
    break;
  case 6:                        /* body torque: t = exp(th) R value */
    rodrigues (q + 6 * f->a + 3, Rq);
    matvec3 (fm->R[f->a], f->value, d);
    matvec3 (Rq, d, fv);
    for (int k = 0; k < 3; k++) Q[6 * f->a + 3 + k] += fv[k];
    break;
  }
}

static char *fd_node (int i)
{
  return i == 0 ? "A" : i == 1 ? "B" : "ground";
}

/* Builds bodies A, B and force f, assembles K; compares with -dQ/dq (central
   differences, h = 1e-6) to 1e-7 of max |K| (and 1e-6 N/m absolute). */
static void fd_check (const char *what, const fd_force *f)
{
  fd_model fm = { { { 0.1, -0.2, 0.3 }, { 1.1, 0.4, -0.5 } }, { { 0 } } };
  rodrigues ((double[3]) { 0.4, 0.1, -0.3 }, fm.R[0]);
  rodrigues ((double[3]) { -0.2, 0.5, 0.6 }, fm.R[1]);
  tdeck *t = calloc (1, sizeof *t);
  td_init (t);
  td_body (t, "A", 1.0, (double[3]) { 1, 1, 1 }, fm.x[0], fm.R[0]);
  td_body (t, "B", 1.0, (double[3]) { 1, 1, 1 }, fm.x[1], fm.R[1]);
  static const force_type types[7] = { FORCE_SPRING, FORCE_ROTATIONAL_SPRING, FORCE_BUSHING,
                                       FORCE_POINT, FORCE_POINT, FORCE_TORQUE, FORCE_TORQUE };
  int two = f->type <= 2;
  deck_force *df = td_force (t, "f", types[f->type], fd_node (f->a), two ? fd_node (f->b) : NULL);
  df->has_points = 1;
  memcpy (df->points, f->pa, sizeof f->pa);
  memcpy (df->points + 3, f->pb, sizeof f->pb);
  df->k = f->k;
  df->preload = f->P;
  df->has_free_length = 1;
  df->free_length = f->L0;
  memcpy (df->axis, f->axis, sizeof f->axis);
  df->has_at = 1;
  memcpy (df->at, f->pa, sizeof f->pa);
  memcpy (df->R, f->Rf, sizeof f->Rf);
  memcpy (df->K6, f->K6, sizeof f->K6);
  memcpy (df->value, f->value, sizeof f->value);
  df->body_fixed = f->type == 4 || f->type == 6;
  model m;
  assembly a;
  mb_err e;
  mb_err_init (&e);
  int rc = model_build_deck (&t->dm, "deck.yaml", &m, &e);
  if (!rc) rc = assemble_system (&m, &a, &e);
  CHECK (what, rc == 0);
  if (rc) { printf ("  %s: %s\n", e.where, e.msg); free (t); return; }
  double *K = dense_of (a.K), kmax = 0, err = 0, h = 1e-6;
  for (int i = 0; i < 144; i++) kmax = fmax (kmax, fabs (K[i]));
  for (int j = 0; j < 12; j++) {
    double q[12] = { 0 }, Qp[12], Qm[12];
    q[j] = h;
    fd_generalized (&fm, f, q, Qp);
    q[j] = -h;
    fd_generalized (&fm, f, q, Qm);
    for (int i = 0; i < 12; i++) err = fmax (err, fabs (K[12 * j + i] + (Qp[i] - Qm[i]) / (2 * h)));
  }
  int ok = err <= 1e-7 * kmax + 1e-6;
  CHECK (what, ok);
  if (!ok) printf ("  %s: max |K + dQ/dq| = %g, max |K| = %g\n", what, err, kmax);
  free (K);
  assembly_clear (&a);
  model_clear (&m);
  free (t);
}

static void test_load_stiffness (void)
{
  fd_force f;
  double R[9];
  rodrigues ((double[3]) { 0.3, -0.6, 0.2 }, R);
  /* springs: offsets on both ends, preload, free length != current length */
  f = (fd_force) { .type = 0, .a = 0, .b = 1, .pa = { 0.3, 0.1, 0.2 }, .pb = { 0.9, 0.7, -0.1 },
                   .k = 2000, .L0 = 0.4, .P = 150 };
  memcpy (f.Rf, R, sizeof R);
  fd_check ("spring A-B, offsets, preload, free length", &f);
  f.a = -1;
  fd_check ("spring ground-B, preload", &f);
  f.a = 0; f.b = -1;
  fd_check ("spring A-ground, preload", &f);
  f = (fd_force) { .type = 0, .a = 0, .b = 1, .pa = { 0.5, 0.5, 0.5 }, .pb = { 0.5, 0.5, 0.5 },
                   .k = 700, .L0 = 0, .P = 0 };
  fd_check ("zero-length spring (isotropic)", &f);
  f = (fd_force) { .type = 0, .a = 0, .b = 1, .pa = { 0.1, -0.2, 0.3 }, .pb = { 1.1, 0.4, -0.5 },
                   .k = 900, .L0 = 1.0, .P = -40 };
  fd_check ("spring between the nodes, compression preload", &f);
  /* rotational springs with preload torque */
  f = (fd_force) { .type = 1, .a = 0, .b = 1, .axis = { 0.48, -0.6, 0.64 }, .k = 300, .P = 25 };
  fd_check ("rotational spring A-B, preload", &f);
  f.a = -1;
  fd_check ("rotational spring ground-B, preload", &f);
  f.a = 0; f.b = -1;
  fd_check ("rotational spring A-ground, preload", &f);
  /* bushing: full symmetric K6 in a rotated frame, off both nodes */
  f = (fd_force) { .type = 2, .a = 0, .b = 1, .pa = { 0.7, -0.3, 0.2 } };
  memcpy (f.Rf, R, sizeof R);
  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 6; j++)
      f.K6[6 * i + j] = (i == j ? 1000.0 * (i + 1) : 0) + 50.0 / (1 + i + j);
  fd_check ("bushing A-B, full K6, rotated frame", &f);
  f.a = -1;
  fd_check ("bushing ground-B", &f);
  /* point loads */
  f = (fd_force) { .type = 3, .a = 0, .b = -1, .pa = { 0.6, 0.2, -0.4 }, .value = { 30, -50, 80 } };
  fd_check ("point force, global, offset", &f);
  f.type = 4;
  fd_check ("point force, follower, offset", &f);
  memcpy (f.pa, (double[3]) { 0.1, -0.2, 0.3 }, sizeof f.pa);
  fd_check ("point force, follower, at the node", &f);
  f.type = 5;
  fd_check ("torque, global (no stiffness)", &f);
  f.type = 6;
  fd_check ("torque, body-fixed", &f);
}

/* Damping of a spring and a bushing: C = -dQ/dv of the damping force computed here
   from point velocities v_p = v_i + w_i x (p - x_i). */
static void test_damping (void)
{
  tdeck *t = calloc (1, sizeof *t);
  td_init (t);
  double xa[3] = { 0, 0, 0 }, xb[3] = { 1, 0.5, -0.2 };
  td_body (t, "A", 1, NULL, xa, NULL);
  td_body (t, "B", 1, NULL, xb, NULL);
  deck_force *s = td_force (t, "s", FORCE_SPRING, "A", "B");
  double pa[3] = { 0.2, 0.1, 0 }, pb[3] = { 0.9, 0.9, 0.1 }, c = 35;
  s->has_points = 1;
  memcpy (s->points, pa, sizeof pa);
  memcpy (s->points + 3, pb, sizeof pb);
  s->k = 1;
  s->c = c;
  deck_force *bu = td_force (t, "bu", FORCE_BUSHING, "ground", "B");
  double at[3] = { 1.3, 0.2, 0.4 }, C6d[6] = { 1, 2, 3, 4, 5, 6 };
  bu->has_at = 1;
  memcpy (bu->at, at, sizeof at);
  rodrigues ((double[3]) { 0.1, 0.9, -0.4 }, bu->R);
  for (int i = 0; i < 6; i++) bu->C6[7 * i] = C6d[i];
  model m;
  assembly a;
  mb_err e;
  mb_err_init (&e);
  int rc = model_build_deck (&t->dm, "deck.yaml", &m, &e);
  if (!rc) rc = assemble_system (&m, &a, &e);
  CHECK ("damping model builds", rc == 0 && a.R != NULL);
  if (rc || !a.R) { free (t); return; }
  double *C = dense_of (a.R), err = 0, cmax = 0;
  double n[3] = { pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2] };
  unit3 (n);
  for (int j = 0; j < 12; j++) {
    double v[12] = { 0 }, Q[12] = { 0 }, va[3], vb[3], r[3], wr[3];
    v[j] = 1;
    /* spring: f_A = c n n^T (v_B(pb) - v_A(pa)) at pa, -f_A at pb */
    for (int k = 0; k < 3; k++) r[k] = pa[k] - xa[k];
    cross3 (v + 3, r, wr);
    for (int k = 0; k < 3; k++) va[k] = v[k] + wr[k];
    for (int k = 0; k < 3; k++) r[k] = pb[k] - xb[k];
    cross3 (v + 9, r, wr);
    for (int k = 0; k < 3; k++) vb[k] = v[6 + k] + wr[k];
    double rel = (vb[0] - va[0]) * n[0] + (vb[1] - va[1]) * n[1] + (vb[2] - va[2]) * n[2];
    double fa[3], ma[3];
    for (int k = 0; k < 3; k++) fa[k] = c * rel * n[k];
    for (int k = 0; k < 3; k++) r[k] = pa[k] - xa[k];
    cross3 (r, fa, ma);
    for (int k = 0; k < 3; k++) { Q[k] += fa[k]; Q[3 + k] += ma[k]; }
    for (int k = 0; k < 3; k++) r[k] = pb[k] - xb[k];
    cross3 (r, fa, ma);
    for (int k = 0; k < 3; k++) { Q[6 + k] -= fa[k]; Q[9 + k] -= ma[k]; }
    /* bushing: w = (R^T v_B(at), R^T w_B), f6 = -C6 w on B at 'at' */
    double vl[6], g[3], mg[3], fl[3], ml[3];
    for (int k = 0; k < 3; k++) r[k] = at[k] - xb[k];
    cross3 (v + 9, r, wr);
    for (int k = 0; k < 3; k++) vb[k] = v[6 + k] + wr[k];
    for (int k = 0; k < 3; k++) {
      vl[k] = bu->R[k] * vb[0] + bu->R[3 + k] * vb[1] + bu->R[6 + k] * vb[2];
      vl[3 + k] = bu->R[k] * v[9] + bu->R[3 + k] * v[10] + bu->R[6 + k] * v[11];
    }
    for (int k = 0; k < 3; k++) { fl[k] = -C6d[k] * vl[k]; ml[k] = -C6d[3 + k] * vl[3 + k]; }
    matvec3 (bu->R, fl, g);
    matvec3 (bu->R, ml, mg);
    cross3 (r, g, ma);
    for (int k = 0; k < 3; k++) { Q[6 + k] += g[k]; Q[9 + k] += ma[k] + mg[k]; }
    for (int i = 0; i < 12; i++) {
      err = fmax (err, fabs (C[12 * j + i] + Q[i]));
      cmax = fmax (cmax, fabs (C[12 * j + i]));
    }
  }
  CHECK ("spring and bushing damping = -dQ/dv", err <= 1e-12 * cmax);
  free (C);
  assembly_clear (&a);
  model_clear (&m);
  free (t);
}

int main (void)
{
  test_nodes ();
  test_errors ();
  test_cantilever ();
  test_mass ();
  test_load_stiffness ();
  test_damping ();
  return CHECK_DONE ();
}
