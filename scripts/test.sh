#!/usr/bin/env bash
# Quick start, command 2: install what is missing, build everything (after
# scripts/demo.sh: the tests, tools, benchmarks and examples it did not
# build), run every test (lit for IR/passes/codegen, gtest for runtime and
# API, end-to-end programs).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
# Configure again: packages installed since the demo's configure (Gloo,
# oneDNN, Google Benchmark) add their targets.
"$root/scripts/build.sh" --reconfigure
cd "$root/build"
ctest --output-on-failure -j "$(nproc)" "$@"
