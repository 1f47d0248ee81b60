/* error.c: the error context: first error wins, printed compiler style. */
#include "error.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void mb_err_init (mb_err *e)
{
  memset (e, 0, sizeof *e);
}

static int set_error (mb_err *e, int code, const char *where, const char *fmt, va_list ap)
{
  if (!e || e->code != 0) return code;  /* keep the first error */
  e->code = code;
  snprintf (e->where, sizeof e->where, "%s", where ? where : "");
  vsnprintf (e->msg, sizeof e->msg, fmt, ap);
  return code;
}

int mb_fail (mb_err *e, int code, const char *fmt, ...)
{
  va_list ap;
  va_start (ap, fmt);
  set_error (e, code, NULL, fmt, ap);
  va_end (ap);
  return code;
}

int mb_fail_at (mb_err *e, int code, const char *path, size_t line, size_t col,
                const char *fmt, ...)
{
  char where[512];
  if (line == 0) snprintf (where, sizeof where, "%s", path ? path : "");
  else if (col == 0) snprintf (where, sizeof where, "%s:%zu", path ? path : "", line);
  else snprintf (where, sizeof where, "%s:%zu:%zu", path ? path : "", line, col);
  va_list ap;
  va_start (ap, fmt);
  set_error (e, code, where, fmt, ap);
  va_end (ap);
  return code;
}

void mb_err_print (const mb_err *e)
{
  if (!e || e->code == 0) return;
  if (e->where[0]) fprintf (stderr, "mbmodal: %s: error: %s\n", e->where, e->msg);
  else fprintf (stderr, "mbmodal: error: %s\n", e->msg);
}

int mb_exit_status (int code)
{
  switch (code) {
  case MB_OK: return 0;
  case MB_EUSAGE: return 1;
  case MB_EDECK: return 2;
  case MB_ESOLVE: return 3;
  case MB_ENOCONV: return 4;
  case MB_EIO: return 5;
  case MB_EREGRESS: return 6;
  case MB_ENOMEM: return 7;
  default: return code < 0 ? 8 : 0;
  }
}

void *mb_calloc (size_t count, size_t size)
{
  if (count == 0 || size == 0) count = size = 1;
  if (count > SIZE_MAX / size) return NULL;
  return calloc (count, size);
}
