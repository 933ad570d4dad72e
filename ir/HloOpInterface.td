//===- HloOpInterface.td - An op's HLO opcode ---------------*- tablegen -*-===//
//
// What an op is called in HLO text, declared on the op itself: the HLO
// importer and exporter find ops by it, so there is no opcode table beside
// ODS.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_HLO_OP_INTERFACE_TD
#define TORUS_HLO_OP_INTERFACE_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/Interfaces.td"

def Torus_HloOpInterface : OpInterface<"HloOpInterface"> {
  let cppNamespace = "::mlir::torus";
  let description = [{
    An op that is one HLO instruction. `getHloOpcode()` is the opcode as HLO
    text spells it (`exponential`, `broadcast`, `dot`). An op with no
    attributes and one result whose operands are the instruction's, in
    order, needs nothing more: the importer creates it for its opcode and
    the exporter prints it, through this interface alone. Ops with
    attributes, regions or tuples also have their own import and export
    code, named after the opcode.

    Declare it with the `HloOpcode` trait:

    ```tablegen
    def Torus_ExpOp : Torus_Op<"exp", [Pure, HloOpcode<"exponential">]>;
    ```
  }];
  let methods = [
    StaticInterfaceMethod<"The HLO opcode, as HLO text spells it.",
      "::llvm::StringRef", "getHloOpcode", (ins)>,
  ];
}

// Carries the opcode's definition into the op class.
class Torus_HloOpcodeDefinition<string opcode>
    : NativeOpTrait<"HloOpcodeTrait", [], "",
        "::llvm::StringRef $cppClass::getHloOpcode() { return \""
        # opcode # "\"; }"> {
  let cppNamespace = "::mlir::torus";
}

/// The op is HLO instruction `opcode`.
class HloOpcode<string opcode>
    : TraitList<[DeclareOpInterfaceMethods<Torus_HloOpInterface>,
                 Torus_HloOpcodeDefinition<opcode>]>;

#endif // TORUS_HLO_OP_INTERFACE_TD
