//===- RunStateTest.cpp - Tests for a run's shared state ------------------===//

#include "runtime/executor/RunState.h"
#include "runtime/testing/UnimplementedCommunicator.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace torus::rt {
namespace {

using ::testing::HasSubstr;

/// Records abort() calls; collectives are not used here.
class RecordingCommunicator : public testing::UnimplementedCommunicator {
public:
  int64_t numReplicas() const override { return 4; }
  void abort(const absl::Status &reason) override { aborts.push_back(reason); }
  bool isAborted() const override { return !aborts.empty(); }
  std::vector<absl::Status> aborts;
};

TEST(RunStateTest, FirstFailureWinsAndAbortsTheCommunicator) {
  ProgramSpec spec;
  RecordingCommunicator comm;
  RunState state(/*runId=*/9, spec, comm, absl::Seconds(3));
  EXPECT_EQ(state.runId(), 9u);
  EXPECT_EQ(state.collectiveTimeout(), absl::Seconds(3));
  EXPECT_TRUE(state.status().ok());
  EXPECT_FALSE(state.isAborted());

  state.fail(3, 1, absl::OkStatus()); // not a failure
  EXPECT_FALSE(state.isAborted());

  state.fail(3, 1, absl::DeadlineExceededError("all_reduce #0: timed out"));
  EXPECT_TRUE(state.isAborted());
  EXPECT_EQ(state.status().code(), absl::StatusCode::kDeadlineExceeded);
  EXPECT_EQ(state.status().message(),
            "core 3 (replica 1): all_reduce #0: timed out");
  ASSERT_EQ(comm.aborts.size(), 1u);
  EXPECT_THAT(std::string(comm.aborts[0].message()),
              HasSubstr("core 3 (replica 1)"));

  // Peers woken by the abort report Aborted; the run keeps the cause.
  state.fail(0, 0, absl::AbortedError("run aborted"));
  EXPECT_EQ(state.status().code(), absl::StatusCode::kDeadlineExceeded);
  EXPECT_EQ(comm.aborts.size(), 1u);
}

} // namespace
} // namespace torus::rt
