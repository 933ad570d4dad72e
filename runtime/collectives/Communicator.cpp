//===- Communicator.cpp - Collectives between replicas --------------------===//

#include "runtime/collectives/Communicator.h"

#include <fmt/format.h>

namespace torus::rt {

std::string CollectiveKey::toString() const {
  return fmt::format("run {}, collective #{}, invocation {}{}", runId,
                     collectiveIndex, invocation,
                     phase ? fmt::format(", phase {}", phase) : "");
}

} // namespace torus::rt
