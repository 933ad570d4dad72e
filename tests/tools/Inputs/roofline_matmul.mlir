// One bf16 [128,256] x [256,512] matmul and an all-reduce of its result:
// the roofline report's hand-computed case (tests/tools/torusc-roofline.mlir).
func.func @matmul(%a: tensor<128x256xbf16>, %b: tensor<256x512xbf16>) -> tensor<128x512xbf16> {
  %c = torus.dot_general %a, %b, batching_dims = [] x [], contracting_dims = [1] x [0] : (tensor<128x256xbf16>, tensor<256x512xbf16>) -> tensor<128x512xbf16>
  %s = torus.all_reduce sum %c : tensor<128x512xbf16>
  return %s : tensor<128x512xbf16>
}
