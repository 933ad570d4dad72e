//===- MeshTestUtil.h - Status helpers for the mesh unit's tests -*- C++ -*-===//
#ifndef TORUS_RUNTIME_MESH_MESHTESTUTIL_H
#define TORUS_RUNTIME_MESH_MESHTESTUTIL_H

#include <string>
#include <utility>

#include "gtest/gtest.h"
#include "torus/Status.h"

namespace torus::rt::testing {

/// The value of `result`, failing the test (and returning a default) when it
/// holds an error.
template <typename T> T valueOrFail(absl::StatusOr<T> result) {
  if (!result.ok()) {
    ADD_FAILURE() << "unexpected error: " << result.status().ToString();
    if constexpr (std::is_default_constructible_v<T>)
      return T();
    else
      std::abort();
  }
  return *std::move(result);
}

/// Expects `status` to be an error of `code` whose message is exactly
/// `message`.
inline void expectError(const absl::Status &status, absl::StatusCode code,
                        const std::string &message) {
  EXPECT_EQ(status.code(), code) << status.ToString();
  EXPECT_EQ(std::string(status.message()), message);
}

/// Expects `status` to be an error of `code` whose message contains
/// `fragment`.
inline void expectErrorContaining(const absl::Status &status,
                                  absl::StatusCode code,
                                  const std::string &fragment) {
  EXPECT_EQ(status.code(), code) << status.ToString();
  EXPECT_NE(std::string(status.message()).find(fragment), std::string::npos)
      << "message: " << status.message() << "\nexpected to contain: "
      << fragment;
}

} // namespace torus::rt::testing

#endif // TORUS_RUNTIME_MESH_MESHTESTUTIL_H
