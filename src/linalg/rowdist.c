/* rowdist.c: a sparse matrix's rows scattered over the ranks, and Y = A X on row-distributed blocks by a halo exchange. */
#include "rowdist.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

/* The tag of every message of the halo exchange and of the plan's setup. Each exchange
   completes inside its call, so a caller's own messages on comm cannot be confused with
   these unless it leaves receives with MPI_ANY_TAG pending across the call. */
#define ROWS_TAG 0x5250

struct spm_rows {
  MPI_Comm comm;      /* the caller's (not duplicated): must outlive R */
  int rank, size;
  int n, N;           /* order of A, of the layout */
  int row0, nloc;     /* this rank's rows of the layout */
  /* This rank's rows of A as a compressed nown x (nloc + nghost) matrix (nown = the rows
     < n: max (0, min (nloc, n - row0))): the entries of each row in rank 0's order, column
     c < nloc the layout's row row0 + c, column nloc + g the ghost g. row is NULL: only the
     compressed products (spm_matmat_packed) read L. On rank 0 (rows from 0) L.val is A's
     own value array, borrowed (val_borrowed): its rows are A's first rows, in A's order. */
  spm L;
  int val_borrowed;   /* 1: L.val points into rank 0's A (not freed here) */
  int nghost;         /* entries received per column: ghost g is global column ghost_col[g] */
  int nsend;          /* entries sent per column */
  int nneigh;         /* distinct ranks exchanged with (either way) */
  int nrecv;          /* ranks received from: recv_rank[q], ghosts recv_start[q] .. [q+1]-1 */
  int *recv_rank, *recv_start;
  int nsendr;         /* ranks sent to: send_rank[q], send_idx[send_start[q] .. [q+1]-1] */
  int *send_rank, *send_start;
  int *send_idx;      /* nsend local rows (0 .. nloc-1) whose entries others need */
  MPI_Request *req;   /* nrecv + nsendr */
  int cap_nb;         /* columns the work buffers hold (the same on every rank) */
  double *packed;     /* (nloc + nghost) x min (cap_nb, SPM_MM_CHUNK): a chunk's x values */
  double *sendbuf;    /* nsend x cap_nb, entry-major: sendbuf[t nb + j] */
  double *recvbuf;    /* nghost x cap_nb, entry-major: recvbuf[g nb + j] */
};

spm_rows *spm_rows_free (spm_rows *R)
{
  if (!R) return NULL;
  free (R->L.rowptr);
  free (R->L.col);
  if (!R->val_borrowed) free (R->L.val);
  free (R->recv_rank);
  free (R->recv_start);
  free (R->send_rank);
  free (R->send_start);
  free (R->send_idx);
  free (R->req);
  free (R->packed);
  free (R->sendbuf);
  free (R->recvbuf);
  free (R);
  return NULL;
}

void spm_rows_plan (const spm_rows *R, int *nghost, int *nsend, int *nneigh)
{
  if (nghost) *nghost = R->nghost;
  if (nsend) *nsend = R->nsend;
  if (nneigh) *nneigh = R->nneigh;
}

static int cmp_int (const void *a, const void *b)
{
  int x = *(const int *) a, y = *(const int *) b;
  return (x > y) - (x < y);
}

/* The layout lay (size triples row0, nloc, N of every rank, from MPI_Allgather) for a
   matrix of order n: one N, rows that tile 0 .. N-1 in rank order, n <= N. Every rank
   checks the same data, so every rank gives the same verdict. Returns 0 or MB_EUSAGE. */
static int check_layout (const int *lay, int size, int n, mb_err *err)
{
  int N = lay[2];
  if (n > N) return mb_fail (err, MB_EUSAGE, "row layout: matrix of order %d in a layout of order %d", n, N);
  for (int r = 0, next = 0; r < size; r++) {
    if (lay[3 * r + 2] != N)
      return mb_fail (err, MB_EUSAGE, "row layout: rank %d gives order %d, rank 0 %d", r,
                      lay[3 * r + 2], N);
    if (lay[3 * r] != next || lay[3 * r + 1] < 0 || lay[3 * r + 1] > N - next)
      return mb_fail (err, MB_EUSAGE, "row layout: rank %d's rows %d + %d do not follow row %d",
                      r, lay[3 * r], lay[3 * r + 1], next);
    next += lay[3 * r + 1];
    if (r == size - 1 && next != N)
      return mb_fail (err, MB_EUSAGE, "row layout: the ranks' rows end at %d, not %d", next, N);
  }
  return 0;
}

/* Rows of A (order n) in rows r0 .. r0 + nl - 1 of the layout. */
static int own_rows (int n, int r0, int nl)
{
  int k = n - r0 < nl ? n - r0 : nl;
  return k > 0 ? k : 0;
}

/* The ghosts of R->L (columns outside this rank's rows lo .. hi - 1) into ghost (room for
   all of them), sorted and without repeats, which groups them by owner; L's columns made
   local (own c - lo, ghost nloc + its place in ghost). Returns the count of ghosts. */
