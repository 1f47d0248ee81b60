#!/usr/bin/python3
"""check_eigs.py: checks eigenvalue lists against an independent reference from beamgrid.py's output.

usage: check_eigs.py DIR EIGFILE... [--rtol R]
  DIR      directory written by beamgrid.py (Kr.mtx Mr.mtx; K.mtx M.mtx Cq.mtx for the small case)
  EIGFILE  one eigenvalue per line (slepc_peer's output, or run.sh's mbmodal.eig)
  --rtol   largest accepted relative difference (default 1e-8)

Each file's k eigenvalues, sorted, are compared with the k smallest reference eigenvalues (all
eigenvalues are > 0 here, so "nearest sigma = -1e-3" means smallest). Relative difference:
|a-b| / max(|a|, |b|, 1e-8 * max over both lists). Exit status 1 if any file is above rtol.

References (none uses SLEPc, PETSc or MUMPS):
  reduced pencil (Kr, Mr): welded nodes merged and clamped dofs removed, unconstrained, symmetric
  definite, with the same finite eigenvalues as the constrained pencil.
    order <= 8000: scipy.linalg.eigh(Kr, Mr), dense LAPACK (all eigenvalues, none can be missed)
    larger:        scipy.sparse.linalg.eigsh(Kr, k, Mr, sigma=-1e-3), ARPACK shift-invert with a
                   SuperLU factor, ncv = 3k; cached in DIR/ref_eigsh_K.txt
  constrained pencil, n <= 6000 only: scipy.linalg.eigh(Z'KZ, Z'MZ), Z = null_space(Cq), i.e.
    the pencil restricted to {x : Cq x = 0}. (QZ on [K Cq'; Cq 0], [M 0; 0 0] was tried and
    dropped: with entries from 1 to 1e8 it classed some finite eigenvalues as infinite.)
"""
import os
import sys
import numpy as np
import scipy.io as sio
import scipy.linalg as la


def maxrel(a, b):
    floor = 1e-8 * max(np.abs(a).max(), np.abs(b).max())
    d = np.abs(a - b) / np.maximum(np.maximum(np.abs(a), np.abs(b)), floor)
    return d.max(), int(d.argmax())


def reduced_reference(d, k):
    Kr = sio.mmread(os.path.join(d, "Kr.mtx")).tocsc()
    Mr = sio.mmread(os.path.join(d, "Mr.mtx")).tocsc()
    nr = Kr.shape[0]
    if nr <= 8000:
        return la.eigh(Kr.toarray(), Mr.toarray(), eigvals_only=True)[:k], f"eigh(Kr,Mr), dense, order {nr}"
    cache = os.path.join(d, f"ref_eigsh_{k}.txt")
    if os.path.exists(cache):
        return np.loadtxt(cache, ndmin=1), f"eigsh(Kr,Mr), ARPACK, order {nr} (cached {cache})"
    import scipy.sparse.linalg as sla
    w = sla.eigsh(Kr, k=k, M=Mr, sigma=-1e-3, which="LM", ncv=min(nr - 1, 3 * k),
                  return_eigenvectors=False)
    w = np.sort(w)
    np.savetxt(cache, w, fmt="%.17g")
    return w, f"eigsh(Kr,Mr), ARPACK, order {nr}"


def main():
    args = [a for a in sys.argv[1:]]
    rtol = 1e-8
    if "--rtol" in args:
        i = args.index("--rtol")
        rtol = float(args[i + 1])
        del args[i:i + 2]
    if len(args) < 2:
        sys.exit(__doc__)
    d, files = args[0], args[1:]
    lists = [np.sort(np.loadtxt(f, ndmin=1)) for f in files]
    k = max(len(x) for x in lists)
    refs = [reduced_reference(d, k)]
    K = sio.mmread(os.path.join(d, "K.mtx"))
    if K.shape[0] <= 6000:
        K, M = K.toarray(), sio.mmread(os.path.join(d, "M.mtx")).toarray()
        Z = la.null_space(sio.mmread(os.path.join(d, "Cq.mtx")).toarray())   # orthonormal, Cq Z = 0
        refs.append((la.eigh(Z.T @ K @ Z, Z.T @ M @ Z, eigvals_only=True)[:k],
                     f"eigh(Z'KZ,Z'MZ), dense, order {Z.shape[1]}"))
    ok = True
    for f, lam in zip(files, lists):
        for ref, name in refs:
            n = min(len(lam), len(ref))
            e, i = maxrel(lam[:n], ref[:n])
            ok = ok and e <= rtol
            print(f"{f}: {n} eigenvalues vs {name}: max rel diff {e:.3e} at mode {i + 1} "
                  f"({lam[i]:.12g} vs {ref[i]:.12g})")
    print("PASS" if ok else "FAIL", f"(rtol {rtol:g})")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
