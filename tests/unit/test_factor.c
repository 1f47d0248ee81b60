/* test_factor.c: the MUMPS backend against dense LAPACK solves and closed-form inertia;
   refactorization on one analysis; options; null pivots against closed-form null spaces;
   right-hand sides and solutions distributed by rows against dense LAPACK; the matrix given
   distributed over the ranks; the sweep's factor cache (reuse of the analysis). */
#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <lapacke.h>
#include <mpi.h>

#include "check.h"
#include "linalg/factor.h"
#include "linalg/factor_cache.h"

static int rank, nranks;
static const double PI = 3.14159265358979323846;

/* CHECK on rank 0 only: the values compared live there. Collective calls go before it. */
#define CHECK0(descr, c) do { if (rank == 0) CHECK (descr, c); } while (0)

/* Triplets of a test matrix, built identically on every rank; only rank 0 hands them on. */
typedef struct trip {
  int n;
  long nnz, cap;
  int *i, *j;
  double complex *v;
} trip;

static void trip_add (trip *t, int i, int j, double complex v)
{
  if (t->nnz == t->cap) {
    t->cap = t->cap ? 2 * t->cap : 64;
    t->i = realloc (t->i, (size_t) t->cap * sizeof *t->i);
    t->j = realloc (t->j, (size_t) t->cap * sizeof *t->j);
    t->v = realloc (t->v, (size_t) t->cap * sizeof *t->v);
    if (!t->i || !t->j || !t->v) abort ();
  }
  t->i[t->nnz] = i;
  t->j[t->nnz] = j;
  t->v[t->nnz] = v;
  t->nnz++;
}

static void trip_clear (trip *t)
{
  free (t->i);
  free (t->j);
  free (t->v);
  memset (t, 0, sizeof *t);
}

/* The real parts of t's values, for the real kinds; caller frees. */
static double *real_values (const trip *t)
{
  double *a = malloc ((size_t) (t->nnz ? t->nnz : 1) * sizeof *a);
  if (!a) abort ();
  for (long k = 0; k < t->nnz; k++) a[k] = creal (t->v[k]);
  return a;
}

/* Dense column-major n x n copy of t (duplicates summed); sym: t holds the lower triangle
   of a symmetric matrix, mirrored. Caller frees. */
static double complex *dense (const trip *t, int sym)
{
  int n = t->n;
  double complex *A = calloc ((size_t) n * n, sizeof *A);
  if (!A) abort ();
  for (long k = 0; k < t->nnz; k++) {
    A[(size_t) t->j[k] * n + t->i[k]] += t->v[k];
    if (sym && t->i[k] != t->j[k]) A[(size_t) t->i[k] * n + t->j[k]] += t->v[k];
  }
  return A;
}

/* Creates the factor of t with rank 0 passing the triplets, the others NULL. */
/* The initial ICNTL(14) of create's factorizations: 30 (the default), 0 in the retry
   tests (no slack for delayed pivots). */
static int create_icntl14 = 30;

static factor *create (factor_kind kind, const trip *t, mb_err *err)
{
  const void *a = NULL;
  double *ar = NULL;
  if (rank == 0) {
    if (kind == FACTOR_COMPLEX_GENERAL || kind == FACTOR_COMPLEX_SYMMETRIC) a = t->v;
    else a = ar = real_values (t);
  }
  factor_opts o;
  factor_opts_default (&o);
  o.icntl14 = create_icntl14;
  factor *f = factor_create_opts (MPI_COMM_WORLD, kind, t->n, rank == 0 ? t->nnz : 0,
                                  rank == 0 ? t->i : NULL, rank == 0 ? t->j : NULL, a,
                                  "A - sigma B", &o, err);
  free (ar);
  return f;
}

