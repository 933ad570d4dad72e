//===- ProgramSpec.cpp - What the compiler tells the runtime --------------===//

#include "runtime/ProgramSpec.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace torus::rt {

std::string_view reduceKindName(ReduceKind kind) {
  switch (kind) {
  case ReduceKind::Sum:
    return "sum";
  case ReduceKind::Product:
    return "product";
  case ReduceKind::Max:
    return "max";
  case ReduceKind::Min:
    return "min";
  }
  return "?";
}

std::string_view collectiveKindName(CollectiveKind kind) {
  switch (kind) {
  case CollectiveKind::AllReduce:
    return "all_reduce";
  case CollectiveKind::AllGather:
    return "all_gather";
  case CollectiveKind::ReduceScatter:
    return "reduce_scatter";
  case CollectiveKind::AllToAll:
    return "all_to_all";
  case CollectiveKind::CollectivePermute:
    return "collective_permute";
  }
  return "?";
}

namespace {

std::string specList(const std::vector<TensorSpec> &specs) {
  std::string out;
  for (size_t i = 0; i < specs.size(); ++i)
    out += (i ? "," : "") + specs[i].toString();
  return out;
}

/// FNV-1a, 64 bits: enough to tell two collective tables apart.
uint64_t fnv1a(std::string_view text) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (unsigned char c : text) {
    hash ^= c;
    hash *= 0x100000001b3ull;
  }
  return hash;
}

} // namespace

std::string programSignature(const ProgramSpec &spec, int64_t numPartitions) {
  std::string collectives;
  for (const CollectiveSpec &c : spec.collectives) {
    collectives += fmt::format(
        "{} {} {} {} {} {} {} {} [", collectiveKindName(c.kind),
        reduceKindName(c.reduce), c.operand.toString(), c.result.toString(),
        c.dimension, c.splitDimension, c.concatDimension, c.splitCount);
    for (const auto &group : c.replicaGroups)
      collectives += fmt::format("[{}]", fmt::join(group, ","));
    collectives += "] [";
    for (const auto &[source, target] : c.sourceTargetPairs)
      collectives += fmt::format("[{},{}]", source, target);
    collectives += "]\n";
  }
  return fmt::format("name {}\nnum_replicas {}\nnum_partitions {}\n"
                     "inputs [{}]\noutputs [{}]\nworkspace_bytes {}\n"
                     "collectives {} {:016x}\n",
                     spec.name, spec.numReplicas, numPartitions,
                     specList(spec.inputs), specList(spec.outputs),
                     spec.workspaceBytes, spec.collectives.size(),
                     fnv1a(collectives));
}

std::string signatureSymbolFor(std::string_view entrySymbol) {
  return std::string(entrySymbol) + ".signature";
}

} // namespace torus::rt
