//===- BlockCache.cpp - Freed device blocks kept for reuse ----------------===//

#include "runtime/core/BlockCache.h"

#include <cstdlib>
#include <iterator>

namespace torus::rt {

BlockCache::~BlockCache() {
  for (void *block : takeAll())
    std::free(block);
}

void *BlockCache::take(size_t bytes) {
  auto [first, last] = bySize_.equal_range(bytes);
  if (first == last)
    return nullptr;
  // The most recently freed of that size (a multimap inserts equal keys
  // last): its lines are the likeliest to be in the CPU's caches.
  auto newest = std::prev(last);
  void *data = newest->second->data;
  bytes_ -= bytes;
  order_.erase(newest->second);
  bySize_.erase(newest);
  return data;
}

std::vector<void *> BlockCache::put(void *block, size_t bytes) {
  std::vector<void *> release;
  if (bytes < minBlock_ || bytes > limit_) {
    release.push_back(block);
    return release;
  }
  evictTo(limit_ - bytes, release);
  order_.push_back({block, bytes});
  bySize_.emplace(bytes, std::prev(order_.end()));
  bytes_ += bytes;
  return release;
}

std::vector<void *> BlockCache::takeAll() {
  std::vector<void *> release;
  evictTo(0, release);
  return release;
}

std::vector<void *> BlockCache::setLimit(size_t limitBytes) {
  limit_ = limitBytes;
  std::vector<void *> release;
  evictTo(limit_, release);
  return release;
}

void BlockCache::evictTo(size_t target, std::vector<void *> &out) {
  while (bytes_ > target) {
    Block &oldest = order_.front();
    auto [first, last] = bySize_.equal_range(oldest.bytes);
    for (auto it = first; it != last; ++it)
      if (it->second == order_.begin()) {
        bySize_.erase(it);
        break;
      }
    out.push_back(oldest.data);
    bytes_ -= oldest.bytes;
    order_.pop_front();
  }
}

} // namespace torus::rt
