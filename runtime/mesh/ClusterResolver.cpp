//===- ClusterResolver.cpp - TPUClusterResolver for emulated slices -------===//
//
// Name resolution follows tensorflow/python/tpu/client/client.py
// (_get_tpu_name, _environment_var_to_network_endpoints) and the resolver
// methods tpu_cluster_resolver.py; error texts are theirs where they apply.
//
//===----------------------------------------------------------------------===//
#include "runtime/mesh/ClusterResolver.h"

#include <cctype>
#include <charconv>
#include <cstdlib>

#include "fmt/format.h"
#include "runtime/mesh/PyFormat.h"
#include "runtime/mesh/TpuSystem.h"

namespace torus::rt {
namespace {

// Splits `text` at every `separator` (empty fields kept).
std::vector<std::string_view> splitOn(std::string_view text, char separator) {
  std::vector<std::string_view> fields;
  size_t start = 0;
  while (true) {
    size_t end = text.find(separator, start);
    fields.push_back(text.substr(start, end == std::string_view::npos
                                            ? std::string_view::npos
                                            : end - start));
    if (end == std::string_view::npos)
      return fields;
    start = end + 1;
  }
}

constexpr std::string_view kGkeEnvVariable = "KUBE_GOOGLE_CLOUD_TPU_ENDPOINTS";
constexpr std::string_view kDefaultEnvVariable = "TPU_NAME";
constexpr std::string_view kTpuConfigVariable = "TPU_CONFIG";
constexpr std::string_view kAcceleratorEnvVariable = "TORUS_TPU_ACCELERATOR_TYPE";
constexpr std::string_view kHostIndexVariable = "TPU_WORKER_ID";
constexpr std::string_view kDefaultEndpointPort = "8470";
constexpr std::string_view kDefaultAcceleratorType = "v3-8";
constexpr std::string_view kGrpcPrefix = "grpc://";

std::optional<std::string> lookupEnv(const TPUClusterResolverOptions &options,
                                     std::string_view name) {
  if (options.environment) {
    auto it = options.environment->find(std::string(name));
    if (it == options.environment->end())
      return std::nullopt;
    return it->second;
  }
  if (const char *value = std::getenv(std::string(name).c_str()))
    return std::string(value);
  return std::nullopt;
}

// A small reader for TPU_CONFIG: a JSON object whose string members are
// returned; other members (numbers, literals, nested values) are skipped.
class JsonObjectReader {
public:
  explicit JsonObjectReader(std::string_view text) : text_(text) {}

