/* own_scale.c: undamped modes at their own scale from the model's element energies, and
   their refinement by subspace iteration with residual correction (own_scale.h). */
#include "own_scale.h"

#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../linalg/sparse.h"
#include "pencil.h"

/* ---- own scale: eigenvalue, residual, kind and conditioning from element energies ----

   On a fine mesh ||K|| / (lambda_1 ||M||) grows as (L/h)^4 (an element's bending stiffness
   as 1/h^3, its mass as h): about 1e16 for a 10,000-element tube. A product with the
   assembled K then rounds at eps ||K|| ||x||, as large as lambda_1 ||M x||: x^T K x is a
   difference of huge numbers, a residual relative to ||K|| ||x|| stays tiny for a wrong
   mode, and a rigid-body floor relative to ||K|| / ||M|| swallows real modes. With the
   model's element energies (gep_system.energy: each beam element's rigid motion removed
   before its K_e is applied) every sum is of terms of the size of the result. */

#define OWN_EPS 2.220446049250313e-16

/* Rank 0. The mode x = [phi; xi~] of a symmetric pencil (scaled: multipliers xi = s xi~)
   at its own scale:
     lambda = (E(phi) + 2 xi~^T s Cq phi) / phi^T M phi,  E = sys->energy (element sum);
     r = [K phi + Cq^T xi - lambda M phi; s Cq phi], K phi from the element forces;
     resid = max (||r_q|| / (|lambda| ||M phi|| + ||kabs + |Cq^T| |xi| ||),
                  ||Cq phi|| / (||Cq|| ||phi||))   (infinity norms),
   a backward error: the relative change of the element forces and of lambda M phi that
   makes (lambda, x) exact (not relative to ||K|| ||x||, which on a fine mesh is as large
   as the rounding of K phi). Rigid-body: |lambda| ||M phi|| <= ||r_q|| (lambda within
   what the residual allows it to be off by: modes_is_rigid's test at the mode's scale), or
   a strain energy below the rounding of the rigid motion's removal,
   E <= (4096 eps)^2 sum_e |phi_e|^T |K_e| |phi_e|. r (N doubles, or NULL) receives r.
   work: 4 n + 2 m doubles. */
void own_eval (const gep_system *sys, double s, const double *x, double *r, double *work,
               own_mode *o)
{
  int n = sys->n, m = sys->m;
  const double *phi = x, *xi = x + n;
  double *mphi = work, *kphi = work + n, *kabs = work + 2 * (size_t) n;
  double *rows = work + 4 * (size_t) n, *cr = rows + m;
  spm_matvec (sys->M, phi, mphi);
  double q = 0.0, eabs[2] = { 0.0, 0.0 }, cq = 0.0, cnorm = 0.0, cn = 0.0, pn = 0.0;
  for (int k = 0; k < n; k++) q += phi[k] * mphi[k];
  double e = sys->energy (sys->energy_ctx, phi, kphi, kabs, eabs);
  for (int k = 0; k < m; k++) rows[k] = cr[k] = 0.0;
  if (sys->Cq && m > 0)
    for (long k = 0; k < sys->Cq->nnz; k++) {
      int i = sys->Cq->row[k], j = sys->Cq->col[k];
      double v = sys->Cq->val[k], g = s * xi[i];  /* the multiplier, unscaled */
      cq += g * v * phi[j];
      kphi[j] += v * g;
      kabs[j] += fabs (v * g);
      rows[i] += fabs (v);
      cr[i] += v * phi[j];
    }
  for (int i = 0; i < m; i++) {
    cnorm = fmax (cnorm, rows[i]);
    cn = fmax (cn, fabs (cr[i]));
  }
  double lambda = q > 0.0 && isfinite (e + 2.0 * cq) ? (e + 2.0 * cq) / q : 0.0;
  double rn = 0.0, mn = 0.0, fn = 0.0, xn = 0.0;
  for (int k = 0; k < n; k++) {
    xn = fmax (xn, kabs[n + k]);
    double rk = kphi[k] - lambda * mphi[k];
    if (r) r[k] = rk;
    rn = fmax (rn, fabs (rk));
    mn = fmax (mn, fabs (mphi[k]));
    fn = fmax (fn, kabs[k]);
    pn = fmax (pn, fabs (phi[k]));
  }
  for (int i = 0; r && i < m; i++) r[n + i] = s * cr[i];
  double den = fabs (lambda) * mn + fn;
  double resid = den > 0.0 ? rn / den : rn > 0.0 ? INFINITY : 0.0;
  if (cnorm > 0.0 && pn > 0.0) resid = fmax (resid, cn / (cnorm * pn));
  o->lambda = lambda;
  o->resid = isfinite (resid) ? resid : INFINITY;
  o->rfloor = den > 0.0 ? 4.0 * OWN_EPS * xn / den : 0.0;
  o->floor = e <= (4096.0 * OWN_EPS) * (4096.0 * OWN_EPS) * eabs[0];
  o->rigid = fabs (lambda) * mn <= rn || o->floor;
  o->apriori = e != 0.0 ? OWN_EPS * eabs[0] / fabs (e) : INFINITY;
  o->noise = e != 0.0 ? OWN_EPS * eabs[1] / fabs (e) : INFINITY;
}


