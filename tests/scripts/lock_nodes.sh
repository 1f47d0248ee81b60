#!/bin/sh
# lock_nodes.sh: a lock joint on a list of nodes and on a whole beam (docs/deck.md, joints),
# on 1 and 2 MPI ranks, against closed forms. One deck holds two independent parts:
#  1. a steel cantilever along x (L = 1 m, 40 elements, 50 x 20 mm, stiff in the x-y plane,
#     soft out of it) held in its plane by `lock` with `beam: b, dofs: [dz, rx, ry]` (every
#     node) and clamped in the plane by a lock on its root: its modes are only the in-plane
#     ones, bending f_n = beta_n^2 / (2 pi L^2) sqrt(E Iz / (rho A)) with beta_n = 1.875104,
#     4.694091, 7.854757 (5e-6: 40 cubic elements) and the first axial mode sqrt(E / rho) / (4 L) (2e-4: 40
#     linear elements); without the lock the softer out-of-plane modes would come first;
#  2. three 2 kg bodies on a line along x, joined by springs of 1000 N/m (ground-b1-b2-b3),
#     held by `lock` with `nodes: [ground, b1, b2, b3], dofs: [dy, dz, rx, ry, rz]`: a
#     fixed-free chain, omega_j^2 = 2 k / m (1 - cos((2 j - 1) pi / 7)), j = 1..3 (1e-9).
# The log's joint and constraint row counts say each locked node got its own joint
# (41 + 1 + 3 = 45 joints, 41 x 3 + 3 + 3 x 5 = 141 rows).
# usage: sh lock_nodes.sh MBMODAL OUTDIR
bin=$1
dir="$2/lock_nodes"
mpirun="timeout 120 mpirun --oversubscribe"
rm -rf "$dir"
mkdir -p "$dir"
fails=0
fail() { echo "FAIL $*"; fails=$((fails + 1)); }

cat > "$dir/lock.yaml" <<'DECK'
# lock on a beam and on a list of nodes (lock_nodes.sh)
units: SI
materials:
  steel: {E: 2.0e11, nu: 0.3, rho: 7800.0}
sections:
  bar: {shape: rectangle, y: 0.05, z: 0.02}
bodies:
  b1: {mass: 2.0, inertia: [1, 1, 1], position: [1, 0, 5]}
  b2: {mass: 2.0, inertia: [1, 1, 1], position: [2, 0, 5]}
  b3: {mass: 2.0, inertia: [1, 1, 1], position: [3, 0, 5]}
beams:
  b: {material: steel, section: bar, from: [0, 0, 0], to: [1, 0, 0], elements: 40,
      y_axis: [0, 1, 0], nodes: {root: start}}
joints:
  plane: {type: lock, beam: b, dofs: [dz, rx, ry]}
  root: {type: lock, nodes: [ground, root], dofs: [dx, dy, rz]}
  rail: {type: lock, nodes: [ground, b1, b2, b3], dofs: [dy, dz, rx, ry, rz]}
forces:
  k1: {type: spring, nodes: [ground, b1], points: [[0, 0, 5], [1, 0, 5]], k: 1000.0}
  k2: {type: spring, nodes: [b1, b2], k: 1000.0}
  k3: {type: spring, nodes: [b2, b3], k: 1000.0}
modal:
  modes: 7
output:
  vtk: false
DECK

for np in 1 2; do
  log="$dir/lock.np$np.log"
  if ! $mpirun -np $np "$bin" "$dir/lock.yaml" -o "$dir/np$np" > "$log" 2>&1; then
    fail "np $np: exit status"; tail -n 5 "$log"; continue
  fi
  grep -q "^model: 44 nodes (3 bodies, 1 beams of 40 elements), 45 joints" "$log" \
    || fail "np $np: not 45 joints in the log"
  grep -q "m = 141 constraint rows" "$log" || fail "np $np: not 141 constraint rows"
  /usr/bin/python3 - "$dir/np$np/lock.modal.yaml" "$np" <<'PY' || fail "np $np: frequencies"
import math, sys
import yaml
with open(sys.argv[1]) as f:
    rep = yaml.load(f, Loader=yaml.CSafeLoader)
got = [float(m["frequency_hz"]) for m in rep["modes"]]
E, rho, L, y, z = 2.0e11, 7800.0, 1.0, 0.05, 0.02
A, Iz = y * z, z * y ** 3 / 12
k, m = 1000.0, 2.0
chain = [math.sqrt(2 * k / m * (1 - math.cos((2 * j - 1) * math.pi / 7))) / (2 * math.pi)
         for j in (1, 2, 3)]
bend = [b * b / (2 * math.pi * L * L) * math.sqrt(E * Iz / (rho * A))
        for b in (1.8751040687119611, 4.6940911329741745, 7.8547574382376126)]
axial = math.sqrt(E / rho) / (4 * L)
ref = chain + bend + [axial]
tol = [1e-9] * 3 + [5e-6] * 3 + [2e-4]
ok = len(got) == 7
for g, r, t in zip(got, ref, tol):
    e = abs(g - r) / r
    ok &= e < t
    print("  %12.6f Hz vs closed form %12.6f Hz: %.1e (tolerance %.0e)" % (g, r, e, t))
sys.exit(0 if ok else 1)
PY
done
if [ $fails -eq 0 ]; then echo "lock_nodes: all checks passed (1 and 2 ranks)"
else echo "lock_nodes: $fails failure(s)"; exit 1; fi
