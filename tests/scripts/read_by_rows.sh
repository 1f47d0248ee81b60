#!/bin/sh
# read_by_rows.sh: a matrix deck read by rows (issue 10). On more than one rank a matrix deck
# whose only stage is the undamped one is read by rows: every rank parses its share of each
# file, the entries go to the ranks that own their rows, and no rank holds a whole matrix.
# Checks, with the decks of tests/scripts/read_by_rows.py:
#   - every matrix deck of decks/ and tests/decks/, with its modal stage only and (R read too)
#     with its damped stage only, gives on 2 and 3 ranks the modes it gives on 1 (mbmodal
#     compare: eigenvalues to 1e-9 relative, MAC 0.999999, as block_paths.sh), and the log
#     says that it read by rows (and, for the damped stage, never that it gathered the
#     system on rank 0);
#   - a chain of 40000 masses held by two constraint rows, whose K file each rank parses a
#     share of, on 2 ranks against its closed form (1e-6: the lowest eigenvalue is known to
#     eps lambda_max / lambda_1, about 1e-7);
#   - a bad value in a K file: the same message and exit 2 on 2 ranks as on 1;
#   - an allocation failure while routing (MBMODAL_FAULT=RANK:rowdist) on rank 0, then on
#     rank 1: exit 7 and "out of memory", never a hang;
#   - the log's entry counts of K, M, R and Cq equal those of the files (a symmetric file's
#     off-diagonal entries twice), read whole on 1 rank and by rows on 2 (with and without R).
# usage: sh tests/scripts/read_by_rows.sh MBMODAL OUTDIR     (tests/run.sh calls it)
bin=$1
out=${2:-/tmp}/read_by_rows
rm -rf "$out"
mkdir -p "$out" || exit 1
/usr/bin/python3 tests/scripts/read_by_rows.py "$out/decks" decks/*.yaml tests/decks/*.yaml || exit 1
fails=0
n=0
fail() { fails=$((fails + 1)); echo "FAIL $*"; }
run() {  # deck np dir: the log in dir.log, the status returned
  if [ "$2" = 1 ]; then
    timeout 600 "$bin" "$1" -o "$3" > "$3.log" 2>&1
  else
    timeout 600 mpirun --oversubscribe -np "$2" "$bin" "$1" -o "$3" > "$3.log" 2>&1
  fi
}
for deck in "$out"/decks/*.yaml; do
  case "$deck" in *.ref.yaml|*/bad_value.yaml|*/long_chain.yaml) continue ;; esac
  name=$(basename "$deck" .yaml)
  n=$((n + 1))
  if ! run "$deck" 1 "$out/$name.np1"; then fail "$name: 1 rank: exit $?"; continue; fi
  report=$(ls "$out/$name.np1/"*.modal.yaml "$out/$name.np1/"*.complex.yaml 2>/dev/null | head -n 1)
  [ -n "$report" ] || { fail "$name: no report on 1 rank"; continue; }
  for np in 2 3; do
    if ! run "$deck" $np "$out/$name.np$np"; then fail "$name: $np ranks: exit $?"; continue; fi
    grep -q "read by rows on $np ranks" "$out/$name.np$np.log" \
      || fail "$name: $np ranks: the log does not say that the matrices were read by rows"
    case "$report" in  # the damped stage by rows all through (its dense path too)
      *.complex.yaml) ! grep -q "gathered on rank 0" "$out/$name.np$np.log" \
        || fail "$name: $np ranks: the damped stage gathered the system on rank 0" ;;
    esac
    if ! "$bin" compare --rtol 1e-9 --mac 0.999999 "$report" \
         "$out/$name.np$np/$(basename "$report")" > "$out/$name.np$np.cmp" 2>&1; then
      fail "$name: $np ranks by rows against 1 rank: $(tail -n 3 "$out/$name.np$np.cmp")"
    fi
  done
done

