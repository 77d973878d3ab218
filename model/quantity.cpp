// Exact decimals: reading a double back to the digits the file wrote, ticks
// at a chosen number of decimals, and byte units.
#include "model/quantity.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>

namespace tessel {

long long power_of_ten(int n) {
  long long value = 1;
  for (int i = 0; i < n; ++i) value *= 10;
  return value;
}

// std::to_chars without a precision gives the shortest text that reads back
// as the same double: for a file that says 3.712 that is "3.712". Fixed
// notation keeps the digits countable.
std::optional<Decimal> exact_decimal(double value) {
  if (!std::isfinite(value)) return std::nullopt;
  if (std::fabs(value) >= 1e18) return std::nullopt;
  char text[400];
  auto [end, error] = std::to_chars(text, text + sizeof text, value, std::chars_format::fixed);
  if (error != std::errc()) return std::nullopt;
  Decimal result;
  bool negative = false;
  bool after_point = false;
  int digits = 0;
  for (const char* c = text; c != end; ++c) {
    if (*c == '-') { negative = true; continue; }
    if (*c == '.') { after_point = true; continue; }
    if (result.digits == 0 && *c == '0' && !after_point) continue;
    if (++digits > 18) return std::nullopt;
    result.digits = result.digits * 10 + (*c - '0');
    if (after_point) ++result.decimals;
  }
  // Trailing zeros after the point carry no information.
  while (result.decimals > 0 && result.digits % 10 == 0) {
    result.digits /= 10;
    --result.decimals;
  }
  if (result.decimals > kMaxDecimals) return std::nullopt;
  if (negative) result.digits = -result.digits;
  return result;
}

std::optional<long long> to_ticks(const Decimal& value, int decimals) {
  if (decimals < value.decimals || decimals > kMaxDecimals) return std::nullopt;
  const long long scale = power_of_ten(decimals - value.decimals);
  if (std::llabs(value.digits) > kMaxTicks / scale) return std::nullopt;
  return value.digits * scale;
}

std::string format_ticks(long long ticks, int decimals) {
  const bool negative = ticks < 0;
  // kMaxTicks bounds every value, so negation cannot overflow; guard anyway
  // for callers that format sums.
  unsigned long long magnitude = negative ? 0ULL - static_cast<unsigned long long>(ticks)
                                          : static_cast<unsigned long long>(ticks);
  const unsigned long long scale = static_cast<unsigned long long>(power_of_ten(decimals));
  std::string text = std::to_string(magnitude / scale);
  unsigned long long fraction = magnitude % scale;
  if (fraction != 0) {
    std::string digits = std::to_string(fraction);
    digits.insert(0, static_cast<size_t>(decimals) - digits.size(), '0');
    while (!digits.empty() && digits.back() == '0') digits.pop_back();
    text += "." + digits;
  }
  return negative ? "-" + text : text;
}

double ticks_to_double(long long ticks, int decimals) {
  if (decimals == 0) return static_cast<double>(ticks);
  return std::strtod(format_ticks(ticks, decimals).c_str(), nullptr);
}

namespace {

struct Unit {
  const char* suffix;
  long long factor;
};

constexpr Unit kUnits[] = {
    {"KiB", 1LL << 10}, {"MiB", 1LL << 20}, {"GiB", 1LL << 30}, {"TiB", 1LL << 40},
    {"kB", 1000LL},     {"KB", 1000LL},     {"MB", 1000000LL},  {"GB", 1000000000LL},
    {"TB", 1000000000000LL}, {"B", 1LL},
};

bool ends_with(const std::string& text, const std::string& suffix) {
  return text.size() > suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

std::optional<Decimal> parse_quantity(const std::string& text) {
  std::string number = text;
  long long factor = 1;
  for (const Unit& unit : kUnits) {
    if (!ends_with(text, unit.suffix)) continue;
    number = text.substr(0, text.size() - std::char_traits<char>::length(unit.suffix));
    factor = unit.factor;
    break;
  }
  if (number.empty()) return std::nullopt;
  double value = 0;
  auto [end, error] = std::from_chars(number.data(), number.data() + number.size(), value);
  if (error != std::errc() || end != number.data() + number.size()) return std::nullopt;
  std::optional<Decimal> decimal = exact_decimal(value);
  if (!decimal) return std::nullopt;
  // Multiply exactly, then take back the decimals the factor absorbed.
  if (decimal->digits != 0 && std::llabs(decimal->digits) > std::numeric_limits<long long>::max() / factor)
    return std::nullopt;
  decimal->digits *= factor;
  while (decimal->decimals > 0 && decimal->digits % 10 == 0) {
    decimal->digits /= 10;
    --decimal->decimals;
  }
  return decimal;
}

}  // namespace tessel
