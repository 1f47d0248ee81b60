/* energy.c: the parts of a model (bodies, beams, springs, bushings) and the kinetic and
   strain energy shares of each part in a mode shape, the strain split into its material
   and geometric (prestress, load, reaction) parts, about the configuration the eigen
   stages linearized at (the deck, or the equilibrium a model was placed at). */
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
  int n = mdl->nbodies + mdl->nbeams + mdl->nmasses;
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
  for (int i = 0; i < mdl->nmasses; i++)
    p[k++] = (model_part) { mdl->masses[i].name, PART_MASS, i };
  *parts = p;
  return n;
}

/* The model at its deck poses (mdl->eq's copies) and the equilibrium state, for a model
   placed at one: the element blocks assemble_at used there. */
static const model *model_at_deck (const model *mdl, model *ref, const model_state **st)
{
  *st = NULL;
  if (!mdl->eq) return mdl;
  *ref = *mdl;
  ref->nodes = mdl->eq->nodes;
  ref->bodies = mdl->eq->bodies;
  ref->eq = NULL;
  *st = mdl->eq->state;
  return ref;
}

/* Every term of the strain energy: model_parts' parts, then every joint (PART_JOINT: the
   stiffness of its reactions about an equilibrium), then the point forces and torques with
   a stiffness block (PART_LOAD: their load stiffness). */
int model_strain_terms (const model *placed, model_part **terms)
{
  model ref;
  const model_state *st;
  const model *mdl = model_at_deck (placed, &ref, &st);  /* a load's lever at the deck */
  model_part *p = NULL;
  int np = model_parts (mdl, &p);
  if (np < 0) return np;
  int n = np + mdl->njoints;
  for (int f = 0; f < mdl->nforces; f++)
    n += !is_part_force (&mdl->forces[f]) && force_has_stiffness (mdl, &mdl->forces[f]);
  *terms = NULL;
  if (n == 0) { free (p); return 0; }
  model_part *t = mb_calloc ((size_t) n, sizeof *t);
  if (!t || mb_fault ("model")) { free (t); free (p); return MB_ENOMEM; }
  if (np > 0) memcpy (t, p, (size_t) np * sizeof *t);
  free (p);
  int k = np;
  for (int j = 0; j < mdl->njoints; j++)
    t[k++] = (model_part) { mdl->joints[j].name, PART_JOINT, j };
  for (int f = 0; f < mdl->nforces; f++)
    if (!is_part_force (&mdl->forces[f]) && force_has_stiffness (mdl, &mdl->forces[f]))
      t[k++] = (model_part) { mdl->forces[f].name, PART_LOAD, f };
  *terms = t;
  return n;
}

/* Where the energies of the elements go: the term index of each body, beam, force and
   joint (or -1: counted in the totals only), and the sums. */
typedef struct energy_acc {
  const int *pb, *pm, *pf, *pj;
  const int *pp;              /* point masses */
  double *kin, *mat, *geo;    /* per term */
  double tk, ts;              /* Re(x^H M x), Re(x^H K x) over every element */
} energy_acc;

/* Re(x^H K x) of element e (tangent, as assembled) split: the material part from em (the
   same element with EVAL_MATERIAL), the geometric part the rest; into term t (or none). */
static void add_strain (energy_acc *acc, const elem *e, const elem *em,
                        const double complex *x, int t)
{
  if (!e->has_K) return;
  double k = elem_energy (e, e->K, x), m = elem_energy (em, em->K, x);
  acc->ts += k;
  if (t >= 0) { acc->mat[t] += m; acc->geo[t] += k - m; }
}

/* The element blocks of mdl at st with evaluation flags (EVAL_GRAVITY or 0), each once,
   and with kc the joints' reaction stiffness Kc = sum_k gamma_k d(Cq_k^T)/dq (gamma of st):
   the same blocks assemble_system (st NULL, flags 0, kc 0) or assemble_at (st, gravity,
   Kc) add into K and M, so tk and ts are Re(x^H M x) and Re(x^H K x) of those matrices. */
