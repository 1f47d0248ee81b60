/* test_mmio_values.c: the Matrix Market reader's values are bit for bit glibc's strtod on
   the tokens (random doubles in many formats, long digit strings, midpoints between
   doubles and their neighbours), and its entries the same for odd line layouts. */
#include "linalg/mmio.h"
#include "check.h"

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BAN "%%MatrixMarket matrix coordinate real general\n"

/* A growing text buffer. */
typedef struct text {
  char *s;
  size_t len, cap;
} text;

static void put (text *t, const char *fmt, ...) __attribute__ ((format (printf, 2, 3)));
static void put (text *t, const char *fmt, ...)
{
  va_list ap;
  for (;;) {
    va_start (ap, fmt);
    int n = vsnprintf (t->s + t->len, t->cap - t->len, fmt, ap);
    va_end (ap);
    if (n >= 0 && (size_t) n < t->cap - t->len) { t->len += (size_t) n; return; }
    t->cap = 2 * t->cap + (size_t) (n > 0 ? n : 64) + 1;
    t->s = realloc (t->s, t->cap);
    if (!t->s) { printf ("out of memory\n"); exit (1); }
  }
}

/* xorshift64: the tokens are the same on every run. */
static uint64_t rng = 88172645463325252ULL;
static uint64_t next (void) { return xorshift64 (&rng); }

/* A random finite double: log-uniform magnitude 1e-40 .. 1e40 (most), or random bits. */
static double random_double (void)
{
  double v;
  if (next () % 4 == 0) {
    uint64_t b = next ();
    memcpy (&v, &b, sizeof v);
    if (!isfinite (v)) v = 1.0;
  } else {
    double u = (double) (next () >> 11) / 9007199254740992.0;  /* [0, 1) */
    v = pow (10.0, -40.0 + 80.0 * u);
    if (next () % 2) v = -v;
  }
  return v;
}

/* Writes NTOK value tokens (one per line of a 1-column matrix) into t and their strings
   into tok (each at most 63 bytes). */
#define NTOK 120000
static char tok[NTOK][64];

static void make_tokens (void)
{
  static const char *fmts[] = { "%.17g", "%.16e", "%.15e", "%.17e", "%.18e", "%.20e",
                                "%.10e", "%.3e", "%.16E", "%.19g" };
  int k = 0;
  /* random doubles in many formats */
  for (; k < 60000; k++)
    snprintf (tok[k], sizeof tok[k], fmts[k % 10], random_double ());
  /* 15 to 19 random digits with a point and an exponent of -35 .. 35 */
  for (; k < 90000; k++) {
    char dig[20];
    int nd = 15 + (int) (next () % 5);
    for (int i = 0; i < nd; i++) dig[i] = (char) ('0' + next () % 10);
    if (dig[0] == '0') dig[0] = '1';
    dig[nd] = '\0';
    int ex = (int) (next () % 71) - 35;
    if (k % 2) snprintf (tok[k], sizeof tok[k], "%s%c.%se%+d", next () % 2 ? "-" : "", dig[0],
                         dig + 1, ex);
    else snprintf (tok[k], sizeof tok[k], "%se%d", dig, ex);
  }
  /* midpoints between adjacent doubles (exact short decimals) and the decimals one unit
     in their last digit away: (2a + 1) 2^(s - 1) for a double a 2^s, a in [2^52, 2^53),
     s = -3 .. 10 (integers below 2^64, or 1 to 3 decimals) */
  for (; k < NTOK; k++) {
    uint64_t a = (1ULL << 52) | (next () & ((1ULL << 52) - 1));
    int s = (int) (next () % 14) - 3, off = (int) (next () % 3) - 1;
    if (s >= 1) {
      uint64_t m = (2 * a + 1) << (s - 1);  /* < 2^64 for s <= 10 */
      snprintf (tok[k], sizeof tok[k], "%llu", (unsigned long long) (m + (uint64_t) off));
    } else {
      /* (2a + 1) / 2^(1 - s) = (2a + 1) 5^(1 - s) / 10^(1 - s) */
      uint64_t m = 2 * a + 1;
      int f = 1 - s;
      for (int i = 0; i < f; i++) m *= 5;  /* < 2^54 * 625 < 2^64 */
      m += (uint64_t) off;
      char dig[32];
      int nd = snprintf (dig, sizeof dig, "%llu", (unsigned long long) m);
      if (k % 2) snprintf (tok[k], sizeof tok[k], "%.*s.%s", nd - f, dig, dig + nd - f);
      else snprintf (tok[k], sizeof tok[k], "%c.%se%d", dig[0], dig + 1, nd - 1 - f);
    }
  }
}

