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
#include "model/elements.h"   /* beam_element, beam_energy: the element level */
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
              "'rev2' (revolute, dx of its frame) repeat those of 'rev1' (Cq has rank 5 "
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
         has (e.msg, "(lock, dy of its frame)") && has (e.msg, "(Cq has rank 6 for 7 rows)"));
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
  static char names[401][16];   /* room for "b" and any int: no truncation warning */
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

/* A preloaded spring from ground at (-1, 0, 0) to body A at the origin (k = 100 N/m,
   tension F = 20 N, L = 1 m, n = x): K = k n n^T (material) + F / L (I - n n^T)
   (geometric), so A along x: material 1; along y: geometric 1; along (1, 1, 0):
   material k / (k + F), geometric F / (k + F) (closed forms). A point force pushing B at
   an offset of 1 m (a load, its lever: load stiffness, no material part) is a strain term
   of kind PART_LOAD after the parts. */
static void test_energy_split (void)
{
  tdeck *t = calloc (1, sizeof *t);
  td_init (t);
  td_body (t, "A", 2, (double[3]) { 1, 1, 1 }, (double[3]) { 0, 0, 0 }, NULL);
  td_body (t, "B", 1, (double[3]) { 1, 1, 1 }, (double[3]) { 5, 0, 0 }, NULL);
  deck_force *s1 = td_force (t, "s1", FORCE_SPRING, "ground", "A");
  s1->has_points = 1;
  double pts[6] = { -1, 0, 0, 0, 0, 0 };
  memcpy (s1->points, pts, sizeof pts);
  s1->k = 100;
  s1->preload = 20;
  deck_force *pf = td_force (t, "push", FORCE_POINT, "B", NULL);
  pf->value[1] = 5;
  pf->has_at = 1;
  pf->at[0] = 6;
  model m;
  assembly a;
  if (build (t, &m, &a)) { CHECK ("split model builds", 0); free (t); return; }
  model_part *terms = NULL;
  int nt = model_strain_terms (&m, &terms);
  CHECK ("strain terms: A, B, s1, then the load push", nt == 4 && terms[2].kind == PART_FORCE
         && terms[3].kind == PART_LOAD && !strcmp (terms[3].name, "push"));
  double complex *x = calloc ((size_t) a.n, sizeof *x);
  double kin[4], mat[4], geo[4];
  mb_err e;
  mb_err_init (&e);
  x[0] = 1;
  model_energy_split (&m, terms, nt, x, kin, mat, geo, &e);
  CHECK ("spring along its axis: material 1", fabs (mat[2] - 1) < 1e-14 && fabs (geo[2]) < 1e-14);
  x[0] = 0, x[1] = 1;
  model_energy_split (&m, terms, nt, x, kin, mat, geo, &e);
  CHECK ("spring across: geometric (tension) 1",
         fabs (mat[2]) < 1e-14 && fabs (geo[2] - 1) < 1e-14);
  x[0] = 1;
  model_energy_split (&m, terms, nt, x, kin, mat, geo, &e);
  CHECK ("spring at 45 degrees: k / (k + F), F / (k + F)",
         fabs (mat[2] - 100.0 / 120) < 1e-14 && fabs (geo[2] - 20.0 / 120) < 1e-14);
  /* B turns about (1, 1, 0) and moves along x: only the load's lever stiffness
     -skew(f) skew(r) = (f . r) I - r f^T (f = 5 y, r = x): x^T K x = -(t . r)(f . t) < 0,
     all of it: geometric 1, no material part */
  memset (x, 0, (size_t) a.n * sizeof *x);
  x[6] = 1, x[9] = x[10] = 0.5;
  model_energy_split (&m, terms, nt, x, kin, mat, geo, &e);
  CHECK ("the load: geometric 1, material 0", mat[3] == 0 && fabs (geo[3] - 1) < 1e-14);
  free (x);
  free (terms);
  assembly_clear (&a);
  model_clear (&m);
  free (t);
}

/* ==== the model at a state (state.h, assemble_at) ==== */

/* Deterministic pseudo-random numbers in [-1, 1] (LCG; tests only). */
static double urand (unsigned *seed)
{
  *seed = *seed * 1664525u + 1013904223u;
  return 2.0 * ((*seed >> 8) / 16777216.0) - 1.0;
}

/* exp and log on SO(3) against closed forms. */
static void test_rotations (void)
{
  double w[3] = { 0, 0, 2 * atan (1.0) }, R[9], v[3];
  model_rot_exp (w, R);       /* 90 degrees about z: closed form [[0 -1 0][1 0 0][0 0 1]] */
  const double Rz[9] = { 0, -1, 0, 1, 0, 0, 0, 0, 1 };
  double worst = 0;
  for (int i = 0; i < 9; i++) worst = fmax (worst, fabs (R[i] - Rz[i]));
  CHECK ("exp: 90 degrees about z", worst < 1e-15);
  unsigned seed = 7;
  const double mags[5] = { 1e-9, 1e-3, 1.0, 2.9, 3.1 };
  worst = 0;
  for (int t = 0; t < 5; t++) {
    double a[3] = { urand (&seed), urand (&seed), urand (&seed) }, Rr[9];
    unit3 (a);
    for (int i = 0; i < 3; i++) a[i] *= mags[t];
    rodrigues (a, Rr);          /* the fixture's own Rodrigues */
    model_rot_exp (a, R);
    for (int i = 0; i < 9; i++) worst = fmax (worst, fabs (R[i] - Rr[i]));
    model_rot_log (Rr, v);
    for (int i = 0; i < 3; i++) worst = fmax (worst, fabs (v[i] - a[i]));
  }
  CHECK ("exp = Rodrigues and log(exp(w)) = w, |w| from 1e-9 to 3.1", worst < 1e-12);
  /* a state stepped 1000 times stays a rotation; x adds */
  model_state st = { 0 };
  st.nnodes = 1;
  st.x = calloc (3, sizeof *st.x);
  st.R = calloc (9, sizeof *st.R);
  st.gamma = calloc (1, sizeof *st.gamma);
  st.R[0] = st.R[4] = st.R[8] = 1;
  double dq[6] = { 1e-3, 0, 0, 0.01, 0.02, -0.03 };
  for (int k = 0; k < 1000; k++) model_state_step (&st, dq, 1.0);
  double big[3] = { 10, 20, -30 }, Rb[9], orth = 0;
  rodrigues (big, Rb);          /* all steps about one axis: exp(1000 w) */
  worst = 0;
  for (int i = 0; i < 9; i++) worst = fmax (worst, fabs (st.R[i] - Rb[i]));
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      double d = 0;
      for (int k = 0; k < 3; k++) d += st.R[3 * k + i] * st.R[3 * k + j];
      orth = fmax (orth, fabs (d - (i == j)));
    }
  CHECK ("1000 steps about one axis: exp(sum), orthonormal", worst < 1e-11 && orth < 1e-14 &&
         fabs (st.x[0] - 1.0) < 1e-12);
  model_state_clear (&st);
}

