/* test_mmio.c: Matrix Market I/O: valid files, each error with its line, round trips; the
   reader of every rank at once (mmio_read_ranks) against the one-rank reader (run on 1 and
   2 ranks by tests/run.sh, and on more by hand). */
#include "linalg/mmio.h"
#include "check.h"

#include <ctype.h>
#include <float.h>
#include <mpi.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define BAN "%%MatrixMarket matrix coordinate real general\n"
#define SYM "%%MatrixMarket matrix coordinate real symmetric\n"
#define INT "%%MatrixMarket matrix coordinate integer general\n"

/* A valid file and the dense matrix it means, written out by hand from the text. */
typedef struct good_case {
  const char *label, *text;
  int nrows, ncols;
  long nnz;          /* stored triplets after symmetric expansion */
  double dense[12];  /* row-major nrows x ncols */
} good_case;

static const good_case good[] = {
  { "general with comments and blank lines",
    BAN "% a comment\n%\n3 3 4\n\n1 1 2.5\n2 1 -1e-3\n% between entries\n3 3 4\n"
    "1 3 0.125\n\n",
    3, 3, 4, { 2.5, 0, 0.125, -0.001, 0, 0, 0, 0, 4 } },
  { "symmetric expands to both triangles, diagonal once",
    SYM "3 3 4\n1 1 4\n2 1 -1\n3 2 -2\n3 3 5\n",
    3, 3, 6, { 4, -1, 0, -1, 0, -2, 0, -2, 5 } },
  { "integer field, mixed-case banner, signs",
    "%%matrixmarket MATRIX Coordinate INTEGER General\n2 3 3\n1 2 7\n2 3 -4\n2 1 +12\n",
    2, 3, 3, { 0, 7, 0, 12, 0, -4 } },
  { "rectangular 2 x 4 (a constraint Jacobian)",
    BAN "2 4 3\n1 4 1\n2 1 -1\n2 2 0.5\n",
    2, 4, 3, { 0, 0, 0, 1, -1, 0.5, 0, 0 } },
  { "CRLF, tabs, leading blanks, indented comment, no final newline",
    "%%MatrixMarket matrix coordinate real general\r\n  % indented comment\r\n"
    "2\t2\t2\r\n\t1 1\t3\r\n 2  2   -3",
    2, 2, 2, { 3, 0, 0, -3 } },
  { "duplicates are kept and mean a sum",
    BAN "2 2 3\n1 1 1\n1 1 2\n2 1 0.25\n",
    2, 2, 3, { 3, 0, 0.25, 0 } },
  { "zero entries",
    BAN "2 2 0\n",
    2, 2, 0, { 0, 0, 0, 0 } },
  { "number spellings: 1.  .5  -.5e+1  1E2  +0",
    BAN "1 5 5\n1 1 1.\n1 2 .5\n1 3 -.5e+1\n1 4 1E2\n1 5 +0\n",
    1, 5, 5, { 1, 0.5, -5, 100, 0 } },
  { "symmetric integer with a comment after the entries",
    "%%MatrixMarket matrix coordinate integer symmetric\n2 2 2\n2 1 3\n2 2 1\n% end\n",
    2, 2, 3, { 0, 3, 3, 1 } },
};

/* A bad file: the line and a piece of the message the reader must give. */
typedef struct bad_case {
  const char *label, *text;
  size_t len;       /* 0: strlen (text) */
  size_t line;      /* expected 1-based line in err.where */
  const char *msg;  /* expected substring of err.msg */
} bad_case;