static int local_columns (spm_rows *R, int *ghost)
{
  int nnz = (int) R->L.nnz, lo = R->row0, hi = R->row0 + R->nloc;
  int ng = 0;
  for (int k = 0; k < nnz; k++)
    if (R->L.col[k] < lo || R->L.col[k] >= hi) ghost[ng++] = R->L.col[k];
  qsort (ghost, (size_t) ng, sizeof *ghost, cmp_int);
  int nu = 0;
  for (int t = 0; t < ng; t++)
    if (nu == 0 || ghost[t] != ghost[nu - 1]) ghost[nu++] = ghost[t];
  for (int k = 0; k < nnz; k++) {
    int c = R->L.col[k];
    if (c >= lo && c < hi) R->L.col[k] = c - lo;
    else {
      const int *p = bsearch (&c, ghost, (size_t) nu, sizeof *ghost, cmp_int);
      R->L.col[k] = R->nloc + (int) (p - ghost);
    }
  }
  return nu;
}

/* Collective. The halo's neighbours from the ghosts received per rank (rcnt) and sent
   (scnt, from the owners by MPI_Alltoall): R's counts, its recv/send rank lists with their
   starts, send_idx and req allocated (R owns them). Returns 0 or MB_ENOMEM, agreed. */
static int halo_lists (spm_rows *R, const int *rcnt, const int *scnt, mb_err *err)
{
  int size = R->size, rc = 0;
  int nrecv = 0, nsendr = 0, nsend = 0, nneigh = 0;
  for (int r = 0; r < size; r++) {
    nrecv += rcnt[r] > 0;
    nsendr += scnt[r] > 0;
    nsend += scnt[r];
    nneigh += rcnt[r] > 0 || scnt[r] > 0;
  }
  R->nrecv = nrecv;
  R->nsendr = nsendr;
  R->nsend = nsend;
  R->nneigh = nneigh;
  R->recv_rank = mb_calloc ((size_t) nrecv + 1, sizeof *R->recv_rank);
  R->recv_start = mb_calloc ((size_t) nrecv + 1, sizeof *R->recv_start);
  R->send_rank = mb_calloc ((size_t) nsendr + 1, sizeof *R->send_rank);
  R->send_start = mb_calloc ((size_t) nsendr + 1, sizeof *R->send_start);
  R->send_idx = mb_calloc ((size_t) nsend + 1, sizeof *R->send_idx);
  R->req = mb_calloc ((size_t) nrecv + nsendr + 1, sizeof *R->req);
  if (!R->recv_rank || !R->recv_start || !R->send_rank || !R->send_start || !R->send_idx
      || !R->req)
    rc = mb_fail (err, MB_ENOMEM, "out of memory for rank %d's halo plan (%d neighbours)",
                  R->rank, nneigh);
  if ((rc = mb_agree (R->comm, rc, err)) < 0) return rc;
  for (int r = 0, q = 0, s = 0; r < size; r++) {
    if (rcnt[r] > 0) {
      R->recv_rank[q] = r;
      R->recv_start[q + 1] = R->recv_start[q] + rcnt[r];
      q++;
    }
    if (scnt[r] > 0) {
      R->send_rank[s] = r;
      R->send_start[s + 1] = R->send_start[s] + scnt[r];
      s++;
    }
  }
  return 0;
}

/* Collective. The halo plan from R->L's global columns: the ghosts (columns outside this
   rank's rows) sorted and without repeats, which groups them by owner; L's columns become
   local (own c - row0, ghost nloc + g); the counts per owner go to the owners (MPI_Alltoall)
   and the ghosts' global indices to them (point-to-point with the neighbours only), which
   become their send lists. Returns 0 or MB_ENOMEM, agreed.
   Steps: local_columns, the counts per owner, halo_lists, the exchange. */
static int build_halo (spm_rows *R, const int *lay, mb_err *err)
{
  int size = R->size, rc = 0, nnz = (int) R->L.nnz, lo = R->row0, hi = R->row0 + R->nloc;
  int nout = 0;
  for (int k = 0; k < nnz; k++) nout += R->L.col[k] < lo || R->L.col[k] >= hi;
  int *ghost = mb_calloc (nout > 0 ? (size_t) nout : 1, sizeof *ghost);
  int *rcnt = mb_calloc (2 * (size_t) size, sizeof *rcnt), *scnt = rcnt ? rcnt + size : NULL;
  if (!ghost || !rcnt || mb_fault ("rowdist"))
    rc = mb_fail (err, MB_ENOMEM, "out of memory for rank %d's halo (%d entries)", R->rank, nout);
  if ((rc = mb_agree (R->comm, rc, err)) < 0) goto done;
  int nu = local_columns (R, ghost);
  R->nghost = nu;
  R->L.ncols = R->nloc + nu;
  /* ghosts per owner: ghost[] ascending, owners' rows ascending in rank order */
  for (int g = 0, r = 0; g < nu; g++) {
    while (ghost[g] >= lay[3 * r] + lay[3 * r + 1]) r++;
    rcnt[r]++;
  }
  MPI_Alltoall (rcnt, 1, MPI_INT, scnt, 1, MPI_INT, R->comm);
  if ((rc = halo_lists (R, rcnt, scnt, err)) < 0) goto done;
  /* the ghosts' global indices to their owners, who keep them as send lists */
  int nr = 0;
  for (int q = 0; q < R->nsendr; q++)
    MPI_Irecv (R->send_idx + R->send_start[q], R->send_start[q + 1] - R->send_start[q],
               MPI_INT, R->send_rank[q], ROWS_TAG, R->comm, &R->req[nr++]);
  for (int q = 0; q < R->nrecv; q++)
    MPI_Isend (ghost + R->recv_start[q], R->recv_start[q + 1] - R->recv_start[q], MPI_INT,
               R->recv_rank[q], ROWS_TAG, R->comm, &R->req[nr++]);
  MPI_Waitall (nr, R->req, MPI_STATUSES_IGNORE);
  for (int t = 0; t < R->nsend; t++) R->send_idx[t] -= lo;
done:
  free (ghost);
  free (rcnt);
  return rc;
}

