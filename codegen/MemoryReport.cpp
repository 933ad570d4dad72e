//===- MemoryReport.cpp - Per-core memory of a bufferized program ---------===//

#include "codegen/MemoryReport.h"
#include "ir/DiagnosticCollector.h"
#include "ir/TorusDialect.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/LLVMIR/LLVMDialect.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/Interfaces/DestinationStyleOpInterface.h"
#include "mlir/Interfaces/ViewLikeInterface.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/SmallPtrSet.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <algorithm>

namespace mlir::torus {

namespace {

/// `f32[2,3]` for a static memref; MLIR's spelling otherwise.
std::string typeString(MemRefType type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (type.hasStaticShape()) {
    os << type.getElementType() << "[";
    llvm::interleave(type.getShape(), os, ",");
    os << "]";
  } else {
    os << type;
  }
  return text;
}

std::optional<int64_t> byteSize(MemRefType type) {
  if (!type.hasStaticShape())
    return std::nullopt;
  unsigned bits = type.getElementTypeBitWidth();
  int64_t elementBytes = std::max<int64_t>(1, (bits + 7) / 8);
  return type.getNumElements() * elementBytes;
}

/// The buffer `value` is a view of, or a pointer into: through view-like
/// ops, casts, `extract_strided_metadata`'s base buffer and the aligned
/// pointer generated code passes to runtime calls.
Value rootBuffer(Value value) {
  while (Operation *def = value.getDefiningOp()) {
    if (TorusDialect::OffsetAttrHelper(def->getContext()).isAttrPresent(def))
      break; // A temporary of the buffer plan: a buffer of its own.
    if (auto view = dyn_cast<ViewLikeOpInterface>(def))
      value = view.getViewSource();
    else if (auto meta = dyn_cast<memref::ExtractStridedMetadataOp>(def))
      value = meta.getSource();
    else if (auto cast = dyn_cast<memref::CastOp>(def))
      value = cast.getSource();
    else if (auto pointer =
                 dyn_cast<memref::ExtractAlignedPointerAsIndexOp>(def))
      value = pointer.getSource();
    else if (isa<arith::IndexCastOp, LLVM::IntToPtrOp>(def))
      value = def->getOperand(0);
    else
      break;
  }
  return value;
}

/// The op that computes the buffer's contents: the first destination-style
/// op writing into it other than a fill, else its first user.
std::string producerOf(Value buffer) {
  Operation *first = nullptr;
  for (Operation *user : buffer.getUsers()) {
    if (!first || (user->getBlock() == first->getBlock() &&
                   user->isBeforeInBlock(first)))
      first = user;
    if (auto dps = dyn_cast<DestinationStyleOpInterface>(user)) {
      if (isa<linalg::FillOp>(user))
        continue;
      for (OpOperand &init : dps.getDpsInitsMutable())
        if (init.get() == buffer)
          return user->getName().getStringRef().str();
    }
    if (isa<func::CallOp>(user))
      return "call @" + cast<func::CallOp>(user).getCallee().str();
  }
  return first ? first->getName().getStringRef().str() : "(unused)";
}

std::string kindName(BufferInfo::Kind kind) {
  switch (kind) {
  case BufferInfo::Kind::Input:
    return "input";
  case BufferInfo::Kind::Output:
    return "output";
  case BufferInfo::Kind::Temporary:
    return "temp";
  }
  return "?";
}

} // namespace

std::string formatBytes(int64_t bytes) {
  const char *units[] = {"B", "KiB", "MiB", "GiB", "TiB"};
  double value = static_cast<double>(bytes);
  int unit = 0;
  while (value >= 1024 && unit < 4) {
    value /= 1024;
    ++unit;
  }
  if (unit == 0)
    return fmt::format("{} B", bytes);
  return fmt::format("{:.2f} {} ({} bytes)", value, units[unit], bytes);
}

namespace {

/// The largest sum of `bytes` over intervals [from[i], until[i]] that
/// overlap, by a sweep over program positions 1..last.
TemporaryPeak sweep(const std::vector<BufferInfo> &buffers,
                    const std::vector<size_t> &temporaries,
                    const std::vector<int64_t> &until, int64_t last) {
  TemporaryPeak peak;
  int64_t current = 0;
  std::vector<size_t> alive;
  for (int64_t p = 1; p <= last; ++p) {
    bool grew = false;
    for (size_t t = 0; t < temporaries.size(); ++t) {
      const BufferInfo &b = buffers[temporaries[t]];
      if (b.liveFrom == p) {
        current += b.bytes;
        alive.push_back(temporaries[t]);
        grew = true;
      }
    }
    if (grew && current > peak.bytes) {
      peak.bytes = current;
      peak.alive = alive;
      for (size_t i : alive)
        if (buffers[i].liveFrom == p)
          peak.location = buffers[i].location;
    }
    for (size_t t = 0; t < temporaries.size(); ++t) {
      if (until[t] != p)
        continue;
      current -= buffers[temporaries[t]].bytes;
      alive.erase(std::find(alive.begin(), alive.end(), temporaries[t]));
    }
  }
  return peak;
}

} // namespace

namespace {

/// The steps of analyzeMemory over one entry function, in order: its
/// arguments, program positions, temporaries, their frees and uses, the
/// peaks, and the buffers sorted largest first.
class MemoryAnalysis {
public:
  MemoryAnalysis(ModuleOp module, func::FuncOp entry, int64_t numInputs)
      : module(module), entry(entry), numInputs(numInputs) {}

