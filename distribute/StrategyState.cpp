//===- StrategyState.cpp - What a strategy is, behind its handle ----------===//

#include "distribute/StrategyState.h"
#include "distribute/TpuImpl.h"
#include "distribute/WorkerConnection.h"

#include <algorithm>
#include <cctype>

namespace torus::distribute::detail {

absl::StatusOr<rt::Executor *> StrategyState::getExecutor() {
  std::lock_guard<std::mutex> lock(executorMutex);
  if (!executor) {
    rt::ExecutorOptions options;
    options.numCores = numCores;
    if (collectiveTimeout)
      options.collectiveTimeout = *collectiveTimeout;
    if (workerGroup)
      useCrossWorkerCollectives(options, workerGroup, globalProgram);
    if (topology) {
      TORUS_ASSIGN_OR_RETURN(
          executor, rt::Executor::create(*topology->impl().topology, options));
    } else {
      TORUS_ASSIGN_OR_RETURN(executor, rt::Executor::create(options));
    }
  }
  return executor.get();
}

const std::shared_ptr<StrategyState> &defaultStrategyState() {
  static const std::shared_ptr<StrategyState> state = [] {
    auto s = std::make_shared<StrategyState>();
    s->kind = StrategyKind::Default;
    s->className = "_DefaultDistributionStrategy";
    s->cppClass = "torus.distribute.DefaultStrategy";
    s->workerDevices = {"/job:localhost/replica:0/task:0/device:CPU:0"};
    s->parameterDevices = s->workerDevices;
    s->inputWorkerReplicas = {{0}};
    s->replicaToCore = {0};
    s->enableGetNextAsOptional = false;
    return s;
  }();
  return state;
}

absl::StatusOr<std::string> canonicalizeDevice(const std::string &device) {
  // The last "device:TYPE:N" (or legacy "/gpu:N") part names the device; any
  // /job, /replica, /task parts must be the local ones.
  std::string type;
  std::string index;
  std::string rest = device;
  size_t pos = 0;
  std::vector<std::string> parts;
  while (pos <= rest.size()) {
    size_t next = rest.find('/', pos);
    if (next == std::string::npos)
      next = rest.size();
    if (next > pos)
      parts.push_back(rest.substr(pos, next - pos));
    pos = next + 1;
  }
  for (const std::string &p : parts) {
    std::string lower = p;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return std::tolower(c); });
    if (lower.rfind("job:", 0) == 0 || lower.rfind("replica:", 0) == 0 ||
        lower.rfind("task:", 0) == 0)
      continue;
    std::string body = p;
    if (lower.rfind("device:", 0) == 0)
      body = p.substr(7);
    size_t colon = body.find(':');
    if (colon == std::string::npos)
      return absl::InvalidArgumentError("Unknown attribute: '" + p + "' in '" +
                                        device + "'");
    type = body.substr(0, colon);
    index = body.substr(colon + 1);
    std::transform(type.begin(), type.end(), type.begin(),
                   [](unsigned char c) { return std::toupper(c); });
    if (index.empty() ||
        !std::all_of(index.begin(), index.end(),
                     [](unsigned char c) { return std::isdigit(c); }))
      return absl::InvalidArgumentError("Unknown attribute: '" + p + "' in '" +
                                        device + "'");
  }
  if (type.empty())
    return absl::InvalidArgumentError("'" + device + "' names no device");
  return "/job:localhost/replica:0/task:0/device:" + type + ":" + index;
}

std::shared_ptr<StrategyState>
localState(StrategyKind kind, const std::vector<std::string> &devices) {
  auto s = std::make_shared<StrategyState>();
  s->kind = kind;
  s->workerDevices = devices;
  s->numReplicas = static_cast<int64_t>(devices.size());
  s->numCores = s->numReplicas;
  std::vector<int64_t> feed;
  for (int64_t r = 0; r < s->numReplicas; ++r) {
    s->replicaToCore.push_back(r);
    feed.push_back(r);
  }
  s->inputWorkerReplicas = {feed};
  return s;
}

} // namespace torus::distribute::detail
