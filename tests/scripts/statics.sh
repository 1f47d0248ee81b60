#!/bin/sh
# statics.sh: deck-level checks of the static stage, on 1 and 2 MPI ranks.
#  1. Zero loads, no gravity: model decks of tests/models with `statics:` added (FIM, and
#     MKEAM for two of them) return the deck configuration in one Newton iteration (zero
#     displacement and rotation in the static report) and their modal reports equal those
#     of the same decks run without statics (mbmodal compare, rtol 1e-10, MAC 0.999999).
#  2. A free body without loads, stability 0: the singular tangent is an error (exit 3)
#     that names the body and p_f; with p_f it converges (MUMPS null pivots fixed), and the
#     modal stage finds its 6 rigid-body modes.
#     A free-floating pair on a spring pulled apart by self-equilibrated forces: the error
#     names both bodies; with p_f the spring stretches by F / k.
#  3. The tests/models/statics_*.yaml decks: their static reports against closed forms
#     (tests/scripts/statics_check.py: sags, reactions, top or bottom, stability).
#  4. A cantilever under large tip loads against Mattiasson's elastica table, converging
#     with the mesh (tests/scripts/statics_cantilever.py).
#     A rod under axial tension and compression: bending frequencies against the closed
#     form of a beam with axial force (tests/scripts/statics_tension.py).
#  5. Not converged: exit 4 with the best state's report; allow_unconverged runs the modes.
#  6. Fault injection (MBMODAL_FAULT) in the stage and its report: exit 7, no hang.
#  7. Every static report written here loads with a strict YAML reader, and its verdict
#     equals the unstable modes of the modal and complex reports of its run
#     (tests/scripts/statics_report.py --load).
# usage: sh statics.sh MBMODAL OUTDIR
bin=$1
dir="$2/statics"
top=$(cd "$(dirname "$0")/../.." && pwd)
mpirun="timeout 300 mpirun --oversubscribe"
rm -rf "$dir"
mkdir -p "$dir"
fails=0
n=0
fail() { echo "FAIL $*"; fails=$((fails + 1)); }
for deck in hinged_bar joint_revolute joint_spherical mass_spring welded_pair cantilever_eb; do
  cp "$top/tests/models/$deck.yaml" "$dir/$deck.yaml"
  for np in 1 2; do
    $mpirun -np $np "$bin" -q "$dir/$deck.yaml" -o "$dir/plain$np" > /dev/null 2>&1 \
      || fail "$deck np $np (without statics): exit $?"
  done
  for method in fim mkeam; do
    [ $method = mkeam ] && [ $deck != hinged_bar ] && [ $deck != mass_spring ] && continue
    name="${deck}_$method"
    { cat "$top/tests/models/$deck.yaml"; printf '\nstatics:\n  method: %s\n' $method; } \
      > "$dir/$name.yaml"
    for np in 1 2; do
      n=$((n + 1))
      out="$dir/np$np"
      if ! $mpirun -np $np "$bin" "$dir/$name.yaml" -o "$out" > "$out.$name.log" 2>&1; then
        fail "$name np $np: exit status $?"; tail -n 5 "$out.$name.log"; continue
      fi
      rep="$out/$name.static.yaml"
      grep -q '^  converged: true$' "$rep" || fail "$name np $np: not converged"
      if [ $method = fim ]; then
        grep -q '^  iterations: 1$' "$rep" || fail "$name np $np: not one iteration"
      fi
      bad=$(grep -E '^    (displacement|rotation): \[' "$rep" | grep -vE ': \[0, 0, 0\]$' | head -n 1)
      [ -z "$bad" ] || fail "$name np $np: moved: $bad"
      "$bin" compare --rtol 1e-10 --mac 0.999999 "$dir/plain$np/$deck.modal.yaml" \
        "$out/$name.modal.yaml" > "$out.$name.cmp" 2>&1 \
        || { fail "$name np $np: modal report differs from the run without statics"; cat "$out.$name.cmp"; }
    done
  done
done

