#!/usr/bin/python3
"""frf.py: the frf section against direct dense solves (numpy), for tests/scripts/frf.sh.

  gen DIR: writes the decks and matrices:
    two.yaml    2 DOFs, K, M and a non-proportional R; damping: complex (all modes)
    mount.yaml  seed 003's engine mount (M singular); complex modes, full export
    chain.yaml  a free 3-mass chain (a rigid mode: the shifted correction); modal damping
                ratios [0, 0.02, 0.05] (all modes)
    cant.yaml, cant_nc.yaml  a clamped steel cantilever, 20 elements, 3 modes, undamped,
                with and without the static correction
  check DIR: the references, each an independent dense solve at every frequency:
    two:   (K + i w R - w^2 M) x = f                                         numpy.linalg
    chain: the same with R = M Phi diag(2 zeta w) Phi^T M (Phi: scipy.linalg.eigh)
    cant:  Z^T (K - w^2 M) Z y = Z^T f on the null space Z of Cq, K, M, Cq from
           tests/models/mbref.py (an independent Python model of the deck)
  and the CSV against the YAML, and scripts/plot_frf.py's draw() writes a PNG.
  State-space exports (two: modal from complex modes, chain: modal ratios, mount: seed
  003's engine mount, full): C (i w - A)^-1 B + D equals the frf section's FRF; eig(A)
  equals the damped stage's and numpy's companion matrix; the mount's A and B are the
  seed's (its misprinted A(3,3) corrected), its eigenvalues the seed's printed ones."""
import os
import sys

import numpy as np
import scipy.io
import scipy.sparse
import scipy.linalg as sla
import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(HERE, "..", "models"))
sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts"))
from testlib import Tally  # noqa: E402

K2 = np.array([[3e4, -1e4], [-1e4, 2e4]])
M2 = np.diag([2.0, 1.0])
R2 = np.array([[30.0, -5.0], [-5.0, 10.0]])
K3 = np.array([[1e4, -1e4, 0], [-1e4, 3e4, -2e4], [0, -2e4, 2e4]])
M3 = np.diag([1.0, 2.0, 1.5])
Z3 = [0.0, 0.02, 0.05]

TWO = """matrices: {K: K2.mtx, M: M2.mtx, R: R2.mtx}
modal: {enabled: false}
complex: {modes: 2}
output: {directory: out1}
frf:
  inputs: [{name: f1, dof: 1}, {dof: 2}]
  outputs: [{name: x1, dof: 1}, {name: v2, dof: 2, quantity: velocity},
            {name: v1, dof: 1, quantity: velocity}]
  frequencies: {min: 1, max: 100, count: 15}
  damping: complex
  state_space: ss_two
"""
CHAIN = """matrices: {K: K3.mtx, M: M3.mtx}
modal: {modes: 3}
output: {directory: out1}
frf:
  inputs: [{dof: 1}]
  outputs: [{dof: 3}, {dof: 2, quantity: acceleration}]
  frequencies: {min: 0.5, max: 40, count: 12, spacing: linear}
  damping: [0, 0.02, 0.05]
  state_space: ss_chain
"""
# seed 003's hydroelastic engine mount: m = 20 kg on y; y1, y2 massless (first order)
KM = np.array([[5500.0, 0, -500], [0, 1000, 0], [-500, 0, 1000]])
MM = np.diag([20.0, 0, 0])
RM = np.array([[100.0, -100, 0], [-100, 100, 0], [0, 0, 300]])
MOUNT = """matrices: {K: KM.mtx, M: MM.mtx, R: RM.mtx}
modal: {enabled: false}
complex: {modes: 3}
output: {directory: out1}
frf:
  inputs: [{name: F, dof: 1}]
  outputs: [{name: y, dof: 1}, {name: y1, dof: 2}, {name: a, dof: 1, quantity: acceleration},
            {name: v1, dof: 2, quantity: velocity}]
  frequencies: {min: 0.1, max: 20, count: 9}
  damping: complex
  state_space: ss_mount
  state_space_model: full
"""
# seed 003, section 3: eig of the original pencil and of its reduced A
SEED_EIG = [-0.6897 + 17.7059j, -0.6897 - 17.7059j, -8.7797, -3.1742]
CANT = """units: SI
materials:
  steel: {E: 2.0e11, nu: 0.3, rho: 7850.0}
sections:
  bar: {shape: rectangle, y: 0.02, z: 0.01}
beams:
  bar:
    material: steel
    section: bar
    from: [0, 0, 0]
    to: [1, 0, 0]
    elements: 20
    y_axis: [0, 1, 0]
    nodes: {root: start, tip: end}
joints:
  clamp: {type: weld, nodes: [ground, root]}
modal: {modes: 3}
output: {directory: out1, vtk: false}
frf:
  inputs: [{name: Fz, node: tip, direction: [0, 0, 1]}]
  outputs: [{name: uz, node: tip, direction: [0, 0, 1]}]
  frequencies: {min: 0.5, max: 7, count: 8}
  damping: 0
  static_correction: %s
"""


