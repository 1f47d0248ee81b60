/* test_statics.c: FIM and MKEAM on point-mass models written here (particles with 3 DOFs,
   nonlinear springs, distance constraints to ground, gravity) against closed forms, and the
   statics deck section; MPI (1 and 2 ranks: the problem lives on rank 0). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "check.h"
#include "deck/deck.h"
#include "statics/statics.h"

static int rank;
#define CHECK0(descr, c) do { if (rank == 0) CHECK (descr, c); } while (0)

/* ---- a toy model: np particles, springs (i, j or ground anchor), rods to ground ---- */
enum { MAXP = 4, MAXS = 4, MAXC = 2 };
typedef struct toy {
  int np, ns, nc;
  double mass[MAXP];
  double g[3];
  struct { int i, j; double anchor[3], k, l0; } s[MAXS];   /* j = -1: to anchor */
  struct { int i; double anchor[3], L; } c[MAXC];           /* |x_i - anchor| = L */
  double x[3 * MAXP], slot[STATICS_SLOTS][3 * MAXP];
  spm *K, *M, *Cq;
  double r[3 * MAXP], cres[MAXC], fext[3 * MAXP];
  int evals;
} toy;

static void toy_vec (const toy *t, int i, int j, const double *anchor, double *d, double *l)
{
  for (int a = 0; a < 3; a++) d[a] = (j >= 0 ? t->x[3 * j + a] : anchor[a]) - t->x[3 * i + a];
  *l = sqrt (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]);
}

/* K += k_ij block B at (p, q) with sign */
static void add_block (spm *K, int p, int q, const double B[3][3], double sgn)
{
  for (int a = 0; a < 3; a++)
    for (int b = 0; b < 3; b++) spm_add (K, 3 * p + a, 3 * q + b, sgn * B[a][b]);
}

/* r = f_int - f_ext: spring forces dV/dx minus gravity; K = dr/dx + Kc(gamma) */
static int toy_eval (void *ctx, const double *gamma, statics_eval *e, mb_err *err)
{
  toy *t = ctx;
  int n = 3 * t->np;
  (void) err;
  t->evals++;
  spm_free (t->K), spm_free (t->M), spm_free (t->Cq);
  t->K = spm_create (n, n, 16), t->M = spm_create (n, n, n);
  t->Cq = t->nc ? spm_create (t->nc, n, 3 * t->nc) : NULL;
  for (int i = 0; i < n; i++) {
    spm_add (t->K, i, i, 0.0);
    spm_add (t->M, i, i, t->mass[i / 3]);
    t->r[i] = -t->mass[i / 3] * t->g[i % 3];
    t->fext[i] = t->mass[i / 3] * t->g[i % 3];
  }
  for (int s = 0; s < t->ns; s++) {  /* V = k/2 (l - l0)^2, d = x_j - x_i */
    double d[3], l, B[3][3];
    toy_vec (t, t->s[s].i, t->s[s].j, t->s[s].anchor, d, &l);
    double k = t->s[s].k, f = k * (l - t->s[s].l0);
    for (int a = 0; a < 3; a++) {
      t->r[3 * t->s[s].i + a] -= f * d[a] / l;
      if (t->s[s].j >= 0) t->r[3 * t->s[s].j + a] += f * d[a] / l;
      for (int b = 0; b < 3; b++)
        B[a][b] = k * d[a] * d[b] / (l * l) + f / l * ((a == b) - d[a] * d[b] / (l * l));
    }
    add_block (t->K, t->s[s].i, t->s[s].i, B, 1);
    if (t->s[s].j >= 0) {
      add_block (t->K, t->s[s].j, t->s[s].j, B, 1);
      add_block (t->K, t->s[s].i, t->s[s].j, B, -1);
      add_block (t->K, t->s[s].j, t->s[s].i, B, -1);
    }
  }
  for (int c = 0; c < t->nc; c++) {  /* C = |x_i - anchor| - L; Cq = e^T; Kc = gamma (I - ee^T)/l */
    double d[3], l, B[3][3];
    toy_vec (t, t->c[c].i, -1, t->c[c].anchor, d, &l);  /* d = anchor - x */
    t->cres[c] = l - t->c[c].L;
    for (int a = 0; a < 3; a++) {
      spm_add (t->Cq, c, 3 * t->c[c].i + a, -d[a] / l);
      for (int b = 0; b < 3; b++)
        B[a][b] = gamma[c] * ((a == b) - d[a] * d[b] / (l * l)) / l;
    }
    add_block (t->K, t->c[c].i, t->c[c].i, B, 1);
  }
  spm_compress (t->K), spm_compress (t->M);
  if (t->Cq) spm_compress (t->Cq);
  e->K = t->K, e->M = t->M, e->Cq = t->Cq, e->r = t->r, e->c = t->cres, e->fext = t->fext;
  e->nonsymmetric = 0;
  return 0;
}

