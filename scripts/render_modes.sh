#!/bin/sh
# render_modes.sh: PNG pictures of mbmodal mode shapes (.vtu) with ParaView's pvbatch.
#   sh scripts/render_modes.sh NAME.STAGE.vtu [--modes N] [--outdir DIR] [--scale S] [--size WxH]
# writes DIR/NAME.STAGE.mode_NN.png (DIR: the .vtu's folder by default); see render_modes.py.
# Needs ParaView (sh scripts/install-deps.sh --render). pvbatch is tried first with
# --force-offscreen-rendering (enough for ParaView builds with EGL or OSMesa); when that
# fails, it runs on the DISPLAY, or without one under xvfb-run (a virtual X server).
# Exit 0 when pictures were written, 1 when rendering failed, 2 when ParaView is missing.
here=$(cd "$(dirname "$0")" && pwd)
script="$here/render_modes.py"
if ! command -v pvbatch > /dev/null 2>&1; then
  echo "render_modes: pvbatch not found (install ParaView: sh scripts/install-deps.sh --render)" >&2
  exit 2
fi
case "${1:-}" in
""|-h|--help) sed -n '2,8p' "$0"; exit 0 ;;
esac

log=$(mktemp /tmp/render_modes_XXXXXX)
trap 'rm -f "$log"' EXIT
if pvbatch --force-offscreen-rendering "$script" "$@" > "$log" 2>&1; then
  cat "$log"
  exit 0
fi
if [ -n "${DISPLAY:-}" ]; then
  pvbatch "$script" "$@" && exit 0
  exit 1
fi
if command -v xvfb-run > /dev/null 2>&1; then
  xvfb-run -a -s "-screen 0 1920x1080x24" pvbatch "$script" "$@" && exit 0
  exit 1
fi
echo "render_modes: pvbatch cannot render without a display here, and xvfb-run is missing" \
     "(sh scripts/install-deps.sh --render); its output:" >&2
cat "$log" >&2
exit 1
