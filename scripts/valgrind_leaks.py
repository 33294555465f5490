#!/usr/bin/env python3
"""Sort the leaks and memory errors of a valgrind --xml run (or a LeakSanitizer log) into ours and not
ours.

Usage: valgrind_leaks.py REPO_ROOT RUN_NAME XML_FILE
       valgrind_leaks.py --lsan REPO_ROOT RUN_NAME LOG_FILE

A definitely or indirectly lost block, or a memory error (invalid read/write, bad free...), is *ours*
when its stack has a frame of FrameLink, FrameLinkSDL, AnimDemo or our test targets before the first
frame of a test runner (corelibs XCTest or Swift Testing call every test, so their frames are on every
stack). Ours fail the run; the rest are listed as external. Suppressed errors (scripts/valgrind.supp)
never reach the XML.

Prints a summary and exits 1 if anything is ours, 0 otherwise (2 if the XML cannot be read).
"""

import sys
import xml.etree.ElementTree as ET

# Mangled Swift module prefixes of our targets: $s + length + name.
OUR_MODULES = ["FrameLink", "FrameLinkSDL", "AnimDemo", "FrameLinkTests", "FrameLinkSDLTests"]
OUR_PREFIXES = tuple(f"$s{len(name)}{name}" for name in OUR_MODULES)
RUNNER_OBJECTS = ("libXCTest.so", "libTesting.so")
RUNNER_PREFIXES = ("$s6XCTest", "$s7Testing")
LEAK_KINDS = ("Leak_DefinitelyLost", "Leak_IndirectlyLost")


def frames(error):
    stack = error.find("stack")
    return [] if stack is None else stack.findall("frame")


def is_ours(frame, root):
    fn = frame.findtext("fn") or ""
    directory = frame.findtext("dir") or ""
    if fn.startswith(OUR_PREFIXES):
        return True
    return directory.startswith(root + "/Sources") or directory.startswith(root + "/Tests")


def is_runner(frame):
    return (frame.findtext("obj") or "").endswith(RUNNER_OBJECTS)


def attribution(error, root):
    """The first frame of ours before any test-runner frame, or None."""
    for frame in frames(error):
        if is_runner(frame):
            return None
        if is_ours(frame, root):
            return frame
    return None


def describe(frame):
    fn = frame.findtext("fn") or frame.findtext("obj") or "?"
    where = frame.findtext("file")
    line = frame.findtext("line")
    return f"{fn[:120]}" + (f" ({where}:{line})" if where else "")


def lsan(root, name, path):
    """Classifies the leak reports of a LeakSanitizer log the same way."""
    import re
    try:
        text = open(path, encoding="utf-8", errors="replace").read()
    except OSError as problem:
        print(f"leaks: {name}: cannot read {path}: {problem}", file=sys.stderr)
        return 2
    ours, external = {}, {}
    for block in re.split(r"\n(?=(?:Direct|Indirect) leak of )", text):
        head = re.match(r"(Direct|Indirect) leak of (\d+) byte\(s\) in (\d+) object", block)
        if not head:
            continue
        culprit = None
        for fn, location in re.findall(r"#\d+ 0x[0-9a-f]+ in (\S+)(?: (\S+))?", block):
            location = location or ""
            if fn.startswith(RUNNER_PREFIXES) or any(obj in location for obj in RUNNER_OBJECTS):
                break
            if fn.startswith(OUR_PREFIXES) or location.startswith((root + "/Sources", root + "/Tests")):
                culprit = f"{fn[:110]} ({location.split('/')[-1]})"
                break
        key = (head.group(1), culprit)
        bucket = ours if culprit else external
        count, size = bucket.get(key, (0, 0))
        bucket[key] = (count + int(head.group(3)), size + int(head.group(2)))
    total = lambda bucket: sum(size for _, size in bucket.values())
    print(f"leaks: {name}: {total(ours)} bytes leaked by our code, {total(external)} bytes external "
          "(LeakSanitizer, suppressions in scripts/lsan.supp)")
    for (kind, culprit), (count, size) in sorted(ours.items(), key=lambda item: -item[1][1])[:15]:
        print(f"  OURS  {kind.lower()}: {size} bytes in {count} objects, first frame of ours: {culprit}")
    return 1 if ours else 0


def main():
    if len(sys.argv) == 5 and sys.argv[1] == "--lsan":
        return lsan(sys.argv[2].rstrip("/"), sys.argv[3], sys.argv[4])
    if len(sys.argv) != 4:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    root, name, path = sys.argv[1].rstrip("/"), sys.argv[2], sys.argv[3]
    try:
        document = ET.parse(path).getroot()
    except (OSError, ET.ParseError) as problem:
        print(f"leaks: {name}: cannot read valgrind's XML {path}: {problem}", file=sys.stderr)
        return 2

    ours, external = [], []
    possibly = 0
    for error in document.iter("error"):
        kind = error.findtext("kind") or ""
        text = error.findtext("xwhat/text") or error.findtext("what") or kind
        if kind == "Leak_PossiblyLost":
            possibly += int(error.findtext("xwhat/leakedbytes") or 0)
            continue
        if kind.startswith("Leak_") and kind not in LEAK_KINDS:
            continue  # still reachable: not a leak
        culprit = attribution(error, root)
        (ours if culprit is not None else external).append((kind, text, culprit, error))

    suppressed = sum(int(pair.findtext("count") or 0) for pair in document.iter("pair"))
    print(f"leaks: {name}: {len(ours)} leak(s)/error(s) of ours, {len(external)} external, "
          f"{possibly} bytes possibly lost (Swift runtime caches; not counted), {suppressed} suppressed")
    for kind, text, culprit, error in ours:
        print(f"  OURS  {kind}: {text}")
        print(f"        first frame of ours: {describe(culprit)}")
        for frame in frames(error)[:12]:
            print(f"          {describe(frame)}")
    for kind, text, _, error in external[:10]:
        top = next((f for f in frames(error)[1:] if not (f.findtext("fn") or "").startswith(("malloc", "calloc",
                    "realloc", "memalign", "posix_memalign", "swift_slowAlloc", "swift_allocObject"))), None)
        print(f"  external  {kind}: {text} — allocated by {describe(top) if top is not None else '?'}")
    if len(external) > 10:
        print(f"  … and {len(external) - 10} more external")
    return 1 if ours else 0


if __name__ == "__main__":
    sys.exit(main())
