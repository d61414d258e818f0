//===- ActivationTimelineTest.cpp - the memory model on inline IR ---------===//
//
// Checks buffers, live ranges and the peak on small functions where the
// answer is known by hand: in-place writes, views, multi-use values, uses in
// nested regions and recompute regions.
//
//===----------------------------------------------------------------------===//

#include "ckpt/Analysis/ActivationTimeline.h"
#include "ckpt/InitCkpt.h"

#include "mlir/Dialect/SCF/IR/SCF.h"
#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/MLIRContext.h"
#include "mlir/InitAllDialects.h"
#include "mlir/InitAllExtensions.h"
#include "mlir/Parser/Parser.h"

#include "gtest/gtest.h"

using namespace mlir;
using namespace mlir::ckpt;

namespace {

class ActivationTimelineTest : public ::testing::Test {
protected:
  ActivationTimelineTest() {
    DialectRegistry registry;
    registerAllDialects(registry);
    registerAllExtensions(registry);
    registerCkptDialects(registry);
    context.appendDialectRegistry(registry);
  }

  /// Parses `source` and builds the timeline of its function `name`.
  std::optional<ActivationTimeline> analyze(StringRef source,
                                            StringRef name = "f") {
    module = parseSourceString<ModuleOp>(source, &context);
    if (!module)
      return std::nullopt;
    FailureOr<std::unique_ptr<BufferizationForecast>> forecast =
        BufferizationForecast::analyze(*module);
    if (failed(forecast))
      return std::nullopt;
    this->forecast = std::move(*forecast);
    auto func = module->lookupSymbol<func::FuncOp>(name);
    FailureOr<ActivationTimeline> timeline =
        ActivationTimeline::build(func, *this->forecast);
    if (failed(timeline))
      return std::nullopt;
    return std::move(*timeline);
  }

  /// The op defining the value named `name` via ckpt.name.
  Value valueNamed(StringRef name) {
    Value found;
    module->walk([&](Operation *op) {
      if (auto attr = op->getAttrOfType<StringAttr>("ckpt.name"))
        if (attr.getValue() == name)
          found = op->getResult(0);
    });
    return found;
  }

