// The training step of a small CNN with a SqueezeNet-like stem, exported by
// ckpt.torch.export_training_step (batch 8, 3x64x64 inputs, 16 classes):
// Conv2d(3, 16, 3, stride 2) -> ReLU -> MaxPool2d(3, 2, ceil_mode) ->
// [Conv2d(16, 48, 1) -> ReLU -> 2 x (Conv2d(48, 48, 3, padding 1) -> ReLU)]
// -> mean over the map -> Linear(48, 16) -> cross-entropy. The stem's ReLU
// writes over the convolution output; the pooling's and the ReLU's
// gradients read the ReLU's output at the end of the step.
#map = affine_map<(d0, d1, d2, d3) -> (d0, d1, d2, d3)>
#map1 = affine_map<(d0, d1, d2, d3) -> (d0, d1)>
#map2 = affine_map<(d0, d1) -> (d0, d1)>
#map3 = affine_map<(d0, d1) -> (d1)>
#map4 = affine_map<(d0, d1) -> (d0)>
#map5 = affine_map<(d0, d1) -> (d0, 0)>
#map6 = affine_map<(d0) -> (d0)>
#map7 = affine_map<(d0) -> ()>
#map8 = affine_map<() -> ()>
#map9 = affine_map<(d0, d1) -> ()>
#map10 = affine_map<(d0, d1) -> (0, d1)>
#map11 = affine_map<(d0, d1, d2, d3) -> ()>
#map12 = affine_map<(d0, d1, d2, d3) -> (d1)>
#map13 = affine_map<(d0, d1, d2) -> (d2)>
#map14 = affine_map<(d0, d1, d2) -> (d0, d1, d2)>
#map15 = affine_map<(d0, d1, d2) -> ()>
module {
  func.func @train_step(%arg0: tensor<16x3x3x3xf32>, %arg1: tensor<16xf32>, %arg2: tensor<48x16x1x1xf32>, %arg3: tensor<48xf32>, %arg4: tensor<48x48x3x3xf32>, %arg5: tensor<48xf32>, %arg6: tensor<48x48x3x3xf32>, %arg7: tensor<48xf32>, %arg8: tensor<16x48xf32>, %arg9: tensor<16xf32>, %arg10: tensor<8x3x64x64xf32>, %arg11: tensor<8xi64>) -> (tensor<f32>, tensor<16x3x3x3xf32>, tensor<16xf32>, tensor<48x16x1x1xf32>, tensor<48xf32>, tensor<48x48x3x3xf32>, tensor<48xf32>, tensor<48x48x3x3xf32>, tensor<48xf32>, tensor<16x48xf32>, tensor<16xf32>) {
    %c14_i64 = arith.constant 14 : i64
    %c5_i64 = arith.constant 5 : i64
    %c7_i64 = arith.constant 7 : i64
    %c31_i64 = arith.constant 31 : i64
    %c30_i64 = arith.constant 30 : i64
    %c15_i64 = arith.constant 15 : i64
    %c6_i64 = arith.constant 6 : i64
    %c4_i64 = arith.constant 4 : i64
    %c-100_i64 = arith.constant -100 : i64
    %c8_i64 = arith.constant 8 : i64
    %c3_i64 = arith.constant 3 : i64
    %c1_i64 = arith.constant 1 : i64
    %c0_i64 = arith.constant 0 : i64
    %c2_i64 = arith.constant 2 : i64
    %c16 = arith.constant 16 : index
    %cst = arith.constant 0.000000e+00 : f32
    %cst_0 = arith.constant 0xFF800000 : f32
    %cst_1 = arith.constant dense<0xFF800000> : tensor<f32>
    %cst_2 = arith.constant dense<-1.000000e+00> : tensor<8x16xf32>
    %cst_3 = arith.constant dense<0.000000e+00> : tensor<8x16xf32>
    %cst_4 = arith.constant dense<1.000000e+00> : tensor<f32>
    %cst_5 = arith.constant dense<0.000000e+00> : tensor<f32>
    %cst_6 = arith.constant 2.250000e+02 : f32
    %c2 = arith.constant 2 : index
    %c0 = arith.constant 0 : index
    %cst_7 = arith.constant dense<0> : tensor<i8>
    %cst_8 = arith.constant dense<1> : tensor<i8>
    %cst_9 = arith.constant dense<2> : tensor<i8>
    %cst_10 = arith.constant dense<3> : tensor<i8>
    %cst_11 = arith.constant dense<4> : tensor<i8>
    %cst_12 = arith.constant dense<5> : tensor<i8>
    %cst_13 = arith.constant dense<6> : tensor<i8>
    %cst_14 = arith.constant dense<7> : tensor<i8>
    %cst_15 = arith.constant dense<8> : tensor<i8>
    %cst_16 = arith.constant dense<-1> : tensor<i8>
    %cst_17 = arith.constant dense<0> : tensor<i64>
    %cst_18 = arith.constant dense<2> : tensor<i64>
    %0 = tensor.empty() : tensor<8x16x31x31xf32>
    %broadcasted = linalg.broadcast ins(%arg1 : tensor<16xf32>) outs(%0 : tensor<8x16x31x31xf32>) dimensions = [0, 2, 3] 
    %1 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%arg10, %arg0 : tensor<8x3x64x64xf32>, tensor<16x3x3x3xf32>) outs(%broadcasted : tensor<8x16x31x31xf32>) -> tensor<8x16x31x31xf32>
    %2 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%1 : tensor<8x16x31x31xf32>) outs(%0 : tensor<8x16x31x31xf32>) {
    ^bb0(%in: f32, %out: f32):
      %354 = arith.cmpf ugt, %in, %cst : f32
      %355 = arith.select %354, %in, %cst : f32
      linalg.yield %355 : f32
    } -> tensor<8x16x31x31xf32>
    %padded = tensor.pad %2 low[0, 0, 0, 0] high[0, 0, 2, 2] {
    ^bb0(%arg12: index, %arg13: index, %arg14: index, %arg15: index):
      tensor.yield %cst_0 : f32
    } : tensor<8x16x31x31xf32> to tensor<8x16x33x33xf32>
    %3 = tensor.empty() : tensor<8x16x15x15xf32>
    %4 = linalg.fill ins(%cst_0 : f32) outs(%3 : tensor<8x16x15x15xf32>) -> tensor<8x16x15x15xf32>
    %5 = tensor.empty() : tensor<3x3xf32>
    %6 = linalg.pooling_nchw_max {dilations = dense<1> : vector<2xi64>, strides = dense<2> : vector<2xi64>} ins(%padded, %5 : tensor<8x16x33x33xf32>, tensor<3x3xf32>) outs(%4 : tensor<8x16x15x15xf32>) -> tensor<8x16x15x15xf32>
    %7 = tensor.empty() : tensor<8x48x15x15xf32>
    %broadcasted_19 = linalg.broadcast ins(%arg3 : tensor<48xf32>) outs(%7 : tensor<8x48x15x15xf32>) dimensions = [0, 2, 3] 
    %8 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%6, %arg2 : tensor<8x16x15x15xf32>, tensor<48x16x1x1xf32>) outs(%broadcasted_19 : tensor<8x48x15x15xf32>) -> tensor<8x48x15x15xf32>
    %9 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%8 : tensor<8x48x15x15xf32>) outs(%7 : tensor<8x48x15x15xf32>) {
    ^bb0(%in: f32, %out: f32):
      %354 = arith.cmpf ugt, %in, %cst : f32
      %355 = arith.select %354, %in, %cst : f32
      linalg.yield %355 : f32
    } -> tensor<8x48x15x15xf32>
    %padded_20 = tensor.pad %9 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg12: index, %arg13: index, %arg14: index, %arg15: index):
      tensor.yield %cst : f32
    } : tensor<8x48x15x15xf32> to tensor<8x48x17x17xf32>
    %broadcasted_21 = linalg.broadcast ins(%arg5 : tensor<48xf32>) outs(%7 : tensor<8x48x15x15xf32>) dimensions = [0, 2, 3] 
    %10 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_20, %arg4 : tensor<8x48x17x17xf32>, tensor<48x48x3x3xf32>) outs(%broadcasted_21 : tensor<8x48x15x15xf32>) -> tensor<8x48x15x15xf32>
    %11 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%10 : tensor<8x48x15x15xf32>) outs(%7 : tensor<8x48x15x15xf32>) {
    ^bb0(%in: f32, %out: f32):
      %354 = arith.cmpf ugt, %in, %cst : f32
      %355 = arith.select %354, %in, %cst : f32
      linalg.yield %355 : f32
    } -> tensor<8x48x15x15xf32>
    %padded_22 = tensor.pad %11 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg12: index, %arg13: index, %arg14: index, %arg15: index):
      tensor.yield %cst : f32
    } : tensor<8x48x15x15xf32> to tensor<8x48x17x17xf32>
    %broadcasted_23 = linalg.broadcast ins(%arg7 : tensor<48xf32>) outs(%7 : tensor<8x48x15x15xf32>) dimensions = [0, 2, 3] 
    %12 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_22, %arg6 : tensor<8x48x17x17xf32>, tensor<48x48x3x3xf32>) outs(%broadcasted_23 : tensor<8x48x15x15xf32>) -> tensor<8x48x15x15xf32>
    %13 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%12 : tensor<8x48x15x15xf32>) outs(%7 : tensor<8x48x15x15xf32>) {
    ^bb0(%in: f32, %out: f32):
      %354 = arith.cmpf ugt, %in, %cst : f32
      %355 = arith.select %354, %in, %cst : f32
      linalg.yield %355 : f32
    } -> tensor<8x48x15x15xf32>
    %14 = tensor.empty() : tensor<8x48xf32>
    %15 = linalg.fill ins(%cst : f32) outs(%14 : tensor<8x48xf32>) -> tensor<8x48xf32>
    %16 = linalg.generic {indexing_maps = [#map, #map1], iterator_types = ["parallel", "parallel", "reduction", "reduction"]} ins(%13 : tensor<8x48x15x15xf32>) outs(%15 : tensor<8x48xf32>) {
    ^bb0(%in: f32, %out: f32):
      %354 = arith.addf %in, %out : f32
      linalg.yield %354 : f32
    } -> tensor<8x48xf32>
    %17 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel"]} ins(%16 : tensor<8x48xf32>) outs(%14 : tensor<8x48xf32>) {
    ^bb0(%in: f32, %out: f32):
      %354 = arith.divf %in, %cst_6 : f32
      linalg.yield %354 : f32
    } -> tensor<8x48xf32>
    %18 = tensor.empty() : tensor<48x16xf32>
    %transposed = linalg.transpose ins(%arg8 : tensor<16x48xf32>) outs(%18 : tensor<48x16xf32>) permutation = [1, 0] 
    %19 = tensor.empty() : tensor<8x16xf32>
    %20 = linalg.fill ins(%cst : f32) outs(%19 : tensor<8x16xf32>) -> tensor<8x16xf32>
    %21 = linalg.matmul ins(%17, %transposed : tensor<8x48xf32>, tensor<48x16xf32>) outs(%20 : tensor<8x16xf32>) -> tensor<8x16xf32>
    %22 = linalg.generic {indexing_maps = [#map3, #map2], iterator_types = ["parallel", "parallel"]} ins(%arg9 : tensor<16xf32>) outs(%19 : tensor<8x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<8x16xf32>
    %23 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel"]} ins(%21, %22 : tensor<8x16xf32>, tensor<8x16xf32>) outs(%19 : tensor<8x16xf32>) {
    ^bb0(%in: f32, %in_112: f32, %out: f32):
      %354 = arith.addf %in, %in_112 : f32
      linalg.yield %354 : f32
    } -> tensor<8x16xf32>
    %24 = tensor.empty() : tensor<8xi64>
    %25 = linalg.fill ins(%c0_i64 : i64) outs(%24 : tensor<8xi64>) -> tensor<8xi64>
    %26 = tensor.empty() : tensor<8xf32>
    %27 = linalg.fill ins(%cst_0 : f32) outs(%26 : tensor<8xf32>) -> tensor<8xf32>
    %28:2 = linalg.generic {indexing_maps = [#map2, #map4, #map4], iterator_types = ["parallel", "reduction"]} ins(%23 : tensor<8x16xf32>) outs(%27, %25 : tensor<8xf32>, tensor<8xi64>) {
    ^bb0(%in: f32, %out: f32, %out_112: i64):
      %354 = linalg.index 1 : index
      %355 = arith.index_cast %354 : index to i64
      %356 = arith.maximumf %in, %out : f32
      %357 = arith.cmpf ogt, %in, %out : f32
      %358 = arith.select %357, %355, %out_112 : i64
      linalg.yield %356, %358 : f32, i64
    } -> (tensor<8xf32>, tensor<8xi64>)
    %expanded = tensor.expand_shape %28#0 [[0, 1]] output_shape [8, 1] : tensor<8xf32> into tensor<8x1xf32>
    %29 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel"]} ins(%23, %expanded : tensor<8x16xf32>, tensor<8x1xf32>) outs(%19 : tensor<8x16xf32>) {
    ^bb0(%in: f32, %in_112: f32, %out: f32):
      %354 = arith.subf %in, %in_112 : f32
      linalg.yield %354 : f32
    } -> tensor<8x16xf32>
    %30 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel"]} ins(%29 : tensor<8x16xf32>) outs(%19 : tensor<8x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %354 = math.exp %in : f32
      linalg.yield %354 : f32
    } -> tensor<8x16xf32>
    %31 = tensor.empty() : tensor<8x1xf32>
    %32 = linalg.fill ins(%cst : f32) outs(%31 : tensor<8x1xf32>) -> tensor<8x1xf32>
    %33 = linalg.generic {indexing_maps = [#map2, #map5], iterator_types = ["parallel", "reduction"]} ins(%30 : tensor<8x16xf32>) outs(%32 : tensor<8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %354 = arith.addf %in, %out : f32
      linalg.yield %354 : f32
    } -> tensor<8x1xf32>
    %34 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel"]} ins(%33 : tensor<8x1xf32>) outs(%31 : tensor<8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %354 = math.log %in : f32
      linalg.yield %354 : f32
    } -> tensor<8x1xf32>
    %35 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel"]} ins(%29, %34 : tensor<8x16xf32>, tensor<8x1xf32>) outs(%19 : tensor<8x16xf32>) {
    ^bb0(%in: f32, %in_112: f32, %out: f32):
      %354 = arith.subf %in, %in_112 : f32
      linalg.yield %354 : f32
    } -> tensor<8x16xf32>
    %36 = tensor.empty() : tensor<8xi1>
    %37 = linalg.generic {indexing_maps = [#map6, #map6], iterator_types = ["parallel"]} ins(%arg11 : tensor<8xi64>) outs(%36 : tensor<8xi1>) {
    ^bb0(%in: i64, %out: i1):
      %354 = arith.cmpi ne, %in, %c-100_i64 : i64
      linalg.yield %354 : i1
    } -> tensor<8xi1>
    %38 = linalg.generic {indexing_maps = [#map6, #map6, #map7, #map6], iterator_types = ["parallel"]} ins(%37, %arg11, %cst_17 : tensor<8xi1>, tensor<8xi64>, tensor<i64>) outs(%24 : tensor<8xi64>) {
    ^bb0(%in: i1, %in_112: i64, %in_113: i64, %out: i64):
      %354 = arith.select %in, %in_112, %in_113 : i64
      linalg.yield %354 : i64
    } -> tensor<8xi64>
    %expanded_24 = tensor.expand_shape %38 [[0, 1]] output_shape [8, 1] : tensor<8xi64> into tensor<8x1xi64>
    %39 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel"]} ins(%expanded_24 : tensor<8x1xi64>) outs(%32 : tensor<8x1xf32>) {
    ^bb0(%in: i64, %out: f32):
      %354 = linalg.index 0 : index
      %355 = arith.index_cast %in : i64 to index
      %356 = arith.cmpi slt, %355, %c16 : index
      cf.assert %356, "index must be smaller than dim size"
      %357 = arith.cmpi sge, %in, %c0_i64 : i64
      cf.assert %357, "index must be larger or equal to 0"
      %extracted = tensor.extract %35[%354, %355] : tensor<8x16xf32>
      linalg.yield %extracted : f32
    } -> tensor<8x1xf32>
    %collapsed = tensor.collapse_shape %39 [[0, 1]] : tensor<8x1xf32> into tensor<8xf32>
    %40 = linalg.generic {indexing_maps = [#map6, #map6], iterator_types = ["parallel"]} ins(%collapsed : tensor<8xf32>) outs(%26 : tensor<8xf32>) {
    ^bb0(%in: f32, %out: f32):
      %354 = arith.negf %in : f32
      linalg.yield %354 : f32
    } -> tensor<8xf32>
    %41 = linalg.generic {indexing_maps = [#map6, #map6, #map7, #map6], iterator_types = ["parallel"]} ins(%37, %40, %cst_5 : tensor<8xi1>, tensor<8xf32>, tensor<f32>) outs(%26 : tensor<8xf32>) {
    ^bb0(%in: i1, %in_112: f32, %in_113: f32, %out: f32):
      %354 = arith.select %in, %in_112, %in_113 : f32
      linalg.yield %354 : f32
    } -> tensor<8xf32>
    %42 = tensor.empty() : tensor<i64>
    %43 = linalg.fill ins(%c0_i64 : i64) outs(%42 : tensor<i64>) -> tensor<i64>
    %44 = linalg.generic {indexing_maps = [#map6, #map7], iterator_types = ["reduction"]} ins(%37 : tensor<8xi1>) outs(%43 : tensor<i64>) {
    ^bb0(%in: i1, %out: i64):
      %354 = arith.extui %in : i1 to i64
      %355 = arith.addi %354, %out : i64
      linalg.yield %355 : i64
    } -> tensor<i64>
    %45 = tensor.empty() : tensor<f32>
    %46 = linalg.generic {indexing_maps = [#map8, #map8], iterator_types = []} ins(%44 : tensor<i64>) outs(%45 : tensor<f32>) {
    ^bb0(%in: i64, %out: f32):
      %354 = arith.sitofp %in : i64 to f32
      linalg.yield %354 : f32
    } -> tensor<f32>
    %47 = linalg.fill ins(%cst : f32) outs(%45 : tensor<f32>) -> tensor<f32>
    %48 = linalg.generic {indexing_maps = [#map6, #map7], iterator_types = ["reduction"]} ins(%41 : tensor<8xf32>) outs(%47 : tensor<f32>) {
    ^bb0(%in: f32, %out: f32):
      %354 = arith.addf %in, %out : f32
      linalg.yield %354 : f32
    } -> tensor<f32>
    %49 = linalg.generic {indexing_maps = [#map8, #map8, #map8], iterator_types = []} ins(%48, %46 : tensor<f32>, tensor<f32>) outs(%45 : tensor<f32>) {
    ^bb0(%in: f32, %in_112: f32, %out: f32):
      %354 = arith.divf %in, %in_112 : f32
      linalg.yield %354 : f32
    } -> tensor<f32>
    %50 = linalg.generic {indexing_maps = [#map8, #map8, #map8], iterator_types = []} ins(%cst_4, %46 : tensor<f32>, tensor<f32>) outs(%45 : tensor<f32>) {
    ^bb0(%in: f32, %in_112: f32, %out: f32):
      %354 = arith.divf %in, %in_112 : f32
      linalg.yield %354 : f32
    } -> tensor<f32>
    %expanded_25 = tensor.expand_shape %arg11 [[0, 1]] output_shape [8, 1] : tensor<8xi64> into tensor<8x1xi64>
    %51 = tensor.empty() : tensor<8x1xi1>
    %52 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel"]} ins(%expanded_25 : tensor<8x1xi64>) outs(%51 : tensor<8x1xi1>) {
    ^bb0(%in: i64, %out: i1):
      %354 = arith.cmpi ne, %in, %c-100_i64 : i64
      linalg.yield %354 : i1
    } -> tensor<8x1xi1>
    %53 = tensor.empty() : tensor<8x1xi64>
    %54 = linalg.generic {indexing_maps = [#map2, #map2, #map9, #map2], iterator_types = ["parallel", "parallel"]} ins(%52, %expanded_25, %cst_17 : tensor<8x1xi1>, tensor<8x1xi64>, tensor<i64>) outs(%53 : tensor<8x1xi64>) {
    ^bb0(%in: i1, %in_112: i64, %in_113: i64, %out: i64):
      %354 = arith.select %in, %in_112, %in_113 : i64
      linalg.yield %354 : i64
    } -> tensor<8x1xi64>
    %55 = tensor.empty() : tensor<16xi64>
    %56 = linalg.generic {indexing_maps = [#map6], iterator_types = ["parallel"]} outs(%55 : tensor<16xi64>) {
    ^bb0(%out: i64):
      %354 = linalg.index 0 : index
      %355 = arith.index_cast %354 : index to i64
      linalg.yield %355 : i64
    } -> tensor<16xi64>
    %expanded_26 = tensor.expand_shape %56 [[0, 1]] output_shape [1, 16] : tensor<16xi64> into tensor<1x16xi64>
    %57 = tensor.empty() : tensor<8x16xi1>
    %58 = linalg.generic {indexing_maps = [#map10, #map5, #map2], iterator_types = ["parallel", "parallel"]} ins(%expanded_26, %54 : tensor<1x16xi64>, tensor<8x1xi64>) outs(%57 : tensor<8x16xi1>) {
    ^bb0(%in: i64, %in_112: i64, %out: i1):
      %354 = arith.cmpi eq, %in, %in_112 : i64
      linalg.yield %354 : i1
    } -> tensor<8x16xi1>
    %59 = linalg.generic {indexing_maps = [#map2, #map2, #map2, #map2], iterator_types = ["parallel", "parallel"]} ins(%58, %cst_2, %cst_3 : tensor<8x16xi1>, tensor<8x16xf32>, tensor<8x16xf32>) outs(%19 : tensor<8x16xf32>) {
    ^bb0(%in: i1, %in_112: f32, %in_113: f32, %out: f32):
      %354 = arith.select %in, %in_112, %in_113 : f32
      linalg.yield %354 : f32
    } -> tensor<8x16xf32>
    %60 = linalg.generic {indexing_maps = [#map2, #map9, #map9, #map2], iterator_types = ["parallel", "parallel"]} ins(%52, %50, %cst_5 : tensor<8x1xi1>, tensor<f32>, tensor<f32>) outs(%31 : tensor<8x1xf32>) {
    ^bb0(%in: i1, %in_112: f32, %in_113: f32, %out: f32):
      %354 = arith.select %in, %in_112, %in_113 : f32
      linalg.yield %354 : f32
    } -> tensor<8x1xf32>
    %61 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel"]} ins(%59, %60 : tensor<8x16xf32>, tensor<8x1xf32>) outs(%19 : tensor<8x16xf32>) {
    ^bb0(%in: f32, %in_112: f32, %out: f32):
      %354 = arith.mulf %in, %in_112 : f32
      linalg.yield %354 : f32
    } -> tensor<8x16xf32>
    %62 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel"]} ins(%35 : tensor<8x16xf32>) outs(%19 : tensor<8x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %354 = math.exp %in : f32
      linalg.yield %354 : f32
    } -> tensor<8x16xf32>
    %63 = linalg.generic {indexing_maps = [#map2, #map5], iterator_types = ["parallel", "reduction"]} ins(%61 : tensor<8x16xf32>) outs(%32 : tensor<8x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %354 = arith.addf %in, %out : f32
      linalg.yield %354 : f32
    } -> tensor<8x1xf32>
    %64 = linalg.generic {indexing_maps = [#map2, #map5, #map2], iterator_types = ["parallel", "parallel"]} ins(%62, %63 : tensor<8x16xf32>, tensor<8x1xf32>) outs(%19 : tensor<8x16xf32>) {
    ^bb0(%in: f32, %in_112: f32, %out: f32):
      %354 = arith.mulf %in, %in_112 : f32
      linalg.yield %354 : f32
    } -> tensor<8x16xf32>
    %65 = linalg.generic {indexing_maps = [#map2, #map2, #map2], iterator_types = ["parallel", "parallel"]} ins(%61, %64 : tensor<8x16xf32>, tensor<8x16xf32>) outs(%19 : tensor<8x16xf32>) {
    ^bb0(%in: f32, %in_112: f32, %out: f32):
      %354 = arith.subf %in, %in_112 : f32
      linalg.yield %354 : f32
    } -> tensor<8x16xf32>
    %66 = linalg.matmul ins(%65, %arg8 : tensor<8x16xf32>, tensor<16x48xf32>) outs(%15 : tensor<8x48xf32>) -> tensor<8x48xf32>
    %67 = tensor.empty() : tensor<16x8xf32>
    %transposed_27 = linalg.transpose ins(%65 : tensor<8x16xf32>) outs(%67 : tensor<16x8xf32>) permutation = [1, 0] 
    %68 = tensor.empty() : tensor<16x48xf32>
    %69 = linalg.fill ins(%cst : f32) outs(%68 : tensor<16x48xf32>) -> tensor<16x48xf32>
    %70 = linalg.matmul ins(%transposed_27, %17 : tensor<16x8xf32>, tensor<8x48xf32>) outs(%69 : tensor<16x48xf32>) -> tensor<16x48xf32>
    %71 = tensor.empty() : tensor<1x16xf32>
    %72 = linalg.fill ins(%cst : f32) outs(%71 : tensor<1x16xf32>) -> tensor<1x16xf32>
    %73 = linalg.generic {indexing_maps = [#map2, #map10], iterator_types = ["reduction", "parallel"]} ins(%65 : tensor<8x16xf32>) outs(%72 : tensor<1x16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %354 = arith.addf %in, %out : f32
      linalg.yield %354 : f32
    } -> tensor<1x16xf32>
    %collapsed_28 = tensor.collapse_shape %73 [[0, 1]] : tensor<1x16xf32> into tensor<16xf32>
    %74 = linalg.generic {indexing_maps = [#map1, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%66 : tensor<8x48xf32>) outs(%7 : tensor<8x48x15x15xf32>) {
    ^bb0(%in: f32, %out: f32):
      linalg.yield %in : f32
    } -> tensor<8x48x15x15xf32>
    %75 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%74 : tensor<8x48x15x15xf32>) outs(%7 : tensor<8x48x15x15xf32>) {
    ^bb0(%in: f32, %out: f32):
      %354 = arith.divf %in, %cst_6 : f32
      linalg.yield %354 : f32
    } -> tensor<8x48x15x15xf32>
    %76 = tensor.empty() : tensor<8x48x15x15xi1>
    %77 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%13 : tensor<8x48x15x15xf32>) outs(%76 : tensor<8x48x15x15xi1>) {
    ^bb0(%in: f32, %out: i1):
      %354 = arith.cmpf ole, %in, %cst : f32
      linalg.yield %354 : i1
    } -> tensor<8x48x15x15xi1>
    %78 = linalg.generic {indexing_maps = [#map, #map11, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%77, %cst_5, %75 : tensor<8x48x15x15xi1>, tensor<f32>, tensor<8x48x15x15xf32>) outs(%7 : tensor<8x48x15x15xf32>) {
    ^bb0(%in: i1, %in_112: f32, %in_113: f32, %out: f32):
      %354 = arith.select %in, %in_112, %in_113 : f32
      linalg.yield %354 : f32
    } -> tensor<8x48x15x15xf32>
    %padded_29 = tensor.pad %78 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg12: index, %arg13: index, %arg14: index, %arg15: index):
      tensor.yield %cst : f32
    } : tensor<8x48x15x15xf32> to tensor<8x48x17x17xf32>
    %79 = tensor.empty() : tensor<48x48x3x3xf32>
    %transposed_30 = linalg.transpose ins(%arg6 : tensor<48x48x3x3xf32>) outs(%79 : tensor<48x48x3x3xf32>) permutation = [1, 0, 2, 3] 
    %80 = linalg.fill ins(%cst : f32) outs(%79 : tensor<48x48x3x3xf32>) -> tensor<48x48x3x3xf32>
    %81 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_30 : tensor<48x48x3x3xf32>) outs(%80 : tensor<48x48x3x3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %354 = linalg.index 0 : index
      %355 = linalg.index 1 : index
      %356 = linalg.index 2 : index
      %357 = linalg.index 3 : index
      %358 = arith.subi %c2, %356 : index
      %359 = arith.subi %c2, %357 : index
      %extracted = tensor.extract %transposed_30[%354, %355, %358, %359] : tensor<48x48x3x3xf32>
      linalg.yield %extracted : f32
    } -> tensor<48x48x3x3xf32>
    %82 = linalg.fill ins(%cst : f32) outs(%7 : tensor<8x48x15x15xf32>) -> tensor<8x48x15x15xf32>
    %83 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_29, %81 : tensor<8x48x17x17xf32>, tensor<48x48x3x3xf32>) outs(%82 : tensor<8x48x15x15xf32>) -> tensor<8x48x15x15xf32>
    %84 = tensor.empty() : tensor<48x8x15x15xf32>
    %transposed_31 = linalg.transpose ins(%11 : tensor<8x48x15x15xf32>) outs(%84 : tensor<48x8x15x15xf32>) permutation = [1, 0, 2, 3] 
    %transposed_32 = linalg.transpose ins(%78 : tensor<8x48x15x15xf32>) outs(%84 : tensor<48x8x15x15xf32>) permutation = [1, 0, 2, 3] 
    %padded_33 = tensor.pad %transposed_31 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg12: index, %arg13: index, %arg14: index, %arg15: index):
      tensor.yield %cst : f32
    } : tensor<48x8x15x15xf32> to tensor<48x8x17x17xf32>
    %85 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_33, %transposed_32 : tensor<48x8x17x17xf32>, tensor<48x8x15x15xf32>) outs(%80 : tensor<48x48x3x3xf32>) -> tensor<48x48x3x3xf32>
    %transposed_34 = linalg.transpose ins(%85 : tensor<48x48x3x3xf32>) outs(%79 : tensor<48x48x3x3xf32>) permutation = [1, 0, 2, 3] 
    %86 = tensor.empty() : tensor<48xf32>
    %87 = linalg.fill ins(%cst : f32) outs(%86 : tensor<48xf32>) -> tensor<48xf32>
    %88 = linalg.generic {indexing_maps = [#map, #map12], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%78 : tensor<8x48x15x15xf32>) outs(%87 : tensor<48xf32>) {
    ^bb0(%in: f32, %out: f32):
      %354 = arith.addf %in, %out : f32
      linalg.yield %354 : f32
    } -> tensor<48xf32>
    %89 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%11 : tensor<8x48x15x15xf32>) outs(%76 : tensor<8x48x15x15xi1>) {
    ^bb0(%in: f32, %out: i1):
      %354 = arith.cmpf ole, %in, %cst : f32
      linalg.yield %354 : i1
    } -> tensor<8x48x15x15xi1>
    %90 = linalg.generic {indexing_maps = [#map, #map11, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%89, %cst_5, %83 : tensor<8x48x15x15xi1>, tensor<f32>, tensor<8x48x15x15xf32>) outs(%7 : tensor<8x48x15x15xf32>) {
    ^bb0(%in: i1, %in_112: f32, %in_113: f32, %out: f32):
      %354 = arith.select %in, %in_112, %in_113 : f32
      linalg.yield %354 : f32
    } -> tensor<8x48x15x15xf32>
    %padded_35 = tensor.pad %90 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg12: index, %arg13: index, %arg14: index, %arg15: index):
      tensor.yield %cst : f32
    } : tensor<8x48x15x15xf32> to tensor<8x48x17x17xf32>
    %transposed_36 = linalg.transpose ins(%arg4 : tensor<48x48x3x3xf32>) outs(%79 : tensor<48x48x3x3xf32>) permutation = [1, 0, 2, 3] 
    %91 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_36 : tensor<48x48x3x3xf32>) outs(%80 : tensor<48x48x3x3xf32>) {
    ^bb0(%in: f32, %out: f32):
      %354 = linalg.index 0 : index
      %355 = linalg.index 1 : index
      %356 = linalg.index 2 : index
      %357 = linalg.index 3 : index
      %358 = arith.subi %c2, %356 : index
      %359 = arith.subi %c2, %357 : index
      %extracted = tensor.extract %transposed_36[%354, %355, %358, %359] : tensor<48x48x3x3xf32>
      linalg.yield %extracted : f32
    } -> tensor<48x48x3x3xf32>
    %92 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_35, %91 : tensor<8x48x17x17xf32>, tensor<48x48x3x3xf32>) outs(%82 : tensor<8x48x15x15xf32>) -> tensor<8x48x15x15xf32>
    %transposed_37 = linalg.transpose ins(%9 : tensor<8x48x15x15xf32>) outs(%84 : tensor<48x8x15x15xf32>) permutation = [1, 0, 2, 3] 
    %transposed_38 = linalg.transpose ins(%90 : tensor<8x48x15x15xf32>) outs(%84 : tensor<48x8x15x15xf32>) permutation = [1, 0, 2, 3] 
    %padded_39 = tensor.pad %transposed_37 low[0, 0, 1, 1] high[0, 0, 1, 1] {
    ^bb0(%arg12: index, %arg13: index, %arg14: index, %arg15: index):
      tensor.yield %cst : f32
    } : tensor<48x8x15x15xf32> to tensor<48x8x17x17xf32>
    %93 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%padded_39, %transposed_38 : tensor<48x8x17x17xf32>, tensor<48x8x15x15xf32>) outs(%80 : tensor<48x48x3x3xf32>) -> tensor<48x48x3x3xf32>
    %transposed_40 = linalg.transpose ins(%93 : tensor<48x48x3x3xf32>) outs(%79 : tensor<48x48x3x3xf32>) permutation = [1, 0, 2, 3] 
    %94 = linalg.generic {indexing_maps = [#map, #map12], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%90 : tensor<8x48x15x15xf32>) outs(%87 : tensor<48xf32>) {
    ^bb0(%in: f32, %out: f32):
      %354 = arith.addf %in, %out : f32
      linalg.yield %354 : f32
    } -> tensor<48xf32>
    %95 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%9 : tensor<8x48x15x15xf32>) outs(%76 : tensor<8x48x15x15xi1>) {
    ^bb0(%in: f32, %out: i1):
      %354 = arith.cmpf ole, %in, %cst : f32
      linalg.yield %354 : i1
    } -> tensor<8x48x15x15xi1>
    %96 = linalg.generic {indexing_maps = [#map, #map11, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%95, %cst_5, %92 : tensor<8x48x15x15xi1>, tensor<f32>, tensor<8x48x15x15xf32>) outs(%7 : tensor<8x48x15x15xf32>) {
    ^bb0(%in: i1, %in_112: f32, %in_113: f32, %out: f32):
      %354 = arith.select %in, %in_112, %in_113 : f32
      linalg.yield %354 : f32
    } -> tensor<8x48x15x15xf32>
    %97 = tensor.empty() : tensor<16x48x1x1xf32>
    %transposed_41 = linalg.transpose ins(%arg2 : tensor<48x16x1x1xf32>) outs(%97 : tensor<16x48x1x1xf32>) permutation = [1, 0, 2, 3] 
    %98 = linalg.fill ins(%cst : f32) outs(%97 : tensor<16x48x1x1xf32>) -> tensor<16x48x1x1xf32>
    %99 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%transposed_41 : tensor<16x48x1x1xf32>) outs(%98 : tensor<16x48x1x1xf32>) {
    ^bb0(%in: f32, %out: f32):
      %354 = linalg.index 0 : index
      %355 = linalg.index 1 : index
      %extracted = tensor.extract %transposed_41[%354, %355, %c0, %c0] : tensor<16x48x1x1xf32>
      linalg.yield %extracted : f32
    } -> tensor<16x48x1x1xf32>
    %100 = linalg.fill ins(%cst : f32) outs(%3 : tensor<8x16x15x15xf32>) -> tensor<8x16x15x15xf32>
    %101 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%96, %99 : tensor<8x48x15x15xf32>, tensor<16x48x1x1xf32>) outs(%100 : tensor<8x16x15x15xf32>) -> tensor<8x16x15x15xf32>
    %102 = tensor.empty() : tensor<16x8x15x15xf32>
    %transposed_42 = linalg.transpose ins(%6 : tensor<8x16x15x15xf32>) outs(%102 : tensor<16x8x15x15xf32>) permutation = [1, 0, 2, 3] 
    %transposed_43 = linalg.transpose ins(%96 : tensor<8x48x15x15xf32>) outs(%84 : tensor<48x8x15x15xf32>) permutation = [1, 0, 2, 3] 
    %103 = linalg.conv_2d_nchw_fchw {dilations = dense<1> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%transposed_42, %transposed_43 : tensor<16x8x15x15xf32>, tensor<48x8x15x15xf32>) outs(%98 : tensor<16x48x1x1xf32>) -> tensor<16x48x1x1xf32>
    %104 = tensor.empty() : tensor<48x16x1x1xf32>
    %transposed_44 = linalg.transpose ins(%103 : tensor<16x48x1x1xf32>) outs(%104 : tensor<48x16x1x1xf32>) permutation = [1, 0, 2, 3] 
    %105 = linalg.generic {indexing_maps = [#map, #map12], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%96 : tensor<8x48x15x15xf32>) outs(%87 : tensor<48xf32>) {
    ^bb0(%in: f32, %out: f32):
      %354 = arith.addf %in, %out : f32
      linalg.yield %354 : f32
    } -> tensor<48xf32>
    %collapsed_45 = tensor.collapse_shape %2 [[0], [1], [2, 3]] : tensor<8x16x31x31xf32> into tensor<8x16x961xf32>
    %106 = tensor.empty() : tensor<15xi64>
    %107 = linalg.generic {indexing_maps = [#map6], iterator_types = ["parallel"]} outs(%106 : tensor<15xi64>) {
    ^bb0(%out: i64):
      %354 = linalg.index 0 : index
      %355 = arith.index_cast %354 : index to i64
      linalg.yield %355 : i64
    } -> tensor<15xi64>
    %108 = linalg.generic {indexing_maps = [#map6, #map6], iterator_types = ["parallel"]} ins(%107 : tensor<15xi64>) outs(%106 : tensor<15xi64>) {
    ^bb0(%in: i64, %out: i64):
      %354 = arith.muli %in, %c2_i64 : i64
      linalg.yield %354 : i64
    } -> tensor<15xi64>
    %109 = linalg.generic {indexing_maps = [#map6, #map6], iterator_types = ["parallel"]} ins(%108 : tensor<15xi64>) outs(%106 : tensor<15xi64>) {
    ^bb0(%in: i64, %out: i64):
      %354 = arith.maxsi %in, %c0_i64 : i64
      %355 = arith.minsi %354, %c30_i64 : i64
      linalg.yield %355 : i64
    } -> tensor<15xi64>
    %110 = tensor.empty() : tensor<15xi1>
    %111 = linalg.generic {indexing_maps = [#map6, #map6], iterator_types = ["parallel"]} ins(%108 : tensor<15xi64>) outs(%110 : tensor<15xi1>) {
    ^bb0(%in: i64, %out: i1):
      %354 = arith.cmpi sge, %in, %c0_i64 : i64
      linalg.yield %354 : i1
    } -> tensor<15xi1>
    %112 = linalg.generic {indexing_maps = [#map6, #map6], iterator_types = ["parallel"]} ins(%108 : tensor<15xi64>) outs(%110 : tensor<15xi1>) {
    ^bb0(%in: i64, %out: i1):
      %354 = arith.cmpi slt, %in, %c31_i64 : i64
      linalg.yield %354 : i1
    } -> tensor<15xi1>
    %113 = linalg.generic {indexing_maps = [#map6, #map6, #map6], iterator_types = ["parallel"]} ins(%111, %112 : tensor<15xi1>, tensor<15xi1>) outs(%110 : tensor<15xi1>) {
    ^bb0(%in: i1, %in_112: i1, %out: i1):
      %354 = arith.andi %in, %in_112 : i1
      linalg.yield %354 : i1
    } -> tensor<15xi1>
    %expanded_46 = tensor.expand_shape %109 [[0, 1]] output_shape [15, 1] : tensor<15xi64> into tensor<15x1xi64>
    %114 = tensor.empty() : tensor<15x1xi64>
    %115 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel"]} ins(%expanded_46 : tensor<15x1xi64>) outs(%114 : tensor<15x1xi64>) {
    ^bb0(%in: i64, %out: i64):
      %354 = arith.muli %in, %c31_i64 : i64
      linalg.yield %354 : i64
    } -> tensor<15x1xi64>
    %expanded_47 = tensor.expand_shape %109 [[0, 1]] output_shape [1, 15] : tensor<15xi64> into tensor<1x15xi64>
    %116 = tensor.empty() : tensor<15x15xi64>
    %117 = linalg.generic {indexing_maps = [#map5, #map10, #map2], iterator_types = ["parallel", "parallel"]} ins(%115, %expanded_47 : tensor<15x1xi64>, tensor<1x15xi64>) outs(%116 : tensor<15x15xi64>) {
    ^bb0(%in: i64, %in_112: i64, %out: i64):
      %354 = arith.addi %in, %in_112 : i64
      linalg.yield %354 : i64
    } -> tensor<15x15xi64>
    %collapsed_48 = tensor.collapse_shape %117 [[0, 1]] : tensor<15x15xi64> into tensor<225xi64>
    %expanded_49 = tensor.expand_shape %113 [[0, 1]] output_shape [15, 1] : tensor<15xi1> into tensor<15x1xi1>
    %expanded_50 = tensor.expand_shape %113 [[0, 1]] output_shape [1, 15] : tensor<15xi1> into tensor<1x15xi1>
    %118 = tensor.empty() : tensor<15x15xi1>
    %119 = linalg.generic {indexing_maps = [#map5, #map10, #map2], iterator_types = ["parallel", "parallel"]} ins(%expanded_49, %expanded_50 : tensor<15x1xi1>, tensor<1x15xi1>) outs(%118 : tensor<15x15xi1>) {
    ^bb0(%in: i1, %in_112: i1, %out: i1):
      %354 = arith.andi %in, %in_112 : i1
      linalg.yield %354 : i1
    } -> tensor<15x15xi1>
    %collapsed_51 = tensor.collapse_shape %119 [[0, 1]] : tensor<15x15xi1> into tensor<225xi1>
    %120 = tensor.empty() : tensor<8x16x225xf32>
    %121 = linalg.generic {indexing_maps = [#map13, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_48 : tensor<225xi64>) outs(%120 : tensor<8x16x225xf32>) {
    ^bb0(%in: i64, %out: f32):
      %354 = arith.index_cast %in : i64 to index
      %355 = linalg.index 0 : index
      %356 = linalg.index 1 : index
      %extracted = tensor.extract %collapsed_45[%355, %356, %354] : tensor<8x16x961xf32>
      linalg.yield %extracted : f32
    } -> tensor<8x16x225xf32>
    %122 = linalg.generic {indexing_maps = [#map6, #map6], iterator_types = ["parallel"]} ins(%108 : tensor<15xi64>) outs(%106 : tensor<15xi64>) {
    ^bb0(%in: i64, %out: i64):
      %354 = arith.addi %in, %c1_i64 : i64
      linalg.yield %354 : i64
    } -> tensor<15xi64>
    %123 = linalg.generic {indexing_maps = [#map6, #map6], iterator_types = ["parallel"]} ins(%122 : tensor<15xi64>) outs(%106 : tensor<15xi64>) {
    ^bb0(%in: i64, %out: i64):
      %354 = arith.maxsi %in, %c0_i64 : i64
      %355 = arith.minsi %354, %c30_i64 : i64
      linalg.yield %355 : i64
    } -> tensor<15xi64>
    %124 = linalg.generic {indexing_maps = [#map6, #map6], iterator_types = ["parallel"]} ins(%122 : tensor<15xi64>) outs(%110 : tensor<15xi1>) {
    ^bb0(%in: i64, %out: i1):
      %354 = arith.cmpi sge, %in, %c0_i64 : i64
      linalg.yield %354 : i1
    } -> tensor<15xi1>
    %125 = linalg.generic {indexing_maps = [#map6, #map6], iterator_types = ["parallel"]} ins(%122 : tensor<15xi64>) outs(%110 : tensor<15xi1>) {
    ^bb0(%in: i64, %out: i1):
      %354 = arith.cmpi slt, %in, %c31_i64 : i64
      linalg.yield %354 : i1
    } -> tensor<15xi1>
    %126 = linalg.generic {indexing_maps = [#map6, #map6, #map6], iterator_types = ["parallel"]} ins(%124, %125 : tensor<15xi1>, tensor<15xi1>) outs(%110 : tensor<15xi1>) {
    ^bb0(%in: i1, %in_112: i1, %out: i1):
      %354 = arith.andi %in, %in_112 : i1
      linalg.yield %354 : i1
    } -> tensor<15xi1>
    %expanded_52 = tensor.expand_shape %123 [[0, 1]] output_shape [1, 15] : tensor<15xi64> into tensor<1x15xi64>
    %127 = linalg.generic {indexing_maps = [#map5, #map10, #map2], iterator_types = ["parallel", "parallel"]} ins(%115, %expanded_52 : tensor<15x1xi64>, tensor<1x15xi64>) outs(%116 : tensor<15x15xi64>) {
    ^bb0(%in: i64, %in_112: i64, %out: i64):
      %354 = arith.addi %in, %in_112 : i64
      linalg.yield %354 : i64
    } -> tensor<15x15xi64>
    %collapsed_53 = tensor.collapse_shape %127 [[0, 1]] : tensor<15x15xi64> into tensor<225xi64>
    %expanded_54 = tensor.expand_shape %126 [[0, 1]] output_shape [1, 15] : tensor<15xi1> into tensor<1x15xi1>
    %128 = linalg.generic {indexing_maps = [#map5, #map10, #map2], iterator_types = ["parallel", "parallel"]} ins(%expanded_49, %expanded_54 : tensor<15x1xi1>, tensor<1x15xi1>) outs(%118 : tensor<15x15xi1>) {
    ^bb0(%in: i1, %in_112: i1, %out: i1):
      %354 = arith.andi %in, %in_112 : i1
      linalg.yield %354 : i1
    } -> tensor<15x15xi1>
    %collapsed_55 = tensor.collapse_shape %128 [[0, 1]] : tensor<15x15xi1> into tensor<225xi1>
    %129 = linalg.generic {indexing_maps = [#map13, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_53 : tensor<225xi64>) outs(%120 : tensor<8x16x225xf32>) {
    ^bb0(%in: i64, %out: f32):
      %354 = arith.index_cast %in : i64 to index
      %355 = linalg.index 0 : index
      %356 = linalg.index 1 : index
      %extracted = tensor.extract %collapsed_45[%355, %356, %354] : tensor<8x16x961xf32>
      linalg.yield %extracted : f32
    } -> tensor<8x16x225xf32>
    %130 = linalg.generic {indexing_maps = [#map6, #map6], iterator_types = ["parallel"]} ins(%108 : tensor<15xi64>) outs(%106 : tensor<15xi64>) {
    ^bb0(%in: i64, %out: i64):
      %354 = arith.addi %in, %c2_i64 : i64
      linalg.yield %354 : i64
    } -> tensor<15xi64>
    %131 = linalg.generic {indexing_maps = [#map6, #map6], iterator_types = ["parallel"]} ins(%130 : tensor<15xi64>) outs(%106 : tensor<15xi64>) {
    ^bb0(%in: i64, %out: i64):
      %354 = arith.maxsi %in, %c0_i64 : i64
      %355 = arith.minsi %354, %c30_i64 : i64
      linalg.yield %355 : i64
    } -> tensor<15xi64>
    %132 = linalg.generic {indexing_maps = [#map6, #map6], iterator_types = ["parallel"]} ins(%130 : tensor<15xi64>) outs(%110 : tensor<15xi1>) {
    ^bb0(%in: i64, %out: i1):
      %354 = arith.cmpi sge, %in, %c0_i64 : i64
      linalg.yield %354 : i1
    } -> tensor<15xi1>
    %133 = linalg.generic {indexing_maps = [#map6, #map6], iterator_types = ["parallel"]} ins(%130 : tensor<15xi64>) outs(%110 : tensor<15xi1>) {
    ^bb0(%in: i64, %out: i1):
      %354 = arith.cmpi slt, %in, %c31_i64 : i64
      linalg.yield %354 : i1
    } -> tensor<15xi1>
    %134 = linalg.generic {indexing_maps = [#map6, #map6, #map6], iterator_types = ["parallel"]} ins(%132, %133 : tensor<15xi1>, tensor<15xi1>) outs(%110 : tensor<15xi1>) {
    ^bb0(%in: i1, %in_112: i1, %out: i1):
      %354 = arith.andi %in, %in_112 : i1
      linalg.yield %354 : i1
    } -> tensor<15xi1>
    %expanded_56 = tensor.expand_shape %131 [[0, 1]] output_shape [1, 15] : tensor<15xi64> into tensor<1x15xi64>
    %135 = linalg.generic {indexing_maps = [#map5, #map10, #map2], iterator_types = ["parallel", "parallel"]} ins(%115, %expanded_56 : tensor<15x1xi64>, tensor<1x15xi64>) outs(%116 : tensor<15x15xi64>) {
    ^bb0(%in: i64, %in_112: i64, %out: i64):
      %354 = arith.addi %in, %in_112 : i64
      linalg.yield %354 : i64
    } -> tensor<15x15xi64>
    %collapsed_57 = tensor.collapse_shape %135 [[0, 1]] : tensor<15x15xi64> into tensor<225xi64>
    %expanded_58 = tensor.expand_shape %134 [[0, 1]] output_shape [1, 15] : tensor<15xi1> into tensor<1x15xi1>
    %136 = linalg.generic {indexing_maps = [#map5, #map10, #map2], iterator_types = ["parallel", "parallel"]} ins(%expanded_49, %expanded_58 : tensor<15x1xi1>, tensor<1x15xi1>) outs(%118 : tensor<15x15xi1>) {
    ^bb0(%in: i1, %in_112: i1, %out: i1):
      %354 = arith.andi %in, %in_112 : i1
      linalg.yield %354 : i1
    } -> tensor<15x15xi1>
    %collapsed_59 = tensor.collapse_shape %136 [[0, 1]] : tensor<15x15xi1> into tensor<225xi1>
    %137 = linalg.generic {indexing_maps = [#map13, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_57 : tensor<225xi64>) outs(%120 : tensor<8x16x225xf32>) {
    ^bb0(%in: i64, %out: f32):
      %354 = arith.index_cast %in : i64 to index
      %355 = linalg.index 0 : index
      %356 = linalg.index 1 : index
      %extracted = tensor.extract %collapsed_45[%355, %356, %354] : tensor<8x16x961xf32>
      linalg.yield %extracted : f32
    } -> tensor<8x16x225xf32>
    %expanded_60 = tensor.expand_shape %123 [[0, 1]] output_shape [15, 1] : tensor<15xi64> into tensor<15x1xi64>
    %138 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel"]} ins(%expanded_60 : tensor<15x1xi64>) outs(%114 : tensor<15x1xi64>) {
    ^bb0(%in: i64, %out: i64):
      %354 = arith.muli %in, %c31_i64 : i64
      linalg.yield %354 : i64
    } -> tensor<15x1xi64>
    %139 = linalg.generic {indexing_maps = [#map5, #map10, #map2], iterator_types = ["parallel", "parallel"]} ins(%138, %expanded_47 : tensor<15x1xi64>, tensor<1x15xi64>) outs(%116 : tensor<15x15xi64>) {
    ^bb0(%in: i64, %in_112: i64, %out: i64):
      %354 = arith.addi %in, %in_112 : i64
      linalg.yield %354 : i64
    } -> tensor<15x15xi64>
    %collapsed_61 = tensor.collapse_shape %139 [[0, 1]] : tensor<15x15xi64> into tensor<225xi64>
    %expanded_62 = tensor.expand_shape %126 [[0, 1]] output_shape [15, 1] : tensor<15xi1> into tensor<15x1xi1>
    %140 = linalg.generic {indexing_maps = [#map5, #map10, #map2], iterator_types = ["parallel", "parallel"]} ins(%expanded_62, %expanded_50 : tensor<15x1xi1>, tensor<1x15xi1>) outs(%118 : tensor<15x15xi1>) {
    ^bb0(%in: i1, %in_112: i1, %out: i1):
      %354 = arith.andi %in, %in_112 : i1
      linalg.yield %354 : i1
    } -> tensor<15x15xi1>
    %collapsed_63 = tensor.collapse_shape %140 [[0, 1]] : tensor<15x15xi1> into tensor<225xi1>
    %141 = linalg.generic {indexing_maps = [#map13, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_61 : tensor<225xi64>) outs(%120 : tensor<8x16x225xf32>) {
    ^bb0(%in: i64, %out: f32):
      %354 = arith.index_cast %in : i64 to index
      %355 = linalg.index 0 : index
      %356 = linalg.index 1 : index
      %extracted = tensor.extract %collapsed_45[%355, %356, %354] : tensor<8x16x961xf32>
      linalg.yield %extracted : f32
    } -> tensor<8x16x225xf32>
    %142 = linalg.generic {indexing_maps = [#map5, #map10, #map2], iterator_types = ["parallel", "parallel"]} ins(%138, %expanded_52 : tensor<15x1xi64>, tensor<1x15xi64>) outs(%116 : tensor<15x15xi64>) {
    ^bb0(%in: i64, %in_112: i64, %out: i64):
      %354 = arith.addi %in, %in_112 : i64
      linalg.yield %354 : i64
    } -> tensor<15x15xi64>
    %collapsed_64 = tensor.collapse_shape %142 [[0, 1]] : tensor<15x15xi64> into tensor<225xi64>
    %143 = linalg.generic {indexing_maps = [#map5, #map10, #map2], iterator_types = ["parallel", "parallel"]} ins(%expanded_62, %expanded_54 : tensor<15x1xi1>, tensor<1x15xi1>) outs(%118 : tensor<15x15xi1>) {
    ^bb0(%in: i1, %in_112: i1, %out: i1):
      %354 = arith.andi %in, %in_112 : i1
      linalg.yield %354 : i1
    } -> tensor<15x15xi1>
    %collapsed_65 = tensor.collapse_shape %143 [[0, 1]] : tensor<15x15xi1> into tensor<225xi1>
    %144 = linalg.generic {indexing_maps = [#map13, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_64 : tensor<225xi64>) outs(%120 : tensor<8x16x225xf32>) {
    ^bb0(%in: i64, %out: f32):
      %354 = arith.index_cast %in : i64 to index
      %355 = linalg.index 0 : index
      %356 = linalg.index 1 : index
      %extracted = tensor.extract %collapsed_45[%355, %356, %354] : tensor<8x16x961xf32>
      linalg.yield %extracted : f32
    } -> tensor<8x16x225xf32>
    %145 = linalg.generic {indexing_maps = [#map5, #map10, #map2], iterator_types = ["parallel", "parallel"]} ins(%138, %expanded_56 : tensor<15x1xi64>, tensor<1x15xi64>) outs(%116 : tensor<15x15xi64>) {
    ^bb0(%in: i64, %in_112: i64, %out: i64):
      %354 = arith.addi %in, %in_112 : i64
      linalg.yield %354 : i64
    } -> tensor<15x15xi64>
    %collapsed_66 = tensor.collapse_shape %145 [[0, 1]] : tensor<15x15xi64> into tensor<225xi64>
    %146 = linalg.generic {indexing_maps = [#map5, #map10, #map2], iterator_types = ["parallel", "parallel"]} ins(%expanded_62, %expanded_58 : tensor<15x1xi1>, tensor<1x15xi1>) outs(%118 : tensor<15x15xi1>) {
    ^bb0(%in: i1, %in_112: i1, %out: i1):
      %354 = arith.andi %in, %in_112 : i1
      linalg.yield %354 : i1
    } -> tensor<15x15xi1>
    %collapsed_67 = tensor.collapse_shape %146 [[0, 1]] : tensor<15x15xi1> into tensor<225xi1>
    %147 = linalg.generic {indexing_maps = [#map13, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_66 : tensor<225xi64>) outs(%120 : tensor<8x16x225xf32>) {
    ^bb0(%in: i64, %out: f32):
      %354 = arith.index_cast %in : i64 to index
      %355 = linalg.index 0 : index
      %356 = linalg.index 1 : index
      %extracted = tensor.extract %collapsed_45[%355, %356, %354] : tensor<8x16x961xf32>
      linalg.yield %extracted : f32
    } -> tensor<8x16x225xf32>
    %expanded_68 = tensor.expand_shape %131 [[0, 1]] output_shape [15, 1] : tensor<15xi64> into tensor<15x1xi64>
    %148 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel"]} ins(%expanded_68 : tensor<15x1xi64>) outs(%114 : tensor<15x1xi64>) {
    ^bb0(%in: i64, %out: i64):
      %354 = arith.muli %in, %c31_i64 : i64
      linalg.yield %354 : i64
    } -> tensor<15x1xi64>
    %149 = linalg.generic {indexing_maps = [#map5, #map10, #map2], iterator_types = ["parallel", "parallel"]} ins(%148, %expanded_47 : tensor<15x1xi64>, tensor<1x15xi64>) outs(%116 : tensor<15x15xi64>) {
    ^bb0(%in: i64, %in_112: i64, %out: i64):
      %354 = arith.addi %in, %in_112 : i64
      linalg.yield %354 : i64
    } -> tensor<15x15xi64>
    %collapsed_69 = tensor.collapse_shape %149 [[0, 1]] : tensor<15x15xi64> into tensor<225xi64>
    %expanded_70 = tensor.expand_shape %134 [[0, 1]] output_shape [15, 1] : tensor<15xi1> into tensor<15x1xi1>
    %150 = linalg.generic {indexing_maps = [#map5, #map10, #map2], iterator_types = ["parallel", "parallel"]} ins(%expanded_70, %expanded_50 : tensor<15x1xi1>, tensor<1x15xi1>) outs(%118 : tensor<15x15xi1>) {
    ^bb0(%in: i1, %in_112: i1, %out: i1):
      %354 = arith.andi %in, %in_112 : i1
      linalg.yield %354 : i1
    } -> tensor<15x15xi1>
    %collapsed_71 = tensor.collapse_shape %150 [[0, 1]] : tensor<15x15xi1> into tensor<225xi1>
    %151 = linalg.generic {indexing_maps = [#map13, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_69 : tensor<225xi64>) outs(%120 : tensor<8x16x225xf32>) {
    ^bb0(%in: i64, %out: f32):
      %354 = arith.index_cast %in : i64 to index
      %355 = linalg.index 0 : index
      %356 = linalg.index 1 : index
      %extracted = tensor.extract %collapsed_45[%355, %356, %354] : tensor<8x16x961xf32>
      linalg.yield %extracted : f32
    } -> tensor<8x16x225xf32>
    %152 = linalg.generic {indexing_maps = [#map5, #map10, #map2], iterator_types = ["parallel", "parallel"]} ins(%148, %expanded_52 : tensor<15x1xi64>, tensor<1x15xi64>) outs(%116 : tensor<15x15xi64>) {
    ^bb0(%in: i64, %in_112: i64, %out: i64):
      %354 = arith.addi %in, %in_112 : i64
      linalg.yield %354 : i64
    } -> tensor<15x15xi64>
    %collapsed_72 = tensor.collapse_shape %152 [[0, 1]] : tensor<15x15xi64> into tensor<225xi64>
    %153 = linalg.generic {indexing_maps = [#map5, #map10, #map2], iterator_types = ["parallel", "parallel"]} ins(%expanded_70, %expanded_54 : tensor<15x1xi1>, tensor<1x15xi1>) outs(%118 : tensor<15x15xi1>) {
    ^bb0(%in: i1, %in_112: i1, %out: i1):
      %354 = arith.andi %in, %in_112 : i1
      linalg.yield %354 : i1
    } -> tensor<15x15xi1>
    %collapsed_73 = tensor.collapse_shape %153 [[0, 1]] : tensor<15x15xi1> into tensor<225xi1>
    %154 = linalg.generic {indexing_maps = [#map13, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_72 : tensor<225xi64>) outs(%120 : tensor<8x16x225xf32>) {
    ^bb0(%in: i64, %out: f32):
      %354 = arith.index_cast %in : i64 to index
      %355 = linalg.index 0 : index
      %356 = linalg.index 1 : index
      %extracted = tensor.extract %collapsed_45[%355, %356, %354] : tensor<8x16x961xf32>
      linalg.yield %extracted : f32
    } -> tensor<8x16x225xf32>
    %155 = linalg.generic {indexing_maps = [#map5, #map10, #map2], iterator_types = ["parallel", "parallel"]} ins(%148, %expanded_56 : tensor<15x1xi64>, tensor<1x15xi64>) outs(%116 : tensor<15x15xi64>) {
    ^bb0(%in: i64, %in_112: i64, %out: i64):
      %354 = arith.addi %in, %in_112 : i64
      linalg.yield %354 : i64
    } -> tensor<15x15xi64>
    %collapsed_74 = tensor.collapse_shape %155 [[0, 1]] : tensor<15x15xi64> into tensor<225xi64>
    %156 = linalg.generic {indexing_maps = [#map5, #map10, #map2], iterator_types = ["parallel", "parallel"]} ins(%expanded_70, %expanded_58 : tensor<15x1xi1>, tensor<1x15xi1>) outs(%118 : tensor<15x15xi1>) {
    ^bb0(%in: i1, %in_112: i1, %out: i1):
      %354 = arith.andi %in, %in_112 : i1
      linalg.yield %354 : i1
    } -> tensor<15x15xi1>
    %collapsed_75 = tensor.collapse_shape %156 [[0, 1]] : tensor<15x15xi1> into tensor<225xi1>
    %157 = linalg.generic {indexing_maps = [#map13, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_74 : tensor<225xi64>) outs(%120 : tensor<8x16x225xf32>) {
    ^bb0(%in: i64, %out: f32):
      %354 = arith.index_cast %in : i64 to index
      %355 = linalg.index 0 : index
      %356 = linalg.index 1 : index
      %extracted = tensor.extract %collapsed_45[%355, %356, %354] : tensor<8x16x961xf32>
      linalg.yield %extracted : f32
    } -> tensor<8x16x225xf32>
    %158 = linalg.generic {indexing_maps = [#map13, #map14, #map15, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_51, %121, %cst_1 : tensor<225xi1>, tensor<8x16x225xf32>, tensor<f32>) outs(%120 : tensor<8x16x225xf32>) {
    ^bb0(%in: i1, %in_112: f32, %in_113: f32, %out: f32):
      %354 = arith.select %in, %in_112, %in_113 : f32
      linalg.yield %354 : f32
    } -> tensor<8x16x225xf32>
    %159 = linalg.generic {indexing_maps = [#map13, #map14, #map15, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_55, %129, %cst_1 : tensor<225xi1>, tensor<8x16x225xf32>, tensor<f32>) outs(%120 : tensor<8x16x225xf32>) {
    ^bb0(%in: i1, %in_112: f32, %in_113: f32, %out: f32):
      %354 = arith.select %in, %in_112, %in_113 : f32
      linalg.yield %354 : f32
    } -> tensor<8x16x225xf32>
    %160 = linalg.generic {indexing_maps = [#map14, #map14, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%158, %159 : tensor<8x16x225xf32>, tensor<8x16x225xf32>) outs(%120 : tensor<8x16x225xf32>) {
    ^bb0(%in: f32, %in_112: f32, %out: f32):
      %354 = arith.cmpf ogt, %in, %in_112 : f32
      %355 = arith.select %354, %in, %in_112 : f32
      linalg.yield %355 : f32
    } -> tensor<8x16x225xf32>
    %161 = linalg.generic {indexing_maps = [#map13, #map14, #map15, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_59, %137, %cst_1 : tensor<225xi1>, tensor<8x16x225xf32>, tensor<f32>) outs(%120 : tensor<8x16x225xf32>) {
    ^bb0(%in: i1, %in_112: f32, %in_113: f32, %out: f32):
      %354 = arith.select %in, %in_112, %in_113 : f32
      linalg.yield %354 : f32
    } -> tensor<8x16x225xf32>
    %162 = linalg.generic {indexing_maps = [#map14, #map14, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%160, %161 : tensor<8x16x225xf32>, tensor<8x16x225xf32>) outs(%120 : tensor<8x16x225xf32>) {
    ^bb0(%in: f32, %in_112: f32, %out: f32):
      %354 = arith.cmpf ogt, %in, %in_112 : f32
      %355 = arith.select %354, %in, %in_112 : f32
      linalg.yield %355 : f32
    } -> tensor<8x16x225xf32>
    %163 = linalg.generic {indexing_maps = [#map13, #map14, #map15, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_63, %141, %cst_1 : tensor<225xi1>, tensor<8x16x225xf32>, tensor<f32>) outs(%120 : tensor<8x16x225xf32>) {
    ^bb0(%in: i1, %in_112: f32, %in_113: f32, %out: f32):
      %354 = arith.select %in, %in_112, %in_113 : f32
      linalg.yield %354 : f32
    } -> tensor<8x16x225xf32>
    %164 = linalg.generic {indexing_maps = [#map14, #map14, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%162, %163 : tensor<8x16x225xf32>, tensor<8x16x225xf32>) outs(%120 : tensor<8x16x225xf32>) {
    ^bb0(%in: f32, %in_112: f32, %out: f32):
      %354 = arith.cmpf ogt, %in, %in_112 : f32
      %355 = arith.select %354, %in, %in_112 : f32
      linalg.yield %355 : f32
    } -> tensor<8x16x225xf32>
    %165 = linalg.generic {indexing_maps = [#map13, #map14, #map15, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_65, %144, %cst_1 : tensor<225xi1>, tensor<8x16x225xf32>, tensor<f32>) outs(%120 : tensor<8x16x225xf32>) {
    ^bb0(%in: i1, %in_112: f32, %in_113: f32, %out: f32):
      %354 = arith.select %in, %in_112, %in_113 : f32
      linalg.yield %354 : f32
    } -> tensor<8x16x225xf32>
    %166 = linalg.generic {indexing_maps = [#map14, #map14, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%164, %165 : tensor<8x16x225xf32>, tensor<8x16x225xf32>) outs(%120 : tensor<8x16x225xf32>) {
    ^bb0(%in: f32, %in_112: f32, %out: f32):
      %354 = arith.cmpf ogt, %in, %in_112 : f32
      %355 = arith.select %354, %in, %in_112 : f32
      linalg.yield %355 : f32
    } -> tensor<8x16x225xf32>
    %167 = linalg.generic {indexing_maps = [#map13, #map14, #map15, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_67, %147, %cst_1 : tensor<225xi1>, tensor<8x16x225xf32>, tensor<f32>) outs(%120 : tensor<8x16x225xf32>) {
    ^bb0(%in: i1, %in_112: f32, %in_113: f32, %out: f32):
      %354 = arith.select %in, %in_112, %in_113 : f32
      linalg.yield %354 : f32
    } -> tensor<8x16x225xf32>
    %168 = linalg.generic {indexing_maps = [#map14, #map14, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%166, %167 : tensor<8x16x225xf32>, tensor<8x16x225xf32>) outs(%120 : tensor<8x16x225xf32>) {
    ^bb0(%in: f32, %in_112: f32, %out: f32):
      %354 = arith.cmpf ogt, %in, %in_112 : f32
      %355 = arith.select %354, %in, %in_112 : f32
      linalg.yield %355 : f32
    } -> tensor<8x16x225xf32>
    %169 = linalg.generic {indexing_maps = [#map13, #map14, #map15, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_71, %151, %cst_1 : tensor<225xi1>, tensor<8x16x225xf32>, tensor<f32>) outs(%120 : tensor<8x16x225xf32>) {
    ^bb0(%in: i1, %in_112: f32, %in_113: f32, %out: f32):
      %354 = arith.select %in, %in_112, %in_113 : f32
      linalg.yield %354 : f32
    } -> tensor<8x16x225xf32>
    %170 = linalg.generic {indexing_maps = [#map14, #map14, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%168, %169 : tensor<8x16x225xf32>, tensor<8x16x225xf32>) outs(%120 : tensor<8x16x225xf32>) {
    ^bb0(%in: f32, %in_112: f32, %out: f32):
      %354 = arith.cmpf ogt, %in, %in_112 : f32
      %355 = arith.select %354, %in, %in_112 : f32
      linalg.yield %355 : f32
    } -> tensor<8x16x225xf32>
    %171 = linalg.generic {indexing_maps = [#map13, #map14, #map15, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_73, %154, %cst_1 : tensor<225xi1>, tensor<8x16x225xf32>, tensor<f32>) outs(%120 : tensor<8x16x225xf32>) {
    ^bb0(%in: i1, %in_112: f32, %in_113: f32, %out: f32):
      %354 = arith.select %in, %in_112, %in_113 : f32
      linalg.yield %354 : f32
    } -> tensor<8x16x225xf32>
    %172 = linalg.generic {indexing_maps = [#map14, #map14, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%170, %171 : tensor<8x16x225xf32>, tensor<8x16x225xf32>) outs(%120 : tensor<8x16x225xf32>) {
    ^bb0(%in: f32, %in_112: f32, %out: f32):
      %354 = arith.cmpf ogt, %in, %in_112 : f32
      %355 = arith.select %354, %in, %in_112 : f32
      linalg.yield %355 : f32
    } -> tensor<8x16x225xf32>
    %173 = linalg.generic {indexing_maps = [#map13, #map14, #map15, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_75, %157, %cst_1 : tensor<225xi1>, tensor<8x16x225xf32>, tensor<f32>) outs(%120 : tensor<8x16x225xf32>) {
    ^bb0(%in: i1, %in_112: f32, %in_113: f32, %out: f32):
      %354 = arith.select %in, %in_112, %in_113 : f32
      linalg.yield %354 : f32
    } -> tensor<8x16x225xf32>
    %174 = linalg.generic {indexing_maps = [#map14, #map14, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%172, %173 : tensor<8x16x225xf32>, tensor<8x16x225xf32>) outs(%120 : tensor<8x16x225xf32>) {
    ^bb0(%in: f32, %in_112: f32, %out: f32):
      %354 = arith.cmpf ogt, %in, %in_112 : f32
      %355 = arith.select %354, %in, %in_112 : f32
      linalg.yield %355 : f32
    } -> tensor<8x16x225xf32>
    %175 = tensor.empty() : tensor<8x16x225xi1>
    %176 = linalg.generic {indexing_maps = [#map14, #map14, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%157, %174 : tensor<8x16x225xf32>, tensor<8x16x225xf32>) outs(%175 : tensor<8x16x225xi1>) {
    ^bb0(%in: f32, %in_112: f32, %out: i1):
      %354 = arith.cmpf oeq, %in, %in_112 : f32
      linalg.yield %354 : i1
    } -> tensor<8x16x225xi1>
    %177 = linalg.generic {indexing_maps = [#map14, #map13, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%176, %collapsed_75 : tensor<8x16x225xi1>, tensor<225xi1>) outs(%175 : tensor<8x16x225xi1>) {
    ^bb0(%in: i1, %in_112: i1, %out: i1):
      %354 = arith.andi %in, %in_112 : i1
      linalg.yield %354 : i1
    } -> tensor<8x16x225xi1>
    %178 = tensor.empty() : tensor<8x16x225xi8>
    %179 = linalg.generic {indexing_maps = [#map14, #map15, #map15, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%177, %cst_15, %cst_16 : tensor<8x16x225xi1>, tensor<i8>, tensor<i8>) outs(%178 : tensor<8x16x225xi8>) {
    ^bb0(%in: i1, %in_112: i8, %in_113: i8, %out: i8):
      %354 = arith.select %in, %in_112, %in_113 : i8
      linalg.yield %354 : i8
    } -> tensor<8x16x225xi8>
    %180 = linalg.generic {indexing_maps = [#map14, #map14, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%154, %174 : tensor<8x16x225xf32>, tensor<8x16x225xf32>) outs(%175 : tensor<8x16x225xi1>) {
    ^bb0(%in: f32, %in_112: f32, %out: i1):
      %354 = arith.cmpf oeq, %in, %in_112 : f32
      linalg.yield %354 : i1
    } -> tensor<8x16x225xi1>
    %181 = linalg.generic {indexing_maps = [#map14, #map13, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%180, %collapsed_73 : tensor<8x16x225xi1>, tensor<225xi1>) outs(%175 : tensor<8x16x225xi1>) {
    ^bb0(%in: i1, %in_112: i1, %out: i1):
      %354 = arith.andi %in, %in_112 : i1
      linalg.yield %354 : i1
    } -> tensor<8x16x225xi1>
    %182 = linalg.generic {indexing_maps = [#map14, #map15, #map14, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%181, %cst_14, %179 : tensor<8x16x225xi1>, tensor<i8>, tensor<8x16x225xi8>) outs(%178 : tensor<8x16x225xi8>) {
    ^bb0(%in: i1, %in_112: i8, %in_113: i8, %out: i8):
      %354 = arith.select %in, %in_112, %in_113 : i8
      linalg.yield %354 : i8
    } -> tensor<8x16x225xi8>
    %183 = linalg.generic {indexing_maps = [#map14, #map14, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%151, %174 : tensor<8x16x225xf32>, tensor<8x16x225xf32>) outs(%175 : tensor<8x16x225xi1>) {
    ^bb0(%in: f32, %in_112: f32, %out: i1):
      %354 = arith.cmpf oeq, %in, %in_112 : f32
      linalg.yield %354 : i1
    } -> tensor<8x16x225xi1>
    %184 = linalg.generic {indexing_maps = [#map14, #map13, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%183, %collapsed_71 : tensor<8x16x225xi1>, tensor<225xi1>) outs(%175 : tensor<8x16x225xi1>) {
    ^bb0(%in: i1, %in_112: i1, %out: i1):
      %354 = arith.andi %in, %in_112 : i1
      linalg.yield %354 : i1
    } -> tensor<8x16x225xi1>
    %185 = linalg.generic {indexing_maps = [#map14, #map15, #map14, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%184, %cst_13, %182 : tensor<8x16x225xi1>, tensor<i8>, tensor<8x16x225xi8>) outs(%178 : tensor<8x16x225xi8>) {
    ^bb0(%in: i1, %in_112: i8, %in_113: i8, %out: i8):
      %354 = arith.select %in, %in_112, %in_113 : i8
      linalg.yield %354 : i8
    } -> tensor<8x16x225xi8>
    %186 = linalg.generic {indexing_maps = [#map14, #map14, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%147, %174 : tensor<8x16x225xf32>, tensor<8x16x225xf32>) outs(%175 : tensor<8x16x225xi1>) {
    ^bb0(%in: f32, %in_112: f32, %out: i1):
      %354 = arith.cmpf oeq, %in, %in_112 : f32
      linalg.yield %354 : i1
    } -> tensor<8x16x225xi1>
    %187 = linalg.generic {indexing_maps = [#map14, #map13, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%186, %collapsed_67 : tensor<8x16x225xi1>, tensor<225xi1>) outs(%175 : tensor<8x16x225xi1>) {
    ^bb0(%in: i1, %in_112: i1, %out: i1):
      %354 = arith.andi %in, %in_112 : i1
      linalg.yield %354 : i1
    } -> tensor<8x16x225xi1>
    %188 = linalg.generic {indexing_maps = [#map14, #map15, #map14, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%187, %cst_12, %185 : tensor<8x16x225xi1>, tensor<i8>, tensor<8x16x225xi8>) outs(%178 : tensor<8x16x225xi8>) {
    ^bb0(%in: i1, %in_112: i8, %in_113: i8, %out: i8):
      %354 = arith.select %in, %in_112, %in_113 : i8
      linalg.yield %354 : i8
    } -> tensor<8x16x225xi8>
    %189 = linalg.generic {indexing_maps = [#map14, #map14, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%144, %174 : tensor<8x16x225xf32>, tensor<8x16x225xf32>) outs(%175 : tensor<8x16x225xi1>) {
    ^bb0(%in: f32, %in_112: f32, %out: i1):
      %354 = arith.cmpf oeq, %in, %in_112 : f32
      linalg.yield %354 : i1
    } -> tensor<8x16x225xi1>
    %190 = linalg.generic {indexing_maps = [#map14, #map13, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%189, %collapsed_65 : tensor<8x16x225xi1>, tensor<225xi1>) outs(%175 : tensor<8x16x225xi1>) {
    ^bb0(%in: i1, %in_112: i1, %out: i1):
      %354 = arith.andi %in, %in_112 : i1
      linalg.yield %354 : i1
    } -> tensor<8x16x225xi1>
    %191 = linalg.generic {indexing_maps = [#map14, #map15, #map14, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%190, %cst_11, %188 : tensor<8x16x225xi1>, tensor<i8>, tensor<8x16x225xi8>) outs(%178 : tensor<8x16x225xi8>) {
    ^bb0(%in: i1, %in_112: i8, %in_113: i8, %out: i8):
      %354 = arith.select %in, %in_112, %in_113 : i8
      linalg.yield %354 : i8
    } -> tensor<8x16x225xi8>
    %192 = linalg.generic {indexing_maps = [#map14, #map14, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%141, %174 : tensor<8x16x225xf32>, tensor<8x16x225xf32>) outs(%175 : tensor<8x16x225xi1>) {
    ^bb0(%in: f32, %in_112: f32, %out: i1):
      %354 = arith.cmpf oeq, %in, %in_112 : f32
      linalg.yield %354 : i1
    } -> tensor<8x16x225xi1>
    %193 = linalg.generic {indexing_maps = [#map14, #map13, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%192, %collapsed_63 : tensor<8x16x225xi1>, tensor<225xi1>) outs(%175 : tensor<8x16x225xi1>) {
    ^bb0(%in: i1, %in_112: i1, %out: i1):
      %354 = arith.andi %in, %in_112 : i1
      linalg.yield %354 : i1
    } -> tensor<8x16x225xi1>
    %194 = linalg.generic {indexing_maps = [#map14, #map15, #map14, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%193, %cst_10, %191 : tensor<8x16x225xi1>, tensor<i8>, tensor<8x16x225xi8>) outs(%178 : tensor<8x16x225xi8>) {
    ^bb0(%in: i1, %in_112: i8, %in_113: i8, %out: i8):
      %354 = arith.select %in, %in_112, %in_113 : i8
      linalg.yield %354 : i8
    } -> tensor<8x16x225xi8>
    %195 = linalg.generic {indexing_maps = [#map14, #map14, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%137, %174 : tensor<8x16x225xf32>, tensor<8x16x225xf32>) outs(%175 : tensor<8x16x225xi1>) {
    ^bb0(%in: f32, %in_112: f32, %out: i1):
      %354 = arith.cmpf oeq, %in, %in_112 : f32
      linalg.yield %354 : i1
    } -> tensor<8x16x225xi1>
    %196 = linalg.generic {indexing_maps = [#map14, #map13, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%195, %collapsed_59 : tensor<8x16x225xi1>, tensor<225xi1>) outs(%175 : tensor<8x16x225xi1>) {
    ^bb0(%in: i1, %in_112: i1, %out: i1):
      %354 = arith.andi %in, %in_112 : i1
      linalg.yield %354 : i1
    } -> tensor<8x16x225xi1>
    %197 = linalg.generic {indexing_maps = [#map14, #map15, #map14, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%196, %cst_9, %194 : tensor<8x16x225xi1>, tensor<i8>, tensor<8x16x225xi8>) outs(%178 : tensor<8x16x225xi8>) {
    ^bb0(%in: i1, %in_112: i8, %in_113: i8, %out: i8):
      %354 = arith.select %in, %in_112, %in_113 : i8
      linalg.yield %354 : i8
    } -> tensor<8x16x225xi8>
    %198 = linalg.generic {indexing_maps = [#map14, #map14, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%129, %174 : tensor<8x16x225xf32>, tensor<8x16x225xf32>) outs(%175 : tensor<8x16x225xi1>) {
    ^bb0(%in: f32, %in_112: f32, %out: i1):
      %354 = arith.cmpf oeq, %in, %in_112 : f32
      linalg.yield %354 : i1
    } -> tensor<8x16x225xi1>
    %199 = linalg.generic {indexing_maps = [#map14, #map13, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%198, %collapsed_55 : tensor<8x16x225xi1>, tensor<225xi1>) outs(%175 : tensor<8x16x225xi1>) {
    ^bb0(%in: i1, %in_112: i1, %out: i1):
      %354 = arith.andi %in, %in_112 : i1
      linalg.yield %354 : i1
    } -> tensor<8x16x225xi1>
    %200 = linalg.generic {indexing_maps = [#map14, #map15, #map14, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%199, %cst_8, %197 : tensor<8x16x225xi1>, tensor<i8>, tensor<8x16x225xi8>) outs(%178 : tensor<8x16x225xi8>) {
    ^bb0(%in: i1, %in_112: i8, %in_113: i8, %out: i8):
      %354 = arith.select %in, %in_112, %in_113 : i8
      linalg.yield %354 : i8
    } -> tensor<8x16x225xi8>
    %201 = linalg.generic {indexing_maps = [#map14, #map14, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%121, %174 : tensor<8x16x225xf32>, tensor<8x16x225xf32>) outs(%175 : tensor<8x16x225xi1>) {
    ^bb0(%in: f32, %in_112: f32, %out: i1):
      %354 = arith.cmpf oeq, %in, %in_112 : f32
      linalg.yield %354 : i1
    } -> tensor<8x16x225xi1>
    %202 = linalg.generic {indexing_maps = [#map14, #map13, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%201, %collapsed_51 : tensor<8x16x225xi1>, tensor<225xi1>) outs(%175 : tensor<8x16x225xi1>) {
    ^bb0(%in: i1, %in_112: i1, %out: i1):
      %354 = arith.andi %in, %in_112 : i1
      linalg.yield %354 : i1
    } -> tensor<8x16x225xi1>
    %203 = linalg.generic {indexing_maps = [#map14, #map15, #map14, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%202, %cst_7, %200 : tensor<8x16x225xi1>, tensor<i8>, tensor<8x16x225xi8>) outs(%178 : tensor<8x16x225xi8>) {
    ^bb0(%in: i1, %in_112: i8, %in_113: i8, %out: i8):
      %354 = arith.select %in, %in_112, %in_113 : i8
      linalg.yield %354 : i8
    } -> tensor<8x16x225xi8>
    %204 = linalg.generic {indexing_maps = [#map14, #map14, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%121, %121 : tensor<8x16x225xf32>, tensor<8x16x225xf32>) outs(%175 : tensor<8x16x225xi1>) {
    ^bb0(%in: f32, %in_112: f32, %out: i1):
      %354 = arith.cmpf une, %in, %in_112 : f32
      linalg.yield %354 : i1
    } -> tensor<8x16x225xi1>
    %205 = linalg.generic {indexing_maps = [#map14, #map13, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%204, %collapsed_51 : tensor<8x16x225xi1>, tensor<225xi1>) outs(%175 : tensor<8x16x225xi1>) {
    ^bb0(%in: i1, %in_112: i1, %out: i1):
      %354 = arith.andi %in, %in_112 : i1
      linalg.yield %354 : i1
    } -> tensor<8x16x225xi1>
    %206 = linalg.generic {indexing_maps = [#map14, #map15, #map15, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%205, %cst_7, %cst_16 : tensor<8x16x225xi1>, tensor<i8>, tensor<i8>) outs(%178 : tensor<8x16x225xi8>) {
    ^bb0(%in: i1, %in_112: i8, %in_113: i8, %out: i8):
      %354 = arith.select %in, %in_112, %in_113 : i8
      linalg.yield %354 : i8
    } -> tensor<8x16x225xi8>
    %207 = linalg.generic {indexing_maps = [#map14, #map14, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%129, %129 : tensor<8x16x225xf32>, tensor<8x16x225xf32>) outs(%175 : tensor<8x16x225xi1>) {
    ^bb0(%in: f32, %in_112: f32, %out: i1):
      %354 = arith.cmpf une, %in, %in_112 : f32
      linalg.yield %354 : i1
    } -> tensor<8x16x225xi1>
    %208 = linalg.generic {indexing_maps = [#map14, #map13, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%207, %collapsed_55 : tensor<8x16x225xi1>, tensor<225xi1>) outs(%175 : tensor<8x16x225xi1>) {
    ^bb0(%in: i1, %in_112: i1, %out: i1):
      %354 = arith.andi %in, %in_112 : i1
      linalg.yield %354 : i1
    } -> tensor<8x16x225xi1>
    %209 = linalg.generic {indexing_maps = [#map14, #map15, #map14, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%208, %cst_8, %206 : tensor<8x16x225xi1>, tensor<i8>, tensor<8x16x225xi8>) outs(%178 : tensor<8x16x225xi8>) {
    ^bb0(%in: i1, %in_112: i8, %in_113: i8, %out: i8):
      %354 = arith.select %in, %in_112, %in_113 : i8
      linalg.yield %354 : i8
    } -> tensor<8x16x225xi8>
    %210 = linalg.generic {indexing_maps = [#map14, #map14, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%137, %137 : tensor<8x16x225xf32>, tensor<8x16x225xf32>) outs(%175 : tensor<8x16x225xi1>) {
    ^bb0(%in: f32, %in_112: f32, %out: i1):
      %354 = arith.cmpf une, %in, %in_112 : f32
      linalg.yield %354 : i1
    } -> tensor<8x16x225xi1>
    %211 = linalg.generic {indexing_maps = [#map14, #map13, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%210, %collapsed_59 : tensor<8x16x225xi1>, tensor<225xi1>) outs(%175 : tensor<8x16x225xi1>) {
    ^bb0(%in: i1, %in_112: i1, %out: i1):
      %354 = arith.andi %in, %in_112 : i1
      linalg.yield %354 : i1
    } -> tensor<8x16x225xi1>
    %212 = linalg.generic {indexing_maps = [#map14, #map15, #map14, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%211, %cst_9, %209 : tensor<8x16x225xi1>, tensor<i8>, tensor<8x16x225xi8>) outs(%178 : tensor<8x16x225xi8>) {
    ^bb0(%in: i1, %in_112: i8, %in_113: i8, %out: i8):
      %354 = arith.select %in, %in_112, %in_113 : i8
      linalg.yield %354 : i8
    } -> tensor<8x16x225xi8>
    %213 = linalg.generic {indexing_maps = [#map14, #map14, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%141, %141 : tensor<8x16x225xf32>, tensor<8x16x225xf32>) outs(%175 : tensor<8x16x225xi1>) {
    ^bb0(%in: f32, %in_112: f32, %out: i1):
      %354 = arith.cmpf une, %in, %in_112 : f32
      linalg.yield %354 : i1
    } -> tensor<8x16x225xi1>
    %214 = linalg.generic {indexing_maps = [#map14, #map13, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%213, %collapsed_63 : tensor<8x16x225xi1>, tensor<225xi1>) outs(%175 : tensor<8x16x225xi1>) {
    ^bb0(%in: i1, %in_112: i1, %out: i1):
      %354 = arith.andi %in, %in_112 : i1
      linalg.yield %354 : i1
    } -> tensor<8x16x225xi1>
    %215 = linalg.generic {indexing_maps = [#map14, #map15, #map14, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%214, %cst_10, %212 : tensor<8x16x225xi1>, tensor<i8>, tensor<8x16x225xi8>) outs(%178 : tensor<8x16x225xi8>) {
    ^bb0(%in: i1, %in_112: i8, %in_113: i8, %out: i8):
      %354 = arith.select %in, %in_112, %in_113 : i8
      linalg.yield %354 : i8
    } -> tensor<8x16x225xi8>
    %216 = linalg.generic {indexing_maps = [#map14, #map14, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%144, %144 : tensor<8x16x225xf32>, tensor<8x16x225xf32>) outs(%175 : tensor<8x16x225xi1>) {
    ^bb0(%in: f32, %in_112: f32, %out: i1):
      %354 = arith.cmpf une, %in, %in_112 : f32
      linalg.yield %354 : i1
    } -> tensor<8x16x225xi1>
    %217 = linalg.generic {indexing_maps = [#map14, #map13, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%216, %collapsed_65 : tensor<8x16x225xi1>, tensor<225xi1>) outs(%175 : tensor<8x16x225xi1>) {
    ^bb0(%in: i1, %in_112: i1, %out: i1):
      %354 = arith.andi %in, %in_112 : i1
      linalg.yield %354 : i1
    } -> tensor<8x16x225xi1>
    %218 = linalg.generic {indexing_maps = [#map14, #map15, #map14, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%217, %cst_11, %215 : tensor<8x16x225xi1>, tensor<i8>, tensor<8x16x225xi8>) outs(%178 : tensor<8x16x225xi8>) {
    ^bb0(%in: i1, %in_112: i8, %in_113: i8, %out: i8):
      %354 = arith.select %in, %in_112, %in_113 : i8
      linalg.yield %354 : i8
    } -> tensor<8x16x225xi8>
    %219 = linalg.generic {indexing_maps = [#map14, #map14, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%147, %147 : tensor<8x16x225xf32>, tensor<8x16x225xf32>) outs(%175 : tensor<8x16x225xi1>) {
    ^bb0(%in: f32, %in_112: f32, %out: i1):
      %354 = arith.cmpf une, %in, %in_112 : f32
      linalg.yield %354 : i1
    } -> tensor<8x16x225xi1>
    %220 = linalg.generic {indexing_maps = [#map14, #map13, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%219, %collapsed_67 : tensor<8x16x225xi1>, tensor<225xi1>) outs(%175 : tensor<8x16x225xi1>) {
    ^bb0(%in: i1, %in_112: i1, %out: i1):
      %354 = arith.andi %in, %in_112 : i1
      linalg.yield %354 : i1
    } -> tensor<8x16x225xi1>
    %221 = linalg.generic {indexing_maps = [#map14, #map15, #map14, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%220, %cst_12, %218 : tensor<8x16x225xi1>, tensor<i8>, tensor<8x16x225xi8>) outs(%178 : tensor<8x16x225xi8>) {
    ^bb0(%in: i1, %in_112: i8, %in_113: i8, %out: i8):
      %354 = arith.select %in, %in_112, %in_113 : i8
      linalg.yield %354 : i8
    } -> tensor<8x16x225xi8>
    %222 = linalg.generic {indexing_maps = [#map14, #map14, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%151, %151 : tensor<8x16x225xf32>, tensor<8x16x225xf32>) outs(%175 : tensor<8x16x225xi1>) {
    ^bb0(%in: f32, %in_112: f32, %out: i1):
      %354 = arith.cmpf une, %in, %in_112 : f32
      linalg.yield %354 : i1
    } -> tensor<8x16x225xi1>
    %223 = linalg.generic {indexing_maps = [#map14, #map13, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%222, %collapsed_71 : tensor<8x16x225xi1>, tensor<225xi1>) outs(%175 : tensor<8x16x225xi1>) {
    ^bb0(%in: i1, %in_112: i1, %out: i1):
      %354 = arith.andi %in, %in_112 : i1
      linalg.yield %354 : i1
    } -> tensor<8x16x225xi1>
    %224 = linalg.generic {indexing_maps = [#map14, #map15, #map14, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%223, %cst_13, %221 : tensor<8x16x225xi1>, tensor<i8>, tensor<8x16x225xi8>) outs(%178 : tensor<8x16x225xi8>) {
    ^bb0(%in: i1, %in_112: i8, %in_113: i8, %out: i8):
      %354 = arith.select %in, %in_112, %in_113 : i8
      linalg.yield %354 : i8
    } -> tensor<8x16x225xi8>
    %225 = linalg.generic {indexing_maps = [#map14, #map14, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%154, %154 : tensor<8x16x225xf32>, tensor<8x16x225xf32>) outs(%175 : tensor<8x16x225xi1>) {
    ^bb0(%in: f32, %in_112: f32, %out: i1):
      %354 = arith.cmpf une, %in, %in_112 : f32
      linalg.yield %354 : i1
    } -> tensor<8x16x225xi1>
    %226 = linalg.generic {indexing_maps = [#map14, #map13, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%225, %collapsed_73 : tensor<8x16x225xi1>, tensor<225xi1>) outs(%175 : tensor<8x16x225xi1>) {
    ^bb0(%in: i1, %in_112: i1, %out: i1):
      %354 = arith.andi %in, %in_112 : i1
      linalg.yield %354 : i1
    } -> tensor<8x16x225xi1>
    %227 = linalg.generic {indexing_maps = [#map14, #map15, #map14, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%226, %cst_14, %224 : tensor<8x16x225xi1>, tensor<i8>, tensor<8x16x225xi8>) outs(%178 : tensor<8x16x225xi8>) {
    ^bb0(%in: i1, %in_112: i8, %in_113: i8, %out: i8):
      %354 = arith.select %in, %in_112, %in_113 : i8
      linalg.yield %354 : i8
    } -> tensor<8x16x225xi8>
    %228 = linalg.generic {indexing_maps = [#map14, #map14, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%157, %157 : tensor<8x16x225xf32>, tensor<8x16x225xf32>) outs(%175 : tensor<8x16x225xi1>) {
    ^bb0(%in: f32, %in_112: f32, %out: i1):
      %354 = arith.cmpf une, %in, %in_112 : f32
      linalg.yield %354 : i1
    } -> tensor<8x16x225xi1>
    %229 = linalg.generic {indexing_maps = [#map14, #map13, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%228, %collapsed_75 : tensor<8x16x225xi1>, tensor<225xi1>) outs(%175 : tensor<8x16x225xi1>) {
    ^bb0(%in: i1, %in_112: i1, %out: i1):
      %354 = arith.andi %in, %in_112 : i1
      linalg.yield %354 : i1
    } -> tensor<8x16x225xi1>
    %230 = linalg.generic {indexing_maps = [#map14, #map15, #map14, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%229, %cst_15, %227 : tensor<8x16x225xi1>, tensor<i8>, tensor<8x16x225xi8>) outs(%178 : tensor<8x16x225xi8>) {
    ^bb0(%in: i1, %in_112: i8, %in_113: i8, %out: i8):
      %354 = arith.select %in, %in_112, %in_113 : i8
      linalg.yield %354 : i8
    } -> tensor<8x16x225xi8>
    %231 = linalg.generic {indexing_maps = [#map14, #map14, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%174, %174 : tensor<8x16x225xf32>, tensor<8x16x225xf32>) outs(%175 : tensor<8x16x225xi1>) {
    ^bb0(%in: f32, %in_112: f32, %out: i1):
      %354 = arith.cmpf une, %in, %in_112 : f32
      linalg.yield %354 : i1
    } -> tensor<8x16x225xi1>
    %232 = linalg.generic {indexing_maps = [#map14, #map14, #map14, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%231, %230, %203 : tensor<8x16x225xi1>, tensor<8x16x225xi8>, tensor<8x16x225xi8>) outs(%178 : tensor<8x16x225xi8>) {
    ^bb0(%in: i1, %in_112: i8, %in_113: i8, %out: i8):
      %354 = arith.select %in, %in_112, %in_113 : i8
      linalg.yield %354 : i8
    } -> tensor<8x16x225xi8>
    %collapsed_76 = tensor.collapse_shape %101 [[0], [1], [2, 3]] : tensor<8x16x15x15xf32> into tensor<8x16x225xf32>
    %233 = tensor.empty() : tensor<31xi64>
    %234 = linalg.generic {indexing_maps = [#map6], iterator_types = ["parallel"]} outs(%233 : tensor<31xi64>) {
    ^bb0(%out: i64):
      %354 = linalg.index 0 : index
      %355 = arith.index_cast %354 : index to i64
      linalg.yield %355 : i64
    } -> tensor<31xi64>
    %235 = linalg.generic {indexing_maps = [#map6, #map7, #map6], iterator_types = ["parallel"]} ins(%234, %cst_18 : tensor<31xi64>, tensor<i64>) outs(%233 : tensor<31xi64>) {
    ^bb0(%in: i64, %in_112: i64, %out: i64):
      %354 = arith.sitofp %in : i64 to f64
      %355 = arith.sitofp %in_112 : i64 to f64
      %356 = arith.divf %354, %355 : f64
      %357 = math.floor %356 : f64
      %358 = arith.fptosi %357 : f64 to i64
      linalg.yield %358 : i64
    } -> tensor<31xi64>
    %236 = tensor.empty() : tensor<31xi1>
    %237 = linalg.generic {indexing_maps = [#map6, #map6], iterator_types = ["parallel"]} ins(%234 : tensor<31xi64>) outs(%236 : tensor<31xi1>) {
    ^bb0(%in: i64, %out: i1):
      %354 = arith.cmpi sge, %in, %c0_i64 : i64
      linalg.yield %354 : i1
    } -> tensor<31xi1>
    %238 = linalg.generic {indexing_maps = [#map6, #map6], iterator_types = ["parallel"]} ins(%234 : tensor<31xi64>) outs(%233 : tensor<31xi64>) {
    ^bb0(%in: i64, %out: i64):
      %354 = arith.remsi %in, %c2_i64 : i64
      %355 = arith.cmpi ne, %354, %c0_i64 : i64
      %356 = arith.cmpi slt, %354, %c0_i64 : i64
      %357 = arith.andi %355, %356 : i1
      %358 = arith.addi %354, %c2_i64 : i64
      %359 = arith.select %357, %358, %354 : i64
      linalg.yield %359 : i64
    } -> tensor<31xi64>
    %239 = linalg.generic {indexing_maps = [#map6, #map6], iterator_types = ["parallel"]} ins(%238 : tensor<31xi64>) outs(%236 : tensor<31xi1>) {
    ^bb0(%in: i64, %out: i1):
      %354 = arith.cmpi eq, %in, %c0_i64 : i64
      linalg.yield %354 : i1
    } -> tensor<31xi1>
    %240 = linalg.generic {indexing_maps = [#map6, #map6, #map6], iterator_types = ["parallel"]} ins(%237, %239 : tensor<31xi1>, tensor<31xi1>) outs(%236 : tensor<31xi1>) {
    ^bb0(%in: i1, %in_112: i1, %out: i1):
      %354 = arith.andi %in, %in_112 : i1
      linalg.yield %354 : i1
    } -> tensor<31xi1>
    %241 = linalg.generic {indexing_maps = [#map6, #map6], iterator_types = ["parallel"]} ins(%235 : tensor<31xi64>) outs(%236 : tensor<31xi1>) {
    ^bb0(%in: i64, %out: i1):
      %354 = arith.cmpi slt, %in, %c15_i64 : i64
      linalg.yield %354 : i1
    } -> tensor<31xi1>
    %242 = linalg.generic {indexing_maps = [#map6, #map6, #map6], iterator_types = ["parallel"]} ins(%240, %241 : tensor<31xi1>, tensor<31xi1>) outs(%236 : tensor<31xi1>) {
    ^bb0(%in: i1, %in_112: i1, %out: i1):
      %354 = arith.andi %in, %in_112 : i1
      linalg.yield %354 : i1
    } -> tensor<31xi1>
    %243 = linalg.generic {indexing_maps = [#map6, #map6], iterator_types = ["parallel"]} ins(%235 : tensor<31xi64>) outs(%233 : tensor<31xi64>) {
    ^bb0(%in: i64, %out: i64):
      %354 = arith.maxsi %in, %c0_i64 : i64
      %355 = arith.minsi %354, %c14_i64 : i64
      linalg.yield %355 : i64
    } -> tensor<31xi64>
    %expanded_77 = tensor.expand_shape %243 [[0, 1]] output_shape [31, 1] : tensor<31xi64> into tensor<31x1xi64>
    %244 = tensor.empty() : tensor<31x1xi64>
    %245 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel"]} ins(%expanded_77 : tensor<31x1xi64>) outs(%244 : tensor<31x1xi64>) {
    ^bb0(%in: i64, %out: i64):
      %354 = arith.muli %in, %c15_i64 : i64
      linalg.yield %354 : i64
    } -> tensor<31x1xi64>
    %expanded_78 = tensor.expand_shape %243 [[0, 1]] output_shape [1, 31] : tensor<31xi64> into tensor<1x31xi64>
    %246 = tensor.empty() : tensor<31x31xi64>
    %247 = linalg.generic {indexing_maps = [#map5, #map10, #map2], iterator_types = ["parallel", "parallel"]} ins(%245, %expanded_78 : tensor<31x1xi64>, tensor<1x31xi64>) outs(%246 : tensor<31x31xi64>) {
    ^bb0(%in: i64, %in_112: i64, %out: i64):
      %354 = arith.addi %in, %in_112 : i64
      linalg.yield %354 : i64
    } -> tensor<31x31xi64>
    %collapsed_79 = tensor.collapse_shape %247 [[0, 1]] : tensor<31x31xi64> into tensor<961xi64>
    %expanded_80 = tensor.expand_shape %242 [[0, 1]] output_shape [31, 1] : tensor<31xi1> into tensor<31x1xi1>
    %expanded_81 = tensor.expand_shape %242 [[0, 1]] output_shape [1, 31] : tensor<31xi1> into tensor<1x31xi1>
    %248 = tensor.empty() : tensor<31x31xi1>
    %249 = linalg.generic {indexing_maps = [#map5, #map10, #map2], iterator_types = ["parallel", "parallel"]} ins(%expanded_80, %expanded_81 : tensor<31x1xi1>, tensor<1x31xi1>) outs(%248 : tensor<31x31xi1>) {
    ^bb0(%in: i1, %in_112: i1, %out: i1):
      %354 = arith.andi %in, %in_112 : i1
      linalg.yield %354 : i1
    } -> tensor<31x31xi1>
    %collapsed_82 = tensor.collapse_shape %249 [[0, 1]] : tensor<31x31xi1> into tensor<961xi1>
    %250 = tensor.empty() : tensor<8x16x961xi8>
    %251 = linalg.generic {indexing_maps = [#map13, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_79 : tensor<961xi64>) outs(%250 : tensor<8x16x961xi8>) {
    ^bb0(%in: i64, %out: i8):
      %354 = arith.index_cast %in : i64 to index
      %355 = linalg.index 0 : index
      %356 = linalg.index 1 : index
      %extracted = tensor.extract %232[%355, %356, %354] : tensor<8x16x225xi8>
      linalg.yield %extracted : i8
    } -> tensor<8x16x961xi8>
    %252 = tensor.empty() : tensor<8x16x961xi1>
    %253 = linalg.generic {indexing_maps = [#map14, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%251 : tensor<8x16x961xi8>) outs(%252 : tensor<8x16x961xi1>) {
    ^bb0(%in: i8, %out: i1):
      %354 = arith.extsi %in : i8 to i64
      %355 = arith.cmpi eq, %354, %c0_i64 : i64
      linalg.yield %355 : i1
    } -> tensor<8x16x961xi1>
    %254 = linalg.generic {indexing_maps = [#map14, #map13, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%253, %collapsed_82 : tensor<8x16x961xi1>, tensor<961xi1>) outs(%252 : tensor<8x16x961xi1>) {
    ^bb0(%in: i1, %in_112: i1, %out: i1):
      %354 = arith.andi %in, %in_112 : i1
      linalg.yield %354 : i1
    } -> tensor<8x16x961xi1>
    %255 = tensor.empty() : tensor<8x16x961xf32>
    %256 = linalg.generic {indexing_maps = [#map13, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_79 : tensor<961xi64>) outs(%255 : tensor<8x16x961xf32>) {
    ^bb0(%in: i64, %out: f32):
      %354 = arith.index_cast %in : i64 to index
      %355 = linalg.index 0 : index
      %356 = linalg.index 1 : index
      %extracted = tensor.extract %collapsed_76[%355, %356, %354] : tensor<8x16x225xf32>
      linalg.yield %extracted : f32
    } -> tensor<8x16x961xf32>
    %257 = linalg.generic {indexing_maps = [#map14, #map14, #map15, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%254, %256, %cst_5 : tensor<8x16x961xi1>, tensor<8x16x961xf32>, tensor<f32>) outs(%255 : tensor<8x16x961xf32>) {
    ^bb0(%in: i1, %in_112: f32, %in_113: f32, %out: f32):
      %354 = arith.select %in, %in_112, %in_113 : f32
      linalg.yield %354 : f32
    } -> tensor<8x16x961xf32>
    %258 = linalg.generic {indexing_maps = [#map6, #map6], iterator_types = ["parallel"]} ins(%234 : tensor<31xi64>) outs(%233 : tensor<31xi64>) {
    ^bb0(%in: i64, %out: i64):
      %354 = arith.subi %in, %c1_i64 : i64
      linalg.yield %354 : i64
    } -> tensor<31xi64>
    %259 = linalg.generic {indexing_maps = [#map6, #map7, #map6], iterator_types = ["parallel"]} ins(%258, %cst_18 : tensor<31xi64>, tensor<i64>) outs(%233 : tensor<31xi64>) {
    ^bb0(%in: i64, %in_112: i64, %out: i64):
      %354 = arith.sitofp %in : i64 to f64
      %355 = arith.sitofp %in_112 : i64 to f64
      %356 = arith.divf %354, %355 : f64
      %357 = math.floor %356 : f64
      %358 = arith.fptosi %357 : f64 to i64
      linalg.yield %358 : i64
    } -> tensor<31xi64>
    %260 = linalg.generic {indexing_maps = [#map6, #map6], iterator_types = ["parallel"]} ins(%258 : tensor<31xi64>) outs(%236 : tensor<31xi1>) {
    ^bb0(%in: i64, %out: i1):
      %354 = arith.cmpi sge, %in, %c0_i64 : i64
      linalg.yield %354 : i1
    } -> tensor<31xi1>
    %261 = linalg.generic {indexing_maps = [#map6, #map6], iterator_types = ["parallel"]} ins(%258 : tensor<31xi64>) outs(%233 : tensor<31xi64>) {
    ^bb0(%in: i64, %out: i64):
      %354 = arith.remsi %in, %c2_i64 : i64
      %355 = arith.cmpi ne, %354, %c0_i64 : i64
      %356 = arith.cmpi slt, %354, %c0_i64 : i64
      %357 = arith.andi %355, %356 : i1
      %358 = arith.addi %354, %c2_i64 : i64
      %359 = arith.select %357, %358, %354 : i64
      linalg.yield %359 : i64
    } -> tensor<31xi64>
    %262 = linalg.generic {indexing_maps = [#map6, #map6], iterator_types = ["parallel"]} ins(%261 : tensor<31xi64>) outs(%236 : tensor<31xi1>) {
    ^bb0(%in: i64, %out: i1):
      %354 = arith.cmpi eq, %in, %c0_i64 : i64
      linalg.yield %354 : i1
    } -> tensor<31xi1>
    %263 = linalg.generic {indexing_maps = [#map6, #map6, #map6], iterator_types = ["parallel"]} ins(%260, %262 : tensor<31xi1>, tensor<31xi1>) outs(%236 : tensor<31xi1>) {
    ^bb0(%in: i1, %in_112: i1, %out: i1):
      %354 = arith.andi %in, %in_112 : i1
      linalg.yield %354 : i1
    } -> tensor<31xi1>
    %264 = linalg.generic {indexing_maps = [#map6, #map6], iterator_types = ["parallel"]} ins(%259 : tensor<31xi64>) outs(%236 : tensor<31xi1>) {
    ^bb0(%in: i64, %out: i1):
      %354 = arith.cmpi slt, %in, %c15_i64 : i64
      linalg.yield %354 : i1
    } -> tensor<31xi1>
    %265 = linalg.generic {indexing_maps = [#map6, #map6, #map6], iterator_types = ["parallel"]} ins(%263, %264 : tensor<31xi1>, tensor<31xi1>) outs(%236 : tensor<31xi1>) {
    ^bb0(%in: i1, %in_112: i1, %out: i1):
      %354 = arith.andi %in, %in_112 : i1
      linalg.yield %354 : i1
    } -> tensor<31xi1>
    %266 = linalg.generic {indexing_maps = [#map6, #map6], iterator_types = ["parallel"]} ins(%259 : tensor<31xi64>) outs(%233 : tensor<31xi64>) {
    ^bb0(%in: i64, %out: i64):
      %354 = arith.maxsi %in, %c0_i64 : i64
      %355 = arith.minsi %354, %c14_i64 : i64
      linalg.yield %355 : i64
    } -> tensor<31xi64>
    %expanded_83 = tensor.expand_shape %266 [[0, 1]] output_shape [1, 31] : tensor<31xi64> into tensor<1x31xi64>
    %267 = linalg.generic {indexing_maps = [#map5, #map10, #map2], iterator_types = ["parallel", "parallel"]} ins(%245, %expanded_83 : tensor<31x1xi64>, tensor<1x31xi64>) outs(%246 : tensor<31x31xi64>) {
    ^bb0(%in: i64, %in_112: i64, %out: i64):
      %354 = arith.addi %in, %in_112 : i64
      linalg.yield %354 : i64
    } -> tensor<31x31xi64>
    %collapsed_84 = tensor.collapse_shape %267 [[0, 1]] : tensor<31x31xi64> into tensor<961xi64>
    %expanded_85 = tensor.expand_shape %265 [[0, 1]] output_shape [1, 31] : tensor<31xi1> into tensor<1x31xi1>
    %268 = linalg.generic {indexing_maps = [#map5, #map10, #map2], iterator_types = ["parallel", "parallel"]} ins(%expanded_80, %expanded_85 : tensor<31x1xi1>, tensor<1x31xi1>) outs(%248 : tensor<31x31xi1>) {
    ^bb0(%in: i1, %in_112: i1, %out: i1):
      %354 = arith.andi %in, %in_112 : i1
      linalg.yield %354 : i1
    } -> tensor<31x31xi1>
    %collapsed_86 = tensor.collapse_shape %268 [[0, 1]] : tensor<31x31xi1> into tensor<961xi1>
    %269 = linalg.generic {indexing_maps = [#map13, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_84 : tensor<961xi64>) outs(%250 : tensor<8x16x961xi8>) {
    ^bb0(%in: i64, %out: i8):
      %354 = arith.index_cast %in : i64 to index
      %355 = linalg.index 0 : index
      %356 = linalg.index 1 : index
      %extracted = tensor.extract %232[%355, %356, %354] : tensor<8x16x225xi8>
      linalg.yield %extracted : i8
    } -> tensor<8x16x961xi8>
    %270 = linalg.generic {indexing_maps = [#map14, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%269 : tensor<8x16x961xi8>) outs(%252 : tensor<8x16x961xi1>) {
    ^bb0(%in: i8, %out: i1):
      %354 = arith.extsi %in : i8 to i64
      %355 = arith.cmpi eq, %354, %c1_i64 : i64
      linalg.yield %355 : i1
    } -> tensor<8x16x961xi1>
    %271 = linalg.generic {indexing_maps = [#map14, #map13, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%270, %collapsed_86 : tensor<8x16x961xi1>, tensor<961xi1>) outs(%252 : tensor<8x16x961xi1>) {
    ^bb0(%in: i1, %in_112: i1, %out: i1):
      %354 = arith.andi %in, %in_112 : i1
      linalg.yield %354 : i1
    } -> tensor<8x16x961xi1>
    %272 = linalg.generic {indexing_maps = [#map13, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_84 : tensor<961xi64>) outs(%255 : tensor<8x16x961xf32>) {
    ^bb0(%in: i64, %out: f32):
      %354 = arith.index_cast %in : i64 to index
      %355 = linalg.index 0 : index
      %356 = linalg.index 1 : index
      %extracted = tensor.extract %collapsed_76[%355, %356, %354] : tensor<8x16x225xf32>
      linalg.yield %extracted : f32
    } -> tensor<8x16x961xf32>
    %273 = linalg.generic {indexing_maps = [#map14, #map14, #map15, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%271, %272, %cst_5 : tensor<8x16x961xi1>, tensor<8x16x961xf32>, tensor<f32>) outs(%255 : tensor<8x16x961xf32>) {
    ^bb0(%in: i1, %in_112: f32, %in_113: f32, %out: f32):
      %354 = arith.select %in, %in_112, %in_113 : f32
      linalg.yield %354 : f32
    } -> tensor<8x16x961xf32>
    %274 = linalg.generic {indexing_maps = [#map14, #map14, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%257, %273 : tensor<8x16x961xf32>, tensor<8x16x961xf32>) outs(%255 : tensor<8x16x961xf32>) {
    ^bb0(%in: f32, %in_112: f32, %out: f32):
      %354 = arith.addf %in, %in_112 : f32
      linalg.yield %354 : f32
    } -> tensor<8x16x961xf32>
    %275 = linalg.generic {indexing_maps = [#map6, #map6], iterator_types = ["parallel"]} ins(%234 : tensor<31xi64>) outs(%233 : tensor<31xi64>) {
    ^bb0(%in: i64, %out: i64):
      %354 = arith.subi %in, %c2_i64 : i64
      linalg.yield %354 : i64
    } -> tensor<31xi64>
    %276 = linalg.generic {indexing_maps = [#map6, #map7, #map6], iterator_types = ["parallel"]} ins(%275, %cst_18 : tensor<31xi64>, tensor<i64>) outs(%233 : tensor<31xi64>) {
    ^bb0(%in: i64, %in_112: i64, %out: i64):
      %354 = arith.sitofp %in : i64 to f64
      %355 = arith.sitofp %in_112 : i64 to f64
      %356 = arith.divf %354, %355 : f64
      %357 = math.floor %356 : f64
      %358 = arith.fptosi %357 : f64 to i64
      linalg.yield %358 : i64
    } -> tensor<31xi64>
    %277 = linalg.generic {indexing_maps = [#map6, #map6], iterator_types = ["parallel"]} ins(%275 : tensor<31xi64>) outs(%236 : tensor<31xi1>) {
    ^bb0(%in: i64, %out: i1):
      %354 = arith.cmpi sge, %in, %c0_i64 : i64
      linalg.yield %354 : i1
    } -> tensor<31xi1>
    %278 = linalg.generic {indexing_maps = [#map6, #map6], iterator_types = ["parallel"]} ins(%275 : tensor<31xi64>) outs(%233 : tensor<31xi64>) {
    ^bb0(%in: i64, %out: i64):
      %354 = arith.remsi %in, %c2_i64 : i64
      %355 = arith.cmpi ne, %354, %c0_i64 : i64
      %356 = arith.cmpi slt, %354, %c0_i64 : i64
      %357 = arith.andi %355, %356 : i1
      %358 = arith.addi %354, %c2_i64 : i64
      %359 = arith.select %357, %358, %354 : i64
      linalg.yield %359 : i64
    } -> tensor<31xi64>
    %279 = linalg.generic {indexing_maps = [#map6, #map6], iterator_types = ["parallel"]} ins(%278 : tensor<31xi64>) outs(%236 : tensor<31xi1>) {
    ^bb0(%in: i64, %out: i1):
      %354 = arith.cmpi eq, %in, %c0_i64 : i64
      linalg.yield %354 : i1
    } -> tensor<31xi1>
    %280 = linalg.generic {indexing_maps = [#map6, #map6, #map6], iterator_types = ["parallel"]} ins(%277, %279 : tensor<31xi1>, tensor<31xi1>) outs(%236 : tensor<31xi1>) {
    ^bb0(%in: i1, %in_112: i1, %out: i1):
      %354 = arith.andi %in, %in_112 : i1
      linalg.yield %354 : i1
    } -> tensor<31xi1>
    %281 = linalg.generic {indexing_maps = [#map6, #map6], iterator_types = ["parallel"]} ins(%276 : tensor<31xi64>) outs(%236 : tensor<31xi1>) {
    ^bb0(%in: i64, %out: i1):
      %354 = arith.cmpi slt, %in, %c15_i64 : i64
      linalg.yield %354 : i1
    } -> tensor<31xi1>
    %282 = linalg.generic {indexing_maps = [#map6, #map6, #map6], iterator_types = ["parallel"]} ins(%280, %281 : tensor<31xi1>, tensor<31xi1>) outs(%236 : tensor<31xi1>) {
    ^bb0(%in: i1, %in_112: i1, %out: i1):
      %354 = arith.andi %in, %in_112 : i1
      linalg.yield %354 : i1
    } -> tensor<31xi1>
    %283 = linalg.generic {indexing_maps = [#map6, #map6], iterator_types = ["parallel"]} ins(%276 : tensor<31xi64>) outs(%233 : tensor<31xi64>) {
    ^bb0(%in: i64, %out: i64):
      %354 = arith.maxsi %in, %c0_i64 : i64
      %355 = arith.minsi %354, %c14_i64 : i64
      linalg.yield %355 : i64
    } -> tensor<31xi64>
    %expanded_87 = tensor.expand_shape %283 [[0, 1]] output_shape [1, 31] : tensor<31xi64> into tensor<1x31xi64>
    %284 = linalg.generic {indexing_maps = [#map5, #map10, #map2], iterator_types = ["parallel", "parallel"]} ins(%245, %expanded_87 : tensor<31x1xi64>, tensor<1x31xi64>) outs(%246 : tensor<31x31xi64>) {
    ^bb0(%in: i64, %in_112: i64, %out: i64):
      %354 = arith.addi %in, %in_112 : i64
      linalg.yield %354 : i64
    } -> tensor<31x31xi64>
    %collapsed_88 = tensor.collapse_shape %284 [[0, 1]] : tensor<31x31xi64> into tensor<961xi64>
    %expanded_89 = tensor.expand_shape %282 [[0, 1]] output_shape [1, 31] : tensor<31xi1> into tensor<1x31xi1>
    %285 = linalg.generic {indexing_maps = [#map5, #map10, #map2], iterator_types = ["parallel", "parallel"]} ins(%expanded_80, %expanded_89 : tensor<31x1xi1>, tensor<1x31xi1>) outs(%248 : tensor<31x31xi1>) {
    ^bb0(%in: i1, %in_112: i1, %out: i1):
      %354 = arith.andi %in, %in_112 : i1
      linalg.yield %354 : i1
    } -> tensor<31x31xi1>
    %collapsed_90 = tensor.collapse_shape %285 [[0, 1]] : tensor<31x31xi1> into tensor<961xi1>
    %286 = linalg.generic {indexing_maps = [#map13, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_88 : tensor<961xi64>) outs(%250 : tensor<8x16x961xi8>) {
    ^bb0(%in: i64, %out: i8):
      %354 = arith.index_cast %in : i64 to index
      %355 = linalg.index 0 : index
      %356 = linalg.index 1 : index
      %extracted = tensor.extract %232[%355, %356, %354] : tensor<8x16x225xi8>
      linalg.yield %extracted : i8
    } -> tensor<8x16x961xi8>
    %287 = linalg.generic {indexing_maps = [#map14, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%286 : tensor<8x16x961xi8>) outs(%252 : tensor<8x16x961xi1>) {
    ^bb0(%in: i8, %out: i1):
      %354 = arith.extsi %in : i8 to i64
      %355 = arith.cmpi eq, %354, %c2_i64 : i64
      linalg.yield %355 : i1
    } -> tensor<8x16x961xi1>
    %288 = linalg.generic {indexing_maps = [#map14, #map13, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%287, %collapsed_90 : tensor<8x16x961xi1>, tensor<961xi1>) outs(%252 : tensor<8x16x961xi1>) {
    ^bb0(%in: i1, %in_112: i1, %out: i1):
      %354 = arith.andi %in, %in_112 : i1
      linalg.yield %354 : i1
    } -> tensor<8x16x961xi1>
    %289 = linalg.generic {indexing_maps = [#map13, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_88 : tensor<961xi64>) outs(%255 : tensor<8x16x961xf32>) {
    ^bb0(%in: i64, %out: f32):
      %354 = arith.index_cast %in : i64 to index
      %355 = linalg.index 0 : index
      %356 = linalg.index 1 : index
      %extracted = tensor.extract %collapsed_76[%355, %356, %354] : tensor<8x16x225xf32>
      linalg.yield %extracted : f32
    } -> tensor<8x16x961xf32>
    %290 = linalg.generic {indexing_maps = [#map14, #map14, #map15, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%288, %289, %cst_5 : tensor<8x16x961xi1>, tensor<8x16x961xf32>, tensor<f32>) outs(%255 : tensor<8x16x961xf32>) {
    ^bb0(%in: i1, %in_112: f32, %in_113: f32, %out: f32):
      %354 = arith.select %in, %in_112, %in_113 : f32
      linalg.yield %354 : f32
    } -> tensor<8x16x961xf32>
    %291 = linalg.generic {indexing_maps = [#map14, #map14, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%274, %290 : tensor<8x16x961xf32>, tensor<8x16x961xf32>) outs(%255 : tensor<8x16x961xf32>) {
    ^bb0(%in: f32, %in_112: f32, %out: f32):
      %354 = arith.addf %in, %in_112 : f32
      linalg.yield %354 : f32
    } -> tensor<8x16x961xf32>
    %expanded_91 = tensor.expand_shape %266 [[0, 1]] output_shape [31, 1] : tensor<31xi64> into tensor<31x1xi64>
    %292 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel"]} ins(%expanded_91 : tensor<31x1xi64>) outs(%244 : tensor<31x1xi64>) {
    ^bb0(%in: i64, %out: i64):
      %354 = arith.muli %in, %c15_i64 : i64
      linalg.yield %354 : i64
    } -> tensor<31x1xi64>
    %293 = linalg.generic {indexing_maps = [#map5, #map10, #map2], iterator_types = ["parallel", "parallel"]} ins(%292, %expanded_78 : tensor<31x1xi64>, tensor<1x31xi64>) outs(%246 : tensor<31x31xi64>) {
    ^bb0(%in: i64, %in_112: i64, %out: i64):
      %354 = arith.addi %in, %in_112 : i64
      linalg.yield %354 : i64
    } -> tensor<31x31xi64>
    %collapsed_92 = tensor.collapse_shape %293 [[0, 1]] : tensor<31x31xi64> into tensor<961xi64>
    %expanded_93 = tensor.expand_shape %265 [[0, 1]] output_shape [31, 1] : tensor<31xi1> into tensor<31x1xi1>
    %294 = linalg.generic {indexing_maps = [#map5, #map10, #map2], iterator_types = ["parallel", "parallel"]} ins(%expanded_93, %expanded_81 : tensor<31x1xi1>, tensor<1x31xi1>) outs(%248 : tensor<31x31xi1>) {
    ^bb0(%in: i1, %in_112: i1, %out: i1):
      %354 = arith.andi %in, %in_112 : i1
      linalg.yield %354 : i1
    } -> tensor<31x31xi1>
    %collapsed_94 = tensor.collapse_shape %294 [[0, 1]] : tensor<31x31xi1> into tensor<961xi1>
    %295 = linalg.generic {indexing_maps = [#map13, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_92 : tensor<961xi64>) outs(%250 : tensor<8x16x961xi8>) {
    ^bb0(%in: i64, %out: i8):
      %354 = arith.index_cast %in : i64 to index
      %355 = linalg.index 0 : index
      %356 = linalg.index 1 : index
      %extracted = tensor.extract %232[%355, %356, %354] : tensor<8x16x225xi8>
      linalg.yield %extracted : i8
    } -> tensor<8x16x961xi8>
    %296 = linalg.generic {indexing_maps = [#map14, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%295 : tensor<8x16x961xi8>) outs(%252 : tensor<8x16x961xi1>) {
    ^bb0(%in: i8, %out: i1):
      %354 = arith.extsi %in : i8 to i64
      %355 = arith.cmpi eq, %354, %c3_i64 : i64
      linalg.yield %355 : i1
    } -> tensor<8x16x961xi1>
    %297 = linalg.generic {indexing_maps = [#map14, #map13, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%296, %collapsed_94 : tensor<8x16x961xi1>, tensor<961xi1>) outs(%252 : tensor<8x16x961xi1>) {
    ^bb0(%in: i1, %in_112: i1, %out: i1):
      %354 = arith.andi %in, %in_112 : i1
      linalg.yield %354 : i1
    } -> tensor<8x16x961xi1>
    %298 = linalg.generic {indexing_maps = [#map13, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_92 : tensor<961xi64>) outs(%255 : tensor<8x16x961xf32>) {
    ^bb0(%in: i64, %out: f32):
      %354 = arith.index_cast %in : i64 to index
      %355 = linalg.index 0 : index
      %356 = linalg.index 1 : index
      %extracted = tensor.extract %collapsed_76[%355, %356, %354] : tensor<8x16x225xf32>
      linalg.yield %extracted : f32
    } -> tensor<8x16x961xf32>
    %299 = linalg.generic {indexing_maps = [#map14, #map14, #map15, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%297, %298, %cst_5 : tensor<8x16x961xi1>, tensor<8x16x961xf32>, tensor<f32>) outs(%255 : tensor<8x16x961xf32>) {
    ^bb0(%in: i1, %in_112: f32, %in_113: f32, %out: f32):
      %354 = arith.select %in, %in_112, %in_113 : f32
      linalg.yield %354 : f32
    } -> tensor<8x16x961xf32>
    %300 = linalg.generic {indexing_maps = [#map14, #map14, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%291, %299 : tensor<8x16x961xf32>, tensor<8x16x961xf32>) outs(%255 : tensor<8x16x961xf32>) {
    ^bb0(%in: f32, %in_112: f32, %out: f32):
      %354 = arith.addf %in, %in_112 : f32
      linalg.yield %354 : f32
    } -> tensor<8x16x961xf32>
    %301 = linalg.generic {indexing_maps = [#map5, #map10, #map2], iterator_types = ["parallel", "parallel"]} ins(%292, %expanded_83 : tensor<31x1xi64>, tensor<1x31xi64>) outs(%246 : tensor<31x31xi64>) {
    ^bb0(%in: i64, %in_112: i64, %out: i64):
      %354 = arith.addi %in, %in_112 : i64
      linalg.yield %354 : i64
    } -> tensor<31x31xi64>
    %collapsed_95 = tensor.collapse_shape %301 [[0, 1]] : tensor<31x31xi64> into tensor<961xi64>
    %302 = linalg.generic {indexing_maps = [#map5, #map10, #map2], iterator_types = ["parallel", "parallel"]} ins(%expanded_93, %expanded_85 : tensor<31x1xi1>, tensor<1x31xi1>) outs(%248 : tensor<31x31xi1>) {
    ^bb0(%in: i1, %in_112: i1, %out: i1):
      %354 = arith.andi %in, %in_112 : i1
      linalg.yield %354 : i1
    } -> tensor<31x31xi1>
    %collapsed_96 = tensor.collapse_shape %302 [[0, 1]] : tensor<31x31xi1> into tensor<961xi1>
    %303 = linalg.generic {indexing_maps = [#map13, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_95 : tensor<961xi64>) outs(%250 : tensor<8x16x961xi8>) {
    ^bb0(%in: i64, %out: i8):
      %354 = arith.index_cast %in : i64 to index
      %355 = linalg.index 0 : index
      %356 = linalg.index 1 : index
      %extracted = tensor.extract %232[%355, %356, %354] : tensor<8x16x225xi8>
      linalg.yield %extracted : i8
    } -> tensor<8x16x961xi8>
    %304 = linalg.generic {indexing_maps = [#map14, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%303 : tensor<8x16x961xi8>) outs(%252 : tensor<8x16x961xi1>) {
    ^bb0(%in: i8, %out: i1):
      %354 = arith.extsi %in : i8 to i64
      %355 = arith.cmpi eq, %354, %c4_i64 : i64
      linalg.yield %355 : i1
    } -> tensor<8x16x961xi1>
    %305 = linalg.generic {indexing_maps = [#map14, #map13, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%304, %collapsed_96 : tensor<8x16x961xi1>, tensor<961xi1>) outs(%252 : tensor<8x16x961xi1>) {
    ^bb0(%in: i1, %in_112: i1, %out: i1):
      %354 = arith.andi %in, %in_112 : i1
      linalg.yield %354 : i1
    } -> tensor<8x16x961xi1>
    %306 = linalg.generic {indexing_maps = [#map13, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_95 : tensor<961xi64>) outs(%255 : tensor<8x16x961xf32>) {
    ^bb0(%in: i64, %out: f32):
      %354 = arith.index_cast %in : i64 to index
      %355 = linalg.index 0 : index
      %356 = linalg.index 1 : index
      %extracted = tensor.extract %collapsed_76[%355, %356, %354] : tensor<8x16x225xf32>
      linalg.yield %extracted : f32
    } -> tensor<8x16x961xf32>
    %307 = linalg.generic {indexing_maps = [#map14, #map14, #map15, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%305, %306, %cst_5 : tensor<8x16x961xi1>, tensor<8x16x961xf32>, tensor<f32>) outs(%255 : tensor<8x16x961xf32>) {
    ^bb0(%in: i1, %in_112: f32, %in_113: f32, %out: f32):
      %354 = arith.select %in, %in_112, %in_113 : f32
      linalg.yield %354 : f32
    } -> tensor<8x16x961xf32>
    %308 = linalg.generic {indexing_maps = [#map14, #map14, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%300, %307 : tensor<8x16x961xf32>, tensor<8x16x961xf32>) outs(%255 : tensor<8x16x961xf32>) {
    ^bb0(%in: f32, %in_112: f32, %out: f32):
      %354 = arith.addf %in, %in_112 : f32
      linalg.yield %354 : f32
    } -> tensor<8x16x961xf32>
    %309 = linalg.generic {indexing_maps = [#map5, #map10, #map2], iterator_types = ["parallel", "parallel"]} ins(%292, %expanded_87 : tensor<31x1xi64>, tensor<1x31xi64>) outs(%246 : tensor<31x31xi64>) {
    ^bb0(%in: i64, %in_112: i64, %out: i64):
      %354 = arith.addi %in, %in_112 : i64
      linalg.yield %354 : i64
    } -> tensor<31x31xi64>
    %collapsed_97 = tensor.collapse_shape %309 [[0, 1]] : tensor<31x31xi64> into tensor<961xi64>
    %310 = linalg.generic {indexing_maps = [#map5, #map10, #map2], iterator_types = ["parallel", "parallel"]} ins(%expanded_93, %expanded_89 : tensor<31x1xi1>, tensor<1x31xi1>) outs(%248 : tensor<31x31xi1>) {
    ^bb0(%in: i1, %in_112: i1, %out: i1):
      %354 = arith.andi %in, %in_112 : i1
      linalg.yield %354 : i1
    } -> tensor<31x31xi1>
    %collapsed_98 = tensor.collapse_shape %310 [[0, 1]] : tensor<31x31xi1> into tensor<961xi1>
    %311 = linalg.generic {indexing_maps = [#map13, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_97 : tensor<961xi64>) outs(%250 : tensor<8x16x961xi8>) {
    ^bb0(%in: i64, %out: i8):
      %354 = arith.index_cast %in : i64 to index
      %355 = linalg.index 0 : index
      %356 = linalg.index 1 : index
      %extracted = tensor.extract %232[%355, %356, %354] : tensor<8x16x225xi8>
      linalg.yield %extracted : i8
    } -> tensor<8x16x961xi8>
    %312 = linalg.generic {indexing_maps = [#map14, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%311 : tensor<8x16x961xi8>) outs(%252 : tensor<8x16x961xi1>) {
    ^bb0(%in: i8, %out: i1):
      %354 = arith.extsi %in : i8 to i64
      %355 = arith.cmpi eq, %354, %c5_i64 : i64
      linalg.yield %355 : i1
    } -> tensor<8x16x961xi1>
    %313 = linalg.generic {indexing_maps = [#map14, #map13, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%312, %collapsed_98 : tensor<8x16x961xi1>, tensor<961xi1>) outs(%252 : tensor<8x16x961xi1>) {
    ^bb0(%in: i1, %in_112: i1, %out: i1):
      %354 = arith.andi %in, %in_112 : i1
      linalg.yield %354 : i1
    } -> tensor<8x16x961xi1>
    %314 = linalg.generic {indexing_maps = [#map13, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_97 : tensor<961xi64>) outs(%255 : tensor<8x16x961xf32>) {
    ^bb0(%in: i64, %out: f32):
      %354 = arith.index_cast %in : i64 to index
      %355 = linalg.index 0 : index
      %356 = linalg.index 1 : index
      %extracted = tensor.extract %collapsed_76[%355, %356, %354] : tensor<8x16x225xf32>
      linalg.yield %extracted : f32
    } -> tensor<8x16x961xf32>
    %315 = linalg.generic {indexing_maps = [#map14, #map14, #map15, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%313, %314, %cst_5 : tensor<8x16x961xi1>, tensor<8x16x961xf32>, tensor<f32>) outs(%255 : tensor<8x16x961xf32>) {
    ^bb0(%in: i1, %in_112: f32, %in_113: f32, %out: f32):
      %354 = arith.select %in, %in_112, %in_113 : f32
      linalg.yield %354 : f32
    } -> tensor<8x16x961xf32>
    %316 = linalg.generic {indexing_maps = [#map14, #map14, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%308, %315 : tensor<8x16x961xf32>, tensor<8x16x961xf32>) outs(%255 : tensor<8x16x961xf32>) {
    ^bb0(%in: f32, %in_112: f32, %out: f32):
      %354 = arith.addf %in, %in_112 : f32
      linalg.yield %354 : f32
    } -> tensor<8x16x961xf32>
    %expanded_99 = tensor.expand_shape %283 [[0, 1]] output_shape [31, 1] : tensor<31xi64> into tensor<31x1xi64>
    %317 = linalg.generic {indexing_maps = [#map2, #map2], iterator_types = ["parallel", "parallel"]} ins(%expanded_99 : tensor<31x1xi64>) outs(%244 : tensor<31x1xi64>) {
    ^bb0(%in: i64, %out: i64):
      %354 = arith.muli %in, %c15_i64 : i64
      linalg.yield %354 : i64
    } -> tensor<31x1xi64>
    %318 = linalg.generic {indexing_maps = [#map5, #map10, #map2], iterator_types = ["parallel", "parallel"]} ins(%317, %expanded_78 : tensor<31x1xi64>, tensor<1x31xi64>) outs(%246 : tensor<31x31xi64>) {
    ^bb0(%in: i64, %in_112: i64, %out: i64):
      %354 = arith.addi %in, %in_112 : i64
      linalg.yield %354 : i64
    } -> tensor<31x31xi64>
    %collapsed_100 = tensor.collapse_shape %318 [[0, 1]] : tensor<31x31xi64> into tensor<961xi64>
    %expanded_101 = tensor.expand_shape %282 [[0, 1]] output_shape [31, 1] : tensor<31xi1> into tensor<31x1xi1>
    %319 = linalg.generic {indexing_maps = [#map5, #map10, #map2], iterator_types = ["parallel", "parallel"]} ins(%expanded_101, %expanded_81 : tensor<31x1xi1>, tensor<1x31xi1>) outs(%248 : tensor<31x31xi1>) {
    ^bb0(%in: i1, %in_112: i1, %out: i1):
      %354 = arith.andi %in, %in_112 : i1
      linalg.yield %354 : i1
    } -> tensor<31x31xi1>
    %collapsed_102 = tensor.collapse_shape %319 [[0, 1]] : tensor<31x31xi1> into tensor<961xi1>
    %320 = linalg.generic {indexing_maps = [#map13, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_100 : tensor<961xi64>) outs(%250 : tensor<8x16x961xi8>) {
    ^bb0(%in: i64, %out: i8):
      %354 = arith.index_cast %in : i64 to index
      %355 = linalg.index 0 : index
      %356 = linalg.index 1 : index
      %extracted = tensor.extract %232[%355, %356, %354] : tensor<8x16x225xi8>
      linalg.yield %extracted : i8
    } -> tensor<8x16x961xi8>
    %321 = linalg.generic {indexing_maps = [#map14, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%320 : tensor<8x16x961xi8>) outs(%252 : tensor<8x16x961xi1>) {
    ^bb0(%in: i8, %out: i1):
      %354 = arith.extsi %in : i8 to i64
      %355 = arith.cmpi eq, %354, %c6_i64 : i64
      linalg.yield %355 : i1
    } -> tensor<8x16x961xi1>
    %322 = linalg.generic {indexing_maps = [#map14, #map13, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%321, %collapsed_102 : tensor<8x16x961xi1>, tensor<961xi1>) outs(%252 : tensor<8x16x961xi1>) {
    ^bb0(%in: i1, %in_112: i1, %out: i1):
      %354 = arith.andi %in, %in_112 : i1
      linalg.yield %354 : i1
    } -> tensor<8x16x961xi1>
    %323 = linalg.generic {indexing_maps = [#map13, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_100 : tensor<961xi64>) outs(%255 : tensor<8x16x961xf32>) {
    ^bb0(%in: i64, %out: f32):
      %354 = arith.index_cast %in : i64 to index
      %355 = linalg.index 0 : index
      %356 = linalg.index 1 : index
      %extracted = tensor.extract %collapsed_76[%355, %356, %354] : tensor<8x16x225xf32>
      linalg.yield %extracted : f32
    } -> tensor<8x16x961xf32>
    %324 = linalg.generic {indexing_maps = [#map14, #map14, #map15, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%322, %323, %cst_5 : tensor<8x16x961xi1>, tensor<8x16x961xf32>, tensor<f32>) outs(%255 : tensor<8x16x961xf32>) {
    ^bb0(%in: i1, %in_112: f32, %in_113: f32, %out: f32):
      %354 = arith.select %in, %in_112, %in_113 : f32
      linalg.yield %354 : f32
    } -> tensor<8x16x961xf32>
    %325 = linalg.generic {indexing_maps = [#map14, #map14, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%316, %324 : tensor<8x16x961xf32>, tensor<8x16x961xf32>) outs(%255 : tensor<8x16x961xf32>) {
    ^bb0(%in: f32, %in_112: f32, %out: f32):
      %354 = arith.addf %in, %in_112 : f32
      linalg.yield %354 : f32
    } -> tensor<8x16x961xf32>
    %326 = linalg.generic {indexing_maps = [#map5, #map10, #map2], iterator_types = ["parallel", "parallel"]} ins(%317, %expanded_83 : tensor<31x1xi64>, tensor<1x31xi64>) outs(%246 : tensor<31x31xi64>) {
    ^bb0(%in: i64, %in_112: i64, %out: i64):
      %354 = arith.addi %in, %in_112 : i64
      linalg.yield %354 : i64
    } -> tensor<31x31xi64>
    %collapsed_103 = tensor.collapse_shape %326 [[0, 1]] : tensor<31x31xi64> into tensor<961xi64>
    %327 = linalg.generic {indexing_maps = [#map5, #map10, #map2], iterator_types = ["parallel", "parallel"]} ins(%expanded_101, %expanded_85 : tensor<31x1xi1>, tensor<1x31xi1>) outs(%248 : tensor<31x31xi1>) {
    ^bb0(%in: i1, %in_112: i1, %out: i1):
      %354 = arith.andi %in, %in_112 : i1
      linalg.yield %354 : i1
    } -> tensor<31x31xi1>
    %collapsed_104 = tensor.collapse_shape %327 [[0, 1]] : tensor<31x31xi1> into tensor<961xi1>
    %328 = linalg.generic {indexing_maps = [#map13, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_103 : tensor<961xi64>) outs(%250 : tensor<8x16x961xi8>) {
    ^bb0(%in: i64, %out: i8):
      %354 = arith.index_cast %in : i64 to index
      %355 = linalg.index 0 : index
      %356 = linalg.index 1 : index
      %extracted = tensor.extract %232[%355, %356, %354] : tensor<8x16x225xi8>
      linalg.yield %extracted : i8
    } -> tensor<8x16x961xi8>
    %329 = linalg.generic {indexing_maps = [#map14, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%328 : tensor<8x16x961xi8>) outs(%252 : tensor<8x16x961xi1>) {
    ^bb0(%in: i8, %out: i1):
      %354 = arith.extsi %in : i8 to i64
      %355 = arith.cmpi eq, %354, %c7_i64 : i64
      linalg.yield %355 : i1
    } -> tensor<8x16x961xi1>
    %330 = linalg.generic {indexing_maps = [#map14, #map13, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%329, %collapsed_104 : tensor<8x16x961xi1>, tensor<961xi1>) outs(%252 : tensor<8x16x961xi1>) {
    ^bb0(%in: i1, %in_112: i1, %out: i1):
      %354 = arith.andi %in, %in_112 : i1
      linalg.yield %354 : i1
    } -> tensor<8x16x961xi1>
    %331 = linalg.generic {indexing_maps = [#map13, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_103 : tensor<961xi64>) outs(%255 : tensor<8x16x961xf32>) {
    ^bb0(%in: i64, %out: f32):
      %354 = arith.index_cast %in : i64 to index
      %355 = linalg.index 0 : index
      %356 = linalg.index 1 : index
      %extracted = tensor.extract %collapsed_76[%355, %356, %354] : tensor<8x16x225xf32>
      linalg.yield %extracted : f32
    } -> tensor<8x16x961xf32>
    %332 = linalg.generic {indexing_maps = [#map14, #map14, #map15, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%330, %331, %cst_5 : tensor<8x16x961xi1>, tensor<8x16x961xf32>, tensor<f32>) outs(%255 : tensor<8x16x961xf32>) {
    ^bb0(%in: i1, %in_112: f32, %in_113: f32, %out: f32):
      %354 = arith.select %in, %in_112, %in_113 : f32
      linalg.yield %354 : f32
    } -> tensor<8x16x961xf32>
    %333 = linalg.generic {indexing_maps = [#map14, #map14, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%325, %332 : tensor<8x16x961xf32>, tensor<8x16x961xf32>) outs(%255 : tensor<8x16x961xf32>) {
    ^bb0(%in: f32, %in_112: f32, %out: f32):
      %354 = arith.addf %in, %in_112 : f32
      linalg.yield %354 : f32
    } -> tensor<8x16x961xf32>
    %334 = linalg.generic {indexing_maps = [#map5, #map10, #map2], iterator_types = ["parallel", "parallel"]} ins(%317, %expanded_87 : tensor<31x1xi64>, tensor<1x31xi64>) outs(%246 : tensor<31x31xi64>) {
    ^bb0(%in: i64, %in_112: i64, %out: i64):
      %354 = arith.addi %in, %in_112 : i64
      linalg.yield %354 : i64
    } -> tensor<31x31xi64>
    %collapsed_105 = tensor.collapse_shape %334 [[0, 1]] : tensor<31x31xi64> into tensor<961xi64>
    %335 = linalg.generic {indexing_maps = [#map5, #map10, #map2], iterator_types = ["parallel", "parallel"]} ins(%expanded_101, %expanded_89 : tensor<31x1xi1>, tensor<1x31xi1>) outs(%248 : tensor<31x31xi1>) {
    ^bb0(%in: i1, %in_112: i1, %out: i1):
      %354 = arith.andi %in, %in_112 : i1
      linalg.yield %354 : i1
    } -> tensor<31x31xi1>
    %collapsed_106 = tensor.collapse_shape %335 [[0, 1]] : tensor<31x31xi1> into tensor<961xi1>
    %336 = linalg.generic {indexing_maps = [#map13, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_105 : tensor<961xi64>) outs(%250 : tensor<8x16x961xi8>) {
    ^bb0(%in: i64, %out: i8):
      %354 = arith.index_cast %in : i64 to index
      %355 = linalg.index 0 : index
      %356 = linalg.index 1 : index
      %extracted = tensor.extract %232[%355, %356, %354] : tensor<8x16x225xi8>
      linalg.yield %extracted : i8
    } -> tensor<8x16x961xi8>
    %337 = linalg.generic {indexing_maps = [#map14, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%336 : tensor<8x16x961xi8>) outs(%252 : tensor<8x16x961xi1>) {
    ^bb0(%in: i8, %out: i1):
      %354 = arith.extsi %in : i8 to i64
      %355 = arith.cmpi eq, %354, %c8_i64 : i64
      linalg.yield %355 : i1
    } -> tensor<8x16x961xi1>
    %338 = linalg.generic {indexing_maps = [#map14, #map13, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%337, %collapsed_106 : tensor<8x16x961xi1>, tensor<961xi1>) outs(%252 : tensor<8x16x961xi1>) {
    ^bb0(%in: i1, %in_112: i1, %out: i1):
      %354 = arith.andi %in, %in_112 : i1
      linalg.yield %354 : i1
    } -> tensor<8x16x961xi1>
    %339 = linalg.generic {indexing_maps = [#map13, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%collapsed_105 : tensor<961xi64>) outs(%255 : tensor<8x16x961xf32>) {
    ^bb0(%in: i64, %out: f32):
      %354 = arith.index_cast %in : i64 to index
      %355 = linalg.index 0 : index
      %356 = linalg.index 1 : index
      %extracted = tensor.extract %collapsed_76[%355, %356, %354] : tensor<8x16x225xf32>
      linalg.yield %extracted : f32
    } -> tensor<8x16x961xf32>
    %340 = linalg.generic {indexing_maps = [#map14, #map14, #map15, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%338, %339, %cst_5 : tensor<8x16x961xi1>, tensor<8x16x961xf32>, tensor<f32>) outs(%255 : tensor<8x16x961xf32>) {
    ^bb0(%in: i1, %in_112: f32, %in_113: f32, %out: f32):
      %354 = arith.select %in, %in_112, %in_113 : f32
      linalg.yield %354 : f32
    } -> tensor<8x16x961xf32>
    %341 = linalg.generic {indexing_maps = [#map14, #map14, #map14], iterator_types = ["parallel", "parallel", "parallel"]} ins(%333, %340 : tensor<8x16x961xf32>, tensor<8x16x961xf32>) outs(%255 : tensor<8x16x961xf32>) {
    ^bb0(%in: f32, %in_112: f32, %out: f32):
      %354 = arith.addf %in, %in_112 : f32
      linalg.yield %354 : f32
    } -> tensor<8x16x961xf32>
    %expanded_107 = tensor.expand_shape %341 [[0], [1], [2, 3]] output_shape [8, 16, 31, 31] : tensor<8x16x961xf32> into tensor<8x16x31x31xf32>
    %342 = tensor.empty() : tensor<8x16x31x31xi1>
    %343 = linalg.generic {indexing_maps = [#map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%2 : tensor<8x16x31x31xf32>) outs(%342 : tensor<8x16x31x31xi1>) {
    ^bb0(%in: f32, %out: i1):
      %354 = arith.cmpf ole, %in, %cst : f32
      linalg.yield %354 : i1
    } -> tensor<8x16x31x31xi1>
    %344 = linalg.generic {indexing_maps = [#map, #map11, #map, #map], iterator_types = ["parallel", "parallel", "parallel", "parallel"]} ins(%343, %cst_5, %expanded_107 : tensor<8x16x31x31xi1>, tensor<f32>, tensor<8x16x31x31xf32>) outs(%0 : tensor<8x16x31x31xf32>) {
    ^bb0(%in: i1, %in_112: f32, %in_113: f32, %out: f32):
      %354 = arith.select %in, %in_112, %in_113 : f32
      linalg.yield %354 : f32
    } -> tensor<8x16x31x31xf32>
    %345 = tensor.empty() : tensor<3x8x64x64xf32>
    %transposed_108 = linalg.transpose ins(%arg10 : tensor<8x3x64x64xf32>) outs(%345 : tensor<3x8x64x64xf32>) permutation = [1, 0, 2, 3] 
    %346 = tensor.empty() : tensor<16x8x31x31xf32>
    %transposed_109 = linalg.transpose ins(%344 : tensor<8x16x31x31xf32>) outs(%346 : tensor<16x8x31x31xf32>) permutation = [1, 0, 2, 3] 
    %347 = tensor.empty() : tensor<3x16x4x4xf32>
    %348 = linalg.fill ins(%cst : f32) outs(%347 : tensor<3x16x4x4xf32>) -> tensor<3x16x4x4xf32>
    %349 = linalg.conv_2d_nchw_fchw {dilations = dense<2> : vector<2xi64>, strides = dense<1> : vector<2xi64>} ins(%transposed_108, %transposed_109 : tensor<3x8x64x64xf32>, tensor<16x8x31x31xf32>) outs(%348 : tensor<3x16x4x4xf32>) -> tensor<3x16x4x4xf32>
    %extracted_slice = tensor.extract_slice %349[0, 0, 0, 0] [3, 16, 3, 4] [1, 1, 1, 1] : tensor<3x16x4x4xf32> to tensor<3x16x3x4xf32>
    %extracted_slice_110 = tensor.extract_slice %extracted_slice[0, 0, 0, 0] [3, 16, 3, 3] [1, 1, 1, 1] : tensor<3x16x3x4xf32> to tensor<3x16x3x3xf32>
    %350 = tensor.empty() : tensor<16x3x3x3xf32>
    %transposed_111 = linalg.transpose ins(%extracted_slice_110 : tensor<3x16x3x3xf32>) outs(%350 : tensor<16x3x3x3xf32>) permutation = [1, 0, 2, 3] 
    %351 = tensor.empty() : tensor<16xf32>
    %352 = linalg.fill ins(%cst : f32) outs(%351 : tensor<16xf32>) -> tensor<16xf32>
    %353 = linalg.generic {indexing_maps = [#map, #map12], iterator_types = ["reduction", "parallel", "reduction", "reduction"]} ins(%344 : tensor<8x16x31x31xf32>) outs(%352 : tensor<16xf32>) {
    ^bb0(%in: f32, %out: f32):
      %354 = arith.addf %in, %out : f32
      linalg.yield %354 : f32
    } -> tensor<16xf32>
    return %49, %transposed_111, %353, %transposed_44, %105, %transposed_40, %94, %transposed_34, %88, %70, %collapsed_28 : tensor<f32>, tensor<16x3x3x3xf32>, tensor<16xf32>, tensor<48x16x1x1xf32>, tensor<48xf32>, tensor<48x48x3x3xf32>, tensor<48xf32>, tensor<48x48x3x3xf32>, tensor<48xf32>, tensor<16x48xf32>, tensor<16xf32>
  }
}
