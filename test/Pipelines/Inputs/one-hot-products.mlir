// Embedding gradients as one-hot products: @scatterN with the iota as a
// generic (ckpt-one-hot-products-to-scatter rewrites them), @productN with
// the iota as a constant (left as products); the pad variants also exclude
// token 3 (an embedding's padding index). Used by one-hot-scatter-exec.test.
func.func @scatter32(%tok: tensor<64x1xi64>, %g: tensor<64x16xf32>) -> tensor<32x16xf32> {
  %zero = arith.constant 0.0 : f32
  %ie = tensor.empty() : tensor<1x32xi64>
  %iota = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} outs(%ie : tensor<1x32xi64>) {
  ^bb0(%o: i64):
    %j = linalg.index 1 : index
    %c = arith.index_cast %j : index to i64
    linalg.yield %c : i64
  } -> tensor<1x32xi64>
  %e = tensor.empty() : tensor<32x16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<32x16xf32>) -> tensor<32x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(v, h, t) -> (t, 0)>, affine_map<(v, h, t) -> (0, v)>, affine_map<(v, h, t) -> (t, h)>, affine_map<(v, h, t) -> (v, h)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%tok, %iota, %g : tensor<64x1xi64>, tensor<1x32xi64>, tensor<64x16xf32>) outs(%init : tensor<32x16xf32>) {
  ^bb0(%a: i64, %b: i64, %x: f32, %acc: f32):
    %eq = arith.cmpi eq, %a, %b : i64
    %one = arith.uitofp %eq : i1 to f32
    %p = arith.mulf %one, %x : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<32x16xf32>
  return %r : tensor<32x16xf32>
}

func.func @product32(%tok: tensor<64x1xi64>, %g: tensor<64x16xf32>) -> tensor<32x16xf32> {
  %zero = arith.constant 0.0 : f32
  %iota = arith.constant dense<[[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31]]> : tensor<1x32xi64>
  %e = tensor.empty() : tensor<32x16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<32x16xf32>) -> tensor<32x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(v, h, t) -> (t, 0)>, affine_map<(v, h, t) -> (0, v)>, affine_map<(v, h, t) -> (t, h)>, affine_map<(v, h, t) -> (v, h)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%tok, %iota, %g : tensor<64x1xi64>, tensor<1x32xi64>, tensor<64x16xf32>) outs(%init : tensor<32x16xf32>) {
  ^bb0(%a: i64, %b: i64, %x: f32, %acc: f32):
    %eq = arith.cmpi eq, %a, %b : i64
    %one = arith.uitofp %eq : i1 to f32
    %p = arith.mulf %one, %x : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<32x16xf32>
  return %r : tensor<32x16xf32>
}

func.func @scatter8(%tok: tensor<64x1xi64>, %g: tensor<64x16xf32>) -> tensor<8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %ie = tensor.empty() : tensor<1x8xi64>
  %iota = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} outs(%ie : tensor<1x8xi64>) {
  ^bb0(%o: i64):
    %j = linalg.index 1 : index
    %c = arith.index_cast %j : index to i64
    linalg.yield %c : i64
  } -> tensor<1x8xi64>
  %e = tensor.empty() : tensor<8x16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(v, h, t) -> (t, 0)>, affine_map<(v, h, t) -> (0, v)>, affine_map<(v, h, t) -> (t, h)>, affine_map<(v, h, t) -> (v, h)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%tok, %iota, %g : tensor<64x1xi64>, tensor<1x8xi64>, tensor<64x16xf32>) outs(%init : tensor<8x16xf32>) {
  ^bb0(%a: i64, %b: i64, %x: f32, %acc: f32):
    %eq = arith.cmpi eq, %a, %b : i64
    %one = arith.uitofp %eq : i1 to f32
    %p = arith.mulf %one, %x : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

func.func @product8(%tok: tensor<64x1xi64>, %g: tensor<64x16xf32>) -> tensor<8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %iota = arith.constant dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>
  %e = tensor.empty() : tensor<8x16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(v, h, t) -> (t, 0)>, affine_map<(v, h, t) -> (0, v)>, affine_map<(v, h, t) -> (t, h)>, affine_map<(v, h, t) -> (v, h)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%tok, %iota, %g : tensor<64x1xi64>, tensor<1x8xi64>, tensor<64x16xf32>) outs(%init : tensor<8x16xf32>) {
  ^bb0(%a: i64, %b: i64, %x: f32, %acc: f32):
    %eq = arith.cmpi eq, %a, %b : i64
    %one = arith.uitofp %eq : i1 to f32
    %p = arith.mulf %one, %x : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

func.func @scatterpad8(%tok: tensor<64x1xi64>, %g: tensor<64x16xf32>) -> tensor<8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %pad = arith.constant 3 : i64
  %ie = tensor.empty() : tensor<1x8xi64>
  %iota = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} outs(%ie : tensor<1x8xi64>) {
  ^bb0(%o: i64):
    %j = linalg.index 1 : index
    %c = arith.index_cast %j : index to i64
    linalg.yield %c : i64
  } -> tensor<1x8xi64>
  %e = tensor.empty() : tensor<8x16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(v, h, t) -> (t, 0)>, affine_map<(v, h, t) -> (0, v)>, affine_map<(v, h, t) -> (t, h)>, affine_map<(v, h, t) -> (v, h)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%tok, %iota, %g : tensor<64x1xi64>, tensor<1x8xi64>, tensor<64x16xf32>) outs(%init : tensor<8x16xf32>) {
  ^bb0(%a: i64, %b: i64, %x: f32, %acc: f32):
    %eq = arith.cmpi eq, %a, %b : i64
    %keep = arith.cmpi ne, %a, %pad : i64
    %both = arith.andi %keep, %eq : i1
    %one = arith.uitofp %both : i1 to f32
    %p = arith.mulf %one, %x : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}

func.func @productpad8(%tok: tensor<64x1xi64>, %g: tensor<64x16xf32>) -> tensor<8x16xf32> {
  %zero = arith.constant 0.0 : f32
  %pad = arith.constant 3 : i64
  %iota = arith.constant dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>
  %e = tensor.empty() : tensor<8x16xf32>
  %init = linalg.fill ins(%zero : f32) outs(%e : tensor<8x16xf32>) -> tensor<8x16xf32>
  %r = linalg.generic {indexing_maps = [affine_map<(v, h, t) -> (t, 0)>, affine_map<(v, h, t) -> (0, v)>, affine_map<(v, h, t) -> (t, h)>, affine_map<(v, h, t) -> (v, h)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%tok, %iota, %g : tensor<64x1xi64>, tensor<1x8xi64>, tensor<64x16xf32>) outs(%init : tensor<8x16xf32>) {
  ^bb0(%a: i64, %b: i64, %x: f32, %acc: f32):
    %eq = arith.cmpi eq, %a, %b : i64
    %keep = arith.cmpi ne, %a, %pad : i64
    %both = arith.andi %keep, %eq : i1
    %one = arith.uitofp %both : i1 to f32
    %p = arith.mulf %one, %x : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<8x16xf32>
  return %r : tensor<8x16xf32>
}
