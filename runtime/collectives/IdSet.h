//===- IdSet.h - A set of participant ids as bits ---------------*- C++ -*-===//
//
// Which of the ids 0..n-1 have been seen, one bit each: what validating
// replica groups and permute pairs needs on every collective call. The bits
// live inline up to kInlineIds ids (an executor's maximum core count), so
// that check allocates nothing on the success path; larger sets allocate.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_COLLECTIVES_IDSET_H
#define TORUS_RUNTIME_COLLECTIVES_IDSET_H

#include "absl/container/inlined_vector.h"

#include <cstddef>
#include <cstdint>

namespace torus::rt {

class IdSet {
public:
  /// Ids up to this many are held without allocating.
  static constexpr int64_t kInlineIds = 1024;

  /// The empty set of ids 0..size-1.
  explicit IdSet(int64_t size)
      : words_(static_cast<size_t>((size + 63) / 64), uint64_t{0}) {}

  /// `id` must be in 0..size-1.
  bool contains(int64_t id) const {
    return (words_[static_cast<size_t>(id) / 64] >> (id % 64)) & 1;
  }
  void insert(int64_t id) {
    words_[static_cast<size_t>(id) / 64] |= uint64_t{1} << (id % 64);
  }

private:
  absl::InlinedVector<uint64_t, kInlineIds / 64> words_;
};

} // namespace torus::rt

#endif // TORUS_RUNTIME_COLLECTIVES_IDSET_H
