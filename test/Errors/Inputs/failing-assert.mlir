// A step whose assertion fails on ckpt-run's generated inputs (integers 0 to
// 15): torch-mlir checks class indices like this (step-assert.test).
func.func @step(%labels: tensor<4xi64>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = arith.constant 0 : index
  %label = tensor.extract %labels[%c0] : tensor<4xi64>
  %limit = arith.constant 0 : i64
  %ok = arith.cmpi slt, %label, %limit : i64
  cf.assert %ok, "index must be smaller than dim size"
  return %x : tensor<4xf32>
}
