/* test_krylov_schur.c: Krylov-Schur against dense LAPACK (dgeev, zgeev) on operators
   given as dense matrices: nonsymmetric real (complex pairs), complex, repeated and zero
   eigenvalues, a rank-deficient operator, and the non-converged path. An MPI test: the
   basis is distributed by rows over the ranks (run on 1 and 2 ranks); rank 0 checks. */
#include "eigen/krylov_schur.h"
#include "check.h"

#include <mpi.h>

#include <cblas.h>
#include <lapacke.h>
#include <math.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* A dense operator, the whole matrix on every rank; the vectors are distributed by d. */
typedef struct dense { int n; double *a; double complex *z; ks_dist d; int *counts, *displs; } dense;

static void dense_dist (dense *op)
{
  int size;
  MPI_Comm_size (MPI_COMM_WORLD, &size);
  ks_dist_init (&op->d, MPI_COMM_WORLD, op->n);
  op->counts = calloc ((size_t) size, sizeof (int));
  op->displs = calloc ((size_t) size, sizeof (int));
  MPI_Allgather (&op->d.nloc, 1, MPI_INT, op->counts, 1, MPI_INT, MPI_COMM_WORLD);
  MPI_Allgather (&op->d.row0, 1, MPI_INT, op->displs, 1, MPI_INT, MPI_COMM_WORLD);
}

static void dense_free (dense *op)
{
  free (op->a); free (op->z); free (op->counts); free (op->displs);
}

/* Y (local rows, nb columns, leading dimensions ldx, ldy) = A(rows, :) X: each column x
   gathered whole from every rank's rows, then y = A(rows, :) x (the block operator of the
   dense test matrix; nb = 1 for single vectors) */
static int apply_real (void *ctx, int nb, const double *X, int ldx, double *Y, int ldy)
{
  dense *d = ctx;
  double *xf = malloc ((size_t) d->n * sizeof *xf);
  for (int j = 0; j < nb; j++) {
    MPI_Allgatherv (X + (size_t) j * ldx, d->d.nloc, MPI_DOUBLE, xf, d->counts, d->displs,
                    MPI_DOUBLE, MPI_COMM_WORLD);
    if (d->d.nloc > 0)
      cblas_dgemv (CblasColMajor, CblasNoTrans, d->d.nloc, d->n, 1.0, d->a + d->d.row0, d->n,
                   xf, 1, 0.0, Y + (size_t) j * ldy, 1);
  }
  free (xf);
  return 0;
}

static int apply_complex (void *ctx, int nb, const double complex *X, int ldx,
                          double complex *Y, int ldy)
{
  dense *d = ctx;
  const double complex one = 1.0, zero = 0.0;
  double complex *xf = malloc ((size_t) d->n * sizeof *xf);
  for (int j = 0; j < nb; j++) {
    MPI_Allgatherv (X + (size_t) j * ldx, d->d.nloc, MPI_C_DOUBLE_COMPLEX, xf, d->counts,
                    d->displs, MPI_C_DOUBLE_COMPLEX, MPI_COMM_WORLD);
    if (d->d.nloc > 0)
      cblas_zgemv (CblasColMajor, CblasNoTrans, d->d.nloc, d->n, &one, d->z + d->d.row0, d->n,
                   xf, 1, &zero, Y + (size_t) j * ldy, 1);
  }
  free (xf);
  return 0;
}

static int rank;
#undef CHECK
#define CHECK(descr, c) do { int c_ = (c); if (rank == 0) { n_run++; if (c_) n_pass++; else \
  printf ("FAIL %s:%d: %s\n", __FILE__, __LINE__, descr); } } while (0)

static unsigned long long rng = 12345;
static double rnd (void)
{
  rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double) (rng >> 11) / 9007199254740992.0 - 0.5;
}

static int by_abs_desc (const void *a, const void *b)
{
  double x = cabs (*(const double complex *) a), y = cabs (*(const double complex *) b);
  return (x < y) - (x > y);
}

/* 1 when every wanted reference eigenvalue (the nev largest |mu| of ref) is matched by a
   computed one to rtol, counting multiplicity. */
static int matches (int nev, double complex *ref, int nref, const ks_result *r, double rtol)
{
  qsort (ref, (size_t) nref, sizeof *ref, by_abs_desc);
  int *used = calloc ((size_t) r->nconv + 1, sizeof *used), ok = 1;
  for (int i = 0; i < nev; i++) {
    int hit = -1;
    for (int j = 0; j < r->nconv; j++)
      if (!used[j] && cabs (r->mu[j] - ref[i]) <= rtol * cabs (ref[0])) { hit = j; break; }
    if (hit < 0) { ok = 0; if (rank == 0) printf ("  missing mu = %g%+gi\n", creal (ref[i]), cimag (ref[i])); }
    else used[hit] = 1;
  }
  free (used);
  return ok;
}

/* The n eigenvalues of the real column-major n x n matrix A by LAPACK's dgeev (A is not
   changed), returned as complex numbers (caller frees). */
static double complex *dgeev_values (int n, const double *A)
{
  double *a = malloc ((size_t) n * n * sizeof *a), *wr = malloc (n * sizeof *wr), *wi = malloc (n * sizeof *wi);
  double complex *w = malloc (n * sizeof *w);
  memcpy (a, A, (size_t) n * n * sizeof *a);
  LAPACKE_dgeev (LAPACK_COL_MAJOR, 'N', 'N', n, a, n, wr, wi, NULL, 1, NULL, 1);
  for (int i = 0; i < n; i++) w[i] = wr[i] + I * wi[i];
  free (a); free (wr); free (wi);
  return w;
}

/* Collective. The Ritz vectors of r as complex columns, whole on rank 0 (n x nconv, caller
   frees; NULL on the other ranks): gathered from every rank's rows (r->rows: real columns
   in xr, a conjugate pair (j, j+1) as x_j = xr_j + i xr_{j+1}, x_{j+1} = conj (x_j), as
   krylov_schur.h says; or complex ones in x), or copied from the dense path's whole x. */
