//===- InProcessCommunicator.h - Collectives in shared memory ---*- C++ -*-===//
//
// Collectives between emulated cores that are threads of one process (XLA's
// in_process_communicator design). The members of a replica group meet at a
// rendezvous named by the collective key and the group; each registers its
// buffers and waits (on a condition variable, never spinning, so 64 or 256
// participants share two host cores) until all have arrived. Then each member
// reduces its own contiguous slice of the elements across all inputs, in
// participant order, and writes the slice to every member's output. A second
// barrier keeps every member inside the call until all slices are written,
// so nobody frees a buffer a peer still touches.
//
// A communicator serves any number of runs (keys carry a run id), but abort()
// is final: create one communicator per run when runs must survive a failed
// predecessor (the Executor does).
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_COLLECTIVES_INPROCESSCOMMUNICATOR_H
#define TORUS_RUNTIME_COLLECTIVES_INPROCESSCOMMUNICATOR_H

#include "runtime/collectives/Communicator.h"

#include "absl/container/flat_hash_map.h"

#include <atomic>
#include <memory>
#include <mutex>

namespace torus::rt {

class InProcessCommunicator final : public Communicator {
public:
  /// Fails (InvalidArgument) unless numReplicas >= 1.
  static absl::StatusOr<std::unique_ptr<InProcessCommunicator>>
  create(int64_t numReplicas);
  ~InProcessCommunicator() override;

  int64_t numReplicas() const override { return numReplicas_; }
  absl::Status allReduce(const CollectiveKey &key, int64_t replicaId,
                         const ReplicaGroups &groups, ReduceKind kind,
                         DType dtype, int64_t count, const void *in, void *out,
                         absl::Duration timeout) override;
  void abort(const absl::Status &reason) override;
  bool isAborted() const override {
    return aborted_.load(std::memory_order_acquire);
  }

  /// Rendezvous still held (for tests: 0 after successful collectives; failed
  /// ones are kept so late peers see the original error).
  size_t numPendingRendezvous() const;

private:
  explicit InProcessCommunicator(int64_t numReplicas)
      : numReplicas_(numReplicas) {}

  struct Rendezvous;
  struct RendezvousKey {
    CollectiveKey key;
    /// First member of the group: groups partition the replicas, so it
    /// names the group.
    int64_t groupLeader;
    friend bool operator==(const RendezvousKey &,
                           const RendezvousKey &) = default;
    template <typename H> friend H AbslHashValue(H h, const RendezvousKey &k) {
      return H::combine(std::move(h), k.key, k.groupLeader);
    }
  };

  absl::Status abortedStatusLocked() const;

  const int64_t numReplicas_;
  mutable std::mutex mutex_;
  std::atomic<bool> aborted_{false};
  absl::Status abortReason_;
  absl::flat_hash_map<RendezvousKey, std::shared_ptr<Rendezvous>> rendezvous_;
};

} // namespace torus::rt

#endif // TORUS_RUNTIME_COLLECTIVES_INPROCESSCOMMUNICATOR_H
