//===- Checkpoint.cpp - Saving and restoring variables --------------------===//
//
// File format (version 1), all integers little-endian:
//
//   "TORUSCKP"                      8 bytes
//   u32 version = 1
//   u64 entry count
//   per entry, in key order:
//     u32 key length, key bytes (UTF-8)
//     u8  dtype (torus::DType value)
//     u32 rank, rank x i64 dimensions
//     u64 byte length, the row-major data
//   u64 payload length              (bytes before this field)
//   u64 FNV-1a 64 of the payload
//   "TORUSEND"                      8 bytes
//
//===----------------------------------------------------------------------===//

#include "torus/distribute/Checkpoint.h"
#include "distribute/HostOps.h"
#include "distribute/VariableImpl.h"
#include "torus/distribute/nn/Optimizers.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <optional>
#include <set>
#include <sstream>
#include <unistd.h>

namespace torus::distribute {

namespace {

constexpr char kMagic[8] = {'T', 'O', 'R', 'U', 'S', 'C', 'K', 'P'};
constexpr char kEndMagic[8] = {'T', 'O', 'R', 'U', 'S', 'E', 'N', 'D'};
constexpr uint32_t kVersion = 1;

uint64_t fnv1a(const std::string &data, size_t length) {
  uint64_t h = 0xcbf29ce484222325ull;
  for (size_t i = 0; i < length; ++i) {
    h ^= static_cast<unsigned char>(data[i]);
    h *= 0x100000001b3ull;
  }
  return h;
}

template <typename T> void put(std::string &out, T value) {
  char bytes[sizeof(T)];
  std::memcpy(bytes, &value, sizeof(T));
  out.append(bytes, sizeof(T));
}

class Reader {
public:
  Reader(const std::string &data, size_t end) : data_(data), end_(end) {}
  template <typename T> bool get(T &value) {
    if (pos_ + sizeof(T) > end_)
      return false;
    std::memcpy(&value, data_.data() + pos_, sizeof(T));
    pos_ += sizeof(T);
    return true;
  }
  bool bytes(size_t n, std::string &out) {
    if (n > end_ - pos_)
      return false;
    out.assign(data_.data() + pos_, n);
    pos_ += n;
    return true;
  }
  size_t pos() const { return pos_; }

private:
  const std::string &data_;
  size_t end_;
  size_t pos_ = 0;
};

absl::Status corrupt(const std::string &path, const std::string &why) {
  return absl::DataLossError("checkpoint '" + path + "' is corrupted: " + why);
}

std::string serialize(const std::map<std::string, HostTensor> &values) {
  std::string out(kMagic, sizeof(kMagic));
  put<uint32_t>(out, kVersion);
  put<uint64_t>(out, values.size());
  for (const auto &[key, t] : values) {
    put<uint32_t>(out, static_cast<uint32_t>(key.size()));
    out += key;
    put<uint8_t>(out, static_cast<uint8_t>(t.dtype()));
    put<uint32_t>(out, static_cast<uint32_t>(t.shape().size()));
    for (int64_t d : t.shape())
      put<int64_t>(out, d);
    put<uint64_t>(out, t.sizeInBytes());
    out.append(static_cast<const char *>(t.rawData()), t.sizeInBytes());
  }
  uint64_t length = out.size();
  uint64_t checksum = fnv1a(out, length);
  put<uint64_t>(out, length);
  put<uint64_t>(out, checksum);
  out.append(kEndMagic, sizeof(kEndMagic));
  return out;
}

/// Writes `data` to `path` atomically: a temporary file in the same
/// directory, flushed to disk, then renamed over `path`.
absl::Status writeAtomically(const std::string &path, const std::string &data) {
  static std::atomic<uint64_t> counter{0};
  std::string tmp = path + ".tmp-" + std::to_string(::getpid()) + "-" +
                    std::to_string(counter.fetch_add(1));
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0)
    return absl::PermissionDeniedError("cannot create '" + tmp +
                                       "': " + std::strerror(errno));
  size_t written = 0;
  while (written < data.size()) {
    ssize_t n = ::write(fd, data.data() + written, data.size() - written);
    if (n < 0) {
      if (errno == EINTR)
        continue;
      int err = errno;
      ::close(fd);
      ::unlink(tmp.c_str());
      return absl::UnavailableError("cannot write '" + tmp +
                                    "': " + std::strerror(err));
    }
    written += static_cast<size_t>(n);
  }
  if (::fsync(fd) != 0 || ::close(fd) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    return absl::UnavailableError("cannot flush '" + tmp +
                                  "': " + std::strerror(err));
  }
  if (::rename(tmp.c_str(), path.c_str()) != 0) {
    int err = errno;
    ::unlink(tmp.c_str());
    return absl::UnavailableError("cannot rename '" + tmp + "' to '" + path +
                                  "': " + std::strerror(err));
  }
  // Make the rename durable.
  std::string dir = std::filesystem::path(path).parent_path().string();
  int dfd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY);
  if (dfd >= 0) {
    ::fsync(dfd);
    ::close(dfd);
  }
  return absl::OkStatus();
}

