/* participation.c: participation factors and effective modal masses of the undamped modes
   of a model in the 6 rigid directions, and their table column, YAML blocks and log. */
#include "participation.h"

#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "writer.h"

enum { ND = PARTICIPATION_DIRS };

/* "dx" .. "rz" for k = 0..5 (the DOF names of the model), "?" otherwise: a static
   string. */
const char *participation_dir_name (int k)
{
  static const char *const names[ND] = { "dx", "dy", "dz", "rx", "ry", "rz" };
  return k >= 0 && k < ND ? names[k] : "?";
}

/* Frees has, factor, mass, cumulative (owned by *p) and zeroes *p; NULL is a no-op. */
void participation_clear (participation *p)
{
  if (!p) return;
  free (p->has);
  free (p->factor);
  free (p->mass);
  free (p->cumulative);
  memset (p, 0, sizeof *p);
}

/* The 6 rigid-body fields about point c into R (n x 6, column k at R + k n), n = 6 nnodes:
   node i at x_i gets, for translation k, (e_k; 0) and, for rotation k, (e_k x (x_i - c);
   e_k) (DOFs dx dy dz rx ry rz in global axes, model.h). */
static void rigid_fields (const model *mdl, const double c[3], double *R)
{
  size_t n = 6 * (size_t) mdl->nnodes;
  memset (R, 0, ND * n * sizeof *R);
  for (int i = 0; i < mdl->nnodes; i++) {
    const double *x = mdl->nodes[i].x;
    double d[3] = { x[0] - c[0], x[1] - c[1], x[2] - c[2] };
    size_t o = 6 * (size_t) i;
    for (int k = 0; k < 3; k++) {
      R[k * n + o + k] = 1.0;                 /* translation e_k */
      R[(3 + k) * n + o + 3 + k] = 1.0;       /* rotation e_k: its rotation part */
    }
    /* e_x x d = (0, -dz, dy); e_y x d = (dz, 0, -dx); e_z x d = (-dy, dx, 0) */
    double *rx = R + 3 * n + o, *ry = R + 4 * n + o, *rz = R + 5 * n + o;
    rx[1] = -d[2], rx[2] = d[1];
    ry[0] = d[2], ry[2] = -d[0];
    rz[0] = -d[1], rz[1] = d[0];
  }
}

/* a^T b over n entries */
static double dot (const double *a, const double *b, size_t n)
{
  double s = 0.0;
  for (size_t j = 0; j < n; j++) s += a[j] * b[j];
  return s;
}

/* The centre of mass from the rigid fields about c0 (R, MR = M R): with
   S = sum of m (x - c0) (the first moment about c0), r_ty^T M r_rz = S_x,
   r_tz^T M r_rx = S_y, r_tx^T M r_ry = S_z (e_j . (e_k x S)), each divided by the
   translational mass of the same direction. A direction without mass keeps c0. */
static void centre_of_mass (const double *R, const double *MR, size_t n, const double c0[3],
                            double com[3])
{
  static const int trans[3] = { 1, 2, 0 }, rot[3] = { 5, 3, 4 };
  for (int j = 0; j < 3; j++) {
    double m = dot (R + (size_t) trans[j] * n, MR + (size_t) trans[j] * n, n);
    double s = dot (R + (size_t) trans[j] * n, MR + (size_t) rot[j] * n, n);
    com[j] = c0[j] + (m > 0.0 ? s / m : 0.0);
  }
}

/* Computes the totals about p->point, then each mode's Gamma, m_eff and the cumulative
   shares (participation.h). R and MR hold 6 columns of n; phi and mphi n each. */
