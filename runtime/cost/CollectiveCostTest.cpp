//===- CollectiveCostTest.cpp - Collective times against closed forms -----===//
//
// Each expected time is computed here from the textbook formula, with the
// link bandwidth of the generation and the hop latency, independently of the
// cost model's step-by-step pricing.
//
//===----------------------------------------------------------------------===//

#include "runtime/cost/CollectiveCost.h"

#include "runtime/cost/CostModel.h"
#include "runtime/mesh/Topology.h"
#include "runtime/mesh/TpuGeneration.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <numeric>

namespace torus::rt {
namespace {

using ::testing::HasSubstr;

constexpr double kMiB = 1024.0 * 1024.0;

/// A chip mesh [x, y, z, cores] with every core a participant, in row-major
/// order (core fastest, then x, y, z).
MeshPlacement grid(std::array<int32_t, 4> shape, std::array<bool, 3> wrap) {
  MeshPlacement p;
  p.meshShape = shape;
  p.wraparound = wrap;
  for (int32_t z = 0; z < shape[2]; ++z)
    for (int32_t y = 0; y < shape[1]; ++y)
      for (int32_t x = 0; x < shape[0]; ++x)
        for (int32_t c = 0; c < shape[3]; ++c)
          p.coordinates.push_back({x, y, z, c});
  return p;
}

/// Only the participants `ids` of `p`, renumbered 0.. in that order.
MeshPlacement subset(const MeshPlacement &p, const std::vector<int64_t> &ids) {
  MeshPlacement q = p;
  q.coordinates.clear();
  for (int64_t id : ids)
    q.coordinates.push_back(p.coordinates[id]);
  return q;
}

/// The participant at (x, y, z, core) of grid().
int64_t idAt(const MeshPlacement &p, int32_t x, int32_t y, int32_t z,
             int32_t c = 0) {
  const auto &s = p.meshShape;
  return ((int64_t{z} * s[1] + y) * s[0] + x) * s[3] + c;
}

CollectiveOp f32Op(CollectiveOpKind kind, int64_t elements) {
  CollectiveOp op;
  op.kind = kind;
  op.dtype = DType::F32;
  op.shape = {elements};
  return op;
}

const TpuGeneration &v4() { return tpuGeneration(TpuVersion::V4); }

/// Prices `op`; the closed forms below are those of the unidirectional
/// schedule unless `bidirectional` (the default of IciParameters).
CollectiveCost cost(const CollectiveOp &op, const ReplicaGroups &groups,
                    const MeshPlacement &p,
                    CollectiveAlgorithm algorithm = CollectiveAlgorithm::Auto,
                    const TpuGeneration &gen = v4(),
                    bool bidirectional = false) {
  IciParameters ici = IciParameters::forGeneration(gen);
  ici.bidirectionalRings = bidirectional;
  ici.concurrentDimensionOrders = bidirectional;
  auto c = costCollective(op, groups, p, ici, algorithm);
  EXPECT_TRUE(c.ok()) << c.status();
  return c.ok() ? *c : CollectiveCost{};
}

void expectSeconds(double got, double expected) {
  EXPECT_NEAR(got, expected, expected * 1e-12) << "expected " << expected;
}

TEST(CollectiveCostTest, RingAllReduceOnAV4SliceIsTheClosedForm) {
  // v4-128 is a 4x4x4 torus. A replica group along x: 4 chips in a ring
  // whose neighbours (the wraparound included) are one hop apart.
  const MeshPlacement p = grid({4, 4, 4, 1}, {true, true, true});
  const double bw = v4().iciLinkBandwidth; // 50 GB/s per direction
  const double alpha = kEstimatedIciHopLatency;
  for (int64_t elements : {int64_t{1}, int64_t{1} << 18, int64_t{1} << 24}) {
    const CollectiveOp op = f32Op(CollectiveOpKind::AllReduce, elements);
    const double bytes = 4.0 * elements;
    const double n = 4;
    const double closedForm =
        2 * (n - 1) / n * bytes / bw + 2 * (n - 1) * alpha;
    const MeshPlacement line =
        subset(p, {idAt(p, 0, 1, 2), idAt(p, 1, 1, 2), idAt(p, 2, 1, 2),
                   idAt(p, 3, 1, 2)});
    CollectiveCost c = cost(op, {}, line, CollectiveAlgorithm::Ring);
    EXPECT_EQ(c.algorithm, CollectiveAlgorithm::Ring);
    EXPECT_EQ(c.steps, 6);
    EXPECT_EQ(c.maxHops, 1);
    EXPECT_EQ(c.maxLinkLoad, 1);
    expectSeconds(c.bandwidthSeconds, 2 * (n - 1) / n * bytes / bw);
    expectSeconds(c.latencySeconds, 2 * (n - 1) * alpha);
    expectSeconds(c.seconds, closedForm);
    // Auto picks the ring for a line (a grid of one dimension).
    expectSeconds(cost(op, {}, line).seconds, closedForm);

    // All 16 x-lines at once: disjoint links, the same time.
    ReplicaGroups lines;
    for (int32_t z = 0; z < 4; ++z)
      for (int32_t y = 0; y < 4; ++y)
        lines.push_back({idAt(p, 0, y, z), idAt(p, 1, y, z), idAt(p, 2, y, z),
                         idAt(p, 3, y, z)});
    CollectiveCost all = cost(op, lines, p);
    EXPECT_EQ(all.numGroups, 16);
    expectSeconds(all.seconds, closedForm);
  }
}

TEST(CollectiveCostTest, BidirectionalRingsHalveTheBandwidthTerm) {
  // Both directions of a wraparound ring: each step sends half the chunk
  // each way over separate directed links, so the bandwidth term halves and
  // the latency term stays.
  const MeshPlacement p = grid({4, 4, 4, 1}, {true, true, true});
  const double bw = v4().iciLinkBandwidth, alpha = kEstimatedIciHopLatency;
  const CollectiveOp op = f32Op(CollectiveOpKind::AllReduce, 1 << 20);
  const double bytes = 4.0 * (1 << 20), n = 4;
  const MeshPlacement line =
      subset(p, {idAt(p, 0, 0, 0), idAt(p, 1, 0, 0), idAt(p, 2, 0, 0),
                 idAt(p, 3, 0, 0)});
  CollectiveCost c = cost(op, {}, line, CollectiveAlgorithm::Ring, v4(),
                          /*bidirectional=*/true);
  EXPECT_EQ(c.steps, 6);
  EXPECT_EQ(c.maxLinkLoad, 1);
  expectSeconds(c.bandwidthSeconds, 2 * (n - 1) / n * bytes / 2 / bw);
  expectSeconds(c.latencySeconds, 2 * (n - 1) * alpha);
  EXPECT_THAT(c.detail, HasSubstr("bidirectional ring over 4"));

  // On a line without wraparound the message closing the ring travels back
  // over the links the other direction uses: two half chunks share each
  // link, so both directions buy nothing (the scaling book's "no
  // wraparound, no bidirectional ring").
  const MeshPlacement mesh = grid({4, 1, 1, 1}, {false, false, false});
  CollectiveCost open = cost(op, {}, mesh, CollectiveAlgorithm::Ring, v4(),
                             /*bidirectional=*/true);
  EXPECT_EQ(open.maxLinkLoad, 2);
  expectSeconds(open.bandwidthSeconds, 2 * (n - 1) / n * bytes / bw);
  expectSeconds(open.latencySeconds, 2 * (n - 1) * 3 * alpha);

  // Two members have one neighbour: the schedule is the unidirectional one.
  const MeshPlacement pair = grid({2, 1, 1, 1}, {false, false, false});
  expectSeconds(cost(op, {}, pair, CollectiveAlgorithm::Ring, v4(), true)
                    .seconds,
                cost(op, {}, pair, CollectiveAlgorithm::Ring, v4(), false)
                    .seconds);

}

TEST(CollectiveCostTest, TorusRunsEveryDimensionOrderAtOnce) {
  // An all-gather over a 4x4x4 torus: three parts of a third of the data
  // each, x-y-z, y-z-x and z-x-y at once, every ring bidirectional. The
  // cube is symmetric, so every phase costs what one part's does, and a
  // phase moves a third of the data of the one-order schedule, half each
  // way: the bandwidth term is 1/6 of the unidirectional single order's.
  const MeshPlacement p = grid({4, 4, 4, 1}, {true, true, true});
  const CollectiveOp op = f32Op(CollectiveOpKind::AllGather, 1 << 12);
  CollectiveCost torus = cost(op, {}, p, CollectiveAlgorithm::Auto, v4(), true);
  CollectiveCost oneWay =
      cost(op, {}, p, CollectiveAlgorithm::Auto, v4(), false);
  EXPECT_EQ(torus.algorithm, CollectiveAlgorithm::Torus);
  EXPECT_EQ(torus.steps, oneWay.steps);
  EXPECT_EQ(torus.steps, 9);
  // One order: three phases of 3 steps, chunks B/64, B/16 and B/4. Three
  // orders: in phase p every part moves (B/3)/64 * 4^p, half each way.
  const double bytes = 4.0 * (1 << 12) * 64, bw = v4().iciLinkBandwidth;
  const double third = bytes / 3;
  expectSeconds(torus.bandwidthSeconds,
                3 * (third / 64 + third / 16 + third / 4) / 2 / bw);
  expectSeconds(oneWay.bandwidthSeconds,
                3 * (bytes / 64 + bytes / 16 + bytes / 4) / bw);
  expectSeconds(torus.latencySeconds, oneWay.latencySeconds);
  EXPECT_THAT(torus.detail, HasSubstr("bidirectional rings along"));
  EXPECT_THAT(torus.detail, HasSubstr("3 dimension orders at once"));
}

TEST(CollectiveCostTest, TorusTakesTheFasterOfOneOrderAndAllOrders) {
  // v4-32: 2x2x4 chips, no wraparound. All orders at once keep the phases
  // in step, so every phase waits for a part on the 4-long z line: with
  // little data (latency-bound) one order is faster and is priced; with
  // much data the three orders' bandwidth wins.
  const MeshPlacement p = grid({2, 2, 4, 1}, {false, false, false});
  CollectiveCost small = cost(f32Op(CollectiveOpKind::AllReduce, 1 << 10), {},
                              p, CollectiveAlgorithm::Auto, v4(), true);
  EXPECT_EQ(small.steps, 2 + 2 + 6);
  EXPECT_THAT(small.detail, ::testing::Not(HasSubstr("orders at once")));
  CollectiveCost large = cost(f32Op(CollectiveOpKind::AllReduce, 1 << 24), {},
                              p, CollectiveAlgorithm::Auto, v4(), true);
  EXPECT_EQ(large.steps, 3 * 6);
  EXPECT_THAT(large.detail, HasSubstr("3 dimension orders at once"));
}

TEST(CollectiveCostTest, RingOnAMeshLinePaysTheLongWayBack) {
  // v4-32 is 2x2x4 without wraparound: a ring along z closes with 3 hops
  // back; every step waits for that message.
  const MeshPlacement p = grid({2, 2, 4, 1}, {false, false, false});
  const double bw = v4().iciLinkBandwidth, alpha = kEstimatedIciHopLatency;
  const CollectiveOp op = f32Op(CollectiveOpKind::AllReduce, 1 << 20);
  const double bytes = 4.0 * (1 << 20), n = 4;
  const MeshPlacement z = subset(p, {idAt(p, 1, 0, 0), idAt(p, 1, 0, 1),
                                     idAt(p, 1, 0, 2), idAt(p, 1, 0, 3)});
  CollectiveCost c = cost(op, {}, z, CollectiveAlgorithm::Ring);
  EXPECT_EQ(c.maxHops, 3);
  expectSeconds(c.seconds, 2 * (n - 1) * (bytes / n / bw + 3 * alpha));
}

TEST(CollectiveCostTest, GroupsSharingLinksAreCharged) {
  // On a 4-chip x ring, groups {0,2} and {1,3}: the two messages 0->2 and
  // 1->3 both cross the link 1->2 (and 2->0, 3->1 share 3->0), so every
  // step moves twice the bytes over the busiest link.
  const MeshPlacement p = grid({4, 1, 1, 1}, {true, false, false});
  const double bw = v4().iciLinkBandwidth, alpha = kEstimatedIciHopLatency;
  const CollectiveOp op = f32Op(CollectiveOpKind::AllReduce, 1 << 20);
  const double bytes = 4.0 * (1 << 20), n = 2;
  CollectiveCost c = cost(op, {{0, 2}, {1, 3}}, p);
  EXPECT_EQ(c.maxLinkLoad, 2);
  EXPECT_EQ(c.maxHops, 2);
  expectSeconds(c.seconds, 2 * (n - 1) * (2 * (bytes / n) / bw + 2 * alpha));
}

TEST(CollectiveCostTest, AllGatherAndReduceScatterRings) {
  const MeshPlacement p = grid({8, 1, 1, 1}, {true, false, false});
  const double bw = v4().iciLinkBandwidth, alpha = kEstimatedIciHopLatency;
  const double n = 8;
  // All-gather: B is the gathered result, n x the operand.
  CollectiveOp ag = f32Op(CollectiveOpKind::AllGather, 1000);
  const double gathered = 4.0 * 1000 * n;
  CollectiveCost c = cost(ag, {}, p);
  EXPECT_EQ(c.steps, 7);
  expectSeconds(c.bytes, gathered);
  expectSeconds(c.seconds, (n - 1) / n * gathered / bw + (n - 1) * alpha);
  // Reduce-scatter: B is the operand.
  CollectiveOp rs = f32Op(CollectiveOpKind::ReduceScatter, 8000);
  const double operand = 4.0 * 8000;
  c = cost(rs, {}, p);
  expectSeconds(c.seconds, (n - 1) / n * operand / bw + (n - 1) * alpha);
}

TEST(CollectiveCostTest, TorusAllReduceIsOneRingPerDimension) {
  // The whole v4-128: a 4x4x4 grid; dimension-ordered rings along x, y, z,
  // each on a quarter of the data left by the one before.
  const MeshPlacement p = grid({4, 4, 4, 1}, {true, true, true});
  const double bw = v4().iciLinkBandwidth, alpha = kEstimatedIciHopLatency;
  const CollectiveOp op = f32Op(CollectiveOpKind::AllReduce, 1 << 22);
  const double b = 4.0 * (1 << 22);
  double expected = 0;
  double data = b;
  for (int d = 0; d < 3; ++d) {
    const double k = 4;
    expected += 2 * (k - 1) * (data / k / bw + alpha);
    data /= k;
  }
  CollectiveCost c = cost(op, {}, p);
  EXPECT_EQ(c.algorithm, CollectiveAlgorithm::Torus);
  EXPECT_EQ(c.steps, 18);
  expectSeconds(c.seconds, expected);
  // Forcing one big ring in group order is slower: row ends jump rows.
  EXPECT_GT(cost(op, {}, p, CollectiveAlgorithm::Ring).seconds, c.seconds);

  // All-gather over the same grid: blocks grow from dimension to dimension.
  CollectiveOp ag = f32Op(CollectiveOpKind::AllGather, 1000);
  const double block = 4.0 * 1000;
  double agExpected = 0, held = block;
  for (int d = 0; d < 3; ++d) {
    agExpected += 3 * (held / bw + alpha);
    held *= 4;
  }
  expectSeconds(cost(ag, {}, p).seconds, agExpected);
}

TEST(CollectiveCostTest, TwoCoresPerChipShareTheChipsLinks) {
  // v3-8: mesh [2,2,1,2] without wraparound. The torus schedule runs the
  // on-chip pair first, then x, then y; in the x and y phases the rings of
  // core 0 and core 1 cross the same chip links (load 2).
  const TpuGeneration &v3 = tpuGeneration(TpuVersion::V3);
  const MeshPlacement p = grid({2, 2, 1, 2}, {false, false, false});
  const double bw = v3.iciLinkBandwidth, alpha = kEstimatedIciHopLatency;
  const double onChip = v3.hbmBandwidthPerCore;
  const CollectiveOp op = f32Op(CollectiveOpKind::AllReduce, 1 << 20);
  const double b = 4.0 * (1 << 20);
  const double expected = 2 * (b / 2 / onChip + kEstimatedOnChipLatency) +
                          2 * (2 * (b / 4) / bw + alpha) +
                          2 * (2 * (b / 8) / bw + alpha);
  CollectiveCost c = cost(op, {}, p, CollectiveAlgorithm::Auto, v3);
  EXPECT_EQ(c.algorithm, CollectiveAlgorithm::Torus);
  EXPECT_EQ(c.maxLinkLoad, 2);
  expectSeconds(c.seconds, expected);
}

/// The busiest directed link of a 1-D all-to-all among k chips on a ring of
/// `size` (wraparound when `wrap`), counted pair by pair.
int64_t lineLoad(int64_t k, bool wrap) {
  std::vector<int64_t> plus(k, 0), minus(k, 0);
  for (int64_t a = 0; a < k; ++a)
    for (int64_t b = 0; b < k; ++b) {
      if (a == b)
        continue;
      int64_t forward = ((b - a) % k + k) % k;
      bool goPlus = wrap && k > 2 ? forward <= k - forward : b > a;
      int64_t hops = wrap && k > 2 ? (goPlus ? forward : k - forward)
                                   : (b > a ? b - a : a - b);
      for (int64_t h = 0, at = a; h < hops; ++h)
        if (goPlus) {
          ++plus[at];
          at = (at + 1) % k;
        } else {
          ++minus[at];
          at = (at + k - 1) % k;
        }
    }
  int64_t most = 0;
  for (int64_t i = 0; i < k; ++i)
    most = std::max({most, plus[i], minus[i]});
  return most;
}

TEST(CollectiveCostTest, AllToAllFromLinkLoads) {
  const double bw = v4().iciLinkBandwidth, alpha = kEstimatedIciHopLatency;
  // A 4-chip x ring: each + link carries 3 of the 12 messages (the +1 and
  // +2 routes), the longest route is 2 hops.
  MeshPlacement ring = grid({4, 1, 1, 1}, {true, false, false});
  CollectiveOp op = f32Op(CollectiveOpKind::AllToAll, 4096);
  op.splitCount = 4;
  const double b = 4.0 * 4096;
  CollectiveCost c = cost(op, {}, ring);
  EXPECT_EQ(lineLoad(4, true), 3);
  EXPECT_EQ(c.maxLinkLoad, 3);
  EXPECT_EQ(c.maxHops, 2);
  expectSeconds(c.seconds, 3 * (b / 4) / bw + 2 * alpha);

  // The whole 4x4x4 torus: per axis, the line's load times the n/k pairs
  // that share each line.
  MeshPlacement cube = grid({4, 4, 4, 1}, {true, true, true});
  op.splitCount = 64;
  op.shape = {64 * 1024};
  const double b2 = 4.0 * 64 * 1024;
  c = cost(op, {}, cube);
  EXPECT_EQ(c.maxLinkLoad, lineLoad(4, true) * 64 / 4);
  EXPECT_EQ(c.maxHops, 6);
  expectSeconds(c.seconds, lineLoad(4, true) * 16 * (b2 / 64) / bw + 6 * alpha);

  // Groups that are no grid (a diagonal of a 3x2 mesh): every pair routed.
  // {(0,0), (1,1), (2,0)}: every route is 2 hops;
  // (0,0) -> (2,0) and (0,0) -> (1,1) share the link (0,0) -> (1,0).
  MeshPlacement mesh = grid({3, 2, 1, 1}, {false, false, false});
  op.splitCount = 3;
  op.shape = {3 * 100};
  const double b3 = 4.0 * 300;
  c = cost(op, {{0, 4, 2}, {1, 3, 5}}, mesh);
  EXPECT_EQ(c.maxHops, 2);
  EXPECT_EQ(c.maxLinkLoad, 2);
  expectSeconds(c.seconds, 2 * (b3 / 3) / bw + 2 * alpha);
}

TEST(CollectiveCostTest, PermuteRoutesEachPair) {
  const double bw = v4().iciLinkBandwidth, alpha = kEstimatedIciHopLatency;
  MeshPlacement p = grid({8, 1, 1, 1}, {true, false, false});
  CollectiveOp op = f32Op(CollectiveOpKind::CollectivePermute, 1 << 16);
  const double b = 4.0 * (1 << 16);
  for (int64_t r = 0; r < 8; ++r)
    op.pairs.push_back({r, (r + 1) % 8});
  CollectiveCost c = cost(op, {}, p);
  expectSeconds(c.seconds, b / bw + alpha);
  // A swap across the ring: 4 hops each way, and 0->4, 1->5 share links.
  op.pairs = {{0, 4}, {1, 5}};
  c = cost(op, {}, p);
  EXPECT_EQ(c.maxHops, 4);
  EXPECT_EQ(c.maxLinkLoad, 2);
  expectSeconds(c.seconds, 2 * b / bw + 4 * alpha);
}

TEST(CollectiveCostTest, SlicesFarLargerThanThisHost) {
  // v4-2048: 8x8x16 chips, 1024 devices. An all-reduce over all of them is
  // dimension-ordered over x (8), y (8), z (16).
  auto v4_2048 = Topology::fromPreset("v4-2048");
  ASSERT_TRUE(v4_2048.ok()) << v4_2048.status();
  auto placement = placementOnTopology(*v4_2048, 1024);
  ASSERT_TRUE(placement.ok()) << placement.status();
  const double bw = v4().iciLinkBandwidth, alpha = kEstimatedIciHopLatency;
  const CollectiveOp op = f32Op(CollectiveOpKind::AllReduce, 1 << 26);
  const double b = 4.0 * (1 << 26);
  const double expected = 2 * 7 * (b / 8 / bw + alpha) +
                          2 * 7 * (b / 64 / bw + alpha) +
                          2 * 15 * (b / 1024 / bw + alpha);
  CollectiveCost c = cost(op, {}, *placement);
  EXPECT_EQ(c.algorithm, CollectiveAlgorithm::Torus);
  expectSeconds(c.seconds, expected);

  // A whole v4 pod (16x16x16 = 4096 chips) and a v5p pod (16x20x28 = 8960
  // chips), as custom slices with their generation.
  for (auto [shape, version] :
       {std::pair{std::array<int32_t, 4>{16, 16, 16, 1}, TpuVersion::V4},
        std::pair{std::array<int32_t, 4>{16, 20, 28, 1}, TpuVersion::V5p}}) {
    SliceSpec spec;
    spec.name = "pod";
    spec.meshShape = shape;
    spec.chipsPerHost = {2, 2, 1};
    spec.wraparound = {true, true, true};
    spec.generation = &tpuGeneration(version);
    auto pod = Topology::fromSliceSpec(spec);
    ASSERT_TRUE(pod.ok()) << pod.status();
    const int64_t chips = int64_t{shape[0]} * shape[1] * shape[2];
    auto podPlacement = placementOnTopology(*pod, chips);
    ASSERT_TRUE(podPlacement.ok());
    const TpuGeneration &gen = tpuGeneration(version);
    double podExpected = 0, data = b;
    for (int d = 0; d < 3; ++d) {
      double k = shape[d];
      podExpected += 2 * (k - 1) * (data / k / gen.iciLinkBandwidth + alpha);
      data /= k;
    }
    expectSeconds(cost(op, {}, *podPlacement, CollectiveAlgorithm::Auto, gen)
                      .seconds,
                  podExpected);
    CollectiveOp a2a = f32Op(CollectiveOpKind::AllToAll, chips * 16);
    a2a.splitCount = chips;
    CollectiveCost all = cost(a2a, {}, *podPlacement,
                              CollectiveAlgorithm::Auto, gen);
    double load = 0;
    for (int d = 0; d < 3; ++d)
      load = std::max(load, double(lineLoad(shape[d], true)) * chips /
                                shape[d]);
    expectSeconds(all.bandwidthSeconds,
                  load * (4.0 * 16) / gen.iciLinkBandwidth);
  }
}

TEST(CollectiveCostTest, Errors) {
  MeshPlacement p = grid({4, 1, 1, 1}, {true, false, false});
  CollectiveOp rs = f32Op(CollectiveOpKind::ReduceScatter, 6);
  auto c = costCollective(rs, {}, p, IciParameters::forGeneration(v4()));
  EXPECT_EQ(c.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(c.status().message()),
              HasSubstr("not divisible by the 4 participants"));
  c = costCollective(f32Op(CollectiveOpKind::AllReduce, 4), {{0, 1}}, p,
                     IciParameters::forGeneration(v4()));
  EXPECT_THAT(std::string(c.status().message()),
              HasSubstr("replicas 2, 3 are in no group"));
  CollectiveOp bc = f32Op(CollectiveOpKind::Broadcast, 4);
  EXPECT_EQ(costCollective(bc, {}, p, IciParameters::forGeneration(v4()))
                .status()
                .code(),
            absl::StatusCode::kUnimplemented);
  // A group of one moves nothing.
  CollectiveCost none = cost(f32Op(CollectiveOpKind::AllReduce, 4),
                             {{0}, {1}, {2}, {3}}, p);
  EXPECT_EQ(none.seconds, 0);
}

} // namespace
} // namespace torus::rt
