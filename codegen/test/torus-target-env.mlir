// Tests TORUS_TARGET: the kernel pipeline (--torus-kernels, as the
// compilers build it) gives the kernel pass the default target's vector
// width, the host's unless the variable names another CPU (so the kernels
// of AVX2 and SSE hosts are compiled on any host); a target it cannot
// resolve is named (by torus-opt: the library prints nothing) and the
// host's width used. The pass itself reads no
// environment variable.
// RUN: env TORUS_TARGET=x86-64-v4 torus-opt %s --torus-kernels | FileCheck %s --check-prefix=AVX512
// RUN: env TORUS_TARGET=x86-64-v3 torus-opt %s --torus-kernels | FileCheck %s --check-prefix=AVX2
// RUN: env TORUS_TARGET=znver1 torus-opt %s --torus-kernels | FileCheck %s --check-prefix=AVX2
// RUN: env TORUS_TARGET=x86-64-v4,-avx512f torus-opt %s --torus-kernels | FileCheck %s --check-prefix=AVX2
// RUN: env TORUS_TARGET=x86-64-v2 torus-opt %s --torus-kernels | FileCheck %s --check-prefix=SSE
// RUN: env TORUS_TARGET=pentium9 torus-opt %s --torus-kernels 2>&1 >/dev/null | FileCheck %s --check-prefix=BAD

// 512 bits: 4 rows x 1 vector of 16 (N is 16); 256 bits: 6 rows x 2
// vectors of 8; 128 bits: 4 rows x 2 vectors of 4.
// AVX512-LABEL: func.func @matmul
// AVX512: -> (vector<4x16xf32>)
// AVX2-LABEL: func.func @matmul
// AVX2: -> (vector<6x16xf32>)
// SSE-LABEL: func.func @matmul
// SSE: -> (vector<4x8xf32>)
// BAD: torus-opt: TORUS_TARGET: target 'pentium9': unknown x86-64 CPU 'pentium9'{{.*}}; using this host's vector width
func.func @matmul(%a: memref<12x16xf32>, %b: memref<16x16xf32>, %c: memref<12x16xf32>) {
  linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>], iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%a, %b : memref<12x16xf32>, memref<16x16xf32>) outs(%c : memref<12x16xf32>) {
  ^bb0(%x: f32, %y: f32, %acc: f32):
    %p = arith.mulf %x, %y : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  }
  return
}