  MemoryReport run() {
    report.function = entry.getName().str();
    findWorkspace();
    addArguments();
    numberOps();
    addTemporaries();
    recordFreesAndUses();
    computePeaks();
    sortLargestFirst();
    return std::move(report);
  }

private:
  /// The buffer plan's workspace, the last argument (torus-plan-buffers).
  void findWorkspace() {
    if (IntegerAttr bytes =
            TorusDialect::WorkspaceBytesAttrHelper(entry.getContext())
                .getAttr(entry);
        bytes && bytes.getInt() > 0 && entry.getNumArguments() > 0) {
      report.workspaceBytes = bytes.getInt();
      workspace = entry.getArgument(entry.getNumArguments() - 1);
    }
  }

  /// Arguments: inputs, then the outputs buffer-results-to-out-params added.
  void addArguments() {
    std::string functionLocation = formatLocation(entry.getLoc());
    for (BlockArgument arg : entry.getArguments()) {
      auto type = dyn_cast<MemRefType>(arg.getType());
      if (!type || arg == workspace)
        continue;
      BufferInfo info;
      bool isInput = numInputs < 0 || arg.getArgNumber() < numInputs;
      info.kind = isInput ? BufferInfo::Kind::Input : BufferInfo::Kind::Output;
      info.index =
          isInput ? arg.getArgNumber() : arg.getArgNumber() - numInputs;
      info.type = typeString(type);
      auto bytes = byteSize(type);
      if (!bytes) {
        report.exact = false;
        report.notes.push_back(fmt::format(
            "argument {} has a dynamic shape ({}) and is not counted",
            arg.getArgNumber(), info.type));
      }
      info.bytes = bytes.value_or(0);
      info.location = functionLocation;
      info.producer = "(argument)";
      (isInput ? report.inputBytes : report.outputBytes) += info.bytes;
      report.buffers.push_back(std::move(info));
    }
  }

  /// Program order. A use inside a nested region counts at the end of the
  /// top-level op holding it (a loop uses its buffers until it ends).
  void numberOps() {
    entry.walk<WalkOrder::PreOrder>([&](Operation *op) {
      if (op != entry.getOperation())
        position[op] = ++last;
    });
    for (Operation &top : entry.getBody().front()) {
      int64_t end = position[&top];
      top.walk(
          [&](Operation *inner) { end = std::max(end, position[inner]); });
      topLevelEnd[&top] = end;
    }
  }

  int64_t useEnd(Operation *op) {
    Operation *top = op;
    while (top->getParentOp() != entry.getOperation())
      top = top->getParentOp();
    return topLevelEnd[top];
  }

