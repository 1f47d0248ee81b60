/* compare_static.h: `mbmodal compare` on two static reports (stage: static): positions,
   displacements, rotations and reactions within a tolerance. */
#ifndef MB_COMPARE_STATIC_H
#define MB_COMPARE_STATIC_H

#include <stdio.h>

#include <yaml.h>

#include "../error.h"
#include "compare.h"

/* Loads the YAML file path into *doc (caller deletes it with yaml_document_delete) after
   compare's event pass, which applies the deck reader's limits (nesting, anchors, alias
   expansion). Returns 0, MB_EIO (cannot open or read), MB_EDECK (not YAML, over a
   limit; "file:line:col"), MB_ENOMEM; on failure *doc holds nothing. Defined in
   compare.c. */
int compare_load_yaml (const char *path, yaml_document_t *doc, mb_err *err);

/* Compares the static report path_b with the reference path_a (both `stage: static`,
   docs/compare.md "Static reports"). Items are paired by name: each node's `position`,
   `displacement` [m] and `rotation` [rad], each joint's `force` [N] and `torque` [N m],
   each spring's `force`, `torque`, `elongation`, `rotation`, each bushing node's `force`
   and `torque`. An item of the reference passes when the largest abs difference of its
   numbers is <= rtol times the scale of its quantity: the largest abs value of that
   quantity (position, displacement, rotation, force, torque) over the reference's items,
   or 1 (m, rad, N, N m) when all are 0. An item missing from the report, of another length
   or with a null number fails, as does a report that did not converge
   (convergence.converged) when the reference did. rtol: opts->rtol, or the reference's
   top-level `rtol` when opts->rtol_given is 0; the MAC, --modes and --ignore-kinds do not
   apply. Prints a table per quantity, the failed items and "compare: N items ok, N
   failed" to out (may be NULL). Returns 0, MB_EREGRESS, MB_EIO, MB_EDECK
   (file:line:col), MB_ENOMEM. Rank 0 only. */
int compare_static_reports (const char *path_a, const char *path_b, const compare_opts *opts,
                            FILE *out, mb_err *err);

#endif
