/* planar.c: planar: xy | yz | zx, a model that moves in one coordinate plane: a lock to
   ground of the out-of-plane DOFs of every node, less those the joints already hold. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "elements.h"

enum { PLANAR_MAX_GROUP = 500 };   /* joined nodes in one dense rank test: its basis is
                                      (6 g)^2 doubles, 72 MB at the limit */
static const double PLANAR_DEP_TOL = 1e-9;  /* |residual| of a unit row: dependent */

/* The out-of-plane DOFs (0..5 = dx dy dz rx ry rz) of a plane: its normal's translation
   and the rotations about the two in-plane axes. */
static void out_of_plane (int plane, int q[3])
{
  if (plane == PLANAR_XY) { q[0] = 2; q[1] = 3; q[2] = 4; }
  else if (plane == PLANAR_YZ) { q[0] = 0; q[1] = 4; q[2] = 5; }
  else { q[0] = 1; q[1] = 3; q[2] = 5; }
}

/* Union-find root of i in parent array p (path halving). */
static int uf_find (int *p, int i)
{
  while (p[i] != i) i = p[i] = p[p[i]];
  return i;
}

/* v -= (q . v) q for each of the nb orthonormal rows q of Q (n columns), twice
   (classical Gram-Schmidt with reorthogonalization); returns |v|. */
static double orthogonalize (const double *Q, int nb, int n, double *v)
{
  for (int pass = 0; pass < 2; pass++)
    for (int b = 0; b < nb; b++) {
      const double *q = Q + (size_t) b * n;
      double d = 0.0;
      for (int i = 0; i < n; i++) d += q[i] * v[i];
      for (int i = 0; i < n; i++) v[i] -= d * q[i];
    }
  double s = 0.0;
  for (int i = 0; i < n; i++) s += v[i] * v[i];
  return sqrt (s);
}

/* The lock masks (bit q: DOF q locked) of the nodes of one joint group: the nodes in
   nodes[0..g) (col[node] = their block), the rows of every joint that touches them
   spanned first (an orthonormal basis of Cq's rows on those columns), then each node's
   out-of-plane unit rows in node order, kept when they leave the span (and added to
   it). A kept row is independent of the joints' rows and of the rows kept before it, so
   the planar locks never overconstrain. Returns 0 or MB_ENOMEM. */
static int group_masks (const model *m, const int *nodes, int g, const int *col,
                        const int q[3], int *mask)
{
  int n = 6 * g, nb = 0;
  double *Q = mb_calloc ((size_t) n * (size_t) n + 1, sizeof *Q);
  double *v = mb_calloc ((size_t) n + 1, sizeof *v);
  if (!Q || !v || mb_fault ("model")) { free (Q); free (v); return MB_ENOMEM; }
  for (int jj = 0; jj < m->njoints; jj++) {
    const model_joint *j = &m->joints[jj];
    int a = j->a >= 0 ? col[j->a] : -1, b = j->b >= 0 ? col[j->b] : -1;
    if (a < 0 && b < 0) continue;
    for (int k = 0; k < j->nrows && nb < n; k++) {
      double ca[6], cb[6];
      joint_row_coeffs (m, j, k, ca, cb);
      memset (v, 0, (size_t) n * sizeof *v);
      for (int t = 0; t < 6; t++) {
        if (a >= 0) v[6 * a + t] += ca[t];
        if (b >= 0) v[6 * b + t] += cb[t];
      }
      double s0 = 0.0;
      for (int i = 0; i < n; i++) s0 += v[i] * v[i];
      double s = orthogonalize (Q, nb, n, v);
      if (s > PLANAR_DEP_TOL * sqrt (s0)) {
        for (int i = 0; i < n; i++) Q[(size_t) nb * n + i] = v[i] / s;
        nb++;
      }
    }
  }
  for (int k = 0; k < g; k++)
    for (int r = 0; r < 3; r++) {
      memset (v, 0, (size_t) n * sizeof *v);
      v[6 * k + q[r]] = 1.0;
      double s = orthogonalize (Q, nb, n, v);
      if (s > PLANAR_DEP_TOL && nb < n) {
        for (int i = 0; i < n; i++) Q[(size_t) nb * n + i] = v[i] / s;
        nb++;
        mask[nodes[k]] |= 1 << q[r];
      }
    }
  free (Q);
  free (v);
  return 0;
}

/* One lock joint "planar:NODE" from ground to node i on the DOFs of mask, frame the
   global axes at the node, built by joint_build as a deck lock would be. */
