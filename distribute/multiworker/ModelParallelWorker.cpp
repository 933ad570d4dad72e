//===- ModelParallelWorker.cpp - A data x model-parallel MLP over workers -===//
//
// torus-mp-worker: one worker of a job that trains a 2-layer MLP data x
// model parallel, 2 replicas x 2 partitions (the hidden dimension of 32
// split over the 2 partitions of a replica: w1 by columns, w2 by rows, one
// Megatron all-reduce per step inside a replica; the gradients all-reduced
// across the 2 replicas, each partition with its peer), SGD with learning
// rate 0.1. The program is compiled once for all 4 logical devices
// (d = replica * 2 + partition) and each worker runs its share of them
// (RunOptions::firstDevice): with 4 workers every device is on a different
// worker, so both kinds of all-reduce cross processes
// (CrossWorkerCommunicator with global ids).
//
//   torus-mp-worker --steps=N --out=weights.bin [--timeout=S]
//       [--checkpoint-dir=D --checkpoint-every=K] [--single-core]
//
// TF_CONFIG names the task (1, 2 or 4 workers; the rendezvous and job id as
// for torus-mlp-worker: $TORUS_RENDEZVOUS or $TORUS_RENDEZVOUS_DIR,
// $TORUS_JOB_ID). Without it the process runs all 4 devices itself (the
// single-process reference); --single-core runs the same training
// unpartitioned on one core with the global batch (no collectives).
//
// Every step's data is a function of the step (replica r's 8 rows of the
// global batch of 16), so a job resumed from a checkpoint ends with the
// weights of an uninterrupted one. With --checkpoint-dir each worker saves
// its devices' weights every K steps (`<D>/<task>-step-<s>.bin`, written
// atomically); at start the workers agree on the latest step they all saved
// (a minimum over the workers) and restore it.
//
// Output: the full w1 (16x32) then w2 (32x4), f32, as replica 0's
// partitions hold them after the last step (gathered from the workers).
// Each step prints `step N loss L` (replica 0's loss); errors print
// `error: ...` and exit with 1.
//
//===----------------------------------------------------------------------===//

#include "codegen/Compiler.h"
#include "distribute/multiworker/WorkerFlags.h"
#include "ir/trace/TracedFunctionImpl.h"
#include "runtime/RuntimeAbi.h"
#include "runtime/executor/Executor.h"
#include "runtime/jit/JitModule.h"
#include "runtime/mesh/ClusterResolver.h"
#include "runtime/multiworker/CrossWorkerCommunicator.h"
#include "runtime/multiworker/WorkerGroup.h"
#include "torus/Autodiff.h"
#include "torus/Sharding.h"
#include "torus/Trace.h"
#include "torus/distribute/ClusterResolver.h"
#include "torus/distribute/MultiWorkerUtil.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>

using namespace torus;

