/* writer.c: numbers, YAML scalars and output files for every writer of src/report. */
#include "writer.h"

#include <errno.h>
#include <fcntl.h>
#include <math.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* ---------------------------------------------------------------- numbers */

/* Shortest of %.15g, %.16g, %.17g that strtod reads back to v: 16 first, so that at most
   two tries are made (a number needing 17 digits fails 16 and is not tried at 15). */
static void format_shortest (char *buf, double v)
{
  snprintf (buf, WRITER_NUM_LEN, "%.16g", v);
  if (strtod (buf, NULL) == v) {
    char b15[WRITER_NUM_LEN];
    snprintf (b15, sizeof b15, "%.15g", v);
    if (strtod (b15, NULL) == v) strcpy (buf, b15);
  }
  else snprintf (buf, WRITER_NUM_LEN, "%.17g", v);
}

void writer_format_real (char *buf, double v, int style)
{
  if (style == WRITER_DIGITS17) {
    snprintf (buf, WRITER_NUM_LEN, "%.17g", isfinite (v) ? (v == 0.0 ? 0.0 : v) : 0.0);
    return;
  }
  if (style == WRITER_YAML && !isfinite (v)) {
    strcpy (buf, "null");
    return;
  }
  if (!isfinite (v)) {
    snprintf (buf, WRITER_NUM_LEN, "%g", v);
    return;
  }
  format_shortest (buf, v);
  char *e = strchr (buf, 'e');
  if (style == WRITER_YAML && e && !memchr (buf, '.', (size_t) (e - buf))) {
    memmove (e + 2, e, strlen (e) + 1);  /* room: at most 24 + 2 chars in 40 */
    e[0] = '.';
    e[1] = '0';
  }
}

void writer_put_real (FILE *f, double v, int style)
{
  char buf[WRITER_NUM_LEN];
  writer_format_real (buf, v, style);
  fputs (buf, f);
}

/* ---------------------------------------------------------------- YAML strings */

/* Length of the UTF-8 sequence starting at s (at most len bytes) and its code point in *cp;
   0 when it is not valid UTF-8 (overlong, surrogate, truncated, > U+10FFFF). */
static int utf8_decode (const unsigned char *s, size_t len, uint32_t *cp)
{
  unsigned char c = s[0];
  int n;
  uint32_t v, min;
  if (c < 0x80) { *cp = c; return 1; }
  else if ((c & 0xE0) == 0xC0) { n = 2; v = c & 0x1F; min = 0x80; }
  else if ((c & 0xF0) == 0xE0) { n = 3; v = c & 0x0F; min = 0x800; }
  else if ((c & 0xF8) == 0xF0) { n = 4; v = c & 0x07; min = 0x10000; }
  else return 0;
  if ((size_t) n > len) return 0;
  for (int k = 1; k < n; k++) {
    if ((s[k] & 0xC0) != 0x80) return 0;
    v = (v << 6) | (s[k] & 0x3F);
  }
  if (v < min || v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF)) return 0;
  *cp = v;
  return n;
}

/* Characters a YAML stream may hold unescaped (YAML 1.1 c-printable, as libyaml checks),
   minus line breaks (YAML 1.1 also breaks at U+2028, U+2029) and the two that double
   quotes must escape. */
static int yaml_plain_char (uint32_t c)
{
  if (c == '"' || c == '\\' || c == 0x2028 || c == 0x2029) return 0;
  return (c >= 0x20 && c <= 0x7E) || (c >= 0xA0 && c <= 0xD7FF)
         || (c >= 0xE000 && c <= 0xFFFD && c != 0xFEFF) || (c >= 0x10000 && c <= 0x10FFFF);
}

/* The escaped body of s (no quotes). */
static void put_escaped (FILE *f, const char *s)
{
  const unsigned char *p = (const unsigned char *) s;
  size_t len = strlen (s);
  while (len > 0) {
    uint32_t c;
    int n = utf8_decode (p, len, &c);
    if (n == 0) {
      fprintf (f, "\\x%02X", p[0]);
      n = 1;
    }
    else if (yaml_plain_char (c)) fwrite (p, 1, (size_t) n, f);
    else if (c == '"') fputs ("\\\"", f);
    else if (c == '\\') fputs ("\\\\", f);
    else if (c == '\n') fputs ("\\n", f);
    else if (c == '\t') fputs ("\\t", f);
    else if (c == '\r') fputs ("\\r", f);
    else if (c <= 0xFF) fprintf (f, "\\x%02X", (unsigned) c);
    else fprintf (f, "\\u%04X", (unsigned) c);  /* U+2028, U+2029, U+FEFF, U+FFFE, U+FFFF */
    p += n;
    len -= (size_t) n;
  }
}