static int add_lock (const deck_model *dm, const char *path, model *m, int i, int mask,
                     int *row, mb_err *err)
{
  deck_joint dj;
  char ground[] = "ground";
  memset (&dj, 0, sizeof dj);
  size_t len = strlen (m->nodes[i].name) + sizeof "planar:";
  char *name = malloc (len);
  if (!name) return MB_ENOMEM;
  snprintf (name, len, "planar:%s", m->nodes[i].name);
  dj.name = name;
  dj.type = JOINT_LOCK;
  dj.node[0] = (deck_ref) { ground, dm->pos_planar };
  dj.node[1] = (deck_ref) { m->nodes[i].name, dm->pos_planar };
  dj.has_at = 1;
  memcpy (dj.at, m->nodes[i].x, sizeof dj.at);
  dj.R[0] = dj.R[4] = dj.R[8] = 1.0;
  dj.lock_mask = mask;
  dj.pos = dm->pos_planar;
  model_joint *j = &m->joints[m->njoints++];   /* counted first: model_clear frees it */
  int rc = joint_build (m, &dj, path, j, err);
  free (name);
  if (rc) return rc;
  j->first_row = *row;
  *row += j->nrows;
  return 0;
}

/* qsort order of node indices: by group root (group_root[node]), then by node. */
static const int *group_root;
static int by_group (const void *x, const void *y)
{
  int a = *(const int *) x, b = *(const int *) y;
  if (group_root[a] != group_root[b]) return group_root[a] < group_root[b] ? -1 : 1;
  return (a > b) - (a < b);
}

/* See elements.h. Nodes that no joint touches get all three locks; the nodes joined by
   joints (union-find over the joints' two nodes, ground joining nothing) get theirs from
   group_masks, one group at a time (the joined nodes sorted by group, then node). Not
   reentrant (qsort's order reads the file's group_root). */
int planar_build (const deck_model *dm, const char *path, model *m, mb_err *err)
{
  if (dm->planar == PLANAR_NONE) return 0;
  int q[3], nn = m->nnodes, rc = 0;
  out_of_plane (dm->planar, q);
  int *parent = mb_calloc ((size_t) nn + 1, sizeof *parent);
  int *touched = mb_calloc ((size_t) nn + 1, sizeof *touched);
  int *mask = mb_calloc ((size_t) nn + 1, sizeof *mask);
  int *col = mb_calloc ((size_t) nn + 1, sizeof *col);
  int *nodes = mb_calloc ((size_t) nn + 1, sizeof *nodes);
  if (!parent || !touched || !mask || !col || !nodes || mb_fault ("model")) {
    rc = MB_ENOMEM;
    goto done;
  }
  for (int i = 0; i < nn; i++) parent[i] = i, col[i] = -1;
  for (int jj = 0; jj < m->njoints; jj++) {
    const model_joint *j = &m->joints[jj];
    if (j->a >= 0) touched[j->a] = 1;
    if (j->b >= 0) touched[j->b] = 1;
    if (j->a >= 0 && j->b >= 0) parent[uf_find (parent, j->a)] = uf_find (parent, j->b);
  }
  int nt = 0;                       /* the joined nodes, sorted by (group, node) */
  for (int i = 0; i < nn; i++) {
    if (!touched[i]) mask[i] = (1 << q[0]) | (1 << q[1]) | (1 << q[2]);
    else nodes[nt++] = i;
  }
  for (int k = 0; k < nt; k++) col[nodes[k]] = uf_find (parent, nodes[k]);  /* roots */
  group_root = col;
  qsort (nodes, (size_t) nt, sizeof *nodes, by_group);
  for (int k = 0; k < nt; k++) col[nodes[k]] = -1;
  for (int k0 = 0, k1; k0 < nt && rc == 0; k0 = k1) {
    int root = uf_find (parent, nodes[k0]);
    for (k1 = k0; k1 < nt && uf_find (parent, nodes[k1]) == root; k1++) ;
    int g = k1 - k0;
    if (g > PLANAR_MAX_GROUP) {
      rc = mb_fail_at (err, MB_EDECK, path, dm->pos_planar.line, dm->pos_planar.col,
                       "planar: %d nodes joined by joints in one group (node '%s'), more"
                       " than %d: too many for its rank test; lock the out-of-plane DOFs"
                       " with lock joints instead", g, m->nodes[nodes[k0]].name,
                       PLANAR_MAX_GROUP);
      break;
    }
    for (int k = 0; k < g; k++) col[nodes[k0 + k]] = k;
    rc = group_masks (m, nodes + k0, g, col, q, mask);
    for (int k = 0; k < g; k++) col[nodes[k0 + k]] = -1;
  }
  if (rc) goto done;
  int count = 0;
  for (int i = 0; i < nn; i++) count += mask[i] != 0;
  if (count > 0) {
    model_joint *grown = realloc (m->joints, ((size_t) m->njoints + (size_t) count)
                                               * sizeof *grown);
    if (!grown) { rc = MB_ENOMEM; goto done; }
    memset (grown + m->njoints, 0, (size_t) count * sizeof *grown);
    m->joints = grown;
    int row = m->nconstraints;
    for (int i = 0; i < nn && rc == 0; i++)
      if (mask[i]) rc = add_lock (dm, path, m, i, mask[i], &row, err), m->nplanar++;
    m->nconstraints = row;
  }
done:
  free (parent);
  free (touched);
  free (mask);
  free (col);
  free (nodes);
  return rc;
}
