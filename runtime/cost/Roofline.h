//===- Roofline.h - Per-op and per-step roofline of a program ---*- C++ -*-===//
//
// The roofline report of one step on a TPU slice (`torusc --report=roofline`,
// docs/cost-model.md): for every op of the program its FLOPs, HBM bytes and
// ICI bytes per core, the time each would take on the slice's chip (peak
// FLOP/s, HBM bandwidth, the ICI cost model for collectives) and which bound
// wins; for the step the totals, the step time of the cost model
// (estimateStepCost), its bound and the model FLOP utilisation. And the
// what-if table: the same program priced on several slices.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_COST_ROOFLINE_H
#define TORUS_RUNTIME_COST_ROOFLINE_H

#include "runtime/cost/CostModel.h"

#include <string>
#include <vector>

namespace torus::rt {

/// Which resource an op's (or the step's) time is bound by.
enum class Bound { Compute, Memory, Ici, Latency };

/// "compute", "memory", "ici", "latency".
const char *boundName(Bound bound);

/// One op of the step, per core.
struct RooflineRow {
  std::string name;     // "torus.dot_general", "all_reduce #0"
  std::string location; // "step.mlir:4:8"
  double flops = 0;
  double hbmBytes = 0;
  /// Bytes the core sends over ICI (collectives): 2(n-1)/n x B for an
  /// all-reduce, (n-1)/n x B for all-gather (B the result), reduce-scatter
  /// and all-to-all, B for a permute.
  double iciBytes = 0;
  /// flops / peak, hbmBytes / HBM bandwidth, and a collective's priced time
  /// (ICI bandwidth plus latency terms, times its invocations).
  double flopSeconds = 0;
  double memorySeconds = 0;
  double iciSeconds = 0;
  /// max of the three.
  double seconds = 0;
  Bound bound = Bound::Compute;
};

struct Roofline {
  /// The cost model's step (its compute is the roofline of the totals).
  StepCost step;
  /// Compute ops in program order, then the collectives.
  std::vector<RooflineRow> ops;
  /// Per core per step.
  double flops = 0;
  double hbmBytes = 0;
  double iciBytes = 0;
  /// The compute ops one after another: the sum of their own rooflines.
  double opSecondsSum = 0;
  /// The largest of the step's FLOP, HBM and collective times.
  Bound bound = Bound::Compute;
  /// The chip's figures the times come from.
  double peakFlops = 0;
  double hbmBandwidth = 0;
  double iciLinkBandwidth = 0;
};

/// The roofline of one step of `spec` on `topology` (see estimateStepCost for
/// the arguments and errors). `counts.ops` gives the per-op rows; without it
/// the report has the collectives and the step only.
absl::StatusOr<Roofline> computeRoofline(const ProgramSpec &spec,
                                         const ProgramCounts &counts,
                                         const Topology &topology,
                                         const CostModelOptions &options = {});

/// The report as text: a table of ops, then the step.
std::string formatRoofline(const Roofline &roofline);

/// One slice of a what-if comparison: its roofline, or why the program
/// cannot be priced there.
struct WhatIfEntry {
  std::string slice;
  std::optional<Roofline> roofline;
  std::string error;
};

/// One table, a row per slice: devices, compute, collectives, step time,
/// bound, MFU, and the step time relative to the first slice.
std::string formatWhatIf(const std::vector<WhatIfEntry> &entries);

} // namespace torus::rt

#endif // TORUS_RUNTIME_COST_ROOFLINE_H
