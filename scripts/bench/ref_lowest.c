/* ref_lowest.c: extended-precision reference values of the lowest undamped eigenvalues of a
   beam grid (K x + Cq^T mu = lambda M x, Cq x = 0), by the method of ref_lowest.py with
   MUMPS's LU in place of SuperLU, so that the 80x80 and 120x120 grids take seconds instead
   of hours. It shares nothing with mbmodal's eigen stages or with SLEPc: only mbmodal's
   Matrix Market reader, sparse sum and MUMPS wrapper (linalg/).

   usage: ref_lowest DIR GUESS [GUESS ...] [-- [LABEL=]FILE ...]      (one MPI rank)
   DIR holds K.mtx, M.mtx, Cq.mtx. Each GUESS is an approximate eigenvalue [rad^2/s^2] (one of
   a peer's, say); FILEs after "--" are eigenvalue lists to compare: an mbmodal report (its
   "eigenvalue:" lines) or one number a line (slepc_peer's peer.eig). Prints, for each GUESS,
   the reference and, per list (named LABEL, else FILE), its value nearest the reference and
   the relative difference.

   Method, at each of two shifts s = GUESS (1 -+ 1e-3) (different matrices, factors and
   rounding): the bordered matrix A = [K - s M, c Cq^T; c Cq, 0] (c: the power of two that
   brings Cq to K's size) factored by MUMPS as a general matrix (LU, SYM = 0: not the LDL^T
   that mbmodal and the peer's Cholesky use). Every solve A y = b is refined in long double
   (x87 80-bit on x86-64: unit round-off 5.4e-20): residual b - A y summed in long double,
   correction by the double LU, 3 steps. Inverse iteration y <- A^-1 [M x; 0] from a fixed
   pseudo-random start, 8 steps (each divides the other modes' share by |lambda_1 - s| /
   |lambda_2 - s|). The eigenvalue is the Rayleigh quotient x^T K x / x^T M x of the long
   double x, summed in long double: its error is of the order of the square of the vector's.
   The reference is the mean of the two shifts' values, "two shifts" their relative
   difference (how far it can be trusted). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <mpi.h>

#include "linalg/factor.h"
#include "linalg/mmio.h"
#include "linalg/sparse.h"

typedef long double ld;

/* y = A x (A compressed, rows A->nrows), or with transpose y = A^T x (A->ncols entries),
   summed in long double. */
static void ld_matvec (const spm *A, const ld *x, ld *y, int transpose)
{
  memset (y, 0, (size_t) (transpose ? A->ncols : A->nrows) * sizeof *y);
  for (int i = 0; i < A->nrows; i++)
    for (int k = A->rowptr[i]; k < A->rowptr[i + 1]; k++) {
      if (transpose) y[A->col[k]] += (ld) A->val[k] * x[i];
      else y[i] += (ld) A->val[k] * x[A->col[k]];
    }
}

/* The problem and the work vectors of one shift. */
typedef struct ref {
  const spm *K, *M, *Cq;
  int n, m;
  ld s, c;
  factor *f;
  ld *t1, *t2, *r;   /* n + m each */
  double *d;         /* n + m: a double right-hand side / correction */
} ref;

/* r = b - A y in long double (A as above, at r->s and r->c). */
static void residual (ref *p, const ld *b, const ld *y, ld *res)
{
  int n = p->n, m = p->m;
  ld_matvec (p->K, y, p->t1, 0);
  ld_matvec (p->M, y, p->t2, 0);
  for (int i = 0; i < n; i++) res[i] = b[i] - (p->t1[i] - p->s * p->t2[i]);
  if (m > 0) {
    ld_matvec (p->Cq, y + n, p->t1, 1);
    for (int i = 0; i < n; i++) res[i] -= p->c * p->t1[i];
    ld_matvec (p->Cq, y, p->t1, 0);
    for (int i = 0; i < m; i++) res[n + i] = b[n + i] - p->c * p->t1[i];
  }
}

