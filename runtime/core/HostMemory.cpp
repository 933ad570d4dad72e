//===- HostMemory.cpp - What this host can give the emulated cores --------===//

#include "runtime/core/HostMemory.h"

#include <sys/resource.h>

#include <cstdint>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>
#include <string>

namespace torus::rt {

namespace {

/// The value in kB of `key` ("MemAvailable:") in a /proc file of
/// "Key:   123 kB" lines, in bytes.
std::optional<size_t> procKilobytes(const char *path, std::string_view key) {
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line))
    if (line.compare(0, key.size(), key) == 0) {
      std::istringstream value(line.substr(key.size()));
      unsigned long long kb = 0;
      if (value >> kb)
        return saturatingMul(static_cast<size_t>(kb), 1024);
      return std::nullopt;
    }
  return std::nullopt;
}

/// A number alone in a file (cgroup's memory.max holds "max" when unset).
std::optional<size_t> fileNumber(const std::string &path) {
  std::ifstream in(path);
  unsigned long long n = 0;
  if (in >> n)
    return static_cast<size_t>(n);
  return std::nullopt;
}

/// memory.max - memory.current of this process's cgroup (v2), when set.
std::optional<size_t> cgroupAvailable() {
  std::ifstream in("/proc/self/cgroup");
  std::string line;
  while (std::getline(in, line)) {
    if (line.compare(0, 3, "0::") != 0)
      continue;
    std::string dir = "/sys/fs/cgroup" + line.substr(3);
    // The limit may be set on any ancestor: take the tightest.
    std::optional<size_t> best;
    while (true) {
      std::optional<size_t> max = fileNumber(dir + "/memory.max");
      if (max) {
        size_t current = fileNumber(dir + "/memory.current").value_or(0);
        size_t left = *max > current ? *max - current : 0;
        if (!best || left < *best)
          best = left;
      }
      if (dir == "/sys/fs/cgroup")
        break;
      size_t slash = dir.rfind('/');
      if (slash == std::string::npos || slash < 14)
        break;
      dir.resize(slash);
      if (dir.size() < 14)
        break;
    }
    return best;
  }
  return std::nullopt;
}

} // namespace

size_t saturatingMul(size_t a, size_t b) {
  size_t out;
  if (__builtin_mul_overflow(a, b, &out))
    return std::numeric_limits<size_t>::max();
  return out;
}

size_t saturatingAdd(size_t a, size_t b) {
  size_t out;
  if (__builtin_add_overflow(a, b, &out))
    return std::numeric_limits<size_t>::max();
  return out;
}

HostMemory availableHostMemory() {
  HostMemory host{std::numeric_limits<size_t>::max(), "unknown"};
  auto consider = [&](std::optional<size_t> bytes, const char *limit) {
    if (bytes && *bytes < host.availableBytes)
      host = {*bytes, limit};
  };
  consider(procKilobytes("/proc/meminfo", "MemAvailable:"),
           "MemAvailable in /proc/meminfo");
  consider(cgroupAvailable(), "the cgroup's memory.max");
  struct rlimit limit;
  if (getrlimit(RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY) {
    size_t used = procKilobytes("/proc/self/status", "VmSize:").value_or(0);
    size_t cap = static_cast<size_t>(limit.rlim_cur);
    consider(cap > used ? cap - used : 0, "RLIMIT_AS (ulimit -v)");
  }
  return host;
}

} // namespace torus::rt