static void compute (const model *mdl, const spm *M, const eigen_result *r, participation *p,
                     double *R, double *MR, double *phi, double *mphi)
{
  size_t n = 6 * (size_t) mdl->nnodes;
  rigid_fields (mdl, p->point, R);
  for (int k = 0; k < ND; k++) spm_matvec (M, R + k * n, MR + k * n);
  for (int k = 0; k < ND; k++) {
    p->total[k] = dot (R + k * n, MR + k * n, n);
    p->sum[k] = 0.0;
  }
  for (int i = 0; i < r->nmodes; i++) {
    const mode *md = &r->modes[i];
    double *row = p->cumulative + (size_t) ND * i;
    p->has[i] = 0;
    if (md->x) {
      for (size_t j = 0; j < n; j++) phi[j] = creal (md->x[j]);
      spm_matvec (M, phi, mphi);
      double den = dot (phi, mphi, n);   /* phi^T M phi: 1 for a mass-normalized shape */
      if (den > 0.0 && isfinite (den)) {
        p->has[i] = 1;
        for (int k = 0; k < ND; k++) {
          double num = dot (MR + k * n, phi, n);   /* (M r_k)^T phi = phi^T M r_k */
          p->factor[(size_t) ND * i + k] = num / den;
          p->mass[(size_t) ND * i + k] = num * num / den;
          p->sum[k] += num * num / den;
        }
      }
    }
    for (int k = 0; k < ND; k++)
      row[k] = p->total[k] > 0.0 ? p->sum[k] / p->total[k] : NAN;
  }
}

/* The centre of mass from the rigid fields about the first node, then the totals and each
   mode's Gamma_ik = phi^T M r_k / phi^T M phi, m_eff,ik = (phi^T M r_k)^2 / phi^T M phi
   about point (or the centre of mass). Work: 14 n doubles, freed here; p's arrays are
   owned by p. 6 + 6 + nmodes products with M. */
int participation_compute (const model *mdl, const spm *M, const eigen_result *r,
                           const double *point, participation *p, mb_err *err)
{
  memset (p, 0, sizeof *p);
  if (!mdl || !M || !r || mdl->nnodes <= 0 || M->nrows != 6 * mdl->nnodes
      || M->ncols != M->nrows || r->n != M->nrows)
    return mb_fail (err, MB_EIO, "participation: the model, its mass matrix and the modes "
                    "differ in size");
  size_t n = 6 * (size_t) mdl->nnodes, nm = r->nmodes > 0 ? (size_t) r->nmodes : 0;
  double *work = mb_calloc (2 * ND * n + 2 * n, sizeof *work);
  p->has = mb_calloc (nm + 1, sizeof *p->has);
  p->factor = mb_calloc (ND * nm + 1, sizeof *p->factor);
  p->mass = mb_calloc (ND * nm + 1, sizeof *p->mass);
  p->cumulative = mb_calloc (ND * nm + 1, sizeof *p->cumulative);
  if (!work || !p->has || !p->factor || !p->mass || !p->cumulative) {
    free (work);
    participation_clear (p);
    return mb_fail (err, MB_ENOMEM, "out of memory for the participation factors");
  }
  p->nmodes = (int) nm;
  double *R = work, *MR = work + ND * n, *phi = MR + ND * n, *mphi = phi + n;
  /* the centre of mass from the first moments about the first node (small numbers) */
  const double *c0 = mdl->nodes[0].x;
  rigid_fields (mdl, c0, R);
  for (int k = 0; k < ND; k++) spm_matvec (M, R + k * n, MR + k * n);
  centre_of_mass (R, MR, n, c0, p->com);
  p->point_given = point != NULL;
  memcpy (p->point, point ? point : p->com, sizeof p->point);
  compute (mdl, M, r, p, R, MR, phi, mphi);
  free (work);
  return 0;
}

/* argmax over k with total_k > 0 of m_eff,ik / total_k (the first on a tie). */
int participation_dominant (const participation *p, int i, int *dir, double *share)
{
  if (!p || i < 0 || i >= p->nmodes || !p->has[i]) return 0;
  int best = -1;
  double top = 0.0;
  for (int k = 0; k < ND; k++) {
    if (!(p->total[k] > 0.0)) continue;
    double s = p->mass[(size_t) ND * i + k] / p->total[k];
    if (best < 0 || s > top) best = k, top = s;
  }
  if (best < 0) return 0;
  *dir = best;
  *share = top;
  return 1;
}

/* "key: [v0, .., v5]" at indent, numbers in the report's style (null when not finite) */
static void put_six (FILE *f, int indent, const char *key, const double *v)
{
  fprintf (f, "%*s%s: [", indent, "", key);
  for (int k = 0; k < ND; k++) {
    if (k) fputs (", ", f);
    writer_put_real (f, v[k], WRITER_YAML);
  }
  fputs ("]\n", f);
}