/* Subspace iteration steps of modes_own_refine. */
#define OWN_STEPS 3
#define OWN_TWO_PI 6.283185307179586476925286766559

/* Rank 0. Rayleigh-Ritz on the nm columns of X (N = n + m rows, the scaled pencil's
   vectors): GK = X^T A0 X = Phi^T K Phi (sys->gram, element energies) + the constraint
   terms Xi~^T s Cq Phi + (s Cq Phi)^T Xi~, GM = Phi^T M Phi; GK y = theta GM y (LAPACK
   dsygv, theta ascending), X <- X Y (M-orthonormal columns). When dsygv fails (GM not
   positive definite), X is left as it is. work: n doubles; T: N nm doubles; GK, GM, Y:
   nm^2 doubles. Returns 0 or MB_ENOMEM (from sys->gram). */
static int rayleigh_ritz (const gep_system *sys, double s, int nm, double *X, double *T,
                          double *GK, double *GM, double *theta, double *work)
{
  int n = sys->n, m = sys->m, N = n + m;
  if (sys->gram (sys->energy_ctx, nm, X, N, GK) < 0) return MB_ENOMEM;
  for (int j = 0; j < nm; j++) {
    const double *pj = X + (size_t) j * N;
    spm_matvec (sys->M, pj, work);
    for (int i = 0; i < nm; i++) {
      double g = 0.0;
      const double *pi = X + (size_t) i * N;
      for (int k = 0; k < n; k++) g += pi[k] * work[k];
      GM[(size_t) j * nm + i] = g;
    }
    if (!sys->Cq || m == 0) continue;
    for (int k = 0; k < m; k++) work[k] = 0.0;  /* s Cq phi_j */
    for (long k = 0; k < sys->Cq->nnz; k++)
      work[sys->Cq->row[k]] += s * sys->Cq->val[k] * pj[sys->Cq->col[k]];
    for (int i = 0; i < nm; i++) {
      double t = 0.0;
      const double *xi = X + (size_t) i * N + n;
      for (int k = 0; k < m; k++) t += xi[k] * work[k];
      GK[(size_t) j * nm + i] += t;
      GK[(size_t) i * nm + j] += t;
    }
  }
  for (int j = 0; j < nm; j++)
    for (int i = 0; i < j; i++) {
      double a = 0.5 * (GK[(size_t) j * nm + i] + GK[(size_t) i * nm + j]);
      double b = 0.5 * (GM[(size_t) j * nm + i] + GM[(size_t) i * nm + j]);
      GK[(size_t) j * nm + i] = GK[(size_t) i * nm + j] = a;
      GM[(size_t) j * nm + i] = GM[(size_t) i * nm + j] = b;
    }
  if (LAPACKE_dsygv (LAPACK_COL_MAJOR, 1, 'V', 'U', nm, GK, nm, GM, nm, theta) != 0) return 0;
  memset (T, 0, (size_t) N * nm * sizeof *T);
  for (int j = 0; j < nm; j++)
    for (int i = 0; i < nm; i++) {
      double y = GK[(size_t) j * nm + i];
      const double *xi = X + (size_t) i * N;
      double *tj = T + (size_t) j * N;
      for (int k = 0; k < N; k++) tj[k] += y * xi[k];
    }
  memcpy (X, T, (size_t) N * nm * sizeof *X);
  return 0;
}

