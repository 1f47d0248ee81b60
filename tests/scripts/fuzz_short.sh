#!/bin/sh
# fuzz_short.sh: the deck and Matrix Market fuzz targets for a short budget on every test
# run (make fuzz-long runs them for 10 minutes each). A crash, leak or sanitizer report
# fails. usage: sh tests/scripts/fuzz_short.sh MBMODAL OUTDIR (arguments unused)
cd "$(dirname "$0")/../.." || exit 2
FUZZ_SECONDS=${FUZZ_SHORT_SECONDS:-8} sh scripts/fuzz.sh
