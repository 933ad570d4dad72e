// Tests the whole lowering to the LLVM dialect: results become out-params,
// every buffer is a bare pointer, collectives are calls into the runtime,
// and the temporary (the matmul's result) is carved from the workspace, the
// last argument: nothing is allocated or freed.
// RUN: torus-opt %s --torus-compile | FileCheck %s --implicit-check-not="= torus." --implicit-check-not=malloc --implicit-check-not=free

// CHECK-DAG: llvm.func @__torus_collective(i64, !llvm.ptr, !llvm.ptr)
// The entry's buffers are distinct allocations (torus-noalias-arguments).
// CHECK: llvm.func @step(%{{[a-z0-9]+}}: !llvm.ptr {llvm.noalias}, %{{[a-z0-9]+}}: !llvm.ptr {llvm.noalias}, %{{[a-z0-9]+}}: !llvm.ptr {llvm.noalias}, %{{[a-z0-9]+}}: !llvm.ptr {llvm.noalias}) attributes {torus.workspace_bytes = 64 : i64}
// CHECK: llvm.call @__torus_collective
func.func @step(%w: tensor<4x3xf32>, %x: tensor<2x4xf32>) -> tensor<2x3xf32> {
  %0 = torus.dot_general %x, %w, batching_dims = [] x [], contracting_dims = [1] x [0] : (tensor<2x4xf32>, tensor<4x3xf32>) -> tensor<2x3xf32>
  %1 = torus.all_reduce sum %0 : tensor<2x3xf32>
  return %1 : tensor<2x3xf32>
}
