/* material_stiffness.h: the material part of a model's tangent stiffness at a state, for
   the buckling stage's split K = K_material + K_geometric. */
#ifndef MB_MATERIAL_STIFFNESS_H
#define MB_MATERIAL_STIFFNESS_H

#include "../error.h"
#include "../linalg/sparse.h"
#include "model.h"
#include "state.h"

/* K_material = sum over beams, springs, rotational springs and bushings of G^T D G (the
   elements with EVAL_MATERIAL: constitutive matrix D on the deformation rate G, no
   internal-force, preload, load or reaction terms), n x n, n = 6 nnodes, at the state
   the eigen stages linearized at: for a model placed at an equilibrium (mdl->eq, model_place)
   the elements at that equilibrium about their deck poses; else at state s (NULL: the deck
   configuration). Bodies have no material stiffness. Returns 0 or MB_ENOMEM; *Km is a
   new compressed matrix (caller frees). Rank 0, no MPI. */
int model_material_stiffness (const model *mdl, const model_state *s, spm **Km, mb_err *err);

#endif
