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

/* Collective; ks_apply_real for GEP (18): y = OP x, B x = [M x_q; 0]. ctx: shift_invert.
   By rows: B x on this rank's rows (spm_rows_matmat), solved by rows (factor_solve_rows). */
int shift_invert_apply_undamped (void *ctx, const double *x, double *y);

/* Collective; ks_apply_complex for GEP (31): y = OP x, B x = [x_u; M x_v; 0], by one solve
   of order n + m: z = pencil_damped_reduce_rhs (x), solved, expanded
   (pencil_damped_expand) to y = [z_q; (x_u + sigma z_q) / w; z_xi]. */
int shift_invert_apply_damped (void *ctx, const double complex *x, double complex *y);

/* Collective; ks_apply_block_real for GEP (18): Y = OP X for nb columns. By rows (more
   than one rank): B X on this rank's rows for the block (one halo exchange), one multi-RHS
   solve by rows, nothing gathered. On one rank: B X for the block (M read once per
   SPM_MM_CHUNK columns), one multi-RHS solve (factor_solve_many: the factors are read once
   for the block); with ldy = N (the Krylov basis) and X, Y apart, B X is formed in Y and
   solved there in place, else in the block buffer and copied. The block buffer
   (spm_matmat's work, and N x nb for the right-hand sides when not in place) grows on
   demand (fault site "krylov"). shift_invert_apply_undamped is its block of 1. */
int shift_invert_apply_block_undamped (void *ctx, int nb, const double *X, int ldx, double *Y,
                                       int ldy);

/* Collective; ks_apply_block_complex for GEP (31): each column gathered, its reduced
   right-hand side formed, one multi-RHS solve of order n + m for the block, each column
   expanded and scattered. Rank 0's block buffer holds nb vectors of order 2n + m and nb of
   order n + m. */
int shift_invert_apply_block_damped (void *ctx, int nb, const double complex *X, int ldx,
                                     double complex *Y, int ldy);

/* Collective; ks_apply_real and ks_apply_block_real for GEP (31) at a real shift (si->sigma
   real: the reduced matrix then real, its factors DMUMPS'): the same as the two above in
   real arithmetic (rank 0's buffers hold doubles: shift_invert_init with sizeof (double)).
   By rows (more than one rank): x_u and x_v moved to the
   reduced layout's rows, the right-hand side -(M (w x_v + sigma x_u) + R x_u) formed there
   (one halo exchange each for M and R), one multi-RHS solve by rows, and the expansion
   [z_q; (x_u + sigma z_q) / w; z_xi] moved back to the Krylov layout's rows: five row
   exchanges of the block, nothing gathered. */
int shift_invert_apply_damped_real (void *ctx, const double *x, double *y);
int shift_invert_apply_block_damped_real (void *ctx, int nb, const double *X, int ldx,
                                          double *Y, int ldy);

#endif
