/* outputs.c: the output files of a run, found writable and distinct from its inputs before
   any stage runs (the writes themselves go through writer.c). */
#include "outputs.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "writer.h"

char *outputs_path (const char *outdir, const char *name, const char *stage, const char *ext)
{
  size_t len = strlen (name) + strlen (stage) + strlen (ext) + 3;
  char *base = malloc (len);
  if (!base) return NULL;
  snprintf (base, len, "%s.%s.%s", name, stage, ext);
  char *path = writer_join (outdir, base);
  free (base);
  return path;
}

/* Adds NAME.STAGE.EXT to names (room for 7); the strings are new (caller frees). */
static int add_name (char **names, int *n, const char *name, const char *stage,
                     const char *ext, mb_err *err)
{
  names[*n] = outputs_path (NULL, name, stage, ext);
  if (!names[*n]) return mb_fail (err, MB_ENOMEM, "out of memory for a file name");
  (*n)++;
  return 0;
}

int outputs_prepare (const deck *d, const char *deck_path, const char *outdir,
                     const char *export_dir, mb_err *err)
{
  if (!d) return mb_fail (err, MB_EIO, "no deck to prepare the outputs of");
  MB_TRY (writer_protect (deck_path ? deck_path : d->path, "the deck", err));
  const deck_matrices *dm = &d->matrices;
  MB_TRY (writer_protect (dm->K, "matrix K", err));
  MB_TRY (writer_protect (dm->M, "matrix M", err));
  MB_TRY (writer_protect (dm->R, "matrix R", err));
  MB_TRY (writer_protect (dm->Cq, "matrix Cq", err));

  char *names[7];
  int n = 0, rc = 0, vtk = d->model.present && d->output.vtk;
  const char *name = d->output.name ? d->output.name : "mbmodal";
  if (d->model.present && d->statics.present)
    rc = add_name (names, &n, name, "static", "yaml", err);
  if (rc == 0 && d->modal.enabled) {
    rc = add_name (names, &n, name, "modal", "yaml", err);
    if (rc == 0 && vtk) rc = add_name (names, &n, name, "modal", "vtu", err);
    if (rc == 0 && d->output.csv) rc = add_name (names, &n, name, "modal", "csv", err);
  }
  if (rc == 0 && d->damped.enabled) {
    rc = add_name (names, &n, name, "complex", "yaml", err);
    if (rc == 0 && vtk) rc = add_name (names, &n, name, "complex", "vtu", err);
    if (rc == 0 && d->output.csv) rc = add_name (names, &n, name, "complex", "csv", err);
  }
  if (rc == 0)
    rc = writer_check_folder (outdir ? outdir : ".", (const char *const *) names, n, err);
  for (int i = 0; i < n; i++) free (names[i]);
  if (rc < 0 || !export_dir) return rc;
  static const char *const exported[] = { "K.mtx", "M.mtx", "R.mtx", "Cq.mtx", "dofs.csv",
                                          "constraints.csv", "deck.yaml" };
  return writer_check_folder (export_dir, exported, 7, err);
}
