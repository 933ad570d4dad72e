//===- PyFormat.cpp - Render values the way TensorFlow's messages do ------===//
//
// formatNumpyArray follows numpy's `_formatArray` for one axis with the
// default print options (linewidth 75, threshold 1000, edgeitems 3, legacy
// off), so texts such as "computation_shape must be positive; got
// computation_shape=[ 1 -1  1  1]" match TensorFlow character for character.
//
//===----------------------------------------------------------------------===//
#include "runtime/mesh/PyFormat.h"

#include <algorithm>
#include <vector>

#include "fmt/format.h"

namespace torus::rt {
namespace {

constexpr size_t kLineWidth = 75;
constexpr size_t kThreshold = 1000;
constexpr size_t kEdgeItems = 3;

// numpy's _extendLine: wrap before `word` unless the line holds only the
// hanging indent (wrapping would not help).
void extendLine(std::string &out, std::string &line, std::string_view word,
                size_t width, std::string_view hangingIndent) {
  bool needsWrap = line.size() + word.size() > width;
  if (line.size() <= hangingIndent.size())
    needsWrap = false;
  if (needsWrap) {
    size_t end = line.find_last_not_of(' ');
    out += line.substr(0, end == std::string::npos ? 0 : end + 1);
    out += '\n';
    line = std::string(hangingIndent);
  }
  line += word;
}

} // namespace

std::string formatNumpyArray(std::span<const int64_t> values) {
  if (values.empty())
    return "[]";
  bool summarize = values.size() > kThreshold;
  std::vector<int64_t> shown;
  if (summarize) {
    shown.assign(values.begin(), values.begin() + kEdgeItems);
    shown.insert(shown.end(), values.end() - kEdgeItems, values.end());
  } else {
    shown.assign(values.begin(), values.end());
  }
  auto [minIt, maxIt] = std::minmax_element(shown.begin(), shown.end());
  size_t width = std::max(fmt::format("{}", *minIt).size(),
                          fmt::format("{}", *maxIt).size());
  auto word = [&](int64_t v) { return fmt::format("{:>{}}", v, width); };

  const std::string hangingIndent = " ";
  // Width left for an element: the line width minus the closing bracket.
  const size_t elemWidth = kLineWidth - 1;
  std::string out;
  std::string line = hangingIndent;
  size_t leading = summarize ? kEdgeItems : 0;
  size_t trailing = summarize ? kEdgeItems : shown.size();
  for (size_t i = 0; i < leading; ++i) {
    extendLine(out, line, word(shown[i]), elemWidth, hangingIndent);
    line += ' ';
  }
  if (summarize) {
    extendLine(out, line, "...", elemWidth, hangingIndent);
    line += ' ';
  }
  for (size_t i = trailing; i > 1; --i) {
    extendLine(out, line, word(shown[shown.size() - i]), elemWidth,
               hangingIndent);
    line += ' ';
  }
  extendLine(out, line, word(shown.back()), elemWidth, hangingIndent);
  out += line;
  return "[" + out.substr(hangingIndent.size()) + "]";
}

std::string formatPyTuple(std::span<const int64_t> values) {
  if (values.size() == 1)
    return fmt::format("({},)", values[0]);
  return fmt::format("({})", fmt::join(values, ", "));
}

std::string formatPyList(std::span<const int64_t> values) {
  return fmt::format("[{}]", fmt::join(values, ", "));
}

std::string formatPyRepr(std::string_view text) {
  bool hasSingle = text.find('\'') != std::string_view::npos;
  bool hasDouble = text.find('"') != std::string_view::npos;
  char quote = (hasSingle && !hasDouble) ? '"' : '\'';
  std::string out(1, quote);
  for (char c : text) {
    switch (c) {
    case '\\':
      out += "\\\\";
      break;
    case '\n':
      out += "\\n";
      break;
    case '\r':
      out += "\\r";
      break;
    case '\t':
      out += "\\t";
      break;
    default:
      if (c == quote)
        out += '\\';
      out += c;
    }
  }
  out += quote;
  return out;
}

} // namespace torus::rt
