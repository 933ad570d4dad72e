//===- FloatMode.h - The CPU's floating-point mode for generated code -*- C++ -*-===//
//
// Torus computes as XLA:CPU does: with subnormals flushed to zero, inputs
// (DAZ) and results (FTZ) alike, so that `log(1e-40)` is -inf and
// `sign(1e-40)` is 0 on every host (docs/codegen.md, "Subnormals"). The
// executor sets the mode on each emulated core's thread while it runs
// generated code (CoreContext::Scope), and the host threads of
// __torus_parallel_for take the caller's; the libm routines the code calls
// flush for themselves (SupportRoutines.h).
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_FLOATMODE_H
#define TORUS_RUNTIME_FLOATMODE_H

#include <cstdint>

#if defined(__x86_64__) || defined(__i386__)
#include <xmmintrin.h>
#endif

namespace torus::rt {

/// The calling thread's floating-point control word (x86: MXCSR).
inline uint32_t floatMode() {
#if defined(__x86_64__) || defined(__i386__)
  return _mm_getcsr();
#else
  return 0;
#endif
}

inline void setFloatMode(uint32_t mode) {
#if defined(__x86_64__) || defined(__i386__)
  _mm_setcsr(mode);
#else
  (void)mode;
#endif
}

/// MXCSR's flush-to-zero (FTZ) and denormals-are-zero (DAZ) bits.
inline constexpr uint32_t kFlushSubnormals = 0x8040;

/// Sets `mode` on this thread for the scope's lifetime, then restores the
/// previous one.
class ScopedFloatMode {
public:
  explicit ScopedFloatMode(uint32_t mode) : previous_(floatMode()) {
    setFloatMode(mode);
  }
  ~ScopedFloatMode() { setFloatMode(previous_); }
  ScopedFloatMode(const ScopedFloatMode &) = delete;
  ScopedFloatMode &operator=(const ScopedFloatMode &) = delete;

private:
  uint32_t previous_;
};

/// Subnormals flushed on this thread for the scope's lifetime.
class ScopedFlushSubnormals : public ScopedFloatMode {
public:
  ScopedFlushSubnormals() : ScopedFloatMode(floatMode() | kFlushSubnormals) {}
};

} // namespace torus::rt

#endif // TORUS_RUNTIME_FLOATMODE_H