/* F = f_int - f_ext + Cq^T gamma (n), from an assembly. */
static void residual (const assembly *a, const double *gamma, double *F)
{
  if (a->Cq) spm_matvec_t (a->Cq, gamma, F);
  else memset (F, 0, (size_t) a->n * sizeof *F);
  for (int i = 0; i < a->n; i++) F[i] += a->f_int[i] - a->f_ext[i];
}

/* Builds t's model; s = deck state stepped by a random dq (translations amp_x, rotations
   amp_r), random gamma of size gmax. Returns 0 when built. */
static int state_setup (tdeck *t, model *m, model_state *s, double amp_x, double amp_r,
                        double gmax, unsigned seed)
{
  mb_err e;
  mb_err_init (&e);
  if (model_build_deck (&t->dm, "deck.yaml", m, &e)) {
    printf ("  build failed: %s: %s\n", e.where, e.msg);
    return -1;
  }
  if (model_state_init (m, s, &e)) { model_clear (m); return -1; }
  int n = 6 * m->nnodes;
  double *dq = calloc ((size_t) n, sizeof *dq);
  for (int i = 0; i < n; i++) dq[i] = (i % 6 < 3 ? amp_x : amp_r) * urand (&seed);
  model_state_step (s, dq, 1.0);
  for (int i = 0; i < s->m; i++) s->gamma[i] = gmax * urand (&seed);
  free (dq);
  return 0;
}

/* Central differences of F and C along every increment e_j (h) against K and Cq at s:
   returns the largest errors relative to max |K| and max |Cq|. */
static void fd_errors (const model *m, const model_state *s, double h, double *ek, double *ec,
                       int *nonsym)
{
  mb_err e;
  mb_err_init (&e);
  assembly a = { 0 }, ap = { 0 };
  model_state sp = { 0 };
  assemble_at (m, s, &a, &e);
  model_state_copy (s, &sp, &e);
  int n = a.n, mm = a.m;
  double *K = dense_of (a.K), *C = a.Cq ? dense_of (a.Cq) : NULL;
  double *Fp = calloc ((size_t) n, sizeof *Fp), *Fm = calloc ((size_t) n, sizeof *Fm);
  double *cp = calloc ((size_t) mm + 1, sizeof *cp), *dq = calloc ((size_t) n, sizeof *dq);
  double kmax = 0, cmax = 0, wk = 0, wc = 0;
  for (int i = 0; i < n * n; i++) kmax = fmax (kmax, fabs (K[i]));
  for (int i = 0; C && i < mm * n; i++) cmax = fmax (cmax, fabs (C[i]));
  for (int j = 0; j < n; j++) {
    memset (dq, 0, (size_t) n * sizeof *dq);
    dq[j] = 1.0;
    for (int sg = 1; sg >= -1; sg -= 2) {
      model_state_assign (&sp, s);
      model_state_step (&sp, dq, sg * h);
      assemble_at (m, &sp, &ap, &e);
      residual (&ap, s->gamma, sg > 0 ? Fp : Fm);
      if (sg > 0) memcpy (cp, ap.c, (size_t) mm * sizeof *cp);
      else
        for (int i = 0; i < mm; i++)
          wc = fmax (wc, fabs ((cp[i] - ap.c[i]) / (2 * h) - C[(size_t) j * mm + i]));
    }
    for (int i = 0; i < n; i++)
      wk = fmax (wk, fabs ((Fp[i] - Fm[i]) / (2 * h) - K[(size_t) j * n + i]));
  }
  *ek = kmax > 0 ? wk / kmax : wk;
  *ec = cmax > 0 ? wc / cmax : wc;
  *nonsym = a.nonsymmetric;
  free (K); free (C); free (Fp); free (Fm); free (cp); free (dq);
  assembly_clear (&a);
  assembly_clear (&ap);
  model_state_clear (&sp);
}

/* A model with every element kind: bodies with rotated axes, a beam with y_axis and
   Iy != Iz, every joint type (ground on either side), springs (preloaded, zero-length,
   damped), a rotational spring with preload, a bushing, fixed and follower forces and
   torques. gravity: with gravity; loads: with the fixed (global) loads. */
static tdeck *fd_model (int gravity, int loads, int grounded)
{
  tdeck *t = calloc (1, sizeof *t);
  td_init (t);
  td_material (t, "m", 2e7, 8e6, 500);
  t->mats[0].alpha = 0.1; t->mats[0].beta = 1e-4;
  td_section (t, "s", 1e-2, 2e-5, 5e-5, 4e-5);
  double Ra[9], Rb[9];
  rodrigues ((double[3]) { 0.3, -0.2, 0.5 }, Ra);
  rodrigues ((double[3]) { -0.4, 0.1, 0.2 }, Rb);
  td_body (t, "A", 2, (double[3]) { 1, 2, 3 }, (double[3]) { 0, 0, 0 }, Ra);
  td_body (t, "B", 3, (double[3]) { 2, 1, 1.5 }, (double[3]) { 1, 0.5, 0 }, Rb);
  td_body (t, "C", 1.5, (double[3]) { 1, 1, 1 }, (double[3]) { 2, 0, 0.3 }, NULL);
  td_body (t, "D", 1, (double[3]) { 0.5, 0.7, 0.9 }, (double[3]) { 0.5, -1, 0.2 }, Rb);
  double p[6] = { 0, 1, 0, 2, 1.3, 0.4 };
  td_beam (t, "bm", "m", "s", 2, p, (int[1]) { 3 }, (double[3]) { 0, 0, 1 });
  const char *types_a[9] = { "A", grounded ? "ground" : "D", "B", "C", "bm.3", "D", "A", "C",
                             "bm.0" };
  const char *types_b[9] = { "B", "B", "C", "bm.1", "D", "A", "C", grounded ? "ground" : "A",
                             grounded ? "ground" : "B" };
  const joint_type jt[9] = { JOINT_REVOLUTE, JOINT_SPHERICAL, JOINT_PRISMATIC,
                             JOINT_CYLINDRICAL, JOINT_UNIVERSAL, JOINT_PLANAR,
                             JOINT_DISTANCE, JOINT_LOCK, JOINT_WELD };
  static char *names[9] = { "j0", "j1", "j2", "j3", "j4", "j5", "j6", "j7", "j8" };
  for (int k = 0; k < 9; k++) {
    deck_joint *j = td_joint (t, names[k], jt[k], (char *) types_a[k], (char *) types_b[k]);
    rodrigues ((double[3]) { 0.1 * k, 0.3 - 0.05 * k, 0.2 }, j->R);
    if (k % 2 == 0 && jt[k] != JOINT_DISTANCE) {
      j->has_at = 1;
      j->at[0] = 0.1 * k; j->at[1] = 0.2; j->at[2] = -0.1;
    }
    if (jt[k] == JOINT_LOCK) j->lock_mask = LOCK_X | LOCK_Z | LOCK_RX | LOCK_RZ;
  }
  deck_force *f = td_force (t, "sp", FORCE_SPRING, "A", "C");
  f->has_points = 1;
  double pts[6] = { 0.1, 0.2, 0, 2.1, -0.2, 0.4 };
  memcpy (f->points, pts, sizeof pts);
  f->k = 300; f->c = 2; f->preload = 40; f->has_free_length = 1; f->free_length = 1.5;
  f = td_force (t, "zl", FORCE_SPRING, "D", grounded ? "ground" : "B");
  f->has_points = 1;
  double zp[6] = { 0.5, -1, 0.3, 0.5, -1, 0.3 };
  memcpy (f->points, zp, sizeof zp);
  f->k = 150; f->has_free_length = 1; f->free_length = 0;
  f = td_force (t, "rs", FORCE_ROTATIONAL_SPRING, "B", "C");
  f->axis[0] = 0.2; f->axis[1] = 1; f->axis[2] = 0.3;
  f->k = 80; f->c = 1; f->preload = 5;
  f = td_force (t, "bu", FORCE_BUSHING, "A", "D");
  f->has_at = 1; f->at[0] = 0.3; f->at[1] = -0.4; f->at[2] = 0.1;
  rodrigues ((double[3]) { 0.5, 0.5, -0.2 }, f->R);
  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 6; j++) {
      f->K6[6 * i + j] = (i == j) * (100 + 20 * i) + 5.0 / (1 + i + j);
      f->C6[6 * i + j] = (i == j) * 0.5;
    }
  f = td_force (t, "ff", FORCE_POINT, "D", NULL);      /* follower, off the node */
  f->body_fixed = 1; f->has_at = 1;
  f->at[0] = 0.7; f->at[1] = -0.8; f->at[2] = 0.1;
  f->value[0] = 3; f->value[1] = -2; f->value[2] = 5;
  f = td_force (t, "ft", FORCE_TORQUE, "B", NULL);     /* body-fixed torque */
  f->body_fixed = 1;
  f->value[0] = 1; f->value[1] = 2; f->value[2] = -1;
  if (loads) {
    f = td_force (t, "gf", FORCE_POINT, "C", NULL);
    f->has_at = 1; f->at[0] = 2.2; f->at[1] = 0.1; f->at[2] = 0.3;
    f->value[0] = -4; f->value[1] = 1; f->value[2] = 2;
    f = td_force (t, "gt", FORCE_TORQUE, "A", NULL);
    f->value[0] = 0.5; f->value[1] = -1; f->value[2] = 2;
  }
  if (gravity) { t->dm.gravity[2] = -9.81; t->dm.gravity[0] = 1.0; }
  return t;
}

