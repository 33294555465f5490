#!/usr/bin/env python3
"""Compiles every Swift snippet of README.md and the DocC articles (make snippets, run by make test).

Each ```swift block must be preceded by a marker comment that says how it is compiled:

  <!-- snippet: manifest -->        the scratch package's own Package.swift (the FrameLink dependency
                                    points at this checkout); every other snippet builds inside it
  <!-- snippet: manifest-check -->  a manifest whose products must be ones FrameLink has
  <!-- snippet: main -->            the scratch package's main.swift, as written
  <!-- snippet: file -->            a file of its own, at file scope
  <!-- snippet: body(a: A, b: B) --> the body of a @MainActor function taking those parameters (the
                                    names the snippet uses without declaring them)

Names the snippets use but FrameLink does not have (`Sprite`, `HUD`, `Game`) come from
scripts/snippets/Stubs.swift. A block without a marker is an error, so a new snippet cannot skip the
check. Exit status: 0 when everything compiles without warnings (a value a fragment declares and
leaves unused is allowed), 1 with the compiler's errors or warnings otherwise.
"""

import glob
import json
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCRATCH = os.path.join(ROOT, ".build", "snippets")
MARKER = re.compile(r"<!-- snippet: ([a-z-]+)(?:\(([^\n]*)\))? -->\n```swift\n(.*?)```", re.S)
BLOCK = re.compile(r"```swift\n")
URL_DEPENDENCY = re.compile(r'\.package\(url: "https://github\.com/<owner>/FrameLink", from: "[0-9.]+"\)')


def sources():
    files = [os.path.join(ROOT, "README.md")]
    files += sorted(glob.glob(os.path.join(ROOT, "Sources", "*", "*.docc", "**", "*.md"), recursive=True))
    return files


def snippets():
    """(file, line, kind, parameters, code) for every block; exits on a block without a marker."""
    found, missing = [], []
    for path in sources():
        text = open(path, encoding="utf-8").read()
        marked = set()
        for match in MARKER.finditer(text):
            line = text.count("\n", 0, match.start()) + 2
            found.append((os.path.relpath(path, ROOT), line, match.group(1), match.group(2) or "", match.group(3)))
            marked.add(match.start(3) - len("```swift\n"))
        for block in BLOCK.finditer(text):
            if block.start() not in marked:
                missing.append(f"{os.path.relpath(path, ROOT)}:{text.count(chr(10), 0, block.start()) + 1}")
    if missing:
        sys.exit("error: Swift snippets without a <!-- snippet: … --> marker: " + ", ".join(missing))
    return found


def products_of_framelink():
    out = subprocess.run(["swift", "package", "dump-package"], cwd=ROOT, check=True, capture_output=True, text=True)
    return {product["name"] for product in json.loads(out.stdout)["products"]}


def manifest_text(code):
    """A manifest snippet as a whole Package.swift, its dependency on this checkout by path."""
    body = URL_DEPENDENCY.sub('.package(path: "FrameLink")', code.replace("// Package.swift\n", ""))
    if URL_DEPENDENCY.search(code) is None:
        sys.exit("error: a manifest snippet does not depend on FrameLink by URL as the others do")
    return (
        "// swift-tools-version: 6.2\nimport PackageDescription\n\n"
        'let package = Package(\n    name: "Game",\n'
        + "    " + body.strip().rstrip(",").replace("\n", "\n    ") + "\n)\n"
    )


def main():
    entries = snippets()
    manifests = [e for e in entries if e[2] == "manifest"]
    mains = [e for e in entries if e[2] == "main"]
    if len(manifests) != 1 or len(mains) != 1:
        sys.exit("error: the snippets need exactly one 'manifest' and one 'main' snippet")
    shutil.rmtree(os.path.join(SCRATCH, "Sources"), ignore_errors=True)
    source_dir = os.path.join(SCRATCH, "Sources", "Game")
    os.makedirs(source_dir)
    link = os.path.join(SCRATCH, "FrameLink")  # the folder's name is the package identity
    if not os.path.islink(link):
        os.symlink(ROOT, link)
    open(os.path.join(SCRATCH, "Package.swift"), "w").write(manifest_text(manifests[0][4]))

    known = products_of_framelink()
    for path, line, kind, _, code in entries:
        if kind == "manifest-check":
            used = set(re.findall(r'\.product\(name: "([^"]+)", package: "FrameLink"\)', code))
            unknown = used - known
            if unknown or not used:
                sys.exit(f"error: {path}:{line}: products {sorted(unknown) or '(none)'} are not FrameLink's")
            manifest_text(code)  # the same dependency form as the built manifest

    imports = "import CSDL2\nimport Foundation\nimport FrameLink\nimport FrameLinkSDL\nimport Testing\n"
    shutil.copy(os.path.join(ROOT, "scripts", "snippets", "Stubs.swift"), source_dir)
    origins = []
    for number, (path, line, kind, parameters, code) in enumerate(entries):
        origin = f"// {path}:{line}\n"
        if kind == "main":
            text = origin + code
            name = "main.swift"
        elif kind == "file":
            text = imports + origin + code
            name = f"Snippet{number}.swift"
        elif kind == "body":
            hoisted = "".join(l + "\n" for l in code.splitlines() if l.startswith("import "))
            body = "".join("    " + l + "\n" for l in code.splitlines() if not l.startswith("import "))
            text = (
                imports + hoisted + origin
                + f"@MainActor func snippet{number}({parameters}) throws {{\n{body}}}\n"
            )
            name = f"Snippet{number}.swift"
        else:
            continue
        open(os.path.join(source_dir, name), "w").write(text)
        origins.append(f"  {name} is {path}:{line}")

    build = subprocess.run(
        ["swift", "build", "--package-path", SCRATCH, "--scratch-path", os.path.join(SCRATCH, ".build")],
        capture_output=True, text=True,
    )
    if build.returncode != 0:
        sys.stdout.write(build.stdout + build.stderr + "\n".join(origins) + "\n")
        sys.exit(f"error: documentation snippets do not compile (sources in {source_dir})")
    warnings = sorted(
        {
            line
            for line in (build.stdout + build.stderr).splitlines()
            if re.match(r"^/.*/Sources/Game/.*: warning: ", line) and "[#no-usage]" not in line
        }
    )
    if warnings:
        sys.stdout.write("\n".join(warnings + origins) + "\n")
        sys.exit("error: documentation snippets compile with warnings (an unused value is the only one allowed)")
    print(f"snippets: {len(entries)} Swift snippets of README.md and the DocC articles compile")


if __name__ == "__main__":
    main()