  absl::StatusOr<std::map<std::string, std::string>> read() {
    std::map<std::string, std::string> out;
    skipSpace();
    if (!consume('{'))
      return error("expected '{'");
    skipSpace();
    if (consume('}'))
      return finish(out);
    while (true) {
      skipSpace();
      TORUS_ASSIGN_OR_RETURN(std::string key, string());
      skipSpace();
      if (!consume(':'))
        return error("expected ':'");
      skipSpace();
      if (peek() == '"') {
        TORUS_ASSIGN_OR_RETURN(std::string value, string());
        out[key] = value;
      } else {
        TORUS_RETURN_IF_ERROR(skipValue());
      }
      skipSpace();
      if (consume(','))
        continue;
      if (consume('}'))
        return finish(out);
      return error("expected ',' or '}'");
    }
  }

private:
  absl::StatusOr<std::map<std::string, std::string>>
  finish(std::map<std::string, std::string> &out) {
    skipSpace();
    if (pos_ != text_.size())
      return error("extra data after the object");
    return out;
  }
  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  bool consume(char c) {
    if (peek() != c)
      return false;
    ++pos_;
    return true;
  }
  void skipSpace() {
    while (pos_ < text_.size() &&
           std::isspace(static_cast<unsigned char>(text_[pos_])))
      ++pos_;
  }
  absl::Status error(std::string_view what) const {
    return absl::InvalidArgumentError(fmt::format(
        "{} is not a JSON object TensorFlow can read: {} at character {}",
        kTpuConfigVariable, what, pos_));
  }
  absl::StatusOr<std::string> string() {
    if (!consume('"'))
      return error("expected a string");
    std::string out;
    while (pos_ < text_.size() && text_[pos_] != '"') {
      char c = text_[pos_++];
      if (c == '\\') {
        if (pos_ >= text_.size())
          break;
        char e = text_[pos_++];
        switch (e) {
        case 'n': out += '\n'; break;
        case 't': out += '\t'; break;
        case 'r': out += '\r'; break;
        case 'b': out += '\b'; break;
        case 'f': out += '\f'; break;
        case 'u': {
          unsigned code = 0;
          for (int i = 0; i < 4; ++i, ++pos_) {
            char h = peek();
            if (!std::isxdigit(static_cast<unsigned char>(h)))
              return error("bad \\u escape");
            code = code * 16 + (std::isdigit(static_cast<unsigned char>(h))
                                    ? h - '0'
                                    : std::tolower(h) - 'a' + 10);
          }
          if (code < 0x80) {
            out += static_cast<char>(code);
          } else if (code < 0x800) {
            out += static_cast<char>(0xc0 | (code >> 6));
            out += static_cast<char>(0x80 | (code & 0x3f));
          } else {
            out += static_cast<char>(0xe0 | (code >> 12));
            out += static_cast<char>(0x80 | ((code >> 6) & 0x3f));
            out += static_cast<char>(0x80 | (code & 0x3f));
          }
          break;
        }
        default: out += e;
        }
      } else {
        out += c;
      }
    }
    if (!consume('"'))
      return error("unterminated string");
    return out;
  }
  absl::Status skipValue() {
    char c = peek();
    if (c == '"')
      return string().status();
    if (c == '{' || c == '[') {
      // Skip a nested value, minding strings.
      int depth = 0;
      do {
        char d = peek();
        if (d == '\0')
          return error("unterminated object or array");
        if (d == '"') {
          TORUS_RETURN_IF_ERROR(string().status());
          continue;
        }
        if (d == '{' || d == '[')
          ++depth;
        if (d == '}' || d == ']')
          --depth;
        ++pos_;
      } while (depth > 0);
      return absl::OkStatus();
    }
    size_t start = pos_;
    while (pos_ < text_.size() && text_[pos_] != ',' && text_[pos_] != '}' &&
           !std::isspace(static_cast<unsigned char>(text_[pos_])))
      ++pos_;
    if (pos_ == start)
      return error("expected a value");
    return absl::OkStatus();
  }

