/* frf.c: the frf section: FRF matrix by modal superposition plus the residual flexibility
   of the modes left out, written as YAML and CSV (the PNG is scripts/plot_frf.py's). */
#include "frf.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../linalg/factor.h"
#include "../report/outputs.h"
#include "../report/writer.h"

#ifndef M_PI
#define M_PI 3.14159265358979323846
#endif

void frf_data_clear (frf_data *f)
{
  if (!f) return;
  free (f->b); free (f->c); free (f->quantity);
  free (f->w2); free (f->zeta); free (f->phib); free (f->cphi);
  free (f->lambda); free (f->pair); free (f->u); free (f->v);
  free (f->hres);
  memset (f, 0, sizeof *f);
}

/* The displacement H_ok(s), s = i w: the modal sum (and Hres), before the quantity. */
static double complex frf_displacement (const frf_data *f, int o, int k, double w)
{
  double complex h = 0, s = I * w;
  for (int j = 0; j < f->nmodes; j++) {
    if (f->complex_modes) {
      double complex vu = f->v[o + (size_t) j * f->nout] * f->u[j + (size_t) k * f->nmodes];
      h += vu / (s - f->lambda[j]);
      if (f->pair[j]) h += conj (vu) / (s - conj (f->lambda[j]));
    } else {
      double wj = sqrt (f->w2[j]);
      h += f->cphi[o + (size_t) j * f->nout] * f->phib[j + (size_t) k * f->nmodes]
           / (f->w2[j] - w * w + 2.0 * I * f->zeta[j] * wj * w);
    }
  }
  if (f->hres) h += f->hres[o + (size_t) k * f->nout];
  return h;
}

double complex frf_value (const frf_data *f, int o, int k, double w)
{
  double complex h = frf_displacement (f, o, k, w);
  for (int p = 0; p < f->quantity[o]; p++) h *= I * w;
  return h;
}

/* Rank 0: the unit load (input) or observation (output) vector of point p into x (n,
   zeroed by the caller): a model's node DOFs 6 i + (0..2 | 3..5) along p->dir, or a
   matrix deck's DOF. MB_EDECK at the point's deck position when it does not exist. */
static int point_vector (const deck *d, const model *mdl, int n, const deck_frf_point *p,
                         const char *what, double *x, mb_err *err)
{
  if (!mdl) {
    if (p->dof > n)
      return mb_fail_at (err, MB_EDECK, d->path, p->pos.line, p->pos.col, "frf: %s '%s': "
                         "dof %d does not exist (the matrices have %d DOFs)", what, p->name,
                         p->dof, n);
    x[p->dof - 1] = 1.0;
    return 0;
  }
  int node = model_find_node (mdl, p->node);
  if (node < 0)
    return mb_fail_at (err, MB_EDECK, d->path, p->pos.line, p->pos.col, "frf: %s '%s': no "
                       "node '%s' in the model (ground has no DOFs)", what, p->name, p->node);
  for (int i = 0; i < 3; i++) x[6 * node + 3 * p->rotation + i] = p->dir[i];
  return 0;
}

int frf_check_points (const deck *d, const model *mdl, int n, mb_err *err)
{
  double *x = calloc ((size_t) n > 0 ? (size_t) n : 1, sizeof *x);
  if (!x) return mb_fail (err, MB_ENOMEM, "out of memory for the FRF");
  int rc = 0;
  for (int k = 0; rc == 0 && k < d->frf.ninputs; k++)
    rc = point_vector (d, mdl, n, &d->frf.inputs[k], "input", x, err);
  for (int o = 0; rc == 0 && o < d->frf.noutputs; o++)
    rc = point_vector (d, mdl, n, &d->frf.outputs[o], "output", x, err);
  free (x);
  return rc;
}

/* Rank 0: the modal part of f from res's modes (vectors on rank 0). Modal damping:
   phi_j mass-normalized (as the stage gives them), zeta_j from the deck (the last ratio
   for the modes beyond the list). Complex modes: a_j = x_j^T (2 lambda_j M + R) x_j, the
   normalization of the first-order pencil [R M; M 0], [K 0; 0 -M] for symmetric matrices. */
