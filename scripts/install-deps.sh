#!/bin/sh
# install-deps.sh: installs the Debian packages mbmodal builds and tests with, when missing.
#   sh scripts/install-deps.sh            build and test dependencies
#   sh scripts/install-deps.sh --bench    also SLEPc, for scripts/bench/
# Needs root (or sudo) only when something is missing.
set -e

packages="make gcc libc6-dev pkg-config
  libopenmpi-dev openmpi-bin libmumps-dev libscalapack-openmpi-dev
  libyaml-dev liblapacke-dev libopenblas-dev
  python3 python3-numpy python3-scipy python3-yaml"
[ "${1:-}" = "--bench" ] && packages="$packages slepc-dev time"

missing=""
for p in $packages; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
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
