#!/bin/sh
# Same numbers: every bundled and test deck's reports from two binaries compare equal.
#
# usage: scripts/check_same_numbers.sh BEFORE_BINARY AFTER_BINARY OUTDIR [RANKS...]
#
# Runs every deck in decks/, tests/decks/ and tests/models/ (skipping *.ref.*) with both
# binaries on each rank count (default 1 2), then checks that the exit statuses are equal
# and that each report (*.yaml) of the before-binary and its twin of the after-binary compare
# equal both ways with `mbmodal compare --rtol 1e-9 --mac 0.999999` (reports that compare does
# not read, buckling, FRF and sweep: no modal, complex or static stage, with scripts/same_yaml.py
# at the same rtol). The before-binary's
# outputs are kept in OUTDIR/before and reused when present (delete them to rerun).
# Not run by make test (it takes minutes); run it by hand after a change to src/eigen or
# src/linalg that should change no number. Exits 0 when all agree, 1 otherwise.
set -u
if [ $# -lt 3 ]; then
    echo "usage: $0 BEFORE_BINARY AFTER_BINARY OUTDIR [RANKS...]" >&2
    exit 1
fi
before=$1; after=$2; out=$3; shift 3
ranks=${*:-1 2}
top=$(cd "$(dirname "$0")/.." && pwd)
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OPENBLAS_NUM_THREADS=1 \
    OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_mpi_yield_when_idle=1 \
    OMPI_MCA_btl_vader_single_copy_mechanism=none
mkdir -p "$out"
runs=0; bad=0; reports=0
for np in $ranks; do
    for deck in decks/*.yaml tests/decks/*.yaml tests/models/*.yaml; do
        case "$deck" in *.ref.*) continue ;; esac
        name=$(echo "$deck" | tr '/' '_' | sed 's/\.yaml$//')
        b="$out/before/np$np/$name"; a="$out/after/np$np/$name"
        if [ ! -f "$b/status" ]; then
            rm -rf "$b"; mkdir -p "$b"
            mpirun --oversubscribe -np "$np" "$before" "$deck" -o "$b" > "$b/log" 2>&1
            echo $? > "$b/status"
        fi
        rm -rf "$a"; mkdir -p "$a"
        mpirun --oversubscribe -np "$np" "$after" "$deck" -o "$a" > "$a/log" 2>&1
        echo $? > "$a/status"
        runs=$((runs + 1))
        if ! cmp -s "$b/status" "$a/status"; then
            echo "DIFF $deck np $np: exit $(cat "$b/status") before, $(cat "$a/status") after"
            bad=$((bad + 1)); continue
        fi
        for rb in "$b"/*.yaml; do
            [ -f "$rb" ] || continue
            ra="$a/$(basename "$rb")"
            reports=$((reports + 1))
            if [ ! -f "$ra" ]; then
                echo "DIFF $deck np $np: $(basename "$rb") missing after"
                bad=$((bad + 1)); continue
            fi
            log="$a/$(basename "$rb" .yaml).compare.log"
            if grep -q '^stage: *\(modal\|complex\|static\)' "$rb"; then
                "$after" compare --rtol 1e-9 --mac 0.999999 "$rb" "$ra" > "$log" 2>&1 &&
                    "$after" compare --rtol 1e-9 --mac 0.999999 "$ra" "$rb" >> "$log" 2>&1
            else  # buckling, FRF, sweep: reports that compare does not read
                /usr/bin/python3 "$top/scripts/same_yaml.py" "$rb" "$ra" > "$log" 2>&1
            fi
            if [ $? -ne 0 ]; then
                echo "DIFF $deck np $np: $(basename "$rb") (see $log)"
                bad=$((bad + 1))
            fi
        done
        for ra in "$a"/*.yaml; do
            [ -f "$ra" ] || continue
            if [ ! -f "$b/$(basename "$ra")" ]; then
                echo "DIFF $deck np $np: $(basename "$ra") new after"
                bad=$((bad + 1))
            fi
        done
    done
done
echo "same numbers: $runs runs on ranks '$ranks', $reports reports compared, $bad differences"
[ "$bad" -eq 0 ]