  std::string_view text_;
  size_t pos_ = 0;
};

// _environment_var_to_network_endpoints: "grpc://" stripped, default port.
std::vector<std::string> parseEndpoints(std::string_view endpoints) {
  std::vector<std::string> addresses;
  for (std::string_view endpoint : splitOn(endpoints, ',')) {
    if (endpoint.rfind(kGrpcPrefix, 0) == 0)
      endpoint.remove_prefix(kGrpcPrefix.size());
    std::vector<std::string_view> parts = splitOn(endpoint, ':');
    std::string_view port = parts.size() > 1 ? parts[1] : kDefaultEndpointPort;
    addresses.push_back(fmt::format("{}:{}", parts[0], port));
  }
  return addresses;
}

} // namespace

absl::StatusOr<TPUClusterResolver>
TPUClusterResolver::create(const std::vector<std::string> &tpus,
                           TPUClusterResolverOptions options) {
  if (tpus.empty())
    return absl::InvalidArgumentError("At least one TPU must be specified.");
  if (tpus.size() != 1)
    return absl::UnimplementedError(
        "Using multiple TPUs in a single session is not yet implemented");
  return create(tpus[0], std::move(options));
}

absl::StatusOr<TPUClusterResolver>
TPUClusterResolver::create(std::optional<std::string> tpu,
                           TPUClusterResolverOptions options) {
  TPUClusterResolver resolver;
  if (tpu && *tpu == "local") {
    resolver.local_ = true;
    resolver.tpu_ = "local";
  } else {
    // client.Client: a falsy name comes from the environment.
    std::optional<std::string> name;
    if (tpu && !tpu->empty())
      name = *tpu;
    if (!name)
      name = lookupEnv(options, kGkeEnvVariable);
    if (!name)
      name = lookupEnv(options, kDefaultEnvVariable);
    if (!name) {
      std::optional<std::string> config = lookupEnv(options, kTpuConfigVariable);
      if (config && !config->empty()) {
        TORUS_ASSIGN_OR_RETURN(auto fields, JsonObjectReader(*config).read());
        auto node = fields.find("tpu_node_name");
        if (node == fields.end())
          return absl::InvalidArgumentError(fmt::format(
              "{} has no string \"tpu_node_name\"; got {}", kTpuConfigVariable,
              *config));
        name = node->second;
        if (!options.project && fields.count("project"))
          options.project = fields["project"];
        if (!options.zone && fields.count("zone"))
          options.zone = fields["zone"];
      } else if (options.emulateLocalWhenUnnamed) {
        resolver.local_ = true;
        resolver.tpu_ = "local";
      } else {
        return absl::InvalidArgumentError(
            "Please provide a TPU Name to connect to.");
      }
    }
    if (!resolver.local_) {
      resolver.tpu_ = *name;
      if (name->rfind(kGrpcPrefix, 0) != 0)
        return absl::InvalidArgumentError(fmt::format(
            "Could not lookup TPU metadata from name '{}'. Please doublecheck "
            "the tpu argument in the TPUClusterResolver constructor. "
            "Exception: the Torus emulator has no Cloud TPU API; use "
            "tpu=\"local\" (or \"\") for the local emulated slice, or "
            "\"grpc://host:port,...\" endpoints",
            *name));
      resolver.workerAddresses_ = parseEndpoints(*name);
    }
  }

  resolver.taskType_ = options.jobName;
  resolver.taskId_ = 0;
  if (options.coordinatorName && !options.coordinatorName->empty() &&
      !(options.coordinatorAddress && !options.coordinatorAddress->empty()))
    return absl::UnimplementedError(fmt::format(
        "coordinator_name {} was given without coordinator_address; the "
        "emulator does not start a coordinator server, so pass the "
        "coordinator's address as well",
        formatPyRepr(*options.coordinatorName)));
  if (options.coordinatorAddress && !options.coordinatorAddress->empty() &&
      !(options.coordinatorName && !options.coordinatorName->empty()))
    return absl::InvalidArgumentError(fmt::format(
        "coordinator_address {} was given without coordinator_name; name the "
        "coordinator's job",
        formatPyRepr(*options.coordinatorAddress)));
  resolver.coordinatorName_ = options.coordinatorName;
  resolver.coordinatorAddress_ = options.coordinatorAddress;

  if (options.acceleratorType)
    resolver.acceleratorType_ = *options.acceleratorType;
  else if (auto fromEnv = lookupEnv(options, kAcceleratorEnvVariable);
           fromEnv && !fromEnv->empty())
    resolver.acceleratorType_ = *fromEnv;
  else
    resolver.acceleratorType_ = std::string(kDefaultAcceleratorType);
  // Fail early on a slice the emulator cannot build.
  absl::StatusOr<SliceSpec> slice = parseSliceSpec(resolver.acceleratorType_);
  if (!slice.ok())
    return absl::InvalidArgumentError(fmt::format(
        "accelerator type: {}", std::string(slice.status().message())));
  TORUS_RETURN_IF_ERROR(resolver.setHostIndex(options));
  return resolver;
}

absl::StatusOr<TPUClusterResolver>
TPUClusterResolver::connect(std::optional<std::string> tpu,
                            std::optional<std::string> zone,
                            std::optional<std::string> project) {
  TPUClusterResolverOptions options;
  options.zone = std::move(zone);
  options.project = std::move(project);
  TORUS_ASSIGN_OR_RETURN(TPUClusterResolver resolver,
                         create(std::move(tpu), std::move(options)));
  TORUS_RETURN_IF_ERROR(initializeTpuSystem(&resolver).status());
  return resolver;
}

absl::StatusOr<ClusterSpecMap> TPUClusterResolver::clusterSpec() const {
  if (local_)
    return ClusterSpecMap{};
  ClusterSpecMap spec;
  spec[taskType_] = workerAddresses_;
  if (coordinatorAddress_ && !coordinatorAddress_->empty())
    spec[*coordinatorName_] = {*coordinatorAddress_};
  return spec;
}

absl::StatusOr<std::string>
TPUClusterResolver::master(std::optional<std::string> taskType,
                           std::optional<int> taskId,
                           std::optional<std::string> /*rpcLayer*/) const {
  if (local_)
    return std::string();
  TORUS_ASSIGN_OR_RETURN(ClusterSpecMap spec, clusterSpec());
  std::string job = taskType_;
  int index = taskId_;
  if (taskType && taskId) {
    job = *taskType;
    index = *taskId;
  }
  // ClusterSpec.task_address.
  auto it = spec.find(job);
  if (it == spec.end())
    return absl::InvalidArgumentError(
        fmt::format("No such job in cluster: {}", formatPyRepr(job)));
  if (index < 0 || index >= static_cast<int>(it->second.size()))
    return absl::InvalidArgumentError(fmt::format(
        "No task with index {} in job {}", index, formatPyRepr(job)));
  return "grpc://" + it->second[index];
}

std::string hostOfAddress(std::string_view address) {
  std::string_view host = address.substr(0, address.rfind(':'));
  if (host.size() > 2 && host.front() == '[' && host.back() == ']')
    host = host.substr(1, host.size() - 2);
  return host.empty() || host == "localhost" ? std::string("127.0.0.1")
                                             : std::string(host);
}

absl::Status
TPUClusterResolver::setHostIndex(const TPUClusterResolverOptions &options) {
  std::optional<int> host = options.hostIndex;
  std::string source = "hostIndex";
  if (!host) {
    std::optional<std::string> text = lookupEnv(options, kHostIndexVariable);
    if (!text || text->empty())
      return absl::OkStatus();
    source = fmt::format("${}", kHostIndexVariable);
    int value = 0;
    auto [end, ec] =
        std::from_chars(text->data(), text->data() + text->size(), value);
    if (ec != std::errc() || end != text->data() + text->size())
      return absl::InvalidArgumentError(fmt::format(
          "${}={} is not a host index (an integer from 0)", kHostIndexVariable,
          formatPyRepr(*text)));
    host = value;
  }
  TORUS_ASSIGN_OR_RETURN(Topology topology, sliceTopology());
  if (*host < 0 || *host >= topology.numTasks())
    return absl::InvalidArgumentError(fmt::format(
        "{} {} names no host of slice {}, whose hosts are 0..{}", source,
        *host, acceleratorType_, topology.numTasks() - 1));
  if (!local_ &&
      static_cast<int>(workerAddresses_.size()) != topology.numTasks())
    return absl::InvalidArgumentError(fmt::format(
        "TPU {} names {} host endpoint{}, but slice {} has {} hosts; with one "
        "process per host ({} {}) name every host",
        formatPyRepr(tpu_), workerAddresses_.size(),
        workerAddresses_.size() == 1 ? "" : "s", acceleratorType_,
        topology.numTasks(), source, *host));
  hostIndex_ = host;
  taskId_ = *host; // master() is this host's endpoint
  return absl::OkStatus();
}

absl::StatusOr<std::string> TPUClusterResolver::hostAddress(int host) const {
  if (local_)
    return std::string("127.0.0.1");
  if (host < 0 || host >= static_cast<int>(workerAddresses_.size()))
    return absl::InvalidArgumentError(
        fmt::format("TPU {} has no host {}", formatPyRepr(tpu_), host));
  return hostOfAddress(workerAddresses_[host]);
}

absl::StatusOr<Topology> TPUClusterResolver::sliceTopology() const {
  return Topology::fromString(acceleratorType_);
}

absl::StatusOr<std::map<std::string, int>>
TPUClusterResolver::numAccelerators() const {
  TORUS_ASSIGN_OR_RETURN(Topology topology, sliceTopology());
  if (local_)
    return std::map<std::string, int>{
        {"TPU", topology.numTasks() * topology.numTpusPerTask()}};
  return std::map<std::string, int>{{"TPU", topology.numTpusPerTask()}};
}

absl::StatusOr<TPUSystemMetadata>
TPUClusterResolver::getTpuSystemMetadata() const {
  TORUS_ASSIGN_OR_RETURN(Topology topology, sliceTopology());
  TPUSystemMetadata metadata;
  metadata.numHosts = topology.numTasks();
  metadata.numOfCoresPerHost = topology.numTpusPerTask();
  metadata.numCores = metadata.numHosts * metadata.numOfCoresPerHost;
  std::string job = local_ ? "localhost" : taskType_;
  for (int t = 0; t < topology.numTasks(); ++t) {
    std::string prefix = fmt::format("/job:{}/replica:0/task:{}", job, t);
    metadata.devices.push_back(prefix + "/device:CPU:0");
    for (int d = 0; d < topology.numTpusPerTask(); ++d)
      metadata.devices.push_back(fmt::format("{}/device:TPU:{}", prefix, d));
    metadata.devices.push_back(prefix + "/device:TPU_SYSTEM:0");
  }
  return metadata;
}

absl::Status TPUClusterResolver::setTpuTopology(std::string_view serialized) {
  TORUS_ASSIGN_OR_RETURN(Topology topology, Topology::fromSerialized(serialized));
  tpuTopology_ = std::move(topology);
  return absl::OkStatus();
}

std::string TPUClusterResolver::getCoordinationServiceLeader() const {
  return "/job:" + getJobName() + "/task:0";
}

} // namespace torus::rt
