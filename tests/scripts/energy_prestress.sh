#!/bin/sh
# energy_prestress.sh: strain-energy shares about a loaded equilibrium (material and
# geometric parts, summing to 1) on a rod in tension and in compression and a pendulum,
# against closed forms, on 1 and 2 ranks (tests/scripts/energy_prestress.py).
# usage: sh energy_prestress.sh MBMODAL OUTDIR
exec /usr/bin/python3 "$(dirname "$0")/energy_prestress.py" "$1" "$2"
