//===- OneDeviceStrategy.cpp - tf.distribute.OneDeviceStrategy ------------===//

#include "torus/distribute/OneDeviceStrategy.h"
#include "distribute/StrategyState.h"

namespace torus::distribute {

absl::StatusOr<OneDeviceStrategy>
OneDeviceStrategy::create(const std::string &device) {
  TORUS_ASSIGN_OR_RETURN(std::string canonical,
                         detail::canonicalizeDevice(device));
  auto state = detail::localState(detail::StrategyKind::OneDevice, {canonical});
  state->className = "OneDeviceStrategy";
  state->cppClass = "torus.distribute.OneDeviceStrategy";
  state->parameterDevices = {canonical};
  state->variablePolicy = detail::VariablePolicy::Plain;
  state->enableGetNextAsOptional = false;
  return OneDeviceStrategy(state);
}

} // namespace torus::distribute
