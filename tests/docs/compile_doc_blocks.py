#!/usr/bin/env python3
"""Compiles every ```cpp block of README.md and docs/*.md, so the docs
cannot drift from the headers they show.

The rule, per block (an HTML comment on the lines right before the fence;
Markdown renderers do not show it):

  (no comment)        the block is a whole translation unit and compiles as
                      it stands.
  <!-- doc-compile: function
  PRELUDE -->         the block is statements: its leading #include lines
                      and PRELUDE (declarations the text assumes, usually
                      `extern` variables and includes) go at file scope, the
                      rest becomes the body of
                      `absl::Status docBlock() { ... return absl::OkStatus(); }`.
  <!-- doc-compile: continue -->
                      the block goes on the previous block of the same file
                      (a walkthrough split by prose): its statements are
                      appended to that function's body.
  <!-- doc-compile: skip REASON -->
                      not C++ on its own (a line of a .def file, a table
                      entry); REASON says what it is.

Each translation unit is compiled with -fsyntax-only against the source and
build trees' headers (the public include/ and the internal ones docs show).
A failure prints the file:line of the block and the compiler's message.
"""
import argparse
import concurrent.futures
import glob
import os
import re
import subprocess
import sys
import tempfile

MARKER = re.compile(r"<!--\s*doc-compile:\s*(\w+)(.*?)-->", re.S)


def blocks_of(path):
    """(line, role, prelude, code) for each ```cpp block of `path`."""
    text = open(path, encoding="utf-8").read()
    lines = text.split("\n")
    out = []
    i = 0
    while i < len(lines):
        if lines[i].strip() == "```cpp":
            start = i + 1
            j = start
            while j < len(lines) and lines[j].strip() != "```":
                j += 1
            code = "\n".join(lines[start:j])
            # The comment (if any) ends on the line before the fence.
            role, prelude = "file", ""
            k = i - 1
            if k >= 0 and lines[k].rstrip().endswith("-->"):
                m = k
                while m >= 0 and "<!--" not in lines[m]:
                    m -= 1
                comment = "\n".join(lines[m:k + 1])
                found = MARKER.search(comment)
                if found:
                    role, prelude = found.group(1), found.group(2)
            out.append((start, role, prelude, code))
            i = j
        i += 1
    return out


def translation_units(path):
    """(line, source) for the compilable blocks of `path`; errors for bad
    markers."""
    units = []
    for line, role, prelude, code in blocks_of(path):
        if role == "skip":
            if not prelude.strip():
                raise SystemExit(f"{path}:{line}: doc-compile: skip needs a "
                                 "reason")
            continue
        if role == "file":
            units.append([line, code, None])
            continue
        if role not in ("function", "continue"):
            raise SystemExit(f"{path}:{line}: unknown doc-compile role "
                             f"'{role}' (function, continue, skip)")
        includes = [l for l in code.split("\n") if l.lstrip().startswith("#")]
        body = [l for l in code.split("\n")
                if not l.lstrip().startswith("#")]
        if role == "continue":
            if not units or units[-1][2] is None:
                raise SystemExit(f"{path}:{line}: doc-compile: continue "
                                 "follows no function block")
            unit = units[-1]
            unit[2]["includes"] += includes
            unit[2]["prelude"] += prelude
            unit[2]["body"] += [f"#line {line + 1} \"{path}\""] + body
            continue
        units.append([line, None, {
            "includes": includes, "prelude": prelude,
            "body": [f"#line {line + 1} \"{path}\""] + body}])
    result = []
    for line, code, parts in units:
        if parts is None:
            result.append((line, f"#line {line + 1} \"{path}\"\n" + code + "\n"))
            continue
        source = "#include <absl/status/status.h>\n"
        source += "\n".join(parts["includes"]) + "\n"
        source += parts["prelude"] + "\n"
        source += "absl::Status docBlock() {\n"
        source += "\n".join(parts["body"]) + "\n"
        source += "  return absl::OkStatus();\n}\n"
        result.append((line, source))
    return result


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--cxx", required=True)
    parser.add_argument("--flag", action="append", default=[],
                        help="a compiler flag (repeatable)")
    parser.add_argument("--jobs", type=int, default=2,
                        help="compilers run at once")
    parser.add_argument("--root", required=True,
                        help="the source tree (paths are shown from it)")
    parser.add_argument("docs", nargs="*",
                        help="Markdown files (default: README.md and "
                        "docs/*.md of --root)")
    args = parser.parse_args()
    if not args.docs:
        args.docs = [os.path.join(args.root, "README.md")] + sorted(
            glob.glob(os.path.join(args.root, "docs", "*.md")))
    jobs = []
    with tempfile.TemporaryDirectory() as tmp:
        for doc in args.docs:
            rel = os.path.relpath(doc, args.root)
            for line, source in translation_units(rel if os.path.exists(rel)
                                                  else doc):
                name = os.path.join(
                    tmp, re.sub(r"[^A-Za-z0-9]", "_", rel) + f"_{line}.cpp")
                with open(name, "w", encoding="utf-8") as f:
                    f.write(source)
                jobs.append((rel, line, name))

        def compile_one(job):
            return subprocess.run(
                [args.cxx, "-std=c++20", "-fsyntax-only", *args.flag,
                 job[2]], capture_output=True, text=True, cwd=args.root)

        with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
            runs = list(pool.map(compile_one, jobs))
    failures = 0
    count = len(jobs)
    for (rel, line, _), run in zip(jobs, runs):
        if run.returncode != 0:
            failures += 1
            print(f"{rel}:{line}: the ```cpp block does not compile:")
            print(run.stderr)
    print(f"{count - failures} of {count} C++ blocks of the docs compile")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
