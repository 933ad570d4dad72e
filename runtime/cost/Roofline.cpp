//===- Roofline.cpp - Per-op and per-step roofline of a program -----------===//

#include "runtime/cost/Roofline.h"

#include "runtime/collectives/CollectiveOp.h"

#include <fmt/format.h>

#include <algorithm>

namespace torus::rt {

const char *boundName(Bound bound) {
  switch (bound) {
  case Bound::Compute:
    return "compute";
  case Bound::Memory:
    return "memory";
  case Bound::Ici:
    return "ici";
  case Bound::Latency:
    return "latency";
  }
  return "?";
}

namespace {

/// Bytes one member of the collective sends per invocation.
double bytesSentPerMember(const CollectiveCost &cost) {
  const double n = static_cast<double>(cost.groupSize);
  if (n < 2 && cost.kind != CollectiveOpKind::CollectivePermute)
    return 0;
  switch (cost.kind) {
  case CollectiveOpKind::AllReduce:
    return 2 * (n - 1) / n * cost.bytes;
  case CollectiveOpKind::CollectivePermute:
    return cost.bytes;
  default:
    return (n - 1) / n * cost.bytes;
  }
}

Bound largest(double flopSeconds, double memorySeconds, double iciSeconds,
              Bound iciBound) {
  if (iciSeconds > flopSeconds && iciSeconds > memorySeconds)
    return iciBound;
  return memorySeconds > flopSeconds ? Bound::Memory : Bound::Compute;
}

/// 1234567 -> "1234567"; large counts in scientific notation.
std::string count(double value) {
  return value < 1e15 ? fmt::format("{:.0f}", value)
                      : fmt::format("{:.4g}", value);
}

std::string bandwidth(double bytesPerSecond) {
  return bytesPerSecond >= 1e12
             ? fmt::format("{:.3g} TB/s", bytesPerSecond / 1e12)
             : fmt::format("{:.3g} GB/s", bytesPerSecond / 1e9);
}

} // namespace

absl::StatusOr<Roofline> computeRoofline(const ProgramSpec &spec,
                                         const ProgramCounts &counts,
                                         const Topology &topology,
                                         const CostModelOptions &options) {
  TORUS_ASSIGN_OR_RETURN(StepCost step,
                         estimateStepCost(spec, counts, topology, options));
  const TpuGeneration &generation =
      options.generation ? *options.generation : *topology.generation();
  const IciParameters ici =
      options.ici ? *options.ici : IciParameters::forGeneration(generation);
  Roofline r;
  r.peakFlops = generation.peakBf16FlopsPerCore;
  r.hbmBandwidth = generation.hbmBandwidthPerCore;
  r.iciLinkBandwidth = ici.linkBandwidth;
  r.flops = counts.bf16Flops + counts.f32Flops;
  r.hbmBytes = counts.hbmBytes;
  for (const OpCounts &op : counts.ops) {
    RooflineRow row;
    row.name = op.name;
    row.location = op.location;
    row.flops = op.bf16Flops + op.f32Flops;
    row.hbmBytes = op.hbmBytes;
    row.flopSeconds = op.bf16Flops / generation.peakBf16FlopsPerCore +
                      op.f32Flops / generation.peakF32FlopsPerCore;
    row.memorySeconds = op.hbmBytes / generation.hbmBandwidthPerCore;
    row.seconds = std::max(row.flopSeconds, row.memorySeconds);
    row.bound = largest(row.flopSeconds, row.memorySeconds, 0, Bound::Ici);
    r.opSecondsSum += row.seconds;
    r.ops.push_back(std::move(row));
  }
  for (const CollectiveStepCost &c : step.collectives) {
    const CollectiveSpec &collective = spec.collectives[c.index];
    RooflineRow row;
    row.name = fmt::format("{} #{}", collectiveKindName(collective.kind),
                           c.index);
    row.location = collective.location;
    row.iciBytes = bytesSentPerMember(c.cost) * static_cast<double>(c.invocations);
    row.iciSeconds = c.seconds();
    row.seconds = row.iciSeconds;
    row.bound = c.cost.latencySeconds > c.cost.bandwidthSeconds ? Bound::Latency
                                                                : Bound::Ici;
    r.iciBytes += row.iciBytes;
    r.ops.push_back(std::move(row));
  }
  double latency = 0, bandwidthTerm = 0;
  for (const CollectiveStepCost &c : step.collectives) {
    latency += c.cost.latencySeconds * static_cast<double>(c.invocations);
    bandwidthTerm += c.cost.bandwidthSeconds * static_cast<double>(c.invocations);
  }
  r.bound = largest(step.flopSeconds, step.memorySeconds,
                    step.collectiveSeconds,
                    latency > bandwidthTerm ? Bound::Latency : Bound::Ici);
  r.step = std::move(step);
  return r;
}

std::string formatRoofline(const Roofline &r) {
  const StepCost &step = r.step;
  std::string out = fmt::format(
      "Roofline of one step on {} ({} {} device{}); per device: peak {:.4g} "
      "TFLOP/s (bf16), HBM {}, ICI {} per link and direction\n\n",
      step.slice, step.numDevices, step.generation,
      step.numDevices == 1 ? "" : "s", r.peakFlops / 1e12,
      bandwidth(r.hbmBandwidth), bandwidth(r.iciLinkBandwidth));
  out += fmt::format("  {:<22} {:>16} {:>14} {:>14} {:>11} {:>11} {:>11} "
                     "{:>11}  {:<8} {}\n",
                     "op", "FLOPs", "HBM bytes", "ICI bytes", "FLOP time",
                     "HBM time", "ICI time", "time", "bound", "location");
  for (const RooflineRow &row : r.ops)
    out += fmt::format("  {:<22} {:>16} {:>14} {:>14} {:>11} {:>11} {:>11} "
                       "{:>11}  {:<8} {}\n",
                       row.name, count(row.flops), count(row.hbmBytes),
                       count(row.iciBytes), formatSeconds(row.flopSeconds),
                       formatSeconds(row.memorySeconds),
                       formatSeconds(row.iciSeconds),
                       formatSeconds(row.seconds), boundName(row.bound),
                       row.location.empty() ? "-" : row.location);
  if (r.ops.empty())
    out += "  (no per-op counts)\n";
  out += "\nStep, per device:\n";
  out += fmt::format("  FLOPs        {:>16}\n", count(r.flops));
  out += fmt::format("  HBM bytes    {:>16}\n", count(r.hbmBytes));
  out += fmt::format("  ICI bytes    {:>16}  (sent)\n", count(r.iciBytes));
  out += fmt::format("  compute      {:>16}  (FLOPs {}, HBM {}: roofline of "
                     "the totals; the ops one after another: {})\n",
                     formatSeconds(step.computeSeconds),
                     formatSeconds(step.flopSeconds),
                     formatSeconds(step.memorySeconds),
                     formatSeconds(r.opSecondsSum));
  out += fmt::format("  collectives  {:>16}\n",
                     formatSeconds(step.collectiveSeconds));
  out += fmt::format("  step         {:>16}  (serial; {} if communication "
                     "overlapped compute perfectly)\n",
                     formatSeconds(step.totalSeconds),
                     formatSeconds(step.overlappedSeconds));
  out += fmt::format("  bound        {:>16}\n", boundName(r.bound));
  out += fmt::format("  MFU          {:>16}  ({} if overlapped)\n",
                     formatPercent(step.mfu()),
                     formatPercent(step.overlappedMfu()));
  return out;
}

std::string formatWhatIf(const std::vector<WhatIfEntry> &entries) {
  std::string out = fmt::format(
      "  {:<12} {:>12} {:>11} {:>12} {:>11} {:>11}  {:<8} {:>7} {:>9}\n",
      "slice", "devices", "compute", "collectives", "step", "overlapped",
      "bound", "MFU", "vs first");
  double first = 0;
  for (const WhatIfEntry &e : entries) {
    if (!e.roofline) {
      out += fmt::format("  {:<12} cannot be priced: {}\n", e.slice, e.error);
      continue;
    }
    const StepCost &s = e.roofline->step;
    if (first == 0)
      first = s.totalSeconds;
    out += fmt::format(
        "  {:<12} {:>12} {:>11} {:>12} {:>11} {:>11}  {:<8} {:>7} {:>9}\n",
        e.slice, fmt::format("{} {}", s.numDevices, s.generation),
        formatSeconds(s.computeSeconds), formatSeconds(s.collectiveSeconds),
        formatSeconds(s.totalSeconds), formatSeconds(s.overlappedSeconds),
        boundName(e.roofline->bound), formatPercent(s.mfu()),
        first > 0 ? fmt::format("{:.2f}x", s.totalSeconds / first) : "-");
  }
  return out;
}

} // namespace torus::rt
