/* state.h: a configuration of a model: node poses (positions and rotation matrices) and
   the Lagrange multipliers of its joints, updated on SO(3) by the exponential map.

   Increments (DESIGN.md "Coordinates"): node i owns dq[6i .. 6i+5] = (dx, dtheta), both in
   global axes; a step is x += dx, R = exp(skew(dtheta)) R. Angles are never added.

   Ownership: a state owns its three arrays; model_state_clear frees them. */
#ifndef MB_STATE_H
#define MB_STATE_H

#include "../error.h"
#include "model.h"

typedef struct model_state {
  int nnodes;        /* nodes of the model */
  int m;             /* constraint rows (mdl->nconstraints) */
  double *x;         /* 3 nnodes: node positions, global [m] */
  double *R;         /* 9 nnodes: node orientations, row-major, local -> global */
  double *gamma;     /* m: Lagrange multipliers, the joint reactions [N, N m]; the static
                        residual is F = f_int - f_ext + Cq^T gamma */
  int nforces;       /* force elements of the model */
  double *angle;     /* nforces: a rotational spring's angle [rad], tracked continuously
                        across steps (model_state_track; 0 at the deck pose), so that a
                        spring wound past pi keeps its torque; unused for other forces */
} model_state;

/* s = the deck configuration of mdl (node x and R as built), gamma = 0. s is overwritten
   (not freed first). Returns 0 or MB_ENOMEM (then s is cleared); caller clears. */
int model_state_init (const model *mdl, model_state *s, mb_err *err);

/* dst = a new copy of src (dst overwritten, not freed first). Returns 0 or MB_ENOMEM (then
   dst is cleared); caller clears dst. */
int model_state_copy (const model_state *src, model_state *dst, mb_err *err);

/* Copies the values of src into dst of the same sizes (no allocation). */
void model_state_assign (model_state *dst, const model_state *src);

/* Frees the arrays and zeroes *s; s may be NULL. */
void model_state_clear (model_state *s);

/* q <- q (+) a dq, dq of 6 nnodes increments: x_i += a dx_i,
   R_i = exp(skew(a dtheta_i)) R_i (Rodrigues' formula), then one Newton step of the polar
   decomposition R (3 I - R^T R) / 2 against drift (nodes with dtheta_i = 0 keep R_i
   bitwise). gamma is not changed. */
void model_state_step (model_state *s, const double *dq, double a);

/* R = exp(skew(w)) (Rodrigues: I + sin t/t S + (1 - cos t)/t^2 S^2, t = |w|, with series
   for small t), row-major. */
void model_rot_exp (const double w[3], double R[9]);

/* w = log(R): the rotation vector of a rotation matrix (|w| <= pi), the inverse of
   model_rot_exp. */
void model_rot_log (const double R[9], double w[3]);

/* After a step of s: each rotational spring's angle (principal value in (-pi, pi] from
   the poses) unwrapped to the branch nearest its previous angle, s->angle[f] (exact while
   a step turns a spring by less than pi). force.c. */
void model_state_track (const model *mdl, model_state *s);

/* 1 when node i of s has exactly (bitwise) the deck pose of mdl: elements there use the
   linear formulas of the deck configuration, so that assemble_system is unchanged. */
int model_state_node_at_deck (const model *mdl, const model_state *s, int i);

/* The model's nodes take the poses of state s (positions and orientations) and body
   inertia follows its body (J = Q J Q^T, Q the rotation from the deck pose), so that the
   reports and mode shapes are drawn about the equilibrium; mdl->eq keeps the deck poses,
   the deck inertia and a copy of s (gamma included), so that energy shares can evaluate
   the elements' tangent at s (energy.c). Placing again keeps the first deck poses.
   Returns 0 or MB_ENOMEM (then mdl is unchanged). */
int model_place (model *mdl, const model_state *s, mb_err *err);

/* Spring force f at state s: translational spring: *extension = L - L0 [m] and
   *force = preload + k (L - L0) [N] (tension positive); rotational spring: the rotation
   about its axis [rad] (continuous: s->angle's branch) and the torque [N m]. Returns 0, or -1 when f is not a spring. */
int model_spring_at (const model *mdl, const model_state *s, int f, double *extension,
                     double *force);

/* Bushing f at state s: what it applies to its first node (fa) and its second node (fb),
   global axes: [force (N); torque about the node (N m)], 6 numbers each (fb is zero when
   the second node is ground). Returns 0, or -1 when f is not a bushing. */
int model_bushing_at (const model *mdl, const model_state *s, int f, double fa[6],
                      double fb[6]);

/* The frame of joint j at state s: origin x (the frame's point on node a, or on ground)
   and axes R (row-major, local -> global), attached to node a (fixed when a is ground).
   Its rows' multipliers gamma[first_row + k] are the reaction components along these
   axes (model_joint_row_name). */
void model_joint_frame_at (const model *mdl, const model_state *s, int j, double x[3],
                           double R[9]);

#endif
