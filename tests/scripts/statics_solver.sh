#!/bin/sh
# statics_solver.sh: the static solvers when they cannot converge or barely can (issue 21):
# relative tolerance, stagnation and round-off stops, large finite steps, infinite
# residuals, MKEAM's overflow, singular matrix, restart projection and unstable rest, a
# rotational spring wound past pi, the singular tangent's DOFs on 1 and 2 ranks, 100- and
# 500-link chains; against closed forms (tests/scripts/statics_solver.py says which).
# usage: sh statics_solver.sh MBMODAL OUTDIR
here=$(dirname "$0")
/usr/bin/python3 "$here/statics_solver.py" "$1" "$2"
