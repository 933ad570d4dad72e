#!/usr/bin/env bash
# Installs the Debian 12 packages Torus builds with, and nothing else.
# Idempotent: apt-get runs only when a package is missing.
set -euo pipefail

packages=(
  cmake ninja-build
  clang-19 lld-19 llvm-19-dev llvm-19-tools libmlir-19-dev mlir-19-tools
  libabsl-dev libfmt-dev libgtest-dev libgmock-dev libbenchmark-dev
  # JSON for the AOT metadata (runtime/ProgramSpecIO.cpp; header only)
  nlohmann-json3-dev
  python3
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

echo "install-deps: installing ${missing[*]}"
sudo=""
if [[ $(id -u) -ne 0 ]]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
