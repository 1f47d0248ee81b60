/* slepc_peer.c: SLEPc reference solver for mbmodal's benchmark (same constrained GEPs, same method) */

/*
 * usage: mpirun -np N slepc_peer K.mtx M.mtx Cq.mtx OUT [-nev 100] [-extra 10] [-sigma -1e-3]
 *                    [-tol 1e-10] [-cscale auto|S] [-gen] [PETSc/SLEPc options]
 *        mpirun -np N slepc_peer_complex K.mtx M.mtx Cq.mtx OUT -R R.mtx [-nev 100] [-sigma 1e-3] ...
 *
 * Built against the real flavour of PETSc/SLEPc it solves the undamped pencil below; built
 * against the complex flavour (scalar type complex) it solves the damped pencil (with -R) and
 * nothing else. Each build refuses the other's problem, so that a peer built against the wrong
 * flavour (pkg-config slepc resolving to complex while PETSc is real gives NaN) cannot run.
 *
 * Solves the undamped constrained pencil that mbmodal solves (GEP (18) of seed 001),
 *
 *     A x = lambda B x,   A = [K    s Cq'],   B = [M  0],   order n + m,   lambda = omega^2,
 *                             [s Cq  0   ]        [0  0]
 *
 * for the nev eigenvalues nearest sigma, with mbmodal's method and settings:
 *   - EPS Krylov-Schur, problem type EPS_GNHEP (-gen: EPS_GHEP, admissible as A is symmetric
 *     and B positive semi-definite, with B-inner products), target sigma, tolerance tol;
 *   - ST sinvert, KSP preonly, PC Cholesky (MUMPS LDL^T, as mbmodal for symmetric K and M;
 *     LU if either file is not "symmetric"; -st_pc_type lu forces LU), always MUMPS;
 *   - s scales the constraint rows (the multipliers by 1/s; eigenvalues do not change):
 *     auto = 2^round(log2(max|K| / max|Cq|)), mbmodal's rule (seed 001 sec. 5). With s = 1
 *     the multipliers are ~1e7 times the displacements, the Euclidean Krylov basis is
 *     dominated by them, and on the 4x4 grid the eigenvalues lose 6 digits (1e-6 against dense
 *     LAPACK; 1e-11 with auto);
 *   - EPS nev = nev + extra, the nev nearest written: mbmodal also asks 10 more than wanted.
 *     With extra = 0 Krylov-Schur converged in one restart in 3 of 6 runs of the 4x4 grid on 2
 *     ranks and missed one copy of a 4-fold eigenvalue each time.
 * The infinite eigenvalues of the singular B map to 0 under (A - sigma B)^-1 B: not found.
 *
 * Output: rank 0 writes the nev eigenvalues, ascending, one per line as %.17g, to OUT, and
 * prints the sizes, settings, timings (MPI_Wtime after a barrier) and the largest relative
 * residual (EPSComputeError). The line "peer_solve_seconds T" is for scripts: T covers EPSSetUp
 * (MUMPS analysis and factorisation) and EPSSolve, not the reading. Exit status 0 on success,
 * 1 on error, 2 if fewer than nev eigenvalues converged (the converged ones are still written).
 *
 * Input: PETSc has no Matrix Market reader, so this file has one. Every rank streams each file
 * twice (count, then insert) and keeps only the entries of the rows it owns: memory stays at
 * the distributed matrix, and no entry crosses ranks. Accepted: "coordinate" with field real,
 * integer or pattern and symmetry general, symmetric or skew-symmetric (the stored triangle is
 * mirrored); 1-based indices; repeated entries are summed.
 *
 * MUMPS options reach the factorisation with the ST prefix: -st_mat_mumps_icntl_N.
 *
 * Damped (-R R.mtx, complex build): mbmodal's GEP (31), order 2n + m, in a balanced form,
 *
 *     A = [ 0      w I    0      ]      B = [I 0 0]      state (u, u' / w, gamma / (s w)),
 *         [-K / w  -R    -s Cq'  ]          [0 M 0]
 *         [-s Cq    0     0      ]          [0 0 0]
 *
 * w = 2^round(log2(sqrt(max|K| / max|M|))) (a typical omega), s = 2^round(log2(max|K / w| /
 * max|Cq|)); lambda is that of mbmodal's pencil. EPS_GNHEP Krylov-Schur, shift-invert at the
 * real target sigma (default 1e-3, mbmodal's damped default), PC LU by MUMPS in complex
 * arithmetic, nev + extra wanted (mbmodal asks 2 x modes eigenvalues, conjugates included).
 * OUT gets the nev eigenvalues nearest sigma as "re im" lines, sorted by |lambda| then im.
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <slepceps.h>


/* MUMPS workspace margin in percent (ICNTL(14)) unless -st_mat_mumps_icntl_14 is given: the
   zero (2,2) block delays pivots, and MUMPS's default 20 fails with INFOG(1) = -9 already on
   the 4 x 4 grid (its factor grows 37% past the analysis estimate there) */
