// RUN: ckpt-opt %s --ckpt-cpu-pipeline | env CKPT_RUNTIME_REPORT=stdout %run_cpu | FileCheck %s

// Tests, by execution, ops the CPU pipeline must lower rather than leave
// behind: linalg.softmax (decomposed), math.erf (libm), arith/math on whole
// tensors (converted to linalg), and a recompute region; the runtime prints
// its report at exit when CKPT_RUNTIME_REPORT asks for it.
//
// Values: x = 0.5, w = -0.25 -> m = 32 * 0.5 * -0.25 = -4, relu -> 0,
// y = 0 + x = 0.5 everywhere, softmax over a row of equal values = 1/32,
// erff(1/32) in f32 prints as 0.0352504.
//
// Hand-computed peak: main holds x and w (8192 B). In @step every op writes
// into a tensor of its own (ckpt-privatize-inits gives the softmax its own
// destination instead of the matmul's tensor.empty, which kept m's buffer
// alive under the softmax: 20480 B before), so at most two 4 KiB tensors are
// live at once, 8192 + 2 x 4096 = 16384 B (16512 B with the softmax's
// 32-element row buffer of 128 B beside them, before elementwise steps wrote
// into the tensors they read: ckpt-overwrite-dying-inputs). At exit
// everything has been freed.
//
// CHECK:      Unranked Memref
// CHECK-NEXT: {{\[}}[0.0352504,   0.0352504,   0.0352504,   0.0352504]]
// CHECK:      ckpt-runtime: peak_bytes=16384 live_bytes=0 allocations={{[0-9]+}} unknown_frees=0

func.func private @printMemrefF32(tensor<*xf32>)

#id = affine_map<(i, j) -> (i, j)>

func.func @step(%x: tensor<32x32xf32>, %w: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<32x32xf32>
  %z = linalg.fill ins(%zero : f32) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %m = linalg.matmul ins(%x, %w : tensor<32x32xf32>, tensor<32x32xf32>) outs(%z : tensor<32x32xf32>) -> tensor<32x32xf32>
  %h = ckpt.recompute(%a = %m : tensor<32x32xf32>) -> tensor<32x32xf32> {
    %c0 = arith.constant 0.0 : f32
    %e2 = tensor.empty() : tensor<32x32xf32>
    %r = linalg.generic {indexing_maps = [#id, #id], iterator_types = ["parallel", "parallel"]}
        ins(%a : tensor<32x32xf32>) outs(%e2 : tensor<32x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %v = arith.maximumf %in, %c0 : f32
      linalg.yield %v : f32
    } -> tensor<32x32xf32>
    ckpt.yield %r : tensor<32x32xf32>
  }
  %y = arith.addf %h, %x : tensor<32x32xf32>
  %s = linalg.softmax dimension(1) ins(%y : tensor<32x32xf32>) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %g = math.erf %s : tensor<32x32xf32>
  return %g : tensor<32x32xf32>
}

func.func @main() {
  %half = arith.constant 0.5 : f32
  %quarter = arith.constant -0.25 : f32
  %e0 = tensor.empty() : tensor<32x32xf32>
  %x = linalg.fill ins(%half : f32) outs(%e0 : tensor<32x32xf32>) -> tensor<32x32xf32>
  %e1 = tensor.empty() : tensor<32x32xf32>
  %w = linalg.fill ins(%quarter : f32) outs(%e1 : tensor<32x32xf32>) -> tensor<32x32xf32>
  %r = call @step(%x, %w) : (tensor<32x32xf32>, tensor<32x32xf32>) -> tensor<32x32xf32>
  %c = tensor.extract_slice %r[0, 0] [1, 4] [1, 1] : tensor<32x32xf32> to tensor<1x4xf32>
  %u = tensor.cast %c : tensor<1x4xf32> to tensor<*xf32>
  call @printMemrefF32(%u) : (tensor<*xf32>) -> ()
  return
}
