//===- Rendezvous.cpp - Where the workers of a job meet -------------------===//

#include "runtime/multiworker/Rendezvous.h"

#include "runtime/multiworker/RedisStore.h"

#include <gloo/rendezvous/file_store.h>

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <unistd.h>

namespace torus::rt {

namespace fs = std::filesystem;

namespace {

class DirectoryRendezvous final : public Rendezvous {
public:
  explicit DirectoryRendezvous(std::string directory)
      : directory_(std::move(directory)), store_(directory_ + "/store") {}

  gloo::rendezvous::Store &store() override { return store_; }

  /// Writes atomically (rename), so readers never see half a record.
  absl::Status write(const std::string &name,
                     const std::string &text) override {
    const std::string path = directory_ + "/" + name;
    const std::string tmp = path + ".tmp-" + std::to_string(getpid());
    {
      std::ofstream out(tmp, std::ios::trunc);
      if (!out || !(out << text) || !out.flush())
        return absl::UnavailableError(
            fmt::format("cannot write '{}'", tmp));
    }
    std::error_code ec;
    fs::rename(tmp, path, ec);
    if (ec)
      return absl::UnavailableError(fmt::format("cannot rename '{}' to '{}': "
                                                "{}",
                                                tmp, path, ec.message()));
    return absl::OkStatus();
  }

  std::optional<std::string> read(const std::string &name) override {
    std::ifstream in(directory_ + "/" + name);
    if (!in)
      return std::nullopt;
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }

  std::string describe() const override { return "'" + directory_ + "'"; }

private:
  std::string directory_;
  gloo::rendezvous::FileStore store_;
};

class RedisRendezvous final : public Rendezvous {
public:
  explicit RedisRendezvous(std::unique_ptr<RedisStore> store)
      : store_(std::move(store)) {}

  gloo::rendezvous::Store &store() override { return *gloo_; }

  absl::Status write(const std::string &name,
                     const std::string &text) override {
    if (unreachable_)
      return absl::UnavailableError(fmt::format(
          "the rendezvous server {} stopped answering",
          store_->address().toString()));
    absl::Status s = store_->put("record/" + name, text);
    if (!s.ok())
      unreachable_ = true;
    return s;
  }

  /// After one failure the server is not asked again: a worker cut off
  /// from the network looks for dead peers once, not once per record and
  /// per timeout.
  std::optional<std::string> read(const std::string &name) override {
    if (unreachable_)
      return std::nullopt;
    auto value = store_->read("record/" + name);
    if (!value.ok()) {
      unreachable_ = true;
      return std::nullopt;
    }
    return *value;
  }

  std::string describe() const override {
    return fmt::format("{} (keys '{}*'{})", store_->address().toString(),
                       store_->keyPrefix(),
                       unreachable_ ? ", not answering" : "");
  }

  /// Gloo's keys live apart from the records.
  void setGlooStore(std::unique_ptr<RedisStore> gloo) {
    gloo_ = std::move(gloo);
  }

private:
  std::unique_ptr<RedisStore> store_;
  std::unique_ptr<RedisStore> gloo_;
  std::atomic<bool> unreachable_{false};
};

} // namespace

absl::StatusOr<std::unique_ptr<Rendezvous>>
openRendezvous(const std::string &directory, const std::string &redisUrl,
               const std::string &prefix, absl::Duration connectTimeout) {
  if (!redisUrl.empty()) {
    TORUS_ASSIGN_OR_RETURN(RedisAddress address, parseRedisAddress(redisUrl));
    const std::string keys = "torus/" + prefix + "/";
    // One connection for the records (WorkerGroup reads them while Gloo may
    // be waiting on the other). Their commands are small: a server that
    // does not answer one within 5 s is not answering.
    TORUS_ASSIGN_OR_RETURN(
        auto records,
        RedisStore::connect(address, keys,
                            std::min(connectTimeout, absl::Seconds(5))));
    TORUS_ASSIGN_OR_RETURN(
        auto gloo, RedisStore::connect(address, keys + "gloo/", connectTimeout));
    auto rendezvous = std::make_unique<RedisRendezvous>(std::move(records));
    rendezvous->setGlooStore(std::move(gloo));
    return rendezvous;
  }
  const std::string path = directory + "/" + prefix;
  std::error_code ec;
  fs::create_directories(path + "/store", ec);
  if (ec)
    return absl::UnavailableError(fmt::format(
        "cannot create the rendezvous directory '{}': {}", path, ec.message()));
  return std::make_unique<DirectoryRendezvous>(path);
}

} // namespace torus::rt
