/* state_space.c: the first-order model (A, B, C, D) of an frf section's inputs and
   outputs, modal or full (seed 003's reduction of massless DOFs), as Matrix Market files
   with a YAML index. */
#include "frf.h"

#include <lapacke.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "../linalg/mmio.h"
#include "../report/writer.h"

/* The largest system the full export forms densely (n x n doubles). */
enum { FULL_MAX_DOFS = 2000 };

/* A dense system being filled: A ns x ns, B ns x ni, C no x ns, D no x ni, column-major,
   and a name per state. */
typedef struct ss {
  int ns, ni, no;
  double *A, *B, *C, *D;
  char (*names)[32];
} ss;

static void ss_clear (ss *s)
{
  free (s->A); free (s->B); free (s->C); free (s->D); free (s->names);
  memset (s, 0, sizeof *s);
}

static int ss_alloc (ss *s, int ns, int ni, int no, mb_err *err)
{
  s->ns = ns, s->ni = ni, s->no = no;
  size_t a = (size_t) ns * ns, b = (size_t) ns * ni, c = (size_t) no * ns;
  s->A = calloc (a ? a : 1, sizeof *s->A);
  s->B = calloc (b ? b : 1, sizeof *s->B);
  s->C = calloc (c ? c : 1, sizeof *s->C);
  s->D = calloc ((size_t) no * ni, sizeof *s->D);
  s->names = calloc ((size_t) (ns ? ns : 1), sizeof *s->names);
  if (!s->A || !s->B || !s->C || !s->D || !s->names)
    return mb_fail (err, MB_ENOMEM, "out of memory for the state-space model");
  return 0;
}

#define AT(X, ld, i, j) (X)[(size_t) (j) * (ld) + (i)]

/* Modal export with modal damping ratios: states q_j (mode coordinates, phi_j mass-
   normalized) then q_j': A = [0 I; -Omega^2 -2 Z Omega], B = [0; Phi^T b],
   displacement C = [c^T Phi 0] (D = H_res when corrected), velocity [0 c^T Phi],
   acceleration c^T Phi [-Omega^2 -2 Z Omega] with D = c^T Phi Phi^T b. */
static int modal_ratios (const frf_data *f, ss *s, mb_err *err)
{
  int nm = f->nmodes, no = f->nout, ni = f->nin;
  MB_TRY (ss_alloc (s, 2 * nm, ni, no, err));
  for (int j = 0; j < nm; j++) {
    double w = sqrt (f->w2[j]), z = f->zeta[j];
    snprintf (s->names[j], 32, "q%d", j + 1);
    snprintf (s->names[nm + j], 32, "q%d_dot", j + 1);
    AT (s->A, s->ns, j, nm + j) = 1.0;
    AT (s->A, s->ns, nm + j, j) = -f->w2[j];
    AT (s->A, s->ns, nm + j, nm + j) = -2.0 * z * w;
    for (int k = 0; k < ni; k++) AT (s->B, s->ns, nm + j, k) = f->phib[j + (size_t) k * nm];
    for (int o = 0; o < no; o++) {
      double cp = f->cphi[o + (size_t) j * no];
      if (f->quantity[o] == FRF_DISPLACEMENT) AT (s->C, no, o, j) = cp;
      else if (f->quantity[o] == FRF_VELOCITY) AT (s->C, no, o, nm + j) = cp;
      else {
        AT (s->C, no, o, j) = -f->w2[j] * cp;
        AT (s->C, no, o, nm + j) = -2.0 * z * w * cp;
        for (int k = 0; k < ni; k++) AT (s->D, no, o, k) += cp * f->phib[j + (size_t) k * nm];
      }
    }
  }
  return 0;
}

/* Modal export with complex modes: z_j' = lambda_j z_j + u_j^T u, y = sum v_j z_j (+ the
   conjugate); a pair as the real states (Re z, Im z) with A block [s -w; w s] (lambda =
   s + i w), B rows (Re u, Im u), C = 2 (Re v, -Im v); a real mode as one state. Velocity:
   v lambda in C and Re (v u) (2 Re for a pair) in D. Acceleration is not proper for a
   truncated set of complex modes (s^2 / (s - lambda) has a term in s): refused. */
