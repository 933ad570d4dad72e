//===- TestUtil.h - Helpers shared by the distribute tests ------*- C++ -*-===//
#ifndef TORUS_DISTRIBUTE_TESTUTIL_H
#define TORUS_DISTRIBUTE_TESTUTIL_H

#include "support/DTypeDispatch.h"
#include "torus/HostTensor.h"
#include "torus/distribute/Dataset.h"
#include "torus/distribute/Values.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace torus::distribute::testing {

using ::testing::ElementsAre;
using ::testing::EndsWith;
using ::testing::FloatNear;
using ::testing::HasSubstr;
using ::testing::Pointwise;
using ::testing::StartsWith;

/// The elements of a HostTensor as int64 (any integer dtype).
inline std::vector<int64_t> ints(const HostTensor &t) {
  std::vector<int64_t> out;
  for (int64_t i = 0; i < t.numElements(); ++i) {
    if (isFloat(t.dtype()) || isComplex(t.dtype()) ||
        !visitDType(t.dtype(), [&]<typename T>(T) {
          if constexpr (!IsComplex<T>)
            out.push_back(static_cast<int64_t>(t.data<T>()[i]));
        }))
      ADD_FAILURE() << "ints() of " << t.spec().toString();
  }
  return out;
}

inline std::vector<float> floats(const HostTensor &t) {
  if (t.dtype() == DType::F64) {
    std::vector<float> out;
    for (double d : t.toVector<double>())
      out.push_back(static_cast<float>(d));
    return out;
  }
  return t.toVector<float>();
}

inline HostTensor f32(Shape shape, std::vector<float> v) {
  return HostTensor::fromVector<float>(std::move(shape), v);
}
inline HostTensor f32(float v) { return HostTensor::scalar(v); }
inline HostTensor i64(Shape shape, std::vector<int64_t> v) {
  return HostTensor::fromVector<int64_t>(std::move(shape), v);
}

/// Each replica's first-component values, per step.
inline std::vector<std::vector<std::vector<int64_t>>>
perReplicaInts(const std::vector<Values> &steps, size_t component = 0) {
  std::vector<std::vector<std::vector<int64_t>>> out;
  for (const Values &v : steps) {
    std::vector<std::vector<int64_t>> replicas;
    for (const HostTensor &t : v[component].perReplica().values())
      replicas.push_back(ints(t));
    out.push_back(replicas);
  }
  return out;
}

#define TORUS_ASSERT_OK_AND_ASSIGN(lhs, expr)                                  \
  TORUS_ASSERT_OK_AND_ASSIGN_IMPL(                                             \
      TORUS_STATUS_CONCAT(torus_test_statusor_, __LINE__), lhs, expr)
#define TORUS_ASSERT_OK_AND_ASSIGN_IMPL(tmp, lhs, expr)                        \
  auto tmp = (expr);                                                           \
  ASSERT_TRUE(tmp.ok()) << tmp.status();                                       \
  lhs = std::move(tmp).value()

/// Asserts a status has `code` and exactly `message`.
#define EXPECT_STATUS(expr, expectedCode, expectedMessage)                     \
  do {                                                                         \
    auto torus_s_ = (expr);                                                    \
    absl::Status torus_st_ = ::torus::distribute::testing::statusOf(torus_s_); \
    EXPECT_EQ(torus_st_.code(), expectedCode) << torus_st_;                    \
    EXPECT_EQ(std::string(torus_st_.message()), std::string(expectedMessage)); \
  } while (false)

inline absl::Status statusOf(const absl::Status &s) { return s; }
template <typename T> absl::Status statusOf(const absl::StatusOr<T> &s) {
  return s.status();
}

} // namespace torus::distribute::testing

#endif // TORUS_DISTRIBUTE_TESTUTIL_H
