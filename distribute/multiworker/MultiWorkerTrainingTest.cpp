//===- MultiWorkerTrainingTest.cpp - MWMS across worker processes ---------===//
//
// Starts torus-mlp-worker processes on loopback, one per task of a
// generated TF_CONFIG (a chief and workers, several emulated devices each),
// and checks that
//   - 2 and 4 workers train the MLP to the weights of one process with the
//     same number of replicas (1e-5 relative);
//   - killing a worker mid-training makes every other one exit with an
//     error naming it, within the collective timeout; restarting the job
//     resumes from the chief's last checkpoint and ends with the weights of
//     an uninterrupted run;
//   - a worker whose peers never start gives up after the connect timeout,
//     naming them.
// Every wait is bounded: a worker still running at its deadline is killed
// and the test fails.
//
//===----------------------------------------------------------------------===//

#include "runtime/multiworker/RedisServer.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace {

namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using ::testing::HasSubstr;

constexpr int kSteps = 20;

struct Process {
  pid_t pid = -1;
  int outFd = -1, errFd = -1;
  std::string out, err;
  bool done = false;
  int exitCode = -1; // -1: killed by a signal
  Clock::time_point finished;
};

/// Starts `argv` with `extraEnv` added to this process's environment,
/// capturing stdout and stderr.
Process spawn(const std::vector<std::string> &argv,
              const std::vector<std::string> &extraEnv) {
  int out[2], err[2];
  if (pipe(out) != 0 || pipe(err) != 0)
    std::abort();
  std::vector<std::string> env;
  for (char **e = environ; *e; ++e) {
    std::string entry = *e;
    bool overridden = false;
    for (const std::string &x : extraEnv)
      if (entry.compare(0, x.find('=') + 1, x, 0, x.find('=') + 1) == 0)
        overridden = true;
    if (!overridden)
      env.push_back(entry);
  }
  env.insert(env.end(), extraEnv.begin(), extraEnv.end());
  std::vector<char *> cargv, cenv;
  for (const std::string &a : argv)
    cargv.push_back(const_cast<char *>(a.c_str()));
  cargv.push_back(nullptr);
  for (const std::string &e : env)
    cenv.push_back(const_cast<char *>(e.c_str()));
  cenv.push_back(nullptr);
  pid_t pid = fork();
  if (pid == 0) {
    dup2(out[1], 1);
    dup2(err[1], 2);
    close(out[0]);
    close(err[0]);
    close(out[1]);
    close(err[1]);
    execve(cargv[0], cargv.data(), cenv.data());
    _exit(127);
  }
  close(out[1]);
  close(err[1]);
  fcntl(out[0], F_SETFL, O_NONBLOCK);
  fcntl(err[0], F_SETFL, O_NONBLOCK);
  Process p;
  p.pid = pid;
  p.outFd = out[0];
  p.errFd = err[0];
  return p;
}

void drain(int fd, std::string &into) {
  char buffer[4096];
  ssize_t got;
  while ((got = read(fd, buffer, sizeof(buffer))) > 0)
    into.append(buffer, static_cast<size_t>(got));
}

