//===- WorkerGroup.h - The worker processes of one training job -*- C++ -*-===//
//
// One process per worker, connected by Gloo (TCP transport): the link the
// cross-worker communicator (CrossWorkerCommunicator.h) reduces over. Every
// worker creates a WorkerGroup with its rank, the group size and the same
// rendezvous (Rendezvous.h: a directory, or a Redis server for workers on
// different machines; every rank publishes its TCP address there, then all
// connect to all).
//
// Failures are Status values naming the worker, never hangs:
//   - startup: a worker that has not joined within `connectTimeout` fails
//     every other one with DeadlineExceeded naming the missing workers;
//   - a collective whose peer died (its process is gone, or it reported a
//     failure of its own) fails with Unavailable naming the dead worker; one
//     that waits longer than its timeout fails with DeadlineExceeded.
// After a failure the group is broken: every later call returns the same
// error at once (Gloo contexts cannot be repaired; restart the job and
// resume from a checkpoint).
//
// How the dead worker is named: each worker records its pid and host in the
// rendezvous at startup; a worker that detects a failure first
// records what it saw (`failed-<rank>`), then looks for peers on its host
// whose process is gone without such a record. Those died; workers with a
// record merely failed after them (cascading errors name the original
// culprit). Workers on other hosts are named through their records only.
//
// A cut network link: a peer that stops answering fails the others' next
// collective with the timeout (or with a closed connection, from a worker
// that gave up on it first). When no peer died, each of them then probes
// every peer: every
// worker listens on a probe port of its own address (published with its
// pid), and a peer whose probe gets no TCP answer within kProbeTimeout
// (no handshake, no refusal: the link is down) is named as unreachable,
// `worker 2 (10.0.0.5) is unreachable`. A worker that can reach none of its
// peers says its own link may be down.
//
// Connecting ignores SIGPIPE for the process (unless the program installed
// its own handler): Gloo writes to sockets with writev(), and a peer's
// death must be an error, not a signal that kills this worker too.
//
// Thread safety: collectives on one group are serialized (Gloo's context is
// not re-entrant); every worker must issue them in the same order.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_MULTIWORKER_WORKERGROUP_H
#define TORUS_RUNTIME_MULTIWORKER_WORKERGROUP_H

#include "runtime/ProgramSpec.h"
#include "torus/Status.h"
#include "torus/Types.h"

#include "absl/time/time.h"

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace gloo {
class Context;
namespace rendezvous {
class Store;
}
} // namespace gloo

namespace torus::rt {

class Rendezvous;

struct WorkerGroupOptions {
  /// This worker, 0..size-1, and how many there are.
  int rank = 0;
  int size = 1;
  /// What each rank is called in errors (TensorFlow's task names, e.g.
  /// "chief 0", "worker 1"); empty: "worker <rank>".
  std::vector<std::string> names;
  /// A directory every worker can reach (a temp dir on one machine, a shared
  /// file system across machines). Created if missing.
  std::string rendezvousDirectory;
  /// Or a Redis server every worker can reach, `redis://host:port`: workers
  /// on different machines without a shared file system (exactly one of the
  /// two is set).
  std::string rendezvousAddress;
  /// Distinguishes jobs sharing the directory or server (a fresh one per
  /// attempt).
  std::string prefix = "torus";
  /// The interface Gloo listens on (this worker's address in TF_CONFIG).
  std::string hostname = "127.0.0.1";
  /// How long a worker waits for the others to join.
  absl::Duration connectTimeout = absl::Seconds(60);
  /// Default timeout of one collective.
  absl::Duration timeout = absl::Seconds(30);
};

class WorkerGroup {
public:
  /// Joins the group: records this worker, waits (at most connectTimeout)
  /// for every other and connects to all. InvalidArgument for bad options;
  /// DeadlineExceeded naming the workers that did not join; Unavailable for
  /// transport errors.
  static absl::StatusOr<std::shared_ptr<WorkerGroup>>
  connect(const WorkerGroupOptions &options);
  ~WorkerGroup();
  WorkerGroup(const WorkerGroup &) = delete;
  WorkerGroup &operator=(const WorkerGroup &) = delete;

  int rank() const { return options_.rank; }
  int size() const { return options_.size; }
  const std::string &name(int rank) const { return names_.at(rank); }
  const WorkerGroupOptions &options() const { return options_; }

