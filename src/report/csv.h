/* csv.h: the table of modes of one eigen stage as CSV (output.csv), beside its YAML report. */
#ifndef MB_CSV_H
#define MB_CSV_H

#include "../error.h"
#include "../eigen/eigen.h"
#include "participation.h"

/* Writes path, one header row and one row per mode of r (docs/output.md "The CSV table"):
     modal:   mode, eigenvalue, frequency_hz, kind, residual
     complex: mode, eigenvalue_re, eigenvalue_im, frequency_hz, damped_frequency_hz,
              damping_ratio, kind, multiplicity, residual
   and, with pf (a model's undamped stage), dominant_direction, dominant_share, then
   m_eff_tx .. m_eff_rz [kg, kg m^2] and cumulative_tx .. cumulative_rz [-]; cells of a mode
   without participation are empty. Numbers as in the YAML report (the fewest of 15, 16,
   17 digits that read back exactly), so that both files hold the same doubles; a value
   that is not finite is an empty cell. Written through writer_open / writer_commit
   (temporary name, renamed when complete). pf may be NULL; pf of another mode count is
   ignored. Returns 0, MB_EIO, MB_ENOMEM. Rank 0 only. */
int csv_write_modes (const char *path, const eigen_result *r, const participation *pf,
                     mb_err *err);

#endif
