/* test_compare.c: `mbmodal compare`: pairing by MAC and frequency, tolerances, bad files. */
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "report/compare.h"
#include "report/report.h"

static char tmpdir[] = "/tmp/mbmodal_test_compare_XXXXXX";
static char written[128][600];  /* files to remove at the end */
static int nwritten;

static const double two_pi = 6.283185307179586;

static const char *tmp_path (const char *name)
{
  snprintf (written[nwritten], sizeof written[0], "%s/%s", tmpdir, name);
  return written[nwritten++];
}

static const char *write_text (const char *name, const char *text)
{
  const char *path = tmp_path (name);
  FILE *f = fopen (path, "w");
  if (f) {
    fputs (text, f);
    fclose (f);
  }
  return path;
}

/* ---- hand-built results */

/* A modal result with nmodes modes of n DOFs: lambda[i] [rad^2/s^2], f = sqrt(lambda)/2pi,
   vectors vec[i] (n reals, row i) or none when vec is NULL. */
static void make_modal (eigen_result *r, int n, int nmodes, const double *lambda,
                        const double *vec)
{
  memset (r, 0, sizeof *r);
  r->stage = STAGE_MODAL;
  r->n = n;
  r->nev = nmodes;
  r->factor.negative_pivots = -1;
  r->nmodes = nmodes;
  r->modes = calloc ((size_t) nmodes, sizeof *r->modes);
  for (int i = 0; i < nmodes; i++) {
    mode *md = &r->modes[i];
    md->lambda = lambda[i];
    md->freq_hz = sqrt (fabs (lambda[i])) / two_pi;
    md->damped_freq_hz = md->freq_hz;
    md->kind = lambda[i] < 1e-9 ? MODE_RIGID : MODE_OSCILLATORY;
    md->residual = 1e-15;
    if (vec) {
      md->x = calloc ((size_t) n, sizeof *md->x);
      for (int k = 0; k < n; k++) md->x[k] = vec[i * n + k];
    }
  }
}

static void free_result (eigen_result *r)
{
  for (int i = 0; r->modes && i < r->nmodes; i++) free (r->modes[i].x);
  free (r->modes);
  memset (r, 0, sizeof *r);
}

static const char *write_result (const char *name, eigen_result *r)
{
  const char *path = tmp_path (name);
  mb_err err;
  mb_err_init (&err);
  if (report_write_yaml (path, r, "test.yaml", NULL, 1, NULL, &err) != 0)
    printf ("cannot write %s: %s\n", path, err.msg);
  free_result (r);
  return path;
}

/* compare with rtol (rtol_given when rtol > 0), default MAC 0.99; output into *text. */
static int run (const char *a, const char *b, double rtol, int modes, mb_err *err, char **text)
{
  compare_opts o;
  compare_opts_init (&o);
  if (rtol > 0) {
    o.rtol = rtol;
    o.rtol_given = 1;
  }
  o.modes = modes;
  size_t len;
  *text = NULL;
  FILE *f = open_memstream (text, &len);
  mb_err_init (err);
  int rc = compare_reports (a, b, &o, f, err);
  fclose (f);
  return rc;
}

/* Ring of three unit masses joined by unit springs (K circulant [2 -1 -1], M = I):
   lambda = 0 with x = (1,1,1)/sqrt3 (rigid), and lambda = 3 twice with the plane
   orthogonal to (1,1,1) as eigenspace, e.g. (1,-1,0)/sqrt2 and (1,1,-2)/sqrt6.
   Hand computation: K (1,-1,0) = (3,-3,0), K (1,1,-2) = (3,3,-6). */
static const double ring_lambda[3] = { 0.0, 3.0, 3.0 };
static double ring_vec[9];

static void ring_vectors (double t, double *v)
{
  double s3 = 1 / sqrt (3.0), s2 = 1 / sqrt (2.0), s6 = 1 / sqrt (6.0);
  double u[3] = { s2, -s2, 0 }, w[3] = { s6, s6, -2 * s6 };
  for (int k = 0; k < 3; k++) {
    v[k] = s3;
    v[3 + k] = cos (t) * u[k] + sin (t) * w[k];  /* basis rotated by t within lambda = 3 */
    v[6 + k] = -sin (t) * u[k] + cos (t) * w[k];
  }
}

/* Fixed-free chain of two unit masses and unit springs: K = [2 -1; -1 1], M = I,
   lambda = (3 -+ sqrt 5)/2, x ~ (1, 2 - lambda) normalized (det(K - lambda I) = 0 by hand). */
