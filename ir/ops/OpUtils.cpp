//===- OpUtils.cpp - Helpers shared by the op verifiers and folders -------===//

#include "ir/ops/OpUtils.h"

#include "mlir/IR/Matchers.h"
#include "mlir/IR/OpDefinition.h"

namespace mlir::torus {

namespace {
/// Non-splat constants larger than this are not folded, to keep compile
/// time and memory bounded.
constexpr int64_t kFoldLimit = 1 << 16;
} // namespace

LogicalResult checkResult(Operation *op, RankedTensorType result,
                          ArrayRef<int64_t> expected, Type elementType) {
  if (result.getElementType() != elementType)
    return op->emitOpError("result element type ")
           << result.getElementType() << " differs from operand element type "
           << elementType;
  if (result.getShape() != expected)
    return op->emitOpError("result shape ")
           << formatShape(result.getShape()) << " should be "
           << formatShape(expected);
  return success();
}

LogicalResult checkSameElementType(Operation *op, Value a, StringRef aName,
                                   Value b, StringRef bName) {
  Type ta = tensorType(a).getElementType(), tb = tensorType(b).getElementType();
  if (ta == tb)
    return success();
  return op->emitOpError() << aName << " element type " << ta << " differs from "
                           << bName << " element type " << tb;
}

bool isSplatOf(Value v, double value) {
  DenseElementsAttr attr;
  if (!matchPattern(v, m_Constant(&attr)) || !attr.isSplat())
    return false;
  Type et = attr.getElementType();
  if (isa<FloatType>(et))
    return attr.getSplatValue<APFloat>().convertToDouble() == value;
  if (et.isInteger(1))
    return attr.getSplatValue<bool>() == (value != 0);
  if (isa<IntegerType>(et))
    return attr.getSplatValue<APInt>().getSExtValue() ==
           static_cast<int64_t>(value);
  return false;
}

bool isAllOnes(Value v) {
  DenseElementsAttr attr;
  if (!matchPattern(v, m_Constant(&attr)) || !attr.isSplat() ||
      !isa<IntegerType>(attr.getElementType()))
    return false;
  return attr.getSplatValue<APInt>().isAllOnes();
}

SmallVector<std::pair<int64_t, int64_t>> paddingPairs(Attribute attr) {
  SmallVector<std::pair<int64_t, int64_t>> pairs;
  auto dense = dyn_cast_if_present<DenseIntElementsAttr>(attr);
  if (!dense)
    return pairs;
  SmallVector<int64_t> flat(dense.getValues<int64_t>());
  for (size_t i = 0; i + 1 < flat.size(); i += 2)
    pairs.push_back({flat[i], flat[i + 1]});
  return pairs;
}

DenseIntElementsAttr paddingAttr(MLIRContext *ctx,
                                 ArrayRef<std::pair<int64_t, int64_t>> pairs) {
  if (pairs.empty())
    return {};
  SmallVector<int64_t> flat;
  for (auto [lo, hi] : pairs)
    flat.append({lo, hi});
  auto type = RankedTensorType::get({static_cast<int64_t>(pairs.size()), 2},
                                    IntegerType::get(ctx, 64));
  return DenseIntElementsAttr::get(type, flat);
}

FailureOr<int64_t> verifyReplicaGroups(Operation *op, Attribute attr) {
  auto groups = dyn_cast_if_present<DenseIntElementsAttr>(attr);
  if (!groups)
    return 0;
  auto type = groups.getType();
  if (type.getRank() != 2)
    return op->emitOpError("replica_groups must be a 2-D tensor (one row per "
                           "group), got rank ")
           << type.getRank();
  if (type.getNumElements() == 0)
    return 0;
  SmallVector<int64_t> flat(groups.getValues<int64_t>());
  std::string error;
  if (failed(checkReplicaGroups(flat, type.getDimSize(1), error)))
    return op->emitOpError(error);
  return type.getDimSize(1);
}

Attribute foldElementwise(ArrayRef<Attribute> operands,
                          RankedTensorType resultType, ScalarFn fn) {
  SmallVector<DenseElementsAttr> dense;
  for (Attribute a : operands) {
    auto d = dyn_cast_if_present<DenseElementsAttr>(a);
    if (!d)
      return {};
    // Complex constants are not folded (ScalarFn knows integers and floats).
    if (isa<ComplexType>(d.getElementType()))
      return {};
    dense.push_back(d);
  }
  if (isa<ComplexType>(resultType.getElementType()))
    return {};
  bool allSplat = llvm::all_of(dense, [](auto d) { return d.isSplat(); });
  int64_t n = allSplat ? 1 : resultType.getNumElements();
  if (n > kFoldLimit)
    return {};
  SmallVector<SmallVector<Scalar>> values;
  for (DenseElementsAttr d : dense) {
    SmallVector<Scalar> &v = values.emplace_back();
    bool isFloat = isa<FloatType>(d.getElementType());
    if (d.isSplat()) {
      if (isFloat)
        v.push_back(d.getSplatValue<APFloat>());
      else
        v.push_back(d.getSplatValue<APInt>());
      continue;
    }
    if (isFloat)
      for (const APFloat &f : d.getValues<APFloat>())
        v.push_back(f);
    else
      for (const APInt &i : d.getValues<APInt>())
        v.push_back(i);
  }
  bool floatResult = isa<FloatType>(resultType.getElementType());
  SmallVector<APFloat> floats;
  SmallVector<APInt> ints;
  SmallVector<Scalar> args(dense.size(), APInt());
  for (int64_t i = 0; i < n; ++i) {
    for (size_t k = 0; k < values.size(); ++k)
      args[k] = values[k].size() == 1 ? values[k][0] : values[k][i];
    std::optional<Scalar> r = fn(args);
    if (!r || std::holds_alternative<APFloat>(*r) != floatResult)
      return {};
    if (floatResult)
      floats.push_back(std::get<APFloat>(*r));
    else
      ints.push_back(std::get<APInt>(*r));
  }
  // One value for a splat: DenseElementsAttr::get makes it a splat.
  if (floatResult)
    return DenseElementsAttr::get(resultType, floats);
  return DenseElementsAttr::get(resultType, ints);
}

} // namespace mlir::torus
