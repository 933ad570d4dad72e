//===- CpuTarget.h - The x86-64 CPU generated code is compiled for -*- C++ -*-===//
//
// Generated code is compiled for one CPU: this host's by default, or any
// other x86-64 named by an ISA level (`x86-64-v2`, `-v3`, `-v4`) or a CPU
// (`haswell`, `znver1`, `skylake-avx512`, `sapphirerapids`, ...), with
// features added or removed (`+avx512bf16,-fma`). The kernels' vector width,
// LLVM's instruction selection, the compile cache key and the record in an
// AOT artifact all follow it, so code for an AVX2-only CPU is compiled and
// tested on an AVX-512 host:
//
//   TORUS_ASSIGN_OR_RETURN(CpuTarget t, resolveCpuTarget("x86-64-v3"));
//   t.vectorBits();                       // 256
//   TORUS_RETURN_IF_ERROR(checkHostCanRun(t));
//
// LLVM only (its target parser), no MLIR.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_JIT_CPUTARGET_H
#define TORUS_RUNTIME_JIT_CPUTARGET_H

#include "torus/Status.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace torus::rt {

/// An LLVM target triple, CPU name and feature string (`+avx2,+fma,...`:
/// every feature the code may use, implied ones included, sorted).
struct CpuTarget {
  std::string triple;
  std::string cpu;
  std::string features;
  /// What was asked for, for messages and reports: `host`, `x86-64-v3`,
  /// `x86-64-v4,+avx512bf16`. Not part of the identity: two spellings of
  /// one CPU compile the same code.
  std::string spec;

  /// The widest vector register the kernels use: 512 with AVX-512F, 256
  /// with AVX2 and FMA, else 128.
  int64_t vectorBits() const;
  /// True if `features` enables `feature` (a name without `+`).
  bool hasFeature(std::string_view feature) const;

  bool operator==(const CpuTarget &other) const {
    return triple == other.triple && cpu == other.cpu &&
           features == other.features;
  }
};

/// This host's CPU and every feature it has.
absl::StatusOr<CpuTarget> hostCpuTarget();

/// The target named by `cpu` (empty or `host`: this host; else an x86-64
/// level or an LLVM CPU name) with `features` (comma-separated `+name` or
/// `-name`) applied on top. InvalidArgument naming the bad word otherwise.
absl::StatusOr<CpuTarget> resolveCpuTarget(std::string_view cpu,
                                           std::string_view features = "");

/// `cpu[,+feature,-feature...]`, the form of TORUS_TARGET and of
/// CompileOptions::target, resolved as by resolveCpuTarget.
absl::StatusOr<CpuTarget> parseCpuTarget(std::string_view spec);

/// The target when none is given: the environment variable TORUS_TARGET
/// (parseCpuTarget's form; tests use it to run at several ISA levels), or
/// this host. `spec` non-empty overrides both.
absl::StatusOr<CpuTarget> defaultCpuTarget(std::string_view spec = "");

/// OK if code compiled for `target` runs on this host: same architecture
/// and OS, and every feature it was compiled with present here.
/// FailedPrecondition naming the missing features otherwise.
absl::Status checkHostCanRun(const CpuTarget &target);

} // namespace torus::rt

#endif // TORUS_RUNTIME_JIT_CPUTARGET_H
