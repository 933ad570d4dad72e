//===- Status.h - Status helpers shared by every Torus library --*- C++ -*-===//
//
// Torus reports every failure at a library boundary as an absl::Status.
// Debian's abseil (20220623) has no status macros, so they are defined here,
// once.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_STATUS_H
#define TORUS_STATUS_H

#include "absl/status/status.h"
#include "absl/status/statusor.h"

#define TORUS_STATUS_CONCAT_INNER(a, b) a##b
#define TORUS_STATUS_CONCAT(a, b) TORUS_STATUS_CONCAT_INNER(a, b)

/// Returns from the enclosing function if `expr` (an absl::Status) is not OK.
#define TORUS_RETURN_IF_ERROR(expr)                                            \
  do {                                                                         \
    ::absl::Status torus_status_ = (expr);                                     \
    if (!torus_status_.ok())                                                   \
      return torus_status_;                                                    \
  } while (false)

/// `TORUS_ASSIGN_OR_RETURN(auto x, f());` declares/assigns `x` from the value
/// of an absl::StatusOr, or returns its status from the enclosing function.
#define TORUS_ASSIGN_OR_RETURN(lhs, rexpr)                                     \
  TORUS_ASSIGN_OR_RETURN_IMPL(TORUS_STATUS_CONCAT(torus_statusor_, __LINE__),  \
                              lhs, rexpr)
#define TORUS_ASSIGN_OR_RETURN_IMPL(tmp, lhs, rexpr)                           \
  auto tmp = (rexpr);                                                          \
  if (!tmp.ok())                                                               \
    return tmp.status();                                                       \
  lhs = std::move(tmp).value()

#endif // TORUS_STATUS_H
