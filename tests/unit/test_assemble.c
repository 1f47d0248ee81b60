/* test_assemble.c: assembled K, M, R, Cq of a 1 x 1 beam grid against beamgrid.py's
   matrices (tests/unit/data/beamgrid_1x1, numpy/scipy), the motions each joint type
   allows (null space of Cq by LAPACK SVD against the kinematics written here), the rank
   check of Cq (redundant joints named, a crank-slider passes), and energy shares. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <lapacke.h>

#include "check.h"
#include "linalg/mmio.h"
#include "model_fixture.h"

static int has (const char *s, const char *sub)
{
  return s && sub && strstr (s, sub) != NULL;
}

/* Builds and assembles; prints the error on failure. */
static int build (tdeck *t, model *m, assembly *a)
{
  mb_err e;
  mb_err_init (&e);
  int rc = model_build_deck (&t->dm, "deck.yaml", m, &e);
  if (!rc) {
    rc = assemble_system (m, a, &e);
    if (rc) model_clear (m);
  }
  if (rc) printf ("  build failed: %s: %s\n", e.where, e.msg);
  return rc;
}

/* Numerical rank of a dense column-major r x c matrix (SVD, sigma > 1e-10 sigma_max). */
static int rank_of (const double *D, int r, int c)
{
  int k = r < c ? r : c;
  if (k == 0) return 0;
  double *A = malloc ((size_t) r * (size_t) c * sizeof *A), *s = malloc ((size_t) k * sizeof *s);
  double *sup = malloc ((size_t) k * sizeof *sup);
  memcpy (A, D, (size_t) r * (size_t) c * sizeof *A);
  LAPACKE_dgesvd (LAPACK_COL_MAJOR, 'N', 'N', r, c, A, r, s, NULL, 1, NULL, 1, sup);
  int rank = 0;
  for (int i = 0; i < k; i++) rank += s[i] > 1e-10 * s[0];
  free (A); free (s); free (sup);
  return rank;
}

/* ---- beam grid against beamgrid.py ---- */

/* Max over entries of |A - B| / (|B| + 1e-3 max |B|), both dense from spm: relative for
   every entry that is not rounding noise (the noise of a sum like alpha M + beta K is a
   few eps times max |B|, so its floor is 1e-15 max |B| at a 1e-12 tolerance). */
static double compare_dense (const spm *A, const spm *B)
{
  if (A->nrows != B->nrows || A->ncols != B->ncols) return INFINITY;
  double *DA = dense_of (A), *DB = dense_of (B), bmax = 0, worst = 0;
  size_t n = (size_t) A->nrows * (size_t) A->ncols;
  for (size_t i = 0; i < n; i++) bmax = fmax (bmax, fabs (DB[i]));
  for (size_t i = 0; i < n; i++)
    worst = fmax (worst, fabs (DA[i] - DB[i]) / (fabs (DB[i]) + 1e-3 * bmax));
  free (DA); free (DB);
  return worst;
}

