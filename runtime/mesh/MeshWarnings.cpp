//===- MeshWarnings.cpp - Where the mesh unit's warnings go ---------------===//
#include "runtime/mesh/MeshWarnings.h"

#include <cstdio>
#include <mutex>
#include <utility>

#include "fmt/format.h"

namespace torus::rt {
namespace {

std::mutex &handlerMutex() {
  static std::mutex mutex;
  return mutex;
}

MeshWarningHandler &currentHandler() {
  static MeshWarningHandler handler;
  return handler;
}

} // namespace

MeshWarningHandler setMeshWarningHandler(MeshWarningHandler handler) {
  std::lock_guard<std::mutex> lock(handlerMutex());
  return std::exchange(currentHandler(), std::move(handler));
}

void emitMeshWarning(std::string_view message) {
  MeshWarningHandler handler;
  {
    std::lock_guard<std::mutex> lock(handlerMutex());
    handler = currentHandler();
  }
  if (handler) {
    handler(message);
    return;
  }
  fmt::print(stderr, "torus warning: {}\n", message);
}

} // namespace torus::rt
