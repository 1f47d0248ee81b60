/* assemble.c: the model's system at a state: sparse K, M, R, Cq in a fixed pattern
   (built once from the element blocks, refilled in place at each state) and the vectors
   f_int, f_ext, C(q). */
#include "assemble.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "elements.h"
#include "spin.h"

#define SYM_RTOL 1e-9   /* K is "symmetric" when |K_ij - K_ji| <= SYM_RTOL max |K| (the
                           geometric parts by central differences carry ~1e-10 noise) */

enum { ASM_GRAVITY = 1, ASM_KC = 2 };   /* what a pattern and its values include */
enum { MK, MM, MR, MC };                /* the four matrices */

/* The fixed pattern: for each matrix, the compressed slot of each triplet in the order
   the assembly emits them (emission depends on the deck only, never on the state). */
struct assemble_map {
  int opts;          /* ASM_* the pattern was built with */
  long nt[4];        /* triplets per matrix */
  long *slot[4];     /* nt[i] slots, owned */
  long *tslot;       /* per compressed entry (i, j) of K: the slot of (j, i), or -1 */
};

/* Where values go: building (slot NULL: spm_add, later compressed) or refilling
   (val[slot[pos++]] += v, in emission order: the same sums as the compression's). */
typedef struct sink {
  spm *A;            /* NULL: this matrix is absent, values dropped */
  const long *slot;
  long n, pos;
} sink;

/* One value into the sink. Returns 0, MB_ENOMEM (building) or MB_ESOLVE when a refill
   emits more values than the pattern has (a bug: the emission changed with the state). */
static int sink_add (sink *k, int i, int j, double v)
{
  if (!k->A) return 0;
  if (!k->slot) return spm_add (k->A, i, j, v);
  if (k->pos >= k->n) return MB_ESOLVE;
  k->A->val[k->slot[k->pos++]] += v;
  return 0;
}

/* A += the block a (12 x 12 row-major, the element's node layout), ground dropped,
   zeros kept. */
static int elem_add (sink *k, const elem *e, const double *a)
{
  for (int bi = 0; bi < e->nnode; bi++) {
    if (e->node[bi] < 0) continue;
    for (int bj = 0; bj < e->nnode; bj++) {
      if (e->node[bj] < 0) continue;
      for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++)
          MB_TRY (sink_add (k, 6 * e->node[bi] + i, 6 * e->node[bj] + j,
                            a[12 * (6 * bi + i) + 6 * bj + j]));
    }
  }
  return 0;
}

/* v[DOFs of the element's nodes] += ev (ground dropped). */
static void elem_scatter (const elem *e, const double *ev, double *v)
{
  for (int bi = 0; bi < e->nnode; bi++)
    if (e->node[bi] >= 0)
      for (int i = 0; i < 6; i++) v[6 * (size_t) e->node[bi] + i] += ev[6 * bi + i];
}

/* ---- system ---- */

/* 1 when any element has damping: Rayleigh on a beam, a damper, a damped bushing. */
static int model_has_damping (const model *mdl)
{
  for (int i = 0; i < mdl->nbeams; i++)
    if (mdl->beams[i].alpha > 0 || mdl->beams[i].beta > 0) return 1;
  for (int i = 0; i < mdl->nforces; i++)
    if (force_has_damping (&mdl->forces[i])) return 1;
  return model_has_spin (mdl);   /* the gyroscopic G goes into R too */
}

/* The element's present matrices into K, M, R and its vectors into f_int, f_ext. */
static int add_elem (const elem *e, sink *k, assembly *a)
{
  if (e->has_K) MB_TRY (elem_add (&k[MK], e, e->K));
  if (e->has_M) MB_TRY (elem_add (&k[MM], e, e->M));
  if (e->has_C) MB_TRY (elem_add (&k[MR], e, e->C));
  if (e->has_G) MB_TRY (elem_add (&k[MR], e, e->G));   /* gyroscopic, skew (spin.c) */
  elem_scatter (e, e->f_int, a->f_int);
  elem_scatter (e, e->f_ext, a->f_ext);
  return 0;
}

