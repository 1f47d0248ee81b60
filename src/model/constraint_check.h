/* constraint_check.h: the check that the joints' constraint Jacobian Cq has full row
   rank, with a message that names the redundant joints. */
#ifndef MB_CONSTRAINT_CHECK_H
#define MB_CONSTRAINT_CHECK_H

#include "../error.h"
#include "../linalg/sparse.h"
#include "model.h"

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

#endif
