#!/usr/bin/python3
"""statics_report.py: the static report tells the truth (issue 21), on 1 and 2 MPI ranks.

usage: statics_report.py MBMODAL OUTDIR        the decks below, written to OUTDIR, run, checked
       statics_report.py --load MBMODAL DIR    every *.static.yaml under DIR loads (below)

Every static report written loads with a strict YAML reader (PyYAML's pure-Python
SafeLoader, and libyaml's through CSafeLoader when present) and, for the 1-rank reports of
the decks below (or all, without CSafeLoader), with mbmodal's own reader (`mbmodal compare
R R` parses the whole document with libyaml and compares the static report with itself:
exit 0, "0 failed", never a YAML syntax error).
Wherever a run converged (here, and with --load every run under DIR), the verdict
`unstable_directions` equals the number of `unstable` modes of the modal report and of
the complex report beside it (a complex pair of the complex stage, Re lambda > 0, is two
roots with positive real part; a real root one).

The decks (references beside each):
  inverted_top   pendulum (m 2 kg, J 0.05 kg m^2, d 0.6 m) at the top, stability 1e4:
                 unstable, 1 direction; modal lambda = -m g d / (J + m d^2) = -15.2883
                 (closed form), not hidden by sqrt(stability) M.
  flutter_disc   a disc on an isotropic bushing (rotation 100 N m/rad, J 0.5 kg m^2) turned
                 by a body-fixed torque of 20 N m about z, under gravity (m 2 kg): tangent
                 non-symmetric (said from the loads), quoted; the x-y rotation block is
                 a I + b skew with b != 0 (axial symmetry, follower torque), so a complex
                 pair: 2 unstable (flutter); the bushing holds -20 N m about z and
                 m g = 19.62 N up on the disc (statics of the free body).
  flutter_damped two such discs (no gravity) whose bushings damp rotation with c = 10 and
                 c = 0.2 N m s/rad: J s^2 + c s + a + i b = 0 (the x-y block) is stable iff
                 c^2 a / J > b^2 (Routh-Hurwitz for a complex quadratic); a ~ 100 N m/rad
                 (in [80, 120]), b = T - T/2 or T + T/2 (the torque's skew, the loaded
                 bushing's half) in {10, 30}: c = 10 holds (>= 16000 > 900), c = 0.2 does
                 not (<= 9.6 < 100): 2 roots with Re s > 0, `linearization: damped`, equal
                 to the complex stage's (the undamped stage, which refuses a pencil with
                 complex eigenvalues, is off in the three flutter decks).
  beck           two Beck's columns (cantilevers, follower tip force): flutter at
                 P_cr = 20.05 EI / L^2 (Beck 1952); EI = 2000 N m^2, L = 1 m; the one at
                 0.9 P_cr stable (0), the one at 1.1 P_cr 2 unstable (one complex pair):
                 2 in all; the deck's node names (root_a, tip_a, tip_b) in `names`.
  pushed         a free body pushed by 10 N (p_f on, 5 iterations): exit 4, no verdict
                 (equilibrium and unstable_directions null), imbalance 10 N (nothing
                 balances the push), "no equilibrium found" in the log.
  pendulum_1it   a gravity-only pendulum stopped after 1 Newton iteration: exit 4, tangent
                 "symmetric" (gravity is conservative; K is not symmetric there because the
                 state is not an equilibrium), no verdict.
  mkeam_1peak    a 1 kg block on a 100 N/m spring under gravity, MKEAM stopped after one
                 kinetic energy peak: exit 4, no verdict, imbalance |k (|z| - 1) - m g| at
                 the reported z (closed form), tangent symmetric.
  load_note      a point load in a deck without statics: the log's note names it.
"""
import glob
import math
import os
import subprocess
import sys

import yaml

from testlib import Tally

G = 9.81
TALLY = Tally()
check = TALLY.check


def strict_load(path):
    """The report through the pure-Python SafeLoader and libyaml's CSafeLoader."""
    with open(path) as f:
        text = f.read()
    doc = yaml.load(text, Loader=yaml.SafeLoader)
    if hasattr(yaml, "CSafeLoader"):
        check(yaml.load(text, Loader=yaml.CSafeLoader) == doc, path + ": libyaml reads the same")
    return doc


def report(path):
    """strict_load, or None (a failed check) when the file is missing or not YAML."""
    try:
        return strict_load(path)
    except (OSError, yaml.YAMLError) as e:
        check(False, "%s: cannot be read: %s" % (path, str(e).splitlines()[0]))
        return None


