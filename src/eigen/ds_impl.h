/* ds_impl.h: the projected problem of ds.h written once for both arithmetics. Included by
   ds.c once per arithmetic with DS_SCALAR (double or double complex), DS_NAME (the public
   name's suffix: _r or _c) and DS_REAL (1 or 0) defined. The real Schur form differs from
   the complex one by its 2x2 blocks (a complex pair of a real matrix) and LAPACK's real
   routines return real vectors; those parts are under #if DS_REAL, the rest is shared.
   Sequential; every array is the caller's, workspace allocated here is freed here. */

/* 2 when T(i+1, i) != 0 (real arithmetic: a 2x2 block starts at i), else 1. */
int DS_NAME (ds_block) (int mm, const DS_SCALAR *T, int ld, int i)
{
#if DS_REAL
  return (i + 1 < mm && T[(i + 1) + (size_t) i * ld] != 0.0) ? 2 : 1;
#else
  (void) mm; (void) T; (void) ld; (void) i;
  return 1;
#endif
}

/* T(i, i), or for a 2x2 block [a b; c a] of a real Schur form a +- i sqrt(|b c|) (the
   first of the pair +, the second -). */
double complex DS_NAME (ds_diag_mu) (int mm, const DS_SCALAR *T, int ld, int i)
{
#if DS_REAL
  double a = T[i + (size_t) i * ld];
  if (DS_NAME (ds_block) (mm, T, ld, i) == 2) {
    double b = T[i + (size_t) (i + 1) * ld], c = T[(i + 1) + (size_t) i * ld];
    return a + I * sqrt (fabs (b * c));
  }
  if (i > 0 && T[i + (size_t) (i - 1) * ld] != 0.0) {  /* second of a pair */
    double b = T[(i - 1) + (size_t) i * ld], c = T[i + (size_t) (i - 1) * ld];
    return a - I * sqrt (fabs (b * c));
  }
  return a;
#else
  (void) mm;
  return T[i + (size_t) i * ld];
#endif
}

/* 1 when mi goes before mb in the sorted Schur form: larger |mu| (relative 1e-14); in
   complex arithmetic, at equal |mu|, the larger imaginary part (a real Schur form keeps a
   pair's + first by itself). */
static int DS_NAME (sorts_before) (double complex mi, double complex mb)
{
  if (cabs (mi) > cabs (mb) * (1.0 + 1e-14)) return 1;
#if DS_REAL
  return 0;
#else
  return cabs (mi) >= cabs (mb) * (1.0 - 1e-14) && cimag (mi) > cimag (mb) + 1e-14 * cabs (mb);
#endif
}

/* gees (T = Z T' Z^H), then selection sort of the diagonal blocks: the block of largest
   |mu| among pos.. moved to pos by trexc (Z accumulating the swaps). */
int DS_NAME (ds_schur_sorted) (int mm, DS_SCALAR *T, int ld, DS_SCALAR *Z)
{
  lapack_int sdim = 0, info;
  if (mb_fault ("schur")) return DS_NOMEM;
#if DS_REAL
  double *wr = malloc ((size_t) mm * sizeof *wr), *wi = malloc ((size_t) mm * sizeof *wi);
  if (!wr || !wi) { free (wr); free (wi); return DS_NOMEM; }
  info = LAPACKE_dgees (LAPACK_COL_MAJOR, 'V', 'N', NULL, mm, T, ld, &sdim, wr, wi, Z, ld);
  free (wr); free (wi);
#else
  double complex *w = malloc ((size_t) mm * sizeof *w);
  if (!w) return DS_NOMEM;
  info = LAPACKE_zgees (LAPACK_COL_MAJOR, 'V', 'N', NULL, mm, T, ld, &sdim, w, Z, ld);
  free (w);
#endif
  if (info != 0) return (int) info;
  for (int pos = 0; pos < mm; pos += DS_NAME (ds_block) (mm, T, ld, pos)) {
    int best = pos;
    double complex mb = DS_NAME (ds_diag_mu) (mm, T, ld, pos);
    for (int i = pos + DS_NAME (ds_block) (mm, T, ld, pos); i < mm;
         i += DS_NAME (ds_block) (mm, T, ld, i)) {
      double complex mi = DS_NAME (ds_diag_mu) (mm, T, ld, i);
      if (DS_NAME (sorts_before) (mi, mb)) { best = i; mb = mi; }
    }
    if (best == pos) continue;
#if DS_REAL
    lapack_int ifst = best + 1, ilst = pos + 1;
    LAPACKE_dtrexc (LAPACK_COL_MAJOR, 'V', mm, T, ld, Z, ld, &ifst, &ilst);
    /* a failed swap (info 1: too ill-conditioned) leaves the order a little off */
#else
    LAPACKE_ztrexc (LAPACK_COL_MAJOR, 'V', mm, T, ld, Z, ld, best + 1, pos + 1);
#endif
  }
  return 0;
}

/* trevc on a copy of T (p x p); real arithmetic: a pair's columns j, j+1 of the real
   result hold Re and Im of the vector of mu_j (Im > 0), made conjugate columns of Y. */
