//===- CostModel.h - What a step would cost on the real slice ---*- C++ -*-===//
//
// The simulated time of one step of a program on the TPU slice it is
// emulated on, usable without running it, so programs can be priced on
// slices far larger than this host (v4-2048, whole pods):
//
//   compute      a roofline per core: max(flops / peak FLOP/s,
//                HBM bytes / HBM bandwidth), with bf16 and f32 FLOPs at their
//                own peaks (the compiler supplies the counts: ProgramCounts)
//   collectives  every collective of the ProgramSpec priced on the torus
//                (CollectiveCost.h), times how often a step runs it
//   total        compute + collectives (no overlap: an upper bound); the
//                perfect-overlap bound max(compute, collectives) is reported
//                too
//
// docs/cost-model.md explains every formula and where each figure comes
// from. formatStepCost() prints the breakdown next to the measured host time
// (RunStats) of an emulated run.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_COST_COSTMODEL_H
#define TORUS_RUNTIME_COST_COSTMODEL_H

#include "runtime/ProgramSpec.h"
#include "runtime/collectives/CollectiveAlgorithm.h"
#include "runtime/cost/CollectiveCost.h"
#include "runtime/cost/IciParameters.h"
#include "runtime/mesh/DeviceAssignment.h"
#include "runtime/mesh/Topology.h"
#include "runtime/mesh/TpuGeneration.h"
#include "torus/Status.h"

#include "absl/time/time.h"

#include <optional>
#include <string>
#include <vector>

namespace torus::rt {

/// What one op of the program does on one core, as counted by the compiler
/// (for the roofline report, Roofline.h).
struct OpCounts {
  std::string name;     // "torus.dot_general"
  std::string location; // "step.mlir:4:8"
  double bf16Flops = 0;
  double f32Flops = 0;
  double hbmBytes = 0;
};

/// What one core does in one step, as counted by the compiler.
struct ProgramCounts {
  /// Floating-point operations at bf16 (and XLA DEFAULT precision) rate.
  double bf16Flops = 0;
  /// Floating-point operations at f32 (HIGHEST precision) rate.
  double f32Flops = 0;
  /// Bytes read from and written to HBM.
  double hbmBytes = 0;
  /// How many times a step executes each collective of the ProgramSpec;
  /// empty means once each.
  std::vector<int64_t> collectiveInvocations;
  /// Optional: the same counts op by op (their sums are the totals above).
  std::vector<OpCounts> ops;
};

struct CostModelOptions {
  /// Partitions per replica: devices = replicas x partitions.
  int64_t numPartitions = 1;
  /// deviceToCore[d]: the core (TensorFlow device order: task-major, then
  /// ordinal) of logical device d. Empty: device d on core d.
  std::vector<int64_t> deviceToCore;
  /// The schedule requested for all-reduce and all-gather (as the runtime's
  /// ExecutorOptions::collectiveAlgorithm).
  CollectiveAlgorithm algorithm = CollectiveAlgorithm::Auto;
  /// The chip figures; default the topology's generation.
  const TpuGeneration *generation = nullptr;
  /// Link figures; default IciParameters::forGeneration.
  std::optional<IciParameters> ici;
};

struct CollectiveStepCost {
  /// Index into ProgramSpec::collectives.
  int64_t index = 0;
  std::string name; // "all_reduce #0 at step.mlir:4:8"
  int64_t invocations = 1;
  CollectiveCost cost; // one invocation
  double seconds() const {
    return cost.seconds * static_cast<double>(invocations);
  }
};

struct StepCost {
  std::string slice;      // the topology's name
  std::string generation; // "v4"
  int64_t numDevices = 0;
  /// Compute per core: the FLOP and HBM times and the roofline of the two.
  double flopSeconds = 0;
  double memorySeconds = 0;
  double computeSeconds = 0;
  std::vector<CollectiveStepCost> collectives;
  double collectiveSeconds = 0;
  /// compute + collectives.
  double totalSeconds = 0;
  /// max(compute, collectives): if communication overlapped perfectly.
  double overlappedSeconds = 0;
  /// Model FLOPs of one core per step (bf16 + f32) and the core's peak
  /// (bf16) FLOP/s: the model FLOP utilisation is
  /// flops / (totalSeconds * peakFlops).
  double flops = 0;
  double peakFlops = 0;
  /// Model FLOP utilisation of the serial and of the overlapped step, in
  /// [0, 1]; 0 for a step that takes no time.
  double mfu() const;
  double overlappedMfu() const;
};

/// Prices one step of `spec` on `topology` (which must carry a generation,
/// or options.generation must be set). InvalidArgument for a program or
/// placement that does not fit the slice.
absl::StatusOr<StepCost> estimateStepCost(const ProgramSpec &spec,
                                          const ProgramCounts &counts,
                                          const Topology &topology,
                                          const CostModelOptions &options = {});

/// As above, with replicas, partitions and cores from `assignment`.
absl::StatusOr<StepCost>
estimateStepCost(const ProgramSpec &spec, const ProgramCounts &counts,
                 const DeviceAssignment &assignment,
                 CostModelOptions options = {});

/// The placement of `numDevices` logical devices on `topology`'s cores
/// (deviceToCore as in CostModelOptions).
absl::StatusOr<MeshPlacement>
placementOnTopology(const Topology &topology, int64_t numDevices,
                    const std::vector<int64_t> &deviceToCore = {});

/// A readable breakdown; with `measuredPerStep`, the emulated run's host
/// time per step and its ratio to the simulated time.
std::string
formatStepCost(const StepCost &cost,
               std::optional<absl::Duration> measuredPerStep = std::nullopt);

/// `1.25 ms`, `830 us`, `12.5 s`.
std::string formatSeconds(double seconds);

/// A fraction as a percentage: `46.2%`, and two significant digits below
/// 0.1% (`0.0042%`), so a tiny utilisation does not read as zero.
std::string formatPercent(double fraction);

} // namespace torus::rt

#endif // TORUS_RUNTIME_COST_COSTMODEL_H
