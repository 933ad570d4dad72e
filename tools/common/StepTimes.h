//===- StepTimes.h - A bounded summary of per-step times --------*- C++ -*-===//
//
// torus-run reports the median host time of its steps. Keeping every time
// grows 8 bytes a step (--steps=1000000 is 8 MB, and more without bound);
// this summary is exact for the first kExactSteps steps and then holds a
// histogram of logarithmic buckets, each (1 + 2^-7) times as wide as the
// last, whose median is within kMedianRelativeError (0.4%) of the exact
// median's value. Its memory is bounded whatever the number of steps.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_TOOLS_COMMON_STEPTIMES_H
#define TORUS_TOOLS_COMMON_STEPTIMES_H

#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

namespace torus::tools {

class StepTimes {
public:
  /// Steps whose times are kept exactly.
  static constexpr int64_t kExactSteps = 4096;
  /// Bound on |reported / exact - 1| for the median once past kExactSteps.
  static constexpr double kMedianRelativeError = 0.004;

  /// Records one step's time, in milliseconds (>= 0).
  void add(double ms);
  int64_t count() const { return count_; }
  /// True while the median is exact.
  bool exact() const { return buckets_.empty(); }
  /// The median: the element at position count/2 of the sorted times
  /// (the upper median), exactly or within kMedianRelativeError. 0 when
  /// empty.
  double median() const;
  /// Buckets in use: at most a few thousand, whatever count() is.
  std::size_t bucketCount() const { return buckets_.size(); }

private:
  static int bucketOf(double ms);
  static double valueOf(int bucket);
  void addToHistogram(double ms);

  int64_t count_ = 0;
  std::vector<double> exact_;
  /// Times of 0 (or below the smallest bucket) are counted here.
  int64_t zeros_ = 0;
  std::map<int, int64_t> buckets_;
};

} // namespace torus::tools

#endif // TORUS_TOOLS_COMMON_STEPTIMES_H