/* Every body, beam element and force element at s (NULL: deck), in a fixed order. */
static int assemble_elements (const model *mdl, const model_state *s, int opts, sink *k,
                              assembly *a)
{
  elem e;
  int flags = (opts & ASM_GRAVITY) ? EVAL_GRAVITY : 0;
  for (int i = 0; i < mdl->nbodies; i++) {
    body_element (mdl, s, i, flags, &e);
    spin_body_gyro (mdl, s, i, &e);
    MB_TRY (add_elem (&e, k, a));
  }
  for (int ib = 0; ib < mdl->nbeams; ib++)
    for (int q = 0; q < mdl->beams[ib].nelements; q++) {
      beam_element (mdl, s, ib, q, flags, &e);
      spin_beam_gyro (mdl, s, ib, q, &e);
      MB_TRY (add_elem (&e, k, a));
    }
  for (int f = 0; f < mdl->nforces; f++) {
    force_element (mdl, s, f, &e);
    e.has_G = 0;
    MB_TRY (add_elem (&e, k, a));
  }
  for (int i = 0; i < mdl->nmasses; i++) {
    point_mass_element (mdl, s, i, flags, &e);
    MB_TRY (add_elem (&e, k, a));
  }
  return 0;
}

/* Cq rows of every joint (all 6 columns of each non-ground node, zeros kept), C(q) and,
   with ASM_KC, each joint's Kc = sum_k gamma_k d(Cq_k^T)/dq as one two-node block of K. */
static int assemble_joints (const model *mdl, const model_state *s, int opts, sink *k,
                            assembly *a)
{
  elem e;
  memset (&e, 0, sizeof e);
  e.nnode = 2;
  for (int jj = 0; jj < mdl->njoints; jj++) {
    const model_joint *j = &mdl->joints[jj];
    if (opts & ASM_KC) memset (e.K, 0, sizeof e.K);
    for (int q = 0; q < j->nrows; q++) {
      double ca[6], cb[6];
      int row = j->first_row + q;
      double g = s ? s->gamma[row] : 0.0;
      joint_row_eval (mdl, s, j, q, g, &a->c[row], ca, cb, (opts & ASM_KC) ? e.K : NULL);
      for (int t = 0; t < 6 && j->a >= 0; t++) MB_TRY (sink_add (&k[MC], row, 6 * j->a + t, ca[t]));
      for (int t = 0; t < 6 && j->b >= 0; t++) MB_TRY (sink_add (&k[MC], row, 6 * j->b + t, cb[t]));
    }
    if (opts & ASM_KC) {
      e.node[0] = j->a;
      e.node[1] = j->b;
      MB_TRY (elem_add (&k[MK], &e, e.K));
    }
  }
  return 0;
}

/* Triplets of K (and M, R) before compression: whole element blocks (+ joint blocks). */
static long estimate_nnz (const model *mdl, int opts)
{
  long nz = 36L * mdl->nbodies + 144L * mdl->nforces + 36L * mdl->nmasses;
  for (int ib = 0; ib < mdl->nbeams; ib++) nz += 144L * mdl->beams[ib].nelements;
  if (opts & ASM_KC) nz += 144L * mdl->njoints;
  return nz;
}

/* Zeroes the vectors and emits everything into the sinks. */
static int assemble_emit (const model *mdl, const model_state *s, int opts, sink *k,
                          assembly *a)
{
  memset (a->f_int, 0, (size_t) a->n * sizeof *a->f_int);
  memset (a->f_ext, 0, (size_t) a->n * sizeof *a->f_ext);
  if (a->m > 0) memset (a->c, 0, (size_t) a->m * sizeof *a->c);
  MB_TRY (assemble_elements (mdl, s, opts, k, a));
  return assemble_joints (mdl, s, opts, k, a);
}

/* Row starts of compressed A (sorted by row, then column): ptr[i] .. ptr[i + 1] - 1.
   Returns a new array of nrows + 1 (caller frees), NULL when out of memory. */
static long *row_starts (const spm *A)
{
  long *ptr = mb_calloc ((size_t) A->nrows + 2, sizeof *ptr);
  if (!ptr) return NULL;
  for (long k = 0; k < A->nnz; k++) ptr[A->row[k] + 1]++;
  for (int i = 0; i < A->nrows; i++) ptr[i + 1] += ptr[i];
  return ptr;
}

/* Position of (i, j) in compressed A with row starts ptr, or -1 (binary search in row i). */
static long find_slot (const spm *A, const long *ptr, int i, int j)
{
  long lo = ptr[i], hi = ptr[i + 1] - 1;
  while (lo <= hi) {
    long mid = lo + (hi - lo) / 2;
    if (A->col[mid] == j) return mid;
    if (A->col[mid] < j) lo = mid + 1;
    else hi = mid - 1;
  }
  return -1;
}

