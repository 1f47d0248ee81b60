/* ks_dense_impl.h: Krylov-Schur's dense path, for a subspace that would span the whole
   space: OP formed column by column, its eigenproblem solved by LAPACK on rank 0
   (ds_dense_eig), the pairs of largest |mu| returned with their true residuals. Written
   once for both arithmetics: included by krylov_schur.c once per arithmetic after
   ks_common_impl.h (its names); KS_ENTRY (krylov_schur_impl.h) calls KS_DENSE. */

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
  double mu_max = 0.0;
  rc = lapack_status (d, info, err, "dense eigenproblem of the operator");
  if (rc < 0) goto done;
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
