#!/bin/sh
# signals.sh: a run stopped from outside ends promptly and leaves no report that looks
# complete but is not: SIGTERM to a 1-rank run, SIGTERM to mpirun of 2 ranks (what a
# scheduler's cancel does), and kill -9 of one rank of 2. Each must end within 20 s of the
# signal with a non-zero status; every .yaml report left in the output folder must load
# as YAML and hold its modes list (a report is written under a temporary name and renamed
# when whole).
# usage: sh tests/scripts/signals.sh MBMODAL OUTDIR
bin=$1
out=$2/signals
rm -rf "$out"
mkdir -p "$out"
top=$(cd "$(dirname "$0")/../.." && pwd)
deck=$out/grid40.yaml
/usr/bin/python3 "$top/scripts/make_beam_grid_deck.py" 40 40 "$deck" || exit 1
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
    /usr/bin/python3 -c "import sys, yaml; d = yaml.safe_load(open(sys.argv[1])); \
assert isinstance(d.get('modes'), list) and d.get('format') == 'mbmodal-report'" "$r" \
      2>/dev/null || fail "$2: $(basename "$r") does not look whole"
  done
}

case_run() {  # label signal target(one|mpirun|rank) command...
  label=$1 sig=$2 target=$3
  shift 3
  dir=$out/$label
  mkdir -p "$dir"
  "$@" -q "$deck" -o "$dir" > "$dir.log" 2>&1 &
  pid=$!
  sleep 4   # a stage is running (the 40 x 40 grid takes about 30 s on 2 cores)
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
}

export OMPI_MCA_rmaps_base_oversubscribe=1
case_run term-1rank TERM one "$bin"
grep -q "stopped by SIGTERM" "$out/term-1rank.log" || fail "term-1rank: no message naming SIGTERM"
case_run term-mpirun TERM mpirun mpirun --oversubscribe -np 2 "$bin"
case_run kill9-rank KILL rank mpirun --oversubscribe -np 2 "$bin"
echo "signals: $fails failures"
[ $fails -eq 0 ]
