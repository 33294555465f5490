#!/usr/bin/env bash
# Leak check for FrameLink, FrameLinkSDL and AnimDemo under valgrind memcheck (what `make leaks` runs).
#
#   scripts/leaks.sh [--skip-build] [--no-tests] [--asan] [--scratch-path PATH] [--out DIR]
#
# 1. AnimDemo headless (dummy video driver, software renderer) with injected stalls, a screenshot, a
#    report and the HUD text (SDL2_ttf), so every resource path of the demo is opened and closed.
# 2. The XCTest suites of the test bundle (SDL host, adoption, core) without a DISPLAY, so SDL uses
#    its dummy driver and no Mesa/X11 code is loaded.
# 3. With --asan: the Swift Testing suites (and the demo again) built with -sanitize=address and
#    checked by LeakSanitizer (suppressions: scripts/lsan.supp), in a second scratch folder
#    (PATH-asan). valgrind 3.19 cannot run Swift Testing (it crashes inside libdispatch's sigsuspend).
#
# Each run goes through scripts/valgrind_leaks.py, which fails on any definitely/indirectly lost block
# or memory error whose stack has a frame of ours (see that script), and lists the rest as external.
# scripts/valgrind.supp suppresses what is provably not ours (the test runners' own objects, Swift
# runtime caches), each entry with its reason. Test *failures* under valgrind (it slows code ~20×, so
# timing bands can miss) are printed as warnings and do not fail the leak check: `make test` owns them.
#
# Exit status: 0 no leak of ours; 1 leaks or memory errors of ours; 2 the check could not run.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
scratch="${SCRATCH_PATH:-$root/.build}"
out="${OUT:-$root/out}/leaks"
build=1
tests=1
asan=0
while [ $# -gt 0 ]; do
  case "$1" in
    --skip-build) build=0 ;;
    --no-tests) tests=0 ;;
    --asan) asan=1 ;;
    --scratch-path) scratch="$2"; shift ;;
    --out) out="$2/leaks"; shift ;;
    -h|--help) sed -n '2,21p' "$0"; exit 0 ;;
    *) echo "leaks.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done

command -v valgrind >/dev/null || { echo "leaks.sh: valgrind is not installed (apt-get install valgrind)" >&2; exit 2; }
command -v python3 >/dev/null || { echo "leaks.sh: python3 is needed to read valgrind's XML" >&2; exit 2; }
mkdir -p "$out"
cd "$root"

if [ "$build" = 1 ]; then
  swift build --scratch-path "$scratch" --build-tests
fi
bin="$(swift build --scratch-path "$scratch" --show-bin-path)"
[ -x "$bin/AnimDemo" ] || { echo "leaks.sh: $bin/AnimDemo is not built" >&2; exit 2; }

valgrind_args=(
  --tool=memcheck --leak-check=full --show-leak-kinds=all --errors-for-leak-kinds=definite,indirect
  --num-callers=40 --track-origins=no --suppressions="$root/scripts/valgrind.supp" --child-silent-after-fork=yes
  --xml=yes
)
failed=0

# Runs one command under valgrind, then classifies what it found.
check() {
  local name="$1"; shift
  local xml="$out/$name.xml" log="$out/$name.log"
  echo "leaks: $name: valgrind $*"
  local status=0
  # No DISPLAY: SDL picks the dummy driver, and no X11/Mesa state is created.
  env -u DISPLAY -u WAYLAND_DISPLAY SDL_VIDEODRIVER=dummy \
    valgrind "${valgrind_args[@]}" --xml-file="$xml" --log-file="$out/$name.valgrind.txt" "$@" >"$log" 2>&1 || status=$?
  if grep -q "the 'impossible' happened\|VALGRIND INTERNAL ERROR" "$out/$name.valgrind.txt" 2>/dev/null; then
    echo "leaks: $name: valgrind itself crashed (see $out/$name.valgrind.txt); this run is not checked" >&2
    failed=2
    return
  fi
  if [ ! -s "$xml" ]; then
    echo "leaks: $name: valgrind wrote no report (exit $status); see $log and $out/$name.valgrind.txt" >&2
    failed=2
    return
  fi
  if [ "$status" != 0 ]; then
    echo "leaks: $name: warning: the program exited with $status under valgrind (see $log); leaks are judged below"
  fi
  if ! python3 "$root/scripts/valgrind_leaks.py" "$root" "$name" "$xml"; then
    [ "$failed" = 2 ] || failed=1
  fi
}

check animdemo-headless "$bin/AnimDemo" --headless --frames 90 --sprites 200 --seed 3 \
  --stall-every 30 --stall-ms 50 --assets "$root/assets" \
  --screenshot "$out/animdemo.png" --report "$out/animdemo.json"

if [ "$tests" = 1 ]; then
  bundle="$bin/FrameLinkPackageTests.xctest"
  [ -x "$bundle" ] || { echo "leaks.sh: $bundle is not built (swift build --build-tests)" >&2; exit 2; }
  # Every XCTest class except the ones that need an X server (they skip without DISPLAY anyway) and
  # AnimDemoTests (it runs AnimDemo in subprocesses, which valgrind does not follow; run 1 covers it).
  classes="$("$bundle" --list-tests 2>/dev/null | sed -n 's|^\([A-Za-z]*Tests\.[A-Za-z]*\)/.*|\1|p' | sort -u \
    | grep -v -e 'Xvfb' -e 'AnimDemoTests' | paste -sd, -)"
  if [ -n "$classes" ]; then
    check xctest "$bundle" "$classes"
  fi
fi

if [ "$asan" = 1 ]; then
  asan_scratch="$scratch-asan"
  if [ "$build" = 1 ]; then
    swift build --scratch-path "$asan_scratch" --build-tests --sanitize=address
  fi
  asan_bin="$(swift build --scratch-path "$asan_scratch" --show-bin-path)"
  export ASAN_OPTIONS="detect_leaks=1:exitcode=23"
  export LSAN_OPTIONS="suppressions=$root/scripts/lsan.supp:print_suppressions=0"
  # Runs one command under LeakSanitizer, then classifies what it found.
  check_lsan() {
    local name="$1"; shift
    local log="$out/$name.log"
    echo "leaks: $name: LeakSanitizer $*"
    local status=0
    env -u DISPLAY -u WAYLAND_DISPLAY SDL_VIDEODRIVER=dummy "$@" >"$log" 2>&1 || status=$?
    if [ "$status" != 0 ] && ! grep -q "LeakSanitizer" "$log"; then
      echo "leaks: $name: warning: the program exited with $status (see $log); leaks are judged below"
    fi
    if ! python3 "$root/scripts/valgrind_leaks.py" --lsan "$root" "$name" "$log"; then
      [ "$failed" = 2 ] || failed=1
    fi
  }
  check_lsan animdemo-headless-asan "$asan_bin/AnimDemo" --headless --frames 90 --sprites 200 --seed 3 \
    --stall-every 30 --stall-ms 50 --assets "$root/assets" --report "$out/animdemo-asan.json"
  if [ "$tests" = 1 ]; then
    check_lsan swift-testing-asan "$asan_bin/FrameLinkPackageTests.xctest" --testing-library swift-testing
  fi
fi

case "$failed" in
  0) echo "leaks: no leaks or memory errors attributable to FrameLink, FrameLinkSDL or AnimDemo (logs in $out)" ;;
  1) echo "leaks: FAILED: leaks or memory errors of ours, listed above (logs in $out)" >&2 ;;
  *) echo "leaks: could not complete the check (logs in $out)" >&2 ;;
esac
exit "$failed"
