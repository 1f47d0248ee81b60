#!/usr/bin/python3
"""participation.py: mbmodal's participation factors and effective masses against outside
references (tests/scripts/participation.sh runs the decks):

  cantilever REP1 REP2 MATS   a clamped beam along x (L = 1 m, 40 elements, weak bending
                              in z): the dz effective masses of its first three bending
                              modes against the closed form (the Euler-Bernoulli shapes
                              of 1 + cos bL cosh bL = 0 integrated here: 0.6131, 0.1883,
                              0.0647 of the beam's mass), and every mode's effective masses
                              against numpy on the exported K, M, Cq (modes of the
                              constrained pencil on null(Cq), rigid fields about the centre
                              of mass, the beam's nodes evenly spaced)
  free REP1 REP2|- PX PY PZ   the free body of tests/models/free_body.yaml with its 6 rigid
                              modes: 100 % of the mass in every direction, the totals
                              against m and R J R^T + m (|d|^2 - d_k^2) about (PX, PY, PZ)
                              (the body's data by hand); PX = com: about its centre
  springs REP1 REP2 MATS      tests/models/mass_spring.yaml with all 24 modes: each
                              mode's effective masses against numpy (scipy.linalg.eigh on
                              the exported K, M), the sums over all modes equal the total
                              mass and the inertia about the centre of mass computed here
                              from the deck's bodies (parallel axes)
REP1, REP2: the modal reports of the 1-rank and 2-rank runs (they must agree, 1e-9 of the
totals; for the free body's rigid modes, any basis of them, the cumulative shares).
Prints one line per check and a summary; exit 0 when all pass.
"""
import csv
import math
import os
import sys

import numpy as np
import scipy.io as sio
import scipy.linalg as sla
import yaml

fails = 0


def check(what, ok, detail=""):
    global fails
    print("%s %s%s" % ("ok  " if ok else "FAIL", what, (": " + detail) if detail else ""))
    if not ok:
        fails += 1


def load(path):
    with open(path) as f:
        return yaml.safe_load(f)


def per_mode(rep, key):
    return np.array([m["participation"][key] for m in rep["modes"]], dtype=float)


def same_ranks(r1, r2):
    """The 2-rank report's participation equals the 1-rank one's (1e-9 of the totals)."""
    if r2 is None:
        return
    tot = np.array(r1["participation"]["total_mass"], dtype=float)
    d = np.abs(per_mode(r1, "effective_mass") - per_mode(r2, "effective_mass")).max(axis=0)
    check("1 and 2 ranks agree", bool(np.all(d <= 1e-9 * tot)), "max diff / total %.1e"
          % (d / tot).max())


def rigid_fields(pos, p):
    """6 columns: translations e_k, rotations (e_k x (x - p); e_k), node by node."""
    n = 6 * len(pos)
    R = np.zeros((n, 6))
    for i, x in enumerate(pos):
        d = np.asarray(x, dtype=float) - p
        for k in range(3):
            e = np.zeros(3)
            e[k] = 1.0
            R[6 * i + k, k] = 1.0
            R[6 * i:6 * i + 3, 3 + k] = np.cross(e, d)
            R[6 * i + 3 + k, 3 + k] = 1.0
    return R


def numpy_modes(mats, constrained):
    K = sio.mmread(os.path.join(mats, "K.mtx")).toarray()
    M = sio.mmread(os.path.join(mats, "M.mtx")).toarray()
    Z = sla.null_space(sio.mmread(os.path.join(mats, "Cq.mtx")).toarray()) if constrained \
        else np.eye(K.shape[0])
    w, Y = sla.eigh(Z.T @ K @ Z, Z.T @ M @ Z)
    return M, w, Z @ Y     # mass-normalized shapes, ascending


def node_names(mats):
    with open(os.path.join(mats, "dofs.csv")) as f:
        rows = list(csv.DictReader(f))
    return [r["node"] for r in rows[::6]]


def numpy_meff(M, Phi, R):
    G = Phi.T @ M @ R                  # phi^T M r_k (phi^T M phi = 1)
    return G ** 2, np.diag(R.T @ M @ R)


