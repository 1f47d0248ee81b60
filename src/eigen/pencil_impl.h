/* pencil_impl.h: the pencils' vector operations written once for both arithmetics: GEP (18)'s
   residual. Included by pencil.c once per arithmetic with PD_SCALAR (double or double
   complex), PD_ABS (fabs or cabs), PD_MATVEC (y = A x for a real sparse A and PD_SCALAR x)
   and PD_NAME (the public name's form: pencil_residual_undamped_real or
   pencil_residual_undamped) defined. */

/* Relative residual of (lambda, [phi; xi]) for GEP (18), unscaled, infinity norms:
   r = [K phi + Cq^T xi - lambda M phi; Cq phi], ||r|| / ((||A|| + |lambda| ||B||) ||phi||).
   ||phi|| rather than ||[phi; xi]||: the multipliers are forces, of K's size, and would make
   the quotient look better than the mode is. work: 2 (n + m) entries, caller owned. */
double PD_NAME (pencil_residual_undamped) (const gep_system *sys, PD_SCALAR lambda,
                                           const PD_SCALAR *phi, const PD_SCALAR *xi,
                                           double anorm, double bnorm, PD_SCALAR *work)
{
  int n = sys->n, m = sys->m;
  PD_SCALAR *r = work, *t = work + n + m;
  PD_MATVEC (sys->K, phi, r);
  PD_MATVEC (sys->M, phi, t);
  for (int i = 0; i < n; i++) r[i] -= lambda * t[i];
  for (int i = 0; i < m; i++) r[n + i] = 0.0;
  if (sys->Cq)
    for (long k = 0; k < sys->Cq->nnz; k++) {
      r[sys->Cq->col[k]] += sys->Cq->val[k] * xi[sys->Cq->row[k]];
      r[n + sys->Cq->row[k]] += sys->Cq->val[k] * phi[sys->Cq->col[k]];
    }
  double xn = 0.0, rn = 0.0;  /* inf-norms: of the DOFs (not the multipliers), of r */
  for (int i = 0; i < n; i++) xn = fmax (xn, PD_ABS (phi[i]));
  for (int i = 0; i < n + m; i++) rn = fmax (rn, PD_ABS (r[i]));
  return rn / ((anorm + PD_ABS (lambda) * bnorm) * (xn > 0.0 ? xn : 1.0));
}