/// The value a checkpoint stores for `v`: the primary component, or the
/// aggregate of a sync-on-read variable.
absl::StatusOr<HostTensor> savedValue(const Variable &v) { return v.value(); }

} // namespace

Checkpoint::Checkpoint(
    std::vector<std::pair<std::string, nn::Trackable *>> objects)
    : objects_(std::move(objects)) {}

std::vector<std::pair<std::string, Variable>> Checkpoint::entries() const {
  std::vector<std::pair<std::string, Variable>> out;
  std::map<uint64_t, std::string> paths;
  for (const auto &[name, obj] : objects_)
    for (const auto &[path, v] : obj->trackedVariables()) {
      out.push_back({name + "/" + path, v});
      paths.emplace(v.id(), name + "/" + path);
    }
  // Slots hang off their variable's path, as TensorFlow's object graph does.
  for (const auto &[name, obj] : objects_)
    if (auto *opt = dynamic_cast<nn::Optimizer *>(obj))
      for (const auto &[id, path] : paths)
        for (const auto &[p, v] : out)
          if (v.id() == id) {
            for (const auto &[slot, s] : opt->slotsFor(v))
              out.push_back(
                  {path + "/.OPTIMIZER_SLOT/" + name + "/" + slot, s});
            break;
          }
  return out;
}

absl::Status Checkpoint::write(const std::string &path) const {
  std::map<std::string, HostTensor> values;
  for (const auto &[key, v] : entries()) {
    TORUS_ASSIGN_OR_RETURN(HostTensor t, savedValue(v));
    if (!values.emplace(key, std::move(t)).second)
      return absl::InvalidArgumentError("two tracked variables share the key '" +
                                        key + "'");
  }
  return writeAtomically(path, serialize(values));
}

std::optional<int64_t> checkpointNumber(const std::string &path) {
  size_t dash = path.rfind('-');
  if (dash == std::string::npos || dash + 1 == path.size() ||
      path.size() - dash - 1 > 18)
    return std::nullopt;
  int64_t n = 0;
  for (size_t i = dash + 1; i < path.size(); ++i) {
    if (path[i] < '0' || path[i] > '9')
      return std::nullopt;
    n = n * 10 + (path[i] - '0');
  }
  return n;
}

absl::StatusOr<std::string> Checkpoint::save(const std::string &prefix) {
  // Never replace a checkpoint: a number a file already has is skipped.
  int64_t n = saveCounter_ + 1;
  std::error_code ec;
  while (std::filesystem::exists(prefix + "-" + std::to_string(n), ec))
    ++n;
  std::string path = prefix + "-" + std::to_string(n);
  TORUS_RETURN_IF_ERROR(write(path));
  saveCounter_ = n;
  std::filesystem::path p(path);
  std::string dir = p.parent_path().string();
  std::string state = "model_checkpoint_path: \"" + p.filename().string() +
                      "\"\nall_model_checkpoint_paths: \"" +
                      p.filename().string() + "\"\n";
  TORUS_RETURN_IF_ERROR(writeAtomically(
      (dir.empty() ? std::string(".") : dir) + "/checkpoint", state));
  return path;
}

