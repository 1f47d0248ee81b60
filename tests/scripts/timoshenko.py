#!/usr/bin/python3
"""timoshenko.py: Timoshenko beams (shear and rotary inertia) against closed forms, one
deck of separate beams run on 1 and 2 ranks.

Steel circles (E 2e11 Pa, nu 0.3, rho 7850 kg/m^3, shear factor 0.9: `theory: timoshenko`
with the circle's default for the simply supported beams, `shear_factor: 0.9` for the
cantilevers), slenderness L/r = 5, 10, 50 (d = 4 L / (L/r)), 48 elements each. References, computed here:
  - simply supported: Timoshenko's frequency equation, for a = n pi / L the lower root of
    rho^2 I / (k G) w^4 - (rho A + rho I a^2 (1 + E / (k G))) w^2 + E I a^4 = 0;
  - cantilever: the transcendental equation det = 0 of the Timoshenko equations
    k G A (w'' - psi') + rho A w^2 w = 0, E I psi'' + k G A (w' - psi) + rho I w^2 psi = 0
    (clamped: w = psi = 0; free: psi' = 0, w' - psi = 0), the transfer matrix by mpmath's
    expm (30 digits) and the roots by scipy's brentq; checked first against the
    Euler-Bernoulli roots 1.8751041, 4.6940911 near the shear-rigid limit (k = 1e3, L/r = 50:
    just below them, by less than the rotary inertia's (r/L)^2 lambda^3 / 2);
  - the Euler-Bernoulli limit: a simply supported L/r = 10 beam with shear_factor 1e6
    against the same equation (Rayleigh's beam: shear rigid, with rotary inertia), and a
    `theory: euler_bernoulli` one (its section has shear_factor 0.9, which the theory
    overrides) against (n pi / L)^2 sqrt(E I / (rho A)), today's element.
Each beam is scaled (frequency ~ 1 / L at fixed L/r) to put its second mode at its own
frequency, 2030 + 117 i Hz. Each reference frequency must be matched by exactly two computed
modes of its beam (the circle's two planes; a mode belongs to the beam with the largest
share of its kinetic energy in the report) within 1e-3: 48 elements; this element's frequencies
converge as h^2 where shear matters (constant shear force per element), mesh error 5e-4 at
L/r = 5 (2.1e-3 on 24 elements, 2e-5 on 96: numpy with the same matrices). 1 and 2 ranks
agree to 1e-8.
usage: timoshenko.py MBMODAL OUTDIR"""
import os
import sys

import numpy as np
import mpmath
from scipy.optimize import brentq

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from testlib import Tally, modal_on_ranks  # noqa: E402

mpmath.mp.dps = 30

E, NU, RHO, KAPPA = 2.0e11, 0.3, 7850.0, 0.9
KEY_K = ", shear_factor: 0.9"
G = E / (2 * (1 + NU))
NE = 48
T = Tally()


def props(L, S):
    d = 4 * L / S
    return d, np.pi * d * d / 4, np.pi * d ** 4 / 64


def ss_ref(L, S, kappa, n):
    """rad/s of mode n, simply supported, Timoshenko's frequency equation"""
    _, A, I = props(L, S)
    a = n * np.pi / L
    c2 = RHO * RHO * I / (kappa * G)
    c1 = RHO * A + RHO * I * a * a * (1 + E / (kappa * G))
    c0 = E * I * a ** 4
    return np.sqrt((c1 - np.sqrt(c1 * c1 - 4 * c2 * c0)) / (2 * c2))


def cant_det(L, S, kappa, w):
    """the cantilever's frequency determinant at w [rad/s] (40 digits: the shear terms grow
    like exp(L sqrt(k G A / E I)), e^29 at L/r = 50)"""
    _, A, I = props(L, S)
    kga, ei = kappa * G * A, E * I
    # y = [w, w', psi, psi']: w'' = psi' - rho A w^2 / (k G A) w,
    # psi'' = -(k G A / E I) (w' - psi) - rho I w^2 / (E I) psi
    M = mpmath.matrix([[0, 1, 0, 0],
                       [-RHO * A * w * w / kga, 0, 0, 1],
                       [0, 0, 0, 1],
                       [0, -kga / ei, kga / ei - RHO * I * w * w / ei, 0]])
    Y = mpmath.expm(M * L)
    # clamped at 0: w = psi = 0, columns w'(0) = 1 and psi'(0) = 1; free at L
    r1 = [Y[3, 1], Y[3, 3]]                       # psi'(L) = 0 (moment)
    r2 = [Y[1, 1] - Y[2, 1], Y[1, 3] - Y[2, 3]]   # w'(L) - psi(L) = 0 (shear)
    return float(r1[0] * r2[1] - r1[1] * r2[0])


def cant_refs(L, S, kappa, count):
    """first `count` roots (rad/s) of the cantilever's frequency equation"""
    _, A, I = props(L, S)
    w0 = np.sqrt(E * I / (RHO * A)) / L ** 2
    grid = np.linspace(0.5, 30, 24) * w0
    vals = [cant_det(L, S, kappa, w) for w in grid]
    roots = []
    for i in range(len(grid) - 1):
        if np.sign(vals[i]) != np.sign(vals[i + 1]):
            roots.append(brentq(lambda w: cant_det(L, S, kappa, w), grid[i], grid[i + 1],
                                xtol=1e-12 * w0))
            if len(roots) == count:
                break
    return roots


