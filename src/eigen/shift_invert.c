/* shift_invert.c: OP = (A - sigma B)^-1 B on row-distributed Krylov vectors. */
#include "shift_invert.h"

#include <stdlib.h>
#include <string.h>

#include "pencil.h"

/* Collective. The distribution of order N and, on the gathering path (complex arithmetic,
   or one rank), rank 0's buffers (vsize bytes an entry); by rows (real arithmetic on more
   than one rank), this rank's rows of M (spm_rows_scatter, or the parts' own:
   spm_rows_from_part). Everything is owned by si until shift_invert_clear. Returns 0 or an
   error (MB_ENOMEM) on every rank. */
int shift_invert_init (shift_invert *si, MPI_Comm comm, factor *f, const gep_system *sys,
                       const gep_parts *parts, int N, size_t vsize, mb_err *err)
{
  int rank, size;
  MPI_Comm_rank (comm, &rank);
  MPI_Comm_size (comm, &size);
  memset (si, 0, sizeof *si);
  si->comm = comm;
  si->f = f;
  si->sys = sys;
  si->err = err;
  ks_dist_init (&si->dist, comm, N);
  si->damped = N != sys->n + sys->m;  /* GEP (31): N = 2n + m */
  if (vsize == sizeof (double) && shift_invert_by_rows (comm)) {
    int damped = si->damped, nr = sys->n + sys->m;
    int fail = mb_fault ("krylov");
    if (damped && !fail) {
      si->cnt = mb_calloc (4 * (size_t) size, sizeof *si->cnt);
      fail = !si->cnt;
    }
    int rc = mb_agree (comm, fail ? mb_fail (err, MB_ENOMEM, "out of memory for the "
                       "shift-invert rows (order %d)", N) : 0, err);
    if (rc < 0) return rc;
    const ks_dist *lay = &si->dist;
    if (damped) {  /* M and R by the rows of the reduced order */
      ks_dist_init (&si->rdist, comm, nr);
      lay = &si->rdist;
    }
    /* from the parts when the system is by rows: their layout (order n + m) is the
       Krylov layout of GEP (18) and the reduced layout of GEP (31) */
    si->mrows = parts
                ? spm_rows_from_part (comm, &parts->M, sys->n, lay->n, lay->row0, lay->nloc, err)
                : spm_rows_scatter (comm, rank == 0 ? sys->M : NULL, lay->n, lay->row0,
                                    lay->nloc, err);
    if (!si->mrows) return err->code ? err->code : MB_ENOMEM;  /* agreed by the scatter */
    int has_r = parts ? parts->R.L.rowptr != NULL : rank == 0 && sys->R != NULL, any_r;
    MPI_Allreduce (&has_r, &any_r, 1, MPI_INT, MPI_MAX, comm);
    has_r = any_r;
    if (damped && has_r) {
      si->rrows = parts
                  ? spm_rows_from_part (comm, &parts->R, sys->n, lay->n, lay->row0, lay->nloc,
                                        err)
                  : spm_rows_scatter (comm, rank == 0 ? sys->R : NULL, lay->n, lay->row0,
                                      lay->nloc, err);
      if (!si->rrows) return err->code ? err->code : MB_ENOMEM;
    }
    return 0;
  }
  int ok = !mb_fault ("krylov");
  if (rank == 0 && ok) {
    si->counts = mb_calloc ((size_t) size, sizeof *si->counts);
    si->displs = mb_calloc ((size_t) size, sizeof *si->displs);
    si->full = mb_calloc ((size_t) N, vsize);
    ok = si->counts && si->displs && si->full;
  }
  int rc = ok ? 0 : mb_fail (err, MB_ENOMEM, "out of memory for the shift-invert vectors "
                             "(order %d)", N);
  rc = mb_agree (comm, rc, err);
  if (rc < 0) return rc;
  MPI_Gather (&si->dist.nloc, 1, MPI_INT, si->counts, 1, MPI_INT, 0, comm);
  MPI_Gather (&si->dist.row0, 1, MPI_INT, si->displs, 1, MPI_INT, 0, comm);
  return 0;
}

