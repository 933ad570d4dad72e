//===- CentralStorageStrategy.cpp - Variables on one device ---------------===//

#include "torus/distribute/CentralStorageStrategy.h"
#include "distribute/StrategyState.h"

namespace torus::distribute {

absl::StatusOr<CentralStorageStrategy>
CentralStorageStrategy::create(std::vector<std::string> computeDevices,
                               std::optional<std::string> parameterDevice) {
  if (computeDevices.empty())
    computeDevices = {"/device:CPU:0"};
  std::vector<std::string> canonical;
  for (const std::string &d : computeDevices) {
    TORUS_ASSIGN_OR_RETURN(std::string c, detail::canonicalizeDevice(d));
    canonical.push_back(c);
  }
  std::string parameter;
  if (parameterDevice) {
    TORUS_ASSIGN_OR_RETURN(parameter,
                           detail::canonicalizeDevice(*parameterDevice));
  } else {
    // The only compute device, else the CPU (spec §7.1).
    parameter = canonical.size() == 1
                    ? canonical[0]
                    : "/job:localhost/replica:0/task:0/device:CPU:0";
  }
  auto state =
      detail::localState(detail::StrategyKind::CentralStorage, canonical);
  state->className = "CentralStorageStrategy";
  state->cppClass = "torus.distribute.CentralStorageStrategy";
  state->parameterDevices = {parameter};
  state->variablePolicy = detail::VariablePolicy::Central;
  // Partial-batch handling is not set for ParameterServerStrategyExtended.
  state->enableGetNextAsOptional = false;
  state->betweenGraph = true;
  return CentralStorageStrategy(state);
}

} // namespace torus::distribute
