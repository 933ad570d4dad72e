//===- Sharding.cpp - The HLO sharding attribute --------------------------===//

#include "ir/Sharding.h"
#include "ir/ShapeRules.h"

#include "mlir/Dialect/Utils/IndexingUtils.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/DialectImplementation.h"
#include "mlir/IR/OpImplementation.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/StringExtras.h"

#include <numeric>

using namespace mlir;
using namespace mlir::torus;

//===----------------------------------------------------------------------===//
// ShardingSpec
//===----------------------------------------------------------------------===//

namespace {
SmallVector<int64_t> iota(int64_t n) {
  SmallVector<int64_t> v(n);
  std::iota(v.begin(), v.end(), 0);
  return v;
}

bool isIota(ArrayRef<int64_t> v) {
  for (size_t i = 0; i < v.size(); ++i)
    if (v[i] != static_cast<int64_t>(i))
      return false;
  return true;
}

/// The iota of shape `dims` transposed by `perm`, row-major (XLA's
/// `<=[dims]T(perm)`).
SmallVector<int64_t> transposedIota(ArrayRef<int64_t> dims,
                                    ArrayRef<int64_t> perm) {
  int64_t n = computeProduct(dims);
  SmallVector<int64_t> strides(dims.size(), 1);
  for (int64_t d = static_cast<int64_t>(dims.size()) - 2; d >= 0; --d)
    strides[d] = strides[d + 1] * dims[d + 1];
  SmallVector<int64_t> outDims;
  for (int64_t p : perm)
    outDims.push_back(dims[p]);
  SmallVector<int64_t> result(n);
  SmallVector<int64_t> index(perm.size(), 0);
  for (int64_t i = 0; i < n; ++i) {
    int64_t value = 0;
    for (size_t k = 0; k < perm.size(); ++k)
      value += index[k] * strides[perm[k]];
    result[i] = value;
    for (int64_t k = static_cast<int64_t>(perm.size()) - 1; k >= 0; --k) {
      if (++index[k] < outDims[k])
        break;
      index[k] = 0;
    }
  }
  return result;
}

/// A tiny lexer over HLO sharding text.
class TextParser {
public:
  explicit TextParser(StringRef text) : rest_(text) {}

  void skipSpace() { rest_ = rest_.ltrim(); }
  bool consume(StringRef token) {
    skipSpace();
    return rest_.consume_front(token);
  }
  bool atEnd() {
    skipSpace();
    return rest_.empty();
  }
  std::optional<StringRef> keyword() {
    skipSpace();
    size_t n = 0;
    while (n < rest_.size() && (llvm::isAlnum(rest_[n]) || rest_[n] == '_'))
      ++n;
    if (n == 0 || llvm::isDigit(rest_[0]))
      return std::nullopt;
    StringRef word = rest_.take_front(n);
    rest_ = rest_.drop_front(n);
    return word;
  }
  std::optional<int64_t> integer() {
    skipSpace();
    size_t n = rest_.front() == '-' ? 1 : 0;
    while (n < rest_.size() && llvm::isDigit(rest_[n]))
      ++n;
    int64_t value;
    if (rest_.take_front(n).getAsInteger(10, value))
      return std::nullopt;
    rest_ = rest_.drop_front(n);
    return value;
  }
  /// `[a,b,...]` (or `(a,b)` with the given delimiters).
  std::optional<SmallVector<int64_t>> list(char open, char close) {
    if (!consume(StringRef(&open, 1)))
      return std::nullopt;
    SmallVector<int64_t> values;
    if (consume(StringRef(&close, 1)))
      return values;
    do {
      auto v = integer();
      if (!v)
        return std::nullopt;
      values.push_back(*v);
    } while (consume(","));
    if (!consume(StringRef(&close, 1)))
      return std::nullopt;
    return values;
  }
  /// Skips a balanced `{...}`.
  bool skipBraces() {
    if (!consume("{"))
      return false;
    int depth = 1;
    while (!rest_.empty() && depth > 0) {
      char c = rest_.front();
      rest_ = rest_.drop_front();
      if (c == '"') {
        size_t end = rest_.find('"');
        if (end == StringRef::npos)
          return false;
        rest_ = rest_.drop_front(end + 1);
      } else if (c == '{') {
        ++depth;
      } else if (c == '}') {
        --depth;
      }
    }
    return depth == 0;
  }
  StringRef rest() const { return rest_; }

private:
  StringRef rest_;
};
} // namespace

