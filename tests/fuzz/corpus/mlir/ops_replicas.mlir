func.func @replicas(%g: tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>, tensor<i32>) {
  %0 = torus.all_reduce sum %g : tensor<8xf32>
  %1 = torus.all_reduce min %g {replica_groups = dense<[[0, 1], [2, 3]]> : tensor<2x2xi64>} : tensor<8xf32>
  %2 = torus.replica_id : tensor<i32>
  return %0, %1, %2 : tensor<8xf32>, tensor<8xf32>, tensor<i32>
}