#define ICNTL14_DEFAULT "100"

/* one open Matrix Market file, positioned in its entry list */
typedef struct mmfile {
  const char *path;                          /* borrowed from argv */
  FILE *f;
  char line[1024];                           /* current line */
  long lineno;                               /* 1-based number of the current line */
  long data, data_line;                      /* offset and line number before the first entry */
  PetscInt rows, cols;                       /* declared size */
  long long nnz, seen;                       /* declared and read entry lines */
  double maxabs;                             /* max |entry| over the entries read so far */
  int symmetric, skew, pattern;              /* banner flags */
} mmfile;

/* where a file's entries go in the pencil: K or M at (i,j); Cq at (n+i,j) and (j,n+i) */
typedef enum { PLACE_SQUARE, PLACE_CONSTRAINT } place_mode;

/* rows [rstart, rend) of an N x N matrix owned by this rank, and their preallocation counts */
typedef struct rowblock {
  PetscInt N, rstart, rend;                  /* global order, owned row range */
  PetscInt *dnz, *onz;                       /* per owned row: entries in / outside the diagonal block */
  double cscale;                             /* factor s on the Cq entries: A = [K s*Cq'; s*Cq 0]; */
                                             /* 0 = auto, set by assemble from max|K| / max|Cq| */
  double w;                                  /* damped: balance factor; 0 = undamped, -1 = resolve */
  double mmax;                               /* damped: max|M|, for w */
} rowblock;

/* where a pencil block comes from: a file placed at (r0 + i, c0 + j) (and its transpose at
   (tr0 + j, tc0 + i) for PLACE_CONSTRAINT), times sign * (cscale for Cq, 1 / w for K when
   kscale, else 1); or, with f == NULL, the identity of order count times sign * (w if kscale)
   at (r0 + i, c0 + i) */
typedef struct term {
  mmfile *f;                                 /* borrowed; NULL = identity block */
  place_mode mode;
  PetscInt r0, c0, tr0, tc0, count;
  double sign;
  int kscale;                                /* K term: times 1 / w; identity term: times w */
} term;

/* case-insensitive equality of two NUL-terminated words */
static int word_eq(const char *a, const char *b)
{
  for (; *a && *b; a++, b++)
    if (tolower((unsigned char)*a) != tolower((unsigned char)*b)) return 0;
  return *a == *b;
}

/* reads the next line into mm->line; *got = 1, or 0 at end of file */
static PetscErrorCode mm_getline(mmfile *mm, int *got)
{
  PetscFunctionBeginUser;
  *got = 0;
  if (!fgets(mm->line, sizeof mm->line, mm->f)) PetscFunctionReturn(0);
  mm->lineno++;
  PetscCheck(strchr(mm->line, '\n') || feof(mm->f), PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             "%s:%ld: line longer than %d characters", mm->path, mm->lineno, (int)sizeof mm->line - 2);
  *got = 1;
  PetscFunctionReturn(0);
}

/* 1 if the line holds only blanks */
static int blank(const char *s)
{
  return s[strspn(s, " \t\r\n")] == '\0';
}

/* closes the file of mm; safe on a closed or zeroed mmfile */
static void mm_close(mmfile *mm)
{
  if (mm->f) fclose(mm->f);
  mm->f = NULL;
}