  /// Temporaries, in program order: allocations and the buffer plan's
  /// views of the workspace.
  void addTemporaries() {
    int64_t count = 0;
    TorusDialect::BufferAttrHelper bufferAttr(entry.getContext());
    TorusDialect::OffsetAttrHelper offsetAttr(entry.getContext());
    entry.walk<WalkOrder::PreOrder>([&](Operation *op) {
      auto view = dyn_cast<memref::ViewOp>(op);
      const bool planned = view && workspace && view.getSource() == workspace;
      if (!planned && !isa<memref::AllocOp, memref::AllocaOp>(op))
        return;
      BufferInfo info;
      info.kind = BufferInfo::Kind::Temporary;
      info.index = count++;
      if (planned) {
        info.planned = true;
        if (IntegerAttr index = bufferAttr.getAttr(op))
          info.index = index.getInt();
        if (IntegerAttr offset = offsetAttr.getAttr(op))
          info.offset = offset.getInt();
        ++report.numPlanned;
      } else {
        unplanned.push_back(report.buffers.size());
      }
      addTemporary(op, std::move(info));
    });
  }

  void addTemporary(Operation *op, BufferInfo info) {
    Value buffer = op->getResult(0);
    auto type = cast<MemRefType>(buffer.getType());
    info.type = typeString(type);
    info.location = formatLocation(op->getLoc());
    info.producer = producerOf(buffer);
    if (isa<memref::AllocaOp>(op))
      info.producer += " (stack)";
    info.liveFrom = info.lastUse = position[op];
    info.liveUntil = last; // Unless freed.
    auto bytes = byteSize(type);
    if (!bytes) {
      report.exact = false;
      report.notes.push_back(fmt::format(
          "{}: a buffer of dynamic shape {} is not counted", info.location,
          info.type));
    }
    info.bytes = bytes.value_or(0);
    if (op->getParentOp() != entry.getOperation()) {
      report.exact = false;
      report.notes.push_back(fmt::format(
          "{}: {} allocated inside '{}' is counted once", info.location,
          info.type, op->getParentOp()->getName().getStringRef().str()));
    }
    report.totalTemporaryBytes += info.bytes;
    temporaryOf[buffer] = report.buffers.size();
    if (info.planned)
      info.producer += fmt::format(" @{}", info.offset);
    temporaries.push_back(report.buffers.size());
    report.buffers.push_back(std::move(info));
  }

  /// Frees end a temporary's life; uses extend its last use.
  void recordFreesAndUses() {
    llvm::SmallPtrSet<Operation *, 4> notedCallees;
    entry.walk([&](Operation *op) {
      if (auto dealloc = dyn_cast<memref::DeallocOp>(op)) {
        recordFree(dealloc);
        return;
      }
      if (auto call = dyn_cast<func::CallOp>(op)) {
        auto callee = module.lookupSymbol<func::FuncOp>(call.getCallee());
        if (callee && !callee.isExternal() &&
            notedCallees.insert(callee).second) {
          report.exact = false;
          report.notes.push_back(
              fmt::format("buffers allocated inside @{} are not counted",
                          callee.getName().str()));
        }
      }
      for (Value operand : op->getOperands()) {
        auto it = temporaryOf.find(rootBuffer(operand));
        if (it == temporaryOf.end())
          continue;
        BufferInfo &info = report.buffers[it->second];
        info.lastUse = std::max(info.lastUse, useEnd(op));
      }
    });
  }

  void recordFree(memref::DeallocOp dealloc) {
    auto it = temporaryOf.find(rootBuffer(dealloc.getMemref()));
    if (it == temporaryOf.end())
      return;
    Operation *op = dealloc.getOperation();
    report.buffers[it->second].liveUntil =
        std::min(report.buffers[it->second].liveUntil, position[op] - 1);
    if (op->getParentOp() != entry.getOperation() && report.exact) {
      report.exact = false;
      report.notes.push_back(
          fmt::format("{}: a conditional free is taken as always happening",
                      formatLocation(dealloc.getLoc())));
    }
  }

