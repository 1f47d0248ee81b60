/* assemble.h: the model's system at a state: sparse M, K, R, Cq in the 6-DOF-per-node
   space (a fixed pattern refilled at each state), internal and applied forces and the
   constraint residuals. The Cq rank check (constraint_check.h) and the parts' energy
   shares (energy.h) are included here for their callers. */
#ifndef MB_ASSEMBLE_H
#define MB_ASSEMBLE_H

#include <complex.h>
#include "../error.h"
#include "../linalg/sparse.h"
#include "model.h"
#include "state.h"
#include "constraint_check.h"   /* assemble_check_constraints (callers of old) */
#include "energy.h"             /* model_parts, model_energy_shares */

/* The model's system at a state q (model_state) with multipliers gamma, n = 6 nnodes,
   m = nconstraints:
     residual F(q, gamma) = f_int(q) - f_ext(q) + Cq(q)^T gamma,   C(q) = 0,
     K = dF/dq = material + geometric stiffness of beams (corotational), springs and
         bushings + Kc = d(Cq^T gamma)/dq + load stiffness -d f_ext/dq,
     M, R (dampers, bushings, Rayleigh alpha M_e + beta K_e per beam element), Cq = dC/dq,
   all derivatives in the increment space of state.h (x += dx, R = exp(dtheta) R).
   Its linearization M q'' + R q' + K q + Cq^T dgamma = 0, Cq q = 0 is what the eigen
   stages solve. At the deck configuration with gamma = 0 (assemble_system) K, M, R, Cq
   are exactly today's linear matrices (gravity does not enter assemble_system).
   Matrices are compressed triplets with a FIXED pattern computed on the first assembly
   (whole element blocks, zeros kept: MUMPS builds coarser trees on them); later calls of
   assemble_at refill the values in place. R is NULL when the model has no damping, Cq
   when m = 0. Owned by the assembly; assembly_clear frees. */
typedef struct assemble_map assemble_map;   /* private: triplet -> compressed slot */

typedef struct assembly {
  int n, m;
  spm *K, *M, *R, *Cq;
  double *f_int;     /* n: internal forces dV/dq at the state: beams (corotational),
                        springs (with preload), rotational springs, bushings */
  double *f_ext;     /* n: applied forces at the state: gravity on bodies (m g at the
                        node) and beam mass (consistent load), point forces and torques
                        (fixed or follower) */
  double *c;         /* m: joint residuals C(q) (0 at the deck configuration) */
  int nonsymmetric;  /* 1: K is not symmetric to 1e-9 max |K|: follower forces,
                        body-fixed or fixed torques (not conservative), or any state
                        away from equilibrium (the increment-space Hessian has a part
                        skew in the nodal moments). At an equilibrium of conservative
                        loads (gravity, springs, bushings, joints, beams, fixed forces) K
                        is symmetric. */
  assemble_map *map; /* the fixed pattern (NULL for assemble_system's one-shot matrices) */
} assembly;

/* The deck configuration, gamma = 0, without gravity: the same matrices as before the
   model had a state (to round-off; in fact bitwise: elements at the deck pose use the
   linear formulas). f_int, f_ext, c are filled too (f_ext without gravity).
   *a is overwritten (not freed first). Rank-0 work, no MPI. Returns 0 or MB_ENOMEM. */
int assemble_system (const model *mdl, assembly *a, mb_err *err);

/* Everything above at state s (s->gamma gives the multipliers; gravity included).
   At the deck configuration with gamma = 0 and no gravity the values are
   assemble_system's, except for a rotational spring's preload: assemble_system keeps the
   deck-only preload stiffness of before, assemble_at the derivative of its torque
   (force.c); and K's pattern has the joints' blocks as stored zeros.
   The first call needs *a zeroed (assembly a = { 0 }): it builds the pattern (element
   blocks, plus the joints' node blocks for Kc), allocates and fills. Later calls with the
   same model refill the values in the same pattern (no triplet sort, no allocation).
   Rank-0 work, no MPI. Returns 0 or MB_ENOMEM (then *a is cleared). */
int assemble_at (const model *mdl, const model_state *s, assembly *a, mb_err *err);

/* Frees the matrices, vectors and pattern; a may be NULL. */
/* Checks that every entry of K, M and R (as assemble_system built them) is finite. A
   geometry or section out of the range of double precision (a beam element of length
   1e-150 m, coordinates near 1e308) gives infinite or NaN entries; the first one found is
   traced to its part (a beam element, or a body with the forces on its node) and reported
   as MB_EDECK at that part's deck position in deck_path, with the element's length.
   Returns 0 or MB_EDECK. Rank 0 (no MPI). */
int assemble_check_finite (const model *mdl, const assembly *a, const char *deck_path,
                           mb_err *err);

void assembly_clear (assembly *a);

#endif
