/* assemble.c: sparse M, K, R, Cq of a model from its element blocks, the full-row-rank
   check of Cq per group of joints, and energy shares of the model's parts. */
#include "assemble.h"

#include <lapacke.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elements.h"

#define RANK_RTOL 1e-10      /* |R_ii| <= RANK_RTOL max |R_jj|: dependent */
#define COEF_RTOL 1e-6       /* least-squares coefficients below this x max: negligible */
#define GROUP_MAX_ROWS 2000  /* larger joint groups are not checked */
#define GROUP_MAX_DENSE 4000000L   /* nor groups whose dense block has more entries */

/* ---- element blocks ---- */

int elem_add (spm *A, const elem *e, const double *a)
{
  for (int bi = 0; bi < e->nnode; bi++) {
    if (e->node[bi] < 0) continue;
    for (int bj = 0; bj < e->nnode; bj++) {
      if (e->node[bj] < 0) continue;
      for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++)
          MB_TRY (spm_add (A, 6 * e->node[bi] + i, 6 * e->node[bj] + j,
                           a[12 * (6 * bi + i) + 6 * bj + j]));
    }
  }
  return 0;
}

/* Re(x^H a x) = xr^T a xr + xi^T a xi for real a. */
double elem_energy (const elem *e, const double *a, const double complex *x)
{
  double s = 0.0;
  for (int bi = 0; bi < e->nnode; bi++) {
    if (e->node[bi] < 0) continue;
    for (int bj = 0; bj < e->nnode; bj++) {
      if (e->node[bj] < 0) continue;
      const double complex *xi = x + 6 * e->node[bi], *xj = x + 6 * e->node[bj];
      for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++) {
          double v = a[12 * (6 * bi + i) + 6 * bj + j];
          s += v * (creal (xi[i]) * creal (xj[j]) + cimag (xi[i]) * cimag (xj[j]));
        }
    }
  }
  return s;
}

/* ---- system ---- */

/* 1 when any element has damping: Rayleigh on a beam, a damper, a damped bushing. */
static int model_has_damping (const model *mdl)
{
  for (int i = 0; i < mdl->nbeams; i++)
    if (mdl->beams[i].alpha > 0 || mdl->beams[i].beta > 0) return 1;
  for (int i = 0; i < mdl->nforces; i++)
    if (force_has_damping (&mdl->forces[i])) return 1;
  return 0;
}

/* Adds the element's present matrices to K, M, R (R may be NULL). */
static int add_elem (const elem *e, spm *K, spm *M, spm *R)
{
  if (e->has_K) MB_TRY (elem_add (K, e, e->K));
  if (e->has_M) MB_TRY (elem_add (M, e, e->M));
  if (e->has_C && R) MB_TRY (elem_add (R, e, e->C));
  return 0;
}

/* K, M, R += every body, beam element and force element (triplets, whole blocks). */
static int assemble_elements (const model *mdl, spm *K, spm *M, spm *R)
{
  elem e;
  for (int i = 0; i < mdl->nbodies; i++) {
    body_element (mdl, i, &e);
    MB_TRY (add_elem (&e, K, M, R));
  }
  for (int ib = 0; ib < mdl->nbeams; ib++)
    for (int k = 0; k < mdl->beams[ib].nelements; k++) {
      beam_element (mdl, ib, k, &e);
      MB_TRY (add_elem (&e, K, M, R));
    }
  for (int f = 0; f < mdl->nforces; f++) {
    force_element (mdl, f, &e);
    MB_TRY (add_elem (&e, K, M, R));
  }
  return 0;
}

/* Cq rows of every joint: all 6 columns of each non-ground node (zeros kept). */
static int assemble_cq (const model *mdl, spm *Cq)
{
  for (int jj = 0; jj < mdl->njoints; jj++) {
    const model_joint *j = &mdl->joints[jj];
    for (int k = 0; k < j->nrows; k++) {
      double ca[6], cb[6];
      int row = j->first_row + k;
      joint_row_coeffs (mdl, j, k, ca, cb);
      for (int q = 0; q < 6 && j->a >= 0; q++) MB_TRY (spm_add (Cq, row, 6 * j->a + q, ca[q]));
      for (int q = 0; q < 6 && j->b >= 0; q++) MB_TRY (spm_add (Cq, row, 6 * j->b + q, cb[q]));
    }
  }
  return 0;
}

