/* run.c: the pipeline of one deck: deck -> model (or matrix files) -> statics -> eigen
   stages -> reports, with one cleanup path (see run.h). */
#include "run.h"
#include "plot.h"

#include <complex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "buckling/buckling.h"
#include "deck/deck.h"
#include "eigen/gep.h"
#include "eigen/pencil.h"
#include "eigen/shift_invert.h"
#include "frf/frf.h"
#include "linalg/blas.h"
#include "linalg/mmio.h"
#include "linalg/sparse.h"
#include "model/assemble.h"
#include "model/model.h"
#include "model/plausible.h"
#include "model/spin.h"
#include "model/strain.h"
#include "report/export.h"
#include "report/outputs.h"
#include "report/report.h"
#include "report/static_report.h"
#include "report/vtk.h"
#include "report/csv.h"
#include "statics/statics.h"
#include "statics/statics_model.h"
#include "sweep.h"

/* Rank 0, damped stage of a model deck: r->has_whirl = model_has_spin (m); each mode's
   whirl from its vector (spin_whirl_measure): +1 forward, -1 backward, 0 not said; not
   said for a mode without its vector, one that is not oscillatory, or one whose
   eigenvalue another reported mode shares to 1e-6 (a repeated eigenvalue's vectors are
   any mix of a forward and a backward orbit). */
static void whirl_modes (const model *m, eigen_result *r)
{
  r->has_whirl = model_has_spin (m);
  for (int i = 0; r->modes && i < r->nmodes; i++) {
    mode *md = &r->modes[i];
    md->whirl = 0;
    if (!r->has_whirl || !md->x || md->kind != MODE_OSCILLATORY || !(cimag (md->lambda) > 0))
      continue;
    int repeated = md->multiplicity > 1;
    for (int j = 0; j < r->nmodes && !repeated; j++)
      if (j != i && cabs (r->modes[j].lambda - md->lambda) <= 1e-6 * cabs (md->lambda))
        repeated = 1;
    if (!repeated) md->whirl = spin_whirl_of (spin_whirl_measure (m, md->x));
  }
}

/* Rank 0: OUTDIR/NAME.KIND.png drawn from OUTDIR/NAME.KIND.yaml (plot_png), and a log
   line; when it cannot be drawn (no python3-matplotlib), a note: the run goes on. */
void run_plot (const char *outdir, const char *name, const char *kind, FILE *log)
{
  char *yaml = outputs_path (outdir, name, kind, "yaml");
  char *png = outputs_path (outdir, name, kind, "png");
  char why[300] = "out of memory";
  if (yaml && png && plot_png (yaml, png, why, sizeof why) == 0) {
    if (log) fprintf (log, "%s: plot written to %s\n", kind, png);
  } else if (log)
    fprintf (log, "note: %s: no plot (%s); `mbmodal plot %s` draws it later\n", kind, why,
             yaml ? yaml : "REPORT");
  free (yaml);
  free (png);
}

/* The eigen stages' solver choices from the deck's solver section. */
static eigen_solver eigen_solver_of (const deck_solver *s)
{
  eigen_solver e = { .has_ordering = s->has_ordering, .ordering = s->ordering,
                     .has_workspace = s->has_workspace, .workspace = s->workspace,
                     .low_rank = s->low_rank, .no_early_exit = !s->early_exit,
                     .no_lag = !s->lagged_orthogonalization };
  return e;
}

/* Everything one run holds. run_clear frees it: the one cleanup path. */
typedef struct run {
  MPI_Comm comm;
  int rank, nranks;
  const run_opts *opts;    /* borrowed */
  FILE *log;               /* rank 0's progress log; NULL when quiet and on other ranks */
  FILE *detail;            /* rank 0's detail lines (-v): the log, or NULL */
  deck d;
  int is_model;            /* 1: model deck; 0: matrix deck */
  model mdl;               /* model deck: every rank builds it */
  assembly as;             /* model deck, rank 0: owns K, M, R, Cq */
  spm *K, *M, *R, *Cq;     /* rank 0: borrowed from as (model deck) or owned (matrix deck) */
  int by_rows;             /* matrix deck read by rows: parts and measures, no K, M, Cq */
  int refused_flutter;     /* 1: the undamped stage refused a pencil with complex
                              eigenvalues; the damped stage, which gives them, still runs */
  int energies;            /* model deck: the eigen stages may take its element energies at
                              the deck (no statics, or an equilibrium that is the deck's) */
  gep_parts parts;         /* by rows: this rank's rows of K, M, Cq in the pencil layout */
  gep_measures measures;   /* by rows: what the stages need of the whole */
  int n, m;                /* DOFs and constraint rows, on every rank */
  const char *outdir;      /* borrowed from opts or d */
} run;

static void run_clear (run *r)
{
  if (r->is_model) assembly_clear (&r->as);  /* owns K, M, R, Cq */
  else {
    spm_free (r->K);
    spm_free (r->M);
    spm_free (r->R);
    spm_free (r->Cq);
    gep_parts_clear (&r->parts);
  }
  model_clear (&r->mdl);
  deck_clear (&r->d);
}

/* Files of at least this many bytes are read by every rank at once (mmio_read_ranks);
   smaller ones by rank 0 alone, which parses a megabyte in about 20 ms. */
#define READ_RANKS_MIN_BYTES (1LL << 20)

/* The error rc (inner: the reader's message) of reading the matrix file named at deck
   position (line, col): a file that cannot be opened or read is the deck's error at that
   key; an error in its content keeps the file's own position, as a deck error (exit 2). */
static int file_error (const deck *d, const char *what, size_t line, size_t col, int rc,
                       const mb_err *inner, mb_err *err)
{
  if (rc == MB_EIO)
    return mb_fail_at (err, MB_EDECK, d->path, line, col, "matrix %s: %s: %s", what,
                       inner->where, inner->msg);
  *err = *inner;
  if (err->code == MB_EIO) err->code = MB_EDECK;
  return err->code;
}

