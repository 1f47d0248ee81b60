/* main.c: the mbmodal command line: arguments, MPI start and end, stop signals, and the
   exit status a job script tests; the pipeline itself is run.c. */
#include <mpi.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "plot.h"
#include "report/compare.h"
#include "report/writer.h"
#include "run.h"

#define MBMODAL_VERSION "0.1.0"

static void print_usage (FILE *f)
{
  fprintf (f,
    "usage: mbmodal [options] DECK.yaml\n"
    "       mpirun -np N mbmodal [options] DECK.yaml\n"
    "       mbmodal compare [--rtol X] [--mac X] [--modes N] [--ignore-kinds] REF.yaml REPORT.yaml\n"
    "       mbmodal plot [-o PNG] [--mode N] REPORT.yaml\n"
    "\n"
    "Computes the undamped (real) and damped (complex) modes of a linearized multibody\n"
    "system, M q'' + R q' + K q + Cq^T gamma = 0, Cq q = 0 (SI units), about the\n"
    "configuration of the deck or, when the deck has a statics section, about its static\n"
    "equilibrium (FIM: Newton on the force imbalance, or MKEAM: kinetic energy attrition)\n"
    "under gravity, loads and preloads. The deck describes a model (rigid bodies, beams,\n"
    "joints, forces: assembled with 6 DOFs per node) or names Matrix Market files for K, M,\n"
    "R, Cq. Shift-invert Krylov-Schur with MUMPS on all MPI ranks; writes\n"
    "  OUTDIR/NAME.static.yaml   the equilibrium: positions, rotations, joint reactions,\n"
    "                            spring forces, convergence history\n"
    "  OUTDIR/NAME.modal.yaml    undamped modes (eigenvalue omega^2 [rad^2/s^2], f [Hz])\n"
    "  OUTDIR/NAME.complex.yaml  damped modes (eigenvalue lambda [1/s], f, zeta, f_d)\n"
    "  OUTDIR/NAME.*.vtu         model decks: mode shapes for ParaView (Warp By Vector)\n"
    "  OUTDIR/NAME.*.csv         with output.csv: true, the table of modes as CSV\n"
    "where OUTDIR and NAME come from the deck's output section. See README.md.\n"
    "\n"
    "options:\n"
    "  -o, --output-dir DIR  write reports to DIR (overrides output.directory)\n"
    "  -q, --quiet           no progress log, only the tables of modes and errors\n"
    "  -v, --verbose         the log adds each eigen stage's factorization, time profile,\n"
    "                        floor, memory per rank and Krylov-Schur's work\n"
    "      --no-vectors      leave eigenvectors out of the reports\n"
    "      --export-matrices DIR\n"
    "                        model decks: write K, M, R, Cq (.mtx), the row maps dofs.csv and\n"
    "                        constraints.csv, and a matrix deck DIR/deck.yaml that reruns them\n"
    "  -h, --help            this text\n"
    "      --version         the version\n"
    "\n"
    "compare: pairs the modes of REPORT with those of REFERENCE by MAC (or frequency when\n"
    "vectors are absent) and checks eigenvalues (--rtol, default 1e-6) and MAC (--mac,\n"
    "default 0.99); static reports: positions, displacements and reactions by name;\n"
    "exit 6 on a regression.\n"
    "\n"
    "plot: draws a report as a PNG with python3 and matplotlib (scripts/mbmodal_plot.py):\n"
    "the table of modes (frequency and damping per mode, coloured by kind or dominant\n"
    "direction), or with --mode N a model report's mode N over the undeformed model;\n"
    "-o PNG (default: REPORT without .yaml, .png or .modeN.png). See docs/output.md.\n"
    "\n"
    "exit status: 0 ok; 1 usage; 2 bad deck or input file (also a model that is singular\n"
    "at every shift); 3 linear solver failure (MUMPS, LAPACK), also an undamped stage\n"
    "refused for complex eigenvalues (flutter); 4 the static or an eigen stage did not\n"
    "converge (what converged is still reported); 5 cannot write an output;\n"
    "6 compare found a regression; 7 out of memory. A stop signal gives 128 + signal.\n");
}

/* Parses argv (identical on every rank). Returns 0, 1 for --help/--version (done), or
   MB_EUSAGE with a message. */
static int cli_parse (int argc, char **argv, run_opts *c, mb_err *err)
{
  memset (c, 0, sizeof *c);
  for (int i = 1; i < argc; i++) {
    const char *a = argv[i];
    if (!strcmp (a, "-h") || !strcmp (a, "--help")) return 1;
    if (!strcmp (a, "--version")) return 2;
    if (!strcmp (a, "-q") || !strcmp (a, "--quiet")) c->quiet = 1;
    else if (!strcmp (a, "-v") || !strcmp (a, "--verbose")) c->verbose = 1;
    else if (!strcmp (a, "--no-vectors")) c->no_vectors = 1;
    else if (!strcmp (a, "-o") || !strcmp (a, "--output-dir")) {
      if (i + 1 >= argc) return mb_fail (err, MB_EUSAGE, "%s needs a directory", a);
      c->output_dir = argv[++i];
      if (!c->output_dir[0]) return mb_fail (err, MB_EUSAGE, "%s needs a directory, not \"\"", a);
    } else if (!strcmp (a, "--export-matrices")) {
      if (i + 1 >= argc) return mb_fail (err, MB_EUSAGE, "%s needs a directory", a);
      c->export_dir = argv[++i];
      if (!c->export_dir[0]) return mb_fail (err, MB_EUSAGE, "%s needs a directory, not \"\"", a);
    } else if (a[0] == '-' && a[1] != '\0')
      return mb_fail (err, MB_EUSAGE, "unknown option '%s' (see mbmodal --help)", a);
    else if (c->deck_path)
      return mb_fail (err, MB_EUSAGE, "one deck at a time: '%s' and '%s'", c->deck_path, a);
    else c->deck_path = a;
  }
  if (!c->deck_path) return mb_fail (err, MB_EUSAGE, "no deck given (see mbmodal --help)");
  return 0;
}

/* SIGTERM, SIGINT (a job scheduler's cancel, Ctrl-C), SIGHUP: rank 0 says which signal
   stopped the run; every rank removes the temporary files it is writing
   (writer_remove_partials) and exits at once with status 128 + signal, as a shell reports
   it. Async-signal-safe: write, unlink and _exit only. Reports are written under a
   temporary name and renamed when complete, so an interrupted run leaves no report that
   looks whole, and no hidden ".NAME.partial.PID.N" either. */
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
  writer_remove_partials ();
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
  if (argc >= 2 && !strcmp (argv[1], "plot"))  /* a Python script, before (without) MPI */
    return plot_main (argc - 1, argv + 1, argv[0]);
  MPI_Init (&argc, &argv);
  MPI_Comm comm = MPI_COMM_WORLD;
  int rank;
  MPI_Comm_rank (comm, &rank);
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

  run_opts c;
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
  c.version = MBMODAL_VERSION;
  status = mb_exit_status (run_deck (comm, &c, &err));
  MPI_Finalize ();
  return status;
}
