#!/bin/sh
# beams.sh: Timoshenko beams, line loads and tapered members (issue 25, part 1):
#  1. tests/scripts/timoshenko.py: simply supported and clamped Timoshenko beams at
#     L/r = 5, 10, 50 against Timoshenko's frequency equation and the cantilever's
#     transcendental equation, and the shear-rigid limits, 1 and 2 ranks in one deck;
#  2. tests/scripts/line_load.py: line loads, global and follower, in statics: small loads
#     on Euler-Bernoulli and Timoshenko cantilevers against q L^4/8EI (+ q L^2/2GAs) and
#     q L^3/6EI, large ones against the elastica by shooting, 1 and 2 ranks in one deck;
#  3. tests/scripts/taper.py: a tapered rectangle and a stepped circle cantilever against an
#     independent numpy model (checked against Kirchhoff's wedge), 1 and 2 ranks;
#  4. deck errors, 1 rank (Asy alone on 2 ranks): an unknown theory, theory timoshenko on a
#     section given by its properties without shear areas (at the theory key), Asy without
#     Asz, shear_factor with Asy, a line load's unknown frame and missing value, a section
#     list of the wrong length, a taper between two shapes, an unknown section in a list;
#     each exits 2 naming file:line:col; a line load without statics runs with a note.
# usage: sh beams.sh MBMODAL OUTDIR
bin=$1
dir="$2/beams"
here=$(dirname "$0")
rm -rf "$dir"
mkdir -p "$dir"
fails=0
n=0
fail() { echo "FAIL $*"; fails=$((fails + 1)); }
n=$((n + 1))
/usr/bin/python3 "$here/timoshenko.py" "$bin" "$dir" > "$dir/timoshenko.log" 2>&1 \
  || { fail "timoshenko.py"; cat "$dir/timoshenko.log"; }
n=$((n + 1))
/usr/bin/python3 "$here/line_load.py" "$bin" "$dir" > "$dir/line_load.log" 2>&1 \
  || { fail "line_load.py"; cat "$dir/line_load.log"; }
n=$((n + 1))
/usr/bin/python3 "$here/taper.py" "$bin" "$dir" > "$dir/taper.log" 2>&1 \
  || { fail "taper.py"; cat "$dir/taper.log"; }
# bad NAME NP LINE:COL TEXT SECTION-LINE BEAM-EXTRA: a deck with that section and beam key
# line; exit 2 and TEXT at DECK:LINE:COL on stderr
bad() {
  name=$1 np=$2 where=$3 text=$4
  deck="$dir/$name.yaml"
  cat > "$deck" <<EOD
units: SI
materials:
  steel: {E: 2.0e11, nu: 0.3, rho: 7850}
sections:
$5
beams:
  b:
    material: steel
    section: ${7:-s}
    from: [0, 0, 0]
    to: [1, 0, 0]
    elements: 4
$6
EOD
  n=$((n + 1))
  if [ "$np" = 1 ]; then timeout 60 "$bin" -q "$deck" -o "$dir/out" > /dev/null 2> "$dir/$name.err"
  else timeout 60 mpirun --oversubscribe -np 2 "$bin" -q "$deck" -o "$dir/out" > /dev/null 2> "$dir/$name.err"; fi
  st=$?
  [ $st -eq 2 ] || fail "$name: exit $st, wanted 2"
  grep -qF "$deck:$where: error: $text" "$dir/$name.err" \
    || fail "$name: no '$deck:$where: error: $text': $(head -c 400 "$dir/$name.err")"
}
bad theory_typo 1 13:13 "beam 'b': 'theory' must be one of euler_bernoulli, timoshenko (got 'timoshenk')" \
  "  s: {shape: circle, diameter: 0.1}" "    theory: timoshenk"
bad theory_props 1 13:13 "beam 'b': theory timoshenko needs the shear areas of section 's'" \
  "  s: {A: 1.0e-2, Iy: 1.0e-5, Iz: 1.0e-5, J: 2.0e-5}" "    theory: timoshenko"
bad asy_alone 2 5:53 "section 's': 'Asy' needs 'Asz'" \
  "  s: {A: 1.0e-2, Iy: 1.0e-5, Iz: 1.0e-5, J: 2.0e-5, Asy: 8.0e-3}" ""
bad factor_and_asy 1 5:79 "section 's': give either 'shear_factor' or 'Asy' and 'Asz', not both" \
  "  s: {A: 1.0e-2, Iy: 1.0e-5, Iz: 1.0e-5, J: 2.0e-5, Asy: 8.0e-3, Asz: 8.0e-3, shear_factor: 0.8}" ""
bad load_frame 1 13:43 "beam 'b': line_load: 'frame' must be one of global, body (got 'follower')" \
  "  s: {shape: circle, diameter: 0.1}" "    line_load: {value: [0, 0, -1], frame: follower}"
bad load_value 1 13:16 "beam 'b': line_load: missing required key 'value'" \
  "  s: {shape: circle, diameter: 0.1}" "    line_load: {frame: body}"
bad seg_count 1 9:14 "beam 'b': 'section' has 2 entries but the beam has 1 segment" \
  "  s: {shape: circle, diameter: 0.1}" "" "[s, s]"
bad taper_shapes 2 10:15 "beam 'b': segment 1 tapers from section 's' to 'r': a taper needs two sections of the same shape" \
  "  s: {shape: circle, diameter: 0.1}
  r: {shape: rectangle, y: 0.1, z: 0.1}" "" "[[s, r]]"
bad taper_unknown 1 9:15 "beam 'b': segment 1: unknown section 't'" \
  "  s: {shape: circle, diameter: 0.1}" "" "[[s, t]]"
# a line load without a statics section: exit 0 and the note that it has no effect
n=$((n + 1))
cat > "$dir/note.yaml" <<EOD
units: SI
materials:
  steel: {E: 2.0e11, nu: 0.3, rho: 7850}
sections:
  s: {shape: circle, diameter: 0.1}
beams:
  b: {material: steel, section: s, from: [0, 0, 0], to: [1, 0, 0], elements: 4,
      line_load: {value: [0, 0, -100]}}
joints:
  clamp: {type: weld, nodes: [ground, b.start]}
modal: {modes: 2}
output: {vtk: false}
EOD
timeout 60 "$bin" "$dir/note.yaml" -o "$dir/out" > "$dir/note.log" 2>&1 \
  || fail "note: exit $?: $(tail -n 3 "$dir/note.log")"
grep -qF "note: the line load of beam 'b' has no effect on the modes without a statics section" \
  "$dir/note.log" || fail "note: no note on the line load: $(head -c 400 "$dir/note.log")"
echo "beams.sh: $n checks, $fails failed"
[ $fails -eq 0 ]
