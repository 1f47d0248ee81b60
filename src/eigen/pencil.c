/* pencil.c: the pencils A - sigma B of GEP (18) and (31) (seed 001), their scaling and
   norms, B x, and residuals of eigenpairs on the unscaled problem. */
#include "pencil.h"

#include "krylov_schur.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* Appends t(i, j) = v, growing the arrays. Returns 0 or MB_ENOMEM (t stays valid for
   ztrip_clear). */
static int ztrip_add (ztrip *t, int i, int j, double complex v)
{
  if (t->nnz == t->cap) {
    long cap = 2 * t->cap + 64;
    int *r = realloc (t->row, (size_t) cap * sizeof *r);
    if (!r) return MB_ENOMEM;
    t->row = r;
    int *c = realloc (t->col, (size_t) cap * sizeof *c);
    if (!c) return MB_ENOMEM;
    t->col = c;
    double complex *w = realloc (t->val, (size_t) cap * sizeof *w);
    if (!w) return MB_ENOMEM;
    t->val = w;
    t->cap = cap;
  }
  t->row[t->nnz] = i;
  t->col[t->nnz] = j;
  t->val[t->nnz] = v;
  t->nnz++;
  return 0;
}

/* Frees the arrays of t and zeroes it. */
void ztrip_clear (ztrip *t)
{
  free (t->row); free (t->col); free (t->val);
  memset (t, 0, sizeof *t);
}

/* The rows of a pencil's matrices that one build reads: rows k0 .. k0 + nk - 1 of K, R (NULL
   for GEP (18), or a damped system without damping) and M and, for the same rows, of Cq^T
   (columns: constraint rows) when the upper block is wanted, then rows c0 .. c0 + nc - 1 of
   Cq (pencil rows n + c0 ..), each a CSR matrix whose row 0 is that first row (the whole
   matrices: k0 = c0 = 0; a rank's part: its rows), columns global. The DOF block is
   K + rcoef R + mcoef M: K - sigma M for GEP (18), P(sigma) = K + sigma R + sigma^2 M for
   the reduced matrix of GEP (31). */
typedef struct pencil_rows {
  int n;                         /* DOFs: pencil row n + r is Cq's row r */
  const spm *K, *R, *M, *Ct, *C; /* R, Ct, C NULL when not read */
  int k0, nk, c0, nc;
  double rcoef, mcoef;
  int k_zero;                    /* 1: K's entries enter as zeros (a complex pencil's
                                    imaginary part: the pattern stays K's) */
} pencil_rows;

/* The next column of row li of A (from *a up to its end, or only columns <= i when
   lower_only: the rows are sorted), n past the end; a NULL A has none. *end: the row's end. */
static int row_start (const spm *A, int li, int i, int lower_only, int n, int *a, int *end)
{
  if (!A) { *a = *end = 0; return n; }
  *a = A->rowptr[li];
  *end = A->rowptr[li + 1];
  if (lower_only) while (*end > *a && A->col[*end - 1] > i) (*end)--;
  return *a < *end ? A->col[*a] : n;
}

/* One pass of a pencil build: the entries of the pencil in compressed order (rows
   ascending, columns ascending in each row), written into A (row, col, val, and its row
   starts rp, from 0 at the first row built) when A is given, else only counted. A column in
   several of K, R, M gets K + rcoef R + mcoef M summed in that order, the sum spm_compress
   forms from the triplets added in that order. Cq's blocks are scaled by s. Returns the
   number of entries. */
static long merge_pass (const pencil_rows *src, double s, int lower_only, spm *A, int *rp)
{
  int n = src->n;
  const spm *K = src->K, *R = src->R, *M = src->M, *Ct = src->Ct, *C = src->C;
  long out = 0;
  for (int li = 0; li < src->nk; li++) {
    int i = src->k0 + li, a, ae, r, re, b, be;
    int ja = row_start (K, li, i, lower_only, n, &a, &ae);
    int jr = row_start (R, li, i, lower_only, n, &r, &re);
    int jb = row_start (M, li, i, lower_only, n, &b, &be);
    while (ja < n || jr < n || jb < n) {
      int j = ja < jr ? ja : jr;
      if (jb < j) j = jb;
      if (A) {
        double v = 0.0;
        int has = 0;
        if (ja == j) v = src->k_zero ? 0.0 * K->val[a] : K->val[a], has = 1;
        if (jr == j) v = has ? v + src->rcoef * R->val[r] : src->rcoef * R->val[r], has = 1;
        if (jb == j) v = has ? v + src->mcoef * M->val[b] : src->mcoef * M->val[b];
        A->row[out] = i;
        A->col[out] = j;
        A->val[out] = v;
      }
      if (ja == j) ja = ++a < ae ? K->col[a] : n;
      if (jr == j) jr = ++r < re ? R->col[r] : n;
      if (jb == j) jb = ++b < be ? M->col[b] : n;
      out++;
    }
    if (Ct)
      for (int k = Ct->rowptr[li]; k < Ct->rowptr[li + 1]; k++, out++)
        if (A) {
          A->row[out] = i;
          A->col[out] = n + Ct->col[k];
          A->val[out] = s * Ct->val[k];
        }
    if (rp) rp[li + 1] = (int) out;
  }
  for (int lr = 0; lr < src->nc; lr++) {
    if (C)
      for (int k = C->rowptr[lr]; k < C->rowptr[lr + 1]; k++, out++)
        if (A) {
          A->row[out] = n + src->c0 + lr;
          A->col[out] = C->col[k];
          A->val[out] = s * C->val[k];
        }
    if (rp) rp[src->nk + lr + 1] = (int) out;
  }
  return out;
}

