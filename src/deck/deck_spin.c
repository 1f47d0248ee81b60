/* deck_spin.c: the spin key of bodies and beams: { axis?, speed | rpm }, and the checks
   that need the whole body or beam (axisymmetric inertia, a straight beam). */
#include "deck_spin.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

enum { SPIN_LABEL = 192 };
static const double SPIN_PI = 3.14159265358979323846;
static const double SPIN_TOL = 1e-9;   /* relative: axisymmetry, parallel axes */

/* F_FN: [x, y, z] != 0 into (double *) f->dst as a unit vector. */
static int spin_axis_fn (deck_ctx *c, const char *sec, deck_field *f)
{
  double *a = f->dst;
  MB_TRY (deck_get_numbers (c, sec, f->k, f->v, f->key, 3, a));
  double n = sqrt (a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
  if (!(n > 0) || !isfinite (n))
    return deck_fail_at (c, f->v, "%s: 'axis' must be a finite non-zero vector", sec);
  for (int i = 0; i < 3; i++) a[i] /= n;
  return 0;
}

/* The spin mapping: axis (unit), speed [rad/s] or rpm (speed = rpm * 2 pi / 60). */
int deck_spin_fn (deck_ctx *c, const char *sec, deck_field *f)
{
  deck_spin *sp = f->dst;
  char lab[SPIN_LABEL];
  double rpm = 0;
  snprintf (lab, sizeof lab, "%s: spin", sec ? sec : "");
  if (f->v->type != YAML_MAPPING_NODE)
    return deck_type_error (c, sec, f, f->v, "a mapping such as {axis: [0, 0, 1], rpm: 3000}",
                            NULL);
  deck_field o[] = {
    { .key = "axis", .type = F_FN, .dst = sp->axis, .parse = spin_axis_fn },
    { .key = "speed", .type = F_REAL, .dst = &sp->speed, .lo = -HUGE_VAL, .hi = HUGE_VAL,
      .range = "finite" },
    { .key = "rpm", .type = F_REAL, .dst = &rpm, .lo = -HUGE_VAL, .hi = HUGE_VAL,
      .range = "finite" },
  };
  MB_TRY (deck_walk (c, f->v, lab, o, 3));
  if (o[1].k && o[2].k)
    return deck_fail_at (c, deck_later (o[1].k, o[2].k), "%s: give 'speed' (rad/s) or 'rpm',"
                         " not both", lab);
  if (!o[1].k && !o[2].k)
    return deck_fail_at (c, f->v, "%s: give 'speed' (rad/s) or 'rpm'", lab);
  if (o[2].k) sp->speed = rpm * 2.0 * SPIN_PI / 60.0;
  sp->given = 1;
  sp->has_axis = o[0].k != NULL;
  sp->pos = deck_pos_of (f->v);
  if (sp->speed != 0) c->d->model.has_damping = 1;   /* G enters the damping matrix */
  return 0;
}

/* Body: J_g = R J R^T (global); with Jp = a^T J_g a and Jd = (tr J_g - Jp) / 2 the
   axisymmetric tensor is Jp a a^T + Jd (I - a a^T); every entry of the difference must be
   within SPIN_TOL tr J_g. */
int deck_spin_body_check (deck_ctx *c, const deck_field *f, const char *label,
                          const deck_body *b)
{
  const deck_spin *sp = &b->spin;
  if (!f->k) return 0;
  if (!sp->has_axis)
    return deck_fail_at (c, f->v, "%s: spin needs 'axis' (the spin axis, global axes)", label);
  double T[9], J[9];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      T[3 * i + j] = 0;
      for (int k = 0; k < 3; k++) T[3 * i + j] += b->R[3 * i + k] * b->J[3 * k + j];
    }
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      J[3 * i + j] = 0;
      for (int k = 0; k < 3; k++) J[3 * i + j] += T[3 * i + k] * b->R[3 * j + k];
    }
  const double *a = sp->axis;
  double tr = J[0] + J[4] + J[8], jp = 0, worst = 0;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) jp += a[i] * J[3 * i + j] * a[j];
  double jd = 0.5 * (tr - jp);
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      double ref = jp * a[i] * a[j] + jd * ((i == j) - a[i] * a[j]);
      worst = fmax (worst, fabs (J[3 * i + j] - ref));
    }
  if (worst > SPIN_TOL * tr)
    return deck_fail_at (c, f->v, "%s: spin needs an inertia axisymmetric about the spin axis"
                         " (off by %g kg m^2): the linear model of a body that is not is"
                         " periodic in time", label, worst);
  return 0;
}

/* Beam: d = last point - first point; every segment parallel to d; axis parallel to d. */
int deck_spin_beam_check (deck_ctx *c, const deck_field *f, const char *label, deck_beam *b)
{
  deck_spin *sp = &b->spin;
  if (!f->k) return 0;
  const double *p0 = b->points, *p1 = b->points + 3 * (b->npoints - 1);
  double d[3], n = 0;
  for (int i = 0; i < 3; i++) d[i] = p1[i] - p0[i], n += d[i] * d[i];
  n = sqrt (n);
  for (int s = 0; s < b->npoints - 1 && n > 0; s++) {
    double e[3], m = 0, x[3];
    for (int i = 0; i < 3; i++) e[i] = b->points[3 * s + 3 + i] - b->points[3 * s + i], m += e[i] * e[i];
    m = sqrt (m);
    x[0] = e[1] * d[2] - e[2] * d[1];
    x[1] = e[2] * d[0] - e[0] * d[2];
    x[2] = e[0] * d[1] - e[1] * d[0];
    if (sqrt (x[0] * x[0] + x[1] * x[1] + x[2] * x[2]) > SPIN_TOL * m * n || e[0] * d[0] + e[1] * d[1] + e[2] * d[2] <= 0)
      n = 0;
  }
  if (!(n > 0))
    return deck_fail_at (c, f->v, "%s: a spinning beam must be straight (its points on one"
                         " line, in order)", label);
  for (int i = 0; i < 3; i++) d[i] /= n;
  if (sp->has_axis) {
    double x[3] = { sp->axis[1] * d[2] - sp->axis[2] * d[1], sp->axis[2] * d[0] - sp->axis[0] * d[2],
                    sp->axis[0] * d[1] - sp->axis[1] * d[0] };
    if (sqrt (x[0] * x[0] + x[1] * x[1] + x[2] * x[2]) > SPIN_TOL)
      return deck_fail_at (c, f->v, "%s: the spin axis must be along the beam (a beam spins"
                           " about its own axis)", label);
  }
  else {
    memcpy (sp->axis, d, sizeof d);
    sp->has_axis = 1;
  }
  return 0;
}
