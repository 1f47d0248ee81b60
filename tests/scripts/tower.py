#!/usr/bin/python3
"""tower.py: checks decks/tower.yaml (a wind-turbine tower with its nacelle) against references
from outside mbmodal, and writes its modal reference.

The independent model (numpy, written here from textbook formulas, no mbmodal code): the
tower is a uniform clamped-free Euler-Bernoulli beam along z. For a straight vertical tower
with a point mass on its axis (diagonal inertia) the 3D problem splits exactly into
  - bending in x-z (fore-aft: dx with ry, tip inertia Iyy) and in y-z (side-side: dy with rx,
    tip inertia Ixx): cubic Hermite elements, K = EI/L^3 [12 6L -12 6L; ...], consistent mass
    m L/420 [156 22L 54 -13L; ...] (no rotary inertia of the section), and under the axial
    compression P(z) of the weight (nacelle M g plus the tower above z) the consistent
    geometric stiffness K_G = -int P(x) N'^T N' dx (Gauss, 3 points: exact for linear P);
  - axial (dz): EA/L [1 -1; -1 1], m L/6 [2 1; 1 2], tip mass M;
  - torsion (rz): GJ/L [1 -1; -1 1], rho Ip L/6 [2 1; 1 2], tip inertia Izz.
Closed forms (gravity off):
  - a clamped beam with a tip mass M and tip rotary inertia J: with b = (w^2 m / EI)^(1/4) L,
    mu = M / (m L), j = J / (m L^3),
    1 + cos b cosh b + mu b (cos b sinh b - sin b cosh b) - j b^3 (cosh b sin b + sinh b cos b)
      + mu j b^4 (1 - cos b cosh b) = 0   (Blevins, Formulas for natural frequency, table 8-1;
    Laura, Pombo and Susemihl 1974);
  - the tip flexibility of a cantilever under a tip force: L^3 / (3 EI).
Closed forms (gravity on): Dunkerley's lower bound 1 / lambda >= 1 / lambda_tip + 1 / lambda_own
of the buckling load factor, lambda_tip = pi^2 EI / (4 L^2) / (M g) (Euler, a free top) and
lambda_own = 7.8373 EI / L^2 / (q L) (Greenhill, a heavy column; Timoshenko and Gere).

Usage:
  tower.py check OUTDIR_FULL OUTDIR_NOGRAVITY   # the run of the deck, and of the deck with
                                                  # gravity 0 (no statics, no buckling)
  tower.py ref > decks/tower.ref.modal.yaml
"""
import math
import sys

import numpy as np
import scipy.linalg as sla
import scipy.optimize as so
import yaml

# the deck's data (decks/tower.yaml), read from the deck itself below
G_ACC = 9.81


def deck_data(path):
    with open(path) as f:
        d = yaml.load(f, Loader=yaml.CSafeLoader)
    mat = d["materials"]["steel"]
    sec = d["sections"]["shell"]
    beam = d["beams"]["tower"]
    rna = d["masses"]["rna"]
    E, nu, rho = float(mat["E"]), float(mat["nu"]), float(mat["rho"])
    do, t = float(sec["outer_diameter"]), float(sec["wall"])
    di = do - 2 * t
    A = math.pi * (do ** 2 - di ** 2) / 4
    I = math.pi * (do ** 4 - di ** 4) / 64
    return dict(E=E, G=E / (2 * (1 + nu)), rho=rho, A=A, I=I, J=2 * I,
                H=float(beam["to"][2]) - float(beam["from"][2]), n=int(beam["elements"]),
                M=float(rna["mass"]), Ixx=float(rna["inertia"][0]), Iyy=float(rna["inertia"][1]),
                Izz=float(rna["inertia"][2]))


def bending(p, n, Jtip, g):
    """K, K_G (for gravity g), M of one bending plane, clamped base removed: DOFs (w, theta)."""
    L = p["H"] / n
    EI, m = p["E"] * p["I"], p["rho"] * p["A"]
    N = 2 * (n + 1)
    K, KG, M = np.zeros((N, N)), np.zeros((N, N)), np.zeros((N, N))
    ke = EI / L ** 3 * np.array([[12, 6 * L, -12, 6 * L], [6 * L, 4 * L * L, -6 * L, 2 * L * L],
                                 [-12, -6 * L, 12, -6 * L], [6 * L, 2 * L * L, -6 * L, 4 * L * L]])
    me = m * L / 420 * np.array([[156, 22 * L, 54, -13 * L], [22 * L, 4 * L * L, 13 * L, -3 * L * L],
                                 [54, 13 * L, 156, -22 * L], [-13 * L, -3 * L * L, -22 * L, 4 * L * L]])
    gx, gw = np.polynomial.legendre.leggauss(3)
    for e in range(n):
        z0 = e * L
        kg = np.zeros((4, 4))
        for xi, wq in zip(gx, gw):
            s = (xi + 1) / 2                      # 0..1 along the element
            P = g * (p["M"] + m * (p["H"] - (z0 + s * L)))   # compression at that point
            # derivatives d/dx of the Hermite shapes at s
            dN = np.array([(-6 * s + 6 * s * s) / L, 1 - 4 * s + 3 * s * s,
                           (6 * s - 6 * s * s) / L, -2 * s + 3 * s * s])
            kg -= P * np.outer(dN, dN) * wq * L / 2
        idx = slice(2 * e, 2 * e + 4)
        K[idx, idx] += ke
        KG[idx, idx] += kg
        M[idx, idx] += me
    M[N - 2, N - 2] += p["M"]
    M[N - 1, N - 1] += Jtip
    keep = slice(2, N)
    return K[keep, keep], KG[keep, keep], M[keep, keep]


