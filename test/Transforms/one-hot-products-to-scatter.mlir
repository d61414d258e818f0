// RUN: ckpt-opt %s --split-input-file --ckpt-one-hot-products-to-scatter | FileCheck %s

// Tests an embedding gradient with the iota fused in (the loop index): a
// loop over the tokens adds each row into its token's row of the
// accumulator, in place; an out-of-range token adds its row times 0.0 to
// row 0; the loop keeps the op's annotations.
// CHECK-LABEL: func.func @fused_iota
// CHECK-SAME:    (%[[TOK:.*]]: tensor<64x1xi64>, %[[G:.*]]: tensor<64x16xf32>, %[[INIT:.*]]: tensor<32x16xf32>)
// CHECK:         %[[R:.*]] = scf.for %[[T:.*]] = %{{.*}} to %{{.*}} step %{{.*}} iter_args(%[[ACC:.*]] = %[[INIT]]) -> (tensor<32x16xf32>) {
// CHECK:           %[[X:.*]] = tensor.extract %[[TOK]][%[[T]], %{{.*}}] : tensor<64x1xi64>
// CHECK-DAG:       %[[GE:.*]] = arith.cmpi sge, %[[X]], %{{.*}} : i64
// CHECK-DAG:       %[[LT:.*]] = arith.cmpi slt, %[[X]], %{{.*}} : i64
// CHECK:           %[[IN:.*]] = arith.andi
// CHECK:           %[[CL:.*]] = arith.select %[[IN]], %[[X]], %{{.*}} : i64
// CHECK:           %[[V:.*]] = arith.index_cast %[[CL]] : i64 to index
// CHECK:           %[[W:.*]] = arith.select %[[IN]], %{{.*}}, %{{.*}} : f32
// CHECK:           %[[ROW:.*]] = tensor.extract_slice %[[G]][%[[T]], 0] [1, 16] [1, 1] : tensor<64x16xf32> to tensor<16xf32>
// CHECK:           %[[DST:.*]] = tensor.extract_slice %[[ACC]][%[[V]], 0] [1, 16] [1, 1] : tensor<32x16xf32> to tensor<16xf32>
// CHECK:           %[[ADD:.*]] = linalg.generic {{.*}} ins(%[[ROW]] : tensor<16xf32>) outs(%[[DST]] : tensor<16xf32>)
// CHECK:             arith.mulf %[[W]], %{{.*}} : f32
// CHECK:             arith.addf
// CHECK:           %[[UPD:.*]] = tensor.insert_slice %[[ADD]] into %[[ACC]][%[[V]], 0] [1, 16] [1, 1]
// CHECK:           scf.yield %[[UPD]]
// CHECK:         } {ckpt.name = "embedding_grad"}
// CHECK:         return %[[R]]
func.func @fused_iota(%tok: tensor<64x1xi64>, %g: tensor<64x16xf32>, %init: tensor<32x16xf32>) -> tensor<32x16xf32> {
  %r = linalg.generic {indexing_maps = [affine_map<(v, h, t) -> (t, 0)>, affine_map<(v, h, t) -> (t, h)>, affine_map<(v, h, t) -> (v, h)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%tok, %g : tensor<64x1xi64>, tensor<64x16xf32>) outs(%init : tensor<32x16xf32>)
      attrs = {ckpt.name = "embedding_grad"} {
  ^bb0(%a: i64, %x: f32, %acc: f32):
    %i = linalg.index 0 : index
    %b = arith.index_cast %i : index to i64
    %eq = arith.cmpi eq, %a, %b : i64
    %one = arith.uitofp %eq : i1 to f32
    %p = arith.mulf %x, %one : f32
    %s = arith.addf %p, %acc : f32
    linalg.yield %s : f32
  } -> tensor<32x16xf32>
  return %r : tensor<32x16xf32>
}

// -----

// Tests the iota as an input (it has other users, so the fusion kept it) and
// the rows stored transposed, (h, t).
// CHECK-LABEL: func.func @iota_input_transposed_rows
// CHECK:         scf.for
// CHECK:           tensor.extract %arg0[%{{.*}}] : tensor<64xi64>
// CHECK:           tensor.extract_slice %arg1[0, %{{.*}}] [16, 1] [1, 1] : tensor<16x64xf32> to tensor<16xf32>
// CHECK:         return
func.func @iota_input_transposed_rows(%tok: tensor<64xi64>, %g: tensor<16x64xf32>, %init: tensor<32x16xf32>) -> (tensor<32x16xf32>, tensor<1x32xi64>) {
  %ie = tensor.empty() : tensor<1x32xi64>
  %iota = linalg.generic {indexing_maps = [affine_map<(i, j) -> (i, j)>], iterator_types = ["parallel", "parallel"]} outs(%ie : tensor<1x32xi64>) {
  ^bb0(%o: i64):
    %j = linalg.index 1 : index
    %c = arith.index_cast %j : index to i64
    linalg.yield %c : i64
  } -> tensor<1x32xi64>
  %r = linalg.generic {indexing_maps = [affine_map<(v, h, t) -> (t)>, affine_map<(v, h, t) -> (0, v)>, affine_map<(v, h, t) -> (h, t)>, affine_map<(v, h, t) -> (v, h)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%tok, %iota, %g : tensor<64xi64>, tensor<1x32xi64>, tensor<16x64xf32>) outs(%init : tensor<32x16xf32>) {
  ^bb0(%a: i64, %b: i64, %x: f32, %acc: f32):
    %eq = arith.cmpi eq, %b, %a : i64
    %one = arith.uitofp %eq : i1 to f32
    %p = arith.mulf %one, %x : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<32x16xf32>
  return %r, %iota : tensor<32x16xf32>, tensor<1x32xi64>
}

// -----

// Tests an embedding with a padding index (BERT's word embeddings): the
// comparison is and-ed with `token != pad`, which the loop evaluates on the
// token to weigh its row.
// CHECK-LABEL: func.func @padding_index
// CHECK:         scf.for
// CHECK:           %[[X:.*]] = tensor.extract
// CHECK:           %[[RANGE:.*]] = arith.andi
// CHECK:           %[[KEEP:.*]] = arith.cmpi ne, %[[X]], %{{.*}} : i64
// CHECK:           %[[COUNT:.*]] = arith.andi %[[RANGE]], %[[KEEP]] : i1
// CHECK:           arith.select %[[COUNT]], %{{.*}}, %{{.*}} : f32
func.func @padding_index(%tok: tensor<64x1xi64>, %g: tensor<64x16xf32>, %init: tensor<32x16xf32>) -> tensor<32x16xf32> {
  %pad = arith.constant 0 : i64
  %r = linalg.generic {indexing_maps = [affine_map<(v, h, t) -> (t, 0)>, affine_map<(v, h, t) -> (t, h)>, affine_map<(v, h, t) -> (v, h)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%tok, %g : tensor<64x1xi64>, tensor<64x16xf32>) outs(%init : tensor<32x16xf32>) {
  ^bb0(%a: i64, %x: f32, %acc: f32):
    %keep = arith.cmpi ne, %a, %pad : i64
    %i = linalg.index 0 : index
    %b = arith.index_cast %i : index to i64
    %eq = arith.cmpi eq, %a, %b : i64
    %both = arith.andi %eq, %keep : i1
    %one = arith.uitofp %both : i1 to f32
    %p = arith.mulf %one, %x : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<32x16xf32>
  return %r : tensor<32x16xf32>
}

// -----

// Tests what stays a product: an index that is not an iota (a constant
// tensor), a comparison other than equality, and a payload with more in it.
// CHECK-LABEL: func.func @left_alone
// CHECK-NOT:     scf.for
func.func @left_alone(%tok: tensor<64x1xi64>, %g: tensor<64x16xf32>, %init: tensor<8x16xf32>)
    -> (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) {
  %iota = arith.constant dense<[[0, 1, 2, 3, 4, 5, 6, 7]]> : tensor<1x8xi64>
  %a = linalg.generic {indexing_maps = [affine_map<(v, h, t) -> (t, 0)>, affine_map<(v, h, t) -> (0, v)>, affine_map<(v, h, t) -> (t, h)>, affine_map<(v, h, t) -> (v, h)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%tok, %iota, %g : tensor<64x1xi64>, tensor<1x8xi64>, tensor<64x16xf32>) outs(%init : tensor<8x16xf32>) {
  ^bb0(%x: i64, %y: i64, %z: f32, %acc: f32):
    %eq = arith.cmpi eq, %x, %y : i64
    %one = arith.uitofp %eq : i1 to f32
    %p = arith.mulf %one, %z : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<8x16xf32>
  %b = linalg.generic {indexing_maps = [affine_map<(v, h, t) -> (t, 0)>, affine_map<(v, h, t) -> (t, h)>, affine_map<(v, h, t) -> (v, h)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%tok, %g : tensor<64x1xi64>, tensor<64x16xf32>) outs(%init : tensor<8x16xf32>) {
  ^bb0(%x: i64, %z: f32, %acc: f32):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i64
    %lt = arith.cmpi slt, %x, %c : i64
    %one = arith.uitofp %lt : i1 to f32
    %p = arith.mulf %one, %z : f32
    %s = arith.addf %acc, %p : f32
    linalg.yield %s : f32
  } -> tensor<8x16xf32>
  %c = linalg.generic {indexing_maps = [affine_map<(v, h, t) -> (t, 0)>, affine_map<(v, h, t) -> (t, h)>, affine_map<(v, h, t) -> (v, h)>],
                       iterator_types = ["parallel", "parallel", "reduction"]}
      ins(%tok, %g : tensor<64x1xi64>, tensor<64x16xf32>) outs(%init : tensor<8x16xf32>) {
  ^bb0(%x: i64, %z: f32, %acc: f32):
    %i = linalg.index 0 : index
    %c = arith.index_cast %i : index to i64
    %eq = arith.cmpi eq, %x, %c : i64
    %one = arith.uitofp %eq : i1 to f32
    %p = arith.mulf %one, %z : f32
    %q = arith.mulf %p, %z : f32
    %s = arith.addf %acc, %q : f32
    linalg.yield %s : f32
  } -> tensor<8x16xf32>
  return %a, %b, %c : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>
}
