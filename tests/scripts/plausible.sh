#!/bin/sh
# plausible.sh: decks that parse but are unlikely to be what was meant are run with a
# warning (not an error) that names the file:line:col of the value (issue 21.3), 1 rank
# (and the far joint frame on 2 ranks: one warning, from rank 0):
#  - E: 210 (GPa in an SI deck: below 1e5 Pa), E: 210000 with rho 7850 (MPa: a wave
#    speed sqrt(E / rho) of 5.2 m/s, below 10) and E: 1.0e14; rho: 7.85e6 (g/m^3?);
#  - a revolute joint 'at' 8 km from its body (a 1 m pendulum's size);
#  - a weld between two bodies 20 m apart (each 0.3 m across);
# each run exits 0 with exactly its warning(s). The positions are found in the deck text
# here (awk), not taken from mbmodal. Plausible decks give none: the same decks fixed, and
# bundled and test decks with welds, joint frames 'at' off their nodes, one-body models
# and materials (all the model decks were checked by hand; four kept for the time).
# usage: sh plausible.sh MBMODAL OUTDIR
bin=$1
dir="$2/plausible"
top=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$dir"
mkdir -p "$dir"
fails=0
n=0
fail() { echo "FAIL $*"; fails=$((fails + 1)); }
# pos FILE TEXT: "LINE:COL" (1-based) of the first occurrence of TEXT in FILE
pos() { awk -v t="$2" '{ i = index($0, t); if (i) { print NR ":" i; exit } }' "$1"; }
# expect NAME COUNT TEXT...: runs DIR/NAME.yaml; exit 0, COUNT warning lines, and for each
# TEXT a warning at its position in the deck
expect() {
  name=$1 count=$2
  shift 2
  deck="$dir/$name.yaml"
  n=$((n + 1))
  timeout 120 "$bin" -q "$deck" -o "$dir/out" > "$dir/$name.out" 2> "$dir/$name.err"
  st=$?
  [ $st -eq 0 ] || fail "$name: exit $st, wanted 0: $(head -c 300 "$dir/$name.err")"
  got=$(grep -c '^warning: ' "$dir/$name.err")
  [ "$got" = "$count" ] || fail "$name: $got warnings, wanted $count: $(cat "$dir/$name.err")"
  for t in "$@"; do
    where="$deck:$(pos "$deck" "$t"):"
    grep -qF "warning: $where" "$dir/$name.err" \
      || fail "$name: no warning at $where ($t): $(cat "$dir/$name.err")"
  done
}
beam() {  # E rho: a 1 m steel cantilever with that material
  cat <<DECK
units: SI
materials:
  steel: {nu: 0.3, E: $1, rho: $2}
sections:
  s: {shape: circle, diameter: 0.02}
beams:
  arm: {material: steel, section: s, from: [0, 0, 0], to: [1, 0, 0], elements: 4, nodes: {root: start}}
joints:
  clamp: {type: weld, nodes: [ground, root]}
modal: {modes: 2}
output: {vtk: false}
DECK
}
beam 210 7850 > "$dir/e_gpa.yaml"
expect e_gpa 1 "210,"
beam 210000 7850 > "$dir/e_mpa.yaml"
expect e_mpa 1 "210000"
beam 1.0e14 7.85e6 > "$dir/e_rho_high.yaml"
expect e_rho_high 2 "1.0e14" "7.85e6"
beam 2.1e11 7850 > "$dir/beam_ok.yaml"
expect beam_ok 0
cat > "$dir/far_at.yaml" <<'DECK'
units: SI
gravity: [0, 0, -9.81]
bodies:
  bob: {mass: 2.0, inertia: [0.05, 0.05, 0.05], position: [0, 0, -1]}
joints:
  hinge: {type: revolute, nodes: [ground, bob], at: [8000, 0, 0], axis: [0, 1, 0]}
modal: {modes: 1}
output: {vtk: false}
DECK
expect far_at 1 "[8000, 0, 0]"
# on 2 ranks: the same warning, once (rank 0 says it), exit 0
n=$((n + 1))
timeout 120 mpirun --oversubscribe -np 2 "$bin" -q "$dir/far_at.yaml" -o "$dir/out2" \
  > "$dir/far_at.np2.out" 2> "$dir/far_at.np2.err" || fail "far_at np 2: exit $?"
[ "$(grep -c "^warning: $dir/far_at.yaml:$(pos "$dir/far_at.yaml" "[8000, 0, 0]"):" \
  "$dir/far_at.np2.err")" = 1 ] || fail "far_at np 2: not one warning: $(cat "$dir/far_at.np2.err")"
sed 's/\[8000, 0, 0\]/[0, 0, 0]/' "$dir/far_at.yaml" > "$dir/near_at.yaml"
expect near_at 0
cat > "$dir/far_weld.yaml" <<'DECK'
units: SI
bodies:
  a: {mass: 2.0, inertia: [0.01, 0.01, 0.01], position: [0, 0, 0]}
  b: {mass: 2.0, inertia: [0.01, 0.01, 0.01], position: [20, 0, 0]}
joints:
  glue: {type: weld, nodes: [a, b]}
forces:
  mount: {type: bushing, nodes: [ground, a], at: [0, 0, 0], stiffness: [1e4, 1e4, 1e4, 1e3, 1e3, 1e3]}
modal: {modes: 2}
output: {vtk: false}
DECK
expect far_weld 1 "a, b]"
sed 's/position: \[20, 0, 0\]/position: [0.3, 0, 0]/' "$dir/far_weld.yaml" > "$dir/near_weld.yaml"
expect near_weld 0
# plausible bundled and test decks: no warning
for deck in decks/crank-rod-piston.yaml decks/beam-grid.yaml tests/models/welded_pair.yaml \
    tests/models/statics_pendulum_fim.yaml; do
  deck="$top/$deck"
  n=$((n + 1))
  timeout 120 "$bin" -q "$deck" -o "$dir/ok" > /dev/null 2> "$dir/ok.err"
  if grep -q '^warning: ' "$dir/ok.err"; then fail "$(basename "$deck"): $(grep '^warning: ' "$dir/ok.err")"; fi
done
echo "plausible.sh: $n runs, $fails failures"
[ $fails -eq 0 ]
