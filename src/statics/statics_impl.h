/* statics_impl.h: internal to src/statics: the saddle-point matrix both methods factor,
   its singularity diagnosis (seed 000) and small vector helpers. Not for other modules. */
#ifndef MB_STATICS_IMPL_H
#define MB_STATICS_IMPL_H

#include "statics.h"

/* Triplets (0-based) of J = [cK K + cM M + diag(springs), Cq^T; Cq, 0], order n + m, from
   e: the lower triangle (i >= j) when sym = 1 (MUMPS LDL^T), all entries when sym = 0.
   springs: n grounded spring stiffnesses or NULL. New arrays in *ir, *jc, *a (caller
   frees); returns 0 or MB_ENOMEM. */
int statics_jacobian (const statics_eval *e, int n, int m, double cK, double cM,
                      const double *springs, int sym, long *nnz, int **ir, int **jc,
                      double **a, mb_err *err);

/* Rank 0. The null space of the same J, dense (LAPACK dsyev on the symmetric part), for
   n + m <= STATICS_DENSE_MAX: eigenvalues |lambda| <= eps k_max with eps = 100
   DBL_EPSILON (n + m) and k_max = max |K_jj| (seed 000). For each null vector, the DOF with
   its largest q-component not already picked goes to dofs[*ndofs++] (dofs has room for
   n). Returns the number of null vectors found (0: none; -1: too large to tell; MB_ENOMEM
   as a negative code below -1). */
enum { STATICS_DENSE_MAX = 2500 };
int statics_null_dofs (const statics_eval *e, int n, int m, double cK, double cM,
                       const double *springs, int *dofs, int *ndofs, mb_err *err);

/* max |K_jj| over the diagonal of e->K (1 when K has no diagonal above 0) */
double statics_kmax (const statics_eval *e, int n);

/* ||x||_inf and ||x||_2 of n entries */
double statics_norm_inf (const double *x, int n);
double statics_norm_2 (const double *x, int n);

/* F = r + Cq^T gamma (n) */
void statics_residual (const statics_eval *e, int n, int m, const double *gamma, double *F);

/* Appends a history line to res (grows it); returns 0 or MB_ENOMEM. */
int statics_push (statics_result *res, const statics_iter *it, mb_err *err);

/* Rank 0: the message of a singular tangent: the DOFs of its null space named through
   p->dof_name, and the parameter that fixes it. Sets err (MB_ESOLVE). */
int statics_singular_error (const statics_problem *p, const int *dofs, int ndofs,
                            int nnull, mb_err *err);

/* 1 when err holds a MUMPS "singular" failure (INFOG(1) = -6 or -10) */
int statics_is_singular (const mb_err *err);

#endif
