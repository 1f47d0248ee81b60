/* force.c: force elements: translational and rotational spring-dampers (with preload),
   bushings, point forces and torques (fixed or follower), resolved from the deck, and
   their stiffness (material, geometric and load) and damping matrices.

   Conventions: node i's DOFs are (dx, dtheta) in global axes; a point p on node i moves
   by H(r) q_i = dx + dtheta x r, r = p - x_i; a force f at p gives the generalized force
   Q_i = [f; r x f]. At a state (state.h): f_int = dV/dq of springs and bushings,
   f_ext = the loads' Q, K = d(f_int - f_ext)/dq (tangent, load stiffness included).
   Points and directions are attached to their nodes (node_point, node_dir). */
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

/* 1 when force f has a stiffness block (deck data only, so the pattern is fixed):
   springs and bushings always; point forces when body-fixed or off the node; torques
   when body-fixed. */
int force_has_stiffness (const model *m, const model_force *f)
{
  double r[3];
  switch (f->type) {
  case FORCE_SPRING: case FORCE_ROTATIONAL_SPRING: case FORCE_BUSHING: return 1;
  case FORCE_POINT:
    if (f->body_fixed) return 1;
    vec_sub (f->pa, m->nodes[f->a].x, r);
    return vec_norm (r) > 0;
  case FORCE_TORQUE: return f->body_fixed;
  }
  return 0;
}

/* K_ii(rot, rot) += s skew(f) skew(r) */
static void add_lever_term (double *K, int bi, double s, const double f[3], const double r[3])
{
  double Sf[9], Sr[9], P[9];
  mat_skew (f, Sf);
  mat_skew (r, Sr);
  mat_mul (Sf, Sr, P);
  blk_add (K, 2 * bi + 1, 2 * bi + 1, s, P);
}

/* Translational spring-damper between pA (on a) and pB (on b): d = pB - pA, L = |d|,
   n = d / L, tension F = preload + k (L - L0), force vector T = F n (zero-length spring:
   T = k d). f_int = [-T, -ra x T] on a, [T, rb x T] on b. With G = [-H(ra), H(rb)],
   H(r) = [I, -skew(r)] (dd = G dq): K = G^T Ks G, Ks = k n n^T + (F/L)(I - n n^T)
   (zero-length: k I), plus the lever terms -skew(T) skew(ra) (a) and skew(T) skew(rb)
   (b); C = G^T Cs G, Cs = c n n^T (zero-length: c I). material: K = G^T (k n n^T) G
   (zero-length: k I), without the tension's terms. */
static void spring_element (const model *m, const model_state *s, const model_force *f,
                            int material, elem *e)
{
  double ra[3], rb[3], pA[3], pB[3], d[3], d0[3], G[3 * 12] = { 0 };
  node_point (m, s, f->a, f->pa, ra, pA);
  node_point (m, s, f->b, f->pb, rb, pB);
  vec_sub (pB, pA, d);
  vec_sub (f->pb, f->pa, d0);
  double L = vec_norm (d), n[3] = { 0, 0, 0 }, T[3], Ks[9], Cs[9];
  for (int i = 0; i < 3; i++) {
    T[i] = f->k * d[i];
    for (int j = 0; j < 3; j++) {
      Ks[3 * i + j] = f->k * (i == j);
      Cs[3 * i + j] = f->c * (i == j);
    }
  }
  if (vec_norm (d0) >= ZERO_LENGTH && L >= ZERO_LENGTH) {
    for (int i = 0; i < 3; i++) n[i] = d[i] / L;
    double F = f->preload + f->k * (L - f->free_length);
    for (int i = 0; i < 3; i++) {
      T[i] = F * n[i];
      for (int j = 0; j < 3; j++) {
        Ks[3 * i + j] = f->k * n[i] * n[j] + (material ? 0.0 : F / L * ((i == j) - n[i] * n[j]));
        Cs[3 * i + j] = f->c * n[i] * n[j];
      }
    }
  }
  double Sa[9], Sb[9], t[3];
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
  for (int i = 0; i < 3; i++) { fa[i] = T[i]; fb[i] = -T[i]; }
  if (!material) {
    add_lever_term (e->K, 0, -1.0, fa, ra);
    add_lever_term (e->K, 1, -1.0, fb, rb);
  }
  vec_cross (ra, T, t);
  for (int i = 0; i < 3; i++) {
    e->f_int[i] = -T[i];
    e->f_int[3 + i] = -t[i];
  }
  vec_cross (rb, T, t);
  for (int i = 0; i < 3; i++) {
    e->f_int[6 + i] = T[i];
    e->f_int[9 + i] = t[i];
  }
  e->has_K = 1;
  if (f->c > 0) { congruence (G, 3, Cs, e->C); e->has_C = 1; }
}

