//===- InProcessCommunicatorTest.cpp - Tests for in-process collectives ---===//
//
// Every participant runs on its own thread, as emulated cores do. Results are
// compared exactly against a naive reduction in participant order: the
// communicator promises bit-identical results independent of timing.
//
//===----------------------------------------------------------------------===//

#include "runtime/collectives/InProcessCommunicator.h"

#include "torus/HostTensor.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <thread>
#include <type_traits>
#include <vector>

namespace torus::rt {
namespace {

using ::testing::AllOf;
using ::testing::ContainsRegex;
using ::testing::HasSubstr;

std::unique_ptr<InProcessCommunicator> makeComm(int64_t n) {
  auto comm = InProcessCommunicator::create(n);
  EXPECT_TRUE(comm.ok()) << comm.status();
  return std::move(*comm);
}

/// Runs `body(replica)` on one thread per replica and joins them.
void onEveryReplica(int64_t n, const std::function<void(int64_t)> &body) {
  std::vector<std::thread> threads;
  threads.reserve(n);
  for (int64_t r = 0; r < n; ++r)
    threads.emplace_back(body, r);
  for (auto &t : threads)
    t.join();
}

/// A value that differs by replica and element; for Product stays near 1 so
/// floats neither overflow nor vanish.
template <typename T> T inputValue(ReduceKind kind, int64_t r, int64_t i) {
  int64_t v = (r * 31 + i * 7 + 3) % 23 - 11;
  if constexpr (std::is_floating_point_v<T>) {
    if (kind == ReduceKind::Product)
      return T(1) + T(v) / T(64);
    return T(v) * T(0.37) + T(1e-3) * T(r);
  } else {
    if (kind == ReduceKind::Product)
      return T(v % 3 == 0 ? 1 : v % 3); // 1, 2, -1, -2
    return T(v * 1000003 + r);
  }
}

template <typename T> struct Wrapping { using type = T; };
template <> struct Wrapping<int32_t> { using type = uint32_t; };
template <> struct Wrapping<int64_t> { using type = uint64_t; };

template <typename T> T combine(ReduceKind kind, T a, T b) {
  using U = typename Wrapping<T>::type; // integers wrap around
  switch (kind) {
  case ReduceKind::Sum:
    return T(U(a) + U(b));
  case ReduceKind::Product:
    return T(U(a) * U(b));
  case ReduceKind::Max:
    return a > b ? a : b;
  case ReduceKind::Min:
    return a < b ? a : b;
  }
  return a;
}

/// All-reduces on `n` threads and checks every output against a naive
/// left-to-right reduction over each group's participant order.
template <typename T>
void checkAllReduce(int64_t n, int64_t count, ReduceKind kind,
                    const ReplicaGroups &groups, bool inPlace = false) {
  SCOPED_TRACE(::testing::Message()
               << n << " replicas, " << count << " " << dtypeName(dtypeOf<T>())
               << " elements, " << reduceKindName(kind) << ", groups "
               << replicaGroupsToString(groups)
               << (inPlace ? ", in place" : ""));
  auto comm = makeComm(n);
  std::vector<std::vector<T>> in(n, std::vector<T>(count));
  std::vector<std::vector<T>> out(n, std::vector<T>(count, T(-99)));
  for (int64_t r = 0; r < n; ++r)
    for (int64_t i = 0; i < count; ++i)
      in[r][i] = inputValue<T>(kind, r, i);
  std::vector<std::vector<T>> original = in;
  std::vector<absl::Status> status(n);
  onEveryReplica(n, [&](int64_t r) {
    void *dst = inPlace ? in[r].data() : out[r].data();
    status[r] =
        comm->allReduce(CollectiveKey{1, 0, 0}, r, groups, kind, dtypeOf<T>(),
                        count, in[r].data(), dst, absl::Seconds(60));
  });
  ReplicaGroups effective = groups;
  if (effective.empty()) {
    effective.emplace_back();
    for (int64_t r = 0; r < n; ++r)
      effective[0].push_back(r);
  }
  for (const auto &group : effective) {
    std::vector<T> expected = original[group[0]];
    for (size_t p = 1; p < group.size(); ++p)
      for (int64_t i = 0; i < count; ++i)
        expected[i] = combine(kind, expected[i], original[group[p]][i]);
    for (int64_t r : group) {
      ASSERT_TRUE(status[r].ok()) << "replica " << r << ": " << status[r];
      const std::vector<T> &got = inPlace ? in[r] : out[r];
      for (int64_t i = 0; i < count; ++i)
        ASSERT_EQ(got[i], expected[i]) << "replica " << r << ", element " << i;
    }
  }
  EXPECT_EQ(comm->numPendingRendezvous(), 0u);
}

class AllReduceSizes
    : public ::testing::TestWithParam<std::tuple<int64_t, int64_t>> {};

TEST_P(AllReduceSizes, SumF32AndMaxI64MatchNaive) {
  auto [n, count] = GetParam();
  checkAllReduce<float>(n, count, ReduceKind::Sum, {});
  checkAllReduce<int64_t>(n, count, ReduceKind::Max, {});
}

INSTANTIATE_TEST_SUITE_P(
    ParticipantsAndCounts, AllReduceSizes,
    ::testing::Combine(::testing::Values(1, 2, 3, 5, 8, 17, 64),
                       ::testing::Values(1, 7, 1023, 100003)),
    [](const auto &info) {
      return "n" + std::to_string(std::get<0>(info.param)) + "_count" +
             std::to_string(std::get<1>(info.param));
    });

class AllReduceKinds : public ::testing::TestWithParam<ReduceKind> {};

TEST_P(AllReduceKinds, EveryDTypeMatchesNaive) {
  ReduceKind kind = GetParam();
  for (int64_t n : {3, 17})
    for (int64_t count : {7, 1023}) {
      checkAllReduce<float>(n, count, kind, {});
      checkAllReduce<double>(n, count, kind, {});
      checkAllReduce<int32_t>(n, count, kind, {});
      checkAllReduce<int64_t>(n, count, kind, {});
    }
}

INSTANTIATE_TEST_SUITE_P(Kinds, AllReduceKinds,
                         ::testing::Values(ReduceKind::Sum, ReduceKind::Product,
                                           ReduceKind::Max, ReduceKind::Min),
                         [](const auto &info) {
                           return std::string(reduceKindName(info.param));
                         });

TEST(InProcessCommunicatorTest, LargeF64With64Participants) {
  checkAllReduce<double>(64, 100003, ReduceKind::Sum, {});
}

TEST(InProcessCommunicatorTest, InPlace) {
  checkAllReduce<float>(5, 1023, ReduceKind::Sum, {}, /*inPlace=*/true);
  checkAllReduce<int32_t>(8, 100003, ReduceKind::Min, {}, /*inPlace=*/true);
  checkAllReduce<double>(4, 7, ReduceKind::Product, {{0, 2}, {3, 1}},
                         /*inPlace=*/true);
}

TEST(InProcessCommunicatorTest, Subgroups) {
  checkAllReduce<float>(4, 1023, ReduceKind::Sum, {{0, 1}, {2, 3}});
  checkAllReduce<float>(4, 1023, ReduceKind::Sum, {{0, 2}, {1, 3}});
  // Participant order need not be sorted; it fixes the combining order.
  checkAllReduce<double>(4, 100003, ReduceKind::Sum, {{3, 1}, {0, 2}});
  checkAllReduce<int64_t>(5, 7, ReduceKind::Max, {{4}, {0, 1, 2, 3}});
  checkAllReduce<float>(8, 1023, ReduceKind::Min,
                        {{0, 4}, {1, 5}, {2, 6}, {3, 7}});
  checkAllReduce<int32_t>(64, 1023, ReduceKind::Sum, [] {
    ReplicaGroups g(8);
    for (int64_t r = 0; r < 64; ++r)
      g[r % 8].push_back(r);
    return g;
  }());
}

TEST(InProcessCommunicatorTest, FloatResultsIdenticalOnEveryReplica) {
  // Values of wildly different magnitudes make the sum order-sensitive: every
  // replica must still get the same bits, run after run.
  const int64_t n = 17, count = 1023;
  std::vector<float> first;
  for (int repeat = 0; repeat < 5; ++repeat) {
    auto comm = makeComm(n);
    std::vector<std::vector<float>> in(n, std::vector<float>(count));
    std::vector<std::vector<float>> out(n, std::vector<float>(count));
    for (int64_t r = 0; r < n; ++r)
      for (int64_t i = 0; i < count; ++i)
        in[r][i] = std::ldexp(1.0f + 0.01f * float(i % 10),
                              int((r * 7 + i) % 40) - 20) *
                   ((r + i) % 2 ? 1.0f : -1.0f);
    onEveryReplica(n, [&](int64_t r) {
      ASSERT_TRUE(comm->allReduce(CollectiveKey{0, 0, 0}, r, {},
                                  ReduceKind::Sum, DType::F32, count,
                                  in[r].data(), out[r].data(),
                                  absl::Seconds(60))
                      .ok());
    });
    for (int64_t r = 1; r < n; ++r)
      ASSERT_EQ(std::memcmp(out[r].data(), out[0].data(), count * 4), 0)
          << "replica " << r;
    if (repeat == 0)
      first = out[0];
    else
      ASSERT_EQ(std::memcmp(out[0].data(), first.data(), count * 4), 0);
  }
}

TEST(InProcessCommunicatorTest, ManyInvocationsReuseCommunicator) {
  const int64_t n = 64;
  auto comm = makeComm(n);
  std::vector<absl::Status> status(n);
  std::vector<int64_t> results(n);
  onEveryReplica(n, [&](int64_t r) {
    int64_t acc = r;
    for (uint64_t step = 0; step < 20 && status[r].ok(); ++step) {
      int64_t value = acc;
      status[r] =
          comm->allReduce(CollectiveKey{7, 3, step}, r, {}, ReduceKind::Max,
                          DType::I64, 1, &value, &acc, absl::Seconds(60));
      acc += 1;
    }
    results[r] = acc;
  });
  for (int64_t r = 0; r < n; ++r) {
    ASSERT_TRUE(status[r].ok()) << status[r];
    // max of 0..63 is 63; each of the 20 steps adds 1 after the reduction.
    EXPECT_EQ(results[r], 63 + 20);
  }
  EXPECT_EQ(comm->numPendingRendezvous(), 0u);
}

TEST(InProcessCommunicatorTest, MismatchedCountNamesBothReplicas) {
  auto comm = makeComm(2);
  std::vector<float> in0(8, 1), in1(9, 1), out0(8), out1(9);
  std::vector<absl::Status> status(2);
  onEveryReplica(2, [&](int64_t r) {
    status[r] = comm->allReduce(
        CollectiveKey{0, 4, 0}, r, {}, ReduceKind::Sum, DType::F32,
        r == 0 ? 8 : 9, r == 0 ? in0.data() : in1.data(),
        r == 0 ? out0.data() : out1.data(), absl::Seconds(60));
  });
  for (int64_t r = 0; r < 2; ++r) {
    EXPECT_EQ(status[r].code(), absl::StatusCode::kInvalidArgument)
        << status[r];
    EXPECT_THAT(std::string(status[r].message()),
                AllOf(HasSubstr("collective #4"),
                      HasSubstr("mismatched operands"),
                      ContainsRegex("replica [01] passed [89] f32 elements "
                                    "with sum but replica [01] passed [89] "
                                    "f32 elements with sum"),
                      HasSubstr("8 f32"), HasSubstr("9 f32")));
  }
}

TEST(InProcessCommunicatorTest, MismatchedDTypeAndKind) {
  for (bool dtypeDiffers : {true, false}) {
    auto comm = makeComm(3);
    std::vector<double> buf(3 * 4, 1.0);
    std::vector<absl::Status> status(3);
    onEveryReplica(3, [&](int64_t r) {
      DType dtype = dtypeDiffers && r == 2 ? DType::I64 : DType::F64;
      ReduceKind kind =
          !dtypeDiffers && r == 2 ? ReduceKind::Max : ReduceKind::Sum;
      status[r] = comm->allReduce(CollectiveKey{}, r, {}, kind, dtype, 4,
                                  &buf[r * 4], &buf[r * 4], absl::Seconds(60));
    });
    for (int64_t r = 0; r < 3; ++r) {
      EXPECT_EQ(status[r].code(), absl::StatusCode::kInvalidArgument)
          << status[r];
      EXPECT_THAT(std::string(status[r].message()),
                  HasSubstr("replica 2 passed"));
      EXPECT_THAT(std::string(status[r].message()),
                  HasSubstr(dtypeDiffers ? "4 i64 elements with sum"
                                         : "4 f64 elements with max"));
    }
  }
}

TEST(InProcessCommunicatorTest, TimeoutNamesMissingReplica) {
  // Replica 1 never arrives.
  auto comm = makeComm(2);
  float in = 1, out = 0;
  absl::Status s =
      comm->allReduce(CollectiveKey{5, 2, 1}, 0, {}, ReduceKind::Sum,
                      DType::F32, 1, &in, &out, absl::Milliseconds(50));
  EXPECT_EQ(s.code(), absl::StatusCode::kDeadlineExceeded) << s;
  EXPECT_THAT(std::string(s.message()),
              AllOf(HasSubstr("all-reduce (run 5, collective #2, invocation 1) "
                              "in replica group {0,1}"),
                    HasSubstr("replica 0 timed out after 50ms waiting for "
                              "replica 1 (arrived: 0)")));
  // A latecomer gets the same error instead of waiting again.
  absl::Status late =
      comm->allReduce(CollectiveKey{5, 2, 1}, 1, {}, ReduceKind::Sum,
                      DType::F32, 1, &in, &out, absl::Seconds(60));
  EXPECT_EQ(late, s);
}

TEST(InProcessCommunicatorTest, TimeoutInSubgroupOfMany) {
  // Replicas 0..2 of group {0,1,2,3} arrive; 3 never does. Group {4,5} is
  // unaffected.
  const int64_t n = 6;
  auto comm = makeComm(n);
  ReplicaGroups groups = {{0, 1, 2, 3}, {4, 5}};
  std::vector<int32_t> in(n, 1), out(n, 0);
  std::vector<absl::Status> status(n);
  onEveryReplica(n, [&](int64_t r) {
    if (r == 3)
      return;
    // Only the incomplete group may time out: the other gets all the time
    // a loaded machine needs to start its two threads.
    absl::Duration timeout =
        r >= 4 ? absl::Seconds(60) : absl::Milliseconds(200);
    status[r] = comm->allReduce(CollectiveKey{}, r, groups, ReduceKind::Sum,
                                DType::I32, 1, &in[r], &out[r], timeout);
  });
  for (int64_t r : {0, 1, 2}) {
    EXPECT_EQ(status[r].code(), absl::StatusCode::kDeadlineExceeded)
        << status[r];
    EXPECT_THAT(std::string(status[r].message()),
                ContainsRegex("waiting for replicas? ([0-9]+, )*3 "
                              "\\(arrived: 0"));
  }
  EXPECT_TRUE(status[4].ok()) << status[4];
  EXPECT_TRUE(status[5].ok()) << status[5];
  EXPECT_EQ(out[4], 2);
}

TEST(InProcessCommunicatorTest, AbortWakesWaitersAndFailsLaterCalls) {
  const int64_t n = 8;
  auto comm = makeComm(n);
  std::vector<float> in(n, 1), out(n, 0);
  std::vector<absl::Status> status(n);
  std::vector<std::thread> threads;
  // Replicas 0..6 wait for replica 7, which never comes; the abort must
  // release them with Aborted (were it ignored, they would time out after a
  // minute with DeadlineExceeded and fail the test).
  for (int64_t r = 0; r + 1 < n; ++r)
    threads.emplace_back([&, r] {
      status[r] =
          comm->allReduce(CollectiveKey{}, r, {}, ReduceKind::Sum, DType::F32,
                          1, &in[r], &out[r], absl::Seconds(60));
    });
  comm->abort(absl::InternalError("core 7 failed"));
  for (auto &t : threads)
    t.join();
  EXPECT_TRUE(comm->isAborted());
  for (int64_t r = 0; r + 1 < n; ++r) {
    EXPECT_EQ(status[r].code(), absl::StatusCode::kAborted) << status[r];
    EXPECT_THAT(std::string(status[r].message()), HasSubstr("core 7 failed"));
  }
  absl::Status later =
      comm->allReduce(CollectiveKey{0, 1, 0}, 7, {}, ReduceKind::Sum,
                      DType::F32, 1, &in[7], &out[7], absl::Seconds(60));
  EXPECT_EQ(later.code(), absl::StatusCode::kAborted);
  // The first reason is kept.
  comm->abort(absl::InternalError("second"));
  EXPECT_THAT(std::string(comm->allReduce(CollectiveKey{}, 0, {},
                                          ReduceKind::Sum, DType::F32, 1,
                                          &in[0], &out[0], absl::Seconds(1))
                              .message()),
              HasSubstr("core 7 failed"));
}

TEST(InProcessCommunicatorTest, InvalidGroupsFailWithoutWaiting) {
  auto comm = makeComm(4);
  float in = 1, out = 0;
  absl::Status s =
      comm->allReduce(CollectiveKey{}, 0, {{0, 1}, {1, 2, 3}}, ReduceKind::Sum,
                      DType::F32, 1, &in, &out, absl::Seconds(60));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(s.message()),
              HasSubstr("replica 1 appears in groups 0 and 1"));
  s = comm->allReduce(CollectiveKey{}, 0, {{0, 1}}, ReduceKind::Sum, DType::F32,
                      1, &in, &out, absl::Seconds(60));
  EXPECT_THAT(std::string(s.message()),
              HasSubstr("replicas 2, 3 are in no group"));
  s = comm->allReduce(CollectiveKey{}, 4, {}, ReduceKind::Sum, DType::F32, 1,
                      &in, &out, absl::Seconds(60));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(std::string(s.message()),
              HasSubstr("replica id 4 is out of range [0, 4)"));
}

TEST(InProcessCommunicatorTest, MismatchedGroupsAcrossReplicas) {
  auto comm = makeComm(4);
  std::vector<float> in(4, 1), out(4, 0);
  std::vector<absl::Status> status(2);
  // Replicas 0 and 1 disagree on the groups; both groups start with 0.
  onEveryReplica(2, [&](int64_t r) {
    ReplicaGroups groups =
        r == 0 ? ReplicaGroups{{0, 1}, {2, 3}} : ReplicaGroups{};
    status[r] =
        comm->allReduce(CollectiveKey{}, r, groups, ReduceKind::Sum, DType::F32,
                        1, &in[r], &out[r], absl::Seconds(60));
  });
  for (int64_t r = 0; r < 2; ++r) {
    EXPECT_EQ(status[r].code(), absl::StatusCode::kInvalidArgument)
        << status[r];
    EXPECT_THAT(std::string(status[r].message()), HasSubstr("{0,1,2,3}"));
  }
}

TEST(InProcessCommunicatorTest, UnsupportedDTypeIsUnimplemented) {
  auto comm = makeComm(2);
  uint8_t in = 0, out = 0;
  absl::Status s = comm->allReduce(CollectiveKey{}, 0, {}, ReduceKind::Sum,
                                   DType::I1, 1, &in, &out, absl::Seconds(1));
  EXPECT_EQ(s.code(), absl::StatusCode::kUnimplemented);
  EXPECT_THAT(std::string(s.message()), HasSubstr("i1"));
}

TEST(InProcessCommunicatorTest, CreateValidatesReplicaCount) {
  EXPECT_EQ(InProcessCommunicator::create(0).status().code(),
            absl::StatusCode::kInvalidArgument);
}

TEST(InProcessCommunicatorTest, CollectiveKeyToString) {
  EXPECT_EQ((CollectiveKey{3, 0, 2}.toString()),
            "run 3, collective #0, invocation 2");
  // A later phase (the broadcast of a cross-worker all-reduce) is named as
  // one, not as the invocation 2^63 + n it used to be encoded as.
  CollectiveKey broadcast{3, 0, 0};
  broadcast.phase = 1;
  EXPECT_EQ(broadcast.toString(), "run 3, collective #0, invocation 0, phase 1");
  EXPECT_FALSE(broadcast == (CollectiveKey{3, 0, 0}));
}

} // namespace
} // namespace torus::rt
