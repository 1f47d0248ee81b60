#!/bin/sh
# eigen_policy.sh: the rerun policy's log (docs/method.md, "Reruns: one ordered policy"). The
# free-free Euler-Bernoulli beam (tests/models/free_free_eb.yaml) has rigid-body modes next
# to the undamped stage's own shift, so rule 2 (second shift) fires and nothing else; with
# -v the stage's last policy line must count exactly the rules its log lines announced
# (runs = 1 + one per rerun line). The same deck with the shift given (-1e4 rad^2/s^2) fires
# no rule and writes no policy line. 1 and 2 ranks. usage: sh eigen_policy.sh MBMODAL OUTDIR
bin=$1
dir="$2/eigen_policy"
mkdir -p "$dir"
fails=0
deck=$(cd "$(dirname "$0")/../models" && pwd)/free_free_eb.yaml
sed 's/^modal:/modal:\n  shift: -1.0e4/' "$deck" > "$dir/shifted.yaml"
grep -q "shift: -1.0e4" "$dir/shifted.yaml" || { echo "FAIL: could not add a shift"; exit 1; }
for np in 1 2; do
  log="$dir/free.np$np.log"
  timeout 120 mpirun --oversubscribe -np "$np" "$bin" -v -o "$dir/free.np$np" "$deck" > "$log" 2>&1
  st=$?
  shifts=$(grep -c "again at shift" "$log")
  line=$(grep "^modal: [0-9]* runs* at a shift" "$log")
  want="modal: $((1 + shifts)) runs at a shift (block to single vector 0, second shift $shifts, tighter tolerance 0, the system whole 0)"
  if [ "$st" != 0 ] || [ "$shifts" != 1 ] || [ "$line" != "$want" ]; then
    echo "FAIL free_free_eb np $np: exit $st, $shifts second-shift lines, policy line '$line'"
    fails=$((fails + 1))
  fi
  log="$dir/shifted.np$np.log"
  timeout 120 mpirun --oversubscribe -np "$np" "$bin" -v -o "$dir/shifted.np$np" \
    "$dir/shifted.yaml" > "$log" 2>&1
  st=$?
  if [ "$st" != 0 ] || grep -q "again\|runs* at a shift" "$log"; then
    echo "FAIL free_free_eb with a shift np $np: exit $st, or a rerun logged"
    grep "again\|runs* at a shift" "$log"
    fails=$((fails + 1))
  fi
done
if [ "$fails" -ne 0 ]; then
  echo "eigen_policy: $fails failures"
  exit 1
fi
echo "eigen_policy: the policy line counts the reruns the log announced (second shift 1 of 2 runs); a given shift reruns nothing (1, 2 ranks)"
