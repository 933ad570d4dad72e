//===- TorusDialect.td - The torus dialect -----------------*- tablegen -*-===//
#ifndef TORUS_DIALECT_TD
#define TORUS_DIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def Torus_Dialect : Dialect {
  let name = "torus";
  let cppNamespace = "::mlir::torus";
  let summary = "An HLO-like graph IR for distributed training steps";
  let description = [{
    The `torus` dialect holds a traced training step as a dataflow graph of
    tensor operations with XLA HLO semantics and static shapes: elementwise
    ops require identical operand shapes (broadcasting is explicit through
    `torus.broadcast_in_dim`), `dot_general` names its batch and contracting
    dimensions, `reduce` names its dimensions and kind, and collectives name
    their replica groups. Programs are SPMD: one program runs on every
    replica, and `replica_id` tells them apart.
  }];
  let hasConstantMaterializer = 1;
}

class Torus_Op<string mnemonic, list<Trait> traits = []>
    : Op<Torus_Dialect, mnemonic, traits>;

def Torus_ComparisonDirection : I32EnumAttr<"ComparisonDirection",
    "HLO comparison direction", [
      I32EnumAttrCase<"EQ", 0>, I32EnumAttrCase<"NE", 1>,
      I32EnumAttrCase<"LT", 2>, I32EnumAttrCase<"LE", 3>,
      I32EnumAttrCase<"GT", 4>, I32EnumAttrCase<"GE", 5>]> {
  let cppNamespace = "::mlir::torus";
}

def Torus_ReduceKind : I32EnumAttr<"ReduceKind",
    "the combiner of a reduction or all-reduce", [
      I32EnumAttrCase<"sum", 0>, I32EnumAttrCase<"product", 1>,
      I32EnumAttrCase<"max", 2>, I32EnumAttrCase<"min", 3>]> {
  let cppNamespace = "::mlir::torus";
}

#endif // TORUS_DIALECT_TD
