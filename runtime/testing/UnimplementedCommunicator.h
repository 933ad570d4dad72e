//===- UnimplementedCommunicator.h - Base of test communicators -*- C++ -*-===//
//
// Test-only: every collective returns Unimplemented naming itself, so a test
// communicator overrides only the calls it stands in for (and numReplicas,
// abort, isAborted, which stay pure).
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_TESTING_UNIMPLEMENTEDCOMMUNICATOR_H
#define TORUS_RUNTIME_TESTING_UNIMPLEMENTEDCOMMUNICATOR_H

#include "runtime/collectives/Communicator.h"

namespace torus::rt::testing {

class UnimplementedCommunicator : public Communicator {
public:
  absl::Status allReduce(const CollectiveKey &, int64_t, const ReplicaGroups &,
                         ReduceKind, DType, int64_t, const void *, void *,
                         absl::Duration) override {
    return absl::UnimplementedError("all-reduce");
  }
  absl::Status allGather(const CollectiveKey &, int64_t, const ReplicaGroups &,
                         DType, const Shape &, int64_t, const void *, void *,
                         absl::Duration) override {
    return absl::UnimplementedError("all-gather");
  }
  absl::Status reduceScatter(const CollectiveKey &, int64_t,
                             const ReplicaGroups &, ReduceKind, DType,
                             const Shape &, int64_t, const void *, void *,
                             absl::Duration) override {
    return absl::UnimplementedError("reduce-scatter");
  }
  absl::Status allToAll(const CollectiveKey &, int64_t, const ReplicaGroups &,
                        DType, const Shape &, int64_t, int64_t, int64_t,
                        const void *, void *, absl::Duration) override {
    return absl::UnimplementedError("all-to-all");
  }
  absl::Status collectivePermute(const CollectiveKey &, int64_t,
                                 const SourceTargetPairs &, DType,
                                 const Shape &, const void *, void *,
                                 absl::Duration) override {
    return absl::UnimplementedError("collective-permute");
  }
  absl::Status broadcast(const CollectiveKey &, int64_t, const ReplicaGroups &,
                         int64_t, DType, const Shape &, const void *, void *,
                         absl::Duration) override {
    return absl::UnimplementedError("broadcast");
  }
};

} // namespace torus::rt::testing

#endif // TORUS_RUNTIME_TESTING_UNIMPLEMENTEDCOMMUNICATOR_H