  /// The peaks as generated (unplanned buffers live until freed) and by
  /// liveness (every temporary dead after its last use).
  void computePeaks() {
    std::vector<int64_t> freedAt, deadAt;
    for (size_t t : temporaries) {
      BufferInfo &b = report.buffers[t];
      if (b.planned) // Its bytes are reused after its last use.
        b.liveUntil = b.lastUse;
      deadAt.push_back(b.lastUse);
    }
    for (size_t t : unplanned)
      freedAt.push_back(report.buffers[t].liveUntil);
    report.asGenerated = sweep(report.buffers, unplanned, freedAt, last);
    report.byLiveness = sweep(report.buffers, temporaries, deadAt, last);
  }

  /// Largest first; keep program order among equals. Peaks follow.
  void sortLargestFirst() {
    std::vector<size_t> order(report.buffers.size());
    for (size_t i = 0; i < order.size(); ++i)
      order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
      return report.buffers[a].bytes > report.buffers[b].bytes;
    });
    std::vector<size_t> newIndex(order.size());
    std::vector<BufferInfo> sorted;
    for (size_t i = 0; i < order.size(); ++i) {
      newIndex[order[i]] = i;
      sorted.push_back(std::move(report.buffers[order[i]]));
    }
    report.buffers = std::move(sorted);
    for (TemporaryPeak *peak : {&report.asGenerated, &report.byLiveness}) {
      for (size_t &i : peak->alive)
        i = newIndex[i];
      std::sort(peak->alive.begin(), peak->alive.end());
    }
  }

  ModuleOp module;
  func::FuncOp entry;
  int64_t numInputs;
  MemoryReport report;
  Value workspace;
  llvm::DenseMap<Operation *, int64_t> position;
  llvm::DenseMap<Operation *, int64_t> topLevelEnd;
  int64_t last = 0;
  llvm::DenseMap<Value, size_t> temporaryOf; // alloc result -> buffers index
  std::vector<size_t> temporaries;
  std::vector<size_t> unplanned;
};

} // namespace

absl::StatusOr<MemoryReport> analyzeMemory(ModuleOp module,
                                           int64_t numInputs) {
  func::FuncOp entry;
  for (auto fn : module.getOps<func::FuncOp>())
    if (fn.isPublic() && !fn.isExternal()) {
      entry = fn;
      break;
    }
  if (!entry)
    return absl::InvalidArgumentError(
        "memory report: the module has no public function with a body");
  return MemoryAnalysis(module, entry, numInputs).run();
}

::torus::MemoryReport summarizeMemory(const MemoryReport &r,
                                      int64_t numCores) {
  ::torus::MemoryReport summary;
  summary.inputBytes = r.inputBytes;
  summary.outputBytes = r.outputBytes;
  summary.workspaceBytes = r.workspaceBytes;
  summary.temporaryPeakBytes = r.asGenerated.bytes;
  summary.temporaryPeakLocation = r.asGenerated.location;
  summary.peakBytes = r.peakBytes();
  summary.livenessPeakBytes = r.livenessPeakBytes();
  summary.numCores = numCores;
  summary.exact = r.exact;
  summary.notes = r.notes;
  return summary;
}

