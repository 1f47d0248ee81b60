/* test_compare_static.c: `mbmodal compare` on static reports: pairing by name, the
   tolerance per quantity, missing, null and unconverged items, bad files. */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "report/compare.h"

static char tmpdir[] = "/tmp/mbmodal_test_compare_static_XXXXXX";
static char written[32][600];
static int nwritten;

static const char *write_text (const char *name, const char *text)
{
  char *path = written[nwritten++];
  snprintf (path, sizeof written[0], "%s/%s", tmpdir, name);
  FILE *f = fopen (path, "w");
  if (f) {
    fputs (text, f);
    fclose (f);
  }
  return path;
}

/* compare b against reference a with rtol (given when > 0); the printed text in *out
   (caller frees). */
static int run (const char *a, const char *b, double rtol, mb_err *err, char **out)
{
  compare_opts o;
  compare_opts_init (&o);
  if (rtol > 0) {
    o.rtol = rtol;
    o.rtol_given = 1;
  }
  size_t len;
  *out = NULL;
  FILE *f = open_memstream (out, &len);
  mb_err_init (err);
  int rc = compare_reports (a, b, &o, f, err);
  fclose (f);
  return rc;
}

/* The reference: 10 items. Scales (largest abs value per quantity): position 2 m,
   displacement 0.5 m, rotation 0.1 rad, force 100 N, torque 1 N m. */
static const char *ref_text =
  "format: mbmodal-report\n"
  "format_version: 1\n"
  "stage: static\n"
  "convergence:\n  converged: true\n"
  "nodes:\n"
  "  - {node: 1, name: \"a\", position: [0, 0, -1], displacement: [0, 0, -0.5],"
  " rotation: [0, 0.1, 0]}\n"
  "  - {node: 2, name: \"b\", position: [2, 0, 0]}\n"
  "joints:\n"
  "  - {name: \"j\", force: [0, 10, 0], torque: [0, 0, 0]}\n"
  "springs:\n"
  "  - {name: \"s\", kind: spring, elongation: 0.01, force: 100}\n"
  "  - name: \"bush\"\n"
  "    kind: bushing\n"
  "    nodes:\n"
  "      - {node: \"a\", force: [1, 2, 3], torque: [0, 0, 1]}\n";

/* ref_text with the first occurrence of from replaced by to, into buf. */
static const char *edit (char *buf, size_t len, const char *from, const char *to)
{
  const char *p = strstr (ref_text, from);
  if (!p) return ref_text;
  snprintf (buf, len, "%.*s%s%s", (int) (p - ref_text), ref_text, to, p + strlen (from));
  return buf;
}