static void element_energies (const model *mdl, const model_state *st, int flags, int kc,
                              const double complex *x, energy_acc *acc)
{
  elem e, em;
  for (int i = 0; i < mdl->nbodies; i++) {
    body_element (mdl, st, i, flags, &e);
    double k = elem_energy (&e, e.M, x);
    acc->tk += k;
    if (acc->pb[i] >= 0) acc->kin[acc->pb[i]] += k;
  }
  for (int ib = 0; ib < mdl->nbeams; ib++)
    for (int q = 0; q < mdl->beams[ib].nelements; q++) {
      double k, m, t;
      beam_energy (mdl, st, ib, q, flags, x, &k, &m, &t);
      acc->tk += k;
      acc->ts += t;
      int p = acc->pm[ib];
      if (p >= 0) { acc->kin[p] += k; acc->mat[p] += m; acc->geo[p] += t - m; }
    }
  for (int f = 0; f < mdl->nforces; f++) {
    force_element_flags (mdl, st, f, 0, &e);
    force_element_flags (mdl, st, f, EVAL_MATERIAL, &em);
    add_strain (acc, &e, &em, x, acc->pf[f]);
  }
  for (int i = 0; i < mdl->nmasses; i++) {   /* kinetic; its weight's load stiffness */
    point_mass_element (mdl, st, i, flags, &e);
    point_mass_element (mdl, st, i, flags | EVAL_MATERIAL, &em);
    double k = elem_energy (&e, e.M, x);
    acc->tk += k;
    if (acc->pp[i] >= 0) acc->kin[acc->pp[i]] += k;
    add_strain (acc, &e, &em, x, acc->pp[i]);
  }
  if (!kc || !st) return;
  memset (&e, 0, sizeof e);
  e.nnode = 2;
  e.has_K = 1;
  for (int jj = 0; jj < mdl->njoints; jj++) {  /* Kc as assemble_joints adds it */
    const model_joint *j = &mdl->joints[jj];
    double c, ca[6], cb[6];
    memset (e.K, 0, sizeof e.K);
    for (int q = 0; q < j->nrows; q++)
      joint_row_eval (mdl, st, j, q, st->gamma[j->first_row + q], &c, ca, cb, e.K);
    e.node[0] = j->a;
    e.node[1] = j->b;
    double k = elem_energy (&e, e.K, x);
    acc->ts += k;
    if (acc->pj[jj] >= 0) acc->geo[acc->pj[jj]] += k;  /* a reaction: no material part */
  }
}

/* share[i] = v[i] / total, or 0 when |total| < 1e-14 max |v|. */
static void shares (const double *v, int n, double total, double vmax, double *share)
{
  for (int i = 0; i < n; i++) vmax = fmax (vmax, fabs (v[i]));
  int zero = !(fabs (total) >= 1e-14 * vmax) || total == 0.0;
  for (int i = 0; i < n; i++) share[i] = zero ? 0.0 : v[i] / total;
}

/* The shares of the terms (parts, joints, loads) at st with flags and kc (as
   element_energies): kinetic kin_p / tk, material mat_p / ts, geometric geo_p / ts. */
