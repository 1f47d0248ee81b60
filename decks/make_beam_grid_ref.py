#!/usr/bin/python3
"""Writes the beam grid's matrices and references, independently of mbmodal:
  tests/decks/beam-grid-matrices/{K,M,R,Cq}.mtx   the matrix deck tests/decks/beam-grid-matrices.yaml
  tests/decks/beam-grid-matrices.ref.{modal,complex}.yaml and
  decks/beam-grid.ref.{modal,complex}.yaml        the same numbers for the model deck
                                                  decks/beam-grid.yaml (same structure)
  decks/beam-grid.yaml                            from scripts/make_beam_grid_deck.py 3 3

Matrices: ../shared/bench/beamgrid.py 3 3 (the paper's sec. 6.4 beam grid, Table 2 material).
Reference: scipy.linalg.eigh on the merged, unconstrained Kr, Mr that beamgrid.py also writes
(same finite eigenvalues as the constrained K, M, Cq); damped modes from the Rayleigh relation
zeta = alpha / (2 omega) + beta omega / 2 with alpha = 1e-3, beta = 1e-5 (R = alpha M + beta K).
usage: /usr/bin/python3 decks/make_beam_grid_ref.py [path/to/beamgrid.py]
"""
import math, os, subprocess, sys, tempfile
import numpy as np
import scipy.io as sio
import scipy.linalg as sla

here = os.path.dirname(os.path.abspath(__file__))
top = os.path.join(here, "..")
gen = sys.argv[1] if len(sys.argv) > 1 else os.path.join(top, "..", "shared", "bench", "beamgrid.py")
tmp = tempfile.mkdtemp()
subprocess.run(["/usr/bin/python3", gen, "3", "3", tmp], check=True)
mdir = os.path.join(top, "tests", "decks", "beam-grid-matrices")
os.makedirs(mdir, exist_ok=True)
for name in ("K", "M", "R", "Cq"):
    os.replace(os.path.join(tmp, name + ".mtx"), os.path.join(mdir, name + ".mtx"))
subprocess.run(["/usr/bin/python3", os.path.join(top, "scripts", "make_beam_grid_deck.py"), "3", "3",
                os.path.join(here, "beam-grid.yaml")], check=True)
Kr = sio.mmread(os.path.join(tmp, "Kr.mtx")).toarray()
Mr = sio.mmread(os.path.join(tmp, "Mr.mtx")).toarray()
w2 = sla.eigh(Kr, Mr, eigvals_only=True)
omega = np.sqrt(np.maximum(w2, 0.0))
alpha, beta = 1e-3, 1e-5


def head(f, deck, stage, lines):
    f.write("# %s reference (%s stage), written by decks/make_beam_grid_ref.py:\n" % (deck, stage))
    for line in lines:
        f.write("# " + line + "\n")
    f.write("format: mbmodal-report\nformat_version: 1\nstage: %s\nrtol: 1e-8\nmodes:\n" % stage)


for deck, ref in (("decks/beam-grid.yaml", os.path.join(here, "beam-grid")),
                  ("tests/decks/beam-grid-matrices.yaml", mdir)):
    with open(ref + ".ref.modal.yaml", "w") as f:
        head(f, deck, "modal", ["scipy.linalg.eigh (LAPACK dsygvd) on the reduced Kr, Mr of beamgrid.py 3 3"])
        for w in omega[:12]:
            f.write("  - frequency_hz: %.17g\n    kind: oscillatory\n" % (w / (2 * math.pi)))
    with open(ref + ".ref.complex.yaml", "w") as f:
        head(f, deck, "complex", ["omega from scipy.linalg.eigh on Kr, Mr; Rayleigh R = 1e-3 M + 1e-5 K:",
                                  "zeta = alpha / (2 omega) + beta omega / 2, lambda = -zeta omega + i omega sqrt(1 - zeta^2)"])
        for w in omega[:8]:
            z = alpha / (2 * w) + beta * w / 2
            f.write("  - frequency_hz: %.17g\n    damping_ratio: %.17g\n    eigenvalue: [%.17g, %.17g]\n    kind: oscillatory\n"
                    % (w / (2 * math.pi), z, -z * w, w * math.sqrt(1 - z * z)))
print("wrote tests/decks/beam-grid-matrices/, decks/beam-grid.yaml and the references; lowest f = %.6f Hz"
      % (omega[0] / (2 * math.pi)))
