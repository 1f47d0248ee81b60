/* main.c: the mbmodal command line: MPI start and end, deck -> matrices -> eigen stages ->
   reports, and the exit status a job script tests. */
#include <errno.h>
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "deck/deck.h"
#include "eigen/gep.h"
#include "error.h"
#include "linalg/blas.h"
#include "linalg/mmio.h"
#include "linalg/sparse.h"
#include "model/assemble.h"
#include "model/model.h"
#include "report/compare.h"
#include "report/export.h"
#include "report/report.h"
#include "report/vtk.h"

#define MBMODAL_VERSION "0.1.0"

static void print_usage (FILE *f)
{
  fprintf (f,
    "usage: mbmodal [options] DECK.yaml\n"
    "       mpirun -np N mbmodal [options] DECK.yaml\n"
    "       mbmodal compare [--rtol X] [--mac X] [--modes N] REFERENCE.yaml REPORT.yaml\n"
    "\n"
    "Computes the undamped (real) and damped (complex) modes of a linearized multibody\n"
    "system, M q'' + R q' + K q + Cq^T gamma = 0, Cq q = 0 (SI units), about the\n"
    "configuration of the deck. The deck describes a model (rigid bodies, beams, joints,\n"
    "forces: assembled with 6 DOFs per node) or names Matrix Market files for K, M, R, Cq.\n"
    "Shift-invert Krylov-Schur with MUMPS on all MPI ranks; writes\n"
    "  OUTDIR/NAME.modal.yaml    undamped modes (eigenvalue omega^2 [rad^2/s^2], f [Hz])\n"
    "  OUTDIR/NAME.complex.yaml  damped modes (eigenvalue lambda [1/s], f, zeta, f_d)\n"
    "  OUTDIR/NAME.*.vtu         model decks: mode shapes for ParaView (Warp By Vector)\n"
    "where OUTDIR and NAME come from the deck's output section. See README.md.\n"
    "\n"
    "options:\n"
    "  -o, --output-dir DIR  write reports to DIR (overrides output.directory)\n"
    "  -q, --quiet           no progress log, only the tables of modes and errors\n"
    "      --no-vectors      leave eigenvectors out of the reports\n"
    "      --export-matrices DIR\n"
    "                        model decks: write K, M, R, Cq (.mtx), the row maps dofs.csv and\n"
    "                        constraints.csv, and a matrix deck DIR/deck.yaml that reruns them\n"
    "  -h, --help            this text\n"
    "      --version         the version\n"
    "\n"
    "compare: pairs the modes of REPORT with those of REFERENCE by MAC (or frequency when\n"
    "vectors are absent) and checks eigenvalues (--rtol, default 1e-6) and MAC (--mac,\n"
    "default 0.99); exit 6 on a regression.\n"
    "\n"
    "exit status: 0 ok; 1 usage; 2 bad deck or matrix file; 3 linear solver failure (MUMPS);\n"
    "4 eigen solver did not converge; 5 cannot write a report; 6 compare found a\n"
    "regression; 7 out of memory.\n");
}

typedef struct cli {
  const char *deck_path;
  const char *output_dir;  /* NULL: the deck's */
  const char *export_dir;  /* NULL: the deck's output.export_matrices */
  int quiet;
  int no_vectors;
} cli;

/* Parses argv (identical on every rank). Returns 0, 1 for --help/--version (done), or
   MB_EUSAGE with a message. */
static int cli_parse (int argc, char **argv, cli *c, mb_err *err)
{
  memset (c, 0, sizeof *c);
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp (a, "-h") || !strcmp (a, "--help")) return 1;
    if (!strcmp (a, "--version")) return 2;
    if (!strcmp (a, "-q") || !strcmp (a, "--quiet")) c->quiet = 1;
    else if (!strcmp (a, "--no-vectors")) c->no_vectors = 1;
    else if (!strcmp (a, "-o") || !strcmp (a, "--output-dir")) {
      if (i + 1 >= argc) return mb_fail (err, MB_EUSAGE, "%s needs a directory", a);
      c->output_dir = argv[++i];
    } else if (!strcmp (a, "--export-matrices")) {
      if (i + 1 >= argc) return mb_fail (err, MB_EUSAGE, "%s needs a directory", a);
      c->export_dir = argv[++i];
    } else if (a[0] == '-' && a[1] != '\0')
      return mb_fail (err, MB_EUSAGE, "unknown option '%s' (see mbmodal --help)", a);
    else if (c->deck_path)
      return mb_fail (err, MB_EUSAGE, "one deck at a time: '%s' and '%s'", c->deck_path, a);
    else c->deck_path = a;
  }
  if (!c->deck_path) return mb_fail (err, MB_EUSAGE, "no deck given (see mbmodal --help)");
  return 0;
}

