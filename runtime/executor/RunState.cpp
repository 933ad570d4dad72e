//===- RunState.cpp - What the cores of one run share ---------------------===//

#include "runtime/executor/RunState.h"

#include <fmt/format.h>

namespace torus::rt {

void RunState::fail(int64_t coreId, int64_t replicaId,
                    const absl::Status &status) {
  if (status.ok())
    return;
  absl::Status first;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (!firstError_.ok())
      return;
    firstError_ = absl::Status(
        status.code(), fmt::format("core {} (replica {}): {}", coreId,
                                   replicaId, std::string(status.message())));
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
