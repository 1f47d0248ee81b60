/* missed_check.h: the missed-mode check of the undamped stage (symmetric pencils): the
   inertia of A - s B from LDL^T counts the eigenvalues below s (Sylvester's law), which is
   compared with the modes found in the same interval. */
#ifndef MB_MISSED_CHECK_H
#define MB_MISSED_CHECK_H

#include <mpi.h>
#include <stdio.h>

#include "../error.h"
#include "../linalg/factor.h"
#include "eigen.h"
#include "modes.h"

/* The interval to count in, decided on rank 0 from the modes found. */
typedef struct missed_check {
  int run;         /* 1: the check applies (symmetric pencil, at least one mode) */
  double lo, hi;   /* the interval (lo, hi) [rad^2/s^2] around the reported modes */
  int need_lo;     /* 1: lo is above the shift, so a second count at lo is needed */
  int nfound;      /* candidates (all converged ones, not only the reported) in (lo, hi) */
} missed_check;

/* Rank 0. The interval just around out's modes (a relative margin of 1e-6), and the
   candidates found in it; run = 0 unless symmetric and out->nmodes > 0. */
void missed_check_plan (const gep_system *sys, const eigen_result *out, const candidate *cand,
                        int ncand, double sigma, int symmetric, missed_check *mc);

/* Collective. Counts the eigenvalues below hi (and lo) by factoring A - s B (LDL^T) at
   s = hi (and s = lo; below the shift the first factorization's inertia, in out->factor,
   counts), with s scaled Cq as in the stage (out->cq_scale). f: the stage's LDL^T factors
   of A - sigma B (nnz triplets from pencil_undamped), refactored at s on their analysis
   (their values are lost: f is for nothing but this afterwards), or NULL: factor anew
   with the options anew (the stage's, stage_factor_opts).
   Fills out->time_check and out->sturm_* on rank 0
   and writes a line (a WARNING when modes are missing) to log (rank 0, may be NULL), the
   factorizations' count and time to detail (rank 0, may be NULL: -v).
   With parts (the system by rows, NULL: none) every rank builds its rows of the pencil at
   s (pencil_undamped_part) and f, when given, holds distributed input of this rank's nnz
   entries; the factorization from scratch then takes distributed input too.
   mc is read on rank 0 only. Fault site "check". Returns 0, MB_ENOMEM or MB_ESOLVE, the
   same on every rank. */
int missed_check_run (MPI_Comm comm, const gep_system *sys, const gep_parts *parts,
                      const missed_check *mc, factor *f, const factor_opts *anew, long nnz,
                      FILE *log, FILE *detail, eigen_result *out, mb_err *err);

#endif