static const bad_case bad[] = {
  { "empty file", "", 0, 1, "empty file" },
  { "no banner", "3 3 1\n1 1 1\n", 0, 1, "missing banner" },
  { "banner indented", "  %%MatrixMarket matrix coordinate real general\n", 0, 1,
    "missing banner" },
  { "garbled banner", "%%MatrixMarkt matrix coordinate real general\n1 1 0\n", 0, 1,
    "garbled banner: expected '%%MatrixMarket', found '%%MatrixMarkt'" },
  { "incomplete banner", "%%MatrixMarket matrix coordinate real\n1 1 0\n", 0, 1,
    "incomplete banner" },
  { "vector object", "%%MatrixMarket vector coordinate real general\n", 0, 1,
    "unsupported object 'vector'" },
  { "array format", "%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n4\n", 0, 1,
    "array (dense) format is not supported" },
  { "unknown format", "%%MatrixMarket matrix coord real general\n", 0, 1,
    "unknown format 'coord'" },
  { "complex field", "%%MatrixMarket matrix coordinate complex general\n", 0, 1,
    "complex field is not supported" },
  { "pattern field", "%%MatrixMarket matrix coordinate pattern general\n", 0, 1,
    "pattern field (no values) is not supported" },
  { "unknown field", "%%MatrixMarket matrix coordinate double general\n", 0, 1,
    "unknown field 'double'" },
  { "hermitian", "%%MatrixMarket matrix coordinate real hermitian\n", 0, 1,
    "hermitian symmetry is not supported" },
  { "skew-symmetric", "%%MatrixMarket matrix coordinate real Skew-Symmetric\n", 0, 1,
    "Skew-Symmetric symmetry is not supported" },
  { "unknown symmetry", "%%MatrixMarket matrix coordinate real diagonal\n", 0, 1,
    "unknown symmetry 'diagonal'" },
  { "extra banner word", "%%MatrixMarket matrix coordinate real general x\n", 0, 1,
    "extra word 'x' after the banner" },
  { "no size line", BAN "% one\n\n% two\n", 0, 4, "file ends before the size line" },
  { "size line with 2 numbers", BAN "% c\n3 3\n", 0, 3,
    "size line needs 3 numbers (rows columns entries), found 2" },
  { "size line with 4 numbers", BAN "3 3 1 9\n", 0, 2,
    "extra token '9' after the size line" },
  { "zero rows", BAN "0 3 0\n", 0, 2, "number of rows must be positive, found 0" },
  { "negative columns", BAN "3 -2 0\n", 0, 2,
    "number of columns must be positive, found -2" },
  { "rows overflow int", BAN "2147483648 3 1\n", 0, 2,
    "number of rows 2147483648 is too large (at most 2147483647)" },
  { "columns overflow long", BAN "3 99999999999999999999999 1\n", 0, 2,
    "number of columns 99999999999999999999999 is too large" },
  { "negative entries", BAN "3 3 -1\n", 0, 2,
    "number of entries must be zero or more, found -1" },
  { "entries not an integer (size line missing?)", BAN "1 1 2.0\n", 0, 2,
    "number of entries '2.0' is not an integer" },
  { "rows not a number", BAN "three 3 1\n", 0, 2,
    "number of rows 'three' is not an integer" },
  { "more entries than rows*cols", BAN "2 2 5\n", 0, 2,
    "5 entries declared but a 2 x 2 matrix holds at most 4" },
  { "symmetric: more than n(n+1)/2", SYM "2 2 4\n", 0, 2, "holds at most 3" },
  { "symmetric not square", SYM "2 3 1\n", 0, 2, "must be square, found 2 x 3" },
  { "file ends after 3 of 5", BAN "5 5 5\n1 1 1\n2 2 2\n3 3 3\n", 0, 5,
    "file ends after 3 of 5 entries" },
  { "file ends after 1 of 2, trailing comment and blank", BAN "2 2 2\n1 1 1\n% c\n\n", 0, 5,
    "file ends after 1 of 2 entries" },
  { "file ends after 0 of 1", BAN "2 2 1", 0, 2, "file ends after 0 of 1 entries" },
  { "more entries than declared", BAN "2 2 1\n1 1 1\n% ok\n2 2 2\n", 0, 5,
    "more entries than the 1 declared on the size line (line 2)" },
  { "row index too large", BAN "3 3 1\n4 1 1\n", 0, 3, "row index 4 out of range 1..3" },
  { "column index zero", BAN "3 4 1\n1 0 1\n", 0, 3, "column index 0 out of range 1..4" },
  { "row index negative", BAN "3 3 1\n-1 1 1\n", 0, 3, "row index -1 out of range 1..3" },
  { "row index overflows long", BAN "3 3 1\n99999999999999999999 1 1\n", 0, 3,
    "row index 99999999999999999999 out of range 1..3" },
  { "row index not an integer", BAN "3 3 1\n1.5 1 1\n", 0, 3,
    "row index '1.5' is not an integer" },
  { "column index a word", BAN "3 3 1\n1 two 1\n", 0, 3,
    "column index 'two' is not an integer" },
  { "value a word", BAN "3 3 2\n1 1 1\n2 2 abc\n", 0, 4, "value 'abc' is not a number" },
  { "value with two points", BAN "3 3 1\n1 1 1.0.0\n", 0, 3,
    "value '1.0.0' is not a number" },
  { "value hexadecimal", BAN "3 3 1\n1 1 0x10\n", 0, 3, "value '0x10' is not a number" },
  { "value bare exponent", BAN "3 3 1\n1 1 1e\n", 0, 3, "value '1e' is not a number" },
  { "value of 22 digits, bare exponent", BAN "3 3 1\n1 1 1234567890123456789012e\n", 0, 3,
    "value '1234567890123456789012e' is not a number" },
  { "value of 21 digits, two points", BAN "3 3 1\n1 1 12345678901234567890.1.\n", 0, 3,
    "value '12345678901234567890.1.' is not a number" },
  { "value bare sign", BAN "3 3 1\n1 1 -\n", 0, 3, "value '-' is not a number" },
  { "value NaN", BAN "3 3 1\n1 1 nan\n", 0, 3, "value 'nan' is not finite (NaN or Inf)" },
  { "value -Inf", BAN "3 3 1\n1 1 -Inf\n", 0, 3, "value '-Inf' is not finite" },
  { "value infinity", BAN "3 3 1\n1 1 INFINITY\n", 0, 3, "value 'INFINITY' is not finite" },
  { "value overflows", BAN "3 3 1\n1 1 1e400\n", 0, 3, "value '1e400' overflows a double" },
  { "integer field, real value", INT "3 3 1\n1 1 1.5\n", 0, 3,
    "value '1.5' is not an integer (the banner says integer)" },
  { "symmetric upper triangle", SYM "3 3 2\n1 1 1\n1 2 3\n", 0, 4,
    "entry (1,2) is in the upper triangle" },
  { "entry with 2 fields", BAN "3 3 1\n1 1\n", 0, 3,
    "entry needs 3 fields (row column value), found 2" },
  { "entry with 4 fields", BAN "3 3 1\n1 1 1 0\n", 0, 3,
    "extra token '0' after the entry" },
  { "trailing comment on an entry", BAN "3 3 1\n1 1 1 % c\n", 0, 3, "extra token '%'" },
  { "NUL byte inside a value", BAN "3 3 1\n1 1 1\0x\n", sizeof BAN - 1 + 14, 3,
    "value '1?x' is not a number" },
  { "line counted past many comments", BAN "%a\n%b\n%c\n\n3 3 2\n%d\n1 1 1\n\n3 4 1\n", 0,
    10, "column index 4 out of range 1..3" },
};

