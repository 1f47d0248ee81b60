#!/bin/sh
# tower.sh: the bundled deck decks/tower.yaml (a wind-turbine tower with its nacelle: gravity,
# statics, modal with participation, buckling, frf) against references from outside mbmodal,
# on 1 and 2 MPI ranks (tests/scripts/tower.py, numpy and closed forms):
#  - all 8 frequencies about the loaded state against an independent numpy beam model with
#    the consistent geometric stiffness of the weight (1e-4: mbmodal's chord K_G);
#  - the participation's dominant directions: side-side dy, fore-aft dx, torsion rz;
#  - the buckling load factor under gravity and the nacelle's weight against numpy (5e-4);
#  - the FRF's static limit (thrust to the nacelle's acceleration, |H| / w^2 as w -> 0)
#    against the numpy model's (K + K_G)^-1 (2e-4);
#  - the deck with gravity 0 (1 rank): the first fore-aft frequency against the closed-form
#    frequency equation of a cantilever with a tip mass and rotary inertia (1e-6), and the
#    FRF's static limit against L^3 / (3 EI) (1e-6);
#  - `mbmodal plot` gives the run's FRF report (NAME.frf.yaml) to plot_frf.draw (a stub);
#  - the run itself draws NAME.frf.png (a PNG file, its log says so; 1 and 2 ranks); with
#    `output.plots: false` none; a binary without its scripts/ writes no PNG, says why in
#    a note and still exits 0.
# usage: sh tower.sh MBMODAL OUTDIR
bin=$1
dir="$2/tower"
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
mpirun="timeout 120 mpirun --oversubscribe"
rm -rf "$dir"
mkdir -p "$dir"
fails=0
fail() { echo "FAIL $*"; fails=$((fails + 1)); }

# run DECK NP OUT: one run, its log beside
run() {
  $mpirun -np "$2" "$bin" "$1" -o "$3" > "$3.log" 2>&1 \
    || { fail "$1 np $2: exit status $?"; tail -n 5 "$3.log"; }
}

# the deck without gravity, statics and buckling (nothing would load it)
sed -e 's/^gravity: .*/gravity: [0, 0, 0]/' -e '/^statics:/d' -e '/^buckling:/,/^  modes:/d' \
  "$top/decks/tower.yaml" > "$dir/tower.yaml"
run "$dir/tower.yaml" 1 "$dir/nograv"
for np in 1 2; do
  run "$top/decks/tower.yaml" $np "$dir/np$np"
  (cd "$top" && /usr/bin/python3 "$here/tower.py" check "$dir/np$np" "$dir/nograv") \
    || fail "tower.py on $np ranks"
done
# mbmodal plot routes the run's FRF report (NAME.frf.yaml, not only a stub report) to
# plot_frf.draw: scripts/mbmodal_plot.py beside a stub plot_frf.py (matplotlib's drawing is
# frf.sh's check, and costs seconds)
mkdir -p "$dir/plot"
cp "$top/scripts/mbmodal_plot.py" "$dir/plot/"
printf 'def draw(report, png):\n    open(png, "w").write("pairs %%d\\n" %% len(report["pairs"]))\n' \
  > "$dir/plot/plot_frf.py"
if /usr/bin/python3 "$dir/plot/mbmodal_plot.py" -o "$dir/frf.png" "$dir/np1/tower.frf.yaml" \
     > "$dir/plot.log" 2>&1 && grep -q "^pairs 1$" "$dir/frf.png"; then
  echo "ok: mbmodal plot draws tower.frf.yaml with plot_frf.draw"
else fail "mbmodal plot of tower.frf.yaml"; cat "$dir/plot.log"; fi
# the run's own PNG of the FRF (rank 0), its absence on request, and the note without scripts/
is_png() { head -c 8 "$1" 2>/dev/null | od -An -tx1 | tr -d ' \n' | grep -q '^89504e470d0a1a0a$'; }
for np in 1 2; do
  is_png "$dir/np$np/tower.frf.png" && grep -q "frf: plot written to .*tower.frf.png" "$dir/np$np.log" \
    || fail "np $np: the run wrote no FRF plot (tower.frf.png) or did not say so"
done
sed 's/^output:$/output:\n  plots: false/' "$dir/tower.yaml" > "$dir/noplots.yaml"
run "$dir/noplots.yaml" 1 "$dir/noplots"
[ -e "$dir/noplots/noplots.frf.png" ] && fail "plots: false still wrote noplots.frf.png"
mkdir -p "$dir/bare"
cp "$bin" "$dir/bare/mbmodal"
if "$dir/bare/mbmodal" "$dir/tower.yaml" -o "$dir/bare/out" > "$dir/bare.log" 2>&1; then
  grep -q "note: frf: no plot (the plot script scripts/mbmodal_plot.py is not beside the binary)" \
    "$dir/bare.log" || fail "a binary without scripts/: no note on the missing plot"
  [ -e "$dir/bare/out/tower.frf.png" ] && fail "a binary without scripts/ wrote a PNG"
else fail "a binary without scripts/: exit $? (the missing plot must not fail the run)"; fi
if [ $fails -eq 0 ]; then echo "tower: all checks passed (1 and 2 ranks)"
else echo "tower: $fails failure(s)"; exit 1; fi
