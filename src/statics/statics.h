/* statics.h: the static equilibrium stage: FIM (Newton on the force imbalance) and MKEAM
   (kinetic energy attrition) on an abstract problem, and its result. */
#ifndef MB_STATICS_H
#define MB_STATICS_H

#include <mpi.h>
#include <stdio.h>

#include "../error.h"
#include "../linalg/sparse.h"

/* Which static method runs (statics_solve). */
typedef enum {
  STATICS_ALG_FIM,    /* force imbalance method: Newton on F(q, gamma) = 0, C(q) = 0 */
  STATICS_ALG_MKEAM   /* maximum kinetic energy attrition, then a FIM polish */
} statics_alg;

/* The options of the static stage (the caller fills them: run.c from the deck's
   `statics:` section, whose defaults are seed 002's). Borrowed by the solvers. */
typedef struct statics_opts {
  statics_alg method;
  double max_imbalance;   /* > 0: inf-norm of F = f_int - f_ext + Cq^T gamma [N, N m] */
  int imbalance_given;    /* 1: max_imbalance is absolute; 0: relative to the load scale
                             (STATICS_REL_IMBALANCE) with max_imbalance as its floor */
  double max_error;       /* > 0: inf-norm of the Newton update and of C(q) [m, rad] */
  double stability;       /* >= 0: sqrt(stability) M is added to the Newton Jacobian */
  int max_num_iter;       /* >= 1: Newton iterations (fim) or energy peaks (mkeam) */
  double max_ke_tol;      /* > 0: kinetic energy at a peak below which mkeam stops [J] */
  double max_dq_tol;      /* > 0: largest state change over a peak-to-peak iteration */
  double p_f;             /* 0: off; > 0: null pivots become grounded springs p_f |k_max| */
  int allow_unconverged;  /* 1: the caller goes on from an unconverged best state (read by
                             the caller and the report, not by the solvers) */
} statics_opts;

/* The word for a method ("fim", "mkeam"). Static string. */
const char *statics_alg_name (statics_alg a);

/* What a problem gives at its current state q and multipliers gamma (borrowed: valid
   until the next eval or step). n = DOFs (increments, 6 per node), m = constraint rows. */
typedef struct statics_eval {
  const spm *K;        /* n x n tangent dF/dq at (q, gamma): material + geometric + Kc(gamma)
                          + load stiffness; compressed */
  const spm *M;        /* n x n mass at q */
  const spm *Cq;       /* m x n constraint Jacobian at q; NULL when m = 0 */
  const double *r;     /* n: f_int - f_ext at q [N, N m] */
  const double *c;     /* m: C(q) [m, rad] */
  const double *fext;  /* n: f_ext at q (the load scale of the relative tolerance); may be
                          NULL (then the reactions gamma alone give the scale) */
  int nonsymmetric;    /* 1: K is not symmetric (follower loads): LU instead of LDL^T */
  const spm *R;        /* n x n damping at q, or NULL (none; or a problem that does not
                          say): read only by the verdict (statics_verdict) */
} statics_eval;

/* The problem the solvers work on, rank 0 only (the other ranks pass NULL). Its state is
   held by ctx; slots are saved copies of it (at least STATICS_SLOTS). */
enum { STATICS_SLOTS = 4 };
typedef struct statics_problem {
  int n, m;
  void *ctx;
  /* evaluates at the current state with multipliers gamma (m): fills *e. 0 or MB_ENOMEM */
  int (*eval) (void *ctx, const double *gamma, statics_eval *e, mb_err *err);
  /* current state q <- q (+) a dq (exponential map on rotations) */
  void (*step) (void *ctx, const double *dq, double a);
  /* slot (0 .. STATICS_SLOTS-1) <- current state; current <- slot */
  void (*save) (void *ctx, int slot);
  void (*load) (void *ctx, int slot);
  /* names DOF i for messages: "body 'b' dx", "beam 'arm' node 3 rz" */
  void (*dof_name) (void *ctx, int i, char *buf, size_t size);
  const unsigned char *is_rotation;  /* n: 1 for rotation DOFs (step limit), may be NULL */
} statics_problem;

/* The default tolerance on ||F||_inf (no max_imbalance in the deck): STATICS_REL_IMBALANCE
   times the load scale (the largest entry of f_ext or of the joint reactions gamma, forces
   and torques alike [N, N m]), at least the deck default max_imbalance (the absolute
   floor, 1e-4). A tower with 1.7 MN loads stalls in round-off at |F| ~ 5e-4 N. */
#define STATICS_REL_IMBALANCE 1e-9

/* FIM stops early when ||F||_inf + ||C||_inf has not fallen below 0.99 times its best
   value for STATICS_STALL_WINDOW iterations (no equilibrium may exist), or for
   STATICS_ROUNDOFF_WINDOW iterations while the step and C are within max_error (the
   step stagnated at round-off). */
