/* sparse.c: sparse matrices: triplet growth, compression to CSR, products, sums, blocks, norms. */
#include "sparse.h"

#include <complex.h>
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

spm *spm_create (int nrows, int ncols, long nzmax)
{
  spm *A = mb_calloc (1, sizeof *A);
  if (!A) return NULL;
  A->nrows = nrows;
  A->ncols = ncols;
  A->nzmax = nzmax > 0 ? nzmax : 1;
  A->row = mb_calloc ((size_t) A->nzmax, sizeof *A->row);
  A->col = mb_calloc ((size_t) A->nzmax, sizeof *A->col);
  A->val = mb_calloc ((size_t) A->nzmax, sizeof *A->val);
  if (!A->row || !A->col || !A->val) return spm_free (A);
  return A;
}

spm *spm_free (spm *A)
{
  if (!A) return NULL;
  free (A->row);
  free (A->col);
  free (A->val);
  free (A->rowptr);
  free (A);
  return NULL;
}

/* Grows storage to at least nzmax entries; on failure A is unchanged. */
static int spm_reserve (spm *A, long nzmax)
{
  if (nzmax <= A->nzmax) return 0;
  int *r = realloc (A->row, (size_t) nzmax * sizeof *r);
  if (!r) return MB_ENOMEM;
  A->row = r;
  int *c = realloc (A->col, (size_t) nzmax * sizeof *c);
  if (!c) return MB_ENOMEM;
  A->col = c;
  double *v = realloc (A->val, (size_t) nzmax * sizeof *v);
  if (!v) return MB_ENOMEM;
  A->val = v;
  A->nzmax = nzmax;
  return 0;
}

/* Back to triplet form: the triplets stay, rowptr goes. */
static void to_triplets (spm *A)
{
  free (A->rowptr);
  A->rowptr = NULL;
  A->compressed = 0;
}

int spm_add (spm *A, int i, int j, double v)
{
  if (A->nnz == A->nzmax) MB_TRY (spm_reserve (A, 2 * A->nzmax + 16));
  if (A->compressed) to_triplets (A);
  A->row[A->nnz] = i;
  A->col[A->nnz] = j;
  A->val[A->nnz] = v;
  A->nnz++;
  return 0;
}

/* Rows this long at most are sorted by insertion in spm_compress; a longer row sends the
   whole matrix to the two counting sorts (insertion is quadratic in a row's length). */
#define COMPRESS_SHORT_ROW 64

/* The order of A's triplets sorted by (row, col), ties in their original order, into perm
   (nnz entries): a counting sort by row (stable), then each row sorted by column by
   insertion (stable). Returns 0, or 1 when a row is longer than COMPRESS_SHORT_ROW (perm
   then unfinished). rowcount: nrows + 1 ints of work. */
static int order_short_rows (const spm *A, int *perm, int *rowcount)
{
  int nnz = (int) A->nnz;
  memset (rowcount, 0, ((size_t) A->nrows + 1) * sizeof *rowcount);
  for (int k = 0; k < nnz; k++) rowcount[A->row[k] + 1]++;
  for (int i = 0; i < A->nrows; i++) {
    if (rowcount[i + 1] > COMPRESS_SHORT_ROW) return 1;
    rowcount[i + 1] += rowcount[i];
  }
  for (int k = 0; k < nnz; k++) perm[rowcount[A->row[k]]++] = k;  /* rowcount[i]: end of i */
  for (int i = 0, s = 0; i < A->nrows; s = rowcount[i++])
    for (int t = s + 1; t < rowcount[i]; t++) {
      int k = perm[t], c = A->col[k], u = t;
      for (; u > s && A->col[perm[u - 1]] > c; u--) perm[u] = perm[u - 1];
      perm[u] = k;
    }
  return 0;
}

/* The same order by two counting sorts over all entries: by column, then stably by row.
   count: max(nrows, ncols) + 1 ints, tmp: nnz ints of work. */
