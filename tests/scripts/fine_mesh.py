#!/usr/bin/python3
"""Fine meshes against the closed form (issue 22 item 2; tests/scripts/fine_mesh.sh).

The 80 m clamped steel tube (outer diameter 5 m, wall 20 mm, E 210 GPa, rho 7850 kg/m^3),
Euler-Bernoulli: f1 = (beta1 L)^2 / (2 pi) sqrt(E I / (rho A L^4)), beta1 L = 1.87510406871196
(the root of cos x cosh x = -1, computed below by Newton), the same in both bending planes.

  gen DIR N [statics|gravity]
                        writes DIR/tubeN.yaml; tubeN_statics.yaml adds a load-free `statics`
                        section (the equilibrium is the deck: the same modes);
                        tubeN_gravity.yaml also gravity along the axis (an equilibrium that
                        is not the deck's: the eigen stage has no element energies there and
                        judges by the assembled K; no closed form is checked)
  check REPORT RTOL     the report's first two modes: oscillatory, within RTOL of f1, equal
                        to 1e-6 (both planes), each with a conditioning estimate <= 1e-6;
                        prints f1, its relative error and the estimate
  flagged REPORT        the stage failed (exit 4 checked by the caller): the report says
                        not converged and mode 1's conditioning estimate is above 1e-6
  monotone F...         the first frequencies of a refinement sequence decrease (Hermite
                        cubics with a consistent mass converge from above) down to the
                        closed form, each step within the rounding its estimate allows
"""
import math
import sys

import yaml

E, RHO, DO, WALL, L = 210e9, 7850.0, 5.0, 0.02, 80.0


def beta1():
    x = 1.875
    for _ in range(50):  # Newton on cos x cosh x + 1 = 0
        x -= (math.cos(x) * math.cosh(x) + 1) / (-math.sin(x) * math.cosh(x) + math.cos(x) * math.sinh(x))
    return x


def f1():
    di = DO - 2 * WALL
    a = math.pi * (DO ** 2 - di ** 2) / 4
    i = math.pi * (DO ** 4 - di ** 4) / 64
    return beta1() ** 2 / (2 * math.pi) * math.sqrt(E * i / (RHO * a * L ** 4))


def gen(d, n, statics):
    name = "tube%d%s" % (n, "_" + statics if statics else "")
    with open("%s/%s.yaml" % (d, name), "w") as f:
        f.write("""# %s: clamped tube, %d elements (tests/scripts/fine_mesh.py)
units: SI
materials:
  steel: {E: %r, nu: 0.3, rho: %r}
sections:
  pipe: {shape: tube, outer_diameter: %r, wall: %r}
beams:
  tower: {material: steel, section: pipe, from: [0, 0, 0], to: [0, 0, %r], elements: %d,
          nodes: {root: start}}
joints:
  clamp: {type: weld, nodes: [ground, root]}
modal:
  modes: 4
output:
  vtk: false
""" % (name, n, E, RHO, DO, WALL, L, n))
        if statics == "statics":  # no loads: the equilibrium is the deck configuration
            f.write("statics:\n  method: fim\n")
        elif statics == "gravity":  # self-weight along the axis: another equilibrium
            f.write("gravity: [0, 0, -9.81]\nstatics:\n  method: fim\n  max_imbalance: 1.0\n")


def modes(path):
    with open(path) as f:
        return yaml.load(f, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def check(path, rtol):
    rep = modes(path)
    m = rep["modes"]
    ref = f1()
    a, b = m[0], m[1]
    fails = []
    for md in (a, b):
        if md["kind"] != "oscillatory":
            fails.append("mode %d is %s" % (md["mode"], md["kind"]))
        if not md.get("conditioning", 1.0) <= 1e-6:
            fails.append("mode %d: conditioning %s" % (md["mode"], md.get("conditioning")))
    err = abs(a["frequency_hz"] - ref) / ref
    if not err <= rtol:
        fails.append("f1 %.12g against %.12g: %.2e > %.0e" % (a["frequency_hz"], ref, err, rtol))
    split = abs(a["frequency_hz"] - b["frequency_hz"]) / ref
    if not split <= 1e-6:
        fails.append("the planes differ by %.2e" % split)
    print("%s: f1 %.12g Hz (closed form %.12g), rel. error %.1e, planes %.1e, estimate %.1e"
          % (path, a["frequency_hz"], ref, err, split, a.get("conditioning", float("nan"))))
    for f in fails:
        print("FAIL " + f)
    return 1 if fails else 0


def flagged(path):
    rep = modes(path)
    c = rep["modes"][0].get("conditioning")
    conv = rep["convergence"]["converged"]
    ok = conv is False and c is not None and c > 1e-6
    print("%s: converged %s, mode 1's conditioning estimate %s%s"
          % (path, conv, c, "" if ok else "  FAIL"))
    return 0 if ok else 1


def monotone(fs, ests):
    ref, bad = f1(), 0
    for k in range(1, len(fs)):
        slack = 4 * (ests[k] + ests[k - 1]) * ref + 1e-15 * ref
        if not (fs[k] <= fs[k - 1] + slack and fs[k] >= ref - slack):
            print("FAIL step %d: %.15g after %.15g (closed form %.15g)" % (k, fs[k], fs[k - 1], ref))
            bad = 1
    return bad


if __name__ == "__main__":
    cmd = sys.argv[1]
    if cmd == "gen":
        gen(sys.argv[2], int(sys.argv[3]), sys.argv[4] if len(sys.argv) > 4 else "")
    elif cmd == "check":
        sys.exit(check(sys.argv[2], float(sys.argv[3])))
    elif cmd == "flagged":
        sys.exit(flagged(sys.argv[2]))
    elif cmd == "monotone":
        reps = [modes(p)["modes"][0] for p in sys.argv[2:]]
        sys.exit(monotone([r["frequency_hz"] for r in reps], [r["conditioning"] for r in reps]))