/* Triplets of K (and M, R) before compression: whole element blocks. */
static long estimate_nnz (const model *mdl)
{
  long nz = 36L * mdl->nbodies + 144L * mdl->nforces;
  for (int ib = 0; ib < mdl->nbeams; ib++) nz += 144L * mdl->beams[ib].nelements;
  return nz;
}

/* Creates the four matrices (R only with damping, Cq only with rows), fills, compresses. */
int assemble_system (const model *mdl, assembly *a, mb_err *err)
{
  memset (a, 0, sizeof *a);
  int n = 6 * mdl->nnodes, m = mdl->nconstraints, rc = 0;
  long nz = estimate_nnz (mdl);
  a->n = n;
  a->m = m;
  a->K = spm_create (n, n, nz);
  a->M = spm_create (n, n, nz);
  if (model_has_damping (mdl)) a->R = spm_create (n, n, nz);
  if (m > 0) a->Cq = spm_create (m, n, 12L * m);
  if (!a->K || !a->M || (model_has_damping (mdl) && !a->R) || (m > 0 && !a->Cq))
    rc = MB_ENOMEM;
  if (!rc) rc = assemble_elements (mdl, a->K, a->M, a->R);
  if (!rc && a->Cq) rc = assemble_cq (mdl, a->Cq);
  if (!rc) rc = spm_compress (a->K);
  if (!rc) rc = spm_compress (a->M);
  if (!rc && a->R) rc = spm_compress (a->R);
  if (!rc && a->Cq) rc = spm_compress (a->Cq);
  if (rc) {
    assembly_clear (a);
    return mb_fail (err, MB_ENOMEM, "out of memory while assembling the model's matrices");
  }
  return 0;
}

/* STUB (first interface commit): the deck configuration's matrices whatever the state;
   f_int, f_ext, c zero. */
int assemble_at (const model *mdl, const model_state *s, assembly *a, mb_err *err)
{
  (void) s;
  assembly_clear (a);
  MB_TRY (assemble_system (mdl, a, err));
  a->f_int = mb_calloc ((size_t) a->n + 1, sizeof *a->f_int);
  a->f_ext = mb_calloc ((size_t) a->n + 1, sizeof *a->f_ext);
  a->c = mb_calloc ((size_t) a->m + 1, sizeof *a->c);
  if (!a->f_int || !a->f_ext || !a->c) {
    assembly_clear (a);
    return mb_fail (err, MB_ENOMEM, "out of memory while assembling the model");
  }
  return 0;
}

/* STUB */
int model_spring_at (const model *mdl, const model_state *s, int f, double *extension,
                     double *force)
{
  (void) mdl; (void) s; (void) f;
  *extension = *force = 0.0;
  return -1;
}

/* STUB: the deck frame. */
void model_joint_frame_at (const model *mdl, const model_state *s, int j, double x[3],
                           double R[9])
{
  (void) s;
  memcpy (x, mdl->joints[j].x, 3 * sizeof *x);
  memcpy (R, mdl->joints[j].R, 9 * sizeof *R);
}

/* Frees the matrices and vectors; a may be NULL. */
void assembly_clear (assembly *a)
{
  if (!a) return;
  spm_free (a->K);
  spm_free (a->M);
  spm_free (a->R);
  spm_free (a->Cq);
  free (a->f_int);
  free (a->f_ext);
  free (a->c);
  memset (a, 0, sizeof *a);
}

/* ---- constraint rank ---- */

/* Union-find root of i, with path halving. */
static int uf_find (int *parent, int i)
{
  while (parent[i] != i) {
    parent[i] = parent[parent[i]];
    i = parent[i];
  }
  return i;
}

/* Rows of Cq in CSR form (rowptr m + 1, col, val); caller frees the three arrays. */
typedef struct csr { long *ptr; int *col; double *val; } csr;

/* Frees the arrays of c. */
static void csr_free (csr *c)
{
  free (c->ptr); free (c->col); free (c->val);
}

/* c = the rows of A (duplicates kept; any entry order). Returns 0 or MB_ENOMEM. */
static int csr_from (const spm *A, csr *c)
{
  c->ptr = mb_calloc ((size_t) A->nrows + 1, sizeof *c->ptr);
  c->col = mb_calloc ((size_t) A->nnz, sizeof *c->col);
  c->val = mb_calloc ((size_t) A->nnz, sizeof *c->val);
  long *next = mb_calloc ((size_t) A->nrows + 1, sizeof *next);
  if (!c->ptr || !c->col || !c->val || !next) { free (next); csr_free (c); return MB_ENOMEM; }
  for (long k = 0; k < A->nnz; k++) c->ptr[A->row[k] + 1]++;
  for (int i = 0; i < A->nrows; i++) c->ptr[i + 1] += c->ptr[i];
  memcpy (next, c->ptr, (size_t) A->nrows * sizeof *next);
  for (long k = 0; k < A->nnz; k++) {
    long p = next[A->row[k]]++;
    c->col[p] = A->col[k];
    c->val[p] = A->val[k];
  }
  free (next);
  return 0;
}