/* Rank 0: reads one matrix file named at deck position (line, col). */
static int load_matrix (const deck *d, const char *what, const char *path, size_t line,
                        size_t col, spm **A, mb_err *err)
{
  mb_err inner;
  mb_err_init (&inner);
  int rc = mmio_read (path, A, &inner);
  if (rc == MB_EIO)  /* name the deck key that points at the missing file */
    return mb_fail_at (err, MB_EDECK, d->path, line, col, "matrix %s: %s: %s", what,
                       inner.where, inner.msg);
  if (rc < 0) {
    *err = inner;
    if (err->code == MB_EIO) err->code = MB_EDECK;
    return err->code;
  }
  return spm_compress (*A) < 0 ? mb_fail (err, MB_ENOMEM, "out of memory for %s", what) : 0;
}

/* Rank 0: K, M (and R, Cq) from the deck's files, with their shapes checked. */
static int load_system (const deck *d, spm **K, spm **M, spm **R, spm **Cq, mb_err *err)
{
  const deck_matrices *dm = &d->matrices;
  MB_TRY (load_matrix (d, "K", dm->K, dm->line_K, dm->col_K, K, err));
  MB_TRY (load_matrix (d, "M", dm->M, dm->line_M, dm->col_M, M, err));
  if (dm->R && d->damped.enabled)  /* R serves the damped stage only */
    MB_TRY (load_matrix (d, "R", dm->R, dm->line_R, dm->col_R, R, err));
  if (dm->Cq) MB_TRY (load_matrix (d, "Cq", dm->Cq, dm->line_Cq, dm->col_Cq, Cq, err));
  int n = (*K)->nrows;
  if ((*K)->ncols != n)
    return mb_fail_at (err, MB_EDECK, d->path, dm->line_K, dm->col_K,
                       "matrix K (%s) must be square, it is %d x %d", dm->K, n, (*K)->ncols);
  if ((*M)->nrows != n || (*M)->ncols != n)
    return mb_fail_at (err, MB_EDECK, d->path, dm->line_M, dm->col_M,
                       "matrix M (%s) is %d x %d but K is %d x %d", dm->M, (*M)->nrows,
                       (*M)->ncols, n, n);
  if (*R && ((*R)->nrows != n || (*R)->ncols != n))
    return mb_fail_at (err, MB_EDECK, d->path, dm->line_R, dm->col_R,
                       "matrix R (%s) is %d x %d but K is %d x %d", dm->R, (*R)->nrows,
                       (*R)->ncols, n, n);
  if (*Cq && (*Cq)->ncols != n)
    return mb_fail_at (err, MB_EDECK, d->path, dm->line_Cq, dm->col_Cq,
                       "matrix Cq (%s) is %d x %d but must have n = %d columns (K is %d x %d)",
                       dm->Cq, (*Cq)->nrows, (*Cq)->ncols, n, n, n);
  if (*Cq && (*Cq)->nrows >= n)
    return mb_fail_at (err, MB_EDECK, d->path, dm->line_Cq, dm->col_Cq,
                       "matrix Cq (%s) has %d rows for %d DOFs: more constraints than DOFs",
                       dm->Cq, (*Cq)->nrows, n);
  return 0;
}

/* Model deck: every rank builds the model from the same deck text, so every rank meets the
   same deck error; rank 0 assembles M, K, R, Cq (owned by *a), checks that Cq has full row
   rank, and writes the matrices when asked (--export-matrices or output.export_matrices).
   Returns 0 or the first error, identically on every rank. Collective. */
