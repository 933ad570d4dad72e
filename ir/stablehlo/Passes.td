//===- Passes.td - StableHLO to the torus dialect -----------*- tablegen -*-===//
#ifndef TORUS_STABLEHLO_PASSES_TD
#define TORUS_STABLEHLO_PASSES_TD

include "mlir/Pass/PassBase.td"

def TorusConvertStablehlo : Pass<"torus-convert-stablehlo", "ModuleOp"> {
  let summary = "Convert the stablehlo and chlo dialects to the torus dialect";
  let description = [{
    Rewrites every stablehlo and chlo op into its torus equivalent (torus
    ops have HLO semantics, so most map one to one), with one pattern file
    per op family (ConvertElementwise.cpp, ConvertShape.cpp,
    ConvertReduction.cpp, ConvertContraction.cpp, ConvertIndexing.cpp,
    ConvertControlFlow.cpp). Reducer regions (`reduce`, `reduce_window`,
    `scatter`) become the torus op's kind, as the HLO importer reads `to_apply`
    computations; comparator and select/scatter regions, loop and branch
    bodies move into the torus op. `func.call` becomes `torus.call`. The
    module's `mhlo.num_replicas` and `mhlo.num_partitions` become
    `torus.num_replicas` and `torus.num_partitions`. `check.expect_*`
    custom calls (the StableHLO test suite's checks) are dropped.

    An op without a torus equivalent is an error naming it, at its location.

    Before:
    ```mlir
    %s = stablehlo.reduce(%x init: %zero) applies stablehlo.add across dimensions = [1]
        : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
    ```
    After:
    ```mlir
    %s = torus.reduce sum %x, dims = [1] : (tensor<4x8xf32>) -> tensor<4xf32>
    ```
  }];
  let dependentDialects = ["::mlir::torus::TorusDialect",
                           "::mlir::func::FuncDialect"];
}

#endif // TORUS_STABLEHLO_PASSES_TD
