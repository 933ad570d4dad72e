//===- ExecutorTest.cpp - Tests for running SPMD programs on the mesh -----===//
//
// The programs here are hand-written entry functions with the signature the
// compiler generates (EntryFn), calling the runtime's C ABI exactly as
// generated code does. Results are compared exactly with a naive computation
// in the same order.
//
//===----------------------------------------------------------------------===//

#include "runtime/executor/Executor.h"

#include "runtime/RuntimeAbi.h"
#include "runtime/ParallelFor.h"
#include "runtime/executor/CoreContext.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <fmt/format.h>

#include <stdexcept>
#include <thread>

namespace torus::rt {
namespace {

using ::testing::AllOf;
using ::testing::AnyOf;
using ::testing::ContainsRegex;
using ::testing::HasSubstr;
using ::testing::StartsWith;

std::string msg(const absl::Status &s) { return std::string(s.message()); }

std::unique_ptr<Executor>
makeExecutor(int64_t cores, size_t capacity = kDefaultCoreMemoryCapacity) {
  ExecutorOptions options;
  options.numCores = cores;
  options.coreMemoryCapacity = capacity;
  auto executor = Executor::create(options);
  EXPECT_TRUE(executor.ok()) << executor.status();
  return std::move(*executor);
}

//===----------------------------------------------------------------------===//
// A data-parallel step: y = all_reduce_sum(x * (replica_id + 1)).
//===----------------------------------------------------------------------===//

constexpr int64_t kElems = 1003;

// Where each replica ran, recorded by the entry (each replica writes its own
// slot).
std::vector<std::thread::id> gThreadOfReplica(Executor::kMaxCores);
std::vector<int64_t> gCoreOfReplica(Executor::kMaxCores);
std::vector<absl::StatusCode> gCodeOfReplica(Executor::kMaxCores);

void scaleAndSumEntry(void **buffers) {
  const float *x = static_cast<const float *>(buffers[0]);
  float *y = static_cast<float *>(buffers[1]);
  int32_t replica = __torus_replica_id();
  gThreadOfReplica[replica] = std::this_thread::get_id();
  gCoreOfReplica[replica] = CoreContext::current()->coreId();
  for (int64_t i = 0; i < kElems; ++i)
    y[i] = x[i] * static_cast<float>(replica + 1);
  __torus_collective(0, y, y); // in place, as bufferization may produce
}

Program scaleAndSum(int64_t replicas) {
  Program p;
  p.spec.name = "scale_and_sum";
  p.spec.numReplicas = replicas;
  p.spec.inputs = {TensorSpec{DType::F32, {kElems}}};
  p.spec.outputs = {TensorSpec{DType::F32, {kElems}}};
  CollectiveSpec c;
  c.reduce = ReduceKind::Sum;
  c.operand = TensorSpec{DType::F32, {kElems}};
  c.location = "step.mlir:4:8";
  p.spec.collectives = {c};
  p.entry = &scaleAndSumEntry;
  return p;
}

float inputAt(int64_t replica, int64_t i, int salt = 0) {
  // Not dyadic: float sums of these depend on the order of additions.
  return static_cast<float>((replica * 13 + i * 7 + salt) % 29) * 0.1f - 1.3f +
         1e-4f * static_cast<float>(replica);
}

std::vector<std::vector<HostTensor>> scaleAndSumInputs(int64_t replicas,
                                                       int salt = 0) {
  std::vector<std::vector<HostTensor>> inputs(replicas);
  for (int64_t r = 0; r < replicas; ++r) {
    std::vector<float> x(kElems);
    for (int64_t i = 0; i < kElems; ++i)
      x[i] = inputAt(r, i, salt);
    inputs[r].push_back(HostTensor::fromVector<float>({kElems}, x));
  }
  return inputs;
}

void expectScaleAndSum(
    int64_t replicas,
    const absl::StatusOr<std::vector<std::vector<HostTensor>>> &result,
    int salt = 0) {
  ASSERT_TRUE(result.ok()) << result.status();
  ASSERT_EQ(result->size(), static_cast<size_t>(replicas));
  std::vector<float> expected(kElems, 0.0f);
  for (int64_t i = 0; i < kElems; ++i) {
    float acc = inputAt(0, i, salt) * 1.0f;
    for (int64_t r = 1; r < replicas; ++r)
      acc += inputAt(r, i, salt) * static_cast<float>(r + 1);
    expected[i] = acc;
  }
  for (int64_t r = 0; r < replicas; ++r) {
    ASSERT_EQ((*result)[r].size(), 1u);
    const HostTensor &y = (*result)[r][0];
    ASSERT_EQ(y.spec(), (TensorSpec{DType::F32, {kElems}}));
    auto got = y.data<float>();
    for (int64_t i = 0; i < kElems; ++i)
      ASSERT_EQ(got[i], expected[i]) << "replica " << r << ", element " << i;
  }
}

class ExecutorCores : public ::testing::TestWithParam<int64_t> {};

TEST_P(ExecutorCores, ScaleAndSumMatchesNaive) {
  const int64_t n = GetParam();
  auto executor = makeExecutor(n);
  expectScaleAndSum(n, executor->run(scaleAndSum(n), scaleAndSumInputs(n)));
  for (int64_t r = 0; r < n; ++r) {
    EXPECT_EQ(gCoreOfReplica[r], r);
    EXPECT_EQ(gThreadOfReplica[r], executor->coreThreadId(r));
    EXPECT_EQ(executor->coreMemory(r).bytesInUse(), 0u);
    EXPECT_EQ(executor->coreMemory(r).peakBytesInUse(),
              2 * ((kElems * 4 + 63) / 64 * 64));
  }
}

INSTANTIATE_TEST_SUITE_P(Cores, ExecutorCores,
                         ::testing::Values(1, 2, 3, 5, 8, 17, 64));

TEST(ExecutorTest, RepeatedRunsReuseTheCoreThreads) {
  const int64_t n = 16;
  auto executor = makeExecutor(n);
  Program program = scaleAndSum(n);
  std::vector<std::thread::id> first;
  for (int salt = 0; salt < 20; ++salt) {
    expectScaleAndSum(n, executor->run(program, scaleAndSumInputs(n, salt)),
                      salt);
    std::vector<std::thread::id> now(gThreadOfReplica.begin(),
                                     gThreadOfReplica.begin() + n);
    if (salt == 0)
      first = now;
    else
      ASSERT_EQ(now, first) << "run " << salt;
  }
  for (int64_t r = 0; r < n; ++r)
    EXPECT_NE(first[r], std::this_thread::get_id());
}

TEST(ExecutorTest, FewerReplicasThanCoresWithDeviceAssignment) {
  auto executor = makeExecutor(8);
  RunOptions options;
  options.replicaToCore = {7, 2, 5};
  expectScaleAndSum(
      3, executor->run(scaleAndSum(3), scaleAndSumInputs(3), options));
  EXPECT_EQ(gCoreOfReplica[0], 7);
  EXPECT_EQ(gCoreOfReplica[1], 2);
  EXPECT_EQ(gCoreOfReplica[2], 5);
  EXPECT_EQ(gThreadOfReplica[0], executor->coreThreadId(7));
  EXPECT_EQ(executor->coreMemory(0).peakBytesInUse(), 0u);
  EXPECT_GT(executor->coreMemory(7).peakBytesInUse(), 0u);
  // Default assignment: replica r on core r.
  expectScaleAndSum(3, executor->run(scaleAndSum(3), scaleAndSumInputs(3)));
  EXPECT_EQ(gCoreOfReplica[2], 2);
}

//===----------------------------------------------------------------------===//
// Several collectives, subgroups and repeated invocations of one collective.
//===----------------------------------------------------------------------===//

constexpr int64_t kStatElems = 37;

// inputs: x f64[37], k i64[]
// outputs: total f64[37] = all_reduce_sum(x) over all replicas
//          pairMax f64[37] = all_reduce_max(x) over groups {{0,1},{2,3},...}
//          counter i64[]: c = k; 3 times: c = all_reduce_sum(c) + 1
void statsEntry(void **buffers) {
  const double *x = static_cast<const double *>(buffers[0]);
  const int64_t *k = static_cast<const int64_t *>(buffers[1]);
  double *total = static_cast<double *>(buffers[2]);
  double *pairMax = static_cast<double *>(buffers[3]);
  int64_t *counter = static_cast<int64_t *>(buffers[4]);
  __torus_collective(0, x, total);
  __torus_collective(1, x, pairMax);
  int64_t c = *k;
  for (int step = 0; step < 3; ++step) {
    int64_t reduced = 0;
    __torus_collective(2, &c, &reduced);
    c = reduced + 1;
  }
  *counter = c;
}

Program stats(int64_t replicas) {
  Program p;
  p.spec.name = "stats";
  p.spec.numReplicas = replicas;
  TensorSpec vec{DType::F64, {kStatElems}};
  TensorSpec scalar{DType::I64, {}};
  p.spec.inputs = {vec, scalar};
  p.spec.outputs = {vec, vec, scalar};
  CollectiveSpec total;
  total.operand = vec;
  CollectiveSpec pairMax;
  pairMax.reduce = ReduceKind::Max;
  pairMax.operand = vec;
  for (int64_t r = 0; r < replicas; r += 2)
    pairMax.replicaGroups.push_back({r, r + 1});
  CollectiveSpec counter;
  counter.operand = scalar;
  p.spec.collectives = {total, pairMax, counter};
  p.entry = &statsEntry;
  return p;
}

TEST(ExecutorTest, SeveralCollectivesSubgroupsAndRepeatedInvocations) {
  for (int64_t n : {2, 4, 8, 64}) {
    SCOPED_TRACE(n);
    auto executor = makeExecutor(n);
    std::vector<std::vector<HostTensor>> inputs(n);
    auto xAt = [](int64_t r, int64_t i) {
      return static_cast<double>((r * 5 + i * 3) % 17) - 8.5 + 1e-9 * r;
    };
    for (int64_t r = 0; r < n; ++r) {
      std::vector<double> x(kStatElems);
      for (int64_t i = 0; i < kStatElems; ++i)
        x[i] = xAt(r, i);
      inputs[r].push_back(HostTensor::fromVector<double>({kStatElems}, x));
      inputs[r].push_back(HostTensor::scalar<int64_t>(r));
    }
    auto result = executor->run(stats(n), inputs);
    ASSERT_TRUE(result.ok()) << result.status();
    // counter: c0 = sum(0..n-1); c_{k+1} = n * c_k + 1.
    int64_t c = n * (n - 1) / 2 + 1;
    c = n * c + 1;
    c = n * c + 1;
    for (int64_t r = 0; r < n; ++r) {
      const auto &out = (*result)[r];
      ASSERT_EQ(out.size(), 3u);
      auto total = out[0].data<double>();
      auto pairMax = out[1].data<double>();
      for (int64_t i = 0; i < kStatElems; ++i) {
        double sum = xAt(0, i);
        for (int64_t q = 1; q < n; ++q)
          sum += xAt(q, i);
        ASSERT_EQ(total[i], sum) << "replica " << r << ", element " << i;
        int64_t lo = r - r % 2;
        ASSERT_EQ(pairMax[i], std::max(xAt(lo, i), xAt(lo + 1, i)));
      }
      EXPECT_EQ(out[2].data<int64_t>()[0], c) << "replica " << r;
    }
  }
}

//===----------------------------------------------------------------------===//
// Validation before any core starts.
//===----------------------------------------------------------------------===//

void unreachableEntry(void **) {
  ADD_FAILURE() << "the entry must not run when validation fails";
}

Program twoArgs(int64_t replicas) {
  Program p;
  p.spec.name = "two_args";
  p.spec.numReplicas = replicas;
  p.spec.inputs = {TensorSpec{DType::I32, {2}}, TensorSpec{DType::F32, {4, 8}}};
  p.spec.outputs = {TensorSpec{DType::F32, {}}};
  p.entry = &unreachableEntry;
  return p;
}

std::vector<std::vector<HostTensor>> twoArgsInputs(int64_t replicas) {
  std::vector<std::vector<HostTensor>> inputs(replicas);
  for (auto &args : inputs) {
    args.emplace_back(DType::I32, Shape{2});
    args.emplace_back(DType::F32, Shape{4, 8});
  }
  return inputs;
}

absl::Status runStatus(Executor &executor, const Program &program,
                       const std::vector<std::vector<HostTensor>> &inputs,
                       const RunOptions &options = {}) {
  return executor.run(program, inputs, options).status();
}

TEST(ExecutorTest, CreateValidatesTheCoreCount) {
  for (int64_t n : {int64_t{0}, int64_t{-3}, Executor::kMaxCores + 1}) {
    auto executor = Executor::create(n);
    EXPECT_EQ(executor.status().code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(msg(executor.status()),
                HasSubstr(fmt::format("an executor needs 1 to {} cores, got {}",
                                      Executor::kMaxCores, n)));
  }
  ExecutorOptions options;
  options.collectiveTimeout = absl::ZeroDuration();
  EXPECT_EQ(Executor::create(options).status().code(),
            absl::StatusCode::kInvalidArgument);
  ExecutorOptions workers;
  workers.numWorkers = 0;
  EXPECT_EQ(msg(Executor::create(workers).status()),
            "ExecutorOptions::numWorkers must be at least 1, got 0");
}

TEST(ExecutorTest, WrongReplicaCount) {
  auto executor = makeExecutor(4);
  absl::Status s = runStatus(*executor, twoArgs(4), twoArgsInputs(3));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(msg(s),
            "program 'two_args' has 4 replicas but inputs were given for 3");

  s = runStatus(*executor, twoArgs(5), twoArgsInputs(5));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(msg(s), "program 'two_args' is compiled for 5 replicas but the "
                    "executor has only 4 cores");
  s = runStatus(*executor, twoArgs(0), {});
  EXPECT_THAT(msg(s), HasSubstr("invalid replica count 0"));
}

TEST(ExecutorTest, WrongArgumentCount) {
  auto executor = makeExecutor(4);
  auto inputs = twoArgsInputs(4);
  inputs[2].pop_back();
  absl::Status s = runStatus(*executor, twoArgs(4), inputs);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(msg(s), "replica 2: expected 2 arguments, got 1");
}

TEST(ExecutorTest, WrongShapeOrDType) {
  auto executor = makeExecutor(4);
  auto inputs = twoArgsInputs(4);
  inputs[3][1] = HostTensor(DType::F32, {4, 9});
  absl::Status s = runStatus(*executor, twoArgs(4), inputs);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(msg(s), "replica 3, argument 1: expected f32[4,8], got f32[4,9]");

  inputs = twoArgsInputs(4);
  inputs[0][0] = HostTensor(DType::I64, {2});
  s = runStatus(*executor, twoArgs(4), inputs);
  EXPECT_EQ(msg(s), "replica 0, argument 0: expected i32[2], got i64[2]");

  // A moved-from tensor has no storage.
  Program scalarIn = twoArgs(1);
  scalarIn.spec.inputs = {TensorSpec{DType::F32, {}}};
  std::vector<std::vector<HostTensor>> empty(1);
  empty[0].emplace_back(DType::F32, Shape{});
  HostTensor stolen = std::move(empty[0][0]);
  ASSERT_EQ(empty[0][0].spec(), (TensorSpec{DType::F32, {}}));
  s = runStatus(*executor, scalarIn, empty);
  EXPECT_EQ(msg(s), "replica 0, argument 0: the tensor has no storage");
}

TEST(ExecutorTest, InvalidProgram) {
  auto executor = makeExecutor(4);
  Program p = twoArgs(4);
  p.entry = nullptr;
  EXPECT_EQ(msg(runStatus(*executor, p, twoArgsInputs(4))),
            "program 'two_args' has no entry function");

  p = scaleAndSum(4);
  p.spec.collectives[0].replicaGroups = {{0, 1}, {1, 2, 3}};
  absl::Status s = runStatus(*executor, p, scaleAndSumInputs(4));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(msg(s), AllOf(StartsWith("all_reduce #0 at step.mlir:4:8: "),
                            HasSubstr("replica 1 appears in groups 0 and 1")));

  p = scaleAndSum(4);
  p.spec.outputs[0].shape = {-1};
  EXPECT_THAT(msg(runStatus(*executor, p, scaleAndSumInputs(4))),
              HasSubstr("output 0 has a negative dimension"));
}

TEST(ExecutorTest, InvalidDeviceAssignment) {
  auto executor = makeExecutor(4);
  RunOptions options;
  options.replicaToCore = {0, 1};
  EXPECT_THAT(
      msg(runStatus(*executor, scaleAndSum(3), scaleAndSumInputs(3), options)),
      HasSubstr("2 entries for 3 replicas"));
  options.replicaToCore = {0, 4, 1};
  EXPECT_THAT(
      msg(runStatus(*executor, scaleAndSum(3), scaleAndSumInputs(3), options)),
      HasSubstr("replica 1 on core 4, outside [0, 4)"));
  options.replicaToCore = {2, 0, 2};
  EXPECT_THAT(
      msg(runStatus(*executor, scaleAndSum(3), scaleAndSumInputs(3), options)),
      HasSubstr("puts replicas 0 and 2 on core 2"));
}

//===----------------------------------------------------------------------===//
// Failures while running: a Status, never a hang, and the executor stays
// usable.
//===----------------------------------------------------------------------===//

// Replica 2 never joins the collective.
void skipOnReplica2Entry(void **buffers) {
  float *y = static_cast<float *>(buffers[1]);
  std::memcpy(y, buffers[0], kElems * sizeof(float));
  if (__torus_replica_id() != 2)
    __torus_collective(0, y, y);
}

TEST(ExecutorTest, MissingPeerTimesOutNamingIt) {
  auto executor = makeExecutor(4);
  Program p = scaleAndSum(4);
  p.entry = &skipOnReplica2Entry;
  RunOptions options;
  options.collectiveTimeout = absl::Milliseconds(200);
  absl::Status s = runStatus(*executor, p, scaleAndSumInputs(4), options);
  EXPECT_EQ(s.code(), absl::StatusCode::kDeadlineExceeded) << s;
  EXPECT_THAT(msg(s), AllOf(ContainsRegex("^core [013] \\(replica [013]\\): "
                                          "all_reduce #0 at step.mlir:4:8: "),
                            HasSubstr("waiting for replica 2 ")));
  // The executor is usable afterwards.
  expectScaleAndSum(4, executor->run(scaleAndSum(4), scaleAndSumInputs(4)));
}

// After one good all-reduce (so every core is running), replica 1 calls a
// collective that does not exist while its peers wait in the next all-reduce
// with a long timeout: the abort must release them, and the run reports
// replica 1's error, not a timeout.
void badIndexOnReplica1Entry(void **buffers) {
  float *y = static_cast<float *>(buffers[1]);
  std::memcpy(y, buffers[0], kElems * sizeof(float));
  __torus_collective(0, y, y);
  int32_t replica = __torus_replica_id();
  if (replica == 1) {
    // Not needed for correctness: gives the peers time to block in the
    // rendezvous, so the test exercises waking them.
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    __torus_collective(5, y, y);
  } else {
    __torus_collective(0, y, y);
  }
  gCodeOfReplica[replica] = CoreContext::current()->error().code();
  // Generated code runs on after a failure; later collectives return.
  __torus_collective(0, y, y);
}

TEST(ExecutorTest, CollectiveFailureAbortsPeersPromptly) {
  auto executor = makeExecutor(8);
  Program p = scaleAndSum(8);
  p.entry = &badIndexOnReplica1Entry;
  std::fill(gCodeOfReplica.begin(), gCodeOfReplica.end(),
            absl::StatusCode::kUnknown);
  RunOptions options;
  // Were the abort lost, peers would time out after a minute and the run
  // would report DeadlineExceeded instead: the test fails, it does not hang.
  options.collectiveTimeout = absl::Seconds(60);
  absl::Status s = runStatus(*executor, p, scaleAndSumInputs(8), options);
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << s;
  EXPECT_EQ(msg(s), "core 1 (replica 1): collective index 5 is out of range: "
                    "program 'scale_and_sum' has 1 collective");
  // The peers were released by the abort, not by their timeout.
  for (int64_t r = 0; r < 8; ++r)
    EXPECT_EQ(gCodeOfReplica[r], r == 1 ? absl::StatusCode::kInvalidArgument
                                        : absl::StatusCode::kAborted)
        << "replica " << r;
  for (int64_t c = 0; c < 8; ++c)
    EXPECT_EQ(executor->coreMemory(c).bytesInUse(), 0u);
  expectScaleAndSum(8, executor->run(scaleAndSum(8), scaleAndSumInputs(8)));
}

void throwOnReplica0Entry(void **buffers) {
  if (__torus_replica_id() == 0)
    throw std::runtime_error("boom");
  float *y = static_cast<float *>(buffers[1]);
  __torus_collective(0, y, y);
  gCodeOfReplica[__torus_replica_id()] = CoreContext::current()->error().code();
}

TEST(ExecutorTest, ExceptionInEntryIsAnInternalError) {
  auto executor = makeExecutor(3);
  Program p = scaleAndSum(3);
  p.entry = &throwOnReplica0Entry;
  std::fill(gCodeOfReplica.begin(), gCodeOfReplica.end(),
            absl::StatusCode::kUnknown);
  RunOptions options;
  options.collectiveTimeout = absl::Seconds(60);
  absl::Status s = runStatus(*executor, p, scaleAndSumInputs(3), options);
  EXPECT_EQ(s.code(), absl::StatusCode::kInternal) << s;
  EXPECT_EQ(msg(s), "core 0 (replica 0): uncaught exception: boom");
  for (int64_t r : {1, 2})
    EXPECT_THAT(gCodeOfReplica[r],
                AnyOf(absl::StatusCode::kAborted, absl::StatusCode::kUnknown));
}

void copyThroughCollectiveEntry(void **buffers) {
  __torus_collective(0, buffers[0], buffers[1]);
}

Program halfSum(DType dtype) {
  Program p;
  p.spec.name = "half";
  p.spec.numReplicas = 2;
  p.spec.inputs = {TensorSpec{dtype, {4}}};
  p.spec.outputs = {TensorSpec{dtype, {4}}};
  CollectiveSpec c;
  c.operand = TensorSpec{dtype, {4}};
  c.location = "half.mlir:2:3";
  p.spec.collectives = {c};
  p.entry = &copyThroughCollectiveEntry;
  return p;
}

TEST(ExecutorTest, UnsupportedCollectiveDTypeIsUnimplemented) {
  auto executor = makeExecutor(2);
  std::vector<std::vector<HostTensor>> inputs(2);
  for (auto &args : inputs)
    args.emplace_back(DType::I1, Shape{4});
  absl::Status s = runStatus(*executor, halfSum(DType::I1), inputs);
  EXPECT_EQ(s.code(), absl::StatusCode::kUnimplemented) << s;
  EXPECT_THAT(msg(s), AllOf(StartsWith("all_reduce #0 at half.mlir:2:3: "),
                            HasSubstr("i1")));
}

TEST(ExecutorTest, HalfPrecisionAllReduce) {
  // bf16 sums round at every step: 256 + 1 + 1 stays 256 (ties to even).
  auto executor = makeExecutor(2);
  std::vector<std::vector<HostTensor>> inputs(2);
  for (int r = 0; r < 2; ++r) {
    HostTensor t(DType::BF16, Shape{4});
    uint16_t *bits = static_cast<uint16_t *>(t.rawData());
    for (int i = 0; i < 4; ++i)
      bits[i] = r == 0 ? 0x4380 /* 256 */ : 0x3f80 /* 1 */;
    inputs[r].push_back(std::move(t));
  }
  auto result = executor->run(halfSum(DType::BF16), inputs);
  ASSERT_TRUE(result.ok()) << result.status();
  const uint16_t *bits =
      static_cast<const uint16_t *>((*result)[1][0].rawData());
  EXPECT_EQ(bits[0], 0x4380); // 257 is a tie between 256 and 258
}

TEST(ExecutorTest, OutOfCoreMemoryNamesCoreAndBuffers) {
  // Input and output need 2 x 4032 bytes; 6 KiB fits only the input.
  auto executor = makeExecutor(2, /*capacity=*/6 << 10);
  RunOptions options;
  options.collectiveTimeout = absl::Seconds(60);
  absl::Status s =
      runStatus(*executor, scaleAndSum(2), scaleAndSumInputs(2), options);
  EXPECT_EQ(s.code(), absl::StatusCode::kResourceExhausted) << s;
  EXPECT_THAT(
      msg(s),
      AllOf(ContainsRegex("^core [01] \\(replica [01]\\): core [01]: "
                          "out of device memory"),
            HasSubstr("(4012 bytes) for 'replica"), HasSubstr("output 0'"),
            HasSubstr("capacity 6.00 KiB, in use 3.94 KiB in 1 buffer;"),
            HasSubstr("largest live buffers: 'replica")));
  // The same core throughout the message.
  std::string core = msg(s).substr(5, 1);
  EXPECT_THAT(msg(s), StartsWith(fmt::format(
                          "core {} (replica {}): core {}:", core, core, core)));
  EXPECT_THAT(msg(s), HasSubstr(fmt::format("'replica {} output 0'", core)));
  for (int64_t c = 0; c < 2; ++c)
    EXPECT_EQ(executor->coreMemory(c).bytesInUse(), 0u);
}

TEST(ExecutorTest, RuntimeAbiSymbolsAndNames) {
  auto symbols = runtimeAbiSymbols();
  ASSERT_EQ(symbols.size(), 7u);
  EXPECT_EQ(symbols[0].first, "__torus_replica_id");
  EXPECT_EQ(symbols[0].second, reinterpret_cast<void *>(&__torus_replica_id));
  EXPECT_EQ(symbols[1].first, "__torus_partition_id");
  EXPECT_EQ(symbols[1].second,
            reinterpret_cast<void *>(&__torus_partition_id));
  EXPECT_EQ(symbols[2].first, "__torus_collective");
  EXPECT_EQ(symbols[2].second, reinterpret_cast<void *>(&__torus_collective));
  EXPECT_EQ(symbols[3].first, "__torus_parallel_for");
  EXPECT_EQ(symbols[3].second, reinterpret_cast<void *>(&__torus_parallel_for));
  EXPECT_EQ(symbols[4].first, "__torus_workspace");
  EXPECT_EQ(symbols[4].second, reinterpret_cast<void *>(&__torus_workspace));
  EXPECT_EQ(symbols[5].first, "__torus_kernel_begin");
  EXPECT_EQ(symbols[5].second,
            reinterpret_cast<void *>(&__torus_kernel_begin));
  EXPECT_EQ(symbols[6].first, "__torus_kernel_end");
  EXPECT_EQ(symbols[6].second, reinterpret_cast<void *>(&__torus_kernel_end));
  EXPECT_EQ(collectiveKindName(CollectiveKind::AllReduce), "all_reduce");
  EXPECT_EQ(collectiveKindName(CollectiveKind::AllGather), "all_gather");
  EXPECT_EQ(collectiveKindName(CollectiveKind::ReduceScatter),
            "reduce_scatter");
  EXPECT_EQ(collectiveKindName(CollectiveKind::AllToAll), "all_to_all");
  EXPECT_EQ(collectiveKindName(CollectiveKind::CollectivePermute),
            "collective_permute");
  EXPECT_EQ(reduceKindName(ReduceKind::Sum), "sum");
  EXPECT_EQ(reduceKindName(ReduceKind::Product), "product");
  EXPECT_EQ(reduceKindName(ReduceKind::Max), "max");
  EXPECT_EQ(reduceKindName(ReduceKind::Min), "min");
}

TEST(ExecutorDeathTest, AbiOutsideARunIsFatal) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_DEATH(__torus_replica_id(), "called outside a run");
  EXPECT_DEATH(__torus_partition_id(), "__torus_partition_id called outside");
}

} // namespace
} // namespace torus::rt
