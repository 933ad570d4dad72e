//===- StablehloOps.td - stablehlo operations ---------------*- tablegen -*-===//
//
// The ops of the StableHLO specification (spec.md, "Ops") that Torus reads,
// with the text forms StableHLO's printer writes: the pretty forms below,
// and the generic form `"stablehlo.gather"(...) <{...}> ({...}) : ...` for
// ops that have none upstream either (gather, scatter, sort, reduce_window,
// select_and_scatter, case, if, triangular_solve, collectives). What each
// op computes is the specification's; the conversion to the torus dialect
// (ConvertToTorus.td) gives each its torus equivalent.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_STABLEHLO_OPS_TD
#define TORUS_STABLEHLO_OPS_TD

include "ir/stablehlo/StablehloDialect.td"
include "mlir/Interfaces/SideEffectInterfaces.td"
include "mlir/Interfaces/ControlFlowInterfaces.td"
include "mlir/IR/OpAsmInterface.td"

class StableHLO_Op<string mnemonic, list<Trait> traits = []>
    : Op<StableHLO_Dialect, mnemonic, traits>;

defvar StableHLO_Tensor = AnyRankedTensor;

//===----------------------------------------------------------------------===//
// Elementwise
//===----------------------------------------------------------------------===//

// `stablehlo.abs %x : tensor<4xf32>`, or `: (tensor<4xcomplex<f32>>) ->
// tensor<4xf32>` when the types differ.
class StableHLO_UnaryOp<string mnemonic, string what>
    : StableHLO_Op<mnemonic, [Pure]> {
  let summary = what;
  let description = "Spec: `" # mnemonic # "`, elementwise " # what # ".";
  let arguments = (ins StableHLO_Tensor:$operand);
  let results = (outs StableHLO_Tensor:$result);
  let assemblyFormat = [{
    $operand attr-dict `:`
    custom<SameOperandsAndResultType>(type($operand), type($result))
  }];
}

def StableHLO_AbsOp : StableHLO_UnaryOp<"abs", "absolute value">;
def StableHLO_CbrtOp : StableHLO_UnaryOp<"cbrt", "cube root">;
def StableHLO_CeilOp : StableHLO_UnaryOp<"ceil", "ceiling">;
def StableHLO_ConvertOp : StableHLO_UnaryOp<"convert", "element type conversion">;
def StableHLO_ClzOp : StableHLO_UnaryOp<"count_leading_zeros", "leading zero bits">;
def StableHLO_CosineOp : StableHLO_UnaryOp<"cosine", "cosine">;
def StableHLO_ExpOp : StableHLO_UnaryOp<"exponential", "exponential">;
def StableHLO_Expm1Op : StableHLO_UnaryOp<"exponential_minus_one", "exp(x) - 1">;
def StableHLO_FloorOp : StableHLO_UnaryOp<"floor", "floor">;
def StableHLO_ImagOp : StableHLO_UnaryOp<"imag", "imaginary part">;
def StableHLO_IsFiniteOp : StableHLO_UnaryOp<"is_finite", "finiteness test">;
def StableHLO_LogOp : StableHLO_UnaryOp<"log", "natural logarithm">;
def StableHLO_Log1pOp : StableHLO_UnaryOp<"log_plus_one", "log(1 + x)">;
def StableHLO_LogisticOp : StableHLO_UnaryOp<"logistic", "logistic function">;
def StableHLO_NotOp : StableHLO_UnaryOp<"not", "logical or bitwise not">;
def StableHLO_NegOp : StableHLO_UnaryOp<"negate", "negation">;
def StableHLO_PopulationCountOp : StableHLO_UnaryOp<"popcnt", "count of set bits">;
def StableHLO_RealOp : StableHLO_UnaryOp<"real", "real part">;
def StableHLO_RoundOp : StableHLO_UnaryOp<"round_nearest_afz",
    "rounding, ties away from zero">;
def StableHLO_RoundNearestEvenOp : StableHLO_UnaryOp<"round_nearest_even",
    "rounding, ties to even">;
def StableHLO_RsqrtOp : StableHLO_UnaryOp<"rsqrt", "reciprocal square root">;
def StableHLO_SignOp : StableHLO_UnaryOp<"sign", "sign">;
def StableHLO_SineOp : StableHLO_UnaryOp<"sine", "sine">;
def StableHLO_SqrtOp : StableHLO_UnaryOp<"sqrt", "square root">;
def StableHLO_TanOp : StableHLO_UnaryOp<"tan", "tangent">;
def StableHLO_TanhOp : StableHLO_UnaryOp<"tanh", "hyperbolic tangent">;

