#!/bin/sh
# frf.sh: the frf section (FRF by modal superposition, static correction) against direct
# dense solves: 2 DOFs with complex modes, a free chain with modal ratios, a cantilever with
# and without the correction; the state-space export (modal, and full with seed 003's
# reduction on its engine mount); 1 and 2 ranks. usage: sh frf.sh MBMODAL OUTDIR
set -e
bin=$1
dir="$2/frf"
here=$(dirname "$0")
mkdir -p "$dir"
/usr/bin/python3 "$here/frf.py" gen "$dir"
cd "$dir"
for deck in two chain cant cant_nc mount; do
  "$bin" -q $deck.yaml > run1.log
done
mkdir -p out2
for deck in two chain cant mount; do
  timeout 300 mpirun --oversubscribe -np 2 "$bin" -q -o out2 $deck.yaml > run2.log
done
rc=0
timeout 120 mpirun --oversubscribe -np 2 "$bin" -q -o outbad bad_node.yaml > bad.log 2>&1 || rc=$?
echo $rc > bad.rc
cd - > /dev/null
/usr/bin/python3 "$here/frf.py" check "$dir" out1 out2
