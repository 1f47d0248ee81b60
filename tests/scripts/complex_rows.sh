#!/bin/sh
# complex_rows.sh: the damped stage in complex arithmetic (a target frequency) on 1, 2 and 3
# ranks, its operator by rows, against scipy's dense eigenvalues of pencil (31), and its
# rerun after rigid-body modes by rows on 2 ranks (tests/scripts/complex_rows.py).
# usage: sh complex_rows.sh MBMODAL OUTDIR
exec /usr/bin/python3 "$(dirname "$0")/complex_rows.py" "$1" "$2"