/* A pencil straight into compressed form when K, R, M and Cq are compressed: row by row,
   the (lower parts of the) sorted rows of K, R and M merged (K + rcoef R + mcoef M), then
   s Cq^T's entries of the row (from Cq's transpose, sorted), and the rows of s Cq. A column
   in several of them gets the sum spm_compress forms from the triplets added K, R, M in
   that order, and stored zeros stay: the same matrix bit for bit as the triplet build
   (pencil_undamped's, pencil_damped_reduced_real's), without the triplets and their sort.
   A counting pass first, so that the arrays have exactly the entries' size. Returns a new
   compressed matrix (caller frees) or NULL when out of memory. */
static spm *pencil_merge (const gep_system *sys, const spm *R, double rcoef, double mcoef,
                          double s, int lower_only)
{
  int n = sys->n, m = sys->m;
  const spm *C = sys->Cq && sys->Cq->nnz > 0 ? sys->Cq : NULL;
  spm *Ct = C && !lower_only ? spm_transpose (C) : NULL;  /* n x m, rows sorted */
  if (C && !lower_only && !Ct) return NULL;
  pencil_rows src = { n, sys->K, R, sys->M, Ct, C, 0, n, 0, C ? m : 0, rcoef, mcoef, 0 };
  long nnz = merge_pass (&src, s, lower_only, NULL, NULL);
  spm *A = nnz <= INT_MAX ? spm_create (n + m, n + m, nnz) : NULL;
  int *rp = mb_calloc ((size_t) (n + m) + 1, sizeof *rp);
  if (!A || !rp) {
    spm_free (Ct); free (rp);
    return spm_free (A);
  }
  A->nnz = merge_pass (&src, s, lower_only, A, rp);
  for (int r = C ? m : 0; r < m; r++) rp[n + r + 1] = (int) A->nnz;  /* no Cq: empty rows */
  A->rowptr = rp;
  A->compressed = 1;
  spm_free (Ct);
  return A;
}

/* 1 when K, M (R when given) and Cq are compressed and of n rows: pencil_merge takes them. */
static int mergeable (const gep_system *sys, const spm *R)
{
  int n = sys->n;
  return sys->K->compressed && sys->M->compressed && (!sys->Cq || sys->Cq->compressed)
         && sys->K->nrows == n && sys->M->nrows == n
         && (!R || (R->compressed && R->nrows == n));
}

/* A - sigma B = [K - sigma M, s Cq^T; s Cq, 0] as real triplets; only the lower triangle
   when lower_only (for LDL^T). Returns a new matrix (caller frees) or NULL. Compressed K, M
   and Cq (as the stages have them): pencil_merge; otherwise triplets compressed. */
spm *pencil_undamped (const gep_system *sys, double sigma, double s, int lower_only)
{
  int n = sys->n, m = sys->m;
  if (mergeable (sys, NULL)) return pencil_merge (sys, NULL, 0.0, -sigma, s, lower_only);
  long cq_nnz = sys->Cq ? sys->Cq->nnz : 0;
  spm *A = spm_create (n + m, n + m, sys->K->nnz + sys->M->nnz + 2 * cq_nnz);
  if (!A) return NULL;
  int rc = 0;
  for (long k = 0; k < sys->K->nnz && rc == 0; k++)
    if (!lower_only || sys->K->row[k] >= sys->K->col[k])
      rc = spm_add (A, sys->K->row[k], sys->K->col[k], sys->K->val[k]);
  for (long k = 0; k < sys->M->nnz && rc == 0; k++)
    if (!lower_only || sys->M->row[k] >= sys->M->col[k])
      rc = spm_add (A, sys->M->row[k], sys->M->col[k], -sigma * sys->M->val[k]);
  for (long k = 0; k < cq_nnz && rc == 0; k++) {
    rc = spm_add (A, n + sys->Cq->row[k], sys->Cq->col[k], s * sys->Cq->val[k]);
    if (rc == 0 && !lower_only)
      rc = spm_add (A, sys->Cq->col[k], n + sys->Cq->row[k], s * sys->Cq->val[k]);
  }
  if (rc == 0) rc = spm_compress (A);
  return rc == 0 ? A : spm_free (A);
}

