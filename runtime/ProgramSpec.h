//===- ProgramSpec.h - What the compiler tells the runtime ------*- C++ -*-===//
//
// The contract between generated code and the runtime. The compiler produces,
// next to the machine code of one SPMD program, a ProgramSpec: the entry
// point's buffers and a table of the collectives the code calls. Generated
// code never synchronizes itself; it calls the C ABI in RuntimeAbi.h with an
// index into that table (XLA's thunk design, with the descriptor kept out of
// the code).
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_PROGRAMSPEC_H
#define TORUS_RUNTIME_PROGRAMSPEC_H

#include "torus/Types.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace torus::rt {

enum class ReduceKind : int32_t { Sum, Product, Max, Min };
std::string_view reduceKindName(ReduceKind kind);

enum class CollectiveKind : int32_t {
  AllReduce,
  AllGather,
  ReduceScatter,
  AllToAll,
  CollectivePermute,
};
std::string_view collectiveKindName(CollectiveKind kind);

/// One collective call site in a program.
struct CollectiveSpec {
  CollectiveKind kind = CollectiveKind::AllReduce;
  ReduceKind reduce = ReduceKind::Sum;
  /// Type of the operand (and, for all_reduce, of the result).
  TensorSpec operand;
  /// Type of the result; equal to `operand` for all_reduce and
  /// collective_permute.
  TensorSpec result;
  /// HLO replica groups; empty means one group holding every replica.
  std::vector<std::vector<int64_t>> replicaGroups;
  /// all_gather: all_gather_dim; reduce_scatter: scatter_dimension.
  int64_t dimension = 0;
  /// all_to_all: split_dimension, concat_dimension and split_count.
  int64_t splitDimension = 0;
  int64_t concatDimension = 0;
  int64_t splitCount = 0;
  /// collective_permute: (source, target) replica pairs; a replica that is
  /// no target receives zeros (HLO semantics).
  std::vector<std::pair<int64_t, int64_t>> sourceTargetPairs;
  /// Where the op came from (`file:line:col`), for error messages.
  std::string location;
};

/// Entry point signature: `buffers` holds one pointer per input, then one per
/// output, each to a dense row-major buffer of its TensorSpec. Inputs are
/// read-only; outputs are written completely.
using EntryFn = void (*)(void **buffers);

struct ProgramSpec {
  std::string name;
  int64_t numReplicas = 1;
  std::vector<TensorSpec> inputs;
  std::vector<TensorSpec> outputs;
  std::vector<CollectiveSpec> collectives;
  /// Bytes of the buffer plan's workspace (codegen's torus-plan-buffers):
  /// the program's temporaries, carved from one buffer per core that the
  /// runtime allocates once and the packed entry asks for with
  /// `__torus_workspace(bytes)`. 0: the program has no planned temporaries.
  int64_t workspaceBytes = 0;
};

/// What the code of an ahead-of-time compiled program was compiled for, as
/// text the compiler embeds in the object (the NUL-terminated data symbol
/// signatureSymbolFor(entry)) and the loader compares with the metadata: a
/// `.torus.json` edited or paired with another program's object is refused
/// instead of letting the code read or write past its buffers. One
/// `key value` line each: name, num_replicas, num_partitions, inputs,
/// outputs, workspace_bytes, and collectives (their count and a hash of
/// everything but their source locations).
std::string programSignature(const ProgramSpec &spec, int64_t numPartitions);
/// `__torus_entry_step` -> `__torus_entry_step.signature`.
std::string signatureSymbolFor(std::string_view entrySymbol);

} // namespace torus::rt

#endif // TORUS_RUNTIME_PROGRAMSPEC_H
