//===- RedisStore.h - Gloo's rendezvous store over a Redis server -*- C++ -*-=//
//
// Workers on different machines meet through a Redis server (hiredis) instead
// of a shared directory: every key lives under a prefix naming the job, so
// jobs sharing one server do not collide. Unlike gloo::rendezvous::RedisStore
// (which connects and reads without a timeout), every network operation here
// is bounded: connecting and each command time out, waiting for keys times
// out, and every error names the server's address.
//
// As a gloo::rendezvous::Store (what Gloo's connectFullMesh uses) failures
// are gloo::IoException; the record calls WorkerGroup uses return Status.
// Every key expires kKeyLifetime after it is written.
// Thread safety: calls are serialized on an internal mutex.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_MULTIWORKER_REDISSTORE_H
#define TORUS_RUNTIME_MULTIWORKER_REDISSTORE_H

#include "torus/Status.h"

#include "absl/time/time.h"

#include <gloo/rendezvous/store.h>

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

struct redisContext;

namespace torus::rt {

/// A Redis server's address, from `redis://host:port` (port default 6379).
struct RedisAddress {
  std::string host;
  int port = 6379;
  std::string toString() const;
};

/// Parses `redis://host:port`; InvalidArgument naming what is wrong.
absl::StatusOr<RedisAddress> parseRedisAddress(const std::string &url);

class RedisStore final : public gloo::rendezvous::Store {
public:
  /// Connects (at most `timeout`, also the limit of every later command)
  /// and checks the server answers PING. Unavailable naming the address when
  /// it cannot be reached.
  static absl::StatusOr<std::unique_ptr<RedisStore>>
  connect(const RedisAddress &address, std::string keyPrefix,
          absl::Duration timeout);
  ~RedisStore() override;

  // gloo::rendezvous::Store: keys under the prefix; wait polls.
  void set(const std::string &key, const std::vector<char> &data) override;
  std::vector<char> get(const std::string &key) override;
  void wait(const std::vector<std::string> &keys) override;
  void wait(const std::vector<std::string> &keys,
            const std::chrono::milliseconds &timeout) override;

  /// How long a key lives on the server after it is written: a job's
  /// rendezvous is over in seconds and its records (alive-, failed-) are
  /// read while it runs, so a week leaves nothing behind on a shared server
  /// (a job ended, crashed or abandoned) without cutting short any job
  /// that fails within a week of starting.
  static constexpr absl::Duration kKeyLifetime = absl::Hours(24 * 7);

  /// Stores `value` at `key` (overwriting), for kKeyLifetime.
  absl::Status put(const std::string &key, const std::string &value);
  /// How long `key` has left before the server drops it, or nullopt when
  /// there is no such key (or it never expires).
  absl::StatusOr<std::optional<absl::Duration>>
  timeToLive(const std::string &key);
  /// The value at `key`, or nullopt when there is none.
  absl::StatusOr<std::optional<std::string>> read(const std::string &key);

  const RedisAddress &address() const { return address_; }
  const std::string &keyPrefix() const { return prefix_; }

private:
  RedisStore(RedisAddress address, std::string prefix, absl::Duration timeout)
      : address_(std::move(address)), prefix_(std::move(prefix)),
        timeout_(timeout) {}
  /// (Re)connects when there is no usable connection. Caller holds mutex_.
  absl::Status ensureConnected();
  /// Runs one command with binary-safe arguments; the reply, or the error
  /// naming the server. Caller holds mutex_.
  struct Reply;
  absl::StatusOr<Reply> command(const std::vector<std::string> &args);

  RedisAddress address_;
  std::string prefix_;
  absl::Duration timeout_;
  std::mutex mutex_;
  redisContext *context_ = nullptr;
};

} // namespace torus::rt

#endif // TORUS_RUNTIME_MULTIWORKER_REDISSTORE_H
