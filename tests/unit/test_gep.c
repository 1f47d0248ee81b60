/* test_gep.c: gep_modal and gep_complex against dense LAPACK (dggev, dsygv), any rank count. */
#include <complex.h>
#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <lapacke.h>
#include <mpi.h>

#include "check.h"
#include "eigen/gep.h"
#include "eigen/pencil.h"
#include "eigen/shift_invert.h"

static int rank, nranks;
static const double TWO_PI = 6.283185307179586476925286766559;

/* CHECK on rank 0 only (the values compared live there), with a printf-style description
   that is formatted only when needed. Collective calls go before it. */
#define CHECK0(c, ...) do { if (rank == 0) { char d_[512]; int ok_ = (c); \
  if (ok_) d_[0] = '\0'; else snprintf (d_, sizeof d_, __VA_ARGS__); CHECK (d_, ok_); } } while (0)

static void *xcalloc (size_t count, size_t size)
{
  void *p = calloc (count ? count : 1, size);
  if (!p) { fprintf (stderr, "test_gep: out of memory\n"); MPI_Abort (MPI_COMM_WORLD, 2); }
  return p;
}

/* ---- deterministic pseudo-random numbers (64-bit LCG, Knuth's MMIX constants) ------- */

static unsigned long long rng_state;

static void rng_seed (unsigned long long s) { rng_state = s * 0x9E3779B97F4A7C15ULL + 1; }

static double urand (void)  /* uniform in [0, 1) */
{
  rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
  return (double) (rng_state >> 11) * 0x1.0p-53;
}

static double urange (double a, double b) { return a + (b - a) * urand (); }

/* ---- problems: dense column-major matrices on rank 0 -------------------------------- */

typedef struct problem {
  const char *name;
  int n, m;         /* DOFs, constraint rows */
  double *K, *M;    /* n x n, rank 0 only */
  double *R;        /* n x n or NULL (undamped), rank 0 only */
  double *Cq;       /* m x n (leading dimension m) or NULL when m = 0, rank 0 only */
} problem;

#define AT(A, ld, i, j) ((A)[(size_t) (j) * (ld) + (i)])

/* New problem: zero matrices on rank 0, only the sizes elsewhere. Caller frees. */
static problem problem_new (const char *name, int n, int m, int damped)
{
  problem p = { name, n, m, NULL, NULL, NULL, NULL };
  if (rank != 0) return p;
  p.K = xcalloc ((size_t) n * n, sizeof *p.K);
  p.M = xcalloc ((size_t) n * n, sizeof *p.M);
  if (damped) p.R = xcalloc ((size_t) n * n, sizeof *p.R);
  if (m > 0) p.Cq = xcalloc ((size_t) m * n, sizeof *p.Cq);
  return p;
}

static void problem_free (problem *p)
{
  free (p->K); free (p->M); free (p->R); free (p->Cq);
  p->K = p->M = p->R = p->Cq = NULL;
}

/* A += k (e_i - e_j)(e_i - e_j)^T: a spring (or dashpot) between DOFs i and j. */
static void spring (double *A, int n, int i, int j, double k)
{
  AT (A, n, i, i) += k; AT (A, n, j, j) += k;
  AT (A, n, i, j) -= k; AT (A, n, j, i) -= k;
}

/* K += a chain of springs [1, 2] MN/m over DOFs first..last-1, plus `extra` random cross
   springs [0.1, 0.5] MN/m inside the range; grounded ends when ground. PSD; SPD when
   grounded. */
static void chain (double *K, int n, int first, int last, int extra, int ground)
{
  for (int i = first; i + 1 < last; i++) spring (K, n, i, i + 1, urange (1e6, 2e6));
  for (int e = 0; e < extra; e++) {
    int i = first + (int) (urand () * (last - first)), j = first + (int) (urand () * (last - first));
    if (i != j) spring (K, n, i, j, urange (1e5, 5e5));
  }
  if (ground) {
    AT (K, n, first, first) += urange (1e6, 2e6);
    AT (K, n, last - 1, last - 1) += urange (1e6, 2e6);
  }
}

/* M += diag [0.5, 1.5] kg over DOFs first..last-1 with neighbour coupling <= 0.05 (diagonally
   dominant, so SPD), skipping the DOFs with massless[i] != 0 (zero rows and columns). */
static void masses (double *M, int n, int first, int last, const int *massless)
{
  for (int i = first; i < last; i++)
    if (!massless || !massless[i]) AT (M, n, i, i) += urange (0.5, 1.5);
  for (int i = first; i + 1 < last; i++)
    if (!massless || (!massless[i] && !massless[i + 1])) {
      double c = 0.05 * urand ();
      AT (M, n, i, i + 1) += c;
      AT (M, n, i + 1, i) += c;
    }
}

static double max_abs (int len, const double *a)
{
  double s = 0.0;
  for (int i = 0; i < len; i++) s = fmax (s, fabs (a[i]));
  return s;
}

/* max_i sum_j |A(i,j)| of an nr x nc matrix (leading dimension nr); transposed: of A^T. */
static double norm_inf (int nr, int nc, const double *A, int transposed)
{
  double s = 0.0;
  for (int i = 0; i < (transposed ? nc : nr); i++) {
    double r = 0.0;
    for (int j = 0; j < (transposed ? nr : nc); j++)
      r += fabs (transposed ? AT (A, nr, j, i) : AT (A, nr, i, j));
    s = fmax (s, r);
  }
  return s;
}

/* y = A x (transposed: A^T x) for a real nr x nc matrix and complex x. */
static void matvec (int nr, int nc, const double *A, int transposed, const double complex *x,
                    double complex *y)
{
  int ny = transposed ? nc : nr;
  for (int i = 0; i < ny; i++) y[i] = 0.0;
  for (int j = 0; j < nc; j++)
    for (int i = 0; i < nr; i++) {
      if (transposed) y[j] += AT (A, nr, i, j) * x[i];
      else y[i] += AT (A, nr, i, j) * x[j];
    }
}

static double norm_c (int len, const double complex *x)
{
  double s = 0.0;
  for (int i = 0; i < len; i++) s = fmax (s, cabs (x[i]));
  return s;
}

/* Sparse triplet copy of a dense nr x nc matrix (nonzeros only), compressed; caller frees. */
static spm *to_spm (int nr, int nc, const double *A)
{
  spm *S = spm_create (nr, nc, 16);
  if (!S) abort ();
  for (int j = 0; j < nc; j++)
    for (int i = 0; i < nr; i++)
      if (AT (A, nr, i, j) != 0.0 && spm_add (S, i, j, AT (A, nr, i, j)) != 0) abort ();
  if (spm_compress (S) != 0) abort ();
  return S;
}

/* Collective. sys (compressed matrices on rank 0) handed out by rows as the stages do
   (gep_parts_scatter; R's rows with with_r), for the operator's set-up; aborts on an error
   (the test's own set-up). P borrows rank 0's arrays: clear it before freeing sys's. */
static void parts_of (const gep_system *sys, int with_r, gep_parts *P)
{
  mb_err err;
  mb_err_init (&err);
  if (gep_parts_scatter (MPI_COMM_WORLD, sys, with_r, P, &err) < 0) {
    fprintf (stderr, "test_gep: gep_parts_scatter failed: %s\n", err.msg);
    abort ();
  }
}

/* ---- dense references (rank 0) ------------------------------------------------------ */

/* Dense GEP (18): A = [K Cq^T; Cq 0], B = [M 0; 0 0], order n + m; caller frees both. */
static void pencil_18 (const problem *p, double **A, double **B)
{
  int n = p->n, m = p->m, N = n + m;
  *A = xcalloc ((size_t) N * N, sizeof **A);
  *B = xcalloc ((size_t) N * N, sizeof **B);
  for (int j = 0; j < n; j++)
    for (int i = 0; i < n; i++) {
      AT (*A, N, i, j) = AT (p->K, n, i, j);
      AT (*B, N, i, j) = AT (p->M, n, i, j);
    }
  for (int r = 0; r < m; r++)
    for (int j = 0; j < n; j++) {
      AT (*A, N, n + r, j) = AT (p->Cq, m, r, j);
      AT (*A, N, j, n + r) = AT (p->Cq, m, r, j);
    }
}

/* Dense GEP (31): A = [0 I 0; -K -R -Cq^T; -Cq 0 0], B = diag (I, M, 0), order 2n + m. */
static void pencil_31 (const problem *p, double **A, double **B)
{
  int n = p->n, m = p->m, N = 2 * n + m;
  *A = xcalloc ((size_t) N * N, sizeof **A);
  *B = xcalloc ((size_t) N * N, sizeof **B);
  for (int i = 0; i < n; i++) {
    AT (*A, N, i, n + i) = 1.0;
    AT (*B, N, i, i) = 1.0;
  }
  for (int j = 0; j < n; j++)
    for (int i = 0; i < n; i++) {
      AT (*A, N, n + i, j) = -AT (p->K, n, i, j);
      AT (*A, N, n + i, n + j) = p->R ? -AT (p->R, n, i, j) : 0.0;
      AT (*B, N, n + i, n + j) = AT (p->M, n, i, j);
    }
  for (int r = 0; r < m; r++)
    for (int j = 0; j < n; j++) {
      AT (*A, N, n + j, 2 * n + r) = -AT (p->Cq, m, r, j);
      AT (*A, N, 2 * n + r, j) = -AT (p->Cq, m, r, j);
    }
}

/* The finite eigenvalues alpha/beta of the real pencil (A, B) of order N by LAPACKE_dggev
   (A, B overwritten and freed): those with |beta| > 1e-10 |alpha|. Returns a new array
   (caller frees) and their count in *nf, or NULL if LAPACK failed. */
static double complex *dense_ggev (int N, double *A, double *B, int *nf)
{
  double *ar = xcalloc ((size_t) N, sizeof *ar), *ai = xcalloc ((size_t) N, sizeof *ai);
  double *be = xcalloc ((size_t) N, sizeof *be);
  double complex *lam = xcalloc ((size_t) N, sizeof *lam);
  lapack_int info = LAPACKE_dggev (LAPACK_COL_MAJOR, 'N', 'N', N, A, N, B, N, ar, ai, be,
                                   NULL, 1, NULL, 1);
  *nf = 0;
  for (int j = 0; j < N && info == 0; j++)
    if (be[j] != 0.0 && fabs (be[j]) > 1e-10 * hypot (ar[j], ai[j]))
      lam[(*nf)++] = (ar[j] + I * ai[j]) / be[j];
  free (ar); free (ai); free (be); free (A); free (B);
  if (info != 0) { free (lam); return NULL; }
  return lam;
}

static double complex *ggev_18 (const problem *p, int *nf)
{
  double *A, *B;
  pencil_18 (p, &A, &B);
  return dense_ggev (p->n + p->m, A, B, nf);
}

static double complex *ggev_31 (const problem *p, int *nf)
{
  double *A, *B;
  pencil_31 (p, &A, &B);
  return dense_ggev (2 * p->n + p->m, A, B, nf);
}

/* Z (n x (n - m), orthonormal columns) spanning the null space of Cq, from the last n - m
   right singular vectors (LAPACKE_dgesvd); *smin = the smallest singular value of Cq.
   Caller frees. */
static double *null_space (const problem *p, double *smin)
{
  int n = p->n, m = p->m;
  double *C = xcalloc ((size_t) m * n, sizeof *C), *VT = xcalloc ((size_t) n * n, sizeof *VT);
  double *sv = xcalloc ((size_t) m, sizeof *sv), *superb = xcalloc ((size_t) m, sizeof *superb);
  memcpy (C, p->Cq, (size_t) m * n * sizeof *C);
  lapack_int info = LAPACKE_dgesvd (LAPACK_COL_MAJOR, 'N', 'A', m, n, C, m, sv, NULL, 1, VT, n,
                                    superb);
  double *Z = xcalloc ((size_t) n * (n - m), sizeof *Z);
  for (int c = 0; c < n - m; c++)
    for (int i = 0; i < n; i++) AT (Z, n, i, c) = AT (VT, n, m + c, i);
  *smin = info == 0 ? sv[m - 1] : 0.0;
  free (C); free (VT); free (sv); free (superb);
  return Z;
}

/* Z^T A Z for n x n A and n x r Z; caller frees. */
static double *project (int n, int r, const double *A, const double *Z)
{
  double *AZ = xcalloc ((size_t) n * r, sizeof *AZ), *P = xcalloc ((size_t) r * r, sizeof *P);
  for (int c = 0; c < r; c++)
    for (int k = 0; k < n; k++) {
      double z = AT (Z, n, k, c);
      if (z != 0.0) for (int i = 0; i < n; i++) AT (AZ, n, i, c) += AT (A, n, i, k) * z;
    }
  for (int c = 0; c < r; c++)
    for (int i = 0; i < r; i++) {
      double s = 0.0;
      for (int k = 0; k < n; k++) s += AT (Z, n, k, i) * AT (AZ, n, k, c);
      AT (P, r, i, c) = s;
    }
  free (AZ);
  return P;
}

/* The problem restricted to the null space of Cq: K_r = Z^T K Z, M_r, R_r, no constraints
   (q = Z y satisfies Cq q = 0 exactly). Caller frees with problem_free. */
static problem reduce (const problem *p, const double *Z)
{
  int r = p->n - p->m;
  problem q = { "reduced", r, 0, NULL, NULL, NULL, NULL };
  q.K = project (p->n, r, p->K, Z);
  q.M = project (p->n, r, p->M, Z);
  if (p->R) q.R = project (p->n, r, p->R, Z);
  return q;
}

/* Eigenvalues of the symmetric-definite pair (A, B) of order r, ascending (LAPACKE_dsygv);
   caller frees; NULL if LAPACK failed. A, B are kept. */
static double complex *dense_sygv (int r, const double *A, const double *B)
{
  double *a = xcalloc ((size_t) r * r, sizeof *a), *b = xcalloc ((size_t) r * r, sizeof *b);
  double *w = xcalloc ((size_t) r, sizeof *w);
  memcpy (a, A, (size_t) r * r * sizeof *a);
  memcpy (b, B, (size_t) r * r * sizeof *b);
  lapack_int info = LAPACKE_dsygv (LAPACK_COL_MAJOR, 1, 'N', 'U', r, a, r, b, r, w);
  double complex *lam = NULL;
  if (info == 0) {
    lam = xcalloc ((size_t) r, sizeof *lam);
    for (int i = 0; i < r; i++) lam[i] = w[i];
  }
  free (a); free (b); free (w);
  return lam;
}

/* Sorts lam[0..len) by |lam - sigma| ascending (then by real part, then imaginary). */
static void sort_by_distance (double complex *lam, int len, double complex sigma)
{
  for (int i = 1; i < len; i++)
    for (int j = i; j > 0; j--) {
      double complex a = lam[j - 1], b = lam[j];
      double da = cabs (a - sigma), db = cabs (b - sigma);
      int swap = da > db || (da == db && (creal (a) > creal (b) ||
                                          (creal (a) == creal (b) && cimag (a) > cimag (b))));
      if (!swap) break;
      lam[j - 1] = b; lam[j] = a;
    }
}

static void sort_by_real (double complex *lam, int len)
{
  for (int i = 1; i < len; i++)
    for (int j = i; j > 0 && creal (lam[j - 1]) > creal (lam[j]); j--) {
      double complex t = lam[j]; lam[j] = lam[j - 1]; lam[j - 1] = t;
    }
}

/* Reference values with real part in [lo, hi). */
static long count_in (const double complex *lam, int len, double lo, double hi)
{
  long c = 0;
  for (int i = 0; i < len; i++) c += creal (lam[i]) >= lo && creal (lam[i]) < hi;
  return c;
}

/* ---- running a stage ---------------------------------------------------------------- */

/* Krylov-Schur's block size in every stage (eigen_opts.block): 0 automatic, or the
   command line's --block N (run.sh forces the block path on the small problems). */
static int forced_block = 0;

static eigen_opts stage (int modes)
{
  eigen_opts s;
  memset (&s, 0, sizeof s);
  s.modes = modes;
  s.block = forced_block;
  s.tolerance = 1e-10;
  s.max_restarts = 100;
  s.subspace = 0;
  return s;
}

/* Collective: gep_modal or gep_complex on p (matrices handed on by rank 0 only, as main.c
   does), quiet log. Checks that every rank got the same status and returns it. */