/* The n tokens s[k] as one column of a matrix, read by mmio_parse: it parses (check
   parsed), and every value is glibc's strtod of its token bit for bit (check same; the
   first 5 that differ printed). */
static void check_against_strtod (const char *const *s, int n, const char *parsed,
                                  const char *same)
{
  text t = { NULL, 0, 0 };
  put (&t, "%s%d 1 %d\n", BAN, n, n);
  for (int k = 0; k < n; k++) put (&t, "%d 1 %s\n", k + 1, s[k]);
  mb_err err;
  mb_err_init (&err);
  spm *A = NULL;
  int rc = mmio_parse (t.s, t.len, "v.mtx", &A, &err);
  if (rc < 0) printf ("  %s\n", err.msg);
  int ok = rc == 0 && A && A->nnz == n, bad = 0;
  CHECK (parsed, ok);
  for (int k = 0; ok && k < n; k++) {
    double ref = strtod (s[k], NULL);  /* reference: glibc's strtod */
    if (memcmp (&ref, &A->val[k], sizeof ref) != 0 && bad++ < 5)
      printf ("  '%s': read %.17g, strtod %.17g\n", s[k], A->val[k], ref);
  }
  if (ok) CHECK (same, bad == 0);
  spm_free (A);
  free (t.s);
}

/* The generated tokens. */
static void check_tokens (void)
{
  static const char *s[NTOK];
  for (int k = 0; k < NTOK; k++) s[k] = tok[k];
  check_against_strtod (s, NTOK, "the value tokens parse",
                        "every value is strtod's, bit for bit");
}

/* A few hand-picked tokens: halfway cases, the largest exact powers, signed zero, tokens
   of more than 19 digits. */
static void check_special (void)
{
  static const char *s[] = {
    "9007199254740993", "9007199254740995", "4503599627370496.5", "4503599627370497.5",
    "45035996273704965e-1", "1.8446744073709551615e19", "9.999999999999999999e26",
    "1e27", "1e-27", "1.2345678901234567e-27", "1.2345678901234567e+27", "-0.0",
    "0e30", "2.2250738585072011e-308", "4.9e-324", "1.7976931348623157e308",
    "0.1", "0.30000000000000004", "123456789012345678.9e-10", "-7.0000000000000001e-1",
    /* more than 19 digit characters (left to strtod) */
    "0.0000000000000000000001234567", "1234567890123456789012345", "-100000000000000000000.0",
    "12345678901234567890000000e-10", "9007199254740993.000000000000001"
  };
  check_against_strtod (s, (int) (sizeof s / sizeof s[0]), "the special tokens parse",
                        "every special value is strtod's, bit for bit");
}

/* The same symmetric matrix in plain lines and in odd layouts (tabs, CR, leading and
   trailing blanks, signs, leading zeros, long indices, comments between entries): the
   same triplets, in the same order, with the same values. */
static void check_layouts (void)
{
  const char *plain =
    "%%MatrixMarket matrix coordinate real symmetric\n3 3 4\n"
    "1 1 4.5000000000000000e+06\n2 1 -3.6450000000000088e+06\n3 2 0.1\n3 3 7\n";
  const char *odd =
    "%%MatrixMarket matrix coordinate real symmetric\n3 3 4\n"
    "  1\t1 4.5000000000000000e+06 \r\n% a comment\n\n+2 01 -3.6450000000000088e+06\n"
    "0000000003 2 .1\t\n3 3 7.";
  mb_err err;
  mb_err_init (&err);
  spm *A = NULL, *B = NULL;
  int ra = mmio_parse (plain, strlen (plain), "p.mtx", &A, &err);
  int rb = mmio_parse (odd, strlen (odd), "o.mtx", &B, &err);
  CHECK ("plain and odd layouts parse", ra == 0 && rb == 0 && A && B);
  int same = ra == 0 && rb == 0 && A->nnz == 6 && B->nnz == 6;
  for (long k = 0; same && k < A->nnz; k++)
    same = A->row[k] == B->row[k] && A->col[k] == B->col[k]
        && memcmp (&A->val[k], &B->val[k], sizeof A->val[k]) == 0;
  CHECK ("odd layouts give the plain layout's triplets", same);
  /* reference values written by hand from the text (strtod of the decimal) */
  CHECK ("(2,1) is -3645000.0000000088 as strtod reads it",
         same && A->row[1] == 1 && A->col[1] == 0
         && A->val[1] == strtod ("-3.6450000000000088e+06", NULL));
  spm_free (A);
  spm_free (B);
}

int main (void)
{
  make_tokens ();
  check_tokens ();
  check_special ();
  check_layouts ();
  return CHECK_DONE ();
}
