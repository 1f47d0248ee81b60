#!/usr/bin/python3
"""make_statics_refs.py: writes the static-stage model decks tests/models/statics_*.yaml and
their modal references from closed forms (numpy for the 2x2 and 3x3 generalized eigen-
problems of the linearizations written out below). Sources, per deck:

  statics_pendulum_{fim,mkeam}: physical pendulum, a body of mass m, inertia J about its
      centre, hinged (revolute) at distance d above it, started 20 degrees off: it hangs at
      equilibrium with omega^2 = m g d / (J + m d^2) (textbook physical pendulum).
  statics_double_pendulum: two bodies on revolute hinges (axes y), started off the vertical:
      about the hanging equilibrium, with absolute angles th1, th2,
        M = [[J1 + m1 a1^2 + m2 l1^2, m2 l1 a2], [m2 l1 a2, J2 + m2 a2^2]],
        K = g diag(m1 a1 + m2 l1, m2 a2)   (Lagrange, linearized), omega^2 = eig(K, M).
  statics_inverted_fim: the pendulum started 3 degrees off the top: FIM stays at the top,
      one unstable mode, lambda = -m g d / (J + m d^2).
  statics_inverted_mkeam: the same start: MKEAM falls to the bottom, lambda = +m g d / (...).
  statics_chain_{fim,mkeam}: three bodies on prismatic joints (z) hanging on three springs
      in series under gravity: linear springs, so omega^2 = eig(K, M) of the chain
      (K tridiagonal in the k's); the static deflections (sums of m g / k) are checked by
      tests/scripts/statics_check.py.

usage: /usr/bin/python3 tests/models/make_statics_refs.py   (rewrites the files)"""
import math
import os

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
G = 9.81


def num(x):
    return repr(float(x))


def write(name, header, body, refs, rtol, unstable=False):
    with open(os.path.join(HERE, name + ".yaml"), "w") as f:
        for line in header:
            f.write("# " + line + "\n")
        f.write("# Written by tests/models/make_statics_refs.py (edit there); reference: "
                "%s.ref.modal.yaml.\n" % name)
        f.write(body)
    with open(os.path.join(HERE, name + ".ref.modal.yaml"), "w") as f:
        f.write("# tests/models/%s.ref.modal.yaml: reference for tests/models/%s.yaml "
                "(modal stage), written by tests/models/make_statics_refs.py.\n" % (name, name))
        for line in header:
            f.write("# " + line + "\n")
        f.write("# compare: --rtol %g\n# rigid-body modes: 0\n" % rtol)
        f.write("format: mbmodal-report\nformat_version: 1\nstage: modal\nrtol: %g\nmodes:\n"
                % rtol)
        for lam in refs:
            f.write("  - eigenvalue: %s\n" % num(lam))
            f.write("    frequency_hz: %s\n" % num(math.sqrt(abs(lam)) / (2 * math.pi)))
            f.write("    kind: %s\n" % ("unstable" if lam < 0 else "oscillatory"))


def down(th):
    """unit vector at angle th from the downward vertical, in the x-z plane"""
    return np.array([math.sin(th), 0.0, -math.cos(th)])


def vec(v):
    return "[%s]" % ", ".join(num(x) for x in v)


def pendulum(name, method, th0, top):
    m, J, d = 2.0, 0.05, 0.6
    p = d * down(th0)
    lam = m * G * d / (J + m * d * d)
    body = ("units: SI\ngravity: [0, 0, -9.81]\nbodies:\n  bob:\n    mass: %s\n"
            "    inertia: [%s, %s, %s]\n    position: %s\n"
            "joints:\n  hinge: {type: revolute, nodes: [ground, bob], at: [0, 0, 0], "
            "axis: [0, 1, 0]}\nmodal:\n  modes: 1\nstatics:\n  method: %s\n"
            % (num(m), num(J), num(J), num(J), vec(p), method))
    where = "the top" if top else "the bottom"
    header = ["%s: physical pendulum (m = %g kg, J = %g kg m^2 about its centre, d = %g m "
              "below the hinge) started %g degrees from hanging;" % (name, m, J, d,
                                                                     math.degrees(th0)),
              "%s finds the equilibrium at %s; closed form omega^2 = %sm g d / (J + m d^2); "
              "rtol 1e-8." % (method.upper(), where, "-" if top else "")]
    write(name, header, body, [-lam if top else lam], 1e-8)


def point_mass_pendulum(name, method, th0):
    """The physical pendulum as a point mass (masses:) at an offset from a massless pivot body
    on the hinge: the offset's weight, turned with the pivot, gives the restoring moment."""
    m, J, d = 2.0, 0.05, 0.6
    lam = m * G * d / (J + m * d * d)
    body = ("units: SI\ngravity: [0, 0, -9.81]\nbodies:\n  pivot: {mass: 0, position: [0, 0, 0]}\n"
            "masses:\n  bob: {node: pivot, mass: %s, inertia: [%s, %s, %s], offset: %s}\n"
            "joints:\n  hinge: {type: revolute, nodes: [ground, pivot], at: [0, 0, 0], "
            "axis: [0, 1, 0]}\nmodal:\n  modes: 1\nstatics:\n  method: %s\n"
            % (num(m), num(J), num(J), num(J), vec(d * down(th0)), method))
    header = ["%s: the physical pendulum of statics_pendulum_fim as a point mass (m = %g kg, J = %g "
              "kg m^2, offset d = %g m) on a massless pivot, started %g degrees from hanging;"
              % (name, m, J, d, math.degrees(th0)),
              "%s finds the equilibrium at the bottom; closed form omega^2 = m g d / (J + m d^2); "
              "rtol 1e-8." % method.upper()]
    write(name, header, body, [lam], 1e-8)


