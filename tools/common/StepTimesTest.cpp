//===- StepTimesTest.cpp - The bounded summary of per-step times ----------===//

#include "tools/common/StepTimes.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

namespace torus::tools {
namespace {

double exactMedian(std::vector<double> times) {
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

TEST(StepTimesTest, ExactForTheFirstSteps) {
  StepTimes t;
  EXPECT_EQ(t.median(), 0);
  for (double ms : {5.0, 1.0, 3.0})
    t.add(ms);
  EXPECT_EQ(t.median(), 3.0);
  t.add(4.0); // upper median of 1 3 4 5
  EXPECT_EQ(t.median(), 4.0);
  std::vector<double> all = {5.0, 1.0, 3.0, 4.0};
  std::mt19937_64 gen(7);
  std::lognormal_distribution<double> dist(1.0, 0.5);
  while (t.count() < StepTimes::kExactSteps) {
    double ms = dist(gen);
    all.push_back(ms);
    t.add(ms);
  }
  EXPECT_TRUE(t.exact());
  EXPECT_EQ(t.median(), exactMedian(all));
}

TEST(StepTimesTest, BoundedAndWithinTheStatedErrorAfterwards) {
  std::mt19937_64 gen(42);
  // Wide spreads: three orders of magnitude, and a bimodal mix.
  std::lognormal_distribution<double> wide(0.0, 2.0);
  std::uniform_real_distribution<double> fast(0.5, 0.6), slow(40.0, 50.0);
  std::bernoulli_distribution pick(0.45);
  for (int which = 0; which < 2; ++which) {
    StepTimes t;
    std::vector<double> all;
    size_t maxBuckets = 0;
    for (int i = 0; i < 300000; ++i) {
      double ms = which == 0 ? wide(gen) : (pick(gen) ? slow(gen) : fast(gen));
      all.push_back(ms);
      t.add(ms);
      maxBuckets = std::max(maxBuckets, t.bucketCount());
    }
    EXPECT_FALSE(t.exact());
    double exact = exactMedian(all);
    EXPECT_NEAR(t.median() / exact, 1.0, StepTimes::kMedianRelativeError)
        << "exact " << exact << ", summary " << t.median();
    // log(1e13) / log(1 + 2^-7): every bucket from a picosecond to 10^4 s.
    EXPECT_LT(maxBuckets, 4000u);
  }
}

TEST(StepTimesTest, ZerosAndIdenticalTimes) {
  StepTimes zeros;
  for (int i = 0; i < StepTimes::kExactSteps + 10; ++i)
    zeros.add(0.0);
  EXPECT_EQ(zeros.median(), 0.0);
  StepTimes same;
  for (int i = 0; i < 3 * StepTimes::kExactSteps; ++i)
    same.add(12.5);
  EXPECT_EQ(same.bucketCount(), 1u);
  EXPECT_NEAR(same.median() / 12.5, 1.0, StepTimes::kMedianRelativeError);
}

} // namespace
} // namespace torus::tools
