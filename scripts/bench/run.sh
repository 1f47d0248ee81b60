#!/bin/sh
# run.sh: mbmodal against a SLEPc peer on the beam-grid benchmark: wall time, peak memory, eigenvalues
#
# usage: scripts/bench/run.sh NCX NCZ [NEV=100] [NP=2]
#
# Generates the beam grid once (beamgrid.py NCX NCZ, cached in $BUILD/bench/work/NCXxNCZ), builds
# the peer (scripts/bench/slepc_peer.c, against Debian's SLEPc/PETSc/MUMPS), then runs
#   mpirun -np NP mbmodal deck.yaml                   (undamped modes of the deck below)
#   mpirun -np NP slepc_peer K.mtx M.mtx Cq.mtx ...   (same pencil, same method, same tolerance)
# each rank under GNU `time -v`, with OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 for both, and
# prints the table of scripts/bench/compare.py. See scripts/bench/README.md.
#
# Environment (all optional):
#   BEAMGRID   generator           (default: ../shared/bench/beamgrid.py from the repo top)
#   BUILD      build directory     (default: build; work files go to $BUILD/bench/)
#   MBMODAL    solver under test   (default: mbmodal at the repo top)
#   PYTHON     Python with numpy, scipy, yaml (default: /usr/bin/python3, Debian's)
#   MPIRUN     launcher            (default: mpirun)
#   PEER_OPTS  extra peer options, e.g. "-cscale 1e6" or "-gen" or "-st_mat_mumps_icntl_14 200"
#   SKIP_MBMODAL=1                  run the peer only
#   MBMODAL_BASE another mbmodal (say, a build of main) run on the same deck in the same run:
#              the "before" rows of the table
# PKG_CONFIG_PATH gets the real flavours' directories of Debian's SLEPc and PETSc first.
#   CHECK=1    also compare both eigenvalue lists with an independent scipy reference
#              (check_eigs.py: dense LAPACK up to order 8000, else ARPACK, cached)
#   CHECK_RTOL its tolerance (default 1e-8)
set -eu

if [ $# -lt 2 ] || [ $# -gt 4 ]; then
  sed -n '2,/^set -eu/p' "$0" | sed -n 's/^# \{0,1\}//p'
  exit 2
fi
NCX=$1 NCZ=$2 NEV=${3:-100} NP=${4:-2}
for v in "$NCX" "$NCZ" "$NEV" "$NP"; do
  case $v in ''|*[!0-9]*) echo "run.sh: '$v' is not a positive integer" >&2; exit 2 ;; esac
done

