/* test_sparse.c: every sparse operation against dense computations on the same random entries. */
#include "linalg/sparse.h"
#include "check.h"

#include <complex.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* A test matrix: the spm and, built from the same random entries, its dense column-major
   copy (duplicates summed here, independently of sparse.c). */
typedef struct pair {
  spm *S;
  double *D;   /* nrows x ncols, column-major */
  int m, n;
} pair;

static unsigned seed = 2024u;
static double urand (void)   /* uniform in [-1, 1) */
{
  seed = seed * 1103515245u + 12345u;
  return ((seed >> 8) & 0xffff) / 32768.0 - 1.0;
}
static int irand (int n)
{
  seed = seed * 1103515245u + 12345u;
  return (int) ((seed >> 8) % (unsigned) n);
}

/* m x n with about `count` random entries, some duplicates and some explicit zeros. */
static pair make (int m, int n, int count)
{
  pair p = { spm_create (m, n, 4), calloc ((size_t) m * n + 1, sizeof (double)), m, n };
  if (!p.S || !p.D) abort ();
  for (int t = 0; t < count; t++) {
    int i = irand (m), j = irand (n);
    double v = t % 11 == 0 ? 0.0 : urand ();
    if (spm_add (p.S, i, j, v) < 0) abort ();
    p.D[(size_t) j * m + i] += v;
    if (t % 7 == 0) {                                   /* a duplicate of the same entry */
      if (spm_add (p.S, i, j, 0.5) < 0) abort ();
      p.D[(size_t) j * m + i] += 0.5;
    }
  }
  return p;
}

static void drop (pair *p)
{
  p->S = spm_free (p->S);
  free (p->D);
  p->D = NULL;
}

/* max |S - D| over the dense array (through spm_to_dense's independent-enough sum, checked
   itself in test_compress against the hand-summed D) */
static double diff_dense (const spm *S, const double *D, int m, int n)
{
  if (!S || S->nrows != m || S->ncols != n) return INFINITY;
  double *E = calloc ((size_t) m * n + 1, sizeof *E);
  if (!E) abort ();
  for (long k = 0; k < S->nnz; k++) E[(size_t) S->col[k] * m + S->row[k]] += S->val[k];
  double d = 0;
  for (size_t k = 0; k < (size_t) m * n; k++) d = fmax (d, fabs (E[k] - D[k]));
  free (E);
  return d;
}

/* 1 when S is a valid compressed matrix: sorted by (row, col), no duplicates, rowptr
   counting the rows, indices inside. */
static int valid_csr (const spm *S)
{
  if (!S || !S->compressed || !S->rowptr) return 0;
  if (S->rowptr[0] != 0 || S->rowptr[S->nrows] != S->nnz) return 0;
  for (int i = 0; i < S->nrows; i++) {
    if (S->rowptr[i] > S->rowptr[i + 1]) return 0;
    for (long k = S->rowptr[i]; k < S->rowptr[i + 1]; k++) {
      if (S->row[k] != i || S->col[k] < 0 || S->col[k] >= S->ncols) return 0;
      if (k > S->rowptr[i] && S->col[k] <= S->col[k - 1]) return 0;
    }
  }
  return 1;
}

/* C = A B densely (column-major) */
static double *dense_mul (const double *A, const double *B, int m, int k, int n)
{
  double *C = calloc ((size_t) m * n + 1, sizeof *C);
  if (!C) abort ();
  for (int j = 0; j < n; j++)
    for (int l = 0; l < k; l++)
      for (int i = 0; i < m; i++) C[(size_t) j * m + i] += A[(size_t) l * m + i] * B[(size_t) j * k + l];
  return C;
}

