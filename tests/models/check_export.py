#!/usr/bin/python3
"""check_export.py: the beam-grid model deck assembles the matrices of its matrix form.

Runs decks/beam-grid.yaml with output.export_matrices and compares the exported K, M, R with
tests/decks/beam-grid-matrices/ (written by ../shared/bench/beamgrid.py, an independent Python
assembly of the same grid): max |difference| <= 1e-12 max |entry| (node coordinates are rounded
differently), and Cq with the same rows up to their order and sign.
usage: /usr/bin/python3 tests/models/check_export.py MBMODAL OUTDIR     (exit 0: the same)
"""
import os
import subprocess
import sys

import numpy as np
import scipy.io as sio

TOP = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def canonical_rows(C):
    """Rows with their first non-zero entry made positive, sorted: a row set up to order and sign."""
    rows = []
    for r in C:
        nz = np.flatnonzero(np.abs(r) > 1e-14 * np.abs(r).max())
        rows.append(tuple(np.round((r if r[nz[0]] > 0 else -r) / np.abs(r).max(), 12)))
    return np.array(sorted(rows))


def main():
    binary, out = sys.argv[1], os.path.join(sys.argv[2], "export")
    mats = os.path.join(out, "matrices")
    os.makedirs(mats, exist_ok=True)
    with open(os.path.join(TOP, "decks", "beam-grid.yaml")) as f:
        text = f.read()
    deck = os.path.join(out, "beam-grid-export.yaml")
    with open(deck, "w") as f:
        f.write(text.replace("complex:\n  modes: 8", "complex:\n  enabled: false") +
                "  export_matrices: %s\n  vtk: false\n" % mats)
    r = subprocess.run([binary, "-q", "-o", out, deck], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    if r.returncode != 0:
        print(r.stdout.decode(errors="replace")[-2000:])
        print("FAIL: mbmodal exit status %d" % r.returncode)
        return 1
    ok = True
    ref = os.path.join(TOP, "tests", "decks", "beam-grid-matrices")
    for name in ("K", "M", "R", "Cq"):
        a = sio.mmread(os.path.join(mats, name + ".mtx")).toarray()
        b = sio.mmread(os.path.join(ref, name + ".mtx")).toarray()
        if a.shape != b.shape:
            print("FAIL %s: shape %s, beamgrid.py %s" % (name, a.shape, b.shape))
            ok = False
            continue
        if name == "Cq":
            a, b = canonical_rows(a), canonical_rows(b)
        d = np.abs(a - b).max() / np.abs(b).max()
        good = d <= 1e-12
        ok = ok and good
        print("%-2s %s: max |diff| / max |entry| = %.2e  %s" % (name, a.shape, d, "ok" if good else "FAIL"))
    print("check_export: %s" % ("the model deck assembles beamgrid.py's matrices" if ok else "FAILED"))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