/* Collective: reads one matrix file named at deck position (line, col) into *A on rank 0
   (compressed; caller frees; the other ranks get nothing), every rank parsing a share of a
   large file. A missing file is the deck's error, at the key that names it. The status and
   message are the same on every rank. */
static int load_matrix (MPI_Comm comm, const deck *d, const char *what, const char *path,
                        size_t line, size_t col, spm **A, mb_err *err)
{
  int rank;
  MPI_Comm_rank (comm, &rank);
  mb_err inner;
  mb_err_init (&inner);
  int rc = mmio_read_ranks (comm, path, READ_RANKS_MIN_BYTES, A, &inner);
  if (rc < 0) return file_error (d, what, line, col, rc, &inner, err);
  rc = rank == 0 && spm_compress (*A) < 0
     ? mb_fail (err, MB_ENOMEM, "out of memory for %s", what) : 0;
  return mb_agree (comm, rc, err);
}

/* The shapes of a matrix deck's K, M (and R, Cq when given) checked against each other.
   Returns 0 or MB_EDECK at the key of the matrix at fault. */
static int check_shapes (const deck *d, const spm *K, const spm *M, const spm *R,
                         const spm *Cq, mb_err *err)
{
  const deck_matrices *dm = &d->matrices;
  int n = K->nrows;
  if (K->ncols != n)
    return mb_fail_at (err, MB_EDECK, d->path, dm->line_K, dm->col_K,
                       "matrix K (%s) must be square, it is %d x %d", dm->K, n, K->ncols);
  if (M->nrows != n || M->ncols != n)
    return mb_fail_at (err, MB_EDECK, d->path, dm->line_M, dm->col_M,
                       "matrix M (%s) is %d x %d but K is %d x %d", dm->M, M->nrows,
                       M->ncols, n, n);
  if (R && (R->nrows != n || R->ncols != n))
    return mb_fail_at (err, MB_EDECK, d->path, dm->line_R, dm->col_R,
                       "matrix R (%s) is %d x %d but K is %d x %d", dm->R, R->nrows,
                       R->ncols, n, n);
  if (Cq && Cq->ncols != n)
    return mb_fail_at (err, MB_EDECK, d->path, dm->line_Cq, dm->col_Cq,
                       "matrix Cq (%s) is %d x %d but must have n = %d columns (K is %d x %d)",
                       dm->Cq, Cq->nrows, Cq->ncols, n, n, n);
  if (Cq && Cq->nrows >= n)
    return mb_fail_at (err, MB_EDECK, d->path, dm->line_Cq, dm->col_Cq,
                       "matrix Cq (%s) has %d rows for %d DOFs: more constraints than DOFs",
                       dm->Cq, Cq->nrows, n);
  return 0;
}

/* Collective: K, M (and R, Cq) from a matrix deck's files onto rank 0 (load_matrix), then
   (rank 0) their shapes checked. */
static int load_system (MPI_Comm comm, const deck *d, spm **K, spm **M, spm **R, spm **Cq,
                        mb_err *err)
{
  const deck_matrices *dm = &d->matrices;
  int rank;
  MPI_Comm_rank (comm, &rank);
  MB_TRY (load_matrix (comm, d, "K", dm->K, dm->line_K, dm->col_K, K, err));
  MB_TRY (load_matrix (comm, d, "M", dm->M, dm->line_M, dm->col_M, M, err));
  if (dm->R && d->damped.enabled)  /* R serves the damped stage only */
    MB_TRY (load_matrix (comm, d, "R", dm->R, dm->line_R, dm->col_R, R, err));
  if (dm->Cq) MB_TRY (load_matrix (comm, d, "Cq", dm->Cq, dm->line_Cq, dm->col_Cq, Cq, err));
  return rank == 0 ? check_shapes (d, *K, *M, *R, *Cq, err) : 0;
}

/* Collective: one matrix file named at deck position (line, col) as every rank's share of
   its entries (mmio_read_share: no rank holds them all), the errors as load_matrix's. */
static int load_share (MPI_Comm comm, const deck *d, const char *what, const char *path,
                       size_t line, size_t col, spm **S, int *symmetric, mb_err *err)
{
  mb_err inner;
  mb_err_init (&inner);
  int rc = mmio_read_share (comm, path, READ_RANKS_MIN_BYTES, S, symmetric, &inner);
  return rc < 0 ? file_error (d, what, line, col, rc, &inner, err) : 0;
}

/* Collective. A matrix deck is read by rows (see read_by_rows): every rank parses its
   share of each file, the shapes are checked on every rank (the same data, the same
   verdict), the entries go to the ranks that own their rows of the pencil layout
   (gep_parts_route), and what the stage needs of the whole is measured over the ranks
   (gep_measure_parts). No rank holds a whole matrix; the stage gathers them only when it
   cannot go by rows (an unsymmetric undamped pencil, the damped stage in complex
   arithmetic). times: parse, route, measure [s]. */
static int load_system_by_rows (run *r, double times[3], mb_err *err)
{
  double t0 = MPI_Wtime ();
  const deck *d = &r->d;
  const deck_matrices *dm = &d->matrices;
  spm *K = NULL, *M = NULL, *R = NULL, *Cq = NULL;
  int ksym = 0, msym = 0, rsym = 1;  /* symmetric by the files' banners */
  int rc = load_share (r->comm, d, "K", dm->K, dm->line_K, dm->col_K, &K, &ksym, err);
  if (rc == 0) rc = load_share (r->comm, d, "M", dm->M, dm->line_M, dm->col_M, &M, &msym, err);
  if (rc == 0 && dm->R && d->damped.enabled)  /* R serves the damped stage only */
    rc = load_share (r->comm, d, "R", dm->R, dm->line_R, dm->col_R, &R, &rsym, err);
  if (rc == 0 && dm->Cq)
    rc = load_share (r->comm, d, "Cq", dm->Cq, dm->line_Cq, dm->col_Cq, &Cq, NULL, err);
  if (rc == 0) rc = mb_agree (r->comm, check_shapes (d, K, M, R, Cq, err), err);
  double t1 = MPI_Wtime ();
  if (rc == 0) {
    r->n = K->nrows;
    r->m = Cq ? Cq->nrows : 0;
    rc = gep_parts_route (r->comm, r->n, r->m, K, M, R, Cq, &r->parts, err);
  }
  spm_free (K); spm_free (M); spm_free (R); spm_free (Cq);
  double t2 = MPI_Wtime ();
  if (rc == 0)
    rc = gep_measure_parts (r->comm, &r->parts, ksym && msym && rsym, &r->measures, err);
  times[0] = t1 - t0, times[1] = t2 - t1, times[2] = MPI_Wtime () - t2;
  return rc;
}

