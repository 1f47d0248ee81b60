#!/bin/sh
# targets_16core.sh: issue 23's 4-16 rank table, as one run on a machine without our packages.
#
# usage (from the checkout's root, on the 16-core machine; ../shared/portable/README.md):
#   . .portable/setup-env.sh && sh scripts/bench/targets_16core.sh
# Runs targets.sh with the bundle's mbmodal and SLEPc peer (PC LU, the peer), the 80x80
# grid on 4, 8 and 16 ranks and the 120x120 grid on 8 and 16 (the table), three repeats
# taken in turn; no case starts after BUDGET seconds (default 470: a 10-minute device command).
# Writes into RESULTS (default $OUT, else build/bench): lscpu.txt (and OpenBLAS's core), targets.log (targets.sh's
# output and table) and targets16.tgz (the case folders, without the matrices). Back here:
#   mkdir -p D && tar xzf targets16.tgz -C D && scripts/bench/targets.py D/targets 100 50 \
#     "80 120" "4 8 16" lu "" "" "" ""
# Environment: GRIDS, NPS, NPS_120, REPEAT, BUDGET, PYTHON (with numpy, scipy) override the defaults above.
set -eu
RESULTS=${RESULTS:-${OUT:-build/bench}}
mkdir -p "$RESULTS"
command -v slepc_peer >/dev/null || { echo "targets_16core.sh: source .portable/setup-env.sh first" >&2; exit 2; }
{ lscpu; echo "OpenBLAS as loaded (OPENBLAS_VERBOSE=2):"; OPENBLAS_VERBOSE=2 mbmodal --version; } \
  > "$RESULTS/lscpu.txt" 2>&1 || true      # which BLAS kernel the sandbox's CPUID selected
export OMPI_MCA_btl_vader_single_copy_mechanism=none   # a sandboxed kernel may lack CMA
B=/tmp/targets16
rm -rf "$B"
rc=0
NICE="" GRIDS="${GRIDS:-80 120}" NPS="${NPS:-4 8 16}" NPS_120="${NPS_120:-8 16}" PEERS=lu \
  REPEAT="${REPEAT:-3}" RANK_GRID="" DAMPED_GRID="" REF_MODES=0 BUDGET="${BUDGET:-470}" BUILD="$B" \
  MBMODAL="$(command -v mbmodal)" PEER_REAL="$(command -v slepc_peer)" BEAMGRID="$MBDEV_BEAMGRID" \
  PYTHON="${PYTHON:-python3}" GTIME="$(command -v gtime || echo /usr/bin/time)" \
  sh scripts/bench/targets.sh > "$RESULTS/targets.log" 2>&1 || rc=$?
(cd "$B/bench" && tar czf - --exclude='*.mtx' targets work/*/sizes.txt) > "$RESULTS/targets16.tgz"
exit "$rc"
