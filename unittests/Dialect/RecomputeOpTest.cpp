//===- RecomputeOpTest.cpp - properties of the ckpt region ops ------------===//
//
// Checks the interface answers that passes rely on: recompute regions have an
// allocation effect (so CSE keeps them apart), are trivially dead only when
// unused, and checkpoint regions inherit the effects of their body.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Dialect/Ckpt/IR/CkptOps.h"
#include "ckpt/InitCkpt.h"

#include "mlir/Dialect/Arith/IR/Arith.h"
#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/Linalg/IR/Linalg.h"
#include "mlir/Dialect/Tensor/IR/Tensor.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/Interfaces/SideEffectInterfaces.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::ckpt;

namespace {

class CkptRegionOpTest : public ::testing::Test {
protected:
  CkptRegionOpTest() {
    DialectRegistry registry;
    registry.insert<func::FuncDialect, arith::ArithDialect,
                    tensor::TensorDialect, linalg::LinalgDialect>();
    registerCkptDialects(registry);
    context.appendDialectRegistry(registry);
    context.loadAllAvailableDialects();
  }

  OwningOpRef<ModuleOp> parse(StringRef source) {
    return parseSourceString<ModuleOp>(source, &context);
  }

  MLIRContext context;
};

constexpr StringLiteral kTwoRegions = R"MLIR(
func.func @f(%a: tensor<16xf32>) -> (tensor<16xf32>, tensor<16xf32>) {
  %r0 = ckpt.recompute(%x = %a : tensor<16xf32>) -> tensor<16xf32> {
    %y = arith.addf %x, %x : tensor<16xf32>
    ckpt.yield %y : tensor<16xf32>
  }
  %r1 = ckpt.recompute(%x = %a : tensor<16xf32>) -> tensor<16xf32> {
    %y = arith.addf %x, %x : tensor<16xf32>
    ckpt.yield %y : tensor<16xf32>
  }
  %unused = ckpt.recompute(%x = %a : tensor<16xf32>) -> tensor<16xf32> {
    %y = arith.addf %x, %x : tensor<16xf32>
    ckpt.yield %y : tensor<16xf32>
  }
  %c = ckpt.checkpoint(%x = %a : tensor<16xf32>) -> tensor<16xf32> {
    %y = arith.mulf %x, %x : tensor<16xf32>
    ckpt.yield %y : tensor<16xf32>
  }
  return %r0, %r1 : tensor<16xf32>, tensor<16xf32>
}
)MLIR";

TEST_F(CkptRegionOpTest, RecomputeDeclaresAllocationOnEachResult) {
  OwningOpRef<ModuleOp> module = parse(kTwoRegions);
  ASSERT_TRUE(module);
  SmallVector<RecomputeOp> regions;
  module->walk([&](RecomputeOp op) { regions.push_back(op); });
  ASSERT_EQ(regions.size(), 3u);

  SmallVector<MemoryEffects::EffectInstance> effects;
  regions[0].getEffects(effects);
  ASSERT_EQ(effects.size(), 1u);
  EXPECT_TRUE(isa<MemoryEffects::Allocate>(effects[0].getEffect()));
  EXPECT_EQ(effects[0].getValue(), regions[0].getResult(0));
  // Not memory-effect free: CSE must not merge two identical regions and
  // LICM must not hoist one.
  EXPECT_FALSE(isMemoryEffectFree(regions[0]));
}

TEST_F(CkptRegionOpTest, RecomputeIsDeadOnlyWhenUnused) {
  OwningOpRef<ModuleOp> module = parse(kTwoRegions);
  ASSERT_TRUE(module);
  SmallVector<RecomputeOp> regions;
  module->walk([&](RecomputeOp op) { regions.push_back(op); });
  ASSERT_EQ(regions.size(), 3u);
  EXPECT_FALSE(isOpTriviallyDead(regions[0]));
  EXPECT_FALSE(isOpTriviallyDead(regions[1]));
  EXPECT_TRUE(isOpTriviallyDead(regions[2]));
}

TEST_F(CkptRegionOpTest, CheckpointWithPureBodyIsMemoryEffectFree) {
  OwningOpRef<ModuleOp> module = parse(kTwoRegions);
  ASSERT_TRUE(module);
  CheckpointOp checkpoint;
  module->walk([&](CheckpointOp op) { checkpoint = op; });
  ASSERT_TRUE(checkpoint);
  EXPECT_TRUE(isMemoryEffectFree(checkpoint));
  EXPECT_EQ(checkpoint.getRegionInputs().size(), 1u);
  EXPECT_EQ(checkpoint.getYield().getValues().size(), 1u);
}

TEST_F(CkptRegionOpTest, RegionArgumentsMirrorInputs) {
  OwningOpRef<ModuleOp> module = parse(kTwoRegions);
  ASSERT_TRUE(module);
  RecomputeOp first;
  module->walk([&](RecomputeOp op) {
    if (!first)
      first = op;
  });
  ASSERT_TRUE(first);
  ASSERT_EQ(first.getRegionInputs().size(), first.getInputs().size());
  EXPECT_EQ(first.getRegionInputs()[0].getType(),
            first.getInputs()[0].getType());
}

TEST_F(CkptRegionOpTest, SideEffectingBodyIsRejected) {
  // Diagnostics go to the context's handler; silence them for this test.
  ScopedDiagnosticHandler silence(&context,
                                  [](Diagnostic &) { return success(); });
  OwningOpRef<ModuleOp> module = parse(R"MLIR(
func.func @f(%m: memref<16xf32>, %a: tensor<16xf32>) -> tensor<16xf32> {
  %r = ckpt.recompute(%x = %a : tensor<16xf32>, %b = %m : memref<16xf32>) -> tensor<16xf32> {
    ckpt.yield %x : tensor<16xf32>
  }
  return %r : tensor<16xf32>
}
)MLIR");
  EXPECT_FALSE(module) << "mixing tensors and memrefs must not verify";
}

} // namespace
