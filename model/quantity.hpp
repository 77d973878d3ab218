// Exact numbers for times and memory (docs/formats.md, "Numbers").
//
// Profiles give times such as 3.712 ms and memory in bytes; a schedule must
// compare sums of them exactly (a dependency that holds "up to rounding" is
// not a proof). So every time and every memory amount is an integer count of
// ticks, one tick being 10^-decimals of the file's unit: a placement whose
// spans are 1.5 and 3.712 has time_decimals 3 and spans 1500 and 3712. Files
// keep their own unit (the ticks are written back as the same decimals), and
// integer files have decimals 0, so a tick is the "step" of the unit-time
// model and nothing changes for them.
//
// Magnitudes are bounded at reading (kMaxTicks) so that sums over a whole
// schedule fit a long long with room to spare: no arithmetic downstream of a
// reader needs to check for overflow.
#pragma once

#include <optional>
#include <string>

namespace tessel {

using Time = long long;    // ticks of 10^-time_decimals of the time unit
using Memory = long long;  // ticks of 10^-memory_decimals of the memory unit

// Most decimals a number may carry, and the largest tick count of one value
// (2^50, about 1.1e15: a sum of a million of them still fits 2^63, and every
// value is exact as a double).
inline constexpr int kMaxDecimals = 9;
inline constexpr long long kMaxTicks = 1LL << 50;

// A decimal number read exactly: value = digits * 10^-decimals.
struct Decimal {
  long long digits = 0;
  int decimals = 0;
};

// 10^n for 0 <= n <= 18.
long long power_of_ten(int n);

// The shortest decimal that reads back as `value` (the number as the file
// wrote it, e.g. 3.712, not 3.71199999...). nullopt when it needs more than
// kMaxDecimals decimals or more than 18 digits, or is not finite.
std::optional<Decimal> exact_decimal(double value);

// `value` in ticks of 10^-decimals; nullopt when it needs more decimals than
// that or does not fit within kMaxTicks.
std::optional<long long> to_ticks(const Decimal& value, int decimals);

// "3.712" for ticks 3712 at 3 decimals; "-0.5"; "12" at 0 decimals. Trailing
// zeros are dropped ("1.5" for 1500 at 3 decimals).
std::string format_ticks(long long ticks, int decimals);

// The number as a double, for JSON output (exact for every tick count within
// kMaxTicks at decimals 0, and the nearest double otherwise, which reads
// back to the same ticks through exact_decimal).
double ticks_to_double(long long ticks, int decimals);

// The decimal `text` exactly as written, never through a double: "-12.5",
// "3.712", "1e9", "2.5E-3". nullopt when it is not such a number, needs more
// than kMaxDecimals decimals, or more than 18 digits (3.9999999999999999 is
// refused, not read as 4).
std::optional<Decimal> parse_decimal(const std::string& text);

// True when the JSON number literal `text` is what a writer prints for the
// double `value` it was parsed into: the double's shortest text, or its 17
// significant digits (printf's %.17g), so exact_decimal(value) gives the
// number the writer meant. False for 0.99999999999999999 (which parses to
// 1, printed "1" either way): the JSON readers refuse such numbers instead
// of judging a rounding.
bool double_is_literal(double value, const std::string& text);

// Byte units on the command line: "40GiB", "512MiB", "1.5GB", "1e9", "6".
// Binary (KiB, MiB, GiB, TiB) and decimal (kB, MB, GB, TB) suffixes, case as
// written; a plain number is taken as is (parse_decimal). nullopt for
// anything else.
std::optional<Decimal> parse_quantity(const std::string& text);

}  // namespace tessel