/* More than one rank: by rows (the same answer on every rank). */
int shift_invert_by_rows (MPI_Comm comm)
{
  int size;
  MPI_Comm_size (comm, &size);
  return size > 1;
}

/* Every rank: the shift and balancing factor that the damped applies use. */
void shift_invert_set_damped (shift_invert *si, double complex sigma, double w)
{
  si->sigma = sigma;
  si->w = w;
}

/* Frees rank 0's buffers (the factors stay the caller's) and zeroes si. */
void shift_invert_clear (shift_invert *si)
{
  free (si->counts); free (si->displs); free (si->full); free (si->blk);
  spm_rows_free (si->mrows);
  spm_rows_free (si->rrows);
  free (si->xcopy); free (si->work); free (si->sbuf); free (si->rbuf); free (si->cnt);
  memset (si, 0, sizeof *si);
}

/* Collective. Y = (A - sigma B)^-1 B X for the undamped pencil by rows, nb columns of this
   rank's rows: Y = [M X_q; 0] on these rows (spm_rows_matmat: one halo exchange), then one
   solve by rows in place (factor_solve_rows). X is first copied into si->xcopy (grown on
   demand, owned by si) when it overlaps Y. Returns 0 or an error on every rank. */
static int apply_by_rows (shift_invert *si, int nb, const double *X, int ldx, double *Y,
                          int ldy)
{
  size_t nloc = (size_t) si->dist.nloc, xlen = (size_t) ldx * (size_t) (nb - 1) + nloc;
  size_t ylen = (size_t) ldy * (size_t) (nb - 1) + nloc;
  int overlap = nloc > 0 && X < Y + ylen && Y < X + xlen, ok = 1;
  if (overlap && si->xcopy_len < nloc * (size_t) nb) {
    double *p = mb_fault ("krylov") ? NULL : realloc (si->xcopy, nloc * (size_t) nb * sizeof *p);
    if (p) { si->xcopy = p; si->xcopy_len = nloc * (size_t) nb; }
    else ok = 0;
  }
  int rc = mb_agree (si->comm, ok ? 0 : mb_fail (si->err, MB_ENOMEM, "out of memory for the "
                     "block of shift-invert vectors (order %d)", si->dist.n), si->err);
  if (rc < 0) return rc;
  if (overlap) {
    for (int j = 0; j < nb; j++)
      memcpy (si->xcopy + (size_t) j * nloc, X + (size_t) j * ldx, nloc * sizeof *X);
    X = si->xcopy;
    ldx = (int) (nloc > 0 ? nloc : 1);
  }
  rc = spm_rows_matmat (si->mrows, nb, X, ldx, Y, ldy, si->err);
  if (rc < 0) return rc;
  double t = MPI_Wtime ();
  rc = factor_solve_rows (si->f, si->dist.row0, si->dist.nloc, Y, ldy, nb, si->err);
  si->t_solve += MPI_Wtime () - t;
  si->solves += nb;
  if (nb > 1) si->block_solves++;
  return rc;
}

/* The rows [*lo, *hi) of the block layout of order n over size ranks that rank r holds
   (ks_dist_init's split). */
static void block_rows (int n, int size, int r, int *lo, int *hi)
{
  *lo = (int) ((long long) n * r / size);
  *hi = (int) ((long long) n * (r + 1) / size);
}

/* p (owned) with room for need doubles (*cap counts them), contents dropped when it grows;
   NULL when out of memory (p freed, *cap = 0). */
static double *grow_doubles (double *p, size_t *cap, size_t need)
{
  if (p && *cap >= need) return p;
  free (p);
  *cap = 0;
  p = mb_fault ("krylov") ? NULL : mb_calloc (need > 0 ? need : 1, sizeof *p);
  if (p) *cap = need;
  return p;
}

