/* sparse.c: triplet matrices: growth, compression, products and norms. */
#include "sparse.h"

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

int spm_add (spm *A, int i, int j, double v)
{
  if (A->nnz == A->nzmax) MB_TRY (spm_reserve (A, 2 * A->nzmax + 16));
  A->row[A->nnz] = i;
  A->col[A->nnz] = j;
  A->val[A->nnz] = v;
  A->nnz++;
  return 0;
}

int spm_compress (spm *A)
{
  /* counting sort by column, then stable counting sort by row: (row, col) order */
  long nnz = A->nnz;
  int nmax = A->nrows > A->ncols ? A->nrows : A->ncols;
  long *count = mb_calloc ((size_t) nmax + 1, sizeof *count);
  long *perm = mb_calloc ((size_t) nnz, sizeof *perm);
  long *tmp = mb_calloc ((size_t) nnz, sizeof *tmp);
  if (!count || !perm || !tmp) {
    free (count); free (perm); free (tmp);
    return MB_ENOMEM;
  }
  for (long k = 0; k < nnz; k++) count[A->col[k] + 1]++;
  for (int j = 0; j < nmax; j++) count[j + 1] += count[j];
  for (long k = 0; k < nnz; k++) tmp[count[A->col[k]]++] = k;
  memset (count, 0, ((size_t) nmax + 1) * sizeof *count);
  for (long k = 0; k < nnz; k++) count[A->row[k] + 1]++;
  for (int i = 0; i < nmax; i++) count[i + 1] += count[i];
  for (long t = 0; t < nnz; t++) {
    long k = tmp[t];
    perm[count[A->row[k]]++] = k;
  }
  /* gather in sorted order, summing runs of equal (row, col) */
  int *r = mb_calloc ((size_t) nnz, sizeof *r);
  int *c = mb_calloc ((size_t) nnz, sizeof *c);
  double *v = mb_calloc ((size_t) nnz, sizeof *v);
  if (!r || !c || !v) {
    free (count); free (perm); free (tmp); free (r); free (c); free (v);
    return MB_ENOMEM;
  }
  long out = -1;
  for (long t = 0; t < nnz; t++) {
    long k = perm[t];
    if (out >= 0 && r[out] == A->row[k] && c[out] == A->col[k]) v[out] += A->val[k];
    else {
      out++;
      r[out] = A->row[k];
      c[out] = A->col[k];
      v[out] = A->val[k];
    }
  }
  long kept = out + 1;
  free (A->row); free (A->col); free (A->val);
  A->row = r; A->col = c; A->val = v;
  A->nnz = kept;
  A->nzmax = nnz > 0 ? nnz : 1;
  free (count); free (perm); free (tmp);
  return 0;
}

void spm_matvec (const spm *A, const double *x, double *y)
{
  memset (y, 0, (size_t) A->nrows * sizeof *y);
  for (long k = 0; k < A->nnz; k++) y[A->row[k]] += A->val[k] * x[A->col[k]];
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

int spm_is_symmetric (const spm *A, double rtol)
{
  if (A->nrows != A->ncols) return 0;
  double tol = rtol * spm_max_abs (A);
  for (long k = 0; k < A->nnz; k++)
    if (fabs (A->val[k] - spm_lookup (A, A->col[k], A->row[k])) > tol) return 0;
  return 1;
}