static void test_compress (void)
{
  pair p = make (37, 23, 400);
  long before = p.S->nnz;
  CHECK ("new matrix is in triplet form", !p.S->compressed && !p.S->rowptr);
  CHECK ("compress: 0", spm_compress (p.S) == 0);
  CHECK ("compress: sorted CSR, rowptr consistent", valid_csr (p.S));
  CHECK ("compress: duplicates summed (fewer entries)", p.S->nnz < before);
  CHECK ("compress: same matrix as the dense sum", diff_dense (p.S, p.D, p.m, p.n) < 1e-14);
  double *E = malloc ((size_t) p.m * p.n * sizeof *E);
  spm_to_dense (p.S, E);
  double d = 0;
  for (size_t k = 0; k < (size_t) p.m * p.n; k++) d = fmax (d, fabs (E[k] - p.D[k]));
  CHECK ("to_dense equals the dense sum", d < 1e-14);
  free (E);
  /* explicit zeros stay as structure */
  spm *Z = spm_create (3, 3, 1);
  spm_add (Z, 1, 2, 0.0);
  spm_add (Z, 0, 0, 1.0);
  spm_add (Z, 1, 2, 0.0);
  spm_compress (Z);
  CHECK ("stored zeros are kept, duplicates merged", Z->nnz == 2 && valid_csr (Z)
         && Z->rowptr[1] == 1 && Z->rowptr[2] == 2 && Z->col[1] == 2 && Z->val[1] == 0.0);
  long nnz = p.S->nnz;
  int *rp = p.S->rowptr;
  CHECK ("compress of a compressed matrix is a no-op", spm_compress (p.S) == 0
         && p.S->nnz == nnz && p.S->rowptr == rp);
  /* spm_add on a compressed matrix: back to triplet form, entries kept */
  CHECK ("add to compressed: 0", spm_add (p.S, 3, 4, 2.0) == 0);
  p.D[(size_t) 4 * p.m + 3] += 2.0;
  CHECK ("add to compressed: back to triplet form", !p.S->compressed && !p.S->rowptr);
  CHECK ("add to compressed: same matrix plus the entry", diff_dense (p.S, p.D, p.m, p.n) < 1e-14);
  spm_compress (p.S);
  CHECK ("recompressed: valid and equal", valid_csr (p.S) && diff_dense (p.S, p.D, p.m, p.n) < 1e-14);
  spm *c = spm_copy (p.S);
  CHECK ("copy of compressed: compressed and equal", valid_csr (c) && c->rowptr != p.S->rowptr
         && diff_dense (c, p.D, p.m, p.n) == 0);
  spm_free (c);
  spm_free (Z);
  /* rows longer than the insertion sort takes (200 entries in row 2, with duplicates):
     the counting-sort path, the same matrix as the dense sum */
  pair L = make (5, 150, 60);
  for (int t = 0; t < 200; t++) {
    int j = irand (150);
    double v = urand ();
    if (spm_add (L.S, 2, j, v) < 0) abort ();
    L.D[(size_t) j * 5 + 2] += v;
  }
  CHECK ("compress with a long row: sorted CSR", spm_compress (L.S) == 0 && valid_csr (L.S));
  CHECK ("compress with a long row: the dense sum", diff_dense (L.S, L.D, 5, 150) < 1e-14);
  drop (&L);
  /* an empty matrix */
  spm *e = spm_create (4, 0, 0);
  CHECK ("empty 4 x 0: compresses", spm_compress (e) == 0 && valid_csr (e) && e->nnz == 0);
  spm_free (e);
  drop (&p);
}

static void test_matvec (void)
{
  pair p = make (31, 19, 300);
  double x[31], y[31], yd[31], xt[31], yt[19], ytd[19];
  double complex xc[19], yc[31], ycd[31];
  for (int j = 0; j < p.n; j++) {
    x[j] = urand ();
    xc[j] = urand () + I * urand ();
  }
  for (int i = 0; i < p.m; i++) xt[i] = urand ();
  for (int form = 0; form < 2; form++) {          /* triplets (with duplicates), compressed */
    if (form) spm_compress (p.S);
    spm_matvec (p.S, x, y);
    spm_matvec_t (p.S, xt, yt);
    spm_matvec_complex (p.S, xc, yc);
    double d = 0, dt = 0, dc = 0;
    for (int i = 0; i < p.m; i++) {
      yd[i] = 0;
      ycd[i] = 0;
      for (int j = 0; j < p.n; j++) {
        yd[i] += p.D[(size_t) j * p.m + i] * x[j];
        ycd[i] += p.D[(size_t) j * p.m + i] * xc[j];
      }
      d = fmax (d, fabs (y[i] - yd[i]));
      dc = fmax (dc, cabs (yc[i] - ycd[i]));
    }
    for (int j = 0; j < p.n; j++) {
      ytd[j] = 0;
      for (int i = 0; i < p.m; i++) ytd[j] += p.D[(size_t) j * p.m + i] * xt[i];
      dt = fmax (dt, fabs (yt[j] - ytd[j]));
    }
    CHECK (form ? "y = A x (compressed) matches dense" : "y = A x (triplets) matches dense",
           d < 1e-13);
    CHECK (form ? "y = A^T x (compressed) matches dense" : "y = A^T x (triplets) matches dense",
           dt < 1e-13);
    CHECK (form ? "complex y = A x (compressed) matches dense"
                : "complex y = A x (triplets) matches dense", dc < 1e-13);
  }
  drop (&p);
}

