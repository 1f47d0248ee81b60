#!/usr/bin/python3
"""make_beam_grid_deck.py: writes the beam-grid model deck (the scalability model of the
Krylov-Schur paper, sec. 6.4) for NCX x NCZ cells, the model form of ../shared/bench/beamgrid.py.

A planar grid of 3D Euler-Bernoulli beams in the x-z plane, cells WX = 1 m by WZ = 0.6 m, 3
elements per cell along x and 2 along z, material of the paper's Table 2 (E = 100 MPa,
rho = 1000 kg/m^3, nu = 0.31, section 0.3 m (global y) x 0.05 m, Rayleigh 1e-3 M + 1e-5 K).
Horizontal beams h0..h{NCZ} (along x, listed first) and vertical beams v0..v{NCX} (along z) own
separate nodes at each crossing: c<i>_<j>_h on the horizontal beam, c<i>_<j>_v on the vertical one
(i along x, j along z); a weld joins them, and the crossings of the bottom row (j = 0) are welded
to ground. Node order (beams in deck order, nodes along each beam), joint order (crossings sorted
by (i, j), weld then clamp) and row signs (+ horizontal, - vertical) are those of beamgrid.py, so
the assembled K, M, R are the same matrices (to rounding of the node coordinates) and Cq the same
rows (up to their order within a joint).
usage: /usr/bin/python3 scripts/make_beam_grid_deck.py NCX NCZ [OUT.yaml]   (default: stdout)
"""
import sys

WX, WZ = 1.0, 0.6      # cell size [m], as beamgrid.py
HX, VZ = 3, 2          # elements per cell along x and along z


def num(x):
    """A coordinate as the deck shows it: 15 significant digits (3 * 0.6 is written 1.8)."""
    return "%.15g" % x


def deck(ncx, ncz):
    out = []
    w = out.append
    w("# beam-grid.yaml: the beam grid of the Krylov-Schur paper (sec. 6.4), %d x %d cells." % (ncx, ncz))
    w("# Written by scripts/make_beam_grid_deck.py %d %d (edit that script, not this file)." % (ncx, ncz))
    w("#")
    w("# A planar grid of 3D Euler-Bernoulli beams in the x-z plane: cells of %g m (x) by %g m (z)," % (WX, WZ))
    w("# %d elements per cell along x, %d along z; material of the paper's Table 2 (E = 100 MPa," % (HX, VZ))
    w("# rho = 1000 kg/m^3, nu = 0.31, section 0.3 m along global y by 0.05 m in the plane),")
    w("# Rayleigh damping R = 1e-3 M + 1e-5 K. Horizontal beams h0..h%d and vertical beams v0..v%d" % (ncz, ncx))
    w("# own separate nodes at each crossing (c<i>_<j>_h and c<i>_<j>_v), welded together; the")
    w("# bottom crossings are welded to ground. SI units (m, kg, s, N, Pa).")
    w("# Same node and constraint order as ../shared/bench/beamgrid.py %d %d, so the assembled" % (ncx, ncz))
    w("# K, M, R are those of its matrix form, tests/decks/beam-grid-matrices.yaml (to rounding).")
    w("# References: beam-grid.ref.modal.yaml (scipy.linalg.eigh on the merged, unconstrained grid")
    w("# beamgrid.py writes, rtol 1e-8) and beam-grid.ref.complex.yaml (Rayleigh relation")
    w("# zeta = alpha / (2 omega) + beta omega / 2), from decks/make_beam_grid_ref.py.")
    w('title: "beam grid %d x %d cells, Table 2 beams, welded crossings, clamped base"' % (ncx, ncz))
    w("units: SI")
    w("")
    w("materials:")
    w("  table2: {E: 100.0e6, nu: 0.31, rho: 1000.0, alpha: 1.0e-3, beta: 1.0e-5}")
    w("sections:")
    w("  plate: {shape: rectangle, y: 0.3, z: 0.05}")
    w("")
    w("beams:")
    for j in range(ncz + 1):
        w("  h%d:" % j)
        w("    material: table2")
        w("    section: plate")
        w("    from: [0, 0, %s]" % num(j * WZ))
        w("    to: [%s, 0, %s]" % (num(ncx * WX), num(j * WZ)))
        w("    elements: %d" % (HX * ncx))
        w("    y_axis: [0, 1, 0]")
        w("    nodes: {%s}" % ", ".join("c%d_%d_h: %d" % (i, j, HX * i) for i in range(ncx + 1)))
    for i in range(ncx + 1):
        w("  v%d:" % i)
        w("    material: table2")
        w("    section: plate")
        w("    from: [%s, 0, 0]" % num(i * WX))
        w("    to: [%s, 0, %s]" % (num(i * WX), num(ncz * WZ)))
        w("    elements: %d" % (VZ * ncz))
        w("    y_axis: [0, 1, 0]")
        w("    nodes: {%s}" % ", ".join("c%d_%d_v: %d" % (i, j, VZ * j) for j in range(ncz + 1)))
    w("")
    w("joints:")
    for i in range(ncx + 1):
        for j in range(ncz + 1):
            w("  w%d_%d: {type: weld, nodes: [c%d_%d_v, c%d_%d_h]}" % (i, j, i, j, i, j))
            if j == 0:
                w("  clamp%d: {type: weld, nodes: [ground, c%d_%d_h]}" % (i, i, j))
    w("")
    w("modal:")
    w("  modes: 12               # the 12 lowest undamped modes")
    w("  tolerance: 1.0e-10")
    w("complex:")
    w("  modes: 8                # the 8 lowest damped modes (each conjugate pair once)")
    w("output:")
    w("  directory: out")
    w("  name: beam-grid")
    return "\n".join(out) + "\n"


def main():
    if len(sys.argv) not in (3, 4):
        sys.exit("usage: make_beam_grid_deck.py NCX NCZ [OUT.yaml]")
    ncx, ncz = int(sys.argv[1]), int(sys.argv[2])
    if ncx < 1 or ncz < 1:
        sys.exit("make_beam_grid_deck.py: NCX and NCZ must be >= 1")
    text = deck(ncx, ncz)
    if len(sys.argv) == 4:
        with open(sys.argv[3], "w") as f:
            f.write(text)
    else:
        sys.stdout.write(text)


if __name__ == "__main__":
    main()