def double_pendulum():
    m1, J1, a1, l1 = 1.5, 0.08, 0.4, 0.8
    m2, J2, a2 = 1.0, 0.02, 0.5
    t1, t2 = math.radians(10), math.radians(-15)
    c1 = a1 * down(t1)
    h2 = l1 * down(t1)
    c2 = h2 + a2 * down(t2)
    M = np.array([[J1 + m1 * a1 ** 2 + m2 * l1 ** 2, m2 * l1 * a2], [m2 * l1 * a2, J2 + m2 * a2 ** 2]])
    K = G * np.diag([m1 * a1 + m2 * l1, m2 * a2])
    lam = sorted(np.linalg.eigvals(np.linalg.solve(M, K)).real)
    body = ("units: SI\ngravity: [0, 0, -9.81]\nbodies:\n"
            "  upper: {mass: %s, inertia: [%s, %s, %s], position: %s}\n"
            "  lower: {mass: %s, inertia: [%s, %s, %s], position: %s}\n"
            "joints:\n  top: {type: revolute, nodes: [ground, upper], at: [0, 0, 0], axis: [0, 1, 0]}\n"
            "  middle: {type: revolute, nodes: [upper, lower], at: %s, axis: [0, 1, 0]}\n"
            "modal:\n  modes: 2\nstatics:\n  method: fim\n"
            % (num(m1), num(J1), num(J1), num(J1), vec(c1), num(m2), num(J2), num(J2), num(J2),
               vec(c2), vec(h2)))
    header = ["statics_double_pendulum: two bodies on revolute hinges about y (upper: m1 = %g, "
              "J1 = %g, centre a1 = %g and hinge l1 = %g below the top hinge;" % (m1, J1, a1, l1),
              "lower: m2 = %g, J2 = %g, centre a2 = %g below the middle hinge), started at "
              "10 and -15 degrees; FIM to the hanging equilibrium;" % (m2, J2, a2),
              "closed form: omega^2 = eig(K, M), M = [[J1 + m1 a1^2 + m2 l1^2, m2 l1 a2], "
              "[m2 l1 a2, J2 + m2 a2^2]], K = g diag(m1 a1 + m2 l1, m2 a2); rtol 1e-8."]
    write("statics_double_pendulum", header, body, lam, 1e-8)


def chain(method):
    m = [1.0, 2.0, 0.5]
    k = [2000.0, 1500.0, 800.0]
    z = [-0.5, -1.0, -1.5]
    body = "units: SI\ngravity: [0, 0, -9.81]\nbodies:\n"
    for i in range(3):
        body += "  b%d: {mass: %s, inertia: [0.01, 0.01, 0.01], position: [0, 0, %s]}\n" % (
            i + 1, num(m[i]), num(z[i]))
    body += "joints:\n"
    for i in range(3):
        body += "  slide%d: {type: prismatic, nodes: [ground, b%d], at: [0, 0, %s], axis: [0, 0, 1]}\n" % (
            i + 1, i + 1, num(z[i]))
    body += "forces:\n"
    body += "  s1: {type: spring, nodes: [ground, b1], points: [[0, 0, 0], [0, 0, -0.5]], k: %s}\n" % num(k[0])
    body += "  s2: {type: spring, nodes: [b1, b2], points: [[0, 0, -0.5], [0, 0, -1.0]], k: %s}\n" % num(k[1])
    body += "  s3: {type: spring, nodes: [b2, b3], points: [[0, 0, -1.0], [0, 0, -1.5]], k: %s}\n" % num(k[2])
    body += "modal:\n  modes: 3\nstatics:\n  method: %s\n" % method
    K = np.array([[k[0] + k[1], -k[1], 0], [-k[1], k[1] + k[2], -k[2]], [0, -k[2], k[2]]])
    lam = sorted(np.linalg.eigvals(np.linalg.solve(np.diag(m), K)).real)
    header = ["statics_chain_%s: three bodies (m = 1, 2, 0.5 kg) on prismatic joints along z, hung "
              "from ground on three springs in series (k = 2000, 1500, 800 N/m," % method,
              "free lengths 0.5 m) under gravity; %s finds the sag (sums of m g / k, checked by "
              "tests/scripts/statics_check.py);" % method.upper(),
              "closed form: omega^2 = eig(K, M) of the linear chain; rtol 1e-8."]
    write("statics_chain_" + method, header, body, lam, 1e-8)


pendulum("statics_pendulum_fim", "fim", math.radians(20), False)
pendulum("statics_pendulum_mkeam", "mkeam", math.radians(20), False)
pendulum("statics_inverted_fim", "fim", math.radians(177), True)
pendulum("statics_inverted_mkeam", "mkeam", math.radians(177), False)
double_pendulum()
point_mass_pendulum("statics_point_mass_fim", "fim", math.radians(20))
chain("fim")
chain("mkeam")
