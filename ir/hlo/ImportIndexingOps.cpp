//===- ImportIndexingOps.cpp - HLO gather and scatter to torus ------------===//
//
// gather and scatter (batching dimensions become iota indices); scatter's
// update computation becomes its kind.
//
//===----------------------------------------------------------------------===//

#include "ir/hlo/HloAttrParser.h"
#include "ir/hlo/HloParser.h"
#include "ir/hlo/Importer.h"
#include "ir/ops/HloForms.h"

#include "llvm/ADT/StringSwitch.h"

namespace mlir::torus::hlo {

LogicalResult Importer::unbatch(const Instruction &instr,
                                llvm::StringRef operandAttr,
                                llvm::StringRef indicesAttr,
                                llvm::ArrayRef<int64_t> operandBatch,
                                llvm::ArrayRef<int64_t> indicesBatch,
                                Value &indices, int64_t &indexVectorDim,
                                llvm::SmallVector<int64_t> &collapsed,
                                llvm::SmallVector<int64_t> &indexMap) {
  if (operandBatch.empty() && indicesBatch.empty())
    return success();
  if (operandBatch.size() != indicesBatch.size()) {
    error(instr.attr(operandAttr)->nameLoc)
        << "'" << operandAttr << "' and '" << indicesAttr
        << "' must pair up dimensions: " << operandBatch.size() << " vs "
        << indicesBatch.size();
    return failure();
  }
  auto type = cast<RankedTensorType>(indices.getType());
  int64_t rank = type.getRank();
  if (indexVectorDim < 0 || indexVectorDim > rank) {
    error(instr.attr("index_vector_dim")->valueLoc)
        << "index_vector_dim " << indexVectorDim << " is out of range for "
        << "indices of rank " << rank;
    return failure();
  }
  for (int64_t d : indicesBatch)
    if (d < 0 || d >= rank || d == indexVectorDim) {
      error(instr.attr(indicesAttr)->valueLoc)
          << "'" << indicesAttr << "' names dimension " << d
          << ", not a batch dimension of indices of rank " << rank;
      return failure();
    }
  indices = appendBatchIotas(b_, opLoc(instr), indices, indexVectorDim,
                             indicesBatch);
  indexMap.append(operandBatch.begin(), operandBatch.end());
  collapsed.append(operandBatch.begin(), operandBatch.end());
  llvm::sort(collapsed);
  return success();
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
  Value indices = *idx;
  if (failed(unbatch(instr, "operand_batching_dims",
                     "start_indices_batching_dims", *batch, *batch2, indices,
                     *ivd, *collapsed, *startMap)))
    return failure();
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
  Value indices = *idx;
  if (failed(unbatch(instr, "input_batching_dims",
                     "scatter_indices_batching_dims", *batch, *batch2,
                     indices, *ivd, *iwd, *sdod)))
    return failure();
  auto opcodes = reducerOpcodes(instr, 1, /*replaceAllowed=*/true,
                                {operands[0]->shape->type});
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
