// Tests gather (a generic that reads at computed, clamped positions) and
// scatter (a sequential loop nest that skips windows out of bounds).
// RUN: torus-opt %s --split-input-file --torus-to-linalg | FileCheck %s

// CHECK-LABEL: func.func @embedding_lookup
// CHECK-SAME: (%[[TABLE:.*]]: tensor<10x4xf32>, %[[IDS:.*]]: tensor<3xi32>)
// CHECK: linalg.generic {{.*}} outs(%{{.*}} : tensor<3x4xf32>)
// CHECK: %[[ROW:.*]] = linalg.index 0 : index
// CHECK: %[[COL:.*]] = linalg.index 1 : index
// CHECK: %[[ID:.*]] = tensor.extract %[[IDS]][%[[ROW]]] : tensor<3xi32>
// CHECK: %[[I:.*]] = arith.index_cast %[[ID]] : i32 to index
// CHECK: %[[LO:.*]] = arith.maxsi %[[I]], %{{.*}}
// CHECK: %[[START:.*]] = arith.minsi %[[LO]], %c9
// CHECK: %[[C:.*]] = arith.addi %{{.*}}, %[[COL]]
// CHECK: tensor.extract %[[TABLE]][%[[START]], %[[C]]] : tensor<10x4xf32>
func.func @embedding_lookup(%t: tensor<10x4xf32>, %ids: tensor<3xi32>) -> tensor<3x4xf32> {
  %0 = torus.gather %t[%ids], offset_dims = [1], collapsed_slice_dims = [0], start_index_map = [0], index_vector_dim = 1, slice_sizes = [1, 4] : (tensor<10x4xf32>, tensor<3xi32>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}

// -----

// CHECK-LABEL: func.func @scatter_add
// CHECK-SAME: (%[[X:.*]]: tensor<10x4xf32>, %[[IDS:.*]]: tensor<3xi32>, %[[U:.*]]: tensor<3x4xf32>)
// CHECK: scf.for %[[I:.*]] = %c0 to %c3 step %c1 iter_args(%[[ACC:.*]] = %[[X]])
// CHECK: scf.for %[[J:.*]] = %{{.*}} to %c4 step %{{.*}} iter_args(%[[ACC2:.*]] = %[[ACC]])
// CHECK: %[[ID:.*]] = tensor.extract %[[IDS]][%[[I]]]
// CHECK: arith.cmpi sge
// CHECK: arith.cmpi sle
// CHECK: %[[UPD:.*]] = tensor.extract %[[U]][%[[I]], %[[J]]]
// CHECK: scf.if %{{.*}} -> (tensor<10x4xf32>) {
// CHECK: %[[OLD:.*]] = tensor.extract %[[ACC2]]
// CHECK: %[[NEW:.*]] = arith.addf %[[OLD]], %[[UPD]]
// CHECK: tensor.insert %[[NEW]] into %[[ACC2]]
// CHECK: } else {
// CHECK: scf.yield %[[ACC2]]
func.func @scatter_add(%t: tensor<10x4xf32>, %ids: tensor<3xi32>, %u: tensor<3x4xf32>) -> tensor<10x4xf32> {
  %0 = torus.scatter sum %t[%ids], %u, update_window_dims = [1], inserted_window_dims = [0], scatter_dims_to_operand_dims = [0], index_vector_dim = 1 : (tensor<10x4xf32>, tensor<3xi32>, tensor<3x4xf32>) -> tensor<10x4xf32>
  return %0 : tensor<10x4xf32>
}
