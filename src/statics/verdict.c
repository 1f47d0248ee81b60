/* verdict.c: the stability verdict of a static equilibrium: how many modes of the
   undamped linearization about it are unstable, counted as the modal stage counts them. */
#include "statics_impl.h"

#include <complex.h>
#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../linalg/factor.h"

/* The modal stage's rounding floor for a rigid-body mode (modes_rigid_threshold, undamped:
   RIGID_RTOL max|K| / max|M| in src/eigen/modes.c; the static stage comes before the eigen
   stage and does not include it, so the constant is repeated here and must stay equal). */
#define VERDICT_RIGID_RTOL 1e-12
/* A complex eigenvalue: |Im lambda| > VERDICT_COMPLEX_RTOL |lambda| (modes.c's test). */
#define VERDICT_COMPLEX_RTOL 1e-8
/* A damped root is unstable when Re s > VERDICT_DAMPED_RTOL |s| (modes.c's test). */
#define VERDICT_DAMPED_RTOL 1e-10
/* Eigenvalues above VERDICT_INFINITE max|K| / max|M| are infinite (massless DOFs). */
#define VERDICT_INFINITE 1e12
/* Singular values of Cq below VERDICT_RANK_RTOL sigma_max are zero (redundant rows). */
#define VERDICT_RANK_RTOL 1e-10

/* Reference BLAS (Fortran calling convention), provided by OpenBLAS as in blas.c. */
void dgemm_ (const char *ta, const char *tb, const int *m, const int *n, const int *k,
             const double *alpha, const double *a, const int *lda, const double *b,
             const int *ldb, const double *beta, double *c, const int *ldc);

/* tau = VERDICT_RIGID_RTOL max|K| / max|M| (max|K| alone when M = 0), as the modal stage;
   VERDICT_RIGID_RTOL itself when K = 0 (a free body without springs: every eigenvalue is
   0, rigid, and K + tau M must not be singular for it). */
static double rigid_floor (const statics_eval *e)
{
  double kmax = spm_max_abs (e->K), mmax = spm_max_abs (e->M);
  double ratio = mmax > 0.0 ? kmax / mmax : kmax;
  return VERDICT_RIGID_RTOL * (ratio > 0.0 ? ratio : 1.0);
}

/* Collective (rank 0 gives e). Symmetric K and M: the count of eigenvalues of (K, M) on the
   manifold below -tau, from the inertia of [K + tau M, Cq^T; Cq, 0] (its LDL^T negative
   pivots minus m). *count = -1 when the matrix is singular (a neutral mode at -tau or
   redundant constraint rows) or MUMPS gives no inertia. Returns 0 or MB_ENOMEM. */
static int count_symmetric (MPI_Comm comm, const statics_eval *e, int n, int m, int *count,
                            mb_err *err)
{
  int rank, rc = 0;
  MPI_Comm_rank (comm, &rank);
  long nnz = 0;
  int *ir = NULL, *jc = NULL;
  double *av = NULL;
  if (rank == 0)
    rc = statics_jacobian (e, n, m, 1.0, rigid_floor (e), NULL, 2, &nnz, &ir, &jc, &av, err);
  rc = mb_agree (comm, rc, err);
  *count = -1;
  if (rc == 0) {
    mb_err e2;
    mb_err_init (&e2);
    factor *f = factor_create (comm, FACTOR_REAL_SYMMETRIC, rank == 0 ? n + m : 0, nnz, ir,
                               jc, av, "tangent at the equilibrium [K + tau M, Cq^T; Cq, 0]",
                               &e2);
    if (f) {
      factor_stats st;
      factor_get_stats (f, &st);
      if (st.negative_pivots >= m) *count = (int) (st.negative_pivots - m);
      factor_free (f);
    } else if (e2.code == MB_ENOMEM) rc = (*err = e2, MB_ENOMEM);
  }
  free (ir), free (jc), free (av);
  return rc;
}

/* Rank 0. out (k x k) = Z^T S Z for sparse S (n x n) and dense Z (n x k, column-major);
   T: n x k work. T = S Z by the entries of S, then out = Z^T T by dgemm. */
