#!/usr/bin/python3
"""line_load.py: line loads on beams (beams.*.line_load), statics, one deck of separate
cantilevers (clamped at x = 0, along x, load along -z) run on 1 and 2 ranks.

Small loads (linear; 8 elements, which give exact nodal values for a uniform load: the
element's consistent load is the work of its own shape functions, the same q L/2, q L^2/12
for the cubic and the Timoshenko element), E 1e7 Pa, L 1 m, EI 1e4 N m^2, q = 1 N/m:
  - Euler-Bernoulli: tip deflection q L^4 / (8 EI), rotation q L^3 / (6 EI);
  - Timoshenko (Asy = Asz = 0.1 m^2, G = E / 2.6): q L^4 / (8 EI) + q L^2 / (2 G As), the
    rotation unchanged; both within 1e-6 (the rotation of 1.7e-5 rad makes the
    corotational solution differ from the linear one by about 1e-9).
Large deflections (32 elements, EI = 10 N m^2, EA = 1e7 N: inextensible to 1e-5), against
a shooting solution of the inextensible elastica (scipy solve_ivp and fsolve): state theta,
moment m, internal force n (exerted by the outer part), position; EI theta' = m,
m' = -(x' n_z - z' n_x), n' = -f; clamped at s = 0, m = n = 0 at s = L:
  - dead load q L^3 / EI = 2 and 5, f = (0, -q);
  - follower load q L^3 / EI = 5 (frame: body), f = q (sin theta, -cos theta): it turns
    with the beam;
tip deflection, shortening (relative to L) and rotation (rad) within 3e-4 (the 32-element
mesh, as statics_cantilever.py). The shooting solver is checked first against the linear
values at q L^3 / EI = 1e-6. 1 and 2 ranks agree to 1e-10.
usage: line_load.py MBMODAL OUTDIR"""
import os
import subprocess
import sys

import numpy as np
import yaml
from scipy.integrate import solve_ivp
from scipy.optimize import fsolve

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from testlib import Tally  # noqa: E402

T = Tally()


def elastica(a, follower):
    """tip (w/L, u/L, theta) of the inextensible cantilever, L = EI = 1, load a"""
    def rhs(s, y):
        th, m, nx, nz, x, z = y
        f = (a * np.sin(th), -a * np.cos(th)) if follower else (0.0, -a)
        return [m, -(np.cos(th) * nz - np.sin(th) * nx), -f[0], -f[1], np.cos(th), np.sin(th)]

    def tip(u):
        return solve_ivp(rhs, [0, 1], [0, u[0], u[1], u[2], 0, 0], rtol=1e-12, atol=1e-13).y[:, -1]

    u = fsolve(lambda u: tip(u)[1:4], [-a / 2, 0.0, -a], xtol=1e-13)
    th, _, _, _, x, z = tip(u)
    return -z, 1 - x, -th


DECK = """units: SI
materials:
  m: {E: 1.0e7, nu: 0.3, rho: 1.0}
sections:
  thin: {A: 1.0, Iy: 1.0e-6, Iz: 1.0e-6, J: 2.0e-6}
  stiff: {A: 1.0, Iy: 1.0e-3, Iz: 1.0e-3, J: 2.0e-3}
  shear: {A: 1.0, Iy: 1.0e-3, Iz: 1.0e-3, J: 2.0e-3, Asy: 0.1, Asz: 0.1}
beams:
%sjoints:
%smodal:
  enabled: false
statics:
  method: fim
"""
# name, section, elements, q [N/m], frame
CASES = [("lin_eb", "stiff", 8, 1.0, "global"), ("lin_tim", "shear", 8, 1.0, "global"),
         ("dead2", "thin", 32, 20.0, "global"), ("dead5", "thin", 32, 50.0, "global"),
         ("follow5", "thin", 32, 50.0, "body")]


def main():
    binary, out = sys.argv[1], os.path.join(sys.argv[2], "line_load")
    os.makedirs(out, exist_ok=True)
    a = 1e-6
    ref = elastica(a, False)
    T.check(abs(ref[0] / a - 1 / 8) < 1e-6 and abs(ref[2] / a - 1 / 6) < 1e-6,
            "elastica at q L^3/EI = 1e-6: %s, not (1/8, 1/6) q L^3/EI" % (ref,))
    beams, joints = [], []
    for i, (name, sec, ne, q, frame) in enumerate(CASES):
        beams.append("  %s:\n    material: m\n    section: %s\n    from: [0, %d, 0]\n"
                     "    to: [1, %d, 0]\n    elements: %d\n    y_axis: [0, 1, 0]\n"
                     "    line_load: {value: [0, 0, %r], frame: %s}\n" % (name, sec, 2 * i, 2 * i, ne, -q, frame))
        joints.append("  %s_clamp: {type: weld, nodes: [ground, %s.start]}\n" % (name, name))
    path = os.path.join(out, "line_load.yaml")
    with open(path, "w") as f:
        f.write(DECK % ("".join(beams), "".join(joints)))
    tips = []
    for np_ in (1, 2):
        od = os.path.join(out, "np%d" % np_)
        r = subprocess.run(["timeout", "300", "mpirun", "--oversubscribe", "-np", str(np_), binary,
                            "-q", path, "-o", od], capture_output=True, text=True)
        T.check(r.returncode == 0, "np %d: exit %d %s" % (np_, r.returncode, r.stderr[-400:]))
        if r.returncode:
            continue
        with open(os.path.join(od, "line_load.static.yaml")) as f:
            rep = yaml.load(f, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
        nodes = {n["name"]: n for n in rep["nodes"]}
        tips.append({c[0]: nodes["%s.%d" % (c[0], c[2])] for c in CASES})
    if not tips:
        T.finish("line_load.py: %d checks, %d failed")
    if len(tips) == 2:
        d = max(abs(x - y) for c in CASES for k in ("position", "rotation")
                for x, y in zip(tips[0][c[0]][k], tips[1][c[0]][k]))
        T.check(d <= 1e-10, "1 and 2 ranks differ by %g" % d)
    E, L, EI, G = 1.0e7, 1.0, 1.0e4, 1.0e7 / 2.6
    for name, sec, ne, q, frame in CASES:
        t = tips[0][name]
        y0 = 2.0 * CASES.index((name, sec, ne, q, frame))
        w, th = -t["position"][2], t["rotation"][1]
        if name.startswith("lin"):
            rw = q * L ** 4 / (8 * EI) + (q * L * L / (2 * G * 0.1) if name == "lin_tim" else 0.0)
            rt = q * L ** 3 / (6 * EI)
            ew, et = abs(w - rw) / rw, abs(th - rt) / rt
            print("%-8s tip w %.9e (%.9e) rotation %.9e (%.9e): errors %.1e %.1e" % (name, w, rw, th, rt, ew, et))
            T.check(ew < 1e-6 and et < 1e-6, "%s: w %.9g against %.9g, rotation %.9g against %.9g"
                    % (name, w, rw, th, rt))
            T.check(abs(t["position"][1] - y0) < 1e-12, "%s: moved out of its plane" % name)
            continue
        got = (w / L, 1 - t["position"][0] / L, th)
        ref = elastica(q * L ** 3 / 10.0, frame == "body")
        err = max(abs(x - y) for x, y in zip(got, ref))
        print("%-8s w/L %.6f u/L %.6f theta %.6f (elastica %.6f %.6f %.6f) error %.1e"
              % ((name,) + got + ref + (err,)))
        T.check(err < 3e-4, "%s: %s against the elastica's %s (%.1e)" % (name, got, ref, err))
    T.finish("line_load.py: %d checks, %d failed")


main()
