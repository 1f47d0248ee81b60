/* pencil.h: the constrained pencils A - sigma B of the two eigen stages (seed 001: GEP (18)
   undamped, GEP (31) damped and balanced), their scaling, B x, norms and the residuals of
   eigenpairs on the unscaled problem: on rank 0 from the whole matrices, or every rank its
   rows from its parts of the system (gep_parts). */
#ifndef MB_PENCIL_H
#define MB_PENCIL_H

#include <complex.h>

#include "../error.h"
#include "../linalg/rowdist.h"
#include "../linalg/sparse.h"
#include "eigen.h"

/* Complex triplets for the damped pencil (spm holds reals only). Kept here until
   linalg/sparse has a complex form. */
typedef struct ztrip { long nnz, cap; int *row, *col; double complex *val; } ztrip;

/* Frees the arrays of t and zeroes it. */
void ztrip_clear (ztrip *t);

/* The undamped system's rows on this rank, in the pencil's row layout (order N = n + m,
   ks_dist_init's blocks: rows row0 .. row0 + nloc - 1): K's and M's rows among them that are
   DOFs (rows < n), Cq's rows for those that are constraint rows (pencil row n + r is Cq's
   row r), and Cq^T's rows for the DOFs (the constraint rows touching each DOF, columns r),
   which the upper block s Cq^T of the pencil needs. Every part's columns are global. With
   these, every rank builds its own rows of A - sigma B (pencil_undamped_part) and no rank
   needs the whole pencil. */
typedef struct gep_parts {
  int n, m, N, row0, nloc;
  spm_part K, M, Cq, CqT;
  spm_part R;   /* the damped stage's R, like M (empty, L.rowptr NULL: not handed out) */
} gep_parts;

/* Collective. The parts of sys (rank 0's matrices, compressed; n and m on every rank) by
   spm_part_scatter (rank 0's own rows borrowed: sys must outlive P on rank 0), R's too when
   with_r (the damped stage) and rank 0 has R, and Cq^T's rows by routing each rank's Cq
   entries to the owners of their columns (spm_part_route). Returns 0 or an error, the same
   on every rank (P empty then). */
int gep_parts_scatter (MPI_Comm comm, const gep_system *sys, int with_r, gep_parts *P,
                       mb_err *err);

/* Collective. The parts of the system given as triplets spread over the ranks in any way
   (K, M and R n x n, Cq m x n on every rank (Cq NULL when m = 0, R NULL on every rank
   without R); any order, duplicates summed: the ranks' triplets in rank order are the
   matrices' entries in their order), each sent to the rank that owns its row of the pencil
   layout (spm_part_route), Cq^T's rows routed from the Cq parts: the parts
   gep_parts_scatter gives for the compressed matrices of the same triplets. No rank ever
   holds a whole matrix. Returns 0 or an error, the same on every rank (P empty then). */
int gep_parts_route (MPI_Comm comm, int n, int m, const spm *K, const spm *M, const spm *R,
                     const spm *Cq, gep_parts *P, mb_err *err);

/* Collective. The whole K, M, Cq (NULL when m = 0) and, when R is not NULL, R (NULL when P
   has no R) of P on rank 0, new compressed matrices (caller frees; untouched on the other
   ranks), for a path that needs them whole. Returns 0 or MB_ENOMEM, the same on every
   rank. */
int gep_parts_gather (MPI_Comm comm, const gep_parts *P, spm **K, spm **M, spm **Cq,
                      spm **R, mb_err *err);

/* Collective. The measures of the whole system whose parts the ranks hold (see
   gep_measures): the values rank 0 would compute from the whole matrices (the same maxima;
   the same row sums, summed in the same order), and R's when P has it. symmetric = 1 (the
   same on every rank): K and M (and R) are known to be exactly symmetric (read from
   symmetric files), not tested again.
   Returns 0 or an error, the same on every rank. */
int gep_measure_parts (MPI_Comm comm, const gep_parts *P, int symmetric, gep_measures *ms,
                       mb_err *err);

/* Frees what P owns (not collective) and empties it. */
void gep_parts_clear (gep_parts *P);

/* This rank's rows of GEP (18) at sigma from its parts: the rows row0 .. row0 + nloc - 1 of
   pencil_undamped's matrix (the same entries, values and order row by row) as a part of an
   N x N matrix (first = row0); only the lower triangle when lower_only. Not collective.
   Returns 0 or MB_ENOMEM (A empty then). */
int pencil_undamped_part (const gep_parts *P, double sigma, double s, int lower_only,
                          spm_part *A);

/* This rank's rows of the reduced matrix of GEP (31) at a real sigma from its parts (R's
   when P has them): the rows row0 .. row0 + nloc - 1 of pencil_damped_reduced_real's matrix
   [K + sigma R + sigma^2 M, c Cq^T; c Cq, 0] (the same entries, values and order row by
   row) as a part of an N x N matrix (first = row0); only the lower triangle when
   lower_only. Not collective. Returns 0 or MB_ENOMEM (A empty then). */
