#!/usr/bin/env python3
"""The breaks `swift package diagnose-api-breaking-changes` does not see (part of make api-check).

The API digester compares declarations visible to the package, so a public declaration that becomes
`package` (or `internal`, or loses its public signature to an overload that is package-only) is no
break to it. This script compares the public symbol graphs instead: every symbol that was public in
the baseline (by its USR, so a changed signature counts) and is not public now, unless the
digester's report (a file, the first argument) already names it, is listed as a break.

Usage: api-hidden.py DIGESTER_REPORT BASELINE_CHECKOUT MODULE...
Exit status: 0 when nothing is hidden, 1 when something is (each listed), 2 on a usage error.
"""

import glob
import json
import os
import shutil
import subprocess
import sys


def public_symbols(package_dir, modules):
    """{usr: (module, dotted path, kind)} of the public symbols of `modules` (extensions included)."""
    for stale in glob.glob(os.path.join(package_dir, ".build", "*", "symbolgraph")):
        shutil.rmtree(stale)
    # Not checked: the command also extracts the test modules, and fails on SwiftPM's generated test
    # discovery module after writing the others; each module asked for must have its file.
    result = subprocess.run(
        ["swift", "package", "dump-symbol-graph", "--minimum-access-level", "public", "--skip-synthesized-members"],
        cwd=package_dir, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    found = {}
    for module in modules:
        pattern = os.path.join(package_dir, ".build", "*", "symbolgraph", f"{module}*.symbols.json")
        paths = glob.glob(pattern)
        if not any(os.path.basename(path) == f"{module}.symbols.json" for path in paths):
            sys.exit(f"error: no symbol graph for {module} in {package_dir}:\n{result.stderr[-2000:]}")
        for path in paths:
            name = os.path.basename(path)
            if not (name == f"{module}.symbols.json" or name.startswith(f"{module}@")):
                continue
            for symbol in json.load(open(path, encoding="utf-8"))["symbols"]:
                if symbol.get("accessLevel") != "public" or symbol.get("spi"):
                    continue
                dotted = ".".join(symbol["pathComponents"])
                found[symbol["identifier"]["precise"]] = (module, dotted, symbol["kind"]["displayName"])
    return found


def main():
    if len(sys.argv) < 4:
        print(__doc__, file=sys.stderr)
        return 2
    report_path, baseline, modules = sys.argv[1], sys.argv[2], sys.argv[3:]
    report = open(report_path, encoding="utf-8").read()
    before = public_symbols(baseline, modules)
    now = public_symbols(".", modules)
    hidden = []
    for usr, (module, dotted, kind) in sorted(before.items(), key=lambda item: item[1]):
        if usr in now:
            continue
        # The digester names a declaration as `Type.member(labels:)`, an accessor as
        # `Type.member.Get()`: the same path, whole (an overload with other labels is another).
        if f" {dotted} " in report or f" {dotted}." in report:
            continue  # the digester names it already
        hidden.append(f"  💔 API breakage: {kind} {dotted} ({module}) is no longer public API (now package, internal or SPI, or its signature changed)")
    if hidden:
        print(f"{len(hidden)} breaking changes the API digester does not see (public symbol graphs compared):")
        print("\n".join(hidden))
        return 1
    print("No public symbol hidden beyond the digester's report")
    return 0


if __name__ == "__main__":
    sys.exit(main())
