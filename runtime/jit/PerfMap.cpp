//===- PerfMap.cpp - Names of JIT-compiled functions for perf -------------===//

#include "runtime/jit/PerfMap.h"

#include "llvm/ExecutionEngine/JITLink/JITLink.h"
#include "llvm/ExecutionEngine/Orc/LLJIT.h"
#include "llvm/ExecutionEngine/Orc/ObjectLinkingLayer.h"

#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <mutex>
#include <type_traits>

#include <unistd.h>

namespace torus::rt {

namespace {

/// Appends the callable symbols of each linked graph, once their final
/// addresses are known (after fixups), under one lock for the process.
class PerfMapPlugin : public llvm::orc::ObjectLinkingLayer::Plugin {
public:
  void modifyPassConfig(llvm::orc::MaterializationResponsibility &,
                        llvm::jitlink::LinkGraph &,
                        llvm::jitlink::PassConfiguration &config) override {
    // Internal functions (the compiler makes every function but the entry
    // internal) are local symbols nothing refers to by name, which
    // JITLink's dead-stripping would drop from the graph (not their code):
    // keep them, to name them.
    config.PrePrunePasses.push_back(
        [](llvm::jitlink::LinkGraph &graph) -> llvm::Error {
          for (llvm::jitlink::Symbol *symbol : graph.defined_symbols())
            if (isCode(*symbol) && symbol->hasName())
              symbol->setLive(true);
          return llvm::Error::success();
        });
    config.PostFixupPasses.push_back(
        [](llvm::jitlink::LinkGraph &graph) -> llvm::Error {
          append(graph);
          return llvm::Error::success();
        });
  }
  llvm::Error notifyFailed(llvm::orc::MaterializationResponsibility &) override {
    return llvm::Error::success();
  }
  llvm::Error notifyRemovingResources(llvm::orc::JITDylib &,
                                      llvm::orc::ResourceKey) override {
    return llvm::Error::success();
  }
  void notifyTransferringResources(llvm::orc::JITDylib &,
                                   llvm::orc::ResourceKey,
                                   llvm::orc::ResourceKey) override {}

private:
  /// In an executable section (local functions are not marked callable).
  static bool isCode(const llvm::jitlink::Symbol &symbol) {
    using Prot = std::underlying_type_t<llvm::orc::MemProt>;
    return static_cast<Prot>(symbol.getBlock().getSection().getMemProt()) &
           static_cast<Prot>(llvm::orc::MemProt::Exec);
  }

  static void append(llvm::jitlink::LinkGraph &graph) {
    std::string lines;
    for (llvm::jitlink::Symbol *symbol : graph.defined_symbols())
      if (isCode(*symbol) && symbol->hasName() && symbol->getSize() > 0)
        lines += fmt::format("{:x} {:x} {}\n",
                             symbol->getAddress().getValue(),
                             symbol->getSize(),
                             std::string_view(symbol->getName().data(),
                                              symbol->getName().size()));
    if (lines.empty())
      return;
    static std::mutex mutex;
    std::lock_guard<std::mutex> lock(mutex);
    if (std::FILE *file = std::fopen(perfMapPath().c_str(), "a")) {
      std::fwrite(lines.data(), 1, lines.size(), file);
      std::fclose(file);
    }
  }
};

} // namespace

bool perfMapRequested() { return std::getenv("TORUS_PERF_MAP") != nullptr; }

std::string perfMapPath() {
  return fmt::format("/tmp/perf-{}.map", static_cast<long>(getpid()));
}

bool writePerfMapFor(llvm::orc::LLJIT &jit) {
  auto *layer =
      llvm::dyn_cast<llvm::orc::ObjectLinkingLayer>(&jit.getObjLinkingLayer());
  if (!layer)
    return false;
  layer->addPlugin(std::make_unique<PerfMapPlugin>());
  return true;
}

} // namespace torus::rt
