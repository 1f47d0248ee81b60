/* shift_invert.c: OP = (A - sigma B)^-1 B on row-distributed Krylov vectors. */
#include "shift_invert.h"

#include <stdlib.h>
#include <string.h>


/* Collective. The distribution of order N and this rank's rows of M (and of R for GEP (31)),
   in the Krylov layout for GEP (18) and in the reduced layout of order n + m (si->rdist) for
   GEP (31), taken from the parts (spm_rows_from_part; on one rank all rows, no halo).
   Everything is owned by si until shift_invert_clear. Returns 0 or an error (MB_ENOMEM,
   or a layout the parts do not fit) on every rank. */
int shift_invert_init (shift_invert *si, MPI_Comm comm, factor *f, const gep_system *sys,
                       const gep_parts *parts, int N, mb_err *err)
{
  int size;
  MPI_Comm_size (comm, &size);
  memset (si, 0, sizeof *si);
  si->comm = comm;
  si->f = f;
  si->sys = sys;
  si->err = err;
  ks_dist_init (&si->dist, comm, N);
  si->damped = N != sys->n + sys->m;  /* GEP (31): N = 2n + m */
  int fail = mb_fault ("krylov");
  if (si->damped && !fail) {
    si->cnt = mb_calloc (4 * (size_t) size, sizeof *si->cnt);
    fail = !si->cnt;
  }
  int rc = mb_agree (comm, fail ? mb_fail (err, MB_ENOMEM, "out of memory for the "
                     "shift-invert rows (order %d)", N) : 0, err);
  if (rc < 0) return rc;
  const ks_dist *lay = &si->dist;
  if (si->damped) {  /* M and R by the rows of the reduced order */
    ks_dist_init (&si->rdist, comm, sys->n + sys->m);
    lay = &si->rdist;
  }
  /* the parts' layout (order n + m) is the Krylov layout of GEP (18) and the reduced
     layout of GEP (31) */
  si->mrows = spm_rows_from_part (comm, &parts->M, sys->n, lay->n, lay->row0, lay->nloc, err);
  if (!si->mrows) return err->code ? err->code : MB_ENOMEM;  /* agreed there */
  int has_r = parts->R.L.rowptr != NULL, any_r;
  MPI_Allreduce (&has_r, &any_r, 1, MPI_INT, MPI_MAX, comm);
  if (si->damped && any_r) {
    si->rrows = spm_rows_from_part (comm, &parts->R, sys->n, lay->n, lay->row0, lay->nloc,
                                    err);
    if (!si->rrows) return err->code ? err->code : MB_ENOMEM;
  }
  return 0;
}

/* Every rank: the shift and balancing factor that the damped applies use. */
void shift_invert_set_damped (shift_invert *si, double complex sigma, double w)
{
  si->sigma = sigma;
  si->w = w;
}

/* Frees the rows and buffers (the factors stay the caller's) and zeroes si. */
void shift_invert_clear (shift_invert *si)
{
  spm_rows_free (si->mrows);
  spm_rows_free (si->rrows);
  free (si->xcopy); free (si->work); free (si->split); free (si->sbuf); free (si->rbuf);
  free (si->cnt);
  memset (si, 0, sizeof *si);
}

/* *p (owned, *cap bytes) with room for need bytes: kept when large enough, else freed and
   allocated anew (contents dropped). Returns 1, or 0 when out of memory (fault site
   "krylov"; *p NULL, *cap 0). Not collective: the callers agree on the outcome. */
static int grow (void **p, size_t *cap, size_t need)
{
  if (*p && *cap >= need) return 1;
  free (*p);
  *cap = 0;
  *p = mb_fault ("krylov") ? NULL : malloc (need > 0 ? need : 1);
  if (*p) *cap = need;
  return *p != NULL;
}