/* K against central differences of F = f_int - f_ext + Cq^T gamma, Cq against those of
   C(q), Kc included (gamma random), at random deformed states. */
static void test_tangent_fd (void)
{
  const double amp[3][2] = { { 0.01, 0.05 }, { 0.05, 0.3 }, { 0.1, 0.8 } };
  for (int c = 0; c < 3; c++) {
    tdeck *t = fd_model (1, 1, 1);
    model m;
    model_state s = { 0 };
    if (state_setup (t, &m, &s, amp[c][0], amp[c][1], 50.0, 11u + (unsigned) c)) {
      CHECK ("fd model builds", 0); free (t); return;
    }
    double ek, ec;
    int ns;
    fd_errors (&m, &s, 1e-6, &ek, &ec, &ns);
    char what[160];
    snprintf (what, sizeof what, "every element, joint, load at a deformed state (rotations "
              "~%g rad): K = dF/dq (rel. error %.1e), Cq = dC/dq (%.1e)", amp[c][1], ek, ec);
    printf ("  %s\n", what);
    CHECK (what, ek < 1e-8 && ec < 1e-8);
    if (c == 1) CHECK ("lever arms and followers away from equilibrium: K non-symmetric", ns);
    model_state_clear (&s);
    model_clear (&m);
    free (t);
  }
}

/* beam_energy (one difference along the mode) against the element matrices of
   beam_element (12 columns) at a deformed state with gravity: kinetic, tangent and
   material energies of every beam element for a random complex x. */
static void test_beam_energy (void)
{
  tdeck *t = fd_model (1, 1, 1);
  model m;
  model_state s = { 0 };
  if (state_setup (t, &m, &s, 0.05, 0.3, 50.0, 12u)) { CHECK ("fd model builds", 0); free (t); return; }
  int n = 6 * m.nnodes;
  double complex *x = calloc ((size_t) n, sizeof *x);
  unsigned seed = 5u;
  for (int i = 0; i < n; i++) x[i] = urand (&seed) + I * urand (&seed);
  double worst = 0.0, worst_m = 0.0, worst_k = 0.0;
  int count = 0;
  for (int ib = 0; ib < m.nbeams; ib++)
    for (int q = 0; q < m.beams[ib].nelements; q++) {
      elem e, em;
      beam_element (&m, &s, ib, q, EVAL_GRAVITY, &e);
      beam_element (&m, &s, ib, q, EVAL_GRAVITY | EVAL_MATERIAL, &em);
      double kin, mat, tan;
      beam_energy (&m, &s, ib, q, EVAL_GRAVITY, x, &kin, &mat, &tan);
      double rk = elem_energy (&e, e.M, x), rt = elem_energy (&e, e.K, x);
      double rm = elem_energy (&em, em.K, x);
      worst = fmax (worst, fabs (tan - rt) / fmax (fabs (rt), rm));
      worst_m = fmax (worst_m, fabs (mat - rm) / rm);
      worst_k = fmax (worst_k, fabs (kin - rk) / rk);
      count++;
    }
  char what[200];
  snprintf (what, sizeof what, "beam_energy at a deformed state, %d elements: tangent %.1e, "
            "material %.1e, kinetic %.1e (relative to beam_element's matrices)", count, worst,
            worst_m, worst_k);
  printf ("  %s\n", what);
  CHECK (what, count > 0 && worst < 1e-8 && worst_m < 1e-12 && worst_k < 1e-12);
  free (x);
  model_state_clear (&s);
  model_clear (&m);
  free (t);
}

