/* singular.h: why A - sigma B is singular (rank 0 helpers of the stage skeleton): an empty
   row by structure, a part with no mass and no stiffness, an empty or redundant constraint
   row, or a true eigenvalue at the shift. */
#ifndef MB_SINGULAR_H
#define MB_SINGULAR_H

#include <mpi.h>
#include <stddef.h>

#include "../error.h"
#include "eigen.h"

/* Rank 0. The pencil's pattern: a DOF with no nonzero entry in its row or column of K and
   M (and R when damped) and in its column of Cq, or an all-zero row of Cq, makes a zero
   row of A - sigma B for every sigma. Returns 0, or MB_EDECK with err naming (up to 5 of)
   the rows, or MB_ENOMEM. */
int singular_structure (const gep_system *sys, int damped, mb_err *err);

/* Collective. singular_structure of the system by rows (sys->parts on every rank; R's rows
   count when damped): each rank marks what its rows touch, one reduction of n + m bytes,
   rank 0 names the rows. Returns the same status on every rank (err set everywhere). */
int singular_structure_parts (MPI_Comm comm, const gep_system *sys, int damped, mb_err *err);

/* Rank 0. Writes into msg (len bytes) what the null pivots rows[0..count-1] point at: rows
   of the factored matrix of order n + m, DOFs q then constraint rows xi (the pencil of GEP
   (18), or the reduced matrix of GEP (31) when damped, whose R then counts as a part's
   own): DOFs by their label (sys->label, or their row), telling whether each has no mass
   and no stiffness at all, and constraint rows, empty or a multiple of another row
   (named). At most 6 rows are described; with names_only, only named. */
void singular_describe (const gep_system *sys, int damped, int count, const int *rows,
                        int names_only, char *msg, size_t len);

#endif
