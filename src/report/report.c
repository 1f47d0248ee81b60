/* report.c: the text table of modes (stdout) and the YAML report of one eigen stage. */
#include "report.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NUMS_PER_LINE 8   /* numbers per line of a wrapped flow sequence */

const char *report_kind_name (mode_kind kind)
{
  switch (kind) {
  case MODE_RIGID: return "rigid-body";
  case MODE_OSCILLATORY: return "oscillatory";
  case MODE_OVERDAMPED: return "overdamped";
  case MODE_UNSTABLE: return "unstable";
  default: return "unknown";
  }
}

/* ---------------------------------------------------------------- text table */

/* v, with -0 shown as 0 so that signs of zero do not make logs differ */
static double tidy (double v)
{
  return v == 0.0 ? 0.0 : v;
}

/* One header line, one row per mode, a count of filtered infinite eigenvalues. */
void report_print_table (FILE *f, const eigen_result *r)
{
  if (!f || !r) return;
  int damped = r->stage == STAGE_COMPLEX;
  if (damped)
    fprintf (f, "%6s  %14s  %13s  %16s  %-11s  %10s\n", "mode", "frequency [Hz]",
             "damping ratio", "damped f. [Hz]", "kind", "residual");
  else
    fprintf (f, "%6s  %14s  %-11s  %10s\n", "mode", "frequency [Hz]", "kind", "residual");
  for (int i = 0; r->modes && i < r->nmodes; i++) {
    const mode *md = &r->modes[i];
    if (damped)
      fprintf (f, "%6d  %14.6g  %13.6g  %16.6g  %-11s  %10.2e\n", i + 1, tidy (md->freq_hz),
               tidy (md->zeta), tidy (md->damped_freq_hz), report_kind_name (md->kind),
               tidy (md->residual));
    else
      fprintf (f, "%6d  %14.6g  %-11s  %10.2e\n", i + 1, tidy (md->freq_hz),
               report_kind_name (md->kind), tidy (md->residual));
  }
  if (r->n_infinite > 0)
    fprintf (f, "%6s  %d infinite eigenvalue%s filtered (constraints, massless DOFs)\n", "",
             r->n_infinite, r->n_infinite == 1 ? "" : "s");
}

/* ---------------------------------------------------------------- YAML writer */

/* Shortest of %.15g, %.16g, %.17g that strtod reads back to v ("null" if v is not finite).
   An exponent form gets a ".0" ("1.0e-10", not "1e-10") so that YAML 1.1 readers (PyYAML)
   resolve it as a float, as YAML 1.2 readers do anyway. buf has 40 chars. */
static void format_number (char *buf, double v)
{
  if (!isfinite (v)) {
    strcpy (buf, "null");
    return;
  }
  snprintf (buf, 40, "%.16g", v);  /* 16 first: at most two tries */
  if (strtod (buf, NULL) == v) {
    char b15[40];
    snprintf (b15, sizeof b15, "%.15g", v);
    if (strtod (b15, NULL) == v) strcpy (buf, b15);
  }
  else snprintf (buf, 40, "%.17g", v);
  char *e = strchr (buf, 'e');
  if (e && !memchr (buf, '.', (size_t) (e - buf))) {
    memmove (e + 2, e, strlen (e) + 1);  /* room: at most 24 + 2 chars in 40 */
    e[0] = '.';
    e[1] = '0';
  }
}

static void put_num (FILE *f, double v)
{
  char buf[40];
  format_number (buf, v);
  fputs (buf, f);
}

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

/* s as a YAML double-quoted scalar. Invalid UTF-8 bytes become \xNN (the code point
   U+00NN, so the file stays readable; such a byte cannot round-trip). */
static void put_quoted (FILE *f, const char *s)
{
  const unsigned char *p = (const unsigned char *) s;
  size_t len = strlen (s);
  fputc ('"', f);
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
  fputc ('"', f);
}

