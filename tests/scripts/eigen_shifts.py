#!/usr/bin/env python3
"""eigen_shifts.py: decks for eigen_shifts.sh and the checks of their reports.
  gen DIR              writes the decks (chains of springs and masses, K = M = I)
  check REPORT KIND... the report's modes against the closed form of KIND:
    eye               every mode lambda = 1 (K = M = I), kind oscillatory
    fixed N k m       fixed-fixed chain: lambda_j = 4 k/m sin^2(j pi / (2 (N + 1)))
    free N k m        free-free chain: lambda_j = 4 k/m sin^2(j pi / (2 N)), j = 0 rigid
  The reported modes must be the eigenvalues nearest the deck's shift (relative 1e-8), each
  with the kind of its closed-form eigenvalue (0: rigid-body, else oscillatory)."""
import math, sys, yaml

def chain(path, n, k, m, free):
    rows = []
    for i in range(n):
        d = 0.0
        if i > 0 or not free: d += k
        if i < n - 1 or not free: d += k
        rows.append((i, i, d))
        if i + 1 < n:
            rows.append((i, i + 1, -k)); rows.append((i + 1, i, -k))
    write(path + ".K.mtx", n, rows)
    write(path + ".M.mtx", n, [(i, i, m) for i in range(n)])

def write(path, n, rows):
    with open(path, "w") as f:
        f.write("%%MatrixMarket matrix coordinate real general\n")
        f.write("%% written by tests/scripts/eigen_shifts.py\n")
        f.write("%d %d %d\n" % (n, n, len(rows)))
        for i, j, v in rows: f.write("%d %d %.17g\n" % (i + 1, j + 1, v))

def gen(d):
    chain(d + "/fixed", 40, 1000.0, 2.0, False)
    chain(d + "/free", 30, 1000.0, 2.0, True)
    write(d + "/eye.K.mtx", 3, [(i, i, 1.0) for i in range(3)])
    write(d + "/eye.M.mtx", 3, [(i, i, 1.0) for i in range(3)])

def closed(kind, args):
    if kind == "eye": return [1.0, 1.0, 1.0]
    n, k, m = int(args[0]), float(args[1]), float(args[2])
    if kind == "fixed":
        return [4 * k / m * math.sin(j * math.pi / (2 * (n + 1))) ** 2 for j in range(1, n + 1)]
    return [4 * k / m * math.sin(j * math.pi / (2 * n)) ** 2 for j in range(n)]

def check(rep, kind, args):
    r = yaml.load(open(rep), Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    sigma = float(r["settings"]["shift"])
    lam = closed(kind, args)
    got = sorted(float(md["eigenvalue"]) for md in r["modes"])
    want = sorted(sorted(lam, key=lambda l: (abs(l - sigma), l))[:len(got)])
    scale = max(abs(l) for l in lam)
    bad = 0
    if r["convergence"]["converged"] is not True:
        print("FAIL %s: converged is not true" % rep); bad += 1
    for g, w in zip(got, want):
        if abs(g - w) > 1e-8 * max(abs(w), 1e-6 * scale):
            print("FAIL %s: eigenvalue %.12g, closed form %.12g" % (rep, g, w)); bad += 1
    for md in r["modes"]:
        l = float(md["eigenvalue"])
        rigid = min(lam, key=lambda x: abs(x - l)) == 0.0
        want_kind = "rigid-body" if rigid else "oscillatory"
        if md["kind"] != want_kind:
            print("FAIL %s: mode %d (lambda %.6g) is %s, should be %s"
                  % (rep, md["mode"], l, md["kind"], want_kind)); bad += 1
    if bad: sys.exit(1)
    print("ok %s: %d modes at shift %g match the closed form" % (rep, len(got), sigma))

if __name__ == "__main__":
    if sys.argv[1] == "gen": gen(sys.argv[2])
    else: check(sys.argv[2], sys.argv[3], sys.argv[4:])
