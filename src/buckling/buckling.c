/* buckling.c: the linear buckling stage: the tangent about the equilibrium under the deck's
   loads split into material and geometric stiffness, the pencil (K_material, -K_geometric)
   solved by the undamped eigen stage, load factors, critical loads and buckling shapes
   reported (YAML, VTK, the log and a table). */
#include "buckling.h"

#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../eigen/gep.h"
#include "../model/material_stiffness.h"
#include "../report/outputs.h"
#include "../report/vtk.h"
#include "../report/writer.h"
#include "../statics/statics_model.h"

/* K_geometric smaller than this times max |K_material| is no geometric stiffness. */
#define BUCKLING_GEO_FLOOR 1e-12

/* -K_geometric is symmetric when its asymmetry is below this times its largest entry: the
   beams' geometric parts come from central differences whose noise (~1e-8 of K_geometric
   when the loads are small against the axial stiffness) is removed by taking (B + B^T)/2;
   a follower or body-fixed load's asymmetry is of the order of the entries themselves. */
#define BUCKLING_SYM_RTOL 1e-6

/* The name of DOF i of a model (ctx), for the eigen stage's messages about a singular
   pencil: "node NAME dx". */
static void dof_label (const void *ctx, int i, char *buf, size_t len)
{
  const model *m = ctx;
  if (i / 6 < m->nnodes)
    snprintf (buf, len, "node %s %s", m->nodes[i / 6].name, model_dof_label (i % 6));
  else snprintf (buf, len, "DOF %d", i + 1);
}

/* 1 when mode md has a positive load factor: lambda > 0 and not zero at the stage's
   rounding floor (MODE_RIGID: a mechanism that no material stiffness holds). */
static int is_positive (const mode *md)
{
  return md->kind != MODE_RIGID && creal (md->lambda) > 0;
}

/* The sign of a load factor in the reports: positive, zero (MODE_RIGID) or negative. */
static const char *sign_word (const mode *md)
{
  return md->kind == MODE_RIGID ? "zero" : creal (md->lambda) > 0 ? "positive" : "negative";
}

/* The report order of the modes of r: positive load factors ascending, then the others
   (zero: mechanisms; negative: the loads reversed) by ascending |lambda|. order: nmodes
   indices, filled. */
static void report_order (const eigen_result *r, int *order)
{
  int k = 0;
  for (int pass = 0; pass < 2; pass++) {
    int k0 = k;
    for (int i = 0; i < r->nmodes; i++)
      if (is_positive (&r->modes[i]) == (pass == 0)) order[k++] = i;
    for (int a = k0 + 1; a < k; a++)  /* insertion sort by |lambda| */
      for (int b = a; b > k0 && fabs (creal (r->modes[order[b]].lambda))
                                < fabs (creal (r->modes[order[b - 1]].lambda)); b--) {
        int t = order[b]; order[b] = order[b - 1]; order[b - 1] = t;
      }
  }
}

/* Each kept shape scaled so that its largest |entry| is 1 and positive (the undamped
   stage normalizes against B = -K_geometric, which is indefinite). */
static void normalize_shapes (eigen_result *r)
{
  for (int i = 0; i < r->nmodes; i++) {
    double complex *x = r->modes[i].x;
    if (!x) continue;
    double big = 0.0;
    int at = 0;
    for (int j = 0; j < r->n; j++)
      if (cabs (x[j]) > big) big = cabs (x[j]), at = j;
    if (big == 0.0) continue;
    double s = creal (x[at]) < 0 ? -1.0 / big : 1.0 / big;
    for (int j = 0; j < r->n; j++) x[j] = creal (x[j]) * s;
  }
}

/* The loads of the model that lambda multiplies, as the deck gives them, times lambda:
   YAML lines under "critical_loads:" (point forces and torques with a non-zero value,
   gravity when set). */
