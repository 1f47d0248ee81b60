/* force.c: force elements: translational and rotational spring-dampers (with preload),
   bushings, point forces and torques (fixed or follower), resolved from the deck, and
   their stiffness (material, geometric and load) and damping matrices.

   Conventions: node i's DOFs are (dx, dtheta) in global axes; a point p on node i moves
   by H(r) q_i = dx + dtheta x r, r = p - x_i; a force f at p gives the generalized force
   Q_i = [f; r x f]; K = -dQ/dq (about the deck configuration). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elements.h"

#define ZERO_LENGTH 1e-9   /* [m] spring points closer than this: a zero-length spring */

int force_has_damping (const model_force *f)
{
  if (f->type == FORCE_SPRING || f->type == FORCE_ROTATIONAL_SPRING) return f->c > 0;
  if (f->type == FORCE_BUSHING)
    for (int i = 0; i < 36; i++)
      if (f->C6[i] != 0) return 1;
  return 0;
}

/* The position of node i (i >= 0). */
static const double *node_x (const model *m, int i)
{
  return m->nodes[i].x;
}

/* Nodes of a two-node force: both resolved, not both ground, not the same node. */
static int force_nodes2 (const model *m, const deck_force *df, const char *path,
                         const char *what, model_force *f, mb_err *err)
{
  MB_TRY (model_ref_node (m, &df->node[0], path, what, &f->a, err));
  MB_TRY (model_ref_node (m, &df->node[1], path, what, &f->b, err));
  if (f->a == MODEL_GROUND && f->b == MODEL_GROUND)
    return mb_fail_at (err, MB_EDECK, path, df->node[1].pos.line, df->node[1].pos.col,
                       "%s: both nodes are ground", what);
  if (f->a == f->b)
    return mb_fail_at (err, MB_EDECK, path, df->node[1].pos.line, df->node[1].pos.col,
                       "%s: both ends are the same node '%s'", what, m->nodes[f->a].name);
  return 0;
}

/* Spring points (default: the nodes' positions; required at a ground end), free length
   (default: the current distance); a zero-length spring may have neither preload nor a
   positive free length (its direction would be undefined). */
static int spring_points (const model *m, const deck_force *df, const char *path,
                          const char *what, model_force *f, mb_err *err)
{
  if (df->has_points) {
    memcpy (f->pa, df->points, sizeof f->pa);
    memcpy (f->pb, df->points + 3, sizeof f->pb);
  } else if (f->a == MODEL_GROUND || f->b == MODEL_GROUND) {
    return mb_fail_at (err, MB_EDECK, path, df->pos.line, df->pos.col,
                       "%s: a spring to ground needs points: [pA, pB]", what);
  } else {
    memcpy (f->pa, node_x (m, f->a), sizeof f->pa);
    memcpy (f->pb, node_x (m, f->b), sizeof f->pb);
  }
  double d[3];
  vec_sub (f->pb, f->pa, d);
  double L = vec_norm (d);
  f->free_length = df->has_free_length ? df->free_length : L;
  if (L < ZERO_LENGTH && (df->preload != 0 || f->free_length > 0))
    return mb_fail_at (err, MB_EDECK, path, df->pos.line, df->pos.col,
                       "%s: the spring's points coincide (|pB - pA| = %g m), so its %s has "
                       "no direction", what, L, df->preload != 0 ? "preload" : "free length");
  return 0;
}

/* Copies the deck force, resolves its nodes and defaults (points, free length, bushing
   origin, force point); the checks that need the model are here. */
int force_build (const model *m, const deck_force *df, const char *path, model_force *f,
                 mb_err *err)
{
  const char *nm = df->name ? df->name : "";
  char what[320];
  snprintf (what, sizeof what, "force '%s'", nm);
  f->name = mb_calloc (strlen (nm) + 1, 1);
  if (!f->name) return MB_ENOMEM;
  strcpy (f->name, nm);
  f->type = df->type;
  f->pos = df->pos;
  f->b = -2;
  f->k = df->k;
  f->c = df->c;
  f->preload = df->preload;
  memcpy (f->axis, df->axis, sizeof f->axis);
  memcpy (f->R, df->R, sizeof f->R);
  memcpy (f->K6, df->K6, sizeof f->K6);
  memcpy (f->C6, df->C6, sizeof f->C6);
  memcpy (f->value, df->value, sizeof f->value);
  f->body_fixed = df->body_fixed;
  switch (df->type) {
  case FORCE_SPRING:
    MB_TRY (force_nodes2 (m, df, path, what, f, err));
    return spring_points (m, df, path, what, f, err);
  case FORCE_ROTATIONAL_SPRING: {
    MB_TRY (force_nodes2 (m, df, path, what, f, err));
    double n = vec_norm (f->axis);
    if (!(n > 0))
      return mb_fail_at (err, MB_EDECK, path, df->pos.line, df->pos.col,
                         "%s: the axis is zero", what);
    for (int i = 0; i < 3; i++) f->axis[i] /= n;
    return 0;
  }
  case FORCE_BUSHING: {
    MB_TRY (force_nodes2 (m, df, path, what, f, err));
    const double *xd = node_x (m, f->b != MODEL_GROUND ? f->b : f->a);
    memcpy (f->x, df->has_at ? df->at : xd, sizeof f->x);
    return 0;
  }
  case FORCE_POINT:
  case FORCE_TORQUE:
    MB_TRY (model_ref_node (m, &df->node[0], path, what, &f->a, err));
    if (f->a == MODEL_GROUND)
      return mb_fail_at (err, MB_EDECK, path, df->node[0].pos.line, df->node[0].pos.col,
                         "%s: a %s cannot act on ground", what,
                         df->type == FORCE_POINT ? "force" : "torque");
    memcpy (f->pa, df->type == FORCE_POINT && df->has_at ? df->at : node_x (m, f->a),
            sizeof f->pa);
    memcpy (f->x, f->pa, sizeof f->x);
    return 0;
  }
  return mb_fail_at (err, MB_EDECK, path, df->pos.line, df->pos.col, "%s: unknown type", what);
}

