//===- SdyOps.td - The sdy (Shardy) dialect -----------------*- tablegen -*-===//
//
// Shardy's sharding representation (spec: spec/shardy/sdy_dialect.md,
// sharding_representation.md), as far as Torus reads it in StableHLO text:
// meshes, tensor shardings on function arguments and results, sharding
// constraints, and manual computations (parsed; shard_map and pmap).
//
//===----------------------------------------------------------------------===//
#ifndef TORUS_SDY_OPS_TD
#define TORUS_SDY_OPS_TD

include "mlir/IR/OpBase.td"
include "mlir/IR/AttrTypeBase.td"
include "mlir/IR/SymbolInterfaces.td"
include "mlir/Interfaces/SideEffectInterfaces.td"

def Sdy_Dialect : Dialect {
  let name = "sdy";
  let cppNamespace = "::mlir::sdy";
  let summary = "Shardy shardings, as far as Torus reads them";
  let description = [{
    `sdy.mesh`, `#sdy.sharding<...>`, `sdy.sharding_constraint`,
    `sdy.reshard` and `sdy.manual_computation`, in the text forms Shardy
    prints. ir/stablehlo/ConvertToTorus turns shardings into
    `#torus.sharding` (docs/stablehlo.md).
  }];
  let useDefaultAttributePrinterParser = 1;
}

class Sdy_Attr<string name, string attrMnemonic>
    : AttrDef<Sdy_Dialect, name> {
  let mnemonic = attrMnemonic;
  let hasCustomAssemblyFormat = 1;
}

def Sdy_AxisRef : Sdy_Attr<"AxisRef", "axis_ref"> {
  let summary = "a mesh axis, or a sub-axis `\"x\":(pre)size`";
  let description = "`\"x\"`; a sub-axis `\"x\":(2)4` has `preSize` 2, `size` 4.";
  let parameters = (ins "StringAttr":$name, "int64_t":$preSize,
                        "int64_t":$size);
}

def Sdy_DimensionSharding
    : Sdy_Attr<"DimensionSharding", "dimension_sharding"> {
  let summary = "the axes one tensor dimension is sharded along";
  let description = [{
    `{"x", "y"}` (closed), `{"x", ?}` (open), with an optional priority
    `p1`; -1 for none.
  }];
  let parameters = (ins ArrayRefParameter<"AxisRefAttr">:$axes,
                        "bool":$isClosed, "int64_t":$priority);
}

def Sdy_Mesh : Sdy_Attr<"Mesh", "mesh"> {
  let summary = "named mesh axes and their sizes";
  let description = "`<[\"x\"=4, \"y\"=2]>`, optionally `device_ids=[...]`.";
  let parameters = (ins ArrayRefParameter<"StringAttr">:$axisNames,
                        ArrayRefParameter<"int64_t">:$axisSizes,
                        ArrayRefParameter<"int64_t">:$deviceIds);
}

def Sdy_TensorSharding : Sdy_Attr<"TensorSharding", "sharding"> {
  let summary = "a tensor's sharding over a mesh";
  let description = "`#sdy.sharding<@mesh, [{\"x\"}, {}], replicated={\"y\"}>`: "
    "per dimension, the axes it is split along, major to minor.";
  let parameters = (ins "Attribute":$meshOrRef,
                        ArrayRefParameter<"DimensionShardingAttr">:$dimShardings,
                        ArrayRefParameter<"AxisRefAttr">:$replicatedAxes,
                        ArrayRefParameter<"AxisRefAttr">:$unreducedAxes);
}

def Sdy_TensorShardingPerValue
    : Sdy_Attr<"TensorShardingPerValue", "sharding_per_value"> {
  let summary = "one sharding per result of an op";
  let description = "`#sdy.sharding_per_value<[<@mesh, [{\"x\"}]>, ...]>`.";
  let parameters = (ins ArrayRefParameter<"TensorShardingAttr">:$shardings);
}

class Sdy_Op<string mnemonic, list<Trait> traits = []>
    : Op<Sdy_Dialect, mnemonic, traits>;

def Sdy_MeshOp : Sdy_Op<"mesh", [Symbol]> {
  let summary = "a named mesh";
  let description = "`sdy.mesh @mesh = <[\"x\"=4, \"y\"=2]>`.";
  let arguments = (ins SymbolNameAttr:$sym_name, Sdy_Mesh:$mesh);
  let assemblyFormat = "$sym_name `=` $mesh attr-dict";
}

def Sdy_ShardingConstraintOp : Sdy_Op<"sharding_constraint",
    [Pure, AllTypesMatch<["input", "result"]>]> {
  let summary = "pin a value's sharding";
  let description = "`%y = sdy.sharding_constraint %x <@mesh, [{\"x\"}, {}]> "
    ": tensor<8x4xf32>`.";
  let arguments = (ins AnyRankedTensor:$input, Sdy_TensorSharding:$sharding);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input $sharding attr-dict `:` type($result)";
}

def Sdy_ReshardOp : Sdy_Op<"reshard",
    [Pure, AllTypesMatch<["input", "result"]>]> {
  let summary = "change a value's sharding";
  let description = "`%y = sdy.reshard %x <@mesh, [{\"x\"}]> : tensor<8xf32>`.";
  let arguments = (ins AnyRankedTensor:$input, Sdy_TensorSharding:$sharding);
  let results = (outs AnyRankedTensor:$result);
  let assemblyFormat = "$input $sharding attr-dict `:` type($result)";
}

def Sdy_ReturnOp : Sdy_Op<"return", [Pure, Terminator]> {
  let summary = "the values of a manual computation";
  let description = "`sdy.return %a : tensor<1x4xf32>`.";
  let arguments = (ins Variadic<AnyType>:$results);
  let assemblyFormat = "attr-dict ($results^ `:` type($results))?";
}

def Sdy_ManualComputationOp : Sdy_Op<"manual_computation",
    [RecursiveMemoryEffects, IsolatedFromAbove]> {
  let summary = "a per-device body over manual mesh axes (shard_map)";
  let description = "`%r = sdy.manual_computation(%x) in_shardings=[<@mesh, "
    "[{\"i\"}, {}]>] out_shardings=[<@mesh, [{\"i\"}, {}]>] manual_axes={\"i\"} "
    "(%local: tensor<1x4xf32>) { ... sdy.return %y : tensor<1x4xf32> } : "
    "(tensor<8x4xf32>) -> tensor<8x4xf32>`.";
  let arguments = (ins Variadic<AnyType>:$tensors,
                       Sdy_TensorShardingPerValue:$in_shardings,
                       Sdy_TensorShardingPerValue:$out_shardings,
                       ArrayAttr:$manual_axes);
  let results = (outs Variadic<AnyType>:$results);
  let regions = (region SizedRegion<1>:$body);
  let hasCustomAssemblyFormat = 1;
}

#endif // TORUS_SDY_OPS_TD
