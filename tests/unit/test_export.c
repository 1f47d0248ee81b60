/* test_export.c: output.export_matrices on a hand-built model: the .mtx files read back
   bit for bit, the row maps (dofs.csv, constraints.csv), and deck.yaml parsed by the deck
   reader into the same matrices and stage settings. */
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "deck/deck.h"
#include "linalg/mmio.h"
#include "report/export.h"
#include "toy_model.h"

static char tmpdir[] = "/tmp/mbmodal_test_export_XXXXXX";

static const char *in_dir (const char *dir, const char *name)
{
  static char buf[4][700];
  static int k;
  k = (k + 1) % 4;
  snprintf (buf[k], sizeof buf[k], "%s/%s", dir, name);
  return buf[k];
}

/* A matrix of awkward values: A(i, j) = sin(i + 2 j) / 3 on a band, and 1e-300 on the
   diagonal of the first row (exactness of tiny numbers). */
static spm *make_matrix (int nrows, int ncols)
{
  spm *A = spm_create (nrows, ncols, 16);
  for (int i = 0; i < nrows; i++)
    for (int j = i > 0 ? i - 1 : 0; j <= i + 1 && j < ncols; j++)
      spm_add (A, i, j, i == 0 && j == 0 ? 1e-300 : sin (i + 2.0 * j) / 3.0);
  spm_compress (A);
  return A;
}

/* 1 when the file at path reads back as exactly A (same entries, same order). */
static int same_matrix (const char *path, const spm *A)
{
  spm *B = NULL;
  mb_err err;
  mb_err_init (&err);
  if (mmio_read (path, &B, &err) != 0) return 0;
  int ok = B->nrows == A->nrows && B->ncols == A->ncols && B->nnz == A->nnz;
  for (long k = 0; ok && k < A->nnz; k++)
    ok = B->row[k] == A->row[k] && B->col[k] == A->col[k]
         && memcmp (&B->val[k], &A->val[k], sizeof (double)) == 0;
  spm_free (B);
  return ok;
}

/* A deck as deck_parse would fill it for a model deck "decks/toy.yaml". */
static void make_deck (deck *d)
{
  memset (d, 0, sizeof *d);
  d->path = "decks/toy.yaml";
  d->title = "Toy \"model\"";
  d->modal = (deck_stage) { 1, 4, 1, 2.5, 0, 0, 0, 1e-9, 100, 0, 0 };
  d->damped = (deck_stage) { 1, 3, 0, 0, 1, -0.5, 3.0, 1e-8, 50, 12, 0 };
  d->output.name = "toy";
  d->output.eigenvectors = 1;
}

/* deck.yaml of dir, parsed; 0 when it parses. */
static int parse_deck (const char *dir, deck *out)
{
  const char *path = in_dir (dir, "deck.yaml");
  char *text = slurp (path);
  mb_err err;
  mb_err_init (&err);
  int rc = text ? deck_parse (text, strlen (text), path, out, &err) : -1;
  if (rc) printf ("  deck.yaml: %s: %s\n", err.where, err.msg);
  free (text);
  return rc;
}

