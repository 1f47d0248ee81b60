#!/bin/sh
# vtk_check.sh: checks mode-shape files (.vtu) with VTK's own reader against their YAML
# reports (tests/scripts/vtk_check.py).
#   sh vtk_check.sh VTU REPORT          one file and its report
#   sh vtk_check.sh --dir DIR           every DIR/*.modal.vtu and *.complex.vtu that has a
#                                       DIR/*.yaml of the same name (the eigen stages' files;
#                                       a buckling report holds no model block to check with)
#   sh vtk_check.sh --selftest BUILD    BUILD/tests/test_vtk writes a toy model's files into
#                                       a temporary folder, then both stages are checked
# Exit 0 when all pass, 1 on a mismatch, 2 when a file cannot be read or VTK is missing.
set -e
here=$(dirname "$0")
py=/usr/bin/python3
check() { "$py" "$here/vtk_check.py" "$1" "$2"; }

case "${1:-}" in
--dir)
  n=0 rc=0
  for vtu in "$2"/*.modal.vtu "$2"/*.complex.vtu; do
    [ -e "$vtu" ] || continue
    yaml="${vtu%.vtu}.yaml"
    [ -e "$yaml" ] || continue
    check "$vtu" "$yaml" || rc=$?
    n=$((n + 1))
  done
  if [ "$n" = 0 ]; then echo "vtk_check: no .vtu with a report in $2"; exit 1; fi
  exit $rc
  ;;
--selftest)
  tmp=$(mktemp -d /tmp/mbmodal_vtk_check_XXXXXX)
  trap 'rm -rf "$tmp"' EXIT
  "$2/tests/test_vtk" "$tmp" > "$tmp/test_vtk.log" || { cat "$tmp/test_vtk.log"; exit 1; }
  check "$tmp/toy.modal.vtu" "$tmp/toy.modal.yaml"
  check "$tmp/toy.complex.vtu" "$tmp/toy.complex.yaml"
  ;;
""|-h|--help)
  sed -n '2,9p' "$0"
  exit 2
  ;;
*)
  check "$1" "$2"
  ;;
esac
