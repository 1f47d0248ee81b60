/* factor.h: the MUMPS backend: factor a sparse matrix once on every rank, then solve. */
#ifndef MB_FACTOR_H
#define MB_FACTOR_H

#include <mpi.h>

#include "../error.h"

typedef enum {
  FACTOR_REAL_SYMMETRIC,   /* DMUMPS, SYM=2: A = L D L^T, D with 1x1 and 2x2 pivots */
  FACTOR_REAL_GENERAL,     /* DMUMPS, SYM=0: P A Q = L U */
  FACTOR_COMPLEX_GENERAL,  /* ZMUMPS, SYM=0: P A Q = L U */
  FACTOR_COMPLEX_SYMMETRIC /* ZMUMPS, SYM=2: A = L D L^T for complex symmetric A = A^T (not
                              Hermitian), D with 1x1 and 2x2 pivots; lower triangle given */
} factor_kind;

/* Facts of one factorization (from MUMPS INFOG), as the stages report them. */
typedef struct factor_stats {
  int ranks;               /* MPI ranks used */
  int symmetric;           /* 1: LDL^T (SYM=2), 0: LU */
  int complex_arith;       /* 1: ZMUMPS (complex LU, or complex symmetric LDL^T) */
  long order;              /* N of the factored matrix */
  long nnz_matrix;         /* entries given to MUMPS */
  long nnz_factors;        /* INFOG(29) */
  long negative_pivots;    /* INFOG(12), symmetric only; -1 when unknown */
  double memory_mb;        /* INFOG(22): total MB over ranks, effective */
  int icntl14;             /* final workspace relaxation percentage */
  int retries;             /* factorizations redone after INFOG(1) = -9 */
  double time_analysis;    /* [s] */
  double time_factor;      /* [s] every factorization (JOB=2): retries and refactorizations
                              included */
  int ordering;            /* INFOG(7): the ordering the analysis used (ICNTL(7) codes) */
  double low_rank;         /* the block low-rank dropping tolerance; 0: exact factors */
} factor_stats;

/* The name of an ICNTL(7) ordering code: amd, amf, scotch, pord, metis, qamd, or
   "automatic" for 7 and "unknown" for anything else. */
const char *factor_ordering_name (int icntl7);

/* What a factor did, phase by phase (kept apart from factor_stats, whose layout the stages
   and their tests fill positionally). Times are wall times, max over ranks. */
typedef struct factor_phases {
  int analyses;            /* analyses run (JOB=1): 1, refactorizations reuse it */
  int factorizations;      /* numerical factorizations that succeeded (JOB=2): creation,
                              refactorizations, and those redone for solve workspace */
  int refactorizations;    /* successful factor_refactor calls */
  int retries;             /* factorizations redone after a workspace failure */
  long solves;             /* solve calls (factor_solve, factor_solve_many,
                              factor_solve_rows) */
  long solved_rhs;         /* right-hand sides solved, over all calls */
  double time_analysis;    /* [s] the analysis */
  double time_factor;      /* [s] every factorization, retries included */
  double time_factor_last; /* [s] the last factorization with its retries */
  double time_solve;       /* [s] every solve */
  int null_detection;      /* 1: null pivots detected (ICNTL(24) = 1) */
  long null_pivots;        /* INFOG(28) of the last factorization with detection, else -1 */
  int ordering;            /* INFOG(7): the ordering the analysis used (ICNTL(7) codes) */
} factor_phases;

/* How a factorization is set up. Fill with factor_opts_default, then change fields. The
   values of rank 0 are used on every rank (verbosity excepted: each rank's own). */