std::string formatMemoryReport(const MemoryReport &r, int64_t numCores,
                               std::optional<int64_t> capacityBytes,
                               size_t maxBuffers) {
  const ::torus::MemoryReport summary = summarizeMemory(r, numCores);
  std::string out;
  out += fmt::format("Memory of @{} on one core ({} core{} run it, each "
                     "needing the same)\n",
                     r.function, numCores, numCores == 1 ? "" : "s");
  out += fmt::format("Read from the bufferized IR; {}.\n\n",
                     r.exact ? "exact for this program"
                             : "an estimate (see the notes)");
  int64_t peak = summary.peakBytes;
  auto at = [](const TemporaryPeak &p) {
    return p.location.empty() ? std::string()
                              : fmt::format("  (reached at {})", p.location);
  };
  out += fmt::format("  peak per core             {}\n", formatBytes(peak));
  out += fmt::format("    inputs                  {}\n",
                     formatBytes(r.inputBytes));
  out += fmt::format("    outputs                 {}\n",
                     formatBytes(r.outputBytes));
  if (r.workspaceBytes > 0)
    out += fmt::format("    workspace               {}  (buffer plan: {} "
                       "temporar{} at offsets fixed at compile time, "
                       "allocated once per core)\n",
                       formatBytes(r.workspaceBytes), r.numPlanned,
                       r.numPlanned == 1 ? "y" : "ies");
  out += fmt::format("    {:<24}{}{}\n",
                     r.workspaceBytes > 0 ? "unplanned temporaries"
                                          : "temporaries at peak",
                     formatBytes(r.asGenerated.bytes), at(r.asGenerated));
  out += fmt::format("  peak by liveness          {}  (if each temporary "
                     "were freed after its last use)\n",
                     formatBytes(summary.livenessPeakBytes));
  out += fmt::format("    temporaries at peak     {}{}\n",
                     formatBytes(r.byLiveness.bytes), at(r.byLiveness));
  out += fmt::format("  all temporaries, summed   {}  (the peak if none "
                     "were freed)\n",
                     formatBytes(r.totalTemporaryBytes));
  if (numCores > 1)
    out += fmt::format("  {:<24}  {}\n", fmt::format("all {} cores", numCores),
                       formatBytes(summary.totalBytes()));
  if (capacityBytes && *capacityBytes > 0)
    out += fmt::format("  core memory capacity      {}  ({:.4f}% used at "
                       "the peak){}\n",
                       formatBytes(*capacityBytes),
                       100.0 * static_cast<double>(peak) /
                           static_cast<double>(*capacityBytes),
                       peak > *capacityBytes ? "  DOES NOT FIT" : "");

  out += fmt::format("\nLargest buffers ({} of {}); live ranges are "
                     "operation numbers in @{}:\n",
                     std::min(maxBuffers, r.buffers.size()), r.buffers.size(),
                     r.function);
  out += fmt::format("  {:<10} {:<20} {:>12}  {:<17} {:<24} {}\n", "buffer",
                     "type", "bytes", "alloc/last/free", "produced by",
                     "location");
  for (size_t i = 0; i < r.buffers.size() && i < maxBuffers; ++i) {
    const BufferInfo &b = r.buffers[i];
    std::string range =
        b.kind == BufferInfo::Kind::Temporary
            ? fmt::format("{}/{}/{}", b.liveFrom, b.lastUse, b.liveUntil + 1)
            : "whole run";
    out += fmt::format("  {:<10} {:<20} {:>12}  {:<17} {:<24} {}\n",
                       fmt::format("{} {}", kindName(b.kind), b.index), b.type,
                       b.bytes, range, b.producer, b.location);
  }
  auto listAlive = [&](const TemporaryPeak &p, std::string_view title) {
    if (p.alive.empty())
      return;
    out += fmt::format("\n{}:\n", title);
    for (size_t i : p.alive) {
      const BufferInfo &b = r.buffers[i];
      out += fmt::format("  temp {:<5} {:<20} {:>12}  {}\n", b.index, b.type,
                         b.bytes, b.location);
    }
  };
  listAlive(r.asGenerated, "Temporaries allocated at the peak");
  listAlive(r.byLiveness, "Temporaries alive at the peak by liveness");
  out += "\nNotes:\n";
  for (const std::string &note : r.notes)
    out += "  - " + note + "\n";
  out += "  - inputs, outputs and the workspace live in the core's memory "
         "for the whole run; temporaries the buffer plan left are allocated "
         "by the generated code per call (from the host heap) and counted "
         "here as the core's.\n";
  out += "  - the deallocation pass frees temporaries at the end of their "
         "block, so the peak as generated can exceed the peak by liveness.\n";
  return out;
}

} // namespace mlir::torus