/* The rotation phi of b relative to a about the axis (attached to a): u0 a unit normal of
   the axis a0, uA = dRa u0, uB = dRb u0, wA = aA x uA; x = uA . uB, y = wA . uB,
   phi = atan2(y, x) in (-pi, pi], and dphi = ga . (dthb - dtha) with
   ga = -(x (wA x uB) - y (uA x uB)) / (x^2 + y^2) (ga = axis at the deck pose). */
static double rot_angle (const model_force *f, const double dRa[9], const double dRb[9],
                         double ga[3])
{
  double u0[3], t[3], uA[3], uB[3], aA[3], wA[3], c1[3], c2[3];
  beam_default_y (f->axis, t);
  vec_cross (f->axis, t, u0);
  double nu = vec_norm (u0);
  for (int i = 0; i < 3; i++) u0[i] /= nu;
  mat_vec (dRa, u0, uA);
  mat_vec (dRb, u0, uB);
  mat_vec (dRa, f->axis, aA);
  vec_cross (aA, uA, wA);
  double x = vec_dot (uA, uB), y = vec_dot (wA, uB), q = x * x + y * y;
  vec_cross (wA, uB, c1);
  vec_cross (uA, uB, c2);
  for (int i = 0; i < 3; i++) ga[i] = -(x * c1[i] - y * c2[i]) / q;
  return atan2 (y, x);
}

/* phi0 + 2 pi j, the branch nearest ref (j an integer) */
static double unwrap (double phi0, double ref)
{
  const double two_pi = 6.283185307179586477;
  return phi0 + two_pi * nearbyint ((ref - phi0) / two_pi);
}

/* The continuous angle of rotational spring f (index fi) at s: rot_angle's principal
   value on the branch of s->angle[fi] (model_state_track), and its gradient ga. */
static double spring_angle (const model *m, const model_state *s, int fi, double ga[3])
{
  double dRa[9], dRb[9];
  const model_force *f = &m->forces[fi];
  node_drot (m, s, f->a, dRa);
  node_drot (m, s, f->b, dRb);
  double phi0 = rot_angle (f, dRa, dRb, ga);
  return s->angle && fi < s->nforces ? unwrap (phi0, s->angle[fi]) : phi0;
}

void model_state_track (const model *mdl, model_state *s)
{
  for (int fi = 0; fi < mdl->nforces && fi < s->nforces; fi++)
    if (mdl->forces[fi].type == FORCE_ROTATIONAL_SPRING) {
      double ga[3];
      s->angle[fi] = spring_angle (mdl, s, fi, ga);
    }
}

/* Rotational spring-damper: phi the relative rotation about the axis (spring_angle:
   continuous, not wrapped to (-pi, pi]), torque
   tau = k phi - preload (the preload acts on b about +axis as an applied torque),
   f_int = tau dphi/dq, K = k g g^T + tau d(g)/dq (g = dphi/dq; the second part by
   central differences of g, h = 1e-6), C = c g g^T. With s NULL (assemble_system, the
   linearization of decks without statics): g = axis on (thb - tha) and
   K = k g g^T + preload terms K[B,A] += T skew(a), K[A,A] -= T skew(a), as before the
   model had a state. That preload term is not the derivative of any potential (a torque
   about an axis fixed in a, whatever b's rotation); the tangent of tau dphi/dq at the
   deck pose differs from it by the preload times (u w^T) terms (u, w the axis' normals),
   so a state at the deck pose uses the consistent tangent. material: K = k g g^T alone. */
