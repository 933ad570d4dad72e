//===- CostModel.cpp - What a step would cost on the real slice -----------===//

#include "runtime/cost/CostModel.h"

#include "runtime/collectives/CollectiveOp.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace torus::rt {

std::string formatSeconds(double seconds) {
  if (seconds == 0)
    return "0 s";
  if (seconds < 1e-6)
    return fmt::format("{:.1f} ns", seconds * 1e9);
  if (seconds < 1e-3)
    return fmt::format("{:.2f} us", seconds * 1e6);
  if (seconds < 1)
    return fmt::format("{:.3f} ms", seconds * 1e3);
  return fmt::format("{:.3f} s", seconds);
}

std::string formatPercent(double fraction) {
  const double percent = 100 * fraction;
  if (percent == 0 || percent >= 0.1)
    return fmt::format("{:.1f}%", percent);
  // Two significant digits, never in exponent notation.
  int decimals = std::min(12, 1 - static_cast<int>(std::floor(std::log10(
                                  std::abs(percent)))));
  return fmt::format("{:.{}f}%", percent, decimals);
}

absl::StatusOr<MeshPlacement>
placementOnTopology(const Topology &topology, int64_t numDevices,
                    const std::vector<int64_t> &deviceToCore) {
  std::vector<std::array<int32_t, 4>> cores;
  for (const auto &task : topology.deviceCoordinates())
    for (const Coordinates &c : task)
      cores.push_back(c);
  const int64_t numCores = static_cast<int64_t>(cores.size());
  if (!deviceToCore.empty() &&
      static_cast<int64_t>(deviceToCore.size()) != numDevices)
    return absl::InvalidArgumentError(
        fmt::format("cost model: the device assignment has {} entries for {} "
                    "devices",
                    deviceToCore.size(), numDevices));
  if (numDevices > numCores)
    return absl::InvalidArgumentError(fmt::format(
        "cost model: {} devices do not fit the {} cores of {}", numDevices,
        numCores, topology.name().empty() ? topology.toString()
                                          : topology.name()));
  MeshPlacement placement;
  const auto &shape = topology.meshShape();
  placement.meshShape = {shape[0], shape[1], shape[2], shape[3]};
  for (int dim = 0; dim < 3; ++dim)
    placement.wraparound[dim] = topology.hasWraparound(dim);
  for (int64_t d = 0; d < numDevices; ++d) {
    int64_t core = deviceToCore.empty() ? d : deviceToCore[d];
    if (core < 0 || core >= numCores)
      return absl::InvalidArgumentError(fmt::format(
          "cost model: device {} is on core {}, outside [0, {})", d, core,
          numCores));
    placement.coordinates.push_back(cores[core]);
  }
  TORUS_RETURN_IF_ERROR(placement.validate());
  return placement;
}

absl::StatusOr<StepCost> estimateStepCost(const ProgramSpec &spec,
                                          const ProgramCounts &counts,
                                          const Topology &topology,
                                          const CostModelOptions &options) {
  const TpuGeneration *generation =
      options.generation ? options.generation : topology.generation();
  if (!generation)
    return absl::FailedPreconditionError(fmt::format(
        "cost model: {} has no TPU generation; pass one in the options",
        topology.name().empty() ? topology.toString() : topology.name()));
  if (spec.numReplicas < 1 || options.numPartitions < 1)
    return absl::InvalidArgumentError(fmt::format(
        "cost model: invalid replica ({}) or partition ({}) count",
        spec.numReplicas, options.numPartitions));
  if (!counts.collectiveInvocations.empty() &&
      counts.collectiveInvocations.size() != spec.collectives.size())
    return absl::InvalidArgumentError(fmt::format(
        "cost model: {} invocation counts for {} collectives",
        counts.collectiveInvocations.size(), spec.collectives.size()));
  const int64_t numDevices = spec.numReplicas * options.numPartitions;
  TORUS_ASSIGN_OR_RETURN(
      MeshPlacement placement,
      placementOnTopology(topology, numDevices, options.deviceToCore));
  const IciParameters ici =
      options.ici ? *options.ici : IciParameters::forGeneration(*generation);

  StepCost step;
  step.slice = topology.name().empty() ? topology.toString() : topology.name();
  step.generation = std::string(generation->name);
  step.numDevices = numDevices;
  step.flopSeconds = counts.bf16Flops / generation->peakBf16FlopsPerCore +
                     counts.f32Flops / generation->peakF32FlopsPerCore;
  step.memorySeconds = counts.hbmBytes / generation->hbmBandwidthPerCore;
  step.computeSeconds = std::max(step.flopSeconds, step.memorySeconds);
  step.flops = counts.bf16Flops + counts.f32Flops;
  step.peakFlops = generation->peakBf16FlopsPerCore;

  for (size_t i = 0; i < spec.collectives.size(); ++i) {
    const CollectiveSpec &c = spec.collectives[i];
    CollectiveStepCost entry;
    entry.index = static_cast<int64_t>(i);
    entry.name = fmt::format("{} #{}", collectiveKindName(c.kind), i);
    if (!c.location.empty())
      entry.name += " at " + c.location;
    entry.invocations =
        counts.collectiveInvocations.empty() ? 1 : counts.collectiveInvocations[i];
    auto cost = costCollective(collectiveOpFromSpec(c), c.replicaGroups,
                               placement, ici, options.algorithm);
    if (!cost.ok())
      return absl::Status(cost.status().code(),
                          fmt::format("{}: {}", entry.name,
                                      std::string(cost.status().message())));
    entry.cost = std::move(*cost);
    step.collectiveSeconds += entry.seconds();
    step.collectives.push_back(std::move(entry));
  }
  step.totalSeconds = step.computeSeconds + step.collectiveSeconds;
  step.overlappedSeconds = std::max(step.computeSeconds, step.collectiveSeconds);
  return step;
}

