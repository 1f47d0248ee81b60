/* state.c: model configurations (node poses, multipliers) and rotations on SO(3). */
#include "state.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "vec3.h"

/* Allocates the arrays of s for nnodes nodes, m rows and nforces forces (zeroed). */
static int state_alloc (model_state *s, int nnodes, int m, int nforces)
{
  memset (s, 0, sizeof *s);
  s->nnodes = nnodes;
  s->m = m;
  s->nforces = nforces;
  s->angle = mb_calloc (nforces > 0 ? (size_t) nforces : 1, sizeof *s->angle);
  s->x = mb_calloc (3 * (size_t) nnodes, sizeof *s->x);
  s->R = mb_calloc (9 * (size_t) nnodes, sizeof *s->R);
  s->gamma = mb_calloc (m > 0 ? (size_t) m : 1, sizeof *s->gamma);
  if (!s->x || !s->R || !s->gamma || !s->angle || mb_fault ("model")) {
    model_state_clear (s);
    return MB_ENOMEM;
  }
  return 0;
}

/* Copies node poses of the model; gamma = 0. */
int model_state_init (const model *mdl, model_state *s, mb_err *err)
{
  if (state_alloc (s, mdl->nnodes, mdl->nconstraints, mdl->nforces))
    return mb_fail (err, MB_ENOMEM, "out of memory for the model state");
  for (int i = 0; i < mdl->nnodes; i++) {
    memcpy (s->x + 3 * i, mdl->nodes[i].x, 3 * sizeof *s->x);
    memcpy (s->R + 9 * i, mdl->nodes[i].R, 9 * sizeof *s->R);
  }
  return 0;
}

/* A new state of src's sizes with its values. */
int model_state_copy (const model_state *src, model_state *dst, mb_err *err)
{
  if (state_alloc (dst, src->nnodes, src->m, src->nforces))
    return mb_fail (err, MB_ENOMEM, "out of memory for a copy of the model state");
  model_state_assign (dst, src);
  return 0;
}

/* Values only; sizes must agree. */
void model_state_assign (model_state *dst, const model_state *src)
{
  memcpy (dst->x, src->x, 3 * (size_t) src->nnodes * sizeof *dst->x);
  memcpy (dst->R, src->R, 9 * (size_t) src->nnodes * sizeof *dst->R);
  if (src->m > 0) memcpy (dst->gamma, src->gamma, (size_t) src->m * sizeof *dst->gamma);
  if (src->nforces > 0)
    memcpy (dst->angle, src->angle, (size_t) src->nforces * sizeof *dst->angle);
}

void model_state_clear (model_state *s)
{
  if (!s) return;
  free (s->x);
  free (s->R);
  free (s->gamma);
  free (s->angle);
  memset (s, 0, sizeof *s);
}

/* Rodrigues: exp(S) = I + a S + b S^2, a = sin t / t, b = (1 - cos t) / t^2, with Taylor
   series below t = 1e-4 (errors below 1e-17). */
void model_rot_exp (const double w[3], double R[9])
{
  double t2 = vec_dot (w, w), t = sqrt (t2), a, b, S[9], S2[9];
  if (t < 1e-4) {
    a = 1.0 - t2 / 6.0 + t2 * t2 / 120.0;
    b = 0.5 - t2 / 24.0 + t2 * t2 / 720.0;
  } else {
    a = sin (t) / t;
    b = (1.0 - cos (t)) / t2;
  }
  mat_skew (w, S);
  mat_mul (S, S, S2);
  for (int i = 0; i < 9; i++) R[i] = a * S[i] + b * S2[i];
  R[0] += 1.0; R[4] += 1.0; R[8] += 1.0;
}

/* log(R): angle t from the trace (acos, or atan2 of |axial| and the trace for accuracy
   near 0), axis from the skew part; near t = pi from the symmetric part R + I. */
void model_rot_log (const double R[9], double w[3])
{
  double v[3] = { 0.5 * (R[7] - R[5]), 0.5 * (R[2] - R[6]), 0.5 * (R[3] - R[1]) };
  double s = vec_norm (v), c = 0.5 * (R[0] + R[4] + R[8] - 1.0);
  double t = atan2 (s, c);
  if (c > -0.9) {                         /* t < ~2.69: v = sin t axis */
    double f = s < 1e-8 ? 1.0 + s * s / 6.0 : t / s;
    for (int i = 0; i < 3; i++) w[i] = f * v[i];
    return;
  }
  /* near pi: R + I = 2 a a^T (1 - cos t) + (1 + cos t) I ... use the largest column of
     B = (R + R^T)/2 - cos t I = (1 - cos t) a a^T */
  double B[9];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) B[3 * i + j] = 0.5 * (R[3 * i + j] + R[3 * j + i]) - (i == j) * c;
  int k = 0;
  for (int i = 1; i < 3; i++) if (B[4 * i] > B[4 * k]) k = i;
  double a[3] = { B[3 * k], B[3 * k + 1], B[3 * k + 2] }, na = vec_norm (a);
  for (int i = 0; i < 3; i++) a[i] /= na;
  if (vec_dot (a, v) < 0) for (int i = 0; i < 3; i++) a[i] = -a[i];
  for (int i = 0; i < 3; i++) w[i] = t * a[i];
}

