#!/bin/sh
# fault_ranks.sh: an allocation failure on ONE rank of two (MBMODAL_FAULT=RANK:SITE, see
# mb_fault in src/error.h), at each collective step, must end the run on both ranks with
# exit status 7 and an "out of memory" message within the timeout: never a hang (issue 7).
# usage: sh fault_ranks.sh MBMODAL OUTDIR
# SITES: steps where every rank allocates (or takes part in the step's status); a fault on
# either rank must give exit 7. SITES_RANK0: work that only rank 0 does (assembly, the
# Schur step); a fault there on rank 0 gives exit 7, and on rank 1 (which allocates
# nothing there) the run must end normally. "factor" is rank 0's matrix copy for MUMPS and,
# on every rank, the buffers of the solves by rows (the undamped stage on 2 ranks). The
# static stage's sites are exercised by tests/scripts/statics.sh.
SITES="blas deck model pencil krylov modes check factor"
SITES_RANK0="assemble schur"
DECK=${FAULT_DECK:-decks/cantilever.yaml}   # small, both stages
bin=$1
out="$2/fault"
here=$(cd "$(dirname "$0")/../.." && pwd)
cd "$here" || exit 2
mkdir -p "$out"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_rmaps_base_oversubscribe=1
export OPENBLAS_NUM_THREADS=1 OMPI_MCA_mpi_yield_when_idle=1
passed=0
failed=0
# one run: RANK SITE DECK WANT (7: exit 7 and "out of memory"; 0: runs to the end)
run_fault() {
  rank=$1 site=$2 deck=$3 want=$4
  MBMODAL_FAULT=$rank:$site timeout 60 mpirun --oversubscribe -np 2 "$bin" -q "$deck" \
    -o "$out" > "$out/$site.$rank.out" 2> "$out/$site.$rank.err"
  st=$?
  if [ $st -eq "$want" ] && { [ "$want" = 0 ] || grep -q "out of memory" "$out/$site.$rank.err"; }; then
    passed=$((passed + 1))
    if [ "$want" = 0 ]; then echo "  $rank:$site: runs to the end"
    else echo "  $rank:$site: exit 7, $(grep -m 1 'out of memory' "$out/$site.$rank.err")"; fi
  else
    failed=$((failed + 1))
    [ $st -eq 124 ] && what="hang (killed after 60 s)" || what="exit status $st"
    echo "FAIL $rank:$site: $what, wanted $want$([ "$want" = 7 ] && echo " and 'out of memory'"); stderr:"
    head -c 600 "$out/$site.$rank.err"
  fi
}
for spec in $SITES $(for s in $SITES_RANK0; do echo "$s@0"; done); do
  site=${spec%@0}
  for rank in 0 1; do
    want=7
    [ "$spec" != "$site" ] && [ $rank = 1 ] && want=0   # rank 1 has nothing to fail there
    run_fault $rank "$site" "$DECK" $want
  done
done
# a matrix deck by rows: its modes are finished on the ranks' rows and each kept vector
# gathered on rank 0 (site "modes"): a fault on either rank gives exit 7
run_fault 0 modes tests/decks/beam-grid-matrices.yaml 7   # eigenvectors: true, both stages
run_fault 1 modes tests/decks/beam-grid-matrices.yaml 7
echo "fault_ranks: $passed passed, $failed failed (sites: $SITES $SITES_RANK0, and modes of a matrix deck; 2 ranks, fault on rank 0 then 1)"
[ "$failed" = 0 ]
