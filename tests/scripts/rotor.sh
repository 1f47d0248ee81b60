#!/bin/sh
# rotor.sh: spinning bodies and beams: rigid rotors on bearings at three speeds, a Jeffcott
# rotor and a spinning shaft against closed forms (frequencies and whirl directions), and
# bad spin input, on 1 and 2 ranks (tests/scripts/rotor.py).
# usage: sh rotor.sh MBMODAL OUTDIR
exec /usr/bin/python3 "$(dirname "$0")/rotor.py" "$1" "$2"