/* A - sigma B for GEP (31) in balanced form (order 2n + m). With u~ = w u (w a power of two
   near sqrt(max|K| / max|M|), a typical omega) and xi = s xi~, the rows
       w v = lambda u~,   -(K/w) u~ - R v - s Cq^T xi~ = lambda M v,   -(s/w) Cq u~ = 0
   have entries of one size, while lambda is unchanged:
       A - sigma B = [-sigma I, w I, 0; -K/w, -R - sigma M, -s Cq^T; -(s/w) Cq, 0, 0].
   Unbalanced, the identity blocks beside K make some eigenvalues far more sensitive than
   the Krylov-Schur tolerance says. */
int pencil_damped (const gep_system *sys, double complex sigma, double s, double w, ztrip *t)
{
  int n = sys->n;
  for (int i = 0; i < n; i++) {
    MB_TRY (ztrip_add (t, i, i, -sigma));
    MB_TRY (ztrip_add (t, i, n + i, w));
  }
  for (long k = 0; k < sys->K->nnz; k++)
    MB_TRY (ztrip_add (t, n + sys->K->row[k], sys->K->col[k], -sys->K->val[k] / w));
  if (sys->R)
    for (long k = 0; k < sys->R->nnz; k++)
      MB_TRY (ztrip_add (t, n + sys->R->row[k], n + sys->R->col[k], -sys->R->val[k]));
  for (long k = 0; k < sys->M->nnz; k++)
    MB_TRY (ztrip_add (t, n + sys->M->row[k], n + sys->M->col[k], -sigma * sys->M->val[k]));
  if (sys->Cq)
    for (long k = 0; k < sys->Cq->nnz; k++) {
      MB_TRY (ztrip_add (t, n + sys->Cq->col[k], 2 * n + sys->Cq->row[k], -s * sys->Cq->val[k]));
      MB_TRY (ztrip_add (t, 2 * n + sys->Cq->row[k], sys->Cq->col[k], -s / w * sys->Cq->val[k]));
    }
  return 0;
}

/* Adds alpha A (or only its lower triangle) at block offset (r0, c0) to T, transposed when
   transpose. Returns 0 or MB_ENOMEM. */
static int add_part (spm *T, const spm *A, double alpha, int r0, int c0, int transpose,
                     int lower_only)
{
  if (!A) return 0;
  for (long k = 0; k < A->nnz; k++) {
    int i = r0 + (transpose ? A->col[k] : A->row[k]);
    int j = c0 + (transpose ? A->row[k] : A->col[k]);
    if (lower_only && i < j) continue;
    MB_TRY (spm_add (T, i, j, alpha * A->val[k]));
  }
  return 0;
}

/* [P(sigma), c Cq^T; c Cq, 0], P(sigma) = K + sigma R + sigma^2 M (see pencil.h). The real
   and imaginary parts are summed as two real matrices from the same triplets in the same
   order (zeros included), so that their compressed patterns are identical and their
   entries pair up one to one. */
int pencil_damped_reduced (const gep_system *sys, double complex sigma, double c,
                           int lower_only, ztrip *t)
{
  int n = sys->n, m = sys->m, rc = 0;
  double complex s2 = sigma * sigma;
  long cap = sys->K->nnz + sys->M->nnz + (sys->R ? sys->R->nnz : 0)
           + 2 * (sys->Cq ? sys->Cq->nnz : 0);
  spm *re = spm_create (n + m, n + m, cap), *im = spm_create (n + m, n + m, cap);
  if (!re || !im) rc = MB_ENOMEM;
  if (rc == 0) rc = add_part (re, sys->K, 1.0, 0, 0, 0, lower_only);
  if (rc == 0) rc = add_part (im, sys->K, 0.0, 0, 0, 0, lower_only);
  if (rc == 0) rc = add_part (re, sys->R, creal (sigma), 0, 0, 0, lower_only);
  if (rc == 0) rc = add_part (im, sys->R, cimag (sigma), 0, 0, 0, lower_only);
  if (rc == 0) rc = add_part (re, sys->M, creal (s2), 0, 0, 0, lower_only);
  if (rc == 0) rc = add_part (im, sys->M, cimag (s2), 0, 0, 0, lower_only);
  if (rc == 0) rc = add_part (re, sys->Cq, c, n, 0, 0, lower_only);
  if (rc == 0) rc = add_part (im, sys->Cq, 0.0, n, 0, 0, lower_only);
  if (rc == 0 && !lower_only) rc = add_part (re, sys->Cq, c, 0, n, 1, 0);
  if (rc == 0 && !lower_only) rc = add_part (im, sys->Cq, 0.0, 0, n, 1, 0);
  if (rc == 0) rc = spm_compress (re);
  if (rc == 0) rc = spm_compress (im);
  if (rc == 0 && re->nnz != im->nnz) rc = MB_ENOMEM;  /* cannot happen: same triplets */
  if (rc == 0 && re->nnz > 0) {
    t->row = malloc ((size_t) re->nnz * sizeof *t->row);
    t->col = malloc ((size_t) re->nnz * sizeof *t->col);
    t->val = malloc ((size_t) re->nnz * sizeof *t->val);
    if (!t->row || !t->col || !t->val) rc = MB_ENOMEM;
  }
  if (rc == 0) {
    for (long k = 0; k < re->nnz; k++) {
      t->row[k] = re->row[k];
      t->col[k] = re->col[k];
      t->val[k] = CMPLX (re->val[k], im->val[k]);
    }
    t->nnz = t->cap = re->nnz;
  }
  spm_free (re);
  spm_free (im);
  return rc;
}