/* Each kind alone (a sharper scale): a beam cantilever, each joint, each force. */
static void test_tangent_fd_parts (void)
{
  const joint_type jts[8] = { JOINT_WELD, JOINT_REVOLUTE, JOINT_SPHERICAL, JOINT_PRISMATIC,
                              JOINT_CYLINDRICAL, JOINT_UNIVERSAL, JOINT_PLANAR, JOINT_LOCK };
  for (int kind = 0; kind < 4 + 16 + 3; kind++) {
    tdeck *t = calloc (1, sizeof *t);
    td_init (t);
    td_material (t, "m", 2e7, 8e6, 500);
    td_section (t, "s", 1e-2, 2e-5, 5e-5, 4e-5);
    double Ra[9];
    rodrigues ((double[3]) { 0.3, -0.2, 0.5 }, Ra);
    td_body (t, "A", 2, (double[3]) { 1, 2, 3 }, (double[3]) { 0, 0, 0 }, Ra);
    td_body (t, "B", 3, (double[3]) { 2, 1, 1.5 }, (double[3]) { 1, 0.5, 0.2 }, NULL);
    const char *what = "";
    if (kind == 0) {
      double p[6] = { 0, 1, 0, 2, 1.3, 0.4 };
      td_beam (t, "bm", "m", "s", 2, p, (int[1]) { 2 }, (double[3]) { 0, 0, 1 });
      t->dm.gravity[2] = -9.81;
      what = "corotational beam with gravity";
    } else if (kind == 1) {
      deck_joint *j = td_joint (t, "d", JOINT_DISTANCE, "A", "B");
      j->has_points = 1;
      double pts[6] = { 0.2, 0.1, 0, 1.1, 0.3, 0.5 };
      memcpy (j->points, pts, sizeof pts);
      what = "distance joint with offsets";
    } else if (kind == 2) {
      deck_force *f = td_force (t, "rs", FORCE_ROTATIONAL_SPRING, "A", "B");
      f->axis[2] = 1; f->k = 80; f->preload = 5;
      what = "rotational spring with preload";
    } else if (kind == 3) {
      deck_force *f = td_force (t, "bu", FORCE_BUSHING, "A", "B");
      for (int i = 0; i < 6; i++) f->K6[7 * i] = 100 + 10 * i;
      what = "bushing";
    } else if (kind < 4 + 16) {                 /* each joint type, A-B then ground-B */
      static char *jn[8] = { "weld", "revolute", "spherical", "prismatic", "cylindrical",
                             "universal", "planar", "lock" };
      static char buf[16][64];
      int q = (kind - 4) % 8, gnd = (kind - 4) / 8;
      deck_joint *j = td_joint (t, "j", jts[q], gnd ? "ground" : "A", "B");
      rodrigues ((double[3]) { 0.4, -0.3, 0.2 }, j->R);
      j->has_at = 1;
      j->at[0] = 0.4; j->at[1] = 0.1; j->at[2] = -0.2;
      if (jts[q] == JOINT_LOCK) j->lock_mask = LOCK_Y | LOCK_RX | LOCK_RY;
      snprintf (buf[kind - 4], sizeof buf[0], "%s joint%s", jn[q], gnd ? " to ground" : "");
      what = buf[kind - 4];
    } else if (kind == 20) {
      deck_force *f = td_force (t, "sp", FORCE_SPRING, "A", "B");
      f->has_points = 1;
      double pts[6] = { 0.1, 0.2, 0, 1.1, 0.3, 0.5 };
      memcpy (f->points, pts, sizeof pts);
      f->k = 300; f->preload = 40; f->has_free_length = 1; f->free_length = 0.8;
      what = "spring with preload and offsets";
    } else if (kind == 21) {
      deck_force *f = td_force (t, "pf", FORCE_POINT, "A", NULL);
      f->has_at = 1; f->at[0] = 0.3; f->at[1] = 0.2; f->at[2] = -0.5;
      f->value[0] = 3; f->value[2] = -7;
      f = td_force (t, "pt", FORCE_TORQUE, "B", NULL);
      f->value[1] = 2;
      what = "fixed point force off the node and torque";
    } else {
      deck_force *f = td_force (t, "pf", FORCE_POINT, "A", NULL);
      f->body_fixed = 1;
      f->has_at = 1; f->at[0] = 0.3; f->at[1] = 0.2; f->at[2] = -0.5;
      f->value[0] = 3; f->value[2] = -7;
      f = td_force (t, "pt", FORCE_TORQUE, "B", NULL);
      f->body_fixed = 1;
      f->value[1] = 2; f->value[0] = -1;
      what = "follower force and body-fixed torque";
    }
    model m;
    model_state s = { 0 };
    if (state_setup (t, &m, &s, 0.05, 0.4, 30.0, 5u + (unsigned) kind)) {
      CHECK (what, 0); free (t); continue;
    }
    double ek, ec;
    int ns;
    fd_errors (&m, &s, 1e-6, &ek, &ec, &ns);
    char msg[200];
    snprintf (msg, sizeof msg, "%s: K = dF/dq (rel. error %.1e), Cq = dC/dq (%.1e)", what, ek, ec);
    printf ("  %s\n", msg);
    CHECK (msg, ek < 1e-8 && ec < 1e-8);
    model_state_clear (&s);
    model_clear (&m);
    free (t);
  }
}

/* A rigid motion (Q, t) of the whole covariant model (no gravity, no global loads):
   f_int, K, M, Cq, C are the deck's (the linear element, the deck rows) turned by Q:
   the corotational beam reduces to the linear element at zero deformation, the joints'
   rows to today's rows, with the same gamma. */
