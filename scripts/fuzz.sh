#!/usr/bin/env bash
# Builds the libFuzzer targets (AddressSanitizer + UndefinedBehaviorSanitizer,
# clang; tests/fuzz/CMakeLists.txt) in build-fuzz/ and runs each for SECONDS
# (default 60) from its committed corpus, one process each, then prints per
# fuzzer: the inputs run, the coverage (libFuzzer's final cov: and ft:), and
# the findings (crash-*, leak-*, timeout-*, oom-* files in
# build-fuzz/tests/fuzz/<Fuzzer>-crashes/). Exit status 1 when any fuzzer
# found something.
#
#   scripts/fuzz.sh [SECONDS]
#   FUZZERS="NpyFuzzer JsonFuzzer" JOBS=2 scripts/fuzz.sh 300
#
# FUZZERS: which to build and run (default: all five; MlirReaderFuzzer and
# HloReaderFuzzer instrument the whole compiler and take long to build).
# JOBS: build parallelism (default 2). BUILD_DIR: default build-fuzz.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-60}
fuzzers=${FUZZERS:-"NpyFuzzer JsonFuzzer AotArtifactFuzzer MlirReaderFuzzer HloReaderFuzzer"}
build=${BUILD_DIR:-$root/build-fuzz}
jobs=${JOBS:-2}

declare -A corpus=([NpyFuzzer]=npy [JsonFuzzer]=json [AotArtifactFuzzer]=aot
                   [MlirReaderFuzzer]=mlir [HloReaderFuzzer]=hlo)
declare -A dict=([NpyFuzzer]=npy.dict [JsonFuzzer]=json.dict
                 [AotArtifactFuzzer]=json.dict [MlirReaderFuzzer]=mlir.dict
                 [HloReaderFuzzer]=hlo.dict)

if [ ! -f "$build/CMakeCache.txt" ]; then
  launcher=()
  command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_COMPILER=clang++-19 -DTORUS_BUILD_FUZZERS=ON "${launcher[@]}" \
    >/dev/null
fi
# shellcheck disable=SC2086
ninja -C "$build" -j "$jobs" $fuzzers

status=0
summary=()
for f in $fuzzers; do
  bin=$build/tests/fuzz/$f
  work=$build/tests/fuzz/$f-corpus
  crashes=$build/tests/fuzz/$f-crashes
  mkdir -p "$work" "$crashes"
  log=$build/tests/fuzz/$f.log
  echo "== $f: ${seconds}s from tests/fuzz/corpus/${corpus[$f]}"
  "$bin" -max_total_time="$seconds" -timeout=20 -rss_limit_mb=4096 \
    -max_len=65536 -dict="$root/tests/fuzz/${dict[$f]}" \
    -artifact_prefix="$crashes/" -print_final_stats=1 \
    "$work" "$root/tests/fuzz/corpus/${corpus[$f]}" >"$log" 2>&1 || true
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
  cov=$(grep -Eo 'cov: [0-9]+ ft: [0-9]+' "$log" | tail -1)
  found=$(find "$crashes" -type f \( -name 'crash-*' -o -name 'leak-*' \
          -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l)
  [ "$found" -gt 0 ] && status=1
  summary+=("$(printf '%-20s runs %-10s %-22s findings %s' "$f" "${runs:-?}" \
                "${cov:-cov: ? ft: ?}" "$found")")
  [ "$found" -gt 0 ] && find "$crashes" -type f | sed 's/^/    /'
done
echo
echo "fuzzer               runs       coverage               findings (${seconds}s each)"
printf '%s\n' "${summary[@]}"
exit $status
