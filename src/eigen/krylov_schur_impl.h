/* krylov_schur_impl.h: the Krylov-Schur restart loop, included by krylov_schur.c once per
   arithmetic with KS_SCALAR (double or double complex), KS_SUFFIX (helper names: _r, _c,
   which also picks bv's and ds's kernels), KS_APPLY (operator type) and KS_ENTRY (the
   public function) defined.
   Vectors are distributed by rows (ks_dist, bv.h); H, its Schur form (ds.h) and every
   decision are computed on rank 0 and broadcast. Reading order, seed 001's Algorithms:
   KS_ENTRY -> solve_single (Algorithm 1: start_vector, KS_EXPAND = Algorithm 2 with its
   dcgs2_step, restart = the Schur step, the convergence test and locking, then truncate)
   or solve_block (the same with start_block, expand_block and its lag_step, and the
   probes); take_result and gather_vectors return the Ritz pairs; KS_DENSE is the
   whole-space path. OP (Algorithm 3 for shift-invert) is the caller's KS_APPLY. */

#define KS_BLOCK KS_SUFFIX (ds_block)
#define KS_MU KS_SUFFIX (ds_diag_mu)
#define KS_SCHUR KS_SUFFIX (ds_schur_sorted)
#define KS_EIGVECS KS_SUFFIX (ds_eigvecs)
#define KS_GS_PASS KS_SUFFIX (bv_gs_pass)
#define KS_NRM2 KS_SUFFIX (bv_nrm2)
#define KS_RANDOM_UNIT KS_SUFFIX (random_unit)
#define KS_EXPAND KS_SUFFIX (expand)
#define KS_FINISH KS_SUFFIX (finish)
#define KS_DIRS KS_SUFFIX (dirs)
#define KS_BASIS KS_SUFFIX (basis)
#define KS_CONJ KS_SUFFIX (KS_CONJ)
#define KS_ROTATE KS_SUFFIX (bv_rotate)
#define KS_DOUBLES KS_SUFFIX (KS_DOUBLES)
#define KS_MPI_TYPE KS_SUFFIX (KS_MPI_TYPE)
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
   direction from rounding. */
typedef struct KS_DIRS {
  unsigned long long state;
  KS_APPLY op;
  void *ctx;
  KS_SCALAR *r;
  double scale;
  int rc, exhausted;
  ks_result *res;
} KS_DIRS;

/* The arrays of one solve, for a basis of m + p columns of ldv = max (nloc, 1) rows
   (p = 1: the single-vector path), all zeroed and owned by the solve (alloc_basis,
   free_basis): the basis V (ldv x ldh, ldh = m + p), a row vector rvec, H, its Schur form
   S and vectors Z (ldh x ldh), h2 (ldh), tmp (BV_ROW_BLOCK x m), the residual rows
   Bm = E Z (p x ldh; b^T = beta e_m^T Z for p = 1), the projected eigenvectors Y (ldh x
   ldh, complex), the Ritz residuals rel and the locked pairs' locked_rel (ldh). */
typedef struct KS_BASIS {
  int ldv, ldh;
  KS_SCALAR *V, *rvec, *H, *S, *Z, *h2, *tmp, *Bm;
  double complex *Y;
  double *rel, *locked_rel;
} KS_BASIS;

/* How KS_RANDOM_UNIT makes a direction: plain random (the start vectors, to which the
   caller applies OP itself); OP r, or a plain random one when the basis already spans
   OP's range (the block path: its Ritz values there are those of a defective zero, of size
   sqrt(eps), and the blocks are only taken for large orders, where the range is never
   spanned); OP r, or none when the basis spans OP's range (the single-vector path: the
   decomposition is then exact and holds every eigenvalue of OP that is not zero). */
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

/* Collective. Finishes the pending vector u = V(:, j) (j >= 1) explicitly: Gram-Schmidt
   against V(:, 0:j-1), a second pass when the DGKS criterion asks for it, coefficients
   added to H(0:j-1, j-1), H(j, j-1) = |u| and u normalized; a breakdown (|u| below 1e-12
   of |OP v_{j-1}|, whose square is gg + |u|^2 with gg = |H(0:j-1, j-1)|^2 of the first
   pass) gets H(j, j-1) = 0 and a new direction in OP's range, or, when the basis spans it,
   u = 0 and dirs->exhausted = j. h2 and red are workspace. */
static void KS_FINISH (const ks_dist *d, int j, KS_SCALAR *V, KS_SCALAR *H, int ldh,
                       KS_SCALAR *h2, double *red, double gg, KS_DIRS *dirs,
                       ks_result *res)
{
  int ld = d->nloc > 0 ? d->nloc : 1;
  KS_SCALAR *u = V + (size_t) j * ld, *h = H + (size_t) (j - 1) * ldh;
  double s = KS_GS_PASS (d, j, V, u, h2, red), hh = 0.0;
  for (int i = 0; i < j; i++) {
    h[i] += h2[i];
    hh += creal (h2[i] * KS_CONJ (h2[i]));
  }
  res->reorths++;
  double beta;
  if (s - hh < 0.5 * s) {  /* cancellation once more (DGKS): another pass, the true norm */
    KS_GS_PASS (d, j, V, u, h2, red);
    for (int i = 0; i < j; i++) h[i] += h2[i];
    beta = KS_NRM2 (d, u);
  } else {
    beta = sqrt (s - hh);
  }
  dirs->scale = fmax (dirs->scale, sqrt (gg + s));
  if (!(beta > 1e-12 * sqrt (gg + s)) || beta == 0.0) {
    h[j] = 0.0;
    int rc = KS_RANDOM_UNIT (d, j, V, h2, red, dirs, KS_PURGE_OR_STOP);
    if (rc < 0)  /* the basis spans the whole space, or OP's range: the decomposition with */
      memset (u, 0, (size_t) d->nloc * sizeof *u);       /* j columns is exact */
    if (rc == -2) dirs->exhausted = j;
  } else {
    h[j] = beta;
    for (int i = 0; i < d->nloc; i++) u[i] /= beta;
  }
}

/* Collective. OP applied to the column u of V at ld (rows local) into w; applies and the
   time counted into res. Returns OP's status. */
static int KS_SUFFIX (apply_one) (KS_APPLY op, void *ctx, int ld, const KS_SCALAR *u,
                                  KS_SCALAR *w, ks_result *res)
{
  double t0 = MPI_Wtime ();
  int rc = op (ctx, 1, u, ld, w, ld);
  res->applies++;
  res->time_apply += MPI_Wtime () - t0;
  return rc;
}

/* Collective. Step j >= 1 of KS_EXPAND with the pending u = V(:, j) and w = OP u in
   V(:, j+1): X = V(:, 0:j)^H [u w] in one reduction (c = X(0:j-1, 0), |u|^2 = X(j, 0),
   a = X(0:j-1, 1), u^H w = X(j, 1)); when r^2 = |u|^2 - |c|^2 passes the DGKS test and is
   no breakdown (r^2 > 1e-24 (*gg + |u|^2)), u is finished: H(0:j-1, j-1) += c,
   H(j, j-1) = r, Hc = H(0:j, 0:j-1) c, g = H(0:j, j) = ([a; v_j^H w] - Hc) / r with
   v_j^H w = (u^H w - c^H a) / r, and [u w] = ([u w] - V(:, 0:j-1) [c, y' - c y_j / r]
   - [0, (y_j / r) u]) / r with y = Hc + r g (one read of V for both); *gg = |g|^2 and it
   returns 1. Else nothing changes (only X) and it returns 0. */
static int KS_SUFFIX (dcgs2_step) (const ks_dist *d, int j, KS_SCALAR *V, KS_SCALAR *H,
                                   int ldh, KS_SCALAR *X, KS_SCALAR *Hc, KS_SCALAR *Y,
                                   double *red, double *gg)
{
  int nl = d->nloc, ld = nl > 0 ? nl : 1;
  KS_SCALAR *u = V + (size_t) j * ld, *w = V + (size_t) (j + 1) * ld;
  KS_SCALAR *h = H + (size_t) j * ldh, *hp = H + (size_t) (j - 1) * ldh;
  KS_SUFFIX (bv_gram2) (d, j, V, X, red);  /* X(:, 0) = V(:, 0:j)^H u, X(:, 1) = V(:, 0:j)^H w */
  const KS_SCALAR *c = X, *a = X + (j + 1);
  double uu = creal (c[j]), cc = 0.0;
  for (int i = 0; i < j; i++) cc += creal (c[i] * KS_CONJ (c[i]));
  double r2 = uu - cc;
  if (!(r2 >= 0.5 * uu && r2 > 1e-24 * (*gg + uu))) return 0;
  double r = sqrt (r2);
  for (int i = 0; i < j; i++) hp[i] += c[i];
  hp[j] = r;
  for (int i = 0; i <= j; i++) {  /* Hc = H(0:j, 0:j-1) c */
    KS_SCALAR t = 0.0;
    for (int q = 0; q < j; q++) t += H[i + (size_t) q * ldh] * c[q];
    Hc[i] = t;
  }
  KS_SCALAR ca = 0.0;
  for (int i = 0; i < j; i++) ca += KS_CONJ (c[i]) * a[i];
  KS_SCALAR vw = (a[j] - ca) / r;  /* v_j^H w */
  double g2 = 0.0;
  for (int i = 0; i <= j; i++) {
    h[i] = ((i < j ? a[i] : vw) - Hc[i]) / r;
    g2 += creal (h[i] * KS_CONJ (h[i]));
  }
  /* w - V(:, 0:j-1) y' - v_j y_j with v_j = (u - V c) / r, y = H c + r g:
     w -= (y_j / r) u, then [u w] -= V(:, 0:j-1) [c, y' - c y_j / r] */
  KS_SCALAR yr = (Hc[j] + r * h[j]) / r;
  for (int i = 0; i < nl; i++) w[i] -= yr * u[i];
  for (int i = 0; i < j; i++) {
    Y[i] = c[i];
    Y[j + i] = Hc[i] + r * h[i] - c[i] * yr;
  }
  KS_SUFFIX (bv_update2) (nl, j, V, Y);
  for (int i = 0; i < nl; i++) {
    u[i] /= r;
    w[i] /= r;
  }
  *gg = g2;
  return 1;
}