static int own_by_freq (const void *a, const void *b)
{
  const mode *x = a, *y = b;
  return (x->freq_hz > y->freq_hz) - (x->freq_hz < y->freq_hz);
}

/* The estimated relative error of the last of the Ritz values h[0..k] (k >= 2) of one
   mode: d = |h_k - h_(k-1)| / |h_k| times 1 / (1 - rho), rho = |h_k - h_(k-1)| /
   |h_(k-1) - h_(k-2)| the observed contraction (infinite when the changes do not shrink),
   and at least the relative rounding `noise` of the quotient itself (own_mode.noise) or
   1e3 eps; a last change within that is convergence. */
static double own_estimate (const double *h, int k, double noise)
{
  double l = fabs (h[k]), d1 = fabs (h[k - 1] - h[k - 2]), d2 = fabs (h[k] - h[k - 1]);
  noise = fmax (noise, 1e3 * OWN_EPS);  /* and the small dense problem's (dsygv) */
  if (!(l > 0.0)) return INFINITY;
  if (d2 <= noise * l) return fmax (d2 / l, noise);
  if (!(d2 < d1)) return INFINITY;
  return fmax (d2 / l * d1 / (d1 - d2), noise);
}

/* Collective. The modes of a model deck without element energies (about a static
   equilibrium, whose K holds geometric terms the elements do not): mode.cond = the a priori
   relative rounding of the quotient with the assembled K, eps |phi|^T |K| |phi| /
   |phi^T K phi| (phi the mode's vector on rank 0), 0 for rigid-body modes; a mode above
   OWN_COND_LIMIT fails the stage as in modes_own_refine. nm: rank 0's count of modes. */
static int assembled_estimate (MPI_Comm comm, const gep_system *sys, FILE *log, int nm,
                               eigen_result *out, mb_err *err)
{
  int rank, nbad = 0;
  MPI_Comm_rank (comm, &rank);
  double *cond = mb_calloc ((size_t) nm + 1, sizeof *cond);
  int rc = mb_agree (comm, cond ? 0 : mb_fail (err, MB_ENOMEM, "out of memory for the "
                     "modes' conditioning"), err);
  if (rc < 0) return rc;
  if (rank == 0) {
    const spm *K = sys->K;
    double worst = 0.0;
    int wi = 0;
    for (int j = 0; j < nm; j++) {
      const mode *md = &out->modes[j];
      if (md->kind == MODE_RIGID) continue;
      double e = 0.0, ea = 0.0;
      for (long k = 0; k < K->nnz; k++) {
        double t = K->val[k] * creal (md->x[K->row[k]]) * creal (md->x[K->col[k]]);
        e += t;
        ea += fabs (t);
      }
      cond[j] = e != 0.0 ? OWN_EPS * ea / fabs (e) : INFINITY;
      if (!(cond[j] <= worst)) worst = cond[j], wi = j;
      nbad += !(cond[j] <= OWN_COND_LIMIT);
    }
    if (log)
      fprintf (log, "modal: conditioning of the modes from the assembled K (no element "
               "energies about a static equilibrium): worst %.1e\n", worst);
    if (nbad > 0)
      mb_fail (err, MB_ENOCONV, "modal stage: mode %d (%.6g Hz) is uncertain to %.1e relative "
               "(conditioning estimate eps |x|^T |K| |x| / x^T K x, limit %.0e; %d mode%s "
               "above it): the assembled stiffness matrix cannot hold its eigenvalue; likely "
               "cause: elements far shorter than the model (K grows as 1 / h^3, M as h); fix: "
               "mesh with fewer, longer elements (the beam element converges as h^4)",
               wi + 1, out->modes[wi].freq_hz, cond[wi], OWN_COND_LIMIT, nbad,
               nbad == 1 ? "" : "s");
  }
  MPI_Bcast (&nbad, 1, MPI_INT, 0, comm);
  MPI_Bcast (cond, nm, MPI_DOUBLE, 0, comm);
  for (int j = 0; j < nm && out->nmodes == nm; j++) out->modes[j].cond = cond[j];
  out->refined = 1;
  free (cond);
  if (nbad > 0) {
    out->converged = 0;
    return mb_agree (comm, MB_ENOCONV, err);
  }
  return 0;
}

