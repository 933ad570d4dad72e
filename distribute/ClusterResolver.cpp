//===- ClusterResolver.cpp - TFConfigClusterResolver ----------------------===//

#include "torus/distribute/ClusterResolver.h"
#include "distribute/PyRepr.h"
#include "support/JsonDepth.h"

#include "llvm/Support/JSON.h"

#include <cstdlib>
#include <limits>
#include <optional>
#include <string>

namespace torus::distribute {

namespace {

/// json.loads(os.environ.get("TF_CONFIG", "{}")).
absl::StatusOr<llvm::json::Object> tfConfig() {
  const char *env = std::getenv("TF_CONFIG");
  if (!env || !*env)
    return llvm::json::Object();
  // llvm::json recurses per level: refuse what would exhaust the stack.
  if (std::optional<size_t> at = jsonTooDeep(env))
    return absl::InvalidArgumentError(
        "TF_CONFIG is not valid JSON: at " + textPosition(env, *at) +
        ": nested too deeply (more than " + std::to_string(kMaxJsonDepth) +
        " levels)");
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

std::string jsonText(const llvm::json::Value &v) {
  std::string out;
  llvm::raw_string_ostream os(out);
  os << v;
  return out;
}

/// Python's str() of a JSON value; nullopt for null (None).
std::optional<std::string> pyStr(const llvm::json::Value &v) {
  if (v.kind() == llvm::json::Value::Null)
    return std::nullopt;
  if (auto s = v.getAsString())
    return s->str();
  if (auto b = v.getAsBoolean())
    return std::string(*b ? "True" : "False");
  if (auto i = v.getAsInteger())
    return std::to_string(*i);
  if (auto d = v.getAsNumber())
    return detail::pyFloat(*d);
  return jsonText(v);
}

/// Python's int(text) for a decimal string (surrounding blanks allowed).
std::optional<int> parseInt(const std::string &text) {
  size_t b = text.find_first_not_of(" \t\n");
  size_t e = text.find_last_not_of(" \t\n");
  if (b == std::string::npos)
    return std::nullopt;
  std::string t = text.substr(b, e - b + 1);
  size_t i = (t[0] == '+' || t[0] == '-') ? 1 : 0;
  if (i == t.size())
    return std::nullopt;
  long long value = 0;
  for (; i < t.size(); ++i) {
    if (t[i] < '0' || t[i] > '9')
      return std::nullopt;
    value = value * 10 + (t[i] - '0');
    if (value > std::numeric_limits<int>::max())
      return std::nullopt;
  }
  return static_cast<int>(t[0] == '-' ? -value : value);
}

/// int(TF_CONFIG["task"]["index"]) when present.
absl::StatusOr<std::optional<int>> configTaskId() {
  TORUS_ASSIGN_OR_RETURN(llvm::json::Object config, tfConfig());
  const llvm::json::Object *task = config.getObject("task");
  if (!task)
    return std::optional<int>();
  const llvm::json::Value *index = task->get("index");
  if (!index || index->kind() == llvm::json::Value::Null)
    return std::optional<int>();
  // A task index is a non-negative int: an out-of-range or fractional
  // number is an error naming the field, never a wrapped or truncated id.
  auto bad = [&](const std::string &written) {
    return absl::InvalidArgumentError(
        "TF_CONFIG task.index must be a non-negative integer of at most " +
        std::to_string(std::numeric_limits<int>::max()) + ", got " + written);
  };
  auto checked = [&](long double value, const std::string &written)
      -> absl::StatusOr<std::optional<int>> {
    if (!(value >= 0) || value > std::numeric_limits<int>::max() ||
        value != static_cast<long double>(static_cast<int64_t>(value)))
      return bad(written);
    return std::optional<int>(static_cast<int>(value));
  };
  if (auto i = index->getAsInteger())
    return checked(static_cast<long double>(*i), std::to_string(*i));
  if (auto u = index->getAsUINT64())
    return bad(std::to_string(*u));
  if (auto d = index->getAsNumber()) // int(1.0) == 1
    return checked(*d, detail::pyFloat(*d));
  if (auto s = index->getAsString()) {
    if (auto i = parseInt(s->str()))
      return checked(*i, "'" + s->str() + "'");
    return absl::InvalidArgumentError(
        "TF_CONFIG task.index: invalid literal for int() with base 10: '" +
        s->str() + "'");
  }
  return absl::InvalidArgumentError(
      "TF_CONFIG task.index: int() argument must be a string, a "
      "bytes-like object or a real "
      "number, not '" +
      std::string(index->kind() == llvm::json::Value::Boolean ? "bool"
                  : index->getAsArray()                        ? "list"
                                                               : "dict") +
      "'");
}

} // namespace

absl::StatusOr<ClusterSpec> TFConfigClusterResolver::clusterSpec() const {
  TORUS_ASSIGN_OR_RETURN(llvm::json::Object config, tfConfig());
  ClusterSpec spec;
  const llvm::json::Value *clusterValue = config.get("cluster");
  if (!clusterValue || clusterValue->kind() == llvm::json::Value::Null)
    return spec;
  const llvm::json::Object *cluster = clusterValue->getAsObject();
  if (!cluster)
    return absl::InvalidArgumentError(
        "TF_CONFIG's \"cluster\" must map job names to their tasks, got " +
        jsonText(*clusterValue));
  for (const auto &[jobKey, tasks] : *cluster) {
    const std::string job = jobKey.str();
    auto address = [&](const llvm::json::Value &a,
                       const std::string &id) -> absl::StatusOr<std::string> {
      auto s = a.getAsString();
      if (!s || s->empty())
        return absl::InvalidArgumentError(
            "TF_CONFIG: the address of task " + id + " of job '" + job +
            "' must be a non-empty string, got " + jsonText(a));
      return s->str();
    };
    std::vector<std::string> &addresses = spec[job];
    if (const llvm::json::Array *list = tasks.getAsArray()) {
      for (size_t i = 0; i < list->size(); ++i) {
        TORUS_ASSIGN_OR_RETURN(std::string a,
                               address((*list)[i], std::to_string(i)));
        addresses.push_back(std::move(a));
      }
    } else if (const llvm::json::Object *sparse = tasks.getAsObject()) {
      // {"1": "addr"}: sparse task ids; "" marks the ids the job lacks.
      std::map<int, std::string> byId;
      for (const auto &[id, a] : *sparse) {
        std::optional<int> i = parseInt(id.str());
        if (!i || *i < 0 || *i > 1000000)
          return absl::InvalidArgumentError(
              "TF_CONFIG: job '" + job + "' has a task id '" + id.str() +
              "' that is not a non-negative integer");
        TORUS_ASSIGN_OR_RETURN(byId[*i], address(a, id.str()));
      }
      if (!byId.empty())
        addresses.resize(byId.rbegin()->first + 1);
      for (auto &[id, a] : byId)
        addresses[id] = std::move(a);
    } else {
      return absl::InvalidArgumentError(
          "TF_CONFIG: job '" + job +
          "' must be a list of addresses or an object of task id to "
          "address, got " +
          jsonText(tasks));
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
      return pyStr(*type);
  return std::nullopt;
}

absl::StatusOr<std::optional<int>>
TFConfigClusterResolver::taskIdOrError() const {
  if (taskId_)
    return taskId_;
  return configTaskId();
}

std::optional<int> TFConfigClusterResolver::taskId() const {
  auto id = taskIdOrError();
  return id.ok() ? *id : std::nullopt;
}

std::optional<std::string> TFConfigClusterResolver::rpcLayer() const {
  if (rpcLayer_)
    return rpcLayer_;
  auto config = tfConfig();
  if (!config.ok())
    return std::nullopt;
  if (const llvm::json::Value *layer = config->get("rpc_layer"))
    return pyStr(*layer);
  return std::nullopt;
}

absl::StatusOr<std::string>
TFConfigClusterResolver::master(std::optional<std::string> taskType,
                                std::optional<int> taskId,
                                std::optional<std::string> rpcLayer) const {
  TORUS_ASSIGN_OR_RETURN(llvm::json::Object config, tfConfig());
  if (const llvm::json::Value *m = config.get("session_master"))
    return pyStr(*m).value_or("None");
  TORUS_ASSIGN_OR_RETURN(ClusterSpec spec, clusterSpec());
  if (spec.empty() ||
      (spec.size() == 1 && spec.begin()->second.size() == 1))
    return std::string();
  std::optional<std::string> job = taskType ? taskType : this->taskType();
  std::optional<int> id = taskId;
  if (!id) {
    TORUS_ASSIGN_OR_RETURN(id, taskIdOrError());
  }
  std::optional<std::string> layer = rpcLayer ? rpcLayer : this->rpcLayer();
  return formatMasterUrl(spec, job, id, layer);
}

absl::StatusOr<std::string>
taskAddress(const ClusterSpec &spec, const std::optional<std::string> &job,
            const std::optional<int> &taskId) {
  auto quoted = [](const std::string &s) {
    return s.find('\'') != std::string::npos && s.find('"') == std::string::npos
               ? "\"" + s + "\""
               : "'" + s + "'";
  };
  auto it = job ? spec.find(*job) : spec.end();
  if (it == spec.end())
    return absl::InvalidArgumentError("No such job in cluster: " +
                                      (job ? quoted(*job) : "None"));
  if (!taskId || *taskId < 0 ||
      *taskId >= static_cast<int>(it->second.size()) ||
      it->second[*taskId].empty())
    return absl::InvalidArgumentError(
        "No task with index " + (taskId ? std::to_string(*taskId) : "None") +
        " in job " + quoted(*job));
  return it->second[*taskId];
}

absl::StatusOr<std::string>
formatMasterUrl(const ClusterSpec &spec, const std::optional<std::string> &job,
                const std::optional<int> &taskId,
                const std::optional<std::string> &rpcLayer) {
  TORUS_ASSIGN_OR_RETURN(std::string address, taskAddress(spec, job, taskId));
  return rpcLayer && !rpcLayer->empty() ? *rpcLayer + "://" + address
                                        : address;
}

} // namespace torus::distribute
