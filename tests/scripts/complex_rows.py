#!/usr/bin/python3
"""complex_rows.py: the damped stage in complex arithmetic (a target frequency: the shift
eps + i 2 pi f_c is complex) on 1 rank with single vectors and on 2 and 3 ranks with
blocks of 4, its shift-invert operator by rows on every rank count (issue 23), against
dense eigenvalues from scipy. On 2 and 3 ranks the matrix deck is read by rows and the
whole stage stays by rows (its complex pencil built by rows for ZMUMPS's distributed input,
the complex Ritz vectors and the modes finished on the ranks' rows): the log must say that
the system is by rows as read (-v), and never that the system was gathered on rank 0. Last, the rerun in
complex arithmetic after rigid-body modes (two free chains read by rows on 2 ranks): its
rigid-body double zeros folded by rows (2 modes of multiplicity 2, the closed form), its
oscillatory eigenvalues against scipy, nothing gathered.

The deck: tests/decks/chain_constrained's K, M, R, Cq (42 masses, the first and last held
by two constraint rows, R = a M + b K), 6 damped modes nearest f_c = 1 Hz. Reference:
scipy.linalg.eig on the dense pencil (31) of seed 001, A = [0 I 0; -K -R -Cq^T; -Cq 0 0],
B = diag(I, M, 0), its finite eigenvalues with Im > 0 (mbmodal reports each conjugate pair
once), the 6 nearest the shift. Each reported eigenvalue must be one of them to 1e-8
relative, and every one of them must be reported.
usage: complex_rows.py MBMODAL OUTDIR"""
import os
import subprocess
import sys

import numpy as np
import scipy.io as sio
import scipy.linalg as sla
import scipy.sparse as sparse
import yaml

from testlib import Tally

BIN, OUT = sys.argv[1], os.path.join(sys.argv[2], "complex_rows")
HERE = os.path.dirname(os.path.abspath(__file__))
DECKS = os.path.join(HERE, "..", "decks")
os.makedirs(OUT, exist_ok=True)
T = Tally()
FC, NMODES = 1.0, 6

mats = {k: os.path.join(DECKS, "chain_constrained.%s.mtx" % k) for k in ("K", "M", "R", "Cq")}
DECK = ("matrices:\n" + "".join("  %s: %s\n" % (k, v) for k, v in mats.items())
        + "modal:\n  enabled: false\n"
        + "complex:\n  modes: %d\n  target_frequency: %r\n" % (NMODES, FC)
        + "output:\n  name: chain_target\n")

K, M, R, C = (sio.mmread(mats[k]).toarray() for k in ("K", "M", "R", "Cq"))
n, m = K.shape[0], C.shape[0]
A = np.zeros((2 * n + m, 2 * n + m))
B = np.zeros_like(A)
A[:n, n:2 * n] = np.eye(n)
A[n:2 * n, :n], A[n:2 * n, n:2 * n], A[n:2 * n, 2 * n:] = -K, -R, -C.T
A[2 * n:, :n] = -C
B[:n, :n], B[n:2 * n, n:2 * n] = np.eye(n), M
lam = sla.eig(A, B, right=False)
lam = lam[np.isfinite(lam)]
lam = lam[lam.imag > 0]
sigma = 1e-3 + 2j * np.pi * FC          # the shift a target frequency gives (docs/deck.md)
ref = lam[np.argsort(abs(lam - sigma))][:NMODES]