static int modal_complex (const deck *d, const frf_data *f, ss *s, mb_err *err)
{
  int nm = f->nmodes, no = f->nout, ni = f->nin, ns = 0;
  for (int o = 0; o < no; o++)
    if (f->quantity[o] == FRF_ACCELERATION)
      return mb_fail_at (err, MB_EDECK, d->path, d->frf.outputs[o].pos.line,
                         d->frf.outputs[o].pos.col, "frf: output '%s': an acceleration has no "
                         "proper modal state-space model from complex modes; use "
                         "state_space_model: full, or modal damping ratios",
                         d->frf.outputs[o].name);
  for (int j = 0; j < nm; j++) ns += f->pair[j] ? 2 : 1;
  MB_TRY (ss_alloc (s, ns, ni, no, err));
  int r = 0;
  for (int j = 0; j < nm; j++) {
    double complex lam = f->lambda[j];
    double sc = f->pair[j] ? 2.0 : 1.0;
    if (f->pair[j]) {
      snprintf (s->names[r], 32, "re_z%d", j + 1);
      snprintf (s->names[r + 1], 32, "im_z%d", j + 1);
      AT (s->A, ns, r, r) = creal (lam);
      AT (s->A, ns, r, r + 1) = -cimag (lam);
      AT (s->A, ns, r + 1, r) = cimag (lam);
      AT (s->A, ns, r + 1, r + 1) = creal (lam);
    } else {
      snprintf (s->names[r], 32, "z%d", j + 1);
      AT (s->A, ns, r, r) = creal (lam);
    }
    for (int k = 0; k < ni; k++) {
      double complex u = f->u[j + (size_t) k * nm];
      AT (s->B, ns, r, k) = creal (u);
      if (f->pair[j]) AT (s->B, ns, r + 1, k) = cimag (u);
    }
    for (int o = 0; o < no; o++) {
      double complex v = f->v[o + (size_t) j * no];
      if (f->quantity[o] == FRF_VELOCITY) {
        for (int k = 0; k < ni; k++)
          AT (s->D, no, o, k) += sc * creal (v * f->u[j + (size_t) k * nm]);
        v *= lam;
      }
      AT (s->C, no, o, r) = sc * creal (v);
      if (f->pair[j]) AT (s->C, no, o, r + 1) = -sc * cimag (v);
    }
    r += f->pair[j] ? 2 : 1;
  }
  return 0;
}

/* The full model's split of the n DOFs (full_model): cls[j] 0 (I: a non-zero in column j
   of M), 1 (C: none in M, some in R) or 2 (K: neither); pos[j] its place among its class,
   I first, then C, then K; nI, nC the counts; Z (n x nr, column-major) G^-1 times the
   right-hand sides K_:I, K_:C, R_:I and b (nr = 2 nI + nC + ni columns). Arrays owned by
   full_model. */
typedef struct full_split {
  int n, nI, nC, nr;
  int *cls, *pos;
  double *Z;
} full_split;

/* Each DOF's class (and its letter in kind: 'i', 'c', 'k') from the dense M and R, and
   its place pos among its class, I first, then C, then K; nI and nC. */
static void full_classes (full_split *x, const double *Md, const double *Rd, char *kind)
{
  int n = x->n, cnt[3] = { 0, 0, 0 };
  for (int j = 0; j < n; j++) {
    int inm = 0, inr = 0;
    for (int i = 0; i < n; i++) {
      if (Md[(size_t) j * n + i] != 0) inm = 1;
      if (Rd[(size_t) j * n + i] != 0) inr = 1;
    }
    x->cls[j] = inm ? 0 : inr ? 1 : 2;
    kind[j] = "ick"[x->cls[j]];
  }
  for (int j = 0; j < n; j++) cnt[x->cls[j]]++;
  int ofs[3] = { 0, cnt[0], cnt[0] + cnt[1] };
  {
    int next[3] = { ofs[0], ofs[1], ofs[2] };
    for (int j = 0; j < n; j++) x->pos[j] = next[x->cls[j]]++;
  }
  x->nI = cnt[0], x->nC = cnt[1];
}