static void test_beamgrid (void)
{
  tdeck *t = calloc (1, sizeof *t);
  td_init (t);
  /* beamgrid.py: E = 100e6, nu = 0.31, rho = 1000, alpha = 1e-3, beta = 1e-5; section
     0.3 x 0.05 with Roark's torsion constant */
  const double E = 100e6, nu = 0.31, B = 0.3, H = 0.05;
  deck_material *mat = td_material (t, "soft", E, E / (2 * (1 + nu)), 1000);
  mat->alpha = 1e-3;
  mat->beta = 1e-5;
  double a = fmax (B, H), b = fmin (B, H);
  td_section (t, "plate", B * H, B * H * H * H / 12, H * B * B * B / 12,
              a * b * b * b * (1.0 / 3 - 0.21 * b / a * (1 - pow (b, 4) / (12 * pow (a, 4)))));
  double y[3] = { 0, 1, 0 };
  static char *hname[2] = { "h0", "h1" }, *vname[2] = { "v0", "v1" };
  for (int j = 0; j < 2; j++) {
    double p[6] = { 0, 0, j * 0.6, 1, 0, j * 0.6 };
    td_beam (t, hname[j], "soft", "plate", 2, p, (int[1]) { 3 }, y);
  }
  for (int i = 0; i < 2; i++) {
    double p[6] = { i * 1.0, 0, 0, i * 1.0, 0, 0.6 };
    td_beam (t, vname[i], "soft", "plate", 2, p, (int[1]) { 2 }, y);
  }
  /* beamgrid's rows: crossings (i, j) sorted; weld (+h, -v), then clamp (+h) if j = 0 */
  static char *wname[4] = { "w00", "w01", "w10", "w11" }, *cname[2] = { "c0", "c1" };
  static char *vnode[4] = { "v0.0", "v0.2", "v1.0", "v1.2" };
  static char *hnode[4] = { "h0.0", "h1.0", "h0.3", "h1.3" };
  for (int c = 0; c < 4; c++) {
    td_joint (t, wname[c], JOINT_WELD, vnode[c], hnode[c]);
    if (c % 2 == 0) td_joint (t, cname[c / 2], JOINT_WELD, "ground", hnode[c]);
  }
  model m;
  assembly as;
  if (build (t, &m, &as)) { CHECK ("beam grid builds", 0); free (t); return; }
  static const char *files[4] = { "K", "M", "R", "Cq" };
  const spm *ours[4] = { as.K, as.M, as.R, as.Cq };
  for (int f = 0; f < 4; f++) {
    char path[256], what[128];
    snprintf (path, sizeof path, "tests/unit/data/beamgrid_1x1/%s.mtx", files[f]);
    spm *ref = NULL;
    mb_err e;
    mb_err_init (&e);
    if (mmio_read (path, &ref, &e)) {
      printf ("  cannot read %s (run from the repository top): %s\n", path, e.msg);
      CHECK ("reference file readable", 0);
      continue;
    }
    double w = ours[f] ? compare_dense (ours[f], ref) : INFINITY;
    snprintf (what, sizeof what, "beam grid %s equals beamgrid.py's to 1e-12", files[f]);
    CHECK (what, w <= 1e-12);
    if (!(w <= 1e-12)) printf ("  %s: worst relative difference %g\n", files[f], w);
    spm_free (ref);
  }
  /* whole 6 x 6 node blocks: 14 diagonal + 2 x 10 element blocks = 34 blocks */
  CHECK ("K keeps whole blocks", as.K->nnz == 34 * 36 && as.M->nnz == 34 * 36);
  CHECK ("Cq has 6 columns per node touched", as.Cq->nnz == 4 * 6 * 12 + 2 * 6 * 6);
  int skipped = -1;
  mb_err e;
  mb_err_init (&e);
  CHECK ("beam grid constraints have full rank",
         assemble_check_constraints (&m, as.Cq, "deck.yaml", &skipped, &e) == 0 && skipped == 0);
  assembly_clear (&as);
  model_clear (&m);
  free (t);
}

/* ---- joints: allowed motions ---- */

/* a 6-vector of node motion: rotation w about point c of a node at x, plus translation v */
static void motion (const double x[3], const double w[3], const double c[3],
                    const double v[3], double out[6])
{
  double r[3], wr[3];
  for (int k = 0; k < 3; k++) r[k] = x[k] - c[k];
  cross3 (w, r, wr);
  for (int k = 0; k < 3; k++) { out[k] = wr[k] + v[k]; out[3 + k] = w[k]; }
}

typedef struct joint_case {
  const char *what;
  joint_type type;
  int free;            /* DOFs the joint leaves to one body */
} joint_case;

/* The joint's frame, 'at', points, lock mask and the motions of B (A fixed) it allows;
   returns their count. */
