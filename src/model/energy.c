/* energy.c: the parts of a model (bodies, beams, springs, bushings) and the kinetic and
   strain energy shares of each part in a mode shape, at the deck configuration. */
#include "energy.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "elements.h"

/* Re(x^H a x) = xr^T a xr + xi^T a xi for real a. */
double elem_energy (const elem *e, const double *a, const double complex *x)
{
  double s = 0.0;
  for (int bi = 0; bi < e->nnode; bi++) {
    if (e->node[bi] < 0) continue;
    for (int bj = 0; bj < e->nnode; bj++) {
      if (e->node[bj] < 0) continue;
      const double complex *xi = x + 6 * e->node[bi], *xj = x + 6 * e->node[bj];
      for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++) {
          double v = a[12 * (6 * bi + i) + 6 * bj + j];
          s += v * (creal (xi[i]) * creal (xj[j]) + cimag (xi[i]) * cimag (xj[j]));
        }
    }
  }
  return s;
}

/* ---- parts and energies ---- */

/* Springs, rotational springs and bushings are parts; point forces and torques not. */
static int is_part_force (const model_force *f)
{
  return f->type == FORCE_SPRING || f->type == FORCE_ROTATIONAL_SPRING ||
         f->type == FORCE_BUSHING;
}

/* Bodies, beams, then the part forces in deck order. */
int model_parts (const model *mdl, model_part **parts)
{
  int n = mdl->nbodies + mdl->nbeams;
  for (int f = 0; f < mdl->nforces; f++) n += is_part_force (&mdl->forces[f]);
  *parts = NULL;
  if (n == 0) return 0;
  model_part *p = mb_calloc ((size_t) n, sizeof *p);
  if (!p || mb_fault ("model")) { free (p); return MB_ENOMEM; }
  int k = 0;
  for (int i = 0; i < mdl->nbodies; i++)
    p[k++] = (model_part) { mdl->bodies[i].name, PART_BODY, i };
  for (int i = 0; i < mdl->nbeams; i++)
    p[k++] = (model_part) { mdl->beams[i].name, PART_BEAM, i };
  for (int f = 0; f < mdl->nforces; f++)
    if (is_part_force (&mdl->forces[f]))
      p[k++] = (model_part) { mdl->forces[f].name, PART_FORCE, f };
  *parts = p;
  return n;
}

/* Re(x^H M x) and Re(x^H K x) of every element, once: added to the totals *tk, *ts and,
   when the element belongs to a requested part (pb, pm, pf: part index of each body, beam
   and force, or -1), to that part's kin[] and str[]. */
static void element_energies (const model *mdl, const model_state *st, const int *pb,
                              const int *pm, const int *pf, const double complex *x,
                              double *kin, double *str, double *tk, double *ts)
{
  elem e;
  for (int i = 0; i < mdl->nbodies; i++) {
    body_element (mdl, st, i, 0, &e);
    double k = elem_energy (&e, e.M, x);
    *tk += k;
    if (pb[i] >= 0) kin[pb[i]] += k;
  }
  for (int ib = 0; ib < mdl->nbeams; ib++)
    for (int q = 0; q < mdl->beams[ib].nelements; q++) {
      beam_element (mdl, st, ib, q, 0, &e);     /* no load stiffness */
      double k = elem_energy (&e, e.M, x), st = elem_energy (&e, e.K, x);
      *tk += k;
      *ts += st;
      if (pm[ib] >= 0) { kin[pm[ib]] += k; str[pm[ib]] += st; }
    }
  for (int f = 0; f < mdl->nforces; f++) {
    force_element (mdl, st, f, &e);
    double st = e.has_K ? elem_energy (&e, e.K, x) : 0.0;
    *ts += st;
    if (pf[f] >= 0) str[pf[f]] += st;
  }
}

/* share[i] = v[i] / total, or 0 when |total| < 1e-14 max |v|. */
static void shares (const double *v, int n, double total, double *share)
{
  double vmax = 0.0;
  for (int i = 0; i < n; i++) vmax = fmax (vmax, fabs (v[i]));
  int zero = !(fabs (total) >= 1e-14 * vmax) || total == 0.0;
  for (int i = 0; i < n; i++) share[i] = zero ? 0.0 : v[i] / total;
}

/* Per part and in total, Re(x^H A x) from element blocks recomputed on the fly (each
   element once; a part listed twice gets its energy once, in its last entry). */
int model_energy_shares (const model *mdl, const model_part *parts, int nparts,
                         const double complex *x, double *kinetic, double *strain,
                         mb_err *err)
{
  return model_energy_shares_at (mdl, NULL, parts, nparts, x, kinetic, strain, err);
}

/* As model_energy_shares with the element matrices at state st (NULL: the deck). */
int model_energy_shares_at (const model *mdl, const model_state *st, const model_part *parts,
                            int nparts, const double complex *x, double *kinetic,
                            double *strain, mb_err *err)
{
  if (nparts <= 0) return 0;
  double *kin = mb_calloc ((size_t) nparts, sizeof *kin);
  double *str = mb_calloc ((size_t) nparts, sizeof *str);
  int *pb = mb_calloc ((size_t) mdl->nbodies, sizeof *pb);
  int *pm = mb_calloc ((size_t) mdl->nbeams, sizeof *pm);
  int *pf = mb_calloc ((size_t) mdl->nforces, sizeof *pf);
  if (!kin || !str || !pb || !pm || !pf) {
    free (kin); free (str); free (pb); free (pm); free (pf);
    return mb_fail (err, MB_ENOMEM, "out of memory computing energy shares");
  }
  for (int i = 0; i < mdl->nbodies; i++) pb[i] = -1;
  for (int i = 0; i < mdl->nbeams; i++) pm[i] = -1;
  for (int i = 0; i < mdl->nforces; i++) pf[i] = -1;
  for (int i = 0; i < nparts; i++) {
    int k = parts[i].index;
    if (parts[i].kind == PART_BODY && k >= 0 && k < mdl->nbodies) pb[k] = i;
    if (parts[i].kind == PART_BEAM && k >= 0 && k < mdl->nbeams) pm[k] = i;
    if (parts[i].kind == PART_FORCE && k >= 0 && k < mdl->nforces) pf[k] = i;
  }
  double tk = 0.0, ts = 0.0;
  element_energies (mdl, st, pb, pm, pf, x, kin, str, &tk, &ts);
  shares (kin, nparts, tk, kinetic);
  shares (str, nparts, ts, strain);
  free (kin); free (str); free (pb); free (pm); free (pf);
  return 0;
}
