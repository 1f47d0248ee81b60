/* jacobian.c: the saddle-point matrix of both static methods, its factorization kept
   across iterations (refactorization, seed 000's null pivots) and the small helpers fim.c
   and mkeam.c share. */
#include "statics_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* appends (i, j, v) to the triplet arrays (room checked by the caller) */
#define PUT(i_, j_, v_) do { (*ir)[k] = (i_); (*jc)[k] = (j_); (*a)[k] = (v_); k++; } while (0)

int statics_jacobian (const statics_eval *e, int n, int m, double cK, double cM,
                      const double *springs, int sym, long *nnz, int **ir, int **jc,
                      double **a, mb_err *err)
{
  long cap = e->K->nnz + (cM != 0 ? e->M->nnz : 0) + n + 2 * (e->Cq ? e->Cq->nnz : 0);
  *ir = mb_calloc ((size_t) cap, sizeof **ir);
  *jc = mb_calloc ((size_t) cap, sizeof **jc);
  *a = mb_calloc ((size_t) cap, sizeof **a);
  if (!*ir || !*jc || !*a || mb_fault ("statics")) {
    free (*ir), free (*jc), free (*a);
    *ir = *jc = NULL, *a = NULL;
    return mb_fail (err, MB_ENOMEM, "out of memory for the static Jacobian (%ld entries)",
                    cap);
  }
  long k = 0;
  for (long t = 0; t < e->K->nnz; t++) {  /* cK K */
    int i = e->K->row[t], j = e->K->col[t];
    if (sym == 2)  /* the symmetric part (K + K^T) / 2, lower triangle; MUMPS sums */
      PUT (i > j ? i : j, i > j ? j : i, (i == j ? 1.0 : 0.5) * cK * e->K->val[t]);
    else if (!sym || i >= j) PUT (i, j, cK * e->K->val[t]);
  }
  if (cM != 0)  /* + cM M */
    for (long t = 0; t < e->M->nnz; t++)
      if (!sym || e->M->row[t] >= e->M->col[t])
        PUT (e->M->row[t], e->M->col[t], cM * e->M->val[t]);
  for (int i = 0; i < n; i++)  /* the diagonal always in the pattern, + springs */
    PUT (i, i, springs ? springs[i] : 0.0);
  if (e->Cq)
    for (long t = 0; t < e->Cq->nnz; t++) {
      PUT (n + e->Cq->row[t], e->Cq->col[t], e->Cq->val[t]);  /* Cq, lower block */
      if (!sym) PUT (e->Cq->col[t], n + e->Cq->row[t], e->Cq->val[t]);  /* Cq^T */
    }
  (void) m;
  *nnz = k;
  return 0;
}

double statics_kmax (const statics_eval *e, int n)
{
  double kmax = 0;
  for (long t = 0; t < e->K->nnz; t++)
    if (e->K->row[t] == e->K->col[t] && fabs (e->K->val[t]) > kmax)
      kmax = fabs (e->K->val[t]);
  (void) n;
  return kmax > 0 ? kmax : 1.0;
}

double statics_norm_inf (const double *x, int n)
{
  double s = 0;
  for (int i = 0; i < n; i++)
    if (!(fabs (x[i]) <= s)) s = fabs (x[i]);  /* NaN propagates */
  return s;
}

double statics_norm_2 (const double *x, int n)
{
  double s = 0;
  for (int i = 0; i < n; i++) s += x[i] * x[i];
  return sqrt (s);
}

void statics_residual (const statics_eval *e, int n, int m, const double *gamma, double *F)
{
  memcpy (F, e->r, (size_t) n * sizeof *F);
  if (e->Cq && m > 0)
    for (long t = 0; t < e->Cq->nnz; t++)
      F[e->Cq->col[t]] += e->Cq->val[t] * gamma[e->Cq->row[t]];
}

int statics_push (statics_result *res, const statics_iter *it, mb_err *err)
{
  statics_iter *h = realloc (res->hist, (size_t) (res->nhist + 1) * sizeof *h);
  if (!h) return mb_fail (err, MB_ENOMEM, "out of memory for the static history");
  res->hist = h;
  res->hist[res->nhist++] = *it;
  return 0;
}

