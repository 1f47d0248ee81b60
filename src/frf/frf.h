/* frf.h: frequency response functions by modal superposition with a static correction,
   and the first-order (state-space) model of the same inputs and outputs. */
#ifndef MB_FRF_H
#define MB_FRF_H

#include <complex.h>
#include <mpi.h>
#include <stdio.h>

#include "../deck/deck.h"
#include "../eigen/eigen.h"
#include "../model/model.h"

/* The modal data of the FRF of nout outputs to nin inputs (rank 0), from one eigen stage:
   with modal damping ratios (complex_modes = 0), H(w) = sum_j (c^T phi_j)(phi_j^T b)
   / (w_j^2 - w^2 + 2 i zeta_j w_j w) + Hres; with complex modes (complex_modes = 1),
   H(s = i w) = sum_j v_j u_j / (s - lambda_j) (+ the conjugate term for a pair) + Hres,
   v_j = c^T x_j, u_j = x_j^T b / a_j, a_j = x_j^T (2 lambda_j M + R) x_j. The output is
   H (displacement), s H (velocity) or s^2 H (acceleration). */
typedef struct frf_data {
  int n, nin, nout, nmodes;
  int complex_modes;
  double *b;              /* n x nin input vectors, column-major */
  double *c;              /* n x nout output vectors, column-major */
  int *quantity;          /* nout: frf_quantity */
  /* modal damping */
  double *w2, *zeta;      /* nmodes: omega_j^2 [rad^2/s^2] (0 for a rigid mode), ratio */
  double *phib;           /* nmodes x nin (row j: phi_j^T b_k), column-major nmodes rows */
  double *cphi;           /* nout x nmodes: c_o^T phi_j, column-major nout rows */
  /* complex modes */
  double complex *lambda; /* nmodes [1/s] */
  int *pair;              /* nmodes: 1 a conjugate pair (Im lambda > 0), 0 a real one */
  double complex *u;      /* nmodes x nin: x_j^T b_k / a_j */
  double complex *v;      /* nout x nmodes: c_o^T x_j */
  /* static correction */
  double *hres;           /* nout x nin residual flexibility, NULL when off */
  double shift;           /* [rad^2/s^2] the pencil K - shift M it was solved with */
} frf_data;

/* Frees what frf_data holds and zeroes it; NULL is a no-op. */
void frf_data_clear (frf_data *f);

/* H of output o to input k at s = i w (the output's quantity applied) from f. */
double complex frf_value (const frf_data *f, int o, int k, double w);

/* Every rank (no communication; the same answer on each): the frf section's nodes exist in
   mdl (a model deck) or its DOFs are at most n (mdl NULL), checked before the stages run.
   Returns 0, MB_EDECK at the point's deck position, or MB_ENOMEM. */
int frf_check_points (const deck *d, const model *mdl, int n, mb_err *err);

/* Collective. The FRF section of deck d from the eigen stage result res (rank 0: the
   modes with their vectors; K, M, R, Cq whole on rank 0, NULL elsewhere; mdl the model
   or NULL for a matrix deck): builds frf_data (the static correction solves with
   [K - s M, Cq^T; Cq, 0] on every rank through MUMPS), writes OUTDIR/NAME.frf.yaml and
   NAME.frf.csv and, when d->frf.state_space is set, the state-space export (frf_export).
   Returns 0 or an error (MB_EDECK for a node or dof that does not exist, MB_ESOLVE,
   MB_EIO, MB_ENOMEM), the same on every rank. */
int frf_run (MPI_Comm comm, const deck *d, const model *mdl, const spm *K, const spm *M,
             const spm *R, const spm *Cq, const eigen_result *res, const char *outdir,
             FILE *log, mb_err *err);

/* Rank 0: the state-space model x' = A x + B u, y = C x + D u of f's inputs and outputs,
   modal (from f's modes, d->frf.state_space_full = 0) or full (from K, M, R with seed
   003's reduction of massless DOFs), as A.mtx, B.mtx, C.mtx, D.mtx and index.yaml in
   folder dir (created): see state_space.c. Returns 0, MB_EDECK (what the export cannot
   represent), MB_ESOLVE, MB_EIO or MB_ENOMEM. */
int frf_export (const frf_data *f, const deck *d, const spm *K, const spm *M, const spm *R,
                const spm *Cq, const char *dir, FILE *log, mb_err *err);

#endif
