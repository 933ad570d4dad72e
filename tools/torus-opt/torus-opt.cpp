//===- torus-opt.cpp - mlir-opt with the torus dialect and passes ---------===//
//
// For lit tests and for running single passes by hand:
//   torus-opt in.mlir --torus-to-linalg
//   torus-opt in.mlir --torus-compile        (all the way to the LLVM dialect)
//
//===----------------------------------------------------------------------===//

#include "codegen/Pipelines.h"
#include "ir/stablehlo/ConvertToTorus.h"
#include "ir/stablehlo/StablehloImport.h"
#include "passes/Passes.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"
#include "mlir/Transforms/Passes.h"
#include "runtime/jit/CpuTarget.h"
#include "llvm/Support/raw_ostream.h"

int main(int argc, char **argv) {
  // The kernel pipelines size their vectors by TORUS_TARGET; one it cannot
  // resolve is named here, and this host's width used (defaultVectorBits).
  if (auto target = torus::rt::defaultCpuTarget(); !target.ok())
    llvm::errs() << "torus-opt: " << std::string(target.status().message())
                 << "; using this host's vector width\n";
  mlir::registerTransformsPasses(); // canonicalize, cse, ...
  mlir::torus::registerTorusPipelines();
  mlir::torus::registerTorusPasses(); // torus-value-and-grad, ...
  mlir::torus::stablehlo::registerStablehloPasses(); // torus-convert-stablehlo
  mlir::DialectRegistry registry;
  mlir::torus::registerCodegenDialects(registry);
  mlir::torus::stablehlo::registerStablehloDialects(registry);
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "Torus optimizer driver\n", registry));
}
