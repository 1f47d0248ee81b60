#!/usr/bin/python3
"""taper.py: stepped and tapered cantilevers (a beam's `section` as a list, one entry per
segment, a pair tapering linearly), one deck on 1 and 2 ranks, against an independent
numpy model.

Reference model (here): planar Euler-Bernoulli cantilever, cubic Hermite elements with
E I(x) and rho A(x) integrated exactly (5-point Gauss), 50 elements, numpy/scipy eigh
(its frequencies agree with 100 elements' to 1e-6; finer meshes lose digits to the
conditioning of K, about 1e-5 at 200 elements).
It is checked first against Kirchhoff's wedge (constant width, depth falling linearly to
zero at the free end): omega_1 = 5.315 sqrt(E I0 / (rho A0 L^4)) (Timoshenko, Young and
Weaver, Vibration Problems in Engineering, the tapered cantilever; 5.3151 to more digits),
to 1e-3 with the depth going to 1e-4 of the root's.
Decks (steel, E 2e11 Pa, rho 7850 kg/m^3, L = 1 m, clamped at x = 0):
  - taper: a rectangle of width y = 0.05 m, depth z from 0.1 m to 0.04 m
    (section: [[root, tip]]), 40 elements, the midpoint rule;
  - stepped: a two-segment polyline (0.5 m each) of circles 0.06 m then 0.03 m
    (section: [big, small]), 20 elements per segment;
first two frequencies of each bending plane within 1e-3 (the midpoint rule's error on 40
elements is 2e-4 .. 4.4e-4 here; the stepped beam's elements are exact, 1e-7), each
matched by exactly one computed mode of its beam (the beam with the largest share of the
mode's kinetic energy in the report; the stepped circle: two, its planes), 1 and 2 ranks
equal to 1e-8.
usage: taper.py MBMODAL OUTDIR"""
import os
import sys

import numpy as np
from scipy.linalg import eigh

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from testlib import Tally, modal_on_ranks  # noqa: E402

T = Tally()
E, RHO = 2.0e11, 7850.0


def cantilever(L, EI, rhoA, ne=50, count=2):
    """first `count` frequencies [Hz] of a planar cantilever with EI(x), rhoA(x)"""
    n = 2 * (ne + 1)
    K, M = np.zeros((n, n)), np.zeros((n, n))
    xg, wg = np.polynomial.legendre.leggauss(5)
    h = L / ne
    for e in range(ne):
        k, m = np.zeros((4, 4)), np.zeros((4, 4))
        for xi, w in zip((xg + 1) / 2, wg / 2):
            x = (e + xi) * h
            N = np.array([1 - 3 * xi ** 2 + 2 * xi ** 3, h * (xi - 2 * xi ** 2 + xi ** 3),
                          3 * xi ** 2 - 2 * xi ** 3, h * (-xi ** 2 + xi ** 3)])
            B = np.array([-6 + 12 * xi, h * (-4 + 6 * xi), 6 - 12 * xi, h * (-2 + 6 * xi)]) / h ** 2
            k += w * h * EI(x) * np.outer(B, B)
            m += w * h * rhoA(x) * np.outer(N, N)
        K[2 * e:2 * e + 4, 2 * e:2 * e + 4] += k
        M[2 * e:2 * e + 4, 2 * e:2 * e + 4] += m
    w2 = eigh(K[2:, 2:], M[2:, 2:], eigvals_only=True, subset_by_index=[0, count - 1])
    return list(np.sqrt(w2) / (2 * np.pi))