/* G = [M_:I, R_:C, K_:K] (column pos[j] is column j of M, R or K; into G, n x n) and the
   right-hand sides Z = [K_:I, K_:C, R_:I, b] (x->Z, n x nr, zero), then Z <- G^-1 Z by
   LU (dgetrf, dgetrs; piv n). Returns the LAPACK info: 0, or non-zero when G is
   singular. */
static lapack_int full_solve (const full_split *x, const frf_data *f, const double *Kd,
                              const double *Md, const double *Rd, double *G,
                              lapack_int *piv)
{
  int n = x->n, nI = x->nI, nC = x->nC, ni = f->nin;
  const int *cls = x->cls, *pos = x->pos;
  double *Z = x->Z;
  /* G: column pos[j] is column j of M (I), R (C) or K (K); column-major */
  for (int j = 0; j < n; j++) {
    const double *src = cls[j] == 0 ? Md : cls[j] == 1 ? Rd : Kd;
    for (int i = 0; i < n; i++) AT (G, n, i, pos[j]) = src[(size_t) j * n + i];
  }
  for (int j = 0; j < n; j++) {
    if (cls[j] == 0)
      for (int i = 0; i < n; i++) {
        AT (Z, n, i, pos[j]) = Kd[(size_t) j * n + i];
        AT (Z, n, i, nI + nC + pos[j]) = Rd[(size_t) j * n + i];
      }
    else if (cls[j] == 1)
      for (int i = 0; i < n; i++) AT (Z, n, i, pos[j]) = Kd[(size_t) j * n + i];
  }
  for (int k = 0; k < ni; k++)
    for (int i = 0; i < n; i++) AT (Z, n, i, 2 * nI + nC + k) = f->b[i + (size_t) k * n];
  lapack_int info = LAPACKE_dgetrf (LAPACK_COL_MAJOR, n, n, G, n, piv);
  if (info == 0 && x->nr > 0)
    info = LAPACKE_dgetrs (LAPACK_COL_MAJOR, 'N', n, x->nr, G, n, piv, Z, n);
  return info;
}

/* The states' names (x<j>, x<j>_dot) and A, B of the full model from Z's rows: rows
   [0, nI) are q_I'' (gamma), [nI, nI + nC) q_C' (alpha), the rest q_K:
   A = [0 0 I; -alpha K_:I ...; -gamma K_:I ...], B = [0; alpha b; gamma b]. */
static void full_states (const full_split *x, int ni, ss *s)
{
  int n = x->n, nI = x->nI, nC = x->nC, nr = x->nr, ns = s->ns;
  const int *cls = x->cls, *pos = x->pos;
  const double *Z = x->Z;
  for (int j = 0; j < n; j++) {
    if (cls[j] == 0) {
      snprintf (s->names[pos[j]], 32, "x%d", j + 1);
      snprintf (s->names[nI + nC + pos[j]], 32, "x%d_dot", j + 1);
    } else if (cls[j] == 1) snprintf (s->names[pos[j]], 32, "x%d", j + 1);
  }
  /* Z rows pos in [0, nI): q_I'' (gamma), [nI, nI + nC): q_C' (alpha), rest: q_K */
  for (int i = 0; i < nI; i++) AT (s->A, ns, i, nI + nC + i) = 1.0;
  for (int row = 0; row < nI + nC; row++) {
    int srow = row < nI ? nI + nC + row : row;  /* the state whose derivative this is */
    for (int c = 0; c < nI + nC + nI; c++) AT (s->A, ns, srow, c) = -AT (Z, n, row, c);
    for (int k = 0; k < ni; k++) AT (s->B, ns, srow, k) = AT (Z, n, row, nr - ni + k);
  }
}

/* C and D of the full model from the frf outputs: a displacement reads q_I, q_C (the
   state itself) or, for a K DOF, minus its Z row; a velocity q_I' or, for a C DOF, its A
   row (minus its Z row, D from b); an acceleration of an I DOF its A row likewise. A
   velocity of a K DOF or an acceleration of a C or K DOF is not proper: MB_EDECK at the
   output's position. Returns 0 or that error. */
