// IREE 3.13 has no target description for sm_90 (H100, H200) or newer:
// every dispatch fails, even one addition:
//
//   iree-compile --iree-hal-target-device=cuda --iree-cuda-target=sm_90 \
//     sm90-elementwise.mlir -o /dev/null
//   error: missing GPU target in #hal.executable.target
//
// (upstream: iree-org/iree issue 22147). At sm_80 it compiles; IREE embeds
// PTX, which the driver compiles for a newer GPU, so ckpt-compile
// --backend=iree-cuda targets sm_80 unless told otherwise.
func.func @add(%x: tensor<256x64xf32>, %y: tensor<256x64xf32>) -> tensor<256x64xf32> {
  %sum = arith.addf %x, %y : tensor<256x64xf32>
  return %sum : tensor<256x64xf32>
}
