//===- ClusterResolverTest.cpp - TF_CONFIG and in-code cluster specs ------===//
//
// tfconfig_cluster_resolver_test.py's cases (spec §6.1) and
// SimpleClusterResolver.
//
//===----------------------------------------------------------------------===//

#include "torus/distribute/ClusterResolver.h"
#include "torus/distribute/SimpleClusterResolver.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>

namespace torus::distribute {
namespace {

using ::testing::HasSubstr;

/// Sets TF_CONFIG for one test and restores it after.
class TFConfigTest : public ::testing::Test {
protected:
  void SetUp() override {
    if (const char *old = std::getenv("TF_CONFIG"))
      saved_ = old;
  }
  void TearDown() override {
    if (saved_)
      setenv("TF_CONFIG", saved_->c_str(), 1);
    else
      unsetenv("TF_CONFIG");
  }
  static void set(const std::string &json) {
    setenv("TF_CONFIG", json.c_str(), 1);
  }
  std::optional<std::string> saved_;
};

const char *const kCluster =
    R"("cluster": {"ps": ["ps0:2222", "ps1:2222"],
                   "worker": ["worker0:2222", "worker1:2222", "worker2:2222"]})";

std::string config(const std::string &rest) {
  return std::string("{") + kCluster + (rest.empty() ? "" : ", " + rest) + "}";
}

TEST_F(TFConfigTest, NormalClusterSpecRead) {
  set(config(R"("task": {"type": "ps", "index": 0})"));
  TFConfigClusterResolver resolver;
  auto spec = resolver.clusterSpec();
  ASSERT_TRUE(spec.ok()) << spec.status();
  EXPECT_EQ(*spec, (ClusterSpec{{"ps", {"ps0:2222", "ps1:2222"}},
                                {"worker",
                                 {"worker0:2222", "worker1:2222",
                                  "worker2:2222"}}}));
}

TEST_F(TFConfigTest, AutomaticMasterRead) {
  set(config(R"("task": {"type": "ps", "index": 0})"));
  EXPECT_EQ(*TFConfigClusterResolver().master(), "ps0:2222");
}

TEST_F(TFConfigTest, SpecifiedTaskTypeAndIndexMasterRead) {
  set(config(R"("task": {"type": "ps", "index": 0})"));
  EXPECT_EQ(*TFConfigClusterResolver().master("worker", 1), "worker1:2222");
}

TEST_F(TFConfigTest, SessionMasterRead) {
  set(config(R"("session_master": "sessionmaster:2222",
                "task": {"type": "ps", "index": 0})"));
  EXPECT_EQ(*TFConfigClusterResolver().master(), "sessionmaster:2222");
}

TEST_F(TFConfigTest, RpcLayerRead) {
  set(config(R"("rpc_layer": "grpc", "task": {"type": "ps", "index": 0})"));
  EXPECT_EQ(*TFConfigClusterResolver().master(), "grpc://ps0:2222");
}

TEST_F(TFConfigTest, TaskTypeIndexRpcRead) {
  set(config(R"("rpc_layer": "grpc", "task": {"type": "ps", "index": 0})"));
  TFConfigClusterResolver resolver;
  EXPECT_EQ(resolver.taskType(), "ps");
  EXPECT_EQ(resolver.taskId(), 0);
  EXPECT_EQ(resolver.rpcLayer(), "grpc");
}

TEST_F(TFConfigTest, ParameterOverrides) {
  set(config(R"("rpc_layer": "grpc", "task": {"type": "worker", "index": 1})"));
  TFConfigClusterResolver resolver("ps", 0);
  EXPECT_EQ(*resolver.master(), "grpc://ps0:2222");
  EXPECT_EQ(resolver.taskType(), "ps");
  EXPECT_EQ(resolver.taskId(), 0);
  resolver.setTaskType("worker");
  resolver.setTaskId(1);
  resolver.setRpcLayer("test");
  EXPECT_EQ(*resolver.master(), "test://worker1:2222");
  EXPECT_EQ(resolver.taskType(), "worker");
  EXPECT_EQ(resolver.taskId(), 1);
  EXPECT_EQ(resolver.rpcLayer(), "test");
}

TEST_F(TFConfigTest, TaskTypeCastToString) {
  set(R"({"cluster": {"123456": ["ps0:2222", "ps1:2222"],
                      "worker": ["worker0:2222"]},
          "task": {"type": 123456, "index": 0}})");
  EXPECT_EQ(TFConfigClusterResolver().taskType(), "123456");
}

