// Tests that torusc and torus-run read StableHLO text (a .mlir file naming
// stablehlo ops, as JAX writes it): x @ w, relu, a private call to a
// reduce; expected [[1,2,3],[-1,-2,-3]] @ [[1,-1],[2,-2],[3,3]] = [[14,4],
// [-14,-4]], relu and row sums [18, 0]. An op with no torus equivalent is an
// error at its position.
// RUN: torus-run %S/Inputs/stablehlo_mlp.mlir %torus_src/tests/data/stablehlo/x.npy --print-outputs | FileCheck %s --check-prefix=OUT
// RUN: torusc %S/Inputs/stablehlo_mlp.mlir --emit=torus | FileCheck %s --check-prefix=IR
// RUN: not torusc %S/Inputs/stablehlo_unsupported.mlir --emit=torus 2>&1 | FileCheck %s --check-prefix=ERR

// OUT: @main: 1 replica on 1 emulated core
// OUT: replica 0 result 0: f32[2]{18, 0}

// IR: module @jit_f attributes {torus.num_partitions = 1 : i64, torus.num_replicas = 1 : i64}
// IR: torus.dot_general
// IR: torus.maximum
// IR: torus.call @sum
// IR: torus.reduce sum

// ERR: stablehlo_unsupported.mlir:3:10: error: 'chlo.zeta' has no torus equivalent yet

// Arguments are named as written (%x, %w): torus-run's --input and the
// HLO export's parameters use the names, and a name the program lacks is
// listed against them. x*x - w of x = [[1,2,3],[-1,-2,-3]], w = x.
// RUN: torus-run %S/Inputs/stablehlo_named.mlir --input w=%torus_src/tests/data/stablehlo/x.npy --input x=%torus_src/tests/data/stablehlo/x.npy --print-outputs | FileCheck %s --check-prefix=NAMED
// RUN: torusc %S/Inputs/stablehlo_named.mlir --emit=hlo | FileCheck %s --check-prefix=NAMED-HLO
// RUN: not torus-run %S/Inputs/stablehlo_named.mlir --input y=%torus_src/tests/data/stablehlo/x.npy 2>&1 | FileCheck %s --check-prefix=NAMED-ERR
// NAMED: replica 0 result 0: f32[2,3]{0, 2, 6, 2, 6, 12}
// NAMED-HLO: %x = f32[2,3]{1,0} parameter(0)
// NAMED-HLO-NEXT: %w = f32[2,3]{1,0} parameter(1)
// NAMED-ERR: @main has no argument 'y' (arguments: x, w)

// A training step as JAX 0.10 lowers it (tests/data/stablehlo/make_mlp_step.py:
// an MLP's loss, its gradients through take_along_axis, an SGD update)
// gives JAX's values.
// RUN: rm -rf %t && torus-run %S/Inputs/stablehlo_mlp_step.mlir %torus_src/tests/data/stablehlo/mlp_step/w1.npy %torus_src/tests/data/stablehlo/mlp_step/w2.npy %torus_src/tests/data/stablehlo/mlp_step/x.npy %torus_src/tests/data/stablehlo/mlp_step/y.npy --output-dir=%t > /dev/null
// RUN: python3 %torus_src/tests/data/compare_npy.py %torus_src/tests/data/stablehlo/mlp_step/expected %t --rtol 1e-5 --atol 1e-6 | FileCheck %s --check-prefix=MATCH
// MATCH: all {{[0-9]+}} values match (3 results)

// A StableHLO all_reduce over replica groups {0,1} and {2,3} of the
// replica ids: 0+1 and 2+3, on the 4 replicas mhlo.num_replicas names.
// RUN: torus-run %S/Inputs/stablehlo_psum.mlir --print-outputs | FileCheck %s --check-prefix=PSUM
// PSUM: @main: 4 replicas on 4 emulated cores
// PSUM: replica 0 result 0: f32[2]{1, 1}
// PSUM: replica 1 result 0: f32[2]{1, 1}
// PSUM: replica 2 result 0: f32[2]{5, 5}
// PSUM: replica 3 result 0: f32[2]{5, 5}

