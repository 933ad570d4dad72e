// A traced module as TracedFunction::toString() and the API's dumps print
// it (CompileOptions::dumpDir): the arguments' names ("x", "w", given with
// setArgumentNames) in their locations, around the line that called trace().
module {
  func.func @step(%arg0: tensor<8x4xf32> loc("x"("model.cpp":12:13)), %arg1: tensor<4x3xf32> loc("w"("model.cpp":12:13))) -> tensor<8x3xf32> {
    %0 = torus.dot_general %arg0, %arg1, batching_dims = [] x [], contracting_dims = [1] x [0] : (tensor<8x4xf32>, tensor<4x3xf32>) -> tensor<8x3xf32> loc("model.cpp":14:12)
    return %0 : tensor<8x3xf32> loc("step")
  } loc("model.cpp":12:13)
} loc("step")
