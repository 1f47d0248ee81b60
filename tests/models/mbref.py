#!/usr/bin/python3
"""mbref.py: an independent dense Python model of mbmodal's model decks, for reference numbers.

Written from the deck syntax (/tmp/deck_spec.md, README) and textbook mechanics only, sharing no
code with mbmodal's C sources. It reads the subset of the deck syntax the test decks use (SI
units; materials; rectangle, circle, tube and explicit sections; bodies with principal or full
inertia and any orientation form; straight or polyline beams; every joint type; springs,
rotational springs, bushings), assembles dense M, K, R (6 DOFs per node: dx dy dz rx ry rz in
global axes, like mbmodal) and the constraint Jacobian Cq, and solves the linearized problem on
the null space of Cq with scipy/LAPACK:
  undamped:  Z = null(Cq), (Z^T K Z) y = omega^2 (Z^T M Z) y                (scipy.linalg.eigh)
  damped:    lambda^2 Mz + lambda Rz + Kz = 0 as the first-order companion  (scipy.linalg.eig)

Element formulas (all textbook):
  beam: 3D Euler-Bernoulli, per element of length L in local axes (x along the element, y the
    part of the deck's y_axis normal to it, z = x cross y): axial EA/L, torsion GJ/L, bending
    with cubic Hermite shape functions (EIz in the x-y plane on v, rz; EIy in the x-z plane on
    w, ry with ry = -dw/dx); consistent mass: axial and torsional rho A L/6 [2 1; 1 2] and
    rho Ip L/6 [2 1; 1 2] with Ip = Iy + Iz, bending rho A L/420 [156 22L 54 -13L; ...]
    (no rotary inertia of the section). Rayleigh R_e = alpha M_e + beta K_e.
  body: M = diag(m I3, R J R^T) at its centre of mass.
  point mass (masses:): m at node + offset with its own inertia J: T^T diag(m I3, 0) T +
    diag(0, J), T = [I, -skew(offset)] (the point's velocity v + w x offset).
  a point p carried by node i moves by u_p = dx_i + rx_i x (p - x_i) (small rotations).
  spring (no preload, at its free length): k n n^T on the relative motion of its two points,
    n = unit(pB - pA); damper the same with c.
  rotational spring: k a a^T on w_B - w_A.
  bushing: D^T K6 D, D = the relative motion (v_B(at) - v_A(at), w_B - w_A) in frame axes.
  joint: rows e_k^T (v_B(at) - v_A(at)) and e_k^T (w_B - w_A) of the locked frame axes e_k.
"""
import math

import numpy as np
import scipy.linalg as sla
import yaml


# ---------------------------------------------------------------- small vector helpers
def unit(v):
    v = np.asarray(v, dtype=float)
    return v / np.linalg.norm(v)


def skew(r):
    return np.array([[0.0, -r[2], r[1]], [r[2], 0.0, -r[0]], [-r[1], r[0], 0.0]])


def num(v):
    """PyYAML reads 1e-3 (no dot) as a string: every number goes through float()."""
    return float(v)


def vec(v):
    return np.array([num(t) for t in v])


def rotation(spec):
    """Deck orientation (axis + angle | degrees, two of x y z, quaternion) -> R (columns = axes)."""
    if spec is None:
        return np.eye(3)
    if "axis" in spec:
        a = unit(vec(spec["axis"]))
        t = num(spec["angle"]) if "angle" in spec else math.radians(num(spec["degrees"]))
        A = skew(a)
        return np.eye(3) + math.sin(t) * A + (1 - math.cos(t)) * A @ A   # Rodrigues
    if "quaternion" in spec:
        w, x, y, z = unit(vec(spec["quaternion"]))
        return np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
                         [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
                         [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)]])
    keys = [k for k in ("x", "y", "z") if k in spec]
    assert len(keys) == 2, spec
    first, second = unit(vec(spec[keys[0]])), vec(spec[keys[1]])
    second = unit(second - first * (first @ second))
    ax = {keys[0]: first, keys[1]: second}
    if "x" not in ax:
        ax["x"] = np.cross(ax["y"], ax["z"])
    elif "y" not in ax:
        ax["y"] = np.cross(ax["z"], ax["x"])
    else:
        ax["z"] = np.cross(ax["x"], ax["y"])
    return np.column_stack([ax["x"], ax["y"], ax["z"]])


