// Tests that torus-run reads f8e4m3fn and f8e5m2 inputs and writes f8
// results as .npy files the way NumPy with ml_dtypes saves them (a 1-byte
// void '<V1' for float8_e4m3fn, '<f1' for float8_e5m2), byte for byte, with
// the values ml_dtypes computes: tests/data/f8/generate.py wrote the inputs
// and the expected results.
// RUN: rm -rf %t && mkdir -p %t
// RUN: torus-run %S/Inputs/f8_convert.mlir %torus_src/tests/data/f8/run/x.npy %torus_src/tests/data/f8/run/y.npy %torus_src/tests/data/f8/run/z.npy --output-dir=%t --print-outputs | FileCheck %s
// RUN: cmp %t/result0.replica0.npy %torus_src/tests/data/f8/run/result0.npy
// RUN: cmp %t/result1.replica0.npy %torus_src/tests/data/f8/run/result1.npy
// RUN: cmp %t/result2.replica0.npy %torus_src/tests/data/f8/run/result2.npy
// RUN: cmp %t/result3.replica0.npy %torus_src/tests/data/f8/run/result3.npy
// RUN: cmp %t/result4.replica0.npy %torus_src/tests/data/f8/run/result4.npy
// Without files, random finite f8 values in (-2, 2): no NaN or inf.
// RUN: torus-run %S/Inputs/f8_convert.mlir --print-outputs | FileCheck %s --check-prefix=RANDOM
// An f8e5m2 file where the program takes f8e4m3fn is refused by name.
// RUN: not torus-run %S/Inputs/f8_convert.mlir %torus_src/tests/data/f8/run/x.npy %torus_src/tests/data/f8/run/z.npy %torus_src/tests/data/f8/run/z.npy 2>&1 | FileCheck %s --check-prefix=MISMATCH

// CHECK: @step: 1 replica on 1 emulated core
// f8 values print as their bits: 0.1 is 0x1d in f8e4m3fn, 470 is NaN
// (0x7f), inf is NaN too; in f8e5m2 470 is 448 (0x5f), 60000 is 57344
// (0x7b) and inf is 0x7c.
// CHECK: replica 0 result 0: f8e4m3fn[8]{0x1d, 0xc5, 0x7e, 0x7f, 0x00, 0x80, 0x7f, 0x7f}
// CHECK: replica 0 result 1: f8e5m2[8]{0x2e, 0xc3, 0x5f, 0x5f, 0x14, 0x80, 0x7b, 0x7c}
// CHECK: replica 0 result 2: f32[8]{1.5, -2, 448, 0.015625, 0.001953125, -0, 30, nan}
// CHECK: replica 0 result 3: f32[8]{1.5, -2, 57344, 0.015625, 1.5258789e-05, -0, 32, -inf}
// CHECK: wrote 5 results x 1 replicas to

// MISMATCH: torus-run: argument 1 (y): expects f8e4m3fn[8], but {{.*}}z.npy holds f8e5m2[8]

// RANDOM: replica 0 result 2: f32[8]{{[{]}}{{(-?[0-9][0-9.e+-]*, ){7}-?[0-9][0-9.e+-]*}}}
// RANDOM: replica 0 result 3: f32[8]{{[{]}}{{(-?[0-9][0-9.e+-]*, ){7}-?[0-9][0-9.e+-]*}}}
