/* export.c: writes a model's K, M, R, Cq as Matrix Market files with the maps of their
   rows (dofs.csv, constraints.csv) and a matrix deck (deck.yaml) that runs them. */
#include "export.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../linalg/mmio.h"

#define PATH_LEN 4096

/* mkdir -p dir. Returns 0 or MB_EIO naming the folder that could not be made. */
static int make_dirs (const char *dir, mb_err *err)
{
  char path[PATH_LEN];
  if (snprintf (path, sizeof path, "%s", dir) >= (int) sizeof path)
    return mb_fail_at (err, MB_EIO, dir, 0, 0, "export: folder name too long");
  for (char *p = path + 1; *p; p++)
    if (*p == '/') {
      *p = '\0';
      if (mkdir (path, 0777) != 0 && errno != EEXIST)
        return mb_fail_at (err, MB_EIO, path, 0, 0, "cannot create the export folder: %s",
                           strerror (errno));
      *p = '/';
    }
  struct stat st;
  if (mkdir (path, 0777) != 0 && errno != EEXIST)
    return mb_fail_at (err, MB_EIO, path, 0, 0, "cannot create the export folder: %s",
                       strerror (errno));
  if (stat (path, &st) != 0 || !S_ISDIR (st.st_mode))
    return mb_fail_at (err, MB_EIO, path, 0, 0, "cannot export matrices: not a folder");
  return 0;
}

/* dir/name into buf; MB_EIO when it does not fit. */
static int join (char *buf, const char *dir, const char *name, mb_err *err)
{
  if (snprintf (buf, PATH_LEN, "%s/%s", dir, name) >= PATH_LEN)
    return mb_fail_at (err, MB_EIO, dir, 0, 0, "export: path too long for %s", name);
  return 0;
}

/* Closes f after writing path; MB_EIO when a write or the close failed. */
static int finish (FILE *f, const char *path, mb_err *err)
{
  int failed = ferror (f), saved = errno;
  if (fclose (f) != 0 && !failed) {
    failed = 1;
    saved = errno;
  }
  if (failed) return mb_fail_at (err, MB_EIO, path, 0, 0, "cannot write: %s", strerror (saved));
  return 0;
}