// `stablehlo.add %a, %b : tensor<4xf32>`, or the functional type.
class StableHLO_BinaryOp<string mnemonic, string what>
    : StableHLO_Op<mnemonic, [Pure]> {
  let summary = what;
  let description = "Spec: `" # mnemonic # "`, elementwise " # what # ".";
  let arguments = (ins StableHLO_Tensor:$lhs, StableHLO_Tensor:$rhs);
  let results = (outs StableHLO_Tensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:`
    custom<SameOperandsAndResultType>(type($lhs), type($rhs), type($result))
  }];
}

def StableHLO_AddOp : StableHLO_BinaryOp<"add", "sum">;
def StableHLO_Atan2Op : StableHLO_BinaryOp<"atan2", "two-argument arctangent">;
def StableHLO_DivOp : StableHLO_BinaryOp<"divide", "quotient">;
def StableHLO_MaxOp : StableHLO_BinaryOp<"maximum", "maximum">;
def StableHLO_MinOp : StableHLO_BinaryOp<"minimum", "minimum">;
def StableHLO_MulOp : StableHLO_BinaryOp<"multiply", "product">;
def StableHLO_PowOp : StableHLO_BinaryOp<"power", "power">;
def StableHLO_RemOp : StableHLO_BinaryOp<"remainder", "remainder">;
def StableHLO_ShiftLeftOp : StableHLO_BinaryOp<"shift_left", "left shift">;
def StableHLO_ShiftRightArithmeticOp
    : StableHLO_BinaryOp<"shift_right_arithmetic", "arithmetic right shift">;
def StableHLO_ShiftRightLogicalOp
    : StableHLO_BinaryOp<"shift_right_logical", "logical right shift">;
def StableHLO_SubtractOp : StableHLO_BinaryOp<"subtract", "difference">;
def StableHLO_AndOp : StableHLO_BinaryOp<"and", "logical or bitwise and">;
def StableHLO_OrOp : StableHLO_BinaryOp<"or", "logical or bitwise or">;
def StableHLO_XorOp : StableHLO_BinaryOp<"xor", "logical or bitwise xor">;

def StableHLO_ComplexOp : StableHLO_Op<"complex", [Pure]> {
  let summary = "complex number from real and imaginary parts";
  let description = [{
    `%z = stablehlo.complex %re, %im : tensor<4xcomplex<f32>>` (the result
    type alone when the operands have its part type).
  }];
  let arguments = (ins StableHLO_Tensor:$lhs, StableHLO_Tensor:$rhs);
  let results = (outs StableHLO_Tensor:$result);
  let assemblyFormat = [{
    $lhs `,` $rhs attr-dict `:`
    custom<ComplexOpType>(type($lhs), type($rhs), type($result))
  }];
}

def StableHLO_CompareOp : StableHLO_Op<"compare", [Pure]> {
  let summary = "elementwise comparison";
  let description = [{
    `%p = stablehlo.compare LT, %a, %b, FLOAT : (tensor<4xf32>,
    tensor<4xf32>) -> tensor<4xi1>`; the comparison type (FLOAT, TOTALORDER,
    SIGNED, UNSIGNED) is optional.
  }];
  let arguments = (ins StableHLO_Tensor:$lhs, StableHLO_Tensor:$rhs,
                       StableHLO_ComparisonDirectionAttr:$comparison_direction,
                       OptionalAttr<StableHLO_ComparisonTypeAttr>:$compare_type);
  let results = (outs StableHLO_Tensor:$result);
  let assemblyFormat = [{
    $comparison_direction `,` $lhs `,` $rhs (`,` $compare_type^)?
    attr-dict `:` functional-type(operands, results)
  }];
}

def StableHLO_SelectOp : StableHLO_Op<"select", [Pure]> {
  let summary = "elementwise choice";
  let description = [{
    `%r = stablehlo.select %p, %a, %b : tensor<4xi1>, tensor<4xf32>` (the
    predicate's type, then the type of the others and the result).
  }];
  let arguments = (ins StableHLO_Tensor:$pred, StableHLO_Tensor:$on_true,
                       StableHLO_Tensor:$on_false);
  let results = (outs StableHLO_Tensor:$result);
  let assemblyFormat = [{
    operands attr-dict `:` custom<SelectOpType>(type($pred), type($on_true),
                                                type($on_false), type($result))
  }];
}

def StableHLO_ClampOp : StableHLO_Op<"clamp", [Pure]> {
  let summary = "elementwise clamp";
  let description = "`%r = stablehlo.clamp %min, %x, %max : tensor<4xf32>`.";
  let arguments = (ins StableHLO_Tensor:$min, StableHLO_Tensor:$operand,
                       StableHLO_Tensor:$max);
  let results = (outs StableHLO_Tensor:$result);
  let assemblyFormat = [{
    $min `,` $operand `,` $max attr-dict `:`
    custom<SameOperandsAndResultType>(type($min), type($operand), type($max),
                                      type($result))
  }];
}

def StableHLO_BitcastConvertOp : StableHLO_Op<"bitcast_convert", [Pure]> {
  let summary = "reinterpret the bits of each element";
  let description = [{
    `%r = stablehlo.bitcast_convert %x : (tensor<4xf32>) -> tensor<4xi32>`.
  }];
  let arguments = (ins StableHLO_Tensor:$operand);
  let results = (outs StableHLO_Tensor:$result);
  let assemblyFormat = "$operand attr-dict `:` functional-type(operands, results)";
}

def StableHLO_ReducePrecisionOp : StableHLO_Op<"reduce_precision", [Pure]> {
  let summary = "round to a narrower floating-point format";
  let description = [{
    `%r = stablehlo.reduce_precision %x, format = e5m10 : tensor<4xf32>`
    (exponent and mantissa bits).
  }];
  let arguments = (ins StableHLO_Tensor:$operand, I32Attr:$exponent_bits,
                       I32Attr:$mantissa_bits);
  let results = (outs StableHLO_Tensor:$output);
  let assemblyFormat = [{
    $operand `,` `format` `=`
    custom<ExponentMantissa>($exponent_bits, $mantissa_bits) attr-dict `:`
    custom<SameOperandsAndResultType>(type($operand), type($output))
  }];
}

//===----------------------------------------------------------------------===//
// Values and shapes
//===----------------------------------------------------------------------===//

def StableHLO_ConstantOp : StableHLO_Op<"constant",
    [ConstantLike, Pure, DeclareOpInterfaceMethods<OpAsmOpInterface,
                                                   ["getAsmResultNames"]>]> {
  let summary = "a constant tensor";
  let description = [{
    `%c = stablehlo.constant dense<[1.0, 2.0]> : tensor<2xf32>`; the result
    has the value's type.
  }];
  let arguments = (ins ElementsAttr:$value);
  let results = (outs StableHLO_Tensor:$output);
  let hasCustomAssemblyFormat = 1;
  let hasFolder = 1;
}

def StableHLO_IotaOp : StableHLO_Op<"iota", [Pure]> {
  let summary = "indices along a dimension";
  let description = "`%i = stablehlo.iota dim = 0 : tensor<4x8xi32>`.";
  let arguments = (ins I64Attr:$iota_dimension);
  let results = (outs StableHLO_Tensor:$output);
  let assemblyFormat = "`dim` `=` $iota_dimension attr-dict `:` type($output)";
}

def StableHLO_BroadcastInDimOp : StableHLO_Op<"broadcast_in_dim", [Pure]> {
  let summary = "broadcast, mapping operand dimensions to result dimensions";
  let description = [{
    `%b = stablehlo.broadcast_in_dim %x, dims = [1] : (tensor<4xf32>) ->
    tensor<2x4xf32>`.
  }];
  let arguments = (ins StableHLO_Tensor:$operand,
                       DenseI64ArrayAttr:$broadcast_dimensions);
  let results = (outs StableHLO_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` `dims` `=` $broadcast_dimensions attr-dict `:`
    functional-type(operands, results)
  }];
}

