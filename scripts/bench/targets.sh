#!/bin/sh
# targets.sh: every target of issues 10 and 23 in one run: one table of ratios mbmodal / SLEPc peer
#
# usage: scripts/bench/targets.sh                 all targets (grids 20 40 80 120; an hour or more)
#        QUICK=1 scripts/bench/targets.sh         grids 20 and 40 only (a few minutes)
#
# Runs, each rank under GNU `time -v` (files run.time.RANK), one BLAS thread per rank, in $BUILD/bench/targets/CASE/:
#   undamped: NEV lowest modes of the beam grids GRIDS (beamgrid.py G G) on NPS ranks: mbmodal,
#             the peer with PC LU and the peer with PC Cholesky (MUMPS LDL^T), side by side;
#   damped:   DAMPED_MODES modes of the DAMPED_GRID grid: mbmodal's complex stage against the
#             peer built on the complex flavour of PETSc/SLEPc (slepc_peer.c with -R);
#   ranks:    mbmodal on the RANK_GRID grid on RANK_NPS ranks (more ranks than cores run
#             oversubscribed: a correctness check, not a timing);
# then prints (targets.py) the machine, the versions, the command, one table of time, CPU and
# memory ratios to the best peer with the eigenvalue differences, the missed-mode check's share,
# mbmodal's own time breakdown, the growth fit t = c n^p over the grids on 1 rank, the rank
# check, and which targets are met. The table is also written to $BUILD/bench/targets/table.txt.
# Last, the reference check (REF_MODES): each list's lowest eigenvalues against ref_lowest.c.
#
# Environment (all optional):
#   QUICK=1      GRIDS="20 40", RANK_GRID=20, DAMPED_GRID=20
#   GRIDS        undamped grids, NCX = NCZ     (default "20 40 80 120": about 13k to 437k DOFs)
#   NPS          ranks of the undamped runs   (default "1 2")
#   NPS_G        ranks of the G x G grid's undamped runs (NPS_120="8 16", say; default NPS)
#   PEERS        peer configurations, of "lu ldlt" (default both)
#   NEV          undamped modes               (default 100)
#   RANK_GRID, RANK_NPS   rank check          (default 40, "1 2 4"; RANK_GRID= skips it)
#   DAMPED_GRID, DAMPED_MODES, DAMPED_NPS     (default 40, 50, "1"; DAMPED_GRID= skips it)
#   NICE         prefix of every run          (default "nice": the machine may be shared)
#   CASE_TIMEOUT seconds before a run is killed (default 3600)
#   KEEP=1       keep the results of an earlier call and run only the missing cases
#   REPEAT       runs of each undamped and damped case (default 1); with 3, say, mbmodal and its
#                peers alternate three times (CASE, CASE.r2, CASE.r3) and the tables count each
#                case's run of median wall time: a VM whose speed drifts within the hour then
#                slows both sides alike; the spread of every case is printed
#   REF_MODES    lowest modes of each grid checked against ref_lowest.c (default 3; 0: none):
#                an extended-precision reference independent of mbmodal and SLEPc, which
#                says which side of an eigenvalue difference is right (reference.txt)
#   BEAMGRID, BUILD, MBMODAL, PYTHON, MPIRUN as in run.sh
#   PEER_REAL, PEER_COMPLEX   prebuilt peers (the portable bundle's slepc_peer, slepc_peer_complex)
#                instead of building slepc_peer.c here
#   GTIME        GNU time                     (default /usr/bin/time)
#   BUDGET       seconds: no case starts once the run is this old (a device lease); the table
#                then counts the repeats that ran. Cases run repeat by repeat (every case once,
#                then every case again), so a cut run still has each case at least once
set -eu

