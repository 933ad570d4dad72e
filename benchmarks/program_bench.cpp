//===- program_bench.cpp - Compile and step time of one program -----------===//
//
// Times what a user of an exported program waits for: compiling it (reading
// the HLO or StableHLO text, import, passes, LLVM, loading) and running one
// step on the emulated cores (inputs in, outputs out). benchmarks/
// jax_compare.py runs it beside JAX on the same program and inputs and
// prints the ratios; it can be run alone:
//
//   program_bench step.hlo --input=x.npy --input=w.npy --replicas=1 \
//       --host-threads=1 --compiles=3 --steps=20 --output-dir=out
//
// Prints one JSON object: the CPU, compile and step times in milliseconds
// (min and median), and the settings. A step is a resident
// LoadedExecutable's (inputs and results stay on the cores, as JAX's device
// arrays do); --copies times EmulatedMesh::run, which copies them every
// step. --output-dir writes replica 0's
// results as result<i>.npy so the caller can check them against JAX's.
//
//===----------------------------------------------------------------------===//

#include "runtime/ParallelFor.h"
#include "runtime/jit/CpuTarget.h"
#include "support/Npy.h"
#include "tools/common/SourceProgram.h"
#include "torus/Compile.h"
#include "torus/EmulatedMesh.h"

#include "llvm/Support/CommandLine.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace {

namespace cl = llvm::cl;

cl::opt<std::string> programPath(cl::Positional, cl::Required,
                                 cl::desc("<program: .hlo or .mlir>"));
cl::list<std::string> inputFiles("input",
                                 cl::desc("FILE.npy: the next argument's value "
                                          "(in argument order), on every replica"));
cl::opt<int64_t> replicas("replicas",
                          cl::desc("Replicas, as the program states them"),
                          cl::init(1));
cl::opt<int64_t> threads("host-threads",
                         cl::desc("Host threads a kernel may use (0: all)"),
                         cl::init(1));
cl::opt<int64_t> compiles("compiles", cl::desc("Times to compile"), cl::init(3));
cl::opt<int64_t> steps("steps", cl::desc("Timed steps (after 3 untimed)"),
                       cl::init(20));
cl::opt<bool> copies("copies",
                     cl::desc("Time EmulatedMesh::run (inputs copied to the "
                              "cores and results back every step) instead "
                              "of a resident LoadedExecutable's step"),
                     cl::init(false));
cl::opt<int> optLevel("O", cl::desc("LLVM optimization level (0-3)"),
                      cl::init(3));
cl::opt<std::string> compileTrace(
    "compile-trace",
    cl::desc("Write the last compile's timeline here (CompileOptions::traceFile)"));
cl::opt<std::string> outputDir("output-dir",
                               cl::desc("Write replica 0's results here"));

using Clock = std::chrono::steady_clock;

double millisSince(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

struct Summary {
  double min = 0, median = 0;
};

Summary summarize(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return {v.front(), v[v.size() / 2]};
}

int fail(const absl::Status &status) {
  std::fprintf(stderr, "program_bench: %s\n", status.ToString().c_str());
  return 1;
}

} // namespace

int main(int argc, char **argv) {
  cl::ParseCommandLineOptions(argc, argv,
                              "program_bench: compile and step time of a program\n");
  if (compiles < 1 || steps < 1 || threads < 0 || replicas < 1) {
    std::fprintf(stderr, "program_bench: --compiles and --steps must be at "
                         "least 1, --replicas at least 1, --host-threads at least 0\n");
    return 2;
  }
  torus::rt::limitParallelForThreads(threads);

  auto text = torus::tools::readProgramText(programPath,
                                            torus::tools::kMaxProgramBytes);
  if (!text.ok())
    return fail(text.status());
  std::vector<torus::HostTensor> inputs;
  for (const std::string &file : inputFiles) {
    auto t = torus::readNpy(file);
    if (!t.ok())
      return fail(t.status());
    inputs.push_back(std::move(*t));
  }

  // Compile: from the text, as a user compiling an exported program does.
  std::vector<double> compileMs;
  std::optional<torus::Executable> exe;
  for (int64_t i = 0; i < compiles; ++i) {
    Clock::time_point start = Clock::now();
    torus::tools::SourceOptions options;
    options.numReplicas = replicas;
    auto source = torus::tools::parseSourceProgram(programPath, *text, options);
    if (!source.ok())
      return fail(source.status());
    torus::CompileOptions compileOptions;
    compileOptions.numReplicas = replicas;
    compileOptions.optLevel = optLevel;
    if (i + 1 == compiles)
      compileOptions.traceFile = compileTrace;
    auto compiled = torus::compile(source->function, compileOptions);
    if (!compiled.ok())
      return fail(compiled.status());
    compileMs.push_back(millisSince(start));
    exe = std::move(*compiled);
  }

  const int64_t numReplicas = exe->numReplicas() * exe->numPartitions();
  auto mesh = torus::EmulatedMesh::create(numReplicas);
  if (!mesh.ok())
    return fail(mesh.status());
  std::vector<std::vector<torus::HostTensor>> perReplica(numReplicas, inputs);
  // Resident (the default): inputs stay on the cores, as JAX's device
  // arrays do; a step is the generated code's run on every core.
  std::optional<torus::LoadedExecutable> loaded;
  if (!copies) {
    auto l = mesh->load(*exe, perReplica);
    if (!l.ok())
      return fail(l.status());
    loaded.emplace(std::move(*l));
  }
  std::vector<double> stepMs;
  for (int64_t i = 0; i < steps + 3; ++i) {
    Clock::time_point start = Clock::now();
    absl::StatusOr<std::vector<std::vector<torus::HostTensor>>> out;
    if (loaded) {
      if (absl::Status s = loaded->step(); !s.ok())
        return fail(s);
    } else {
      out = mesh->run(*exe, perReplica);
      if (!out.ok())
        return fail(out.status());
    }
    if (i >= 3)
      stepMs.push_back(millisSince(start));
    if (i == 0 && !outputDir.empty()) {
      if (loaded)
        out = loaded->outputs();
      if (!out.ok())
        return fail(out.status());
      std::filesystem::create_directories(outputDir.getValue());
      for (size_t k = 0; k < (*out)[0].size(); ++k)
        if (absl::Status s = torus::writeNpy(
                fmt::format("{}/result{}.npy", outputDir.getValue(), k),
                (*out)[0][k]);
            !s.ok())
          return fail(s);
    }
  }

  auto target = torus::rt::defaultCpuTarget("");
  Summary c = summarize(compileMs), s = summarize(stepMs);
  std::printf("{\"cpu\": \"%s\", \"resident\": %s, \"replicas\": %lld, \"threads\": %lld, "
              "\"compile_ms\": {\"min\": %.3f, \"median\": %.3f}, "
              "\"step_ms\": {\"min\": %.4f, \"median\": %.4f}}\n",
              target.ok() ? target->cpu.c_str() : "unknown",
              copies ? "false" : "true",
              static_cast<long long>(numReplicas),
              static_cast<long long>(threads), c.min, c.median, s.min,
              s.median);
  return 0;
}
