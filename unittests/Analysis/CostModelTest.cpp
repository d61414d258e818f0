//===- CostModelTest.cpp - FLOP, byte and time formulas -------------------===//

#include "ckpt/Analysis/CostModel.h"
#include "ckpt/InitCkpt.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::ckpt;

namespace {

class CostModelTest : public ::testing::Test {
protected:
  CostModelTest() {
    DialectRegistry registry;
    registerAllDialects(registry);
    registerCkptDialects(registry);
    context.appendDialectRegistry(registry);
    llvm::Expected<DeviceTarget> h100 = lookupDeviceTarget("h100-sxm");
    EXPECT_TRUE(static_cast<bool>(h100));
    target = *h100;
  }

  /// Cost of the first op of function @f in `source` that is not a constant.
  OpCost costOfFirstOp(StringRef source, const CostModelOptions &options = {}) {
    module = parseSourceString<ModuleOp>(source, &context);
    EXPECT_TRUE(module);
    Operation *first = nullptr;
    module->walk([&](func::FuncOp func) {
      for (Operation &op : func.getBody().front())
        if (!first && op.getName().getStringRef() != "arith.constant")
          first = &op;
    });
    return estimateOpCost(first, target, options);
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  DeviceTarget target;
};

TEST_F(CostModelTest, AttentionCountsVisitedPairs) {
  // 2 heads, 6 queries, 4 keys, D = 8, Dv = 5: causal rows visit min(i + 1,
  // 4) keys, 1 + 2 + 3 + 4 + 4 + 4 = 18 pairs per head.
  const char *source = R"MLIR(
    func.func @f(%q: tensor<2x6x8xf32>, %k: tensor<2x4x8xf32>, %v: tensor<2x4x5xf32>,
                 %o: tensor<2x6x5xf32>, %l: tensor<2x6xf32>) -> tensor<2x6x5xf32> {
      %r:2 = ckpt.attention CAUSAL scale(0.5) ins(%q, %k, %v : tensor<2x6x8xf32>, tensor<2x4x8xf32>, tensor<2x4x5xf32>)
          outs(%o, %l : tensor<2x6x5xf32>, tensor<2x6xf32>) -> tensor<2x6x5xf32>, tensor<2x6xf32>
      return %r#0 : tensor<2x6x5xf32>
    })MLIR";
  constexpr int64_t kPerPair = 2 * 8 + 3 * 5 + 2 * 8 + 4;
  std::string causal = std::string(source).replace(
      std::string(source).find("CAUSAL"), 6, "causal");
  std::string full =
      std::string(source).replace(std::string(source).find("CAUSAL"), 6, "");
  EXPECT_EQ(costOfFirstOp(causal).flops, 2 * 18 * kPerPair);
  OpCost cost = costOfFirstOp(full);
  EXPECT_EQ(cost.flops, 2 * 6 * 4 * kPerPair);
  EXPECT_EQ(cost.bytesRead, (2 * 6 * 8 + 2 * 4 * 8 + 2 * 4 * 5) * 4);
  EXPECT_EQ(cost.bytesWritten, (2 * 6 * 5 + 2 * 6) * 4);
}

TEST_F(CostModelTest, MatmulIsTwoMNK) {
  OpCost cost = costOfFirstOp(R"MLIR(
    func.func @f(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %c: tensor<16x8xf32>) -> tensor<16x8xf32> {
      %r = linalg.matmul ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) -> tensor<16x8xf32>
      return %r : tensor<16x8xf32>
    })MLIR");
  EXPECT_EQ(cost.flops, 2 * 16 * 8 * 32);
  // A and B read, C read (accumulated) and written.
  EXPECT_EQ(cost.bytesRead, (16 * 32 + 32 * 8 + 16 * 8) * 4);
  EXPECT_EQ(cost.bytesWritten, 16 * 8 * 4);
  EXPECT_EQ(cost.kernelLaunches, 1);
}