TEST_F(TFConfigTest, TaskIndexCastToInteger) {
  set(config(R"("task": {"type": "ps", "index": "1"})"));
  TFConfigClusterResolver resolver;
  EXPECT_EQ(resolver.taskId(), 1);
  EXPECT_EQ(*resolver.master(), "ps1:2222");
}

TEST_F(TFConfigTest, TaskIndexOverride) {
  set(config(R"("task": {"type": "worker", "index": "0"})"));
  EXPECT_EQ(TFConfigClusterResolver(std::nullopt, 1).taskId(), 1);
}

TEST_F(TFConfigTest, ZeroItemsInClusterSpecMasterRead) {
  set("{}");
  EXPECT_EQ(*TFConfigClusterResolver().master(), "");
  unsetenv("TF_CONFIG");
  TFConfigClusterResolver resolver;
  EXPECT_EQ(*resolver.master(), "");
  EXPECT_TRUE(resolver.clusterSpec()->empty());
  EXPECT_EQ(resolver.taskType(), std::nullopt);
  EXPECT_EQ(resolver.taskId(), std::nullopt);
  EXPECT_EQ(resolver.rpcLayer(), std::nullopt);
}

TEST_F(TFConfigTest, OneItemInClusterSpecMasterRead) {
  set(R"({"cluster": {"worker": ["worker0:2222"]}})");
  EXPECT_EQ(*TFConfigClusterResolver().master(), "");
}

TEST_F(TFConfigTest, ReadsTfConfigOnEveryAccess) {
  TFConfigClusterResolver resolver;
  set(config(R"("task": {"type": "ps", "index": 0})"));
  EXPECT_EQ(*resolver.master(), "ps0:2222");
  set(config(R"("task": {"type": "worker", "index": 2})"));
  EXPECT_EQ(resolver.taskType(), "worker");
  EXPECT_EQ(resolver.taskId(), 2);
  EXPECT_EQ(*resolver.master(), "worker2:2222");
}

TEST_F(TFConfigTest, SparseJobsKeepTheirTaskIds) {
  set(R"({"cluster": {"chief": ["c:1"], "worker": {"1": "w1:1", "3": "w3:1"}},
          "task": {"type": "worker", "index": 3}})");
  TFConfigClusterResolver resolver;
  auto spec = resolver.clusterSpec();
  ASSERT_TRUE(spec.ok()) << spec.status();
  EXPECT_EQ(spec->at("worker"),
            (std::vector<std::string>{"", "w1:1", "", "w3:1"}));
  EXPECT_EQ(*resolver.master(), "w3:1");
  EXPECT_EQ(resolver.master("worker", 0).status().message(),
            "No task with index 0 in job 'worker'");
}

TEST_F(TFConfigTest, MasterOfUnknownJobOrTask) {
  set(config(R"("task": {"type": "chief", "index": 0})"));
  TFConfigClusterResolver resolver;
  EXPECT_EQ(resolver.master().status().message(),
            "No such job in cluster: 'chief'");
  EXPECT_EQ(resolver.master("worker", 3).status().message(),
            "No task with index 3 in job 'worker'");
  set(std::string("{") + kCluster + "}"); // no task
  EXPECT_EQ(TFConfigClusterResolver().master().status().message(),
            "No such job in cluster: None");
  EXPECT_EQ(TFConfigClusterResolver().master("ps").status().message(),
            "No task with index None in job 'ps'");
}