static int full_outputs (const deck *d, const frf_data *f, const full_split *x, ss *s,
                         mb_err *err)
{
  int n = x->n, nI = x->nI, nC = x->nC, nr = x->nr, no = f->nout, ni = f->nin;
  const int *cls = x->cls, *pos = x->pos;
  const double *Z = x->Z;
  for (int o = 0; o < no; o++) {
    const double *c = f->c + (size_t) o * n;
    int q = f->quantity[o];
    for (int j = 0; j < n; j++) {
      if (c[j] == 0) continue;
      if ((q == FRF_VELOCITY && cls[j] == 2) || (q == FRF_ACCELERATION && cls[j] != 0))
        return mb_fail_at (err, MB_EDECK, d->path, d->frf.outputs[o].pos.line,
                           d->frf.outputs[o].pos.col, "frf: output '%s': the %s of DOF %d, "
                           "which has no %s, is not a state or a proper output of the full "
                           "model (seed 003)", d->frf.outputs[o].name, q == FRF_VELOCITY
                           ? "velocity" : "acceleration", j + 1, cls[j] == 2 ? "mass or "
                           "damping" : "mass");
      /* the state rows that y depends on: displacement of I, C: the state itself; of K:
         minus its Z row; velocity of I: q_I'; of C: its A row; acceleration of I: A row */
      if (q == FRF_DISPLACEMENT && cls[j] != 2) AT (s->C, no, o, pos[j]) += c[j];
      else if (q == FRF_VELOCITY && cls[j] == 0) AT (s->C, no, o, nI + nC + pos[j]) += c[j];
      else {
        int zr = pos[j];  /* its row of Z */
        for (int col = 0; col < nI + nC + nI; col++)
          AT (s->C, no, o, col) -= c[j] * AT (Z, n, zr, col);
        for (int k = 0; k < ni; k++) AT (s->D, no, o, k) += c[j] * AT (Z, n, zr, nr - ni + k);
      }
    }
  }
  return 0;
}

/* Full export (no constraints, n <= FULL_MAX_DOFS), seed 003 section 2.3. The DOFs split
   into I (a non-zero in their column of M), C (none in M, some in R: first order) and K
   (neither: algebraic). With G = [M_:I, R_:C, K_:K] (n x n, regular for a proper model),
   M q'' + R q' + K q = F gives G [q_I''; q_C'; q_K] = F - K_:I q_I - K_:C q_C - R_:I q_I':
   the rows of G^-1 are seed 003's gamma (I), alpha (C) and the K rows of eq. (28). State
   y = [q_I; q_C; q_I'] (2 N_I + N_C: the proper eigenvalues only):
     A = [0 0 I; -alpha K_:I  -alpha K_:C  -alpha R_:I; -gamma K_:I  -gamma K_:C  -gamma R_:I]
     B = [0; alpha b; gamma b].
   Outputs: a displacement reads q_I, q_C and, for K DOFs, their algebraic value (D part
   from F); a velocity q_I' and q_C' (its A row, D = alpha b); an acceleration q_I''. A
   velocity of a K DOF or an acceleration of a C or K DOF is not proper: refused.
   Steps: full_classes, full_solve, full_states, full_outputs; owns the dense copies. */
