#!/bin/sh
# eigen_singular.sh: singular pencils diagnosed (issue 9). Each deck is singular for a reason
# known by construction: a DOF with nothing (empty row and column: refused by structure,
# before MUMPS), an empty or a duplicated Cq row, a massless unconstrained mechanism
# (singular at every shift: exit 2, the rows named), or K = M = I with the shift on the
# eigenvalue 1 (singular there only: exit 3, "try another shift"); model decks name the node
# and DOF. 1 and 2 ranks. usage: sh eigen_singular.sh MBMODAL OUTDIR
bin=$1
dir="$2/eigen_singular"
mkdir -p "$dir"
fails=0
mtx() {  # file n m entries... (1-based "i j v" triples)
  f="$dir/$1"; r=$2; c=$3; shift 3
  { echo "%%MatrixMarket matrix coordinate real general"; echo "$r $c $(($# / 3))"
    while [ $# -ge 3 ]; do echo "$1 $2 $3"; shift 3; done; } > "$f"
}
mdeck() {  # name K M [Cq] [shift]
  { printf 'matrices:\n  K: %s\n  M: %s\n' "$2" "$3"
    [ -n "$4" ] && printf '  Cq: %s\n' "$4"
    printf 'modal:\n  modes: 2\n'
    [ -n "$5" ] && printf '  shift: %s\n' "$5"
    printf 'complex:\n  modes: 2\n'; } > "$dir/$1.yaml"
}
run() {  # np name status text...
  np=$1; name=$2; want=$3; shift 3
  (cd "$dir" && timeout 120 mpirun --oversubscribe -np "$np" "$bin" -q -o out "$name.yaml" \
     > "$name.np$np.log" 2>&1)
  st=$?
  if [ "$st" != "$want" ]; then
    echo "FAIL $name (np $np): exit $st, expected $want"; cat "$dir/$name.np$np.log"; fails=$((fails + 1)); return
  fi
  for t in "$@"; do
    if ! grep -q -- "$t" "$dir/$name.np$np.log"; then
      echo "FAIL $name (np $np): no '$t' in"; cat "$dir/$name.np$np.log"; fails=$((fails + 1)); return
    fi
  done
  echo "ok $name (np $np): exit $st"
}
# 4 DOFs: a 2-DOF grounded chain (1, 2), DOF 3 with nothing, DOF 4 a unit mass
mtx k2.mtx 4 4  1 1 2  1 2 -1  2 1 -1  2 2 2
mtx m3.mtx 4 4  1 1 1  2 2 1  4 4 1
mtx m4.mtx 4 4  1 1 1  2 2 1  3 3 1  4 4 1
mtx k4.mtx 4 4  1 1 2  1 2 -1  2 1 -1  2 2 2  3 3 1  4 4 1
mtx cq_dup.mtx 2 4  1 1 1  2 1 2
mtx cq_zero.mtx 2 4  1 1 1
# DOFs 3 and 4 joined by a spring, no mass, not grounded: rigid translation 3 = 4 has nothing
mtx k_mech.mtx 4 4  1 1 2  1 2 -1  2 1 -1  2 2 2  3 3 1  3 4 -1  4 3 -1  4 4 1
mtx m_mech.mtx 4 4  1 1 1  2 2 1
mtx eye.mtx 3 3  1 1 1  2 2 1  3 3 1
mdeck empty_dof k2.mtx m3.mtx
mdeck cq_dup k4.mtx m4.mtx cq_dup.mtx
mdeck cq_zero k4.mtx m4.mtx cq_zero.mtx
mdeck mechanism k_mech.mtx m_mech.mtx
mdeck at_eigenvalue eye.mtx eye.mtx "" 1
# model decks: a body with default (zero) inertia; a second body with no mass at all
printf 'units: SI\nbodies:\n  block:\n    mass: 3.0\n    position: [0.2, 0.1, 0.05]\nmodal:\n  modes: 3\n' \
  > "$dir/no_inertia.yaml"
printf 'units: SI\nbodies:\n  block:\n    mass: 3.0\n    inertia: [1, 2, 3]\n    position: [0, 0, 0]\n  ghost:\n    mass: 0.0\n    position: [1, 0, 0]\nmodal:\n  modes: 3\n' \
  > "$dir/ghost.yaml"
for np in 1 2; do
  run $np empty_dof 2 "by its structure" "row 3 of K and M has no mass"
  run $np cq_dup 2 "every shift" "(a multiple of row [12]: redundant)"
  run $np cq_zero 2 "by its structure" "constraint rows (Cq) 2 is empty"
  run $np mechanism 2 "every shift" "neither mass nor stiffness"
  run $np at_eigenvalue 3 "singular at the shift 1 rad^2/s^2: an eigenvalue lies there" "try another shift"
  run $np no_inertia 2 "by its structure" "node block rx, node block ry, node block rz have no mass"
  run $np ghost 2 "by its structure" "node ghost dx"
done
[ "$fails" = 0 ] || { echo "$fails failed"; exit 1; }
echo "eigen_singular: 7 singular pencils diagnosed with their rows (exit 2) or the shift (exit 3), 1 and 2 ranks"
