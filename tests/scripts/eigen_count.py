#!/usr/bin/python3
"""eigen_count.py: the number of finite eigenvalues of a matrix deck's pencils, by dense
numpy / scipy (issue 9), against what an mbmodal report says.

usage: eigen_count.py DECK_DIR STAGE REPORT
  DECK_DIR holds K.mtx, M.mtx and optionally R.mtx, Cq.mtx (Matrix Market);
  STAGE is modal or complex. Two references, both from outside mbmodal:
  - rank: Z a basis of null(Cq) (scipy.linalg.null_space), k0 = nullity of Z^T M Z,
    k1 = nullity of Z^T (M + R) Z (numpy.linalg.matrix_rank); modal: (n - m) - k0,
    complex: 2 (n - m) - k0 - k1;
  - eig: scipy.linalg.eig of the linearized pencil (GEP (18) or (31)) with homogeneous
    eigenvalues, counting |beta| > 1e-8 |alpha| (modal: B scaled so that ||A|| = ||B||).
The report must have convergence.finite_eigenvalues equal to both, and its modes must stand
for that many eigenvalues (a mode with Im lambda != 0 is a conjugate pair: 2)."""
import os
import sys

import numpy as np
import scipy.io
import scipy.linalg
import yaml


def load(d, name, shape=None):
    p = os.path.join(d, name + ".mtx")
    if not os.path.exists(p):
        return None
    return scipy.io.mmread(p).toarray()


def main():
    d, stage, rep = sys.argv[1], sys.argv[2], sys.argv[3]
    K, M, R, Cq = load(d, "K"), load(d, "M"), load(d, "R"), load(d, "Cq")
    n = K.shape[0]
    m = 0 if Cq is None else Cq.shape[0]
    R = np.zeros((n, n)) if R is None else R
    Z = np.eye(n) if m == 0 else scipy.linalg.null_space(Cq)
    k0 = Z.shape[1] - np.linalg.matrix_rank(Z.T @ M @ Z)
    k1 = Z.shape[1] - np.linalg.matrix_rank(Z.T @ (M + R) @ Z)
    # the eigenvalue count on the linearization
    if stage == "modal":
        rank_count = (n - m) - k0
        A = np.zeros((n + m, n + m)); B = np.zeros((n + m, n + m))
        A[:n, :n] = K; B[:n, :n] = M
        if m:
            A[n:, :n] = Cq; A[:n, n:] = Cq.T
    else:
        rank_count = 2 * (n - m) - k0 - k1
        N = 2 * n + m
        A = np.zeros((N, N)); B = np.zeros((N, N))
        A[:n, n:2 * n] = np.eye(n); B[:n, :n] = np.eye(n)
        A[n:2 * n, :n] = -K; A[n:2 * n, n:2 * n] = -R; B[n:2 * n, n:2 * n] = M
        if m:
            A[n:2 * n, 2 * n:] = -Cq.T; A[2 * n:, :n] = -Cq
    # modal: B scaled to A's size (eigenvalues omega^2 up to ~1e8 here); complex: unscaled,
    # |lambda| < 1e8 rad/s (scaling B by ||A|| / ||B|| there let QZ's rounding turn 7
    # infinite eigenvalues of the beam grid finite)
    s = np.abs(A).max() / max(np.abs(B).max(), 1e-300) if stage == "modal" else 1.0
    ab = scipy.linalg.eigvals(A, s * B, homogeneous_eigvals=True)
    alpha, beta = ab[0], ab[1]
    eig_count = int(np.sum(np.abs(beta) > 1e-8 * np.abs(alpha)))
    r = yaml.load(open(rep), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    c = r["convergence"]
    stands = sum(2 if (stage == "complex" and md["eigenvalue"][1] != 0) else 1
                 for md in r["modes"]) if stage == "complex" else len(r["modes"])
    got = c.get("finite_eigenvalues")
    ok = rank_count == eig_count == got == stands
    print("%s %s %s: finite eigenvalues: report %s, dense rank %d, dense eig %d, modes stand for %d"
          % ("ok" if ok else "FAIL", rep, stage, got, rank_count, eig_count, stands))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
