module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<5x6xf32>) -> (tensor<5x6xf32> {jax.result_info = "result[0]"}, tensor<5x6xf32> {jax.result_info = "result[1]"}, tensor<5x6xf32> {jax.result_info = "result[2]"}, tensor<4x6xf32> {jax.result_info = "result[3]"}) {
    %0 = stablehlo.iota dim = 0 : tensor<5xi32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [0] : (tensor<5xi32>) -> tensor<5x1xi32>
    %2 = stablehlo.iota dim = 0 : tensor<6xi32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [1] : (tensor<6xi32>) -> tensor<1x6xi32>
    %4 = stablehlo.broadcast_in_dim %1, dims = [0, 1] : (tensor<5x1xi32>) -> tensor<5x6xi32>
    %5 = stablehlo.broadcast_in_dim %3, dims = [0, 1] : (tensor<1x6xi32>) -> tensor<5x6xi32>
    %6 = stablehlo.add %4, %5 : tensor<5x6xi32>
    %c = stablehlo.constant dense<3> : tensor<i32>
    %7 = call @remainder(%6, %c) : (tensor<5x6xi32>, tensor<i32>) -> tensor<5x6xi32>
    %c_0 = stablehlo.constant dense<0> : tensor<i32>
    %8 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<5x6xi32>
    %9 = stablehlo.compare EQ, %7, %8, SIGNED : (tensor<5x6xi32>, tensor<5x6xi32>) -> tensor<5x6xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %10 = call @_where_0(%9, %arg0, %cst) : (tensor<5x6xi1>, tensor<5x6xf32>, tensor<f32>) -> tensor<5x6xf32>
    %cst_1 = stablehlo.constant dense<-5.000000e-01> : tensor<f32>
    %cst_2 = stablehlo.constant dense<5.000000e-01> : tensor<f32>
    %11 = call @clip(%arg0, %cst_1, %cst_2) : (tensor<5x6xf32>, tensor<f32>, tensor<f32>) -> tensor<5x6xf32>
    %12 = call @triu(%arg0) : (tensor<5x6xf32>) -> tensor<5x6xf32>
    %13 = stablehlo.iota dim = 0 : tensor<4x6xi32>
    %14 = stablehlo.iota dim = 1 : tensor<4x6xi32>
    %c_3 = stablehlo.constant dense<1> : tensor<i32>
    %15 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i32>) -> tensor<4x6xi32>
    %16 = stablehlo.add %13, %15 : tensor<4x6xi32>
    %17 = stablehlo.compare EQ, %16, %14, SIGNED : (tensor<4x6xi32>, tensor<4x6xi32>) -> tensor<4x6xi1>
    %18 = stablehlo.convert %17 : (tensor<4x6xi1>) -> tensor<4x6xf32>
    return %10, %11, %12, %18 : tensor<5x6xf32>, tensor<5x6xf32>, tensor<5x6xf32>, tensor<4x6xf32>
  }
  func.func private @remainder(%arg0: tensor<5x6xi32>, %arg1: tensor<i32>) -> tensor<5x6xi32> {
    %0 = stablehlo.convert %arg1 : tensor<i32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %1 = stablehlo.compare EQ, %0, %c, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %2 = call @_where(%1, %c_0, %0) : (tensor<i1>, tensor<i32>, tensor<i32>) -> tensor<i32>
    %3 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<i32>) -> tensor<5x6xi32>
    %4 = stablehlo.remainder %arg0, %3 : tensor<5x6xi32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<5x6xi32>
    %6 = stablehlo.compare NE, %4, %5, SIGNED : (tensor<5x6xi32>, tensor<5x6xi32>) -> tensor<5x6xi1>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %7 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<5x6xi32>
    %8 = stablehlo.compare LT, %4, %7, SIGNED : (tensor<5x6xi32>, tensor<5x6xi32>) -> tensor<5x6xi1>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %9 = stablehlo.compare LT, %2, %c_3, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>
    %10 = stablehlo.broadcast_in_dim %9, dims = [] : (tensor<i1>) -> tensor<5x6xi1>
    %11 = stablehlo.compare NE, %8, %10, UNSIGNED : (tensor<5x6xi1>, tensor<5x6xi1>) -> tensor<5x6xi1>
    %12 = stablehlo.and %11, %6 : tensor<5x6xi1>
    %13 = stablehlo.broadcast_in_dim %2, dims = [] : (tensor<i32>) -> tensor<5x6xi32>
    %14 = stablehlo.add %4, %13 : tensor<5x6xi32>
    %15 = stablehlo.select %12, %14, %4 : tensor<5x6xi1>, tensor<5x6xi32>
    return %15 : tensor<5x6xi32>
  }
  func.func private @_where(%arg0: tensor<i1>, %arg1: tensor<i32>, %arg2: tensor<i32>) -> tensor<i32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<i1>, tensor<i32>
    return %0 : tensor<i32>
  }
  func.func private @_where_0(%arg0: tensor<5x6xi1>, %arg1: tensor<5x6xf32>, %arg2: tensor<f32>) -> tensor<5x6xf32> {
    %0 = stablehlo.convert %arg2 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<5x6xf32>
    %2 = stablehlo.select %arg0, %arg1, %1 : tensor<5x6xi1>, tensor<5x6xf32>
    return %2 : tensor<5x6xf32>
  }
  func.func private @clip(%arg0: tensor<5x6xf32>, %arg1: tensor<f32>, %arg2: tensor<f32>) -> tensor<5x6xf32> {
    %0 = stablehlo.convert %arg1 : tensor<f32>
    %1 = stablehlo.broadcast_in_dim %0, dims = [] : (tensor<f32>) -> tensor<5x6xf32>
    %2 = stablehlo.maximum %1, %arg0 : tensor<5x6xf32>
    %3 = stablehlo.convert %arg2 : tensor<f32>
    %4 = stablehlo.broadcast_in_dim %3, dims = [] : (tensor<f32>) -> tensor<5x6xf32>
    %5 = stablehlo.minimum %4, %2 : tensor<5x6xf32>
    return %5 : tensor<5x6xf32>
  }
  func.func private @triu(%arg0: tensor<5x6xf32>) -> tensor<5x6xf32> {
    %0 = stablehlo.iota dim = 0 : tensor<5x6xi32>
    %c = stablehlo.constant dense<-1> : tensor<i32>
    %1 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<5x6xi32>
    %2 = stablehlo.add %0, %1 : tensor<5x6xi32>
    %3 = stablehlo.iota dim = 1 : tensor<5x6xi32>
    %4 = stablehlo.compare GE, %2, %3, SIGNED : (tensor<5x6xi32>, tensor<5x6xi32>) -> tensor<5x6xi1>
    %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
    %5 = stablehlo.broadcast_in_dim %cst, dims = [] : (tensor<f32>) -> tensor<5x6xf32>
    %6 = stablehlo.select %4, %5, %arg0 : tensor<5x6xi1>, tensor<5x6xf32>
    return %6 : tensor<5x6xf32>
  }
}