absl::StatusOr<std::map<std::string, HostTensor>>
Checkpoint::readFile(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return absl::NotFoundError("Failed to find any matching files for " + path);
  std::stringstream buffer;
  buffer << in.rdbuf();
  std::string data = buffer.str();
  const size_t trailer = 8 + 8 + sizeof(kEndMagic);
  if (data.size() < sizeof(kMagic) + 4 + 8 + trailer)
    return corrupt(path, "the file is truncated (" +
                             std::to_string(data.size()) + " bytes)");
  if (std::memcmp(data.data(), kMagic, sizeof(kMagic)) != 0)
    return corrupt(path, "not a Torus checkpoint (bad magic)");
  if (std::memcmp(data.data() + data.size() - sizeof(kEndMagic), kEndMagic,
                  sizeof(kEndMagic)) != 0)
    return corrupt(path, "the file is truncated (no end marker)");
  uint64_t length = 0, checksum = 0;
  std::memcpy(&length, data.data() + data.size() - trailer, 8);
  std::memcpy(&checksum, data.data() + data.size() - trailer + 8, 8);
  if (length != data.size() - trailer)
    return corrupt(path, "the recorded length " + std::to_string(length) +
                             " does not match the file");
  if (fnv1a(data, length) != checksum)
    return corrupt(path, "checksum mismatch");

  Reader r(data, length);
  std::string magic;
  uint32_t version = 0;
  uint64_t count = 0;
  r.bytes(sizeof(kMagic), magic);
  if (!r.get(version) || version != kVersion)
    return corrupt(path, "unsupported version " + std::to_string(version));
  if (!r.get(count))
    return corrupt(path, "no entry count");
  std::map<std::string, HostTensor> values;
  for (uint64_t i = 0; i < count; ++i) {
    uint32_t keyLength = 0, rank = 0;
    uint8_t dtype = 0;
    uint64_t bytes = 0;
    std::string key, payload;
    if (!r.get(keyLength) || !r.bytes(keyLength, key) || !r.get(dtype) ||
        !r.get(rank) || rank > 64)
      return corrupt(path, "bad entry " + std::to_string(i));
    Shape shape(rank);
    for (uint32_t d = 0; d < rank; ++d)
      if (!r.get(shape[d]) || shape[d] < 0)
        return corrupt(path, "bad shape of '" + key + "'");
    if (dtype > static_cast<uint8_t>(std::size(kAllDTypes) - 1))
      return corrupt(path, "bad dtype of '" + key + "'");
    TensorSpec spec{static_cast<DType>(dtype), shape};
    if (!r.get(bytes) || bytes != spec.sizeInBytes() || !r.bytes(bytes, payload))
      return corrupt(path, "bad data of '" + key + "'");
    HostTensor t(spec);
    if (bytes)
      std::memcpy(t.rawData(), payload.data(), bytes);
    values.emplace(key, std::move(t));
  }
  if (r.pos() != length)
    return corrupt(path, "trailing bytes after the last entry");
  return values;
}

namespace {
/// InvalidArgument / NotFound unless `values` holds a value of `v`'s spec
/// under `key`.
absl::Status checkValue(const std::map<std::string, HostTensor> &values,
                        const std::string &path, const std::string &key,
                        const TensorSpec &spec) {
  auto it = values.find(key);
  if (it == values.end())
    return absl::NotFoundError("checkpoint '" + path + "' has no value for '" +
                               key + "'");
  if (it->second.spec() != spec)
    return absl::InvalidArgumentError(
        "checkpoint '" + path + "' holds " + it->second.spec().toString() +
        " for '" + key + "', but the variable is " + spec.toString());
  return absl::OkStatus();
}
} // namespace