  /// In place: `count` elements of `dtype` at `data` become the element-wise
  /// `kind` reduction over every worker (Gloo's ring algorithm; identical on
  /// every worker). Unimplemented for i1.
  absl::Status allReduce(void *data, DType dtype, int64_t count,
                         ReduceKind kind, absl::Duration timeout);
  absl::Status allReduce(void *data, DType dtype, int64_t count,
                         ReduceKind kind) {
    return allReduce(data, dtype, count, kind, options_.timeout);
  }
  /// `in` holds size() chunks of `count` elements; `out` (count elements)
  /// becomes the element-wise `kind` reduction of every worker's chunk
  /// rank(). A ring: size() - 1 steps, each sending one chunk to the next
  /// worker and adding this worker's to the one received from the previous,
  /// in segments so that adding overlaps receiving. `out` may be chunk
  /// rank() of `in`, and is otherwise apart from it. Unimplemented for i1.
  absl::Status reduceScatter(const void *in, void *out, DType dtype,
                             int64_t count, ReduceKind kind,
                             absl::Duration timeout);
  /// In place: `bytes` at `data` become rank `root`'s.
  absl::Status broadcast(void *data, size_t bytes, int root,
                         absl::Duration timeout);
  /// `bytes` at `in` from every worker, concatenated in rank order at `out`
  /// (size() * bytes; Gloo's ring all-gather).
  absl::Status allGather(const void *in, void *out, size_t bytes,
                         absl::Duration timeout);
  /// `in` holds size() blocks of `bytes`: block r goes to worker r; `out`
  /// receives this worker's block of every worker, in rank order (Gloo's
  /// all-to-all).
  absl::Status allToAll(const void *in, void *out, size_t bytes,
                        absl::Duration timeout);
  /// One message to or from a peer.
  struct Transfer {
    int peer = 0;
    void *data = nullptr;
    size_t bytes = 0;
  };
  /// Point to point over Gloo's transport: sends each of `sends` to its
  /// peer and receives each of `recvs` (at most one per peer and direction;
  /// sizes agreed beforehand). Every worker calls it, with or without
  /// messages, so the collectives stay in step.
  absl::Status exchange(const std::vector<Transfer> &sends,
                        const std::vector<Transfer> &recvs,
                        absl::Duration timeout);
  /// Returns when every worker has called it.
  absl::Status barrier(absl::Duration timeout);

  /// OK, or the failure that broke the group.
  absl::Status status() const;

  /// The Gloo context (for benchmarks comparing against raw Gloo). Do not
  /// use it concurrently with the methods above.
  const std::shared_ptr<gloo::Context> &glooContext() const {
    return context_;
  }

private:
  explicit WorkerGroup(WorkerGroupOptions options);
  /// Turns an exception from Gloo into the group's error, naming the worker
  /// at fault; records it so later calls fail at once.
  absl::Status fail(const std::string &operation, const std::string &what,
                    absl::Duration timeout);
  /// allGather's and allToAll's common part: the lock, the group's status,
  /// the one-worker copy of `bytes`, and Gloo's exception as fail() of
  /// `operation` (a format with `{}` for `bytes`). `run` starts the Gloo
  /// collective on (input, output, tag, timeout).
  absl::Status blockCollective(
      const void *in, void *out, size_t bytes, const char *operation,
      absl::Duration timeout,
      const std::function<void(uint8_t *, uint8_t *, uint32_t,
                               std::chrono::milliseconds)> &run);
  /// Peers that died without reporting a failure (same host: the process is
  /// gone), and culprits named in peers' failure records.
  std::vector<int> deadPeers() const;
  /// Peers whose probe port gives no TCP answer within kProbeTimeout (all
  /// probed at once).
  std::vector<int> unreachablePeers() const;

public:
  /// How long a probe of a peer waits for a TCP answer.
  static constexpr absl::Duration kProbeTimeout = absl::Seconds(2);

private:

  WorkerGroupOptions options_;
  std::vector<std::string> names_;
  std::unique_ptr<Rendezvous> rendezvous_;
  std::shared_ptr<gloo::Context> context_;
  /// Serializes collectives (held for the whole Gloo call).
  std::mutex opMutex_;
  /// Guards error_.
  mutable std::mutex mutex_;
  absl::Status error_;
  uint32_t nextTag_ = 1;
  /// reduceScatter's receive buffer and partial sums, kept from call to
  /// call (guarded by opMutex_).
  std::vector<uint8_t> scratch_;
  /// The socket this worker's probe port listens on (-1: none), and every
  /// worker's probe address ("host:port", empty when it has none), read
  /// once everyone joined (a cut-off worker cannot read them later).
  int probeSocket_ = -1;
  std::vector<std::string> probeAddresses_;
};

} // namespace torus::rt

#endif // TORUS_RUNTIME_MULTIWORKER_WORKERGROUP_H
