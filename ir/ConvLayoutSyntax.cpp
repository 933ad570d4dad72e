//===- ConvLayoutSyntax.cpp - `[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]` ---===//

#include "ir/ConvLayoutSyntax.h"

namespace mlir::torus {

void printConvLayout(llvm::raw_ostream &os, int64_t batch, int64_t feature,
                     ArrayRef<int64_t> spatial, char batchChar,
                     char featureChar) {
  int64_t rank = 2 + spatial.size();
  os << '[';
  for (int64_t d = 0; d < rank; ++d) {
    if (d)
      os << ", ";
    if (d == batch)
      os << batchChar;
    else if (d == feature)
      os << featureChar;
    else if (const int64_t *it = llvm::find(spatial, d); it != spatial.end())
      os << (it - spatial.begin());
    else
      os << '?';
  }
  os << ']';
}

ParseResult parseConvLayout(AsmParser &parser, StringRef batchKw,
                            StringRef featureKw, int64_t &batch,
                            int64_t &feature, SmallVectorImpl<int64_t> &spatial) {
  batch = feature = -1;
  SmallVector<std::pair<int64_t, int64_t>> spatialAt; // (index, position)
  int64_t position = 0;
  llvm::SMLoc loc = parser.getCurrentLocation();
  auto parseEntry = [&]() -> ParseResult {
    int64_t index;
    OptionalParseResult number = parser.parseOptionalInteger(index);
    if (number.has_value()) {
      if (failed(*number))
        return failure();
      spatialAt.push_back({index, position++});
      return success();
    }
    StringRef keyword;
    llvm::SMLoc kwLoc = parser.getCurrentLocation();
    if (parser.parseKeyword(&keyword))
      return failure();
    int64_t *slot = keyword == batchKw     ? &batch
                    : keyword == featureKw ? &feature
                                           : nullptr;
    if (!slot)
      return parser.emitError(kwLoc)
             << "expected '" << batchKw << "', '" << featureKw
             << "' or a spatial dimension number, got '" << keyword << "'";
    if (*slot != -1)
      return parser.emitError(kwLoc) << "'" << keyword << "' appears twice";
    *slot = position++;
    return success();
  };
  if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Square, parseEntry))
    return failure();
  if (batch < 0 || feature < 0)
    return parser.emitError(loc) << "layout needs both '" << batchKw
                                 << "' and '" << featureKw << "'";
  spatial.assign(spatialAt.size(), -1);
  for (auto [index, pos] : spatialAt) {
    if (index < 0 || index >= static_cast<int64_t>(spatialAt.size()) ||
        spatial[index] != -1)
      return parser.emitError(loc)
             << "spatial dimensions must be numbered 0 to "
             << spatialAt.size() - 1 << ", each once";
    spatial[index] = pos;
  }
  return success();
}

} // namespace mlir::torus
