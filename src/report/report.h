/* report.h: the report stage: the text table of modes and the YAML report of an eigen stage,
   with node-wise mode shapes and energy shares per part when the deck is a model. */
#ifndef MB_REPORT_H
#define MB_REPORT_H

#include <stdio.h>

#include "../error.h"
#include "../eigen/eigen.h"
#include "../model/assemble.h"
#include "participation.h"

/* Prints the table of modes of r to f: one header line, then one row per mode
   (mode, frequency [Hz], damping ratio, damped frequency [Hz], kind, residual; the modal
   stage has no damping columns), then "N infinite eigenvalues filtered" when
   r->n_infinite > 0. Fixed, modest precision (%12.6g) so that logs diff cleanly.
   r is borrowed. Rank 0 only. */
void report_print_table (FILE *f, const eigen_result *r);

/* report_print_table with, when pf is not NULL (an undamped stage of a model), one more
   column before the residual: the mode's dominant rigid direction and its share of the
   total mass there ("dz 61.3%", participation_dominant; "-" when it has none).
   r and pf are borrowed. Rank 0 only. */
void report_print_table_with (FILE *f, const eigen_result *r, const participation *pf);

/* Writes the YAML report of one eigen stage to path (its folder must exist), replacing
   it when complete (temporary file and rename, writer.c; never over an input of the run,
   writer_protect). Schema, key order and units: docs/output.md "The YAML report". Numbers are written with
   the fewest of 15, 16 or 17 significant digits that read back to the same double
   (strtod), so every number round-trips exactly; a non-finite value is written as null.
   Eigenvectors and multipliers are written only when with_vectors (and x, xi != NULL).
   deck_path and title may be NULL (their keys are then omitted).
   With r->profile.done: `format_minor: 2` and the `profile` block after `timings_s` (the
   stage's time breakdown, solves, floor, every rank's peak memory).
   mdl: the model of a model deck, or NULL for a matrix deck (without a profile the report
   is then exactly the format 1.0 one). With a model (r->n must be 6 mdl->nnodes):
   `format_minor: 1` (2 with a profile), a
   top-level `model:` block (nodes in DOF order with positions, parts), and per mode
   `nodes:` (the eigenvector node by node, 6 components each, in place of the flat
   `vector`; only when with_vectors) and `energy:` (kinetic and strain share of each part
   with |share| >= 1e-4, largest first; whenever the mode has its vector x, even without
   with_vectors). r and mdl are borrowed.
   Returns 0, MB_EIO with a message naming path (also for a model that does not match r),
   or MB_ENOMEM. Rank 0 only. */
int report_write_yaml (const char *path, const eigen_result *r, const char *deck_path,
                       const char *title, int with_vectors, const model *mdl, mb_err *err);

/* report_write_yaml with, when pf is not NULL (with mdl, an undamped stage; computed for
   r), `format_minor: 3`, the top-level `participation:` block after `model:` and each
   mode's `participation:` after its `energy:` (docs/output.md "Participation"). pf
   borrowed. */
int report_write_yaml_with (const char *path, const eigen_result *r, const char *deck_path,
                            const char *title, int with_vectors, const model *mdl,
                            const participation *pf, mb_err *err);

/* Prints, for a model, one line per mode of r that has its vector: the two parts with the
   largest kinetic-energy shares and the two with the largest strain-energy shares, e.g.
   "     2  kinetic: tip 85.1%, arm 14.9%; strain: arm 99.7%, spring1 0.3%".
   Prints nothing when mdl is NULL or no mode has a vector. Returns 0 or MB_ENOMEM.
   Rank 0 only. */
int report_print_energy (FILE *f, const model *mdl, const eigen_result *r, mb_err *err);

/* The lower-case name of a part's kind: "body", "beam", "spring", "rotational_spring",
   "bushing" (force parts by their force type), "force" otherwise. Static string. */
const char *report_part_kind (const model *mdl, const model_part *p);

/* The YAML name of a mode kind: "rigid-body", "oscillatory", "overdamped", "unstable";
   "unknown" for a value outside the enum. Static string. */
const char *report_kind_name (mode_kind kind);

#endif