int DS_NAME (ds_eigvecs) (int p, const DS_SCALAR *T, int ld, double complex *Y)
{
  DS_SCALAR *Tc = mb_calloc ((size_t) p * p, sizeof *Tc);
#if DS_REAL
  double *VR = mb_calloc ((size_t) p * p, sizeof *VR);
  if (!Tc || !VR) { free (Tc); free (VR); return DS_NOMEM; }
#else
  if (!Tc) return DS_NOMEM;
#endif
  for (int j = 0; j < p; j++)
    for (int i = 0; i < p; i++) Tc[i + (size_t) j * p] = T[i + (size_t) j * ld];
  lapack_int mout = 0;
#if DS_REAL
  lapack_int info = LAPACKE_dtrevc (LAPACK_COL_MAJOR, 'R', 'A', NULL, p, Tc, p, NULL, 1, VR, p,
                                    p, &mout);
  if (info == 0)
    for (int j = 0; j < p; j += DS_NAME (ds_block) (p, Tc, p, j)) {
      if (DS_NAME (ds_block) (p, Tc, p, j) == 1) {
        for (int i = 0; i < p; i++) Y[i + (size_t) j * p] = VR[i + (size_t) j * p];
      } else {
        for (int i = 0; i < p; i++) {
          double complex y = VR[i + (size_t) j * p] + I * VR[i + (size_t) (j + 1) * p];
          Y[i + (size_t) j * p] = y;
          Y[i + (size_t) (j + 1) * p] = conj (y);
        }
      }
    }
  free (VR);
#else
  lapack_int info = LAPACKE_ztrevc (LAPACK_COL_MAJOR, 'R', 'A', NULL, p, Tc, p, NULL, 1, Y, p,
                                    p, &mout);
#endif
  free (Tc);
  return (int) info;
}

/* rel[i] from the eigenvectors y_i of T: |Bm y_i|^2 summed over the nb rows of Bm. */
int DS_NAME (ds_ritz_residuals) (int mm, const DS_SCALAR *T, int ld, int nb,
                                 const DS_SCALAR *Bm, double mu_max, double complex *Y,
                                 double *rel)
{
  int info = DS_NAME (ds_eigvecs) (mm, T, ld, Y);
  if (info != 0) return info;
  for (int i = 0; i < mm; i++) {
    double ny = 0.0, r2 = 0.0;
    for (int q = 0; q < mm; q++) ny += creal (Y[q + (size_t) i * mm] * conj (Y[q + (size_t) i * mm]));
    for (int t = 0; t < nb; t++) {
      double complex r = 0.0;
      for (int q = 0; q < mm; q++) r += Bm[t + (size_t) q * nb] * Y[q + (size_t) i * mm];
      r2 += creal (r * conj (r));
    }
    double mu = cabs (DS_NAME (ds_diag_mu) (mm, T, ld, i));
    rel[i] = sqrt (r2) / (sqrt (ny) * fmax (mu, 1e-12 * mu_max));
  }
  return 0;
}

/* geev with right vectors; real arithmetic: the real result's pair columns (Re, Im) made
   conjugate complex columns. */
int DS_NAME (ds_dense_eig) (int n, DS_SCALAR *A, double complex *mu, double complex *X)
{
#if DS_REAL
  double *wr = mb_calloc ((size_t) n, sizeof *wr), *wi = mb_calloc ((size_t) n, sizeof *wi);
  double *vr = mb_calloc ((size_t) n * n, sizeof *vr);
  int info = DS_NOMEM;
  if (wr && wi && vr)
    info = LAPACKE_dgeev (LAPACK_COL_MAJOR, 'N', 'V', n, A, n, wr, wi, NULL, 1, vr, n);
  for (int j = 0; info == 0 && j < n; j++) {
    mu[j] = wr[j] + I * wi[j];
    if (wi[j] != 0.0 && j + 1 < n) {  /* columns j, j+1 hold Re and Im of the pair */
      mu[j + 1] = wr[j + 1] + I * wi[j + 1];
      for (int i = 0; i < n; i++) {
        double re = vr[i + (size_t) j * n], im = vr[i + (size_t) (j + 1) * n];
        X[i + (size_t) j * n] = re + I * im;
        X[i + (size_t) (j + 1) * n] = re - I * im;
      }
      j++;
    } else {
      for (int i = 0; i < n; i++) X[i + (size_t) j * n] = vr[i + (size_t) j * n];
    }
  }
  free (wr); free (wi); free (vr);
  return info;
#else
  return LAPACKE_zgeev (LAPACK_COL_MAJOR, 'N', 'V', n, A, n, mu, NULL, 1, X, n);
#endif
}

/* Y = A0 X by BLAS-3 (real A0: its products with Re X and Im X, two dgemm; complex: one
   zgemm), then r[k] = sqrt (sum_i |Y_ik - mu_k X_ik|^2). */
void DS_NAME (ds_dense_resid) (int n, int p, const DS_SCALAR *A0, const double complex *X,
                               const double complex *mu, double *r, double *work)
{
#if DS_REAL
  double *Xr = work, *Xi = work + (size_t) n * p, *Yr = Xi + (size_t) n * p;
  double *Yi = Yr + (size_t) n * p;
  for (size_t i = 0; i < (size_t) n * p; i++) Xr[i] = creal (X[i]), Xi[i] = cimag (X[i]);
  cblas_dgemm (CblasColMajor, CblasNoTrans, CblasNoTrans, n, p, n, 1.0, A0, n, Xr, n, 0.0,
               Yr, n);
  cblas_dgemm (CblasColMajor, CblasNoTrans, CblasNoTrans, n, p, n, 1.0, A0, n, Xi, n, 0.0,
               Yi, n);
#else
  double complex *Y = (double complex *) work, one = 1.0, zero = 0.0;
  cblas_zgemm (CblasColMajor, CblasNoTrans, CblasNoTrans, n, p, n, &one, A0, n, X, n, &zero,
               Y, n);
#endif
  for (int k = 0; k < p; k++) {
    double r2 = 0.0;
    for (int i = 0; i < n; i++) {
      size_t e = i + (size_t) k * n;
#if DS_REAL
      double complex s = (Yr[e] + I * Yi[e]) - mu[k] * X[e];
#else
      double complex s = Y[e] - mu[k] * X[e];
#endif
      r2 += creal (s * conj (s));
    }
    r[k] = sqrt (r2);
  }
}
