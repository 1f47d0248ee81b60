/* energy.h: the parts of a model and their energy shares in a mode shape. */
#ifndef MB_ENERGY_H
#define MB_ENERGY_H

#include <complex.h>
#include "../error.h"
#include "model.h"
#include "state.h"

/* A part of the model for energy shares: bodies (kinetic), beams (kinetic and strain),
   springs, rotational springs and bushings (strain). */
typedef enum { PART_BODY, PART_BEAM, PART_FORCE } part_kind;

typedef struct model_part {
  const char *name;   /* borrowed from the model */
  part_kind kind;
  int index;          /* into bodies, beams or forces */
} model_part;

/* The parts of mdl in order: bodies, beams, then springs, rotational springs and bushings
   in their deck order (point forces and torques are not parts).
   Returns the count; *parts is a new array (caller frees), NULL when count is 0 or out of
   memory (then returns MB_ENOMEM). */
int model_parts (const model *mdl, model_part **parts);

/* For a mode shape x (n complex entries, position DOFs), the kinetic share
   Re(x^H M_p x) / Re(x^H M x) and the strain share Re(x^H K_p x) / Re(x^H K x) of each
   part p, using the symmetric part of K. A share is 0 when the total is below
   1e-14 times the largest part's contribution (rigid-body modes: no strain).
   kinetic, strain: arrays of nparts, filled. Returns 0 or MB_ENOMEM. */
int model_energy_shares (const model *mdl, const model_part *parts, int nparts,
                         const double complex *x, double *kinetic, double *strain,
                         mb_err *err);

/* model_energy_shares with the element matrices (tangent stiffness, mass) at state st, for
   modes about a static equilibrium; st NULL: the deck configuration. */
int model_energy_shares_at (const model *mdl, const model_state *st, const model_part *parts,
                            int nparts, const double complex *x, double *kinetic,
                            double *strain, mb_err *err);

#endif