static void rotational_element (const model *m, const model_state *s, const model_force *f,
                                int material, elem *e)
{
  double G[12] = { 0 }, k1 = f->k, c1 = f->c, S[9];
  if (!s) {
    for (int i = 0; i < 3; i++) { G[3 + i] = -f->axis[i]; G[9 + i] = f->axis[i]; }
    congruence (G, 1, &k1, e->K);
    mat_skew (f->axis, S);
    if (!material) {
      blk_add (e->K, 3, 1, f->preload, S);
      blk_add (e->K, 1, 1, -f->preload, S);
    }
    for (int i = 0; i < 12; i++) e->f_int[i] = -f->preload * G[i];
  } else {
    double dR[2][9], ga[3];
    node_drot (m, s, f->a, dR[0]);
    node_drot (m, s, f->b, dR[1]);
    double phi = spring_angle (m, s, (int) (f - m->forces), ga), tau = f->k * phi - f->preload;
    for (int i = 0; i < 3; i++) { G[3 + i] = -ga[i]; G[9 + i] = ga[i]; }
    congruence (G, 1, &k1, e->K);
    for (int i = 0; i < 12; i++) e->f_int[i] = tau * G[i];
    for (int nd = 0; nd < 2 && !material; nd++)
      for (int comp = 0; comp < 3; comp++) {
        double gp[3], gm[3], h = 1e-6, X[9], Rs[9], w[3] = { 0, 0, 0 };
        for (int sg = -1; sg <= 1; sg += 2) {
          double R2[2][9];
          memcpy (R2, dR, sizeof R2);
          w[comp] = sg * h;
          model_rot_exp (w, X);
          mat_mul (X, dR[nd], Rs);
          memcpy (R2[nd], Rs, sizeof Rs);
          rot_angle (f, R2[0], R2[1], sg > 0 ? gp : gm);
        }
        int col = 6 * nd + 3 + comp;
        for (int i = 0; i < 3; i++) {
          double dg = tau * (gp[i] - gm[i]) / (2 * h);
          e->K[12 * (3 + i) + col] -= dg;
          e->K[12 * (9 + i) + col] += dg;
        }
      }
  }
  e->has_K = 1;
  if (f->c > 0) { congruence (G, 1, &c1, e->C); e->has_C = 1; }
}

/* A node's pose for the bushing: deck position x0 (for ground: the bushing origin),
   current x, rotation since the deck dR (identity for ground). */
typedef struct pose { double x0[3], x[3], dR[9]; } pose;

/* Bushing kinematics: frame RA = dRa R (on a), RB = dRb R, levers r = dR (x_f - x0),
   points p = x + r; u = [RA^T (pB - pA); log(RA^T RB)] and its Jacobian
   Bm = [RA^T [-I, skew(ra) + skew(pB - pA), I, -skew(rb)];
         Jl^-1(u_r) RA^T [0, -I, 0, I]]  (columns dxa, dtha, dxb, dthb). */
static void bushing_kin (const model_force *f, const pose P[2], double u[6], double Bm[72])
{
  double RA[9], RB[9], RAt[9], Rr[9], r[2][3], d[3], t[3], r0[3];
  mat_mul (P[0].dR, f->R, RA);
  mat_mul (P[1].dR, f->R, RB);
  mat_transpose (RA, RAt);
  mat_mul (RAt, RB, Rr);
  for (int nd = 0; nd < 2; nd++) {
    vec_sub (f->x, P[nd].x0, r0);
    mat_vec (P[nd].dR, r0, r[nd]);
  }
  for (int i = 0; i < 3; i++) d[i] = (P[1].x[i] + r[1][i]) - (P[0].x[i] + r[0][i]);
  mat_vec (RAt, d, u);
  model_rot_log (Rr, t);
  memcpy (u + 3, t, sizeof t);
  double H[72] = { 0 }, Sa[9], Sb[9], Sd[9], J[9], JR[9];
  mat_skew (r[0], Sa);
  mat_skew (r[1], Sb);
  mat_skew (d, Sd);
  for (int i = 0; i < 3; i++) {
    H[12 * i + i] = -1.0;
    H[12 * i + 6 + i] = 1.0;
    H[12 * (3 + i) + 3 + i] = -1.0;
    H[12 * (3 + i) + 9 + i] = 1.0;
    for (int j = 0; j < 3; j++) {
      H[12 * i + 3 + j] = Sa[3 * i + j] + Sd[3 * i + j];
      H[12 * i + 9 + j] = -Sb[3 * i + j];
    }
  }
  rot_jinv (t, J);
  mat_mul (J, RAt, JR);
  for (int blkr = 0; blkr < 2; blkr++) {
    const double *Pm = blkr ? JR : RAt;
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 12; j++) {
        double sum = 0;
        for (int q = 0; q < 3; q++) sum += Pm[3 * i + q] * H[12 * (3 * blkr + q) + j];
        Bm[12 * (3 * blkr + i) + j] = sum;
      }
  }
}

