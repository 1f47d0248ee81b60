/* test_vtk.c: the ParaView mode-shape files (.vtu) of a hand-built model: mesh, fields,
   exact numbers, names, errors. With a folder argument it keeps the files there, with
   the matching YAML reports, for tests/scripts/vtk_check.sh (VTK's own reader). */
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "report/report.h"
#include "report/vtk.h"
#include "toy_model.h"

static char tmpdir[] = "/tmp/mbmodal_test_vtk_XXXXXX";
static const char *outdir;       /* where files go: argv[1] or tmpdir */
static char written[16][600];    /* files to remove at the end (tmpdir only) */
static int nwritten;

static const char *out_path (const char *name)
{
  snprintf (written[nwritten], sizeof written[0], "%s/%s", outdir, name);
  return written[nwritten++];
}

/* The numbers of the data array named name (Name="name"), up to max of them, into v;
   returns how many were read, -1 when the array is absent. */
static int read_array (const char *text, const char *name, double *v, int max)
{
  char key[96];
  snprintf (key, sizeof key, "Name=\"%s\"", name);
  const char *p = strstr (text, key);
  if (!p || !(p = strchr (p, '>'))) return -1;
  p++;
  int n = 0;
  while (n < max) {
    char *end;
    double x = strtod (p, &end);
    if (end == p) break;
    v[n++] = x;
    p = end;
  }
  return n;
}

/* A result on the toy model (n = 30): nmodes modes, vectors on the modes listed in
   with_x (0-based, -1 ends), entries x_k = sin(k + 1 + i) (complex: times (1 + 0.5 i)),
   f = i + 1 Hz, complex zeta 0.01 (i + 1). */
static void make_result (eigen_result *r, int damped, int nmodes, const int *with_x)
{
  memset (r, 0, sizeof *r);
  r->stage = damped ? STAGE_COMPLEX : STAGE_MODAL;
  r->n = 30;
  r->m = 6;
  r->nmodes = nmodes;
  r->modes = calloc ((size_t) nmodes, sizeof *r->modes);
  for (int i = 0; i < nmodes; i++) {
    mode *md = &r->modes[i];
    md->freq_hz = i + 1.0;
    md->zeta = damped ? 0.01 * (i + 1) : 0.0;
    double w = 2 * 3.141592653589793 * md->freq_hz;
    md->lambda = damped ? CMPLX (-md->zeta * w, w * sqrt (1 - md->zeta * md->zeta)) : w * w;
    md->damped_freq_hz = damped ? md->freq_hz * sqrt (1 - md->zeta * md->zeta) : md->freq_hz;
    md->kind = MODE_OSCILLATORY;
  }
  for (int k = 0; with_x[k] >= 0; k++) {
    int i = with_x[k];
    mode *md = &r->modes[i];
    md->x = calloc (30, sizeof *md->x);
    md->xi = calloc (6, sizeof *md->xi);
    for (int q = 0; q < 30; q++) md->x[q] = sin (q + 1.0 + i) * (damped ? 1 + 0.5 * I : 1);
  }
}

static void free_result (eigen_result *r)
{
  for (int i = 0; r->modes && i < r->nmodes; i++) {
    free (r->modes[i].x);
    free (r->modes[i].xi);
  }
  free (r->modes);
  memset (r, 0, sizeof *r);
}

/* 1 when the 3-vector field equals DOFs q0..q0+2 (real or imaginary parts) of x on the
   toy's 5 nodes, bit for bit, and is zero on its ground point (the bushing's). */
static int field_is (const char *text, const char *name, const double complex *x, int q0,
                     int imag)
{
  double v[18];
  if (read_array (text, name, v, 18) != 18) return 0;
  for (int p = 0; p < 5; p++)
    for (int c = 0; c < 3; c++) {
      double complex z = x[6 * p + q0 + c];
      if (v[3 * p + c] != (imag ? cimag (z) : creal (z))) return 0;
    }
  return v[15] == 0 && v[16] == 0 && v[17] == 0;
}

