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

/* "revolute, rotation about e1" for row k of j into buf (for rank messages). */
void joint_row_label (const model_joint *j, int k, char *buf, size_t size)
{
  if (j->frame_axis[k] < 0)
    snprintf (buf, size, "%s, translation along pB - pA", model_joint_type_name (j->type));
  else
    snprintf (buf, size, "%s, %s e%d", model_joint_type_name (j->type),
              j->is_rotation[k] ? "rotation about" : "translation along", j->frame_axis[k] + 1);
}

/* What row k of j locks, in frame axes: "translation e1" .. "rotation e3", or "distance". */
void model_joint_row_name (const model_joint *j, int k, char *buf, size_t size)
{
  if (j->frame_axis[k] < 0) snprintf (buf, size, "distance");
  else snprintf (buf, size, "%s e%d", j->is_rotation[k] ? "rotation" : "translation",
                 j->frame_axis[k] + 1);
}