/* Collective. A new spm_rows for a matrix of order n in the layout of every rank's (row0, nloc, N), checked, and *lay the
   layout (caller frees). Returns R with its rows not yet filled, or NULL with err set, the
   same on every rank. */
static spm_rows *rows_new (MPI_Comm comm, int n, int N, int row0, int nloc,
                           int **lay, mb_err *err)
{
  int rank, size, rc = 0;
  MPI_Comm_rank (comm, &rank);
  MPI_Comm_size (comm, &size);
  *lay = NULL;
  int me[3] = { row0, nloc, N };
  int *l = mb_calloc (3 * (size_t) size, sizeof *l);
  spm_rows *R = mb_calloc (1, sizeof *R);
  if (!l || !R)
    rc = mb_fail (err, MB_ENOMEM, "out of memory for the row layout (%d ranks)", size);
  if ((rc = mb_agree (comm, rc, err)) < 0) goto fail;
  MPI_Allgather (me, 3, MPI_INT, l, 3, MPI_INT, comm);
  rc = check_layout (l, size, n, err);   /* the same data on every rank: the same verdict */
  if ((rc = mb_agree (comm, rc, err)) < 0) goto fail;
  R->comm = comm;
  R->rank = rank;
  R->size = size;
  R->n = n;
  R->N = N;
  R->row0 = row0;
  R->nloc = nloc;
  R->L.nrows = own_rows (n, row0, nloc);
  R->L.ncols = nloc;
  R->L.compressed = 1;
  *lay = l;
  return R;
fail:
  free (l);
  spm_rows_free (R);
  return NULL;
}

/* Collective. The layout checked, P's rows checked against it (agreed), the columns copied
   and the values borrowed, then build_halo. */
spm_rows *spm_rows_from_part (MPI_Comm comm, const spm_part *P, int n, int N, int row0,
                              int nloc, mb_err *err)
{
  int *lay, rc = 0;
  spm_rows *R = rows_new (comm, n, N, row0, nloc, &lay, err);
  if (!R) return NULL;
  int nown = R->L.nrows;
  int fits = P->L.nrows == nown && (nown == 0 || P->first == row0);
  long nnz = fits && nown > 0 ? P->L.rowptr[nown] : 0;   /* read once P's rows fit */
  if (!fits || nnz > INT_MAX)
    rc = mb_fail (err, MB_EUSAGE, "row distribution: rank %d holds rows %d + %d, its rows of "
                  "the layout are %d + %d", R->rank, P->first, P->L.nrows, row0, nown);
  else {
    R->L.rowptr = mb_calloc ((size_t) nown + 1, sizeof *R->L.rowptr);
    R->L.col = mb_calloc (nnz > 0 ? (size_t) nnz : 1, sizeof *R->L.col);
    if (!R->L.rowptr || !R->L.col || mb_fault ("rowdist"))
      rc = mb_fail (err, MB_ENOMEM, "out of memory for rank %d's %d rows (%ld entries)",
                    R->rank, nown, nnz);
  }
  if ((rc = mb_agree (comm, rc, err)) == 0) {
    if (nown > 0) {
      memcpy (R->L.rowptr, P->L.rowptr, ((size_t) nown + 1) * sizeof *R->L.rowptr);
      memcpy (R->L.col, P->L.col, (size_t) nnz * sizeof *R->L.col);
    }
    R->L.val = P->L.val;
    R->val_borrowed = 1;
    R->L.nnz = R->L.nzmax = nnz;
    rc = build_halo (R, lay, err);
  }
  free (lay);
  return rc < 0 ? spm_rows_free (R) : R;
}

/* ---- parts: a matrix's rows held where they are used -------------------------------- */

int *spm_part_rows (const spm_part *P)
{
  int *r = mb_calloc (P->L.nnz > 0 ? (size_t) P->L.nnz : 1, sizeof *r);
  if (!r) return NULL;
  for (int i = 0; i < P->L.nrows; i++)
    for (int k = P->L.rowptr[i]; k < P->L.rowptr[i + 1]; k++) r[k] = P->first + i;
  return r;
}