static void test_modal (model *m)
{
  eigen_result r;
  static const int with_x[] = { 0, 1, 2, -1 };
  make_result (&r, 0, 3, with_x);
  mb_err err;
  mb_err_init (&err);
  const char *path = out_path ("toy.modal.vtu");
  CHECK ("modal .vtu written", vtk_write_modes (path, m, &r, &err) == 0);
  CHECK ("its report written",
         report_write_yaml (out_path ("toy.modal.yaml"), &r, "toy", "toy", 1, m, &err) == 0);
  char *t = slurp (path);
  CHECK ("modal .vtu readable", t != NULL);
  if (!t) {
    free_result (&r);
    return;
  }
  CHECK ("XML UnstructuredGrid header", !strncmp (t, "<?xml version=\"1.0\"?>", 21)
                                        && strstr (t, "<VTKFile type=\"UnstructuredGrid\""));
  /* 5 nodes + 1 ground point (bushing at (1, 0, -0.5), off the hub);
     cells: 2 body vertices, 2 beam lines, spring line, bushing line; the point force none */
  CHECK ("6 points, 6 cells", strstr (t, "NumberOfPoints=\"6\" NumberOfCells=\"6\"") != NULL);
  double v[32];
  CHECK ("cell types: vertex, vertex, line x 4",
         read_array (t, "types", v, 32) == 6 && v[0] == 1 && v[1] == 1 && v[2] == 3 && v[5] == 3);
  CHECK ("connectivity: bodies, beam elements, spring, ground point to hub",
         read_array (t, "connectivity", v, 32) == 10 && v[0] == 0 && v[1] == 1 && v[2] == 2
           && v[3] == 3 && v[4] == 3 && v[5] == 4 && v[6] == 0 && v[7] == 1 && v[8] == 5
           && v[9] == 1);
  CHECK ("offsets", read_array (t, "offsets", v, 32) == 6 && v[0] == 1 && v[5] == 10);
  CHECK ("part ids in model_parts order",
         read_array (t, "part", v, 32) == 6 && v[0] == 0 && v[1] == 1 && v[2] == 2 && v[3] == 2
           && v[4] == 3 && v[5] == 4);
  CHECK ("kinds body body beam beam force force",
         read_array (t, "kind", v, 32) == 6 && v[0] == 0 && v[1] == 0 && v[2] == 1 && v[4] == 2);
  CHECK ("node_id 0..4 and -1 for the ground point",
         read_array (t, "node_id", v, 32) == 6 && v[0] == 0 && v[4] == 4 && v[5] == -1);
  CHECK ("points: node positions, then the bushing point",
         read_array (t, "Points", v, 32) == 18 && v[3] == 1 && v[7] == 1 && v[12] == 2
           && v[15] == 1 && v[16] == 0 && v[17] == -0.5);
  CHECK ("frequencies in field data",
         read_array (t, "frequency_hz", v, 32) == 3 && v[0] == 1 && v[2] == 3);
  /* omega^2 = (2 pi f)^2 as make_result sets it */
  CHECK ("eigenvalues in field data", read_array (t, "eigenvalue", v, 32) == 3
                                        && v[1] == creal (r.modes[1].lambda));
  CHECK ("no damping in the modal stage", !strstr (t, "damping_ratio") && !strstr (t, "_re\""));
  int fields = 1;
  for (int i = 0; i < 3; i++) {
    char name[32];
    snprintf (name, sizeof name, "mode_%02d", i + 1);
    fields &= field_is (t, name, r.modes[i].x, 0, 0);
    snprintf (name, sizeof name, "mode_%02d_rotation", i + 1);
    fields &= field_is (t, name, r.modes[i].x, 3, 0);
  }
  CHECK ("mode_NN and mode_NN_rotation equal the vectors bit for bit, 0 on ground", fields);
  CHECK ("first mode is the active vector", strstr (t, "Vectors=\"mode_01\"") != NULL);
  /* part_name: "tip" = 116 105 112 0, then "hub" */
  CHECK ("part names as VTK strings",
         strstr (t, "Name=\"part_name\" NumberOfTuples=\"5\"")
           && read_array (t, "part_name", v, 32) >= 8 && v[0] == 116 && v[3] == 0 && v[4] == 104);
  CHECK ("node names as VTK strings", strstr (t, "Name=\"node_name\" NumberOfTuples=\"5\""));
  free (t);
  free_result (&r);
}