BAD_NODE = (CANT % "true").replace("node: tip, direction", "node: tpi, direction")


def check_bad(d, t):
    """A node that does not exist: exit 2 on 2 ranks, at the node's line:col, before the
    eigen stage (no table)."""
    with open(os.path.join(d, "bad.rc")) as f:
        rc = int(f.read())
    with open(os.path.join(d, "bad.log")) as f:
        log = f.read()
    line = next(i for i, x in enumerate(BAD_NODE.split("\n")) if "tpi" in x)
    col = BAD_NODE.split("\n")[line].index("tpi") + 1
    want = "bad_node.yaml:%d:%d: error: frf: input 'Fz': no node 'tpi'" % (line + 1, col)
    t.check(rc == 2 and want in log and "Undamped modes" not in log,
            "bad node: exit %d (want 2), %r in the log before any stage" % (rc, want))


def gen(d):
    for name, A in (("K2", K2), ("M2", M2), ("R2", R2), ("K3", K3), ("M3", M3),
                    ("KM", KM), ("MM", MM), ("RM", RM)):
        scipy.io.mmwrite(os.path.join(d, name + ".mtx"), scipy.sparse.coo_matrix(A))
    for name, text in (("two", TWO), ("chain", CHAIN), ("cant", CANT % "true"),
                       ("cant_nc", CANT % "false"), ("mount", MOUNT),
                       ("bad_node", BAD_NODE)):
        with open(os.path.join(d, name + ".yaml"), "w") as f:
            f.write(text)


def load(path):
    with open(path) as f:
        return yaml.load(f, Loader=yaml.CSafeLoader)


def computed(rep, o, k):
    """H of output o to input k (0-based) from the report."""
    for p in rep["pairs"]:
        if p["output"] == rep["outputs"][o]["name"] and p["input"] == rep["inputs"][k]["name"]:
            return np.array(p["real"]) + 1j * np.array(p["imag"])
    raise KeyError((o, k))


def direct(K, M, R, hz, b, c, power):
    """c^T x, (K + i w R - w^2 M) x = b, times (i w)^power, at every frequency."""
    out = []
    for f in hz:
        w = 2 * np.pi * f
        x = np.linalg.solve(K + 1j * w * R - w * w * M, b)
        out.append((c @ x) * (1j * w) ** power)
    return np.array(out)


def relerr(a, b):
    return float(np.max(np.abs(a - b) / np.abs(b)))


