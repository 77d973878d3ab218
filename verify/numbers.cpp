// Reading JSON numbers exactly and writing tick counts back as decimals
// (see the header for why the written form is the value).
#include "verify/numbers.hpp"

#include <charconv>
#include <cstdlib>

namespace tessel::verify {

namespace {

// Multiplies by 10^n unless the result passes kMaxTicks.
std::optional<long long> shifted(long long digits, int n) {
  for (int i = 0; i < n; ++i) {
    if (digits > kMaxTicks / 10 || digits < -kMaxTicks / 10) return std::nullopt;
    digits *= 10;
  }
  if (digits > kMaxTicks || digits < -kMaxTicks) return std::nullopt;
  return digits;
}

// "1.37", "-2.5e-05", "1e+20", "100.0": the way a JSON writer prints a double.
std::optional<Exact> parse_written(const std::string& text) {
  size_t i = 0;
  bool negative = false;
  if (i < text.size() && text[i] == '-') negative = true, ++i;
  long long digits = 0;
  int fraction = 0;
  bool point = false;
  int significant = 0;
  for (; i < text.size() && text[i] != 'e' && text[i] != 'E'; ++i) {
    if (text[i] == '.') {
      point = true;
      continue;
    }
    if (text[i] < '0' || text[i] > '9') return std::nullopt;
    if (digits > 0 || text[i] != '0') ++significant;
    if (significant > 17) return std::nullopt;
    digits = digits * 10 + (text[i] - '0');
    if (point) ++fraction;
  }
  int exponent = i < text.size() ? std::atoi(text.c_str() + i + 1) : 0;
  if (exponent > 30 || exponent < -30) return digits == 0 ? std::optional<Exact>(Exact{}) : std::nullopt;
  int decimals = fraction - exponent;
  while (decimals > 0 && digits % 10 == 0 && digits != 0) digits /= 10, --decimals;
  if (digits == 0) return Exact{};
  if (decimals < 0) {
    std::optional<long long> whole = shifted(digits, -decimals);
    if (!whole) return std::nullopt;
    digits = *whole;
    decimals = 0;
  }
  if (decimals > kMaxDecimals || digits > kMaxTicks) return std::nullopt;
  return Exact{negative ? -digits : digits, decimals};
}

}  // namespace

long long ten_to(int n) {
  long long value = 1;
  for (int i = 0; i < n; ++i) value *= 10;
  return value;
}

std::optional<Exact> exact_number(const nlohmann::json& value) {
  if (value.is_number_unsigned()) {
    if (value.get<unsigned long long>() > static_cast<unsigned long long>(kMaxTicks)) return std::nullopt;
    return Exact{static_cast<long long>(value.get<unsigned long long>()), 0};
  }
  if (value.is_number_integer()) {
    const long long number = value.get<long long>();
    if (number > kMaxTicks || number < -kMaxTicks) return std::nullopt;
    return Exact{number, 0};
  }
  if (!value.is_number_float()) return std::nullopt;
  // The shortest text that reads back as the same double: the JSON
  // writer's own (Grisu2) is not always shortest and may print 1049.36712
  // as 1049.3671200000001, which would look like 13 decimals.
  char text[64];
  auto [end, error] = std::to_chars(text, text + sizeof text, value.get<double>());
  if (error != std::errc()) return std::nullopt;
  return parse_written(std::string(text, end));
}

std::optional<long long> ticks_at(const Exact& value, int decimals) {
  return shifted(value.digits, decimals - value.decimals);
}

std::string ticks_text(long long ticks, int decimals) {
  if (decimals == 0) return std::to_string(ticks);
  const long long unit = ten_to(decimals);
  const unsigned long long magnitude = ticks < 0 ? 0ULL - static_cast<unsigned long long>(ticks) : ticks;
  std::string fraction = std::to_string(magnitude % unit);
  fraction.insert(0, decimals - fraction.size(), '0');
  while (!fraction.empty() && fraction.back() == '0') fraction.pop_back();
  std::string text = (ticks < 0 ? "-" : "") + std::to_string(magnitude / unit);
  return fraction.empty() ? text : text + "." + fraction;
}

double ticks_value(long long ticks, int decimals) {
  if (decimals == 0) return static_cast<double>(ticks);
  return std::strtod(ticks_text(ticks, decimals).c_str(), nullptr);
}

}  // namespace tessel::verify