/* Collective. Whether modes_own_refine refines (go[0]: a symmetric pencil, rank 0 holds
   every mode's vector and multipliers, sys->energy, sys->gram and the factors f are set) or
   only estimates the conditioning from the assembled K (go[1]: no element energies, about a
   static equilibrium); both rank 0's decision, broadcast with its count of modes *nm. */
static void refine_gate (MPI_Comm comm, const gep_system *sys, const factor *f,
                         int symmetric, const eigen_result *out, int *nm, int go[2])
{
  int rank, m = sys->m;
  MPI_Comm_rank (comm, &rank);
  go[0] = go[1] = 0;
  if (rank == 0) {
    int have = symmetric && *nm > 0;
    for (int i = 0; have && i < *nm; i++) have = out->modes[i].x && (m == 0 || out->modes[i].xi);
    go[0] = have && sys->energy && sys->gram && f;
    go[1] = have && !go[0] && sys->cond_check && sys->K;
  }
  MPI_Bcast (go, 2, MPI_INT, 0, comm);
  MPI_Bcast (nm, 1, MPI_INT, 0, comm);  /* rank 0's modes (the others may hold none) */
}

/* The scratch of modes_own_refine, rank 0's (all NULL on the others); owns every array:
   X, R, T the nm columns of N = n + m rows (iterates, residuals, Rayleigh-Ritz products),
   W own_eval's and the residuals' work (4 n + 2 m + N), G Rayleigh-Ritz's GK, GM, theta
   (2 nm^2 + nm), hist the Ritz values of each step ((OWN_STEPS + 1) nm), om each mode at
   its own scale (nm). */
typedef struct refine_work {
  double *X, *R, *T, *W, *G, *hist;
  own_mode *om;
} refine_work;

/* Rank 0: allocates w's arrays for nm modes of n + m rows. Returns 0 or MB_ENOMEM (the
   caller agrees on it across ranks; refine_work_clear frees what was allocated). */
static int refine_work_alloc (int n, int m, int nm, refine_work *w, mb_err *err)
{
  int N = n + m;
  w->X = mb_calloc ((size_t) N * nm, sizeof *w->X);
  w->R = mb_calloc ((size_t) N * nm, sizeof *w->R);
  w->T = mb_calloc ((size_t) N * nm, sizeof *w->T);
  w->W = mb_calloc ((size_t) 4 * n + 2 * m + N, sizeof *w->W);
  w->G = mb_calloc ((size_t) 2 * nm * nm + nm, sizeof *w->G);
  w->hist = mb_calloc ((size_t) (OWN_STEPS + 1) * nm, sizeof *w->hist);
  w->om = mb_calloc ((size_t) nm, sizeof *w->om);
  if (!w->X || !w->R || !w->T || !w->W || !w->G || !w->hist || !w->om)
    return mb_fail (err, MB_ENOMEM, "out of memory refining the modes");
  return 0;
}

/* Frees w's arrays (NULL ones too). */
static void refine_work_clear (refine_work *w)
{
  free (w->X); free (w->R); free (w->T); free (w->W); free (w->G); free (w->hist);
  free (w->om);
}

/* Collective. OWN_STEPS steps of subspace iteration with residual correction on rank 0's
   columns w->X: step 0 takes the stage's vectors (multipliers scaled as in the pencil,
   xi~ = xi / s); step it > 0 takes X - (A - sigma B)^-1 R (one step of inverse iteration
   on each column, the solve collective on the factors f); each step then Rayleigh-Ritz
   (rayleigh_ritz) and each column at its own scale (own_eval: w->om, w->R the residuals,
   w->hist the Ritz values). Returns 0 or an error, the same on every rank. */