/* Collective. 1 when a matrix deck is read by rows: more than one rank and an eigen stage
   (the damped one by rows at every shift). */
static int read_by_rows (run *r)
{
  return r->nranks > 1 && (r->d.modal.enabled || r->d.damped.enabled) && !r->d.frf.present;
}

/* "K k, M m, R r, Cq c entries" into buf for the log; r or c < 0: that matrix is absent
   and left out. */
static void entry_counts (char *buf, size_t len, long k, long m, long r, long c)
{
  int used = snprintf (buf, len, "K %ld, M %ld", k, m);
  if (r >= 0 && used >= 0 && (size_t) used < len)
    used += snprintf (buf + used, len - (size_t) used, ", R %ld", r);
  if (c >= 0 && used >= 0 && (size_t) used < len)
    snprintf (buf + used, len - (size_t) used, ", Cq %ld", c);
}

/* Collective. Matrix deck: the files read onto rank 0 (large ones by every rank at once);
   the shape reaches every rank. */
static int setup_matrices (run *r, mb_err *err)
{
  int rc = 0, shape[2] = { 0, 0 };
  double t = MPI_Wtime ();
  if (read_by_rows (r)) {
    double times[3] = { 0.0, 0.0, 0.0 };
    rc = load_system_by_rows (r, times, err);
    if (rc < 0) return rc;
    r->by_rows = 1;
    long nz[4] = { r->parts.K.L.nnz, r->parts.M.L.nnz, r->parts.Cq.L.nnz, r->parts.R.L.nnz };
    long all[4];
    MPI_Reduce (nz, all, 4, MPI_LONG, MPI_SUM, 0, r->comm);
    char counts[128];
    entry_counts (counts, sizeof counts, all[0], all[1], r->measures.has_r ? all[3] : -1,
                  r->m > 0 ? all[2] : -1);
    if (r->log)
      fprintf (r->log, "matrices: n = %d DOFs, m = %d constraints; %s entries (read by rows "
               "on %d ranks in %.2f s: parse %.2f, to the rows' ranks %.2f, symmetry and "
               "norms %.2f)\n", r->n, r->m, counts, r->nranks, MPI_Wtime () - t, times[0],
               times[1], times[2]);
    return 0;
  }
  rc = load_system (r->comm, &r->d, &r->K, &r->M, &r->R, &r->Cq, err);
  if (r->rank == 0) {
    if (rc == 0) {
      shape[0] = r->K->nrows;
      shape[1] = r->Cq ? r->Cq->nrows : 0;
      char counts[128];
      entry_counts (counts, sizeof counts, r->K->nnz, r->M->nnz, r->R ? r->R->nnz : -1,
                    r->Cq ? r->Cq->nnz : -1);
      if (r->log)
        fprintf (r->log, "matrices: n = %d DOFs, m = %d constraints; %s entries "
                 "(read in %.2f s)\n", shape[0], shape[1], counts, MPI_Wtime () - t);
    }
  }
  rc = mb_agree (r->comm, rc, err);
  MPI_Bcast (shape, 2, MPI_INT, 0, r->comm);
  r->n = shape[0];
  r->m = shape[1];
  return rc;
}

/* What an export's K, M, R, Cq are about (its deck.yaml's "# state:" line and the log). */
#define STATE_DECK "the deck configuration (no statics section); the matrices the eigen " \
  "stages used"
#define STATE_EQUILIBRIUM "the static equilibrium of the statics section: K is the tangent " \
  "there (material, geometric, load and reaction stiffness), M, R, Cq there; the " \
  "matrices the eigen stages used"
#define STATE_UNCONVERGED "the static stage's last state, NOT converged (allow_unconverged): " \
  "K is the tangent there (material, geometric, load and reaction stiffness), M, R, Cq " \
  "there; the matrices the eigen stages used"
#define STATE_NO_EQUILIBRIUM "the deck configuration: the static stage did not reach an " \
  "equilibrium and no eigen stage ran; NOT the tangent about an equilibrium"

/* Rank 0, model deck: writes r->as's K, M, R, Cq, the row maps and a matrix deck to the
   export folder when one is asked for (--export-matrices or output.export_matrices), with
   state (STATE_*) in the deck and the log. Returns 0 or export_matrices' error. */
static int export_system (run *r, const char *state, mb_err *err)
{
  const char *dir = r->opts->export_dir ? r->opts->export_dir : r->d.output.export_matrices;
  if (!dir) return 0;
  const assembly *a = &r->as;
  MB_TRY (export_matrices (dir, &r->mdl, a->K, a->M, a->R, a->Cq, &r->d, state, err));
  if (r->log)
    fprintf (r->log, "matrices exported to %s (K, M%s%s .mtx, dofs.csv, constraints.csv, "
             "deck.yaml): %s\n", dir, a->R ? ", R" : "", a->Cq ? ", Cq" : "", state);
  return 0;
}

/* Collective. Model deck: every rank builds the model from the same deck text, so every
   rank meets the same deck error; rank 0 assembles M, K, R, Cq (owned by r->as), checks
   that Cq has full row rank, and, without a statics section, writes the matrices when
   asked (export_system; with one, run_statics writes those about the equilibrium). The
   shape reaches every rank. */
