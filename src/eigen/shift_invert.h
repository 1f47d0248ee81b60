/* shift_invert.h: the shift-invert operator OP = (A - sigma B)^-1 B of the eigen stages,
   applied to Krylov vectors distributed by rows, on every rank count (one rank holds one
   block: all rows) and in both arithmetics: B x on every rank's own rows (M's rows, and R's
   for GEP (31), scattered once; a halo exchange per product) and a MUMPS solve with
   right-hand sides and solution distributed by the same rows (factor_solve_rows; on one
   rank, whose block is whole, the centralized factor_solve_many); no vector is gathered.
   For GEP (31) the factors are those of the reduced matrix of order n + m
   (pencil_damped_reduced): the block is moved to that order's rows, B x becomes its
   right-hand side, and the solution is expanded back to order 2n + m. */
#ifndef MB_SHIFT_INVERT_H
#define MB_SHIFT_INVERT_H

#include <complex.h>
#include <mpi.h>
#include <stddef.h>

#include "../error.h"
#include "../linalg/factor.h"
#include "../linalg/rowdist.h"
#include "eigen.h"
#include "krylov_schur.h"
#include "pencil.h"

typedef struct shift_invert {
  MPI_Comm comm;
  factor *f;                /* borrowed: the factors of A - sigma B (GEP (18)) or of the
                               reduced matrix of GEP (31) */
  const gep_system *sys;    /* borrowed: its M (and R) on rank 0 unless parts are given */
  ks_dist dist;             /* rows of this rank in the Krylov layout (order N) */
  int damped;               /* 1: GEP (31) (order N = 2n + m), 0: GEP (18) (N = n + m) */
  spm_rows *mrows;          /* this rank's rows of M and their halo plan (owned), in the
                               Krylov layout for GEP (18), in the reduced layout (rdist)
                               for GEP (31) */
  spm_rows *rrows;          /* GEP (31): the same of R (NULL without R) */
  ks_dist rdist;            /* GEP (31): this rank's rows of the reduced order n + m */
  void *work;               /* GEP (31): 4 blocks of rdist.nloc x nb scalars (x_u, x_v then
                               y_v, the right-hand side then z, R x_u), owned */
  void *split;              /* GEP (31) in complex arithmetic: a block's real and imaginary
                               parts as real columns for the products with M and R, owned */
  void *sbuf, *rbuf;        /* GEP (31): the remaps' packed rows, owned */
  int *cnt;                 /* GEP (31): 4 x size ints, the remaps' counts */
  void *xcopy;              /* GEP (18): this rank's rows of X when X and Y overlap, owned */
  size_t cap_work, cap_split, cap_sbuf, cap_rbuf, cap_xcopy;  /* their sizes [bytes] */
  mb_err *err;              /* borrowed: where a failed solve is described */
  double t_solve;           /* wall time spent in solves [s] */
  int solves;               /* right-hand sides solved */
  int block_solves;         /* multi-RHS solves (applies of nb > 1 columns) among them */
  double complex sigma;     /* GEP (31): the shift */
  double w;                 /* GEP (31): the balancing factor */
} shift_invert;

/* Collective. Sets up the row distribution of order N (the Krylov layout) and this rank's
   rows of M (and R for GEP (31), in the reduced layout of order n + m), taken from parts
   (the system by rows in the layout of order n + m: spm_rows_from_part; R's from
   parts->R). No rank holds a whole vector. Fault site "krylov". Returns 0 or an error
   (MB_ENOMEM, or parts that do not fit the layout), the same on every rank; clear si in
   both cases. */
int shift_invert_init (shift_invert *si, MPI_Comm comm, factor *f, const gep_system *sys,
                       const gep_parts *parts, int N, mb_err *err);

/* GEP (31): the shift and balancing factor of the reduced factors (every rank). */
void shift_invert_set_damped (shift_invert *si, double complex sigma, double w);

/* Frees the buffers (not the factors) and zeroes si. */
void shift_invert_clear (shift_invert *si);

/* Collective; OP = (A - sigma B)^-1 B on nb Krylov vectors (ctx: shift_invert; ks_apply_real,
   ks_apply_complex: X, Y this rank's rows with leading dimensions ldx, ldy; a single column
   is a block of 1, not counted as a block solve). The real applies serve GEP (18) and
   GEP (31) at a real shift (si->damped; si->sigma real, the reduced matrix's factors
   DMUMPS'), the complex ones GEP (31) at a complex shift (ZMUMPS' factors). Every rank
   works on its own rows; nothing is gathered.
   - GEP (18): B X = [M X_q; 0] on this rank's rows for the block (spm_rows_matmat, one halo
     exchange), then one multi-RHS solve by rows in place in Y (factor_solve_rows, or
     factor_solve_many on one rank when Y's columns are contiguous); X is copied first
     when it overlaps Y.
   - GEP (31), B x = [x_u; M x_v; 0], by one solve of order n + m: x_u and x_v moved to the
     reduced layout's rows, z = -(M (w x_v + sigma x_u) + R x_u) formed there (one halo
     exchange each for M and R; in complex arithmetic M and R multiply the real and
     imaginary parts as 2 nb real columns), one multi-RHS solve by rows, the expansion
     y = [z_q; (x_u + sigma z_q) / w; z_xi] moved back to the Krylov layout's rows: two row
     exchanges of the block (in and out). One code for both arithmetics (shift_invert_impl.h).
   The work buffers grow on demand (fault site "krylov"). */int shift_invert_apply_block_real (void *ctx, int nb, const double *X, int ldx, double *Y,
                                   int ldy);
int shift_invert_apply_block_complex (void *ctx, int nb, const double complex *X, int ldx,
                                      double complex *Y, int ldy);

#endif