ShardingSpec ShardingSpec::maximal(int64_t device) {
  ShardingSpec s;
  s.kind = ShardingKind::maximal;
  s.device = device;
  return s;
}

ShardingSpec ShardingSpec::tiled(ArrayRef<int64_t> tileDims,
                                 bool lastTileDimReplicate) {
  ShardingSpec s;
  s.kind = ShardingKind::tiled;
  s.tileDims.assign(tileDims.begin(), tileDims.end());
  s.devices = iota(computeProduct(tileDims));
  s.lastTileDimReplicate = lastTileDimReplicate;
  return s;
}

LogicalResult mlir::torus::verifyShardingSpec(const ShardingSpec &spec,
                                              std::string &error) {
  switch (spec.kind) {
  case ShardingKind::replicated:
  case ShardingKind::manual:
    if (!spec.tileDims.empty() || !spec.devices.empty() ||
        spec.lastTileDimReplicate || spec.device != 0) {
      error = "a replicated or manual sharding has no devices";
      return failure();
    }
    return success();
  case ShardingKind::maximal:
    if (spec.device < 0) {
      error = "maximal sharding names device " + std::to_string(spec.device) +
              "; devices are non-negative";
      return failure();
    }
    if (!spec.tileDims.empty() || !spec.devices.empty() ||
        spec.lastTileDimReplicate) {
      error = "a maximal sharding has no tile assignment";
      return failure();
    }
    return success();
  case ShardingKind::tiled:
    break;
  }
  if (spec.tileDims.empty()) {
    error = "a tiled sharding needs at least one tile dimension";
    return failure();
  }
  for (int64_t t : spec.tileDims)
    if (t < 1) {
      error = "tile dimensions must be positive, got " +
              formatShape(spec.tileDims);
      return failure();
    }
  int64_t n = computeProduct(spec.tileDims);
  if (static_cast<int64_t>(spec.devices.size()) != n) {
    error = "tile assignment " + formatShape(spec.tileDims) + " has " +
            std::to_string(n) + " tiles but the device list has " +
            std::to_string(spec.devices.size()) + " devices";
    return failure();
  }
  llvm::SmallDenseSet<int64_t> seen;
  for (int64_t d : spec.devices) {
    if (d < 0) {
      error = "device ids must be non-negative, got " + std::to_string(d);
      return failure();
    }
    if (!seen.insert(d).second) {
      error = "device " + std::to_string(d) +
              " appears twice in the tile assignment";
      return failure();
    }
  }
  return success();
}

