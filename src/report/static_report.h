/* static_report.h: the static equilibrium report (OUTDIR/NAME.static.yaml) and its log
   summary. */
#ifndef MB_STATIC_REPORT_H
#define MB_STATIC_REPORT_H

#include "../deck/deck_statics.h"
#include "../error.h"
#include "../model/model.h"
#include "../model/state.h"
#include "../statics/statics.h"

/* Writes the static report of model mdl at state s (its gamma: the multipliers) to path,
   overwriting it: method and parameters (par), convergence (converged, reason,
   iterations, final norms, grounded springs, stability from the tangent's inertia), the
   residual history, nodes (position, displacement from the deck, rotation vector log(R R0^T)
   and orientation matrix), joints (frame at s, the multiplier of each row, force and torque
   in the joint frame) and springs (elongation, force). Numbers round-trip (shortest of
   %.15g..%.17g); non-finite values are null. deck_path and title may be NULL.
   All arguments borrowed. Returns 0, MB_EIO naming path, or MB_ENOMEM. Rank 0 only. */
int static_report_write (const char *path, const model *mdl, const model_state *s,
                         const deck_statics *par, const statics_result *res,
                         const char *deck_path, const char *title, mb_err *err);

/* Collective. The static stage of a model deck (d->statics.present): rank 0 builds the
   problem from mdl at its deck configuration, every rank runs the method of the deck
   (statics_solve), rank 0 writes OUTDIR/NAME.static.yaml (also when not converged: the
   best state) and logs a summary (converged or why not, unstable directions). When it
   converged, or did not and the deck allows it (allow_unconverged), *as is replaced on
   rank 0 by the system at the equilibrium (q*, gamma*): K with the reactions' geometric
   stiffness, M, R, Cq, for the eigen stages; *proceed = 1. Returns 0, MB_ENOCONV (not
   converged: *proceed says whether the eigen stages may still run) or another error
   (*proceed = 0), identically on every rank. */
#include <mpi.h>
#include "../deck/deck.h"
#include "../model/assemble.h"
int static_stage_run (MPI_Comm comm, const deck *d, const model *mdl, const char *outdir,
                      FILE *log, assembly *as, int *proceed, mb_err *err);

#endif
