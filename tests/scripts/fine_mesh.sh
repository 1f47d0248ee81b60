#!/bin/sh
# fine_mesh.sh: fine meshes give the right modes or say they cannot (issue 22 item 2). The
# 80 m clamped steel tube against its closed form f1 (tests/scripts/fine_mesh.py):
#  1. 10, 100, 1000 and 10,000 elements, 1 rank (1000 and 10,000 on 2 ranks): both planes'
#     first mode oscillatory, equal to 1e-6, within 1e-5 (10 elements: the mesh's own
#     error), 1e-9 (100, 1000) and 1e-6 (10,000; the issue asks 1e-4) of f1, with a
#     conditioning estimate below 1e-6; the sequence decreases to f1 within the estimates.
#  2. 20,000 elements once (1 rank): within 1e-4 of f1, or exit 4 with the estimate.
#  3. With a load-free `statics` section (the equilibrium is the deck): 10,000 elements on 1
#     and 2 ranks within 1e-6 of f1 (the issue asks 1e-4), as without it. With gravity along
#     the axis (another equilibrium: no element energies, the assembled K's estimate): 1000
#     elements on 1 and 2 ranks exit 4, the report not converged with the estimate above
#     1e-6 and the message naming the cause (elements far shorter than the model).
# usage: sh fine_mesh.sh MBMODAL OUTDIR
bin=$1
dir="$2/fine_mesh"
here=$(dirname "$0")
py="/usr/bin/python3 $here/fine_mesh.py"
mpirun="timeout 300 mpirun --oversubscribe"
rm -rf "$dir"
mkdir -p "$dir"
fails=0
n=0
fail() { echo "FAIL $*"; fails=$((fails + 1)); }
run() {  # np name: runs DIR/name.yaml into DIR/npNP (no vectors in the reports: the checks
         # read frequencies only), exit status in $st
  $mpirun -np "$1" "$bin" --no-vectors "$dir/$2.yaml" -o "$dir/np$1" > "$dir/$2.np$1.log" 2>&1
  st=$?
  n=$((n + 1))
}
for ne in 10 100 1000 10000 20000; do $py gen "$dir" $ne; done
$py gen "$dir" 10000 statics
$py gen "$dir" 1000 gravity
seq=""
for ne in 10 100 1000 10000; do
  case $ne in 10) rtol=1e-5;; 10000) rtol=1e-6;; *) rtol=1e-9;; esac
  for np in 1 2; do
    # 2 ranks at 1000 elements here, 10,000 below (by rows MUMPS calls some of its pivots
    # null, and the stage decides again with centralized input: exit 2 at 743b901)
    [ $np = 2 ] && [ $ne != 1000 ] && continue
    run $np tube$ne
    if [ $st -ne 0 ]; then fail "tube$ne np $np: exit $st"; tail -n 3 "$dir/tube$ne.np$np.log"; continue; fi
    $py check "$dir/np$np/tube$ne.modal.yaml" $rtol || fail "tube$ne np $np"
  done
  seq="$seq $dir/np1/tube$ne.modal.yaml"
done
# shellcheck disable=SC2086  # seq holds several paths
$py monotone $seq || fail "refinement sequence"
run 2 tube10000   # the assembled quotient about 1e-2 off, null pivots by rows
if [ $st -ne 0 ]; then fail "tube10000 np 2: exit $st"
else $py check "$dir/np2/tube10000.modal.yaml" 1e-6 || fail "tube10000 np 2"; fi
run 1 tube20000
if [ $st -eq 0 ]; then $py check "$dir/np1/tube20000.modal.yaml" 1e-4 || fail "tube20000"
elif [ $st -eq 4 ]; then $py flagged "$dir/np1/tube20000.modal.yaml" || fail "tube20000: exit 4"
else fail "tube20000: exit $st"; fi
for np in 1 2; do
  run $np tube10000_statics
  if [ $st -ne 0 ]; then fail "tube10000_statics np $np: exit $st"
  else $py check "$dir/np$np/tube10000_statics.modal.yaml" 1e-6 || fail "tube10000_statics np $np"; fi
  run $np tube1000_gravity
  if [ $st -ne 4 ]; then fail "tube1000_gravity np $np: exit $st, expected 4"; continue; fi
  grep -q "is uncertain to .*elements far shorter than the model" "$dir/tube1000_gravity.np$np.log" \
    || fail "tube1000_gravity np $np: no message naming the cause"
  $py flagged "$dir/np$np/tube1000_gravity.modal.yaml" || fail "tube1000_gravity np $np"
done
[ $fails -eq 0 ] || { echo "$fails failed"; exit 1; }
echo "fine_mesh: the clamped tube at 10 to 20,000 elements against its closed form, and flagged where its matrices cannot hold it ($n runs, 1 and 2 ranks)"
