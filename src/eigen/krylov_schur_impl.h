/* krylov_schur_impl.h: the Krylov-Schur restart loop, included by krylov_schur.c once per
   arithmetic, the last of the template headers (after ks_common_impl.h, ks_block_impl.h
   and ks_dense_impl.h), with KS_SCALAR (double or double complex),
   KS_SUFFIX (helper names: _r, _c, which also picks bv's and ds's kernels), KS_APPLY
   (operator type) and KS_ENTRY (the public function) defined.
   Vectors are distributed by rows (ks_dist, bv.h); H, its Schur form (ds.h) and every
   decision are computed on rank 0 and broadcast. Reading order, seed 001's Algorithms:
   KS_ENTRY -> solve_block (Algorithm 1 by blocks of p >= 1 columns, a single vector being
   a block of 1: start_block, expand_block = Algorithm 2 with its lagged second pass
   lag_step, and the probes, in ks_block_impl.h; restart = the Schur step, the
   convergence test and locking, then truncate); take_result and keep_vectors return the
   Ritz pairs; KS_DENSE (ks_dense_impl.h) is the whole-space path. OP (Algorithm 3 for
   shift-invert) is the caller's KS_APPLY. The names of ks_common_impl.h are undefined at
   the end, for the next instantiation. */

/* The arrays of one solve, for a basis of m + p columns of ldv = max (nloc, 1) rows
   (p = 1: single vectors), all zeroed and owned by the solve (alloc_basis,
   free_basis): the basis V (ldv x ldh, ldh = m + p), a row vector rvec, H, its Schur form
   S and vectors Z (ldh x ldh), h2 (ldh), tmp (BV_ROW_BLOCK x m), the residual rows
   Bm = E Z (p x ldh; b^T = beta e_m^T Z for p = 1), the projected eigenvectors Y (ldh x
   ldh, complex), the Ritz residuals rel and the locked pairs' locked_rel (ldh); the
   expansion's workspace (expand_block): C (ldh p), L (6 ldh p + 3 p^2, lag_step), gg and
   nrm (p), red (KS_DOUBLES (ldh + 1) 2 p + 2 ldh + 2 doubles), and H's copy Hs for the
   probes (ldh x ldh; NULL when the solve does not probe). */
typedef struct KS_BASIS {
  int ldv, ldh;
  KS_SCALAR *V, *rvec, *H, *S, *Z, *h2, *tmp, *Bm;
  double complex *Y;
  double *rel, *locked_rel;
  KS_SCALAR *C, *L, *Hs;
  double *gg, *nrm, *red;
} KS_BASIS;

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

/* Collective. The converged Ritz vectors X = V(:, 0:p-1) Y, computed in place in the basis
   (ritz_in_basis: each x purified and of unit norm), which then shrinks to p columns and
   becomes res->xr (real arithmetic: the columns as they stand, a conjugate pair (j, j+1)
   as the real and imaginary parts of x_j in columns j and j+1) or res->x (complex) on
   every rank, its own rows (res->rows = 1): nothing is gathered. The nb residual vectors
   V(:, m:m+nb-1) have the coefficients b (nb rows, ld nb: 1 for single vectors).
   *Vp is taken (NULL on return: res owns the basis). Returns 0 or MB_ENOMEM. */
