#!/bin/sh
# fuzz.sh: builds the libFuzzer targets into build-fuzz/ and runs each for a bounded time.
#
#   sh scripts/fuzz.sh                    every target, 60 s each
#   FUZZ_SECONDS=600 sh scripts/fuzz.sh mmio
#
# Targets: mmio (tests/fuzz/fuzz_mmio.c -> mmio_parse), deck (tests/fuzz/fuzz_deck.c ->
# deck_parse). Each is compiled with clang -fsanitize=fuzzer,address,undefined straight from
# its few sources (no MPI, no libmbmodal.a) and started on a scratch corpus in
# build-fuzz/corpus/NAME (new inputs go there) plus the read-only seeds in
# tests/fuzz/corpus/NAME. A crash, leak, sanitizer report or timeout leaves the input in
# build-fuzz/crash-NAME-* and the log in build-fuzz/fuzz_NAME.log; reproduce it with
#   build-fuzz/fuzz_NAME build-fuzz/crash-NAME-<hash>
# Exit status: 0 when every target ran clean, 1 when a target found a problem or failed to
# build, 2 on bad usage.
set -u
cd "$(dirname "$0")/.." || exit 2

CC=${CLANG:-clang}
SECS=${FUZZ_SECONDS:-60}
OUT=build-fuzz
CFLAGS="-g -O1 -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined
        -fno-omit-frame-pointer -std=c11 -Wall -Wextra -D_POSIX_C_SOURCE=200809L -Isrc"

# error.h (included by every target) declares mb_agree with MPI types: the targets compile
# against MPI's headers and link its library, but never call MPI_Init
MPI_CFLAGS=$(mpicc --showme:compile 2>/dev/null)
MPI_LIBS=$(mpicc --showme:link 2>/dev/null)

case $SECS in
  ''|*[!0-9]*|0) echo "fuzz.sh: FUZZ_SECONDS must be a positive integer, got '$SECS'" >&2
                 exit 2 ;;
esac
command -v "$CC" >/dev/null 2>&1 || { echo "fuzz.sh: $CC not found" >&2; exit 1; }

# sources and libraries of each target
srcs () {
  case $1 in
    mmio) echo "tests/fuzz/fuzz_mmio.c src/error.c src/linalg/sparse.c src/linalg/mmio.c" ;;
    deck) echo "tests/fuzz/fuzz_deck.c src/error.c $(ls src/deck/*.c | grep -v '/deck_read\.c$')" ;;   # deck_read.c: MPI
  esac
}
libs () {
  case $1 in
    mmio) echo "-lm" ;;
    deck) echo "-lyaml -lm" ;;
  esac
}

# libFuzzer dictionaries: the words each grammar is made of
write_dict () {
  case $1 in
    mmio) cat <<'EOF'
"%%MatrixMarket"
"matrix"
"coordinate"
"array"
"real"
"integer"
"complex"
"pattern"
"general"
"symmetric"
"skew-symmetric"
"hermitian"
"%"
"\x0A"
"\x0D\x0A"
"\x09"
"nan"
"inf"
"e+"
"e-308"
"e308"
"-0"
".5"
"2147483647"
"2147483648"
"9223372036854775807"
"9223372036854775808"
EOF
    ;;
    deck) cat <<'EOF'
"title:"
"matrices:"
"K:"
"M:"
"R:"
"Cq:"
"modal:"
"complex:"
"enabled:"
"modes:"
"target_frequency:"
"shift:"
"tolerance:"
"max_restarts:"
"subspace:"
"output:"
"directory:"
"name:"
"eigenvectors:"
"export_matrices:"
"vtk:"
"units: SI"
"gravity:"
"materials:"
"sections:"
"bodies:"
"beams:"
"joints:"
"forces:"
"E:"
"nu:"
"G:"
"rho:"
"alpha:"
"beta:"
"shape:"
"rectangle"
"circle"
"tube"
"diameter:"
"outer_diameter:"
"wall:"
"mass:"
"inertia:"
"position:"
"orientation:"
"axis:"
"angle:"
"degrees:"
"quaternion:"
"material:"
"section:"
"from:"
"to:"
"points:"
"elements:"
"y_axis:"
"nodes:"
"start"
"end"
"ground"
"type:"
"weld"
"revolute"
"universal"
"lock"
"distance"
"axes:"
"frame:"
"dofs:"
"at:"
"spring"
"rotational_spring"
"bushing"
"stiffness:"
"damping:"
"node:"
"value:"
"free_length:"
"preload:"
"[0, 0, 0]"
"true"
"off"
".inf"
".nan"
"1e-10"
"2147483648"
"---"
"..."
"&a "
"*a"
"<<: "
"!!str "
"%YAML 1.1\x0A"
"{"
"}"
"["
"]"
"- "
"\x0A  "
"\x0A"
EOF
    ;;
  esac
}

if [ $# -gt 0 ]; then targets=$*; else targets="mmio deck"; fi
mkdir -p "$OUT" || exit 1
status=0
for t in $targets; do
  case $t in
    mmio|deck) ;;
    *) echo "fuzz.sh: unknown target '$t' (mmio, deck)" >&2; exit 2 ;;
  esac
  files=$(srcs "$t")
  missing=""
  for f in $files; do [ -f "$f" ] || missing="$missing $f"; done
  if [ -n "$missing" ]; then
    echo "fuzz_$t: FAILED: missing source$missing"
    status=1
    continue
  fi
  # the targets link without MPI: their sources must not include it
  # shellcheck disable=SC2086  # $files is a list on purpose
  if grep -l '^[[:space:]]*#[[:space:]]*include[[:space:]]*[<"]mpi' $files; then
    echo "fuzz_$t: FAILED: the files above include an MPI header"
    status=1
    continue
  fi
  # shellcheck disable=SC2086,SC2046  # flag and file lists split on purpose
  if ! $CC $CFLAGS $MPI_CFLAGS $files $(libs "$t") $MPI_LIBS -o "$OUT/fuzz_$t"; then
    echo "fuzz_$t: FAILED: build"
    status=1
    continue
  fi
  mkdir -p "$OUT/corpus/$t"
  write_dict "$t" > "$OUT/$t.dict"
  echo "fuzz_$t: running for $SECS s (log $OUT/fuzz_$t.log)"
  UBSAN_OPTIONS=print_stacktrace=1 "$OUT/fuzz_$t" "$OUT/corpus/$t" "tests/fuzz/corpus/$t" \
    -max_total_time="$SECS" -timeout=10 -rss_limit_mb=2048 -dict="$OUT/$t.dict" \
    -artifact_prefix="$OUT/crash-$t-" -print_final_stats=1 > "$OUT/fuzz_$t.log" 2>&1
  rc=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$OUT/fuzz_$t.log")
  if [ $rc -eq 0 ]; then
    echo "fuzz_$t: ok, ${runs:-?} inputs, no crash"
  else
    echo "fuzz_$t: FAILED (exit $rc); the end of $OUT/fuzz_$t.log:"
    grep -E 'ERROR|SUMMARY|runtime error|Test unit written|deadly signal' "$OUT/fuzz_$t.log" \
      | head -20
    status=1
  fi
done
exit $status
