//===- StreamingCopy.h - Copies that bypass the cache -----------*- C++ -*-===//
//
// Collectives write results larger than the caches to buffers nobody reads
// right away. Ordinary stores first read every destination line into the
// cache (read-for-ownership), doubling the memory traffic of a write;
// non-temporal stores write whole lines straight to memory. They are weakly
// ordered: streamFence() must run before another thread is told (through a
// release operation) that the data is there.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_COLLECTIVES_STREAMINGCOPY_H
#define TORUS_RUNTIME_COLLECTIVES_STREAMINGCOPY_H

#include <cstddef>

namespace torus::rt {

/// Results at least this large per destination are written with streaming
/// stores (below it, they likely stay in cache for the next reader).
inline constexpr size_t kStreamingThreshold = size_t{256} << 10;

/// memcpy with non-temporal stores (any alignment; regions must not
/// overlap). Call streamFence() before publishing the destination.
void streamStore(void *dst, const void *src, size_t bytes);
/// Orders every earlier streaming store before later stores.
void streamFence();
/// memcpy, streaming (and fenced) when `bytes` >= kStreamingThreshold.
void copyMaybeStreaming(void *dst, const void *src, size_t bytes);

} // namespace torus::rt

#endif // TORUS_RUNTIME_COLLECTIVES_STREAMINGCOPY_H
