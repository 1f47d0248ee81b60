/* slepc_peer.c: SLEPc reference solver for mbmodal's benchmark (same constrained GEP, same method) */

/*
 * usage: mpirun -np N slepc_peer K.mtx M.mtx Cq.mtx OUT [-nev 100] [-extra 10] [-sigma -1e-3]
 *                    [-tol 1e-10] [-cscale auto|S] [-gen] [PETSc/SLEPc options]
 *        mpirun -np N slepc_peer_complex K.mtx M.mtx Cq.mtx OUT -damped R.mtx [-nev 100]
 *                    [-extra 0] [-sigma 1e-3] [-tol 1e-10] [PETSc/SLEPc options]
 *
 * Built against the complex flavour of PETSc/SLEPc (run.sh DAMPED=1), it solves mbmodal's
 * damped pencil instead: the balanced GEP (31) of seed 001 as mbmodal writes it
 * (src/eigen/pencil.h), order 2n + m, with w = 2^round(log2(max|K| / max|M|) / 2) and
 * s = 2^round(log2(max|K| / max|Cq|)) / w,
 *
 *     A = [0      w I   0      ]   B = [I  0  0]
 *         [-K/w   -R    -s Cq' ]       [0  M  0]
 *         [-s/w Cq 0    0      ]       [0  0  0]
 *
 * by EPS Krylov-Schur (GNHEP), sinvert at the real target sigma (mbmodal's default 1e-3),
 * PC LU by MUMPS in complex arithmetic (what a SLEPc user has for this pencil: it is not
 * symmetric). mbmodal asks 2 x modes eigenvalues (both members of a pair): give -nev 2 x
 * modes and -extra 0. OUT then holds one eigenvalue a line, "re im" (%.17g), in EPS order.
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
 */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <slepceps.h>

/* The real flavour solves the undamped pencil; the complex flavour only the damped one
   (-damped R.mtx): run.sh builds each against its own pkg-config directories. */

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
} rowblock;

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

#if !defined(PETSC_USE_COMPLEX)
/* one pass over mm's entries: PLACE_SQUARE puts X(i,j) (and its mirror) at (i,j); PLACE_CONSTRAINT
   puts Cq(i,j) at (n+i,j) and (j,n+i). Counts into rb if A is NULL, else adds to A. */
static PetscErrorCode place_file(mmfile *mm, place_mode mode, PetscInt n, rowblock *rb, Mat A)
{
  PetscInt i = 0, j = 0;
  double v = 0;
  int got;

  PetscFunctionBeginUser;
  PetscCall(mm_rewind(mm));
  for (;;) {
    PetscCall(mm_next(mm, &i, &j, &v, &got));
    if (!got) break;
    if (mode == PLACE_CONSTRAINT) {
      PetscCall(place_one(rb, A, n + i, j, rb->cscale * v));
      PetscCall(place_one(rb, A, j, n + i, rb->cscale * v));
    } else {
      PetscCall(place_one(rb, A, i, j, v));
      if (i != j && (mm->symmetric || mm->skew)) PetscCall(place_one(rb, A, j, i, mm->skew ? -v : v));
    }
  }
  PetscFunctionReturn(0);
}

/* creates the N x N AIJ matrix holding X (and s*Cq when cq != NULL) in rows rb: two passes,
   exact preallocation; resolves rb->cscale = 0 (auto). Collective. Caller destroys *out. */
