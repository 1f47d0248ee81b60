"""testlib.py: what the Python check scripts of tests/scripts share: a tally of checks with
its closing lines, a deck run on 1 and 2 ranks read back as its modes' frequencies, and the pinned steel rod that the statics and energy scripts load
(2 m, 20 mm round, E 2e11 Pa, rho 7850 kg/m^3, 40 elements, pinned at x = 0, on a roller
at x = 2 m, pulled along x by an end force; N < 0 compresses it)."""
import os
import subprocess
import sys

import numpy as np
import yaml

ROD = """units: SI
materials:
  steel: {E: 2.0e11, nu: 0.3, rho: 7850.0}
sections:
  rod: {shape: circle, diameter: 0.02}
beams:
  rod:
    material: steel
    section: rod
    from: [0, 0, 0]
    to: [2, 0, 0]
    elements: 40
    y_axis: [0, 1, 0]
    nodes: {left: start, right: end}
joints:
  pin: {type: lock, nodes: [ground, left], dofs: [x, y, z, rx]}
  roller: {type: lock, nodes: [ground, right], dofs: [y, z]}
forces:
  pull: {type: force, node: right, value: [%r, 0, 0]}
modal:
  modes: %d
%sstatics:
  method: fim
"""


def pinned_rod(force, modes, vtk=True):
    """The rod deck's text with end force `force` [N] and `modes` undamped modes."""
    return ROD % (force, modes, "" if vtk else "output: {vtk: false}\n")


class Tally:
    """Counts checks and keeps the descriptions of those that failed."""

    def __init__(self):
        self.fails, self.checks = [], 0

    def check(self, cond, what):
        self.checks += 1
        if not cond:
            self.fails.append(what)

    def finish(self, line):
        """Prints each failure, then `line` % (checks, failed); exits 1 on a failure."""
        for f in self.fails:
            print("FAIL " + f)
        print(line % (self.checks, len(self.fails)))
        sys.exit(1 if self.fails else 0)


def modal_on_ranks(T, binary, deck, out, name):
    """Runs deck (a path) on 1 and 2 MPI ranks into out/np1, out/np2 (no vectors), checking
    each exit status with T. Returns (frequencies [Hz] of each run that succeeded, as numpy
    arrays, 1 rank first; the part holding the largest kinetic energy share of each mode of
    the 1-rank run, or None)."""
    got, owner = [], None
    for np_ in (1, 2):
        od = os.path.join(out, "np%d" % np_)
        r = subprocess.run(["timeout", "300", "mpirun", "--oversubscribe", "-np", str(np_), binary,
                            "-q", "--no-vectors", deck, "-o", od], capture_output=True, text=True)
        T.check(r.returncode == 0, "np %d: exit %d %s" % (np_, r.returncode, r.stderr[-400:]))
        if r.returncode:
            continue
        with open(os.path.join(od, name + ".modal.yaml")) as f:
            rep = yaml.load(f, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
        got.append(np.array([m["frequency_hz"] for m in rep["modes"]]))
        if np_ == 1:
            owner = [max(m["energy"]["kinetic"], key=lambda p: p["share"])["part"]
                     for m in rep["modes"]]
    return got, owner
