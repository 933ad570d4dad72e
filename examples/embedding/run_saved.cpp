// Loads a step saved by `train` and runs it once on 8 emulated cores, with
// only the runtime library linked (no compiler, no MLIR).
//
//   run_saved step.torus.json
#include <torus/Compile.h>
#include <torus/EmulatedMesh.h>

#include <cstdio>

using namespace torus;

int main(int argc, char **argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: run_saved <path.torus.json>\n");
    return 2;
  }
  auto exe = Executable::load(argv[1]);
  if (!exe.ok()) {
    std::fprintf(stderr, "load: %s\n", std::string(exe.status().message()).c_str());
    return 1;
  }
  auto mesh = EmulatedMesh::create(exe->numReplicas());
  if (!mesh.ok())
    return 1;
  // At w = 0 with y = x · 1, the loss is mean(y^2) and the step moves w
  // towards 1 on every feature.
  std::vector<std::vector<HostTensor>> inputs;
  for (int64_t r = 0; r < exe->numReplicas(); ++r) {
    HostTensor x(exe->inputs()[1]), y(exe->inputs()[2]);
    auto xs = x.data<float>();
    for (size_t i = 0; i < xs.size(); ++i)
      xs[i] = (i % 3 == 0) ? 1.f : 0.f;
    auto ys = y.data<float>();
    int64_t features = exe->inputs()[1].shape[1];
    for (size_t i = 0; i < ys.size(); ++i)
      for (int64_t j = 0; j < features; ++j)
        ys[i] += xs[i * features + j];
    inputs.push_back({HostTensor(exe->inputs()[0]), x, y});
  }
  auto out = mesh->run(*exe, inputs);
  if (!out.ok()) {
    std::fprintf(stderr, "run: %s\n", std::string(out.status().message()).c_str());
    return 1;
  }
  std::printf("%s on %lld replicas: w = %s, loss = %s\n", exe->name().c_str(),
              static_cast<long long>(exe->numReplicas()),
              (*out)[0][0].toString().c_str(), (*out)[0][1].toString().c_str());
  for (float v : (*out)[0][0].toVector<float>())
    if (!(v > 0.f))
      return 1;
  return 0;
}