/* ---- element matrices ---- */

/* G (rows x 12, row-major, leading dimension 12): a = G^T D G, D rows x rows row-major. */
static void congruence (const double *G, int rows, const double *D, double a[144])
{
  double DG[6 * 12];
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < 12; j++) {
      double s = 0;
      for (int q = 0; q < rows; q++) s += D[rows * i + q] * G[12 * q + j];
      DG[12 * i + j] = s;
    }
  for (int i = 0; i < 12; i++)
    for (int j = 0; j < 12; j++) {
      double s = 0;
      for (int q = 0; q < rows; q++) s += G[12 * q + i] * DG[12 * q + j];
      a[12 * i + j] = s;
    }
}

/* Lever arm r = p - x_i of a point on node i (zero for ground: its block is dropped). */
static void lever (const model *m, int i, const double p[3], double r[3])
{
  if (i == MODEL_GROUND) r[0] = r[1] = r[2] = 0.0;
  else vec_sub (p, m->nodes[i].x, r);
}

/* K_ii(rot, rot) += -skew(f) skew(r): the lever arm r of a force f at a point of node i
   turns with the node: d(r x f) = (dtheta x r) x f = skew(f) skew(r) dtheta. */
static void add_lever_term (double *K, int bi, const double f[3], const double r[3])
{
  double Sf[9], Sr[9], P[9];
  mat_skew (f, Sf);
  mat_skew (r, Sr);
  mat_mul (Sf, Sr, P);
  blk_add (K, 2 * bi + 1, 2 * bi + 1, -1.0, P);
}

/* Translational spring-damper: relative displacement of pb w.r.t. pa is G q with
   G = [-H(ra), H(rb)], H(r) = [I, -skew(r)]. L = |pb - pa|, n = (pb - pa)/L, tension
   F = preload + k (L - L0). K = G^T Ks G, Ks = k n n^T + (F/L)(I - n n^T); C = G^T Cs G,
   Cs = c n n^T; plus the lever terms of fA = F n at ra and fB = -F n at rb. A zero-length
   spring (no preload, L0 = 0) is isotropic: Ks = k I, Cs = c I. */
static void spring_element (const model *m, const model_force *f, elem *e)
{
  double ra[3], rb[3], d[3], G[3 * 12] = { 0 };
  lever (m, f->a, f->pa, ra);
  lever (m, f->b, f->pb, rb);
  vec_sub (f->pb, f->pa, d);
  double L = vec_norm (d), n[3] = { 0, 0, 0 }, F = 0.0, Ks[9], Cs[9];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      Ks[3 * i + j] = f->k * (i == j);
      Cs[3 * i + j] = f->c * (i == j);
    }
  if (L >= ZERO_LENGTH) {
    for (int i = 0; i < 3; i++) n[i] = d[i] / L;
    F = f->preload + f->k * (L - f->free_length);
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 3; j++) {
        Ks[3 * i + j] = f->k * n[i] * n[j] + F / L * ((i == j) - n[i] * n[j]);
        Cs[3 * i + j] = f->c * n[i] * n[j];
      }
  }
  double Sa[9], Sb[9];
  mat_skew (ra, Sa);
  mat_skew (rb, Sb);
  for (int i = 0; i < 3; i++) {
    G[12 * i + i] = -1.0;
    G[12 * i + 6 + i] = 1.0;
    for (int j = 0; j < 3; j++) {
      G[12 * i + 3 + j] = Sa[3 * i + j];     /* -(-skew(ra)) */
      G[12 * i + 9 + j] = -Sb[3 * i + j];
    }
  }
  congruence (G, 3, Ks, e->K);
  double fa[3], fb[3];
  for (int i = 0; i < 3; i++) { fa[i] = F * n[i]; fb[i] = -F * n[i]; }
  add_lever_term (e->K, 0, fa, ra);
  add_lever_term (e->K, 1, fb, rb);
  e->has_K = 1;
  if (f->c > 0) { congruence (G, 3, Cs, e->C); e->has_C = 1; }
}