void spm_part_clear (spm_part *P)
{
  free (P->L.rowptr);
  if (!P->borrowed) {
    free (P->L.col);
    free (P->L.val);
  }
  memset (P, 0, sizeof *P);
}

/* Rank 0 asks every rank's range (MPI_Gather), checks them against A and scatters the row
   starts (rebased here), columns and values; its own columns and values stay in A. */
int spm_part_scatter (MPI_Comm comm, const spm *A, int first, int count, spm_part *P,
                      mb_err *err)
{
  int rank, size, rc = 0, dims[2] = { 0, 0 }, me[2] = { first, count }, mine[2] = { 0, 0 };
  MPI_Comm_rank (comm, &rank);
  MPI_Comm_size (comm, &size);
  memset (P, 0, sizeof *P);
  /* rank 0: the ranges asked, then 6 x size: row counts, row-start offsets, entry counts,
     entry offsets, (entry count, entry offset) pairs for MPI_Scatter */
  int *want = NULL, *cnt = NULL;
  if (rank == 0) {
    want = mb_calloc (2 * (size_t) size, sizeof *want);
    cnt = mb_calloc (6 * (size_t) size, sizeof *cnt);
    if (!want || !cnt)
      rc = mb_fail (err, MB_ENOMEM, "out of memory for the row parts (%d ranks)", size);
    else if (!A || !A->compressed)
      rc = mb_fail (err, MB_EUSAGE, "row parts: rank 0 needs a compressed matrix");
    else {
      dims[0] = A->nrows;
      dims[1] = A->ncols;
    }
  }
  MPI_Gather (me, 2, MPI_INT, want, 2, MPI_INT, 0, comm);
  for (int r = 0; rank == 0 && rc == 0 && r < size; r++) {
    int f = want[2 * r], c = want[2 * r + 1];
    if (c < 0 || (c > 0 && (f < 0 || f > dims[0] - c))) {
      rc = mb_fail (err, MB_EUSAGE, "row parts: rank %d asks for rows %d + %d of a matrix "
                    "of %d rows", r, f, c, dims[0]);
      break;
    }
    long e0 = c > 0 ? A->rowptr[f] : 0, ne = c > 0 ? A->rowptr[f + c] - e0 : 0;
    cnt[r] = c;
    cnt[size + r] = c > 0 ? f + 1 : 0;
    cnt[2 * size + r] = cnt[4 * size + 2 * r] = (int) ne;
    cnt[3 * size + r] = cnt[4 * size + 2 * r + 1] = (int) e0;
  }
  if ((rc = mb_agree (comm, rc, err)) < 0) goto done;
  MPI_Bcast (dims, 2, MPI_INT, 0, comm);
  MPI_Scatter (cnt ? cnt + 4 * size : NULL, 2, MPI_INT, mine, 2, MPI_INT, 0, comm);
  int nrows = count > 0 ? count : 0, nnz = mine[0];
  P->first = first;
  P->L.nrows = nrows;
  P->L.ncols = dims[1];
  P->L.compressed = 1;
  P->borrowed = rank == 0 && nnz > 0;
  P->L.rowptr = mb_calloc ((size_t) nrows + 1, sizeof *P->L.rowptr);
  if (P->borrowed) {
    P->L.col = A->col + mine[1];
    P->L.val = A->val + mine[1];
  } else {
    P->L.col = mb_calloc (nnz > 0 ? (size_t) nnz : 1, sizeof *P->L.col);
    P->L.val = mb_calloc (nnz > 0 ? (size_t) nnz : 1, sizeof *P->L.val);
  }
  if (!P->L.rowptr || !P->L.col || !P->L.val || mb_fault ("rowdist"))
    rc = mb_fail (err, MB_ENOMEM, "out of memory for rank %d's %d rows (%d entries)", rank,
                  nrows, nnz);
  if ((rc = mb_agree (comm, rc, err)) < 0) goto done;
  MPI_Scatterv (rank == 0 ? A->rowptr : NULL, cnt, cnt + size, MPI_INT, P->L.rowptr + 1,
                nrows, MPI_INT, 0, comm);
  MPI_Scatterv (rank == 0 ? A->col : NULL, cnt + 2 * size, cnt + 3 * size, MPI_INT,
                P->borrowed ? MPI_IN_PLACE : (void *) P->L.col, nnz, MPI_INT, 0, comm);
  MPI_Scatterv (rank == 0 ? A->val : NULL, cnt + 2 * size, cnt + 3 * size, MPI_DOUBLE,
                P->borrowed ? MPI_IN_PLACE : (void *) P->L.val, nnz, MPI_DOUBLE, 0, comm);
  P->L.rowptr[0] = 0;
  for (int i = 1; i <= nrows; i++) P->L.rowptr[i] -= mine[1];
  P->L.nnz = P->L.nzmax = nnz;
done:
  if (rc < 0) spm_part_clear (P);
  free (want);
  free (cnt);
  return rc;
}

/* A received triplet's place in its row: column, then arrival (stable). */
typedef struct col_at { int col; long at; } col_at;