static void test_rigid_motion (void)
{
  tdeck *t = fd_model (0, 0, 0);
  model m;
  model_state s0 = { 0 }, s = { 0 };
  mb_err e;
  mb_err_init (&e);
  if (state_setup (t, &m, &s0, 0, 0, 20.0, 3u)) { CHECK ("rigid model builds", 0); free (t); return; }
  model_state_copy (&s0, &s, &e);
  double Q[9], tr[3] = { 0.3, -1.2, 2.0 };
  rodrigues ((double[3]) { 0.7, -1.1, 0.4 }, Q);
  for (int i = 0; i < m.nnodes; i++) {
    double y[3], R[9];
    matvec3 (Q, s0.x + 3 * i, y);
    for (int k = 0; k < 3; k++) s.x[3 * i + k] = y[k] + tr[k];
    for (int r = 0; r < 3; r++)
      for (int c = 0; c < 3; c++) {
        double v = 0;
        for (int k = 0; k < 3; k++) v += Q[3 * r + k] * s0.R[9 * i + 3 * k + c];
        R[3 * r + c] = v;
      }
    memcpy (s.R + 9 * i, R, sizeof R);
  }
  assembly a0 = { 0 }, a1 = { 0 };
  assemble_at (&m, &s0, &a0, &e);
  assemble_at (&m, &s, &a1, &e);
  int n = a0.n, mm = a0.m;
  /* P = blockdiag(Q) (n x n): K1 = P K0 P^T, M likewise, Cq1 = Cq0 P^T, f1 = P f0, c1 = c0 */
  double *K0 = dense_of (a0.K), *K1 = dense_of (a1.K), *M0 = dense_of (a0.M), *M1 = dense_of (a1.M);
  double *C0 = dense_of (a0.Cq), *C1 = dense_of (a1.Cq);
  double wk = 0, kmax = 0, wm = 0, mmax = 0, wc = 0, cmax = 0, wf = 0, fmax_ = 0, wcc = 0;
  for (int bi = 0; bi < n / 3; bi++)
    for (int bj = 0; bj < n / 3; bj++)
      for (int i = 0; i < 3; i++)
        for (int j = 0; j < 3; j++) {
          double vk = 0, vm = 0;
          for (int p = 0; p < 3; p++)
            for (int q = 0; q < 3; q++) {
              size_t idx = (size_t) (3 * bj + q) * n + (size_t) (3 * bi + p);
              vk += Q[3 * i + p] * K0[idx] * Q[3 * j + q];
              vm += Q[3 * i + p] * M0[idx] * Q[3 * j + q];
            }
          size_t o = (size_t) (3 * bj + j) * n + (size_t) (3 * bi + i);
          wk = fmax (wk, fabs (vk - K1[o])); kmax = fmax (kmax, fabs (K1[o]));
          wm = fmax (wm, fabs (vm - M1[o])); mmax = fmax (mmax, fabs (M1[o]));
        }
  for (int r = 0; r < mm; r++)
    for (int bj = 0; bj < n / 3; bj++)
      for (int j = 0; j < 3; j++) {
        double v = 0;
        for (int q = 0; q < 3; q++) v += C0[(size_t) (3 * bj + q) * mm + r] * Q[3 * j + q];
        size_t o = (size_t) (3 * bj + j) * mm + r;
        wc = fmax (wc, fabs (v - C1[o])); cmax = fmax (cmax, fabs (C1[o]));
      }
  for (int b = 0; b < n / 3; b++) {
    double y[3];
    matvec3 (Q, a0.f_int + 3 * b, y);
    for (int i = 0; i < 3; i++) {
      wf = fmax (wf, fabs (y[i] - a1.f_int[3 * b + i]));
      fmax_ = fmax (fmax_, fabs (a1.f_int[3 * b + i]));
    }
  }
  for (int r = 0; r < mm; r++) wcc = fmax (wcc, fabs (a1.c[r] - a0.c[r]));
  printf ("  rigid motion: errors K %.1e M %.1e Cq %.1e c %.1e f %.1e (relative)\n", wk / kmax,
          wm / mmax, wc / cmax, wcc, wf / fmax_);
  CHECK ("rigid motion: K turns with Q (corotational = linear at zero deformation)",
         wk < 1e-12 * kmax);
  CHECK ("rigid motion: M turns with Q", wm < 1e-13 * mmax);
  CHECK ("rigid motion: Cq rows turn with Q, C unchanged", wc < 1e-13 * cmax && wcc < 1e-13);
  CHECK ("rigid motion: internal forces turn with Q (preloads only)", wf < 1e-12 * fmax_);
  free (K0); free (K1); free (M0); free (M1); free (C0); free (C1);
  assembly_clear (&a0);
  assembly_clear (&a1);
  model_state_clear (&s0);
  model_state_clear (&s);
  model_clear (&m);
  free (t);
}

/* A beam alone, rotated rigidly by a large angle: zero internal force. */
static void test_rigid_beam (void)
{
  tdeck *t = calloc (1, sizeof *t);
  td_init (t);
  td_material (t, "m", 2e11, 8e10, 7800);
  td_section (t, "s", 1e-3, 2e-7, 5e-7, 4e-7);
  double p[9] = { 0, 0, 0, 1, 0.5, 0, 2, 0.5, 1 };
  td_beam (t, "bm", "m", "s", 3, p, (int[2]) { 3, 2 }, (double[3]) { 0, 0, 1 });
  model m;
  model_state s = { 0 };
  mb_err e;
  mb_err_init (&e);
  if (state_setup (t, &m, &s, 0, 0, 0, 1u)) { CHECK ("beam builds", 0); free (t); return; }
  double w[3] = { 2.0, -1.0, 0.5 }, Q[9];
  rodrigues (w, Q);
  double *dq = calloc ((size_t) 6 * m.nnodes, sizeof *dq);
  for (int i = 0; i < m.nnodes; i++) {       /* x -> Q x + t, R -> Q R: dq = (Q x + t - x, w) */
    double y[3];
    matvec3 (Q, s.x + 3 * i, y);
    for (int k = 0; k < 3; k++) { dq[6 * i + k] = y[k] - s.x[3 * i + k] + 5.0; dq[6 * i + 3 + k] = w[k]; }
  }
  model_state_step (&s, dq, 1.0);
  assembly a = { 0 };
  assemble_at (&m, &s, &a, &e);
  double fm = 0, km = spm_max_abs (a.K);
  for (int i = 0; i < a.n; i++) fm = fmax (fm, fabs (a.f_int[i]));
  CHECK ("beam rotated rigidly by 2.3 rad: zero internal force (|f| < 1e-12 max |K|)",
         fm < 1e-12 * km);
  CHECK ("beam rotated rigidly: K symmetric (flag 0)", a.nonsymmetric == 0);
  free (dq);
  assembly_clear (&a);
  model_state_clear (&s);
  model_clear (&m);
  free (t);
}

/* Solves the dense (n + m) system [K Cq^T; Cq 0] [x; y] = [b; d] with LAPACK dgesv. */
static int solve_kkt (const assembly *a, double *rhs)
{
  int n = a->n, mm = a->m, N = n + mm;
  double *A = calloc ((size_t) N * N, sizeof *A), *K = dense_of (a->K), *C = dense_of (a->Cq);
  lapack_int *ip = calloc ((size_t) N, sizeof *ip);
  for (int j = 0; j < n; j++)
    for (int i = 0; i < n; i++) A[(size_t) j * N + i] = K[(size_t) j * n + i];
  for (int j = 0; j < n; j++)
    for (int r = 0; r < mm; r++) {
      A[(size_t) j * N + n + r] = C[(size_t) j * mm + r];
      A[(size_t) (n + r) * N + j] = C[(size_t) j * mm + r];
    }
  int rc = LAPACKE_dgesv (LAPACK_COL_MAJOR, N, 1, A, N, ip, rhs, N);
  free (A); free (K); free (C); free (ip);
  return rc;
}

/* Cantilever clamped by a weld to ground, small tip load P: Newton on
   F = f_int - f_ext + Cq^T gamma = 0, C = 0 (dense solves) reaches the linear deflection
   P L^3 / (3 E I) (Euler-Bernoulli, exact for cubic elements) and the reaction P. */