FailureOr<ShardingSpec> mlir::torus::parseShardingSpec(StringRef text,
                                                       std::string &error) {
  TextParser p(text);
  ShardingSpec spec;
  auto fail = [&](const std::string &what) -> FailureOr<ShardingSpec> {
    error = "bad sharding '" + text.str() + "': " + what;
    return failure();
  };
  if (!p.consume("{"))
    return fail("expected '{'");
  auto kw = p.keyword();
  if (!kw)
    return fail("expected 'replicated', 'maximal', 'devices' or 'manual'");
  if (*kw == "replicated") {
    spec.kind = ShardingKind::replicated;
  } else if (*kw == "manual") {
    spec.kind = ShardingKind::manual;
  } else if (*kw == "maximal") {
    spec.kind = ShardingKind::maximal;
    auto dev = p.keyword();
    if (!dev || *dev != "device" || !p.consume("="))
      return fail("expected 'device=' after 'maximal'");
    auto id = p.integer();
    if (!id)
      return fail("expected a device id");
    spec.device = *id;
  } else if (*kw == "devices") {
    spec.kind = ShardingKind::tiled;
    if (!p.consume("="))
      return fail("expected '=' after 'devices'");
    auto dims = p.list('[', ']');
    if (!dims)
      return fail("expected the tile assignment's dimensions, '[a,b,...]'");
    spec.tileDims = *dims;
    if (p.consume("<=")) {
      auto iotaDims = p.list('[', ']');
      if (!iotaDims)
        return fail("expected '[n,...]' after '<='");
      SmallVector<int64_t> perm = iota(iotaDims->size());
      if (p.consume("T")) {
        auto t = p.list('(', ')');
        if (!t)
          return fail("expected '(p,...)' after 'T'");
        perm = *t;
        SmallVector<int64_t> sorted = perm;
        llvm::sort(sorted);
        if (!isIota(sorted) || sorted.size() != iotaDims->size())
          return fail("the transpose must permute the iota's dimensions");
      }
      for (int64_t d : *iotaDims)
        if (d < 1)
          return fail("iota dimensions must be positive");
      spec.devices = transposedIota(*iotaDims, perm);
    } else {
      do {
        auto id = p.integer();
        if (!id)
          return fail("expected a device id");
        spec.devices.push_back(*id);
      } while (p.consume(","));
    }
  } else {
    return fail("unknown sharding kind '" + kw->str() + "'");
  }
  // Trailing flags.
  while (!p.consume("}")) {
    auto flag = p.keyword();
    if (!flag)
      return fail("expected '}'");
    if (*flag == "last_tile_dim_replicate") {
      spec.lastTileDimReplicate = true;
    } else if (*flag == "last_tile_dims") {
      if (!p.consume("=") || !p.consume("{"))
        return fail("expected 'last_tile_dims={replicated}'");
      auto type = p.keyword();
      if (!type || *type != "replicated" || !p.consume("}"))
        return fail("only last_tile_dims={replicated} is supported");
      spec.lastTileDimReplicate = true;
    } else if (*flag == "metadata") {
      if (!p.consume("=") || !p.skipBraces())
        return fail("expected 'metadata={...}'");
    } else {
      return fail("unknown sharding flag '" + flag->str() + "'");
    }
  }
  if (!p.atEnd())
    return fail("unexpected text after '}'");
  if (failed(verifyShardingSpec(spec, error))) {
    error = "bad sharding '" + text.str() + "': " + error;
    return failure();
  }
  return spec;
}

std::string mlir::torus::formatShardingSpec(const ShardingSpec &spec) {
  std::string s;
  llvm::raw_string_ostream os(s);
  os << '{';
  switch (spec.kind) {
  case ShardingKind::replicated:
    os << "replicated";
    break;
  case ShardingKind::manual:
    os << "manual";
    break;
  case ShardingKind::maximal:
    os << "maximal device=" << spec.device;
    break;
  case ShardingKind::tiled:
    os << "devices=[";
    llvm::interleave(spec.tileDims, os, ",");
    os << ']';
    if (isIota(spec.devices)) {
      os << "<=[" << spec.devices.size() << ']';
    } else {
      llvm::interleave(spec.devices, os, ",");
    }
    if (spec.lastTileDimReplicate)
      os << " last_tile_dim_replicate";
    break;
  }
  os << '}';
  return s;
}

ShardingAttr mlir::torus::getShardingAttr(MLIRContext *ctx,
                                          const ShardingSpec &spec) {
  return ShardingAttr::get(ctx, spec.kind, spec.device,
                           ArrayRef<int64_t>(spec.tileDims),
                           ArrayRef<int64_t>(spec.devices),
                           spec.lastTileDimReplicate);
}

ShardingSpec mlir::torus::toShardingSpec(ShardingAttr attr) {
  ShardingSpec spec;
  spec.kind = attr.getKind();
  spec.device = attr.getDevice();
  spec.tileDims.assign(attr.getTileDims().begin(), attr.getTileDims().end());
  spec.devices.assign(attr.getDevices().begin(), attr.getDevices().end());
  spec.lastTileDimReplicate = attr.getLastTileDimReplicate();
  return spec;
}