/* Dense row-major copy of A summing duplicates; 0 when an index is out of range. */
static int to_dense (const spm *A, double *D)
{
  memset (D, 0, (size_t) A->nrows * (size_t) A->ncols * sizeof *D);
  for (long k = 0; k < A->nnz; k++) {
    if (A->row[k] < 0 || A->row[k] >= A->nrows || A->col[k] < 0 || A->col[k] >= A->ncols)
      return 0;
    D[(size_t) A->row[k] * (size_t) A->ncols + (size_t) A->col[k]] += A->val[k];
  }
  return 1;
}

static void test_good (void)
{
  for (size_t c = 0; c < sizeof good / sizeof *good; c++) {
    const good_case *g = &good[c];
    spm *A = NULL;
    mb_err err;
    mb_err_init (&err);
    int rc = mmio_parse (g->text, strlen (g->text), "g.mtx", &A, &err);
    CHECK (g->label, rc == 0 && A != NULL);
    if (rc != 0 || !A) {
      printf ("  got %d: %s: %s\n", rc, err.where, err.msg);
      continue;
    }
    double D[12];
    CHECK (g->label, A->nrows == g->nrows && A->ncols == g->ncols && A->nnz == g->nnz);
    CHECK (g->label, to_dense (A, D));
    int same = 1;
    for (int k = 0; k < g->nrows * g->ncols; k++) same &= D[k] == g->dense[k];
    CHECK (g->label, same);
    spm_free (A);
  }
}

static void test_bad (void)
{
  for (size_t c = 0; c < sizeof bad / sizeof *bad; c++) {
    const bad_case *b = &bad[c];
    spm sentinel, *A = &sentinel;  /* must stay untouched on failure */
    mb_err err;
    char where[64];
    mb_err_init (&err);
    int rc = mmio_parse (b->text, b->len ? b->len : strlen (b->text), "t.mtx", &A, &err);
    snprintf (where, sizeof where, "t.mtx:%zu", b->line);
    int ok = rc == MB_EDECK && err.code == MB_EDECK && A == &sentinel
             && strcmp (err.where, where) == 0 && strstr (err.msg, b->msg) != NULL;
    CHECK (b->label, ok);
    if (!ok)
      printf ("  got %d: %s: %s\n  want %s: ...%s...\n", rc, err.where, err.msg, where,
              b->msg);
    if (A != &sentinel) spm_free (A);
  }
}