  MLIRContext context;
  OwningOpRef<ModuleOp> module;
  std::unique_ptr<BufferizationForecast> forecast;
};

constexpr int64_t kTile = 64 * 64 * 4; // one tensor<64x64xf32>

TEST_F(ActivationTimelineTest, InPlaceWritesShareTheDestinationBuffer) {
  std::optional<ActivationTimeline> timeline = analyze(R"MLIR(
    func.func @f(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
      %c0 = arith.constant 0.0 : f32
      %e = tensor.empty() : tensor<64x64xf32>
      %z = linalg.fill {ckpt.name = "z"} ins(%c0 : f32) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
      %a = linalg.add {ckpt.name = "a"} ins(%x, %z : tensor<64x64xf32>, tensor<64x64xf32>) outs(%z : tensor<64x64xf32>) -> tensor<64x64xf32>
      return %a : tensor<64x64xf32>
    })MLIR");
  ASSERT_TRUE(timeline);
  const TimelineBuffer *z = timeline->getBufferOf(valueNamed("z"));
  const TimelineBuffer *a = timeline->getBufferOf(valueNamed("a"));
  ASSERT_TRUE(z && a);
  EXPECT_EQ(z, a);
  EXPECT_TRUE(a->isReturned);
  EXPECT_EQ(timeline->getArgumentBytes(), kTile);
  EXPECT_EQ(timeline->getPeakBytes(), 2 * kTile);
}

TEST_F(ActivationTimelineTest, ViewsKeepTheirSourceAlive) {
  std::optional<ActivationTimeline> timeline = analyze(R"MLIR(
    func.func @f(%x: tensor<64x64xf32>) -> tensor<32x64xf32> {
      %e = tensor.empty() : tensor<64x64xf32>
      %a = linalg.exp {ckpt.name = "a"} ins(%x : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
      %s = tensor.extract_slice %a[0, 0] [32, 64] [1, 1] {ckpt.name = "s"} : tensor<64x64xf32> to tensor<32x64xf32>
      %e2 = tensor.empty() : tensor<32x64xf32>
      %n = linalg.negf {ckpt.name = "n"} ins(%s : tensor<32x64xf32>) outs(%e2 : tensor<32x64xf32>) -> tensor<32x64xf32>
      return %n : tensor<32x64xf32>
    })MLIR");
  ASSERT_TRUE(timeline);
  const TimelineBuffer *a = timeline->getBufferOf(valueNamed("a"));
  EXPECT_EQ(a, timeline->getBufferOf(valueNamed("s")));
  const TimelineBuffer *n = timeline->getBufferOf(valueNamed("n"));
  ASSERT_TRUE(a && n);
  // The slice is used by the negation, so a is alive when n is written.
  EXPECT_GE(a->lastUsePoint,
            timeline->getProgramPoint(valueNamed("n").getDefiningOp()));
  EXPECT_EQ(timeline->getPeakBytes(), kTile + kTile + kTile / 2);
}

TEST_F(ActivationTimelineTest, MultiUseValueLivesUntilItsLastUse) {
  std::optional<ActivationTimeline> timeline = analyze(R"MLIR(
    func.func @f(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
      %e = tensor.empty() : tensor<64x64xf32>
      %a = linalg.exp {ckpt.name = "a"} ins(%x : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
      %e1 = tensor.empty() : tensor<64x64xf32>
      %b = linalg.negf {ckpt.name = "b"} ins(%a : tensor<64x64xf32>) outs(%e1 : tensor<64x64xf32>) -> tensor<64x64xf32>
      %e2 = tensor.empty() : tensor<64x64xf32>
      %c = linalg.negf {ckpt.name = "c"} ins(%b : tensor<64x64xf32>) outs(%e2 : tensor<64x64xf32>) -> tensor<64x64xf32>
      %d = linalg.add {ckpt.name = "d"} ins(%a, %c : tensor<64x64xf32>, tensor<64x64xf32>) outs(%c : tensor<64x64xf32>) -> tensor<64x64xf32>
      return %d : tensor<64x64xf32>
    })MLIR");
  ASSERT_TRUE(timeline);
  const TimelineBuffer *a = timeline->getBufferOf(valueNamed("a"));
  const TimelineBuffer *b = timeline->getBufferOf(valueNamed("b"));
  ASSERT_TRUE(a && b);
  unsigned dPoint = timeline->getProgramPoint(valueNamed("d").getDefiningOp());
  unsigned cPoint = timeline->getProgramPoint(valueNamed("c").getDefiningOp());
  EXPECT_EQ(a->lastUsePoint, dPoint);
  EXPECT_EQ(b->lastUsePoint, cPoint);
  // x, a, b and c's buffer (allocated at its empty tensor, before b is
  // written) are alive together.
  EXPECT_EQ(timeline->getPeakBytes(), 4 * kTile);
}

TEST_F(ActivationTimelineTest, UsesInNestedRegionsCountAtTheRegionOp) {
  std::optional<ActivationTimeline> timeline = analyze(R"MLIR(
    func.func @f(%x: tensor<64x64xf32>, %n: index) -> tensor<64x64xf32> {
      %c0 = arith.constant 0 : index
      %c1 = arith.constant 1 : index
      %e = tensor.empty() : tensor<64x64xf32>
      %a = linalg.exp {ckpt.name = "a"} ins(%x : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
      %e1 = tensor.empty() : tensor<64x64xf32>
      %acc0 = linalg.negf ins(%x : tensor<64x64xf32>) outs(%e1 : tensor<64x64xf32>) -> tensor<64x64xf32>
      %r = scf.for %i = %c0 to %n step %c1 iter_args(%acc = %acc0) -> tensor<64x64xf32> {
        %s = linalg.add ins(%acc, %a : tensor<64x64xf32>, tensor<64x64xf32>) outs(%acc : tensor<64x64xf32>) -> tensor<64x64xf32>
        scf.yield %s : tensor<64x64xf32>
      } {ckpt.name = "loop"}
      return %r : tensor<64x64xf32>
    })MLIR");
  ASSERT_TRUE(timeline);
  const TimelineBuffer *a = timeline->getBufferOf(valueNamed("a"));
  ASSERT_TRUE(a);
  unsigned loopPoint =
      timeline->getProgramPoint(valueNamed("loop").getDefiningOp());
  // a is only used inside the loop body: alive through the loop.
  EXPECT_EQ(a->lastUsePoint, loopPoint);
  // The loop result shares the accumulator's buffer.
  EXPECT_EQ(
      timeline->getBufferOf(valueNamed("loop")),
      timeline->getBufferOf(
          valueNamed("loop").getDefiningOp<scf::ForOp>().getInitArgs()[0]));
  EXPECT_EQ(timeline->getPeakBytes(), 3 * kTile);
}

TEST_F(ActivationTimelineTest, RecomputeRegionYieldsItsOwnBuffer) {
  std::optional<ActivationTimeline> timeline = analyze(R"MLIR(
    func.func @f(%x: tensor<64x64xf32>) -> tensor<64x64xf32> {
      %r = ckpt.recompute(%a = %x : tensor<64x64xf32>) -> tensor<64x64xf32> {
        %e = tensor.empty() : tensor<64x64xf32>
        %t = linalg.exp ins(%a : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
        %e2 = tensor.empty() : tensor<64x64xf32>
        %u = linalg.negf ins(%t : tensor<64x64xf32>) outs(%e2 : tensor<64x64xf32>) -> tensor<64x64xf32>
        ckpt.yield %u : tensor<64x64xf32>
      } attributes {ckpt.name = "r"}
      return %r : tensor<64x64xf32>
    })MLIR");
  ASSERT_TRUE(timeline);
  // x, the region's temporary t and its result u.
  EXPECT_EQ(timeline->getTransientBytes(0), kTile);
  EXPECT_EQ(timeline->getPeakBytes(), 3 * kTile);
  // The region's result is one buffer: argument + result.
  EXPECT_EQ(timeline->getBuffers().size(), 2u);
}

TEST_F(ActivationTimelineTest, PhasesFromTangentArguments) {
  std::optional<ActivationTimeline> timeline = analyze(R"MLIR(
    func.func @f(%x: tensor<64x64xf32>, %g: tensor<64x64xf32> {ckpt.tangent}) -> tensor<64x64xf32> {
      %e = tensor.empty() : tensor<64x64xf32>
      %h = linalg.exp {ckpt.name = "h"} ins(%x : tensor<64x64xf32>) outs(%e : tensor<64x64xf32>) -> tensor<64x64xf32>
      %e2 = tensor.empty() : tensor<64x64xf32>
      %d = linalg.mul {ckpt.name = "d"} ins(%g, %h : tensor<64x64xf32>, tensor<64x64xf32>) outs(%e2 : tensor<64x64xf32>) -> tensor<64x64xf32>
      return %d : tensor<64x64xf32>
    })MLIR");
  ASSERT_TRUE(timeline);
  EXPECT_TRUE(timeline->hasPhaseMarkers());
  unsigned hPoint = timeline->getProgramPoint(valueNamed("h").getDefiningOp());
  unsigned dPoint = timeline->getProgramPoint(valueNamed("d").getDefiningOp());
  EXPECT_EQ(timeline->getPhase(hPoint), StepPhase::Forward);
  EXPECT_EQ(timeline->getPhase(dPoint), StepPhase::Backward);
  EXPECT_TRUE(timeline->getBufferOf(valueNamed("h"))->isSavedActivation);
  EXPECT_EQ(timeline->getSavedActivationBytes(), kTile);
}

TEST_F(ActivationTimelineTest, DynamicShapesAreRejected) {
  ScopedDiagnosticHandler silence(&context,
                                  [](Diagnostic &) { return success(); });
  EXPECT_FALSE(analyze(R"MLIR(
    func.func @f(%x: tensor<?xf32>) -> tensor<?xf32> {
      return %x : tensor<?xf32>
    })MLIR"));
}

} // namespace