static int setup_model (MPI_Comm comm, const deck *d, const cli *c, model *mdl, assembly *a,
                        FILE *log, mb_err *err)
{
  int rank;
  MPI_Comm_rank (comm, &rank);
  double t = MPI_Wtime ();
  int rc = mb_agree (comm, model_build (d, mdl, err), err);
  if (rc < 0) return rc;
  if (rank == 0) {
    int skipped = 0;
    rc = assemble_system (mdl, a, err);
    if (rc == 0 && a->Cq) rc = assemble_check_constraints (mdl, a->Cq, d->path, &skipped, err);
    if (rc == 0 && log) {
      long elements = 0;
      for (int i = 0; i < mdl->nbeams; i++) elements += mdl->beams[i].nelements;
      fprintf (log, "model: %d nodes (%d bodies, %d beams of %ld elements), %d joints, "
               "%d force elements\n", mdl->nnodes, mdl->nbodies, mdl->nbeams, elements,
               mdl->njoints, mdl->nforces);
      fprintf (log, "assembled: n = %d DOFs, m = %d constraint rows; K %ld, M %ld%s entries "
               "(%.2f s)\n", a->n, a->m, a->K->nnz, a->M->nnz, a->R ? ", R" : "",
               MPI_Wtime () - t);
      if (skipped)
        fprintf (log, "warning: %d joint group%s too large for the rank check of Cq; a "
                 "redundant joint there shows as a singular pencil\n", skipped,
                 skipped > 1 ? "s" : "");
    }
    const char *dir = c->export_dir ? c->export_dir : d->output.export_matrices;
    if (rc == 0 && dir) {
      rc = export_matrices (dir, mdl, a->K, a->M, a->R, a->Cq, d, err);
      if (rc == 0 && log)
        fprintf (log, "matrices exported to %s (K, M%s%s .mtx, dofs.csv, constraints.csv, "
                 "deck.yaml)\n", dir, a->R ? ", R" : "", a->Cq ? ", Cq" : "");
    }
  }
  return mb_agree (comm, rc, err);
}

/* mkdir -p for the output directory. Returns 0 or MB_EIO. */
static int make_dirs (const char *dir, mb_err *err)
{
  char path[4096];
  snprintf (path, sizeof path, "%s", dir);
  for (char *p = path + 1; *p; p++)
    if (*p == '/') {
      *p = '\0';
      if (mkdir (path, 0777) != 0 && errno != EEXIST)
        return mb_fail_at (err, MB_EIO, path, 0, 0, "cannot create directory: %s", strerror (errno));
      *p = '/';
    }
  if (mkdir (path, 0777) != 0 && errno != EEXIST)
    return mb_fail_at (err, MB_EIO, path, 0, 0, "cannot create directory: %s", strerror (errno));
  return 0;
}

/* The name of DOF i of a model (ctx: the model): "node NAME dx" (gep_system.label). */
static void dof_label (const void *ctx, int i, char *buf, size_t len)
{
  const model *m = ctx;
  if (i / 6 < m->nnodes) snprintf (buf, len, "node %s %s", m->nodes[i / 6].name, model_dof_label (i % 6));
  else snprintf (buf, len, "DOF %d", i + 1);
}

/* Runs one stage on every rank; rank 0 prints its table (and, for a model, the parts that
   move most in each mode) and writes its YAML report (and, for a model, its VTK mode
   shapes). mdl is NULL for a matrix deck. Returns the
   stage's status (MB_ENOCONV still writes what converged). Collective. */
