/* plausible.h: warnings (not errors) about model decks that parse but are unlikely to be
   what was meant: joint frames far from their nodes, materials implausible in SI units. */
#ifndef MB_PLAUSIBLE_H
#define MB_PLAUSIBLE_H

#include <stdio.h>

#include "../deck/deck.h"
#include "model.h"

/* Factor over the model's size beyond which a joint's frame is "far" from its nodes. */
#define PLAUSIBLE_FAR 5.0

/* Writes one line "warning: PATH:LINE:COL: ..." to f per finding in the model mdl built
   from deck d, the position that of the value at fault:
   - a joint whose frame origin `at` lies farther than PLAUSIBLE_FAR times the model's size
     from the nearer of its nodes (size: the larger of the diagonal of the box around its
     nodes and its largest part: a beam's length, a spring's length, a body's extent
     sqrt(6 trace(J) / m), that of a slender rod with its inertia);
   - a weld between two nodes farther apart than PLAUSIBLE_FAR times the largest part (a
     rigid link across the gap);
   - a material with E below 1e5 Pa or above 1e13 Pa (MPa or GPa in an SI deck), or else
     with a wave speed sqrt(E / rho) below 10 m/s (E = 210000 with rho = 7850: MPa; soft
     rubber has 30 m/s), or with rho above 1e5 kg/m^3 (the densest solids: about 2.3e4).
   Nothing is checked against a zero size (a model of point masses without springs or
   beams). Returns the number of warnings. mdl and d are borrowed. */
int model_plausibility (const model *mdl, const deck *d, FILE *f);

#endif
