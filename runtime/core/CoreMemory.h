//===- CoreMemory.h - One emulated core's device memory ---------*- C++ -*-===//
//
// Every emulated core owns a memory with a capacity, like a TPU core's HBM.
// Device buffers are real 64-byte aligned host allocations; the capacity is
// enforced by accounting, so a program that would not fit on the emulated
// device fails with a clear ResourceExhausted status instead of quietly
// running on a big host. Freed buffers' host blocks are kept for the next
// buffer of the same size (BlockCache.h), up to a limit per core, and
// with the live ones never more than the core once had in use at the same
// time; they count as free, not in use.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_CORE_COREMEMORY_H
#define TORUS_RUNTIME_CORE_COREMEMORY_H

#include "runtime/core/BlockCache.h"
#include "torus/Status.h"

#include <cstddef>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <string_view>

namespace torus::rt {

class CoreMemory;

/// Alignment of every device buffer, in bytes.
inline constexpr size_t kDeviceBufferAlignment = 64;
/// Default capacity of one core's memory: 16 GiB (a TPU v3 core's HBM).
inline constexpr size_t kDefaultCoreMemoryCapacity = size_t{16} << 30;
/// Host bytes of freed buffers one core keeps for reuse, by default.
inline constexpr size_t kDefaultBlockCacheLimit = size_t{1} << 30;
/// Freed buffers smaller than this go straight back to the host allocator,
/// which reuses small blocks well by itself.
inline constexpr size_t kMinCachedBlock = size_t{64} << 10;

/// An owned device buffer; frees itself (and its accounting) on destruction.
/// Must not outlive the CoreMemory it came from.
class DeviceBuffer {
public:
  DeviceBuffer() = default;
  DeviceBuffer(DeviceBuffer &&other) noexcept;
  DeviceBuffer &operator=(DeviceBuffer &&other) noexcept;
  DeviceBuffer(const DeviceBuffer &) = delete;
  DeviceBuffer &operator=(const DeviceBuffer &) = delete;
  ~DeviceBuffer() { reset(); }

  /// Start of the buffer; 64-byte aligned and non-null even for 0 bytes.
  void *data() const { return data_; }
  /// The size asked for.
  size_t sizeInBytes() const { return size_; }
  explicit operator bool() const { return data_ != nullptr; }
  /// Frees the buffer now; the handle becomes empty.
  void reset();

private:
  friend class CoreMemory;
  DeviceBuffer(CoreMemory *owner, void *data, size_t size, uint64_t id)
      : owner_(owner), data_(data), size_(size), id_(id) {}

  CoreMemory *owner_ = nullptr;
  void *data_ = nullptr;
  size_t size_ = 0;
  uint64_t id_ = 0;
};

/// Accounting and allocation for one emulated core. Thread-safe.
class CoreMemory {
public:
  explicit CoreMemory(int64_t coreId,
                      size_t capacityBytes = kDefaultCoreMemoryCapacity);
  /// Every DeviceBuffer must have been freed.
  ~CoreMemory();
  CoreMemory(const CoreMemory &) = delete;
  CoreMemory &operator=(const CoreMemory &) = delete;

  /// Allocates `bytes` (uninitialized). `label` names the buffer in error
  /// messages (e.g. "replica 2 input 0"). Fails with ResourceExhausted when
  /// the core's capacity would be exceeded; the message names the core, the
  /// bytes asked, the capacity, the bytes in use and the largest live buffers.
  absl::StatusOr<DeviceBuffer> allocate(size_t bytes,
                                        std::string_view label = "");

  int64_t coreId() const { return coreId_; }
  size_t capacity() const;
  /// Changes the capacity; fails if more than `capacityBytes` is in use.
  absl::Status setCapacity(size_t capacityBytes);
  /// Bytes charged to live buffers (each rounded up to the alignment).
  size_t bytesInUse() const;
  /// Highest bytesInUse() since construction or the last resetPeak().
  size_t peakBytesInUse() const;
  void resetPeak();
  size_t numLiveBuffers() const;

  /// Host bytes of freed buffers kept for reuse (not in use, not charged).
  size_t cachedBytes() const;
  /// Gives every kept block back to the host; returns the bytes given.
  size_t releaseCachedBlocks();
  /// At most `limitBytes` kept (0: none), and kept and live blocks
  /// together never more than this core ever had in use at once; the
  /// oldest go first.
  void setBlockCacheLimit(size_t limitBytes);

private:
  friend class DeviceBuffer;
  struct LiveBuffer {
    size_t bytes;
    std::string label;
  };
  void release(uint64_t id, void *data);
  /// What the block cache may hold now (mutex_ held).
  size_t cacheLimitLocked() const;
  std::string describeLargestLocked(size_t maxBuffers) const;

  const int64_t coreId_;
  mutable std::mutex mutex_;
  size_t capacity_;
  size_t inUse_ = 0;
  size_t peak_ = 0;
  /// The most ever in use at once (resetPeak() leaves it).
  size_t highWater_ = 0;
  size_t cacheLimit_ = kDefaultBlockCacheLimit;
  uint64_t nextId_ = 1;
  std::map<uint64_t, LiveBuffer> live_;
  BlockCache cache_{kDefaultBlockCacheLimit, kMinCachedBlock};
};

/// `1.50 GiB`, `12.00 KiB`, `100 B`: human-readable byte counts for messages.
std::string formatBytes(size_t bytes);

} // namespace torus::rt

#endif // TORUS_RUNTIME_CORE_COREMEMORY_H