/* Collective. Arnoldi steps j = k .. m-1 (Algorithm 2) with classical Gram-Schmidt twice,
   the second pass lagged by one step (DCGS2: Swirydowicz et al. 2020, Bielich et al. 2022),
   so that each step reads the basis twice instead of four times and makes one collective:

   after step j-1, u = V(:, j) has had one pass (w_{j-1} = OP v_{j-1} minus its projection
   h) and is not normalized. Step j applies OP to u itself, w = OP u, and computes in one
   reduction X = V(:, 0:j)^H [u w]: c = V(:, 0:j-1)^H u (the second pass of u), |u|^2,
   a = V(:, 0:j-1)^H w and u^H w. Then u is finished, v_j = (u - V c) / r with
   r^2 = |u|^2 - |c|^2, H(0:j-1, j-1) += c, H(j, j-1) = r; and since
   OP V(:, 0:j-1) = V(:, 0:j) H(0:j, 0:j-1), the vector z = OP v_j = (w - V(:, 0:j) H c) / r
   gets its first-pass coefficients without being formed:
       g = V(:, 0:j)^H z = ([a; v_j^H w] - H c) / r,  v_j^H w = (u^H w - c^H a) / r,
   and u_next = z - V(:, 0:j) g = (w - V(:, 0:j) (H c + r g)) / r becomes V(:, j+1), with
   H(0:j, j) = g. Both vector updates are one product with V(:, 0:j-1) (v_j written in
   terms of u). The last u is finished with one more explicit pass.

   When the finished part of u is less than 1/sqrt(2) of |u| (the DGKS criterion for the
   second pass: then the implicit norm is not trusted) or a breakdown is near (r below
   1e-12 |OP v_{j-1}|), u is finished explicitly (KS_FINISH) and OP applied again to v_j.
   X, Hc and Y are workspace of 2 ldh, ldh and 2 ldh entries; h2 of ldh; red of
   KS_DOUBLES 2 ldh + 2 doubles. Times and counts accumulate into res. Returns 0, a
   negative MB_E* when OP failed, or 1 when the basis V(:, 0:j-1) spans OP's range
   (dirs->exhausted = j): OP V(:, 0:j-1) = V(:, 0:j-1) H(0:j-1, 0:j-1) exactly. */
static int KS_EXPAND (const ks_dist *d, int k, int m, KS_APPLY op, void *ctx, KS_SCALAR *V,
                      KS_SCALAR *H, int ldh, KS_SCALAR *h2, KS_SCALAR *X, KS_SCALAR *Hc,
                      KS_SCALAR *Y, double *red, KS_DIRS *dirs, ks_result *res)
{
  int ld = d->nloc > 0 ? d->nloc : 1, pending = 0;
  double gg = 0.0;  /* |g|^2 of the pending vector: |OP v_{j-1}|^2 = |g|^2 + |u|^2 */
  for (int j = k; j < m; j++) {
    KS_SCALAR *u = V + (size_t) j * ld, *w = V + (size_t) (j + 1) * ld;
    KS_SCALAR *h = H + (size_t) j * ldh;
    int rc = KS_SUFFIX (apply_one) (op, ctx, ld, u, w, res);
    double t1 = MPI_Wtime ();
    if (rc < 0) return rc;
    if (pending && KS_SUFFIX (dcgs2_step) (d, j, V, H, ldh, X, Hc, Y, red, &gg)) {
      res->reorths++;
      res->time_orth += MPI_Wtime () - t1;
      continue;
    }
    if (pending) {  /* the rare case: finish u explicitly, apply OP to v_j again */
      KS_FINISH (d, j, V, H, ldh, h2, red, gg, dirs, res);
      if (dirs->rc < 0) return dirs->rc;
      if (dirs->exhausted) return 1;
      rc = KS_SUFFIX (apply_one) (op, ctx, ld, u, w, res);
      if (rc < 0) return rc;
      t1 = MPI_Wtime ();
    }
    /* first pass of w = OP v_j (v_j finished) against V(:, 0:j); w stays pending */
    KS_GS_PASS (d, j + 1, V, w, h, red);
    gg = 0.0;
    for (int i = 0; i <= j; i++) gg += creal (h[i] * KS_CONJ (h[i]));
    pending = 1;
    res->time_orth += MPI_Wtime () - t1;
  }
  if (pending) {
    double t1 = MPI_Wtime ();
    KS_FINISH (d, m, V, H, ldh, h2, red, gg, dirs, res);
    res->time_orth += MPI_Wtime () - t1;
  }
  return dirs->rc < 0 ? dirs->rc : dirs->exhausted ? 1 : 0;
}

/* Collective. The p Ritz vectors x_i = V(:, i) (rows local, ld = nloc or 1) purified and
   normalized in place: v holds the nb residual vectors, b their coefficients (nb x (p - l),
   ld nb), Y the eigenvectors of T, res->mu the Ritz values; a real pair's vector is held as
   its real and imaginary columns. sq is workspace of p doubles. */
static void KS_SUFFIX (purify_normalize) (const ks_dist *d, int p, int l, int nb,
                                          KS_SCALAR *V, const KS_SCALAR *v,
                                          const double complex *Y, const KS_SCALAR *b,
                                          const KS_SCALAR *H, int ldh, double *sq,
                                          const ks_result *res)
{
  int nl = d->nloc, ld = nl > 0 ? nl : 1;
  /* purification for free: OP x_i = mu_i x_i + v_{m+1} (b^T y_i), so that
     x_i + v_{m+1} (b^T y_i) / mu_i = OP x_i / mu_i, which has no components along the
     infinite eigenvalues of a singular B (b is zero on locked columns) */
  for (int i = 0; i < p; i++) {
    int second = i > 0 && KS_BLOCK (p, H, ldh, i - 1) == 2;
    if (second) continue;
    if (res->mu[i] == 0.0) continue;
    for (int t = 0; t < nb; t++) {
      double complex by = 0.0;
      for (int q = l; q < p; q++) by += b[t + (size_t) (q - l) * nb] * Y[q + (size_t) i * p];
      if (by == 0.0) continue;
      double complex c = by / res->mu[i];
      KS_SCALAR *x = V + (size_t) i * ld;
      const KS_SCALAR *vt = v + (size_t) t * ld;
      if (KS_BLOCK (p, H, ldh, i) == 2) {  /* real pair: Re into column i, Im into i+1 */
        KS_SCALAR *xi = V + (size_t) (i + 1) * ld;
        for (int r = 0; r < nl; r++) {
          x[r] += (KS_SCALAR) (creal (c) * vt[r]);
          xi[r] += (KS_SCALAR) (cimag (c) * vt[r]);
        }
      } else {
        for (int r = 0; r < nl; r++) x[r] += (KS_SCALAR) (c * vt[r]);
      }
    }
  }
  /* unit norms: one reduction for all columns; a pair's two columns share theirs */
  KS_SUFFIX (bv_norms_sq) (d, p, V, sq);
  for (int i = 0; i < p; i++) {
    double s2 = sq[i];
    if (KS_BLOCK (p, H, ldh, i) == 2) s2 += sq[i + 1];
    else if (i > 0 && KS_BLOCK (p, H, ldh, i - 1) == 2) s2 += sq[i - 1];
    double nx = sqrt (s2);
    if (nx > 0.0) for (int r = 0; r < nl; r++) V[(size_t) i * ld + r] /= nx;
  }
}

/* Collective. The Ritz vectors in the basis: Yk = Y in this arithmetic (real: a pair's
   vector as its real and imaginary columns; p x p workspace), V(:, 0:p-1) = V(:, 0:p-1) Yk
   (bv_rotate through tmp), the nb residual vectors moved behind them and the basis shrunk
   to p + nb columns (*Vp may move), then purified and normalized (purify_normalize; sq:
   p doubles). */
static void KS_SUFFIX (ritz_in_basis) (const ks_dist *d, int p, int l, int m, int nb,
                                       KS_SCALAR **Vp, const double complex *Y,
                                       const KS_SCALAR *b, const KS_SCALAR *H, int ldh,
                                       KS_SCALAR *tmp, KS_SCALAR *Yk, double *sq,
                                       ks_result *res)
{
  int nl = d->nloc, ld = nl > 0 ? nl : 1;
  KS_SCALAR *V = *Vp;
  for (int j = 0; j < p; j++) {
    int second = j > 0 && KS_BLOCK (p, H, ldh, j - 1) == 2;  /* j is the second of a pair */
    for (int q = 0; q < p; q++) {
      double complex y = second ? Y[q + (size_t) (j - 1) * p] : Y[q + (size_t) j * p];
      Yk[q + (size_t) j * p] = (KS_SCALAR) (second ? cimag (y) : (sizeof (KS_SCALAR) == sizeof (double) ? creal (y) : y));
    }
  }
  KS_ROTATE (nl, ld, p, p, V, Yk, p, tmp);                 /* V(:, 0:p-1) = V(:, 0:p-1) Yk */
  if (p < m) memmove (V + (size_t) p * ld, V + (size_t) m * ld, (size_t) nb * ld * sizeof *V);
  KS_SCALAR *shrunk = realloc (V, (size_t) ld * (p + nb) * sizeof *V);  /* residuals at p */
  if (shrunk) *Vp = V = shrunk;
  const KS_SCALAR *v = V + (size_t) (p < m ? p : m) * ld;
  KS_SUFFIX (purify_normalize) (d, p, l, nb, V, v, Y, b, H, ldh, sq, res);
}

/* Collective. The p Ritz vectors of the basis *Vp (p + nb columns) gathered on rank 0:
   real columns as they stand into res->xr (real_out, real arithmetic only), else complex
   vectors into res->x (a real pair's x_j from its two columns, x_{j+1} its conjugate; col:
   rank 0's n-vector workspace). With real_out, rank 0 (rows 0 .. nl-1) turns its own basis
   into res->xr: grown to n x p, then column i's nl rows moved from i ld to i n, the last
   column first (i n >= i ld, so no column is overwritten before it moves; the residual
   vectors behind them are no longer needed), and the other ranks' rows received in
   place: the gathered vectors never sit beside a copy of rank 0's basis (on 1 rank
   res->xr is the basis itself; *Vp = NULL, res owns it). When growing fails, a new array
   as before. counts, displs: workspace of one int per rank. Returns 0 or MB_ENOMEM (the
   same on every rank). */
static int KS_SUFFIX (gather_root) (const ks_dist *d, int p, int nb, KS_SCALAR **Vp,
                                    const KS_SCALAR *H, int ldh, int real_out, int *counts,
                                    int *displs, KS_SCALAR *col, ks_result *res)
{
  int nl = d->nloc, ld = nl > 0 ? nl : 1, rank, in_place = 0, ok, all;
  MPI_Comm_rank (d->comm, &rank);
  KS_SCALAR *V = *Vp;
  if (real_out && rank == 0 && d->row0 == 0) {
    size_t need = (size_t) d->n * p, have = (size_t) ld * (p + nb);
    KS_SCALAR *grown = need > have ? realloc (V, need * sizeof *V) : V;
    if (grown) {
      *Vp = V = grown;
      for (int i = p - 1; i >= 0; i--)
        memmove (V + (size_t) i * d->n, V + (size_t) i * ld, (size_t) nl * sizeof *V);
      res->xr = (double *) V;
      *Vp = NULL;  /* res owns it now */
      in_place = 1;
    }
  }
  if (real_out && !in_place)
    res->xr = rank == 0 ? mb_calloc ((size_t) d->n * p, sizeof *res->xr) : NULL;
  else if (!real_out) res->x = rank == 0 ? mb_calloc ((size_t) d->n * p, sizeof *res->x) : NULL;
  ok = rank != 0 || res->x || res->xr;
  MPI_Allreduce (&ok, &all, 1, MPI_INT, MPI_MIN, d->comm);
  if (!all) return MB_ENOMEM;
  MPI_Gather (&nl, 1, MPI_INT, counts, 1, MPI_INT, 0, d->comm);
  MPI_Gather (&d->row0, 1, MPI_INT, displs, 1, MPI_INT, 0, d->comm);
  for (int i = 0; i < p && real_out; i++)
    MPI_Gatherv (in_place ? MPI_IN_PLACE : (const void *) (V + (size_t) i * ld), nl, MPI_DOUBLE,
                 rank == 0 ? res->xr + (size_t) i * d->n : NULL, counts, displs, MPI_DOUBLE, 0,
                 d->comm);
  for (int i = 0; i < p && !real_out; i++) {
    MPI_Gatherv (V + (size_t) i * ld, nl, KS_MPI_TYPE, col, counts, displs, KS_MPI_TYPE, 0,
                 d->comm);
    if (rank != 0) continue;
    double complex *x = res->x + (size_t) i * d->n;
    if (i > 0 && KS_BLOCK (p, H, ldh, i - 1) == 2) {  /* imaginary part of the pair's x */
      double complex *xp = res->x + (size_t) (i - 1) * d->n;
      for (int r = 0; r < d->n; r++) {
        xp[r] += I * col[r];
        x[r] = conj (xp[r]);
      }
    } else {
      for (int r = 0; r < d->n; r++) x[r] = col[r];
    }
  }
  return 0;
}