/* [P(sigma), c Cq^T; c Cq, 0] for a real sigma (see pencil.h): K + sigma R + sigma^2 M
   summed from the same triplets as pencil_damped_reduced's real part; merged row by row
   (pencil_merge, the same matrix bit for bit) when the matrices are compressed. */
spm *pencil_damped_reduced_real (const gep_system *sys, double sigma, double c, int lower_only)
{
  int n = sys->n, m = sys->m, rc = 0;
  if (mergeable (sys, sys->R))
    return pencil_merge (sys, sys->R, sigma, sigma * sigma, c, lower_only);
  long cap = sys->K->nnz + sys->M->nnz + (sys->R ? sys->R->nnz : 0)
           + 2 * (sys->Cq ? sys->Cq->nnz : 0);
  spm *A = spm_create (n + m, n + m, cap);
  if (!A) return NULL;
  rc = add_part (A, sys->K, 1.0, 0, 0, 0, lower_only);
  if (rc == 0) rc = add_part (A, sys->R, sigma, 0, 0, 0, lower_only);
  if (rc == 0) rc = add_part (A, sys->M, sigma * sigma, 0, 0, 0, lower_only);
  if (rc == 0) rc = add_part (A, sys->Cq, c, n, 0, 0, lower_only);
  if (rc == 0 && !lower_only) rc = add_part (A, sys->Cq, c, 0, n, 1, 0);
  if (rc == 0) rc = spm_compress (A);
  return rc == 0 ? A : spm_free (A);
}

/* Relative residual of (lambda, [phi; xi]) for GEP (18), unscaled, infinity norms:
   r = [K phi + Cq^T xi - lambda M phi; Cq phi], ||r|| / ((||A|| + |lambda| ||B||) ||phi||).
   ||phi|| rather than ||[phi; xi]||: the multipliers are forces, of K's size, and would make
   the quotient look better than the mode is. work: 2 n + m doubles, caller owned. */
double pencil_residual_undamped_real (const gep_system *sys, double lambda, const double *phi,
                                      const double *xi, double anorm, double bnorm,
                                      double *work)
{
  int n = sys->n, m = sys->m;
  double *r = work, *t = work + n + m;
  spm_matvec (sys->K, phi, r);
  spm_matvec (sys->M, phi, t);
  for (int i = 0; i < n; i++) r[i] -= lambda * t[i];
  for (int i = 0; i < m; i++) r[n + i] = 0.0;
  if (sys->Cq)
    for (long k = 0; k < sys->Cq->nnz; k++) {
      r[sys->Cq->col[k]] += sys->Cq->val[k] * xi[sys->Cq->row[k]];
      r[n + sys->Cq->row[k]] += sys->Cq->val[k] * phi[sys->Cq->col[k]];
    }
  double xn = 0.0, rn = 0.0;  /* inf-norms: of the DOFs (not the multipliers), of r */
  for (int i = 0; i < n; i++) xn = fmax (xn, fabs (phi[i]));
  for (int i = 0; i < n + m; i++) rn = fmax (rn, fabs (r[i]));
  return rn / ((anorm + fabs (lambda) * bnorm) * (xn > 0.0 ? xn : 1.0));
}

/* The balancing factor w of the damped pencil: a power of two near sqrt(max|K| / max|M|). */
double pencil_omega_scale (const gep_system *sys)
{
  const gep_measures *ms = sys->measures;  /* by rows: measured over the ranks */
  double kmax = ms ? ms->kmax : spm_max_abs (sys->K), mmax = ms ? ms->mmax : spm_max_abs (sys->M);
  if (!(kmax > 0.0) || !(mmax > 0.0)) return 1.0;
  return ldexp (1.0, (int) lround (0.5 * log2 (kmax / mmax)));
}

/* Scale for Cq so that its entries match K's magnitude (seed 001, sec. 5): a power of two
   near max|K| / max|Cq|, so scaling and scaling back are exact. */
