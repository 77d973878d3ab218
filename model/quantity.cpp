// Exact decimals: reading a double back to the digits the file wrote, ticks
// at a chosen number of decimals, and byte units.
#include "model/quantity.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <algorithm>
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

// A literal split into its parts: value = (negative ? -1 : 1) * digits * 10^exponent.
struct Literal {
  bool negative = false;
  std::string digits;  // significant digits, no leading or trailing zeros ("" = zero)
  long long exponent = 0;
};

// "-12.50e3": an optional minus, digits with at most one point (at least one
// digit), an optional exponent. nullopt for anything else.
std::optional<Literal> split_literal(const std::string& text) {
  Literal literal;
  size_t i = 0;
  if (i < text.size() && text[i] == '-') literal.negative = true, ++i;
  bool point = false;
  bool any_digit = false;
  long long fraction = 0;
  for (; i < text.size() && text[i] != 'e' && text[i] != 'E'; ++i) {
    const char c = text[i];
    if (c == '.' && !point) {
      point = true;
      continue;
    }
    if (c < '0' || c > '9') return std::nullopt;
    any_digit = true;
    if (point) ++fraction;
    if (literal.digits.empty() && c == '0') continue;
    literal.digits += c;
  }
  if (!any_digit) return std::nullopt;
  long long exponent = 0;
  if (i < text.size()) {
    ++i;
    bool minus = false;
    if (i < text.size() && (text[i] == '-' || text[i] == '+')) minus = text[i] == '-', ++i;
    if (i == text.size()) return std::nullopt;
    for (; i < text.size(); ++i) {
      if (text[i] < '0' || text[i] > '9') return std::nullopt;
      exponent = std::min(exponent * 10 + (text[i] - '0'), 1000000LL);  // saturates: far beyond any range
    }
    if (minus) exponent = -exponent;
  }
  literal.exponent = exponent - fraction;
  while (!literal.digits.empty() && literal.digits.back() == '0') literal.digits.pop_back(), ++literal.exponent;
  return literal;
}

}  // namespace

std::optional<Decimal> parse_decimal(const std::string& text) {
  std::optional<Literal> literal = split_literal(text);
  if (!literal) return std::nullopt;
  if (literal->digits.empty()) return Decimal{};
  const long long whole_digits = static_cast<long long>(literal->digits.size()) + std::max(literal->exponent, 0LL);
  if (literal->exponent < -kMaxDecimals || whole_digits > 18) return std::nullopt;
  Decimal result;
  for (char c : literal->digits) result.digits = result.digits * 10 + (c - '0');
  for (long long e = 0; e < literal->exponent; ++e) result.digits *= 10;
  result.decimals = literal->exponent < 0 ? static_cast<int>(-literal->exponent) : 0;
  if (literal->negative) result.digits = -result.digits;
  return result;
}

namespace {

bool same_number(const Literal& a, const Literal& b) {
  if (a.digits.empty() || b.digits.empty()) return a.digits.empty() && b.digits.empty();
  return a.negative == b.negative && a.digits == b.digits && a.exponent == b.exponent;
}

// `value` printed in scientific notation: the shortest text that reads back
// as it (precision < 0), or with `precision` digits after the point.
std::optional<Literal> printed(double value, int precision) {
  char buffer[64];
  auto [end, error] = precision < 0
                          ? std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::scientific)
                          : std::to_chars(buffer, buffer + sizeof buffer, value, std::chars_format::scientific, precision);
  if (error != std::errc()) return std::nullopt;
  return split_literal(std::string(buffer, end));
}

}  // namespace

bool double_is_literal(double value, const std::string& text) {
  std::optional<Literal> written = split_literal(text);
  if (!written || !std::isfinite(value)) return false;
  // The two ways writers print a double: the shortest text, or printf's
  // %.17g (17 significant digits, e.g. 0.10000000000000001 for 0.1).
  for (int precision : {-1, 16}) {
    std::optional<Literal> held = printed(value, precision);
    if (held && same_number(*written, *held)) return true;
  }
  return false;
}

std::optional<Decimal> parse_quantity(const std::string& text) {
  std::string number = text;
  long long factor = 1;
  for (const Unit& unit : kUnits) {
    if (!ends_with(text, unit.suffix)) continue;
    number = text.substr(0, text.size() - std::char_traits<char>::length(unit.suffix));
    factor = unit.factor;
    break;
  }
  std::optional<Decimal> decimal = parse_decimal(number);
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
