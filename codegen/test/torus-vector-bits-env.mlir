// Tests TORUS_VECTOR_BITS: without a vector-bits option the kernels are
// built for the host's vector width, which the variable narrows (so the
// kernels of AVX2 hosts are compiled and tested on wider ones); a value it
// cannot honour is named and ignored.
// RUN: env TORUS_VECTOR_BITS=256 torus-opt %s --torus-vectorize-kernels="threads=false" | FileCheck %s --check-prefix=AVX2
// RUN: env TORUS_VECTOR_BITS=128 torus-opt %s --torus-vectorize-kernels="threads=false" | FileCheck %s --check-prefix=SSE
// RUN: env TORUS_VECTOR_BITS=300 torus-opt %s --torus-vectorize-kernels="threads=false" 2>&1 >/dev/null | FileCheck %s --check-prefix=BAD

// 256 bits: 6 rows x 2 vectors of 8; 128 bits: 4 rows x 2 vectors of 4.
// AVX2-LABEL: func.func @matmul
// AVX2: -> (vector<6x16xf32>)
// SSE-LABEL: func.func @matmul
// SSE: -> (vector<4x8xf32>)
// BAD: torus: ignoring TORUS_VECTOR_BITS='300': expected 128, 256 or 512, at most this host's {{[0-9]+}}
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