// chlo.asin, asinh, acosh, atan, atanh, cosh and sinh of complex<f64> and
// complex<f32> (expanded on the parts as StableHLO's CHLO decomposition
// writes them) give NumPy's values (tests/data/stablehlo/make_chlo_complex.py)
// at points in every branch: the inverse functions within a few ULPs; cosh
// and sinh within the error of XLA's exp(z + log 1/2) formula (see there).
// RUN: rm -rf %t.cc && torus-run %S/Inputs/stablehlo_chlo_complex.mlir %torus_src/tests/data/stablehlo/chlo_complex/z_re64.npy %torus_src/tests/data/stablehlo/chlo_complex/z_im64.npy %torus_src/tests/data/stablehlo/chlo_complex/w_re64.npy %torus_src/tests/data/stablehlo/chlo_complex/w_im64.npy %torus_src/tests/data/stablehlo/chlo_complex/z_re32.npy %torus_src/tests/data/stablehlo/chlo_complex/z_im32.npy %torus_src/tests/data/stablehlo/chlo_complex/w_re32.npy %torus_src/tests/data/stablehlo/chlo_complex/w_im32.npy --output-dir=%t.cc > /dev/null
// RUN: python3 %torus_src/tests/data/compare_npy.py %torus_src/tests/data/stablehlo/chlo_complex/c128 %t.cc --rtol 1e-13 --atol 1e-305 | FileCheck %s --check-prefix=C128
// RUN: python3 %torus_src/tests/data/compare_npy.py %torus_src/tests/data/stablehlo/chlo_complex/c64 %t.cc --rtol 1e-6 --atol 1e-37 | FileCheck %s --check-prefix=C64
// RUN: python3 %torus_src/tests/data/compare_npy.py %torus_src/tests/data/stablehlo/chlo_complex/c128_hyp %t.cc --rtol 1e-13 --atol 1e-15 | FileCheck %s --check-prefix=HYP
// RUN: python3 %torus_src/tests/data/compare_npy.py %torus_src/tests/data/stablehlo/chlo_complex/c64_hyp %t.cc --rtol 4e-6 --atol 1e-6 | FileCheck %s --check-prefix=HYP
// C128: all 180 values match (10 results)
// C64: all 180 values match (10 results)
// HYP: all 48 values match (4 results)

// chlo.bessel_i1e of f64, f32 and f16 and chlo.erfc of f64 (Cephes'
// algorithms as XLA writes them) give SciPy's values
// (tests/data/stablehlo/make_chlo_special.py) in every range.
// RUN: rm -rf %t.cs && torus-run %S/Inputs/stablehlo_chlo_special.mlir %torus_src/tests/data/stablehlo/chlo_special/x64.npy %torus_src/tests/data/stablehlo/chlo_special/x32.npy %torus_src/tests/data/stablehlo/chlo_special/y64.npy --output-dir=%t.cs > /dev/null
// RUN: python3 %torus_src/tests/data/compare_npy.py %torus_src/tests/data/stablehlo/chlo_special/f64 %t.cs --rtol 1e-14 --atol 1e-300 | FileCheck %s --check-prefix=SPECIAL64
// RUN: python3 %torus_src/tests/data/compare_npy.py %torus_src/tests/data/stablehlo/chlo_special/f32 %t.cs --rtol 1e-6 --atol 1e-37 | FileCheck %s --check-prefix=SPECIAL
// RUN: python3 %torus_src/tests/data/compare_npy.py %torus_src/tests/data/stablehlo/chlo_special/f16 %t.cs --rtol 1e-3 --atol 1e-7 | FileCheck %s --check-prefix=SPECIAL
// SPECIAL64: all 30 values match (2 results)
// SPECIAL: all 15 values match (1 results)

// tanh of f32 gives XLA's bits (Eigen's rational function with fused
// multiply-adds), on the edges of its ranges and 494 random points
// (tests/data/stablehlo/make_tanh_f32.py: jax.numpy.tanh on CPU).
// RUN: rm -rf %t.tanh && torus-run %S/Inputs/stablehlo_tanh_f32.mlir %torus_src/tests/data/stablehlo/tanh_f32/x.npy --output-dir=%t.tanh > /dev/null
// RUN: python3 %torus_src/tests/data/compare_npy.py %torus_src/tests/data/stablehlo/tanh_f32/expected %t.tanh --rtol 0 --atol 0 | FileCheck %s --check-prefix=TANH
// TANH: all 512 values match (1 results)

// log1p of complex<f64> and complex<f32> (XLA's expansion: the real part's
// sum 2x + x^2 + y^2 in double-double) matches an exact-arithmetic reference
// (tests/data/stablehlo/make_log1p_complex.py) where |1 + z| is near 1.
// RUN: rm -rf %t.l1p && torus-run %S/Inputs/stablehlo_log1p_complex.mlir %torus_src/tests/data/stablehlo/log1p_complex/re64.npy %torus_src/tests/data/stablehlo/log1p_complex/im64.npy %torus_src/tests/data/stablehlo/log1p_complex/re32.npy %torus_src/tests/data/stablehlo/log1p_complex/im32.npy --output-dir=%t.l1p > /dev/null
// RUN: python3 %torus_src/tests/data/compare_npy.py %torus_src/tests/data/stablehlo/log1p_complex/c128 %t.l1p --rtol 1e-15 --atol 1e-300 | FileCheck %s --check-prefix=L1P
// RUN: python3 %torus_src/tests/data/compare_npy.py %torus_src/tests/data/stablehlo/log1p_complex/c64 %t.l1p --rtol 5e-7 --atol 1e-37 | FileCheck %s --check-prefix=L1P
// L1P: all 32 values match (2 results)