static int energy_core (const model *mdl, const model_state *st, int flags, int kc,
                        const model_part *parts, int nparts, const double complex *x,
                        double *kinetic, double *material, double *geometric, mb_err *err)
{
  if (nparts <= 0) return 0;
  energy_acc acc = { 0 };
  double *kin = mb_calloc ((size_t) nparts, sizeof *kin);
  double *mat = mb_calloc ((size_t) nparts, sizeof *mat);
  double *geo = mb_calloc ((size_t) nparts, sizeof *geo);
  int *pb = mb_calloc ((size_t) mdl->nbodies + 1, sizeof *pb);
  int *pm = mb_calloc ((size_t) mdl->nbeams + 1, sizeof *pm);
  int *pf = mb_calloc ((size_t) mdl->nforces + 1, sizeof *pf);
  int *pj = mb_calloc ((size_t) mdl->njoints + 1, sizeof *pj);
  int *pp = mb_calloc ((size_t) mdl->nmasses + 1, sizeof *pp);
  if (!kin || !mat || !geo || !pb || !pm || !pf || !pj || !pp) {
    free (kin); free (mat); free (geo); free (pb); free (pm); free (pf); free (pj); free (pp);
    return mb_fail (err, MB_ENOMEM, "out of memory computing energy shares");
  }
  for (int i = 0; i < mdl->nbodies; i++) pb[i] = -1;
  for (int i = 0; i < mdl->nbeams; i++) pm[i] = -1;
  for (int i = 0; i < mdl->nforces; i++) pf[i] = -1;
  for (int i = 0; i < mdl->njoints; i++) pj[i] = -1;
  for (int i = 0; i < mdl->nmasses; i++) pp[i] = -1;
  for (int i = 0; i < nparts; i++) {
    int k = parts[i].index;
    if (parts[i].kind == PART_BODY && k >= 0 && k < mdl->nbodies) pb[k] = i;
    if (parts[i].kind == PART_BEAM && k >= 0 && k < mdl->nbeams) pm[k] = i;
    if ((parts[i].kind == PART_FORCE || parts[i].kind == PART_LOAD) && k >= 0
        && k < mdl->nforces) pf[k] = i;
    if (parts[i].kind == PART_JOINT && k >= 0 && k < mdl->njoints) pj[k] = i;
    if (parts[i].kind == PART_MASS && k >= 0 && k < mdl->nmasses) pp[k] = i;
  }
  acc.pb = pb, acc.pm = pm, acc.pf = pf, acc.pj = pj, acc.pp = pp;
  acc.kin = kin, acc.mat = mat, acc.geo = geo;
  element_energies (mdl, st, flags, kc, x, &acc);
  shares (kin, nparts, acc.tk, 0.0, kinetic);
  /* the material and geometric shares of a term are zero together (rigid-body modes) */
  double vmax = 0.0;
  for (int i = 0; i < nparts; i++) vmax = fmax (vmax, fmax (fabs (mat[i]), fabs (geo[i])));
  shares (mat, nparts, acc.ts, vmax, material);
  shares (geo, nparts, acc.ts, vmax, geometric);
  free (kin); free (mat); free (geo); free (pb); free (pm); free (pf); free (pj); free (pp);
  return 0;
}

int model_energy_split (const model *mdl, const model_part *parts, int nparts,
                        const double complex *x, double *kinetic, double *material,
                        double *geometric, mb_err *err)
{
  model ref;
  const model_state *st;
  const model *m = model_at_deck (mdl, &ref, &st);
  return energy_core (m, st, st ? EVAL_GRAVITY : 0, st != NULL, parts, nparts, x, kinetic,
                      material, geometric, err);
}

/* Per part and in total, Re(x^H A x) from element blocks recomputed on the fly (each
   element once; a part listed twice gets its energy once, in its last entry); the strain
   share is the material plus the geometric share of model_energy_split. */
int model_energy_shares (const model *mdl, const model_part *parts, int nparts,
                         const double complex *x, double *kinetic, double *strain,
                         mb_err *err)
{
  if (nparts <= 0) return 0;
  double *geo = mb_calloc ((size_t) nparts, sizeof *geo);
  if (!geo) return mb_fail (err, MB_ENOMEM, "out of memory computing energy shares");
  int rc = model_energy_split (mdl, parts, nparts, x, kinetic, strain, geo, err);
  for (int i = 0; i < nparts && rc == 0; i++) strain[i] += geo[i];
  free (geo);
  return rc;
}

/* As model_energy_shares with the element matrices at state st (NULL: the deck), without
   gravity's load stiffness and the joints' reaction stiffness. */
int model_energy_shares_at (const model *mdl, const model_state *st, const model_part *parts,
                            int nparts, const double complex *x, double *kinetic,
                            double *strain, mb_err *err)
{
  if (nparts <= 0) return 0;
  double *geo = mb_calloc ((size_t) nparts, sizeof *geo);
  if (!geo) return mb_fail (err, MB_ENOMEM, "out of memory computing energy shares");
  int rc = energy_core (mdl, st, 0, 0, parts, nparts, x, kinetic, strain, geo, err);
  for (int i = 0; i < nparts && rc == 0; i++) strain[i] += geo[i];
  free (geo);
  return rc;
}
