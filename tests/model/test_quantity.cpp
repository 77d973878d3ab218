// Decimals read from their text, never through a double (model/quantity.hpp):
// a number with more digits than tessel keeps is refused, not rounded into a
// different value that then passes a check it should fail.
#include <cmath>
#include <limits>

#include <catch2/catch.hpp>

#include "model/input_error.hpp"
#include "model/json_file.hpp"
#include "model/quantity.hpp"

using namespace tessel;

namespace {

bool same(const std::optional<Decimal>& value, long long digits, int decimals) {
  return value && value->digits == digits && value->decimals == decimals;
}

}  // namespace

TEST_CASE("decimals from text: exact, or refused", "[quantity]") {
  CHECK(same(parse_decimal("3.712"), 3712, 3));
  CHECK(same(parse_decimal("1.50"), 15, 1));
  CHECK(same(parse_decimal("-0.5"), -5, 1));
  CHECK(same(parse_decimal("1e9"), 1000000000, 0));
  CHECK(same(parse_decimal("2.5E-3"), 25, 4));
  CHECK(same(parse_decimal("0.000"), 0, 0));
  CHECK(same(parse_decimal("0.999999999"), 999999999, 9));
  // Rounded by a double these are 4, 1 and 2^40; as written they need more
  // than 9 decimals or 18 digits.
  CHECK_FALSE(parse_decimal("3.9999999999999999"));
  CHECK_FALSE(parse_decimal("0.99999999999999999"));
  CHECK_FALSE(parse_decimal("1099511627775.999999999"));
  CHECK_FALSE(parse_decimal("1e19"));
  CHECK_FALSE(parse_decimal("1e-10"));
  for (const char* bad : {"", "-", ".", "1.2.3", "1e", "1e+", "inf", "nan", "0x10", "+1", "1 ", "1,5"})
    CHECK_FALSE(parse_decimal(bad));
  // Byte units multiply the exact value.
  CHECK(same(parse_quantity("1.5GiB"), 1610612736, 0));
  CHECK_FALSE(parse_quantity("3.9999999999999999"));
  CHECK(same(parse_quantity("3.999999999"), 3999999999, 9));
}

TEST_CASE("JSON numbers: a literal a double does not hold as written is refused with its place", "[quantity]") {
  CHECK(double_is_literal(0.1, "0.1"));
  CHECK(double_is_literal(1.0, "1.000"));
  CHECK(double_is_literal(1500.0, "1.5e3"));
  CHECK(double_is_literal(0.30000000000000004, "0.30000000000000004"));
  CHECK(double_is_literal(0.1, "0.10000000000000001"));  // printf's %.17g
  CHECK_FALSE(double_is_literal(0.1, "0.100000000000000001"));
  CHECK_FALSE(double_is_literal(1.0, "0.99999999999999999"));
  CHECK_FALSE(double_is_literal(0.0, "1e-400"));

  nlohmann::json ok = parse_json_text(R"({"a": [1, 2.5, {"b": 0.1}]})", "f.json");
  CHECK(ok["a"][2]["b"].get<double>() == 0.1);
  try {
    parse_json_text(R"({"a": [1, 2.5, {"b": 0.99999999999999999}]})", "f.json");
    FAIL("accepted");
  } catch (const InputError& error) {
    CHECK(error.file == "f.json");
    CHECK(error.field == "a[2].b");
    CHECK_THAT(error.reason, Catch::Contains("0.99999999999999999") && Catch::Contains("(a double would make it 1)"));
  }
  // A long literal is shortened in the message.
  const std::string long_number = "1." + std::string(5000, '0') + "1";
  try {
    parse_json_text("[" + long_number + "]", "f.json");
    FAIL("accepted");
  } catch (const InputError& error) {
    CHECK(error.field == "[0]");
    CHECK(std::string(error.what()).size() < 400);
  }
}

TEST_CASE("measured seconds are written so that tessel reads its own files back", "[quantity]") {
  // CI once failed on a schedule whose provenance held 0.7779350820000001 s.
  CHECK_THROWS_AS(parse_json_text(nlohmann::json{{"s", 0.7779350820000001}}.dump(), "f.json"), InputError);
  for (double seconds : {0.7779350820000001, 0.30000000000000004, 1e-9, 12345.678901234567, 0.0, 3.0}) {
    INFO(seconds);
    const nlohmann::json written = {{"solve_seconds", seconds_to_json(seconds)}};
    const nlohmann::json read = parse_json_text(written.dump(), "f.json");
    CHECK(std::abs(read["solve_seconds"].get<double>() - seconds) <= 5e-7);
  }
  CHECK(seconds_to_json(std::numeric_limits<double>::infinity()).is_null());
}
