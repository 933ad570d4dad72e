#!/usr/bin/env bash
# Quick start, command 1: install what the demo needs, build only the demo
# (and the libraries it links), run it: data-parallel training of a linear
# model on 8 emulated TPU cores. Command 2 (scripts/test.sh) installs and
# builds the rest.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh" --demo
"$root/scripts/build.sh" --target linear-regression-dp
exec "$root/build/bin/linear-regression-dp" "$@"
