//===- CollectiveCost.cpp - Time of one collective on a TPU slice ---------===//

#include "runtime/cost/CollectiveCost.h"

#include "runtime/cost/TorusRouting.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <map>
#include <set>

namespace torus::rt {

namespace {

/// One message of a communication step.
struct Message {
  int64_t from;
  int64_t to;
  double bytes;
};

/// The price of one step (every step of a ring is alike).
struct StepPrice {
  double bandwidth = 0;
  double latency = 0;
  int64_t maxHops = 0;
  int64_t maxLoad = 0;
  double seconds() const { return bandwidth + latency; }
};

std::string bytesText(double bytes) {
  static constexpr const char *kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  int unit = 0;
  while (bytes >= 1024 && unit < 4) {
    bytes /= 1024;
    ++unit;
  }
  return unit == 0 ? fmt::format("{:.0f} B", bytes)
                   : fmt::format("{:.2f} {}", bytes, kUnits[unit]);
}

const char *kAxisNames[] = {"x", "y", "z", "core"};

class Pricer {
public:
  Pricer(const MeshPlacement &placement, const IciParameters &ici)
      : placement_(placement), ici_(ici),
        routing_({placement.meshShape[0], placement.meshShape[1],
                  placement.meshShape[2]},
                 placement.wraparound) {}

  ChipPoint chip(int64_t id) const {
    const auto &c = placement_.coordinates[id];
    return {c[0], c[1], c[2]};
  }
  bool sameChip(int64_t a, int64_t b) const { return chip(a) == chip(b); }

  /// Prices one step in which every message is in flight at once.
  StepPrice priceStep(const std::vector<Message> &messages) const {
    LinkLoads loads(routing_);
    for (const Message &m : messages)
      if (m.from != m.to && !sameChip(m.from, m.to))
        loads.add(chip(m.from), chip(m.to));
    StepPrice worst;
    worst.maxLoad = loads.max();
    for (const Message &m : messages) {
      if (m.from == m.to)
        continue;
      double bw, lat;
      if (sameChip(m.from, m.to)) {
        bw = m.bytes / ici_.onChipBandwidth;
        lat = ici_.onChipLatency;
      } else {
        int64_t hops = routing_.hops(chip(m.from), chip(m.to));
        worst.maxHops = std::max(worst.maxHops, hops);
        bw = static_cast<double>(loads.maxOnRoute(chip(m.from), chip(m.to))) *
             m.bytes / ici_.linkBandwidth;
        lat = static_cast<double>(hops) * ici_.hopLatency;
      }
      if (bw + lat > worst.seconds()) {
        worst.bandwidth = bw;
        worst.latency = lat;
      }
    }
    return worst;
  }

