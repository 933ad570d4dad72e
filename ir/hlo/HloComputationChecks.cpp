//===- HloComputationChecks.cpp - Checks of every computation -------------===//
//
// What the importer checks of every computation of the module before it
// imports any: a reducer (or comparator, or scatter computation) whose
// instructions become an op's kind is never imported instruction by
// instruction, so the checks that come with importing (written operand
// shapes, shardings) would not see it. Here, for every computation:
//
//   - its signature, when written, `(x: f32[], y: f32[]) -> f32[]`, names
//     the parameter instructions' shapes, in order, and the root's shape;
//   - every operand written with its shape (`add(f32[] a, f32[] b)`) names
//     an instruction of the computation with that shape;
//   - the sharding of every parameter is one Torus reads.
//
//===----------------------------------------------------------------------===//

#include "ir/hlo/HloAttrParser.h"
#include "ir/hlo/HloParser.h"
#include "ir/hlo/Importer.h"

namespace mlir::torus::hlo {

LogicalResult Importer::checkComputation(const Computation &comp) {
  std::vector<const Instruction *> params;
  if (failed(parameterShapes(comp, params)))
    return failure();
  if (comp.signature) {
    const Signature &sig = *comp.signature;
    if (sig.params.size() != params.size()) {
      error(sig.loc) << "the signature of computation '" << comp.name
                     << "' has " << sig.params.size() << " parameter"
                     << (sig.params.size() == 1 ? "" : "s")
                     << " but the computation has " << params.size();
      return failure();
    }
    for (size_t i = 0; i < params.size(); ++i)
      if (!sig.params[i].sameAs(params[i]->shape)) {
        error(sig.params[i].loc)
            << "the signature of computation '" << comp.name
            << "' gives parameter " << i << " the shape "
            << shapeText(sig.params[i]) << " but parameter(" << i << ") '"
            << params[i]->name << "' is " << shapeText(params[i]->shape);
        return failure();
      }
    if (comp.root >= 0 &&
        !sig.result.sameAs(comp.instructions[comp.root].shape)) {
      const Instruction &root = comp.instructions[comp.root];
      error(sig.result.loc)
          << "the signature of computation '" << comp.name
          << "' gives the result the shape " << shapeText(sig.result)
          << " but its root '" << root.name << "' is "
          << shapeText(root.shape);
      return failure();
    }
  }
  for (const Instruction &instr : comp.instructions) {
    for (const Operand &o : instr.operands) {
      if (!o.shape)
        continue;
      auto it = comp.byName.find(o.name);
      if (it == comp.byName.end()) {
        error(o.loc) << "use of undefined value '" << o.name << "'";
        return failure();
      }
      const Instruction &def = comp.instructions[it->second];
      if (!o.shape->sameAs(def.shape)) {
        error(o.loc) << "operand '" << o.name << "' is written as "
                     << shapeText(*o.shape) << " but '" << o.name << "' is "
                     << shapeText(def.shape);
        return failure();
      }
    }
  }
  for (const Instruction *p : params)
    if (const Attr *attr = p->attr("sharding"))
      if (failed(leafShardings(*attr, p->shape.numLeaves())))
        return failure();
  return success();
}

LogicalResult Importer::checkComputations() {
  for (const Computation &comp : ast_.computations)
    if (failed(checkComputation(comp)))
      return failure();
  return success();
}

LogicalResult Importer::checkReducerParameters(
    const Instruction &instr, const Attr &apply, const Computation &reducer,
    llvm::ArrayRef<PrimitiveType> accumulators) {
  std::vector<const Instruction *> params;
  if (failed(parameterShapes(reducer, params)))
    return failure();
  size_t want = 2 * accumulators.size();
  auto expected = [&] {
    std::string text = "(";
    for (size_t i = 0; i < want; ++i) {
      Shape scalar;
      scalar.type = accumulators[i % accumulators.size()];
      text += (i ? ", " : "") + shapeText(scalar);
    }
    return text + ")";
  };
  if (params.size() != want) {
    error(apply.valueLoc) << "reducer computation '" << reducer.name
                          << "' (line " << locator_.line(reducer.loc)
                          << ") of '" << instr.opcode << "' has "
                          << params.size() << " parameter"
                          << (params.size() == 1 ? "" : "s") << " but must take "
                          << expected();
    return failure();
  }
  for (size_t i = 0; i < want; ++i) {
    const Shape &s = params[i]->shape;
    if (!s.isScalar() || s.type != accumulators[i % accumulators.size()]) {
      error(apply.valueLoc)
          << "reducer computation '" << reducer.name << "' (line "
          << locator_.line(reducer.loc) << ") of '" << instr.opcode
          << "': parameter " << i << " '" << params[i]->name << "' is "
          << shapeText(s) << " but the reducer must take " << expected();
      return failure();
    }
  }
  return success();
}

} // namespace mlir::torus::hlo
