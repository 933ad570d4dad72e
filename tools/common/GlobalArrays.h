//===- GlobalArrays.h - A partitioned program's global arrays ---*- C++ -*-===//
//
// A program compiled for R replicas of P partitions takes and gives each
// device's tile; its users hold global arrays. splitGlobalInputs cuts each
// replica's global inputs into the tiles of its P devices (device
// d = r * P + p) by the inputs' shardings, and joinGlobalOutputs puts each
// replica's results together again from its devices' tiles, as XLA's
// runtime does for a partitioned executable. torus-run and the JAX corpus
// runner use them.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_TOOLS_COMMON_GLOBALARRAYS_H
#define TORUS_TOOLS_COMMON_GLOBALARRAYS_H

#include "torus/HostTensor.h"
#include "torus/Status.h"
#include "torus/Types.h"

#include <cstdint>
#include <string>
#include <vector>

namespace torus::tools {

/// How the global arrays of a program map to its devices.
struct GlobalLayout {
  int64_t numReplicas = 1;
  int64_t numPartitions = 1;
  /// Per input and per output, HLO sharding text over the P partitions of a
  /// replica (`{devices=[2,1]<=[2]}`); "" or missing: replicated.
  std::vector<std::string> inputShardings, outputShardings;
  /// The global results' types (the shape joinGlobalOutputs assembles).
  std::vector<TensorSpec> globalOutputs;
};

/// The tiles of `global` on each of `numPartitions` devices under
/// `sharding` (HLO text; "" is replicated).
absl::StatusOr<std::vector<HostTensor>>
splitGlobalArray(const HostTensor &global, const std::string &sharding,
                 int64_t numPartitions);

/// inputs[replica][argument], global, as devices[d][argument] tiles.
/// Errors name the argument and its sharding.
absl::StatusOr<std::vector<std::vector<HostTensor>>>
splitGlobalInputs(const GlobalLayout &layout,
                  const std::vector<std::vector<HostTensor>> &inputs);

/// devices[d][result] tiles as results[replica][result], global.
absl::StatusOr<std::vector<std::vector<HostTensor>>>
joinGlobalOutputs(const GlobalLayout &layout,
                  const std::vector<std::vector<HostTensor>> &devices);

} // namespace torus::tools

#endif // TORUS_TOOLS_COMMON_GLOBALARRAYS_H