/* Collective. The converged Ritz vectors X = V(:, 0:p-1) Y, computed in place in the basis,
   which then shrinks to p + nb columns (the nb residual vectors V(:, m:m+nb-1), whose
   coefficients are the nb rows of b, ld nb: 1 for the single-vector path). With real_out
   and by_rows (real arithmetic) the basis, shrunk to p columns, becomes res->xr on every
   rank (its own rows; res->rows = 1) and nothing is gathered. Otherwise rank 0
   allocates res->x (n x p complex) or, with real_out in real arithmetic, res->xr (n x p
   real, the columns as they stand: half the memory), so that the basis and the gathered
   vectors are never held whole together. Each x is purified and of unit norm. In real
   arithmetic a conjugate pair (j, j+1) is held as the real and imaginary parts of x_j in
   columns j and j+1 (so in res->xr; res->x gets x_j and its conjugate). *Vp may move
   (realloc). Returns 0 or MB_ENOMEM. */
static int KS_SUFFIX (gather_vectors) (const ks_dist *d, int p, int l, int m, int nb,
                                       KS_SCALAR **Vp, const double complex *Y,
                                       const KS_SCALAR *b, const KS_SCALAR *H, int ldh,
                                       KS_SCALAR *tmp, int real_out, int by_rows,
                                       ks_result *res)
{
  int ld = d->nloc > 0 ? d->nloc : 1, size, rank, rc = 0;
  MPI_Comm_size (d->comm, &size);
  MPI_Comm_rank (d->comm, &rank);
  real_out = real_out && KS_DOUBLES == 1;
  KS_SCALAR *Yk = mb_calloc ((size_t) p * p, sizeof *Yk);
  double *sq = mb_calloc ((size_t) p, sizeof *sq);
  int *counts = mb_calloc ((size_t) size, sizeof *counts), *displs = mb_calloc ((size_t) size, sizeof *displs);
  KS_SCALAR *col = rank == 0 && !real_out ? mb_calloc ((size_t) d->n, sizeof *col) : NULL;
  int ok = Yk && sq && counts && displs && (rank != 0 || real_out || col), all;
  MPI_Allreduce (&ok, &all, 1, MPI_INT, MPI_MIN, d->comm);
  if (!all) {
    rc = MB_ENOMEM;
    goto done;
  }
  KS_SUFFIX (ritz_in_basis) (d, p, l, m, nb, Vp, Y, b, H, ldh, tmp, Yk, sq, res);
  if (real_out && by_rows) {  /* each rank keeps its rows: the basis becomes res->xr */
    KS_SCALAR *V = *Vp, *kept = realloc (V, (size_t) ld * (p > 0 ? p : 1) * sizeof *V);
    res->xr = (double *) (kept ? kept : V);
    *Vp = NULL;  /* res owns it now */
    res->rows = 1;
    goto done;
  }
  rc = KS_SUFFIX (gather_root) (d, p, nb, Vp, H, ldh, real_out, counts, displs, col, res);
done:
  free (Yk); free (sq); free (counts); free (displs); free (col);
  return rc;
}

/* Collective. A (n x n, every rank) = OP column by column: OP e_j (n applications, the
   vectors distributed like any other), each rank filling its own rows, then summed over
   the ranks. e and y are workspace of max (nloc, 1) entries. Returns 0 or OP's status. */
static int KS_SUFFIX (dense_operator) (const ks_dist *d, KS_APPLY op, void *ctx,
                                       KS_SCALAR *A, KS_SCALAR *e, KS_SCALAR *y,
                                       ks_result *res)
{
  int n = d->n, nl = d->nloc, rc = 0;
  for (int j = 0; j < n && rc == 0; j++) {
    for (int i = 0; i < nl; i++) e[i] = (d->row0 + i == j) ? 1.0 : 0.0;
    rc = op (ctx, 1, e, nl > 0 ? nl : 1, y, nl > 0 ? nl : 1);
    res->applies++;
    for (int i = 0; i < nl; i++) A[(d->row0 + i) + (size_t) j * n] = y[i];
  }
  if (rc < 0) return rc;
  bv_allsum (d, (double *) A, KS_DOUBLES * n * n);  /* each rank filled its own rows */
  return 0;
}

/* Rank 0. order = the n eigenvalues mu by descending |mu| (selection sort: n is small),
   *mu_max the largest |mu|. Returns how many to keep: min (nev, n), one more to keep a
   conjugate pair whole. */
static int KS_SUFFIX (dense_order) (int n, int nev, const double complex *mu, int *order,
                                    double *mu_max)
{
  int p = nev < n ? nev : n;
  for (int i = 0; i < n; i++) order[i] = i, *mu_max = fmax (*mu_max, cabs (mu[i]));
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++)
      if (cabs (mu[order[j]]) > cabs (mu[order[i]])) { int t = order[i]; order[i] = order[j]; order[j] = t; }
  if (p < n && cimag (mu[order[p - 1]]) != 0.0
      && cabs (mu[order[p]] - conj (mu[order[p - 1]])) <= 1e-12 * cabs (mu[order[p - 1]]))
    p++;
  return p;
}

/* Rank 0. The p kept pairs into res: x_k = X(:, order[k]) / |X(:, order[k])|, mu_k, and
   their true relative residuals ||A0 x_k - mu_k x_k|| / max (|mu_k|, eps mu_max) by matrix
   products (ds_dense_resid; rw: 4 n p + p doubles), res->worst the largest. */
static void KS_SUFFIX (dense_take) (int n, int p, const double complex *mu,
                                    const double complex *X, const int *order,
                                    const KS_SCALAR *A0, double mu_max, double *rw,
                                    ks_result *res)
{
  for (int k = 0; k < p; k++) {
    const double complex *x = X + (size_t) order[k] * n;
    double complex *xk = res->x + (size_t) k * n;
    double nrm = 0.0;
    for (int i = 0; i < n; i++) nrm += creal (x[i] * conj (x[i]));
    nrm = sqrt (nrm);
    for (int i = 0; i < n; i++) xk[i] = x[i] / nrm;
    res->mu[k] = mu[order[k]];
  }
  double *r = rw + (size_t) 4 * n * p;
  KS_SUFFIX (ds_dense_resid) (n, p, A0, res->x, res->mu, r, rw);
  for (int k = 0; k < p; k++) {
    res->resid[k] = r[k] / fmax (cabs (res->mu[k]), DBL_EPSILON * mu_max);
    res->worst = fmax (res->worst, res->resid[k]);
  }
}

/* Collective. When the Krylov subspace would span the whole space (n <= ncv), the
   Krylov-Schur iteration ends in the dense eigenproblem of OP anyway: form OP column by
   column (dense_operator), and solve it with LAPACK on rank 0 (ds_dense_eig, OP kept in
   A0 for the residuals). Returns the min(nev, n) eigenvalues of largest |mu| (a conjugate
   pair kept whole: dense_order) with unit eigenvectors gathered on rank 0, and their true
   relative residuals ||OP x - mu x|| / max(|mu|, eps max|mu|) (dense_take). Small decks
   (a single body, a few joints) thereby get all their modes, which Krylov-Schur proper
   cannot (nev <= n - 1). */
static int KS_DENSE (const ks_dist *d, KS_APPLY op, void *ctx, const ks_opts *opts,
                     ks_result *res, mb_err *err)
{
  int n = d->n, nl = d->nloc, root = is_root (d), rc = 0, info = 0;
  KS_SCALAR *A = mb_calloc ((size_t) n * n, sizeof *A);
  KS_SCALAR *A0 = mb_calloc ((size_t) n * n, sizeof *A0);  /* OP kept for the residuals */
  KS_SCALAR *e = mb_calloc ((size_t) (nl > 0 ? nl : 1), sizeof *e);
  KS_SCALAR *y = mb_calloc ((size_t) (nl > 0 ? nl : 1), sizeof *y);
  double complex *mu = mb_calloc ((size_t) n, sizeof *mu);
  double complex *X = mb_calloc ((size_t) n * n, sizeof *X);
  int *order = mb_calloc ((size_t) n, sizeof *order);
  double *rw = NULL;
  int ok = A && A0 && e && y && mu && X && order, all_ok;
  MPI_Allreduce (&ok, &all_ok, 1, MPI_INT, MPI_MIN, d->comm);
  if (!all_ok) {
    rc = mb_fail (err, MB_ENOMEM, "out of memory for the dense operator (order %d)", n);
    goto done;
  }
  rc = KS_SUFFIX (dense_operator) (d, op, ctx, A, e, y, res);
  if (rc < 0) goto done;
  if (root) {
    memcpy (A0, A, (size_t) n * n * sizeof *A);
    info = KS_DENSE_EIG (n, A, mu, X);
  }
  double infod = info, mu_max = 0.0;
  share (d, &infod, 1);
  if (infod != 0.0) {
    rc = lapack_fail (err, infod, "dense eigenproblem of the operator");
    goto done;
  }
  double pd = root ? KS_SUFFIX (dense_order) (n, opts->nev, mu, order, &mu_max) : 0.0;
  share (d, &pd, 1);
  int p = (int) pd;
  res->mu = mb_calloc ((size_t) p, sizeof *res->mu);
  res->resid = mb_calloc ((size_t) p, sizeof *res->resid);
  if (root) res->x = mb_calloc ((size_t) n * p, sizeof *res->x);
  ok = res->mu && res->resid && (!root || res->x);
  MPI_Allreduce (&ok, &all_ok, 1, MPI_INT, MPI_MIN, d->comm);
  if (!all_ok) {
    rc = mb_fail (err, MB_ENOMEM, "out of memory for %d eigenvectors of order %d", p, n);
    goto done;
  }
  rw = root ? mb_calloc ((size_t) 4 * n * p + (size_t) p, sizeof *rw) : NULL;
  ok = !root || rw;
  MPI_Allreduce (&ok, &all_ok, 1, MPI_INT, MPI_MIN, d->comm);
  if (!all_ok) {
    rc = mb_fail (err, MB_ENOMEM, "out of memory for the residuals of %d eigenvectors", p);
    goto done;
  }
  if (root) KS_SUFFIX (dense_take) (n, p, mu, X, order, A0, mu_max, rw, res);
  share (d, (double *) res->mu, 2 * p);
  share (d, res->resid, p);
  share (d, &res->worst, 1);
  res->nconv = p;
  res->converged = 1;
  res->ncv = n;
done:
  free (A); free (A0); free (e); free (y); free (mu); free (X); free (order); free (rw);
  if (rc < 0) ks_result_clear (res);
  return rc;
}