static void put_critical (FILE *f, const model *mdl, double lambda)
{
  fprintf (f, "critical_loads:          # the deck's loads times the lowest positive load "
           "factor\n  load_factor: ");
  writer_put_real (f, lambda, WRITER_YAML);
  fprintf (f, "\n  forces:\n");
  int any = 0;
  for (int i = 0; i < mdl->nforces; i++) {
    const model_force *fo = &mdl->forces[i];
    if ((fo->type != FORCE_POINT && fo->type != FORCE_TORQUE)
        || (fo->value[0] == 0 && fo->value[1] == 0 && fo->value[2] == 0)) continue;
    fprintf (f, "    - name: ");
    writer_put_quoted (f, fo->name, NULL);
    fprintf (f, "\n      type: %s\n      value: [", fo->type == FORCE_POINT ? "force"
             : "torque");
    for (int c = 0; c < 3; c++) {
      writer_put_real (f, lambda * fo->value[c], WRITER_YAML);
      fprintf (f, c < 2 ? ", " : "]   # %s, in the force's frame as the deck gives it\n",
               fo->type == FORCE_POINT ? "N" : "N m");
    }
    any = 1;
  }
  if (!any) fprintf (f, "    []\n");
  const double *g = mdl->gravity;
  if (g[0] != 0 || g[1] != 0 || g[2] != 0) {
    fprintf (f, "  gravity: [");
    for (int c = 0; c < 3; c++) {
      writer_put_real (f, lambda * g[c], WRITER_YAML);
      fprintf (f, c < 2 ? ", " : "]   # m/s^2\n");
    }
  }
}

/* Rank 0: OUTDIR/NAME.buckling.yaml of the modes of r in report order (order), about
   state (words). Returns 0, MB_EIO or MB_ENOMEM. */
static int write_report (const char *path, const buckling_input *in, const eigen_result *r,
                         const int *order, const char *state, mb_err *err)
{
  const deck *d = in->d;
  const model *mdl = in->mdl;
  writer w;
  MB_TRY (writer_open (&w, path, "the buckling report", err));
  FILE *f = w.f;
  fprintf (f, "# mbmodal buckling report: (K_material + lambda K_geometric) phi = 0\n");
  fprintf (f, "deck: ");
  writer_put_quoted (f, d->path, NULL);
  fprintf (f, "\ntitle: ");
  writer_put_quoted (f, d->title ? d->title : "", NULL);
  fprintf (f, "\nstage: buckling\nstate: ");
  writer_put_quoted (f, state, NULL);
  fprintf (f, "\nload_factor: \"lambda multiplies every load of the deck (point forces, "
           "torques, gravity) and the stress they cause about the state\"\n");
  fprintf (f, "n: %d\nm: %d\n", r->n, r->m);
  fprintf (f, "solver:\n  modes_asked: %d\n  tolerance: ", d->buckling.modes);
  writer_put_real (f, d->buckling.tolerance, WRITER_YAML);
  fprintf (f, "\n  max_restarts: %d\n  shift: ", d->buckling.max_restarts);
  writer_put_real (f, creal (r->shift), WRITER_YAML);
  fprintf (f, "\n  converged: %s\n  restarts: %d\n  op_applies: %d\n  max_residual: ",
           r->converged ? "true" : "false", r->restarts, r->op_applies);
  writer_put_real (f, r->max_residual, WRITER_YAML);
  fprintf (f, "\nload_factors: [");
  for (int k = 0; k < r->nmodes; k++) {
    writer_put_real (f, creal (r->modes[order[k]].lambda), WRITER_YAML);
    if (k + 1 < r->nmodes) fprintf (f, ", ");
  }
  fprintf (f, "]\n");
  int first = r->nmodes > 0 && is_positive (&r->modes[order[0]]) ? order[0] : -1;
  if (first >= 0) put_critical (f, mdl, creal (r->modes[first].lambda));
  else fprintf (f, "critical_loads: null     # no positive load factor found\n");
  fprintf (f, "modes:\n");
  for (int k = 0; k < r->nmodes; k++) {
    const mode *md = &r->modes[order[k]];
    fprintf (f, "  - mode: %d\n    load_factor: ", k + 1);
    writer_put_real (f, creal (md->lambda), WRITER_YAML);
    const char *w = sign_word (md);
    fprintf (f, "\n    sign: %s%s\n    residual: ", w, !strcmp (w, "zero") ? "   # a mechanism: "
             "no material stiffness holds this shape, only the loads' stress" : !strcmp (w,
             "negative") ? "   # buckles under the loads reversed" : "");
    writer_put_real (f, md->residual, WRITER_YAML);
    fprintf (f, "\n");
    if (!in->vectors || !md->x) continue;
    fprintf (f, "    shape:   # per node: dx, dy, dz [m], rx, ry, rz [rad]; largest |entry| 1\n");
    for (int i = 0; i < mdl->nnodes; i++) {
      fprintf (f, "      ");
      writer_put_quoted (f, mdl->nodes[i].name, NULL);
      fprintf (f, ": [");
      for (int c = 0; c < 6; c++) {
        writer_put_real (f, creal (md->x[6 * i + c]), WRITER_YAML);
        fprintf (f, c < 5 ? ", " : "]\n");
      }
    }
  }
  return writer_commit (&w, err);
}