double pencil_cq_scale (const gep_system *sys)
{
  const gep_measures *ms = sys->measures;
  if (ms ? ms->cmax == 0.0 : !sys->Cq || sys->Cq->nnz == 0) return 1.0;
  double kmax = ms ? ms->kmax : spm_max_abs (sys->K), cmax = ms ? ms->cmax : spm_max_abs (sys->Cq);
  if (!(kmax > 0.0) || !(cmax > 0.0)) return 1.0;
  return ldexp (1.0, (int) lround (log2 (kmax / cmax)));
}

/* Adds the row sums of |A| (column sums when transpose) into sums. */
static void abs_row_sums (const spm *A, double *sums, int transpose)
{
  if (!A) return;
  for (long k = 0; k < A->nnz; k++) sums[transpose ? A->col[k] : A->row[k]] += fabs (A->val[k]);
}

/* Infinity norms of the unscaled pencil: ||A||, ||B|| for GEP (18) or (31). Returns 0 or
   MB_ENOMEM (err set). */
int pencil_norms (const gep_system *sys, int damped, double *anorm, double *bnorm, mb_err *err)
{
  int n = sys->n, m = sys->m;
  if (sys->measures && !damped) {  /* by rows: measured over the ranks */
    *anorm = sys->measures->anorm;
    *bnorm = sys->measures->bnorm;
    return 0;
  }
  double *rows = mb_calloc ((size_t) (n + m), sizeof *rows);
  double *mrows = mb_calloc ((size_t) n, sizeof *mrows);
  *anorm = *bnorm = 1.0;
  if (!rows || !mrows) {
    free (rows); free (mrows);
    return mb_fail (err, MB_ENOMEM, "out of memory for the pencil norms");
  }
  abs_row_sums (sys->K, rows, 0);
  if (damped) abs_row_sums (sys->R, rows, 0);
  abs_row_sums (sys->Cq, rows, 1);   /* Cq^T in the first block rows */
  if (sys->Cq) for (long k = 0; k < sys->Cq->nnz; k++) rows[n + sys->Cq->row[k]] += fabs (sys->Cq->val[k]);
  abs_row_sums (sys->M, mrows, 0);
  double a = damped ? 1.0 : 0.0, b = damped ? 1.0 : 0.0;
  for (int i = 0; i < n + m; i++) a = fmax (a, rows[i]);
  for (int i = 0; i < n; i++) b = fmax (b, mrows[i]);
  *anorm = a > 0.0 ? a : 1.0;
  *bnorm = b > 0.0 ? b : 1.0;
  free (rows); free (mrows);
  return 0;
}

/* ---- the undamped system by rows ---------------------------------------------------- */

void gep_parts_clear (gep_parts *P)
{
  spm_part_clear (&P->K);
  spm_part_clear (&P->R);
  spm_part_clear (&P->M);
  spm_part_clear (&P->Cq);
  spm_part_clear (&P->CqT);
  memset (P, 0, sizeof *P);
}

/* The pencil layout's rows of this rank (ks_dist over n + m) split into DOF rows
   [k0, k1) and constraint rows [c0, c1) (0-based in Cq), into P's sizes. */
static void parts_layout (MPI_Comm comm, int n, int m, gep_parts *P, int *k0, int *k1,
                          int *c0, int *c1)
{
  memset (P, 0, sizeof *P);
  ks_dist d;
  ks_dist_init (&d, comm, n + m);
  int lo = d.row0, hi = d.row0 + d.nloc;
  *k0 = lo < n ? lo : n;
  *k1 = hi < n ? hi : n;
  *c0 = (lo > n ? lo : n) - n;
  *c1 = (hi > n ? hi : n) - n;
  P->n = n;
  P->m = m;
  P->N = n + m;
  P->row0 = d.row0;
  P->nloc = d.nloc;
}

/* Collective. Cq^T's rows [k0, k1) from the Cq parts: each entry (r, c) of
   Cq sent as (c, r) to the owner of DOF row c. */
static int route_cq_transpose (MPI_Comm comm, gep_parts *P, int k0, int k1, mb_err *err)
{
  const spm *C = &P->Cq.L;
  long nnz = C->nnz;
  int *ri = spm_part_rows (&P->Cq);
  int rc = ri ? 0 : mb_fail (err, MB_ENOMEM, "out of memory for Cq^T's rows (%ld entries)",
                             nnz);
  if ((rc = mb_agree (comm, rc, err)) < 0) { free (ri); return rc; }
  rc = spm_part_route (comm, P->n, P->m, nnz, C->col, ri, C->val, k0, k1 - k0, &P->CqT, err);
  free (ri);
  return rc;
}

/* Collective. The end of gep_parts_scatter and gep_parts_route once Cq's rows are in (rc
   their code): Cq^T's rows routed when there is a Cq, or P cleared after a failure. */
static int parts_done (MPI_Comm comm, gep_parts *P, int rc, int has_cq, int k0, int k1,
                       mb_err *err)
{
  if (rc == 0 && has_cq) rc = route_cq_transpose (comm, P, k0, k1, err);
  if (rc < 0) gep_parts_clear (P);
  return rc;
}

