/* sweep.h: a deck's `sweep:` section: the pipeline of run.c once per value, with the modes
   tracked from step to step by MAC (sweep_track.h), one sweep report, CSV and critical
   speeds of a spin sweep. */
#ifndef MB_SWEEP_H
#define MB_SWEEP_H

#include <mpi.h>

#include "error.h"
#include "run.h"

/* Collective on comm. o names a deck with a sweep section. Every rank parses the deck and
   resolves the sweep's paths (the same error everywhere: a path that names nothing, a
   value out of the key's range). Then for each value: run_deck with the value set (every
   stage the deck enables, its reports in OUTDIR/NAME.sweep/step-NNN/, no VTK, no
   vectors, no export), the tracked stage's modes matched to the previous step's (rank 0).
   Writes OUTDIR/NAME.sweep.yaml and NAME.sweep.csv (rank 0) also when a step fails: they
   hold the steps done. Returns 0, the failed step's status, or a write error; the same on
   every rank (rank 0 has printed it). */
int sweep_run (MPI_Comm comm, const run_opts *o, mb_err *err);

#endif