//===----------------------------------------------------------------------===//
// ShardingAttr
//===----------------------------------------------------------------------===//

LogicalResult
ShardingAttr::verify(function_ref<InFlightDiagnostic()> emitError,
                     ShardingKind kind, int64_t device,
                     ArrayRef<int64_t> tileDims, ArrayRef<int64_t> devices,
                     bool lastTileDimReplicate) {
  ShardingSpec spec;
  spec.kind = kind;
  spec.device = device;
  spec.tileDims.assign(tileDims.begin(), tileDims.end());
  spec.devices.assign(devices.begin(), devices.end());
  spec.lastTileDimReplicate = lastTileDimReplicate;
  std::string error;
  if (failed(verifyShardingSpec(spec, error)))
    return emitError() << error;
  return success();
}

ShardingAttr ShardingAttr::getReplicated(MLIRContext *ctx) {
  return getShardingAttr(ctx, ShardingSpec::replicated());
}
ShardingAttr ShardingAttr::getMaximal(MLIRContext *ctx, int64_t device) {
  return getShardingAttr(ctx, ShardingSpec::maximal(device));
}
ShardingAttr ShardingAttr::getManual(MLIRContext *ctx) {
  ShardingSpec spec;
  spec.kind = ShardingKind::manual;
  return getShardingAttr(ctx, spec);
}
ShardingAttr ShardingAttr::getTiled(MLIRContext *ctx,
                                    ArrayRef<int64_t> tileDims,
                                    ArrayRef<int64_t> devices,
                                    bool lastTileDimReplicate) {
  ShardingSpec spec = ShardingSpec::tiled(tileDims, lastTileDimReplicate);
  if (!devices.empty())
    spec.devices.assign(devices.begin(), devices.end());
  return getShardingAttr(ctx, spec);
}

bool ShardingAttr::isFullyReplicated() const {
  if (isReplicated())
    return true;
  if (!isTiled())
    return false;
  return llvm::all_of(getDataTileDims(), [](int64_t t) { return t == 1; });
}

ArrayRef<int64_t> ShardingAttr::getDataTileDims() const {
  if (!isTiled())
    return {};
  ArrayRef<int64_t> dims = getTileDims();
  return getLastTileDimReplicate() ? dims.drop_back() : dims;
}

int64_t ShardingAttr::getReplicationFactor() const {
  return isTiled() && getLastTileDimReplicate() ? getTileDims().back() : 1;
}

int64_t ShardingAttr::getNumDevices() const {
  return isTiled() ? static_cast<int64_t>(getDevices().size()) : 0;
}

SmallVector<int64_t> ShardingAttr::getTileIndex(int64_t device) const {
  ArrayRef<int64_t> devices = getDevices();
  const int64_t *it = llvm::find(devices, device);
  if (!isTiled() || it == devices.end())
    return {};
  int64_t linear = it - devices.begin();
  ArrayRef<int64_t> dims = getTileDims();
  SmallVector<int64_t> index(dims.size());
  for (int64_t d = static_cast<int64_t>(dims.size()) - 1; d >= 0; --d) {
    index[d] = linear % dims[d];
    linear /= dims[d];
  }
  return index;
}

int64_t ShardingAttr::getDeviceAt(ArrayRef<int64_t> index) const {
  ArrayRef<int64_t> dims = getTileDims();
  int64_t linear = 0;
  for (size_t d = 0; d < dims.size(); ++d)
    linear = linear * dims[d] + index[d];
  return getDevices()[linear];
}

SmallVector<int64_t> ShardingAttr::getLocalShape(ArrayRef<int64_t> shape) const {
  SmallVector<int64_t> local(shape.begin(), shape.end());
  if (!isTiled())
    return local;
  ArrayRef<int64_t> tiles = getDataTileDims();
  for (size_t d = 0; d < local.size() && d < tiles.size(); ++d)
    local[d] = (local[d] + tiles[d] - 1) / tiles[d];
  return local;
}