static int subspace_iterate (MPI_Comm comm, const gep_system *sys, factor *f, double s,
                             int nm, const eigen_result *out, refine_work *w, mb_err *err)
{
  int rank, rc = 0, n = sys->n, m = sys->m, N = n + m;
  MPI_Comm_rank (comm, &rank);
  for (int it = 0; it <= OWN_STEPS && rc == 0; it++) {
    if (rank == 0) {
      if (it == 0)  /* the stage's vectors, multipliers scaled as in the pencil */
        for (int j = 0; j < nm; j++) {
          const mode *md = &out->modes[j];
          double *x = w->X + (size_t) j * N;
          for (int k = 0; k < n; k++) x[k] = creal (md->x[k]);
          for (int k = 0; k < m; k++) x[n + k] = creal (md->xi[k]) / s;
        }
      else  /* X - (A - sigma B)^-1 R: one step of inverse iteration on each column */
        for (size_t k = 0; k < (size_t) N * nm; k++) w->X[k] -= w->R[k];
      double *GK = w->G, *GM = w->G + (size_t) nm * nm, *theta = GM + (size_t) nm * nm;
      rc = rayleigh_ritz (sys, s, nm, w->X, w->T, GK, GM, theta, w->W);
      if (rc < 0) rc = mb_fail (err, MB_ENOMEM, "out of memory refining the modes");
      for (int j = 0; j < nm && rc == 0; j++) {
        own_eval (sys, s, w->X + (size_t) j * N, w->R + (size_t) j * N, w->W, &w->om[j]);
        w->hist[(size_t) it * nm + j] = w->om[j].lambda;
      }
    }
    rc = mb_agree (comm, rc, err);
    if (rc == 0 && it < OWN_STEPS) rc = factor_solve_many (f, rank == 0 ? w->R : NULL, nm, err);
  }
  return rc;
}

/* Rank 0. Refined column j of w->X into mode md: the vector with its largest entry
   positive (multipliers unscaled, xi = s xi~), lambda and residual at its own scale
   (w->om[j]), cond = own_estimate of its Ritz values; rigid-body (no strain energy above
   rounding, or lambda not told from 0): cond 0 and the pencil's residual instead
   (pencil_residual_undamped_real with the norms anorm, bnorm), its rounding floor 0.
   An elastic positive lambda raises *dabs to apriori lambda and lowers *lmin to lambda.
   out->max_residual and out->n_above_tol count the mode. */
static void store_refined (const gep_system *sys, double s, int nm, int j, double anorm,
                           double bnorm, refine_work *w, eigen_result *out, double *dabs,
                           double *lmin)
{
  int n = sys->n, m = sys->m, N = n + m;
  mode *md = &out->modes[j];
  own_mode *o = &w->om[j];
  double *x = w->X + (size_t) j * N, big = 0.0, h[OWN_STEPS + 1];
  int kb = 0;
  for (int k = 0; k < n; k++)
    if (fabs (x[k]) > big * (1.0 + 1e-8)) big = fabs (x[k]), kb = k;
  double sg = x[kb] < 0.0 ? -1.0 : 1.0;  /* largest entry positive */
  for (int k = 0; k < n; k++) md->x[k] = sg * x[k] + 0.0;
  for (int k = 0; k < m; k++) md->xi[k] = sg * s * x[n + k] + 0.0;
  for (int k = 0; k <= OWN_STEPS; k++) h[k] = w->hist[(size_t) k * nm + j];
  double l = o->lambda;
  md->lambda = l;
  md->freq_hz = sqrt (fabs (l)) / OWN_TWO_PI;
  md->damped_freq_hz = md->freq_hz;
  md->residual = o->resid;
  double est = own_estimate (h, OWN_STEPS, o->noise);
  /* rigid-body: no strain energy above rounding, or lambda not told from 0 */
  int rigid = o->floor || !(est < 0.5) || !(o->noise < 0.5);
  md->kind = rigid ? MODE_RIGID : l < 0.0 ? MODE_UNSTABLE : MODE_OSCILLATORY;
  md->cond = rigid ? 0.0 : est;
  if (!rigid && l > 0.0) {
    *dabs = fmax (*dabs, o->apriori * l);
    *lmin = fmin (*lmin, l);
  }
  if (rigid) {  /* no scale of its own: its residual is rounding; the pencil's instead */
    for (int k = 0; k < n; k++) x[k] = creal (md->x[k]);
    for (int k = 0; k < m; k++) x[n + k] = creal (md->xi[k]);
    md->residual = pencil_residual_undamped_real (sys, l, x, x + n, anorm, bnorm, w->W);
    o->rfloor = 0.0;
  }
  out->max_residual = fmax (out->max_residual, md->residual);
  /* a residual at the rounding floor of the mesh's element forces is all the vector
     can give: its eigenvalue's accuracy is the estimate's to vouch for */
  if (!(md->residual <= fmax (EIGEN_RESIDUAL_SAFETY * out->tolerance, o->rfloor)))
    out->n_above_tol++;
}

