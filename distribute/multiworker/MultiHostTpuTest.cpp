//===- MultiHostTpuTest.cpp - TPUStrategy with one process per host -------===//
//
// A v4-32 slice (4 hosts of 4 chips) driven by 4 forked processes, each
// creating TPUStrategy with its host index (TPUClusterResolverOptions::
// hostIndex, Cloud TPU's $TPU_WORKER_ID) and meeting the others in a
// rendezvous directory. Checked against one process driving the whole
// slice (TensorFlow's single client):
//   - each host runs its 4 of the 16 replicas, with global replica ids; an
//     all-gather and an all-reduce inside the step cross the hosts, and
//     strategy.reduce sums every host's values;
//   - each host reads its input pipeline, and training a linear model on a
//     distributed dataset (mean-aggregated variable updates) ends with the
//     single process's losses and weights;
//   - TPUStrategyV1's on-device loop (steps_per_run 3) runs on every host;
//   - a host whose process died is named by the others within the
//     collective timeout; bad host indices and a missing rendezvous are
//     errors naming them.
//
//===----------------------------------------------------------------------===//

#include "distribute/TestUtil.h"
#include "runtime/multiworker/ForkedWorkers.h"
#include "torus/distribute/Distribute.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <sstream>

namespace torus::distribute {
namespace {

using ::testing::HasSubstr;
using namespace testing;

constexpr int kHosts = 4;
constexpr int kReplicasPerHost = 4;

/// The v4-32 resolver of host `host`, or of the whole slice (nullopt).
absl::StatusOr<std::shared_ptr<TPUClusterResolver>>
v4_32(std::optional<int> host) {
  TPUClusterResolverOptions o;
  o.acceleratorType = "v4-32";
  o.hostIndex = host;
  return TPUClusterResolver::create("", o);
}

/// Where the hosts of a test meet: a fresh directory and a job id.
MultiWorkerOptions rendezvous(const std::string &dir, const std::string &job) {
  MultiWorkerOptions mw;
  mw.rendezvousDirectory = dir;
  mw.jobId = job;
  return mw;
}

/// The strategy of host `host` (nullopt: one process, every host), meeting
/// the other hosts in `dir`.
absl::StatusOr<TPUStrategy> strategyOf(std::optional<int> host,
                                       const std::string &dir,
                                       const std::string &job) {
  TORUS_ASSIGN_OR_RETURN(auto resolver, v4_32(host));
  return TPUStrategy::create(resolver, std::nullopt, false,
                             rendezvous(dir, job));
}

/// Runs `fn` on every host's process (with the strategy `make(host, dir,
/// job)` gives) and, after them, on one process driving the whole slice
/// (`make(nullopt, ...)`); returns what each host's `fn` returned, then the
/// single process's.
template <typename Make, typename Fn>
std::vector<std::string> onHostsAndOneProcess(const std::string &job,
                                              Make make, Fn fn) {
  const std::string dir = rt::testing::makeTempDirectory("torus-tpu-" + job);
  auto outcomes = rt::testing::runForkedWorkers(
      kHosts,
      [&](int host) {
        auto s = make(host, dir, job);
        std::string out = s.ok() ? fn(*s) : s.status().ToString();
        // runForkedWorkers reports "" as success: keep output non-empty.
        return "out:" + out;
      },
      std::chrono::seconds(120));
  std::vector<std::string> results;
  for (const auto &o : outcomes)
    results.push_back(o.result.rfind("out:", 0) == 0 ? o.result.substr(4)
                                                     : "failed: " + o.result);
  auto one = make(std::nullopt, dir, job);
  results.push_back(one.ok() ? fn(*one) : one.status().ToString());
  return results;
}

std::vector<std::string>
onHostsAndOneProcess(const std::string &job,
                     const std::function<std::string(TPUStrategy &)> &fn) {
  return onHostsAndOneProcess(job, strategyOf, fn);
}

/// Whitespace-separated numbers of `text`; a word that is not one fails.
std::vector<double> numbers(const std::string &text) {
  std::istringstream in(text);
  std::vector<double> v;
  std::string word;
  while (in >> word) {
    char *end = nullptr;
    double x = std::strtod(word.c_str(), &end);
    EXPECT_EQ(*end, '\0') << "not a number: " << word << " in " << text;
    v.push_back(x);
  }
  return v;
}

std::string join(const std::vector<float> &v) {
  std::string s;
  for (float x : v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, " %.9g", x);
    s += buf;
  }
  return s;
}

TEST(MultiHostTpuTest, EachHostRunsItsReplicasOfOneSlice) {
  auto results = onHostsAndOneProcess("ids", [](TPUStrategy &s) {
    std::ostringstream out;
    out << s.numReplicasInSync() << " " << s.numHosts() << " "
        << s.numReplicasPerHost() << " |";
    for (const std::string &d : s.extended().workerDevices())
      out << " " << d;
    out << " |";
    // Replica ids, every replica's id gathered, their sum; then the ids
    // reduced across hosts by strategy.reduce.
    Function fn([](const std::vector<Tensor> &) {
      ReplicaContext ctx = *getReplicaContext();
      Tensor id = ctx.replicaIdInSyncGroup();
      Tensor asFloat = astype(reshape(id, {1}), DType::F32);
      return std::vector<Tensor>{id, ctx.allGather(asFloat, 0),
                                 ctx.allReduce(ReduceOp::Sum, asFloat)};
    });
    auto ran = s.run(fn);
    if (!ran.ok())
      return ran.status().ToString();
    for (const HostTensor &id : s.experimentalLocalResults((*ran)[0]))
      out << " " << ints(id)[0];
    out << " |" << join(floats(s.experimentalLocalResults((*ran)[1])[0]))
        << " |" << join(floats(s.experimentalLocalResults((*ran)[2])[0]))
        << " |";
    auto total = s.reduce(ReduceOp::Sum, (*ran)[0], std::nullopt);
    out << (total.ok() ? " " + std::to_string(ints(*total)[0])
                       : total.status().ToString());
    return out.str();
  });
  std::string gathered;
  for (int r = 0; r < 16; ++r)
    gathered += " " + std::to_string(r);
  for (int h = 0; h < kHosts; ++h) {
    std::string devices, ids;
    for (int c = 0; c < kReplicasPerHost; ++c) {
      devices += " /job:localhost/replica:0/task:" + std::to_string(h) +
                 "/device:TPU:" + std::to_string(c);
      ids += " " + std::to_string(h * kReplicasPerHost + c);
    }
    EXPECT_EQ(results[h], "16 4 4 |" + devices + " |" + ids + " |" +
                              gathered + " | 120 | 120")
        << "host " << h;
  }
  // The single process has all 16 replicas and the same collectives.
  EXPECT_THAT(results[kHosts], HasSubstr("|" + gathered + " | 120 | 120"));
}

/// Trains y = x . w on 64 rows, 4 steps of a global batch of 16 (one row
/// per replica), each replica's update averaged by the variable's MEAN
/// aggregation. Returns, per step, the loss summed over every replica,
/// then w, then each local replica's id and last loss.
std::string trainLinear(TPUStrategy &s) {
  std::vector<float> x(64 * 4), y(64);
  for (int i = 0; i < 64; ++i) {
    for (int j = 0; j < 4; ++j)
      x[i * 4 + j] = static_cast<float>((i * 7 + j * 3) % 11) / 8 - 0.5f;
    y[i] = 0.25f * x[i * 4] - 0.5f * x[i * 4 + 1] + x[i * 4 + 3] + 0.125f;
  }
  auto data = Dataset::fromTensorSlices({f32({64, 4}, x), f32({64, 1}, y)});
  if (!data.ok())
    return data.status().ToString();
  auto dist = s.experimentalDistributeDataset(data->batch(16, true));
  if (!dist.ok())
    return dist.status().ToString();
  auto scope = s.scope();
  if (!scope.ok())
    return scope.status().ToString();
  auto w = Variable::create(f32({4, 1}, {0, 0, 0, 0}),
                            {.name = "w",
                             .aggregation = VariableAggregation::Mean});
  if (!w.ok())
    return w.status().ToString();
  Function step([&](const std::vector<Tensor> &in) {
    Tensor err = matmul(in[0], w->read()) - in[1];
    w->assignSub(matmul(transpose(in[0]), err) * 0.2);
    return std::vector<Tensor>{getReplicaContext()->replicaIdInSyncGroup(),
                               sum(err * err)};
  });
  auto it = dist->makeIterator();
  if (!it.ok())
    return it.status().ToString();
  std::ostringstream out;
  std::vector<PerReplica> last;
  for (int k = 0; k < 4; ++k) {
    auto batch = it->next();
    if (!batch.ok())
      return batch.status().ToString();
    auto ran = s.run(step, *batch);
    if (!ran.ok())
      return ran.status().ToString();
    auto loss = s.reduce(ReduceOp::Sum, (*ran)[1], std::nullopt);
    if (!loss.ok())
      return loss.status().ToString();
    out << join(floats(*loss));
    last = *ran;
  }
  out << join(floats(s.experimentalLocalResults(*w)[0]));
  std::vector<HostTensor> ids = s.experimentalLocalResults(last[0]);
  std::vector<HostTensor> losses = s.experimentalLocalResults(last[1]);
  for (size_t r = 0; r < ids.size(); ++r)
    out << " " << ints(ids[r])[0] << join(floats(losses[r]));
  return out.str();
}

TEST(MultiHostTpuTest, TrainingOnHostsEqualsOneProcess) {
  auto results = onHostsAndOneProcess("train", trainLinear);
  const std::vector<double> one = numbers(results[kHosts]);
  // 4 losses, 4 weights, then 16 replicas' (id, loss).
  ASSERT_EQ(one.size(), 8u + 2 * 16) << results[kHosts];
  EXPECT_GT(one[0], one[3]) << "the loss falls: " << results[kHosts];
  for (int h = 0; h < kHosts; ++h) {
    SCOPED_TRACE("host " + std::to_string(h) + ": " + results[h]);
    const std::vector<double> got = numbers(results[h]);
    ASSERT_EQ(got.size(), 8u + 2 * kReplicasPerHost);
    // Every host sees the global losses and the same weights (the sums may
    // be added in another order across processes).
    for (int i = 0; i < 8; ++i)
      EXPECT_NEAR(got[i], one[i], 1e-5 * (1 + std::abs(one[i]))) << i;
    // Its replicas are the single process's 4h..4h+3, with their data.
    for (int r = 0; r < kReplicasPerHost; ++r) {
      const int global = h * kReplicasPerHost + r;
      EXPECT_EQ(got[8 + 2 * r], global);
      EXPECT_NEAR(got[9 + 2 * r], one[9 + 2 * global],
                  1e-5 * (1 + std::abs(one[9 + 2 * global])));
    }
  }
}

TEST(MultiHostTpuTest, StepsPerRunLoopOnEveryHost) {
  // TPUStrategyV1 with steps_per_run 3: each host's replicas loop 3 steps
  // on device, each step's element of the dataset fed per step; the
  // SUM-aggregated total and the summed last-step output span the hosts.
  auto v1 = [](std::optional<int> host, const std::string &dir,
               const std::string &job) -> absl::StatusOr<TPUStrategyV1> {
    TORUS_ASSIGN_OR_RETURN(auto resolver, v4_32(host));
    return TPUStrategyV1::create(resolver, 3, std::nullopt,
                                 rendezvous(dir, job));
  };
  auto results = onHostsAndOneProcess(std::string("loop"), v1, [](TPUStrategyV1 &s) {
    auto scope = s.scope();
    if (!scope.ok())
      return scope.status().ToString();
    auto total = Variable::create(
        f32(0.0f), {.name = "total", .aggregation = VariableAggregation::Sum});
    if (!total.ok())
      return total.status().ToString();
    auto ds = s.experimentalDistributeDataset(
        Dataset::range(96)
            .map([](const Element &e) -> absl::StatusOr<Element> {
              return Element{
                  f32(static_cast<float>(e[0].data<int64_t>()[0]))};
            })
            .batch(16, true));
    if (!ds.ok())
      return ds.status().ToString();
    auto it = ds->makeIterator();
    if (!it.ok())
      return it.status().ToString();
    auto ctx = s.experimentalRunStepsOnIterator(
        [&](StepContext &c, const std::vector<Tensor> &in) {
          total->assignAdd(sum(in[0]));
          c.setLastStepOutput("global_sum", sum(in[0]), ReduceOp::Sum);
          return std::vector<Tensor>{};
        },
        *it, 3);
    if (!ctx.ok())
      return ctx.status().ToString();
    return std::to_string(ctx->stepsRun) + join(floats(total->components()[0])) +
           join(floats(ctx->reducedOutputs.at("global_sum")));
  });
  // Elements 0..47 in all, 32..47 in the last step.
  for (int h = 0; h <= kHosts; ++h)
    EXPECT_EQ(results[h], "3 1128 632") << (h < kHosts ? "host " : "one ") << h;
}

TEST(MultiHostTpuTest, DeadHostIsNamedByTheOthers) {
  const std::string dir = rt::testing::makeTempDirectory("torus-tpu-dead");
  auto outcomes = rt::testing::runForkedWorkers(
      kHosts,
      [&](int host) -> std::string {
        setenv("TORUS_COLLECTIVE_TIMEOUT", "5", 1);
        auto s = strategyOf(host, dir, "dead");
        if (!s.ok())
          return s.status().ToString();
        if (host == 3)
          std::_Exit(0); // gone after meeting the others
        Function fn([](const std::vector<Tensor> &) {
          return std::vector<Tensor>{getReplicaContext()->allReduce(
              ReduceOp::Sum, scalar(1.0f))};
        });
        auto ran = s->run(fn);
        return ran.ok() ? "the step ran without host 3"
                        : ran.status().ToString();
      },
      std::chrono::seconds(90));
  for (int h = 0; h < 3; ++h)
    EXPECT_THAT(outcomes[h].result, HasSubstr("host 3")) << "host " << h;
}

TEST(MultiHostTpuTest, BadHostsAndNoRendezvousAreNamed) {
  auto outside = v4_32(4);
  ASSERT_FALSE(outside.ok());
  EXPECT_EQ(outside.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THAT(outside.status().message(),
              HasSubstr("hostIndex 4 names no host of slice v4-32, whose "
                        "hosts are 0..3"));
  // Endpoints must name every host.
  TPUClusterResolverOptions o;
  o.acceleratorType = "v4-32";
  o.hostIndex = 1;
  auto two = TPUClusterResolver::create("grpc://10.0.0.1,grpc://10.0.0.2", o);
  ASSERT_FALSE(two.ok());
  EXPECT_THAT(two.status().message(),
              HasSubstr("names 2 host endpoints, but slice v4-32 has 4 hosts"));
  // A one-host slice has nothing to meet: the index changes nothing.
  TPUClusterResolverOptions small;
  small.hostIndex = 0;
  TORUS_ASSERT_OK_AND_ASSIGN(auto v3, TPUClusterResolver::create("", small));
  TORUS_ASSERT_OK_AND_ASSIGN(TPUStrategy local, TPUStrategy::create(v3));
  EXPECT_EQ(local.numReplicasInSync(), 8);
  // Several hosts, no rendezvous.
  unsetenv("TORUS_RENDEZVOUS");
  unsetenv("TORUS_RENDEZVOUS_DIR");
  TORUS_ASSERT_OK_AND_ASSIGN(auto host0, v4_32(0));
  auto alone = TPUStrategy::create(host0);
  ASSERT_FALSE(alone.ok());
  EXPECT_THAT(alone.status().message(),
              HasSubstr("TPUStrategy over slice v4-32 (one process per host) "
                        "with 4 workers needs a rendezvous"));
}

} // namespace
} // namespace torus::distribute
