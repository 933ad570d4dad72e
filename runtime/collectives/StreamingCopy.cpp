//===- StreamingCopy.cpp - Copies that bypass the cache -------------------===//

#include "runtime/collectives/StreamingCopy.h"

#include <cstdint>
#include <cstring>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace torus::rt {

void streamStore(void *dst, const void *src, size_t bytes) {
#if defined(__SSE2__)
  char *d = static_cast<char *>(dst);
  const char *s = static_cast<const char *>(src);
  size_t head = (16 - reinterpret_cast<uintptr_t>(d) % 16) % 16;
  if (head > bytes)
    head = bytes;
  std::memcpy(d, s, head);
  d += head;
  s += head;
  bytes -= head;
  size_t i = 0;
  for (; i + 64 <= bytes; i += 64) {
    __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i *>(s + i));
    __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i *>(s + i + 16));
    __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i *>(s + i + 32));
    __m128i e = _mm_loadu_si128(reinterpret_cast<const __m128i *>(s + i + 48));
    _mm_stream_si128(reinterpret_cast<__m128i *>(d + i), a);
    _mm_stream_si128(reinterpret_cast<__m128i *>(d + i + 16), b);
    _mm_stream_si128(reinterpret_cast<__m128i *>(d + i + 32), c);
    _mm_stream_si128(reinterpret_cast<__m128i *>(d + i + 48), e);
  }
  for (; i + 16 <= bytes; i += 16)
    _mm_stream_si128(
        reinterpret_cast<__m128i *>(d + i),
        _mm_loadu_si128(reinterpret_cast<const __m128i *>(s + i)));
  std::memcpy(d + i, s + i, bytes - i);
#else
  std::memcpy(dst, src, bytes);
#endif
}

void streamFence() {
#if defined(__SSE2__)
  _mm_sfence();
#endif
}

void copyMaybeStreaming(void *dst, const void *src, size_t bytes) {
  if (bytes < kStreamingThreshold) {
    std::memcpy(dst, src, bytes);
    return;
  }
  streamStore(dst, src, bytes);
  streamFence();
}

} // namespace torus::rt
