#!/usr/bin/python3
"""sweep.py: the sweep section (issue 25.4): modes tracked by MAC over a parameter, against
closed forms, on 1 and 2 MPI ranks.

Deck 1, two independent two-mass chains along x (unit masses, every other DOF locked):
  chain A: ground -k1- A1 -kc- A2 -k2- ground, kc = 50, k2 = 1200 N/m; chain B: the same
  without the coupling (kc = 0), k2 = 1000 N/m. The sweep sets k1 of both chains to 500 ..
  1500 N/m in 11 steps. Closed form (M = I):
      chain A: lambda = (a + d)/2 -+ sqrt(((a - d)/2)^2 + kc^2), a = k1 + kc, d = k2 + kc,
               eigenvector [kc, a - lambda]: a veering at k1 = k2, where the two shapes
               trade places; the lower branch stays the lower one (MAC to the previous
               step: (v_prev . v)^2 / (|v_prev|^2 |v|^2), from the closed-form vectors);
      chain B: lambda = k1 and lambda = k2 (mass B1 alone, mass B2 alone), crossing at
               k1 = 1000 (step 6, a double eigenvalue): tracked by MAC each keeps its mass
               (MAC 1 at every step), where sorting by frequency would swap them.
  At k1 = 1200 chain A's lower eigenvalue equals chain B's k1: a cluster across chains.
Deck 2, a rigid rotor (m = 10 kg, Jd = 0.8, Jp = 0.3 kg m^2) on two bearings (k = 1e5 N/m
  each way, at z = +-0.2 m), axial motion and the spin angle locked, spin speed swept
  0 .. 200 rad/s in 21 steps. Closed form (Genta, Dynamics of Rotating Systems, ch. 4; as
  tests/scripts/rotor.py): cylindrical whirl omega = sqrt(2 k / m) (double, no whirl
  direction); conical Jd omega^2 -+ Jp Omega omega - 2 k b^2 = 0, forward
  omega_F = (Jp Omega + s) / (2 Jd), backward omega_B = (-Jp Omega + s) / (2 Jd),
  s = sqrt(Jp^2 Omega^2 + 8 Jd k b^2). Critical speeds where omega = n Omega (n = 1, 2):
  forward Omega = sqrt(2 k b^2 / (n^2 Jd - n Jp)), backward sqrt(2 k b^2 / (n^2 Jd +
  n Jp)), cylindrical sqrt(2 k / m) / n. mbmodal interpolates linearly between steps: the
  reference is the same interpolation of the closed-form curves (1e-9), and the exact
  crossing is checked to 1 %.
The run draws deck 2's Campbell diagram itself (NAME.sweep.png, on 1 and 2 ranks); the others say plots: false.
Deck 3, a pendulum (m = 2 kg, J = 0.05 kg m^2, d = 0.6 m below a hinge about y) pushed
  sideways by F = 5, 10, 20, 30 N (forces.push.scale) under gravity, a static stage per
  step: omega^2 = d sqrt((m g)^2 + F^2) / (J + m d^2) (the effective gravity); each step
  after the first starts from the last equilibrium (3 warm starts, and fewer Newton
  iterations at 30 N than a one-value sweep that starts at the deck pose).
Deck 4: a step that fails (a massless body with no stiffness at step 3 of 3): exit 2,
  the report holds the 2 steps done. Then bad input: a path that names nothing, a value
  out of the key's range (exit 2, file:line:col).
At the starting commit (3f1c73c) 'sweep' was an unknown key (exit 2).
Analysis reuse (issue 25.4, the sweep's factor cache): a step whose A - sigma B keeps the
  pattern refactors on the last step's MUMPS analysis. Chains (1 and 2 ranks): step 1 says
  analysis_reused {modal: false}, steps 2-11 {modal: true}; the rotor: step 1 false, steps
  3-21 {complex: true} (step 2 may analyse anew: at Omega = 0 the gyroscopic entries are
  absent). The chains' frequencies at k1 = 1500 after 10 reuses equal (rtol 1e-10) those of
  a one-value sweep at 1500 (no reuse possible: analysed anew), besides the closed forms
  above (1e-9). At b0a3ca3 no step said analysis_reused.
usage: sweep.py MBMODAL OUTDIR"""
import math
import os
import subprocess
import sys

import yaml

from testlib import Tally

BIN, OUT = sys.argv[1], os.path.join(sys.argv[2], "sweep")
os.makedirs(OUT, exist_ok=True)
TALLY = Tally()
check = TALLY.check
LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)