int pencil_damped_reduced_part (const gep_parts *P, double sigma, double c, int lower_only,
                                spm_part *A);

/* The same rows at a complex sigma, for ZMUMPS with distributed input: the rows row0 ..
   row0 + nloc - 1 of pencil_damped_reduced's matrix [K + sigma R + sigma^2 M, c Cq^T; c Cq,
   0] as complex triplets with global rows and columns (row by row, columns ascending),
   only the lower triangle when lower_only, into t (empty on entry; caller clears). Each
   part's real and imaginary parts come from one row merge, so that they pair up. Not
   collective. Returns 0 or MB_ENOMEM (t empty then). */
int pencil_damped_reduced_part_z (const gep_parts *P, double complex sigma, double c,
                                  int lower_only, ztrip *t);

/* Scale for Cq so that its entries match K's magnitude (seed 001, sec. 5): a power of two
   near max|K| / max|Cq| (1 without Cq), so scaling and scaling back are exact. */
double pencil_cq_scale (const gep_system *sys);

/* The balancing factor w of the damped pencil: a power of two near sqrt(max|K| / max|M|). */
double pencil_omega_scale (const gep_system *sys);

/* GEP (18) at sigma: A - sigma B = [K - sigma M, s Cq^T; s Cq, 0] (order n + m), only the
   lower triangle when lower_only (for LDL^T). Returns a new compressed matrix (caller
   frees) or NULL when out of memory. */
spm *pencil_undamped (const gep_system *sys, double sigma, double s, int lower_only);

/* GEP (31) at sigma in balanced form (order 2n + m). With u~ = w u and xi = s xi~:
       A - sigma B = [-sigma I, w I, 0; -K/w, -R - sigma M, -s Cq^T; -(s/w) Cq, 0, 0],
   entries of one size, lambda unchanged. Appended to t (caller clears). Returns 0 or
   MB_ENOMEM (no message: the caller says what was being built). */
int pencil_damped (const gep_system *sys, double complex sigma, double s, double w, ztrip *t);

/* The shift-invert solve of GEP (31) on a matrix of order n + m (the first block row of
   the balanced pencil eliminated exactly). With x = [u; v; xi] (u = u~, xi = xi~, the
   balanced unknowns), (A - sigma B) x = b reads
       -sigma u + w v = b1,  -(K/w) u - (R + sigma M) v - s Cq^T xi = b2,  -(s/w) Cq u = b3.
   Row 1 gives v = (b1 + sigma u) / w for every sigma (sigma = 0 too); into row 2 (times -w)
   and row 3 (times -w^2), with P(sigma) = K + sigma R + sigma^2 M and c = s w:
       [P(sigma), c Cq^T; c Cq, 0] [u; xi] = [-w b2 - (R + sigma M) b1; -w^2 b3].
   The elimination pivots on w I, so the pencil at sigma is singular exactly when this
   matrix is, and its null pivots name DOFs (rows < n) and constraint rows (n + j).
   Complex symmetric (A^T = A, not Hermitian) when K, R and M are symmetric: then only its
   lower triangle is built (lower_only), for ZMUMPS's LDL^T. Duplicates are summed and
   stored zeros of K, R, M, Cq kept (structure). Appended to t (caller clears; t empty on
   entry). Returns 0 or MB_ENOMEM (no message). */
int pencil_damped_reduced (const gep_system *sys, double complex sigma, double c,
                           int lower_only, ztrip *t);

/* The same matrix for a real sigma, in real arithmetic (for DMUMPS: symmetric LDL^T when
   K, R, M are, only the lower triangle built when lower_only; else LU): a new compressed
   matrix (caller frees) or NULL when out of memory. With a real shift, OP of GEP (31) is a
   real operator and the damped stage runs in real arithmetic. */
spm *pencil_damped_reduced_real (const gep_system *sys, double sigma, double c, int lower_only);

/* Infinity norms ||A||, ||B|| of the unscaled pencil (18) (damped = 0) or (31). Returns 0
   or MB_ENOMEM (err set; the norms are then 1). */
int pencil_norms (const gep_system *sys, int damped, double *anorm, double *bnorm, mb_err *err);

/* Relative residual of (lambda, [phi; xi]) for GEP (18), unscaled, infinity norms, real
   lambda, phi, xi (a symmetric pencil): r = [K phi + Cq^T xi - lambda M phi; Cq phi],
   ||r|| / ((||A|| + |lambda| ||B||) ||phi||). work: 2 n + m doubles. */
double pencil_residual_undamped_real (const gep_system *sys, double lambda, const double *phi,
                                      const double *xi, double anorm, double bnorm,
                                      double *work);

#endif
