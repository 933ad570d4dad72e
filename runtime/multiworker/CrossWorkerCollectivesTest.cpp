//===- CrossWorkerCollectivesTest.cpp - Every collective across workers ---===//
//
// All-gather, reduce-scatter, all-to-all, collective-permute and broadcast
// through the CrossWorkerCommunicator, over 2 to 4 forked worker processes
// with 1 to 3 emulated cores each: every participant's result equals the
// single-threaded reference (ReferenceCollectives) over all participants,
// byte for byte. Integer reductions (exact in any order) and floats that only
// move.
//
//===----------------------------------------------------------------------===//

#include "runtime/multiworker/CrossWorkerCommunicator.h"
#include "runtime/multiworker/ForkedWorkers.h"

#include "runtime/RuntimeAbi.h"
#include "runtime/collectives/ReferenceCollectives.h"
#include "runtime/executor/Executor.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <csignal>
#include <cstring>
#include <thread>

namespace torus::rt {
namespace {

using testing::makeTempDirectory;
using testing::runForkedWorkers;
using testing::WorkerOutcome;

/// Participant `p`'s operand: distinct values per participant and element.
Bytes operandOf(const CollectiveOp &op, int64_t p) {
  const int64_t n = op.operandBytes() / static_cast<int64_t>(byteWidth(op.dtype));
  Bytes bytes(static_cast<size_t>(op.operandBytes()));
  for (int64_t i = 0; i < n; ++i) {
    if (op.dtype == DType::F32) {
      float v = static_cast<float>(p) * 1000.f + static_cast<float>(i) + 0.25f;
      std::memcpy(bytes.data() + i * 4, &v, 4);
    } else { // I32
      int32_t v = static_cast<int32_t>((p + 1) * (i % 17 + 3) - 7 * (p % 3));
      std::memcpy(bytes.data() + i * 4, &v, 4);
    }
  }
  return bytes;
}

absl::Status runOp(CrossWorkerCommunicator &comm, const CollectiveKey &key,
                   int64_t replica, const CollectiveOp &op, const void *in,
                   void *out, const ReplicaGroups &groups = {}) {
  const absl::Duration t = absl::Seconds(20);
  switch (op.kind) {
  case CollectiveOpKind::AllGather:
    return comm.allGather(key, replica, groups, op.dtype, op.shape,
                          op.dimension, in, out, t);
  case CollectiveOpKind::ReduceScatter:
    return comm.reduceScatter(key, replica, groups, op.reduce, op.dtype,
                              op.shape, op.dimension, in, out, t);
  case CollectiveOpKind::AllToAll:
    return comm.allToAll(key, replica, groups, op.dtype, op.shape,
                         op.splitDimension, op.concatDimension, op.splitCount,
                         in, out, t);
  case CollectiveOpKind::CollectivePermute:
    return comm.collectivePermute(key, replica, op.pairs, op.dtype, op.shape,
                                  in, out, t);
  case CollectiveOpKind::Broadcast:
    return comm.broadcast(key, replica, groups, op.root, op.dtype, op.shape,
                          in, out, t);
  case CollectiveOpKind::AllReduce:
    return comm.allReduce(key, replica, groups, op.reduce, op.dtype,
                          numElements(op.shape), in, out, t);
  }
  return absl::InternalError("not a collective of this test");
}

/// The collectives of a job with P participants.
std::vector<CollectiveOp> opsFor(int64_t P) {
  std::vector<CollectiveOp> ops;
  CollectiveOp op;
  op.dtype = DType::F32;
  op.kind = CollectiveOpKind::AllGather;
  op.shape = {2, 3};
  op.dimension = 1; // interleaved blocks
  ops.push_back(op);
  op.dimension = 0;
  op.shape = {3, 2};
  ops.push_back(op);

  op = CollectiveOp();
  op.kind = CollectiveOpKind::ReduceScatter;
  op.dtype = DType::I32;
  op.reduce = ReduceKind::Sum;
  op.shape = {2 * P, 3};
  op.dimension = 0;
  ops.push_back(op);
  op.reduce = ReduceKind::Max;
  op.shape = {2, P};
  op.dimension = 1;
  ops.push_back(op);
  op.shape = {1, 2 * P}; // blocks contiguous behind a leading 1
  ops.push_back(op);

  op = CollectiveOp();
  op.kind = CollectiveOpKind::AllToAll;
  op.dtype = DType::F32;
  op.shape = {2 * P, 3};
  op.splitDimension = 0;
  op.concatDimension = 1;
  op.splitCount = P;
  ops.push_back(op);
  op.shape = {3, P};
  op.splitDimension = 1;
  op.concatDimension = 0;
  ops.push_back(op);
  op.shape = {2 * P, 3}; // whole blocks on both sides
  op.splitDimension = 0;
  ops.push_back(op);
  op.shape = {1, 2 * P};
  op.splitDimension = 1;
  op.concatDimension = 1;
  ops.push_back(op);

  op = CollectiveOp();
  op.kind = CollectiveOpKind::CollectivePermute;
  op.dtype = DType::F32;
  op.shape = {5};
  for (int64_t p = 0; p < P; ++p) // a ring: every pair of workers talks
    op.pairs.push_back({p, (p + 1) % P});
  ops.push_back(op);
  op.pairs = {{0, P - 1}}; // one pair; every other target gets zeros
  ops.push_back(op);
  op.pairs = {{0, 0}, {P - 1, 1}}; // one stays put
  ops.push_back(op);

  op = CollectiveOp();
  op.kind = CollectiveOpKind::Broadcast;
  op.dtype = DType::I32;
  op.shape = {4, 3};
  op.root = P - 1; // the last worker's last replica
  ops.push_back(op);
  op.root = P > 2 ? 1 : 0;
  ops.push_back(op);
  return ops;
}

/// Runs every op on `workers` processes of `cores` threads; "" or the first
/// mismatch.
std::vector<WorkerOutcome> runEveryCollective(int workers, int cores) {
  std::string dir = makeTempDirectory("torus-cwcoll");
  return runForkedWorkers(workers, [&](int w) -> std::string {
    WorkerGroupOptions o;
    o.rank = w;
    o.size = workers;
    o.rendezvousDirectory = dir;
    auto group = WorkerGroup::connect(o);
    if (!group.ok())
      return std::string(group.status().ToString());
    auto local = InProcessCommunicator::create(cores);
    if (!local.ok())
      return std::string(local.status().ToString());
    CrossWorkerCommunicator comm(**local, *group);
    const int64_t P = comm.numGlobalReplicas();
    const std::vector<CollectiveOp> ops = opsFor(P);
    // The reference: every participant's result, computed here from every
    // participant's operand.
    std::vector<std::vector<Bytes>> want;
    for (const CollectiveOp &op : ops) {
      std::vector<Bytes> inputs;
      for (int64_t p = 0; p < P; ++p)
        inputs.push_back(operandOf(op, p));
      want.push_back(referenceCollective(op, {}, inputs));
    }
    std::vector<std::string> errors(cores);
    std::vector<std::thread> threads;
    for (int c = 0; c < cores; ++c)
      threads.emplace_back([&, c] {
        const int64_t p = w * cores + c;
        for (size_t k = 0; k < ops.size() && errors[c].empty(); ++k) {
          const CollectiveOp &op = ops[k];
          Bytes in = operandOf(op, p);
          Bytes out(static_cast<size_t>(op.resultBytes(P)), 0xAB);
          absl::Status s =
              runOp(comm, {0, static_cast<int64_t>(k), 0}, c, op, in.data(),
                    out.data());
          if (!s.ok())
            errors[c] = fmt::format("{}: {}", op.describe(), s.ToString());
          else if (out != want[k][p])
            errors[c] = fmt::format("{} (#{}): participant {} differs from "
                                    "the reference",
                                    op.describe(), k, p);
        }
      });
    for (auto &t : threads)
      t.join();
    for (auto &e : errors)
      if (!e.empty())
        return e;
    return "";
  });
}

TEST(CrossWorkerCollectivesTest, TwoWorkersOfTwoCores) {
  auto outcomes = runEveryCollective(2, 2);
  for (size_t w = 0; w < outcomes.size(); ++w)
    EXPECT_EQ(outcomes[w].result, "") << "worker " << w;
}

TEST(CrossWorkerCollectivesTest, ThreeWorkersOfThreeCores) {
  auto outcomes = runEveryCollective(3, 3);
  for (size_t w = 0; w < outcomes.size(); ++w)
    EXPECT_EQ(outcomes[w].result, "") << "worker " << w;
}

TEST(CrossWorkerCollectivesTest, FourWorkersOfOneCore) {
  auto outcomes = runEveryCollective(4, 1);
  for (size_t w = 0; w < outcomes.size(); ++w)
    EXPECT_EQ(outcomes[w].result, "") << "worker " << w;
}

/// The collectives of groups of `n` participants (subset groups).
std::vector<CollectiveOp> groupOpsFor(int64_t n) {
  std::vector<CollectiveOp> ops;
  CollectiveOp op;
  op.kind = CollectiveOpKind::AllReduce;
  op.dtype = DType::F32;
  op.reduce = ReduceKind::Sum;
  op.shape = {7};
  ops.push_back(op);
  op.reduce = ReduceKind::Max;
  ops.push_back(op);
  op = CollectiveOp();
  op.kind = CollectiveOpKind::AllGather;
  op.dtype = DType::F32;
  op.shape = {2, 3};
  op.dimension = 1;
  ops.push_back(op);
  op = CollectiveOp();
  op.kind = CollectiveOpKind::ReduceScatter;
  op.dtype = DType::F32;
  op.reduce = ReduceKind::Sum;
  op.shape = {2 * n, 3};
  op.dimension = 0;
  ops.push_back(op);
  op = CollectiveOp();
  op.kind = CollectiveOpKind::AllToAll;
  op.dtype = DType::I32;
  op.shape = {3, 2 * n};
  op.splitDimension = 1;
  op.concatDimension = 0;
  op.splitCount = n;
  ops.push_back(op);
  op = CollectiveOp();
  op.kind = CollectiveOpKind::Broadcast;
  op.dtype = DType::F32;
  op.shape = {4};
  op.root = n - 1;
  ops.push_back(op);
  return ops;
}

/// With global participant ids (a program spread over the workers), every
/// collective over replica groups that are not everyone: the 2 x 2 data x
/// model-parallel groups (a replica's partitions, a partition's replicas),
/// groups listed out of order, and everyone (the hierarchical path). Every
/// participant's result equals the reference byte for byte, float sums
/// included (group order, as on one process).
std::vector<WorkerOutcome> runSubsetGroups(int workers, int cores) {
  std::string dir = makeTempDirectory("torus-cwcoll-groups");
  return runForkedWorkers(workers, [&](int w) -> std::string {
    WorkerGroupOptions o;
    o.rank = w;
    o.size = workers;
    o.rendezvousDirectory = dir;
    auto group = WorkerGroup::connect(o);
    if (!group.ok())
      return std::string(group.status().ToString());
    auto local = InProcessCommunicator::create(cores);
    if (!local.ok())
      return std::string(local.status().ToString());
    CrossWorkerCommunicator comm(**local, *group, ParticipantIds::Global);
    const int64_t P = comm.numGlobalReplicas();
    if (comm.numReplicas() != P)
      return fmt::format("numReplicas() {} with global ids, want {}",
                         comm.numReplicas(), P);
    const std::vector<ReplicaGroups> groupLists = {
        {{0, 1}, {2, 3}}, {{0, 2}, {1, 3}}, {{3, 0}, {2, 1}}, {}};
    std::vector<std::string> errors(cores);
    std::vector<std::thread> threads;
    int64_t k = 0;
    for (const ReplicaGroups &groups : groupLists) {
      const int64_t n = groups.empty() ? P : groups[0].size();
      const std::vector<CollectiveOp> ops = groupOpsFor(n);
      std::vector<std::vector<Bytes>> want;
      for (const CollectiveOp &op : ops) {
        std::vector<Bytes> inputs;
        for (int64_t p = 0; p < P; ++p)
          inputs.push_back(operandOf(op, p));
        want.push_back(referenceCollective(op, groups, inputs));
      }
      for (int c = 0; c < cores; ++c)
        threads.emplace_back([&, c, k] {
          const int64_t p = w * cores + c;
          for (size_t i = 0; i < ops.size() && errors[c].empty(); ++i) {
            const CollectiveOp &op = ops[i];
            Bytes in = operandOf(op, p);
            Bytes out(want[i][p].size(), 0xAB);
            absl::Status s =
                runOp(comm, {0, k + static_cast<int64_t>(i), 0}, p, op,
                      in.data(), out.data(), groups);
            if (!s.ok())
              errors[c] = fmt::format("{} over {}: {}", op.describe(),
                                      replicaGroupsToString(groups),
                                      s.ToString());
            else if (out != want[i][p])
              errors[c] = fmt::format("{} over {}: participant {} differs "
                                      "from the reference",
                                      op.describe(),
                                      replicaGroupsToString(groups), p);
          }
        });
      for (auto &t : threads)
        t.join();
      threads.clear();
      k += 100;
    }
    for (auto &e : errors)
      if (!e.empty())
        return e;
    // Another worker's participant id is refused, naming the range.
    float x[7] = {};
    const int64_t other = ((w + 1) % workers) * cores;
    absl::Status s = comm.allReduce({0, 999, 0}, other, {{0, 1}, {2, 3}},
                                    ReduceKind::Sum, DType::F32, 7, x, x,
                                    absl::Seconds(5));
    if (s.code() != absl::StatusCode::kInvalidArgument ||
        s.message().find("does not run on") == std::string::npos)
      return "participant " + std::to_string(other) + ": " + s.ToString();
    return "";
  });
}

TEST(CrossWorkerCollectivesTest, SubsetGroupsWithGlobalIdsFourWorkersOfOne) {
  auto outcomes = runSubsetGroups(4, 1);
  for (size_t w = 0; w < outcomes.size(); ++w)
    EXPECT_EQ(outcomes[w].result, "") << "worker " << w;
}

TEST(CrossWorkerCollectivesTest, SubsetGroupsWithGlobalIdsTwoWorkersOfTwo) {
  auto outcomes = runSubsetGroups(2, 2);
  for (size_t w = 0; w < outcomes.size(); ++w)
    EXPECT_EQ(outcomes[w].result, "") << "worker " << w;
}

TEST(CrossWorkerCollectivesTest, BadOperandsAreRejectedBeforeAnyTraffic) {
  std::string dir = makeTempDirectory("torus-cwcoll-bad");
  auto outcomes = runForkedWorkers(2, [&](int w) -> std::string {
    WorkerGroupOptions o;
    o.rank = w;
    o.size = 2;
    o.rendezvousDirectory = dir;
    auto group = WorkerGroup::connect(o);
    if (!group.ok())
      return std::string(group.status().ToString());
    auto local = InProcessCommunicator::create(1);
    if (!local.ok())
      return std::string(local.status().ToString());
    CrossWorkerCommunicator comm(**local, *group);
    float x[3] = {};
    // 3 rows cannot be scattered over 2 participants.
    absl::Status s = comm.reduceScatter({0, 0, 0}, 0, {}, ReduceKind::Sum,
                                        DType::F32, {3}, 0, x, x,
                                        absl::Seconds(5));
    if (s.code() != absl::StatusCode::kInvalidArgument)
      return "reduce-scatter: " + std::string(s.ToString());
    // Pair ids are global: 2 is outside 0..1.
    s = comm.collectivePermute({0, 1, 0}, 0, {{0, 2}}, DType::F32, {3}, x, x,
                               absl::Seconds(5));
    if (s.code() != absl::StatusCode::kInvalidArgument)
      return "permute: " + std::string(s.ToString());
    return "";
  });
  for (size_t w = 0; w < outcomes.size(); ++w)
    EXPECT_EQ(outcomes[w].result, "") << "worker " << w;
}

TEST(CrossWorkerCollectivesTest, KilledWorkerIsNamedByEveryCoreOfTheOthers) {
  std::string dir = makeTempDirectory("torus-cwcoll-killed");
  const int workers = 3, cores = 2;
  auto outcomes = runForkedWorkers(workers, [&](int w) -> std::string {
    WorkerGroupOptions o;
    o.rank = w;
    o.size = workers;
    o.names = {"chief 0", "worker 0", "worker 1"};
    o.rendezvousDirectory = dir;
    o.timeout = absl::Seconds(10);
    auto group = WorkerGroup::connect(o);
    if (!group.ok())
      return std::string(group.status().ToString());
    auto local = InProcessCommunicator::create(cores);
    if (!local.ok())
      return std::string(local.status().ToString());
    CrossWorkerCommunicator comm(**local, *group);
    const int64_t P = comm.numGlobalReplicas();
    // all-to-all, permute and all-gather in turn until worker 1 dies.
    const std::vector<CollectiveOp> ops = opsFor(P);
    std::vector<std::string> errors(cores);
    std::vector<std::thread> threads;
    for (int c = 0; c < cores; ++c)
      threads.emplace_back([&, c] {
        for (uint64_t step = 0; step < 200; ++step) {
          if (w == 2 && step == 5)
            raise(SIGKILL);
          const CollectiveOp &op = ops[(step * 3) % ops.size()];
          Bytes in = operandOf(op, w * cores + c);
          Bytes out(static_cast<size_t>(op.resultBytes(P)));
          absl::Status s =
              runOp(comm, {0, static_cast<int64_t>(step), 0}, c, op,
                    in.data(), out.data());
          if (!s.ok()) {
            errors[c] = std::string(s.ToString());
            return;
          }
        }
        errors[c] = "never failed";
      });
    for (auto &t : threads)
      t.join();
    // The leader names the dead worker; the other core was aborted by it.
    if (errors[0].find("worker 1 is down") == std::string::npos)
      return "core 0: " + errors[0];
    if (errors[1].find("worker 1 is down") == std::string::npos)
      return "core 1: " + errors[1];
    return "";
  });
  EXPECT_EQ(outcomes[2].result, "killed");
  for (int w : {0, 1})
    EXPECT_EQ(outcomes[w].result, "") << "worker " << w;
}

// A program whose devices span the workers: out0 = all_gather(x) (f32[2]
// from each of P devices, so f32[2P]); out1 = collective_permute(x) along
// the ring p -> p + 1 over global ids.
void gatherAndShiftEntry(void **buffers) {
  __torus_collective(0, buffers[0], buffers[1]);
  __torus_collective(1, buffers[0], buffers[2]);
}

Program gatherAndShift(int64_t cores, int64_t P) {
  Program p;
  p.spec.name = "gather_and_shift";
  p.spec.numReplicas = cores;
  TensorSpec x{DType::F32, {2}};
  p.spec.inputs = {x};
  p.spec.outputs = {TensorSpec{DType::F32, {2 * P}}, x};
  CollectiveSpec gather;
  gather.kind = CollectiveKind::AllGather;
  gather.operand = x;
  gather.result = p.spec.outputs[0];
  CollectiveSpec shift;
  shift.kind = CollectiveKind::CollectivePermute;
  shift.operand = x;
  shift.result = x;
  for (int64_t i = 0; i < P; ++i)
    shift.sourceTargetPairs.push_back({i, (i + 1) % P});
  p.spec.collectives = {gather, shift};
  p.entry = &gatherAndShiftEntry;
  return p;
}

TEST(CrossWorkerCollectivesTest, ProgramsGatherAndPermuteAcrossWorkers) {
  std::string dir = makeTempDirectory("torus-cwcoll-programs");
  const int workers = 2, cores = 2, P = workers * cores;
  auto outcomes = runForkedWorkers(workers, [&](int w) -> std::string {
    WorkerGroupOptions o;
    o.rank = w;
    o.size = workers;
    o.rendezvousDirectory = dir;
    auto group = WorkerGroup::connect(o);
    if (!group.ok())
      return std::string(group.status().ToString());
    ExecutorOptions options;
    options.numCores = cores;
    options.collectiveTimeout = absl::Seconds(20);
    options.numWorkers = workers;
    options.wrapCommunicator = [peers = *group](InProcessCommunicator &local)
        -> absl::StatusOr<std::unique_ptr<Communicator>> {
      return std::make_unique<CrossWorkerCommunicator>(local, peers);
    };
    auto executor = Executor::create(options);
    if (!executor.ok())
      return std::string(executor.status().ToString());
    // Device (w, c) is global participant g = w * cores + c, holding
    // {10g, 10g + 1}.
    auto x = [](int64_t g) {
      return HostTensor::fromVector<float>(
          {2}, {float(10 * g), float(10 * g + 1)});
    };
    std::vector<std::vector<HostTensor>> inputs;
    for (int64_t c = 0; c < cores; ++c)
      inputs.push_back({x(w * cores + c)});
    auto run = (*executor)->run(gatherAndShift(cores, P), inputs);
    if (!run.ok())
      return "run: " + std::string(run.status().ToString());
    for (int64_t c = 0; c < cores; ++c) {
      const int64_t g = w * cores + c;
      auto gathered = (*run)[c][0].data<float>();
      for (int64_t i = 0; i < 2 * P; ++i)
        if (gathered[i] != float(10 * (i / 2) + i % 2))
          return fmt::format("device {}: gathered[{}] = {}", g, i,
                             gathered[i]);
      auto shifted = (*run)[c][1].data<float>();
      const int64_t from = (g + P - 1) % P;
      if (shifted[0] != float(10 * from) || shifted[1] != float(10 * from + 1))
        return fmt::format("device {}: got {} {} from the permute, want "
                           "device {}'s",
                           g, shifted[0], shifted[1], from);
    }
    // Without numWorkers the executor checks the program against this
    // worker's devices alone and refuses the global result type.
    ExecutorOptions alone = options;
    alone.numWorkers = 1;
    auto single = Executor::create(alone);
    if (!single.ok())
      return std::string(single.status().ToString());
    auto refused = (*single)->run(gatherAndShift(cores, P), inputs);
    if (refused.status().code() != absl::StatusCode::kInvalidArgument)
      return "numWorkers 1: " + std::string(refused.status().ToString());
    return "";
  });
  for (int w = 0; w < workers; ++w)
    EXPECT_EQ(outcomes[w].result, "") << "worker " << w;
}

} // namespace
} // namespace torus::rt
