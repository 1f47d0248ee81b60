/* report.h: the report stage: the text table of modes and the YAML report of an eigen stage. */
#ifndef MB_REPORT_H
#define MB_REPORT_H

#include <stdio.h>

#include "../error.h"
#include "../eigen/eigen.h"

/* Prints the table of modes of r to f: one header line, then one row per mode
   (mode, frequency [Hz], damping ratio, damped frequency [Hz], kind, residual; the modal
   stage has no damping columns), then "N infinite eigenvalues filtered" when
   r->n_infinite > 0. Fixed, modest precision (%12.6g) so that logs diff cleanly.
   r is borrowed. Rank 0 only. */
void report_print_table (FILE *f, const eigen_result *r);

/* Writes the YAML report of one eigen stage to path (its folder must exist), overwriting
   it. Schema, key order and units: README "Output reference". Numbers are written with
   the fewest of 15, 16 or 17 significant digits that read back to the same double
   (strtod), so every number round-trips exactly; a non-finite value is written as null.
   Eigenvectors and multipliers are written only when with_vectors (and x, xi != NULL).
   deck_path and title may be NULL (their keys are then omitted). r is borrowed.
   Returns 0, or MB_EIO with a message naming path. Rank 0 only. */
int report_write_yaml (const char *path, const eigen_result *r, const char *deck_path,
                       const char *title, int with_vectors, mb_err *err);

/* The YAML name of a mode kind: "rigid-body", "oscillatory", "overdamped", "unstable";
   "unknown" for a value outside the enum. Static string. */
const char *report_kind_name (mode_kind kind);

#endif
