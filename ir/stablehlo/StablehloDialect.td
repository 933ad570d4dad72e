//===- StablehloDialect.td - The stablehlo dialect ---------*- tablegen -*-===//
//
// StableHLO (spec: the public StableHLO specification, spec.md), defined
// here so that Torus reads the text JAX writes (`jax.jit(f).lower(...)
// .as_text()`, `jax.export`) with Debian's MLIR alone. Only what reading
// needs: the ops, their attributes and the pretty forms StableHLO's printer
// writes; light verification (the conversion to the torus dialect checks
// what it relies on, and torus ops verify the rest). Types are MLIR's
// builtin tensors.
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_STABLEHLO_DIALECT_TD
#define TORUS_STABLEHLO_DIALECT_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/EnumAttr.td"

def StableHLO_Dialect : Dialect {
  let name = "stablehlo";
  let cppNamespace = "::mlir::stablehlo";
  let summary = "StableHLO, as far as Torus reads it";
  let description = [{
    The operation set of the StableHLO specification (its ops, attributes
    and their text forms), so that StableHLO programs parse and print as
    StableHLO's own tools write them. `ir/stablehlo/ConvertToTorus` turns
    them into the torus dialect; docs/stablehlo.md lists what is accepted.
  }];
  let useDefaultAttributePrinterParser = 1;
}

//===----------------------------------------------------------------------===//
// Enums (spec: "Types" of each op's attributes)
//===----------------------------------------------------------------------===//

def StableHLO_ComparisonDirectionEnum : I32EnumAttr<"ComparisonDirection",
    "comparison direction", [
      I32EnumAttrCase<"EQ", 0>, I32EnumAttrCase<"NE", 1>,
      I32EnumAttrCase<"GE", 2>, I32EnumAttrCase<"GT", 3>,
      I32EnumAttrCase<"LE", 4>, I32EnumAttrCase<"LT", 5>]> {
  let cppNamespace = "::mlir::stablehlo";
  let genSpecializedAttr = 0;
}
def StableHLO_ComparisonDirectionAttr : EnumAttr<StableHLO_Dialect,
    StableHLO_ComparisonDirectionEnum, "comparison_direction">;

def StableHLO_ComparisonTypeEnum : I32EnumAttr<"ComparisonType",
    "comparison type", [
      I32EnumAttrCase<"NOTYPE", 0>, I32EnumAttrCase<"FLOAT", 1>,
      I32EnumAttrCase<"TOTALORDER", 2>, I32EnumAttrCase<"SIGNED", 3>,
      I32EnumAttrCase<"UNSIGNED", 4>]> {
  let cppNamespace = "::mlir::stablehlo";
  let genSpecializedAttr = 0;
}
def StableHLO_ComparisonTypeAttr : EnumAttr<StableHLO_Dialect,
    StableHLO_ComparisonTypeEnum, "comparison_type">;

def StableHLO_PrecisionEnum : I32EnumAttr<"Precision", "operand precision", [
      I32EnumAttrCase<"DEFAULT", 0>, I32EnumAttrCase<"HIGH", 1>,
      I32EnumAttrCase<"HIGHEST", 2>]> {
  let cppNamespace = "::mlir::stablehlo";
  let genSpecializedAttr = 0;
}
def StableHLO_PrecisionAttr : EnumAttr<StableHLO_Dialect,
    StableHLO_PrecisionEnum, "precision">;

def StableHLO_TransposeEnum : I32EnumAttr<"Transpose",
    "triangular_solve's transpose_a", [
      I32EnumAttrCase<"TRANSPOSE_INVALID", 0>,
      I32EnumAttrCase<"NO_TRANSPOSE", 1>, I32EnumAttrCase<"TRANSPOSE", 2>,
      I32EnumAttrCase<"ADJOINT", 3>]> {
  let cppNamespace = "::mlir::stablehlo";
  let genSpecializedAttr = 0;
}
def StableHLO_TransposeAttr : EnumAttr<StableHLO_Dialect,
    StableHLO_TransposeEnum, "transpose">;

def StableHLO_FftTypeEnum : I32EnumAttr<"FftType", "fft type", [
      I32EnumAttrCase<"FFT", 0>, I32EnumAttrCase<"IFFT", 1>,
      I32EnumAttrCase<"RFFT", 2>, I32EnumAttrCase<"IRFFT", 3>]> {
  let cppNamespace = "::mlir::stablehlo";
  let genSpecializedAttr = 0;
}
def StableHLO_FftTypeAttr : EnumAttr<StableHLO_Dialect, StableHLO_FftTypeEnum,
    "fft_type">;

