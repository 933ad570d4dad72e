//===- EmulatedMesh.cpp - A set of emulated TPU cores ---------------------===//

#include "torus/EmulatedMesh.h"
#include "api/ExecutableImpl.h"

namespace torus {

EmulatedMesh::EmulatedMesh(std::unique_ptr<rt::Executor> executor)
    : executor_(std::move(executor)) {}
EmulatedMesh::EmulatedMesh(EmulatedMesh &&) noexcept = default;
EmulatedMesh &EmulatedMesh::operator=(EmulatedMesh &&) noexcept = default;
EmulatedMesh::~EmulatedMesh() = default;

absl::StatusOr<EmulatedMesh> EmulatedMesh::create(int64_t numCores) {
  TORUS_ASSIGN_OR_RETURN(auto executor, rt::Executor::create(numCores));
  return EmulatedMesh(std::move(executor));
}

int64_t EmulatedMesh::numCores() const { return executor_->numCores(); }

absl::StatusOr<std::vector<std::vector<HostTensor>>>
EmulatedMesh::run(const Executable &exe,
                  const std::vector<std::vector<HostTensor>> &inputs) {
  rt::RunOptions options;
  options.numPartitions = exe.numPartitions();
  return executor_->run(exe.impl().program, inputs, options);
}

} // namespace torus
