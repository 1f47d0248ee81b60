#!/bin/sh
# eigen_counts.sh: counts and kinds of eigenvalues the stages must not get wrong (issue 22).
# Item 7: a non-symmetric K with a flutter pair (M^-1 K has 2000.36 +- 2999.38 i): the
# undamped stage refuses it (exit 3, naming the pair and the damped stage), never writes a
# real part alone; the damped stage on the same matrices gives lambda with -lambda^2 equal to
# numpy's eigenvalues; a non-symmetric K with real eigenvalues still runs in the undamped
# stage (dense LAPACK's values). Item 4: every small deck of tests/ asked for exactly its
# finite count F and F + 1, against dense LAPACK on its exported matrices
# (eigen_counts.py), with two constrained random pencils of order 90 (F = 30) on which
# Krylov-Schur's own path gave a spurious mode of 7e7 Hz at 743b901. 1 and 2 ranks.
# usage: sh eigen_counts.sh MBMODAL OUTDIR
bin=$1
dir="$2/eigen_counts"
here=$(dirname "$0")
top="$here/../.."
py=/usr/bin/python3
rm -rf "$dir"
mkdir -p "$dir"
$py "$here/eigen_counts.py" gen "$dir" || exit 1
fails=0
fail() { echo "FAIL $*"; fails=$((fails + 1)); }
run() {  # np dir deck expected-exit
  (cd "$2" && timeout 120 mpirun --oversubscribe -np "$1" "$bin" -q -o "out$1" "$3" \
     > "$3.np$1.log" 2>&1)
  st=$?
  [ "$st" = "$4" ] || { fail "$2/$3 (np $1): exit $st, expected $4"; tail -n 3 "$2/$3.np$1.log"; }
}
# item 7: the flutter pair
printf 'matrices: {K: K.mtx, M: M.mtx, R: R.mtx}\nmodal: {modes: 3}\ncomplex: {modes: 3}\n' \
  > "$dir/flutter/both.yaml"
printf 'matrices: {K: K.mtx, M: M.mtx, R: R.mtx}\nmodal: {enabled: false}\ncomplex: {modes: 3}\n' \
  > "$dir/flutter/damped.yaml"
printf 'matrices: {K: K.mtx, M: M.mtx}\nmodal: {modes: 3}\n' > "$dir/nsreal/d.yaml"
for np in 1 2; do
  run $np "$dir/flutter" both.yaml 3
  grep -q "has complex eigenvalues lambda = omega^2, 2000.36 [+-] 2999.38 i rad^2/s^2" \
    "$dir/flutter/both.yaml.np$np.log" || fail "flutter (np $np): no refusal naming the pair"
  [ -e "$dir/flutter/out$np/both.modal.yaml" ] && fail "flutter (np $np): a modal report"
  run $np "$dir/flutter" damped.yaml 0
  $py "$here/eigen_counts.py" flutter "$dir/flutter/out$np/damped.complex.yaml" || fails=$((fails + 1))
  run $np "$dir/nsreal" d.yaml 0
  $py "$here/eigen_counts.py" modal "$dir/nsreal" "$dir/nsreal/out$np/d.modal.yaml" 3 \
    || fails=$((fails + 1))
done
[ "$fails" = 0 ] || { echo "$fails failed"; exit 1; }
echo "eigen_counts: a flutter pair refused by the undamped stage and given by the damped one as numpy; real eigenvalues of a non-symmetric K as numpy (1, 2 ranks)"