for np_, block in ((1, 0), (2, 4), (3, 4)):  # single vectors on 1 rank, blocks of 4
    od = os.path.join(OUT, "np%d" % np_)
    deck = os.path.join(OUT, "chain_target_np%d.yaml" % np_)
    with open(deck, "w") as f:
        f.write(DECK + ("solver:\n  block: %d\n" % block if block else ""))
    r = subprocess.run(["timeout", "120", "mpirun", "--oversubscribe", "-np", str(np_), BIN,
                        "-v", deck, "-o", od], capture_output=True, text=True)  # -v: the layout
    T.check(r.returncode == 0, "np %d: exit %d %s" % (np_, r.returncode, r.stderr[-400:]))
    if r.returncode:
        continue
    log = r.stdout + r.stderr
    if np_ > 1:  # by rows from the files to the modes: nothing gathered on rank 0
        T.check("complex: the system by rows on %d ranks as read" % np_ in log,
                "np %d: the log does not say the system is by rows as read" % np_)
        T.check("system read by rows gathered" not in log,
                "np %d: the log says the system was gathered on rank 0" % np_)
    else:  # one rank is one block, and MUMPS gets the pencil whole: the log says which
        T.check("goes to MUMPS whole (centralized input)" in log
                and "distributed input" not in log,
                "np 1: the log does not say that MUMPS gets the pencil whole")
    with open(os.path.join(od, "chain_target.complex.yaml")) as f:
        rep = yaml.load(f, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    ev = np.array([complex(*md["eigenvalue"]) for md in rep["modes"]])
    T.check(len(ev) == NMODES, "np %d: %d modes, wanted %d" % (np_, len(ev), NMODES))
    for z in ev:  # each reported eigenvalue is one of the nearest dense ones
        err = min(abs(z - ref)) / abs(z)
        T.check(err <= 1e-8, "np %d: eigenvalue %s not among scipy's nearest (rel %.2e)"
                % (np_, z, err))
    for z in ref:  # and each of those is reported
        err = min(abs(z - ev)) / abs(z) if len(ev) else 1.0
        T.check(err <= 1e-8, "np %d: scipy's %s not reported (rel %.2e)" % (np_, z, err))
    print("np %d, block %d: %d eigenvalues, worst rel difference to scipy %.2e" % (
        np_, block, len(ev), max(min(abs(z - ref)) / abs(z) for z in ev) if len(ev) else -1))

# Rule 6 by rows: two free chains (6 unit-spaced masses each, K = spring Laplacians 1000
# and 2000 N/m, M = 1 and 1.5 kg, R = 0.01 K), read by rows on 2 ranks. The real path at the
# default shift finds rigid-body modes and the stage reruns in complex arithmetic, still by
# rows. Closed form: each free chain has a double zero (lambda^2 M u = 0 with K u = R u = 0,
# one Jordan block), so 2 rigid-body modes are reported, each of multiplicity 2; the 4
# oscillatory ones against scipy's dense pencil (31) (1e-8).
NB = 6
L = np.zeros((NB, NB))
for i in range(NB - 1):
    L[i:i + 2, i:i + 2] += [[1.0, -1.0], [-1.0, 1.0]]
Kt = np.zeros((2 * NB, 2 * NB))
Kt[:NB, :NB], Kt[NB:, NB:] = 1000.0 * L, 2000.0 * L
Mt = np.diag(np.r_[np.ones(NB), 1.5 * np.ones(NB)])
Rt = 0.01 * Kt
tw = os.path.join(OUT, "twin")
os.makedirs(tw, exist_ok=True)
for k, v in (("K", Kt), ("M", Mt), ("R", Rt)):
    sio.mmwrite(os.path.join(tw, k + ".mtx"), sparse.coo_matrix(v), symmetry="symmetric")
with open(os.path.join(tw, "twin.yaml"), "w") as f:
    f.write("matrices: {K: K.mtx, M: M.mtx, R: R.mtx}\nmodal: {enabled: false}\n"
            "complex: {modes: 6}\noutput: {name: twin}\n")
nt = 2 * NB
At = np.zeros((2 * nt, 2 * nt))
Bt = np.eye(2 * nt)
At[:nt, nt:], At[nt:, :nt], At[nt:, nt:], Bt[nt:, nt:] = np.eye(nt), -Kt, -Rt, Mt
lt = sla.eig(At, Bt, right=False)
lt = lt[(lt.imag > 0) & (abs(lt) > 1e-6)]
r = subprocess.run(["timeout", "120", "mpirun", "--oversubscribe", "-np", "2", BIN, "-v",
                    "twin.yaml", "-o", "out"], capture_output=True, text=True, cwd=tw)
T.check(r.returncode == 0, "twin np 2: exit %d %s" % (r.returncode, r.stderr[-400:]))
if r.returncode == 0:
    log = r.stdout + r.stderr
    T.check("again in complex arithmetic" in log, "twin np 2: no rerun in complex arithmetic")
    T.check(log.count("complex: the system by rows on 2 ranks as read") >= 2,
            "twin np 2: the complex rerun is not by rows as read")
    T.check("system read by rows gathered" not in log,
            "twin np 2: the log says the system was gathered")
    with open(os.path.join(tw, "out", "twin.complex.yaml")) as f:
        rep = yaml.load(f, Loader=getattr(yaml, "CSafeLoader", yaml.SafeLoader))
    rigid = [md for md in rep["modes"] if md["kind"] == "rigid-body"]
    osc = [complex(*md["eigenvalue"]) for md in rep["modes"] if md["kind"] == "oscillatory"]
    T.check(len(rigid) == 2 and all(md.get("multiplicity") == 2 for md in rigid),
            "twin np 2: rigid-body modes %s, wanted 2 of multiplicity 2"
            % [md.get("multiplicity") for md in rigid])
    T.check(len(osc) == 4, "twin np 2: %d oscillatory modes, wanted 4" % len(osc))
    for z in osc:
        err = min(abs(z - lt)) / abs(z)
        T.check(err <= 1e-8, "twin np 2: eigenvalue %s not scipy's (rel %.2e)" % (z, err))
    print("twin np 2: %d rigid-body modes (multiplicities %s), %d oscillatory, worst rel "
          "difference to scipy %.2e" % (len(rigid), [md.get("multiplicity") for md in rigid],
                                        len(osc), max([min(abs(z - lt)) / abs(z) for z in osc]
                                                      or [-1])))

T.finish("complex_rows: %d checks, %d failed (damped stage at a complex shift, 1 rank single, "
         "2 and 3 ranks block 4 by rows, against scipy's dense pencil (31); the rerun in "
         "complex arithmetic after rigid-body modes by rows on 2 ranks)")
