#!/usr/bin/python3
"""buckling.py: the linear buckling stage (issue 24 part 2) against closed forms, on 1 and 2
MPI ranks, in one deck of five unconnected structures (one run per rank count).

Euler columns, steel E = 2e11 Pa, L = 1 m along z, Iy = 1e-6 m^4, Iz = 1.5 Iy (so that each
column's two lowest load factors are its first mode about each axis), 200 elements, a
compressive end force P = 1000 N: P_cr = pi^2 E I / (K L)^2 (Timoshenko & Gere, Theory of
Elastic Stability, 2.1-2.4), load factor = P_cr / P, with
    K = 2 (clamped, free), 1 (pinned, pinned), 0.5 (clamped, clamped) and
    K = pi / x1 = 0.699155... (clamped, pinned), x1 = 4.4934... the first positive root of
    tan x = x (computed here with scipy's brentq).
A portal frame with hinged bases (h = L = 1 m, equal sections, in-plane I = 1e-6 m^4, out of
plane 20 I, 80 elements per member), P = 1000 N down on each top corner: its sway mode has
kh tan(kh) = 6 I_b h / (I_c L) (Timoshenko & Gere 2.8, hinged portal frame; derived again in
docs/deck.md), P_cr = (kh)^2 E I_c / h^2.
A deep cantilever (L = 1 m, Iy = 1e-4, Iz = 1e-6, J = 4e-6 m^4, 100 elements) under an end
load of 100 N across its strong axis tips over sideways (lateral-torsional buckling) at
P_cr = g sqrt(E Iz G J) / L^2, g = 4.0126 the root of the twist equation (Timoshenko &
Gere 6.3: 4.013; solved here with scipy's solve_ivp and brentq); reversed, the load tips
it over at the same magnitude: a load factor -P_cr / P.
The closed form takes the members as axially rigid: the frame section has A = 0.1 m^2
(its axial flexibility then lowers the load factor by about 6e-5)
(with A = 1e-2 m^2 an independent numpy frame model, cubic elements with the consistent
geometric stiffness, gives 364.019 where the closed form gives 364.259, and mbmodal 364.026).
The corotational beam's geometric stiffness is the chord's (O(h^2) error, about
pi^2 / (12 N^2) over a half-wave of N elements): 2e-5 for the pinned column, 8e-5 for the
clamped one; the checks allow 3e-4 relative.
A heavy column (clamped, free, 100 elements) under gravity alone against Greenhill's
q L^3 / (E I) = 7.8373 (Timoshenko & Gere 2.13; here (9/4) j^2, j the first zero of
J_{-1/3}, scipy), on 1 and 2 ranks: lambda multiplies gravity.
A rod on a ball joint pulled along itself (a mechanism that tension alone holds): its
load factors are zero (sign "zero"), no critical loads.
The mode of each load factor is assigned to the structure whose nodes move most in its
shape (the YAML report's shapes). The deck runs without a statics section (the stage finds
the equilibrium itself) on 1 rank, and with one on 2 ranks. Deck errors: a buckling
section in a matrix deck (file:line:col, exit 2), a deck whose loads stress nothing (exit 2,
2 ranks), a follower end load (not conservative: exit 2). At c3c3f18 there was no
buckling stage (the key was unknown: exit 2).
usage: buckling.py MBMODAL OUTDIR"""
import math
import os
import re
import subprocess
import sys

import yaml
from scipy.integrate import solve_ivp
from scipy.optimize import brentq
from scipy.special import jv

from testlib import Tally

BIN, OUT = sys.argv[1], os.path.join(sys.argv[2], "buckling")
os.makedirs(OUT, exist_ok=True)
TALLY = Tally()
check = TALLY.check
E, I, P, L, NE = 2.0e11, 1.0e-6, 1000.0, 1.0, 200
X1 = brentq(lambda x: math.tan(x) - x, 4.0, 4.6)          # tan x = x, first positive root
KH = brentq(lambda x: x * math.tan(x) - 6.0, 0.1, 1.5)    # hinged portal, I_b h / I_c L = 1


def ltb_phi1(g):
    """phi(1) of phi'' + g^2 s^2 phi = 0, phi(0) = 1, phi'(0) = 0: the twist of a cantilever
    under an end load P at the centroid, s = (L - x) / L from the free end,
    g = P L^2 / sqrt(E Iz G J) (Timoshenko & Gere 6.3); the clamp wants phi(1) = 0."""
    r = solve_ivp(lambda s, y: [y[1], -g * g * s * s * y[0]], (0, 1), [1.0, 0.0],
                  rtol=1e-12, atol=1e-14)
    return r.y[0][-1]


