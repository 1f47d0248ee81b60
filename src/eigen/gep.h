/* gep.h: the public entry of the eigen stages: the undamped stage on GEP (18) and the
   damped stage on GEP (31) of seed 001, each by shift-invert with MUMPS and Krylov-Schur,
   giving physical modes. The data they take and give is in eigen.h. */
#ifndef MB_GEP_H
#define MB_GEP_H

#include <mpi.h>

#include "../error.h"
#include "eigen.h"

/* Collective. Undamped stage: A = [K Cq^T; Cq 0], B = [M 0; 0 0], lambda = omega^2,
   shift-invert about sigma (default -1e-3 rad^2/s^2, or (2 pi f_c)^2 for a target
   frequency), LDL^T when K and M are symmetric, with the missed-mode check from the
   inertia. Fills *out on rank 0 (other ranks: convergence data only). Returns 0,
   MB_ENOCONV (out still holds the converged modes), MB_ESOLVE, MB_ENOMEM; identically
   on every rank. */
int gep_modal (MPI_Comm comm, const gep_system *sys, const eigen_opts *opts,
               eigen_result *out, mb_err *err);

/* Collective. Damped stage: A = [0 I 0; -K -R -Cq^T; -Cq 0 0], B = diag(I, M, 0), order
   2n + m, complex shift (default 1e-3 + 0i 1/s, or eps + i 2 pi f_c), complex LU. Each
   conjugate pair is reported once. Same conventions as gep_modal. */
int gep_complex (MPI_Comm comm, const gep_system *sys, const eigen_opts *opts,
                 eigen_result *out, mb_err *err);

#endif