static void toy_step (void *ctx, const double *dq, double a)
{
  toy *t = ctx;
  for (int i = 0; i < 3 * t->np; i++) t->x[i] += a * dq[i];
}

static void toy_save (void *ctx, int s)
{
  toy *t = ctx;
  memcpy (t->slot[s], t->x, sizeof t->x);
}

static void toy_load (void *ctx, int s)
{
  toy *t = ctx;
  memcpy (t->x, t->slot[s], sizeof t->x);
}

static void toy_name (void *ctx, int i, char *buf, size_t size)
{
  (void) ctx;
  snprintf (buf, size, "particle %d d%c", i / 3, "xyz"[i % 3]);
}

static statics_problem toy_problem (toy *t)
{
  statics_problem p = { 3 * t->np, t->nc, t, toy_eval, toy_step, toy_save, toy_load,
                        toy_name, NULL };
  return p;
}

static void toy_clear (toy *t)
{
  spm_free (t->K), spm_free (t->M), spm_free (t->Cq);
  t->K = t->M = t->Cq = NULL;
}

static statics_opts defaults (statics_alg m)
{
  statics_opts s = { .method = m, .max_imbalance = 1e-4, .max_error = 1e-4,
                     .stability = 1e-10, .max_num_iter = m == STATICS_ALG_MKEAM ? 100 : 50,
                     .max_ke_tol = 1e-5, .max_dq_tol = 1e-3 };
  return s;
}

static const double G = 9.81;
static const double PI = 3.14159265358979323846;

/* a particle of mass m on a rod of length L from the origin, started at angle th from
   the downward vertical (in the x-z plane) */
static toy pendulum (double m, double L, double th)
{
  toy t;
  memset (&t, 0, sizeof t);
  t.np = 1, t.nc = 1;
  t.mass[0] = m;
  t.g[2] = -G;
  t.c[0].L = L;
  t.x[0] = L * sin (th), t.x[2] = -L * cos (th);
  return t;
}

/* Pendulum hanging: x* = (0, 0, -L), gamma* = m g (the rod tension: F = -f_ext + Cq^T gamma
   with Cq = e^T = (0, 0, -1)); the tangent's swing stiffness gamma / L gives omega^2 = g / L */
