//===- ClusterResolverTest.cpp - TPUClusterResolver -----------------------===//
//
// Cases from tensorflow/python/distribute/cluster_resolver/tpu/
// tpu_cluster_resolver_test.py and client_test.py where they apply to an
// emulator (spec §11).
//
//===----------------------------------------------------------------------===//
#include "runtime/mesh/ClusterResolver.h"

#include "gtest/gtest.h"
#include "runtime/mesh/MeshTestUtil.h"

namespace torus::rt {
namespace {

using testing::expectError;
using testing::expectErrorContaining;
using testing::valueOrFail;
using Env = std::map<std::string, std::string>;

TPUClusterResolverOptions withEnv(Env env) {
  TPUClusterResolverOptions options;
  options.environment = std::move(env);
  return options;
}

TEST(ClusterResolverTest, LocalTpu) {
  TPUClusterResolver resolver =
      valueOrFail(TPUClusterResolver::create("local", withEnv({})));
  EXPECT_TRUE(resolver.isLocal());
  EXPECT_EQ(resolver.tpuName(), "local");
  EXPECT_EQ(valueOrFail(resolver.master()), "");
  EXPECT_TRUE(valueOrFail(resolver.clusterSpec()).empty());
  EXPECT_EQ(resolver.environment(), "");
  EXPECT_EQ(resolver.taskType(), "worker");
  EXPECT_EQ(resolver.taskId(), 0);
  EXPECT_EQ(resolver.getJobName(), "worker");
  EXPECT_EQ(resolver.getCoordinationServiceLeader(), "/job:worker/task:0");
  EXPECT_EQ(resolver.acceleratorType(), "v3-8");
  EXPECT_EQ(valueOrFail(resolver.numAccelerators()),
            (std::map<std::string, int>{{"TPU", 8}}));
  EXPECT_FALSE(resolver.tpuTopology().has_value());
}

TEST(ClusterResolverTest, UnnamedTpuIsTheLocalEmulatedSlice) {
  TPUClusterResolver unnamed =
      valueOrFail(TPUClusterResolver::create("", withEnv({})));
  EXPECT_TRUE(unnamed.isLocal());
  EXPECT_EQ(unnamed.tpuName(), "local");
  TPUClusterResolver none =
      valueOrFail(TPUClusterResolver::create(std::nullopt, withEnv({})));
  EXPECT_TRUE(none.isLocal());
  // TensorFlow's behaviour, on request.
  TPUClusterResolverOptions strict = withEnv({});
  strict.emulateLocalWhenUnnamed = false;
  expectError(TPUClusterResolver::create("", strict).status(),
              absl::StatusCode::kInvalidArgument,
              "Please provide a TPU Name to connect to.");
}

TEST(ClusterResolverTest, AcceleratorTypeChoosesTheSlice) {
  TPUClusterResolverOptions options = withEnv({});
  options.acceleratorType = "v4-8";
  TPUClusterResolver v48 = valueOrFail(TPUClusterResolver::create("local", options));
  EXPECT_EQ(valueOrFail(v48.numAccelerators()),
            (std::map<std::string, int>{{"TPU", 4}}));
  TPUClusterResolver fromEnv = valueOrFail(TPUClusterResolver::create(
      "local", withEnv({{"TORUS_TPU_ACCELERATOR_TYPE", "2x2x1x1"}})));
  EXPECT_EQ(fromEnv.acceleratorType(), "2x2x1x1");
  EXPECT_EQ(valueOrFail(fromEnv.sliceTopology()).meshShape(),
            (std::array<int32_t, 4>{2, 2, 1, 1}));
  options.acceleratorType = "v9-8";
  expectErrorContaining(TPUClusterResolver::create("local", options).status(),
                        absl::StatusCode::kInvalidArgument,
                        "accelerator type: \"v9-8\" is neither a TPU preset");
}

// tpu_cluster_resolver_test.py::testNoCallComputeMetadata.
TEST(ClusterResolverTest, GrpcAddressIsNotLookedUp) {
  TPUClusterResolver resolver = valueOrFail(
      TPUClusterResolver::create("grpc://10.1.2.3:8470", withEnv({})));
  EXPECT_FALSE(resolver.isLocal());
  EXPECT_EQ(valueOrFail(resolver.master()), "grpc://10.1.2.3:8470");
  EXPECT_EQ(valueOrFail(resolver.clusterSpec()),
            (ClusterSpecMap{{"worker", {"10.1.2.3:8470"}}}));
  // Default port.
  TPUClusterResolver noPort =
      valueOrFail(TPUClusterResolver::create("grpc://10.1.2.3", withEnv({})));
  EXPECT_EQ(valueOrFail(noPort.clusterSpec()),
            (ClusterSpecMap{{"worker", {"10.1.2.3:8470"}}}));
}

// tpu_cluster_resolver_test.py::testGkeEnvironmentForPod and
// testOverrideTaskTypeAndIndexAndGetMaster.
TEST(ClusterResolverTest, GkeEndpointsForAPod) {
  TPUClusterResolver resolver = valueOrFail(TPUClusterResolver::create(
      std::nullopt,
      withEnv({{"KUBE_GOOGLE_CLOUD_TPU_ENDPOINTS",
                "grpc://10.120.27.5:8470,grpc://10.120.27.6:8470,"
                "grpc://10.120.27.7:8470,grpc://10.120.27.8:8470"}})));
  EXPECT_EQ(valueOrFail(resolver.master()), "grpc://10.120.27.5:8470");
  EXPECT_EQ(valueOrFail(resolver.clusterSpec()),
            (ClusterSpecMap{{"worker",
                             {"10.120.27.5:8470", "10.120.27.6:8470",
                              "10.120.27.7:8470", "10.120.27.8:8470"}}}));

  TPUClusterResolver pod = valueOrFail(TPUClusterResolver::create(
      "grpc://10.2.3.4:8470,grpc://10.2.3.5:8470,grpc://10.2.3.6:8470,"
      "grpc://10.2.3.7:8470",
      withEnv({})));
  pod.setTaskId(3);
  EXPECT_EQ(valueOrFail(pod.master()), "grpc://10.2.3.7:8470");
  EXPECT_EQ(valueOrFail(pod.master("worker", 1)), "grpc://10.2.3.5:8470");
  // Only one override given: the resolver's own task is used.
  EXPECT_EQ(valueOrFail(pod.master(std::nullopt, 0)), "grpc://10.2.3.7:8470");
  expectError(pod.master("worker", 4).status(),
              absl::StatusCode::kInvalidArgument,
              "No task with index 4 in job 'worker'");
  expectError(pod.master("ps", 0).status(), absl::StatusCode::kInvalidArgument,
              "No such job in cluster: 'ps'");
}

TEST(ClusterResolverTest, HostIndexFromTpuWorkerId) {
  // One process per host: $TPU_WORKER_ID (Cloud TPU VMs) names this host;
  // master() is then its endpoint.
  Env env = {{"TORUS_TPU_ACCELERATOR_TYPE", "v4-32"},
             {"KUBE_GOOGLE_CLOUD_TPU_ENDPOINTS",
              "grpc://10.0.0.1:8470,grpc://10.0.0.2:8470,"
              "grpc://10.0.0.3:8470,grpc://10.0.0.4:8470"}};
  EXPECT_FALSE(valueOrFail(TPUClusterResolver::create(std::nullopt,
                                                      withEnv(env)))
                   .hostIndex());
  env["TPU_WORKER_ID"] = "3";
  TPUClusterResolver host3 =
      valueOrFail(TPUClusterResolver::create(std::nullopt, withEnv(env)));
  EXPECT_EQ(host3.hostIndex(), 3);
  EXPECT_EQ(valueOrFail(host3.master()), "grpc://10.0.0.4:8470");
  EXPECT_EQ(valueOrFail(host3.hostAddress(3)), "10.0.0.4");
  EXPECT_EQ(hostOfAddress("[::1]:2222"), "::1");
  EXPECT_EQ(valueOrFail(host3.hostAddress(0)), "10.0.0.1");
  // The option wins over the variable.
  TPUClusterResolverOptions options = withEnv(env);
  options.hostIndex = 1;
  EXPECT_EQ(valueOrFail(TPUClusterResolver::create(std::nullopt, options))
                .hostIndex(),
            1);
  for (const char *bad : {"x", "1.5", "-1", "4", " 2"}) {
    env["TPU_WORKER_ID"] = bad;
    absl::Status s =
        TPUClusterResolver::create(std::nullopt, withEnv(env)).status();
    EXPECT_EQ(s.code(), absl::StatusCode::kInvalidArgument) << bad;
    EXPECT_NE(s.message().find("TPU_WORKER_ID"), std::string_view::npos)
        << s;
  }
  env["TPU_WORKER_ID"] = "4";
  expectError(TPUClusterResolver::create(std::nullopt, withEnv(env)).status(),
              absl::StatusCode::kInvalidArgument,
              "$TPU_WORKER_ID 4 names no host of slice v4-32, whose hosts are "
              "0..3");
  // A local slice's hosts are processes of this machine.
  TPUClusterResolver local = valueOrFail(TPUClusterResolver::create(
      "local", withEnv({{"TORUS_TPU_ACCELERATOR_TYPE", "v4-32"},
                        {"TPU_WORKER_ID", "2"}})));
  EXPECT_EQ(local.hostIndex(), 2);
  EXPECT_EQ(valueOrFail(local.hostAddress(2)), "127.0.0.1");
  EXPECT_EQ(hostOfAddress("localhost:2222"), "127.0.0.1");
  EXPECT_EQ(hostOfAddress(":2222"), "127.0.0.1");
}

TEST(ClusterResolverTest, NameFromEnvironment) {
  TPUClusterResolver fromName = valueOrFail(TPUClusterResolver::create(
      "", withEnv({{"TPU_NAME", "grpc://10.0.0.9:8470"}})));
  EXPECT_EQ(fromName.tpuName(), "grpc://10.0.0.9:8470");
  // KUBE_GOOGLE_CLOUD_TPU_ENDPOINTS wins over TPU_NAME.
  TPUClusterResolver kube = valueOrFail(TPUClusterResolver::create(
      "", withEnv({{"TPU_NAME", "grpc://10.0.0.9:8470"},
                   {"KUBE_GOOGLE_CLOUD_TPU_ENDPOINTS", "grpc://10.0.0.1:1234"}})));
  EXPECT_EQ(valueOrFail(kube.master()), "grpc://10.0.0.1:1234");
  TPUClusterResolver config = valueOrFail(TPUClusterResolver::create(
      "", withEnv({{"TPU_CONFIG", "{\"project\": \"p\", \"zone\": \"z\", "
                                  "\"tpu_node_name\": \"grpc://10.0.0.3\", "
                                  "\"extra\": {\"a\": [1, 2]}, \"n\": 3}"}})));
  EXPECT_EQ(valueOrFail(config.master()), "grpc://10.0.0.3:8470");
  expectErrorContaining(
      TPUClusterResolver::create("", withEnv({{"TPU_CONFIG", "{\"zone\": "}}))
          .status(),
      absl::StatusCode::kInvalidArgument,
      "TPU_CONFIG is not a JSON object TensorFlow can read");
  expectErrorContaining(
      TPUClusterResolver::create("", withEnv({{"TPU_CONFIG", "{\"zone\": \"z\"}"}}))
          .status(),
      absl::StatusCode::kInvalidArgument, "TPU_CONFIG has no string \"tpu_node_name\"");
}

TEST(ClusterResolverTest, CloudNamesNeedTheCloudApi) {
  expectErrorContaining(
      TPUClusterResolver::create("my-tpu", withEnv({})).status(),
      absl::StatusCode::kInvalidArgument,
      "Could not lookup TPU metadata from name 'my-tpu'. Please doublecheck "
      "the tpu argument in the TPUClusterResolver constructor. Exception: ");
}

TEST(ClusterResolverTest, ListsOfNames) {
  expectError(TPUClusterResolver::create(std::vector<std::string>{}).status(),
              absl::StatusCode::kInvalidArgument,
              "At least one TPU must be specified.");
  expectError(TPUClusterResolver::create(std::vector<std::string>{"a", "b"})
                  .status(),
              absl::StatusCode::kUnimplemented,
              "Using multiple TPUs in a single session is not yet implemented");
  TPUClusterResolver one = valueOrFail(TPUClusterResolver::create(
      std::vector<std::string>{"grpc://10.1.1.1:8470"}, withEnv({})));
  EXPECT_EQ(valueOrFail(one.master()), "grpc://10.1.1.1:8470");
}

TEST(ClusterResolverTest, CoordinatorJoinsTheClusterSpec) {
  TPUClusterResolverOptions options = withEnv({});
  options.coordinatorName = "coordinator";
  options.coordinatorAddress = "10.128.1.5:10203";
  TPUClusterResolver resolver = valueOrFail(
      TPUClusterResolver::create("grpc://10.1.2.3:8470", options));
  EXPECT_EQ(valueOrFail(resolver.clusterSpec()),
            (ClusterSpecMap{{"coordinator", {"10.128.1.5:10203"}},
                            {"worker", {"10.1.2.3:8470"}}}));
  options.coordinatorAddress.reset();
  expectErrorContaining(
      TPUClusterResolver::create("grpc://10.1.2.3:8470", options).status(),
      absl::StatusCode::kUnimplemented,
      "coordinator_name 'coordinator' was given without coordinator_address");
}

TEST(ClusterResolverTest, JobNameAndMetadata) {
  TPUClusterResolverOptions options = withEnv({});
  options.jobName = "tpu_worker";
  options.acceleratorType = "v3-32";
  TPUClusterResolver resolver = valueOrFail(TPUClusterResolver::create(
      "grpc://10.0.0.1,grpc://10.0.0.2,grpc://10.0.0.3,grpc://10.0.0.4",
      options));
  EXPECT_EQ(resolver.getCoordinationServiceLeader(), "/job:tpu_worker/task:0");
  EXPECT_EQ(valueOrFail(resolver.numAccelerators()),
            (std::map<std::string, int>{{"TPU", 8}}));
  TPUSystemMetadata metadata = valueOrFail(resolver.getTpuSystemMetadata());
  EXPECT_EQ(metadata.numCores, 32);
  EXPECT_EQ(metadata.numHosts, 4);
  EXPECT_EQ(metadata.numOfCoresPerHost, 8);
  EXPECT_FALSE(metadata.topology.has_value());
  ASSERT_EQ(metadata.devices.size(), 4u * 10);
  EXPECT_EQ(metadata.devices[0], "/job:tpu_worker/replica:0/task:0/device:CPU:0");
  EXPECT_EQ(metadata.devices[1], "/job:tpu_worker/replica:0/task:0/device:TPU:0");
  EXPECT_EQ(metadata.devices[39],
            "/job:tpu_worker/replica:0/task:3/device:TPU_SYSTEM:0");

  TPUClusterResolver local =
      valueOrFail(TPUClusterResolver::create("local", withEnv({})));
  TPUSystemMetadata localMetadata = valueOrFail(local.getTpuSystemMetadata());
  EXPECT_EQ(localMetadata.devices[2],
            "/job:localhost/replica:0/task:0/device:TPU:1");
}

} // namespace
} // namespace torus::rt