GLTB = brentq(ltb_phi1, 3.0, 5.0)                         # 4.0126 (T&G: 4.013)
GM = E / (2 * 1.3)
WANT = {  # structure: its two lowest load factors (closed forms)
    "cK2": [math.pi ** 2 * E * i / (2.0 * L) ** 2 / P for i in (I, 1.5 * I)],
    "cK1": [math.pi ** 2 * E * i / L ** 2 / P for i in (I, 1.5 * I)],
    "cK07": [X1 ** 2 * E * i / L ** 2 / P for i in (I, 1.5 * I)],
    "cK05": [math.pi ** 2 * E * i / (0.5 * L) ** 2 / P for i in (I, 1.5 * I)],
    "portal": [KH ** 2 * E * I / L ** 2 / P],
    "ltb": [GLTB * math.sqrt(E * 1e-6 * GM * 4e-6) / L ** 2 / 100.0],
}
# the joints of each column: base and top (z = L) end conditions
ENDS = {
    "cK2": ["{type: weld, nodes: [ground, %s.start]}"],
    "cK1": ["{type: spherical, nodes: [ground, %s.start]}",
            "{type: lock, nodes: [ground, %s.start], dofs: [rz]}",
            "{type: lock, nodes: [ground, %s.end], dofs: [x, y]}"],
    "cK07": ["{type: weld, nodes: [ground, %s.start]}",
             "{type: lock, nodes: [ground, %s.end], dofs: [x, y]}"],
    "cK05": ["{type: weld, nodes: [ground, %s.start]}",
             "{type: lock, nodes: [ground, %s.end], dofs: [x, y, rx, ry]}"],
}


def deck_text(statics):
    """The five structures in one deck."""
    t = ["units: SI", "materials:", "  steel: {E: 2.0e11, nu: 0.3, rho: 7850.0}",
         "sections:", "  col: {A: 1.0e-2, Iy: 1.0e-6, Iz: 1.5e-6, J: 1.0e-6}",
         "  deep: {A: 2.0e-3, Iy: 1.0e-4, Iz: 1.0e-6, J: 4.0e-6}",
         "  frame: {A: 0.1, Iy: 1.0e-6, Iz: 2.0e-5, J: 1.0e-5}", "beams:"]
    for k, name in enumerate(ENDS):
        t += ["  %s: {material: steel, section: col, from: [%d, 0, 0], to: [%d, 0, 1], "
              "elements: %d, y_axis: [1, 0, 0]}" % (name, 2 * k, 2 * k, NE)]
    t += ["  portal: {material: steel, section: frame, points: [[0, 5, 0], [0, 5, 1], "
          "[1, 5, 1], [1, 5, 0]], elements: 80, y_axis: [0, 1, 0], "
          "nodes: {b1: 0, lt: 80, rt: 160, b2: 240}}",
          "  ltb: {material: steel, section: deep, from: [10, 0, 0], to: [11, 0, 0], "
          "elements: 100, y_axis: [0, 1, 0]}", "joints:",
          "  ltb_clamp: {type: weld, nodes: [ground, ltb.start]}"]
    for name, js in ENDS.items():
        for j, s in enumerate(js):
            t.append("  %s_%d: %s" % (name, j, s % name))
    for b in ("b1", "b2"):  # hinged bases, twist and out-of-plane rotation held
        t += ["  %s_pin: {type: spherical, nodes: [ground, %s]}" % (b, b),
              "  %s_rot: {type: lock, nodes: [ground, %s], dofs: [rx, rz]}" % (b, b)]
    t += ["  lt_y: {type: lock, nodes: [ground, lt], dofs: [y]}",
          "  rt_y: {type: lock, nodes: [ground, rt], dofs: [y]}", "forces:"]
    for name in ENDS:
        t.append("  P_%s: {type: force, node: %s.end, value: [0, 0, -1000]}" % (name, name))
    t += ["  P_lt: {type: force, node: lt, value: [0, 0, -1000]}",
          "  P_rt: {type: force, node: rt, value: [0, 0, -1000]}",
          "  P_ltb: {type: force, node: ltb.end, value: [0, 0, -100]}",
          "modal: {enabled: false}", "output: {vtk: %s}" % ("true" if statics else "false"),
          "buckling: {modes: 22}"]
    if statics:
        t.append("statics: {max_imbalance: 1.0e-2}   # the stiff portal: round-off ~1e-4 N")
    return "\n".join(t) + "\n"