CHAINS = """title: two two-mass chains
units: SI
bodies:
  A1: {mass: 1, position: [0, 0, 0]}
  A2: {mass: 1, position: [1, 0, 0]}
  B1: {mass: 1, position: [0, 2, 0]}
  B2: {mass: 1, position: [1, 2, 0]}
joints:
  lA1: {type: lock, nodes: [ground, A1], dofs: [y, z, rx, ry, rz]}
  lA2: {type: lock, nodes: [ground, A2], dofs: [y, z, rx, ry, rz]}
  lB1: {type: lock, nodes: [ground, B1], dofs: [y, z, rx, ry, rz]}
  lB2: {type: lock, nodes: [ground, B2], dofs: [y, z, rx, ry, rz]}
forces:
  a1: {type: spring, nodes: [ground, A1], points: [[-1, 0, 0], [0, 0, 0]], k: 1000}
  a2: {type: spring, nodes: [ground, A2], points: [[2, 0, 0], [1, 0, 0]], k: 1200}
  ac: {type: spring, nodes: [A1, A2], k: 50}
  b1: {type: spring, nodes: [ground, B1], points: [[-1, 2, 0], [0, 2, 0]], k: 1000}
  b2: {type: spring, nodes: [ground, B2], points: [[2, 2, 0], [1, 2, 0]], k: 1000}
modal: {modes: 4}
output: {vtk: false, plots: false}
sweep:
  parameter: [forces.a1.k, forces.b1.k]
  range: {from: 500, to: 1500, steps: 11}
"""

ROTOR = """title: rigid rotor on two bearings
units: SI
bodies:
  R: {mass: 10, inertia: [0.8, 0.8, 0.3], position: [0, 0, 0],
      spin: {axis: [0, 0, 1], speed: 0}}
joints:
  axial: {type: lock, nodes: [ground, R], dofs: [z, rz]}
forces:
  top: {type: bushing, nodes: [ground, R], at: [0, 0, 0.2], stiffness: [1e5, 1e5, 0, 0, 0, 0]}
  bottom: {type: bushing, nodes: [ground, R], at: [0, 0, -0.2], stiffness: [1e5, 1e5, 0, 0, 0, 0]}
modal: {enabled: false}
complex: {enabled: true, modes: 4}
output: {vtk: false}
sweep:
  parameter: bodies.R.spin.speed
  range: {from: 0, to: 200, steps: 21}
"""

FAIL = """title: a step that fails
units: SI
bodies:
  P: {mass: 1, position: [0, 0, 0]}
  Z: {mass: 1, position: [0, 1, 0]}
joints:
  lP: {type: lock, nodes: [ground, P], dofs: [y, z, rx, ry, rz]}
  lZ: {type: lock, nodes: [ground, Z], dofs: [y, z, rx, ry, rz]}
forces:
  s: {type: spring, nodes: [ground, P], points: [[-1, 0, 0], [0, 0, 0]], k: 1000}
modal: {modes: 2}
output: {vtk: false, plots: false}
sweep:
  parameter: bodies.Z.mass
  values: [1, 2, 0]
"""

PENDULUM = """title: pushed pendulum
units: SI
gravity: [0, 0, -9.81]
bodies:
  bob: {mass: 2.0, inertia: [0.05, 0.05, 0.05], position: [0, 0, -0.6]}
joints:
  hinge: {type: revolute, nodes: [ground, bob], at: [0, 0, 0], axis: [0, 1, 0]}
forces:
  push: {type: force, node: bob, value: [1, 0, 0]}
modal: {modes: 1}
output: {vtk: false, plots: false}
statics: {method: fim}
sweep:
  parameter: forces.push.scale
  values: [5, 10, 20, 30]
"""

HZ = 1 / (2 * math.pi)


def run(np, name, text, code=0):
    """Writes and runs a deck on np ranks; (its sweep report or None, stderr)."""
    outdir = os.path.join(OUT, "np%d" % np)
    deck = os.path.join(OUT, name + ".yaml")
    with open(deck, "w") as f:
        f.write(text)
    cmd = ["timeout", "120", "mpirun", "--oversubscribe", "-np", str(np), BIN, "-q", deck,
           "-o", outdir] if np > 1 else ["timeout", "120", BIN, "-q", deck, "-o", outdir]
    r = subprocess.run(cmd, capture_output=True, text=True)
    check(r.returncode == code, "%s np %d: exit %d (wanted %d) %s"
          % (name, np, r.returncode, code, r.stderr[-300:]))
    path = os.path.join(outdir, name + ".sweep.yaml")
    if r.returncode != code or not os.path.exists(path):
        return None, r.stderr
    with open(path) as f:
        return yaml.load(f, Loader=LOADER), r.stderr


