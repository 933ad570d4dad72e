func.func @unary(%f: tensor<4xf32>, %i: tensor<4xi32>, %p: tensor<4xi1>) -> (tensor<4xf32>, tensor<4xi32>, tensor<4xi1>, tensor<4xi1>) {
  %0 = torus.abs %f : tensor<4xf32>
  %1 = torus.sign %0 : tensor<4xf32>
  %2 = torus.expm1 %1 : tensor<4xf32>
  %3 = torus.log1p %2 : tensor<4xf32>
  %4 = torus.sqrt %3 : tensor<4xf32>
  %5 = torus.rsqrt %4 : tensor<4xf32>
  %6 = torus.tanh %5 : tensor<4xf32>
  %7 = torus.logistic %6 : tensor<4xf32>
  %8 = torus.sin %7 : tensor<4xf32>
  %9 = torus.cos %8 : tensor<4xf32>
  %10 = torus.floor %9 : tensor<4xf32>
  %11 = torus.ceil %10 : tensor<4xf32>
  %12 = torus.round_nearest_even %11 : tensor<4xf32>
  %13 = torus.abs %i : tensor<4xi32>
  %14 = torus.not %13 : tensor<4xi32>
  %15 = torus.not %p : tensor<4xi1>
  %16 = torus.is_finite %12 : (tensor<4xf32>) -> tensor<4xi1>
  return %12, %14, %15, %16 : tensor<4xf32>, tensor<4xi32>, tensor<4xi1>, tensor<4xi1>
}