/* Collective. Column i of the block W = V(:, q:q+nb-1) (already orthogonal to V(:, 0:q-1))
   made orthonormal to V(:, 0:q+i-1): two Gram-Schmidt passes against the finished columns
   W(:, 0:i-1), a third pass against all of V(:, 0:q+i-1) when they left less than 1e-8 of
   the column, the coefficients added to h (the column of H, rows q .. q+i), h[q+i] its norm.
   When the norm is below 1e-12 of w0 (the norm of the column before any projection) the
   block is rank deficient there: h[q+i] = 0 and the column becomes a random unit direction
   orthogonal to the basis (deflation), counted in res->deflated. h2, red workspace. */
static void KS_SUFFIX (block_finish) (const ks_dist *d, int q, int i, KS_SCALAR *V,
                                      KS_SCALAR *h, double w0, KS_SCALAR *h2, double *red,
                                      KS_DIRS *dirs, ks_result *res)
{
  int ld = d->nloc > 0 ? d->nloc : 1;
  KS_SCALAR *W = V + (size_t) q * ld, *w = W + (size_t) i * ld;
  double before = 0.0;
  for (int pass = 0; pass < 2; pass++) {
    double s = KS_GS_PASS (d, i, W, w, h2, red);
    if (pass == 0) before = sqrt (s);
    for (int t = 0; t < i; t++) h[q + t] += h2[t];
  }
  double nw = KS_NRM2 (d, w);
  if (nw < 1e-8 * before || nw < 1e-8 * w0) {  /* heavy cancellation: once more, all of V */
    KS_GS_PASS (d, q + i, V, w, h2, red);
    for (int t = 0; t < q + i; t++) h[t] += h2[t];
    nw = KS_NRM2 (d, w);
    res->reorths++;
  }
  dirs->scale = fmax (dirs->scale, w0);
  if (!(nw > 1e-12 * w0) || nw == 0.0) {
    h[q + i] = 0.0;
    res->deflated++;
    if (KS_RANDOM_UNIT (d, q + i, V, h2, red, dirs, KS_PURGE_OR_PLAIN) < 0)  /* the space */
      memset (w, 0, (size_t) d->nloc * sizeof *w);
  } else {
    h[q + i] = nw;
    for (int r = 0; r < d->nloc; r++) w[r] /= nw;
  }
}

/* Collective. Finishes the pending block U = V(:, q:q+nb-1) (one Gram-Schmidt pass done,
   its coefficients in H(0:q-1, q-p:q-p+nb-1), gg their squared column norms) explicitly:
   the second pass C = V(:, 0:q-1)^H U (with |U|^2 in the same reduction), U -= V C, H += C,
   then column by column against itself (block_finish, with the column's norm before any
   projection sqrt(gg + |U|^2) for its thresholds). Two reads of V. */
static void KS_SUFFIX (finish_pending) (const ks_dist *d, int q, int nb, int p, KS_SCALAR *V,
                                        KS_SCALAR *H, int ldh, KS_SCALAR *C, double *nrm,
                                        const double *gg, KS_SCALAR *h2, double *red,
                                        KS_DIRS *dirs, ks_result *res)
{
  int ld = d->nloc > 0 ? d->nloc : 1;
  KS_SCALAR *U = V + (size_t) q * ld;
  KS_SUFFIX (bv_block_pass) (d, q, nb, V, U, C, nrm, red);
  for (int i = 0; i < nb; i++) {
    KS_SCALAR *h = H + (size_t) (q - p + i) * ldh;
    for (int t = 0; t < q; t++) h[t] += C[t + (size_t) i * q];
  }
  KS_SUFFIX (bv_block_update) (d->nloc, q, nb, V, U, C);
  res->reorths += nb;
  for (int i = 0; i < nb; i++) {
    KS_SCALAR *h = H + (size_t) (q - p + i) * ldh;
    for (int t = q; t <= q + i; t++) h[t] = 0.0;
    KS_SUFFIX (block_finish) (d, q, i, V, h, sqrt (gg[i] + nrm[i]), h2, red, dirs, res);
  }
}

/* Largest condition number (the bound below on kappa_2) of the lagged step's triangular
   factor R for which its one Cholesky QR is trusted: the columns lose about eps kappa^2 of
   orthogonality among themselves (2.3e-13 at 32). Measured on the 40 x 40 grid (blocks of
   8): kappa_2 of R from 1.3 to 15, median 1.8. */
#define KS_LAG_KAPPA 32.0

/* Rank-local. The lagged step's factor from X2 (q x 2p, q = j + p): G = U^H U - C2^H C2
   (into Gm), refused (0) when a column's second pass removed more than half of it (DGKS);
   the Cholesky factor G = R^H R (R upper triangular), refused when G is not positive
   definite; M = R^-1 (upper triangular, by columns) and the bound
   kappa_2 (R) <= sqrt (|R|_1 |R|_inf |R^-1|_1 |R^-1|_inf) (|A|_2^2 <= |A|_1 |A|_inf),
   refused above KS_LAG_KAPPA. Returns 1 when the step is trusted. */
static int KS_SUFFIX (lag_factor) (int j, int p, const KS_SCALAR *X2, KS_SCALAR *Gm,
                                   KS_SCALAR *R, KS_SCALAR *M)
{
  int q = j + p;
#define X2E(r, c) X2[(r) + (size_t) (c) * q]
  for (int b = 0; b < p; b++)
    for (int a = 0; a < p; a++) {
      KS_SCALAR s = X2E (j + a, b);
      for (int t = 0; t < j; t++) s -= KS_CONJ (X2E (t, a)) * X2E (t, b);
      Gm[a + b * p] = s;
    }
  for (int c = 0; c < p; c++)
    if (!(creal (Gm[c + c * p]) >= 0.5 * creal (X2E (j + c, c)))) return 0;
#undef X2E
  memset (R, 0, (size_t) p * p * sizeof *R);
  for (int c = 0; c < p; c++) {
    double d2 = creal (Gm[c + c * p]);
    for (int t = 0; t < c; t++) d2 -= creal (R[t + c * p] * KS_CONJ (R[t + c * p]));
    if (!(d2 > 0.0)) return 0;
    R[c + c * p] = sqrt (d2);
    for (int r = c + 1; r < p; r++) {
      KS_SCALAR s = Gm[c + r * p];
      for (int t = 0; t < c; t++) s -= KS_CONJ (R[t + c * p]) * R[t + r * p];
      R[c + r * p] = s / R[c + c * p];
    }
  }
  memset (M, 0, (size_t) p * p * sizeof *M);
  for (int c = 0; c < p; c++) {
    M[c + c * p] = 1.0 / R[c + c * p];
    for (int r = c - 1; r >= 0; r--) {
      KS_SCALAR s = 0.0;
      for (int t = r + 1; t <= c; t++) s += R[r + t * p] * M[t + c * p];
      M[r + c * p] = -s / R[r + r * p];
    }
  }
  double n1 = 0.0, ni = 0.0, m1 = 0.0, mi = 0.0;
  for (int a = 0; a < p; a++) {
    double rc = 0.0, rr = 0.0, mc = 0.0, mr = 0.0;
    for (int b = 0; b < p; b++) {
      rc += sqrt (creal (R[b + a * p] * KS_CONJ (R[b + a * p])));
      rr += sqrt (creal (R[a + b * p] * KS_CONJ (R[a + b * p])));
      mc += sqrt (creal (M[b + a * p] * KS_CONJ (M[b + a * p])));
      mr += sqrt (creal (M[a + b * p] * KS_CONJ (M[a + b * p])));
    }
    n1 = fmax (n1, rc); ni = fmax (ni, rr); m1 = fmax (m1, mc); mi = fmax (mi, mr);
  }
  double kappa = sqrt (n1 * ni * m1 * mi);
  return kappa <= KS_LAG_KAPPA;
}

/* Rank-local. The trusted lagged step's coefficients: U finished in H (H(0:j-1, j-p:j-1)
   += C2, H(j:q-1, j-p:j-1) = R), Hc = H(0:q-1, 0:j-1) C2, G1 = [A; R^-H (U^H W - C2^H A)]
   (q x p), and the next block's first-pass coefficients H(0:q-1, j:q-1) = (G1 - Hc) R^-1
   (M = R^-1; rows q.. zero until that block is finished), gg their squared column norms. */
static void KS_SUFFIX (lag_coefficients) (int j, int p, const KS_SCALAR *X2,
                                          const KS_SCALAR *R, const KS_SCALAR *M,
                                          KS_SCALAR *H, int ldh, KS_SCALAR *Hc,
                                          KS_SCALAR *G1, double *gg)
{
  int q = j + p;
#define X2E(r, c) X2[(r) + (size_t) (c) * q]
  for (int i = 0; i < p; i++) {
    KS_SCALAR *h = H + (size_t) (j - p + i) * ldh;
    for (int t = 0; t < j; t++) h[t] += X2E (t, i);
    for (int t = 0; t < p; t++) h[j + t] = t <= i ? R[t + i * p] : 0.0;
  }
  for (int i = 0; i < p; i++)
    for (int r = 0; r < q; r++) {
      KS_SCALAR s = 0.0;
      for (int t = 0; t < j; t++) s += H[r + (size_t) t * ldh] * X2E (t, i);
      Hc[r + (size_t) i * q] = s;
    }
  for (int b = 0; b < p; b++) {
    for (int t = 0; t < j; t++) G1[t + (size_t) b * q] = X2E (t, p + b);
    for (int a = 0; a < p; a++) {
      KS_SCALAR s = X2E (j + a, p + b);
      for (int t = 0; t < j; t++) s -= KS_CONJ (X2E (t, a)) * X2E (t, p + b);
      for (int t = 0; t < a; t++) s -= KS_CONJ (R[t + a * p]) * G1[j + t + (size_t) b * q];
      G1[j + a + (size_t) b * q] = s / KS_CONJ (R[a + a * p]);
    }
  }
#undef X2E
  for (int c = 0; c < p; c++) {
    KS_SCALAR *h = H + (size_t) (j + c) * ldh;
    double g2 = 0.0;
    for (int r = 0; r < q; r++) {
      KS_SCALAR s = 0.0;
      for (int t = 0; t <= c; t++) s += (G1[r + (size_t) t * q] - Hc[r + (size_t) t * q]) * M[t + c * p];
      h[r] = s;
      g2 += creal (s * KS_CONJ (s));
    }
    for (int r = q; r < q + p && r < ldh; r++) h[r] = 0.0;
    gg[c] = g2;
  }
}

/* Rank-local rows. The trusted lagged step's vector updates: Mx = R^-1 G1(j:q-1, :) (into
   Gm), Cm = [C2, A - C2 Mx] (j x 2p), W -= U Mx, [U W] -= V_j Cm (one read of V_j), and
   both blocks scaled by R^-1: U becomes Q, W the next pending block. */