static void chain (double *lambda, double *vec, double scale)
{
  for (int i = 0; i < 2; i++) {
    double l = (3 + (i == 0 ? -1 : 1) * sqrt (5.0)) / 2, x1 = 1, x2 = 2 - l;
    double nrm = sqrt (x1 * x1 + x2 * x2);
    lambda[i] = l * scale;
    vec[2 * i] = x1 / nrm;
    vec[2 * i + 1] = x2 / nrm;
  }
}

static void test_ring (void)
{
  eigen_result r;
  mb_err err;
  char *out;
  double v[9], lam[3];

  ring_vectors (0.0, ring_vec);
  make_modal (&r, 3, 3, ring_lambda, ring_vec);
  const char *a = write_result ("ring_a.yaml", &r);
  CHECK ("report vs itself: ok", run (a, a, 0, 0, &err, &out) == 0);
  CHECK ("final line", out && strstr (out, "compare: 3 modes ok, 0 failed\n"));
  free (out);

  /* lambda 3 -> 3 (1 + 1e-4) in mode 2 only: regression at rtol 1e-6, ok at 1e-3 */
  memcpy (lam, ring_lambda, sizeof lam);
  lam[1] = 3.0 * (1 + 1e-4);
  make_modal (&r, 3, 3, lam, ring_vec);
  const char *b = write_result ("ring_perturbed.yaml", &r);
  CHECK ("perturbed eigenvalue: regression", run (a, b, 0, 0, &err, &out) == MB_EREGRESS);
  CHECK ("perturbed: FAIL eigenvalue", out && strstr (out, "FAIL eigenvalue"));
  CHECK ("perturbed: 1 failed", out && strstr (out, "compare: 2 modes ok, 1 failed"));
  CHECK ("regression error code", err.code == MB_EREGRESS);
  free (out);
  CHECK ("perturbed eigenvalue within --rtol 1e-3: ok", run (a, b, 1e-3, 0, &err, &out) == 0);
  free (out);

  /* modes listed in reverse order: pairing is by MAC, not by index */
  double lrev[3] = { ring_lambda[2], ring_lambda[1], ring_lambda[0] }, vrev[9];
  for (int i = 0; i < 3; i++) memcpy (vrev + 3 * i, ring_vec + 3 * (2 - i), 3 * sizeof (double));
  make_modal (&r, 3, 3, lrev, vrev);
  b = write_result ("ring_reversed.yaml", &r);
  CHECK ("permuted modes: ok", run (a, b, 0, 0, &err, &out) == 0);
  CHECK ("A's mode 1 (rigid) paired with B's mode 3", out && strstr (out, "      1       3"));
  free (out);

  /* eigenvectors of lambda = 3 rotated by 0.3 rad within the eigenspace: plain MAC
     would be cos^2(0.3) = 0.913 < 0.99, the subspace MAC is 1 */
  ring_vectors (0.3, v);
  make_modal (&r, 3, 3, ring_lambda, v);
  b = write_result ("ring_rotated.yaml", &r);
  CHECK ("repeated eigenvalue, rotated basis: ok", run (a, b, 0, 0, &err, &out) == 0);
  free (out);

  /* and with a rigid mode of B at lambda 1e-14 (numerical zero): rigid pairs pass */
  lam[0] = 1e-14;
  lam[1] = lam[2] = 3.0;
  make_modal (&r, 3, 3, lam, v);
  b = write_result ("ring_rigid_noise.yaml", &r);
  CHECK ("rigid mode at 1e-14 vs 0: ok", run (a, b, 0, 0, &err, &out) == 0);
  CHECK ("rigid shown as such", out && strstr (out, "rigid"));
  free (out);

  /* a vector of the lambda = 3 pair tilted out of the eigenspace, towards (1,1,1), by
     0.3 rad: subspace MAC cos^2(0.3) = 0.913 < 0.99 */
  ring_vectors (0.0, v);
  for (int k = 0; k < 3; k++) v[3 + k] = cos (0.3) * v[3 + k] + sin (0.3) / sqrt (3.0);
  make_modal (&r, 3, 3, ring_lambda, v);
  b = write_result ("ring_tilted.yaml", &r);
  CHECK ("vector outside the eigenspace: regression", run (a, b, 0, 0, &err, &out)
                                                        == MB_EREGRESS);
  CHECK ("tilted: FAIL MAC", out && strstr (out, "FAIL MAC"));
  free (out);

  /* B with only two modes: mode 3 of A unmatched unless --modes 2 */
  make_modal (&r, 3, 2, ring_lambda, ring_vec);
  b = write_result ("ring_two.yaml", &r);
  CHECK ("missing mode: regression", run (a, b, 0, 0, &err, &out) == MB_EREGRESS);
  CHECK ("missing mode: unmatched", out && strstr (out, "unmatched"));
  free (out);
  CHECK ("missing mode beyond --modes 2: ok", run (a, b, 0, 2, &err, &out) == 0);
  free (out);

  /* vectors of another length: a different model */
  double v4[12] = { 0.5, 0.5, 0.5, 0.5, 1, 0, 0, 0, 0, 1, 0, 0 };
  make_modal (&r, 4, 3, ring_lambda, v4);
  b = write_result ("ring_n4.yaml", &r);
  CHECK ("vector length differs: paired by frequency, ok", run (a, b, 0, 0, &err, &out) == 0);
  CHECK ("vector length differs: no MAC shown", out && !strstr (out, "1.000000"));
  free (out);
}