static int joint_setup (deck_joint *j, const double xb[3], double mot[6][6])
{
  static const double at[3] = { 1.0, 0.5, -0.2 }, axis[3] = { 0.36, 0.48, 0.8 };
  static const double zero[3] = { 0, 0, 0 };
  double R[9], e[3][3];
  frame_from_axis (axis, R);
  if (j->type == JOINT_WELD || j->type == JOINT_SPHERICAL || j->type == JOINT_LOCK)
    rodrigues ((double[3]) { 0.5, -0.3, 0.8 }, R);
  if (j->type == JOINT_UNIVERSAL) {    /* e1 = a1, e3 = unit(a1 x a2), e2 = e3 x e1 */
    double a1[3] = { 0.6, 0.8, 0 }, a2[3] = { 0, 0.28, 0.96 }, e1[3], e2[3], e3[3];
    memcpy (e1, a1, sizeof e1);
    cross3 (a1, a2, e3);
    unit3 (e3);
    cross3 (e3, e1, e2);
    for (int i = 0; i < 3; i++) { R[3 * i] = e1[i]; R[3 * i + 1] = e2[i]; R[3 * i + 2] = e3[i]; }
  }
  for (int c = 0; c < 3; c++)
    for (int i = 0; i < 3; i++) e[c][i] = R[3 * i + c];
  memcpy (j->R, R, sizeof R);
  j->has_at = 1;
  memcpy (j->at, at, sizeof j->at);
  switch (j->type) {
  case JOINT_WELD: return 0;
  case JOINT_REVOLUTE: motion (xb, e[2], at, zero, mot[0]); return 1;
  case JOINT_SPHERICAL:
    for (int c = 0; c < 3; c++) motion (xb, e[c], at, zero, mot[c]);
    return 3;
  case JOINT_PRISMATIC: motion (xb, zero, at, e[2], mot[0]); return 1;
  case JOINT_CYLINDRICAL:
    motion (xb, zero, at, e[2], mot[0]);
    motion (xb, e[2], at, zero, mot[1]);
    return 2;
  case JOINT_UNIVERSAL: {
    double a1[3] = { 0.6, 0.8, 0 }, a2[3] = { 0, 0.28, 0.96 };
    motion (xb, a1, at, zero, mot[0]);
    motion (xb, a2, at, zero, mot[1]);
    return 2;
  }
  case JOINT_PLANAR:
    motion (xb, zero, at, e[0], mot[0]);
    motion (xb, zero, at, e[1], mot[1]);
    motion (xb, e[2], at, zero, mot[2]);
    return 3;
  case JOINT_DISTANCE: {               /* pA on A, pB on B: rotations about pB, and
                                          translations normal to pB - pA */
    double pa[3] = { -0.4, 0.2, 0.9 }, pb[3] = { 0.5, -0.1, 0.2 }, n[3], t1[3], t2[3];
    j->has_points = 1;
    memcpy (j->points, pa, sizeof pa);
    memcpy (j->points + 3, pb, sizeof pb);
    for (int k = 0; k < 3; k++) n[k] = pb[k] - pa[k];
    unit3 (n);
    double Rn[9];
    frame_from_axis (n, Rn);
    for (int k = 0; k < 3; k++) { t1[k] = Rn[3 * k]; t2[k] = Rn[3 * k + 1]; }
    for (int c = 0; c < 3; c++) {
      double w[3] = { c == 0, c == 1, c == 2 };
      motion (xb, w, pb, zero, mot[c]);
    }
    motion (xb, zero, at, t1, mot[3]);
    motion (xb, zero, at, t2, mot[4]);
    return 5;
  }
  case JOINT_LOCK:                     /* locks x and rz */
    j->lock_mask = LOCK_X | LOCK_RZ;
    motion (xb, zero, at, e[1], mot[0]);
    motion (xb, zero, at, e[2], mot[1]);
    motion (xb, e[0], at, zero, mot[2]);
    motion (xb, e[1], at, zero, mot[3]);
    return 4;
  }
  return 0;
}

