/* test_participation.c: participation factors and effective masses of hand-made mode
   shapes on two point bodies, against closed forms (sums of m d and m d^2 by hand). */
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "model_fixture.h"
#include "report/participation.h"
#include "report/report.h"

static int near (double a, double b, double tol)
{
  return fabs (a - b) <= tol * (1.0 + fabs (b));
}

/* Two bodies: a (2 kg, J = diag(0.1, 0.2, 0.3)) at the origin, b (3 kg, J = diag(0.4,
   0.5, 0.6)) at (1, 0, 0), no stiffness. Centre of mass (0.6, 0, 0). */
static int build (model *m, assembly *a)
{
  static tdeck t;
  td_init (&t);
  const double Ja[3] = { 0.1, 0.2, 0.3 }, Jb[3] = { 0.4, 0.5, 0.6 };
  const double xa[3] = { 0, 0, 0 }, xb[3] = { 1, 0, 0 };
  td_body (&t, "a", 2.0, Ja, xa, NULL);
  td_body (&t, "b", 3.0, Jb, xb, NULL);
  mb_err err;
  mb_err_init (&err);
  memset (a, 0, sizeof *a);
  if (model_build_deck (&t.dm, "two.yaml", m, &err) != 0) return 0;
  return assemble_system (m, a, &err) == 0;
}

/* Three modes of 12 DOFs: 1: a moves along x alone (phi = e_0 / sqrt 2); 2: b along y
   alone (phi = e_7 / sqrt 3); 3: no vector. */
static void make_result (eigen_result *r, double complex *x1, double complex *x2, mode *md)
{
  memset (r, 0, sizeof *r);
  memset (md, 0, 3 * sizeof *md);
  memset (x1, 0, 12 * sizeof *x1);
  memset (x2, 0, 12 * sizeof *x2);
  x1[0] = 1.0 / sqrt (2.0);
  x2[6 + 1] = 1.0 / sqrt (3.0);
  r->stage = STAGE_MODAL;
  r->n = 12;
  r->nmodes = 3;
  r->modes = md;
  for (int i = 0; i < 3; i++) {
    md[i].lambda = 100.0 * (i + 1);
    md[i].freq_hz = sqrt (100.0 * (i + 1)) / (8.0 * atan (1.0));
    md[i].kind = MODE_OSCILLATORY;
  }
  md[0].x = x1;
  md[1].x = x2;
}

static void test_centre_of_mass (const model *m, const assembly *a, const eigen_result *r)
{
  participation p;
  mb_err err;
  mb_err_init (&err);
  CHECK ("computed about the centre of mass", participation_compute (m, a->M, r, NULL, &p,
                                                                     &err) == 0);
  /* centre of mass: (2 * 0 + 3 * 1) / 5 = 0.6 */
  CHECK ("centre of mass", near (p.com[0], 0.6, 1e-14) && p.com[1] == 0 && p.com[2] == 0
         && !p.point_given && near (p.point[0], 0.6, 1e-14));
  /* totals: 5 kg; rx: 0.1 + 0.4; ry, rz: J + 2 * 0.6^2 + 3 * 0.4^2 = J + 1.2 */
  CHECK ("total masses", near (p.total[0], 5, 1e-14) && near (p.total[1], 5, 1e-14)
         && near (p.total[2], 5, 1e-14));
  CHECK ("total inertia about the centre of mass", near (p.total[3], 0.5, 1e-14)
         && near (p.total[4], 0.7 + 1.2, 1e-14) && near (p.total[5], 0.9 + 1.2, 1e-14));
  /* mode 1: phi^T M r_tx = 2 / sqrt 2 = sqrt 2 = Gamma, m_eff = 2; rotations: r_ry at a
     = e_y x (-0.6, 0, 0) = (0, 0, 0.6): no x part, 0; r_rz at a = (0, -0.6, 0): 0 */
  CHECK ("mode 1 computed", p.has[0] == 1);
  CHECK ("mode 1 factor and mass in dx", near (p.factor[0], sqrt (2.0), 1e-14)
         && near (p.mass[0], 2.0, 1e-14));
  CHECK ("mode 1 nothing else", p.mass[1] == 0 && p.mass[2] == 0 && p.mass[3] == 0
         && fabs (p.mass[4]) < 1e-30 && fabs (p.mass[5]) < 1e-30);
  CHECK ("mode 1 cumulative dx 2/5", near (p.cumulative[0], 0.4, 1e-14));
  /* mode 2: b along y: Gamma_ty = 3 / sqrt 3 = sqrt 3, m_eff = 3; r_rz at b = e_z x
     (0.4, 0, 0) = (0, 0.4, 0): phi^T M r_rz = 3 * 0.4 / sqrt 3, m_eff = 0.48 */
  CHECK ("mode 2 dy", near (p.factor[6 + 1], sqrt (3.0), 1e-14)
         && near (p.mass[6 + 1], 3.0, 1e-14));
  CHECK ("mode 2 rz", near (p.factor[6 + 5], 1.2 / sqrt (3.0), 1e-14)
         && near (p.mass[6 + 5], 0.48, 1e-14));
  CHECK ("mode 2 cumulative", near (p.cumulative[6 + 0], 0.4, 1e-14)
         && near (p.cumulative[6 + 1], 0.6, 1e-14)
         && near (p.cumulative[6 + 5], 0.48 / 2.1, 1e-14));
  /* mode 3: no vector: not computed, cumulative carried */
  CHECK ("mode 3 without a vector", p.has[2] == 0 && near (p.cumulative[12 + 1], 0.6, 1e-14));
  CHECK ("sums", near (p.sum[0], 2, 1e-14) && near (p.sum[1], 3, 1e-14) && p.sum[2] == 0);
  int dir = -1;
  double share = 0;
  CHECK ("dominant of mode 1: dx 40 %", participation_dominant (&p, 0, &dir, &share)
         && dir == 0 && near (share, 0.4, 1e-14));
  CHECK ("dominant of mode 2: dy 60 %", participation_dominant (&p, 1, &dir, &share)
         && dir == 1 && near (share, 0.6, 1e-14));
  CHECK ("no dominant without a vector", participation_dominant (&p, 2, &dir, &share) == 0);

  /* the table's column */
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream (&buf, &len);
  report_print_table_with (f, r, &p);
  fclose (f);
  CHECK ("table header", buf && strstr (buf, "mass share"));
  CHECK ("table column", buf && strstr (buf, "dx 40.0%") && strstr (buf, "dy 60.0%"));
  free (buf);

  /* the log: below 90 % in every direction but none; dz has mass and 0 % */
  buf = NULL;
  f = open_memstream (&buf, &len);
  participation_log (f, &p);
  fclose (f);
  CHECK ("log names the low directions", buf && strstr (buf, "less than 90% of the mass in "
                                                        "dx 40.0%, dy 60.0%, dz 0.0%"));
  free (buf);

  /* the YAML blocks */
  buf = NULL;
  f = open_memstream (&buf, &len);
  participation_put_yaml (f, &p);
  participation_put_mode (f, &p, 0);
  participation_put_mode (f, &p, 2);  /* nothing */
  fclose (f);
  CHECK ("yaml totals", buf && strstr (buf, "participation:\n  directions: [dx, dy, dz, rx, "
                                       "ry, rz]\n  reference: centre_of_mass\n"));
  CHECK ("yaml mode block", buf && strstr (buf, "    participation:\n      factor: [")
         && strstr (buf, "dominant: {direction: dx, fraction: 0.4}"));
  CHECK ("yaml below 90 %", buf && strstr (buf, "below_90_percent: [dx, dy, dz, rx, ry, rz]"));
  free (buf);
  participation_clear (&p);
  CHECK ("cleared", p.has == NULL && p.nmodes == 0);
}

