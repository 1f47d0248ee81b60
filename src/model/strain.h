/* strain.h: a model's strain energy x^T K x of a DOF vector as a sum of element energies
   (beams with each element's rigid motion removed first), for the eigen stages' stable
   Rayleigh quotients and residuals on fine meshes. */
#ifndef MB_STRAIN_H
#define MB_STRAIN_H

#include "model.h"

/* The stiffness of a model at its deck configuration applied to the DOF vector phi
   (6 nnodes doubles, dx dy dz rx ry rz per node; ground dropped), element by element:
   beam element e contributes d_e^T K_e d_e with d_e = phi_e minus the rigid motion of its
   first node (translation u_a, rotation th_a: d_a = 0, d_b = (u_b - u_a - th_a x (x_b -
   x_a), th_b - th_a)), which K_e annihilates exactly in exact arithmetic, so that no sum
   cancels terms of size ||K_e|| |phi|^2 down to a strain energy (h/L)^4 smaller; springs,
   rotational springs and bushings contribute phi_e^T K_e phi_e. Bodies have no stiffness.
   Writes (when not NULL) kphi = sum_e K_e d_e (K phi without the rounding of the assembled
   product), kabs = sum_e |K_e| |d_e| (entrywise: the size of the terms kphi sums), kabs + 6
   nnodes = sum_e |K_e| |phi_e| (the size at which rounding of phi moves them) and
   eabs[0] = sum_e |phi_e|^T |K_e| |phi_e| (the energy at which rounding of phi works: a
   product with the assembled K is uncertain by eps eabs[0]), eabs[1] = 8 sqrt (sum_e
   (|phi_e|^T |K_e d_e|)^2) + sum_e |d_e|^T |K_e| |d_e| (the energy's own rounding, eps
   eabs[1]: each d_e is uncertain by about eps |phi_e|, which moves the sum by 2 eps
   |phi_e|^T |K_e d_e|, the elements' errors independent and counted 4 times over, and the
   sums d_e^T K_e d_e round by eps |d_e|^T |K_e| |d_e|).
   kphi: 6 nnodes doubles, kabs: 12 nnodes doubles, overwritten. Returns phi^T K phi. The caller owns all
   arrays; mdl is borrowed. */
double model_strain_energy (const model *mdl, const double *phi, double *kphi, double *kabs,
                            double eabs[2]);

/* G = X^T K X (nv x nv, column-major, leading dimension nv) for the nv DOF vectors of X
   (column j at X + j ldx, 6 nnodes doubles each), element by element with the same rigid
   motion removed from each column as model_strain_energy (so G_jj is its energy of column
   j). G is overwritten. Returns 0, or MB_ENOMEM when the element work (12 nv doubles)
   cannot be had. The caller owns X and G. */
int model_strain_gram (const model *mdl, int nv, const double *X, int ldx, double *G);

#endif
