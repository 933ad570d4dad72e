// log1p of complex<f64> and complex<f32>; inputs and reference from
// tests/data/stablehlo/make_log1p_complex.py.
module @log1p_complex {
  func.func public @main(%re64: tensor<16xf64>, %im64: tensor<16xf64>, %re32: tensor<16xf32>, %im32: tensor<16xf32>) -> (tensor<16xf64>, tensor<16xf64>, tensor<16xf32>, tensor<16xf32>) {
    %z64 = stablehlo.complex %re64, %im64 : tensor<16xcomplex<f64>>
    %l64 = stablehlo.log_plus_one %z64 : tensor<16xcomplex<f64>>
    %0 = stablehlo.real %l64 : (tensor<16xcomplex<f64>>) -> tensor<16xf64>
    %1 = stablehlo.imag %l64 : (tensor<16xcomplex<f64>>) -> tensor<16xf64>
    %z32 = stablehlo.complex %re32, %im32 : tensor<16xcomplex<f32>>
    %l32 = stablehlo.log_plus_one %z32 : tensor<16xcomplex<f32>>
    %2 = stablehlo.real %l32 : (tensor<16xcomplex<f32>>) -> tensor<16xf32>
    %3 = stablehlo.imag %l32 : (tensor<16xcomplex<f32>>) -> tensor<16xf32>
    return %0, %1, %2, %3 : tensor<16xf64>, tensor<16xf64>, tensor<16xf32>, tensor<16xf32>
  }
}
