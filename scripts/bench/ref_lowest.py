#!/usr/bin/python3
"""ref_lowest.py: extended-precision reference values of the lowest undamped eigenvalues of
a beam grid (K x + Cq^T mu = lambda M x, Cq x = 0), independent of mbmodal and of SLEPc, to
tell which side of a disagreement at the 1e-8 level is right.

usage: ref_lowest.py DIR GUESS [GUESS ...] [-- FILE ...]
  DIR holds K.mtx, M.mtx, Cq.mtx (Matrix Market). Each GUESS is an approximate eigenvalue
  (rad^2/s^2, e.g. one of the peer's); the reference is found by inverse iteration at that
  shift. FILEs after "--" are eigenvalue lists to compare (one number a line, ascending, as
  slepc_peer writes, or an mbmodal report: its modes' "eigenvalue:" lines).

Method: scipy's sparse LU (SuperLU, double) of the bordered matrix
  A = [K - s M, c Cq^T; c Cq, 0]   (c: a power of two that brings Cq to K's size)
at a shift s; every solve A y = b is refined in numpy's long double (80-bit x87 on x86-64:
64-bit mantissa, unit round-off 5.4e-20) by iterative refinement (residual b - A y in long
double, correction by the double LU, 3 steps). Inverse iteration y <- A^-1 [M x; 0] from a
random start, 8 steps, converges by |lambda_1 - s| / |lambda_2 - s| a step (5e-3 on the
beam grids' lowest modes); the eigenvalue is the Rayleigh quotient x^T K x / x^T M x of
the long-double x, summed in long double: its error is of the order of the square of the
vector's. This is done at two shifts, GUESS (1 - 1e-3) and GUESS (1 + 1e-3), which give
different matrices, factors and rounding; the reference is their mean and "two shifts" their
relative difference (how far the reference can be trusted).
"""
import re
import sys

import numpy as np
import scipy.io
import scipy.sparse as sp
import scipy.sparse.linalg as spla

LD = np.longdouble


def load(d, name):
    return sp.csr_matrix(scipy.io.mmread(f"{d}/{name}.mtx"))


class LdCsr:
    """A CSR matrix whose product is summed in long double."""

    def __init__(self, A):
        A = sp.csr_matrix(A)
        A.sum_duplicates()
        self.indptr, self.indices = A.indptr, A.indices
        self.data = A.data.astype(LD)
        self.shape = A.shape
        self.starts = A.indptr[:-1]
        self.nonempty = np.diff(A.indptr) > 0

    def dot(self, x):
        prod = self.data * x[self.indices]
        y = np.zeros(self.shape[0], dtype=LD)
        if prod.size:
            sums = np.add.reduceat(prod, self.starts[self.nonempty])
            y[self.nonempty] = sums
        return y


def rayleigh_at(K, M, Cq, Kl, Ml, Cl, CTl, s, scale, n, m, rng):
    """The Rayleigh quotient (long double) of inverse iteration's vector at shift s."""
    A = sp.bmat([[K - s * M, scale * Cq.T], [scale * Cq, None]], format="csc")
    lu = spla.splu(A, permc_spec="MMD_AT_PLUS_A", diag_pivot_thresh=1.0)
    Ks = LdCsr(K - s * M)

    def apply_A(z):
        top = Ks.dot(z[:n]) + LD(scale) * CTl.dot(z[n:])
        return np.concatenate([top, LD(scale) * Cl.dot(z[:n])])

    def solve(b):
        y = lu.solve(b.astype(np.float64)).astype(LD)
        for _ in range(3):
            y = y + lu.solve((b - apply_A(y)).astype(np.float64)).astype(LD)
        return y

    x = rng.standard_normal(n).astype(LD)
    for _ in range(8):
        z = solve(np.concatenate([Ml.dot(x), np.zeros(m, dtype=LD)]))
        x = z[:n] / np.sqrt((z[:n] ** 2).sum())
    return (x * Kl.dot(x)).sum() / (x * Ml.dot(x)).sum()


def read_list(path):
    text = open(path).read()
    if "eigenvalue:" in text:
        return [float(v) for v in re.findall(r"^\s+eigenvalue:\s*(\S+)", text, re.M)]
    return [float(v) for v in text.split()]


def main():
    args = sys.argv[1:]
    files = []
    if "--" in args:
        i = args.index("--")
        files, args = args[i + 1:], args[:i]
    d, guesses = args[0], [float(g) for g in args[1:]]
    K, M, Cq = load(d, "K"), load(d, "M"), load(d, "Cq")
    n, m = K.shape[0], Cq.shape[0]
    Kl, Ml, Cl, CTl = LdCsr(K), LdCsr(M), LdCsr(Cq), LdCsr(Cq.T)
    scale = 2.0 ** round(np.log2(abs(K).max() / abs(Cq).max()))  # Cq scaled to K's size
    lists = [(f, read_list(f)) for f in files]
    rng = np.random.default_rng(1)
    print(f"{'guess':>22} {'reference (long double)':>26} {'two shifts':>10}  "
          + "  ".join(f"{f.split('/')[-2] + '/' + f.split('/')[-1]:>28}" for f in files))
    for g in guesses:
        lams = [rayleigh_at(K, M, Cq, Kl, Ml, Cl, CTl, g * (1.0 + side * 1e-3), scale, n, m, rng)
                for side in (-1.0, 1.0)]
        lam = 0.5 * (lams[0] + lams[1])
        spread = float(abs(lams[0] - lams[1]) / abs(lam))
        row = f"{g:>22.16g} {float(lam):>26.17g} {spread:>10.1e}"
        for _, vals in lists:
            near = min(vals, key=lambda v: abs(v - float(lam)))
            row += f"  {near:>18.16g} {abs(near - float(lam)) / abs(float(lam)):8.1e}"
        print(row, flush=True)


if __name__ == "__main__":
    main()
