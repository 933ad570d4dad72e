//===- Tpu.cpp - TPU cluster resolver, topology, device assignment --------===//

#include "distribute/TpuImpl.h"
#include "runtime/mesh/TpuSystem.h"

#include <algorithm>
#include <regex>

namespace torus::distribute {

absl::StatusOr<Topology> Topology::fromString(const std::string &slice) {
  TORUS_ASSIGN_OR_RETURN(rt::Topology t, rt::Topology::fromString(slice));
  return wrapTopology(std::move(t));
}

absl::StatusOr<Topology> Topology::create(
    const std::vector<int64_t> &meshShape,
    const std::vector<std::vector<std::vector<int64_t>>> &deviceCoordinates) {
  TORUS_ASSIGN_OR_RETURN(rt::Topology t,
                         rt::Topology::create(meshShape, deviceCoordinates));
  return wrapTopology(std::move(t));
}

absl::StatusOr<Topology> Topology::fromSerialized(std::string_view serialized) {
  TORUS_ASSIGN_OR_RETURN(rt::Topology t, rt::Topology::fromSerialized(serialized));
  return wrapTopology(std::move(t));
}

std::array<int32_t, 4> Topology::meshShape() const {
  return impl_->topology->meshShape();
}
int Topology::meshRank() const { return impl_->topology->meshRank(); }
std::vector<std::array<int32_t, 4>> Topology::missingDevices() const {
  return impl_->topology->missingDevices();
}
absl::StatusOr<int> Topology::taskOrdinalAtCoordinates(
    const std::array<int32_t, 4> &coordinates) const {
  return impl_->topology->taskOrdinalAtCoordinates(coordinates);
}
absl::StatusOr<int> Topology::tpuDeviceOrdinalAtCoordinates(
    const std::array<int32_t, 4> &coordinates) const {
  return impl_->topology->tpuDeviceOrdinalAtCoordinates(coordinates);
}
absl::StatusOr<std::string>
Topology::cpuDeviceNameAtCoordinates(const std::array<int32_t, 4> &coordinates,
                                     std::optional<std::string> job) const {
  if (job)
    return impl_->topology->cpuDeviceNameAtCoordinates(coordinates,
                                                       std::string_view(*job));
  return impl_->topology->cpuDeviceNameAtCoordinates(coordinates);
}
absl::StatusOr<std::string>
Topology::tpuDeviceNameAtCoordinates(const std::array<int32_t, 4> &coordinates,
                                     std::optional<std::string> job) const {
  if (job)
    return impl_->topology->tpuDeviceNameAtCoordinates(coordinates,
                                                       std::string_view(*job));
  return impl_->topology->tpuDeviceNameAtCoordinates(coordinates);
}
int Topology::numTasks() const { return impl_->topology->numTasks(); }
int Topology::numTpusPerTask() const {
  return impl_->topology->numTpusPerTask();
}
std::vector<std::vector<std::array<int32_t, 4>>>
Topology::deviceCoordinates() const {
  return impl_->topology->deviceCoordinates();
}
std::string Topology::serialized() const {
  return impl_->topology->serialized();
}
std::string Topology::toString() const { return impl_->topology->toString(); }

//===----------------------------------------------------------------------===//

TPUClusterResolver::TPUClusterResolver(std::unique_ptr<Impl> impl)
    : impl_(std::move(impl)) {}
TPUClusterResolver::~TPUClusterResolver() = default;

namespace {
rt::TPUClusterResolverOptions
runtimeOptions(const TPUClusterResolverOptions &options) {
  rt::TPUClusterResolverOptions o;
  o.acceleratorType = options.acceleratorType;
  o.jobName = options.jobName;
  o.hostIndex = options.hostIndex;
  return o;
}
} // namespace

absl::StatusOr<std::shared_ptr<TPUClusterResolver>>
TPUClusterResolver::create(std::optional<std::string> tpu, Options options) {
  TORUS_ASSIGN_OR_RETURN(
      rt::TPUClusterResolver r,
      rt::TPUClusterResolver::create(tpu, runtimeOptions(options)));
  return std::make_shared<TPUClusterResolver>(
      std::make_unique<Impl>(Impl{std::move(r)}));
}

absl::StatusOr<std::shared_ptr<TPUClusterResolver>>
TPUClusterResolver::create(const std::vector<std::string> &tpus,
                           Options options) {
  TORUS_ASSIGN_OR_RETURN(
      rt::TPUClusterResolver r,
      rt::TPUClusterResolver::create(tpus, runtimeOptions(options)));
  return std::make_shared<TPUClusterResolver>(
      std::make_unique<Impl>(Impl{std::move(r)}));
}

absl::StatusOr<int> tpuCoresPerHost(const std::vector<std::string> &devices) {
  // _TPU_DEVICE_REGEX: '.*task:(?P<host_id>\d+)/.*device:TPU:(?P<core_id>\d+)$'.
  static const std::regex tpuDevice(R"(.*task:(\d+)/.*device:TPU:(\d+)$)");
  std::vector<std::pair<std::string, std::vector<std::string>>> byHost;
  for (const std::string &name : devices) {
    std::smatch m;
    if (!std::regex_match(name, m, tpuDevice))
      continue;
    auto it = std::find_if(byHost.begin(), byHost.end(),
                           [&](const auto &h) { return h.first == m[1]; });
    if (it == byHost.end())
      it = byHost.insert(byHost.end(), {m[1].str(), {}});
    it->second.push_back(m[2].str());
  }
  if (byHost.empty())
    return 0;
  for (const auto &host : byHost)
    if (host.second.size() != byHost.front().second.size()) {
      std::string dict = "defaultdict(<class 'list'>, {";
      for (size_t i = 0; i < byHost.size(); ++i) {
        dict += (i ? ", '" : "'") + byHost[i].first + "': [";
        for (size_t c = 0; c < byHost[i].second.size(); ++c)
          dict += (c ? ", '" : "'") + byHost[i].second[c] + "'";
        dict += "]";
      }
      return absl::FailedPreconditionError(
          "TPU cores on each device is not the same. This should never "
          "happen. Devices: " +
          dict + "})");
    }
  return static_cast<int>(byHost.front().second.size());
}

absl::StatusOr<ClusterSpec> TPUClusterResolver::clusterSpec() const {
  return impl_->resolver.clusterSpec();
}
absl::StatusOr<std::string>
TPUClusterResolver::master(std::optional<std::string> taskType,
                           std::optional<int> taskId,
                           std::optional<std::string> rpcLayer) const {
  return impl_->resolver.master(taskType, taskId, rpcLayer);
}
std::optional<std::string> TPUClusterResolver::taskType() const {
  return impl_->resolver.taskType();
}
std::optional<int> TPUClusterResolver::hostIndex() const {
  return impl_->resolver.hostIndex();
}
std::optional<int> TPUClusterResolver::taskId() const {
  return impl_->resolver.taskId();
}
absl::StatusOr<std::map<std::string, int>>
TPUClusterResolver::numAccelerators() const {
  if (impl_->resolver.isLocal())
    return impl_->resolver.numAccelerators();
  // A named TPU: the master's devices, grouped by host.
  TORUS_ASSIGN_OR_RETURN(rt::TPUSystemMetadata metadata,
                         impl_->resolver.getTpuSystemMetadata());
  TORUS_ASSIGN_OR_RETURN(int cores, tpuCoresPerHost(metadata.devices));
  return std::map<std::string, int>{{"TPU", cores}};
}
std::optional<Topology> TPUClusterResolver::tpuTopology() const {
  if (!impl_->resolver.tpuTopology())
    return std::nullopt;
  return wrapTopology(*impl_->resolver.tpuTopology());
}
absl::StatusOr<Topology> TPUClusterResolver::sliceTopology() const {
  TORUS_ASSIGN_OR_RETURN(rt::Topology t, impl_->resolver.sliceTopology());
  return wrapTopology(std::move(t));
}

absl::StatusOr<Topology> initializeTpuSystem(TPUClusterResolver *resolver) {
  TORUS_ASSIGN_OR_RETURN(
      rt::Topology t,
      rt::initializeTpuSystem(resolver ? &resolver->impl().resolver : nullptr));
  return wrapTopology(std::move(t));
}

absl::Status shutdownTpuSystem(TPUClusterResolver *resolver) {
  return rt::shutdownTpuSystem(resolver ? &resolver->impl().resolver : nullptr);
}

//===----------------------------------------------------------------------===//

absl::StatusOr<DeviceAssignment>
DeviceAssignment::create(const Topology &topology,
                         const CoreAssignment &coreAssignment) {
  TORUS_ASSIGN_OR_RETURN(
      rt::DeviceAssignment a,
      rt::DeviceAssignment::create(topology.impl().topology, coreAssignment));
  return DeviceAssignment(std::make_shared<const Impl>(Impl{std::move(a)}));
}

absl::StatusOr<DeviceAssignment>
DeviceAssignment::build(const Topology &topology,
                        std::optional<std::vector<int64_t>> computationShape,
                        std::optional<std::vector<int64_t>> computationStride,
                        int64_t numReplicas, DeviceOrderMode mode) {
  TORUS_ASSIGN_OR_RETURN(
      rt::DeviceAssignment a,
      rt::DeviceAssignment::build(topology.impl().topology, computationShape,
                                  computationStride, numReplicas,
                                  static_cast<rt::DeviceOrderMode>(mode)));
  return DeviceAssignment(std::make_shared<const Impl>(Impl{std::move(a)}));
}

Topology DeviceAssignment::topology() const {
  auto impl = std::make_shared<Topology::Impl>();
  impl->topology = impl_->assignment.sharedTopology();
  return Topology(impl);
}
int DeviceAssignment::numReplicas() const {
  return impl_->assignment.numReplicas();
}
int DeviceAssignment::numCoresPerReplica() const {
  return impl_->assignment.numCoresPerReplica();
}
absl::StatusOr<std::array<int32_t, 4>>
DeviceAssignment::coordinates(int64_t replica, int64_t logicalCore) const {
  return impl_->assignment.coordinates(replica, logicalCore);
}
absl::StatusOr<int> DeviceAssignment::tpuOrdinal(int64_t replica,
                                                 int64_t logicalCore) const {
  return impl_->assignment.tpuOrdinal(replica, logicalCore);
}
absl::StatusOr<std::string>
DeviceAssignment::hostDevice(int64_t replica, int64_t logicalCore,
                             std::optional<std::string> job) const {
  if (job)
    return impl_->assignment.hostDevice(replica, logicalCore,
                                        std::string_view(*job));
  return impl_->assignment.hostDevice(replica, logicalCore);
}
absl::StatusOr<std::string>
DeviceAssignment::tpuDevice(int64_t replica, int64_t logicalCore,
                            std::optional<std::string> job) const {
  if (job)
    return impl_->assignment.tpuDevice(replica, logicalCore,
                                       std::string_view(*job));
  return impl_->assignment.tpuDevice(replica, logicalCore);
}
absl::StatusOr<std::vector<int>>
DeviceAssignment::lookupReplicas(int64_t taskId, int64_t logicalCore) const {
  return impl_->assignment.lookupReplicas(taskId, logicalCore);
}

} // namespace torus::distribute