absl::Status Checkpoint::restore(const std::string &path) {
  TORUS_ASSIGN_OR_RETURN(auto values, readFile(path));
  // Everything is checked before anything changes: the variables that
  // exist, then the optimizer slots the file has and the optimizers lack
  // (TensorFlow's deferred slot restoration creates them, zero-valued,
  // with their variable's spec).
  for (const auto &[key, v] : entries())
    TORUS_RETURN_IF_ERROR(checkValue(values, path, key, v.spec()));
  std::map<std::string, Variable> byPath;
  for (const auto &[name, obj] : objects_)
    for (const auto &[p, v] : obj->trackedVariables())
      byPath.emplace(name + "/" + p, v);
  struct NewSlot {
    nn::Optimizer *optimizer;
    Variable var;
    std::string slot;
  };
  std::vector<NewSlot> newSlots;
  std::vector<nn::Optimizer *> unbuilt;
  for (const auto &[name, obj] : objects_) {
    auto *opt = dynamic_cast<nn::Optimizer *>(obj);
    if (!opt)
      continue;
    const std::string marker = "/.OPTIMIZER_SLOT/" + name + "/";
    for (const auto &[key, t] : values) {
      size_t at = key.find(marker);
      if (at == std::string::npos)
        continue;
      auto var = byPath.find(key.substr(0, at));
      if (var == byPath.end())
        continue;
      std::string slot = key.substr(at + marker.size());
      bool exists = false;
      for (const auto &[have, v] : opt->slotsFor(var->second))
        exists = exists || have == slot;
      if (exists)
        continue;
      TORUS_RETURN_IF_ERROR(checkValue(values, path, key, var->second.spec()));
      newSlots.push_back({opt, var->second, slot});
    }
    if (values.count(name + "/iter") && opt->trackedVariables().empty()) {
      TORUS_RETURN_IF_ERROR(checkValue(values, path, name + "/iter",
                                       TensorSpec{DType::I64, {}}));
      unbuilt.push_back(opt);
    }
  }
  for (NewSlot &n : newSlots)
    TORUS_RETURN_IF_ERROR(n.optimizer->getOrCreateSlot(n.var, n.slot).status());
  for (nn::Optimizer *opt : unbuilt)
    TORUS_RETURN_IF_ERROR(opt->build({}));
  std::vector<std::pair<Variable, const HostTensor *>> plan;
  for (const auto &[key, v] : entries()) {
    TORUS_RETURN_IF_ERROR(checkValue(values, path, key, v.spec()));
    plan.push_back({v, &values.at(key)});
  }
  for (auto &[v, t] : plan) {
    Variable var = v;
    TORUS_RETURN_IF_ERROR(var.assign(*t));
  }
  // As tf.train.Checkpoint's save_counter: numbering continues after the
  // restored checkpoint's, so the next save never replaces it or an
  // earlier one.
  if (auto n = checkpointNumber(path))
    saveCounter_ = std::max(saveCounter_, *n);
  return absl::OkStatus();
}

absl::StatusOr<std::string> latestCheckpoint(const std::string &directory) {
  const std::string index = directory + "/checkpoint";
  std::error_code ec;
  if (!std::filesystem::exists(index, ec))
    return absl::NotFoundError("no checkpoint in '" + directory + "'");
  // An index that exists but names nothing is an error, never "no
  // checkpoint": training would silently restart from step 0.
  auto unreadable = [&](const std::string &why) {
    return absl::DataLossError("the checkpoint index '" + index +
                               "' is unreadable: " + why);
  };
  std::ifstream in(index);
  if (!in)
    return unreadable(std::strerror(errno));
  std::string line;
  while (std::getline(in, line)) {
    const std::string key = "model_checkpoint_path: \"";
    if (line.rfind(key, 0) != 0)
      continue;
    std::string name = line.substr(key.size());
    if (name.size() < 2 || name.back() != '"')
      return unreadable("expected model_checkpoint_path: \"<name>\", found '" +
                        line + "'");
    name.pop_back();
    return directory + "/" + name;
  }
  return unreadable("it has no model_checkpoint_path line");
}

} // namespace torus::distribute