def frame_from_axis(axis):
    """Any right-handed frame whose third axis is axis (only the span of rows matters here)."""
    e3 = unit(axis)
    t = np.array([1.0, 0, 0]) if abs(e3[0]) < 0.9 else np.array([0, 1.0, 0])
    e1 = unit(t - e3 * (t @ e3))
    return np.column_stack([e1, np.cross(e3, e1), e3])


# ---------------------------------------------------------------- sections and beam element
def section_props(s):
    """A, Iy, Iz, J of a deck section (formulas of the deck syntax; Roark for the rectangle)."""
    shape = s.get("shape")
    if shape == "rectangle":
        y, z = num(s["y"]), num(s["z"])
        a, b = max(y, z), min(y, z)
        J = a * b ** 3 * (1.0 / 3.0 - 0.21 * (b / a) * (1 - b ** 4 / (12 * a ** 4)))
        return y * z, y * z ** 3 / 12, z * y ** 3 / 12, J
    if shape == "circle":
        d = num(s["diameter"])
        I = math.pi * d ** 4 / 64
        return math.pi * d * d / 4, I, I, 2 * I
    if shape == "tube":
        do = num(s["outer_diameter"])
        di = do - 2 * num(s["wall"])
        I = math.pi * (do ** 4 - di ** 4) / 64
        return math.pi * (do * do - di * di) / 4, I, I, 2 * I
    return num(s["A"]), num(s["Iy"]), num(s["Iz"]), num(s["J"])


def beam_local(L, E, G, rho, A, Iy, Iz, J):
    """Local 12x12 stiffness and consistent mass (dofs u v w rx ry rz at node 1, then node 2)."""
    k = np.zeros((12, 12))
    m = np.zeros((12, 12))
    for (i, j, c) in ((0, 6, E * A / L), (3, 9, G * J / L)):          # axial, torsion
        k[np.ix_([i, j], [i, j])] = c * np.array([[1, -1], [-1, 1]])
    for (i, j, c) in ((0, 6, rho * A * L / 6), (3, 9, rho * (Iy + Iz) * L / 6)):
        m[np.ix_([i, j], [i, j])] = c * np.array([[2, 1], [1, 2]])
    kh = np.array([[12, 6 * L, -12, 6 * L], [6 * L, 4 * L * L, -6 * L, 2 * L * L],
                   [-12, -6 * L, 12, -6 * L], [6 * L, 2 * L * L, -6 * L, 4 * L * L]]) / L ** 3
    mh = np.array([[156, 22 * L, 54, -13 * L], [22 * L, 4 * L * L, 13 * L, -3 * L * L],
                   [54, 13 * L, 156, -22 * L], [-13 * L, -3 * L * L, -22 * L, 4 * L * L]]) * (rho * A * L / 420)
    # x-y plane: (v, rz) with rz = dv/dx; x-z plane: (w, ry) with ry = -dw/dx (sign flip)
    for (dofs, I, s) in (([1, 5, 7, 11], Iz, 1.0), ([2, 4, 8, 10], Iy, -1.0)):
        S = np.diag([1.0, s, 1.0, s])
        k[np.ix_(dofs, dofs)] = E * I * (S @ kh @ S)
        m[np.ix_(dofs, dofs)] = S @ mh @ S
    return k, m


