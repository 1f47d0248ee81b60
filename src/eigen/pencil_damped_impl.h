/* pencil_damped_impl.h: the damped pencil's reduced right-hand side and expansion (GEP (31)),
   included by pencil.c once per arithmetic with PD_SCALAR (double or double complex),
   PD_MATVEC (y = A x for a real sparse A and PD_SCALAR x) and PD_NAME (the public name's
   form: pencil_damped_reduce_rhs_real or pencil_damped_reduce_rhs) defined. */

/* z = [-(M (w x_v + sigma x_u) + R x_u); 0] (z of size n + m, x of size 2n + m; work: n
   entries, caller owned). */
void PD_NAME (pencil_damped_reduce_rhs) (const gep_system *sys, PD_SCALAR sigma, double w,
                                         const PD_SCALAR *x, PD_SCALAR *z, PD_SCALAR *work)
{
  int n = sys->n, m = sys->m;
  const PD_SCALAR *xu = x, *xv = x + n;
  for (int i = 0; i < n; i++) work[i] = w * xv[i] + sigma * xu[i];
  PD_MATVEC (sys->M, work, z);
  if (sys->R) {
    PD_MATVEC (sys->R, xu, work);
    for (int i = 0; i < n; i++) z[i] += work[i];
  }
  for (int i = 0; i < n; i++) z[i] = -z[i];
  memset (z + n, 0, (size_t) m * sizeof *z);
}

/* x <- [z_q; (x_u + sigma z_q) / w; z_xi] in place (x of size 2n + m, z of size n + m). */
void PD_NAME (pencil_damped_expand) (const gep_system *sys, PD_SCALAR sigma, double w,
                                     const PD_SCALAR *z, PD_SCALAR *x)
{
  int n = sys->n, m = sys->m;
  for (int i = 0; i < n; i++) {
    x[n + i] = (x[i] + sigma * z[i]) / w;
    x[i] = z[i];
  }
  memcpy (x + 2 * n, z + n, (size_t) m * sizeof *x);
}
