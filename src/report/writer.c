/* writer.c: numbers, YAML scalars and output files for every writer of src/report. */
#include "writer.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

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

/* ---------------------------------------------------------------- files */

int writer_open (writer *w, const char *path, const char *what, mb_err *err)
{
  memset (w, 0, sizeof *w);
  w->what = what ? what : "the output";
  if (!path || !path[0]) return mb_fail (err, MB_EIO, "cannot write %s: no file name", w->what);
  w->path = malloc (strlen (path) + 1);
  if (!w->path) return mb_fail (err, MB_ENOMEM, "out of memory for a file name");
  strcpy (w->path, path);
  w->f = fopen (path, "w");
  if (!w->f) {
    int rc = mb_fail_at (err, MB_EIO, path, 0, 0, "cannot open %s for writing: %s", w->what,
                         strerror (errno));
    free (w->path);
    w->path = NULL;
    return rc;
  }
  return 0;
}

int writer_commit (writer *w, mb_err *err)
{
  int failed = ferror (w->f), saved = errno;
  if (fclose (w->f) != 0 && !failed) {
    failed = 1;
    saved = errno;
  }
  w->f = NULL;
  int rc = 0;
  if (failed)
    rc = mb_fail_at (err, MB_EIO, w->path, 0, 0, "cannot write %s: %s", w->what,
                     strerror (saved));
  free (w->path);
  w->path = NULL;
  return rc;
}

void writer_abort (writer *w)
{
  if (w->f) fclose (w->f);
  free (w->path);
  memset (w, 0, sizeof *w);
}