static void test_cantilever_newton (void)
{
  tdeck *t = calloc (1, sizeof *t);
  td_init (t);
  double E = 2e11, Iz = 8e-9, L = 2.0, P = 0.1;
  td_material (t, "m", E, 8e10, 7800);
  td_section (t, "s", 1e-4, Iz, Iz, 1.6e-8);
  double p[6] = { 0, 0, 0, L, 0, 0 };
  td_beam (t, "bm", "m", "s", 2, p, (int[1]) { 8 }, NULL);
  td_joint (t, "clamp", JOINT_WELD, "ground", "bm.start");
  deck_force *f = td_force (t, "tip", FORCE_POINT, "bm.end", NULL);
  f->value[2] = -P;
  model m;
  model_state s = { 0 };
  mb_err e;
  mb_err_init (&e);
  if (state_setup (t, &m, &s, 0, 0, 0, 1u)) { CHECK ("cantilever builds", 0); free (t); return; }
  assembly a = { 0 };
  int n = 6 * m.nnodes, mm = m.nconstraints, it;
  double *rhs = calloc ((size_t) (n + mm), sizeof *rhs), res = 0;
  for (it = 0; it < 10; it++) {
    assemble_at (&m, &s, &a, &e);
    residual (&a, s.gamma, rhs);
    res = 0;
    for (int i = 0; i < n; i++) { rhs[i] = -rhs[i]; res = fmax (res, fabs (rhs[i])); }
    for (int r = 0; r < mm; r++) { rhs[n + r] = -a.c[r]; res = fmax (res, fabs (a.c[r])); }
    if (res < 1e-6 * P) break;   /* round-off of EA (l - L0): EA eps ~ 2e-9 N */
    if (solve_kkt (&a, rhs)) break;
    model_state_step (&s, rhs, 1.0);
    for (int r = 0; r < mm; r++) s.gamma[r] += rhs[n + r];
  }
  double w = s.x[3 * (m.nnodes - 1) + 2] - 0.0, wref = -P * L * L * L / (3 * E * Iz);
  char what[200];
  snprintf (what, sizeof what, "cantilever, small tip load: Newton converges (%d iterations) "
            "to w = P L^3 / (3 E I) (%.9g vs %.9g)", it, w, wref);
  printf ("  %s\n", what);
  CHECK (what, res < 1e-6 * P && it <= 4 && fabs (w - wref) < 1e-7 * fabs (wref));
  /* the clamp's vertical reaction: gamma of the weld's row along e3 balances P */
  CHECK ("cantilever: reaction along z = -P on the beam (gamma = P)",
         fabs (fabs (s.gamma[2]) - P) < 1e-8 * P);
  free (rhs);
  assembly_clear (&a);
  model_state_clear (&s);
  model_clear (&m);
  free (t);
}

/* assemble_at at the deck state with gamma = 0 and no gravity: the same K (values), M, R,
   Cq as assemble_system (without the rotational spring's preload, whose deck-only
   stiffness assemble_system keeps: force.c); refilling the pattern at a new state equals a fresh build
   there, bitwise. */
static void test_deck_and_refill (void)
{
  tdeck *t = fd_model (0, 1, 1);
  t->forces[2].preload = 0;                        /* "rs" */
  model m;
  model_state s = { 0 }, s2 = { 0 };
  mb_err e;
  mb_err_init (&e);
  if (state_setup (t, &m, &s, 0, 0, 0, 1u)) { CHECK ("model builds", 0); free (t); return; }
  assembly a0, a1 = { 0 }, a2 = { 0 };
  assemble_system (&m, &a0, &e);
  assemble_at (&m, &s, &a1, &e);
  CHECK ("deck state, gamma 0: K, M, R, Cq equal assemble_system's",
         compare_dense (a1.K, a0.K) == 0 && compare_dense (a1.M, a0.M) == 0 &&
         compare_dense (a1.R, a0.R) == 0 && compare_dense (a1.Cq, a0.Cq) == 0);
  CHECK ("deck state: K pattern has the joint blocks too", a1.K->nnz >= a0.K->nnz);
  CHECK ("deck state with a follower force: K flagged non-symmetric",
         a0.nonsymmetric == 1 && a1.nonsymmetric == 1);
  long nnz = a1.K->nnz;
  model_state_copy (&s, &s2, &e);
  double *dq = calloc ((size_t) a1.n, sizeof *dq);
  unsigned seed = 99;
  for (int i = 0; i < a1.n; i++) dq[i] = 0.1 * urand (&seed);
  for (int i = 0; i < s2.m; i++) s2.gamma[i] = urand (&seed);
  model_state_step (&s2, dq, 1.0);
  assemble_at (&m, &s2, &a1, &e);                  /* refill */
  assemble_at (&m, &s2, &a2, &e);                  /* fresh */
  int same = a1.K->nnz == nnz && a1.K->nnz == a2.K->nnz;
  for (long k = 0; same && k < a1.K->nnz; k++) same = a1.K->val[k] == a2.K->val[k];
  for (long k = 0; same && k < a1.Cq->nnz; k++) same = a1.Cq->val[k] == a2.Cq->val[k];
  for (long k = 0; same && k < a1.M->nnz; k++) same = a1.M->val[k] == a2.M->val[k];
  for (int i = 0; same && i < a1.n; i++)
    same = a1.f_int[i] == a2.f_int[i] && a1.f_ext[i] == a2.f_ext[i];
  CHECK ("refill in the fixed pattern = fresh assembly, bitwise", same);
  free (dq);
  assembly_clear (&a0); assembly_clear (&a1); assembly_clear (&a2);
  model_state_clear (&s); model_state_clear (&s2);
  model_clear (&m);
  free (t);
}

/* Out of memory at the assembly's allocations (mb_fault "assemble") and model_parts:
   MB_ENOMEM, nothing leaked (ASan run), the struct cleared. */
static void test_faults (void)
{
  tdeck *t = fd_model (1, 1, 1);
  model m;
  model_state s = { 0 };
  mb_err e;
  mb_err_init (&e);
  if (state_setup (t, &m, &s, 0, 0, 0, 1u)) { CHECK ("model builds", 0); free (t); return; }
  assembly a = { 0 };
  mb_fault_set ("*:assemble");
  int rc1 = assemble_at (&m, &s, &a, &e);
  int rc2 = assemble_system (&m, &a, &e);
  mb_fault_set ("*:model");
  model_part *parts = NULL;
  int np = model_parts (&m, &parts);
  model m2;
  model_state s2 = { 0 };
  int rc3 = model_build_deck (&t->dm, "deck.yaml", &m2, &e);
  int rc4 = model_state_init (&m, &s2, &e);
  mb_fault_set (NULL);
  CHECK ("out of memory: assemble_at, assemble_system, model_parts give MB_ENOMEM",
         rc1 == MB_ENOMEM && rc2 == MB_ENOMEM && np == MB_ENOMEM && a.K == NULL);
  CHECK ("out of memory: model_build, model_state_init give MB_ENOMEM, cleared",
         rc3 == MB_ENOMEM && m2.nodes == NULL && rc4 == MB_ENOMEM && s2.x == NULL);
  model_state_clear (&s);
  model_clear (&m);
  free (t);
}

/* model_spring_at and model_joint_frame_at: at the deck, the spring's force is its
   preload plus k (L - L0) (hand numbers), the joint frame is the deck's; after a rigid
   rotation of node a by w, the frame turns by exp(w) about the node. */
