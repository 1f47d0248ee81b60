"""testlib.py: what the Python check scripts of tests/scripts share: a tally of checks with
its closing lines, and the pinned steel rod that the statics and energy scripts load
(2 m, 20 mm round, E 2e11 Pa, rho 7850 kg/m^3, 40 elements, pinned at x = 0, on a roller
at x = 2 m, pulled along x by an end force; N < 0 compresses it)."""
import sys

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
