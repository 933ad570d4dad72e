//===- MeshTestUtil.h - Status helpers for the mesh unit's tests -*- C++ -*-===//
#ifndef TORUS_RUNTIME_MESH_MESHTESTUTIL_H
#define TORUS_RUNTIME_MESH_MESHTESTUTIL_H

#include <stdexcept>
#include <string>
#include <utility>

#include "gtest/gtest.h"
#include "torus/Status.h"

namespace torus::rt::testing {

/// The value of `result`. An error fails the test and ends it by throwing
/// (gtest reports the exception and goes on with the next test).
template <typename T> T valueOrFail(absl::StatusOr<T> result) {
  if (!result.ok()) {
    std::string message = "unexpected error: " + result.status().ToString();
    ADD_FAILURE() << message;
    throw std::runtime_error(message);
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