void writer_put_quoted (FILE *f, const char *s, const char *suffix)
{
  fputc ('"', f);
  put_escaped (f, s ? s : "");
  if (suffix) put_escaped (f, suffix);
  fputc ('"', f);
}

void writer_put_comment (FILE *f, const char *s)
{
  for (const unsigned char *p = (const unsigned char *) (s ? s : ""); *p; p++)
    fputc (*p < 0x20 || *p == 0x7F ? '?' : *p, f);
}

/* ---------------------------------------------------------------- paths */

char *writer_join (const char *dir, const char *name)
{
  size_t ld = dir ? strlen (dir) : 0, ln = strlen (name);
  char *s = malloc (ld + ln + 2);
  if (!s) return NULL;
  if (ld > 0) {
    memcpy (s, dir, ld);
    s[ld++] = '/';
  }
  memcpy (s + ld, name, ln + 1);
  return s;
}

int writer_make_dirs (const char *dir, mb_err *err)
{
  if (!dir || !dir[0]) return mb_fail (err, MB_EIO, "no output folder given (empty name)");
  char *path = malloc (strlen (dir) + 1);
  if (!path) return mb_fail (err, MB_ENOMEM, "out of memory for a folder name");
  strcpy (path, dir);
  int rc = 0;
  for (char *p = path + 1; *p && rc == 0; p++)  /* each ancestor, then dir itself */
    if (*p == '/' && p[-1] != '/') {
      *p = '\0';
      if (mkdir (path, 0777) != 0 && errno != EEXIST)
        rc = mb_fail_at (err, MB_EIO, path, 0, 0, "cannot create the folder: %s",
                         strerror (errno));
      *p = '/';
    }
  struct stat st;
  if (rc == 0 && mkdir (path, 0777) != 0 && errno != EEXIST)
    rc = mb_fail_at (err, MB_EIO, path, 0, 0, "cannot create the folder: %s", strerror (errno));
  if (rc == 0 && stat (path, &st) != 0)
    rc = mb_fail_at (err, MB_EIO, path, 0, 0, "cannot use the folder: %s", strerror (errno));
  else if (rc == 0 && !S_ISDIR (st.st_mode))
    rc = mb_fail_at (err, MB_EIO, path, 0, 0, "cannot use it as a folder: it is a file");
  free (path);
  return rc;
}

/* ---------------------------------------------------------------- inputs */

/* The inputs of this run, by file identity (rank 0, process-wide). */
typedef struct protected_input {
  dev_t dev;
  ino_t ino;
  char *path;        /* as given, for messages; owned */
  const char *role;  /* "the deck", "matrix K", ...; static */
} protected_input;

static protected_input *inputs;
static int ninputs, cap_inputs;

int writer_protect (const char *path, const char *role, mb_err *err)
{
  struct stat st;
  if (!path || stat (path, &st) != 0) return 0;  /* not there: nothing to overwrite */
  for (int i = 0; i < ninputs; i++)
    if (inputs[i].dev == st.st_dev && inputs[i].ino == st.st_ino) return 0;
  if (ninputs == cap_inputs) {
    int cap = cap_inputs ? 2 * cap_inputs : 8;
    protected_input *t = realloc (inputs, (size_t) cap * sizeof *t);
    if (!t) return mb_fail (err, MB_ENOMEM, "out of memory listing the input files");
    inputs = t;
    cap_inputs = cap;
  }
  char *copy = malloc (strlen (path) + 1);
  if (!copy) return mb_fail (err, MB_ENOMEM, "out of memory listing the input files");
  strcpy (copy, path);
  inputs[ninputs++] = (protected_input) { st.st_dev, st.st_ino, copy, role ? role : "an input" };
  return 0;
}

void writer_protect_clear (void)
{
  for (int i = 0; i < ninputs; i++) free (inputs[i].path);
  free (inputs);
  inputs = NULL;
  ninputs = cap_inputs = 0;
}

int writer_check (const char *path, const char *what, mb_err *err)
{
  struct stat st;
  if (!what) what = "the output";
  if (!path || !path[0]) return mb_fail (err, MB_EIO, "cannot write %s: no file name", what);
  if (stat (path, &st) != 0) return 0;  /* new file (or a path the write will report) */
  for (int i = 0; i < ninputs; i++)
    if (inputs[i].dev == st.st_dev && inputs[i].ino == st.st_ino)
      return mb_fail_at (err, MB_EIO, path, 0, 0, "refusing to write %s over %s '%s', an "
                         "input of this run: choose another output folder (-o, "
                         "--export-matrices) or output.name", what, inputs[i].role,
                         inputs[i].path);
  if (S_ISDIR (st.st_mode))
    return mb_fail_at (err, MB_EIO, path, 0, 0, "cannot write %s: a folder has its name", what);
  return 0;
}

