//===- RuntimeAbi.h - C functions generated code calls ----------*- C++ -*-===//
//
// The only functions JIT-compiled or AOT-compiled programs call into the
// runtime. Each runs on the thread of the emulated core executing the program
// and finds that core through a thread-local context set by the executor, so
// kernels stay plain functions of their buffers.
//
// A failure inside one of these calls (a timeout, a mismatched peer) cannot
// unwind through generated code: it is recorded on the core, the run is
// aborted so no peer waits forever, and the executor returns it as a Status.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_RUNTIME_RUNTIMEABI_H
#define TORUS_RUNTIME_RUNTIMEABI_H

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

extern "C" {
/// HLO `replica-id`: the calling core's replica index.
int32_t __torus_replica_id();
/// HLO `partition-id`: the calling core's logical device (partition) index
/// within its replica.
int32_t __torus_partition_id();
/// Executes collective number `index` of the program's ProgramSpec with the
/// calling core's operand `in` and result `out` buffers.
void __torus_collective(int64_t index, const void *in, void *out);
/// The calling core's workspace of at least `bytes` (64-byte aligned): the
/// buffer the program's planned temporaries are carved from
/// (ProgramSpec::workspaceBytes), allocated by the executor in the core's
/// memory once, not per call. Outside a run, or when the executor's is
/// smaller (a spec that does not state the size), a buffer of the calling
/// thread, allocated on first use and kept.
void *__torus_workspace(int64_t bytes);
/// Kernel spans (code compiled with torus-trace-kernels): the calling core
/// enters the kernel `name` (a constant C string of the code) / leaves it.
/// When the run is traced (RunOptions::trace), the time between is a span
/// on the core's track; otherwise both return at once.
void __torus_kernel_begin(const char *name);
void __torus_kernel_end();
}

namespace torus::rt {
/// Name/address pairs of every ABI function, for a JIT's symbol table.
std::vector<std::pair<std::string_view, void *>> runtimeAbiSymbols();
} // namespace torus::rt

#endif // TORUS_RUNTIME_RUNTIMEABI_H