/* Compresses A and records the slot of each of its triplets (emission order).
   *slot is new (caller frees). Returns 0 or MB_ENOMEM. */
static int compress_map (spm *A, long **slot, long *nt)
{
  long n = A->nnz, *ptr = NULL;
  int *r = mb_calloc ((size_t) n + 1, sizeof *r), *c = mb_calloc ((size_t) n + 1, sizeof *c);
  *slot = mb_calloc ((size_t) n + 1, sizeof **slot);
  *nt = n;
  int rc = (!r || !c || !*slot || mb_fault ("assemble")) ? MB_ENOMEM : 0;
  if (!rc) {
    memcpy (r, A->row, (size_t) n * sizeof *r);
    memcpy (c, A->col, (size_t) n * sizeof *c);
    rc = spm_compress (A);
  }
  if (!rc && !(ptr = row_starts (A))) rc = MB_ENOMEM;
  for (long t = 0; t < n && !rc; t++) (*slot)[t] = find_slot (A, ptr, r[t], c[t]);
  free (ptr);
  free (r);
  free (c);
  return rc;
}

/* 1 when K is not symmetric to SYM_RTOL max |K|: with the map's transposed slots (one
   pass), else spm_is_symmetric. */
static int k_nonsymmetric (const assembly *a)
{
  if (!a->map || !a->map->tslot) return !spm_is_symmetric (a->K, SYM_RTOL);
  const spm *K = a->K;
  double tol = SYM_RTOL * spm_max_abs (K);
  for (long k = 0; k < K->nnz; k++) {
    long t = a->map->tslot[k];
    double v = t >= 0 ? K->val[t] : 0.0;
    if (fabs (K->val[k] - v) > tol) return 1;
  }
  return 0;
}

/* The vectors and matrices of a new assembly with opts; builds the pattern (map) when
   with_map. */
static int assemble_build (const model *mdl, const model_state *s, int opts, int with_map,
                           assembly *a)
{
  int n = 6 * mdl->nnodes, m = mdl->nconstraints, damp = model_has_damping (mdl);
  long nz = estimate_nnz (mdl, opts);
  memset (a, 0, sizeof *a);
  a->n = n;
  a->m = m;
  a->K = spm_create (n, n, nz);
  a->M = spm_create (n, n, nz);
  if (damp) a->R = spm_create (n, n, nz);
  if (m > 0) a->Cq = spm_create (m, n, 12L * m);
  a->f_int = mb_calloc ((size_t) n + 1, sizeof *a->f_int);
  a->f_ext = mb_calloc ((size_t) n + 1, sizeof *a->f_ext);
  a->c = mb_calloc ((size_t) m + 1, sizeof *a->c);
  if (with_map) a->map = mb_calloc (1, sizeof *a->map);
  if (!a->K || !a->M || (damp && !a->R) || (m > 0 && !a->Cq) || !a->f_int || !a->f_ext ||
      !a->c || (with_map && !a->map) || mb_fault ("assemble"))
    return MB_ENOMEM;
  sink k[4] = { { a->K, NULL, 0, 0 }, { a->M, NULL, 0, 0 }, { a->R, NULL, 0, 0 },
                { a->Cq, NULL, 0, 0 } };
  MB_TRY (assemble_emit (mdl, s, opts, k, a));
  spm *mats[4] = { a->K, a->M, a->R, a->Cq };
  if (!with_map) {
    for (int t = 0; t < 4; t++) if (mats[t]) MB_TRY (spm_compress (mats[t]));
    return 0;
  }
  a->map->opts = opts;
  for (int t = 0; t < 4; t++)
    if (mats[t]) MB_TRY (compress_map (mats[t], &a->map->slot[t], &a->map->nt[t]));
  a->map->tslot = mb_calloc ((size_t) a->K->nnz + 1, sizeof *a->map->tslot);
  long *ptr = row_starts (a->K);
  if (!a->map->tslot || !ptr || mb_fault ("assemble")) { free (ptr); return MB_ENOMEM; }
  for (long k = 0; k < a->K->nnz; k++)
    a->map->tslot[k] = find_slot (a->K, ptr, a->K->col[k], a->K->row[k]);
  free (ptr);
  return 0;
}

