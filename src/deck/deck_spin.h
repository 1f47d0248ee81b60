/* deck_spin.h: the spin key of bodies and beams (deck_spin.c), internal to src/deck. */
#ifndef MB_DECK_SPIN_H
#define MB_DECK_SPIN_H

#include "deck_yaml.h"

/* F_FN: spin: { axis?: vec3 != 0, speed: real [rad/s] | rpm: real [rev/min] } into
   (deck_spin *) f->dst; exactly one of speed and rpm. A non-zero speed sets
   model.has_damping: the gyroscopic matrix enters the damping matrix, and the complex
   stage runs by default. Returns 0, MB_EDECK or MB_ENOMEM. */
int deck_spin_fn (deck_ctx *c, const char *sec, deck_field *f);

/* After a body's walk (f its spin field, label "bodies: NAME"): the axis is required, and
   the inertia must be axisymmetric about it (the linear model in fixed axes of a body
   whose inertia is not is periodic in time, not a constant-coefficient system).
   Returns 0 or MB_EDECK. */
int deck_spin_body_check (deck_ctx *c, const deck_field *f, const char *label,
                          const deck_body *b);

/* After a beam's walk: a spinning beam must be straight (every segment along one line);
   an axis, when given, must be parallel to it; without one the axis runs from the first
   point to the last. Returns 0 or MB_EDECK. */
int deck_spin_beam_check (deck_ctx *c, const deck_field *f, const char *label, deck_beam *b);

#endif
