/* ks_block_impl.h: Krylov-Schur's block path: the start block and the band Arnoldi
   expansion by blocks of p columns (one multi-RHS apply each), orthogonalized by block
   classical Gram-Schmidt twice with the second pass lagged and fused with the next block's
   first (block DCGS2: lag_step and its lag_* steps) or not (BCGS2: orth_block), a
   rank-deficient block deflated (block_finish); and where the convergence probes fall
   (probe_column, next_probe). Written once for both arithmetics: included by
   krylov_schur.c once per arithmetic after ks_common_impl.h (its names, KS_DIRS,
   KS_RANDOM_UNIT); the restart loop (krylov_schur_impl.h's solve_block) calls
   start_block, expand_block, probe_column and next_probe. Every array is the caller's. */

/* Collective. Column i of the block W = V(:, q:q+nb-1) (already orthogonal to V(:, 0:q-1))
   made orthonormal to V(:, 0:q+i-1): two Gram-Schmidt passes against the finished columns
   W(:, 0:i-1), a third pass against all of V(:, 0:q+i-1) when they left less than 1e-8 of
   the column, the coefficients added to h (the column of H, rows q .. q+i), h[q+i] its norm.
   When the norm is below 1e-12 of w0 (the norm of the column before any projection) the
   block is rank deficient there: h[q+i] = 0 and the column becomes a random unit direction
   orthogonal to the basis (deflation, as dirs->how says), counted in res->deflated; with
   single vectors (p = 1, KS_PURGE_OR_STOP) a basis that spans OP's range ends there:
   the column is zero and dirs->exhausted = q + i, the decomposition with q + i columns
   being exact (OP has been applied to all of them). h2, red workspace. */
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
    int rc = KS_RANDOM_UNIT (d, q + i, V, h2, red, dirs, dirs->how);
    if (rc < 0) memset (w, 0, (size_t) d->nloc * sizeof *w);  /* the space, or OP's range */
    if (rc == -2) dirs->exhausted = q + i;
  } else {
    h[q + i] = nw;
    for (int r = 0; r < d->nloc; r++) w[r] /= nw;
  }
}

/* Collective. The end of the second Gram-Schmidt pass of the block W = V(:, q:q+nb-1)
   (the block of H's columns q-p .. q-p+nb-1), whose coefficients against V(:, 0:q-1) are
   C (q x nb, ld q): H(0:q-1, q-p:q-p+nb-1) += C, W -= V C, then column by column against
   itself (block_finish, which deflates a rank-deficient block; H's rows q.. of the block's
   columns set there) with the column's norm before any projection, sqrt(gg[i] + nrm[i])
   for its thresholds: nrm the squared column norms that came with the pass's reduction,
   gg the first pass's squared coefficient norms, or NULL when nrm came with the first
   pass. Shared by finish_pending and orth_block's BCGS2; one read of V. */
static void KS_SUFFIX (second_pass) (const ks_dist *d, int q, int nb, int p, KS_SCALAR *V,
                                     KS_SCALAR *H, int ldh, const KS_SCALAR *C,
                                     const double *nrm, const double *gg, KS_SCALAR *h2,
                                     double *red, KS_DIRS *dirs, ks_result *res)
{
  int ld = d->nloc > 0 ? d->nloc : 1;
  KS_SCALAR *W = V + (size_t) q * ld;
  for (int i = 0; i < nb; i++) {
    KS_SCALAR *h = H + (size_t) (q - p + i) * ldh;
    for (int t = 0; t < q; t++) h[t] += C[t + (size_t) i * q];
  }
  KS_SUFFIX (bv_block_update) (d->nloc, q, nb, V, W, C);
  res->reorths += nb;
  for (int i = 0; i < nb; i++) {
    KS_SCALAR *h = H + (size_t) (q - p + i) * ldh;
    for (int t = q; t <= q + i; t++) h[t] = 0.0;
    double w2 = gg ? gg[i] + nrm[i] : nrm[i];
    KS_SUFFIX (block_finish) (d, q, i, V, h, sqrt (w2), h2, red, dirs, res);
  }
}

/* Collective. Finishes the pending block U = V(:, q:q+nb-1) (one Gram-Schmidt pass done,
   its coefficients in H(0:q-1, q-p:q-p+nb-1), gg their squared column norms) explicitly:
   the second pass C = V(:, 0:q-1)^H U (with |U|^2 in the same reduction), then
   second_pass: H += C, U -= V C, column by column against itself with the column's norm
   before any projection sqrt(gg + |U|^2) for its thresholds. Two reads of V. */
