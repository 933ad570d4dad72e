//===- Passes.td - Graph-level passes of the torus dialect -*- tablegen -*-===//
#ifndef TORUS_PASSES_PASSES_TD
#define TORUS_PASSES_PASSES_TD

include "mlir/Pass/PassBase.td"

def TorusValueAndGrad : Pass<"torus-value-and-grad", "ModuleOp"> {
  let summary = "Add a function computing a loss and its gradients";
  let description = [{
    For every public function that returns one floating-point scalar (a
    loss), adds `@<name>_value_and_grad`, which returns the loss followed by
    its gradient with respect to each floating-point argument, by reverse
    mode over the function's own ops (passes/Autodiff.cpp). Integer
    arguments (labels, indices) get no gradient.

    Before:
    ```mlir
    func.func @loss(%w: tensor<3xf32>, %x: tensor<3xf32>) -> tensor<f32> {
      %0 = torus.multiply %w, %x : tensor<3xf32>
      %1 = torus.reduce sum %0, dims = [0] : (tensor<3xf32>) -> tensor<f32>
      return %1 : tensor<f32>
    }
    ```
    After (the original stays):
    ```mlir
    func.func @loss_value_and_grad(%w: tensor<3xf32>, %x: tensor<3xf32>)
        -> (tensor<f32>, tensor<3xf32>, tensor<3xf32>) {
      %0 = torus.multiply %w, %x : tensor<3xf32>
      %1 = torus.reduce sum %0, dims = [0] : (tensor<3xf32>) -> tensor<f32>
      %one = torus.constant dense<1.0> : tensor<f32>
      %2 = torus.broadcast_in_dim %one, dims = [] : (tensor<f32>) -> tensor<3xf32>
      %dw = torus.multiply %2, %x : tensor<3xf32>
      %dx = torus.multiply %2, %w : tensor<3xf32>
      return %1, %dw, %dx : tensor<f32>, tensor<3xf32>, tensor<3xf32>
    }
    ```
  }];
  let dependentDialects = ["::mlir::torus::TorusDialect"];
}

#endif // TORUS_PASSES_PASSES_TD
