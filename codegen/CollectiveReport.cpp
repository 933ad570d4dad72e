//===- CollectiveReport.cpp - The collectives of a program, as text -------===//

#include "codegen/CollectiveReport.h"
#include "runtime/CollectiveCalls.h"

#include <fmt/format.h>

namespace mlir::torus {

namespace rt = ::torus::rt;

namespace {

std::string groupsText(const rt::CollectiveSpec &c) {
  if (c.kind == rt::CollectiveKind::CollectivePermute) {
    std::string text;
    for (auto [source, target] : c.sourceTargetPairs)
      text += fmt::format("{}{}->{}", text.empty() ? "" : ",", source, target);
    return text.empty() ? "(no pairs)" : text;
  }
  if (c.replicaGroups.empty())
    return "all replicas";
  std::string text = "[";
  for (size_t i = 0; i < c.replicaGroups.size(); ++i) {
    text += i ? ",[" : "[";
    for (size_t j = 0; j < c.replicaGroups[i].size(); ++j)
      text += fmt::format("{}{}", j ? "," : "", c.replicaGroups[i][j]);
    text += "]";
  }
  text += "]";
  if (text.size() > 40)
    text = text.substr(0, 32) +
           fmt::format("...({} groups)", c.replicaGroups.size());
  return text;
}

} // namespace

/// `1.25 ms`, `830 us`, `12 ns`.
std::string formatTime(double seconds) {
  if (seconds >= 1)
    return fmt::format("{:.3g} s", seconds);
  if (seconds >= 1e-3)
    return fmt::format("{:.3g} ms", seconds * 1e3);
  if (seconds >= 1e-6)
    return fmt::format("{:.3g} us", seconds * 1e6);
  return fmt::format("{:.3g} ns", seconds * 1e9);
}

std::string formatCollectiveReport(const rt::ProgramSpec &spec,
                                   const std::vector<CollectiveTiming> &timings,
                                   std::string_view slice,
                                   std::string_view noTimingReason,
                                   int64_t numPartitions) {
  int64_t devices = spec.numReplicas * std::max<int64_t>(1, numPartitions);
  bool timed = !timings.empty() && timings.size() == spec.collectives.size();
  std::string out = fmt::format(
      "Collectives of @{} on {} replica{}{}: {} call site{}\n\n", spec.name,
      spec.numReplicas, spec.numReplicas == 1 ? "" : "s",
      numPartitions > 1 ? fmt::format(" x {} partitions ({} devices)",
                                      numPartitions, devices)
                        : "",
      spec.collectives.size(), spec.collectives.size() == 1 ? "" : "s");
  if (spec.collectives.empty())
    return out + "The program exchanges no data between cores.\n";
  out += fmt::format("  {:>3}  {:<18} {:<7} {:<14} {:<14} {:>10}  {:<24} "
                     "{:>5} {:>11}  {}{}\n",
                     "#", "kind", "reduce", "operand", "result", "bytes",
                     "replica groups", "group", "ring sent",
                     timed ? fmt::format("{:>10}  ", "simulated") : "",
                     "location");
  // The figures of each row: the API's report (runtime/CollectiveCalls.h).
  const ::torus::CollectiveReport rows = rt::collectiveReportOf(spec, numPartitions);
  for (size_t i = 0; i < spec.collectives.size(); ++i) {
    const rt::CollectiveSpec &c = spec.collectives[i];
    const ::torus::CollectiveCall &row = rows.calls[i];
    out += fmt::format(
        "  {:>3}  {:<18} {:<7} {:<14} {:<14} {:>10}  {:<24} {:>5} {:>11}  "
        "{}{}\n",
        i, row.kind, row.reduction.empty() ? "-" : row.reduction,
        row.operand.toString(), row.result.toString(), row.operandBytes,
        groupsText(c), row.groupSize, row.ringBytesPerCore,
        timed ? fmt::format("{:>10}  ", formatTime(timings[i].seconds)) : "",
        row.location);
  }
  int64_t operandBytes = rows.operandBytes(), ringBytes = rows.ringBytesPerCore();
  double total = 0;
  for (const CollectiveTiming &t : timings)
    total += t.seconds;
  out += fmt::format(
      "\nPer step, every core takes part in {} collective{} with {} bytes of "
      "operands, sending {} bytes with ring algorithms.\n",
      spec.collectives.size(), spec.collectives.size() == 1 ? "" : "s",
      operandBytes, ringBytes);
  if (timed) {
    out += fmt::format("Simulated on {} by the ICI cost model "
                       "(runtime/cost): {} per step for all collectives.\n",
                       slice, formatTime(total));
    for (size_t i = 0; i < timings.size(); ++i)
      out += fmt::format("  #{}: {}\n", i, timings[i].detail);
  } else {
    out += fmt::format("Simulated time: not available{}{}.\n",
                       noTimingReason.empty() ? "" : ": ", noTimingReason);
  }
  return out;
}

} // namespace mlir::torus