SmallVector<int64_t> ShardingAttr::getTileOffsets(ArrayRef<int64_t> shape,
                                                  int64_t device) const {
  SmallVector<int64_t> offsets(shape.size(), 0);
  if (!isTiled())
    return offsets;
  SmallVector<int64_t> local = getLocalShape(shape);
  SmallVector<int64_t> index = getTileIndex(device);
  for (size_t d = 0; d < offsets.size() && d < index.size(); ++d)
    offsets[d] = index[d] * local[d];
  return offsets;
}

bool ShardingAttr::isUneven(ArrayRef<int64_t> shape) const {
  ArrayRef<int64_t> tiles = getDataTileDims();
  for (size_t d = 0; d < shape.size() && d < tiles.size(); ++d)
    if (shape[d] % tiles[d] != 0)
      return true;
  return false;
}

bool ShardingAttr::hasIotaDevices() const { return isIota(getDevices()); }

std::string ShardingAttr::toString() const {
  return formatShardingSpec(toShardingSpec(*this));
}

LogicalResult
ShardingAttr::verifyFor(ArrayRef<int64_t> shape, int64_t numPartitions,
                        function_ref<InFlightDiagnostic()> emitError) const {
  if (isTiled()) {
    int64_t rank = shape.size();
    int64_t tileRank = getDataTileDims().size();
    if (tileRank != rank && !(rank == 0 && tileRank == 1 &&
                              getDataTileDims()[0] == 1))
      return emitError() << "sharding " << toString() << " has " << tileRank
                         << " tile dimension" << (tileRank == 1 ? "" : "s")
                         << " but the tensor " << formatShape(shape)
                         << " has rank " << rank;
    if (numPartitions > 0 && getNumDevices() != numPartitions)
      return emitError() << "sharding " << toString() << " spans "
                         << getNumDevices() << " devices but the program has "
                         << numPartitions << " partitions";
  }
  if (numPartitions > 0) {
    if (isMaximal() && getDevice() >= numPartitions)
      return emitError() << "sharding " << toString() << " names device "
                         << getDevice() << " but the program has "
                         << numPartitions << " partitions";
    for (int64_t d : getDevices())
      if (d >= numPartitions)
        return emitError() << "sharding " << toString() << " names device "
                           << d << " but the program has " << numPartitions
                           << " partitions";
  }
  return success();
}

namespace {
/// Parses the body `{...}` of a sharding with MLIR's lexer.
FailureOr<ShardingSpec> parseBody(AsmParser &parser) {
  ShardingSpec spec;
  StringRef kw;
  if (parser.parseLBrace() || parser.parseKeyword(&kw))
    return failure();
  if (kw == "replicated") {
    spec.kind = ShardingKind::replicated;
  } else if (kw == "manual") {
    spec.kind = ShardingKind::manual;
  } else if (kw == "maximal") {
    spec.kind = ShardingKind::maximal;
    if (parser.parseKeyword("device") || parser.parseEqual() ||
        parser.parseInteger(spec.device))
      return failure();
  } else if (kw == "devices") {
    spec.kind = ShardingKind::tiled;
    auto parseInt = [&](SmallVectorImpl<int64_t> &into) {
      return [&]() -> ParseResult {
        return parser.parseInteger(into.emplace_back());
      };
    };
    if (parser.parseEqual() ||
        parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                       parseInt(spec.tileDims)))
      return failure();
    if (succeeded(parser.parseOptionalLess())) {
      SmallVector<int64_t> dims;
      if (parser.parseEqual() ||
          parser.parseCommaSeparatedList(AsmParser::Delimiter::Square,
                                         parseInt(dims)))
        return failure();
      SmallVector<int64_t> perm = iota(dims.size());
      if (succeeded(parser.parseOptionalKeyword("T"))) {
        perm.clear();
        llvm::SMLoc loc = parser.getCurrentLocation();
        if (parser.parseCommaSeparatedList(AsmParser::Delimiter::Paren,
                                           parseInt(perm)))
          return failure();
        SmallVector<int64_t> sorted = perm;
        llvm::sort(sorted);
        if (!isIota(sorted) || sorted.size() != dims.size())
          return parser.emitError(loc)
                 << "the transpose must permute the iota's dimensions";
      }
      for (int64_t d : dims)
        if (d < 1)
          return parser.emitError(parser.getCurrentLocation())
                 << "iota dimensions must be positive";
      spec.devices = transposedIota(dims, perm);
    } else if (parser.parseCommaSeparatedList(parseInt(spec.devices))) {
      return failure();
    }
  } else {
    return parser.emitError(parser.getCurrentLocation())
           << "expected 'replicated', 'maximal', 'devices' or 'manual', got '"
           << kw << "'";
  }
  while (failed(parser.parseOptionalRBrace())) {
    StringRef flag;
    llvm::SMLoc loc = parser.getCurrentLocation();
    if (parser.parseKeyword(&flag))
      return failure();
    if (flag == "last_tile_dim_replicate") {
      spec.lastTileDimReplicate = true;
    } else if (flag == "last_tile_dims") {
      if (parser.parseEqual() || parser.parseLBrace() ||
          parser.parseKeyword("replicated") || parser.parseRBrace())
        return failure();
      spec.lastTileDimReplicate = true;
    } else {
      return parser.emitError(loc) << "unknown sharding flag '" << flag << "'";
    }
  }
  return spec;
}

