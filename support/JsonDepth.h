//===- JsonDepth.h - Refusing JSON nested too deeply ------------*- C++ -*-===//
//
// The JSON parsers the project uses (nlohmann::json for .torus.json files,
// llvm::json for TF_CONFIG) recurse once per nesting level: a hostile
// document of 40,000 `[` overflows the stack. Every reader runs this scan
// first and refuses deeper documents with a clear error.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_SUPPORT_JSONDEPTH_H
#define TORUS_SUPPORT_JSONDEPTH_H

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace torus {

/// The deepest nesting of arrays and objects the project's JSON readers
/// accept (a .torus.json file nests four levels, a TF_CONFIG three).
inline constexpr int kMaxJsonDepth = 64;

/// The offset of the bracket in `text` that opens level `maxDepth + 1`, if
/// `text` nests arrays and objects deeper than that (brackets inside
/// strings do not count).
std::optional<size_t> jsonTooDeep(std::string_view text,
                                  int maxDepth = kMaxJsonDepth);

/// `line:column` (1-based) of byte `offset` of `text`.
std::string textPosition(std::string_view text, size_t offset);

} // namespace torus

#endif // TORUS_SUPPORT_JSONDEPTH_H