/* Rank 0: the table, the log lines, the YAML report and the VTK shapes of r. */
static int report (const buckling_input *in, eigen_result *r, const char *state, mb_err *err)
{
  int *order = mb_calloc ((size_t) r->nmodes + 1, sizeof *order);
  mode *sorted = mb_calloc ((size_t) r->nmodes + 1, sizeof *sorted);
  char *path = outputs_path (in->outdir, in->d->output.name, "buckling", "yaml");
  int rc = order && sorted && path ? 0 : mb_fail (err, MB_ENOMEM, "out of memory for the "
                                                  "buckling report");
  if (rc == 0) {
    normalize_shapes (r);
    report_order (r, order);
    printf ("\nBuckling load factors ((K_material + lambda K_geometric) phi = 0; the deck's "
            "loads times lambda):\n  mode      load factor  sign      residual\n");
    for (int k = 0; k < r->nmodes; k++) {
      const mode *md = &r->modes[order[k]];
      printf ("  %4d  %15.8e  %-8s  %.1e\n", k + 1, creal (md->lambda), sign_word (md),
              md->residual);
    }
    fflush (stdout);
    rc = write_report (path, in, r, order, state, err);
  }
  if (rc == 0 && in->log) {
    if (r->nmodes > 0 && is_positive (&r->modes[order[0]]))
      fprintf (in->log, "buckling: %d load factor%s, the lowest positive %.8g (the deck's "
               "loads times it buckle the structure)\n", r->nmodes, r->nmodes > 1 ? "s"
               : "", creal (r->modes[order[0]].lambda));
    else fprintf (in->log, "buckling: %d load factor%s, none positive: no positive multiple "
                  "of the loads buckles the structure in %s\n", r->nmodes,
                  r->nmodes == 1 ? "" : "s", r->nmodes == 1 ? "this shape" : "these shapes");
    fprintf (in->log, "buckling: report written to %s (%.2f s for the stage)\n", path,
             r->time_total);
  }
  free (path);
  path = NULL;
  if (rc == 0 && in->d->output.vtk) {  /* the shapes in report order */
    eigen_result v = *r;
    for (int k = 0; k < r->nmodes; k++) {
      sorted[k] = r->modes[order[k]];
      sorted[k].freq_hz = sorted[k].damped_freq_hz = 0.0;  /* not a frequency */
    }
    v.modes = sorted;
    path = outputs_path (in->outdir, in->d->output.name, "buckling", "vtu");
    rc = path ? vtk_write_modes (path, in->mdl, &v, err)
              : mb_fail (err, MB_ENOMEM, "out of memory for a file name");
    if (rc == 0 && in->log)
      fprintf (in->log, "buckling: shapes written to %s (ParaView; eigenvalue = load "
               "factor)\n", path);
  }
  free (path);
  free (sorted);
  free (order);
  return rc;
}