ShardingAttr buildChecked(AsmParser &parser, llvm::SMLoc loc,
                          const ShardingSpec &spec) {
  auto emitError = [&] { return parser.emitError(loc); };
  return ShardingAttr::getChecked(
      function_ref<InFlightDiagnostic()>(emitError), parser.getContext(),
      spec.kind, spec.device, ArrayRef<int64_t>(spec.tileDims),
      ArrayRef<int64_t>(spec.devices), spec.lastTileDimReplicate);
}
} // namespace

Attribute ShardingAttr::parse(AsmParser &parser, Type) {
  llvm::SMLoc loc = parser.getCurrentLocation();
  if (parser.parseLess())
    return {};
  // HLO text in quotes (how the iota form `<=[n]` prints), or bare.
  std::string text;
  if (succeeded(parser.parseOptionalString(&text))) {
    std::string error;
    FailureOr<ShardingSpec> spec = parseShardingSpec(text, error);
    if (failed(spec)) {
      parser.emitError(loc) << error;
      return {};
    }
    if (parser.parseGreater())
      return {};
    return buildChecked(parser, loc, *spec);
  }
  FailureOr<ShardingSpec> spec = parseBody(parser);
  if (failed(spec) || parser.parseGreater())
    return {};
  return buildChecked(parser, loc, *spec);
}

void ShardingAttr::print(AsmPrinter &printer) const {
  // MLIR's attribute syntax cannot hold the unbalanced `<` of `<=[n]`.
  std::string text = toString();
  printer << '<';
  if (StringRef(text).contains('<'))
    printer.printString(text);
  else
    printer << text;
  printer << '>';
}

namespace mlir::torus {
ParseResult parseShardingBody(OpAsmParser &parser, ShardingAttr &attr) {
  llvm::SMLoc loc = parser.getCurrentLocation();
  FailureOr<ShardingSpec> spec = parseBody(parser);
  if (failed(spec))
    return failure();
  attr = buildChecked(parser, loc, *spec);
  return success(static_cast<bool>(attr));
}

void printShardingBody(OpAsmPrinter &printer, Operation *, ShardingAttr attr) {
  printer << attr.toString();
}
} // namespace mlir::torus

//===----------------------------------------------------------------------===//
// torus.sharding_constraint
//===----------------------------------------------------------------------===//

LogicalResult ShardingConstraintOp::verify() {
  int64_t numPartitions = 0;
  if (auto module = (*this)->getParentOfType<ModuleOp>())
    if (auto n = module->getAttrOfType<IntegerAttr>(kNumPartitionsAttrName))
      numPartitions = n.getInt();
  return getSharding().verifyFor(getType().getShape(), numPartitions,
                                 [&] { return emitOpError(); });
}

