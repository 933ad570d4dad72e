//===- MirroredStrategy.cpp - tf.distribute.MirroredStrategy --------------===//

#include "torus/distribute/MirroredStrategy.h"
#include "distribute/StrategyState.h"

#include <set>

namespace torus::distribute {

absl::StatusOr<MirroredStrategy>
MirroredStrategy::create(std::vector<std::string> devices) {
  if (devices.empty())
    devices = {"/device:CPU:0"};
  std::vector<std::string> canonical;
  for (const std::string &d : devices) {
    TORUS_ASSIGN_OR_RETURN(std::string c, detail::canonicalizeDevice(d));
    canonical.push_back(c);
  }
  if (std::set<std::string>(canonical.begin(), canonical.end()).size() !=
      canonical.size()) {
    std::string list;
    for (size_t i = 0; i < devices.size(); ++i)
      list += (i ? ", '" : "['") + devices[i] + "'";
    return absl::InvalidArgumentError(
        "No duplicates allowed in `devices` argument: " + list + "]");
  }
  auto state = detail::localState(detail::StrategyKind::Mirrored, canonical);
  state->className = "MirroredStrategy";
  state->cppClass = "torus.distribute.MirroredStrategy";
  state->parameterDevices = canonical;
  state->variablePolicy = detail::VariablePolicy::Mirrored;
  state->enableGetNextAsOptional = true;
  return MirroredStrategy(state);
}

absl::StatusOr<MirroredStrategy> MirroredStrategy::withReplicas(int64_t n) {
  if (n < 1)
    return absl::InvalidArgumentError("a MirroredStrategy needs a device");
  std::vector<std::string> devices;
  for (int64_t i = 0; i < n; ++i)
    devices.push_back("/device:GPU:" + std::to_string(i));
  return create(devices);
}

} // namespace torus::distribute
