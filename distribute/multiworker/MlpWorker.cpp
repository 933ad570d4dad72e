//===- MlpWorker.cpp - One worker of a multi-worker MLP training job ------===//
//
// torus-mlp-worker: the process a multi-worker job runs once per task. It
// reads TF_CONFIG (and $TORUS_RENDEZVOUS_DIR, $TORUS_JOB_ID), creates a
// MultiWorkerMirroredStrategy over its emulated devices, trains the 3-layer
// MLP of distribute/nn/MlpTraining.h (momentum SGD, global batch 64) and
// writes the final weights. Without TF_CONFIG it is the single-process
// reference run.
//
//   torus-mlp-worker --devices=2 --steps=20 --out=weights.bin
//       [--timeout=S] [--checkpoint-dir=D --checkpoint-every=K]
//   torus-mlp-worker --tpu=v4-32 --steps=20 --out=weights.bin [--timeout=S]
//
// With --tpu=SLICE it trains with TPUStrategy on that emulated slice
// instead: one process per host when $TPU_WORKER_ID names this host (the
// hosts' addresses from $TPU_NAME's grpc:// endpoints, one per host, or
// loopback without it), else one process driving the whole slice. Only host
// 0 saves checkpoints.
//
// With a checkpoint directory it first restores the latest checkpoint there
// (and skips the steps it covers), and the chief saves one every K steps.
// Each step prints `step N loss L` (flushed); a failure prints `error: ...`
// on stderr and exits with 1.
//
// The weights file: for every trainable variable in order, its f32 values
// (replica 0's; the worker checks that every local replica agrees).
//
//===----------------------------------------------------------------------===//

#include "distribute/multiworker/WorkerFlags.h"
#include "distribute/nn/MlpTraining.h"
#include "torus/distribute/Checkpoint.h"
#include "torus/distribute/Distribute.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

using namespace torus;
using namespace torus::distribute;

namespace {

struct Args : WorkerFlags {
  int64_t devices = 2;
  /// --tpu: the emulated slice TPUStrategy trains on; empty: MWMS.
  std::string tpu;
};

absl::StatusOr<Args> parseArgs(int argc, char **argv) {
  Args a;
  TORUS_ASSIGN_OR_RETURN(std::vector<std::string> rest,
                         parseWorkerFlags(argc, argv, a));
  for (const std::string &arg : rest) {
    if (auto tpu = flagValue(arg, "tpu")) {
      a.tpu = std::string(*tpu);
      continue;
    }
    auto v = flagValue(arg, "devices");
    if (!v)
      return unknownArgument(arg);
    TORUS_ASSIGN_OR_RETURN(double d, positiveFlag(*v, "devices"));
    a.devices = static_cast<int64_t>(d);
  }
  return a;
}

/// The strategy of this task, and whether it saves checkpoints.
absl::StatusOr<std::pair<Strategy, bool>> makeStrategy(const Args &args) {
  if (!args.tpu.empty()) {
    if (args.timeout)
      setenv("TORUS_COLLECTIVE_TIMEOUT", std::to_string(*args.timeout).c_str(),
             1);
    TPUClusterResolverOptions o;
    o.acceleratorType = args.tpu;
    TORUS_ASSIGN_OR_RETURN(auto resolver,
                           TPUClusterResolver::create(std::nullopt, o));
    TORUS_ASSIGN_OR_RETURN(TPUStrategy strategy, TPUStrategy::create(resolver));
    const int host = resolver->hostIndex().value_or(0);
    std::fprintf(stderr, "host %d of %lld: %lld replicas in sync\n", host,
                 static_cast<long long>(strategy.numHosts()),
                 static_cast<long long>(strategy.numReplicasInSync()));
    return std::make_pair(Strategy(strategy), host == 0);
  }
  TORUS_ASSIGN_OR_RETURN(
      CommunicationOptions communication,
      CommunicationOptions::create(0, args.timeout,
                                   CommunicationImplementation::Ring));
  TORUS_ASSIGN_OR_RETURN(
      MultiWorkerMirroredStrategy strategy,
      MultiWorkerMirroredStrategy::create(nullptr, communication,
                                          args.devices));
  std::fprintf(stderr, "worker %lld of %lld: %lld replicas in sync\n",
               static_cast<long long>(strategy.workerId()),
               static_cast<long long>(strategy.numWorkers()),
               static_cast<long long>(strategy.numReplicasInSync()));
  return std::make_pair(Strategy(strategy),
                        strategy.extended().shouldCheckpoint());
}

absl::Status run(const Args &args) {
  TORUS_ASSIGN_OR_RETURN(auto made, makeStrategy(args));
  auto &[strategy, savesCheckpoints] = made;
  testing::MlpConfig config;
  TORUS_ASSIGN_OR_RETURN(
      auto trainer, testing::MlpTrainer::create(
                        strategy, config, std::make_shared<nn::SGD>(0.1, 0.9)));
  Checkpoint checkpoint(
      {{"model", &trainer->model()}, {"optimizer", &trainer->optimizer()}});
  int64_t done = 0;
  if (!args.checkpointDir.empty()) {
    auto latest = latestCheckpoint(args.checkpointDir);
    if (latest.ok()) {
      TORUS_ASSIGN_OR_RETURN(Scope scope, strategy.scope());
      TORUS_RETURN_IF_ERROR(checkpoint.restore(*latest));
      done = trainer->optimizer().iterations().components()[0]
                 .data<int64_t>()[0];
      std::printf("restored %s at step %lld\n", latest->c_str(),
                  static_cast<long long>(done));
    } else if (latest.status().code() != absl::StatusCode::kNotFound) {
      return latest.status();
    }
  }
  TORUS_RETURN_IF_ERROR(trainer->startData(done));
  for (int64_t s = done; s < args.steps; ++s) {
    TORUS_ASSIGN_OR_RETURN(float loss, trainer->step());
    std::printf("step %lld loss %.6f\n", static_cast<long long>(s + 1), loss);
    std::fflush(stdout);
    if (args.checkpointEvery > 0 && (s + 1) % args.checkpointEvery == 0 &&
        savesCheckpoints)
      TORUS_RETURN_IF_ERROR(
          checkpoint.save(args.checkpointDir + "/ckpt").status());
  }
  if (args.out.empty())
    return absl::OkStatus();
  std::ofstream out(args.out, std::ios::binary | std::ios::trunc);
  for (const Variable &v : trainer->model().trainableVariables()) {
    std::vector<HostTensor> components = v.components();
    for (const HostTensor &c : components)
      if (std::memcmp(c.rawData(), components[0].rawData(),
                      c.sizeInBytes()) != 0)
        return absl::InternalError("the replicas of " + v.name() +
                                   " differ");
    out.write(static_cast<const char *>(components[0].rawData()),
              static_cast<std::streamsize>(components[0].sizeInBytes()));
  }
  if (!out.flush())
    return absl::UnavailableError("cannot write " + args.out);
  return absl::OkStatus();
}

} // namespace

int main(int argc, char **argv) {
  auto args = parseArgs(argc, argv);
  absl::Status status = args.ok() ? run(*args) : args.status();
  if (!status.ok()) {
    std::fprintf(stderr, "error: %s\n", std::string(status.ToString()).c_str());
    return 1;
  }
  return 0;
}