# ---------------------------------------------------------------- the model
class Model:
    """Nodes (6 DOFs), element matrices added densely; joints as rows of Cq."""

    def __init__(self):
        self.x = []                 # node positions
        self.names = {}             # node name -> index
        self.Mt, self.Kt, self.Rt = [], [], []    # (dof list, matrix) contributions
        self.rows = []              # constraint rows: dict dof -> value
        self.has_damping = False

    def add_node(self, x, name=None):
        self.x.append(np.asarray(x, dtype=float))
        if name is not None:
            assert name not in self.names, name
            self.names[name] = len(self.x) - 1
        return len(self.x) - 1

    def point_map(self, i, p):
        """3x(dofs) map from node i's DOFs to the motion of point p it carries."""
        if i is None:
            return [], np.zeros((3, 0))
        G = np.hstack([np.eye(3), -skew(np.asarray(p) - self.x[i])])   # dx + rx x r = dx - skew(r) rx
        return list(range(6 * i, 6 * i + 6)), G

    @staticmethod
    def rot_map(i):
        if i is None:
            return [], np.zeros((3, 0))
        return list(range(6 * i, 6 * i + 6)), np.hstack([np.zeros((3, 3)), np.eye(3)])

    def relative(self, a, b, pa, pb, rotation):
        """(dofs, 3 x ndofs) of the relative motion of B wrt A: v_B(pb) - v_A(pa) or w_B - w_A."""
        if rotation:
            da, Ga = self.rot_map(a)
            db, Gb = self.rot_map(b)
        else:
            da, Ga = self.point_map(a, pa)
            db, Gb = self.point_map(b, pb)
        return da + db, np.hstack([-Ga, Gb])

    def add_body(self, name, x, m, J):
        i = self.add_node(x, name)
        Mb = np.zeros((6, 6))
        Mb[:3, :3] = m * np.eye(3)
        Mb[3:, 3:] = J
        self.Mt.append((list(range(6 * i, 6 * i + 6)), Mb))
        return i

    def add_point_mass(self, i, r, m, J):
        """A point mass m (own inertia J about its centre, global axes) carried by node i at
        lever r: its velocity v_p = v_i + w_i x r = T [v_i; w_i], T = [I, -skew(r)], so
        M = T^T (m I) T + diag(0, J) on node i's 6 DOFs."""
        T = np.hstack([np.eye(3), -skew(r)])
        Mb = m * T.T @ T
        Mb[3:, 3:] += J
        self.Mt.append((list(range(6 * i, 6 * i + 6)), Mb))

    def add_beam(self, name, points, elements, E, G, rho, alpha, beta, sec, y_axis, named=None):
        A, Iy, Iz, J = sec
        ids = [self.add_node(points[0], name + ".0")]
        for s in range(len(points) - 1):
            p0, p1 = points[s], points[s + 1]
            for e in range(elements[s]):
                ids.append(self.add_node(p0 + (p1 - p0) * (e + 1) / elements[s], "%s.%d" % (name, len(ids))))
        self.names[name + ".start"] = ids[0]
        self.names[name + ".end"] = ids[-1]
        for nm, where in (named or {}).items():
            idx = {"start": 0, "end": len(ids) - 1}.get(where, where)
            self.names[nm] = ids[int(idx)]
        if y_axis is None:           # Iy == Iz: any normal
            y_axis = np.array([0.0, 0, 1]) if abs(unit(points[1] - points[0])[2]) < 0.9 else np.array([1.0, 0, 0])
        for a, b in zip(ids[:-1], ids[1:]):
            d = self.x[b] - self.x[a]
            L = np.linalg.norm(d)
            ex = d / L
            ey = unit(y_axis - ex * (ex @ y_axis))
            ez = np.cross(ex, ey)
            T3 = np.vstack([ex, ey, ez])            # global -> local
            T = np.kron(np.eye(4), T3)
            kl, ml = beam_local(L, E, G, rho, A, Iy, Iz, J)
            dofs = list(range(6 * a, 6 * a + 6)) + list(range(6 * b, 6 * b + 6))
            kg, mg = T.T @ kl @ T, T.T @ ml @ T
            self.Kt.append((dofs, kg))
            self.Mt.append((dofs, mg))
            if alpha or beta:
                self.Rt.append((dofs, alpha * mg + beta * kg))
                self.has_damping = True
        return ids

    def add_quadratic(self, dofs, D, Kloc, Cloc=None):
        """K += D^T Kloc D (and R with Cloc) on dofs."""
        self.Kt.append((dofs, D.T @ Kloc @ D))
        if Cloc is not None and np.any(Cloc):
            self.Rt.append((dofs, D.T @ Cloc @ D))
            self.has_damping = True

    def add_spring(self, a, b, pa, pb, k, c=0.0):
        n = unit(np.asarray(pb) - np.asarray(pa))
        dofs, D = self.relative(a, b, pa, pb, False)
        self.add_quadratic(dofs, n[None, :] @ D, np.array([[k]]), np.array([[c]]))

    def add_rotational_spring(self, a, b, axis, k, c=0.0):
        dofs, D = self.relative(a, b, None, None, True)
        self.add_quadratic(dofs, unit(axis)[None, :] @ D, np.array([[k]]), np.array([[c]]))

    def add_bushing(self, a, b, at, R, K6, C6=None):
        d1, Dv = self.relative(a, b, at, at, False)
        d2, Dw = self.relative(a, b, None, None, True)
        assert d1 == d2
        D = np.vstack([R.T @ Dv, R.T @ Dw])
        self.add_quadratic(d1, D, K6, C6)

    def add_rows(self, a, b, at, R, locked):
        """locked: list of (rotation?, frame axis index)."""
        for (rot, k) in locked:
            dofs, D = self.relative(a, b, at, at, rot)
            row = R[:, k] @ D
            self.rows.append(dict(zip(dofs, row)))

    # ------------------------------------------------------------ matrices and modes
    def matrices(self):
        n = 6 * len(self.x)
        K, M, R = np.zeros((n, n)), np.zeros((n, n)), np.zeros((n, n))
        for (T, lst) in ((K, self.Kt), (M, self.Mt), (R, self.Rt)):
            for dofs, mat in lst:
                T[np.ix_(dofs, dofs)] += mat
        Cq = np.zeros((len(self.rows), n))
        for r, row in enumerate(self.rows):
            for j, v in row.items():
                Cq[r, j] += v
        return K, M, R, Cq

    def reduced(self):
        """Z^T K Z, Z^T M Z, Z^T R Z on the null space Z of Cq (orthonormal, by SVD); rank of Cq."""
        K, M, R, Cq = self.matrices()
        if Cq.shape[0]:
            Z = sla.null_space(Cq, rcond=1e-12)
            rank = K.shape[0] - Z.shape[1]
        else:
            Z, rank = np.eye(K.shape[0]), 0
        return Z.T @ K @ Z, Z.T @ M @ Z, Z.T @ R @ Z, rank

    def undamped(self):
        """Sorted omega^2 of the constrained undamped problem."""
        Kz, Mz, _, _ = self.reduced()
        return sla.eigh(0.5 * (Kz + Kz.T), 0.5 * (Mz + Mz.T), eigvals_only=True)

    def damped(self):
        """Eigenvalues lambda of lambda^2 M + lambda R + K (Im >= 0 kept), sorted by |lambda|."""
        Kz, Mz, Rz, _ = self.reduced()
        n = Kz.shape[0]
        Mi = np.linalg.inv(Mz)
        A = np.block([[np.zeros((n, n)), np.eye(n)], [-Mi @ Kz, -Mi @ Rz]])
        lam = np.linalg.eigvals(A)
        return sorted([l for l in lam if l.imag >= -1e-12 * max(1.0, abs(l))], key=abs)