absl::StatusOr<StepCost>
estimateStepCost(const ProgramSpec &spec, const ProgramCounts &counts,
                 const DeviceAssignment &assignment,
                 CostModelOptions options) {
  if (assignment.numReplicas() != spec.numReplicas)
    return absl::InvalidArgumentError(fmt::format(
        "cost model: the device assignment has {} replicas, the program {}",
        assignment.numReplicas(), spec.numReplicas));
  const Topology &topology = assignment.topology();
  std::vector<std::array<int32_t, 4>> cores;
  for (const auto &task : topology.deviceCoordinates())
    for (const Coordinates &c : task)
      cores.push_back(c);
  options.numPartitions = assignment.numCoresPerReplica();
  options.deviceToCore.clear();
  for (const auto &replica : assignment.coreAssignment())
    for (const Coordinates &c : replica) {
      auto it = std::find(cores.begin(), cores.end(), c);
      if (it == cores.end())
        return absl::InvalidArgumentError(fmt::format(
            "cost model: no core at ({}, {}, {}, {})", c[0], c[1], c[2],
            c[3]));
      options.deviceToCore.push_back(it - cores.begin());
    }
  return estimateStepCost(spec, counts, topology, options);
}

double StepCost::mfu() const {
  return totalSeconds > 0 && peakFlops > 0
             ? flops / (totalSeconds * peakFlops)
             : 0;
}

double StepCost::overlappedMfu() const {
  return overlappedSeconds > 0 && peakFlops > 0
             ? flops / (overlappedSeconds * peakFlops)
             : 0;
}

std::string formatStepCost(const StepCost &cost,
                           std::optional<absl::Duration> measuredPerStep) {
  std::string out = fmt::format(
      "simulated step on {} ({} {} device{}):\n", cost.slice, cost.numDevices,
      cost.generation, cost.numDevices == 1 ? "" : "s");
  out += fmt::format(
      "  compute      {:>10}  (FLOPs {}, HBM {}: {}-bound)\n",
      formatSeconds(cost.computeSeconds), formatSeconds(cost.flopSeconds),
      formatSeconds(cost.memorySeconds),
      cost.memorySeconds > cost.flopSeconds ? "memory" : "compute");
  for (const CollectiveStepCost &c : cost.collectives)
    out += fmt::format(
        "  {:<12} {:>10}  ({}{}; bandwidth {}, latency {})\n",
        c.name.substr(0, c.name.find(' ')), formatSeconds(c.seconds()),
        c.name.substr(c.name.find(' ') + 1) + ": " + c.cost.detail,
        c.invocations != 1 ? fmt::format(", x{}", c.invocations) : "",
        formatSeconds(c.cost.bandwidthSeconds),
        formatSeconds(c.cost.latencySeconds));
  out += fmt::format("  total        {:>10}  (serial; {} if communication "
                     "overlapped compute perfectly)\n",
                     formatSeconds(cost.totalSeconds),
                     formatSeconds(cost.overlappedSeconds));
  if (measuredPerStep) {
    double measured = absl::ToDoubleSeconds(*measuredPerStep);
    out += fmt::format("  measured     {:>10}  per step on this host",
                       formatSeconds(measured));
    if (cost.totalSeconds > 0)
      out += fmt::format(" ({:.1f}x the simulated time)",
                         measured / cost.totalSeconds);
    out += "\n";
  }
  out += fmt::format("  MFU          {:>10}  (model FLOPs {:.4g} per device / "
                     "(simulated step x peak {:.4g} FLOP/s); {} if "
                     "overlapped)\n",
                     formatPercent(cost.mfu()), cost.flops, cost.peakFlops,
                     formatPercent(cost.overlappedMfu()));
  return out;
}

} // namespace torus::rt