static int modal_part (const deck *d, const spm *M, const spm *R, const eigen_result *res,
                       frf_data *f, mb_err *err)
{
  int n = f->n, nm = res->nmodes, ni = f->nin, no = f->nout;
  f->nmodes = nm;
  for (int j = 0; j < nm; j++)
    if (!res->modes[j].x)
      return mb_fail (err, MB_ESOLVE, "frf: mode %d has no vector", j + 1);
  if (!f->complex_modes) {
    f->w2 = calloc ((size_t) nm, sizeof *f->w2);
    f->zeta = calloc ((size_t) nm, sizeof *f->zeta);
    f->phib = calloc ((size_t) nm * ni, sizeof *f->phib);
    f->cphi = calloc ((size_t) nm * no, sizeof *f->cphi);
    if (!f->w2 || !f->zeta || !f->phib || !f->cphi)
      return mb_fail (err, MB_ENOMEM, "out of memory for the FRF");
    for (int j = 0; j < nm; j++) {
      const mode *md = &res->modes[j];
      if (md->kind == MODE_UNSTABLE)
        return mb_fail (err, MB_EDECK, "frf: mode %d is unstable (omega^2 = %g < 0): no "
                        "frequency response about this state", j + 1, creal (md->lambda));
      f->w2[j] = md->kind == MODE_RIGID ? 0.0 : creal (md->lambda);
      f->zeta[j] = d->frf.ratios[j < d->frf.nratios ? j : d->frf.nratios - 1];
      for (int k = 0; k < ni; k++) {
        double s = 0;
        for (int i = 0; i < n; i++) s += creal (md->x[i]) * f->b[i + (size_t) k * n];
        f->phib[j + (size_t) k * nm] = s;
      }
      for (int o = 0; o < no; o++) {
        double s = 0;
        for (int i = 0; i < n; i++) s += creal (md->x[i]) * f->c[i + (size_t) o * n];
        f->cphi[o + (size_t) j * no] = s;
      }
    }
    return 0;
  }
  f->lambda = calloc ((size_t) nm, sizeof *f->lambda);
  f->pair = calloc ((size_t) nm, sizeof *f->pair);
  f->u = calloc ((size_t) nm * ni, sizeof *f->u);
  f->v = calloc ((size_t) nm * no, sizeof *f->v);
  double complex *t1 = calloc ((size_t) n, sizeof *t1), *t2 = calloc ((size_t) n, sizeof *t2);
  int rc = 0;
  if (!f->lambda || !f->pair || !f->u || !f->v || !t1 || !t2)
    rc = mb_fail (err, MB_ENOMEM, "out of memory for the FRF");
  for (int j = 0; rc == 0 && j < nm; j++) {
    const mode *md = &res->modes[j];
    if (md->kind == MODE_RIGID || md->multiplicity > 1) {
      rc = mb_fail (err, MB_EDECK, "frf: 'damping: complex' with a rigid-body mode (mode %d):"
                    " its double zero eigenvalue has no modal normalization; use modal "
                    "damping ratios, or ground the model", j + 1);
      break;
    }
    f->lambda[j] = md->lambda;
    f->pair[j] = cimag (md->lambda) > 0;
    spm_matvec_complex (M, md->x, t1);
    if (R) spm_matvec_complex (R, md->x, t2);
    double complex a = 0;
    for (int i = 0; i < n; i++) a += md->x[i] * (2.0 * md->lambda * t1[i] + (R ? t2[i] : 0));
    if (cabs (a) == 0) {
      rc = mb_fail (err, MB_ESOLVE, "frf: mode %d has a zero modal normalization", j + 1);
      break;
    }
    for (int k = 0; k < ni; k++) {
      double complex s = 0;
      for (int i = 0; i < n; i++) s += md->x[i] * f->b[i + (size_t) k * n];
      f->u[j + (size_t) k * nm] = s / a;
    }
    for (int o = 0; o < no; o++) {
      double complex s = 0;
      for (int i = 0; i < n; i++) s += md->x[i] * f->c[i + (size_t) o * n];
      f->v[o + (size_t) j * no] = s;
    }
  }
  free (t1);
  free (t2);
  return rc;
}

/* The shift s of the static correction's pencil K - s M: 0 when no mode is rigid (the
   classical K^-1), else -omega_1^2 of the lowest flexible mode (1 rad^2/s^2 without one),
   which makes it regular for a free model (its rigid modes are among the modes). */
