#!/usr/bin/python3
"""eigen_counts.py: outside references for eigen_counts.sh (issue 22 items 4, 6, 7), from
dense numpy / scipy (LAPACK) on the matrices, never from mbmodal's output.

usage:
  eigen_counts.py gen DIR            write the matrix decks' .mtx files into DIR
  eigen_counts.py count MTXDIR       print the pencil's finite undamped eigenvalue count
  eigen_counts.py modal MTXDIR REPORT K [MTXDIR REPORT K ...]
      each report's modes must be the min(K, F) lowest finite eigenvalues of
      (Z^T K Z, Z^T M Z), Z = null_space(Cq) (scipy.linalg.eig, homogeneous), F their
      count: as many, frequencies within rtol 1e-7 (1e-6 Hz absolute for rigid-body ones),
      every residual below 1e-9, and the missed-mode check (when present) `ok`
  eigen_counts.py damped MTXDIR REPORT K
      a model without damping: K physical damped modes, each rigid-body double zero once
      with multiplicity 2 (see damped())
  eigen_counts.py flutter REPORT     the damped report of the flutter deck: its modes'
      lambda^2 must be -(eigenvalues of M^-1 K) (numpy.linalg.eigvals), rtol 1e-9
  eigen_counts.py pair MTXDIR LOG    the undamped stage's refusal in LOG names a complex
      lambda = omega^2 that scipy.linalg.eig finds among the finite eigenvalues of
      (Z^T K Z, Z^T M Z) (rtol 1e-5: the message's 6 digits)"""
import os
import sys

import numpy as np
import scipy.io
import scipy.linalg
import scipy.sparse as sp
import yaml

# the flutter case: K non-symmetric (a circulatory coupling of DOFs 1 and 2), M diagonal:
# M^-1 K has the pair 2000.36 +- 2999.38 i and 249.274 (numpy.linalg.eigvals)
FLUTTER_K = np.array([[2000.0, 3000.0, 0.0], [-3000.0, 2000.0, 100.0], [0.0, 100.0, 500.0]])
FLUTTER_M = np.diag([1.0, 1.0, 2.0])
# non-symmetric with real eigenvalues (400 +- sqrt(...) real): the undamped stage must run
REAL_K = np.array([[2000.0, 300.0, 0.0], [100.0, 1000.0, 50.0], [0.0, 20.0, 500.0]])


# order 60 with 3 random constraint rows, the Krylov path (not the dense one): K0 a chain
# (1e4 (2, -1) tridiagonal), M = diag (linspace (1, 2)). nsbig: K0 plus a skew tridiagonal
# part (+-200 off the diagonal): non-symmetric, real eigenvalues (101, 209, 363, ...);
# nsflut: K0 plus g (M p1 p2^T M - M p2 p1^T M) with p1, p2 its two lowest constrained
# modes (M-unit) and g their gap: those two become the flutter pair 150.839 +- 85.888 i.
def unsym60(d, flutter):
    os.makedirs(d, exist_ok=True)
    n = 60
    K = 1e4 * (2.0 * np.eye(n) - np.eye(n, k=1) - np.eye(n, k=-1))
    M = np.diag(np.linspace(1.0, 2.0, n))
    Cq = np.random.default_rng(7).standard_normal((3, n))
    if flutter:
        Z = scipy.linalg.null_space(Cq)
        lam, Y = scipy.linalg.eigh(Z.T @ K @ Z, Z.T @ M @ Z)
        p1, p2 = M @ Z @ Y[:, 0], M @ Z @ Y[:, 1]
        K = K + (lam[1] - lam[0]) * (np.outer(p1, p2) - np.outer(p2, p1))
    else:
        K = K + 200.0 * (np.eye(n, k=1) - np.eye(n, k=-1))
    write(d, "K.mtx", K, False)
    write(d, "M.mtx", M, True)
    write(d, "Cq.mtx", Cq, False)


