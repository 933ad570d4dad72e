//===- DotGraph.cpp - A torus-level program as a Graphviz graph -----------===//

#include "codegen/DotGraph.h"
#include "ir/DiagnosticCollector.h"
#include "ir/Sharding.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/Support/raw_ostream.h"

#include <fmt/format.h>

#include <map>

namespace mlir::torus {

namespace {

/// The torus dialect's sharding (ir/Sharding.h), or another dialect's.
constexpr std::string_view kShardingAttrs[] = {
    {kShardingAttrName.data(), kShardingAttrName.size()}, "sharding"};
/// Where propagation says a sharding came from (passes/ShardingPropagation).
constexpr std::string_view kOriginAttr{kShardingOriginAttrName.data(),
                                       kShardingOriginAttrName.size()};
// ColorBrewer's Set3: pale, distinct, readable under black text.
constexpr const char *kPalette[] = {
    "#8dd3c7", "#ffffb3", "#bebada", "#fb8072", "#80b1d3", "#fdb462",
    "#b3de69", "#fccde5", "#d9d9d9", "#bc80bd", "#ccebc5", "#ffed6f"};
constexpr size_t kMaxAttrText = 60;

std::string escape(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '"' || c == '\\')
      out.push_back('\\');
    if (c == '\n') {
      out += "\\n";
      continue;
    }
    out.push_back(c);
  }
  return out;
}

std::string attrText(Attribute attr) {
  if (auto s = dyn_cast<StringAttr>(attr))
    return s.getValue().str();
  std::string text;
  llvm::raw_string_ostream os(text);
  attr.print(os, /*elideType=*/true);
  return text;
}

/// A sharding as HLO writes it: `{devices=[2,2]<=[4]}`, whether it is a
/// string or a `#torus.sharding<...>` attribute.
std::string shardingText(Attribute attr) {
  std::string text = attrText(attr);
  std::string_view prefix = "#torus.sharding<";
  if (text.rfind(prefix, 0) == 0 && text.size() > prefix.size() &&
      text.back() == '>')
    text = text.substr(prefix.size(), text.size() - prefix.size() - 1);
  if (text.size() >= 2 && text.front() == '"' && text.back() == '"')
    text = text.substr(1, text.size() - 2);
  return text;
}

std::string truncate(std::string text) {
  if (text.size() > kMaxAttrText)
    text = text.substr(0, kMaxAttrText - 3) + "...";
  return text;
}

/// `f32[2,3]` for a ranked tensor, MLIR's spelling otherwise.
std::string typeText(Type type) {
  std::string text;
  llvm::raw_string_ostream os(text);
  if (auto ranked = dyn_cast<RankedTensorType>(type)) {
    os << ranked.getElementType() << "[";
    llvm::interleave(ranked.getShape(), os, ",");
    os << "]";
  } else {
    os << type;
  }
  return text;
}

Attribute shardingOf(DictionaryAttr attrs) {
  if (!attrs)
    return {};
  for (std::string_view name : kShardingAttrs)
    if (Attribute a = attrs.get(name))
      return a;
  return {};
}

class Writer {
public:
  std::string run(func::FuncOp fn) {
    os_ << "digraph \"" << escape(fn.getName()) << "\" {\n"
        << "  rankdir=TB;\n"
        << "  node [fontname=\"monospace\", fontsize=10];\n"
        << "  edge [fontname=\"monospace\", fontsize=9];\n"
        << "  label=\"@" << escape(fn.getName()) << " ("
        << escape(formatLocation(fn.getLoc())) << ")\";\n  labelloc=t;\n";

    for (BlockArgument arg : fn.getArguments()) {
      std::string id = fmt::format("arg{}", arg.getArgNumber());
      names_[arg] = id;
      Attribute sharding = shardingOf(fn.getArgAttrDict(arg.getArgNumber()));
      node(id,
           fmt::format("argument {}\n{}{}", arg.getArgNumber(),
                       typeText(arg.getType()), shardingLine(sharding)),
           "ellipse", sharding);
    }
    int counter = 0;
    for (Operation &op : fn.getBody().front()) {
      if (auto ret = dyn_cast<func::ReturnOp>(op)) {
        for (auto [i, value] : llvm::enumerate(ret.getOperands())) {
          std::string id = fmt::format("result{}", i);
          Attribute sharding = shardingOf(fn.getResultAttrDict(i));
          node(id,
               fmt::format("result {}\n{}{}", i, typeText(value.getType()),
                           shardingLine(sharding)),
               "ellipse", sharding);
          edge(value, id);
        }
        continue;
      }
      std::string id = fmt::format("op{}", counter++);
      for (Value result : op.getResults())
        names_[result] = id;
      node(id, opLabel(op), "box", opSharding(op));
      for (Value operand : op.getOperands())
        edge(operand, id);
    }
    legend();
    os_ << "}\n";
    return text_;
  }

private:
  static std::string shardingLine(Attribute sharding) {
    return sharding ? wrap("sharding = " + shardingText(sharding)) : "";
  }