static double correction_shift (const frf_data *f)
{
  int rigid = 0;
  double lowest = 0;
  for (int j = 0; j < f->nmodes; j++) {
    if (f->complex_modes) continue;
    if (f->w2[j] == 0) rigid = 1;
    else if (lowest == 0 || f->w2[j] < lowest) lowest = f->w2[j];
  }
  return rigid ? -(lowest > 0 ? lowest : 1.0) : 0.0;
}

/* Collective. The residual flexibility f->hres (rank 0) = C^T X - (modal part at s), X
   solving [K - s M, Cq^T; Cq, 0] [X; G] = [B; 0] (Cq scaled to K's size; the solution X
   does not depend on that), the modal part sum_j (c^T phi_j)(phi_j^T b) / (w_j^2 - s)
   (modal damping) or H_modal(0) = -sum_j [v u / lambda_j + conj] (complex modes, s = 0).
   The matrix is factored as a general one (LU): K may be a tangent. */
static int static_correction (MPI_Comm comm, const spm *K, const spm *M, const spm *Cq,
                              frf_data *f, mb_err *err)
{
  int rank;
  MPI_Comm_rank (comm, &rank);
  int rc = 0, N = 0;
  long nnz = 0;
  int *ir = NULL, *jc = NULL;
  double *a = NULL, *X = NULL;
  if (rank == 0) {
    int n = f->n, m = Cq ? Cq->nrows : 0;
    f->shift = correction_shift (f);
    N = n + m;
    long cap = K->nnz + (f->shift != 0 ? M->nnz : 0) + 2 * (Cq ? Cq->nnz : 0);
    ir = malloc ((size_t) (cap > 0 ? cap : 1) * sizeof *ir);
    jc = malloc ((size_t) (cap > 0 ? cap : 1) * sizeof *jc);
    a = malloc ((size_t) (cap > 0 ? cap : 1) * sizeof *a);
    X = calloc ((size_t) N * f->nin, sizeof *X);
    f->hres = calloc ((size_t) f->nout * f->nin, sizeof *f->hres);
    if (!ir || !jc || !a || !X || !f->hres)
      rc = mb_fail (err, MB_ENOMEM, "out of memory for the FRF's static correction");
    if (rc == 0) {
      for (long e = 0; e < K->nnz; e++)
        ir[nnz] = K->row[e], jc[nnz] = K->col[e], a[nnz++] = K->val[e];
      if (f->shift != 0)
        for (long e = 0; e < M->nnz; e++)
          ir[nnz] = M->row[e], jc[nnz] = M->col[e], a[nnz++] = -f->shift * M->val[e];
      double cmax = Cq ? spm_max_abs (Cq) : 0, kmax = spm_max_abs (K);
      double cs = cmax > 0 && kmax > 0 ? kmax / cmax : 1.0;
      for (long e = 0; Cq && e < Cq->nnz; e++) {
        ir[nnz] = n + Cq->row[e], jc[nnz] = Cq->col[e], a[nnz++] = cs * Cq->val[e];
        ir[nnz] = Cq->col[e], jc[nnz] = n + Cq->row[e], a[nnz++] = cs * Cq->val[e];
      }
      for (int k = 0; k < f->nin; k++)
        memcpy (X + (size_t) k * N, f->b + (size_t) k * n, (size_t) n * sizeof *X);
    }
  }
  rc = mb_agree (comm, rc, err);
  factor *F = NULL;
  if (rc == 0) {
    F = factor_create (comm, FACTOR_REAL_GENERAL, N, nnz, ir, jc, a,
                       "[K - s M, Cq^T; Cq, 0] (FRF static correction)", err);
    if (!F) rc = err->code < 0 ? err->code : MB_ESOLVE;
  }
  if (rc == 0) rc = factor_solve_many (F, rank == 0 ? X : NULL, f->nin, err);
  factor_free (F);
  if (rc == 0 && rank == 0) {
    int n = f->n;
    for (int o = 0; o < f->nout; o++)
      for (int k = 0; k < f->nin; k++) {
        double s = 0;
        for (int i = 0; i < n; i++) s += f->c[i + (size_t) o * n] * X[i + (size_t) k * N];
        double complex modal = 0;
        for (int j = 0; j < f->nmodes; j++)
          if (f->complex_modes) {
            double complex vu = f->v[o + (size_t) j * f->nout]
                                * f->u[j + (size_t) k * f->nmodes];
            modal += -vu / f->lambda[j];
            if (f->pair[j]) modal += -conj (vu) / conj (f->lambda[j]);
          } else
            modal += f->cphi[o + (size_t) j * f->nout] * f->phib[j + (size_t) k * f->nmodes]
                     / (f->w2[j] - f->shift);
        f->hres[o + (size_t) k * f->nout] = s - creal (modal);
      }
  }
  free (ir); free (jc); free (a); free (X);
  return rc;
}

