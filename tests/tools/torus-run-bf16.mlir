// Tests that torus-run reads a bf16 input and writes a bf16 result as .npy
// files the way NumPy with ml_dtypes saves them (the 2-byte void '<V2'), byte
// for byte: tests/data/bf16/make_bf16.py wrote the input and the expected
// results.
// RUN: rm -rf %t && mkdir -p %t
// RUN: torus-run %S/Inputs/bf16_negate.mlir %torus_src/tests/data/bf16/x.npy --output-dir=%t --print-outputs | FileCheck %s
// RUN: cmp %t/result0.replica0.npy %torus_src/tests/data/bf16/neg_x.npy
// RUN: cmp %t/result1.replica0.npy %torus_src/tests/data/bf16/x_f32.npy

// CHECK: @step: 1 replica on 1 emulated core
// CHECK: replica 0 result 0: bf16[4]
// CHECK: replica 0 result 1: f32[4]
// CHECK: wrote 2 results x 1 replicas to