TOP=$(cd "$(dirname "$0")/../.." && pwd)
BEAMGRID=${BEAMGRID:-$TOP/../shared/bench/beamgrid.py}
BUILD=${BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$TOP/$BUILD ;; esac
MBMODAL=${MBMODAL:-$TOP/mbmodal}
case $MBMODAL in /*) ;; *) MBMODAL=$(pwd)/$MBMODAL ;; esac
PYTHON=${PYTHON:-/usr/bin/python3}
MPIRUN=${MPIRUN:-mpirun}
PEER_OPTS=${PEER_OPTS:-}
SKIP_MBMODAL=${SKIP_MBMODAL:-0}
MBMODAL_BASE=${MBMODAL_BASE:-}
case $MBMODAL_BASE in ''|/*) ;; *) MBMODAL_BASE=$(pwd)/$MBMODAL_BASE ;; esac
CHECK=${CHECK:-0}
CHECK_RTOL=${CHECK_RTOL:-1e-8}
BENCH=$BUILD/bench
WORK=$BENCH/work/${NCX}x${NCZ}
PEER=$BENCH/slepc_peer
TIME=/usr/bin/time

# fair on a small machine: one thread per rank in OpenBLAS/OpenMP for both programs;
# mbmodal runs with -v: its log then holds Krylov-Schur's time breakdown and the profile
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1

# the real flavours of SLEPc and PETSc, explicitly: where Debian's complex SLEPc is also
# installed, `pkg-config slepc` can resolve to it while PETSc resolves to the real one, and
# the peer then computes NaN (issue 10). a slepc_peer built on complex refuses the undamped pencil.
for dir in /usr/lib/petscdir/petsc*/*-real/lib/pkgconfig /usr/lib/slepcdir/slepc*/*-real/lib/pkgconfig; do
  [ -d "$dir" ] && PKG_CONFIG_PATH=$dir${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
done
export PKG_CONFIG_PATH=${PKG_CONFIG_PATH:-}

die() { echo "run.sh: $*" >&2; exit 1; }

[ -x "$TIME" ] || die "$TIME missing: apt-get install time"
[ -f "$BEAMGRID" ] || die "generator not found: $BEAMGRID (set BEAMGRID)"
command -v "$MPIRUN" >/dev/null || die "$MPIRUN not found (set MPIRUN)"

# launcher flags: Open MPI refuses root without these, needs -x to be sure the thread settings
# reach every rank, and --oversubscribe when NP exceeds the cores
MPIFLAGS=""
if "$MPIRUN" --version 2>&1 | grep -q "Open MPI"; then
  MPIFLAGS="-x OPENBLAS_NUM_THREADS -x OMP_NUM_THREADS"
  [ "$(id -u)" -eq 0 ] && export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  [ "$NP" -gt "$(nproc)" ] && MPIFLAGS="$MPIFLAGS --oversubscribe"
fi

# 1. inputs, once per grid size (written to a temporary directory, then renamed)
if [ ! -f "$WORK/.complete" ]; then
  echo "generating ${NCX}x${NCZ} beam grid into $WORK"
  rm -rf "$WORK.tmp" "$WORK"
  mkdir -p "$WORK.tmp"
  "$PYTHON" "$BEAMGRID" "$NCX" "$NCZ" "$WORK.tmp" > "$WORK.tmp/sizes.txt" || die "beamgrid.py failed"
  touch "$WORK.tmp/.complete"
  mv "$WORK.tmp" "$WORK"
fi

# 2. the peer, rebuilt when its source is newer
if [ ! -x "$PEER" ] || [ -n "$(find "$TOP/scripts/bench/slepc_peer.c" -newer "$PEER")" ]; then
  PC=""
  for p in slepc SLEPc slepc-real SLEPc-real; do
    if pkg-config --exists "$p" 2>/dev/null; then PC=$p; break; fi
  done
  [ -n "$PC" ] || die "no pkg-config entry for SLEPc (install slepc-dev)"
  mkdir -p "$BENCH"
  echo "building $PEER (pkg-config $PC $(pkg-config --modversion "$PC") in $(pkg-config --variable=prefix "$PC"))"
  # shellcheck disable=SC2046 # word splitting of pkg-config output is intended
  mpicc -std=c11 -Wall -Wextra -O2 -D_POSIX_C_SOURCE=200809L $(pkg-config --cflags "$PC") \
    "$TOP/scripts/bench/slepc_peer.c" -o "$PEER" $(pkg-config --libs "$PC") -lm || die "peer build failed"
fi

# 3. the deck (paths relative to WORK, which is also the working directory of both runs)
cat > "$WORK/deck.yaml" <<EOF
# beam grid ${NCX}x${NCZ} (beamgrid.py), written by scripts/bench/run.sh
matrices: {K: K.mtx, M: M.mtx, R: R.mtx, Cq: Cq.mtx}
modal: {modes: $NEV, shift: -1.0e-3, tolerance: 1.0e-10}
complex: {enabled: false}
output: {directory: mbmodal-out, name: bench, eigenvectors: false}
EOF
sed 's/directory: mbmodal-out/directory: base-out/' "$WORK/deck.yaml" > "$WORK/deck-base.yaml"

# timed run: TAG CMD...; each rank writes WORK/TAG.time.RANK; WORK/TAG.wall holds mpirun's wall time
# -v where the build knows it (a build before issue 23 printed its breakdown without it)
verbose_flag() { "$1" --help 2>/dev/null | grep -q -- "--verbose" && echo "-v"; }

timed() {
  tag=$1; shift
  echo "running $tag on $NP ranks (load average $(cut -d' ' -f1-3 /proc/loadavg))"
  t0=$(date +%s.%N)
  # the inner sh expands the rank variable that the launcher sets, hence the single quotes
  # shellcheck disable=SC2086,SC2016 # MPIFLAGS is a word list
  if (cd "$WORK" && "$MPIRUN" $MPIFLAGS -np "$NP" sh -c \
      'exec '"$TIME"' -v -o "$0.${OMPI_COMM_WORLD_RANK:-${PMIX_RANK:-${PMI_RANK:-0}}}" "$@"' \
      "$WORK/$tag.time" "$@" > "$WORK/$tag.log" 2>&1); then
    rc=0
  else
    rc=$?
  fi
  t1=$(date +%s.%N)
  echo "$t0 $t1" | awk '{ printf "%.3f\n", $2 - $1 }' > "$WORK/$tag.wall"
  if [ "$rc" -ne 0 ]; then
    echo "$tag FAILED (exit $rc); last lines of $WORK/$tag.log:"
    tail -n 15 "$WORK/$tag.log" | sed 's/^/  /'
  fi
  return 0
}

echo "beam grid ${NCX}x${NCZ}: $(cat "$WORK/sizes.txt"); $NEV modes; $NP ranks;" \
     "OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1"
rm -rf "$WORK/mbmodal-out" "$WORK/base-out" "$WORK"/mbmodal.* "$WORK"/base.* "$WORK"/peer.* \
  "$WORK/check.txt"  # no stale results
mkdir -p "$WORK/mbmodal-out" "$WORK/base-out"
if [ -n "$MBMODAL_BASE" ]; then
  timed base "$MBMODAL_BASE" $(verbose_flag "$MBMODAL_BASE") deck-base.yaml
fi
if [ "$SKIP_MBMODAL" = 1 ]; then
  echo "mbmodal: skipped (SKIP_MBMODAL=1)"
elif [ -x "$MBMODAL" ]; then
  timed mbmodal "$MBMODAL" $(verbose_flag "$MBMODAL") deck.yaml
else
  echo "mbmodal: $MBMODAL not built (run make), skipped"
fi
# shellcheck disable=SC2086 # PEER_OPTS is a word list
timed peer "$PEER" K.mtx M.mtx Cq.mtx peer.eig -nev "$NEV" -sigma -1.0e-3 -tol 1.0e-10 $PEER_OPTS
grep '^peer:' "$WORK/peer.log" | sed 's/^/  /' || true
echo
rc=0
"$PYTHON" "$TOP/scripts/bench/compare.py" "$WORK" "$NEV" "$NP" || rc=$?
if [ "$CHECK" = 1 ]; then
  echo
  echo "independent reference (CHECK=1, scripts/bench/check_eigs.py):"
  set --
  [ -f "$WORK/mbmodal.eig" ] && set -- "$@" "$WORK/mbmodal.eig"
  [ -s "$WORK/peer.eig" ] && set -- "$@" "$WORK/peer.eig"
  if [ $# -gt 0 ]; then
    "$PYTHON" "$TOP/scripts/bench/check_eigs.py" "$WORK" "$@" --rtol "$CHECK_RTOL" > "$WORK/check.txt" || rc=1
    sed "s|$WORK/||; s/^/  /" "$WORK/check.txt"
  fi
fi
exit "$rc"
