/* spin.h: spinning bodies and beams (rotors): their gyroscopic matrix G, which enters the
   damped stage's R beside the damping (skew: it does no work), and the whirl direction of
   the complex modes. */
#ifndef MB_SPIN_H
#define MB_SPIN_H

#include <complex.h>
#include "../eigen/eigen.h"
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

/* Rank 0, damped stage of a model deck: r->has_whirl = model_has_spin (m); each mode's
   whirl: +1 forward, -1 backward, 0 not said. With x = u + i v the mode's DOFs on the
   spinning parts and lambda = a + i w (w > 0), the motion Re(x e^(lambda t)) of each
   translation or rotation 3-vector sweeps the mean angular momentum w a.(v x u) about
   the spin axis a; summed with weights (mass, transverse inertia) and the sign of each
   part's speed, divided by the same sum of (|u_p|^2 + |v_p|^2) / 2 (p: normal to a) it is
   q in [-1, 1] (+1: a circular forward orbit). Forward when q > 1e-3, backward when
   q < -1e-3; not said for a mode without its vector, a mode that is not oscillatory, a
   mode whose spinning parts move (to 1e-6 of that sum over all directions) only along
   their axes (axial, torsional), or
   whose eigenvalue another reported mode shares to 1e-6 (a repeated eigenvalue's vectors
   are any mix of a forward and a backward orbit). */
void spin_whirl_modes (const model *m, eigen_result *r);

/* "forward", "backward" or NULL (0). */
const char *spin_whirl_name (int whirl);

#endif
