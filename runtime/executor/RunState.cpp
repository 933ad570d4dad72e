//===- RunState.cpp - What the cores of one run share ---------------------===//

#include "runtime/executor/RunState.h"

#include <fmt/format.h>

namespace torus::rt {

void RunState::fail(int64_t coreId, int64_t replicaId, int64_t partitionId,
                    const absl::Status &status) {
  if (status.ok())
    return;
  absl::Status first;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!firstError_.ok())
      return;
    std::string where =
        numPartitions_ > 1
            ? fmt::format("core {} (replica {}, partition {})", coreId,
                          replicaId, partitionId)
            : fmt::format("core {} (replica {})", coreId, replicaId);
    firstError_ = absl::Status(
        status.code(),
        fmt::format("{}: {}", where, std::string(status.message())));
    first = firstError_;
    aborted_.store(true, std::memory_order_release);
  }
  // Outside our lock: the communicator takes its own.
  communicator_.abort(first);
}

absl::Status RunState::status() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return firstError_;
}

} // namespace torus::rt
