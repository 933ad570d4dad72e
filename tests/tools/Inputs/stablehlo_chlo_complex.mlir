// chlo functions of complex<f64> and complex<f32> (the decomposition on
// the parts, ir/stablehlo/ConvertChlo.cpp); inputs and NumPy's values from
// tests/data/stablehlo/make_chlo_complex.py. Results: real and imaginary
// parts of asin, asinh, acosh, atan, atanh of z, cosh and sinh of w, for
// complex<f64> (results 0-13) then complex<f32> (14-27).
module @chlo_complex {
  func.func public @main(%z_re64: tensor<18xf64>, %z_im64: tensor<18xf64>, %w_re64: tensor<12xf64>, %w_im64: tensor<12xf64>, %z_re32: tensor<18xf32>, %z_im32: tensor<18xf32>, %w_re32: tensor<12xf32>, %w_im32: tensor<12xf32>) -> (tensor<18xf64>, tensor<18xf64>, tensor<18xf64>, tensor<18xf64>, tensor<18xf64>, tensor<18xf64>, tensor<18xf64>, tensor<18xf64>, tensor<18xf64>, tensor<18xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<18xf32>, tensor<18xf32>, tensor<18xf32>, tensor<18xf32>, tensor<18xf32>, tensor<18xf32>, tensor<18xf32>, tensor<18xf32>, tensor<18xf32>, tensor<18xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>) {
    %z64 = stablehlo.complex %z_re64, %z_im64 : tensor<18xcomplex<f64>>
    %w64 = stablehlo.complex %w_re64, %w_im64 : tensor<12xcomplex<f64>>
    %asin64 = chlo.asin %z64 : tensor<18xcomplex<f64>> -> tensor<18xcomplex<f64>>
    %asin64_real = stablehlo.real %asin64 : (tensor<18xcomplex<f64>>) -> tensor<18xf64>
    %asin64_imag = stablehlo.imag %asin64 : (tensor<18xcomplex<f64>>) -> tensor<18xf64>
    %asinh64 = chlo.asinh %z64 : tensor<18xcomplex<f64>> -> tensor<18xcomplex<f64>>
    %asinh64_real = stablehlo.real %asinh64 : (tensor<18xcomplex<f64>>) -> tensor<18xf64>
    %asinh64_imag = stablehlo.imag %asinh64 : (tensor<18xcomplex<f64>>) -> tensor<18xf64>
    %acosh64 = chlo.acosh %z64 : tensor<18xcomplex<f64>> -> tensor<18xcomplex<f64>>
    %acosh64_real = stablehlo.real %acosh64 : (tensor<18xcomplex<f64>>) -> tensor<18xf64>
    %acosh64_imag = stablehlo.imag %acosh64 : (tensor<18xcomplex<f64>>) -> tensor<18xf64>
    %atan64 = chlo.atan %z64 : tensor<18xcomplex<f64>> -> tensor<18xcomplex<f64>>
    %atan64_real = stablehlo.real %atan64 : (tensor<18xcomplex<f64>>) -> tensor<18xf64>
    %atan64_imag = stablehlo.imag %atan64 : (tensor<18xcomplex<f64>>) -> tensor<18xf64>
    %atanh64 = chlo.atanh %z64 : tensor<18xcomplex<f64>> -> tensor<18xcomplex<f64>>
    %atanh64_real = stablehlo.real %atanh64 : (tensor<18xcomplex<f64>>) -> tensor<18xf64>
    %atanh64_imag = stablehlo.imag %atanh64 : (tensor<18xcomplex<f64>>) -> tensor<18xf64>
    %cosh64 = chlo.cosh %w64 : tensor<12xcomplex<f64>> -> tensor<12xcomplex<f64>>
    %cosh64_real = stablehlo.real %cosh64 : (tensor<12xcomplex<f64>>) -> tensor<12xf64>
    %cosh64_imag = stablehlo.imag %cosh64 : (tensor<12xcomplex<f64>>) -> tensor<12xf64>
    %sinh64 = chlo.sinh %w64 : tensor<12xcomplex<f64>> -> tensor<12xcomplex<f64>>
    %sinh64_real = stablehlo.real %sinh64 : (tensor<12xcomplex<f64>>) -> tensor<12xf64>
    %sinh64_imag = stablehlo.imag %sinh64 : (tensor<12xcomplex<f64>>) -> tensor<12xf64>
    %z32 = stablehlo.complex %z_re32, %z_im32 : tensor<18xcomplex<f32>>
    %w32 = stablehlo.complex %w_re32, %w_im32 : tensor<12xcomplex<f32>>
    %asin32 = chlo.asin %z32 : tensor<18xcomplex<f32>> -> tensor<18xcomplex<f32>>
    %asin32_real = stablehlo.real %asin32 : (tensor<18xcomplex<f32>>) -> tensor<18xf32>
    %asin32_imag = stablehlo.imag %asin32 : (tensor<18xcomplex<f32>>) -> tensor<18xf32>
    %asinh32 = chlo.asinh %z32 : tensor<18xcomplex<f32>> -> tensor<18xcomplex<f32>>
    %asinh32_real = stablehlo.real %asinh32 : (tensor<18xcomplex<f32>>) -> tensor<18xf32>
    %asinh32_imag = stablehlo.imag %asinh32 : (tensor<18xcomplex<f32>>) -> tensor<18xf32>
    %acosh32 = chlo.acosh %z32 : tensor<18xcomplex<f32>> -> tensor<18xcomplex<f32>>
    %acosh32_real = stablehlo.real %acosh32 : (tensor<18xcomplex<f32>>) -> tensor<18xf32>
    %acosh32_imag = stablehlo.imag %acosh32 : (tensor<18xcomplex<f32>>) -> tensor<18xf32>
    %atan32 = chlo.atan %z32 : tensor<18xcomplex<f32>> -> tensor<18xcomplex<f32>>
    %atan32_real = stablehlo.real %atan32 : (tensor<18xcomplex<f32>>) -> tensor<18xf32>
    %atan32_imag = stablehlo.imag %atan32 : (tensor<18xcomplex<f32>>) -> tensor<18xf32>
    %atanh32 = chlo.atanh %z32 : tensor<18xcomplex<f32>> -> tensor<18xcomplex<f32>>
    %atanh32_real = stablehlo.real %atanh32 : (tensor<18xcomplex<f32>>) -> tensor<18xf32>
    %atanh32_imag = stablehlo.imag %atanh32 : (tensor<18xcomplex<f32>>) -> tensor<18xf32>
    %cosh32 = chlo.cosh %w32 : tensor<12xcomplex<f32>> -> tensor<12xcomplex<f32>>
    %cosh32_real = stablehlo.real %cosh32 : (tensor<12xcomplex<f32>>) -> tensor<12xf32>
    %cosh32_imag = stablehlo.imag %cosh32 : (tensor<12xcomplex<f32>>) -> tensor<12xf32>
    %sinh32 = chlo.sinh %w32 : tensor<12xcomplex<f32>> -> tensor<12xcomplex<f32>>
    %sinh32_real = stablehlo.real %sinh32 : (tensor<12xcomplex<f32>>) -> tensor<12xf32>
    %sinh32_imag = stablehlo.imag %sinh32 : (tensor<12xcomplex<f32>>) -> tensor<12xf32>
    return %asin64_real, %asin64_imag, %asinh64_real, %asinh64_imag, %acosh64_real, %acosh64_imag, %atan64_real, %atan64_imag, %atanh64_real, %atanh64_imag, %cosh64_real, %cosh64_imag, %sinh64_real, %sinh64_imag, %asin32_real, %asin32_imag, %asinh32_real, %asinh32_imag, %acosh32_real, %acosh32_imag, %atan32_real, %atan32_imag, %atanh32_real, %atanh32_imag, %cosh32_real, %cosh32_imag, %sinh32_real, %sinh32_imag : tensor<18xf64>, tensor<18xf64>, tensor<18xf64>, tensor<18xf64>, tensor<18xf64>, tensor<18xf64>, tensor<18xf64>, tensor<18xf64>, tensor<18xf64>, tensor<18xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<12xf64>, tensor<18xf32>, tensor<18xf32>, tensor<18xf32>, tensor<18xf32>, tensor<18xf32>, tensor<18xf32>, tensor<18xf32>, tensor<18xf32>, tensor<18xf32>, tensor<18xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>, tensor<12xf32>
  }
}
