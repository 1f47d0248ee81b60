#!/usr/bin/python3
"""dense_check.py: checks a list of eigenvalues against dense LAPACK solves of beamgrid.py's output.

usage: dense_check.py DIR EIGFILE [RTOL]
  DIR      directory written by beamgrid.py (Kr.mtx Mr.mtx, and K.mtx M.mtx Cq.mtx)
  EIGFILE  one eigenvalue per line, ascending (slepc_peer's output, or mbmodal's)
  RTOL     largest accepted relative difference (default 1e-8)

References, both independent of the solvers under test:
  1. scipy.linalg.eigh(Kr, Mr): the reduced, unconstrained pencil (welded nodes merged, clamped
     dofs removed), symmetric definite, same finite eigenvalues as the constrained pencil.
  2. for n <= 6000 also scipy.linalg.eigh(Z'KZ, Z'MZ), Z = null_space(Cq): the constrained
     pencil restricted to the constraint manifold (its finite eigenvalues are exactly these).
     (QZ on [K Cq'; Cq 0], [M 0; 0 0] itself was tried and rejected: with entries from 1 to
     1e8 it misclassifies some finite eigenvalues as infinite.)
The k listed eigenvalues are compared with the k smallest reference ones (all are > 0 here,
so "nearest sigma = -1e-3" means smallest). Relative difference: |a-b| / max(|a|, |b|,
1e-8 * max over all). Prints the largest one per reference; exit status 1 if above RTOL.
"""
import sys
import os
import numpy as np
import scipy.io as sio
import scipy.linalg as la


def maxrel(a, b):
    floor = 1e-8 * max(np.abs(a).max(), np.abs(b).max())
    d = np.abs(a - b) / np.maximum(np.maximum(np.abs(a), np.abs(b)), floor)
    return d.max(), int(d.argmax())


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    d, eigfile = sys.argv[1], sys.argv[2]
    rtol = float(sys.argv[3]) if len(sys.argv) > 3 else 1e-8
    lam = np.sort(np.loadtxt(eigfile, ndmin=1))
    k = len(lam)
    rd = lambda name: sio.mmread(os.path.join(d, name)).toarray()
    Kr, Mr = rd("Kr.mtx"), rd("Mr.mtx")
    ref = la.eigh(Kr, Mr, eigvals_only=True)[:k]
    worst = 0.0
    e, i = maxrel(lam, ref)
    worst = max(worst, e)
    print(f"eigh(Kr,Mr) order {Kr.shape[0]}: {k} eigenvalues, max rel diff {e:.3e} at mode {i + 1} "
          f"(lambda {lam[i]:.10g} vs {ref[i]:.10g})")
    K, M, C = rd("K.mtx"), rd("M.mtx"), rd("Cq.mtx")
    n = K.shape[0]
    if n <= 6000:
        Z = la.null_space(C)                         # orthonormal basis of {x : Cq x = 0}
        ref2 = la.eigh(Z.T @ K @ Z, Z.T @ M @ Z, eigvals_only=True)[:k]
        e, i = maxrel(lam, ref2)
        worst = max(worst, e)
        print(f"eigh(Z'KZ,Z'MZ) order {Z.shape[1]}: max rel diff {e:.3e} at mode {i + 1}")
    print("PASS" if worst <= rtol else "FAIL", f"(rtol {rtol:g})")
    sys.exit(0 if worst <= rtol else 1)


if __name__ == "__main__":
    main()
