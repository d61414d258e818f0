// ckpt.difftest regression: ckpt-remat solver=greedy (baseline 811264 B).
// Found by python3 -m ckpt.difftest --seed 1 --ops 10-30 (program 18, budget
// 745857 B); minimized from 22 to 17 ops. The forward program:
//   python3 -m ckpt.difftest.generator --seed 1018 --min-ops 10 --max-ops 30 --drop 27 --drop 21
// When found, budget=min failed on the minimum it stated (614656 B, a peak
// greedy reached, not a budget it meets: greedy is not monotone in the
// budget) and larger budgets named other minimums. Now the planner states a
// budget greedy meets (653503 B in its model) and every answer agrees:
// budget=min reached 737344 B then.
// The model's plans between 653503 B and 737344 B could not be applied to the
// IR: the schedule recomputed a value whose readers were all served by
// another instance, so its region had no reader and no place (it was an
// XFAIL). Such regions are now dropped: 700000 B is met, and the smallest
// peak stated was 671808 B. Since recomputations read the instances the
// schedule names (not an earlier region a rewired original read) and
// elementwise results overwrite dying inputs, 630000 B is met too (614464 B, 614592 B now)
// and the smallest peak stated, and met, was 606336 B; 606272 B since
// recomputations may overwrite inputs that die there too, and rebuilt values
// the rest of a rebuild does not read may make room.
// RUN: not ckpt-opt %s --ckpt-tensor-prep --ckpt-remat="budget=600000 solver=greedy functions=loss_grad" -o /dev/null 2>&1 | FileCheck %s --check-prefix=CONSISTENT
// CONSISTENT: error: ckpt-remat: budget of 600000 bytes is below the smallest peak found, 606272 bytes (baseline 811264 bytes)
// RUN: ckpt-run %s --entry=loss_grad --iterations=1 --compare --remat-solver=greedy --remat-budget=700000,630000,606272 | FileCheck %s
// CHECK: remat: budget=700000 {{.*}} recompute_count={{[1-9]}}
// CHECK: outputs_identical=yes within_budget=yes
// CHECK: remat: budget=630000 {{.*}} estimated_peak_bytes=614592
// CHECK: estimate_error=0.00% outputs_identical=yes within_budget=yes
// CHECK: remat: budget=606272 {{.*}} peak_bytes=606272
// CHECK: estimate_error=0.00% outputs_identical=yes within_budget=yes