TEST_F(CostModelTest, GeneralizedMatmulCostsTheSame) {
  OpCost cost = costOfFirstOp(R"MLIR(
    func.func @f(%a: tensor<16x32xf32>, %b: tensor<32x8xf32>, %c: tensor<16x8xf32>) -> tensor<16x8xf32> {
      %r = linalg.generic {indexing_maps = [affine_map<(m, n, k) -> (m, k)>, affine_map<(m, n, k) -> (k, n)>, affine_map<(m, n, k) -> (m, n)>],
                           iterator_types = ["parallel", "parallel", "reduction"]}
          ins(%a, %b : tensor<16x32xf32>, tensor<32x8xf32>) outs(%c : tensor<16x8xf32>) {
      ^bb0(%x: f32, %y: f32, %acc: f32):
        %p = arith.mulf %x, %y : f32
        %s = arith.addf %acc, %p : f32
        linalg.yield %s : f32
      } -> tensor<16x8xf32>
      return %r : tensor<16x8xf32>
    })MLIR");
  EXPECT_EQ(cost.flops, 2 * 16 * 8 * 32);
}

TEST_F(CostModelTest, TranscendentalsAreWeighted) {
  OpCost cost = costOfFirstOp(R"MLIR(
    func.func @f(%a: tensor<100xf32>) -> tensor<100xf32> {
      %r = math.tanh %a : tensor<100xf32>
      return %r : tensor<100xf32>
    })MLIR");
  EXPECT_EQ(cost.flops, 100 * 8);
}

TEST_F(CostModelTest, IntegerArithmeticIsNotFlops) {
  OpCost cost = costOfFirstOp(R"MLIR(
    func.func @f(%a: tensor<100xi32>) -> tensor<100xi32> {
      %r = arith.addi %a, %a : tensor<100xi32>
      return %r : tensor<100xi32>
    })MLIR");
  EXPECT_EQ(cost.flops, 0);
  EXPECT_EQ(cost.bytesRead, 800);
}

TEST_F(CostModelTest, RooflineTakesTheSlowerSidePlusLaunch) {
  // 4 KiB elementwise add: 1024 FLOPs, 12 KiB moved: memory-bound on H100.
  OpCost cost = costOfFirstOp(R"MLIR(
    func.func @f(%a: tensor<1024xf32>, %b: tensor<1024xf32>) -> tensor<1024xf32> {
      %r = arith.addf %a, %b : tensor<1024xf32>
      return %r : tensor<1024xf32>
    })MLIR");
  double memorySeconds = 12288.0 / target.memoryBandwidthBytesPerSecond;
  EXPECT_DOUBLE_EQ(cost.estimatedSeconds,
                   memorySeconds + target.kernelLaunchOverheadSeconds);
}

TEST_F(CostModelTest, Bf16UsesItsOwnRate) {
  OpCost cost = costOfFirstOp(R"MLIR(
    func.func @f(%a: tensor<1024x1024xbf16>, %b: tensor<1024x1024xbf16>, %c: tensor<1024x1024xbf16>) -> tensor<1024x1024xbf16> {
      %r = linalg.matmul ins(%a, %b : tensor<1024x1024xbf16>, tensor<1024x1024xbf16>) outs(%c : tensor<1024x1024xbf16>) -> tensor<1024x1024xbf16>
      return %r : tensor<1024x1024xbf16>
    })MLIR");
  double compute = 2.0 * 1024 * 1024 * 1024 / target.bf16FlopsPerSecond;
  double memory = 4.0 * 1024 * 1024 * 2 / target.memoryBandwidthBytesPerSecond;
  EXPECT_DOUBLE_EQ(cost.estimatedSeconds,
                   std::max(compute, memory) +
                       target.kernelLaunchOverheadSeconds);
}

TEST(DeviceTargets, BuiltinsAreKnownAndPositive) {
  for (llvm::StringRef name : getBuiltinTargetNames()) {
    llvm::Expected<DeviceTarget> target = lookupDeviceTarget(name);
    ASSERT_TRUE(static_cast<bool>(target)) << name.str();
    EXPECT_EQ(target->name, name.str());
    EXPECT_GT(target->fp32FlopsPerSecond, 0);
    EXPECT_GT(target->memoryBandwidthBytesPerSecond, 0);
  }
  llvm::Expected<DeviceTarget> h200 = lookupDeviceTarget("h200");
  llvm::Expected<DeviceTarget> h100 = lookupDeviceTarget("h100-sxm");
  ASSERT_TRUE(h200 && h100);
  EXPECT_GT(h200->memoryBandwidthBytesPerSecond,
            h100->memoryBandwidthBytesPerSecond);
}

TEST(DeviceTargets, UnknownNameIsAnError) {
  llvm::Expected<DeviceTarget> target = lookupDeviceTarget("tpu-v9");
  ASSERT_FALSE(static_cast<bool>(target));
  EXPECT_NE(llvm::toString(target.takeError()).find("unknown device target"),
            std::string::npos);
}

} // namespace
