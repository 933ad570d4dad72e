//===- Progress.cpp - One line per phase of a long compile (-v) -----------===//

#include "tools/common/Progress.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/Pass.h"
#include "mlir/Pass/PassInstrumentation.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <mutex>
#include <set>

namespace torus::tools {

namespace {

/// Counts the distinct passes (not the adaptors running nested pipelines)
/// run under a pass manager.
class PassCounter : public mlir::PassInstrumentation {
public:
  explicit PassCounter(std::shared_ptr<int64_t> count)
      : count_(std::move(count)) {}
  void runAfterPass(mlir::Pass *pass, mlir::Operation *) override {
    if (pass->getArgument().empty() &&
        pass->getName().contains("OpToOpPassAdaptor"))
      return;
    std::lock_guard<std::mutex> lock(mutex_);
    if (seen_.insert(pass).second)
      ++*count_;
  }

private:
  std::shared_ptr<int64_t> count_;
  std::mutex mutex_;
  std::set<mlir::Pass *> seen_;
};

std::string elapsed(std::chrono::steady_clock::duration d) {
  const double ms =
      std::chrono::duration<double, std::milli>(d).count();
  return ms >= 1000 ? fmt::format("{:.2f} s", ms / 1000)
                    : fmt::format("{:.1f} ms", ms);
}

} // namespace

Progress::Progress(std::string tool, bool enabled)
    : tool_(std::move(tool)), enabled_(enabled) {}

void Progress::begin(std::string what) {
  if (!enabled_)
    return;
  if (open_)
    done();
  what_ = std::move(what);
  open_ = true;
  start_ = std::chrono::steady_clock::now();
}

void Progress::done(std::string what) {
  if (!enabled_ || !open_)
    return;
  open_ = false;
  llvm::errs() << fmt::format("{}: {}: {}\n", tool_,
                              what.empty() ? what_ : what,
                              elapsed(std::chrono::steady_clock::now() -
                                      start_));
  llvm::errs().flush();
}

void Progress::watch(mlir::torus::CompilerOptions &options,
                     bool translates) {
  if (!enabled_)
    return;
  auto configure = options.configurePassManager;
  options.configurePassManager = [this, configure](mlir::PassManager &pm) {
    if (configure)
      configure(pm);
    *passes_ = 0;
    pm.addInstrumentation(std::make_unique<PassCounter>(passes_));
    begin("running passes");
  };
  auto afterStage = options.afterStage;
  options.afterStage = [this, afterStage, translates](
                           mlir::torus::Stage stage, mlir::ModuleOp module) {
    if (afterStage)
      afterStage(stage, module);
    if (stage == mlir::torus::Stage::Torus)
      return; // verified input: no passes ran
    done(fmt::format("running {} pass{} (to {})", *passes_,
                     *passes_ == 1 ? "" : "es",
                     mlir::torus::stageName(stage)));
    if (stage == mlir::torus::Stage::Bufferized) {
      llvm::StringSet<> kernels;
      module.walk([&](mlir::Operation *op) {
        if (auto name = op->getAttrOfType<mlir::StringAttr>("torus.kernel"))
          kernels.insert(name.getValue());
      });
      kernels_ = static_cast<int64_t>(kernels.size());
    }
    if (stage == mlir::torus::Stage::LLVMDialect && translates)
      begin(kernels_ >= 0 ? fmt::format("codegen: {} kernel{}, LLVM IR",
                                        kernels_, kernels_ == 1 ? "" : "s")
                          : std::string("codegen: LLVM IR"));
  };
}

} // namespace torus::tools