#map = affine_map<(d0, d1, d2) -> (d0, d2)>
#map1 = affine_map<(d0, d1, d2) -> (d2, d1)>
#map2 = affine_map<(d0, d1, d2) -> (d0, d1)>
#map3 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map4 = affine_map<(d0, d1, d2) -> ()>
#map5 = affine_map<(d0, d1) -> (d0, d1)>
#map6 = affine_map<(d0, d1) -> ()>
#map7 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d3)>
#map8 = affine_map<(d0, d1, d2, d3) -> (d0, d3, d2)>
#map9 = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2)>
#map10 = affine_map<() -> ()>
module {
  func.func @loss(%arg0: tensor<128x16xf32>, %arg1: tensor<16x128xf32>, %arg2: tensor<4x128x16xf32>, %arg3: tensor<4x128x32xf32>, %arg4: tensor<4x32x128xf32>) -> tensor<f32> attributes {ckpt.differentiate} {
    %0 = tensor.empty() : tensor<128x128xf32>
    %cst = arith.constant 0.000000e+00 : f32
    %1 = linalg.fill ins(%cst : f32) outs(%0 : tensor<128x128xf32>) -> tensor<128x128xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0, %arg1 : tensor<128x16xf32>, tensor<16x128xf32>) outs(%1 : tensor<128x128xf32>) {
    ^bb0(%in: f32, %in_13: f32, %out: f32):
      %35 = arith.mulf %in, %in_13 : f32
      %36 = arith.addf %out, %35 : f32
      linalg.yield %36 : f32
    } -> tensor<128x128xf32>
    %3 = arith.negf %2 : tensor<128x128xf32>
    %expanded = tensor.expand_shape %3 [[0, 1], [2]] output_shape [2, 64, 128] : tensor<128x128xf32> into tensor<2x64x128xf32>
    %4 = tensor.empty() : tensor<2x64x128xf32>
    %5 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded : tensor<2x64x128xf32>) outs(%4 : tensor<2x64x128xf32>) {
    ^bb0(%in: f32, %out: f32):
      %35 = math.tanh %in : f32
      %36 = math.exp %35 : f32
      linalg.yield %36 : f32
    } -> tensor<2x64x128xf32>
    %collapsed = tensor.collapse_shape %5 [[0, 1], [2]] : tensor<2x64x128xf32> into tensor<128x128xf32>
    %expanded_0 = tensor.expand_shape %collapsed [[0], [1, 2]] output_shape [128, 8, 16] : tensor<128x128xf32> into tensor<128x8x16xf32>
    %collapsed_1 = tensor.collapse_shape %expanded_0 [[0, 1], [2]] : tensor<128x8x16xf32> into tensor<1024x16xf32>
    %expanded_2 = tensor.expand_shape %collapsed [[0, 1], [2]] output_shape [4, 32, 128] : tensor<128x128xf32> into tensor<4x32x128xf32>
    %6 = math.tanh %expanded_2 : tensor<4x32x128xf32>
    %7 = tensor.empty() : tensor<4x32x16xf32>
    %cst_3 = arith.constant 0.000000e+00 : f32
    %8 = linalg.fill ins(%cst_3 : f32) outs(%7 : tensor<4x32x16xf32>) -> tensor<4x32x16xf32>
    %9 = linalg.batch_matmul ins(%6, %arg2 : tensor<4x32x128xf32>, tensor<4x128x16xf32>) outs(%8 : tensor<4x32x16xf32>) -> tensor<4x32x16xf32>
    %10 = tensor.empty() : tensor<f32>
    %cst_4 = arith.constant 0.000000e+00 : f32
    %11 = linalg.fill ins(%cst_4 : f32) outs(%10 : tensor<f32>) -> tensor<f32>
    %cst_5 = arith.constant 4.8828125E-4 : f32
    %12 = linalg.generic {indexing_maps = [#map3, #map4], iterator_types = ["reduction", "reduction", "reduction"]} ins(%9 : tensor<4x32x16xf32>) outs(%11 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %35 = arith.mulf %in, %in : f32
      %36 = arith.mulf %35, %cst_5 : f32
      %37 = arith.addf %out, %36 : f32
      linalg.yield %37 : f32
    } -> tensor<f32>
    %13 = arith.negf %collapsed_1 : tensor<1024x16xf32>
    %14 = tensor.empty() : tensor<f32>
    %cst_6 = arith.constant 0.000000e+00 : f32
    %15 = linalg.fill ins(%cst_6 : f32) outs(%14 : tensor<f32>) -> tensor<f32>
    %cst_7 = arith.constant 6.10351563E-5 : f32
    %16 = linalg.generic {indexing_maps = [#map5, #map6], iterator_types = ["reduction", "reduction"]} ins(%13 : tensor<1024x16xf32>) outs(%15 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %35 = arith.mulf %in, %in : f32
      %36 = arith.mulf %35, %cst_7 : f32
      %37 = arith.addf %out, %36 : f32
      linalg.yield %37 : f32
    } -> tensor<f32>
    %17 = math.tanh %6 : tensor<4x32x128xf32>
    %18 = tensor.empty() : tensor<4x32x32xf32>
    %cst_8 = arith.constant 0.000000e+00 : f32
    %19 = linalg.fill ins(%cst_8 : f32) outs(%18 : tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
    %20 = linalg.batch_matmul ins(%17, %arg3 : tensor<4x32x128xf32>, tensor<4x128x32xf32>) outs(%19 : tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
    %21 = tensor.empty() : tensor<4x32x32xf32>
    %22 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%20 : tensor<4x32x32xf32>) outs(%21 : tensor<4x32x32xf32>) {
    ^bb0(%in: f32, %out: f32):
      %35 = math.tanh %in : f32
      linalg.yield %35 : f32
    } -> tensor<4x32x32xf32>
    %23 = tensor.empty() : tensor<4x32x128xf32>
    %cst_9 = arith.constant 0.000000e+00 : f32
    %24 = linalg.fill ins(%cst_9 : f32) outs(%23 : tensor<4x32x128xf32>) -> tensor<4x32x128xf32>
    %25 = linalg.batch_matmul ins(%22, %arg4 : tensor<4x32x32xf32>, tensor<4x32x128xf32>) outs(%24 : tensor<4x32x128xf32>) -> tensor<4x32x128xf32>
    %26 = arith.addf %25, %arg4 : tensor<4x32x128xf32>
    %27 = tensor.empty() : tensor<4x32x128xf32>
    %cst_10 = arith.constant 0.000000e+00 : f32
    %28 = linalg.fill ins(%cst_10 : f32) outs(%27 : tensor<4x32x128xf32>) -> tensor<4x32x128xf32>
    %29 = arith.maximumf %26, %28 : tensor<4x32x128xf32>
    %30 = tensor.empty() : tensor<f32>
    %cst_11 = arith.constant 0.000000e+00 : f32
    %31 = linalg.fill ins(%cst_11 : f32) outs(%30 : tensor<f32>) -> tensor<f32>
    %cst_12 = arith.constant 6.10351563E-5 : f32
    %32 = linalg.generic {indexing_maps = [#map3, #map4], iterator_types = ["reduction", "reduction", "reduction"]} ins(%29 : tensor<4x32x128xf32>) outs(%31 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %35 = arith.mulf %in, %in : f32
      %36 = arith.mulf %35, %cst_12 : f32
      %37 = arith.addf %out, %36 : f32
      linalg.yield %37 : f32
    } -> tensor<f32>
    %33 = arith.addf %12, %16 : tensor<f32>
    %34 = arith.addf %33, %32 : tensor<f32>
    return %34 : tensor<f32>
  }
  func.func @loss_grad(%arg0: tensor<128x16xf32>, %arg1: tensor<16x128xf32>, %arg2: tensor<4x128x16xf32>, %arg3: tensor<4x128x32xf32>, %arg4: tensor<4x32x128xf32>) -> (tensor<f32>, tensor<128x16xf32>, tensor<16x128xf32>, tensor<4x128x16xf32>, tensor<4x128x32xf32>, tensor<4x32x128xf32>) {
    %cst = arith.constant {ckpt.phase = #ckpt.phase<forward>} 6.10351563E-5 : f32
    %cst_0 = arith.constant {ckpt.phase = #ckpt.phase<forward>} 4.8828125E-4 : f32
    %cst_1 = arith.constant {ckpt.phase = #ckpt.phase<forward>} 0.000000e+00 : f32
    %0 = tensor.empty() {ckpt.phase = #ckpt.phase<forward>} : tensor<128x128xf32>
    %1 = linalg.generic {indexing_maps = [#map6, #map5], iterator_types = ["parallel", "parallel"]} ins(%cst_1 : f32) outs(%0 : tensor<128x128xf32>) attrs =  {ckpt.phase = #ckpt.phase<forward>} {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<128x128xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map1, #map2], iterator_types = ["parallel", "parallel", "reduction"]} ins(%arg0, %arg1 : tensor<128x16xf32>, tensor<16x128xf32>) outs(%1 : tensor<128x128xf32>) attrs =  {ckpt.phase = #ckpt.phase<forward>} {
    ^bb0(%in: f32, %in_36: f32, %out: f32):
      %115 = arith.mulf %in, %in_36 : f32
      %116 = arith.addf %out, %115 : f32
      linalg.yield %116 : f32
    } -> tensor<128x128xf32>
    %3 = linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel"]} ins(%2 : tensor<128x128xf32>) outs(%2 : tensor<128x128xf32>) attrs =  {ckpt.phase = #ckpt.phase<forward>} {
    ^bb0(%in: f32, %out: f32):
      %115 = arith.negf %in : f32
      linalg.yield %115 : f32
    } -> tensor<128x128xf32>
    %expanded = tensor.expand_shape %3 [[0, 1], [2]] output_shape [2, 64, 128] {ckpt.phase = #ckpt.phase<forward>} : tensor<128x128xf32> into tensor<2x64x128xf32>
    %4 = tensor.empty() {ckpt.phase = #ckpt.phase<forward>} : tensor<2x64x128xf32>
    %5 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded : tensor<2x64x128xf32>) outs(%4 : tensor<2x64x128xf32>) attrs =  {ckpt.phase = #ckpt.phase<forward>} {
    ^bb0(%in: f32, %out: f32):
      %115 = math.tanh %in : f32
      %116 = math.exp %115 : f32
      linalg.yield %116 : f32
    } -> tensor<2x64x128xf32>
    %collapsed = tensor.collapse_shape %5 [[0, 1], [2]] {ckpt.phase = #ckpt.phase<forward>} : tensor<2x64x128xf32> into tensor<128x128xf32>
    %expanded_2 = tensor.expand_shape %collapsed [[0], [1, 2]] output_shape [128, 8, 16] {ckpt.phase = #ckpt.phase<forward>} : tensor<128x128xf32> into tensor<128x8x16xf32>
    %collapsed_3 = tensor.collapse_shape %expanded_2 [[0, 1], [2]] {ckpt.phase = #ckpt.phase<forward>} : tensor<128x8x16xf32> into tensor<1024x16xf32>
    %expanded_4 = tensor.expand_shape %collapsed [[0, 1], [2]] output_shape [4, 32, 128] {ckpt.phase = #ckpt.phase<forward>} : tensor<128x128xf32> into tensor<4x32x128xf32>
    %6 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_4 : tensor<4x32x128xf32>) outs(%expanded_4 : tensor<4x32x128xf32>) attrs =  {ckpt.phase = #ckpt.phase<forward>} {
    ^bb0(%in: f32, %out: f32):
      %115 = math.tanh %in : f32
      linalg.yield %115 : f32
    } -> tensor<4x32x128xf32>
    %7 = tensor.empty() {ckpt.phase = #ckpt.phase<forward>} : tensor<4x32x16xf32>
    %8 = linalg.generic {indexing_maps = [#map4, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cst_1 : f32) outs(%7 : tensor<4x32x16xf32>) attrs =  {ckpt.phase = #ckpt.phase<forward>} {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<4x32x16xf32>
    %9 = linalg.generic {indexing_maps = [#map7, #map8, #map9], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%6, %arg2 : tensor<4x32x128xf32>, tensor<4x128x16xf32>) outs(%8 : tensor<4x32x16xf32>) attrs =  {ckpt.phase = #ckpt.phase<forward>} {
    ^bb0(%in: f32, %in_36: f32, %out: f32):
      %115 = arith.mulf %in, %in_36 : f32
      %116 = arith.addf %out, %115 : f32
      linalg.yield %116 : f32
    } -> tensor<4x32x16xf32>
    %10 = tensor.empty() {ckpt.phase = #ckpt.phase<forward>} : tensor<f32>
    %11 = linalg.generic {indexing_maps = [#map10, #map10], iterator_types = []} ins(%cst_1 : f32) outs(%10 : tensor<f32>) attrs =  {ckpt.phase = #ckpt.phase<forward>} {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<f32>
    %12 = linalg.generic {indexing_maps = [#map3, #map4], iterator_types = ["reduction", "reduction", "reduction"]} ins(%9 : tensor<4x32x16xf32>) outs(%11 : tensor<f32>) attrs =  {ckpt.phase = #ckpt.phase<forward>} {
    ^bb0(%in: f32, %out: f32):
      %115 = arith.mulf %in, %in : f32
      %116 = arith.mulf %115, %cst_0 : f32
      %117 = arith.addf %out, %116 : f32
      linalg.yield %117 : f32
    } -> tensor<f32>
    %13 = linalg.generic {indexing_maps = [#map5, #map5], iterator_types = ["parallel", "parallel"]} ins(%collapsed_3 : tensor<1024x16xf32>) outs(%collapsed_3 : tensor<1024x16xf32>) attrs =  {ckpt.phase = #ckpt.phase<forward>} {
    ^bb0(%in: f32, %out: f32):
      %115 = arith.negf %in : f32
      linalg.yield %115 : f32
    } -> tensor<1024x16xf32>
    %14 = tensor.empty() {ckpt.phase = #ckpt.phase<forward>} : tensor<f32>
    %15 = linalg.generic {indexing_maps = [#map10, #map10], iterator_types = []} ins(%cst_1 : f32) outs(%14 : tensor<f32>) attrs =  {ckpt.phase = #ckpt.phase<forward>} {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<f32>
    %16 = linalg.generic {indexing_maps = [#map5, #map6], iterator_types = ["reduction", "reduction"]} ins(%13 : tensor<1024x16xf32>) outs(%15 : tensor<f32>) attrs =  {ckpt.phase = #ckpt.phase<forward>} {
    ^bb0(%in: f32, %out: f32):
      %115 = arith.mulf %in, %in : f32
      %116 = arith.mulf %115, %cst : f32
      %117 = arith.addf %out, %116 : f32
      linalg.yield %117 : f32
    } -> tensor<f32>
    %17 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%6 : tensor<4x32x128xf32>) outs(%6 : tensor<4x32x128xf32>) attrs =  {ckpt.phase = #ckpt.phase<forward>} {
    ^bb0(%in: f32, %out: f32):
      %115 = math.tanh %in : f32
      linalg.yield %115 : f32
    } -> tensor<4x32x128xf32>
    %18 = tensor.empty() {ckpt.phase = #ckpt.phase<forward>} : tensor<4x32x32xf32>
    %19 = linalg.generic {indexing_maps = [#map4, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cst_1 : f32) outs(%18 : tensor<4x32x32xf32>) attrs =  {ckpt.phase = #ckpt.phase<forward>} {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<4x32x32xf32>
    %20 = linalg.generic {indexing_maps = [#map7, #map8, #map9], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%17, %arg3 : tensor<4x32x128xf32>, tensor<4x128x32xf32>) outs(%19 : tensor<4x32x32xf32>) attrs =  {ckpt.phase = #ckpt.phase<forward>} {
    ^bb0(%in: f32, %in_36: f32, %out: f32):
      %115 = arith.mulf %in, %in_36 : f32
      %116 = arith.addf %out, %115 : f32
      linalg.yield %116 : f32
    } -> tensor<4x32x32xf32>
    %21 = tensor.empty() {ckpt.phase = #ckpt.phase<forward>} : tensor<4x32x32xf32>
    %22 = linalg.generic {indexing_maps = [#map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%20 : tensor<4x32x32xf32>) outs(%21 : tensor<4x32x32xf32>) attrs =  {ckpt.phase = #ckpt.phase<forward>} {
    ^bb0(%in: f32, %out: f32):
      %115 = math.tanh %in : f32
      linalg.yield %115 : f32
    } -> tensor<4x32x32xf32>
    %23 = tensor.empty() {ckpt.phase = #ckpt.phase<forward>} : tensor<4x32x128xf32>
    %24 = linalg.generic {indexing_maps = [#map4, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cst_1 : f32) outs(%23 : tensor<4x32x128xf32>) attrs =  {ckpt.phase = #ckpt.phase<forward>} {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<4x32x128xf32>
    %25 = linalg.generic {indexing_maps = [#map7, #map8, #map9], iterator_types = ["parallel", "parallel", "parallel", "reduction"]} ins(%22, %arg4 : tensor<4x32x32xf32>, tensor<4x32x128xf32>) outs(%24 : tensor<4x32x128xf32>) attrs =  {ckpt.phase = #ckpt.phase<forward>} {
    ^bb0(%in: f32, %in_36: f32, %out: f32):
      %115 = arith.mulf %in, %in_36 : f32
      %116 = arith.addf %out, %115 : f32
      linalg.yield %116 : f32
    } -> tensor<4x32x128xf32>
    %26 = linalg.generic {indexing_maps = [#map3, #map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%25, %arg4 : tensor<4x32x128xf32>, tensor<4x32x128xf32>) outs(%25 : tensor<4x32x128xf32>) attrs =  {ckpt.phase = #ckpt.phase<forward>} {
    ^bb0(%in: f32, %in_36: f32, %out: f32):
      %115 = arith.addf %in, %in_36 : f32
      linalg.yield %115 : f32
    } -> tensor<4x32x128xf32>
    %27 = tensor.empty() {ckpt.phase = #ckpt.phase<forward>} : tensor<4x32x128xf32>
    %28 = linalg.generic {indexing_maps = [#map4, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%cst_1 : f32) outs(%27 : tensor<4x32x128xf32>) attrs =  {ckpt.phase = #ckpt.phase<forward>} {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<4x32x128xf32>
    %29 = linalg.generic {indexing_maps = [#map3, #map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%26, %28 : tensor<4x32x128xf32>, tensor<4x32x128xf32>) outs(%26 : tensor<4x32x128xf32>) attrs =  {ckpt.phase = #ckpt.phase<forward>} {
    ^bb0(%in: f32, %in_36: f32, %out: f32):
      %115 = arith.maximumf %in, %in_36 : f32
      linalg.yield %115 : f32
    } -> tensor<4x32x128xf32>
    %30 = tensor.empty() {ckpt.phase = #ckpt.phase<forward>} : tensor<f32>
    %31 = linalg.generic {indexing_maps = [#map10, #map10], iterator_types = []} ins(%cst_1 : f32) outs(%30 : tensor<f32>) attrs =  {ckpt.phase = #ckpt.phase<forward>} {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<f32>
    %32 = linalg.generic {indexing_maps = [#map3, #map4], iterator_types = ["reduction", "reduction", "reduction"]} ins(%29 : tensor<4x32x128xf32>) outs(%31 : tensor<f32>) attrs =  {ckpt.phase = #ckpt.phase<forward>} {
    ^bb0(%in: f32, %out: f32):
      %115 = arith.mulf %in, %in : f32
      %116 = arith.mulf %115, %cst : f32
      %117 = arith.addf %out, %116 : f32
      linalg.yield %117 : f32
    } -> tensor<f32>
    %33 = linalg.generic {indexing_maps = [#map10, #map10, #map10], iterator_types = []} ins(%12, %16 : tensor<f32>, tensor<f32>) outs(%12 : tensor<f32>) attrs =  {ckpt.phase = #ckpt.phase<forward>} {
    ^bb0(%in: f32, %in_36: f32, %out: f32):
      %115 = arith.addf %in, %in_36 : f32
      linalg.yield %115 : f32
    } -> tensor<f32>
    %34 = linalg.generic {indexing_maps = [#map10, #map10, #map10], iterator_types = []} ins(%33, %32 : tensor<f32>, tensor<f32>) outs(%33 : tensor<f32>) attrs =  {ckpt.phase = #ckpt.phase<forward>} {
    ^bb0(%in: f32, %in_36: f32, %out: f32):
      %115 = arith.addf %in, %in_36 : f32
      linalg.yield %115 : f32
    } -> tensor<f32>
    %35 = tensor.empty() {ckpt.phase = #ckpt.phase<backward>} : tensor<f32>
    %cst_5 = arith.constant {ckpt.phase = #ckpt.phase<backward>} 1.000000e+00 : f32
    %36 = linalg.fill {ckpt.phase = #ckpt.phase<backward>} ins(%cst_5 : f32) outs(%35 : tensor<f32>) -> tensor<f32>
    %37 = tensor.empty() {ckpt.phase = #ckpt.phase<backward>} : tensor<f32>
    %cst_6 = arith.constant {ckpt.phase = #ckpt.phase<backward>} 0.000000e+00 : f32
    %38 = linalg.fill {ckpt.phase = #ckpt.phase<backward>} ins(%cst_6 : f32) outs(%37 : tensor<f32>) -> tensor<f32>
    %39 = linalg.generic {indexing_maps = [#map10, #map10, #map10, #map10, #map10], iterator_types = []} ins(%33, %32, %33, %36 : tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) outs(%38 : tensor<f32>) attrs =  {ckpt.phase = #ckpt.phase<backward>} {
    ^bb0(%in: f32, %in_36: f32, %in_37: f32, %in_38: f32, %out: f32):
      %cst_39 = arith.constant 1.000000e+00 : f32
      %115 = arith.addf %in, %in_36 : f32
      %116 = arith.mulf %cst_39, %in_38 : f32
      %117 = arith.addf %out, %116 : f32
      linalg.yield %117 : f32
    } -> tensor<f32>
    %40 = tensor.empty() {ckpt.phase = #ckpt.phase<backward>} : tensor<f32>
    %cst_7 = arith.constant {ckpt.phase = #ckpt.phase<backward>} 0.000000e+00 : f32
    %41 = linalg.fill {ckpt.phase = #ckpt.phase<backward>} ins(%cst_7 : f32) outs(%40 : tensor<f32>) -> tensor<f32>
    %42 = linalg.generic {indexing_maps = [#map10, #map10, #map10, #map10, #map10], iterator_types = []} ins(%33, %32, %33, %36 : tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) outs(%41 : tensor<f32>) attrs =  {ckpt.phase = #ckpt.phase<backward>} {
    ^bb0(%in: f32, %in_36: f32, %in_37: f32, %in_38: f32, %out: f32):
      %cst_39 = arith.constant 1.000000e+00 : f32
      %115 = arith.addf %in, %in_36 : f32
      %116 = arith.mulf %cst_39, %in_38 : f32
      %117 = arith.addf %out, %116 : f32
      linalg.yield %117 : f32
    } -> tensor<f32>
    %43 = tensor.empty() {ckpt.phase = #ckpt.phase<backward>} : tensor<f32>
    %cst_8 = arith.constant {ckpt.phase = #ckpt.phase<backward>} 0.000000e+00 : f32
    %44 = linalg.fill {ckpt.phase = #ckpt.phase<backward>} ins(%cst_8 : f32) outs(%43 : tensor<f32>) -> tensor<f32>
    %45 = linalg.generic {indexing_maps = [#map10, #map10, #map10, #map10, #map10], iterator_types = []} ins(%12, %16, %12, %39 : tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) outs(%44 : tensor<f32>) attrs =  {ckpt.phase = #ckpt.phase<backward>} {
    ^bb0(%in: f32, %in_36: f32, %in_37: f32, %in_38: f32, %out: f32):
      %cst_39 = arith.constant 1.000000e+00 : f32
      %115 = arith.addf %in, %in_36 : f32
      %116 = arith.mulf %cst_39, %in_38 : f32
      %117 = arith.addf %out, %116 : f32
      linalg.yield %117 : f32
    } -> tensor<f32>
    %46 = tensor.empty() {ckpt.phase = #ckpt.phase<backward>} : tensor<f32>
    %cst_9 = arith.constant {ckpt.phase = #ckpt.phase<backward>} 0.000000e+00 : f32
    %47 = linalg.fill {ckpt.phase = #ckpt.phase<backward>} ins(%cst_9 : f32) outs(%46 : tensor<f32>) -> tensor<f32>
    %48 = linalg.generic {indexing_maps = [#map10, #map10, #map10, #map10, #map10], iterator_types = []} ins(%12, %16, %12, %39 : tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) outs(%47 : tensor<f32>) attrs =  {ckpt.phase = #ckpt.phase<backward>} {
    ^bb0(%in: f32, %in_36: f32, %in_37: f32, %in_38: f32, %out: f32):
      %cst_39 = arith.constant 1.000000e+00 : f32
      %115 = arith.addf %in, %in_36 : f32
      %116 = arith.mulf %cst_39, %in_38 : f32
      %117 = arith.addf %out, %116 : f32
      linalg.yield %117 : f32
    } -> tensor<f32>
    %49 = tensor.empty() {ckpt.phase = #ckpt.phase<backward>} : tensor<4x32x128xf32>
    %cst_10 = arith.constant {ckpt.phase = #ckpt.phase<backward>} 0.000000e+00 : f32
    %50 = linalg.fill {ckpt.phase = #ckpt.phase<backward>} ins(%cst_10 : f32) outs(%49 : tensor<4x32x128xf32>) -> tensor<4x32x128xf32>
    %51 = linalg.generic {indexing_maps = [#map3, #map4, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%29, %32, %42 : tensor<4x32x128xf32>, tensor<f32>, tensor<f32>) outs(%50 : tensor<4x32x128xf32>) attrs =  {ckpt.phase = #ckpt.phase<backward>} {
    ^bb0(%in: f32, %in_36: f32, %in_37: f32, %out: f32):
      %cst_38 = arith.constant 1.000000e+00 : f32
      %115 = arith.mulf %in, %in : f32
      %116 = arith.mulf %cst_38, %in : f32
      %117 = arith.mulf %in, %cst_38 : f32
      %118 = arith.addf %116, %117 : f32
      %119 = arith.mulf %115, %cst : f32
      %120 = arith.mulf %118, %cst : f32
      %121 = arith.addf %in_36, %119 : f32
      %122 = arith.mulf %120, %in_37 : f32
      %123 = arith.addf %out, %122 : f32
      linalg.yield %123 : f32
    } -> tensor<4x32x128xf32>
    %52 = tensor.empty() {ckpt.phase = #ckpt.phase<backward>} : tensor<4x32x128xf32>
    %cst_11 = arith.constant {ckpt.phase = #ckpt.phase<backward>} 0.000000e+00 : f32
    %53 = linalg.fill {ckpt.phase = #ckpt.phase<backward>} ins(%cst_11 : f32) outs(%52 : tensor<4x32x128xf32>) -> tensor<4x32x128xf32>
    %54 = linalg.generic {indexing_maps = [#map3, #map3, #map3, #map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%26, %28, %26, %51 : tensor<4x32x128xf32>, tensor<4x32x128xf32>, tensor<4x32x128xf32>, tensor<4x32x128xf32>) outs(%53 : tensor<4x32x128xf32>) attrs =  {ckpt.phase = #ckpt.phase<backward>} {
    ^bb0(%in: f32, %in_36: f32, %in_37: f32, %in_38: f32, %out: f32):
      %cst_39 = arith.constant 1.000000e+00 : f32
      %115 = arith.maximumf %in, %in_36 : f32
      %116 = arith.cmpf oge, %in, %in_36 : f32
      %cst_40 = arith.constant 0.000000e+00 : f32
      %117 = arith.select %116, %cst_39, %cst_40 : f32
      %118 = arith.mulf %117, %in_38 : f32
      %119 = arith.addf %out, %118 : f32
      linalg.yield %119 : f32
    } -> tensor<4x32x128xf32>
    %55 = tensor.empty() {ckpt.phase = #ckpt.phase<backward>} : tensor<4x32x128xf32>
    %cst_12 = arith.constant {ckpt.phase = #ckpt.phase<backward>} 0.000000e+00 : f32
    %56 = linalg.fill {ckpt.phase = #ckpt.phase<backward>} ins(%cst_12 : f32) outs(%55 : tensor<4x32x128xf32>) -> tensor<4x32x128xf32>
    %57 = linalg.generic {indexing_maps = [#map3, #map3, #map3, #map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%26, %28, %26, %51 : tensor<4x32x128xf32>, tensor<4x32x128xf32>, tensor<4x32x128xf32>, tensor<4x32x128xf32>) outs(%56 : tensor<4x32x128xf32>) attrs =  {ckpt.phase = #ckpt.phase<backward>} {
    ^bb0(%in: f32, %in_36: f32, %in_37: f32, %in_38: f32, %out: f32):
      %cst_39 = arith.constant 1.000000e+00 : f32
      %115 = arith.maximumf %in, %in_36 : f32
      %116 = arith.cmpf oge, %in, %in_36 : f32
      %cst_40 = arith.constant 0.000000e+00 : f32
      %117 = arith.select %116, %cst_40, %cst_39 : f32
      %118 = arith.mulf %117, %in_38 : f32
      %119 = arith.addf %out, %118 : f32
      linalg.yield %119 : f32
    } -> tensor<4x32x128xf32>
    %58 = tensor.empty() {ckpt.phase = #ckpt.phase<backward>} : tensor<4x32x128xf32>
    %cst_13 = arith.constant {ckpt.phase = #ckpt.phase<backward>} 0.000000e+00 : f32
    %59 = linalg.fill {ckpt.phase = #ckpt.phase<backward>} ins(%cst_13 : f32) outs(%58 : tensor<4x32x128xf32>) -> tensor<4x32x128xf32>
    %60 = linalg.generic {indexing_maps = [#map3, #map3, #map3, #map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%25, %arg4, %25, %54 : tensor<4x32x128xf32>, tensor<4x32x128xf32>, tensor<4x32x128xf32>, tensor<4x32x128xf32>) outs(%59 : tensor<4x32x128xf32>) attrs =  {ckpt.phase = #ckpt.phase<backward>} {
    ^bb0(%in: f32, %in_36: f32, %in_37: f32, %in_38: f32, %out: f32):
      %cst_39 = arith.constant 1.000000e+00 : f32
      %115 = arith.addf %in, %in_36 : f32
      %116 = arith.mulf %cst_39, %in_38 : f32
      %117 = arith.addf %out, %116 : f32
      linalg.yield %117 : f32
    } -> tensor<4x32x128xf32>
    %61 = tensor.empty() {ckpt.phase = #ckpt.phase<backward>} : tensor<4x32x128xf32>
    %cst_14 = arith.constant {ckpt.phase = #ckpt.phase<backward>} 0.000000e+00 : f32
    %62 = linalg.fill {ckpt.phase = #ckpt.phase<backward>} ins(%cst_14 : f32) outs(%61 : tensor<4x32x128xf32>) -> tensor<4x32x128xf32>
    %63 = linalg.generic {indexing_maps = [#map3, #map3, #map3, #map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%25, %arg4, %25, %54 : tensor<4x32x128xf32>, tensor<4x32x128xf32>, tensor<4x32x128xf32>, tensor<4x32x128xf32>) outs(%62 : tensor<4x32x128xf32>) attrs =  {ckpt.phase = #ckpt.phase<backward>} {
    ^bb0(%in: f32, %in_36: f32, %in_37: f32, %in_38: f32, %out: f32):
      %cst_39 = arith.constant 1.000000e+00 : f32
      %115 = arith.addf %in, %in_36 : f32
      %116 = arith.mulf %cst_39, %in_38 : f32
      %117 = arith.addf %out, %116 : f32
      linalg.yield %117 : f32
    } -> tensor<4x32x128xf32>
    %64 = tensor.empty() {ckpt.phase = #ckpt.phase<backward>} : tensor<4x32x32xf32>
    %cst_15 = arith.constant {ckpt.phase = #ckpt.phase<backward>} 0.000000e+00 : f32
    %65 = linalg.fill {ckpt.phase = #ckpt.phase<backward>} ins(%cst_15 : f32) outs(%64 : tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
    %66 = linalg.generic {indexing_maps = [#map7, #map8, #map9, #map9, #map7], iterator_types = ["parallel", "parallel", "reduction", "parallel"]} ins(%22, %arg4, %25, %60 : tensor<4x32x32xf32>, tensor<4x32x128xf32>, tensor<4x32x128xf32>, tensor<4x32x128xf32>) outs(%65 : tensor<4x32x32xf32>) attrs =  {ckpt.phase = #ckpt.phase<backward>} {
    ^bb0(%in: f32, %in_36: f32, %in_37: f32, %in_38: f32, %out: f32):
      %cst_39 = arith.constant 1.000000e+00 : f32
      %115 = arith.mulf %in, %in_36 : f32
      %116 = arith.mulf %cst_39, %in_36 : f32
      %117 = arith.addf %in_37, %115 : f32
      %118 = arith.mulf %116, %in_38 : f32
      %119 = arith.addf %out, %118 : f32
      linalg.yield %119 : f32
    } -> tensor<4x32x32xf32>
    %67 = tensor.empty() {ckpt.phase = #ckpt.phase<backward>} : tensor<4x32x128xf32>
    %cst_16 = arith.constant {ckpt.phase = #ckpt.phase<backward>} 0.000000e+00 : f32
    %68 = linalg.fill {ckpt.phase = #ckpt.phase<backward>} ins(%cst_16 : f32) outs(%67 : tensor<4x32x128xf32>) -> tensor<4x32x128xf32>
    %69 = linalg.generic {indexing_maps = [#map7, #map8, #map9, #map9, #map8], iterator_types = ["parallel", "reduction", "parallel", "parallel"]} ins(%22, %arg4, %25, %60 : tensor<4x32x32xf32>, tensor<4x32x128xf32>, tensor<4x32x128xf32>, tensor<4x32x128xf32>) outs(%68 : tensor<4x32x128xf32>) attrs =  {ckpt.phase = #ckpt.phase<backward>} {
    ^bb0(%in: f32, %in_36: f32, %in_37: f32, %in_38: f32, %out: f32):
      %cst_39 = arith.constant 1.000000e+00 : f32
      %115 = arith.mulf %in, %in_36 : f32
      %116 = arith.mulf %in, %cst_39 : f32
      %117 = arith.addf %in_37, %115 : f32
      %118 = arith.mulf %116, %in_38 : f32
      %119 = arith.addf %out, %118 : f32
      linalg.yield %119 : f32
    } -> tensor<4x32x128xf32>
    %70 = arith.addf %63, %69 {ckpt.phase = #ckpt.phase<backward>} : tensor<4x32x128xf32>
    %71 = tensor.empty() {ckpt.phase = #ckpt.phase<backward>} : tensor<4x32x32xf32>
    %cst_17 = arith.constant {ckpt.phase = #ckpt.phase<backward>} 0.000000e+00 : f32
    %72 = linalg.fill {ckpt.phase = #ckpt.phase<backward>} ins(%cst_17 : f32) outs(%71 : tensor<4x32x32xf32>) -> tensor<4x32x32xf32>
    %73 = linalg.generic {indexing_maps = [#map3, #map3, #map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%20, %21, %66 : tensor<4x32x32xf32>, tensor<4x32x32xf32>, tensor<4x32x32xf32>) outs(%72 : tensor<4x32x32xf32>) attrs =  {ckpt.phase = #ckpt.phase<backward>} {
    ^bb0(%in: f32, %in_36: f32, %in_37: f32, %out: f32):
      %cst_38 = arith.constant 1.000000e+00 : f32
      %115 = math.tanh %in : f32
      %cst_39 = arith.constant 1.000000e+00 : f32
      %116 = arith.mulf %115, %115 : f32
      %117 = arith.subf %cst_39, %116 : f32
      %118 = arith.mulf %117, %cst_38 : f32
      %119 = arith.mulf %118, %in_37 : f32
      %120 = arith.addf %out, %119 : f32
      linalg.yield %120 : f32
    } -> tensor<4x32x32xf32>
    %74 = tensor.empty() {ckpt.phase = #ckpt.phase<backward>} : tensor<4x32x128xf32>
    %cst_18 = arith.constant {ckpt.phase = #ckpt.phase<backward>} 0.000000e+00 : f32
    %75 = linalg.fill {ckpt.phase = #ckpt.phase<backward>} ins(%cst_18 : f32) outs(%74 : tensor<4x32x128xf32>) -> tensor<4x32x128xf32>
    %76 = linalg.generic {indexing_maps = [#map7, #map8, #map9, #map9, #map7], iterator_types = ["parallel", "parallel", "reduction", "parallel"]} ins(%17, %arg3, %20, %73 : tensor<4x32x128xf32>, tensor<4x128x32xf32>, tensor<4x32x32xf32>, tensor<4x32x32xf32>) outs(%75 : tensor<4x32x128xf32>) attrs =  {ckpt.phase = #ckpt.phase<backward>} {
    ^bb0(%in: f32, %in_36: f32, %in_37: f32, %in_38: f32, %out: f32):
      %cst_39 = arith.constant 1.000000e+00 : f32
      %115 = arith.mulf %in, %in_36 : f32
      %116 = arith.mulf %cst_39, %in_36 : f32
      %117 = arith.addf %in_37, %115 : f32
      %118 = arith.mulf %116, %in_38 : f32
      %119 = arith.addf %out, %118 : f32
      linalg.yield %119 : f32
    } -> tensor<4x32x128xf32>
    %77 = tensor.empty() {ckpt.phase = #ckpt.phase<backward>} : tensor<4x128x32xf32>
    %cst_19 = arith.constant {ckpt.phase = #ckpt.phase<backward>} 0.000000e+00 : f32
    %78 = linalg.fill {ckpt.phase = #ckpt.phase<backward>} ins(%cst_19 : f32) outs(%77 : tensor<4x128x32xf32>) -> tensor<4x128x32xf32>
    %79 = linalg.generic {indexing_maps = [#map7, #map8, #map9, #map9, #map8], iterator_types = ["parallel", "reduction", "parallel", "parallel"]} ins(%17, %arg3, %20, %73 : tensor<4x32x128xf32>, tensor<4x128x32xf32>, tensor<4x32x32xf32>, tensor<4x32x32xf32>) outs(%78 : tensor<4x128x32xf32>) attrs =  {ckpt.phase = #ckpt.phase<backward>} {
    ^bb0(%in: f32, %in_36: f32, %in_37: f32, %in_38: f32, %out: f32):
      %cst_39 = arith.constant 1.000000e+00 : f32
      %115 = arith.mulf %in, %in_36 : f32
      %116 = arith.mulf %in, %cst_39 : f32
      %117 = arith.addf %in_37, %115 : f32
      %118 = arith.mulf %116, %in_38 : f32
      %119 = arith.addf %out, %118 : f32
      linalg.yield %119 : f32
    } -> tensor<4x128x32xf32>
    %80 = tensor.empty() {ckpt.phase = #ckpt.phase<backward>} : tensor<4x32x128xf32>
    %cst_20 = arith.constant {ckpt.phase = #ckpt.phase<backward>} 0.000000e+00 : f32
    %81 = linalg.fill {ckpt.phase = #ckpt.phase<backward>} ins(%cst_20 : f32) outs(%80 : tensor<4x32x128xf32>) -> tensor<4x32x128xf32>
    %82 = linalg.generic {indexing_maps = [#map3, #map3, #map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%6, %6, %76 : tensor<4x32x128xf32>, tensor<4x32x128xf32>, tensor<4x32x128xf32>) outs(%81 : tensor<4x32x128xf32>) attrs =  {ckpt.phase = #ckpt.phase<backward>} {
    ^bb0(%in: f32, %in_36: f32, %in_37: f32, %out: f32):
      %cst_38 = arith.constant 1.000000e+00 : f32
      %115 = math.tanh %in : f32
      %cst_39 = arith.constant 1.000000e+00 : f32
      %116 = arith.mulf %115, %115 : f32
      %117 = arith.subf %cst_39, %116 : f32
      %118 = arith.mulf %117, %cst_38 : f32
      %119 = arith.mulf %118, %in_37 : f32
      %120 = arith.addf %out, %119 : f32
      linalg.yield %120 : f32
    } -> tensor<4x32x128xf32>
    %83 = tensor.empty() {ckpt.phase = #ckpt.phase<backward>} : tensor<1024x16xf32>
    %cst_21 = arith.constant {ckpt.phase = #ckpt.phase<backward>} 0.000000e+00 : f32
    %84 = linalg.fill {ckpt.phase = #ckpt.phase<backward>} ins(%cst_21 : f32) outs(%83 : tensor<1024x16xf32>) -> tensor<1024x16xf32>
    %85 = linalg.generic {indexing_maps = [#map5, #map6, #map6, #map5], iterator_types = ["parallel", "parallel"]} ins(%13, %16, %48 : tensor<1024x16xf32>, tensor<f32>, tensor<f32>) outs(%84 : tensor<1024x16xf32>) attrs =  {ckpt.phase = #ckpt.phase<backward>} {
    ^bb0(%in: f32, %in_36: f32, %in_37: f32, %out: f32):
      %cst_38 = arith.constant 1.000000e+00 : f32
      %115 = arith.mulf %in, %in : f32
      %116 = arith.mulf %cst_38, %in : f32
      %117 = arith.mulf %in, %cst_38 : f32
      %118 = arith.addf %116, %117 : f32
      %119 = arith.mulf %115, %cst : f32
      %120 = arith.mulf %118, %cst : f32
      %121 = arith.addf %in_36, %119 : f32
      %122 = arith.mulf %120, %in_37 : f32
      %123 = arith.addf %out, %122 : f32
      linalg.yield %123 : f32
    } -> tensor<1024x16xf32>
    %86 = tensor.empty() {ckpt.phase = #ckpt.phase<backward>} : tensor<1024x16xf32>
    %cst_22 = arith.constant {ckpt.phase = #ckpt.phase<backward>} 0.000000e+00 : f32
    %87 = linalg.fill {ckpt.phase = #ckpt.phase<backward>} ins(%cst_22 : f32) outs(%86 : tensor<1024x16xf32>) -> tensor<1024x16xf32>
    %88 = linalg.generic {indexing_maps = [#map5, #map5, #map5, #map5], iterator_types = ["parallel", "parallel"]} ins(%collapsed_3, %collapsed_3, %85 : tensor<1024x16xf32>, tensor<1024x16xf32>, tensor<1024x16xf32>) outs(%87 : tensor<1024x16xf32>) attrs =  {ckpt.phase = #ckpt.phase<backward>} {
    ^bb0(%in: f32, %in_36: f32, %in_37: f32, %out: f32):
      %cst_38 = arith.constant 1.000000e+00 : f32
      %115 = arith.negf %in : f32
      %116 = arith.negf %cst_38 : f32
      %117 = arith.mulf %116, %in_37 : f32
      %118 = arith.addf %out, %117 : f32
      linalg.yield %118 : f32
    } -> tensor<1024x16xf32>
    %89 = tensor.empty() {ckpt.phase = #ckpt.phase<backward>} : tensor<4x32x16xf32>
    %cst_23 = arith.constant {ckpt.phase = #ckpt.phase<backward>} 0.000000e+00 : f32
    %90 = linalg.fill {ckpt.phase = #ckpt.phase<backward>} ins(%cst_23 : f32) outs(%89 : tensor<4x32x16xf32>) -> tensor<4x32x16xf32>
    %91 = linalg.generic {indexing_maps = [#map3, #map4, #map4, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%9, %12, %45 : tensor<4x32x16xf32>, tensor<f32>, tensor<f32>) outs(%90 : tensor<4x32x16xf32>) attrs =  {ckpt.phase = #ckpt.phase<backward>} {
    ^bb0(%in: f32, %in_36: f32, %in_37: f32, %out: f32):
      %cst_38 = arith.constant 1.000000e+00 : f32
      %115 = arith.mulf %in, %in : f32
      %116 = arith.mulf %cst_38, %in : f32
      %117 = arith.mulf %in, %cst_38 : f32
      %118 = arith.addf %116, %117 : f32
      %119 = arith.mulf %115, %cst_0 : f32
      %120 = arith.mulf %118, %cst_0 : f32
      %121 = arith.addf %in_36, %119 : f32
      %122 = arith.mulf %120, %in_37 : f32
      %123 = arith.addf %out, %122 : f32
      linalg.yield %123 : f32
    } -> tensor<4x32x16xf32>
    %92 = tensor.empty() {ckpt.phase = #ckpt.phase<backward>} : tensor<4x32x128xf32>
    %cst_24 = arith.constant {ckpt.phase = #ckpt.phase<backward>} 0.000000e+00 : f32
    %93 = linalg.fill {ckpt.phase = #ckpt.phase<backward>} ins(%cst_24 : f32) outs(%92 : tensor<4x32x128xf32>) -> tensor<4x32x128xf32>
    %94 = linalg.generic {indexing_maps = [#map7, #map8, #map9, #map9, #map7], iterator_types = ["parallel", "parallel", "reduction", "parallel"]} ins(%6, %arg2, %9, %91 : tensor<4x32x128xf32>, tensor<4x128x16xf32>, tensor<4x32x16xf32>, tensor<4x32x16xf32>) outs(%93 : tensor<4x32x128xf32>) attrs =  {ckpt.phase = #ckpt.phase<backward>} {
    ^bb0(%in: f32, %in_36: f32, %in_37: f32, %in_38: f32, %out: f32):
      %cst_39 = arith.constant 1.000000e+00 : f32
      %115 = arith.mulf %in, %in_36 : f32
      %116 = arith.mulf %cst_39, %in_36 : f32
      %117 = arith.addf %in_37, %115 : f32
      %118 = arith.mulf %116, %in_38 : f32
      %119 = arith.addf %out, %118 : f32
      linalg.yield %119 : f32
    } -> tensor<4x32x128xf32>
    %95 = arith.addf %82, %94 {ckpt.phase = #ckpt.phase<backward>} : tensor<4x32x128xf32>
    %96 = tensor.empty() {ckpt.phase = #ckpt.phase<backward>} : tensor<4x128x16xf32>
    %cst_25 = arith.constant {ckpt.phase = #ckpt.phase<backward>} 0.000000e+00 : f32
    %97 = linalg.fill {ckpt.phase = #ckpt.phase<backward>} ins(%cst_25 : f32) outs(%96 : tensor<4x128x16xf32>) -> tensor<4x128x16xf32>
    %98 = linalg.generic {indexing_maps = [#map7, #map8, #map9, #map9, #map8], iterator_types = ["parallel", "reduction", "parallel", "parallel"]} ins(%6, %arg2, %9, %91 : tensor<4x32x128xf32>, tensor<4x128x16xf32>, tensor<4x32x16xf32>, tensor<4x32x16xf32>) outs(%97 : tensor<4x128x16xf32>) attrs =  {ckpt.phase = #ckpt.phase<backward>} {
    ^bb0(%in: f32, %in_36: f32, %in_37: f32, %in_38: f32, %out: f32):
      %cst_39 = arith.constant 1.000000e+00 : f32
      %115 = arith.mulf %in, %in_36 : f32
      %116 = arith.mulf %in, %cst_39 : f32
      %117 = arith.addf %in_37, %115 : f32
      %118 = arith.mulf %116, %in_38 : f32
      %119 = arith.addf %out, %118 : f32
      linalg.yield %119 : f32
    } -> tensor<4x128x16xf32>
    %99 = tensor.empty() {ckpt.phase = #ckpt.phase<backward>} : tensor<4x32x128xf32>
    %cst_26 = arith.constant {ckpt.phase = #ckpt.phase<backward>} 0.000000e+00 : f32
    %100 = linalg.fill {ckpt.phase = #ckpt.phase<backward>} ins(%cst_26 : f32) outs(%99 : tensor<4x32x128xf32>) -> tensor<4x32x128xf32>
    %101 = linalg.generic {indexing_maps = [#map3, #map3, #map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded_4, %expanded_4, %95 : tensor<4x32x128xf32>, tensor<4x32x128xf32>, tensor<4x32x128xf32>) outs(%100 : tensor<4x32x128xf32>) attrs =  {ckpt.phase = #ckpt.phase<backward>} {
    ^bb0(%in: f32, %in_36: f32, %in_37: f32, %out: f32):
      %cst_38 = arith.constant 1.000000e+00 : f32
      %115 = math.tanh %in : f32
      %cst_39 = arith.constant 1.000000e+00 : f32
      %116 = arith.mulf %115, %115 : f32
      %117 = arith.subf %cst_39, %116 : f32
      %118 = arith.mulf %117, %cst_38 : f32
      %119 = arith.mulf %118, %in_37 : f32
      %120 = arith.addf %out, %119 : f32
      linalg.yield %120 : f32
    } -> tensor<4x32x128xf32>
    %collapsed_27 = tensor.collapse_shape %101 [[0, 1], [2]] {ckpt.phase = #ckpt.phase<backward>} : tensor<4x32x128xf32> into tensor<128x128xf32>
    %expanded_28 = tensor.expand_shape %88 [[0, 1], [2]] output_shape [128, 8, 16] {ckpt.phase = #ckpt.phase<backward>} : tensor<1024x16xf32> into tensor<128x8x16xf32>
    %collapsed_29 = tensor.collapse_shape %expanded_28 [[0], [1, 2]] {ckpt.phase = #ckpt.phase<backward>} : tensor<128x8x16xf32> into tensor<128x128xf32>
    %102 = arith.addf %collapsed_27, %collapsed_29 {ckpt.phase = #ckpt.phase<backward>} : tensor<128x128xf32>
    %expanded_30 = tensor.expand_shape %102 [[0, 1], [2]] output_shape [2, 64, 128] {ckpt.phase = #ckpt.phase<backward>} : tensor<128x128xf32> into tensor<2x64x128xf32>
    %103 = tensor.empty() {ckpt.phase = #ckpt.phase<backward>} : tensor<2x64x128xf32>
    %cst_31 = arith.constant {ckpt.phase = #ckpt.phase<backward>} 0.000000e+00 : f32
    %104 = linalg.fill {ckpt.phase = #ckpt.phase<backward>} ins(%cst_31 : f32) outs(%103 : tensor<2x64x128xf32>) -> tensor<2x64x128xf32>
    %105 = linalg.generic {indexing_maps = [#map3, #map3, #map3, #map3], iterator_types = ["parallel", "parallel", "parallel"]} ins(%expanded, %4, %expanded_30 : tensor<2x64x128xf32>, tensor<2x64x128xf32>, tensor<2x64x128xf32>) outs(%104 : tensor<2x64x128xf32>) attrs =  {ckpt.phase = #ckpt.phase<backward>} {
    ^bb0(%in: f32, %in_36: f32, %in_37: f32, %out: f32):
      %cst_38 = arith.constant 1.000000e+00 : f32
      %115 = math.tanh %in : f32
      %cst_39 = arith.constant 1.000000e+00 : f32
      %116 = arith.mulf %115, %115 : f32
      %117 = arith.subf %cst_39, %116 : f32
      %118 = arith.mulf %117, %cst_38 : f32
      %119 = math.exp %115 : f32
      %120 = arith.mulf %119, %118 : f32
      %121 = arith.mulf %120, %in_37 : f32
      %122 = arith.addf %out, %121 : f32
      linalg.yield %122 : f32
    } -> tensor<2x64x128xf32>
    %collapsed_32 = tensor.collapse_shape %105 [[0, 1], [2]] {ckpt.phase = #ckpt.phase<backward>} : tensor<2x64x128xf32> into tensor<128x128xf32>
    %106 = tensor.empty() {ckpt.phase = #ckpt.phase<backward>} : tensor<128x128xf32>
    %cst_33 = arith.constant {ckpt.phase = #ckpt.phase<backward>} 0.000000e+00 : f32
    %107 = linalg.fill {ckpt.phase = #ckpt.phase<backward>} ins(%cst_33 : f32) outs(%106 : tensor<128x128xf32>) -> tensor<128x128xf32>
    %108 = linalg.generic {indexing_maps = [#map5, #map5, #map5, #map5], iterator_types = ["parallel", "parallel"]} ins(%2, %2, %collapsed_32 : tensor<128x128xf32>, tensor<128x128xf32>, tensor<128x128xf32>) outs(%107 : tensor<128x128xf32>) attrs =  {ckpt.phase = #ckpt.phase<backward>} {
    ^bb0(%in: f32, %in_36: f32, %in_37: f32, %out: f32):
      %cst_38 = arith.constant 1.000000e+00 : f32
      %115 = arith.negf %in : f32
      %116 = arith.negf %cst_38 : f32
      %117 = arith.mulf %116, %in_37 : f32
      %118 = arith.addf %out, %117 : f32
      linalg.yield %118 : f32
    } -> tensor<128x128xf32>
    %109 = tensor.empty() {ckpt.phase = #ckpt.phase<backward>} : tensor<128x16xf32>
    %cst_34 = arith.constant {ckpt.phase = #ckpt.phase<backward>} 0.000000e+00 : f32
    %110 = linalg.fill {ckpt.phase = #ckpt.phase<backward>} ins(%cst_34 : f32) outs(%109 : tensor<128x16xf32>) -> tensor<128x16xf32>
    %111 = linalg.generic {indexing_maps = [#map, #map1, #map2, #map2, #map], iterator_types = ["parallel", "reduction", "parallel"]} ins(%arg0, %arg1, %2, %108 : tensor<128x16xf32>, tensor<16x128xf32>, tensor<128x128xf32>, tensor<128x128xf32>) outs(%110 : tensor<128x16xf32>) attrs =  {ckpt.phase = #ckpt.phase<backward>} {
    ^bb0(%in: f32, %in_36: f32, %in_37: f32, %in_38: f32, %out: f32):
      %cst_39 = arith.constant 1.000000e+00 : f32
      %115 = arith.mulf %in, %in_36 : f32
      %116 = arith.mulf %cst_39, %in_36 : f32
      %117 = arith.addf %in_37, %115 : f32
      %118 = arith.mulf %116, %in_38 : f32
      %119 = arith.addf %out, %118 : f32
      linalg.yield %119 : f32
    } -> tensor<128x16xf32>
    %112 = tensor.empty() {ckpt.phase = #ckpt.phase<backward>} : tensor<16x128xf32>
    %cst_35 = arith.constant {ckpt.phase = #ckpt.phase<backward>} 0.000000e+00 : f32
    %113 = linalg.fill {ckpt.phase = #ckpt.phase<backward>} ins(%cst_35 : f32) outs(%112 : tensor<16x128xf32>) -> tensor<16x128xf32>
    %114 = linalg.generic {indexing_maps = [#map, #map1, #map2, #map2, #map1], iterator_types = ["reduction", "parallel", "parallel"]} ins(%arg0, %arg1, %2, %108 : tensor<128x16xf32>, tensor<16x128xf32>, tensor<128x128xf32>, tensor<128x128xf32>) outs(%113 : tensor<16x128xf32>) attrs =  {ckpt.phase = #ckpt.phase<backward>} {
    ^bb0(%in: f32, %in_36: f32, %in_37: f32, %in_38: f32, %out: f32):
      %cst_39 = arith.constant 1.000000e+00 : f32
      %115 = arith.mulf %in, %in_36 : f32
      %116 = arith.mulf %in, %cst_39 : f32
      %117 = arith.addf %in_37, %115 : f32
      %118 = arith.mulf %116, %in_38 : f32
      %119 = arith.addf %out, %118 : f32
      linalg.yield %119 : f32
    } -> tensor<16x128xf32>
    return %34, %111, %114, %98, %79, %70 : tensor<f32>, tensor<128x16xf32>, tensor<16x128xf32>, tensor<4x128x16xf32>, tensor<4x128x32xf32>, tensor<4x32x128xf32>
  }
}