/* The frequency of point i of d's grid [Hz]: linear or log spacing from fmin to fmax. */
static double grid_hz (const deck_frf *fr, int i)
{
  double t = (double) i / (fr->count - 1);
  if (fr->log_spacing) return fr->fmin * pow (fr->fmax / fr->fmin, t);
  return fr->fmin + (fr->fmax - fr->fmin) * t;
}

static const char *quantity_name (int q)
{
  return q == FRF_ACCELERATION ? "acceleration" : q == FRF_VELOCITY ? "velocity"
                                                                     : "displacement";
}

/* The unit of output o per input k ("m/N", "rad/s/(N m)", ...); "" for a matrix deck. */
static void pair_unit (const deck_frf_point *o, const deck_frf_point *k, char *buf, size_t len)
{
  if (!o->node) { buf[0] = 0; return; }
  static const char *const per[] = { "", "/s", "/s^2" };
  snprintf (buf, len, "%s%s/%s", o->rotation ? "rad" : "m", per[o->quantity],
            k->rotation ? "(N m)" : "N");
}

/* One sequence of numbers as a YAML flow list. */
static void put_list (FILE *out, const double *x, int n)
{
  fputc ('[', out);
  for (int i = 0; i < n; i++) {
    if (i) fputs (", ", out);
    writer_put_real (out, x[i], WRITER_YAML);
  }
  fputs ("]\n", out);
}

static void put_point (FILE *out, const deck_frf_point *p, int output)
{
  fputs ("  - name: ", out);
  writer_put_quoted (out, p->name, NULL);
  if (p->node) {
    fputs ("\n    node: ", out);
    writer_put_quoted (out, p->node, NULL);
    fputs ("\n    direction: ", out);
    put_list (out, p->dir, 3);
    fprintf (out, "    %s: %s\n", output ? "rotation" : "type", output
             ? (p->rotation ? "true" : "false") : (p->rotation ? "torque" : "force"));
  } else fprintf (out, "\n    dof: %d\n", p->dof);
  if (output) fprintf (out, "    quantity: %s\n", quantity_name (p->quantity));
}

/* Rank 0: NAME.frf.yaml: the grid, the points and for each (output, input) pair its
   real, imaginary, magnitude and phase [deg] lists. H is nf x (nout nin), pair p = o +
   nout k at H + p nf. */