/* Collective. B = F^-1 B in place with the factors F = si->f for nb columns of this rank's
   rows r0 .. r0 + nloc - 1 of the factors' order (leading dimension ld; double or double
   complex by the factors' kind), counted in si's solves and solve time: by rows
   (factor_solve_rows), or on one rank, where B is the whole block, with contiguous columns
   (ld = nloc) by MUMPS's centralized solve (factor_solve_many), which is faster there than
   its distributed right-hand sides and solution (docs/method.md). Returns 0 or an error on
   every rank. */
static int solve_block (shift_invert *si, int r0, int nloc, void *B, int ld, int nb)
{
  int size;
  MPI_Comm_size (si->comm, &size);
  double t = MPI_Wtime ();
  int rc = size == 1 && ld == nloc ? factor_solve_many (si->f, B, nb, si->err)
                                   : factor_solve_rows (si->f, r0, nloc, B, ld, nb, si->err);
  si->t_solve += MPI_Wtime () - t;
  si->solves += nb;
  if (nb > 1) si->block_solves++;
  return rc;
}

/* Collective. Y = (A - sigma B)^-1 B X for GEP (18), nb columns of this rank's rows:
   Y = [M X_q; 0] on these rows (spm_rows_matmat: one halo exchange, none on one rank), then
   one solve in place (solve_block). X is first copied into si->xcopy (grown
   on demand, owned by si) when it overlaps Y. Returns 0 or an error on every rank. */
static int apply_undamped (shift_invert *si, int nb, const double *X, int ldx, double *Y,
                           int ldy)
{
  size_t nloc = (size_t) si->dist.nloc, xlen = (size_t) ldx * (size_t) (nb - 1) + nloc;
  size_t ylen = (size_t) ldy * (size_t) (nb - 1) + nloc;
  int overlap = nloc > 0 && X < Y + ylen && Y < X + xlen;
  int ok = !overlap || grow (&si->xcopy, &si->cap_xcopy, nloc * (size_t) nb * sizeof *X);
  int rc = mb_agree (si->comm, ok ? 0 : mb_fail (si->err, MB_ENOMEM, "out of memory for the "
                     "block of shift-invert vectors (order %d)", si->dist.n), si->err);
  if (rc < 0) return rc;
  if (overlap) {
    double *C = si->xcopy;
    for (int j = 0; j < nb; j++)
      memcpy (C + (size_t) j * nloc, X + (size_t) j * ldx, nloc * sizeof *X);
    X = C;
    ldx = (int) nloc;
  }
  rc = spm_rows_matmat (si->mrows, nb, X, ldx, Y, ldy, si->err);
  if (rc < 0) return rc;
  return solve_block (si, si->dist.row0, si->dist.nloc, Y, ldy, nb);
}

/* The rows [*lo, *hi) of the block layout of order n over size ranks that rank r holds
   (ks_dist_init's split). */
static void block_rows (int n, int size, int r, int *lo, int *hi)
{
  *lo = (int) ((long long) n * r / size);
  *hi = (int) ((long long) n * (r + 1) / size);
}

/* One piece of a row exchange between two block layouts (remap_rows): rows s0 .. s0 + len - 1
   of the source block go to rows d0 .. d0 + len - 1 of the destination block. X, Y: this
   rank's rows of each (double or double complex, by the arithmetic), leading dimensions
   ldx, ldy; borrowed. */
typedef struct remap_seg {
  int s0, d0, len;
  const void *X;
  int ldx;
  void *Y;
  int ldy;
} remap_seg;

/* The source rows [*l, *h) of segment g that lie in [slo, shi) and land in [dlo, dhi) (row
   q goes to q + d0 - s0); *h <= *l when none does. */
static void seg_rows (const remap_seg *g, int slo, int shi, int dlo, int dhi, int *l, int *h)
{
  int shift = g->d0 - g->s0;
  *l = g->s0;
  if (slo > *l) *l = slo;
  if (dlo - shift > *l) *l = dlo - shift;
  *h = g->s0 + g->len;
  if (shi < *h) *h = shi;
  if (dhi - shift < *h) *h = dhi - shift;
}