def rod(n, L, k, mdens, tip):
    """K, M of a clamped-free two-node rod chain (axial or torsion), base removed."""
    h = L / n
    K, M = np.zeros((n + 1, n + 1)), np.zeros((n + 1, n + 1))
    for e in range(n):
        K[e:e + 2, e:e + 2] += k / h * np.array([[1, -1], [-1, 1]])
        M[e:e + 2, e:e + 2] += mdens * h / 6 * np.array([[2, 1], [1, 2]])
    M[n, n] += tip
    return K[1:, 1:], M[1:, 1:]


def model_frequencies(p, g):
    """All frequencies [Hz] of the independent model, sorted, each with its direction."""
    out = []
    for Jtip, name in ((p["Iyy"], "fore-aft"), (p["Ixx"], "side-side")):
        K, KG, M = bending(p, p["n"], Jtip, g)
        out += [(math.sqrt(w2) / (2 * math.pi), name) for w2 in sla.eigh(K + KG, M, eigvals_only=True)]
    K, M = rod(p["n"], p["H"], p["E"] * p["A"], p["rho"] * p["A"], p["M"])
    out += [(math.sqrt(w2) / (2 * math.pi), "axial") for w2 in sla.eigh(K, M, eigvals_only=True)]
    K, M = rod(p["n"], p["H"], p["G"] * p["J"], p["rho"] * 2 * p["I"], p["Izz"])
    out += [(math.sqrt(w2) / (2 * math.pi), "torsion") for w2 in sla.eigh(K, M, eigvals_only=True)]
    return sorted(out)


def buckling_factor(p, n):
    """The lowest load factor of K v = lambda (-K_G) v (fore-aft plane), n elements."""
    K, KG, _ = bending(p, n, 0.0, G_ACC)
    lam = sla.eigh(K, -KG, eigvals_only=True)
    return min(l for l in lam if l > 0)


def tip_flexibility(p, g):
    """Tip dx under a unit tip force x of the independent model (about the loaded state)."""
    K, KG, _ = bending(p, p["n"], p["Iyy"], g)
    f = np.zeros(K.shape[0])
    f[-2] = 1.0
    return np.linalg.solve(K + KG, f)[-2]


def closed_form_first(p, J):
    """The first root of the tip-mass-and-inertia frequency equation, in Hz."""
    m, L, EI = p["rho"] * p["A"], p["H"], p["E"] * p["I"]
    mu, j = p["M"] / (m * L), J / (m * L ** 3)

    def f(b):
        c, s, ch, sh = math.cos(b), math.sin(b), math.cosh(b), math.sinh(b)
        return (1 + c * ch + mu * b * (c * sh - s * ch) - j * b ** 3 * (ch * s + sh * c)
                + mu * j * b ** 4 * (1 - c * ch)) / ch
    grid = np.linspace(0.05, 4.0, 4000)
    vals = [f(b) for b in grid]
    for k in range(len(grid) - 1):
        if vals[k] * vals[k + 1] < 0:
            b = so.brentq(f, grid[k], grid[k + 1], xtol=1e-15)
            return b * b / L ** 2 * math.sqrt(EI / m) / (2 * math.pi)
    raise RuntimeError("no root")


def load(path):
    with open(path) as f:
        return yaml.load(f, Loader=yaml.CSafeLoader)


fails = 0


def check(what, ok, detail):
    global fails
    print("%s: %s (%s)" % ("ok" if ok else "FAIL", what, detail))
    if not ok:
        fails += 1


def rel(a, b):
    return abs(a - b) / abs(b)


def static_limit(frf):
    """The static limit of |H_acc| / w^2 [m/N] from the two lowest frequencies of the report:
    below the first mode |H_acc| / w^2 = F0 + F2 w^2 + O(w^4), so Richardson's
    F0 = (h1 w2^2 - h2 w1^2) / (w2^2 - w1^2) with h = |H_acc| / w^2; and the first phase."""
    pair = frf["pairs"][0]
    w1, w2 = (2 * math.pi * float(frf["frequency_hz"][k]) for k in (0, 1))
    h1, h2 = (float(pair["magnitude"][k]) / w ** 2 for k, w in ((0, w1), (1, w2)))
    return (h1 * w2 ** 2 - h2 * w1 ** 2) / (w2 ** 2 - w1 ** 2), float(pair["phase_deg"][0])


