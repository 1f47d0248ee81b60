/* writer.h: the one way outputs are written (YAML reports, VTK files, exports): numbers that
   read back exactly, YAML scalars and quoted strings, and output files opened, checked
   and finished in one place. */
#ifndef MB_WRITER_H
#define MB_WRITER_H

#include <stdio.h>

#include "../error.h"

/* How a double is printed (writer_format_real). */
enum writer_style {
  WRITER_SHORTEST,  /* the fewest of 15, 16, 17 significant digits that strtod reads back
                       to v (C's %g form: "1e-10", "0.5"); non-finite as printf prints it */
  WRITER_YAML,      /* WRITER_SHORTEST, with ".0" put before a bare exponent ("1.0e-10")
                       so that YAML 1.1 readers (PyYAML) resolve a float; "null" when v
                       is not finite */
  WRITER_DIGITS17   /* always %.17g (reads back exactly); -0 as 0; non-finite as 0 (VTK) */
};

enum { WRITER_NUM_LEN = 40 };  /* room for any formatted number, NUL included */

/* v as text in buf (WRITER_NUM_LEN chars) in the given style. */
void writer_format_real (char *buf, double v, int style);

/* writer_format_real (v, style) to f. */
void writer_put_real (FILE *f, double v, int style);

/* The YAML double-quoted scalar of the concatenation s suffix (suffix may be NULL):
   printable UTF-8 as is; '"', '\' and line breaks (\n, \r, also U+2028, U+2029) escaped;
   other C0 controls, DEL and C1 as \xNN; U+FEFF, U+FFFE, U+FFFF as \uNNNN; each byte of
   invalid UTF-8 as \xNN (read back as U+00NN: such bytes cannot round-trip). NULL s is
   "". Valid YAML 1.1 and 1.2 that libyaml and PyYAML read back to s for valid UTF-8. */
void writer_put_quoted (FILE *f, const char *s, const char *suffix);

/* s as the text of a YAML (or shell, CSV) comment: control bytes, which could end the
   comment, as '?'. NULL s prints nothing. */
void writer_put_comment (FILE *f, const char *s);

/* One output file being written. Fields are the writer's; use w->f for the text. */
typedef struct writer {
  FILE *f;           /* the open stream (writer_open), else NULL */
  char *path;        /* final name, owned */
  const char *what;  /* "the report", "the mode shapes", ... for messages; static */
} writer;

/* Opens path for writing (what names it in messages, e.g. "the report").
   Returns 0 with w->f ready, or MB_EIO (naming path) or MB_ENOMEM; on failure w holds
   nothing to release. Rank 0 only. */
int writer_open (writer *w, const char *path, const char *what, mb_err *err);

/* Finishes w: checks every write, flushes and closes; releases w in every case.
   Returns 0 or MB_EIO naming the path and the system's reason (e.g. "File too large",
   "No space left on device"). */
int writer_commit (writer *w, mb_err *err);

/* Gives up w (after a failure while producing its text): closes and releases it. */
void writer_abort (writer *w);

/* dir "/" name as a new string (caller frees), any length; NULL when out of memory.
   dir "" or NULL gives name itself. */
char *writer_join (const char *dir, const char *name);

/* mkdir -p dir (each missing folder with mode 0777 less the umask), any length.
   Returns 0 when dir is (now) a folder, else MB_EIO naming the path that failed. */
int writer_make_dirs (const char *dir, mb_err *err);

#endif
