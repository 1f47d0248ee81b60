/* singular.c: why A - sigma B is singular: structure, null pivots mapped to DOFs and rows. */
#include "singular.h"

#include "pencil.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Marks in used[i] (size n) each DOF i with a nonzero entry in row or column i of A. */
static void mark_dofs (const spm *A, unsigned char *used)
{
  if (!A) return;
  for (long k = 0; k < A->nnz; k++)
    if (A->val[k] != 0.0) used[A->row[k]] = used[A->col[k]] = 1;
}

/* The name of DOF i: the caller's label, or its row in the matrices (1-based). */
static void dof_name (const gep_system *sys, int i, char *buf, size_t len)
{
  if (sys->label) sys->label (sys->label_ctx, i, buf, len);
  else snprintf (buf, len, "row %d of K and M", i + 1);
}

/* Appends printf-style text to buf (len bytes), never past its end. */
static void append (char *buf, size_t len, const char *fmt, ...)
  __attribute__ ((format (printf, 3, 4)));
static void append (char *buf, size_t len, const char *fmt, ...)
{
  size_t used = strlen (buf);
  if (used + 1 >= len) return;
  va_list ap;
  va_start (ap, fmt);
  vsnprintf (buf + used, len - used, fmt, ap);
  va_end (ap);
}

/* Rank 0. The error naming the DOFs (dof[i] = 0) and the constraint rows (con[j] = 0) that
   no entry touches, or 0 when there is none. */
static int structure_verdict (const gep_system *sys, int damped, const unsigned char *dof,
                              const unsigned char *con, mb_err *err)
{
  int n = sys->n, m = sys->m;
  char msg[1024] = "", name[160];
  int nd = 0, nc = 0;
  for (int i = 0; i < n; i++)
    if (!dof[i] && nd++ < 5) {
      dof_name (sys, i, name, sizeof name);
      append (msg, sizeof msg, "%s%s", nd > 1 ? ", " : "", name);
    }
  if (nd > 5) append (msg, sizeof msg, " and %d more", nd - 5);
  if (nd > 0)
    append (msg, sizeof msg, " ha%s no mass, no stiffness%s and no constraint",
            nd > 1 ? "ve" : "s", damped ? ", no damping" : "");
  for (int j = 0; j < m; j++)
    if (!con[j] && nc++ < 5)
      append (msg, sizeof msg, "%s%d", nc > 1 ? ", " : nd > 0 ? "; constraint rows (Cq) " :
              "constraint rows (Cq) ", j + 1);
  if (nc > 5) append (msg, sizeof msg, " and %d more", nc - 5);
  if (nc > 0) append (msg, sizeof msg, " %s empty", nc > 1 ? "are" : "is");
  if (nd == 0 && nc == 0) return 0;
  return mb_fail (err, MB_EDECK, "A - sigma B is singular at every shift by its structure: "
                  "%s; remove %s or attach %s", msg, nd + nc > 1 ? "them" : "it",
                  nd > 0 ? "mass or stiffness" : "a DOF to each constraint row");
}

int singular_structure (const gep_system *sys, int damped, mb_err *err)
{
  int n = sys->n, m = sys->m;
  unsigned char *dof = mb_calloc ((size_t) n + 1, 1), *con = mb_calloc ((size_t) m + 1, 1);
  if (!dof || !con) {
    free (dof); free (con);
    return mb_fail (err, MB_ENOMEM, "out of memory checking the pencil's structure");
  }
  mark_dofs (sys->K, dof);
  mark_dofs (sys->M, dof);
  if (damped) mark_dofs (sys->R, dof);
  if (sys->Cq)
    for (long k = 0; k < sys->Cq->nnz; k++)
      if (sys->Cq->val[k] != 0.0) dof[sys->Cq->col[k]] = con[sys->Cq->row[k]] = 1;
  int rc = structure_verdict (sys, damped, dof, con, err);
  free (dof); free (con);
  return rc;
}

/* Marks as mark_dofs for the rows of a part. */
static void mark_part (const spm_part *P, unsigned char *used)
{
  const spm *L = &P->L;
  for (int i = 0; i < L->nrows; i++)
    for (int k = L->rowptr[i]; k < L->rowptr[i + 1]; k++)
      if (L->val[k] != 0.0) used[P->first + i] = used[L->col[k]] = 1;
}

