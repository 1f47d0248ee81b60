/* bv.h: the Krylov basis vectors (SLEPc's BV): a multivector distributed by rows, its
   Gram-Schmidt kernels (one column and blocks, one reduction per pass), norms, products and
   the rotation V Z, in real (_r) and complex (_c) arithmetic, written once (bv_impl.h). */
#ifndef MB_BV_H
#define MB_BV_H

#include <complex.h>
#include <mpi.h>

/* The basis is distributed by rows: each rank of comm holds rows [row0, row0 + nloc) of
   every vector, a multivector's columns at a leading dimension of max (nloc, 1). */
typedef struct ks_dist {
  MPI_Comm comm;   /* the ranks that call the solver and the operator together */
  int n;           /* global vector length */
  int row0, nloc;  /* this rank's rows */
} ks_dist;

/* Block distribution of n rows over the ranks of comm (rank r gets about n / size rows). */
void ks_dist_init (ks_dist *d, MPI_Comm comm, int n);

/* Collective. buf (count doubles) = its sum over the ranks, bitwise the same on every rank
   (reduced on rank 0, then broadcast: an allreduce may round differently per rank). */
void bv_allsum (const ks_dist *d, double *buf, int count);

/* Deterministic uniform numbers in [-1, 1) (xorshift64*), state owned by the caller. */
double bv_uniform (unsigned long long *state);

/* Rows of the basis rotated per block by bv_rotate: 8 MB or less of workspace. */
#define BV_ROW_BLOCK 2048

/* The kernels, for each arithmetic (suffix _r: double, _c: double complex; S the scalar).
   V and W are distributed multivectors (this rank's rows, leading dimension max (nloc, 1));
   red is the caller's workspace for the reductions, in doubles (a complex entry is two).

   bv_random (d, state, x): x = the next n numbers of bv_uniform, this rank's rows of them:
     the sequence runs over all n rows on every rank, so x is the same on any rank count.
   bv_gs_pass (d, j, V, w, h, red) -> s: one classical Gram-Schmidt pass of w against
     V(:, 0:j-1) with one collective: h = V^H w and s = w^H w (w as given) summed over the
     ranks in one message, then w -= V h. red: 2 j + 1 doubles.
   bv_block_pass (d, q, nb, V, W, C, nrm, red): C (q x nb) = V(:, 0:q-1)^H W and, with nrm,
     the squared column norms of W, in one message (BLAS-3); no update. red: 2 q nb + nb.
   bv_block_fused (d, q, nb, V, W, C, red): W -= V C and then C = V^H W (summed over the
     ranks), fused by row blocks of V so that V is read once for both. red: 2 q nb doubles.
   bv_block_update (nl, q, nb, V, W, C): W -= V(:, 0:q-1) C on the local rows.
   bv_block_trsm (nl, nb, R, W): W := W R^-1 (R nb x nb upper triangular, ld nb; W at ld nl).
   bv_orth_loss (d, q, V, G) -> max |V^H V - I| over q columns (G: q^2 workspace).
   bv_nrm2 (d, x) -> the global 2-norm of a distributed vector.
   bv_norms_sq (d, p, V, sq): sq[i] = |V(:, i)|^2 for p columns in one reduction.
   bv_rotate (nloc, ld, q, mm, W, Z, ldz, tmp): W(:, 0:q-1) = W(:, 0:mm-1) Z(:, 0:q-1) in
     place, BV_ROW_BLOCK rows at a time through tmp (BV_ROW_BLOCK x q): no second basis. */
#define BV_DECLARE(S, sx)                                                                    \
  void bv_random_##sx (const ks_dist *d, unsigned long long *state, S *v);                   \
  double bv_gs_pass_##sx (const ks_dist *d, int j, const S *V, S *w, S *h, double *red);     \
  void bv_block_pass_##sx (const ks_dist *d, int q, int nb, const S *V, const S *W, S *C,    \
                          double *nrm, double *red);                                         \
  void bv_block_fused_##sx (const ks_dist *d, int q, int nb, const S *V, S *W, S *C,         \
                           double *red);                                                     \
  void bv_block_update_##sx (int nl, int q, int nb, const S *V, S *W, const S *C);           \
  void bv_block_trsm_##sx (int nl, int nb, const S *R, S *W);                                \
  double bv_orth_loss_##sx (const ks_dist *d, int q, const S *V, S *G);                      \
  double bv_nrm2_##sx (const ks_dist *d, const S *x);                                        \
  void bv_norms_sq_##sx (const ks_dist *d, int p, const S *V, double *sq);                   \
  void bv_rotate_##sx (int nloc, int ld, int q, int mm, S *W, const S *Z, int ldz, S *tmp);

BV_DECLARE (double, r)
BV_DECLARE (double complex, c)
#undef BV_DECLARE

#endif