//===----------------------------------------------------------------------===//
// Shardings on IR
//===----------------------------------------------------------------------===//

ShardingAttr mlir::torus::toShardingAttr(Attribute attr, MLIRContext *ctx,
                                         std::string *error) {
  if (auto s = dyn_cast_if_present<ShardingAttr>(attr))
    return s;
  auto text = dyn_cast_if_present<StringAttr>(attr);
  if (!text)
    return {};
  std::string message;
  FailureOr<ShardingSpec> spec = parseShardingSpec(text.getValue(), message);
  if (failed(spec)) {
    if (error)
      *error = message;
    return {};
  }
  return getShardingAttr(ctx, *spec);
}

ShardingAttr mlir::torus::getResultSharding(Operation *op, unsigned i) {
  Attribute attr = op->getAttr(kShardingAttrName);
  if (!attr)
    return {};
  if (auto array = dyn_cast<ArrayAttr>(attr)) {
    if (i >= array.size())
      return {};
    return toShardingAttr(array[i], op->getContext());
  }
  if (op->getNumResults() != 1 && i != 0)
    return {};
  return toShardingAttr(attr, op->getContext());
}

void mlir::torus::setResultShardings(Operation *op,
                                     ArrayRef<ShardingAttr> shardings) {
  if (shardings.size() == 1 && op->getNumResults() == 1) {
    op->setAttr(kShardingAttrName, shardings[0]);
    return;
  }
  SmallVector<Attribute> attrs(shardings.begin(), shardings.end());
  op->setAttr(kShardingAttrName, ArrayAttr::get(op->getContext(), attrs));
}

SmallVector<int64_t> mlir::torus::tileIndexTable(ShardingAttr sharding,
                                                 int64_t dim) {
  ArrayRef<int64_t> devices = sharding.getDevices();
  int64_t maxDevice = devices.empty() ? 0 : *llvm::max_element(devices);
  SmallVector<int64_t> table(maxDevice + 1, -1);
  ArrayRef<int64_t> dims = sharding.getTileDims();
  int64_t inner = computeProduct(dims.drop_front(dim + 1));
  for (size_t i = 0; i < devices.size(); ++i)
    table[devices[i]] = (static_cast<int64_t>(i) / inner) % dims[dim];
  return table;
}

SmallVector<SmallVector<int64_t>>
mlir::torus::deviceGroupsAlong(ShardingAttr sharding, ArrayRef<int64_t> dims) {
  ArrayRef<int64_t> tileDims = sharding.getTileDims();
  int64_t rank = tileDims.size();
  // Iterate the other dimensions in row-major order (outer loop) and the
  // chosen dimensions in row-major order (inner loop).
  SmallVector<int64_t> others;
  for (int64_t d = 0; d < rank; ++d)
    if (!llvm::is_contained(dims, d))
      others.push_back(d);
  SmallVector<int64_t> inner(dims.begin(), dims.end());
  auto count = [&](ArrayRef<int64_t> ds) {
    int64_t n = 1;
    for (int64_t d : ds)
      n *= tileDims[d];
    return n;
  };
  SmallVector<SmallVector<int64_t>> groups;
  SmallVector<int64_t> index(rank, 0);
  int64_t numOuter = count(others), numInner = count(inner);
  for (int64_t o = 0; o < numOuter; ++o) {
    int64_t rest = o;
    for (int64_t k = static_cast<int64_t>(others.size()) - 1; k >= 0; --k) {
      index[others[k]] = rest % tileDims[others[k]];
      rest /= tileDims[others[k]];
    }
    SmallVector<int64_t> group;
    for (int64_t i = 0; i < numInner; ++i) {
      int64_t r = i;
      for (int64_t k = static_cast<int64_t>(inner.size()) - 1; k >= 0; --k) {
        index[inner[k]] = r % tileDims[inner[k]];
        r /= tileDims[inner[k]];
      }
      group.push_back(sharding.getDeviceAt(index));
    }
    groups.push_back(std::move(group));
  }
  return groups;
}
