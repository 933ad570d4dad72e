//===- RedisStore.cpp - Gloo's rendezvous store over a Redis server -------===//

#include "runtime/multiworker/RedisStore.h"

#include <gloo/common/error.h>
#include <hiredis/hiredis.h>

#include <fmt/format.h>

#include <charconv>
#include <thread>

namespace torus::rt {

std::string RedisAddress::toString() const {
  return fmt::format("redis://{}:{}", host, port);
}

absl::StatusOr<RedisAddress> parseRedisAddress(const std::string &url) {
  constexpr std::string_view scheme = "redis://";
  if (url.compare(0, scheme.size(), scheme) != 0)
    return absl::InvalidArgumentError(fmt::format(
        "rendezvous address '{}' must look like redis://host:port", url));
  std::string rest = url.substr(scheme.size());
  if (!rest.empty() && rest.back() == '/')
    rest.pop_back();
  RedisAddress address;
  size_t colon = rest.rfind(':');
  std::string host = rest;
  if (colon != std::string::npos && rest.find(']', colon) == std::string::npos) {
    host = rest.substr(0, colon);
    std::string port = rest.substr(colon + 1);
    int value = 0;
    auto [end, ec] =
        std::from_chars(port.data(), port.data() + port.size(), value);
    if (ec != std::errc() || end != port.data() + port.size() || value < 1 ||
        value > 65535)
      return absl::InvalidArgumentError(fmt::format(
          "rendezvous address '{}': port '{}' is not a number in 1..65535",
          url, port));
    address.port = value;
  }
  if (host.size() > 2 && host.front() == '[' && host.back() == ']')
    host = host.substr(1, host.size() - 2);
  if (host.empty() || host.find('/') != std::string::npos)
    return absl::InvalidArgumentError(fmt::format(
        "rendezvous address '{}' names no host (redis://host:port)", url));
  address.host = host;
  return address;
}

namespace {

timeval toTimeval(absl::Duration d) {
  timeval tv{};
  int64_t us = std::max<int64_t>(1000, absl::ToInt64Microseconds(d));
  tv.tv_sec = us / 1000000;
  tv.tv_usec = us % 1000000;
  return tv;
}

} // namespace

struct RedisStore::Reply {
  int type = 0;
  long long integer = 0;
  std::string str;
};

absl::StatusOr<std::unique_ptr<RedisStore>>
RedisStore::connect(const RedisAddress &address, std::string keyPrefix,
                    absl::Duration timeout) {
  if (timeout <= absl::ZeroDuration())
    return absl::InvalidArgumentError("the Redis timeout must be positive");
  std::unique_ptr<RedisStore> store(
      new RedisStore(address, std::move(keyPrefix), timeout));
  std::lock_guard<std::mutex> lock(store->mutex_);
  TORUS_ASSIGN_OR_RETURN(Reply pong, store->command({"PING"}));
  if (pong.str != "PONG")
    return absl::UnavailableError(
        fmt::format("{} answered PING with '{}', not PONG: is it a Redis "
                    "server?",
                    address.toString(), pong.str));
  return store;
}

RedisStore::~RedisStore() {
  if (context_)
    redisFree(context_);
}

absl::Status RedisStore::ensureConnected() {
  if (context_ && context_->err == 0)
    return absl::OkStatus();
  if (context_) {
    redisFree(context_);
    context_ = nullptr;
  }
  context_ = redisConnectWithTimeout(address_.host.c_str(), address_.port,
                                     toTimeval(timeout_));
  if (!context_)
    return absl::ResourceExhaustedError(fmt::format(
        "cannot allocate a connection to the rendezvous server {}",
        address_.toString()));
  if (context_->err) {
    std::string why = context_->errstr;
    redisFree(context_);
    context_ = nullptr;
    return absl::UnavailableError(fmt::format(
        "cannot reach the rendezvous server {} (within {}): {}",
        address_.toString(), absl::FormatDuration(timeout_), why));
  }
  redisSetTimeout(context_, toTimeval(timeout_));
  return absl::OkStatus();
}

absl::StatusOr<RedisStore::Reply>
RedisStore::command(const std::vector<std::string> &args) {
  TORUS_RETURN_IF_ERROR(ensureConnected());
  std::vector<const char *> argv;
  std::vector<size_t> lengths;
  for (const std::string &a : args) {
    argv.push_back(a.data());
    lengths.push_back(a.size());
  }
  auto *raw = static_cast<redisReply *>(redisCommandArgv(
      context_, static_cast<int>(args.size()), argv.data(), lengths.data()));
  if (!raw) {
    std::string why = context_->errstr;
    return absl::UnavailableError(fmt::format(
        "rendezvous server {}: {} failed: {}", address_.toString(), args[0],
        why.empty() ? "no reply" : why));
  }
  Reply reply;
  reply.type = raw->type;
  reply.integer = raw->integer;
  if (raw->str)
    reply.str.assign(raw->str, raw->len);
  freeReplyObject(raw);
  if (reply.type == REDIS_REPLY_ERROR)
    return absl::UnavailableError(fmt::format(
        "rendezvous server {}: {} failed: {}", address_.toString(), args[0],
        reply.str));
  return reply;
}

absl::Status RedisStore::put(const std::string &key, const std::string &value) {
  std::lock_guard<std::mutex> lock(mutex_);
  return command({"SET", prefix_ + key, value, "EX",
                  std::to_string(absl::ToInt64Seconds(kKeyLifetime))})
      .status();
}

absl::StatusOr<std::optional<absl::Duration>>
RedisStore::timeToLive(const std::string &key) {
  std::lock_guard<std::mutex> lock(mutex_);
  TORUS_ASSIGN_OR_RETURN(Reply reply, command({"TTL", prefix_ + key}));
  // TTL answers -2 for no key, -1 for a key without expiry.
  if (reply.integer < 0)
    return std::optional<absl::Duration>();
  return std::optional<absl::Duration>(absl::Seconds(reply.integer));
}

absl::StatusOr<std::optional<std::string>>
RedisStore::read(const std::string &key) {
  std::lock_guard<std::mutex> lock(mutex_);
  TORUS_ASSIGN_OR_RETURN(Reply reply, command({"GET", prefix_ + key}));
  if (reply.type == REDIS_REPLY_NIL)
    return std::optional<std::string>();
  return std::optional<std::string>(std::move(reply.str));
}

void RedisStore::set(const std::string &key, const std::vector<char> &data) {
  absl::Status s = put(key, std::string(data.begin(), data.end()));
  if (!s.ok())
    throw gloo::IoException(std::string(s.message()));
}

std::vector<char> RedisStore::get(const std::string &key) {
  wait({key});
  auto value = read(key);
  if (!value.ok())
    throw gloo::IoException(std::string(value.status().message()));
  if (!value->has_value())
    throw gloo::IoException(fmt::format("rendezvous server {}: key '{}{}' "
                                        "vanished",
                                        address_.toString(), prefix_, key));
  return std::vector<char>((*value)->begin(), (*value)->end());
}

void RedisStore::wait(const std::vector<std::string> &keys) {
  wait(keys, std::chrono::milliseconds(absl::ToInt64Milliseconds(timeout_)));
}

void RedisStore::wait(const std::vector<std::string> &keys,
                      const std::chrono::milliseconds &timeout) {
  const auto deadline = std::chrono::steady_clock::now() + timeout;
  while (true) {
    std::string missing;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      for (const std::string &key : keys) {
        auto reply = command({"EXISTS", prefix_ + key});
        if (!reply.ok())
          throw gloo::IoException(std::string(reply.status().message()));
        if (reply->integer == 0) {
          missing = key;
          break;
        }
      }
    }
    if (missing.empty())
      return;
    if (std::chrono::steady_clock::now() >= deadline)
      throw gloo::IoException(fmt::format(
          "Timed out after {} ms waiting for key '{}{}' on the rendezvous "
          "server {}",
          timeout.count(), prefix_, missing, address_.toString()));
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

} // namespace torus::rt