static int full_model (const deck *d, const frf_data *f, const spm *K, const spm *M,
                       const spm *R, const spm *Cq, ss *s, char **kinds, mb_err *err)
{
  int n = f->n, no = f->nout, ni = f->nin;
  if (Cq && Cq->nrows > 0)
    return mb_fail_at (err, MB_EDECK, d->path, (size_t) d->frf.line, (size_t) d->frf.col,
                       "frf: state_space_model: full needs a model without constraints (this "
                       "one has %d constraint rows); use state_space_model: modal",
                       Cq->nrows);
  if (n > FULL_MAX_DOFS)
    return mb_fail_at (err, MB_EDECK, d->path, (size_t) d->frf.line, (size_t) d->frf.col,
                       "frf: state_space_model: full forms dense matrices, at most %d DOFs "
                       "(this model has %d); use state_space_model: modal", FULL_MAX_DOFS, n);
  double *Kd = calloc ((size_t) n * n, sizeof *Kd), *Md = calloc ((size_t) n * n, sizeof *Md);
  double *Rd = calloc ((size_t) n * n, sizeof *Rd), *G = calloc ((size_t) n * n, sizeof *G);
  full_split x = { .n = n };
  x.cls = calloc ((size_t) n, sizeof *x.cls), x.pos = calloc ((size_t) n, sizeof *x.pos);
  lapack_int *piv = calloc ((size_t) n, sizeof *piv);
  char *kind = calloc ((size_t) n + 1, 1);
  int rc = 0;
  if (!Kd || !Md || !Rd || !G || !x.cls || !x.pos || !piv || !kind) {
    rc = mb_fail (err, MB_ENOMEM, "out of memory for the state-space model");
    goto done;
  }
  spm_to_dense (K, Kd);  /* column-major n x n: (i, j) at [j n + i] */
  spm_to_dense (M, Md);
  if (R) spm_to_dense (R, Rd);
  full_classes (&x, Md, Rd, kind);
  /* right-hand sides: K_:I, K_:C, R_:I, then b: nr = nI + nC + nI + ni columns */
  x.nr = x.nI + x.nC + x.nI + ni;
  x.Z = calloc ((size_t) n * (x.nr ? x.nr : 1), sizeof *x.Z);
  if (!x.Z) {
    rc = mb_fail (err, MB_ENOMEM, "out of memory for the state-space model");
    goto done;
  }
  lapack_int info = full_solve (&x, f, Kd, Md, Rd, G, piv);
  if (info != 0) {
    rc = mb_fail_at (err, MB_ESOLVE, d->path, (size_t) d->frf.line, (size_t) d->frf.col,
                     "frf: the full state-space model needs [M_:I, R_:C, K_:K] regular "
                     "(seed 003); it is singular (LAPACK info %d): a massless DOF that "
                     "nothing holds", (int) info);
    goto done;
  }
  rc = ss_alloc (s, 2 * x.nI + x.nC, ni, no, err);
  if (rc < 0) goto done;
  full_states (&x, ni, s);
  rc = full_outputs (d, f, &x, s, err);
  if (rc < 0) goto done;
  *kinds = kind;
  kind = NULL;
done:
  free (Kd); free (Md); free (Rd); free (G); free (x.cls); free (x.pos); free (piv);
  free (kind); free (x.Z);
  return rc;
}

/* dir/name of the dense no x nc column-major X as a Matrix Market file, its non-zeros. */
static int write_dense (const char *dir, const char *name, int nr, int nc, const double *X,
                        mb_err *err)
{
  long nz = 0;
  for (size_t e = 0; e < (size_t) nr * nc; e++) nz += X[e] != 0;
  spm *S = spm_create (nr, nc, nz > 0 ? nz : 1);
  if (!S) return mb_fail (err, MB_ENOMEM, "out of memory for the state-space model");
  for (int j = 0; j < nc; j++)
    for (int i = 0; i < nr; i++)
      if (AT (X, nr, i, j) != 0) spm_add (S, i, j, AT (X, nr, i, j));
  char *path = writer_join (dir, name);
  writer w;
  int rc = path ? writer_open_name (&w, path, name, err)
                : mb_fail (err, MB_ENOMEM, "out of memory for a file name");
  free (path);
  if (rc == 0) {
    rc = mmio_write (w.tmp, S, err);
    if (rc < 0) writer_abort (&w);
    else rc = writer_commit (&w, err);
  }
  spm_free (S);
  return rc;
}

static const char *qname (int q)
{
  return q == FRF_ACCELERATION ? "acceleration" : q == FRF_VELOCITY ? "velocity"
                                                                     : "displacement";
}