# the log's entry counts against the files' own (a symmetric file's off-diagonal entries
# stored twice, as both triangles): the whole read on 1 rank (beam-grid-matrices with its
# damped stage: K, M, R, Cq) and the reads by rows on 2 ranks (the deck itself: K, M, R, Cq;
# its modal-only copy: K, M, Cq)
n=$((n + 1))
counts=$(/usr/bin/python3 - tests/decks/beam-grid-matrices <<'EOF'
import sys


def stored(path):
    """entries of a Matrix Market coordinate file once both triangles of a symmetric one are kept"""
    symmetric, size_line, count = False, True, 0
    for line in open(path):
        if line.startswith("%%"):
            symmetric = "symmetric" in line.lower()
        elif line.startswith("%") or not line.strip():
            continue
        elif size_line:
            size_line = False
        else:
            i, j = line.split()[:2]
            count += 1 if not symmetric or i == j else 2
    return count


print(" ".join(str(stored(f"{sys.argv[1]}/{m}.mtx")) for m in ("K", "M", "R", "Cq")))
EOF
)
read -r ck cm cr cc <<EOF
$counts
EOF
if run tests/decks/beam-grid-matrices.yaml 1 "$out/counts.np1"; then
  grep -q "; K $ck, M $cm, R $cr, Cq $cc entries (read in" "$out/counts.np1.log" \
    || fail "entry counts, 1 rank: wanted K $ck, M $cm, R $cr, Cq $cc; the log: $(grep '^matrices' "$out/counts.np1.log")"
else
  fail "entry counts: 1 rank: exit $?"
fi
if run tests/decks/beam-grid-matrices.yaml 2 "$out/counts.np2r"; then
  grep -q "; K $ck, M $cm, R $cr, Cq $cc entries (read by rows on 2 ranks" "$out/counts.np2r.log" \
    || fail "entry counts, 2 ranks with R: wanted K $ck, M $cm, R $cr, Cq $cc; the log: $(grep '^matrices' "$out/counts.np2r.log")"
else
  fail "entry counts: 2 ranks with R: exit $?"
fi
if run "$out/decks/beam-grid-matrices.yaml" 2 "$out/counts.np2"; then
  grep -q "; K $ck, M $cm, Cq $cc entries (read by rows on 2 ranks" "$out/counts.np2.log" \
    || fail "entry counts, 2 ranks: wanted K $ck, M $cm, Cq $cc; the log: $(grep '^matrices' "$out/counts.np2.log")"
else
  fail "entry counts: 2 ranks: exit $?"
fi

# the long chain: every rank parses a share of K.mtx (3.7 MB); the closed form
n=$((n + 1))
if run "$out/decks/long_chain.yaml" 2 "$out/long_chain.np2"; then
  grep -q "read by rows on 2 ranks" "$out/long_chain.np2.log" \
    || fail "long_chain: the log does not say that the matrices were read by rows"
  "$bin" compare --rtol 1e-6 "$out/decks/long_chain.ref.yaml" \
    "$out/long_chain.np2/"*.modal.yaml > "$out/long_chain.cmp" 2>&1 \
    || fail "long_chain on 2 ranks against the closed form: $(tail -n 3 "$out/long_chain.cmp")"
else
  fail "long_chain: 2 ranks: exit $?"
fi

# a bad value: exit 2 and the same message (file and line) on 2 ranks as on 1
n=$((n + 1))
run "$out/decks/bad_value.yaml" 1 "$out/bad.np1"; s1=$?
run "$out/decks/bad_value.yaml" 2 "$out/bad.np2"; s2=$?
m1=$(grep "bad_value.K.mtx:9" "$out/bad.np1.log")
m2=$(grep "bad_value.K.mtx:9" "$out/bad.np2.log")
if [ $s1 != 2 ] || [ $s2 != 2 ] || [ -z "$m1" ] || [ "$m1" != "$m2" ]; then
  fail "bad value: exit $s1 and $s2, messages '$m1' and '$m2'"
fi
# an allocation failure while routing the entries (fault site "rowdist") on one rank of two:
# exit 7 and "out of memory" on both, never a hang
for rank in 0 1; do
  n=$((n + 1))
  MBMODAL_FAULT=$rank:rowdist timeout 60 mpirun --oversubscribe -x MBMODAL_FAULT -np 2 "$bin" \
    "$out/decks/chain_constrained.yaml" -o "$out/fault$rank" > "$out/fault$rank.log" 2>&1
  st=$?
  grep -q "out of memory" "$out/fault$rank.log" && [ $st = 7 ] \
    || fail "rowdist fault on rank $rank: exit $st, wanted 7 and 'out of memory'"
done
echo "read_by_rows: $((n - fails)) of $n cases: matrix decks read by rows on 2 and 3 ranks give the modes of 1 rank (undamped and damped), the closed form, the same errors, exit 7 on a failed allocation, the files' entry counts in the log"
[ $fails -eq 0 ]