def compare_modes(rep, M, Phi, R, nmodes, what):
    meff, tot = numpy_meff(M, Phi[:, :nmodes], R)
    got = per_mode(rep, "effective_mass")[:nmodes]
    d = np.abs(got - meff).max(axis=0)
    check("%s: every mode's effective masses = numpy's" % what, bool(np.all(d <= 1e-7 * tot)),
          "max diff / total %.1e" % (d / tot).max())
    t = np.array(rep["participation"]["total_mass"], dtype=float)
    check("%s: totals r^T M r = numpy's" % what, bool(np.allclose(t, tot, rtol=1e-12, atol=0)))
    return meff, tot


def cantilever_closed_form(n):
    """(int phi)^2 / (L int phi^2) of the first n clamped-free Euler-Bernoulli modes."""
    out = []
    for k in range(n):
        lo, hi = (k + 0.5) * math.pi - 0.9, (k + 0.5) * math.pi + 0.9
        if k == 0:
            lo, hi = 1.0, 2.5
        f = lambda b: 1.0 + math.cos(b) * math.cosh(b)
        for _ in range(200):
            mid = 0.5 * (lo + hi)
            if (f(lo) < 0) == (f(mid) < 0):
                lo = mid
            else:
                hi = mid
        b = 0.5 * (lo + hi)
        s = (math.cosh(b) + math.cos(b)) / (math.sinh(b) + math.sin(b))
        N = 20000
        xs = np.linspace(0.0, 1.0, N + 1)
        phi = np.cosh(b * xs) - np.cos(b * xs) - s * (np.sinh(b * xs) - np.sin(b * xs))
        wts = np.full(N + 1, 2.0)
        wts[1:-1:2] = 4.0
        wts[0] = wts[-1] = 1.0
        h = 1.0 / N / 3.0
        out.append((h * (wts * phi).sum()) ** 2 / (h * (wts * phi * phi).sum()))
    return out


def cantilever(rep1, rep2, mats):
    r1, r2 = load(rep1), load(rep2)
    check("format_minor 3 in a report with participation", r1.get("format_minor") == 3)
    same_ranks(r1, r2)
    frac = per_mode(r1, "fraction")
    tz = [f[2] for f in frac if f[2] > 0.01]
    ref = cantilever_closed_form(3)
    print("     closed form %s, mbmodal %s" % (", ".join("%.9f" % v for v in ref),
                                               ", ".join("%.9f" % v for v in tz[:3])))
    check("cantilever: dz fractions of the first 3 bending modes = closed form (1e-6)",
          len(tz) >= 3 and all(abs(a - b) <= 1e-6 for a, b in zip(tz, ref)))
    names = node_names(mats)
    pos = [(int(nm.split(".")[1]) / 40.0, 0.0, 0.0) for nm in names]
    M, w, Phi = numpy_modes(mats, True)
    com = np.array(r1["participation"]["centre_of_mass"], dtype=float)
    check("cantilever: centre of mass (0.5, 0, 0)", bool(np.allclose(com, [0.5, 0, 0],
                                                                     atol=1e-12)))
    meff, tot = compare_modes(r1, M, Phi, rigid_fields(pos, np.array([0.5, 0, 0])),
                              len(r1["modes"]), "cantilever")
    allsum = (numpy_meff(M, Phi, rigid_fields(pos, np.array([0.5, 0, 0])))[0]).sum(axis=0)
    print("     numpy, all %d modes: sum m_eff / total = %s (the clamped node's share is "
          "held by the support)" % (Phi.shape[1], ", ".join("%.4f" % v for v in allsum / tot)))
    check("cantilever: beam mass 7800 x 0.06 x 0.01 x 1 = 4.68 kg",
          abs(r1["participation"]["total_mass"][0] - 4.68) <= 1e-12 * 4.68)


def rot_axis_angle(axis, deg):
    a = np.asarray(axis, dtype=float)
    a = a / np.linalg.norm(a)
    t = math.radians(deg)
    A = np.array([[0, -a[2], a[1]], [a[2], 0, -a[0]], [-a[1], a[0], 0]])
    return np.eye(3) + math.sin(t) * A + (1 - math.cos(t)) * A @ A


def rot_xy(x, y):
    x = np.asarray(x, dtype=float)
    x = x / np.linalg.norm(x)
    z = np.cross(x, np.asarray(y, dtype=float))
    z = z / np.linalg.norm(z)
    return np.column_stack([x, np.cross(z, x), z])


def inertia_totals(bodies, p):
    """[m, m, m, I_xx, I_yy, I_zz] about p: sum of R J R^T + m (|d|^2 I - d d^T)."""
    m = sum(b[0] for b in bodies)
    I = np.zeros((3, 3))
    for mass, J, x, R in bodies:
        d = np.asarray(x, dtype=float) - p
        I += R @ np.diag(J) @ R.T + mass * (d @ d * np.eye(3) - np.outer(d, d))
    return np.array([m, m, m, I[0, 0], I[1, 1], I[2, 2]])


