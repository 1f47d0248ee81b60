#!/usr/bin/python3
"""convergence.py: mesh convergence of the Euler-Bernoulli cantilever in mbmodal.

Runs the Table 2 cantilever (E = 100 MPa, rho = 1000 kg/m^3, section 0.3 m x 0.05 m, L = 2 m,
clamped base, no damping) meshed into N = 4, 8, 16, 32 elements and compares its first bending
frequency with the closed form f1 = (beta_1 L)^2 / (2 pi L^2) sqrt(E Iy / (rho A)), where
cos(b) cosh(b) = -1 is solved here (beta_1 L = 1.8751040687...). The cubic Hermite element
with consistent mass converges as h^4 for frequencies: the relative error must decrease
monotonically, and each halving of h must divide it by 2^p with 3 <= p <= 5 (while it is above
1e-9, the solver's accuracy).
usage: /usr/bin/python3 tests/models/convergence.py MBMODAL OUTDIR      (exit 0: converges)
"""
import math
import os
import subprocess
import sys

import yaml
from scipy.optimize import brentq

E, RHO, Y, Z, L = 100e6, 1000.0, 0.3, 0.05, 2.0
MESHES = (4, 8, 16, 32)

DECK = """# cantilever with {n} elements for tests/models/convergence.py
title: "convergence: cantilever, {n} elements"
units: SI
materials:
  table2: {{E: 100.0e6, nu: 0.31, rho: 1000.0}}
sections:
  plate: {{shape: rectangle, y: 0.3, z: 0.05}}
beams:
  beam: {{material: table2, section: plate, from: [0, 0, 0], to: [0, 0, 2], elements: {n}, y_axis: [0, 1, 0]}}
joints:
  clamp: {{type: weld, nodes: [ground, beam.start]}}
modal:
  modes: 2
output:
  name: conv{n}
  vtk: false
"""


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: convergence.py MBMODAL OUTDIR")
    binary, out = sys.argv[1], os.path.join(sys.argv[2], "convergence")
    os.makedirs(out, exist_ok=True)
    bl = brentq(lambda b: math.cos(b) + 1 / math.cosh(b), 1.0, 3.0, xtol=1e-15, rtol=1e-15)
    A, Iy = Y * Z, Y * Z ** 3 / 12
    f_exact = bl * bl / (2 * math.pi * L * L) * math.sqrt(E * Iy / (RHO * A))
    print("closed form: beta_1 L = %.15g, f1 = %.12g Hz" % (bl, f_exact))
    errs = []
    for n in MESHES:
        deck = os.path.join(out, "conv%d.yaml" % n)
        with open(deck, "w") as f:
            f.write(DECK.format(n=n))
        r = subprocess.run([binary, "-q", "-o", out, deck], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
        if r.returncode != 0:
            print(r.stdout.decode(errors="replace")[-2000:])
            print("FAIL: mbmodal exit status %d on %s" % (r.returncode, deck))
            return 1
        with open(os.path.join(out, "conv%d.modal.yaml" % n)) as f:
            rep = yaml.load(f, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
        f1 = float(rep["modes"][0]["frequency_hz"])
        errs.append(abs(f1 - f_exact) / f_exact)
        line = "N = %2d  f1 = %.12g Hz  rel. error %.3e" % (n, f1, errs[-1])
        if len(errs) > 1:
            line += "  order %.2f" % math.log2(errs[-2] / errs[-1])
        print(line)
    ok = True
    for i in range(1, len(errs)):
        if not errs[i] < errs[i - 1]:
            print("FAIL: the error does not decrease from N = %d to %d" % (MESHES[i - 1], MESHES[i]))
            ok = False
        elif errs[i] > 1e-9:
            p = math.log2(errs[i - 1] / errs[i])
            if not 3.0 <= p <= 5.0:
                print("FAIL: order %.2f from N = %d to %d, expected about 4" % (p, MESHES[i - 1], MESHES[i]))
                ok = False
    print("convergence: %s" % ("ok, about 1/N^4" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
