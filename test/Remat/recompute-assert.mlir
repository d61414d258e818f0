// RUN: ckpt-opt %s --ckpt-tensor-prep --ckpt-remat="budget=0.9 report=%t.json" | FileCheck %s
// RUN: FileCheck %s --check-prefix=REPORT --input-file=%t.json
// RUN: ckpt-run %s --entry=step --iterations=1 --compare --remat-budget=0.9 | FileCheck %s --check-prefix=EXEC

// An op whose payload asserts (a gather's bounds check, as torch-mlir emits
// for embeddings and cross-entropy labels) is recomputed like any other: the
// assertion reads the same values again and passes again. Before, the
// assertion's memory effect made the gather and everything computed from
// it unrecomputable, and the planner found nothing to do.
// CHECK-LABEL: func.func @step
// CHECK:         ckpt.recompute
// CHECK:           linalg.generic
// CHECK:             cf.assert {{.*}}"index in bounds"
// CHECK:           ckpt.yield
// REPORT: "recompute_count": 1,
// EXEC: remat: budget=0.9 {{.*}} recompute_count=1
// EXEC: outputs_identical=yes within_budget=yes

#id = affine_map<(d0, d1) -> (d0, d1)>
#row = affine_map<(d0, d1) -> (d0)>
func.func @step(%ids: tensor<32xi64>, %table: tensor<64x32xf32>, %w: tensor<32x32xf32>) -> tensor<32x32xf32> {
  %e = tensor.empty() : tensor<32x32xf32>
  %c0 = arith.constant 0.0 : f32
  %a = linalg.generic {indexing_maps = [#row, #id], iterator_types = ["parallel", "parallel"]}
      ins(%ids : tensor<32xi64>) outs(%e : tensor<32x32xf32>) {
  ^bb0(%id: i64, %out: f32):
    %c64 = arith.constant 64 : i64
    %c0i = arith.constant 0 : i64
    %lt = arith.cmpi slt, %id, %c64 : i64
    %ge = arith.cmpi sge, %id, %c0i : i64
    %ok = arith.andi %lt, %ge : i1
    cf.assert %ok, "index in bounds"
    %row = arith.index_cast %id : i64 to index
    %col = linalg.index 1 : index
    %v = tensor.extract %table[%row, %col] : tensor<64x32xf32>
    linalg.yield %v : f32
  } -> tensor<32x32xf32>
  %z0 = linalg.fill ins(%c0 : f32) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %b = linalg.matmul ins(%a, %w : tensor<32x32xf32>, tensor<32x32xf32>) outs(%z0 : tensor<32x32xf32>) -> tensor<32x32xf32>
  %z1 = linalg.fill ins(%c0 : f32) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %c = linalg.matmul ins(%b, %w : tensor<32x32xf32>, tensor<32x32xf32>) outs(%z1 : tensor<32x32xf32>) -> tensor<32x32xf32>
  %t = linalg.add ins(%b, %c : tensor<32x32xf32>, tensor<32x32xf32>) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %z2 = linalg.fill ins(%c0 : f32) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  %d = linalg.matmul ins(%t, %w : tensor<32x32xf32>, tensor<32x32xf32>) outs(%z2 : tensor<32x32xf32>) -> tensor<32x32xf32>
  %r = linalg.add ins(%d, %a : tensor<32x32xf32>, tensor<32x32xf32>) outs(%e : tensor<32x32xf32>) -> tensor<32x32xf32>
  return %r : tensor<32x32xf32>
}
