#!/usr/bin/env bash
# Installs Torus from a build tree into a fresh prefix, builds the
# out-of-tree example against that prefix only (its CMakeLists sets no C++
# standard: the imported targets carry cxx_std_20), and runs both programs;
# then moves the prefix and builds the runtime program again through
# pkg-config alone (a relocatable torus.pc), and runs the installed tools.
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

# pkg-config, after moving the prefix: torus.pc finds it from its own folder
# and passes -std=c++20.
mv "$work/prefix" "$work/moved"
pcdir=$(dirname "$(find "$work/moved" -name torus.pc)")
flags=$(PKG_CONFIG_PATH="$pcdir" pkg-config --cflags --libs torus)
case "$flags" in *"$work/moved/"*) ;; *)
  echo "pkg-config flags do not name the moved prefix: $flags"; exit 1;; esac
# shellcheck disable=SC2086
"$cxx" $cxxflags "$src/examples/embedding/run_saved.cpp" -o "$work/run_saved_pc" \
  $flags $ldflags
"$work/run_saved_pc" "$work/sgd_step.torus.json"

# The installed tools.
"$work/moved/bin/torusc" "$src/tests/tools/Inputs/allreduce8.mlir" --replicas=8 \
  --emit=torus -o /dev/null
"$work/moved/bin/torus-run" "$src/tests/tools/Inputs/allreduce8.mlir" --replicas=8 \
  | grep -q "8 replicas on 8 emulated cores"
"$work/moved/bin/torus-opt" --help > /dev/null
"$work/moved/bin/torus-launch" --help > /dev/null
echo "embedding: installed, built out of tree, trained, saved, loaded: OK"
echo "embedding: pkg-config build from a moved prefix and the installed tools: OK"