static int by_col_at (const void *a, const void *b)
{
  const col_at *x = a, *y = b;
  if (x->col != y->col) return (x->col > y->col) - (x->col < y->col);
  return (x->at > y->at) - (x->at < y->at);
}

/* A row's keys by (column, arrival). They come in arrival order, so a stable sort by
   column is enough: an insertion sort for the short rows of a finite-element matrix
   (qsort's calls per comparison cost more there), qsort for long rows. */
static void sort_row_keys (col_at *k, int len)
{
  if (len > 64) {
    qsort (k, (size_t) len, sizeof *k, by_col_at);
    return;
  }
  for (int i = 1; i < len; i++) {
    col_at x = k[i];
    int j = i - 1;
    while (j >= 0 && k[j].col > x.col) { k[j + 1] = k[j]; j--; }
    k[j + 1] = x;
  }
}

/* Rank r's owner search: the rank whose range [lay[2r], lay[2r] + lay[2r+1]) holds row i
   (ranges contiguous in rank order; empty ranges skipped by the search). */
static int owner_of (const int *lay, int size, int i)
{
  int lo = 0, hi = size - 1;
  while (lo < hi) {  /* the last rank whose range starts at or before i */
    int mid = (lo + hi + 1) / 2;
    if (lay[2 * mid] <= i) lo = mid;
    else hi = mid - 1;
  }
  while (lo > 0 && lay[2 * lo + 1] == 0) lo--;   /* an empty range at i: its predecessor */
  return lo;
}

/* The ranges lay (size pairs first, count of every rank, from MPI_Allgather) of a matrix
   of nrows rows: ranges that tile 0 .. nrows-1 in rank order. Every rank checks the same
   data, so every rank gives the same verdict. Returns 0 or MB_EUSAGE. */
static int check_parts (const int *lay, int size, int nrows, mb_err *err)
{
  for (int r = 0, next = 0; r < size; r++) {
    if (lay[2 * r] != next || lay[2 * r + 1] < 0 || lay[2 * r + 1] > nrows - next)
      return mb_fail (err, MB_EUSAGE, "row parts: rank %d's rows %d + %d do not follow row %d "
                      "(of %d)", r, lay[2 * r], lay[2 * r + 1], next, nrows);
    next += lay[2 * r + 1];
    if (r == size - 1 && next != nrows)
      return mb_fail (err, MB_EUSAGE, "row parts: the ranks' rows end at %d, not %d", next,
                      nrows);
  }
  return 0;
}

/* This rank's nnz triplets (row, col) checked against nrows x ncols, each one's owner
   (owner_of) into dest and counted per owner in cnt (size ints, zero). Returns 0 or
   MB_EUSAGE naming the first entry outside. */
static int route_owners (int rank, const int *lay, int size, int nrows, int ncols, long nnz,
                         const int *row, const int *col, int *dest, int *cnt, mb_err *err)
{
  for (long k = 0; k < nnz; k++) {
    if (row[k] < 0 || row[k] >= nrows || col[k] < 0 || col[k] >= ncols)
      return mb_fail (err, MB_EUSAGE, "row parts: rank %d's entry %ld at (%d, %d) is outside "
                      "%d x %d", rank, k, row[k], col[k], nrows, ncols);
    dest[k] = owner_of (lay, size, row[k]);
    cnt[dest[k]]++;
  }
  return 0;
}

/* Collective. This rank's triplets packed by destination (srow, scol, sval: nnz each)
   and exchanged (MPI_Alltoallv) into the received ri, ci, rv. sc: send counts, send
   offsets, receive counts, receive offsets (4 size ints); the send offsets are used as
   positions while packing and restored. */
static void route_exchange (MPI_Comm comm, int size, long nnz, const int *row, const int *col,
                            const double *val, const int *dest, int *sc, int *srow,
                            int *scol, double *sval, int *ri, int *ci, double *rv)
{
  int *at = sc + size;  /* send positions, by destination; restored below */
  for (long k = 0; k < nnz; k++) {
    int p = at[dest[k]]++;
    srow[p] = row[k];
    scol[p] = col[k];
    sval[p] = val[k];
  }
  for (int r = size - 1; r >= 0; r--) at[r] = r > 0 ? at[r - 1] : 0;
  MPI_Alltoallv (srow, sc, sc + size, MPI_INT, ri, sc + 2 * size, sc + 3 * size, MPI_INT, comm);
  MPI_Alltoallv (scol, sc, sc + size, MPI_INT, ci, sc + 2 * size, sc + 3 * size, MPI_INT, comm);
  MPI_Alltoallv (sval, sc, sc + size, MPI_DOUBLE, rv, sc + 2 * size, sc + 3 * size, MPI_DOUBLE,
                 comm);
}

/* The nin received triplets (ri, ci, rv; rows first .. first + count - 1) into P's rows
   (P->L.rowptr zero, col, val allocated): sorted by row (counting sort, stable), then in
   each row by (column, arrival) with duplicates summed in that order. key: nin places. */