static int setup_model (run *r, mb_err *err)
{
  const deck *d = &r->d;
  FILE *log = r->log;
  double t = MPI_Wtime ();
  int rc = mb_agree (r->comm, model_build (d, &r->mdl, err), err);
  if (rc < 0) return rc;
  int shape[2] = { 0, 0 };
  if (r->rank == 0) {
    assembly *a = &r->as;
    int skipped = 0;
    model_plausibility (&r->mdl, d, stderr);  /* warnings only: the run goes on */
    rc = assemble_system (&r->mdl, a, err);
    if (rc == 0) rc = assemble_check_finite (&r->mdl, a, d->path, err);
    if (rc == 0 && a->Cq)
      rc = assemble_check_constraints (&r->mdl, a->Cq, d->path, &skipped, err);
    if (rc == 0 && log) {
      const model *mdl = &r->mdl;
      long elements = 0;
      for (int i = 0; i < mdl->nbeams; i++) elements += mdl->beams[i].nelements;
      fprintf (log, "model: %d nodes (%d bodies, %d beams of %ld elements), %d joints, "
               "%d force elements\n", mdl->nnodes, mdl->nbodies, mdl->nbeams, elements,
               mdl->njoints, mdl->nforces);
      if (mdl->nplanar > 0) {
        int rows = 0;
        for (int j = mdl->njoints - mdl->nplanar; j < mdl->njoints; j++)
          rows += mdl->joints[j].nrows;
        fprintf (log, "model: planar: %d of the joints are its locks to ground (planar:NODE),"
                 " %d rows the other joints do not already hold\n", mdl->nplanar, rows);
      }
      if (mdl->nmasses > 0)
        fprintf (log, "model: %d point mass%s (masses:) on their nodes\n", mdl->nmasses,
                 mdl->nmasses == 1 ? "" : "es");
      char counts[128];
      entry_counts (counts, sizeof counts, a->K->nnz, a->M->nnz, a->R ? a->R->nnz : -1,
                    a->Cq ? a->Cq->nnz : -1);
      fprintf (log, "assembled: n = %d DOFs, m = %d constraint rows; %s entries (%.2f s)\n",
               a->n, a->m, counts, MPI_Wtime () - t);
      if (skipped)
        fprintf (log, "warning: %d joint group%s too large for the rank check of Cq; a "
                 "redundant joint there shows as a singular pencil\n", skipped,
                 skipped > 1 ? "s" : "");
    }
    if (rc == 0 && !d->statics.present)  /* with statics: exported about the equilibrium */
      rc = export_system (r, STATE_DECK, err);
    if (rc == 0) {
      r->K = a->K, r->M = a->M, r->R = a->R, r->Cq = a->Cq;
      shape[0] = a->n;
      shape[1] = a->m;
    }
  }
  rc = mb_agree (r->comm, rc, err);
  MPI_Bcast (shape, 2, MPI_INT, 0, r->comm);
  r->n = shape[0];
  r->m = shape[1];
  return rc;
}

/* Rank 0: a deck that sets gravity has it act only through the static stage; without
   one the modes are about the deck configuration, and the log says so. */
static void note_gravity (const run *r)
{
  const double *g = r->d.model.gravity;
  if (!r->log || !r->is_model || r->d.statics.present || (g[0] == 0 && g[1] == 0 && g[2] == 0))
    return;
  fprintf (r->log, "note: gravity (%g, %g, %g) m/s^2 has no effect on the modes without a "
           "statics section: they are computed about the deck configuration\n",
           g[0], g[1], g[2]);
}

/* Rank 0: the same for beam line loads (beams.*.line_load): one note naming the first
   beam that has one. */
static void note_line_loads (const run *r)
{
  if (!r->log || !r->is_model || r->d.statics.present) return;
  for (int i = 0; i < r->d.model.nbeams; i++)
    if (r->d.model.beams[i].has_line_load) {
      fprintf (r->log, "note: the line load of beam '%s' has no effect on the modes without "
               "a statics section: they are computed about the deck configuration\n",
               r->d.model.beams[i].name);
      return;
    }
}

/* Rank 0: point forces and torques with a non-zero value act only through the static
   stage, like gravity; without one the log says so, naming the first of them. */
static void note_loads (const run *r)
{
  if (!r->log || !r->is_model || r->d.statics.present) return;
  int count = 0;
  const model_force *first = NULL;
  for (int i = 0; i < r->mdl.nforces; i++) {
    const model_force *f = &r->mdl.forces[i];
    if ((f->type == FORCE_POINT || f->type == FORCE_TORQUE)
        && (f->value[0] != 0 || f->value[1] != 0 || f->value[2] != 0)) {
      if (!first) first = f;
      count++;
    }
  }
  if (count == 0) return;
  fprintf (r->log, "note: %d point load%s ('%s'%s) %s no effect on the modes without a "
           "statics section: they are computed about the deck configuration\n", count,
           count > 1 ? "s" : "", first->name, count > 1 ? ", ..." : "",
           count > 1 ? "have" : "has");
}

/* Rank 0: a complex section in a deck without damping (and no 'enabled' key) is not run;
   the log says so, with the section's line, instead of skipping it in silence. */
static void note_complex_off (const run *r)
{
  if (!r->log || r->d.damped.off_line <= 0) return;
  fprintf (r->log, "note: %s:%d: the complex section is not run: the damped stage needs %s; "
           "give it, or set 'enabled: true' (%s)\n", r->d.path, r->d.damped.off_line,
           r->is_model ? "damping in the model (alpha or beta of a material, c of a spring, "
           "a bushing's damping)" : "matrices.R (a damping matrix)", r->is_model
           ? "it then runs with R = 0" : "the missing R is then an error");
}