/* ---------------------------------------------------------------- files */

/* A file-size limit (ulimit -f) sends SIGXFSZ, which kills the process with no message;
   ignored, the write fails with EFBIG and becomes an I/O error. */
static void ignore_sigxfsz (void)
{
  struct sigaction sa;
  memset (&sa, 0, sizeof sa);
  sa.sa_handler = SIG_IGN;
  sigemptyset (&sa.sa_mask);
  sigaction (SIGXFSZ, &sa, NULL);
}

/* The temporary files that exist now, for writer_remove_partials (a stop signal's handler):
   a slot holds a name from its creation until it is renamed or removed. Lock-free atomic
   pointers, so that a handler that interrupts a change sees either the old or the new
   slot, never a torn one. More than LIVE_MAX files at once (never, today: one at a time)
   are left out: best effort. */
#define LIVE_MAX 16
static _Atomic (char *) live_tmp[LIVE_MAX];

/* Records name (owned by the caller, alive until unregister_tmp) in a free slot. */
static void register_tmp (char *name)
{
  for (int i = 0; i < LIVE_MAX; i++) {
    char *expect = NULL;
    if (atomic_compare_exchange_strong (&live_tmp[i], &expect, name)) return;
  }
}

/* Clears the slot of name (after it was renamed or removed, before it is freed). */
static void unregister_tmp (const char *name)
{
  for (int i = 0; i < LIVE_MAX && name; i++) {
    char *expect = (char *) name;
    if (atomic_compare_exchange_strong (&live_tmp[i], &expect, NULL)) return;
  }
}

void writer_remove_partials (void)
{
  for (int i = 0; i < LIVE_MAX; i++) {
    char *name = atomic_load (&live_tmp[i]);
    if (name) (void) unlink (name);
  }
}

/* ".NAME.partial.PID.SEQ" beside path (same folder, so that rename is atomic); a new
   string (caller frees) or NULL. */
static char *tmp_name (const char *path, unsigned long seq)
{
  const char *slash = strrchr (path, '/');
  size_t dl = slash ? (size_t) (slash - path) + 1 : 0, bl = strlen (path + dl);
  char tail[64];
  int tl = snprintf (tail, sizeof tail, ".partial.%ld.%lu", (long) getpid (), seq);
  char *s = malloc (dl + 1 + bl + (size_t) tl + 1);
  if (!s) return NULL;
  memcpy (s, path, dl);
  s[dl] = '.';
  memcpy (s + dl + 1, path + dl, bl);
  memcpy (s + dl + 1 + bl, tail, (size_t) tl + 1);
  return s;
}

/* Creates a new temporary file for path (O_EXCL, mode 0666 less the umask, as fopen
   would); its name in *tmp (caller frees). Returns the descriptor, or -1 with *tmp NULL
   and errno set (ENOMEM when a name cannot be allocated). */
static int create_tmp (const char *path, char **tmp)
{
  static unsigned long seq;
  for (int tries = 0; tries < 1000; tries++) {
    char *t = tmp_name (path, seq++);
    if (!t) {
      *tmp = NULL;
      errno = ENOMEM;
      return -1;
    }
    register_tmp (t);  /* before it exists: a stop signal may come at any point */
    int fd = open (t, O_WRONLY | O_CREAT | O_EXCL, 0666);
    if (fd >= 0) {
      *tmp = t;
      return fd;
    }
    unregister_tmp (t);
    int e = errno;
    free (t);
    errno = e;
    if (e != EEXIST) break;
  }
  *tmp = NULL;
  return -1;
}

/* writer_open and writer_open_name: stream = 1 keeps the temporary file open as w->f. */
static int open_any (writer *w, const char *path, const char *what, int stream, mb_err *err)
{
  memset (w, 0, sizeof *w);
  w->what = what ? what : "the output";
  ignore_sigxfsz ();
  MB_TRY (writer_check (path, w->what, err));
  w->path = malloc (strlen (path) + 1);
  if (!w->path) return mb_fail (err, MB_ENOMEM, "out of memory for a file name");
  strcpy (w->path, path);
  int fd = create_tmp (path, &w->tmp);
  if (fd < 0) {
    int rc = errno == ENOMEM ? mb_fail (err, MB_ENOMEM, "out of memory for a file name")
      : mb_fail_at (err, MB_EIO, path, 0, 0, "cannot create %s: %s", w->what,
                    strerror (errno));
    free (w->path);
    w->path = NULL;
    return rc;
  }
  if (stream) w->f = fdopen (fd, "w");
  else close (fd);
  if (stream && !w->f) {
    int e = errno;
    close (fd);
    writer_abort (w);
    return e == ENOMEM ? mb_fail (err, MB_ENOMEM, "out of memory for a file stream")
                       : mb_fail_at (err, MB_EIO, path, 0, 0, "cannot open %s: %s", what,
                                     strerror (e));
  }
  return 0;
}