def mbmodal(np, deck, outdir):
    """Runs the deck on np ranks (1: the binary alone, an MPI singleton, without mpirun's
    start-up time): (exit status, stdout + stderr)."""
    cmd = ["timeout", "300"] + (["mpirun", "--oversubscribe", "-np", str(np)] if np > 1 else [])
    cmd += [BIN, deck, "-o", outdir]
    r = subprocess.run(cmd, capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr


def owner(shape):
    """The structure whose nodes move most in shape (node name prefix before '.')."""
    amp = {}
    for node, v in shape.items():
        s = node.split(".")[0]
        amp[s] = max(amp.get(s, 0.0), max(abs(x) for x in v))
    return max(amp, key=amp.get)


def check_run(np, statics):
    what = "np %d %s" % (np, "statics" if statics else "no statics")
    deck = os.path.join(OUT, "buckling%s.yaml" % ("_statics" if statics else ""))
    with open(deck, "w") as f:
        f.write(deck_text(statics))
    outdir = os.path.join(OUT, "np%d" % np)
    rc, log = mbmodal(np, deck, outdir)
    check(rc == 0, "%s: exit %d %s" % (what, rc, log[-400:]))
    if rc:
        return
    name = os.path.splitext(os.path.basename(deck))[0]
    with open(os.path.join(outdir, name + ".buckling.yaml")) as f:
        rep = yaml.load(f, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    lf = rep["load_factors"]
    pos, neg = [x for x in lf if x > 0], [x for x in lf if x < 0]
    check(lf == pos + neg and pos == sorted(pos) and neg == sorted(neg, reverse=True),
          "%s: load factors not positive ascending, then negative: %r" % (what, lf))
    got = {}
    for m in rep["modes"]:
        got.setdefault(owner(m["shape"]), []).append(m["load_factor"])
    for s, want in WANT.items():
        have = sorted(x for x in got.get(s, []) if x > 0)[:len(want)]
        check(len(have) == len(want), "%s: %s: load factors %r, wanted %d" % (what, s, have, len(want)))
        for h, w in zip(have, want):
            check(abs(h - w) <= 3e-4 * w, "%s: %s: load factor %.8g, closed form %.8g" % (what, s, h, w))
            print("%s: %-6s load factor %.8g, closed form %.8g (rel %.1e)" % (what, s, h, w, (h - w) / w))
    # the reversed tip load tips the deep cantilever over as well: -lambda_1
    ltbneg = max((x for x in got.get("ltb", []) if x < 0), default=0.0)
    check(abs(ltbneg + WANT["ltb"][0]) <= 3e-4 * WANT["ltb"][0],
          "%s: ltb: negative load factor %.8g, wanted %.8g" % (what, ltbneg, -WANT["ltb"][0]))
    crit = rep["critical_loads"]
    check(abs(crit["load_factor"] - lf[0]) == 0 and
          abs(crit["forces"][0]["value"][2] + 1000 * lf[0]) <= 1e-9 * 1000 * lf[0],
          "%s: critical loads %r" % (what, crit))
    check("buckling: %d load factors, the lowest positive" % len(lf) in log,
          "%s: no log line for the stage" % what)
    if statics:
        check(os.path.exists(os.path.join(outdir, name + ".buckling.vtu")), "%s: no VTK" % what)


for np, statics in ((1, False), (2, True)):
    check_run(np, statics)

# gravity: a heavy column standing clamped under its own weight q = rho A g buckles at
# q L^3 / (E I) = (9/4) j^2 = 7.8373, j the first zero of the Bessel function J_{-1/3}
# (Greenhill; Timoshenko & Gere 2.13), for both axes: lambda = q_cr / q
J13 = brentq(lambda x: jv(-1.0 / 3, x), 0.5, 3.0)
HEAVY = [2.25 * J13 ** 2 * E * i / L ** 3 / (7850.0 * 1e-2 * 9.81) for i in (I, 1.5 * I)]
heavy = os.path.join(OUT, "heavy.yaml")
with open(heavy, "w") as f:
    f.write("units: SI\ngravity: [0, 0, -9.81]\nmaterials:\n  steel: {E: 2.0e11, nu: 0.3, "
            "rho: 7850.0}\nsections:\n  s: {A: 1.0e-2, Iy: 1.0e-6, Iz: 1.5e-6, J: 1.0e-6}\n"
            "beams:\n  col: {material: steel, section: s, from: [0, 0, 0], to: [0, 0, 1], "
            "elements: 100, y_axis: [1, 0, 0]}\njoints:\n  clamp: {type: weld, nodes: "
            "[ground, col.start]}\nmodal: {enabled: false}\noutput: {vtk: false}\n"
            "buckling: {modes: 2}\n")
for np in (1, 2):
    rc, log = mbmodal(np, heavy, os.path.join(OUT, "heavy%d" % np))
    check(rc == 0, "heavy column np %d: exit %d %s" % (np, rc, log[-300:]))
    if rc:
        continue
    with open(os.path.join(OUT, "heavy%d" % np, "heavy.buckling.yaml")) as f:
        rep = yaml.load(f, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    for h, w in zip(rep["load_factors"], HEAVY):
        check(abs(h - w) <= 3e-4 * w, "heavy column np %d: load factor %.8g, Greenhill %.8g" % (np, h, w))
        print("heavy column np %d: load factor %.8g, Greenhill %.8g (rel %.1e)" % (np, h, w, (h - w) / w))
    g = rep["critical_loads"]["gravity"]
    check(abs(g[2] + 9.81 * rep["load_factors"][0]) <= 1e-9 * abs(g[2]),
          "heavy column np %d: critical gravity %r" % (np, g))

# a mechanism held by tension alone (a rod on a ball joint, pulled along itself): no
# material stiffness holds its swing, lambda = 0 (K_material phi = 0): sign zero, no
# positive factor, no critical loads
mech = os.path.join(OUT, "mechanism.yaml")
with open(mech, "w") as f:
    f.write("units: SI\nmaterials:\n  steel: {E: 2.0e11, nu: 0.3, rho: 7850.0}\nsections:\n"
            "  s: {A: 1.0e-2, Iy: 1.0e-6, Iz: 1.5e-6, J: 1.0e-6}\nbeams:\n  col: {material: "
            "steel, section: s, from: [0, 0, 0], to: [0, 0, 1], elements: 4, y_axis: [1, 0, 0]}"
            "\njoints:\n  pin: {type: spherical, nodes: [ground, col.start]}\nforces:\n  F: "
            "{type: force, node: col.end, value: [0, 0, 1000]}\nmodal: {enabled: false}\n"
            "output: {vtk: false}\nbuckling: {modes: 2}\n")
rc, log = mbmodal(1, mech, os.path.join(OUT, "mech"))
check(rc == 0, "mechanism: exit %d %s" % (rc, log[-300:]))
if rc == 0:
    with open(os.path.join(OUT, "mech", "mechanism.buckling.yaml")) as f:
        rep = yaml.load(f, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    check([m["sign"] for m in rep["modes"]] == ["zero", "zero"] and rep["critical_loads"] is None
          and "none positive" in log, "mechanism: %r %r" % (rep["modes"], rep["critical_loads"]))

# errors: a matrix deck (the stage needs a model), a model that its loads do not stress
bad = os.path.join(OUT, "bad_matrix.yaml")
with open(bad, "w") as f:
    f.write("matrices: {K: k.mtx, M: m.mtx}\nbuckling: {modes: 2}\n")
rc, log = mbmodal(1, bad, os.path.join(OUT, "bad"))
check(rc == 2 and "bad_matrix.yaml:2:1: error: 'buckling' needs a model deck" in log,
      "matrix deck: exit %d %s" % (rc, log[-300:]))
free = os.path.join(OUT, "bad_unloaded.yaml")
with open(free, "w") as f:
    f.write(re.sub(r"value: \[0, 0, -\d+\]", "value: [0, 0, 0]", deck_text(False)))
rc, log = mbmodal(2, free, os.path.join(OUT, "bad"))
check(rc == 2 and "bad_unloaded.yaml:%d:1: error: buckling: the deck's loads stress nothing" %
      (deck_text(False).count("\n")) in log and log.count("stress nothing") == 1,
      "unloaded deck: exit %d %s" % (rc, log[-300:]))
# a follower end load (Beck's column) is not conservative: refused at the key
beck = os.path.join(OUT, "bad_follower.yaml")
with open(beck, "w") as f:
    f.write(open(mech).read().replace("value: [0, 0, 1000]}", "value: [0, 0, -1000], frame: body}")
            .replace("type: spherical", "type: weld"))
rc, log = mbmodal(1, beck, os.path.join(OUT, "bad"))
check(rc == 2 and "bad_follower.yaml:14:1: error: buckling: the geometric stiffness is not "
      "symmetric" in log, "follower load: exit %d %s" % (rc, log[-300:]))
TALLY.finish("buckling.py: %d checks, %d failed")
