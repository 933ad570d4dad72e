//===- TPUStrategy.cpp - TPUStrategy and TPUStrategyV1 --------------------===//

#include "torus/distribute/TPUStrategy.h"
#include "torus/distribute/TpuFeed.h"
#include "distribute/StepRunner.h"
#include "distribute/StepTrace.h"
#include "distribute/StrategyState.h"
#include "distribute/TpuImpl.h"
#include "distribute/HostOps.h"
#include "distribute/WorkerConnection.h"
#include "runtime/mesh/MeshWarnings.h"
#include "torus/Sharding.h"

#include "fmt/format.h"

#include <algorithm>
#include <map>
#include <tuple>

namespace torus::distribute {

namespace {

/// "/job:J/task:T/device:TPU:D" -> "/job:J/replica:0/task:T/device:TPU:D".
std::string withReplicaPart(const std::string &device) {
  size_t task = device.find("/task:");
  if (task == std::string::npos || device.find("/replica:") != std::string::npos)
    return device;
  return device.substr(0, task) + "/replica:0" + device.substr(task);
}

struct DeviceName {
  std::string job;
  int replica = 0;
  std::string type;
  int task = 0;
  int index = 0;
};

DeviceName parseDevice(const std::string &name) {
  DeviceName d;
  size_t pos = 0;
  while (pos < name.size()) {
    size_t next = name.find('/', pos + 1);
    std::string part = name.substr(pos + 1, next == std::string::npos
                                                ? std::string::npos
                                                : next - pos - 1);
    if (part.rfind("job:", 0) == 0)
      d.job = part.substr(4);
    else if (part.rfind("replica:", 0) == 0)
      d.replica = std::stoi(part.substr(8));
    else if (part.rfind("task:", 0) == 0)
      d.task = std::stoi(part.substr(5));
    else if (part.rfind("device:", 0) == 0) {
      std::string rest = part.substr(7);
      size_t colon = rest.find(':');
      d.type = rest.substr(0, colon);
      d.index = std::stoi(rest.substr(colon + 1));
    }
    if (next == std::string::npos)
      break;
    pos = next;
  }
  return d;
}

/// One process per host: `s`, the state over the whole slice, keeps host
/// `host`'s replicas, which must be the `host`-th of equal runs of replicas
/// whose every logical core is on that host (the devices of a program
/// compiled for the slice, in replica-major order, are then each host's in
/// turn: RunOptions::firstDevice). Connects to the other hosts' processes.
absl::Status keepOneHost(detail::StrategyState &s, int host,
                         const rt::TPUClusterResolver &resolver,
                         const MultiWorkerOptions &multiHost) {
  const rt::Topology &topology = *s.topology->impl().topology;
  const int numHosts = topology.numTasks();
  const int64_t R = s.numReplicas;
  if (R % numHosts != 0)
    return absl::UnimplementedError(fmt::format(
        "TPUStrategy with one process per host runs as many replicas on "
        "every host; {} replicas cannot be spread evenly over the {} hosts "
        "of slice {}",
        R, numHosts, resolver.acceleratorType()));
  const int64_t local = R / numHosts;
  for (int64_t r = 0; r < R; ++r)
    for (size_t c = 0; c < s.logicalCoreToCore[r].size(); ++c) {
      const int64_t on = s.logicalCoreToCore[r][c] / topology.numTpusPerTask();
      if (on != r / local)
        return absl::UnimplementedError(fmt::format(
            "TPUStrategy with one process per host needs each host to run "
            "whole replicas, in replica order ({} per host: host h runs "
            "replicas {}h..{}h+{}); replica {}'s logical core {} is {}, on "
            "host {}",
            local, local, local, local - 1, r, c, s.logicalCoreDevices[r][c],
            on));
    }
  auto keep = [&](auto &v) {
    v.erase(v.begin() + (host + 1) * local, v.end());
    v.erase(v.begin(), v.begin() + host * local);
  };
  keep(s.workerDevices);
  keep(s.parameterDevices);
  keep(s.replicaToCore);
  keep(s.logicalCoreToCore);
  keep(s.logicalCoreDevices);
  if (!s.replicaOrder.empty()) {
    keep(s.replicaOrder);
    for (int64_t &i : s.replicaOrder) {
      i -= host * local;
      if (i < 0 || i >= local)
        return absl::UnimplementedError(
            "TPUStrategy with one process per host: the device assignment "
            "reorders data across hosts (spec §3.10); give one whose replicas "
            "follow the hosts' device order");
    }
  }
  s.inputWorkerReplicas = {{}};
  for (int64_t r = 0; r < local; ++r)
    s.inputWorkerReplicas[0].push_back(r);
  s.numReplicas = local;
  s.numWorkers = numHosts;
  s.workerId = host;
  s.isChief = host == 0;
  s.globalProgram = true;

  TORUS_ASSIGN_OR_RETURN(double collectiveSeconds,
                         detail::secondsFrom(std::nullopt,
                                             "TORUS_COLLECTIVE_TIMEOUT", 30.0));
  s.collectiveTimeout = absl::Seconds(collectiveSeconds);
  TORUS_ASSIGN_OR_RETURN(
      detail::WorkerConnectionOptions o,
      detail::rendezvousOptions(multiHost, numHosts,
                                "TPUStrategy over slice " +
                                    resolver.acceleratorType() +
                                    " (one process per host)"));
  o.rank = host;
  for (int h = 0; h < numHosts; ++h)
    o.names.push_back("host " + std::to_string(h));
  TORUS_ASSIGN_OR_RETURN(o.hostname, resolver.hostAddress(host));
  o.timeout = *s.collectiveTimeout;
  TORUS_ASSIGN_OR_RETURN(s.workerGroup, detail::connectWorkers(o));
  return absl::OkStatus();
}

absl::StatusOr<std::shared_ptr<detail::StrategyState>>
makeTpuState(std::shared_ptr<TPUClusterResolver> resolver,
             const std::optional<DeviceAssignment> &assignment, bool v1,
             bool spmd = false, const MultiWorkerOptions &multiHost = {}) {
  if (!resolver) {
    TORUS_ASSIGN_OR_RETURN(resolver, TPUClusterResolver::create(""));
  }
  TORUS_ASSIGN_OR_RETURN(rt::TPUSystemMetadata metadata,
                         resolver->impl().resolver.getTpuSystemMetadata());
  std::vector<std::string> tpuDevices;
  for (const std::string &d : metadata.devices)
    if (d.find("device:TPU:") != std::string::npos)
      tpuDevices.push_back(d);
  if (tpuDevices.empty())
    return absl::NotFoundError("TPUs not found in the cluster.");

  auto s = std::make_shared<detail::StrategyState>();
  s->kind = detail::StrategyKind::TPU;
  s->className = v1 ? "TPUStrategyV1" : "TPUStrategyV2";
  s->cppClass = v1 ? "torus.distribute.TPUStrategyV1"
                   : "torus.distribute.TPUStrategy";
  s->isV1 = v1;
  s->variablePolicy = detail::VariablePolicy::Mirrored;
  s->tpuVariables = true;
  s->meanByReciprocal = true;
  s->enableGetNextAsOptional = true;
  s->tpuResolver = resolver;
  s->resolver = resolver;
  s->spmdXlaPartitioning = spmd;

  const std::string job = parseDevice(tpuDevices[0]).job;
  // tpu_devices[:, 0], and the executor core of each replica.
  std::vector<std::string> devices;
  std::vector<std::string> hosts;
  if (assignment) {
    s->topology = assignment->topology();
    const rt::Topology &topo = *s->topology->impl().topology;
    s->numReplicas = assignment->numReplicas();
    s->numCoresPerReplica = assignment->numCoresPerReplica();
    for (int r = 0; r < assignment->numReplicas(); ++r) {
      TORUS_ASSIGN_OR_RETURN(std::string dev,
                             assignment->tpuDevice(r, 0, job));
      TORUS_ASSIGN_OR_RETURN(std::string host,
                             assignment->hostDevice(r, 0, job));
      devices.push_back(withReplicaPart(dev));
      hosts.push_back(withReplicaPart(host));
      TORUS_ASSIGN_OR_RETURN(auto coords, assignment->coordinates(r, 0));
      TORUS_ASSIGN_OR_RETURN(int task, topo.taskOrdinalAtCoordinates(coords));
      TORUS_ASSIGN_OR_RETURN(int ordinal,
                             topo.tpuDeviceOrdinalAtCoordinates(coords));
      s->replicaToCore.push_back(static_cast<int64_t>(task) *
                                     topo.numTpusPerTask() +
                                 ordinal);
      std::vector<int64_t> cores;
      std::vector<std::string> coreDevices;
      for (int c = 0; c < assignment->numCoresPerReplica(); ++c) {
        TORUS_ASSIGN_OR_RETURN(std::string cd,
                               assignment->tpuDevice(r, c, job));
        coreDevices.push_back(withReplicaPart(cd));
        TORUS_ASSIGN_OR_RETURN(auto at, assignment->coordinates(r, c));
        TORUS_ASSIGN_OR_RETURN(int t, topo.taskOrdinalAtCoordinates(at));
        TORUS_ASSIGN_OR_RETURN(int o, topo.tpuDeviceOrdinalAtCoordinates(at));
        cores.push_back(static_cast<int64_t>(t) * topo.numTpusPerTask() + o);
      }
      s->logicalCoreToCore.push_back(std::move(cores));
      s->logicalCoreDevices.push_back(std::move(coreDevices));
    }
    std::vector<std::string> distinctHosts = hosts;
    std::sort(distinctHosts.begin(), distinctHosts.end());
    distinctHosts.erase(std::unique(distinctHosts.begin(), distinctHosts.end()),
                        distinctHosts.end());
    s->numHosts = static_cast<int64_t>(distinctHosts.size());
    s->numReplicasPerHost = std::min<int64_t>(
        s->numReplicas, metadata.numOfCoresPerHost / s->numCoresPerReplica);
    if (!v1) {
      // Data reorder (spec §3.10): replicas sorted by their device.
      std::vector<std::pair<std::tuple<std::string, int, std::string, int, int>,
                            int64_t>>
          keyed;
      for (size_t i = 0; i < devices.size(); ++i) {
        DeviceName d = parseDevice(devices[i]);
        keyed.push_back({{d.job, d.replica, d.type, d.task, d.index},
                         static_cast<int64_t>(i)});
      }
      std::sort(keyed.begin(), keyed.end());
      for (auto &k : keyed)
        s->replicaOrder.push_back(k.second);
    }
  } else {
    TORUS_ASSIGN_OR_RETURN(Topology topology, resolver->sliceTopology());
    s->topology = topology;
    s->numReplicas = static_cast<int64_t>(tpuDevices.size());
    for (size_t i = 0; i < tpuDevices.size(); ++i) {
      devices.push_back(tpuDevices[i]);
      DeviceName d = parseDevice(tpuDevices[i]);
      hosts.push_back("/job:" + d.job + "/replica:0/task:" +
                      std::to_string(d.task) + "/device:CPU:0");
      s->replicaToCore.push_back(static_cast<int64_t>(d.task) *
                                     metadata.numOfCoresPerHost +
                                 d.index);
      s->logicalCoreToCore.push_back({s->replicaToCore.back()});
      s->logicalCoreDevices.push_back({tpuDevices[i]});
    }
    s->numHosts = metadata.numHosts;
    s->numReplicasPerHost = metadata.numOfCoresPerHost;
  }
  s->workerDevices = devices;
  s->parameterDevices = devices;
  // Input workers: the hosts of tpu_devices[:, 0], in order of appearance.
  std::vector<std::string> order;
  std::map<std::string, std::vector<int64_t>> byHost;
  for (size_t r = 0; r < hosts.size(); ++r) {
    if (!byHost.count(hosts[r]))
      order.push_back(hosts[r]);
    byHost[hosts[r]].push_back(static_cast<int64_t>(r));
  }
  for (const std::string &h : order)
    s->inputWorkerReplicas.push_back(byHost[h]);
  const rt::TPUClusterResolver &rtResolver = resolver->impl().resolver;
  if (std::optional<int> host = rtResolver.hostIndex();
      host && s->topology->numTasks() > 1)
    TORUS_RETURN_IF_ERROR(keepOneHost(*s, *host, rtResolver, multiHost));
  return s;
}

} // namespace

absl::StatusOr<TPUStrategy>
TPUStrategy::create(std::shared_ptr<TPUClusterResolver> resolver,
                    std::optional<DeviceAssignment> deviceAssignment,
                    bool experimentalSpmdXlaPartitioning,
                    MultiWorkerOptions multiHost) {
  TORUS_ASSIGN_OR_RETURN(auto state,
                         makeTpuState(std::move(resolver), deviceAssignment,
                                      /*v1=*/false,
                                      experimentalSpmdXlaPartitioning,
                                      multiHost));
  return TPUStrategy(state);
}

absl::StatusOr<experimental::TPUStrategy>
experimental::TPUStrategy::create(
    std::shared_ptr<TPUClusterResolver> resolver,
    std::optional<DeviceAssignment> deviceAssignment) {
  rt::emitMeshWarning(
      "`tf.distribute.experimental.TPUStrategy` is deprecated, please use the "
      "non-experimental symbol `tf.distribute.TPUStrategy` instead.");
  TORUS_ASSIGN_OR_RETURN(auto state,
                         makeTpuState(std::move(resolver), deviceAssignment,
                                      /*v1=*/false));
  state->className = "TPUStrategy";
  state->cppClass = "torus.distribute.experimental.TPUStrategy";
  return experimental::TPUStrategy(state);
}

namespace {
/// The step being traced for `state`, or a recorded error.
detail::StepTrace *traceFor(const std::shared_ptr<detail::StrategyState> &state,
                            const char *method) {
  detail::StepTrace *trace = detail::StepTrace::current();
  if (!trace || trace->strategy != state) {
    if (trace)
      trace->fail(absl::FailedPreconditionError(
          std::string(method) +
          " must be called inside this strategy's replica function"));
    return nullptr;
  }
  return trace->error.ok() ? trace : nullptr;
}
} // namespace

Tensor TPUStrategy::experimentalAssignToLogicalDevice(const Tensor &tensor,
                                                      int64_t logicalDeviceId,
                                                      Loc loc) const {
  detail::StepTrace *trace =
      traceFor(state_, "experimental_assign_to_logical_device");
  if (!trace)
    return Tensor();
  // TensorFlow's ValueError text, as the error run() returns.
  absl::Status ok = checkAssignToLogicalDevice(
      logicalDeviceId, state_->numCoresPerReplica, state_->spmdXlaPartitioning);
  if (!ok.ok()) {
    trace->fail(ok);
    return Tensor();
  }
  return assignToLogicalDevice(tensor, logicalDeviceId, loc);
}

Tensor TPUStrategy::experimentalReplicateToLogicalDevices(const Tensor &tensor,
                                                          Loc loc) const {
  if (!traceFor(state_, "experimental_replicate_to_logical_devices"))
    return Tensor();
  return replicateToLogicalDevices(tensor, loc);
}

Tensor TPUStrategy::experimentalSplitToLogicalDevices(
    const Tensor &tensor, const std::vector<int64_t> &partitionDimensions,
    Loc loc) const {
  detail::StepTrace *trace =
      traceFor(state_, "experimental_split_to_logical_devices");
  if (!trace || !tensor.valid())
    return Tensor();
  absl::Status ok = checkSplitToLogicalDevices(
      tensor.shape(), partitionDimensions, state_->numCoresPerReplica);
  if (!ok.ok()) {
    trace->fail(ok);
    return Tensor();
  }
  return splitToLogicalDevices(tensor, partitionDimensions, loc);
}

std::shared_ptr<TPUClusterResolver> TPUStrategy::tpuClusterResolver() const {
  return state_->tpuResolver;
}
int64_t TPUStrategy::numHosts() const { return state_->numHosts; }
int64_t TPUStrategy::numReplicasPerHost() const {
  return state_->numReplicasPerHost;
}
int64_t TPUStrategy::numCoresPerReplica() const {
  return state_->numCoresPerReplica;
}

absl::StatusOr<TPUStrategyV1>
TPUStrategyV1::create(std::shared_ptr<TPUClusterResolver> resolver,
                      std::optional<int64_t> stepsPerRun,
                      std::optional<DeviceAssignment> deviceAssignment,
                      MultiWorkerOptions multiHost) {
  // Checked before a multi-host strategy joins the other hosts.
  if (stepsPerRun.value_or(1) < 1)
    return absl::InvalidArgumentError("steps_per_run must be >= 1, got " +
                                      std::to_string(*stepsPerRun));
  TORUS_ASSIGN_OR_RETURN(auto state,
                         makeTpuState(std::move(resolver), deviceAssignment,
                                      /*v1=*/true, /*spmd=*/false, multiHost));
  state->stepsPerRun = stepsPerRun.value_or(1);
  return TPUStrategyV1(state);
}

int64_t TPUStrategyV1::stepsPerRun() const { return state_->stepsPerRun; }

absl::StatusOr<std::vector<HostTensor>>
TPUStrategyV1::partitionInfeed(
    const HostTensor &tensor,
    const std::optional<std::vector<int64_t>> &dims) const {
  return tpu_feed::partitionOrReplicateOnHost(tensor, dims,
                                              numCoresPerReplica());
}

void StepContext::setLastStepOutput(const std::string &name,
                                    const Tensor &output,
                                    std::optional<ReduceOp> reduceOp) {
  entries_.push_back({name, output, reduceOp});
}

absl::StatusOr<MultiStepContext> TPUStrategyV1::experimentalRunStepsOnIterator(
    const StepFn &fn, DistributedIterator &iterator,
    int64_t iterations) const {
  if (detail::StepTrace::current())
    return absl::FailedPreconditionError(
        "Method requires being in cross-replica context, use "
        "get_replica_context().merge_call()");
  // With steps_per_run == 1 one step is built whatever `iterations` is.
  const int64_t steps = state_->stepsPerRun == 1 ? 1 : iterations;
  if (steps < 1)
    return absl::InvalidArgumentError("iterations must be >= 1");

  // Take `steps` elements; every replica's per-step inputs are stacked into
  // [steps, ...] values fed one slice per step.
  std::vector<Values> elements;
  for (int64_t s = 0; s < steps; ++s) {
    TORUS_ASSIGN_OR_RETURN(Values v, iterator.next());
    elements.push_back(std::move(v));
  }
  Values args;
  std::vector<int> perStep;
  for (size_t c = 0; c < elements[0].size(); ++c) {
    if (steps == 1) {
      args.push_back(elements[0][c]);
      continue;
    }
    std::vector<HostTensor> stacked;
    for (int64_t r = 0; r < state_->numReplicas; ++r) {
      std::vector<HostTensor> parts;
      for (int64_t s = 0; s < steps; ++s)
        parts.push_back(elements[s][c].select(r));
      for (const HostTensor &p : parts)
        if (p.spec() != parts[0].spec())
          return absl::UnimplementedError(
              "experimental_run_steps_on_iterator: every step's input must "
              "have the same shape (use drop_remainder=True)");
      stacked.push_back(detail::stack(parts));
    }
    args.emplace_back(PerReplica(std::move(stacked)));
    perStep.push_back(static_cast<int>(c));
  }

  // The replica function returns the last-step outputs (reduced ones
  // all-reduced), then whatever fn returned.
  auto entries = std::make_shared<std::vector<StepContext::Entry>>();
  ReplicaFn replicaFn = [&fn, entries](const std::vector<Tensor> &inputs) {
    StepContext ctx;
    std::vector<Tensor> results = fn(ctx, inputs);
    *entries = ctx.entries();
    std::vector<Tensor> out;
    auto replica = getReplicaContext();
    for (const StepContext::Entry &e : ctx.entries())
      out.push_back(e.reduceOp && replica ? replica->allReduce(*e.reduceOp,
                                                               e.value)
                                          : e.value);
    (void)results;
    return out;
  };
  static const std::string kRunSteps = "run_steps";
  detail::StepExecution execution;
  execution.steps = steps;
  execution.perStepArgs = perStep;
  TORUS_ASSIGN_OR_RETURN(
      std::vector<PerReplica> outputs,
      detail::runReplicaFunction(state_, nullptr, {kRunSteps, replicaFn}, args,
                                 execution));
  MultiStepContext result;
  result.stepsRun = steps;
  for (size_t i = 0; i < entries->size(); ++i) {
    const StepContext::Entry &e = (*entries)[i];
    if (e.reduceOp)
      result.reducedOutputs[e.name] = outputs[i][0];
    else
      result.perReplicaOutputs[e.name] = outputs[i];
  }
  return result;
}

} // namespace torus::distribute