static void test_queries (void)
{
  tdeck *t = fd_model (0, 0, 1);
  model m;
  model_state s = { 0 };
  mb_err e;
  mb_err_init (&e);
  if (state_setup (t, &m, &s, 0, 0, 0, 1u)) { CHECK ("model builds", 0); free (t); return; }
  double ext, force;
  /* "sp": points (0.1 0.2 0) - (2.1 -0.2 0.4): L = sqrt(4 + 0.16 + 0.16), L0 1.5, k 300,
     preload 40 */
  double L = sqrt (4.32);
  int rc = model_spring_at (&m, &s, 0, &ext, &force);
  CHECK ("spring at the deck: extension L - L0, force preload + k (L - L0)",
         rc == 0 && fabs (ext - (L - 1.5)) < 1e-14 && fabs (force - (40 + 300 * (L - 1.5))) < 1e-11);
  rc = model_spring_at (&m, &s, 2, &ext, &force);
  CHECK ("rotational spring at the deck: angle 0, torque -preload", rc == 0 && ext == 0 &&
         force == -5);
  CHECK ("a bushing is not a spring", model_spring_at (&m, &s, 3, &ext, &force) == -1);
  double x[3], R[9], w[3] = { 0, 0, 0.3 }, Q[9];
  model_joint_frame_at (&m, &s, 0, x, R);
  int same = 1;
  for (int i = 0; i < 3; i++) same = same && x[i] == m.joints[0].x[i];
  for (int i = 0; i < 9; i++) same = same && R[i] == m.joints[0].R[i];
  CHECK ("joint frame at the deck", same);
  double *dq = calloc ((size_t) 6 * m.nnodes, sizeof *dq);
  int na = m.joints[0].a;
  dq[6 * na + 5] = w[2];
  model_state_step (&s, dq, 1.0);
  model_joint_frame_at (&m, &s, 0, x, R);
  rodrigues (w, Q);
  double r0[3], r1[3], worst = 0;
  for (int i = 0; i < 3; i++) r0[i] = m.joints[0].x[i] - m.nodes[na].x[i];
  matvec3 (Q, r0, r1);
  for (int i = 0; i < 3; i++) worst = fmax (worst, fabs (x[i] - (m.nodes[na].x[i] + r1[i])));
  for (int r = 0; r < 3; r++)
    for (int c = 0; c < 3; c++) {
      double v = 0;
      for (int k = 0; k < 3; k++) v += Q[3 * r + k] * m.joints[0].R[3 * k + c];
      worst = fmax (worst, fabs (R[3 * r + c] - v));
    }
  CHECK ("joint frame turns with node a", worst < 1e-14);
  free (dq);
  model_state_clear (&s);
  model_clear (&m);
  free (t);
}

/* Physical pendulum on a revolute hinge (axis y through the origin), centre of mass at
   (0, 0, -+L) under gravity -z: at the deck (an equilibrium) the reaction gamma solves
   Cq^T gamma = f_ext - f_int (least squares, LAPACK dgels); along the hinge's motion
   n = (dx, dtheta) = (e_y x c, e_y), c the centre of mass (Cq n = 0), K = Kc(gamma) gives
   omega^2 = n^T K n / n^T M n = +-m g L / (J_yy + m L^2) (closed form; inverted: unstable). */
static void test_pendulum (void)
{
  for (int up = 0; up < 2; up++) {
    tdeck *t = calloc (1, sizeof *t);
    td_init (t);
    double m0 = 2.0, L = 1.5, g = 9.81, Jy = 0.3, zc = up ? L : -L;
    td_body (t, "bob", m0, (double[3]) { 0.2, Jy, 0.25 }, (double[3]) { 0, 0, zc }, NULL);
    deck_joint *j = td_joint (t, "hinge", JOINT_REVOLUTE, "ground", "bob");
    const double Rh[9] = { 0, 1, 0, 0, 0, 1, 1, 0, 0 };   /* e1 = z, e2 = x, e3 = y */
    memcpy (j->R, Rh, sizeof Rh);
    j->has_at = 1;
    t->dm.gravity[2] = -g;
    model m;
    model_state s = { 0 };
    mb_err e;
    mb_err_init (&e);
    if (state_setup (t, &m, &s, 0, 0, 0, 1u)) { CHECK ("pendulum builds", 0); free (t); return; }
    assembly a = { 0 };
    assemble_at (&m, &s, &a, &e);
    int n = a.n, mm = a.m;
    double *C = dense_of (a.Cq), rhs[6];
    for (int i = 0; i < n; i++) rhs[i] = a.f_ext[i] - a.f_int[i];
    double *At = calloc ((size_t) n * mm, sizeof *At);        /* Cq^T, n x m col-major */
    for (int r = 0; r < mm; r++)
      for (int c = 0; c < n; c++) At[(size_t) r * n + c] = C[(size_t) c * mm + r];
    LAPACKE_dgels (LAPACK_COL_MAJOR, 'N', n, mm, 1, At, n, rhs, n);
    for (int r = 0; r < mm; r++) s.gamma[r] = rhs[r];
    assemble_at (&m, &s, &a, &e);
    double *K = dense_of (a.K), *M = dense_of (a.M);
    double nv[6] = { zc, 0, 0, 0, 1, 0 };      /* dx = e_y x (0, 0, zc) = (zc, 0, 0) */
    double cn = 0, kn = 0, mn = 0, F[6];
    for (int r = 0; r < mm; r++) {
      double v = 0;
      for (int c = 0; c < n; c++) v += C[(size_t) c * mm + r] * nv[c];
      cn = fmax (cn, fabs (v));
    }
    residual (&a, s.gamma, F);
    double res = 0;
    for (int i = 0; i < n; i++) res = fmax (res, fabs (F[i]));
    for (int i = 0; i < n; i++)
      for (int c = 0; c < n; c++) {
        kn += nv[i] * K[(size_t) c * n + i] * nv[c];
        mn += nv[i] * M[(size_t) c * n + i] * nv[c];
      }
    double w2 = kn / mn, ref = (up ? -1 : 1) * m0 * g * L / (Jy + m0 * L * L);
    char what[200];
    snprintf (what, sizeof what, "%s pendulum: equilibrium, Cq n = 0, omega^2 = %s m g L / "
              "(J + m L^2) from Kc (%.12g vs %.12g)", up ? "inverted" : "hanging",
              up ? "-" : "", w2, ref);
    CHECK (what, res < 1e-12 && cn < 1e-15 && fabs (w2 - ref) < 1e-12 * fabs (ref));
    free (C); free (At); free (K); free (M);
    assembly_clear (&a);
    model_state_clear (&s);
    model_clear (&m);
    free (t);
  }
}

/* Newton on F = 0, C = 0 with dense KKT solves from state s: returns the iterations used
   (maxit + 1 when it did not reach |F|, |C| <= tol). */