  const TorusRouting &routing() const { return routing_; }
  const MeshPlacement &placement() const { return placement_; }
  const IciParameters &ici() const { return ici_; }

private:
  const MeshPlacement &placement_;
  const IciParameters &ici_;
  TorusRouting routing_;
};

/// Whether a ring of `members` sends both ways: with two members the
/// previous member is the next one, and one message carries the chunk.
bool bidirectional(const Pricer &pricer, int64_t members) {
  return pricer.ici().bidirectionalRings && members > 2;
}

/// Adds `steps` identical steps of price `step` to `cost`.
void addSteps(CollectiveCost &cost, int64_t steps, const StepPrice &step) {
  cost.steps += steps;
  cost.bandwidthSeconds += static_cast<double>(steps) * step.bandwidth;
  cost.latencySeconds += static_cast<double>(steps) * step.latency;
  cost.maxHops = std::max(cost.maxHops, step.maxHops);
  cost.maxLinkLoad = std::max(cost.maxLinkLoad, step.maxLoad);
}

/// Ring or torus schedule of all-reduce, all-gather or reduce-scatter over
/// groups that share one structure (so their steps coincide). `bytes` is B.
/// `allOrders`: the torus schedule runs every rotated dimension order at
/// once (IciParameters::concurrentDimensionOrders).
CollectiveCost priceSchedule(const Pricer &pricer, const CollectiveOp &op,
                             const std::vector<std::vector<int64_t>> &groups,
                             CollectiveAlgorithm algorithm,
                             const std::vector<GroupGrid> &grids, double bytes,
                             bool allOrders = false) {
  CollectiveCost cost;
  cost.kind = op.kind;
  cost.algorithm = algorithm;
  cost.numGroups = static_cast<int64_t>(groups.size());
  cost.groupSize = static_cast<int64_t>(groups[0].size());
  cost.bytes = bytes;
  const int64_t n = cost.groupSize;
  const bool allReduce = op.kind == CollectiveOpKind::AllReduce;
  const bool gather = op.kind == CollectiveOpKind::AllGather;

  if (algorithm != CollectiveAlgorithm::Torus) {
    const bool both = bidirectional(pricer, n);
    std::vector<Message> ring;
    for (const auto &group : groups)
      for (int64_t i = 0; i < n; ++i) {
        ring.push_back({group[i], group[(i + 1) % n], both ? bytes / n / 2
                                                           : bytes / n});
        if (both)
          ring.push_back({group[i], group[(i + n - 1) % n], bytes / n / 2});
      }
    StepPrice step = pricer.priceStep(ring);
    addSteps(cost, allReduce ? 2 * (n - 1) : n - 1, step);
    cost.detail = fmt::format("{}ring over {}{}: {} steps of {}",
                              both ? "bidirectional " : "", n,
                              groups.size() > 1
                                  ? fmt::format(" ({} groups)", groups.size())
                                  : "",
                              cost.steps, bytesText(bytes / n));
  } else {
    // Dimension-ordered rings. With `orders` > 1 the data is split into that
    // many parts, part r running the dimensions in the order rotated by r,
    // all at once: at every phase the parts use different dimensions, hence
    // different links, so each is priced on its own and a phase lasts as
    // long as its slowest part (the phases are kept in step).
    const GroupGrid &shape = grids[0];
    const size_t dims = shape.extents.size();
    const size_t orders = allOrders && dims > 1 ? dims : 1;
    const double part = bytes / static_cast<double>(orders);
    std::vector<std::string> phases;
    bool anyBoth = false;
    // before[r]: product of the extents part r has already run.
    std::vector<double> before(orders, 1);
    for (size_t phase = 0; phase < dims; ++phase) {
      StepPrice slowest;
      int64_t slowestSteps = 0;
      for (size_t r = 0; r < orders; ++r) {
        const size_t d = (phase + r) % dims;
        const int64_t k = shape.extents[d];
        // The chunk each step moves in this dimension's rings.
        double chunk = gather ? part / n * before[r] : part / (before[r] * k);
        const bool both = bidirectional(pricer, k);
        anyBoth |= both;
        std::vector<Message> rings;
        for (size_t g = 0; g < groups.size(); ++g) {
          const GroupGrid &grid = grids[g];
          for (size_t rank = 0; rank < groups[g].size(); ++rank) {
            std::vector<int64_t> next = grid.positions[rank];
            next[d] = (next[d] + 1) % k;
            rings.push_back({groups[g][rank],
                             groups[g][grid.rankAtPosition(next)],
                             both ? chunk / 2 : chunk});
            if (!both)
              continue;
            std::vector<int64_t> previous = grid.positions[rank];
            previous[d] = (previous[d] + k - 1) % k;
            rings.push_back({groups[g][rank],
                             groups[g][grid.rankAtPosition(previous)],
                             chunk / 2});
          }
        }
        StepPrice step = pricer.priceStep(rings);
        const int64_t steps = allReduce ? 2 * (k - 1) : k - 1;
        if (static_cast<double>(steps) * step.seconds() >=
            static_cast<double>(slowestSteps) * slowest.seconds()) {
          slowest = step;
          slowestSteps = steps;
        }
        if (r == 0)
          phases.push_back(fmt::format("{} {} ({})", k,
                                       kAxisNames[shape.axes[d]],
                                       bytesText(chunk)));
        before[r] *= static_cast<double>(k);
      }
      addSteps(cost, slowestSteps, slowest);
    }
    cost.detail = fmt::format(
        "torus over {}{}: {}rings along {}, {} steps{}", n,
        groups.size() > 1 ? fmt::format(" ({} groups)", groups.size()) : "",
        anyBoth ? "bidirectional " : "", fmt::join(phases, ", then "),
        cost.steps,
        orders > 1 ? fmt::format("; {} dimension orders at once, 1/{} of the "
                                 "data each",
                                 orders, orders)
                   : "");
  }
  cost.seconds = cost.bandwidthSeconds + cost.latencySeconds;
  return cost;
}

/// The 1-D all-to-all among `values` on one axis: the busiest directed
/// segment's count of (source, target) pairs and the longest route.
std::pair<int64_t, int64_t> lineAllToAll(const TorusRouting &routing, int dim,
                                         const std::vector<int32_t> &values) {
  const int64_t size = routing.chips()[dim];
  std::vector<int64_t> plus(size, 0), minus(size, 0);
  int64_t longest = 0;
  for (int32_t a : values)
    for (int32_t b : values) {
      if (a == b)
        continue;
      int64_t s = routing.step(dim, a, b);
      longest = std::max(longest, s >= 0 ? s : -s);
      int64_t at = a;
      for (int64_t k = 0; k < (s >= 0 ? s : -s); ++k) {
        if (s > 0) {
          ++plus[at];
          at = (at + 1) % size;
        } else {
          ++minus[at];
          at = (at - 1 + size) % size;
        }
      }
    }
  int64_t most = 0;
  for (int64_t i = 0; i < size; ++i)
    most = std::max({most, plus[i], minus[i]});
  return {most, longest};
}

CollectiveCost priceAllToAll(const Pricer &pricer, const CollectiveOp &op,
                             const std::vector<std::vector<int64_t>> &groups) {
  CollectiveCost cost;
  cost.kind = op.kind;
  cost.algorithm = CollectiveAlgorithm::Direct;
  cost.numGroups = static_cast<int64_t>(groups.size());
  cost.bytes = static_cast<double>(op.operandBytes());
  cost.steps = 1;
  constexpr int64_t kExplicitLimit = 1024;
  std::string how;
  for (const auto &group : groups) {
    const int64_t n = static_cast<int64_t>(group.size());
    cost.groupSize = std::max(cost.groupSize, n);
    if (n < 2)
      continue;
    const double chunk = cost.bytes / n;
    StepPrice price;
    std::optional<GroupGrid> grid = groupGrid(pricer.placement(), group);
    if (!grid && n <= kExplicitLimit) {
      std::vector<Message> all;
      all.reserve(n * (n - 1));
      for (int64_t a : group)
        for (int64_t b : group)
          if (a != b)
            all.push_back({a, b, chunk});
      price = pricer.priceStep(all);
      how = "every pair routed";
    } else {
      // A grid (or, approximately, the bounding grid of a large non-grid
      // group): per axis, the 1-D pattern times the pairs sharing it.
      std::array<std::vector<int32_t>, 4> values;
      for (int axis = 0; axis < 4; ++axis) {
        std::set<int32_t> distinct;
        for (int64_t id : group)
          distinct.insert(pricer.placement().coordinates[id][axis]);
        values[axis].assign(distinct.begin(), distinct.end());
      }
      const double cores = static_cast<double>(values[3].size());
      double load = 0;
      for (int dim = 0; dim < 3; ++dim) {
        if (values[dim].size() < 2)
          continue;
        auto [line, longest] =
            lineAllToAll(pricer.routing(), dim, values[dim]);
        double k = static_cast<double>(values[dim].size());
        load = std::max(load, static_cast<double>(line) * n * cores / k);
        price.maxHops += longest;
      }
      price.maxLoad = static_cast<int64_t>(load);
      price.bandwidth = load * chunk / pricer.ici().linkBandwidth;
      price.latency =
          static_cast<double>(price.maxHops) * pricer.ici().hopLatency;
      if (cores > 1) { // siblings on one chip, over the on-chip path
        double onChip = (cores - 1) * chunk / pricer.ici().onChipBandwidth;
        price.bandwidth = std::max(price.bandwidth, onChip);
        if (price.maxHops == 0)
          price.latency = pricer.ici().onChipLatency;
      }
      how = grid ? "grid: per-axis link load" : "approximated by its bounding grid";
    }
    if (price.seconds() > cost.bandwidthSeconds + cost.latencySeconds) {
      cost.bandwidthSeconds = price.bandwidth;
      cost.latencySeconds = price.latency;
    }
    cost.maxHops = std::max(cost.maxHops, price.maxHops);
    cost.maxLinkLoad = std::max(cost.maxLinkLoad, price.maxLoad);
  }
  cost.seconds = cost.bandwidthSeconds + cost.latencySeconds;
  cost.detail = fmt::format("all-to-all among {}{}: one step of {} per pair ({})",
                            cost.groupSize,
                            groups.size() > 1
                                ? fmt::format(" ({} groups)", groups.size())
                                : "",
                            bytesText(cost.bytes / std::max<int64_t>(
                                                       cost.groupSize, 1)),
                            how.empty() ? "nothing moves" : how);
  return cost;
}

CollectiveCost pricePermute(const Pricer &pricer, const CollectiveOp &op,
                            int64_t numParticipants) {
  CollectiveCost cost;
  cost.kind = op.kind;
  cost.algorithm = CollectiveAlgorithm::Direct;
  cost.groupSize = numParticipants;
  cost.bytes = static_cast<double>(op.operandBytes());
  std::vector<Message> messages;
  for (const auto &[source, target] : op.pairs)
    messages.push_back({source, target, cost.bytes});
  StepPrice step = pricer.priceStep(messages);
  addSteps(cost, 1, step);
  cost.seconds = cost.bandwidthSeconds + cost.latencySeconds;
  cost.detail = fmt::format("{} pairs, one step of {}", op.pairs.size(),
                            bytesText(cost.bytes));
  return cost;
}

} // namespace

absl::StatusOr<CollectiveCost>
costCollective(const CollectiveOp &op, const ReplicaGroups &groups,
               const MeshPlacement &placement, const IciParameters &ici,
               CollectiveAlgorithm requested) {
  const int64_t numParticipants =
      static_cast<int64_t>(placement.coordinates.size());
  if (numParticipants < 1)
    return absl::FailedPreconditionError(
        "cost model: the placement has no participants");
  if (ici.linkBandwidth <= 0 || ici.onChipBandwidth <= 0)
    return absl::FailedPreconditionError(
        "cost model: link bandwidths must be positive");
  TORUS_RETURN_IF_ERROR(placement.validate());
  const bool permute = op.kind == CollectiveOpKind::CollectivePermute;
  if (!permute)
    TORUS_RETURN_IF_ERROR(validateReplicaGroups(groups, numParticipants));
  ReplicaGroups effective = groups;
  if (effective.empty() || permute) {
    effective.assign(1, {});
    for (int64_t id = 0; id < numParticipants; ++id)
      effective[0].push_back(id);
  }
  for (const auto &group : effective)
    TORUS_RETURN_IF_ERROR(
        op.check(static_cast<int64_t>(group.size()), numParticipants));

  Pricer pricer(placement, ici);
  switch (op.kind) {
  case CollectiveOpKind::CollectivePermute:
    return pricePermute(pricer, op, numParticipants);
  case CollectiveOpKind::AllToAll:
    return priceAllToAll(pricer, op, effective);
  case CollectiveOpKind::Broadcast:
    return absl::UnimplementedError(
        "cost model: broadcast is not priced (no program op emits it)");
  default:
    break;
  }

  // Ring and torus schedules. Groups of one structure are priced together
  // (their messages share links); different structures separately, and the
  // slowest decides.
  struct Class {
    CollectiveAlgorithm algorithm;
    std::vector<std::vector<int64_t>> groups;
    std::vector<GroupGrid> grids;
  };
  std::map<std::pair<int, std::vector<int64_t>>, Class> classes;
  for (const auto &group : effective) {
    if (group.size() < 2)
      continue;
    std::optional<GroupGrid> grid;
    CollectiveAlgorithm algorithm =
        chooseCollectiveAlgorithm(requested, &placement, group, &grid);
    if (algorithm == CollectiveAlgorithm::Direct)
      algorithm = CollectiveAlgorithm::Ring; // no shared memory on a slice
    std::vector<int64_t> signature = {static_cast<int64_t>(group.size())};
    if (grid) {
      signature.insert(signature.end(), grid->axes.begin(), grid->axes.end());
      signature.insert(signature.end(), grid->extents.begin(),
                       grid->extents.end());
    }
    Class &c = classes[{static_cast<int>(algorithm), signature}];
    c.algorithm = algorithm;
    c.groups.push_back(group);
    if (grid)
      c.grids.push_back(std::move(*grid));
  }
  CollectiveCost worst;
  worst.kind = op.kind;
  worst.numGroups = static_cast<int64_t>(effective.size());
  worst.detail = "groups of one: nothing moves";
  bool first = true;
  for (const auto &[key, c] : classes) {
    const int64_t n = static_cast<int64_t>(c.groups[0].size());
    double bytes = op.kind == CollectiveOpKind::AllGather
                       ? static_cast<double>(op.resultBytes(n))
                       : static_cast<double>(op.operandBytes());
    CollectiveCost cost =
        priceSchedule(pricer, op, c.groups, c.algorithm, c.grids, bytes);
    // Every dimension order at once pays each phase's slowest dimension, so
    // on grids of unequal extents with little data (latency-bound) one
    // order is faster: a tuned library takes the faster schedule.
    if (c.algorithm == CollectiveAlgorithm::Torus &&
        pricer.ici().concurrentDimensionOrders &&
        c.grids[0].extents.size() > 1) {
      CollectiveCost all = priceSchedule(pricer, op, c.groups, c.algorithm,
                                         c.grids, bytes, /*allOrders=*/true);
      if (all.seconds < cost.seconds)
        cost = std::move(all);
    }
    cost.numGroups = static_cast<int64_t>(effective.size());
    if (first || cost.seconds > worst.seconds)
      worst = cost;
    first = false;
  }
  return worst;
}

} // namespace torus::rt
