/* joint.c: joints resolved from the deck (nodes, frame, the relative DOFs they lock) and
   their rows of the constraint Jacobian Cq. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elements.h"

/* Rows locked by each joint type (deck_model.h): (rotation?, frame axis) pairs. */
typedef struct row_spec { int rot, axis; } row_spec;

static const row_spec rows_weld[] = { {0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1}, {1, 2} };
static const row_spec rows_revolute[] = { {0, 0}, {0, 1}, {0, 2}, {1, 0}, {1, 1} };
static const row_spec rows_spherical[] = { {0, 0}, {0, 1}, {0, 2} };
static const row_spec rows_prismatic[] = { {0, 0}, {0, 1}, {1, 0}, {1, 1}, {1, 2} };
static const row_spec rows_cylindrical[] = { {0, 0}, {0, 1}, {1, 0}, {1, 1} };
static const row_spec rows_universal[] = { {0, 0}, {0, 1}, {0, 2}, {1, 2} };
static const row_spec rows_planar[] = { {0, 2}, {1, 0}, {1, 1} };

/* The deck's word for a joint type. Static string. */
const char *model_joint_type_name (joint_type t)
{
  switch (t) {
  case JOINT_WELD: return "weld";
  case JOINT_REVOLUTE: return "revolute";
  case JOINT_SPHERICAL: return "spherical";
  case JOINT_PRISMATIC: return "prismatic";
  case JOINT_CYLINDRICAL: return "cylindrical";
  case JOINT_UNIVERSAL: return "universal";
  case JOINT_PLANAR: return "planar";
  case JOINT_DISTANCE: return "distance";
  case JOINT_LOCK: return "lock";
  }
  return "joint";
}

/* One row: direction = frame axis `axis` (column of R), or n for a distance row. */
static void set_row (model_joint *j, int k, int rot, int axis)
{
  j->is_rotation[k] = rot;
  j->frame_axis[k] = axis;
  for (int i = 0; i < 3; i++) j->dir[k][i] = j->R[3 * i + axis];
}

/* Rows per type as listed in deck_model.h; lock rows in x y z rx ry rz order; distance
   one translation row along n = unit(pb - pa). */
int joint_rows_fill (model_joint *j, int lock_mask)
{
  const row_spec *spec = NULL;
  int n = 0;
  switch (j->type) {
  case JOINT_WELD: spec = rows_weld; n = 6; break;
  case JOINT_REVOLUTE: spec = rows_revolute; n = 5; break;
  case JOINT_SPHERICAL: spec = rows_spherical; n = 3; break;
  case JOINT_PRISMATIC: spec = rows_prismatic; n = 5; break;
  case JOINT_CYLINDRICAL: spec = rows_cylindrical; n = 4; break;
  case JOINT_UNIVERSAL: spec = rows_universal; n = 4; break;
  case JOINT_PLANAR: spec = rows_planar; n = 3; break;
  case JOINT_LOCK:
    for (int q = 0; q < 6; q++)
      if (lock_mask & (1 << q)) set_row (j, n++, q >= 3, q % 3);
    break;
  case JOINT_DISTANCE: {
    double d[3];
    vec_sub (j->pb, j->pa, d);
    double L = vec_norm (d);
    j->is_rotation[0] = 0;
    j->frame_axis[0] = -1;
    for (int i = 0; i < 3; i++) j->dir[0][i] = L > 0 ? d[i] / L : 0.0;
    n = 1;
    break;
  }
  }
  for (int k = 0; k < n && spec; k++) set_row (j, k, spec[k].rot, spec[k].axis);
  j->nrows = n;
  return n;
}

/* The position of node i (i >= 0). */
static const double *node_x (const model *m, int i)
{
  return m->nodes[i].x;
}

/* Nodes (not both ground, not one node twice), frame origin x (default: node B, or A when
   B is ground), frame R, points (distance: default the nodes' positions, >= 1e-9 m apart;
   other types pa = pb = x) and rows. */