static void test_no_vectors (void)
{
  eigen_result r;
  mb_err err;
  char *out;
  double lam[2], vec[4];
  chain (lam, vec, 1.0);
  make_modal (&r, 2, 2, lam, NULL);
  const char *a = write_result ("chain_a.yaml", &r);
  double lrev[2] = { lam[1], lam[0] };
  make_modal (&r, 2, 2, lrev, NULL);
  const char *b = write_result ("chain_reversed.yaml", &r);
  CHECK ("no vectors, permuted: ok (nearest frequency)", run (a, b, 0, 0, &err, &out) == 0);
  CHECK ("MAC shown as '-'", out && strstr (out, "         -  ok"));
  free (out);

  /* a hand-written reference: frequencies from the closed form, digits from bc -l:
     sqrt((3-sqrt(5))/2)/(8*a(1)) = .0983631643083465967..., sqrt((3+sqrt(5))/2)/(8*a(1))
     = .2575181074002419325... */
  a = write_text ("chain.ref.yaml",
                  "# chain.ref.yaml: fixed-free chain of two unit masses and unit springs,\n"
                  "# K = [2 -1; -1 1], M = I: omega^2 = (3 -+ sqrt 5)/2, f = omega/(2 pi)\n"
                  "format: mbmodal-report\n"
                  "stage: modal\n"
                  "rtol: 1e-8          # the reference digits are good to 1e-10\n"
                  "modes:\n"
                  "  - frequency_hz: 0.0983631643083   # bc -l, closed form above\n"
                  "    kind: oscillatory\n"
                  "  - frequency_hz: 0.257518107400    # bc -l, closed form above\n");
  chain (lam, vec, 1.0);
  make_modal (&r, 2, 2, lam, vec);
  b = write_result ("chain_b.yaml", &r);
  CHECK ("hand-written reference: ok", run (a, b, 0, 0, &err, &out) == 0);
  CHECK ("reference rtol used", out && strstr (out, "rtol 1e-08"));
  free (out);
  chain (lam, vec, 1 + 2e-7);  /* frequencies up by 1e-7 relative */
  make_modal (&r, 2, 2, lam, vec);
  b = write_result ("chain_shifted.yaml", &r);
  CHECK ("1e-7 off with the reference's rtol 1e-8: regression",
         run (a, b, 0, 0, &err, &out) == MB_EREGRESS);
  CHECK ("FAIL frequency when the reference has no eigenvalue",
         out && strstr (out, "FAIL frequency"));
  free (out);
  CHECK ("--rtol 1e-6 overrides the reference's rtol", run (a, b, 1e-6, 0, &err, &out) == 0);
  free (out);
}

