/* jacobian.c: the saddle-point matrix of both static methods, its factorization kept
   across iterations (refactorization, seed 000's null pivots) and the small helpers fim.c
   and mkeam.c share. */
#include "statics_impl.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../linalg/factor.h"

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

/* Rank 0. The message of a singular tangent (mkeam: the MKEAM midpoint matrix): the named
   DOFs, and only the remedies that can hold them: 'stability' (sqrt(stability) M) only
   when one of them carries mass (massive = 1). Sets err (MB_ESOLVE). */
static int singular_message (const statics_problem *p, const int *dofs, int ndofs, int nnull,
                             int massive, int mkeam, mb_err *err)
{
  char list[600] = "";
  size_t len = 0;
  for (int i = 0; i < ndofs && len < sizeof list - 80; i++) {
    char name[128];
    p->dof_name (p->ctx, dofs[i], name, sizeof name);
    len += (size_t) snprintf (list + len, sizeof list - len, "%s%s", i ? ", " : "", name);
  }
  if (ndofs < 0 || (ndofs > 0 && len >= sizeof list - 80))
    len += (size_t) snprintf (list + len, sizeof list - len, ", ...");
  const char *what = mkeam ? "the MKEAM midpoint matrix [M + (h/2)^2 K, Cq^T; Cq 0]"
                           : "the static tangent [K Cq^T; Cq 0]";
  const char *fix = mkeam ? "give them mass or stiffness, hold them, or use method fim "
                            "with 'p_f' (e.g. p_f: 1e-8: grounded springs, seed 000)"
                  : massive ? "hold them, or set 'p_f' in the statics section (e.g. p_f: "
                              "1e-8) to add grounded springs there (seed 000), or a larger "
                              "'stability'"
                            : "hold them, or set 'p_f' in the statics section (e.g. p_f: "
                              "1e-8) to add grounded springs there (seed 000); they carry "
                              "no mass, so 'stability' (sqrt(stability) M) cannot hold them";
  if (ndofs != 0)
    return mb_fail (err, MB_ESOLVE, "%s is singular: %d free direction%s (a free body, a "
                    "massless part or a mechanism without stiffness) moving %s; %s", what,
                    nnull, nnull > 1 ? "s" : "", list, fix);
  return mb_fail (err, MB_ESOLVE, "%s is singular (%d null pivot%s: redundant joint rows, "
                  "or a free body or mechanism without stiffness); %s", what, nnull,
                  nnull == 1 ? "" : "s", fix);
}

/* a deterministic value in [-1, 1) for the start vectors (the same on any rank count) */
static double start_value (unsigned long *st)
{
  *st = *st * 6364136223846793005UL + 1442695040888963407UL;
  return (double) (*st >> 11) / 4503599627370496.0 - 1.0;
}

enum { MAXB = 32 };  /* null vectors named by the projector (more: by pivots) */

/* The DOFs that the null space spanned by the b columns of X (N x b, column-major; its
   DOF rows 0 .. n-1) moves: the DOF rows orthonormalised by modified Gram-Schmidt, twice
   (Q), the diagonal of the projector d_i = sum_j Q_ij^2, the DOFs with d_i >= 0.05 max d,
   ascending, into dofs (*ndofs of them). X is overwritten. */
static void projector_dofs (double *X, int n, int N, int b, int *dofs, int *ndofs)
{
  for (int pass = 0; pass < 2; pass++)
    for (int j = 0; j < b; j++) {
      double *q = X + (size_t) j * N;
      for (int l = 0; l < j; l++) {
        const double *ql = X + (size_t) l * N;
        double d = 0;
        for (int i = 0; i < n; i++) d += ql[i] * q[i];
        for (int i = 0; i < n; i++) q[i] -= d * ql[i];
      }
      double s = statics_norm_2 (q, n);
      for (int i = 0; i < n; i++) q[i] = s > 0 ? q[i] / s : 0.0;
    }
  double dmax = 0;
  for (int i = 0; i < n; i++) {
    double d = 0;
    for (int j = 0; j < b; j++) d += X[(size_t) j * N + i] * X[(size_t) j * N + i];
    X[i] = d;  /* column 0 is done with once row i is read: d_i in its place */
    if (d > dmax) dmax = d;
  }
  for (int i = 0; i < n; i++)
    if (dmax > 0 && X[i] >= 0.05 * dmax) dofs[(*ndofs)++] = i;
}

/* MUMPS's count null-pivot rows that are DOFs (< n), ascending, into dofs (*ndofs of
   them); *ndofs negated (a partial list) when count > MAXB. */
