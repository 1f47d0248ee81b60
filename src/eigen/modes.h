/* modes.h: Ritz pairs of the shift-invert operator turned into physical modes (rank 0):
   finite candidates, pairing, mass orthonormalization, rigid-body refinement, canonical
   scaling, residuals and kinds. */
#ifndef MB_MODES_H
#define MB_MODES_H

#include <complex.h>

#include "../error.h"
#include "eigen.h"
#include "krylov_schur.h"
#include "pencil.h"

/* A Ritz pair turned into a candidate mode. */
typedef struct candidate {
  double complex lambda;   /* eigenvalue of the pencil */
  double dist;             /* |lambda - sigma| ordering key: larger |mu| first */
  double *xr;              /* the real vector (this rank's rows, or whole on rank 0 for the
                              dense path), borrowed from ks_result (xr, or x rewritten in
                              place) or from the rows handed out */
  double q;                /* symmetric undamped: phi^T M phi as rows_rayleigh found it */
  double resid;            /* and the true residual of (lambda, xr) from the same products */
  int fresh;               /* 1 while xr is only rescaled since then (q, resid still hold) */
  int mult;                /* damped: eigenvalues this candidate stands for beyond a
                              conjugate pair (fold_rigid_core: 2 for a rigid-body Jordan
                              pair); 0 = 1 */
  int own;                 /* 1: lambda, rigid and cond are at the mode's own scale
                              (gep_system.energy; modes.c "own scale") */
  int rigid;               /* with own: the mode is rigid-body by the own-scale test */
  double cond;             /* with own: the a priori rounding of the assembled quotient */
} candidate;

/* The rounding floor of rigid-body eigenvalues: the largest |lambda| (modal: omega^2;
   damped: |lambda|) that counts as rigid-body whatever the mode's residual; it does not
   depend on the shift or the tolerance. */
double modes_rigid_threshold (const gep_system *sys, int damped);

/* Rank 0. The finite Ritz pairs of ks of a symmetric undamped pencil (|mu| above a tiny
   fraction of the largest; the others are infinite eigenvalues, counted in
   out->n_infinite) as candidates with real lambda = sigma + 1/mu and real vectors of length
   N in xr (a split repeated pair: its real and imaginary parts), taken from ks->xr
   (Krylov-Schur's real columns by rows), else (the dense path) written as doubles in
   place over each complex column of ks->x. Returns a new array in *cand (caller frees;
   vectors stay in ks) and its length in *ncand, or MB_ENOMEM. */
int modes_candidates (ks_result *ks, int N, double sigma, candidate **cand, int *ncand,
                      eigen_result *out, mb_err *err);

/* Collective (the ranks of d). Undamped stage, GEP (18), a symmetric pencil on any number
   of ranks (one rank is one block), with the Ritz vectors by rows (ks_result.rows, or the
   dense path's handed out by rows: cand from modes_candidates with this rank's rows,
   stride max (d->nloc, 1), the same candidates on every rank): the `want` candidates
   nearest sigma as modes: Rayleigh quotients (at the modes' own scale with element
   energies), cluster-wise M-orthonormal vectors, rigid-body refinement, largest entry
   positive, multipliers scaled back by s, residual and kind, each step on each rank's
   rows, with M's rows and those of A0 = [K, s Cq^T; s Cq, 0] (the
   pencil at sigma = 0) for the products and one reduction per step for the dot products,
   so that no rank holds a whole vector: parts is the system by rows in d's layout, M's
   rows are the parts' and A0's rows are built by each rank (pencil_undamped_part), so
   that no rank builds or scatters them whole; keep_vectors 1 gathers each selected mode's vector on
   rank 0 into the mode (for the report). sys: n and m on every rank, the matrices on
   rank 0; s: rank 0's. Every rank fills out->modes alike. Returns 0 or an error, the same on every rank (fault site
   "modes"); out->modes is then the caller's to clear. */
int modes_undamped_rows (const ks_dist *d, const gep_system *sys, const gep_parts *parts,
                         double s, int want, int keep_vectors, candidate *cand, int ncand,
                         eigen_result *out, mb_err *err);

/* Collective (the ranks of d). Undamped stage, GEP (18), an unsymmetric pencil (a
   follower load: complex eigenvalues possible) on any number of ranks (one rank is one
   block), with the Ritz vectors by rows (ks->rows: real columns in ks->xr, a conjugate
   pair (j, j+1) as x_j = xr_j + i xr_{j+1}; or complex columns in ks->x, each its own, the
   dense path's handed out by rows): the `want` finite candidates nearest sigma (lambda =
   sigma + 1/mu) as modes: unit mass norm (Re phi)^T M (Re phi) = 1 (else unit largest
   entry), largest entry real positive (the first within 1e-8 of the largest modulus over
   all ranks), multipliers scaled back by s, residual on the unscaled pencil, kind
   (unstable for Re lambda < 0 or Im lambda above 1e-8 |lambda|), each step on each rank's
   rows with M's rows and those of [K, Cq^T; Cq, 0] (built from parts, the system by rows in
   d's layout) and a few reductions per mode,
   so that no rank holds a whole vector; keep_vectors as for modes_undamped_rows (1:
   gathered on rank 0 into the mode). ks->mu is rank 0's on return. sys: n and m on every
   rank, the matrices on rank 0; sigma, s: rank 0's (the same on every rank). Every rank
   fills out->modes alike. Returns 0 or an error, the same on every rank (fault site
   "modes"); out->modes is then the caller's to clear. */
int modes_unsymmetric_rows (const ks_dist *d, const gep_system *sys, const gep_parts *parts,
                            ks_result *ks, double sigma, double s, int want, int keep_vectors,
                            eigen_result *out, mb_err *err);

/* Collective (the ranks of d, the Krylov layout of order 2n + m). Damped stage, GEP (31),
   on any number of ranks (one rank is one block), with the Ritz vectors by rows (ks->rows; real
   arithmetic: real columns in ks->xr, a conjugate pair (j, j+1) as x_j = xr_j + i xr_{j+1};
   complex arithmetic: complex columns in ks->x, each its own, no partner implied, whose
   pairs and rigid-body double zeros are folded): on each rank's rows, u scaled back by w,
   the multipliers by s, the eigenvalue refined by the quadratic Rayleigh quotient (kept
   when the true residual is not worse), one mode per conjugate pair (Im lambda >= 0), the
   `want` nearest sigma, largest position entry 1, residual, kind (rigid-body from the
   eigenvalue against the pencil's rounding floor and the mode's own residual, never from
   the shift), with the rows of the
   unscaled GEP (31)'s A and B built from the system's parts (layout of order n + m) and one
   reduction per step for the dot products and norms, so that no rank holds a whole vector
   or matrix; keep_vectors as for modes_undamped_rows (1: gathered on rank 0 into the
   mode). ks->mu is rank 0's on return. sigma, w, s: the same on every rank. Every rank
   fills out->modes alike. Returns 0 or an error, the same on every rank (fault site
   "modes"); out->modes is then the caller's to clear. */
int modes_damped_rows (const ks_dist *d, const gep_parts *parts, ks_result *ks,
                       double complex sigma, double w, double s, int want, int keep_vectors,
                       eigen_result *out, mb_err *err);

#endif
