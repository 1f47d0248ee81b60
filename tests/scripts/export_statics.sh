#!/bin/sh
# export_statics.sh: --export-matrices with a statics section exports the tangent about the
# equilibrium (issue 22.3), on 1 and 2 MPI ranks.
#  A steel wire L = 1 m, diameter 2 mm, 40 elements, pinned at both ends (x free at the right
#  end) and pulled by T = 400 N there: the model run with statics and the run of the matrix
#  deck it exported give the same modes (mbmodal compare, rtol 1e-9, MAC 0.999999), and its
#  first bending frequency is that of the closed form of a simply supported beam under axial
#  tension (Clough & Penzien, beam with axial force):
#    omega^2 = ((pi / L)^4 EI + (pi / L)^2 T) / (rho A)  ->  63.80 Hz     (rtol 2e-3; the
#  exported deck configuration, without the tension, gave 3.96 Hz).
#  The exported deck.yaml and the log say which state the matrices are about (the static
#  equilibrium; without statics, the deck configuration; not converged: the deck
#  configuration when no eigen stage runs, else the last state).
# usage: sh export_statics.sh MBMODAL OUTDIR
bin=$1
dir="$2/export_statics"
mpirun="timeout 300 mpirun --oversubscribe"
rm -rf "$dir"
mkdir -p "$dir"
fails=0
n=0
fail() { echo "FAIL $*"; fails=$((fails + 1)); }
cat > "$dir/wire.yaml" <<'DECK'
units: SI
materials:
  steel: {E: 2.0e11, nu: 0.3, rho: 7850.0}
sections:
  wire: {shape: circle, diameter: 0.002}
beams:
  wire:
    material: steel
    section: wire
    from: [0, 0, 0]
    to: [1, 0, 0]
    elements: 40
    y_axis: [0, 1, 0]
    nodes: {left: start, right: end}
joints:
  pin: {type: lock, nodes: [ground, left], dofs: [x, y, z, rx]}
  roller: {type: lock, nodes: [ground, right], dofs: [y, z]}
forces:
  pull: {type: force, node: right, value: [400, 0, 0]}
modal:
  modes: 4
output: {vtk: false}
statics:
  method: fim
DECK
sed '/^statics:/,$d' "$dir/wire.yaml" > "$dir/plain.yaml"
want=$(/usr/bin/python3 -c "
import math
L, E, rho, d, T = 1.0, 2.0e11, 7850.0, 0.002, 400.0
A, I = math.pi * d * d / 4, math.pi * d ** 4 / 64
k = math.pi / L
print(math.sqrt((k ** 4 * E * I + k * k * T) / (rho * A)) / (2 * math.pi))")
for np in 1 2; do
  out="$dir/np$np"
  n=$((n + 1))
  $mpirun -np $np "$bin" "$dir/wire.yaml" -o "$out" --export-matrices "$out/mat" > "$out.log" 2>&1
  st=$?
  if [ $st -ne 0 ]; then fail "wire np $np: exit $st"; tail -n 5 "$out.log"; continue; fi
  grep -q "^matrices exported to $out/mat .*: the static equilibrium" "$out.log" \
    || fail "wire np $np: the log does not say the export is about the equilibrium"
  grep -q "^# state: the static equilibrium" "$out/mat/deck.yaml" \
    || fail "wire np $np: deck.yaml does not say the state"
  n=$((n + 1))
  (cd "$out/mat" && $mpirun -np $np "$bin" -q deck.yaml -o ..) > "$out.mat.log" 2>&1
  st=$?
  if [ $st -ne 0 ]; then fail "matrix deck np $np: exit $st"; tail -n 5 "$out.mat.log"; continue; fi
  n=$((n + 1))
  "$bin" compare --rtol 1e-9 --mac 0.999999 "$out/wire.modal.yaml" \
    "$out/wire-matrices.modal.yaml" > "$out.cmp" 2>&1 \
    || { fail "np $np: the exported matrices' modes differ from the model's"; cat "$out.cmp"; }
  n=$((n + 1))
  got=$(sed -n 's/^    frequency_hz: //p' "$out/wire-matrices.modal.yaml" | head -n 1)
  /usr/bin/python3 -c "import sys; sys.exit(abs($got - $want) > 2e-3 * $want)" \
    || fail "np $np: exported f1 = $got Hz, closed form $want Hz"
  echo "np $np: f1 of the exported matrices $got Hz, closed form $want Hz"
done
# without statics: the deck configuration, said so
n=$((n + 1))
"$bin" "$dir/plain.yaml" -o "$dir/plain" --export-matrices "$dir/plain/mat" > "$dir/plain.log" 2>&1
st=$?
if [ $st -eq 0 ]; then
  grep -q "^# state: the deck configuration (no statics section)" "$dir/plain/mat/deck.yaml" \
    || fail "plain: deck.yaml does not say the deck configuration"
  grep -q "^matrices exported to .*: the deck configuration" "$dir/plain.log" \
    || fail "plain: the log does not say the deck configuration"
else fail "plain: exit $st"; fi
# not converged (max_num_iter 1): exit 4; without allow_unconverged no eigen stage runs and
# the deck configuration is exported, said so; with it, the last state's tangent, said so
for allow in false true; do
  n=$((n + 1))
  sed "s/^  method: fim\$/  method: fim\n  max_num_iter: 1\n  allow_unconverged: $allow/" \
    "$dir/wire.yaml" > "$dir/nc_$allow.yaml"
  "$bin" -q "$dir/nc_$allow.yaml" -o "$dir/nc" --export-matrices "$dir/nc/$allow" > /dev/null 2>&1
  st=$?
  [ $st -eq 4 ] || fail "not converged, allow_unconverged $allow: exit $st, wanted 4"
  if [ $allow = false ]; then want="# state: the deck configuration: the static stage did not reach"
  else want="# state: the static stage's last state, NOT converged"; fi
  grep -q "^$want" "$dir/nc/$allow/deck.yaml" 2>/dev/null \
    || fail "not converged, allow_unconverged $allow: no '$want' in deck.yaml"
done
echo "export_statics.sh: $n checks, $fails failures"
[ $fails -eq 0 ]