static void order_counting (const spm *A, int *perm, int *count, int *tmp)
{
  int nnz = (int) A->nnz, nmax = A->nrows > A->ncols ? A->nrows : A->ncols;
  memset (count, 0, ((size_t) nmax + 1) * sizeof *count);
  for (int k = 0; k < nnz; k++) count[A->col[k] + 1]++;
  for (int j = 0; j < nmax; j++) count[j + 1] += count[j];
  for (int k = 0; k < nnz; k++) tmp[count[A->col[k]]++] = k;
  memset (count, 0, ((size_t) nmax + 1) * sizeof *count);
  for (int k = 0; k < nnz; k++) count[A->row[k] + 1]++;
  for (int i = 0; i < nmax; i++) count[i + 1] += count[i];
  for (int t = 0; t < nnz; t++) {
    int k = tmp[t];
    perm[count[A->row[k]]++] = k;
  }
}

/* Sorted order (order_short_rows, or order_counting for a long row), then a gather that
   sums each run of equal (row, col) in the triplets' order. */
int spm_compress (spm *A)
{
  if (A->compressed) return 0;
  long nnz = A->nnz;
  if (nnz > INT_MAX) return MB_ENOMEM;
  int nmax = A->nrows > A->ncols ? A->nrows : A->ncols;
  int *count = mb_calloc ((size_t) nmax + 1, sizeof *count);
  int *perm = mb_calloc ((size_t) nnz, sizeof *perm);
  int *rowptr = mb_calloc ((size_t) A->nrows + 1, sizeof *rowptr);
  if (!count || !perm || !rowptr) {
    free (count); free (perm); free (rowptr);
    return MB_ENOMEM;
  }
  if (order_short_rows (A, perm, count)) {
    int *tmp = mb_calloc ((size_t) nnz, sizeof *tmp);
    if (!tmp) {
      free (count); free (perm); free (rowptr);
      return MB_ENOMEM;
    }
    order_counting (A, perm, count, tmp);
    free (tmp);
  }
  /* gather in sorted order, summing runs of equal (row, col) */
  int *r = mb_calloc ((size_t) nnz, sizeof *r);
  int *c = mb_calloc ((size_t) nnz, sizeof *c);
  double *v = mb_calloc ((size_t) nnz, sizeof *v);
  if (!r || !c || !v) {
    free (count); free (perm); free (r); free (c); free (v); free (rowptr);
    return MB_ENOMEM;
  }
  long out = -1;
  for (long t = 0; t < nnz; t++) {
    int k = perm[t];
    if (out >= 0 && r[out] == A->row[k] && c[out] == A->col[k]) v[out] += A->val[k];
    else {
      out++;
      r[out] = A->row[k];
      c[out] = A->col[k];
      v[out] = A->val[k];
    }
  }
  long kept = out + 1;
  for (long k = 0; k < kept; k++) rowptr[r[k] + 1]++;        /* rowptr = cumulative counts */
  for (int i = 0; i < A->nrows; i++) rowptr[i + 1] += rowptr[i];
  free (A->row); free (A->col); free (A->val);
  A->row = r; A->col = c; A->val = v;
  A->nnz = kept;
  A->nzmax = nnz > 0 ? nnz : 1;
  A->rowptr = rowptr;
  A->compressed = 1;
  free (count); free (perm);
  return 0;
}

spm *spm_copy (const spm *A)
{
  spm *B = spm_create (A->nrows, A->ncols, A->nnz);
  if (!B) return NULL;
  size_t nz = (size_t) A->nnz;
  if (nz) {
    memcpy (B->row, A->row, nz * sizeof *B->row);
    memcpy (B->col, A->col, nz * sizeof *B->col);
    memcpy (B->val, A->val, nz * sizeof *B->val);
  }
  B->nnz = A->nnz;
  if (A->compressed) {
    B->rowptr = mb_calloc ((size_t) A->nrows + 1, sizeof *B->rowptr);
    if (!B->rowptr) return spm_free (B);
    memcpy (B->rowptr, A->rowptr, ((size_t) A->nrows + 1) * sizeof *B->rowptr);
    B->compressed = 1;
  }
  return B;
}

/* A itself when compressed, else a compressed copy left in *tmp for the caller to free.
   NULL when out of memory. */
static const spm *compressed_view (const spm *A, spm **tmp)
{
  *tmp = NULL;
  if (A->compressed) return A;
  *tmp = spm_copy (A);
  if (!*tmp || spm_compress (*tmp) < 0) return *tmp = spm_free (*tmp);
  return *tmp;
}

