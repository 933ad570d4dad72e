#!/usr/bin/env bash
# Quick start, command 1: install what is missing, build, run the demo
# (data-parallel training of a linear model on 8 emulated TPU cores).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
"$root/scripts/install-deps.sh"
"$root/scripts/build.sh"
exec "$root/build/bin/linear-regression-dp" "$@"