static int run_stage (MPI_Comm comm, int complex_stage, const gep_system *sys, const deck *d,
                      const model *mdl, const cli *c, const char *outdir, FILE *log,
                      mb_err *err)
{
  int rank;
  MPI_Comm_rank (comm, &rank);
  const deck_stage *st = complex_stage ? &d->damped : &d->modal;
  int vectors = d->output.eigenvectors && !c->no_vectors;  /* in the YAML report */
  int keep = vectors || mdl != NULL;  /* a model's energy shares and VTK need them */
  eigen_opts opts = { .modes = st->modes, .has_shift = st->has_shift,
                      .shift = st->shift_re + I * st->shift_im, .has_target = st->has_target,
                      .target_hz = st->target_hz, .tolerance = st->tolerance,
                      .max_restarts = st->max_restarts, .subspace = st->subspace,
                      .keep_vectors = keep, .log = log };
  eigen_result r;
  int rc = complex_stage ? gep_complex (comm, sys, &opts, &r, err)
                         : gep_modal (comm, sys, &opts, &r, err);
  if (rc < 0 && rc != MB_ENOCONV) {
    eigen_result_clear (&r);
    return rc;
  }
  int wrc = 0;
  if (rank == 0) {
    const char *label = complex_stage ? "complex" : "modal";
    printf ("\n%s modes (%s):\n", complex_stage ? "Damped" : "Undamped",
            complex_stage ? "GEP (31), lambda [1/s]" : "GEP (18), lambda = omega^2 [rad^2/s^2]");
    report_print_table (stdout, &r);
    mb_err werr;
    mb_err_init (&werr);
    if (mdl) {
      printf ("\nWhere the energy is (share of kinetic and strain energy per part):\n");
      wrc = report_print_energy (stdout, mdl, &r, &werr);
    }
    char path[4096];
    snprintf (path, sizeof path, "%s/%s.%s.yaml", outdir, d->output.name, label);
    if (wrc == 0) wrc = report_write_yaml (path, &r, d->path, d->title, vectors, mdl, &werr);
    if (wrc == 0 && log)
      fprintf (log, "%s: report written to %s (%.2f s for the stage)\n", label, path,
               r.time_total);
    if (wrc == 0 && mdl && d->output.vtk) {
      snprintf (path, sizeof path, "%s/%s.%s.vtu", outdir, d->output.name, label);
      wrc = vtk_write_modes (path, mdl, &r, &werr);
      if (wrc == 0 && log) fprintf (log, "%s: mode shapes written to %s (ParaView)\n", label, path);
    }
    if (wrc < 0 && rc == 0) *err = werr;
    fflush (stdout);
  }
  eigen_result_clear (&r);
  if (rc == 0) rc = mb_agree (comm, wrc, err);
  return rc;
}

/* SIGTERM, SIGINT (a job scheduler's cancel, Ctrl-C), SIGHUP: rank 0 says which signal
   stopped the run; every rank exits at once with status 128 + signal, as a shell reports
   it. Async-signal-safe: write and _exit only. Reports are written under a temporary
   name and renamed when complete, so an interrupted run leaves no report that looks
   whole. */
static int signal_rank;

static void on_stop_signal (int sig)
{
  static const char term[] = "mbmodal: stopped by SIGTERM (no report of the running stage "
                             "was written)\n";
  static const char intr[] = "mbmodal: stopped by SIGINT (no report of the running stage "
                             "was written)\n";
  static const char hup[] = "mbmodal: stopped by SIGHUP (no report of the running stage "
                            "was written)\n";
  if (signal_rank == 0) {
    ssize_t w = sig == SIGTERM ? write (2, term, sizeof term - 1)
              : sig == SIGINT ? write (2, intr, sizeof intr - 1)
              : write (2, hup, sizeof hup - 1);
    (void) w;
  }
  _exit (128 + sig);
}

static void catch_stop_signals (int rank)
{
  signal_rank = rank;
  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = on_stop_signal;
  sigemptyset (&sa.sa_mask);
  sigaction (SIGTERM, &sa, NULL);
  sigaction (SIGINT, &sa, NULL);
  sigaction (SIGHUP, &sa, NULL);
}