/* Rank 0. After store_refined on every mode: out->modes sorted by frequency and packed
   for the other ranks, pack[5 j ..] = lambda, freq, residual, cond, kind, then
   max_residual, n_above_tol, *inertia_ok, resid_floor (5 nm + 4 doubles, caller's).
   *inertia_ok = !(dabs > 0.1 lmin): the inertia of the assembled matrices places an
   eigenvalue within about its a priori rounding apriori |lambda|, of no use when that
   exceeds a tenth of the lowest elastic eigenvalue. log (or NULL) gets the worst
   estimate; a mode with cond above OWN_COND_LIMIT sets err (MB_ENOCONV, the worst one
   named). Returns the count of such modes. */
static int pack_refined (int nm, const refine_work *w, double dabs, double lmin, FILE *log,
                         eigen_result *out, double *pack, int *inertia_ok, mb_err *err)
{
  int nbad = 0, worst = -1;
  double wv = 0.0;
  qsort (out->modes, (size_t) nm, sizeof *out->modes, own_by_freq);
  for (int j = 0; j < nm; j++) {
    const mode *md = &out->modes[j];
    if (!(md->cond <= OWN_COND_LIMIT)) {
      nbad++;
      if (worst < 0 || !(md->cond <= wv)) worst = j, wv = md->cond;
    }
    pack[5 * j] = creal (md->lambda);
    pack[5 * j + 1] = md->freq_hz;
    pack[5 * j + 2] = md->residual;
    pack[5 * j + 3] = md->cond;
    pack[5 * j + 4] = md->kind;
  }
  pack[5 * nm] = out->max_residual;
  pack[5 * nm + 1] = out->n_above_tol;
  for (int j = 0; j < nm; j++) out->resid_floor = fmax (out->resid_floor, w->om[j].rfloor);
  *inertia_ok = !(dabs > 0.1 * lmin);
  pack[5 * nm + 2] = *inertia_ok;
  pack[5 * nm + 3] = out->resid_floor;
  double cmax = 0.0, amax = 0.0;
  for (int j = 0; j < nm; j++) amax = fmax (amax, w->om[j].apriori);
  for (int j = 0; j < nm; j++) cmax = fmax (cmax, out->modes[j].kind == MODE_RIGID ? 0.0
                                            : out->modes[j].cond);
  if (log)
    fprintf (log, "modal: eigenvalues refined at the modes' own scale (element energies; "
             "%d steps of subspace iteration): worst estimated relative error %.1e, worst "
             "residual %.1e\n", OWN_STEPS, cmax, out->max_residual);
  if (nbad > 0) {
    const mode *md = &out->modes[worst];
    mb_fail (err, MB_ENOCONV, "modal stage: mode %d (%.6g Hz) is uncertain to %.1e "
             "relative (conditioning estimate, limit %.0e; %d mode%s above it): the "
             "stiffness and mass matrices of this mesh cannot hold its eigenvalue "
             "(rounding of the assembled K relative to the modes' strain energy up to %.1e); "
             "likely cause: elements far shorter than the model (K grows as 1 / h^3, M as "
             "h); fix: mesh with fewer, longer elements (the beam element converges as "
             "h^4, so a few hundred per span are exact to many digits)", worst + 1,
             md->freq_hz, md->cond, OWN_COND_LIMIT, nbad, nbad == 1 ? "" : "s", amax);
  }
  return nbad;
}

