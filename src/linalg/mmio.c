/* mmio.c: Matrix Market coordinate reader and writer: one pass over a buffer. */
#include "mmio.h"
#include "mmio_parts.h"

#include <errno.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#define BANNER "%%MatrixMarket matrix coordinate real general"
#define BANNER_FMT "%%%%MatrixMarket matrix coordinate real general"  /* as a format */
#define MAXTOK 6  /* tokens kept per line: the banner's 5 and one to name an extra one */

/* The text being parsed and the position in it. */
typedef struct reader {
  const char *name;  /* file name for messages */
  char *pos;         /* start of the next unread line */
  char *end;         /* end of the text; *end == '\0' */
  size_t line;       /* 1-based number of the line last read; 0 before the first */
  mb_err *err;
} reader;

/* The whitespace-separated tokens of one line. */
typedef struct tokens {
  int n;                         /* tokens found, at most MAXTOK (counting stops there) */
  char *b[MAXTOK], *e[MAXTOK];   /* token i is the bytes [b[i], e[i]) */
} tokens;

/* Blanks separate tokens; '\r' is one, so CRLF files read as LF files. */
static int is_blank (char c)
{
  return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

/* An ASCII decimal digit (isdigit depends on the locale). */
static int is_digit (char c)
{
  return c >= '0' && c <= '9';
}

/* 1 when token [b, e) equals word, ignoring ASCII case (word is lower case). */
static int word_is (const char *b, const char *e, const char *word)
{
  size_t n = strlen (word);
  if ((size_t) (e - b) != n) return 0;
  for (size_t k = 0; k < n; k++) {
    char c = b[k];
    if (c >= 'A' && c <= 'Z') c = (char) (c - 'A' + 'a');
    if (c != word[k]) return 0;
  }
  return 1;
}

/* Token [b, e) made printable for a message in buf: at most 40 bytes, others as '?'. */
static const char *show (char *buf, size_t size, const char *b, const char *e)
{
  size_t n = (size_t) (e - b), k, max = size - 4;
  for (k = 0; k < n && k < max; k++)
    buf[k] = (b[k] >= 0x20 && b[k] < 0x7f) ? b[k] : '?';
  if (n > max) memcpy (buf + k, "...", 3), k += 3;
  buf[k] = '\0';
  return buf;
}

/* Sets an MB_EDECK error at "name:line" (printf style); returns MB_EDECK. */
static int fail (reader *r, size_t line, const char *fmt, ...)
  __attribute__ ((format (printf, 3, 4)));
static int fail (reader *r, size_t line, const char *fmt, ...)
{
  char msg[768];
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (msg, sizeof msg, fmt, ap);
  va_end (ap);
  return mb_fail_at (r->err, MB_EDECK, r->name, line ? line : 1, 0, "%s", msg);
}

/* Next line [*b, *e) (without its '\n'); 0 at the end of the text. */
static int read_line (reader *r, char **b, char **e)
{
  if (r->pos >= r->end) return 0;
  char *nl = memchr (r->pos, '\n', (size_t) (r->end - r->pos));
  *b = r->pos;
  *e = nl ? nl : r->end;
  r->pos = nl ? nl + 1 : r->end;
  r->line++;
  return 1;
}

/* Splits [b, e) at blanks into t (the first MAXTOK tokens). */
static void split (char *b, char *e, tokens *t)
{
  char *p = b;
  t->n = 0;
  while (t->n < MAXTOK) {
    while (p < e && is_blank (*p)) p++;
    if (p == e) break;
    t->b[t->n] = p;
    while (p < e && !is_blank (*p)) p++;
    t->e[t->n++] = p;
  }
}

/* Tokens of the next line that is neither blank nor a comment ('%' first); 0 at the end. */
static int next_data_line (reader *r, tokens *t)
{
  char *b, *e;
  while (read_line (r, &b, &e)) {
    split (b, e, t);
    if (t->n > 0 && t->b[0][0] != '%') return 1;
  }
  return 0;
}

/* 1 when [b, e) is an optional sign followed by one or more decimal digits. */
static int is_integer (const char *b, const char *e)
{
  if (b < e && (*b == '+' || *b == '-')) b++;
  if (b == e) return 0;
  for (; b < e; b++)
    if (!is_digit (*b)) return 0;
  return 1;
}

/* Reads a size-line count from token i: what names it; min..max is its allowed range. */
static int parse_count (reader *r, const tokens *t, int i, const char *what, long min,
                        long max, long *out)
{
  char buf[48];
  const char *s = show (buf, sizeof buf, t->b[i], t->e[i]);
  if (!is_integer (t->b[i], t->e[i]))
    return fail (r, r->line, "size line: number of %s '%s' is not an integer", what, s);
  errno = 0;
  long v = strtol (t->b[i], NULL, 10);
  int big = errno == ERANGE || v > max;
  if (big && t->b[i][0] != '-')
    return fail (r, r->line, "size line: number of %s %s is too large (at most %ld)", what,
                 s, max);
  if (big || v < min)
    return fail (r, r->line, "size line: number of %s must be %s, found %s", what,
                 min > 0 ? "positive" : "zero or more", s);
  *out = v;
  return 0;
}

/* Reads a 1-based index from [b, e) into 0..n-1; what is "row" or "column". The common
   token (1 to 9 digits, no sign) is read here; any other goes through strtol and the
   messages below. */
static int parse_index (reader *r, const char *b, const char *e, const char *what, int n,
                        int *out)
{
  char buf[48];
  if (e - b >= 1 && e - b <= 9) {
    long v = 0;
    const char *p = b;
    for (; p < e && is_digit (*p); p++) v = 10 * v + (*p - '0');
    if (p == e && v >= 1 && v <= n) {
      *out = (int) (v - 1);
      return 0;
    }
  }
  if (!is_integer (b, e))
    return fail (r, r->line, "%s index '%s' is not an integer", what,
                 show (buf, sizeof buf, b, e));
  errno = 0;
  long v = strtol (b, NULL, 10);
  if (errno == ERANGE || v < 1 || v > n)
    return fail (r, r->line, "%s index %s out of range 1..%d", what,
                 show (buf, sizeof buf, b, e), n);
  *out = (int) (v - 1);
  return 0;
}

/* Exact powers of ten 10^0 .. 10^22 (each a double without rounding). */
static const double pow10_exact[23] = {
  1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15,
  1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22
};

/* The digits of a value token at *p, [digits][.digits], when there are at most 19 of them
   in all (leading zeros included): *d the integer they spell with its trailing zeros
   dropped (d < 10^19 < 2^64), *q minus the fraction's length plus the zeros dropped, so
   that the digits mean d 10^q; *digits 1 when there was a digit; *p moved past them; 1.
   With more digits: 0 and nothing set (fast_value leaves such a token to strtod). */
static int short_mantissa (const char **p, const char *e, unsigned long long *d, long *q,
                           int *digits)
{
  const char *s = *p;
  unsigned long long v = 0;
  long x = 0;
  int n = 0;
  for (; s < e && is_digit (*s); s++) {
    if (++n > 19) return 0;
    v = 10 * v + (unsigned long long) (*s - '0');
  }
  if (s < e && *s == '.')
    for (s++; s < e && is_digit (*s); s++, x--) {
      if (++n > 19) return 0;
      v = 10 * v + (unsigned long long) (*s - '0');
    }
  while (v != 0 && v % 10 == 0) v /= 10, x++;
  *d = v, *q = x, *digits = n > 0, *p = s;
  return 1;
}

#if LDBL_MANT_DIG >= 64
/* Exact powers of ten 10^0 .. 10^27 as long doubles (10^k = 5^k 2^k and 5^27 < 2^63: each
   has at most 63 significant bits, so no rounding with a significand of 64 bits or more). */
static const long double pow10_long[28] = {
  1e0L, 1e1L, 1e2L, 1e3L, 1e4L, 1e5L, 1e6L, 1e7L, 1e8L, 1e9L, 1e10L, 1e11L, 1e12L, 1e13L,
  1e14L, 1e15L, 1e16L, 1e17L, 1e18L, 1e19L, 1e20L, 1e21L, 1e22L, 1e23L, 1e24L, 1e25L,
  1e26L, 1e27L
};
#endif

/* The common value token, [+-]digits[.digits][(e|E)[+-]digits] with a digit before the
   exponent, converted without strtod when that is exact: its significant digits d (trailing
   zeros dropped; a token of more than 19 digits goes to strtod) and decimal exponent q.
   - d <= 2^53 and |q| <= 22: d and 10^|q| are doubles and v = d * 10^q or d / 10^-q is one
     correctly rounded operation: the double nearest the decimal number, which is strtod's
     result (Clinger's fast path; zero gives a signed zero).
   - Otherwise, with a long double of p >= 64 significant bits and |q| <= 27: d and 10^|q|
     are long doubles, so x = d * 10^q or d / 10^-q is the exact value t rounded once to p
     bits. Every midpoint between two adjacent doubles has at most 54 significant bits, so
     it is a long double, and rounding to p bits never carries t across one: x lies on the
     same side of each midpoint as t, or on it. When x is not a midpoint, (double) x is the
     double nearest t (strtod's result); when it is one (t itself, or t rounded onto it),
     the tie is strtod's to break. The midpoint test: x differs from v = (double) x and
     equals (v + w) / 2, w the next double from v toward x (exact in a long double).
   Results lie in [1e-27, 2^64 1e27]: normal doubles. Returns 1 and *out then; 2 when strtod
   must decide (more than 19 digits, whatever follows them; a larger exponent; a midpoint);
   0 when the token has another form (parse_value's checks and messages decide). */
static int fast_value (const char *b, const char *e, double *out)
{
  const char *p = b;
  int neg = 0;
  if (p < e && (*p == '+' || *p == '-')) neg = *p++ == '-';
  unsigned long long d;  /* the digits, trailing zeros dropped: d 10^q */
  long q;
  int digits;
  if (!short_mantissa (&p, e, &d, &q, &digits)) return 2;  /* more than 19 digits */
  if (!digits) return 0;
  if (p < e && (*p == 'e' || *p == 'E')) {
    p++;
    int eneg = 0;
    long x = 0;
    if (p < e && (*p == '+' || *p == '-')) eneg = *p++ == '-';
    if (p == e) return 0;
    for (; p < e && is_digit (*p); p++) if (x < 100000) x = 10 * x + (*p - '0');
    if (p != e) return 0;
    q += eneg ? -x : x;
  }
  if (p != e) return 0;
  if (d == 0) { *out = neg ? -0.0 : 0.0; return 1; }
  if (d <= (1ULL << 53) && q >= -22 && q <= 22) {
    double v = q < 0 ? (double) d / pow10_exact[-q] : (double) d * pow10_exact[q];
    *out = neg ? -v : v;
    return 1;
  }
#if LDBL_MANT_DIG >= 64
  if (q >= -27 && q <= 27) {
    long double x = q < 0 ? (long double) d / pow10_long[-q] : (long double) d * pow10_long[q];
    double v = (double) x;
    if (x != v) {
      double w = nextafter (v, x > v ? HUGE_VAL : -HUGE_VAL);
      if (((long double) v + w) / 2 == x) return 2;  /* a midpoint: strtod breaks the tie */
    }
    *out = neg ? -v : v;
    return 1;
  }
#endif
  return 2;
}

/* Reads a finite value from [b, e); integer_field: the banner said "integer". A real
   field's common token goes through fast_value (and strtod when that is not exact); any
   other through the checks and messages below. */
static int parse_value (reader *r, const char *b, const char *e, int integer_field,
                        double *out)
{
  char buf[48];
  if (!integer_field) {
    int f = fast_value (b, e, out);
    if (f == 1) return 0;
    if (f == 2) {
      char *stop;
      double v = strtod (b, &stop);
      if (stop == e && !isinf (v)) { *out = v; return 0; }
    }
  }
  const char *s = show (buf, sizeof buf, b, e), *p = b;
  if (p < e && (*p == '+' || *p == '-')) p++;
  if (e - p >= 3 && (word_is (p, p + 3, "nan") || word_is (p, p + 3, "inf")))
    return fail (r, r->line, "value '%s' is not finite (NaN or Inf)", s);
  if (integer_field && !is_integer (b, e))
    return fail (r, r->line, "value '%s' is not an integer (the banner says integer)", s);
  int digits = 0;
  for (p = b; p < e; p++) {
    if (is_digit (*p)) digits = 1;
    else if (!strchr ("+-.eE", *p) || *p == '\0')  /* decimal only: no hex, no names */
      return fail (r, r->line, "value '%s' is not a number", s);
  }
  char *stop;
  double v = strtod (b, &stop);  /* ERANGE on underflow is fine: v is then tiny */
  if (!digits || stop != e) return fail (r, r->line, "value '%s' is not a number", s);
  if (isinf (v)) return fail (r, r->line, "value '%s' overflows a double", s);
  *out = v;
  return 0;
}

/* Parses the banner on line 1: sets *integer_field and *symmetric. */
static int parse_banner (reader *r, int *integer_field, int *symmetric)
{
  char buf[48], *b, *e;
  tokens t;
  if (!read_line (r, &b, &e))
    return fail (r, 1, "empty file: expected the banner '" BANNER_FMT "'");
  if (e - b >= 3 && memcmp (b, "\xEF\xBB\xBF", 3) == 0) b += 3;  /* UTF-8 byte order mark */
  split (b, e, &t);
  if (e - b < 2 || b[0] != '%' || b[1] != '%')
    return fail (r, 1, "missing banner: the first line must be '" BANNER_FMT
                 "' (field real or integer, symmetry general or symmetric)");
  if (!word_is (t.b[0], t.e[0], "%%matrixmarket"))
    return fail (r, 1, "garbled banner: expected '%%%%MatrixMarket', found '%s'",
                 show (buf, sizeof buf, t.b[0], t.e[0]));
  if (t.n < 5)
    return fail (r, 1, "incomplete banner: expected '" BANNER_FMT "', found %d word%s", t.n,
                 t.n == 1 ? "" : "s");
  if (!word_is (t.b[1], t.e[1], "matrix"))
    return fail (r, 1, "unsupported object '%s' in banner: expected 'matrix'",
                 show (buf, sizeof buf, t.b[1], t.e[1]));
  if (word_is (t.b[2], t.e[2], "array"))
    return fail (r, 1, "array (dense) format is not supported: write the matrix in "
                 "coordinate format");
  if (!word_is (t.b[2], t.e[2], "coordinate"))
    return fail (r, 1, "unknown format '%s' in banner: expected 'coordinate'",
                 show (buf, sizeof buf, t.b[2], t.e[2]));
  if (word_is (t.b[3], t.e[3], "complex"))
    return fail (r, 1, "complex field is not supported: matrices must be real or integer");
  if (word_is (t.b[3], t.e[3], "pattern"))
    return fail (r, 1, "pattern field (no values) is not supported: matrices must be real "
                 "or integer");
  *integer_field = word_is (t.b[3], t.e[3], "integer");
  if (!*integer_field && !word_is (t.b[3], t.e[3], "real"))
    return fail (r, 1, "unknown field '%s' in banner: expected 'real' or 'integer'",
                 show (buf, sizeof buf, t.b[3], t.e[3]));
  if (word_is (t.b[4], t.e[4], "hermitian") || word_is (t.b[4], t.e[4], "skew-symmetric"))
    return fail (r, 1, "%s symmetry is not supported: expected 'general' or 'symmetric'",
                 show (buf, sizeof buf, t.b[4], t.e[4]));
  *symmetric = word_is (t.b[4], t.e[4], "symmetric");
  if (!*symmetric && !word_is (t.b[4], t.e[4], "general"))
    return fail (r, 1, "unknown symmetry '%s' in banner: expected 'general' or 'symmetric'",
                 show (buf, sizeof buf, t.b[4], t.e[4]));
  if (t.n > 5)
    return fail (r, 1, "extra word '%s' after the banner",
                 show (buf, sizeof buf, t.b[5], t.e[5]));
  return 0;
}

/* Reads the banner and the size line from r (r then stands just after the size line) into
   *h, with every check on them. Returns 0 or MB_EDECK (r->err set). */
static int parse_header (reader *r, mmio_header *h)
{
  char buf[48];
  tokens t;
  memset (h, 0, sizeof *h);
  MB_TRY (parse_banner (r, &h->integer_field, &h->symmetric));

  /* size line: rows columns entries */
  if (!next_data_line (r, &t))
    return fail (r, r->line, "file ends before the size line 'rows columns entries'");
  if (t.n < 3)
    return fail (r, r->line, "size line needs 3 numbers (rows columns entries), found %d",
                 t.n);
  if (t.n > 3)
    return fail (r, r->line, "extra token '%s' after the size line 'rows columns entries'",
                 show (buf, sizeof buf, t.b[3], t.e[3]));
  MB_TRY (parse_count (r, &t, 0, "rows", 1, INT_MAX, &h->nrows));
  MB_TRY (parse_count (r, &t, 1, "columns", 1, INT_MAX, &h->ncols));
  MB_TRY (parse_count (r, &t, 2, "entries", 0, LONG_MAX, &h->nnz));
  h->size_line = r->line;
  if (h->symmetric && h->nrows != h->ncols)
    return fail (r, h->size_line, "size line: a symmetric matrix must be square, found "
                 "%ld x %ld", h->nrows, h->ncols);
  /* rows, cols < 2^31, so these products fit a long long */
  long long most = h->symmetric ? (long long) h->nrows * (h->nrows + 1) / 2
                                : (long long) h->nrows * h->ncols;
  if (h->nnz > most)
    return fail (r, h->size_line, "size line: %ld entries declared but a %ld x %ld %s holds "
                 "at most %lld", h->nnz, h->nrows, h->ncols,
                 h->symmetric ? "symmetric file (lower triangle)" : "matrix", most);
  return 0;
}

/* One entry line's tokens t (read from r, line r->line) into S: checks, then A(i,j) and,
   for a symmetric file, A(j,i). Returns 0, MB_EDECK or MB_ENOMEM (r->err set). */
static int parse_entry (reader *r, const tokens *t, const mmio_header *h, spm *S)
{
  char buf[48];
  int i = 0, j = 0;
  double v = 0.0;
  if (t->n < 3)
    return fail (r, r->line, "entry needs 3 fields (row column value), found %d", t->n);
  if (t->n > 3)
    return fail (r, r->line, "extra token '%s' after the entry (row column value)",
                 show (buf, sizeof buf, t->b[3], t->e[3]));
  MB_TRY (parse_index (r, t->b[0], t->e[0], "row", S->nrows, &i));
  MB_TRY (parse_index (r, t->b[1], t->e[1], "column", S->ncols, &j));
  MB_TRY (parse_value (r, t->b[2], t->e[2], h->integer_field, &v));
  if (h->symmetric && j > i)
    return fail (r, r->line, "entry (%d,%d) is in the upper triangle: a symmetric file "
                 "holds the lower triangle only (row >= column)", i + 1, j + 1);
  int rc = spm_add (S, i, j, v);
  if (rc == 0 && h->symmetric && i != j) rc = spm_add (S, j, i, v);  /* A(j,i) = A(i,j) */
  if (rc < 0) return mb_fail (r->err, MB_ENOMEM, "out of memory reading %s", r->name);
  return 0;
}

/* A 1-based index of 1 to 9 digits (no sign) at *p, followed by a blank, within 1..n:
   *out = index - 1, *p past the digits, 1. Else 0 (*p moved). parse_index's common case. */
static int fast_index (char **p, const char *end, int n, int *out)
{
  const char *q = *p;
  long v = 0;
  while (*p < end && is_digit (**p) && *p - q < 10) v = 10 * v + (*(*p)++ - '0');
  if (*p - q < 1 || *p - q > 9 || *p == end || !is_blank (**p) || v < 1 || v > n) return 0;
  *out = (int) (v - 1);
  return 1;
}

/* The common entry line at r->pos read in one pass: blanks, a row and a column index
   (fast_index), a real value token (what parse_value accepts through fast_value, or
   through strtod when fast_value says 2), blanks, then '\n' or the end of the text; in a
   symmetric file row >= column. For such a line the general path (read_line, split,
   parse_entry) finds the same three tokens, converts them by the same code and reports no
   error, so the entry is stored here with parse_entry's spm_add calls (room for two
   entries is checked first: they cannot fail) and r moves past the line: 1. Any other line
   (comment, blank, other form, an error, an integer field) leaves r as it was: 0, and the
   general path reads it. */
static int fast_entry (reader *r, const mmio_header *h, spm *S)
{
  char *p = r->pos, *end = r->end;
  int i, j;
  double v;
  if (h->integer_field || S->nzmax - S->nnz < 2) return 0;
  while (p < end && is_blank (*p)) p++;
  if (!fast_index (&p, end, S->nrows, &i)) return 0;
  while (p < end && is_blank (*p)) p++;
  if (!fast_index (&p, end, S->ncols, &j)) return 0;
  while (p < end && is_blank (*p)) p++;
  const char *b = p;
  while (p < end && !is_blank (*p) && *p != '\n') p++;
  if (p == b) return 0;
  int f = fast_value (b, p, &v);
  if (f == 2) {  /* parse_value's strtod step */
    char *stop;
    v = strtod (b, &stop);
    if (stop != p || isinf (v)) return 0;
  } else if (f != 1) return 0;
  while (p < end && is_blank (*p)) p++;
  if ((p < end && *p != '\n') || (h->symmetric && j > i)) return 0;
  spm_add (S, i, j, v);
  if (h->symmetric && i != j) spm_add (S, j, i, v);  /* A(j,i) = A(i,j) */
  r->pos = p < end ? p + 1 : end;
  r->line++;
  return 1;
}

/* The "more entries" error at the current line of r. */
static int fail_extra (reader *r, const mmio_header *h)
{
  return fail (r, r->line, "more entries than the %ld declared on the size line (line %zu)",
               h->nnz, h->size_line);
}

/* Parses text[0..len) (text[len] == '\0'; the bytes are not modified). One cleanup exit. */
static int parse_buffer (char *text, size_t len, const char *name, spm **A, mb_err *err)
{
  reader r = { name ? name : "(matrix)", text, text + len, 0, err };
  tokens t;
  mmio_header h;
  int rc;
  spm *S = NULL;

  MB_TRY (parse_header (&r, &h));
  /* every entry line takes at least 6 bytes ("1 1 1\n"), so the text bounds the storage */
  long fit = (long) ((size_t) (r.end - r.pos) / 6 + 1);
  long room = h.nnz < fit ? h.nnz : fit;
  S = spm_create ((int) h.nrows, (int) h.ncols, h.symmetric ? 2 * room : room);
  if (!S) return mb_fail (err, MB_ENOMEM, "out of memory reading %s", r.name);

  for (long k = 0; k < h.nnz; k++) {
    if (fast_entry (&r, &h, S)) continue;
    if (!next_data_line (&r, &t)) {
      rc = fail (&r, r.line, "file ends after %ld of %ld entries", k, h.nnz);
      goto done;
    }
    if ((rc = parse_entry (&r, &t, &h, S)) < 0) goto done;
  }
  if (next_data_line (&r, &t)) {
    rc = fail_extra (&r, &h);
    goto done;
  }
  rc = 0;

done:
  if (rc < 0) S = spm_free (S);
  else *A = S;
  return rc;
}

/* Copies the text to add the NUL that strtol/strtod need, then parses the copy. */
int mmio_parse (const char *text, size_t len, const char *name, spm **A, mb_err *err)
{
  if (!text) len = 0;
  if (!name) name = "(matrix)";
  char *copy = len < SIZE_MAX ? malloc (len + 1) : NULL;  /* NUL-terminated: strtod stops */
  if (!copy) return mb_fail (err, MB_ENOMEM, "out of memory reading %s", name);
  if (len) memcpy (copy, text, len);
  copy[len] = '\0';
  int rc = parse_buffer (copy, len, name, A, err);
  free (copy);
  return rc;
}

/* fread of the whole file into one buffer (sized by fstat, grown if the file grows). */
int mmio_read (const char *path, spm **A, mb_err *err)
{
  if (!path) return mb_fail (err, MB_EIO, "cannot open a matrix file: no file name");
  FILE *f = fopen (path, "rb");
  if (!f) return mb_fail_at (err, MB_EIO, path, 0, 0, "cannot open: %s", strerror (errno));
  struct stat st;
  size_t cap = 1 << 16, len = 0;
  if (fstat (fileno (f), &st) == 0) {
    if (S_ISDIR (st.st_mode)) {
      fclose (f);
      return mb_fail_at (err, MB_EIO, path, 0, 0, "cannot read: %s", strerror (EISDIR));
    }
    if (S_ISREG (st.st_mode) && st.st_size > 0 && (uintmax_t) st.st_size < SIZE_MAX / 2)
      cap = (size_t) st.st_size + 2;  /* +1 for the NUL, +1 to see the end in one read */
  }
  char *text = malloc (cap);
  int rc = 0;
  while (text) {
    if (len + 1 == cap) {  /* full: double (the file grew or is not regular) */
      char *t = cap <= SIZE_MAX / 2 ? realloc (text, 2 * cap) : NULL;
      if (!t) { free (text); text = NULL; break; }
      text = t;
      cap *= 2;
    }
    size_t got = fread (text + len, 1, cap - 1 - len, f);
    len += got;
    if (got == 0) break;
  }
  if (!text) rc = mb_fail (err, MB_ENOMEM, "out of memory reading %s", path);
  else if (ferror (f))
    rc = mb_fail_at (err, MB_EIO, path, 0, 0, "cannot read: %s", strerror (errno));
  fclose (f);
  if (rc == 0) {
    text[len] = '\0';
    rc = parse_buffer (text, len, path, A, err);
  }
  free (text);
  return rc;
}

/* ---- the parts of a read by several ranks (mmio_parts.h; the MPI side is mmio_ranks.c) -- */

/* Reads bytes [off, off + len) of fd into buf (pread until done). Returns the bytes read
   (fewer at the end of the file) or -1 with errno. */
static long long read_at (int fd, char *buf, long long off, long long len)
{
  long long got = 0;
  while (got < len) {
    ssize_t k = pread (fd, buf + got, (size_t) (len - got), (off_t) (off + got));
    if (k < 0 && errno == EINTR) continue;
    if (k < 0) return -1;
    if (k == 0) break;
    got += k;
  }
  return got;
}

int mmio_header_read (int fd, long long size, const char *path, mmio_header *h,
                      long long *data, mb_err *err)
{
  long long cap = 1 << 16;
  for (;;) {
    long long len = cap < size ? cap : size;
    char *text = malloc ((size_t) len + 1);
    if (!text) return mb_fail (err, MB_ENOMEM, "out of memory reading %s", path);
    long long got = read_at (fd, text, 0, len);
    if (got < 0) {
      free (text);
      return mb_fail_at (err, MB_EIO, path, 0, 0, "cannot read: %s", strerror (errno));
    }
    text[got] = '\0';
    mb_err e;
    mb_err_init (&e);
    reader r = { path, text, text + got, 0, &e };
    int rc = parse_header (&r, h);
    /* final: the prefix is the file, or the line parse_header stopped at ends with its '\n'
       inside the prefix (an error there needs another line after it, so that "the file
       ends" is not said of a prefix) */
    int whole = got == size
             || (r.pos > text && r.pos[-1] == '\n' && (rc == 0 || r.pos < r.end));
    *data = (long long) (r.pos - text);
    free (text);
    if (whole) {
      if (rc < 0) *err = e;
      return rc;
    }
    if (got < len) return mb_fail_at (err, MB_EIO, path, 0, 0, "cannot read: the file shrank");
    cap *= 2;
  }
}

int mmio_share_read (int fd, long long data, long long size, long long s, long long e,
                     mmio_share *sh)
{
  memset (sh, 0, sizeof *sh);
  long long from = s > data ? s - 1 : s;  /* one byte before: is s a line start? */
  long long cap = e - from + 2;
  char *buf = malloc ((size_t) cap);
  if (!buf) { errno = ENOMEM; return -1; }
  long long got = read_at (fd, buf, from, e - from);
  if (got < 0) { free (buf); return -1; }
  long long len = got;  /* buf holds [from, from + len) */
  for (long long k = s - from; k < len; k++) sh->newlines += buf[k] == '\n';
  /* the first line that starts in [s, e) */
  long long start = s - from;
  if (s > data && len > 0 && buf[0] != '\n') {
    char *nl = memchr (buf + (s - from), '\n', (size_t) (len - (s - from)));
    start = nl ? nl - buf + 1 : len;
    sh->before = nl ? 1 : 0;
  }
  /* the end of the last line that starts before e: read on to its '\n' (or the end) */
  while (start < len && from + len < size && buf[len - 1] != '\n') {
    if (len + 4096 + 2 > cap) {
      cap = 2 * cap + 4096;
      char *t = realloc (buf, (size_t) cap);
      if (!t) { free (buf); errno = ENOMEM; return -1; }
      buf = t;
    }
    long long k = read_at (fd, buf + len, from + len, 4096);
    if (k < 0) { free (buf); return -1; }
    if (k == 0) break;
    char *nl = memchr (buf + len, '\n', (size_t) k);
    len += k;
    if (nl) { len = nl - buf + 1; break; }
  }
  for (long long k = start; k < len && from + k < e; k++)
    sh->lines += from + k == data || (k > 0 && buf[k - 1] == '\n');
  memmove (buf, buf + start, (size_t) (len - start));
  sh->len = len - start;
  buf[sh->len] = '\0';
  sh->text = buf;
  return 0;
}

long mmio_share_entries (const mmio_share *sh)
{
  /* next_data_line's test without its tokens: a line whose first non-blank byte is
     neither its end nor '%' */
  const char *p = sh->text, *end = sh->text + sh->len;
  long count = 0;
  while (p < end) {
    while (p < end && is_blank (*p)) p++;
    if (p < end && *p != '\n' && *p != '%') count++;
    const char *nl = p < end ? memchr (p, '\n', (size_t) (end - p)) : NULL;
    p = nl ? nl + 1 : end;
  }
  return count;
}

int mmio_share_parse (const char *path, const mmio_share *sh, size_t first_line,
                      const mmio_header *h, long first, spm *S, size_t *line, mb_err *err)
{
  reader r = { path, sh->text, sh->text + sh->len, first_line - 1, err };
  tokens t;
  int rc = 0;
  for (long k = 0; rc == 0; k++) {
    if (first + k < h->nnz && fast_entry (&r, h, S)) continue;
    if (!next_data_line (&r, &t)) break;
    rc = first + k >= h->nnz ? fail_extra (&r, h) : parse_entry (&r, &t, h, S);
  }
  *line = r.line;
  return rc;
}

int mmio_fail_short (const char *path, size_t last_line, long got, const mmio_header *h,
                     mb_err *err)
{
  reader r = { path, NULL, NULL, last_line, err };
  return fail (&r, last_line, "file ends after %ld of %ld entries", got, h->nnz);
}

/* fprintf per entry; the first failing call (or fclose) gives the message. */
int mmio_write (const char *path, const spm *A, mb_err *err)
{
  if (!path) return mb_fail (err, MB_EIO, "cannot write a matrix file: no file name");
  if (!A) return mb_fail_at (err, MB_EIO, path, 0, 0, "cannot write: no matrix");
  FILE *f = fopen (path, "w");
  if (!f)
    return mb_fail_at (err, MB_EIO, path, 0, 0, "cannot open for writing: %s",
                       strerror (errno));
  int bad = 0, e = 0;  /* a write failed; errno of the first failure */
  if (fputs (BANNER "\n", f) < 0
      || fprintf (f, "%d %d %ld\n", A->nrows, A->ncols, A->nnz) < 0)
    bad = 1, e = errno;
  for (long k = 0; k < A->nnz && !bad; k++)
    if (fprintf (f, "%d %d %.17g\n", A->row[k] + 1, A->col[k] + 1, A->val[k]) < 0)
      bad = 1, e = errno;  /* %.17g: 17 significant digits give back every double exactly */
  if (fclose (f) != 0 && !bad) bad = 1, e = errno;
  if (bad)
    return mb_fail_at (err, MB_EIO, path, 0, 0, "cannot write: %s",
                       e ? strerror (e) : "output error");
  return 0;
}