def main():
    binary, out = sys.argv[1], os.path.join(sys.argv[2], "taper")
    os.makedirs(out, exist_ok=True)
    # the reference model against Kirchhoff's wedge
    b, h0, L = 0.05, 0.1, 1.0
    wedge = cantilever(L, lambda x: E * b * (h0 * (1 - (1 - 1e-4) * x)) ** 3 / 12,
                       lambda x: RHO * b * h0 * (1 - (1 - 1e-4) * x), count=1)[0]
    coef = 2 * np.pi * wedge * L * L / np.sqrt(E * b * h0 ** 3 / 12 / (RHO * b * h0))
    T.check(abs(coef - 5.315) < 5.3e-3, "the wedge's coefficient %.5f, not Kirchhoff's 5.315" % coef)
    print("numpy model, wedge: %.5f (Kirchhoff 5.315)" % coef)
    refs = []
    # taper: depth z(x) = 0.1 - 0.06 x, width 0.05
    z = lambda x: 0.1 - 0.06 * x
    for plane, EI in (("x-z", lambda x: E * b * z(x) ** 3 / 12), ("x-y", lambda x: E * z(x) * b ** 3 / 12)):
        refs += [("taper " + plane, i + 1, f, 1) for i, f in
                 enumerate(cantilever(L, EI, lambda x: RHO * b * z(x)))]
    d = lambda x: 0.06 if x < 0.5 else 0.03
    refs += [("stepped", i + 1, f, 2) for i, f in enumerate(cantilever(
        L, lambda x: E * np.pi * d(x) ** 4 / 64, lambda x: RHO * np.pi * d(x) ** 2 / 4))]
    fine = cantilever(L, lambda x: E * b * z(x) ** 3 / 12, lambda x: RHO * b * z(x), ne=100)
    T.check(max(abs(a - c) / c for a, c in zip(fine, [r[2] for r in refs[:2]])) < 1e-6,
            "the numpy model on 50 and 100 elements: %s, %s" % (fine, refs[:2]))
    deck = """units: SI
materials:
  steel: {E: 2.0e11, nu: 0.3, rho: 7850.0}
sections:
  root: {shape: rectangle, y: 0.05, z: 0.1}
  tip: {shape: rectangle, y: 0.05, z: 0.04}
  big: {shape: circle, diameter: 0.06}
  small: {shape: circle, diameter: 0.03}
beams:
  taper:
    material: steel
    section: [[root, tip]]
    from: [0, 0, 0]
    to: [1, 0, 0]
    elements: 40
    y_axis: [0, 1, 0]
  stepped:
    material: steel
    section: [big, small]
    points: [[0, 2, 0], [0.5, 2, 0], [1, 2, 0]]
    elements: 20
joints:
  c1: {type: weld, nodes: [ground, taper.start]}
  c2: {type: weld, nodes: [ground, stepped.start]}
modal:
  modes: 12
output: {vtk: false}
"""
    path = os.path.join(out, "taper.yaml")
    with open(path, "w") as f:
        f.write(deck)
    got, owner = modal_on_ranks(T, binary, path, out, "taper")
    if not got:
        T.finish("taper.py: %d checks, %d failed")
    f = got[0]
    if len(got) == 2:
        T.check(len(got[1]) == len(f) and np.max(np.abs(got[1] - f) / f) < 1e-8, "1 and 2 ranks differ")
    T.check(f.max() > max(r[2] for r in refs), "12 modes stop at %g Hz" % f.max())
    for name, n, ref, count in refs:
        mine = np.array([o == name.split()[0] for o in owner])   # this beam's modes only
        k = np.argmin(np.where(mine, np.abs(f - ref), np.inf))
        err = abs(f[k] - ref) / ref
        near = int(np.sum(mine & (np.abs(f - ref) < 1e-3 * ref)))
        print("%-11s mode %d: %.6f Hz, numpy %.6f Hz, error %.1e" % (name, n, f[k], ref, err))
        T.check(err < 1e-3, "%s mode %d: %.8g Hz against %.8g Hz (%.1e)" % (name, n, f[k], ref, err))
        T.check(near == count, "%s mode %d: %d modes within 1e-3, wanted %d" % (name, n, near, count))
    T.finish("taper.py: %d checks, %d failed")


main()
