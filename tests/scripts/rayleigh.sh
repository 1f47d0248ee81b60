#!/bin/sh
# rayleigh.sh: the Rayleigh check on a generated 2880-DOF constrained lattice: every damped
# mode of R = a M + b K must be an undamped one with zeta = a/(2 omega) + b omega/2 and the
# same shape (MAC), checked by mbmodal compare. usage: sh rayleigh.sh MBMODAL OUTDIR
set -e
bin=$1
dir="$2/rayleigh"
here=$(dirname "$0")
mkdir -p "$dir"
/usr/bin/python3 "$here/rayleigh.py" gen "$dir"
(cd "$dir" && $bin -q lattice.yaml > run.log)
/usr/bin/python3 "$here/rayleigh.py" ref "$dir"
# complex modes 1..20 pair with the predicted ones by MAC; only the predicted 20 are checked
"$bin" compare --mac 0.999999 "$dir/rayleigh.ref.complex.yaml" "$dir/out/lattice.complex.yaml"