int joint_build (const model *m, const deck_joint *dj, const char *path, model_joint *j,
                 mb_err *err)
{
  char what[320];
  snprintf (what, sizeof what, "joint '%s'", dj->name ? dj->name : "");
  j->name = mb_calloc (strlen (dj->name ? dj->name : "") + 1, 1);
  if (!j->name) return MB_ENOMEM;
  strcpy (j->name, dj->name ? dj->name : "");
  j->type = dj->type;
  j->pos = dj->pos;
  MB_TRY (model_ref_node (m, &dj->node[0], path, what, &j->a, err));
  MB_TRY (model_ref_node (m, &dj->node[1], path, what, &j->b, err));
  if (j->a == MODEL_GROUND && j->b == MODEL_GROUND)
    return mb_fail_at (err, MB_EDECK, path, dj->node[1].pos.line, dj->node[1].pos.col,
                       "%s: both nodes are ground", what);
  if (j->a == j->b)
    return mb_fail_at (err, MB_EDECK, path, dj->node[1].pos.line, dj->node[1].pos.col,
                       "%s: both ends are the same node '%s'", what, m->nodes[j->a].name);
  const double *xdef = node_x (m, j->b != MODEL_GROUND ? j->b : j->a);
  memcpy (j->x, dj->has_at ? dj->at : xdef, sizeof j->x);
  memcpy (j->R, dj->R, sizeof j->R);
  memcpy (j->pa, j->x, sizeof j->pa);
  memcpy (j->pb, j->x, sizeof j->pb);
  if (dj->type == JOINT_DISTANCE) {
    memset (j->R, 0, sizeof j->R);
    j->R[0] = j->R[4] = j->R[8] = 1.0;
    if (dj->has_points) {
      memcpy (j->pa, dj->points, sizeof j->pa);
      memcpy (j->pb, dj->points + 3, sizeof j->pb);
    } else if (j->a == MODEL_GROUND || j->b == MODEL_GROUND) {
      return mb_fail_at (err, MB_EDECK, path, dj->pos.line, dj->pos.col,
                         "%s: a distance joint to ground needs points: [pA, pB]", what);
    } else {
      memcpy (j->pa, node_x (m, j->a), sizeof j->pa);
      memcpy (j->pb, node_x (m, j->b), sizeof j->pb);
    }
    double d[3];
    vec_sub (j->pb, j->pa, d);
    if (!(vec_norm (d) >= 1e-9))
      return mb_fail_at (err, MB_EDECK, path, dj->pos.line, dj->pos.col,
                         "%s: the points of a distance joint must be at least 1e-9 m apart "
                         "(|pB - pA| = %g m)", what, vec_norm (d));
    memcpy (j->x, j->pa, sizeof j->x);
  }
  if (dj->type == JOINT_LOCK && (dj->lock_mask & 63) == 0)
    return mb_fail_at (err, MB_EDECK, path, dj->pos.line, dj->pos.col,
                       "%s: a lock needs at least one DOF in 'dofs'", what);
  joint_rows_fill (j, dj->lock_mask);
  return 0;
}

/* Translation row along d at points pa (on a) and pb (on b):
   d^T (H(pb - x_b) q_b - H(pa - x_a) q_a), H(r) q = dx + dtheta x r, so the
   coefficients on node i are [d, r_i x d] (d . (dtheta x r) = dtheta . (r x d)).
   Rotation row: d^T (theta_b - theta_a). */
void joint_row_coeffs (const model *m, const model_joint *j, int k, double ca[6],
                       double cb[6])
{
  const double *d = j->dir[k];
  memset (ca, 0, 6 * sizeof *ca);
  memset (cb, 0, 6 * sizeof *cb);
  if (j->is_rotation[k]) {
    for (int i = 0; i < 3; i++) { ca[3 + i] = -d[i]; cb[3 + i] = d[i]; }
    return;
  }
  double r[3], c[3];
  if (j->a != MODEL_GROUND) {
    vec_sub (j->pa, m->nodes[j->a].x, r);
    vec_cross (r, d, c);
    for (int i = 0; i < 3; i++) { ca[i] = -d[i]; ca[3 + i] = -c[i]; }
  }
  if (j->b != MODEL_GROUND) {
    vec_sub (j->pb, m->nodes[j->b].x, r);
    vec_cross (r, d, c);
    for (int i = 0; i < 3; i++) { cb[i] = d[i]; cb[3 + i] = c[i]; }
  }
}

/* block (bi, bj) of the 12 x 12 a += s A B (3 x 3 each) */
static void blk_add_prod (double *a, int bi, int bj, double s, const double A[9],
                          const double B[9])
{
  double P[9];
  mat_mul (A, B, P);
  blk_add (a, bi, bj, s, P);
}

/* Column c of the joint frame R (deck), attached to node i at s. */
static void frame_axis (const model *m, const model_state *s, const model_joint *j, int i,
                        int c, double e[3])
{
  double e0[3] = { j->R[c], j->R[3 + c], j->R[6 + c] };
  node_dir (m, s, i, e0, e);
}

