/* stage.h: the skeleton both eigen stages share (internal to src/eigen): at one shift,
   build A - sigma B on rank 0 (or by rows on every rank), factor it with MUMPS on every
   rank, run Krylov-Schur on OP = (A - sigma B)^-1 B, turn the Ritz pairs into modes on
   rank 0, run the stage's check; each step's status agreed by every rank (mb_agree). A stage is an ops table. */
#ifndef MB_STAGE_H
#define MB_STAGE_H

#include <complex.h>
#include <mpi.h>
#include <stdio.h>

#include "../error.h"
#include "../linalg/factor.h"
#include "eigen.h"
#include "krylov_schur.h"
#include "missed_check.h"
#include "pencil.h"

typedef struct stage stage;

/* The bookkeeping of one stage's attempts (stage_policy in stage.c): how many runs at a
   shift, and how often each rerun rule fired. The times of the runs a rule replaced are
   not in the result's profile, except rule 1's first solve, whose Krylov times add to the
   second's (block_to_single). */
typedef struct stage_attempts {
  int runs;             /* runs at a shift (pencil, factors, Krylov-Schur, modes) */
  int block_to_single;  /* rule 1: the block path again with single vectors */
  int second_shift;     /* rule 2: again at ops->retry_shift */
  int tighter;          /* rule 3: again with Krylov-Schur's tolerance tightened */
  int whole;            /* rule 4: the whole sequence again with the system on rank 0 */
} stage_attempts;

/* What differs between the undamped and the damped stage. */
typedef struct stage_ops {
  eigen_stage_kind kind;
  const char *label;     /* "modal", "complex": starts log lines and messages */
  const char *gep;       /* "GEP (18)", "GEP (31)" */
  const char *unit;      /* of the shift: "rad^2/s^2", "1/s" */
  int complex_arith;     /* 1: the damped stage: complex factors and Krylov-Schur at a
                            complex shift, real ones at a real shift; 2: the damped stage
                            in complex arithmetic at every shift; 0: real always */
  /* Rank 0: the scaling (st->s, st->w, st->symmetric) and the matrix to factor as
     triplets in st->nnz, row, col, val, of order st->Nf (A - sigma B itself for GEP (18),
     the reduced matrix of order n + m for GEP (31); its rows are q then xi in both).
     Returns 0 or MB_ENOMEM (the skeleton says what failed). */
  int (*pencil) (stage *st);
  /* Rank 0: the scaling that pencil sets (st->symmetric, st->s, st->w), for the pencil
     built by rows: the skeleton calls it and broadcasts its results, then calls pencil on
     every rank for its rows (or on rank 0 alone for centralized input). */
  void (*scaling) (stage *st);
  /* Every rank: frees what pencil built (called once the factors exist). */
  void (*pencil_clear) (stage *st);
  /* Rank 0 (log) and every rank (o): o->nev and o->seed; logs why that many. */
  void (*krylov_opts) (const stage *st, ks_opts *o);
  /* Collective: the Ritz pairs in ks (by rows; the dense path's whole on rank 0, which
     the stage hands out by rows) -> st->out's modes. Returns 0 or MB_ENOMEM. */
  int (*modes) (stage *st, ks_result *ks, mb_err *err);
  /* Collective, once the modes are agreed; NULL when the stage has no check. Returns 0
     or an error, the same on every rank. */
  int (*check) (stage *st, mb_err *err);
  /* Collective; NULL when the stage has none. Every finite eigenvalue at once from the
     stage's factors f (st->opts->whole): fills ks as Krylov-Schur's dense path would
     (rank 0: mu, resid, real vectors in xr) and returns 1; 0 when it does not apply (ks
     untouched: Krylov-Schur runs), or an error; the same on every rank. */
  int (*dense) (stage *st, factor *f, ks_result *ks, mb_err *err);
  /* Rank 0: a better default shift when the true residuals show that rigid-body modes
     next to the shift spoiled the operator's rounding; 0 for none. */
  double (*retry_shift) (const stage *st);
  /* Collective; NULL for none. After the stage's attempts (status rc, out filled): rc, or
     a refusal of what the stage's report cannot hold (the undamped stage: complex
     eigenvalues of an unsymmetric pencil), the same on every rank. */
  int (*refuse) (MPI_Comm comm, int rc, eigen_result *out, mb_err *err);
  /* 1: the policy's rule 5, the missed-mode rerun (the undamped stage, which has the
     check) */
  int missed_rerun;
  /* The policy's rule 6: the stage whose run replaces this one's when real arithmetic
     reported rigid-body modes (the damped stage: the same in complex arithmetic), on the
     system as it is; NULL for none. */
  const struct stage_ops *rigid_rerun;
} stage_ops;

/* One stage at one shift. The skeleton sets the first group; ops->pencil the second on
   rank 0 (symmetric is then broadcast); ops->modes may plan the check. */
