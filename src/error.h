/* error.h: status codes and the one error context every stage fills. */
#ifndef MB_ERROR_H
#define MB_ERROR_H

#include <mpi.h>
#include <stddef.h>

/* Status: 0 ok, negative error (CHOLMOD convention). Each maps to one exit status. */
enum {
  MB_OK = 0,
  MB_EUSAGE = -1,   /* bad command line                         exit 1 */
  MB_EDECK = -2,    /* deck or input file (YAML, Matrix Market,  exit 2
                       unreadable or missing) */
  MB_ESOLVE = -3,   /* linear solver failure (MUMPS, LAPACK)     exit 3 */
  MB_ENOCONV = -4,  /* static or eigen stage did not converge    exit 4 */
  MB_EIO = -5,      /* cannot write an output                    exit 5 */
  MB_EREGRESS = -6, /* compare found a regression                exit 6 */
  MB_ENOMEM = -7    /* out of memory                             exit 7 */
};

/* The first error of a run: where it is and what is wrong. Keep the first one set. */
typedef struct mb_err {
  int code;        /* MB_E*, 0 when no error was set */
  char where[512]; /* "decks/frame.yaml:12:7", "K.mtx:40", "matrix K", or "" */
  char msg[1024];  /* one sentence, no trailing newline */
} mb_err;

/* Clears e. */
void mb_err_init (mb_err *e);

/* Sets code and message (printf style) unless an error is already set; returns code. */
int mb_fail (mb_err *e, int code, const char *fmt, ...)
  __attribute__ ((format (printf, 3, 4)));

/* As mb_fail with a position: where = "path:line:col" (line, col 1-based; col 0 omits it,
   line 0 omits both). Returns code. */
int mb_fail_at (mb_err *e, int code, const char *path, size_t line, size_t col,
                const char *fmt, ...) __attribute__ ((format (printf, 6, 7)));

/* Prints "mbmodal: where: error: msg\n" (or without where) to stderr. */
void mb_err_print (const mb_err *e);

/* Exit status for a status code: 0 for MB_OK, 1..7 as listed above. */
int mb_exit_status (int code);

/* Malloc/calloc that return NULL for zero sizes' overflow; callers check and use MB_ENOMEM. */
void *mb_calloc (size_t count, size_t size);

/* Rank-local. The peak resident memory of this process so far (VmHWM of /proc/self/status,
   the kernel's high-water mark of the resident set) [bytes], or -1 where it cannot be read
   (no /proc, another kernel). */
long mb_peak_memory_bytes (void);

/* Collective on comm. Makes one status out of every rank's rc: the lowest (most severe)
   code wins, and the message and position of the lowest rank that failed with it are
   copied into err on every rank. Returns that code (0 when every rank passed 0), the same
   on every rank. The one way a stage turns a local failure into a shared one: call it
   before any branch that leads to a collective. */
int mb_agree (MPI_Comm comm, int rc, mb_err *err);

/* Fault injection for the tests: 1 when this rank is asked to fail at `site`. The
   environment variable MBMODAL_FAULT lists RANK:SITE pairs separated by commas
   ("0:pencil,1:report"); RANK * matches every rank. Sites are named where an allocation
   is checked ("deck", "model", "assemble", "pencil", "krylov", "modes", "report", ...), and
   a site that returns 1 behaves exactly as if that allocation had failed. Unset: always 0
   (one getenv the first time, then a cached answer). */
int mb_fault (const char *site);

/* Replaces the MBMODAL_FAULT list for this process (unit tests); NULL or "" clears it. */
void mb_fault_set (const char *spec);

#define MB_TRY(x) do { int rc_ = (x); if (rc_ < 0) return rc_; } while (0)

#endif