/* The rows [*l, *h) of [lo, hi) that land in [rlo, rhi) when moved by shift (row g goes to
   g + shift), as rows before the move; *h <= *l when none does. */
static void moved_overlap (int lo, int hi, int rlo, int rhi, int shift, int *l, int *h)
{
  *l = rlo - shift > lo ? rlo - shift : lo;
  *h = rhi - shift < hi ? rhi - shift : hi;
}

/* Collective. Y(d0 + i, j) = X(s0 + i, j) for 0 <= i < len, j < nb, between two block layouts
   of orders ns (X's: this rank's rows at X, leading dimension ldx) and nd (Y's). Each rank
   sends the rows it holds of the source range to the ranks that hold their destinations,
   column after column in si->sbuf; one MPI_Alltoallv; received in the same order into
   si->rbuf and put in place. Returns 0 or MB_ENOMEM on every rank. */
static int remap_rows (shift_invert *si, int ns, int nd, int s0, int d0, int len, int nb,
                       const double *X, int ldx, double *Y, int ldy)
{
  int P, me;
  MPI_Comm_size (si->comm, &P);
  MPI_Comm_rank (si->comm, &me);
  int *sc = si->cnt, *sd = sc + P, *rc = sd + P, *rd = rc + P;
  int a, ah, b, bh, shift = d0 - s0;
  block_rows (ns, P, me, &a, &ah);
  block_rows (nd, P, me, &b, &bh);
  int lo = a > s0 ? a : s0, hi = ah < s0 + len ? ah : s0 + len;  /* my source rows moved */
  int dlo = b > d0 ? b : d0, dhi = bh < d0 + len ? bh : d0 + len;  /* my rows written */
  size_t ns_tot = 0, nr_tot = 0;
  for (int r = 0; r < P; r++) {
    int rlo, rhi, l, h;
    block_rows (nd, P, r, &rlo, &rhi);  /* sent to r: my moved rows that land in r's */
    moved_overlap (lo, hi, rlo, rhi, shift, &l, &h);
    sc[r] = h > l ? (h - l) * nb : 0;
    block_rows (ns, P, r, &rlo, &rhi);  /* received from r: r's rows that land in mine */
    moved_overlap (rlo + shift, rhi + shift, dlo, dhi, 0, &l, &h);
    rc[r] = h > l ? (h - l) * nb : 0;
    sd[r] = (int) ns_tot;
    rd[r] = (int) nr_tot;
    ns_tot += (size_t) sc[r];
    nr_tot += (size_t) rc[r];
  }
  si->sbuf = grow_doubles (si->sbuf, &si->cap_sbuf, ns_tot);
  si->rbuf = grow_doubles (si->rbuf, &si->cap_rbuf, nr_tot);
  int st = mb_agree (si->comm, si->sbuf && si->rbuf ? 0 : mb_fail (si->err, MB_ENOMEM,
                     "out of memory for the shift-invert rows (order %d)", si->dist.n),
                     si->err);
  if (st < 0) return st;
  for (int r = 0; r < P; r++) {  /* pack: per destination, column after column */
    int rlo, rhi, l, h;
    block_rows (nd, P, r, &rlo, &rhi);
    moved_overlap (lo, hi, rlo, rhi, shift, &l, &h);
    double *out = si->sbuf + sd[r];
    for (int j = 0; j < nb && h > l; j++)
      for (int g = l; g < h; g++) *out++ = X[(size_t) j * ldx + (g - a)];
  }
  MPI_Alltoallv (si->sbuf, sc, sd, MPI_DOUBLE, si->rbuf, rc, rd, MPI_DOUBLE, si->comm);
  for (int r = 0; r < P; r++) {  /* unpack in the same order (rows after the move) */
    int rlo, rhi, l, h;
    block_rows (ns, P, r, &rlo, &rhi);
    moved_overlap (rlo + shift, rhi + shift, dlo, dhi, 0, &l, &h);
    const double *in = si->rbuf + rd[r];
    for (int j = 0; j < nb && h > l; j++)
      for (int g = l; g < h; g++) Y[(size_t) j * ldy + (g - b)] = *in++;
  }
  return 0;
}

