//===- InProcessCommunicatorAllocationTest.cpp - No allocation per call ---===//
//
// A binary of its own: it interposes malloc (AllocationCounter.h). Each
// participant thread executes one collective a few times (warm-up: the
// pools and per-thread buffers grow), then, while the counter runs, ten more
// times with new invocation numbers, as a program's steps do. The counted
// calls must allocate nothing, for every kind, schedule and layout: the
// rendezvous are reused, not made. Results of the counted calls are checked
// so the calls demonstrably did their work. Under ThreadSanitizer (no hook)
// the calls run uncounted: a race check of the pooled paths.
//
//===----------------------------------------------------------------------===//

#include "runtime/collectives/CallNamed.h"
#include "runtime/collectives/InProcessCommunicator.h"
#include "runtime/testing/AllocationCounter.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cstring>
#include <functional>
#include <thread>
#include <vector>

namespace torus::rt {
namespace {

using testing::AllocationCounter;
using testing::callNamed;

constexpr int64_t kParticipants = 8;
constexpr int kWarmUp = 3;
constexpr int kCounted = 10;

/// A 2 x 2 mesh of 2-core chips holding participants 0..7 (core fastest):
/// Auto then runs all-reduce and all-gather as Torus over three dimensions.
MeshPlacement meshOf8() {
  MeshPlacement p;
  p.meshShape = {2, 2, 1, 2};
  for (int32_t i = 0; i < 8; ++i)
    p.coordinates.push_back({(i / 2) % 2, i / 4, 0, i % 2});
  return p;
}

struct Case {
  std::string name;
  CollectiveOp op;
  CommunicatorOptions options;
  ReplicaGroups groups;
  bool inPlace = false;
};

CollectiveOp allReduce(int64_t count) {
  CollectiveOp op;
  op.kind = CollectiveOpKind::AllReduce;
  op.dtype = DType::F32;
  op.shape = {count};
  return op;
}

CollectiveOp ofKind(CollectiveOpKind kind, Shape shape) {
  CollectiveOp op;
  op.kind = kind;
  op.dtype = DType::F32;
  op.shape = std::move(shape);
  return op;
}

std::vector<Case> cases() {
  std::vector<Case> all;
  CommunicatorOptions schedules; // every schedule at every size
  schedules.smallCollectiveBytes = 0;
  CommunicatorOptions ring = schedules, torus = schedules;
  ring.algorithm = CollectiveAlgorithm::Ring;
  torus.placement = meshOf8();

  all.push_back({"all-reduce, small (the last member does all)",
                 allReduce(100), {}, {}});
  all.push_back({"all-reduce, direct", allReduce(20000), schedules, {}});
  all.push_back({"all-reduce, ring, in place", allReduce(20000), ring, {},
                 /*inPlace=*/true});
  all.push_back({"all-reduce, torus", allReduce(20000), torus, {}});
  all.push_back({"all-reduce, two strided groups", allReduce(20000),
                 schedules, {{0, 2, 4, 6}, {1, 3, 5, 7}}});
  CollectiveOp gather = ofKind(CollectiveOpKind::AllGather, {3, 4, 5});
  gather.dimension = 1;
  all.push_back({"all-gather, direct", gather, schedules, {}});
  all.push_back({"all-gather, ring", gather, ring, {}});
  all.push_back({"all-gather, torus", gather, torus, {}});
  CollectiveOp scatter = ofKind(CollectiveOpKind::ReduceScatter, {3, 16, 5});
  scatter.dimension = 1;
  all.push_back({"reduce-scatter", scatter, schedules, {}});
  CollectiveOp toAll = ofKind(CollectiveOpKind::AllToAll, {8, 3, 4});
  toAll.splitDimension = 0;
  toAll.concatDimension = 2;
  toAll.splitCount = kParticipants;
  all.push_back({"all-to-all, in place (staged)", toAll, schedules, {},
                 /*inPlace=*/true});
  CollectiveOp permute = ofKind(CollectiveOpKind::CollectivePermute, {64});
  for (int64_t i = 0; i < kParticipants; ++i)
    permute.pairs.push_back({i, (i + 3) % kParticipants});
  all.push_back({"collective-permute, in place (staged)", permute, schedules,
                 {}, /*inPlace=*/true});
  CollectiveOp broadcast = ofKind(CollectiveOpKind::Broadcast, {100000});
  broadcast.root = 5;
  all.push_back({"broadcast, ring", broadcast, ring, {}});
  return all;
}

/// Runs `c` on one thread per participant: kWarmUp calls, then kCounted
/// calls while counting. Returns the allocations counted; `statuses` gets
/// each participant's first failure.
int64_t countedCalls(InProcessCommunicator &comm, const Case &c,
                     std::vector<std::vector<float>> &in,
                     std::vector<std::vector<float>> &out,
                     std::vector<absl::Status> &statuses) {
  std::atomic<int64_t> warmedUp{0}, finished{0};
  std::atomic<bool> go{false};
  std::vector<std::thread> threads;
  for (int64_t r = 0; r < kParticipants; ++r)
    threads.emplace_back([&, r] {
      for (int i = 0; i < kWarmUp + kCounted; ++i) {
        if (i == kWarmUp) {
          warmedUp.fetch_add(1);
          while (!go.load())
            std::this_thread::yield();
        }
        void *to = c.inPlace ? in[r].data() : out[r].data();
        absl::Status s =
            callNamed(comm, CollectiveKey{0, 4, static_cast<uint64_t>(i)}, r,
                      c.groups, c.op, in[r].data(), to);
        if (!s.ok() && statuses[r].ok())
          statuses[r] = s;
      }
      finished.fetch_add(1);
    });
  while (warmedUp.load() < kParticipants)
    std::this_thread::yield();
  int64_t allocations = 0;
  {
    AllocationCounter counter;
    go.store(true);
    while (finished.load() < kParticipants)
      std::this_thread::yield();
    allocations = counter.stop();
  }
  for (auto &t : threads)
    t.join();
  return allocations;
}

TEST(InProcessCommunicatorAllocationTest, SteadyStateCallsAllocateNothing) {
  // Without the hook (sanitizer builds) the calls still run, for the
  // sanitizer to watch the pooled rendezvous being reused.
  const bool counted = AllocationCounter::hookInstalled();
  for (const Case &c : cases()) {
    SCOPED_TRACE(c.name);
    auto comm = InProcessCommunicator::create(kParticipants, c.options);
    ASSERT_TRUE(comm.ok()) << comm.status();
    const int64_t groupSize =
        c.groups.empty() ? kParticipants
                         : static_cast<int64_t>(c.groups[0].size());
    const size_t inCount = static_cast<size_t>(numElements(c.op.shape));
    const size_t outCount =
        static_cast<size_t>(c.op.resultBytes(groupSize)) / sizeof(float);
    std::vector<std::vector<float>> in(kParticipants), out(kParticipants);
    for (int64_t r = 0; r < kParticipants; ++r) {
      in[r].assign(std::max(inCount, outCount), 0.0f);
      out[r].assign(outCount, -1.0f);
      for (size_t i = 0; i < inCount; ++i)
        in[r][i] = static_cast<float>(r == 0 ? 1 : 0);
    }
    std::vector<absl::Status> statuses(kParticipants);
    const int64_t allocations = countedCalls(**comm, c, in, out, statuses);
    for (int64_t r = 0; r < kParticipants; ++r)
      ASSERT_TRUE(statuses[r].ok()) << "participant " << r << ": "
                                    << statuses[r];
    if (counted)
      EXPECT_EQ(allocations, 0)
          << kCounted << " calls on " << kParticipants << " threads";
    EXPECT_EQ((*comm)->numPendingRendezvous(), 0u);
    // At most two executions of one group are in flight at once (a fast
    // member may start the next while slow ones leave the last).
    const size_t groups = c.groups.empty() ? 1 : c.groups.size();
    EXPECT_LE((*comm)->numPooledRendezvous(), 2 * groups);
    // The calls did their work: participant 0's ones arrived everywhere.
    if (c.op.kind == CollectiveOpKind::AllReduce && !c.inPlace)
      for (int64_t r = 0; r < kParticipants; ++r) {
        const bool withZero = c.groups.empty() || r % 2 == 0;
        EXPECT_EQ(out[r][inCount - 1], withZero ? 1.0f : 0.0f)
            << "participant " << r;
      }
  }
}

TEST(InProcessCommunicatorAllocationTest, TheCounterSeesAllocations) {
  // Sanitizer builds only (the sanitizer owns malloc); decided at compile
  // time, so the ordinary build always counts.
  if (!AllocationCounter::hookInstalled())
    GTEST_SKIP() << "malloc is the sanitizer's: nothing to count";
  AllocationCounter counter;
  auto *volatile p = new std::vector<int>(100);
  const int64_t seen = counter.stop();
  delete p;
  EXPECT_EQ(seen, 2); // the vector object and its elements
}

} // namespace
} // namespace torus::rt
