func.func @binary(%a: tensor<4xf64>, %b: tensor<4xf64>, %i: tensor<4xi64>, %p: tensor<4xi1>) -> (tensor<4xf64>, tensor<4xi64>, tensor<4xi1>) {
  %0 = torus.remainder %a, %b : tensor<4xf64>
  %1 = torus.power %0, %b : tensor<4xf64>
  %2 = torus.minimum %1, %a : tensor<4xf64>
  %3 = torus.atan2 %2, %b : tensor<4xf64>
  %4 = torus.power %i, %i : tensor<4xi64>
  %5 = torus.and %4, %i : tensor<4xi64>
  %6 = torus.or %5, %i : tensor<4xi64>
  %7 = torus.xor %6, %i : tensor<4xi64>
  %8 = torus.xor %p, %p : tensor<4xi1>
  return %3, %7, %8 : tensor<4xf64>, tensor<4xi64>, tensor<4xi1>
}