static int run_stage (int damped, const problem *p, const eigen_opts *st, int keep,
                      eigen_result *r, mb_err *err)
{
  spm *K = NULL, *M = NULL, *R = NULL, *Cq = NULL;
  if (rank == 0) {
    K = to_spm (p->n, p->n, p->K);
    M = to_spm (p->n, p->n, p->M);
    if (p->R) R = to_spm (p->n, p->n, p->R);
    if (p->m > 0) Cq = to_spm (p->m, p->n, p->Cq);
  }
  gep_system sys = { .n = p->n, .m = p->m, .K = K, .M = M, .R = R, .Cq = Cq };
  eigen_opts o = *st;  /* quiet log, unless TEST_GEP_LOG is set (the stages' log on stdout) */
  o.keep_vectors = keep;
  o.log = getenv ("TEST_GEP_LOG") && rank == 0 ? stdout : NULL;
  mb_err_init (err);
  /* TEST_GEP_PARTS set (on every rank): the system by rows, as a matrix deck read by rows
     gives it (rank 0's entries routed to their rows' ranks, no whole matrix; R only for
     the damped stage, as a deck without a damped stage does not read it): every check
     then runs on the stages' by-rows paths (an unsymmetric undamped pencil's too; and
     their gathers for a complex shift or one rank) */
  gep_parts parts;
  gep_measures ms;
  int by_rows = getenv ("TEST_GEP_PARTS") != NULL, rc = 0;
  if (by_rows) {
    spm *e = rank == 0 ? NULL : spm_create (p->n, p->n, 1), *ec = NULL;
    if (rank != 0 && p->m > 0) ec = spm_create (p->m, p->n, 1);
    const spm *rr = damped && p->R ? (rank == 0 ? R : e) : NULL;
    rc = gep_parts_route (MPI_COMM_WORLD, p->n, p->m, rank == 0 ? K : e, rank == 0 ? M : e,
                          rr, rank == 0 ? Cq : ec, &parts, err);
    if (rc == 0) rc = gep_measure_parts (MPI_COMM_WORLD, &parts, 0, &ms, err);
    spm_free (e); spm_free (ec);
    spm_free (K); spm_free (M); spm_free (R); spm_free (Cq);
    K = M = R = Cq = NULL;
    gep_system rows = { .n = p->n, .m = p->m, .parts = &parts, .measures = &ms };
    sys = rows;
  }
  if (rc == 0)
    rc = damped ? gep_complex (MPI_COMM_WORLD, &sys, &o, r, err)
                : gep_modal (MPI_COMM_WORLD, &sys, &o, r, err);
  else memset (r, 0, sizeof *r);
  if (by_rows) gep_parts_clear (&parts);
  spm_free (K); spm_free (M); spm_free (R); spm_free (Cq);
  int lo, hi;
  MPI_Allreduce (&rc, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce (&rc, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  CHECK0 (lo == hi, "%s (%s): same status on every rank (got %d .. %d)", p->name,
          damped ? "complex" : "modal", lo, hi);
  return rc;
}

/* ---- checks of the results (rank 0) ------------------------------------------------- */

/* Modal stage: r holds `want` modes, the ones nearest the shift among the reference
   eigenvalues ref (sorted by distance to the shift by this call; real parts compared when
   symmetric), to 1e-8 relative (plus 1e-12 max|K|/max|M| absolute for zeros); kinds,
   frequencies, residual field. Vectors (keep): mass-normalized (symmetric), largest entry
   positive, M-orthogonal, residual of K x + Cq^T xi - lambda M x and of Cq x recomputed
   here. */
static void check_modal (const char *name, const problem *p, const eigen_result *r,
                         double complex *ref, int nref, int want, int keep, int symmetric)
{
  if (rank != 0) return;
  int n = p->n, m = p->m;
  double kscale = max_abs (n * n, p->K) / max_abs (n * n, p->M);
  double rigid_tol = 1e-9 * kscale;
  CHECK0 (r->nmodes == want, "%s: %d modes reported, %d wanted", name, r->nmodes, want);
  CHECK0 (nref >= want, "%s: reference has %d finite eigenvalues (< %d)", name, nref, want);
  int k = r->nmodes < want ? r->nmodes : want;
  if (k > nref) k = nref;
  sort_by_distance (ref, nref, r->shift);
  double complex *near = xcalloc ((size_t) k, sizeof *near), *got = xcalloc ((size_t) k, sizeof *got);
  for (int i = 0; i < k; i++) { near[i] = ref[i]; got[i] = r->modes[i].lambda; }
  sort_by_real (near, k);
  sort_by_real (got, k);
  double worst = 0.0;
  for (int i = 0; i < k; i++) {
    double d = symmetric ? fabs (creal (got[i]) - creal (near[i])) : cabs (got[i] - near[i]);
    worst = fmax (worst, d / (1e-8 * cabs (near[i]) + 1e-12 * kscale));
  }
  CHECK0 (worst <= 1.0, "%s: eigenvalues vs dense LAPACK off by %.2f x tolerance", name, worst);
  if (k > 0 && k < nref)  /* the selection is unambiguous: a gap after the k-th */
    CHECK0 (cabs (ref[k] - r->shift) > cabs (ref[k - 1] - r->shift) * (1 + 1e-6),
            "%s: (test setup) reference tie at the %d-th eigenvalue", name, k);
  free (near); free (got);

  int fields_ok = 1, order_ok = 1, nan_free = 1;
  double worst_res = 0.0;
  for (int i = 0; i < r->nmodes; i++) {
    const mode *md = &r->modes[i];
    double l = creal (md->lambda);
    mode_kind kind = fabs (l) <= rigid_tol ? MODE_RIGID : MODE_OSCILLATORY;
    if (!isfinite (creal (md->lambda)) || !isfinite (cimag (md->lambda)) ||
        !isfinite (md->residual) || !isfinite (md->freq_hz)) nan_free = 0;
    if (symmetric && cimag (md->lambda) != 0.0) fields_ok = 0;
    if (md->kind != kind) fields_ok = 0;
    if (fabs (md->freq_hz - sqrt (cabs (md->lambda)) / TWO_PI) > 1e-12 * (md->freq_hz + 1e-300))
      fields_ok = 0;
    if (md->damped_freq_hz != md->freq_hz || md->zeta != 0.0) fields_ok = 0;
    if (i > 0 && md->freq_hz < r->modes[i - 1].freq_hz) order_ok = 0;
    worst_res = fmax (worst_res, md->residual);
  }
  CHECK0 (nan_free, "%s: NaN or Inf in a reported mode", name);
  CHECK0 (fields_ok, "%s: kind / freq_hz / damped_freq_hz / zeta inconsistent with lambda", name);
  CHECK0 (order_ok, "%s: modes not in ascending frequency", name);
  CHECK0 (worst_res < r->tolerance, "%s: residual field %.2e >= tolerance %.0e", name,
          worst_res, r->tolerance);
  if (!keep) return;

  double kn = norm_inf (n, n, p->K, 0), mn = norm_inf (n, n, p->M, 0);
  double ctn = m > 0 ? norm_inf (m, n, p->Cq, 1) : 0.0, cn = m > 0 ? norm_inf (m, n, p->Cq, 0) : 0.0;
  double complex *t = xcalloc ((size_t) n, sizeof *t), *u = xcalloc ((size_t) n, sizeof *u);
  double complex *c = xcalloc ((size_t) m + 1, sizeof *c);
  int have = 1, real = 1, sign_ok = 1, xi_ok = 1;
  double worst_mass = 0.0, worst_orth = 0.0, worst_eq = 0.0, worst_con = 0.0;
  for (int i = 0; i < r->nmodes; i++) {
    const mode *md = &r->modes[i];
    const double complex *x = md->x, *xi = md->xi;
    if (!x) { have = 0; continue; }
    if ((m > 0) != (xi != NULL)) { xi_ok = 0; continue; }
    double xn = norm_c (n, x);
    for (int j = 0; j < n; j++) if (cimag (x[j]) != 0.0) real = 0;
    int big = 0;
    while (big < n && cabs (x[big]) < xn * (1.0 - 1e-8)) big++;
    if (big == n || !(creal (x[big]) > 0.0) || fabs (cimag (x[big])) > 1e-14 * xn) sign_ok = 0;
    /* K x + Cq^T xi - lambda M x, normwise backward error */
    matvec (n, n, p->K, 0, x, t);
    matvec (n, n, p->M, 0, x, u);
    double complex mass = 0.0;
    for (int j = 0; j < n; j++) { t[j] -= md->lambda * u[j]; mass += conj (x[j]) * u[j]; }
    double xin = 0.0;
    if (m > 0) {
      double complex *f = xcalloc ((size_t) n, sizeof *f);
      matvec (m, n, p->Cq, 1, xi, f);
      for (int j = 0; j < n; j++) t[j] += f[j];
      free (f);
      xin = norm_c (m, xi);
      matvec (m, n, p->Cq, 0, x, c);
      worst_con = fmax (worst_con, norm_c (m, c) / (cn * xn));
    }
    worst_eq = fmax (worst_eq, norm_c (n, t) / ((kn + cabs (md->lambda) * mn) * xn + ctn * xin));
    if (symmetric) worst_mass = fmax (worst_mass, cabs (mass - 1.0));
    for (int j = 0; j < i && symmetric; j++) {  /* x_j^T M x_i */
      const double complex *y = r->modes[j].x;
      if (!y) continue;
      double complex s = 0.0;
      for (int q = 0; q < n; q++) s += conj (y[q]) * u[q];
      worst_orth = fmax (worst_orth, cabs (s));
    }
  }
  CHECK0 (have, "%s: eigenvector missing with keep_vectors", name);
  CHECK0 (xi_ok, "%s: multipliers xi %s", name, m > 0 ? "missing (m > 0)" : "present with m = 0");
  if (symmetric) {
    CHECK0 (real, "%s: modal eigenvector has an imaginary part", name);
    CHECK0 (worst_mass < 1e-8, "%s: x^T M x - 1 = %.2e", name, worst_mass);
    /* between distinct eigenvalues only as good as the vectors: residual 1e-10 times
       ||K|| / gap (~ 5e6 / 2e4 here) ~ 3e-8; within a cluster the code makes it exact */
    CHECK0 (worst_orth < 1e-7, "%s: M-orthogonality |x_j^T M x_i| = %.2e", name, worst_orth);
  }
  CHECK0 (sign_ok, "%s: largest eigenvector entry not real positive", name);
  /* normwise backward error, infinity norms: 10 x tolerance for the norm conversions */
  CHECK0 (worst_eq < 10 * r->tolerance, "%s: ||K x + Cq^T xi - lambda M x|| relative %.2e",
          name, worst_eq);
  if (m > 0) CHECK0 (worst_con < 1e-9, "%s: ||Cq x|| relative %.2e", name, worst_con);
  free (t); free (u); free (c);
}

/* Missed-mode check fields: done, and sturm_count = the reference eigenvalues in
   [lo, sturm_lambda). */
static void check_sturm (const char *name, const eigen_result *r, const double complex *ref,
                         int nref, double lo)
{
  if (rank != 0) return;
  CHECK0 (r->sturm_done == 1, "%s: missed-mode check did not run", name);
  if (!r->sturm_done) return;
  double hi = 0.0;
  for (int i = 0; i < r->nmodes; i++) hi = fmax (hi, creal (r->modes[i].lambda));
  CHECK0 (r->sturm_lambda > hi && r->sturm_lambda <= hi + 1e-4 * fabs (hi) + 1e-6,
          "%s: sturm_lambda %.10g not just above the highest mode %.10g", name,
          r->sturm_lambda, hi);
  long want = count_in (ref, nref, lo, r->sturm_lambda);
  CHECK0 (r->sturm_count == want, "%s: sturm_count %ld, dense LAPACK counts %ld in [%.6g, %.10g)",
          name, r->sturm_count, want, lo, r->sturm_lambda);
}

/* Complex stage: r holds `want` modes, Im lambda >= 0, each matching a distinct one of the
   `want` reference eigenvalues (Im >= 0 members) nearest the shift to 1e-8 relative; zeta,
   frequencies and kind agree with lambda; residual field; vectors (keep): largest position
   entry 1, (lambda^2 M + lambda R + K) x + Cq^T xi = 0 recomputed here. Returns the number
   of overdamped (real negative) reference values among the wanted ones. */
static int check_complex (const char *name, const problem *p, const eigen_result *r,
                          const double complex *ref_all, int nall, int want, int keep)
{
  if (rank != 0) return 0;
  int n = p->n, m = p->m;
  double complex *ref = xcalloc ((size_t) nall, sizeof *ref);
  int nref = 0;
  for (int i = 0; i < nall; i++)
    if (cimag (ref_all[i]) >= 0.0) ref[nref++] = ref_all[i];
  sort_by_distance (ref, nref, r->shift);
  CHECK0 (r->nmodes == want, "%s: %d modes reported, %d wanted", name, r->nmodes, want);
  if (want < nref)
    CHECK0 (cabs (ref[want] - r->shift) > cabs (ref[want - 1] - r->shift) * (1 + 1e-6),
            "%s: (test setup) reference tie at the %d-th eigenvalue", name, want);
  int n_over = 0;
  for (int i = 0; i < want && i < nref; i++) n_over += cimag (ref[i]) == 0.0 && creal (ref[i]) < 0.0;
  int *used = xcalloc ((size_t) nref + 1, sizeof *used);
  int upper = 1, matched = 1, fields_ok = 1, kind_ok = 1, nan_free = 1;
  double worst = 0.0, worst_res = 0.0;
  for (int i = 0; i < r->nmodes; i++) {
    const mode *md = &r->modes[i];
    double complex l = md->lambda;
    if (!isfinite (creal (l)) || !isfinite (cimag (l)) || !isfinite (md->residual)) nan_free = 0;
    if (cimag (l) < 0.0) upper = 0;
    int best = -1;
    double bd = INFINITY;
    for (int j = 0; j < nref; j++)
      if (!used[j] && cabs (ref[j] - l) < bd) { bd = cabs (ref[j] - l); best = j; }
    if (best < 0 || best >= want) { matched = 0; continue; }
    used[best] = 1;
    worst = fmax (worst, bd / (1e-8 * cabs (ref[best])));
    double al = cabs (l);
    if (fabs (md->zeta + creal (l) / al) > 1e-12 || fabs (md->freq_hz - al / TWO_PI) > 1e-12 * al
        || fabs (md->damped_freq_hz - fabs (cimag (l)) / TWO_PI) > 1e-12 * al) fields_ok = 0;
    mode_kind kind = cimag (ref[best]) == 0.0 ? MODE_OVERDAMPED : MODE_OSCILLATORY;
    if (creal (ref[best]) >= 0.0 || md->kind != kind) kind_ok = 0;
    if (kind == MODE_OVERDAMPED && cimag (l) != 0.0) kind_ok = 0;
    worst_res = fmax (worst_res, md->residual);
  }
  CHECK0 (nan_free, "%s: NaN or Inf in a reported mode", name);
  CHECK0 (upper, "%s: a mode with Im lambda < 0 (conjugate reported instead of Im >= 0)", name);
  CHECK0 (matched, "%s: a mode is not one of the %d dense eigenvalues nearest the shift, or is "
          "reported twice", name, want);
  CHECK0 (worst <= 1.0, "%s: eigenvalues vs dense LAPACK off by %.2f x tolerance", name, worst);
  CHECK0 (fields_ok, "%s: zeta / freq_hz / damped_freq_hz inconsistent with lambda", name);
  CHECK0 (kind_ok, "%s: kind (OSCILLATORY / OVERDAMPED) disagrees with the dense eigenvalue", name);
  CHECK0 (worst_res < r->tolerance, "%s: residual field %.2e >= tolerance %.0e", name,
          worst_res, r->tolerance);
  free (used);
  free (ref);
  if (!keep) return n_over;

  double kn = norm_inf (n, n, p->K, 0), mn = norm_inf (n, n, p->M, 0);
  double rn = p->R ? norm_inf (n, n, p->R, 0) : 0.0;
  double ctn = m > 0 ? norm_inf (m, n, p->Cq, 1) : 0.0, cn = m > 0 ? norm_inf (m, n, p->Cq, 0) : 0.0;
  double complex *t = xcalloc ((size_t) n, sizeof *t), *u = xcalloc ((size_t) n, sizeof *u);
  double complex *c = xcalloc ((size_t) m + 1, sizeof *c);
  int have = 1, unit = 1, xi_ok = 1;
  double worst_eq = 0.0, worst_con = 0.0;
  for (int i = 0; i < r->nmodes; i++) {
    const mode *md = &r->modes[i];
    const double complex *x = md->x, *xi = md->xi;
    double complex l = md->lambda;
    if (!x) { have = 0; continue; }
    if ((m > 0) != (xi != NULL)) { xi_ok = 0; continue; }
    double xn = norm_c (n, x);
    int one = 0;
    for (int j = 0; j < n; j++) one |= cabs (x[j] - 1.0) < 1e-12;
    if (!one || xn > 1.0 + 1e-8) unit = 0;
    /* (K + lambda R + lambda^2 M) x + Cq^T xi */
    matvec (n, n, p->K, 0, x, t);
    matvec (n, n, p->M, 0, x, u);
    for (int j = 0; j < n; j++) t[j] += l * l * u[j];
    if (p->R) {
      matvec (n, n, p->R, 0, x, u);
      for (int j = 0; j < n; j++) t[j] += l * u[j];
    }
    double xin = 0.0;
    if (m > 0) {
      double complex *f = xcalloc ((size_t) n, sizeof *f);
      matvec (m, n, p->Cq, 1, xi, f);
      for (int j = 0; j < n; j++) t[j] += f[j];
      free (f);
      xin = norm_c (m, xi);
      matvec (m, n, p->Cq, 0, x, c);
      worst_con = fmax (worst_con, norm_c (m, c) / (cn * xn));
    }
    double al = cabs (l);
    worst_eq = fmax (worst_eq, norm_c (n, t) / ((kn + al * rn + al * al * mn) * xn + ctn * xin));
  }
  CHECK0 (have, "%s: eigenvector missing with keep_vectors", name);
  CHECK0 (xi_ok, "%s: multipliers xi %s", name, m > 0 ? "missing (m > 0)" : "present with m = 0");
  CHECK0 (unit, "%s: largest position entry is not 1", name);
  CHECK0 (worst_eq < 1e-8, "%s: ||(lambda^2 M + lambda R + K) x + Cq^T xi|| relative %.2e",
          name, worst_eq);
  if (m > 0) CHECK0 (worst_con < 1e-9, "%s: ||Cq x|| relative %.2e", name, worst_con);
  free (t); free (u); free (c);
  return n_over;
}

/* Status, convergence and the echoed settings, after a run meant to succeed. */
static void check_ok (const char *name, int rc, const mb_err *err, const eigen_result *r,
                      const problem *p, int damped)
{
  if (rc != 0 && rank == 0) printf ("  %s: rc %d: %s\n", name, rc, err->msg);
  CHECK0 (rc == 0, "%s: status %d, expected 0", name, rc);
  CHECK0 (r->converged == 1, "%s: not converged", name);
  CHECK0 (r->stage == (damped ? STAGE_COMPLEX : STAGE_MODAL) && r->n == p->n && r->m == p->m,
          "%s: stage / n / m not echoed", name);
  CHECK0 (r->factor.ranks == nranks, "%s: factor.ranks %d, %d MPI ranks", name, r->factor.ranks,
          nranks);
}

/* ---- the problems -------------------------------------------------------------------- */

/* 1: K SPD, M SPD, no constraints: the lowest modes. Returns the problem (used again by 8
   and 10). */
static problem make_spd (int n, unsigned long long seed)
{
  problem p = problem_new ("spd", n, 0, 0);
  if (rank != 0) return p;
  rng_seed (seed);
  chain (p.K, n, 0, n, n / 3, 1);
  masses (p.M, n, 0, n, NULL);
  return p;
}

static void test_spd (void)
{
  problem p = make_spd (60, 1);
  int nref = 0;
  double complex *ref = rank == 0 ? ggev_18 (&p, &nref) : NULL;  /* dggev on GEP (18) */
  CHECK0 (ref && nref == p.n, "spd: (setup) dggev gave %d of %d finite eigenvalues", nref, p.n);
  eigen_opts st = stage (8);
  eigen_result r;
  mb_err err;
  int rc = run_stage (0, &p, &st, 1, &r, &err);
  check_ok ("spd", rc, &err, &r, &p, 0);
  CHECK0 (creal (r.shift) == -1e-3, "spd: default shift %g, expected -1e-3", creal (r.shift));
  CHECK0 (r.factor.symmetric == 1, "spd: symmetric pencil not factored LDL^T");
  check_modal ("spd", &p, &r, ref, nref, 8, 1, 1);
  check_sturm ("spd", &r, ref, nref, creal (r.shift));
  eigen_result_clear (&r);

  /* 8: target frequency in the middle of the spectrum: the modes nearest sigma = (2 pi f)^2 */
  if (rank == 0) {
    sort_by_real (ref, nref);
    double lt = 0.5 * (creal (ref[20]) + creal (ref[21]));  /* between the 21st and 22nd */
    st.target_hz = sqrt (lt) / TWO_PI;
  }
  MPI_Bcast (&st.target_hz, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  st.has_target = 1;
  st.modes = 6;
  rc = run_stage (0, &p, &st, 1, &r, &err);
  check_ok ("spd target", rc, &err, &r, &p, 0);
  double sig = pow (TWO_PI * st.target_hz, 2);
  CHECK0 (fabs (creal (r.shift) - sig) <= 1e-12 * sig, "spd target: shift %.10g, expected "
          "(2 pi f)^2 = %.10g", creal (r.shift), sig);
  check_modal ("spd target", &p, &r, ref, nref, 6, 1, 1);
  if (rank == 0 && r.nmodes > 0) {
    /* the reported interval: from the lowest reported mode up to sturm_lambda */
    double lo = creal (r.modes[0].lambda);
    check_sturm ("spd target", &r, ref, nref, lo * (1.0 - 1e-7));
  }
  eigen_result_clear (&r);
  free (ref);
  problem_free (&p);
}

/* 2 and 8: two free components (K = sum of spring Laplacians, null space of dimension 2):
   2 rigid modes, then elastic ones; the missed-mode count includes the zeros.
   With the default shift sigma = -1e-3 rad^2/s^2, OP = (K - sigma M)^-1 M is 1e3 on the
   rigid modes and ~7e-6 on the elastic ones (lambda ~ 1.4e5): rounding caps the elastic
   pairs near eps lambda / |sigma| ~ 1e-8 while the Krylov-Schur estimate says converged.
   gep_modal sees it in the true residuals and runs again at a tenth of the lowest elastic
   eigenvalue; this test guards that (residual field below the tolerance). */
static void test_rigid (void)
{
  int n = 50;
  problem p = problem_new ("rigid", n, 0, 0);
  if (rank == 0) {
    rng_seed (2);
    chain (p.K, n, 0, 30, 10, 0);
    chain (p.K, n, 30, n, 6, 0);
    masses (p.M, n, 0, n, NULL);
  }
  int nref = 0;
  double complex *ref = rank == 0 ? ggev_18 (&p, &nref) : NULL;
  CHECK0 (ref && nref == n, "rigid: (setup) dggev gave %d of %d finite eigenvalues", nref, n);
  if (rank == 0) {
    sort_by_real (ref, nref);
    double ks = max_abs (n * n, p.K) / max_abs (n * n, p.M);
    CHECK0 (fabs (creal (ref[1])) < 1e-12 * ks && creal (ref[2]) > 1e-3 * ks * 1e-3,
            "rigid: (setup) dense spectrum has not exactly 2 zeros: %g %g %g",
            creal (ref[0]), creal (ref[1]), creal (ref[2]));
  }
  eigen_opts st = stage (6);
  eigen_result r;
  mb_err err;
  int rc = run_stage (0, &p, &st, 1, &r, &err);
  check_ok ("rigid", rc, &err, &r, &p, 0);
  if (rank == 0) {
    int nrigid = 0;
    for (int i = 0; i < r.nmodes; i++) nrigid += r.modes[i].kind == MODE_RIGID;
    CHECK0 (nrigid == 2, "rigid: %d modes of kind MODE_RIGID, expected 2", nrigid);
    CHECK0 (r.nmodes >= 2 && r.modes[0].kind == MODE_RIGID && r.modes[1].kind == MODE_RIGID,
            "rigid: the two lowest modes are not MODE_RIGID");
  }
  check_modal ("rigid", &p, &r, ref, nref, 6, 1, 1);
  check_sturm ("rigid", &r, ref, nref, creal (r.shift));
  eigen_result_clear (&r);

  /* control: the same pencil with a shift of -1 rad^2/s^2 */
  st.has_shift = 1;
  st.shift = -1.0;
  rc = run_stage (0, &p, &st, 1, &r, &err);
  check_ok ("rigid, shift -1", rc, &err, &r, &p, 0);
  CHECK0 (creal (r.shift) == -1.0, "rigid, shift -1: shift %g not taken", creal (r.shift));
  check_modal ("rigid, shift -1", &p, &r, ref, nref, 6, 1, 1);
  check_sturm ("rigid, shift -1", &r, ref, nref, creal (r.shift));
  eigen_result_clear (&r);

  /* issue 9: kinds decided from the eigenvalue, not from the shift: far below the spectrum
     (-1e3 x the lowest elastic eigenvalue) the 2 rigid-body modes stay MODE_RIGID and the
     elastic ones MODE_OSCILLATORY (check_modal: kind against dense dggev's eigenvalue);
     far above (10 x the largest) the 6 highest modes are all oscillatory. */
  double span[2] = { 0.0, 0.0 };  /* lowest elastic, largest eigenvalue (dggev) */
  if (rank == 0) {
    sort_by_real (ref, nref);
    span[0] = creal (ref[2]);
    span[1] = creal (ref[nref - 1]);
  }
  MPI_Bcast (span, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  for (int far = 0; far < 2; far++) {
    const char *label = far ? "rigid, shift 10 x above" : "rigid, shift 1e3 x below";
    st.shift = far ? 10.0 * span[1] : -1e3 * span[0];
    rc = run_stage (0, &p, &st, 1, &r, &err);
    check_ok (label, rc, &err, &r, &p, 0);
    check_modal (label, &p, &r, ref, nref, 6, 1, 1);
    if (rank == 0) {
      int nrigid = 0;
      for (int i = 0; i < r.nmodes; i++) nrigid += r.modes[i].kind == MODE_RIGID;
      CHECK0 (nrigid == (far ? 0 : 2), "%s: %d modes of kind MODE_RIGID, expected %d", label,
              nrigid, far ? 0 : 2);
    }
    eigen_result_clear (&r);
  }
  /* and 1e8 x below, where OP ~ 1/sigma on every mode: never exit 0 with the inaccurate
     modes; MB_ENOCONV that names the far shift */
  st.shift = -1e8 * span[0];
  rc = run_stage (0, &p, &st, 1, &r, &err);
  CHECK0 (rc == MB_ENOCONV && strstr (err.msg, "far from those modes"),
          "rigid, shift 1e8 x below: status %d, expected MB_ENOCONV naming the far shift: %.300s",
          rc, err.msg);
  CHECK0 (!r.converged && r.n_above_tol > 0, "rigid, shift 1e8 x below: converged %d with %d "
          "modes above the tolerance", r.converged, r.n_above_tol);
  eigen_result_clear (&r);
  free (ref);
  problem_free (&p);
}

/* 3 and 5b: random sparse full-rank Cq (entries ~1, K ~1e6): modal vs dsygv on the null
   space and dggev on GEP (18); multipliers; then light damping, complex stage vs dggev on
   the null-space-reduced GEP (31). */
static void test_constrained (void)
{
  int n = 80, m = 10;
  problem p = problem_new ("constrained", n, m, 1);
  if (rank == 0) {
    rng_seed (3);
    chain (p.K, n, 0, n, n / 4, 1);
    masses (p.M, n, 0, n, NULL);
    for (int r = 0; r < m; r++)
      for (int e = 0; e < 6; e++) {
        int j = (int) (urand () * n);
        AT (p.Cq, m, r, j) = (urand () < 0.5 ? -1.0 : 1.0) * urange (0.5, 1.5);
      }
    for (int i = 0; i + 1 < n; i++) spring (p.R, n, i, i + 1, urange (5.0, 50.0));
    for (int i = 0; i < n; i += 7) AT (p.R, n, i, i) += urange (5.0, 50.0);
  }
  double smin = 0.0;
  double *Z = rank == 0 ? null_space (&p, &smin) : NULL;
  CHECK0 (smin > 1e-3, "constrained: (setup) Cq not of full rank: sigma_min %.2e", smin);
  problem q = rank == 0 ? reduce (&p, Z) : problem_new ("reduced", n - m, 0, 0);
  double complex *ref = rank == 0 ? dense_sygv (n - m, q.K, q.M) : NULL;  /* dsygv on Z^T K Z */
  int nref = n - m, ngg = 0;
  double complex *gg = rank == 0 ? ggev_18 (&p, &ngg) : NULL;           /* dggev on GEP (18) */
  CHECK0 (ref != NULL, "constrained: (setup) dsygv failed");
  CHECK0 (gg != NULL, "constrained: (setup) dggev failed");
  if (rank == 0 && ref && gg) {  /* the two references agree on the lowest 12 */
    sort_by_real (gg, ngg);
    double d = 0.0;
    int k = 0;
    while (k < ngg && creal (gg[k]) < -1e-3) k++;  /* (none expected) */
    for (int i = 0; i < 12 && k + i < ngg; i++)
      d = fmax (d, cabs (gg[k + i] - ref[i]) / cabs (ref[i]));
    CHECK0 (k == 0 && d < 1e-8, "constrained: (setup) dggev and dsygv disagree: %.2e", d);
  }
  eigen_opts st = stage (8);
  eigen_result r;
  mb_err err;
  int rc = run_stage (0, &p, &st, 1, &r, &err);
  check_ok ("constrained modal", rc, &err, &r, &p, 0);
  check_modal ("constrained modal", &p, &r, ref, nref, 8, 1, 1);
  check_sturm ("constrained modal", &r, ref, nref, creal (r.shift));
  if (ref) check_modal ("constrained modal vs dggev", &p, &r, gg, ngg, 8, 0, 1);
  eigen_result_clear (&r);

  /* 5b: damped and constrained: GEP (31) of order 2n + m vs dggev on the reduced pencil */
  int nred = 0;
  double complex *zref = rank == 0 ? ggev_31 (&q, &nred) : NULL;
  CHECK0 (zref && nred == 2 * (n - m), "constrained: (setup) reduced GEP (31): %d finite", nred);
  st = stage (5);
  rc = run_stage (1, &p, &st, 1, &r, &err);
  check_ok ("constrained complex", rc, &err, &r, &p, 1);
  CHECK0 (creal (r.shift) == 1e-3 && cimag (r.shift) == 0.0, "constrained complex: default "
          "shift %g%+gi, expected 1e-3", creal (r.shift), cimag (r.shift));
  CHECK0 (r.factor.complex_arith == 0 && r.factor.order == n + m, "constrained complex: real "
          "shift, factored complex %d order %ld, expected the real path of order n + m = %d",
          r.factor.complex_arith, r.factor.order, n + m);
  check_complex ("constrained complex", &p, &r, zref, nred, 5, 1);
  eigen_result_clear (&r);
  free (zref); free (gg); free (ref); free (Z);
  problem_free (&q);
  problem_free (&p);
}

/* 4: singular B: every third DOF massless (zero row and column of M), held by springs.
   Many modes asked, so that the subspace reaches the infinite eigenvalues. */
static void test_massless (void)
{
  int n = 30;
  problem p = problem_new ("massless", n, 0, 1);
  int massless[30];
  for (int i = 0; i < n; i++) massless[i] = i % 3 == 2;
  if (rank == 0) {
    rng_seed (4);
    chain (p.K, n, 0, n, 8, 1);
    masses (p.M, n, 0, n, massless);
    for (int i = 0; i + 1 < n; i++)
      if (!massless[i] && !massless[i + 1]) spring (p.R, n, i, i + 1, urange (5.0, 50.0));
  }
  int nref = 0;
  double complex *ref = rank == 0 ? ggev_18 (&p, &nref) : NULL;
  CHECK0 (ref && nref == 20, "massless: (setup) dggev gave %d finite eigenvalues, expected 20",
          nref);
  eigen_opts st = stage (16);
  eigen_result r;
  mb_err err;
  int rc = run_stage (0, &p, &st, 1, &r, &err);
  check_ok ("massless modal", rc, &err, &r, &p, 0);
  check_modal ("massless modal", &p, &r, ref, nref, 16, 1, 1);
  check_sturm ("massless modal", &r, ref, nref, creal (r.shift));
  if (rank == 0) {
    double top = 0.0;
    for (int i = 0; i < nref; i++) top = fmax (top, cabs (ref[i]));
    int finite = 1;
    for (int i = 0; i < r.nmodes; i++) finite &= cabs (r.modes[i].lambda) <= 1.01 * top;
    CHECK0 (finite, "massless modal: an infinite eigenvalue was reported");
  }
  eigen_result_clear (&r);
  free (ref);

  /* the damped stage on the same singular M: B = diag (I, M) singular too */
  int nz = 0;
  double complex *zref = rank == 0 ? ggev_31 (&p, &nz) : NULL;
  CHECK0 (zref != NULL, "massless: (setup) dggev on GEP (31) failed");
  st = stage (6);
  rc = run_stage (1, &p, &st, 1, &r, &err);
  check_ok ("massless complex", rc, &err, &r, &p, 1);
  CHECK0 (r.factor.complex_arith == 0, "massless complex: real shift, not the real path");
  check_complex ("massless complex", &p, &r, zref, nz, 6, 1);
  eigen_result_clear (&r);
  free (zref);
  problem_free (&p);
}

/* 5: light random damping network (dashpots of 5..50 N s/m, PSD): complex pairs. */
static void test_damped (void)
{
  int n = 40;
  problem p = problem_new ("damped", n, 0, 1);
  if (rank == 0) {
    rng_seed (5);
    chain (p.K, n, 0, n, n / 4, 1);
    masses (p.M, n, 0, n, NULL);
    for (int i = 0; i + 1 < n; i++) spring (p.R, n, i, i + 1, urange (5.0, 50.0));
    for (int e = 0; e < 10; e++) {
      int i = (int) (urand () * n), j = (int) (urand () * n);
      if (i != j) spring (p.R, n, i, j, urange (1.0, 10.0));
      AT (p.R, n, i, i) += urange (1.0, 10.0);
    }
  }
  int nz = 0;
  double complex *zref = rank == 0 ? ggev_31 (&p, &nz) : NULL;  /* dggev on GEP (31) */
  CHECK0 (zref && nz == 2 * n, "damped: (setup) dggev gave %d of %d finite", nz, 2 * n);
  eigen_opts st = stage (6);
  eigen_result r;
  mb_err err;
  int rc = run_stage (1, &p, &st, 1, &r, &err);
  check_ok ("damped", rc, &err, &r, &p, 1);
  /* the default shift 1e-3 is real: OP of GEP (31) is real, the stage runs in real
     arithmetic (real symmetric LDL^T of the reduced matrix, real Krylov-Schur) */
  CHECK0 (r.factor.symmetric == 1 && r.factor.complex_arith == 0 && r.factor.order == n,
          "damped: factor symmetric %d complex %d order %ld, expected real symmetric LDL^T of "
          "order n + m = %d", r.factor.symmetric, r.factor.complex_arith, r.factor.order, n);
  int nover = check_complex ("damped", &p, &r, zref, nz, 6, 1);
  CHECK0 (nover == 0, "damped: (setup) light damping gave %d real eigenvalues", nover);
  if (rank == 0) {
    int pairs = 1;
    for (int i = 0; i < r.nmodes; i++)
      for (int j = 0; j < i; j++)
        if (cabs (r.modes[i].lambda - conj (r.modes[j].lambda)) < 1e-8 * cabs (r.modes[j].lambda))
          pairs = 0;
    CHECK0 (pairs, "damped: both members of a conjugate pair reported");
  }
  eigen_result_clear (&r);
  /* a complex shift (the same nearest modes: the eigenvalues are 1e2 rad/s apart) keeps
     the complex path: complex symmetric LDL^T, no inertia */
  st.has_shift = 1;
  st.shift = 1e-3 + 0.5 * I;
  rc = run_stage (1, &p, &st, 1, &r, &err);
  check_ok ("damped, complex shift", rc, &err, &r, &p, 1);
  CHECK0 (r.factor.symmetric == 1 && r.factor.complex_arith == 1 && r.factor.order == n
          && r.factor.negative_pivots == -1, "damped, complex shift: factor symmetric %d complex "
          "%d order %ld negative pivots %ld, expected complex symmetric LDL^T of order n + m = "
          "%d, no inertia", r.factor.symmetric, r.factor.complex_arith, r.factor.order,
          r.factor.negative_pivots, n);
  check_complex ("damped, complex shift", &p, &r, zref, nz, 6, 1);
  eigen_result_clear (&r);
  free (zref);
  problem_free (&p);
}

/* 6: dashpots of 2e5 N s/m to ground at three DOFs (critical ~2 sqrt (k m) ~ 4e3): slow real
   eigenvalues ~ -k/c, nearer the shift than the oscillatory pairs.
   Unbalanced, the linearization (31) (identity blocks beside K ~ 5e6) made the pair near
   -3.506 + 749.34i 4e-7 off at tolerance 1e-10; gep_complex balances the pencil with
   w ~ sqrt (max|K| / max|M|), and this test guards that (eigenvalues within 1e-8). */
static void test_overdamped (void)
{
  int n = 30;
  problem p = problem_new ("overdamped", n, 0, 1);
  if (rank == 0) {
    rng_seed (6);
    chain (p.K, n, 0, n, 6, 1);
    masses (p.M, n, 0, n, NULL);
    for (int i = 0; i + 1 < n; i++) spring (p.R, n, i, i + 1, urange (5.0, 20.0));
    AT (p.R, n, 4, 4) += 2e5;
    AT (p.R, n, 15, 15) += 3e5;
    AT (p.R, n, 25, 25) += 2.5e5;
  }
  int nz = 0;
  double complex *zref = rank == 0 ? ggev_31 (&p, &nz) : NULL;
  CHECK0 (zref && nz == 2 * n, "overdamped: (setup) dggev gave %d of %d finite", nz, 2 * n);
  eigen_opts st = stage (6);
  eigen_result r;
  mb_err err;
  int rc = run_stage (1, &p, &st, 1, &r, &err);
  check_ok ("overdamped", rc, &err, &r, &p, 1);
  CHECK0 (r.factor.complex_arith == 0, "overdamped: real shift, not the real path");
  int nover = check_complex ("overdamped", &p, &r, zref, nz, 6, 1);
  CHECK0 (nover >= 1, "overdamped: (setup) no real eigenvalue among the 6 nearest the shift");
  if (rank == 0) {
    int got = 0;
    for (int i = 0; i < r.nmodes; i++) got += r.modes[i].kind == MODE_OVERDAMPED;
    CHECK0 (got == nover, "overdamped: %d MODE_OVERDAMPED reported, dense LAPACK has %d", got,
            nover);
  }
  eigen_result_clear (&r);
  free (zref);
  problem_free (&p);
}

/* issue 9: the damped stage's kinds against dense LAPACK, whatever the shift. Each mode of
   r is matched to the nearest dense eigenvalue of GEP (31) (dggev, Im >= 0 folded); the
   reference kind is rigid-body when |lambda_ref| <= 1e-6 w (w = sqrt(max|K| / max|M|), the
   pencil's omega scale; a free body's Jordan zero comes back from dggev near sqrt(eps) w,
   elastic modes here are above 1e-2 w), overdamped when dggev's value is real, else
   oscillatory. Elastic eigenvalues to 1e-8 relative; rigid ones below max (1e-6,
   sqrt (tolerance)) w (a Jordan zero's perturbation theory). Returns the
   number of rigid-body modes reported. */
static int check_damped_kinds (const char *name, const problem *p, const eigen_result *r,
                               const double complex *zref, int nz)
{
  if (rank != 0) return 0;
  int n = p->n;
  double w = sqrt (max_abs (n * n, p->K) / max_abs (n * n, p->M));
  int kinds_ok = 1, values_ok = 1, nrigid = 0;
  double worst = 0.0;
  for (int i = 0; i < r->nmodes; i++) {
    const mode *md = &r->modes[i];
    int best = -1;
    double bd = INFINITY;
    for (int j = 0; j < nz; j++) {
      double complex z = cimag (zref[j]) < 0.0 ? conj (zref[j]) : zref[j];
      if (cabs (z - md->lambda) < bd) { bd = cabs (z - md->lambda); best = j; }
    }
    if (best < 0) { kinds_ok = 0; continue; }
    double complex z = zref[best];
    int rigid = cabs (z) <= 1e-6 * w;
    mode_kind want = rigid ? MODE_RIGID : cimag (z) == 0.0 ? MODE_OVERDAMPED : MODE_OSCILLATORY;
    if (md->kind != want) {
      kinds_ok = 0;
      printf ("  %s: mode %d lambda %.10g%+.10gi kind %d, dense %.10g%+.10gi kind %d\n", name,
              i + 1, creal (md->lambda), cimag (md->lambda), md->kind, creal (z), cimag (z), want);
    }
    /* a Jordan zero moves by sqrt (backward error) w: sqrt (tolerance) w bounds it for a
       true residual within the tolerance (the block path's 7e-12 gives 3e-6 w) */
    if (rigid) {
      nrigid++;
      if (!(cabs (md->lambda) <= fmax (1e-6, sqrt (r->tolerance)) * w)) values_ok = 0;
    }
    else worst = fmax (worst, bd / (1e-8 * cabs (z)));
  }
  CHECK0 (kinds_ok, "%s: a kind disagrees with dense dggev's eigenvalue", name);
  CHECK0 (values_ok && worst <= 1.0, "%s: eigenvalues vs dense dggev off by %.2f x 1e-8", name,
          worst);
  return nrigid;
}

/* The free (rigid = 1) or grounded spring chain of test_damped with dashpots between DOFs
   only: a free chain's translation has K u = R u = 0, a 2 x 2 Jordan block at 0 of
   GEP (31). */
static problem make_damped_chain (int n, int rigid)
{
  problem p = problem_new (rigid ? "damped free" : "damped grounded", n, 0, 1);
  if (rank != 0) return p;
  rng_seed (rigid ? 21 : 22);
  chain (p.K, n, 0, n, n / 4, !rigid);
  masses (p.M, n, 0, n, NULL);
  for (int i = 0; i + 1 < n; i++) spring (p.R, n, i, i + 1, urange (5.0, 50.0));
  return p;
}

/* issue 9, damped: a mode's kind must not depend on the shift. Free and grounded chains at
   shifts 1e3 x below the lowest elastic |lambda| (-1e3 |lambda_1|, real) and 10 x above the
   largest (10 i max|lambda|); kinds against dense dggev (check_damped_kinds). Then the
   issue's cases on K = diag (0.0025, 1, 4, 9), M = I, R = 0.02 I: omega = 0.05, 1, 2, 3 rad/s
   (closed form lambda = -0.01 +- i sqrt(omega^2 - 1e-4)), which the old threshold 100 tol
   |sigma| called rigid-body: target_frequency 100 Hz at tolerance 1e-6 (threshold 0.063),
   and shift 1e10: there exit 0 must come with the right kinds and values, else
   MB_ENOCONV. */
static void test_damped_rigid_kinds (void)
{
  for (int rigid = 1; rigid >= 0; rigid--) {
    problem p = make_damped_chain (24, rigid);
    int nz = 0;
    double complex *zref = rank == 0 ? ggev_31 (&p, &nz) : NULL;  /* dggev on GEP (31) */
    double span[2] = { 0.0, 0.0 };  /* lowest elastic, largest |lambda| (dggev) */
    if (rank == 0) {
      double w = sqrt (max_abs (p.n * p.n, p.K) / max_abs (p.n * p.n, p.M));
      int nzero = 0;
      span[0] = INFINITY;
      for (int j = 0; j < nz; j++) {
        if (cabs (zref[j]) <= 1e-6 * w) { nzero++; continue; }
        span[0] = fmin (span[0], cabs (zref[j]));
        span[1] = fmax (span[1], cabs (zref[j]));
      }
      CHECK0 (nz == 2 * p.n && nzero == 2 * rigid && span[0] > 1e-2 * w,
              "%s: (setup) dggev: %d finite, %d zeros, lowest elastic %.3g (w %.3g)", p.name,
              nz, nzero, span[0], w);
    }
    MPI_Bcast (span, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    eigen_opts st = stage (6);
    st.has_shift = 1;
    for (int far = 0; far < 2; far++) {
      char label[96];
      snprintf (label, sizeof label, "%s, shift %s", p.name, far ? "10 x above" : "30 x below");
      st.shift = far ? 10.0 * I * span[1] : -30.0 * span[0];
      eigen_result r;
      mb_err err;
      int rc = run_stage (1, &p, &st, 1, &r, &err);
      check_ok (label, rc, &err, &r, &p, 1);
      /* real path at a real shift, but rigid-body modes send the stage to the complex path
         (gep_complex: a multiple zero split by rounding into a conjugate pair would be
         folded into one mode) */
      CHECK0 (r.factor.complex_arith == (far || rigid), "%s: factored complex %d, expected %d "
              "(real path at a real shift without rigid-body modes)", label,
              r.factor.complex_arith, far || rigid);
      int nrigid = check_damped_kinds (label, &p, &r, zref, nz);
      if (getenv ("TEST_GEP_VERBOSE") && rank == 0)
        for (int i = 0; i < r.nmodes; i++)
          printf ("    %s: %.6g%+.6gi kind %d residual %.2e\n", label, creal (r.modes[i].lambda),
                  cimag (r.modes[i].lambda), r.modes[i].kind, r.modes[i].residual);
      if (rigid && !far)
        CHECK0 (nrigid >= 1, "%s: no rigid-body mode reported (the 6 nearest include the zero)",
                label);
      if (!rigid || far) CHECK0 (nrigid == 0, "%s: %d rigid-body modes", label, nrigid);
      eigen_result_clear (&r);
    }
    {  /* the default shift 1e-3 (real: the real path; complex with rigid-body modes) */
      char label[96];
      snprintf (label, sizeof label, "%s, default shift", p.name);
      eigen_opts sd = stage (6);
      eigen_result r;
      mb_err err;
      int rc = run_stage (1, &p, &sd, 1, &r, &err);
      check_ok (label, rc, &err, &r, &p, 1);
      CHECK0 (r.factor.complex_arith == rigid, "%s: factored complex %d, expected %d", label,
              r.factor.complex_arith, rigid);
      int nrigid = check_damped_kinds (label, &p, &r, zref, nz);
      /* dggev: 2 rigid zeros (one Jordan block) for the free chain, none grounded */
      CHECK0 (rigid ? nrigid >= 1 && nrigid <= 2 : nrigid == 0, "%s: %d rigid-body modes, "
              "dggev: %d zeros", label, nrigid, 2 * rigid);
      eigen_result_clear (&r);
    }
    free (zref);
    problem_free (&p);
  }

  problem q = problem_new ("damped issue case", 4, 0, 1);
  if (rank == 0) {
    const double k[4] = { 0.0025, 1.0, 4.0, 9.0 };
    for (int i = 0; i < 4; i++) {
      AT (q.K, 4, i, i) = k[i];
      AT (q.M, 4, i, i) = 1.0;
      AT (q.R, 4, i, i) = 0.02;
    }
  }
  int nz = 0;
  double complex *zref = rank == 0 ? ggev_31 (&q, &nz) : NULL;
  if (rank == 0) {  /* dggev against the closed form -0.01 + i sqrt (k - 1e-4) */
    double worst = 0.0;
    const double k[4] = { 0.0025, 1.0, 4.0, 9.0 };
    for (int i = 0; i < 4; i++) {
      double complex z = -0.01 + I * sqrt (k[i] - 1e-4), best = INFINITY;
      for (int j = 0; j < nz; j++) best = fmin (best, cabs (zref[j] - z));
      worst = fmax (worst, creal (best) / cabs (z));
    }
    CHECK0 (nz == 8 && worst < 1e-12, "damped issue case: (setup) dggev vs closed form %.2e",
            worst);
  }
  eigen_opts st = stage (4);
  st.tolerance = 1e-6;
  st.has_target = 1;
  st.target_hz = 100.0;
  eigen_result r;
  mb_err err;
  int rc = run_stage (1, &q, &st, 1, &r, &err);
  if (rc == 0) {
    int nrigid = check_damped_kinds ("damped issue case, target 100 Hz tol 1e-6", &q, &r,
                                     zref, nz);
    CHECK0 (r.nmodes == 4 && nrigid == 0, "damped issue case, target 100 Hz: %d modes, %d "
            "rigid-body (expected 4, none)", r.nmodes, nrigid);
  } else {
    CHECK0 (rc == MB_ENOCONV, "damped issue case, target 100 Hz: status %d (%.300s), expected 0 or "
            "MB_ENOCONV", rc, err.msg);
  }
  eigen_result_clear (&r);
  st.tolerance = 1e-10;
  st.has_target = 0;
  st.has_shift = 1;
  st.shift = 1e10;
  for (int nm = 1; nm <= 4; nm += 3) {
    st.modes = nm;
    rc = run_stage (1, &q, &st, 1, &r, &err);
    if (rc == 0) {
      int nrigid = check_damped_kinds ("damped issue case, shift 1e10", &q, &r, zref, nz);
      CHECK0 (r.nmodes == nm && nrigid == 0, "damped issue case, shift 1e10, %d modes: %d "
              "modes, %d rigid-body", nm, r.nmodes, nrigid);
    } else {
      CHECK0 (rc == MB_ENOCONV && strstr (err.msg, "far from those modes"),
              "damped issue case, shift 1e10, %d modes: status %d, expected 0 with the right "
              "kinds or MB_ENOCONV naming the far shift: %.300s", nm, rc, err.msg);
    }
    if (rank == 0)
      printf ("  damped issue case, shift 1e10, %d mode%s: status %d\n", nm, nm > 1 ? "s" : "",
              rc);
    eigen_result_clear (&r);
  }
  free (zref);

  /* the undamped stage on the same K, M: lambda = omega^2 = 0.0025 .. 9, target 100 Hz,
     tolerance 1e-6 (the old threshold 100 tol sigma was 39 rad^2/s^2) */
  q.name = "undamped issue case";
  free (q.R);
  q.R = NULL;
  int nref = 0;
  double complex *ref = rank == 0 ? ggev_18 (&q, &nref) : NULL;
  st = stage (4);
  st.tolerance = 1e-6;
  st.has_target = 1;
  st.target_hz = 100.0;
  rc = run_stage (0, &q, &st, 1, &r, &err);
  if (rank == 0 && rc == 0) {
    int nrigid = 0;
    for (int i = 0; i < r.nmodes; i++) nrigid += r.modes[i].kind == MODE_RIGID;
    CHECK0 (r.nmodes == 4 && nrigid == 0, "undamped issue case, target 100 Hz tol 1e-6: %d "
            "modes, %d rigid-body (dggev: 4 eigenvalues 0.0025 .. 9, none zero)", r.nmodes,
            nrigid);
  }
  CHECK0 (rc == 0 || rc == MB_ENOCONV, "undamped issue case: status %d (%.300s)", rc, err.msg);
  eigen_result_clear (&r);
  free (ref);
  problem_free (&q);
}

/* 7: two identical uncoupled blocks: every eigenvalue twice. */
static void test_repeated (void)
{
  int h = 25, n = 2 * h;
  problem p = problem_new ("repeated", n, 0, 0);
  if (rank == 0) {
    rng_seed (7);
    chain (p.K, n, 0, h, 8, 1);
    masses (p.M, n, 0, h, NULL);
    for (int j = 0; j < h; j++)
      for (int i = 0; i < h; i++) {
        AT (p.K, n, h + i, h + j) = AT (p.K, n, i, j);
        AT (p.M, n, h + i, h + j) = AT (p.M, n, i, j);
      }
  }
  int nref = 0;
  double complex *ref = rank == 0 ? ggev_18 (&p, &nref) : NULL;
  CHECK0 (ref && nref == n, "repeated: (setup) dggev gave %d of %d finite", nref, n);
  if (ref) for (int i = 0; i < nref; i++) ref[i] = creal (ref[i]);  /* QZ may split a double
                                                                        eigenvalue by ~eps i */
  eigen_opts st = stage (6);
  eigen_result r;
  mb_err err;
  int rc = run_stage (0, &p, &st, 1, &r, &err);
  check_ok ("repeated", rc, &err, &r, &p, 0);
  check_modal ("repeated", &p, &r, ref, nref, 6, 1, 1);
  if (rank == 0 && r.nmodes == 6) {
    int twice = 1;
    for (int i = 0; i < 6; i += 2)
      twice &= fabs (creal (r.modes[i].lambda - r.modes[i + 1].lambda))
               <= 1e-8 * creal (r.modes[i].lambda);
    CHECK0 (twice, "repeated: the six modes are not three double eigenvalues");
  }
  check_sturm ("repeated", &r, ref, nref, creal (r.shift));
  eigen_result_clear (&r);
  free (ref);
  problem_free (&p);
}

/* A missed-mode alarm answered (gep_modal's second run): 8 copies of one fixed-fixed
   chain of 12 unit masses and 1 kN/m springs, so every eigenvalue is 8-fold: closed form
   lambda_j = 4 k / m sin^2 (j pi / 26). 10 modes asked: the answer is the 8 copies of
   lambda_1 and 2 of lambda_2. Single vectors (block 1) find a few copies of each: the first
   run reports modes up to lambda_3 while the inertia counts 24 eigenvalues there; with
   blocks of 4 the first run finds 12 of the 16 at or below lambda_2. Either way the stage
   runs again for every counted eigenvalue in blocks and must report 8 x lambda_1 and
   2 x lambda_2 (1e-10 relative), with all 16 of lambda_1 and lambda_2 found
   (sturm_found == sturm_count == 16). */
static void test_missed_retry (void)
{
  int h = 12, copies = 8, n = h * copies;
  double k = 1e3;
  problem p = problem_new ("multiplicity 8", n, 0, 0);
  if (rank == 0)
    for (int c = 0; c < copies; c++)
      for (int i = 0; i < h; i++) {
        int j = c * h + i;
        AT (p.K, n, j, j) = 2.0 * k;
        AT (p.M, n, j, j) = 1.0;
        if (i + 1 < h) AT (p.K, n, j, j + 1) = AT (p.K, n, j + 1, j) = -k;
      }
  double l1 = 4.0 * k * pow (sin (TWO_PI / (4.0 * (h + 1))), 2);
  double l2 = 4.0 * k * pow (sin (TWO_PI / (2.0 * (h + 1))), 2);
  for (int block = 1; block <= 4; block += 3) {
    char name[64];
    snprintf (name, sizeof name, "multiplicity 8, first run in blocks of %d", block);
    eigen_opts st = stage (10);
    st.block = block;
    eigen_result r;
    mb_err err;
    int rc = run_stage (0, &p, &st, 1, &r, &err);
    check_ok (name, rc, &err, &r, &p, 0);
    if (rank == 0) {
      int right = r.nmodes == 10;
      for (int i = 0; right && i < 10; i++) {
        double want = i < 8 ? l1 : l2;
        right = fabs (creal (r.modes[i].lambda) - want) <= 1e-10 * want;
      }
      CHECK0 (right, "%s: %d modes, not 8 x %.10g and 2 x %.10g (closed form)", name,
              r.nmodes, l1, l2);
      CHECK0 (r.sturm_done && r.sturm_found == r.sturm_count && r.sturm_count == 16,
              "%s: %ld found of %ld counted; 16 (8 x lambda_1, 8 x lambda_2) exist", name,
              r.sturm_found, r.sturm_count);
      CHECK0 (r.nev >= 18, "%s: Krylov-Schur asked for %d eigenvalues: the second run (all "
              "16 counted + 2) did not happen", name, r.nev);
    }
    eigen_result_clear (&r);
  }
  problem_free (&p);
}

/* 9: K with a small skew part (1e-4 of its size): not symmetric, so LU. */
static void test_nonsymmetric (void)
{
  int n = 40;
  problem p = problem_new ("nonsymmetric", n, 0, 0);
  if (rank == 0) {
    rng_seed (9);
    chain (p.K, n, 0, n, n / 4, 1);
    masses (p.M, n, 0, n, NULL);
    for (int i = 0; i + 1 < n; i++) {
      double s = urange (-100.0, 100.0);
      AT (p.K, n, i, i + 1) += s;
      AT (p.K, n, i + 1, i) -= s;
    }
  }
  int nref = 0;
  double complex *ref = rank == 0 ? ggev_18 (&p, &nref) : NULL;
  CHECK0 (ref && nref == n, "nonsymmetric: (setup) dggev gave %d of %d finite", nref, n);
  if (rank == 0 && ref) {
    sort_by_real (ref, nref);
    int real = 1;
    for (int i = 0; i < 8; i++) real &= cimag (ref[i]) == 0.0;
    CHECK0 (real, "nonsymmetric: (setup) lowest eigenvalues not real");
  }
  eigen_opts st = stage (6);
  eigen_result r;
  mb_err err;
  int rc = run_stage (0, &p, &st, 1, &r, &err);
  check_ok ("nonsymmetric", rc, &err, &r, &p, 0);
  CHECK0 (r.factor.symmetric == 0, "nonsymmetric: factor.symmetric = %d, expected LU (0)",
          r.factor.symmetric);
  CHECK0 (r.sturm_done == 0, "nonsymmetric: missed-mode check ran without LDL^T");
  check_modal ("nonsymmetric", &p, &r, ref, nref, 6, 1, 0);
  eigen_result_clear (&r);
  free (ref);
  problem_free (&p);

  /* the damped stage with the same non-symmetric K, dashpots and a constraint: its reduced
     matrix is not symmetric, so complex LU; against dggev on GEP (31) */
  problem q = problem_new ("nonsymmetric damped", n, 1, 1);
  if (rank == 0) {
    rng_seed (9);
    chain (q.K, n, 0, n, n / 4, 1);
    masses (q.M, n, 0, n, NULL);
    for (int i = 0; i + 1 < n; i++) {
      double s = urange (-100.0, 100.0);
      AT (q.K, n, i, i + 1) += s;
      AT (q.K, n, i + 1, i) -= s;
      spring (q.R, n, i, i + 1, urange (5.0, 50.0));
    }
    AT (q.Cq, 1, 0, 5) = 1.0;  AT (q.Cq, 1, 0, 30) = -1.0;
  }
  int nz = 0;
  double complex *zref = rank == 0 ? ggev_31 (&q, &nz) : NULL;
  CHECK0 (zref != NULL, "nonsymmetric damped: (setup) dggev on GEP (31) failed");
  st = stage (6);
  rc = run_stage (1, &q, &st, 1, &r, &err);
  check_ok ("nonsymmetric damped", rc, &err, &r, &q, 1);
  CHECK0 (r.factor.symmetric == 0 && r.factor.complex_arith == 0 && r.factor.order == n + 1,
          "nonsymmetric damped: factor symmetric %d complex %d order %ld, expected real LU "
          "(real shift) of order n + m = %d", r.factor.symmetric, r.factor.complex_arith,
          r.factor.order, n + 1);
  check_complex ("nonsymmetric damped", &q, &r, zref, nz, 6, 1);
  eigen_result_clear (&r);
  free (zref);
  problem_free (&q);
}

/* 10: no restarts, tolerance 1e-15, subspace barely above the modes: MB_ENOCONV everywhere. */
static void test_noconv (void)
{
  problem p = make_spd (60, 10);
  eigen_opts st = stage (8);
  st.max_restarts = 0;
  st.tolerance = 1e-15;
  st.subspace = 9;
  eigen_result r;
  mb_err err;
  int rc = run_stage (0, &p, &st, 1, &r, &err);
  int conv_hi, conv = r.converged;
  MPI_Allreduce (&conv, &conv_hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  CHECK0 (rc == MB_ENOCONV, "noconv modal: status %d, expected MB_ENOCONV (%d)", rc, MB_ENOCONV);
  CHECK0 (conv_hi == 0, "noconv modal: converged = 1 on some rank");
  CHECK0 (r.nmodes <= 8, "noconv modal: %d modes for 8 wanted", r.nmodes);
  eigen_result_clear (&r);
  problem_free (&p);

  problem q = problem_new ("noconv damped", 40, 0, 1);
  if (rank == 0) {
    rng_seed (11);
    chain (q.K, 40, 0, 40, 10, 1);
    masses (q.M, 40, 0, 40, NULL);
    for (int i = 0; i + 1 < 40; i++) spring (q.R, 40, i, i + 1, urange (5.0, 50.0));
  }
  rc = run_stage (1, &q, &st, 1, &r, &err);
  conv = r.converged;
  MPI_Allreduce (&conv, &conv_hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  CHECK0 (rc == MB_ENOCONV, "noconv complex: status %d, expected MB_ENOCONV (%d)", rc,
          MB_ENOCONV);
  CHECK0 (conv_hi == 0, "noconv complex: converged = 1 on some rank");
  eigen_result_clear (&r);
  problem_free (&q);
}

/* 11: shift exactly on an eigenvalue: K = diag (1..20), M = I, sigma = 2 makes A - sigma B
   exactly singular. MB_ESOLVE (MUMPS finds the zero pivot) or success with correct modes
   are both accepted; the status must agree on every rank and nothing may hang. */


static void test_singular_shift (void)
{
  int n = 20;
  problem p = problem_new ("singular shift", n, 0, 0);
  if (rank == 0)
    for (int i = 0; i < n; i++) { AT (p.K, n, i, i) = i + 1.0; AT (p.M, n, i, i) = 1.0; }
  eigen_opts st = stage (3);
  st.has_shift = 1;
  st.shift = 2.0;
  eigen_result r;
  mb_err err;
  int rc = run_stage (0, &p, &st, 1, &r, &err);

  if (rank == 0) printf ("  singular shift: status %d%s%s\n", rc, rc ? ": " : "", rc ? err.msg : "");
  CHECK0 (rc == 0 || rc == MB_ESOLVE, "singular shift: status %d, expected 0 or MB_ESOLVE", rc);
  if (rc == 0) {  /* closed form: eigenvalues 1..20; nearest 2: 2, then 1 and 3 */
    double complex ref[20];
    for (int i = 0; i < n; i++) ref[i] = i + 1.0;
    check_modal ("singular shift", &p, &r, ref, n, 3, 1, 1);
  } else {
    CHECK0 (r.nmodes == 0, "singular shift: %d modes reported with a failure", r.nmodes);
    CHECK0 (strstr (err.msg, "an eigenvalue lies there") && strstr (err.msg, "row 2 of K and M")
            && strstr (err.msg, "try another shift"),
            "singular shift: the message names the eigenvalue and row 2: %.300s", err.msg);
  }
  eigen_result_clear (&r);
  problem_free (&p);

  /* the damped stage on the real path at a real shift on an eigenvalue: R = 0, M = I,
     K = diag (1..20) but K(2,2) = -4, so lambda^2 = -k gives lambda = 2 (closed form) and
     K + 2^2 M has a zero row 2; the diagnosis's second shift is complex */
  p = problem_new ("damped singular shift", n, 0, 1);
  if (rank == 0) {
    for (int i = 0; i < n; i++) { AT (p.K, n, i, i) = i + 1.0; AT (p.M, n, i, i) = 1.0; }
    AT (p.K, n, 1, 1) = -4.0;
  }
  int nz = 0;
  double complex *zref = rank == 0 ? ggev_31 (&p, &nz) : NULL;  /* dggev on GEP (31) */
  rc = run_stage (1, &p, &st, 1, &r, &err);
  if (rank == 0) printf ("  damped singular shift: status %d%s%s\n", rc, rc ? ": " : "",
                         rc ? err.msg : "");
  CHECK0 (rc == 0 || rc == MB_ESOLVE, "damped singular shift: status %d, expected 0 or "
          "MB_ESOLVE", rc);
  if (rc == 0) {
    CHECK0 (r.factor.complex_arith == 0, "damped singular shift: not the real path");
    check_complex ("damped singular shift", &p, &r, zref, nz, 3, 1);
  } else {
    CHECK0 (strstr (err.msg, "an eigenvalue lies there") && strstr (err.msg, "row 2")
            && strstr (err.msg, "try another shift"),
            "damped singular shift: the message names the eigenvalue and row 2: %.300s", err.msg);
  }
  eigen_result_clear (&r);
  free (zref);
  problem_free (&p);
}

/* 11b: pencils singular at every shift (issue 9), known by construction: a 6-DOF grounded
   chain with (a) a duplicated Cq row, (b) an all-zero Cq row, (c) DOF 4 with no mass, no
   stiffness and no constraint, (d) DOFs 5 and 6 joined by a spring with no mass and no
   ground (their common translation has neither mass nor stiffness). Each must give
   MB_EDECK on every rank, both stages, with the row named; never "try another shift". */
static void test_singular_every_shift (void)
{
  int n = 6;
  const char *want[4] = { "a multiple of row", "constraint rows (Cq) 2 is empty",
                          "row 4 of K and M has no mass", "neither mass nor stiffness" };
  for (int c = 0; c < 4; c++) {
    int m = c < 2 ? 2 : 0;
    problem p = problem_new ("singular every shift", n, m, 0);
    if (rank == 0) {
      for (int i = 0; i + 1 < n; i++) spring (p.K, n, i, i + 1, 1e6);  /* grounded chain */
      AT (p.K, n, 0, 0) += 1e6;
      AT (p.K, n, n - 1, n - 1) += 1e6;
      for (int i = 0; i < n; i++) AT (p.M, n, i, i) = 1.0;
      if (c == 0) { AT (p.Cq, m, 0, 1) = 1.0; AT (p.Cq, m, 1, 1) = -3.0; }
      if (c == 1) AT (p.Cq, m, 0, 1) = 1.0;
      if (c == 2) {
        for (int j = 0; j < n; j++) AT (p.K, n, 3, j) = AT (p.K, n, j, 3) = 0.0;
        AT (p.M, n, 3, 3) = 0.0;
      }
      if (c == 3) {
        for (int i = 0; i < n; i++) for (int j = 0; j < n; j++) AT (p.K, n, i, j) = 0.0;
        for (int i = 0; i + 1 < 4; i++) spring (p.K, n, i, i + 1, 1e6);
        AT (p.K, n, 0, 0) += 1e6;
        AT (p.K, n, 3, 3) += 1e6;
        AT (p.K, n, 4, 4) = AT (p.K, n, 5, 5) = 1.0;
        AT (p.K, n, 4, 5) = AT (p.K, n, 5, 4) = -1.0;
        AT (p.M, n, 4, 4) = AT (p.M, n, 5, 5) = 0.0;
      }
    }
    for (int damped = 0; damped < 2; damped++) {
      eigen_result r;
      mb_err err;
      eigen_opts st = stage (2);
      int rc = run_stage (damped, &p, &st, 0, &r, &err);
      CHECK0 (rc == MB_EDECK, "singular case %d (%s): status %d, expected MB_EDECK", c,
              damped ? "complex" : "modal", rc);
      CHECK0 (strstr (err.msg, want[c]) && !strstr (err.msg, "another shift"),
              "singular case %d (%s): message names '%s': %.300s", c, damped ? "complex" : "modal",
              want[c], err.msg);
      eigen_result_clear (&r);
    }
    problem_free (&p);
  }
}

/* 12: an allocation failure on ONE rank (MBMODAL_FAULT's sites, mb_fault_set) at each
   collective step of both stages: pencil assembly, the shift-invert buffers, mode
   post-processing and the missed-mode check. Every rank must return MB_ENOMEM (nothing
   may hang in a collective the failing rank never reaches), with an "out of memory"
   message. The damped stage has no missed-mode check: there the "check" site is never
   reached and the stage succeeds, on every rank alike. */
static void test_faults (void)
{
  static const char *sites[] = { "pencil", "krylov", "modes", "check" };
  int n = 30, m = 2;
  problem p = problem_new ("faults", n, m, 1);
  if (rank == 0) {
    rng_seed (12);
    chain (p.K, n, 0, n, n / 4, 1);
    masses (p.M, n, 0, n, NULL);
    AT (p.Cq, m, 0, 3) = 1.0;  AT (p.Cq, m, 0, 17) = -1.0;
    AT (p.Cq, m, 1, 9) = 0.5;  AT (p.Cq, m, 1, 25) = 1.0;
    for (int i = 0; i + 1 < n; i++) spring (p.R, n, i, i + 1, urange (5.0, 50.0));
  }
  eigen_opts st = stage (4);
  int *all = xcalloc ((size_t) nranks, sizeof *all);
  int nfault = nranks < 2 ? 1 : 2;
  for (size_t k = 0; k < sizeof sites / sizeof *sites; k++)
    for (int fr = 0; fr < nfault; fr++)
      for (int damped = 0; damped < 2; damped++) {
        char spec[64], name[96];
        snprintf (spec, sizeof spec, "%d:%s", fr, sites[k]);
        snprintf (name, sizeof name, "fault %s (%s)", spec, damped ? "complex" : "modal");
        int want = damped && !strcmp (sites[k], "check") ? 0 : MB_ENOMEM;
        eigen_result r;
        mb_err err;
        mb_fault_set (spec);
        int rc = run_stage (damped, &p, &st, 1, &r, &err);
        mb_fault_set (NULL);
        MPI_Allgather (&rc, 1, MPI_INT, all, 1, MPI_INT, MPI_COMM_WORLD);
        int same = 1, msg_ok = want == 0 || strstr (err.msg, "out of memory") != NULL, msg_all;
        for (int i = 0; i < nranks; i++) {
          CHECK0 (all[i] == want, "%s: rank %d returned %d, expected %d", name, i, all[i], want);
          same = same && all[i] == all[0];
        }
        CHECK0 (same, "%s: ranks disagree on the status", name);
        MPI_Allreduce (&msg_ok, &msg_all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
        CHECK0 (msg_all, "%s: message \"%.200s\" does not say out of memory", name, err.msg);
        eigen_result_clear (&r);
      }
  free (all);
  problem_free (&p);
}

/* 13: the damped shift-invert apply by the reduced solve of order n + m against the full
   solve of order 2n + m. A small constrained pencil with massless DOFs (M singular), light
   dashpots and two constraint rows; the balanced pencil (31) at sigma, written here densely
   from its definition in pencil.h,
       A - sigma B = [-sigma I, w I, 0; -K/w, -R - sigma M, -s Cq^T; -(s/w) Cq, 0, 0],
   solved by LAPACKE_zgesv for y = (A - sigma B)^-1 B x, B x = [x_u; M x_v; 0]. mbmodal's
   operator (the block apply on 1 column at a time and on 3 columns, rows distributed
   over the ranks) factors [K + sigma R + sigma^2 M, c Cq^T; c Cq, 0] (complex symmetric
   LDL^T, and complex LU from both triangles) and must give the same y to round-off: both
   differ from the exact solution by at most about cond (A - sigma B) DBL_EPSILON relative
   (first-order perturbation bound; the reciprocal condition number rcond from
   LAPACKE_zgecon), asserted with a factor 10: 10 DBL_EPSILON / rcond (2e-11 at the first
   two shifts, 1e-7 at the far one). Shifts: 0 (v = x_u / w), a complex one near the
   spectrum, and one far out. */
static void damped_real_applies (const gep_system *sys, const gep_parts *P,
                                 double complex sigma, double w, double s, int lower,
                                 const double complex *X, const double complex *Y, int nb,
                                 double tol, const char *name);

static void test_reduced_solve (void)
{
  int n = 16, m = 2, N = 2 * n + m, nb = 3;
  problem p = problem_new ("reduced solve", n, m, 1);
  int massless[16];
  for (int i = 0; i < n; i++) massless[i] = i % 4 == 3;
  if (rank == 0) {
    rng_seed (13);
    chain (p.K, n, 0, n, 4, 1);
    masses (p.M, n, 0, n, massless);
    for (int i = 0; i + 1 < n; i++) spring (p.R, n, i, i + 1, urange (5.0, 50.0));
    AT (p.Cq, m, 0, 2) = 1.0;  AT (p.Cq, m, 0, 11) = -1.0;
    AT (p.Cq, m, 1, 5) = 0.5;  AT (p.Cq, m, 1, 14) = 1.0;
  }
  spm *K = NULL, *M = NULL, *R = NULL, *Cq = NULL;
  if (rank == 0) {
    K = to_spm (n, n, p.K);
    M = to_spm (n, n, p.M);
    R = to_spm (n, n, p.R);
    Cq = to_spm (m, n, p.Cq);
  }
  gep_system sys = { .n = n, .m = m, .K = K, .M = M, .R = R, .Cq = Cq };
  gep_parts P;
  parts_of (&sys, 1, &P);
  double sc[2] = { 1.0, 1.0 };  /* w and s as the damped stage chooses them (rank 0) */
  if (rank == 0) {
    sc[0] = pencil_omega_scale (&sys);
    sc[1] = pencil_cq_scale (&sys) / sc[0];
  }
  MPI_Bcast (sc, 2, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  double w = sc[0], s = sc[1];
  /* x: nb columns of order N, the same on every rank (deterministic) */
  double complex *X = xcalloc ((size_t) N * nb, sizeof *X);
  rng_seed (131);
  for (int k = 0; k < N * nb; k++) X[k] = urange (-1.0, 1.0) + I * urange (-1.0, 1.0);
  const double complex sigmas[4] = { 0.0, 3.0 + 700.0 * I, -2.0e4 + 5.0e4 * I, 250.0 };
  for (int c = 0; c < 4; c++)
    for (int lower = 0; lower < 2; lower++) {
      double complex sigma = sigmas[c];
      char name[96];
      snprintf (name, sizeof name, "reduced solve, sigma = %g%+gi, %s", creal (sigma),
                cimag (sigma), lower ? "LDL^T" : "LU");
      /* the reference: zgesv on the full dense pencil, rank 0, broadcast */
      double complex *Y = xcalloc ((size_t) N * nb, sizeof *Y);
      double rcond = 0.0;
      if (rank == 0) {
        double complex *F = xcalloc ((size_t) N * N, sizeof *F);
        for (int i = 0; i < n; i++) {
          AT (F, N, i, i) = -sigma;
          AT (F, N, i, n + i) = w;
        }
        for (int j = 0; j < n; j++)
          for (int i = 0; i < n; i++) {
            AT (F, N, n + i, j) = -AT (p.K, n, i, j) / w;
            AT (F, N, n + i, n + j) = -AT (p.R, n, i, j) - sigma * AT (p.M, n, i, j);
          }
        for (int r = 0; r < m; r++)
          for (int j = 0; j < n; j++) {
            AT (F, N, n + j, 2 * n + r) = -s * AT (p.Cq, m, r, j);
            AT (F, N, 2 * n + r, j) = -s / w * AT (p.Cq, m, r, j);
          }
        for (int k = 0; k < nb; k++) {
          const double complex *x = X + (size_t) k * N;
          double complex *y = Y + (size_t) k * N;
          for (int i = 0; i < n; i++) y[i] = x[i];
          matvec (n, n, p.M, 0, x + n, y + n);
        }
        double anorm = 0.0;
        for (int i = 0; i < N; i++) {
          double row = 0.0;
          for (int j = 0; j < N; j++) row += cabs (AT (F, N, i, j));
          anorm = fmax (anorm, row);
        }
        lapack_int *ipiv = xcalloc ((size_t) N, sizeof *ipiv);
        lapack_int info = LAPACKE_zgetrf (LAPACK_COL_MAJOR, N, N, F, N, ipiv);
        if (info == 0) info = LAPACKE_zgecon (LAPACK_COL_MAJOR, 'I', N, F, N, anorm, &rcond);
        if (info == 0)
          info = LAPACKE_zgetrs (LAPACK_COL_MAJOR, 'N', N, nb, F, N, ipiv, Y, N);
        CHECK0 (info == 0, "%s: (setup) zgesv info %d", name, (int) info);
        CHECK0 (rcond > 1e-9, "%s: (setup) the pencil's rcond %.2e is below 1e-9", name, rcond);
        free (ipiv);
        free (F);
      }
      MPI_Bcast (Y, 2 * N * nb, MPI_DOUBLE, 0, MPI_COMM_WORLD);
      MPI_Bcast (&rcond, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
      double tol = 10.0 * DBL_EPSILON / (rcond > 0.0 ? rcond : DBL_EPSILON);
      /* mbmodal: the reduced matrix factored, the operator applied */
      ztrip t = { 0 };
      int rc = rank == 0 ? pencil_damped_reduced (&sys, sigma, s * w, lower, &t) : 0;
      CHECK0 (rc == 0 && t.nnz > 0, "%s: pencil_damped_reduced returned %d", name, rc);
      mb_err err;
      mb_err_init (&err);
      factor *f = factor_create (MPI_COMM_WORLD, lower ? FACTOR_COMPLEX_SYMMETRIC
                                 : FACTOR_COMPLEX_GENERAL, n + m, t.nnz, t.row, t.col, t.val,
                                 "reduced", &err);
      ztrip_clear (&t);
      CHECK0 (f != NULL, "%s: factor_create failed: %.300s", name, err.msg);
      shift_invert si;
      if (f && shift_invert_init (&si, MPI_COMM_WORLD, f, &sys, &P, N, &err) == 0) {
        shift_invert_set_damped (&si, sigma, w);
        int nl = si.dist.nloc, r0 = si.dist.row0;
        double complex *xl = xcalloc ((size_t) nl * nb + 1, sizeof *xl);
        double complex *yl = xcalloc ((size_t) nl * nb + 1, sizeof *yl);
        double complex *yb = xcalloc ((size_t) nl * nb + 1, sizeof *yb);
        for (int k = 0; k < nb; k++)
          for (int i = 0; i < nl; i++) xl[(size_t) k * nl + i] = X[(size_t) k * N + r0 + i];
        int rc1 = 0;
        for (int k = 0; k < nb && rc1 == 0; k++)
          rc1 = shift_invert_apply_block_complex (&si, 1, xl + (size_t) k * nl, nl > 0 ? nl : 1,
                                                  yl + (size_t) k * nl, nl > 0 ? nl : 1);
        int rc2 = shift_invert_apply_block_complex (&si, nb, xl, nl, yb, nl);
        CHECK0 (rc1 == 0 && rc2 == 0, "%s: applies returned %d, %d", name, rc1, rc2);
        double e[3] = { 0.0, 0.0, 0.0 }, g[3];  /* single, block errors; max |y| */
        for (int k = 0; k < nb; k++)
          for (int i = 0; i < nl; i++) {
            double complex ref = Y[(size_t) k * N + r0 + i];
            e[0] = fmax (e[0], cabs (yl[(size_t) k * nl + i] - ref));
            e[1] = fmax (e[1], cabs (yb[(size_t) k * nl + i] - ref));
            e[2] = fmax (e[2], cabs (ref));
          }
        MPI_Allreduce (e, g, 3, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
        CHECK0 (g[0] <= tol * g[2], "%s: single apply differs from zgesv by %.2e relative "
                "(bound %.1e)", name, g[0] / g[2], tol);
        CHECK0 (g[1] <= tol * g[2], "%s: block apply differs from zgesv by %.2e relative "
                "(bound %.1e)", name, g[1] / g[2], tol);
        if (rank == 0 && getenv ("TEST_GEP_VERBOSE"))
          printf ("  %s: errors %.2e (single), %.2e (block), rcond %.2e\n", name,
                  g[0] / g[2], g[1] / g[2], rcond);
        free (xl); free (yl); free (yb);
        shift_invert_clear (&si);
      }
      factor_free (f);
      if (cimag (sigma) == 0.0) damped_real_applies (&sys, &P, sigma, w, s, lower, X, Y, nb, tol,
                                                     name);
      free (Y);
    }
  free (X);
  gep_parts_clear (&P);
  spm_free (K); spm_free (M); spm_free (R); spm_free (Cq);
  problem_free (&p);
}

/* test_reduced_solve at a real shift: the real operator of GEP (31) (the reduced real
   matrix, DMUMPS) applied to Re X must give Re Y (OP is real there, so OP Re x = Re OP x),
   with Y from zgesv on the full dense pencil (31); single applies and a block apply, by
   rows on every rank count (x_u, x_v moved to the reduced layout, B x formed there, solved
   by rows, moved back; one rank is one block), within the same bound tol. */
static void damped_real_applies (const gep_system *sys, const gep_parts *P,
                                 double complex sigma, double w, double s, int lower,
                                 const double complex *X, const double complex *Y, int nb,
                                 double tol, const char *name)
{
  int n = sys->n, m = sys->m, N = 2 * n + m;
  spm *A = rank == 0 ? pencil_damped_reduced_real (sys, creal (sigma), s * w, lower) : NULL;
  CHECK0 (A != NULL, "%s, real: pencil_damped_reduced_real failed", name);
  mb_err err;
  mb_err_init (&err);
  factor *f = factor_create (MPI_COMM_WORLD, lower ? FACTOR_REAL_SYMMETRIC : FACTOR_REAL_GENERAL,
                             n + m, A ? A->nnz : 0, A ? A->row : NULL, A ? A->col : NULL,
                             A ? A->val : NULL, "reduced (real)", &err);
  spm_free (A);
  CHECK0 (f != NULL, "%s, real: factor_create failed: %.300s", name, err.msg);
  /* by rows on every rank count (one rank: one block) */
  for (int pass = 0; f && pass < 1; pass++) {
    shift_invert si;
    int rc = shift_invert_init (&si, MPI_COMM_WORLD, f, sys, P, N, &err);
    CHECK0 (rc == 0, "%s, real: shift_invert_init returned %d", name, rc);
    if (rc < 0) continue;
    shift_invert_set_damped (&si, sigma, w);
    int nl = si.dist.nloc, r0 = si.dist.row0, ld = nl + 2;  /* ld > nloc on purpose */
    double *xl = xcalloc ((size_t) ld * nb, sizeof *xl);
    double *ys = xcalloc ((size_t) nl * nb + 1, sizeof *ys);
    double *yb = xcalloc ((size_t) ld * nb, sizeof *yb);
    for (int k = 0; k < nb; k++)
      for (int i = 0; i < nl; i++) xl[(size_t) k * ld + i] = creal (X[(size_t) k * N + r0 + i]);
    int rc1 = 0;
    for (int k = 0; k < nb && rc1 == 0; k++)
      rc1 = shift_invert_apply_block_real (&si, 1, xl + (size_t) k * ld, nl > 0 ? nl : 1,
                                           ys + (size_t) k * nl, nl > 0 ? nl : 1);
    int rc2 = shift_invert_apply_block_real (&si, nb, xl, ld, yb, ld);
    CHECK0 (rc1 == 0 && rc2 == 0, "%s, real: applies returned %d, %d", name, rc1, rc2);
    double e[3] = { 0.0, 0.0, 0.0 }, g[3];  /* single, block errors; max |y| */
    for (int k = 0; k < nb; k++)
      for (int i = 0; i < nl; i++) {
        double ref = creal (Y[(size_t) k * N + r0 + i]);
        e[0] = fmax (e[0], fabs (ys[(size_t) k * nl + i] - ref));
        e[1] = fmax (e[1], fabs (yb[(size_t) k * ld + i] - ref));
        e[2] = fmax (e[2], fabs (ref));
      }
    MPI_Allreduce (e, g, 3, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    CHECK0 (g[0] <= tol * g[2], "%s, real: single applies differ from zgesv by "
            "%.2e relative (bound %.1e)", name, g[0] / g[2], tol);
    CHECK0 (g[1] <= tol * g[2], "%s, real: the block apply differs from zgesv by "
            "%.2e relative (bound %.1e)", name, g[1] / g[2], tol);
    if (rank == 0 && getenv ("TEST_GEP_VERBOSE"))
      printf ("  %s, real: errors %.2e (single), %.2e (block)\n", name,
              g[0] / g[2], g[1] / g[2]);
    free (xl); free (ys); free (yb);
    shift_invert_clear (&si);
  }
  factor_free (f);
}

/* The undamped operator by rows (issue 10): y = (A - sigma B)^-1 B x for GEP (18),
   B x = [M x_q; 0], with M's rows on their ranks and the solve's right-hand sides and
   solutions distributed by the same rows (nothing gathered, one rank being one block),
   single applies, a block of 5 columns, and a block
   applied in place of its own input's rows. A constrained chain with massless DOFs (M
   singular) and two constraint rows; the pencil [K - sigma M, s Cq^T; s Cq, 0] written densely
   here and solved by LAPACKE_dgesv (dgetrf/dgetrs) for the reference. Bound: as
   test_reduced_solve, 10 DBL_EPSILON / rcond (LAPACKE_dgecon). */
static void test_undamped_by_rows (void)
{
  int n = 24, m = 2, N = n + m, nb = 5;
  problem p = problem_new ("undamped by rows", n, m, 0);
  int massless[24];
  for (int i = 0; i < n; i++) massless[i] = i % 5 == 4;
  if (rank == 0) {
    rng_seed (17);
    chain (p.K, n, 0, n, 5, 1);
    masses (p.M, n, 0, n, massless);
    AT (p.Cq, m, 0, 3) = 1.0;  AT (p.Cq, m, 0, 17) = -1.0;
    AT (p.Cq, m, 1, 8) = 0.5;  AT (p.Cq, m, 1, 22) = 1.0;
  }
  spm *K = NULL, *M = NULL, *Cq = NULL;
  if (rank == 0) {
    K = to_spm (n, n, p.K);
    M = to_spm (n, n, p.M);
    Cq = to_spm (m, n, p.Cq);
  }
  gep_system sys = { .n = n, .m = m, .K = K, .M = M, .Cq = Cq };
  gep_parts P;
  parts_of (&sys, 0, &P);
  double *X = xcalloc ((size_t) N * nb, sizeof *X);  /* the same on every rank */
  rng_seed (171);
  for (int k = 0; k < N * nb; k++) X[k] = urange (-1.0, 1.0);
  const double sigmas[2] = { -0.5, 37.0 };
  const double s = 1048576.0;  /* the constraint rows' scale (stiffness ~1e6 N/m), as the
                                  stages balance them (pencil_cq_scale) */
  for (int c = 0; c < 2; c++) {
    double sigma = sigmas[c];
    char name[96];
    snprintf (name, sizeof name, "undamped by rows, sigma = %g", sigma);
    /* the reference: dgesv on the dense pencil, rank 0, broadcast */
    double *Y = xcalloc ((size_t) N * nb, sizeof *Y), rcond = 0.0;
    if (rank == 0) {
      double *F = xcalloc ((size_t) N * N, sizeof *F);
      for (int j = 0; j < n; j++)
        for (int i = 0; i < n; i++) AT (F, N, i, j) = AT (p.K, n, i, j) - sigma * AT (p.M, n, i, j);
      for (int r = 0; r < m; r++)
        for (int j = 0; j < n; j++)
          AT (F, N, j, n + r) = AT (F, N, n + r, j) = s * AT (p.Cq, m, r, j);
      for (int k = 0; k < nb; k++)
        for (int i = 0; i < n; i++)
          for (int j = 0; j < n; j++)
            Y[(size_t) k * N + i] += AT (p.M, n, i, j) * X[(size_t) k * N + j];
      double anorm = 0.0;
      for (int i = 0; i < N; i++) {
        double row = 0.0;
        for (int j = 0; j < N; j++) row += fabs (AT (F, N, i, j));
        anorm = fmax (anorm, row);
      }
      lapack_int *ipiv = xcalloc ((size_t) N, sizeof *ipiv);
      lapack_int info = LAPACKE_dgetrf (LAPACK_COL_MAJOR, N, N, F, N, ipiv);
      if (info == 0) info = LAPACKE_dgecon (LAPACK_COL_MAJOR, 'I', N, F, N, anorm, &rcond);
      if (info == 0) info = LAPACKE_dgetrs (LAPACK_COL_MAJOR, 'N', N, nb, F, N, ipiv, Y, N);
      CHECK0 (info == 0, "%s: (setup) dgesv info %d", name, (int) info);
      CHECK0 (rcond > 1e-9, "%s: (setup) the pencil's rcond %.2e is below 1e-9", name, rcond);
      free (ipiv);
      free (F);
    }
    MPI_Bcast (Y, N * nb, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    MPI_Bcast (&rcond, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    double tol = 10.0 * DBL_EPSILON / (rcond > 0.0 ? rcond : DBL_EPSILON);
    spm *A = rank == 0 ? pencil_undamped (&sys, sigma, s, 1) : NULL;
    CHECK0 (A != NULL, "%s: pencil_undamped failed", name);
    mb_err err;
    mb_err_init (&err);
    factor *f = factor_create (MPI_COMM_WORLD, FACTOR_REAL_SYMMETRIC, N, A ? A->nnz : 0,
                               A ? A->row : NULL, A ? A->col : NULL, A ? A->val : NULL,
                               "A - sigma B", &err);
    spm_free (A);
    CHECK0 (f != NULL, "%s: factor_create failed: %.300s", name, err.msg);
    /* by rows on every rank count (one rank: one block) */
    for (int pass = 0; f && pass < 1; pass++) {
      shift_invert si;
      int rc = shift_invert_init (&si, MPI_COMM_WORLD, f, &sys, &P, N, &err);
      CHECK0 (rc == 0, "%s: shift_invert_init returned %d", name, rc);
      if (rc < 0) continue;
      int nl = si.dist.nloc, r0 = si.dist.row0, ld = nl + 3;  /* ld > nloc on purpose */
      double *xl = xcalloc ((size_t) ld * nb, sizeof *xl);
      double *ys = xcalloc ((size_t) nl * nb + 1, sizeof *ys);
      double *yb = xcalloc ((size_t) ld * nb, sizeof *yb);
      double *yi = xcalloc ((size_t) ld * nb, sizeof *yi);
      for (int k = 0; k < nb; k++)
        for (int i = 0; i < nl; i++)
          xl[(size_t) k * ld + i] = yi[(size_t) k * ld + i] = X[(size_t) k * N + r0 + i];
      int rc1 = 0;
      for (int k = 0; k < nb && rc1 == 0; k++)
        rc1 = shift_invert_apply_block_real (&si, 1, xl + (size_t) k * ld, nl > 0 ? nl : 1,
                                             ys + (size_t) k * nl, nl > 0 ? nl : 1);
      int rc2 = shift_invert_apply_block_real (&si, nb, xl, ld, yb, ld);
      int rc3 = shift_invert_apply_block_real (&si, nb, yi, ld, yi, ld);  /* in place */
      CHECK0 (rc1 == 0 && rc2 == 0 && rc3 == 0, "%s: applies returned %d, %d, "
              "%d", name, rc1, rc2, rc3);
      double e[4] = { 0.0, 0.0, 0.0, 0.0 }, g[4];  /* single, block, in place; max |y| */
      for (int k = 0; k < nb; k++)
        for (int i = 0; i < nl; i++) {
          double ref = Y[(size_t) k * N + r0 + i];
          e[0] = fmax (e[0], fabs (ys[(size_t) k * nl + i] - ref));
          e[1] = fmax (e[1], fabs (yb[(size_t) k * ld + i] - ref));
          e[2] = fmax (e[2], fabs (yi[(size_t) k * ld + i] - ref));
          e[3] = fmax (e[3], fabs (ref));
        }
      MPI_Allreduce (e, g, 4, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
      const char *what[3] = { "single applies", "the block apply", "the block apply in place" };
      for (int t = 0; t < 3; t++)
        CHECK0 (g[t] <= tol * g[3], "%s: %s differ from dgesv by %.2e relative "
                "(bound %.1e)", name, what[t], g[t] / g[3], tol);
      if (rank == 0 && getenv ("TEST_GEP_VERBOSE"))
        printf ("  %s: errors %.2e, %.2e, %.2e, rcond %.2e\n", name,
                g[0] / g[3], g[1] / g[3], g[2] / g[3], rcond);
      free (xl); free (ys); free (yb); free (yi);
      shift_invert_clear (&si);
    }
    factor_free (f);
    free (Y);
  }
  free (X);
  gep_parts_clear (&P);
  spm_free (K); spm_free (M); spm_free (Cq);
  problem_free (&p);
}

/* The same matrix as a triplet copy (compressed = 0, entries in reverse order): the form
   on which pencil_undamped sums triplets, the reference for its merge of compressed rows. */
static spm *triplet_copy (const spm *A)
{
  spm *T = spm_create (A->nrows, A->ncols, A->nnz);
  if (!T) abort ();
  for (long k = A->nnz - 1; k >= 0; k--)
    if (spm_add (T, A->row[k], A->col[k], A->val[k]) != 0) abort ();
  return T;
}

/* 1 when A and B hold the same compressed entries bit for bit. */
static int same_bits (const spm *A, const spm *B)
{
  if (!A || !B || !A->compressed || !B->compressed || A->nnz != B->nnz
      || A->nrows != B->nrows) return 0;
  for (long k = 0; k < A->nnz; k++)
    if (A->row[k] != B->row[k] || A->col[k] != B->col[k]
        || memcmp (&A->val[k], &B->val[k], sizeof A->val[k]) != 0) return 0;
  return memcmp (A->rowptr, B->rowptr, ((size_t) A->nrows + 1) * sizeof *A->rowptr) == 0;
}

/* Rank 0. The pencil built from compressed rows against its references:
   pencil_undamped (merge of compressed K, M, Cq) bit for bit the compressed sum of the
   triplets (both triangles and the lower one; K not symmetric, stored zeros, M with entries
   K lacks and the reverse, a DOF in no constraint), and entry by entry the dense
   [K - sigma M, s Cq^T; s Cq, 0] formed here. */
static void test_pencil_build (void)
{
  if (rank != 0) return;
  int n = 9, m = 3, N = n + m;
  double sigma = -0.37, s = 4.0;
  rng_seed (71);
  spm *K = spm_create (n, n, 8), *M = spm_create (n, n, 8), *R = spm_create (n, n, 8);
  spm *C = spm_create (m, n, 8);
  double *D = xcalloc ((size_t) N * N, sizeof *D);   /* the dense pencil, column-major */
  for (int t = 0; t < 30; t++) {
    int i = (int) (urand () * n), j = (int) (urand () * n);
    double v = t % 9 == 0 ? 0.0 : urange (-2.0, 2.0);
    spm_add (K, i, j, v);
    if (t % 3 == 0) spm_add (M, j, i, urange (0.1, 1.0));
    spm_add (R, i, i, urange (0.0, 1.0));
  }
  for (int i = 0; i < n; i++) spm_add (M, i, i, 1.0 + i);
  for (int r = 0; r < m; r++) {
    spm_add (C, r, 2 * r, 1.0);
    spm_add (C, r, 2 * r + 3, -0.5);
  }
  spm_compress (K); spm_compress (M); spm_compress (R); spm_compress (C);
  for (long k = 0; k < K->nnz; k++) AT (D, N, K->row[k], K->col[k]) += K->val[k];
  for (long k = 0; k < M->nnz; k++) AT (D, N, M->row[k], M->col[k]) += -sigma * M->val[k];
  for (long k = 0; k < C->nnz; k++) {
    AT (D, N, n + C->row[k], C->col[k]) = s * C->val[k];
    AT (D, N, C->col[k], n + C->row[k]) = s * C->val[k];
  }
  spm *Kt = triplet_copy (K), *Mt = triplet_copy (M), *Ct = triplet_copy (C);
  gep_system sys = { .n = n, .m = m, .K = K, .M = M, .R = R, .Cq = C };
  gep_system syt = { .n = n, .m = m, .K = Kt, .M = Mt, .R = R, .Cq = Ct };
  for (int lower = 0; lower < 2; lower++) {
    spm *A = pencil_undamped (&sys, sigma, s, lower), *B = pencil_undamped (&syt, sigma, s, lower);
    CHECK0 (same_bits (A, B), "pencil_undamped (lower %d): merged rows differ from the "
            "compressed triplets", lower);
    int dense_ok = A != NULL;
    double *E = xcalloc ((size_t) N * N, sizeof *E);
    for (long k = 0; A && k < A->nnz; k++) AT (E, N, A->row[k], A->col[k]) += A->val[k];
    for (int i = 0; i < N; i++)
      for (int j = 0; j < N; j++)
        if (AT (E, N, i, j) != (lower && j > i ? 0.0 : AT (D, N, i, j))) dense_ok = 0;
    CHECK0 (dense_ok, "pencil_undamped (lower %d) against the dense pencil", lower);
    free (E);
    spm_free (A);
    spm_free (B);
  }
  free (D);
  spm_free (K); spm_free (M); spm_free (R); spm_free (C);
  spm_free (Kt); spm_free (Mt); spm_free (Ct);
}

/* Rank 0: a copy of the compressed A as triplets (not compressed), so that the pencil
   builds take their triplet path. */
static spm *triplets_of (const spm *A)
{
  spm *T = spm_create (A->nrows, A->ncols, A->nnz > 0 ? A->nnz : 1);
  for (long k = 0; k < A->nnz; k++) spm_add (T, A->row[k], A->col[k], A->val[k]);
  return T;
}

/* Collective. The damped reduced pencil by rows at a complex sigma
   (pencil_damped_reduced_part_z), gathered in rank order, is pencil_damped_reduced's
   whole complex matrix (from the same system, rank 0) bit for bit: rows, columns, real and
   imaginary parts. */
static void test_pencil_parts_z (const gep_system *sys, const gep_parts *P, double s,
                                 int lower, int m)
{
  double complex sigma = -0.37 + 1.9 * I;
  ztrip t = { 0 }, w = { 0 };
  int fail = pencil_damped_reduced_part_z (P, sigma, s, lower, &t) != 0;
  int cnt = fail ? 0 : (int) t.nnz, *counts = xcalloc ((size_t) nranks, sizeof *counts);
  int *displs = xcalloc ((size_t) nranks, sizeof *displs);
  MPI_Gather (&cnt, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
  int total = 0;
  for (int r = 0; r < nranks; r++) { displs[r] = total; total += counts[r]; }
  int *gr = xcalloc ((size_t) total + 1, sizeof *gr), *gc = xcalloc ((size_t) total + 1, sizeof *gc);
  double complex *gv = xcalloc ((size_t) total + 1, sizeof *gv);
  MPI_Gatherv (t.row, cnt, MPI_INT, gr, counts, displs, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Gatherv (t.col, cnt, MPI_INT, gc, counts, displs, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Gatherv (t.val, cnt, MPI_C_DOUBLE_COMPLEX, gv, counts, displs, MPI_C_DOUBLE_COMPLEX, 0,
               MPI_COMM_WORLD);
  int all, ok = !fail;
  MPI_Allreduce (&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (rank == 0) {
    int same = all && pencil_damped_reduced (sys, sigma, s, lower, &w) == 0 && w.nnz == total;
    for (long k = 0; same && k < total; k++)
      same = w.row[k] == gr[k] && w.col[k] == gc[k]
             && memcmp (&w.val[k], &gv[k], sizeof gv[k]) == 0;
    CHECK0 (same, "complex pencil by rows (%s, lower %d, %d ranks): the gathered parts differ "
            "from pencil_damped_reduced's whole matrix",
            m ? "4 constraints, one empty" : "no constraints", lower, nranks);
  }
  ztrip_clear (&t);
  ztrip_clear (&w);
  free (counts); free (displs); free (gr); free (gc); free (gv);
}

/* Collective. The pencil built by rows from each rank's parts (gep_parts_scatter,
   pencil_undamped_part; with R, pencil_damped_reduced_part), gathered in rank order, is
   the whole build's matrix bit for bit (entries, order, values), lower triangle and whole:
   pencil_undamped's, or pencil_damped_reduced_real's both from the compressed matrices
   (merged row by row) and from triplets (summed by spm_compress), for a system with a
   constraint row that has no entry, one without constraints, and more ranks than
   constraint rows. R overlaps K and M in some entries, not in others, and has a stored
   zero. With R, also the complex build at a complex sigma (test_pencil_parts_z). */
static void test_pencil_parts (void)
{
  for (int kase = 0; kase < 4; kase++) {
    int damped = kase >= 2;
    int n = 11, m = kase % 2 == 0 ? 4 : 0, N = n + m;
    double sigma = 0.61, s = 2.0;
    rng_seed (83);   /* the same system on every rank, used on rank 0 only */
    spm *K = spm_create (n, n, 8), *M = spm_create (n, n, 8), *C = spm_create (m, n, 8);
    spm *R = spm_create (n, n, 8);
    for (int t = 0; t < 40; t++) {
      int i = (int) (urand () * n), j = (int) (urand () * n);
      double v = t % 7 == 0 ? 0.0 : urange (-2.0, 2.0);
      spm_add (K, i, j, v);
      spm_add (K, j, i, v);
      if (t % 3 == 0) { spm_add (M, i, j, 0.1 * v); spm_add (M, j, i, 0.1 * v); }
      if (t % 4 == 1) { spm_add (R, i, j, 0.3 * v); spm_add (R, j, i, 0.3 * v); }
    }
    for (int i = 0; i < n; i++) spm_add (M, i, i, 1.0 + i);
    spm_add (R, n - 1, 0, 0.0);
    spm_add (R, 0, n - 1, 0.0);
    for (int r = 0; r < m; r++)
      if (r != 2) {   /* constraint row 2 has no entry */
        spm_add (C, r, (3 * r + 1) % n, 1.0 + r);
        spm_add (C, r, (5 * r + 4) % n, -0.5);
      }
    spm_compress (K); spm_compress (M); spm_compress (C); spm_compress (R);
    gep_system sys = { .n = n, .m = m, .K = K, .M = M, .Cq = m > 0 ? C : NULL,
                       .R = damped ? R : NULL };
    gep_parts P;
    mb_err err;
    mb_err_init (&err);
    int rc = gep_parts_scatter (MPI_COMM_WORLD, &sys, damped, &P, &err);
    for (int lower = 0; lower < 2 && rc == 0; lower++) {
      spm_part A;
      int fail = (damped ? pencil_damped_reduced_part (&P, sigma, s, lower, &A)
                         : pencil_undamped_part (&P, sigma, s, lower, &A)) != 0;
      int *rows = fail ? NULL : spm_part_rows (&A);
      int cnt = fail ? 0 : (int) A.L.nnz, *counts = xcalloc ((size_t) nranks, sizeof *counts);
      int *displs = xcalloc ((size_t) nranks, sizeof *displs);
      MPI_Gather (&cnt, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
      int total = 0;
      for (int r = 0; r < nranks; r++) { displs[r] = total; total += counts[r]; }
      int *gr = xcalloc ((size_t) total + 1, sizeof *gr), *gc = xcalloc ((size_t) total + 1, sizeof *gc);
      double *gv = xcalloc ((size_t) total + 1, sizeof *gv);
      MPI_Gatherv (rows, cnt, MPI_INT, gr, counts, displs, MPI_INT, 0, MPI_COMM_WORLD);
      MPI_Gatherv (fail ? NULL : A.L.col, cnt, MPI_INT, gc, counts, displs, MPI_INT, 0,
                   MPI_COMM_WORLD);
      MPI_Gatherv (fail ? NULL : A.L.val, cnt, MPI_DOUBLE, gv, counts, displs, MPI_DOUBLE, 0,
                   MPI_COMM_WORLD);
      int ok = !fail && A.first == P.row0 && A.L.nrows == P.nloc && A.L.ncols == N;
      int all;
      MPI_Allreduce (&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
      for (int trip = 0; rank == 0 && trip < 1 + damped; trip++) {
        gep_system ts = sys;   /* trip: the same matrices as triplets */
        spm *TK = trip ? triplets_of (K) : NULL, *TM = trip ? triplets_of (M) : NULL;
        spm *TR = trip ? triplets_of (R) : NULL, *TC = trip && m > 0 ? triplets_of (C) : NULL;
        if (trip) ts.K = TK, ts.M = TM, ts.R = TR, ts.Cq = TC;
        spm *B = damped ? pencil_damped_reduced_real (&ts, sigma, s, lower)
                        : pencil_undamped (&sys, sigma, s, lower);
        int same = all && B && B->nnz == total;
        for (long k = 0; same && k < total; k++)
          same = B->row[k] == gr[k] && B->col[k] == gc[k]
                 && memcmp (&B->val[k], &gv[k], sizeof gv[k]) == 0;
        CHECK0 (same, "pencil by rows (%s, %s, lower %d, %d ranks): the gathered parts differ "
               "from the whole build%s", damped ? "damped, reduced" : "undamped",
               m ? "4 constraints, one empty" : "no constraints", lower, nranks,
               trip ? " from triplets" : "");
        spm_free (B);
        spm_free (TK); spm_free (TM); spm_free (TR); spm_free (TC);
      }
      free (rows); free (counts); free (displs); free (gr); free (gc); free (gv);
      spm_part_clear (&A);
      if (damped) test_pencil_parts_z (&sys, &P, s, lower, m);
    }
    CHECK0 (rc == 0, "gep_parts_scatter failed: %.300s", err.msg);
    gep_parts_clear (&P);
    spm_free (K); spm_free (M); spm_free (C); spm_free (R);
  }
}

/* 1 when two parts hold the same rows bit for bit (first, rows, starts, columns, values). */
static int same_part (const spm_part *A, const spm_part *B)
{
  if (A->L.nrows != B->L.nrows || A->L.nnz != B->L.nnz) return 0;
  if (A->L.nrows > 0 && A->first != B->first) return 0;
  for (int i = 0; i <= A->L.nrows && A->L.nrows > 0; i++)
    if (A->L.rowptr[i] - A->L.rowptr[0] != B->L.rowptr[i] - B->L.rowptr[0]) return 0;
  for (long k = 0; k < A->L.nnz; k++)
    if (A->L.col[k] != B->L.col[k] || memcmp (&A->L.val[k], &B->L.val[k], sizeof (double)))
      return 0;
  return 1;
}

/* The system read by rows (issue 10): triplets with duplicates spread over the ranks in
   file order (contiguous blocks) and routed (gep_parts_route) give the parts that
   gep_parts_scatter gives for the compressed matrices, bit for bit; the measures of the
   parts are what rank 0 computes from the whole matrices (spm_is_symmetric, spm_max_abs,
   pencil_norms, the rows of M with a nonzero; a stored zero row of M has no mass), also
   for an unsymmetric K; the gathered parts are the compressed matrices bit for bit. With R
   (cases 0 and 2; case 2's R unsymmetric): R's parts too, its largest entry, symmetry and
   the massless DOF with damping (row 5, whose R row is not zero). */
static void test_parts_route (void)
{
  for (int kase = 0; kase < 3; kase++) {
    int n = 13, m = kase == 1 ? 0 : 3;
    rng_seed (97 + kase);   /* the same triplets on every rank */
    spm *K = spm_create (n, n, 8), *M = spm_create (n, n, 8), *C = spm_create (m, n, 8);
    spm *R = spm_create (n, n, 8);
    int with_r = kase != 1;
    spm_add (R, 5, 5, 0.75);
    spm_add (R, 2, 4, 0.5);
    spm_add (R, 4, 2, kase == 2 ? 0.5 + 1e-3 : 0.5);
    spm_add (R, 2, 4, 0.0);   /* a duplicate zero */
    for (int t = 0; t < 50; t++) {
      int i = (int) (urand () * n), j = (int) (urand () * n);
      double v = t % 9 == 0 ? 0.0 : urange (-2.0, 2.0);
      spm_add (K, i, j, v);   /* duplicates: (i, j) drawn again later */
      spm_add (K, j, i, kase == 2 && t == 7 ? v + 1e-3 : v);
      if (t % 3 == 0 && i != 5 && j != 5) { spm_add (M, i, j, 0.1 * v); spm_add (M, j, i, 0.1 * v); }
    }
    for (int i = 0; i < n; i++) spm_add (M, i, i, i == 5 ? 0.0 : 1.0 + i);  /* row 5: a zero */
    for (int r = 0; r < m; r++) {
      spm_add (C, r, (3 * r + 1) % n, 1.0 + r);
      spm_add (C, r, (5 * r + 4) % n, -0.5);
      spm_add (C, r, (3 * r + 1) % n, 0.25);   /* a duplicate */
    }
    /* this rank's contiguous block of each matrix's triplets */
    spm *share[4] = { NULL, NULL, NULL, NULL };
    spm *all[4] = { K, M, C, R };
    for (int a = 0; a < 4; a++) {
      long lo = all[a]->nnz * rank / nranks, hi = all[a]->nnz * (rank + 1) / nranks;
      share[a] = spm_create (all[a]->nrows, n, hi - lo + 1);
      for (long k = lo; k < hi; k++) spm_add (share[a], all[a]->row[k], all[a]->col[k], all[a]->val[k]);
    }
    spm *Kc = spm_copy (K), *Mc = spm_copy (M), *Cc = spm_copy (C), *Rc = spm_copy (R);
    spm_compress (Kc); spm_compress (Mc); spm_compress (Cc); spm_compress (Rc);
    gep_system sys = { .n = n, .m = m, .K = Kc, .M = Mc, .Cq = m > 0 ? Cc : NULL,
                       .R = with_r ? Rc : NULL };
    gep_parts P, Q;
    gep_measures ms;
    mb_err err;
    mb_err_init (&err);
    int rc = gep_parts_route (MPI_COMM_WORLD, n, m, share[0], share[1],
                              with_r ? share[3] : NULL, m > 0 ? share[2] : NULL, &P, &err);
    int rc2 = gep_parts_scatter (MPI_COMM_WORLD, &sys, with_r, &Q, &err);
    int rc3 = rc == 0 ? gep_measure_parts (MPI_COMM_WORLD, &P, 0, &ms, &err) : -1;
    int same = rc == 0 && rc2 == 0 && same_part (&P.K, &Q.K) && same_part (&P.M, &Q.M)
               && same_part (&P.Cq, &Q.Cq) && same_part (&P.CqT, &Q.CqT)
               && (!with_r || same_part (&P.R, &Q.R))
               && P.row0 == Q.row0 && P.nloc == Q.nloc, all_same;
    MPI_Allreduce (&same, &all_same, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    CHECK0 (all_same, "parts routed (case %d, %d ranks): differ from the scattered parts (rc %d, "
            "%d: %.200s)", kase, nranks, rc, rc2, err.msg);
    spm *GK = NULL, *GM = NULL, *GC = NULL, *GR = NULL;
    int rc4 = rc == 0 ? gep_parts_gather (MPI_COMM_WORLD, &P, &GK, &GM, &GC, &GR, &err) : -1;
    if (rank == 0) {
      CHECK0 (rc3 == 0, "measures by rows (case %d): failed: %.200s", kase, err.msg);
      double an = 0, bn = 0;
      pencil_norms (&sys, 0, &an, &bn, &err);
      long mass = 0;
      for (int i = 0; i < n; i++) {
        int has = 0;
        for (int k = Mc->rowptr[i]; k < Mc->rowptr[i + 1]; k++) has |= Mc->val[k] != 0.0;
        mass += has;
      }
      int sym = spm_is_symmetric (Kc, 1e-12) && spm_is_symmetric (Mc, 1e-12);
      CHECK0 (rc3 == 0 && ms.symmetric == sym && sym == (kase != 2),
              "measures by rows (case %d): symmetric %d, whole %d", kase, ms.symmetric, sym);
      CHECK0 (rc3 == 0 && ms.kmax == spm_max_abs (Kc) && ms.mmax == spm_max_abs (Mc)
              && ms.cmax == (m > 0 ? spm_max_abs (Cc) : 0.0),
              "measures by rows (case %d): maxima %g %g %g", kase, ms.kmax, ms.mmax, ms.cmax);
      CHECK0 (rc3 == 0 && ms.anorm == an && ms.bnorm == bn, "measures by rows (case %d): norms "
              "%.17g %.17g, whole %.17g %.17g", kase, ms.anorm, ms.bnorm, an, bn);
      CHECK0 (rc3 == 0 && ms.mass_dofs == mass && mass == n - 1, "measures by rows (case %d): "
              "%ld DOFs with mass, whole %ld", kase, ms.mass_dofs, mass);
      CHECK0 (rc4 == 0 && GK && GM && same_bits (GK, Kc) && same_bits (GM, Mc)
              && (m > 0 ? GC && same_bits (GC, Cc) : !GC),
              "parts gathered (case %d, %d ranks): differ from the compressed matrices", kase,
              nranks);
      CHECK0 (rc4 == 0 && (with_r ? GR && same_bits (GR, Rc) : !GR),
              "R's parts gathered (case %d, %d ranks): differ from the compressed R", kase,
              nranks);
      int rsym = !with_r || spm_is_symmetric (Rc, 1e-12);
      CHECK0 (rc3 == 0 && ms.has_r == with_r && ms.rmax == (with_r ? spm_max_abs (Rc) : 0.0)
              && ms.damped_dofs == (with_r ? 1 : 0) && ms.damped_symmetric == (sym && rsym)
              && rsym == (kase != 2),
              "measures of R by rows (case %d): has %d, max %g, %ld massless DOFs with damping, "
              "symmetric %d", kase, ms.has_r, ms.rmax, ms.damped_dofs, ms.damped_symmetric);
    }
    spm_free (GK); spm_free (GM); spm_free (GC); spm_free (GR);
    if (rc == 0) gep_parts_clear (&P);
    if (rc2 == 0) gep_parts_clear (&Q);
    for (int a = 0; a < 4; a++) spm_free (share[a]);
    spm_free (K); spm_free (M); spm_free (C); spm_free (Kc); spm_free (Mc); spm_free (Cc);
    spm_free (R); spm_free (Rc);
  }
}

int main (int argc, char **argv)
{
  MPI_Init (&argc, &argv);
  MPI_Comm_rank (MPI_COMM_WORLD, &rank);
  MPI_Comm_size (MPI_COMM_WORLD, &nranks);
  if (argc == 3 && !strcmp (argv[1], "--block")) forced_block = atoi (argv[2]);

  test_spd ();
  test_rigid ();
  test_constrained ();
  test_massless ();
  test_damped ();
  test_overdamped ();
  test_damped_rigid_kinds ();
  test_repeated ();
  test_missed_retry ();
  test_nonsymmetric ();
  test_noconv ();
  test_singular_shift ();
  test_singular_every_shift ();
  test_faults ();
  test_reduced_solve ();
  test_undamped_by_rows ();
  test_pencil_build ();
  test_pencil_parts ();
  test_parts_route ();

  int status = 0;
  if (rank == 0) status = CHECK_DONE ();
  MPI_Bcast (&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Finalize ();
  return status;
}