static void rows_from_triplets (spm_part *P, int first, int count, int ncols, long nin,
                                const int *ri, const int *ci, const double *rv, col_at *key)
{
  /* by row (counting sort, stable): rp[i + 2] counts row i, the prefix sums make rp[i + 1]
     row i's start, and placing the keys moves it to row i's end */
  int nr = count > 0 ? count : 0, *rp = P->L.rowptr;
  for (long t = 0; t < nin; t++) rp[ri[t] - first + 2]++;
  for (int i = 0; i < nr; i++) rp[i + 2] += rp[i + 1];
  for (long t = 0; t < nin; t++) {
    int p = rp[ri[t] - first + 1]++;
    key[p].col = ci[t];
    key[p].at = t;
  }
  /* each row by (column, arrival), duplicates summed in that order, into P's col and val */
  long out = 0;
  for (int i = 0, start = 0; i < nr; i++) {
    int end = rp[i + 1];   /* row i's keys: start .. end - 1 */
    sort_row_keys (key + start, end - start);
    long row_start = out;
    for (int p = start; p < end; p++) {
      double v = rv[key[p].at];
      if (p > start && key[p].col == key[p - 1].col) P->L.val[out - 1] += v;
      else {
        P->L.col[out] = key[p].col;
        P->L.val[out] = v;
        out++;
      }
    }
    rp[i] = (int) row_start;   /* row i - 1's end, read as `end` last time */
    start = end;
  }
  rp[nr] = (int) out;
  P->first = first;
  P->L.nrows = nr;
  P->L.ncols = ncols;
  P->L.nnz = P->L.nzmax = out;
  P->L.compressed = 1;
}

/* Every rank: the ranges (MPI_Allgather, checked alike everywhere) and its triplets
   (checked locally), agreed; counts per owner (MPI_Alltoall), then rows, columns and
   values (MPI_Alltoallv); the received triplets sorted by row (counting), then by column
   and arrival in each row, and summed.
   Steps: check_parts, route_owners, route_exchange, rows_from_triplets. */
int spm_part_route (MPI_Comm comm, int nrows, int ncols, long nnz, const int *row,
                    const int *col, const double *val, int first, int count, spm_part *P,
                    mb_err *err)
{
  int rank, size, rc = 0, me[2] = { first, count };
  MPI_Comm_rank (comm, &rank);
  MPI_Comm_size (comm, &size);
  memset (P, 0, sizeof *P);
  int *lay = mb_calloc (2 * (size_t) size, sizeof *lay);
  int *sc = mb_calloc (4 * (size_t) size, sizeof *sc);  /* send counts, displs, recv ... */
  int *dest = mb_calloc (nnz > 0 ? (size_t) nnz : 1, sizeof *dest);
  int *ri = NULL, *ci = NULL, *srow = NULL, *scol = NULL;
  double *rv = NULL, *sval = NULL;
  col_at *key = NULL;
  if (!lay || !sc || !dest || mb_fault ("rowdist"))
    rc = mb_fail (err, MB_ENOMEM, "out of memory routing %ld entries to their rows' ranks",
                  nnz);
  if ((rc = mb_agree (comm, rc, err)) < 0) goto done;
  MPI_Allgather (me, 2, MPI_INT, lay, 2, MPI_INT, comm);
  rc = check_parts (lay, size, nrows, err);
  if (rc == 0) rc = route_owners (rank, lay, size, nrows, ncols, nnz, row, col, dest, sc, err);
  if ((rc = mb_agree (comm, rc, err)) < 0) goto done;
  MPI_Alltoall (sc, 1, MPI_INT, sc + 2 * size, 1, MPI_INT, comm);
  long nin = 0;
  for (int r = 0; r < size; r++) {
    sc[size + r] = r > 0 ? sc[size + r - 1] + sc[r - 1] : 0;
    sc[3 * size + r] = (int) nin;
    nin += sc[2 * size + r];
  }
  int big = nin > INT_MAX || nnz > INT_MAX;
  srow = mb_calloc (nnz > 0 ? (size_t) nnz : 1, sizeof *srow);
  scol = mb_calloc (nnz > 0 ? (size_t) nnz : 1, sizeof *scol);
  sval = mb_calloc (nnz > 0 ? (size_t) nnz : 1, sizeof *sval);
  ri = mb_calloc (nin > 0 ? (size_t) nin : 1, sizeof *ri);
  ci = mb_calloc (nin > 0 ? (size_t) nin : 1, sizeof *ci);
  rv = mb_calloc (nin > 0 ? (size_t) nin : 1, sizeof *rv);
  key = mb_calloc (nin > 0 ? (size_t) nin : 1, sizeof *key);
  P->L.rowptr = mb_calloc ((size_t) (count > 0 ? count : 0) + 2, sizeof *P->L.rowptr);
  P->L.col = mb_calloc (nin > 0 ? (size_t) nin : 1, sizeof *P->L.col);
  P->L.val = mb_calloc (nin > 0 ? (size_t) nin : 1, sizeof *P->L.val);
  if (big || !srow || !scol || !sval || !ri || !ci || !rv || !key || !P->L.rowptr
      || !P->L.col || !P->L.val)
    rc = mb_fail (err, MB_ENOMEM, "out of memory for rank %d's %ld routed entries", rank,
                  nin);
  if ((rc = mb_agree (comm, rc, err)) < 0) goto done;
  route_exchange (comm, size, nnz, row, col, val, dest, sc, srow, scol, sval, ri, ci, rv);
  rows_from_triplets (P, first, count, ncols, nin, ri, ci, rv, key);
  rc = 0;
done:
  free (lay); free (sc); free (dest); free (srow); free (scol); free (sval);
  free (ri); free (ci); free (rv); free (key);
  if (rc < 0) spm_part_clear (P);
  return rc;
}

