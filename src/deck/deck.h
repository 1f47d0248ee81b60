/* deck.h: the input deck as plain data, parsed from YAML text with libyaml. */
#ifndef MB_DECK_H
#define MB_DECK_H

#include <stddef.h>
#include "../error.h"
#include "deck_model.h"
#include "deck_solver.h"
#include "deck_statics.h"
#include "deck_buckling.h"
#include "deck_frf.h"
#include "deck_sweep.h"

/* Caps on a stage's counts, checked by deck_parse: the eigen stages form modes + modes/10,
   2 modes, 2 nev and ncv + 2 in int, which these keep far from overflow. The stages
   further cap a request at what the pencil holds. */
enum { DECK_MAX_MODES = 1000000,      /* modes per stage */
       DECK_MAX_SUBSPACE = 4000000 }; /* subspace (Krylov ncv) */

/* Settings of one eigen stage (modal = undamped real GEP (18), complex = damped GEP (31)). */
typedef struct deck_stage {
  int enabled;         /* 1: run this stage */
  int modes;           /* number of physical modes wanted, 1 .. DECK_MAX_MODES */
  int has_target;      /* 1: target_frequency was given */
  double target_hz;    /* target frequency f_c [Hz], >= 0; its shift is finite */
  int has_shift;       /* 1: shift was given (overrides target) */
  double shift_re;     /* modal: sigma [rad^2/s^2]; complex: Re sigma [1/s] */
  double shift_im;     /* complex only: Im sigma [rad/s] */
  double tolerance;    /* Ritz residual / |mu|, in (0, 1e-2] */
  int max_restarts;    /* >= 1 */
  int subspace;        /* Krylov subspace size ncv, modes + 2 .. DECK_MAX_SUBSPACE;
                          0 = automatic */
  int off_line;        /* complex only: > 0 when the deck has a complex section at this
                          line but no 'enabled' key and the stage is off by default (no R,
                          no damping): the run log says so; 0 otherwise */
} deck_stage;

/* Matrix Market files named by a matrix deck; paths resolved against the deck's folder.
   All NULL in a model deck (a deck has either matrices or a model). */
typedef struct deck_matrices {
  char *K, *M;   /* stiffness, mass: required */
  char *R;       /* damping: optional, NULL when absent */
  char *Cq;      /* constraint Jacobian (m x n): optional, NULL when absent */
  /* where each key stood in the deck, for errors about the file it names (1-based) */
  size_t line_K, col_K, line_M, col_M, line_R, col_R, line_Cq, col_Cq;
} deck_matrices;

typedef struct deck_output {
  char *directory;   /* resolved against the current directory; default "." */
  char *name;        /* base name of report files; default: deck file name without .yaml */
  int eigenvectors;  /* 1: write eigenvectors in the YAML reports (default 1) */
  char *export_matrices;  /* folder for K, M, R, Cq (.mtx) and the row maps, kept as
                             written (relative to the current directory); NULL: none */
  int vtk;           /* 1: write ParaView mode shapes of a model deck (default 1) */
  int csv;           /* 1: write the table of modes as NAME.STAGE.csv (default 0) */
  int plots;         /* 1: draw the FRF and sweep reports as NAME.frf.png, NAME.sweep.png
                        (default 1; python3-matplotlib, else a log note) */
  int has_reference_point;    /* 1: reference_point was given (model decks only) */
  double reference_point[3];  /* [m] the point the rotational participation factors and
                                 effective masses are about; default (not given): the
                                 model's centre of mass */
} deck_output;

typedef struct deck {
  char *path;           /* the deck file as given on the command line */
  char *title;          /* free text, may be NULL */
  deck_matrices matrices;  /* matrix deck; zeroed in a model deck */
  deck_model model;     /* model deck (model.present = 1); zeroed in a matrix deck */
  deck_stage modal;     /* defaults: enabled, 10 modes, tol 1e-10, 300 restarts */
  deck_stage damped;    /* the deck's "complex" section; defaults: enabled when R is given
                           (matrix deck) or when the model has damping (model deck) */
  deck_output output;
  deck_statics statics; /* model deck: the static equilibrium stage (deck_statics.h) */
  deck_solver solver;   /* how the eigen stages factor and iterate (deck_solver.h) */
  deck_buckling buckling; /* model deck: the linear buckling stage (deck_buckling.h) */
  deck_frf frf;         /* frequency response and state-space export (deck_frf.h) */
  deck_sweep sweep;     /* model deck: a parameter sweep (deck_sweep.h, src/sweep.c) */
} deck;

/* The most bytes a deck file may hold: 64 MiB (a model deck of a million beam elements
   takes a few MiB; matrices go in Matrix Market files). */
#define DECK_MAX_BYTES ((size_t) 64 << 20)

/* Collective. Rank 0 reads the deck file at path and broadcasts its bytes: every rank gets
   the same *text (NUL-terminated, *len bytes before the NUL; caller frees) or the same
   error. Returns 0; MB_EDECK (exit 2, "bad deck or input file") with where = path for a
   missing, unreadable or directory path ("cannot read the deck: <strerror>") and for a
   file of more than DECK_MAX_BYTES ("deck too large", found by its size or, for a device
   such as /dev/zero, after reading one byte past the cap); MB_ENOMEM. Fault site "deck"
   (mb_fault) on any rank: its buffer allocation fails. */
int deck_read_shared (MPI_Comm comm, const char *path, char **text, long *len, mb_err *err);

/* Parses a deck from text (len bytes, not necessarily NUL-terminated). path names the
   file in error messages and anchors relative paths. Fills *d (caller clears it with
   deck_clear, also after a failure). Returns 0 or MB_EDECK / MB_ENOMEM with
   err->where = "path:line:col". Checks syntax, keys, types and ranges, and every check of
   a model object that needs that object only (deck_model.h); it does not open the matrix
   files nor resolve names that refer to other model objects (model_build does). On
   failure *d is left zeroed. Collective-free: every rank may call it on the same text.
   The schema is written at the top of deck.c (model sections: deck_model.c). */
int deck_parse (const char *text, size_t len, const char *path, deck *d, mb_err *err);

/* Frees what deck_parse allocated and zeroes *d; d may be NULL. */
void deck_clear (deck *d);

/* Testing hook: the n-th memory allocation made by the deck parser (src/deck) from now on
   fails (n >= 1); 0 disables. Does not reach libyaml's own allocations. Not thread safe. */
void deck_test_fail_alloc (long n);

#endif