enum { STATICS_STALL_WINDOW = 10, STATICS_ROUNDOFF_WINDOW = 3 };

/* Why a static solve stopped (statics_result.stop). */
typedef enum {
  STATICS_STOP_NONE = 0,     /* not run, or failed with an error (singular, memory) */
  STATICS_STOP_CONVERGED,    /* both tolerances met: an equilibrium */
  STATICS_STOP_MAX_ITER,     /* max_num_iter iterations (FIM) or peaks (MKEAM) */
  STATICS_STOP_STAGNATED,    /* |F| + |C| stopped decreasing: no equilibrium may exist */
  STATICS_STOP_ROUNDOFF,     /* the step is at round-off and |F| above the tolerance */
  STATICS_STOP_DIVERGED,     /* the residual or the kinetic energy is not finite */
  STATICS_STOP_UNSTABLE      /* MKEAM: at rest at an unstable equilibrium */
} statics_stop;

/* Largest rotation increment of one Newton step [rad]: longer steps are scaled down. */
#define STATICS_MAX_ROTATION 0.5

/* One line of the residual history. */
typedef struct statics_iter {
  double imbalance;   /* ||F||_inf at the start of the iteration [N, N m] */
  double constraint;  /* ||C||_inf [m, rad] */
  double change;      /* ||a dq||_inf of the step taken (0 before the first) [m, rad] */
  double step;        /* a: line-search / step-limit factor; MKEAM: time step [s] */
  double energy;      /* MKEAM: kinetic energy at the peak [J]; FIM: 0 */
  double time;        /* wall time since the stage started [s] */
  int phase;          /* 0: FIM (Newton), 1: MKEAM peak, 2: FIM polish after MKEAM */
} statics_iter;

typedef struct statics_result {
  int converged;        /* 1: both tolerances met */
  statics_stop stop;    /* why it stopped; not converged: the state is the best found
                           (lowest ||F||_inf + ||C||_inf), not an equilibrium */
  double tolerance;     /* the tolerance on ||F||_inf used at the last iteration [N, N m] */
  double load_scale;    /* the load scale of a relative tolerance [N, N m]; 0: absolute */
  const char *scale_from;  /* "external load" or "reaction" (static string), NULL when the
                              tolerance is the deck's absolute max_imbalance */
  char reason[640];     /* why it stopped, in words */
  int iterations;       /* Newton iterations (FIM) or peaks (MKEAM) + polish iterations */
  int peaks;            /* MKEAM: kinetic energy peaks located */
  int polish;           /* MKEAM: Newton iterations of the polish */
  int nhist;
  statics_iter *hist;   /* nhist lines, rank 0 (NULL elsewhere) */
  double imbalance, constraint, change;  /* at the returned state */
  double *gamma;        /* m multipliers at the returned state, rank 0; caller frees */
  int nsprings;         /* p_f: grounded springs added to the Jacobian (seed 000) */
  int nonsymmetric;     /* 1: K at the returned state is not symmetric (follower loads,
                           body-fixed torques: non-conservative) */
  int unstable;         /* the stability verdict (statics_solve, statics_verdict): modes of
                           the undamped linearization about the returned state, K and M on
                           the constraint manifold, that the modal stage calls unstable
                           (lambda < 0, or complex: flutter); -1 when unknown or when no
                           equilibrium was found (converged = 0) */
  char verdict_note[160]; /* why the verdict is unknown, in words; "" otherwise */
  int verdict_damped;   /* 1: unstable counts the roots s with Re s > 0 of
                           det(s^2 M + s R + K) = 0 on the manifold (non-symmetric K with
                           damping: the damped stage's count); 0: the undamped pencil */
  int analyses;         /* MUMPS analyses of the Newton / midpoint matrices */
  int factorizations;   /* their numerical factorizations (refactorizations included) */
  double time;          /* [s] */
} statics_result;

/* Collective. Newton on F(q, gamma) = f_int - f_ext + Cq^T gamma = 0, C(q) = 0 from the
   problem's current state (gamma from res->gamma when not NULL and not all zero, else the
   least-squares multipliers Cq Cq^T gamma = -Cq (f_int - f_ext) there): each iteration
   factors J = [K + sqrt(stability) M, Cq^T; Cq, 0] with MUMPS on every rank (LDL^T, or LU
   once K came out non-symmetric; refactored on the first analysis), solves
   J [dq; dgamma] = -[F; C], scales the step so that no rotation exceeds
   STATICS_MAX_ROTATION and halves it only while the residual diverges (not finite, or its
   merit grown 1e4 times). Converged when ||F||_inf <= max_imbalance and the last
   ||a dq||_inf and ||C||_inf are <= max_error (at least one solve). With p_f > 0, MUMPS's
   null-pivot detection (threshold 100 DBL_EPSILON (n + m), fixation p_f: grounded springs,
   seed 000); without, a singular J is MB_ESOLVE naming the DOFs of its null pivots and
   suggesting p_f. Not converged after max_iter: MB_ENOCONV with the best state (lowest
   ||F||_inf + ||C||_inf) loaded and res->reason saying which tolerance failed. The stability
   verdict is statics_verdict's (statics_solve calls it). The problem's state is the result; res (caller clears with statics_result_clear) keeps the
   history, phase tags it. log (rank 0, may be NULL) gets one line per iteration. */
