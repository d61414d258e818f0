// A three-layer tanh MLP computing in bf16: @loss_grad is ckpt-opt --ckpt-autodiff's
// output for the bf16 forward @loss (made private so the tensor preparation
// inlines it), and @step takes and returns f32 (ckpt-run feeds f32), rounding
// its arguments to bf16 and extending the results. Used by gemm-blas-narrow.test.
#map = affine_map<(d0, d1) -> ()>
#map1 = affine_map<(d0, d1) -> (d0, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d2)>
#map3 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map4 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map5 = affine_map<() -> ()>
module {
  func.func @loss(%arg0: tensor<64x32xbf16>, %arg1: tensor<32x32xbf16>, %arg2: tensor<32x32xbf16>, %arg3: tensor<32x32xbf16>) -> tensor<bf16> attributes {ckpt.differentiate} {
    %cst = arith.constant 0.000000e+00 : bf16
    %0 = tensor.empty() : tensor<64x32xbf16>
    %1 = linalg.fill ins(%cst : bf16) outs(%0 : tensor<64x32xbf16>) -> tensor<64x32xbf16>
    %2 = linalg.matmul ins(%arg0, %arg1 : tensor<64x32xbf16>, tensor<32x32xbf16>) outs(%1 : tensor<64x32xbf16>) -> tensor<64x32xbf16>
    %3 = math.tanh %2 : tensor<64x32xbf16>
    %4 = linalg.matmul ins(%3, %arg2 : tensor<64x32xbf16>, tensor<32x32xbf16>) outs(%1 : tensor<64x32xbf16>) -> tensor<64x32xbf16>
    %5 = math.tanh %4 : tensor<64x32xbf16>
    %6 = linalg.matmul ins(%5, %arg3 : tensor<64x32xbf16>, tensor<32x32xbf16>) outs(%1 : tensor<64x32xbf16>) -> tensor<64x32xbf16>
    %7 = math.tanh %6 : tensor<64x32xbf16>
    %8 = tensor.empty() : tensor<bf16>
    %9 = linalg.fill ins(%cst : bf16) outs(%8 : tensor<bf16>) -> tensor<bf16>
    %reduced = linalg.reduce ins(%7 : tensor<64x32xbf16>) outs(%9 : tensor<bf16>) dimensions = [0, 1] 
      (%in: bf16, %init: bf16) {
        %10 = arith.mulf %in, %in : bf16
        %11 = arith.addf %init, %10 : bf16
        linalg.yield %11 : bf16
      }
    return %reduced : tensor<bf16>
  }
  func.func private @loss_grad(%arg0: tensor<64x32xbf16>, %arg1: tensor<32x32xbf16>, %arg2: tensor<32x32xbf16>, %arg3: tensor<32x32xbf16>) -> (tensor<bf16>, tensor<64x32xbf16>, tensor<32x32xbf16>, tensor<32x32xbf16>, tensor<32x32xbf16>) {
    %cst = arith.constant {ckpt.phase = #ckpt.phase<forward>} 0.000000e+00 : bf16
    %0 = tensor.empty() {ckpt.phase = #ckpt.phase<forward>} : tensor<64x32xbf16>
    %1 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel"]} ins(%cst : bf16) outs(%0 : tensor<64x32xbf16>) attrs =  {ckpt.phase = #ckpt.phase<forward>} {
    ^bb0(%in: bf16, %out: bf16):
      linalg.yield %in : bf16
    } -> tensor<64x32xbf16>
    %2 = linalg.generic {indexing_maps = [#map2, #map3, #map4], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0, %arg1 : tensor<64x32xbf16>, tensor<32x32xbf16>) outs(%1 : tensor<64x32xbf16>) attrs =  {ckpt.phase = #ckpt.phase<forward>} {
    ^bb0(%in: bf16, %in_11: bf16, %out: bf16):
      %45 = arith.mulf %in, %in_11 : bf16
      %46 = arith.addf %out, %45 : bf16
      linalg.yield %46 : bf16
    } -> tensor<64x32xbf16>
    %3 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%2 : tensor<64x32xbf16>) outs(%2 : tensor<64x32xbf16>) attrs =  {ckpt.phase = #ckpt.phase<forward>} {
    ^bb0(%in: bf16, %out: bf16):
      %45 = math.tanh %in : bf16
      linalg.yield %45 : bf16
    } -> tensor<64x32xbf16>
    %4 = linalg.generic {indexing_maps = [#map2, #map3, #map4], iterator_types = ["parallel", "parallel", "reduction"]} ins(%3, %arg2 : tensor<64x32xbf16>, tensor<32x32xbf16>) outs(%1 : tensor<64x32xbf16>) attrs =  {ckpt.phase = #ckpt.phase<forward>} {
    ^bb0(%in: bf16, %in_11: bf16, %out: bf16):
      %45 = arith.mulf %in, %in_11 : bf16
      %46 = arith.addf %out, %45 : bf16
      linalg.yield %46 : bf16
    } -> tensor<64x32xbf16>
    %5 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%4 : tensor<64x32xbf16>) outs(%4 : tensor<64x32xbf16>) attrs =  {ckpt.phase = #ckpt.phase<forward>} {
    ^bb0(%in: bf16, %out: bf16):
      %45 = math.tanh %in : bf16
      linalg.yield %45 : bf16
    } -> tensor<64x32xbf16>
    %6 = linalg.generic {indexing_maps = [#map2, #map3, #map4], iterator_types = ["parallel", "parallel", "reduction"]} ins(%5, %arg3 : tensor<64x32xbf16>, tensor<32x32xbf16>) outs(%1 : tensor<64x32xbf16>) attrs =  {ckpt.phase = #ckpt.phase<forward>} {
    ^bb0(%in: bf16, %in_11: bf16, %out: bf16):
      %45 = arith.mulf %in, %in_11 : bf16
      %46 = arith.addf %out, %45 : bf16
      linalg.yield %46 : bf16
    } -> tensor<64x32xbf16>
    %7 = linalg.generic {indexing_maps = [#map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%6 : tensor<64x32xbf16>) outs(%6 : tensor<64x32xbf16>) attrs =  {ckpt.phase = #ckpt.phase<forward>} {
    ^bb0(%in: bf16, %out: bf16):
      %45 = math.tanh %in : bf16
      linalg.yield %45 : bf16
    } -> tensor<64x32xbf16>
    %8 = tensor.empty() {ckpt.phase = #ckpt.phase<forward>} : tensor<bf16>
    %9 = linalg.generic {indexing_maps = [#map5, #map5], iterator_types = []} ins(%cst : bf16) outs(%8 : tensor<bf16>) attrs =  {ckpt.phase = #ckpt.phase<forward>} {
    ^bb0(%in: bf16, %out: bf16):
      linalg.yield %in : bf16
    } -> tensor<bf16>
    %10 = linalg.generic {indexing_maps = [#map1, #map], iterator_types = ["reduction", "reduction"]} ins(%7 : tensor<64x32xbf16>) outs(%9 : tensor<bf16>) attrs =  {ckpt.phase = #ckpt.phase<forward>} {
    ^bb0(%in: bf16, %out: bf16):
      %45 = arith.mulf %in, %in : bf16
      %46 = arith.addf %out, %45 : bf16
      linalg.yield %46 : bf16
    } -> tensor<bf16>
    %11 = tensor.empty() {ckpt.phase = #ckpt.phase<backward>} : tensor<bf16>
    %cst_0 = arith.constant {ckpt.phase = #ckpt.phase<backward>} 1.000000e+00 : bf16
    %12 = linalg.fill {ckpt.phase = #ckpt.phase<backward>} ins(%cst_0 : bf16) outs(%11 : tensor<bf16>) -> tensor<bf16>
    %13 = tensor.empty() {ckpt.phase = #ckpt.phase<backward>} : tensor<64x32xbf16>
    %cst_1 = arith.constant {ckpt.phase = #ckpt.phase<backward>} 0.000000e+00 : bf16
    %14 = linalg.fill {ckpt.phase = #ckpt.phase<backward>} ins(%cst_1 : bf16) outs(%13 : tensor<64x32xbf16>) -> tensor<64x32xbf16>
    %15 = linalg.generic {indexing_maps = [#map1, #map, #map, #map1], iterator_types = ["parallel", "parallel"]} ins(%7, %10, %12 : tensor<64x32xbf16>, tensor<bf16>, tensor<bf16>) outs(%14 : tensor<64x32xbf16>) attrs =  {ckpt.phase = #ckpt.phase<backward>} {
    ^bb0(%in: bf16, %in_11: bf16, %in_12: bf16, %out: bf16):
      %cst_13 = arith.constant 1.000000e+00 : bf16
      %45 = arith.mulf %in, %in : bf16
      %46 = arith.mulf %cst_13, %in : bf16
      %47 = arith.mulf %in, %cst_13 : bf16
      %48 = arith.addf %46, %47 : bf16
      %49 = arith.addf %in_11, %45 : bf16
      %50 = arith.mulf %48, %in_12 : bf16
      %51 = arith.addf %out, %50 : bf16
      linalg.yield %51 : bf16
    } -> tensor<64x32xbf16>
    %16 = tensor.empty() {ckpt.phase = #ckpt.phase<backward>} : tensor<64x32xbf16>
    %cst_2 = arith.constant {ckpt.phase = #ckpt.phase<backward>} 0.000000e+00 : bf16
    %17 = linalg.fill {ckpt.phase = #ckpt.phase<backward>} ins(%cst_2 : bf16) outs(%16 : tensor<64x32xbf16>) -> tensor<64x32xbf16>
    %18 = linalg.generic {indexing_maps = [#map1, #map1, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%6, %6, %15 : tensor<64x32xbf16>, tensor<64x32xbf16>, tensor<64x32xbf16>) outs(%17 : tensor<64x32xbf16>) attrs =  {ckpt.phase = #ckpt.phase<backward>} {
    ^bb0(%in: bf16, %in_11: bf16, %in_12: bf16, %out: bf16):
      %cst_13 = arith.constant 1.000000e+00 : bf16
      %45 = math.tanh %in : bf16
      %cst_14 = arith.constant 1.000000e+00 : bf16
      %46 = arith.mulf %45, %45 : bf16
      %47 = arith.subf %cst_14, %46 : bf16
      %48 = arith.mulf %47, %cst_13 : bf16
      %49 = arith.mulf %48, %in_12 : bf16
      %50 = arith.addf %out, %49 : bf16
      linalg.yield %50 : bf16
    } -> tensor<64x32xbf16>
    %19 = tensor.empty() {ckpt.phase = #ckpt.phase<backward>} : tensor<64x32xbf16>
    %cst_3 = arith.constant {ckpt.phase = #ckpt.phase<backward>} 0.000000e+00 : bf16
    %20 = linalg.fill {ckpt.phase = #ckpt.phase<backward>} ins(%cst_3 : bf16) outs(%19 : tensor<64x32xbf16>) -> tensor<64x32xbf16>
    %21 = linalg.generic {indexing_maps = [#map2, #map3, #map4, #map4, #map2], iterator_types = ["parallel", "reduction", "parallel"]} ins(%5, %arg3, %6, %18 : tensor<64x32xbf16>, tensor<32x32xbf16>, tensor<64x32xbf16>, tensor<64x32xbf16>) outs(%20 : tensor<64x32xbf16>) attrs =  {ckpt.phase = #ckpt.phase<backward>} {
    ^bb0(%in: bf16, %in_11: bf16, %in_12: bf16, %in_13: bf16, %out: bf16):
      %cst_14 = arith.constant 1.000000e+00 : bf16
      %45 = arith.mulf %in, %in_11 : bf16
      %46 = arith.mulf %cst_14, %in_11 : bf16
      %47 = arith.addf %in_12, %45 : bf16
      %48 = arith.mulf %46, %in_13 : bf16
      %49 = arith.addf %out, %48 : bf16
      linalg.yield %49 : bf16
    } -> tensor<64x32xbf16>
    %22 = tensor.empty() {ckpt.phase = #ckpt.phase<backward>} : tensor<32x32xbf16>
    %cst_4 = arith.constant {ckpt.phase = #ckpt.phase<backward>} 0.000000e+00 : bf16
    %23 = linalg.fill {ckpt.phase = #ckpt.phase<backward>} ins(%cst_4 : bf16) outs(%22 : tensor<32x32xbf16>) -> tensor<32x32xbf16>
    %24 = linalg.generic {indexing_maps = [#map2, #map3, #map4, #map4, #map3], iterator_types = ["reduction", "parallel", "parallel"]} ins(%5, %arg3, %6, %18 : tensor<64x32xbf16>, tensor<32x32xbf16>, tensor<64x32xbf16>, tensor<64x32xbf16>) outs(%23 : tensor<32x32xbf16>) attrs =  {ckpt.phase = #ckpt.phase<backward>} {
    ^bb0(%in: bf16, %in_11: bf16, %in_12: bf16, %in_13: bf16, %out: bf16):
      %cst_14 = arith.constant 1.000000e+00 : bf16
      %45 = arith.mulf %in, %in_11 : bf16
      %46 = arith.mulf %in, %cst_14 : bf16
      %47 = arith.addf %in_12, %45 : bf16
      %48 = arith.mulf %46, %in_13 : bf16
      %49 = arith.addf %out, %48 : bf16
      linalg.yield %49 : bf16
    } -> tensor<32x32xbf16>
    %25 = tensor.empty() {ckpt.phase = #ckpt.phase<backward>} : tensor<64x32xbf16>
    %cst_5 = arith.constant {ckpt.phase = #ckpt.phase<backward>} 0.000000e+00 : bf16
    %26 = linalg.fill {ckpt.phase = #ckpt.phase<backward>} ins(%cst_5 : bf16) outs(%25 : tensor<64x32xbf16>) -> tensor<64x32xbf16>
    %27 = linalg.generic {indexing_maps = [#map1, #map1, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%4, %4, %21 : tensor<64x32xbf16>, tensor<64x32xbf16>, tensor<64x32xbf16>) outs(%26 : tensor<64x32xbf16>) attrs =  {ckpt.phase = #ckpt.phase<backward>} {
    ^bb0(%in: bf16, %in_11: bf16, %in_12: bf16, %out: bf16):
      %cst_13 = arith.constant 1.000000e+00 : bf16
      %45 = math.tanh %in : bf16
      %cst_14 = arith.constant 1.000000e+00 : bf16
      %46 = arith.mulf %45, %45 : bf16
      %47 = arith.subf %cst_14, %46 : bf16
      %48 = arith.mulf %47, %cst_13 : bf16
      %49 = arith.mulf %48, %in_12 : bf16
      %50 = arith.addf %out, %49 : bf16
      linalg.yield %50 : bf16
    } -> tensor<64x32xbf16>
    %28 = tensor.empty() {ckpt.phase = #ckpt.phase<backward>} : tensor<64x32xbf16>
    %cst_6 = arith.constant {ckpt.phase = #ckpt.phase<backward>} 0.000000e+00 : bf16
    %29 = linalg.fill {ckpt.phase = #ckpt.phase<backward>} ins(%cst_6 : bf16) outs(%28 : tensor<64x32xbf16>) -> tensor<64x32xbf16>
    %30 = linalg.generic {indexing_maps = [#map2, #map3, #map4, #map4, #map2], iterator_types = ["parallel", "reduction", "parallel"]} ins(%3, %arg2, %4, %27 : tensor<64x32xbf16>, tensor<32x32xbf16>, tensor<64x32xbf16>, tensor<64x32xbf16>) outs(%29 : tensor<64x32xbf16>) attrs =  {ckpt.phase = #ckpt.phase<backward>} {
    ^bb0(%in: bf16, %in_11: bf16, %in_12: bf16, %in_13: bf16, %out: bf16):
      %cst_14 = arith.constant 1.000000e+00 : bf16
      %45 = arith.mulf %in, %in_11 : bf16
      %46 = arith.mulf %cst_14, %in_11 : bf16
      %47 = arith.addf %in_12, %45 : bf16
      %48 = arith.mulf %46, %in_13 : bf16
      %49 = arith.addf %out, %48 : bf16
      linalg.yield %49 : bf16
    } -> tensor<64x32xbf16>
    %31 = tensor.empty() {ckpt.phase = #ckpt.phase<backward>} : tensor<32x32xbf16>
    %cst_7 = arith.constant {ckpt.phase = #ckpt.phase<backward>} 0.000000e+00 : bf16
    %32 = linalg.fill {ckpt.phase = #ckpt.phase<backward>} ins(%cst_7 : bf16) outs(%31 : tensor<32x32xbf16>) -> tensor<32x32xbf16>
    %33 = linalg.generic {indexing_maps = [#map2, #map3, #map4, #map4, #map3], iterator_types = ["reduction", "parallel", "parallel"]} ins(%3, %arg2, %4, %27 : tensor<64x32xbf16>, tensor<32x32xbf16>, tensor<64x32xbf16>, tensor<64x32xbf16>) outs(%32 : tensor<32x32xbf16>) attrs =  {ckpt.phase = #ckpt.phase<backward>} {
    ^bb0(%in: bf16, %in_11: bf16, %in_12: bf16, %in_13: bf16, %out: bf16):
      %cst_14 = arith.constant 1.000000e+00 : bf16
      %45 = arith.mulf %in, %in_11 : bf16
      %46 = arith.mulf %in, %cst_14 : bf16
      %47 = arith.addf %in_12, %45 : bf16
      %48 = arith.mulf %46, %in_13 : bf16
      %49 = arith.addf %out, %48 : bf16
      linalg.yield %49 : bf16
    } -> tensor<32x32xbf16>
    %34 = arith.addf %18, %27 {ckpt.phase = #ckpt.phase<backward>} : tensor<64x32xbf16>
    %35 = tensor.empty() {ckpt.phase = #ckpt.phase<backward>} : tensor<64x32xbf16>
    %cst_8 = arith.constant {ckpt.phase = #ckpt.phase<backward>} 0.000000e+00 : bf16
    %36 = linalg.fill {ckpt.phase = #ckpt.phase<backward>} ins(%cst_8 : bf16) outs(%35 : tensor<64x32xbf16>) -> tensor<64x32xbf16>
    %37 = linalg.generic {indexing_maps = [#map1, #map1, #map1, #map1], iterator_types = ["parallel", "parallel"]} ins(%2, %2, %30 : tensor<64x32xbf16>, tensor<64x32xbf16>, tensor<64x32xbf16>) outs(%36 : tensor<64x32xbf16>) attrs =  {ckpt.phase = #ckpt.phase<backward>} {
    ^bb0(%in: bf16, %in_11: bf16, %in_12: bf16, %out: bf16):
      %cst_13 = arith.constant 1.000000e+00 : bf16
      %45 = math.tanh %in : bf16
      %cst_14 = arith.constant 1.000000e+00 : bf16
      %46 = arith.mulf %45, %45 : bf16
      %47 = arith.subf %cst_14, %46 : bf16
      %48 = arith.mulf %47, %cst_13 : bf16
      %49 = arith.mulf %48, %in_12 : bf16
      %50 = arith.addf %out, %49 : bf16
      linalg.yield %50 : bf16
    } -> tensor<64x32xbf16>
    %38 = tensor.empty() {ckpt.phase = #ckpt.phase<backward>} : tensor<64x32xbf16>
    %cst_9 = arith.constant {ckpt.phase = #ckpt.phase<backward>} 0.000000e+00 : bf16
    %39 = linalg.fill {ckpt.phase = #ckpt.phase<backward>} ins(%cst_9 : bf16) outs(%38 : tensor<64x32xbf16>) -> tensor<64x32xbf16>
    %40 = linalg.generic {indexing_maps = [#map2, #map3, #map4, #map4, #map2], iterator_types = ["parallel", "reduction", "parallel"]} ins(%arg0, %arg1, %2, %37 : tensor<64x32xbf16>, tensor<32x32xbf16>, tensor<64x32xbf16>, tensor<64x32xbf16>) outs(%39 : tensor<64x32xbf16>) attrs =  {ckpt.phase = #ckpt.phase<backward>} {
    ^bb0(%in: bf16, %in_11: bf16, %in_12: bf16, %in_13: bf16, %out: bf16):
      %cst_14 = arith.constant 1.000000e+00 : bf16
      %45 = arith.mulf %in, %in_11 : bf16
      %46 = arith.mulf %cst_14, %in_11 : bf16
      %47 = arith.addf %in_12, %45 : bf16
      %48 = arith.mulf %46, %in_13 : bf16
      %49 = arith.addf %out, %48 : bf16
      linalg.yield %49 : bf16
    } -> tensor<64x32xbf16>
    %41 = tensor.empty() {ckpt.phase = #ckpt.phase<backward>} : tensor<32x32xbf16>
    %cst_10 = arith.constant {ckpt.phase = #ckpt.phase<backward>} 0.000000e+00 : bf16
    %42 = linalg.fill {ckpt.phase = #ckpt.phase<backward>} ins(%cst_10 : bf16) outs(%41 : tensor<32x32xbf16>) -> tensor<32x32xbf16>
    %43 = linalg.generic {indexing_maps = [#map2, #map3, #map4, #map4, #map3], iterator_types = ["reduction", "parallel", "parallel"]} ins(%arg0, %arg1, %2, %37 : tensor<64x32xbf16>, tensor<32x32xbf16>, tensor<64x32xbf16>, tensor<64x32xbf16>) outs(%42 : tensor<32x32xbf16>) attrs =  {ckpt.phase = #ckpt.phase<backward>} {
    ^bb0(%in: bf16, %in_11: bf16, %in_12: bf16, %in_13: bf16, %out: bf16):
      %cst_14 = arith.constant 1.000000e+00 : bf16
      %45 = arith.mulf %in, %in_11 : bf16
      %46 = arith.mulf %in, %cst_14 : bf16
      %47 = arith.addf %in_12, %45 : bf16
      %48 = arith.mulf %46, %in_13 : bf16
      %49 = arith.addf %out, %48 : bf16
      linalg.yield %49 : bf16
    } -> tensor<32x32xbf16>
    %44 = arith.addf %34, %37 {ckpt.phase = #ckpt.phase<backward>} : tensor<64x32xbf16>
    return %10, %40, %43, %33, %24 : tensor<bf16>, tensor<64x32xbf16>, tensor<32x32xbf16>, tensor<32x32xbf16>, tensor<32x32xbf16>
  }

  func.func @step(%x: tensor<64x32xf32>, %w1: tensor<32x32xf32>, %w2: tensor<32x32xf32>, %w3: tensor<32x32xf32>) -> (tensor<f32>, tensor<64x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>) {
    %xb = arith.truncf %x : tensor<64x32xf32> to tensor<64x32xbf16>
    %w1b = arith.truncf %w1 : tensor<32x32xf32> to tensor<32x32xbf16>
    %w2b = arith.truncf %w2 : tensor<32x32xf32> to tensor<32x32xbf16>
    %w3b = arith.truncf %w3 : tensor<32x32xf32> to tensor<32x32xbf16>
    %r:5 = func.call @loss_grad(%xb, %w1b, %w2b, %w3b) : (tensor<64x32xbf16>, tensor<32x32xbf16>, tensor<32x32xbf16>, tensor<32x32xbf16>) -> (tensor<bf16>, tensor<64x32xbf16>, tensor<32x32xbf16>, tensor<32x32xbf16>, tensor<32x32xbf16>)
    %l = arith.extf %r#0 : tensor<bf16> to tensor<f32>
    %g0 = arith.extf %r#1 : tensor<64x32xbf16> to tensor<64x32xf32>
    %g1 = arith.extf %r#2 : tensor<32x32xbf16> to tensor<32x32xf32>
    %g2 = arith.extf %r#3 : tensor<32x32xbf16> to tensor<32x32xf32>
    %g3 = arith.extf %r#4 : tensor<32x32xbf16> to tensor<32x32xf32>
    return %l, %g0, %g1, %g2, %g3 : tensor<f32>, tensor<64x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>, tensor<32x32xf32>
  }
}
