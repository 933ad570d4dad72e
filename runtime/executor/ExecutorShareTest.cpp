//===- ExecutorShareTest.cpp - A run of a share of a program's devices ----===//
//
// RunOptions::firstDevice / numLocalDevices: an executor runs only some of
// the logical devices of a program spread over worker processes. Its cores
// keep their global replica, partition and device ids, and collectives go
// to the communicator with global ids (here a stand-in for the
// CrossWorkerCommunicator that records them and reduces the local devices;
// runtime/multiworker tests the real one). Bad shares are refused before any
// core runs.
//
//===----------------------------------------------------------------------===//

#include "runtime/executor/Executor.h"

#include "runtime/RuntimeAbi.h"
#include "runtime/collectives/InProcessCommunicator.h"
#include "runtime/executor/LoadedProgram.h"
#include "runtime/testing/UnimplementedCommunicator.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <atomic>
#include <mutex>
#include <set>

namespace torus::rt {
namespace {

using ::testing::HasSubstr;

std::string msg(const absl::Status &s) { return std::string(s.message()); }

// out0 = {replica id, partition id}; out1 = all_reduce(x) over a replica's
// two partitions ({{0,1},{2,3}}: global device ids).
void idsAndSumEntry(void **buffers) {
  auto *ids = static_cast<int32_t *>(buffers[1]);
  ids[0] = __torus_replica_id();
  ids[1] = __torus_partition_id();
  __torus_collective(0, buffers[0], buffers[2]);
}

Program idsAndSum() {
  Program p;
  p.spec.name = "ids_and_sum";
  p.spec.numReplicas = 2; // x 2 partitions: 4 devices
  TensorSpec x{DType::F32, {3}};
  p.spec.inputs = {x};
  p.spec.outputs = {TensorSpec{DType::I32, {2}}, x};
  CollectiveSpec c;
  c.reduce = ReduceKind::Sum;
  c.operand = x;
  c.replicaGroups = {{0, 1}, {2, 3}};
  p.spec.collectives = {c};
  p.entry = &idsAndSumEntry;
  return p;
}

/// Spans `total` global participants of which this process holds
/// `first`..`first + local - 1`: records the ids and groups it is called
/// with, and reduces the local participants (the test's groups never leave
/// the share).
class ShareCommunicator final : public testing::UnimplementedCommunicator {
public:
  ShareCommunicator(InProcessCommunicator &local, int64_t first,
                    int64_t total, std::set<int64_t> &ids, std::mutex &mutex)
      : local_(local), first_(first), total_(total), ids_(ids),
        mutex_(mutex) {}
  int64_t numReplicas() const override { return total_; }
  absl::Status allReduce(const CollectiveKey &key, int64_t replicaId,
                         const ReplicaGroups &groups, ReduceKind kind,
                         DType dtype, int64_t count, const void *in, void *out,
                         absl::Duration timeout) override {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      ids_.insert(replicaId);
      if (groups != ReplicaGroups{{0, 1}, {2, 3}})
        return absl::InternalError("the groups changed on the way");
    }
    return local_.allReduce(key, replicaId - first_, {}, kind, dtype, count,
                            in, out, timeout);
  }
  void abort(const absl::Status &reason) override { local_.abort(reason); }
  bool isAborted() const override { return local_.isAborted(); }

private:
  InProcessCommunicator &local_;
  int64_t first_, total_;
  std::set<int64_t> &ids_;
  std::mutex &mutex_;
};

std::vector<std::vector<HostTensor>> inputsFor(std::vector<int64_t> devices) {
  std::vector<std::vector<HostTensor>> inputs;
  for (int64_t d : devices)
    inputs.push_back({HostTensor::fromVector<float>(
        {3}, {float(d), float(10 * d), 0.5f})});
  return inputs;
}

TEST(ExecutorShareTest, DevicesKeepTheirGlobalIds) {
  std::set<int64_t> ids;
  std::mutex mutex;
  ExecutorOptions options;
  options.numCores = 2;
  options.wrapCommunicator = [&](InProcessCommunicator &local)
      -> absl::StatusOr<std::unique_ptr<Communicator>> {
    return std::make_unique<ShareCommunicator>(local, 2, 4, ids, mutex);
  };
  auto executor = Executor::create(options);
  ASSERT_TRUE(executor.ok()) << executor.status();
  RunOptions run;
  run.numPartitions = 2;
  run.firstDevice = 2; // replica 1's two partitions
  run.numLocalDevices = 2;
  auto out = (*executor)->run(idsAndSum(), inputsFor({2, 3}), run);
  ASSERT_TRUE(out.ok()) << out.status();
  ASSERT_EQ(out->size(), 2u);
  for (int64_t l = 0; l < 2; ++l) {
    EXPECT_EQ((*out)[l][0].toVector<int32_t>(),
              (std::vector<int32_t>{1, static_cast<int32_t>(l)}))
        << "local device " << l;
    // Devices 2 and 3: {2 + 3, 20 + 30, 0.5 + 0.5}.
    EXPECT_EQ((*out)[l][1].toVector<float>(),
              (std::vector<float>{5.f, 50.f, 1.f}));
  }
  EXPECT_EQ(ids, (std::set<int64_t>{2, 3}));
}

TEST(ExecutorShareTest, BadSharesAreRefused) {
  std::set<int64_t> ids;
  std::mutex mutex;
  int64_t span = 4;
  ExecutorOptions options;
  options.numCores = 2;
  options.wrapCommunicator = [&](InProcessCommunicator &local)
      -> absl::StatusOr<std::unique_ptr<Communicator>> {
    return std::make_unique<ShareCommunicator>(local, 2, span, ids, mutex);
  };
  auto executor = Executor::create(options);
  ASSERT_TRUE(executor.ok()) << executor.status();
  RunOptions run;
  run.numPartitions = 2;
  run.firstDevice = 3;
  run.numLocalDevices = 2;
  auto s = (*executor)->run(idsAndSum(), inputsFor({3, 4}), run).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(msg(s), "this run's devices 3..4 (RunOptions::firstDevice 3, "
                    "numLocalDevices 2) are not a range of program "
                    "'ids_and_sum''s 4 devices");

  run.firstDevice = 2;
  s = (*executor)->run(idsAndSum(), inputsFor({2, 3, 0}), run).status();
  EXPECT_EQ(msg(s), "this run executes devices 2..3 of program 'ids_and_sum' "
                    "but inputs were given for 3");

  // A communicator of this process's devices alone cannot carry global ids.
  span = 2;
  s = (*executor)->run(idsAndSum(), inputsFor({2, 3}), run).status();
  EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(msg(s), HasSubstr("needs a communicator spanning all 4 (global "
                                "device ids); ExecutorOptions::"
                                "wrapCommunicator gave one of 2 participants"));

  // Without a communicator spanning the workers.
  auto plain = Executor::create(2);
  ASSERT_TRUE(plain.ok());
  s = (*plain)->run(idsAndSum(), inputsFor({2, 3}), run).status();
  EXPECT_THAT(msg(s), HasSubstr("a run of devices 2..3 of program "
                                "'ids_and_sum''s 4 needs a communicator "
                                "spanning the workers"));
  // Resident programs run every device.
  auto loaded = LoadedProgram::load(**plain, idsAndSum(), {}, run);
  EXPECT_EQ(loaded.status().code(), absl::StatusCode::kUnimplemented);
  EXPECT_TRUE(ids.empty()) << "no core ran";
}

} // namespace
} // namespace torus::rt