# the free body
free="$dir/free_singular.yaml"
{ grep -v '^modal:' "$top/tests/models/free_body.yaml" | grep -v '^  modes:'; \
  printf 'statics:\n  stability: 0\n'; } > "$free"
for np in 1 2; do
  n=$((n + 1))
  $mpirun -np $np "$bin" -q "$free" -o "$dir/free" > "$dir/free.out" 2> "$dir/free.err"
  st=$?
  [ $st -eq 3 ] || fail "free body np $np: exit $st, wanted 3"
  grep -q "body 'block' d" "$dir/free.err" || fail "free body np $np: the body is not named: $(cat "$dir/free.err")"
  grep -q "p_f" "$dir/free.err" || fail "free body np $np: p_f not suggested"
done
fixed="$dir/free_p_f.yaml"
{ cat "$top/tests/models/free_body.yaml"; printf 'statics:\n  stability: 0\n  p_f: 1.0e-8\n'; } > "$fixed"
for np in 1 2; do
  n=$((n + 1))
  if ! $mpirun -np $np "$bin" "$fixed" -o "$dir/np$np" > "$dir/fixed.np$np.log" 2>&1; then
    fail "free body with p_f np $np: exit $?"; tail -n 5 "$dir/fixed.np$np.log"; continue
  fi
  grep -q '^  converged: true$' "$dir/np$np/free_p_f.static.yaml" || fail "free body p_f np $np: not converged"
  grep -q '^  grounded_springs: 6$' "$dir/np$np/free_p_f.static.yaml" || fail "free body p_f np $np: not 6 grounded springs"
  rigid=$(grep -c '^    kind: rigid-body$' "$dir/np$np/free_p_f.modal.yaml")
  [ "$rigid" = 6 ] || fail "free body p_f np $np: $rigid rigid-body modes, wanted 6"
done
# 2b. a free-floating pair (two bodies on a spring) pulled apart by equal and opposite
#     forces of 10 N: singular without p_f (both bodies named); with p_f the spring
#     stretches by F / k = 0.01 m (k = 1000 N/m)
pair="$dir/free_pair.yaml"
cat > "$pair" <<'DECK'
units: SI
bodies:
  left: {mass: 1.0, inertia: [0.01, 0.01, 0.01], position: [0, 0, 0]}
  right: {mass: 2.0, inertia: [0.02, 0.02, 0.02], position: [1, 0, 0]}
forces:
  link: {type: spring, nodes: [left, right], points: [[0, 0, 0], [1, 0, 0]], k: 1000}
  pull_left: {type: force, node: left, value: [-10, 0, 0]}
  pull_right: {type: force, node: right, value: [10, 0, 0]}
modal:
  enabled: false
statics:
  stability: 0
DECK
sed 's/^  stability: 0$/  stability: 0\n  p_f: 1.0e-8/' "$pair" > "$dir/free_pair_p_f.yaml"
for np in 1 2; do
  n=$((n + 1))
  $mpirun -np $np "$bin" -q "$pair" -o "$dir/pair" > /dev/null 2> "$dir/pair.err"
  st=$?
  [ $st -eq 3 ] || fail "free pair np $np: exit $st, wanted 3"
  { grep -q "body 'left' d" "$dir/pair.err" && grep -q "body 'right' d" "$dir/pair.err"; } \
    || fail "free pair np $np: bodies not named: $(cat "$dir/pair.err")"
  n=$((n + 1))
  if $mpirun -np $np "$bin" -q "$dir/free_pair_p_f.yaml" -o "$dir/pair$np" > /dev/null 2>&1; then
    el=$(sed -n 's/^    elongation: //p' "$dir/pair$np/free_pair_p_f.static.yaml")
    /usr/bin/python3 -c "import sys; sys.exit(abs($el - 0.01) > 1e-9)" \
      || fail "free pair p_f np $np: elongation $el, wanted 0.01"
  else fail "free pair p_f np $np: exit $?"; fi
done

