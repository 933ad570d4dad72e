//===- CoreMemory.cpp - One emulated core's device memory -----------------===//

#include "runtime/core/CoreMemory.h"

#include <fmt/format.h>

#include <algorithm>
#include <cassert>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace torus::rt {

namespace {
size_t roundUp(size_t bytes) {
  return (bytes + kDeviceBufferAlignment - 1) / kDeviceBufferAlignment *
         kDeviceBufferAlignment;
}

void freeAll(const std::vector<void *> &blocks) {
  for (void *block : blocks)
    std::free(block);
}
} // namespace

std::string formatBytes(size_t bytes) {
  static constexpr const char *kUnits[] = {"KiB", "MiB", "GiB", "TiB"};
  if (bytes < 1024)
    return fmt::format("{} B", bytes);
  double value = static_cast<double>(bytes) / 1024;
  int unit = 0;
  while (value >= 1024 && unit < 3) {
    value /= 1024;
    ++unit;
  }
  return fmt::format("{:.2f} {}", value, kUnits[unit]);
}

//===----------------------------------------------------------------------===//
// DeviceBuffer
//===----------------------------------------------------------------------===//

DeviceBuffer::DeviceBuffer(DeviceBuffer &&other) noexcept
    : owner_(other.owner_), data_(other.data_), size_(other.size_),
      id_(other.id_) {
  other.owner_ = nullptr;
  other.data_ = nullptr;
  other.size_ = 0;
  other.id_ = 0;
}

DeviceBuffer &DeviceBuffer::operator=(DeviceBuffer &&other) noexcept {
  if (this != &other) {
    reset();
    std::swap(owner_, other.owner_);
    std::swap(data_, other.data_);
    std::swap(size_, other.size_);
    std::swap(id_, other.id_);
  }
  return *this;
}

void DeviceBuffer::reset() {
  if (owner_)
    owner_->release(id_, data_);
  owner_ = nullptr;
  data_ = nullptr;
  size_ = 0;
  id_ = 0;
}

//===----------------------------------------------------------------------===//
// CoreMemory
//===----------------------------------------------------------------------===//

CoreMemory::CoreMemory(int64_t coreId, size_t capacityBytes)
    : coreId_(coreId), capacity_(capacityBytes) {}

CoreMemory::~CoreMemory() {
  // A live buffer here would dangle: its destructor would touch freed
  // accounting. That is a runtime bug, not a user error.
  if (!live_.empty()) {
    std::fprintf(stderr,
                 "torus: core %lld memory destroyed with %zu live buffers\n",
                 static_cast<long long>(coreId_), live_.size());
    assert(false && "CoreMemory destroyed with live DeviceBuffers");
  }
}

absl::StatusOr<DeviceBuffer> CoreMemory::allocate(size_t bytes,
                                                  std::string_view label) {
  size_t charged = roundUp(bytes);
  if (charged < bytes) // overflow
    return absl::ResourceExhaustedError(fmt::format(
        "core {}: cannot allocate {} bytes for '{}'", coreId_, bytes, label));
  uint64_t id;
  void *data = nullptr;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    if (charged > capacity_ || inUse_ > capacity_ - charged)
      return absl::ResourceExhaustedError(fmt::format(
          "core {}: out of device memory allocating {} ({} bytes) for '{}': "
          "capacity {}, in use {} in {} buffer{}{}",
          coreId_, formatBytes(bytes), bytes, label, formatBytes(capacity_),
          formatBytes(inUse_), live_.size(), live_.size() == 1 ? "" : "s",
          describeLargestLocked(4)));
    id = nextId_++;
    inUse_ += charged;
    peak_ = std::max(peak_, inUse_);
    highWater_ = std::max(highWater_, inUse_);
    live_.emplace(id, LiveBuffer{charged, std::string(label)});
    data = cache_.take(charged);
  }
  // Allocate outside the lock: large allocations page-fault on first touch on
  // the owning core's thread, not here, but malloc itself can take a while.
  const size_t hostBytes = charged == 0 ? kDeviceBufferAlignment : charged;
  if (!data)
    data = std::aligned_alloc(kDeviceBufferAlignment, hostBytes);
  if (!data && releaseCachedBlocks() > 0) // kept blocks of other sizes
    data = std::aligned_alloc(kDeviceBufferAlignment, hostBytes);
  if (!data) {
    std::lock_guard<std::mutex> lock(mutex_);
    inUse_ -= charged;
    live_.erase(id);
    return absl::ResourceExhaustedError(fmt::format(
        "core {}: the host is out of memory allocating {} ({} bytes) for "
        "'{}'",
        coreId_, formatBytes(bytes), bytes, label));
  }
  return DeviceBuffer(this, data, bytes, id);
}