/* "key: [v0, v1, ...]" for the real (part = 0) or imaginary (part = 1) parts of x,
   NUMS_PER_LINE numbers a line, continuation lines indented by indent + 2. */
static void put_vector (FILE *f, int indent, const char *key, const double complex *x,
                        int n, int part)
{
  fprintf (f, "%*s%s: [", indent, "", key);
  for (int i = 0; i < n; i++) {
    if (i > 0) {
      if (i % NUMS_PER_LINE == 0) fprintf (f, ",\n%*s", indent + 2, "");
      else fputs (", ", f);
    }
    put_num (f, part ? cimag (x[i]) : creal (x[i]));
  }
  fputs ("]\n", f);
}

/* "[re, im]" */
static void put_complex (FILE *f, double complex z)
{
  fputc ('[', f);
  put_num (f, creal (z));
  fputs (", ", f);
  put_num (f, cimag (z));
  fputc (']', f);
}

static void put_key_num (FILE *f, int indent, const char *key, double v)
{
  fprintf (f, "%*s%s: ", indent, "", key);
  put_num (f, v);
  fputc ('\n', f);
}

/* One item of the modes list. */
static void put_mode (FILE *f, const eigen_result *r, int i, int with_vectors)
{
  const mode *md = &r->modes[i];
  int damped = r->stage == STAGE_COMPLEX;
  fprintf (f, "  - mode: %d\n", i + 1);
  fputs ("    eigenvalue: ", f);
  if (damped) put_complex (f, md->lambda);
  else put_num (f, creal (md->lambda));
  fputc ('\n', f);
  put_key_num (f, 4, "frequency_hz", md->freq_hz);
  if (damped) {
    put_key_num (f, 4, "damped_frequency_hz", md->damped_freq_hz);
    put_key_num (f, 4, "damping_ratio", md->zeta);
  }
  fprintf (f, "    kind: %s\n", report_kind_name (md->kind));
  put_key_num (f, 4, "residual", md->residual);
  if (!with_vectors) return;
  int n = r->n > 0 ? r->n : 0, m = r->m > 0 ? r->m : 0;
  if (damped) {
    if (md->x) {
      put_vector (f, 4, "vector_re", md->x, n, 0);
      put_vector (f, 4, "vector_im", md->x, n, 1);
    }
    if (m > 0 && md->xi) {
      put_vector (f, 4, "multipliers_re", md->xi, m, 0);
      put_vector (f, 4, "multipliers_im", md->xi, m, 1);
    }
  }
  else {
    if (md->x) put_vector (f, 4, "vector", md->x, n, 0);
    if (m > 0 && md->xi) put_vector (f, 4, "multipliers", md->xi, m, 0);
  }
}