TEST_F(TFConfigTest, DeeplyNestedTfConfigIsAnErrorNotACrash) {
  // 40,000 levels overflowed the stack of llvm::json's recursive parser.
  set("{\"cluster\": " + std::string(40000, '[') + std::string(40000, ']') +
      "}");
  TFConfigClusterResolver resolver;
  auto spec = resolver.clusterSpec();
  ASSERT_FALSE(spec.ok());
  EXPECT_EQ(spec.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_EQ(spec.status().message(),
            "TF_CONFIG is not valid JSON: at 1:76: nested too deeply (more "
            "than 64 levels)");
  EXPECT_EQ(resolver.taskType(), std::nullopt);
}

TEST_F(TFConfigTest, MalformedTfConfigIsAnError) {
  set("{not json");
  TFConfigClusterResolver resolver;
  EXPECT_THAT(resolver.clusterSpec().status().message(),
              HasSubstr("TF_CONFIG is not valid JSON"));
  EXPECT_EQ(resolver.taskType(), std::nullopt);
  set(R"({"cluster": {"worker": "w0:1"}})");
  EXPECT_EQ(resolver.clusterSpec().status().message(),
            "TF_CONFIG: job 'worker' must be a list of addresses or an "
            "object of task id to address, got \"w0:1\"");
  set(R"({"cluster": {"worker": ["w0:1", 7]}})");
  EXPECT_EQ(resolver.clusterSpec().status().message(),
            "TF_CONFIG: the address of task 1 of job 'worker' must be a "
            "non-empty string, got 7");
  set(R"({"cluster": {"worker": {"x": "w0:1"}}})");
  EXPECT_EQ(resolver.clusterSpec().status().message(),
            "TF_CONFIG: job 'worker' has a task id 'x' that is not a "
            "non-negative integer");
  set(R"({"task": {"type": "worker", "index": "one"}})");
  EXPECT_EQ(resolver.taskIdOrError().status().message(),
            "TF_CONFIG task.index: invalid literal for int() with base 10: "
            "'one'");
  EXPECT_EQ(resolver.taskId(), std::nullopt);
  // A task index is a non-negative int: never wrapped (2^63 used to be
  // task -2147483648) nor truncated (0.5 used to be task 0).
  for (auto [index, written] :
       std::vector<std::pair<std::string, std::string>>{
           {"9223372036854775808", "9223372036854775808"},
           {"9223372036854775807", "9223372036854775807"},
           {"2147483648", "2147483648"},
           {"0.5", "0.5"},
           {"-1", "-1"},
           {"1e300", "1e+300"},
           // No double holds it (the JSON fuzzer's input): infinity.
           {"1e999", ""},
           {"\"-3\"", "'-3'"},
           {"\"99999999999\"", ""}}) {
    set(R"({"task": {"type": "worker", "index": )" + index + "}}");
    auto id = resolver.taskIdOrError();
    ASSERT_FALSE(id.ok()) << index;
    EXPECT_EQ(id.status().code(), absl::StatusCode::kInvalidArgument) << index;
    EXPECT_THAT(std::string(id.status().message()),
                HasSubstr("TF_CONFIG task.index")) << index;
    if (!written.empty())
      EXPECT_THAT(std::string(id.status().message()),
                  HasSubstr("must be a non-negative integer of at most "
                            "2147483647, got " + written))
          << index;
  }
  set(R"({"task": {"type": "worker", "index": 2.0}})");
  EXPECT_EQ(resolver.taskIdOrError().value(), std::optional<int>(2));
  set(R"({"task": {"type": "worker", "index": 2147483647}})");
  EXPECT_EQ(resolver.taskIdOrError().value(), std::optional<int>(2147483647));
  set(R"({"cluster": ["w0:1"]})");
  EXPECT_EQ(resolver.clusterSpec().status().message(),
            "TF_CONFIG's \"cluster\" must map job names to their tasks, got "
            "[\"w0:1\"]");
}

TEST(SimpleClusterResolverTest, GivenInCode) {
  ClusterSpec spec{{"chief", {"c0:2222"}},
                   {"worker", {"w0:2222", "w1:2222"}}};
  SimpleClusterResolver resolver(spec, {.master = "c0:2222",
                                        .taskType = "worker",
                                        .taskId = 1,
                                        .environment = "google",
                                        .numAccelerators = {{"GPU", 2}},
                                        .rpcLayer = "grpc"});
  EXPECT_EQ(*resolver.clusterSpec(), spec);
  EXPECT_EQ(resolver.taskType(), "worker");
  EXPECT_EQ(resolver.taskId(), 1);
  EXPECT_EQ(resolver.environment(), "google");
  EXPECT_EQ(resolver.numAccelerators()->at("GPU"), 2);
  EXPECT_EQ(*resolver.master(), "grpc://c0:2222");
  EXPECT_EQ(*resolver.master("worker", 0), "grpc://w0:2222");
  EXPECT_EQ(*resolver.master("worker", 0, "ipc"), "ipc://w0:2222");
  EXPECT_EQ(resolver.master("ps", 0).status().message(),
            "No such job in cluster: 'ps'");
  resolver.setRpcLayer(std::nullopt);
  EXPECT_EQ(*resolver.master(), "c0:2222");
  resolver.setTaskId(0);
  EXPECT_EQ(resolver.taskId(), 0);
}

} // namespace
} // namespace torus::distribute