/* Collective (every rank's growth is decided by the same nb and cap_nb). The work buffers
   for nb columns; cap_nb is set only when every rank succeeded. Returns 0 or MB_ENOMEM. */
static int grow_work (spm_rows *R, int nb, mb_err *err)
{
  int rc = 0, nc = nb < SPM_MM_CHUNK ? nb : SPM_MM_CHUNK;
  if ((size_t) R->nghost * nb > INT_MAX || (size_t) R->nsend * nb > INT_MAX)
    rc = mb_fail (err, MB_ENOMEM, "halo of %d columns too large for one message", nb);
  if (rc == 0) {
    size_t np = ((size_t) R->nloc + R->nghost) * nc, ns = (size_t) R->nsend * nb,
           nr = (size_t) R->nghost * nb;
    double *p = realloc (R->packed, (np ? np : 1) * sizeof *p);
    if (p) R->packed = p;
    double *s = realloc (R->sendbuf, (ns ? ns : 1) * sizeof *s);
    if (s) R->sendbuf = s;
    double *r = realloc (R->recvbuf, (nr ? nr : 1) * sizeof *r);
    if (r) R->recvbuf = r;
    if (!p || !s || !r || mb_fault ("rowdist"))
      rc = mb_fail (err, MB_ENOMEM, "out of memory for the row product's work (%d columns)", nb);
  }
  if ((rc = mb_agree (R->comm, rc, err)) < 0) return rc;
  R->cap_nb = nb;
  return 0;
}

/* Y = A X on this rank's rows. The halo: receives posted, this rank's entries that others
   need packed entry-major (sendbuf[t nb + j] = X(send_idx[t], j)) and sent, one message
   per neighbour for all nb columns. Then SPM_MM_CHUNK columns at a time, the chunk's x
   values packed row-interleaved over own rows and ghosts (packed[c nc + j], the first
   chunk's own rows while the messages travel) and spm_matmat_packed on L: each row the
   additions of spm_matvec on the whole matrix in the same order, so the same bits. */
int spm_rows_matmat (spm_rows *R, int nb, const double *X, int ldx, double *Y, int ldy,
                     mb_err *err)
{
  if (nb <= 0) return 0;
  if (nb > R->cap_nb) MB_TRY (grow_work (R, nb, err));
  int nloc = R->nloc, nreq = 0;
  for (int q = 0; q < R->nrecv; q++)
    MPI_Irecv (R->recvbuf + (size_t) R->recv_start[q] * nb,
               (R->recv_start[q + 1] - R->recv_start[q]) * nb, MPI_DOUBLE, R->recv_rank[q],
               ROWS_TAG, R->comm, &R->req[nreq++]);
  for (int t = 0; t < R->nsend; t++) {
    const double *x = X + R->send_idx[t];
    double *s = R->sendbuf + (size_t) t * nb;
    for (int j = 0; j < nb; j++) s[j] = x[(size_t) j * ldx];
  }
  for (int q = 0; q < R->nsendr; q++)
    MPI_Isend (R->sendbuf + (size_t) R->send_start[q] * nb,
               (R->send_start[q + 1] - R->send_start[q]) * nb, MPI_DOUBLE, R->send_rank[q],
               ROWS_TAG, R->comm, &R->req[nreq++]);
  for (int j0 = 0; j0 < nb; j0 += SPM_MM_CHUNK) {
    int nc = nb - j0 < SPM_MM_CHUNK ? nb - j0 : SPM_MM_CHUNK;
    double *w = R->packed, *y[SPM_MM_CHUNK];
    const double *x[SPM_MM_CHUNK];
    for (int j = 0; j < nc; j++) x[j] = X + (size_t) (j0 + j) * ldx;
    for (int c = 0; c < nloc; c++)  /* row by row: w written once, in order */
      for (int j = 0; j < nc; j++) w[(size_t) c * nc + j] = x[j][c];
    if (j0 == 0) MPI_Waitall (nreq, R->req, MPI_STATUSES_IGNORE);
    for (int g = 0; g < R->nghost; g++) {
      const double *r = R->recvbuf + (size_t) g * nb + j0;
      double *wg = w + ((size_t) nloc + g) * nc;
      for (int j = 0; j < nc; j++) wg[j] = r[j];
    }
    for (int j = 0; j < nc; j++) y[j] = Y + (size_t) (j0 + j) * ldy;
    spm_matmat_packed (&R->L, nc, w, y);
    for (int j = 0; j < nc; j++)
      if (nloc > R->L.nrows)
        memset (y[j] + R->L.nrows, 0, (size_t) (nloc - R->L.nrows) * sizeof *y[j]);
  }
  return 0;
}