static void KS_SUFFIX (finish_pending) (const ks_dist *d, int q, int nb, int p, KS_SCALAR *V,
                                        KS_SCALAR *H, int ldh, KS_SCALAR *C, double *nrm,
                                        const double *gg, KS_SCALAR *h2, double *red,
                                        KS_DIRS *dirs, ks_result *res)
{
  int ld = d->nloc > 0 ? d->nloc : 1;
  KS_SUFFIX (bv_block_pass) (d, q, nb, V, V + (size_t) q * ld, C, nrm, red);
  KS_SUFFIX (second_pass) (d, q, nb, p, V, H, ldh, C, nrm, gg, h2, red, dirs, res);
}

/* Largest condition number (the bound below on kappa_2) of the lagged step's triangular
   factor R for which its one Cholesky QR is trusted: the columns lose about eps kappa^2 of
   orthogonality among themselves (2.3e-13 at 32). Measured on the 40 x 40 grid (blocks of
   8): kappa_2 of R from 1.3 to 15, median 1.8. */
#define KS_LAG_KAPPA 32.0

/* Rank-local. The lagged step's factor from X2 (q x 2p, q = j + p): G = U^H U - C2^H C2
   (into Gm), refused (0) when a column's second pass removed more than half of it (DGKS)
   or left less than 1e-24 of its squared norm before any projection, gg[c] + |U(:, c)|^2
   (a breakdown near: block_finish decides it); the Cholesky factor G = R^H R (R upper
   triangular), refused when G is not positive definite; M = R^-1 (upper triangular, by
   columns) and the bound
   kappa_2 (R) <= sqrt (|R|_1 |R|_inf |R^-1|_1 |R^-1|_inf) (|A|_2^2 <= |A|_1 |A|_inf),
   refused above KS_LAG_KAPPA. Returns 1 when the step is trusted. */
