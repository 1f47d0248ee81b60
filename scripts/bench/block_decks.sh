#!/bin/sh
# block_decks.sh: the block Krylov-Schur path against the single-vector path on the bundled
# decks (issue 10): every deck run with MBMODAL_KS_BLOCK=1 and =B (default 4) on NP ranks
# (default 1), the reports compared with `mbmodal compare` (modal at RTOL_MODAL, default
# 1e-10; complex at RTOL_COMPLEX, default 1e-8: the damped stage's eigenvalues are only good
# to about 1e-9 at tolerance 1e-10 on either path). Also each block report against the
# deck's reference (*.ref.*.yaml, at its own tolerance). The twin chains run once more with
# subspace 16 (instead of the whole space), where Krylov-Schur proper has to find each double
# eigenvalue twice. Exits 1 when a comparison fails.
# Usage: sh scripts/bench/block_decks.sh [B] [NP]    (from the repository top, after make)
B=${1:-4}; NP=${2:-1}
MBMODAL=${MBMODAL:-./mbmodal}
out=${OUT:-build/bench/block_decks}
rm -rf "$out"; mkdir -p "$out"
# the twin chains with a subspace smaller than the order (40)
sed 's/^  modes: 10$/  modes: 10\n  subspace: 16/; s/chain_twin\./..\/..\/..\/tests\/decks\/chain_twin./' \
  tests/decks/chain_twin.yaml > "$out/chain_twin_krylov.yaml"
cp tests/decks/chain_twin.ref.modal.yaml "$out/chain_twin_krylov.ref.modal.yaml"
fail=0
for d in decks/*.yaml tests/decks/chain_*.yaml tests/decks/beam-grid-matrices.yaml \
         "$out/chain_twin_krylov.yaml"; do
  case $d in *.ref.*) continue;; esac
  n=$(basename "$d" .yaml)
  MBMODAL_KS_BLOCK=1 mpirun -np "$NP" "$MBMODAL" -q -o "$out/single_$n" "$d" > "$out/single_$n.log" 2>&1
  r1=$?
  MBMODAL_KS_BLOCK=$B mpirun -np "$NP" "$MBMODAL" -q -o "$out/block_$n" "$d" > "$out/block_$n.log" 2>&1
  r2=$?
  line="$n: exit $r1 $r2"
  [ $r1 -eq 0 ] && [ $r2 -eq 0 ] || fail=1
  for f in "$out/single_$n"/*.yaml; do
    [ -f "$f" ] || continue
    g="$out/block_$n/$(basename "$f")"
    stage=$(basename "$f" .yaml | sed 's/.*\.//')
    tol=${RTOL_MODAL:-1e-10}; [ "$stage" = complex ] && tol=${RTOL_COMPLEX:-1e-8}
    if "$MBMODAL" compare --rtol "$tol" "$f" "$g" > "$out/cmp_${n}_$stage.txt" 2>&1; then
      line="$line, $stage same ($tol)"
    else
      line="$line, $stage DIFFERS ($tol)"; fail=1
    fi
    ref="$(dirname "$d")/$n.ref.$stage.yaml"
    if [ -f "$ref" ]; then
      opts=$(sed -n 's/^# compare: //p' "$ref" | head -n 1)
      if "$MBMODAL" compare $opts "$ref" "$g" > "$out/ref_${n}_$stage.txt" 2>&1; then
        line="$line, block = reference"
      else
        line="$line, block != REFERENCE"; fail=1
      fi
    fi
  done
  echo "$line"
done
exit $fail
