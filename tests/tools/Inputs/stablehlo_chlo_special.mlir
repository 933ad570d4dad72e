// chlo.bessel_i1e of f64, f32 and f16 (widened to f32 for the .npy) and
// chlo.erfc of f64, expanded as XLA writes them (ir/stablehlo/ConvertChlo.cpp);
// inputs and SciPy's values from tests/data/stablehlo/make_chlo_special.py.
module @chlo_special {
  func.func public @main(%x64: tensor<15xf64>, %x32: tensor<15xf32>, %y64: tensor<15xf64>) -> (tensor<15xf64>, tensor<15xf32>, tensor<15xf32>, tensor<15xf64>) {
    %0 = chlo.bessel_i1e %x64 : tensor<15xf64> -> tensor<15xf64>
    %1 = chlo.bessel_i1e %x32 : tensor<15xf32> -> tensor<15xf32>
    %x16 = stablehlo.convert %x32 : (tensor<15xf32>) -> tensor<15xf16>
    %i16 = chlo.bessel_i1e %x16 : tensor<15xf16> -> tensor<15xf16>
    %2 = stablehlo.convert %i16 : (tensor<15xf16>) -> tensor<15xf32>
    %3 = chlo.erfc %y64 : tensor<15xf64> -> tensor<15xf64>
    return %0, %1, %2, %3 : tensor<15xf64>, tensor<15xf32>, tensor<15xf32>, tensor<15xf64>
  }
}