static int open_file (FILE **f, const char *path, mb_err *err)
{
  *f = fopen (path, "w");
  if (!*f)
    return mb_fail_at (err, MB_EIO, path, 0, 0, "cannot open for writing: %s", strerror (errno));
  return 0;
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

/* s followed by suffix as one YAML double-quoted scalar: '"' and '\' escaped, control
   bytes as \xNN; other bytes (UTF-8 text of the deck) as they are. */
static void put_yaml_quoted (FILE *f, const char *s, const char *suffix)
{
  const char *parts[2] = { s ? s : "", suffix ? suffix : "" };
  fputc ('"', f);
  for (int k = 0; k < 2; k++)
    for (const unsigned char *p = (const unsigned char *) parts[k]; *p; p++) {
      if (*p == '"' || *p == '\\') fprintf (f, "\\%c", *p);
      else if (*p < 0x20 || *p == 0x7F) fprintf (f, "\\x%02X", (unsigned) *p);
      else fputc (*p, f);
    }
  fputc ('"', f);
}

/* s in a YAML comment: control bytes (a line break would end the comment) as '?'. */
static void put_comment_text (FILE *f, const char *s)
{
  for (const unsigned char *p = (const unsigned char *) (s ? s : ""); *p; p++)
    fputc (*p < 0x20 || *p == 0x7F ? '?' : *p, f);
}

/* ---------------------------------------------------------------- row maps */

/* dofs.csv: row,node,dof. */
static int write_dofs (const char *path, const model *m, mb_err *err)
{
  FILE *f;
  MB_TRY (open_file (&f, path, err));
  fputs ("row,node,dof\n", f);
  for (int i = 0; i < m->nnodes; i++)
    for (int q = 0; q < 6; q++) {
      fprintf (f, "%ld,", 6L * i + q + 1);
      put_csv (f, m->nodes[i].name);
      fprintf (f, ",%s\n", model_dof_label (q));
    }
  return finish (f, path, err);
}

/* constraints.csv: row,joint,type,dof, rows in Cq order (first_row + k). */
static int write_constraints (const char *path, const model *m, mb_err *err)
{
  FILE *f;
  MB_TRY (open_file (&f, path, err));
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
  return finish (f, path, err);
}

/* ---------------------------------------------------------------- deck */

/* v with the fewest of 15, 16, 17 significant digits that strtod reads back exactly. */
static void put_real (FILE *f, double v)
{
  char buf[40];
  for (int digits = 15; digits <= 17; digits++) {
    snprintf (buf, sizeof buf, "%.*g", digits, v);
    if (strtod (buf, NULL) == v) break;
  }
  fputs (buf, f);
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

/* deck.yaml: the matrices and d's stage settings; with_R: R.mtx was written. */
static int write_deck (const char *path, const model *m, int with_R, int with_Cq,
                       const deck *d, mb_err *err)
{
  FILE *f;
  MB_TRY (open_file (&f, path, err));
  fputs ("# deck.yaml: matrices assembled by mbmodal", f);
  if (d && d->path) {
    fputs (" from ", f);
    put_comment_text (f, d->path);
  }
  fprintf (f, " (output.export_matrices).\n# n = %d DOFs (6 per node, rows in dofs.csv), "
           "m = %d constraint rows (constraints.csv).\n"
           "# Run: mbmodal deck.yaml (paths are relative to this folder).\n",
           6 * m->nnodes, m->nconstraints);
  if (d && d->title) {
    fputs ("title: ", f);
    put_yaml_quoted (f, d->title, " (exported matrices)");
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
  put_yaml_quoted (f, d && d->output.name ? d->output.name : "model", "-matrices");
  if (d && !d->output.eigenvectors) fputs (", eigenvectors: false", f);
  fputs ("}\n", f);
  return finish (f, path, err);
}

/* ---------------------------------------------------------------- all files */

int export_matrices (const char *dir, const model *mdl, const spm *K, const spm *M,
                     const spm *R, const spm *Cq, const deck *d, mb_err *err)
{
  if (!dir || !mdl || !K || !M)
    return mb_fail (err, MB_EIO, "export: no folder, model or matrices");
  char path[PATH_LEN];
  int n = 6 * mdl->nnodes;
  MB_TRY (make_dirs (dir, err));
  MB_TRY (join (path, dir, "K.mtx", err));
  MB_TRY (mmio_write (path, K, err));
  MB_TRY (join (path, dir, "M.mtx", err));
  MB_TRY (mmio_write (path, M, err));
  int with_R = R != NULL || (d && d->damped.enabled);
  if (with_R) {
    spm *zero = NULL;
    if (!R && !(zero = spm_create (n, n, 1)))
      return mb_fail (err, MB_ENOMEM, "out of memory for a zero R");
    MB_TRY (join (path, dir, "R.mtx", err));
    int rc = mmio_write (path, R ? R : zero, err);
    spm_free (zero);
    MB_TRY (rc);
  }
  int with_Cq = Cq != NULL && Cq->nrows > 0;
  if (with_Cq) {
    MB_TRY (join (path, dir, "Cq.mtx", err));
    MB_TRY (mmio_write (path, Cq, err));
  }
  MB_TRY (join (path, dir, "dofs.csv", err));
  MB_TRY (write_dofs (path, mdl, err));
  MB_TRY (join (path, dir, "constraints.csv", err));
  MB_TRY (write_constraints (path, mdl, err));
  MB_TRY (join (path, dir, "deck.yaml", err));
  return write_deck (path, mdl, with_R, with_Cq, d, err);
}