/* Rank 0 gathers every rank's entry count, then its global rows (rebuilt from the part's
   row starts), columns and values by MPI_Gatherv into one triplet matrix in rank order,
   which is row order; spm_compress then only builds the row starts. */
int spm_part_gather (MPI_Comm comm, const spm_part *P, int nrows, int ncols, spm **A,
                     mb_err *err)
{
  int rank, size, rc = 0;
  MPI_Comm_rank (comm, &rank);
  MPI_Comm_size (comm, &size);
  long mine = P->L.nnz, total = 0;
  MPI_Allreduce (&mine, &total, 1, MPI_LONG, MPI_SUM, comm);
  int *rows = spm_part_rows (P);
  int *counts = rank == 0 ? mb_calloc ((size_t) size, sizeof *counts) : NULL;
  int *displs = rank == 0 ? mb_calloc ((size_t) size, sizeof *displs) : NULL;
  spm *T = rank == 0 ? spm_create (nrows, ncols, total > 0 ? total : 1) : NULL;
  if (total > INT_MAX)
    rc = mb_fail (err, MB_ENOMEM, "a matrix of %ld entries cannot be gathered on one rank",
                  total);
  else if (!rows || (rank == 0 && (!counts || !displs || !T)) || mb_fault ("rowdist"))
    rc = mb_fail (err, MB_ENOMEM, "out of memory gathering a matrix of %ld entries", total);
  if ((rc = mb_agree (comm, rc, err)) < 0) goto done;
  int n32 = (int) mine;
  MPI_Gather (&n32, 1, MPI_INT, counts, 1, MPI_INT, 0, comm);
  if (rank == 0)
    for (int r = 0; r < size; r++) displs[r] = r > 0 ? displs[r - 1] + counts[r - 1] : 0;
  MPI_Gatherv (rows, n32, MPI_INT, T ? T->row : NULL, counts, displs, MPI_INT, 0, comm);
  MPI_Gatherv (P->L.col, n32, MPI_INT, T ? T->col : NULL, counts, displs, MPI_INT, 0, comm);
  MPI_Gatherv (P->L.val, n32, MPI_DOUBLE, T ? T->val : NULL, counts, displs, MPI_DOUBLE, 0,
               comm);
  if (rank == 0) {
    T->nnz = total;
    rc = spm_compress (T) < 0 ? mb_fail (err, MB_ENOMEM, "out of memory gathering a matrix "
                                         "of %ld entries", total) : 0;
  }
  if ((rc = mb_agree (comm, rc, err)) < 0) goto done;
  if (rank == 0) {
    *A = T;
    T = NULL;
  }
done:
  spm_free (T);
  free (rows); free (counts); free (displs);
  return rc;
}

/* The transpose's rows on the same ranks (each entry (i, j) routed as (j, i)), then one merge
   walk per row over the part's and the transpose's sorted columns: an entry present on one
   side only is compared with 0, as spm_is_symmetric's lookup gives it. */
int spm_part_is_symmetric (MPI_Comm comm, const spm_part *P, int n, double rtol, int *sym,
                           mb_err *err)
{
  const spm *L = &P->L;
  double mx = 0.0, all_mx = 0.0;
  for (long k = 0; k < L->nnz; k++) mx = fmax (mx, fabs (L->val[k]));
  MPI_Allreduce (&mx, &all_mx, 1, MPI_DOUBLE, MPI_MAX, comm);
  double tol = rtol * all_mx;
  long nnz = L->nnz;
  int *ri = spm_part_rows (P);
  int rc = ri ? 0 : mb_fail (err, MB_ENOMEM, "out of memory testing symmetry (%ld entries)",
                             nnz);
  if ((rc = mb_agree (comm, rc, err)) < 0) { free (ri); return rc; }
  spm_part T;
  rc = spm_part_route (comm, n, n, nnz, L->col, ri, L->val, P->first, L->nrows, &T, err);
  free (ri);
  if (rc < 0) return rc;
  int mine = 1, all = 1;
  for (int i = 0; i < L->nrows && mine; i++) {
    int a = L->rowptr[i], ae = L->rowptr[i + 1], b = T.L.rowptr[i], be = T.L.rowptr[i + 1];
    while ((a < ae || b < be) && mine) {
      int ca = a < ae ? L->col[a] : INT_MAX, cb = b < be ? T.L.col[b] : INT_MAX;
      double va = ca <= cb ? L->val[a] : 0.0, vb = cb <= ca ? T.L.val[b] : 0.0;
      if (fabs (va - vb) > tol) mine = 0;
      if (ca <= cb) a++;
      if (cb <= ca) b++;
    }
  }
  spm_part_clear (&T);
  MPI_Allreduce (&mine, &all, 1, MPI_INT, MPI_MIN, comm);
  *sym = all;
  return 0;
}
