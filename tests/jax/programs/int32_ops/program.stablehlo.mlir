module @jit_f attributes {mhlo.num_partitions = 1 : i32, mhlo.num_replicas = 1 : i32} {
  func.func public @main(%arg0: tensor<5x6xi32>, %arg1: tensor<5x6xi32>) -> (tensor<5x6xi32> {jax.result_info = "result[0]"}, tensor<5x6xi32> {jax.result_info = "result[1]"}, tensor<5x6xi32> {jax.result_info = "result[2]"}, tensor<5x6xi32> {jax.result_info = "result[3]"}, tensor<5x6xi32> {jax.result_info = "result[4]"}, tensor<5x6xi32> {jax.result_info = "result[5]"}, tensor<5x6xi32> {jax.result_info = "result[6]"}, tensor<5x6xi32> {jax.result_info = "result[7]"}, tensor<5x6xi32> {jax.result_info = "result[8]"}, tensor<5x6xi32> {jax.result_info = "result[9]"}, tensor<5x6xi32> {jax.result_info = "result[10]"}, tensor<5x6xi32> {jax.result_info = "result[11]"}, tensor<5x6xi32> {jax.result_info = "result[12]"}, tensor<5x6xi32> {jax.result_info = "result[13]"}, tensor<5x6xi32> {jax.result_info = "result[14]"}, tensor<5x6xi32> {jax.result_info = "result[15]"}, tensor<5x6xi1> {jax.result_info = "result[16]"}, tensor<5x6xi1> {jax.result_info = "result[17]"}, tensor<5x6xi32> {jax.result_info = "result[18]"}, tensor<5x6xi32> {jax.result_info = "result[19]"}) {
    %0 = stablehlo.add %arg0, %arg1 : tensor<5x6xi32>
    %1 = stablehlo.multiply %arg0, %arg1 : tensor<5x6xi32>
    %2 = call @floor_divide(%arg0, %arg1) : (tensor<5x6xi32>, tensor<5x6xi32>) -> tensor<5x6xi32>
    %3 = call @remainder(%arg0, %arg1) : (tensor<5x6xi32>, tensor<5x6xi32>) -> tensor<5x6xi32>
    %4 = stablehlo.divide %arg0, %arg1 : tensor<5x6xi32>
    %5 = stablehlo.remainder %arg0, %arg1 : tensor<5x6xi32>
    %c = stablehlo.constant dense<7> : tensor<i32>
    %6 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<5x6xi32>
    %7 = stablehlo.and %arg1, %6 : tensor<5x6xi32>
    %8 = stablehlo.shift_left %arg0, %7 : tensor<5x6xi32>
    %c_0 = stablehlo.constant dense<7> : tensor<i32>
    %9 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<5x6xi32>
    %10 = stablehlo.and %arg1, %9 : tensor<5x6xi32>
    %11 = stablehlo.shift_right_arithmetic %arg0, %10 : tensor<5x6xi32>
    %c_1 = stablehlo.constant dense<7> : tensor<i32>
    %12 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<5x6xi32>
    %13 = stablehlo.and %arg1, %12 : tensor<5x6xi32>
    %14 = stablehlo.shift_right_logical %arg0, %13 : tensor<5x6xi32>
    %15 = stablehlo.and %arg0, %arg1 : tensor<5x6xi32>
    %16 = stablehlo.or %arg0, %arg1 : tensor<5x6xi32>
    %17 = stablehlo.xor %arg0, %arg1 : tensor<5x6xi32>
    %18 = stablehlo.not %arg0 : tensor<5x6xi32>
    %19 = stablehlo.negate %arg0 : tensor<5x6xi32>
    %20 = stablehlo.abs %arg0 : tensor<5x6xi32>
    %21 = stablehlo.maximum %arg0, %arg1 : tensor<5x6xi32>
    %22 = stablehlo.compare LT, %arg0, %arg1, SIGNED : (tensor<5x6xi32>, tensor<5x6xi32>) -> tensor<5x6xi1>
    %23 = stablehlo.compare EQ, %arg0, %arg1, SIGNED : (tensor<5x6xi32>, tensor<5x6xi32>) -> tensor<5x6xi1>
    %24 = stablehlo.sign %arg0 : tensor<5x6xi32>
    %c_2 = stablehlo.constant dense<-20> : tensor<i32>
    %c_3 = stablehlo.constant dense<20> : tensor<i32>
    %25 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<5x6xi32>
    %26 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i32>) -> tensor<5x6xi32>
    %27 = stablehlo.clamp %25, %arg0, %26 : tensor<5x6xi32>
    return %0, %1, %2, %3, %4, %5, %8, %11, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %27 : tensor<5x6xi32>, tensor<5x6xi32>, tensor<5x6xi32>, tensor<5x6xi32>, tensor<5x6xi32>, tensor<5x6xi32>, tensor<5x6xi32>, tensor<5x6xi32>, tensor<5x6xi32>, tensor<5x6xi32>, tensor<5x6xi32>, tensor<5x6xi32>, tensor<5x6xi32>, tensor<5x6xi32>, tensor<5x6xi32>, tensor<5x6xi32>, tensor<5x6xi1>, tensor<5x6xi1>, tensor<5x6xi32>, tensor<5x6xi32>
  }
  func.func private @floor_divide(%arg0: tensor<5x6xi32>, %arg1: tensor<5x6xi32>) -> tensor<5x6xi32> {
    %0 = stablehlo.divide %arg0, %arg1 : tensor<5x6xi32>
    %1 = stablehlo.sign %arg0 : tensor<5x6xi32>
    %2 = stablehlo.sign %arg1 : tensor<5x6xi32>
    %3 = stablehlo.compare NE, %1, %2, SIGNED : (tensor<5x6xi32>, tensor<5x6xi32>) -> tensor<5x6xi1>
    %4 = stablehlo.remainder %arg0, %arg1 : tensor<5x6xi32>
    %c = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<5x6xi32>
    %6 = stablehlo.compare NE, %4, %5, SIGNED : (tensor<5x6xi32>, tensor<5x6xi32>) -> tensor<5x6xi1>
    %7 = stablehlo.and %3, %6 : tensor<5x6xi1>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %8 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<5x6xi32>
    %9 = stablehlo.subtract %0, %8 : tensor<5x6xi32>
    %10 = call @_where(%7, %9, %0) : (tensor<5x6xi1>, tensor<5x6xi32>, tensor<5x6xi32>) -> tensor<5x6xi32>
    return %10 : tensor<5x6xi32>
  }
  func.func private @_where(%arg0: tensor<5x6xi1>, %arg1: tensor<5x6xi32>, %arg2: tensor<5x6xi32>) -> tensor<5x6xi32> {
    %0 = stablehlo.select %arg0, %arg1, %arg2 : tensor<5x6xi1>, tensor<5x6xi32>
    return %0 : tensor<5x6xi32>
  }
  func.func private @remainder(%arg0: tensor<5x6xi32>, %arg1: tensor<5x6xi32>) -> tensor<5x6xi32> {
    %c = stablehlo.constant dense<0> : tensor<i32>
    %0 = stablehlo.broadcast_in_dim %c, dims = [] : (tensor<i32>) -> tensor<5x6xi32>
    %1 = stablehlo.compare EQ, %arg1, %0, SIGNED : (tensor<5x6xi32>, tensor<5x6xi32>) -> tensor<5x6xi1>
    %c_0 = stablehlo.constant dense<1> : tensor<i32>
    %2 = stablehlo.broadcast_in_dim %c_0, dims = [] : (tensor<i32>) -> tensor<5x6xi32>
    %3 = call @_where(%1, %2, %arg1) : (tensor<5x6xi1>, tensor<5x6xi32>, tensor<5x6xi32>) -> tensor<5x6xi32>
    %4 = stablehlo.remainder %arg0, %3 : tensor<5x6xi32>
    %c_1 = stablehlo.constant dense<0> : tensor<i32>
    %5 = stablehlo.broadcast_in_dim %c_1, dims = [] : (tensor<i32>) -> tensor<5x6xi32>
    %6 = stablehlo.compare NE, %4, %5, SIGNED : (tensor<5x6xi32>, tensor<5x6xi32>) -> tensor<5x6xi1>
    %c_2 = stablehlo.constant dense<0> : tensor<i32>
    %7 = stablehlo.broadcast_in_dim %c_2, dims = [] : (tensor<i32>) -> tensor<5x6xi32>
    %8 = stablehlo.compare LT, %4, %7, SIGNED : (tensor<5x6xi32>, tensor<5x6xi32>) -> tensor<5x6xi1>
    %c_3 = stablehlo.constant dense<0> : tensor<i32>
    %9 = stablehlo.broadcast_in_dim %c_3, dims = [] : (tensor<i32>) -> tensor<5x6xi32>
    %10 = stablehlo.compare LT, %3, %9, SIGNED : (tensor<5x6xi32>, tensor<5x6xi32>) -> tensor<5x6xi1>
    %11 = stablehlo.compare NE, %8, %10, UNSIGNED : (tensor<5x6xi1>, tensor<5x6xi1>) -> tensor<5x6xi1>
    %12 = stablehlo.and %11, %6 : tensor<5x6xi1>
    %13 = stablehlo.add %4, %3 : tensor<5x6xi32>
    %14 = stablehlo.select %12, %13, %4 : tensor<5x6xi1>, tensor<5x6xi32>
    return %14 : tensor<5x6xi32>
  }
}