static void test_full (model *m)
{
  char dir[700];
  snprintf (dir, sizeof dir, "%s/a/b/matrices", tmpdir);
  spm *K = make_matrix (30, 30), *M = make_matrix (30, 30), *R = make_matrix (30, 30);
  spm *Cq = make_matrix (6, 30);
  deck d;
  make_deck (&d);
  mb_err err;
  mb_err_init (&err);
  int rc = export_matrices (dir, m, K, M, R, Cq, &d, "the test state", &err);
  CHECK ("export written (folders created)", rc == 0);
  if (rc) printf ("  %s: %s\n", err.where, err.msg);
  CHECK ("K.mtx bit for bit", same_matrix (in_dir (dir, "K.mtx"), K));
  CHECK ("M.mtx bit for bit", same_matrix (in_dir (dir, "M.mtx"), M));
  CHECK ("R.mtx bit for bit", same_matrix (in_dir (dir, "R.mtx"), R));
  CHECK ("Cq.mtx bit for bit", same_matrix (in_dir (dir, "Cq.mtx"), Cq));

  /* dofs.csv: node i owns rows 6i+1 .. 6i+6 (1-based), toy nodes tip hub arm.0..arm.2 */
  char *t = slurp (in_dir (dir, "dofs.csv"));
  int lines = 0;
  for (const char *p = t; p && *p; p++) lines += *p == '\n';
  CHECK ("dofs.csv: header and 30 rows", t && lines == 31 && !strncmp (t, "row,node,dof\n", 13));
  CHECK ("dofs.csv: first rows", t && strstr (t, "row,node,dof\n1,tip,dx\n2,tip,dy\n"));
  CHECK ("dofs.csv: row 13 is arm.0 dx, row 30 arm.2 rz",
         t && strstr (t, "\n13,arm.0,dx\n") && strstr (t, "\n30,arm.2,rz\n"));
  free (t);

  /* constraints.csv: revolute about z locks v1 v2 v3 w1 w2 (rows 1..5), the distance
     joint row 6; its name holds a comma and quotes (RFC 4180 quoting) */
  t = slurp (in_dir (dir, "constraints.csv"));
  CHECK ("constraints.csv", t && !strcmp (t, "row,joint,type,dof\n"
                                               "1,hinge,revolute,dx\n"
                                               "2,hinge,revolute,dy\n"
                                               "3,hinge,revolute,dz\n"
                                               "4,hinge,revolute,rx\n"
                                               "5,hinge,revolute,ry\n"
                                               "6,\"tie, \"\"long\"\"\",distance,distance\n"));
  free (t);

  /* deck.yaml runs the same matrices with the same settings */
  deck e;
  rc = parse_deck (dir, &e);
  CHECK ("deck.yaml parses as a matrix deck", rc == 0 && !e.model.present);
  if (rc == 0) {
    CHECK ("deck.yaml names K, M, R, Cq in its folder",
         e.matrices.K && !strcmp (e.matrices.K, in_dir (dir, "K.mtx")) && e.matrices.R
           && !strcmp (e.matrices.R, in_dir (dir, "R.mtx")) && e.matrices.Cq
           && !strcmp (e.matrices.Cq, in_dir (dir, "Cq.mtx")));
    CHECK ("modal settings kept", e.modal.enabled && e.modal.modes == 4 && e.modal.has_target
                                  && e.modal.target_hz == 2.5 && e.modal.tolerance == 1e-9
                                  && e.modal.max_restarts == 100 && !e.modal.has_shift);
    CHECK ("complex settings kept", e.damped.enabled && e.damped.modes == 3 && e.damped.has_shift
                                    && e.damped.shift_re == -0.5 && e.damped.shift_im == 3.0
                                    && e.damped.tolerance == 1e-8 && e.damped.subspace == 12);
    CHECK ("title and output name", e.title && !strcmp (e.title, "Toy \"model\" (exported matrices)")
                                    && !strcmp (e.output.name, "toy-matrices"));
  }
  deck_clear (&e);
  t = slurp (in_dir (dir, "deck.yaml"));
  CHECK ("deck.yaml names its source and sizes",
         t && strstr (t, "from decks/toy.yaml") && strstr (t, "n = 30 DOFs")
           && strstr (t, "m = 6 constraint rows"));
  CHECK ("deck.yaml says which state the matrices are about",
         t && strstr (t, "\n# state: the test state\n"));
  free (t);

  /* exporting again into the same folder overwrites; without a state, no state line */
  CHECK ("export again into an existing folder", export_matrices (dir, m, K, M, R, Cq, &d, NULL, &err) == 0);
  t = slurp (in_dir (dir, "deck.yaml"));
  CHECK ("no state given: no state line", t && !strstr (t, "# state:"));
  free (t);
  spm_free (K);
  spm_free (M);
  spm_free (R);
  spm_free (Cq);
}

static void test_variants (model *m)
{
  char dir[700];
  spm *K = make_matrix (30, 30), *M = make_matrix (30, 30);
  mb_err err;
  mb_err_init (&err);
  deck d, e;

  /* complex stage enabled on an undamped model: an all-zero R.mtx, so deck.yaml runs it */
  make_deck (&d);
  snprintf (dir, sizeof dir, "%s/undamped", tmpdir);
  CHECK ("undamped export written", export_matrices (dir, m, K, M, NULL, NULL, &d, NULL, &err) == 0);
  spm *Z = spm_create (30, 30, 1);
  CHECK ("zero R.mtx (30 x 30, no entries)", same_matrix (in_dir (dir, "R.mtx"), Z));
  spm_free (Z);
  CHECK ("no Cq.mtx without Cq", access (in_dir (dir, "Cq.mtx"), F_OK) != 0);
  int rc = parse_deck (dir, &e);
  CHECK ("undamped deck.yaml parses, with R and without Cq",
         rc == 0 && e.matrices.R && !e.matrices.Cq && e.damped.enabled);
  deck_clear (&e);

  /* no deck: defaults; complex off and no R without R */
  d.damped.enabled = 0;
  snprintf (dir, sizeof dir, "%s/nodeck", tmpdir);
  CHECK ("export without a deck", export_matrices (dir, m, K, M, NULL, NULL, NULL, NULL, &err) == 0);
  CHECK ("no R.mtx without R and without a complex stage",
         access (in_dir (dir, "R.mtx"), F_OK) != 0);
  rc = parse_deck (dir, &e);
  CHECK ("default deck.yaml parses, modal only",
         rc == 0 && e.modal.enabled && !e.damped.enabled && !e.matrices.R
           && !strcmp (e.output.name, "model-matrices"));
  deck_clear (&e);

  /* a folder that cannot be made: its parent is a file */
  snprintf (dir, sizeof dir, "%s/nodeck/K.mtx/sub", tmpdir);
  mb_err_init (&err);
  CHECK ("folder under a file: MB_EIO", export_matrices (dir, m, K, M, NULL, NULL, NULL, NULL, &err) == MB_EIO);
  CHECK ("error names the path", strstr (err.where, "K.mtx") != NULL);
  snprintf (dir, sizeof dir, "%s/nodeck/K.mtx", tmpdir);
  mb_err_init (&err);
  CHECK ("export folder is a file: MB_EIO",
         export_matrices (dir, m, K, M, NULL, NULL, NULL, NULL, &err) == MB_EIO);
  spm_free (K);
  spm_free (M);
}

int main (void)
{
  if (!mkdtemp (tmpdir)) {
    printf ("cannot create a temporary folder\n");
    return 1;
  }
  model m;
  toy_model_build (&m);
  test_full (&m);
  test_variants (&m);
  model_clear (&m);
  char cmd[800];
  snprintf (cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
  if (system (cmd) != 0) printf ("could not remove %s\n", tmpdir);
  return CHECK_DONE ();
}
