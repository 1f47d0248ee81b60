/* test_writer.c: the one writer of src/report: numbers that read back exactly, YAML quoting
   read back by libyaml, and output files that appear only when complete (temporary name
   and rename), never over an input, with folders and long paths checked up front. */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <yaml.h>

#include "check.h"
#include "report/writer.h"

static char tmpdir[] = "/tmp/mbmodal_test_writer_XXXXXX";

/* tmpdir/name in a static buffer (one at a time per slot). */
static const char *in_tmp (const char *name, int slot)
{
  static char buf[4][600];
  snprintf (buf[slot], sizeof buf[slot], "%s/%s", tmpdir, name);
  return buf[slot];
}

static void put_file (const char *path, const char *text)
{
  FILE *f = fopen (path, "w");
  if (!f) return;
  fputs (text, f);
  fclose (f);
}

/* Files in tmpdir/sub whose names start with '.' and hold ".partial." (left-over
   temporary files). */
static int count_partial (const char *dir)
{
  char cmd[700];
  snprintf (cmd, sizeof cmd, "ls -A '%s' | grep -c '^\\..*\\.partial\\.' > '%s/count.txt'",
            dir, tmpdir);
  if (system (cmd) < 0) return -1;
  char *t = slurp (in_tmp ("count.txt", 3));
  int n = t ? atoi (t) : -1;
  free (t);
  return n;
}

/* ---------------------------------------------------------------- numbers */

static void test_numbers (void)
{
  char b[WRITER_NUM_LEN];
  /* expected strings: C's %g rules and the YAML 1.1 float syntax (the ".0" is needed by
     PyYAML's resolver: [-+]?([0-9][0-9_]*)?\.[0-9.]*([eE][-+][0-9]+)?) */
  static const struct { double v; int style; const char *want; } cases[] = {
    { 0.1, WRITER_YAML, "0.1" },
    { 1e-10, WRITER_YAML, "1.0e-10" },
    { 1e-10, WRITER_SHORTEST, "1e-10" },
    { 2.5e300, WRITER_YAML, "2.5e+300" },
    { 3e300, WRITER_YAML, "3.0e+300" },
    { 1.0 / 3.0, WRITER_YAML, "0.3333333333333333" },      /* needs 16 digits */
    { 0.1 + 0.2, WRITER_YAML, "0.30000000000000004" },     /* needs 17 digits */
    { INFINITY, WRITER_YAML, "null" },
    { NAN, WRITER_YAML, "null" },
    { -0.0, WRITER_DIGITS17, "0" },
    { NAN, WRITER_DIGITS17, "0" },
    { 0.1, WRITER_DIGITS17, "0.10000000000000001" },
    { 42, WRITER_SHORTEST, "42" },
  };
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    writer_format_real (b, cases[i].v, cases[i].style);
    char d[80];
    snprintf (d, sizeof d, "number case %zu gives %s", i, cases[i].want);
    CHECK (d, !strcmp (b, cases[i].want));
  }
  /* every finite double reads back exactly (strtod is the judge), in every style; with the
     fewest digits: 15 when 15 suffice */
  uint64_t s = 0x9E3779B97F4A7C15u;
  int exact = 1, shortest = 1, n = 0;
  for (int k = 0; k < 200000; k++) {
    s ^= s << 13, s ^= s >> 7, s ^= s << 17;  /* xorshift64: random bit patterns */
    double v;
    memcpy (&v, &s, sizeof v);
    if (!isfinite (v)) continue;
    n++;
    for (int st = WRITER_SHORTEST; st <= WRITER_DIGITS17; st++) {
      writer_format_real (b, v, st);
      if (strtod (b, NULL) != v && !(v == 0 && st == WRITER_DIGITS17)) exact = 0;
    }
    char b15[40];
    snprintf (b15, sizeof b15, "%.15g", v);
    writer_format_real (b, v, WRITER_SHORTEST);
    if (strtod (b15, NULL) == v && strcmp (b, b15)) shortest = 0;
  }
  CHECK ("random doubles read back exactly in all three styles", exact && n > 100000);
  CHECK ("15 digits when 15 suffice", shortest);
}

/* ---------------------------------------------------------------- strings */

/* Writes s (+ suffix) as "k: QUOTED" and reads it back with libyaml; 1 when the value is
   want exactly. */