/* Translation row along e (attached to a) between pA and pB:
     C = e . (pB - pA),  Cq: a = [-e, e x (pB - x_a)], b = [e, r_b x e],
   and with de = dtha x e, dp = dx + dth x r:
     Kc(at, ar) = g skew(e);  Kc(ar, ar) = g skew(pB - x_a) skew(e);
     Kc(ar, bt) = g skew(e);  Kc(ar, at) = -g skew(e);  Kc(ar, br) = -g skew(e) skew(r_b);
     Kc(bt, ar) = -g skew(e); Kc(br, br) = g skew(e) skew(r_b); Kc(br, ar) = -g skew(r_b) skew(e).
   Distance row, n = (pB - pA) / L, D = (I - n n^T) / L: C = L - L0,
     Cq: a = [-n, -r_a x n], b = [n, r_b x n], dn = D (dxb - skew(r_b) dthb - dxa
     + skew(r_a) dtha), Kc from d(-n), d(-r_a x n), d(n), d(r_b x n). */
static void joint_translation (const model *m, const model_state *s, const model_joint *j,
                               int k, double g, double *c, double ca[6], double cb[6],
                               double *Kc)
{
  int dist = j->frame_axis[k] < 0;
  double ra[3], rb[3], pA[3], pB[3], d[3], e[3];
  node_point (m, s, j->a, dist ? j->pa : j->x, ra, pA);
  node_point (m, s, j->b, dist ? j->pb : j->x, rb, pB);
  vec_sub (pB, pA, d);
  if (dist) {
    double d0[3], L = vec_norm (d);
    vec_sub (j->pb, j->pa, d0);
    *c = L - vec_norm (d0);
    for (int i = 0; i < 3; i++) e[i] = d[i] / L;
  } else {
    frame_axis (m, s, j, j->a, j->frame_axis[k], e);
    *c = vec_dot (e, d);
  }
  int deck = node_at_deck (m, s, j->a) && node_at_deck (m, s, j->b);
  if (deck) joint_row_coeffs (m, j, k, ca, cb);
  else {
    double w[3], t[3];
    memset (ca, 0, 6 * sizeof *ca);
    memset (cb, 0, 6 * sizeof *cb);
    if (j->a != MODEL_GROUND) {
      if (dist) {
        vec_cross (ra, e, t);
        for (int i = 0; i < 3; i++) { ca[i] = -e[i]; ca[3 + i] = -t[i]; }
      } else {
        vec_sub (pB, node_xs (m, s, j->a), w);
        vec_cross (e, w, t);
        for (int i = 0; i < 3; i++) { ca[i] = -e[i]; ca[3 + i] = t[i]; }
      }
    }
    if (j->b != MODEL_GROUND) {
      vec_cross (rb, e, t);
      for (int i = 0; i < 3; i++) { cb[i] = e[i]; cb[3 + i] = t[i]; }
    }
  }
  if (!Kc || g == 0) return;
  double Se[9], Sra[9], Srb[9];
  mat_skew (e, Se);
  mat_skew (ra, Sra);
  mat_skew (rb, Srb);
  if (dist) {
    double L = vec_norm (d), D[9], P[4][9], Sn[9];
    for (int i = 0; i < 3; i++)
      for (int q = 0; q < 3; q++) D[3 * i + q] = ((i == q) - e[i] * e[q]) / L;
    mat_skew (e, Sn);
    for (int i = 0; i < 9; i++) { P[0][i] = -D[i]; P[2][i] = D[i]; }
    mat_mul (D, Sra, P[1]);                  /* dn = sum P[c] dq_c (blocks at ar bt br) */
    mat_mul (D, Srb, P[3]);
    for (int i = 0; i < 9; i++) P[3][i] = -P[3][i];
    for (int cb2 = 0; cb2 < 4; cb2++) {
      blk_add (Kc, 0, cb2, -g, P[cb2]);                 /* d(-n) */
      blk_add_prod (Kc, 1, cb2, -g, Sra, P[cb2]);       /* d(-ra x n): -ra x dn */
      blk_add (Kc, 2, cb2, g, P[cb2]);                  /* d(n) */
      blk_add_prod (Kc, 3, cb2, g, Srb, P[cb2]);        /* rb x dn */
    }
    blk_add_prod (Kc, 1, 1, -g, Sn, Sra);    /* -(dtha x ra) x n */
    blk_add_prod (Kc, 3, 3, g, Sn, Srb);     /* (dthb x rb) x n */
    return;
  }
  double w[3], Sw[9];
  if (j->a != MODEL_GROUND) vec_sub (pB, node_xs (m, s, j->a), w);
  else w[0] = w[1] = w[2] = 0;
  mat_skew (w, Sw);
  int fa = j->a != MODEL_GROUND;             /* e turns with a */
  if (fa) {
    blk_add (Kc, 0, 1, g, Se);
    blk_add_prod (Kc, 1, 1, g, Sw, Se);
    blk_add (Kc, 1, 2, g, Se);
    blk_add (Kc, 1, 0, -g, Se);
    blk_add_prod (Kc, 1, 3, -g, Se, Srb);
    blk_add (Kc, 2, 1, -g, Se);
    blk_add_prod (Kc, 3, 1, -g, Srb, Se);
  }
  blk_add_prod (Kc, 3, 3, g, Se, Srb);
}

