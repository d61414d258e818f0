//===- BudgetTest.cpp - Budget grammar ------------------------------------===//

#include "ckpt/Planner/Budget.h"

#include "gtest/gtest.h"

using namespace ckpt::planner;

namespace {

MemoryBudget parseOrDie(llvm::StringRef text) {
  llvm::Expected<MemoryBudget> budget = parseMemoryBudget(text);
  EXPECT_TRUE(static_cast<bool>(budget)) << text.str();
  if (!budget) {
    llvm::consumeError(budget.takeError());
    return MemoryBudget::absoluteBytes(1);
  }
  return *budget;
}

std::string errorOf(llvm::StringRef text) {
  llvm::Expected<MemoryBudget> budget = parseMemoryBudget(text);
  if (budget)
    return "";
  return llvm::toString(budget.takeError());
}

TEST(BudgetTest, FractionsAndPercentages) {
  EXPECT_TRUE(parseOrDie("0.7").isFraction());
  EXPECT_DOUBLE_EQ(parseOrDie("0.7").getFraction(), 0.7);
  EXPECT_DOUBLE_EQ(parseOrDie("70%").getFraction(), 0.7);
  EXPECT_DOUBLE_EQ(parseOrDie("1.0").getFraction(), 1.0);
  EXPECT_DOUBLE_EQ(parseOrDie("100%").getFraction(), 1.0);
  EXPECT_DOUBLE_EQ(parseOrDie(" .5 ").getFraction(), 0.5);
  EXPECT_EQ(parseOrDie("0.5").resolveBytes(1001), 500u);
  EXPECT_EQ(parseOrDie("1.0").resolveBytes(3288334336ull), 3288334336ull);
}

TEST(BudgetTest, ByteCountsWithUnits) {
  EXPECT_EQ(parseOrDie("123456").getBytes(), 123456u);
  EXPECT_EQ(parseOrDie("123456B").getBytes(), 123456u);
  EXPECT_EQ(parseOrDie("1KiB").getBytes(), 1024u);
  EXPECT_EQ(parseOrDie("512MiB").getBytes(), 512ull << 20);
  EXPECT_EQ(parseOrDie("2GiB").getBytes(), 2ull << 30);
  EXPECT_EQ(parseOrDie("3KB").getBytes(), 3000u);
  EXPECT_EQ(parseOrDie("5MB").getBytes(), 5000000u);
  EXPECT_EQ(parseOrDie("2GB").getBytes(), 2000000000u);
  EXPECT_FALSE(parseOrDie("1").isFraction());
  EXPECT_EQ(parseOrDie("1").resolveBytes(99), 1u);
}

TEST(BudgetTest, RejectsEverythingElseListingTheForms) {
  for (const char *bad :
       {"", "abc", "0", "0.0", "1.5", "-0.5", "150%", "0%", "12 parsecs",
        "1.5GiB", "2TB", "0x10", "99999999999999999999", "17179869184GiB", "%",
        "1e3", "."}) {
    std::string message = errorOf(bad);
    EXPECT_NE(message.find("invalid budget"), std::string::npos) << bad;
    EXPECT_NE(message.find("KiB"), std::string::npos) << bad;
  }
}

} // namespace
