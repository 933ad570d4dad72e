//===- BlockCache.h - Freed device blocks kept for reuse --------*- C++ -*-===//
//
// A training loop allocates the same buffers every step: the outputs and
// the workspace of each run. glibc hands blocks of more than its mmap
// threshold (and any block of a worker thread's arena at the top of its
// heap) back to the kernel when they are freed, so every step faulted its
// pages in again: an 8 MiB output cost 5 ms of page faults beside 1.3 ms of
// the convolution that wrote it. A core's memory keeps its freed blocks
// here instead, by size, and the next allocation of that size takes one
// with its pages still mapped.
//
// The cache holds at most a limit of bytes; past it, the blocks freed
// longest ago go back to the host first. It is not thread-safe: its owner
// (CoreMemory) locks around it, and frees what it returns outside the lock.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_CORE_BLOCKCACHE_H
#define TORUS_RUNTIME_CORE_BLOCKCACHE_H

#include <cstddef>
#include <list>
#include <map>
#include <vector>

namespace torus::rt {

class BlockCache {
public:
  /// Keeps at most `limitBytes`, of blocks of at least `minBlockBytes`
  /// (smaller ones the host's allocator reuses well by itself).
  BlockCache(size_t limitBytes, size_t minBlockBytes)
      : limit_(limitBytes), minBlock_(minBlockBytes) {}
  /// Frees every block still cached.
  ~BlockCache();
  BlockCache(const BlockCache &) = delete;
  BlockCache &operator=(const BlockCache &) = delete;

  /// A cached block of exactly `bytes`, the one freed last, or nullptr.
  void *take(size_t bytes);
  /// Keeps `block` (of `bytes`, from std::aligned_alloc). Returns the blocks
  /// the caller must std::free: `block` itself when it is too small or
  /// larger than the limit, else those evicted to make room (oldest first).
  [[nodiscard]] std::vector<void *> put(void *block, size_t bytes);
  /// Empties the cache; the caller must std::free what it returns.
  [[nodiscard]] std::vector<void *> takeAll();
  /// Changes the limit; returns the blocks evicted to meet it.
  [[nodiscard]] std::vector<void *> setLimit(size_t limitBytes);

  size_t bytes() const { return bytes_; }
  size_t numBlocks() const { return order_.size(); }
  size_t limit() const { return limit_; }

private:
  struct Block {
    void *data;
    size_t bytes;
  };
  /// Evicts the oldest blocks until the cache holds at most `target` bytes.
  void evictTo(size_t target, std::vector<void *> &out);

  size_t limit_;
  const size_t minBlock_;
  size_t bytes_ = 0;
  /// Oldest first.
  std::list<Block> order_;
  /// Every cached block by size.
  std::multimap<size_t, std::list<Block>::iterator> bySize_;
};

} // namespace torus::rt

#endif // TORUS_RUNTIME_CORE_BLOCKCACHE_H
