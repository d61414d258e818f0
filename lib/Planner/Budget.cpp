//===- Budget.cpp - Memory budget grammar ---------------------------------===//

#include "ckpt/Planner/Budget.h"

#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <cmath>
#include <cstdlib>

using namespace ckpt::planner;

MemoryBudget MemoryBudget::fractionOfBaseline(double fraction) {
  MemoryBudget budget;
  budget.fraction = fraction;
  return budget;
}

MemoryBudget MemoryBudget::absoluteBytes(uint64_t bytes) {
  MemoryBudget budget;
  budget.bytes = bytes;
  return budget;
}

uint64_t MemoryBudget::resolveBytes(uint64_t baselinePeakBytes) const {
  if (!isFraction())
    return bytes;
  // Computed in long double so that 1.0 maps exactly onto the baseline even
  // for peaks above 2^53 bytes.
  return static_cast<uint64_t>(
      std::floor(static_cast<long double>(baselinePeakBytes) * fraction));
}

std::string MemoryBudget::str() const {
  if (isFraction())
    return llvm::formatv("{0}%", fraction * 100).str();
  return llvm::formatv("{0}B", bytes).str();
}

static llvm::Error budgetError(llvm::StringRef text, llvm::StringRef why) {
  return llvm::createStringError(
      llvm::formatv("invalid budget '{0}': {1}; expected a fraction of the "
                    "baseline peak in (0, 1] written with a decimal point "
                    "('0.7', '1.0') or a percentage ('70%'), or a byte count "
                    "with an optional unit B, KiB, MiB, GiB (powers of 1024) "
                    "or KB, MB, GB (powers of 1000) ('123456', '512MiB', "
                    "'2GB')",
                    text, why)
          .str());
}

/// Parses `digits[.digits]` or `.digits` completely; nullopt otherwise.
static std::optional<double> parseDecimal(llvm::StringRef text) {
  if (text.empty() || text == ".")
    return std::nullopt;
  size_t dot = text.find('.');
  llvm::StringRef whole = text.substr(0, dot);
  llvm::StringRef frac =
      dot == llvm::StringRef::npos ? llvm::StringRef() : text.substr(dot + 1);
  auto allDigits = [](llvm::StringRef s) {
    return llvm::all_of(s, llvm::isDigit);
  };
  if (!allDigits(whole) || !allDigits(frac))
    return std::nullopt;
  // Enough digits for any sensible fraction; strtod on a validated string
  // cannot fail.
  return std::strtod(text.str().c_str(), nullptr);
}

llvm::Expected<MemoryBudget>
ckpt::planner::parseMemoryBudget(llvm::StringRef text) {
  llvm::StringRef trimmed = text.trim();
  if (trimmed.empty())
    return budgetError(text, "empty");

  if (trimmed.consume_back("%")) {
    std::optional<double> percent = parseDecimal(trimmed.rtrim());
    if (!percent)
      return budgetError(text, "not a number before '%'");
    if (!(*percent > 0 && *percent <= 100))
      return budgetError(text, "percentage outside (0, 100]");
    return MemoryBudget::fractionOfBaseline(*percent / 100);
  }

  if (trimmed.contains('.')) {
    std::optional<double> fraction = parseDecimal(trimmed);
    if (!fraction)
      return budgetError(text, "not a number");
    if (!(*fraction > 0 && *fraction <= 1))
      return budgetError(text, "fraction outside (0, 1]");
    return MemoryBudget::fractionOfBaseline(*fraction);
  }

  size_t unitStart = trimmed.find_if_not(llvm::isDigit);
  llvm::StringRef digits = trimmed.substr(0, unitStart);
  llvm::StringRef unit = unitStart == llvm::StringRef::npos
                             ? ""
                             : trimmed.substr(unitStart).trim();
  if (digits.empty())
    return budgetError(text, "not a number");
  uint64_t multiplier;
  if (unit.empty() || unit == "B")
    multiplier = 1;
  else if (unit == "KiB")
    multiplier = 1ull << 10;
  else if (unit == "MiB")
    multiplier = 1ull << 20;
  else if (unit == "GiB")
    multiplier = 1ull << 30;
  else if (unit == "KB")
    multiplier = 1000ull;
  else if (unit == "MB")
    multiplier = 1000ull * 1000;
  else if (unit == "GB")
    multiplier = 1000ull * 1000 * 1000;
  else
    return budgetError(text, ("unknown unit '" + unit + "'").str());
  uint64_t count;
  if (digits.getAsInteger(10, count))
    return budgetError(text, "byte count does not fit in 64 bits");
  if (count == 0)
    return budgetError(text, "zero bytes");
  if (count > UINT64_MAX / multiplier)
    return budgetError(text, "byte count does not fit in 64 bits");
  return MemoryBudget::absoluteBytes(count * multiplier);
}

llvm::StringRef BudgetRequest::rule() const {
  // In the order of Kind.
  static constexpr llvm::StringLiteral rules[] = {"given", "min", "auto"};
  return rules[static_cast<unsigned>(kind)];
}

llvm::Expected<BudgetRequest>
ckpt::planner::parseBudgetRequest(llvm::StringRef text) {
  BudgetRequest request;
  llvm::StringRef trimmed = text.trim();
  if (trimmed == "min") {
    request.kind = BudgetRequest::Kind::Minimum;
    return request;
  }
  if (trimmed == "auto") {
    request.kind = BudgetRequest::Kind::Knee;
    return request;
  }
  llvm::Expected<MemoryBudget> memory = parseMemoryBudget(text);
  if (!memory)
    return llvm::createStringError(
        llvm::toString(memory.takeError()) +
        "; or 'min' (the smallest peak found) or 'auto' (the knee of the "
        "memory/recompute trade-off)");
  request.memory = *memory;
  return request;
}