static void pivot_dofs (const int *rows, int count, int n, int *dofs, int *ndofs)
{
  for (int i = 0; i < count; i++)
    if (rows[i] < n) dofs[(*ndofs)++] = rows[i];
  for (int i = 1; i < *ndofs; i++)
    for (int j = i; j > 0 && dofs[j - 1] > dofs[j]; j--) {
      int t = dofs[j]; dofs[j] = dofs[j - 1]; dofs[j - 1] = t;
    }
  if (count > MAXB && *ndofs > 0) *ndofs = -*ndofs;
}

/* 1 when one of the nd DOFs has a positive diagonal mass M_ii in e (NULL: 0). */
static int any_massive (const statics_eval *e, const int *dofs, int nd)
{
  int massive = 0;
  if (e && e->M)
    for (long t = 0; t < e->M->nnz; t++)
      if (e->M->row[t] == e->M->col[t] && e->M->val[t] > 0)
        for (int i = 0; i < nd; i++)
          if (dofs[i] == e->M->row[t]) massive = 1;
  return massive;
}

/* Collective. The DOFs a singular J (rank 0's triplets, kind sym) moves, the same on any
   rank count: MUMPS counts its null pivots (factor_deficiency: nnull); then, with
   Jr = J + eps [I 0; 0 0] (eps = 1e-8 max |J_ij|), three steps of inverse
   iteration X <- Jr^-1 X on b = min (nnull, MAXB) deterministic start vectors amplify the
   null space by 1/eps; the DOF rows of X orthonormalised (Q) give the diagonal of the
   projector onto it, d_i = sum_j Q_ij^2, which does not depend on the basis MUMPS would
   pick; DOFs with d_i >= 0.05 max d are named. When Jr is singular too (redundant joint
   rows) or nnull > MAXB, MUMPS's null-pivot rows are named instead. *dofs (rank 0, n) is
   filled, *ndofs set (-1: the list is partial); *massive = 1 when one of them has
   M_ii > 0. Returns 0 or an error on every rank. */
static int null_dofs (MPI_Comm comm, const statics_eval *e, int n, int sym, int N, long nnz,
                      const int *ir, const int *jc, const double *av, int *nnull, int *dofs,
                      int *ndofs, int *massive, mb_err *err)
{
  int rank, rc = 0, count = -1, *rows = NULL;
  MPI_Comm_rank (comm, &rank);
  factor_kind kind = sym ? FACTOR_REAL_SYMMETRIC : FACTOR_REAL_GENERAL;
  MB_TRY (factor_deficiency (comm, kind, rank == 0 ? N : 0, nnz, ir, jc, av, "static Jacobian",
                             &count, &rows, err));
  *nnull = count > 0 ? count : 1;
  *ndofs = 0, *massive = 0;
  int b = count < 1 ? 1 : count, ok = b <= MAXB;
  int *jr = NULL, *jj = NULL;
  double *ar = NULL, *X = NULL;
  long nr = nnz + n;
  if (rank == 0 && ok) {
    jr = mb_calloc ((size_t) nr, sizeof *jr), jj = mb_calloc ((size_t) nr, sizeof *jj);
    ar = mb_calloc ((size_t) nr, sizeof *ar), X = mb_calloc ((size_t) N * b, sizeof *X);
    if (!jr || !jj || !ar || !X) rc = mb_fail (err, MB_ENOMEM, "out of memory naming the "
                                               "free DOFs of the static Jacobian");
    else {
      double amax = 0;
      for (long t = 0; t < nnz; t++) {
        jr[t] = ir[t], jj[t] = jc[t], ar[t] = av[t];
        if (fabs (av[t]) > amax) amax = fabs (av[t]);
      }
      double eps = amax > 0 ? 1e-8 * amax : 1.0;
      for (int i = 0; i < n; i++) jr[nnz + i] = i, jj[nnz + i] = i, ar[nnz + i] = eps;
      unsigned long st = 12345;
      for (long t = 0; t < (long) N * b; t++) X[t] = start_value (&st);
    }
  }
  MPI_Bcast (&ok, 1, MPI_INT, 0, comm);
  rc = mb_agree (comm, rc, err);
  factor *f = NULL;
  if (rc == 0 && ok) {
    mb_err e2;
    mb_err_init (&e2);
    f = factor_create (comm, kind, rank == 0 ? N : 0, nr, jr, jj, ar, "regularised static "
                       "Jacobian", &e2);
    if (!f && e2.code == MB_ENOMEM) rc = (*err = e2, MB_ENOMEM);
    ok = f != NULL;
  }
  for (int it = 0; it < 3 && f && rc == 0; it++) {
    rc = factor_solve_many (f, rank == 0 ? X : NULL, b, err);
    if (rc == 0 && rank == 0)  /* scale each column to max 1 against overflow */
      for (int j = 0; j < b; j++) {
        double s = statics_norm_inf (X + (size_t) j * N, N);
        if (s > 0 && isfinite (s))
          for (int i = 0; i < N; i++) X[(size_t) j * N + i] /= s;
      }
  }
  factor_free (f);
  if (rank == 0 && rc == 0) {
    if (ok) projector_dofs (X, n, N, b, dofs, ndofs);
    else pivot_dofs (rows, count, n, dofs, ndofs);
    *massive = any_massive (e, dofs, *ndofs < 0 ? -*ndofs : *ndofs);
  }
  free (rows), free (jr), free (jj), free (ar), free (X);
  return mb_agree (comm, rc, err);
}