/* y = A x. Compressed: by CSR rows, y_i = sum over k in row i of val[k] x[col[k]] summed
   in k order from 0, the same additions in the same order as the triplet loop on the
   sorted triplets (so the same bits), with y_i kept in a register. Triplets: scattered. */
void spm_matvec (const spm *A, const double *x, double *y)
{
  if (A->compressed) {
    const int *rp = A->rowptr, *col = A->col;
    const double *val = A->val;
    for (int i = 0; i < A->nrows; i++) {
      double s = 0.0;
      for (int k = rp[i]; k < rp[i + 1]; k++) s += val[k] * x[col[k]];
      y[i] = s;
    }
    return;
  }
  memset (y, 0, (size_t) A->nrows * sizeof *y);
  for (long k = 0; k < A->nnz; k++) y[A->row[k]] += A->val[k] * x[A->col[k]];
}

/* The complex form of spm_matvec (the same order of additions). */
void spm_matvec_complex (const spm *A, const _Complex double *x, _Complex double *y)
{
  if (A->compressed) {
    const int *rp = A->rowptr, *col = A->col;
    const double *val = A->val;
    for (int i = 0; i < A->nrows; i++) {
      _Complex double s = 0.0;
      for (int k = rp[i]; k < rp[i + 1]; k++) s += val[k] * x[col[k]];
      y[i] = s;
    }
    return;
  }
  memset (y, 0, (size_t) A->nrows * sizeof *y);
  for (long k = 0; k < A->nnz; k++) y[A->row[k]] += A->val[k] * x[A->col[k]];
}

/* y[j] = A x_j for nc <= SPM_MM_CHUNK columns packed row-interleaved (packed[c nc + j] =
   x_j[c]), so that each entry of A is read once for the chunk and its nc x values are
   adjacent. Compressed A: y[j][i] summed over row i in k order from 0 in a register, the
   additions of spm_matvec (the same bits); triplet A: scattered in k order, as spm_matvec
   on triplets. */
void spm_matmat_packed (const spm *A, int nc, const double *packed, double *const *y)
{
  const int *col = A->col;
  const double *val = A->val;
  if (!A->compressed) {
    for (int j = 0; j < nc; j++) memset (y[j], 0, (size_t) A->nrows * sizeof *y[j]);
    for (long k = 0; k < A->nnz; k++)
      for (int j = 0; j < nc; j++)
        y[j][A->row[k]] += val[k] * packed[(size_t) col[k] * nc + j];
    return;
  }
  const int *rp = A->rowptr;
  if (nc == SPM_MM_CHUNK)  /* the common case, with a constant trip count */
    for (int i = 0; i < A->nrows; i++) {
      double s[SPM_MM_CHUNK] = { 0.0 };
      for (int k = rp[i]; k < rp[i + 1]; k++) {
        double a = val[k];
        const double *w = packed + (size_t) col[k] * SPM_MM_CHUNK;
        for (int j = 0; j < SPM_MM_CHUNK; j++) s[j] += a * w[j];
      }
      for (int j = 0; j < SPM_MM_CHUNK; j++) y[j][i] = s[j];
    }
  else
    for (int i = 0; i < A->nrows; i++) {
      double s[SPM_MM_CHUNK] = { 0.0 };
      for (int k = rp[i]; k < rp[i + 1]; k++) {
        double a = val[k];
        const double *w = packed + (size_t) col[k] * nc;
        for (int j = 0; j < nc; j++) s[j] += a * w[j];
      }
      for (int j = 0; j < nc; j++) y[j][i] = s[j];
    }
}

/* Y = A X for nc <= SPM_MM_CHUNK columns given by pointers: packed into work, then
   spm_matmat_packed. A compressed. */
static void matmat_chunk (const spm *A, int nc, const double *const *x, double *const *y,
                          double *work)
{
  for (int c = 0; c < A->ncols; c++)
    for (int j = 0; j < nc; j++) work[(size_t) c * nc + j] = x[j][c];
  spm_matmat_packed (A, nc, work, y);
}