static int KS_SUFFIX (keep_vectors) (const ks_dist *d, int p, int l, int m, int nb,
                                     KS_SCALAR **Vp, const double complex *Y,
                                     const KS_SCALAR *b, const KS_SCALAR *H, int ldh,
                                     KS_SCALAR *tmp, ks_result *res)
{
  int ld = d->nloc > 0 ? d->nloc : 1, ok, all;
  KS_SCALAR *Yk = mb_calloc ((size_t) p * p, sizeof *Yk);
  double *sq = mb_calloc ((size_t) p, sizeof *sq);
  ok = Yk && sq;
  MPI_Allreduce (&ok, &all, 1, MPI_INT, MPI_MIN, d->comm);
  if (all) {
    KS_SUFFIX (ritz_in_basis) (d, p, l, m, nb, Vp, Y, b, H, ldh, tmp, Yk, sq, res);
    KS_SCALAR *V = *Vp, *kept = realloc (V, (size_t) ld * (p > 0 ? p : 1) * sizeof *V);
    res->KS_KEPT = kept ? kept : V;
    *Vp = NULL;  /* res owns it now */
    res->rows = 1;
  }
  free (Yk); free (sq);
  return all ? 0 : MB_ENOMEM;
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
  int rc = lapack_status (d, info, err, "Schur factorization");
  if (rc < 0) return rc;
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
   keep_vectors, which takes *Vp). Returns 1 (the result is in res), or negative MB_E*
   (the same on every rank). */
