#!/bin/sh
# check_layers.sh: the layering rule of HACKING.md, checked (make check-layers). Data flows
#   error, linalg -> deck -> model -> statics -> eigen -> report -> buckling, frf
#   -> run.c, main.c (buckling and frf: stages built on the eigen results and the writers)
# A file under src/FOLDER/ may include error.h and headers of its own folder and of the
# folders before it; never one of a later folder, nor run.h. error.c and error.h include no
# other project header. Prints each include that breaks the rule (file:line: why) and the
# count; exits 1 when there is one.
cd "$(dirname "$0")/.." || exit 1
layer() {  # folder -> its layer (empty: not a known folder)
  case $1 in
  linalg) echo 1 ;; deck) echo 2 ;; model) echo 3 ;; statics) echo 4 ;;
  eigen) echo 5 ;; report) echo 6 ;; buckling|frf) echo 7 ;; *) echo "" ;;
  esac
}
bad=0
files=0
includes=$(grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' src/*/*.c src/*/*.h \
           src/error.c src/error.h)
for f in src/*/*.c src/*/*.h; do
  files=$((files + 1))
  folder=$(basename "$(dirname "$f")")
  if [ -z "$(layer "$folder")" ]; then
    echo "$f: folder '$folder' has no layer (give it one in scripts/check_layers.sh and HACKING.md)"
    bad=$((bad + 1))
  fi
done
# one line per include: FILE:LINE:#include "PATH"
while IFS= read -r hit; do
  [ -n "$hit" ] || continue
  f=${hit%%:*}
  rest=${hit#*:}
  line=${rest%%:*}
  inc=$(printf '%s\n' "$hit" | sed 's/.*include[[:space:]]*"\([^"]*\)".*/\1/')
  case $f in
  src/error.[ch])
    [ "$inc" = error.h ] || { echo "$f:$line: error.[ch] include no project header ($inc)"; bad=$((bad + 1)); }
    continue ;;
  esac
  folder=$(basename "$(dirname "$f")")
  mine=$(layer "$folder")
  case $inc in
  ../error.h) continue ;;
  ../*/*) other=$(printf '%s\n' "$inc" | cut -d/ -f2) ;;
  ../*) echo "$f:$line: $folder includes $inc, above the stage folders"; bad=$((bad + 1)); continue ;;
  */*) echo "$f:$line: include other folders as ../FOLDER/FILE ($inc)"; bad=$((bad + 1)); continue ;;
  *) continue ;;   # its own folder
  esac
  theirs=$(layer "$other")
  if [ -n "$mine" ] && { [ -z "$theirs" ] || [ "$theirs" -gt "$mine" ]; }; then
    echo "$f:$line: $folder includes $inc, of a later layer ($other)"
    bad=$((bad + 1))
  fi
done <<EOF2
$includes
EOF2
echo "check-layers: $files files, $bad includes against the layering rule"
[ $bad -eq 0 ]