typedef struct factor_opts {
  int icntl14;             /* initial ICNTL(14), extra workspace over the analysis estimate
                              [%], 0..2^20 (default 30; a deck's solver.workspace).
                              Workspace failures double it, up to 5 times per call. */
  int verbosity;           /* MUMPS's own output ICNTL(4), 0 (silent) .. 4, to stdout; -1:
                              MBMODAL_MUMPS_VERBOSE in each rank's environment, else 0 */
  int ordering;            /* ICNTL(7): 0 AMD, 2 AMF, 3 SCOTCH, 4 PORD, 5 METIS, 6 QAMD,
                              7 automatic (default); what the MUMPS build lacks (Debian's
                              5.5.1 has no METIS or SCOTCH) falls back to automatic */
  double pivot_threshold;  /* CNTL(1), MUMPS's relative threshold for partial pivoting, in
                              [0, 1] (MUMPS reads values above 0.5 as 0.5 for LDL^T); < 0
                              (default): MUMPS's own, 0.01 */
  int null_pivots;         /* 1: null-pivot detection (ICNTL(24) = 1): pivots below the
                              threshold are replaced by the fixation and listed, see
                              factor_null_pivots; 0 (default): off, a singular matrix fails */
  double null_threshold;   /* CNTL(3) as MUMPS reads it: > 0 relative, a pivot is null when
                              its row's infinity norm is below null_threshold ||A_pre||
                              (A_pre: A after MUMPS's scaling); < 0 absolute |CNTL(3)|; 0
                              MUMPS's default (1e-5 DBL_EPSILON ||A_pre||). Seed 000's
                              criterion: 100 DBL_EPSILON n (factor_null_threshold). */
  double null_fixation;    /* CNTL(5): > 0 a null pivot becomes null_fixation ||A_pre||, a
                              grounded spring (seed 000's p_f); <= 0 (default) MUMPS's
                              choice: LDL^T zeroes the row and column and puts 1 on the
                              diagonal, LU a large pivot with the row of U zeroed */
  double low_rank;         /* > 0: block low-rank factors (ICNTL(35) = 2) with this dropping
                              tolerance CNTL(7), in (0, 1): approximate factors, fewer flops
                              and less memory; 0 (default): exact factors */
  int distributed;         /* 1: every rank gives its own triplets (MUMPS's distributed
                              assembled input, ICNTL(18) = 3; any entry from any rank,
                              duplicates over the ranks summed), and factor_refactor its own
                              values; 0 (default): rank 0 gives the whole matrix. Must be
                              the same on every rank. Without null_pivots, a matrix with a
                              null pivot at MUMPS's own threshold then fails as singular
                              (MB_ESOLVE), as an exact zero pivot does centrally. */
} factor_opts;

/* Owns one DMUMPS_STRUC_C or ZMUMPS_STRUC_C and a 1-based copy of the matrix: on rank 0,
   or with distributed input each rank's own triplets. */
typedef struct factor factor;

/* Collective on comm. Analyses and factors the n x n matrix A (called `name` in messages,
   e.g. "A - sigma B") given on rank 0 as nnz triplets A(irow[k], jcol[k]) += a[k] with
   0-based indices; the other ranks pass NULL and 0 (n is taken from rank 0).
   FACTOR_REAL_SYMMETRIC and FACTOR_COMPLEX_SYMMETRIC take the lower triangle only
   (irow[k] >= jcol[k]). a is `const double *` for the real kinds, `const double complex *`
   for the complex ones.
   The arrays are copied: the caller may free them on return.
   The initial ICNTL(14) is 30 (factor_opts); a workspace failure refactors with it
   doubled, up to 5 times. MBMODAL_MUMPS_VERBOSE (each rank's environment; a level 1..4,
   default 2) turns MUMPS's own output on (diagnostics only: no result changes).
   Fault site "factor" (mb_fault, rank 0): out of memory copying the matrix.
   Returns a new factor (caller frees with factor_free) or NULL with err set to MB_ESOLVE
   or MB_ENOMEM, identically on every rank. */
factor *factor_create (MPI_Comm comm, factor_kind kind, int n, long nnz, const int *irow,
                       const int *jcol, const void *a, const char *name, mb_err *err);

/* The defaults: ICNTL(14) and verbosity from the environment as factor_create reads them,
   automatic ordering, no null-pivot detection. */
void factor_opts_default (factor_opts *o);

/* Seed 000's null-pivot threshold for a matrix of order n: 100 DBL_EPSILON n (relative, as
   factor_opts.null_threshold takes it). */
double factor_null_threshold (int n);

/* Collective on comm. As factor_create, with the options of rank 0's *opts (NULL: the
   defaults; the struct is copied). With null-pivot detection on, a singular matrix is
   factored with its null pivots fixed (see factor_null_pivots) instead of failing.
   With opts->distributed (every rank's opts non-NULL and its flag the same), every rank
   passes n and its own nnz triplets (any entries; LDL^T: lower triangle), none of which
   need be on rank 0: no rank ever holds the whole matrix; messages about an entry name the
   rank and its local index. Fault site "factor" then on every rank. */