namespace {

constexpr int64_t kReplicas = 2, kPartitions = 2, kDevices = 4;
constexpr int64_t kBatch = 8, kIn = 16, kHidden = 32, kOut = 4;

struct Args : distribute::WorkerFlags {
  bool singleCore = false;
  /// --timeout, 30 s when not given.
  absl::Duration collectiveTimeout() const {
    return absl::Seconds(timeout.value_or(30));
  }
};

absl::StatusOr<Args> parseArgs(int argc, char **argv) {
  Args a;
  TORUS_ASSIGN_OR_RETURN(std::vector<std::string> rest,
                         distribute::parseWorkerFlags(argc, argv, a));
  for (const std::string &arg : rest) {
    if (arg != "--single-core")
      return distribute::unknownArgument(arg);
    a.singleCore = true;
  }
  return a;
}

/// One SGD step on a batch of `batch` rows. Partitioned: w1 split by
/// columns and w2 by rows over 2 logical devices, and the gradients summed
/// over the 2 replicas (replica ids; each partition with its peer) and
/// halved. Unpartitioned: the step on the whole global batch.
absl::StatusOr<TracedFunction> traceStep(bool partitioned) {
  const int64_t batch = partitioned ? kBatch : kBatch * kReplicas;
  std::vector<TensorSpec> specs = {{DType::F32, {batch, kIn}},
                                   {DType::F32, {batch, kOut}},
                                   {DType::F32, {kIn, kHidden}},
                                   {DType::F32, {kHidden, kOut}}};
  std::optional<LogicalDeviceScope> scope;
  if (partitioned)
    scope.emplace(kPartitions);
  return trace("mp_step", specs, [partitioned](const std::vector<Tensor> &in) {
    Tensor x = in[0], target = in[1], w1 = in[2], w2 = in[3];
    if (partitioned) {
      w1 = splitToLogicalDevices(w1, {1, kPartitions});
      w2 = splitToLogicalDevices(w2, {kPartitions, 1});
    }
    GradientTape tape;
    Tensor y = matmul(relu(matmul(x, w1)), w2);
    Tensor loss = mean(square(y - target));
    std::vector<Tensor> grads = tape.gradient(loss, {w1, w2});
    Tensor g1 = grads[0], g2 = grads[1];
    if (partitioned) {
      ReplicaGroups replicas = {{0, 1}};
      g1 = allReduce(g1, ReduceOp::Sum, replicas) / kReplicas;
      g2 = allReduce(g2, ReduceOp::Sum, replicas) / kReplicas;
    }
    return std::vector<Tensor>{loss, w1 - 0.1 * g1, w2 - 0.1 * g2};
  });
}

struct Compiled {
  std::unique_ptr<rt::JitModule> code;
  rt::Program program;
  std::vector<std::string> inputShardings, outputShardings;
};

absl::StatusOr<Compiled> compileStep(const TracedFunction &fn,
                                     int64_t replicas, int64_t partitions) {
  auto context = createTorusContext();
  auto module =
      mlir::parseSourceString<mlir::ModuleOp>(fn.toString(), context.get());
  if (!module)
    return absl::InternalError("cannot parse the traced step");
  mlir::torus::CompilerOptions options;
  options.numReplicas = replicas;
  options.numPartitions = partitions;
  TORUS_ASSIGN_OR_RETURN(auto compiled,
                         mlir::torus::compileToLLVMIR(*module, options));
  Compiled c;
  rt::JitOptions jit;
  jit.symbols = rt::runtimeAbiSymbols();
  TORUS_ASSIGN_OR_RETURN(c.code, rt::JitModule::load(
                                     std::move(compiled.llvmContext),
                                     std::move(compiled.llvmModule), jit));
  TORUS_ASSIGN_OR_RETURN(void *entry, c.code->lookup(compiled.entrySymbol));
  c.program.spec = compiled.spec;
  c.program.entry = reinterpret_cast<rt::EntryFn>(entry);
  c.inputShardings = compiled.inputShardings;
  c.outputShardings = compiled.outputShardings;
  return c;
}

/// Deterministic values in [-scale, scale) from `seed`.
HostTensor randomTensor(const Shape &shape, uint32_t seed, float scale) {
  std::vector<float> v(numElements(shape));
  uint32_t state = seed * 2654435761u + 12345;
  for (float &x : v) {
    state = state * 1664525u + 1013904223u;
    x = scale * (static_cast<float>(state >> 8) / (1u << 24) * 2 - 1);
  }
  return HostTensor::fromVector(shape, v);
}

/// Replica r's rows of step s's global batch: x, and the target.
std::pair<HostTensor, HostTensor> batchOf(int64_t step, int64_t replica) {
  uint32_t seed = static_cast<uint32_t>(1000 + step * 16 + replica * 2);
  return {randomTensor({kBatch, kIn}, seed, 1.0f),
          randomTensor({kBatch, kOut}, seed + 1, 1.0f)};
}

/// The rows of both replicas, one after the other (the global batch).
HostTensor concatRows(const HostTensor &a, const HostTensor &b) {
  std::vector<float> v = a.toVector<float>(), w = b.toVector<float>();
  v.insert(v.end(), w.begin(), w.end());
  Shape shape = a.shape();
  shape[0] *= 2;
  return HostTensor::fromVector<float>(shape, v);
}

absl::Status writeWeights(const std::string &path,
                          const std::vector<HostTensor> &weights) {
  if (path.empty())
    return absl::OkStatus();
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  for (const HostTensor &w : weights)
    out.write(static_cast<const char *>(w.rawData()),
              static_cast<std::streamsize>(w.sizeInBytes()));
  if (!out.flush())
    return absl::UnavailableError("cannot write " + path);
  return absl::OkStatus();
}

/// The job this process is a worker of: rank and size from TF_CONFIG.
struct Job {
  int rank = 0, size = 1;
  std::string taskName = "the only worker";
  std::shared_ptr<rt::WorkerGroup> group;
};

std::string envOr(const char *name, const std::string &fallback) {
  const char *v = std::getenv(name);
  return v && *v ? std::string(v) : fallback;
}

absl::StatusOr<Job> joinJob(const Args &args) {
  Job job;
  distribute::TFConfigClusterResolver resolver;
  TORUS_ASSIGN_OR_RETURN(distribute::ClusterSpec spec, resolver.clusterSpec());
  if (spec.empty())
    return job;
  std::optional<std::string> type = resolver.taskType();
  TORUS_ASSIGN_OR_RETURN(std::optional<int> id, resolver.taskIdOrError());
  if (!type || !id)
    return absl::InvalidArgumentError("TF_CONFIG names no task");
  TORUS_ASSIGN_OR_RETURN(job.size,
                         distribute::multi_worker_util::workerCount(spec, *type));
  TORUS_ASSIGN_OR_RETURN(job.rank, distribute::multi_worker_util::idInCluster(
                                       spec, *type, *id));
  if (kDevices % job.size != 0)
    return absl::InvalidArgumentError(
        "the 4 devices of the data x model-parallel step go to 1, 2 or 4 "
        "workers; TF_CONFIG has " + std::to_string(job.size));
  job.taskName = *type + " " + std::to_string(*id);
  rt::WorkerGroupOptions o;
  o.rank = job.rank;
  o.size = job.size;
  for (int i = 0; i < distribute::multi_worker_util::numTasks(spec, "chief");
       ++i)
    o.names.push_back("chief " + std::to_string(i));
  for (int i = 0; i < distribute::multi_worker_util::numTasks(spec, "worker");
       ++i)
    o.names.push_back("worker " + std::to_string(i));
  if (static_cast<int>(o.names.size()) != job.size)
    o.names.clear();
  o.rendezvousAddress = envOr("TORUS_RENDEZVOUS", "");
  if (o.rendezvousAddress.empty())
    o.rendezvousDirectory = envOr("TORUS_RENDEZVOUS_DIR", "");
  if (o.rendezvousAddress.empty() && o.rendezvousDirectory.empty())
    return absl::InvalidArgumentError(
        "a job of several workers needs a rendezvous: set "
        "$TORUS_RENDEZVOUS=redis://host:port or $TORUS_RENDEZVOUS_DIR");
  o.prefix = envOr("TORUS_JOB_ID", "torus-mp");
  TORUS_ASSIGN_OR_RETURN(std::string address,
                         distribute::taskAddress(spec, *type, *id));
  o.hostname = rt::hostOfAddress(address);
  o.connectTimeout = absl::Seconds(60);
  o.timeout = args.collectiveTimeout();
  TORUS_ASSIGN_OR_RETURN(job.group, rt::WorkerGroup::connect(o));
  return job;
}

absl::Status trainSingleCore(const Args &args) {
  TORUS_ASSIGN_OR_RETURN(TracedFunction fn, traceStep(false));
  TORUS_ASSIGN_OR_RETURN(Compiled c, compileStep(fn, 1, 1));
  TORUS_ASSIGN_OR_RETURN(auto executor, rt::Executor::create(1));
  HostTensor w1 = randomTensor({kIn, kHidden}, 5, 0.5f),
             w2 = randomTensor({kHidden, kOut}, 6, 0.5f);
  for (int64_t s = 0; s < args.steps; ++s) {
    auto [x0, t0] = batchOf(s, 0);
    auto [x1, t1] = batchOf(s, 1);
    TORUS_ASSIGN_OR_RETURN(
        auto out, executor->run(c.program, {{concatRows(x0, x1),
                                             concatRows(t0, t1), w1, w2}}));
    std::printf("step %lld loss %.6f\n", static_cast<long long>(s + 1),
                out[0][0].toVector<float>()[0]);
    w1 = out[0][1];
    w2 = out[0][2];
  }
  return writeWeights(args.out, {w1, w2});
}

absl::Status train(const Args &args) {
  if (args.singleCore)
    return trainSingleCore(args);
  TORUS_ASSIGN_OR_RETURN(Job job, joinJob(args));
  const int64_t local = kDevices / job.size, first = job.rank * local;
  std::fprintf(stderr,
               "worker %d of %d (%s): devices %lld..%lld of %lld replicas x "
               "%lld partitions\n",
               job.rank, job.size, job.taskName.c_str(),
               static_cast<long long>(first),
               static_cast<long long>(first + local - 1),
               static_cast<long long>(kReplicas),
               static_cast<long long>(kPartitions));
  TORUS_ASSIGN_OR_RETURN(TracedFunction fn, traceStep(true));
  TORUS_ASSIGN_OR_RETURN(Compiled c, compileStep(fn, kReplicas, kPartitions));

  rt::ExecutorOptions options;
  options.numCores = local;
  options.collectiveTimeout = args.collectiveTimeout();
  if (job.group)
    options.wrapCommunicator = [group = job.group](
                                   rt::InProcessCommunicator &comm)
        -> absl::StatusOr<std::unique_ptr<rt::Communicator>> {
      return std::make_unique<rt::CrossWorkerCommunicator>(
          comm, group, rt::ParticipantIds::Global);
    };
  TORUS_ASSIGN_OR_RETURN(auto executor, rt::Executor::create(options));
  rt::RunOptions run;
  run.numPartitions = kPartitions;
  if (job.group) {
    run.firstDevice = first;
    run.numLocalDevices = local;
  }

  // This worker's devices' weight tiles: [local device][w1, w2].
  std::vector<std::vector<HostTensor>> weights(local);
  const HostTensor w1 = randomTensor({kIn, kHidden}, 5, 0.5f),
                   w2 = randomTensor({kHidden, kOut}, 6, 0.5f);
  for (int64_t l = 0; l < local; ++l) {
    const int64_t p = (first + l) % kPartitions;
    TORUS_ASSIGN_OR_RETURN(
        HostTensor t1, shardForPartition(w1, c.inputShardings[2], p,
                                         kPartitions));
    TORUS_ASSIGN_OR_RETURN(
        HostTensor t2, shardForPartition(w2, c.inputShardings[3], p,
                                         kPartitions));
    weights[l] = {t1, t2};
  }

  // Resume: the latest step every worker saved.
  int64_t done = 0;
  namespace fs = std::filesystem;
  auto checkpointPath = [&](int64_t step) {
    return fs::path(args.checkpointDir) /
           ("task-" + std::to_string(job.rank) + "-step-" +
            std::to_string(step) + ".bin");
  };
  if (!args.checkpointDir.empty()) {
    std::error_code ec;
    fs::create_directories(args.checkpointDir, ec);
    int64_t latest = 0;
    for (int64_t s = args.checkpointEvery; s > 0 && s <= args.steps;
         s += args.checkpointEvery)
      if (fs::exists(checkpointPath(s)))
        latest = s;
    if (job.group)
      TORUS_RETURN_IF_ERROR(job.group->allReduce(&latest, DType::I64, 1,
                                                 rt::ReduceKind::Min));
    if (latest > 0) {
      std::ifstream in(checkpointPath(latest), std::ios::binary);
      for (auto &device : weights)
        for (HostTensor &t : device)
          in.read(static_cast<char *>(t.rawData()),
                  static_cast<std::streamsize>(t.sizeInBytes()));
      if (!in)
        return absl::DataLossError("cannot read the checkpoint " +
                                   checkpointPath(latest).string());
      done = latest;
      std::printf("restored step %lld\n", static_cast<long long>(done));
    }
  }

  for (int64_t s = done; s < args.steps; ++s) {
    std::vector<std::vector<HostTensor>> inputs;
    for (int64_t l = 0; l < local; ++l) {
      auto [x, t] = batchOf(s, (first + l) / kPartitions);
      inputs.push_back({x, t, weights[l][0], weights[l][1]});
    }
    TORUS_ASSIGN_OR_RETURN(auto out, executor->run(c.program, inputs, run));
    for (int64_t l = 0; l < local; ++l)
      weights[l] = {out[l][1], out[l][2]};
    std::printf("step %lld loss %.6f\n", static_cast<long long>(s + 1),
                out[0][0].toVector<float>()[0]);
    std::fflush(stdout);
    if (!args.checkpointDir.empty() && args.checkpointEvery > 0 &&
        (s + 1) % args.checkpointEvery == 0) {
      const fs::path path = checkpointPath(s + 1);
      const fs::path partial = path.string() + ".partial";
      std::vector<HostTensor> flat;
      for (auto &device : weights)
        flat.insert(flat.end(), device.begin(), device.end());
      TORUS_RETURN_IF_ERROR(writeWeights(partial.string(), flat));
      std::error_code ec;
      fs::rename(partial, path, ec);
      if (ec)
        return absl::UnavailableError("cannot save " + path.string() + ": " +
                                      ec.message());
    }
  }

  // Every device's tiles, in device order (gathered from the workers), and
  // replica 0's joined into the full weights.
  std::vector<uint8_t> mine, all;
  for (auto &device : weights)
    for (HostTensor &t : device) {
      const auto *b = static_cast<const uint8_t *>(t.rawData());
      mine.insert(mine.end(), b, b + t.sizeInBytes());
    }
  all = mine;
  if (job.group) {
    all.resize(mine.size() * job.size);
    TORUS_RETURN_IF_ERROR(job.group->allGather(
        mine.data(), all.data(), mine.size(), args.collectiveTimeout()));
  }
  const size_t perDevice = mine.size() / local;
  std::vector<HostTensor> full;
  for (int w = 0; w < 2; ++w) {
    std::vector<HostTensor> tiles;
    for (int64_t p = 0; p < kPartitions; ++p) {
      HostTensor tile(weights[0][w].spec());
      size_t offset = p * perDevice + (w == 0 ? 0 : weights[0][0].sizeInBytes());
      std::memcpy(tile.rawData(), all.data() + offset, tile.sizeInBytes());
      tiles.push_back(std::move(tile));
    }
    TORUS_ASSIGN_OR_RETURN(
        HostTensor whole,
        unshard(tiles, c.outputShardings[1 + w],
                w == 0 ? Shape{kIn, kHidden} : Shape{kHidden, kOut}));
    full.push_back(std::move(whole));
  }
  return writeWeights(args.out, full);
}

} // namespace

int main(int argc, char **argv) {
  auto args = parseArgs(argc, argv);
  absl::Status status = args.ok() ? train(*args) : args.status();
  if (!status.ok()) {
    std::fprintf(stderr, "error: %s\n", std::string(status.ToString()).c_str());
    return 1;
  }
  return 0;
}