/* opens path and reads banner and size line; on success mm->f is open: caller runs mm_close */
static PetscErrorCode mm_open(mmfile *mm, const char *path)
{
  char w[5][64];
  int got, k;
  long long r, c, z;

  PetscFunctionBeginUser;
  memset(mm, 0, sizeof *mm);
  mm->path = path;
  mm->f = fopen(path, "r");
  PetscCheck(mm->f, PETSC_COMM_SELF, PETSC_ERR_FILE_OPEN, "%s: cannot open: %s", path, strerror(errno));
  PetscCall(mm_getline(mm, &got));
  PetscCheck(got, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s: empty file", path);
  k = sscanf(mm->line, "%63s %63s %63s %63s %63s", w[0], w[1], w[2], w[3], w[4]);
  PetscCheck(k == 5 && word_eq(w[0], "%%MatrixMarket") && word_eq(w[1], "matrix"), PETSC_COMM_SELF,
             PETSC_ERR_FILE_UNEXPECTED, "%s:1: not a Matrix Market matrix banner", path);
  PetscCheck(word_eq(w[2], "coordinate"), PETSC_COMM_SELF, PETSC_ERR_SUP,
             "%s:1: format '%s' not supported (coordinate only)", path, w[2]);
  if (word_eq(w[3], "pattern")) mm->pattern = 1;
  else PetscCheck(word_eq(w[3], "real") || word_eq(w[3], "integer") || word_eq(w[3], "double"),
                  PETSC_COMM_SELF, PETSC_ERR_SUP, "%s:1: field '%s' not supported", path, w[3]);
  if (word_eq(w[4], "symmetric")) mm->symmetric = 1;
  else if (word_eq(w[4], "skew-symmetric")) mm->skew = 1;
  else PetscCheck(word_eq(w[4], "general"), PETSC_COMM_SELF, PETSC_ERR_SUP,
                  "%s:1: symmetry '%s' not supported", path, w[4]);
  do {                                       /* skip comments and blank lines */
    PetscCall(mm_getline(mm, &got));
    PetscCheck(got, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s: no size line", path);
  } while (mm->line[0] == '%' || blank(mm->line));
  PetscCheck(sscanf(mm->line, "%lld %lld %lld", &r, &c, &z) == 3 && r >= 0 && c >= 0 && z >= 0,
             PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED, "%s:%ld: bad size line", path, mm->lineno);
  PetscCheck(r < PETSC_MAX_INT && c < PETSC_MAX_INT, PETSC_COMM_SELF, PETSC_ERR_SUP,
             "%s:%ld: size exceeds PetscInt", path, mm->lineno);
  PetscCheck(!(mm->symmetric || mm->skew) || r == c, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             "%s:%ld: symmetric matrix must be square", path, mm->lineno);
  mm->rows = (PetscInt)r;
  mm->cols = (PetscInt)c;
  mm->nnz = z;
  mm->data = ftell(mm->f);
  mm->data_line = mm->lineno;
  PetscFunctionReturn(0);
}

/* goes back to the first entry */
static PetscErrorCode mm_rewind(mmfile *mm)
{
  PetscFunctionBeginUser;
  PetscCheck(fseek(mm->f, mm->data, SEEK_SET) == 0, PETSC_COMM_SELF, PETSC_ERR_FILE_READ,
             "%s: cannot seek: %s", mm->path, strerror(errno));
  mm->lineno = mm->data_line;
  mm->seen = 0;
  PetscFunctionReturn(0);
}

/* next entry as 0-based (i, j, v); *got = 0 at the end, after checking the declared count */
static PetscErrorCode mm_next(mmfile *mm, PetscInt *i, PetscInt *j, double *v, int *got)
{
  char *p, *q;
  long long a, b;

  PetscFunctionBeginUser;
  for (;;) {
    PetscCall(mm_getline(mm, got));
    if (!*got) {
      PetscCheck(mm->seen == mm->nnz, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
                 "%s: %lld entries declared, %lld found", mm->path, mm->nnz, mm->seen);
      PetscFunctionReturn(0);
    }
    if (mm->line[0] != '%' && !blank(mm->line)) break;
  }
  PetscCheck(mm->seen < mm->nnz, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             "%s:%ld: more than the %lld declared entries", mm->path, mm->lineno, mm->nnz);
  errno = 0;
  a = strtoll(mm->line, &p, 10);
  b = strtoll(p, &q, 10);
  PetscCheck(p != mm->line && q != p && errno == 0, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             "%s:%ld: bad entry", mm->path, mm->lineno);
  PetscCheck(a >= 1 && a <= mm->rows && b >= 1 && b <= mm->cols, PETSC_COMM_SELF, PETSC_ERR_FILE_UNEXPECTED,
             "%s:%ld: index (%lld,%lld) outside %" PetscInt_FMT " x %" PetscInt_FMT, mm->path, mm->lineno,
             a, b, mm->rows, mm->cols);
  if (mm->pattern) *v = 1.0;
  else {
    *v = strtod(q, &p);
    PetscCheck(p != q && !PetscIsInfOrNanReal(*v), PETSC_COMM_SELF,
               PETSC_ERR_FILE_UNEXPECTED, "%s:%ld: bad value", mm->path, mm->lineno);
  }
  *i = (PetscInt)(a - 1);
  *j = (PetscInt)(b - 1);
  mm->maxabs = PetscMax(mm->maxabs, PetscAbsReal(*v));
  mm->seen++;
  PetscFunctionReturn(0);
}

/* one pencil entry (r,c,v): counted into rb (A == NULL) or added to A, if row r is owned */
static PetscErrorCode place_one(rowblock *rb, Mat A, PetscInt r, PetscInt c, double v)
{
  PetscFunctionBeginUser;
  if (r < rb->rstart || r >= rb->rend) PetscFunctionReturn(0);
  if (!A) {
    if (c >= rb->rstart && c < rb->rend) rb->dnz[r - rb->rstart]++;
    else rb->onz[r - rb->rstart]++;
  } else PetscCall(MatSetValue(A, r, c, (PetscScalar)v, ADD_VALUES));
  PetscFunctionReturn(0);
}

/* the factor of term t: its sign times s (Cq), 1 / w (K, damped), w (identity, damped) or 1 */
static double term_factor(const term *t, const rowblock *rb)
{
  if (t->f && t->mode == PLACE_CONSTRAINT) return t->sign * rb->cscale;
  if (t->kscale && rb->w > 0) return t->f ? t->sign / rb->w : t->sign * rb->w;
  return t->sign;
}

/* one pass over term t: its file's entries (and mirrors/transposes), or its identity block.
   Counts into rb if A is NULL, else adds to A. */
static PetscErrorCode place_term(const term *t, rowblock *rb, Mat A)
{
  PetscInt i = 0, j = 0;
  double v = 0, f = term_factor(t, rb);
  int got;

  PetscFunctionBeginUser;
  if (!t->f) {
    for (i = 0; i < t->count; i++) PetscCall(place_one(rb, A, t->r0 + i, t->c0 + i, f));
    PetscFunctionReturn(0);
  }
  PetscCall(mm_rewind(t->f));
  for (;;) {
    PetscCall(mm_next(t->f, &i, &j, &v, &got));
    if (!got) break;
    if (t->mode == PLACE_CONSTRAINT) {
      PetscCall(place_one(rb, A, t->r0 + i, t->c0 + j, f * v));
      PetscCall(place_one(rb, A, t->tr0 + j, t->tc0 + i, f * v));
    } else {
      PetscCall(place_one(rb, A, t->r0 + i, t->c0 + j, f * v));
      if (i != j && (t->f->symmetric || t->f->skew))
        PetscCall(place_one(rb, A, t->r0 + j, t->c0 + i, t->f->skew ? -f * v : f * v));
    }
  }
  PetscFunctionReturn(0);
}

/* creates the N x N AIJ matrix of the nt terms in rows rb: two passes, exact preallocation;
   after the counting pass resolves rb->cscale = 0 (auto) from max|K| (times 1 / w when damped)
   and max|Cq|, where kfile is K's file and cqfile Cq's (NULL when not in this matrix).
   symmetric: mark A symmetric (lets -pc_type cholesky pick MUMPS's symmetric mode).
   Collective. Caller destroys *out. */
static PetscErrorCode assemble(const term *terms, int nt, mmfile *kfile, mmfile *cqfile, int symmetric,
                               rowblock *rb, Mat *out)
{
  PetscInt k, nloc = rb->rend - rb->rstart;
  Mat A;
  int q;

  PetscFunctionBeginUser;
  PetscCall(PetscArrayzero(rb->dnz, nloc));
  PetscCall(PetscArrayzero(rb->onz, nloc));
  for (q = 0; q < nt; q++) PetscCall(place_term(&terms[q], rb, NULL));
  if (rb->w < 0) {                           /* damped: w = 2^round(log2(sqrt(max|K| / max|M|))) */
    rb->w = 1;
    if (kfile && kfile->maxabs > 0 && rb->mmax > 0) rb->w = ldexp(1.0, (int)lround(0.5 * log2(kfile->maxabs / rb->mmax)));
  }
  if (cqfile && rb->cscale == 0) {           /* s = 2^round(log2(max|K| / max|Cq|)): exact scaling */
    double kmax = kfile ? kfile->maxabs / (rb->w > 0 ? rb->w : 1) : 0;
    rb->cscale = 1;
    if (kmax > 0 && cqfile->maxabs > 0) rb->cscale = ldexp(1.0, (int)lround(log2(kmax / cqfile->maxabs)));
  }
  for (k = 0; k < nloc; k++) {               /* repeated entries were counted twice */
    rb->dnz[k] = PetscMin(rb->dnz[k], nloc);
    rb->onz[k] = PetscMin(rb->onz[k], rb->N - nloc);
  }
  PetscCall(MatCreate(PETSC_COMM_WORLD, &A));
  PetscCall(MatSetSizes(A, nloc, nloc, rb->N, rb->N));
  PetscCall(MatSetType(A, MATAIJ));
  PetscCall(MatSeqAIJSetPreallocation(A, 0, rb->dnz));
  PetscCall(MatMPIAIJSetPreallocation(A, 0, rb->dnz, 0, rb->onz));
  PetscCall(MatSetOption(A, MAT_NO_OFF_PROC_ENTRIES, PETSC_TRUE));
  for (q = 0; q < nt; q++) PetscCall(place_term(&terms[q], rb, A));
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  if (symmetric) {
    PetscCall(MatSetOption(A, MAT_SYMMETRIC, PETSC_TRUE));
    PetscCall(MatSetOption(A, MAT_SYMMETRY_ETERNAL, PETSC_TRUE));
  }
  *out = A;
  PetscFunctionReturn(0);
}

/* one eigenvalue of the damped pencil, for sorting: real and imaginary part */
typedef struct cval {
  double re, im;
} cval;

/* ascending |lambda|, then ascending imaginary part, for qsort */
static int cmp_cval(const void *a, const void *b)
{
  const cval *x = a, *y = b;
  double mx = hypot(x->re, x->im), my = hypot(y->re, y->im);
  if (mx != my) return (mx > my) - (mx < my);
  return (x->im > y->im) - (x->im < y->im);
}

/* ascending real part, for qsort (undamped eigenvalues) */
static int cmp_re(const void *a, const void *b)
{
  const cval *x = a, *y = b;
  return (x->re > y->re) - (x->re < y->re);
}

int main(int argc, char **argv)
{
  mmfile mk, mm, mc, mr;
  rowblock rb = {0}; /* cscale 0: auto; w 0: undamped */
  Mat A = NULL, B = NULL;
  EPS eps = NULL;
  ST st;
  KSP ksp;
  PC pc;
  PetscInt n, m, nev = 100, extra = 10, nwant, ncv, nconv = 0, nout, its = 0, k, nloc;
  PetscReal sigma, tol = 1e-10, err, errmax = 0, imax = 0;
  PetscBool gen = PETSC_FALSE, set, chol, damped;
  char word[64] = "auto", rpath[PETSC_MAX_PATH_LEN] = "";
  PetscMPIInt rank, size;
  MatInfo ia, ib;
  double t0, t1, t2, t3, tr;
  cval *lam = NULL;
  FILE *out;
  int status = 0, complex_build = 0;
  term ta[5], tb[2];
  int nta = 0, ntb = 0;

#if defined(PETSC_USE_COMPLEX)
  complex_build = 1;
#endif
  memset(&mk, 0, sizeof mk);
  memset(&mm, 0, sizeof mm);
  memset(&mc, 0, sizeof mc);
  memset(&mr, 0, sizeof mr);
  memset(ta, 0, sizeof ta);
  memset(tb, 0, sizeof tb);
  PetscCall(SlepcInitialize(&argc, &argv, NULL, NULL));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  if (argc < 5 || argv[1][0] == '-' || argv[2][0] == '-' || argv[3][0] == '-' || argv[4][0] == '-') {
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "usage: slepc_peer K.mtx M.mtx Cq.mtx OUT [-R R.mtx] [-nev N] [-extra E] "
                          "[-sigma S] [-tol T] [-cscale auto|S] [-gen] [PETSc/SLEPc options]\n"));
    PetscCall(SlepcFinalize());
    return 1;
  }
  PetscCall(PetscOptionsGetString(NULL, NULL, "-R", rpath, sizeof rpath, &damped));
  if (damped != (PetscBool)complex_build) {
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "slepc_peer: %s\n", complex_build
                          ? "this build uses complex PETSc/SLEPc: it solves the damped pencil only (give -R R.mtx)"
                          : "this build uses real PETSc/SLEPc: the damped pencil (-R) needs the complex build"));
    PetscCall(SlepcFinalize());
    return 1;
  }
  sigma = damped ? 1e-3 : -1e-3;
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-nev", &nev, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-sigma", &sigma, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-tol", &tol, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-gen", &gen, NULL));
  PetscCheck(!(gen && damped), PETSC_COMM_WORLD, PETSC_ERR_ARG_INCOMP, "-gen is for the undamped (symmetric) pencil");
  PetscCall(PetscOptionsGetString(NULL, NULL, "-cscale", word, sizeof word, &set));
  if (set && strcmp(word, "auto") != 0) {
    char *end;
    rb.cscale = strtod(word, &end);
    PetscCheck(end != word && *end == '\0' && rb.cscale != 0 && !PetscIsInfOrNanReal(rb.cscale), PETSC_COMM_WORLD,
               PETSC_ERR_ARG_OUTOFRANGE, "-cscale must be 'auto' or a nonzero number");
  }
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-extra", &extra, NULL));
  PetscCheck(nev >= 1 && extra >= 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "need -nev >= 1, -extra >= 0");

  /* read: every rank streams the files and keeps its own rows */
  PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
  t0 = MPI_Wtime();
  PetscCall(mm_open(&mk, argv[1]));
  PetscCall(mm_open(&mm, argv[2]));
  PetscCall(mm_open(&mc, argv[3]));
  if (damped) PetscCall(mm_open(&mr, rpath));
  n = mk.rows;
  m = mc.rows;
  PetscCheck(mk.cols == n && mm.rows == n && mm.cols == n, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ,
             "K is %" PetscInt_FMT "x%" PetscInt_FMT ", M is %" PetscInt_FMT "x%" PetscInt_FMT ": must be square and equal",
             mk.rows, mk.cols, mm.rows, mm.cols);
  PetscCheck(mc.cols == n, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "Cq has %" PetscInt_FMT " columns, K has %" PetscInt_FMT,
             mc.cols, n);
  PetscCheck(!damped || (mr.rows == n && mr.cols == n), PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ,
             "R is %" PetscInt_FMT "x%" PetscInt_FMT ", K is %" PetscInt_FMT "x%" PetscInt_FMT, mr.rows, mr.cols, n, n);
  rb.N = damped ? 2 * n + m : n + m;
  nloc = PETSC_DECIDE;
  PetscCall(PetscSplitOwnership(PETSC_COMM_WORLD, &nloc, &rb.N));
  PetscCallMPI(MPI_Scan(&nloc, &rb.rend, 1, MPIU_INT, MPI_SUM, PETSC_COMM_WORLD));
  rb.rstart = rb.rend - nloc;
  PetscCall(PetscMalloc2(nloc, &rb.dnz, nloc, &rb.onz));
  if (!damped) {
    /* A = [K s Cq'; s Cq 0], B = [M 0; 0 0] */
    ta[nta++] = (term){&mk, PLACE_SQUARE, 0, 0, 0, 0, 0, 1.0, 0};
    ta[nta++] = (term){&mc, PLACE_CONSTRAINT, n, 0, 0, n, 0, 1.0, 0};
    tb[ntb++] = (term){&mm, PLACE_SQUARE, 0, 0, 0, 0, 0, 1.0, 0};
    PetscCall(assemble(ta, nta, &mk, &mc, mk.symmetric, &rb, &A));
    PetscCall(assemble(tb, ntb, NULL, NULL, mm.symmetric, &rb, &B));
  } else {
    /* B = diag(I, M, 0) first: its pass gives max|M|; A's counting pass gives max|K|, then w
       (before A's values are placed): A = [0 wI 0; -K/w -R -s Cq'; -s Cq 0 0] */
    tb[ntb++] = (term){NULL, PLACE_SQUARE, 0, 0, 0, 0, n, 1.0, 0};
    tb[ntb++] = (term){&mm, PLACE_SQUARE, n, n, 0, 0, 0, 1.0, 0};
    PetscCall(assemble(tb, ntb, NULL, NULL, 0, &rb, &B));
    rb.mmax = mm.maxabs;
    rb.w = -1;
    ta[nta++] = (term){NULL, PLACE_SQUARE, 0, n, 0, 0, n, 1.0, 1};
    ta[nta++] = (term){&mk, PLACE_SQUARE, n, 0, 0, 0, 0, -1.0, 1};
    ta[nta++] = (term){&mr, PLACE_SQUARE, n, n, 0, 0, 0, -1.0, 0};
    ta[nta++] = (term){&mc, PLACE_CONSTRAINT, 2 * n, 0, n, 2 * n, 0, -1.0, 0};
    PetscCall(assemble(ta, nta, &mk, &mc, 0, &rb, &A));
  }
  PetscCall(PetscFree2(rb.dnz, rb.onz));
  mm_close(&mk);
  mm_close(&mm);
  mm_close(&mc);
  mm_close(&mr);
  PetscCall(MatGetInfo(A, MAT_GLOBAL_SUM, &ia));
  PetscCall(MatGetInfo(B, MAT_GLOBAL_SUM, &ib));
  tr = MPI_Wtime() - t0;                                      /* read+assemble, rank-local */

  /* EPS: Krylov-Schur, shift-and-invert at sigma, exact solves by MUMPS */
  PetscCall(EPSCreate(PETSC_COMM_WORLD, &eps));
  PetscCall(EPSSetOperators(eps, A, B));
  PetscCall(EPSSetProblemType(eps, gen ? EPS_GHEP : EPS_GNHEP));
  PetscCall(EPSSetType(eps, EPSKRYLOVSCHUR));
  PetscCall(EPSSetDimensions(eps, nev + extra, PETSC_DEFAULT, PETSC_DEFAULT));
  PetscCall(EPSSetTolerances(eps, tol, PETSC_DEFAULT));
  PetscCall(EPSSetTarget(eps, sigma));
  PetscCall(EPSSetWhichEigenpairs(eps, EPS_TARGET_MAGNITUDE));
  PetscCall(EPSGetST(eps, &st));
  PetscCall(STSetType(st, STSINVERT));
  PetscCall(STGetKSP(st, &ksp));
  PetscCall(KSPSetType(ksp, KSPPREONLY));
  PetscCall(KSPGetPC(ksp, &pc));
  PetscCall(PCSetType(pc, !damped && mk.symmetric && mm.symmetric ? PCCHOLESKY : PCLU));
  PetscCall(PetscOptionsHasName(NULL, NULL, "-st_mat_mumps_icntl_14", &set));
  if (!set) PetscCall(PetscOptionsSetValue(NULL, "-st_mat_mumps_icntl_14", ICNTL14_DEFAULT));
  PetscCall(EPSSetFromOptions(eps));
  PetscCall(PetscOptionsHasName(NULL, NULL, "-st_pc_factor_mat_solver_type", &set));
  if (!set) PetscCall(PCFactorSetMatSolverType(pc, MATSOLVERMUMPS)); /* after -st_pc_type, which resets it */
  PetscCall(PetscObjectTypeCompare((PetscObject)pc, PCCHOLESKY, &chol));
  PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
  t1 = MPI_Wtime();                                           /* solve timing starts here */
  PetscCall(EPSSetUp(eps));                                   /* includes MUMPS factorisation */
  PetscCall(EPSGetDimensions(eps, &nwant, &ncv, NULL));      /* after -eps_nev, -eps_ncv, setup */
  t2 = MPI_Wtime();
  PetscCall(EPSSolve(eps));
  PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
  t3 = MPI_Wtime();

  /* the nev converged eigenvalues nearest sigma (EPS returns them in that order); undamped
     ascending, damped by |lambda| */
  PetscCall(EPSGetConverged(eps, &nconv));
  PetscCall(EPSGetIterationNumber(eps, &its));
  nout = PetscMin(nconv, nev);
  PetscCall(PetscMalloc1(nout > 0 ? nout : 1, &lam));
  for (k = 0; k < nout; k++) {
    PetscScalar kr, ki;
    PetscCall(EPSGetEigenvalue(eps, k, &kr, &ki));
    PetscCall(EPSComputeError(eps, k, EPS_ERROR_RELATIVE, &err));
    lam[k].re = (double)PetscRealPart(kr);
    lam[k].im = damped ? (double)PetscImaginaryPart(kr) : 0.0;
    errmax = PetscMax(errmax, err);
    if (!damped)
      imax = PetscMax(imax, PetscAbsReal(PetscRealPart(ki)) / PetscMax(PetscAbsReal(lam[k].re), 1e-300));
  }
  qsort(lam, (size_t)nout, sizeof *lam, damped ? cmp_cval : cmp_re);
  if (rank == 0) {
    out = fopen(argv[4], "w");
    if (!out) {
      fprintf(stderr, "slepc_peer: %s: cannot write: %s\n", argv[4], strerror(errno));
      status = 1;
    } else {
      for (k = 0; k < nout; k++) {
        if (damped) fprintf(out, "%.17g %.17g\n", lam[k].re, lam[k].im);
        else fprintf(out, "%.17g\n", lam[k].re);
      }
      if (fclose(out) != 0) {
        fprintf(stderr, "slepc_peer: %s: write failed\n", argv[4]);
        status = 1;
      }
    }
  }
  PetscCallMPI(MPI_Bcast(&status, 1, MPI_INT, 0, PETSC_COMM_WORLD));
  if (!status && nout < nev) status = 2;

  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "peer: n=%" PetscInt_FMT " m=%" PetscInt_FMT " order=%" PetscInt_FMT
                        " nnz(A)=%.0f nnz(B)=%.0f ranks=%d %s\n", n, m, rb.N, ia.nz_used, ib.nz_used, (int)size,
                        damped ? "damped (complex scalars)" : "undamped (real scalars)"));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "peer: EPS %s Krylov-Schur, sinvert at %g, MUMPS %s, Cq scale %g, tol %g\n",
                        gen ? "GHEP" : "GNHEP", (double)sigma, chol ? "LDL^T (Cholesky)" : "LU", rb.cscale,
                        (double)tol));
  if (damped) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "peer: balance w %g (A = [0 wI 0; -K/w -R -s Cq'; -s Cq 0 0])\n", rb.w));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "peer: read+assemble %.3f s, EPSSetUp %.3f s, EPSSolve %.3f s\n",
                        tr, t2 - t1, t3 - t2));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "peer: nev=%" PetscInt_FMT " (EPS nev=%" PetscInt_FMT " ncv=%" PetscInt_FMT
                        ") nconv=%" PetscInt_FMT " restarts=%" PetscInt_FMT " max relative residual %.3e"
                        " max |imag|/|real| %.3e\n", nev, nwant, ncv, nconv, its, (double)errmax, (double)imax));
  if (nout < nev)
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "peer: WARNING only %" PetscInt_FMT " of %" PetscInt_FMT
                          " eigenvalues converged\n", nout, nev));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "peer_solve_seconds %.6f\n", t3 - t1));

  PetscCall(PetscFree(lam));
  PetscCall(EPSDestroy(&eps));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&B));
  PetscCall(SlepcFinalize());
  return status;
}