/* variant 0: [ground, B]; 1: [B, ground]; 2: [A, B] with body A */
static void joint_case_run (const joint_case *jc, int variant)
{
  tdeck *t = calloc (1, sizeof *t);
  td_init (t);
  double xb[3] = { 0.3, -0.2, 0.5 }, xa[3] = { -0.6, 0.7, 0.1 }, Rb[9];
  rodrigues ((double[3]) { 0.2, 0.3, -0.1 }, Rb);
  td_body (t, "B", 1, (double[3]) { 1, 1, 1 }, xb, Rb);
  if (variant == 2) td_body (t, "A", 1, (double[3]) { 1, 1, 1 }, xa, NULL);
  char *na = variant == 0 ? "ground" : variant == 1 ? "B" : "A";
  char *nb = variant == 1 ? "ground" : "B";
  deck_joint *j = td_joint (t, "j", jc->type, na, nb);
  double mot[6][6];
  int nm = joint_setup (j, xb, mot);
  if (variant == 1 && jc->type == JOINT_DISTANCE) {   /* swap the points with the ends */
    double tmp[3];
    memcpy (tmp, j->points, sizeof tmp);
    memcpy (j->points, j->points + 3, sizeof tmp);
    memcpy (j->points + 3, tmp, sizeof tmp);
  }
  model m;
  assembly a;
  char what[160];
  snprintf (what, sizeof what, "%s (%s)", jc->what,
            variant == 0 ? "ground-B" : variant == 1 ? "B-ground" : "A-B");
  if (build (t, &m, &a)) { CHECK (what, 0); free (t); return; }
  int n = a.n, rows = a.m;
  double *C = dense_of (a.Cq);
  int rank = rank_of (C, rows, n), ib = 0;                      /* B is node 0 */
  int expect_free = jc->free + (variant == 2 ? 6 : 0);
  CHECK (what, n - rank == expect_free && rows == 6 - jc->free);
  /* the allowed motions of B (A still) and, for A-B, rigid motions of both */
  double worst = 0;
  for (int k = 0; k < nm; k++) {
    for (int r = 0; r < rows; r++) {
      double s = 0;
      for (int q = 0; q < 6; q++) s += C[(size_t) (6 * ib + q) * rows + r] * mot[k][q];
      worst = fmax (worst, fabs (s));
    }
  }
  if (variant == 2)
    for (int k = 0; k < 6; k++) {
      double w[3] = { k == 3, k == 4, k == 5 }, v[3] = { k == 0, k == 1, k == 2 };
      double c[3] = { 0.1, 0.2, 0.3 };
      double mb[6], ma[6];
      motion (xb, w, c, v, mb);
      motion (xa, w, c, v, ma);
      for (int r = 0; r < rows; r++) {
        double s = 0;
        for (int q = 0; q < 6; q++)
          s += C[(size_t) q * rows + r] * mb[q] + C[(size_t) (6 + q) * rows + r] * ma[q];
        worst = fmax (worst, fabs (s));
      }
    }
  /* the listed motions are independent: with the count above they span the null space */
  double Mm[36];
  for (int k = 0; k < nm; k++)
    for (int q = 0; q < 6; q++) Mm[6 * k + q] = mot[k][q];
  CHECK (what, worst < 1e-13 && rank_of (Mm, 6, nm) == nm);
  if (!(worst < 1e-13)) printf ("  %s: |Cq v| = %g\n", what, worst);
  free (C);
  assembly_clear (&a);
  model_clear (&m);
  free (t);
}