/* One group of joints (deck order) and its workspace. */
typedef struct group {
  int nj, *joints;        /* joint indices */
  int p, c;               /* rows, columns (6 per node) */
  int *row_joint, *row_k; /* per local row: joint, row within the joint */
  int *local;             /* node -> local node index, -1 (size nnodes, reset after use) */
  int *nodes, gn;         /* local -> node */
} group;

/* Dense At (c x p, column-major): column k is Cq row k of the group on its nodes. */
static void group_dense (const model *mdl, const csr *cq, const group *g, double *At)
{
  memset (At, 0, (size_t) g->c * (size_t) g->p * sizeof *At);
  for (int k = 0; k < g->p; k++) {
    int row = mdl->joints[g->row_joint[k]].first_row + g->row_k[k];
    for (long t = cq->ptr[row]; t < cq->ptr[row + 1]; t++) {
      int ln = g->local[cq->col[t] / 6];
      if (ln < 0) continue;                  /* not in the group: cannot happen */
      At[(size_t) k * (size_t) g->c + (size_t) (6 * ln + cq->col[t] % 6)] += cq->val[t];
    }
  }
}

/* The message for a redundant row r (local) whose least-squares coefficients on local
   rows rows[0..n-1] are x[0..n-1]. */
static int fail_redundant (const model *mdl, const group *g, int r, const int *rows,
                           const double *x, int n, int rank, const char *path, mb_err *err)
{
  double xmax = 0;
  for (int i = 0; i < n; i++) xmax = fmax (xmax, fabs (x[i]));
  int jr = g->row_joint[r];
  char others[600] = "", label[128];
  size_t len = 0;
  int nothers = 0;
  for (int t = 0; t < g->nj; t++) {          /* other joints, deck order */
    int jj = g->joints[t], used = 0;
    if (jj == jr) continue;
    for (int i = 0; i < n && !used; i++)
      used = g->row_joint[rows[i]] == jj && fabs (x[i]) > COEF_RTOL * xmax;
    if (!used) continue;
    if (nothers < 8 && len < sizeof others)
      len += (size_t) snprintf (others + len, sizeof others - len, "%s'%s'",
                                nothers ? ", " : "", mdl->joints[jj].name);
    else if (nothers == 8 && len < sizeof others)
      len += (size_t) snprintf (others + len, sizeof others - len, ", ...");
    nothers++;
  }
  const model_joint *j = &mdl->joints[jr];
  joint_row_label (j, g->row_k[r], label, sizeof label);
  if (nothers == 0)
    return mb_fail_at (err, MB_EDECK, path, j->pos.line, j->pos.col,
                       "joint '%s' overconstrains the model: its constraint row (%s) is "
                       "redundant (Cq has rank %d for %d rows); remove DOFs from it",
                       j->name, label, rank, g->p);
  return mb_fail_at (err, MB_EDECK, path, j->pos.line, j->pos.col,
                     "joints '%s', %s overconstrain the model: the constraint rows of '%s' "
                     "(%s) repeat those of %s (Cq has rank %d for %d rows); remove DOFs from "
                     "one of them (a spherical or universal joint, or a lock)",
                     j->name, others, j->name, label, others, rank, g->p);
}

/* Finds the first row (deck order) in the span of the rows before it with an unpivoted
   QR of A0 (c x p): |R_kk| <= tol; its coefficients x solve R[0:n,0:n] x = R[0:n,k],
   n = min(k, c). Returns k, or -1 when none is found. */
