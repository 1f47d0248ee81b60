#!/bin/sh
# install-deps.sh: installs the Debian packages mbmodal builds and tests with, when missing.
#   sh scripts/install-deps.sh            build and test dependencies
#   sh scripts/install-deps.sh --bench    also SLEPc (real and complex flavours), for scripts/bench/
#   sh scripts/install-deps.sh --render   also ParaView (pvbatch) and a virtual X server, for
#                                         scripts/render_modes.sh (large: about 1 GB)
# (flags combine: --bench --render). The tests read .vtu files with Python's vtk module:
# python3-vtk9, or python3-paraview, which provides it too (Debian lets only one of the two
# be installed; once ParaView is in, it is kept).
# Needs root (or sudo) only when something is missing.
set -e

packages="make gcc libc6-dev pkg-config clang
  libopenmpi-dev openmpi-bin libmumps-dev libscalapack-openmpi-dev
  libyaml-dev liblapacke-dev libopenblas-dev
  python3 python3-numpy python3-scipy python3-yaml python3-matplotlib"
installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
vtk=python3-vtk9
installed python3-paraview && vtk=python3-paraview
for flag in "$@"; do
  case "$flag" in
  --bench) packages="$packages slepc-dev libslepc-real3.18-dev libslepc-complex3.18-dev time" ;;
  --render) packages="$packages paraview xvfb xauth"; vtk=python3-paraview ;;
  *) echo "install-deps: unknown option '$flag' (--bench, --render)" >&2; exit 1 ;;
  esac
done
packages="$packages $vtk"

missing=""
for p in $packages; do
  installed "$p" || missing="$missing $p"
done
if [ -z "$missing" ]; then
  echo "install-deps: all packages present"
  exit 0
fi
echo "install-deps: installing$missing"
if [ "$(id -u)" = 0 ]; then sudo=""; else sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
# shellcheck disable=SC2086
$sudo apt-get install -y -qq --no-install-recommends $missing
