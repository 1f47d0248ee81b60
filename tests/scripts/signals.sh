#!/bin/sh
# signals.sh: a run stopped from outside ends promptly and leaves no report that looks
# complete but is not: SIGTERM to a 1-rank run, SIGTERM to mpirun of 2 ranks (what a
# scheduler's cancel does), and kill -9 of one rank of 2. Each must end within 20 s of the
# signal with a non-zero status; every .yaml report left in the output folder must load
# as YAML and hold its modes list (a report is written under a temporary name and renamed
# when whole). Then SIGTERM while a report is being written (the fault site write-stop
# stops rank 0 with its temporary file complete but not renamed), on 1 and 2 ranks: the
# run ends with a non-zero status (143 on 1 rank), no report under its final name and no
# hidden ".NAME.partial.PID.N" file left (the handler removes the files being written).
# usage: sh tests/scripts/signals.sh MBMODAL OUTDIR
bin=$1
out=$2/signals
rm -rf "$out"
mkdir -p "$out"
top=$(cd "$(dirname "$0")/../.." && pwd)
deck=$out/grid40.yaml
/usr/bin/python3 "$top/scripts/make_beam_grid_deck.py" 40 40 "$deck" || exit 1
# 150 undamped and 100 damped modes: the run lasts well beyond the signal at 4 s (12 and 8
# modes without vectors end in 3-5 s on an idle 2-core machine)
sed -i 's/^  modes: 12 /  modes: 150 /; s/^  modes: 8 /  modes: 100 /' "$deck"
fails=0
fail() { fails=$((fails + 1)); echo "FAIL $*"; }

# waits for pid, at most 20 s (a watchdog kills it then); sets st to its status, or to
# "hang"
wait_bounded() {  # pid
  rm -f "$out/watchdog"
  ( sleep 20; kill -9 "$1" 2>/dev/null && : > "$out/watchdog" ) &
  dog=$!
  wait "$1"
  st=$?
  kill -9 "$dog" 2>/dev/null
  [ -f "$out/watchdog" ] && st=hang
}

reports_whole() {  # dir label
  for r in "$1"/*.yaml; do
    [ -f "$r" ] || continue
    /usr/bin/python3 -c "import sys, yaml; d = yaml.load(open(sys.argv[1]), Loader=getattr(yaml, 'CSafeLoader', yaml.SafeLoader)); \
assert isinstance(d.get('modes'), list) and d.get('format') == 'mbmodal-report'" "$r" \
      2>/dev/null || fail "$2: $(basename "$r") does not look whole"
  done
}

case_run() {  # label signal target(one|mpirun|rank) command...
  label=$1 sig=$2 target=$3
  shift 3
  dir=$out/$label
  mkdir -p "$dir"
  "$@" -q --no-vectors "$deck" -o "$dir" > "$dir.log" 2>&1 &
  pid=$!
  sleep 4   # a stage is running (the 40 x 40 grid, 150 modes, takes far longer)
  case $target in
    rank) victim=$(pgrep -P "$pid" -x mbmodal | tail -n 1) ;;   # a rank of this mpirun
    *) victim=$pid ;;
  esac
  [ -n "$victim" ] && kill -s "$sig" "$victim"
  wait_bounded $pid
  case $st in
    hang) fail "$label: still running 20 s after SIG$sig" ;;
    0) fail "$label: status 0 after SIG$sig" ;;
    *) echo "  $label: ended with status $st after SIG$sig" ;;
  esac
  reports_whole "$dir" "$label"
  if [ "$sig" != KILL ] && ls -A "$dir" | grep -q '\.partial\.'; then
    fail "$label: a temporary .partial. file left after SIG$sig"
  fi
}

export OMPI_MCA_rmaps_base_oversubscribe=1
unset OMPI_MCA_odls_base_sigkill_timeout   # mpirun's own grace, as a job script has it
case_run term-1rank TERM one "$bin"
grep -q "stopped by SIGTERM" "$out/term-1rank.log" || fail "term-1rank: no message naming SIGTERM"
case_run term-mpirun TERM mpirun mpirun --oversubscribe -np 2 "$bin"
case_run kill9-rank KILL rank mpirun --oversubscribe -np 2 "$bin"

# the pid among $1 and its children that is stopped (state T), or nothing
stopped_pid() {
  for p in "$1" $(pgrep -P "$1"); do
    [ "$(awk '{print $3}' "/proc/$p/stat" 2>/dev/null)" = T ] && { echo "$p"; return; }
  done
}

partial_case() {  # label np
  label=$1
  dir=$out/$label
  mkdir -p "$dir"
  if [ "$2" = 1 ]; then
    MBMODAL_FAULT=0:write-stop "$bin" -q "$top/tests/models/mass_spring.yaml" -o "$dir" \
      > "$dir.log" 2>&1 &
  else
    mpirun --oversubscribe -np 2 -x MBMODAL_FAULT=0:write-stop "$bin" -q \
      "$top/tests/models/mass_spring.yaml" -o "$dir" > "$dir.log" 2>&1 &
  fi
  pid=$!
  victim=
  for i in $(seq 1 600); do   # at most 60 s for the run to reach its first write
    victim=$(stopped_pid "$pid")
    [ -n "$victim" ] && break
    sleep 0.1
  done
  if [ -z "$victim" ]; then
    fail "$label: no process stopped at the write (fault site write-stop)"
    kill -9 "$pid" 2>/dev/null
    return
  fi
  ls -A "$dir" | grep -q '\.partial\.' || fail "$label: (setup) no temporary file while writing"
  kill -s TERM "$victim"
  kill -s CONT "$victim"
  wait_bounded "$pid"
  case $st in
    hang) fail "$label: still running 20 s after SIGTERM" ;;
    0) fail "$label: status 0 after SIGTERM" ;;
    *) echo "  $label: ended with status $st after SIGTERM during a write" ;;
  esac
  [ "$2" = 1 ] && [ "$st" != 143 ] && fail "$label: status $st, expected 143 (128 + SIGTERM)"
  grep -q "stopped by SIGTERM" "$dir.log" || fail "$label: no message naming SIGTERM"
  if ls -A "$dir" | grep -q '\.partial\.'; then
    fail "$label: temporary file left: $(ls -A "$dir" | grep '\.partial\.' | tr '\n' ' ')"
  fi
  [ -e "$dir/mass_spring.modal.yaml" ] && fail "$label: a report under its final name"
}
partial_case term-writing-1rank 1
partial_case term-writing-2ranks 2
echo "signals: $fails failures"
[ $fails -eq 0 ]
