// Tests that torus-expand-exp computes f32 exp (scalar and vector) inline,
// with no math.exp left, and leaves f64 exp to LLVM's lowering; and that a
// whole compile of a softmax-like kernel calls no expf.
// RUN: torus-opt %s --pass-pipeline='builtin.module(func.func(torus-expand-exp))' | FileCheck %s
// RUN: torusc %S/Inputs/exp-kernel.mlir --emit=llvm -o %t.ll
// RUN: FileCheck %s --check-prefix=LLVM < %t.ll

// CHECK-LABEL: func.func @vector
// CHECK-NOT:   math.exp
// CHECK:       arith.maxnumf %{{.*}}, %{{.*}} : vector<8xf32>
// CHECK:       arith.minnumf
// CHECK:       math.floor
// CHECK-COUNT-7: math.fma
// CHECK:       arith.fptosi {{.*}} : vector<8xf32> to vector<8xi32>
// CHECK:       arith.shli
// CHECK:       arith.bitcast {{.*}} : vector<8xi32> to vector<8xf32>
// CHECK:       arith.cmpf olt
// CHECK:       arith.cmpf ogt
// CHECK:       arith.cmpf uno
// CHECK-NOT:   math.exp
// CHECK:       return
func.func @vector(%x: vector<8xf32>) -> vector<8xf32> {
  %e = math.exp %x : vector<8xf32>
  return %e : vector<8xf32>
}

// CHECK-LABEL: func.func @scalar
// CHECK-NOT:   math.exp
// CHECK:       math.floor %{{.*}} : f32
// CHECK:       return
func.func @scalar(%x: f32) -> f32 {
  %e = math.exp %x : f32
  return %e : f32
}

// CHECK-LABEL: func.func @f64
// CHECK:       math.exp %{{.*}} : f64
func.func @f64(%x: f64) -> f64 {
  %e = math.exp %x : f64
  return %e : f64
}

// LLVM-NOT: expf
// LLVM-NOT: llvm.exp.
// LLVM: define {{.*}}@__torus_entry_softmax_like