def StableHLO_RngAlgorithmEnum : I32EnumAttr<"RngAlgorithm",
    "rng_bit_generator algorithm", [
      I32EnumAttrCase<"DEFAULT", 0>, I32EnumAttrCase<"THREE_FRY", 1>,
      I32EnumAttrCase<"PHILOX", 2>]> {
  let cppNamespace = "::mlir::stablehlo";
  let genSpecializedAttr = 0;
}
def StableHLO_RngAlgorithmAttr : EnumAttr<StableHLO_Dialect,
    StableHLO_RngAlgorithmEnum, "rng_algorithm">;

def StableHLO_RngDistributionEnum : I32EnumAttr<"RngDistribution",
    "rng distribution", [
      I32EnumAttrCase<"UNIFORM", 1>, I32EnumAttrCase<"NORMAL", 2>]> {
  let cppNamespace = "::mlir::stablehlo";
  let genSpecializedAttr = 0;
}
def StableHLO_RngDistributionAttr : EnumAttr<StableHLO_Dialect,
    StableHLO_RngDistributionEnum, "rng_distribution">;

//===----------------------------------------------------------------------===//
// Structured attributes
//===----------------------------------------------------------------------===//

class StableHLO_Attr<string name, string attrMnemonic>
    : AttrDef<StableHLO_Dialect, name> {
  let mnemonic = attrMnemonic;
}

def StableHLO_GatherDimensionNumbers
    : StableHLO_Attr<"GatherDimensionNumbers", "gather"> {
  let summary = "gather's dimension numbers";
  let description = [{
    `#stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0],
    start_index_map = [0], index_vector_dim = 1>`; empty lists and a zero
    `index_vector_dim` are left out.
  }];
  let parameters = (ins
    ArrayRefParameter<"int64_t">:$offsetDims,
    ArrayRefParameter<"int64_t">:$collapsedSliceDims,
    ArrayRefParameter<"int64_t">:$operandBatchingDims,
    ArrayRefParameter<"int64_t">:$startIndicesBatchingDims,
    ArrayRefParameter<"int64_t">:$startIndexMap,
    "int64_t":$indexVectorDim);
  let hasCustomAssemblyFormat = 1;
}

def StableHLO_ScatterDimensionNumbers
    : StableHLO_Attr<"ScatterDimensionNumbers", "scatter"> {
  let summary = "scatter's dimension numbers";
  let description = [{
    `#stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0],
    scatter_dims_to_operand_dims = [0], index_vector_dim = 1>`; empty lists
    and a zero `index_vector_dim` are left out.
  }];
  let parameters = (ins
    ArrayRefParameter<"int64_t">:$updateWindowDims,
    ArrayRefParameter<"int64_t">:$insertedWindowDims,
    ArrayRefParameter<"int64_t">:$inputBatchingDims,
    ArrayRefParameter<"int64_t">:$scatterIndicesBatchingDims,
    ArrayRefParameter<"int64_t">:$scatterDimsToOperandDims,
    "int64_t":$indexVectorDim);
  let hasCustomAssemblyFormat = 1;
}

def StableHLO_DotDimensionNumbers
    : StableHLO_Attr<"DotDimensionNumbers", "dot"> {
  let summary = "dot_general's dimension numbers";
  let description = [{
    `#stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions =
    [0], lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>`.
  }];
  let parameters = (ins
    ArrayRefParameter<"int64_t">:$lhsBatchingDimensions,
    ArrayRefParameter<"int64_t">:$rhsBatchingDimensions,
    ArrayRefParameter<"int64_t">:$lhsContractingDimensions,
    ArrayRefParameter<"int64_t">:$rhsContractingDimensions);
  let hasCustomAssemblyFormat = 1;
}

def StableHLO_ConvDimensionNumbers
    : StableHLO_Attr<"ConvDimensionNumbers", "conv"> {
  let summary = "convolution's dimension numbers";
  let description = [{
    `#stablehlo.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>`: per tensor
    dimension of the input, kernel and output, `b` batch, `f` feature,
    `i`/`o` the kernel's input/output feature, `0`, `1`, ... spatial.
  }];
  let parameters = (ins
    "int64_t":$inputBatchDimension,
    "int64_t":$inputFeatureDimension,
    ArrayRefParameter<"int64_t">:$inputSpatialDimensions,
    "int64_t":$kernelInputFeatureDimension,
    "int64_t":$kernelOutputFeatureDimension,
    ArrayRefParameter<"int64_t">:$kernelSpatialDimensions,
    "int64_t":$outputBatchDimension,
    "int64_t":$outputFeatureDimension,
    ArrayRefParameter<"int64_t">:$outputSpatialDimensions);
  let hasCustomAssemblyFormat = 1;
}

def StableHLO_ChannelHandle : StableHLO_Attr<"ChannelHandle", "channel_handle"> {
  let summary = "a collective's channel";
  let parameters = (ins "int64_t":$handle, "int64_t":$type);
  let assemblyFormat = "`<` struct(params) `>`";
}

#endif // TORUS_STABLEHLO_DIALECT_TD