/* Y = A X (spm_matmat) for nb = 1 .. 11 columns (whole chunks of SPM_MM_CHUNK and a
   remainder), with leading dimensions larger than the rows, with and without the
   interleaving work, on triplets and compressed, and through spm_matmat_cols with the
   columns in reverse order: each column the same bits as spm_matvec
   of that column, and within 1e-13 of the dense product (the reference: D X summed here);
   the padding rows of Y are left alone. */
static void test_matmat (void)
{
  enum { NB = 11, LDX = 23, LDY = 37 };
  pair p = make (33, 21, 350);
  double X[LDX * NB], Y[LDY * NB], y[33], work[SPM_MM_CHUNK * 21];
  for (int k = 0; k < LDX * NB; k++) X[k] = urand ();
  for (int form = 0; form < 2; form++) {
    if (form) spm_compress (p.S);
    for (int nb = 1; nb <= NB; nb++)
      for (int w = 0; w < 2; w++) {
        for (int k = 0; k < LDY * NB; k++) Y[k] = 777.0;
        if (w) spm_matmat (p.S, nb, X, LDX, Y, LDY, work);
        else {
          const double *xs[NB];
          double *ys[NB];
          for (int j = 0; j < nb; j++) {
            xs[nb - 1 - j] = X + (nb - 1 - j) * LDX;
            ys[nb - 1 - j] = Y + (nb - 1 - j) * LDY;
          }
          spm_matmat_cols (p.S, nb, xs, ys, work);
        }
        int same = 1, pad = 1;
        double d = 0.0;
        for (int j = 0; j < nb; j++) {
          spm_matvec (p.S, X + j * LDX, y);
          for (int i = 0; i < p.m; i++) {
            double yd = 0.0;
            for (int c = 0; c < p.n; c++) yd += p.D[(size_t) c * p.m + i] * X[j * LDX + c];
            same = same && Y[j * LDY + i] == y[i];
            d = fmax (d, fabs (Y[j * LDY + i] - yd));
          }
          for (int i = p.m; i < LDY; i++) pad = pad && Y[j * LDY + i] == 777.0;
        }
        for (int k = nb * LDY; k < LDY * NB; k++) pad = pad && Y[k] == 777.0;
        CHECK ("Y = A X: each column bit for bit spm_matvec", same);
        CHECK ("Y = A X matches the dense product", d < 1e-13);
        CHECK ("Y = A X writes only its nrows x nb entries", pad);
      }
    /* spm_matmat_packed: columns packed here, 1 .. SPM_MM_CHUNK of them */
    for (int nc = 1; nc <= SPM_MM_CHUNK; nc++) {
      double *ys[SPM_MM_CHUNK];
      for (int c = 0; c < p.n; c++)
        for (int j = 0; j < nc; j++) work[c * nc + j] = X[j * LDX + c];
      for (int j = 0; j < nc; j++) ys[j] = Y + j * LDY;
      spm_matmat_packed (p.S, nc, work, ys);
      int same = 1;
      for (int j = 0; j < nc; j++) {
        spm_matvec (p.S, X + j * LDX, y);
        for (int i = 0; i < p.m; i++) same = same && Y[j * LDY + i] == y[i];
      }
      CHECK (form ? "packed product (compressed) bit for bit spm_matvec"
                  : "packed product (triplets) bit for bit spm_matvec", same);
    }
  }
  drop (&p);
}

/* spm_is_symmetric against the dense test |D(i,j) - D(j,i)| <= rtol max|D| (the
   reference, here): random symmetric patterns with some stored zeros mirrored by absent
   entries (symmetric), then one entry changed, one entry added without its mirror, each
   on compressed matrices, and a non-square one. */
