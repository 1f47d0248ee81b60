/* export.c: writes a model's K, M, R, Cq as Matrix Market files with the maps of their
   rows (dofs.csv, constraints.csv) and a matrix deck (deck.yaml) that runs them. */
#include "export.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../linalg/mmio.h"
#include "writer.h"

/* Opens dir/name for writing (what names it in messages). Returns 0, MB_EIO, MB_ENOMEM. */
static int open_in (writer *w, const char *dir, const char *name, const char *what,
                    mb_err *err)
{
  char *path = writer_join (dir, name);
  if (!path) return mb_fail (err, MB_ENOMEM, "out of memory for a file name");
  int rc = writer_open (w, path, what, err);
  free (path);
  return rc;
}

/* A CSV field: as is, or double-quoted with inner quotes doubled when it holds ',', '"',
   CR or LF (RFC 4180). */
static void put_csv (FILE *f, const char *s)
{
  if (!s) s = "";
  if (!strpbrk (s, ",\"\r\n")) {
    fputs (s, f);
    return;
  }
  fputc ('"', f);
  for (; *s; s++) {
    if (*s == '"') fputc ('"', f);
    fputc (*s, f);
  }
  fputc ('"', f);
}

/* ---------------------------------------------------------------- row maps */

/* dir/dofs.csv: row,node,dof. */
static int write_dofs (const char *dir, const model *m, mb_err *err)
{
  writer w;
  MB_TRY (open_in (&w, dir, "dofs.csv", "the DOF map", err));
  FILE *f = w.f;
  fputs ("row,node,dof\n", f);
  for (int i = 0; i < m->nnodes; i++)
    for (int q = 0; q < 6; q++) {
      fprintf (f, "%ld,", 6L * i + q + 1);
      put_csv (f, m->nodes[i].name);
      fprintf (f, ",%s\n", model_dof_label (q));
    }
  return writer_commit (&w, err);
}

/* dir/constraints.csv: row,joint,type,dof, rows in Cq order (first_row + k). */
static int write_constraints (const char *dir, const model *m, mb_err *err)
{
  writer w;
  MB_TRY (open_in (&w, dir, "constraints.csv", "the constraint map", err));
  FILE *f = w.f;
  fputs ("row,joint,type,dof\n", f);
  for (int i = 0; i < m->njoints; i++) {
    const model_joint *j = &m->joints[i];
    for (int k = 0; k < j->nrows && k < 6; k++) {
      char label[96];
      model_joint_row_name (j, k, label, sizeof label);
      fprintf (f, "%d,", j->first_row + k + 1);
      put_csv (f, j->name);
      fprintf (f, ",%s,", model_joint_type_name (j->type));
      put_csv (f, label);
      fputc ('\n', f);
    }
  }
  return writer_commit (&w, err);
}

/* ---------------------------------------------------------------- deck */

/* v with the fewest of 15, 16, 17 significant digits that strtod reads back exactly. */
static void put_real (FILE *f, double v)
{
  writer_put_real (f, v, WRITER_SHORTEST);
}

/* "name: {enabled: .., modes: .., shift|target_frequency: .., tolerance: ..,
   max_restarts: .., subspace: ..}" of one stage. */
static void put_stage (FILE *f, const char *name, const deck_stage *s, int complex_stage)
{
  fprintf (f, "%s: {enabled: %s, modes: %d", name, s->enabled ? "true" : "false", s->modes);
  if (s->has_shift) {
    fputs (", shift: ", f);
    if (complex_stage) fputc ('[', f);
    put_real (f, s->shift_re);
    if (complex_stage) {
      fputs (", ", f);
      put_real (f, s->shift_im);
      fputc (']', f);
    }
  }
  else if (s->has_target) {
    fputs (", target_frequency: ", f);
    put_real (f, s->target_hz);
  }
  fputs (", tolerance: ", f);
  put_real (f, s->tolerance);
  fprintf (f, ", max_restarts: %d, subspace: %d}\n", s->max_restarts, s->subspace);
}

