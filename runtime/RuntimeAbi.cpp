//===- RuntimeAbi.cpp - C functions generated code calls ------------------===//

#include "runtime/RuntimeAbi.h"
#include "runtime/ParallelFor.h"

#include "runtime/executor/CoreContext.h"
#include "runtime/trace/TraceRecorder.h"

#include <cstdio>
#include <cstdlib>

using torus::rt::CoreContext;

namespace {
/// The ABI is only meaningful on a core's thread during a run. Generated code
/// calling it elsewhere is a runtime bug with no caller to return to.
CoreContext &currentOrDie(const char *function) {
  CoreContext *context = CoreContext::current();
  if (!context) {
    std::fprintf(stderr,
                 "torus: %s called outside a run (no emulated core on this "
                 "thread)\n",
                 function);
    std::abort();
  }
  return *context;
}
} // namespace

extern "C" int32_t __torus_replica_id() {
  return static_cast<int32_t>(currentOrDie("__torus_replica_id").replicaId());
}

extern "C" int32_t __torus_partition_id() {
  return static_cast<int32_t>(
      currentOrDie("__torus_partition_id").partitionId());
}

extern "C" void __torus_collective(int64_t index, const void *in, void *out) {
  CoreContext &context = currentOrDie("__torus_collective");
  absl::Status status = context.executeCollective(index, in, out);
  // Cannot unwind through generated code: record, abort the run (waking the
  // peers) and let the program run on to its end; run() reports the error.
  if (!status.ok())
    context.fail(status);
}

extern "C" void *__torus_workspace(int64_t bytes) {
  const size_t size = bytes > 0 ? static_cast<size_t>(bytes) : 1;
  if (CoreContext *context = CoreContext::current())
    if (void *workspace = context->workspace(size))
      return workspace;
  struct Fallback {
    void *data = nullptr;
    size_t size = 0;
    ~Fallback() { std::free(data); }
  };
  thread_local Fallback fallback;
  if (fallback.size < size) {
    std::free(fallback.data);
    fallback.size = (size + 63) / 64 * 64;
    fallback.data = std::aligned_alloc(64, fallback.size);
    if (!fallback.data) {
      std::fprintf(stderr, "torus: cannot allocate a workspace of %zu bytes\n",
                   fallback.size);
      std::abort();
    }
  }
  return fallback.data;
}

namespace {
/// The kernel the calling core is in, between begin and end (kernels do
/// not nest: a kernel's ops make no calls into the runtime).
struct OpenKernel {
  const char *name = nullptr;
  int64_t start = 0;
};
thread_local OpenKernel openKernel;
} // namespace

extern "C" void __torus_kernel_begin(const char *name) {
  const torus::rt::TraceTrack *track = torus::rt::TraceTrack::current();
  if (!track)
    return;
  openKernel = {name, track->recorder().now()};
}

extern "C" void __torus_kernel_end() {
  const torus::rt::TraceTrack *track = torus::rt::TraceTrack::current();
  if (!track || !openKernel.name)
    return;
  torus::rt::TraceRecorder &recorder = track->recorder();
  recorder.addSpan(track->pid(), track->tid(), openKernel.name, "kernel",
                   openKernel.start, recorder.now() - openKernel.start);
  openKernel.name = nullptr;
}

namespace torus::rt {
std::vector<std::pair<std::string_view, void *>> runtimeAbiSymbols() {
  return {
      {"__torus_replica_id", reinterpret_cast<void *>(&__torus_replica_id)},
      {"__torus_partition_id",
       reinterpret_cast<void *>(&__torus_partition_id)},
      {"__torus_collective", reinterpret_cast<void *>(&__torus_collective)},
      {"__torus_parallel_for",
       reinterpret_cast<void *>(&__torus_parallel_for)},
      {"__torus_workspace", reinterpret_cast<void *>(&__torus_workspace)},
      {"__torus_kernel_begin",
       reinterpret_cast<void *>(&__torus_kernel_begin)},
      {"__torus_kernel_end", reinterpret_cast<void *>(&__torus_kernel_end)},
  };
}
} // namespace torus::rt
