#!/bin/sh
# block_paths.sh: the block and the single-vector Krylov-Schur paths give the same modes
# (issue 10), chosen in the deck (`solver: {block: N}`, issue 23), on a few decks that
# together hold every kind of pencil: a model with rigid-body modes and damping (crank),
# constraints and a tip body (tip_mass), a statics deck (double pendulum, about its
# equilibrium), matrix decks with constraints and damping (chain_constrained), massless
# DOFs (chain_massless) and a grid read from Matrix Market (beam-grid-matrices). Each deck
# with block 1 on 1 rank is the reference; block 4 on 1 and on 2 ranks must match it
# (mbmodal compare: eigenvalues to 1e-9 relative, MAC 0.999999). Every run must exit 0.
# Why 1e-9 and not 1e-10: the lowest modes of the beam decks are known only to about
# eps ||K|| / (lambda ||M||), a few 1e-10: the same path on 1 and on 2 ranks (another MUMPS
# ordering, other rounding) differs by up to 3.6e-10 there (tip_mass mode 2, tolerance
# 1e-10), and the two paths by up to 3.3e-10.
# usage: sh tests/scripts/block_paths.sh MBMODAL OUTDIR     (tests/run.sh calls it)
bin=$1
out=${2:-/tmp}/block_paths
rm -rf "$out"
mkdir -p "$out" || exit 1
fails=0
n=0
fail() { fails=$((fails + 1)); echo "FAIL $*"; }
# with_block DECK BLOCK DIR: DIR holds a copy of DECK with `solver: {block: BLOCK}` added,
# beside links to the files of DECK's folder (the Matrix Market files it names)
with_block() {
  mkdir -p "$3" || return 1
  src=$(cd "$(dirname "$1")" && pwd)
  for f in "$src"/*; do ln -sf "$f" "$3/"; done
  rm -f "$3/$(basename "$1")"
  { cat "$1"; printf '\nsolver:\n  block: %s\n' "$2"; } > "$3/$(basename "$1")"
}
run() {  # deck block np dir (1 rank: a singleton, without mpirun's start-up)
  with_block "$1" "$2" "$4.deck" || return 1
  copy="$4.deck/$(basename "$1")"
  if [ "$3" = 1 ]; then
    timeout 600 "$bin" -q "$copy" -o "$4" > "$4.log" 2>&1
  else
    timeout 600 mpirun --oversubscribe -np "$3" "$bin" -q "$copy" -o "$4" > "$4.log" 2>&1
  fi
}
for deck in decks/crank-rod-piston.yaml tests/models/tip_mass.yaml \
            tests/models/statics_double_pendulum.yaml tests/decks/chain_constrained.yaml \
            tests/decks/chain_massless.yaml tests/decks/beam-grid-matrices.yaml; do
  name=$(basename "$deck" .yaml)
  base="$out/$name"
  n=$((n + 1))
  if ! run "$deck" 1 1 "$base.p1"; then fail "$deck: block 1, 1 rank: exit $?"; continue; fi
  for np in 1 2; do
    if ! run "$deck" 4 $np "$base.p4.np$np"; then fail "$deck: block 4, $np ranks: exit $?"; continue; fi
    for stage in modal complex; do
      ref="$base.p1/$name.$stage.yaml"
      [ -f "$ref" ] || continue
      if ! "$bin" compare --rtol 1e-9 --mac 0.999999 "$ref" "$base.p4.np$np/$name.$stage.yaml" \
           > "$base.$stage.np$np.cmp" 2>&1; then
        fail "$deck $stage: block 4 on $np ranks against block 1: $(tail -n 3 "$base.$stage.np$np.cmp")"
      fi
    done
  done
done
echo "$((n - fails)) of $n decks: the same modes with blocks of 4 (1 and 2 ranks) as with single vectors"
[ $fails -eq 0 ]