/* about a given point: the parallel-axis totals change, the translations do not */
static void test_point (const model *m, const assembly *a, const eigen_result *r)
{
  participation p;
  mb_err err;
  mb_err_init (&err);
  const double origin[3] = { 0, 0, 0 };
  CHECK ("computed about the origin", participation_compute (m, a->M, r, origin, &p, &err) == 0);
  /* ry, rz about the origin: J + 3 * 1^2 */
  CHECK ("given point", p.point_given && p.point[0] == 0 && near (p.com[0], 0.6, 1e-14));
  CHECK ("totals about the origin", near (p.total[0], 5, 1e-14) && near (p.total[3], 0.5, 1e-14)
         && near (p.total[4], 3.7, 1e-14) && near (p.total[5], 3.9, 1e-14));
  /* mode 2: r_rz at b = (0, 1, 0): phi^T M r = 3 / sqrt 3, m_eff = 3 */
  CHECK ("mode 2 rz about the origin", near (p.mass[6 + 5], 3.0, 1e-14));
  participation_clear (&p);
}

static void test_bad (const model *m, const assembly *a, eigen_result *r)
{
  participation p;
  mb_err err;
  mb_err_init (&err);
  r->n = 6;
  CHECK ("sizes that differ: MB_EIO", participation_compute (m, a->M, r, NULL, &p, &err)
         == MB_EIO && p.has == NULL);
  r->n = 12;
  /* a zero vector: phi^T M phi = 0, not computed */
  double complex zero[12] = { 0 };
  double complex *keep = r->modes[0].x;
  r->modes[0].x = zero;
  CHECK ("zero vector computed", participation_compute (m, a->M, r, NULL, &p, &err) == 0);
  CHECK ("zero vector: no factors", p.has[0] == 0 && p.has[1] == 1
         && near (p.cumulative[6 + 0], 0.0, 1e-14));
  participation_clear (&p);
  r->modes[0].x = keep;
  participation_clear (NULL);  /* a no-op */
  CHECK ("direction names", !strcmp (participation_dir_name (0), "dx")
         && !strcmp (participation_dir_name (5), "rz") && !strcmp (participation_dir_name (6), "?"));
}

int main (void)
{
  model m;
  assembly a;
  memset (&m, 0, sizeof m);
  int built = build (&m, &a);
  CHECK ("two bodies built and assembled", built);
  if (built) {
    eigen_result r;
    double complex x1[12], x2[12];
    mode md[3];
    make_result (&r, x1, x2, md);
    test_centre_of_mass (&m, &a, &r);
    test_point (&m, &a, &r);
    test_bad (&m, &a, &r);
  }
  assembly_clear (&a);
  model_clear (&m);
  return CHECK_DONE ();
}
