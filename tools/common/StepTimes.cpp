//===- StepTimes.cpp - A bounded summary of per-step times ----------------===//

#include "tools/common/StepTimes.h"

#include <algorithm>
#include <cmath>

namespace torus::tools {

namespace {
/// Bucket b holds [kFloor * r^b, kFloor * r^(b+1)) with r = 1 + 2^-7; the
/// reported value is the bucket's geometric middle, within sqrt(r) - 1
/// (0.2%) of anything in it.
constexpr double kRatio = 1.0 + 1.0 / 128;
/// Times below a picosecond (1e-9 ms) count as 0.
constexpr double kFloor = 1e-9;
} // namespace

int StepTimes::bucketOf(double ms) {
  return static_cast<int>(std::floor(std::log(ms / kFloor) / std::log(kRatio)));
}

double StepTimes::valueOf(int bucket) {
  return kFloor * std::pow(kRatio, bucket + 0.5);
}

void StepTimes::addToHistogram(double ms) {
  if (!(ms >= kFloor)) {
    ++zeros_;
    return;
  }
  ++buckets_[bucketOf(ms)];
}

void StepTimes::add(double ms) {
  ++count_;
  if (count_ <= kExactSteps) {
    exact_.push_back(ms);
    return;
  }
  if (!exact_.empty()) {
    for (double t : exact_)
      addToHistogram(t);
    std::vector<double>().swap(exact_);
  }
  addToHistogram(ms);
}

double StepTimes::median() const {
  if (count_ == 0)
    return 0;
  if (buckets_.empty() && zeros_ == 0) {
    std::vector<double> sorted = exact_;
    auto middle = sorted.begin() + sorted.size() / 2;
    std::nth_element(sorted.begin(), middle, sorted.end());
    return *middle;
  }
  int64_t rank = count_ / 2; // 0-based position in the sorted times
  if (rank < zeros_)
    return 0;
  int64_t seen = zeros_;
  for (const auto &[bucket, n] : buckets_) {
    seen += n;
    if (rank < seen)
      return valueOf(bucket);
  }
  return valueOf(buckets_.rbegin()->first);
}

} // namespace torus::tools