/* Rotation row about frame axis k: u = e_(k+2) on a, v = e_(k+1) on b, C = u . v
   (dC = e_k . (dthb - dtha) at the deck pose); Cq: a = [0, u x v], b = [0, v x u];
   Kc(ar, ar) = g skew(v) skew(u), Kc(ar, br) = -g skew(u) skew(v), and the negatives
   on the rows of b. */
static void joint_rotation (const model *m, const model_state *s, const model_joint *j,
                            int k, double g, double *c, double ca[6], double cb[6],
                            double *Kc)
{
  int ax = j->frame_axis[k];
  double u[3], v[3], w[3];
  frame_axis (m, s, j, j->a, (ax + 2) % 3, u);
  frame_axis (m, s, j, j->b, (ax + 1) % 3, v);
  *c = vec_dot (u, v);
  if (node_at_deck (m, s, j->a) && node_at_deck (m, s, j->b)) joint_row_coeffs (m, j, k, ca, cb);
  else {
    vec_cross (u, v, w);
    memset (ca, 0, 6 * sizeof *ca);
    memset (cb, 0, 6 * sizeof *cb);
    for (int i = 0; i < 3; i++) {
      if (j->a != MODEL_GROUND) ca[3 + i] = w[i];
      if (j->b != MODEL_GROUND) cb[3 + i] = -w[i];
    }
  }
  if (!Kc || g == 0) return;
  double Su[9], Sv[9];
  mat_skew (u, Su);
  mat_skew (v, Sv);
  if (j->a != MODEL_GROUND) {
    blk_add_prod (Kc, 1, 1, g, Sv, Su);
    blk_add_prod (Kc, 3, 1, -g, Sv, Su);
  }
  if (j->b != MODEL_GROUND) {
    blk_add_prod (Kc, 1, 3, -g, Su, Sv);
    blk_add_prod (Kc, 3, 3, g, Su, Sv);
  }
}

void joint_row_eval (const model *m, const model_state *s, const model_joint *j, int k,
                     double g, double *c, double ca[6], double cb[6], double *Kc)
{
  if (j->is_rotation[k]) joint_rotation (m, s, j, k, g, c, ca, cb, Kc);
  else joint_translation (m, s, j, k, g, c, ca, cb, Kc);
}

/* The frame on a (fixed when a is ground): origin the frame's point, axes dR R. */
void model_joint_frame_at (const model *mdl, const model_state *s, int jj, double x[3],
                           double R[9])
{
  const model_joint *j = &mdl->joints[jj];
  double r[3], dR[9];
  node_point (mdl, s, j->a, j->x, r, x);
  node_drot (mdl, s, j->a, dR);
  mat_mul (dR, j->R, R);
}

/* "revolute, rx of its frame" for row k of j into buf (for rank messages): the DOF names
   of model_joint_row_name, in the joint frame's axes e1 e2 e3. */
void joint_row_label (const model_joint *j, int k, char *buf, size_t size)
{
  if (j->frame_axis[k] < 0)
    snprintf (buf, size, "%s, translation along pB - pA", model_joint_type_name (j->type));
  else
    snprintf (buf, size, "%s, %s of its frame", model_joint_type_name (j->type),
              model_dof_label (3 * (j->is_rotation[k] != 0) + j->frame_axis[k]));
}

/* What row k of j locks, by the DOF names in the joint's frame axes e1 e2 e3: "dx" "dy" "dz"
   (relative translation along e1..e3), "rx" "ry" "rz" (relative rotation about them), or
   "distance". */
void model_joint_row_name (const model_joint *j, int k, char *buf, size_t size)
{
  if (j->frame_axis[k] < 0) snprintf (buf, size, "distance");
  else snprintf (buf, size, "%s",
                 model_dof_label (3 * (j->is_rotation[k] != 0) + j->frame_axis[k]));
}
