/* energy.h: the parts of a model and their energy shares in a mode shape. */
#ifndef MB_ENERGY_H
#define MB_ENERGY_H

#include <complex.h>
#include "../error.h"
#include "model.h"
#include "state.h"

/* A part of the model for energy shares: bodies (kinetic), beams (kinetic and strain),
   springs, rotational springs and bushings (strain). Strain energy has two more kinds of
   terms that are not parts (model_strain_terms): joints (PART_JOINT, the stiffness of
   their reactions about an equilibrium) and point forces and torques with a load
   stiffness (PART_LOAD; index into forces). */
typedef enum { PART_BODY, PART_BEAM, PART_FORCE, PART_JOINT, PART_LOAD,
               PART_MASS /* a point mass (masses:): kinetic, and its weight's load
                            stiffness about an equilibrium; index into masses */ } part_kind;

typedef struct model_part {
  const char *name;   /* borrowed from the model */
  part_kind kind;
  int index;          /* into bodies, beams or forces */
} model_part;

/* The parts of mdl in order: bodies, beams, then springs, rotational springs and bushings
   in their deck order (point forces and torques are not parts), then the point masses.
   Returns the count; *parts is a new array (caller frees), NULL when count is 0 or out of
   memory (then returns MB_ENOMEM). */
int model_parts (const model *mdl, model_part **parts);

/* The terms of the strain energy: model_parts' parts in their order, then every joint
   (PART_JOINT), then the point forces and torques that have a stiffness block (PART_LOAD),
   in deck order. Returns the count; *terms is a new array (caller frees), NULL when the
   count is 0 or out of memory (then returns MB_ENOMEM). */
int model_strain_terms (const model *mdl, model_part **terms);

/* For a mode shape x (n complex entries, position DOFs) and each term p of parts (parts,
   joints, loads): the kinetic share Re(x^H M_p x) / Re(x^H M x) and the strain energy
   Re(x^H K_p x) split into material[p] = Re(x^H Km_p x) / Re(x^H K x), Km_p the material
   stiffness (EVAL_MATERIAL: the constitutive matrix on the deformation rate, >= 0), and
   geometric[p] = Re(x^H (K_p - Km_p) x) / Re(x^H K x), the rest of its tangent: the
   stiffness of internal forces and preloads (tension stiffens, compression softens), of
   loads and, for a joint, of its reactions (material 0). K and M are the matrices the eigen
   stages used: those of the deck configuration, or, for a model placed at an equilibrium
   (mdl->eq, model_place), the tangent there with gravity's load stiffness and the joints'
   Kc. Over every term of model_strain_terms, material + geometric sums to 1. A share is 0
   when its total is below 1e-14 times the largest term's contribution (rigid-body modes).
   kinetic, material, geometric: arrays of nparts, filled. Returns 0 or MB_ENOMEM. */
int model_energy_split (const model *mdl, const model_part *parts, int nparts,
                        const double complex *x, double *kinetic, double *material,
                        double *geometric, mb_err *err);

/* For a mode shape x (n complex entries, position DOFs), the kinetic share
   Re(x^H M_p x) / Re(x^H M x) and the strain share Re(x^H K_p x) / Re(x^H K x) of each
   part p, using the symmetric part of K: material + geometric of model_energy_split (about
   mdl's equilibrium when it has one). A share is 0 when the total is below
   1e-14 times the largest part's contribution (rigid-body modes: no strain).
   kinetic, strain: arrays of nparts, filled. Returns 0 or MB_ENOMEM. */
int model_energy_shares (const model *mdl, const model_part *parts, int nparts,
                         const double complex *x, double *kinetic, double *strain,
                         mb_err *err);

/* model_energy_shares with the element matrices (tangent stiffness, mass) at state st of
   mdl (its deck poses the reference), without gravity's load stiffness and the joints'
   reaction stiffness; st NULL: the deck configuration. */
int model_energy_shares_at (const model *mdl, const model_state *st, const model_part *parts,
                            int nparts, const double complex *x, double *kinetic,
                            double *strain, mb_err *err);

#endif
