#!/usr/bin/python3
"""statics_check.py: checks the static reports of the tests/models/statics_*.yaml decks
(written to DIR/np1 and DIR/np2 by statics.sh) against closed forms:
  chain: body i sags by sum_{s <= i} g sum_{j >= s} m_j / k_s (springs in series; tol 2e-7 m
         = about max_imbalance / k_min), spring s carries g sum_{j >= s} m_j, FIM and MKEAM
         agree within 2e-7 m;
  pendulum (FIM and MKEAM from 20 degrees; MKEAM from 3 degrees off the top): the body
         hangs at (0, 0, -d), the hinge carries m g; stable;
  inverted (FIM from 3 degrees off the top): stays at (0, 0, +d), one unstable direction;
  double pendulum: both bodies on the vertical below the top hinge;
and that 1 and 2 ranks give the same positions (1e-12 m).
usage: statics_check.py DIR"""
import math
import sys

import yaml

G = 9.81
D = sys.argv[1]
fails = []
checks = 0


def check(cond, what):
    global checks
    checks += 1
    if not cond:
        fails.append(what)


def load(name, np=1):
    with open("%s/np%d/%s.static.yaml" % (D, np, name)) as f:
        return yaml.load(f, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def pos(rep, name):
    for nd in rep["nodes"]:
        if nd["name"] == name:
            return nd["position"]
    raise KeyError(name)


def near(a, b, tol):
    return all(abs(x - y) <= tol for x, y in zip(a, b))


names = ["statics_chain_fim", "statics_chain_mkeam", "statics_pendulum_fim",
         "statics_pendulum_mkeam", "statics_inverted_fim", "statics_inverted_mkeam",
         "statics_double_pendulum"]
reps = {n: load(n) for n in names}
for n in names:
    check(reps[n]["convergence"]["converged"] is True, n + ": converged")
    r2 = load(n, 2)
    for nd1, nd2 in zip(reps[n]["nodes"], r2["nodes"]):
        check(near(nd1["position"], nd2["position"], 1e-12), n + ": 1 and 2 ranks agree")

m, k, z0 = [1.0, 2.0, 0.5], [2000.0, 1500.0, 800.0], [-0.5, -1.0, -1.5]
sag, want = 0.0, []
for i in range(3):
    sag += G * sum(m[i:]) / k[i]
    want.append(z0[i] - sag)
for meth in ("fim", "mkeam"):
    r = reps["statics_chain_" + meth]
    for i in range(3):
        p = pos(r, "b%d" % (i + 1))
        check(near(p, [0, 0, want[i]], 2e-7), "chain %s: b%d at z = %.9f, want %.9f" % (meth, i + 1, p[2], want[i]))
    # the modes are drawn about the equilibrium: the modal report's nodes (and so the
    # VTK mode shapes, built from the same model) stand at the closed-form sags
    with open("%s/np1/statics_chain_%s.modal.yaml" % (D, meth)) as f:
        modal = yaml.load(f, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    for i, nd in enumerate(modal["model"]["nodes"]):
        check(near(nd["position"], [0, 0, want[i]], 2e-7),
              "chain %s: modal report node %s at z = %g, want the equilibrium %g" %
              (meth, nd["name"], nd["position"][2], want[i]))
    for s, sp in enumerate(r["springs"]):
        f = G * sum(m[s:])
        check(abs(sp["force"] - f) <= 2e-4 and abs(sp["elongation"] - f / k[s]) <= 2e-7,
              "chain %s: spring %s force %g, want %g" % (meth, sp["name"], sp["force"], f))
for i in range(3):
    a, b = pos(reps["statics_chain_fim"], "b%d" % (i + 1)), pos(reps["statics_chain_mkeam"], "b%d" % (i + 1))
    check(near(a, b, 2e-7), "chain: FIM and MKEAM agree on b%d" % (i + 1))

for n, z, stable in (("statics_pendulum_fim", -0.6, True), ("statics_pendulum_mkeam", -0.6, True),
                     ("statics_inverted_mkeam", -0.6, True), ("statics_inverted_fim", 0.6, False)):
    r = reps[n]
    p = pos(r, "bob")
    check(near(p, [0, 0, z], 1e-7), "%s: bob at %s, want z = %g" % (n, p, z))
    f = r["joints"][0]["force"]
    check(abs(math.sqrt(sum(x * x for x in f)) - 2.0 * G) <= 1e-6 * 2.0 * G,
          "%s: hinge reaction %s, want |f| = m g" % (n, f))
    c = r["convergence"]
    if stable:
        check(c["equilibrium"] == "stable" and c["unstable_directions"] == 0, n + ": stable")
    else:
        check(c["equilibrium"] == "unstable" and c["unstable_directions"] == 1, n + ": one unstable direction")

r = reps["statics_double_pendulum"]
check(near(pos(r, "upper"), [0, 0, -0.4], 1e-7), "double pendulum: upper on the vertical")
check(near(pos(r, "lower"), [0, 0, -1.3], 1e-7), "double pendulum: lower on the vertical")

for f in fails:
    print("FAIL " + f)
print("statics_check.py: %d checks, %d failed" % (checks, len(fails)))
sys.exit(1 if fails else 0)