factor *factor_create_opts (MPI_Comm comm, factor_kind kind, int n, long nnz,
                            const int *irow, const int *jcol, const void *a,
                            const char *name, const factor_opts *opts, mb_err *err);

/* Collective. Refactors f for new values of the SAME pattern: a (rank 0 only, NULL
   elsewhere; with distributed input each rank its own, in the order of its triplets) holds nnz values (double or double complex by kind) in the order of the
   triplets given at creation, which keep their rows and columns. Only the numerical
   factorization runs (MUMPS JOB=2): the analysis (ordering, symbolic factorization) of the
   creation is reused. A workspace failure is retried with ICNTL(14) doubled, as at
   creation. The values are copied. Returns 0, or MB_ESOLVE (MB_ENOMEM) on every rank: a
   value that is not finite leaves f and its factors unchanged; a failed factorization (e.g.
   singular) leaves f without usable factors (solves fail) until a refactor succeeds. */
int factor_refactor (factor *f, const void *a, mb_err *err);

/* The null pivots of the last factorization with detection on (factor_opts.null_pivots):
   *count = INFOG(28), and with rows != NULL, *rows = a new array of their 0-based row
   indices (from MUMPS's PIVNUL_LIST, in MUMPS's order; NULL when count is 0), the same on
   every rank (broadcast by the host at factorization); caller frees *rows. Without
   detection *count = -1 and *rows = NULL. Not collective. Returns 0 or MB_ENOMEM. */
int factor_null_pivots (const factor *f, int *count, int **rows);

/* Collective on comm. Diagnoses a matrix that factor_create found singular (or any
   matrix): factors it once more with null-pivot detection at seed 000's threshold
   (factor_null_threshold) and explicit zero diagonal entries added, so that a structurally
   empty row or column is found too, and returns *count, the number of null pivots (the
   rank deficiency as MUMPS sees it, 0 for a regular matrix), and with rows != NULL *rows, a
   new array of their 0-based row indices (NULL when count is 0; caller frees); the same on
   every rank. Arguments as factor_create (rank 0 gives the matrix). Returns 0, or an error
   (MB_ESOLVE, MB_ENOMEM) on every rank with *count = -1. */
int factor_deficiency (MPI_Comm comm, factor_kind kind, int n, long nnz, const int *irow,
                       const int *jcol, const void *a, const char *name, int *count,
                       int **rows, mb_err *err);

/* As factor_deficiency, and with negative != NULL, *negative = the negative pivots of the
   LDL^T factors (INFOG(12); null pivots are not counted; -1 for LU), the same on every rank:
   with the null pivots, the inertia of a symmetric matrix. */
int factor_deficiency_inertia (MPI_Comm comm, factor_kind kind, int n, long nnz,
                               const int *irow, const int *jcol, const void *a,
                               const char *name, int *count, int **rows, long *negative,
                               mb_err *err);

/* factor_deficiency_inertia with distributed input when distributed = 1 (the same on every
   rank): every rank passes n and its own triplets, as factor_opts.distributed says; the
   explicit zero diagonal is rank 0's. */
int factor_deficiency_dist (MPI_Comm comm, factor_kind kind, int n, long nnz,
                            const int *irow, const int *jcol, const void *a, const char *name,
                            int distributed, int *count, int **rows, long *negative,
                            mb_err *err);

/* Collective. x = A^-1 b in place: b (size n, double or double complex by kind) is read
   and overwritten on rank 0 only; other ranks pass NULL. Returns 0 or MB_ESOLVE
   (MB_ENOMEM) on every rank. */
int factor_solve (factor *f, void *b, mb_err *err);

/* Collective. X = A^-1 B in place for nrhs >= 1 right-hand sides: B is n x nrhs,
   column-major, on rank 0 only (NULL elsewhere; nrhs is taken from rank 0).
   Returns 0 or MB_ESOLVE (MB_ENOMEM) on every rank. */
int factor_solve_many (factor *f, void *b, int nrhs, mb_err *err);

