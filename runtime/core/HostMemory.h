//===- HostMemory.h - What this host can give the emulated cores -*- C++ -*-===//
//
// Every emulated core's memory is a real host allocation: a slice of eight
// 16 GiB cores needs 128 GiB of the host when its programs fill them. The
// executor checks what a run needs across its cores against what this
// process may still allocate, and refuses with ResourceExhausted before
// allocating anything instead of being killed by the OOM killer.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_CORE_HOSTMEMORY_H
#define TORUS_RUNTIME_CORE_HOSTMEMORY_H

#include <cstddef>
#include <string>

namespace torus::rt {

/// The memory this process can still allocate, and which limit set it.
struct HostMemory {
  size_t availableBytes = 0;
  /// The binding limit, for messages: "MemAvailable in /proc/meminfo",
  /// "the cgroup's memory.max", "RLIMIT_AS (ulimit -v)".
  std::string limit;
};

/// The least of: /proc/meminfo's MemAvailable; the cgroup v2 memory.max of
/// this process's cgroup minus its memory.current, when set; RLIMIT_AS
/// minus this process's address space in use (VmSize), when set. A limit
/// that cannot be read is ignored (none readable: SIZE_MAX, "unknown").
HostMemory availableHostMemory();

/// a * b and a + b, saturating at SIZE_MAX: sizes of hostile metadata must
/// not wrap around into something small.
size_t saturatingMul(size_t a, size_t b);
size_t saturatingAdd(size_t a, size_t b);

} // namespace torus::rt

#endif // TORUS_RUNTIME_CORE_HOSTMEMORY_H