int statics_singular_error (const statics_problem *p, const int *dofs, int ndofs, int nnull,
                            mb_err *err)
{
  char list[600] = "";
  size_t len = 0;
  for (int i = 0; i < ndofs && len < sizeof list - 80; i++) {
    char name[128];
    p->dof_name (p->ctx, dofs[i], name, sizeof name);
    len += (size_t) snprintf (list + len, sizeof list - len, "%s%s", i ? ", " : "", name);
  }
  if (ndofs > 0)
    return mb_fail (err, MB_ESOLVE, "the static tangent [K Cq^T; Cq 0] is singular: %d "
                    "free direction%s (a free body or a mechanism without stiffness), "
                    "null pivots at %s; hold %s, or set 'p_f' in the statics section "
                    "(e.g. p_f: 1e-8) to add grounded springs there (seed 000), or a "
                    "larger 'stability'", nnull, nnull > 1 ? "s" : "", list,
                    nnull > 1 ? "them" : "it");
  return mb_fail (err, MB_ESOLVE, "the static tangent [K Cq^T; Cq 0] is singular (a free "
                  "body or a mechanism without stiffness; the model is too large to name its "
                  "free DOFs); set 'p_f' in the statics section (e.g. p_f: 1e-8) or a "
                  "larger 'stability'");
}

int statics_is_singular (const mb_err *err)
{
  return err->code == MB_ESOLVE && strstr (err->msg, "singular") != NULL;
}

void statics_result_clear (statics_result *res)
{
  if (!res) return;
  free (res->hist);
  free (res->gamma);
  memset (res, 0, sizeof *res);
}

int statics_lin_factor (MPI_Comm comm, statics_lin *L, int sym, int N, long nnz,
                        const int *ir, const int *jc, const double *a, double p_f,
                        const char *name, mb_err *err)
{
  int rank, same = 0, rc = 0;
  MPI_Comm_rank (comm, &rank);
  if (rank == 0 && L->f)
    same = L->sym == sym && L->nnz == nnz && !memcmp (L->ir, ir, (size_t) nnz * sizeof *ir)
           && !memcmp (L->jc, jc, (size_t) nnz * sizeof *jc);
  MPI_Bcast (&same, 1, MPI_INT, 0, comm);
  if (same) {
    rc = factor_refactor (L->f, rank == 0 ? a : NULL, err);
    if (rc == 0) L->factorizations++;
    return rc;
  }
  L->f = factor_free (L->f);
  free (L->ir), free (L->jc);
  L->ir = L->jc = NULL;
  if (rank == 0) {
    L->ir = mb_calloc ((size_t) nnz + 1, sizeof *L->ir);
    L->jc = mb_calloc ((size_t) nnz + 1, sizeof *L->jc);
    if (!L->ir || !L->jc) rc = mb_fail (err, MB_ENOMEM, "out of memory for the pattern of %s",
                                        name);
    else {
      memcpy (L->ir, ir, (size_t) nnz * sizeof *ir);
      memcpy (L->jc, jc, (size_t) nnz * sizeof *jc);
    }
  }
  MB_TRY (mb_agree (comm, rc, err));
  factor_opts o;
  factor_opts_default (&o);
  if (p_f > 0) {
    o.null_pivots = 1;
    o.null_threshold = factor_null_threshold (N);
    o.null_fixation = p_f;
  }
  L->f = factor_create_opts (comm, sym ? FACTOR_REAL_SYMMETRIC : FACTOR_REAL_GENERAL,
                             rank == 0 ? N : 0, nnz, ir, jc, a, name, &o, err);
  if (!L->f) return err->code;
  L->sym = sym;
  L->nnz = nnz;
  L->analyses++, L->factorizations++;
  return 0;
}

void statics_lin_clear (statics_lin *L)
{
  L->f = factor_free (L->f);
  free (L->ir), free (L->jc);
  memset (L, 0, sizeof *L);
}
