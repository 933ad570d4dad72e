//===- GlobalArrays.cpp - A partitioned program's global arrays -----------===//

#include "tools/common/GlobalArrays.h"

#include "torus/Sharding.h"

#include <fmt/format.h>

namespace torus::tools {

namespace {

std::string shardingOf(const std::vector<std::string> &shardings, size_t k) {
  return k < shardings.size() && !shardings[k].empty() ? shardings[k]
                                                       : "{replicated}";
}

absl::Status annotate(const absl::Status &status, std::string_view what,
                      size_t k, const std::string &sharding) {
  return absl::Status(status.code(),
                      fmt::format("{} {} (sharding {}): {}", what, k, sharding,
                                  std::string(status.message())));
}

} // namespace

absl::StatusOr<std::vector<HostTensor>>
splitGlobalArray(const HostTensor &global, const std::string &sharding,
                 int64_t numPartitions) {
  if (numPartitions == 1)
    return std::vector<HostTensor>{global};
  std::vector<HostTensor> tiles;
  for (int64_t partition = 0; partition < numPartitions; ++partition) {
    auto tile = shardForPartition(
        global, sharding.empty() ? "{replicated}" : sharding, partition,
        numPartitions);
    if (!tile.ok())
      return tile.status();
    tiles.push_back(std::move(*tile));
  }
  return tiles;
}

absl::StatusOr<std::vector<std::vector<HostTensor>>>
splitGlobalInputs(const GlobalLayout &layout,
                  const std::vector<std::vector<HostTensor>> &inputs) {
  int64_t r = layout.numReplicas, p = layout.numPartitions;
  if (static_cast<int64_t>(inputs.size()) != r)
    return absl::InvalidArgumentError(fmt::format(
        "{} replicas' inputs for a program of {} replicas", inputs.size(), r));
  std::vector<std::vector<HostTensor>> devices(r * p);
  for (int64_t replica = 0; replica < r; ++replica)
    for (size_t k = 0; k < inputs[replica].size(); ++k) {
      std::string sharding = shardingOf(layout.inputShardings, k);
      auto tiles = splitGlobalArray(inputs[replica][k], sharding, p);
      if (!tiles.ok())
        return annotate(tiles.status(), "input", k, sharding);
      for (int64_t partition = 0; partition < p; ++partition)
        devices[replica * p + partition].push_back(
            std::move((*tiles)[partition]));
    }
  return devices;
}

absl::StatusOr<std::vector<std::vector<HostTensor>>>
joinGlobalOutputs(const GlobalLayout &layout,
                  const std::vector<std::vector<HostTensor>> &devices) {
  int64_t r = layout.numReplicas, p = layout.numPartitions;
  if (static_cast<int64_t>(devices.size()) != r * p)
    return absl::InvalidArgumentError(
        fmt::format("results of {} devices for a program of {} x {}",
                    devices.size(), r, p));
  std::vector<std::vector<HostTensor>> results(r);
  for (int64_t replica = 0; replica < r; ++replica) {
    const std::vector<HostTensor> &first = devices[replica * p];
    for (size_t k = 0; k < first.size(); ++k) {
      if (p == 1) {
        results[replica].push_back(first[k]);
        continue;
      }
      std::string sharding = shardingOf(layout.outputShardings, k);
      if (k >= layout.globalOutputs.size())
        return absl::InvalidArgumentError(
            fmt::format("result {} has no global type", k));
      std::vector<HostTensor> tiles;
      for (int64_t partition = 0; partition < p; ++partition)
        tiles.push_back(devices[replica * p + partition][k]);
      auto whole = unshard(tiles, sharding, layout.globalOutputs[k].shape);
      if (!whole.ok())
        return annotate(whole.status(), "result", k, sharding);
      results[replica].push_back(std::move(*whole));
    }
  }
  return results;
}

} // namespace torus::tools
