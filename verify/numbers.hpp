// Exact numbers in the verifier (docs/formats.md, "Numbers"), read on its
// own: verify/ shares no code with model/. A schedule with measured times
// (3.712 ms) or memory in bytes must be judged on the numbers the file
// holds, not on a rounding, so every time and every memory amount becomes an
// integer count of ticks of 10^-decimals; a document's decimals are the most
// any of its times (or memory amounts) carries. Integer files have decimals
// 0 and their ticks are their steps.
//
// A JSON number is taken as it is written: the shortest decimal that reads
// back as the same double (what every JSON writer prints), so 3.712 is 3712
// at 3 decimals and never 3.71199999.... Values are bounded (kMaxTicks) so
// that sums over a schedule fit a long long.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

namespace tessel::verify {

inline constexpr int kMaxDecimals = 9;
inline constexpr long long kMaxTicks = 1LL << 50;  // about 1.1e15

// value = digits * 10^-decimals, decimals in [0, kMaxDecimals].
struct Exact {
  long long digits = 0;
  int decimals = 0;
};

// nullopt when `value` is not a number, needs more than kMaxDecimals
// decimals, or lies beyond kMaxTicks in magnitude.
std::optional<Exact> exact_number(const nlohmann::json& value);

// `value` in ticks of 10^-decimals (decimals >= value.decimals); nullopt
// past kMaxTicks.
std::optional<long long> ticks_at(const Exact& value, int decimals);

// 10^n for 0 <= n <= kMaxDecimals.
long long ten_to(int n);

// "3.712" for 3712 at 3 decimals, "-0.5", "12"; trailing zeros dropped.
std::string ticks_text(long long ticks, int decimals);

// The nearest double, for JSON reports (exact for integers).
double ticks_value(long long ticks, int decimals);

}  // namespace tessel::verify
