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

/* One output file being written. It is written under a temporary name beside its final
   name (".NAME.partial.PID.N" in the same folder) and renamed over the final name only
   when complete, flushed and synced: a run that is killed or fails leaves the final name
   as it was (absent, or the previous file), never a half-written file. Fields are the
   writer's; write the text to w->f (writer_open) or to the file named w->tmp
   (writer_open_name). */
typedef struct writer {
  FILE *f;           /* the open stream (writer_open), else NULL */
  char *path;        /* final name, owned */
  char *tmp;         /* temporary name beside it, owned; exists until commit or abort */
  const char *what;  /* "the report", "the mode shapes", ... for messages; static */
} writer;

/* Starts writing path (what names it in messages, e.g. "the report"): checks it against
   the protected inputs (writer_protect) and that it is not a folder, then creates the
   temporary file. Ignores SIGXFSZ (so that a file-size limit makes writes fail with
   EFBIG instead of killing the run). Returns 0 with w->f ready, or MB_EIO (naming path:
   an input, a folder, cannot create) or MB_ENOMEM; on failure w holds nothing.
   Rank 0 only. */
int writer_open (writer *w, const char *path, const char *what, mb_err *err);

/* As writer_open, for a file that another function writes by name (mmio_write): the
   temporary file w->tmp is created empty and closed; w->f is NULL. */
int writer_open_name (writer *w, const char *path, const char *what, mb_err *err);

/* Finishes w: checks every write, flushes, fsyncs and closes the temporary file, checks
   the final name against the inputs once more, renames the temporary file over it and
   syncs the folder. On any failure the temporary file is removed and the final name is
   untouched. Releases w in every case. Returns 0 or MB_EIO naming the path and the
   system's reason (e.g. "File too large", "No space left on device"). The fault site
   "write" (mb_fault, MBMODAL_FAULT=0:write) fails a stream's commit as a full disk would;
   the site "write-stop" stops the process (SIGSTOP) with the temporary file complete but
   not renamed, for tests of stop signals during a write. */
int writer_commit (writer *w, mb_err *err);

/* Gives up w (after a failure while producing its text): closes and removes the temporary
   file, leaves the final name untouched, releases w. */
void writer_abort (writer *w);

/* Removes every temporary file that exists now (created by writer_open, writer_open_name
   or writer_check_folder, not yet renamed or removed). Async-signal-safe (atomic loads and
   unlink only): the stop-signal handler calls it before _exit, so that a run stopped while
   writing leaves no ".NAME.partial.PID.N" behind. The names stay registered (their
   writers still own them). */
void writer_remove_partials (void);

/* Records path as an input of this run (role: "the deck", "matrix K", ... for messages;
   static), by its device and inode, so that no writer replaces it: writer_open and
   writer_check refuse a target that is the same file (also through a link). A path
   that does not exist is ignored. Returns 0 or MB_ENOMEM. Rank 0 only; process-wide. */
int writer_protect (const char *path, const char *role, mb_err *err);

/* Forgets every protected input. */
void writer_protect_clear (void);

/* MB_EIO when path names a protected input (message naming both) or a folder; else 0. */
int writer_check (const char *path, const char *what, mb_err *err);

/* Checks, before anything is computed, that dir can take the files names[0 .. n-1]: makes
   dir (writer_make_dirs), checks each name with writer_check, and creates and removes the
   temporary file of each, so that a folder that is a file, read-only, full of inode, or a
   path too long for the system is found now. Returns 0, MB_EIO naming the path and the
   reason, or MB_ENOMEM. Rank 0 only. */
int writer_check_folder (const char *dir, const char *const *names, int n, mb_err *err);

/* dir "/" name as a new string (caller frees), any length; NULL when out of memory.
   dir "" or NULL gives name itself. */
char *writer_join (const char *dir, const char *name);

/* mkdir -p dir (each missing folder with mode 0777 less the umask), any length.
   Returns 0 when dir is (now) a folder, else MB_EIO naming the path that failed. */
int writer_make_dirs (const char *dir, mb_err *err);

#endif
