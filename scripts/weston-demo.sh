#!/usr/bin/env bash
# AnimDemo on Weston, the reference Wayland compositor (`make demo-weston`): Weston's x11 backend
# with pixman inside the X server this script runs under (xvfb-run, or your desktop's), a private
# XDG_RUNTIME_DIR and a socket name of its own, its `timeline` debug scope recorded beside the
# demo's outputs; both stopped by PID at the end, whatever happens.
#
# Usage: weston-demo.sh ANIMDEMO OUT_FOLDER FRAMES
set -euo pipefail
bin=$1 out=$2 frames=$3
runtime=$(mktemp -d /tmp/framelink-weston-XXXXXX)
chmod 700 "$runtime"
socket="framelink-demo-$$"
weston_pid="" debug_pid=""
stop() {
  for pid in $debug_pid $weston_pid; do
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$pid" 2>/dev/null || true
  done
  rm -rf "$runtime"
}
trap stop EXIT
export XDG_RUNTIME_DIR=$runtime
weston --backend=x11-backend.so --use-pixman --idle-time=0 --socket="$socket" --debug \
  --log="$out/weston.log" >/dev/null 2>&1 &
weston_pid=$!
for _ in $(seq 200); do [ -S "$runtime/$socket" ] && break; sleep 0.1; done
if [ ! -S "$runtime/$socket" ]; then echo "error: Weston did not start (see $out/weston.log)" >&2; exit 1; fi
WAYLAND_DISPLAY=$socket weston-debug -o "$out/weston-timeline.json" timeline >/dev/null 2>&1 &
debug_pid=$!
echo "Running AnimDemo on Weston (SDL_VIDEODRIVER=wayland) for $frames frames"
SDL_VIDEODRIVER=wayland WAYLAND_DISPLAY=$socket "$bin" --frames "$frames" --report "$out/weston-report.json" \
  --log "$out/weston-frames.csv" --presentation-log "$out/weston-presentation.csv"
echo "Compositor's record: $out/weston-timeline.json (weston-debug timeline)"
