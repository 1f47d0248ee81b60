#!/bin/sh
# run.sh: every test of mbmodal: unit tests (the MPI ones on 1 and 2 ranks), bad decks,
# matrix and model deck tests against their references on 1 and 2 ranks, the 1-vs-2-rank
# agreement, the model check scripts (tests/models/) and tests/scripts/*.sh.
# usage: sh tests/run.sh BUILD_DIR MBMODAL_BINARY     (make test calls it)
# The last line is "N passed, N failed"; the exit status is non-zero when one failed.
build=${1:-build}
bin=${2:-./mbmodal}
top=$(cd "$(dirname "$0")/.." && pwd)
case "$bin" in /*) ;; *) bin="$top/$bin" ;; esac
cd "$top" || exit 2
out="$build/test-out"
rm -rf "$out"
mkdir -p "$out"

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_rmaps_base_oversubscribe=1
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 OMPI_MCA_mpi_yield_when_idle=1
# Open MPI's mpirun waits 1 s (np 2) to 2 s (np 1) before it returns a rank's non-zero exit
# status, its SIGTERM-to-SIGKILL grace; at 0 a failing run returns at once (the failing
# decks and fault sites run hundreds of times). signals.sh restores the grace it tests.
export OMPI_MCA_odls_base_sigkill_timeout=0
export ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1}"
export LSAN_OPTIONS="${LSAN_OPTIONS:-suppressions=$top/tests/lsan.supp:fast_unwind_on_malloc=0:print_suppressions=0}"
mpirun="timeout 600 mpirun --oversubscribe"   # a hang fails, never blocks
# One rank as a singleton (the program started without mpirun: MPI_Init makes a world of
# one): the same MPI code path, without mpirun's 2 s of shutting down after a non-zero exit,
# which the bad decks pay 83 times. "ranks NP" is the launcher for NP ranks.
ranks() { if [ "$1" = 1 ]; then echo "timeout 600"; else echo "$mpirun -np $1"; fi; }

passed=0
failed=0
t0=$(date +%s)
section() { echo "== $* [at $(( $(date +%s) - t0 )) s]"; }  # a header with the time so far
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL $*"; }

# add a unit test's "N passed, N failed" to the totals; on several ranks every rank prints
# its own line, in any order: the largest counts (rank 0's, which runs every check) are taken
count_unit() {  # name logfile status
  line=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$2" | sort -n -k1,1 -k3,3 | tail -n 1)
  if [ -z "$line" ]; then bad "$1: no result line (status $3)"; tail -n 20 "$2"; return; fi
  p=${line%% passed*}
  f=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$2" | sed 's/.*, //; s/ failed//' | sort -n | tail -n 1)
  passed=$((passed + p))
  failed=$((failed + f))
  if [ "$f" != 0 ] || [ "$3" != 0 ]; then
    [ "$f" = 0 ] && failed=$((failed + 1))
    echo "FAIL $1 (status $3):"; grep FAIL "$2" | head -n 20
  fi
}

section "layers (make check-layers)"
if sh scripts/check_layers.sh > "$out/check_layers.log" 2>&1; then ok; tail -n 1 "$out/check_layers.log"
else bad "scripts/check_layers.sh"; cat "$out/check_layers.log"; fi

section "unit tests"
for t in "$build"/tests/test_*; do
  [ -x "$t" ] || continue
  name=$(basename "$t")
  if grep -q "MPI_Init" "tests/unit/$name.c" 2>/dev/null; then
    for np in 1 2; do
      $mpirun -np $np "$t" > "$out/$name.np$np.log" 2>&1
      st=$?
      count_unit "$name (np $np)" "$out/$name.np$np.log" $st
      echo "  $name np $np: $(tail -n 1 "$out/$name.np$np.log")"
    done
  else
    timeout 600 "$t" > "$out/$name.log" 2>&1
    st=$?
    count_unit "$name" "$out/$name.log" $st
    echo "  $name: $(tail -n 1 "$out/$name.log")"
  fi
done
# issue 10: test_gep's problems (most below the order where the block path is the default)
# with Krylov-Schur's block path forced, blocks of 3 and 8, on 1 and 2 ranks: the same
# checks against dense LAPACK as the default path
if [ -x "$build/tests/test_gep" ]; then
  for blk in 3 8; do
    for np in 1 2; do
      $mpirun -np $np "$build/tests/test_gep" --block $blk \
        > "$out/test_gep.block$blk.np$np.log" 2>&1
      st=$?
      count_unit "test_gep block $blk (np $np)" "$out/test_gep.block$blk.np$np.log" $st
      echo "  test_gep block $blk np $np: $(tail -n 1 "$out/test_gep.block$blk.np$np.log")"
    done
  done
  # 5 ranks (oversubscribed): more ranks than the smallest problems have rows, so that a
  # rank holds no row of the pencil or the Krylov basis (the by-rows paths, the parts)
  $mpirun -np 5 "$build/tests/test_gep" > "$out/test_gep.np5.log" 2>&1
  st=$?
  count_unit "test_gep (np 5)" "$out/test_gep.np5.log" $st
  echo "  test_gep np 5: $(tail -n 1 "$out/test_gep.np5.log")"
  # every undamped problem given by rows (TEST_GEP_PARTS: the system as a matrix deck read
  # by rows gives it, no rank with a whole matrix) on 2 and 3 ranks, and on 1 (gathered):
  # the same checks against dense LAPACK
  for np in 1 2 3; do
    TEST_GEP_PARTS=1 $mpirun -x TEST_GEP_PARTS -np $np "$build/tests/test_gep" \
      > "$out/test_gep.parts.np$np.log" 2>&1
    st=$?
    count_unit "test_gep parts (np $np)" "$out/test_gep.parts.np$np.log" $st
    echo "  test_gep parts np $np: $(tail -n 1 "$out/test_gep.parts.np$np.log")"
  done
fi

section "bad decks (each: expected position and message, exit status 2 unless it says)"
# Each bad deck on 1 rank; on 2 ranks too (every rank must see the same error and exit
# alike) those that fail beyond the parser (an expect-status) and every sixth of the rest:
# the parser runs the same on every rank, and each 2-rank failure costs mpirun ~2 s.
i=0
for d in tests/bad/*.yaml; do
  [ -f "$d" ] || continue
  i=$((i + 1))
  expect=$(sed -n 's/^# expect: //p' "$d" | head -n 1)
  status=$(sed -n 's/^# expect-status: //p' "$d" | head -n 1)
  nps="1"
  if [ -n "$status" ] || [ $((i % 6)) = 1 ]; then nps="1 2"; fi
  status=${status:-2}
  case "$expect" in
    *": "*) where=${expect%%: *}; what=${expect#*: } ;;
    *) where=""; what=$expect ;;
  esac
  for np in $nps; do
    $(ranks $np) "$bin" -q "$d" -o "$out/bad" > "$out/bad.out" 2> "$out/bad.err"
    st=$?
    if [ $st -eq "$status" ] && grep -qF "$where" "$out/bad.err" && grep -qF "$what" "$out/bad.err"; then ok
    else bad "$d (np $np): status $st, wanted $status and '$expect'; got: $(head -c 300 "$out/bad.err")"; fi
  done
done

# Runs one deck on 1 and 2 ranks (and 3: a model deck with a `statics` section, and the few of
# three_ranks, whose modes come from the by-rows path about a loaded state or with joints of
# every kind) and checks each stage's report: against NAME.ref.STAGE.yaml beside the deck
# (mbmodal compare, with the options of the reference's "# compare:" line if it has one; its
# `rtol:` key is the default tolerance), the number of rigid-body modes when the reference
# has a "# rigid-body modes: N" line, the 1-rank against the 2- and 3-rank reports at rtol
# 1e-9, and the reports' profile blocks (tests/scripts/profile_check.py: one peak memory
# entry per rank).
three_ranks="free_body joint_universal tip_mass cantilever-tip-mass"
deck_test() {  # deck
  deck=$1
  name=$(basename "$deck" .yaml)
  nps="1 2"
  if grep -q '^statics:' "$deck" || echo " $three_ranks " | grep -q " $name "; then nps="1 2 3"; fi
  for np in $nps; do
    $mpirun -np $np "$bin" "$deck" -o "$out/np$np" > "$out/$name.np$np.log" 2>&1
    st=$?
    if [ $st -eq 0 ]; then ok; else bad "$deck (np $np): exit status $st"; tail -n 5 "$out/$name.np$np.log"; fi
    # each report's profile: well formed, consistent, one peak memory per rank
    reps=""
    for stage in modal complex; do
      [ -f "$out/np$np/$name.$stage.yaml" ] && reps="$reps $out/np$np/$name.$stage.yaml"
    done
    # shellcheck disable=SC2086  # reps holds several paths
    if [ -z "$reps" ]; then :   # no eigen stage ran: nothing to check
    elif /usr/bin/python3 tests/scripts/profile_check.py $np $reps \
         > "$out/$name.np$np.profile.log" 2>&1; then ok
    else bad "$deck (np $np): profile of the reports"; cat "$out/$name.np$np.profile.log"; fi
  done
  for stage in modal complex; do
    ref="${deck%.yaml}.ref.$stage.yaml"
    rep="$out/np1/$name.$stage.yaml"
    if [ ! -f "$rep" ]; then
      [ -f "$ref" ] && bad "$deck: no $stage report for $ref"
      continue
    fi
    if [ -f "$ref" ]; then
      opts=$(sed -n 's/^# compare: //p' "$ref" | head -n 1)
      # shellcheck disable=SC2086  # opts holds several options
      if timeout 600 "$bin" compare $opts "$ref" "$rep" > "$out/$name.$stage.ref.log" 2>&1; then
        ok; echo "  $name $stage vs $(basename "$ref"): $(tail -n 1 "$out/$name.$stage.ref.log")"
      else bad "$deck $stage against $ref"; cat "$out/$name.$stage.ref.log"; fi
      want=$(sed -n 's/^# rigid-body modes: //p' "$ref" | head -n 1)
      if [ -n "$want" ]; then
        got=$(grep -c '^    kind: rigid-body$' "$rep")
        if [ "$got" = "$want" ]; then ok
        else bad "$deck $stage: $got rigid-body modes, the reference says $want"; fi
      fi
    fi
    for np in $nps; do
      [ "$np" = 1 ] && continue
      if "$bin" compare --rtol 1e-9 --mac 0.999999 "$rep" "$out/np$np/$name.$stage.yaml" \
           > "$out/$name.$stage.np$np.log" 2>&1; then ok
      else bad "$deck $stage: 1 and $np ranks disagree"; cat "$out/$name.$stage.np$np.log"; fi
    done
  done
}

section "matrix decks (references from closed forms and independent codes; 1 and 2 ranks)"
for deck in tests/decks/*.yaml; do
  case "$deck" in *.ref.*) continue ;; esac
  [ -f "$deck" ] || continue
  deck_test "$deck"
done

section "model decks (decks/ and tests/models/; references from closed forms and tests/models/mbref.py)"
for deck in decks/*.yaml tests/models/*.yaml; do
  case "$deck" in *.ref.*) continue ;; esac
  [ -f "$deck" ] || continue
  deck_test "$deck"
done

section "model scripts (mesh convergence, Rayleigh relation, assembled matrices)"
# Runs a check script; its last output line is shown.
script_test() {  # name command...
  sname=$1
  shift
  if "$@" > "$out/$sname.log" 2>&1; then ok; echo "  $sname: $(tail -n 1 "$out/$sname.log")"
  else bad "$sname"; tail -n 20 "$out/$sname.log"; fi
}
py=/usr/bin/python3
script_test convergence $py tests/models/convergence.py "$bin" "$out"
for d in cantilever free-free beam-grid; do   # decks with R = 1e-3 M + 1e-5 K
  script_test "rayleigh-$d" $py tests/models/check_rayleigh.py \
    "$out/np1/$d.modal.yaml" "$out/np1/$d.complex.yaml" 1e-3 1e-5
done
script_test export-beam-grid $py tests/models/check_export.py "$bin" "$out"

section "mode shapes (.vtu read back with VTK's own reader, against the YAML reports)"
script_test vtk-selftest sh tests/scripts/vtk_check.sh --selftest "$build"
script_test vtk-model-decks sh tests/scripts/vtk_check.sh --dir "$out/np1"

for s in tests/scripts/*.sh; do
  [ -f "$s" ] || continue
  case "$s" in */vtk_check.sh) continue ;; esac   # called above with its own arguments
  section "$(basename "$s")"
  if sh "$s" "$bin" "$out" > "$out/$(basename "$s").log" 2>&1; then ok; tail -n 1 "$out/$(basename "$s").log"
  else bad "$s"; tail -n 20 "$out/$(basename "$s").log"; fi
done

echo "all tests took $(( $(date +%s) - t0 )) s"
echo "$passed passed, $failed failed"
[ "$failed" = 0 ]