def pair(d, log):
    """The refusal's lambda = a +- b i against scipy's finite eigenvalues."""
    import re
    m = re.search(r"lambda = omega\^2, (\S+) ([+-]) (\S+) i", open(log).read())
    if not m:
        print("FAIL %s: no refusal naming a complex lambda" % log)
        return 1
    got = complex(float(m.group(1)), float(m.group(3)) * (1 if m.group(2) == "+" else -1))
    K, M, Cq = load(d, "K"), load(d, "M"), load(d, "Cq")
    Z = scipy.linalg.null_space(Cq)
    ev = scipy.linalg.eigvals(Z.T @ K @ Z, Z.T @ M @ Z)
    e = ev[int(np.argmin(np.abs(ev - got)))]
    if abs(e - got) > 1e-5 * abs(e) or abs(e.imag) <= 1e-8 * abs(e):
        print("FAIL %s: refused with lambda %s, scipy's nearest %s" % (log, got, e))
        return 1
    print("ok %s: refused naming lambda = %s, scipy.linalg.eig %.9g%+.9gi" % (log, got, e.real,
                                                                            e.imag))
    return 0


def write(d, name, A, symmetric):
    A = np.tril(A) if symmetric else A
    scipy.io.mmwrite(os.path.join(d, name), sp.coo_matrix(A),
                     symmetry="symmetric" if symmetric else "general")


def constrained(d, seed, n=60, m=30, massless=20):
    """K = A A^T 1e4 / n (random, SPD), M diagonal with `massless` zero DOFs, Cq random m x n:
    F = n - m finite eigenvalues, order n + m = 90 > 2 (F + 3): Krylov-Schur's own path at
    743b901 when F modes are asked, where it converged spurious pairs."""
    os.makedirs(d, exist_ok=True)
    r = np.random.default_rng(seed)
    A = r.standard_normal((n, n))
    mdiag = r.uniform(1.0, 10.0, n)
    mdiag[:massless] = 0.0
    write(d, "K.mtx", A @ A.T * 1e4 / n, True)
    write(d, "M.mtx", np.diag(mdiag), True)
    write(d, "Cq.mtx", r.standard_normal((m, n)), False)


def gen(d):
    for seed in (2, 4):
        constrained(os.path.join(d, "rnd%d" % seed), seed)
    for name, K in (("flutter", FLUTTER_K), ("nsreal", REAL_K)):
        sub = os.path.join(d, name)
        os.makedirs(sub, exist_ok=True)
        write(sub, "K.mtx", K, False)
        write(sub, "M.mtx", FLUTTER_M, True)
        write(sub, "R.mtx", np.zeros((3, 3)), True)
    unsym60(os.path.join(d, "nsbig"), False)
    unsym60(os.path.join(d, "nsflut"), True)


def load(d, name):
    p = os.path.join(d, name + ".mtx")
    return scipy.io.mmread(p).toarray() if os.path.exists(p) else None


def finite(d):
    """The finite eigenvalues of K x = lambda M x on null(Cq), ascending."""
    K, M, Cq = load(d, "K"), load(d, "M"), load(d, "Cq")
    Z = scipy.linalg.null_space(Cq) if Cq is not None and Cq.size else np.eye(K.shape[0])
    Kz, Mz = Z.T @ K @ Z, Z.T @ M @ Z
    if np.abs(Kz).max() == 0.0:  # K = 0 on null(Cq): every eigenvalue with mass is 0
        return np.zeros(np.linalg.matrix_rank(Mz))
    (al, be), _ = scipy.linalg.eig(Kz, Mz, homogeneous_eigvals=True)
    scale = np.abs(Kz).max() / max(np.abs(Mz).max(), 1e-300)
    fin = np.abs(be) * scale > 1e-9 * np.abs(al)
    lam = (al[fin] / be[fin]).real
    return np.sort(lam)


def modal(d, report, k):
    lam = finite(d)
    want = min(k, len(lam))
    f_ref = np.sqrt(np.abs(lam[:want])) / (2 * np.pi)
    r = yaml.safe_load(open(report))
    modes = r.get("modes") or []
    f = np.sort([md["frequency_hz"] for md in modes])
    bad = []
    if len(f) != want:
        bad.append("%d modes, expected %d of %d finite" % (len(f), want, len(lam)))
    elif not np.allclose(f, f_ref, rtol=1e-7, atol=1e-6):
        i = int(np.argmax(np.abs(f - f_ref)))
        bad.append("mode %d: %.9g Hz, dense LAPACK %.9g Hz" % (i + 1, f[i], f_ref[i]))
    worst = max([md["residual"] for md in modes] or [0.0])
    if worst > 1e-9:
        bad.append("residual %.2e" % worst)
    st = (r.get("missed_mode_check") or {}).get("status", "ok")
    if st != "ok":
        bad.append("missed-mode check: %s" % st)
    if bad:
        print("FAIL %s (asked %d): %s" % (report, k, "; ".join(bad)))
        return 1
    el = f_ref > 1e-3  # elastic: the rigid-body ones are checked against 1e-6 Hz absolute
    print("ok %s: %d modes (asked %d, %d finite), elastic max rel. error %.1e against dense "
          "LAPACK" % (report, len(f), k, len(lam),
                      np.max(np.abs(f - f_ref)[el] / f_ref[el]) if el.any() else 0.0))
    return 0