static int first_redundant (double *A0, int c, int p, double tol, double *tau, double *x,
                            int *n)
{
  if (LAPACKE_dgeqrf (LAPACK_COL_MAJOR, c, p, A0, c, tau) != 0) return -1;
  int kmin = c < p ? c : p, k = -1;
  for (int i = 0; i < kmin && k < 0; i++)
    if (fabs (A0[(size_t) i * (size_t) c + (size_t) i]) <= tol) k = i;
  if (k < 0 && p > c) k = c;
  if (k < 0) return -1;
  *n = k < c ? k : c;
  for (int i = 0; i < *n; i++) x[i] = A0[(size_t) k * (size_t) c + (size_t) i];
  if (*n > 0 && LAPACKE_dtrtrs (LAPACK_COL_MAJOR, 'U', 'N', 'N', *n, 1, A0, c, x, *n) != 0)
    return -1;
  return k;
}

/* Rank of the group's rows with a column-pivoted QR of At; on a deficiency, MB_EDECK
   naming the joints. */
static int group_check (const model *mdl, const csr *cq, const group *g, const char *path,
                        mb_err *err)
{
  size_t cp = (size_t) g->c * (size_t) g->p;
  double *At = mb_calloc (cp, sizeof *At), *A0 = mb_calloc (cp, sizeof *A0);
  double *tau = mb_calloc ((size_t) g->p + (size_t) g->c, sizeof *tau);
  double *x = mb_calloc ((size_t) g->p + 1, sizeof *x);
  lapack_int *jpvt = mb_calloc ((size_t) g->p, sizeof *jpvt);
  int *rows = mb_calloc ((size_t) g->p + 1, sizeof *rows);
  int rc = 0;
  if (!At || !A0 || !tau || !x || !jpvt || !rows) { rc = MB_ENOMEM; goto done; }
  group_dense (mdl, cq, g, At);
  memcpy (A0, At, cp * sizeof *At);
  if (LAPACKE_dgeqp3 (LAPACK_COL_MAJOR, g->c, g->p, At, g->c, jpvt, tau) != 0) {
    rc = mb_fail (err, MB_ESOLVE, "LAPACK dgeqp3 failed in the constraint rank check");
    goto done;
  }
  int kmin = g->c < g->p ? g->c : g->p, rank = 0;
  double tol = RANK_RTOL * fabs (At[0]);
  for (int i = 0; i < kmin; i++)
    if (fabs (At[(size_t) i * (size_t) g->c + (size_t) i]) > tol) rank++;
  if (rank == g->p) goto done;
  int n = 0, k = first_redundant (A0, g->c, g->p, tol, tau, x, &n);
  if (k >= 0) {
    for (int i = 0; i < n; i++) rows[i] = i;
  } else {                                   /* fall back on the pivoted factors */
    k = jpvt[rank] - 1;
    n = rank;
    for (int i = 0; i < n; i++) {
      rows[i] = jpvt[i] - 1;
      x[i] = At[(size_t) rank * (size_t) g->c + (size_t) i];
    }
    if (n > 0) LAPACKE_dtrtrs (LAPACK_COL_MAJOR, 'U', 'N', 'N', n, 1, At, g->c, x, n);
  }
  rc = fail_redundant (mdl, g, k, rows, x, n, rank, path, err);
done:
  free (At); free (A0); free (tau); free (x); free (jpvt); free (rows);
  if (rc == MB_ENOMEM) mb_fail (err, MB_ENOMEM, "out of memory in the constraint rank check");
  return rc;
}

/* Fills g's rows and nodes from its joints; returns 1 when it is too large to check. */
static int group_setup (const model *mdl, group *g)
{
  g->p = 0;
  g->gn = 0;
  for (int t = 0; t < g->nj; t++) {
    const model_joint *j = &mdl->joints[g->joints[t]];
    if (g->p + j->nrows > GROUP_MAX_ROWS) return 1;
    for (int k = 0; k < j->nrows; k++) {
      g->row_joint[g->p] = g->joints[t];
      g->row_k[g->p++] = k;
    }
    const int ends[2] = { j->a, j->b };
    for (int e = 0; e < 2; e++)
      if (ends[e] >= 0 && g->local[ends[e]] < 0) {
        g->local[ends[e]] = g->gn;
        g->nodes[g->gn++] = ends[e];
      }
  }
  g->c = 6 * g->gn;
  return (long) g->c * g->p > GROUP_MAX_DENSE;
}

/* Buckets joints by the union-find root of their nodes: order[] lists joints grouped,
   start[r] .. start[r + 1] the joints whose root is node r. */
