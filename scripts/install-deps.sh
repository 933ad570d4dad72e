#!/usr/bin/env bash
# Installs the Debian 12 packages Torus builds with, and nothing else.
#   install-deps.sh          everything: the build, every test, benchmarks,
#                            multi-worker, fuzzers, the API reference
#   install-deps.sh --demo   what configuring and building the demo needs
# Idempotent: apt-get runs only when a package is missing. Its output goes
# to a log file, printed only when it fails; one line says what happens.
set -euo pipefail

# What CMake requires to configure and what the library and the demo build
# with (CMakeLists.txt's REQUIRED packages).
demo_packages=(
  cmake ninja-build
  clang-19 lld-19 llvm-19-dev llvm-19-tools libmlir-19-dev mlir-19-tools
  libabsl-dev libfmt-dev libgtest-dev libgmock-dev
  # JSON for the AOT metadata (runtime/ProgramSpecIO.cpp; header only)
  nlohmann-json3-dev
  python3
)
# The rest: found when present, needed by the tests and extras.
more_packages=(
  libbenchmark-dev
  # pkg-config: the install test builds a consumer through torus.pc
  pkgconf
  # oneDNN: the reference GEMMs of benchmarks/codegen_bench (an MLP step)
  libdnnl-dev
  # OpenBLAS: the second reference GEMM of benchmarks/matmul_bench
  libopenblas-dev
  # Gloo: collectives between worker processes (runtime/multiworker)
  libgloo-dev
  # Redis: workers on different machines meet through it (runtime/multiworker/
  # RedisStore.cpp, linked with hiredis); its tests start a private redis-server
  libhiredis-dev redis-server
  # libFuzzer and the sanitizers, for -DTORUS_BUILD_FUZZERS=ON (docs/torusc.md)
  libclang-rt-19-dev
  # The API reference and its test (docs/Doxyfile, cmake/TorusDocs.cmake)
  doxygen
)

packages=("${demo_packages[@]}")
case "${1:-}" in
  --demo) ;;
  "") packages+=("${more_packages[@]}") ;;
  *) echo "usage: install-deps.sh [--demo]" >&2; exit 2 ;;
esac

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if ((${#missing[@]} == 0)); then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

sudo=""
if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
log=$(mktemp "${TMPDIR:-/tmp}/torus-install-deps.XXXXXX.log")
echo "install-deps: installing ${#missing[@]} packages (${missing[*]}); apt's output in $log"
start=$SECONDS
if ! { $sudo apt-get update -qq &&
       $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"; } \
     >"$log" 2>&1; then
  echo "install-deps: apt-get failed; its output:" >&2
  cat "$log" >&2
  exit 1
fi
echo "install-deps: installed ${#missing[@]} packages in $((SECONDS - start)) s"
rm -f "$log"