void CoreMemory::release(uint64_t id, void *data) {
  std::vector<void *> toFree;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    auto it = live_.find(id);
    assert(it != live_.end() && "releasing an unknown device buffer");
    if (it == live_.end()) {
      toFree.push_back(data);
    } else {
      inUse_ -= it->second.bytes;
      toFree = cache_.setLimit(cacheLimitLocked());
      for (void *block : cache_.put(data, it->second.bytes))
        toFree.push_back(block);
      live_.erase(it);
    }
  }
  freeAll(toFree); // munmap outside the lock
}

size_t CoreMemory::cacheLimitLocked() const {
  // Kept and live blocks together stay within the most this core ever had
  // in use at once: a training loop keeps one step's buffers, and the
  // process holds no more host memory than its largest run needed.
  return std::min(cacheLimit_, highWater_ - inUse_);
}

size_t CoreMemory::cachedBytes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return cache_.bytes();
}

size_t CoreMemory::releaseCachedBlocks() {
  std::vector<void *> toFree;
  size_t bytes;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    bytes = cache_.bytes();
    toFree = cache_.takeAll();
  }
  freeAll(toFree);
  return bytes;
}

void CoreMemory::setBlockCacheLimit(size_t limitBytes) {
  std::vector<void *> toFree;
  {
    std::lock_guard<std::mutex> lock(mutex_);
    cacheLimit_ = limitBytes;
    toFree = cache_.setLimit(cacheLimitLocked());
  }
  freeAll(toFree);
}

std::string CoreMemory::describeLargestLocked(size_t maxBuffers) const {
  if (live_.empty())
    return "";
  std::vector<std::pair<uint64_t, const LiveBuffer *>> buffers;
  buffers.reserve(live_.size());
  for (const auto &[id, buffer] : live_)
    buffers.emplace_back(id, &buffer);
  size_t shown = std::min(maxBuffers, buffers.size());
  // Largest first; on ties the older (smaller id) buffer first.
  std::partial_sort(buffers.begin(), buffers.begin() + shown, buffers.end(),
                    [](const auto &a, const auto &b) {
                      if (a.second->bytes != b.second->bytes)
                        return a.second->bytes > b.second->bytes;
                      return a.first < b.first;
                    });
  std::string out = "; largest live buffers: ";
  for (size_t i = 0; i < shown; ++i)
    out += fmt::format("{}'{}' {}", i ? ", " : "", buffers[i].second->label,
                       formatBytes(buffers[i].second->bytes));
  if (shown < buffers.size())
    out += fmt::format(", and {} more", buffers.size() - shown);
  return out;
}

size_t CoreMemory::capacity() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return capacity_;
}

absl::Status CoreMemory::setCapacity(size_t capacityBytes) {
  std::lock_guard<std::mutex> lock(mutex_);
  if (inUse_ > capacityBytes)
    return absl::FailedPreconditionError(
        fmt::format("core {}: cannot set the capacity to {}: {} is in use",
                    coreId_, formatBytes(capacityBytes), formatBytes(inUse_)));
  capacity_ = capacityBytes;
  return absl::OkStatus();
}

size_t CoreMemory::bytesInUse() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return inUse_;
}

size_t CoreMemory::peakBytesInUse() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return peak_;
}

void CoreMemory::resetPeak() {
  std::lock_guard<std::mutex> lock(mutex_);
  peak_ = inUse_;
}

size_t CoreMemory::numLiveBuffers() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return live_.size();
}

} // namespace torus::rt