static void test_symmetric (void)
{
  for (int trial = 0; trial < 40; trial++) {
    int n = 5 + trial % 13;
    spm *S = spm_create (n, n, 4);
    double *D = calloc ((size_t) n * n, sizeof *D);
    if (!S || !D) abort ();
    for (int t = 0; t < 3 * n; t++) {
      int i = irand (n), j = irand (n);
      double v = urand ();
      if (D[(size_t) j * n + i] != 0.0 || D[(size_t) i * n + j] != 0.0) continue;
      spm_add (S, i, j, v);
      D[(size_t) j * n + i] = v;
      if (i != j) {
        if (t % 5 == 0) { spm_add (S, j, i, 0.0); spm_add (S, j, i, v); }  /* summed */
        else spm_add (S, j, i, v);
        D[(size_t) i * n + j] = v;
      }
    }
    spm_add (S, irand (n), irand (n), 0.0);  /* a stored zero (mirror absent or present) */
    int which = trial % 3;                     /* 0: as is, 1: one value off, 2: unmirrored */
    int a = irand (n), b = (a + 1 + irand (n - 1)) % n;
    if (which == 1) { spm_add (S, a, b, 1e-3); D[(size_t) b * n + a] += 1e-3; }
    if (which == 2 && D[(size_t) b * n + a] == 0.0 && D[(size_t) a * n + b] == 0.0) {
      spm_add (S, a, b, 0.25);
      D[(size_t) b * n + a] = 0.25;
    }
    spm_compress (S);
    double mx = 0.0;
    int sym = 1;
    for (int k = 0; k < n * n; k++) mx = fmax (mx, fabs (D[k]));
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++)
        if (fabs (D[(size_t) j * n + i] - D[(size_t) i * n + j]) > 1e-12 * mx) sym = 0;
    CHECK ("spm_is_symmetric agrees with the dense test", spm_is_symmetric (S, 1e-12) == sym);
    if (trial == 0) CHECK ("a symmetric start is symmetric", sym == 1);
    spm_free (S);
    free (D);
  }
  spm *R = spm_create (3, 4, 4);
  CHECK ("a non-square matrix is not symmetric", R && !spm_is_symmetric (R, 1e-12));
  spm_free (R);
}

static void test_transpose_multiply (void)
{
  for (int form = 0; form < 2; form++) {
    pair a = make (17, 29, 200), b = make (29, 13, 150);
    if (form) { spm_compress (a.S); spm_compress (b.S); }
    spm *T = spm_transpose (a.S);
    double *Td = malloc ((size_t) a.m * a.n * sizeof *Td);
    for (int i = 0; i < a.m; i++)
      for (int j = 0; j < a.n; j++) Td[(size_t) i * a.n + j] = a.D[(size_t) j * a.m + i];
    CHECK ("transpose: valid CSR, equals dense A^T", valid_csr (T)
           && diff_dense (T, Td, a.n, a.m) == 0);
    spm *C = spm_multiply (a.S, b.S);
    double *Cd = dense_mul (a.D, b.D, a.m, a.n, b.n);
    CHECK ("multiply: valid CSR, equals dense A B to 1e-13", valid_csr (C)
           && diff_dense (C, Cd, a.m, b.n) < 1e-13);
    CHECK ("multiply: the inputs' forms are untouched", a.S->compressed == form
           && b.S->compressed == form);
    spm *G = spm_multiply (T, a.S);                         /* A^T A: symmetric */
    double *Gd = dense_mul (Td, a.D, a.n, a.m, a.n);
    CHECK ("A^T A equals dense and is symmetric", diff_dense (G, Gd, a.n, a.n) < 1e-13
           && spm_is_symmetric (G, 1e-14));
    CHECK ("multiply with disagreeing shapes: NULL", spm_multiply (a.S, a.S) == NULL);
    spm_free (T); spm_free (C); spm_free (G);
    free (Td); free (Cd); free (Gd);
    drop (&a);
    drop (&b);
  }
  /* structural pattern: a product whose values cancel keeps its entry */
  spm *A = spm_create (1, 2, 2), *B = spm_create (2, 1, 2);
  spm_add (A, 0, 0, 1.0); spm_add (A, 0, 1, 1.0);
  spm_add (B, 0, 0, 1.0); spm_add (B, 1, 0, -1.0);
  spm *C = spm_multiply (A, B);
  CHECK ("cancelling product keeps a structural zero", C && C->nnz == 1 && C->val[0] == 0.0);
  spm_free (A); spm_free (B); spm_free (C);
}

