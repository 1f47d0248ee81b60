/* ks_common_impl.h: what both Krylov-Schur expansions share, written once for both
   arithmetics: the instantiation's names (KS_SUFFIX applied to bv's and ds's kernels and to
   the solver's own steps), where new basis directions come from (KS_DIRS) and how one is
   made (KS_RANDOM_UNIT). Included by krylov_schur.c once per arithmetic, the first of the
   Krylov-Schur template headers (then ks_block_impl.h, ks_dense_impl.h,
   krylov_schur_impl.h), with KS_SCALAR (double or double complex), KS_SUFFIX (helper
   names: _r, _c, which also picks bv's and ds's kernels), KS_APPLY (operator type) and
   KS_ENTRY (the public function) defined. The names defined here are undefined at the end
   of krylov_schur_impl.h, the last header, for the next instantiation. */

#define KS_BLOCK KS_SUFFIX (ds_block)
#define KS_MU KS_SUFFIX (ds_diag_mu)
#define KS_SCHUR KS_SUFFIX (ds_schur_sorted)
#define KS_EIGVECS KS_SUFFIX (ds_eigvecs)
#define KS_GS_PASS KS_SUFFIX (bv_gs_pass)
#define KS_NRM2 KS_SUFFIX (bv_nrm2)
#define KS_RANDOM_UNIT KS_SUFFIX (random_unit)
#define KS_DIRS KS_SUFFIX (dirs)
#define KS_BASIS KS_SUFFIX (basis)
#define KS_CONJ KS_SUFFIX (KS_CONJ)
#define KS_ROTATE KS_SUFFIX (bv_rotate)
#define KS_DOUBLES KS_SUFFIX (KS_DOUBLES)
#define KS_KEPT KS_SUFFIX (KS_KEPT)
#define KS_DENSE KS_SUFFIX (dense)
#define KS_DENSE_EIG KS_SUFFIX (ds_dense_eig)
#define KS_MAX_ORDER KS_SUFFIX (KS_MAX_ORDER)

/* Where new basis directions come from (owned by the solve): the random sequence (state),
   and OP (op, ctx) with a scratch vector r of nloc entries that maps each random vector
   into OP's range. A random vector has components along every eigenvector of OP, those of
   OP's eigenvalue 0 included: B singular (constraints, massless DOFs) makes that eigenvalue
   defective (Jordan chains y1, y2 with OP y2 = y1, OP y1 = 0), and a chain in the basis
   gives Ritz values of size sqrt(eps) |OP| that pass for finite eigenvalues. OP r has no
   component along y2, so its Ritz values there are of size eps |OP| and are filtered as
   infinite (the start vector is made the same way). rc: the first failure of op here
   (negative), for the caller to return; applies and the time counted into res. exhausted:
   the column at which no new direction in OP's range was left (KS_PURGE_OR_STOP), 0 while
   there is none. scale: the largest |OP v| of a unit v seen, OP's size for telling a new
   direction from rounding. how: what a breakdown gets (KS_PURGE_OR_STOP for single
   vectors, KS_PURGE_OR_PLAIN for blocks of p > 1, below). */
typedef struct KS_DIRS {
  unsigned long long state;
  KS_APPLY op;
  void *ctx;
  KS_SCALAR *r;
  double scale;
  int rc, exhausted;
  ks_result *res;
  int how;
} KS_DIRS;

/* How KS_RANDOM_UNIT makes a direction: plain random (the start vectors, to which the
   caller applies OP itself); OP r, or a plain random one when the basis already spans
   OP's range (blocks of p > 1: their Ritz values there are those of a defective zero, of
   size sqrt(eps), and such blocks are only taken for large orders, where the range is
   never spanned); OP r, or none when the basis spans OP's range (single vectors, p = 1:
   the decomposition is then exact and holds every eigenvalue of OP that is not zero). */
#ifndef KS_PURGE_OR_STOP  /* once for both arithmetics */
#define KS_PLAIN 0
#define KS_PURGE_OR_PLAIN 1
#define KS_PURGE_OR_STOP 2
#endif

/* Collective. V(:, j) = a random unit vector orthogonal to V(:, 0:j-1) (the start vector,
   and after a breakdown): two Gram-Schmidt passes. The random sequence runs over all n
   rows on every rank, so the vector is the same whatever the number of ranks. A purged
   vector (how, above) is OP r for a random r orthogonal to the basis, in OP's range (see
   KS_DIRS); OP's range is spanned when two tries leave less than 1e-8 of OP r or less than
   1e-12 of OP's size (the breakdown test's rounding), while a plain vector is kept from
   1e-8 of itself. h is workspace of j entries, red of KS_DOUBLES j + 1
   doubles.
   Returns 0, -1 when no vector could be made (the basis spans the whole space, or OP
   failed: dirs->rc), -2 when OP's range is spanned (KS_PURGE_OR_STOP). */
static int KS_RANDOM_UNIT (const ks_dist *d, int j, KS_SCALAR *V, KS_SCALAR *h, double *red,
                           KS_DIRS *dirs, int how)
{
  int ld = d->nloc > 0 ? d->nloc : 1;
  int tries = how != KS_PLAIN && dirs->op && dirs->r ? 2 : 0, plain = how == KS_PURGE_OR_STOP ? 0 : 5;
  KS_SCALAR *v = V + (size_t) j * ld;
  for (int attempt = 0; attempt < tries + plain; attempt++) {
    int purge = attempt < tries;
    KS_SCALAR *r = purge ? dirs->r : v;
    KS_SUFFIX (bv_random) (d, &dirs->state, r);
    if (purge) {  /* r made orthogonal to the basis first: at a breakdown the basis is
                     invariant, and OP r then has no part along its dominant directions
                     that would leave only rounding after the projection below */
      KS_GS_PASS (d, j, V, r, h, red);
      KS_GS_PASS (d, j, V, r, h, red);
      double t0 = MPI_Wtime ();
      int rc = dirs->op (dirs->ctx, 1, r, ld, v, ld);
      dirs->res->applies++;
      dirs->res->time_apply += MPI_Wtime () - t0;
      if (rc < 0) {  /* the same on every rank: the operator's failures are agreed */
        dirs->rc = rc;
        return -1;
      }
    }
    double before = sqrt (KS_GS_PASS (d, j, V, v, h, red));
    if (j > 0) KS_GS_PASS (d, j, V, v, h, red);
    double nv = KS_NRM2 (d, v);
    if (nv > 1e-8 * before && (!purge || nv > 1e-12 * dirs->scale)) {
      for (int i = 0; i < d->nloc; i++) v[i] /= nv;
      return 0;
    }
  }
  return tries > 0 && plain == 0 ? -2 : -1;
}