/* 1 when v is the same on every rank (checked on rank 0). */
static int same_everywhere (long v)
{
  long lo, hi;
  MPI_Allreduce (&v, &lo, 1, MPI_LONG, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce (&v, &hi, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
  return lo == hi;
}

/* 1 when the message in e is the same on every rank. */
static int same_message (const mb_err *e)
{
  char m0[sizeof e->msg];
  memcpy (m0, e->msg, sizeof m0);
  MPI_Bcast (m0, (int) sizeof m0, MPI_CHAR, 0, MPI_COMM_WORLD);
  return same_everywhere (strcmp (m0, e->msg) == 0) && strcmp (m0, e->msg) == 0;
}

/* max_i |x_i - y_i| / max_i |y_i| over n complex entries */
static double rel_diff (const double complex *x, const double complex *y, size_t n)
{
  double d = 0, s = 0;
  for (size_t i = 0; i < n; i++) {
    d = fmax (d, cabs (x[i] - y[i]));
    s = fmax (s, cabs (y[i]));
  }
  return d / (s > 0 ? s : 1);
}

/* Right-hand side column r, entry i: smooth and different per column. */
static double complex rhs_value (int i, int r, int cplx)
{
  double re = sin (0.37 * (i + 1) + r) + 0.1 * r;
  return cplx ? re + I * cos (0.21 * (i + 1) - r) : re;
}

/* Reference X = A^-1 B by dense LAPACK (dgesv / zgesv) on rank 0; caller frees. */
static double complex *dense_solve (const trip *t, int sym, int cplx, int nrhs)
{
  int n = t->n;
  double complex *A = dense (t, sym);
  double complex *X = malloc ((size_t) n * nrhs * sizeof *X);
  lapack_int *ipiv = malloc ((size_t) n * sizeof *ipiv);
  if (!X || !ipiv) abort ();
  for (int r = 0; r < nrhs; r++)
    for (int i = 0; i < n; i++) X[(size_t) r * n + i] = rhs_value (i, r, cplx);
  lapack_int info;
  if (cplx) {
    info = LAPACKE_zgesv (LAPACK_COL_MAJOR, n, nrhs, A, n, ipiv, X, n);
  } else {
    double *Ar = malloc ((size_t) n * n * sizeof *Ar), *Xr = malloc ((size_t) n * nrhs * sizeof *Xr);
    if (!Ar || !Xr) abort ();
    for (size_t k = 0; k < (size_t) n * n; k++) Ar[k] = creal (A[k]);
    for (size_t k = 0; k < (size_t) n * nrhs; k++) Xr[k] = creal (X[k]);
    info = LAPACKE_dgesv (LAPACK_COL_MAJOR, n, nrhs, Ar, n, ipiv, Xr, n);
    for (size_t k = 0; k < (size_t) n * nrhs; k++) X[k] = Xr[k];
    free (Ar);
    free (Xr);
  }
  if (info != 0) abort ();
  free (A);
  free (ipiv);
  return X;
}

/* Factors t with `kind`, solves nrhs right-hand sides (one by one when nrhs == 1 via
   factor_solve) and returns the relative difference to dense LAPACK on rank 0 (0 elsewhere),
   or -1 when a call failed. *st receives the factor's stats. */
static double solve_vs_lapack (factor_kind kind, const trip *t, int nrhs, factor_stats *st)
{
  int cplx = kind == FACTOR_COMPLEX_GENERAL || kind == FACTOR_COMPLEX_SYMMETRIC;
  int sym = kind == FACTOR_REAL_SYMMETRIC || kind == FACTOR_COMPLEX_SYMMETRIC;
  mb_err err;
  mb_err_init (&err);
  factor *f = create (kind, t, &err);
  if (!f) {
    if (rank == 0) printf ("factor_create: %s\n", err.msg);
    return -1;
  }
  factor_get_stats (f, st);
  int n = t->n;
  size_t len = (size_t) n * nrhs;
  void *b = NULL;
  double complex *x = NULL;
  if (rank == 0) {
    x = malloc (len * sizeof *x);
    b = malloc (len * (cplx ? sizeof (double complex) : sizeof (double)));
    if (!x || !b) abort ();
    for (int r = 0; r < nrhs; r++)
      for (int i = 0; i < n; i++) {
        double complex v = rhs_value (i, r, cplx);
        if (cplx) ((double complex *) b)[(size_t) r * n + i] = v;
        else ((double *) b)[(size_t) r * n + i] = creal (v);
      }
  }
  int rc = nrhs == 1 ? factor_solve (f, b, &err) : factor_solve_many (f, b, nrhs, &err);
  int all_same = same_everywhere (rc);
  double d = 0;
  if (rc < 0 || !all_same) d = -1;
  else if (rank == 0) {
    for (size_t k = 0; k < len; k++)
      x[k] = cplx ? ((double complex *) b)[k] : ((double *) b)[k];
    double complex *ref = dense_solve (t, sym, cplx, nrhs);
    d = rel_diff (x, ref, len);
    free (ref);
  }
  if (rc < 0 && rank == 0) printf ("factor_solve: %s\n", err.msg);
  free (b);
  free (x);
  f = factor_free (f);
  return d;
}

/* Lower triangle of T - s I, T = tridiag(-1, 2, -1) of order n, into t at offset 0. */
static void add_shifted_laplacian (trip *t, int n, double s)
{
  for (int i = 0; i < n; i++) {
    trip_add (t, i, i, 2.0 - s);
    if (i > 0) trip_add (t, i, i - 1, -1.0);
  }
}

/* Closed form: eigenvalues of tridiag(-1, 2, -1) of order L are 2 - 2 cos(k pi / (L+1)),
   k = 1..L; returns how many are below s, and the smallest distance of one to s. */
static long laplacian_count_below (int L, double s, double *gap)
{
  long c = 0;
  for (int k = 1; k <= L; k++) {
    double lam = 2.0 - 2.0 * cos (k * PI / (L + 1));
    if (lam < s) c++;
    if (gap && fabs (lam - s) < *gap) *gap = fabs (lam - s);
  }
  return c;
}

/* Saddle point [K - s I, C^T; C, 0] (lower triangle), K = tridiag(-1, 2, -1) of order n1,
   C (m x n1) with row r = scale_r * e_{p_r}: the constraints pin the nodes p_r. */
static void build_saddle (trip *t, int n1, int m, const int *p, double s)
{
  t->n = n1 + m;
  add_shifted_laplacian (t, n1, s);
  for (int r = 0; r < m; r++) trip_add (t, n1 + r, p[r], 1.0 + 0.5 * r);
}

static void test_saddle_solve (void)
{
  /* K SPD (s = -0.5), C pins every 7th node plus a coupled row: a true saddle point */
  trip t = {0};
  int n1 = 280, m = 40, p[40];
  for (int r = 0; r < m; r++) p[r] = 3 + 7 * r;
  build_saddle (&t, n1, m, p, -0.5);
  trip_add (&t, n1 + 5, 100, 0.25);   /* row 5 of C gets a second entry */
  factor_stats st;
  double d = solve_vs_lapack (FACTOR_REAL_SYMMETRIC, &t, 1, &st);
  CHECK0 ("saddle point solve (LDL^T) matches dense dgesv to 1e-10", d >= 0 && d < 1e-10);
  CHECK0 ("stats: symmetric, real, order, entries", st.symmetric == 1 && st.complex_arith == 0
          && st.order == n1 + m && st.nnz_matrix == t.nnz);
  CHECK0 ("stats: ranks, ICNTL(14) default 30, no retries",
          st.ranks == nranks && st.icntl14 == 30 && st.retries == 0);
  CHECK0 ("stats: factor entries and memory reported", st.nnz_factors >= t.nnz
          && st.memory_mb >= 0 && st.time_factor >= 0 && st.time_analysis >= 0);
  /* Sylvester: K SPD, C full row rank m: exactly m negative eigenvalues */
  CHECK0 ("saddle point with SPD K has m negative pivots", st.negative_pivots == m);
  int same = same_everywhere (st.negative_pivots);   /* collective: outside CHECK0 */
  same &= same_everywhere (st.nnz_factors);
  same &= same_everywhere (st.retries);
  CHECK0 ("stats identical on every rank", same);
  trip_clear (&t);
}

/* INFOG(12) of T - s I against the closed-form count of eigenvalues below s. */
static void test_inertia_tridiagonal (void)
{
  static const double shifts[] = { -0.1, 0.013, 0.5, 1.3, 2.0 + 1e-3, 3.1, 4.5 };
  int n = 300;
  for (size_t c = 0; c < sizeof shifts / sizeof *shifts; c++) {
    double s = shifts[c], gap = INFINITY;
    long want = laplacian_count_below (n, s, &gap);
    trip t = {0};
    t.n = n;
    add_shifted_laplacian (&t, n, s);
    mb_err err;
    mb_err_init (&err);
    factor *f = create (FACTOR_REAL_SYMMETRIC, &t, &err);
    factor_stats st;
    factor_get_stats (f, &st);
    char d[96];
    snprintf (d, sizeof d, "tridiagonal n=%d shift %g: %ld negative pivots (gap %.1e)", n, s,
              want, gap);
    CHECK0 (d, f && gap > 1e-8 && st.negative_pivots == want);
    int same = same_everywhere (st.negative_pivots);
    CHECK0 ("negative pivots identical on every rank", same);
    f = factor_free (f);
    trip_clear (&t);
  }
}

/* Saddle point with K - s I indefinite: negatives = m + (eigenvalues of K on null(C) below
   s). null(C) = vectors zero at the pinned nodes, so Z^T K Z is block diagonal with
   tridiag(-1, 2, -1) blocks, one per run of free nodes (closed form per block). */
static void test_inertia_saddle (void)
{
  static const double shifts[] = { 0.05, 0.7, 1.9, 3.3 };
  int n1 = 260, m = 9;
  int p[9] = { 0, 17, 18, 60, 61, 62, 130, 200, 259 };   /* ascending: free runs between */
  for (size_t c = 0; c < sizeof shifts / sizeof *shifts; c++) {
    double s = shifts[c], gap = INFINITY;
    long want = m;
    int start = 0;
    for (int r = 0; r <= m; r++) {
      int stop = r < m ? p[r] : n1;                 /* free nodes start..stop-1 */
      if (stop > start) want += laplacian_count_below (stop - start, s, &gap);
      start = stop + 1;
    }
    trip t = {0};
    build_saddle (&t, n1, m, p, s);
    mb_err err;
    mb_err_init (&err);
    factor *f = create (FACTOR_REAL_SYMMETRIC, &t, &err);
    factor_stats st;
    factor_get_stats (f, &st);
    char d[112];
    snprintf (d, sizeof d, "saddle point shift %g: m + %ld = %ld negative pivots (gap %.1e)",
              s, want - m, want, gap);
    CHECK0 (d, f && gap > 1e-8 && st.negative_pivots == want);
    f = factor_free (f);
    trip_clear (&t);
  }
}

/* Nonsymmetric, with duplicate entries (summed) and a long-range coupling. */
static void build_general (trip *t, int n, int cplx)
{
  t->n = n;
  for (int i = 0; i < n; i++) {
    trip_add (t, i, i, cplx ? 4.0 + 0.5 * I : 4.0);
    if (i > 0) trip_add (t, i, i - 1, -0.7);
    if (i + 1 < n) trip_add (t, i, i + 1, cplx ? -1.3 + 0.2 * I : -1.3);
    trip_add (t, i, (7 * i + 3) % n, cplx ? 0.3 - 0.4 * I : 0.3);
    if (i % 5 == 0) trip_add (t, i, i, -0.25);              /* duplicate of the diagonal */
  }
}

static void test_general (void)
{
  trip t = {0};
  build_general (&t, 250, 0);
  factor_stats st;
  double d = solve_vs_lapack (FACTOR_REAL_GENERAL, &t, 1, &st);
  CHECK0 ("real general solve (LU) matches dense dgesv to 1e-12", d >= 0 && d < 1e-12);
  CHECK0 ("real general: LU, negative pivots unknown (-1)",
          st.symmetric == 0 && st.complex_arith == 0 && st.negative_pivots == -1);
  d = solve_vs_lapack (FACTOR_REAL_GENERAL, &t, 6, &st);
  CHECK0 ("real general, 6 right-hand sides at once, match dgesv", d >= 0 && d < 1e-12);
  trip_clear (&t);

  build_general (&t, 230, 1);
  d = solve_vs_lapack (FACTOR_COMPLEX_GENERAL, &t, 1, &st);
  CHECK0 ("complex general solve matches dense zgesv to 1e-12", d >= 0 && d < 1e-12);
  CHECK0 ("complex general: ZMUMPS, order", st.complex_arith == 1 && st.symmetric == 0
          && st.order == 230 && st.negative_pivots == -1);
  d = solve_vs_lapack (FACTOR_COMPLEX_GENERAL, &t, 4, &st);
  CHECK0 ("complex general, 4 right-hand sides at once, match zgesv", d >= 0 && d < 1e-12);
  trip_clear (&t);

  int p[4] = { 10, 50, 90, 130 };
  build_saddle (&t, 150, 4, p, -0.3);
  d = solve_vs_lapack (FACTOR_REAL_SYMMETRIC, &t, 3, &st);
  CHECK0 ("saddle point, 3 right-hand sides at once, match dgesv", d >= 0 && d < 1e-10);
  trip_clear (&t);

  /* complex symmetric (A^T = A, not Hermitian), lower triangle, with a zero block: the
     damped stage's reduced matrix [K + sigma R + sigma^2 M, c Cq^T; c Cq, 0] in miniature
     (a shifted Laplacian with complex diagonal and coupling, 4 constraint rows); against
     zgesv on the mirrored dense matrix */
  t.n = 154;
  for (int i = 0; i < 150; i++) {
    trip_add (&t, i, i, 2.0 - 0.3 * sin (0.1 * i) + I * (0.2 + 0.05 * cos (0.3 * i)));
    if (i > 0) trip_add (&t, i, i - 1, -1.0 + 0.1 * I);
  }
  for (int r = 0; r < 4; r++) {
    trip_add (&t, 150 + r, p[r], 1.0 + 0.5 * r);
    trip_add (&t, 150 + r, p[r] + 1, -1.0);
  }
  d = solve_vs_lapack (FACTOR_COMPLEX_SYMMETRIC, &t, 1, &st);
  CHECK0 ("complex symmetric solve (LDL^T) matches dense zgesv to 1e-12", d >= 0 && d < 1e-12);
  CHECK0 ("complex symmetric: ZMUMPS LDL^T, order, no inertia (-1)", st.complex_arith == 1
          && st.symmetric == 1 && st.order == 154 && st.negative_pivots == -1);
  d = solve_vs_lapack (FACTOR_COMPLEX_SYMMETRIC, &t, 5, &st);
  CHECK0 ("complex symmetric, 5 right-hand sides at once, match zgesv", d >= 0 && d < 1e-12);
  trip_clear (&t);
}

/* A matrix with an empty row and column (its diagonal given as an explicit 0): singular
   for every shift. */
static void test_singular (void)
{
  static const factor_kind kinds[] = { FACTOR_REAL_GENERAL, FACTOR_REAL_SYMMETRIC,
                                       FACTOR_COMPLEX_GENERAL };
  static const char *names[] = { "real general", "real symmetric", "complex general" };
  for (int c = 0; c < 3; c++) {
    trip t = {0};
    int n = 200, hole = 77;
    t.n = n;
    for (int i = 0; i < n; i++) {
      trip_add (&t, i, i, i == hole ? 0.0 : 2.0);
      if (i > 0 && i != hole && i - 1 != hole) {
        trip_add (&t, i, i - 1, -1.0);
        if (kinds[c] != FACTOR_REAL_SYMMETRIC) trip_add (&t, i - 1, i, -1.0);
      }
    }
    mb_err err;
    mb_err_init (&err);
    factor *f = create (kinds[c], &t, &err);
    char d[96];
    snprintf (d, sizeof d, "%s: singular matrix fails with MB_ESOLVE", names[c]);
    CHECK0 (d, !f && err.code == MB_ESOLVE);
    snprintf (d, sizeof d, "%s: message names the matrix and says singular", names[c]);
    CHECK0 (d, strstr (err.msg, "'A - sigma B'") && strstr (err.msg, "singular")
            && strstr (err.msg, "INFOG(1)="));
    if (rank == 0 && f) printf ("  (unexpected success)\n");
    if (rank == 0 && !strstr (err.msg, "singular")) printf ("  got: %s\n", err.msg);
    int same = same_everywhere (err.code);
    same &= same_message (&err);
    CHECK0 ("same code and message on every rank", same);
    f = factor_free (f);
    trip_clear (&t);
  }
}

/* ICNTL(14) = 0 leaves no slack for delayed pivots. A symmetric matrix on a g x g grid
   with (near) zero diagonal and random off-diagonal couplings has plenty, as the analysis
   cannot foresee them: INFOG(1) = -9 (or -8, -17, -20) forces refactorizations with
   ICNTL(14) 10, 20, ... */
static void test_retry (void)
{
  create_icntl14 = 0;
  trip t = {0};
  int g = 20;
  unsigned seed = 12345;
  t.n = g * g;
  for (int x = 0; x < g; x++)
    for (int y = 0; y < g; y++) {
      int i = x * g + y;
      trip_add (&t, i, i, 1e-6 * (i % 3 - 1));
      seed = seed * 1103515245u + 12345u;
      if (x > 0) trip_add (&t, i, i - g, (double) ((seed >> 16) % 100) / 50.0 - 0.99);
      seed = seed * 1103515245u + 12345u;
      if (y > 0) trip_add (&t, i, i - 1, (double) ((seed >> 16) % 100) / 50.0 - 0.99);
    }
  factor_stats st;
  double d = solve_vs_lapack (FACTOR_REAL_SYMMETRIC, &t, 2, &st);
  if (rank == 0) printf ("  retry: ICNTL(14) %d after %d retries\n", st.icntl14, st.retries);
  CHECK0 ("workspace failure was retried (retries > 0, ICNTL(14) grown)",
          st.retries > 0 && st.icntl14 >= 10);
  CHECK0 ("solve after retries matches dense dgesv", d >= 0 && d < 1e-8);
  int same = same_everywhere (st.retries);
  CHECK0 ("retries identical on every rank", same);
  create_icntl14 = 30;
  trip_clear (&t);
}

/* Input errors are caught before MUMPS, on rank 0, and reported on every rank. */
static void test_bad_input (void)
{
  int i_out[] = { 0, 5 }, j_out[] = { 0, 1 };
  int i_up[] = { 0, 1 }, j_up[] = { 0, 2 };
  double v[] = { 1.0, 2.0 }, v_nan[] = { 1.0, NAN };
  struct { const char *descr; factor_kind kind; int n; const int *i, *j; const double *v;
           const char *says; } cases[] = {
    { "row index outside n", FACTOR_REAL_GENERAL, 3, i_out, j_out, v, "outside" },
    { "upper-triangle entry for LDL^T", FACTOR_REAL_SYMMETRIC, 3, i_up, j_up, v, "above" },
    { "NaN entry", FACTOR_REAL_GENERAL, 3, i_up, j_up, v_nan, "not finite" },
    { "order 0", FACTOR_REAL_GENERAL, 0, i_up, j_up, v, "order" },
    { "missing arrays", FACTOR_REAL_GENERAL, 3, NULL, j_up, v, "no entries" },
  };
  for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
    mb_err err;
    mb_err_init (&err);
    factor *f = factor_create (MPI_COMM_WORLD, cases[c].kind, cases[c].n, rank == 0 ? 2 : 0,
                               rank == 0 ? cases[c].i : NULL, rank == 0 ? cases[c].j : NULL,
                               rank == 0 ? cases[c].v : NULL, "A - sigma B", &err);
    CHECK0 (cases[c].descr, !f && err.code == MB_ESOLVE && strstr (err.msg, cases[c].says)
            && strstr (err.msg, "'A - sigma B'"));
    int same = same_everywhere (err.code);
    same &= same_message (&err);
    CHECK0 ("bad input: same code and message on every rank", same);
    f = factor_free (f);
  }

  /* a right-hand side missing on rank 0 */
  trip t = {0};
  t.n = 20;
  add_shifted_laplacian (&t, 20, 0.0);
  mb_err err;
  mb_err_init (&err);
  factor *f = create (FACTOR_REAL_SYMMETRIC, &t, &err);
  int rc = factor_solve (f, NULL, &err);
  CHECK0 ("solve without a right-hand side: MB_ESOLVE", f && rc == MB_ESOLVE
          && err.code == MB_ESOLVE);
  int same = same_everywhere (rc);
  CHECK0 ("solve without a right-hand side: same on every rank", same);
  double b0[20];
  for (int i = 0; i < 20; i++) b0[i] = 1;
  mb_err_init (&err);
  rc = factor_solve_many (f, rank == 0 ? b0 : NULL, 0, &err);
  same = same_everywhere (rc);
  CHECK0 ("nrhs = 0: MB_ESOLVE on every rank", rc == MB_ESOLVE && same);
  f = factor_free (f);
  trip_clear (&t);

  CHECK0 ("factor_free (NULL) is a no-op returning NULL", factor_free (NULL) == NULL);
  mb_err_init (&err);
  CHECK0 ("factor_solve (NULL) fails", factor_solve (NULL, b0, &err) == MB_ESOLVE);
  factor_stats st;
  factor_get_stats (NULL, &st);
  CHECK0 ("stats of NULL: zero, negative pivots -1", st.order == 0 && st.negative_pivots == -1);
}


/* ---- refactorization on the same analysis ------------------------------------------ */

/* Solves A x = b(rhs column 0) with f on rank 0; returns x as complex (caller frees) on rank
   0, NULL elsewhere; *rc the solve's status. */
static double complex *solve_with (factor *f, int n, int cplx, int *rc)
{
  void *b = NULL;
  if (rank == 0) {
    b = malloc ((size_t) n * (cplx ? sizeof (double complex) : sizeof (double)));
    if (!b) abort ();
    for (int i = 0; i < n; i++) {
      double complex v = rhs_value (i, 0, cplx);
      if (cplx) ((double complex *) b)[i] = v;
      else ((double *) b)[i] = creal (v);
    }
  }
  mb_err err;
  mb_err_init (&err);
  *rc = factor_solve (f, b, &err);
  if (*rc < 0 && rank == 0) printf ("  solve: %s\n", err.msg);
  double complex *x = NULL;
  if (rank == 0 && *rc == 0) {
    x = malloc ((size_t) n * sizeof *x);
    if (!x) abort ();
    for (int i = 0; i < n; i++) x[i] = cplx ? ((double complex *) b)[i] : ((double *) b)[i];
  }
  free (b);
  return x;
}

/* Refactors f with t's values (rank 0 hands them on). */
static int refactor_with (factor *f, factor_kind kind, const trip *t, mb_err *err)
{
  double *ar = NULL;
  const void *a = NULL;
  if (rank == 0) {
    if (kind == FACTOR_COMPLEX_GENERAL) a = t->v;
    else a = ar = real_values (t);
  }
  int rc = factor_refactor (f, a, err);
  free (ar);
  return rc;
}

/* t2 = t1's pattern (same triplets, same order) with values v (1 + 0.2 sin k) (+ 0.1 i cos k
   for complex): another matrix of the same pattern. */
static void same_pattern (const trip *t1, trip *t2, int cplx)
{
  t2->n = t1->n;
  for (long k = 0; k < t1->nnz; k++)
    trip_add (t2, t1->i[k], t1->j[k],
              t1->v[k] * (1.0 + 0.2 * sin ((double) k) + (cplx ? 0.1 * I * cos ((double) k) : 0)));
}

static void test_refactor (void)
{
  static const factor_kind kinds[] = { FACTOR_REAL_SYMMETRIC, FACTOR_REAL_GENERAL,
                                       FACTOR_COMPLEX_GENERAL };
  static const char *names[] = { "real symmetric", "real general", "complex general" };
  for (int c = 0; c < 3; c++) {
    factor_kind kind = kinds[c];
    int cplx = kind == FACTOR_COMPLEX_GENERAL, sym = kind == FACTOR_REAL_SYMMETRIC;
    trip t1 = {0}, t2 = {0};
    if (sym) {                     /* saddle point, K SPD: shift -0.5, then other values */
      int p[6] = { 5, 40, 41, 90, 150, 199 };
      build_saddle (&t1, 200, 6, p, -0.5);
    } else build_general (&t1, 220, cplx);
    same_pattern (&t1, &t2, cplx);
    int n = t1.n;
    mb_err err;
    mb_err_init (&err);
    factor *f = create (kind, &t1, &err);
    factor_phases ph0, ph1, ph2;
    factor_get_phases (f, &ph0);
    int rc1 = refactor_with (f, kind, &t2, &err), rc2;
    factor_get_phases (f, &ph1);
    double complex *x = solve_with (f, n, cplx, &rc2);
    factor *g = create (kind, &t2, &err);                 /* fresh, for comparison */
    int rc3;
    double complex *y = solve_with (g, n, cplx, &rc3);
    char d[128];
    snprintf (d, sizeof d, "%s: create, refactor and solve succeed on every rank", names[c]);
    int ok = same_everywhere (rc1) && same_everywhere (rc2);
    CHECK0 (d, f && g && rc1 == 0 && rc2 == 0 && rc3 == 0 && ok);
    if (rank == 0 && x && y) {
      double complex *ref = dense_solve (&t2, sym, cplx, 1);  /* LAPACK dgesv / zgesv */
      snprintf (d, sizeof d, "%s: refactored solve matches dense LAPACK to 1e-12", names[c]);
      CHECK (d, rel_diff (x, ref, (size_t) n) < 1e-12);
      snprintf (d, sizeof d, "%s: refactored solve matches a fresh factor_create to 1e-12",
                names[c]);
      CHECK (d, rel_diff (x, y, (size_t) n) < 1e-12);
      free (ref);
    }
    snprintf (d, sizeof d, "%s: refactor reuses the analysis (1 analysis, its time unchanged)",
              names[c]);
    CHECK0 (d, ph1.analyses == 1 && ph1.time_analysis == ph0.time_analysis
            && ph1.refactorizations == 1 && ph1.factorizations == ph0.factorizations + 1
            && ph1.time_factor >= ph0.time_factor && ph1.time_factor_last >= 0);
    /* back to the first values: the first solution again */
    int rc4 = refactor_with (f, kind, &t1, &err), rc5;
    double complex *x1 = solve_with (f, n, cplx, &rc5);
    factor_get_phases (f, &ph2);
    if (rank == 0 && x1) {
      double complex *ref = dense_solve (&t1, sym, cplx, 1);
      snprintf (d, sizeof d, "%s: second refactor (first values) matches LAPACK", names[c]);
      CHECK (d, rc4 == 0 && rel_diff (x1, ref, (size_t) n) < 1e-12);
      free (ref);
    }
    snprintf (d, sizeof d, "%s: phases count 2 refactorizations and 2 solves", names[c]);
    CHECK0 (d, ph2.refactorizations == 2 && ph2.analyses == 1 && ph2.solves == 2
            && ph2.solved_rhs == 2 && ph2.time_analysis == ph0.time_analysis
            && ph2.null_detection == 0 && ph2.null_pivots == -1);
    int same = same_everywhere (ph2.refactorizations) & same_everywhere (ph2.factorizations)
               & same_everywhere ((long) (1e9 * ph2.time_factor));
    CHECK0 ("phases identical on every rank", same);
    free (x); free (y); free (x1);
    f = factor_free (f);
    g = factor_free (g);
    trip_clear (&t1);
    trip_clear (&t2);
  }
}

/* Refactor's failures: bad values leave the factors usable; a singular refactor loses them
   until a good refactor; the workspace retry works on refactor. */
static void test_refactor_failures (void)
{
  trip t = {0}, bad = {0}, sing = {0};
  int n = 60;
  t.n = n;
  add_shifted_laplacian (&t, n, -0.5);          /* SPD */
  same_pattern (&t, &bad, 0);
  bad.v[7] = NAN;
  /* the same pattern with row and column `hole` exactly zero: singular (entries: (0,0), then
     (i,i) at 2i - 1 and (i,i-1) at 2i) */
  int hole = 23;
  same_pattern (&t, &sing, 0);
  sing.v[2 * hole - 1] = sing.v[2 * hole] = sing.v[2 * (hole + 1)] = 0.0;
  mb_err err;
  mb_err_init (&err);
  factor *f = create (FACTOR_REAL_SYMMETRIC, &t, &err);
  mb_err_init (&err);
  int rc = refactor_with (f, FACTOR_REAL_SYMMETRIC, &bad, &err);
  int same = same_everywhere (rc) && same_message (&err);
  CHECK0 ("refactor with a NaN value: MB_ESOLVE naming the entry, on every rank",
          rc == MB_ESOLVE && strstr (err.msg, "not finite") && strstr (err.msg, "(") && same);
  int rs;
  double complex *x = solve_with (f, n, 0, &rs);
  if (rank == 0 && x) {
    double complex *ref = dense_solve (&t, 1, 0, 1);
    CHECK ("after a refused refactor the old factors still solve", rs == 0
           && rel_diff (x, ref, (size_t) n) < 1e-12);
    free (ref);
  }
  free (x);
  mb_err_init (&err);
  rc = refactor_with (f, FACTOR_REAL_SYMMETRIC, &sing, &err);
  same = same_everywhere (rc);
  if (rank == 0 && rc == 0) printf ("  (singular refactor succeeded?)\n");
  CHECK0 ("refactor to a singular matrix: MB_ESOLVE 'singular' on every rank",
          rc == MB_ESOLVE && strstr (err.msg, "singular") && same);
  mb_err_init (&err);
  x = solve_with (f, n, 0, &rs);
  same = same_everywhere (rs);
  CHECK0 ("solve after the failed refactor fails on every rank", rs == MB_ESOLVE && same);
  free (x);
  mb_err_init (&err);
  rc = refactor_with (f, FACTOR_REAL_SYMMETRIC, &t, &err);
  x = solve_with (f, n, 0, &rs);
  if (rank == 0 && x) {
    double complex *ref = dense_solve (&t, 1, 0, 1);
    CHECK ("a good refactor after the failure solves again", rc == 0 && rs == 0
           && rel_diff (x, ref, (size_t) n) < 1e-12);
    free (ref);
  } else CHECK0 ("a good refactor after the failure solves again", 0);
  free (x);
  mb_err_init (&err);
  CHECK0 ("refactor (NULL) fails", factor_refactor (NULL, NULL, &err) == MB_ESOLVE);
  f = factor_free (f);
  trip_clear (&t);
  trip_clear (&bad);
  trip_clear (&sing);

  /* workspace retry on refactor: created diagonally dominant (no delayed pivots) with no
     slack, refactored with a near-zero diagonal (many delayed pivots) */
  create_icntl14 = 0;
  trip g = {0}, h = {0};
  int w = 20;
  unsigned seed = 777;
  g.n = h.n = w * w;
  for (int a = 0; a < w; a++)
    for (int b = 0; b < w; b++) {
      int i = a * w + b;
      trip_add (&g, i, i, 10.0);
      trip_add (&h, i, i, 1e-6 * (i % 3 - 1));
      seed = seed * 1103515245u + 12345u;
      double v1 = (double) ((seed >> 16) % 100) / 50.0 - 0.99;
      seed = seed * 1103515245u + 12345u;
      double v2 = (double) ((seed >> 16) % 100) / 50.0 - 0.99;
      if (a > 0) { trip_add (&g, i, i - w, v1); trip_add (&h, i, i - w, v1); }
      if (b > 0) { trip_add (&g, i, i - 1, v2); trip_add (&h, i, i - 1, v2); }
    }
  mb_err_init (&err);
  f = create (FACTOR_REAL_SYMMETRIC, &g, &err);
  factor_phases p0, p1;
  factor_get_phases (f, &p0);
  rc = refactor_with (f, FACTOR_REAL_SYMMETRIC, &h, &err);
  factor_get_phases (f, &p1);
  x = solve_with (f, g.n, 0, &rs);
  if (rank == 0) printf ("  refactor retry: %d retries at creation, %d after refactor\n",
                         p0.retries, p1.retries);
  CHECK0 ("refactor with more delayed pivots retried the workspace", f && rc == 0
          && p1.retries > p0.retries && p1.analyses == 1);
  if (rank == 0 && x) {
    double complex *ref = dense_solve (&h, 1, 0, 1);
    CHECK ("solve after the refactor's retries matches dgesv", rs == 0
           && rel_diff (x, ref, (size_t) g.n) < 1e-8);
    free (ref);
  } else CHECK0 ("solve after the refactor's retries matches dgesv", 0);
  free (x);
  create_icntl14 = 30;
  f = factor_free (f);
  trip_clear (&g);
  trip_clear (&h);
}

/* Collective. The real general matrix t (rank 0's triplets, values ar) factored with the
   options o, then solve_with's right-hand side solved: *x (caller frees) and *rs its status.
   Returns the factors (caller frees; NULL when factoring failed). */
static factor *create_and_solve (const trip *t, const double *ar, const factor_opts *o,
                                 double complex **x, int *rs)
{
  int rank;
  MPI_Comm_rank (MPI_COMM_WORLD, &rank);
  mb_err err;
  mb_err_init (&err);
  factor *f = factor_create_opts (MPI_COMM_WORLD, FACTOR_REAL_GENERAL, t->n,
                                  rank == 0 ? t->nnz : 0, rank == 0 ? t->i : NULL,
                                  rank == 0 ? t->j : NULL, ar, "A", o, &err);
  *x = solve_with (f, t->n, 0, rs);
  return f;
}

/* factor_opts: orderings give the same solution; ICNTL(14) as asked; bad options refused. */
static void test_options (void)
{
  trip t = {0};
  build_general (&t, 150, 0);
  double *ar = rank == 0 ? real_values (&t) : NULL;
  double complex *ref = rank == 0 ? dense_solve (&t, 0, 0, 1) : NULL;
  static const int orderings[] = { 0, 2, 4, 6, 7 };
  for (size_t c = 0; c < sizeof orderings / sizeof *orderings; c++) {
    factor_opts o;
    factor_opts_default (&o);
    o.ordering = orderings[c];
    o.icntl14 = 45;
    int rs;
    double complex *x;
    factor *f = create_and_solve (&t, ar, &o, &x, &rs);
    factor_stats st;
    factor_get_stats (f, &st);
    char d[96];
    snprintf (d, sizeof d, "ordering ICNTL(7) = %d, ICNTL(14) = 45: solve matches dgesv",
              orderings[c]);
    factor_phases ph;
    factor_get_phases (f, &ph);
    CHECK0 (d, f && rs == 0 && st.icntl14 == 45 && x && rel_diff (x, ref, (size_t) t.n) < 1e-12);
    if (orderings[c] != 7 && orderings[c] != 6)   /* QAMD may be reported as AMD */
      CHECK0 ("INFOG(7) reports the ordering asked for", ph.ordering == orderings[c]);
    free (x);
    f = factor_free (f);
  }
  /* block low-rank factors (ICNTL(35) = 2) at a dropping tolerance of 1e-12: the solve
     still matches dgesv to 1e-8 (the error scales with the tolerance times the condition) */
  {
    factor_opts o;
    factor_opts_default (&o);
    o.low_rank = 1e-12;
    int rs;
    double complex *x;
    factor *f = create_and_solve (&t, ar, &o, &x, &rs);
    CHECK0 ("low-rank factors (CNTL(7) = 1e-12): solve matches dgesv to 1e-8",
            f && rs == 0 && x && rel_diff (x, ref, (size_t) t.n) < 1e-8);
    free (x);
    f = factor_free (f);
  }
  /* the pivot threshold CNTL(1): 0.1 and 0.5 (QAMD) solve as dgesv; outside [0, 1] refused */
  static const double thresholds[] = { 0.1, 0.5, 1.5, NAN };
  for (size_t c = 0; c < sizeof thresholds / sizeof *thresholds; c++) {
    factor_opts o;
    factor_opts_default (&o);
    o.ordering = 6;
    o.pivot_threshold = thresholds[c];
    mb_err err;
    mb_err_init (&err);
    factor *f = factor_create_opts (MPI_COMM_WORLD, FACTOR_REAL_GENERAL, t.n,
                                    rank == 0 ? t.nnz : 0, rank == 0 ? t.i : NULL,
                                    rank == 0 ? t.j : NULL, ar, "A", &o, &err);
    char d[128];
    if (c < 2) {
      int rs;
      double complex *x = solve_with (f, t.n, 0, &rs);
      snprintf (d, sizeof d, "pivot threshold CNTL(1) = %g, QAMD: solve matches dgesv",
                thresholds[c]);
      CHECK0 (d, f && rs == 0 && x && rel_diff (x, ref, (size_t) t.n) < 1e-12);
      free (x);
    } else {
      int same = same_everywhere (err.code) && same_message (&err);
      snprintf (d, sizeof d, "pivot threshold %g refused with MB_ESOLVE on every rank",
                thresholds[c]);
      CHECK0 (d, !f && err.code == MB_ESOLVE && strstr (err.msg, "CNTL(1)") && same);
    }
    f = factor_free (f);
  }
  factor_opts o;
  factor_opts_default (&o);
  CHECK0 ("defaults: ICNTL(14) 30, environment verbosity, automatic ordering, MUMPS's pivot "
          "threshold, exact factors, no detection", o.icntl14 == 30 && o.verbosity == -1
          && o.ordering == 7 && o.pivot_threshold < 0 && o.low_rank == 0.0
          && o.null_pivots == 0);
  struct { int icntl14, ordering; double thr, low_rank; const char *says; } bad[] = {
    { -2, 7, 0, 0, "ICNTL(14)" }, { 30, 1, 0, 0, "ICNTL(7)" }, { 30, 9, 0, 0, "ICNTL(7)" },
    { 30, 7, NAN, 0, "finite" }, { 30, 7, 0, 1.5, "low-rank" }, { 30, 7, 0, NAN, "low-rank" },
  };
  for (size_t c = 0; c < sizeof bad / sizeof *bad; c++) {
    factor_opts_default (&o);
    o.icntl14 = bad[c].icntl14;
    o.ordering = bad[c].ordering;
    o.null_threshold = bad[c].thr;
    o.low_rank = bad[c].low_rank;
    mb_err err;
    mb_err_init (&err);
    factor *f = factor_create_opts (MPI_COMM_WORLD, FACTOR_REAL_GENERAL, t.n,
                                    rank == 0 ? t.nnz : 0, rank == 0 ? t.i : NULL,
                                    rank == 0 ? t.j : NULL, ar, "A", &o, &err);
    int same = same_everywhere (err.code) && same_message (&err);
    CHECK0 ("bad option refused with MB_ESOLVE on every rank", !f && err.code == MB_ESOLVE
            && strstr (err.msg, bad[c].says) && same);
    f = factor_free (f);
  }
  free (ar);
  free (ref);
  trip_clear (&t);
}

/* ---- null pivots ---------------------------------------------------------------------- */

/* Free-free spring chains: chain c has nodes off_c .. off_c + len_c - 1 and springs
   k = 1 + 0.5 sin(node) between neighbours. Its stiffness is singular with the constant
   vector on each chain as null space: one null pivot per chain (closed form). Lower
   triangle for sym, both triangles otherwise; values times z (complex kind). */
static void build_chains (trip *t, int nchains, const int *len, int sym, double complex z)
{
  int off = 0;
  for (int c = 0; c < nchains; c++) {
    for (int i = off; i < off + len[c] - 1; i++) {
      double k = 1.0 + 0.5 * sin ((double) i);
      trip_add (t, i, i, k * z);
      trip_add (t, i + 1, i + 1, k * z);
      trip_add (t, i + 1, i, -k * z);
      if (!sym) trip_add (t, i, i + 1, -k * z);
    }
    off += len[c];
  }
  t->n = off;
}

/* Creates t's factor with null-pivot detection at seed 000's threshold and fixation pf. */
static factor *create_detect (factor_kind kind, const trip *t, double pf, mb_err *err)
{
  factor_opts o;
  factor_opts_default (&o);
  o.null_pivots = 1;
  o.null_threshold = factor_null_threshold (t->n);
  o.null_fixation = pf;
  double *ar = NULL;
  const void *a = NULL;
  if (rank == 0) {
    if (kind == FACTOR_COMPLEX_GENERAL) a = t->v;
    else a = ar = real_values (t);
  }
  factor *f = factor_create_opts (MPI_COMM_WORLD, kind, t->n, rank == 0 ? t->nnz : 0,
                                  rank == 0 ? t->i : NULL, rank == 0 ? t->j : NULL, a,
                                  "K", &o, err);
  free (ar);
  return f;
}

/* Solves K x = b for the consistent b = K x0 (x0 smooth, not in the null space) with f;
   returns ||K x - b||_inf / ||b||_inf on rank 0 (0 elsewhere), or -1 on failure. */
static double consistent_residual (factor *f, const trip *t, int sym, int cplx)
{
  int n = t->n;
  double complex *K = rank == 0 ? dense (t, sym) : NULL;
  void *b = NULL;
  double complex *bc = NULL;
  if (rank == 0) {
    bc = calloc ((size_t) n, sizeof *bc);
    b = malloc ((size_t) n * (cplx ? sizeof (double complex) : sizeof (double)));
    if (!bc || !b) abort ();
    for (int j = 0; j < n; j++)
      for (int i = 0; i < n; i++) bc[i] += K[(size_t) j * n + i] * rhs_value (j, 0, cplx);
    for (int i = 0; i < n; i++) {
      if (cplx) ((double complex *) b)[i] = bc[i];
      else ((double *) b)[i] = creal (bc[i]);
    }
  }
  mb_err err;
  mb_err_init (&err);
  int rc = factor_solve (f, b, &err);
  double r = 0;
  if (rc < 0) r = -1;
  else if (rank == 0) {
    double num = 0, den = 0;
    for (int i = 0; i < n; i++) {
      double complex y = 0;
      for (int j = 0; j < n; j++)
        y += K[(size_t) j * n + i] * (cplx ? ((double complex *) b)[j] : ((double *) b)[j]);
      num = fmax (num, cabs (y - bc[i]));
      den = fmax (den, cabs (bc[i]));
    }
    r = num / den;
  }
  free (K);
  free (b);
  free (bc);
  return r;
}

/* 1 when the int list (count, rows) is the same on every rank. */
static int same_list (int count, const int *rows)
{
  long h = count;
  for (int k = 0; k < count; k++) h = h * 1000003L + rows[k];
  return same_everywhere (h);
}

static void test_null_pivots (void)
{
  static const factor_kind kinds[] = { FACTOR_REAL_SYMMETRIC, FACTOR_REAL_GENERAL,
                                       FACTOR_COMPLEX_GENERAL };
  static const char *names[] = { "real symmetric", "real general", "complex general" };
  static const double fixations[] = { 1.0, 0.0 };   /* a grounded spring ||A||; MUMPS's own */
  for (int c = 0; c < 3; c++)
    for (int chains = 1; chains <= 2; chains++)
      for (int fx = 0; fx < 2; fx++) {
        factor_kind kind = kinds[c];
        int sym = kind == FACTOR_REAL_SYMMETRIC, cplx = kind == FACTOR_COMPLEX_GENERAL;
        int len[2] = { 40, 27 };
        trip t = {0};
        build_chains (&t, chains, len, sym, cplx ? 1.0 + 0.1 * I : 1.0);
        mb_err err;
        mb_err_init (&err);
        factor *f = create_detect (kind, &t, fixations[fx], &err);
        int count = -2, *rows = NULL;
        int rc = f ? factor_null_pivots (f, &count, &rows) : -1;
        char d[160];
        snprintf (d, sizeof d, "%s, %d free-free chain(s), fixation %g: factored, %d null "
                  "pivot(s) (one per chain)", names[c], chains, fixations[fx], chains);
        CHECK0 (d, f && rc == 0 && count == chains);
        if (!f && rank == 0) printf ("  %s\n", err.msg);
        int inside = count == chains && rows;
        for (int k = 0; inside && k < count; k++) inside = rows[k] >= 0 && rows[k] < t.n;
        if (inside && chains == 2)            /* one in each chain */
          inside = (rows[0] < len[0]) != (rows[1] < len[0]);
        snprintf (d, sizeof d, "%s, %d chain(s): null pivot rows inside, one per chain, same "
                  "on every rank", names[c], chains);
        int same = same_list (count, rows);
        CHECK0 (d, inside && same);
        double r = f ? consistent_residual (f, &t, sym, cplx) : -1;
        snprintf (d, sizeof d, "%s, %d chain(s), fixation %g: consistent K x = b solved "
                  "(residual %.1e)", names[c], chains, fixations[fx], r);
        CHECK0 (d, r >= 0 && r < 1e-10);
        factor_phases ph;
        factor_get_phases (f, &ph);
        CHECK0 ("phases: detection on, null pivots = INFOG(28)", ph.null_detection == 1
                && ph.null_pivots == chains);
        free (rows);
        f = factor_free (f);
        trip_clear (&t);
      }

  /* detection on, regular matrix: none; refactor to a singular one: counted again */
  trip t = {0}, s = {0};
  int len[1] = { 30 };
  build_chains (&s, 1, len, 1, 1.0);
  same_pattern (&s, &t, 0);
  for (long k = 0; k < t.nnz; k++)
    if (t.i[k] == t.j[k] && t.i[k] == 0) t.v[k] += 1.0;   /* ground node 0: regular */
  mb_err err;
  mb_err_init (&err);
  factor *f = create_detect (FACTOR_REAL_SYMMETRIC, &t, 1.0, &err);
  int count = -2, *rows = NULL;
  factor_null_pivots (f, &count, &rows);
  CHECK0 ("grounded chain with detection on: 0 null pivots, no list", f && count == 0
          && rows == NULL);
  int rc = refactor_with (f, FACTOR_REAL_SYMMETRIC, &s, &err);
  factor_null_pivots (f, &count, &rows);
  int same = same_list (count, rows);
  CHECK0 ("refactor to the free chain: 1 null pivot, same on every rank", rc == 0
          && count == 1 && rows && same);
  free (rows);
  f = factor_free (f);

  /* without detection: -1 and no list */
  f = create (FACTOR_REAL_SYMMETRIC, &t, &err);
  count = -2;
  rows = (int *) &count;
  factor_null_pivots (f, &count, &rows);
  CHECK0 ("without detection: count -1, rows NULL", f && count == -1 && rows == NULL);
  f = factor_free (f);
  trip_clear (&t);
  trip_clear (&s);
}

/* factor_deficiency: the number of null pivots of a matrix that failed (or not). */
static void test_deficiency (void)
{
  static const factor_kind kinds[] = { FACTOR_REAL_SYMMETRIC, FACTOR_REAL_GENERAL,
                                       FACTOR_COMPLEX_GENERAL };
  static const char *names[] = { "real symmetric", "real general", "complex general" };
  for (int c = 0; c < 3; c++) {
    factor_kind kind = kinds[c];
    int sym = kind == FACTOR_REAL_SYMMETRIC, cplx = kind == FACTOR_COMPLEX_GENERAL;
    /* cases: a zero row and column given as an explicit 0 (test_singular's matrix), the
       same row and column with no entry at all, two free chains, a regular matrix */
    for (int kase = 0; kase < 4; kase++) {
      trip t = {0};
      int n = 120, hole = 77, want = kase == 2 ? 2 : kase == 3 ? 0 : 1;
      if (kase == 2) {
        int len[2] = { 50, 70 };
        build_chains (&t, 2, len, sym, cplx ? 0.5 - 0.2 * I : 1.0);
      } else {
        t.n = n;
        for (int i = 0; i < n; i++) {
          if (i != hole || kase == 0) trip_add (&t, i, i, i == hole && kase != 3 ? 0.0 : 2.0);
          if (i > 0 && ((i != hole && i - 1 != hole) || kase == 3)) {
            trip_add (&t, i, i - 1, -1.0);
            if (!sym) trip_add (&t, i - 1, i, -1.0);
          }
        }
      }
      double *ar = rank == 0 && !cplx ? real_values (&t) : NULL;
      const void *a = rank == 0 ? (cplx ? (const void *) t.v : (const void *) ar) : NULL;
      int count = -2, *rows = NULL;
      mb_err err;
      mb_err_init (&err);
      int rc = factor_deficiency (MPI_COMM_WORLD, kind, t.n, rank == 0 ? t.nnz : 0,
                                  rank == 0 ? t.i : NULL, rank == 0 ? t.j : NULL, a, "A - sigma B",
                                  &count, &rows, &err);
      static const char *what[] = { "explicit zero row", "empty row", "two free chains",
                                    "regular" };
      char d[128];
      snprintf (d, sizeof d, "%s, %s: deficiency %d", names[c], what[kase], want);
      CHECK0 (d, rc == 0 && count == want);
      if (rank == 0 && count != want) printf ("  got %d (%s)\n", count, err.msg);
      int same = same_list (count, rows);
      snprintf (d, sizeof d, "%s, %s: rows named (the hole), same on every rank", names[c],
                what[kase]);
      CHECK0 (d, same && (kase >= 2 || (count == 1 && rows && rows[0] == hole))
              && (kase != 3 || rows == NULL));
      free (rows);
      free (ar);
      trip_clear (&t);
    }
  }
}

/* Fault site "factor" on rank 0 (where the matrix is copied): every rank fails alike. */
static void test_fault (void)
{
  trip t = {0};
  t.n = 30;
  add_shifted_laplacian (&t, 30, -0.1);
  static const char *specs[] = { "0:factor", "*:factor" };
  for (int c = 0; c < 2; c++) {
    mb_fault_set (specs[c]);
    mb_err err;
    mb_err_init (&err);
    double t0 = MPI_Wtime ();
    factor *f = create (FACTOR_REAL_SYMMETRIC, &t, &err);
    double dt = MPI_Wtime () - t0;
    mb_fault_set (NULL);
    int same = same_everywhere (err.code) && same_message (&err);
    char d[96];
    snprintf (d, sizeof d, "fault %s: MB_ENOMEM on every rank, promptly", specs[c]);
    CHECK0 (d, !f && err.code == MB_ENOMEM && same && dt < 5.0);
    f = factor_free (f);
  }
  trip_clear (&t);
}

/* ---- right-hand sides and solutions distributed by rows -------------------------------- */

/* Layout `which` of n rows over the ranks into *row0, *nloc: 0 the block layout of
   ks_dist_init (n r / P); 1 uneven, rank r weighted r + 1; 2 one rank empty (rank 0 on 2
   ranks, rank 1 on more), the others block-wise over the n rows. On 1 rank: all rows. */
static void layout (int which, int n, int *row0, int *nloc)
{
  long P = nranks, r = rank;
  if (which == 0 || P == 1) {
    *row0 = (int) (n * r / P);
    *nloc = (int) (n * (r + 1) / P) - *row0;
  } else if (which == 1) {                 /* cumulative weights 1 + 2 + .. + r over total */
    long tot = P * (P + 1) / 2, lo = r * (r + 1) / 2, hi = lo + r + 1;
    *row0 = (int) (n * lo / tot);
    *nloc = (int) (n * hi / tot) - *row0;
  } else {
    long e = P == 2 ? 0 : 1, k = r < e ? r : r == e ? e : r - 1;   /* k: block index */
    *row0 = (int) (n * k / (P - 1));
    *nloc = r == e ? 0 : (int) (n * (k + 1) / (P - 1)) - *row0;
  }
}

/* B's rows row0 .. row0 + nloc - 1 of rhs_value, columns nrhs, leading dimension ldb (the
   rows past nloc filled with 777 to catch writes there); caller frees. */
static void *rows_rhs (int row0, int nloc, int ldb, int nrhs, int cplx)
{
  size_t len = (size_t) ldb * nrhs;
  void *B = malloc (len * (cplx ? sizeof (double complex) : sizeof (double)));
  if (!B) abort ();
  for (int j = 0; j < nrhs; j++)
    for (int i = 0; i < ldb; i++) {
      double complex v = i < nloc ? rhs_value (row0 + i, j, cplx) : 777.0;
      if (cplx) ((double complex *) B)[(size_t) j * ldb + i] = v;
      else ((double *) B)[(size_t) j * ldb + i] = creal (v);
    }
  return B;
}

/* Over every rank: max |B_ij - X(row0 + i, j)| / max |X| for this rank's rows of B against
   the full n x nrhs X known everywhere; *bits (may be NULL) = 1 when every entry is equal
   bit for bit; *pad = 1 when the rows past nloc still hold 777. Collective. */
static double rows_diff (const void *B, int row0, int nloc, int ldb, int nrhs, int cplx,
                         const double complex *X, int n, int *bits, int *pad)
{
  double d = 0, s = 0;
  int same = 1, kept = 1;
  for (int j = 0; j < nrhs; j++) {
    for (int i = 0; i < n; i++) s = fmax (s, cabs (X[(size_t) j * n + i]));
    for (int i = 0; i < ldb; i++) {
      double complex b = cplx ? ((const double complex *) B)[(size_t) j * ldb + i]
                              : ((const double *) B)[(size_t) j * ldb + i];
      if (i >= nloc) {
        kept &= b == 777.0;
        continue;
      }
      double complex x = X[(size_t) j * n + row0 + i];
      d = fmax (d, cabs (b - x));
      same &= cplx ? b == x : creal (b) == creal (x);
    }
  }
  MPI_Allreduce (MPI_IN_PLACE, &d, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce (MPI_IN_PLACE, &same, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce (MPI_IN_PLACE, &kept, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (bits) *bits = same;
  if (pad) *pad = kept;
  return d / (s > 0 ? s : 1);
}

/* factor_solve_many of rhs_value's n x nrhs on rank 0, the result broadcast as complex to
   every rank (caller frees); *rc its status. */
static double complex *many_everywhere (factor *f, int n, int nrhs, int cplx, int *rc)
{
  void *b = rank == 0 ? rows_rhs (0, n, n, nrhs, cplx) : NULL;
  mb_err err;
  mb_err_init (&err);
  *rc = factor_solve_many (f, b, nrhs, &err);
  double complex *X = malloc ((size_t) n * nrhs * sizeof *X);
  if (!X) abort ();
  if (rank == 0)
    for (size_t k = 0; k < (size_t) n * nrhs; k++)
      X[k] = cplx ? ((double complex *) b)[k] : ((double *) b)[k];
  MPI_Bcast (X, 2 * n * nrhs, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  free (b);
  return X;
}

/* Against dense LAPACK (dgesv / zgesv of the dense matrix, computed on every rank) and
   against factor_solve_many on the same factor, for the four kinds, nrhs 1 and 5, ldb >
   nloc, three layouts (block, uneven, one rank empty); factor_solve_many unchanged before
   and after; after factor_refactor the rows solve gives the new matrix's solution. */
static void test_solve_rows (void)
{
  static const factor_kind kinds[] = { FACTOR_REAL_SYMMETRIC, FACTOR_REAL_GENERAL,
                                       FACTOR_COMPLEX_GENERAL, FACTOR_COMPLEX_SYMMETRIC };
  static const char *names[] = { "real symmetric", "real general", "complex general",
                                 "complex symmetric" };
  int all_bits = 1;
  for (int c = 0; c < 4; c++) {
    factor_kind kind = kinds[c];
    int cplx = c >= 2, sym = c == 0 || c == 3;
    trip t1 = {0}, t2 = {0};
    if (c == 0) {                          /* saddle point, K SPD */
      int p[6] = { 5, 40, 41, 90, 150, 199 };
      build_saddle (&t1, 200, 6, p, -0.5);
    } else if (c == 3) {                   /* complex symmetric with a zero block */
      t1.n = 174;
      for (int i = 0; i < 170; i++) {
        trip_add (&t1, i, i, 2.0 - 0.3 * sin (0.1 * i) + I * (0.2 + 0.05 * cos (0.3 * i)));
        if (i > 0) trip_add (&t1, i, i - 1, -1.0 + 0.1 * I);
      }
      for (int r = 0; r < 4; r++) {
        trip_add (&t1, 170 + r, 10 + 40 * r, 1.0 + 0.5 * r);
        trip_add (&t1, 170 + r, 11 + 40 * r, -1.0);
      }
    } else build_general (&t1, 220 + c, cplx);
    same_pattern (&t1, &t2, cplx);
    int n = t1.n;
    double complex *ref1 = dense_solve (&t1, sym, cplx, 5);   /* LAPACK, every rank */
    double complex *ref2 = dense_solve (&t2, sym, cplx, 5);
    mb_err err;
    mb_err_init (&err);
    factor *f = create (kind, &t1, &err);
    int rcm0, rcm1, rc, ok = f != NULL, bits_all = 1;
    double dl = 0, dm = 0;
    double complex *M0 = many_everywhere (f, n, 5, cplx, &rcm0);
    for (int which = 0; which < 3; which++)
      for (int nrhs = 1; nrhs <= 5; nrhs += 4) {
        int row0, nloc, bits, pad;
        layout (which, n, &row0, &nloc);
        int ldb = nloc + 3;
        void *B = rows_rhs (row0, nloc, ldb, nrhs, cplx);
        rc = factor_solve_rows (f, row0, nloc, B, ldb, nrhs, &err);
        int same = same_everywhere (rc);
        ok &= rc == 0 && same;
        if (rc < 0 && rank == 0) printf ("  rows solve: %s\n", err.msg);
        /* the references hold 5 columns; the first nrhs are compared */
        double complex *R = malloc ((size_t) n * nrhs * sizeof *R);
        double complex *Mm = malloc ((size_t) n * nrhs * sizeof *Mm);
        if (!R || !Mm) abort ();
        memcpy (R, ref1, (size_t) n * nrhs * sizeof *R);
        memcpy (Mm, M0, (size_t) n * nrhs * sizeof *Mm);
        dl = fmax (dl, rows_diff (B, row0, nloc, ldb, nrhs, cplx, R, n, NULL, &pad));
        dm = fmax (dm, rows_diff (B, row0, nloc, ldb, nrhs, cplx, Mm, n, &bits, NULL));
        ok &= pad;
        bits_all &= bits;
        free (R);
        free (Mm);
        free (B);
      }
    double complex *M1 = many_everywhere (f, n, 5, cplx, &rcm1);
    char d[160];
    snprintf (d, sizeof d, "%s: rows solves succeed on every rank, rows past nloc untouched",
              names[c]);
    CHECK0 (d, ok && rcm0 == 0 && rcm1 == 0);
    snprintf (d, sizeof d, "%s: rows solves (3 layouts, nrhs 1 and 5) match dense %s to "
              "1e-12", names[c], cplx ? "zgesv" : "dgesv");
    CHECK0 (d, dl < 1e-12);
    snprintf (d, sizeof d, "%s: rows solves match factor_solve_many on the same factor to "
              "1e-13", names[c]);
    CHECK0 (d, dm < 1e-13);
    if (rank == 0)
      printf ("  %s: rows vs LAPACK %.2e, vs solve_many %.2e (%s)\n", names[c], dl, dm,
              bits_all ? "bit for bit" : "not bit for bit");
    all_bits &= bits_all;
    snprintf (d, sizeof d, "%s: factor_solve_many gives its old answer after rows solves",
              names[c]);
    CHECK0 (d, rel_diff (M1, M0, (size_t) n * 5) < 1e-14);

    /* refactor with other values of the pattern, the last layout kept: the plan is rebuilt
       for the new factorization and the rows solve gives the new solution */
    double *ar = NULL;
    const void *a = NULL;
    if (rank == 0) a = cplx ? (const void *) t2.v : (const void *) (ar = real_values (&t2));
    int rcr = factor_refactor (f, a, &err);
    free (ar);
    int row0, nloc, pad;
    layout (2, n, &row0, &nloc);
    void *B = rows_rhs (row0, nloc, nloc + 1, 5, cplx);
    rc = factor_solve_rows (f, row0, nloc, B, nloc + 1, 5, &err);
    double d2 = rows_diff (B, row0, nloc, nloc + 1, 5, cplx, ref2, n, NULL, &pad);
    snprintf (d, sizeof d, "%s: after factor_refactor the rows solve matches the new "
              "matrix's dense solve to 1e-12", names[c]);
    int same = same_everywhere (rc);
    CHECK0 (d, rcr == 0 && rc == 0 && same && pad && d2 < 1e-12);
    free (B);
    factor_phases ph;
    factor_get_phases (f, &ph);
    snprintf (d, sizeof d, "%s: phases count 2 + 6 + 1 solves of 10 + 18 + 5 right-hand "
              "sides", names[c]);
    CHECK0 (d, ph.solves == 9 && ph.solved_rhs == 33 && ph.time_solve >= 0);
    free (M0);
    free (M1);
    free (ref1);
    free (ref2);
    f = factor_free (f);
    trip_clear (&t1);
    trip_clear (&t2);
  }
  if (rank == 0)
    printf ("  rows solves %s factor_solve_many bit for bit on %d rank(s)\n",
            all_bits ? "equal" : "do not equal", nranks);
}

/* Rows solves on a factor with null pivots fixed (two free-free chains, seed 000's
   detection, a grounded spring): every row of X still comes back (ISOL_loc covers the
   fixed pivots too), as factor_solve_many gives it on the same factor. */
static void test_solve_rows_null_pivots (void)
{
  static const factor_kind kinds[] = { FACTOR_REAL_SYMMETRIC, FACTOR_COMPLEX_GENERAL };
  for (int c = 0; c < 2; c++) {
    int cplx = c == 1, len[2] = { 40, 27 };
    trip t = {0};
    build_chains (&t, 2, len, !cplx, cplx ? 1.0 + 0.1 * I : 1.0);
    mb_err err;
    mb_err_init (&err);
    factor *f = create_detect (kinds[c], &t, 1.0, &err);
    int rcm, count = -1;
    if (f) factor_null_pivots (f, &count, NULL);
    double complex *M = many_everywhere (f, t.n, 3, cplx, &rcm);
    double dm = 0;
    int ok = f && rcm == 0 && count == 2;
    for (int which = 0; which < 3; which++) {
      int row0, nloc;
      layout (which, t.n, &row0, &nloc);
      void *B = rows_rhs (row0, nloc, nloc + 2, 3, cplx);
      int rc = factor_solve_rows (f, row0, nloc, B, nloc + 2, 3, &err);
      int same = same_everywhere (rc);
      ok &= rc == 0 && same;
      dm = fmax (dm, rows_diff (B, row0, nloc, nloc + 2, 3, cplx, M, t.n, NULL, NULL));
      free (B);
    }
    CHECK0 (cplx ? "complex general, 2 null pivots fixed: rows solves match "
                   "factor_solve_many to 1e-13 (3 layouts)"
                 : "real symmetric, 2 null pivots fixed: rows solves match "
                   "factor_solve_many to 1e-13 (3 layouts)", ok && dm < 1e-13);
    free (M);
    f = factor_free (f);
    trip_clear (&t);
  }
}

/* Errors of the rows solve: the same status and message on every rank, before MUMPS; a
   fault in its buffers ("factor") fails every rank and the next solve works. */
static void test_solve_rows_errors (void)
{
  trip t = {0};
  build_general (&t, 90, 0);
  int n = t.n;
  mb_err err;
  mb_err_init (&err);
  factor *f = create (FACTOR_REAL_GENERAL, &t, &err);
  int row0, nloc;
  layout (0, n, &row0, &nloc);
  void *B = rows_rhs (row0, nloc, nloc + 2, 2, 0);
  /* a gap: the last rank leaves out the last row */
  int bad = rank == nranks - 1 ? nloc - 1 : nloc;
  mb_err_init (&err);
  int rc = factor_solve_rows (f, row0, bad, B, nloc + 2, 2, &err);
  int same = same_everywhere (rc) && same_message (&err);
  CHECK0 ("rows solve: rows not covering 0..n-1 fail with MB_ESOLVE on every rank",
          rc == MB_ESOLVE && same);
  mb_err_init (&err);
  rc = factor_solve_rows (f, row0, nloc, B, nloc + 2, rank == 0 ? 2 : 1, &err);
  same = same_everywhere (rc) && same_message (&err);
  CHECK0 ("rows solve: nrhs differing between ranks fails on every rank (1 rank: passes)",
          nranks == 1 ? rc == 0 : rc == MB_ESOLVE && same);
  free (B);
  B = rows_rhs (row0, nloc, nloc + 2, 2, 0);
  mb_err_init (&err);
  rc = factor_solve_rows (f, row0, nloc, B, rank == 0 ? 0 : nloc + 2, 2, &err);
  same = same_everywhere (rc) && same_message (&err);
  CHECK0 ("rows solve: ldb < nloc on rank 0 fails with MB_ESOLVE on every rank",
          rc == MB_ESOLVE && same);
  char spec[32];
  snprintf (spec, sizeof spec, "%d:factor", nranks - 1);
  mb_fault_set (spec);
  mb_err_init (&err);
  rc = factor_solve_rows (f, row0, nloc, B, nloc + 2, 2, &err);
  mb_fault_set (NULL);
  same = same_everywhere (rc) && same_message (&err);
  CHECK0 ("rows solve: fault 'factor' on the last rank gives MB_ENOMEM on every rank",
          rc == MB_ENOMEM && same);
  mb_err_init (&err);
  rc = factor_solve_rows (f, row0, nloc, B, nloc + 2, 2, &err);
  double complex *X = dense_solve (&t, 0, 0, 2);       /* dgesv, every rank */
  int pad;
  double d = rows_diff (B, row0, nloc, nloc + 2, 2, 0, X, n, NULL, &pad);
  CHECK0 ("rows solve after the errors matches dgesv to 1e-12", rc == 0 && pad && d < 1e-12);
  CHECK0 ("rows solve with no factor fails", factor_solve_rows (NULL, 0, 0, NULL, 1, 1, &err)
          == MB_ESOLVE);
  free (X);
  free (B);
  f = factor_free (f);
  trip_clear (&t);
}

/* ---- distributed assembled input (factor_opts.distributed, ICNTL(18) = 3) ------------- */

/* This rank's share of t for distributed input: entry k goes to rank (k * 7 + 3) mod
   nranks (scattered, not by rows, and none of them need be rank 0's), and entry 0 is split
   in two halves on two ranks (MUMPS sums duplicates over the ranks). Values real or complex
   by cplx; *nnz the count; the caller frees the arrays. */
static void share_of (const trip *t, int cplx, long *nnz, int **ir, int **jc, void **v)
{
  size_t vs = cplx ? sizeof (double complex) : sizeof (double);
  *ir = malloc ((size_t) (t->nnz + 1) * sizeof **ir);
  *jc = malloc ((size_t) (t->nnz + 1) * sizeof **jc);
  *v = malloc ((size_t) (t->nnz + 1) * vs);
  if (!*ir || !*jc || !*v) abort ();
  long c = 0;
  for (long k = 0; k <= t->nnz; k++) {
    long src = k < t->nnz ? k : 0;               /* k = nnz: entry 0's second half */
    int owner = (int) ((k * 7 + 3) % nranks);
    if (owner != rank) continue;
    double complex val = t->v[src] * (src == 0 ? 0.5 : 1.0);
    (*ir)[c] = t->i[src];
    (*jc)[c] = t->j[src];
    if (cplx) ((double complex *) *v)[c] = val;
    else ((double *) *v)[c] = creal (val);
    c++;
  }
  *nnz = c;
}

/* Distributed input against dense LAPACK and against the same matrix given centrally: the
   solution (1e-12), inertia, refactorization with each rank's values, the deficiency of a
   singular matrix, an entry out of range on the last rank (named, the same message on every
   rank) and a flag given on some ranks only. */
static void test_distributed_input (void)
{
  static const factor_kind kinds[] = { FACTOR_REAL_SYMMETRIC, FACTOR_REAL_GENERAL,
                                       FACTOR_COMPLEX_GENERAL, FACTOR_COMPLEX_SYMMETRIC };
  static const char *names[] = { "real symmetric", "real general", "complex general",
                                 "complex symmetric" };
  factor_opts o;
  factor_opts_default (&o);
  o.distributed = 1;
  for (int c = 0; c < 4; c++) {
    factor_kind kind = kinds[c];
    int cplx = c >= 2, sym = c == 0 || c == 3;
    trip t1 = {0}, t2 = {0};
    int p[6] = { 5, 40, 41, 90, 150, 199 }, m = 6;
    if (sym) build_saddle (&t1, 200, m, p, -0.5);   /* K SPD: m negative pivots */
    else build_general (&t1, 220, cplx);
    if (c == 3) for (long k = 0; k < t1.nnz; k++) t1.v[k] *= 1.0 + 0.3 * I;
    same_pattern (&t1, &t2, cplx);
    long nnz;
    int *ir, *jc;
    void *v;
    share_of (&t1, cplx, &nnz, &ir, &jc, &v);
    mb_err err;
    mb_err_init (&err);
    factor *f = factor_create_opts (MPI_COMM_WORLD, kind, t1.n, nnz, ir, jc, v,
                                    "A - sigma B", &o, &err);
    factor *g = create (kind, &t1, &err);              /* the same matrix, centrally */
    factor_stats st, sg;
    factor_get_stats (f, &st);
    factor_get_stats (g, &sg);
    char d[160];
    snprintf (d, sizeof d, "%s, distributed input: factored; entries counted over the ranks "
              "(%ld + the split half)", names[c], t1.nnz);
    CHECK0 (d, f && g && st.nnz_matrix == t1.nnz + 1);
    if (sym && !cplx) {
      snprintf (d, sizeof d, "%s, distributed input: %d negative pivots (Sylvester: K SPD, "
                "C of full row rank)", names[c], m);
      CHECK0 (d, st.negative_pivots == m && sg.negative_pivots == m);
    }
    int rc1, rc2;
    double complex *x = solve_with (f, t1.n, cplx, &rc1);
    double complex *y = solve_with (g, t1.n, cplx, &rc2);
    if (rank == 0) {
      double complex *ref = dense_solve (&t1, sym, cplx, 1);   /* LAPACK */
      snprintf (d, sizeof d, "%s, distributed input: solve matches dense LAPACK and the "
                "centralized input to 1e-12", names[c]);
      CHECK (d, x && y && rel_diff (x, ref, (size_t) t1.n) < 1e-12
             && rel_diff (x, y, (size_t) t1.n) < 1e-12);
      free (ref);
    }
    free (x);
    free (y);
    /* refactor: each rank its own values, in the order of its triplets */
    long nnz2;
    int *ir2, *jc2;
    void *v2;
    share_of (&t2, cplx, &nnz2, &ir2, &jc2, &v2);
    int rc3 = f ? factor_refactor (f, v2, &err) : -1, rc4;
    x = solve_with (f, t1.n, cplx, &rc4);
    int agreed = same_everywhere (rc3);
    snprintf (d, sizeof d, "%s, distributed refactor succeeds on every rank", names[c]);
    CHECK0 (d, agreed && rc3 == 0 && rc4 == 0);
    if (rank == 0 && x) {
      double complex *ref = dense_solve (&t2, sym, cplx, 1);
      snprintf (d, sizeof d, "%s, distributed refactor: solve matches dense LAPACK to 1e-12",
                names[c]);
      CHECK (d, rel_diff (x, ref, (size_t) t1.n) < 1e-12);
      free (ref);
    }
    free (x);
    free (ir2); free (jc2); free (v2);
    free (ir); free (jc); free (v);
    factor_free (f);
    factor_free (g);
    trip_clear (&t1);
    trip_clear (&t2);
  }

  /* deficiency: a tridiagonal matrix with its row and column 77 empty (no entry at all),
     distributed: one null pivot, row 77, on every rank */
  trip t = {0};
  t.n = 120;
  for (int i = 0; i < t.n; i++) {
    if (i != 77) trip_add (&t, i, i, 2.0);
    if (i > 0 && i != 77 && i - 1 != 77) trip_add (&t, i, i - 1, -1.0);
  }
  long nnz;
  int *ir, *jc, count = -2, *rows = NULL;
  void *v;
  share_of (&t, 0, &nnz, &ir, &jc, &v);
  mb_err err;
  mb_err_init (&err);
  long neg = -2;
  int rc = factor_deficiency_dist (MPI_COMM_WORLD, FACTOR_REAL_SYMMETRIC, t.n, nnz, ir, jc, v,
                                   "A", 1, &count, &rows, &neg, &err);
  int same = same_list (count, rows);
  CHECK0 ("distributed deficiency: the empty row 77 is the one null pivot, no negative "
          "pivot (2 I - the path's adjacency is positive definite), same on every rank",
          rc == 0 && count == 1 && rows && rows[0] == 77 && neg == 0 && same);
  free (rows);

  /* a saddle point with a doubled constraint row (row 2 = 2 x row 1: singular by
     construction), distributed: fails as singular on every rank (MUMPS scales distributed
     input otherwise and may leave the zero pivot tiny; null pivots are caught) */
  trip sg = {0};
  int pin[2] = { 3, 3 };
  build_saddle (&sg, 40, 2, pin, -0.5);   /* rows 1.0 e_3 and 1.5 e_3 */
  long snz;
  int *sir, *sjc;
  void *sv;
  share_of (&sg, 0, &snz, &sir, &sjc, &sv);
  mb_err_init (&err);
  factor *f = factor_create_opts (MPI_COMM_WORLD, FACTOR_REAL_SYMMETRIC, sg.n, snz, sir, sjc,
                                  sv, "A", &o, &err);
  same = same_message (&err);
  CHECK0 ("distributed input: a doubled constraint row fails as singular on every rank",
          !f && err.code == MB_ESOLVE && strstr (err.msg, "singular") && same);
  if (rank == 0 && f) printf ("  factored a singular matrix\n");
  factor_free (f);
  free (sir); free (sjc); free (sv);
  trip_clear (&sg);

  /* an entry out of range on the last rank: the same message everywhere, naming the rank */
  if (rank == nranks - 1 && nnz > 0) ir[nnz - 1] = t.n + 5;
  mb_err_init (&err);
  f = factor_create_opts (MPI_COMM_WORLD, FACTOR_REAL_SYMMETRIC, t.n, nnz, ir, jc, v,
                                  "A", &o, &err);
  char want[64];
  snprintf (want, sizeof want, "(rank %d's entries) at (%d, ", nranks - 1, t.n + 5);
  same = same_message (&err);
  CHECK0 ("distributed input: an entry outside the matrix on the last rank fails on every "
          "rank, the message naming that rank", !f && err.code == MB_ESOLVE
          && strstr (err.msg, want) && same);
  if (rank == 0 && !strstr (err.msg, want)) printf ("  got: %s\n", err.msg);
  if (rank == nranks - 1 && nnz > 0) ir[nnz - 1] = jc[nnz - 1];

  /* the flag on rank 0 only (more than one rank): a usage error everywhere */
  if (nranks > 1) {
    mb_err_init (&err);
    f = factor_create_opts (MPI_COMM_WORLD, FACTOR_REAL_SYMMETRIC, t.n, nnz, ir, jc, v, "A",
                            rank == 0 ? &o : NULL, &err);
    same = same_message (&err);
    CHECK0 ("distributed input asked on rank 0 only: MB_EUSAGE on every rank",
            !f && err.code == MB_EUSAGE && same);
  }
  free (ir); free (jc); free (v);
  trip_clear (&t);
}

/* The cache's factorization of t (rank 0's triplets, or with dist every rank the entries
   k with (k + shift) % nranks == rank), real values; *reused its verdict. */
static factor *cache_create (factor_cache *c, factor_kind kind, const trip *t, int dist,
                             int shift, int *reused, mb_err *err)
{
  trip mine = {0};
  mine.n = t->n;
  for (long k = 0; k < t->nnz; k++)
    if (dist ? (k + shift) % nranks == rank : rank == 0)
      trip_add (&mine, t->i[k], t->j[k], t->v[k]);
  double *a = real_values (&mine);
  factor_opts o;
  factor_opts_default (&o);
  o.distributed = dist;
  factor *f = factor_cache_create (c, MPI_COMM_WORLD, kind, t->n, mine.nnz, mine.i, mine.j, a,
                                   "A - sigma B", &o, reused, err);
  free (a);
  trip_clear (&mine);
  return f;
}

/* 1 on rank 0 when f solves t's system as dense LAPACK does (1e-12); collective. */
static int cache_solves (factor *f, const trip *t, int sym)
{
  int rc = -1;
  double complex *x = f ? solve_with (f, t->n, 0, &rc) : NULL;
  int ok = 0;
  if (rank == 0 && x && rc == 0) {
    double complex *ref = dense_solve (t, sym, 0, 1);  /* LAPACK dgesv */
    ok = rel_diff (x, ref, (size_t) t->n) < 1e-12;
    free (ref);
  }
  free (x);
  return ok;
}

/* The sweep's factor cache (factor_cache_create): new values on the same pattern refactor
   on the kept analysis (reused, phases.analyses 0, the step's own counts) and solve as
   LAPACK does; a changed pattern, other options, or (on 2 ranks) the same entries split
   otherwise over the ranks factor anew; a refactorization that fails (an all-zero, singular
   matrix) falls back to a new factorization, which fails too: NULL, MB_ESOLVE on every
   rank, nothing kept; the next one is new and right. The caller's factor_free leaves the
   kept factor alive. Verdicts the same on every rank. */
static void test_cache (void)
{
  for (int dist = 0; dist < 2; dist++) {
    factor_cache c;
    memset (&c, 0, sizeof c);
    trip t1 = {0}, t2 = {0}, t3 = {0}, tz = {0};
    int p[4] = { 3, 17, 30, 44 };
    build_saddle (&t1, 60, 4, p, -0.5);     /* LDL^T, a saddle point */
    same_pattern (&t1, &t2, 0);
    t3 = t2;                                 /* t2 and one more entry: another pattern */
    t3.i = t3.j = NULL, t3.v = NULL, t3.nnz = t3.cap = 0;
    same_pattern (&t1, &t3, 0);
    trip_add (&t3, 50, 2, 0.01);
    mb_err err;
    mb_err_init (&err);
    int r1 = -1, r2 = -1, r3 = -1, r4 = -1, r5 = -1, r6 = -1;
    char d[160];
    factor *f = cache_create (&c, FACTOR_REAL_SYMMETRIC, &t1, dist, 0, &r1, &err);
    int ok1 = cache_solves (f, &t1, 1);
    factor_free (f);                         /* the stage's free: the cache keeps it */
    snprintf (d, sizeof d, "cache%s: first factor new, solves as LAPACK, kept after free",
              dist ? " (distributed)" : "");
    CHECK0 (d, f && r1 == 0 && ok1 && c.f == f && c.analyses == 1 && c.reuses == 0);
    factor_cache_step (&c);
    f = cache_create (&c, FACTOR_REAL_SYMMETRIC, &t2, dist, 0, &r2, &err);
    int ok2 = cache_solves (f, &t2, 1);
    factor_phases ph;
    factor_get_phases (f, &ph);
    factor_free (f);
    snprintf (d, sizeof d, "cache%s: same pattern, new values: analysis reused, own counts, "
              "solves as LAPACK", dist ? " (distributed)" : "");
    CHECK0 (d, f == c.f && r2 == 1 && ok2 && c.first_reused == 1 && c.reuses == 1
            && ph.analyses == 0 && ph.time_analysis == 0.0 && ph.refactorizations == 1
            && ph.factorizations == 1 && ph.solves == 1);
    int same2 = same_everywhere (r2);  /* collective: outside CHECK0 */
    CHECK0 ("cache: the verdict is the same on every rank", same2);
    /* the same entries given by other ranks (distributed, 2 ranks): factored anew */
    if (dist) {
      f = cache_create (&c, FACTOR_REAL_SYMMETRIC, &t2, dist, 1, &r3, &err);
      int ok3 = cache_solves (f, &t2, 1);
      factor_free (f);
      snprintf (d, sizeof d, "cache (distributed): entries moved to other ranks: %s",
                nranks > 1 ? "factored anew" : "one rank, reused");
      int same3 = same_everywhere (r3);
      CHECK0 (d, ok3 && r3 == (nranks > 1 ? 0 : 1) && same3);
    }
    f = cache_create (&c, FACTOR_REAL_SYMMETRIC, &t3, dist, 0, &r4, &err);
    int ok4 = cache_solves (f, &t3, 1);
    factor_free (f);
    snprintf (d, sizeof d, "cache%s: one more entry: factored anew, solves as LAPACK",
              dist ? " (distributed)" : "");
    CHECK0 (d, f && r4 == 0 && ok4 && c.f == f);
    /* another kind (LU, a general matrix): anew; then all its values zero: singular */
    trip tg = {0};
    build_general (&tg, 60, 0);
    tz.n = tg.n;
    for (long k = 0; k < tg.nnz; k++) trip_add (&tz, tg.i[k], tg.j[k], 0.0);
    f = cache_create (&c, FACTOR_REAL_GENERAL, &tg, dist, 0, &r5, &err);
    int okg = cache_solves (f, &tg, 0);
    factor_free (f);
    CHECK0 ("cache: another kind: factored anew, solves as LAPACK", f && r5 == 0 && okg);
    trip_clear (&tg);
    f = cache_create (&c, FACTOR_REAL_GENERAL, &tz, dist, 0, &r6, &err);
    int zrc = err.code;
    snprintf (d, sizeof d, "cache%s: a failed refactorization falls back to a new one, which "
              "fails too: NULL, MB_ESOLVE, nothing kept", dist ? " (distributed)" : "");
    CHECK0 (d, !f && zrc == MB_ESOLVE && c.f == NULL && c.fell_back == 1 && r6 == 0);
    int samez = same_everywhere (zrc);
    CHECK0 ("cache: the failure is the same on every rank", samez);
    mb_err_init (&err);
    f = cache_create (&c, FACTOR_REAL_SYMMETRIC, &t2, dist, 0, &r1, &err);
    int ok5 = cache_solves (f, &t2, 1);
    factor_free (f);
    CHECK0 ("cache: after the failure a new factor, right", f && r1 == 0 && ok5);
    factor_cache_clear (&c);
    CHECK0 ("cache: cleared", c.f == NULL && c.analyses == 0);
    trip_clear (&t1), trip_clear (&t2), trip_clear (&t3), trip_clear (&tz);
  }
  /* no cache: factor_create_opts itself */
  trip t = {0};
  build_general (&t, 40, 0);
  mb_err err;
  mb_err_init (&err);
  int r = -1;
  factor *f = cache_create (NULL, FACTOR_REAL_GENERAL, &t, 0, 0, &r, &err);
  int ok = cache_solves (f, &t, 0);
  factor_free (f);
  CHECK0 ("cache NULL: a plain factor, solves as LAPACK", f && r == 0 && ok);
  trip_clear (&t);
}

int main (int argc, char **argv)
{
  MPI_Init (&argc, &argv);
  MPI_Comm_rank (MPI_COMM_WORLD, &rank);
  MPI_Comm_size (MPI_COMM_WORLD, &nranks);
  test_saddle_solve ();
  test_inertia_tridiagonal ();
  test_inertia_saddle ();
  test_general ();
  test_singular ();
  test_retry ();
  test_bad_input ();
  test_refactor ();
  test_refactor_failures ();
  test_options ();
  test_null_pivots ();
  test_deficiency ();
  test_fault ();
  test_solve_rows ();
  test_solve_rows_null_pivots ();
  test_solve_rows_errors ();
  test_distributed_input ();
  test_cache ();
  int status = 0;
  if (rank == 0) status = CHECK_DONE ();
  MPI_Bcast (&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Finalize ();
  return status;
}