static void KS_SUFFIX (lag_update) (const ks_dist *d, int j, int p, KS_SCALAR *V,
                                    const KS_SCALAR *X2, const KS_SCALAR *R,
                                    const KS_SCALAR *M, const KS_SCALAR *G1, KS_SCALAR *Gm,
                                    KS_SCALAR *Cm)
{
  int ld = d->nloc > 0 ? d->nloc : 1, q = j + p;
  KS_SCALAR *U = V + (size_t) j * ld, *W = U + (size_t) p * ld;
#define X2E(r, c) X2[(r) + (size_t) (c) * q]
  for (int b = 0; b < p; b++)
    for (int a = 0; a < p; a++) {
      KS_SCALAR s = 0.0;
      for (int t = a; t < p; t++) s += M[a + t * p] * G1[j + t + (size_t) b * q];
      Gm[a + b * p] = s;
    }
  for (int b = 0; b < p; b++)
    for (int t = 0; t < j; t++) {
      KS_SCALAR s = X2E (t, p + b);
      for (int a = 0; a < p; a++) s -= X2E (t, a) * Gm[a + b * p];
      Cm[t + (size_t) b * j] = X2E (t, b);
      Cm[t + (size_t) (p + b) * j] = s;
    }
#undef X2E
  KS_SUFFIX (bv_block_update) (d->nloc, p, p, U, W, Gm);    /* W -= U Mx */
  KS_SUFFIX (bv_block_update) (d->nloc, j, 2 * p, V, U, Cm); /* [U W] -= V_j Cm */
  KS_SUFFIX (bv_block_trsm) (d->nloc, p, R, U);              /* Q = U R^-1 */
  KS_SUFFIX (bv_block_trsm) (d->nloc, p, R, W);              /* next pending block */
}

/* Collective. The lagged block Gram-Schmidt step (block DCGS2, the single-vector path's
   lagged scheme written for blocks): the block U = V(:, j:j+p-1) is pending (one pass,
   U = OP X - V(:, 0:j-1) C1 with C1 in H(0:j-1, j-p:j-1), X = V(:, j-p:j-1)) and OP has been
   applied to U itself: W = OP U in V(:, q:q+p-1), q = j + p. One reduction
       X2 = V(:, 0:q-1)^H [U W]   (q x 2p: C2 = V_j^H U, U^H U, A = V_j^H W, U^H W)
   gives the second pass of U and the first of the next block: with G = U^H U - C2^H C2 =
   R^H R (Cholesky), the finished block is Q = (U - V_j C2) R^-1, so OP X = V_j (C1 + C2) +
   Q R (H gets C2 and R), and since OP V_j = V_q H(0:q-1, 0:j-1) and W = OP U,
       G1 = V_q^H W = [A; R^-H (U^H W - C2^H A)],
       OP Q = (W - V_q H C2) R^-1,  first-pass coefficients (G1 - H C2) R^-1 -> H(:, j:j+p-1),
       the next pending block (W - V_q G1) R^-1 = (W - U M - V_j (A - C2 M)) R^-1,
   with M = R^-1 G1(j:q-1, :). Both blocks are updated by one product with V_j, so the
   basis is read twice per block instead of three times. Returns 1, or 0 (nothing changed)
   when the step is not trusted: the second pass removed more than half a column (DGKS),
   G is not positive definite (a rank-deficient block) or R's condition number exceeds
   KS_LAG_KAPPA; then the caller finishes U explicitly and applies OP again. L is workspace
   of 6 ldh p + 3 p^2 entries, red of KS_DOUBLES 2 ldh p doubles; gg gets the squared norms
   of the new first-pass coefficients. */
static int KS_SUFFIX (lag_step) (const ks_dist *d, int j, int p, KS_SCALAR *V, KS_SCALAR *H,
                                 int ldh, KS_SCALAR *L, double *red, double *gg)
{
  int ld = d->nloc > 0 ? d->nloc : 1;
  KS_SCALAR *X2 = L, *Hc = X2 + (size_t) 2 * ldh * p, *G1 = Hc + (size_t) ldh * p;
  KS_SCALAR *Cm = G1 + (size_t) ldh * p, *R = Cm + (size_t) 2 * ldh * p, *Gm = R + p * p;
  KS_SCALAR *M = Gm + p * p;
  KS_SUFFIX (bv_block_pass) (d, j + p, 2 * p, V, V + (size_t) j * ld, X2, NULL, red);
  if (!KS_SUFFIX (lag_factor) (j, p, X2, Gm, R, M)) return 0;
  KS_SUFFIX (lag_coefficients) (j, p, X2, R, M, H, ldh, Hc, G1, gg);
  KS_SUFFIX (lag_update) (d, j, p, V, X2, R, M, G1, Gm, Cm);
  return 1;
}

/* Collective. OP applied to the nb columns X (rows local, ld) into W by one block apply;
   the block apply, its nb applies and the time counted into res. Returns OP's status. */
static int KS_SUFFIX (apply_block) (KS_APPLY op, void *ctx, int nb, int ld, const KS_SCALAR *X,
                                    KS_SCALAR *W, ks_result *res)
{
  double t0 = MPI_Wtime ();
  int rc = op (ctx, nb, X, ld, W, ld);
  res->block_applies++;
  res->applies += nb;
  res->time_apply += MPI_Wtime () - t0;
  return rc;
}

/* Collective. The new block W = V(:, q:q+nb-1) = OP V(:, j:j+nb-1), q = j + p, against the
   basis V(:, 0:q-1): the first pass C1 = V^H W (with W's column norms in the same
   reduction) into H(0:q-1, j:j+nb-1). With lag_next, W -= V C1 and W stays pending for
   lag_step (gg: the squared norms of C1's columns); returns 1. Otherwise BCGS2: W -= V C1
   fused with C2 = V^H W (bv_block_fused), H += C2, W -= V C2, then column by column
   against itself (block_finish, which deflates a rank-deficient block; H's rows q.. of
   the block's columns set there); returns 0. */
static int KS_SUFFIX (orth_block) (const ks_dist *d, int j, int nb, int p, KS_SCALAR *V,
                                   KS_SCALAR *H, int ldh, KS_SCALAR *C, double *nrm,
                                   KS_SCALAR *h2, double *red, double *gg, int lag_next,
                                   KS_DIRS *dirs, ks_result *res)
{
  int ld = d->nloc > 0 ? d->nloc : 1, q = j + p;
  KS_SCALAR *W = V + (size_t) q * ld;
  KS_SUFFIX (bv_block_pass) (d, q, nb, V, W, C, nrm, red);
  for (int i = 0; i < nb; i++) {
    KS_SCALAR *h = H + (size_t) (j + i) * ldh;
    for (int t = 0; t < q; t++) h[t] = C[t + (size_t) i * q];
  }
  if (lag_next) {
    for (int i = 0; i < nb; i++) {
      double g2 = 0.0;
      for (int t = 0; t < q; t++) g2 += creal (C[t + (size_t) i * q] * KS_CONJ (C[t + (size_t) i * q]));
      gg[i] = g2;
    }
    KS_SUFFIX (bv_block_update) (d->nloc, q, nb, V, W, C);
    return 1;
  }
  KS_SUFFIX (bv_block_fused) (d, q, nb, V, W, C, red);
  for (int i = 0; i < nb; i++) {
    KS_SCALAR *h = H + (size_t) (j + i) * ldh;
    for (int t = 0; t < q; t++) h[t] += C[t + (size_t) i * q];
  }
  KS_SUFFIX (bv_block_update) (d->nloc, q, nb, V, W, C);
  res->reorths += nb;
  for (int i = 0; i < nb; i++) {
    KS_SCALAR *h = H + (size_t) (j + i) * ldh;
    for (int t = q; t <= q + i; t++) h[t] = 0.0;
    KS_SUFFIX (block_finish) (d, q, i, V, h, sqrt (nrm[i]), h2, red, dirs, res);
  }
  return 0;
}

/* Collective. Band Arnoldi (Ruhe 1979; block Arnoldi written column by column) for the
   columns j = k .. m-1 with block size p: with V(:, 0:j+p-1) orthonormal and
   OP V(:, 0:j-1) = V(:, 0:j+p-1) H(0:j+p-1, 0:j-1), the nb = min (p, m - j) columns
   V(:, j:j+nb-1) get OP applied at once (op on nb columns, one multi-RHS solve)
   into W = V(:, q:q+nb-1), q = j + p, which is orthogonalized against V(:, 0:q-1) and then
   column by column against itself (KS_SUFFIX (block_finish), which also deflates a
   rank-deficient block). H(0:q+i, j+i) holds the coefficients: H has p subdiagonals.
   With lag (and a next block of p columns to come) the second pass is lagged: W gets one
   block classical Gram-Schmidt pass (C1 = V^H W, W -= V C1: two reads of V) and stays
   pending; OP is applied to it as it stands and KS_SUFFIX (lag_step) finishes it together
   with the next block's first pass (two reads); the last pending block is finished
   explicitly (KS_SUFFIX (finish_pending), two reads), and a step lag_step does not trust
   too (then OP is applied again to the finished block, and *lagp = 0: no more lagging in
   this solve: blocks with kappa(R) in the thousands would retry most of their applies).
   Without lag (*lagp = 0), or for a block with
   no full block after it: two block classical Gram-Schmidt passes (BCGS2; C1 = V^H W,
   then W -= V C1 fused with C2 = V^H W in one sweep over row blocks of V, then W -= V C2:
   three reads of V; H gets C1 + C2). C is workspace of ldh p, nrm of p, L of
   6 ldh p + 3 p^2, gg of p, red of KS_DOUBLES (ldh + 1) 2 p doubles. Ends with
   V(:, 0:m+p-1). */
static int KS_SUFFIX (expand_block) (const ks_dist *d, int k, int m, int p, KS_APPLY op,
                                     void *ctx, KS_SCALAR *V, KS_SCALAR *H,
                                     int ldh, KS_SCALAR *C, double *nrm, KS_SCALAR *h2,
                                     double *red, KS_SCALAR *L, double *gg, int *lagp,
                                     KS_DIRS *dirs, ks_result *res)
{
  int ld = d->nloc > 0 ? d->nloc : 1, pending = 0, lag = *lagp;
  for (int j = k; j < m; j += p) {
    int nb = m - j < p ? m - j : p, q = j + p, rc = 0;
    /* W may stay pending when a full block follows, and from the fifth block on: the
       first blocks of a start are ill-conditioned (OP^i R lines up with the dominant
       eigenvectors; lag_step would refuse and cost an apply) and their basis is short */
    int lag_next = lag && j + 2 * p <= m && j >= 4 * p;
    KS_SCALAR *X = V + (size_t) j * ld, *W = V + (size_t) q * ld;
    int lagged = 0;
    for (;;) {
      rc = KS_SUFFIX (apply_block) (op, ctx, nb, ld, X, W, res);
      double t1 = MPI_Wtime ();
      if (rc < 0) return rc;
      if (!pending) break;
      /* X is the pending block (nb == p): its second pass with W's first */
      pending = 0;
      int done = KS_SUFFIX (lag_step) (d, j, p, V, H, ldh, L, red, gg);
      if (!done) {  /* not trusted: finish X explicitly, apply OP again, and lag no more in
                       this solve (the blocks of this operator are ill-conditioned) */
        res->lag_retries++;
        *lagp = lag = lag_next = 0;
        KS_SUFFIX (finish_pending) (d, j, p, p, V, H, ldh, C, nrm, gg, h2, red, dirs, res);
        res->time_orth += MPI_Wtime () - t1;
        continue;
      }
      res->reorths += p;
      res->lagged += p;
      lagged = 1;
      pending = 1;
      if (!lag_next) {  /* (lag_next was decided with lag on) */
        KS_SUFFIX (finish_pending) (d, q, p, p, V, H, ldh, C, nrm, gg, h2, red, dirs, res);
        pending = 0;
      }
      res->time_orth += MPI_Wtime () - t1;
      break;
    }
    if (lagged) continue;  /* W pending for the next block, or finished */
    double t1 = MPI_Wtime ();
    pending = KS_SUFFIX (orth_block) (d, j, nb, p, V, H, ldh, C, nrm, h2, red, gg, lag_next,
                                      dirs, res);
    res->time_orth += MPI_Wtime () - t1;
    if (!pending && dirs->rc < 0) return dirs->rc;
  }
  return dirs->rc;
}

