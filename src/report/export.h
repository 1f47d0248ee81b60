/* export.h: a model's assembled matrices as Matrix Market files, their row maps, and a
   matrix deck that runs them again (output.export_matrices). */
#ifndef MB_EXPORT_H
#define MB_EXPORT_H

#include "../deck/deck.h"
#include "../error.h"
#include "../linalg/sparse.h"
#include "../model/model.h"

/* Creates dir (mkdir -p) and writes into it:
     K.mtx, M.mtx          n x n (n = 6 nnodes), mmio_write: every double bit for bit;
     R.mtx                 when R is given, or (all zero) when d enables the complex stage
                           without R, so that deck.yaml runs that stage too;
     Cq.mtx                m x n, when Cq is given and has rows (m = mdl->nconstraints);
     dofs.csv              "row,node,dof": the 1-based Matrix Market row of each DOF, the
                           node's name and the DOF label dx dy dz rx ry rz;
     constraints.csv       "row,joint,type,dof": the 1-based row of Cq, the joint's name, its
                           type, and what the row locks: "dx" .. "rz" in the joint's
                           frame axes e1 e2 e3, or "distance"; header only
                           when m = 0;
     deck.yaml             a matrix deck naming those files (paths relative to dir), with
                           the stage settings of d (modes, shift or target frequency,
                           tolerance, restarts, subspace, enabled) and output name
                           "<d's output name>-matrices", so `mbmodal DIR/deck.yaml` repeats
                           the solve on the exported matrices; state (may be NULL), the
                           configuration K, M, R, Cq are about (the deck configuration, or
                           a static equilibrium), as a "# state: ..." comment line.
   CSV fields holding ',', '"' or a line break are double-quoted (RFC 4180).
   Each file is written under a temporary name and renamed when complete (writer.c), and
   is refused (MB_EIO) when it would replace an input of the run (writer_protect).
   d may be NULL (defaults; no source line). K, M, R, Cq are borrowed (R, Cq may be NULL).
   Returns 0, MB_EIO naming the path that failed, MB_ENOMEM. Rank 0 only. */
int export_matrices (const char *dir, const model *mdl, const spm *K, const spm *M,
                     const spm *R, const spm *Cq, const deck *d, const char *state,
                     mb_err *err);

#endif
