#!/bin/sh
# compare_static.sh: `mbmodal compare` on static reports (docs/compare.md "Static reports"),
# on 1 and 2 MPI ranks, with tests/models/statics_pendulum_fim.yaml (a physical pendulum,
# m = 2 kg, its centre d = 0.6 m below the hinge, started 20 degrees off):
#  1. a hand-written reference from statics: the bob hangs at (0, 0, -0.6) m and the hinge
#     carries m g = 19.62 N along its e2 = -z; the 1-rank report passes at rtol 1e-8, and
#     the 2-rank report against the 1-rank one at 1e-8 (all 5 items: position, displacement, rotation, force, torque);
#  2. the same reference with the bob 1 mm lower: exit 6 (a regression) on both ranks of
#     a 2-rank compare, the position named;
#  3. a static reference against a modal report: exit 2 naming the stage.
# usage: sh compare_static.sh MBMODAL OUTDIR
bin=$1
dir="$2/compare_static"
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
mpirun="timeout 120 mpirun --oversubscribe"
rm -rf "$dir"
mkdir -p "$dir"
fails=0
fail() { echo "FAIL $*"; fails=$((fails + 1)); }

# expect STATUS LOG NP ARGS...: mbmodal compare ARGS on NP ranks exits STATUS
expect() {
  want=$1 log=$2 np=$3
  shift 3
  $mpirun -np "$np" "$bin" compare "$@" > "$dir/$log" 2>&1
  st=$?
  [ $st -eq "$want" ] || { fail "$log: exit $st, not $want"; tail -n 5 "$dir/$log"; }
}

for np in 1 2; do
  $mpirun -np $np "$bin" -q "$top/tests/models/statics_pendulum_fim.yaml" -o "$dir/np$np" \
    > "$dir/run.np$np.log" 2>&1 || fail "statics_pendulum_fim np $np: exit status $?"
done

# 1. the equilibrium from statics (m g along the hinge's e2 = -z; the bob below the hinge)
cat > "$dir/ref.yaml" <<'REF'
# statics_pendulum_fim at rest: the centre of mass d = 0.6 m straight below the hinge at the
# origin; the hinge carries the weight m g = 2 kg x 9.81 m/s^2 = 19.62 N along e2 = -z.
format: mbmodal-report
stage: static
rtol: 1e-8
nodes:
  - {name: "bob", position: [0, 0, -0.6]}
joints:
  - {name: "hinge", force: [0, 19.62, 0]}
REF
sed 's/-0.6\]/-0.601]/' "$dir/ref.yaml" > "$dir/ref-low.yaml"
expect 0 ref.log 1 "$dir/ref.yaml" "$dir/np1/statics_pendulum_fim.static.yaml"
grep -q "^compare: 2 items ok, 0 failed" "$dir/ref.log" || fail "ref: not 2 items ok"
# the 2-rank report equals the 1-rank one (so it meets the reference too)
expect 0 np2-np1.log 1 --rtol 1e-8 "$dir/np1/statics_pendulum_fim.static.yaml" \
  "$dir/np2/statics_pendulum_fim.static.yaml"
grep -q "^compare: 5 items ok, 0 failed" "$dir/np2-np1.log" || fail "np2-np1: not 5 items ok"
# 2. the bob 1 mm lower in the reference: a regression on every rank, the item named
expect 6 low.log 2 "$dir/ref-low.yaml" "$dir/np2/statics_pendulum_fim.static.yaml"
grep -q 'FAIL node "bob" position: differs by 0.001 m' "$dir/low.log" \
  || fail "low: the position is not named"
# 3. stages differ: exit 2 naming the stage
expect 2 stages.log 1 "$dir/ref.yaml" "$dir/np1/statics_pendulum_fim.modal.yaml"
grep -q "stage 'modal' differs from the reference's stage 'static'" "$dir/stages.log" \
  || fail "stages: no message"

if [ $fails -eq 0 ]; then echo "compare_static: all checks passed (1 and 2 ranks)"; exit 0; fi
echo "compare_static: $fails check(s) FAILED"
exit 1
