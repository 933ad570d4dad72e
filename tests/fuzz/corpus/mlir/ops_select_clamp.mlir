func.func @select_clamp(%p: tensor<i1>, %a: tensor<3xbf16>, %b: tensor<3xbf16>, %lo: tensor<bf16>) -> tensor<3xbf16> {
  %0 = torus.select %p, %a, %b : tensor<i1>, tensor<3xbf16>
  %1 = torus.clamp %lo, %0, %b : (tensor<bf16>, tensor<3xbf16>, tensor<3xbf16>) -> tensor<3xbf16>
  return %1 : tensor<3xbf16>
}
