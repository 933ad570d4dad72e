//===- WorkerFlags.cpp - The flags of the multi-worker programs -----------===//

#include "distribute/multiworker/WorkerFlags.h"

#include <cstdlib>

namespace torus::distribute {

std::optional<std::string> flagValue(std::string_view arg,
                                     std::string_view name) {
  std::string prefix = "--" + std::string(name) + "=";
  if (arg.substr(0, prefix.size()) != prefix)
    return std::nullopt;
  return std::string(arg.substr(prefix.size()));
}

absl::StatusOr<double> positiveFlag(const std::string &text,
                                    std::string_view name) {
  char *end = nullptr;
  double v = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !(v > 0))
    return absl::InvalidArgumentError("--" + std::string(name) +
                                      " needs a positive number, got '" +
                                      text + "'");
  return v;
}

absl::StatusOr<std::vector<std::string>>
parseWorkerFlags(int argc, char **argv, WorkerFlags &flags) {
  std::vector<std::string> rest;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (auto v = flagValue(arg, "steps")) {
      TORUS_ASSIGN_OR_RETURN(double d, positiveFlag(*v, "steps"));
      flags.steps = static_cast<int64_t>(d);
    } else if (auto v = flagValue(arg, "out")) {
      flags.out = *v;
    } else if (auto v = flagValue(arg, "timeout")) {
      TORUS_ASSIGN_OR_RETURN(flags.timeout, positiveFlag(*v, "timeout"));
    } else if (auto v = flagValue(arg, "checkpoint-dir")) {
      flags.checkpointDir = *v;
    } else if (auto v = flagValue(arg, "checkpoint-every")) {
      TORUS_ASSIGN_OR_RETURN(double d, positiveFlag(*v, "checkpoint-every"));
      flags.checkpointEvery = static_cast<int64_t>(d);
    } else {
      rest.push_back(std::move(arg));
    }
  }
  return rest;
}

absl::Status unknownArgument(std::string_view arg) {
  return absl::InvalidArgumentError("unknown argument '" + std::string(arg) +
                                    "'");
}

} // namespace torus::distribute