/* y[j] = A x[j] for nb columns given by pointers, SPM_MM_CHUNK at a time (matmat_chunk);
   a chunk of one column, or a triplet A: spm_matvec. A chunk reads A once for its columns;
   chunks of 8 gain nothing over spm_matvec, as an interleaved row of x values then fills
   a cache line (the timings: scripts/bench/README.md,
   "Behind the comments"). */
void spm_matmat_cols (const spm *A, int nb, const double *const *x, double *const *y,
                      double *work)
{
  for (int j0 = 0; j0 < nb; j0 += SPM_MM_CHUNK) {
    int nc = nb - j0 < SPM_MM_CHUNK ? nb - j0 : SPM_MM_CHUNK;
    if (nc == 1 || !A->compressed)
      for (int j = j0; j < j0 + nc; j++) spm_matvec (A, x[j], y[j]);
    else matmat_chunk (A, nc, x + j0, y + j0, work);
  }
}

/* Y = A X, nb columns: X column-major (ldx >= ncols), Y column-major (ldy >= nrows), by
   spm_matmat_cols on the columns' addresses. */
void spm_matmat (const spm *A, int nb, const double *X, int ldx, double *Y, int ldy,
                 double *work)
{
  for (int j0 = 0; j0 < nb; j0 += SPM_MM_CHUNK) {
    int nc = nb - j0 < SPM_MM_CHUNK ? nb - j0 : SPM_MM_CHUNK;
    const double *x[SPM_MM_CHUNK];
    double *y[SPM_MM_CHUNK];
    for (int j = 0; j < nc; j++) {
      x[j] = X + (size_t) (j0 + j) * ldx;
      y[j] = Y + (size_t) (j0 + j) * ldy;
    }
    spm_matmat_cols (A, nc, x, y, work);
  }
}

void spm_matvec_t (const spm *A, const double *x, double *y)
{
  memset (y, 0, (size_t) A->ncols * sizeof *y);
  for (long k = 0; k < A->nnz; k++) y[A->col[k]] += A->val[k] * x[A->row[k]];
}

double spm_norm_inf (const spm *A)
{
  double *rowsum = mb_calloc ((size_t) A->nrows + 1, sizeof *rowsum);
  double norm = 0.0;
  if (!rowsum) return spm_max_abs (A) * A->ncols;  /* an upper bound */
  for (long k = 0; k < A->nnz; k++) rowsum[A->row[k]] += fabs (A->val[k]);
  for (int i = 0; i < A->nrows; i++) norm = fmax (norm, rowsum[i]);
  free (rowsum);
  return norm;
}

double spm_max_abs (const spm *A)
{
  double m = 0.0;
  for (long k = 0; k < A->nnz; k++) m = fmax (m, fabs (A->val[k]));
  return m;
}

void spm_col_max_abs (const spm *A, double *colmax)
{
  memset (colmax, 0, (size_t) A->ncols * sizeof *colmax);
  for (long k = 0; k < A->nnz; k++) colmax[A->col[k]] = fmax (colmax[A->col[k]], fabs (A->val[k]));
}

/* Binary search of (i, j) in a compressed matrix; returns its value or 0. */
static double spm_lookup (const spm *A, int i, int j)
{
  long lo = 0, hi = A->nnz - 1;
  while (lo <= hi) {
    long mid = lo + (hi - lo) / 2;
    int ri = A->row[mid], cj = A->col[mid];
    if (ri == i && cj == j) return A->val[mid];
    if (ri < i || (ri == i && cj < j)) lo = mid + 1;
    else hi = mid - 1;
  }
  return 0.0;
}

/* Symmetry by one walk over the rows: entries (i, j) come in row order, so the i asked of
   row j never decrease, and a cursor per row (next[j], from rowptr[j]) finds A(j, i) (or
   its absence: 0) in O(nnz) in all. Without the cursors' memory, or on a triplet A, a
   binary search per entry (spm_lookup). */
