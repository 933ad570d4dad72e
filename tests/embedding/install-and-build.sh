#!/usr/bin/env bash
# Installs Torus from a build tree into a fresh prefix, builds the
# out-of-tree example against that prefix only, and runs both programs.
#   install-and-build.sh <torus build dir> <torus source dir> <work dir> <c++ compiler> [<c++ flags> [<link flags>]]
# The flags are the Torus build's own (a sanitizer build's libraries link
# only into programs built with the same -fsanitize options).
set -euo pipefail
build=$1 src=$2 work=$3 cxx=$4 cxxflags=${5:-} ldflags=${6:-}
rm -rf "$work"
cmake --install "$build" --prefix "$work/prefix" > "$work.install.log" 2>&1 || {
  cat "$work.install.log"; exit 1; }
cmake -S "$src/examples/embedding" -B "$work/build" -G Ninja \
  -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_CXX_COMPILER="$cxx" \
  -DCMAKE_CXX_FLAGS="$cxxflags" -DCMAKE_EXE_LINKER_FLAGS="$ldflags" \
  -DCMAKE_BUILD_TYPE=Release > "$work/configure.log" 2>&1 || {
  cat "$work/configure.log"; exit 1; }
cmake --build "$work/build"
"$work/build/train" "$work/sgd_step.torus.json"
"$work/build/run_saved" "$work/sgd_step.torus.json"
# The runtime-only program must not pull in the compiler.
if ldd "$work/build/run_saved" | grep -q 'libtorus\.so'; then
  echo "run_saved links libtorus.so; it should need libtorus_runtime.so only"
  exit 1
fi
echo "embedding: installed, built out of tree, trained, saved, loaded: OK"