/* y = A^-1 b: the double solve, then 3 steps of refinement in long double. Returns 0 or -1. */
static int solve (ref *p, const ld *b, ld *y, mb_err *err)
{
  int N = p->n + p->m;
  for (int i = 0; i < N; i++) p->d[i] = (double) b[i];
  if (factor_solve (p->f, p->d, err) < 0) return -1;
  for (int i = 0; i < N; i++) y[i] = p->d[i];
  for (int step = 0; step < 3; step++) {
    residual (p, b, y, p->r);
    for (int i = 0; i < N; i++) p->d[i] = (double) p->r[i];
    if (factor_solve (p->f, p->d, err) < 0) return -1;
    for (int i = 0; i < N; i++) y[i] += p->d[i];
  }
  return 0;
}

/* The Rayleigh quotient of inverse iteration's vector at shift s, or NAN on failure. */
static double rayleigh_at (const spm *K, const spm *M, const spm *Cq, double s, double c)
{
  int n = K->nrows, m = Cq ? Cq->nrows : 0, N = n + m;
  mb_err err;
  mb_err_init (&err);
  spm *S = spm_sum (1.0, K, -s, M), *A = spm_create (N, N, S->nnz + 2 * (Cq ? Cq->nnz : 0));
  spm_add_block (A, 0, 0, 1.0, S, 0);
  if (Cq) {
    spm_add_block (A, 0, n, c, Cq, 1);
    spm_add_block (A, n, 0, c, Cq, 0);
  }
  spm_compress (A);
  spm_free (S);
  ref p = { .K = K, .M = M, .Cq = Cq, .n = n, .m = m, .s = s, .c = c };
  p.f = factor_create (MPI_COMM_WORLD, FACTOR_REAL_GENERAL, N, A->nnz, A->row, A->col, A->val,
                       "A (reference)", &err);
  spm_free (A);
  if (!p.f) { fprintf (stderr, "ref_lowest: %s\n", err.msg); return NAN; }
  ld *x = calloc ((size_t) N, sizeof *x), *b = calloc ((size_t) N, sizeof *b);
  ld *z = calloc ((size_t) N, sizeof *z);
  p.t1 = calloc ((size_t) N, sizeof *p.t1);
  p.t2 = calloc ((size_t) N, sizeof *p.t2);
  p.r = calloc ((size_t) N, sizeof *p.r);
  p.d = calloc ((size_t) N, sizeof *p.d);
  unsigned long long seed = 88172645463325252ULL;  /* xorshift64: a fixed start */
  for (int i = 0; i < n; i++) {
    seed ^= seed << 13; seed ^= seed >> 7; seed ^= seed << 17;
    x[i] = (ld) (seed >> 11) / 9007199254740992.0L - 0.5L;
  }
  double lambda = NAN;
  int ok = 1;
  for (int it = 0; it < 8 && ok; it++) {
    ld_matvec (M, x, b, 0);
    memset (b + n, 0, (size_t) m * sizeof *b);
    ok = solve (&p, b, z, &err) == 0;
    ld norm = 0.0L;
    for (int i = 0; i < n; i++) norm += z[i] * z[i];
    norm = sqrtl (norm);
    for (int i = 0; i < n; i++) x[i] = z[i] / norm;
  }
  if (ok) {
    ld_matvec (K, x, p.t1, 0);
    ld_matvec (M, x, p.t2, 0);
    ld kq = 0.0L, mq = 0.0L;
    for (int i = 0; i < n; i++) { kq += x[i] * p.t1[i]; mq += x[i] * p.t2[i]; }
    lambda = (double) (kq / mq);
  } else {
    fprintf (stderr, "ref_lowest: %s\n", err.msg);
  }
  factor_free (p.f);
  free (x); free (b); free (z); free (p.t1); free (p.t2); free (p.r); free (p.d);
  return lambda;
}

/* The eigenvalues of FILE (an mbmodal report's "eigenvalue:" lines, else every number) into
   a new array (*count of them); NULL when unreadable. */