/* Collective. Y = OP X for GEP (31) at a real shift by rows, nb columns of the Krylov
   layout (order 2n + m): U = x_u and V = x_v moved to the reduced layout's rows (order
   n + m; rows >= n zero), V = w V + sigma U, Z = -(M V + R U) there (spm_rows_matmat: one
   halo exchange each), solved in place by rows (factor_solve_rows), V = (U + sigma Z) / w,
   and [Z_q; V; Z_xi] moved back to Y's rows. Work blocks in si->work (grown on demand).
   Returns 0 or an error on every rank. */
static int apply_damped_real_by_rows (shift_invert *si, int nb, const double *X, int ldx,
                                      double *Y, int ldy)
{
  const gep_system *sys = si->sys;
  int n = sys->n, m = sys->m, nr = n + m, N = si->dist.n, rl = si->rdist.nloc;
  int r0 = si->rdist.row0, ld = rl > 0 ? rl : 1;
  double sigma = creal (si->sigma), w = si->w;
  if ((size_t) nb > si->cap_nb) {
    free (si->work);
    si->work = mb_fault ("krylov") ? NULL : mb_calloc ((size_t) 4 * ld * nb, sizeof *si->work);
    si->cap_nb = si->work ? (size_t) nb : 0;
  }
  int rc = mb_agree (si->comm, si->work ? 0 : mb_fail (si->err, MB_ENOMEM, "out of memory for "
                     "the block of shift-invert vectors (order %d)", N), si->err);
  if (rc < 0) return rc;
  size_t blk = (size_t) ld * nb;
  double *U = si->work, *V = U + blk, *Z = V + blk, *T = Z + blk;
  memset (U, 0, 2 * blk * sizeof *U);
  if ((rc = remap_rows (si, N, nr, 0, 0, n, nb, X, ldx, U, ld)) < 0) return rc;
  if ((rc = remap_rows (si, N, nr, n, 0, n, nb, X, ldx, V, ld)) < 0) return rc;
  for (int j = 0; j < nb; j++)
    for (int k = 0; k < rl && r0 + k < n; k++) {
      size_t q = (size_t) j * ld + k;
      V[q] = w * V[q] + sigma * U[q];
    }
  if ((rc = spm_rows_matmat (si->mrows, nb, V, ld, Z, ld, si->err)) < 0) return rc;
  if (si->rrows && (rc = spm_rows_matmat (si->rrows, nb, U, ld, T, ld, si->err)) < 0) return rc;
  for (size_t q = 0; q < blk; q++) Z[q] = -(Z[q] + (si->rrows ? T[q] : 0.0));
  double t = MPI_Wtime ();
  rc = factor_solve_rows (si->f, r0, rl, Z, ld, nb, si->err);
  si->t_solve += MPI_Wtime () - t;
  si->solves += nb;
  if (nb > 1) si->block_solves++;
  if (rc < 0) return rc;
  for (int j = 0; j < nb; j++)
    for (int k = 0; k < rl && r0 + k < n; k++) {
      size_t q = (size_t) j * ld + k;
      V[q] = (U[q] + sigma * Z[q]) / w;
    }
  if ((rc = remap_rows (si, nr, N, 0, 0, n, nb, Z, ld, Y, ldy)) < 0) return rc;
  if ((rc = remap_rows (si, nr, N, 0, n, n, nb, V, ld, Y, ldy)) < 0) return rc;
  return remap_rows (si, nr, N, n, 2 * n, m, nb, Z, ld, Y, ldy);
}