/* Collective. Rank 0's pack_refined results (nbad, pack) to every rank: *inertia_ok, and
   on ranks that fill out->modes alike (out->nmodes == nm) each mode's lambda, frequencies,
   residual, cond and kind and out's max_residual, n_above_tol and resid_floor. nbad > 0
   fails the stage: out->converged = 0, MB_ENOCONV agreed. Returns 0 or that error. */
static int share_refined (MPI_Comm comm, int nm, int nbad, double *pack, eigen_result *out,
                          int *inertia_ok, mb_err *err)
{
  int rank;
  MPI_Comm_rank (comm, &rank);
  MPI_Bcast (&nbad, 1, MPI_INT, 0, comm);
  MPI_Bcast (pack, 5 * nm + 4, MPI_DOUBLE, 0, comm);
  *inertia_ok = pack[5 * nm + 2] != 0.0;
  if (rank != 0 && out->nmodes == nm) {  /* ranks that fill out->modes alike */
    for (int j = 0; j < nm; j++) {
      mode *md = &out->modes[j];
      md->lambda = pack[5 * j];
      md->freq_hz = md->damped_freq_hz = pack[5 * j + 1];
      md->residual = pack[5 * j + 2];
      md->cond = pack[5 * j + 3];
      md->kind = (mode_kind) pack[5 * j + 4];
    }
    out->max_residual = pack[5 * nm];
    out->n_above_tol = (int) pack[5 * nm + 1];
    out->resid_floor = pack[5 * nm + 3];
  }
  if (nbad > 0) {
    out->converged = 0;
    return mb_agree (comm, MB_ENOCONV, err);
  }
  return 0;
}

/* Collective; see own_scale.h. The gate (refine_gate), the subspace iteration
   (subspace_iterate), then on rank 0 each refined mode stored (store_refined), sorted and
   packed (pack_refined), and shared with every rank (share_refined). Owns the scratch
   (refine_work) and the pack. */
int modes_own_refine (MPI_Comm comm, const gep_system *sys, factor *f, int symmetric,
                      double s, FILE *log, eigen_result *out, int *inertia_ok, mb_err *err)
{
  int rank, nm = out->nmodes, go[2];
  *inertia_ok = 1;
  MPI_Comm_rank (comm, &rank);
  refine_gate (comm, sys, f, symmetric, out, &nm, go);
  if (go[1]) return assembled_estimate (comm, sys, log, nm, out, err);
  if (!go[0]) return 0;
  out->refined = 1;
  refine_work w = { 0 };
  int rc = rank == 0 ? refine_work_alloc (sys->n, sys->m, nm, &w, err) : 0;
  rc = mb_agree (comm, rc, err);
  if (rc == 0) rc = subspace_iterate (comm, sys, f, s, nm, out, &w, err);
  /* rank 0: the refined modes back into out, with their estimates; then to every rank */
  int nbad = 0;
  double *pack = rc == 0 ? mb_calloc ((size_t) 5 * nm + 4, sizeof *pack) : NULL;
  if (rc == 0) rc = mb_agree (comm, pack ? 0 : mb_fail (err, MB_ENOMEM, "out of memory "
                              "refining the modes"), err);
  double anorm = 1.0, bnorm = 1.0;
  int rcn = rc == 0 && rank == 0 ? pencil_norms (sys, 0, &anorm, &bnorm, err) : 0;
  if (rc == 0) rc = mb_agree (comm, rcn, err);  /* rc: the same on every rank */
  if (rc == 0 && rank == 0) {
    double dabs = 0.0, lmin = INFINITY;
    out->max_residual = 0.0;
    out->n_above_tol = 0;
    for (int j = 0; j < nm; j++)
      store_refined (sys, s, nm, j, anorm, bnorm, &w, out, &dabs, &lmin);
    nbad = pack_refined (nm, &w, dabs, lmin, log, out, pack, inertia_ok, err);
  }
  if (rc == 0) rc = share_refined (comm, nm, nbad, pack, out, inertia_ok, err);
  refine_work_clear (&w);
  free (pack);
  return rc;
}
