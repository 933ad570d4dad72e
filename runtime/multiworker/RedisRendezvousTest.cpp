//===- RedisRendezvousTest.cpp - Workers meeting through a Redis server ---===//
//
// Worker processes (forked) that meet through a private redis-server
// (RedisServer.h) instead of a directory: they connect and all-reduce, two
// jobs share one server without colliding, and an unreachable server, a
// missing worker and a killed worker each end in an error naming them.
//
//===----------------------------------------------------------------------===//

#include "runtime/multiworker/RedisServer.h"
#include "runtime/multiworker/RedisStore.h"
#include "runtime/multiworker/WorkerGroup.h"
#include "runtime/multiworker/ForkedWorkers.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fmt/format.h>

#include <csignal>

namespace torus::rt {
namespace {

using ::testing::HasSubstr;
using testing::RedisServer;
using testing::runForkedWorkers;

WorkerGroupOptions optionsFor(const std::string &url, const std::string &job,
                              int rank, int size) {
  WorkerGroupOptions o;
  o.rank = rank;
  o.size = size;
  o.rendezvousAddress = url;
  o.prefix = job;
  o.connectTimeout = absl::Seconds(30);
  o.timeout = absl::Seconds(20);
  return o;
}

std::string statusText(const absl::Status &s) {
  return s.ok() ? std::string() : std::string(s.ToString());
}

TEST(RedisRendezvousTest, ParsesAddresses) {
  auto a = parseRedisAddress("redis://10.0.0.7:6380");
  ASSERT_TRUE(a.ok()) << a.status();
  EXPECT_EQ(a->host, "10.0.0.7");
  EXPECT_EQ(a->port, 6380);
  auto b = parseRedisAddress("redis://redis.example");
  ASSERT_TRUE(b.ok()) << b.status();
  EXPECT_EQ(b->port, 6379);
  auto c = parseRedisAddress("redis://[::1]:7000");
  ASSERT_TRUE(c.ok()) << c.status();
  EXPECT_EQ(c->host, "::1");
  EXPECT_EQ(c->port, 7000);
  EXPECT_EQ(parseRedisAddress("redis://:7000").status().message(),
            "rendezvous address 'redis://:7000' names no host "
            "(redis://host:port)");
  EXPECT_EQ(parseRedisAddress("redis://h:x").status().message(),
            "rendezvous address 'redis://h:x': port 'x' is not a number in "
            "1..65535");
}

TEST(RedisRendezvousTest, StoreSetsGetsAndWaitsWithATimeout) {
  RedisServer server;
  ASSERT_EQ(server.error(), "");
  auto store = RedisStore::connect({"127.0.0.1", server.port()}, "t/",
                                   absl::Seconds(5));
  ASSERT_TRUE(store.ok()) << store.status();
  (*store)->set("k", {'a', '\0', 'b'});
  EXPECT_EQ((*store)->get("k"), (std::vector<char>{'a', '\0', 'b'}));
  auto missing = (*store)->read("nothing");
  ASSERT_TRUE(missing.ok()) << missing.status();
  EXPECT_FALSE(missing->has_value());
  try {
    (*store)->wait({"k", "never"}, std::chrono::milliseconds(200));
    ADD_FAILURE() << "waiting for a key nobody sets returned";
  } catch (const std::exception &e) {
    EXPECT_THAT(e.what(), HasSubstr("Timed out after 200 ms waiting for key "
                                    "'t/never' on the rendezvous server " +
                                    server.url()));
  }
}

TEST(RedisRendezvousTest, KeysExpireAWeekAfterTheyAreWritten) {
  // Nothing a job writes stays on a shared server for good: through the
  // store (the records) and through Gloo's Store interface (the mesh).
  RedisServer server;
  ASSERT_EQ(server.error(), "");
  auto store = RedisStore::connect({"127.0.0.1", server.port()}, "ttl/",
                                   absl::Seconds(5));
  ASSERT_TRUE(store.ok()) << store.status();
  ASSERT_TRUE((*store)->put("record/alive-0", "123 host").ok());
  (*store)->set("gloo/0", {'x'});
  for (const char *key : {"record/alive-0", "gloo/0"}) {
    auto ttl = (*store)->timeToLive(key);
    ASSERT_TRUE(ttl.ok()) << ttl.status();
    ASSERT_TRUE(ttl->has_value()) << key << " never expires";
    EXPECT_LE(**ttl, RedisStore::kKeyLifetime) << key;
    EXPECT_GT(**ttl, RedisStore::kKeyLifetime - absl::Minutes(1)) << key;
  }
  auto none = (*store)->timeToLive("nothing");
  ASSERT_TRUE(none.ok()) << none.status();
  EXPECT_FALSE(none->has_value());
}

TEST(RedisRendezvousTest, WorkersMeetThroughRedisAndTwoJobsDoNotCollide) {
  RedisServer server;
  ASSERT_EQ(server.error(), "");
  // Two jobs of two workers each on one server, at the same time.
  auto outcomes = runForkedWorkers(4, [&](int p) -> std::string {
    const int job = p / 2, rank = p % 2;
    auto group = WorkerGroup::connect(
        optionsFor(server.url(), fmt::format("job{}", job), rank, 2));
    if (!group.ok())
      return statusText(group.status());
    std::vector<int32_t> x(1000);
    for (size_t i = 0; i < x.size(); ++i)
      x[i] = (job + 1) * 100 * (rank + 1) + static_cast<int32_t>(i);
    if (auto s = (*group)->allReduce(x.data(), DType::I32, x.size(),
                                     ReduceKind::Sum);
        !s.ok())
      return statusText(s);
    for (size_t i = 0; i < x.size(); ++i) {
      const int32_t want = (job + 1) * 300 + 2 * static_cast<int32_t>(i);
      if (x[i] != want)
        return fmt::format("job {}: element {} is {}, want {}", job, i, x[i],
                           want);
    }
    return "";
  });
  for (int p = 0; p < 4; ++p)
    EXPECT_EQ(outcomes[p].result, "") << "process " << p;
  // A job id is used once: a second launch under it is refused.
  auto again = WorkerGroup::connect(optionsFor(server.url(), "job0", 0, 2));
  EXPECT_EQ(again.status().code(), absl::StatusCode::kFailedPrecondition);
  EXPECT_THAT(again.status().message(),
              HasSubstr("rendezvous " + server.url() +
                        " (keys 'torus/job0/*') already has a record of "
                        "worker 0"));
}

TEST(RedisRendezvousTest, UnreachableServerIsNamed) {
  // A port where nothing listens.
  const int port = testing::freeLoopbackPort();
  const std::string url = fmt::format("redis://127.0.0.1:{}", port);
  WorkerGroupOptions o = optionsFor(url, "job", 0, 2);
  o.connectTimeout = absl::Seconds(2);
  auto group = WorkerGroup::connect(o);
  ASSERT_FALSE(group.ok());
  EXPECT_EQ(group.status().code(), absl::StatusCode::kUnavailable);
  EXPECT_THAT(group.status().message(),
              HasSubstr("cannot reach the rendezvous server " + url +
                        " (within 2s)"));
}

TEST(RedisRendezvousTest, MissingWorkerTimesOutNamingIt) {
  RedisServer server;
  ASSERT_EQ(server.error(), "");
  WorkerGroupOptions o = optionsFor(server.url(), "job", 0, 3);
  o.names = {"chief 0", "worker 0", "worker 1"};
  o.connectTimeout = absl::Milliseconds(500);
  auto group = WorkerGroup::connect(o);
  ASSERT_FALSE(group.ok());
  EXPECT_EQ(group.status().code(), absl::StatusCode::kDeadlineExceeded);
  EXPECT_THAT(group.status().message(),
              HasSubstr("chief 0: worker 0 and worker 1 did not join the job "
                        "within 500ms (rendezvous " +
                        server.url() + " (keys 'torus/job/*'))"));
}

TEST(RedisRendezvousTest, KilledWorkerIsNamedByTheOthers) {
  RedisServer server;
  ASSERT_EQ(server.error(), "");
  const int n = 3;
  auto outcomes = runForkedWorkers(n, [&](int rank) -> std::string {
    WorkerGroupOptions o = optionsFor(server.url(), "job", rank, n);
    o.names = {"chief 0", "worker 0", "worker 1"};
    o.timeout = absl::Seconds(10);
    auto group = WorkerGroup::connect(o);
    if (!group.ok())
      return statusText(group.status());
    std::vector<float> x(1 << 16, 1.f);
    for (int step = 0;; ++step) {
      if (rank == 1 && step == 3)
        raise(SIGKILL);
      absl::Status s =
          (*group)->allReduce(x.data(), DType::F32, x.size(), ReduceKind::Sum);
      if (!s.ok())
        return statusText(s);
      if (step > 1000)
        return "never failed";
    }
  });
  EXPECT_EQ(outcomes[1].result, "killed");
  for (int r : {0, 2})
    EXPECT_THAT(outcomes[r].result, HasSubstr("worker 0 is down"))
        << "rank " << r;
}

} // namespace
} // namespace torus::rt
