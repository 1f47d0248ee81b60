/* assemble.h: the model's sparse matrices M, K, R, Cq in the 6-DOF-per-node space, the
   check that Cq has full row rank, and energies per part for the reports. */
#ifndef MB_ASSEMBLE_H
#define MB_ASSEMBLE_H

#include <complex.h>
#include "../error.h"
#include "../linalg/sparse.h"
#include "model.h"

/* The assembled linear system M q'' + R q' + K q + Cq^T gamma = 0, Cq q = 0 about the
   deck configuration, n = 6 nnodes, m = nconstraints. Matrices are compressed triplets
   (whole element blocks kept, zeros included: MUMPS builds coarser trees on them).
   K = material stiffness of beams + springs/bushings (with the geometric stiffness of
   spring preloads) + load stiffness of offset and follower point loads (may be
   non-symmetric then); M = bodies + consistent beam mass; R = dampers + bushings +
   Rayleigh (alpha M_e + beta K_e per beam element). R is NULL when it is zero, Cq when
   m = 0. Owned by the assembly; assembly_clear frees. */
typedef struct assembly {
  int n, m;
  spm *K, *M, *R, *Cq;
} assembly;

/* Assembles mdl into *a (rank-0 work; no MPI). Returns 0 or MB_ENOMEM. */
int assemble_system (const model *mdl, assembly *a, mb_err *err);

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