/* Not NUL-terminated input: the parser must stop at len (valgrind/ASan see overreads). */
static void test_unterminated (void)
{
  const char src[] = BAN "2 2 1\n2 2 7.5";
  size_t len = sizeof src - 1;
  char *text = malloc (len);  /* exact size: no NUL after the last byte */
  memcpy (text, src, len);
  spm *A = NULL;
  mb_err err;
  mb_err_init (&err);
  int rc = mmio_parse (text, len, "u.mtx", &A, &err);
  CHECK ("unterminated text parses", rc == 0 && A && A->nnz == 1 && A->row[0] == 1
         && A->col[0] == 1 && A->val[0] == 7.5);
  spm_free (A);
  /* a cut inside the value: "7." is still a number, the entry count is complete */
  A = NULL;
  rc = mmio_parse (text, len - 1, "u.mtx", &A, &err);
  CHECK ("text cut in a value", rc == 0 && A && A->val[0] == 7.0);
  spm_free (A);
  /* NULL name and NULL text with length 0 */
  A = NULL;
  mb_err_init (&err);
  rc = mmio_parse (NULL, 0, NULL, &A, &err);
  CHECK ("NULL text is an empty file", rc == MB_EDECK && A == NULL
         && strstr (err.msg, "empty file") != NULL
         && strcmp (err.where, "(matrix):1") == 0);
  free (text);
}

/* Makes a temporary file name from a template in /tmp; returns its descriptor closed. */
static int temp_path (char *path, size_t size, const char *stem)
{
  snprintf (path, size, "/tmp/test_mmio_%s_XXXXXX", stem);
  int fd = mkstemp (path);
  if (fd < 0) return -1;
  close (fd);
  return 0;
}

static uint64_t rng = 0x9E3779B97F4A7C15u;
static uint64_t xorshift (void) { return xorshift64 (&rng); }

/* Write then read: same shape, order, indices and every value bit for bit. */
static void test_round_trip (void)
{
  /* hand-picked hard cases: 17 digits needed, extremes, subnormals, signed zero */
  const double special[] = {
    0.1, 1.0 / 3.0, -2.0 / 3.0, 3.141592653589793, 1e22, 1e23, -0.0, 0.0, DBL_MAX, -DBL_MAX,
    DBL_MIN, DBL_EPSILON, 1.0 + DBL_EPSILON,
    4.9406564584124654e-324 /* smallest subnormal */,
    2.2250738585072009e-308 /* largest subnormal */,
    9007199254740991.0 /* 2^53 - 1 */, 123456789012345678.0
  };
  int nspecial = (int) (sizeof special / sizeof *special);
  int nrandom = 2000;
  spm *A = spm_create (7, 1000, 16);
  CHECK ("create", A != NULL);
  if (!A) return;
  for (int k = 0; k < nspecial; k++) spm_add (A, k % 7, k, special[k]);
  for (int k = 0; k < nrandom; k++) {
    double v;
    uint64_t bits;
    do {  /* random bit patterns: all exponents, both signs; skip NaN/Inf */
      bits = xorshift ();
      memcpy (&v, &bits, sizeof v);
    } while (!isfinite (v));
    spm_add (A, (int) (xorshift () % 7), (int) (xorshift () % 1000), v);
  }
  char path[128];
  mb_err err;
  mb_err_init (&err);
  CHECK ("temp file", temp_path (path, sizeof path, "rt") == 0);
  int rc = mmio_write (path, A, &err);
  CHECK ("write", rc == 0);
  spm *B = NULL;
  rc = mmio_read (path, &B, &err);
  CHECK ("read back", rc == 0 && B != NULL);
  if (rc == 0 && B) {
    CHECK ("shape and count", B->nrows == 7 && B->ncols == 1000 && B->nnz == A->nnz);
    int same = B->nnz == A->nnz;
    for (long k = 0; same && k < A->nnz; k++)
      same = A->row[k] == B->row[k] && A->col[k] == B->col[k]
             && memcmp (&A->val[k], &B->val[k], sizeof (double)) == 0;
    CHECK ("every value bit for bit (17 significant digits)", same);
  }
  /* the text itself: 0.1 is 0.1000000000000000055511151231257827... (exact binary value),
     which is 0.10000000000000001 to 17 significant digits */
  FILE *f = fopen (path, "r");
  char line[256] = "";
  int banner = f && fgets (line, sizeof line, f)
               && strcmp (line, "%%MatrixMarket matrix coordinate real general\n") == 0;
  CHECK ("banner written", banner);
  int size = f && fgets (line, sizeof line, f) && strcmp (line, "7 1000 2017\n") == 0;
  CHECK ("size line written", size);
  int first = f && fgets (line, sizeof line, f)
              && strcmp (line, "1 1 0.10000000000000001\n") == 0;
  CHECK ("0.1 written with 17 significant digits", first);
  if (f) fclose (f);
  remove (path);
  spm_free (A);
  spm_free (B);
}