static void test_complex (void)
{
  /* one DOF pair: x'' + 2 zeta omega x' + omega^2 x = 0, omega = 2 pi:
     lambda = omega (-zeta + i sqrt(1 - zeta^2)), f = 1 Hz, damping ratio zeta */
  eigen_result r;
  mb_err err;
  char *out;
  const char *path[3];
  const double zeta[3] = { 0.05, 0.05, 0.06 };
  for (int c = 0; c < 3; c++) {
    memset (&r, 0, sizeof r);
    r.stage = STAGE_COMPLEX;
    r.n = 2;
    r.factor.negative_pivots = -1;
    r.nmodes = 1;
    r.modes = calloc (1, sizeof *r.modes);
    mode *md = r.modes;
    md->lambda = two_pi * CMPLX (-zeta[c], sqrt (1 - zeta[c] * zeta[c]));
    md->freq_hz = 1.0;
    md->damped_freq_hz = sqrt (1 - zeta[c] * zeta[c]);
    md->zeta = zeta[c];
    md->kind = MODE_OSCILLATORY;
    md->x = calloc (2, sizeof *md->x);
    md->x[0] = 1.0;
    md->x[1] = CMPLX (0.25, -0.5);
    if (c == 1) {  /* the same vector with another phase: MAC 1 */
      md->x[0] *= cexp (0.7 * I);
      md->x[1] *= cexp (0.7 * I);
    }
    char name[32];
    snprintf (name, sizeof name, "damped%d.yaml", c);
    path[c] = write_result (name, &r);
  }
  CHECK ("complex: phase of the vector does not matter", run (path[0], path[1], 0, 0, &err, &out)
                                                          == 0);
  CHECK ("complex: MAC 1", out && strstr (out, "1.000000  ok"));
  free (out);
  CHECK ("complex: 0.05 vs 0.06 damping is a regression",
         run (path[0], path[2], 0, 0, &err, &out) == MB_EREGRESS);
  free (out);
  /* without eigenvalues only the damping ratio tells them apart */
  const char *ref = write_text ("damped.ref.yaml",
                                "format: mbmodal-report\n"
                                "stage: complex\n"
                                "modes:\n"
                                "  - frequency_hz: 1.0     # omega = 2 pi, closed form\n"
                                "    damping_ratio: 0.05   # zeta of the deck\n");
  CHECK ("reference with damping_ratio 0.05: ok", run (ref, path[0], 1e-3, 0, &err, &out) == 0);
  free (out);
  CHECK ("damping 0.06 vs reference 0.05: regression",
         run (ref, path[2], 1e-3, 0, &err, &out) == MB_EREGRESS);
  CHECK ("FAIL damping only", out && strstr (out, "FAIL damping\n"));
  free (out);

  double lam[2], vec[4];
  chain (lam, vec, 1.0);
  make_modal (&r, 2, 2, lam, vec);
  const char *modal = write_result ("chain_modal.yaml", &r);
  CHECK ("stage mismatch is an error", run (modal, path[0], 0, 0, &err, &out) == MB_EDECK);
  CHECK ("stage mismatch names B's stage line", strstr (err.where, "damped0.yaml:4:8") != NULL);
  free (out);
}

