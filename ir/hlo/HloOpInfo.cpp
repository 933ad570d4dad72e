//===- HloOpInfo.cpp - What HloOpInterface tells the HLO code -------------===//

#include "ir/hlo/HloOpInfo.h"

#include "ir/TorusOps.h"

#include "mlir/IR/OpDefinition.h"

#include <utility>

namespace mlir::torus::hlo {

llvm::StringRef hloOpcode(OperationName name) {
  if (auto *hlo = name.getInterface<HloOpInterface>())
    return hlo->getHloOpcode();
  return "";
}

bool isGenericHloOp(OperationName name) {
  return !hloOpcode(name).empty() && name.getAttributeNames().empty() &&
         name.hasTrait<OpTrait::OneResult>() &&
         name.hasTrait<OpTrait::ZeroRegions>();
}

namespace {
template <unsigned... N>
std::optional<unsigned> nOperands(OperationName name,
                                  std::integer_sequence<unsigned, N...>) {
  std::optional<unsigned> count;
  ((name.hasTrait<OpTrait::NOperands<N + 2>::template Impl>()
        ? void(count = N + 2)
        : void()),
   ...);
  return count;
}
} // namespace

std::optional<unsigned> fixedOperandCount(OperationName name) {
  if (name.hasTrait<OpTrait::ZeroOperands>())
    return 0;
  if (name.hasTrait<OpTrait::OneOperand>())
    return 1;
  return nOperands(name, std::make_integer_sequence<unsigned, 7>());
}

} // namespace mlir::torus::hlo