static void test_sum (void)
{
  pair a = make (21, 16, 150), b = make (21, 16, 120);
  spm_compress (b.S);                                        /* mixed forms */
  double alpha = 0.75, beta = -2.5;
  spm *C = spm_sum (alpha, a.S, beta, b.S);
  double *Cd = malloc ((size_t) a.m * a.n * sizeof *Cd);
  for (size_t k = 0; k < (size_t) a.m * a.n; k++) Cd[k] = alpha * a.D[k] + beta * b.D[k];
  CHECK ("sum: valid CSR, equals dense alpha A + beta B", valid_csr (C)
         && diff_dense (C, Cd, a.m, a.n) < 1e-14);
  /* the pattern is the union, whatever the coefficients */
  spm *ac = spm_copy (a.S);
  spm_compress (ac);
  long both = 0;
  for (long p = 0, q = 0; p < ac->nnz || q < b.S->nnz;) {
    long ka = p < ac->nnz ? (long) ac->row[p] * a.n + ac->col[p] : -1;
    long kb = q < b.S->nnz ? (long) b.S->row[q] * a.n + b.S->col[q] : -1;
    if (ka >= 0 && (kb < 0 || ka < kb)) p++;
    else if (kb >= 0 && (ka < 0 || kb < ka)) q++;
    else { p++; q++; }
    both++;
  }
  spm *Z = spm_sum (0.0, a.S, 1.0, b.S);
  CHECK ("sum: pattern is the union of patterns", C->nnz == both);
  CHECK ("sum with alpha = 0: same pattern, values of B", Z && Z->nnz == both
         && diff_dense (Z, b.D, a.m, a.n) < 1e-15);
  spm *T = spm_transpose (ac);
  CHECK ("sum of 21x16 and 16x21: NULL", spm_sum (1.0, a.S, 1.0, T) == NULL);
  spm_free (T);
  spm_free (ac); spm_free (C); spm_free (Z);
  free (Cd);
  drop (&a);
  drop (&b);
}

static void test_blocks (void)
{
  pair p = make (25, 30, 350);
  for (int form = 0; form < 2; form++) {
    if (form) spm_compress (p.S);
    int r0 = 4, r1 = 19, c0 = 7, c1 = 30;
    spm *B = spm_block (p.S, r0, r1, c0, c1);
    double *Bd = malloc ((size_t) (r1 - r0) * (c1 - c0) * sizeof *Bd);
    for (int j = c0; j < c1; j++)
      for (int i = r0; i < r1; i++)
        Bd[(size_t) (j - c0) * (r1 - r0) + (i - r0)] = p.D[(size_t) j * p.m + i];
    CHECK ("block by ranges: valid CSR, equals dense sub-block", valid_csr (B)
           && diff_dense (B, Bd, r1 - r0, c1 - c0) < 1e-15);
    spm *E = spm_block (p.S, 3, 3, 0, 30);
    CHECK ("empty row range: 0 x 30, no entries", E && E->nrows == 0 && E->nnz == 0);
    CHECK ("invalid ranges: NULL", !spm_block (p.S, 5, 4, 0, 1) && !spm_block (p.S, 0, 26, 0, 1)
           && !spm_block (p.S, -1, 2, 0, 1) && !spm_block (p.S, 0, 2, 0, 31));
    spm_free (B); spm_free (E);
    free (Bd);

    int rows[] = { 24, 3, 3, 0, 17, 9 }, cols[] = { 29, 1, 15, 2, 0, 8, 22 };
    int nr = 6, nc = 7;
    spm *S = spm_select (p.S, nr, rows, nc, cols);
    double *Sd = malloc ((size_t) nr * nc * sizeof *Sd);
    for (int b = 0; b < nc; b++)
      for (int a = 0; a < nr; a++) Sd[(size_t) b * nr + a] = p.D[(size_t) cols[b] * p.m + rows[a]];
    CHECK ("select by index lists (rows repeated, unordered): equals dense",
           valid_csr (S) && diff_dense (S, Sd, nr, nc) < 1e-15);
    spm *Sall = spm_select (p.S, 0, NULL, nc, cols);
    double *Sad = malloc ((size_t) p.m * nc * sizeof *Sad);
    for (int b = 0; b < nc; b++)
      for (int a = 0; a < p.m; a++) Sad[(size_t) b * p.m + a] = p.D[(size_t) cols[b] * p.m + a];
    CHECK ("select with rows NULL: all rows", valid_csr (Sall) && diff_dense (Sall, Sad, p.m, nc) < 1e-15);
    int rep[] = { 1, 2, 1 }, out[] = { 0, 30 };
    CHECK ("select: repeated column or index outside: NULL",
           !spm_select (p.S, nr, rows, 3, rep) && !spm_select (p.S, nr, rows, 2, out)
           && !spm_select (p.S, 2, out, nc, cols));
    /* a symmetric permutation P A P^T of a square block */
    spm *Q = spm_block (p.S, 0, 25, 0, 25);
    int perm[25];
    for (int k = 0; k < 25; k++) perm[k] = (7 * k + 3) % 25;
    spm *QP = spm_select (Q, 25, perm, 25, perm);
    double *Pd = malloc (25 * 25 * sizeof *Pd);
    for (int b = 0; b < 25; b++)
      for (int a = 0; a < 25; a++) Pd[b * 25 + a] = p.D[(size_t) perm[b] * p.m + perm[a]];
    CHECK ("symmetric permutation: equals dense", valid_csr (QP) && diff_dense (QP, Pd, 25, 25) < 1e-15);
    spm *L = spm_lower (Q);
    for (int b = 0; b < 25; b++)
      for (int a = 0; a < 25; a++) Pd[b * 25 + a] = a >= b ? p.D[(size_t) b * p.m + a] : 0.0;
    CHECK ("lower triangle: equals dense tril", valid_csr (L) && diff_dense (L, Pd, 25, 25) < 1e-15);
    spm_free (S); spm_free (Sall); spm_free (Q); spm_free (QP); spm_free (L);
    free (Sd); free (Sad); free (Pd);
  }
  drop (&p);
}

