/* jacobian.c: the saddle-point matrix of both static methods, the dense diagnosis of its
   null space (seed 000) and the small helpers fim.c and mkeam.c share. */
#include "statics_impl.h"

#include <float.h>
#include <lapacke.h>
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
  for (long t = 0; t < e->K->nnz; t++)  /* cK K */
    if (!sym || e->K->row[t] >= e->K->col[t])
      PUT (e->K->row[t], e->K->col[t], cK * e->K->val[t]);
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

int statics_null_dofs (const statics_eval *e, int n, int m, double cK, double cM,
                       const double *springs, int *dofs, int *ndofs, mb_err *err)
{
  int N = n + m;
  if (N > STATICS_DENSE_MAX) return -1;
  double *A = mb_calloc ((size_t) N * N, sizeof *A), *w = mb_calloc ((size_t) N, sizeof *w);
  char *picked = mb_calloc ((size_t) n, 1);
  if (!A || !w || !picked) {
    free (A), free (w), free (picked);
    return mb_fail (err, MB_ENOMEM, "out of memory for the null space of the static "
                    "Jacobian (%d x %d dense)", N, N);
  }
  /* the symmetric part of J, column-major, both triangles */
#define AT(i, j) A[(size_t) (j) * N + (i)]
  for (long t = 0; t < e->K->nnz; t++) {
    AT (e->K->row[t], e->K->col[t]) += 0.5 * cK * e->K->val[t];
    AT (e->K->col[t], e->K->row[t]) += 0.5 * cK * e->K->val[t];
  }
  if (cM != 0)
    for (long t = 0; t < e->M->nnz; t++) AT (e->M->row[t], e->M->col[t]) += cM * e->M->val[t];
  if (springs)
    for (int i = 0; i < n; i++) AT (i, i) += springs[i];
  if (e->Cq)
    for (long t = 0; t < e->Cq->nnz; t++) {
      AT (n + e->Cq->row[t], e->Cq->col[t]) += e->Cq->val[t];
      AT (e->Cq->col[t], n + e->Cq->row[t]) += e->Cq->val[t];
    }
  int nnull = 0;
  if (LAPACKE_dsyev (LAPACK_COL_MAJOR, 'V', 'U', N, A, N, w) != 0) nnull = -1;
  double tol = 100.0 * DBL_EPSILON * N * statics_kmax (e, n);
  for (int v = 0; nnull >= 0 && v < N; v++) {
    if (fabs (w[v]) > tol) continue;
    nnull++;
    int best = -1;
    double big = 0;
    for (int i = 0; i < n; i++)
      if (!picked[i] && fabs (AT (i, v)) > big) big = fabs (AT (i, v)), best = i;
    if (best >= 0) picked[best] = 1, dofs[(*ndofs)++] = best;
  }
#undef AT
  free (A), free (w), free (picked);
  return nnull;
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
                    "moving mostly %s; hold %s, or set 'p_f' in the statics section "
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