/* Rank 0: the log lines of a finished static stage. */
static void log_statics (FILE *log, const statics_result *res, const char *path, int written)
{
  fprintf (log, "statics: %s after %d iteration%s (%.2f s)\n", res->converged ?
           "converged" : "NOT converged", res->iterations, res->iterations == 1 ? "" : "s",
           res->time);
  fprintf (log, "statics: %s\n", res->reason);
  if (!res->converged)
    fprintf (log, "statics: no equilibrium found, so no stability verdict: none may exist "
             "(the loads may exceed what the joints and springs can hold)\n");
  else if (res->unstable > 0 && res->verdict_damped)
    fprintf (log, "statics: the equilibrium is UNSTABLE: %d root%s of the damped "
             "linearization about it %s a positive real part (the complex stage lists "
             "them as 'unstable', a conjugate pair as one mode)\n", res->unstable,
             res->unstable > 1 ? "s" : "", res->unstable > 1 ? "have" : "has");
  else if (res->unstable > 0)
    fprintf (log, "statics: the equilibrium is UNSTABLE: %d mode%s of the linearization "
             "about it %s unstable (the modal stage lists %s as 'unstable')\n",
             res->unstable, res->unstable > 1 ? "s" : "", res->unstable > 1 ? "are" : "is",
             res->unstable > 1 ? "them" : "it");
  else if (res->unstable == 0)
    fprintf (log, "statics: the equilibrium is stable%s\n", res->verdict_damped ? " (the "
             "damped linearization: with its follower loads, the undamped modes may differ)"
             : "");
  else fprintf (log, "statics: the stability of the equilibrium is unknown: %s\n",
                res->verdict_note);
  if (written) fprintf (log, "statics: report written to %s\n", path);
}

/* Rank 0: 1 when the equilibrium s is the deck configuration itself (every node at its deck
   pose, bitwise; every reaction zero; no gravity; no preloaded rotational spring): its K
   is then the deck's, which the
   element energies at the deck reproduce (gep_system.energy), else 0 (geometric terms). */
static int at_deck (const model *mdl, const model_state *s)
{
  for (int i = 0; i < mdl->nnodes; i++)
    if (!model_state_node_at_deck (mdl, s, i)) return 0;
  for (int k = 0; k < mdl->nconstraints; k++)
    if (s->gamma[k] != 0.0) return 0;
  for (int f = 0; f < mdl->nforces; f++)  /* assemble_at's preload stiffness differs there */
    if (mdl->forces[f].type == FORCE_ROTATIONAL_SPRING && mdl->forces[f].preload != 0.0)
      return 0;
  return mdl->gravity[0] == 0.0 && mdl->gravity[1] == 0.0 && mdl->gravity[2] == 0.0;
}

/* The static stage's options from the deck's statics section (its defaults already
   applied by the parser): the same values, field by field. */
static statics_opts statics_opts_of (const deck_statics *d)
{
  statics_opts o = { .method = d->method == STATICS_MKEAM ? STATICS_ALG_MKEAM
                               : STATICS_ALG_FIM,
                     .max_imbalance = d->max_imbalance, .imbalance_given = d->imbalance_given,
                     .max_error = d->max_error, .stability = d->stability,
                     .max_num_iter = d->max_num_iter, .max_ke_tol = d->max_ke_tol,
                     .max_dq_tol = d->max_dq_tol, .p_f = d->p_f,
                     .allow_unconverged = d->allow_unconverged };
  return o;
}

/* Collective. The static stage of a model deck (d.statics.present): rank 0 makes the model
   at its deck configuration a static problem, every rank runs the deck's method
   (statics_solve), rank 0 writes OUTDIR/NAME.static.yaml (also when not converged: the
   best state) and logs a summary. When it converged, or did not and the deck allows it
   (allow_unconverged), rank 0's r->as is replaced by the system at the equilibrium
   (q*, gamma*) for the eigen stages: K with the reactions' geometric stiffness, M, R, Cq,
   and rank 0's model takes the equilibrium poses (model_place: reports, energy shares
   and VTK mode shapes about the equilibrium); *proceed = 1. An export
   asked for is written then (export_system): the equilibrium's matrices, or, when the
   eigen stages will not run, the deck configuration's, said so. Returns 0, MB_ENOCONV
   (*proceed says whether the eigen stages may still run) or another error (*proceed = 0),
   the same on every rank. */
static int run_statics (run *r, int *proceed, mb_err *err)
{
  const deck *d = &r->d;
  const statics_opts opts = statics_opts_of (&d->statics), *par = &opts;
  statics_model *sm = NULL;
  statics_result res;
  memset (&res, 0, sizeof res);
  *proceed = 0;
  int rc = 0;
  if (r->rank == 0) {
    sm = mb_calloc (1, sizeof *sm);
    rc = sm ? statics_model_init (&r->mdl, sm, err)
            : mb_fail (err, MB_ENOMEM, "out of memory for the static stage");
    char rel[64] = "";  /* the default tolerance is relative (fim.c) */
    if (!par->imbalance_given)
      snprintf (rel, sizeof rel, " or %g x the load scale if larger", STATICS_REL_IMBALANCE);
    if (rc == 0 && r->log)
      fprintf (r->log, "statics: %s, max_imbalance %g%s, max_error %g, stability %g, "
               "max_num_iter %d%s\n",
               par->method == STATICS_ALG_MKEAM ? "MKEAM (then FIM polish)"
               : "FIM (Newton-Raphson)", par->max_imbalance, rel, par->max_error,
               par->stability, par->max_num_iter,
               par->p_f > 0 ? ", singularity removal p_f on" : "");
  }
  const run_hook *hook = r->opts->hook;  /* a sweep's step: from the last equilibrium */
  if (rc == 0 && sm && hook && hook->statics_start) hook->statics_start (hook->ctx, &sm->s);
  rc = mb_agree (r->comm, rc, err);
  if (rc == 0) rc = statics_solve (r->comm, sm ? &sm->p : NULL, par, r->log, &res, err);
  int go = rc == 0 || (rc == MB_ENOCONV && par->allow_unconverged);
  int wrc = 0;
  mb_err werr;
  mb_err_init (&werr);
  if ((rc == 0 || rc == MB_ENOCONV) && r->rank == 0) {
    if (r->mdl.nconstraints > 0)
      memcpy (sm->s.gamma, res.gamma, (size_t) r->mdl.nconstraints * sizeof *res.gamma);
    if (rc == 0 && hook && hook->statics_done) hook->statics_done (hook->ctx, &sm->s);
    char *path = outputs_path (r->outdir, d->output.name, "static", "yaml");
    wrc = path ? static_report_write (path, &r->mdl, &sm->s, par, &res, d->path, d->title,
                                      &werr)
               : mb_fail (&werr, MB_ENOMEM, "out of memory for a file name");
    if (r->log) log_statics (r->log, &res, path, wrc == 0);
    free (path);
    if (wrc == 0 && go) {  /* the eigen stages linearize about (q*, gamma*) */
      wrc = statics_model_assemble (sm, res.gamma, &werr);
      if (wrc == 0) {
        r->energies = at_deck (&r->mdl, &sm->s);  /* before model_place moves the poses */
        assembly_clear (&r->as);
        r->as = sm->a;
        memset (&sm->a, 0, sizeof sm->a);
        r->K = r->as.K, r->M = r->as.M, r->R = r->as.R, r->Cq = r->as.Cq;
        wrc = model_place (&r->mdl, &sm->s, &werr);
        if (wrc == 0)
          wrc = export_system (r, rc == 0 ? STATE_EQUILIBRIUM : STATE_UNCONVERGED, &werr);
      }
    } else if (wrc == 0) wrc = export_system (r, STATE_NO_EQUILIBRIUM, &werr);
    if (wrc < 0 && rc < 0) mb_err_print (&werr);  /* both failures are said */
  }
  if (rc == 0 || rc == MB_ENOCONV) {
    int w = mb_agree (r->comm, wrc, &werr);
    if (w < 0 && rc == 0) {
      *err = werr;
      rc = w;
    } else if (w < 0) go = 0;
  }
  *proceed = rc == 0 || (rc == MB_ENOCONV && go);
  if (sm) statics_model_clear (sm);
  free (sm);
  statics_result_clear (&res);
  return rc;
}