static double complex *vectors_on_root (const dense *d, const ks_result *r)
{
  int n = d->n, nc = r->nconv, nl = d->d.nloc, ld = nl > 0 ? nl : 1;
  double complex *X = rank == 0 ? calloc ((size_t) n * (nc > 0 ? nc : 1), sizeof *X) : NULL;
  double *col = rank == 0 ? calloc ((size_t) n * (nc > 0 ? nc : 1), sizeof *col) : NULL;
  for (int j = 0; j < nc && r->rows; j++) {
    if (r->xr)
      MPI_Gatherv (r->xr + (size_t) j * ld, nl, MPI_DOUBLE, col ? col + (size_t) j * n : NULL,
                   d->counts, d->displs, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    else
      MPI_Gatherv (r->x + (size_t) j * ld, nl, MPI_C_DOUBLE_COMPLEX,
                   X ? X + (size_t) j * n : NULL, d->counts, d->displs, MPI_C_DOUBLE_COMPLEX, 0,
                   MPI_COMM_WORLD);
  }
  if (rank == 0 && !r->rows && r->x) memcpy (X, r->x, (size_t) n * nc * sizeof *X);
  for (int j = 0; rank == 0 && r->rows && r->xr && j < nc; j++) {
    const double *re = col + (size_t) j * n, *im = re + n;
    double complex *x = X + (size_t) j * n;
    if (cimag (r->mu[j]) != 0.0 && j + 1 < nc) {  /* a pair: x_j, then its conjugate */
      for (int k = 0; k < n; k++) {
        x[k] = re[k] + I * im[k];
        x[n + k] = conj (x[k]);
      }
      j++;
    } else {
      for (int k = 0; k < n; k++) x[k] = re[k];
    }
  }
  free (col);
  return X;
}

/* Collective. max_i ||A x_i - mu_i x_i|| / |mu_i| over the returned pairs (the vectors
   gathered on rank 0: vectors_on_root), on rank 0; 0 elsewhere. */
static double true_residual_real (const dense *d, const ks_result *r)
{
  double worst = 0.0;
  int n = d->n;
  double complex *x = vectors_on_root (d, r);
  for (int i = 0; i < r->nconv && rank == 0; i++) {
    double s = 0.0;
    for (int p = 0; p < n; p++) {
      double complex ax = 0.0;
      for (int q = 0; q < n; q++) ax += d->a[p + (size_t) q * n] * x[q + (size_t) i * n];
      s += pow (cabs (ax - r->mu[i] * x[p + (size_t) i * n]), 2);
    }
    worst = fmax (worst, sqrt (s) / cabs (r->mu[i]));
  }
  free (x);
  return worst;
}

static void test_real_nonsymmetric (void)
{
  int n = 300, nev = 12;
  dense d = { n, calloc ((size_t) n * n, sizeof (double)), NULL, { 0 }, NULL, NULL };
  for (int i = 0; i < n * n; i++) d.a[i] = rnd ();
  dense_dist (&d);
  double complex *ref = dgeev_values (n, d.a);
  int npairs = 0;
  for (int i = 0; i < n; i++) if (cimag (ref[i]) > 0) npairs++;
  ks_opts o = { .nev = nev, .ncv = 40, .tol = 1e-12, .max_restarts = 500, .seed = 1 };
  ks_result r;
  mb_err err;
  mb_err_init (&err);
  int rc = ks_solve_real (&d.d, apply_real, &d, &o, &r, &err);
  CHECK ("real nonsymmetric: returns 0", rc == 0);
  CHECK ("real nonsymmetric: converged", r.converged && r.nconv >= nev);
  CHECK ("real nonsymmetric: has complex pairs (test is meaningful)", npairs > 0);
  CHECK ("real nonsymmetric: eigenvalues match dgeev", matches (nev, ref, n, &r, 1e-10));
  double worst_res = true_residual_real (&d, &r);  /* collective */
  CHECK ("real nonsymmetric: true residuals small (vectors by rows, gathered here)",
         rank != 0 || (r.rows && r.xr && worst_res < 1e-9));
  int pairs_whole = 1;  /* every complex Ritz value comes with its conjugate */
  for (int i = 0; i < r.nconv; i++)
    if (fabs (cimag (r.mu[i])) > 1e-12 * cabs (r.mu[i])) {
      int found = 0;
      for (int j = 0; j < r.nconv; j++) if (cabs (r.mu[j] - conj (r.mu[i])) < 1e-10 * cabs (r.mu[i])) found = 1;
      pairs_whole &= found;
    }
  CHECK ("real nonsymmetric: conjugate pairs kept together", pairs_whole);
  ks_result_clear (&r);
  dense_free (&d); free (ref);
}

/* A = Q diag(dvals) Q^T with Q orthogonal from a QR of a random matrix */
static double *similar_diag (int n, const double *dvals)
{
  double *q = malloc ((size_t) n * n * sizeof *q), *tau = malloc (n * sizeof *tau);
  for (int i = 0; i < n * n; i++) q[i] = rnd ();
  LAPACKE_dgeqrf (LAPACK_COL_MAJOR, n, n, q, n, tau);
  LAPACKE_dorgqr (LAPACK_COL_MAJOR, n, n, n, q, n, tau);
  double *qd = malloc ((size_t) n * n * sizeof *qd), *a = malloc ((size_t) n * n * sizeof *a);
  for (int j = 0; j < n; j++) for (int i = 0; i < n; i++) qd[i + (size_t) j * n] = q[i + (size_t) j * n] * dvals[j];
  cblas_dgemm (CblasColMajor, CblasNoTrans, CblasTrans, n, n, n, 1.0, qd, n, q, n, 0.0, a, n);
  free (q); free (tau); free (qd);
  return a;
}

static void test_repeated_and_zero (void)
{
  /* eigenvalues: 5 (x3), 4 (x2), 3.5, then 1/(i+2) decaying, and 20 zeros (a rank-deficient
     operator, as (A - sigma B)^-1 B with singular B) */
  int n = 200, nev = 8;
  double *dv = malloc (n * sizeof *dv);
  for (int i = 0; i < n; i++) dv[i] = i < 20 ? 0.0 : 1.0 / (i - 18);
  dv[20] = dv[21] = dv[22] = 5.0;
  dv[23] = dv[24] = 4.0;
  dv[25] = 3.5;
  dense d = { n, similar_diag (n, dv), NULL, { 0 }, NULL, NULL };
  dense_dist (&d);
  double complex *ref = malloc (n * sizeof *ref);
  for (int i = 0; i < n; i++) ref[i] = dv[i];
  ks_opts o = { .nev = nev, .ncv = 30, .tol = 1e-12, .max_restarts = 500, .seed = 7 };
  ks_result r;
  mb_err err;
  mb_err_init (&err);
  int rc = ks_solve_real (&d.d, apply_real, &d, &o, &r, &err);
  CHECK ("repeated: returns 0 and converged", rc == 0 && r.converged);
  CHECK ("repeated: all copies of 5 and 4 found (multiplicity)", matches (nev, ref, n, &r, 1e-9));
  ks_result_clear (&r);
  dense_free (&d); free (dv); free (ref);
}

/* A random complex n x n operator in d (entries re + i im, re and im from rnd; distributed
   by dense_dist; freed with dense_free) and its n eigenvalues by LAPACK's zgeev, returned
   (caller frees). */
static double complex *random_complex_operator (dense *d, int n)
{
  *d = (dense) { n, NULL, malloc ((size_t) n * n * sizeof (double complex)), { 0 }, NULL, NULL };
  dense_dist (d);
  for (int i = 0; i < n * n; i++) d->z[i] = rnd () + I * rnd ();
  double complex *a = malloc ((size_t) n * n * sizeof *a), *w = malloc (n * sizeof *w);
  memcpy (a, d->z, (size_t) n * n * sizeof *a);
  LAPACKE_zgeev (LAPACK_COL_MAJOR, 'N', 'N', n, a, n, w, NULL, 1, NULL, 1);
  free (a);
  return w;
}

static void test_complex (void)
{
  int n = 250, nev = 10;
  dense d;
  double complex *w = random_complex_operator (&d, n);
  ks_opts o = { .nev = nev, .ncv = 35, .tol = 1e-12, .max_restarts = 500, .seed = 3 };
  ks_result r;
  mb_err err;
  mb_err_init (&err);
  int rc = ks_solve_complex (&d.d, apply_complex, &d, &o, &r, &err);
  CHECK ("complex: returns 0 and converged", rc == 0 && r.converged);
  CHECK ("complex: eigenvalues match zgeev", matches (nev, w, n, &r, 1e-10));
  double worst = 0.0;
  double complex *x = vectors_on_root (&d, &r);  /* collective */
  for (int i = 0; i < r.nconv && rank == 0; i++) {
    double s = 0.0;
    for (int p = 0; p < n; p++) {
      double complex ax = 0.0;
      for (int q = 0; q < n; q++) ax += d.z[p + (size_t) q * n] * x[q + (size_t) i * n];
      s += pow (cabs (ax - r.mu[i] * x[p + (size_t) i * n]), 2);
    }
    worst = fmax (worst, sqrt (s) / cabs (r.mu[i]));
  }
  free (x);
  CHECK ("complex: true residuals small (vectors by rows, gathered here)",
         r.rows && worst < 1e-9);
  ks_result_clear (&r);
  dense_free (&d); free (w);
}

static void test_not_converged_and_small (void)
{
  int n = 300;
  dense d = { n, calloc ((size_t) n * n, sizeof (double)), NULL, { 0 }, NULL, NULL };
  for (int i = 0; i < n * n; i++) d.a[i] = rnd ();
  dense_dist (&d);
  ks_opts o = { .nev = 20, .ncv = 22, .tol = 1e-14, .max_restarts = 2, .seed = 1 };
  ks_result r;
  mb_err err;
  mb_err_init (&err);
  int rc = ks_solve_real (&d.d, apply_real, &d, &o, &r, &err);
  CHECK ("not converged: returns 0 with converged = 0", rc == 0 && !r.converged);
  CHECK ("not converged: restarts counted", r.restarts == 2);
  CHECK ("not converged: worst residual reported", r.worst > 1e-14);
  ks_result_clear (&r);
  dense_free (&d);
  /* order 3: the whole space fits the subspace; breakdown handled */
  double dv[3] = { 3.0, 2.0, 1.0 };
  dense s = { 3, similar_diag (3, dv), NULL, { 0 }, NULL, NULL };
  dense_dist (&s);
  ks_opts o3 = { .nev = 2, .ncv = 0, .tol = 1e-12, .max_restarts = 10, .seed = 1 };
  rc = ks_solve_real (&s.d, apply_real, &s, &o3, &r, &err);
  double complex ref[3] = { 3.0, 2.0, 1.0 };
  CHECK ("order 3: converged", rc == 0 && r.converged);
  CHECK ("order 3: eigenvalues 3 and 2", rc == 0 && matches (2, ref, 3, &r, 1e-12));
  ks_result_clear (&r);
  dense_free (&s);
}

/* An operator that must not be called: counts its calls and fails. */
static int calls;
static int apply_never (void *ctx, int nb, const double *X, int ldx, double *Y, int ldy)
{
  (void) ctx; (void) nb; (void) X; (void) ldx; (void) Y; (void) ldy;
  calls++;
  return MB_ESOLVE;
}

/* 1 when rc is the same on every rank. */
static int same_everywhere (int rc)
{
  int lo, hi;
  MPI_Allreduce (&rc, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce (&rc, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  return lo == hi;
}

/* Issue 9: sizes computed without int overflow (nev = 1e9 and INT_MAX: the dense path, all
   n eigenvalues), impossible sizes refused with a message before anything is allocated or
   applied. Issue 7: out of memory in the Schur step (and for the basis, on one rank only)
   is MB_ENOMEM on every rank, not a LAPACK failure. */
static void test_sizes_and_memory (void)
{
  /* eigenvalues 1, 1/2, ..., 1/40 of Q diag Q^T (the reference: the diagonal itself) */
  int n = 40;
  double dv[40];
  for (int i = 0; i < n; i++) dv[i] = 1.0 / (i + 1);
  dense d = { n, similar_diag (n, dv), NULL, { 0 }, NULL, NULL };
  dense_dist (&d);
  double complex ref[40];
  int huge[2] = { 1000000000, INT_MAX };
  for (int t = 0; t < 2; t++) {
    for (int i = 0; i < n; i++) ref[i] = dv[i];
    ks_opts o = { .nev = huge[t], .ncv = 0, .tol = 1e-12, .max_restarts = 10, .seed = 1 };
    ks_result r;
    mb_err err;
    mb_err_init (&err);
    int rc = ks_solve_real (&d.d, apply_real, &d, &o, &r, &err);
    CHECK (t ? "nev = INT_MAX: all 40 eigenvalues (dense path)" : "nev = 1e9: all 40 eigenvalues (dense path)",
           rc == 0 && r.converged && r.nconv == n && matches (n, ref, n, &r, 1e-12));
    ks_result_clear (&r);
  }
  /* order 100000: nev = 1e9 would need the dense 100000 x 100000 operator (80 GB), nev =
     30000 a subspace of 60000 (its projected matrices alone 115 GB): refused, nothing applied */
  ks_dist big;
  ks_dist_init (&big, MPI_COMM_WORLD, 100000);
  int nevs[2] = { 1000000000, 30000 };
  for (int t = 0; t < 2; t++) {
    ks_opts o = { .nev = nevs[t], .ncv = 0, .tol = 1e-10, .max_restarts = 10, .seed = 1 };
    ks_result r;
    mb_err err;
    mb_err_init (&err);
    calls = 0;
    int rc = ks_solve_real (&big, apply_never, NULL, &o, &r, &err);
    CHECK (t ? "subspace 60000 of order 100000: refused with MB_ENOMEM, nothing applied"
             : "nev = 1e9 of order 100000: refused with MB_ENOMEM, nothing applied",
           rc == MB_ENOMEM && calls == 0 && r.nconv == 0 && strstr (err.msg, "too large"));
    ks_result_clear (&r);
  }
  /* Schur step out of memory on rank 0 (where it runs), real and complex */
  {
    ks_opts o = { .nev = 4, .ncv = 12, .tol = 1e-12, .max_restarts = 50, .seed = 1 };
    ks_result r;
    mb_err err;
    mb_err_init (&err);
    mb_fault_set ("0:schur");
    int rc = ks_solve_real (&d.d, apply_real, &d, &o, &r, &err);
    mb_fault_set (NULL);
    CHECK ("Schur step out of memory (real): MB_ENOMEM with a message, on every rank",
           rc == MB_ENOMEM && same_everywhere (rc) && strstr (err.msg, "out of memory")
           && r.nconv == 0 && !r.mu);
    ks_result_clear (&r);
    dense z = { n, NULL, malloc ((size_t) n * n * sizeof (double complex)), { 0 }, NULL, NULL };
    dense_dist (&z);
    for (int i = 0; i < n * n; i++) z.z[i] = rnd () + I * rnd ();
    mb_err_init (&err);
    mb_fault_set ("0:schur");
    rc = ks_solve_complex (&z.d, apply_complex, &z, &o, &r, &err);
    mb_fault_set (NULL);
    CHECK ("Schur step out of memory (complex): MB_ENOMEM with a message, on every rank",
           rc == MB_ENOMEM && same_everywhere (rc) && strstr (err.msg, "out of memory"));
    ks_result_clear (&r);
    dense_free (&z);
    /* the basis fails on the last rank only */
    int size;
    MPI_Comm_size (MPI_COMM_WORLD, &size);
    char spec[32];
    snprintf (spec, sizeof spec, "%d:krylov", size - 1);
    mb_err_init (&err);
    mb_fault_set (spec);
    rc = ks_solve_real (&d.d, apply_real, &d, &o, &r, &err);
    mb_fault_set (NULL);
    CHECK ("basis out of memory on the last rank: MB_ENOMEM on every rank",
           rc == MB_ENOMEM && same_everywhere (rc));
    ks_result_clear (&r);
  }
  dense_free (&d);
}

/* Loss of orthogonality of the Krylov basis stays at round-off (max |V^T V - I| after every
   expansion, 1 and 2 ranks) on hard cases: a symmetric operator with graded eigenvalues
   10^(-8 i / n) (each new OP v lies almost in the span of the basis: heavy cancellation in
   every Gram-Schmidt step), the same with a spectrum of clusters, and a complex
   nonsymmetric one. The eigenvalues still match their references (the diagonal; zgeev). */
static void test_orthogonality (void)
{
  int n = 400;
  double *dv = malloc (n * sizeof *dv);
  double complex *ref = malloc (n * sizeof *ref);
  for (int t = 0; t < 2; t++) {
    for (int i = 0; i < n; i++)
      dv[i] = t == 0 ? pow (10.0, -8.0 * i / n) : 1.0 + (i / 4) * 1e-3 + (i % 4) * 1e-9;
    for (int i = 0; i < n; i++) ref[i] = dv[i];
    dense d = { n, similar_diag (n, dv), NULL, { 0 }, NULL, NULL };
    dense_dist (&d);
    ks_opts o = { .nev = 16, .ncv = 48, .tol = 1e-12, .max_restarts = 500, .seed = 5,
                  .check_orthogonality = 1 };
    ks_result r;
    mb_err err;
    mb_err_init (&err);
    int rc = ks_solve_real (&d.d, apply_real, &d, &o, &r, &err);
    if (rank == 0) printf ("  orthogonality (%s): max |V^T V - I| = %.2e, %d second passes in %d applies\n",
                           t ? "clusters" : "graded", r.orth_loss, r.reorths, r.applies);
    CHECK (t ? "clustered spectrum: converged, eigenvalues match" : "graded spectrum: converged, eigenvalues match",
           rc == 0 && r.converged && matches (o.nev, ref, n, &r, t ? 1e-9 : 1e-10));
    CHECK (t ? "clustered spectrum: basis orthonormal to 1e-13" : "graded spectrum: basis orthonormal to 1e-13",
           rc == 0 && r.orth_loss > 0.0 && r.orth_loss < 1e-13);
    ks_result_clear (&r);
    dense_free (&d);
  }
  /* rank 5 (eigenvalues 5, 4, 3, 2, 1 and 95 zeros): the Krylov space is invariant after
     a few steps, every later step breaks down and restarts from a random direction */
  {
    int nr = 100;
    double *dr = calloc ((size_t) nr, sizeof *dr);
    double complex *rr = calloc ((size_t) nr, sizeof *rr);
    for (int i = 0; i < 5; i++) rr[i] = dr[i] = 5.0 - i;
    dense d = { nr, similar_diag (nr, dr), NULL, { 0 }, NULL, NULL };
    dense_dist (&d);
    ks_opts o = { .nev = 4, .ncv = 20, .tol = 1e-12, .max_restarts = 50, .seed = 2,
                  .check_orthogonality = 1 };
    ks_result r;
    mb_err err;
    mb_err_init (&err);
    int rc = ks_solve_real (&d.d, apply_real, &d, &o, &r, &err);
    if (rank == 0) printf ("  orthogonality (rank 5): max |V^T V - I| = %.2e, %d applies\n",
                           r.orth_loss, r.applies);
    CHECK ("rank-5 operator (breakdowns): eigenvalues 5, 4, 3, 2, basis orthonormal to 1e-13",
           rc == 0 && r.converged && matches (4, rr, nr, &r, 1e-10) && r.orth_loss < 1e-13);
    ks_result_clear (&r);
    dense_free (&d); free (dr); free (rr);
  }
  dense z = { 250, NULL, malloc ((size_t) 250 * 250 * sizeof (double complex)), { 0 }, NULL, NULL };
  dense_dist (&z);
  for (int i = 0; i < 250 * 250; i++) z.z[i] = rnd () + I * rnd ();
  ks_opts o = { .nev = 10, .ncv = 35, .tol = 1e-12, .max_restarts = 500, .seed = 3,
                .check_orthogonality = 1 };
  ks_result r;
  mb_err err;
  mb_err_init (&err);
  int rc = ks_solve_complex (&z.d, apply_complex, &z, &o, &r, &err);
  if (rank == 0) printf ("  orthogonality (complex): max |V^H V - I| = %.2e, %d second passes in %d applies\n",
                         r.orth_loss, r.reorths, r.applies);
  CHECK ("complex: basis orthonormal to 1e-13", rc == 0 && r.orth_loss > 0.0 && r.orth_loss < 1e-13);
  ks_result_clear (&r);
  dense_free (&z);
  free (dv); free (ref);
}


/* The dense operator with its calls counted: calls, columns applied, the widest block. */
typedef struct counted { dense *d; int calls, columns, widest; } counted;

static int apply_counted (void *ctx, int nb, const double *X, int ldx, double *Y, int ldy)
{
  counted *c = ctx;
  c->calls++;
  c->columns += nb;
  if (nb > c->widest) c->widest = nb;
  return apply_real (c->d, nb, X, ldx, Y, ldy);
}

/* 1 when every eigenvalue of a is matched by one of b (multiplicity counted) to rtol of
   max |a| */
static int same_values (const ks_result *a, const ks_result *b, int count, double rtol)
{
  if (a->nconv < count || b->nconv < count) return 0;
  double scale = 0.0;
  for (int i = 0; i < count; i++) scale = fmax (scale, cabs (a->mu[i]));
  int *used = calloc ((size_t) b->nconv, sizeof *used), ok = 1;
  for (int i = 0; i < count; i++) {
    int hit = -1;
    for (int j = 0; j < b->nconv && hit < 0; j++)
      if (!used[j] && cabs (a->mu[i] - b->mu[j]) <= rtol * scale) hit = j;
    if (hit < 0) ok = 0; else used[hit] = 1;
  }
  free (used);
  return ok;
}

/* Blocks (ks_opts.block > 1) against single vectors (block 1) and dense LAPACK:
   real nonsymmetric, complex, repeated eigenvalues (a block finds every copy), a
   rank-deficient block (deflation), nev close to n. */
static void test_block (void)
{
  mb_err err;
  mb_err_init (&err);
  {  /* real nonsymmetric (complex pairs), reference dgeev */
    int n = 300, nev = 12;
    dense d = { n, calloc ((size_t) n * n, sizeof (double)), NULL, { 0 }, NULL, NULL };
    for (int i = 0; i < n * n; i++) d.a[i] = rnd ();
    dense_dist (&d);
    double complex *ref = dgeev_values (n, d.a);
    ks_opts o = { .nev = nev, .ncv = 48, .tol = 1e-12, .max_restarts = 2000, .seed = 1, .block = 1 };
    ks_result r1, r4;
    counted c = { &d, 0, 0, 0 };
    int rc1 = ks_solve_real (&d.d, apply_counted, &c, &o, &r1, &err);
    int single_ok = c.columns == r1.applies && c.calls == r1.applies && c.widest == 1;
    o.block = 4;
    o.check_orthogonality = 1;
    c.calls = c.columns = c.widest = 0;
    int rc4 = ks_solve_real (&d.d, apply_counted, &c, &o, &r4, &err);
    if (rank == 0) printf ("  block real: %d applies (%d block applies) against %d single, "
                           "orth %.2e\n", r4.applies, r4.block_applies, r1.applies, r4.orth_loss);
    CHECK ("block real: converged, block size 4 used", rc1 == 0 && rc4 == 0
           && r4.converged && r4.block == 4 && r1.block == 1 && r4.block_applies > 0);
    CHECK ("one operator: single vectors apply it to 1 column at a time, blocks of 4 to 4 "
           "(every column counted in applies)", single_ok
           && c.columns == r4.applies && c.widest == 4 && c.calls < r4.applies);
    CHECK ("block real: eigenvalues match dgeev", matches (nev, ref, n, &r4, 1e-10));
    CHECK ("block real: same eigenvalues as single vectors (1e-10)",
           same_values (&r1, &r4, nev, 1e-10));
    double res4 = true_residual_real (&d, &r4);  /* collective */
    CHECK ("block real: true residuals small, basis orthonormal", r4.orth_loss < 1e-12
           && (rank != 0 || (r4.rows && res4 < 1e-9)));
    ks_result_clear (&r1); ks_result_clear (&r4);
    dense_free (&d); free (ref);
  }
  {  /* complex, reference zgeev */
    int n = 250, nev = 10;
    dense d;
    double complex *w = random_complex_operator (&d, n);
    ks_opts o = { .nev = nev, .ncv = 40, .tol = 1e-12, .max_restarts = 2000, .seed = 3, .block = 1 };
    ks_result r1, r3;
    int rc1 = ks_solve_complex (&d.d, apply_complex, &d, &o, &r1, &err);
    o.block = 3;
    int rc3 = ks_solve_complex (&d.d, apply_complex, &d, &o, &r3, &err);
    CHECK ("block complex: converged", rc1 == 0 && rc3 == 0 && r3.converged && r3.block == 3);
    CHECK ("block complex: eigenvalues match zgeev", matches (nev, w, n, &r3, 1e-10));
    CHECK ("block complex: same eigenvalues as single vectors (1e-10)",
           same_values (&r1, &r3, nev, 1e-10));
    ks_result_clear (&r1); ks_result_clear (&r3);
    dense_free (&d); free (w);
  }
  {  /* repeated eigenvalues: 1 (x4), 0.5 (x4), 0.25 (x2), then 0.01 / (i + 1): A = Q D Q^T,
        so the reference is D itself */
    int n = 400, nev = 10;
    double *dv = malloc (n * sizeof *dv);
    for (int i = 0; i < n; i++) dv[i] = i < 4 ? 1.0 : i < 8 ? 0.5 : i < 10 ? 0.25 : 0.01 / (i + 1);
    dense d = { n, similar_diag (n, dv), NULL, { 0 }, NULL, NULL };
    dense_dist (&d);
    double complex *ref = malloc (n * sizeof *ref);
    for (int i = 0; i < n; i++) ref[i] = dv[i];
    ks_opts o = { .nev = nev, .ncv = 30, .tol = 1e-12, .max_restarts = 500, .seed = 5, .block = 4 };
    ks_result r;
    int rc = ks_solve_real (&d.d, apply_real, &d, &o, &r, &err);
    CHECK ("block repeated: all 4 copies of 1 and 0.5 and both of 0.25 found",
           rc == 0 && r.converged && matches (nev, ref, n, &r, 1e-10));
    ks_result_clear (&r);
    dense_free (&d); free (dv); free (ref);
  }
  {  /* rank-deficient block: OP of rank 2 (eigenvalues 3 and 2, the rest 0) with block 4:
        the start block OP R has rank 2, so two of its columns are deflated */
    int n = 60;
    double *dv = calloc (n, sizeof *dv);
    dv[0] = 3.0; dv[1] = 2.0;
    dense d = { n, similar_diag (n, dv), NULL, { 0 }, NULL, NULL };
    dense_dist (&d);
    double complex ref[2] = { 3.0, 2.0 };
    ks_opts o = { .nev = 2, .ncv = 12, .tol = 1e-12, .max_restarts = 50, .seed = 9, .block = 4,  .check_orthogonality = 1 };
    ks_result r;
    int rc = ks_solve_real (&d.d, apply_real, &d, &o, &r, &err);
    if (rank == 0) printf ("  block rank 2: %d deflated, orth %.2e\n", r.deflated, r.orth_loss);
    double res = true_residual_real (&d, &r);  /* collective */
    CHECK ("block rank-deficient: deflated, converged to 3 and 2, basis orthonormal",
           rc == 0 && r.converged && r.deflated >= 2 && matches (2, ref, 2, &r, 1e-10)
           && r.orth_loss < 1e-13 && (rank != 0 || res < 1e-10));
    ks_result_clear (&r);
    dense_free (&d); free (dv);
  }
  {  /* nev close to n: n = 40, nev = 30, ncv = 34, block 3 (the basis of 37 vectors nearly
        spans the space); eigenvalues 1 / (i + 1) */
    int n = 40, nev = 30;
    double *dv = malloc (n * sizeof *dv);
    for (int i = 0; i < n; i++) dv[i] = 1.0 / (i + 1);
    dense d = { n, similar_diag (n, dv), NULL, { 0 }, NULL, NULL };
    dense_dist (&d);
    double complex *ref = malloc (n * sizeof *ref);
    for (int i = 0; i < n; i++) ref[i] = dv[i];
    ks_opts o = { .nev = nev, .ncv = 34, .tol = 1e-12, .max_restarts = 500, .seed = 4, .block = 1 };
    ks_result r1, r3;
    int rc1 = ks_solve_real (&d.d, apply_real, &d, &o, &r1, &err);
    o.block = 3;
    int rc3 = ks_solve_real (&d.d, apply_real, &d, &o, &r3, &err);
    CHECK ("block nev close to n: converged with block 3", rc1 == 0 && rc3 == 0 && r3.converged
           && r3.block == 3);
    CHECK ("block nev close to n: eigenvalues exact, same as single-vector",
           matches (nev, ref, n, &r3, 1e-10) && same_values (&r1, &r3, nev, 1e-10));
    ks_result_clear (&r1); ks_result_clear (&r3);
    dense_free (&d); free (dv); free (ref);
  }
}

/* The block path's convergence probes inside an expansion: A = Q B Q^T (Q orthogonal,
   random) with B = diag (9, 8, 7, [5 2; -2 5], 0.01 r_i), r_i uniform in [-0.5, 0.5), so
   that the 5 eigenvalues of largest modulus (9, 8, 7, 5 +- 2i) are separated from the rest
   by a factor of more than 500 and converge within a few blocks; ncv 100, block 4. Reference
   eigenvalues: LAPACK dgeev of A. With the probes the solve stops early, from the partial
   basis: fewer applies than ncv, no restart; without them (ks_opts.no_early_exit) the first
   expansion runs to ncv; both give the dgeev values (1e-10) and small true residuals. */
static void test_early_stop (void)
{
  mb_err err;
  mb_err_init (&err);
  int n = 300, nev = 4, ncv = 100;
  double *q = malloc ((size_t) n * n * sizeof *q), *tau = malloc (n * sizeof *tau);
  double *b = calloc ((size_t) n * n, sizeof *b), *qb = malloc ((size_t) n * n * sizeof *qb);
  for (int i = 0; i < n * n; i++) q[i] = rnd ();
  LAPACKE_dgeqrf (LAPACK_COL_MAJOR, n, n, q, n, tau);
  LAPACKE_dorgqr (LAPACK_COL_MAJOR, n, n, n, q, n, tau);
  b[0] = 9.0; b[1 + n] = 8.0; b[2 + 2 * n] = 7.0;
  b[3 + 3 * n] = 5.0; b[3 + 4 * n] = 2.0; b[4 + 3 * n] = -2.0; b[4 + 4 * n] = 5.0;
  for (int i = 5; i < n; i++) b[i + (size_t) i * n] = 0.01 * rnd ();
  dense d = { n, malloc ((size_t) n * n * sizeof (double)), NULL, { 0 }, NULL, NULL };
  cblas_dgemm (CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, q, n, b, n, 0.0, qb, n);
  cblas_dgemm (CblasColMajor, CblasNoTrans, CblasTrans, n, n, n, 1.0, qb, n, q, n, 0.0, d.a, n);
  dense_dist (&d);
  double complex *ref = dgeev_values (n, d.a);
  ks_opts o = { .nev = nev, .ncv = ncv, .tol = 1e-12, .max_restarts = 50, .seed = 2, .block = 4,  .check_orthogonality = 1 };
  ks_result re, rf;
  int rce = ks_solve_real (&d.d, apply_real, &d, &o, &re, &err);
  o.no_early_exit = 1;
  int rcf = ks_solve_real (&d.d, apply_real, &d, &o, &rf, &err);
  if (rank == 0) printf ("  early stop: %d applies, %d probes, orth %.2e; without probes %d "
                         "applies\n", re.applies, re.probes, re.orth_loss, rf.applies);
  CHECK ("early stop: converged from the partial basis, fewer applies than ncv, no restart",
         rce == 0 && re.converged && re.early == 1 && re.applies < ncv && re.restarts == 0
         && re.probes >= 1);
  CHECK ("early stop: the pair 5 +- 2i kept whole (nconv 5)", re.nconv == nev + 1);
  CHECK ("early stop: eigenvalues match dgeev (1e-10)", matches (nev + 1, ref, n, &re, 1e-10));
  double rese = true_residual_real (&d, &re);  /* collective */
  CHECK ("early stop: true residuals small, basis orthonormal",
         re.orth_loss < 1e-12 && (rank != 0 || (re.rows && rese < 1e-10)));
  CHECK ("early stop off (no_early_exit): full expansion, same eigenvalues (1e-10)",
         rcf == 0 && rf.converged && rf.early == 0 && rf.probes == 0 && rf.applies >= ncv
         && same_values (&re, &rf, nev + 1, 1e-10));
  ks_result_clear (&re); ks_result_clear (&rf);
  dense_free (&d);
  free (q); free (tau); free (b); free (qb); free (ref);
}

/* The block path's lagged second Gram-Schmidt pass against the unlagged one
   (ks_opts.no_lag) and dense LAPACK: A = Q D Q^T with D = 1 / (i + 1) + 0.3 r_i for
   i < 30 and 0.01 r_i after (n = 400, nev 16, ncv 96, block 4, probes off so that
   expansions are long), real; and a random complex matrix (n = 250, nev 10, ncv 80,
   block 4) against zgeev. Lagged steps must be taken, none retried, the basis stay
   orthonormal (1e-12) and the eigenvalues match the reference (1e-10). */
static void test_lagged_gs (void)
{
  mb_err err;
  mb_err_init (&err);
  {
    int n = 400, nev = 16;
    double *dv = malloc (n * sizeof *dv);
    for (int i = 0; i < n; i++) dv[i] = i < 30 ? 1.0 / (i + 1) + 0.3 * rnd () : 0.01 * rnd ();
    dense d = { n, similar_diag (n, dv), NULL, { 0 }, NULL, NULL };
    dense_dist (&d);
    double complex *ref = malloc (n * sizeof *ref);
    for (int i = 0; i < n; i++) ref[i] = dv[i];
    ks_opts o = { .nev = nev, .ncv = 96, .tol = 1e-12, .max_restarts = 500, .seed = 6, .block = 4,  .check_orthogonality = 1,
                  .no_early_exit = 1 };
    ks_result rl, ru;
    int rcl = ks_solve_real (&d.d, apply_real, &d, &o, &rl, &err);
    o.no_lag = 1;
    int rcu = ks_solve_real (&d.d, apply_real, &d, &o, &ru, &err);
    if (rank == 0) printf ("  lagged real: %d of %d second passes lagged, %d retried, orth %.2e "
                           "(unlagged %.2e), %d applies (unlagged %d)\n", rl.lagged, rl.reorths,
                           rl.lag_retries, rl.orth_loss, ru.orth_loss, rl.applies, ru.applies);
    CHECK ("lagged real: converged, lagged steps taken, none without lag",
           rcl == 0 && rcu == 0 && rl.converged && ru.converged && rl.lagged > 0
           && ru.lagged == 0);
    CHECK ("lagged real: basis orthonormal (1e-12)", rl.orth_loss < 1e-12);
    CHECK ("lagged real: eigenvalues match the diagonal (1e-10), same as unlagged",
           matches (nev, ref, n, &rl, 1e-10) && same_values (&rl, &ru, nev, 1e-10));
    double resl = true_residual_real (&d, &rl);  /* collective */
    CHECK ("lagged real: true residuals small", rank != 0 || resl < 1e-10);
    ks_result_clear (&rl); ks_result_clear (&ru);
    dense_free (&d); free (dv); free (ref);
  }
  {
    int n = 250, nev = 10;
    dense d;
    double complex *w = random_complex_operator (&d, n);
    ks_opts o = { .nev = nev, .ncv = 80, .tol = 1e-12, .max_restarts = 2000, .seed = 7, .block = 4,  .check_orthogonality = 1,
                  .no_early_exit = 1 };
    ks_result rl;
    int rcl = ks_solve_complex (&d.d, apply_complex, &d, &o, &rl, &err);
    if (rank == 0) printf ("  lagged complex: %d of %d second passes lagged, %d retried, orth "
                           "%.2e\n", rl.lagged, rl.reorths, rl.lag_retries, rl.orth_loss);
    CHECK ("lagged complex: converged with lagged steps, basis orthonormal (1e-12)",
           rcl == 0 && rl.converged && rl.lagged > 0 && rl.orth_loss < 1e-12);
    CHECK ("lagged complex: eigenvalues match zgeev (1e-10)", matches (nev, w, n, &rl, 1e-10));
    ks_result_clear (&rl);
    dense_free (&d); free (w);
  }
  {  /* a lagged step refused: OP of rank 30 (eigenvalues 1 / (i + 1), the rest 0), so
        that the pending block becomes rank deficient once the Krylov space is exhausted;
        the step falls back to the explicit finish (deflation) and applies OP again */
    int n = 200, nev = 10;
    double *dv = calloc (n, sizeof *dv);
    for (int i = 0; i < 30; i++) dv[i] = 1.0 / (i + 1);
    dense d = { n, similar_diag (n, dv), NULL, { 0 }, NULL, NULL };
    dense_dist (&d);
    double complex *ref = malloc (n * sizeof *ref);
    for (int i = 0; i < n; i++) ref[i] = dv[i];
    ks_opts o = { .nev = nev, .ncv = 60, .tol = 1e-12, .max_restarts = 100, .seed = 8, .block = 4,  .check_orthogonality = 1,
                  .no_early_exit = 1 };
    ks_result r;
    int rc = ks_solve_real (&d.d, apply_real, &d, &o, &r, &err);
    if (rank == 0) printf ("  lagged rank 30: %d lagged, %d retried, %d deflated, orth %.2e\n",
                           r.lagged, r.lag_retries, r.deflated, r.orth_loss);
    CHECK ("lagged rank-deficient: a lagged step retried, converged, orthonormal",
           rc == 0 && r.converged && r.lag_retries > 0 && r.orth_loss < 1e-12
           && matches (nev, ref, n, &r, 1e-10));
    ks_result_clear (&r);
    dense_free (&d); free (dv); free (ref);
  }
}

/* An operator like (A - sigma B)^-1 B of a constrained pencil: two finite eigenvalues 0.11
   and 0.013 and nj defective zeros (Jordan blocks of 2, OP y2 = 0.05 y1, OP y1 = 0), in a
   random basis S (OP = S J S^-1, order 2 + 2 nj). Asking for 4 eigenvalues makes the
   Krylov space break down after the 2 finite ones; each new direction must lie in OP's
   range, or a Jordan chain enters the basis and gives Ritz values of size sqrt(eps) that
   pass for finite ones (the 2-rank double pendulum of issue 22). Single-vector path with a
   subspace larger than OP's range (nj = 10, ncv 19 of order 22: the range is spanned, the
   solve ends there), and blocks of 3 (nj = 20, ncv 12). References from the construction:
   the finite eigenvalues, and |mu| <= 1e-11 max |mu| for the rest (modes.c's filter of
   infinite eigenvalues). */
static void test_defective_zero (void)
{
  for (int blk = 1; blk <= 3; blk += 2) {
    int nj = blk == 1 ? 10 : 20, n = 2 + 2 * nj;
    double *J = calloc ((size_t) n * n, sizeof *J), *S = malloc ((size_t) n * n * sizeof *S);
    double *SJ = malloc ((size_t) n * n * sizeof *SJ), *Si = malloc ((size_t) n * n * sizeof *Si);
    int *piv = malloc ((size_t) n * sizeof *piv);
    J[0] = 0.11;
    J[1 + (size_t) n] = 0.013;
    for (int b = 2; b + 1 < n; b += 2) J[b + (size_t) (b + 1) * n] = 0.05;
    for (int i = 0; i < n * n; i++) S[i] = rnd ();
    for (int i = 0; i < n; i++) S[i + (size_t) i * n] += 2.0;  /* well conditioned */
    memcpy (Si, S, (size_t) n * n * sizeof *Si);
    LAPACKE_dgetrf (LAPACK_COL_MAJOR, n, n, Si, n, piv);
    LAPACKE_dgetri (LAPACK_COL_MAJOR, n, Si, n, piv);
    cblas_dgemm (CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, S, n, J, n, 0.0, SJ, n);
    dense d = { n, malloc ((size_t) n * n * sizeof (double)), NULL, { 0 }, NULL, NULL };
    cblas_dgemm (CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, 1.0, SJ, n, Si, n, 0.0, d.a,
                 n);
    dense_dist (&d);
    double complex ref[2] = { 0.11, 0.013 };
    ks_opts o = { .nev = 4, .ncv = blk == 1 ? 19 : 12, .tol = 1e-12, .max_restarts = 50,
                  .seed = 1, .block = blk, .check_orthogonality = 1 };
    ks_result r;
    mb_err err;
    mb_err_init (&err);
    int rc = ks_solve_real (&d.d, apply_real, &d, &o, &r, &err);
    int junk = 0;
    for (int i = 0; rc == 0 && i < r.nconv; i++) {
      int finite = cabs (r.mu[i] - 0.11) < 1e-9 || cabs (r.mu[i] - 0.013) < 1e-9;
      if (!finite && cabs (r.mu[i]) > 1e-11 * 0.11) junk++;
    }
    if (rank == 0) printf ("  defective zero (block %d): %d Ritz values, %d neither finite nor "
                           "below 1e-11 |mu|max, orth %.2e\n", blk, r.nconv, junk, r.orth_loss);
    CHECK (blk == 1 ? "defective zero: the 2 finite eigenvalues, every other Ritz value ~ 0"
                    : "defective zero, blocks of 3: the 2 finite eigenvalues, the rest ~ 0",
           rc == 0 && r.converged && matches (2, ref, 2, &r, 1e-9) && junk == 0
           && r.orth_loss < 1e-13);
    ks_result_clear (&r);
    dense_free (&d);
    free (J); free (S); free (SJ); free (Si); free (piv);
  }
}

int main (int argc, char **argv)
{
  MPI_Init (&argc, &argv);
  MPI_Comm_rank (MPI_COMM_WORLD, &rank);
  test_real_nonsymmetric ();
  test_repeated_and_zero ();
  test_complex ();
  test_not_converged_and_small ();
  test_sizes_and_memory ();
  test_orthogonality ();
  test_block ();
  test_early_stop ();
  test_lagged_gs ();
  test_defective_zero ();
  int status = rank == 0 ? CHECK_DONE () : 0;
  MPI_Bcast (&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Finalize ();
  return status;
}
