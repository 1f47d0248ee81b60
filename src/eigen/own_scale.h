/* own_scale.h: undamped modes at their own scale on fine meshes: eigenvalues, residuals,
   rigid-body labels and a conditioning estimate from the model's element energies
   (gep_system.energy) instead of products with the assembled K, and the modes refined by
   subspace iteration with residuals from the element forces. */
#ifndef MB_OWN_SCALE_H
#define MB_OWN_SCALE_H

#include <stdio.h>

#include "../error.h"
#include "../linalg/factor.h"
#include "eigen.h"

/* A mode at its own scale (own_eval). */
typedef struct own_mode {
  double lambda;   /* (E + 2 xi~^T s Cq phi) / phi^T M phi */
  double resid;    /* backward error at the mode's scale */
  double rfloor;   /* its rounding floor: 4 eps || sum_e |K_e| |phi_e| || over resid's
                      denominator (the element forces' rounding when phi is rounded) */
  double apriori;  /* eps sum_e |phi_e|^T |K_e| |phi_e| / |phi^T K phi|: the relative rounding
                      of a quotient with the assembled K (conditioning of the matrices) */
  double noise;    /* eps eabs[1] / |phi^T K phi| (model_strain_energy): the relative rounding
                      of lambda itself */
  int floor;       /* strain energy below the rounding of the rigid motions' removal */
  int rigid;       /* rigid-body by the own-scale test (floor, or lambda within the residual) */
} own_mode;

/* Rank 0, sys->energy set. The mode x = [phi; xi~] (N = n + m doubles) of a symmetric
   pencil scaled by s (multipliers xi = s xi~) at its own scale, into *o; r (N doubles, or
   NULL) receives the residual [K phi + Cq^T xi - lambda M phi; s Cq phi] with K phi from
   the element forces. work: 4 n + 2 m doubles. See own_scale.c. */
void own_eval (const gep_system *sys, double s, const double *x, double *r, double *work,
               own_mode *o);

/* Relative error estimate above which a mode is not trusted: the stage fails (exit 4). */
#define OWN_COND_LIMIT 1e-6

/* Collective, after the undamped stage found its modes (out, vectors kept whole on rank 0)
   with the factors f of the scaled pencil A - sigma B (Cq scaled by s). When sys->energy
   and sys->gram are set (rank 0's) and the pencil is symmetric, the modes are refined by
   subspace iteration with residual correction, OWN_STEPS times: X <- X - (A - sigma B)^-1
   R with R = A X - B X Lambda from the element forces (own_eval), then Rayleigh-Ritz with
   X^T K X from the element energies (sys->gram) and X^T M X. Each mode's eigenvalue,
   vector, residual and kind are replaced by the refined ones at their own scale and
   mode.cond is set to the estimated relative error of lambda: the last change of the
   Ritz value times 1 / (1 - rho), rho the ratio of its last two changes (infinite when
   they do not shrink). out->modes are sorted again by frequency, the same on every rank.
   A mode whose estimate exceeds OWN_COND_LIMIT fails the stage: MB_ENOCONV with a message
   naming the estimate, the likely cause (elements far shorter than the model) and the fix,
   out->converged = 0; log (rank 0's, or NULL) gets the estimates. out->resid_floor is the
   largest rounding floor of the residuals (own_mode.rfloor). *inertia_ok (every rank) is 0
   when the assembled matrices' rounding at the modes' scale (apriori |lambda|) exceeds a
   tenth of the lowest elastic eigenvalue: an inertia count of those matrices cannot then
   place the modes (the missed-mode check is skipped), else 1. Returns 0 or an error, the
   same on every rank. */
int modes_own_refine (MPI_Comm comm, const gep_system *sys, factor *f, int symmetric,
                      double s, FILE *log, eigen_result *out, int *inertia_ok, mb_err *err);

#endif