/* The name of DOF i of a model (ctx: the model), for the eigen stages' diagnosis of a
   singular pencil: "node NAME dx" (gep_system.label). */
static void dof_label (const void *ctx, int i, char *buf, size_t len)
{
  const model *m = ctx;
  if (i / 6 < m->nnodes)
    snprintf (buf, len, "node %s %s", m->nodes[i / 6].name, model_dof_label (i % 6));
  else snprintf (buf, len, "DOF %d", i + 1);
}

/* The strain energy of DOF vector phi as a sum of element energies (ctx: the model at its
   deck configuration), gep_system.energy: model_strain_energy. */
static double strain_energy (const void *ctx, const double *phi, double *kphi, double *kabs,
                             double eabs[2])
{
  return model_strain_energy (ctx, phi, kphi, kabs, eabs);
}

/* X^T K X of nv DOF vectors from the element energies (ctx: the model at its deck
   configuration), gep_system.gram: model_strain_gram. */
static int strain_gram (const void *ctx, int nv, const double *X, int ldx, double *G)
{
  return model_strain_gram (ctx, nv, X, ldx, G);
}

/* The options of one eigen stage from the deck's stage section (the damped one when
   complex_stage) and solver section; keep: vectors kept whole on rank 0 (the report's,
   a model's energy shares and VTK, the frf's); a sweep's step brings its cache of this
   stage's factorization. */
static eigen_opts stage_opts (const run *r, int complex_stage, int keep)
{
  const deck *d = &r->d;
  const deck_stage *st = complex_stage ? &d->damped : &d->modal;
  eigen_opts opts = { .modes = st->modes, .has_shift = st->has_shift,
                      .shift = st->shift_re + I * st->shift_im, .has_target = st->has_target,
                      .target_hz = st->target_hz, .tolerance = st->tolerance,
                      .max_restarts = st->max_restarts, .subspace = st->subspace,
                      .keep_vectors = keep, .log = r->log, .detail = r->detail,
                      .block = d->solver.block, .solver = eigen_solver_of (&d->solver),
                      /* a sweep's step: its cache of this stage's factorization */
                      .factor_cache = r->opts->hook ? r->opts->hook->factor_cache[complex_stage]
                                                    : NULL };
  return opts;
}

/* Rank 0. The stage's table of modes on stdout: for a model's undamped stage with modes,
   the participation factors and effective masses (into *pf, *with_pf = 1; also to the
   log); for a model, where the energy is per part. Returns 0 or the error (in werr). */
static int stage_tables (const run *r, int complex_stage, const eigen_result *res,
                         participation *pf, int *with_pf, mb_err *werr)
{
  const deck *d = &r->d;
  const model *mdl = r->is_model ? &r->mdl : NULL;
  int wrc = 0;
  printf ("\n%s modes (%s):\n", complex_stage ? "Damped" : "Undamped",
          complex_stage ? "GEP (31), lambda [1/s]" : "GEP (18), lambda = omega^2 [rad^2/s^2]");
  /* an undamped stage of a model: participation factors and effective masses */
  *with_pf = mdl && !complex_stage && res->nmodes > 0;
  if (*with_pf)
    wrc = participation_compute (mdl, r->M, res, d->output.has_reference_point
                                 ? d->output.reference_point : NULL, pf, werr);
  report_print_table_with (stdout, res, *with_pf && wrc == 0 ? pf : NULL);
  if (*with_pf && wrc == 0) participation_log (r->log, pf);
  if (mdl && wrc == 0) {
    printf ("\nWhere the energy is (share of kinetic and strain energy per part):\n");
    wrc = report_print_energy (stdout, mdl, res, werr);
  }
  return wrc;
}

/* Rank 0. The stage's files in the output folder: the YAML report (vectors when asked,
   participation pf or NULL), the CSV table (output.csv), a model's VTK mode shapes
   (output.vtk), each with a log line. Returns 0 or the first error (in werr). */