  Attribute opSharding(Operation &op) {
    for (std::string_view name : kShardingAttrs)
      if (Attribute a = op.getDiscardableAttr(name))
        return a;
    // An op defining `sharding` itself (inherent) is coloured too.
    if (Attribute a = op.getInherentAttr("sharding").value_or(Attribute()))
      return a;
    return {};
  }

  /// The op's name, then its own syntax without results and types
  /// (`sum %0 {replica_groups = ...}`), wrapped; sharding; location.
  std::string opLabel(Operation &op) {
    std::string label = op.getName().getStringRef().str();
    std::string text;
    {
      // The sharding gets its own line: printed without it, then restored.
      SmallVector<NamedAttribute> removed;
      for (std::string_view attr :
           {kShardingAttrs[0], kShardingAttrs[1], kOriginAttr})
        if (Attribute value = op.getDiscardableAttr(attr)) {
          removed.emplace_back(StringAttr::get(op.getContext(), attr), value);
          op.removeDiscardableAttr(attr);
        }
      llvm::raw_string_ostream os(text);
      op.print(os, OpPrintingFlags()
                       .useLocalScope()
                       .skipRegions()
                       .elideLargeElementsAttrs(8)
                       .assumeVerified());
      for (NamedAttribute attr : removed)
        op.setDiscardableAttr(attr.getName(), attr.getValue());
    }
    // Drop `%r = ` and the op name before, ` : types` after.
    size_t name = text.find(label);
    if (name != std::string::npos)
      text = text.substr(name + label.size());
    size_t types = text.rfind(" : ");
    if (types != std::string::npos)
      text = text.substr(0, types);
    label += wrap(text);
    int nested = 0;
    for (Region &region : op.getRegions())
      region.walk([&](Operation *) { ++nested; });
    if (nested)
      label += fmt::format("\n({} nested ops)", nested);
    label += shardingLine(opSharding(op));
    if (auto origin = op.getAttrOfType<StringAttr>(kOriginAttr))
      label += wrap("(" + origin.getValue().str() + ")");
    label += "\n" + formatLocation(op.getLoc());
    return label;
  }

  /// `text` in lines of about 48 characters, each starting with "\n".
  static std::string wrap(std::string_view text) {
    std::string out, line;
    size_t start = 0;
    while (start < text.size()) {
      size_t space = text.find(' ', start);
      std::string_view word =
          text.substr(start, space == std::string_view::npos
                                 ? std::string_view::npos
                                 : space - start);
      if (!line.empty() && line.size() + word.size() + 1 > 48) {
        out += "\n" + line;
        line.clear();
      }
      if (!word.empty())
        line += (line.empty() ? "" : " ") + std::string(word);
      if (space == std::string_view::npos)
        break;
      start = space + 1;
    }
    if (!line.empty())
      out += "\n" + line;
    return out;
  }

  std::string colourOf(Attribute sharding) {
    std::string key = shardingText(sharding);
    auto it = colours_.find(key);
    if (it != colours_.end())
      return it->second;
    std::string colour = kPalette[colours_.size() % std::size(kPalette)];
    colours_.emplace(key, colour);
    order_.push_back(key);
    return colour;
  }

  void node(const std::string &id, const std::string &label,
            const char *shape, Attribute sharding) {
    os_ << "  " << id << " [shape=" << shape << ", label=\"" << escape(label)
        << "\"";
    if (sharding)
      os_ << ", style=filled, fillcolor=\"" << colourOf(sharding) << "\"";
    os_ << "];\n";
  }

  void edge(Value from, const std::string &to) {
    auto it = names_.find(from);
    if (it == names_.end())
      return; // Defined in an enclosing region; not drawn.
    os_ << "  " << it->second << " -> " << to << " [label=\""
        << escape(typeText(from.getType())) << "\"];\n";
  }

  void legend() {
    if (order_.empty())
      return;
    os_ << "  subgraph cluster_legend {\n    label=\"shardings\";\n"
        << "    fontname=\"monospace\";\n";
    for (size_t i = 0; i < order_.size(); ++i)
      os_ << "    legend" << i << " [shape=box, style=filled, fillcolor=\""
          << colours_[order_[i]] << "\", label=\"" << escape(order_[i])
          << "\"];\n";
    os_ << "  }\n";
  }

  std::string text_;
  llvm::raw_string_ostream os_{text_};
  llvm::DenseMap<Value, std::string> names_;
  std::map<std::string, std::string> colours_;
  std::vector<std::string> order_;
};

} // namespace

absl::StatusOr<std::string> dotGraph(ModuleOp module) {
  for (auto fn : module.getOps<func::FuncOp>())
    if (fn.isPublic() && !fn.isExternal())
      return Writer().run(fn);
  return absl::InvalidArgumentError(
      "dot graph: the module has no public function with a body");
}

} // namespace mlir::torus