static void project (const spm *S, const double *Z, int n, int k, double *T, double *out)
{
  memset (T, 0, (size_t) n * k * sizeof *T);
  for (long t = 0; t < S->nnz; t++) {
    int i = S->row[t], j = S->col[t];
    double v = S->val[t];
    for (int c = 0; c < k; c++) T[(size_t) c * n + i] += v * Z[(size_t) c * n + j];
  }
  double one = 1.0, zero = 0.0;
  if (k > 0) dgemm_ ("T", "N", &k, &k, &n, &one, Z, &n, T, &n, &zero, out, &k);
}

/* Rank 0. Z (n x n, column-major, zeroed): its first *k columns an orthonormal basis of
   the null space of e->Cq (m x n): the last n - rank rows of V^T of Cq's SVD (LAPACK
   dgesvd; rank: the singular values above VERDICT_RANK_RTOL times the largest); Z = I
   (*k = n) when m = 0. T (n x n) is work. Returns 0, 1 when the SVD failed (note says so)
   or MB_ENOMEM. */
static int manifold_basis (const statics_eval *e, int n, int m, double *Z, double *T, int *k,
                           char *note, size_t nsize, mb_err *err)
{
  *k = n;
  if (m == 0) {
    for (int i = 0; i < n; i++) Z[(size_t) i * n + i] = 1.0;
    return 0;
  }
  int mn = m < n ? m : n, rc = 0;
  double *C = mb_calloc ((size_t) m * n, sizeof *C);
  double *VT = mb_calloc ((size_t) n * n, sizeof *VT);
  double *S = mb_calloc ((size_t) mn + 1, sizeof *S);
  double *sup = T;  /* min(m, n) - 1 doubles of dgesvd's superb */
  if (!C || !VT || !S) {
    rc = mb_fail (err, MB_ENOMEM, "out of memory for the stability verdict (n = %d)", n);
    goto done;
  }
  for (long t = 0; t < e->Cq->nnz; t++)
    C[(size_t) e->Cq->col[t] * m + e->Cq->row[t]] += e->Cq->val[t];
  if (LAPACKE_dgesvd (LAPACK_COL_MAJOR, 'N', 'A', m, n, C, m, S, NULL, 1, VT, n, sup) != 0) {
    snprintf (note, nsize, "the SVD of the constraint Jacobian failed");
    rc = 1;
    goto done;
  }
  int r = 0;
  while (r < mn && S[r] > VERDICT_RANK_RTOL * S[0]) r++;
  *k = n - r;
  for (int c = 0; c < *k; c++)  /* Z(:, c) = VT(r + c, :)^T */
    for (int i = 0; i < n; i++) Z[(size_t) c * n + i] = VT[(size_t) i * n + r + c];
done:
  free (C), free (VT), free (S);
  return rc;
}

/* The companion pencil of det(s^2 Mr + s Rr + Kr) = 0 (k x k, column-major):
   A = [0 I; -Kr -Rr], B = [I 0; 0 Mr], column-major, order N = 2k, into zeroed A, B. */
static void companion (const double *Kr, const double *Rr, const double *Mr, int k,
                       double *A, double *B)
{
  int N = 2 * k;
  for (int i = 0; i < k; i++) {
    A[(size_t) (k + i) * N + i] = 1.0;
    B[(size_t) i * N + i] = 1.0;
    for (int j = 0; j < k; j++) {
      A[(size_t) j * N + k + i] = -Kr[(size_t) j * k + i];
      A[(size_t) (k + j) * N + k + i] = -Rr[(size_t) j * k + i];
      B[(size_t) (k + j) * N + k + i] = Mr[(size_t) j * k + i];
    }
  }
}

/* The count of the N eigenvalues l = (ar + i ai) / be that are finite (be != 0 and
   |l| <= big), not rigid (|l| > tau) and unstable: Re l > VERDICT_DAMPED_RTOL |l| for the
   damped roots s, else Re l < 0 or |Im l| > VERDICT_COMPLEX_RTOL |l|. */
static int count_unstable (const double *ar, const double *ai, const double *be, int N,
                           double tau, double big, int damped)
{
  int c = 0;
  for (int i = 0; i < N; i++) {
    if (!(fabs (be[i]) > 0.0)) continue;  /* infinite */
    double complex l = (ar[i] + I * ai[i]) / be[i];
    double a = cabs (l);
    if (!(a <= big) || a <= tau) continue;  /* infinite, or rigid */
    if (damped ? creal (l) > VERDICT_DAMPED_RTOL * a
        : creal (l) < 0.0 || fabs (cimag (l)) > VERDICT_COMPLEX_RTOL * a)
      c++;
  }
  return c;
}