def own_reader(binary, path):
    """mbmodal's reader: compare parses the document and compares it with itself."""
    p = subprocess.run([binary, "compare", path, path], capture_output=True, text=True,
                       timeout=60)
    return p.returncode == 0 and " items ok, 0 failed" in p.stdout


def load_all(binary, top, own):
    """Every static report under top through strict_load, its verdict against the modal
    and complex reports beside it (verdict_agrees); through mbmodal's reader too
    when own is a substring of its path, or when PyYAML has no libyaml (CSafeLoader is
    the libyaml parser that mbmodal uses; one mbmodal start costs about 0.3 s)."""
    paths = sorted(glob.glob(os.path.join(top, "**", "*.static.yaml"), recursive=True))
    for path in paths:
        try:
            doc = strict_load(path)
            check(isinstance(doc, dict) and doc.get("stage") == "static", path + ": a static report")
            verdict_agrees(path, doc)
        except yaml.YAMLError as e:
            check(False, "%s: not valid YAML: %s" % (path, str(e).splitlines()[0]))
        if (own and own in path) or not hasattr(yaml, "CSafeLoader"):
            check(own_reader(binary, path), path + ": mbmodal's reader rejects it as YAML")
    return len(paths)


def unstable_count(path, damped):
    """Roots with positive real part (complex report) or unstable modes (modal report)."""
    with open(path) as f:
        rep = yaml.load(f, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    c = 0
    for md in rep.get("modes") or []:
        if md["kind"] != "unstable":
            continue
        lam = md["eigenvalue"]
        pair = damped and isinstance(lam, list) and abs(lam[1]) > 1e-8 * math.hypot(*lam)
        c += 2 if pair else 1
    return c


def verdict_agrees(static_path, rep):
    """A converged report's verdict against the modal and complex reports of the same run
    (NAME.modal.yaml, NAME.complex.yaml beside NAME.static.yaml, when there)."""
    c = rep["convergence"]
    if not c["converged"]:
        return
    base = static_path[:-len(".static.yaml")]
    stages = (("modal", False), ("complex", True))
    if c.get("linearization") == "damped":  # non-symmetric K with damping: the damped stage's
        stages = stages[1:]
    for stage, damped in stages:
        path = "%s.%s.yaml" % (base, stage)
        if os.path.exists(path):
            u = unstable_count(path, damped)
            check(c["unstable_directions"] == u, "%s: verdict %s but the %s stage has %d "
                  "unstable" % (static_path, c["unstable_directions"], stage, u))


PEND = """units: SI
gravity: [0, 0, -9.81]
bodies:
  bob: {mass: 2.0, inertia: [0.05, 0.05, 0.05], position: %s}
joints:
  hinge: {type: revolute, nodes: [ground, bob], at: [0, 0, 0], axis: [0, 1, 0]}
modal:
  modes: 1
complex:
  enabled: true
  modes: 2
statics:
  method: fim
"""

BECK_COLUMN = """  %s:
    material: steel
    section: bar
    from: [0, %r, 0]
    to: [1, %r, 0]
    elements: 10
    y_axis: [0, 1, 0]
    nodes: {root_%s: start, tip_%s: end}
"""
# EI of the weak plane: E z^3 y / 12 = 7.5e10 * 0.02^3 * 0.04 / 12 = 2000 N m^2, L = 1 m
P_CR = 20.05 * 7.5e10 * 0.02 ** 3 * 0.04 / 12 / 1.0 ** 2
BECK = ("""units: SI
materials:
  steel: {E: 7.5e10, nu: 0.3, rho: 7800}
sections:
  bar: {shape: rectangle, y: 0.04, z: 0.02}
beams:
""" + BECK_COLUMN % ("below", 0.0, 0.0, "a", "a") + BECK_COLUMN % ("above", 1.0, 1.0, "b", "b")
        + """joints:
  clamp_a: {type: weld, nodes: [ground, root_a]}
  clamp_b: {type: weld, nodes: [ground, root_b]}
forces:
  follow_a: {type: force, node: tip_a, value: [%r, 0, 0], frame: body}
  follow_b: {type: force, node: tip_b, value: [%r, 0, 0], frame: body}
modal:
  enabled: false
complex:
  enabled: true
  modes: 8
statics:
  method: fim
""" % (-0.9 * P_CR, -1.1 * P_CR))

DECKS = {
    "inverted_top": (PEND % "[0, 0, 0.6]") + "  stability: 1.0e4\n",
    "pendulum_1it": (PEND % "[0.20521208599540122, 0.0, -0.563815572471545]")
                    + "  max_num_iter: 1\n",
    "flutter_disc": """units: SI
gravity: [0, 0, -9.81]
bodies:
  disc: {mass: 2.0, inertia: [0.5, 0.5, 0.5], position: [0, 0, 0]}
forces:
  mount: {type: bushing, nodes: [ground, disc], stiffness: [1000, 1000, 1000, 100, 100, 100]}
  spin: {type: torque, node: disc, value: [0, 0, 20], frame: body}
modal:
  enabled: false
complex:
  enabled: true
  modes: 6
statics:
  method: fim
""",
    "beck": BECK,
    "flutter_damped": """units: SI
bodies:
  held: {mass: 2.0, inertia: [0.5, 0.5, 0.5], position: [0, 0, 0]}
  loose: {mass: 2.0, inertia: [0.5, 0.5, 0.5], position: [5, 0, 0]}
forces:
  mount_held: {type: bushing, nodes: [ground, held], stiffness: [1000, 1000, 1000, 100, 100, 100],
               damping: [0, 0, 0, 10, 10, 10]}
  mount_loose: {type: bushing, nodes: [ground, loose], stiffness: [1000, 1000, 1000, 100, 100, 100],
                damping: [0, 0, 0, 0.2, 0.2, 0.2]}
  spin_held: {type: torque, node: held, value: [0, 0, 20], frame: body}
  spin_loose: {type: torque, node: loose, value: [0, 0, 20], frame: body}
modal:
  enabled: false
complex:
  modes: 12
statics:
  method: fim
""",
    "pushed": """units: SI
bodies:
  block: {mass: 1.0, inertia: [0.1, 0.1, 0.1], position: [0, 0, 0]}
forces:
  push: {type: force, node: block, value: [10, 0, 0]}
modal:
  enabled: false
statics:
  p_f: 1.0e-8
  max_num_iter: 5
""",
    "mkeam_1peak": """units: SI
gravity: [0, 0, -9.81]
bodies:
  block: {mass: 1.0, inertia: [0.1, 0.1, 0.1], position: [0, 0, -1]}
forces:
  hold: {type: spring, nodes: [ground, block], points: [[0, 0, 0], [0, 0, -1]], k: 100}
modal:
  modes: 1
statics:
  method: mkeam
  max_num_iter: 1
""",
    "load_note": """units: SI
bodies:
  block: {mass: 1.0, inertia: [0.1, 0.1, 0.1], position: [0, 0, -1]}
forces:
  hold: {type: spring, nodes: [ground, block], points: [[0, 0, 0], [0, 0, -1]], k: 100}
  push: {type: force, node: block, value: [0, 0, -5]}
  idle: {type: torque, node: block, value: [0, 0, 0]}
modal:
  modes: 1
""",
}
EXIT = {"pushed": 4, "pendulum_1it": 4, "mkeam_1peak": 4}


def node(rep, name):
    for nd in rep["nodes"]:
        if nd["name"] == name:
            return nd
    raise KeyError(name)


def run_decks(binary, top):
    os.makedirs(top, exist_ok=True)
    for name, text in DECKS.items():
        with open("%s/%s.yaml" % (top, name), "w") as f:
            f.write(text)
    for np in (1, 2):
        out = "%s/np%d" % (top, np)
        for name in DECKS:
            mpi = ["mpirun", "--oversubscribe", "-np", str(np)] if np > 1 else []  # 1: singleton
            p = subprocess.run(["timeout", "300"] + mpi + [binary, "%s/%s.yaml" % (top, name),
                                                          "-o", out],
                               capture_output=True, text=True)
            log = p.stdout + p.stderr
            with open("%s/%s.np%d.log" % (top, name, np), "w") as f:
                f.write(log)
            want = EXIT.get(name, 0)
            check(p.returncode == want, "%s np %d: exit %d, want %d" % (name, np, p.returncode, want))
            if name == "load_note":
                check("note: 1 point load ('push') has no effect on the modes without a statics "
                      "section" in log, "load_note np %d: no note for the point load" % np)
                continue
            rep = report("%s/%s.static.yaml" % (out, name))
            if rep is None:
                continue
            c = rep["convergence"]
            if want == 4:
                check(c["converged"] is False, name + ": not converged")
                check(c["equilibrium"] is None and c["unstable_directions"] is None,
                      "%s np %d: a verdict (%s, %s) without an equilibrium" %
                      (name, np, c["equilibrium"], c["unstable_directions"]))
                check("no equilibrium found" in log, "%s np %d: log without 'no equilibrium "
                      "found'" % (name, np))
                check("the equilibrium is" not in log, "%s np %d: log gives a verdict" % (name, np))
            else:
                check(c["converged"] is True, "%s np %d: converged" % (name, np))
            if name == "inverted_top":
                check(c["equilibrium"] == "unstable" and c["unstable_directions"] == 1,
                      "inverted_top np %d: verdict %s %s, want unstable 1" %
                      (np, c["equilibrium"], c["unstable_directions"]))
                with open("%s/%s.modal.yaml" % (out, name)) as f:
                    lam = yaml.safe_load(f)["modes"][0]["eigenvalue"]
                want_l = -2.0 * G * 0.6 / (0.05 + 2.0 * 0.36)
                check(abs(lam - want_l) <= 1e-8 * abs(want_l), "inverted_top np %d: lambda %r, "
                      "want %r" % (np, lam, want_l))
            if name == "flutter_disc":
                check(c["tangent"] == "non-symmetric (non-conservative loads: follower forces "
                      "or body-fixed torques)", "flutter_disc np %d: tangent %r" % (np, c["tangent"]))
                check(c["equilibrium"] == "unstable" and c["unstable_directions"] == 2,
                      "flutter_disc np %d: verdict %s %s, want unstable 2 (flutter pair)" %
                      (np, c["equilibrium"], c["unstable_directions"]))
                sp = [s for s in rep["springs"] if s["name"] == "mount"]
                check(len(sp) == 1 and sp[0]["kind"] == "bushing",
                      "flutter_disc np %d: bushing missing from springs" % np)
                if sp:
                    on = sp[0]["nodes"][0]
                    check(on["node"] == "disc", "flutter_disc: bushing node %r" % on["node"])
                    want_f, want_t = [0, 0, 2.0 * G], [0, 0, -20.0]
                    check(all(abs(a - b) <= 1e-4 for a, b in zip(on["force"], want_f)) and
                          all(abs(a - b) <= 1e-4 for a, b in zip(on["torque"], want_t)),
                          "flutter_disc np %d: bushing force %s torque %s, want %s %s" %
                          (np, on["force"], on["torque"], want_f, want_t))
            if name == "beck":
                check(c["unstable_directions"] == 2 and c["equilibrium"] == "unstable",
                      "beck np %d: verdict %s %s, want 2 (Beck: P_cr = 20.05 EI/L^2; 0 at "
                      "0.9 P_cr, a flutter pair at 1.1 P_cr)" %
                      (np, c["equilibrium"], c["unstable_directions"]))
                check(c["tangent"].startswith("non-symmetric"), name + ": tangent")
                names = {n["name"]: n["names"] for n in rep["nodes"]}
                check(names["below.0"] == ["root_a"] and names["below.10"] == ["tip_a"] and
                      names["above.10"] == ["tip_b"] and names["above.5"] == [],
                      "beck np %d: node names %s" % (np, names))
            if name == "flutter_damped":
                check(c["unstable_directions"] == 2 and c["equilibrium"] == "unstable" and
                      c["linearization"] == "damped",
                      "flutter_damped np %d: verdict %s %s %s, want 2 unstable, damped" %
                      (np, c["equilibrium"], c["unstable_directions"], c.get("linearization")))
                u = unstable_count("%s/%s.complex.yaml" % (out, name), True)
                check(u == 2, "flutter_damped np %d: %d roots with Re s > 0 in the complex "
                      "report, want 2 (the c = 0.2 disc's pair)" % (np, u))
            if name == "pushed":
                check(abs(c["imbalance"] - 10.0) <= 1e-9, "pushed np %d: imbalance %r, want 10"
                      % (np, c["imbalance"]))
            if name == "pendulum_1it":
                check(c["tangent"] == "symmetric", "pendulum_1it np %d: tangent %r, want "
                      "symmetric (gravity only)" % (np, c["tangent"]))
            if name == "mkeam_1peak":
                z = node(rep, "block")["position"][2]
                want_f = abs(100.0 * (-z - 1.0) - 1.0 * G)
                check(c["imbalance"] > 0 and abs(c["imbalance"] - want_f) <= 1e-9,
                      "mkeam_1peak np %d: imbalance %r, want |k (|z| - 1) - m g| = %r" %
                      (np, c["imbalance"], want_f))
                check(c["tangent"] == "symmetric", "mkeam_1peak np %d: tangent" % np)
                check(c["change"] > 0, "mkeam_1peak np %d: change %r, want the peak's" %
                      (np, c["change"]))
    return load_all(binary, top, "/np1/")


def main():
    if sys.argv[1] == "--load":
        n = load_all(sys.argv[2], sys.argv[3], None)
        check(n > 0, "no static report under " + sys.argv[3])
        what = "%d static reports" % n
    else:
        n = run_decks(sys.argv[1], sys.argv[2])
        what = "%d decks on 1 and 2 ranks, %d static reports" % (len(DECKS), n)
    TALLY.finish("statics_report.py: " + what + ", %d checks, %d failed")


main()