/* Collective. Rank 0's block buffer of at least count entries of vsize bytes (grown on
   demand, owned by si). Returns 0 or MB_ENOMEM on every rank. */
static int block_buffer (shift_invert *si, size_t count, size_t vsize)
{
  int rank, ok = 1;
  MPI_Comm_rank (si->comm, &rank);
  if (rank == 0 && count * vsize > si->blk_bytes) {
    void *p = mb_fault ("krylov") ? NULL : realloc (si->blk, count * vsize);
    if (p) { si->blk = p; si->blk_bytes = count * vsize; }
    else ok = 0;
  }
  int rc = ok ? 0 : mb_fail (si->err, MB_ENOMEM, "out of memory for the block of shift-invert "
                             "vectors (order %d)", si->dist.n);
  return mb_agree (si->comm, rc, si->err);
}

/* Collective (one rank: the undamped operator on more works by rows). Y = (A - sigma B)^-1
   B X for the undamped pencil, nb columns: with ldy = N and X, Y apart, Y = B X
   (pencil_b_undamped_block, rank 0's block buffer holding spm_matmat's work) solved there
   in place; otherwise B X into the block buffer (N x nb, then the work), solved there and
   copied into Y. block: 1 when the caller is a block apply (counted in si->block_solves). */
static int apply_undamped_one_rank (shift_invert *si, int nb, const double *X, int ldx,
                                    double *Y, int ldy, int block)
{
  size_t N = (size_t) si->dist.n, mmw = SPM_MM_WORK ((size_t) si->sys->n);
  int apart = Y + (size_t) ldy * nb <= X || X + (size_t) ldx * nb <= Y;
  int inplace = (size_t) ldy == N && apart;
  int rc = block_buffer (si, (inplace ? 0 : N * nb) + mmw, sizeof (double));
  if (rc < 0) return rc;
  double *blk = si->blk, *Z = inplace ? Y : blk, *work = inplace ? blk : blk + N * nb;
  pencil_b_undamped_block (si->sys, nb, X, ldx, Z, inplace ? ldy : (int) N, work);
  double t = MPI_Wtime ();
  rc = factor_solve_many (si->f, Z, nb, si->err);
  for (int j = 0; rc == 0 && !inplace && j < nb; j++)
    memcpy (Y + (size_t) j * ldy, Z + (size_t) j * N, N * sizeof *Y);
  si->t_solve += MPI_Wtime () - t;
  si->solves += nb;
  si->block_solves += block;
  return rc;
}

/* Collective. Y = (A - sigma B)^-1 B X for the damped pencil by the reduced solve on rank 0,
   nb columns; cplx: 1 for double complex vectors and shift (GEP (31) at a complex shift),
   0 for doubles (a real shift, real factors). Rank 0's block buffer: nb gathered columns of
   order N = 2n + m (XF), then nb reduced right-hand sides of order nr = n + m (Z), then (real
   arithmetic) spm_matmat's work. z = -(M (w x_v + sigma x_u) + R x_u) is formed per column
   in complex arithmetic (pencil_damped_reduce_rhs, work si->full) and for the block at once
   in real arithmetic (pencil_damped_reduce_rhs_real_block, each column bit for bit the
   single form's); one multi-RHS solve; each column of XF expanded in place
   (pencil_damped_expand) and scattered. block: 1 when the caller is a block apply (counted
   in si->block_solves). */
