/* run.h: one deck through the pipeline: deck -> model (or matrix files) -> statics ->
   eigen stages -> reports, with one cleanup path. */
#ifndef MB_RUN_H
#define MB_RUN_H

#include <mpi.h>
#include <stdio.h>

#include "error.h"

struct deck;
struct eigen_result;
struct spm;
struct model_state;

/* A sweep's hooks into one step's run (src/sweep.c); run_opts.hook is NULL otherwise. */
typedef struct run_hook {
  void *ctx;
  /* every rank, once the deck is parsed: sets the step's values (0 or MB_E*) */
  int (*edit) (void *ctx, struct deck *d, mb_err *err);
  /* rank 0, after each eigen stage that found modes: its result and the mass matrix the
     stage used (both borrowed for the call) */
  void (*stage) (void *ctx, int complex_stage, const struct eigen_result *res,
                 const struct spm *M);
  /* rank 0, the static stage: before the solve, may replace the start s (the deck
     configuration) by a state of the same model (the last step's equilibrium); after a
     converged solve, gets the equilibrium (borrowed for the call). Either may be NULL. */
  void (*statics_start) (void *ctx, struct model_state *s);
  void (*statics_done) (void *ctx, const struct model_state *s);
  /* the caches of the modal [0] and complex [1] stages' factorizations, owned by the
     sweep (eigen_opts.factor_cache); NULL: none */
  struct factor_cache *factor_cache[2];
} run_hook;

/* What the command line says about one run. Strings are borrowed from argv. */
typedef struct run_opts {
  const char *deck_path;   /* the deck file */
  const char *output_dir;  /* NULL: the deck's output.directory */
  const char *export_dir;  /* NULL: the deck's output.export_matrices */
  int quiet;               /* 1: no progress log, only the tables and errors */
  int verbose;             /* 1: the log adds each stage's profile, floor, memory and
                              Krylov-Schur's work (ignored with quiet) */
  int no_vectors;          /* 1: leave eigenvectors out of the YAML reports */
  const char *version;     /* printed in the first log line */
  const run_hook *hook;    /* NULL, or a sweep's step (then a deck's sweep: is not run) */
} run_opts;

/* Collective on comm. Runs every stage the deck enables, in order: reads and parses the
   deck (rank 0 reads, every rank parses the same text), checks the outputs, builds and
   assembles the model or reads the matrix files (rank 0), finds the static equilibrium
   when the deck asks for it, runs the undamped and damped eigen stages and writes their
   reports and mode shapes (rank 0). A stage that did not converge still writes what it
   found; the damped stage runs after an undamped one that did not converge. Returns 0 or
   the first error (MB_E*), the same on every rank; rank 0 has printed every error. */
int run_deck (MPI_Comm comm, const run_opts *o, mb_err *err);

/* Rank 0: OUTDIR/NAME.KIND.png from the report OUTDIR/NAME.KIND.yaml with the plot script
   (python3-matplotlib); a log line says it was written, or a note why not (never fails). */
void run_plot (const char *outdir, const char *name, const char *kind, FILE *log);

#endif
