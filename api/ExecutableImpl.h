//===- ExecutableImpl.h - What an Executable holds --------------*- C++ -*-===//
#ifndef TORUS_API_EXECUTABLEIMPL_H
#define TORUS_API_EXECUTABLEIMPL_H

#include "runtime/executor/Executor.h"
#include "runtime/jit/JitModule.h"
#include "torus/Compile.h"

namespace torus {

struct Executable::Impl {
  std::unique_ptr<rt::JitModule> code; // Owns the memory program.entry is in.
  rt::Program program;
};

} // namespace torus

#endif // TORUS_API_EXECUTABLEIMPL_H
