#!/usr/bin/python3
"""make_refs.py: writes the model test decks of tests/models/ and the references of every model
deck (tests/models/*.yaml and decks/*.yaml except the beam grid), independently of mbmodal.

Sources of the reference numbers (each reference file says which, and its tolerance):
  closed forms  Euler-Bernoulli beams (cantilever_eb, free_free_eb), the clamped beam with a tip
                body (tip_mass: the 4x4 boundary-value determinant, solved here numerically), a
                hinged bar with a tip spring (hinged_bar). The finite-element frequencies converge
                to them with the mesh; each reference keeps only the modes that the deck's mesh
                resolves to well within its rtol (judged with the independent Python model below).
  mbref.py      an independent dense Python model of the deck (tests/models/mbref.py: textbook
                beam, body, spring, bushing and joint matrices), solved on the null space of Cq
                with scipy.linalg.eigh / eig and refined by Newton's method in long double:
                the exact eigenvalues of the same discrete model, so rtol 1e-8 (the solver's
                accuracy, not the mesh's).
Every reference starts with comment lines giving the source; `rtol:` is the tolerance mbmodal
compare uses; `# rigid-body modes: N` (when present) is checked by tests/run.sh against the
number of modes of kind rigid-body in the report.
usage: /usr/bin/python3 tests/models/make_refs.py        (a few seconds; rewrites the files)
"""
import math
import tempfile
import os
import sys

import numpy as np
from scipy.optimize import brentq

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, "..", ".."))
sys.dont_write_bytecode = True     # no __pycache__ in the tree
sys.path.insert(0, HERE)
import mbref  # noqa: E402

TWO_PI = 2 * math.pi


# ---------------------------------------------------------------- reference files
def write_ref(path, stage, header, modes, rtol, rigid=None):
    """modes: dicts with f [Hz], kind, and for the complex stage zeta and lam (complex)."""
    with open(path, "w") as f:
        f.write("# %s: reference for %s (%s stage), written by tests/models/make_refs.py.\n"
                % (os.path.relpath(path, TOP), os.path.relpath(path, TOP).split(".ref.")[0] + ".yaml", stage))
        for line in header:
            f.write("# " + line + "\n")
        f.write("# compare: --rtol %g\n" % rtol)
        if rigid is not None:
            f.write("# rigid-body modes: %d\n" % rigid)
        f.write("format: mbmodal-report\nformat_version: 1\nstage: %s\nrtol: %g\nmodes:\n" % (stage, rtol))
        for m in modes:
            f.write("  - frequency_hz: %.17g\n" % m["f"])
            if "zeta" in m:
                f.write("    damping_ratio: %.17g\n" % m["zeta"])
            if "lam" in m:
                f.write("    eigenvalue: [%.17g, %.17g]\n" % (m["lam"].real, m["lam"].imag))
            f.write("    kind: %s\n" % m["kind"])


def modal_modes(w2, rigid):
    return ([{"f": 0.0, "kind": "rigid-body"}] * rigid +
            [{"f": math.sqrt(w) / TWO_PI, "kind": "oscillatory"} for w in w2[rigid:]])


def complex_mode(lam):
    """A damped mode from its eigenvalue (Im >= 0)."""
    w = abs(lam)
    if abs(lam.imag) <= 1e-12 * w:
        return {"f": w / TWO_PI, "zeta": 1.0, "kind": "overdamped"}
    return {"f": w / TWO_PI, "zeta": -lam.real / w, "lam": lam, "kind": "oscillatory"}


def rayleigh_mode(w, a, b):
    """zeta = a / (2 omega) + b omega / 2, lambda = -zeta omega + i omega sqrt(1 - zeta^2)."""
    z = a / (2 * w) + b * w / 2
    assert z < 1
    return {"f": w / TWO_PI, "zeta": z, "lam": complex(-z * w, w * math.sqrt(1 - z * z)), "kind": "oscillatory"}


