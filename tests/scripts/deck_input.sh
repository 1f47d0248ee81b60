#!/bin/sh
# deck_input.sh: decks that cannot be read end at once with exit 2 (bad deck or input
# file) and a message naming the path, on 1 and 2 ranks: a missing file, a directory,
# /dev/zero (refused past 64 MiB, not read until memory runs out).
# usage: sh tests/scripts/deck_input.sh MBMODAL OUTDIR     (tests/run.sh calls it)
bin=$1
out=${2:-/tmp}/deck_input
mkdir -p "$out" || exit 1
fails=0
n=0
check() {  # path expected-message
  for np in 1 2; do
    n=$((n + 1))
    timeout 60 mpirun --oversubscribe -np $np "$bin" -q "$1" -o "$out/o" > "$out/log" 2> "$out/err"
    st=$?
    if [ $st -eq 2 ] && grep -qF "mbmodal: $1: error: $2" "$out/err"; then :
    else
      fails=$((fails + 1))
      echo "FAIL $1 (np $np): exit $st, wanted 2 and '$2'; got: $(head -c 300 "$out/err")"
    fi
  done
}
check "$out/nowhere.yaml" "cannot read the deck: No such file or directory"
check "$out" "cannot read the deck: Is a directory"
check /dev/zero "deck too large: more than the 64 MiB"
echo "$((n - fails)) of $n unreadable decks refused with exit 2"
[ $fails -eq 0 ]
