#!/bin/sh
# csv_plot.sh: output.csv (the table of modes as CSV), on 1 and 2 MPI ranks, checked by
# tests/scripts/csv_plot.py:
#  1. decks/cantilever-tip-mass.yaml (4 modes per stage, csv: true): each CSV's columns
#     equal its YAML report's values (the same doubles), its frequencies (and damping
#     ratios) equal the scipy references decks/cantilever-tip-mass.ref.*.yaml (an
#     independent assembly, tests/models/mbref.py) within their rtol 1e-8, and rank 0's
#     CSV on 2 ranks equals the 1-rank CSV within 1e-8; the matrix deck
#     tests/decks/chain_free.yaml on 2 ranks: its CSVs equal its reports and the closed
#     form of its references (1e-9), without participation columns;
#  2. `mbmodal plot` (scripts/mbmodal_plot.py, matplotlib) writes PNGs (signature, IHDR
#     size > 0) of the modal and complex mode tables and of mode 2 of the model; a mode the
#     report lacks: exit 2;
#  3. a report with frf: is drawn by plot_frf.draw(report, png) beside the script (a stub
#     in a copy of scripts/), and without plot_frf.py the message names it (exit 1); a
#     copy of the binary without scripts/ beside it: exit 1 naming the script's path.
# usage: sh csv_plot.sh MBMODAL OUTDIR
bin=$1
mkdir -p "$2"
dir="$(cd "$2" && pwd)/csv_plot"  # absolute: the messages checked name absolute paths
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
mpirun="timeout 120 mpirun --oversubscribe"
rm -rf "$dir"
mkdir -p "$dir"
fails=0
fail() { echo "FAIL $*"; fails=$((fails + 1)); }
checks="$dir/checks.txt"  # csv_plot.py's checks, run at the end in one Python start
: > "$checks"
py() { echo "$*" >> "$checks"; }

# 1. CSV tables of a model deck with both stages
sed -e 's/^  modes: 12$/  modes: 4/' -e '/^output:/,$d' "$top/decks/cantilever-tip-mass.yaml" \
  > "$dir/ctm.yaml"
printf 'output:\n  csv: true\n' >> "$dir/ctm.yaml"
for np in 1 2; do
  $mpirun -np $np "$bin" -q "$dir/ctm.yaml" -o "$dir/np$np" > "$dir/ctm.np$np.log" 2>&1 \
    || fail "ctm np $np: exit status $?"
  for st in modal complex; do
    py csv "$dir/np$np/ctm.$st.yaml" "$dir/np$np/ctm.$st.csv" \
      "$top/decks/cantilever-tip-mass.ref.$st.yaml" 4
  done
done
for st in modal complex; do py same "$dir/np1/ctm.$st.csv" "$dir/np2/ctm.$st.csv" 1e-8; done

# a matrix deck on 2 ranks (its vectors stay distributed): no participation columns; the
# free-free chain's closed form f_j = (1/2pi) 2 sqrt(k/m) sin(j pi/(2N)) in its references
sed "s|: chain_free|: $top/tests/decks/chain_free|" "$top/tests/decks/chain_free.yaml" \
  > "$dir/chain.yaml"
printf 'output:\n  csv: true\n' >> "$dir/chain.yaml"
$mpirun -np 2 "$bin" -q "$dir/chain.yaml" -o "$dir/chain" > "$dir/chain.log" 2>&1 \
  || fail "chain_free np 2: exit status $?"
py csv "$dir/chain/chain.modal.yaml" "$dir/chain/chain.modal.csv" \
  "$top/tests/decks/chain_free.ref.modal.yaml" 6
py csv "$dir/chain/chain.complex.yaml" "$dir/chain/chain.complex.csv" \
  "$top/tests/decks/chain_free.ref.complex.yaml" 5

# 2. mbmodal plot (the binary runs scripts/mbmodal_plot.py): the mode table of the modal
#    and complex reports, mode 2 of the model; then nothing to draw: exit 2 with why
np1="$dir/np1"
for args in "$np1/ctm.modal.yaml" "$np1/ctm.complex.yaml" "--mode 2 -o $np1/shape.png $np1/ctm.modal.yaml"; do
  "$bin" plot $args > "$dir/plot.log" 2>&1 || { fail "plot $args: exit status $?"; cat "$dir/plot.log"; }
done
py png "$np1/ctm.modal.png" "$np1/ctm.complex.png" "$np1/shape.png"
"$bin" plot --mode 5 "$np1/ctm.modal.yaml" > "$dir/plot5.log" 2>&1
st=$?
[ $st -eq 2 ] && grep -q "has no mode 5 (it has 4)" "$dir/plot5.log" \
  || fail "plot --mode 5 of 4 modes: exit $st, not 2 with 'has no mode 5'"

# 3. a report with a top-level frf: goes to plot_frf.draw(report, png) from the script's own
#    folder (a stub here, in a copy of scripts/); without the module, the message says so
mkdir -p "$dir/frf"
cp "$top/scripts/mbmodal_plot.py" "$dir/frf/"
printf 'format: mbmodal-report\nstage: frf\nfrf: {points: 3}\n' > "$dir/frf.yaml"
/usr/bin/python3 "$dir/frf/mbmodal_plot.py" "$dir/frf.yaml" > "$dir/frf1.log" 2>&1
st=$?
[ $st -eq 1 ] && grep -q "FRF plots need scripts/plot_frf.py" "$dir/frf1.log" \
  || fail "frf report without plot_frf.py: exit $st, not 1 with the message"
printf 'def draw(report, png):\n    open(png, "w").write("stub %%d\\n" %% report["frf"]["points"])\n' \
  > "$dir/frf/plot_frf.py"
/usr/bin/python3 "$dir/frf/mbmodal_plot.py" -o "$dir/frf.out" "$dir/frf.yaml" > "$dir/frf2.log" 2>&1 \
  || fail "frf report with a plot_frf.py: exit $?"
[ "$(cat "$dir/frf.out" 2>/dev/null)" = "stub 3" ] || fail "plot_frf.draw not called with the report"
# a binary away from its scripts/: exit 1 naming the script it looked for
mkdir -p "$dir/lone"
cp "$bin" "$dir/lone/mbmodal"
"$dir/lone/mbmodal" plot "$np1/ctm.modal.yaml" > "$dir/lone.log" 2>&1
st=$?
[ $st -eq 1 ] && grep -q "plot script $dir/lone/scripts/mbmodal_plot.py is missing" "$dir/lone.log" \
  || fail "plot without its script: exit $st, not 1 with the script's path"
rm -f "$dir/lone/mbmodal"

/usr/bin/python3 "$here/csv_plot.py" batch "$checks" || fail "csv_plot.py (above)"

if [ $fails -eq 0 ]; then echo "csv_plot: all checks passed (1 and 2 ranks)"; exit 0; fi
echo "csv_plot: $fails check(s) FAILED"
exit 1
