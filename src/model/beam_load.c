/* beam_load.c: line loads on beam elements (beams.*.line_load), global or follower, as
   consistent nodal forces and moments with their load stiffness. */
#include "elements.h"

/* Line load q per deck length on element (na, nb), c = L0^2 / 12, t_a, t_b the element's
   deck axis e1 turned by each node (the cubic centre line's end tangents, as gravity):
   global q (a conservative load, potential -q . integral of x(s) ds):
     f_a = (q L0 / 2, c t_a x q), f_b = (q L0 / 2, -c t_b x q),
     K(a_r, a_r) = -c skew(q) skew(t_a), K(b_r, b_r) = c skew(q) skew(t_b);
   follower (q turns with each node: q_a = dR_a q, and the moment with it, c dR_a (e1 x q)):
     f_a = (q_a L0 / 2, c dR_a (e1 x q)), f_b = (q_b L0 / 2, -c dR_b (e1 x q)); a
     body-fixed force f and moment t at a node give K(t, r) = skew(f), K(r, r) = skew(t)
     (d f = dtheta x f; K = -d f_ext / dq), not symmetric.
   At the deck: the fixed-end forces q L0 / 2 and moments q L0^2 / 12 of the cubic element. */
void beam_line_load (const model *m, const model_state *s, const model_beam *b, int na,
                     int nb, const double Lam0[9], double L0, int flags, elem *e)
{
  const double *q = b->q;
  if (q[0] == 0.0 && q[1] == 0.0 && q[2] == 0.0) return;
  double c = L0 * L0 / 12.0, S1[9], S2[9], P[9];
  for (int nd = 0; nd < 2; nd++) {
    int node = nd ? nb : na;
    double sg = nd ? -1.0 : 1.0, f[3], t[3];
    if (b->q_body) {
      double dR[9], qe[3];
      node_drot (m, s, node, dR);
      vec_cross (Lam0, q, qe);                  /* e1 x q at the deck */
      mat_vec (dR, q, f);
      mat_vec (dR, qe, t);
      for (int i = 0; i < 3; i++) { f[i] *= 0.5 * L0; t[i] *= sg * c; }
      if (!(flags & EVAL_MATERIAL)) {
        mat_skew (f, S1);
        blk_add (e->K, 2 * nd, 2 * nd + 1, 1.0, S1);
        mat_skew (t, S2);
        blk_add (e->K, 2 * nd + 1, 2 * nd + 1, 1.0, S2);
      }
    } else {
      double tn[3];
      node_dir (m, s, node, Lam0, tn);          /* Lam0 row 0 = e1 at the deck */
      vec_cross (tn, q, t);
      for (int i = 0; i < 3; i++) { f[i] = 0.5 * L0 * q[i]; t[i] *= sg * c; }
      if (!(flags & EVAL_MATERIAL)) {
        mat_skew (q, S1);
        mat_skew (tn, S2);
        mat_mul (S1, S2, P);
        blk_add (e->K, 2 * nd + 1, 2 * nd + 1, -sg * c, P);
      }
    }
    for (int i = 0; i < 3; i++) {
      e->f_ext[6 * nd + i] += f[i];
      e->f_ext[6 * nd + 3 + i] += t[i];
    }
  }
}
