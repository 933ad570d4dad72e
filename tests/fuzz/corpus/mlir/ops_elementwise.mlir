func.func @elementwise(%a: tensor<2x3xf32>, %b: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = torus.add %a, %b : tensor<2x3xf32>
  %1 = torus.subtract %0, %b : tensor<2x3xf32>
  %2 = torus.multiply %1, %a : tensor<2x3xf32>
  %3 = torus.divide %2, %b : tensor<2x3xf32>
  %4 = torus.maximum %3, %a : tensor<2x3xf32>
  %5 = torus.negate %4 : tensor<2x3xf32>
  %6 = torus.exp %5 : tensor<2x3xf32>
  %7 = torus.log %6 : tensor<2x3xf32>
  %p = torus.compare LT, %7, %a : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
  %8 = torus.select %p, %7, %a : tensor<2x3xi1>, tensor<2x3xf32>
  return %8 : tensor<2x3xf32>
}