/* y (12) = Bm^T v (v of 6) */
static void bt6 (const double *Bm, const double v[6], double y[12])
{
  for (int j = 0; j < 12; j++) {
    double t = 0;
    for (int i = 0; i < 6; i++) t += Bm[12 * i + j] * v[i];
    y[j] = t;
  }
}

/* The old linear bushing at the deck pose: T = blockdiag(R^T, R^T) [-H6(x - x_a),
   H6(x - x_b)], H6(r) = [[I, -skew(r)], [0, I]]. */
static void bushing_deck_T (const model *m, const model_force *f, double T[72])
{
  double ra[3], rb[3], H[6 * 12] = { 0 }, pp[3];
  node_point (m, NULL, f->a, f->x, ra, pp);
  node_point (m, NULL, f->b, f->x, rb, pp);
  double Sa[9], Sb[9];
  mat_skew (ra, Sa);
  mat_skew (rb, Sb);
  for (int i = 0; i < 6; i++) { H[12 * i + i] = -1.0; H[12 * i + 6 + i] = 1.0; }
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      H[12 * i + 3 + j] = Sa[3 * i + j];
      H[12 * i + 9 + j] = -Sb[3 * i + j];
    }
  for (int blkr = 0; blkr < 2; blkr++)
    for (int i = 0; i < 3; i++)
      for (int j = 0; j < 12; j++) {
        double sum = 0;
        for (int q = 0; q < 3; q++) sum += f->R[3 * q + i] * H[12 * (3 * blkr + q) + j];
        T[12 * (3 * blkr + i) + j] = sum;
      }
}

/* Bushing: at the deck pose u = T q (bushing_deck_T), K = T^T K6 T, C = T^T C6 T,
   f_int = 0. At a state: u and Bm of bushing_kin, f_int = Bm^T K6 u,
   K = Bm^T K6 Bm + d(Bm^T)/dq (K6 u) (central differences, h = 1e-6 rad and
   1e-6 (1 + |r|) m; left out when material), C = Bm^T C6 Bm. */
static void bushing_element (const model *m, const model_state *s, const model_force *f,
                             int material, elem *e)
{
  e->has_K = 1;
  if (node_at_deck (m, s, f->a) && node_at_deck (m, s, f->b)) {
    double T[72];
    bushing_deck_T (m, f, T);
    congruence (T, 6, f->K6, e->K);
    if (force_has_damping (f)) { congruence (T, 6, f->C6, e->C); e->has_C = 1; }
    return;
  }
  pose P[2];
  for (int nd = 0; nd < 2; nd++) {
    int i = nd ? f->b : f->a;
    if (i < 0) {
      memcpy (P[nd].x0, f->x, sizeof P[nd].x0);
      memcpy (P[nd].x, f->x, sizeof P[nd].x);
    } else {
      memcpy (P[nd].x0, m->nodes[i].x, sizeof P[nd].x0);
      memcpy (P[nd].x, node_xs (m, s, i), sizeof P[nd].x);
    }
    node_drot (m, s, i, P[nd].dR);
  }
  double u[6], Bm[72], v[6];
  bushing_kin (f, P, u, Bm);
  for (int i = 0; i < 6; i++) {
    v[i] = 0;
    for (int j = 0; j < 6; j++) v[i] += f->K6[6 * i + j] * u[j];
  }
  bt6 (Bm, v, e->f_int);
  congruence (Bm, 6, f->K6, e->K);
  double r0[3], scale = 1.0;
  for (int nd = 0; nd < 2; nd++) {
    vec_sub (f->x, P[nd].x0, r0);
    scale = fmax (scale, vec_norm (r0));
  }
  for (int col = 0; col < 12 && !material; col++) {
    int nd = col / 6, comp = col % 6;
    if ((nd ? f->b : f->a) < 0) continue;
    double h = comp < 3 ? 1e-6 * scale : 1e-6, yp[12], ym[12];
    for (int sg = -1; sg <= 1; sg += 2) {
      pose Q[2];
      memcpy (Q, P, sizeof Q);
      if (comp < 3) Q[nd].x[comp] += sg * h;
      else {
        double w[3] = { 0, 0, 0 }, X[9];
        w[comp - 3] = sg * h;
        model_rot_exp (w, X);
        mat_mul (X, P[nd].dR, Q[nd].dR);
      }
      double uq[6], Bq[72];
      bushing_kin (f, Q, uq, Bq);
      bt6 (Bq, v, sg > 0 ? yp : ym);
    }
    for (int i = 0; i < 12; i++) e->K[12 * i + col] += (yp[i] - ym[i]) / (2 * h);
  }
  if (force_has_damping (f)) { congruence (Bm, 6, f->C6, e->C); e->has_C = 1; }
}

