//===- AllocationCounter.h - Test helper: count allocations -----*- C++ -*-===//
//
// For tests that promise "no heap allocation in steady state". Linking
// AllocationCounter.cpp (the TorusAllocationCounter object library) into a
// test binary interposes malloc and its family (calloc, realloc, memalign,
// aligned_alloc, posix_memalign; operator new calls malloc): every call made
// by any thread of the process while a counter is running is counted,
// including calls from worker threads and from JIT-compiled code (the JIT
// resolves `malloc` to the binary's). Test-only: one binary of its own per
// test that uses it.
//
// Under ThreadSanitizer (or another sanitizer that owns malloc) nothing is
// interposed and hookInstalled() is false: tests skip their counts there.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_TESTING_ALLOCATIONCOUNTER_H
#define TORUS_RUNTIME_TESTING_ALLOCATIONCOUNTER_H

#include <cstdint>

namespace torus::rt::testing {

/// Counts allocations from construction until stop() (or destruction). One
/// counter at a time per process.
class AllocationCounter {
public:
  /// Starts counting at 0.
  AllocationCounter();
  /// Stops counting if still running.
  ~AllocationCounter();
  AllocationCounter(const AllocationCounter &) = delete;
  AllocationCounter &operator=(const AllocationCounter &) = delete;

  /// Stops counting; returns the allocations seen since construction.
  int64_t stop();

  /// False when malloc could not be interposed (sanitizer builds): counts
  /// are then always 0 and mean nothing.
  static bool hookInstalled();
};

} // namespace torus::rt::testing

#endif // TORUS_RUNTIME_TESTING_ALLOCATIONCOUNTER_H