static void test_pendulum (MPI_Comm comm)
{
  double m = 2.0, L = 1.5;
  toy t = pendulum (m, L, 30 * PI / 180);
  statics_problem p = toy_problem (&t);
  statics_opts par = defaults (STATICS_ALG_FIM);
  statics_result res;
  memset (&res, 0, sizeof res);
  mb_err err;
  mb_err_init (&err);
  int rc = statics_fim (comm, rank == 0 ? &p : NULL, &par, par.max_num_iter, 0, NULL, &res,
                        &err);
  CHECK ("pendulum: FIM converges", rc == 0);
  if (rc) printf ("%s\n", err.msg);
  CHECK0 ("pendulum: converged flag", res.converged == 1);
  CHECK0 ("pendulum: hangs at (0, 0, -L)", fabs (t.x[0]) < 1e-8 && fabs (t.x[2] + L) < 1e-8);
  CHECK0 ("pendulum: gamma = m g", rank != 0 || fabs (res.gamma[0] - m * G) < 1e-6 * m * G);
  CHECK0 ("pendulum: a few Newton iterations", res.iterations >= 2 && res.iterations < 15);
  int vrc = statics_verdict (comm, rank == 0 ? &p : NULL, 1, &res, &err);
  CHECK ("pendulum: stable (statics_verdict: the inertia of (K, M) on the manifold)",
         vrc == 0 && res.unstable == 0);
  CHECK0 ("pendulum: one analysis, refactorizations after it",
         res.analyses == 1 && res.factorizations == res.iterations);
  if (rank == 0) {
    statics_eval e;
    t.x[0] = 0, t.x[2] = -L;
    toy_eval (&t, res.gamma, &e, &err);
    double kxx = 0;
    for (long k = 0; k < e.K->nnz; k++)
      if (e.K->row[k] == 0 && e.K->col[k] == 0) kxx += e.K->val[k];
    CHECK ("pendulum: omega^2 = Kc / m = g / L", fabs (kxx / m - G / L) < 1e-6 * G / L);
  }
  statics_result_clear (&res);

  /* MKEAM from the same start */
  toy_clear (&t);
  t = pendulum (m, L, 30 * PI / 180);
  p = toy_problem (&t);
  par = defaults (STATICS_ALG_MKEAM);
  memset (&res, 0, sizeof res);
  rc = statics_mkeam (comm, rank == 0 ? &p : NULL, &par, NULL, &res, &err);
  CHECK ("pendulum: MKEAM converges", rc == 0);
  if (rc) printf ("%s\n", err.msg);
  CHECK0 ("pendulum: MKEAM hangs at (0, 0, -L)",
          fabs (t.x[0]) < 1e-8 && fabs (t.x[2] + L) < 1e-8);
  CHECK0 ("pendulum: MKEAM gamma = m g", rank != 0 || fabs (res.gamma[0] - m * G) < 1e-6 * m * G);
  CHECK0 ("pendulum: MKEAM found peaks", res.peaks >= 1);
  statics_result_clear (&res);
  toy_clear (&t);
}

/* Inverted pendulum 5 degrees off the top: FIM (nearest equilibrium) goes to the top,
   gamma = -m g (the rod pushes); MKEAM (stable equilibria only) falls to the bottom. */
static void test_inverted (MPI_Comm comm)
{
  double m = 1.0, L = 1.0;
  toy t = pendulum (m, L, 175 * PI / 180);
  statics_problem p = toy_problem (&t);
  statics_opts par = defaults (STATICS_ALG_FIM);
  statics_result res;
  memset (&res, 0, sizeof res);
  mb_err err;
  mb_err_init (&err);
  int rc = statics_fim (comm, rank == 0 ? &p : NULL, &par, par.max_num_iter, 0, NULL, &res,
                        &err);
  CHECK ("inverted: FIM converges", rc == 0);
  CHECK0 ("inverted: FIM stays at the top", fabs (t.x[0]) < 1e-8 && fabs (t.x[2] - L) < 1e-8);
  CHECK0 ("inverted: gamma = -m g", rank != 0 || fabs (res.gamma[0] + m * G) < 1e-6 * G);
  int vrc = statics_verdict (comm, rank == 0 ? &p : NULL, 1, &res, &err);
  CHECK ("inverted: two unstable directions (x and y swings)", vrc == 0 && res.unstable == 2);
  statics_result_clear (&res);

  toy_clear (&t);
  t = pendulum (m, L, 175 * PI / 180);
  p = toy_problem (&t);
  par = defaults (STATICS_ALG_MKEAM);
  memset (&res, 0, sizeof res);
  rc = statics_mkeam (comm, rank == 0 ? &p : NULL, &par, NULL, &res, &err);
  CHECK ("inverted: MKEAM converges", rc == 0);
  if (rc) printf ("%s\n", err.msg);
  CHECK0 ("inverted: MKEAM falls to the bottom",
          fabs (t.x[0]) < 1e-8 && fabs (t.x[2] + L) < 1e-8);
  statics_result_clear (&res);
  toy_clear (&t);
}