/* [K - sigma M, s C^T; s C, 0] by spm_add_block against the dense pencil */
static void test_add_block (void)
{
  int n = 12, m = 4;
  pair K = make (n, n, 60), M = make (n, n, 40), C = make (m, n, 15);
  spm_compress (M.S);
  double sigma = 1.7, s = 3.0;
  spm *T = spm_create (n + m, n + m, 8);
  spm_compress (T);
  int rc = spm_add_block (T, 0, 0, 1.0, K.S, 0);
  rc |= spm_add_block (T, 0, 0, -sigma, M.S, 0);
  rc |= spm_add_block (T, n, 0, s, C.S, 0);
  rc |= spm_add_block (T, 0, n, s, C.S, 1);
  CHECK ("add_block: 0 and the target in triplet form", rc == 0 && !T->compressed);
  int N = n + m;
  double *D = calloc ((size_t) N * N, sizeof *D);
  for (int j = 0; j < n; j++)
    for (int i = 0; i < n; i++) D[(size_t) j * N + i] = K.D[j * n + i] - sigma * M.D[j * n + i];
  for (int j = 0; j < n; j++)
    for (int r = 0; r < m; r++) {
      D[(size_t) j * N + n + r] = s * C.D[j * m + r];
      D[(size_t) (n + r) * N + j] = s * C.D[j * m + r];
    }
  spm_compress (T);
  CHECK ("add_block: the pencil equals dense", valid_csr (T) && diff_dense (T, D, N, N) < 1e-14);
  CHECK ("add_block outside the target: MB_EUSAGE", spm_add_block (T, n + 1, 0, 1.0, C.S, 0)
         == MB_EUSAGE && spm_add_block (T, 0, n + 1, 1.0, C.S, 1) == MB_EUSAGE);
  /* T += 2 T (the block is the target itself): 3 T */
  spm *U = spm_copy (T);
  for (size_t k = 0; k < (size_t) N * N; k++) D[k] *= 3.0;
  CHECK ("add_block of a matrix onto itself: 3 T", spm_add_block (U, 0, 0, 2.0, U, 0) == 0
         && spm_compress (U) == 0 && diff_dense (U, D, N, N) < 1e-13);
  spm_free (U);
  double *cm = malloc ((size_t) n * sizeof *cm);
  spm *Cc = spm_copy (C.S);
  spm_compress (Cc);
  spm_col_max_abs (Cc, cm);
  double e = 0;
  for (int j = 0; j < n; j++) {
    double want = 0;
    for (int r = 0; r < m; r++) want = fmax (want, fabs (C.D[j * m + r]));
    e = fmax (e, fabs (want - cm[j]));
  }
  CHECK ("column max |A(:,j)| of a compressed matrix equals dense", e < 1e-15);
  spm_scale (Cc, -2.0);
  for (size_t k = 0; k < (size_t) m * n; k++) C.D[k] *= -2.0;
  CHECK ("scale: values times alpha", diff_dense (Cc, C.D, m, n) < 1e-15);
  spm_free (Cc);
  free (cm);
  free (D);
  spm_free (T);
  drop (&K); drop (&M); drop (&C);
}

int main (void)
{
  test_compress ();
  test_matvec ();
  test_matmat ();
  test_symmetric ();
  test_transpose_multiply ();
  test_sum ();
  test_blocks ();
  test_add_block ();
  return CHECK_DONE ();
}
