/* eigen.h: the eigen stages' data: the linearized system they solve and their results
   (physical modes with convergence and factorization data, as the report stage reads
   them). The entry points are in gep.h. */
#ifndef MB_EIGEN_H
#define MB_EIGEN_H

#include <complex.h>
#include <mpi.h>
#include <stdio.h>

#include "../linalg/factor.h"
#include "../linalg/sparse.h"

struct gep_parts;  /* pencil.h: the system by rows */

/* What the undamped stage needs to know of the whole system besides its rows, measured
   over the ranks once (gep_measure_parts) when the system is given by rows only: what rank
   0 would otherwise compute from the whole matrices, with the same values. */
typedef struct gep_measures {
  int symmetric;           /* K and M symmetric (spm_is_symmetric's test, 1e-12) */
  double kmax, mmax, cmax; /* largest |entry| of K, M, Cq (0 when empty) */
  double anorm, bnorm;     /* infinity norms of GEP (18)'s A and B (pencil_norms) */
  long mass_dofs;          /* DOFs with a nonzero in their row of M */
  /* with R (the damped stage; has_r = 0 and the rest 0 without it) */
  int has_r;               /* R given (its parts handed out) */
  int damped_symmetric;    /* K, M and R symmetric */
  double rmax;             /* largest |entry| of R */
  long damped_dofs;        /* DOFs whose row of M is zero and of R is not */
} gep_measures;

/* The linearized system M q'' + R q' + K q + Cq^T gamma = 0, Cq q = 0. Either whole on
   rank 0: all matrices set there (R and Cq may be NULL), on the other ranks only n and m
   matter; or by rows (parts set on every rank, with measures): every rank holds its rows
   of K, M, Cq (and R) in the pencil layout and no rank the matrices (K, M, R, Cq NULL
   everywhere; given on more than one rank only); the stages take it as it is for the
   undamped stage of a symmetric pencil and the damped one at a real shift, and otherwise
   gather it whole (complex modes and complex pencils are finished on rank 0). Borrowed:
   the caller owns the matrices. */
typedef struct gep_system {
  int n, m;                /* DOFs, constraint rows (Cq is m x n) */
  const spm *K, *M, *R, *Cq;
  const struct gep_parts *parts;     /* by rows: this rank's parts, else NULL */
  const gep_measures *measures;      /* by rows: the measures of the whole, else NULL */
  /* Optional (NULL: "row i+1 of K and M"): writes the name of DOF i (0-based, i < n) into
     buf (len bytes), e.g. a model's node and dx..rz, for messages about singular pencils.
     Called on rank 0 only, with label_ctx. */
  void (*label) (const void *ctx, int i, char *buf, size_t len);
  const void *label_ctx;
  /* Optional (NULL: none; a model deck without statics sets it): phi^T K phi of a DOF
     vector phi (n doubles) as a sum of element energies, each element's rigid motion
     removed first, with K phi summed from the element forces into kphi (n doubles), the
     sums of their terms' sizes into kabs and of the terms' rounding into kabs + n (2 n
     doubles), and the rounding scales of a product
     with the assembled K and of the energy itself into eabs[0], eabs[1]
     (model_strain_energy). With it the undamped modes of a symmetric pencil
     take their eigenvalue, residual, kind and conditioning at the mode's own scale
     (modes.c, "own scale"), which the assembled K loses on fine meshes. Called on rank 0
     only, with energy_ctx. */
  double (*energy) (const void *ctx, const double *phi, double *kphi, double *kabs,
                    double eabs[2]);
  /* With energy: G = X^T K X (nv x nv, column-major) of nv DOF vectors (column j at
     X + j ldx) from the same element energies (model_strain_gram), for the refinement of
     the modes (modes_own_refine). Returns 0 or MB_ENOMEM. Rank 0 only, with energy_ctx. */
  int (*gram) (const void *ctx, int nv, const double *X, int ldx, double *G);
  const void *energy_ctx;
  /* 1 (a model deck): without energy, the undamped modes still get their conditioning
     estimate from the assembled K (modes_own_refine) and fail when it is too large */
  int cond_check;
} gep_system;