/* dir/deck.yaml: the matrices and d's stage settings; with_R: R.mtx was written; state
   (may be NULL): which configuration the matrices are about, as a comment line. */
static int write_deck (const char *dir, const model *m, int with_R, int with_Cq,
                       const deck *d, const char *state, mb_err *err)
{
  writer w;
  MB_TRY (open_in (&w, dir, "deck.yaml", "the matrix deck", err));
  FILE *f = w.f;
  fputs ("# deck.yaml: matrices assembled by mbmodal", f);
  if (d && d->path) {
    fputs (" from ", f);
    writer_put_comment (f, d->path);
  }
  fprintf (f, " (output.export_matrices).\n# n = %d DOFs (6 per node, rows in dofs.csv), "
           "m = %d constraint rows (constraints.csv).\n"
           "# Run: mbmodal deck.yaml (paths are relative to this folder).\n",
           6 * m->nnodes, m->nconstraints);
  if (state) {
    fputs ("# state: ", f);
    writer_put_comment (f, state);
    fputc ('\n', f);
  }
  if (d && d->title) {
    fputs ("title: ", f);
    writer_put_quoted (f, d->title, " (exported matrices)");
    fputc ('\n', f);
  }
  fputs ("matrices: {K: K.mtx, M: M.mtx", f);
  if (with_R) fputs (", R: R.mtx", f);
  if (with_Cq) fputs (", Cq: Cq.mtx", f);
  fputs ("}\n", f);
  if (d) {
    put_stage (f, "modal", &d->modal, 0);
    put_stage (f, "complex", &d->damped, 1);
  }
  else fprintf (f, "complex: {enabled: %s}\n", with_R ? "true" : "false");
  fputs ("output: {name: ", f);
  writer_put_quoted (f, d && d->output.name ? d->output.name : "model", "-matrices");
  if (d && !d->output.eigenvectors) fputs (", eigenvectors: false", f);
  fputs ("}\n", f);
  return writer_commit (&w, err);
}

/* ---------------------------------------------------------------- all files */

/* dir/name in Matrix Market format (mmio_write into the writer's temporary file). */
static int write_matrix (const char *dir, const char *name, const spm *A, mb_err *err)
{
  char *path = writer_join (dir, name);
  if (!path) return mb_fail (err, MB_ENOMEM, "out of memory for a file name");
  writer w;
  int rc = writer_open_name (&w, path, name, err);
  free (path);
  MB_TRY (rc);
  rc = mmio_write (w.tmp, A, err);  /* under the temporary name, then renamed */
  if (rc < 0) {
    writer_abort (&w);
    return rc;
  }
  return writer_commit (&w, err);
}

int export_matrices (const char *dir, const model *mdl, const spm *K, const spm *M,
                     const spm *R, const spm *Cq, const deck *d, const char *state,
                     mb_err *err)
{
  if (!dir || !mdl || !K || !M)
    return mb_fail (err, MB_EIO, "export: no folder, model or matrices");
  int n = 6 * mdl->nnodes;
  MB_TRY (writer_make_dirs (dir, err));
  MB_TRY (write_matrix (dir, "K.mtx", K, err));
  MB_TRY (write_matrix (dir, "M.mtx", M, err));
  int with_R = R != NULL || (d && d->damped.enabled);
  if (with_R) {
    spm *zero = NULL;
    if (!R && !(zero = spm_create (n, n, 1)))
      return mb_fail (err, MB_ENOMEM, "out of memory for a zero R");
    int rc = write_matrix (dir, "R.mtx", R ? R : zero, err);
    spm_free (zero);
    MB_TRY (rc);
  }
  int with_Cq = Cq != NULL && Cq->nrows > 0;
  if (with_Cq) MB_TRY (write_matrix (dir, "Cq.mtx", Cq, err));
  MB_TRY (write_dofs (dir, mdl, err));
  MB_TRY (write_constraints (dir, mdl, err));
  return write_deck (dir, mdl, with_R, with_Cq, d, state, err);
}
