// A 12 GiB argument: more than an 8 GiB v2 core holds.
func.func @in12g(%x: tensor<3x1024x1024x1024xf32>) -> tensor<3x1024x1024x1024xf32> {
  %n = torus.negate %x : tensor<3x1024x1024x1024xf32>
  return %n : tensor<3x1024x1024x1024xf32>
}