def deck_modes(path, stage):
    import yaml
    with open(path) as f:
        d = yaml.load(f, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    return int(((d.get(stage) or {}).get("modes", 10)))


# ---------------------------------------------------------------- closed forms
def roots(fun, count, hi_step=0.05, start=1e-6):
    """The first `count` roots of fun on (start, inf), bracketed by sign changes on a grid."""
    out, x0, f0 = [], start, fun(start)
    while len(out) < count:
        x1 = x0 + hi_step
        f1 = fun(x1)
        if f0 == 0.0:
            out.append(x0)
        elif f0 * f1 < 0:
            out.append(brentq(fun, x0, x1, xtol=1e-15, rtol=1e-15, maxiter=200))
        x0, f0 = x1, f1
    return out


def clamped_free_betas(count):
    """beta_n L of a clamped-free beam: cos(bL) cosh(bL) + 1 = 0 (1.8751, 4.6941, 7.8548, ...)."""
    return roots(lambda b: math.cos(b) + 1 / math.cosh(b), count)


def free_free_betas(count):
    """beta_n L of a free-free beam: cos(bL) cosh(bL) - 1 = 0 (4.7300, 7.8532, ...), bL > 0."""
    return roots(lambda b: math.cos(b) - 1 / math.cosh(b), count, start=1.0)


def bending(bl, L, E, I, rho, A):
    """f = (beta L)^2 / (2 pi L^2) sqrt(E I / (rho A))."""
    return bl * bl / (TWO_PI * L * L) * math.sqrt(E * I / (rho * A))


def tip_body_bending(count, L, E, I, rho, A, Mt, Jt):
    """Clamped beam with a tip body (mass Mt, rotary inertia Jt about the bending axis, centre of
    mass at the tip). W(x) = a1 cosh bx + a2 sinh bx + a3 cos bx + a4 sin bx, omega^2 = E I b^4 /
    (rho A); boundary conditions W(0) = 0, W'(0) = 0, E I W''(L) = omega^2 Jt W'(L) (the body's
    inertia moment), E I W'''(L) = -omega^2 Mt W(L) (its inertia force). Roots of the 4x4
    determinant in b; returns the frequencies [Hz]."""
    def det(bL):
        b = bL / L
        w2 = E * I * b ** 4 / (rho * A)
        ch, sh, c, s = math.cosh(bL), math.sinh(bL), math.cos(bL), math.sin(bL)
        W = [ch, sh, c, s]
        W1 = [b * sh, b * ch, -b * s, b * c]
        W2 = [b * b * ch, b * b * sh, -b * b * c, -b * b * s]
        W3 = [b ** 3 * sh, b ** 3 * ch, b ** 3 * s, -b ** 3 * c]
        Mx = np.array([[1, 0, 1, 0], [0, 1, 0, 1],
                       [E * I * W2[k] - w2 * Jt * W1[k] for k in range(4)],
                       [E * I * W3[k] + w2 * Mt * W[k] for k in range(4)]])
        return np.linalg.det(Mx) / (ch * ch * (1 + b ** 6))    # scaled, same roots
    return [bending(bl, L, E, I, rho, A) for bl in roots(det, count, hi_step=0.01, start=0.05)]


def tip_body_rod(count, L, stiff, inertia_per_length, tip):
    """Axial or torsional rod, clamped, with a tip mass (inertia) `tip`: u = sin(k x),
    k = omega sqrt(inertia_per_length / stiff), stiff k cos(kL) = tip omega^2 sin(kL), i.e.
    (kL) tan(kL) = inertia_per_length L / tip. stiff = E A (inertia rho A) or G J (rho Ip)."""
    ratio = inertia_per_length * L / tip
    c = math.sqrt(stiff / inertia_per_length)    # wave speed
    kls = roots(lambda x: x * math.sin(x) - ratio * math.cos(x), count, hi_step=0.01)
    return [kl * c / (TWO_PI * L) for kl in kls]


# ---------------------------------------------------------------- deck writing
TABLE2 = "  table2: {E: 100.0e6, nu: 0.31, rho: 1000.0}            # Table 2 of the paper, no damping\n"
E2, NU2, RHO2 = 100e6, 0.31, 1000.0
G2 = E2 / (2 * (1 + NU2))


def write_deck(name, header, body, modes, extra=""):
    path = os.path.join(HERE, name + ".yaml")
    with open(path, "w") as f:
        f.write("# %s.yaml: %s\n" % (name, header[0]))
        for line in header[1:]:
            f.write("# " + line + "\n")
        f.write("# Written by tests/models/make_refs.py (edit there); reference: %s.ref.modal.yaml.\n" % name)
        f.write(body)
        f.write("modal:\n  modes: %d\n%s" % (modes, extra))
    return path


def fe_freqs(path, count=None, refine=True):
    """Model, rigid-body count and omega^2 of a deck (refined in long double, or plain eigh)."""
    mdl, _ = mbref.load_deck(path)
    nr = mbref.rigid_count(mdl)
    w2 = mbref.Refiner(mdl).undamped(nr, count) if refine else mdl.undamped()
    return mdl, nr, w2


def select_resolved(closed, fe_f, rtol):
    """Closed-form frequencies whose nearest FE frequency is within rtol / 2 (resolved)."""
    keep = []
    for f in sorted(closed):
        err = min(abs(fe_f - f)) / f
        if err <= rtol / 2:
            keep.append(f)
    return keep


def closed_form_deck(name, header, body, closed, rtol, rigid, ref_header):
    """Writes a deck asking enough modes for every resolved closed-form mode, and its reference."""
    path = write_deck(name, header, body, 60)
    _, nr, w2 = fe_freqs(path, refine=False)
    assert nr == rigid, (name, nr)
    fe_f = np.sqrt(np.maximum(w2, 0)) / TWO_PI
    keep = select_resolved(closed, fe_f, rtol)
    keep = [f for f in keep if np.sum(fe_f <= f * (1 + rtol)) < MAX_MODES]   # keep the run short
    modes = int(np.sum(fe_f <= keep[-1] * (1 + rtol))) + 1
    write_deck(name, header, body, modes)
    worst = max(min(abs(fe_f - f)) / f for f in keep)
    write_ref(os.path.join(HERE, name + ".ref.modal.yaml"), "modal",
              ref_header + ["%d of the closed-form modes below %.4g Hz are resolved by the mesh to %.1e"
                            % (len(keep), keep[-1], worst),
                            "(mbref.py, independent Python FE); the others are left out. rtol %g." % rtol],
              [{"f": 0.0, "kind": "rigid-body"}] * rigid + [{"f": f, "kind": "oscillatory"} for f in keep],
              rtol, rigid)
    return keep


# ---------------------------------------------------------------- test decks
RTOL_EB = 1e-3
MAX_MODES = 30      # modes a closed-form deck asks at most
N_EB = 48


def cantilever_eb():
    L = 2.0
    y, z = 0.3, 0.05
    A, Iy, Iz, J = y * z, y * z ** 3 / 12, z * y ** 3 / 12, mbref.section_props({"shape": "rectangle", "y": y, "z": z})[3]
    d = np.array([1.0, 2.0, 2.0]) / 3.0 * L
    body = ("units: SI\nmaterials:\n" + TABLE2 +
            "sections:\n  plate: {shape: rectangle, y: 0.3, z: 0.05}\n"
            "beams:\n  beam:\n    material: table2\n    section: plate\n    from: [0, 0, 0]\n"
            "    to: [%.17g, %.17g, %.17g]        # 2 m along (1, 2, 2) / 3\n"
            "    elements: %d\n    y_axis: [0, 0, 1]\n    nodes: {root: start}\n"
            "joints:\n  clamp: {type: weld, nodes: [ground, root]}\n" % (d[0], d[1], d[2], N_EB))
    bl = clamped_free_betas(8)
    closed = [bending(b, L, E2, Iy, RHO2, A) for b in bl] + [bending(b, L, E2, Iz, RHO2, A) for b in bl]
    closed += [(2 * k - 1) / (4 * L) * math.sqrt(G2 * J / (RHO2 * (Iy + Iz))) for k in range(1, 6)]
    closed += [(2 * k - 1) / (4 * L) * math.sqrt(E2 / RHO2) for k in range(1, 4)]
    closed_form_deck(
        "cantilever_eb",
        ["Euler-Bernoulli cantilever against its closed forms.",
         "Table 2 beam (E = 100 MPa, nu = 0.31, rho = 1000 kg/m^3, section 0.3 m x 0.05 m), L = 2 m",
         "along the oblique direction (1, 2, 2) / 3, section y axis from [0, 0, 1], %d elements," % N_EB,
         "clamped base (weld to ground). SI units."],
        body, closed, RTOL_EB, 0,
        ["closed forms (Euler-Bernoulli), L = 2 m, E = 100 MPa, G = E / (2 (1 + nu)), rho = 1000:",
         "bending in both planes f = (beta_n L)^2 / (2 pi L^2) sqrt(E I / (rho A)), I = Iy, Iz,",
         "cos(bL) cosh(bL) = -1 (beta_n L = 1.87510407, 4.69409113, 7.85475744, ... solved here);",
         "torsion f = (2k - 1) / (4 L) sqrt(G J / (rho Ip)), Ip = Iy + Iz (the beam's torsional mass);",
         "axial f = (2k - 1) / (4 L) sqrt(E / rho)."])


def free_free_eb():
    L = 2.0
    A, I, _, J = mbref.section_props({"shape": "tube", "outer_diameter": 0.1, "wall": 0.005})
    E, nu, rho = 210e9, 0.3, 7850.0
    G = E / (2 * (1 + nu))
    body = ("units: SI\nmaterials:\n  steel: {E: 210.0e9, nu: 0.3, rho: 7850.0}\n"
            "sections:\n  pipe: {shape: tube, outer_diameter: 0.1, wall: 0.005}\n"
            "beams:\n  pipe:\n    material: steel\n    section: pipe\n    from: [0, 0, 0]\n    to: [2, 0, 0]\n"
            "    elements: %d\n" % N_EB)
    bl = free_free_betas(8)
    closed = [bending(b, L, E, I, rho, A) for b in bl] * 2       # Iy = Iz: each bending mode twice
    closed += [k / (2 * L) * math.sqrt(G * J / (rho * 2 * I)) for k in range(1, 6)]
    closed += [k / (2 * L) * math.sqrt(E / rho) for k in range(1, 4)]
    closed_form_deck(
        "free_free_eb",
        ["free-free Euler-Bernoulli beam against its closed forms.",
         "Steel tube (E = 210 GPa, nu = 0.3, rho = 7850 kg/m^3, outer diameter 0.1 m, wall 5 mm),",
         "L = 2 m along x, %d elements, no constraint: 6 rigid-body modes, then bending modes in" % N_EB,
         "pairs (Iy = Iz: repeated eigenvalues, any basis), torsion and axial. SI units."],
        body, closed, RTOL_EB, 6,
        ["closed forms (Euler-Bernoulli), L = 2 m, E = 210 GPa, G = E / (2 (1 + nu)), rho = 7850:",
         "6 rigid-body modes; bending f = (beta_n L)^2 / (2 pi L^2) sqrt(E I / (rho A)), twice each",
         "(Iy = Iz), cos(bL) cosh(bL) = 1 (beta_n L = 4.73004074, 7.85320462, ... solved here);",
         "torsion f = k / (2 L) sqrt(G J / (rho Ip)), Ip = Iy + Iz = J; axial f = k / (2 L) sqrt(E / rho)."])


def tip_mass():
    L = 2.0
    y, z = 0.3, 0.05
    A, Iy, Iz, J = mbref.section_props({"shape": "rectangle", "y": y, "z": z})
    Mt, Jxx, Jyy, Jzz = 20.0, 0.6, 0.5, 0.2
    body = ("units: SI\nmaterials:\n" + TABLE2 +
            "sections:\n  plate: {shape: rectangle, y: 0.3, z: 0.05}\n"
            "bodies:\n  tip_body:\n    mass: %g\n    inertia: [%g, %g, %g]\n    position: [0, 0, 2]\n"
            "beams:\n  beam:\n    material: table2\n    section: plate\n    from: [0, 0, 0]\n    to: [0, 0, 2]\n"
            "    elements: %d\n    y_axis: [0, 1, 0]\n    nodes: {root: start, tip: end}\n"
            "joints:\n  clamp: {type: weld, nodes: [ground, root]}\n"
            "  tip_weld: {type: weld, nodes: [tip, tip_body]}\n" % (Mt, Jxx, Jyy, Jzz, N_EB))
    # local axes: x = global z (beam), y = global y, z = global -x. Bending with Iy moves the tip
    # along global x and turns it about global y (Jyy); bending with Iz: along y, about x (Jxx).
    closed = tip_body_bending(7, L, E2, Iy, RHO2, A, Mt, Jyy) + tip_body_bending(5, L, E2, Iz, RHO2, A, Mt, Jxx)
    closed += tip_body_rod(5, L, G2 * J, RHO2 * (Iy + Iz), Jzz) + tip_body_rod(3, L, E2 * A, RHO2 * A, Mt)
    closed_form_deck(
        "tip_mass",
        ["cantilever with a rigid tip body against the closed-form frequency equations.",
         "Table 2 beam (E = 100 MPa, nu = 0.31, rho = 1000 kg/m^3, section 0.3 m x 0.05 m), L = 2 m",
         "along z, %d elements, clamped base; a %g kg body (inertia %g, %g, %g kg m^2 about x, y, z)" % (N_EB, Mt, Jxx, Jyy, Jzz),
         "with its centre of mass at the tip, welded to it. SI units."],
        body, closed, RTOL_EB, 0,
        ["closed forms: Euler-Bernoulli beam, clamped, tip body M = 20 kg, J = (0.6, 0.5, 0.2) kg m^2:",
         "bending: W = a1 cosh bx + a2 sinh bx + a3 cos bx + a4 sin bx, omega^2 = E I b^4 / (rho A),",
         "W(0) = W'(0) = 0, E I W''(L) = omega^2 Jt W'(L), E I W'''(L) = -omega^2 M W(L): roots of the",
         "4x4 determinant (Iy with Jt = Jyy, Iz with Jt = Jxx); torsion (kL) tan(kL) = rho Ip L / Jzz,",
         "k = omega sqrt(rho Ip / (G J)); axial (kL) tan(kL) = rho A L / M, k = omega sqrt(rho / E)."])


def hinged_bar():
    m, L, k = 2.0, 0.8, 500.0
    c, s = math.cos(math.radians(30)), math.sin(math.radians(30))
    Jcm = m * L * L / 12
    cm = (L / 2 * c, L / 2 * s)
    tip = (L * c, L * s)
    anchor = (tip[0] - 0.3 * s, tip[1] + 0.3 * c)       # 0.3 m from the tip, perpendicular to the bar
    body = ("units: SI\nbodies:\n  bar:\n    mass: %g\n"
            "    inertia: [1.0e-4, %.17g, %.17g]     # slender bar: m L^2 / 12 about its cross axes\n"
            "    position: [%.17g, %.17g, 0]\n    orientation: {axis: [0, 0, 1], degrees: 30}\n"
            "joints:\n  hinge: {type: revolute, nodes: [ground, bar], at: [0, 0, 0], axis: [0, 0, 1]}\n"
            "forces:\n  tip_spring:\n    type: spring\n    nodes: [bar, ground]\n"
            "    points: [[%.17g, %.17g, 0], [%.17g, %.17g, 0]]\n    k: %g\n"
            % (m, Jcm, Jcm, cm[0], cm[1], tip[0], tip[1], anchor[0], anchor[1], k))
    write_deck("hinged_bar", ["a rigid bar hinged to ground with a spring at its tip: one mode in closed form.",
                              "Bar: 2 kg, 0.8 m, at 30 degrees in the x-y plane, hinged at the origin about z;",
                              "a 500 N/m spring from its tip to a ground point 0.3 m away, perpendicular to the bar.",
                              "SI units."], body, 1)
    Jp = Jcm + m * (L / 2) ** 2
    f = math.sqrt(k * L * L / Jp) / TWO_PI
    mdl, nr, w2 = fe_freqs(os.path.join(HERE, "hinged_bar.yaml"))
    assert nr == 0 and len(w2) == 1 and abs(math.sqrt(w2[0]) / TWO_PI - f) < 1e-12 * f
    write_ref(os.path.join(HERE, "hinged_bar.ref.modal.yaml"), "modal",
              ["closed form: f = (1 / 2 pi) sqrt(k L^2 / J_pivot), J_pivot = J_cm + m (L / 2)^2 = m L^2 / 3",
               "(k = 500 N/m, L = 0.8 m, m = 2 kg, J_cm = m L^2 / 12); rtol 1e-9."],
              [{"f": f, "kind": "oscillatory"}], 1e-9, 0)


# Rigid-body counts: a link body A held to ground by one joint, and a tool body B on a bushing
# to A (so the rest of the modes are elastic). Expected rigid-body modes per joint (6 minus the
# rows it locks, the relative motions it leaves free).
JOINTS = [
    ("revolute", 1, "{type: revolute, nodes: [ground, link], at: [0, 0, 0], axis: [0, 0.6, 0.8]}",
     "turns about its axis"),
    ("spherical", 3, "{type: spherical, nodes: [ground, link], at: [0, 0, 0]}", "three rotations"),
    ("cylindrical", 2, "{type: cylindrical, nodes: [ground, link], at: [0, 0, 0], axis: [1, 1, 0]}",
     "slides along and turns about its axis"),
    ("prismatic", 1, "{type: prismatic, nodes: [ground, link], axis: [0.3, -0.2, 1]}", "slides along its axis"),
    ("universal", 2, "{type: universal, nodes: [ground, link], at: [0, 0, 0], axes: [[1, 0, 0], [0, 1, 0.5]]}",
     "two rotations"),
    ("planar", 3, "{type: planar, nodes: [ground, link], axis: [0, 0, 1]}", "moves in the x-y plane"),
    ("lock", 3, "{type: lock, nodes: [ground, link], at: [0, 0, 0], frame: {axis: [1, 0, 0], degrees: 20}, dofs: [x, y, rz]}",
     "locks x, y and rz of a rotated frame"),
    ("distance", 5, "{type: distance, nodes: [ground, link], points: [[-0.3, 0.2, 0.4], [0.2, 0.1, 0.05]]}",
     "keeps one distance"),
]
LINK_TOOL = (
    "units: SI\nbodies:\n"
    "  link:\n    mass: 3.0\n    inertia: [0.02, 0.03, 0.04]\n    position: [0.2, 0.1, 0.05]\n"
    "    orientation: {axis: [1, 1, 1], degrees: 25}\n"
    "  tool:\n    mass: 1.2\n    inertia: [[0.004, 0.0005, 0], [0.0005, 0.005, 0], [0, 0, 0.006]]\n"
    "    position: [0.5, 0.2, 0.1]\n")
TOOL_BUSHING = (
    "forces:\n  mount:\n    type: bushing\n    nodes: [link, tool]\n    at: [0.35, 0.15, 0.08]\n"
    "    frame: {axis: [0, 0, 1], degrees: 30}\n"
    "    stiffness: [2.0e4, 3.0e4, 4.0e4, 50, 60, 70]     # [N/m] x3, [N m/rad] x3\n")


def joint_decks():
    for (jt, rigid, joint, what) in JOINTS:
        name = "joint_" + jt
        body = LINK_TOOL + "joints:\n  hold: " + joint + "\n" + TOOL_BUSHING
        path = write_deck(name, ["rigid-body mode count of a %s joint: %d." % (jt, rigid),
                                 "A 3 kg link body held to ground by one %s joint (%s) carries a" % (jt, what),
                                 "1.2 kg tool body on a bushing: %d rigid-body modes, then 6 elastic ones" % rigid,
                                 "(the deck asks the lowest 4 of them). SI units."], body, rigid + 4)
        ref_mbref(path, name, rigid, ["%s joint: 6 - locked = %d rigid-body modes, asserted here from the" % (jt, rigid),
                                      "null space of Z^T K Z; then elastic modes of the bushing mount"])
        if jt == "revolute":     # the same deck asking every finite eigenvalue (n - m = 7)
            path = write_deck("all_modes", ["every finite mode of a small pencil: joint_revolute.yaml asking all 7.",
                                            "n = 12 DOFs, m = 5 constraint rows: the pencil of order 17 has 7 finite",
                                            "eigenvalues (1 rigid-body, 6 elastic) and 10 infinite ones. SI units."],
                              body, 7)
            ref_mbref(path, "all_modes", rigid, ["revolute joint: 1 rigid-body mode and the 6 elastic modes of the",
                                                 "bushing mount: all the finite eigenvalues"])
    # free body and a welded pair
    path = write_deck("free_body", ["one free rigid body: 6 rigid-body modes and nothing else.",
                                    "K = 0 (no element gives stiffness); M = diag(m I, R J R^T); the deck asks",
                                    "all 6 modes of the 6 DOFs. SI units."],
                      "units: SI\nbodies:\n  block:\n    mass: 3.0\n    inertia: [0.02, 0.03, 0.04]\n"
                      "    position: [0.2, 0.1, 0.05]\n    orientation: {axis: [1, 1, 1], degrees: 25}\n", 6)
    ref_mbref(path, "free_body", 6, ["a free body: 6 rigid-body modes (K = 0)"])
    body = (LINK_TOOL + "  base:\n    mass: 2.0\n    inertia: [0.01, 0.012, 0.014]\n    position: [-0.2, 0, 0]\n"
            "joints:\n  glue: {type: weld, nodes: [base, link], at: [0, 0.05, 0]}\n" + TOOL_BUSHING)
    path = write_deck("welded_pair", ["two free bodies welded together: 6 rigid-body modes.",
                                      "A 2 kg base welded to the 3 kg link; the 1.2 kg tool on a bushing to the",
                                      "link gives 6 elastic modes (the deck asks 4). No ground. SI units."], body, 10)
    ref_mbref(path, "welded_pair", 6, ["two welded bodies move as one: 6 rigid-body modes; the 6 elastic modes of",
                                       "the bushing mount (the lowest 4)"])


def ref_mbref(path, name, rigid, lines, rtol=1e-8):
    nm = deck_modes(path, "modal")
    mdl, nr, w2 = fe_freqs(path, nm)
    assert nr == rigid, (name, nr, rigid)
    write_ref(os.path.join(HERE, name + ".ref.modal.yaml"), "modal",
              lines + ["(eigenvalues: scipy.linalg.eigh on the null space of Cq of the model assembled by",
                       "tests/models/mbref.py, independent Python, refined in long double); rtol %g." % rtol],
              modal_modes(w2[:nm], rigid), rtol, rigid)


def mass_spring():
    """Four bodies on springs, a bushing and a rotational spring, all grounded: no rigid mode."""
    body = (
        "units: SI\nbodies:\n"
        "  b1: {mass: 2.0, inertia: [0.02, 0.025, 0.03], position: [0, 0, 0]}\n"
        "  b2: {mass: 1.5, inertia: [0.01, 0.015, 0.02], position: [0.5, 0.1, 0],\n"
        "       orientation: {axis: [0, 1, 0], degrees: 40}}\n"
        "  b3: {mass: 3.0, inertia: [0.05, 0.04, 0.03], position: [1.0, -0.1, 0.2]}\n"
        "  b4: {mass: 1.0, inertia: [0.006, 0.008, 0.01], position: [1.4, 0.3, 0.1],\n"
        "       orientation: {x: [1, 1, 0], y: [0, 0, 1]}}\n"
        "forces:\n"
        "  ground_mount:    # b1 on a bushing to ground, in a frame turned 15 degrees about z\n"
        "    type: bushing\n    nodes: [ground, b1]\n    frame: {axis: [0, 0, 1], degrees: 15}\n"
        "    stiffness: [5.0e4, 6.0e4, 8.0e4, 300, 400, 500]\n"
        "  s12a: {type: spring, nodes: [b1, b2], points: [[0.1, 0.1, 0.05], [0.4, 0.2, 0.1]], k: 2.0e4}\n"
        "  s12b: {type: spring, nodes: [b1, b2], points: [[0.1, -0.1, 0], [0.45, 0, -0.1]], k: 1.5e4}\n"
        "  s12c: {type: spring, nodes: [b1, b2], points: [[0, 0.1, -0.1], [0.5, 0.15, 0.1]], k: 1.8e4}\n"
        "  s12d: {type: spring, nodes: [b1, b2], points: [[0.05, 0, 0.1], [0.55, -0.05, 0.05]], k: 1.2e4}\n"
        "  s12e: {type: spring, nodes: [b1, b2], points: [[-0.05, 0.05, 0], [0.5, 0.1, 0.2]], k: 1.0e4}\n"
        "  s12f: {type: spring, nodes: [b1, b2], points: [[0, -0.05, 0.05], [0.6, 0.1, -0.05]], k: 1.3e4}\n"
        "  twist12: {type: rotational_spring, nodes: [b1, b2], axis: [1, 0, 0], k: 200}\n"
        "  link23:\n    type: bushing\n    nodes: [b2, b3]\n    at: [0.75, 0, 0.1]\n"
        "    stiffness: [3.0e4, 2.0e4, 2.5e4, 150, 120, 180]\n"
        "  s34a: {type: spring, nodes: [b3, b4], points: [[1.1, 0, 0.2], [1.35, 0.25, 0.15]], k: 8.0e3}\n"
        "  s34b: {type: spring, nodes: [b3, b4], points: [[1.0, -0.05, 0.3], [1.45, 0.3, 0]], k: 6.0e3}\n"
        "  s34c: {type: spring, nodes: [b3, b4], points: [[0.95, 0, 0.1], [1.4, 0.35, 0.2]], k: 7.0e3}\n"
        "  s34d: {type: spring, nodes: [b3, b4], points: [[1.05, -0.2, 0.2], [1.5, 0.3, 0.1]], k: 5.0e3}\n"
        "  s34e: {type: spring, nodes: [b3, b4], points: [[1.0, 0, 0.25], [1.4, 0.2, 0.05]], k: 9.0e3}\n"
        "  s34f: {type: spring, nodes: [b3, b4], points: [[1.1, -0.1, 0.1], [1.3, 0.3, 0.12]], k: 4.0e3}\n"
        "  s4g: {type: spring, nodes: [b4, ground], points: [[1.5, 0.3, 0.1], [1.5, 0.8, 0.4]], k: 3.0e3}\n"
        "  r4g: {type: rotational_spring, nodes: [ground, b4], axis: [0, 0, 1], k: 40}\n")
    path = write_deck("mass_spring", ["four bodies on springs in 3D directions, bushings and rotational springs.",
                                      "b1 on a bushing to ground; six springs at offset points and a rotational",
                                      "spring join b1 and b2; a bushing joins b2 and b3; six springs b3 to b4;",
                                      "a spring and a rotational spring from b4 to ground. 24 DOFs, no constraint,",
                                      "no rigid-body mode. SI units."], body, 16)
    ref_mbref(path, "mass_spring", 0, ["no rigid-body mode (K positive definite, asserted here)"])


# ---------------------------------------------------------------- the bundled decks
def bundled():
    for name, nfloor in (("cantilever", 0), ("cantilever-tip-mass", 0), ("free-free", 6), ("crank-rod-piston", 1)):
        path = os.path.join(TOP, "decks", name + ".yaml")
        mdl, d = mbref.load_deck(path)
        nr = mbref.rigid_count(mdl)
        assert nr == nfloor, (name, nr)
        K, M, R, Cq = mdl.matrices()
        if Cq.shape[0]:
            assert np.linalg.matrix_rank(Cq) == Cq.shape[0], name + ": Cq has not full rank"
        nm = deck_modes(path, "modal")
        ref = mbref.Refiner(mdl)
        w2 = ref.undamped(nr, nm)
        src = ["the same model assembled by tests/models/mbref.py (independent Python: textbook beam,",
               "body and joint matrices), scipy.linalg.eigh on the null space of Cq, refined by Newton in",
               "long double: the eigenvalues of this discrete model. rtol 1e-8 (solver accuracy)."]
        write_ref(os.path.join(TOP, "decks", name + ".ref.modal.yaml"), "modal",
                  ["%d rigid-body modes (rank of Z^T K Z), then" % nr if nr else "no rigid-body mode;"] + src,
                  modal_modes(w2, nr), 1e-8, nr)
        if not mdl.has_damping:
            continue
        nc = deck_modes(path, "complex")
        alpha, beta = 1e-3, 1e-5
        if name == "cantilever-tip-mass":   # the body is undamped: not proportional
            lam = ref.damped(0.0, nc)
            modes = [complex_mode(l) for l in lam]
            lines = ["lambda of lambda^2 M + lambda R + K (R = 1e-3 M_beam + 1e-5 K_beam; the body has no",
                     "damping, so no Rayleigh relation) from scipy.linalg.eig of the first-order form on the",
                     "null space of Cq of the model of tests/models/mbref.py, refined by Newton in long",
                     "double. rtol 1e-8."]
        else:
            # proportional damping: each undamped mode gives zeta = alpha/(2 omega) + beta omega/2;
            # a rigid-body mode gives lambda = 0 and lambda = -alpha (overdamped)
            # (the overdamped lambda = -alpha of the rigid-body modes are not listed: the round-off
            # omega_0^2 ~ eps lambda_max of a computed rigid-body mode moves them by omega_0^2 / alpha,
            # 1e-2 relative here, so they cannot be checked to rtol)
            modes = [{"f": 0.0, "kind": "rigid-body"}] * nr
            modes += [rayleigh_mode(math.sqrt(w), alpha, beta) for w in ref.undamped(nr, nm + nc)[nr:]]
            modes = modes[:nc - nr]
            # cross-check against the direct damped solution of the same model
            lam = [l for l in ref.damped(0.5 * math.sqrt(w2[nr]), nc + 2 * nr) if abs(l) > 0.5 * math.sqrt(w2[nr])]
            for m, l in zip([m for m in modes if m["kind"] == "oscillatory"], lam):
                assert abs(m["lam"] - l) <= 1e-9 * abs(l), (m, l)
            lines = (["%d rigid-body modes give lambda = 0 (rigid-body) and lambda = -alpha (overdamped, f = alpha / 2 pi);" % nr,
                      "the overdamped ones are not listed: the round-off omega_0^2 ~ eps lambda_max of a computed",
                      "rigid-body mode moves them by omega_0^2 / alpha (1e-2 relative), so pairing is by frequency;"]
                     if nr else []) + [
                "omega of the modal reference (mbref.py, see there) with the Rayleigh relation for",
                "R = alpha M + beta K, alpha = 1e-3, beta = 1e-5: zeta = alpha / (2 omega) + beta omega / 2,",
                "lambda = -zeta omega + i omega sqrt(1 - zeta^2) (checked against scipy.linalg.eig of the",
                "first-order form to 1e-9). rtol 1e-8."]
        write_ref(os.path.join(TOP, "decks", name + ".ref.complex.yaml"), "complex", lines, modes, 1e-8)


def tip_point_mass():
    """tip_mass with the tip body given as a point mass (masses:): the same closed forms."""
    L = 2.0
    A, Iy, Iz, J = mbref.section_props({"shape": "rectangle", "y": 0.3, "z": 0.05})
    Mt, Jxx, Jyy, Jzz = 20.0, 0.6, 0.5, 0.2
    body = ("units: SI\nmaterials:\n" + TABLE2 +
            "sections:\n  plate: {shape: rectangle, y: 0.3, z: 0.05}\n"
            "beams:\n  beam:\n    material: table2\n    section: plate\n    from: [0, 0, 0]\n    to: [0, 0, 2]\n"
            "    elements: %d\n    y_axis: [0, 1, 0]\n    nodes: {root: start, tip: end}\n"
            "joints:\n  clamp: {type: weld, nodes: [ground, root]}\n"
            "masses:\n  tip_body: {node: tip, mass: %g, inertia: [%g, %g, %g]}\n" % (N_EB, Mt, Jxx, Jyy, Jzz))
    closed = tip_body_bending(7, L, E2, Iy, RHO2, A, Mt, Jyy) + tip_body_bending(5, L, E2, Iz, RHO2, A, Mt, Jxx)
    closed += tip_body_rod(5, L, G2 * J, RHO2 * (Iy + Iz), Jzz) + tip_body_rod(3, L, E2 * A, RHO2 * A, Mt)
    closed_form_deck(
        "tip_point_mass",
        ["tip_mass.yaml with the tip body as a point mass (masses:) on the tip node.",
         "Table 2 beam (E = 100 MPa, nu = 0.31, rho = 1000 kg/m^3, section 0.3 m x 0.05 m), L = 2 m",
         "along z, %d elements, clamped base; a %g kg point mass (inertia %g, %g, %g kg m^2 about x, y, z)" % (N_EB, Mt, Jxx, Jyy, Jzz),
         "on the tip node, no offset. SI units."],
        body, closed, RTOL_EB, 0,
        ["closed forms as tip_mass.ref.modal.yaml: Euler-Bernoulli beam, clamped, tip mass M = 20 kg,",
         "J = (0.6, 0.5, 0.2) kg m^2: bending: roots of the 4x4 determinant of",
         "W(0) = W'(0) = 0, E I W''(L) = omega^2 Jt W'(L), E I W'''(L) = -omega^2 M W(L);",
         "torsion (kL) tan(kL) = rho Ip L / Jzz; axial (kL) tan(kL) = rho A L / M."])


def offset_mass():
    """An offset point mass couples bending and torsion; a point mass on a spherical joint."""
    body = ("units: SI\nmaterials:\n  steel: {E: 2.1e11, nu: 0.3, rho: 7850}\n"
            "sections:\n  bar: {shape: rectangle, y: 0.04, z: 0.02}\n"
            "bodies:\n  pivot: {mass: 0, position: [0, 2, 0]}\n"
            "beams:\n  arm:\n    material: steel\n    section: bar\n    from: [0, 0, 0]\n    to: [1, 0, 0]\n"
            "    elements: 6\n    y_axis: [0, 1, 0]\n    nodes: {root: start, tip: end}\n"
            "joints:\n  clamp: {type: weld, nodes: [ground, root]}\n"
            "  ball: {type: spherical, nodes: [ground, pivot]}\n"
            "masses:\n"
            "  tip_mass: {node: tip, mass: 3.0, offset: [0.05, 0.15, -0.02],\n"
            "             inertia: [[0.004, 0.001, 0], [0.001, 0.003, 0], [0, 0, 0.005]]}\n"
            "  bob: {node: pivot, mass: 2.0, offset: [0, 0, -0.5], inertia: [0.01, 0.02, 0.03]}\n")
    header = ["a point mass on a 0.15 m arm off a steel cantilever couples its bending and torsion;",
              "a point mass with inertia 0.5 m below a massless pivot held by a spherical joint",
              "(3 rigid-body modes: the pivot's rotations carry J + m (r^2 I - r r^T)). SI units."]
    path = write_deck("offset_mass", header, body, 9)
    ref_mbref(path, "offset_mass", 3, ["offset point mass (bending-torsion coupling) and a point mass on a",
                                        "spherical joint: 3 rigid-body modes, then the cantilever's lowest 6"])


def planar_cross():
    """A NAFEMS FV2-like pin-ended double cross moving in the xy plane: planar: xy against
    the same model with a lock of dz, rx, ry written on every node (the centre node of the
    second arm left out: the weld holds it). The arms' ends and centres are vertices named
    in points: (the joints name them, not node indices). The lock version is written to a
    temporary file for mbref.py only (one deck run less in make test)."""
    n = 4                                   # elements per half arm
    common = ("units: SI\nmaterials:\n  steel: {E: 200.0e9, nu: 0.3, rho: 8000.0}\n"
              "sections:\n  sq: {A: 0.015625, Iy: 2.0345052083e-05, Iz: 2.0345052083e-05, J: 3.4331e-05}\n"
              "beams:\n"
              "  a: {material: steel, section: sq, elements: %d,\n"
              "      points: [{at: [-5, 0, 0], name: a0}, {at: [0, 0, 0], name: ac}, {at: [5, 0, 0], name: a1}]}\n"
              "  b: {material: steel, section: sq, elements: %d,\n"
              "      points: [{at: [0, -5, 0], name: b0}, {at: [0, 0, 0], name: bc}, {at: [0, 5, 0], name: b1}]}\n"
              "joints:\n  centre: {type: weld, nodes: [ac, bc]}\n" % (n, n))
    for e in ("a0", "a1", "b0", "b1"):
        common += "  pin_%s: {type: lock, nodes: [ground, %s], dofs: [dx, dy]}\n" % (e, e)
    locks = ""
    for beam in ("a", "b"):
        for i in range(2 * n + 1):
            if beam == "b" and i == n:
                continue
            locks += "  flat_%s%d: {type: lock, nodes: [ground, %s.%d], dofs: [dz, rx, ry]}\n" % (beam, i, beam, i)
    head = ["NAFEMS FV2-like pin-ended double cross (4 arms of 5 m, steel, 0.125 m square",
            "section, %d elements per arm, ends pinned in the plane, arms welded at the centre;" % n,
            "ends and centres named in points)"]
    planar = write_deck("planar_cross", head + ["moving in the xy plane by 'planar: xy'. SI units."],
                        common + "planar: xy\n", 8)
    with tempfile.TemporaryDirectory() as tmp:
        lock = os.path.join(tmp, "planar_cross_locks.yaml")
        with open(lock, "w") as f:
            f.write(common + locks + "modal:\n  modes: 8\n")
        ref_mbref(lock, "planar_cross", 0,
                  ["in-plane modes of the pin-ended double cross: the same model held by a lock of",
                   "dz, rx, ry on every node but the second arm's centre (written by make_refs.py",
                   "planar_cross(), not kept), so 'planar: xy' must give the modes of the per-node",
                   "locks (NAFEMS FV2 lists 11.336, 17.709, 45.345, 57.390 Hz)"])
    return planar


def main():
    cantilever_eb()
    free_free_eb()
    tip_mass()
    hinged_bar()
    joint_decks()
    mass_spring()
    bundled()
    tip_point_mass()
    offset_mass()
    planar_cross()
    print("make_refs.py: wrote the decks of tests/models/ and the references of tests/models/ and decks/")


if __name__ == "__main__":
    main()
