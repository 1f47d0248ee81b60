/* ks_single_impl.h: Krylov-Schur's single-vector path: the start vector and the Arnoldi
   expansion (seed 001, Algorithm 2) with classical Gram-Schmidt twice, the second pass
   lagged (DCGS2), and its breakdown rule (KS_FINISH). Written once for both arithmetics:
   included by krylov_schur.c once per arithmetic after ks_common_impl.h (its names,
   KS_DIRS, KS_RANDOM_UNIT); the restart loop (krylov_schur_impl.h) calls
   KS_SUFFIX (start_vector) and KS_EXPAND. Every array is the caller's. */

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
