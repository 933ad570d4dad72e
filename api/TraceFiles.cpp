//===- TraceFiles.cpp - Where the API writes its traces -------------------===//

#include "api/TraceFiles.h"

#include <fmt/format.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>

namespace torus {

namespace {
const char *traceTo() {
  const char *dir = std::getenv("TORUS_TRACE_TO");
  return dir && *dir ? dir : nullptr;
}
} // namespace

bool traceToIsSet() { return traceTo() != nullptr; }

std::string traceFileFor(const std::string &explicitPath, TraceKind kind,
                         std::string_view name) {
  if (!explicitPath.empty())
    return explicitPath;
  const char *dir = traceTo();
  if (!dir)
    return "";
  static std::atomic<int> nextCompile{0}, nextRun{0};
  const std::string file =
      kind == TraceKind::Compile
          ? fmt::format("module_{:04}.{}.compile.trace.json", nextCompile++,
                        name)
          : fmt::format("run_{:04}.{}.trace.json", nextRun++, name);
  return (std::filesystem::path(dir) / file).string();
}

} // namespace torus
