//===- SpmdTest.cpp - Sharded programs equal their unsharded runs ---------===//
//
// End to end: a step traced with TPUStrategy's logical-device annotations
// is compiled for R replicas x P partitions, its inputs split into tiles,
// run on the emulated mesh, and its outputs joined; they must equal the
// same step traced without annotations and run unpartitioned (f32, 1e-5
// relative). The partitioned IR must hold the expected collectives and no
// others:
//   (a) a Megatron MLP: two column/row pairs on 2 logical devices, one
//       all-reduce per pair;
//   (b) a conv net on an image split [1,2,4,1] over 8 logical devices:
//       halo exchange by collective_permute, one all-reduce for the mean;
//   (c) data x model parallel on a v3-8: 4 replicas x 2 logical devices,
//       gradients all-reduced across replicas only;
//   (d) an attention block with its heads split over 4 logical devices;
//   (e) triangular solves and FFTs split along batches, or along the
//       solved or transformed dimension (gathered first).
//
//===----------------------------------------------------------------------===//

#include "api/ExecutableImpl.h"
#include "codegen/Compiler.h"
#include "ir/trace/TracedFunctionImpl.h"
#include "runtime/RuntimeAbi.h"
#include "runtime/executor/DeviceAssignmentCores.h"
#include "runtime/executor/Executor.h"
#include "runtime/jit/JitModule.h"
#include "runtime/mesh/DeviceAssignment.h"
#include "runtime/mesh/Topology.h"
#include "torus/Autodiff.h"
#include "torus/Compile.h"
#include "torus/EmulatedMesh.h"
#include "torus/Sharding.h"
#include "torus/Trace.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Parser/Parser.h"
#include "llvm/IR/LLVMContext.h"
#include "llvm/IR/Module.h"
#include "llvm/Support/raw_ostream.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <regex>