/* R <- nearest orthonormal by one Gram-Schmidt pass on the columns' drift: Newton step
   R <- R (3 I - R^T R) / 2 (quadratic convergence from round-off errors). */
static void reorthonormalize (double R[9])
{
  double Rt[9], P[9], Q[9];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) Rt[3 * i + j] = R[3 * j + i];
  mat_mul (Rt, R, P);
  for (int i = 0; i < 9; i++) P[i] = -0.5 * P[i];
  P[0] += 1.5; P[4] += 1.5; P[8] += 1.5;
  mat_mul (R, P, Q);
  memcpy (R, Q, sizeof Q);
}

/* x += a dx; R = exp(a dtheta) R for nodes with a non-zero rotation increment. */
void model_state_step (model_state *s, const double *dq, double a)
{
  for (int i = 0; i < s->nnodes; i++) {
    const double *d = dq + 6 * (size_t) i;
    for (int k = 0; k < 3; k++) s->x[3 * i + k] += a * d[k];
    double w[3] = { a * d[3], a * d[4], a * d[5] };
    if (w[0] == 0 && w[1] == 0 && w[2] == 0) continue;
    double E[9], Rn[9], *R = s->R + 9 * (size_t) i;
    model_rot_exp (w, E);
    mat_mul (E, R, Rn);
    reorthonormalize (Rn);
    memcpy (R, Rn, sizeof Rn);
  }
}

int model_state_node_at_deck (const model *mdl, const model_state *s, int i)
{
  if (i < 0) return 1;
  return !memcmp (s->x + 3 * i, mdl->nodes[i].x, 3 * sizeof *s->x) &&
         !memcmp (s->R + 9 * i, mdl->nodes[i].R, 9 * sizeof *s->R);
}

/* mdl->eq made (deck poses and inertia copied) or kept, its state replaced by a copy of s;
   then the poses and inertia of s (the rotation Q = R_s R_deck^T turns J). */
int model_place (model *mdl, const model_state *s, mb_err *err)
{
  model_equilibrium *eq = mdl->eq;
  model_state *copy = mb_calloc (1, sizeof *copy);
  if (!copy || model_state_copy (s, copy, err) < 0) {
    free (copy);
    return mb_fail (err, MB_ENOMEM, "out of memory keeping the equilibrium");
  }
  if (!eq) {
    size_t nn = (size_t) (mdl->nnodes > 0 ? mdl->nnodes : 1);
    size_t nb = (size_t) (mdl->nbodies > 0 ? mdl->nbodies : 1);
    eq = mb_calloc (1, sizeof *eq);
    if (eq) eq->nodes = mb_calloc (nn, sizeof *eq->nodes);
    if (eq) eq->bodies = mb_calloc (nb, sizeof *eq->bodies);
    if (!eq || !eq->nodes || !eq->bodies || mb_fault ("model")) {
      if (eq) { free (eq->nodes); free (eq->bodies); }
      free (eq);
      model_state_clear (copy);
      free (copy);
      return mb_fail (err, MB_ENOMEM, "out of memory keeping the deck poses");
    }
    memcpy (eq->nodes, mdl->nodes, (size_t) mdl->nnodes * sizeof *eq->nodes);
    memcpy (eq->bodies, mdl->bodies, (size_t) mdl->nbodies * sizeof *eq->bodies);
    mdl->eq = eq;
  } else {
    model_state_clear (eq->state);
    free (eq->state);
  }
  eq->state = copy;
  for (int i = 0; i < mdl->nnodes; i++) {
    model_node *nd = &mdl->nodes[i];
    const double *R0 = eq->nodes[i].R;
    double Q[9];  /* rotation from the deck pose: Q = R_s R_deck^T */
    for (int a = 0; a < 3; a++)
      for (int b = 0; b < 3; b++) {
        Q[3 * a + b] = 0;
        for (int k = 0; k < 3; k++) Q[3 * a + b] += s->R[9 * i + 3 * a + k] * R0[3 * b + k];
      }
    memcpy (nd->x, s->x + 3 * (size_t) i, sizeof nd->x);
    memcpy (nd->R, s->R + 9 * (size_t) i, sizeof nd->R);
    if (nd->body >= 0) {  /* J <- Q J_deck Q^T */
      const double *J0 = eq->bodies[nd->body].J;
      double *J = mdl->bodies[nd->body].J, T[9];
      for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) {
          T[3 * a + b] = 0;
          for (int k = 0; k < 3; k++) T[3 * a + b] += Q[3 * a + k] * J0[3 * k + b];
        }
      for (int a = 0; a < 3; a++)
        for (int b = 0; b < 3; b++) {
          J[3 * a + b] = 0;
          for (int k = 0; k < 3; k++) J[3 * a + b] += T[3 * a + k] * Q[3 * b + k];
        }
    }
  }
  return 0;
}
