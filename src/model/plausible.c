/* plausible.c: warnings about joint frames far from their nodes and materials implausible
   in SI units (plausible.h). */
#include "plausible.h"

#include <math.h>

#include "elements.h"

/* |a - b| of two points. */
static double dist3 (const double a[3], const double b[3])
{
  double d[3];
  vec_sub (a, b, d);
  return vec_norm (d);
}

/* The largest part of mdl: a beam's length along its nodes, a spring's length between its
   points, a body's extent sqrt(6 trace(J) / m) (a slender rod of length l has
   trace(J) = m l^2 / 6); 0 when there is none. */
static double largest_part (const model *mdl)
{
  double p = 0.0;
  for (int i = 0; i < mdl->nbodies; i++) {
    const model_body *b = &mdl->bodies[i];
    double tr = b->J[0] + b->J[4] + b->J[8];
    if (b->mass > 0 && tr > 0) p = fmax (p, sqrt (6.0 * tr / b->mass));
  }
  for (int i = 0; i < mdl->nbeams; i++) {
    const model_beam *b = &mdl->beams[i];
    double len = 0.0;
    for (int e = 0; e < b->nelements; e++)
      len += dist3 (mdl->nodes[b->first_node + e].x, mdl->nodes[b->first_node + e + 1].x);
    p = fmax (p, len);
  }
  for (int i = 0; i < mdl->nforces; i++)
    if (mdl->forces[i].type == FORCE_SPRING)
      p = fmax (p, dist3 (mdl->forces[i].pa, mdl->forces[i].pb));
  return p;
}

/* The diagonal of the box around mdl's nodes (0 for one node or none). */
static double node_box (const model *mdl)
{
  if (mdl->nnodes == 0) return 0.0;
  double lo[3], hi[3];
  for (int k = 0; k < 3; k++) lo[k] = hi[k] = mdl->nodes[0].x[k];
  for (int i = 1; i < mdl->nnodes; i++)
    for (int k = 0; k < 3; k++) {
      lo[k] = fmin (lo[k], mdl->nodes[i].x[k]);
      hi[k] = fmax (hi[k], mdl->nodes[i].x[k]);
    }
  return dist3 (lo, hi);
}

/* The joint warnings of plausible.h; returns their count. */
static int joint_warnings (const model *mdl, const deck *d, FILE *f)
{
  double part = largest_part (mdl), size = fmax (part, node_box (mdl));
  int n = 0;
  for (int i = 0; i < mdl->njoints && i < d->model.njoints; i++) {
    const model_joint *j = &mdl->joints[i];
    const deck_joint *dj = &d->model.joints[i];
    if (dj->has_at && size > 0) {
      double near = HUGE_VAL;
      int node = -1;
      for (int s = 0; s < 2; s++) {
        int q = s ? j->b : j->a;
        if (q >= 0 && dist3 (dj->at, mdl->nodes[q].x) < near)
          near = dist3 (dj->at, mdl->nodes[q].x), node = q;
      }
      if (node >= 0 && near > PLAUSIBLE_FAR * size) {
        fprintf (f, "warning: %s:%zu:%zu: joint '%s': its frame origin 'at' is %.4g m from "
                 "its nearer node '%s', %.3g times the model's size (%.4g m): the joint "
                 "acts there, through rigid levers that long; check the point and its "
                 "units\n", d->path, dj->pos_at.line, dj->pos_at.col, j->name, near,
                 mdl->nodes[node].name, near / size, size);
        n++;
      }
    }
    if (j->type == JOINT_WELD && j->a >= 0 && j->b >= 0 && part > 0) {
      double gap = dist3 (mdl->nodes[j->a].x, mdl->nodes[j->b].x);
      if (gap > PLAUSIBLE_FAR * part) {
        fprintf (f, "warning: %s:%zu:%zu: joint '%s': a weld between nodes '%s' and '%s' "
                 "%.4g m apart, %.3g times the model's largest part (%.4g m): it makes "
                 "them one rigid body across that gap; check the nodes\n", d->path,
                 dj->node[0].pos.line, dj->node[0].pos.col, j->name,
                 mdl->nodes[j->a].name, mdl->nodes[j->b].name, gap, gap / part, part);
        n++;
      }
    }
  }
  return n;
}

/* The material warnings of plausible.h; returns their count. */
static int material_warnings (const deck *d, FILE *f)
{
  int n = 0;
  for (int i = 0; i < d->model.nmaterials; i++) {
    const deck_material *m = &d->model.materials[i];
    if (m->E < 1e5 || m->E > 1e13) {
      fprintf (f, "warning: %s:%zu:%zu: material '%s': E = %g Pa is implausible in SI "
               "units (solids: 1e5 .. 1e13 Pa; steel 2.1e11 Pa); %s\n", d->path,
               m->pos_E.line, m->pos_E.col, m->name, m->E, m->E < 1e5
               ? "MPa or GPa given as Pa? (210000 MPa = 2.1e11 Pa)"
               : "check its units");
      n++;
    }
    else if (m->rho > 0 && sqrt (m->E / m->rho) < 10.0) {
      fprintf (f, "warning: %s:%zu:%zu: material '%s': E = %g Pa with rho = %g kg/m^3 "
               "gives a wave speed sqrt(E / rho) of %.3g m/s, implausible for a solid "
               "(steel 5200 m/s, soft rubber 30 m/s); E in MPa? (210000 MPa = 2.1e11 Pa)\n",
               d->path, m->pos_E.line, m->pos_E.col, m->name, m->E, m->rho,
               sqrt (m->E / m->rho));
      n++;
    }
    if (m->rho > 1e5) {
      fprintf (f, "warning: %s:%zu:%zu: material '%s': rho = %g kg/m^3 is implausible in "
               "SI units (the densest solids: about 2.3e4 kg/m^3; steel 7850); check its "
               "units\n", d->path, m->pos_rho.line, m->pos_rho.col, m->name, m->rho);
      n++;
    }
  }
  return n;
}

int model_plausibility (const model *mdl, const deck *d, FILE *f)
{
  if (!mdl || !d || !f) return 0;
  return joint_warnings (mdl, d, f) + material_warnings (d, f);
}