/* error cases: each file and the expected code and position (hand-counted, 1-based) */
static void test_bad_files (void)
{
  static const struct {
    const char *name, *text;
    int code;
    const char *where;  /* suffix of err.where after the folder */
  } cases[] = {
    { "notreport.yaml", "foo: bar\n", MB_EDECK, "/notreport.yaml:1:1" },
    { "seq.yaml", "- 1\n- 2\n", MB_EDECK, "/seq.yaml:1:1" },
    { "format.yaml", "format: other\nstage: modal\nmodes: []\n", MB_EDECK, "/format.yaml:1:9" },
    { "nofreq.yaml", "format: mbmodal-report\nstage: modal\nmodes:\n  - kind: oscillatory\n",
      MB_EDECK, "/nofreq.yaml:4:5" },
    { "badnum.yaml", "format: mbmodal-report\nstage: modal\nmodes:\n  - frequency_hz: 1.5x\n",
      MB_EDECK, "/badnum.yaml:4:19" },
    { "nan.yaml", "format: mbmodal-report\nstage: modal\nmodes:\n  - frequency_hz: .nan\n",
      MB_EDECK, "/nan.yaml:4:19" },
    { "badkind.yaml", "format: mbmodal-report\nstage: modal\nmodes:\n"
                      "  - {frequency_hz: 1, kind: wobbly}\n", MB_EDECK, "/badkind.yaml:4:29" },
    { "version.yaml", "format: mbmodal-report\nformat_version: 2\nstage: modal\nmodes: []\n",
      MB_EDECK, "/version.yaml:2:17" },
    { "dup.yaml", "format: mbmodal-report\nstage: modal\nmodes:\n"
                  "  - frequency_hz: 1\n    frequency_hz: 2\n", MB_EDECK, "/dup.yaml:5:5" },
    { "halfvec.yaml", "format: mbmodal-report\nstage: complex\nmodes:\n"
                      "  - frequency_hz: 1\n    vector_re: [1, 2]\n", MB_EDECK,
      "/halfvec.yaml:5:16" },
    { "nomodes.yaml", "format: mbmodal-report\nstage: modal\nmodes:\n", MB_EDECK,
      "/nomodes.yaml:3:7" },
    { "empty.yaml", "", MB_EDECK, "/empty.yaml:1:1" },
    /* unclosed flow sequence: libyaml stops at the next key, line 3 col 1 */
    { "malformed.yaml", "format: mbmodal-report\nmodes: [1, 2\nstage: modal\n", MB_EDECK,
      "/malformed.yaml:3:" },
    /* a tab where indentation is expected */
    { "tab.yaml", "format: mbmodal-report\nmodes:\n\t- frequency_hz: 1\n", MB_EDECK,
      "/tab.yaml:3:" },
  };
  int n = (int) (sizeof cases / sizeof cases[0]);
  eigen_result r;
  double lam[2], vec[4];
  chain (lam, vec, 1.0);
  make_modal (&r, 2, 2, lam, vec);
  const char *good = write_result ("good.yaml", &r);
  for (int k = 0; k < n; k++) {
    const char *path = write_text (cases[k].name, cases[k].text);
    mb_err err;
    char *out;
    int rc = run (path, good, 0, 0, &err, &out);
    free (out);
    char descr[2048];
    snprintf (descr, sizeof descr, "%s: code %d, got %d", cases[k].name, cases[k].code, rc);
    CHECK (descr, rc == cases[k].code);
    snprintf (descr, sizeof descr, "%s: position %s, got '%s: %s'", cases[k].name,
              cases[k].where, err.where, err.msg);
    CHECK (descr, strstr (err.where, cases[k].where) != NULL);
    rc = run (good, path, 0, 0, &err, &out);  /* also as the second file */
    free (out);
    CHECK ("bad file as B", rc == cases[k].code);
  }
  mb_err err;
  char *out;
  char missing[700];
  snprintf (missing, sizeof missing, "%s/missing.yaml", tmpdir);
  CHECK ("missing file: MB_EIO", run (good, missing, 0, 0, &err, &out) == MB_EIO);
  CHECK ("missing file named", strstr (err.where, "missing.yaml") != NULL);
  free (out);
  CHECK ("a folder is not a report", run (tmpdir, good, 0, 0, &err, &out) < 0);
  free (out);
}

/* compare with --ignore-kinds */
static int run_ignore_kinds (const char *a, const char *b, char **text)
{
  compare_opts o;
  compare_opts_init (&o);
  o.ignore_kinds = 1;
  size_t len;
  *text = NULL;
  FILE *f = open_memstream (text, &len);
  mb_err err;
  mb_err_init (&err);
  int rc = compare_reports (a, b, &o, f, &err);
  fclose (f);
  return rc;
}

