#!/bin/sh
# solver_section.sh: the deck's `solver:` section (issue 23) reaches the factorization and
# Krylov-Schur, and the modes stay right. decks/cantilever-tip-mass.yaml with every solver
# key changed (AMD ordering, 50 % workspace, block low-rank factors at 1e-12, block 3, no
# early exit, no lagged re-orthogonalization) on 1 and 2 ranks:
# - the modes match the deck's reference (decks/cantilever-tip-mass.ref.modal.yaml: the
#   independent Python model of tests/models/mbref.py, scipy eigh; rtol 1e-8);
# - the report's factorization says ordering amd, ICNTL(14) >= 50 and low_rank 1e-12;
# - -v prints Krylov-Schur's line with block 3, no probes and no lagged passes; without -v
#   the log has no profile line;
# - an ordering the MUMPS build lacks (metis on Debian's) is said in the default log, with
#   the one MUMPS used, which the report names.
# usage: sh tests/scripts/solver_section.sh MBMODAL OUTDIR     (tests/run.sh calls it)
bin=$1
out=${2:-/tmp}/solver_section
rm -rf "$out"
mkdir -p "$out" || exit 1
fails=0
checks=0
check() {  # description, then a command that must succeed
  what=$1; shift
  checks=$((checks + 1))
  if "$@" > /dev/null 2>&1; then :; else fails=$((fails + 1)); echo "FAIL $what"; fi
}
deck="$out/cantilever-tip-mass.yaml"
{ cat decks/cantilever-tip-mass.yaml
  printf '\nsolver:\n  ordering: amd\n  workspace: 50\n  low_rank: 1e-12\n  block: 3\n'
  printf '  early_exit: false\n  lagged_orthogonalization: false\n'
} > "$deck"
ref=decks/cantilever-tip-mass.ref.modal.yaml
for np in 1 2; do
  if [ $np = 1 ]; then run="timeout 600"; else run="timeout 600 mpirun --oversubscribe -np 2"; fi
  $run "$bin" -v "$deck" -o "$out/np$np" > "$out/np$np.log" 2>&1
  check "np $np: exit 0" test $? = 0
  rep="$out/np$np/cantilever-tip-mass.modal.yaml"
  check "np $np: modes match the independent model (rtol 1e-8)" \
    "$bin" compare --rtol 1e-8 "$ref" "$rep"
  check "np $np: report says ordering amd" grep -q "^  ordering: amd$" "$rep"
  check "np $np: report says low_rank 1e-12" grep -q "^  low_rank: 1e-12$\|^  low_rank: 1.0e-12$" "$rep"
  check "np $np: ICNTL(14) at least 50" \
    awk '/^  icntl14:/ { found = 1; if ($2 < 50) exit 1 } END { exit !found }' "$rep"
  check "np $np: -v shows block 3, no probes, no lagged passes" \
    grep -q "krylov-schur: .* block 3 (.*, 0 probes, 0 lagged second passes" "$out/np$np.log"
done
timeout 600 "$bin" decks/cantilever-tip-mass.yaml -o "$out/plain" > "$out/plain.log" 2>&1
check "default log: no profile or Krylov-Schur lines without -v" \
  sh -c "! grep -q 'krylov-schur:\|the stage.s .* s: pencil\|peak resident' '$out/plain.log'"
check "default report: the default ordering (qamd) and no low_rank key" \
  sh -c "grep -q '^  ordering: qamd$' '$out/plain/cantilever-tip-mass.modal.yaml' && ! grep -q low_rank '$out/plain/cantilever-tip-mass.modal.yaml'"
# an ordering this MUMPS build may lack (Debian's has no METIS): the report names the one
# MUMPS used, and the default log says so when it is not the deck's
{ cat decks/cantilever-tip-mass.yaml; printf '\nsolver:\n  ordering: metis\n'; } > "$out/metis.yaml"
timeout 600 "$bin" "$out/metis.yaml" -o "$out/metis" > "$out/metis.log" 2>&1
check "ordering metis: exit 0" test $? = 0
used=$(sed -n 's/^  ordering: //p' "$out/metis/metis.modal.yaml" | head -n 1)
if [ "$used" = metis ]; then
  check "ordering metis: used, and the log does not say otherwise" \
    sh -c "! grep -q 'not in this MUMPS build' '$out/metis.log'"
else
  check "ordering metis: the log names the ordering MUMPS used ($used)" \
    grep -q "^modal: the deck's ordering metis is not in this MUMPS build; MUMPS used $used\$" \
    "$out/metis.log"
fi
echo "$((checks - fails)) of $checks solver-section checks passed"
[ $fails -eq 0 ]