def damped(d, report, k):
    """A model without damping (R = 0): its damped modes are lambda = +-i omega, omega^2 the
    finite eigenvalues of (Z^T K Z, Z^T M Z); a rigid-body motion (omega^2 = 0, below
    1e-9 of the largest) is a double zero, one mode of multiplicity 2. The report's modes
    must be the min(k, physical) lowest: rigid-body ones first, each `multiplicity: 2`,
    then frequencies within rtol 1e-7."""
    lam = finite(d)
    zero = np.abs(lam) <= 1e-9 * np.abs(lam).max()
    f_el = np.sqrt(lam[~zero]) / (2 * np.pi)
    nrigid = int(zero.sum())
    want = min(k, nrigid + len(f_el))
    modes = yaml.safe_load(open(report)).get("modes") or []
    bad = []
    if len(modes) != want:
        bad.append("%d modes, expected %d (%d rigid-body double zeros, %d elastic)"
                   % (len(modes), want, nrigid, len(f_el)))
    rig = [md for md in modes if md["kind"] == "rigid-body"]
    el = np.sort([md["frequency_hz"] for md in modes if md["kind"] != "rigid-body"])
    if len(rig) != min(nrigid, want) or any(md.get("multiplicity") != 2 for md in rig):
        bad.append("rigid-body modes: %s, expected %d each of multiplicity 2"
                   % ([md.get("multiplicity", 1) for md in rig], min(nrigid, want)))
    ref = f_el[:max(want - nrigid, 0)]
    if len(el) != len(ref) or not np.allclose(el, ref, rtol=1e-7):
        bad.append("elastic %s Hz, dense LAPACK %s" % (el[:4], ref[:4]))
    if bad:
        print("FAIL %s (asked %d): %s" % (report, k, "; ".join(bad)))
        return 1
    print("ok %s: %d rigid-body double zeros once each, %d elastic modes as dense LAPACK "
          "(asked %d)" % (report, len(rig), len(el), k))
    return 0


def flutter(report):
    ev = np.linalg.eigvals(np.linalg.solve(FLUTTER_M, FLUTTER_K))
    r = yaml.safe_load(open(report))
    got = np.array([complex(*md["eigenvalue"]) for md in r["modes"]])
    sq = -(got ** 2)  # omega^2 of each damped mode (R = 0: lambda = i omega)
    bad = 0
    for e in ev:
        j = int(np.argmin(np.abs(sq - e)))
        if abs(sq[j] - e) > 1e-9 * abs(e):
            print("FAIL %s: no lambda with -lambda^2 = %s (nearest %s)" % (report, e, sq[j]))
            bad = 1
    if len(got) != 3:
        print("FAIL %s: %d modes, expected 3" % (report, len(got)))
        bad = 1
    if not bad:
        print("ok %s: -lambda^2 = %s as numpy.linalg.eigvals (rtol 1e-9)"
              % (report, ", ".join("%.6g%+.6gi" % (e.real, e.imag) for e in ev)))
    return bad


if __name__ == "__main__":
    a = sys.argv[1:]
    if a[0] == "gen":
        gen(a[1])
    elif a[0] == "count":
        print(len(finite(a[1])))
    elif a[0] == "modal":  # MTXDIR REPORT K, any number of them
        sys.exit(1 if sum(modal(a[i], a[i + 1], int(a[i + 2]))
                          for i in range(1, len(a) - 2, 3)) else 0)
    elif a[0] == "damped":
        sys.exit(damped(a[1], a[2], int(a[3])))
    elif a[0] == "flutter":
        sys.exit(flutter(a[1]))
    elif a[0] == "pair":
        sys.exit(pair(a[1], a[2]))