static int write_yaml (const char *path, const deck *d, const frf_data *f, const double *hz,
                       const double complex *H, mb_err *err)
{
  const deck_frf *fr = &d->frf;
  int nf = fr->count;
  writer w;
  MB_TRY (writer_open (&w, path, "the FRF report", err));
  FILE *out = w.f;
  double *t = malloc ((size_t) nf * sizeof *t);
  if (!t) {
    writer_abort (&w);
    return mb_fail (err, MB_ENOMEM, "out of memory for the FRF report");
  }
  fputs ("# mbmodal frequency response (docs/output.md)\n", out);
  fputs ("deck: ", out);
  writer_put_quoted (out, d->path, NULL);
  if (d->title) {
    fputs ("\ntitle: ", out);
    writer_put_quoted (out, d->title, NULL);
  }
  fprintf (out, "\ndamping: %s\n", f->complex_modes ? "complex modes (the damped stage)"
           : "modal damping ratios (the undamped stage's modes)");
  fprintf (out, "modes: %d\n", f->nmodes);
  if (!f->complex_modes) {
    fputs ("damping_ratios: ", out);
    put_list (out, f->zeta, f->nmodes);
  }
  fprintf (out, "static_correction: %s\n", f->hres ? "true" : "false");
  if (f->hres) {
    fputs ("correction_shift: ", out);
    writer_put_real (out, f->shift, WRITER_YAML);
    fputs ("  # [rad^2/s^2] the residual flexibility is that of K - shift M\n", out);
  }
  fprintf (out, "spacing: %s\n", fr->log_spacing ? "log" : "linear");
  fputs ("frequency_hz: ", out);
  put_list (out, hz, nf);
  fputs ("inputs:\n", out);
  for (int k = 0; k < f->nin; k++) put_point (out, &fr->inputs[k], 0);
  fputs ("outputs:\n", out);
  for (int o = 0; o < f->nout; o++) put_point (out, &fr->outputs[o], 1);
  fputs ("pairs:\n", out);
  for (int k = 0; k < f->nin; k++)
    for (int o = 0; o < f->nout; o++) {
      const double complex *h = H + (size_t) (o + f->nout * k) * nf;
      char unit[64];
      pair_unit (&fr->outputs[o], &fr->inputs[k], unit, sizeof unit);
      fputs ("  - output: ", out);
      writer_put_quoted (out, fr->outputs[o].name, NULL);
      fputs ("\n    input: ", out);
      writer_put_quoted (out, fr->inputs[k].name, NULL);
      fprintf (out, "\n    quantity: %s\n", quantity_name (f->quantity[o]));
      if (unit[0]) fprintf (out, "    unit: \"%s\"\n", unit);
      for (int part = 0; part < 4; part++) {
        for (int i = 0; i < nf; i++)
          t[i] = part == 0 ? creal (h[i]) : part == 1 ? cimag (h[i]) : part == 2
                 ? cabs (h[i]) : carg (h[i]) * 180.0 / M_PI;
        static const char *const key[] = { "real", "imag", "magnitude", "phase_deg" };
        fprintf (out, "    %s: ", key[part]);
        put_list (out, t, nf);
      }
    }
  free (t);
  return writer_commit (&w, err);
}

/* A CSV header cell: the text quoted, '"' doubled. */
static void csv_cell (FILE *out, const char *a, const char *b, const char *c)
{
  fputc ('"', out);
  for (int part = 0; part < 3; part++)
    for (const char *s = part == 0 ? a : part == 1 ? b : c; *s; s++) {
      if (*s == '"') fputc ('"', out);
      fputc (*s, out);
    }
  fputc ('"', out);
}

/* Rank 0: NAME.frf.csv: frequency_hz, then magnitude and phase [deg] of every pair. */
static int write_csv (const char *path, const deck *d, const frf_data *f, const double *hz,
                      const double complex *H, mb_err *err)
{
  int nf = d->frf.count;
  writer w;
  MB_TRY (writer_open (&w, path, "the FRF table", err));
  fputs ("frequency_hz", w.f);
  for (int k = 0; k < f->nin; k++)
    for (int o = 0; o < f->nout; o++)
      for (int part = 0; part < 2; part++) {
        char tail[160];
        snprintf (tail, sizeof tail, "/%s %s", d->frf.inputs[k].name,
                  part ? "phase_deg" : "magnitude");
        fputc (',', w.f);
        csv_cell (w.f, d->frf.outputs[o].name, tail, "");
      }
  fputc ('\n', w.f);
  for (int i = 0; i < nf; i++) {
    writer_put_real (w.f, hz[i], WRITER_SHORTEST);
    for (int p = 0; p < f->nin * f->nout; p++) {
      double complex h = H[(size_t) p * nf + i];
      fputc (',', w.f);
      writer_put_real (w.f, cabs (h), WRITER_SHORTEST);
      fputc (',', w.f);
      writer_put_real (w.f, carg (h) * 180.0 / M_PI, WRITER_SHORTEST);
    }
    fputc ('\n', w.f);
  }
  return writer_commit (&w, err);
}