static int group_joints (const model *mdl, int *root, int *start, int *order)
{
  int nn = mdl->nnodes;
  int *parent = mb_calloc ((size_t) nn, sizeof *parent);
  if (!parent) return MB_ENOMEM;
  for (int i = 0; i < nn; i++) parent[i] = i;
  for (int t = 0; t < mdl->njoints; t++) {
    const model_joint *j = &mdl->joints[t];
    if (j->a >= 0 && j->b >= 0) {
      int ra = uf_find (parent, j->a), rb = uf_find (parent, j->b);
      if (ra != rb) parent[ra < rb ? rb : ra] = ra < rb ? ra : rb;
    }
  }
  memset (start, 0, ((size_t) nn + 1) * sizeof *start);
  for (int t = 0; t < mdl->njoints; t++) {
    const model_joint *j = &mdl->joints[t];
    root[t] = uf_find (parent, j->a >= 0 ? j->a : j->b);
    start[root[t] + 1]++;
  }
  for (int i = 0; i < nn; i++) start[i + 1] += start[i];
  int *next = parent;                        /* reuse as fill pointers */
  memcpy (next, start, (size_t) nn * sizeof *next);
  for (int t = 0; t < mdl->njoints; t++) order[next[root[t]]++] = t;
  free (parent);
  return 0;
}

/* Union-find over the nodes joints touch gives independent groups (their rows touch
   disjoint columns, so ranks add); each group is checked densely by group_check. */
int assemble_check_constraints (const model *mdl, const spm *Cq, const char *deck_path,
                                int *skipped, mb_err *err)
{
  if (skipped) *skipped = 0;
  if (!Cq || mdl->nconstraints == 0 || mdl->njoints == 0) return 0;
  if (Cq->nrows != mdl->nconstraints || Cq->ncols != 6 * mdl->nnodes)
    return mb_fail (err, MB_ESOLVE, "the constraint rank check got a %d x %d Cq for a model "
                    "of %d rows and %d DOFs", Cq->nrows, Cq->ncols, mdl->nconstraints,
                    6 * mdl->nnodes);
  int nn = mdl->nnodes, nj = mdl->njoints, rc = 0;
  csr cq = { 0 };
  group g = { 0 };
  int *root = mb_calloc ((size_t) nj, sizeof *root);
  int *start = mb_calloc ((size_t) nn + 1, sizeof *start);
  int *order = mb_calloc ((size_t) nj, sizeof *order);
  char *done = mb_calloc ((size_t) nn, 1);
  g.row_joint = mb_calloc (GROUP_MAX_ROWS, sizeof *g.row_joint);
  g.row_k = mb_calloc (GROUP_MAX_ROWS, sizeof *g.row_k);
  g.local = mb_calloc ((size_t) nn, sizeof *g.local);
  g.nodes = mb_calloc ((size_t) nn, sizeof *g.nodes);
  if (!root || !start || !order || !done || !g.row_joint || !g.row_k || !g.local || !g.nodes)
    rc = MB_ENOMEM;
  if (!rc) rc = csr_from (Cq, &cq);
  if (!rc) rc = group_joints (mdl, root, start, order);
  for (int i = 0; i < nn && g.local; i++) g.local[i] = -1;
  for (int t = 0; t < nj && !rc; t++) {      /* groups in the order of their first joint */
    int r = root[t];
    if (done[r]) continue;
    done[r] = 1;
    g.joints = order + start[r];
    g.nj = start[r + 1] - start[r];
    if (group_setup (mdl, &g)) { if (skipped) (*skipped)++; }
    else rc = group_check (mdl, &cq, &g, deck_path, err);
    for (int i = 0; i < g.gn; i++) g.local[g.nodes[i]] = -1;
  }
  csr_free (&cq);
  free (root); free (start); free (order); free (done);
  free (g.row_joint); free (g.row_k); free (g.local); free (g.nodes);
  if (rc == MB_ENOMEM) mb_fail (err, MB_ENOMEM, "out of memory in the constraint rank check");
  return rc;
}

/* ---- parts and energies ---- */

/* Springs, rotational springs and bushings are parts; point forces and torques not. */
static int is_part_force (const model_force *f)
{
  return f->type == FORCE_SPRING || f->type == FORCE_ROTATIONAL_SPRING ||
         f->type == FORCE_BUSHING;
}