int statics_fim (MPI_Comm comm, const statics_problem *p, const statics_opts *par,
                 int max_iter, int phase, FILE *log, statics_result *res, mb_err *err);

/* Collective. MKEAM (seed 002): the undamped model integrated from rest with the
   constrained midpoint scheme of seed 004 (A = M + (h/2)^2 K, reactions from
   [A Cq^T; Cq 0] solved with MUMPS), the kinetic energy watched, each peak located by a
   parabola through the last three energies and reached again from the state two steps
   back, velocities zeroed, restart. Converged when a peak's energy < max_ke_tol and the
   state changed by < max_dq_tol over the iteration; then up to 10 FIM iterations polish
   the state and give gamma. Returns 0, MB_ENOCONV (the problem is left at its last
   state; res->reason says why), MB_ESOLVE, MB_ENOMEM. */
int statics_mkeam (MPI_Comm comm, const statics_problem *p, const statics_opts *par,
                   FILE *log, statics_result *res, mb_err *err);

/* Collective. The method of par on p, then the stability verdict of the state it returns
   (statics_verdict): res->unstable. A method that did not converge leaves res->unstable
   = -1 (no equilibrium, no verdict) and, for MKEAM, res->imbalance and res->constraint of
   the state it left. Returns the method's status, or the verdict's MB_ENOMEM. */
int statics_solve (MPI_Comm comm, const statics_problem *p, const statics_opts *par,
                   FILE *log, statics_result *res, mb_err *err);

/* Largest number of DOFs (n) for which the verdict of a non-symmetric tangent is decided
   (a dense eigenvalue problem of order n - m on rank 0); above it, unknown. */
#define STATICS_VERDICT_DENSE_MAX 1000
/* The same with damping (a dense problem of order 2 (n - m)). */
#define STATICS_VERDICT_DAMPED_MAX 500

/* Collective. The stability verdict at p's current state with multipliers res->gamma,
   for an equilibrium (converged = 1). Else res->unstable = -1 (no verdict) and rank 0
   sets res->imbalance and res->constraint from the state p is left at (and res->change
   from the last history line when that was an MKEAM peak): no placeholder zeros.
   lambda are the eigenvalues of (K, M) on the constraint manifold, classified as the modal
   stage classifies modes: rigid when |lambda| <= tau = 1e-12 max|K| / max|M| (the modal
   stage's rounding floor), else unstable when lambda < 0 or |Im lambda| > 1e-8 |lambda|.
   K and M symmetric (1e-12 max|K|, as the modal stage tests): the count of lambda < -tau
   is the inertia of [K + tau M, Cq^T; Cq, 0] (MUMPS LDL^T, negative pivots minus m;
   Sylvester); a singular matrix leaves it unknown. Non-symmetric K: rank 0 takes Z, an
   orthonormal basis of the null space of Cq (SVD), and the eigenvalues of
   (Z^T K Z, Z^T M Z) (LAPACK dggev), for n <= STATICS_VERDICT_DENSE_MAX; with damping
   (e.R with a non-zero entry), instead the roots s of det(s^2 Mr + s Rr + Kr) = 0 (dggev
   on the companion pencil of order 2 (n - m), for n <= STATICS_VERDICT_DAMPED_MAX),
   classified as the damped stage does: rigid when |s| <= sqrt(tau), else unstable when
   Re s > 1e-10 |s| (res->verdict_damped = 1): damping can hold a circulatory load that
   the undamped pencil calls flutter (or the opposite: Ziegler). No sqrt(stability) M, no
   grounded springs: the verdict is that of the modal stage (the damped stage's for a
   non-symmetric K with damping).
   Returns 0 or MB_ENOMEM on every rank; res->unstable and res->verdict_note on every
   rank. */
int statics_verdict (MPI_Comm comm, const statics_problem *p, int converged,
                     statics_result *res, mb_err *err);

void statics_result_clear (statics_result *res);

/* The word for a stop ("converged", "max_num_iter", "stagnated", "round-off", "diverged",
   "unstable rest", "failed"). Static string. */
const char *statics_stop_name (statics_stop stop);

/* The tolerance rule of res in words, into buf: "max_imbalance, absolute", "1e-09 x the
   load scale 1.14e+08, the largest reaction", or the floor. */
void statics_tolerance_words (const statics_result *res, const statics_opts *par, char *buf,
                              size_t size);

#endif
