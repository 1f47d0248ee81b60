/* material_stiffness.c: the material stiffness G^T D G of a model's elements at a state
   (the part of the tangent the buckling stage keeps apart from the geometric one). */
#include "material_stiffness.h"

#include <stdlib.h>

#include "elements.h"

/* Adds the 12 x 12 (row-major, node blocks of 6) K of element e into triplet matrix A:
   A[6 a + i][6 b + j] += e.K[12 (6 ia + i) + 6 ib + j] for its non-ground nodes a, b. */
static int add_block (spm *A, const elem *e)
{
  for (int bi = 0; bi < e->nnode; bi++)
    for (int bj = 0; bj < e->nnode; bj++) {
      if (e->node[bi] < 0 || e->node[bj] < 0) continue;
      for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++)
          MB_TRY (spm_add (A, 6 * e->node[bi] + i, 6 * e->node[bj] + j,
                           e->K[12 * (6 * bi + i) + 6 * bj + j]));
    }
  return 0;
}

int model_material_stiffness (const model *mdl, const model_state *s, spm **Km, mb_err *err)
{
  model ref;
  if (mdl->eq) {  /* placed: the elements about their deck poses, at the equilibrium */
    ref = *mdl;
    ref.nodes = mdl->eq->nodes;
    ref.bodies = mdl->eq->bodies;
    ref.eq = NULL;
    s = mdl->eq->state;
    mdl = &ref;
  }
  int n = 6 * mdl->nnodes;
  long nz = 144L * mdl->nforces + 1;
  for (int ib = 0; ib < mdl->nbeams; ib++) nz += 144L * mdl->beams[ib].nelements;
  spm *A = spm_create (n, n, nz);
  int rc = A ? 0 : MB_ENOMEM;
  elem e;
  for (int ib = 0; ib < mdl->nbeams && rc == 0; ib++)
    for (int q = 0; q < mdl->beams[ib].nelements && rc == 0; q++) {
      beam_element (mdl, s, ib, q, EVAL_MATERIAL, &e);
      if (e.has_K) rc = add_block (A, &e);
    }
  for (int f = 0; f < mdl->nforces && rc == 0; f++) {
    force_element_flags (mdl, s, f, EVAL_MATERIAL, &e);
    if (e.has_K) rc = add_block (A, &e);
  }
  if (rc == 0) rc = spm_compress (A);
  if (rc) {
    spm_free (A);
    return mb_fail (err, MB_ENOMEM, "out of memory for the material stiffness");
  }
  *Km = A;
  return 0;
}
