/* ds.h: the projected (dense) problem of Krylov-Schur (SLEPc's DS): the sorted Schur form
   and its 2x2 blocks, eigenvalues and eigenvectors of the Schur form, the Ritz residual
   estimates, and the dense eigenproblem of a small operator, in real (_r) and complex (_c)
   arithmetic, written once (ds_impl.h). Sequential: the caller runs them on one rank and
   broadcasts. Column-major arrays, all owned by the caller. */
#ifndef MB_DS_H
#define MB_DS_H

#include <complex.h>
#include <lapacke.h>

/* Status of the functions below when their own workspace could not be allocated:
   LAPACKE's code for the same event, so that one test tells out of memory from a LAPACK
   failure (LAPACK's own info is >= -20 or positive). */
#define DS_NOMEM LAPACK_WORK_MEMORY_ERROR

/* For each arithmetic (suffix _r: double, _c: double complex; S the scalar):

   ds_block (mm, T, ld, i) -> the size (1 or 2) of the diagonal block of the quasi-triangular
     T (mm x mm) at i: 2 where a real Schur form holds a complex pair, always 1 in complex.
   ds_diag_mu (mm, T, ld, i) -> the eigenvalue at position i of the (standardized) Schur
     form: for a 2x2 block [a b; c a] (b c < 0) a + i sqrt(-b c) at i, its conjugate at i+1.
   ds_schur_sorted (mm, T, ld, Z) -> 0, the LAPACK info or DS_NOMEM (also when mb_fault
     ("schur") asks for it): T := Z^H T Z, the Schur form (gees) with its blocks sorted by
     decreasing |mu| (trexc; complex ties: positive imaginary part first), Z the Schur
     vectors (ld).
   ds_eigvecs (p, T, ld, Y) -> 0, the LAPACK info or DS_NOMEM: Y (p x p, complex) = the
     eigenvectors of the Schur form T (trevc), a real pair's as conjugate columns.
   ds_ritz_residuals (mm, T, ld, nb, Bm, mu_max, Y, rel) -> 0 or the LAPACK info: rel[i] =
     |Bm y_i| / (|y_i| max(|mu_i|, 1e-12 mu_max)), y_i the eigenvectors of the sorted
     Schur form T (into Y, mm x mm), Bm the nb x mm residual block (ld nb).
   ds_dense_eig (n, A, mu, X) -> LAPACK's info or DS_NOMEM: all eigenpairs of the n x n A
     (overwritten; geev): mu (n) and unit eigenvectors X (n x n, complex; a real pair's
     columns are conjugates).
   ds_dense_resid (n, p, A0, X, mu, r, work): r[k] = ||A0 x_k - mu_k x_k||_2 for the p
     columns of X (n x p complex) by matrix products; work: 4 n p doubles. */
#define DS_DECLARE(S, sx)                                                                    \
  int ds_block_##sx (int mm, const S *T, int ld, int i);                                     \
  double complex ds_diag_mu_##sx (int mm, const S *T, int ld, int i);                        \
  int ds_schur_sorted_##sx (int mm, S *T, int ld, S *Z);                                     \
  int ds_eigvecs_##sx (int p, const S *T, int ld, double complex *Y);                        \
  int ds_ritz_residuals_##sx (int mm, const S *T, int ld, int nb, const S *Bm,               \
                              double mu_max, double complex *Y, double *rel);                \
  int ds_dense_eig_##sx (int n, S *A, double complex *mu, double complex *X);                \
  void ds_dense_resid_##sx (int n, int p, const S *A0, const double complex *X,              \
                            const double complex *mu, double *r, double *work);

DS_DECLARE (double, r)
DS_DECLARE (double complex, c)
#undef DS_DECLARE

#endif
