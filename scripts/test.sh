#!/usr/bin/env bash
# Quick start, command 2: install what is missing, build, run every test
# (lit for IR/passes/codegen, gtest for runtime and API, end-to-end programs).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh"
cd "$root/build"
ctest --output-on-failure -j "$(nproc)" "$@"
