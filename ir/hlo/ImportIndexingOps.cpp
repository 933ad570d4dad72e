//===- ImportIndexingOps.cpp - HLO gather and scatter to torus ------------===//
//
// gather and scatter; scatter's update computation becomes its kind.
// Batching dimensions (JAX's take_along_axis) become index dimensions: each
// batching dimension's iota is appended to the index vectors, and the
// operand's batching dimensions are indexed and collapsed like any other.
//
//===----------------------------------------------------------------------===//

#include "ir/hlo/HloAttrParser.h"
#include "ir/hlo/HloParser.h"
#include "ir/hlo/Importer.h"

#include "llvm/ADT/StringSwitch.h"

namespace mlir::torus::hlo {

/// For a gather or scatter with batching dimensions: `indices` with the
/// iota of each of its batching dimensions `indexBatch` appended to its
/// index vectors (along `indexVectorDim`, made explicit if implicit), so
/// that operand batching dimension k is indexed by component old + k.
Value Importer::appendBatchIotas(Location loc, Value indices,
                                 int64_t &indexVectorDim,
                                 llvm::ArrayRef<int64_t> indexBatch) {
  auto type = cast<RankedTensorType>(indices.getType());
  if (indexVectorDim == type.getRank()) {
    llvm::SmallVector<int64_t> dims(type.getShape());
    dims.push_back(1);
    type = RankedTensorType::get(dims, type.getElementType());
    indices = b_.create<ReshapeOp>(loc, type, indices);
  }
  llvm::SmallVector<Value> parts = {indices};
  llvm::SmallVector<int64_t> one(type.getShape());
  one[indexVectorDim] = 1;
  auto oneType = RankedTensorType::get(one, type.getElementType());
  for (int64_t d : indexBatch)
    parts.push_back(
        b_.create<IotaOp>(loc, oneType, b_.getI64IntegerAttr(d)));
  return b_.create<ConcatenateOp>(loc, parts, indexVectorDim);
}

LogicalResult Importer::emitGather(const Instruction &instr, Operands operands,
                                   HloValue &result) {
  auto type = resultType(instr);
  if (failed(type))
    return failure();
  size_t n = operands.size();
  Location loc = opLoc(instr);
  if (failed(checkOperandCount(instr, 2, n)))
    return failure();
  auto x = array(instr, operands, 0), idx = array(instr, operands, 1);
  auto offset = listAttr(instr, "offset_dims", true);
  auto collapsed = listAttr(instr, "collapsed_slice_dims", false);
  auto startMap = listAttr(instr, "start_index_map", true);
  auto ivd = intAttr(instr, "index_vector_dim");
  auto sizes = listAttr(instr, "slice_sizes", true);
  auto sorted = boolAttr(instr, "indices_are_sorted");
  auto batch = listAttr(instr, "operand_batching_dims", false);
  auto batch2 = listAttr(instr, "start_indices_batching_dims", false);
  if (failed(x) || failed(idx) || failed(offset) || failed(collapsed) ||
      failed(startMap) || failed(ivd) || failed(sizes) || failed(sorted) ||
      failed(batch) || failed(batch2))
    return failure();
  if (batch->size() != batch2->size()) {
    error(instr.opcodeLoc)
        << "gather has " << batch->size() << " operand_batching_dims but "
        << batch2->size() << " start_indices_batching_dims";
    return failure();
  }
  Value indices = *idx;
  if (!batch->empty()) {
    int64_t dim = *ivd;
    indices = appendBatchIotas(loc, indices, dim, *batch2);
    *ivd = dim;
    startMap->append(batch->begin(), batch->end());
    collapsed->append(batch->begin(), batch->end());
    llvm::sort(*collapsed);
  }
  result.leaves.push_back(b_.create<GatherOp>(
      loc, *type, *x, indices, b_.getDenseI64ArrayAttr(*offset),
      b_.getDenseI64ArrayAttr(*collapsed), b_.getDenseI64ArrayAttr(*startMap),
      b_.getI64IntegerAttr(*ivd), b_.getDenseI64ArrayAttr(*sizes),
      *sorted ? b_.getUnitAttr() : UnitAttr()));
  return success();
}

LogicalResult Importer::emitScatter(const Instruction &instr, Operands operands,
                                    HloValue &result) {
  auto type = resultType(instr);
  if (failed(type))
    return failure();
  size_t n = operands.size();
  Location loc = opLoc(instr);
  if (failed(checkOperandCount(instr, 3, n)))
    return failure();
  auto x = array(instr, operands, 0), idx = array(instr, operands, 1),
       upd = array(instr, operands, 2);
  auto uwd = listAttr(instr, "update_window_dims", true);
  auto iwd = listAttr(instr, "inserted_window_dims", false);
  auto sdod = listAttr(instr, "scatter_dims_to_operand_dims", true);
  auto ivd = intAttr(instr, "index_vector_dim");
  auto sorted = boolAttr(instr, "indices_are_sorted");
  auto unique = boolAttr(instr, "unique_indices");
  auto batch = listAttr(instr, "input_batching_dims", false);
  auto batch2 = listAttr(instr, "scatter_indices_batching_dims", false);
  if (failed(x) || failed(idx) || failed(upd) || failed(uwd) || failed(iwd) ||
      failed(sdod) || failed(ivd) || failed(sorted) || failed(unique) ||
      failed(batch) || failed(batch2))
    return failure();
  if (batch->size() != batch2->size()) {
    error(instr.opcodeLoc)
        << "scatter has " << batch->size() << " input_batching_dims but "
        << batch2->size() << " scatter_indices_batching_dims";
    return failure();
  }
  Value indices = *idx;
  if (!batch->empty()) {
    int64_t dim = *ivd;
    indices = appendBatchIotas(loc, indices, dim, *batch2);
    *ivd = dim;
    sdod->append(batch->begin(), batch->end());
    iwd->append(batch->begin(), batch->end());
    llvm::sort(*iwd);
  }
  auto opcodes = reducerOpcodes(instr, 1, /*replaceAllowed=*/true);
  if (failed(opcodes))
    return failure();
  auto kind = llvm::StringSwitch<std::optional<ScatterKind>>((*opcodes)[0])
                  .Case("replace", ScatterKind::replace)
                  .Case("add", ScatterKind::sum)
                  .Case("multiply", ScatterKind::product)
                  .Case("maximum", ScatterKind::max)
                  .Case("minimum", ScatterKind::min)
                  .Default(std::nullopt);
  if (!kind) {
    error(instr.attr("to_apply")->valueLoc)
        << "scatter combines with replace, add, multiply, maximum or "
           "minimum, not '"
        << (*opcodes)[0] << "'";
    return failure();
  }
  result.leaves.push_back(b_.create<ScatterOp>(
      loc, *type, ScatterKindAttr::get(ctx_, *kind), *x, indices, *upd,
      b_.getDenseI64ArrayAttr(*uwd), b_.getDenseI64ArrayAttr(*iwd),
      b_.getDenseI64ArrayAttr(*sdod), b_.getI64IntegerAttr(*ivd),
      *sorted ? b_.getUnitAttr() : UnitAttr(),
      *unique ? b_.getUnitAttr() : UnitAttr()));
  return success();
}

} // namespace mlir::torus::hlo