/* Three masses hanging on three springs in series from an anchor at the origin: spring s
   carries the weight below it, so its elongation is g sum_{i >= s} m_i / k_s and the
   position of mass i is -(sum of free lengths and elongations above it). */
static void test_chain (MPI_Comm comm, statics_alg method)
{
  toy t;
  memset (&t, 0, sizeof t);
  t.np = 3, t.ns = 3;
  double m[3] = { 1.0, 2.0, 0.5 }, k[3] = { 2000, 1500, 800 }, l0[3] = { 0.3, 0.2, 0.25 };
  t.g[2] = -G;
  double z = 0;
  for (int i = 0; i < 3; i++) {
    t.mass[i] = m[i];
    t.s[i].i = i, t.s[i].j = i - 1, t.s[i].k = k[i], t.s[i].l0 = l0[i];
    z -= l0[i];
    t.x[3 * i + 2] = z;  /* at the free lengths: no spring force */
  }
  statics_problem p = toy_problem (&t);
  statics_opts par = defaults (method);
  par.stability = 1e-10;
  statics_result res;
  memset (&res, 0, sizeof res);
  mb_err err;
  mb_err_init (&err);
  int rc = statics_solve (comm, rank == 0 ? &p : NULL, &par, NULL, &res, &err);
  CHECK ("chain: converges", rc == 0);
  if (rc) printf ("%s\n", err.msg);
  /* the x and y DOFs of a string of springs along z have zero stiffness at the free
     length: the stability term handles them */
  double want = 0, worst = 0;
  for (int i = 0; i < 3; i++) {
    double below = 0;
    for (int j = i; j < 3; j++) below += m[j];
    want -= l0[i] + G * below / k[i];
    if (rank == 0 && fabs (t.x[3 * i + 2] - want) > worst) worst = fabs (t.x[3 * i + 2] - want);
  }
  /* FIM converges to round-off; MKEAM's polish reaches max_imbalance / k_min */
  CHECK0 (method == STATICS_ALG_FIM ? "chain: FIM deflections = sums of m g / k"
                                : "chain: MKEAM deflections = sums of m g / k", worst < 1e-7);
  statics_result_clear (&res);
  toy_clear (&t);
}

/* A free particle without loads: K = 0. stability 0: the tangent is singular and the
   error names the particle's DOFs and p_f; with p_f the grounded springs make it solvable
   and the (zero) load leaves it where it is. */
static void test_free (MPI_Comm comm)
{
  toy t;
  memset (&t, 0, sizeof t);
  t.np = 1;
  t.mass[0] = 1;
  t.x[0] = 0.5;
  statics_problem p = toy_problem (&t);
  statics_opts par = defaults (STATICS_ALG_FIM);
  par.stability = 0;
  statics_result res;
  memset (&res, 0, sizeof res);
  mb_err err;
  mb_err_init (&err);
  int rc = statics_fim (comm, rank == 0 ? &p : NULL, &par, 50, 0, NULL, &res, &err);
  CHECK ("free: singular tangent is an error", rc == MB_ESOLVE);
  CHECK ("free: the message names the DOFs", strstr (err.msg, "particle 0 d") != NULL);
  CHECK ("free: the message names p_f", strstr (err.msg, "p_f") != NULL);
  statics_result_clear (&res);
  par.p_f = 1e-8;
  mb_err_init (&err);
  memset (&res, 0, sizeof res);
  rc = statics_fim (comm, rank == 0 ? &p : NULL, &par, 50, 0, NULL, &res, &err);
  CHECK ("free: p_f converges", rc == 0);
  if (rc) printf ("%s\n", err.msg);
  CHECK ("free: p_f added three springs", res.nsprings == 3);
  CHECK0 ("free: the particle stays", t.x[0] == 0.5 && t.x[1] == 0 && t.x[2] == 0);
  statics_result_clear (&res);
  toy_clear (&t);
}