/* Collective. The Schur step of restart: with l locked leading columns and mm = m - l,
   rank 0 brings H's active part to sorted Schur form T = Z^H H(l:m-1, l:m-1) Z; every rank
   gets T (in S) and Z, H's active part becomes T, the locked rows follow
   (H(0:l-1, l:m-1) Z, with h2 as scratch), and Bm = E(:, l:m-1) Z (p x mm, ld p), where
   E = H(m:m+p-1, 0:m-1). Returns 0, or negative MB_E* (the same on every rank). */
static int KS_SUFFIX (schur_step) (const ks_dist *d, int m, int l, int p, KS_SCALAR *H,
                                   int ldh, KS_SCALAR *S, KS_SCALAR *Z, KS_SCALAR *Bm,
                                   KS_SCALAR *h2, mb_err *err)
{
  int root = is_root (d), mm = m - l;
  for (int j = 0; j < mm; j++)
    for (int i = 0; i < mm; i++) S[i + (size_t) j * ldh] = H[(l + i) + (size_t) (l + j) * ldh];
  int info = root ? KS_SCHUR (mm, S, ldh, Z) : 0;
  double infod = info;
  share (d, &infod, 1);
  if (infod != 0.0) {
    return lapack_fail (err, infod, "Schur factorization");
  }
  share (d, S, KS_DOUBLES * ldh * mm);
  share (d, Z, KS_DOUBLES * ldh * mm);
  for (int i = 0; i < l; i++) {  /* the locked rows follow: H(0:l-1, l:m-1) Z */
    for (int j = 0; j < mm; j++) {
      KS_SCALAR s = 0.0;
      for (int q = 0; q < mm; q++) s += H[i + (size_t) (l + q) * ldh] * Z[q + (size_t) j * ldh];
      h2[j] = s;
    }
    for (int j = 0; j < mm; j++) H[i + (size_t) (l + j) * ldh] = h2[j];
  }
  for (int j = 0; j < mm; j++)
    for (int i = 0; i < mm; i++) H[(l + i) + (size_t) (l + j) * ldh] = S[i + (size_t) j * ldh];
  for (int j = 0; j < mm; j++)  /* Bm = E(:, l:m-1) Z, p x mm */
    for (int t = 0; t < p; t++) {
      KS_SCALAR s = 0.0;
      for (int q = 0; q < mm; q++) s += H[(m + t) + (size_t) (l + q) * ldh] * Z[q + (size_t) j * ldh];
      Bm[t + (size_t) j * p] = s;
    }
  return 0;
}

/* Collective. The end of a solve at restart (nconv of the pairs converged, l locked, m
   columns, Schur vectors Z of the active part): pr = min (nconv, nev) pairs, one more to
   keep a 2x2 block whole; V(:, l:pr-1) rotated by Z; res gets converged, nconv = pr, mu,
   resid (locked_rel) and the Ritz vectors (Y, the eigenvectors of T, then
   gather_vectors, which may move *Vp). Returns 1 (the result is in res), or negative MB_E*
   (the same on every rank). */
static int KS_SUFFIX (take_result) (const ks_dist *d, const ks_opts *opts, int nev, int m,
                                    int p, int l, int nconv, KS_SCALAR **Vp, KS_SCALAR *H,
                                    int ldh, KS_SCALAR *Z, KS_SCALAR *Bm, KS_SCALAR *tmp,
                                    double complex *Y, const double *locked_rel,
                                    ks_result *res, mb_err *err)
{
  int nl = d->nloc, ldv = nl > 0 ? nl : 1, root = is_root (d), mm = m - l, ok, all_ok, info;
  double infod;
  KS_SCALAR *V = *Vp;
  double t_basis = MPI_Wtime ();
  int pr = nconv < nev ? nconv : nev;
  if (pr > 0 && pr < m && KS_BLOCK (m, H, ldh, pr - 1) == 2
      && (pr - 1 == 0 || KS_BLOCK (m, H, ldh, pr - 2) == 1)) pr++;  /* a pair whole */
  if (pr > l) KS_ROTATE (nl, ldv, pr - l, mm, V + (size_t) l * ldv, Z, ldh, tmp);
  res->converged = nconv >= nev;
  res->nconv = pr;
  if (pr > 0) {
    res->mu = mb_calloc ((size_t) pr, sizeof *res->mu);
    res->resid = mb_calloc ((size_t) pr, sizeof *res->resid);
    ok = res->mu && res->resid;
    MPI_Allreduce (&ok, &all_ok, 1, MPI_INT, MPI_MIN, d->comm);
    if (!all_ok) {
      return mb_fail (err, MB_ENOMEM, "Krylov-Schur: out of memory for %d eigenvectors", pr);
    }
    info = root ? KS_EIGVECS (pr, H, ldh, Y) : 0;
    infod = info;
    share (d, &infod, 1);
    if (infod != 0.0) {
      return lapack_fail (err, infod, "Ritz vectors' eigenvectors");
    }
    share (d, (double *) Y, 2 * pr * pr);
    for (int i = 0; i < pr; i++) {
      res->mu[i] = KS_MU (m, H, ldh, i);
      res->resid[i] = locked_rel[i];
    }
    if (KS_SUFFIX (gather_vectors) (d, pr, l, m, p, Vp, Y, Bm, H, ldh, tmp,
                                     opts->real_vectors, opts->vectors_by_rows,
                                     res) < 0) {
      return mb_fail (err, MB_ENOMEM, "Krylov-Schur: out of memory for %d eigenvectors", pr);
    }
  }
  res->time_basis += MPI_Wtime () - t_basis;
  return 1;
}

/* Collective. The restart proper (Algorithm 1's truncation) after the Schur step of
   restart (T in H's active part, its Schur vectors Z, Bm = E Z, l locked and nconv
   converged leading columns): keep k = nconv + half of the rest Schur vectors (at least
   nev, at most m - 1, never splitting a 2x2 block), V(:, l:k-1) = V(:, l:m-1) Z(:, 0:k-l-1),
   the p residual vectors moved to V(:, k:k+p-1), and H = [T_k; Bm(:, 0:k-1)] with the
   locked columns of Bm zero (deflation). Returns k. */
static int KS_SUFFIX (truncate) (const ks_dist *d, int nev, int m, int p, int l, int nconv,
                                 KS_BASIS *w, ks_result *res)
{
  int nl = d->nloc, ldv = w->ldv, ldh = w->ldh, mm = m - l;
  KS_SCALAR *V = w->V, *H = w->H, *Bm = w->Bm;
  int k = nconv + (m - nconv) / 2;
  if (k < nev) k = nev;
  if (k > m - 1) k = m - 1;
  if (k > 0 && KS_BLOCK (m, H, ldh, k - 1) == 2 && (k - 1 == 0 || KS_BLOCK (m, H, ldh, k - 2) == 1))
    k = (k + 1 <= m - 1) ? k + 1 : k - 1;
  double t_basis = MPI_Wtime ();
  if (k > l) KS_ROTATE (nl, ldv, k - l, mm, V + (size_t) l * ldv, w->Z, ldh, w->tmp);
  res->time_basis += MPI_Wtime () - t_basis;
  memmove (V + (size_t) k * ldv, V + (size_t) m * ldv, (size_t) p * ldv * sizeof *V);
  for (int j = 0; j < m + p; j++)   /* H = [T_k; Bm(:, 0:k-1)], locked columns deflated */
    for (int i = (j < k ? k : 0); i < ldh; i++) H[i + (size_t) j * ldh] = 0.0;
  for (int j = 0; j < k; j++)
    for (int t = 0; t < p; t++)
      H[(k + t) + (size_t) j * ldh] = (j < nconv) ? 0.0 : Bm[t + (size_t) (j - l) * p];
  return k;
}

/* Collective. The step after each expansion, shared by the single-vector (p = 1) and the
   block path. With OP V(:, 0:m-1) = V(:, 0:m-1) H(0:m-1, 0:m-1) + V(:, m:m+p-1) E,
   E = H(m:m+p-1, 0:m-1), and l locked leading columns: rank 0 brings the active part to
   sorted Schur form T = Z^H H(l:m-1, l:m-1) Z and every rank gets T and Z (S, Z) and updates
   H (the locked rows follow: H(0:l-1, l:m-1) Z); Bm = E(:, l:m-1) Z (p x mm, ld p); the
   Ritz residuals |Bm y_i| relative to |mu_i|; the leading run of converged pairs (pairs
   whole) gets locked_rel (the Schur step: schur_step). Converged (nev) or out of restarts:
   the result goes to res (take_result: mu, resid, the Ritz vectors gathered by
   gather_vectors, which may move w->V) and it returns 1. Else the restart (truncate: k
   Schur vectors and the p residual vectors kept, H = [T_k; Bm(:, 0:k-1)]), *kp = k,
   *lp = nconv, and it returns 0. Negative MB_E* (the same on every rank) on failure. The
   arrays are w's (KS_BASIS; locked_rel keeps the locked pairs' residuals across
   restarts).
   With Hs != NULL (a copy of ldh^2 entries) the call is a probe in the middle of an
   expansion, at a block boundary m < ncv where the decomposition above holds exactly with
   m columns: the same test; when fewer than nev pairs are converged H is restored from Hs
   (V, *kp, *lp untouched, no progress line), *nconvp = the leading converged pairs found,
   and it returns 2 so that the expansion goes on; when nev are, it ends as above from the
   current m columns and returns 1. */