int main (int argc, char **argv)
{
  MPI_Init (&argc, &argv);
  MPI_Comm comm = MPI_COMM_WORLD;
  int rank, nranks;
  MPI_Comm_rank (comm, &rank);
  MPI_Comm_size (comm, &nranks);
  catch_stop_signals (rank);
  mb_err err;
  mb_err_init (&err);
  int status = 0;

  if (argc >= 2 && !strcmp (argv[1], "compare")) {  /* rank 0 compares, all exit alike */
    if (rank == 0) status = compare_main (argc - 1, argv + 1);
    MPI_Bcast (&status, 1, MPI_INT, 0, comm);
    MPI_Finalize ();
    return status;
  }

  cli c;
  int rc = cli_parse (argc, argv, &c, &err);
  if (rc != 0) {
    if (rank == 0) {
      if (rc == 1) print_usage (stdout);
      else if (rc == 2) printf ("mbmodal %s\n", MBMODAL_VERSION);
      else mb_err_print (&err);
    }
    MPI_Finalize ();
    return rc > 0 ? 0 : mb_exit_status (rc);
  }
  FILE *log = (rank == 0 && !c.quiet) ? stdout : NULL;
  double t0 = MPI_Wtime ();

  char *text = NULL;
  long len = 0;
  deck d;
  memset (&d, 0, sizeof d);
  spm *K = NULL, *M = NULL, *R = NULL, *Cq = NULL;
  rc = mb_agree (comm, blas_reserve (&err), &err);  /* before any stage: no hang later */
  if (rc == 0) rc = deck_read_shared (comm, c.deck_path, &text, &len, &err);
  if (rc == 0) rc = deck_parse (text, (size_t) len, c.deck_path, &d, &err);
  rc = mb_agree (comm, rc, &err);
  free (text);
  if (rc == 0 && log)
    fprintf (log, "mbmodal %s: deck %s, %d MPI rank%s\n", MBMODAL_VERSION, c.deck_path, nranks,
             nranks > 1 ? "s" : "");

  /* matrices on rank 0, shapes on every rank */
  int shape[2] = { 0, 0 };
  model mdl;
  assembly as;
  memset (&mdl, 0, sizeof mdl);
  memset (&as, 0, sizeof as);
  int is_model = rc == 0 && d.model.present;
  if (rc == 0 && !is_model && c.export_dir)
    rc = mb_fail (&err, MB_EUSAGE, "--export-matrices needs a model deck; %s already names "
                  "its matrices", c.deck_path);
  if (rc == 0 && is_model) {
    rc = setup_model (comm, &d, &c, &mdl, &as, log, &err);
    if (rc == 0 && rank == 0) {
      K = as.K, M = as.M, R = as.R, Cq = as.Cq;
      shape[0] = as.n;
      shape[1] = as.m;
    }
    MPI_Bcast (shape, 2, MPI_INT, 0, comm);
  } else if (rc == 0) {
    if (rank == 0) {
      double t = MPI_Wtime ();
      rc = load_system (&d, &K, &M, &R, &Cq, &err);
      if (rc == 0) {
        shape[0] = K->nrows;
        shape[1] = Cq ? Cq->nrows : 0;
        if (log)
          fprintf (log, "matrices: n = %d DOFs, m = %d constraints; K %ld, M %ld%s entries "
                   "(read in %.2f s)\n", shape[0], shape[1], K->nnz, M->nnz,
                   R ? ", R" : "", MPI_Wtime () - t);
      }
    }
    rc = mb_agree (comm, rc, &err);
    MPI_Bcast (shape, 2, MPI_INT, 0, comm);
  }
  const char *outdir = c.output_dir ? c.output_dir : d.output.directory;
  if (rc == 0) {
    int drc = rank == 0 ? make_dirs (outdir, &err) : 0;
    rc = mb_agree (comm, drc, &err);
  }

  gep_system sys = { .n = shape[0], .m = shape[1], .K = K, .M = M, .R = R, .Cq = Cq,
                     .label = is_model ? dof_label : NULL, .label_ctx = &mdl };
  int final = rc;
  if (rc == 0 && d.modal.enabled) {
    rc = run_stage (comm, 0, &sys, &d, is_model ? &mdl : NULL, &c, outdir, log, &err);
    if (rc < 0) final = rc;
  }
  if ((final == 0 || final == MB_ENOCONV) && d.damped.enabled) {
    mb_err cerr;
    mb_err_init (&cerr);
    rc = run_stage (comm, 1, &sys, &d, is_model ? &mdl : NULL, &c, outdir, log, &cerr);
    if (rc < 0 && final == 0) { final = rc; err = cerr; }
    else if (rc < 0 && rank == 0) mb_err_print (&cerr);
  }
  if (rank == 0) {
    if (final < 0) mb_err_print (&err);
    else if (log) fprintf (log, "\ndone in %.2f s\n", MPI_Wtime () - t0);
  }
  status = mb_exit_status (final);
  if (is_model) assembly_clear (&as);  /* owns K, M, R, Cq */
  else { spm_free (K); spm_free (M); spm_free (R); spm_free (Cq); }
  model_clear (&mdl);
  deck_clear (&d);
  MPI_Finalize ();
  return status;
}