static void test_complex (model *m)
{
  eigen_result r;
  static const int with_x[] = { 0, 1, -1 };
  make_result (&r, 1, 2, with_x);
  mb_err err;
  mb_err_init (&err);
  const char *path = out_path ("toy.complex.vtu");
  CHECK ("complex .vtu written", vtk_write_modes (path, m, &r, &err) == 0);
  CHECK ("its report written",
         report_write_yaml (out_path ("toy.complex.yaml"), &r, "toy", "toy", 1, m, &err) == 0);
  char *t = slurp (path);
  if (!t) {
    CHECK ("complex .vtu readable", 0);
    free_result (&r);
    return;
  }
  int fields = 1;
  for (int i = 0; i < 2; i++) {
    char name[40];
    for (int rot = 0; rot < 2; rot++)
      for (int im = 0; im < 2; im++) {
        snprintf (name, sizeof name, "mode_%02d%s%s", i + 1, rot ? "_rotation" : "",
                  im ? "_im" : "_re");
        fields &= field_is (t, name, r.modes[i].x, 3 * rot, im);
      }
  }
  CHECK ("mode_NN_re/_im and rotations equal the vectors bit for bit", fields);
  CHECK ("no real-stage field names", !strstr (t, "Name=\"mode_01\""));
  CHECK ("active vector is mode_01_re", strstr (t, "Vectors=\"mode_01_re\"") != NULL);
  double v[8];
  CHECK ("damping ratios", read_array (t, "damping_ratio", v, 8) == 2 && v[0] == 0.01
                           && v[1] == 0.02);
  CHECK ("damped frequencies", read_array (t, "damped_frequency_hz", v, 8) == 2
                               && v[1] == r.modes[1].damped_freq_hz);
  CHECK ("complex eigenvalues: 2 components",
         strstr (t, "Name=\"eigenvalue\" NumberOfComponents=\"2\"")
           && read_array (t, "eigenvalue", v, 8) == 4 && v[2] == creal (r.modes[1].lambda)
           && v[3] == cimag (r.modes[1].lambda));
  free (t);
  free_result (&r);
}

static void test_variants (model *m)
{
  /* 100 modes, vectors on the first and the last only: names get 3 digits */
  eigen_result r;
  static const int with_x[] = { 0, 99, -1 };
  make_result (&r, 0, 100, with_x);
  mb_err err;
  mb_err_init (&err);
  const char *path = out_path ("many.modal.vtu");
  CHECK ("100 modes written", vtk_write_modes (path, m, &r, &err) == 0);
  char *t = slurp (path);
  CHECK ("mode_001 and mode_100, nothing for modes without vectors",
         t && strstr (t, "Name=\"mode_001\"") && strstr (t, "Name=\"mode_100_rotation\"")
           && !strstr (t, "Name=\"mode_002\"") && !strstr (t, "Name=\"mode_01\""));
  double v[128];
  CHECK ("frequencies of all 100 modes", t && read_array (t, "frequency_hz", v, 128) == 100);
  free (t);

  mb_err_init (&err);
  char bad[700];
  snprintf (bad, sizeof bad, "%s/no/such/dir/x.vtu", outdir);
  CHECK ("unwritable path: MB_EIO", vtk_write_modes (bad, m, &r, &err) == MB_EIO);
  CHECK ("error names the path", strstr (err.where, "no/such/dir/x.vtu") != NULL);
  mb_err_init (&err);
  r.n = 18;
  CHECK ("result of 18 DOFs on a 5-node model: MB_EIO",
         vtk_write_modes (out_path ("mismatch.vtu"), m, &r, &err) == MB_EIO
           && strstr (err.msg, "5 nodes"));
  r.n = 30;
  free_result (&r);

  /* no modes at all: still the mesh */
  make_result (&r, 0, 0, (const int[]) { -1 });
  path = out_path ("empty.modal.vtu");
  CHECK ("no modes: written", vtk_write_modes (path, m, &r, &err) == 0);
  t = slurp (path);
  CHECK ("no modes: mesh, empty frequency list, no Vectors attribute",
         t && strstr (t, "NumberOfCells=\"6\"") && read_array (t, "frequency_hz", v, 8) == 0
           && !strstr (t, "Vectors="));
  free (t);
  free_result (&r);
}

int main (int argc, char **argv)
{
  int keep = argc > 1;
  if (keep) outdir = argv[1];
  else if (!(outdir = mkdtemp (tmpdir))) {
    printf ("cannot create a temporary folder\n");
    return 1;
  }
  model m;
  toy_model_build (&m);
  test_modal (&m);
  test_complex (&m);
  test_variants (&m);
  model_clear (&m);
  if (!keep) {
    for (int i = 0; i < nwritten; i++) unlink (written[i]);
    rmdir (tmpdir);
  }
  return CHECK_DONE ();
}
