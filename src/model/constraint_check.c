/* constraint_check.c: the check that Cq has full row rank, per group of joints that
   share nodes (dense column-pivoted QR), naming the redundant joints. */
#include "constraint_check.h"

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