# 3. the statics decks of tests/models: static reports against closed forms
for deck in "$top"/tests/models/statics_*.yaml; do
  case "$deck" in *.ref.*) continue ;; esac
  name=$(basename "$deck" .yaml)
  for np in 1 2; do
    n=$((n + 1))
    $mpirun -np $np "$bin" -q "$deck" -o "$dir/models/np$np" > "$dir/models.$name.np$np.log" 2>&1 \
      || { fail "$name np $np: exit $?"; tail -n 5 "$dir/models.$name.np$np.log"; }
  done
done
/usr/bin/python3 "$top/tests/scripts/statics_check.py" "$dir/models" || fail "statics_check.py"
# 4. a cantilever under a large tip load against Mattiasson's elastica table
n=$((n + 1))
/usr/bin/python3 "$top/tests/scripts/statics_cantilever.py" "$bin" "$dir" > "$dir/cantilever.log" 2>&1 \
  || { fail "statics_cantilever.py"; cat "$dir/cantilever.log"; }
tail -n 1 "$dir/cantilever.log"

# 4b. a pinned-pinned rod under axial tension and compression: its bending frequencies
#     follow the closed form of a beam with axial force
n=$((n + 1))
/usr/bin/python3 "$top/tests/scripts/statics_tension.py" "$bin" "$dir" > "$dir/tension.log" 2>&1 \
  || { fail "statics_tension.py"; cat "$dir/tension.log"; }
tail -n 1 "$dir/tension.log"

# 5. not converged (the cantilever at P L^2/EI = 10 with max_num_iter 3): exit 4, the static
#    report says why, the modal stage is skipped; with allow_unconverged it runs (exit 4 still)
for allow in false true; do
  nc="$dir/noconv_$allow.yaml"
  sed -e 's/^  method: fim$/  method: fim\n  max_num_iter: 3\n  allow_unconverged: '$allow'/' \
      -e 's/^  enabled: false$/  enabled: true\n  modes: 2/' "$dir/cantilever/cant_10_8.yaml" > "$nc"
  for np in 1 2; do
    n=$((n + 1))
    $mpirun -np $np "$bin" -q "$nc" -o "$dir/nc$np" > "$dir/nc.out" 2> "$dir/nc.err"
    st=$?
    [ $st -eq 4 ] || fail "noconv $allow np $np: exit $st, wanted 4"
    grep -q "static equilibrium not reached (FIM): max_num_iter = 3" "$dir/nc.err" \
      || fail "noconv $allow np $np: message: $(cat "$dir/nc.err")"
    grep -q '^  converged: false$' "$dir/nc$np/noconv_$allow.static.yaml" \
      || fail "noconv $allow np $np: static report"
    if [ $allow = false ]; then
      [ ! -f "$dir/nc$np/noconv_$allow.modal.yaml" ] || fail "noconv np $np: modal ran"
    else
      [ -f "$dir/nc$np/noconv_$allow.modal.yaml" ] || fail "noconv allow np $np: modal skipped"
    fi
  done
done
# 6. out of memory in the static stage (fault injection) and in its report: a clean exit 7,
#    no hang, on 1 and 2 ranks
for site in statics report; do
  for np in 1 2; do
    n=$((n + 1))
    MBMODAL_FAULT="*:$site" $mpirun -np $np "$bin" -q "$top/tests/models/statics_pendulum_fim.yaml" \
      -o "$dir/fault" > /dev/null 2> "$dir/fault.err"
    st=$?
    [ $st -eq 7 ] || fail "fault $site np $np: exit $st, wanted 7: $(head -c 300 "$dir/fault.err")"
  done
done
# 7. every static report written above loads with a strict YAML reader (PyYAML and
#    libyaml), and where its run converged its verdict equals the unstable modes of the
#    modal and complex reports beside it (tests/scripts/statics_report.py --load)
n=$((n + 1))
/usr/bin/python3 "$top/tests/scripts/statics_report.py" --load "$bin" "$dir" > "$dir/load.log" 2>&1 \
  || { fail "static reports: statics_report.py --load"; cat "$dir/load.log"; }
tail -n 1 "$dir/load.log"
echo "statics.sh: $n runs, $fails failures"
[ $fails -eq 0 ]
