//===- Rendezvous.h - Where the workers of a job meet -----------*- C++ -*-===//
//
// The place a WorkerGroup's workers meet: Gloo's key-value store (each rank
// publishes its TCP address there) plus the small records WorkerGroup keeps
// per worker (`alive-<rank>`: pid and host; `failed-<rank>`: what it saw).
// Two kinds, both namespaced by the job's prefix:
//   - a directory (gloo::rendezvous::FileStore): workers on one machine, or
//     on several sharing a file system;
//   - a Redis server (RedisStore, `redis://host:port`): workers on different
//     machines without a shared disk.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_MULTIWORKER_RENDEZVOUS_H
#define TORUS_RUNTIME_MULTIWORKER_RENDEZVOUS_H

#include "torus/Status.h"

#include "absl/time/time.h"

#include <memory>
#include <optional>
#include <string>

namespace gloo::rendezvous {
class Store;
}

namespace torus::rt {

class Rendezvous {
public:
  virtual ~Rendezvous() = default;
  /// Gloo's store (connectFullMesh).
  virtual gloo::rendezvous::Store &store() = 0;
  /// Stores a record (atomically: readers never see half of it).
  virtual absl::Status write(const std::string &name,
                             const std::string &text) = 0;
  /// The record, or nullopt when there is none (or it cannot be read).
  virtual std::optional<std::string> read(const std::string &name) = 0;
  /// Where, for messages: the directory, or `redis://host:port key prefix`.
  virtual std::string describe() const = 0;
};

/// Opens `directory`/`prefix` (created if missing) or, when `redisUrl` is
/// not empty, connects to that server (keys under `torus/<prefix>/`) within
/// `connectTimeout`. InvalidArgument for a malformed address; Unavailable
/// naming the place when it cannot be created or reached.
absl::StatusOr<std::unique_ptr<Rendezvous>>
openRendezvous(const std::string &directory, const std::string &redisUrl,
               const std::string &prefix, absl::Duration connectTimeout);

} // namespace torus::rt

#endif // TORUS_RUNTIME_MULTIWORKER_RENDEZVOUS_H
