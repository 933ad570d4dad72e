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

    Element types are `f16`, `bf16`, `f32`, `f64`, `f8E4M3FN` and `f8E5M2`
    (HLO `f8e4m3fn`, `f8e5m2`: storage types, computed in f32), `i1` (HLO
    `pred`), `i32` and `i64`. Integers are signed (HLO `s32`, `s64`); where HLO uses an
    unsigned type (`replica-id`, random bits) Torus uses the signless type
    of the same width and says so in the op's description.

    Attribute names follow StableHLO/HLO (`broadcast_dimensions`,
    `slice_sizes`, `offset_dims`, `window_strides`, `feature_group_count`,
    `replica_groups`, ...), so a reader who knows HLO can read the IR and an
    importer maps attributes one to one. Where HLO carries a reducer
    computation (`reduce`, `reduce_window`, `scatter`, `all_reduce`), a
    torus op names its combiner by a kind instead; `reduce_general` and
    `reduce_window_general` carry any other reducer as a body.
  }];
  let hasConstantMaterializer = 1;
  let useDefaultAttributePrinterParser = 1;
  // `torus.sharding` annotations are checked wherever they sit, whatever
  // the partition count (ir/ShardingAnnotationVerifier.cpp).
  let hasOperationAttrVerify = 1;
  let hasRegionArgAttrVerify = 1;
  let hasRegionResultAttrVerify = 1;

  // The markers passes exchange on ops of other dialects, one type each.
  // Each gets a typed helper, `TorusDialect::<Name>AttrHelper` (constructed
  // from a context, or from the loaded dialect's get<Name>AttrHelper()),
  // with getAttr/setAttr/isAttrPresent/removeAttr; use it rather than the
  // attribute's name. docs/codegen.md ("Markers") says who sets and reads
  // each.
  let discardableAttrs = (ins
    // torus-fusion: on every kernel (linalg op), its kind ("loop", "input",
    // "output", "none"), its name ("fusion.N", shared by a contraction and
    // its epilogue) and how many ops its body computes.
    "::mlir::StringAttr":$fusion,
    "::mlir::StringAttr":$kernel,
    "::mlir::IntegerAttr":$fused_ops,
    // torus-plan-buffers: the entry function's workspace size in bytes, and
    // on each memref.view of the workspace its buffer number and offset.
    "::mlir::IntegerAttr":$workspace_bytes,
    "::mlir::IntegerAttr":$buffer,
    "::mlir::IntegerAttr":$offset,
    // torus-lower-collectives: the module's table of lowered collectives.
    "::mlir::ArrayAttr":$collectives,
    // The module's device counts: replicas and partitions per replica (set
    // by the compiler, the HLO importer and torus-spmd-partition; read by
    // the sharding, SPMD and collective passes).
    "::mlir::IntegerAttr":$num_replicas,
    "::mlir::IntegerAttr":$num_partitions,
    // The kernel stage: a loop host threads may share (set by
    // torus-fuse-epilogues and torus-vectorize-kernels, read by the
    // latter); within torus-vectorize-kernels, a tile loop to peel and the
    // tiles of each level.
    "::mlir::UnitAttr":$parallel_tile,
    "::mlir::UnitAttr":$kernel_loop,
    "::mlir::UnitAttr":$cache_panel,
    "::mlir::UnitAttr":$cache_tile,
    "::mlir::UnitAttr":$register_tile,
    // Attributes the sharding passes, the HLO importer and exporter exchange
    // on ops and functions (ir/Sharding.h says where they sit): `sharding` is
    // a #torus.sharding, an array of them (one per result) or HLO text;
    // `sharding_origin` a string, or an array of them, one per result.
    "::mlir::Attribute":$sharding,
    "::mlir::Attribute":$sharding_origin,
    // A program made per device from a global one (a shard_map over every
    // mesh axis; set by the HLO and StableHLO importers, read by
    // torus-run): on each entry argument and result that is a device's
    // shard, the global array's type and its #torus.sharding over all
    // devices (replicas x partitions of the global program).
    "::mlir::TypeAttr":$global_type,
    "::mlir::Attribute":$global_sharding
  );
}

