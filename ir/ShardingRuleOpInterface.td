//===- ShardingRuleOpInterface.td - An op's sharding rule --*- tablegen -*-===//
//
// What sharding propagation and the SPMD partitioner need to know about an
// op, declared by the op itself (after Shardy's ShardingRuleOpInterface).
// Included from TorusOps.td; the C++ helpers live in
// ir/ShardingRuleOpInterface.{h,cpp}, each op's rule beside its other C++
// in ir/ops/<Family>Ops.cpp.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_SHARDING_RULE_OP_INTERFACE_TD
#define TORUS_SHARDING_RULE_OP_INTERFACE_TD

include "mlir/IR/OpBase.td"

def Torus_ShardingRuleOpInterface : OpInterface<"ShardingRuleOpInterface"> {
  let cppNamespace = "::mlir::torus";
  let description = [{
    How a tiling passes through the op: for each operand, which result
    dimension each of its dimensions lines up with one to one (Shardy's
    factors, restricted to one factor per dimension), and which result
    dimensions the op cannot compute on tiles.

    Sharding propagation carries a tiling forward (operand to result) and
    backward (result to operand) along the dimension map; the SPMD
    partitioner reshards every operand into the result's tiling (minus the
    blocked dimensions) and runs the op on tiles. An op without the
    interface has no rule: nothing propagates through it, and the
    partitioner runs it on whole tensors unless a handler knows better.

    The default rule is the elementwise one: every operand of the result's
    shape maps dimension `d` to dimension `d`; an operand of another shape
    (a scalar predicate or bound) has no map. Ops with that rule (the
    `Elementwise` ones, `select`, `clamp`, `sharding_constraint`,
    `all_reduce`, `collective_permute`) list the interface and write no
    code; others declare the methods they override.
  }];
  let methods = [
    InterfaceMethod<[{
        For each dimension of operand `operand`, the dimension of result
        `result` whose elements it lines up with one to one (so a tiling
        can pass between them), or -1 (contracted, reduced, or changed by
        the op). Nullopt when the operand is not data a tiling passes
        through (a pad value, an index, a scalar predicate). `operand` and
        `result` must be in range.
      }],
      "std::optional<::llvm::SmallVector<int64_t>>", "getOperandDimMap",
      (ins "unsigned":$operand, "unsigned":$result), [{}],
      [{ return ::mlir::torus::elementwiseDimMap($_op.getOperation(),
                                                  operand, result); }]>,
    InterfaceMethod<[{
        Result dimensions the op must not have tiled while it computes on
        tiles (sliced, padded, reversed, concatenated or windowed ones),
        given the sharding `result` wants for the result (for windows that
        tiles can hold whole). The partitioner moves their tiles into
        replication before computing.
      }],
      "::llvm::SmallVector<int64_t>", "getBlockedResultDims",
      (ins "::mlir::torus::ShardingAttr":$result), [{}],
      [{ return {}; }]>,
  ];
}

#endif // TORUS_SHARDING_RULE_OP_INTERFACE_TD