static int apply_damped_gathered (shift_invert *si, int nb, const void *X, int ldx, void *Y,
                                  int ldy, int cplx, int block)
{
  const gep_system *sys = si->sys;
  size_t N = (size_t) si->dist.n, nr = (size_t) sys->n + (size_t) sys->m;
  size_t vs = cplx ? sizeof (double complex) : sizeof (double);
  MPI_Datatype type = cplx ? MPI_C_DOUBLE_COMPLEX : MPI_DOUBLE;
  int rank, rc = block_buffer (si, (N + nr) * nb + (cplx ? 0 : SPM_MM_WORK (sys->n)), vs);
  if (rc < 0) return rc;
  MPI_Comm_rank (si->comm, &rank);
  char *XF = si->blk, *Z = rank == 0 ? XF + N * nb * vs : NULL;
  double sigma = creal (si->sigma);
  for (int j = 0; j < nb; j++) {
    MPI_Gatherv ((const char *) X + (size_t) j * ldx * vs, si->dist.nloc, type,
                 rank == 0 ? XF + N * j * vs : NULL, si->counts, si->displs, type, 0, si->comm);
    if (rank == 0 && cplx)
      pencil_damped_reduce_rhs (sys, si->sigma, si->w, (double complex *) (XF + N * j * vs),
                                (double complex *) (Z + nr * j * vs), si->full);
  }
  if (rank == 0 && !cplx)
    pencil_damped_reduce_rhs_real_block (sys, sigma, si->w, nb, (double *) XF, (int) N,
                                         (double *) Z, (int) nr,
                                         (double *) (XF + (N + nr) * nb * vs));
  double t = MPI_Wtime ();
  rc = factor_solve_many (si->f, Z, nb, si->err);
  for (int j = 0; rc == 0 && j < nb; j++) {
    if (rank == 0 && cplx)
      pencil_damped_expand (sys, si->sigma, si->w, (double complex *) (Z + nr * j * vs),
                            (double complex *) (XF + N * j * vs));
    else if (rank == 0)
      pencil_damped_expand_real (sys, sigma, si->w, (double *) (Z + nr * j * vs),
                                 (double *) (XF + N * j * vs));
    MPI_Scatterv (rank == 0 ? XF + N * j * vs : NULL, si->counts, si->displs, type,
                  (char *) Y + (size_t) j * ldy * vs, si->dist.nloc, type, 0, si->comm);
  }
  si->t_solve += MPI_Wtime () - t;
  si->solves += nb;
  si->block_solves += block;
  return rc;
}

/* Collective. OP in real arithmetic (GEP (18), or GEP (31) at a real shift: si->damped),
   nb columns: by rows on more than one rank, else on rank 0's whole vectors. block: 1 when
   the caller is a block apply (counted in si->block_solves). */
static int apply_real (shift_invert *si, int nb, const double *X, int ldx, double *Y, int ldy,
                       int block)
{
  if (si->damped)
    return si->mrows ? apply_damped_real_by_rows (si, nb, X, ldx, Y, ldy)
                     : apply_damped_gathered (si, nb, X, ldx, Y, ldy, 0, block);
  return si->mrows ? apply_by_rows (si, nb, X, ldx, Y, ldy)
                   : apply_undamped_one_rank (si, nb, X, ldx, Y, ldy, block);
}

/* Collective. The public applies: one column is a block of 1 (not counted as a block
   solve); complex arithmetic is GEP (31) at a complex shift, always gathered. */
int shift_invert_apply_real (void *ctx, const double *x, double *y)
{
  shift_invert *si = ctx;
  int ld = si->dist.nloc > 0 ? si->dist.nloc : 1;   /* a rank may hold no row */
  return apply_real (si, 1, x, ld, y, ld, 0);
}

int shift_invert_apply_block_real (void *ctx, int nb, const double *X, int ldx, double *Y,
                                   int ldy)
{
  return apply_real (ctx, nb, X, ldx, Y, ldy, 1);
}

int shift_invert_apply_complex (void *ctx, const double complex *x, double complex *y)
{
  shift_invert *si = ctx;
  int ld = si->dist.nloc > 0 ? si->dist.nloc : 1;
  return apply_damped_gathered (si, 1, x, ld, y, ld, 1, 0);
}

int shift_invert_apply_block_complex (void *ctx, int nb, const double complex *X, int ldx,
                                      double complex *Y, int ldy)
{
  return apply_damped_gathered (ctx, nb, X, ldx, Y, ldy, 1, 1);
}