static PetscErrorCode assemble(mmfile *x, mmfile *cq, PetscInt n, rowblock *rb, Mat *out)
{
  PetscInt k, nloc = rb->rend - rb->rstart;
  Mat A;

  PetscFunctionBeginUser;
  PetscCall(PetscArrayzero(rb->dnz, nloc));
  PetscCall(PetscArrayzero(rb->onz, nloc));
  PetscCall(place_file(x, PLACE_SQUARE, n, rb, NULL));
  if (cq) PetscCall(place_file(cq, PLACE_CONSTRAINT, n, rb, NULL));
  if (cq && rb->cscale == 0) {               /* s = 2^round(log2(max|K| / max|Cq|)): exact scaling */
    rb->cscale = 1;
    if (x->maxabs > 0 && cq->maxabs > 0) rb->cscale = ldexp(1.0, (int)lround(log2(x->maxabs / cq->maxabs)));
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
  PetscCall(place_file(x, PLACE_SQUARE, n, rb, A));
  if (cq) PetscCall(place_file(cq, PLACE_CONSTRAINT, n, rb, A));
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  if (x->symmetric) {                        /* lets -pc_type cholesky pick MUMPS's symmetric mode */
    PetscCall(MatSetOption(A, MAT_SYMMETRIC, PETSC_TRUE));
    PetscCall(MatSetOption(A, MAT_SYMMETRY_ETERNAL, PETSC_TRUE));
  }
  *out = A;
  PetscFunctionReturn(0);
}

#endif

#if defined(PETSC_USE_COMPLEX)
/* one pass over mm's entries X(i,j) (and the mirror of a symmetric file): alpha X at
   (r0 + i, c0 + j), or alpha X^T at (r0 + j, c0 + i) when transpose. Counts into rb if A is
   NULL, else adds to A. */
static PetscErrorCode place_block(mmfile *mm, PetscInt r0, PetscInt c0, double alpha, int transpose,
                                  rowblock *rb, Mat A)
{
  PetscInt i = 0, j = 0;
  double v = 0;
  int got;

  PetscFunctionBeginUser;
  PetscCall(mm_rewind(mm));
  for (;;) {
    PetscCall(mm_next(mm, &i, &j, &v, &got));
    if (!got) break;
    if (transpose) PetscCall(place_one(rb, A, r0 + j, c0 + i, alpha * v));
    else PetscCall(place_one(rb, A, r0 + i, c0 + j, alpha * v));
    if (i != j && (mm->symmetric || mm->skew)) {
      double u = mm->skew ? -v : v;
      if (transpose) PetscCall(place_one(rb, A, r0 + i, c0 + j, alpha * u));
      else PetscCall(place_one(rb, A, r0 + j, c0 + i, alpha * u));
    }
  }
  PetscFunctionReturn(0);
}

/* alpha I (n x n) at (r0, c0), counted or added as place_block does */
static PetscErrorCode place_identity(PetscInt r0, PetscInt c0, PetscInt n, double alpha, rowblock *rb, Mat A)
{
  PetscFunctionBeginUser;
  for (PetscInt i = 0; i < n; i++) PetscCall(place_one(rb, A, r0 + i, c0 + i, alpha));
  PetscFunctionReturn(0);
}

/* the blocks of A (which = 0) or B (which = 1) of the balanced GEP (31), counted or added */
static PetscErrorCode place_damped(int which, mmfile *k, mmfile *r, mmfile *mm, mmfile *cq, PetscInt n,
                                   double w, double s, rowblock *rb, Mat A)
{
  PetscFunctionBeginUser;
  if (which == 1) {
    PetscCall(place_identity(0, 0, n, 1.0, rb, A));
    PetscCall(place_block(mm, n, n, 1.0, 0, rb, A));
  } else {
    PetscCall(place_identity(0, n, n, w, rb, A));
    PetscCall(place_block(k, n, 0, -1.0 / w, 0, rb, A));
    PetscCall(place_block(r, n, n, -1.0, 0, rb, A));
    PetscCall(place_block(cq, n, 2 * n, -s, 1, rb, A));
    PetscCall(place_block(cq, 2 * n, 0, -s / w, 0, rb, A));
  }
  PetscFunctionReturn(0);
}

/* creates the (2n + m) x (2n + m) matrix A or B (which) of GEP (31) in rows rb: two passes,
   exact preallocation; the first pass of B reads max|M|, that of A max|K| and max|Cq|, and
   then *w and *s are set as mbmodal sets them. Collective. Caller destroys *out. */
static PetscErrorCode assemble_damped(int which, mmfile *k, mmfile *r, mmfile *mm, mmfile *cq, PetscInt n,
                                      rowblock *rb, double *w, double *s, Mat *out)
{
  PetscInt i, nloc = rb->rend - rb->rstart;
  Mat A;

  PetscFunctionBeginUser;
  PetscCall(PetscArrayzero(rb->dnz, nloc));
  PetscCall(PetscArrayzero(rb->onz, nloc));
  PetscCall(place_damped(which, k, r, mm, cq, n, 1.0, 1.0, rb, NULL));
  if (which == 0) {
    *w = 1.0;
    if (k->maxabs > 0 && mm->maxabs > 0) *w = ldexp(1.0, (int)lround(0.5 * log2(k->maxabs / mm->maxabs)));
    *s = 1.0;
    if (k->maxabs > 0 && cq->maxabs > 0) *s = ldexp(1.0, (int)lround(log2(k->maxabs / cq->maxabs)));
    *s /= *w;
  }
  for (i = 0; i < nloc; i++) {
    rb->dnz[i] = PetscMin(rb->dnz[i], nloc);
    rb->onz[i] = PetscMin(rb->onz[i], rb->N - nloc);
  }
  PetscCall(MatCreate(PETSC_COMM_WORLD, &A));
  PetscCall(MatSetSizes(A, nloc, nloc, rb->N, rb->N));
  PetscCall(MatSetType(A, MATAIJ));
  PetscCall(MatSeqAIJSetPreallocation(A, 0, rb->dnz));
  PetscCall(MatMPIAIJSetPreallocation(A, 0, rb->dnz, 0, rb->onz));
  PetscCall(MatSetOption(A, MAT_NO_OFF_PROC_ENTRIES, PETSC_TRUE));
  PetscCall(place_damped(which, k, r, mm, cq, n, *w, *s, rb, A));
  PetscCall(MatAssemblyBegin(A, MAT_FINAL_ASSEMBLY));
  PetscCall(MatAssemblyEnd(A, MAT_FINAL_ASSEMBLY));
  *out = A;
  PetscFunctionReturn(0);
}
#endif

/* ascending order of doubles, for qsort */
static int cmp_double(const void *a, const void *b)
{
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv)
{
  mmfile mk, mm, mc;
  rowblock rb = {0}; /* cscale 0: auto */
  Mat A = NULL, B = NULL;
  EPS eps = NULL;
  ST st;
  KSP ksp;
  PC pc;
  PetscInt n, m, nev = 100, extra = 10, nwant, ncv, nconv = 0, nout, its = 0, k, nloc;
  PetscReal sigma = -1e-3, tol = 1e-10, err, errmax = 0, imax = 0;
  PetscBool gen = PETSC_FALSE, set, chol, damped = PETSC_FALSE;
  char word[64] = "auto", rpath[PETSC_MAX_PATH_LEN] = "";
  mmfile mr;
  double w = 1.0, s = 1.0;
  PetscMPIInt rank, size;
  MatInfo ia, ib;
  double t0, t1, t2, t3, tr, *lam = NULL, *lamc = NULL;
  FILE *out;
  int status = 0;

  memset(&mk, 0, sizeof mk);
  memset(&mm, 0, sizeof mm);
  memset(&mc, 0, sizeof mc);
  memset(&mr, 0, sizeof mr);
  PetscCall(SlepcInitialize(&argc, &argv, NULL, NULL));
  PetscCallMPI(MPI_Comm_rank(PETSC_COMM_WORLD, &rank));
  PetscCallMPI(MPI_Comm_size(PETSC_COMM_WORLD, &size));
  if (argc < 5 || argv[1][0] == '-' || argv[2][0] == '-' || argv[3][0] == '-' || argv[4][0] == '-') {
    PetscCall(PetscPrintf(PETSC_COMM_WORLD, "usage: slepc_peer K.mtx M.mtx Cq.mtx OUT [-nev N] [-extra E] "
                          "[-sigma S] [-tol T] [-cscale auto|S] [-gen] [PETSc/SLEPc options]\n"));
    PetscCall(SlepcFinalize());
    return 1;
  }
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-nev", &nev, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-sigma", &sigma, NULL));
  PetscCall(PetscOptionsGetReal(NULL, NULL, "-tol", &tol, NULL));
  PetscCall(PetscOptionsGetBool(NULL, NULL, "-gen", &gen, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-cscale", word, sizeof word, &set));
  if (set && strcmp(word, "auto") != 0) {
    char *end;
    rb.cscale = strtod(word, &end);
    PetscCheck(end != word && *end == '\0' && rb.cscale != 0 && !PetscIsInfOrNanReal(rb.cscale), PETSC_COMM_WORLD,
               PETSC_ERR_ARG_OUTOFRANGE, "-cscale must be 'auto' or a nonzero number");
  }
  PetscCall(PetscOptionsGetInt(NULL, NULL, "-extra", &extra, NULL));
  PetscCall(PetscOptionsGetString(NULL, NULL, "-damped", rpath, sizeof rpath, &damped));
#if defined(PETSC_USE_COMPLEX)
  PetscCheck(damped, PETSC_COMM_WORLD, PETSC_ERR_SUP, "the complex build solves the damped pencil only: give -damped R.mtx "
             "(the undamped one needs the real flavour; run.sh selects it)");
#else
  PetscCheck(!damped, PETSC_COMM_WORLD, PETSC_ERR_SUP, "-damped needs the complex flavour of PETSc/SLEPc (run.sh DAMPED=1)");
#endif
  PetscCheck(nev >= 1 && extra >= 0, PETSC_COMM_WORLD, PETSC_ERR_ARG_OUTOFRANGE, "need -nev >= 1, -extra >= 0");

  /* read: every rank streams the files and keeps its own rows */
  PetscCallMPI(MPI_Barrier(PETSC_COMM_WORLD));
  t0 = MPI_Wtime();
  PetscCall(mm_open(&mk, argv[1]));
  PetscCall(mm_open(&mm, argv[2]));
  PetscCall(mm_open(&mc, argv[3]));
  n = mk.rows;
  m = mc.rows;
  PetscCheck(mk.cols == n && mm.rows == n && mm.cols == n, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ,
             "K is %" PetscInt_FMT "x%" PetscInt_FMT ", M is %" PetscInt_FMT "x%" PetscInt_FMT ": must be square and equal",
             mk.rows, mk.cols, mm.rows, mm.cols);
  PetscCheck(mc.cols == n, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "Cq has %" PetscInt_FMT " columns, K has %" PetscInt_FMT,
             mc.cols, n);
  rb.N = damped ? 2 * n + m : n + m;
  nloc = PETSC_DECIDE;
  PetscCall(PetscSplitOwnership(PETSC_COMM_WORLD, &nloc, &rb.N));
  PetscCallMPI(MPI_Scan(&nloc, &rb.rend, 1, MPIU_INT, MPI_SUM, PETSC_COMM_WORLD));
  rb.rstart = rb.rend - nloc;
  PetscCall(PetscMalloc2(nloc, &rb.dnz, nloc, &rb.onz));
#if defined(PETSC_USE_COMPLEX)
  PetscCall(mm_open(&mr, rpath));
  PetscCheck(mr.rows == n && mr.cols == n, PETSC_COMM_SELF, PETSC_ERR_ARG_SIZ, "R is not %" PetscInt_FMT " x %"
             PetscInt_FMT, n, n);
  PetscCall(assemble_damped(1, &mk, &mr, &mm, &mc, n, &rb, &w, &s, &B));   /* B = diag(I, M, 0) */
  PetscCall(assemble_damped(0, &mk, &mr, &mm, &mc, n, &rb, &w, &s, &A));   /* A of GEP (31) */
  rb.cscale = s * w;
  mm_close(&mr);
#else
  PetscCall(assemble(&mk, &mc, n, &rb, &A));                  /* A = [K Cq'; Cq 0] */
  PetscCall(assemble(&mm, NULL, n, &rb, &B));                 /* B = [M 0; 0 0] */
#endif
  PetscCall(PetscFree2(rb.dnz, rb.onz));
  mm_close(&mk);
  mm_close(&mm);
  mm_close(&mc);
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
  PetscCall(PCSetType(pc, mk.symmetric && mm.symmetric && !damped ? PCCHOLESKY : PCLU));
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

  /* the nev converged eigenvalues nearest sigma (EPS returns them in that order), ascending */
  PetscCall(EPSGetConverged(eps, &nconv));
  PetscCall(EPSGetIterationNumber(eps, &its));
  nout = PetscMin(nconv, nev);
  PetscCall(PetscMalloc1(nout > 0 ? nout : 1, &lam));
  PetscCall(PetscMalloc1(2 * (nout > 0 ? nout : 1), &lamc));
  for (k = 0; k < nout; k++) {
    PetscScalar kr, ki;
    PetscCall(EPSGetEigenvalue(eps, k, &kr, &ki));
    PetscCall(EPSComputeError(eps, k, EPS_ERROR_RELATIVE, &err));
    lam[k] = (double)PetscRealPart(kr);
    lamc[2 * k] = (double)PetscRealPart(kr);
    lamc[2 * k + 1] = (double)PetscImaginaryPart(kr);
    errmax = PetscMax(errmax, err);
    imax = PetscMax(imax, PetscAbsReal(PetscRealPart(ki)) / PetscMax(PetscAbsReal(lam[k]), 1e-300));
  }
  if (!damped) qsort(lam, (size_t)nout, sizeof *lam, cmp_double);
  if (rank == 0) {
    out = fopen(argv[4], "w");
    if (!out) {
      fprintf(stderr, "slepc_peer: %s: cannot write: %s\n", argv[4], strerror(errno));
      status = 1;
    } else {
      for (k = 0; k < nout; k++)
        if (damped) fprintf(out, "%.17g %.17g\n", lamc[2 * k], lamc[2 * k + 1]);
        else fprintf(out, "%.17g\n", lam[k]);
      if (fclose(out) != 0) {
        fprintf(stderr, "slepc_peer: %s: write failed\n", argv[4]);
        status = 1;
      }
    }
  }
  PetscCallMPI(MPI_Bcast(&status, 1, MPI_INT, 0, PETSC_COMM_WORLD));
  if (!status && nout < nev) status = 2;

  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "peer: n=%" PetscInt_FMT " m=%" PetscInt_FMT " order=%" PetscInt_FMT
                        " nnz(A)=%.0f nnz(B)=%.0f ranks=%d%s\n", n, m, rb.N, ia.nz_used, ib.nz_used, (int)size,
                        damped ? " damped: GEP (31), complex scalars" : ""));
  if (damped) PetscCall(PetscPrintf(PETSC_COMM_WORLD, "peer: balancing w %g, Cq^T block scale s %g\n", w, s));
  PetscCall(PetscPrintf(PETSC_COMM_WORLD, "peer: EPS %s Krylov-Schur, sinvert at %g, MUMPS %s, Cq scale %g, tol %g\n",
                        gen ? "GHEP" : "GNHEP", (double)sigma, chol ? "LDL^T (Cholesky)" : "LU", rb.cscale,
                        (double)tol));
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
  PetscCall(PetscFree(lamc));
  PetscCall(EPSDestroy(&eps));
  PetscCall(MatDestroy(&A));
  PetscCall(MatDestroy(&B));
  PetscCall(SlepcFinalize());
  return status;
}