static int KS_SUFFIX (take_result) (const ks_dist *d, int nev, int m,
                                    int p, int l, int nconv, KS_SCALAR **Vp, KS_SCALAR *H,
                                    int ldh, KS_SCALAR *Z, KS_SCALAR *Bm, KS_SCALAR *tmp,
                                    double complex *Y, const double *locked_rel,
                                    ks_result *res, mb_err *err)
{
  int nl = d->nloc, ldv = nl > 0 ? nl : 1, root = is_root (d), mm = m - l, ok, all_ok, info;
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
    int rc = lapack_status (d, info, err, "Ritz vectors' eigenvectors");
    if (rc < 0) return rc;
    share (d, (double *) Y, 2 * pr * pr);
    for (int i = 0; i < pr; i++) {
      res->mu[i] = KS_MU (m, H, ldh, i);
      res->resid[i] = locked_rel[i];
    }
    if (KS_SUFFIX (keep_vectors) (d, pr, l, m, p, Vp, Y, Bm, H, ldh, tmp, res) < 0) {
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
   the result goes to res (take_result: mu, resid, the Ritz vectors by rows from
   keep_vectors, which takes w->V) and it returns 1. Else the restart (truncate: k
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
  rc = lapack_status (d, info, err, "eigenvectors of T");
  if (rc < 0) return rc;
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
    return KS_SUFFIX (take_result) (d, nev, m, p, l, nconv, Vp, H, ldh, Z, Bm, tmp, Y,
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
   set), p the block size (0: the line stops at ncv). */
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

/* w's arrays for a basis of m + p columns of ldv rows (KS_BASIS), zeroed, Hs when probing;
   fault site "krylov" (V then NULL). Returns 1 when all were allocated; free_basis frees
   them in both cases. */
static int KS_SUFFIX (alloc_basis) (KS_BASIS *w, int ldv, int m, int p, int probing)
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
  w->C = mb_calloc (ldh * p, sizeof *w->C);
  w->L = mb_calloc (6 * ldh * p + 3 * (size_t) p * p, sizeof *w->L);
  w->gg = mb_calloc ((size_t) p, sizeof *w->gg);
  w->nrm = mb_calloc ((size_t) p, sizeof *w->nrm);
  w->red = mb_calloc ((size_t) KS_DOUBLES * (ldh + 1) * 2 * p + 2 * ldh + 2, sizeof *w->red);
  w->Hs = probing ? mb_calloc (ldh * ldh, sizeof *w->Hs) : NULL;
  if (mb_fault ("krylov")) { free (w->V); w->V = NULL; }
  return w->V && w->rvec && w->H && w->S && w->Z && w->h2 && w->tmp && w->Bm && w->Y && w->rel
         && w->locked_rel && w->C && w->L && w->gg && w->nrm && w->red && (w->Hs || !probing);
}

static void KS_SUFFIX (free_basis) (KS_BASIS *w)
{
  free (w->V); free (w->rvec); free (w->H); free (w->S); free (w->Z); free (w->h2);
  free (w->tmp); free (w->Bm); free (w->Y); free (w->rel); free (w->locked_rel);
  free (w->C); free (w->L); free (w->gg); free (w->nrm); free (w->red); free (w->Hs);
}

/* Collective. One expansion of solve_block from the *kp kept columns (*lp locked) to m, in
   stretches that end at the probes' columns (probe_column): at a block boundary j
   (nev < j < m) the decomposition holds with j columns, OP V_j = V_j H_j + V(:, j:j+p-1)
   E_j, and the restart's convergence test is probed there (w->Hs): when the nev wanted
   pairs have converged the solve ends from V_j, without the rest of the expansion. The
   lagged Gram-Schmidt goes on through a probe: the block at j stays pending (one pass),
   the probe tests the j - p columns whose decomposition is exact, and finishing the block
   early (two more reads of the basis) is saved. A probe costs a Schur form of order j - l
   (a fraction of a block solve, not nothing), so probes are spaced: with c pairs
   converged at the last probe or restart, the next probe waits until (nev - c) / 2 more
   columns are in (one more converged pair per two new vectors, a guess that errs to the
   side of probing), or half of the (nev - c) / rate columns that the rate of convergence
   since the last probe of this expansion asks for, if more (fewer probes for the same
   applies: scripts/bench/README.md, "Behind the comments"). Returns 0 when expanded to m
   (the restart follows), 1 when the result is in res (nev pairs converged at a probe, or
   single vectors spanned OP's range: that decomposition is exact, and its pairs are the
   result, res->converged), or a negative MB_E* (the same on every rank). */
static int KS_SUFFIX (expansion) (const ks_dist *d, const ks_opts *opts, KS_APPLY op,
                                  void *ctx, int nev, int m, int p, int restart, int *kp,
                                  int *lp, int *lagp, KS_BASIS *w, KS_DIRS *dirs,
                                  ks_result *res, mb_err *err)
{
  int k = *kp, l = *lp, rc;
  int j = k, next = nev + 1 > k + (nev - l) / 2 ? nev + 1 : k + (nev - l) / 2;
  int j0 = k, c0 = l;  /* the last probe (or the restart) of this expansion */
  int pending = 0;     /* V(:, j:j+p-1) has had its first pass only */
  while (j < m) {
    int jj = KS_SUFFIX (probe_column) (w->Hs != NULL, next, j, m, p);
    rc = KS_SUFFIX (expand_block) (d, j, jj, m, p, op, ctx, w->V, w->H, w->ldh, w->C, w->nrm,
                                   w->h2, w->red, w->L, w->gg, lagp, &pending, dirs, res);
    if (rc < 0) return rc;
    if (rc == 1) {  /* OP's range spanned by j columns: its every nonzero eigenvalue is in */
      j = dirs->exhausted;  /* H(0:j-1, 0:j-1), exact: the result, whatever nev asked */
      if (opts->check_orthogonality) KS_SUFFIX (measure_orth) (d, j, w->V, res);
      rc = KS_SUFFIX (restart) (d, opts, nev < j ? nev : j, j, p, restart, kp, lp, w, NULL,
                                NULL, res, err);
      res->converged = rc >= 0;
      return rc < 0 ? rc : 1;
    }
    j = jj;
    /* with a block pending at j the decomposition holds exactly with mp = j - p columns
       (OP has not been applied to V(:, j-p:j-1) finished), and the probe tests those */
    int mp = pending ? j - p : j, probe = w->Hs && j < m && j >= next && mp > nev, c = l;
    if (opts->check_orthogonality && (j == m || probe))
      KS_SUFFIX (measure_orth) (d, mp + p, w->V, res);
    if (!probe) continue;
    rc = KS_SUFFIX (restart) (d, opts, nev, mp, p, restart, kp, lp, w, w->Hs, &c, res, err);
    if (rc != 2) return rc;  /* converged at the probe (1), or failed */
    next = KS_SUFFIX (next_probe) (nev, m, j, j0, c, c0);
    j0 = j;
    c0 = c;
  }
  return 0;
}

/* Collective. Block Krylov-Schur with block size p (1 <= p, m + p <= n): the decomposition
       OP V_m = V_m H_m + V(:, m:m+p-1) E,   E = H(m:m+p-1, 0:m-1),
   is expanded by band Arnoldi (KS_SUFFIX (expansion); Arnoldi for p = 1); then
   KS_SUFFIX (restart) brings the active part of H to sorted Schur form, takes the Ritz
   residuals |E Z y_i|, locks the converged leading pairs (their columns of E Z set to
   zero), and keeps k Schur vectors and the p residual vectors: H = [T_k; (E Z)(:, 0:k-1)],
   until nev pairs have converged or the restarts run out. Blocks of p > 1 probe the test
   inside an expansion and end as soon as nev pairs have converged (res->early); single
   vectors expand to m without probes: they serve small operators, whose Ritz pairs then
   converge beyond tol in the last expansion, and complex reruns. Same arguments and
   result as KS_ENTRY, with nev and m already checked. */
static int KS_SUFFIX (solve_block) (const ks_dist *d, KS_APPLY op, void *ctx,
                                    const ks_opts *opts, int nev, int m, int p,
                                    ks_result *res, mb_err *err)
{
  int ldv = d->nloc > 0 ? d->nloc : 1, rc = 0, lag = !opts->no_lag;
  res->ncv = m;
  res->block = p;
  double t_start = MPI_Wtime ();
  KS_BASIS w;
  /* (all ranks take the same branch: opts are the same on all) */
  int ok = KS_SUFFIX (alloc_basis) (&w, ldv, m, p, !opts->no_early_exit && p > 1), all_ok;
  KS_DIRS dirs = { 0x9E3779B97F4A7C15ULL ^ (unsigned long long) opts->seed, op, ctx, w.rvec,
                   0.0, 0, 0, res, KS_PURGE_OR_PLAIN };
  MPI_Allreduce (&ok, &all_ok, 1, MPI_INT, MPI_MIN, d->comm);
  if (!all_ok) {
    rc = mb_fail (err, MB_ENOMEM, "Krylov-Schur: out of memory for a %d x %d basis (%.3g MB "
                  "on this rank)", d->n, m + p, (double) ldv * (m + p) * sizeof *w.V / 1e6);
    goto done;
  }
  rc = KS_SUFFIX (start_block) (d, op, ctx, p, w.V, w.Z, w.ldh, w.C, w.nrm, w.h2, w.red, &dirs,
                                res);
  if (rc < 0) goto done;
  /* the start block always gets its p directions; from here single vectors may stop */
  dirs.how = p > 1 ? KS_PURGE_OR_PLAIN : KS_PURGE_OR_STOP;
  int k = 0, l = 0;  /* kept columns, locked columns */
  for (int restart = 0;; restart++) {
    rc = KS_SUFFIX (expansion) (d, opts, op, ctx, nev, m, p, restart, &k, &l, &lag, &w, &dirs,
                                res, err);
    if (rc != 0) break;  /* the result is in res, or failed */
    rc = KS_SUFFIX (restart) (d, opts, nev, m, p, restart, &k, &l, &w, NULL, NULL, res, err);
    if (rc != 0) break;  /* the result is in res, or failed */
  }

done:
  KS_SUFFIX (end_solve) (d, opts, p, rc, t_start, res);
  KS_SUFFIX (free_basis) (&w);
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
  return KS_SUFFIX (solve_block) (d, op, ctx, opts, nev, m, pblk, res, err);
}

#undef KS_BLOCK
#undef KS_MU
#undef KS_SCHUR
#undef KS_EIGVECS
#undef KS_GS_PASS
#undef KS_NRM2
#undef KS_RANDOM_UNIT
#undef KS_DIRS
#undef KS_BASIS
#undef KS_CONJ
#undef KS_ROTATE
#undef KS_DOUBLES
#undef KS_KEPT
#undef KS_DENSE
#undef KS_DENSE_EIG
#undef KS_MAX_ORDER