/* Rank 0. Non-symmetric K: Z = an orthonormal basis of the null space of Cq
   (manifold_basis), Kr = Z^T K Z, Mr = Z^T M Z, and
   without damping the generalized eigenvalues lambda = alpha / beta of (Kr, Mr) (dggev):
   the count of those that are finite (|lambda| <= big = VERDICT_INFINITE max|K| / max|M|),
   not rigid (|lambda| > tau) and unstable (Re lambda < 0 or |Im lambda| >
   VERDICT_COMPLEX_RTOL |lambda|). With damping (R with a non-zero entry; *damped = 1),
   Rr = Z^T R Z and the roots s of det(s^2 Mr + s Rr + Kr) = 0, the eigenvalues of the
   companion pencil ([0 I; -Kr -Rr], [I 0; 0 Mr]) (x = [y; s y]): the count of those finite
   (|s| <= sqrt(big)), not rigid (|s| > sqrt(tau), the damped stage's floor) and unstable
   (Re s > VERDICT_DAMPED_RTOL |s|). *count = -1 and note says why when LAPACK fails or the
   damped problem is too large. Returns 0 or MB_ENOMEM. */
static int count_general (const statics_eval *e, int n, int m, int *count, int *damped,
                          char *note, size_t nsize, mb_err *err)
{
  double *Z = NULL, *T = NULL, *Kr = NULL, *Mr = NULL;
  double *Rr = NULL, *A = NULL, *B = NULL, *ar = NULL, *ai = NULL, *be = NULL;
  int rc = 0, k = n;
  *count = -1;
  *damped = e->R && spm_max_abs (e->R) > 0.0;
  if (*damped && n > STATICS_VERDICT_DAMPED_MAX) {
    snprintf (note, nsize, "the tangent is non-symmetric, the model has damping and more "
              "than %d DOFs: the complex stage's kinds tell", STATICS_VERDICT_DAMPED_MAX);
    return 0;
  }
  size_t nn = (size_t) n * n;
  Z = mb_calloc (nn + 1, sizeof *Z);
  T = mb_calloc (nn + 1, sizeof *T);
  if (!Z || !T) goto nomem;
  rc = manifold_basis (e, n, m, Z, T, &k, note, nsize, err);
  if (rc != 0) {  /* 1: the SVD failed, no verdict */
    rc = rc < 0 ? rc : 0;
    goto done;
  }
  if (k == 0) {  /* nothing can move */
    *count = 0;
    goto done;
  }
  int N = *damped ? 2 * k : k;  /* order of the pencil (A, B) */
  size_t kk = (size_t) k * k;
  Kr = mb_calloc (kk, sizeof *Kr);
  Mr = mb_calloc (kk, sizeof *Mr);
  Rr = *damped ? mb_calloc (kk, sizeof *Rr) : NULL;
  A = *damped ? mb_calloc ((size_t) N * N, sizeof *A) : Kr;
  B = *damped ? mb_calloc ((size_t) N * N, sizeof *B) : Mr;
  ar = mb_calloc ((size_t) N, sizeof *ar);
  ai = mb_calloc ((size_t) N, sizeof *ai);
  be = mb_calloc ((size_t) N, sizeof *be);
  if (!Kr || !Mr || (*damped && !Rr) || !A || !B || !ar || !ai || !be) goto nomem;
  project (e->K, Z, n, k, T, Kr);
  project (e->M, Z, n, k, T, Mr);
  if (*damped) {
    project (e->R, Z, n, k, T, Rr);
    companion (Kr, Rr, Mr, k, A, B);
  }
  if (LAPACKE_dggev (LAPACK_COL_MAJOR, 'N', 'N', N, A, N, B, N, ar, ai, be, NULL, 1, NULL,
                     1) != 0) {
    snprintf (note, nsize, "LAPACK dggev failed on the tangent on the constraint manifold");
    goto done;
  }
  double kmax = spm_max_abs (e->K), mmax = spm_max_abs (e->M);
  double tau = rigid_floor (e), big = VERDICT_INFINITE * (mmax > 0.0 ? kmax / mmax : kmax);
  if (*damped) tau = sqrt (tau), big = sqrt (big);
  *count = count_unstable (ar, ai, be, N, tau, big, *damped);
  goto done;
nomem:
  rc = mb_fail (err, MB_ENOMEM, "out of memory for the stability verdict (n = %d)", n);
done:
  if (A != Kr) free (A);
  if (B != Mr) free (B);
  free (Z), free (T), free (Kr), free (Mr), free (Rr);
  free (ar), free (ai), free (be);
  return rc;
}