/* dir/index.yaml: what the files hold and the names of states, inputs and outputs. */
static int write_index (const char *dir, const deck *d, const frf_data *f, const ss *s,
                        const char *kinds, mb_err *err)
{
  char *path = writer_join (dir, "index.yaml");
  if (!path) return mb_fail (err, MB_ENOMEM, "out of memory for a file name");
  writer w;
  int rc = writer_open (&w, path, "the state-space index", err);
  free (path);
  MB_TRY (rc);
  FILE *o = w.f;
  fputs ("# mbmodal state-space model: x' = A x + B u, y = C x + D u (docs/frf.md)\n", o);
  fputs ("deck: ", o);
  writer_put_quoted (o, d->path, NULL);
  fprintf (o, "\nmodel: %s\n", d->frf.state_space_full ? "full" : "modal");
  if (d->frf.state_space_full)
    fputs ("source: \"K, M, R of the deck (R = 0 when absent); massless DOFs reduced as in "
           "seed 003\"\n", o);
  else {
    fprintf (o, "source: \"%d %s\"\n", f->nmodes, f->complex_modes
             ? "complex modes of the damped stage" : "modes of the undamped stage with the "
             "frf section's modal damping ratios");
    fprintf (o, "static_correction_in_D: %s  # displacement outputs only\n",
             f->hres ? "true" : "false");
  }
  fprintf (o, "states: %d\n", s->ns);
  fputs ("files: {A: A.mtx, B: B.mtx, C: C.mtx, D: D.mtx}\n", o);
  fputs ("state_names: [", o);
  for (int i = 0; i < s->ns; i++) fprintf (o, "%s%s", i ? ", " : "", s->names[i]);
  fputs ("]\n", o);
  if (kinds) {
    fputs ("dof_kinds: \"", o);  /* per DOF: i inertial, c first order, k algebraic */
    fputs (kinds, o);
    fputs ("\"  # i: mass (2 states), c: massless with damping (1), k: neither (0)\n", o);
  }
  fputs ("inputs:\n", o);
  for (int k = 0; k < f->nin; k++) {
    fputs ("  - ", o);
    writer_put_quoted (o, d->frf.inputs[k].name, NULL);
    fputc ('\n', o);
  }
  fputs ("outputs:\n", o);
  for (int k = 0; k < f->nout; k++) {
    fputs ("  - {name: ", o);
    writer_put_quoted (o, d->frf.outputs[k].name, NULL);
    fprintf (o, ", quantity: %s}\n", qname (f->quantity[k]));
  }
  return writer_commit (&w, err);
}

int frf_export (const frf_data *f, const deck *d, const spm *K, const spm *M, const spm *R,
                const spm *Cq, const char *dir, FILE *log, mb_err *err)
{
  ss s;
  memset (&s, 0, sizeof s);
  char *kinds = NULL;
  int rc = d->frf.state_space_full ? full_model (d, f, K, M, R, Cq, &s, &kinds, err)
           : f->complex_modes ? modal_complex (d, f, &s, err) : modal_ratios (f, &s, err);
  if (rc == 0 && !d->frf.state_space_full && f->hres)  /* the static correction in D */
    for (int o = 0; o < f->nout; o++)
      if (f->quantity[o] == FRF_DISPLACEMENT)
        for (int k = 0; k < f->nin; k++)
          AT (s.D, f->nout, o, k) += f->hres[o + (size_t) k * f->nout];
  if (rc == 0) rc = writer_make_dirs (dir, err);
  if (rc == 0) rc = write_dense (dir, "A.mtx", s.ns, s.ns, s.A, err);
  if (rc == 0) rc = write_dense (dir, "B.mtx", s.ns, s.ni, s.B, err);
  if (rc == 0) rc = write_dense (dir, "C.mtx", s.no, s.ns, s.C, err);
  if (rc == 0) rc = write_dense (dir, "D.mtx", s.no, s.ni, s.D, err);
  if (rc == 0) rc = write_index (dir, d, f, &s, kinds, err);
  if (rc == 0 && log)
    fprintf (log, "frf: state-space model (%s, %d states, %d inputs, %d outputs) written to "
             "%s\n", d->frf.state_space_full ? "full" : "modal", s.ns, s.ni, s.no, dir);
  ss_clear (&s);
  free (kinds);
  return rc;
}
