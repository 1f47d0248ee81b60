/* bv_impl.h: the basis-vector kernels of bv.h written once for both arithmetics. Included
   by bv.c once per arithmetic with BV_SCALAR (double or double complex), BV_NAME (the
   public name's suffix: _r or _c), BV_DOUBLES (doubles per entry), BV_ABS (fabs or cabs),
   BV_CT (CblasTrans or CblasConjTrans: V^H) and the BLAS calls BV_GEMV, BV_GEMM, BV_TRSM,
   BV_NRM2, BV_SELF_DOT (w^H w by the dot product), BV_SQ_NORM (|w|^2 by the 2-norm)
   defined; the constants BV_ONE, BV_ZERO, BV_MONE are the scalars 1, 0, -1 of the
   arithmetic, by address; all of them are undefined at the end, for the next instantiation.
   Ownership: every array is the caller's. */

/* v = this rank's rows of the next n uniform numbers (every rank draws all n). */
void BV_NAME (bv_random) (const ks_dist *d, unsigned long long *state, BV_SCALAR *v)
{
  for (int i = 0; i < d->n; i++) {
    double u = bv_uniform (state);
    if (i >= d->row0 && i < d->row0 + d->nloc) v[i - d->row0] = u;
  }
}

/* One classical Gram-Schmidt pass: [h; s] = [V(:, 0:j-1)^H w; w^H w] in one collective
   (red: j entries, then s at BV_DOUBLES j), then w -= V h on the local rows. Returns s. */
double BV_NAME (bv_gs_pass) (const ks_dist *d, int j, const BV_SCALAR *V, BV_SCALAR *w,
                             BV_SCALAR *h, double *red)
{
  int nl = d->nloc, ld = nl > 0 ? nl : 1, s_at = BV_DOUBLES * j;
  BV_SCALAR *hr = (BV_SCALAR *) red;
  if (nl > 0) {
    if (j > 0) BV_GEMV (BV_CT, nl, j, BV_ONE, V, ld, w, BV_ZERO, hr);
    red[s_at] = BV_SELF_DOT (nl, w);
  } else {
    memset (red, 0, (size_t) (s_at + 1) * sizeof *red);
  }
  allsum_one (d, red, s_at + 1);
  memcpy (h, hr, (size_t) j * sizeof *h);
  if (nl > 0 && j > 0) BV_GEMV (CblasNoTrans, nl, j, BV_MONE, V, ld, h, BV_ONE, w);
  return red[s_at];
}

/* [C; nrm] = [V^H W; |W(:, i)|^2] in one collective (red: q nb entries, then the nb norms
   at BV_DOUBLES q nb). */
void BV_NAME (bv_block_pass) (const ks_dist *d, int q, int nb, const BV_SCALAR *V,
                              const BV_SCALAR *W, BV_SCALAR *C, double *nrm, double *red)
{
  int nl = d->nloc, ld = nl > 0 ? nl : 1, at = BV_DOUBLES * q * nb, cnt = at + (nrm ? nb : 0);
  memset (red, 0, (size_t) cnt * sizeof *red);
  if (nl > 0) {
    if (q > 0) BV_GEMM (BV_CT, CblasNoTrans, q, nb, nl, BV_ONE, V, ld, W, ld, BV_ZERO,
                        (BV_SCALAR *) red, q);
    if (nrm) for (int i = 0; i < nb; i++) red[at + i] = BV_SQ_NORM (nl, W + (size_t) i * ld);
  }
  allsum_one (d, red, cnt);
  memcpy (C, red, (size_t) q * nb * sizeof *C);
  if (nrm) memcpy (nrm, red + at, (size_t) nb * sizeof *nrm);
}

/* W -= V C, then C = V^H W, per row block of gs_rows (q) rows (V read once for both), the
   products summed over the ranks in one collective. */
void BV_NAME (bv_block_fused) (const ks_dist *d, int q, int nb, const BV_SCALAR *V,
                               BV_SCALAR *W, BV_SCALAR *C, double *red)
{
  int nl = d->nloc, ld = nl > 0 ? nl : 1, rb = gs_rows (BV_DOUBLES * q);
  BV_SCALAR *cr = (BV_SCALAR *) red;
  memset (red, 0, (size_t) BV_DOUBLES * q * nb * sizeof *red);
  for (int r0 = 0; r0 < nl && q > 0; r0 += rb) {
    int rows = nl - r0 < rb ? nl - r0 : rb;
    BV_GEMM (CblasNoTrans, CblasNoTrans, rows, nb, q, BV_MONE, V + r0, ld, C, q, BV_ONE,
             W + r0, ld);
    BV_GEMM (BV_CT, CblasNoTrans, q, nb, rows, BV_ONE, V + r0, ld, W + r0, ld, BV_ONE, cr, q);
  }
  allsum_one (d, red, BV_DOUBLES * q * nb);
  memcpy (C, red, (size_t) q * nb * sizeof *C);
}

