#!/usr/bin/env bash
# Configures (once) and builds Torus into ./build.
#   build.sh                        everything
#   build.sh --target linear-regression-dp   one target and what it needs
#   build.sh --reconfigure [...]    configure again first: picks up packages
#                                   installed since (benchmarks, Gloo, ...)
# Other arguments go to `cmake --build`.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
reconfigure=0
if [[ "${1:-}" == --reconfigure ]]; then
  reconfigure=1
  shift
fi
if [[ ! -f build/build.ninja || $reconfigure == 1 ]]; then
  log=$(mktemp "${TMPDIR:-/tmp}/torus-configure.XXXXXX.log")
  echo "build: configuring build/ (cmake's output in $log)"
  if ! cmake -S . -B build -G Ninja >"$log" 2>&1; then
    echo "build: cmake failed; its output:" >&2
    cat "$log" >&2
    exit 1
  fi
  rm -f "$log"
fi
echo "build: building ${*:-everything}"
cmake --build build "$@"