/* Point force Q = [f; r x f] at r = p - x_i: global f: K_rr = -skew(f) skew(r) (lever
   arm turns); follower f = R_i f0: df = dtheta x f, K = [[0, skew(f)], [0, skew(r x f)]]. */
static void point_force_element (const model *m, const model_state *s, const model_force *f,
                                 elem *e)
{
  double r[3], p[3], fv[3], S[9], rf[3];
  node_point (m, s, f->a, f->pa, r, p);
  e->nnode = 1;
  if (f->body_fixed) {
    mat_vec (node_Rs (m, s, f->a), f->value, fv);
    vec_cross (r, fv, rf);
    mat_skew (fv, S);
    blk_add (e->K, 0, 1, 1.0, S);
    mat_skew (rf, S);
    blk_add (e->K, 1, 1, 1.0, S);
  } else {
    memcpy (fv, f->value, sizeof fv);
    vec_cross (r, fv, rf);
    add_lever_term (e->K, 0, -1.0, fv, r);
  }
  e->has_K = force_has_stiffness (m, f);
  for (int i = 0; i < 3; i++) { e->f_ext[i] = fv[i]; e->f_ext[3 + i] = rf[i]; }
}

/* Point torque: global t: no stiffness; body-fixed t = R_i t0: dt = dtheta x t, so
   K_rr = skew(t). f_ext = [0; t]. */
static void torque_element (const model *m, const model_state *s, const model_force *f,
                            elem *e)
{
  double t[3], S[9];
  e->nnode = 1;
  if (f->body_fixed) {
    mat_vec (node_Rs (m, s, f->a), f->value, t);
    mat_skew (t, S);
    blk_add (e->K, 1, 1, 1.0, S);
    e->has_K = 1;
  } else memcpy (t, f->value, sizeof t);
  for (int i = 0; i < 3; i++) e->f_ext[3 + i] = t[i];
}

/* Dispatches on the force type; node[1] is MODEL_GROUND for one-node loads. */
void force_element (const model *m, const model_state *s, int fi, elem *e)
{
  force_element_flags (m, s, fi, 0, e);
}

/* force_element; EVAL_MATERIAL: the material stiffness alone (a load's K is zero, its
   pattern, has_K, kept). */
void force_element_flags (const model *m, const model_state *s, int fi, int flags, elem *e)
{
  int material = (flags & EVAL_MATERIAL) != 0;
  const model_force *f = &m->forces[fi];
  memset (e, 0, sizeof *e);
  e->nnode = 2;
  e->node[0] = f->a;
  e->node[1] = f->b >= 0 ? f->b : MODEL_GROUND;
  switch (f->type) {
  case FORCE_SPRING: spring_element (m, s, f, material, e); break;
  case FORCE_ROTATIONAL_SPRING: rotational_element (m, s, f, material, e); break;
  case FORCE_BUSHING: bushing_element (m, s, f, material, e); break;
  case FORCE_POINT: point_force_element (m, s, f, e); break;
  case FORCE_TORQUE: torque_element (m, s, f, e); break;
  }
  if (material && (f->type == FORCE_POINT || f->type == FORCE_TORQUE))
    memset (e->K, 0, sizeof e->K);
}

/* Extension and force of spring f at s (model_spring_at in state.h). */
int model_spring_at (const model *mdl, const model_state *s, int fi, double *extension,
                     double *force)
{
  const model_force *f = &mdl->forces[fi];
  *extension = *force = 0.0;
  if (f->type == FORCE_SPRING) {
    double ra[3], rb[3], pA[3], pB[3], d[3];
    node_point (mdl, s, f->a, f->pa, ra, pA);
    node_point (mdl, s, f->b, f->pb, rb, pB);
    vec_sub (pB, pA, d);
    *extension = vec_norm (d) - f->free_length;
    *force = f->preload + f->k * *extension;
    return 0;
  }
  if (f->type == FORCE_ROTATIONAL_SPRING) {
    double ga[3];
    *extension = spring_angle (mdl, s, fi, ga);
    *force = f->k * *extension - f->preload;
    return 0;
  }
  return -1;
}