static int quoted_reads_back (const char *s, const char *suffix, const char *want)
{
  const char *path = in_tmp ("q.yaml", 0);
  FILE *f = fopen (path, "w");
  if (!f) return 0;
  fputs ("k: ", f);
  writer_put_quoted (f, s, suffix);
  fputs ("\n", f);
  fclose (f);
  f = fopen (path, "rb");
  yaml_parser_t p;
  yaml_document_t doc;
  int ok = 0;
  yaml_parser_initialize (&p);
  yaml_parser_set_input_file (&p, f);
  if (yaml_parser_load (&p, &doc)) {
    yaml_node_t *root = yaml_document_get_root_node (&doc);
    if (root && root->type == YAML_MAPPING_NODE) {
      yaml_node_t *v = yaml_document_get_node (&doc, root->data.mapping.pairs.start->value);
      ok = v && v->type == YAML_SCALAR_NODE && v->data.scalar.length == strlen (want)
           && !memcmp (v->data.scalar.value, want, strlen (want));
    }
    yaml_document_delete (&doc);
  }
  yaml_parser_delete (&p);
  fclose (f);
  return ok;
}

static void test_strings (void)
{
  CHECK ("plain text", quoted_reads_back ("beam 1", NULL, "beam 1"));
  CHECK ("quotes, backslash, line breaks, tab",
         quoted_reads_back ("a \"b\" \\c\nd\te\rf", NULL, "a \"b\" \\c\nd\te\rf"));
  CHECK ("suffix joined inside the quotes",
         quoted_reads_back ("Toy \"model\"", " (exported matrices)",
                            "Toy \"model\" (exported matrices)"));
  CHECK ("UTF-8 kept (e acute, CJK, emoji)",
         quoted_reads_back ("\xC3\xA9 \xE4\xB8\xAD \xF0\x9F\x98\x80", NULL,
                            "\xC3\xA9 \xE4\xB8\xAD \xF0\x9F\x98\x80"));
  CHECK ("controls and U+2028 escaped", quoted_reads_back ("\x01\x7F\xE2\x80\xA8", NULL,
                                                            "\x01\x7F\xE2\x80\xA8"));
  /* an invalid byte is written as \xFF, which YAML reads as U+00FF (UTF-8 C3 BF) */
  CHECK ("invalid UTF-8 stays valid YAML", quoted_reads_back ("a\xFFz", NULL, "a\xC3\xBFz"));
  CHECK ("NULL is the empty string", quoted_reads_back (NULL, NULL, ""));
}

/* ---------------------------------------------------------------- files */

static void test_commit_and_abort (void)
{
  mb_err err;
  mb_err_init (&err);
  const char *path = in_tmp ("r.yaml", 1);
  put_file (path, "old\n");
  writer w;
  CHECK ("open", writer_open (&w, path, "the report", &err) == 0 && w.f && w.tmp);
  fputs ("new\n", w.f);
  fflush (w.f);
  char *t = slurp (path);
  CHECK ("while writing, the final name keeps the old file", t && !strcmp (t, "old\n"));
  free (t);
  CHECK ("temporary file beside it", count_partial (tmpdir) == 1);
  CHECK ("commit", writer_commit (&w, &err) == 0);
  t = slurp (path);
  CHECK ("after commit, the new text", t && !strcmp (t, "new\n"));
  free (t);
  CHECK ("no temporary file left", count_partial (tmpdir) == 0);
  struct stat st;
  mode_t um = umask (0);
  umask (um);
  CHECK ("mode 0666 less the umask, as fopen gives",
         stat (path, &st) == 0 && (st.st_mode & 0777) == (0666 & ~um));

  CHECK ("open again", writer_open (&w, path, "the report", &err) == 0);
  fputs ("half", w.f);
  writer_abort (&w);
  t = slurp (path);
  CHECK ("abort: final name untouched", t && !strcmp (t, "new\n"));
  free (t);
  CHECK ("abort: temporary file removed", count_partial (tmpdir) == 0);

  /* written by name (as mmio_write does) */
  CHECK ("open by name", writer_open_name (&w, path, "K.mtx", &err) == 0 && !w.f && w.tmp);
  put_file (w.tmp, "by name\n");
  CHECK ("commit by name", writer_commit (&w, &err) == 0);
  t = slurp (path);
  CHECK ("by name: the new text", t && !strcmp (t, "by name\n"));
  free (t);

  /* a write failure at commit (fault site "write", as a full disk) */
  mb_fault_set ("0:write");
  CHECK ("open before a failing write", writer_open (&w, path, "the report", &err) == 0);
  fputs ("lost\n", w.f);
  int rc = writer_commit (&w, &err);
  mb_fault_set (NULL);
  CHECK ("failing write: MB_EIO with the reason",
         rc == MB_EIO && strstr (err.msg, "No space left") && strstr (err.where, "r.yaml"));
  t = slurp (path);
  CHECK ("failing write: the old file stays", t && !strcmp (t, "by name\n"));
  free (t);
  CHECK ("failing write: temporary file removed", count_partial (tmpdir) == 0);

  mb_err_init (&err);
  CHECK ("a folder where the file should go: MB_EIO",
         writer_open (&w, tmpdir, "the report", &err) == MB_EIO && strstr (err.msg, "folder"));
  mb_err_init (&err);
  CHECK ("a missing folder: MB_EIO naming the path",
         writer_open (&w, in_tmp ("no/such/r.yaml", 1), "the report", &err) == MB_EIO
           && strstr (err.where, "no/such/r.yaml"));
}

