#!/bin/sh
# statics_report.sh: the static report tells the truth (issue 21): valid YAML, no verdict
# without an equilibrium, the verdict equal to the modal and complex stages' unstable
# modes, the tangent said from the deck's loads, bushing forces and deck node names, the
# note for point loads without statics; decks, references and checks in
# statics_report.py, run on 1 and 2 MPI ranks.
# usage: sh statics_report.sh MBMODAL OUTDIR
bin=$1
dir="$2/statics_report"
top=$(cd "$(dirname "$0")/../.." && pwd)
rm -rf "$dir"
mkdir -p "$dir"
/usr/bin/python3 "$top/tests/scripts/statics_report.py" "$bin" "$dir" > "$dir/check.log" 2>&1
st=$?
cat "$dir/check.log"
exit $st