def free(rep1, rep2, point):
    r1 = load(rep1)
    if rep2 != "-":   # a basis of the rigid modes is any: the ranks agree on the sums
        c1, c2 = per_mode(r1, "cumulative")[-1], per_mode(load(rep2), "cumulative")[-1]
        check("1 and 2 ranks agree on the cumulative shares", bool(np.allclose(c1, c2, rtol=0,
                                                                           atol=1e-12)))
    body = [(3.0, [0.02, 0.03, 0.04], [0.2, 0.1, 0.05], rot_axis_angle([1, 1, 1], 25))]
    p = np.array([0.2, 0.1, 0.05]) if point is None else np.array(point)
    part = r1["participation"]
    check("free body: reference %s" % part["reference"],
          part["reference"] == ("centre_of_mass" if point is None else "reference_point")
          and np.allclose(part["reference_point"], p, atol=1e-15, rtol=0))
    ref = inertia_totals(body, p)
    t = np.array(part["total_mass"], dtype=float)
    check("free body: totals = m and R J R^T + m (|d|^2 - d_k^2)",
          bool(np.allclose(t, ref, rtol=1e-12, atol=0)), "%s vs %s" % (t, ref))
    cum = per_mode(r1, "cumulative")[-1]
    check("free body: its 6 rigid modes hold 100 %% in every direction (%s)"
          % ", ".join("%.12f" % v for v in cum), bool(np.all(np.abs(cum - 1.0) <= 1e-12)))
    check("free body: nothing below 90 %", part["below_90_percent"] == [])


def springs(rep1, rep2, mats):
    r1, r2 = load(rep1), load(rep2)
    same_ranks(r1, r2)
    bodies = {"b1": (2.0, [0.02, 0.025, 0.03], [0, 0, 0], np.eye(3)),
              "b2": (1.5, [0.01, 0.015, 0.02], [0.5, 0.1, 0], rot_axis_angle([0, 1, 0], 40)),
              "b3": (3.0, [0.05, 0.04, 0.03], [1.0, -0.1, 0.2], np.eye(3)),
              "b4": (1.0, [0.006, 0.008, 0.01], [1.4, 0.3, 0.1], rot_xy([1, 1, 0], [0, 0, 1]))}
    m = sum(b[0] for b in bodies.values())
    com = sum(b[0] * np.array(b[2], dtype=float) for b in bodies.values()) / m
    check("springs: centre of mass = sum m x / m",
          bool(np.allclose(r1["participation"]["centre_of_mass"], com, rtol=0, atol=1e-14)))
    names = node_names(mats)
    pos = [bodies[nm][2] for nm in names]
    M, w, Phi = numpy_modes(mats, False)
    check("springs: all %d modes found" % Phi.shape[1], len(r1["modes"]) == Phi.shape[1])
    meff, tot = compare_modes(r1, M, Phi, rigid_fields(pos, com), Phi.shape[1], "springs")
    ref = inertia_totals(list(bodies.values()), com)
    t = np.array(r1["participation"]["total_mass"], dtype=float)
    check("springs: totals = the deck's mass and inertia about the centre of mass",
          bool(np.allclose(t, ref, rtol=1e-12, atol=0)), "%s vs %s" % (t, ref))
    s = np.array(r1["participation"]["effective_mass_sum"], dtype=float)
    print("     sum over all modes / total: %s" % ", ".join("%.12f" % v for v in s / ref))
    check("springs: the sum over all modes equals the mass (1e-10)",
          bool(np.all(np.abs(s / ref - 1.0) <= 1e-10)))


def main():
    what = sys.argv[1]
    if what == "cantilever":
        cantilever(sys.argv[2], sys.argv[3], sys.argv[4])
    elif what == "free":
        point = None if sys.argv[4] == "com" else [float(v) for v in sys.argv[4:7]]
        free(sys.argv[2], sys.argv[3], point)
    elif what == "springs":
        springs(sys.argv[2], sys.argv[3], sys.argv[4])
    else:
        print("usage: participation.py cantilever|free|springs ...")
        return 2
    print("participation.py %s: %s" % (what, "all ok" if fails == 0 else "%d FAILED" % fails))
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
