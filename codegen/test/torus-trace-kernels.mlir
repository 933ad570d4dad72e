// Tests that torus-trace-kernels brackets every run of consecutive ops of
// one kernel with __torus_kernel_begin(name) / __torus_kernel_end(), that
// the name is a C string of the kernel and its source location, that views
// between two ops of a kernel stay inside its span and collective calls end
// it, and that a module without kernels is left alone.
// RUN: torus-opt %s --split-input-file --torus-trace-kernels | FileCheck %s

// CHECK-DAG: llvm.mlir.global internal constant @__torus_kernel_name_0("fusion.0 at k.mlir:3:8\00")
// CHECK-DAG: llvm.mlir.global internal constant @__torus_kernel_name_1("fusion.1 at k.mlir:4:8\00")
// CHECK-DAG: llvm.mlir.global internal constant @__torus_kernel_name_2("fusion.1 at k.mlir:9:8\00")
// CHECK-DAG: func.func private @__torus_kernel_begin(!llvm.ptr)
// CHECK-DAG: func.func private @__torus_kernel_end()
// CHECK-LABEL: func.func @step
// CHECK: %[[N0:.*]] = llvm.mlir.addressof @__torus_kernel_name_0
// CHECK: %[[P0:.*]] = llvm.getelementptr %[[N0]]
// CHECK: call @__torus_kernel_begin(%[[P0]])
// CHECK-NEXT: linalg.fill {torus.kernel = "fusion.0"}
// CHECK-NEXT: call @__torus_kernel_end()
// CHECK: call @__torus_kernel_begin(
// CHECK-NEXT: linalg.fill {torus.kernel = "fusion.1"}
// CHECK-NEXT: memref.subview
// CHECK-NEXT: linalg.copy {torus.kernel = "fusion.1"}
// CHECK-NEXT: call @__torus_kernel_end()
// CHECK-NEXT: call @__torus_collective
// CHECK-NEXT: llvm.mlir.addressof @__torus_kernel_name_2
// CHECK-NEXT: llvm.getelementptr
// CHECK-NEXT: call @__torus_kernel_begin(
// CHECK-NEXT: linalg.copy {torus.kernel = "fusion.1"}
// CHECK-NEXT: call @__torus_kernel_end()
// CHECK-NEXT: return
func.func private @__torus_collective(i64, !llvm.ptr, !llvm.ptr)
func.func @step(%a: memref<4xf32>, %b: memref<4xf32>, %p: !llvm.ptr, %i: i64) {
  %c = arith.constant 1.0 : f32
  linalg.fill {torus.kernel = "fusion.0"} ins(%c : f32) outs(%a : memref<4xf32>) loc("dir/k.mlir":3:8)
  linalg.fill {torus.kernel = "fusion.1"} ins(%c : f32) outs(%b : memref<4xf32>) loc("k.mlir":4:8)
  %s = memref.subview %a[0] [2] [1] : memref<4xf32> to memref<2xf32, strided<[1]>>
  linalg.copy {torus.kernel = "fusion.1"} ins(%a : memref<4xf32>) outs(%b : memref<4xf32>)
  call @__torus_collective(%i, %p, %p) : (i64, !llvm.ptr, !llvm.ptr) -> ()
  linalg.copy {torus.kernel = "fusion.1"} ins(%b : memref<4xf32>) outs(%a : memref<4xf32>) loc("k.mlir":9:8)
  return
}

// -----

// CHECK-LABEL: func.func @plain
// CHECK-NOT: __torus_kernel
func.func @plain(%a: memref<4xf32>) {
  %c = arith.constant 1.0 : f32
  linalg.fill ins(%c : f32) outs(%a : memref<4xf32>)
  return
}