static int stage_files (const run *r, int complex_stage, const eigen_result *res,
                        int vectors, const participation *pf, mb_err *werr)
{
  const deck *d = &r->d;
  const model *mdl = r->is_model ? &r->mdl : NULL;
  const char *label = complex_stage ? "complex" : "modal";
  int wrc = 0;
  char *path = outputs_path (r->outdir, d->output.name, label, "yaml");
  if (!path) wrc = mb_fail (werr, MB_ENOMEM, "out of memory for a file name");
  if (wrc == 0)
    wrc = report_write_yaml_with (path, res, d->path, d->title, vectors, mdl, pf, werr);
  if (wrc == 0 && d->output.csv) {  /* the table of modes as CSV (output.csv) */
    char *csv = outputs_path (r->outdir, d->output.name, label, "csv");
    wrc = csv ? csv_write_modes (csv, res, pf, werr)
              : mb_fail (werr, MB_ENOMEM, "out of memory for a file name");
    if (wrc == 0 && r->log) fprintf (r->log, "%s: table of modes written to %s\n", label, csv);
    free (csv);
  }
  if (wrc == 0 && r->log)
    fprintf (r->log, "%s: report written to %s (%.2f s for the stage)\n", label, path,
             res->time_total);
  free (path);
  if (wrc == 0 && mdl && d->output.vtk) {
    path = outputs_path (r->outdir, d->output.name, label, "vtu");
    wrc = path ? vtk_write_modes (path, mdl, res, werr)
               : mb_fail (werr, MB_ENOMEM, "out of memory for a file name");
    if (wrc == 0 && r->log)
      fprintf (r->log, "%s: mode shapes written to %s (ParaView)\n", label, path);
    free (path);
  }
  return wrc;
}

/* Collective. Runs one eigen stage; rank 0 prints its table (and, for a model, the parts
   that move most in each mode; for a model's undamped stage, the participation factors
   and effective masses in the table, the log and the report) and writes its YAML report
   (and, for a model, its VTK mode shapes). Returns the stage's status (MB_ENOCONV still writes what converged). A report
   that cannot be written is an error of its own; when the stage failed too, rank 0
   prints the write error at once and the stage's status is returned.
   Steps: stage_opts, the solve, stage_tables and stage_files on rank 0, the frf. */
static int run_stage (run *r, int complex_stage, const gep_system *sys, mb_err *err)
{
  const deck *d = &r->d;
  const model *mdl = r->is_model ? &r->mdl : NULL;
  int vectors = d->output.eigenvectors && !r->opts->no_vectors;  /* in the YAML report */
  /* the frf section's stage: its modes and vectors, gathered on rank 0 */
  int frf = d->frf.present && d->frf.complex_modes == complex_stage;
  int keep = vectors || mdl != NULL || frf;  /* a model's energy shares and VTK need them */
  eigen_opts opts = stage_opts (r, complex_stage, keep);
  eigen_result res;
  int rc = complex_stage ? gep_complex (r->comm, sys, &opts, &res, err)
                         : gep_modal (r->comm, sys, &opts, &res, err);
  if (rc < 0 && rc != MB_ENOCONV) {
    if (!complex_stage) r->refused_flutter = res.refused_complex;
    eigen_result_clear (&res);
    return rc;
  }
  if (r->rank == 0 && complex_stage && mdl) whirl_modes (mdl, &res);
  if (r->rank == 0 && r->opts->hook && r->opts->hook->stage)  /* a sweep's step */
    r->opts->hook->stage (r->opts->hook->ctx, complex_stage, &res, r->M);
  int wrc = 0;
  mb_err werr;
  mb_err_init (&werr);
  if (r->rank == 0) {
    participation pf;
    memset (&pf, 0, sizeof pf);
    int with_pf = 0;
    wrc = stage_tables (r, complex_stage, &res, &pf, &with_pf, &werr);
    if (wrc == 0) wrc = stage_files (r, complex_stage, &res, vectors, with_pf ? &pf : NULL, &werr);
    participation_clear (&pf);
    if (wrc < 0 && rc < 0) mb_err_print (&werr);  /* both failures are said */
    fflush (stdout);
  }
  int wall = mb_agree (r->comm, wrc, &werr);
  if (rc == 0 && wall < 0) {
    *err = werr;
    rc = wall;
  }
  if (rc == 0 && frf) {  /* the frequency response from this stage's modes */
    rc = frf_run (r->comm, d, mdl, r->K, r->M, r->R, r->Cq, &res, r->outdir, r->log, err);
    if (rc == 0 && r->rank == 0 && d->output.plots)
      run_plot (r->outdir, d->output.name, "frf", r->log);
  }
  else if (frf && r->log)
    fprintf (r->log, "frf: not computed: the %s stage did not finish\n",
             complex_stage ? "complex" : "modal");
  eigen_result_clear (&res);
  return rc;
}

/* Collective. The deck: rank 0 reads it, every rank parses the same text. */
static int read_deck (run *r, mb_err *err)
{
  char *text = NULL;
  long len = 0;
  int rc = deck_read_shared (r->comm, r->opts->deck_path, &text, &len, err);
  if (rc == 0) rc = deck_parse (text, (size_t) len, r->opts->deck_path, &r->d, err);
  free (text);
  rc = mb_agree (r->comm, rc, err);
  if (rc == 0) r->is_model = r->d.model.present;
  return rc;
}

/* Collective. Output folders made and checked and inputs protected, before any stage. */
static int prepare_outputs (run *r, mb_err *err)
{
  const run_opts *o = r->opts;
  if (!r->is_model && o->export_dir)
    return mb_fail (err, MB_EUSAGE, "--export-matrices needs a model deck; %s already names "
                    "its matrices", o->deck_path);
  r->outdir = o->output_dir ? o->output_dir : r->d.output.directory;
  const char *export_dir = o->export_dir ? o->export_dir : r->d.output.export_matrices;
  int rc = r->rank == 0 ? outputs_prepare (&r->d, o->deck_path, r->outdir,
                                           r->is_model ? export_dir : NULL, err) : 0;
  return mb_agree (r->comm, rc, err);
}

/* Collective. After the deck is read: a sweep step's edit (o->hook), the heading line,
   the output folder, the model or matrices, the frf section's points, and rank 0's notes
   on loads and a damped stage left off. Returns 0 or an error, the same on every rank. */