/* Nulls (non-finite numbers) and kind labels are not trusted over numbers. */
static void test_nulls_and_kinds (void)
{
  eigen_result r;
  mb_err err;
  char *out;
  /* the one-DOF damped oscillator of test_complex: omega = 2 pi, zeta 0.01 (closed form) */
  const char *path[3];
  for (int c = 0; c < 3; c++) {
    memset (&r, 0, sizeof r);
    r.stage = STAGE_COMPLEX;
    r.n = 1;
    r.factor.negative_pivots = -1;
    r.nmodes = 1;
    r.modes = calloc (1, sizeof *r.modes);
    mode *md = r.modes;
    double z = 0.01;
    md->lambda = two_pi * CMPLX (-z, sqrt (1 - z * z));
    md->freq_hz = 1.0;
    md->damped_freq_hz = sqrt (1 - z * z);
    md->zeta = c == 1 ? NAN : z;           /* report.c writes damping_ratio: null */
    if (c == 2) md->lambda = CMPLX (NAN, NAN);  /* eigenvalue: [null, null] */
    md->kind = MODE_OSCILLATORY;
    char name[32];
    snprintf (name, sizeof name, "null%d.yaml", c);
    path[c] = write_result (name, &r);
  }
  char *t = slurp (path[1]);
  CHECK ("the report holds damping_ratio: null", t && strstr (t, "damping_ratio: null"));
  free (t);
  CHECK ("finite vs itself: ok", run (path[0], path[0], 0, 0, &err, &out) == 0);
  free (out);
  CHECK ("damping_ratio null vs 0.01: regression",
         run (path[0], path[1], 0, 0, &err, &out) == MB_EREGRESS);
  CHECK ("FAIL damping null", out && strstr (out, "FAIL damping null"));
  free (out);
  CHECK ("damping_ratio null as the reference: regression",
         run (path[1], path[0], 0, 0, &err, &out) == MB_EREGRESS);
  free (out);
  const char *ref = write_text ("null.ref.yaml",
                                "format: mbmodal-report\nstage: complex\nmodes:\n"
                                "  - frequency_hz: 1.0     # omega = 2 pi\n"
                                "    damping_ratio: 0.01   # zeta of the oscillator\n");
  CHECK ("hand-written reference 0.01 vs null: regression",
         run (ref, path[1], 1e-3, 0, &err, &out) == MB_EREGRESS);
  free (out);
  CHECK ("eigenvalue [null, null] vs a finite one: regression",
         run (path[0], path[2], 0, 0, &err, &out) == MB_EREGRESS);
  CHECK ("FAIL eigenvalue null", out && strstr (out, "FAIL eigenvalue null"));
  free (out);

  /* ring (rigid 0, then 3 twice): B's first mode at 5 Hz, omega^2 = (10 pi)^2, still
     labelled rigid-body: its numbers say it is no rigid-body mode */
  ring_vectors (0.0, ring_vec);
  make_modal (&r, 3, 3, ring_lambda, ring_vec);
  const char *a = write_result ("kind_a.yaml", &r);
  double lam[3] = { 25 * two_pi * two_pi, 3.0, 3.0 };  /* (2 pi 5 Hz)^2 */
  make_modal (&r, 3, 3, lam, ring_vec);
  r.modes[0].kind = MODE_RIGID;
  r.modes[0].freq_hz = 5.0;
  const char *b = write_result ("kind_5hz_rigid.yaml", &r);
  CHECK ("5 Hz labelled rigid-body vs a 0 Hz rigid-body mode: regression",
         run (a, b, 0, 0, &err, &out) == MB_EREGRESS);
  CHECK ("5 Hz vs 0 Hz: FAIL eigenvalue", out && strstr (out, "FAIL eigenvalue"));
  free (out);
  CHECK ("... also with --ignore-kinds", run_ignore_kinds (a, b, &out) == MB_EREGRESS);
  free (out);
  /* the same against a hand-written reference of one rigid-body mode (no scale) */
  ref = write_text ("rigid.ref.yaml", "format: mbmodal-report\nstage: modal\nmodes:\n"
                    "  - {frequency_hz: 0, kind: rigid-body}\n");
  CHECK ("5 Hz labelled rigid-body vs a rigid-only reference: regression",
         run (ref, b, 0, 1, &err, &out) == MB_EREGRESS);
  free (out);

  /* equal numbers, different labels: mode 2 (lambda 3) labelled rigid-body in B */
  make_modal (&r, 3, 3, ring_lambda, ring_vec);
  r.modes[1].kind = MODE_RIGID;
  b = write_result ("kind_label.yaml", &r);
  CHECK ("oscillatory vs rigid-body label: regression",
         run (a, b, 0, 0, &err, &out) == MB_EREGRESS);
  CHECK ("FAIL kind oscillatory/rigid-body", out && strstr (out, "FAIL kind oscillatory/rigid-body"));
  free (out);
  CHECK ("--ignore-kinds: ok", run_ignore_kinds (a, b, &out) == 0);
  free (out);
  make_modal (&r, 3, 3, ring_lambda, ring_vec);
  r.modes[0].kind = MODE_OSCILLATORY;
  b = write_result ("kind_rigid_as_osc.yaml", &r);
  CHECK ("rigid-body reference vs oscillatory label at 0 Hz: regression",
         run (a, b, 0, 0, &err, &out) == MB_EREGRESS);
  free (out);
}

/* The MAC does not depend on the scale of the vectors: entries of 1e200 (whose squares
   overflow) and 1e-160 (whose squares underflow to 0) give MAC 1 against themselves and
   against the same vectors at scale 1. */
