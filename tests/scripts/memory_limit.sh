#!/bin/sh
# memory_limit.sh: a run under a memory limit (ulimit -v) ends promptly with exit 7 and an
# "out of memory" message, or succeeds; it never hangs (OpenBLAS used to retry a failed
# buffer allocation forever) and never dies on a signal. 1 rank limited, then only rank 1
# of 2 limited (rank 0 must not be left waiting).
# usage: sh tests/scripts/memory_limit.sh MBMODAL OUTDIR
bin=$1
if ldd "$bin" 2>/dev/null | grep -q libasan; then   # AddressSanitizer reserves terabytes of
  echo "memory limits: skipped under AddressSanitizer"  # address space: ulimit -v cannot apply
  exit 0
fi
out=$2/memory_limit
mkdir -p "$out"
top=$(cd "$(dirname "$0")/../.." && pwd)
deck=$out/grid20.yaml
/usr/bin/python3 "$top/scripts/make_beam_grid_deck.py" 20 20 "$deck" || exit 1
fails=0
oom=0
check() {  # label status log
  case $2 in
  0) echo "  $1: ran to the end (status 0)" ;;
  7) if grep -qE "out of memory|memory allocation failed" "$3"; then oom=$((oom + 1)); echo "  $1: exit 7, $(grep -oE "out of memory[^:(]*|memory allocation failed" "$3" | head -n 1)"
     else fails=$((fails + 1)); echo "FAIL $1: exit 7 without an out-of-memory message"; fi ;;
  124) fails=$((fails + 1)); echo "FAIL $1: still running after the time limit (hang)" ;;
  *) fails=$((fails + 1)); echo "FAIL $1: status $2"; tail -n 3 "$3" ;;
  esac
}
for kb in 300000 430000 500000; do
  (ulimit -v $kb; timeout 120 "$bin" -q "$deck" -o "$out/np1" > "$out/np1.$kb.log" 2>&1)
  check "1 rank, ulimit -v $kb" $? "$out/np1.$kb.log"
done
for kb in 300000 390000; do
  timeout 120 mpirun --oversubscribe -np 1 "$bin" -q "$deck" -o "$out/np2" : \
    -np 1 sh -c "ulimit -v $kb; exec \"$bin\" -q \"$deck\" -o \"$out/np2\"" \
    > "$out/np2.$kb.log" 2>&1
  check "2 ranks, rank 1 under ulimit -v $kb" $? "$out/np2.$kb.log"
done
[ $oom -ge 1 ] || { fails=$((fails + 1)); echo "FAIL no limit gave exit 7: the limits no longer bite"; }
echo "memory limits: $oom out-of-memory exits, $fails failures"
[ $fails -eq 0 ]
