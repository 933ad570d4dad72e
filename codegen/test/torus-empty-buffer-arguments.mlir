// Tests that zero-element buffer arguments become memref<0xT> (what the
// bare-pointer calling convention accepts), that their uses get a
// zero-element buffer of the original type, that calls pass such a buffer,
// and that other arguments are left alone.
// RUN: torus-opt %s --torus-empty-buffer-arguments | FileCheck %s

// CHECK-LABEL: func.func private @callee
// CHECK-SAME: (%{{.*}}: memref<4xf32>, %{{.*}}: memref<0xf32>, %{{.*}}: memref<0xf32>)
// CHECK: %[[E:.*]] = memref.alloca() : memref<2x0xf32>
// CHECK: memref.copy %{{.*}}, %[[E]] : memref<2x0xf32> to memref<2x0xf32>
func.func private @callee(%a: memref<4xf32>, %out: memref<2x0xf32>, %b: memref<0x3xf32>) {
  %c = memref.alloc() : memref<2x0xf32>
  memref.copy %c, %out : memref<2x0xf32> to memref<2x0xf32>
  return
}

// CHECK-LABEL: func.func @caller
// CHECK-SAME: (%[[A:.*]]: memref<4xf32>, %{{.*}}: memref<0xf32>)
// CHECK: %[[P:.*]] = memref.alloca() : memref<0xf32>
// CHECK: %[[Q:.*]] = memref.alloca() : memref<0xf32>
// CHECK: call @callee(%[[A]], %[[P]], %[[Q]])
func.func @caller(%a: memref<4xf32>, %out: memref<2x0xf32>) {
  %b = memref.alloc() : memref<0x3xf32>
  call @callee(%a, %out, %b) : (memref<4xf32>, memref<2x0xf32>, memref<0x3xf32>) -> ()
  return
}
