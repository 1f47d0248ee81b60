#!/bin/sh
# sweep.sh: a deck's sweep section (issue 25.4): two two-mass chains swept through a
# veering and a crossing, a rigid rotor's Campbell diagram and critical speeds, against
# closed forms on 1 and 2 ranks; a step that fails and bad sweep input
# (tests/scripts/sweep.py).
# usage: sh sweep.sh MBMODAL OUTDIR
exec /usr/bin/python3 "$(dirname "$0")/sweep.py" "$1" "$2"