static void test_files (void)
{
  spm *A = NULL;
  mb_err err;
  mb_err_init (&err);
  int rc = mmio_read ("/nonexistent/dir/K.mtx", &A, &err);
  CHECK ("missing file: MB_EIO cannot open", rc == MB_EIO && A == NULL
         && strstr (err.msg, "cannot open")
         && strcmp (err.where, "/nonexistent/dir/K.mtx") == 0);
  mb_err_init (&err);
  rc = mmio_read ("/tmp", &A, &err);
  CHECK ("directory: MB_EIO cannot read", rc == MB_EIO && A == NULL
         && strstr (err.msg, "cannot read"));

  char path[128];
  CHECK ("temp file", temp_path (path, sizeof path, "bad") == 0);
  FILE *f = fopen (path, "w");
  if (f) {
    fputs (SYM "% stiffness\n2 2 2\n1 1 4\n1 2 -1\n", f);
    fclose (f);
  }
  mb_err_init (&err);
  rc = mmio_read (path, &A, &err);
  char where[160];
  snprintf (where, sizeof where, "%s:5", path);
  CHECK ("file content error names path:line", rc == MB_EDECK && A == NULL
         && strcmp (err.where, where) == 0 && strstr (err.msg, "upper triangle"));
  remove (path);

  spm *S = spm_create (2, 2, 1);
  mb_err_init (&err);
  rc = S ? mmio_write ("/nonexistent/dir/out.mtx", S, &err) : -1;
  CHECK ("write to a missing folder: MB_EIO", rc == MB_EIO
         && strstr (err.msg, "cannot open for writing")
         && strcmp (err.where, "/nonexistent/dir/out.mtx") == 0);
  spm_free (S);
}

/* A million entries through a file: correct, and timed (printed, not asserted). */
static void test_large (void)
{
  const int n = 1000;  /* n x n, every entry (i, j) = i + j, 1-based */
  char path[128];
  CHECK ("temp file", temp_path (path, sizeof path, "big") == 0);
  FILE *f = fopen (path, "w");
  if (!f) return;
  fprintf (f, "%%%%MatrixMarket matrix coordinate real general\n%d %d %ld\n", n, n,
           (long) n * n);
  for (int i = 1; i <= n; i++)
    for (int j = 1; j <= n; j++) fprintf (f, "%d %d %d.0\n", i, j, i + j);
  fclose (f);
  spm *A = NULL;
  mb_err err;
  mb_err_init (&err);
  clock_t t0 = clock ();
  int rc = mmio_read (path, &A, &err);
  double secs = (double) (clock () - t0) / CLOCKS_PER_SEC;
  CHECK ("a million entries read", rc == 0 && A && A->nnz == (long) n * n);
  if (rc == 0 && A) {
    /* sum of (i + j) over i, j = 2 n (n (n + 1) / 2) = n^2 (n + 1) = 1001000000 */
    double sum = 0.0;
    int ok = 1;
    for (long k = 0; k < A->nnz; k++) {
      sum += A->val[k];
      ok &= A->val[k] == (double) (A->row[k] + A->col[k] + 2);
    }
    CHECK ("a million entries: values match their indices", ok);
    CHECK ("a million entries: sum n^2 (n + 1)", sum == 1001000000.0);
    printf ("  read 1e6 entries in %.3f s\n", secs);
  }
  spm_free (A);
  remove (path);
}

/* Every value reads as strtod reads the same token (libc's strtod is the reference), bit
   for bit: random doubles written as %.17g, %.16e, %.15g, %.6e, %.3f, %a-free decimals
   with leading zeros, trailing zeros, explicit '+', signed zeros, "1." and ".5" forms,
   exponents with leading zeros, 19 to 25 digits, and exponents near the edges of the
   exact-power range (1e22, 1e23, 1e-22, 1e-23) and of double range (subnormal, 1e308). */
