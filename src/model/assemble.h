/* assemble.h: the model's sparse matrices M, K, R, Cq in the 6-DOF-per-node space, the
   check that Cq has full row rank, and energies per part for the reports. */
#ifndef MB_ASSEMBLE_H
#define MB_ASSEMBLE_H

#include <complex.h>
#include "../error.h"
#include "../linalg/sparse.h"
#include "model.h"
#include "state.h"

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
  int nonsymmetric;  /* 1: K is not symmetric (follower loads, body-fixed torques,
                        lever arms or moments away from equilibrium) */
  assemble_map *map; /* the fixed pattern (NULL for assemble_system's one-shot matrices) */
} assembly;

/* The deck configuration, gamma = 0, without gravity: the same matrices as before the
   model had a state (to round-off; in fact bitwise: elements at the deck pose use the
   linear formulas). f_int, f_ext, c are filled too (f_ext without gravity).
   *a is overwritten (not freed first). Rank-0 work, no MPI. Returns 0 or MB_ENOMEM. */
int assemble_system (const model *mdl, assembly *a, mb_err *err);

/* Everything above at state s (s->gamma gives the multipliers; gravity included).
   The first call needs *a zeroed (assembly a = { 0 }): it builds the pattern (element
   blocks, plus the joints' node blocks for Kc), allocates and fills. Later calls with the
   same model refill the values in the same pattern (no triplet sort, no allocation).
   Rank-0 work, no MPI. Returns 0 or MB_ENOMEM (then *a is cleared). */
int assemble_at (const model *mdl, const model_state *s, assembly *a, mb_err *err);

/* Checks that Cq has full row rank: joints that share nodes form groups (union-find over
   the nodes they touch; ground joins nothing); each group's rows get a dense
   column-pivoted QR (LAPACK dgeqp3 on the rows as columns, rank tolerance 1e-10 times the
   largest |R_ii|). Groups over 2000 rows (or 4e6 dense entries) are skipped and counted
   in *skipped (may be NULL). On a deficiency the first row (deck order) that repeats rows
   before it is found by an unpivoted QR; the joints whose rows it combines (least-squares
   coefficients above 1e-6 of the largest) are named, and the error (MB_EDECK) stands at
   the redundant joint's deck position: "joints 'rev2', 'rev1' overconstrain the model:
   the constraint rows of 'rev2' (revolute, rotation about e1) repeat those of 'rev1'
   (Cq has rank 9 for 10 rows); remove DOFs from one of them (a spherical or universal
   joint, or a lock)". deck_path names the deck. Returns 0, MB_EDECK, MB_ESOLVE (LAPACK)
   or MB_ENOMEM. Rank 0 only (or any rank: no MPI). */
int assemble_check_constraints (const model *mdl, const spm *Cq, const char *deck_path,
                                int *skipped, mb_err *err);

void assembly_clear (assembly *a);

/* A part of the model for energy shares: bodies (kinetic), beams (kinetic and strain),
   springs, rotational springs and bushings (strain). */
typedef enum { PART_BODY, PART_BEAM, PART_FORCE } part_kind;

typedef struct model_part {
  const char *name;   /* borrowed from the model */
  part_kind kind;
  int index;          /* into bodies, beams or forces */
} model_part;

/* The parts of mdl in order: bodies, beams, then springs, rotational springs and bushings
   in their deck order (point forces and torques are not parts).
   Returns the count; *parts is a new array (caller frees), NULL when count is 0 or out of
   memory (then returns -1). */
int model_parts (const model *mdl, model_part **parts);

/* For a mode shape x (n complex entries, position DOFs), the kinetic share
   Re(x^H M_p x) / Re(x^H M x) and the strain share Re(x^H K_p x) / Re(x^H K x) of each
   part p, using the symmetric part of K. A share is 0 when the total is below
   1e-14 times the largest part's contribution (rigid-body modes: no strain).
   kinetic, strain: arrays of nparts, filled. Returns 0 or MB_ENOMEM. */
int model_energy_shares (const model *mdl, const model_part *parts, int nparts,
                         const double complex *x, double *kinetic, double *strain,
                         mb_err *err);

#endif