def do_check(deck, full, nograv):
    p = deck_data(deck)
    # 1. modes about the loaded state against the independent model (same mesh)
    modal = load(full + "/tower.modal.yaml")
    got = [float(m["frequency_hz"]) for m in modal["modes"]]
    ref = model_frequencies(p, G_ACC)[:len(got)]
    worst = max(rel(a, b[0]) for a, b in zip(got, ref))
    check("modes under gravity = numpy model with K_G (1e-4: chord K_G)", worst < 1e-4,
          "worst rel %.1e; first: %.6f Hz %s, %.6f Hz %s" % (worst, got[0], ref[0][1], got[1], ref[1][1]))
    # dominant directions: side-side (dy) first, fore-aft (dx) second
    dom = [m.get("participation", {}).get("dominant", {}).get("direction") for m in modal["modes"][:3]]
    check("participation: mode 1 side-side (dy), mode 2 fore-aft (dx), mode 3 torsion (rz)",
          dom == ["dy", "dx", "rz"], "dominant %s" % dom)
    # 2. buckling under gravity and the nacelle's weight
    buck = load(full + "/tower.buckling.yaml")
    lam = float(buck["load_factors"][0])
    lam_ref = buckling_factor(p, 400)
    check("buckling load factor = numpy K_G, 400 elements (5e-4)", rel(lam, lam_ref) < 5e-4,
          "%.6f vs %.6f, rel %.1e" % (lam, lam_ref, rel(lam, lam_ref)))
    EI, L = p["E"] * p["I"], p["H"]
    lam_tip = math.pi ** 2 * EI / (4 * L * L) / (p["M"] * G_ACC)         # Euler, tip load
    lam_own = 7.8373 * EI / L ** 2 / (p["rho"] * p["A"] * L * G_ACC)     # Greenhill, own weight
    dunk = 1 / (1 / lam_tip + 1 / lam_own)
    check("buckling load factor within 2 % above Dunkerley's lower bound", dunk <= lam <= 1.02 * dunk,
          "1 / (1 / %.3f + 1 / %.3f) = %.3f" % (lam_tip, lam_own, dunk))
    # 3. FRF static limit about the loaded state: the model's flexibility (K + K_G)^-1
    flex, phase = static_limit(load(full + "/tower.frf.yaml"))
    fref = tip_flexibility(p, G_ACC)
    check("FRF static limit under gravity = numpy (K + K_G)^-1 (2e-4: chord K_G), phase 180",
          rel(flex, fref) < 2e-4 and abs(abs(phase) - 180) < 0.1,
          "%.6e vs %.6e m/N, rel %.1e, phase %.3f deg" % (flex, fref, rel(flex, fref), phase))
    # 4. gravity off: closed forms
    modal0 = load(nograv + "/tower.modal.yaml")
    fa = [float(m["frequency_hz"]) for m in modal0["modes"]
          if m.get("participation", {}).get("dominant", {}).get("direction") == "dx"][0]
    cf = closed_form_first(p, p["Iyy"])
    check("gravity off: first fore-aft frequency = closed form, tip mass and inertia (1e-6)",
          rel(fa, cf) < 1e-6, "%.9f vs %.9f Hz, rel %.1e" % (fa, cf, rel(fa, cf)))
    flex0, _ = static_limit(load(nograv + "/tower.frf.yaml"))
    cf0 = p["H"] ** 3 / (3 * p["E"] * p["I"])
    check("gravity off: FRF static limit = L^3 / (3 EI) (1e-6)", rel(flex0, cf0) < 1e-6,
          "%.6e vs %.6e m/N, rel %.1e" % (flex0, cf0, rel(flex0, cf0)))
    print("tower: %d failure(s); f1 %.4f Hz, buckling %.3f, flexibility %.4e m/N"
          % (fails, got[0], lam, flex))
    return 1 if fails else 0


def do_ref(deck):
    p = deck_data(deck)
    with open(deck) as f:
        nmodes = yaml.load(f, Loader=yaml.CSafeLoader)["modal"]["modes"]
    fr = model_frequencies(p, G_ACC)[:nmodes]
    print("# decks/tower.ref.modal.yaml: reference for decks/tower.yaml (modal stage), written by")
    print("# tests/scripts/tower.py ref: the independent numpy model of tower.py (Euler-Bernoulli")
    print("# bending in two planes with the consistent geometric stiffness of the weight, axial and")
    print("# torsion rods, the nacelle's mass and inertia), on the deck's mesh. mbmodal's beam has the")
    print("# geometric stiffness of its chord, not the cubic one (5e-5 here): rtol 1e-4.")
    print("# compare: --rtol 1e-04")
    print("# rigid-body modes: 0")
    print("format: mbmodal-report\nformat_version: 1\nstage: modal\nrtol: 1e-04\nmodes:")
    for f, name in fr:
        print("  - frequency_hz: %.17g   # %s\n    kind: oscillatory" % (f, name))


if __name__ == "__main__":
    deck = "decks/tower.yaml"
    if sys.argv[1] == "check":
        sys.exit(do_check(deck, sys.argv[2], sys.argv[3]))
    do_ref(deck)
