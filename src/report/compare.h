/* compare.h: `mbmodal compare`: checks a YAML report against a reference report (CI). */
#ifndef MB_COMPARE_H
#define MB_COMPARE_H

#include <stdio.h>

#include "../error.h"

/* Tolerances of a comparison. */
typedef struct compare_opts {
  double rtol;     /* relative tolerance on eigenvalues (or frequencies); default 1e-6 */
  double mac_min;  /* smallest accepted MAC between paired eigenvectors; default 0.99 */
  int modes;       /* modes of the reference to check, the first ones; 0 = all */
  int rtol_given;  /* 1: rtol was given on the command line and overrides a reference's
                      top-level 'rtol' key */
  int ignore_kinds;  /* 1: a differing kind label (rigid-body, oscillatory, ...) is not a
                        failure; default 0 */
} compare_opts;

/* Fills o with the defaults: rtol 1e-6, mac_min 0.99, modes 0, rtol_given 0,
   ignore_kinds 0. */
void compare_opts_init (compare_opts *o);

/* Compares report B with reference A (both mbmodal YAML reports, or A a hand-written
   reduced one). Each of the first opts->modes modes of A (0 = all) is paired with a distinct
   mode of B: by MAC (subspace MAC for repeated eigenvalues) when both carry eigenvectors,
   else by nearest frequency; each pair must agree within rtol (eigenvalue, or frequency
   when an eigenvalue is missing; two rigid-body modes agree, where rigid-body is decided
   by the numbers, not the label alone: a frequency at most 1e-6 times A's largest, 1e-3
   times it for a mode labelled rigid-body, or at most 1e-6 Hz),
   damping ratio within rtol, kind labels equal when both are given (unless
   opts->ignore_kinds), and MAC >= mac_min when both have vectors (formed on vectors
   scaled by their largest entry: no overflow or underflow). An eigenvalue or damping
   ratio written as null (not finite) never agrees. Reading applies the deck reader's
   limits: nesting at most 32 levels, at most 64 anchors, and aliases may not expand the
   document beyond twice its own nodes plus 100000 (MB_EDECK), so hostile files are
   refused at once. Prints a table and a final line
   "compare: N modes ok, N failed" to out (may be NULL). opts NULL means the defaults.
   Returns 0 when all pass, MB_EREGRESS when not, MB_EIO when a file cannot be read,
   MB_EDECK when it is not a valid report (where = "file:line:col"), MB_ENOMEM.
   Rank 0 only. */
int compare_reports (const char *path_a, const char *path_b, const compare_opts *opts,
                     FILE *out, mb_err *err);

/* `mbmodal compare [--rtol X] [--mac X] [--modes N] [--ignore-kinds] A.yaml B.yaml`,
   argv[0] = "compare".
   Prints the table on stdout and errors on stderr. Returns the exit status: 0 all modes
   ok, 6 regression, 1 usage error, 2 a file unreadable or not a report, 7 out of memory.
   Rank 0 only. */
int compare_main (int argc, char **argv);

#endif