/* K's, M's and Cq's rows scattered from rank 0 (its own borrowed); Cq^T's by routing this
   rank's Cq entries (r, c) as (c, r) to the ranks that own DOF c. */
int gep_parts_scatter (MPI_Comm comm, const gep_system *sys, int with_r, gep_parts *P,
                       mb_err *err)
{
  int rank, rc = 0, k0, k1, c0, c1;
  MPI_Comm_rank (comm, &rank);
  parts_layout (comm, sys->n, sys->m, P, &k0, &k1, &c0, &c1);
  int has[2] = { rank == 0 && sys->Cq && sys->Cq->nnz > 0, rank == 0 && with_r && sys->R };
  MPI_Bcast (has, 2, MPI_INT, 0, comm);
  int has_cq = has[0];
  if ((rc = spm_part_scatter (comm, rank == 0 ? sys->K : NULL, k0, k1 - k0, &P->K, err)) < 0
      || (rc = spm_part_scatter (comm, rank == 0 ? sys->M : NULL, k0, k1 - k0, &P->M, err)) < 0
      || (has[1] && (rc = spm_part_scatter (comm, rank == 0 ? sys->R : NULL, k0, k1 - k0,
                                            &P->R, err)) < 0))
    goto fail;
  if (has_cq)
    rc = spm_part_scatter (comm, rank == 0 ? sys->Cq : NULL, c0, c1 - c0, &P->Cq, err);
  return parts_done (comm, P, rc, has_cq, k0, k1, err);
fail:
  gep_parts_clear (P);
  return rc;
}

int gep_parts_route (MPI_Comm comm, int n, int m, const spm *K, const spm *M, const spm *R,
                     const spm *Cq, gep_parts *P, mb_err *err)
{
  int rc = 0, k0, k1, c0, c1, has_r = R != NULL, any_r = 0;
  parts_layout (comm, n, m, P, &k0, &k1, &c0, &c1);
  long cq_nnz = Cq ? Cq->nnz : 0, cq_all = 0;
  MPI_Allreduce (&cq_nnz, &cq_all, 1, MPI_LONG, MPI_SUM, comm);
  MPI_Allreduce (&has_r, &any_r, 1, MPI_INT, MPI_MAX, comm);
  if ((rc = spm_part_route (comm, n, n, K->nnz, K->row, K->col, K->val, k0, k1 - k0, &P->K,
                            err)) < 0
      || (rc = spm_part_route (comm, n, n, M->nnz, M->row, M->col, M->val, k0, k1 - k0,
                               &P->M, err)) < 0
      || (any_r && (rc = spm_part_route (comm, n, n, R ? R->nnz : 0, R ? R->row : NULL,
                                         R ? R->col : NULL, R ? R->val : NULL, k0, k1 - k0,
                                         &P->R, err)) < 0))
    goto fail;
  if (cq_all > 0)
    rc = spm_part_route (comm, m, n, cq_nnz, Cq ? Cq->row : NULL, Cq ? Cq->col : NULL,
                         Cq ? Cq->val : NULL, c0, c1 - c0, &P->Cq, err);
  return parts_done (comm, P, rc, cq_all > 0, k0, k1, err);
fail:
  gep_parts_clear (P);
  return rc;
}

int gep_parts_gather (MPI_Comm comm, const gep_parts *P, spm **K, spm **M, spm **Cq,
                      spm **R, mb_err *err)
{
  int rank, rc, has[2] = { P->Cq.L.rowptr != NULL, R && P->R.L.rowptr != NULL }, any2[2];
  MPI_Comm_rank (comm, &rank);
  MPI_Allreduce (has, any2, 2, MPI_INT, MPI_MAX, comm);
  int any = any2[0];
  spm *k = NULL, *mm = NULL, *c = NULL, *r = NULL;
  rc = spm_part_gather (comm, &P->K, P->n, P->n, &k, err);
  if (rc == 0) rc = spm_part_gather (comm, &P->M, P->n, P->n, &mm, err);
  if (rc == 0 && any2[1]) rc = spm_part_gather (comm, &P->R, P->n, P->n, &r, err);
  if (rc == 0 && any) rc = spm_part_gather (comm, &P->Cq, P->m, P->n, &c, err);
  if (rc == 0 && !any && P->m > 0 && rank == 0 && !(c = spm_create (P->m, P->n, 1)))
    rc = mb_fail (err, MB_ENOMEM, "out of memory for Cq");
  if (rc == 0 && c && rank == 0 && spm_compress (c) < 0)
    rc = mb_fail (err, MB_ENOMEM, "out of memory for Cq");
  rc = mb_agree (comm, rc, err);
  if (rc < 0) {
    spm_free (k); spm_free (mm); spm_free (c); spm_free (r);
    return rc;
  }
  if (rank == 0) {
    *K = k, *M = mm, *Cq = c;
    if (R) *R = r;
  }
  return 0;
}