int spm_is_symmetric (const spm *A, double rtol)
{
  if (A->nrows != A->ncols) return 0;
  double tol = rtol * spm_max_abs (A);
  int *next = A->compressed ? mb_calloc ((size_t) A->nrows + 1, sizeof *next) : NULL;
  if (next) {
    memcpy (next, A->rowptr, (size_t) A->nrows * sizeof *next);
    int sym = 1;
    for (int i = 0; i < A->nrows && sym; i++)
      for (int k = A->rowptr[i]; k < A->rowptr[i + 1]; k++) {
        int j = A->col[k], p = next[j], end = A->rowptr[j + 1];
        while (p < end && A->col[p] < i) p++;
        next[j] = p;
        double t = p < end && A->col[p] == i ? A->val[p] : 0.0;
        if (fabs (A->val[k] - t) > tol) { sym = 0; break; }
      }
    free (next);
    return sym;
  }
  for (long k = 0; k < A->nnz; k++)
    if (fabs (A->val[k] - spm_lookup (A, A->col[k], A->row[k])) > tol) return 0;
  return 1;
}

void spm_scale (spm *A, double alpha)
{
  for (long k = 0; k < A->nnz; k++) A->val[k] *= alpha;
}

void spm_to_dense (const spm *A, double *D)
{
  memset (D, 0, (size_t) A->nrows * (size_t) A->ncols * sizeof *D);
  for (long k = 0; k < A->nnz; k++) D[(size_t) A->col[k] * A->nrows + A->row[k]] += A->val[k];
}

/* Compresses a triplet result (no-op when compressed); frees it and returns NULL when out
   of memory. */
static spm *finish (spm *C)
{
  if (C && spm_compress (C) < 0) return spm_free (C);
  return C;
}

spm *spm_transpose (const spm *A)
{
  /* swapped triplets, compressed: a counting sort (kept simple; O(nnz + n)) */
  spm *T = spm_create (A->ncols, A->nrows, A->nnz);
  if (!T) return NULL;
  for (long k = 0; k < A->nnz; k++) {
    T->row[k] = A->col[k];
    T->col[k] = A->row[k];
    T->val[k] = A->val[k];
  }
  T->nnz = A->nnz;
  return finish (T);
}

spm *spm_multiply (const spm *A, const spm *B)
{
  if (A->ncols != B->nrows) return NULL;
  spm *ta, *tb, *C = NULL;
  const spm *a = compressed_view (A, &ta), *b = compressed_view (B, &tb);
  int n = B->ncols;
  int *mark = mb_calloc ((size_t) n + 1, sizeof *mark);   /* mark[j] = i + 1: C(i,j) seen */
  long *where = mb_calloc ((size_t) n + 1, sizeof *where); /* C(i,j)'s index in C */
  if (!a || !b || !mark || !where) goto done;
  /* Gustavson: row i of C = sum_k A(i,k) B(k,:), accumulated in place (no duplicates) */
  long cap = a->nnz + b->nnz + 16;
  C = spm_create (A->nrows, n, cap);
  if (!C) goto done;
  for (int i = 0; i < a->nrows; i++)
    for (long p = a->rowptr[i]; p < a->rowptr[i + 1]; p++) {
      int k = a->col[p];
      double aik = a->val[p];
      for (long q = b->rowptr[k]; q < b->rowptr[k + 1]; q++) {
        int j = b->col[q];
        if (mark[j] == i + 1) C->val[where[j]] += aik * b->val[q];
        else {
          mark[j] = i + 1;
          where[j] = C->nnz;
          if (spm_add (C, i, j, aik * b->val[q]) < 0) { C = spm_free (C); goto done; }
        }
      }
    }
  C = finish (C);
done:
  spm_free (ta);
  spm_free (tb);
  free (mark);
  free (where);
  return C;
}