static int KS_SUFFIX (restart) (const ks_dist *d, const ks_opts *opts, int nev, int m, int p,
                                int restart, int *kp, int *lp, KS_BASIS *w, KS_SCALAR *Hs,
                                int *nconvp, ks_result *res, mb_err *err)
{
  int ldh = w->ldh, root = is_root (d), l = *lp, nconv, info;
  double infod;
  KS_SCALAR **Vp = &w->V, *H = w->H, *S = w->S, *Z = w->Z, *Bm = w->Bm;
  KS_SCALAR *h2 = w->h2, *tmp = w->tmp;
  double complex *Y = w->Y;
  double *rel = w->rel, *locked_rel = w->locked_rel;
  double t_schur = MPI_Wtime ();
  int mm = m - l;
  if (Hs) {
    memcpy (Hs, H, (size_t) ldh * ldh * sizeof *H);
    res->probes++;
  }
  int rc = KS_SUFFIX (schur_step) (d, m, l, p, H, ldh, S, Z, Bm, h2, err);
  if (rc < 0) return rc;

  double mu_max = 0.0;
  for (int i = 0; i < m; i++) mu_max = fmax (mu_max, cabs (KS_MU (m, H, ldh, i)));
  info = root ? KS_SUFFIX (ds_ritz_residuals) (mm, S, ldh, p, Bm, mu_max, Y, rel) : 0;
  infod = info;
  share (d, &infod, 1);
  if (infod != 0.0) {
    return lapack_fail (err, infod, "eigenvectors of T");
  }
  share (d, rel, mm);
  nconv = l;
  while (nconv < m) {
    int bs = KS_BLOCK (m, H, ldh, nconv);
    if (nconv + bs > m || rel[nconv - l] > opts->tol) break;
    if (bs == 2 && rel[nconv + 1 - l] > opts->tol) break;
    for (int q = 0; q < bs; q++) locked_rel[nconv + q] = rel[nconv + q - l];
    nconv += bs;
  }
  if (Hs && nconv < nev) {  /* probe: not yet; the expansion goes on */
    memcpy (H, Hs, (size_t) ldh * ldh * sizeof *H);
    *nconvp = nconv;
    res->time_schur += MPI_Wtime () - t_schur;
    return 2;
  }
  if (Hs) res->early = 1;
  double worst = 0.0;
  for (int i = 0; i < nev && i < m; i++) worst = fmax (worst, i < nconv ? locked_rel[i] : rel[i - l]);
  res->restarts = restart;
  res->worst = worst;
  if (root && opts->progress) opts->progress (opts->progress_ctx, restart, nconv, nev, worst);
  res->time_schur += MPI_Wtime () - t_schur;

  if (nconv >= nev || restart >= opts->max_restarts)
    return KS_SUFFIX (take_result) (d, opts, nev, m, p, l, nconv, Vp, H, ldh, Z, Bm, tmp, Y,
                                    locked_rel, res, err);

  *kp = KS_SUFFIX (truncate) (d, nev, m, p, l, nconv, w, res);
  *lp = nconv;
  return 0;
}

/* Collective. res->orth_loss = max(res->orth_loss, max |V^H V - I|) over the first q columns
   of V, with a q x q Gram matrix of its own (freed here); skipped on every rank when one
   rank lacks the memory. */
static void KS_SUFFIX (measure_orth) (const ks_dist *d, int q, const KS_SCALAR *V,
                                      ks_result *res)
{
  KS_SCALAR *G = mb_calloc ((size_t) q * q, sizeof *G);
  int ok = G != NULL, all_ok;
  MPI_Allreduce (&ok, &all_ok, 1, MPI_INT, MPI_MIN, d->comm);
  if (all_ok) res->orth_loss = fmax (res->orth_loss, KS_SUFFIX (bv_orth_loss) (d, q, V, G));
  free (G);
}

/* Every rank, at a solve's end (status rc, started at t_start): a failed solve's result
   cleared; else its total time, and on the root the one stats line into opts->stats (when
   set), p the block size of the block path, 0 for the single-vector path (whose line stops
   at ncv). */
static void KS_SUFFIX (end_solve) (const ks_dist *d, const ks_opts *opts, int p, int rc,
                                   double t_start, ks_result *res)
{
  if (rc < 0) {
    ks_result_clear (res);
    return;
  }
  res->time_total = MPI_Wtime () - t_start;
  if (!is_root (d) || !opts->stats) return;
  fprintf (opts->stats, "krylov-schur: %.3f s: %d applies %.3f s, orthogonalization %.3f s "
           "(%d second passes), Schur work %.3f s, basis rotations %.3f s, %d restarts, "
           "ncv %d", res->time_total, res->applies, res->time_apply, res->time_orth,
           res->reorths, res->time_schur, res->time_basis, res->restarts, res->ncv);
  if (p > 0)
    fprintf (opts->stats, ", block %d (%d block applies, %d deflated), %d probes%s, %d lagged "
             "second passes (%d retried)", p, res->block_applies, res->deflated, res->probes,
             res->early ? ", stopped early" : "", res->lagged, res->lag_retries);
  fprintf (opts->stats, "\n");
}

/* w's arrays for a basis of m + p columns of ldv rows (KS_BASIS), zeroed; fault site
   "krylov" (V then NULL). Returns 1 when all were allocated; free_basis frees them in
   both cases. */
static int KS_SUFFIX (alloc_basis) (KS_BASIS *w, int ldv, int m, int p)
{
  size_t ldh = (size_t) m + p;
  w->ldv = ldv;
  w->ldh = (int) ldh;
  w->V = mb_calloc ((size_t) ldv * ldh, sizeof *w->V);
  w->rvec = mb_calloc ((size_t) ldv, sizeof *w->rvec);
  w->H = mb_calloc (ldh * ldh, sizeof *w->H);
  w->S = mb_calloc (ldh * ldh, sizeof *w->S);
  w->Z = mb_calloc (ldh * ldh, sizeof *w->Z);
  w->h2 = mb_calloc (ldh, sizeof *w->h2);
  w->tmp = mb_calloc ((size_t) BV_ROW_BLOCK * m, sizeof *w->tmp);
  w->Bm = mb_calloc ((size_t) p * ldh, sizeof *w->Bm);
  w->Y = mb_calloc (ldh * ldh, sizeof *w->Y);
  w->rel = mb_calloc (ldh, sizeof *w->rel);
  w->locked_rel = mb_calloc (ldh, sizeof *w->locked_rel);
  if (mb_fault ("krylov")) { free (w->V); w->V = NULL; }
  return w->V && w->rvec && w->H && w->S && w->Z && w->h2 && w->tmp && w->Bm && w->Y && w->rel
         && w->locked_rel;
}

static void KS_SUFFIX (free_basis) (KS_BASIS *w)
{
  free (w->V); free (w->rvec); free (w->H); free (w->S); free (w->Z); free (w->h2);
  free (w->tmp); free (w->Bm); free (w->Y); free (w->rel); free (w->locked_rel);
}

/* Collective. The start block: OP R for p random columns R (uniform in [-1, 1), the same
   global entries on every rank from dirs's seed; in the range of OP), into V(:, 0:p-1)
   (by one block apply of op), then orthonormalized column by column
   (block_finish, with Z(:, 0) as scratch for the coefficients; Z is zeroed after). The
   applies count in res. Returns 0 or the first failing apply's status. */
static int KS_SUFFIX (start_block) (const ks_dist *d, KS_APPLY op, void *ctx, int p,
                                    KS_SCALAR *V, KS_SCALAR *Z, int ldh, KS_SCALAR *C,
                                    double *nrm, KS_SCALAR *h2, double *red, KS_DIRS *dirs,
                                    ks_result *res)
{
  int ldv = d->nloc > 0 ? d->nloc : 1;
  for (int i = 0; i < p; i++)
    KS_SUFFIX (bv_random) (d, &dirs->state, V + (size_t) (p + i) * ldv);
  int rc = KS_SUFFIX (apply_block) (op, ctx, p, ldv, V + (size_t) p * ldv, V, res);
  if (rc < 0) return rc;
  KS_SUFFIX (bv_block_pass) (d, 0, p, V, V, C, nrm, red);  /* the norms only */
  for (int i = 0; i < p; i++)  /* Z(:, 0) as scratch for the coefficients */
    KS_SUFFIX (block_finish) (d, 0, i, V, Z, sqrt (nrm[i]), h2, red, dirs, res);
  memset (Z, 0, (size_t) ldh * ldh * sizeof *Z);
  return dirs->rc;
}

/* The end of the next stretch of the block expansion from column j: the block boundary at
   or after the next probe's column next (at least one block on), when probing and it
   falls before m; else m. */
static int KS_SUFFIX (probe_column) (int probing, int next, int j, int m, int p)
{
  if (!probing || next >= m) return m;
  int t = next > j ? (next - j + p - 1) / p : 1;
  return j + (long long) t * p < m ? j + t * p : m;
}

/* The next probe's column after a probe at column j that found c pairs converged, the
   previous one (or the restart) at j0 with c0: at the rate seen since then, nev would be
   reached after (nev - c) / rate columns; wait half of that, at least (nev - c) / 2, and
   never beyond m. */
static int KS_SUFFIX (next_probe) (int nev, int m, int j, int j0, int c, int c0)
{
  double gap = 0.5 * (nev - c), rate = (double) (c - c0) / (j - j0);
  if (rate > 0.0 && 0.5 * (nev - c) / rate > gap) gap = 0.5 * (nev - c) / rate;
  return gap > m ? m : j + (int) gap;
}

/* Collective. Block Krylov-Schur with block size p (2 <= p, m + p <= n): the decomposition
       OP V_m = V_m H_m + V(:, m:m+p-1) E,   E = H(m:m+p-1, 0:m-1),
   is expanded by band Arnoldi (KS_SUFFIX (expand_block)); then KS_SUFFIX (restart), the
   step shared with the single-vector path (p = 1 there), brings the active part of H to
   sorted Schur form, takes the Ritz residuals |E Z y_i|, locks the converged leading pairs
   (their columns of E Z set to zero), and keeps k Schur vectors and the p residual
   vectors: H = [T_k; (E Z)(:, 0:k-1)]. The expansion goes one block at a time and the same
   test is probed at block boundaries j < m (the decomposition holds there with m = j), so
   that the solve ends as soon as nev pairs have converged (res->early). Same
   arguments and result as KS_ENTRY, with nev and m already checked. */