/* "key: [x, y, z]" at indent */
static void put_three (FILE *f, int indent, const char *key, const double *v)
{
  fprintf (f, "%*s%s: [", indent, "", key);
  for (int k = 0; k < 3; k++) {
    if (k) fputs (", ", f);
    writer_put_real (f, v[k], WRITER_YAML);
  }
  fputs ("]\n", f);
}

/* The share of total_k the modes computed hold, sum_k / total_k; NaN without mass. */
static double held (const participation *p, int k)
{
  return p->total[k] > 0.0 ? p->sum[k] / p->total[k] : NAN;
}

/* The top-level block: directions, reference, centre of mass, totals, sums, fractions
   sum_k / total_k and the directions below PARTICIPATION_LOW. */
void participation_put_yaml (FILE *f, const participation *p)
{
  double frac[ND];
  int computed = 0;
  for (int i = 0; i < p->nmodes; i++) computed += p->has[i];
  for (int k = 0; k < ND; k++) frac[k] = held (p, k);
  fputs ("participation:\n  directions: [", f);
  for (int k = 0; k < ND; k++) fprintf (f, "%s%s", k ? ", " : "", participation_dir_name (k));
  fputs ("]\n", f);
  fprintf (f, "  reference: %s\n", p->point_given ? "reference_point" : "centre_of_mass");
  put_three (f, 2, "reference_point", p->point);
  put_three (f, 2, "centre_of_mass", p->com);
  fprintf (f, "  modes: %d\n", computed);
  put_six (f, 2, "total_mass", p->total);
  put_six (f, 2, "effective_mass_sum", p->sum);
  put_six (f, 2, "fraction", frac);
  fputs ("  below_90_percent: [", f);
  int first = 1;
  for (int k = 0; k < ND; k++)
    if (isfinite (frac[k]) && frac[k] < PARTICIPATION_LOW) {
      fprintf (f, "%s%s", first ? "" : ", ", participation_dir_name (k));
      first = 0;
    }
  fputs ("]\n", f);
}

/* Mode i's block: Gamma_i., m_eff,i., m_eff,i. / total, cumulative, dominant. */
void participation_put_mode (FILE *f, const participation *p, int i)
{
  if (!p || i < 0 || i >= p->nmodes || !p->has[i]) return;
  size_t o = (size_t) ND * i;
  double share[ND];
  for (int k = 0; k < ND; k++)
    share[k] = p->total[k] > 0.0 ? p->mass[o + k] / p->total[k] : NAN;
  fputs ("    participation:\n", f);
  put_six (f, 6, "factor", p->factor + o);
  put_six (f, 6, "effective_mass", p->mass + o);
  put_six (f, 6, "fraction", share);
  put_six (f, 6, "cumulative", p->cumulative + o);
  int dir;
  double s;
  if (participation_dominant (p, i, &dir, &s)) {
    fprintf (f, "      dominant: {direction: %s, fraction: ", participation_dir_name (dir));
    writer_put_real (f, s, WRITER_YAML);
    fputs ("}\n", f);
  }
}

/* The totals line, and the line of the directions where sum_k / total_k < 0.9. */
void participation_log (FILE *log, const participation *p)
{
  if (!log || !p) return;
  int computed = 0;
  for (int i = 0; i < p->nmodes; i++) computed += p->has[i];
  fprintf (log, "participation: %d mode%s, rotations about %s (%g, %g, %g) m; total mass "
           "%g kg, inertia %g, %g, %g kg m^2\n", computed, computed == 1 ? "" : "s",
           p->point_given ? "output.reference_point" : "the centre of mass", p->point[0],
           p->point[1], p->point[2], p->total[0], p->total[3], p->total[4], p->total[5]);
  char low[256] = "";
  size_t used = 0;
  for (int k = 0; k < ND; k++) {
    double h = held (p, k);
    if (!isfinite (h) || h >= PARTICIPATION_LOW) continue;
    int w = snprintf (low + used, sizeof low - used, "%s%s %.1f%%", used ? ", " : "",
                      participation_dir_name (k), 100.0 * h);
    if (w > 0 && (size_t) w < sizeof low - used) used += (size_t) w;
  }
  if (used > 0)
    fprintf (log, "participation: the %d mode%s found hold%s less than %.0f%% of the mass "
             "in %s\n", p->nmodes, p->nmodes == 1 ? "" : "s", p->nmodes == 1 ? "s" : "",
             100.0 * PARTICIPATION_LOW, low);
}
