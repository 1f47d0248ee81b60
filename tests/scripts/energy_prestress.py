#!/usr/bin/python3
"""energy_prestress.py: strain-energy shares about a loaded equilibrium split into material
and geometric (prestress) parts, summing to 1 (issue 22.5), on 1 and 2 MPI ranks.

A steel rod L = 2 m, diameter 20 mm, 40 elements, pinned at both ends (x free at the right
end), under an axial end load N: tension (a string, N = +4000 N) and compression (a column,
N = -P_cr / 2, P_cr = pi^2 EI / L^2). In its first bending mode (the sine of a simply
supported beam with axial force; Clough & Penzien, beam with axial force) the material
strain energy is EI k^4 and the whole x^T K x is EI k^4 + N k^2 (k = pi / L), so the rod's
    material share = EI k^4 / (EI k^4 + N k^2)   (0.492 in tension: within [0, 1]; 2 at
                                                  N = -P_cr / 2: compression takes half,
                                                  geometric -1)
    geometric share = 1 - material share.
Checked: the listed strain shares sum to 1 (1e-9), each share is material + geometric, the
rod's material share against the closed form (rtol 2e-3, the mesh's error), within [0, 1]
in tension. A pendulum (tests/models/statics_pendulum_fim.yaml) has its whole strain energy
in the reaction of its hinge: one item, kind joint, material 0, geometric 1.
At 743b901 the shares were those of the material stiffness over K without the prestress
(the tensioned rod: 149 %).
usage: energy_prestress.py MBMODAL OUTDIR"""
import math
import os
import subprocess
import sys

import yaml

from testlib import Tally, pinned_rod

BIN, OUT = sys.argv[1], os.path.join(sys.argv[2], "energy_prestress")
TOP = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
os.makedirs(OUT, exist_ok=True)
L, E, d = 2.0, 2.0e11, 0.02
I = math.pi * d ** 4 / 64
PCR = math.pi ** 2 * E * I / L ** 2
TALLY = Tally()
check = TALLY.check




def run(np, deck, outdir):
    """Runs the deck on np ranks; its modal report, or None."""
    name = os.path.splitext(os.path.basename(deck))[0]
    cmd = ["timeout", "300", "mpirun", "--oversubscribe", "-np", str(np), BIN, "-q", deck,
           "-o", outdir]
    r = subprocess.run(cmd, capture_output=True, text=True)
    check(r.returncode == 0, "%s np %d: exit %d %s" % (name, np, r.returncode, r.stderr[-300:]))
    if r.returncode:
        return None
    with open(os.path.join(outdir, name + ".modal.yaml")) as f:
        return yaml.load(f, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))


def strain_items(rep, what):
    """The first mode's strain items, after the checks every listed item must pass."""
    items = rep["modes"][0]["energy"]["strain"]
    total = sum(it["share"] for it in items)
    check(abs(total - 1) <= 1e-9, "%s: strain shares sum to %.12g" % (what, total))
    for it in items:
        check(abs(it["material"] + it["geometric"] - it["share"]) <= 1e-12,
              "%s: %s share != material + geometric" % (what, it["part"]))
        check(it["material"] >= 0, "%s: %s material share %g < 0" % (what, it["part"], it["material"]))
    return items


for N in (4000.0, -0.5 * PCR):
    k = math.pi / L
    want = E * I * k ** 4 / (E * I * k ** 4 + N * k * k)
    deck = os.path.join(OUT, "rod_%s.yaml" % ("tension" if N > 0 else "compression"))
    with open(deck, "w") as f:
        f.write(pinned_rod(N, 2, vtk=False))
    for np in (1, 2):
        rep = run(np, deck, os.path.join(OUT, "np%d" % np))
        if rep is None:
            continue
        what = "N = %.1f N np %d" % (N, np)
        items = strain_items(rep, what)
        rod = [it for it in items if it["part"] == "rod"]
        check(len(rod) == 1, "%s: no strain item for the rod" % what)
        if not rod:
            continue
        m = rod[0]["material"]
        check(abs(m - want) <= 2e-3 * want, "%s: material share %.6f, closed form %.6f" % (what, m, want))
        if N > 0:
            check(0 <= m <= 1, "%s: material share %g outside [0, 1] in tension" % (what, m))
        print("%s: rod material %.6f (closed form %.6f), geometric %.6f, sum of shares %.12f"
              % (what, m, want, rod[0]["geometric"], sum(it["share"] for it in items)))

pend = os.path.join(TOP, "tests", "models", "statics_pendulum_fim.yaml")
for np in (1, 2):
    rep = run(np, pend, os.path.join(OUT, "pend%d" % np))
    if rep is None:
        continue
    items = strain_items(rep, "pendulum np %d" % np)
    check(len(items) == 1 and items[0]["part"] == "hinge" and items[0]["kind"] == "joint"
          and items[0]["material"] == 0 and abs(items[0]["geometric"] - 1) <= 1e-9,
          "pendulum np %d: strain items %r, wanted the hinge's reaction alone" % (np, items))
TALLY.finish("energy_prestress.py: %d checks, %d failed")
