#!/bin/sh
# buckling.sh: the buckling stage's load factors against closed forms (Euler columns in the
# four classic end conditions, a portal frame with hinged bases), its reports, and its deck
# errors, on 1 and 2 ranks (tests/scripts/buckling.py).
# usage: sh buckling.sh MBMODAL OUTDIR
exec /usr/bin/python3 "$(dirname "$0")/buckling.py" "$1" "$2"