static int newton (const model *m, model_state *s, int maxit, double tol)
{
  mb_err e;
  mb_err_init (&e);
  assembly a = { 0 };
  int n = 6 * m->nnodes, mm = m->nconstraints, it;
  double *rhs = calloc ((size_t) (n + mm), sizeof *rhs);
  for (it = 0; it <= maxit; it++) {
    assemble_at (m, s, &a, &e);
    residual (&a, s->gamma, rhs);
    double res = 0;
    for (int i = 0; i < n; i++) { rhs[i] = -rhs[i]; res = fmax (res, fabs (rhs[i])); }
    for (int r = 0; r < mm; r++) { rhs[n + r] = -a.c[r]; res = fmax (res, fabs (a.c[r])); }
    if (res <= tol) break;
    if (it == maxit || solve_kkt (&a, rhs)) { it = maxit + 1; break; }
    model_state_step (s, rhs, 1.0);
    for (int r = 0; r < mm; r++) s->gamma[r] += rhs[n + r];
  }
  free (rhs);
  assembly_clear (&a);
  return it;
}

/* Cantilever (clamped at x = 0, length L, along x) under a tip moment M_z = phi E I / L,
   phi = pi/2, in 8 load steps: the elastica is a circular arc of radius EI / M, so the
   tip reaches (R sin phi, R (1 - cos phi)) = (2L/pi, 2L/pi) and turns by phi (closed
   form); with ne elements the corotational chords err by O((phi/ne)^2): the error falls
   ~4x when the mesh doubles. Newton needs few iterations per step (consistent tangent). */
static void test_elastica_moment (void)
{
  double err[2] = { 0, 0 };
  int maxits = 0;
  const int nes[2] = { 10, 20 };
  for (int c = 0; c < 2; c++) {
    tdeck *t = calloc (1, sizeof *t);
    td_init (t);
    double E = 1e7, Iz = 1e-6, L = 1.0, phi = 2 * atan (1.0);
    td_material (t, "m", E, 4e6, 100);
    td_section (t, "s", 1e-3, Iz, Iz, 2e-6);
    double p[6] = { 0, 0, 0, L, 0, 0 };
    td_beam (t, "bm", "m", "s", 2, p, (int[1]) { nes[c] }, NULL);
    td_joint (t, "clamp", JOINT_WELD, "ground", "bm.start");
    td_force (t, "moment", FORCE_TORQUE, "bm.end", NULL);
    model m;
    model_state s = { 0 };
    if (state_setup (t, &m, &s, 0, 0, 0, 1u)) { CHECK ("elastica builds", 0); free (t); return; }
    double Mz = phi * E * Iz / L;
    int ok = 1;
    for (int step = 1; step <= 8 && ok; step++) {
      m.forces[0].value[2] = Mz * step / 8.0;
      int it = newton (&m, &s, 20, 1e-9 * Mz);
      maxits = it > maxits ? it : maxits;
      ok = it <= 20;
    }
    int tip = m.nnodes - 1;
    double R = L / phi, w[3];
    model_rot_log (s.R + 9 * tip, w);
    err[c] = fmax (fabs (s.x[3 * tip] - R * sin (phi)), fabs (s.x[3 * tip + 1] - R * (1 - cos (phi))));
    err[c] = ok ? fmax (err[c], fabs (w[2] - phi)) : 1.0;
    model_state_clear (&s);
    model_clear (&m);
    free (t);
  }
  char what[220];
  snprintf (what, sizeof what, "cantilever under a tip moment, a quarter circle: tip error %.2e "
            "(10 elements), %.2e (20), at most %d Newton iterations per load step",
            err[0], err[1], maxits);
  printf ("  %s\n", what);
  CHECK (what, err[1] < 1e-3 && err[0] / err[1] > 3.5 && maxits <= 6);
}

/* Cantilever under its own weight q = rho A g: small sag (g / 100): the tip deflection q L^4 / (8 E I)
   (Euler-Bernoulli closed form; cubic elements with the consistent load are exact at the
   nodes); large sag (gravity 2000 x, load steps): at the equilibrium K is symmetric
   (gravity, joints and the corotational beam are conservative). */
static void test_self_weight (void)
{
  for (int big = 0; big < 2; big++) {
    tdeck *t = calloc (1, sizeof *t);
    td_init (t);
    double E = 2e11, Iz = 8e-9, A = 1e-4, rho = 7800, L = 2.0, g = 9.81;
    td_material (t, "m", E, 8e10, rho);
    td_section (t, "s", A, Iz, Iz, 1.6e-8);
    double p[6] = { 0, 0, 0, L, 0, 0 };
    td_beam (t, "bm", "m", "s", 2, p, (int[1]) { 8 }, NULL);
    td_joint (t, "clamp", JOINT_WELD, "ground", "bm.start");
    model m;
    model_state s = { 0 };
    mb_err e;
    mb_err_init (&e);
    if (state_setup (t, &m, &s, 0, 0, 0, 1u)) { CHECK ("self weight builds", 0); free (t); return; }
    int nsteps = big ? 10 : 1, maxit = 0;
    for (int k = 1; k <= nsteps; k++) {
      m.gravity[2] = -g * (big ? 2000.0 : 0.01) * k / nsteps;
      int it = newton (&m, &s, 30, 1e-6 * rho * A * L * fabs (m.gravity[2]));
      maxit = it > maxit ? it : maxit;
    }
    double w = s.x[3 * (m.nnodes - 1) + 2], wref = -rho * A * 0.01 * g * L * L * L * L / (8 * E * Iz);
    if (!big) {
      char what[200];
      snprintf (what, sizeof what, "cantilever, small self-weight sag: w = q L^4 / (8 E I) "
                "(%.10g vs %.10g)", w, wref);
      printf ("  %s\n", what);
      CHECK (what, maxit <= 4 && fabs (w - wref) < 1e-6 * fabs (wref));
    } else {
      assembly a = { 0 };
      assemble_at (&m, &s, &a, &e);
      double *K = dense_of (a.K), asym = 0, kmax = 0;
      for (int i = 0; i < a.n; i++)
        for (int j = 0; j < a.n; j++) {
          asym = fmax (asym, fabs (K[(size_t) j * a.n + i] - K[(size_t) i * a.n + j]));
          kmax = fmax (kmax, fabs (K[(size_t) j * a.n + i]));
        }
      char what[200];
      snprintf (what, sizeof what, "cantilever, large self-weight sag (tip %.3f m down, %d "
                "Newton iterations at most): K symmetric at the equilibrium (%.1e)", -w, maxit,
                asym / kmax);
      printf ("  %s\n", what);
      CHECK (what, maxit <= 8 && -w > 0.2 * L && asym < 1e-9 * kmax && a.nonsymmetric == 0);
      free (K);
      assembly_clear (&a);
    }
    model_state_clear (&s);
    model_clear (&m);
    free (t);
  }
}

int main (void)
{
  test_beamgrid ();
  test_joints ();
  test_rank ();
  test_energy ();
  test_energy_split ();
  test_rotations ();
  test_tangent_fd ();
  test_tangent_fd_parts ();
  test_beam_energy ();
  test_rigid_motion ();
  test_rigid_beam ();
  test_cantilever_newton ();
  test_deck_and_refill ();
  test_faults ();
  test_queries ();
  test_pendulum ();
  test_elastica_moment ();
  test_self_weight ();
  return CHECK_DONE ();
}