/* Values of a's pattern at s: zero, emit through the map. */
static int assemble_refill (const model *mdl, const model_state *s, assembly *a)
{
  spm *mats[4] = { a->K, a->M, a->R, a->Cq };
  sink k[4];
  for (int t = 0; t < 4; t++) {
    k[t] = (sink) { mats[t], a->map->slot[t], a->map->nt[t], 0 };
    if (mats[t]) memset (mats[t]->val, 0, (size_t) mats[t]->nnz * sizeof *mats[t]->val);
  }
  MB_TRY (assemble_emit (mdl, s, a->map->opts, k, a));
  for (int t = 0; t < 4; t++)
    if (mats[t] && k[t].pos != k[t].n) return MB_ESOLVE;
  return 0;
}

/* The deck configuration (s NULL), no gravity, no Kc blocks: today's matrices. Without
   force elements K is a sum of symmetric beam blocks, so the symmetry pass is skipped. */
int assemble_system (const model *mdl, assembly *a, mb_err *err)
{
  int rc = assemble_build (mdl, NULL, 0, 0, a);
  if (rc) {
    assembly_clear (a);
    return mb_fail (err, MB_ENOMEM, "out of memory while assembling the model's matrices");
  }
  a->nonsymmetric = mdl->nforces > 0 && k_nonsymmetric (a);
  return 0;
}

/* Builds (a->map NULL) or refills (same model) at s with gravity and Kc blocks. */
int assemble_at (const model *mdl, const model_state *s, assembly *a, mb_err *err)
{
  int opts = ASM_GRAVITY | ASM_KC, rc;
  if (a->map && (a->map->opts != opts || a->n != 6 * mdl->nnodes || a->m != mdl->nconstraints))
    assembly_clear (a);
  if (!a->map && a->K) assembly_clear (a);   /* assemble_system's one-shot matrices */
  if (a->map) rc = assemble_refill (mdl, s, a);
  else rc = assemble_build (mdl, s, opts, 1, a);
  if (rc) {
    assembly_clear (a);
    if (rc == MB_ESOLVE)
      return mb_fail (err, MB_ESOLVE, "internal error: the assembly pattern changed with the "
                      "state");
    return mb_fail (err, MB_ENOMEM, "out of memory while assembling the model at a state");
  }
  a->nonsymmetric = k_nonsymmetric (a);
  return 0;
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
  if (a->map)
    for (int t = 0; t < 4; t++) free (a->map->slot[t]);
  if (a->map) free (a->map->tslot);
  free (a->map);
  memset (a, 0, sizeof *a);
}


/* The first non-finite stored entry of A: 0-based row into *row; 1 when found. */
static int first_nonfinite (const spm *A, int *row)
{
  if (!A) return 0;
  for (long k = 0; k < A->nnz; k++)
    if (!isfinite (A->val[k])) {
      *row = A->row[k];
      return 1;
    }
  return 0;
}

int assemble_check_finite (const model *mdl, const assembly *a, const char *deck_path,
                           mb_err *err)
{
  static const char *const names[3] = { "stiffness", "mass", "damping" };
  const spm *mats[3] = { a->K, a->M, a->R };
  for (int t = 0; t < 3; t++) {
    int row;
    if (!first_nonfinite (mats[t], &row)) continue;
    const model_node *nd = &mdl->nodes[row / 6];
    if (nd->beam >= 0) {
      const model_beam *b = &mdl->beams[nd->beam];
      int e = nd->beam_index < b->nelements ? nd->beam_index : nd->beam_index - 1;
      const double *xa = mdl->nodes[b->first_node + e].x, *xb = mdl->nodes[b->first_node + e + 1].x;
      double d[3] = { xb[0] - xa[0], xb[1] - xa[1], xb[2] - xa[2] };
      return mb_fail_at (err, MB_EDECK, deck_path, b->pos.line, b->pos.col,
                         "beam '%s': element %d (length %.3g m) gives a %s matrix that is "
                         "not finite: its geometry or section is out of the range of double "
                         "precision (check the points, the number of elements and the "
                         "section)", b->name, e + 1, sqrt (d[0] * d[0] + d[1] * d[1] + d[2] * d[2]),
                         names[t]);
    }
    if (nd->body >= 0) {
      const model_body *b = &mdl->bodies[nd->body];
      return mb_fail_at (err, MB_EDECK, deck_path, b->pos.line, b->pos.col,
                         "body '%s': its %s matrix (with the forces on it) is not finite: a "
                         "position, mass, inertia or force value is out of the range of "
                         "double precision", b->name, names[t]);
    }
    return mb_fail (err, MB_EDECK, "the %s matrix has a non-finite entry at row %d (node "
                    "'%s')", names[t], row + 1, nd->name);
  }
  return 0;
}
