//===- ClusterResolver.cpp - TFConfigClusterResolver ----------------------===//

#include "torus/distribute/ClusterResolver.h"

#include "llvm/Support/JSON.h"

#include <cstdlib>

namespace torus::distribute {

namespace {

/// json.loads(os.environ.get("TF_CONFIG", "{}")).
absl::StatusOr<llvm::json::Object> tfConfig() {
  const char *env = std::getenv("TF_CONFIG");
  if (!env || !*env)
    return llvm::json::Object();
  llvm::Expected<llvm::json::Value> parsed = llvm::json::parse(env);
  if (!parsed) {
    std::string message = llvm::toString(parsed.takeError());
    return absl::InvalidArgumentError("TF_CONFIG is not valid JSON: " +
                                      message);
  }
  if (llvm::json::Object *o = parsed->getAsObject())
    return std::move(*o);
  return absl::InvalidArgumentError("TF_CONFIG must be a JSON object");
}

std::string scalarText(const llvm::json::Value &v) {
  if (auto s = v.getAsString())
    return s->str();
  if (auto i = v.getAsInteger())
    return std::to_string(*i);
  std::string out;
  llvm::raw_string_ostream os(out);
  os << v;
  return out;
}

} // namespace

absl::StatusOr<ClusterSpec> TFConfigClusterResolver::clusterSpec() const {
  TORUS_ASSIGN_OR_RETURN(llvm::json::Object config, tfConfig());
  ClusterSpec spec;
  const llvm::json::Object *cluster = config.getObject("cluster");
  if (!cluster)
    return spec;
  for (const auto &[job, tasks] : *cluster) {
    std::vector<std::string> &addresses = spec[job.str()];
    if (const llvm::json::Array *list = tasks.getAsArray()) {
      for (const llvm::json::Value &a : *list)
        addresses.push_back(scalarText(a));
    } else if (const llvm::json::Object *sparse = tasks.getAsObject()) {
      // {"1": "addr"}: sparse task ids, kept in id order.
      std::map<int, std::string> byId;
      for (const auto &[id, a] : *sparse)
        byId[std::stoi(id.str())] = scalarText(a);
      for (auto &[id, a] : byId)
        addresses.push_back(a);
    }
  }
  return spec;
}

std::optional<std::string> TFConfigClusterResolver::taskType() const {
  if (taskType_)
    return taskType_;
  auto config = tfConfig();
  if (!config.ok())
    return std::nullopt;
  if (const llvm::json::Object *task = config->getObject("task"))
    if (const llvm::json::Value *type = task->get("type"))
      return scalarText(*type);
  return std::nullopt;
}

std::optional<int> TFConfigClusterResolver::taskId() const {
  if (taskId_)
    return taskId_;
  auto config = tfConfig();
  if (!config.ok())
    return std::nullopt;
  if (const llvm::json::Object *task = config->getObject("task"))
    if (const llvm::json::Value *index = task->get("index"))
      return std::stoi(scalarText(*index));
  return std::nullopt;
}

std::optional<std::string> TFConfigClusterResolver::rpcLayer() const {
  if (rpcLayer_)
    return rpcLayer_;
  auto config = tfConfig();
  if (!config.ok())
    return std::nullopt;
  if (const llvm::json::Value *layer = config->get("rpc_layer"))
    return scalarText(*layer);
  return std::nullopt;
}

absl::StatusOr<std::string>
TFConfigClusterResolver::master(std::optional<std::string> taskType,
                                std::optional<int> taskId,
                                std::optional<std::string> rpcLayer) const {
  TORUS_ASSIGN_OR_RETURN(llvm::json::Object config, tfConfig());
  if (const llvm::json::Value *m = config.get("session_master"))
    return scalarText(*m);
  TORUS_ASSIGN_OR_RETURN(ClusterSpec spec, clusterSpec());
  if (spec.empty() ||
      (spec.size() == 1 && spec.begin()->second.size() == 1))
    return std::string();
  std::string job = taskType ? *taskType : this->taskType().value_or("");
  int id = taskId ? *taskId : this->taskId().value_or(0);
  auto it = spec.find(job);
  if (it == spec.end())
    return absl::InvalidArgumentError("No such job in cluster: '" + job + "'");
  if (id < 0 || id >= static_cast<int>(it->second.size()))
    return absl::InvalidArgumentError("No task with index " +
                                      std::to_string(id) + " in job '" + job +
                                      "'");
  std::optional<std::string> layer = rpcLayer ? rpcLayer : this->rpcLayer();
  const std::string &address = it->second[id];
  return layer ? *layer + "://" + address : address;
}

} // namespace torus::distribute