/* Zero loads at a stress-free start: one Newton iteration, the state unchanged. Then the
   pendulum with max_num_iter 1: MB_ENOCONV, the best state kept and reported. */
static void test_zero_and_noconv (MPI_Comm comm)
{
  toy t;
  memset (&t, 0, sizeof t);
  t.np = 1, t.ns = 1;
  t.mass[0] = 1;
  t.s[0].i = 0, t.s[0].j = -1, t.s[0].k = 100, t.s[0].l0 = 1;
  t.x[2] = -1;
  statics_problem p = toy_problem (&t);
  statics_opts par = defaults (STATICS_ALG_FIM);
  statics_result res;
  memset (&res, 0, sizeof res);
  mb_err err;
  mb_err_init (&err);
  int rc = statics_fim (comm, rank == 0 ? &p : NULL, &par, 50, 0, NULL, &res, &err);
  CHECK ("zero loads: converges", rc == 0);
  CHECK0 ("zero loads: one iteration", res.iterations == 1);
  CHECK0 ("zero loads: the start", t.x[0] == 0 && t.x[1] == 0 && t.x[2] == -1);
  statics_result_clear (&res);
  toy_clear (&t);

  t = pendulum (1.0, 1.0, 60 * PI / 180);
  p = toy_problem (&t);
  memset (&res, 0, sizeof res);
  rc = statics_fim (comm, rank == 0 ? &p : NULL, &par, 1, 0, NULL, &res, &err);
  CHECK ("noconv: MB_ENOCONV", rc == MB_ENOCONV);
  CHECK ("noconv: says max_num_iter", strstr (err.msg, "max_num_iter") != NULL);
  CHECK0 ("noconv: not converged", res.converged == 0 && res.nhist == 2);
  CHECK0 ("noconv: the best state's imbalance reported",
          res.imbalance <= res.hist[0].imbalance && res.imbalance <= res.hist[1].imbalance);
  statics_result_clear (&res);
  toy_clear (&t);
}

/* The deck section: defaults and an explicit mkeam section. */
static void test_deck (void)
{
  const char *base = "units: SI\nbodies:\n  b: {mass: 1, inertia: [1, 1, 1], position: [0, 0, 0]}\n";
  char text[512];
  deck d;
  mb_err err;
  snprintf (text, sizeof text, "%s", base);
  mb_err_init (&err);
  CHECK ("deck: no statics", deck_parse (text, strlen (text), "t.yaml", &d, &err) == 0
         && d.statics.present == 0);
  deck_clear (&d);
  snprintf (text, sizeof text, "%sstatics:\n", base);
  int rc = deck_parse (text, strlen (text), "t.yaml", &d, &err);
  CHECK ("deck: empty statics = defaults", rc == 0 && d.statics.present
         && d.statics.method == STATICS_FIM && d.statics.max_imbalance == 1e-4
         && d.statics.max_error == 1e-4 && d.statics.stability == 1e-10
         && d.statics.max_num_iter == 50 && d.statics.max_ke_tol == 1e-5
         && d.statics.max_dq_tol == 1e-3 && d.statics.p_f == 0
         && d.statics.allow_unconverged == 0 && d.statics.line == 4);
  deck_clear (&d);
  snprintf (text, sizeof text, "%sstatics:\n  method: MKEAM\n  p_f: 1e-6\n"
            "  allow_unconverged: true\n", base);
  rc = deck_parse (text, strlen (text), "t.yaml", &d, &err);
  CHECK ("deck: mkeam defaults to 100 iterations", rc == 0
         && d.statics.method == STATICS_MKEAM && d.statics.max_num_iter == 100
         && d.statics.p_f == 1e-6 && d.statics.allow_unconverged == 1);
  deck_clear (&d);
}

/* ---- a linear problem for the verdict: 3 DOFs, K given, M = I, Cq = [0 0 1] ---- */
typedef struct lin3 {
  double k[9];      /* K, row-major */
  spm *K, *M, *Cq;
  double r[3], c[1];
} lin3;