/* W -= V C on the local rows (V: q columns, C: q x nb). */
void BV_NAME (bv_block_update) (int nl, int q, int nb, const BV_SCALAR *V, BV_SCALAR *W,
                                const BV_SCALAR *C)
{
  int ld = nl > 0 ? nl : 1;
  if (nl > 0 && q > 0)
    BV_GEMM (CblasNoTrans, CblasNoTrans, nl, nb, q, BV_MONE, V, ld, C, q, BV_ONE, W, ld);
}

/* W := W R^-1 on the local rows (R upper triangular, nb x nb). */
void BV_NAME (bv_block_trsm) (int nl, int nb, const BV_SCALAR *R, BV_SCALAR *W)
{
  if (nl > 0) BV_TRSM (nl, nb, BV_ONE, R, nb, W, nl);
}

/* max_ij |G_ij - delta_ij|, G = V^H V (q x q) summed over the ranks by bv_allsum. */
double BV_NAME (bv_orth_loss) (const ks_dist *d, int q, const BV_SCALAR *V, BV_SCALAR *G)
{
  int nl = d->nloc, ld = nl > 0 ? nl : 1;
  if (nl > 0) BV_GEMM (BV_CT, CblasNoTrans, q, q, nl, BV_ONE, V, ld, V, ld, BV_ZERO, G, q);
  else memset (G, 0, (size_t) q * q * sizeof *G);
  bv_allsum (d, (double *) G, BV_DOUBLES * q * q);
  double worst = 0.0;
  for (int j = 0; j < q; j++)
    for (int i = 0; i < q; i++) worst = fmax (worst, BV_ABS (G[i + (size_t) j * q] - (i == j)));
  return worst;
}

/* sqrt of the sum over the ranks of |x_local|^2. */
double BV_NAME (bv_nrm2) (const ks_dist *d, const BV_SCALAR *x)
{
  double s = d->nloc > 0 ? BV_NRM2 (d->nloc, x) : 0.0;
  s *= s;
  bv_allsum (d, &s, 1);
  return sqrt (s);
}

/* sq[i] = sum over the ranks of |V(:, i)_local|^2, one reduction for the p columns. */
void BV_NAME (bv_norms_sq) (const ks_dist *d, int p, const BV_SCALAR *V, double *sq)
{
  int nl = d->nloc, ld = nl > 0 ? nl : 1;
  for (int i = 0; i < p; i++) {
    double t = nl > 0 ? BV_NRM2 (nl, V + (size_t) i * ld) : 0.0;
    sq[i] = t * t;
  }
  bv_allsum (d, sq, p);
}

/* W(:, 0:q-1) = W(:, 0:mm-1) Z(:, 0:q-1): per block of BV_ROW_BLOCK rows, the product into
   tmp (rows x q) and copied back. */
void BV_NAME (bv_rotate) (int nloc, int ld, int q, int mm, BV_SCALAR *W, const BV_SCALAR *Z,
                          int ldz, BV_SCALAR *tmp)
{
  for (int r0 = 0; r0 < nloc; r0 += BV_ROW_BLOCK) {
    int rows = nloc - r0 < BV_ROW_BLOCK ? nloc - r0 : BV_ROW_BLOCK;
    BV_GEMM (CblasNoTrans, CblasNoTrans, rows, q, mm, BV_ONE, W + r0, ld, Z, ldz, BV_ZERO,
             tmp, rows);
    for (int j = 0; j < q; j++)
      memcpy (W + r0 + (size_t) j * ld, tmp + (size_t) j * rows, (size_t) rows * sizeof *W);
  }
}

#undef BV_SCALAR
#undef BV_NAME
#undef BV_DOUBLES
#undef BV_ABS
#undef BV_CT
#undef BV_ONE
#undef BV_ZERO
#undef BV_MONE
#undef BV_GEMV
#undef BV_GEMM
#undef BV_TRSM
#undef BV_NRM2
#undef BV_SELF_DOT
#undef BV_SQ_NORM