static int KS_SUFFIX (solve_block) (const ks_dist *d, KS_APPLY op, void *ctx,
                                    const ks_opts *opts, int nev, int m, int p,
                                    ks_result *res, mb_err *err)
{
  int ldv = d->nloc > 0 ? d->nloc : 1, ldh = m + p, rc = 0, lag = !opts->no_lag;
  res->ncv = m;
  res->block = p;
  double t_start = MPI_Wtime ();
  KS_BASIS w;
  int basis_ok = KS_SUFFIX (alloc_basis) (&w, ldv, m, p);
  KS_DIRS dirs = { 0x9E3779B97F4A7C15ULL ^ (unsigned long long) opts->seed, op, ctx, w.rvec,
                   0.0, 0, 0, res };
  KS_SCALAR *C = mb_calloc ((size_t) ldh * p, sizeof *C);
  KS_SCALAR *L = mb_calloc ((size_t) 6 * ldh * p + 3 * p * p, sizeof *L);  /* lag_step */
  double *gg = mb_calloc ((size_t) p, sizeof *gg), *nrm = mb_calloc ((size_t) p, sizeof *nrm);
  double *red = mb_calloc ((size_t) KS_DOUBLES * (ldh + 1) * 2 * p + 2 * ldh + 2, sizeof *red);
  /* H's copy for the probes (all ranks take the same branch: opts are the same on all) */
  int probing = !opts->no_early_exit;
  KS_SCALAR *Hs = probing ? mb_calloc ((size_t) ldh * ldh, sizeof *Hs) : NULL;
  int ok = basis_ok && C && L && gg && nrm && red && (Hs || !probing), all_ok;
  MPI_Allreduce (&ok, &all_ok, 1, MPI_INT, MPI_MIN, d->comm);
  if (!all_ok) {
    rc = mb_fail (err, MB_ENOMEM, "Krylov-Schur: out of memory for a %d x %d basis (%.3g MB "
                  "on this rank)", d->n, m + p, (double) ldv * (m + p) * sizeof *w.V / 1e6);
    goto done;
  }
  rc = KS_SUFFIX (start_block) (d, op, ctx, p, w.V, w.Z, ldh, C, nrm, w.h2, red, &dirs, res);
  if (rc < 0) goto done;

  /* One block at a time; at a block boundary j (nev < j < m) the decomposition holds with
     j columns, OP V_j = V_j H_j + V(:, j:j+p-1) E_j, and the restart's convergence test is
     probed there (Hs): when the nev wanted pairs have converged the solve ends from V_j,
     without the rest of the expansion. A probe costs a Schur form of order j - l (a
     fraction of a block solve, not nothing), so probes are spaced:
     with c pairs converged at the last probe or restart, the next probe waits until
     (nev - c) / 2 more columns are in (one more converged pair per two new vectors, a
     guess that errs to the side of probing), or half of the (nev - c) / rate columns that
     the rate of convergence since the last probe of this expansion asks for, if more
     (fewer probes for the same applies: scripts/bench/README.md,
     "Behind the comments"). */
  int k = 0, l = 0;  /* kept columns, locked columns */
  for (int restart = 0;; restart++) {
    int j = k, next = nev + 1 > k + (nev - l) / 2 ? nev + 1 : k + (nev - l) / 2;
    int j0 = k, c0 = l;  /* the last probe (or the restart) of this expansion */
    rc = 0;
    while (rc == 0 && j < m) {
      int jj = KS_SUFFIX (probe_column) (Hs != NULL, next, j, m, p);
      rc = KS_SUFFIX (expand_block) (d, j, jj, p, op, ctx, w.V, w.H, ldh, C, nrm, w.h2, red, L,
                                     gg, &lag, &dirs, res);
      if (rc < 0) goto done;
      j = jj;
      int probe = Hs && j < m && j >= next, c = l;
      if (opts->check_orthogonality && (j == m || probe))
        KS_SUFFIX (measure_orth) (d, j + p, w.V, res);
      if (!probe) continue;
      rc = KS_SUFFIX (restart) (d, opts, nev, j, p, restart, &k, &l, &w, Hs, &c, res, err);
      if (rc < 0) goto done;
      if (rc == 2) {
        rc = 0;
        next = KS_SUFFIX (next_probe) (nev, m, j, j0, c, c0);
        j0 = j;
        c0 = c;
      }
    }
    if (rc == 1) break;  /* converged at a probe: the result is in res */
    rc = KS_SUFFIX (restart) (d, opts, nev, m, p, restart, &k, &l, &w, NULL, NULL, res, err);
    if (rc < 0) goto done;
    if (rc == 1) break;  /* the result is in res */
  }

done:
  KS_SUFFIX (end_solve) (d, opts, p, rc, t_start, res);
  KS_SUFFIX (free_basis) (&w);
  free (C); free (nrm); free (red); free (Hs); free (L); free (gg);
  return rc < 0 ? rc : 0;
}

/* Collective. The start vector of the single-vector path: OP r for a random r, so that it
   lies in the range of OP (this purges components along the infinite eigenvalues of a
   singular B), normalized into V(:, 0) (a plain random unit vector when OP r = 0); h2 and
   red are workspace. Returns 0 or OP's status. */
static int KS_SUFFIX (start_vector) (const ks_dist *d, KS_APPLY op, void *ctx, KS_SCALAR *V,
                                     KS_SCALAR *h2, double *red, KS_DIRS *dirs,
                                     ks_result *res)
{
  int nl = d->nloc, ldv = nl > 0 ? nl : 1;
  KS_RANDOM_UNIT (d, 1, V, h2, red, dirs, KS_PLAIN);
  int rc = op (ctx, 1, V + ldv, ldv, V, ldv);
  res->applies++;
  if (rc < 0) return rc;
  double v0 = KS_NRM2 (d, V);
  if (v0 > 0.0) for (int i = 0; i < nl; i++) V[i] /= v0;
  else KS_RANDOM_UNIT (d, 0, V, h2, red, dirs, KS_PLAIN);
  return 0;
}

/* Collective. Krylov-Schur with single vectors (Algorithm 1): the start vector, then
   expansions to m columns by KS_EXPAND (Algorithm 2) and KS_SUFFIX (restart) (the Schur
   form, the convergence test, locking, the truncation to k columns) until nev
   pairs have converged or the restarts run out; when the basis spans OP's range after j
   columns the decomposition is exact and its pairs are the result. Same arguments and
   result as KS_ENTRY, with nev and m already checked. */
static int KS_SUFFIX (solve_single) (const ks_dist *d, KS_APPLY op, void *ctx,
                                     const ks_opts *opts, int nev, int m, ks_result *res,
                                     mb_err *err)
{
  int ldv = d->nloc > 0 ? d->nloc : 1, ldh = m + 1, rc = 0;
  res->ncv = m;
  res->block = 1;
  double t_start = MPI_Wtime ();
  KS_BASIS w;
  int basis_ok = KS_SUFFIX (alloc_basis) (&w, ldv, m, 1);
  KS_DIRS dirs = { 0x9E3779B97F4A7C15ULL ^ (unsigned long long) opts->seed, op, ctx, w.rvec,
                   0.0, 0, 0, res };
  double *red = mb_calloc ((size_t) KS_DOUBLES * 2 * ldh + 2, sizeof *red);
  KS_SCALAR *xwork = mb_calloc ((size_t) 5 * ldh, sizeof *xwork);  /* X, Hc, Y of KS_EXPAND */
  int ok = basis_ok && red && xwork, all_ok;
  MPI_Allreduce (&ok, &all_ok, 1, MPI_INT, MPI_MIN, d->comm);
  if (!all_ok) {
    rc = mb_fail (err, MB_ENOMEM, "Krylov-Schur: out of memory for a %d x %d basis (%.3g MB "
                  "on this rank)", d->n, m + 1, (double) ldv * (m + 1) * sizeof *w.V / 1e6);
    goto done;
  }
  rc = KS_SUFFIX (start_vector) (d, op, ctx, w.V, w.h2, red, &dirs, res);
  if (rc < 0) goto done;
  int k = 0, l = 0;  /* kept columns, locked columns */
  for (int restart = 0;; restart++) {
    rc = KS_EXPAND (d, k, m, op, ctx, w.V, w.H, ldh, w.h2, xwork, xwork + 2 * ldh,
                    xwork + 3 * ldh, red, &dirs, res);
    if (rc < 0) goto done;
    if (rc == 1) {  /* OP's range spanned by j columns: its every nonzero eigenvalue is in */
      int j = dirs.exhausted;  /* H(0:j-1, 0:j-1), exact: the result, whatever nev asked */
      if (opts->check_orthogonality) KS_SUFFIX (measure_orth) (d, j, w.V, res);
      rc = KS_SUFFIX (restart) (d, opts, nev < j ? nev : j, j, 1, restart, &k, &l, &w, NULL,
                                NULL, res, err);
      if (rc < 0) goto done;
      res->converged = 1;
      break;
    }
    if (opts->check_orthogonality)  /* the last column is zero when the basis is the space */
      KS_SUFFIX (measure_orth) (d, w.H[m + (size_t) (m - 1) * ldh] != 0.0 ? m + 1 : m, w.V, res);
    rc = KS_SUFFIX (restart) (d, opts, nev, m, 1, restart, &k, &l, &w, NULL, NULL, res, err);
    if (rc < 0) goto done;
    if (rc == 1) break;  /* the result is in res */
  }

done:
  KS_SUFFIX (end_solve) (d, opts, 0, rc, t_start, res);
  KS_SUFFIX (free_basis) (&w);
  free (red); free (xwork);
  return rc < 0 ? rc : 0;
}

/* The subspace size m for nev wanted pairs of an operator of order n, in 64 bits (2 nev
   overflows int for nev > INT_MAX / 2): opts->ncv, or max (2 nev, nev + 15); an automatic
   subspace grows to nev + 4 p for a block size p chosen from outside (a restart then
   expands by at least 4 blocks; the default p already allows that): with nev + 2 p the
   block path stalls (the damped grounded chain of test_gep, nev 12, p 8). */
static long long KS_SUFFIX (subspace) (const ks_opts *opts, int n, int nev)
{
  long long mll = opts->ncv > 0 ? opts->ncv : (2LL * nev > nev + 15LL ? 2LL * nev : nev + 15LL);
  if (opts->ncv <= 0 && mll < n) {
    int pb = block_size (opts, n, (int) mll, nev, KS_DOUBLES == 1);
    if (pb > 1 && mll < nev + 4LL * pb) mll = nev + 4LL * pb;
  }
  return mll;
}

int KS_ENTRY (const ks_dist *d, KS_APPLY op, void *ctx, const ks_opts *opts, ks_result *res,
              mb_err *err)
{
  memset (res, 0, sizeof *res);
  int n = d->n, nev = opts->nev;
  res->n = n;
  if (nev < 1 || n < 1)
    return mb_fail (err, MB_ESOLVE, "Krylov-Schur: %d eigenvalues of an operator of order %d "
                    "asked; need at least 1 of order at least 1", opts->nev, n);
  long long mll = KS_SUFFIX (subspace) (opts, n, nev);
  if (mll >= n || opts->whole) {  /* the whole space: dense n x n operator, KS_DOUBLES n^2 */
    if ((long long) n > KS_MAX_ORDER)
      return mb_fail (err, MB_ENOMEM, "Krylov-Schur: %d eigenvalues with a subspace of %lld "
                      "vectors need the whole space of order %d as a dense matrix (%.3g GB); "
                      "too large: ask for fewer than %d eigenvalues (and a smaller subspace)",
                      opts->nev, mll, n, (double) n * n * sizeof (KS_SCALAR) / 1e9, n / 2);
    int rcd = KS_DENSE (d, op, ctx, opts, res, err);
    res->n = n;
    return rcd;
  }
  int m = (int) mll;  /* < n */
  if (nev > m - 1) nev = m - 1;
  if (nev < 1 || m < 2)
    return mb_fail (err, MB_ESOLVE, "Krylov-Schur: problem of order %d is too small for %d "
                    "eigenvalues", n, opts->nev);
  if (m + 1 > KS_MAX_ORDER)  /* (m + 1)^2 projected matrices, sent as KS_DOUBLES (m + 1)^2 */
    return mb_fail (err, MB_ENOMEM, "Krylov-Schur: a subspace of %d vectors is too large (its "
                    "projected matrices alone take %.3g GB); ask for fewer eigenvalues or set a "
                    "smaller subspace", m, 4.0 * (m + 1.0) * (m + 1.0) * sizeof (KS_SCALAR) / 1e9);
  int pblk = block_size (opts, n, m, nev, KS_DOUBLES == 1);
  if (pblk > 1) return KS_SUFFIX (solve_block) (d, op, ctx, opts, nev, m, pblk, res, err);
  return KS_SUFFIX (solve_single) (d, op, ctx, opts, nev, m, res, err);
}

#undef KS_BLOCK
#undef KS_MU
#undef KS_SCHUR
#undef KS_EIGVECS
#undef KS_GS_PASS
#undef KS_NRM2
#undef KS_RANDOM_UNIT
#undef KS_EXPAND
#undef KS_FINISH
#undef KS_DIRS
#undef KS_BASIS
#undef KS_CONJ
#undef KS_ROTATE
#undef KS_DOUBLES
#undef KS_MPI_TYPE
#undef KS_DENSE
#undef KS_DENSE_EIG
#undef KS_MAX_ORDER