/// Polls the processes until all exited or `limit` passed (then kills the
/// rest: their exit code stays -1 and "hung" is appended to err).
/// `onPoll` runs after every poll (e.g. to kill a worker at some step).
void waitAll(std::vector<Process> &ps, std::chrono::seconds limit,
             const std::function<void(std::vector<Process> &)> &onPoll = {}) {
  const auto deadline = Clock::now() + limit;
  while (true) {
    bool all = true;
    for (Process &p : ps) {
      if (p.done)
        continue;
      drain(p.outFd, p.out);
      drain(p.errFd, p.err);
      int status = 0;
      if (waitpid(p.pid, &status, WNOHANG) == p.pid) {
        drain(p.outFd, p.out);
        drain(p.errFd, p.err);
        close(p.outFd);
        close(p.errFd);
        p.done = true;
        p.finished = Clock::now();
        p.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
      } else {
        all = false;
      }
    }
    if (all)
      return;
    if (onPoll)
      onPoll(ps);
    if (Clock::now() > deadline) {
      for (Process &p : ps)
        if (!p.done) {
          kill(p.pid, SIGKILL);
          waitpid(p.pid, nullptr, 0);
          close(p.outFd);
          close(p.errFd);
          p.done = true;
          p.finished = Clock::now();
          p.err += "\n[hung: killed by the test]";
        }
      return;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
}

std::string workerBinary() { return TORUS_MLP_WORKER; }

/// TF_CONFIG for task `index` of a chief + (n - 1) workers on loopback. The
/// ports are only names here: Gloo listens on ports it picks.
std::string tfConfig(int n, int index) {
  std::string workers;
  for (int i = 1; i < n; ++i)
    workers += (i > 1 ? ", " : "") + std::string("\"127.0.0.1:") +
               std::to_string(23000 + i) + "\"";
  std::string task = index == 0 ? R"({"type": "chief", "index": 0})"
                                : R"({"type": "worker", "index": )" +
                                      std::to_string(index - 1) + "}";
  return R"({"cluster": {"chief": ["127.0.0.1:23000"], "worker": [)" +
         workers + "]}, \"task\": " + task + "}";
}

class MultiWorkerTrainingTest : public ::testing::Test {
protected:
  void SetUp() override {
    std::string pattern =
        (fs::temp_directory_path() / "torus-mw-XXXXXX").string();
    std::vector<char> buffer(pattern.begin(), pattern.end());
    buffer.push_back('\0');
    ASSERT_NE(mkdtemp(buffer.data()), nullptr);
    dir_ = buffer.data();
  }
  void TearDown() override {
    std::error_code ec;
    if (!HasFailure())
      fs::remove_all(dir_, ec);
    else
      std::fprintf(stderr, "kept %s\n", dir_.c_str());
  }

  /// Starts `n` workers (task 0 the chief) of job `jobId`, each writing its
  /// weights to <dir>/<jobId>-<task>.bin.
  std::vector<Process> startJob(int n, int devices, const std::string &jobId,
                                const std::vector<std::string> &args = {},
                                int only = -1) {
    std::vector<Process> ps;
    for (int i = 0; i < n; ++i) {
      if (only >= 0 && i != only)
        continue;
      std::vector<std::string> argv = {
          workerBinary(), "--devices=" + std::to_string(devices),
          "--steps=" + std::to_string(kSteps),
          "--out=" + weightsPath(jobId, i)};
      argv.insert(argv.end(), args.begin(), args.end());
      ps.push_back(spawn(argv, {"TF_CONFIG=" + tfConfig(n, i),
                                rendezvousEnv_.empty()
                                    ? "TORUS_RENDEZVOUS_DIR=" + dir_ +
                                          "/rendezvous"
                                    : rendezvousEnv_,
                                "TORUS_JOB_ID=" + jobId}));
    }
    return ps;
  }

  /// The single-process run with `replicas` devices.
  std::vector<float> reference(int replicas) {
    std::string path = dir_ + "/reference.bin";
    std::vector<Process> ps = {
        spawn({workerBinary(), "--devices=" + std::to_string(replicas),
               "--steps=" + std::to_string(kSteps), "--out=" + path},
              {"TF_CONFIG="})};
    waitAll(ps, std::chrono::seconds(120));
    EXPECT_EQ(ps[0].exitCode, 0) << ps[0].err;
    return readWeights(path);
  }

  std::string weightsPath(const std::string &jobId, int task) const {
    return dir_ + "/" + jobId + "-" + std::to_string(task) + ".bin";
  }

  static std::vector<float> readWeights(const std::string &path) {
    std::ifstream in(path, std::ios::binary);
    std::vector<char> bytes((std::istreambuf_iterator<char>(in)),
                            std::istreambuf_iterator<char>());
    std::vector<float> out(bytes.size() / sizeof(float));
    std::memcpy(out.data(), bytes.data(), out.size() * sizeof(float));
    return out;
  }

  /// max |got - want| / max |want|: no single weight may be off.
  static double relativeError(const std::vector<float> &got,
                              const std::vector<float> &want) {
    double diff = 0, scale = 0;
    for (size_t i = 0; i < want.size(); ++i) {
      diff = std::max(diff, std::abs(double(got[i]) - double(want[i])));
      scale = std::max(scale, std::abs(double(want[i])));
    }
    return diff / scale;
  }

  void trainAndCompare(int workers, int devices) {
    std::vector<float> want = reference(workers * devices);
    ASSERT_FALSE(want.empty());
    std::vector<Process> ps = startJob(workers, devices, "job");
    waitAll(ps, std::chrono::seconds(120));
    for (int i = 0; i < workers; ++i) {
      ASSERT_EQ(ps[i].exitCode, 0) << "task " << i << ":\n" << ps[i].err;
      EXPECT_THAT(ps[i].err,
                  HasSubstr(std::to_string(workers * devices) +
                            " replicas in sync"));
      std::vector<float> got = readWeights(weightsPath("job", i));
      ASSERT_EQ(got.size(), want.size()) << "task " << i;
      EXPECT_LE(relativeError(got, want), 1e-5) << "task " << i;
      // Every worker holds the same weights, bit for bit.
      if (i > 0)
        EXPECT_EQ(got, readWeights(weightsPath("job", 0))) << "task " << i;
    }
  }

  std::string dir_;
  /// The workers' rendezvous variable; empty: a directory under dir_.
  std::string rendezvousEnv_;
};

TEST_F(MultiWorkerTrainingTest, TwoWorkersEqualOneProcess) {
  trainAndCompare(/*workers=*/2, /*devices=*/2);
}

TEST_F(MultiWorkerTrainingTest, WorkersMeetThroughRedis) {
  torus::rt::testing::RedisServer server;
  ASSERT_EQ(server.error(), "");
  rendezvousEnv_ = "TORUS_RENDEZVOUS=" + server.url();
  trainAndCompare(/*workers=*/2, /*devices=*/4);
}

TEST_F(MultiWorkerTrainingTest, FourWorkersEqualOneProcess) {
  trainAndCompare(/*workers=*/4, /*devices=*/2);
}

TEST_F(MultiWorkerTrainingTest, KilledWorkerFailsTheOthersAndRestartResumes) {
  // 4 x 2 replicas split the global batch of 64 evenly.
  const int n = 4, devices = 2, victim = 2; // task 2 is "worker 1"
  const std::string ckpt = dir_ + "/ckpt";
  fs::create_directories(ckpt);
  const std::vector<std::string> args = {"--timeout=10",
                                         "--checkpoint-dir=" + ckpt,
                                         "--checkpoint-every=5"};
  // Uninterrupted (no checkpoints), for the final comparison.
  std::vector<Process> clean =
      startJob(n, devices, "clean", {"--timeout=10"});
  waitAll(clean, std::chrono::seconds(120));
  for (int i = 0; i < n; ++i)
    ASSERT_EQ(clean[i].exitCode, 0) << "task " << i << ":\n" << clean[i].err;

  // Kill worker 1 once it reports step 8 (the chief has saved step 5).
  std::vector<Process> ps = startJob(n, devices, "first", args);
  std::optional<Clock::time_point> killedAt;
  waitAll(ps, std::chrono::seconds(120), [&](std::vector<Process> &ps) {
    if (!killedAt && ps[victim].out.find("step 8 ") != std::string::npos) {
      kill(ps[victim].pid, SIGKILL);
      killedAt = Clock::now();
    }
  });
  ASSERT_TRUE(killedAt) << "worker 1 never reached step 8:\n"
                        << ps[victim].err;
  EXPECT_EQ(ps[victim].exitCode, -1);
  for (int i = 0; i < n; ++i) {
    if (i == victim)
      continue;
    EXPECT_EQ(ps[i].exitCode, 1) << "task " << i << ":\n" << ps[i].err;
    EXPECT_THAT(ps[i].err, HasSubstr("worker 1 is down")) << "task " << i;
    // Within the configured collective timeout (10 s), plus slack for a
    // loaded machine.
    EXPECT_LT(ps[i].finished - *killedAt, std::chrono::seconds(25))
        << "task " << i;
  }
  ASSERT_TRUE(fs::exists(ckpt + "/checkpoint"));

  // Restart every task (a new job id: a fresh rendezvous).
  std::vector<Process> again = startJob(n, devices, "second", args);
  waitAll(again, std::chrono::seconds(120));
  for (int i = 0; i < n; ++i) {
    ASSERT_EQ(again[i].exitCode, 0) << "task " << i << ":\n" << again[i].err;
    EXPECT_THAT(again[i].out, HasSubstr("restored ")) << "task " << i;
    EXPECT_THAT(again[i].out, ::testing::Not(HasSubstr("step 1 ")));
    std::vector<float> got = readWeights(weightsPath("second", i));
    std::vector<float> want = readWeights(weightsPath("clean", i));
    ASSERT_EQ(got.size(), want.size());
    EXPECT_LE(relativeError(got, want), 1e-5) << "task " << i;
  }
}

TEST_F(MultiWorkerTrainingTest, MissingWorkerTimesOutAtStartup) {
  // Only the chief of a 3-task job starts.
  setenv("TORUS_CONNECT_TIMEOUT", "2", 1);
  std::vector<Process> ps = startJob(3, 1, "alone", {}, /*only=*/0);
  unsetenv("TORUS_CONNECT_TIMEOUT");
  const auto start = Clock::now();
  waitAll(ps, std::chrono::seconds(60));
  EXPECT_EQ(ps[0].exitCode, 1) << ps[0].err;
  EXPECT_THAT(ps[0].err, HasSubstr("chief 0: worker 0 and worker 1 did not "
                                   "join the job within 2s"));
  EXPECT_LT(ps[0].finished - start, std::chrono::seconds(30));
}

} // namespace