static void test_mac_scale (void)
{
  eigen_result r;
  mb_err err;
  char *out;
  static const double scales[] = { 1e200, 1e-160, 1e-300 };
  ring_vectors (0.0, ring_vec);
  make_modal (&r, 3, 3, ring_lambda, ring_vec);
  const char *unit = write_result ("scale_1.yaml", &r);
  for (int k = 0; k < 3; k++) {
    double v[9];
    ring_vectors (0.3, v);  /* the lambda = 3 pair rotated: the subspace MAC is used */
    for (int i = 0; i < 9; i++) v[i] *= scales[k];
    make_modal (&r, 3, 3, ring_lambda, v);
    char name[32];
    snprintf (name, sizeof name, "scale_%d.yaml", k);
    const char *p = write_result (name, &r);
    char descr[96];
    snprintf (descr, sizeof descr, "vectors at scale %g vs themselves: ok", scales[k]);
    CHECK (descr, run (p, p, 0, 0, &err, &out) == 0);
    snprintf (descr, sizeof descr, "scale %g: MAC 1 on all three", scales[k]);
    int ones = 0;
    for (char *q = out; q && (q = strstr (q, "1.000000  ok")); q++) ones++;
    CHECK (descr, ones == 3);
    free (out);
    snprintf (descr, sizeof descr, "scale %g vs scale 1: ok", scales[k]);
    CHECK (descr, run (unit, p, 0, 0, &err, &out) == 0);
    free (out);
  }
}

static double seconds_since (const struct timespec *t0)
{
  struct timespec t;
  clock_gettime (CLOCK_MONOTONIC, &t);
  return (double) (t.tv_sec - t0->tv_sec) + 1e-9 * (double) (t.tv_nsec - t0->tv_nsec);
}

/* Hostile reports: refused at once with the deck reader's limits. */
static void test_limits (void)
{
  eigen_result r;
  double lam[2], vec[4];
  chain (lam, vec, 1.0);
  make_modal (&r, 2, 2, lam, vec);
  const char *good = write_result ("limits_good.yaml", &r);
  mb_err err;
  char *out;
  struct timespec t0;

  /* 100,000 nested '[' */
  const char *path = tmp_path ("deep.yaml");
  FILE *f = fopen (path, "w");
  fputs ("format: mbmodal-report\nstage: modal\nmodes: ", f);
  for (int k = 0; k < 100000; k++) fputc ('[', f);
  fputc ('\n', f);
  fclose (f);
  clock_gettime (CLOCK_MONOTONIC, &t0);
  int rc = run (good, path, 0, 0, &err, &out);
  double dt = seconds_since (&t0);
  free (out);
  CHECK ("100,000 nested '[': MB_EDECK", rc == MB_EDECK && strstr (err.msg, "nested more than 32"));
  /* level 1 is the top mapping: the 32nd '[' (column 8 + 31) is level 33 */
  CHECK ("... at the 33rd level (3:39)", strstr (err.where, "deep.yaml:3:39") != NULL);
  CHECK ("... within a second or two", dt < 2.0);

  /* billion laughs: 9 levels of 10 aliases each, 10^9 numbers */
  path = tmp_path ("laughs.yaml");
  f = fopen (path, "w");
  fputs ("format: mbmodal-report\nstage: modal\nl0: &l0 [1, 1, 1, 1, 1, 1, 1, 1, 1, 1]\n", f);
  for (int k = 1; k <= 9; k++) {
    fprintf (f, "l%d: &l%d [", k, k);
    for (int j = 0; j < 10; j++) fprintf (f, "%s*l%d", j ? ", " : "", k - 1);
    fputs ("]\n", f);
  }
  fputs ("modes:\n  - {frequency_hz: 1, vector: *l9}\n", f);
  fclose (f);
  clock_gettime (CLOCK_MONOTONIC, &t0);
  rc = run (good, path, 0, 0, &err, &out);
  dt = seconds_since (&t0);
  free (out);
  CHECK ("alias bomb: MB_EDECK", rc == MB_EDECK && strstr (err.msg, "aliases expand"));
  CHECK ("alias bomb: refused at once", dt < 2.0);

  /* one anchored mode with a 1000-entry vector, aliased 20,000 times: 2e7 numbers from
     a file of 160 kB */
  path = tmp_path ("wide.yaml");
  f = fopen (path, "w");
  fputs ("format: mbmodal-report\nstage: modal\nmodes:\n  - &m {frequency_hz: 1, vector: [", f);
  for (int k = 0; k < 1000; k++) fprintf (f, "%s1", k ? ", " : "");
  fputs ("]}\n", f);
  for (int k = 0; k < 20000; k++) fputs ("  - *m\n", f);
  fclose (f);
  rc = run (path, path, 0, 0, &err, &out);
  free (out);
  CHECK ("20,000 aliases of a large mode: MB_EDECK", rc == MB_EDECK && strstr (err.msg, "aliases"));

  /* 65 anchors */
  path = tmp_path ("anchors.yaml");
  f = fopen (path, "w");
  fputs ("format: mbmodal-report\nstage: modal\nmodes: []\n", f);
  for (int k = 0; k < 65; k++) fprintf (f, "k%d: &a%d 1\n", k, k);
  fclose (f);
  rc = run (path, path, 0, 0, &err, &out);
  free (out);
  CHECK ("65 anchors: MB_EDECK", rc == MB_EDECK && strstr (err.msg, "more than 64 anchors"));

  /* a reasonable use of an anchor: one vector shared by two modes of a hand-written file */
  path = tmp_path ("shared.yaml");
  f = fopen (path, "w");
  fputs ("format: mbmodal-report\nstage: modal\nmodes:\n"
         "  - {frequency_hz: 1, vector: &v [1, 0]}\n"
         "  - {frequency_hz: 2, vector: *v}\n", f);
  fclose (f);
  CHECK ("an anchor reused once: read", run (path, path, 0, 0, &err, &out) == 0);
  free (out);
}

