//===- BlockCacheTest.cpp - Freed device blocks kept for reuse ------------===//

#include "runtime/core/BlockCache.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <vector>

namespace torus::rt {
namespace {

constexpr size_t kMin = 1024;

void *block(size_t bytes) { return std::aligned_alloc(64, bytes); }

void freeAll(const std::vector<void *> &blocks) {
  for (void *b : blocks)
    std::free(b);
}

TEST(BlockCacheTest, TakesBackABlockOfTheSameSizeOnly) {
  BlockCache cache(1 << 20, kMin);
  void *a = block(4096);
  EXPECT_TRUE(cache.put(a, 4096).empty());
  EXPECT_EQ(cache.bytes(), 4096u);
  EXPECT_EQ(cache.take(8192), nullptr);
  EXPECT_EQ(cache.take(2048), nullptr);
  EXPECT_EQ(cache.take(4096), a);
  EXPECT_EQ(cache.bytes(), 0u);
  EXPECT_EQ(cache.take(4096), nullptr);
  std::free(a);
}

TEST(BlockCacheTest, OfOneSizeTheLastFreedComesFirst) {
  BlockCache cache(1 << 20, kMin);
  void *a = block(4096), *b = block(4096);
  EXPECT_TRUE(cache.put(a, 4096).empty());
  EXPECT_TRUE(cache.put(b, 4096).empty());
  EXPECT_EQ(cache.take(4096), b);
  EXPECT_EQ(cache.take(4096), a);
  std::free(a);
  std::free(b);
}

TEST(BlockCacheTest, SmallAndOversizedBlocksAreReturnedToTheCaller) {
  BlockCache cache(8192, kMin);
  void *small = block(512), *huge = block(16384);
  EXPECT_EQ(cache.put(small, 512), std::vector<void *>{small});
  EXPECT_EQ(cache.put(huge, 16384), std::vector<void *>{huge});
  EXPECT_EQ(cache.bytes(), 0u);
  EXPECT_EQ(cache.numBlocks(), 0u);
  std::free(small);
  std::free(huge);
}

TEST(BlockCacheTest, PastTheLimitTheOldestBlocksGoFirst) {
  BlockCache cache(3 * 4096, kMin);
  void *a = block(4096), *b = block(4096), *c = block(8192);
  EXPECT_TRUE(cache.put(a, 4096).empty());
  EXPECT_TRUE(cache.put(b, 4096).empty());
  // 16 KiB would be over the 12 KiB limit: a, the oldest, goes.
  EXPECT_EQ(cache.put(c, 8192), std::vector<void *>{a});
  EXPECT_EQ(cache.bytes(), 3u * 4096);
  EXPECT_EQ(cache.numBlocks(), 2u);
  EXPECT_EQ(cache.take(4096), b);
  EXPECT_EQ(cache.take(8192), c);
  std::free(a);
  std::free(b);
  std::free(c);
}

TEST(BlockCacheTest, LoweringTheLimitAndTakeAllEmptyIt) {
  BlockCache cache(1 << 20, kMin);
  void *a = block(4096), *b = block(8192);
  EXPECT_TRUE(cache.put(a, 4096).empty());
  EXPECT_TRUE(cache.put(b, 8192).empty());
  EXPECT_EQ(cache.setLimit(8192), std::vector<void *>{a});
  EXPECT_EQ(cache.limit(), 8192u);
  EXPECT_EQ(cache.takeAll(), std::vector<void *>{b});
  EXPECT_EQ(cache.bytes(), 0u);
  EXPECT_EQ(cache.take(8192), nullptr);
  std::free(a);
  std::free(b);
}

TEST(BlockCacheTest, TheDestructorFreesWhatIsLeft) {
  // Leak-checked by the sanitizer builds; here it must simply not crash.
  BlockCache cache(1 << 20, kMin);
  freeAll(cache.put(block(4096), 4096));
  freeAll(cache.put(block(4096), 4096));
  EXPECT_EQ(cache.numBlocks(), 2u);
}

} // namespace
} // namespace torus::rt