/* Rank 0: input and output vectors, symmetry checks and the modal part. */
static int prepare (const deck *d, const model *mdl, const spm *K, const spm *M,
                    const spm *R, const eigen_result *res, frf_data *f, mb_err *err)
{
  const deck_frf *fr = &d->frf;
  int n = res->n;
  f->n = n, f->nin = fr->ninputs, f->nout = fr->noutputs;
  f->complex_modes = fr->complex_modes;
  f->b = calloc ((size_t) n * f->nin, sizeof *f->b);
  f->c = calloc ((size_t) n * f->nout, sizeof *f->c);
  f->quantity = calloc ((size_t) f->nout, sizeof *f->quantity);
  if (!f->b || !f->c || !f->quantity)
    return mb_fail (err, MB_ENOMEM, "out of memory for the FRF");
  for (int k = 0; k < f->nin; k++)
    MB_TRY (point_vector (d, mdl, n, &fr->inputs[k], "input", f->b + (size_t) k * n, err));
  for (int o = 0; o < f->nout; o++) {
    MB_TRY (point_vector (d, mdl, n, &fr->outputs[o], "output", f->c + (size_t) o * n, err));
    f->quantity[o] = fr->outputs[o].quantity;
  }
  if (!spm_is_symmetric (K, 1e-10) || !spm_is_symmetric (M, 1e-10)
      || (f->complex_modes && R && !spm_is_symmetric (R, 1e-10)))
    return mb_fail_at (err, MB_EDECK, d->path, (size_t) fr->line, (size_t) fr->col, "frf: "
                       "the modal superposition needs symmetric K, M%s; these are not "
                       "(follower loads or a non-conservative element)",
                       f->complex_modes ? " and R" : "");
  if (res->nmodes < 1) return mb_fail (err, MB_ENOCONV, "frf: the eigen stage gave no modes");
  return modal_part (d, M, R, res, f, err);
}

int frf_run (MPI_Comm comm, const deck *d, const model *mdl, const spm *K, const spm *M,
             const spm *R, const spm *Cq, const eigen_result *res, const char *outdir,
             FILE *log, mb_err *err)
{
  int rank;
  MPI_Comm_rank (comm, &rank);
  frf_data f;
  memset (&f, 0, sizeof f);
  int rc = rank == 0 ? prepare (d, mdl, K, M, R, res, &f, err) : 0;
  rc = mb_agree (comm, rc, err);
  if (rc == 0 && d->frf.static_correction) rc = static_correction (comm, K, M, Cq, &f, err);
  if (rc == 0 && rank == 0) {
    int nf = d->frf.count, np = f.nin * f.nout;
    double *hz = malloc ((size_t) nf * sizeof *hz);
    double complex *H = malloc ((size_t) nf * np * sizeof *H);
    char *yp = outputs_path (outdir, d->output.name, "frf", "yaml");
    char *cp = outputs_path (outdir, d->output.name, "frf", "csv");
    if (!hz || !H || !yp || !cp) rc = mb_fail (err, MB_ENOMEM, "out of memory for the FRF");
    for (int i = 0; rc == 0 && i < nf; i++) {
      hz[i] = grid_hz (&d->frf, i);
      for (int k = 0; k < f.nin; k++)
        for (int o = 0; o < f.nout; o++)
          H[(size_t) (o + f.nout * k) * nf + i] = frf_value (&f, o, k, 2.0 * M_PI * hz[i]);
    }
    if (rc == 0) rc = write_yaml (yp, d, &f, hz, H, err);
    if (rc == 0) rc = write_csv (cp, d, &f, hz, H, err);
    if (rc == 0 && d->frf.state_space) {  /* a relative folder is inside outdir */
      const char *ssd = d->frf.state_space;
      char *dir = ssd[0] == '/' ? strdup (ssd) : writer_join (outdir, ssd);
      rc = dir ? frf_export (&f, d, K, M, R, Cq, dir, log, err)
               : mb_fail (err, MB_ENOMEM, "out of memory for a file name");
      free (dir);
    }
    if (rc == 0 && log)
      fprintf (log, "frf: %d x %d pairs at %d frequencies from %d %s%s; written to %s and "
               "%s\n", f.nout, f.nin, nf, f.nmodes, f.complex_modes ? "complex modes"
               : "modes with modal damping", f.hres ? ", with the static correction" : "",
               yp, cp);
    free (hz); free (H); free (yp); free (cp);
  }
  rc = mb_agree (comm, rc, err);
  frf_data_clear (&f);
  return rc;
}
