/* error.c: the error context: first error wins, printed compiler style. */
#include "error.h"

#include <stdarg.h>
#include <limits.h>
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

long mb_peak_memory_bytes (void)
{
  FILE *f = fopen ("/proc/self/status", "r");
  if (!f) return -1;
  char line[256];
  long kb = -1;
  while (fgets (line, sizeof line, f))
    if (strncmp (line, "VmHWM:", 6) == 0) {  /* "VmHWM:    123456 kB" */
      char *end;
      long v = strtol (line + 6, &end, 10);
      if (end != line + 6 && v >= 0 && strstr (end, "kB")) kb = v;
      break;
    }
  fclose (f);
  return kb >= 0 && kb <= LONG_MAX / 1024 ? kb * 1024 : -1;
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

int mb_agree (MPI_Comm comm, int rc, mb_err *err)
{
  int rank;
  MPI_Comm_rank (comm, &rank);
  struct { int rc, rank; } in = { rc < 0 ? rc : 0, rank }, out;
  MPI_Allreduce (&in, &out, 1, MPI_2INT, MPI_MINLOC, comm);
  if (out.rc == 0) return 0;
  mb_err shared = *err;
  MPI_Bcast (&shared, (int) sizeof shared, MPI_BYTE, out.rank, comm);
  shared.where[sizeof shared.where - 1] = '\0';
  shared.msg[sizeof shared.msg - 1] = '\0';
  if (shared.code == 0)  /* the failing rank set no message: still say something */
    snprintf (shared.msg, sizeof shared.msg, "rank %d failed with status %d", out.rank, out.rc);
  shared.code = out.rc;
  *err = shared;
  return out.rc;
}

static int fault_cached = -1;       /* -1: MBMODAL_FAULT not read yet; 0: none; 1: spec */
static char fault_spec[256];

void mb_fault_set (const char *spec)
{
  fault_cached = spec && spec[0];
  snprintf (fault_spec, sizeof fault_spec, "%s", fault_cached ? spec : "");
}

int mb_fault (const char *site)
{
  int cached = fault_cached;
  const char *spec = fault_spec;
  if (cached < 0) {
    const char *env = getenv ("MBMODAL_FAULT");
    mb_fault_set (env);
    cached = fault_cached;
  }
  if (!cached || !site) return 0;
  int rank = 0, inited = 0;
  MPI_Initialized (&inited);
  if (inited) MPI_Comm_rank (MPI_COMM_WORLD, &rank);
  size_t len = strlen (site);
  for (const char *p = spec; *p;) {
    const char *end = strchr (p, ',');
    size_t n = end ? (size_t) (end - p) : strlen (p);
    const char *colon = memchr (p, ':', n);
    if (colon) {
      int rank_ok = (colon - p == 1 && p[0] == '*') || (colon > p && atoi (p) == rank);
      size_t sn = n - (size_t) (colon + 1 - p);
      if (rank_ok && sn == len && !memcmp (colon + 1, site, len)) return 1;
    }
    p += n + (end != NULL);
  }
  return 0;
}