/* Collective. Y = A X on this rank's rows, nb real columns of leading dimension ld (both):
   spm_rows_matmat. */
static int rows_matmat_real (shift_invert *si, spm_rows *A, int nb, const double *X, int ld,
                             double *Y)
{
  return spm_rows_matmat (A, nb, X, ld, Y, ld, si->err);
}

/* Collective. The same for nb complex columns and a real A: A (a + i b) = A a + i A b, the
   real and imaginary parts split into 2 nb real columns in si->split (grown on demand,
   owned by si; fault site "krylov"), one spm_rows_matmat of them (one halo exchange), and
   joined into Y. Each part is bit for bit spm_matvec's, so each column is
   spm_matvec_complex's. Returns 0 or an error on every rank. */
static int rows_matmat_complex (shift_invert *si, spm_rows *A, int nb, const double complex *X,
                                int ld, double complex *Y)
{
  size_t blk = (size_t) ld * 2 * nb;
  int ok = grow (&si->split, &si->cap_split, 2 * blk * sizeof (double));
  int rc = mb_agree (si->comm, ok ? 0 : mb_fail (si->err, MB_ENOMEM, "out of memory for the "
                     "block of shift-invert vectors (order %d)", si->dist.n), si->err);
  if (rc < 0) return rc;
  double *S = si->split, *P = S + blk;  /* column 2j: Re x_j, 2j + 1: Im x_j */
  for (int j = 0; j < nb; j++)
    for (int k = 0; k < ld; k++) {
      S[(size_t) 2 * j * ld + k] = creal (X[(size_t) j * ld + k]);
      S[(size_t) (2 * j + 1) * ld + k] = cimag (X[(size_t) j * ld + k]);
    }
  if ((rc = spm_rows_matmat (A, 2 * nb, S, ld, P, ld, si->err)) < 0) return rc;
  for (int j = 0; j < nb; j++)
    for (int k = 0; k < ld; k++)
      Y[(size_t) j * ld + k] = CMPLX (P[(size_t) 2 * j * ld + k],
                                      P[(size_t) (2 * j + 1) * ld + k]);
  return 0;
}

/* GEP (31)'s apply by rows (apply_damped_real, apply_damped_complex) and its row exchange
   (remap_rows_real, remap_rows_complex), written once in shift_invert_impl.h. */
#define SI_SCALAR double
#define SI_MPI MPI_DOUBLE
#define SI_SHIFT(s) creal (s)
#define SI_MATMAT rows_matmat_real
#define SI_NAME(f) f##_real
#include "shift_invert_impl.h"
#undef SI_SCALAR
#undef SI_MPI
#undef SI_SHIFT
#undef SI_MATMAT
#undef SI_NAME
#define SI_SCALAR double complex
#define SI_MPI MPI_C_DOUBLE_COMPLEX
#define SI_SHIFT(s) (s)
#define SI_MATMAT rows_matmat_complex
#define SI_NAME(f) f##_complex
#include "shift_invert_impl.h"
#undef SI_SCALAR
#undef SI_MPI
#undef SI_SHIFT
#undef SI_MATMAT
#undef SI_NAME

/* Collective. The public applies (Krylov-Schur's operator): nb columns, a single column
   being a block of 1 (not counted as a block solve); real arithmetic is GEP (18) or
   GEP (31) at a real shift (si->damped), complex arithmetic GEP (31) at a complex shift. */
int shift_invert_apply_block_real (void *ctx, int nb, const double *X, int ldx, double *Y,
                                   int ldy)
{
  shift_invert *si = ctx;
  return si->damped ? apply_damped_real (si, nb, X, ldx, Y, ldy)
                    : apply_undamped (si, nb, X, ldx, Y, ldy);
}

int shift_invert_apply_block_complex (void *ctx, int nb, const double complex *X, int ldx,
                                      double complex *Y, int ldy)
{
  return apply_damped_complex (ctx, nb, X, ldx, Y, ldy);
}