static int KS_SUFFIX (lag_factor) (int j, int p, const KS_SCALAR *X2, const double *gg,
                                   KS_SCALAR *Gm, KS_SCALAR *R, KS_SCALAR *M)
{
  int q = j + p;
#define X2E(r, c) X2[(r) + (size_t) (c) * q]
  for (int b = 0; b < p; b++)
    for (int a = 0; a < p; a++) {
      KS_SCALAR s = X2E (j + a, b);
      for (int t = 0; t < j; t++) s -= KS_CONJ (X2E (t, a)) * X2E (t, b);
      Gm[a + b * p] = s;
    }
  for (int c = 0; c < p; c++) {
    double uu = creal (X2E (j + c, c)), r2 = creal (Gm[c + c * p]);
    if (!(r2 >= 0.5 * uu && r2 > 1e-24 * (gg[c] + uu))) return 0;
  }
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

/* Collective. The lagged block Gram-Schmidt step (block DCGS2: the lagged scheme of DCGS2,
   Swirydowicz et al. 2020, written for blocks; DCGS2 itself for p = 1): the block
   U = V(:, j:j+p-1) is pending (one pass, U = OP X - V(:, 0:j-1) C1 with C1 in
   H(0:j-1, j-p:j-1), X = V(:, j-p:j-1)) and OP has been applied to U itself:
   W = OP U in V(:, q:q+p-1), q = j + p. One reduction
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
   KS_LAG_KAPPA, or a column is near a breakdown; then the caller finishes U explicitly and
   applies OP again. L is workspace of 6 ldh p + 3 p^2 entries, red of KS_DOUBLES 2 ldh p
   doubles; gg holds the squared norms of U's first-pass coefficients and gets those of
   the next block's. */
static int KS_SUFFIX (lag_step) (const ks_dist *d, int j, int p, KS_SCALAR *V, KS_SCALAR *H,
                                 int ldh, KS_SCALAR *L, double *red, double *gg)
{
  int ld = d->nloc > 0 ? d->nloc : 1;
  KS_SCALAR *X2 = L, *Hc = X2 + (size_t) 2 * ldh * p, *G1 = Hc + (size_t) ldh * p;
  KS_SCALAR *Cm = G1 + (size_t) ldh * p, *R = Cm + (size_t) 2 * ldh * p, *Gm = R + p * p;
  KS_SCALAR *M = Gm + p * p;
  KS_SUFFIX (bv_block_pass) (d, j + p, 2 * p, V, V + (size_t) j * ld, X2, NULL, red);
  if (!KS_SUFFIX (lag_factor) (j, p, X2, gg, Gm, R, M)) return 0;
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
   fused with C2 = V^H W (bv_block_fused), then second_pass: H += C2, W -= V C2, column
   by column against itself (block_finish, which deflates a rank-deficient block; H's rows
   q.. of the block's columns set there); returns 0. */
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
  KS_SUFFIX (second_pass) (d, q, nb, p, V, H, ldh, C, nrm, NULL, h2, red, dirs, res);
  return 0;
}

/* Collective. Band Arnoldi (Ruhe 1979; block Arnoldi written column by column) for the
   columns j = k .. m-1 (a stretch of the expansion to mfull) with block size p: with
   V(:, 0:j+p-1) orthonormal and OP V(:, 0:j-1) = V(:, 0:j+p-1) H(0:j+p-1, 0:j-1), the
   nb = min (p, m - j) columns V(:, j:j+nb-1) get OP applied at once (op on nb columns, one
   multi-RHS solve) into W = V(:, q:q+nb-1), q = j + p, which is orthogonalized against
   V(:, 0:q-1) and then column by column against itself (KS_SUFFIX (block_finish), which
   also deflates a rank-deficient block). H(0:q+i, j+i) holds the coefficients: H has p
   subdiagonals.
   With lag (and a next block of p columns to come) the second pass is lagged: W gets one
   block classical Gram-Schmidt pass (C1 = V^H W, W -= V C1: two reads of V) and stays
   pending; OP is applied to it as it stands and KS_SUFFIX (lag_step) finishes it together
   with the next block's first pass (two reads). A block pending at the stretch's end
   m < mfull stays pending for the next stretch (*pendingp = 1 in and out: V(:, m:m+p-1)
   has its first pass only, and the decomposition holds exactly with m - p columns); the
   last one of the expansion is finished explicitly (KS_SUFFIX (finish_pending), two
   reads), and so is a block whose lag_step is not trusted: OP is then applied again to the
   finished block, and blocks lag no more in this solve (*lagp = 0: blocks with kappa(R) in
   the thousands would retry most of their applies), while single vectors (p = 1, whose R
   is a number and which are refused only near a breakdown or by DGKS) go on lagging.
   Without lag (*lagp = 0), or for a block with no full block after it: two block
   classical Gram-Schmidt passes (BCGS2; C1 = V^H W, then W -= V C1 fused with C2 = V^H W
   in one sweep over row blocks of V, then W -= V C2: three reads of V; H gets C1 + C2).
   C is workspace of ldh p, nrm of p, L of 6 ldh p + 3 p^2, gg of p, red of
   KS_DOUBLES (ldh + 1) 2 p doubles. Ends with V(:, 0:m+p-1) and returns 0, or returns 1
   when single vectors span OP's range (dirs->exhausted = j: OP V(:, 0:j-1) =
   V(:, 0:j-1) H(0:j-1, 0:j-1) exactly), or OP's negative status. */
static int KS_SUFFIX (expand_block) (const ks_dist *d, int k, int m, int mfull, int p,
                                     KS_APPLY op, void *ctx, KS_SCALAR *V, KS_SCALAR *H,
                                     int ldh, KS_SCALAR *C, double *nrm, KS_SCALAR *h2,
                                     double *red, KS_SCALAR *L, double *gg, int *lagp,
                                     int *pendingp, KS_DIRS *dirs, ks_result *res)
{
  int ld = d->nloc > 0 ? d->nloc : 1, pending = *pendingp, lag = *lagp;
  *pendingp = 0;
  for (int j = k; j < m; j += p) {
    int nb = m - j < p ? m - j : p, q = j + p, rc = 0;
    /* W may stay pending when a full block follows it in the expansion to mfull, and
       from the fifth block on: the first blocks of a start are ill-conditioned (OP^i R
       lines up with the dominant eigenvectors; lag_step would refuse and cost an apply)
       and their basis is short */
    int lag_next = lag && j + 2 * p <= mfull && j >= 4 * p;
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
      if (!done) {  /* not trusted: finish X explicitly, apply OP again, and (blocks) lag
                       no more in this solve: the blocks of this operator are ill-conditioned */
        res->lag_retries++;
        if (p > 1) *lagp = lag = lag_next = 0;
        KS_SUFFIX (finish_pending) (d, j, p, p, V, H, ldh, C, nrm, gg, h2, red, dirs, res);
        res->time_orth += MPI_Wtime () - t1;
        if (dirs->rc < 0 || dirs->exhausted) return dirs->rc < 0 ? dirs->rc : 1;
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
    if (dirs->rc < 0 || dirs->exhausted) return dirs->rc < 0 ? dirs->rc : 1;
    if (lagged) continue;  /* W pending for the next block, or finished */
    double t1 = MPI_Wtime ();
    pending = KS_SUFFIX (orth_block) (d, j, nb, p, V, H, ldh, C, nrm, h2, red, gg, lag_next,
                                      dirs, res);
    res->time_orth += MPI_Wtime () - t1;
    if (!pending && (dirs->rc < 0 || dirs->exhausted)) return dirs->rc < 0 ? dirs->rc : 1;
  }
  *pendingp = pending;
  return dirs->rc;
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