def StableHLO_ReshapeOp : StableHLO_Op<"reshape", [Pure]> {
  let summary = "reshape (row-major)";
  let description = "`%r = stablehlo.reshape %x : (tensor<2x3xf32>) -> tensor<6xf32>`.";
  let arguments = (ins StableHLO_Tensor:$operand);
  let results = (outs StableHLO_Tensor:$result);
  let assemblyFormat = "$operand attr-dict `:` functional-type(operands, results)";
}

def StableHLO_TransposeOp : StableHLO_Op<"transpose", [Pure]> {
  let summary = "permute dimensions";
  let description = [{
    `%t = stablehlo.transpose %x, dims = [1, 0] : (tensor<2x3xf32>) ->
    tensor<3x2xf32>`.
  }];
  let arguments = (ins StableHLO_Tensor:$operand, DenseI64ArrayAttr:$permutation);
  let results = (outs StableHLO_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` `dims` `=` $permutation attr-dict `:`
    functional-type(operands, results)
  }];
}

def StableHLO_ReverseOp : StableHLO_Op<"reverse", [Pure]> {
  let summary = "reverse along dimensions";
  let description = "`%r = stablehlo.reverse %x, dims = [0] : tensor<4xf32>`.";
  let arguments = (ins StableHLO_Tensor:$operand, DenseI64ArrayAttr:$dimensions);
  let results = (outs StableHLO_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` `dims` `=` $dimensions attr-dict `:`
    custom<SameOperandsAndResultType>(type($operand), type($result))
  }];
}