/* At q = 0: r = 0, C = 0; K as given, M = I, Cq = e3^T. */
static int lin3_eval (void *ctx, const double *gamma, statics_eval *e, mb_err *err)
{
  lin3 *t = ctx;
  (void) gamma, (void) err;
  if (!t->K) {
    t->K = spm_create (3, 3, 9), t->M = spm_create (3, 3, 3), t->Cq = spm_create (1, 3, 1);
    for (int i = 0; i < 3; i++) {
      for (int j = 0; j < 3; j++) spm_add (t->K, i, j, t->k[3 * i + j]);
      spm_add (t->M, i, i, 1.0);
    }
    spm_add (t->Cq, 0, 2, 1.0);
    spm_compress (t->K), spm_compress (t->M), spm_compress (t->Cq);
  }
  e->K = t->K, e->M = t->M, e->Cq = t->Cq, e->r = t->r, e->c = t->c;
  e->nonsymmetric = 0;
  return 0;
}

static void lin3_step (void *ctx, const double *dq, double a) { (void) ctx, (void) dq, (void) a; }
static void lin3_slot (void *ctx, int s) { (void) ctx, (void) s; }

/* statics_verdict against closed forms: the eigenvalues of K's upper 2 x 2 block (the
   constraint fixes DOF 3, whose K_33 = -9 would be unstable alone):
   symmetric [[4, 1], [1, -2]]: 1 +- sqrt(10), one negative -> 1;
   non-symmetric [[4, 3], [-3, 4]]: 4 +- 3i, a complex pair (flutter) -> 2;
   [[4, 0], [0, 3]] with K_13 = 7, K_31 = 5 (non-symmetric off the manifold): 4, 3 -> 0;
   K = 0 (a free body without springs): every eigenvalue 0, rigid -> 0;
   not converged: -1 whatever K. On 1 and 2 ranks. */
static void test_verdict (MPI_Comm comm)
{
  enum { NK = 4 };
  static const double ks[NK][9] = { { 4, 1, 7, 1, -2, 1, 7, 1, -9 },
                                    { 4, 3, 7, -3, 4, 1, 5, 2, -9 },
                                    { 4, 0, 7, 0, 3, 1, 5, 2, -9 },
                                    { 0, 0, 0, 0, 0, 0, 0, 0, 0 } };
  static const int want[NK] = { 1, 2, 0, 0 };
  for (int c = 0; c <= NK; c++) {  /* c = NK: not converged */
    lin3 t;
    memset (&t, 0, sizeof t);
    memcpy (t.k, ks[c < NK ? c : 0], sizeof t.k);
    statics_problem p = { 3, 1, &t, lin3_eval, lin3_step, lin3_slot, lin3_slot, NULL, NULL };
    statics_result res;
    memset (&res, 0, sizeof res);
    res.gamma = calloc (1, sizeof *res.gamma);
    mb_err err;
    mb_err_init (&err);
    int rc = statics_verdict (comm, rank == 0 ? &p : NULL, c < NK, &res, &err);
    char what[96];
    snprintf (what, sizeof what, "verdict case %d: %d unstable (got %d)", c,
              c < NK ? want[c] : -1, res.unstable);
    CHECK (what, rc == 0 && res.unstable == (c < NK ? want[c] : -1));
    statics_result_clear (&res);
    spm_free (t.K), spm_free (t.M), spm_free (t.Cq);
  }
}

int main (int argc, char **argv)
{
  MPI_Init (&argc, &argv);
  MPI_Comm comm = MPI_COMM_WORLD;
  MPI_Comm_rank (comm, &rank);
  test_deck ();
  test_pendulum (comm);
  test_inverted (comm);
  test_chain (comm, STATICS_ALG_FIM);
  test_chain (comm, STATICS_ALG_MKEAM);
  test_free (comm);
  test_zero_and_noconv (comm);
  test_verdict (comm);
  int bad = CHECK_DONE ();
  MPI_Finalize ();
  return bad;
}