# ---------------------------------------------------------------- deck reader (subset)
def load_deck(path):
    """A Model from a model deck, and the deck as a dict."""
    with open(path) as f:
        d = yaml.load(f, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    assert d.get("units") == "SI", "model decks say units: SI"
    assert not any(num(g) for g in d.get("gravity", [0, 0, 0])), "mbref: no gravity (no statics)"
    mdl = Model()
    mats = {}
    for name, m in (d.get("materials") or {}).items():
        E = num(m["E"])
        G = num(m["G"]) if "G" in m else E / (2 * (1 + num(m["nu"])))
        mats[name] = (E, G, num(m["rho"]), num(m.get("alpha", 0)), num(m.get("beta", 0)))
    secs = {name: section_props(s) for name, s in (d.get("sections") or {}).items()}
    for name, b in (d.get("bodies") or {}).items():
        R = rotation(b.get("orientation"))
        I = b.get("inertia", [0, 0, 0])
        Jb = np.diag(vec(I)) if not isinstance(I[0], list) else np.array([vec(r) for r in I])
        mdl.add_body(name, vec(b["position"]), num(b["mass"]), R @ Jb @ R.T)
    for name, b in (d.get("beams") or {}).items():
        raw = b["points"] if "points" in b else [b["from"], b["to"]]
        pts = [vec(p["at"]) if isinstance(p, dict) else vec(p) for p in raw]
        el = b["elements"]
        el = [int(t) for t in el] if isinstance(el, list) else [int(el)] * (len(pts) - 1)
        E, G, rho, al, be = mats[b["material"]]
        ya = vec(b["y_axis"]) if "y_axis" in b else None
        named = dict(b.get("nodes") or {})
        for v, p in enumerate(raw):          # a named vertex: the node after the segments before it
            if isinstance(p, dict) and "name" in p:
                named[p["name"]] = sum(el[:v])
        mdl.add_beam(name, pts, el, E, G, rho, al, be, secs[b["section"]], ya, named)

    def node(nm):
        return None if nm == "ground" else mdl.names[nm]

    def default_at(a, b):
        return mdl.x[b] if b is not None else mdl.x[a]

    for name, j in (d.get("joints") or {}).items():
        a, b = node(j["nodes"][0]), node(j["nodes"][1])
        at = vec(j["at"]) if "at" in j else default_at(a, b)
        t = j["type"]
        V = [(False, 0), (False, 1), (False, 2)]
        W = [(True, 0), (True, 1), (True, 2)]
        if t in ("weld", "spherical", "lock"):
            R = rotation(j.get("frame"))
            if t == "weld":
                locked = V + W
            elif t == "spherical":
                locked = V
            else:
                names = ["dx", "dy", "dz", "rx", "ry", "rz"]
                old = {"x": "dx", "y": "dy", "z": "dz"}
                locked = [(names.index(old.get(s, s)) >= 3, names.index(old.get(s, s)) % 3)
                          for s in j["dofs"]]
        elif t == "universal":
            a1, a2 = unit(vec(j["axes"][0])), unit(vec(j["axes"][1]))
            e3 = unit(np.cross(a1, a2))
            R = np.column_stack([a1, np.cross(e3, a1), e3])
            locked = V + [(True, 2)]
        elif t == "distance":
            pa, pb = (vec(j["points"][0]), vec(j["points"][1])) if "points" in j else (mdl.x[a], mdl.x[b])
            dofs, D = mdl.relative(a, b, pa, pb, False)
            mdl.rows.append(dict(zip(dofs, unit(pb - pa) @ D)))
            continue
        else:
            R = frame_from_axis(vec(j["axis"]))
            locked = {"revolute": V + W[:2], "prismatic": V[:2] + W, "cylindrical": V[:2] + W[:2],
                      "planar": [(False, 2), (True, 0), (True, 1)]}[t]
        mdl.add_rows(a, b, at, R, locked)

    for name, pm in (d.get("masses") or {}).items():
        I = pm.get("inertia", [0, 0, 0])
        Jm = np.diag(vec(I)) if not isinstance(I[0], list) else np.array([vec(r) for r in I])
        mdl.add_point_mass(mdl.names[pm["node"]], vec(pm.get("offset", [0, 0, 0])), num(pm["mass"]), Jm)

    def six(v):
        if v is None:
            return np.zeros((6, 6))
        return np.diag(vec(v)) if not isinstance(v[0], list) else np.array([vec(r) for r in v])

    for name, f in (d.get("forces") or {}).items():
        t = f["type"]
        if t in ("force", "torque"):
            continue                      # no static stage in these decks: loads give no K here
        a, b = node(f["nodes"][0]), node(f["nodes"][1])
        if t == "spring":
            assert "preload" not in f and "free_length" not in f, "mbref: springs at their free length"
            pa, pb = (vec(f["points"][0]), vec(f["points"][1])) if "points" in f else (mdl.x[a], mdl.x[b])
            mdl.add_spring(a, b, pa, pb, num(f["k"]), num(f.get("c", 0)))
        elif t == "rotational_spring":
            mdl.add_rotational_spring(a, b, vec(f["axis"]), num(f["k"]), num(f.get("c", 0)))
        elif t == "bushing":
            at = vec(f["at"]) if "at" in f else default_at(a, b)
            mdl.add_bushing(a, b, at, rotation(f.get("frame")), six(f["stiffness"]), six(f.get("damping")))
        else:
            raise ValueError("mbref: force type " + t)
    return mdl, d


def rigid_count(mdl, tol=1e-11):
    """Rigid-body modes: the dimension of the null space of Z^T K Z (Z = null(Cq)), from its
    singular values below tol times the largest."""
    Kz, _, _, _ = mdl.reduced()
    s = sla.svdvals(Kz)
    if not s.size or s[0] == 0.0:
        return s.size               # K = 0: every mode is rigid
    return int(np.sum(s < tol * s[0]))


# ---------------------------------------------------------------- long-double refinement
# Dense LAPACK (eigh, eig) has a normwise backward error: the lowest eigenvalue of a fine beam
# mesh can be off by eps lambda_max / lambda_1 relative (1e-7 here). Newton's method on
# T(lambda) x = 0, c^H x = 1 in 80-bit long double, on the reduced matrices formed in long
# double, makes the reference eigenvalues those of the double-precision model to ~1e-15.
def solve_ld(A, b):
    """Gaussian elimination with partial pivoting in long double (real or complex)."""
    A = A.copy()
    b = b.copy()
    n = len(b)
    for k in range(n):
        p = k + int(np.argmax(np.abs(A[k:, k])))
        if p != k:
            A[[k, p]] = A[[p, k]]
            b[[k, p]] = b[[p, k]]
        f = A[k + 1:, k] / A[k, k]
        A[k + 1:, k:] -= np.outer(f, A[k, k:])
        b[k + 1:] -= f * b[k]
    x = np.zeros(n, dtype=A.dtype)
    for k in range(n - 1, -1, -1):
        x[k] = (b[k] - A[k, k + 1:] @ x[k + 1:]) / A[k, k]
    return x


class Refiner:
    """The reduced Kz, Mz, Rz in long double, and Newton refinement of eigenpairs."""

    def __init__(self, mdl):
        K, M, R, Cq = mdl.matrices()
        Z = sla.null_space(Cq, rcond=1e-12) if Cq.shape[0] else np.eye(K.shape[0])
        Zl = Z.astype(np.longdouble)
        self.K, self.M, self.R = [Zl.T @ A.astype(np.longdouble) @ Zl for A in (K, M, R)]
        self.Kd, self.Md, self.Rd = [np.array(A, dtype=float) for A in (self.K, self.M, self.R)]

    def undamped(self, rigid=0, count=None):
        """The lowest `count` omega^2 (all when None), sorted; all but the lowest `rigid` ones
        (rigid-body, left as LAPACK gives them) refined."""
        w2, X = sla.eigh(0.5 * (self.Kd + self.Kd.T), 0.5 * (self.Md + self.Md.T))
        count = len(w2) if count is None else count
        out = [float(w) for w in w2[:rigid]]
        for i in range(rigid, count):
            near = [j for j in (i - 1, i + 1) if rigid <= j < len(w2)]
            if any(abs(w2[j] - w2[i]) < 1e-6 * abs(w2[i]) for j in near):
                out.append(float(w2[i]))     # repeated: the bordered Newton matrix is singular
            else:
                out.append(self.newton(w2[i], X[:, i], damped=False))
        return np.array(out)

    def damped(self, floor=0.0, count=None):
        """The lowest `count` lambda of lambda^2 M + lambda R + K (Im >= 0), sorted by |lambda|;
        those with |lambda| >= floor refined (below: rigid-body pairs, given in closed form by
        callers)."""
        n = self.Kd.shape[0]
        Mi = np.linalg.inv(self.Md)
        A = np.block([[np.zeros((n, n)), np.eye(n)], [-Mi @ self.Kd, -Mi @ self.Rd]])
        lam, V = np.linalg.eig(A)
        keep = [i for i in range(2 * n) if lam[i].imag >= -1e-12 * max(1.0, abs(lam[i]))]
        keep.sort(key=lambda i: abs(lam[i]))
        out = []
        for i in keep[:count]:
            l = lam[i]
            out.append(complex(l) if abs(l) < floor else self.newton(l, V[:n, i], damped=True))
        return sorted(out, key=abs)

    def newton(self, lam, x, damped):
        """Newton on [T(l) x = 0, c^H x = 1]; T = K + l R + l^2 M (damped) or K - l M."""
        ct = np.clongdouble if damped or np.iscomplexobj(x) else np.longdouble
        K, M, R = self.K.astype(ct), self.M.astype(ct), self.R.astype(ct)
        x = np.asarray(x, dtype=ct)
        c = x.conj() / (x.conj() @ x)
        l = ct(lam)
        n = len(x)
        for _ in range(12):
            T = K + l * R + l * l * M if damped else K - l * M
            dT = R + 2 * l * M if damped else -M
            J = np.zeros((n + 1, n + 1), dtype=ct)
            J[:n, :n] = T
            J[:n, n] = dT @ x
            J[n, :n] = c
            rhs = np.concatenate([-(T @ x), [1 - c @ x]])
            d = solve_ld(J, rhs)
            x = x + d[:n]
            l = l + d[n]
            if abs(d[n]) <= 1e-17 * abs(l):
                break
        assert abs(l - lam) <= 1e-5 * abs(lam), (lam, l)
        return complex(l) if damped else float(np.real(l))