/* How the eigen stages factor and iterate (a deck's `solver:` section, docs/deck.md). All
   zero: the defaults, which the stages choose per pencil. The same on every rank. */
typedef struct eigen_solver {
  int has_ordering;       /* 1: ordering replaces the stage's own choice */
  int ordering;           /* with has_ordering: MUMPS's ICNTL(7), 0 AMD, 2 AMF, 3 SCOTCH,
                             4 PORD, 5 METIS, 6 QAMD, 7 MUMPS's automatic choice */
  int has_workspace;      /* 1: workspace replaces the initial ICNTL(14) of 30 % */
  int workspace;          /* with has_workspace: ICNTL(14) [%], 0..2^20 */
  double low_rank;        /* > 0: block low-rank factors at this dropping tolerance (MUMPS's
                             BLR, CNTL(7)); 0: exact factors */
  int no_early_exit;      /* 1: the block path expands fully, with no convergence probes
                             inside an expansion (ks_opts.no_early_exit) */
  int no_lag;             /* 1: the block path's second Gram-Schmidt pass is not lagged
                             (ks_opts.no_lag) */
} eigen_solver;

/* Settings of one eigen stage, filled by the caller (the pipeline turns a deck's stage
   section into these). */
typedef struct eigen_opts {
  int modes;              /* physical modes wanted, >= 1 */
  int has_shift;          /* 1: shift is given (overrides the target) */
  double complex shift;   /* modal: sigma [rad^2/s^2] (real part only); complex: sigma [1/s] */
  int has_target;         /* 1: target_hz is given */
  double target_hz;       /* target frequency f_c [Hz], >= 0: modal sigma = (2 pi f_c)^2,
                             complex sigma = 1e-3 + i 2 pi f_c */
  double tolerance;       /* Krylov-Schur: Ritz residual / |mu|, in (0, 1e-2] */
  int max_restarts;       /* >= 1 */
  int subspace;           /* Krylov subspace size; 0 = automatic */
  int keep_vectors;       /* 1: the modes keep their eigenvectors (x, xi) */
  FILE *log;              /* progress lines on rank 0, or NULL (borrowed) */
  FILE *detail;           /* rank 0: the profile, the floor, memory and Krylov-Schur's
                             breakdown (the command line's -v), or NULL (borrowed) */
  eigen_solver solver;    /* factorization and Krylov-Schur choices */
  /* set by the stage's own second run (gep_modal after a missed-mode alarm), 0 from decks */
  int min_nev;            /* Krylov-Schur for at least this many eigenvalues */
  int block;              /* Krylov-Schur's block size; 0 = automatic (a deck's
                             solver.block, else the default of ks_opts.block) */
  int whole;              /* 1: Krylov-Schur's dense path (ks_opts.whole): the modes asked
                             with the check's margin reach the pencil's exact count of finite
                             eigenvalues, `finite` (set by gep_modal, gep_complex); Krylov-
                             Schur is then asked for exactly those: the rest of the whole
                             space are infinite eigenvalues that rounding may leave finite */
  int finite;             /* with whole: that count */
  /* a sweep's cache for this stage's factorization of A - sigma B (the first at each
     shift: factor_cache_create reuses the last step's MUMPS analysis when the pattern is
     the same), owned by the sweep; NULL (decks, single runs): factored anew */
  struct factor_cache *factor_cache;
} eigen_opts;

typedef enum { STAGE_MODAL = 0, STAGE_COMPLEX = 1 } eigen_stage_kind;

typedef enum {
  MODE_RIGID = 0,        /* omega ~ 0 (rigid-body or mechanism mode) */
  MODE_OSCILLATORY = 1,  /* omega > 0, damped stage: complex pair with Re <= 0 */
  MODE_OVERDAMPED = 2,   /* damped stage: real negative eigenvalue */
  MODE_UNSTABLE = 3      /* undamped: lambda < 0 (omega imaginary); damped: Re > 0 */
} mode_kind;

