/* shift_invert.h: the shift-invert operator OP = (A - sigma B)^-1 B of the eigen stages,
   applied to Krylov vectors distributed by rows. GEP (18) on more than one rank: B x on
   every rank's own rows (M's rows scattered once, a halo exchange per apply) and a MUMPS
   solve with right-hand sides and solution distributed by the same rows; no vector is
   gathered. Otherwise: gather on rank 0, B x there, solve with the MUMPS factors on every
   rank, scatter. For GEP (31) the factors are those of the reduced matrix of order n + m
   (pencil_damped_reduced): B x becomes its right-hand side and the solution is expanded
   back to order 2n + m on rank 0. */
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
  const gep_system *sys;    /* borrowed: B is built from sys->M on rank 0 */
  ks_dist dist;             /* rows of this rank */
  int damped;               /* 1: GEP (31) (order N = 2n + m), 0: GEP (18) (N = n + m) */
  spm_rows *mrows;          /* by rows: this rank's rows of M and their halo plan (owned),
                               in the Krylov layout for GEP (18), in the reduced layout
                               (rdist) for GEP (31); NULL: the gathering path */
  spm_rows *rrows;          /* GEP (31) by rows: the same of R (NULL without R) */
  ks_dist rdist;            /* GEP (31) by rows: this rank's rows of the reduced order n + m */
  double *work;             /* GEP (31) by rows: 4 blocks of rdist.nloc x cap_nb (x_u, x_v
                               then y_v, the right-hand side then z, R x_u), owned */
  double *sbuf, *rbuf;      /* GEP (31) by rows: the remaps' packed rows, owned */
  size_t cap_nb, cap_sbuf, cap_rbuf;  /* columns of work; doubles of sbuf, rbuf */
  int *cnt;                 /* GEP (31) by rows: 4 x size ints, the remaps' counts */
  double *xcopy;            /* by rows: this rank's rows of X when X and Y overlap (owned) */
  size_t xcopy_len;         /* entries of xcopy */
  int *counts, *displs;     /* rank 0: rows of every rank (gathering path) */
  void *full;               /* rank 0: a whole vector (double or double complex;
                               gathering path) */
  mb_err *err;              /* borrowed: where a failed solve is described */
  double t_solve;           /* wall time spent in solves [s] */
  int solves;               /* right-hand sides solved */
  int block_solves;         /* multi-RHS solves (block applies) among them */
  void *blk;                /* rank 0: the block apply's buffer, blk_bytes long */
  size_t blk_bytes;
  double complex sigma;     /* GEP (31): the shift */
  double w;                 /* GEP (31): the balancing factor */
} shift_invert;

/* Collective. Sets up the row distribution of order N and rank 0's buffers (vsize bytes an
   entry: sizeof (double) for real arithmetic, sizeof (double complex) for GEP (31) at a
   complex shift). In real arithmetic (GEP (18), or GEP (31) at a real shift) on more than
   one rank, the operator works by rows instead (shift_invert_by_rows): M's rows (and R's for GEP (31), in the reduced layout of order
   n + m) are scattered from rank 0 (spm_rows_scatter), or taken from parts (the system by
   rows in the layout of order n + m, NULL: none; spm_rows_from_part; R's from parts->R), and
   rank 0 holds no whole vector.
   Fault site "krylov". Returns 0 or an error (MB_ENOMEM), the same on every rank; clear si
   in both cases. */
int shift_invert_init (shift_invert *si, MPI_Comm comm, factor *f, const gep_system *sys,
                       const gep_parts *parts, int N, size_t vsize, mb_err *err);

/* 1 when the operator works by rows on comm: more than one rank. The same on every rank. */
int shift_invert_by_rows (MPI_Comm comm);

/* GEP (31): the shift and balancing factor of the reduced factors (every rank). */
void shift_invert_set_damped (shift_invert *si, double complex sigma, double w);

/* Frees the buffers (not the factors) and zeroes si. */
void shift_invert_clear (shift_invert *si);

/* Collective; OP = (A - sigma B)^-1 B on the Krylov vectors (ctx: shift_invert), one column
   (ks_apply_real, ks_apply_complex: x, y this rank's rows) or nb (ks_apply_block_real,
   ks_apply_block_complex: X, Y with leading dimensions ldx, ldy; a single column is a
   block of 1, not counted as a block solve). The real applies serve GEP (18) and GEP (31)
   at a real shift (si->damped; si->sigma real, the reduced matrix's factors DMUMPS'), the
   complex ones GEP (31) at a complex shift.
   - GEP (18): B X = [M X_q; 0]. By rows (more than one rank): B X on this rank's rows for
     the block (spm_rows_matmat, one halo exchange), one multi-RHS solve by rows
     (factor_solve_rows), nothing gathered. On one rank: B X for the block (M read once per
     SPM_MM_CHUNK columns), one multi-RHS solve (factor_solve_many: the factors are read
     once for the block); with ldy = N (the Krylov basis) and X, Y apart, B X is formed in
     Y and solved there in place, else in the block buffer and copied.
   - GEP (31), B x = [x_u; M x_v; 0], by one solve of order n + m: z = -(M (w x_v + sigma
     x_u) + R x_u) (pencil_damped_reduce_rhs), solved, expanded (pencil_damped_expand) to
     y = [z_q; (x_u + sigma z_q) / w; z_xi]. Real arithmetic by rows (more than one rank):
     x_u and x_v moved to the reduced layout's rows, the right-hand side formed there (one
     halo exchange each for M and R), one multi-RHS solve by rows, the expansion moved back
     to the Krylov layout's rows: five row exchanges of the block, nothing gathered.
     Otherwise (complex arithmetic, or one rank) each column gathered on rank 0, its
     right-hand side formed, one multi-RHS solve for the block, each column expanded and
     scattered; rank 0's block buffer holds nb vectors of order 2n + m and nb of order
     n + m.
   Rank 0's block buffer grows on demand (fault site "krylov"). */
int shift_invert_apply_real (void *ctx, const double *x, double *y);
int shift_invert_apply_complex (void *ctx, const double complex *x, double complex *y);
int shift_invert_apply_block_real (void *ctx, int nb, const double *X, int ldx, double *Y,
                                   int ldy);
int shift_invert_apply_block_complex (void *ctx, int nb, const double complex *X, int ldx,
                                      double complex *Y, int ldy);

#endif