TOP=$(cd "$(dirname "$0")/../.." && pwd)
QUICK=${QUICK:-0}
if [ "$QUICK" = 1 ]; then dg=20; dgr="20 40"; else dg=40; dgr="20 40 80 120"; fi
GRIDS=${GRIDS-$dgr}
NPS=${NPS-"1 2"}
PEERS=${PEERS-"lu ldlt"}
NEV=${NEV:-100}
RANK_GRID=${RANK_GRID-$dg}
RANK_NPS=${RANK_NPS-"1 2 4"}
DAMPED_GRID=${DAMPED_GRID-$dg}
DAMPED_MODES=${DAMPED_MODES:-50}
DAMPED_NPS=${DAMPED_NPS-1}
NICE=${NICE-nice}
CASE_TIMEOUT=${CASE_TIMEOUT:-3600}
KEEP=${KEEP:-0}
REF_MODES=${REF_MODES:-3}
REPEAT=${REPEAT:-1}
BEAMGRID=${BEAMGRID:-$TOP/../shared/bench/beamgrid.py}
BUILD=${BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$TOP/$BUILD ;; esac
MBMODAL=${MBMODAL:-$TOP/mbmodal}
case $MBMODAL in /*) ;; *) MBMODAL=$(pwd)/$MBMODAL ;; esac
PYTHON=${PYTHON:-/usr/bin/python3}
MPIRUN=${MPIRUN:-mpirun}
BENCH=$BUILD/bench
OUT=$BENCH/targets
TIME=${GTIME:-/usr/bin/time}
BUDGET=${BUDGET:-0}
START=$(date +%s)
PEER_REAL=${PEER_REAL:-}
PEER_COMPLEX=${PEER_COMPLEX:-}

for v in $GRIDS $NPS $NEV $RANK_GRID $RANK_NPS $DAMPED_GRID $DAMPED_MODES $DAMPED_NPS $CASE_TIMEOUT $REPEAT; do
  case $v in ''|*[!0-9]*|0) echo "targets.sh: '$v' is not a positive integer" >&2; exit 2 ;; esac
done
for p in $PEERS; do
  case $p in lu|ldlt) ;; *) echo "targets.sh: peer '$p' is not lu or ldlt" >&2; exit 2 ;; esac
done

die() { echo "targets.sh: $*" >&2; exit 1; }
[ -x "$TIME" ] || die "$TIME missing: apt-get install time"
[ -f "$BEAMGRID" ] || die "generator not found: $BEAMGRID (set BEAMGRID)"
[ -x "$MBMODAL" ] || die "$MBMODAL not built (run make)"
command -v "$MPIRUN" >/dev/null || die "$MPIRUN not found (set MPIRUN)"
command -v timeout >/dev/null || die "timeout (coreutils) not found"

NCPU=$(nproc --all)  # before OMP_NUM_THREADS=1, which GNU nproc honours
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
MPIFLAGS=""
if "$MPIRUN" --version 2>&1 | grep -q "Open MPI"; then
  MPIFLAGS="-x OPENBLAS_NUM_THREADS -x OMP_NUM_THREADS"
  [ "$(id -u)" -eq 0 ] && export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
fi

# the peers: slepc_peer.c built once against each flavour, each from its own pkg-config
# directories (never plain `pkg-config slepc`, which may resolve to the other flavour)
build_peer() {  # FLAVOUR (real|complex) -> $BENCH/slepc_peer_FLAVOUR
  fl=$1 exe=$BENCH/slepc_peer_$1
  eval "given=\$PEER_$(echo "$1" | tr '[:lower:]' '[:upper:]')"
  # shellcheck disable=SC2154 # given is set by eval
  if [ -n "$given" ]; then mkdir -p "$BENCH"; ln -sf "$given" "$exe"; return 0; fi
  if [ -x "$exe" ] && [ -z "$(find "$TOP/scripts/bench/slepc_peer.c" -newer "$exe")" ]; then return 0; fi
  pcp=""
  for dir in /usr/lib/petscdir/petsc*/*-"$fl"/lib/pkgconfig /usr/lib/slepcdir/slepc*/*-"$fl"/lib/pkgconfig; do
    [ -d "$dir" ] && pcp=$dir${pcp:+:$pcp}
  done
  [ -n "$pcp" ] || die "no $fl flavour of PETSc/SLEPc (apt-get install libslepc-$fl""3.18-dev; sh scripts/install-deps.sh --bench)"
  mkdir -p "$BENCH"
  echo "building $exe against $(PKG_CONFIG_PATH=$pcp pkg-config --variable=prefix slepc)"
  # shellcheck disable=SC2046 # word splitting of pkg-config output is intended
  mpicc -std=c11 -Wall -Wextra -O2 -D_POSIX_C_SOURCE=200809L $(PKG_CONFIG_PATH=$pcp pkg-config --cflags slepc) \
    "$TOP/scripts/bench/slepc_peer.c" -o "$exe" $(PKG_CONFIG_PATH=$pcp pkg-config --libs slepc) -lm \
    || die "peer build failed ($fl)"
}

grid() {  # G: the inputs of the G x G grid, once (the same cache as run.sh)
  w=$BENCH/work/${1}x$1
  [ -f "$w/.complete" ] && return 0
  echo "generating the ${1}x$1 beam grid into $w"
  rm -rf "$w.tmp" "$w"
  mkdir -p "$w.tmp"
  $NICE "$PYTHON" "$BEAMGRID" "$1" "$1" "$w.tmp" > "$w.tmp/sizes.txt" || die "beamgrid.py failed"
  touch "$w.tmp/.complete"
  mv "$w.tmp" "$w"
}

# one case: CASE G NP KIND (mbmodal | lu | ldlt | mbmodal-damped | complex); outputs in $OUT/CASE
run_case() {
  c=$1 g=$2 np=$3 kind=$4 d=$OUT/$1
  [ -f "$d/.done" ] && { echo "$c: already run, result kept"; return 0; }
  if [ "$BUDGET" -gt 0 ] && [ $(($(date +%s) - START)) -ge "$BUDGET" ]; then
    echo "$c: not run (BUDGET $BUDGET s spent)"; return 0
  fi
  grid "$g"
  rm -rf "$d"
  mkdir -p "$d/out"
  for f in K M R Cq; do ln -s "$BENCH/work/${g}x$g/$f.mtx" "$d/$f.mtx"; done
  cp "$BENCH/work/${g}x$g/sizes.txt" "$d/sizes.txt"
  case $kind in
  mbmodal)
    printf '%s\n' "matrices: {K: K.mtx, M: M.mtx, Cq: Cq.mtx}" \
      "modal: {modes: $NEV, shift: -1.0e-3, tolerance: 1.0e-10}" \
      "output: {directory: out, name: bench, eigenvectors: false}" > "$d/deck.yaml"
    set -- "$MBMODAL" -v deck.yaml ;;
  mbmodal-damped)
    printf '%s\n' "matrices: {K: K.mtx, M: M.mtx, R: R.mtx, Cq: Cq.mtx}" \
      "modal: {enabled: false}" \
      "complex: {enabled: true, modes: $DAMPED_MODES, tolerance: 1.0e-10}" \
      "output: {directory: out, name: bench, eigenvectors: false}" > "$d/deck.yaml"
    set -- "$MBMODAL" -v deck.yaml ;;
  lu|ldlt)
    pc=lu; [ "$kind" = ldlt ] && pc=cholesky
    set -- "$BENCH/slepc_peer_real" K.mtx M.mtx Cq.mtx peer.eig -nev "$NEV" -sigma -1.0e-3 -tol 1.0e-10 \
      -st_pc_type "$pc" ;;
  complex)
    set -- "$BENCH/slepc_peer_complex" K.mtx M.mtx Cq.mtx peer.eig -R R.mtx -nev $((2 * DAMPED_MODES)) \
      -sigma 1.0e-3 -tol 1.0e-10 ;;
  esac
  echo "$c: running on $np ranks (load average $(cut -d' ' -f1-3 /proc/loadavg))"
  over=""
  [ "$np" -gt "$NCPU" ] && [ -n "$MPIFLAGS" ] && over=--oversubscribe
  cut -d' ' -f1-3 /proc/loadavg > "$d/load.before"
  t0=$(date +%s.%N)
  # shellcheck disable=SC2086,SC2016 # MPIFLAGS and NICE are word lists; the inner sh expands the rank
  if (cd "$d" && $NICE timeout "$CASE_TIMEOUT" "$MPIRUN" $MPIFLAGS $over -np "$np" sh -c \
      'exec '"$TIME"' -v -o "$0.${OMPI_COMM_WORLD_RANK:-${PMIX_RANK:-${PMI_RANK:-0}}}" "$@"' \
      "$d/run.time" "$@" > "$d/log" 2>&1); then rc=0; else rc=$?; fi
  t1=$(date +%s.%N)
  cut -d' ' -f1-3 /proc/loadavg > "$d/load.after"
  echo "$t0 $t1" | awk '{ printf "%.3f\n", $2 - $1 }' > "$d/wall"
  echo "$rc" > "$d/rc"
  if [ "$rc" -ne 0 ]; then
    echo "$c: FAILED (exit $rc$([ "$rc" -eq 124 ] && echo ", timeout $CASE_TIMEOUT s")); last lines of $d/log:"
    tail -n 10 "$d/log" | sed 's/^/  /'
  fi
  touch "$d/.done"
}

[ "$KEEP" = 1 ] || rm -rf "$OUT"
mkdir -p "$OUT"
build_peer real
[ -n "$DAMPED_GRID" ] && build_peer complex
{
  echo "load_before $(cut -d' ' -f1-3 /proc/loadavg)"
  echo "start $(date -u '+%Y-%m-%d %H:%M UTC')"
} > "$OUT/meta.txt"

# the command that reproduces this run: the settings that differ from the defaults
cmd=""
for v in QUICK GRIDS NPS PEERS NEV RANK_GRID RANK_NPS DAMPED_GRID DAMPED_MODES DAMPED_NPS NICE REF_MODES REPEAT; do
  eval "val=\${$v}"
  case $v in
  QUICK) def=0 ;; GRIDS) def=$dgr ;; NPS) def="1 2" ;; PEERS) def="lu ldlt" ;; NEV) def=100 ;;
  RANK_GRID|DAMPED_GRID) def=$dg ;; RANK_NPS) def="1 2 4" ;; DAMPED_MODES) def=50 ;;
  DAMPED_NPS) def=1 ;; NICE) def="nice" ;; REF_MODES) def=3 ;; REPEAT) def=1 ;;
  esac
  # shellcheck disable=SC2154 # val is set by eval
  [ "$val" = "$def" ] || cmd="$cmd$v=\"$val\" "
done
for g in $GRIDS; do
  eval "val=\${NPS_$g:-}"
  [ -z "$val" ] || cmd="${cmd}NPS_$g=\"$val\" "
done
{
  echo "machine: $(uname -n), $(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -n 1)," \
       "$NCPU cores, $(awk '/MemTotal/ { printf "%.1f GiB", $2 / 1048576 }' /proc/meminfo)"
  ver() { dpkg-query -W -f='${Version}' "$1" 2>/dev/null || echo "?"; }
  echo "versions: mbmodal $(git -C "$TOP" describe --always --dirty 2>/dev/null || echo '?');" \
       "SLEPc $(ver libslepc-real3.18-dev) real, $(ver libslepc-complex3.18-dev) complex;" \
       "PETSc $(ver libpetsc-real3.18-dev); MUMPS $(ver libmumps-dev); OpenBLAS $(ver libopenblas0-pthread);" \
       "$("$MPIRUN" --version 2>/dev/null | head -n 1)"
  echo "command: ${cmd}sh scripts/bench/targets.sh"
} > "$OUT/header.txt"
# the suffix of repeat R of a case: none for the first, .rR after
rep() { if [ "$1" -gt 1 ]; then echo ".r$1"; fi; }
# every case once, smallest grid first, mbmodal and its peers one after the other; then every
# case again, REPEAT times in all (a drift of the machine's speed slows both sides alike)
for g in $GRIDS; do grid "$g" & done   # the generators side by side
wait
for g in $GRIDS; do [ -f "$BENCH/work/${g}x$g/.complete" ] || die "the ${g}x$g grid was not generated"; done
r=1
while [ "$r" -le "$REPEAT" ]; do
  for g in $GRIDS; do
    eval "nps=\${NPS_$g:-\$NPS}"
    # shellcheck disable=SC2154 # nps is set by eval
    for np in $nps; do
      run_case "g$g-np$np-mbmodal$(rep $r)" "$g" "$np" mbmodal
      for p in $PEERS; do run_case "g$g-np$np-$p$(rep $r)" "$g" "$np" "$p"; done
    done
  done
  for np in $DAMPED_NPS; do
    [ -n "$DAMPED_GRID" ] || break
    run_case "d$DAMPED_GRID-np$np-mbmodal$(rep $r)" "$DAMPED_GRID" "$np" mbmodal-damped
    run_case "d$DAMPED_GRID-np$np-complex$(rep $r)" "$DAMPED_GRID" "$np" complex
  done
  r=$((r + 1))
done
if [ -n "$RANK_GRID" ]; then
  for np in $RANK_NPS; do run_case "g$RANK_GRID-np$np-mbmodal" "$RANK_GRID" "$np" mbmodal; done
fi
echo "end $(date -u '+%Y-%m-%d %H:%M UTC')" >> "$OUT/meta.txt"
echo "load_after $(cut -d' ' -f1-3 /proc/loadavg)" >> "$OUT/meta.txt"

"$PYTHON" "$TOP/scripts/bench/targets.py" "$OUT" "$NEV" "$DAMPED_MODES" "$GRIDS" "$NPS" "$PEERS" \
  "$RANK_GRID" "$RANK_NPS" "$DAMPED_GRID" "$DAMPED_NPS" | tee "$OUT/table.txt"

# the reference check: the REF_MODES lowest eigenvalues of each grid against ref_lowest.c
# (extended-precision inverse iteration, independent of mbmodal's eigen stages and of SLEPc),
# for mbmodal and each peer on every rank count; guesses from mbmodal's first report
if [ "$REF_MODES" -gt 0 ] 2>/dev/null; then
  REF=$BENCH/ref_lowest
  if [ ! -x "$REF" ] || [ -n "$(find "$TOP/scripts/bench/ref_lowest.c" "$BUILD/libmbmodal.a" -newer "$REF" 2>/dev/null)" ]; then
    # shellcheck disable=SC2086 # word lists
    mpicc -O2 -std=c11 -D_POSIX_C_SOURCE=200809L -I"$TOP/src" "$TOP/scripts/bench/ref_lowest.c" \
      "$BUILD/libmbmodal.a" -lzmumps -ldmumps -lmumps_common -lyaml -llapacke -llapack -lblas -lm \
      -o "$REF" || { echo "targets.sh: ref_lowest build failed" >&2; exit 1; }
  fi
  {
    echo
    echo "Reference check: the $REF_MODES lowest eigenvalues against ref_lowest.c (LU + long-double"
    echo "refinement, Rayleigh quotient in long double, at two shifts 0.1 % apart: 'two shifts' is"
    echo "how far the reference can be trusted); per list, its nearest value and relative error."
    for g in $GRIDS; do
      first=""
      for np in $NPS; do
        [ -f "$OUT/g$g-np$np-mbmodal/out/bench.modal.yaml" ] && { first="$OUT/g$g-np$np-mbmodal/out/bench.modal.yaml"; break; }
      done
      [ -n "$first" ] || continue
      guesses=$(sed -n 's/^ *eigenvalue: *//p' "$first" | head -n "$REF_MODES" | tr '\n' ' ')
      lists=""
      for np in $NPS; do
        for k in mbmodal $PEERS; do
          f="$OUT/g$g-np$np-$k/out/bench.modal.yaml"; [ "$k" = mbmodal ] || f="$OUT/g$g-np$np-$k/peer.eig"
          [ -f "$f" ] && lists="$lists g$g-np$np-$k=$f"
        done
      done
      echo "grid ${g}x$g:"
      # shellcheck disable=SC2086 # word lists
      (cd "$OUT" && OPENBLAS_NUM_THREADS=1 $NICE "$REF" "$BENCH/work/${g}x$g" $guesses -- $lists) \
        || echo "  ref_lowest failed"
    done
  } | tee "$OUT/reference.txt"
  # the verdict: the largest error of mbmodal's lists and of the peers' against the reference
  awk '$1 ~ /^g[0-9]+-np[0-9]+-/ && NF == 3 {
         kind = ($1 ~ /-mbmodal$/) ? "mbmodal" : "peers"
         if ($3 + 0 > worst[kind]) { worst[kind] = $3 + 0; at[kind] = $1 } }
       END {
         if (!("mbmodal" in worst)) exit
         printf "  %s  eigenvalues within 1e-8 of the reference (lowest modes, every grid and rank count): mbmodal %.1e (%s); peers %.1e (%s)\n",
                worst["mbmodal"] <= 1e-8 ? "met    " : "NOT met", worst["mbmodal"], at["mbmodal"],
                worst["peers"], at["peers"] }' "$OUT/reference.txt" | tee -a "$OUT/reference.txt"
fi