/* A child writes a large file and is killed (SIGKILL) in the middle: the final name
   keeps the old text. */
static void test_killed (void)
{
  const char *path = in_tmp ("killed.yaml", 1);
  put_file (path, "complete\n");
  fflush (stdout);
  pid_t pid = fork ();
  if (pid == 0) {
    mb_err err;
    mb_err_init (&err);
    writer w;
    if (writer_open (&w, path, "the report", &err) != 0) _exit (3);
    for (int i = 0; i < 100000; i++) fprintf (w.f, "  - %d\n", i);
    fflush (w.f);
    raise (SIGKILL);
    _exit (4);
  }
  int status = 0;
  waitpid (pid, &status, 0);
  CHECK ("child killed while writing", WIFSIGNALED (status) && WTERMSIG (status) == SIGKILL);
  char *t = slurp (path);
  CHECK ("killed: the final name holds the old, complete file", t && !strcmp (t, "complete\n"));
  free (t);
  /* the killed process's temporary file is left, under a hidden .partial name */
  char cmd[700];
  snprintf (cmd, sizeof cmd, "rm -f '%s'/.killed.yaml.partial.*", tmpdir);
  CHECK ("killed: its temporary file has a .partial name", count_partial (tmpdir) == 1
                                                           && system (cmd) == 0);
}

/* A child under a 64 KiB file-size limit (RLIMIT_FSIZE, as ulimit -f) writes 1 MB: the
   write fails with EFBIG (not SIGXFSZ), commit says so, and no file is left. */
static void test_file_size_limit (void)
{
  const char *path = in_tmp ("big.yaml", 1);
  unlink (path);
  fflush (stdout);
  pid_t pid = fork ();
  if (pid == 0) {
    struct rlimit rl = { 65536, 65536 };
    if (setrlimit (RLIMIT_FSIZE, &rl) != 0) _exit (3);
    mb_err err;
    mb_err_init (&err);
    writer w;
    if (writer_open (&w, path, "the report", &err) != 0) _exit (4);
    for (int i = 0; i < 100000; i++) fprintf (w.f, "  - %09d\n", i);
    int rc = writer_commit (&w, &err);
    _exit (rc == MB_EIO && strstr (err.msg, "File too large") ? 0 : 5);
  }
  int status = 0;
  waitpid (pid, &status, 0);
  CHECK ("file-size limit: MB_EIO 'File too large', not killed by SIGXFSZ",
         WIFEXITED (status) && WEXITSTATUS (status) == 0);
  CHECK ("file-size limit: no file under the final name", access (path, F_OK) != 0);
  CHECK ("file-size limit: no temporary file left", count_partial (tmpdir) == 0);
}

static void test_inputs (void)
{
  mb_err err;
  mb_err_init (&err);
  const char *deck = in_tmp ("x.modal.yaml", 1);
  put_file (deck, "deck text\n");
  CHECK ("protect the deck", writer_protect (deck, "the deck", &err) == 0);
  CHECK ("a missing input is ignored", writer_protect (in_tmp ("none", 2), "matrix K", &err) == 0);
  writer w;
  int rc = writer_open (&w, deck, "the report", &err);
  CHECK ("writing over the deck: MB_EIO naming both",
         rc == MB_EIO && strstr (err.where, "x.modal.yaml") && strstr (err.msg, "the deck '")
           && strstr (err.msg, "x.modal.yaml'") && strstr (err.msg, "input"));
  char *t = slurp (deck);
  CHECK ("the deck is unchanged", t && !strcmp (t, "deck text\n"));
  free (t);

  /* the same file under another name: a hard link and a symbolic link */
  const char *hard = in_tmp ("hard.yaml", 2), *soft = in_tmp ("soft.yaml", 3);
  unlink (hard);
  unlink (soft);
  CHECK ("links made", link (deck, hard) == 0 && symlink (deck, soft) == 0);
  mb_err_init (&err);
  CHECK ("through a hard link: refused", writer_open (&w, hard, "the report", &err) == MB_EIO);
  mb_err_init (&err);
  CHECK ("through a symbolic link: refused", writer_open (&w, soft, "the report", &err) == MB_EIO);
  mb_err_init (&err);
  const char *names[] = { "x.modal.yaml" };
  CHECK ("the folder check finds it before any stage",
         writer_check_folder (tmpdir, names, 1, &err) == MB_EIO && strstr (err.msg, "the deck"));
  t = slurp (deck);
  CHECK ("the deck is still unchanged", t && !strcmp (t, "deck text\n"));
  free (t);
  writer_protect_clear ();
  mb_err_init (&err);
  CHECK ("after writer_protect_clear, writing there is allowed",
         writer_check (deck, "the report", &err) == 0);
  unlink (hard);
  unlink (soft);
}