// `extraTraits` adds traits to those a def's class gives it:
//   def Torus_AbsOp : Torus_UnaryOp<...> { let extraTraits = [...]; }
class Torus_Op<string mnemonic, list<Trait> props = []>
    : Op<Torus_Dialect, mnemonic, props> {
  list<Trait> extraTraits = [];
  let traits = props # extraTraits;
}

def Torus_ComparisonDirection : I32EnumAttr<"ComparisonDirection",
    "HLO comparison direction", [
      I32EnumAttrCase<"EQ", 0>, I32EnumAttrCase<"NE", 1>,
      I32EnumAttrCase<"LT", 2>, I32EnumAttrCase<"LE", 3>,
      I32EnumAttrCase<"GT", 4>, I32EnumAttrCase<"GE", 5>]> {
  let cppNamespace = "::mlir::torus";
}

// The first four values are shared with torus::rt::ReduceKind (the runtime's
// all-reduce); keep them in this order.
def Torus_ReduceKind : I32EnumAttr<"ReduceKind",
    "the combiner of a reduction or all-reduce", [
      I32EnumAttrCase<"sum", 0>, I32EnumAttrCase<"product", 1>,
      I32EnumAttrCase<"max", 2>, I32EnumAttrCase<"min", 3>,
      I32EnumAttrCase<"And", 4, "and">, I32EnumAttrCase<"Or", 5, "or">]> {
  let cppNamespace = "::mlir::torus";
}

def Torus_ScatterKind : I32EnumAttr<"ScatterKind",
    "how scatter combines an update with the value it lands on", [
      I32EnumAttrCase<"replace", 0>, I32EnumAttrCase<"sum", 1>,
      I32EnumAttrCase<"product", 2>, I32EnumAttrCase<"max", 3>,
      I32EnumAttrCase<"min", 4>]> {
  let cppNamespace = "::mlir::torus";
}

def Torus_RngAlgorithm : I32EnumAttr<"RngAlgorithm",
    "HLO random bit generator algorithm", [
      I32EnumAttrCase<"DEFAULT", 0>, I32EnumAttrCase<"THREE_FRY", 1>,
      I32EnumAttrCase<"PHILOX", 2>]> {
  let cppNamespace = "::mlir::torus";
}

// HLO's TriangularSolveOptions.Transpose: which matrix a triangular solve
// applies, a, its transpose, or its conjugate transpose.
def Torus_TransposeKind : I32EnumAttr<"TransposeKind",
    "which of a, a^T and conj(a)^T a triangular solve applies", [
      I32EnumAttrCase<"NO_TRANSPOSE", 0>, I32EnumAttrCase<"TRANSPOSE", 1>,
      I32EnumAttrCase<"ADJOINT", 2>]> {
  let cppNamespace = "::mlir::torus";
}

def Torus_FftType : I32EnumAttr<"FftType",
    "HLO fft_type: complex forward or inverse, real to complex, complex to real", [
      I32EnumAttrCase<"FFT", 0>, I32EnumAttrCase<"IFFT", 1>,
      I32EnumAttrCase<"RFFT", 2>, I32EnumAttrCase<"IRFFT", 3>]> {
  let cppNamespace = "::mlir::torus";
}

//===----------------------------------------------------------------------===//
// Attributes
//===----------------------------------------------------------------------===//

def Torus_ConvDimensionNumbersAttr
    : AttrDef<Torus_Dialect, "ConvDimensionNumbers"> {
  let mnemonic = "conv";
  let summary = "which dimension of each convolution operand is which";
  let description = [{
    HLO's `ConvDimensionNumbers` (StableHLO's `#stablehlo.conv`): the batch,
    feature and spatial dimensions of the input (lhs), kernel (rhs) and
    output. Written as three layouts, one letter or spatial index per tensor
    dimension: `b` batch, `f` feature, `i`/`o` kernel input/output feature,
    and `0`, `1`, ... the spatial dimensions in order:

    ```mlir
    #torus.conv<[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]>   // NHWC, HWIO
    ```
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

#endif // TORUS_DIALECT_TD