def check(d, t, out):
    """All checks of one run's output folder `out` (below d)."""
    tag = os.path.basename(out)
    # 2 DOFs, complex modes
    rep = load(os.path.join(d, out, "two.frf.yaml"))
    hz = np.array(rep["frequency_hz"])
    t.check(len(hz) == 15 and abs(hz[0] - 1) < 1e-12 and abs(hz[-1] - 100) < 1e-9,
            "%s two: log grid 1 .. 100 Hz" % tag)
    qty = [0, 1, 1]
    cols = [0, 1, 0]
    worst = 0.0
    for k in range(2):
        for o in range(3):
            ref = direct(K2, M2, R2, hz, np.eye(2)[k], np.eye(2)[cols[o]], qty[o])
            worst = max(worst, relerr(computed(rep, o, k), ref))
    t.check(worst < 1e-9, "%s two: complex-mode FRF vs direct solve, rel err %.2e" % (tag, worst))
    print("%s two (complex modes): max rel err %.2e vs (K + iwR - w^2 M)^-1" % (tag, worst))
    # free chain, modal damping
    rep = load(os.path.join(d, out, "chain.frf.yaml"))
    hz = np.array(rep["frequency_hz"])
    w2, phi = sla.eigh(K3, M3)
    w = np.sqrt(np.maximum(w2, 0))
    Rm = M3 @ phi @ np.diag(2 * np.array(Z3) * w) @ phi.T @ M3
    worst = 0.0
    for o, (row, pw) in enumerate(((2, 0), (1, 2))):
        ref = direct(K3, M3, Rm, hz, np.eye(3)[0], np.eye(3)[row], pw)
        worst = max(worst, relerr(computed(rep, o, 0), ref))
    t.check(worst < 1e-9, "%s chain: modal-damping FRF vs direct, rel err %.2e" % (tag, worst))
    t.check(rep["correction_shift"] < 0, "%s chain: a free model is corrected at a negative "
            "shift (%r)" % (tag, rep["correction_shift"]))
    print("%s chain (free, modal ratios): max rel err %.2e" % (tag, worst))
    # cantilever against mbref's dense model
    import mbref
    mdl, _ = mbref.load_deck(os.path.join(d, "cant.yaml"))
    K, M, _, Cq = mdl.matrices()
    Z = sla.null_space(Cq)
    tip = mdl.names["tip"]
    b = np.zeros(K.shape[0])
    b[6 * tip + 2] = 1.0
    Kz, Mz, bz = Z.T @ K @ Z, Z.T @ M @ Z, Z.T @ b
    errs = {}
    for name in ("cant", "cant_nc"):
        path = os.path.join(d, out, name + ".frf.yaml")
        if not os.path.exists(path):
            continue
        rep = load(path)
        hz = np.array(rep["frequency_hz"])
        ref = np.array([bz @ np.linalg.solve(Kz - (2 * np.pi * f) ** 2 * Mz, bz) for f in hz])
        errs[name] = relerr(computed(rep, 0, 0), ref)
        print("%s %s: tip receptance, max rel err %.2e vs the dense solve" % (tag, name,
                                                                              errs[name]))
        if name == "cant":
            # the method's own truncation: 3 modes plus sum_{j>3} g_j^2 / w_j^2 (eigh)
            w2, P = sla.eigh(Kz, Mz)
            g = P.T @ bz
            tr = np.array([np.sum(g[:3] ** 2 / (w2[:3] - (2 * np.pi * f) ** 2))
                           + np.sum(g[3:] ** 2 / w2[3:]) for f in hz])
            e = relerr(computed(rep, 0, 0), tr)
            t.check(e < 1e-8, "%s cant: = 3 modes + static remainder (eigh), rel err %.2e"
                    % (tag, e))
            print("%s cant: vs 3 modes + static remainder of the rest (eigh): %.2e" % (tag, e))
    t.check(errs["cant"] < 1e-5, "%s cant: corrected receptance rel err %.2e" % (tag,
                                                                                 errs["cant"]))
    if "cant_nc" in errs:
        t.check(errs["cant_nc"] > 1e-4 and errs["cant_nc"] > 100 * errs["cant"],
                "%s cant: without the correction the error (%.2e) is larger" % (
                    tag, errs["cant_nc"]))
    # the CSV holds the YAML's magnitude and phase
    rep = load(os.path.join(d, out, "two.frf.yaml"))
    tab = np.loadtxt(os.path.join(d, out, "two.frf.csv"), delimiter=",", skiprows=1)
    h = computed(rep, 1, 0)
    t.check(tab.shape == (15, 13) and np.allclose(tab[:, 3], np.abs(h), rtol=1e-14)
            and np.allclose(tab[:, 4], np.degrees(np.angle(h)), rtol=1e-13),
            "%s two: CSV = YAML magnitude and phase" % tag)


def ss_frf(folder, hz):
    """C (i w - A)^-1 B + D at every frequency: (nf, nout, nin); and A."""
    A, B, C, D = (scipy.io.mmread(os.path.join(folder, x + ".mtx")).toarray() for x in "ABCD")
    H = np.array([C @ np.linalg.solve(2j * np.pi * f * np.eye(A.shape[0]) - A, B) + D
                  for f in hz])
    return H, A, B


def check_ss(d, t, out, name, folder):
    """The exported model's FRF equals the frf section's (every pair)."""
    rep = load(os.path.join(d, out, name + ".frf.yaml"))
    hz = np.array(rep["frequency_hz"])
    H, A, B = ss_frf(os.path.join(d, out, folder), hz)
    worst = 0.0
    for k in range(len(rep["inputs"])):
        for o in range(len(rep["outputs"])):
            worst = max(worst, relerr(H[:, o, k], computed(rep, o, k)))
    t.check(worst < 1e-9, "%s %s: state-space FRF = the frf section's, rel err %.2e"
            % (out, name, worst))
    print("%s %s: state-space FRF vs the frf section: %.2e (%d states)" % (out, name, worst,
                                                                          A.shape[0]))
    return A, B


