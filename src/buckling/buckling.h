/* buckling.h: the linear buckling stage of a model deck: load factors lambda of
   (K_material + lambda K_geometric) phi = 0 about the static equilibrium under the deck's
   loads, by the undamped stage's shift-invert Krylov-Schur, and their reports. */
#ifndef MB_BUCKLING_H
#define MB_BUCKLING_H

#include <mpi.h>
#include <stdio.h>

#include "../deck/deck.h"
#include "../error.h"
#include "../linalg/sparse.h"
#include "../model/model.h"
#include "../statics/statics.h"

/* What the stage takes from the pipeline. Borrowed. */
typedef struct buckling_input {
  const deck *d;         /* the deck: its buckling section, loads, output name */
  const model *mdl;      /* every rank's model; on rank 0 placed at the equilibrium of the
                            statics section when the deck has one (model_place) */
  const spm *Kt, *Cq;    /* rank 0, with a statics section: the tangent K and Cq at that
                            equilibrium (the eigen stages' matrices); else NULL */
  const char *outdir;    /* the output folder */
  FILE *log;             /* rank 0's progress log, or NULL */
  int vectors;           /* 1: the buckling shapes go into the YAML report */
  int unconverged;       /* 1: the statics section did not converge and allows it
                            (allow_unconverged): Kt is about its last state */
  statics_opts own;      /* without a statics section: the options of the stage's own
                            equilibrium, the section's defaults (deck_statics_defaults) */
} buckling_input;

/* Collective. The buckling stage. The state: the equilibrium of the statics section (in->Kt
   at in->mdl's placed state), or, without one, the equilibrium under the deck's loads
   that the stage finds itself (FIM with the statics defaults, for its own use: the modal
   and complex stages stay about the deck configuration). There K_t = K_material +
   K_geometric: K_material the elements' G^T D G (model_material_stiffness), K_geometric
   the rest of the tangent (internal forces and preloads of the elements, load stiffness,
   the joints' reaction stiffness Kc), all proportional to the loads to first order. The
   pencil (K_material, -K_geometric) with Cq goes to the undamped stage (gep_modal): its
   eigenvalues are the load factors lambda; the deck's loads times lambda buckle the
   structure. Rank 0 prints the table and writes OUTDIR/NAME.buckling.yaml and, with
   output.vtk, NAME.buckling.vtu. Returns 0, MB_ENOCONV (what converged is reported),
   MB_EDECK (no geometric stiffness: the loads stress nothing; a non-conservative tangent),
   MB_ESOLVE, MB_EIO, MB_ENOMEM; the same on every rank. */
int buckling_run (MPI_Comm comm, const buckling_input *in, mb_err *err);

#endif
