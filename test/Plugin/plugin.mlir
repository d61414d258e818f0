// Tests that the stock mlir-opt loads ckpt as a dialect and pass plugin
// (plugin passes are named in --pass-pipeline: their flags do not exist when
// mlir-opt parses its command line),
// round-trips ckpt IR, and that the plugin's passes give the same output as
// ckpt-opt's.
// RUN: mlir-opt %s --load-dialect-plugin=%ckpt_plugin | FileCheck %s --check-prefix=ROUNDTRIP
// RUN: mlir-opt %s --load-dialect-plugin=%ckpt_plugin --load-pass-plugin=%ckpt_plugin --pass-pipeline="builtin.module(ckpt-lower-recompute)" > %t.plugin.mlir
// RUN: ckpt-opt %s --ckpt-lower-recompute > %t.driver.mlir
// RUN: diff %t.plugin.mlir %t.driver.mlir
// RUN: FileCheck %s --check-prefix=LOWERED --input-file=%t.plugin.mlir
// RUN: mlir-opt %s --load-dialect-plugin=%ckpt_plugin --load-pass-plugin=%ckpt_plugin --pass-pipeline="builtin.module(ckpt-cpu-pipeline)" > %t.plugin.ll.mlir
// RUN: ckpt-opt %s --ckpt-cpu-pipeline > %t.driver.ll.mlir
// RUN: diff %t.plugin.ll.mlir %t.driver.ll.mlir

// ROUNDTRIP-LABEL: func.func @step
// ROUNDTRIP:         math.exp %{{.*}} {ckpt.policy = #ckpt.policy<prefer_recompute>}
// ROUNDTRIP:         ckpt.recompute(%{{.*}} = %{{.*}} : tensor<1024xf32>) -> tensor<1024xf32> {
// ROUNDTRIP:           ckpt.yield

// LOWERED-LABEL: func.func @step
// LOWERED-NOT:     ckpt.recompute
// LOWERED:         math.exp
// LOWERED:         math.exp
func.func @step(%a: tensor<1024xf32>) -> tensor<1024xf32> {
  %e = math.exp %a {ckpt.policy = #ckpt.policy<prefer_recompute>} : tensor<1024xf32>
  %r = ckpt.recompute(%x = %a : tensor<1024xf32>) -> tensor<1024xf32> {
    %y = math.exp %x : tensor<1024xf32>
    ckpt.yield %y : tensor<1024xf32>
  }
  %s = arith.addf %e, %r : tensor<1024xf32>
  return %s : tensor<1024xf32>
}