/* Rank 0: B = K_material - K_t = -K_geometric from the tangent Kt at the state (s, or the
   model's placed equilibrium), symmetrized (BUCKLING_SYM_RTOL); *Km and *B new (caller
   frees). MB_EDECK when the loads give no geometric stiffness or a non-symmetric one
   (non-conservative loads). */
static int split (const buckling_input *in, const model_state *s, const spm *Kt, spm **Km,
                  spm **B, mb_err *err)
{
  const deck *d = in->d;
  MB_TRY (model_material_stiffness (in->mdl, s, Km, err));
  *B = spm_sum (-1.0, Kt, 1.0, *Km);
  if (!*B) return mb_fail (err, MB_ENOMEM, "out of memory for the geometric stiffness");
  double kmax = spm_max_abs (*Km), gmax = spm_max_abs (*B);
  if (!(gmax > BUCKLING_GEO_FLOOR * kmax))
    return mb_fail_at (err, MB_EDECK, d->path, (size_t) d->buckling.line,
                       (size_t) d->buckling.col, "buckling: the deck's loads stress nothing "
                       "(no geometric stiffness about the %s): give a force, torque or "
                       "gravity that loads the structure", d->statics.present ?
                       "equilibrium" : "equilibrium under them");
  if (!spm_is_symmetric (*B, BUCKLING_SYM_RTOL))
    return mb_fail_at (err, MB_EDECK, d->path, (size_t) d->buckling.line,
                       (size_t) d->buckling.col, "buckling: the geometric stiffness is not "
                       "symmetric (follower or body-fixed loads are not conservative): "
                       "linear buckling needs conservative loads");
  spm *T = spm_transpose (*B), *S = T ? spm_sum (0.5, *B, 0.5, T) : NULL;
  spm_free (T);
  if (!S) return mb_fail (err, MB_ENOMEM, "out of memory for the geometric stiffness");
  spm_free (*B);
  *B = S;
  return 0;
}

/* Collective. Without a statics section: the stage's own static equilibrium under the
   deck's loads, FIM with the statics defaults on rank 0's new statics model *sm (the
   caller frees it, and sres); a stop at round-off is an equilibrium to working precision,
   any other failure to converge MB_ENOCONV in the stage's own words. On rank 0 *Kt, *Cq
   and *s become the equilibrium's tangent, constraints and state (borrowed from *sm). A
   line to in->log. Returns 0 or an error, the same on every rank. */
static int own_equilibrium (MPI_Comm comm, const buckling_input *in, statics_model **sm,
                            statics_result *sres, const spm **Kt, const spm **Cq,
                            const model_state **s, mb_err *err)
{
  int rank, rc = 0;
  MPI_Comm_rank (comm, &rank);
  statics_opts par = in->own;
  if (rank == 0) {
    *sm = mb_calloc (1, sizeof **sm);
    rc = *sm ? statics_model_init (in->mdl, *sm, err)
             : mb_fail (err, MB_ENOMEM, "out of memory for the static stage");
  }
  rc = mb_agree (comm, rc, err);
  if (rc == 0) rc = statics_fim (comm, *sm ? &(*sm)->p : NULL, &par, par.max_num_iter, 0,
                                 NULL, sres, err);
  int roundoff = 0;  /* stopped at round-off: an equilibrium to working precision */
  if (rc == MB_ENOCONV) {
    int stop = (int) sres->stop;
    MPI_Bcast (&stop, 1, MPI_INT, 0, comm);
    if (stop == STATICS_STOP_ROUNDOFF) rc = 0, roundoff = 1, mb_err_init (err);
  }
  if (rc == MB_ENOCONV) {  /* the stage's own words replace the method's */
    mb_err_init (err);
    rc = mb_fail (err, MB_ENOCONV, "buckling: no static equilibrium under the deck's loads "
                  "after %d Newton iterations (%s): the loads may exceed what the "
                  "structure holds; give a statics section to tune the search",
                  par.max_num_iter, sres->reason);
  }
  if (rc == 0 && rank == 0) {
    rc = statics_model_assemble (*sm, sres->gamma, err);
    *Kt = (*sm)->a.K, *Cq = (*sm)->a.Cq, *s = &(*sm)->s;
  }
  rc = mb_agree (comm, rc, err);
  if (rc == 0 && in->log)
    fprintf (in->log, "buckling: equilibrium under the deck's loads after %d Newton "
             "iteration%s%s\n", sres->iterations, sres->iterations == 1 ? "" : "s",
             roundoff ? " (the imbalance left is below what double precision resolves "
             "for these stiffnesses)" : "");
  return rc;
}