int statics_singular (MPI_Comm comm, const statics_problem *p, const statics_eval *e, int sym,
                      int N, long nnz, const int *ir, const int *jc, const double *av,
                      double p_f, int mkeam, mb_err *err)
{
  int rank, rc, n = N, nnull = 0, ndofs = 0, massive = 0, *dofs = NULL;
  MPI_Comm_rank (comm, &rank);
  if (rank == 0) n = p->n;
  MPI_Bcast (&n, 1, MPI_INT, 0, comm);
  rc = 0;
  if (rank == 0 && !(dofs = mb_calloc ((size_t) n + 1, sizeof *dofs)))
    rc = mb_fail (err, MB_ENOMEM, "out of memory naming the free DOFs of the static Jacobian");
  rc = mb_agree (comm, rc, err);
  if (rc == 0)
    rc = null_dofs (comm, e, n, sym, N, nnz, ir, jc, av, &nnull, dofs, &ndofs, &massive, err);
  if (rc == 0 && rank == 0) {
    int nd = ndofs < 0 ? -ndofs : ndofs;
    if (p_f > 0 && !mkeam)
      rc = mb_fail (err, MB_ESOLVE, "the static tangent stays singular with p_f = %g "
                    "(%d null pivot%s)", p_f, nnull, nnull > 1 ? "s" : "");
    else rc = singular_message (p, dofs, ndofs < 0 ? -1 : nd, nnull, massive, mkeam, err);
    (void) nd;
  }
  free (dofs);
  if (rc == 0) rc = mb_fail (err, MB_ESOLVE, "the static tangent is singular");
  return mb_agree (comm, rc, err);
}

void statics_tolerance_words (const statics_result *res, const statics_opts *par, char *buf,
                              size_t size)
{
  if (par->imbalance_given) snprintf (buf, size, "max_imbalance, absolute");
  else if (res->scale_from && res->tolerance > par->max_imbalance)
    snprintf (buf, size, "%g x the load scale %.4g, the largest %s", STATICS_REL_IMBALANCE,
              res->load_scale, res->scale_from);
  else snprintf (buf, size, "max_imbalance %g, the floor of %g x the load scale %.4g",
                 par->max_imbalance, STATICS_REL_IMBALANCE, res->load_scale);
}

const char *statics_stop_name (statics_stop stop)
{
  switch (stop) {
  case STATICS_STOP_CONVERGED: return "converged";
  case STATICS_STOP_MAX_ITER: return "max_num_iter";
  case STATICS_STOP_STAGNATED: return "stagnated";
  case STATICS_STOP_ROUNDOFF: return "round-off";
  case STATICS_STOP_DIVERGED: return "diverged";
  case STATICS_STOP_UNSTABLE: return "unstable rest";
  default: return "failed";
  }
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

int statics_bordered_solve (MPI_Comm comm, const statics_eval *e, int go, int n, int m,
                            double *ones, double *x, mb_err *err)
{
  int rank, rc = 0;
  MPI_Comm_rank (comm, &rank);
  long nnz = 0;
  int *ir = NULL, *jc = NULL;
  double *av = NULL;
  if (rank == 0 && go) {
    for (int i = 0; i < n; i++) ones[i] = 1.0;
    rc = statics_jacobian (e, n, m, 0.0, 0.0, ones, 1, &nnz, &ir, &jc, &av, err);
  }
  rc = mb_agree (comm, rc, err);
  MPI_Bcast (&go, 1, MPI_INT, 0, comm);
  if (rc < 0 || !go) {
    free (ir), free (jc), free (av);
    return rc < 0 ? rc : 1;
  }
  mb_err e2;
  mb_err_init (&e2);
  factor *f = factor_create (comm, FACTOR_REAL_SYMMETRIC, rank == 0 ? n + m : 0, nnz, ir, jc,
                             av, "[I Cq^T; Cq 0]", &e2);
  free (ir), free (jc), free (av);
  if (!f) return e2.code == MB_ENOMEM ? (*err = e2, MB_ENOMEM) : 1;
  rc = factor_solve (f, rank == 0 ? x : NULL, err);
  factor_free (f);
  return rc;
}
