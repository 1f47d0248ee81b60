/* statics_impl.h: internal to src/statics: the saddle-point matrix both methods factor,
   its factorization kept across iterations, and small vector helpers. Not for other
   modules. */
#ifndef MB_STATICS_IMPL_H
#define MB_STATICS_IMPL_H

#include "statics.h"

/* Triplets (0-based) of J = [cK K + cM M + diag(springs), Cq^T; Cq, 0], order n + m, from
   e: the lower triangle (i >= j) when sym = 1 (MUMPS LDL^T), all entries when sym = 0;
   sym = 2: the lower triangle of J with K replaced by its symmetric part (K + K^T) / 2
   (duplicates, summed by MUMPS).
   springs: n grounded spring stiffnesses or NULL. New arrays in *ir, *jc, *a (caller
   frees); returns 0 or MB_ENOMEM. */
int statics_jacobian (const statics_eval *e, int n, int m, double cK, double cM,
                      const double *springs, int sym, long *nnz, int **ir, int **jc,
                      double **a, mb_err *err);

/* A factored saddle-point matrix kept across iterations: the same pattern is refactored
   on MUMPS's first analysis (factor_refactor), a new pattern or kind analysed again. */
#include "../linalg/factor.h"
typedef struct statics_lin {
  factor *f;          /* NULL before the first factorization */
  int sym;            /* kind of f: 1 LDL^T, 0 LU */
  long nnz;           /* rank 0: triplets of f's pattern */
  int *ir, *jc;       /* rank 0: f's pattern, to recognise it */
  int analyses, factorizations;  /* counts for the log */
} statics_lin;

/* Collective. Factors the order-N matrix of triplets (ir, jc, a) given on rank 0 (borrowed):
   a refactorization when the kind and pattern are those of L->f, else a new factor (the
   old one freed). p_f > 0: null-pivot detection at seed 000's threshold 100 DBL_EPSILON N
   (CNTL(3)) with the fixation p_f (CNTL(5)): null pivots become grounded springs.
   Returns 0 or the factor's error (MB_ESOLVE "singular", MB_ENOMEM) on every rank. */
int statics_lin_factor (MPI_Comm comm, statics_lin *L, int sym, int N, long nnz,
                        const int *ir, const int *jc, const double *a, double p_f,
                        const char *name, mb_err *err);

/* Collective. Frees L's factor and pattern. */
void statics_lin_clear (statics_lin *L);

/* max |K_jj| over the diagonal of e->K (1 when K has no diagonal above 0) */
double statics_kmax (const statics_eval *e, int n);

/* ||x||_inf and ||x||_2 of n entries */
double statics_norm_inf (const double *x, int n);

/* Collective. Solves [I Cq^T; Cq 0] z = x in place (order n + m; x and e, Cq at the
   current state, are rank 0's; go: rank 0's wish to solve, taken from rank 0) with MUMPS's
   LDL^T: with x = [a; b], z = [y; mu] holds Cq Cq^T mu = Cq a - b and y = a - Cq^T mu (the
   least-norm and least-squares steps of both methods). ones: n doubles of work (left at
   1). Returns 0 when solved, 1 when not (go was 0, or Cq Cq^T is singular: redundant
   rows), or an error, the same on every rank. */
int statics_bordered_solve (MPI_Comm comm, const statics_eval *e, int go, int n, int m,
                            double *ones, double *x, mb_err *err);
double statics_norm_2 (const double *x, int n);

/* F = r + Cq^T gamma (n) */
void statics_residual (const statics_eval *e, int n, int m, const double *gamma, double *F);

/* Appends a history line to res (grows it); returns 0 or MB_ENOMEM. */
int statics_push (statics_result *res, const statics_iter *it, mb_err *err);

/* Collective, after MUMPS found J (rank 0's triplets of the kind sym: 1 LDL^T, 0 LU;
   e: rank 0's evaluation, NULL elsewhere) singular: the error (MB_ESOLVE) naming the DOFs
   its null space moves (the same on any rank count: the diagonal of the projector onto the
   null space from inverse iteration) and the remedies that can hold them (mkeam: for the
   MKEAM midpoint matrix; with p_f > 0 the tangent stays singular with p_f). Returns the
   error (or MB_ENOMEM) on every rank. */
int statics_singular (MPI_Comm comm, const statics_problem *p, const statics_eval *e, int sym,
                      int N, long nnz, const int *ir, const int *jc, const double *av,
                      double p_f, int mkeam, mb_err *err);

/* 1 when err holds a MUMPS "singular" failure (INFOG(1) = -6 or -10) */
int statics_is_singular (const mb_err *err);

#endif