def close(a, b, rtol):
    return abs(a - b) <= rtol * max(abs(a), abs(b), 1e-300)


def chain_a(k1, kc=50.0, k2=1200.0):
    """Chain A's (lambda, vector) pairs, lower first (closed form above)."""
    a, d = k1 + kc, k2 + kc
    r = math.sqrt(((a - d) / 2) ** 2 + kc ** 2)
    return [(lam, (kc, a - lam)) for lam in ((a + d) / 2 - r, (a + d) / 2 + r)]


def mac(u, v):
    dot = u[0] * v[0] + u[1] * v[1]
    return dot * dot / ((u[0] ** 2 + u[1] ** 2) * (v[0] ** 2 + v[1] ** 2))


def check_chains(rep, np):
    tag = "chains np %d" % np
    steps = rep["steps"]
    check(rep["sweep"]["steps_done"] == 11 and rep["sweep"]["status"] == "complete",
          "%s: 11 steps complete" % tag)
    ks = [500 + 100 * i for i in range(11)]
    # the branches' closed forms: frequency and MAC to the previous step
    ref = {"A-lower": [], "A-upper": [], "B1": [], "B2": []}
    for i, k in enumerate(ks):
        pairs = chain_a(k)
        prev = chain_a(ks[i - 1]) if i else None
        for b, (lam, v) in zip(("A-lower", "A-upper"), pairs):
            ref[b].append((math.sqrt(lam) * HZ,
                           mac(prev[0 if b == "A-lower" else 1][1], v) if prev else None))
        ref["B1"].append((math.sqrt(k) * HZ, 1.0 if i else None))
        ref["B2"].append((math.sqrt(1000.0) * HZ, 1.0 if i else None))
    # each track named by its branch at step 1 (four distinct frequencies there)
    name = {}
    for m in steps[0]["modes"]:
        best = min(ref, key=lambda b: abs(ref[b][0][0] - m["frequency_hz"]))
        name[m["track"]] = best
    check(sorted(name.values()) == sorted(ref), "%s: step 1 holds the four branches %s"
          % (tag, name))
    for i, st in enumerate(steps):
        check(close(st["value"], ks[i], 1e-12), "%s: step %d value %r" % (tag, i + 1, st["value"]))
        check(len(st["modes"]) == 4 and "lost" not in st, "%s: step %d: 4 modes, none lost"
              % (tag, i + 1))
        for m in st["modes"]:
            b = name.get(m["track"])
            if b is None:
                check(False, "%s: step %d: a new track %d" % (tag, i + 1, m["track"]))
                continue
            f, mc = ref[b][i]
            check(close(m["frequency_hz"], f, 1e-9), "%s: step %d track %d (%s): %.12g Hz, "
                  "closed form %.12g" % (tag, i + 1, m["track"], b, m["frequency_hz"], f))
            if mc is None:
                check(m["mac"] is None, "%s: step 1 MAC null" % tag)
            else:
                check(m["mac"] is not None and abs(m["mac"] - mc) < 1e-8,
                      "%s: step %d track %d (%s): MAC %r, closed form %.12g"
                      % (tag, i + 1, m["track"], b, m["mac"], mc))
    return {(i, m["track"]): m["frequency_hz"] for i, st in enumerate(steps)
            for m in st["modes"]}


def rotor_ref(om, m=10.0, jd=0.8, jp=0.3, k=1e5, b=0.2):
    """{branch: frequency [Hz]} at spin speed om (closed form above)."""
    kt = 2 * k * b * b
    s = math.sqrt((jp * om) ** 2 + 4 * jd * kt)
    return {"forward": (jp * om + s) / (2 * jd) * HZ, "backward": (-jp * om + s) / (2 * jd) * HZ,
            "cylindrical": math.sqrt(2 * k / m) * HZ}