/* Collective. The buckling eigenproblem Km x = lambda B x (order shape[0], shape[1]
   constraint rows Cq; Km, B rank 0's from split) by the undamped eigen stage with the
   deck's buckling settings, then rank 0's report (report; about `state`) of what
   converged (all or, MB_ENOCONV, some). A report that cannot be written is an error of
   its own; when the stage failed too, rank 0 prints the write error at once. Returns the
   stage's status, the same on every rank. */
static int solve_and_report (MPI_Comm comm, const buckling_input *in, const int shape[2],
                             spm *Km, spm *B, const spm *Cq, const char *state, mb_err *err)
{
  const deck *d = in->d;
  int rank;
  MPI_Comm_rank (comm, &rank);
  eigen_result res;
  memset (&res, 0, sizeof res);
  gep_system sys = { .n = shape[0], .m = shape[1], .K = Km, .M = B, .Cq = Cq,
                     .label = dof_label, .label_ctx = in->mdl };
  eigen_opts opts = { .modes = d->buckling.modes, .tolerance = d->buckling.tolerance,
                      .max_restarts = d->buckling.max_restarts,
                      .subspace = d->buckling.subspace, .keep_vectors = 1 };
  int rc = gep_modal (comm, &sys, &opts, &res, err);
  int wrc = 0;
  mb_err werr;
  mb_err_init (&werr);
  if ((rc == 0 || rc == MB_ENOCONV) && rank == 0) {
    wrc = report (in, &res, state, &werr);
    if (wrc < 0 && rc < 0) mb_err_print (&werr);
  }
  if (rc == 0 || rc == MB_ENOCONV) {
    int w = mb_agree (comm, wrc, &werr);
    if (rc == 0 && w < 0) *err = werr, rc = w;
  }
  eigen_result_clear (&res);
  return rc;
}

/* Collective; see buckling.h. Steps: the equilibrium (the statics section's, or
   own_equilibrium), split on rank 0 (Km, B), solve_and_report. Owns the statics model,
   Km and B. */
int buckling_run (MPI_Comm comm, const buckling_input *in, mb_err *err)
{
  const deck *d = in->d;
  int rank;
  MPI_Comm_rank (comm, &rank);
  statics_model *sm = NULL;
  statics_result sres;
  memset (&sres, 0, sizeof sres);
  spm *Km = NULL, *B = NULL;
  const spm *Kt = in->Kt, *Cq = in->Cq;
  const model_state *s = NULL;
  int rc = 0, shape[2] = { 0, 0 };
  const char *state = in->unconverged ? "the last state of the statics section, NOT "
                      "converged (allow_unconverged): not an equilibrium"
                      : "the static equilibrium of the statics section";
  if (!d->statics.present) {  /* the stage's own equilibrium under the deck's loads */
    state = "the static equilibrium under the deck's loads, found by the buckling stage "
            "(FIM with the statics defaults; the other stages stay about the deck)";
    rc = own_equilibrium (comm, in, &sm, &sres, &Kt, &Cq, &s, err);
  }
  if (rc == 0 && rank == 0) {
    rc = split (in, s, Kt, &Km, &B, err);
    shape[0] = Kt->nrows;
    shape[1] = Cq ? Cq->nrows : 0;
  }
  rc = mb_agree (comm, rc, err);
  MPI_Bcast (shape, 2, MPI_INT, 0, comm);
  if (rc == 0) rc = solve_and_report (comm, in, shape, Km, B, Cq, state, err);
  spm_free (Km);
  spm_free (B);
  if (sm) statics_model_clear (sm);
  free (sm);
  statics_result_clear (&sres);
  return rc;
}