spm *spm_sum (double alpha, const spm *A, double beta, const spm *B)
{
  if (A->nrows != B->nrows || A->ncols != B->ncols) return NULL;
  spm *ta, *tb, *C = NULL;
  const spm *a = compressed_view (A, &ta), *b = compressed_view (B, &tb);
  if (!a || !b) goto done;
  C = spm_create (A->nrows, A->ncols, a->nnz + b->nnz);
  if (!C) goto done;
  /* both are sorted by (row, col): one merge gives C sorted with no duplicates */
  long p = 0, q = 0, k = 0;
  while (p < a->nnz || q < b->nnz) {
    int take_a = q == b->nnz
                 || (p < a->nnz && (a->row[p] < b->row[q]
                                    || (a->row[p] == b->row[q] && a->col[p] <= b->col[q])));
    int take_b = p == a->nnz
                 || (q < b->nnz && (b->row[q] < a->row[p]
                                    || (b->row[q] == a->row[p] && b->col[q] <= a->col[p])));
    C->row[k] = take_a ? a->row[p] : b->row[q];
    C->col[k] = take_a ? a->col[p] : b->col[q];
    C->val[k] = (take_a ? alpha * a->val[p] : 0.0) + (take_b ? beta * b->val[q] : 0.0);
    k++;
    p += take_a;
    q += take_b;
  }
  C->nnz = k;
  C = finish (C);
done:
  spm_free (ta);
  spm_free (tb);
  return C;
}

spm *spm_block (const spm *A, int r0, int r1, int c0, int c1)
{
  if (r0 < 0 || r1 < r0 || r1 > A->nrows || c0 < 0 || c1 < c0 || c1 > A->ncols) return NULL;
  spm *C = spm_create (r1 - r0, c1 - c0, 16);
  if (!C) return NULL;
  for (long k = 0; k < A->nnz; k++) {
    int i = A->row[k], j = A->col[k];
    if (i >= r0 && i < r1 && j >= c0 && j < c1 && spm_add (C, i - r0, j - c0, A->val[k]) < 0)
      return spm_free (C);
  }
  return finish (C);
}

spm *spm_select (const spm *A, int nr, const int *rows, int nc, const int *cols)
{
  if (!rows) nr = A->nrows;
  if (!cols) nc = A->ncols;
  if (nr < 0 || nc < 0) return NULL;
  spm *ta, *C = NULL;
  const spm *a = compressed_view (A, &ta);
  int *pos = mb_calloc ((size_t) A->ncols + 1, sizeof *pos);   /* pos[j] = b + 1 or 0 */
  if (!a || !pos) goto done;
  for (int b = 0; b < nc; b++) {
    int j = cols ? cols[b] : b;
    if (j < 0 || j >= A->ncols || pos[j]) goto done;             /* outside, or repeated */
    pos[j] = b + 1;
  }
  for (int r = 0; r < nr; r++)
    if (rows && (rows[r] < 0 || rows[r] >= A->nrows)) goto done;
  C = spm_create (nr, nc, 16);
  if (!C) goto done;
  for (int r = 0; r < nr; r++) {
    int i = rows ? rows[r] : r;
    for (long p = a->rowptr[i]; p < a->rowptr[i + 1]; p++)
      if (pos[a->col[p]] && spm_add (C, r, pos[a->col[p]] - 1, a->val[p]) < 0) {
        C = spm_free (C);
        goto done;
      }
  }
  C = finish (C);
done:
  spm_free (ta);
  free (pos);
  return C;
}

spm *spm_lower (const spm *A)
{
  spm *C = spm_create (A->nrows, A->ncols, A->nnz);
  if (!C) return NULL;
  for (long k = 0; k < A->nnz; k++)
    if (A->row[k] >= A->col[k]) {
      C->row[C->nnz] = A->row[k];
      C->col[C->nnz] = A->col[k];
      C->val[C->nnz] = A->val[k];
      C->nnz++;
    }
  return finish (C);
}

int spm_add_block (spm *T, int r0, int c0, double alpha, const spm *A, int transpose)
{
  int h = transpose ? A->ncols : A->nrows, w = transpose ? A->nrows : A->ncols;
  if (r0 < 0 || c0 < 0 || (long) r0 + h > T->nrows || (long) c0 + w > T->ncols)
    return MB_EUSAGE;
  long nz = A->nnz;                        /* A may be T itself: its entries so far */
  MB_TRY (spm_reserve (T, T->nnz + nz));  /* no reallocation below */
  for (long k = 0; k < nz; k++) {
    int i = transpose ? A->col[k] : A->row[k], j = transpose ? A->row[k] : A->col[k];
    MB_TRY (spm_add (T, r0 + i, c0 + j, alpha * A->val[k]));
  }
  if (T->compressed) to_triplets (T);
  return 0;
}