def check_rotor(rep, np):
    tag = "rotor np %d" % np
    steps = rep["steps"]
    check(rep["sweep"]["steps_done"] == 21 and rep["sweep"]["spin"] is True,
          "%s: 21 steps of a spin sweep" % tag)
    oms = [10.0 * i for i in range(21)]
    name = {}  # track -> branch, from the whirl at step 2 (the cylindrical pair: none)
    for m in steps[1]["modes"]:
        name[m["track"]] = m.get("whirl", "cylindrical")
    check(sorted(name.values()) == ["backward", "cylindrical", "cylindrical", "forward"],
          "%s: step 2 branches %s" % (tag, name))
    for i, st in enumerate(steps):
        ref = rotor_ref(oms[i])
        check(len(st["modes"]) == 4, "%s: step %d: 4 modes" % (tag, i + 1))
        for m in st["modes"]:
            b = name.get(m["track"], "?")
            check(b in ref and close(m["frequency_hz"], ref[b], 1e-8),
                  "%s: step %d track %d (%s): %.12g Hz, closed form %s"
                  % (tag, i + 1, m["track"], b, m["frequency_hz"], ref.get(b)))
            if i > 0 and b in ("forward", "backward"):
                check(m.get("whirl") == b, "%s: step %d track %d whirl %s"
                      % (tag, i + 1, m["track"], m.get("whirl")))
            if i > 0:
                check(m["mac"] is not None and m["mac"] > 0.999, "%s: step %d track %d MAC %r"
                      % (tag, i + 1, m["track"], m["mac"]))
    # critical speeds: the closed form's crossing, and its linear interpolation on the grid
    want = []
    kt, jd, jp, mass, k = 2 * 1e5 * 0.04, 0.8, 0.3, 10.0, 1e5
    for n in (1, 2):
        exact = {"forward": math.sqrt(kt / (n * n * jd - n * jp)),
                 "backward": math.sqrt(kt / (n * n * jd + n * jp)),
                 "cylindrical": math.sqrt(2 * k / mass) / n}
        for b, w in exact.items():
            i = int(w // 10)  # the grid interval holding it
            ga = rotor_ref(oms[i])[b] - n * oms[i] * HZ
            gb = rotor_ref(oms[i + 1])[b] - n * oms[i + 1] * HZ
            lin = oms[i] + 10 * ga / (ga - gb)
            want += [(n, b, w, lin)] * (2 if b == "cylindrical" else 1)
    got = rep.get("critical_speeds") or []
    check(len(got) == len(want), "%s: %d critical speeds (wanted %d)" % (tag, len(got), len(want)))
    for n, b, w, lin in want:
        hits = [c for c in got if c["order"] == n and name.get(c["track"]) == b]
        check(hits and all(close(c["speed_rad_s"], lin, 1e-9) and close(c["speed_rad_s"], w, 1e-2)
                           and close(c["rpm"], c["speed_rad_s"] * 30 / math.pi, 1e-12)
                           for c in hits),
              "%s: %gx %s critical speed %s, closed form %.10g (interpolated %.10g)"
              % (tag, n, b, [c["speed_rad_s"] for c in hits], w, lin))
        if b != "cylindrical":
            check(hits and hits[0].get("whirl") == b, "%s: %gx critical speed's whirl %s"
                  % (tag, n, hits and hits[0].get("whirl")))
    return {(i, m["track"]): m["frequency_hz"] for i, st in enumerate(steps)
            for m in st["modes"]}


def reuse_flags(np, name, stage):
    """Each step's analysis_reused verdict of the stage in OUT/np*/NAME.sweep.yaml."""
    path = os.path.join(OUT, "np%d" % np, name + ".sweep.yaml")
    try:
        with open(path) as f:
            rep = yaml.load(f, Loader=LOADER)
        return rep, [st.get("analysis_reused", {}).get(stage) for st in rep["steps"]]
    except (OSError, KeyError, TypeError, AttributeError):
        return None, []


def check_reuse():
    """The factor cache: reused at every step that keeps the pattern, the same numbers as a
    sweep that cannot reuse (a one-value sweep at k1 = 1500)."""
    for np in (1, 2):
        rep, flags = reuse_flags(np, "chains", "modal")
        check(flags == [False] + [True] * 10, "chains np %d: analysis reused at steps 2-11 "
              "only: %s" % (np, flags))
        _, rflags = reuse_flags(np, "rotor", "complex")
        check(len(rflags) == 21 and rflags[0] is False and all(rflags[2:]),
              "rotor np %d: analysis reused at steps 3-21: %s" % (np, rflags))
        one, _ = run(np, "chains_one", CHAINS.replace("range: {from: 500, to: 1500, steps: 11}",
                                                       "values: [1500]"))
        if not (rep and one):
            continue
        check(one["steps"][0].get("analysis_reused") == {"modal": False},
              "chains_one np %d: one step, analysed anew" % np)
        a = sorted(m["frequency_hz"] for m in rep["steps"][10]["modes"])
        b = sorted(m["frequency_hz"] for m in one["steps"][0]["modes"])
        check(len(a) == 4 and len(b) == 4 and all(close(x, y, 1e-10) for x, y in zip(a, b)),
              "chains np %d: k1 = 1500 on the reused analysis %s, analysed anew %s"
              % (np, a, b))


def agree(a, b, tag):
    check(a.keys() == b.keys() and all(close(a[key], b[key], 1e-10) for key in a),
          "%s: 1 and 2 ranks track the same modes at the same frequencies" % tag)


def main():
    res = {}
    for np in (1, 2):
        rep, _ = run(np, "chains", CHAINS)
        if rep:
            res[("chains", np)] = check_chains(rep, np)
        rep, _ = run(np, "rotor", ROTOR)
        if rep:
            res[("rotor", np)] = check_rotor(rep, np)
    # the run draws the spin sweep's Campbell diagram itself (NAME.sweep.png, the script of
    # `mbmodal plot`); the other decks say `plots: false`
    for np in (1, 2):
        png = os.path.join(OUT, "np%d" % np, "rotor.sweep.png")
        with open(png, "rb") if os.path.exists(png) else open(os.devnull, "rb") as f:
            head = f.read(8)
        check(head == b"\x89PNG\r\n\x1a\n" and os.path.getsize(png) > 1000,
              "np %d: the run drew no Campbell diagram (rotor.sweep.png)" % np)
        check(not os.path.exists(os.path.join(OUT, "np%d" % np, "chains.sweep.png")),
              "np %d: plots: false still drew chains.sweep.png" % np)
    for tag in ("chains", "rotor"):
        if (tag, 1) in res and (tag, 2) in res:
            agree(res[(tag, 1)], res[(tag, 2)], tag)
    check_reuse()
    # statics per step from the last equilibrium: the pushed pendulum's frequency, and
    # fewer iterations at 30 N than a sweep of 30 N alone (which starts at the deck pose)
    rep, _ = run(2, "pendulum", PENDULUM)
    if rep:
        check(rep["sweep"].get("statics_warm_starts") == 3, "pendulum: 3 warm starts (%r)"
              % rep["sweep"].get("statics_warm_starts"))
        for st in rep["steps"]:
            f = st["value"]
            w2 = 0.6 * math.hypot(2.0 * 9.81, f) / (0.05 + 2.0 * 0.36)
            got = st["modes"][0]["frequency_hz"]
            check(close(got, math.sqrt(w2) * HZ, 1e-7), "pendulum F = %g N: %.12g Hz, closed "
                  "form %.12g" % (f, got, math.sqrt(w2) * HZ))
    run(1, "pendulum_cold", PENDULUM.replace("[5, 10, 20, 30]", "[30]"))

    def iterations(np, name, step):
        path = os.path.join(OUT, "np%d" % np, name + ".sweep", "step-%03d" % step,
                            name + ".static.yaml")
        try:
            with open(path) as f:
                return yaml.load(f, Loader=LOADER)["convergence"]["iterations"]
        except (OSError, KeyError, TypeError):
            return None
    warm, cold = iterations(2, "pendulum", 4), iterations(1, "pendulum_cold", 1)
    check(warm is not None and cold is not None and warm < cold,
          "pendulum: %s iterations from the last equilibrium, %s from the deck pose"
          % (warm, cold))
    # a step that fails: its status, the steps done, every rank the same exit
    rep, err = run(2, "fail", FAIL, code=2)
    check(rep is not None and rep["sweep"]["steps_done"] == 2
          and rep["sweep"]["status"] == "step 3 failed (exit 2)" and len(rep["steps"]) == 2,
          "fail: the report holds 2 steps and the failed step (%s)"
          % (rep and rep["sweep"].get("status")))
    check("step 3 of 3" in err and "no mass, no stiffness" in err,
          "fail: the failed step said: %s" % err[-300:])
    # bad input: file:line:col and exit 2
    bad = CHAINS.replace("[forces.a1.k, forces.b1.k]", "bodies.nobody.mass")
    _, err = run(1, "bad_path", bad, code=2)
    check("bad_path.yaml:22:14: error: sweep: parameter 'bodies.nobody.mass': the deck has no body "
          "named 'nobody'" in err, "bad path message: %s" % err[-300:])
    bad = CHAINS.replace("range: {from: 500, to: 1500, steps: 11}", "values: [10, -1]")
    _, err = run(1, "bad_value", bad, code=2)
    check("bad_value.yaml:23:11: error: sweep: value -1 of 'forces.a1.k' must be >= 0" in err,
          "bad value message: %s" % err[-300:])
    TALLY.finish("sweep: %d checks, %d failed")


main()