/* This rank's rows of a pencil from its parts (src: the parts' rows and the DOF block's
   coefficients), built as merge_pass builds the whole: a counting pass, then the entries
   into a part of an N x N matrix (first = row0). Returns 0 or MB_ENOMEM (A empty then). */
static int pencil_part_build (const gep_parts *P, const pencil_rows *src, double s,
                              int lower_only, spm_part *A)
{
  memset (A, 0, sizeof *A);
  long nnz = merge_pass (src, s, lower_only, NULL, NULL);
  spm T = { 0 };  /* merge_pass writes rows too: a scratch row array */
  int nl = P->nloc;
  T.row = nnz <= INT_MAX ? mb_calloc (nnz > 0 ? (size_t) nnz : 1, sizeof *T.row) : NULL;
  T.col = mb_calloc (nnz > 0 ? (size_t) nnz : 1, sizeof *T.col);
  T.val = mb_calloc (nnz > 0 ? (size_t) nnz : 1, sizeof *T.val);
  int *rp = mb_calloc ((size_t) nl + 1, sizeof *rp);
  if (!T.row || !T.col || !T.val || !rp) {
    free (T.row); free (T.col); free (T.val); free (rp);
    return MB_ENOMEM;
  }
  long got = merge_pass (src, s, lower_only, &T, rp);
  /* rows of the layout with nothing built (constraint rows without Cq) stay empty */
  for (int r = src->nk + src->nc; r < nl; r++) rp[r + 1] = (int) got;
  free (T.row);
  A->first = P->row0;
  A->L.nrows = nl;
  A->L.ncols = P->N;
  A->L.nnz = A->L.nzmax = got;
  A->L.col = T.col;
  A->L.val = T.val;
  A->L.rowptr = rp;
  A->L.compressed = 1;
  return 0;
}

/* The rows of P that a pencil build reads, with R when with_r (and P has it). */
static pencil_rows parts_rows (const gep_parts *P, int with_r, int lower_only, double rcoef,
                               double mcoef)
{
  int has_cq = P->Cq.L.rowptr != NULL;
  pencil_rows src = { P->n, &P->K.L, with_r && P->R.L.rowptr ? &P->R.L : NULL, &P->M.L,
                      has_cq && !lower_only ? &P->CqT.L : NULL, has_cq ? &P->Cq.L : NULL,
                      P->K.L.nrows > 0 ? P->K.first : 0, P->K.L.nrows,
                      P->Cq.L.nrows > 0 ? P->Cq.first : 0, has_cq ? P->Cq.L.nrows : 0,
                      rcoef, mcoef, 0 };
  return src;
}

int pencil_undamped_part (const gep_parts *P, double sigma, double s, int lower_only,
                          spm_part *A)
{
  pencil_rows src = parts_rows (P, 0, lower_only, 0.0, -sigma);
  return pencil_part_build (P, &src, s, lower_only, A);
}

int pencil_damped_reduced_part (const gep_parts *P, double sigma, double c, int lower_only,
                                spm_part *A)
{
  pencil_rows src = parts_rows (P, 1, lower_only, sigma, sigma * sigma);
  return pencil_part_build (P, &src, c, lower_only, A);
}

/* The rows of pencil_damped_reduced_part at a complex sigma: its real part (K + Re sigma R
   + Re sigma^2 M, c Cq) and its imaginary part (0 K + Im sigma R + Im sigma^2 M, 0 Cq) built
   by the same row merge (merge_pass), so that their patterns are one and their entries pair
   up one to one, as pencil_damped_reduced pairs the whole matrix's. Owns nothing on return
   but t's arrays. */
int pencil_damped_reduced_part_z (const gep_parts *P, double complex sigma, double c,
                                  int lower_only, ztrip *t)
{
  double complex s2 = sigma * sigma;
  pencil_rows sre = parts_rows (P, 1, lower_only, creal (sigma), creal (s2));
  pencil_rows sim = parts_rows (P, 1, lower_only, cimag (sigma), cimag (s2));
  sim.k_zero = 1;
  spm_part re, im;
  memset (t, 0, sizeof *t);
  memset (&im, 0, sizeof im);
  int rc = pencil_part_build (P, &sre, c, lower_only, &re);
  if (rc == 0) rc = pencil_part_build (P, &sim, 0.0, lower_only, &im);
  if (rc == 0 && re.L.nnz != im.L.nnz) rc = MB_ENOMEM;  /* cannot happen: one merge */
  long nnz = rc == 0 ? re.L.nnz : 0;
  if (rc == 0) {
    t->row = mb_calloc (nnz > 0 ? (size_t) nnz : 1, sizeof *t->row);
    t->col = mb_calloc (nnz > 0 ? (size_t) nnz : 1, sizeof *t->col);
    t->val = mb_calloc (nnz > 0 ? (size_t) nnz : 1, sizeof *t->val);
    if (!t->row || !t->col || !t->val) rc = MB_ENOMEM;
  }
  for (int i = 0; rc == 0 && i < re.L.nrows; i++)
    for (int k = re.L.rowptr[i]; k < re.L.rowptr[i + 1]; k++) {
      t->row[k] = re.first + i;
      t->col[k] = re.L.col[k];
      t->val[k] = CMPLX (re.L.val[k], im.L.val[k]);
    }
  if (rc == 0) t->nnz = t->cap = nnz;
  else ztrip_clear (t);
  spm_part_clear (&re);
  spm_part_clear (&im);
  return rc;
}