static double *read_list (const char *path, int *count)
{
  FILE *fp = fopen (path, "r");
  if (!fp) return NULL;
  char line[512];
  int cap = 64, cnt = 0, report = 0;
  double *v = malloc ((size_t) cap * sizeof *v);
  while (fgets (line, sizeof line, fp)) {
    char *e = strstr (line, "eigenvalue:");
    if (e) report = 1;
    if (report && !e) continue;
    char *s = e ? e + strlen ("eigenvalue:") : line, *end;
    for (double x = strtod (s, &end); end != s; x = strtod (s, &end)) {
      if (cnt == cap) v = realloc (v, (size_t) (cap *= 2) * sizeof *v);
      v[cnt++] = x;
      s = end;
    }
  }
  fclose (fp);
  *count = cnt;
  return v;
}

static spm *load (const char *dir, const char *name)
{
  char path[1024];
  snprintf (path, sizeof path, "%s/%s.mtx", dir, name);
  mb_err err;
  mb_err_init (&err);
  spm *A = NULL;
  if (mmio_read (path, &A, &err) < 0) {
    fprintf (stderr, "ref_lowest: %s\n", err.msg);
    return NULL;
  }
  if (spm_compress (A) < 0) { fprintf (stderr, "ref_lowest: out of memory\n"); return spm_free (A); }
  return A;
}

int main (int argc, char **argv)
{
  MPI_Init (&argc, &argv);
  int size;
  MPI_Comm_size (MPI_COMM_WORLD, &size);
  if (argc < 3 || size != 1) {
    fprintf (stderr, "usage: ref_lowest DIR GUESS [GUESS ...] [-- FILE ...]  (one rank)\n");
    MPI_Finalize ();
    return 2;
  }
  int nguess = 0, first_file = argc;
  for (int i = 2; i < argc; i++) {
    if (strcmp (argv[i], "--") == 0) { first_file = i + 1; break; }
    nguess++;
  }
  spm *K = load (argv[1], "K"), *M = load (argv[1], "M"), *Cq = load (argv[1], "Cq");
  if (!K || !M || !Cq) { MPI_Finalize (); return 1; }
  double c = exp2 (round (log2 (spm_max_abs (K) / spm_max_abs (Cq))));
  int nfiles = argc - first_file;
  double **lists = calloc ((size_t) nfiles + 1, sizeof *lists);
  int *counts = calloc ((size_t) nfiles + 1, sizeof *counts);
  const char **label = calloc ((size_t) nfiles + 1, sizeof *label);
  for (int k = 0; k < nfiles; k++) {  /* LABEL=FILE or FILE */
    char *arg = argv[first_file + k], *eq = strchr (arg, '=');
    label[k] = arg;
    if (eq) *eq = '\0';
    lists[k] = read_list (eq ? eq + 1 : arg, &counts[k]);
    if (!lists[k]) fprintf (stderr, "ref_lowest: cannot read %s\n", eq ? eq + 1 : arg);
  }
  for (int g = 0; g < nguess; g++) {
    double guess = atof (argv[2 + g]);
    double l1 = rayleigh_at (K, M, Cq, guess * (1.0 - 1e-3), c);
    double l2 = rayleigh_at (K, M, Cq, guess * (1.0 + 1e-3), c);
    double lam = 0.5 * (l1 + l2);
    printf ("  guess %.10g: reference %.17g rad^2/s^2 (two shifts %.1e)\n", guess, lam,
            fabs (l1 - l2) / fabs (lam));
    for (int k = 0; k < nfiles; k++) {
      double near = NAN;
      for (int i = 0; lists[k] && i < counts[k]; i++)
        if (isnan (near) || fabs (lists[k][i] - lam) < fabs (near - lam)) near = lists[k][i];
      printf ("    %-28s %.16g  %.1e\n", label[k], near, fabs (near - lam) / fabs (lam));
    }
    fflush (stdout);
  }
  free (label);
  for (int k = 0; k < nfiles; k++) free (lists[k]);
  free (lists);
  free (counts);
  spm_free (K); spm_free (M); spm_free (Cq);
  MPI_Finalize ();
  return 0;
}