namespace torus {
namespace {

using ::testing::HasSubstr;

/// A program compiled for the test, with what the test inspects.
struct Compiled {
  std::unique_ptr<rt::JitModule> code;
  rt::Program program;
  int64_t numPartitions = 1;
  std::vector<std::string> inputShardings, outputShardings;
  std::string spmdIR;
  /// How many ops of each name the module holds after the `spmd` stage
  /// (partitioner and collective passes), counted by walking it.
  std::map<std::string, int> spmdOps;
};

absl::StatusOr<Compiled> compileFor(const TracedFunction &fn,
                                    int64_t replicas, int64_t partitions) {
  auto context = createTorusContext();
  auto module =
      mlir::parseSourceString<mlir::ModuleOp>(fn.toString(), context.get());
  if (!module)
    return absl::InternalError("cannot parse the traced module");
  Compiled c;
  mlir::torus::CompilerOptions options;
  options.numReplicas = replicas;
  options.numPartitions = partitions;
  options.afterStage = [&](mlir::torus::Stage stage, mlir::ModuleOp m) {
    if (stage == mlir::torus::Stage::Spmd) {
      llvm::raw_string_ostream os(c.spmdIR);
      m.print(os);
      m.walk([&](mlir::Operation *op) {
        ++c.spmdOps[op->getName().getStringRef().str()];
      });
    }
  };
  TORUS_ASSIGN_OR_RETURN(auto compiled,
                         mlir::torus::compileToLLVMIR(*module, options));
  rt::JitOptions jit;
  jit.symbols = rt::runtimeAbiSymbols();
  TORUS_ASSIGN_OR_RETURN(c.code, rt::JitModule::load(
                                     std::move(compiled.llvmContext),
                                     std::move(compiled.llvmModule), jit));
  TORUS_ASSIGN_OR_RETURN(void *entry, c.code->lookup(compiled.entrySymbol));
  c.program.spec = compiled.spec;
  c.program.entry = reinterpret_cast<rt::EntryFn>(entry);
  c.numPartitions = compiled.numPartitions;
  c.inputShardings = compiled.inputShardings;
  c.outputShardings = compiled.outputShardings;
  return c;
}

/// Runs `c` on `executor`: `inputs[replica][argument]` whole tensors in,
/// whole outputs (`[replica][result]`) out.
absl::StatusOr<std::vector<std::vector<HostTensor>>>
runWhole(const Compiled &c, rt::Executor &executor,
         const std::vector<std::vector<HostTensor>> &inputs,
         const std::vector<TensorSpec> &outputs,
         rt::RunOptions options = {}) {
  int64_t R = inputs.size(), P = c.numPartitions;
  options.numPartitions = P;
  std::vector<std::vector<HostTensor>> perDevice(R * P);
  for (int64_t r = 0; r < R; ++r)
    for (int64_t p = 0; p < P; ++p)
      for (size_t i = 0; i < inputs[r].size(); ++i) {
        std::string s =
            P > 1 ? c.inputShardings.at(i) : std::string("{replicated}");
        TORUS_ASSIGN_OR_RETURN(HostTensor tile,
                               shardForPartition(inputs[r][i], s, p, P));
        perDevice[r * P + p].push_back(std::move(tile));
      }
  TORUS_ASSIGN_OR_RETURN(auto out,
                         executor.run(c.program, perDevice, options));
  std::vector<std::vector<HostTensor>> whole(R);
  for (int64_t r = 0; r < R; ++r)
    for (size_t o = 0; o < outputs.size(); ++o) {
      std::vector<HostTensor> tiles;
      for (int64_t p = 0; p < P; ++p)
        tiles.push_back(out[r * P + p][o]);
      std::string s =
          P > 1 ? c.outputShardings.at(o) : std::string("{replicated}");
      TORUS_ASSIGN_OR_RETURN(HostTensor t,
                             unshard(tiles, s, outputs[o].shape));
      whole[r].push_back(std::move(t));
    }
  return whole;
}

HostTensor randomTensor(const Shape &shape, uint32_t seed, float scale = 1) {
  std::vector<float> v(numElements(shape));
  uint32_t state = seed * 2654435761u + 12345;
  for (float &x : v) {
    state = state * 1664525u + 1013904223u;
    x = scale * (static_cast<float>(state >> 8) / (1u << 24) * 2 - 1);
  }
  return HostTensor::fromVector(shape, v);
}

/// max |a - b| / max |b|.
double relativeError(const HostTensor &a, const HostTensor &b) {
  auto x = a.toVector<float>(), y = b.toVector<float>();
  EXPECT_EQ(x.size(), y.size());
  double diff = 0, scale = 0;
  for (size_t i = 0; i < x.size() && i < y.size(); ++i) {
    diff = std::max(diff, std::abs(double(x[i]) - double(y[i])));
    scale = std::max(scale, std::abs(double(y[i])));
  }
  return scale > 0 ? diff / scale : diff;
}

/// The torus dialect's collectives: the only ops that move data between
/// devices.
const char *const kCollectives[] = {
    "torus.all_reduce", "torus.all_gather", "torus.reduce_scatter",
    "torus.all_to_all", "torus.collective_permute"};

/// How many ops named `name` (`torus.all_reduce`, ...) the printed `ir`
/// holds (a cross-check of the walk, on the text a lit test would see).
int count(const std::string &ir, const std::string &name) {
  std::regex op("= " + name + " ");
  return std::distance(std::sregex_iterator(ir.begin(), ir.end(), op),
                       std::sregex_iterator());
}

/// Checks the partitioned module holds exactly the `expected` collectives
/// (name -> count) and no others: every collective op of the dialect is
/// counted in the walked module (nested regions included) and in its text,
/// and no op whose name looks like communication is outside that list.
void expectCollectives(const Compiled &c,
                       std::map<std::string, int> expected) {
  ASSERT_FALSE(c.spmdOps.empty()) << "the spmd stage was not reached";
  for (const char *name : kCollectives) {
    EXPECT_EQ(c.spmdOps.count(name) ? c.spmdOps.at(name) : 0, expected[name])
        << name << " in\n" << c.spmdIR;
    EXPECT_EQ(count(c.spmdIR, name), expected[name]) << name;
  }
  for (const auto &[name, n] : c.spmdOps) {
    bool known = std::find(std::begin(kCollectives), std::end(kCollectives),
                           name) != std::end(kCollectives);
    bool looksLikeCommunication =
        name.find("all_") != std::string::npos ||
        name.find("collective") != std::string::npos ||
        name.find("scatter") != std::string::npos ||
        name.find("send") != std::string::npos ||
        name.find("recv") != std::string::npos ||
        name.find("feed") != std::string::npos;
    // torus.scatter is the indexed update, not a collective.
    EXPECT_TRUE(known || !looksLikeCommunication || name == "torus.scatter")
        << "unexpected op " << name << " in\n" << c.spmdIR;
  }
}

std::unique_ptr<rt::Executor> executorWith(int64_t cores) {
  auto e = rt::Executor::create(cores);
  EXPECT_TRUE(e.ok()) << e.status();
  return e.ok() ? std::move(*e) : nullptr;
}

//===--- (a) Megatron MLP -------------------------------------------------===//

absl::StatusOr<TracedFunction> traceMlp(bool annotate) {
  std::vector<TensorSpec> specs = {
      {DType::F32, {8, 16}},  {DType::F32, {16, 32}}, {DType::F32, {32}},
      {DType::F32, {32, 16}}, {DType::F32, {16}},     {DType::F32, {16, 32}},
      {DType::F32, {32, 8}}};
  return trace("mlp", specs, [annotate](const std::vector<Tensor> &in) {
    Tensor x = in[0], w1 = in[1], b1 = in[2], w2 = in[3], b2 = in[4],
           w3 = in[5], w4 = in[6];
    if (annotate) {
      w1 = splitToLogicalDevices(w1, {1, 2}); // column-wise
      b1 = splitToLogicalDevices(b1, {2});
      w2 = splitToLogicalDevices(w2, {2, 1}); // row-wise
      w3 = splitToLogicalDevices(w3, {1, 2});
      w4 = splitToLogicalDevices(w4, {2, 1});
    }
    Tensor h1 = relu(matmul(x, w1) + b1);
    Tensor y1 = relu(matmul(h1, w2) + b2);
    Tensor h2 = tanh(matmul(y1, w3));
    return matmul(h2, w4);
  });
}

std::vector<HostTensor> mlpInputs(const TracedFunction &fn, uint32_t seed) {
  std::vector<HostTensor> in;
  for (size_t i = 0; i < fn.inputs().size(); ++i)
    in.push_back(randomTensor(fn.inputs()[i].shape, seed + i, 0.5f));
  return in;
}

TEST(SpmdTest, MegatronMlpNeedsOneAllReducePerPair) {
  auto reference = traceMlp(false);
  ASSERT_TRUE(reference.ok()) << reference.status();
  absl::StatusOr<TracedFunction> sharded = [] {
    LogicalDeviceScope scope(2);
    return traceMlp(true);
  }();
  ASSERT_TRUE(sharded.ok()) << sharded.status();

  auto single = compileFor(*reference, 1, 1);
  ASSERT_TRUE(single.ok()) << single.status();
  auto split = compileFor(*sharded, 1, 0); // 0: as traced, 2.
  ASSERT_TRUE(split.ok()) << split.status();
  EXPECT_EQ(split->numPartitions, 2);

  // Column tiles of the hidden layers in, replicated activations out.
  EXPECT_EQ(split->inputShardings[1], "{devices=[1,2]<=[2]}");
  EXPECT_EQ(split->inputShardings[3], "{devices=[2,1]<=[2]}");
  EXPECT_EQ(split->program.spec.inputs[1].shape, (Shape{16, 16}));
  expectCollectives(*split, {{"torus.all_reduce", 2}});
  EXPECT_THAT(split->spmdIR,
              HasSubstr("{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}"));

  auto executor = executorWith(2);
  auto in = mlpInputs(*reference, 7);
  auto want = runWhole(*single, *executor, {in}, reference->outputs());
  ASSERT_TRUE(want.ok()) << want.status();
  auto got = runWhole(*split, *executor, {in}, sharded->outputs());
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_LE(relativeError((*got)[0][0], (*want)[0][0]), 1e-5);
}

TEST(SpmdTest, CompileTakesThePartitionCount) {
  absl::StatusOr<TracedFunction> sharded = [] {
    LogicalDeviceScope scope(2);
    return traceMlp(true);
  }();
  ASSERT_TRUE(sharded.ok()) << sharded.status();
  // The public compile(): the partition count comes from the trace, or
  // must agree with it.
  auto exe = compile(*sharded);
  ASSERT_TRUE(exe.ok()) << exe.status();
  EXPECT_EQ(exe->inputs()[1].shape, (Shape{16, 16}));
  auto wrong = compile(*sharded, {.numReplicas = 1, .numPartitions = 4});
  ASSERT_FALSE(wrong.ok());
  EXPECT_THAT(std::string(wrong.status().message()),
              HasSubstr("traced for 2 logical devices per replica but is "
                        "compiled for 4 partitions"));

  // It runs on an EmulatedMesh as 2 devices, each on its tiles.
  EXPECT_EQ(exe->numPartitions(), 2);
  auto mesh = EmulatedMesh::create(2);
  ASSERT_TRUE(mesh.ok()) << mesh.status();
  auto reference = traceMlp(false);
  ASSERT_TRUE(reference.ok());
  auto in = mlpInputs(*reference, 3);
  std::vector<std::string> shardings = {
      "{replicated}",         "{devices=[1,2]<=[2]}", "{devices=[2]<=[2]}",
      "{devices=[2,1]<=[2]}", "{replicated}",         "{devices=[1,2]<=[2]}",
      "{devices=[2,1]<=[2]}"};
  std::vector<std::vector<HostTensor>> perDevice(2);
  for (int64_t p = 0; p < 2; ++p)
    for (size_t i = 0; i < in.size(); ++i) {
      auto tile = shardForPartition(in[i], shardings[i], p, 2);
      ASSERT_TRUE(tile.ok()) << tile.status();
      perDevice[p].push_back(*tile);
    }
  auto out = mesh->run(*exe, perDevice);
  ASSERT_TRUE(out.ok()) << out.status();
  auto single = compileFor(*reference, 1, 1);
  ASSERT_TRUE(single.ok());
  auto executor = executorWith(1);
  auto want = runWhole(*single, *executor, {in}, reference->outputs());
  ASSERT_TRUE(want.ok());
  EXPECT_LE(relativeError((*out)[0][0], (*want)[0][0]), 1e-5);
  EXPECT_LE(relativeError((*out)[1][0], (*want)[0][0]), 1e-5);
}

//===--- (b) Conv net, image split [1,2,4,1] ------------------------------===//

absl::StatusOr<TracedFunction> traceConvNet(bool annotate) {
  std::vector<TensorSpec> specs = {{DType::F32, {2, 8, 16, 3}},
                                   {DType::F32, {3, 3, 3, 4}},
                                   {DType::F32, {3, 3, 4, 4}},
                                   {DType::F32, {4, 10}}};
  return trace("convnet", specs, [annotate](const std::vector<Tensor> &in) {
    Tensor image = in[0];
    if (annotate)
      image = splitToLogicalDevices(image, {1, 2, 4, 1});
    Tensor h = relu(conv2d(image, in[1], {1, 1}, Padding::same()));
    h = relu(conv2d(h, in[2], {1, 1}, Padding::same()));
    Tensor pooled = mean(h, {1, 2});
    return matmul(pooled, in[3]);
  });
}

TEST(SpmdTest, ConvNetOnAnImageSplitOverEightDevicesExchangesHalos) {
  auto reference = traceConvNet(false);
  ASSERT_TRUE(reference.ok()) << reference.status();
  absl::StatusOr<TracedFunction> sharded = [] {
    LogicalDeviceScope scope(8);
    return traceConvNet(true);
  }();
  ASSERT_TRUE(sharded.ok()) << sharded.status();
  auto single = compileFor(*reference, 1, 1);
  ASSERT_TRUE(single.ok()) << single.status();
  auto split = compileFor(*sharded, 1, 8);
  ASSERT_TRUE(split.ok()) << split.status();

  // Device k holds width half k / 4 and height quarter k % 4.
  EXPECT_EQ(split->inputShardings[0], "{devices=[1,2,4,1]<=[8]}");
  EXPECT_EQ(split->program.spec.inputs[0].shape, (Shape{2, 4, 4, 3}));
  // Two convolutions, each exchanging a halo row both ways along the width
  // split and a halo column both ways along the height split; the spatial
  // mean adds up the tiles once.
  expectCollectives(*split, {{"torus.collective_permute", 8},
                                    {"torus.all_reduce", 1}});

  auto executor = executorWith(8);
  std::vector<HostTensor> in;
  for (size_t i = 0; i < reference->inputs().size(); ++i)
    in.push_back(randomTensor(reference->inputs()[i].shape, 11 + i));
  auto want = runWhole(*single, *executor, {in}, reference->outputs());
  ASSERT_TRUE(want.ok()) << want.status();
  auto got = runWhole(*split, *executor, {in}, sharded->outputs());
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_LE(relativeError((*got)[0][0], (*want)[0][0]), 1e-5);
}

//===--- (c) Data x model parallel on a v3-8 ------------------------------===//

/// One SGD step of a 2-layer MLP on a batch of `batch` rows. With
/// `dataParallel`, the gradients are averaged over 4 replicas by the user's
/// all-reduce (each replica holds a quarter of the global batch); without,
/// it is the single-core step on the whole global batch.
absl::StatusOr<TracedFunction> traceTrainStep(bool annotate,
                                              int64_t batch = 8,
                                              bool dataParallel = true) {
  std::vector<TensorSpec> specs = {{DType::F32, {batch, 16}},
                                   {DType::F32, {batch, 4}},
                                   {DType::F32, {16, 32}},
                                   {DType::F32, {32, 4}}};
  return trace("train_step", specs,
               [annotate, dataParallel](const std::vector<Tensor> &in) {
    Tensor x = in[0], target = in[1], w1 = in[2], w2 = in[3];
    if (annotate) {
      w1 = splitToLogicalDevices(w1, {1, 2});
      w2 = splitToLogicalDevices(w2, {2, 1});
    }
    GradientTape tape;
    Tensor y = matmul(relu(matmul(x, w1)), w2);
    Tensor loss = mean(square(y - target));
    std::vector<Tensor> grads = tape.gradient(loss, {w1, w2});
    Tensor g1 = grads[0], g2 = grads[1];
    if (dataParallel) {
      // Data parallelism: every replica's gradient, averaged over the 4
      // replicas (replica ids; each logical device with its peers).
      ReplicaGroups replicas = {{0, 1, 2, 3}};
      g1 = allReduce(g1, ReduceOp::Sum, replicas) / 4;
      g2 = allReduce(g2, ReduceOp::Sum, replicas) / 4;
    }
    return std::vector<Tensor>{loss, w1 - 0.1 * g1, w2 - 0.1 * g2};
  });
}

/// Occurrences of `needle` in `text`.
int occurrences(const std::string &text, const std::string &needle) {
  int n = 0;
  for (size_t at = text.find(needle); at != std::string::npos;
       at = text.find(needle, at + 1))
    ++n;
  return n;
}

TEST(SpmdTest, DataTimesModelParallelOnAV3_8AllReducesGradientsAcrossReplicas) {
  auto reference = traceTrainStep(false);
  ASSERT_TRUE(reference.ok()) << reference.status();
  absl::StatusOr<TracedFunction> sharded = [] {
    LogicalDeviceScope scope(2);
    return traceTrainStep(true);
  }();
  ASSERT_TRUE(sharded.ok()) << sharded.status();
  auto dataParallel = compileFor(*reference, 4, 1);
  ASSERT_TRUE(dataParallel.ok()) << dataParallel.status();
  auto split = compileFor(*sharded, 4, 2);
  ASSERT_TRUE(split.ok()) << split.status();

  // Within a replica, the Megatron all-reduce over its two logical
  // devices; across replicas, the gradients (combined into one all-reduce
  // of the local tiles), each logical device with the same one of the
  // other replicas. Nothing else moves.
  const std::string withinReplica =
      "replica_groups = dense<[[0, 1], [2, 3], [4, 5], [6, 7]]>";
  const std::string acrossReplicas =
      "replica_groups = dense<[[0, 2, 4, 6], [1, 3, 5, 7]]>";
  expectCollectives(*split, {{"torus.all_reduce", 2}});
  EXPECT_EQ(occurrences(split->spmdIR, withinReplica), 1) << split->spmdIR;
  EXPECT_EQ(occurrences(split->spmdIR, acrossReplicas), 1) << split->spmdIR;

  // TensorFlow's device assignment for computation shape [1,1,1,2]: each
  // replica on both cores of one chip.
  auto topology = rt::Topology::fromPreset("v3-8");
  ASSERT_TRUE(topology.ok()) << topology.status();
  auto shared = std::make_shared<rt::Topology>(*topology);
  auto assignment = rt::DeviceAssignment::build(
      shared, std::vector<int64_t>{1, 1, 1, 2}, std::nullopt, 4);
  ASSERT_TRUE(assignment.ok()) << assignment.status();
  auto runOptions = rt::runOptionsForDeviceAssignment(*assignment);
  ASSERT_TRUE(runOptions.ok()) << runOptions.status();
  auto v38 = rt::Executor::create(*shared);
  ASSERT_TRUE(v38.ok()) << v38.status();

  std::vector<std::vector<HostTensor>> in(4);
  HostTensor w1 = randomTensor({16, 32}, 5, 0.5f),
             w2 = randomTensor({32, 4}, 6, 0.5f);
  for (int r = 0; r < 4; ++r)
    in[r] = {randomTensor({8, 16}, 100 + r), randomTensor({8, 4}, 200 + r), w1,
             w2};
  auto cores = executorWith(4);
  auto want = runWhole(*dataParallel, *cores, in, reference->outputs());
  ASSERT_TRUE(want.ok()) << want.status();
  auto got = runWhole(*split, **v38, in, sharded->outputs(), *runOptions);
  ASSERT_TRUE(got.ok()) << got.status();
  for (int r = 0; r < 4; ++r)
    for (int o = 0; o < 3; ++o)
      EXPECT_LE(relativeError((*got)[r][o], (*want)[r][o]), 1e-5)
          << "replica " << r << " output " << o;
  // Every replica ends with the same weights.
  EXPECT_EQ((*got)[3][1].toVector<float>(), (*got)[0][1].toVector<float>());

  // And they are the weights of one SGD step on one core with the whole
  // global batch of 32 rows (no collectives at all): the mean over 4 equal
  // shards of the per-replica mean gradients is the global mean gradient.
  auto global = traceTrainStep(false, 32, /*dataParallel=*/false);
  ASSERT_TRUE(global.ok()) << global.status();
  auto oneCore = compileFor(*global, 1, 1);
  ASSERT_TRUE(oneCore.ok()) << oneCore.status();
  expectCollectives(*oneCore, {});
  auto concatRows = [&](int arg, int64_t cols) {
    std::vector<float> all;
    for (int r = 0; r < 4; ++r) {
      auto v = in[r][arg].toVector<float>();
      all.insert(all.end(), v.begin(), v.end());
    }
    return HostTensor::fromVector<float>({32, cols}, all);
  };
  auto single = runWhole(*oneCore, *executorWith(1),
                         {{concatRows(0, 16), concatRows(1, 4), w1, w2}},
                         global->outputs());
  ASSERT_TRUE(single.ok()) << single.status();
  for (int r = 0; r < 4; ++r)
    for (int o = 1; o < 3; ++o)
      EXPECT_LE(relativeError((*got)[r][o], (*single)[0][o]), 1e-5)
          << "replica " << r << " weight " << o;
  // The global loss is the mean of the 4 replicas' losses.
  float meanLoss = 0;
  for (int r = 0; r < 4; ++r)
    meanLoss += (*got)[r][0].toVector<float>()[0] / 4;
  EXPECT_LE(std::abs(meanLoss - (*single)[0][0].toVector<float>()[0]),
            1e-5 * std::abs((*single)[0][0].toVector<float>()[0]));
}

//===--- (d) Attention, heads split over 4 devices ------------------------===//

absl::StatusOr<TracedFunction> traceAttention(bool annotate) {
  const int64_t B = 2, S = 8, H = 4, dh = 4, E = H * dh, D = 16;
  std::vector<TensorSpec> specs = {{DType::F32, {B, S, D}},
                                   {DType::F32, {D, E}},
                                   {DType::F32, {D, E}},
                                   {DType::F32, {D, E}},
                                   {DType::F32, {E, D}}};
  return trace("attention", specs, [=](const std::vector<Tensor> &in) {
    Tensor x = in[0], wq = in[1], wk = in[2], wv = in[3], wo = in[4];
    if (annotate) {
      wq = splitToLogicalDevices(wq, {1, 4}); // heads are column blocks
      wk = splitToLogicalDevices(wk, {1, 4});
      wv = splitToLogicalDevices(wv, {1, 4});
      wo = splitToLogicalDevices(wo, {4, 1}); // and row blocks here
    }
    auto heads = [&](Tensor w) {
      return transpose(reshape(matmul(x, w), {B, S, H, dh}), {0, 2, 1, 3});
    };
    Tensor q = heads(wq), k = heads(wk), v = heads(wv);
    Tensor scores =
        dotGeneral(q, k, {{0, 1}, {0, 1}, {3}, {3}}) * (1.0 / std::sqrt(dh));
    Tensor p = softmax(scores, -1);
    Tensor ctx = dotGeneral(p, v, {{0, 1}, {0, 1}, {3}, {2}});
    Tensor merged = reshape(transpose(ctx, {0, 2, 1, 3}), {B, S, E});
    return matmul(merged, wo);
  });
}

TEST(SpmdTest, AttentionWithHeadsSplitOverFourDevices) {
  auto reference = traceAttention(false);
  ASSERT_TRUE(reference.ok()) << reference.status();
  absl::StatusOr<TracedFunction> sharded = [] {
    LogicalDeviceScope scope(4);
    return traceAttention(true);
  }();
  ASSERT_TRUE(sharded.ok()) << sharded.status();
  auto single = compileFor(*reference, 1, 1);
  ASSERT_TRUE(single.ok()) << single.status();
  auto split = compileFor(*sharded, 1, 4);
  ASSERT_TRUE(split.ok()) << split.status();
  // Each device computes its own head end to end; the output projection
  // sums the heads once.
  expectCollectives(*split, {{"torus.all_reduce", 1}});

  auto executor = executorWith(4);
  std::vector<HostTensor> in;
  for (size_t i = 0; i < reference->inputs().size(); ++i)
    in.push_back(randomTensor(reference->inputs()[i].shape, 31 + i));
  auto want = runWhole(*single, *executor, {in}, reference->outputs());
  ASSERT_TRUE(want.ok()) << want.status();
  auto got = runWhole(*split, *executor, {in}, sharded->outputs());
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_LE(relativeError((*got)[0][0], (*want)[0][0]), 1e-5);
}

//===--- Uneven tiles and maximal placement -------------------------------===//

TEST(SpmdTest, UnevenSplitsAndAssignedTensorsComputeTheSame) {
  auto step = [](bool annotate) {
    return trace("uneven", {{DType::F32, {5, 6}}, {DType::F32, {6, 3}}},
                 [annotate](Tensor x, Tensor w) {
                   if (annotate) {
                     x = withSharding(x, "{devices=[2,1]0,1}"); // 3 + 2 rows
                     w = assignToLogicalDevice(w * 2, 1);
                   } else {
                     w = w * 2;
                   }
                   Tensor y = matmul(exp(x), w);
                   return std::vector<Tensor>{y, sum(y, {0})};
                 });
  };
  auto reference = step(false);
  ASSERT_TRUE(reference.ok()) << reference.status();
  absl::StatusOr<TracedFunction> sharded = [&] {
    LogicalDeviceScope scope(2);
    return step(true);
  }();
  ASSERT_TRUE(sharded.ok()) << sharded.status();
  auto single = compileFor(*reference, 1, 1);
  ASSERT_TRUE(single.ok()) << single.status();
  auto split = compileFor(*sharded, 1, 2);
  ASSERT_TRUE(split.ok()) << split.status();
  EXPECT_EQ(split->program.spec.inputs[0].shape, (Shape{3, 6}));

  auto executor = executorWith(2);
  std::vector<HostTensor> in = {randomTensor({5, 6}, 1),
                                randomTensor({6, 3}, 2)};
  auto want = runWhole(*single, *executor, {in}, reference->outputs());
  ASSERT_TRUE(want.ok()) << want.status();
  auto got = runWhole(*split, *executor, {in}, sharded->outputs());
  ASSERT_TRUE(got.ok()) << got.status();
  EXPECT_LE(relativeError((*got)[0][0], (*want)[0][0]), 1e-5);
  EXPECT_LE(relativeError((*got)[0][1], (*want)[0][1]), 1e-5);
}

//===--- Solves and transforms --------------------------------------------===//

TEST(SpmdTest, SolvesAndTransformsSplitAlongBatchesOrGatherFirst) {
  // Split along a batch, each device solves or transforms its own tiles;
  // split along the solved or transformed dimension, the tiles are gathered
  // first (the blocked dimensions of the ops' sharding rules).
  auto step = [](bool annotate) {
    return trace(
        "linalg",
        {{DType::F32, {4, 4, 4}}, {DType::F32, {4, 4, 2}},
         {DType::F32, {4, 8}}},
        [annotate](Tensor a, Tensor b, Tensor x) {
          Tensor l = a * 0.25f; // unit lower triangle: well conditioned
          Tensor lb = l, bb = b, br = b, xb = x, xt = x;
          if (annotate) {
            lb = withSharding(l, "{devices=[2,1,1]0,1}");
            bb = withSharding(b, "{devices=[2,1,1]0,1}");
            br = withSharding(b, "{devices=[1,2,1]0,1}"); // solved rows
            xb = withSharding(x, "{devices=[2,1]0,1}");
            xt = withSharding(x, "{devices=[1,2]0,1}"); // transformed
          }
          TriangularSolveOptions o;
          o.unitDiagonal = true;
          Tensor batched = triangularSolve(lb, bb, o);
          Tensor rows = triangularSolve(l, br, o);
          Tensor fb = fft(xb, FftType::RFFT, {8});
          Tensor ft = fft(astype(xt, DType::C64), FftType::FFT, {8});
          return std::vector<Tensor>{batched, rows, real(fb), imag(fb),
                                     real(ft), imag(ft)};
        });
  };
  auto reference = step(false);
  ASSERT_TRUE(reference.ok()) << reference.status();
  absl::StatusOr<TracedFunction> sharded = [&] {
    LogicalDeviceScope scope(2);
    return step(true);
  }();
  ASSERT_TRUE(sharded.ok()) << sharded.status();
  auto single = compileFor(*reference, 1, 1);
  ASSERT_TRUE(single.ok()) << single.status();
  auto split = compileFor(*sharded, 1, 2);
  ASSERT_TRUE(split.ok()) << split.status();
  EXPECT_THAT(split->spmdIR, HasSubstr("torus.all_gather"));

  auto executor = executorWith(2);
  std::vector<HostTensor> in = {randomTensor({4, 4, 4}, 5),
                                randomTensor({4, 4, 2}, 6),
                                randomTensor({4, 8}, 7)};
  auto want = runWhole(*single, *executor, {in}, reference->outputs());
  ASSERT_TRUE(want.ok()) << want.status();
  auto got = runWhole(*split, *executor, {in}, sharded->outputs());
  ASSERT_TRUE(got.ok()) << got.status();
  for (size_t i = 0; i < 6; ++i)
    EXPECT_LE(relativeError((*got)[0][i], (*want)[0][i]), 1e-6)
        << "result " << i;
}

} // namespace
} // namespace torus
