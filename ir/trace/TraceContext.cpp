//===- TraceContext.cpp - State of one trace in progress ------------------===//

#include "ir/trace/TraceContext.h"
#include "ir/trace/TracedFunctionImpl.h"

#include <fmt/format.h>

namespace torus {

namespace {
thread_local TraceContext *currentTrace = nullptr;

/// `/a/b/demo.cpp` -> `demo.cpp` keeps messages short; the IR keeps the path.
std::string_view baseName(std::string_view path) {
  size_t slash = path.rfind('/');
  return slash == std::string_view::npos ? path : path.substr(slash + 1);
}
} // namespace

TraceContext::TraceContext(mlir::OpBuilder builder, std::string functionName)
    : builder_(builder), functionName_(std::move(functionName)),
      previous_(currentTrace) {
  currentTrace = this;
}

TraceContext::~TraceContext() { currentTrace = previous_; }

TraceContext *TraceContext::current() { return currentTrace; }

mlir::Location TraceContext::location(const Loc &loc) {
  if (loc.line() == 0)
    return mlir::NameLoc::get(builder_.getStringAttr(functionName_));
  return mlir::FileLineColLoc::get(builder_.getStringAttr(loc.file_name()),
                                   loc.line(), loc.column());
}

Tensor TraceContext::wrap(mlir::Value value) {
  auto spec = fromMlirType(value.getType());
  values_.push_back(value);
  specs_.push_back(spec.value_or(TensorSpec{}));
  return Tensor(this, static_cast<int64_t>(values_.size()) - 1);
}

bool TraceContext::visible(const Tensor &t) {
  mlir::Region *defined = value(t).getParentRegion();
  mlir::Block *block = builder_.getInsertionBlock();
  return !block || !defined || defined->isAncestor(block->getParent());
}

Tensor TraceContext::fail(const Loc &loc, const std::string &opName,
                          const std::string &message) {
  if (!error_) {
    std::string where =
        loc.line() ? fmt::format(" (at {}:{})", baseName(loc.file_name()),
                                 loc.line())
                   : std::string();
    error_ = fmt::format("while tracing '{}': {}: {}{}", functionName_, opName,
                         message, where);
  }
  return Tensor();
}

} // namespace torus
