//===- AllocationCounter.cpp - Test helper: count heap allocations --------===//
//
// Defines malloc and its family in the test binary, forwarding to glibc's
// implementation (__libc_malloc, ...) and counting while a counter runs.
//
//===----------------------------------------------------------------------===//

#include "runtime/testing/AllocationCounter.h"

#include <atomic>
#include <cerrno>
#include <cstddef>

#if defined(__has_feature)
#if __has_feature(thread_sanitizer) || __has_feature(address_sanitizer) ||     \
    __has_feature(memory_sanitizer)
#define TORUS_SANITIZER_OWNS_MALLOC 1
#endif
#endif
#if defined(__SANITIZE_THREAD__) || defined(__SANITIZE_ADDRESS__)
#define TORUS_SANITIZER_OWNS_MALLOC 1
#endif

namespace {
std::atomic<bool> counting{false};
std::atomic<int64_t> allocations{0};

[[maybe_unused]] inline void count() {
  if (counting.load(std::memory_order_relaxed))
    allocations.fetch_add(1, std::memory_order_relaxed);
}
} // namespace

#ifndef TORUS_SANITIZER_OWNS_MALLOC
extern "C" {
void *__libc_malloc(size_t);
void __libc_free(void *);
void *__libc_calloc(size_t, size_t);
void *__libc_realloc(void *, size_t);
void *__libc_memalign(size_t, size_t);

void *malloc(size_t n) {
  count();
  return __libc_malloc(n);
}
void free(void *p) { __libc_free(p); }
void *calloc(size_t n, size_t size) {
  count();
  return __libc_calloc(n, size);
}
void *realloc(void *p, size_t n) {
  count();
  return __libc_realloc(p, n);
}
void *memalign(size_t alignment, size_t n) {
  count();
  return __libc_memalign(alignment, n);
}
void *aligned_alloc(size_t alignment, size_t n) {
  count();
  return __libc_memalign(alignment, n);
}
int posix_memalign(void **out, size_t alignment, size_t n) {
  count();
  void *p = __libc_memalign(alignment, n);
  if (!p)
    return ENOMEM;
  *out = p;
  return 0;
}
}
#endif

namespace torus::rt::testing {

AllocationCounter::AllocationCounter() {
  allocations.store(0, std::memory_order_relaxed);
  counting.store(true, std::memory_order_seq_cst);
}

AllocationCounter::~AllocationCounter() { stop(); }

int64_t AllocationCounter::stop() {
  counting.store(false, std::memory_order_seq_cst);
  return allocations.load(std::memory_order_relaxed);
}

bool AllocationCounter::hookInstalled() {
#ifdef TORUS_SANITIZER_OWNS_MALLOC
  return false;
#else
  return true;
#endif
}

} // namespace torus::rt::testing
