//===- CoreMemoryTest.cpp - Tests for per-core memory accounting ----------===//

#include "runtime/core/CoreMemory.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

namespace torus::rt {
namespace {

using ::testing::HasSubstr;

TEST(CoreMemoryTest, AllocatesAlignedBuffersAndAccounts) {
  CoreMemory memory(/*coreId=*/0, /*capacityBytes=*/1 << 20);
  auto a = memory.allocate(100, "a");
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(reinterpret_cast<uintptr_t>(a->data()) % kDeviceBufferAlignment,
            0u);
  EXPECT_EQ(a->sizeInBytes(), 100u);
  // Charged rounded up to the alignment.
  EXPECT_EQ(memory.bytesInUse(), 128u);
  std::memset(a->data(), 0xab, a->sizeInBytes());

  auto b = memory.allocate(64, "b");
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(memory.bytesInUse(), 192u);
  EXPECT_EQ(memory.numLiveBuffers(), 2u);

  a->reset();
  EXPECT_FALSE(static_cast<bool>(*a));
  EXPECT_EQ(memory.bytesInUse(), 64u);
  EXPECT_EQ(memory.peakBytesInUse(), 192u);
  memory.resetPeak();
  EXPECT_EQ(memory.peakBytesInUse(), 64u);
}

TEST(CoreMemoryTest, ZeroByteBufferIsNonNullAndFree) {
  CoreMemory memory(0, 1024);
  auto a = memory.allocate(0, "empty");
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_NE(a->data(), nullptr);
  EXPECT_EQ(memory.bytesInUse(), 0u);
}

TEST(CoreMemoryTest, RaiiFreesOnScopeExitAndMove) {
  CoreMemory memory(0, 4096);
  {
    auto a = memory.allocate(1000, "a");
    ASSERT_TRUE(a.ok());
    DeviceBuffer moved = std::move(*a);
    EXPECT_FALSE(static_cast<bool>(*a));
    EXPECT_TRUE(static_cast<bool>(moved));
    EXPECT_EQ(memory.bytesInUse(), 1024u);
    DeviceBuffer assigned;
    assigned = std::move(moved);
    EXPECT_EQ(memory.bytesInUse(), 1024u);
    // Move-assigning over a live buffer frees the old one.
    auto c = memory.allocate(64, "c");
    ASSERT_TRUE(c.ok());
    assigned = std::move(*c);
    EXPECT_EQ(memory.bytesInUse(), 64u);
  }
  EXPECT_EQ(memory.bytesInUse(), 0u);
  EXPECT_EQ(memory.numLiveBuffers(), 0u);
}

TEST(CoreMemoryTest, ExceedingCapacityNamesCoreSizesAndLargestBuffers) {
  CoreMemory memory(/*coreId=*/7, /*capacityBytes=*/1 << 20); // 1 MiB
  auto big = memory.allocate(512 << 10, "replica 7 input 0");
  ASSERT_TRUE(big.ok());
  auto small = memory.allocate(1024, "replica 7 input 1");
  ASSERT_TRUE(small.ok());

  auto tooMuch = memory.allocate(600 << 10, "replica 7 output 0");
  ASSERT_FALSE(tooMuch.ok());
  const absl::Status &s = tooMuch.status();
  EXPECT_EQ(s.code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(std::string(s.message()), HasSubstr("core 7"));
  EXPECT_THAT(std::string(s.message()), HasSubstr("614400 bytes"));
  EXPECT_THAT(std::string(s.message()), HasSubstr("'replica 7 output 0'"));
  EXPECT_THAT(std::string(s.message()), HasSubstr("capacity 1.00 MiB"));
  EXPECT_THAT(std::string(s.message()),
              HasSubstr("in use 513.00 KiB in 2 buffers"));
  EXPECT_THAT(std::string(s.message()),
              HasSubstr("largest live buffers: 'replica 7 input 0' 512.00 KiB, "
                        "'replica 7 input 1' 1.00 KiB"));
  // A failed allocation charges nothing.
  EXPECT_EQ(memory.bytesInUse(), (512u << 10) + 1024u);
  EXPECT_EQ(memory.numLiveBuffers(), 2u);

  // Exactly the remaining capacity fits.
  auto rest = memory.allocate((1 << 20) - (512 << 10) - 1024, "rest");
  EXPECT_TRUE(rest.ok()) << rest.status();
  auto one = memory.allocate(1, "one more");
  EXPECT_EQ(one.status().code(), absl::StatusCode::kResourceExhausted);
}

TEST(CoreMemoryTest, LargestBuffersListIsCapped) {
  CoreMemory memory(1, 64 * 10);
  std::vector<DeviceBuffer> buffers;
  for (int i = 0; i < 10; ++i) {
    auto b = memory.allocate(64, "b" + std::to_string(i));
    ASSERT_TRUE(b.ok());
    buffers.push_back(std::move(*b));
  }
  auto fail = memory.allocate(1, "x");
  ASSERT_FALSE(fail.ok());
  EXPECT_THAT(std::string(fail.status().message()), HasSubstr("and 6 more"));
}

TEST(CoreMemoryTest, HugeRequestFailsCleanly) {
  CoreMemory memory(2);
  EXPECT_EQ(memory.capacity(), kDefaultCoreMemoryCapacity);
  auto a = memory.allocate(SIZE_MAX, "huge");
  EXPECT_EQ(a.status().code(), absl::StatusCode::kResourceExhausted);
  auto b = memory.allocate(kDefaultCoreMemoryCapacity + 1, "too big");
  EXPECT_EQ(b.status().code(), absl::StatusCode::kResourceExhausted);
  EXPECT_THAT(std::string(b.status().message()),
              HasSubstr("capacity 16.00 GiB"));
}

TEST(CoreMemoryTest, SetCapacity) {
  CoreMemory memory(0, 1024);
  auto a = memory.allocate(512, "a");
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(memory.setCapacity(256).code(),
            absl::StatusCode::kFailedPrecondition);
  EXPECT_TRUE(memory.setCapacity(4096).ok());
  EXPECT_EQ(memory.capacity(), 4096u);
  EXPECT_TRUE(memory.allocate(2048, "b").ok());
}

TEST(CoreMemoryTest, ConcurrentAllocationsAccountExactly) {
  CoreMemory memory(0, 1 << 30);
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&memory] {
      for (int i = 0; i < 200; ++i) {
        auto b = memory.allocate(100 + i, "t");
        ASSERT_TRUE(b.ok());
        static_cast<char *>(b->data())[0] = 1;
      }
    });
  for (auto &t : threads)
    t.join();
  EXPECT_EQ(memory.bytesInUse(), 0u);
  EXPECT_EQ(memory.numLiveBuffers(), 0u);
}

TEST(CoreMemoryTest, AFreedBufferIsReusedForTheSameSizeAndCountsAsFree) {
  CoreMemory memory(0, 64 << 20);
  void *first;
  {
    auto a = memory.allocate(8 << 20, "a");
    ASSERT_TRUE(a.ok()) << a.status();
    first = a->data();
  }
  EXPECT_EQ(memory.bytesInUse(), 0u);
  EXPECT_EQ(memory.cachedBytes(), size_t{8} << 20);
  auto b = memory.allocate(8 << 20, "b");
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(b->data(), first);
  EXPECT_EQ(memory.cachedBytes(), 0u);
  EXPECT_EQ(memory.bytesInUse(), size_t{8} << 20);
  // Another size does not take it; the capacity counts live buffers only.
  b->reset();
  auto c = memory.allocate(56 << 20, "c");
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_NE(c->data(), first);
  EXPECT_EQ(memory.cachedBytes(), size_t{8} << 20);
}

TEST(CoreMemoryTest, KeptBlocksAreBoundedAndCanBeReleased) {
  CoreMemory memory(0, 64 << 20);
  memory.setBlockCacheLimit(1 << 20);
  {
    auto big = memory.allocate(2 << 20, "big"); // over the limit
    auto small = memory.allocate(1024, "small"); // below kMinCachedBlock
    auto kept = memory.allocate(512 << 10, "kept");
    ASSERT_TRUE(big.ok() && small.ok() && kept.ok());
  }
  EXPECT_EQ(memory.cachedBytes(), size_t{512} << 10);
  EXPECT_EQ(memory.releaseCachedBlocks(), size_t{512} << 10);
  EXPECT_EQ(memory.cachedBytes(), 0u);
  memory.setBlockCacheLimit(0);
  {
    auto none = memory.allocate(512 << 10, "none");
    ASSERT_TRUE(none.ok());
  }
  EXPECT_EQ(memory.cachedBytes(), 0u);
}

TEST(CoreMemoryTest, KeptAndLiveBlocksStayWithinTheHighWaterMark) {
  CoreMemory memory(0, 64 << 20);
  { auto a = memory.allocate(1 << 20, "a"); ASSERT_TRUE(a.ok()); }
  EXPECT_EQ(memory.cachedBytes(), size_t{1} << 20);
  // b misses (another size). Once it is freed, b and a together would be
  // 3 MiB where the core never had more than 2 MiB in use: a, the older,
  // goes back to the host.
  { auto b = memory.allocate(2 << 20, "b"); ASSERT_TRUE(b.ok()); }
  EXPECT_EQ(memory.cachedBytes(), size_t{2} << 20);
  auto again = memory.allocate(1 << 20, "again");
  ASSERT_TRUE(again.ok());
  EXPECT_EQ(memory.cachedBytes(), size_t{2} << 20);
}

TEST(FormatBytesTest, Units) {
  EXPECT_EQ(formatBytes(0), "0 B");
  EXPECT_EQ(formatBytes(1023), "1023 B");
  EXPECT_EQ(formatBytes(1024), "1.00 KiB");
  EXPECT_EQ(formatBytes(size_t{3} << 29), "1.50 GiB");
}

} // namespace
} // namespace torus::rt