def StableHLO_SliceOp : StableHLO_Op<"slice", [Pure]> {
  let summary = "static slice";
  let description = [{
    `%s = stablehlo.slice %x [1:5:2, 0:3] : (tensor<6x3xf32>) ->
    tensor<2x3xf32>` (start:limit or start:limit:stride per dimension).
  }];
  let arguments = (ins StableHLO_Tensor:$operand,
                       DenseI64ArrayAttr:$start_indices,
                       DenseI64ArrayAttr:$limit_indices,
                       DenseI64ArrayAttr:$strides);
  let results = (outs StableHLO_Tensor:$result);
  let assemblyFormat = [{
    $operand custom<SliceRanges>($start_indices, $limit_indices, $strides)
    attr-dict `:` functional-type(operands, results)
  }];
}

def StableHLO_DynamicSliceOp : StableHLO_Op<"dynamic_slice", [Pure]> {
  let summary = "slice at run-time start indices";
  let description = [{
    `%s = stablehlo.dynamic_slice %x, %i, %j, sizes = [2, 2] : (tensor<4x4xf32>,
    tensor<i32>, tensor<i32>) -> tensor<2x2xf32>`.
  }];
  let arguments = (ins StableHLO_Tensor:$operand,
                       Variadic<StableHLO_Tensor>:$start_indices,
                       DenseI64ArrayAttr:$slice_sizes);
  let results = (outs StableHLO_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` custom<VariadicOperandWithAttribute>($start_indices)
    `sizes` `=` $slice_sizes attr-dict `:` functional-type(operands, results)
  }];
}

def StableHLO_DynamicUpdateSliceOp
    : StableHLO_Op<"dynamic_update_slice", [Pure]> {
  let summary = "overwrite a slice at run-time start indices";
  let description = [{
    `%r = stablehlo.dynamic_update_slice %x, %u, %i : (tensor<4xf32>,
    tensor<2xf32>, tensor<i32>) -> tensor<4xf32>`.
  }];
  let arguments = (ins StableHLO_Tensor:$operand, StableHLO_Tensor:$update,
                       Variadic<StableHLO_Tensor>:$start_indices);
  let results = (outs StableHLO_Tensor:$result);
  let assemblyFormat = "operands attr-dict `:` functional-type(operands, results)";
}

def StableHLO_ConcatenateOp : StableHLO_Op<"concatenate", [Pure]> {
  let summary = "concatenate along a dimension";
  let description = [{
    `%c = stablehlo.concatenate %a, %b, dim = 0 : (tensor<2xf32>,
    tensor<3xf32>) -> tensor<5xf32>`.
  }];
  let arguments = (ins Variadic<StableHLO_Tensor>:$inputs, I64Attr:$dimension);
  let results = (outs StableHLO_Tensor:$result);
  let assemblyFormat = [{
    custom<VariadicOperandWithAttribute>($inputs) `dim` `=` $dimension
    attr-dict `:` functional-type(operands, results)
  }];
}

def StableHLO_PadOp : StableHLO_Op<"pad", [Pure]> {
  let summary = "pad with edge and interior padding";
  let description = [{
    `%p = stablehlo.pad %x, %zero, low = [1], high = [0], interior = [1] :
    (tensor<3xf32>, tensor<f32>) -> tensor<6xf32>`.
  }];
  let arguments = (ins StableHLO_Tensor:$operand,
                       StableHLO_Tensor:$padding_value,
                       DenseI64ArrayAttr:$edge_padding_low,
                       DenseI64ArrayAttr:$edge_padding_high,
                       DenseI64ArrayAttr:$interior_padding);
  let results = (outs StableHLO_Tensor:$result);
  let assemblyFormat = [{
    $operand `,` $padding_value `,` `low` `=` $edge_padding_low `,`
    `high` `=` $edge_padding_high `,` `interior` `=` $interior_padding
    attr-dict `:` functional-type(operands, results)
  }];
}

def StableHLO_GatherOp : StableHLO_Op<"gather", [Pure]> {
  let summary = "gather slices at run-time indices";
  let description = [{
    Generic form: `"stablehlo.gather"(%x, %i) <{dimension_numbers =
    #stablehlo.gather<...>, slice_sizes = array<i64: 1, 5>}> : ...`.
  }];
  let arguments = (ins StableHLO_Tensor:$operand,
                       StableHLO_Tensor:$start_indices,
                       StableHLO_GatherDimensionNumbers:$dimension_numbers,
                       DenseI64ArrayAttr:$slice_sizes,
                       DefaultValuedOptionalAttr<BoolAttr, "false">:$indices_are_sorted);
  let results = (outs StableHLO_Tensor:$result);
}

