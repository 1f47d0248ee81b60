/* point_mass.c: point masses (deck masses:) on nodes, with an offset (rigid arm) and
   their own rotational inertia: resolution from the deck and the element matrices. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elements.h"

/* m->masses[i] from dm->masses[i]: node by name (model_ref_node; ground is refused by
   the parser), name copied. Ownership: the model's (point_mass_clear). */
int point_mass_build (const deck_model *dm, const char *path, model *m, mb_err *err)
{
  if (dm->nmasses == 0) return 0;
  m->masses = mb_calloc ((size_t) dm->nmasses, sizeof *m->masses);
  if (!m->masses || mb_fault ("model")) return MB_ENOMEM;
  for (int i = 0; i < dm->nmasses; i++) {
    const deck_mass *d = &dm->masses[i];
    model_mass *p = &m->masses[i];
    char what[160];
    snprintf (what, sizeof what, "mass '%s'", d->name);
    m->nmasses = i + 1;                     /* so model_clear frees what was copied */
    size_t len = strlen (d->name) + 1;
    if (!(p->name = malloc (len))) return MB_ENOMEM;
    memcpy (p->name, d->name, len);
    MB_TRY (model_ref_node (m, &d->node, path, what, &p->node, err));
    if (p->node < 0)
      return mb_fail_at (err, MB_EDECK, path, d->node.pos.line, d->node.pos.col,
                         "%s: 'node' must be a body or beam node, not ground", what);
    p->mass = d->mass;
    const double *R = m->nodes[p->node].R;   /* node axes: r = R^T offset, J = R^T J R */
    double Rt[9], T[9];
    mat_transpose (R, Rt);
    mat_vec (Rt, d->offset, p->r);
    mat_mul (Rt, d->J, T);
    mat_mul (T, R, p->J);
    p->pos = d->pos;
  }
  return 0;
}

void point_mass_clear (model *m)
{
  for (int i = 0; m->masses && i < m->nmasses; i++) free (m->masses[i].name);
  free (m->masses);
  m->masses = NULL;
  m->nmasses = 0;
}

/* See elements.h: R = the node's orientation at s, r = R r_node, J = R J_node R^T;
   M = [[m I, -m S], [m S, J - m S S]], S = skew(r). Gravity F = m g at the point:
   f_ext = (F, r x F), d(r x F)/dtheta = skew(F) skew(r), so K_rr = -skew(F) skew(r). */
void point_mass_element (const model *m, const model_state *s, int i, int flags, elem *e)
{
  const model_mass *pm = &m->masses[i];
  const double *R = node_Rs (m, s, pm->node);
  double r[3], S[9], SS[9], J[9], Rt[9], T[9];
  memset (e, 0, sizeof *e);
  e->nnode = 1;
  e->node[0] = pm->node;
  e->node[1] = MODEL_GROUND;
  e->has_M = 1;
  mat_vec (R, pm->r, r);
  mat_transpose (R, Rt);
  mat_mul (R, pm->J, T);
  mat_mul (T, Rt, J);
  mat_skew (r, S);
  mat_mul (S, S, SS);
  for (int k = 0; k < 3; k++) e->M[12 * k + k] = pm->mass;
  blk_add (e->M, 0, 1, -pm->mass, S);
  blk_add (e->M, 1, 0, pm->mass, S);
  blk_add (e->M, 1, 1, 1.0, J);
  blk_add (e->M, 1, 1, -pm->mass, SS);
  int lever = (pm->r[0] != 0 || pm->r[1] != 0 || pm->r[2] != 0);
  int weight = (m->gravity[0] != 0 || m->gravity[1] != 0 || m->gravity[2] != 0);
  e->has_K = lever && weight;
  if (!(flags & EVAL_GRAVITY)) return;
  double F[3], rF[3], Sf[9], P[9];
  for (int k = 0; k < 3; k++) F[k] = pm->mass * m->gravity[k];
  vec_cross (r, F, rF);
  for (int k = 0; k < 3; k++) { e->f_ext[k] = F[k]; e->f_ext[3 + k] = rF[k]; }
  if (flags & EVAL_MATERIAL) return;
  mat_skew (F, Sf);
  mat_mul (Sf, S, P);
  blk_add (e->K, 1, 1, -1.0, P);
}