def damped_eigs(path):
    rep = load(path)
    lam = []
    for m in rep["modes"]:
        z = complex(m["eigenvalue"][0], m["eigenvalue"][1])
        lam += [z, z.conjugate()] if z.imag > 0 else [z]
    return np.array(lam)


def match(a, b):
    """max |a_i - b_p(i)| / |b| over the closest pairing (small sets)."""
    a, b = sorted(a, key=lambda z: (z.real, z.imag)), sorted(b, key=lambda z: (z.real, z.imag))
    if len(a) != len(b):
        return np.inf
    return max(min(abs(x - y) / abs(y) for y in b) for x in a)


def check_state_space(d, t, out):
    check_ss(d, t, out, "chain", "ss_chain")
    A, _ = check_ss(d, t, out, "two", "ss_two")
    e = match(np.linalg.eigvals(A), damped_eigs(os.path.join(d, out, "two.complex.yaml")))
    t.check(e < 1e-9, "%s two: eig(A) = the damped stage's, %.2e" % (out, e))
    Mi = np.linalg.inv(M2)
    comp = np.block([[np.zeros((2, 2)), np.eye(2)], [-Mi @ K2, -Mi @ R2]])
    e2 = match(np.linalg.eigvals(A), np.linalg.eigvals(comp))
    t.check(e2 < 1e-9, "%s two: eig(A) = eig of the companion matrix (numpy), %.2e" % (out, e2))
    print("%s two: eig(A) modal vs the damped stage: %.2e, vs numpy's companion: %.2e"
          % (out, e, e2))
    A, B = check_ss(d, t, out, "mount", "ss_mount")
    rep = load(os.path.join(d, out, "mount.frf.yaml"))
    hz = np.array(rep["frequency_hz"])
    worst = 0.0
    for o, (row, pw) in enumerate(((0, 0), (1, 0), (0, 2), (1, 1))):
        ref = direct(KM, MM, RM, hz, np.eye(3)[0], np.eye(3)[row], pw)
        worst = max(worst, relerr(computed(rep, o, 0), ref))
    t.check(worst < 1e-9, "%s mount: FRF (singular M) vs direct, rel err %.2e" % (out, worst))
    idx = load(os.path.join(d, out, "ss_mount", "index.yaml"))
    t.check(idx["states"] == 4 and idx["state_names"] == ["x1", "x2", "x3", "x1_dot"]
            and idx["dof_kinds"] == "icc", "%s mount: index.yaml names the states" % out)
    ev = np.linalg.eigvals(A)
    e = match(ev, damped_eigs(os.path.join(d, out, "mount.complex.yaml")))
    t.check(A.shape == (4, 4) and np.all(np.isfinite(ev)),
            "%s mount: A is 4 x 4 (2 N_i + N_c), every eigenvalue finite" % out)
    t.check(e < 1e-9, "%s mount: eig(A) full = the damped stage's, %.2e" % (out, e))
    es = max(min(abs(x - y) for y in SEED_EIG) for x in ev)
    t.check(es < 1e-4 * 20, "%s mount: eig(A) = seed 003's printed values, %.2e" % (out, es))
    # seed 003's A and B (its A(3, 3) = -1/300 is a misprint: C_h y2' = K_v y - (K_v + K_s)
    # y2 gives -10/3), states [y, y1, y2, y']
    As = np.array([[0, 0, 0, 1], [0, -10, 0, 1], [5 / 3, 0, -10 / 3, 0], [-275, -50, 25, 0]])
    t.check(np.allclose(A, As, rtol=1e-12, atol=1e-12) and np.allclose(B[:, 0], [0, 0, 0, 1 / 20]),
            "%s mount: A, B = seed 003's" % out)
    print("%s mount: eig(A) full vs the damped stage %.2e, vs seed 003 %.1e" % (out, e, es))


def main():
    d = sys.argv[2]
    if sys.argv[1] == "gen":
        gen(d)
        return
    t = Tally()
    for out in sys.argv[3:]:
        check(d, t, out)
        check_state_space(d, t, out)
    check_bad(d, t)
    import plot_frf
    png = os.path.join(d, "two.png")
    plot_frf.draw(load(os.path.join(d, sys.argv[3], "two.frf.yaml")), png)
    with open(png, "rb") as f:
        t.check(f.read(8) == b"\x89PNG\r\n\x1a\n", "plot_frf.draw wrote a PNG")
    t.finish("frf: %d checks, %d failed")


if __name__ == "__main__":
    main()