static void test_folders (void)
{
  mb_err err;
  mb_err_init (&err);
  const char *names[] = { "a.modal.yaml", "a.complex.yaml" };
  CHECK ("nested folders made", writer_check_folder (in_tmp ("n1/n2//n3/", 1), names, 2, &err) == 0);
  struct stat st;
  CHECK ("the folder exists", stat (in_tmp ("n1/n2/n3", 1), &st) == 0 && S_ISDIR (st.st_mode));
  CHECK ("no probe file left", count_partial (in_tmp ("n1/n2/n3", 1)) == 0);

  const char *file = in_tmp ("plain", 1);
  put_file (file, "x");
  mb_err_init (&err);
  CHECK ("folder is a regular file: MB_EIO",
         writer_check_folder (file, names, 2, &err) == MB_EIO && strstr (err.msg, "file"));
  mb_err_init (&err);
  CHECK ("folder under a regular file: MB_EIO",
         writer_check_folder (in_tmp ("plain/sub", 1), names, 2, &err) == MB_EIO);
  mkdir (in_tmp ("n1/a.modal.yaml", 1), 0777);
  mb_err_init (&err);
  CHECK ("an output name taken by a folder: MB_EIO",
         writer_check_folder (in_tmp ("n1", 1), names, 2, &err) == MB_EIO
           && strstr (err.msg, "folder"));

  /* a folder path of 4090 characters: it can be made (each name < 256, total < 4096),
     but its files' paths are too long for the system: refused with the reason */
  size_t len = 4090;
  char *dir = malloc (len + 1);
  size_t k = (size_t) snprintf (dir, len + 1, "%s/long", tmpdir);
  while (k < len) {
    dir[k++] = '/';
    for (int j = 0; j < 200 && k < len; j++) dir[k++] = 'd';
  }
  if (dir[len - 1] == '/') dir[len - 1] = 'e';
  dir[len] = '\0';
  mb_err_init (&err);
  int rc = writer_check_folder (dir, names, 2, &err);
  CHECK ("4090-character folder: MB_EIO 'File name too long'",
         rc == MB_EIO && strstr (err.msg, "File name too long") && strstr (err.msg, "a.modal.yaml"));
  char *p = writer_join (dir, "a.modal.yaml");
  CHECK ("joined path not truncated", p && strlen (p) == len + 13 && !strcmp (p + len, "/a.modal.yaml"));
  writer w;
  mb_err_init (&err);
  CHECK ("writing there: refused, not truncated",
         writer_open (&w, p, "the report", &err) == MB_EIO);
  free (p);
  free (dir);
  char *j = writer_join ("", "x");
  CHECK ("join with an empty folder", j && !strcmp (j, "x"));
  free (j);

  /* a read-only folder: only meaningful for a user without CAP_DAC_OVERRIDE */
  const char *ro = in_tmp ("ro", 1);
  mkdir (ro, 0555);
  chmod (ro, 0555);
  if (geteuid () != 0) {
    mb_err_init (&err);
    CHECK ("read-only folder: MB_EIO 'Permission denied'",
           writer_check_folder (ro, names, 2, &err) == MB_EIO
             && strstr (err.msg, "Permission denied"));
  }
  chmod (ro, 0755);
}

int main (void)
{
  if (!mkdtemp (tmpdir)) {
    printf ("cannot create a temporary folder\n");
    return 1;
  }
  test_numbers ();
  test_strings ();
  test_commit_and_abort ();
  test_killed ();
  test_file_size_limit ();
  test_inputs ();
  test_folders ();
  char cmd[800];
  snprintf (cmd, sizeof cmd, "rm -rf '%s'", tmpdir);
  if (system (cmd) != 0) printf ("could not remove %s\n", tmpdir);
  return CHECK_DONE ();
}
