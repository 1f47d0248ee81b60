/* static_report.h: the static equilibrium report (OUTDIR/NAME.static.yaml). */
#ifndef MB_STATIC_REPORT_H
#define MB_STATIC_REPORT_H

#include "../error.h"
#include "../model/model.h"
#include "../model/state.h"
#include "../statics/statics.h"

/* Writes the static report of model mdl at state s (its gamma: the multipliers) to path,
   whole under a temporary name and then renamed (never over an input, writer.h):
   method and parameters (par), convergence (converged, reason,
   iterations, final norms, grounded springs, the stability verdict: statics_verdict's
   count of unstable modes, null without an equilibrium), the
   residual history, nodes (position, displacement from the deck, rotation vector log(R R0^T)
   and orientation matrix), joints (frame at s, the multiplier of each row, force and torque
   in the joint frame), the names the deck gave each node (`names`: a beam node's
   `nodes: {tip1: end}`) and springs (elongation, force; a bushing's force and torque on
   each of its nodes, global axes). Numbers round-trip (shortest of
   %.15g..%.17g); non-finite values are null; every free text (reason, tangent, names) is
   double-quoted, so that strict YAML readers load it. deck_path and title may be NULL.
   All arguments borrowed. Returns 0, MB_EIO naming path, or MB_ENOMEM. Rank 0 only. */
int static_report_write (const char *path, const model *mdl, const model_state *s,
                         const statics_opts *par, const statics_result *res,
                         const char *deck_path, const char *title, mb_err *err);

/* 1 when the model's loads are non-conservative (a body-fixed point force or torque with a
   non-zero value: a follower load, whose tangent is non-symmetric): the report's
   `tangent`, decided from the deck rather than from K's numbers. */
int static_report_nonconservative (const model *mdl);

#endif