static void test_pairs (void)
{
  char buf[2048], *out;
  mb_err err;
  const char *a = write_text ("a.static.yaml", ref_text);
  CHECK ("a report against itself: ok", run (a, a, 0, &err, &out) == 0);
  CHECK ("10 items ok", out && strstr (out, "compare: 10 items ok, 0 failed\n"));
  free (out);

  /* node b 1e-5 m off: the position scale is 2 m, so the tolerance is 2e-6 m at rtol
     1e-6 (fails) and 2e-5 m at 1e-5 (passes) */
  const char *b = write_text ("b.yaml", edit (buf, sizeof buf, "[2, 0, 0]", "[2, 0, 1.0e-5]"));
  CHECK ("1e-5 m off, tolerance 2e-6 m: regression", run (a, b, 0, &err, &out) == MB_EREGRESS);
  CHECK ("the item named", out && strstr (out, "FAIL node \"b\" position: differs by 1e-05 m"
                                                 " > 2e-06 m"));
  CHECK ("1 failed", out && strstr (out, "compare: 9 items ok, 1 failed"));
  free (out);
  CHECK ("1e-5 m off, tolerance 2e-5 m: ok", run (a, b, 1e-5, &err, &out) == 0);
  free (out);

  /* all torques but the bushing's 1 N m are 0: the torque scale is 1 N m */
  b = write_text ("c.yaml", edit (buf, sizeof buf, "torque: [0, 0, 0]", "torque: [0, 0, 1.0e-5]"));
  CHECK ("torque 1e-5 N m off at rtol 1e-6: regression", run (a, b, 0, &err, &out) == MB_EREGRESS);
  free (out);

  /* the order of the nodes does not matter */
  b = write_text ("d.yaml",
    "format: mbmodal-report\nstage: static\nconvergence: {converged: true}\nnodes:\n"
    "  - {name: \"b\", position: [2, 0, 0]}\n"
    "  - {name: \"a\", position: [0, 0, -1], displacement: [0, 0, -0.5], rotation: [0, 0.1, 0]}\n"
    "joints:\n  - {name: \"j\", force: [0, 10, 0], torque: [0, 0, 0]}\n"
    "springs:\n  - {name: \"s\", kind: spring, elongation: 0.01, force: 100}\n"
    "  - {name: \"bush\", kind: bushing, nodes: [{node: \"a\", force: [1, 2, 3], torque: [0, 0, 1]}]}\n"
    "  - {name: \"extra\", kind: spring, elongation: 5, force: 7}\n");
  CHECK ("reordered, one extra spring: ok", run (a, b, 0, &err, &out) == 0);
  free (out);

  /* the bushing's node force, a missing joint, a null, an unconverged report */
  b = write_text ("e.yaml", edit (buf, sizeof buf, "force: [1, 2, 3]", "force: [1, 2, 3.1]"));
  CHECK ("bushing force 0.1 N off of 100: regression", run (a, b, 0, &err, &out) == MB_EREGRESS
         && out && strstr (out, "FAIL spring \"bush/a\" force"));
  free (out);
  b = write_text ("f.yaml", edit (buf, sizeof buf, "name: \"j\"", "name: \"k\""));
  CHECK ("joint j missing: regression", run (a, b, 0, &err, &out) == MB_EREGRESS
         && out && strstr (out, "FAIL joint \"j\" force: missing in the report"));
  free (out);
  b = write_text ("g.yaml", edit (buf, sizeof buf, "force: 100", "force: null"));
  CHECK ("a null force: regression", run (a, b, 0, &err, &out) == MB_EREGRESS
         && out && strstr (out, "FAIL spring \"s\" force: null (not finite)"));
  free (out);
  b = write_text ("h.yaml", edit (buf, sizeof buf, "converged: true", "converged: false"));
  CHECK ("not converged: regression", run (a, b, 0, &err, &out) == MB_EREGRESS
         && out && strstr (out, "FAIL the report did not converge"));
  free (out);

  /* the reference's own rtol when --rtol is not given */
  const char *a2 = write_text ("a2.yaml", edit (buf, sizeof buf, "stage: static\n",
                                                "stage: static\nrtol: 1e-5\n"));
  b = write_text ("i.yaml", edit (buf, sizeof buf, "[2, 0, 0]", "[2, 0, 1.0e-5]"));
  CHECK ("reference rtol 1e-5: ok", run (a2, b, 0, &err, &out) == 0);
  free (out);
}

static void test_bad (void)
{
  char buf[2048], *out;
  mb_err err;
  const char *a = write_text ("ref.yaml", ref_text);
  const char *b = write_text ("bad.yaml", edit (buf, sizeof buf, "[2, 0, 0]", "[2, zero, 0]"));
  CHECK ("a word for a number: MB_EDECK", run (a, b, 0, &err, &out) == MB_EDECK);
  /* line 8 "  - {node: 2, name: \"b\", position: [2, zero, 0]}": zero at column 40 */
  CHECK ("at its line and column", strstr (err.where, "bad.yaml:8:40") != NULL);
  CHECK ("says what", strstr (err.msg, "position must be a finite number, not 'zero'") != NULL);
  free (out);
  b = write_text ("modal.yaml", "format: mbmodal-report\nstage: modal\nmodes: []\n");
  CHECK ("static against modal: MB_EDECK", run (a, b, 0, &err, &out) == MB_EDECK
         && strstr (err.msg, "stage 'modal' differs from the reference's stage 'static'"));
  free (out);
  b = write_text ("four.yaml", edit (buf, sizeof buf, "[2, 0, 0]", "[2, 0, 0, 1]"));
  CHECK ("4 numbers: MB_EDECK", run (a, b, 0, &err, &out) == MB_EDECK
         && strstr (err.msg, "position must hold 1 to 3 numbers"));
  free (out);
}

int main (void)
{
  if (!mkdtemp (tmpdir)) {
    printf ("cannot create a temporary folder\n");
    return 1;
  }
  test_pairs ();
  test_bad ();
  for (int i = 0; i < nwritten; i++) unlink (written[i]);
  rmdir (tmpdir);
  return CHECK_DONE ();
}