/* One physical mode. A conjugate pair of the damped stage is one mode (Im lambda >= 0). */
typedef struct mode {
  double complex lambda;  /* modal: omega^2 [rad^2/s^2] (real); complex: lambda [1/s] */
  double freq_hz;         /* natural frequency: sqrt(|lambda|)/2pi (modal), |lambda|/2pi */
  double damped_freq_hz;  /* complex stage: Im lambda / 2pi; modal: = freq_hz */
  double zeta;            /* complex stage: -Re lambda / |lambda|; modal: 0 */
  mode_kind kind;
  double residual;        /* ||A x - lambda B x|| / ((||A|| + |lambda| ||B||) ||x||), unscaled;
                             with gep_system.energy the backward error at the mode's own
                             scale (modes.c, "own scale") */
  double cond;            /* undamped: estimated relative error of lambda from the rounding
                             of the matrices (modes.c, "conditioning"); 0 when not estimated */
  double complex *x;      /* eigenvector on the n DOFs (position part), NULL if not kept;
                             modal: real (imag 0), mass-normalized, largest entry positive;
                             complex: largest entry 1 (zero phase) */
  double complex *xi;     /* constraint multipliers, size m (scaled back), NULL if m = 0 */
  int multiplicity;       /* damped stage: the eigenvalues at lambda this mode stands for
                             when more than one (a rigid-body motion undamped in R is a
                             double zero, reported once with 2); 0 or 1: one (a conjugate
                             pair is one mode, as always) */
  int whirl;              /* damped stage of a spinning model (src/model/spin.c): +1 forward,
                             -1 backward whirl, 0 not said */
} mode;

/* Where a stage's time and memory went (issue 10), filled at the stage's end on rank 0.
   The times are rank 0's wall clock and disjoint parts of the stage's time_total: their
   sum, `other` included, is time_total. */
typedef struct eigen_profile {
  int done;                  /* 1: filled (the stage reached its end) */
  double time_pencil;        /* [s] A - sigma B built (= time_assemble) */
  double time_analysis;      /* [s] MUMPS's analysis (ordering, symbolic factorization) */
  double time_factor;        /* [s] the rest of the factorization (numerical, copies) */
  double time_solves;        /* [s] solves with the factors, scatter of the solutions included */
  double time_apply_other;   /* [s] the rest of OP: gathers and B x */
  double time_orth;          /* [s] Gram-Schmidt of the Krylov basis */
  double time_schur;         /* [s] the projected problem: Schur form, Ritz residuals */
  double time_basis;         /* [s] basis rotations at restarts, Ritz vectors gathered */
  double time_krylov_other;  /* [s] the rest of the Krylov phase (set-up, broadcasts) */
  double time_post;          /* [s] Ritz pairs -> modes (true residuals, labels) */
  double time_check;         /* [s] the missed-mode check (0 without one) */
  double time_other;         /* [s] time_total minus the parts above (logging, agreement) */
  long rhs;                  /* right-hand sides solved in the Krylov phase */
  long single_solves;        /* solves of one right-hand side */
  long block_solves;         /* multi-RHS solves (MUMPS NRHS > 1 or a block of one) */
  long block_rhs;            /* right-hand sides in those */
  int block;                 /* Krylov-Schur's block size (1: single vectors) */
  /* the floor (docs/method.md "The floor of a stage") */
  double gemm_rate;          /* [flop/s] measured dgemm rate, the slowest rank's; 0 unknown */
  long floor_solves;         /* min (nconv, nev) + block: the solves a run needs at least */
  double time_per_rhs;       /* [s] measured solve time per right-hand side */
  double orth_flops;         /* real flops of orthogonalizing N x k as BLAS-3 (4 N k^2,
                                complex 16 N k^2), k = floor_solves */
  double time_floor;         /* [s] factorization + floor_solves solves + orth_flops at
                                gemm_rate x ranks; 0 when unknown */
  /* peak resident memory (VmHWM) of every rank at the stage's end */
  int nranks;
  long *memory_bytes;        /* [bytes] size nranks, -1 unknown; NULL when not gathered
                                (owned: freed by eigen_result_clear) */
} eigen_profile;