static void test_main (void)
{
  eigen_result r;
  double lam[2], vec[4];
  chain (lam, vec, 1.0);
  make_modal (&r, 2, 2, lam, vec);
  char a[600], b[600];
  snprintf (a, sizeof a, "%s", write_result ("main_a.yaml", &r));
  chain (lam, vec, 1 + 1e-4);
  make_modal (&r, 2, 2, lam, vec);
  snprintf (b, sizeof b, "%s", write_result ("main_b.yaml", &r));
  const char *notrep = write_text ("main_bad.yaml", "just: text\n");
  static const struct {
    const char *argv[8];
    int status;
  } cases[] = {
    { { "compare", "A", "A" }, 0 },
    { { "compare", "A", "B" }, 6 },
    { { "compare", "--rtol", "1e-3", "A", "B" }, 0 },
    { { "compare", "--rtol=1e-3", "--mac", "0.999", "A", "B" }, 0 },
    { { "compare", "--modes", "1", "--", "A", "B" }, 6 },
    { { "compare", "A", "X" }, 2 },
    { { "compare", "A", "/nonexistent/file.yaml" }, 2 },
    { { "compare" }, 1 },
    { { "compare", "A" }, 1 },
    { { "compare", "A", "B", "A" }, 1 },
    { { "compare", "--rtol", "abc", "A", "B" }, 1 },
    { { "compare", "--rtol", "-1", "A", "B" }, 1 },
    { { "compare", "--mac", "1.5", "A", "B" }, 1 },
    { { "compare", "--modes", "2.5", "A", "B" }, 1 },
    { { "compare", "--bogus", "A", "B" }, 1 },
    { { "compare", "A", "B", "--rtol" }, 1 },
    { { "compare", "--help" }, 0 },
    { { "compare", "--ignore-kinds", "A", "A" }, 0 },
    { { "compare", "--ignore-kinds", "A", "B" }, 6 },
  };
  int n = (int) (sizeof cases / sizeof cases[0]);
  for (int k = 0; k < n; k++) {
    char *argv[9] = { 0 };
    int argc = 0;
    for (; argc < 8 && cases[k].argv[argc]; argc++) {
      const char *s = cases[k].argv[argc];
      argv[argc] = (char *) (strcmp (s, "A") == 0 ? a : strcmp (s, "B") == 0 ? b
                             : strcmp (s, "X") == 0 ? notrep : s);
    }
    fflush (stdout);
    int status = compare_main (argc, argv);
    char descr[128];
    snprintf (descr, sizeof descr, "compare_main case %d: exit %d, got %d", k, cases[k].status,
              status);
    CHECK (descr, status == cases[k].status);
  }
}

int main (void)
{
  if (!mkdtemp (tmpdir)) {
    printf ("cannot create a temporary folder\n");
    return 1;
  }
  test_ring ();
  test_no_vectors ();
  test_complex ();
  test_bad_files ();
  test_nulls_and_kinds ();
  test_mac_scale ();
  test_limits ();
  test_main ();
  for (int i = 0; i < nwritten; i++) unlink (written[i]);
  rmdir (tmpdir);
  return CHECK_DONE ();
}
