// Tests that vector loads and stores of i1 read and write a byte per lane,
// as scalar code and the buffers' layout do, and leave other types alone.
// RUN: torus-opt %s --pass-pipeline='builtin.module(llvm.func(torus-bool-vectors-as-bytes))' | FileCheck %s

// CHECK-LABEL: llvm.func @load_store
// CHECK-NEXT: %[[B:.*]] = llvm.load %arg0 {alignment = 1 : i64} : !llvm.ptr -> vector<4xi8>
// CHECK-NEXT: %[[M:.*]] = llvm.trunc %[[B]] : vector<4xi8> to vector<4xi1>
// CHECK-NEXT: %[[W:.*]] = llvm.zext %[[M]] : vector<4xi1> to vector<4xi8>
// CHECK-NEXT: llvm.store %[[W]], %arg1 {alignment = 1 : i64} : vector<4xi8>, !llvm.ptr
// CHECK-NEXT: %[[S:.*]] = llvm.load %arg0 : !llvm.ptr -> i1
// CHECK-NEXT: llvm.store %[[S]], %arg1 : i1, !llvm.ptr
// CHECK-NEXT: %[[F:.*]] = llvm.load %arg0 : !llvm.ptr -> vector<4xf32>
// CHECK-NEXT: llvm.store %[[F]], %arg1 : vector<4xf32>, !llvm.ptr
llvm.func @load_store(%p: !llvm.ptr, %q: !llvm.ptr) {
  %m = llvm.load %p {alignment = 1 : i64} : !llvm.ptr -> vector<4xi1>
  llvm.store %m, %q {alignment = 1 : i64} : vector<4xi1>, !llvm.ptr
  %s = llvm.load %p : !llvm.ptr -> i1
  llvm.store %s, %q : i1, !llvm.ptr
  %f = llvm.load %p : !llvm.ptr -> vector<4xf32>
  llvm.store %f, %q : vector<4xf32>, !llvm.ptr
  llvm.return
}

// The mask operand stays a vector of i1; the data becomes bytes.
// CHECK-LABEL: llvm.func @masked
// CHECK-NEXT: %[[PT:.*]] = llvm.zext %arg2 : vector<8xi1> to vector<8xi8>
// CHECK-NEXT: %[[L:.*]] = llvm.intr.masked.load %arg0, %arg1, %[[PT]] {alignment = 1 : i32} : (!llvm.ptr, vector<8xi1>, vector<8xi8>) -> vector<8xi8>
// CHECK-NEXT: %[[T:.*]] = llvm.trunc %[[L]] : vector<8xi8> to vector<8xi1>
// CHECK-NEXT: %[[V:.*]] = llvm.zext %[[T]] : vector<8xi1> to vector<8xi8>
// CHECK-NEXT: llvm.intr.masked.store %[[V]], %arg0, %arg1 {alignment = 1 : i32} : vector<8xi8>, vector<8xi1> into !llvm.ptr
llvm.func @masked(%p: !llvm.ptr, %mask: vector<8xi1>, %pass: vector<8xi1>) {
  %l = llvm.intr.masked.load %p, %mask, %pass {alignment = 1 : i32} : (!llvm.ptr, vector<8xi1>, vector<8xi1>) -> vector<8xi1>
  llvm.intr.masked.store %l, %p, %mask {alignment = 1 : i32} : vector<8xi1>, vector<8xi1> into !llvm.ptr
  llvm.return
}