def StableHLO_ScatterOp : StableHLO_Op<"scatter",
    [RecursiveMemoryEffects, SameVariadicOperandSize]> {
  let summary = "combine updates into tensors at run-time indices";
  let description = [{
    Generic form: `"stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers
    = #stablehlo.scatter<...>}> ({ update computation }) : ...`.
  }];
  let arguments = (ins Variadic<StableHLO_Tensor>:$inputs,
                       StableHLO_Tensor:$scatter_indices,
                       Variadic<StableHLO_Tensor>:$updates,
                       StableHLO_ScatterDimensionNumbers:$scatter_dimension_numbers,
                       DefaultValuedOptionalAttr<BoolAttr, "false">:$indices_are_sorted,
                       DefaultValuedOptionalAttr<BoolAttr, "false">:$unique_indices);
  let results = (outs Variadic<StableHLO_Tensor>);
  let regions = (region SizedRegion<1>:$update_computation);
  let hasVerifier = 1;
}

//===----------------------------------------------------------------------===//
// Reductions, windows, sorting
//===----------------------------------------------------------------------===//

def StableHLO_ReduceOp : StableHLO_Op<"reduce",
    [RecursiveMemoryEffects, SameVariadicOperandSize]> {
  let summary = "reduce over dimensions";
  let description = [{
    `%s = stablehlo.reduce(%x init: %zero) applies stablehlo.add across
    dimensions = [1] : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>` when
    the body is one binary op, otherwise the body as a region:

    ```mlir
    %r:2 = stablehlo.reduce(%x init: %a), (%i init: %b) across dimensions = [0]
        : (tensor<8xf32>, tensor<8xi32>, tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<i32>)
     reducer(%x0: tensor<f32>, %x1: tensor<f32>) (%i0: tensor<i32>, %i1: tensor<i32>) {
      ...
      stablehlo.return %v, %j : tensor<f32>, tensor<i32>
    }
    ```
  }];
  let arguments = (ins Variadic<StableHLO_Tensor>:$inputs,
                       Variadic<StableHLO_Tensor>:$init_values,
                       DenseI64ArrayAttr:$dimensions);
  let results = (outs Variadic<StableHLO_Tensor>);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
}

def StableHLO_ReduceWindowOp : StableHLO_Op<"reduce_window",
    [RecursiveMemoryEffects, SameVariadicOperandSize]> {
  let summary = "reduce sliding windows";
  let description = "Generic form, as StableHLO prints it.";
  let arguments = (ins Variadic<StableHLO_Tensor>:$inputs,
                       Variadic<StableHLO_Tensor>:$init_values,
                       DenseI64ArrayAttr:$window_dimensions,
                       OptionalAttr<DenseI64ArrayAttr>:$window_strides,
                       OptionalAttr<DenseI64ArrayAttr>:$base_dilations,
                       OptionalAttr<DenseI64ArrayAttr>:$window_dilations,
                       OptionalAttr<I64ElementsAttr>:$padding);
  let results = (outs Variadic<StableHLO_Tensor>);
  let regions = (region SizedRegion<1>:$body);
}

