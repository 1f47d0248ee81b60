/* deck_solver.h: the `solver:` section of a deck: how the eigen stages factor A - sigma B
   (MUMPS's ordering, workspace, block low-rank) and run Krylov-Schur (block size, early
   exit, lagged re-orthogonalization). Every key optional; all absent: the defaults. */
#ifndef MB_DECK_SOLVER_H
#define MB_DECK_SOLVER_H

/* The solver section, read into this with its defaults when absent. */
typedef struct deck_solver {
  int block;              /* Krylov-Schur block size: 0 automatic (default), 1 single
                             vector, 2..16 block path */
  int has_ordering;       /* 1: ordering was given (not `auto`) */
  int ordering;           /* with has_ordering: MUMPS's ICNTL(7) code of the name: amd 0,
                             amf 2, scotch 3, pord 4, metis 5, qamd 6, mumps 7 (MUMPS's own
                             automatic choice) */
  int has_workspace;      /* 1: workspace was given */
  int workspace;          /* with has_workspace: MUMPS's ICNTL(14), extra workspace over
                             the analysis' estimate [%], 0..1048576; default 30 */
  double low_rank;        /* block low-rank factors' dropping tolerance (MUMPS's BLR,
                             CNTL(7)), in [0, 1e-2]; 0 (default): exact factors */
  int early_exit;         /* 1 (default): the block path probes convergence inside an
                             expansion and stops early */
  int lagged_orthogonalization;  /* 1 (default): the block path's second Gram-Schmidt
                                    pass lags one block behind */
} deck_solver;

struct deck_ctx;
struct yaml_node_s;

/* The defaults: block 0 (automatic), ordering auto, workspace 30 %, exact factors, early
   exit and lagged re-orthogonalization on. */
void deck_solver_defaults (deck_solver *s);

/* Reads the solver mapping map (section name sec) into c->d->solver: defaults first, then
   every key checked. MB_EDECK with path:line:col on a bad key or value. */
int deck_solver_section (struct deck_ctx *c, const struct yaml_node_s *map, const char *sec);

#endif