/* The whole report, keys in the documented order. */
static void put_report (FILE *f, const eigen_result *r, const char *deck_path,
                        const char *title, int with_vectors)
{
  int damped = r->stage == STAGE_COMPLEX;
  const factor_stats *fs = &r->factor;
  if (damped)
    fputs ("# mbmodal report: damped modes (GEP (31), shift-invert Krylov-Schur)\n", f);
  else
    fputs ("# mbmodal report: undamped modes (GEP (18), shift-invert Krylov-Schur)\n", f);
  fputs ("format: mbmodal-report\nformat_version: 1\n", f);
  fprintf (f, "stage: %s\n", damped ? "complex" : "modal");
  if (deck_path) {
    fputs ("deck: ", f);
    put_quoted (f, deck_path);
    fputc ('\n', f);
  }
  if (title) {
    fputs ("title: ", f);
    put_quoted (f, title);
    fputc ('\n', f);
  }
  fprintf (f, "units: {eigenvalue: %s, frequency: Hz}\n", damped ? "1/s" : "rad^2/s^2");
  fprintf (f, "problem: {dofs: %d, constraints: %d}\n", r->n, r->m);

  fputs ("settings:\n  shift: ", f);
  if (damped) put_complex (f, r->shift);
  else put_num (f, creal (r->shift));
  fputc ('\n', f);
  fprintf (f, "  nev: %d\n  subspace: %d\n", r->nev, r->ncv);
  put_key_num (f, 2, "tolerance", r->tolerance);
  fprintf (f, "  max_restarts: %d\n", r->max_restarts);
  put_key_num (f, 2, "cq_scale", r->cq_scale);

  fprintf (f, "convergence:\n  converged: %s\n  restarts: %d\n  operator_applications: %d\n"
           "  converged_ritz_pairs: %d\n  infinite_filtered: %d\n",
           r->converged ? "true" : "false", r->restarts, r->op_applies, r->nconv,
           r->n_infinite);
  put_key_num (f, 2, "max_residual", r->max_residual);

  fprintf (f, "factorization:\n  ranks: %d\n  method: %s\n  arithmetic: %s\n  order: %ld\n"
           "  entries: %ld\n  factor_entries: %ld\n", fs->ranks,
           fs->symmetric ? "LDLt" : "LU", fs->complex_arith ? "complex" : "real", fs->order,
           fs->nnz_matrix, fs->nnz_factors);
  if (fs->negative_pivots >= 0) fprintf (f, "  negative_pivots: %ld\n", fs->negative_pivots);
  put_key_num (f, 2, "memory_mb", fs->memory_mb);
  fprintf (f, "  icntl14: %d\n  retries: %d\n", fs->icntl14, fs->retries);
  put_key_num (f, 2, "time_analysis_s", fs->time_analysis);
  put_key_num (f, 2, "time_factor_s", fs->time_factor);

  if (r->sturm_done) {
    long below = 0;  /* reported modes with Re lambda below the check's shift */
    for (int i = 0; r->modes && i < r->nmodes; i++)
      if (creal (r->modes[i].lambda) < r->sturm_lambda) below++;
    const char *status = below == r->sturm_count ? "ok"
                         : below < r->sturm_count ? "missed" : "inconsistent";
    fputs ("missed_mode_check:\n", f);
    put_key_num (f, 2, "shift", r->sturm_lambda);
    fprintf (f, "  eigenvalues_below: %ld\n  modes_reported_below: %ld\n  status: %s\n",
             r->sturm_count, below, status);
  }

  fputs ("timings_s: {assemble: ", f);
  put_num (f, r->time_assemble);
  fputs (", factor: ", f);
  put_num (f, r->time_factor);
  fputs (", iterate: ", f);
  put_num (f, r->time_iterate);
  fputs (", post: ", f);
  put_num (f, r->time_post);
  fputs (", total: ", f);
  put_num (f, r->time_total);
  fputs ("}\n", f);

  if (r->nmodes <= 0 || !r->modes) {
    fputs ("modes: []\n", f);
    return;
  }
  fputs ("modes:\n", f);
  for (int i = 0; i < r->nmodes; i++) put_mode (f, r, i, with_vectors);
}

/* Opens path, writes the report, checks every write and the close. */
int report_write_yaml (const char *path, const eigen_result *r, const char *deck_path,
                       const char *title, int with_vectors, mb_err *err)
{
  if (!path || !r) return mb_fail (err, MB_EIO, "report: no path or no result to write");
  FILE *f = fopen (path, "w");
  if (!f)
    return mb_fail_at (err, MB_EIO, path, 0, 0, "cannot open the report for writing: %s",
                       strerror (errno));
  put_report (f, r, deck_path, title, with_vectors);
  int failed = ferror (f);
  int saved = errno;
  if (fclose (f) != 0 && !failed) {
    failed = 1;
    saved = errno;
  }
  if (failed)
    return mb_fail_at (err, MB_EIO, path, 0, 0, "cannot write the report: %s",
                       strerror (saved));
  return 0;
}
