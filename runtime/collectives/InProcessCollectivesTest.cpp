//===- InProcessCollectivesTest.cpp - Every collective vs the reference ---===//
//
// Runs every collective kind with every in-process algorithm (direct, ring,
// torus over a mesh placement) on 1 to 64 participants, one thread each,
// over whole-group, strided, reversed, uneven and single-member group
// layouts, every element type and awkward sizes, and compares every
// participant's result byte for byte with ReferenceCollectives. Reductions
// fold left to right in group order in every algorithm, so float results
// are compared exactly too.
//
//===----------------------------------------------------------------------===//

#include "runtime/collectives/InProcessCommunicator.h"
#include "runtime/collectives/ReferenceCollectives.h"

#include "runtime/collectives/CallNamed.h"
#include "runtime/collectives/HalfFloat.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <numeric>
#include <thread>

namespace torus::rt {
namespace {

using ::testing::AllOf;
using ::testing::ContainsRegex;
using ::testing::HasSubstr;
using ::torus::rt::testing::callNamed;

std::string msg(const absl::Status &s) { return std::string(s.message()); }

void onEveryReplica(int64_t n, const std::function<void(int64_t)> &body) {
  std::vector<std::thread> threads;
  threads.reserve(n);
  for (int64_t r = 0; r < n; ++r)
    threads.emplace_back(body, r);
  for (auto &t : threads)
    t.join();
}

/// Deterministic operand bytes: values of varied magnitude and sign (so
/// float sums depend on their order), small near-one values for products.
Bytes makeOperand(const CollectiveOp &op, int64_t participant) {
  const int64_t count = numElements(op.shape);
  Bytes b(count * byteWidth(op.dtype));
  const bool product = op.reduce == ReduceKind::Product &&
                       (op.kind == CollectiveOpKind::AllReduce ||
                        op.kind == CollectiveOpKind::ReduceScatter);
  for (int64_t i = 0; i < count; ++i) {
    int64_t v = (participant * 7919 + i * 104729 + 13) % 2003 - 1001;
    double x = product ? 1.0 + static_cast<double>(v % 17) / 64.0
                       : std::ldexp(static_cast<double>(v), int(i % 23) - 11);
    switch (op.dtype) {
    case DType::F32: {
      float f = static_cast<float>(x);
      std::memcpy(&b[i * 4], &f, 4);
      break;
    }
    case DType::F64:
      std::memcpy(&b[i * 8], &x, 8);
      break;
    case DType::F16: {
      uint16_t h = floatToF16(static_cast<float>(product ? x : v / 8.0));
      std::memcpy(&b[i * 2], &h, 2);
      break;
    }
    case DType::BF16: {
      uint16_t h = floatToBf16(static_cast<float>(x));
      std::memcpy(&b[i * 2], &h, 2);
      break;
    }
    case DType::I32: {
      int32_t k = product ? int32_t(v % 3) : int32_t(v * 2147483 + i);
      std::memcpy(&b[i * 4], &k, 4);
      break;
    }
    case DType::I64: {
      int64_t k = product ? v % 5 : v * 9007199254740993LL + participant;
      std::memcpy(&b[i * 8], &k, 8);
      break;
    }
    case DType::I1:
      b[i] = static_cast<unsigned char>((v & 1) != 0);
      break;
    }
  }
  return b;
}

/// A mesh [x, y, z, cores] holding exactly n cores, with participant ids
/// placed on its cells in row-major order (core fastest) or scattered by a
/// stride coprime with n. Wraparound on x and y.
MeshPlacement placementFor(int64_t n, bool scattered) {
  MeshPlacement p;
  int32_t cores = n % 2 == 0 ? 2 : 1;
  int64_t rest = n / cores;
  int32_t x = 1;
  for (int32_t f = 1; f * f <= rest; ++f)
    if (rest % f == 0)
      x = f;
  int64_t yz = rest / x;
  int32_t z = yz % 2 == 0 && yz > 2 ? 2 : 1;
  int32_t y = static_cast<int32_t>(yz / z);
  p.meshShape = {x, y, z, cores};
  p.wraparound = {true, true, false};
  int64_t stride = 1;
  if (scattered)
    for (stride = n / 2 + 1; std::gcd(stride, n) != 1; ++stride) {
    }
  p.coordinates.resize(n);
  for (int64_t id = 0; id < n; ++id) {
    int64_t cell = (id * stride) % n;
    int32_t c = static_cast<int32_t>(cell % cores);
    int64_t chip = cell / cores;
    p.coordinates[id] = {static_cast<int32_t>(chip % x),
                         static_cast<int32_t>((chip / x) % y),
                         static_cast<int32_t>(chip / (int64_t(x) * y)), c};
  }
  return p;
}

enum class Layout { All, Strided, Reversed, Halves, Uneven, Singletons };
const char *layoutName(Layout l) {
  switch (l) {
  case Layout::All:
    return "all";
  case Layout::Strided:
    return "strided";
  case Layout::Reversed:
    return "reversed";
  case Layout::Halves:
    return "halves";
  case Layout::Uneven:
    return "uneven";
  case Layout::Singletons:
    return "singletons";
  }
  return "?";
}

/// The replica groups of `layout` for n participants; empty when the layout
/// does not apply (e.g. halves of an odd count).
std::optional<ReplicaGroups> groupsFor(Layout layout, int64_t n) {
  ReplicaGroups g;
  switch (layout) {
  case Layout::All:
    return g;
  case Layout::Strided: // {0,2,4,..},{1,3,5,..}
    if (n % 2)
      return std::nullopt;
    g.resize(2);
    for (int64_t r = 0; r < n; ++r)
      g[r % 2].push_back(r);
    return g;
  case Layout::Reversed: // one group, participant order reversed
    g.resize(1);
    for (int64_t r = n - 1; r >= 0; --r)
      g[0].push_back(r);
    return g;
  case Layout::Halves: // {n/2..n-1},{0..n/2-1}
    if (n % 2 || n < 4)
      return std::nullopt;
    g.resize(2);
    for (int64_t r = 0; r < n; ++r)
      g[r < n / 2 ? 1 : 0].push_back(r);
    return g;
  case Layout::Uneven: // {0},{1,2},{3,4,5},... (different sizes)
    if (n < 3)
      return std::nullopt;
    for (int64_t r = 0, size = 1; r < n; ++size) {
      g.emplace_back();
      for (int64_t k = 0; k < size && r < n; ++k)
        g.back().push_back(r++);
    }
    return g;
  case Layout::Singletons:
    for (int64_t r = 0; r < n; ++r)
      g.push_back({r});
    return g;
  }
  return std::nullopt;
}

int64_t groupSizeOf(const ReplicaGroups &groups, int64_t n) {
  return groups.empty() ? n : static_cast<int64_t>(groups[0].size());
}

bool sameSizes(const ReplicaGroups &groups) {
  for (const auto &g : groups)
    if (g.size() != groups[0].size())
      return false;
  return true;
}

/// An op of `kind` valid for groups of size g, with awkward extents.
CollectiveOp opFor(CollectiveOpKind kind, int64_t g, int64_t n, int variant) {
  static constexpr DType kDTypes[] = {DType::F32, DType::I64, DType::F64,
                                      DType::I32, DType::BF16, DType::F16};
  static constexpr ReduceKind kKinds[] = {ReduceKind::Sum, ReduceKind::Max,
                                          ReduceKind::Product, ReduceKind::Min};
  CollectiveOp op;
  op.kind = kind;
  op.dtype = kDTypes[variant % 6];
  op.reduce = kKinds[variant % 4];
  switch (kind) {
  case CollectiveOpKind::AllReduce:
    op.shape = {variant % 3 == 0 ? 1 : variant % 3 == 1 ? 1003 : 70001};
    break;
  case CollectiveOpKind::AllGather:
    op.shape = {3, 5, 7};
    op.dimension = variant % 3;
    if (variant % 2)
      op.shape = {257};
    if (variant % 2)
      op.dimension = 0;
    break;
  case CollectiveOpKind::ReduceScatter:
    op.shape = {2, 3 * g, 5};
    op.dimension = 1;
    if (variant % 3 == 1) {
      op.shape = {g * 1001};
      op.dimension = 0;
    } else if (variant % 3 == 2) {
      op.shape = {3, 7, g};
      op.dimension = 2;
    }
    break;
  case CollectiveOpKind::AllToAll:
    op.splitCount = g;
    switch (variant % 3) {
    case 0: // split rows, concatenate columns
      op.shape = {2 * g, 3, 5};
      op.splitDimension = 0;
      op.concatDimension = 2;
      break;
    case 1: // the same dimension
      op.shape = {3, g * 4};
      op.splitDimension = 1;
      op.concatDimension = 1;
      break;
    default: // split inner, concatenate outer
      op.shape = {2, 5, g};
      op.splitDimension = 2;
      op.concatDimension = 0;
      break;
    }
    break;
  case CollectiveOpKind::CollectivePermute:
    op.shape = {variant % 2 ? 5 : 4099};
    // A shift by one (not from the last), a swap of the first two when it
    // is not one, and an identity pair: the rest receive zeros.
    for (int64_t r = 0; r + 1 < n; r += 2)
      op.pairs.push_back({r, (r + 1 + variant) % n});
    {
      // Keep targets distinct.
      std::vector<char> used(n, 0);
      SourceTargetPairs unique;
      for (auto p : op.pairs)
        if (!used[p.second]) {
          used[p.second] = 1;
          unique.push_back(p);
        }
      op.pairs = unique;
    }
    break;
  case CollectiveOpKind::Broadcast:
    op.shape = {variant % 2 ? 3 : 70001};
    op.root = variant % g;
    break;
  }
  return op;
}

struct CaseResult {
  bool ok = true;
};

void checkCase(CollectiveOpKind kind, CollectiveAlgorithm algorithm,
               bool scattered, int64_t n, Layout layout, int variant,
               bool inPlace) {
  std::optional<ReplicaGroups> maybeGroups = groupsFor(layout, n);
  if (!maybeGroups)
    return;
  const ReplicaGroups &groups = *maybeGroups;
  const bool shapeChanging = kind == CollectiveOpKind::AllGather ||
                             kind == CollectiveOpKind::ReduceScatter ||
                             kind == CollectiveOpKind::AllToAll;
  if (!sameSizes(groups) && shapeChanging)
    return; // one op per program: shape-changing ops need equal groups
  const int64_t g = groupSizeOf(groups, n);
  CollectiveOp op = opFor(kind, g, n, variant);
  if (kind == CollectiveOpKind::Broadcast && !sameSizes(groups))
    op.root = 0;
  if (inPlace && op.resultBytes(g) != op.operandBytes())
    return;
  SCOPED_TRACE(::testing::Message()
               << collectiveOpKindName(kind) << " "
               << collectiveAlgorithmName(algorithm)
               << (scattered ? " scattered" : "") << ", " << n
               << " participants, groups " << layoutName(layout) << " "
               << replicaGroupsToString(groups) << ", " << op.describe()
               << (inPlace ? ", in place" : ""));

  CommunicatorOptions options;
  options.algorithm = algorithm;
  if (algorithm == CollectiveAlgorithm::Torus ||
      algorithm == CollectiveAlgorithm::Auto)
    options.placement = placementFor(n, scattered);
  // The named algorithms run their schedules at every size; Auto keeps the
  // default, where small collectives are done by the last member to arrive.
  if (algorithm != CollectiveAlgorithm::Auto)
    options.smallCollectiveBytes = 0;
  auto comm = InProcessCommunicator::create(n, options);
  ASSERT_TRUE(comm.ok()) << comm.status();

  std::vector<Bytes> inputs(n);
  for (int64_t r = 0; r < n; ++r)
    inputs[r] = makeOperand(op, r);
  std::vector<Bytes> expected = referenceCollective(op, groups, inputs);

  std::vector<Bytes> buffers = inputs; // in place: outputs overwrite these
  std::vector<Bytes> outputs(n);
  std::vector<absl::Status> status(n);
  onEveryReplica(n, [&](int64_t r) {
    int64_t size = groups.empty() ? n : 0;
    for (const auto &grp : groups)
      for (int64_t m : grp)
        if (m == r)
          size = static_cast<int64_t>(grp.size());
    if (kind == CollectiveOpKind::CollectivePermute)
      size = n;
    outputs[r].assign(op.resultBytes(size), 0xA5); // garbage to overwrite
    void *out = inPlace ? buffers[r].data() : outputs[r].data();
    status[r] = callNamed(**comm, CollectiveKey{1, 2, 3}, r, groups, op,
                          buffers[r].data(), out);
  });
  for (int64_t r = 0; r < n; ++r) {
    ASSERT_TRUE(status[r].ok()) << "participant " << r << ": " << status[r];
    const Bytes &got = inPlace ? buffers[r] : outputs[r];
    ASSERT_EQ(got.size(), expected[r].size()) << "participant " << r;
    if (std::memcmp(got.data(), expected[r].data(), got.size()) != 0) {
      size_t at = 0;
      while (got[at] == expected[r][at])
        ++at;
      FAIL() << "participant " << r << ": first differing byte " << at
             << " of " << got.size();
    }
    if (!inPlace) // the operand is read only
      ASSERT_EQ(buffers[r], inputs[r]) << "participant " << r;
  }
  EXPECT_EQ((*comm)->numPendingRendezvous(), 0u);
}

struct Param {
  CollectiveOpKind kind;
  CollectiveAlgorithm algorithm;
  bool scattered;
};

class EveryCollective : public ::testing::TestWithParam<Param> {};

TEST_P(EveryCollective, MatchesReferenceOnEveryLayout) {
  const Param p = GetParam();
  int variant = 0;
  for (int64_t n : {1, 2, 3, 4, 5, 8, 12, 17, 32, 64})
    for (Layout layout : {Layout::All, Layout::Strided, Layout::Reversed,
                          Layout::Halves, Layout::Uneven, Layout::Singletons}) {
      if (n == 64 && layout != Layout::All && layout != Layout::Strided)
        continue; // keep the big cases few
      checkCase(p.kind, p.algorithm, p.scattered, n, layout, variant++,
                /*inPlace=*/false);
      if (HasFatalFailure())
        return;
    }
}

TEST_P(EveryCollective, InPlace) {
  const Param p = GetParam();
  int variant = 1;
  for (int64_t n : {2, 3, 8, 17})
    for (Layout layout : {Layout::All, Layout::Strided, Layout::Reversed}) {
      checkCase(p.kind, p.algorithm, p.scattered, n, layout, variant++,
                /*inPlace=*/true);
      if (HasFatalFailure())
        return;
    }
}

std::vector<Param> everyParam() {
  std::vector<Param> params;
  for (CollectiveOpKind kind :
       {CollectiveOpKind::AllReduce, CollectiveOpKind::AllGather,
        CollectiveOpKind::ReduceScatter, CollectiveOpKind::AllToAll,
        CollectiveOpKind::CollectivePermute, CollectiveOpKind::Broadcast}) {
    params.push_back({kind, CollectiveAlgorithm::Direct, false});
    params.push_back({kind, CollectiveAlgorithm::Ring, false});
    params.push_back({kind, CollectiveAlgorithm::Torus, false});
    params.push_back({kind, CollectiveAlgorithm::Torus, true});
    params.push_back({kind, CollectiveAlgorithm::Auto, true});
  }
  return params;
}

INSTANTIATE_TEST_SUITE_P(
    KindsAndAlgorithms, EveryCollective, ::testing::ValuesIn(everyParam()),
    [](const auto &info) {
      std::string name(collectiveOpKindName(info.param.kind));
      name += "_";
      name += collectiveAlgorithmName(info.param.algorithm);
      if (info.param.scattered)
        name += "_scattered";
      for (char &c : name)
        if (c == '-')
          c = '_';
      return name;
    });

TEST(InProcessCollectivesTest, TorusIsChosenForGridsAndUsed) {
  // The whole slice of a [2,2,2,2] placement is a 4-D grid; a strided half
  // (core 0 of every chip) a 3-D one; {0, 1, 2} is no grid.
  CommunicatorOptions options;
  options.placement = placementFor(16, false);
  auto comm = InProcessCommunicator::create(16, options);
  ASSERT_TRUE(comm.ok());
  CollectiveOp op;
  op.shape = {100};
  std::vector<int64_t> all(16);
  std::iota(all.begin(), all.end(), 0);
  EXPECT_EQ((*comm)->algorithmFor(op, all), CollectiveAlgorithm::Torus);
  std::vector<int64_t> even = {0, 2, 4, 6, 8, 10, 12, 14};
  EXPECT_EQ((*comm)->algorithmFor(op, even), CollectiveAlgorithm::Torus);
  std::vector<int64_t> three = {0, 1, 2};
  EXPECT_EQ((*comm)->algorithmFor(op, three), CollectiveAlgorithm::Ring);
  op.kind = CollectiveOpKind::AllToAll;
  EXPECT_EQ((*comm)->algorithmFor(op, all), CollectiveAlgorithm::Direct);
  op.kind = CollectiveOpKind::Broadcast;
  EXPECT_EQ((*comm)->algorithmFor(op, all), CollectiveAlgorithm::Ring);
}

TEST(InProcessCollectivesTest, ManyInvocationsOfEveryKindInterleaved) {
  // Each participant runs a sequence of different collectives with the
  // torus schedule; keys keep the rendezvous apart.
  const int64_t n = 16;
  CommunicatorOptions options;
  options.placement = placementFor(n, true);
  auto comm = InProcessCommunicator::create(n, options);
  ASSERT_TRUE(comm.ok());
  std::vector<CollectiveOp> ops;
  for (CollectiveOpKind kind :
       {CollectiveOpKind::AllReduce, CollectiveOpKind::AllGather,
        CollectiveOpKind::ReduceScatter, CollectiveOpKind::AllToAll,
        CollectiveOpKind::CollectivePermute, CollectiveOpKind::Broadcast})
    for (int variant = 0; variant < 3; ++variant)
      ops.push_back(opFor(kind, n, n, variant));
  std::vector<std::vector<Bytes>> inputs(ops.size(), std::vector<Bytes>(n));
  std::vector<std::vector<Bytes>> outputs(ops.size(), std::vector<Bytes>(n));
  for (size_t k = 0; k < ops.size(); ++k)
    for (int64_t r = 0; r < n; ++r) {
      inputs[k][r] = makeOperand(ops[k], r);
      outputs[k][r].resize(ops[k].resultBytes(n));
    }
  std::vector<absl::Status> status(n);
  onEveryReplica(n, [&](int64_t r) {
    for (int repeat = 0; repeat < 3; ++repeat)
      for (size_t k = 0; k < ops.size() && status[r].ok(); ++k)
        status[r] = callNamed(
            **comm, CollectiveKey{0, static_cast<int64_t>(k), uint64_t(repeat)},
            r, {}, ops[k], inputs[k][r].data(), outputs[k][r].data());
  });
  for (int64_t r = 0; r < n; ++r)
    ASSERT_TRUE(status[r].ok()) << status[r];
  for (size_t k = 0; k < ops.size(); ++k) {
    auto expected = referenceCollective(ops[k], {}, inputs[k]);
    for (int64_t r = 0; r < n; ++r)
      ASSERT_EQ(outputs[k][r], expected[r]) << ops[k].describe() << " " << r;
  }
  EXPECT_EQ((*comm)->numPendingRendezvous(), 0u);
}

//===----------------------------------------------------------------------===//
// Failures: errors, never hangs.
//===----------------------------------------------------------------------===//

TEST(InProcessCollectivesTest, MismatchedShapesNameBothReplicas) {
  auto comm = InProcessCommunicator::create(3);
  ASSERT_TRUE(comm.ok());
  std::vector<std::vector<float>> in(3, std::vector<float>(12, 1.0f));
  std::vector<std::vector<float>> out(3, std::vector<float>(48));
  std::vector<absl::Status> status(3);
  onEveryReplica(3, [&](int64_t r) {
    Shape shape = r == 1 ? Shape{4, 3} : Shape{3, 4};
    status[r] = (*comm)->allGather(CollectiveKey{0, 6, 0}, r, {}, DType::F32,
                                   shape, 0, in[r].data(), out[r].data(),
                                   absl::Seconds(60));
  });
  for (int64_t r = 0; r < 3; ++r) {
    EXPECT_EQ(status[r].code(), absl::StatusCode::kInvalidArgument)
        << status[r];
    EXPECT_THAT(msg(status[r]),
                AllOf(HasSubstr("all-gather (run 0, collective #6, "
                                "invocation 0) in replica group {0,1,2}: "
                                "mismatched operands"),
                      HasSubstr("f32[4,3] along dimension 0"),
                      HasSubstr("f32[3,4] along dimension 0")));
  }
}

TEST(InProcessCollectivesTest, MismatchedKindsAndParameters) {
  // Same key, one participant calls a different collective.
  auto comm = InProcessCommunicator::create(2);
  ASSERT_TRUE(comm.ok());
  std::vector<std::vector<int32_t>> in(2, std::vector<int32_t>(4, 1));
  std::vector<std::vector<int32_t>> out(2, std::vector<int32_t>(8));
  std::vector<absl::Status> status(2);
  onEveryReplica(2, [&](int64_t r) {
    if (r == 0)
      status[r] = (*comm)->allReduce(CollectiveKey{}, r, {}, ReduceKind::Sum,
                                     DType::I32, 4, in[r].data(),
                                     out[r].data(), absl::Seconds(60));
    else
      status[r] = (*comm)->allGather(CollectiveKey{}, r, {}, DType::I32, {4},
                                     0, in[r].data(), out[r].data(),
                                     absl::Seconds(60));
  });
  for (int64_t r = 0; r < 2; ++r) {
    EXPECT_EQ(status[r].code(), absl::StatusCode::kInvalidArgument);
    EXPECT_THAT(msg(status[r]), AllOf(HasSubstr("all-reduce of 4 i32"),
                                      HasSubstr("all-gather of i32[4]")));
  }
  // Different roots.
  comm = InProcessCommunicator::create(2);
  onEveryReplica(2, [&](int64_t r) {
    status[r] = (*comm)->broadcast(CollectiveKey{}, r, {}, r, DType::I32, {4},
                                   in[r].data(), out[r].data(),
                                   absl::Seconds(60));
  });
  for (int64_t r = 0; r < 2; ++r)
    EXPECT_THAT(msg(status[r]), AllOf(HasSubstr("i32[4] from rank 0"),
                                      HasSubstr("i32[4] from rank 1")));
  // Different pairs.
  comm = InProcessCommunicator::create(2);
  onEveryReplica(2, [&](int64_t r) {
    SourceTargetPairs pairs = {{0, 1}};
    if (r == 1)
      pairs = {{1, 0}};
    status[r] = (*comm)->collectivePermute(CollectiveKey{}, r, pairs,
                                           DType::I32, {4}, in[r].data(),
                                           out[r].data(), absl::Seconds(60));
  });
  for (int64_t r = 0; r < 2; ++r)
    EXPECT_THAT(msg(status[r]), AllOf(HasSubstr("pairs {{0,1}}"),
                                      HasSubstr("pairs {{1,0}}")));
}

TEST(InProcessCollectivesTest, EveryKindTimesOutNamingTheMissingReplica) {
  for (CollectiveOpKind kind :
       {CollectiveOpKind::AllReduce, CollectiveOpKind::AllGather,
        CollectiveOpKind::ReduceScatter, CollectiveOpKind::AllToAll,
        CollectiveOpKind::CollectivePermute, CollectiveOpKind::Broadcast}) {
    SCOPED_TRACE(collectiveOpKindName(kind));
    const int64_t n = 4;
    for (CollectiveAlgorithm algorithm :
         {CollectiveAlgorithm::Direct, CollectiveAlgorithm::Ring,
          CollectiveAlgorithm::Auto}) {
      CommunicatorOptions options;
      options.algorithm = algorithm;
      if (algorithm != CollectiveAlgorithm::Auto)
        options.smallCollectiveBytes = 0;
      auto comm = InProcessCommunicator::create(n, options);
      ASSERT_TRUE(comm.ok());
      CollectiveOp op = opFor(kind, n, n, 0);
      std::vector<Bytes> in(n), out(n);
      std::vector<absl::Status> status(n);
      onEveryReplica(n, [&](int64_t r) {
        if (r == 2)
          return; // never arrives
        in[r] = makeOperand(op, r);
        out[r].resize(op.resultBytes(n));
        status[r] = callNamed(**comm, CollectiveKey{9, 1, 0}, r, {}, op,
                              in[r].data(), out[r].data(),
                              absl::Milliseconds(100));
      });
      for (int64_t r : {0, 1, 3}) {
        EXPECT_EQ(status[r].code(), absl::StatusCode::kDeadlineExceeded)
            << status[r];
        EXPECT_THAT(msg(status[r]),
                    AllOf(HasSubstr(std::string(collectiveOpKindName(kind)) +
                                    " (run 9, collective #1, invocation 0)"),
                          ContainsRegex("waiting for replica 2 \\(arrived: "
                                        "[0-9, ]+\\)")));
      }
    }
  }
}

TEST(InProcessCollectivesTest, AbortReleasesWaitersOfEveryKind) {
  const int64_t n = 6;
  auto comm = InProcessCommunicator::create(n);
  ASSERT_TRUE(comm.ok());
  std::vector<CollectiveOp> ops;
  for (CollectiveOpKind kind :
       {CollectiveOpKind::AllGather, CollectiveOpKind::ReduceScatter,
        CollectiveOpKind::AllToAll, CollectiveOpKind::CollectivePermute,
        CollectiveOpKind::Broadcast})
    ops.push_back(opFor(kind, n, n, 1));
  std::vector<absl::Status> status(n - 1);
  std::vector<std::thread> threads;
  // Participants 0..4 wait in collective k = r % 5 for participant 5; the
  // abort must release them long before their one-minute timeout.
  for (int64_t r = 0; r + 1 < n; ++r)
    threads.emplace_back([&, r] {
      const CollectiveOp &op = ops[r % ops.size()];
      Bytes in = makeOperand(op, r), out(op.resultBytes(n));
      status[r] = callNamed(**comm, CollectiveKey{0, r % 5, 0}, r, {}, op,
                            in.data(), out.data(), absl::Seconds(60));
    });
  std::this_thread::sleep_for(std::chrono::milliseconds(20));
  (*comm)->abort(absl::InternalError("core 5 failed"));
  for (auto &t : threads)
    t.join();
  for (int64_t r = 0; r + 1 < n; ++r) {
    EXPECT_EQ(status[r].code(), absl::StatusCode::kAborted) << status[r];
    EXPECT_THAT(msg(status[r]), HasSubstr("core 5 failed"));
  }
}

TEST(InProcessCollectivesTest, InvalidOpsFailWithoutWaiting) {
  auto comm = InProcessCommunicator::create(4);
  ASSERT_TRUE(comm.ok());
  std::vector<float> in(12), out(48);
  absl::Status s = (*comm)->reduceScatter(
      CollectiveKey{}, 0, {}, ReduceKind::Sum, DType::F32, {6, 2}, 0,
      in.data(), out.data(), absl::Seconds(60));
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(msg(s), HasSubstr("not divisible by the 4 participants"));
  s = (*comm)->allToAll(CollectiveKey{}, 0, {}, DType::F32, {4, 3}, 0, 1, 2,
                        in.data(), out.data(), absl::Seconds(60));
  EXPECT_THAT(msg(s), HasSubstr("split_count 2 differs from the 4"));
  s = (*comm)->collectivePermute(CollectiveKey{}, 0, {{0, 1}, {2, 1}},
                                 DType::F32, {4}, in.data(), out.data(),
                                 absl::Seconds(60));
  EXPECT_THAT(msg(s), HasSubstr("replica 1 is the target of two pairs"));
  s = (*comm)->broadcast(CollectiveKey{}, 0, {{0, 1}, {2, 3}}, 2, DType::F32,
                         {4}, in.data(), out.data(), absl::Seconds(60));
  EXPECT_THAT(msg(s), HasSubstr("root rank 2 is outside the replica group"));
  s = (*comm)->allGather(CollectiveKey{}, 0, {}, DType::F32, {4}, 0, nullptr,
                         out.data(), absl::Seconds(60));
  EXPECT_THAT(msg(s), HasSubstr("null buffer"));
  EXPECT_EQ((*comm)->numPendingRendezvous(), 0u);
}

TEST(InProcessCollectivesTest, PlacementMustCoverEveryParticipant) {
  CommunicatorOptions options;
  options.placement = placementFor(8, false);
  EXPECT_THAT(msg(InProcessCommunicator::create(4, options).status()),
              HasSubstr("the placement has 8 participants for 4 replicas"));
}

} // namespace
} // namespace torus::rt