static int run_prepare (run *r, mb_err *err)
{
  const run_opts *o = r->opts;
  int rc = 0;
  if (o->hook && o->hook->edit)  /* a sweep's step: its values */
    rc = mb_agree (r->comm, o->hook->edit (o->hook->ctx, &r->d, err), err);
  if (rc == 0 && r->log)
    fprintf (r->log, "mbmodal %s: deck %s, %d MPI rank%s\n", o->version, o->deck_path,
             r->nranks, r->nranks > 1 ? "s" : "");
  if (rc == 0) rc = prepare_outputs (r, err);
  if (rc == 0) rc = r->is_model ? setup_model (r, err) : setup_matrices (r, err);
  if (rc == 0 && r->d.frf.present)  /* its nodes and DOFs, before any stage */
    rc = mb_agree (r->comm, frf_check_points (&r->d, r->is_model ? &r->mdl : NULL, r->n, err),
                   err);
  if (rc == 0 && r->rank == 0) note_gravity (r);
  if (rc == 0 && r->rank == 0) note_line_loads (r);
  if (rc == 0 && r->rank == 0) note_loads (r);
  if (rc == 0 && r->rank == 0) note_complex_off (r);
  return rc;
}

/* Collective. The eigen stages: the undamped one when enabled, then the damped one after
   a converged (or, with go, allowed) undamped one, or after the undamped stage's refusal
   of complex eigenvalues, which the damped stage gives (exit 3 stays). rc: the status so
   far. Returns the first failure (its error in err; a later one only printed by rank 0),
   or rc. */
static int run_eigen_stages (run *r, const gep_system *sys, int rc, int go, mb_err *err)
{
  int final = rc;
  if (rc == 0 && r->d.modal.enabled) {
    rc = run_stage (r, 0, sys, err);
    if (rc < 0) final = rc;
  }
  /* the damped stage after a converged (or allowed) undamped one, and after the undamped
     stage's refusal of complex eigenvalues, which the damped stage gives (exit 3 stays) */
  if ((final == 0 || (final == MB_ENOCONV && go) || r->refused_flutter) && r->d.damped.enabled) {
    mb_err cerr;
    mb_err_init (&cerr);
    rc = run_stage (r, 1, sys, &cerr);
    if (rc < 0 && final == 0) {
      final = rc;
      *err = cerr;
    } else if (rc < 0 && r->rank == 0) mb_err_print (&cerr);
  }
  return final;
}

/* Collective. The buckling stage (buckling.h) after the eigen stages, about the same
   equilibrium (the static stage's tangent and constraints when there is one; unconverged:
   its static status was MB_ENOCONV). Returns its status. */
static int run_buckling (run *r, int unconverged, mb_err *err)
{
  const deck *d = &r->d;
  deck_statics defaults;
  deck_statics_defaults (&defaults);
  buckling_input bi = { .d = d, .mdl = &r->mdl, .Kt = d->statics.present ? r->K : NULL,
                        .Cq = d->statics.present ? r->Cq : NULL, .outdir = r->outdir,
                        .log = r->log, .vectors = d->output.eigenvectors && !r->opts->no_vectors,
                        .unconverged = unconverged, .own = statics_opts_of (&defaults) };
  return buckling_run (r->comm, &bi, err);
}

/* Collective; see run.h. Steps: read the deck (a sweep goes to sweep_run), run_prepare,
   the static stage, run_eigen_stages, run_buckling; the first failure is the status. */
int run_deck (MPI_Comm comm, const run_opts *o, mb_err *err)
{
  run r;
  memset (&r, 0, sizeof r);
  r.comm = comm;
  r.opts = o;
  MPI_Comm_rank (comm, &r.rank);
  MPI_Comm_size (comm, &r.nranks);
  r.log = (r.rank == 0 && !o->quiet) ? stdout : NULL;
  r.detail = o->verbose ? r.log : NULL;
  double t0 = MPI_Wtime ();

  int rc = mb_agree (comm, blas_reserve (err), err);  /* before any stage: no hang later */
  if (rc == 0) rc = read_deck (&r, err);
  if (rc == 0 && r.d.sweep.present && !o->hook) {  /* src/sweep.c runs the steps */
    run_clear (&r);
    return sweep_run (comm, o, err);
  }
  if (rc == 0) rc = run_prepare (&r, err);

  r.energies = r.is_model;  /* until a static stage finds another equilibrium */
  mb_err serr;  /* the static stage: its equilibrium replaces the deck's matrices */
  mb_err_init (&serr);
  int static_rc = 0, go = 1;
  if (rc == 0 && r.is_model && r.d.statics.present) {
    r.energies = 0;
    static_rc = run_statics (&r, &go, &serr);
    MPI_Bcast (&r.energies, 1, MPI_INT, 0, comm);
    if (!go) rc = static_rc, *err = serr;
  }

  gep_system sys = { .n = r.n, .m = r.m, .K = r.K, .M = r.M, .R = r.R, .Cq = r.Cq,
                     .parts = r.by_rows ? &r.parts : NULL,
                     .measures = r.by_rows ? &r.measures : NULL,
                     .label = r.is_model ? dof_label : NULL, .label_ctx = &r.mdl,
                     /* element energies at the deck configuration: not about another
                        static equilibrium, whose K holds geometric terms they do not */
                     .energy = r.is_model && r.energies ? strain_energy : NULL,
                     .gram = r.is_model && r.energies ? strain_gram : NULL,
                     .energy_ctx = &r.mdl, .cond_check = r.is_model };
  int final = run_eigen_stages (&r, &sys, rc, go, err);
  /* the buckling stage (buckling.h) after the eigen stages, about the same equilibrium */
  if ((final == 0 || (final == MB_ENOCONV && go)) && r.is_model && r.d.buckling.enabled) {
    mb_err berr;
    mb_err_init (&berr);
    rc = run_buckling (&r, static_rc == MB_ENOCONV, &berr);
    if (rc < 0 && final == 0) final = rc, *err = berr;
    else if (rc < 0 && r.rank == 0) mb_err_print (&berr);
  }
  if (final == 0 && static_rc < 0) final = static_rc, *err = serr;  /* allow_unconverged */
  if (r.rank == 0) {
    if (final < 0) mb_err_print (err);
    else if (r.log) fprintf (r.log, "\ndone in %.2f s\n", MPI_Wtime () - t0);
  }
  run_clear (&r);
  return final;
}