def main():
    binary, out = sys.argv[1], os.path.join(sys.argv[2], "timoshenko")
    os.makedirs(out, exist_ok=True)
    # the cantilever equation in its shear-rigid limit gives the Euler-Bernoulli roots
    L, S = 0.5, 50.0
    _, A, I = props(L, S)
    lam = [np.sqrt(w * L * L / np.sqrt(E * I / (RHO * A))) for w in cant_refs(L, S, 1e3, 2)]
    for a, b in zip(lam, [1.8751041, 4.6940911]):   # rotary inertia: below by ~(r/L)^2 b^2 / 2
        T.check(0 < b - a < b ** 3 / S ** 2 / 2, "cantilever equation, shear rigid: %.7f, not"
                " just below Euler-Bernoulli's %.7f" % (a, b))
    # (name, L/r, boundary, section keys, theory key, reference kind)
    specs = [("ss5", 5, "ss", "", "timoshenko", "tim"), ("cant5", 5, "cant", KEY_K, "", "tim"),
             ("ss10", 10, "ss", "", "timoshenko", "tim"), ("cant10", 10, "cant", KEY_K, "", "tim"),
             ("ss50", 50, "ss", "", "timoshenko", "tim"), ("cant50", 50, "cant", KEY_K, "", "tim"),
             ("rayleigh10", 10, "ss", ", shear_factor: 1.0e6", "", "rayleigh"),
             ("eb10", 10, "ss", KEY_K, "euler_bernoulli", "eb")]
    deck = ["units: SI\nmaterials:\n  steel: {E: %r, nu: %r, rho: %r}\n" % (E, NU, RHO)]
    secs, beams, joints, refs = ["sections:\n"], ["beams:\n"], ["joints:\n"], []
    for i, (name, S, bc, key, theory, kind) in enumerate(specs):
        # at L = 1 m, then L scaled (frequency ~ 1 / L at one L/r) to put mode 2 at
        # 2030 + 117 i Hz: few modes below the highest reference, none two beams share
        if kind == "tim":
            w = [ss_ref(1.0, S, KAPPA, n) for n in (1, 2)] if bc == "ss" else cant_refs(1.0, S, KAPPA, 2)
        elif kind == "rayleigh":
            w = [ss_ref(1.0, S, 1e6, n) for n in (1, 2)]
        else:
            _, A, I = props(1.0, S)
            w = [(n * np.pi) ** 2 * np.sqrt(E * I / (RHO * A)) for n in (1, 2)]
        L = w[1] / (2 * np.pi) / (2030.0 + 117.0 * i)
        refs += [(name, n + 1, w[n] / L / (2 * np.pi)) for n in (0, 1)]
        secs.append("  %s: {shape: circle, diameter: %r%s}\n" % (name, props(L, S)[0], key))
        beams.append("  %s:\n    material: steel\n    section: %s\n    from: [0, %r, 0]\n"
                     "    to: [%r, %r, 0]\n    elements: %d\n%s"
                     % (name, name, 2.0 * i, L, 2.0 * i, NE,
                        "    theory: %s\n" % theory if theory else ""))
        if bc == "ss":
            joints.append("  %s_a: {type: lock, nodes: [ground, %s.start], dofs: [x, y, z, rx]}\n"
                          "  %s_b: {type: lock, nodes: [ground, %s.end], dofs: [y, z]}\n"
                          % (name, name, name, name))
        else:
            joints.append("  %s_a: {type: weld, nodes: [ground, %s.start]}\n" % (name, name))
    fmax = max(r[2] for r in refs)
    deck += secs + beams
    deck += joints
    deck.append("modal:\n  modes: 54\noutput: {vtk: false}\n")
    path = os.path.join(out, "timoshenko.yaml")
    with open(path, "w") as f:
        f.write("".join(deck))
    got, owner = modal_on_ranks(T, binary, path, out, "timoshenko")
    if not got:
        T.finish("timoshenko.py: %d checks, %d failed")
    f = got[0]
    T.check(f.max() > fmax, "the modes reach %g Hz, below the highest reference %g Hz" % (f.max(), fmax))
    if len(got) == 2:
        T.check(len(got[1]) == len(f) and np.max(np.abs(got[1] - f) / f) < 1e-8,
                "1 and 2 ranks differ")
    for name, n, ref in refs:
        mine = np.array([o == name for o in owner])   # this beam's modes only
        k = np.argmin(np.where(mine, np.abs(f - ref), np.inf))
        err = abs(f[k] - ref) / ref
        near = int(np.sum(mine & (np.abs(f - ref) < 1e-3 * ref)))
        print("%-11s mode %d: %.6f Hz, reference %.6f Hz, error %.1e" % (name, n, f[k], ref, err))
        T.check(err < 1e-3, "%s mode %d: %.8g Hz against %.8g Hz (%.1e)" % (name, n, f[k], ref, err))
        T.check(near == 2, "%s mode %d: %d of its modes within 1e-3, not the two planes' pair" % (name, n, near))
    T.finish("timoshenko.py: %d checks, %d failed")


main()