static void test_joints (void)
{
  static const joint_case cases[] = {
    { "weld", JOINT_WELD, 0 }, { "revolute", JOINT_REVOLUTE, 1 },
    { "spherical", JOINT_SPHERICAL, 3 }, { "prismatic", JOINT_PRISMATIC, 1 },
    { "cylindrical", JOINT_CYLINDRICAL, 2 }, { "universal", JOINT_UNIVERSAL, 2 },
    { "planar", JOINT_PLANAR, 3 }, { "distance", JOINT_DISTANCE, 5 },
    { "lock x, rz", JOINT_LOCK, 4 },
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
    for (int v = 0; v < 3; v++) joint_case_run (&cases[i], v);
}

/* ---- rank check ---- */

static int check_rank (tdeck *t, mb_err *e, int *skipped)
{
  model m;
  assembly a;
  mb_err_init (e);
  if (build (t, &m, &a)) return 99;
  int rc = assemble_check_constraints (&m, a.Cq, "deck.yaml", skipped, e);
  assembly_clear (&a);
  model_clear (&m);
  return rc;
}

static void test_rank (void)
{
  tdeck *t = calloc (1, sizeof *t);
  mb_err e;
  int skipped;
  double z[3] = { 0, 0, 1 }, Rz[9];
  frame_from_axis (z, Rz);
  /* a door on two hinges on one axis: the second repeats the first */
  td_init (t);
  td_body (t, "door", 10, (double[3]) { 1, 1, 1 }, (double[3]) { 0.5, 0, 1 }, NULL);
  deck_joint *j1 = td_joint (t, "rev1", JOINT_REVOLUTE, "ground", "door");
  deck_joint *j2 = td_joint (t, "rev2", JOINT_REVOLUTE, "ground", "door");
  memcpy (j1->R, Rz, sizeof Rz);
  memcpy (j2->R, Rz, sizeof Rz);
  j1->has_at = j2->has_at = 1;
  j2->at[2] = 2.0;
  int rc = check_rank (t, &e, &skipped);
  CHECK ("parallel revolutes: error", rc == MB_EDECK);
  CHECK ("parallel revolutes: at rev2", !strcmp (e.where, "deck.yaml:1011:3"));
  CHECK ("parallel revolutes: names both",
         has (e.msg, "joints 'rev2', 'rev1' overconstrain the model: the constraint rows of "
              "'rev2' (revolute, translation along e1) repeat those of 'rev1' (Cq has rank 5 "
              "for 10 rows); remove DOFs from one of them"));
  if (rc != MB_EDECK || !has (e.msg, "'rev2', 'rev1'")) printf ("  got %s: %s\n", e.where, e.msg);

  /* weld plus lock between two bodies */
  td_init (t);
  td_body (t, "P", 1, (double[3]) { 1, 1, 1 }, (double[3]) { 0, 0, 0 }, NULL);
  td_body (t, "Q", 1, (double[3]) { 1, 1, 1 }, (double[3]) { 1, 0, 0 }, NULL);
  td_joint (t, "w", JOINT_WELD, "P", "Q");
  deck_joint *lk = td_joint (t, "lk", JOINT_LOCK, "P", "Q");
  lk->lock_mask = LOCK_Y;
  rc = check_rank (t, &e, &skipped);
  CHECK ("weld + lock: error at the lock", rc == MB_EDECK && !strcmp (e.where, "deck.yaml:1011:3"));
  CHECK ("weld + lock: message", has (e.msg, "joints 'lk', 'w' overconstrain the model") &&
         has (e.msg, "(lock, translation along e2)") && has (e.msg, "(Cq has rank 6 for 7 rows)"));
  if (rc != MB_EDECK) printf ("  got %s: %s\n", e.where, e.msg);

  /* crank (r = 0.1, at 90 degrees), rod (l = 0.4), piston on x: revolute, spherical,
     universal, prismatic: 18 DOFs - 17 rows = 1 */
  td_init (t);
  double pin[3] = { 0, 0.1, 0 }, pis[3] = { sqrt (0.15), 0, 0 }, rod[3], a1[3], zz[3] = { 0, 0, 1 };
  td_body (t, "crank", 1, (double[3]) { 1, 1, 1 }, (double[3]) { 0, 0.05, 0 }, NULL);
  td_body (t, "rod", 1, (double[3]) { 1, 1, 1 },
           (double[3]) { pis[0] / 2, 0.05, 0 }, NULL);
  td_body (t, "piston", 1, (double[3]) { 1, 1, 1 }, pis, NULL);
  deck_joint *jm = td_joint (t, "main", JOINT_REVOLUTE, "ground", "crank");
  memcpy (jm->R, Rz, sizeof Rz);
  jm->has_at = 1;
  deck_joint *jp = td_joint (t, "pin", JOINT_SPHERICAL, "crank", "rod");
  jp->has_at = 1;
  memcpy (jp->at, pin, sizeof pin);
  deck_joint *ju = td_joint (t, "wrist", JOINT_UNIVERSAL, "rod", "piston");
  for (int k = 0; k < 3; k++) rod[k] = pis[k] - pin[k];
  cross3 (rod, zz, a1);              /* a1 on the rod, normal to it and z; a2 = z */
  unit3 (a1);
  double e3[3], e2[3];
  cross3 (a1, zz, e3);
  unit3 (e3);
  cross3 (e3, a1, e2);
  for (int i = 0; i < 3; i++) {
    ju->R[3 * i] = a1[i];
    ju->R[3 * i + 1] = e2[i];
    ju->R[3 * i + 2] = e3[i];
  }
  deck_joint *js = td_joint (t, "slide", JOINT_PRISMATIC, "ground", "piston");
  frame_from_axis ((double[3]) { 1, 0, 0 }, js->R);
  rc = check_rank (t, &e, &skipped);
  CHECK ("crank-slider passes", rc == 0 && skipped == 0);
  if (rc) printf ("  got %s: %s\n", e.where, e.msg);
  {
    model m;
    assembly a;
    if (!build (t, &m, &a)) {
      double *C = dense_of (a.Cq);
      CHECK ("crank-slider: 17 independent rows (SVD)", a.m == 17 && rank_of (C, a.m, a.n) == 17);
      free (C);
      assembly_clear (&a);
      model_clear (&m);
    }
  }
  /* the same with a second revolute on the crank axis: overconstrained */
  deck_joint *jx = td_joint (t, "main2", JOINT_REVOLUTE, "ground", "crank");
  memcpy (jx->R, Rz, sizeof Rz);
  jx->has_at = 1;
  jx->at[2] = 0.3;
  rc = check_rank (t, &e, &skipped);
  CHECK ("crank-slider with a second bearing fails",
         rc == MB_EDECK && has (e.msg, "joints 'main2', 'main'"));
  if (rc != MB_EDECK) printf ("  got %s: %s\n", e.where, e.msg);

  /* a chain of 400 welds (2400 rows in one group): skipped, counted */
  td_init (t);
  static char names[401][8];
  for (int i = 0; i <= 400; i++) {
    snprintf (names[i], sizeof names[i], "b%d", i);
    td_body (t, names[i], 1, (double[3]) { 1, 1, 1 }, (double[3]) { i * 0.1, 0, 0 }, NULL);
  }
  for (int i = 0; i < 400; i++) td_joint (t, names[i + 1], JOINT_WELD, names[i], names[i + 1]);
  rc = check_rank (t, &e, &skipped);
  CHECK ("a group over 2000 rows is skipped", rc == 0 && skipped == 1);
  free (t);
}

/* ---- energy shares ---- */

static void test_energy (void)
{
  tdeck *t = calloc (1, sizeof *t);
  td_init (t);
  td_material (t, "m", 1e9, 4e8, 1000);
  td_section (t, "s", 1e-4, 1e-9, 1e-9, 2e-9);
  td_body (t, "A", 2, (double[3]) { 1, 1, 1 }, (double[3]) { 0, 0, 0 }, NULL);
  td_body (t, "B", 3, (double[3]) { 1, 1, 1 }, (double[3]) { 1, 0, 0 }, NULL);
  double p[6] = { 0, 2, 0, 1, 2, 0 };
  td_beam (t, "arm", "m", "s", 2, p, (int[1]) { 2 }, NULL);
  deck_force *s1 = td_force (t, "s1", FORCE_SPRING, "ground", "A");
  s1->has_points = 1;
  double pts[6] = { -1, 0, 0, 0, 0, 0 };
  memcpy (s1->points, pts, sizeof pts);
  s1->k = 100;
  deck_force *pf = td_force (t, "push", FORCE_POINT, "B", NULL);
  pf->value[1] = 5;                               /* at the node: no load stiffness */
  deck_force *s2 = td_force (t, "s2", FORCE_SPRING, "A", "B");
  s2->k = 50;
  model m;
  assembly a;
  if (build (t, &m, &a)) { CHECK ("energy model builds", 0); free (t); return; }
  model_part *parts = NULL;
  int np = model_parts (&m, &parts);
  CHECK ("parts: bodies, beams, springs (no point force)", np == 5 &&
         parts[0].kind == PART_BODY && !strcmp (parts[0].name, "A") &&
         parts[2].kind == PART_BEAM && !strcmp (parts[2].name, "arm") &&
         parts[3].kind == PART_FORCE && parts[3].index == 0 && !strcmp (parts[3].name, "s1") &&
         parts[4].index == 2 && !strcmp (parts[4].name, "s2"));
  double complex *x = calloc ((size_t) a.n, sizeof *x);
  double kin[5], str[5];
  mb_err e;
  mb_err_init (&e);
  /* B along x, complex amplitude: kinetic all B, strain all s2 */
  x[6] = 1 + 2 * I;
  model_energy_shares (&m, parts, np, x, kin, str, &e);
  CHECK ("B moves: kinetic in B", fabs (kin[1] - 1) < 1e-14 && fabs (kin[0]) < 1e-14);
  CHECK ("B moves: strain in s2", fabs (str[4] - 1) < 1e-14 && fabs (str[3]) < 1e-14);
  /* A along x: kinetic A; strain k1 / (k1 + k2) in s1, k2 / (k1 + k2) in s2 */
  memset (x, 0, (size_t) a.n * sizeof *x);
  x[0] = 0.5;
  model_energy_shares (&m, parts, np, x, kin, str, &e);
  CHECK ("A moves: kinetic in A", fabs (kin[0] - 1) < 1e-14);
  CHECK ("A moves: strain split 2:1", fabs (str[3] - 100.0 / 150) < 1e-14 &&
         fabs (str[4] - 50.0 / 150) < 1e-14 && fabs (str[3] + str[4] - 1) < 1e-14);
  /* A and B along y together: springs unstretched (no strain: shares 0), kinetic 2:3 */
  memset (x, 0, (size_t) a.n * sizeof *x);
  x[1] = x[7] = 1;
  model_energy_shares (&m, parts, np, x, kin, str, &e);
  CHECK ("rigid motion: no strain shares", str[0] == 0 && str[3] == 0 && str[4] == 0);
  CHECK ("rigid motion: kinetic 2:3", fabs (kin[0] - 0.4) < 1e-14 && fabs (kin[1] - 0.6) < 1e-14);
  /* the beam's middle node along z: everything in the beam; shares sum to 1 */
  memset (x, 0, (size_t) a.n * sizeof *x);
  x[6 * 3 + 2] = 1e-3 * I;
  model_energy_shares (&m, parts, np, x, kin, str, &e);
  double sk = 0, ss = 0;
  for (int i = 0; i < np; i++) { sk += kin[i]; ss += str[i]; }
  CHECK ("beam mode: in the beam", fabs (kin[2] - 1) < 1e-14 && fabs (str[2] - 1) < 1e-14);
  CHECK ("shares sum to 1", fabs (sk - 1) < 1e-14 && fabs (ss - 1) < 1e-14);
  free (x);
  free (parts);
  assembly_clear (&a);
  model_clear (&m);
  free (t);
}

int main (void)
{
  test_beamgrid ();
  test_joints ();
  test_rank ();
  test_energy ();
  return CHECK_DONE ();
}