/* Rank 0. A state that is not an equilibrium: imbalance ||r + Cq^T gamma||_inf and
   constraint ||C||_inf there (the method's own values may be placeholders, MKEAM's are);
   change: the last history line's when that was an MKEAM peak, NaN (the report's null)
   when there is no history line to take it from (MKEAM stopped before its first peak). */
static int state_norms (const statics_problem *p, statics_result *res, mb_err *err)
{
  int n = p->n, m = p->m;
  double *F = mb_calloc ((size_t) n + 1, sizeof *F);
  if (!F) return mb_fail (err, MB_ENOMEM, "out of memory for the static report");
  statics_eval e;
  int rc = p->eval (p->ctx, res->gamma, &e, err);
  if (rc == 0) {
    statics_residual (&e, n, m, res->gamma, F);
    res->imbalance = statics_norm_inf (F, n);
    res->constraint = m > 0 ? statics_norm_inf (e.c, m) : 0.0;
    if (res->nhist > 0 && res->hist[res->nhist - 1].phase == 1)
      res->change = res->hist[res->nhist - 1].change;
    else if (res->nhist == 0) res->change = NAN;
  }
  free (F);
  return rc;
}

int statics_verdict (MPI_Comm comm, const statics_problem *p, int converged,
                     statics_result *res, mb_err *err)
{
  int rank, rc = 0;
  MPI_Comm_rank (comm, &rank);
  res->unstable = -1;
  res->verdict_damped = 0;
  res->verdict_note[0] = '\0';
  if (!converged) {  /* no equilibrium: no verdict; the reported fields from the state */
    if (rank == 0 && res->gamma) rc = state_norms (p, res, err);
    return mb_agree (comm, rc, err);
  }
  statics_eval e;
  memset (&e, 0, sizeof e);  /* a problem that does not set e.R: no damping */
  int kind[3] = { 0, 0, 0 }, damped = 0;  /* n, m, symmetric */
  if (rank == 0) {
    rc = p->eval (p->ctx, res->gamma, &e, err);
    kind[0] = p->n, kind[1] = p->m;
    kind[2] = rc == 0 && spm_is_symmetric (e.K, 1e-12) && spm_is_symmetric (e.M, 1e-12);
  }
  rc = mb_agree (comm, rc, err);
  if (rc < 0) return rc;
  MPI_Bcast (kind, 3, MPI_INT, 0, comm);
  int n = kind[0], m = kind[1], count = -1;
  if (kind[2]) {
    rc = count_symmetric (comm, rank == 0 ? &e : NULL, n, m, &count, err);
    if (rc == 0 && count < 0 && rank == 0)
      snprintf (res->verdict_note, sizeof res->verdict_note, "the tangent on the constraint "
                "manifold is singular: its inertia is unknown");
  } else if (n > STATICS_VERDICT_DENSE_MAX) {
    if (rank == 0)
      snprintf (res->verdict_note, sizeof res->verdict_note, "the tangent is non-symmetric "
                "and the model has more than %d DOFs: the modal stage's kinds tell",
                STATICS_VERDICT_DENSE_MAX);
  } else if (rank == 0)
    rc = count_general (&e, n, m, &count, &damped, res->verdict_note,
                        sizeof res->verdict_note, err);
  rc = mb_agree (comm, rc, err);
  MPI_Bcast (&count, 1, MPI_INT, 0, comm);
  MPI_Bcast (&damped, 1, MPI_INT, 0, comm);
  res->verdict_damped = damped;
  MPI_Bcast (res->verdict_note, (int) sizeof res->verdict_note, MPI_CHAR, 0, comm);
  res->unstable = rc == 0 ? count : -1;
  return rc;
}
