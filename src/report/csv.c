/* csv.c: the table of modes of one eigen stage as CSV (output.csv: true). */
#include "csv.h"

#include <complex.h>
#include <math.h>

#include "report.h"
#include "writer.h"

/* ",v": v as the YAML report writes it (round-trips), or "," alone when not finite. */
static void put_cell (FILE *f, double v)
{
  fputc (',', f);
  if (isfinite (v)) writer_put_real (f, v, WRITER_SHORTEST);
}

/* The header row: the columns of csv_write_modes for this stage, pf or not. */
static void put_header (FILE *f, int damped, const participation *pf)
{
  if (damped)
    fputs ("mode,eigenvalue_re,eigenvalue_im,frequency_hz,damped_frequency_hz,"
           "damping_ratio,kind,multiplicity,residual", f);
  else fputs ("mode,eigenvalue,frequency_hz,kind,residual", f);
  if (pf) {
    fputs (",dominant_direction,dominant_share", f);
    for (int k = 0; k < PARTICIPATION_DIRS; k++)
      fprintf (f, ",m_eff_%s", participation_dir_name (k));
    for (int k = 0; k < PARTICIPATION_DIRS; k++)
      fprintf (f, ",cumulative_%s", participation_dir_name (k));
  }
  fputc ('\n', f);
}

/* Row of mode i: its values in the header's order (participation cells empty when the
   mode has none: pf->has[i] = 0). */
static void put_row (FILE *f, const eigen_result *r, int i, const participation *pf)
{
  const mode *md = &r->modes[i];
  fprintf (f, "%d", i + 1);
  if (r->stage == STAGE_COMPLEX) {
    put_cell (f, creal (md->lambda));
    put_cell (f, cimag (md->lambda));
    put_cell (f, md->freq_hz);
    put_cell (f, md->damped_freq_hz);
    put_cell (f, md->zeta);
    fprintf (f, ",%s,%d", report_kind_name (md->kind),
             md->multiplicity > 1 ? md->multiplicity : 1);
  }
  else {
    put_cell (f, creal (md->lambda));
    put_cell (f, md->freq_hz);
    fprintf (f, ",%s", report_kind_name (md->kind));
  }
  put_cell (f, md->residual);
  if (pf) {
    int dir;
    double share;
    if (participation_dominant (pf, i, &dir, &share)) {
      fprintf (f, ",%s", participation_dir_name (dir));
      put_cell (f, share);
    }
    else fputs (",,", f);
    int has = pf->has && pf->has[i];
    for (int k = 0; k < PARTICIPATION_DIRS; k++)
      if (has) put_cell (f, pf->mass[(size_t) i * PARTICIPATION_DIRS + k]);
      else fputc (',', f);
    for (int k = 0; k < PARTICIPATION_DIRS; k++)
      if (has) put_cell (f, pf->cumulative[(size_t) i * PARTICIPATION_DIRS + k]);
      else fputc (',', f);
  }
  fputc ('\n', f);
}

int csv_write_modes (const char *path, const eigen_result *r, const participation *pf,
                     mb_err *err)
{
  if (!r) return mb_fail (err, MB_EIO, "no result to write to %s", path ? path : "(null)");
  if (pf && pf->nmodes != r->nmodes) pf = NULL;
  writer w;
  MB_TRY (writer_open (&w, path, "the CSV table", err));
  put_header (w.f, r->stage == STAGE_COMPLEX, pf);
  for (int i = 0; i < r->nmodes; i++) put_row (w.f, r, i, pf);
  return writer_commit (&w, err);
}