def StableHLO_SelectAndScatterOp : StableHLO_Op<"select_and_scatter",
    [RecursiveMemoryEffects]> {
  let summary = "scatter each window's source value to the selected element";
  let description = "Generic form, as StableHLO prints it.";
  let arguments = (ins StableHLO_Tensor:$operand, StableHLO_Tensor:$source,
                       StableHLO_Tensor:$init_value,
                       OptionalAttr<DenseI64ArrayAttr>:$window_dimensions,
                       OptionalAttr<DenseI64ArrayAttr>:$window_strides,
                       OptionalAttr<I64ElementsAttr>:$padding);
  let results = (outs StableHLO_Tensor);
  let regions = (region SizedRegion<1>:$select, SizedRegion<1>:$scatter);
}

def StableHLO_SortOp : StableHLO_Op<"sort", [RecursiveMemoryEffects]> {
  let summary = "sort tensors together along a dimension";
  let description = "Generic form, as StableHLO prints it.";
  let arguments = (ins Variadic<StableHLO_Tensor>:$inputs,
                       DefaultValuedOptionalAttr<I64Attr, "-1">:$dimension,
                       DefaultValuedOptionalAttr<BoolAttr, "false">:$is_stable);
  let results = (outs Variadic<StableHLO_Tensor>);
  let regions = (region SizedRegion<1>:$comparator);
}

//===----------------------------------------------------------------------===//
// Contractions and transforms
//===----------------------------------------------------------------------===//

def StableHLO_DotGeneralOp : StableHLO_Op<"dot_general", [Pure]> {
  let summary = "generalized matrix product";
  let description = [{
    `%c = stablehlo.dot_general %a, %b, batching_dims = [0] x [0],
    contracting_dims = [2] x [1], precision = [DEFAULT, DEFAULT] :
    (tensor<2x3x4xf32>, tensor<2x4x5xf32>) -> tensor<2x3x5xf32>`.
  }];
  let arguments = (ins StableHLO_Tensor:$lhs, StableHLO_Tensor:$rhs,
                       StableHLO_DotDimensionNumbers:$dot_dimension_numbers,
                       OptionalAttr<TypedArrayAttrBase<StableHLO_PrecisionAttr,
                           "precision config">>:$precision_config);
  let results = (outs StableHLO_Tensor);
  let assemblyFormat = [{
    $lhs `,` $rhs `,`
    custom<DotDimensionNumbers>($dot_dimension_numbers, $precision_config)
    attr-dict `:`
    functional-type(operands, results)
  }];
}

def StableHLO_ConvolutionOp : StableHLO_Op<"convolution", [Pure]> {
  let summary = "convolution";
  let description = [{
    `%y = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i,
    o]->[b, 0, 1, f], window = {stride = [2, 2], pad = [[1, 1], [1, 1]],
    lhs_dilate = [1, 1], rhs_dilate = [1, 1]} {batch_group_count = 1 : i64,
    feature_group_count = 1 : i64} : (...) -> ...`.
  }];
  let arguments = (ins StableHLO_Tensor:$lhs, StableHLO_Tensor:$rhs,
                       OptionalAttr<DenseI64ArrayAttr>:$window_strides,
                       OptionalAttr<I64ElementsAttr>:$padding,
                       OptionalAttr<DenseI64ArrayAttr>:$lhs_dilation,
                       OptionalAttr<DenseI64ArrayAttr>:$rhs_dilation,
                       OptionalAttr<DenseBoolArrayAttr>:$window_reversal,
                       StableHLO_ConvDimensionNumbers:$dimension_numbers,
                       I64Attr:$feature_group_count,
                       I64Attr:$batch_group_count,
                       OptionalAttr<TypedArrayAttrBase<StableHLO_PrecisionAttr,
                           "precision config">>:$precision_config);
  let results = (outs StableHLO_Tensor);
  let assemblyFormat = [{
    `(` $lhs `,` $rhs `)` `dim_numbers` `=`
    custom<ConvolutionDimensions>($dimension_numbers) `,` `window` `=`
    custom<WindowAttributes>($window_strides, $padding, $lhs_dilation,
                             $rhs_dilation, $window_reversal)
    attr-dict `:` functional-type(operands, results)
  }];
}

def StableHLO_FftOp : StableHLO_Op<"fft", [Pure]> {
  let summary = "fast Fourier transform";
  let description = [{
    `%f = stablehlo.fft %x, type = RFFT, length = [8] : (tensor<8xf32>) ->
    tensor<5xcomplex<f32>>`.
  }];
  let arguments = (ins StableHLO_Tensor:$operand,
                       StableHLO_FftTypeAttr:$fft_type,
                       DenseI64ArrayAttr:$fft_length);
  let results = (outs StableHLO_Tensor);
  let assemblyFormat = [{
    $operand `,` `type` `=` $fft_type `,` `length` `=` $fft_length
    attr-dict `:` functional-type(operands, results)
  }];
}