int writer_open (writer *w, const char *path, const char *what, mb_err *err)
{
  return open_any (w, path, what, 1, err);
}

int writer_open_name (writer *w, const char *path, const char *what, mb_err *err)
{
  return open_any (w, path, what, 0, err);
}

/* fsync of a descriptor; 0 also when the file system cannot sync (EINVAL, EROFS). */
static int sync_fd (int fd)
{
  if (fsync (fd) == 0 || errno == EINVAL || errno == EROFS) return 0;
  return -1;
}

/* Syncs the folder of path so that a rename survives a crash; best effort. */
static void sync_folder (const char *path)
{
  const char *slash = strrchr (path, '/');
  char *dir = slash ? malloc ((size_t) (slash - path) + 2) : NULL;
  if (slash && !dir) return;
  if (dir) {
    size_t n = slash == path ? 1 : (size_t) (slash - path);  /* "/x": the root */
    memcpy (dir, path, n);
    dir[n] = '\0';
  }
  int fd = open (dir ? dir : ".", O_RDONLY | O_DIRECTORY);
  if (fd >= 0) {
    (void) fsync (fd);
    close (fd);
  }
  free (dir);
}

int writer_commit (writer *w, mb_err *err)
{
  int failed = 0, saved = 0;
  if (mb_fault ("write-stop")) raise (SIGSTOP);  /* tests: stopped with the file open */
  if (w->f) {
    errno = 0;
    if (fflush (w->f) != 0 || ferror (w->f)) failed = 1, saved = errno ? errno : EIO;
    else if (mb_fault ("write")) failed = 1, saved = ENOSPC;  /* as a full disk */
    else if (sync_fd (fileno (w->f)) != 0) failed = 1, saved = errno;
    if (fclose (w->f) != 0 && !failed) failed = 1, saved = errno;
    w->f = NULL;
  }
  else {  /* written by name: sync what is there */
    int fd = open (w->tmp, O_RDONLY);
    if (fd < 0 || sync_fd (fd) != 0) failed = 1, saved = errno;
    if (fd >= 0) close (fd);
  }
  int rc = 0;
  if (failed)
    rc = mb_fail_at (err, MB_EIO, w->path, 0, 0, "cannot write %s: %s", w->what,
                     strerror (saved));
  if (rc == 0) rc = writer_check (w->path, w->what, err);  /* may have appeared since */
  if (rc == 0 && rename (w->tmp, w->path) != 0)
    rc = mb_fail_at (err, MB_EIO, w->path, 0, 0, "cannot put %s in place: %s", w->what,
                     strerror (errno));
  if (rc == 0) {
    unregister_tmp (w->tmp);
    sync_folder (w->path);
    free (w->tmp);  /* renamed: nothing to remove */
    w->tmp = NULL;
  }
  writer_abort (w);
  return rc;
}

void writer_abort (writer *w)
{
  if (w->f) fclose (w->f);
  if (w->tmp) unlink (w->tmp);
  unregister_tmp (w->tmp);
  free (w->tmp);
  free (w->path);
  memset (w, 0, sizeof *w);
}

int writer_check_folder (const char *dir, const char *const *names, int n, mb_err *err)
{
  ignore_sigxfsz ();
  MB_TRY (writer_make_dirs (dir, err));
  for (int i = 0; i < n; i++) {
    char *path = writer_join (dir, names[i]), *tmp = NULL;
    if (!path) return mb_fail (err, MB_ENOMEM, "out of memory for a file name");
    int rc = writer_check (path, names[i], err), fd = -1;
    if (rc == 0 && (fd = create_tmp (path, &tmp)) < 0)
      rc = errno == ENOMEM ? mb_fail (err, MB_ENOMEM, "out of memory for a file name")
        : errno == ENAMETOOLONG
          ? mb_fail_at (err, MB_EIO, path, 0, 0, "cannot write %s in the output folder: %s "
                        "(the path has %zu characters, its temporary name more)", names[i],
                        strerror (errno), strlen (path))
          : mb_fail_at (err, MB_EIO, path, 0, 0, "cannot write %s in the output folder: %s",
                        names[i], strerror (errno));
    if (fd >= 0) {
      close (fd);
      unlink (tmp);
    }
    unregister_tmp (tmp);
    free (tmp);
    free (path);
    MB_TRY (rc);
  }
  return 0;
}
