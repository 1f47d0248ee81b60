#!/bin/sh
# table.sh: the benchmark as one table of ratios (mbmodal / SLEPc peer, and a build before a
# change), over ranks and repeats, with the machine, the versions and the command.
#
# usage: scripts/bench/table.sh NCX NCZ [NEV=100] [REPEATS=2] [NPS="1 2"]
#
# Runs scripts/bench/run.sh NCX NCZ NEV NP REPEATS times for each NP in NPS (the environment
# of run.sh applies: MBMODAL_BASE adds the "before" column). Each run's full output is kept in
# $BUILD/bench/table/. Times are the slowest rank's wall time (GNU time), memory the sum of
# the ranks' peaks, CPU the sum over the ranks of user + system time (less sensitive to other
# jobs on a shared machine than wall time, but it counts MPI's busy waiting); "KS" is mbmodal's Krylov-Schur breakdown (mbmodal -v): total, OP
# applies (the solves), orthogonalization, Schur work, basis rotations.
set -eu
if [ $# -lt 2 ] || [ $# -gt 5 ]; then
  sed -n '2,/^set -eu/p' "$0" | sed -n 's/^# \{0,1\}//p'
  exit 2
fi
NCX=$1 NCZ=$2 NEV=${3:-100} REPEATS=${4:-2} NPS=${5:-"1 2"}
TOP=$(cd "$(dirname "$0")/../.." && pwd)
BUILD=${BUILD:-build}
case $BUILD in /*) ;; *) BUILD=$TOP/$BUILD ;; esac
PYTHON=${PYTHON:-/usr/bin/python3}
OUT=$BUILD/bench/table
mkdir -p "$OUT"
for dir in /usr/lib/petscdir/petsc*/*-real/lib/pkgconfig /usr/lib/slepcdir/slepc*/*-real/lib/pkgconfig; do
  [ -d "$dir" ] && PKG_CONFIG_PATH=$dir${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
done
export PKG_CONFIG_PATH=${PKG_CONFIG_PATH:-}

files=""
for np in $NPS; do
  r=1
  while [ "$r" -le "$REPEATS" ]; do
    f=$OUT/${NCX}x${NCZ}-nev$NEV-np$np-rep$r.txt
    echo "table: run.sh $NCX $NCZ $NEV $np (repeat $r of $REPEATS) -> $f"
    sh "$TOP/scripts/bench/run.sh" "$NCX" "$NCZ" "$NEV" "$np" > "$f" 2>&1 || echo "table: run.sh failed, see $f"
    files="$files $f"
    r=$((r + 1))
  done
done

ver() { dpkg-query -W -f='${Version}' "$1" 2>/dev/null || echo "?"; }
echo
echo "machine: $(uname -n), $(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -n 1)," \
     "$(nproc) cores, $(awk '/MemTotal/ { printf "%.1f GB", $2 / 1048576 }' /proc/meminfo)," \
     "load average now $(cut -d' ' -f1-3 /proc/loadavg)"
echo "versions: mbmodal $(git -C "$TOP" describe --always --dirty 2>/dev/null || echo '?')" \
     "${MBMODAL_BASE:+(before: $MBMODAL_BASE)}; SLEPc $(pkg-config --modversion slepc 2>/dev/null || echo '?') real;" \
     "MUMPS $(ver libmumps-dev); OpenBLAS $(ver libopenblas0-pthread); $(mpirun --version 2>/dev/null | head -n 1)"
echo "command: ${MBMODAL_BASE:+MBMODAL_BASE=$MBMODAL_BASE }sh scripts/bench/table.sh $NCX $NCZ $NEV $REPEATS \"$NPS\""
# shellcheck disable=SC2086 # files is a word list
"$PYTHON" - $files <<'PY'
import re, sys
rows = []
for path in sys.argv[1:]:
    text = open(path, errors="replace").read()
    np_ = re.search(r"-np(\d+)-rep(\d+)", path)
    def row(label, which):
        # the first table (mbmodal/peer) or the second (before/peer): label then 3 columns
        hits = re.findall(r"^" + re.escape(label) + r"\s+(\S+)\s+(\S+)\s+(\S+)$", text, re.M)
        return hits[which] if len(hits) > which else ("-", "-", "-")
    t, tb = row("wall time, slowest rank [s]", 0), row("wall time, slowest rank [s]", 1)
    m, mb = row("peak memory, sum ranks [MB]", 0), row("peak memory, sum ranks [MB]", 1)
    c, cb = row("CPU time, sum ranks [s]", 0), row("CPU time, sum ranks [s]", 1)
    ks = re.search(r"mbmodal: krylov-schur: ([0-9.]+) s: (\d+) applies ([0-9.]+) s, orthogonalization ([0-9.]+) s"
                   r".*?Schur work ([0-9.]+) s, basis rotations ([0-9.]+) s", text)
    blk = re.search(r"mbmodal: krylov-schur: .*, block (\d+) ", text)
    bks = re.search(r"before: modal: \d+ Ritz pairs converged after \d+ restarts, ([0-9.]+) s \(\d+ solves: ([0-9.]+) s\)", text)
    ev = re.search(r"max relative difference ([0-9.e+-]+) at mode", text)
    evb = re.search(r"before and mbmodal, \d+ compared, max relative difference ([0-9.e+-]+)", text)
    rows.append((np_.group(1), np_.group(2), t[0], tb[0], t[1], t[2], tb[2], c[2], cb[2], m[2], mb[2],
                 blk.group(1) if blk else "1",
                 "/".join(ks.group(1, 3, 4, 5, 6)) if ks else "-",
                 "/".join(bks.group(1, 2)) + "/" + f"{float(bks.group(1)) - float(bks.group(2)):.2f}" if bks else "-",
                 ev.group(1) if ev else "-", evb.group(1) if evb else "-"))
head = ("np", "rep", "mbmodal s", "before s", "peer s", "time ratio", "before ratio", "cpu ratio",
        "before cpu", "mem ratio", "before mem", "block", "KS total/solves/orth/schur/basis s", "before KS total/solves/rest s",
        "eig vs peer", "eig vs before")
w = [max(len(str(r[i])) for r in rows + [head]) for i in range(len(head))]
for r in [head] + rows:
    print("  ".join(str(x).rjust(w[i]) for i, x in enumerate(r)))
PY