typedef struct eigen_result {
  eigen_stage_kind stage;
  int n, m;                  /* DOFs, constraint rows */
  double complex shift;      /* sigma used: modal [rad^2/s^2] (real), complex [1/s] */
  int nev, ncv;              /* eigenvalues asked of Krylov-Schur, subspace size */
  double tolerance;
  int max_restarts;
  double cq_scale;           /* Cq was multiplied by this before solving */
  /* convergence */
  int converged;             /* 1: all wanted eigenpairs converged */
  int restarts;              /* restarts done */
  int op_applies;            /* applications of (A - sigma B)^-1 B */
  int nconv;                 /* Ritz pairs converged (before filtering and pairing) */
  int n_infinite;            /* infinite (constraint / massless) eigenvalues filtered */
  double max_residual;       /* max residual over reported modes */
  int refined;               /* modes_own_refine set mode.cond (1 on every rank) */
  int refused_complex;       /* 1 (every rank): the undamped stage refused its pencil, which
                                has complex eigenvalues (flutter; gep_modal's error) */
  double resid_floor;        /* the largest rounding floor of the modes' own-scale residuals
                                (modes_own_refine; 0 when not refined): a residual up to it is
                                all that this mesh's vectors can give */
  /* factorization */
  factor_stats factor;
  /* missed-mode check (modal stage, symmetric only) */
  int sturm_done;            /* 1: the check ran */
  double sturm_lambda;       /* shift of the check: just above the highest reported lambda */
  long sturm_count;          /* eigenvalues below sturm_lambda from the inertia */
  long sturm_found;          /* of those, found by Krylov-Schur (the reported modes and the
                                extra converged ones in the check's interval); >= 1 when the
                                check ran, 0 when not known */
  /* timings [s] */
  double time_assemble, time_factor, time_iterate, time_post, time_total;
  /* modes, ascending natural frequency */
  int nmodes;
  int has_whirl;             /* 1: the modes' whirl was decided (a spinning model, damped
                                stage); the table and report show it */
  mode *modes;               /* size nmodes */
  /* checks of the results (issue 9) */
  int n_above_tol;           /* reported modes whose true residual exceeds
                                EIGEN_RESIDUAL_SAFETY x tolerance: not converged */
  int finite_max;            /* upper bound on the pencil's finite eigenvalues (modal) or
                                modes (complex) from its structure; -1 unknown */
  int modes_asked;           /* modes the deck asked for (before capping at finite_max) */
  int finite_count;          /* when fewer modes than asked came back: the pencil's finite
                                eigenvalues, counted from the ranks of M (and M + R) on
                                null(Cq) and equal to what the modes found stand for (a
                                pair counts 2); 0 when not counted or not confirmed */
  double time_check;         /* [s] the missed-mode check */
  eigen_profile profile;     /* time breakdown, floor and memory (rank 0) */
} eigen_result;

/* A reported mode counts as converged when its true residual (mode.residual, on the
   unscaled pencil) is at most EIGEN_RESIDUAL_SAFETY times the Krylov-Schur tolerance. The
   tolerance bounds the operator's residual ||OP x - mu x|| / |mu|; the true residual is the
   normwise backward error of the pencil, which differs from it by a factor of order one for
   a shift near the modes (the factor 10 covers that), and by |lambda - sigma| / |lambda|
   and more when the shift is far from them. */
#define EIGEN_RESIDUAL_SAFETY 10.0

/* Frees the modes and their vectors, zeroes *r; NULL is a no-op. */
void eigen_result_clear (eigen_result *r);


#endif
