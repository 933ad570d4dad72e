// RUN: torus-opt %s --torus-noalias-arguments | FileCheck %s

// The entry's buffers are the runtime's distinct allocations.
// CHECK-LABEL: func.func @main
// CHECK-SAME: %{{[a-z0-9_]+}}: memref<4x8xf32> {llvm.noalias}
// CHECK-SAME: %{{[a-z0-9_]+}}: memref<4x8xf32> {llvm.noalias}
// CHECK-SAME: %{{[a-z0-9_]+}}: i32,
// CHECK-SAME: %{{[a-z0-9_]+}}: memref<128xi8> {llvm.noalias}
func.func @main(%x: memref<4x8xf32>, %out: memref<4x8xf32>, %n: i32,
                %ws: memref<128xi8>) {
  memref.copy %x, %out : memref<4x8xf32> to memref<4x8xf32>
  return
}

// A private callee may be given one buffer twice: left alone.
// CHECK-LABEL: func.func private @callee
// CHECK-NOT: llvm.noalias
// CHECK: return
func.func private @callee(%a: memref<4xf32>, %b: memref<4xf32>) {
  memref.copy %a, %b : memref<4xf32> to memref<4xf32>
  return
}
