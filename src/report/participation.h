/* participation.h: participation factors and effective modal masses of a model's undamped
   modes in the 6 rigid directions (3 translations, 3 rotations about a reference point),
   their cumulative share of the total mass, and how the report stage shows them. */
#ifndef MB_PARTICIPATION_H
#define MB_PARTICIPATION_H

#include <stdio.h>

#include "../error.h"
#include "../eigen/eigen.h"
#include "../linalg/sparse.h"
#include "../model/model.h"

enum { PARTICIPATION_DIRS = 6 };   /* dx, dy, dz, rx, ry, rz */

/* A share of the mass below this, summed over the modes found, is said in the log (the
   code_aster and Nastran habit: 90 %). */
#define PARTICIPATION_LOW 0.9

/* The participation of every mode of one undamped stage (docs/output.md "Participation").
   r_k (k = 0..5): the rigid-body displacement field of the free model, node by node
   (nodes at x_i): translation k: (e_k; 0); rotation k about the point p: (e_k x (x_i - p);
   e_k). For mode i with shape phi_i (the report's vector):
     Gamma_ik = phi_i^T M r_k / phi_i^T M phi_i,
     m_eff,ik = (phi_i^T M r_k)^2 / phi_i^T M phi_i = Gamma_ik^2 phi_i^T M phi_i,
   total_k = r_k^T M r_k (the model's mass [kg] for k < 3, its moment of inertia about the
   axis through p along e_k [kg m^2] for k >= 3). For the constrained model the modes span
   null(Cq) only, so that the sum over all of them is the M-norm of r_k's M-orthogonal
   projection onto null(Cq): the total minus what the supports hold.
   Owned by the caller: participation_clear frees. */
typedef struct participation {
  int nmodes;                 /* the modes of the result it was computed for */
  double point[3];            /* [m] the reference point p of the rotations */
  int point_given;            /* 1: output.reference_point; 0: the centre of mass */
  double com[3];              /* [m] centre of mass (translational first moments / mass) */
  double total[PARTICIPATION_DIRS];  /* r_k^T M r_k: [kg] x 3, [kg m^2] x 3 about p */
  double sum[PARTICIPATION_DIRS];    /* sum of m_eff,ik over the modes computed */
  int *has;                   /* nmodes: 1 when the mode's factors were computed (it has
                                 its vector and phi^T M phi > 0) */
  double *factor;             /* nmodes x 6 (row-major): Gamma_ik; its scale is that of
                                 the mode's vector (mass-normalized: [sqrt(kg)], rotations
                                 [sqrt(kg) m]) */
  double *mass;               /* nmodes x 6: m_eff,ik [kg], [kg m^2] */
  double *cumulative;         /* nmodes x 6: sum over modes 1..i computed of m_eff / total_k;
                                 NaN where total_k <= 0 */
} participation;

/* Computes *p for the undamped result r of model mdl with mass matrix M (n = 6 nnodes,
   both triangles stored, symmetric), rotations about point (NULL: the centre of mass,
   from M's first moments). Modes without a vector get has = 0. *p is overwritten (not
   freed first). Returns 0, MB_ENOMEM, or MB_EIO when the sizes of mdl, M and r differ.
   Rank 0 only (no MPI). */
int participation_compute (const model *mdl, const spm *M, const eigen_result *r,
                           const double *point, participation *p, mb_err *err);

/* Frees the arrays and zeroes *p; p may be NULL. */
void participation_clear (participation *p);

/* The name of direction k (0..5): "dx" "dy" "dz" "rx" "ry" "rz" (the names of the
   DOFs, translations along and rotations about x y z). Static string. */
const char *participation_dir_name (int k);

/* The direction of mode i whose m_eff,ik / total_k is largest (directions with
   total_k > 0), and that share, into *dir and *share. Returns 1, or 0 when the mode has
   none (not computed, or no direction with mass). */
int participation_dominant (const participation *p, int i, int *dir, double *share);

/* Writes the top-level `participation:` block of a YAML report (the reference point,
   totals, sums over the modes and the directions below PARTICIPATION_LOW). Rank 0. */
void participation_put_yaml (FILE *f, const participation *p);

/* Writes mode i's `participation:` block (indent 4) when it was computed. Rank 0. */
void participation_put_mode (FILE *f, const participation *p, int i);

/* The log lines: the reference point and total mass, then, when the modes found hold
   less than PARTICIPATION_LOW of the total in some direction, one line naming those
   directions with their shares. Rank 0. */
void participation_log (FILE *log, const participation *p);

#endif
