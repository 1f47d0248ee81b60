#!/bin/sh
# participation.sh: participation factors and effective modal masses (docs/output.md
# "Participation factors and effective mass"), on 1 and 2 MPI ranks, checked by
# tests/scripts/participation.py against outside references:
#  1. a clamped steel strip (L = 1 m, 40 elements): the dz effective masses of its first
#     three bending modes against the closed form (0.6131, 0.1883, 0.0647 of the mass),
#     each mode's effective masses against numpy on the exported K, M, Cq, and the log's
#     line about the directions below 90 %;
#  2. the free body of tests/models/free_body.yaml: 100 % of the mass in its 6 rigid modes,
#     totals about its centre of mass (1 and 2 ranks) and about output.reference_point
#     (1 rank: the computation is rank 0's on either count) by parallel axes;
#  3. tests/models/mass_spring.yaml with all 24 modes: each mode against numpy (eigh on the
#     exported K, M) and the sum over all modes equal to the mass and inertia of the deck;
#  4. output.reference_point in a matrix deck: a deck error (exit 2) at the key (2 ranks).
# usage: sh participation.sh MBMODAL OUTDIR
bin=$1
dir="$2/participation"
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
mpirun="timeout 120 mpirun --oversubscribe"
rm -rf "$dir"
mkdir -p "$dir"
fails=0
fail() { echo "FAIL $*"; fails=$((fails + 1)); }

# run NAME NP [extra args]: the deck $dir/NAME.yaml on NP ranks into $dir/npNP
run() {
  name=$1 np=$2
  shift 2
  $mpirun -np "$np" "$bin" "$dir/$name.yaml" -o "$dir/np$np" "$@" > "$dir/$name.np$np.log" 2>&1 \
    || { fail "$name np $np: exit status $?"; tail -n 5 "$dir/$name.np$np.log"; }
}

# python check: its lines, and a failure when it fails
py() {
  /usr/bin/python3 "$here/participation.py" "$@" || fail "participation.py $1"
}

cat > "$dir/strip.yaml" <<'EOF'
# a clamped steel strip along x, weak bending in z (participation.sh)
units: SI
materials:
  steel: {E: 2.0e11, nu: 0.3, rho: 7800.0}
sections:
  strip: {shape: rectangle, y: 0.06, z: 0.01}
beams:
  beam: {material: steel, section: strip, from: [0, 0, 0], to: [1.0, 0, 0], elements: 40,
         y_axis: [0, 1, 0], nodes: {root: start}}
joints:
  clamp: {type: weld, nodes: [ground, root]}
modal:
  modes: 8
output:
  vtk: false
EOF
run strip 1 --export-matrices "$dir/strip-mats"
run strip 2
py cantilever "$dir/np1/strip.modal.yaml" "$dir/np2/strip.modal.yaml" "$dir/strip-mats"
for np in 1 2; do
  grep -q "^participation: the 8 modes found hold less than 90% of the mass in dx 0.0%, dy " \
    "$dir/strip.np$np.log" || fail "strip np $np: no log line about the directions below 90 %"
  grep -q "^     1          8.1[0-9]*  oscillatory  dz 61.3%  " "$dir/strip.np$np.log" \
    || fail "strip np $np: the table's mass share of mode 1 is not 'dz 61.3%'"
done

cp "$top/tests/models/free_body.yaml" "$dir/free.yaml"
{ cat "$top/tests/models/free_body.yaml"; printf 'output:\n  reference_point: [1.0, -0.5, 0.3]\n'; } \
  > "$dir/free_point.yaml"
run free 1
run free 2
run free_point 1
py free "$dir/np1/free.modal.yaml" "$dir/np2/free.modal.yaml" com
py free "$dir/np1/free_point.modal.yaml" - 1.0 -0.5 0.3
grep -q "less than 90%" "$dir/free.np1.log" && fail "free body: the log says less than 90 %"

sed 's/^  modes: 16$/  modes: 24/' "$top/tests/models/mass_spring.yaml" > "$dir/springs.yaml"
run springs 1 --export-matrices "$dir/springs-mats"
run springs 2
py springs "$dir/np1/springs.modal.yaml" "$dir/np2/springs.modal.yaml" "$dir/springs-mats"

# a matrix deck has no geometry: reference_point is an error at its key, on every rank
printf 'matrices: {K: K.mtx, M: M.mtx}\noutput: {reference_point: [0, 0, 0]}\n' > "$dir/mat.yaml"
$mpirun -np 2 "$bin" "$dir/mat.yaml" -o "$dir/mat" > "$dir/mat.np2.log" 2>&1
st=$?
[ $st -eq 2 ] || fail "matrix deck with reference_point np 2: exit $st, not 2"
grep -q "mat.yaml:2:10: error: output: 'reference_point' needs a model deck" "$dir/mat.np2.log" \
  || fail "matrix deck with reference_point np 2: no message at 2:10"

if [ $fails -eq 0 ]; then echo "participation: all checks passed (1 and 2 ranks)"; exit 0; fi
echo "participation: $fails check(s) FAILED"
exit 1
