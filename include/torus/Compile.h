//===- Compile.h - Compiling traced functions for the emulated TPU -*- C++ -*-===//
//
//   TORUS_ASSIGN_OR_RETURN(torus::Executable exe,
//                          torus::compile(traced, {.numReplicas = 8}));
//
// compile() lowers a traced function through linalg and LLVM to host machine
// code, JIT-loaded into this process. The result is one SPMD program: every
// replica runs the same code, and replicaId() / allReduce() inside it are
// calls into the runtime. Run it with EmulatedMesh::run.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_COMPILE_H
#define TORUS_COMPILE_H

#include "torus/Reports.h"
#include "torus/Status.h"
#include "torus/Trace.h"
#include "torus/Types.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace torus {

/// How compile() builds an Executable: the replica and partition counts and
/// the optimization level.
struct CompileOptions {
  /// Replicas the program runs on (XLA's replica_count).
  int64_t numReplicas = 1;
  /// Logical devices per replica (XLA's num_partitions; TPUStrategy's
  /// num_cores_per_replica). 0 takes the count the function was traced
  /// under (LogicalDeviceScope, Sharding.h), else 1. With more than one,
  /// the program is partitioned by its sharding annotations and runs on
  /// numReplicas x numPartitions devices; its inputs and outputs are each
  /// device's tiles (shardForPartition / unshard split and join them).
  int64_t numPartitions = 0;
  /// LLVM optimization level, 0 to 3. compile() checks every field:
  /// InvalidArgument "CompileOptions::optLevel is 7; it must be 0 to 3"
  /// (numReplicas at least 1, numPartitions at least 0).
  int optLevel = 3;
  /// Fuse elementwise ops, broadcasts and converts into kernels, and
  /// elementwise producers into reductions. false: one loop nest per op
  /// (the naive lowering, for comparisons; results are bit-identical).
  bool fuse = true;
  /// Carve the program's temporaries from one workspace per core, planned
  /// at compile time and allocated once. false: the generated code
  /// allocates and frees them on every call.
  bool planBuffers = true;
  /// The CPU to compile for: empty for this host (or the environment
  /// variable TORUS_TARGET when set), else `cpu[,+feature,-feature...]`
  /// with an x86-64 level (`x86-64-v2`, `x86-64-v3`, `x86-64-v4`) or an
  /// LLVM CPU name (`haswell`, `znver1`, `skylake-avx512`,
  /// `sapphirerapids`), as in `x86-64-v4,+avx512bf16`. compile() loads the
  /// code, so the host must be able to run it (FailedPrecondition naming
  /// the missing features otherwise); Executable::save() records it.
  std::string target;
  /// Write every step of the compilation into this directory, as `torusc
  /// --dump-dir` does (docs/torusc.md, "Dumps"): the traced module with its
  /// C++ source locations and argument names, the module after every pass,
  /// the LLVM IR before and after optimization, numbered in order as
  /// `module_<NNNN>.<name>.<NNNN>.<step>.<ext>` (modules numbered per
  /// process). Empty: the directory in the environment variable
  /// TORUS_DUMP_TO when it is set (XLA's `--xla_dump_to`), else no dumps. A
  /// dump that cannot be written fails the compile. A CompileCache hit
  /// compiles nothing and so dumps nothing.
  std::string dumpDir;
  /// Write a timeline of this compile into this file as Chrome/Perfetto
  /// trace JSON (open it in ui.perfetto.dev): a span per pass and per
  /// lowering stage, LLVM IR translation, optimization, machine code and
  /// JIT loading, as `torusc --trace` writes (docs/torusc.md, "Traces").
  /// Empty: `module_<NNNN>.<name>.compile.trace.json` in the directory in
  /// the environment variable TORUS_TRACE_TO when it is set, else no trace.
  /// A trace that cannot be written fails the compile.
  std::string traceFile;
  /// Compile a span per kernel into the code, so that traced runs
  /// (MeshRunOptions::traceFile) show every kernel on its core's track.
  /// Also on when TORUS_TRACE_TO is set. Off, the code has no such calls.
  bool kernelSpans = false;
};

/// A compiled program: host machine code for one SPMD step and what the
/// runtime needs to run it. Cheap to copy (shared); safe to run from any
/// thread. Only this class and EmulatedMesh are needed to run a saved
/// program: link Torus::runtime, not the compiler.
class Executable {
public:
  /// The traced function's name.
  const std::string &name() const;
  /// Replicas the program was compiled for (CompileOptions::numReplicas).
  int64_t numReplicas() const;
  /// Logical devices per replica: the program runs on numReplicas() x
  /// numPartitions() devices, and inputs() / outputs() are one device's.
  int64_t numPartitions() const;
  ///@{
  /// The argument and result types of one device's program.
  const std::vector<TensorSpec> &inputs() const;
  const std::vector<TensorSpec> &outputs() const;
  ///@}

  /// The memory one core needs to run the program: inputs, outputs,
  /// workspace and the peak of the temporaries (the figures of `torusc
  /// --dump-dir`'s memory.txt, by the same code). Only compile() reads it
  /// (from the bufferized program): FailedPrecondition for a program
  /// load()ed from a file.
  absl::StatusOr<MemoryReport> memoryReport() const;
  /// Every collective call site with its kind, bytes and replica groups
  /// (the rows of `torusc --dump-dir`'s collectives.txt, by the same code);
  /// for loaded programs too.
  const CollectiveReport &collectiveReport() const;

  /// Writes the program as `<path>` (metadata, JSON: the spec, the target
  /// CPU, the entry symbol) and `<path without .torus.json>.o` (the object
  /// code) beside it; `path` should end in `.torus.json`.
  absl::Status save(const std::string &path) const;
  /// Loads a program written by save() or by `torusc --emit=obj`. Fails if
  /// this host's CPU lacks a feature the code was compiled for.
  static absl::StatusOr<Executable> load(const std::string &path);

  /// Internal: the implementation, for the runtime glue.
  struct Impl;
  /// Internal: wraps an implementation (compile() and load() make them).
  explicit Executable(std::shared_ptr<const Impl> impl);
  /// Internal: the implementation, for the runtime glue.
  const Impl &impl() const { return *impl_; }

private:
  std::shared_ptr<const Impl> impl_;
};

/// Compiles `fn`. Errors name the op and its source location.
absl::StatusOr<Executable> compile(const TracedFunction &fn,
                                   const CompileOptions &options = {});

} // namespace torus

#endif // TORUS_COMPILE_H