int singular_structure_parts (MPI_Comm comm, const gep_system *sys, int damped, mb_err *err)
{
  int rank, n = sys->n, m = sys->m;
  MPI_Comm_rank (comm, &rank);
  const gep_parts *P = sys->parts;
  unsigned char *dof = mb_calloc ((size_t) (n + m) + 1, 1), *con = dof + n;
  unsigned char *all = mb_calloc ((size_t) (n + m) + 1, 1);
  int rc = dof && all ? 0 : mb_fail (err, MB_ENOMEM, "out of memory checking the pencil's "
                                     "structure");
  if ((rc = mb_agree (comm, rc, err)) < 0) { free (dof); free (all); return rc; }
  mark_part (&P->K, dof);
  mark_part (&P->M, dof);
  if (damped && P->R.L.rowptr) mark_part (&P->R, dof);
  const spm *C = &P->Cq.L;
  for (int j = 0; j < C->nrows; j++)
    for (int k = C->rowptr[j]; k < C->rowptr[j + 1]; k++)
      if (C->val[k] != 0.0) dof[C->col[k]] = con[P->Cq.first + j] = 1;
  MPI_Allreduce (dof, all, n + m, MPI_UNSIGNED_CHAR, MPI_MAX, comm);
  rc = rank == 0 ? structure_verdict (sys, damped, all, all + n, err) : 0;
  free (dof); free (all);
  return mb_agree (comm, rc, err);
}

/* Rank 0. 1 if row j of Cq is empty; *twin = another row k with Cq(k, :) = c Cq(j, :)
   (c != 0), else -1. O(nnz(Cq)) per candidate row. */
static int cq_row_facts (const spm *Cq, int j, int *twin)
{
  *twin = -1;
  long nj = 0;
  for (long k = 0; k < Cq->nnz; k++) if (Cq->row[k] == j && Cq->val[k] != 0.0) nj++;
  if (nj == 0) return 1;
  double *rowj = mb_calloc ((size_t) Cq->ncols, sizeof *rowj);
  long *cnt = mb_calloc ((size_t) Cq->nrows, sizeof *cnt);
  double *ratio = mb_calloc ((size_t) Cq->nrows, sizeof *ratio);
  char *off = mb_calloc ((size_t) Cq->nrows, 1);
  if (!rowj || !cnt || !ratio || !off) { free (rowj); free (cnt); free (ratio); free (off); return 0; }
  for (long k = 0; k < Cq->nnz; k++) if (Cq->row[k] == j) rowj[Cq->col[k]] += Cq->val[k];
  for (long k = 0; k < Cq->nnz; k++) {
    int r = Cq->row[k];
    if (r == j || Cq->val[k] == 0.0) continue;
    double a = rowj[Cq->col[k]];
    if (a == 0.0) { off[r] = 1; continue; }
    double c = Cq->val[k] / a;
    if (cnt[r] == 0) ratio[r] = c;
    else if (fabs (c - ratio[r]) > 1e-12 * fabs (ratio[r])) off[r] = 1;
    cnt[r]++;
  }
  for (int r = 0; r < Cq->nrows && *twin < 0; r++)
    if (r != j && !off[r] && cnt[r] == nj) *twin = r;
  free (rowj); free (cnt); free (ratio); free (off);
  return 0;
}

void singular_describe (const gep_system *sys, int damped, int count, const int *rows,
                        int names_only, char *msg, size_t len)
{
  int n = sys->n;
  char name[160];
  msg[0] = '\0';
  for (int t = 0; t < count && t < 6; t++) {
    int r = rows[t], i = -1, j = -1;
    if (r < n) i = r; else j = r - n;
    if (t > 0) append (msg, len, "; ");
    if (i >= 0 && names_only) {
      dof_name (sys, i, name, sizeof name);
      append (msg, len, "%s", name);
    } else if (j >= 0 && names_only) {
      append (msg, len, "constraint row %d", j + 1);
    } else if (i >= 0) {
      dof_name (sys, i, name, sizeof name);
      int bare = 1;
      const spm *mats[3] = { sys->K, sys->M, damped ? sys->R : NULL };
      for (int a = 0; a < 3; a++)
        for (long k = 0; mats[a] && k < mats[a]->nnz; k++)
          if (mats[a]->val[k] != 0.0 && (mats[a]->row[k] == i || mats[a]->col[k] == i)) bare = 0;
      append (msg, len, "%s (%s)", name, bare ? "no mass and no stiffness"
              : "part of a motion with neither mass nor stiffness");
    } else if (sys->Cq) {
      int twin;
      if (cq_row_facts (sys->Cq, j, &twin)) append (msg, len, "constraint row %d (empty)", j + 1);
      else if (twin >= 0)
        append (msg, len, "constraint row %d (a multiple of row %d: redundant)", j + 1, twin + 1);
      else append (msg, len, "constraint row %d (dependent on the other rows: redundant)", j + 1);
    }
  }
  if (count > 6) append (msg, len, "; and %d more", count - 6);
}
