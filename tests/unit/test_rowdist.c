/* test_rowdist.c: the row-distributed product against spm_matvec on rank 0's whole matrix, bit for bit; the halo plan against the structure; errors and faults agreed. */
/* References: each column of Y = A X, gathered on rank 0, must equal spm_matvec (A, x) on
   the whole compressed matrix bit for bit (the serial product, tested against dense
   products in test_sparse), and 0 on the layout's rows >= n. The halo sizes of the banded
   matrices come from their structure: a matrix of half bandwidth b on blocks of at least b
   rows needs b entries from each neighbouring rank and none from any other. */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <mpi.h>

#include "check.h"
#include "linalg/rowdist.h"

static int rank, nranks;

/* CHECK on rank 0 only; the value is agreed over the ranks first (1 when every rank's c is
   true). Collective: every rank calls it. */
static void check_all (const char *descr, int c, const char *file, int line)
{
  int all;
  MPI_Allreduce (&c, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (rank == 0) {
    n_run++;
    if (all) n_pass++;
    else printf ("FAIL %s:%d: %s\n", file, line, descr);
  }
}
#define CHECK_ALL(descr, c) check_all (descr, (c), __FILE__, __LINE__)

static unsigned seed = 4711u;
static unsigned next_rand (void)
{
  seed = seed * 1103515245u + 12345u;
  return (seed >> 8) & 0xffffff;
}
static int irand (int n) { return (int) (next_rand () % (unsigned) n); }
/* Values of mixed sign and magnitudes 1e-6 .. 1e6, so that another order of the additions
   would change bits. */
static double vrand (void)
{
  double u = next_rand () / 16777216.0 - 0.5;
  return u * pow (10.0, irand (13) - 6);
}

/* This rank's block of the layout of order N: the formula of ks_dist_init. */
static void block_of (int N, int r, int *row0, int *nloc)
{
  *row0 = (int) ((long) N * r / nranks);
  *nloc = (int) ((long) N * (r + 1) / nranks) - *row0;
}

/* Collective. The rows of A (compressed, rank 0's; n = its order, the same on every rank)
   in the layout (row0, nloc) of order N, built as the stages build them: this rank's part
   of A's rows, those among row0 .. row0 + nloc - 1 (spm_part_scatter), then the halo plan
   (spm_rows_from_part, which borrows P's values: clear P after the result). NULL with err
   set, agreed, when either step fails. */
static spm_rows *rows_of (const spm *A, int n, int N, int row0, int nloc, spm_part *P,
                          mb_err *err)
{
  int own = n - row0 < nloc ? n - row0 : nloc;
  if (spm_part_scatter (MPI_COMM_WORLD, rank == 0 ? A : NULL, row0, own > 0 ? own : 0, P,
                        err) < 0)
    return NULL;
  return spm_rows_from_part (MPI_COMM_WORLD, P, n, N, row0, nloc, err);
}

/* Collective. Runs spm_rows_matmat for nb columns of a random N x nb X (the same on every
   rank: each takes its rows, with ldx = nloc + 3, ldy = nloc + 2) and compares on rank 0
   against spm_matvec (A, x_j) of the whole A, bit for bit; checks that X and Y's rows past
   nloc are untouched. A is rank 0's (NULL elsewhere). Returns 1 when all agreed. */
static int product_matches (spm_rows *R, const spm *A, int n, int N, int nb)
{
  int row0, nloc, ok = 1;
  block_of (N, rank, &row0, &nloc);
  int ldx = nloc + 3, ldy = nloc + 2;
  double *Xg = malloc ((size_t) N * nb * sizeof *Xg + 8);
  double *X = malloc ((size_t) ldx * nb * sizeof *X);
  double *X0 = malloc ((size_t) ldx * nb * sizeof *X0);
  double *Y = malloc ((size_t) ldy * nb * sizeof *Y);
  int *counts = malloc ((size_t) nranks * sizeof *counts), *displs = malloc ((size_t) nranks * sizeof *displs);
  double *Yg = malloc ((size_t) N * nb * sizeof *Yg + 8), *y = malloc ((size_t) n * sizeof *y + 8);
  if (!Xg || !X || !X0 || !Y || !counts || !displs || !Yg || !y) abort ();
  for (size_t k = 0; k < (size_t) N * nb; k++) Xg[k] = vrand ();
  for (int j = 0; j < nb; j++)
    for (int i = 0; i < ldx; i++) X[(size_t) j * ldx + i] = i < nloc ? Xg[(size_t) j * N + row0 + i] : -7.0;
  memcpy (X0, X, (size_t) ldx * nb * sizeof *X);
  for (size_t k = 0; k < (size_t) ldy * nb; k++) Y[k] = 1234.5;
  mb_err err;
  mb_err_init (&err);
  int rc = spm_rows_matmat (R, nb, X, ldx, Y, ldy, &err);
  ok = rc == 0 && memcmp (X, X0, (size_t) ldx * nb * sizeof *X) == 0;
  for (int j = 0; j < nb; j++)
    for (int i = nloc; i < ldy; i++) ok = ok && Y[(size_t) j * ldy + i] == 1234.5;
  for (int r = 0; r < nranks; r++) block_of (N, r, &displs[r], &counts[r]);
  for (int j = 0; j < nb; j++)
    MPI_Gatherv (Y + (size_t) j * ldy, nloc, MPI_DOUBLE, Yg + (size_t) j * N, counts, displs,
                 MPI_DOUBLE, 0, MPI_COMM_WORLD);
  if (rank == 0)
    for (int j = 0; j < nb; j++) {
      spm_matvec (A, Xg + (size_t) j * N, y);
      if (n > 0 && memcmp (y, Yg + (size_t) j * N, (size_t) n * sizeof *y) != 0) ok = 0;
      for (int i = n; i < N; i++) ok = ok && Yg[(size_t) j * N + i] == 0.0 && !signbit (Yg[(size_t) j * N + i]);
    }
  int all;
  MPI_Allreduce (&ok, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  free (Xg); free (X); free (X0); free (Y); free (counts); free (displs); free (Yg); free (y);
  return all;
}

/* A random n x n matrix (built on every rank from the same seed, compressed on rank 0 only;
   NULL elsewhere): about density n^2 entries with duplicates and stored zeros, and the rows
   i % empty == 0 left empty when empty > 0. */
static spm *random_matrix (int n, double density, int empty)
{
  spm *A = spm_create (n, n, 16);
  if (!A) abort ();
  long count = (long) (density * n * n) + 1;
  for (long t = 0; n > 0 && t < count; t++) {
    int i = irand (n), j = irand (n);
    if (empty > 0 && i % empty == 0) continue;
    double v = t % 13 == 0 ? 0.0 : vrand ();
    if (spm_add (A, i, j, v) < 0) abort ();
    if (t % 5 == 0 && spm_add (A, i, j, vrand ()) < 0) abort ();   /* a duplicate */
  }
  if (rank != 0) return spm_free (A);
  if (spm_compress (A) < 0) abort ();
  return A;
}

/* 1: random matrices of several shapes: N > n (rows >= n, a rank owning only such rows),
   empty rows, n = 1, more ranks than rows; nb = 1 .. 9 and once more 3 (buffers reused). */
static void test_random (void)
{
  struct { int n, m; double density; int empty; } cases[] = {
    { 1, 0, 1.0, 0 }, { 7, 0, 0.4, 0 }, { 10, 5, 0.3, 3 }, { 5, 12, 0.5, 0 },
    { 2, 0, 1.0, 0 }, { 200, 37, 0.05, 4 }, { 60, 0, 0.3, 0 }, { 0, 3, 0.0, 0 },
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    int n = cases[c].n, N = n + cases[c].m, row0, nloc;
    spm *A = random_matrix (n, cases[c].density, cases[c].empty);
    block_of (N, rank, &row0, &nloc);
    mb_err err;
    mb_err_init (&err);
    spm_part P;
    spm_rows *R = rows_of (A, n, N, row0, nloc, &P, &err);
    CHECK_ALL ("the rows of a random matrix", R != NULL);
    if (!R) { spm_part_clear (&P); spm_free (A); continue; }
    int nghost, nsend, nneigh;
    spm_rows_plan (R, &nghost, &nsend, &nneigh);
    if (nranks == 1) CHECK_ALL ("1 rank: no halo", nghost == 0 && nsend == 0 && nneigh == 0);
    else CHECK_ALL ("halo within the other ranks' rows", nghost <= n && nneigh < nranks);
    for (int nb = 1; nb <= 9; nb++) {
      char what[96];
      snprintf (what, sizeof what, "case %zu (n %d, N %d), nb %d: bit for bit spm_matvec", c, n, N, nb);
      CHECK_ALL (what, product_matches (R, A, n, N, nb));
    }
    CHECK_ALL ("nb 3 again after 9: bit for bit", product_matches (R, A, n, N, 3));
    CHECK_ALL ("nb 0: nothing to do", spm_rows_matmat (R, 0, NULL, 1, NULL, 1, &err) == 0);
    spm_rows_free (R);
    spm_part_clear (&P);
    spm_free (A);
  }
}

/* 2: banded matrices of half bandwidth b (A(i,j) != 0 for |i - j| <= b) on blocks of at
   least b rows: each rank receives b entries from each neighbouring rank and sends b, and
   exchanges with its neighbours only (closed form from the structure); the product bit for
   bit. Also N > n, where the last ranks' rows are past A's. */
static void test_banded (void)
{
  for (int b = 1; b <= 3; b++)
    for (int extra = 0; extra <= 1; extra++) {
      int n = 8 * nranks + 3, N = n + extra * 5, row0, nloc;
      spm *A = spm_create (n, n, 16);
      if (!A) abort ();
      for (int i = 0; i < n; i++)
        for (int j = i - b; j <= i + b; j++)
          if (j >= 0 && j < n && spm_add (A, i, j, vrand ()) < 0) abort ();
      if (rank != 0) A = spm_free (A);
      else if (spm_compress (A) < 0) abort ();
      block_of (N, rank, &row0, &nloc);
      mb_err err;
      mb_err_init (&err);
      spm_part P;
      spm_rows *R = rows_of (A, n, N, row0, nloc, &P, &err);
      CHECK_ALL ("the rows of a banded matrix", R != NULL);
      if (!R) { spm_part_clear (&P); spm_free (A); continue; }
      int nghost, nsend, nneigh;
      spm_rows_plan (R, &nghost, &nsend, &nneigh);
      /* the expected halo: rows that are A's (< n) below and above this block */
      int lo = row0, hi = row0 + nloc, want_recv = 0, want_send = 0, want_neigh = 0;
      int own_lo = lo < n ? lo : n, own_hi = hi < n ? hi : n;     /* this rank's rows of A */
      if (own_hi > own_lo) {
        want_recv += lo > 0 ? b : 0;                               /* columns lo-b .. lo-1 */
        want_recv += hi < n ? (n - hi < b ? n - hi : b) : 0;       /* columns hi .. hi+b-1 */
      }
      if (rank > 0 && lo < n && nloc > 0) want_send += lo + b <= n ? b : n - lo;  /* needed by rank-1 */
      if (rank < nranks - 1 && hi < n) {                           /* needed by rank+1 if it has rows of A */
        int r1, n1;
        block_of (N, rank + 1, &r1, &n1);
        if (n1 > 0 && r1 < n) want_send += b;
      }
      int left = rank > 0 && lo > 0 && lo < n && nloc > 0;
      int right = rank < nranks - 1 && hi < n;
      want_neigh = left + right;
      CHECK_ALL ("banded: ghosts from the neighbours only (closed form)", nghost == want_recv);
      CHECK_ALL ("banded: entries sent (closed form)", nsend == want_send);
      CHECK_ALL ("banded: neighbours only", nneigh == want_neigh && nneigh <= 2);
      for (int nb = 1; nb <= 9; nb += 4)
        CHECK_ALL ("banded: bit for bit spm_matvec", product_matches (R, A, n, N, nb));
      spm_rows_free (R);
      spm_part_clear (&P);
      spm_free (A);
    }
}

/* 3: bad arguments: every rank gets NULL and the same MB_EUSAGE. */
static void test_errors (void)
{
  int n = 6, N = 6, row0, nloc, lo, hi;
  spm *A = random_matrix (n, 0.5, 0);
  block_of (N, rank, &row0, &nloc);
  for (int which = 0; which < 3; which++) {
    mb_err err;
    mb_err_init (&err);
    spm *T = NULL;
    const spm *a = A;
    int r0 = row0, nl = nloc, NN = N;
    if (which == 0 && rank == 0) {            /* a triplet matrix */
      T = spm_create (n, n, 4);
      if (!T || spm_add (T, 0, 0, 1.0) < 0) abort ();
      a = T;
    }
    if (which == 1 && rank == nranks - 1) nl--;        /* the rows do not reach N */
    if (which == 2) { NN = n - 1; block_of (NN, rank, &r0, &nl); }  /* n > N */
    spm_part P;
    spm_rows *R = rows_of (a, n, NN, r0, nl, &P, &err);
    MPI_Allreduce (&err.code, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    MPI_Allreduce (&err.code, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    CHECK_ALL ("bad argument: NULL and MB_EUSAGE on every rank",
               R == NULL && lo == MB_EUSAGE && hi == MB_EUSAGE && err.msg[0] != '\0');
    spm_rows_free (R);
    spm_part_clear (&P);
    spm_free (T);
  }
  spm_free (A);
}

/* 4: fault site "rowdist" on the last rank: the scatter (at its first site, the local
   rows) gives NULL and MB_ENOMEM on every rank; a product that grows its buffers fails
   with MB_ENOMEM on every rank, and once the fault is cleared the same call gives the
   right bits. */
static void test_faults (void)
{
  int n = 40, N = 45, row0, nloc, lo, hi;
  spm *A = random_matrix (n, 0.2, 0);
  block_of (N, rank, &row0, &nloc);
  char spec[32];
  snprintf (spec, sizeof spec, "%d:rowdist", nranks - 1);
  mb_err err;
  mb_err_init (&err);
  mb_fault_set (spec);
  spm_part P;
  spm_rows *R = rows_of (A, n, N, row0, nloc, &P, &err);
  mb_fault_set (NULL);
  spm_part_clear (&P);
  MPI_Allreduce (&err.code, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce (&err.code, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  CHECK_ALL ("fault in the scatter: NULL and MB_ENOMEM on every rank",
             R == NULL && lo == MB_ENOMEM && hi == MB_ENOMEM);
  mb_err_init (&err);
  R = rows_of (A, n, N, row0, nloc, &P, &err);
  CHECK_ALL ("scatter without the fault", R != NULL);
  if (!R) { spm_part_clear (&P); spm_free (A); return; }
  CHECK_ALL ("nb 2 before the fault", product_matches (R, A, n, N, 2));
  int ld = nloc > 0 ? nloc : 1;
  double *X = calloc ((size_t) ld * 6, sizeof *X), *Y = calloc ((size_t) ld * 6, sizeof *Y);
  if (!X || !Y) abort ();
  mb_fault_set (spec);
  int rc = spm_rows_matmat (R, 6, X, ld, Y, ld, &err);
  mb_fault_set (NULL);
  MPI_Allreduce (&rc, &lo, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  MPI_Allreduce (&rc, &hi, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  CHECK_ALL ("fault growing the product's buffers: MB_ENOMEM on every rank",
             lo == MB_ENOMEM && hi == MB_ENOMEM && err.code == MB_ENOMEM);
  CHECK_ALL ("nb 6 after the fault cleared: bit for bit", product_matches (R, A, n, N, 6));
  free (X);
  free (Y);
  spm_rows_free (R);
  spm_part_clear (&P);
  spm_free (A);
}

/* Rows first .. first + count - 1 of the compressed A (every rank's copy) equal P's, bit
   for bit: row starts rebased, columns, values. */
static int part_equals (const spm_part *P, const spm *A, int first, int count)
{
  if (P->L.nrows != count || (count > 0 && P->first != first) || !P->L.compressed) return 0;
  if (count == 0) return P->L.nnz == 0;
  int e0 = A->rowptr[first];
  for (int i = 0; i <= count; i++)
    if (P->L.rowptr[i] != A->rowptr[first + i] - e0) return 0;
  long ne = A->rowptr[first + count] - e0;
  return P->L.nnz == ne
         && (ne == 0 || (memcmp (P->L.col, A->col + e0, (size_t) ne * sizeof *A->col) == 0
                         && memcmp (P->L.val, A->val + e0, (size_t) ne * sizeof *A->val) == 0));
}

/* 5: parts. A random matrix (the same triplets on every rank, compressed everywhere as the
   reference): spm_part_scatter of each rank's block rows (and of reversed, uneven ranges
   with empty ones) equals the reference rows bit for bit; spm_rows_from_part gives the
   products of spm_matvec bit for bit; spm_part_route of the triplets cut into
   contiguous runs over the ranks (so that duplicates are summed in the serial order)
   equals the reference bit for bit, and cut round-robin equals it to rounding; errors
   agreed. */
static void test_parts (void)
{
  struct { int n, ncols; double density; } cases[] = {
    { 1, 1, 1.0 }, { 13, 13, 0.3 }, { 200, 200, 0.05 }, { 40, 90, 0.1 }, { 5, 3, 0.8 },
  };
  for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
    int n = cases[c].n, nc = cases[c].ncols, row0, nloc;
    spm *T = spm_create (n, nc, 16), *A = spm_create (n, nc, 16);
    if (!T || !A) abort ();
    long count = (long) (cases[c].density * n * nc) + 1;
    for (long t = 0; t < count; t++) {
      int i = irand (n), j = irand (nc);
      double v = t % 11 == 0 ? 0.0 : vrand ();
      if (spm_add (T, i, j, v) < 0 || spm_add (A, i, j, v) < 0) abort ();
      if (t % 4 == 0 && (spm_add (T, i, j, v * 0.37) < 0 || spm_add (A, i, j, v * 0.37) < 0))
        abort ();
    }
    if (spm_compress (A) < 0) abort ();
    block_of (n, rank, &row0, &nloc);
    mb_err err;
    mb_err_init (&err);
    spm_part P;
    int rc = spm_part_scatter (MPI_COMM_WORLD, rank == 0 ? A : NULL, row0, nloc, &P, &err);
    char what[128];
    snprintf (what, sizeof what, "case %zu (%d x %d): scattered block rows bit for bit", c, n,
              nc);
    CHECK_ALL (what, rc == 0 && part_equals (&P, A, row0, nloc));
    spm *G = NULL;
    int rg = rc == 0 ? spm_part_gather (MPI_COMM_WORLD, &P, n, nc, &G, &err) : -1;
    int gsame = rg == 0 && (rank != 0 || (G && G->compressed && G->nnz == A->nnz
                                          && G->nrows == n && G->ncols == nc));
    for (long k = 0; gsame && rank == 0 && k < A->nnz; k++)
      gsame = G->row[k] == A->row[k] && G->col[k] == A->col[k]
              && memcmp (&G->val[k], &A->val[k], sizeof (double)) == 0;
    snprintf (what, sizeof what, "case %zu: the parts gathered on rank 0 bit for bit", c);
    CHECK_ALL (what, gsame && (rank == 0 || G == NULL));
    spm_free (G);
    if (n == nc && rc == 0) {
      /* the last rank's part without its last row: refused on every rank */
      spm_part S;
      int cut = rank == nranks - 1 && nloc > 0;
      rc = spm_part_scatter (MPI_COMM_WORLD, rank == 0 ? A : NULL, row0, nloc - cut, &S, &err);
      spm_rows *R = rc == 0 ? spm_rows_from_part (MPI_COMM_WORLD, &S, n, n, row0, nloc, &err)
                            : NULL;
      CHECK_ALL ("spm_rows_from_part: a part that is not the layout's rows is refused",
                 rc == 0 && R == NULL && err.code == MB_EUSAGE);
      spm_part_clear (&S);
      mb_err_init (&err);
      int r0, nl;
      block_of (n + 2, rank, &r0, &nl);
      spm_part Q;
      int own = n - r0 < nl ? n - r0 : nl;
      rc = spm_part_scatter (MPI_COMM_WORLD, rank == 0 ? A : NULL, r0, own > 0 ? own : 0, &Q,
                             &err);
      R = rc == 0 ? spm_rows_from_part (MPI_COMM_WORLD, &Q, n, n + 2, r0, nl, &err) : NULL;
      snprintf (what, sizeof what, "case %zu: spm_rows_from_part, N = n + 2: products bit for "
                "bit spm_matvec", c);
      int ok = R != NULL;
      for (int nb = 1; nb <= 5 && ok; nb += 2)
        ok = product_matches (R, rank == 0 ? A : NULL, n, n + 2, nb);
      CHECK_ALL (what, ok);
      spm_rows_free (R);
      spm_part_clear (&Q);
    }
    spm_part_clear (&P);
    /* reversed uneven ranges: rank r asks for the rows of rank nranks - 1 - r's block,
       every other rank for nothing when there are more than 2 */
    int f, k;
    block_of (n, nranks - 1 - rank, &f, &k);
    if (nranks > 2 && rank % 2 == 1) k = 0;
    rc = spm_part_scatter (MPI_COMM_WORLD, rank == 0 ? A : NULL, f, k, &P, &err);
    CHECK_ALL ("scattered reversed and empty ranges bit for bit",
               rc == 0 && part_equals (&P, A, f, k));
    spm_part_clear (&P);
    /* routed: contiguous runs of the triplets (serial order of the sums), then round-robin */
    for (int how = 0; how < 2; how++) {
      long t0 = T->nnz * rank / nranks, t1 = T->nnz * (rank + 1) / nranks, m = 0;
      int *ri = malloc ((size_t) T->nnz * sizeof *ri + 4), *ci = malloc ((size_t) T->nnz * sizeof *ci + 4);
      double *vi = malloc ((size_t) T->nnz * sizeof *vi + 8);
      if (!ri || !ci || !vi) abort ();
      for (long t = 0; t < T->nnz; t++)
        if (how == 0 ? (t >= t0 && t < t1) : t % nranks == rank) {
          ri[m] = T->row[t];
          ci[m] = T->col[t];
          vi[m] = T->val[t];
          m++;
        }
      rc = spm_part_route (MPI_COMM_WORLD, n, nc, m, ri, ci, vi, row0, nloc, &P, &err);
      int ok = rc == 0;
      if (ok && how == 0) ok = part_equals (&P, A, row0, nloc);
      if (ok && how == 1) {
        int e0 = nloc > 0 ? A->rowptr[row0] : 0;
        ok = P.L.nrows == nloc && P.L.nnz == (nloc > 0 ? A->rowptr[row0 + nloc] - e0 : 0);
        for (long e = 0; ok && e < P.L.nnz; e++)
          ok = P.L.col[e] == A->col[e0 + e]
               && fabs (P.L.val[e] - A->val[e0 + e]) <= 1e-15 * fabs (A->val[e0 + e]) * 4;
      }
      snprintf (what, sizeof what, "case %zu: routed %s: the reference rows %s", c,
                how == 0 ? "in contiguous runs" : "round-robin",
                how == 0 ? "bit for bit" : "to rounding (other order of the sums)");
      CHECK_ALL (what, ok);
      spm_part_clear (&P);
      /* an entry outside the matrix on the last rank: MB_EUSAGE everywhere */
      if (how == 1) {
        if (rank == nranks - 1) { ri[m] = n; ci[m] = 0; vi[m] = 1.0; }
        mb_err_init (&err);
        rc = spm_part_route (MPI_COMM_WORLD, n, nc, m + (rank == nranks - 1), ri, ci, vi,
                             row0, nloc, &P, &err);
        CHECK_ALL ("routed: an entry outside the matrix fails on every rank",
                   rc == MB_EUSAGE && strstr (err.msg, "outside") != NULL);
        mb_err_init (&err);
        rc = spm_part_route (MPI_COMM_WORLD, n, nc, m, ri, ci, vi, row0, nloc + 1, &P, &err);
        CHECK_ALL ("routed: ranges that do not tile fail on every rank", rc == MB_EUSAGE);
      }
      free (ri); free (ci); free (vi);
    }
    mb_err_init (&err);
    rc = spm_part_scatter (MPI_COMM_WORLD, rank == 0 ? A : NULL, n - 1, 2, &P, &err);
    CHECK_ALL ("scatter: rows past the matrix fail on every rank", rc == MB_EUSAGE
               && P.L.rowptr == NULL);
    spm_free (T);
    spm_free (A);
  }
}

/* spm_part_is_symmetric against spm_is_symmetric on the whole matrix: a symmetric matrix
   with stored zeros, then one entry off by 1e-6 relative, by 1e-14 relative (within the
   test's 1e-12), an entry whose mirror is missing, and one whose mirror is a stored zero. */
static void test_parts_symmetry (void)
{
  int n = 37;
  for (int kase = 0; kase < 5; kase++) {
    spm *A = spm_create (n, n, 16);
    if (!A) abort ();
    seed = 99u;
    for (int t = 0; t < 120; t++) {
      int i = irand (n), j = irand (n);
      double v = t % 13 == 0 ? 0.0 : vrand ();
      if (i == 3 && j == 30) continue;
      if (spm_add (A, i, j, v) < 0 || spm_add (A, j, i, v) < 0) abort ();
    }
    for (int i = 0; i < n; i++) if (spm_add (A, i, i, 2.0 + i) < 0) abort ();
    if (kase == 1) spm_add (A, 5, 5 + 1, 1e-6 * 40.0);
    if (kase == 2) spm_add (A, 5, 5 + 1, 1e-14 * 40.0);
    if (kase == 3) spm_add (A, 3, 30, 1e-3);
    if (kase == 4) { spm_add (A, 3, 30, 1e-3); spm_add (A, 30, 3, 0.0); }
    if (spm_compress (A) < 0) abort ();
    int row0, nloc, sym = -1;
    block_of (n, rank, &row0, &nloc);
    mb_err err;
    mb_err_init (&err);
    spm_part P;
    int rc = spm_part_scatter (MPI_COMM_WORLD, rank == 0 ? A : NULL, row0, nloc, &P, &err);
    if (rc == 0) rc = spm_part_is_symmetric (MPI_COMM_WORLD, &P, n, 1e-12, &sym, &err);
    int whole = spm_is_symmetric (A, 1e-12), expect = kase == 0 || kase == 2;
    char what[128];
    snprintf (what, sizeof what, "symmetry by rows, case %d: %d as the whole matrix's test "
              "(%d)", kase, sym, expect);
    CHECK_ALL (what, rc == 0 && sym == whole && whole == expect);
    spm_part_clear (&P);
    spm_free (A);
  }
}

int main (int argc, char **argv)
{
  MPI_Init (&argc, &argv);
  MPI_Comm_rank (MPI_COMM_WORLD, &rank);
  MPI_Comm_size (MPI_COMM_WORLD, &nranks);

  test_random ();
  test_banded ();
  test_errors ();
  test_faults ();
  test_parts_symmetry ();
  test_parts ();

  int status = 0;
  if (rank == 0) status = CHECK_DONE ();
  MPI_Bcast (&status, 1, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Finalize ();
  return status;
}