/* Collective. X = A^-1 B in place for nrhs >= 1 right-hand sides given by rows: each
   rank passes rows row0 .. row0 + nloc - 1 of B (column j at B + j ldb, ldb >= max (nloc, 1);
   double or double complex by kind); the ranks' ranges are contiguous, in rank order, and
   cover 0 .. n-1 once (the block layout of ks_dist_init in src/eigen/krylov_schur.c; a rank
   may have nloc = 0). On return B holds the same rows of X. nrhs is each rank's own and
   must be equal on all ranks. Returns 0 or MB_ESOLVE (MB_ENOMEM) on every rank.
   No rank gathers or scatters a whole vector: MUMPS reads each rank's rows where they are
   (distributed right-hand sides, ICNTL(20) = 10: RHS_loc = B, LRHS_loc = ldb, IRHS_loc =
   row0 + 1 .. row0 + nloc) and leaves X distributed as its factors are (ICNTL(21) = 1: rank
   r holds the rows ISOL_loc of X, the INFO(23) pivots it eliminated, in SOL_loc); one
   MPI_Alltoallv (all nrhs columns packed together) then moves each row of X to the rank
   that owns it in the callers' layout. The exchange plan (which SOL_loc entry goes to which
   rank and lands on which row) is built on the first call and rebuilt only when the layout
   (row0 or nloc of any rank), the factorization (factor_refactor, a workspace retry) or
   ISOL_loc changes (compared on every call, O(INFO(23)), plus one MPI_Allreduce of a flag:
   the MUMPS guide says only that MUMPS chooses the distribution and returns it in ISOL_loc,
   not that it stays fixed between solves; in the tests it never changed within one
   factorization). Iterative refinement and error analysis (ICNTL(10), ICNTL(11)), which
   MUMPS skips for a distributed solution, are not used here either. ICNTL(20) and ICNTL(21) are set for this call only and restored to the
   centralized 0/0, so factor_solve and factor_solve_many work as before on the same
   factor. A workspace failure refactors with ICNTL(14) doubled and solves again, as
   factor_solve_many does; the call counts as one solve of nrhs right-hand sides in the
   phases, its time (MUMPS's solve and the exchange) as solve time. The buffers (IRHS_loc,
   ISOL_loc, SOL_loc, the plan, the packed exchange) belong to f, grow on demand and are
   freed by factor_free; B stays the caller's. Fault site "factor": out of memory for them. */
int factor_solve_rows (factor *f, int row0, int nloc, void *B, int ldb, int nrhs, mb_err *err);

/* Facts of the last factorization into *s: order, entries, INFOG(29) factor entries,
   INFOG(12) negative pivots (the number of negative eigenvalues of A by Sylvester's law,
   FACTOR_REAL_SYMMETRIC only, else -1: a complex symmetric matrix has no inertia),
   INFOG(22) memory, final ICNTL(14), retries and wall times (max over ranks). Same values
   on every rank. Not collective. */
void factor_get_stats (const factor *f, factor_stats *s);

/* Counts and times of each phase so far into *p (zeros and null_pivots = -1 for NULL f).
   Same values on every rank. Not collective. */
void factor_get_phases (const factor *f, factor_phases *p);

/* Collective. Frees the MUMPS instance (job = -2) and f; NULL is a no-op. Returns NULL. */
factor *factor_free (factor *f);

/* Not collective; the same calls on every rank. One more holder of f: the next
   factor_free only drops that hold and leaves f alive (a cache keeps a factor that a stage
   frees when done; see factor_cache.h). */
void factor_hold (factor *f);

/* Collective on comm. 1 on every rank when ok is 1 on every rank, f is non-NULL, and the
   matrix (kind, order n, distributed input or not, and nnz triplets with 0-based rows irow
   and columns jcol: rank 0's, other ranks NULL and 0; with distributed = 1 every rank's own)
   has exactly the pattern f was created with, entry by entry in the same order: then
   factor_refactor (f, values) factors it on f's analysis. Else 0 on every rank. */
int factor_same_pattern (MPI_Comm comm, const factor *f, int ok, factor_kind kind, int n,
                         long nnz, const int *irow, const int *jcol, int distributed);

/* Not collective; the same calls on every rank. Begins a new use of f on its existing
   analysis: factor_get_stats's retries and times and factor_get_phases's counts and times
   restart from zero and phases.analyses becomes 0 (no analysis ran for this use), so that
   the next factor_refactor's numbers are the use's own. name (NULL: unchanged) becomes the
   matrix's name in messages. */
void factor_reuse (factor *f, const char *name);

#endif