/* Bodies, beams, then the part forces in deck order. */
int model_parts (const model *mdl, model_part **parts)
{
  int n = mdl->nbodies + mdl->nbeams;
  for (int f = 0; f < mdl->nforces; f++) n += is_part_force (&mdl->forces[f]);
  *parts = NULL;
  if (n == 0) return 0;
  model_part *p = mb_calloc ((size_t) n, sizeof *p);
  if (!p) return -1;
  int k = 0;
  for (int i = 0; i < mdl->nbodies; i++)
    p[k++] = (model_part) { mdl->bodies[i].name, PART_BODY, i };
  for (int i = 0; i < mdl->nbeams; i++)
    p[k++] = (model_part) { mdl->beams[i].name, PART_BEAM, i };
  for (int f = 0; f < mdl->nforces; f++)
    if (is_part_force (&mdl->forces[f]))
      p[k++] = (model_part) { mdl->forces[f].name, PART_FORCE, f };
  *parts = p;
  return n;
}

/* Re(x^H M x) and Re(x^H K x) of every element, once: added to the totals *tk, *ts and,
   when the element belongs to a requested part (pb, pm, pf: part index of each body, beam
   and force, or -1), to that part's kin[] and str[]. */
static void element_energies (const model *mdl, const int *pb, const int *pm, const int *pf,
                              const double complex *x, double *kin, double *str, double *tk,
                              double *ts)
{
  elem e;
  for (int i = 0; i < mdl->nbodies; i++) {
    body_element (mdl, i, &e);
    double k = elem_energy (&e, e.M, x);
    *tk += k;
    if (pb[i] >= 0) kin[pb[i]] += k;
  }
  for (int ib = 0; ib < mdl->nbeams; ib++)
    for (int q = 0; q < mdl->beams[ib].nelements; q++) {
      beam_element (mdl, ib, q, &e);
      double k = elem_energy (&e, e.M, x), st = elem_energy (&e, e.K, x);
      *tk += k;
      *ts += st;
      if (pm[ib] >= 0) { kin[pm[ib]] += k; str[pm[ib]] += st; }
    }
  for (int f = 0; f < mdl->nforces; f++) {
    force_element (mdl, f, &e);
    double st = e.has_K ? elem_energy (&e, e.K, x) : 0.0;
    *ts += st;
    if (pf[f] >= 0) str[pf[f]] += st;
  }
}

/* share[i] = v[i] / total, or 0 when |total| < 1e-14 max |v|. */
static void shares (const double *v, int n, double total, double *share)
{
  double vmax = 0.0;
  for (int i = 0; i < n; i++) vmax = fmax (vmax, fabs (v[i]));
  int zero = !(fabs (total) >= 1e-14 * vmax) || total == 0.0;
  for (int i = 0; i < n; i++) share[i] = zero ? 0.0 : v[i] / total;
}

/* Per part and in total, Re(x^H A x) from element blocks recomputed on the fly (each
   element once; a part listed twice gets its energy once, in its last entry). */
int model_energy_shares (const model *mdl, const model_part *parts, int nparts,
                         const double complex *x, double *kinetic, double *strain,
                         mb_err *err)
{
  if (nparts <= 0) return 0;
  double *kin = mb_calloc ((size_t) nparts, sizeof *kin);
  double *str = mb_calloc ((size_t) nparts, sizeof *str);
  int *pb = mb_calloc ((size_t) mdl->nbodies, sizeof *pb);
  int *pm = mb_calloc ((size_t) mdl->nbeams, sizeof *pm);
  int *pf = mb_calloc ((size_t) mdl->nforces, sizeof *pf);
  if (!kin || !str || !pb || !pm || !pf) {
    free (kin); free (str); free (pb); free (pm); free (pf);
    return mb_fail (err, MB_ENOMEM, "out of memory computing energy shares");
  }
  for (int i = 0; i < mdl->nbodies; i++) pb[i] = -1;
  for (int i = 0; i < mdl->nbeams; i++) pm[i] = -1;
  for (int i = 0; i < mdl->nforces; i++) pf[i] = -1;
  for (int i = 0; i < nparts; i++) {
    int k = parts[i].index;
    if (parts[i].kind == PART_BODY && k >= 0 && k < mdl->nbodies) pb[k] = i;
    if (parts[i].kind == PART_BEAM && k >= 0 && k < mdl->nbeams) pm[k] = i;
    if (parts[i].kind == PART_FORCE && k >= 0 && k < mdl->nforces) pf[k] = i;
  }
  double tk = 0.0, ts = 0.0;
  element_energies (mdl, pb, pm, pf, x, kin, str, &tk, &ts);
  shares (kin, nparts, tk, kinetic);
  shares (str, nparts, ts, strain);
  free (kin); free (str); free (pb); free (pm); free (pf);
  return 0;
}