/* Rotational spring-damper on g^T q = a^T (theta_b - theta_a): K = k g g^T, C = c g g^T;
   the preload torque T (+T a on B, -T a on A) with a turning with A (da = dtheta_a x a)
   adds K[B,A] += T skew(a), K[A,A] -= T skew(a). */
static void rotational_element (const model_force *f, elem *e)
{
  double G[12] = { 0 }, k1 = f->k, c1 = f->c, S[9];
  for (int i = 0; i < 3; i++) { G[3 + i] = -f->axis[i]; G[9 + i] = f->axis[i]; }
  congruence (G, 1, &k1, e->K);
  mat_skew (f->axis, S);
  blk_add (e->K, 3, 1, f->preload, S);
  blk_add (e->K, 1, 1, -f->preload, S);
  e->has_K = 1;
  if (f->c > 0) { congruence (G, 1, &c1, e->C); e->has_C = 1; }
}

/* Bushing: u = T q, T = blockdiag(R^T, R^T) [-H6(x - x_a), H6(x - x_b)],
   H6(r) = [[I, -skew(r)], [0, I]]; K = T^T K6 T, C = T^T C6 T. */
static void bushing_element (const model *m, const model_force *f, elem *e)
{
  double ra[3], rb[3], H[6 * 12] = { 0 }, T[6 * 12];
  lever (m, f->a, f->x, ra);
  lever (m, f->b, f->x, rb);
  double Sa[9], Sb[9];
  mat_skew (ra, Sa);
  mat_skew (rb, Sb);
  for (int i = 0; i < 6; i++) { H[12 * i + i] = -1.0; H[12 * i + 6 + i] = 1.0; }
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      H[12 * i + 3 + j] = Sa[3 * i + j];
      H[12 * i + 9 + j] = -Sb[3 * i + j];
    }
  for (int blkr = 0; blkr < 2; blkr++)             /* T = blockdiag(R^T, R^T) H */
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 12; j++) {
        double s = 0;
        for (int q = 0; q < 3; q++) s += f->R[3 * q + i] * H[12 * (3 * blkr + q) + j];
        T[12 * (3 * blkr + i) + j] = s;
      }
  congruence (T, 6, f->K6, e->K);
  e->has_K = 1;
  if (force_has_damping (f)) { congruence (T, 6, f->C6, e->C); e->has_C = 1; }
}

/* Point force at r = p - x_i: global f: K_rr = -skew(f) skew(r) (lever arm turns);
   follower f = R_i f0: df = dtheta x f, K = [[0, skew(f)], [0, skew(r x f)]]. */
static void point_force_element (const model *m, const model_force *f, elem *e)
{
  double r[3], fv[3], S[9];
  lever (m, f->a, f->pa, r);
  e->nnode = 1;
  if (f->body_fixed) {
    mat_vec (m->nodes[f->a].R, f->value, fv);
    double rf[3];
    vec_cross (r, fv, rf);
    mat_skew (fv, S);
    blk_add (e->K, 0, 1, 1.0, S);
    mat_skew (rf, S);
    blk_add (e->K, 1, 1, 1.0, S);
    e->has_K = 1;
  } else {
    memcpy (fv, f->value, sizeof fv);
    add_lever_term (e->K, 0, fv, r);
    e->has_K = vec_norm (r) > 0;
  }
}

/* Point torque: global t: no stiffness; body-fixed t = R_i t0: dt = dtheta x t, so
   K_rr = skew(t). */
static void torque_element (const model *m, const model_force *f, elem *e)
{
  e->nnode = 1;
  if (!f->body_fixed) return;
  double t[3], S[9];
  mat_vec (m->nodes[f->a].R, f->value, t);
  mat_skew (t, S);
  blk_add (e->K, 1, 1, 1.0, S);
  e->has_K = 1;
}

/* Dispatches on the force type; node[1] is MODEL_GROUND for one-node loads. */
void force_element (const model *m, int fi, elem *e)
{
  const model_force *f = &m->forces[fi];
  memset (e, 0, sizeof *e);
  e->nnode = 2;
  e->node[0] = f->a;
  e->node[1] = f->b >= 0 ? f->b : MODEL_GROUND;
  switch (f->type) {
  case FORCE_SPRING: spring_element (m, f, e); break;
  case FORCE_ROTATIONAL_SPRING: rotational_element (f, e); break;
  case FORCE_BUSHING: bushing_element (m, f, e); break;
  case FORCE_POINT: point_force_element (m, f, e); break;
  case FORCE_TORQUE: torque_element (m, f, e); break;
  }
}