def StableHLO_TriangularSolveOp : StableHLO_Op<"triangular_solve", [Pure]> {
  let summary = "solve triangular linear systems";
  let description = "Generic form, as StableHLO prints it.";
  let arguments = (ins StableHLO_Tensor:$a, StableHLO_Tensor:$b,
                       BoolAttr:$left_side, BoolAttr:$lower,
                       BoolAttr:$unit_diagonal,
                       StableHLO_TransposeAttr:$transpose_a);
  let results = (outs StableHLO_Tensor);
}

def StableHLO_CholeskyOp : StableHLO_Op<"cholesky", [Pure]> {
  let summary = "Cholesky decomposition";
  let description = "Generic form, as StableHLO prints it.";
  let arguments = (ins StableHLO_Tensor:$a,
                       DefaultValuedOptionalAttr<BoolAttr, "false">:$lower);
  let results = (outs StableHLO_Tensor);
}

def StableHLO_RngBitGeneratorOp : StableHLO_Op<"rng_bit_generator", [Pure]> {
  let summary = "random bits from a counter-based generator";
  let description = [{
    `%s, %bits = stablehlo.rng_bit_generator %state, algorithm = THREE_FRY :
    (tensor<2xui64>) -> (tensor<2xui64>, tensor<4xui32>)`.
  }];
  let arguments = (ins StableHLO_Tensor:$initial_state,
                       StableHLO_RngAlgorithmAttr:$rng_algorithm);
  let results = (outs StableHLO_Tensor:$output_state, StableHLO_Tensor:$output);
  let assemblyFormat = [{
    $initial_state `,` `algorithm` `=` $rng_algorithm attr-dict `:`
    functional-type(operands, results)
  }];
}

//===----------------------------------------------------------------------===//
// Control flow and calls
//===----------------------------------------------------------------------===//

def StableHLO_ReturnOp : StableHLO_Op<"return", [Pure, Terminator]> {
  let summary = "the values a region produces";
  let description = "`stablehlo.return %a, %b : tensor<f32>, tensor<i32>`.";
  let arguments = (ins Variadic<AnyType>:$results);
  let assemblyFormat = "$results attr-dict (`:` type($results)^)?";
}

