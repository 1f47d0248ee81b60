/* spin.h: spinning bodies and beams (rotors): their gyroscopic matrix G, which enters the
   damped stage's R beside the damping (skew: it does no work), and the whirl direction of
   the complex modes. */
#ifndef MB_SPIN_H
#define MB_SPIN_H

#include <complex.h>
#include "model.h"
#include "state.h"

struct elem;

/* The deck's spin of a body into b->spin, b->spin_axis (0 without spin). */
void spin_body_init (const deck_body *db, model_body *b);

/* The deck's spin of a beam into b->spin (signed along start -> end), with b's section
   properties already set: a spinning beam needs Iy = Iz (to 1e-9; the linear model of a
   shaft whose section is not round is periodic in time). Returns 0 or MB_EDECK at the
   spin key. */
int spin_beam_init (const deck_beam *db, const char *path, model_beam *b, mb_err *err);

/* 1 when some body or beam spins at a non-zero speed. */
int model_has_spin (const model *m);

/* Body i at state s: e->has_G, e->G (12 x 12 layout, 1 node): the gyroscopic matrix of a
   body spinning at Omega about its axis a (axisymmetric inertia, Jp = a^T J a):
   G = -Omega Jp [a]x on the rotation DOFs, from d(Jp Omega a(t))/dt with a(t) = a +
   theta x a: Jd theta'' + Jp Omega theta' x a = torque. Skew-symmetric. a turns with the
   node (at s). e's other fields are left alone. */
void spin_body_gyro (const model *m, const model_state *s, int i, struct elem *e);

/* Element k of beam ib at s: e->has_G, e->G, the consistent gyroscopic matrix of a shaft
   element spinning at Omega about its own axis x:
     G_local = Omega rho Ip integral_0^L (Phi_y^T Phi_z - Phi_z^T Phi_y) dx,
   Ip = Iy + Iz, Phi_y = -w', Phi_z = v' the section rotations from the element's Hermite
   shape functions (3-point Gauss: exact); G = T^T G_local T in the element's current
   axes (the chord), L its deck length. The per-length form of the body's G. */
void spin_beam_gyro (const model *m, const model_state *s, int ib, int k, struct elem *e);

/* The whirl measure q in [-1, 1] of a complex mode x = u + i v (6 nnodes DOFs) of the
   model's spinning parts: the motion Re(x e^(lambda t)) of each translation or rotation
   3-vector sweeps the mean angular momentum w a.(v x u) about the spin axis a; summed with
   weights (mass, transverse inertia) and the sign of each part's speed, divided by the
   same sum of (|u_p|^2 + |v_p|^2) / 2 (p: normal to a) it is q (+1: a circular forward
   orbit). 0 when the spinning parts do not move, or move (to 1e-6 of that sum over all
   directions) only along their axes (axial, torsional). */
double spin_whirl_measure (const model *m, const double complex *x);

/* The whirl of a measure q: +1 forward when q > SPIN_WHIRL_MIN, -1 backward when
   q < -SPIN_WHIRL_MIN, else 0 (not said). */
#define SPIN_WHIRL_MIN 1e-3
int spin_whirl_of (double q);

/* "forward", "backward" or NULL (0). */
const char *spin_whirl_name (int whirl);

#endif
