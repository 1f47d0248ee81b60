#!/usr/bin/python3
"""statics_tension.py: a pinned-pinned beam under an axial end load: the static stage gives
it the axial force, the modal stage then sees its geometric stiffness. Closed form (Euler-
Bernoulli beam with axial tension T, simply supported; e.g. Clough & Penzien, Dynamics of
Structures, beam with axial force):
    omega_n^2 = ((n pi / L)^4 EI + (n pi / L)^2 T) / (rho A),
so tension raises the frequencies and compression (T < 0) lowers them toward buckling at
T = -pi^2 EI / L^2. Steel rod L = 2 m, diameter 20 mm, 40 corotational elements; left end:
translations and the twist locked, right end: y and z locked, the load along x. The first
three bending frequencies (each twice: bending in y and in z) are checked to 1e-3 for
T = +4000 N, 0 and -P_cr / 2, and they must increase with T. 1 rank (the 1-vs-2-rank
agreement of the static and modal stages is checked by the model deck tests).
usage: statics_tension.py MBMODAL OUTDIR"""
import math
import os
import subprocess
import sys

import yaml

from testlib import Tally, pinned_rod

BIN, OUT = sys.argv[1], os.path.join(sys.argv[2], "tension")
os.makedirs(OUT, exist_ok=True)
L, E, rho, d = 2.0, 2.0e11, 7850.0, 0.02
A, I = math.pi * d * d / 4, math.pi * d ** 4 / 64
PCR = math.pi ** 2 * E * I / L ** 2
TALLY = Tally()
check = TALLY.check


first = []
for T in (-0.5 * PCR, 0.0, 4000.0):
    name = "tension_%d" % round(T)
    path = os.path.join(OUT, name + ".yaml")
    with open(path, "w") as f:
        f.write(pinned_rod(T, 6))
    r = subprocess.run(["timeout", "300", BIN, "-q", path, "-o", OUT], capture_output=True, text=True)
    check(r.returncode == 0, "%s: exit %d %s" % (name, r.returncode, r.stderr[-300:]))
    if r.returncode:
        continue
    with open(os.path.join(OUT, name + ".modal.yaml")) as f:
        rep = yaml.load(f, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    got = sorted(md["frequency_hz"] for md in rep["modes"] if md["kind"] == "oscillatory")[:6]
    want = []
    for n in (1, 2, 3):
        k = n * math.pi / L
        w2 = (k ** 4 * E * I + k * k * T) / (rho * A)
        want += [math.sqrt(w2) / (2 * math.pi)] * 2
    for g, w in zip(got, want):
        check(abs(g - w) <= 1e-3 * w, "%s: %.6f Hz, closed form %.6f Hz" % (name, g, w))
    print("T = %9.2f N: %s Hz (closed form %s)" % (T, " ".join("%.4f" % g for g in got[::2]),
                                                    " ".join("%.4f" % w for w in want[::2])))
    if got:
        first.append(got[0])
check(len(first) == 3 and first[0] < first[1] < first[2], "frequencies rise with tension")
TALLY.finish("statics_tension.py: %d checks, %d failed")
