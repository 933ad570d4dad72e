//===- ExecutorCollectivesTest.cpp - Every collective kind in programs ----===//
//
// Programs (hand-written entries with the generated signature) that call
// each collective kind through the C ABI, run by the executor on many cores,
// compared byte for byte with ReferenceCollectives; partitions and
// partition ids; and the 256-core program with all-reduces.
//
//===----------------------------------------------------------------------===//

#include "runtime/executor/Executor.h"

#include "runtime/RuntimeAbi.h"
#include "runtime/collectives/CollectiveOp.h"
#include "runtime/collectives/ReferenceCollectives.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <numeric>

namespace torus::rt {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::StartsWith;

std::string msg(const absl::Status &s) { return std::string(s.message()); }

std::unique_ptr<Executor> makeExecutor(int64_t cores) {
  auto executor = Executor::create(cores);
  EXPECT_TRUE(executor.ok()) << executor.status();
  return std::move(*executor);
}

// in -> collective #0 -> out.
void oneCollectiveEntry(void **buffers) {
  __torus_collective(0, buffers[0], buffers[1]);
}

Program oneCollective(int64_t replicas, CollectiveSpec c) {
  Program p;
  p.spec.name = "one_collective";
  p.spec.numReplicas = replicas;
  p.spec.inputs = {c.operand};
  p.spec.outputs = {c.result};
  p.spec.collectives = {std::move(c)};
  p.entry = &oneCollectiveEntry;
  return p;
}

Bytes operandBytes(const TensorSpec &spec, int64_t device) {
  Bytes b(spec.sizeInBytes());
  for (size_t i = 0; i < b.size(); ++i)
    b[i] = static_cast<unsigned char>((device * 131 + i * 17 + (i >> 8)) % 251);
  // Make float payloads finite and ordinary: clear the exponent's top bit.
  size_t width = byteWidth(spec.dtype);
  if (isFloat(spec.dtype))
    for (size_t i = width - 1; i < b.size(); i += width)
      b[i] &= 0x3f;
  return b;
}

/// Runs `c` as a program on `devices` logical devices (replicas x
/// partitions) and compares every output with the reference.
void checkProgram(CollectiveSpec c, int64_t replicas, int64_t partitions = 1,
                  std::vector<int64_t> replicaToCore = {}) {
  const int64_t devices = replicas * partitions;
  CollectiveOp op = collectiveOpFromSpec(c);
  int64_t g = c.replicaGroups.empty()
                  ? devices
                  : static_cast<int64_t>(c.replicaGroups[0].size());
  if (c.kind == CollectiveKind::CollectivePermute)
    g = devices;
  c.result = TensorSpec{op.dtype, op.resultShape(g)};
  SCOPED_TRACE(::testing::Message()
               << collectiveKindName(c.kind) << " " << op.describe() << " on "
               << replicas << "x" << partitions << " groups "
               << replicaGroupsToString(c.replicaGroups));
  auto executor = makeExecutor(std::max<int64_t>(devices + 3, 12));
  Program program = oneCollective(replicas, c);
  std::vector<Bytes> operands(devices);
  std::vector<std::vector<HostTensor>> inputs(devices);
  for (int64_t d = 0; d < devices; ++d) {
    operands[d] = operandBytes(c.operand, d);
    HostTensor t(c.operand);
    if (!operands[d].empty())
      std::memcpy(t.rawData(), operands[d].data(), operands[d].size());
    inputs[d].push_back(std::move(t));
  }
  RunOptions options;
  options.numPartitions = partitions;
  options.replicaToCore = std::move(replicaToCore);
  auto result = executor->run(program, inputs, options);
  ASSERT_TRUE(result.ok()) << result.status();
  std::vector<Bytes> expected =
      referenceCollective(op, c.replicaGroups, operands);
  for (int64_t d = 0; d < devices; ++d) {
    const HostTensor &out = (*result)[d][0];
    ASSERT_EQ(out.spec(), c.result);
    ASSERT_EQ(out.sizeInBytes(), expected[d].size());
    ASSERT_EQ(std::memcmp(out.rawData(), expected[d].data(),
                          expected[d].size()),
              0)
        << "device " << d;
  }
}

CollectiveSpec spec(CollectiveKind kind, TensorSpec operand) {
  CollectiveSpec c;
  c.kind = kind;
  c.operand = std::move(operand);
  c.location = "step.mlir:7:3";
  return c;
}

TEST(ExecutorCollectivesTest, EveryKindMatchesTheReference) {
  for (int64_t n : {1, 2, 5, 8, 16}) {
    CollectiveSpec ar = spec(CollectiveKind::AllReduce,
                             TensorSpec{DType::F32, {3, 7}});
    ar.reduce = ReduceKind::Max;
    checkProgram(ar, n);
    CollectiveSpec ag =
        spec(CollectiveKind::AllGather, TensorSpec{DType::BF16, {3, 5}});
    ag.dimension = 1;
    checkProgram(ag, n);
    CollectiveSpec rs =
        spec(CollectiveKind::ReduceScatter, TensorSpec{DType::I64, {2 * n, 3}});
    rs.reduce = ReduceKind::Sum;
    checkProgram(rs, n);
    CollectiveSpec a2a =
        spec(CollectiveKind::AllToAll, TensorSpec{DType::I32, {n, 4 * n}});
    a2a.splitDimension = 1;
    a2a.concatDimension = 0;
    a2a.splitCount = n;
    checkProgram(a2a, n);
    CollectiveSpec permute =
        spec(CollectiveKind::CollectivePermute, TensorSpec{DType::F64, {33}});
    for (int64_t r = 0; r + 1 < n; ++r)
      permute.sourceTargetPairs.push_back({r + 1, r}); // shift left
    checkProgram(permute, n);
    if (HasFatalFailure())
      return;
  }
}

TEST(ExecutorCollectivesTest, SubgroupsAndDeviceAssignment) {
  CollectiveSpec ag =
      spec(CollectiveKind::AllGather, TensorSpec{DType::F32, {2, 3}});
  ag.replicaGroups = {{3, 1}, {0, 2}, {5, 4}};
  checkProgram(ag, 6, 1, {9, 2, 7, 0, 4, 1});
  CollectiveSpec rs =
      spec(CollectiveKind::ReduceScatter, TensorSpec{DType::F64, {5, 4}});
  rs.dimension = 1;
  rs.replicaGroups = {{0, 1, 2, 3}, {7, 6, 5, 4}};
  checkProgram(rs, 8);
}

//===----------------------------------------------------------------------===//
// Partitions: cores = replicas x partitions.
//===----------------------------------------------------------------------===//

// out[0] = 100 * replica + partition, gathered over the partitions of the
// replica (groups of global device ids).
void partitionIdsEntry(void **buffers) {
  int32_t mine[1] = {100 * __torus_replica_id() + __torus_partition_id()};
  __torus_collective(0, mine, buffers[0]);
}

TEST(ExecutorCollectivesTest, PartitionIdsAndCrossPartitionGroups) {
  const int64_t replicas = 3, partitions = 4;
  auto executor = makeExecutor(12);
  Program p;
  p.spec.name = "partitions";
  p.spec.numReplicas = replicas;
  p.spec.outputs = {TensorSpec{DType::I32, {partitions}}};
  CollectiveSpec c =
      spec(CollectiveKind::AllGather, TensorSpec{DType::I32, {1}});
  for (int64_t r = 0; r < replicas; ++r) {
    c.replicaGroups.emplace_back();
    for (int64_t q = 0; q < partitions; ++q)
      c.replicaGroups.back().push_back(r * partitions + q);
  }
  p.spec.collectives = {c};
  p.entry = &partitionIdsEntry;
  RunOptions options;
  options.numPartitions = partitions;
  // Reverse the cores, so core and device ids differ.
  for (int64_t d = 0; d < replicas * partitions; ++d)
    options.replicaToCore.push_back(11 - d);
  auto result = executor->run(
      p, std::vector<std::vector<HostTensor>>(replicas * partitions), options);
  ASSERT_TRUE(result.ok()) << result.status();
  for (int64_t d = 0; d < replicas * partitions; ++d) {
    auto got = (*result)[d][0].data<int32_t>();
    int64_t r = d / partitions;
    for (int64_t q = 0; q < partitions; ++q)
      EXPECT_EQ(got[q], 100 * r + q) << "device " << d;
  }
  // The counts are checked against replicas x partitions.
  EXPECT_THAT(msg(executor->validate(p, std::vector<std::vector<HostTensor>>(3),
                                     options)),
              HasSubstr("3 replicas x 4 partitions = 12 devices but inputs "
                        "were given for 3"));
  options.numPartitions = 5;
  options.replicaToCore.clear();
  EXPECT_THAT(msg(executor->validate(
                  p, std::vector<std::vector<HostTensor>>(15), options)),
              HasSubstr("needs 3 replicas x 5 partitions = 15 cores but the "
                        "executor has only 12"));
  options.numPartitions = 0;
  EXPECT_THAT(msg(executor->validate(p, {}, options)),
              HasSubstr("invalid partition count 0"));
}

void failOnPartition2Entry(void **) {
  if (__torus_partition_id() == 2 && __torus_replica_id() == 1)
    throw std::runtime_error("partition 2 broke");
}

TEST(ExecutorCollectivesTest, FailuresNameReplicaAndPartition) {
  auto executor = makeExecutor(8);
  Program p;
  p.spec.name = "fails";
  p.spec.numReplicas = 2;
  p.entry = &failOnPartition2Entry;
  RunOptions options;
  options.numPartitions = 4;
  absl::Status s =
      executor->run(p, std::vector<std::vector<HostTensor>>(8), options)
          .status();
  EXPECT_EQ(msg(s),
            "core 6 (replica 1, partition 2): uncaught exception: partition 2 "
            "broke");
}

//===----------------------------------------------------------------------===//
// Validation of every kind before any core starts.
//===----------------------------------------------------------------------===//

void neverEntry(void **) { ADD_FAILURE() << "must not run"; }

absl::Status validateOne(CollectiveSpec c, int64_t replicas) {
  auto executor = makeExecutor(replicas);
  Program p = oneCollective(replicas, c);
  p.entry = &neverEntry;
  std::vector<std::vector<HostTensor>> inputs(replicas);
  for (auto &args : inputs)
    args.emplace_back(c.operand);
  return executor->validate(p, inputs);
}

TEST(ExecutorCollectivesTest, ValidateEveryKind) {
  CollectiveSpec rs =
      spec(CollectiveKind::ReduceScatter, TensorSpec{DType::F32, {6}});
  rs.result = TensorSpec{DType::F32, {2}};
  EXPECT_TRUE(validateOne(rs, 3).ok());
  EXPECT_THAT(msg(validateOne(rs, 4)),
              AllOf(StartsWith("reduce_scatter #0 at step.mlir:7:3: "),
                    HasSubstr("not divisible by the 4 participants")));
  rs.result = TensorSpec{DType::F32, {3}};
  EXPECT_THAT(msg(validateOne(rs, 3)),
              HasSubstr("the result type f32[3] does not match the "
                        "reduce_scatter of f32[6] over groups of 3, which "
                        "gives f32[2]"));

  CollectiveSpec ag =
      spec(CollectiveKind::AllGather, TensorSpec{DType::F32, {2}});
  ag.replicaGroups = {{0, 1}, {2}};
  EXPECT_THAT(msg(validateOne(ag, 3)),
              HasSubstr("replica groups {{0,1},{2}} differ in size"));
  ag.replicaGroups = {};
  ag.dimension = 1;
  EXPECT_THAT(msg(validateOne(ag, 3)),
              HasSubstr("all_gather_dim 1 is out of range"));

  CollectiveSpec a2a =
      spec(CollectiveKind::AllToAll, TensorSpec{DType::F32, {4, 4}});
  a2a.splitCount = 3;
  EXPECT_THAT(msg(validateOne(a2a, 4)),
              HasSubstr("split_count 3 differs from the 4 participants"));

  CollectiveSpec permute =
      spec(CollectiveKind::CollectivePermute, TensorSpec{DType::F32, {4}});
  permute.sourceTargetPairs = {{0, 1}, {2, 1}};
  EXPECT_THAT(msg(validateOne(permute, 3)),
              AllOf(StartsWith("collective_permute #0 at step.mlir:7:3: "),
                    HasSubstr("replica 1 is the target of two pairs")));
  permute.sourceTargetPairs = {{0, 3}};
  EXPECT_THAT(msg(validateOne(permute, 3)),
              HasSubstr("names replica 3, outside [0, 3)"));

  CollectiveSpec bad = spec(static_cast<CollectiveKind>(42),
                            TensorSpec{DType::F32, {4}});
  EXPECT_THAT(msg(validateOne(bad, 2)),
              HasSubstr("collective #0: unknown collective kind 42"));
}

//===----------------------------------------------------------------------===//
// 256 emulated cores on a two-core host.
//===----------------------------------------------------------------------===//

constexpr int64_t kBigElems = 1024;

// out = all_reduce_sum over all (x); then three rounds of all_reduce_max
// over groups of 16 of a counter; then a shift by one (permute).
void bigEntry(void **buffers) {
  const float *x = static_cast<const float *>(buffers[0]);
  float *sum = static_cast<float *>(buffers[1]);
  int64_t *counter = static_cast<int64_t *>(buffers[2]);
  float *shifted = static_cast<float *>(buffers[3]);
  __torus_collective(0, x, sum);
  int64_t c = __torus_replica_id();
  for (int round = 0; round < 3; ++round) {
    int64_t reduced = 0;
    __torus_collective(1, &c, &reduced);
    c = reduced + 1;
  }
  *counter = c;
  __torus_collective(2, x, shifted);
}

Program bigProgram(int64_t n) {
  Program p;
  p.spec.name = "big";
  p.spec.numReplicas = n;
  TensorSpec vec{DType::F32, {kBigElems}}, scalar{DType::I64, {}};
  p.spec.inputs = {vec};
  p.spec.outputs = {vec, scalar, vec};
  CollectiveSpec sum = spec(CollectiveKind::AllReduce, vec);
  CollectiveSpec max = spec(CollectiveKind::AllReduce, scalar);
  max.reduce = ReduceKind::Max;
  for (int64_t r = 0; r < n; r += 16) {
    max.replicaGroups.emplace_back(16);
    std::iota(max.replicaGroups.back().begin(), max.replicaGroups.back().end(),
              r);
  }
  CollectiveSpec shift = spec(CollectiveKind::CollectivePermute, vec);
  for (int64_t r = 0; r < n; ++r)
    shift.sourceTargetPairs.push_back({r, (r + 1) % n});
  p.spec.collectives = {sum, max, shift};
  p.entry = &bigEntry;
  return p;
}

void checkBigRun(Executor &executor, int64_t n, int repeats) {
  Program program = bigProgram(n);
  auto xAt = [](int64_t r, int64_t i) {
    return static_cast<float>((r * 7 + i * 3) % 19) * 0.25f - 2.0f;
  };
  std::vector<std::vector<HostTensor>> inputs(n);
  for (int64_t r = 0; r < n; ++r) {
    std::vector<float> x(kBigElems);
    for (int64_t i = 0; i < kBigElems; ++i)
      x[i] = xAt(r, i);
    inputs[r].push_back(HostTensor::fromVector<float>({kBigElems}, x));
  }
  std::vector<float> expected(kBigElems);
  for (int64_t i = 0; i < kBigElems; ++i) {
    float acc = xAt(0, i);
    for (int64_t r = 1; r < n; ++r)
      acc += xAt(r, i);
    expected[i] = acc;
  }
  for (int repeat = 0; repeat < repeats; ++repeat) {
    auto result = executor.run(program, inputs);
    ASSERT_TRUE(result.ok()) << result.status();
    for (int64_t r = 0; r < n; ++r) {
      auto sum = (*result)[r][0].data<float>();
      for (int64_t i = 0; i < kBigElems; ++i)
        ASSERT_EQ(sum[i], expected[i]) << "replica " << r << " element " << i;
      // Max of the group's replica ids is its last, + 1 per round.
      int64_t last = r - r % 16 + 15;
      ASSERT_EQ((*result)[r][1].data<int64_t>()[0], last + 3) << r;
      auto shifted = (*result)[r][2].data<float>();
      ASSERT_EQ(shifted[5], xAt((r + n - 1) % n, 5)) << r;
    }
  }
}

TEST(ExecutorCollectivesTest, TwoHundredFiftySixCoresWithAllReduces) {
  auto executor = makeExecutor(256);
  checkBigRun(*executor, 256, 3);
}

TEST(ExecutorCollectivesTest, TwoHundredFiftySixCoresOfAV5eTorus) {
  // v5e-256: a 16x16 2-D torus; all-reduces run dimension-ordered.
  auto topology = Topology::fromPreset("v5e-256");
  ASSERT_TRUE(topology.ok()) << topology.status();
  auto executor = Executor::create(*topology);
  ASSERT_TRUE(executor.ok()) << executor.status();
  ASSERT_EQ((*executor)->numCores(), 256);
  checkBigRun(**executor, 256, 2);
}

} // namespace
} // namespace torus::rt
