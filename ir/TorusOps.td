//===- TorusOps.td - torus dialect operations --------------*- tablegen -*-===//
//
// HLO semantics with static shapes. Every op verifies its operands and states
// what it checked in its error message, pointing at the op.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_OPS_TD
#define TORUS_OPS_TD

include "ir/TorusDialect.td"
include "mlir/Interfaces/InferTypeOpInterface.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/IR/BuiltinAttributeInterfaces.td"

def Torus_ElementType : AnyTypeOf<[F16, BF16, F32, F64, I1, I32, I64]>;
def Torus_Tensor : StaticShapeTensorOf<[F16, BF16, F32, F64, I1, I32, I64]>;
def Torus_FloatTensor : StaticShapeTensorOf<[F16, BF16, F32, F64]>;
def Torus_PredTensor : StaticShapeTensorOf<[I1]>;
def Torus_I64Groups : ConfinedAttr<I64ElementsAttr, []>;

//===----------------------------------------------------------------------===//
// Constants
//===----------------------------------------------------------------------===//

def Torus_ConstantOp : Torus_Op<"constant", [ConstantLike, Pure,
    AllTypesMatch<["value", "result"]>]> {
  let summary = "a constant tensor";
  let description = [{
    Produces `value` (HLO `constant`).

    ```mlir
    %c = torus.constant dense<[1.0, 2.0]> : tensor<2xf32>
    ```
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs Torus_Tensor:$result);
  let assemblyFormat = "attr-dict $value";
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Elementwise ops
//===----------------------------------------------------------------------===//

class Torus_UnaryOp<string mnemonic, Type operandType, string doc>
    : Torus_Op<mnemonic, [Pure, SameOperandsAndResultType, Elementwise]> {
  let summary = doc;
  let description = "Elementwise " # doc # " (HLO `" # mnemonic # "`).";
  let arguments = (ins operandType:$operand);
  let results = (outs operandType:$result);
  let assemblyFormat = "$operand attr-dict `:` type($result)";
}

def Torus_NegateOp : Torus_UnaryOp<"negate", Torus_Tensor, "negation">;
def Torus_ExpOp : Torus_UnaryOp<"exp", Torus_FloatTensor, "exponential">;
def Torus_LogOp : Torus_UnaryOp<"log", Torus_FloatTensor, "natural logarithm">;

class Torus_BinaryOp<string mnemonic, string doc>
    : Torus_Op<mnemonic, [Pure, SameOperandsAndResultType, Elementwise]> {
  let summary = doc;
  let description = "Elementwise " # doc # " of two tensors of one type "
    # "(HLO `" # mnemonic # "`); broadcasting is explicit, through "
    # "`torus.broadcast_in_dim`.\n\n```mlir\n%r = torus." # mnemonic
    # " %a, %b : tensor<4xf32>\n```";
  let arguments = (ins Torus_Tensor:$lhs, Torus_Tensor:$rhs);
  let results = (outs Torus_Tensor:$result);
  let assemblyFormat = "$lhs `,` $rhs attr-dict `:` type($result)";
}

def Torus_AddOp : Torus_BinaryOp<"add", "sum"> { let hasFolder = 1; }
def Torus_SubtractOp : Torus_BinaryOp<"subtract", "difference">;
def Torus_MultiplyOp : Torus_BinaryOp<"multiply", "product"> {
  let hasFolder = 1;
}
def Torus_DivideOp : Torus_BinaryOp<"divide", "quotient">;
def Torus_MaximumOp : Torus_BinaryOp<"maximum",
    "maximum (NaN if either operand is NaN)">;

def Torus_CompareOp : Torus_Op<"compare", [Pure, Elementwise,
    SameTypeOperands]> {
  let summary = "elementwise comparison";
  let description = [{
    Compares `lhs` and `rhs` elementwise with `comparison_direction` and
    yields an `i1` tensor of their shape (HLO `compare`; floats compare
    ordered, except `NE`, which is true for NaN).

    ```mlir
    %p = torus.compare LT, %a, %b : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
    ```
  }];
  let arguments = (ins Torus_ComparisonDirection:$comparison_direction,
                       Torus_Tensor:$lhs, Torus_Tensor:$rhs);
  let results = (outs Torus_PredTensor:$result);
  let assemblyFormat = [{
    $comparison_direction `,` $lhs `,` $rhs attr-dict `:`
    functional-type(operands, results)
  }];
}

def Torus_SelectOp : Torus_Op<"select", [Pure, Elementwise,
    AllTypesMatch<["on_true", "on_false", "result"]>]> {
  let summary = "elementwise choice";
  let description = [{
    `pred ? on_true : on_false` elementwise (HLO `select`); `pred` has the
    shape of the result.

    ```mlir
    %r = torus.select %p, %a, %b : tensor<4xi1>, tensor<4xf32>
    ```
  }];
  let arguments = (ins Torus_PredTensor:$pred, Torus_Tensor:$on_true,
                       Torus_Tensor:$on_false);
  let results = (outs Torus_Tensor:$result);
  let assemblyFormat = [{
    $pred `,` $on_true `,` $on_false attr-dict `:` type($pred) `,` type($result)
  }];
}

def Torus_ConvertOp : Torus_Op<"convert", [Pure, Elementwise]> {
  let summary = "elementwise element-type conversion";
  let description = [{
    Converts each element to the result's element type (HLO `convert`):
    float to integer rounds toward zero, anything to `i1` is `x != 0`.

    ```mlir
    %f = torus.convert %i : (tensor<4xi32>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins Torus_Tensor:$operand);
  let results = (outs Torus_Tensor:$result);
  let assemblyFormat = "$operand attr-dict `:` functional-type(operands, results)";
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Shape ops
//===----------------------------------------------------------------------===//

def Torus_BroadcastInDimOp : Torus_Op<"broadcast_in_dim", [Pure]> {
  let summary = "broadcast to a larger shape along given dimensions";
  let description = [{
    Operand dimension `i` becomes result dimension `broadcast_dimensions[i]`
    and must be 1 or of the same size; the other result dimensions are new
    (HLO `broadcast_in_dim`).

    ```mlir
    %r = torus.broadcast_in_dim %v, dims = [1] : (tensor<8xf32>) -> tensor<4x8xf32>
    ```
  }];
  let arguments = (ins Torus_Tensor:$operand,
                       DenseI64ArrayAttr:$broadcast_dimensions);
  let results = (outs Torus_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` `dims` `=` $broadcast_dimensions attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Torus_ReshapeOp : Torus_Op<"reshape", [Pure]> {
  let summary = "row-major reshape";
  let description = [{
    Reinterprets the elements, in row-major order, with the result's shape,
    which has the same number of elements (HLO `reshape`).

    ```mlir
    %r = torus.reshape %x : (tensor<2x3xf32>) -> tensor<6xf32>
    ```
  }];
  let arguments = (ins Torus_Tensor:$operand);
  let results = (outs Torus_Tensor:$result);
  let assemblyFormat = "$operand attr-dict `:` functional-type(operands, results)";
  let hasVerifier = 1;
  let hasFolder = 1;
}

def Torus_TransposeOp : Torus_Op<"transpose", [Pure]> {
  let summary = "permute dimensions";
  let description = [{
    Result dimension `i` is operand dimension `permutation[i]` (HLO
    `transpose`).

    ```mlir
    %t = torus.transpose %x, permutation = [1, 0] : (tensor<2x3xf32>) -> tensor<3x2xf32>
    ```
  }];
  let arguments = (ins Torus_Tensor:$operand, DenseI64ArrayAttr:$permutation);
  let results = (outs Torus_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` `permutation` `=` $permutation attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
  let hasFolder = 1;
}

//===----------------------------------------------------------------------===//
// Linear algebra and reductions
//===----------------------------------------------------------------------===//

def Torus_DotGeneralOp : Torus_Op<"dot_general", [Pure]> {
  let summary = "generalized batched matrix product";
  let description = [{
    HLO `dot_general`: contracts `lhs_contracting_dimensions` with
    `rhs_contracting_dimensions` (pairwise equal sizes) and pairs
    `lhs_batching_dimensions` with `rhs_batching_dimensions`. The result's
    dimensions are the batch dimensions, then the remaining lhs dimensions,
    then the remaining rhs dimensions, each in operand order.

    ```mlir
    %c = torus.dot_general %a, %b, batching_dims = [] x [],
           contracting_dims = [1] x [0]
         : (tensor<4x8xf32>, tensor<8x16xf32>) -> tensor<4x16xf32>
    ```
  }];
  let arguments = (ins Torus_Tensor:$lhs, Torus_Tensor:$rhs,
                       DenseI64ArrayAttr:$lhs_batching_dimensions,
                       DenseI64ArrayAttr:$rhs_batching_dimensions,
                       DenseI64ArrayAttr:$lhs_contracting_dimensions,
                       DenseI64ArrayAttr:$rhs_contracting_dimensions);
  let results = (outs Torus_Tensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs `,` `batching_dims` `=` $lhs_batching_dimensions `x`
    $rhs_batching_dimensions `,` `contracting_dims` `=`
    $lhs_contracting_dimensions `x` $rhs_contracting_dimensions attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

def Torus_ReduceOp : Torus_Op<"reduce", [Pure]> {
  let summary = "reduce over dimensions";
  let description = [{
    Combines the elements along `dimensions` with `kind` (sum, product, max,
    min), removing those dimensions. This is HLO `reduce` with its reducer
    computation named by a kind rather than spelled as a region; the HLO
    importer recognises the usual reducer bodies.

    ```mlir
    %s = torus.reduce sum %x, dims = [1] : (tensor<4x8xf32>) -> tensor<4xf32>
    ```
  }];
  let arguments = (ins Torus_ReduceKind:$kind, Torus_Tensor:$operand,
                       DenseI64ArrayAttr:$dimensions);
  let results = (outs Torus_Tensor:$result);
  let assemblyFormat = [{
    $kind $operand `,` `dims` `=` $dimensions attr-dict `:`
    functional-type(operands, results)
  }];
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Replicas and collectives
//===----------------------------------------------------------------------===//

def Torus_ReplicaIdOp : Torus_Op<"replica_id", []> {
  let summary = "the executing replica's index";
  let description = [{
    The index of the replica running this program, in `[0, replica_count)`
    (HLO `replica-id`; an `i32` scalar here, where HLO uses `u32`).

    ```mlir
    %id = torus.replica_id : tensor<i32>
    ```
  }];
  let results = (outs 0DTensorOf<[I32]>:$result);
  let assemblyFormat = "attr-dict `:` type($result)";
}

def Torus_AllReduceOp : Torus_Op<"all_reduce",
    [SameOperandsAndResultType]> {
  let summary = "reduce a tensor across replicas";
  let description = [{
    Every replica contributes `operand`; each receives the elementwise
    reduction (by `kind`) over the replicas of its group (HLO `all-reduce`).
    `replica_groups` is a 2-D `i64` tensor whose rows are the groups; absent
    or empty, all replicas form one group. Groups must not overlap.

    ```mlir
    %s = torus.all_reduce sum %g {replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>} : tensor<8xf32>
    ```
  }];
  let arguments = (ins Torus_ReduceKind:$kind, Torus_Tensor:$operand,
                       OptionalAttr<I64ElementsAttr>:$replica_groups);
  let results = (outs Torus_Tensor:$result);
  let assemblyFormat = "$kind $operand attr-dict `:` type($result)";
  let hasVerifier = 1;
}

#endif // TORUS_OPS_TD