static void test_values_exact (void)
{
  static const char *fixed[] = {
    "0", "-0", "+0", "0.0000000000000000e+00", "-0.0e-5", "000.000", "1.", ".5", "-.5e1",
    "+7", "4.5000000000000000e+06", "3.3333333333333304e+00", "6.4285714285714224e-01",
    "9007199254740992", "9007199254740993", "9007199254740993e-3", "18014398509481985",
    "1234567890123456789", "12345678901234567890123", "0.000000000000000000000000123",
    "1e22", "1e23", "1e-22", "1e-23", "123456789012345e22", "4.9406564584124654e-324",
    "2.2250738585072011e-308", "1.7976931348623157e+308", "1e0000000000000000000000001",
    "100000000000000000000000000000000000000e-30", "0.1", "0.2", "0.3", "2.675", "1E5",
    "1e+000", "-1e-000"
  };
  enum { NFIX = sizeof fixed / sizeof fixed[0], NRAND = 4000 };
  static const char *fmts[] = { "%.17g", "%.16e", "%.15g", "%.6e", "%.3f", "%+.10e",
                                "%.0f", "%.20f", "%.12g" };
  size_t cap = (size_t) (NFIX + NRAND) * 64 + 256, len = 0;
  char *text = malloc (cap), (*tok)[48] = calloc (NFIX + NRAND, sizeof *tok);
  if (!text || !tok) abort ();
  unsigned long long x = 88172645463325252ULL;
  for (int k = 0; k < NFIX + NRAND; k++) {
    if (k < NFIX) { snprintf (tok[k], sizeof tok[k], "%s", fixed[k]); continue; }
    x ^= x << 13; x ^= x >> 7; x ^= x << 17;    /* xorshift64 */
    double mag = pow (10.0, (double) ((int) (x % 61) - 30));
    double v = ((double) (x >> 11) / 9007199254740992.0 - 0.5) * mag;
    if (k % 17 == 0) v = (double) (long) (v * 1e3);  /* integral values */
    snprintf (tok[k], sizeof tok[k], fmts[k % 9], v);
  }
  len += (size_t) snprintf (text, cap, "%s%d 1 %d\n", BAN, NFIX + NRAND, NFIX + NRAND);
  for (int k = 0; k < NFIX + NRAND; k++)
    len += (size_t) snprintf (text + len, cap - len, "%d 1 %s\n", k + 1, tok[k]);
  spm *A = NULL;
  mb_err err;
  mb_err_init (&err);
  int rc = mmio_parse (text, len, "v.mtx", &A, &err), same = rc == 0 && A->nnz == NFIX + NRAND;
  for (long k = 0; same && k < A->nnz; k++) {
    double want = strtod (tok[A->row[k]], NULL);
    if (memcmp (&want, &A->val[k], sizeof want) != 0) {
      printf ("value '%s': read %.17g, strtod %.17g\n", tok[A->row[k]], A->val[k], want);
      same = 0;
    }
  }
  if (rc != 0) printf ("%s\n", err.msg);
  CHECK ("every value reads bit for bit as strtod reads it", same);
  spm_free (A);
  free (text);
  free (tok);
}

static int rank = 0, nranks = 1;

/* Collective. The file at path (written by rank 0) read by mmio_read_ranks on every rank
   (min_bytes 0: split whatever its size) against mmio_parse of the same bytes on rank 0:
   the same status, and then the same entries in the same order bit for bit, or the same
   message at the same "path:LINE"; and mmio_read_share: the same status and message, the
   shape on every rank, the shares in rank order the same entries. Returns 1 when they agree (on rank 0; 1 elsewhere). */