/* Largest |value| and largest row sum of |values| of a part's rows (0, 0 when empty). */
static void part_abs (const spm_part *P, double *maxabs, double *maxrow)
{
  const spm *L = &P->L;
  *maxabs = *maxrow = 0.0;
  for (int i = 0; i < L->nrows; i++) {
    double s = 0.0;
    for (int k = L->rowptr[i]; k < L->rowptr[i + 1]; k++) {
      s += fabs (L->val[k]);
      *maxabs = fmax (*maxabs, fabs (L->val[k]));
    }
    *maxrow = fmax (*maxrow, s);
  }
}

/* Every rank: its rows' maxima and row sums (the DOF rows of A summed as pencil_norms sums
   them: K's row, then Cq^T's row, which holds Cq's column in Cq's row order), the rows of M
   with a nonzero; one reduction each; symmetry by spm_part_is_symmetric. */
int gep_measure_parts (MPI_Comm comm, const gep_parts *P, int symmetric, gep_measures *ms,
                       mb_err *err)
{
  memset (ms, 0, sizeof *ms);
  double loc[5] = { 0 };  /* kmax, mmax, cmax, anorm, bnorm */
  part_abs (&P->M, &loc[1], &loc[4]);
  part_abs (&P->Cq, &loc[2], &loc[3]);   /* constraint rows of A: Cq's rows */
  const spm *K = &P->K.L, *T = &P->CqT.L;
  for (int i = 0; i < K->nrows; i++) {
    double s = 0.0;
    for (int k = K->rowptr[i]; k < K->rowptr[i + 1]; k++) {
      s += fabs (K->val[k]);
      loc[0] = fmax (loc[0], fabs (K->val[k]));
    }
    for (int k = T->rowptr ? T->rowptr[i] : 0; T->rowptr && k < T->rowptr[i + 1]; k++)
      s += fabs (T->val[k]);
    loc[3] = fmax (loc[3], s);
  }
  long dofs[2] = { 0, 0 }, dofs_all[2];  /* with mass; massless with damping */
  const spm *R = P->R.L.rowptr ? &P->R.L : NULL;
  double rmax = 0.0, rmax_all;
  for (long k = 0; R && k < R->nnz; k++) rmax = fmax (rmax, fabs (R->val[k]));
  for (int i = 0; i < P->M.L.nrows; i++) {
    int has = 0, damp = 0;
    for (int k = P->M.L.rowptr[i]; k < P->M.L.rowptr[i + 1]; k++) has |= P->M.L.val[k] != 0.0;
    for (int k = R ? R->rowptr[i] : 0; R && k < R->rowptr[i + 1]; k++) damp |= R->val[k] != 0.0;
    dofs[0] += has;
    dofs[1] += !has && damp;
  }
  double all[5];
  int has_r = R != NULL;
  MPI_Allreduce (loc, all, 5, MPI_DOUBLE, MPI_MAX, comm);
  MPI_Allreduce (dofs, dofs_all, 2, MPI_LONG, MPI_SUM, comm);
  MPI_Allreduce (&rmax, &rmax_all, 1, MPI_DOUBLE, MPI_MAX, comm);
  MPI_Allreduce (&has_r, &ms->has_r, 1, MPI_INT, MPI_MAX, comm);
  ms->mass_dofs = dofs_all[0];
  ms->damped_dofs = dofs_all[1];
  ms->rmax = rmax_all;
  ms->kmax = all[0];
  ms->mmax = all[1];
  ms->cmax = all[2];
  ms->anorm = all[3] > 0.0 ? all[3] : 1.0;
  ms->bnorm = all[4] > 0.0 ? all[4] : 1.0;
  int ksym = 1, msym = 1, rsym = 1, rc = 0;
  if (!symmetric) rc = spm_part_is_symmetric (comm, &P->K, P->n, 1e-12, &ksym, err);
  if (rc == 0 && !symmetric) rc = spm_part_is_symmetric (comm, &P->M, P->n, 1e-12, &msym, err);
  if (rc == 0 && !symmetric && ms->has_r)
    rc = spm_part_is_symmetric (comm, &P->R, P->n, 1e-12, &rsym, err);
  ms->symmetric = ksym && msym;
  ms->damped_symmetric = ksym && msym && rsym;
  return rc;
}
