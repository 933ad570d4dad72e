// XLA's 8-bit floats in and out, for tests/tools/torus-run-f8.mlir: f32 to
// each f8 type, each f8 type to f32, and an f8e4m3fn product (computed in
// f32, rounded back).
func.func @step(%x: tensor<8xf32>, %y: tensor<8xf8E4M3FN>,
                %z: tensor<8xf8E5M2>)
    -> (tensor<8xf8E4M3FN>, tensor<8xf8E5M2>, tensor<8xf32>, tensor<8xf32>,
        tensor<8xf8E4M3FN>) {
  %x4 = torus.convert %x : (tensor<8xf32>) -> tensor<8xf8E4M3FN>
  %x5 = torus.convert %x : (tensor<8xf32>) -> tensor<8xf8E5M2>
  %y32 = torus.convert %y : (tensor<8xf8E4M3FN>) -> tensor<8xf32>
  %z32 = torus.convert %z : (tensor<8xf8E5M2>) -> tensor<8xf32>
  %yy = torus.multiply %y, %y : tensor<8xf8E4M3FN>
  return %x4, %x5, %y32, %z32, %yy
      : tensor<8xf8E4M3FN>, tensor<8xf8E5M2>, tensor<8xf32>, tensor<8xf32>,
        tensor<8xf8E4M3FN>
}