static int ranks_agree (const char *label, const char *path, const char *text, size_t len)
{
  spm *A = NULL, *B = NULL;
  mb_err ea, eb;
  mb_err_init (&ea);
  mb_err_init (&eb);
  int ra = mmio_read_ranks (MPI_COMM_WORLD, path, 0, &A, &ea);
  int all[2] = { ra, -ra }, ext[2];
  MPI_Allreduce (all, ext, 2, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  int same_rc = ext[0] == ra && -ext[1] == ra;  /* one status on every rank */
  int same_err = 1;
  if (ra < 0) {  /* every rank holds the message */
    char where[512], msg[1024];
    memcpy (where, ea.where, sizeof where);
    memcpy (msg, ea.msg, sizeof msg);
    MPI_Bcast (where, sizeof where, MPI_CHAR, 0, MPI_COMM_WORLD);
    MPI_Bcast (msg, sizeof msg, MPI_CHAR, 0, MPI_COMM_WORLD);
    same_err = strcmp (where, ea.where) == 0 && strcmp (msg, ea.msg) == 0;
  }
  int ok = same_rc && same_err;
  /* mmio_read_share: the same status and message; every rank the file's shape, and the
     shares in rank order are mmio_read_ranks's entries */
  spm *S = NULL;
  mb_err es;
  mb_err_init (&es);
  int sym = -1;
  int rs = mmio_read_share (MPI_COMM_WORLD, path, 0, &S, &sym, &es);
  /* the banner's word, when the ranks shared the file (min_bytes 0: whenever there are
     several), on every rank */
  char banner[128] = "";
  for (size_t k = 0; k < len && k + 1 < sizeof banner && text[k] != '\n'; k++)
    banner[k] = (char) tolower ((unsigned char) text[k]);
  int want_sym = rs == 0 && nranks > 1 && strstr (banner, "symmetric") != NULL;
  ok &= rs != 0 || sym == want_sym;
  ok &= rs == ra && (ra == 0 ? S != NULL : strcmp (es.msg, ea.msg) == 0
                                           && strcmp (es.where, ea.where) == 0);
  int shape[2] = { S ? S->nrows : -1, S ? S->ncols : -1 }, shape0[2] = { shape[0], shape[1] };
  MPI_Bcast (shape0, 2, MPI_INT, 0, MPI_COMM_WORLD);
  ok &= shape[0] == shape0[0] && shape[1] == shape0[1];
  int cnt = S ? (int) S->nnz : 0, *counts = calloc ((size_t) nranks, sizeof *counts);
  int *displs = calloc ((size_t) nranks, sizeof *displs);
  MPI_Gather (&cnt, 1, MPI_INT, counts, 1, MPI_INT, 0, MPI_COMM_WORLD);
  int total = 0;
  for (int r = 0; rank == 0 && r < nranks; r++) { displs[r] = total; total += counts[r]; }
  int *gr = calloc ((size_t) total + 1, sizeof *gr), *gc = calloc ((size_t) total + 1, sizeof *gc);
  double *gv = calloc ((size_t) total + 1, sizeof *gv);
  MPI_Gatherv (S ? S->row : NULL, cnt, MPI_INT, gr, counts, displs, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Gatherv (S ? S->col : NULL, cnt, MPI_INT, gc, counts, displs, MPI_INT, 0, MPI_COMM_WORLD);
  MPI_Gatherv (S ? S->val : NULL, cnt, MPI_DOUBLE, gv, counts, displs, MPI_DOUBLE, 0,
               MPI_COMM_WORLD);
  if (rank == 0 && ra == 0) {
    ok &= A && total == A->nnz && S->nrows == A->nrows && S->ncols == A->ncols;
    for (long k = 0; ok && k < total; k++)
      ok = gr[k] == A->row[k] && gc[k] == A->col[k] && memcmp (&gv[k], &A->val[k], sizeof gv[k]) == 0;
  }
  free (counts); free (displs); free (gr); free (gc); free (gv);
  spm_free (S);
  MPI_Allreduce (MPI_IN_PLACE, &ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (rank != 0) { spm_free (A); return 1; }
  int rb = mmio_parse (text, len, path, &B, &eb);
  if (ra != rb) ok = 0;
  else if (ra < 0) ok &= strcmp (ea.where, eb.where) == 0 && strcmp (ea.msg, eb.msg) == 0;
  else {
    ok &= A && B && A->nrows == B->nrows && A->ncols == B->ncols && A->nnz == B->nnz;
    for (long k = 0; ok && k < A->nnz; k++)
      ok = A->row[k] == B->row[k] && A->col[k] == B->col[k]
           && memcmp (&A->val[k], &B->val[k], sizeof (double)) == 0;
  }
  if (!ok)
    printf ("  %s on %d ranks: %d %s: %s\n    one rank: %d %s: %s\n", label, nranks, ra,
            ea.where, ea.msg, rb, eb.where, eb.msg);
  spm_free (A);
  spm_free (B);
  return ok;
}

/* Collective. Rank 0 writes len bytes of text to a new temporary file; its path reaches
   every rank. */
static void write_shared (char *path, size_t size, const char *text, size_t len)
{
  if (rank == 0) {
    if (temp_path (path, size, "ranks") == 0) {
      FILE *f = fopen (path, "wb");
      if (f) { fwrite (text, 1, len, f); fclose (f); }
    }
  }
  MPI_Bcast (path, (int) size, MPI_CHAR, 0, MPI_COMM_WORLD);
}

/* Every good and bad case, then each with 1 to 6 bytes of a comment after it (the share
   boundaries move through the lines), read by every rank against one rank; a header with
   100 kB of comments (past the first 64 kB read for it); a million entries with comments and
   blank lines among them. */
static void test_ranks (void)
{
  size_t ncase = sizeof good / sizeof *good + sizeof bad / sizeof *bad;
  int agree = 1, cases = 0;
  for (size_t c = 0; c < ncase; c++) {
    const char *text = c < sizeof good / sizeof *good ? good[c].text
                     : bad[c - sizeof good / sizeof *good].text;
    const char *label = c < sizeof good / sizeof *good ? good[c].label
                      : bad[c - sizeof good / sizeof *good].label;
    size_t len = c < sizeof good / sizeof *good ? strlen (text)
               : bad[c - sizeof good / sizeof *good].len ? bad[c - sizeof good / sizeof *good].len
               : strlen (text);
    for (int pad = 0; pad <= 6; pad++) {
      char *t = malloc (len + 16);
      if (!t) continue;
      memcpy (t, text, len);
      size_t l = len;
      if (pad > 0) {
        memcpy (t + l, "\n%", 2);
        l += 2;
        for (int k = 1; k < pad; k++) t[l++] = 'x';
        t[l++] = '\n';
      }
      char path[128] = "";
      write_shared (path, sizeof path, t, l);
      agree &= ranks_agree (label, path, t, l);
      cases++;
      if (rank == 0) remove (path);
      free (t);
    }
  }
  if (rank == 0) printf ("  %d files read by %d rank%s as by one\n", cases, nranks,
                         nranks > 1 ? "s" : "");
  CHECK ("every good and bad file: every rank reads what one rank reads", agree);

  /* a header longer than the first 64 kB that rank 0 reads for it */
  size_t cap = 120000;
  char *t = malloc (cap);
  if (t) {
    size_t l = (size_t) snprintf (t, cap, "%s", BAN);
    while (l < 100000) l += (size_t) snprintf (t + l, cap - l, "%% comment line %zu\n", l);
    l += (size_t) snprintf (t + l, cap - l, "3 3 3\n1 1 1\n2 2 2\n3 3 3e0\n");
    char path[128] = "";
    write_shared (path, sizeof path, t, l);
    CHECK ("a 100 kB header: read by every rank as by one", ranks_agree ("long header", path, t, l));
    t[l - 2] = 'z';  /* and an error on the last line */
    write_shared (path, sizeof path, t, l);
    CHECK ("a 100 kB header, bad last value: the same error", ranks_agree ("long header, bad value", path, t, l));
    if (rank == 0) remove (path);
    free (t);
  }

  /* a million entries with comments and blank lines between them, symmetric */
  const int n = 1000;
  char path[128] = "";
  if (rank == 0 && temp_path (path, sizeof path, "bigsym") == 0) {
    FILE *f = fopen (path, "w");
    if (f) {
      fputs (SYM, f);
      fprintf (f, "%% lower triangle\n%d %d %ld\n", n, n, (long) n * (n + 1) / 2);
      for (int i = 1; i <= n; i++) {
        for (int j = 1; j <= i; j++) fprintf (f, "%d %d %.17g\n", i, j, 1.0 / (i + j));
        if (i % 97 == 0) fputs ("% a comment among the entries\n\n", f);
      }
      fclose (f);
    }
  }
  MPI_Bcast (path, sizeof path, MPI_CHAR, 0, MPI_COMM_WORLD);
  spm *A = NULL, *B = NULL;
  mb_err err;
  mb_err_init (&err);
  double t0 = MPI_Wtime ();
  int ra = mmio_read_ranks (MPI_COMM_WORLD, path, 0, &A, &err);
  double ta = MPI_Wtime () - t0;
  if (rank == 0) {
    t0 = MPI_Wtime ();
    int rb = mmio_read (path, &B, &err);
    double tb = MPI_Wtime () - t0;
    int same = ra == 0 && rb == 0 && A && B && A->nnz == B->nnz && A->nnz == (long) n * n;
    for (long k = 0; same && k < A->nnz; k++)
      same = A->row[k] == B->row[k] && A->col[k] == B->col[k]
             && memcmp (&A->val[k], &B->val[k], sizeof (double)) == 0;
    CHECK ("a million symmetric entries: every rank reads what one rank reads", same);
    printf ("  1e6 entries: %.3f s on %d rank%s, %.3f s on one\n", ta, nranks,
            nranks > 1 ? "s" : "", tb);
    remove (path);
  }
  spm_free (A);
  spm_free (B);
}

int main (int argc, char **argv)
{
  MPI_Init (&argc, &argv);
  MPI_Comm_rank (MPI_COMM_WORLD, &rank);
  MPI_Comm_size (MPI_COMM_WORLD, &nranks);
  test_ranks ();
  test_values_exact ();
  test_good ();
  test_bad ();
  test_unterminated ();
  test_round_trip ();
  test_files ();
  test_large ();
  int rc = CHECK_DONE ();
  MPI_Finalize ();
  return rc;
}