def StableHLO_WhileOp : StableHLO_Op<"while", [RecursiveMemoryEffects]> {
  let summary = "loop while a condition holds";
  let description = [{
    ```mlir
    %r:2 = stablehlo.while(%i = %zero, %x = %init) : tensor<i32>, tensor<4xf32>
     cond {
      ...
      stablehlo.return %p : tensor<i1>
    } do {
      ...
      stablehlo.return %i1, %x1 : tensor<i32>, tensor<4xf32>
    }
    ```
  }];
  let arguments = (ins Variadic<AnyType>:$operand);
  let results = (outs Variadic<AnyType>);
  let regions = (region SizedRegion<1>:$cond, SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
}

def StableHLO_IfOp : StableHLO_Op<"if", [RecursiveMemoryEffects]> {
  let summary = "two-way conditional";
  let description = [{
    Generic form: `%r = "stablehlo.if"(%p) ({...}, {...}) : (tensor<i1>) ->
    tensor<f32>`.
  }];
  let arguments = (ins StableHLO_Tensor:$pred);
  let results = (outs Variadic<AnyType>);
  let regions = (region SizedRegion<1>:$true_branch,
                        SizedRegion<1>:$false_branch);
}

def StableHLO_CaseOp : StableHLO_Op<"case", [RecursiveMemoryEffects]> {
  let summary = "n-way conditional";
  let description = [{
    Generic form: `%r = "stablehlo.case"(%i) ({...}, {...}) : (tensor<i32>)
    -> tensor<f32>`.
  }];
  let arguments = (ins StableHLO_Tensor:$index);
  let results = (outs Variadic<AnyType>);
  let regions = (region VariadicRegion<SizedRegion<1>>:$branches);
}

def StableHLO_OptimizationBarrierOp
    : StableHLO_Op<"optimization_barrier", [Pure]> {
  let summary = "values passed through unchanged";
  let description = "Generic form: `\"stablehlo.optimization_barrier\"(%a) : ...`.";
  let arguments = (ins Variadic<AnyType>:$operand);
  let results = (outs Variadic<AnyType>:$result);
}

def StableHLO_CustomCallOp : StableHLO_Op<"custom_call"> {
  let summary = "a call to code outside StableHLO";
  let description = [{
    `stablehlo.custom_call @check.expect_eq(%a, %b) {has_side_effect = true}
    : (tensor<4xf32>, tensor<4xf32>) -> ()`; other attributes (backend
    config, layouts, api version) are kept as written.
  }];
  let arguments = (ins Variadic<AnyType>:$inputs, StrAttr:$call_target_name,
                       DefaultValuedOptionalAttr<BoolAttr, "false">:$has_side_effect);
  let results = (outs Variadic<AnyType>);
  let assemblyFormat = [{
    custom<CustomCallTarget>($call_target_name) `(` $inputs `)`
    attr-dict `:` functional-type(operands, results)
  }];
}

//===----------------------------------------------------------------------===//
// Distribution
//===----------------------------------------------------------------------===//

def StableHLO_ReplicaIdOp : StableHLO_Op<"replica_id", [Pure]> {
  let summary = "this replica's id";
  let description = "`%r = stablehlo.replica_id : tensor<ui32>`.";
  let results = (outs StableHLO_Tensor);
  let assemblyFormat = "attr-dict `:` type(results)";
}

def StableHLO_PartitionIdOp : StableHLO_Op<"partition_id", [Pure]> {
  let summary = "this partition's id";
  let description = "`%p = stablehlo.partition_id : tensor<ui32>`.";
  let results = (outs StableHLO_Tensor);
  let assemblyFormat = "attr-dict `:` type(results)";
}

def StableHLO_AllReduceOp : StableHLO_Op<"all_reduce", [RecursiveMemoryEffects]> {
  let summary = "reduce across replicas";
  let description = "Generic form, as StableHLO prints it.";
  let arguments = (ins Variadic<StableHLO_Tensor>:$operands,
                       I64ElementsAttr:$replica_groups,
                       OptionalAttr<StableHLO_ChannelHandle>:$channel_handle,
                       UnitAttr:$use_global_device_ids);
  let results = (outs Variadic<StableHLO_Tensor>);
  let regions = (region SizedRegion<1>:$computation);
}

def StableHLO_AllGatherOp : StableHLO_Op<"all_gather"> {
  let summary = "concatenate across replicas";
  let description = "Generic form, as StableHLO prints it.";
  let arguments = (ins Variadic<StableHLO_Tensor>:$operands,
                       I64Attr:$all_gather_dim,
                       I64ElementsAttr:$replica_groups,
                       OptionalAttr<StableHLO_ChannelHandle>:$channel_handle,
                       UnitAttr:$use_global_device_ids);
  let results = (outs Variadic<StableHLO_Tensor>);
}

def StableHLO_ReduceScatterOp : StableHLO_Op<"reduce_scatter",
    [RecursiveMemoryEffects]> {
  let summary = "reduce across replicas, each keeping one block";
  let description = "Generic form, as StableHLO prints it.";
  let arguments = (ins StableHLO_Tensor:$operand, I64Attr:$scatter_dimension,
                       I64ElementsAttr:$replica_groups,
                       OptionalAttr<StableHLO_ChannelHandle>:$channel_handle,
                       UnitAttr:$use_global_device_ids);
  let results = (outs StableHLO_Tensor);
  let regions = (region SizedRegion<1>:$computation);
}

def StableHLO_AllToAllOp : StableHLO_Op<"all_to_all"> {
  let summary = "exchange blocks across replicas";
  let description = "Generic form, as StableHLO prints it.";
  let arguments = (ins Variadic<StableHLO_Tensor>:$operands,
                       I64Attr:$split_dimension, I64Attr:$concat_dimension,
                       I64Attr:$split_count, I64ElementsAttr:$replica_groups,
                       OptionalAttr<StableHLO_ChannelHandle>:$channel_handle);
  let results = (outs Variadic<StableHLO_Tensor>);
}

def StableHLO_CollectivePermuteOp : StableHLO_Op<"collective_permute"> {
  let summary = "send to and receive from fixed peers";
  let description = "Generic form, as StableHLO prints it.";
  let arguments = (ins StableHLO_Tensor:$operand,
                       I64ElementsAttr:$source_target_pairs,
                       OptionalAttr<StableHLO_ChannelHandle>:$channel_handle);
  let results = (outs StableHLO_Tensor);
}

#endif // TORUS_STABLEHLO_OPS_TD