struct stage {
  MPI_Comm comm;
  int rank, nranks;
  const gep_system *sys;      /* borrowed */
  const eigen_opts *opts;     /* borrowed: modes, shift, tolerance, vectors, log, ... */
  FILE *log;                  /* opts->log on rank 0, NULL on the others */
  FILE *detail;               /* opts->detail on rank 0, NULL on the others (-v) */
  double complex sigma;       /* the shift (real for the undamped stage) */
  int N;                      /* order of the pencil (and of the Krylov vectors) */
  int Nf;                     /* order of the factored matrix: n + m (both stages) */
  eigen_result *out;          /* borrowed: filled by the stage */
  /* the system by rows (every rank), for every run of the stage: the operator, the
     pencil's rows (given to MUMPS distributed unless centralized) and the modes */
  const gep_parts *parts;
  spm_part Ap;                /* with parts: this rank's rows of the undamped pencil */
  int *Arow;                  /* and the rows of its entries (the triplets' rows) */
  /* the pencil, rank 0 (with parts: this rank's rows) */
  int symmetric;              /* 1: LDL^T (symmetric K and M, and R when damped) */
  double s, w;                /* Cq scale, balancing factor (damped) */
  long nnz;                   /* A - sigma B as triplets, borrowed from A or t */
  const int *row, *col;
  const void *val;
  spm *A;                     /* undamped pencil; damped at a real shift: the reduced
                                 matrix (pencil_damped_reduced_real) */
  ztrip t;                    /* damped at a complex shift: the reduced matrix
                                 (pencil_damped_reduced) */
  missed_check mc;            /* undamped: the interval of the missed-mode check */
  factor *f;                  /* the stage's factors while ops->check runs (borrowed) */
  long nnz_factored;          /* entries of the factored pencil (its pattern's size) */
  int residual_failed;        /* 1: Krylov-Schur converged but true residuals did not */
  int centralized;            /* 1: the system is by rows (parts) but A - sigma B goes to MUMPS
                                 whole from rank 0 (centralized input): one rank holding
                                 the system, or rule 4's rerun */
  int singular_by_rows;       /* 1: a factorization of the pencil by rows (distributed input)
                                 failed as singular (null pivots at MUMPS's threshold) */
  double ks_tol;              /* Krylov-Schur's tolerance when tighter than opts->tolerance
                                 (rule_tighter), else 0 */
  stage_attempts attempts;    /* the policy's counts, for the whole stage_solve */
};

/* Collective. Runs the stage at sigma (ops, the system and its settings; order N), then
   reruns as the policy's ordered rules say (stage_policy in stage.c): the single-vector
   path after a block that did not converge; when opts sets neither shift nor target and
   ops->retry_shift gives a shift, once more there (out cleared first); when the true
   residuals are still above the tolerance, once more with a tighter Krylov-Schur
   tolerance; after a pencil by rows found singular, all again with the pencil given to
   MUMPS whole from rank 0. A system not read by rows is handed out by rows once
   (gep_parts_scatter; R's rows too for the damped stage) for all of these runs, one rank
   being one block: the pencil is built by rows and factored from distributed input (on
   one rank, from rank 0's whole pencil). Fills *out (on rank 0; the other ranks hold
   convergence data only). Returns 0, MB_ENOCONV (out still holds the converged modes),
   MB_ESOLVE or MB_ENOMEM, identically on every rank. */
int stage_solve (const stage_ops *ops, MPI_Comm comm, const gep_system *sys,
                 const eigen_opts *opts, double complex sigma, int N, eigen_result *out,
                 mb_err *err);

/* Collective. The whole policy of one stage (docs/method.md, "Reruns: one ordered
   policy"): stage_solve (rules 1 to 4), ops->refuse, then the stage's own reruns: rule 5
   (ops->missed_rerun) after a converged run whose missed-mode check counted more
   eigenvalues than were found, rule 6 (ops->rigid_rerun) after rigid-body modes from real
   arithmetic. The arguments and the result as stage_solve's. */
int stage_run (const stage_ops *ops, MPI_Comm comm, const gep_system *sys,
               const eigen_opts *opts, double complex sigma, int N, eigen_result *out,
               mb_err *err);

/* Writes a line to st->log (printf style) when it is not NULL, and flushes. */
void stage_log (const stage *st, const char *fmt, ...) __attribute__ ((format (printf, 2, 3)));

/* The same to st->detail: the lines of -v (profile, floor, memory, Krylov-Schur's work). */
void stage_detail (const stage *st, const char *fmt, ...)
  __attribute__ ((format (printf, 2, 3)));

/* The factorization options of the stage's pencils: the defaults, then the deck's
   solver choices (opts->solver) over them. own_ordering: the stage's own ICNTL(7) choice
   (7: MUMPS's automatic one), which a solver ordering replaces. */
void stage_factor_opts (const stage *st, int own_ordering, factor_opts *fo);

/* Every rank: 1 when A - sigma B is built and factored by rows (each rank its rows,
   MUMPS's distributed input): the system by rows and not st->centralized. */
static inline int stage_pencil_by_rows (const stage *st)
{
  return st->parts != NULL && !st->centralized;
}

#endif
