// `tessel search --strategy fast` from the command line: the same report as
// the repetend strategy, honest about what it proves (nothing beyond L), a
// schedule that the verifier accepts, quick at 64 devices, and the usual
// answers to impossible memory and bad options; the text answer stays
// within a terminal's width.
#include <catch2/catch.hpp>

#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "model/schedule_json.hpp"
#include "tests/support.hpp"

using tessel::testing::run_tessel;
using tessel::testing::TempDir;

TEST_CASE("fast cli: a verified schedule with its gap to L, never a false proof", "[fast][cli]") {
  TempDir dir;
  auto result = run_tessel("search --case mshape --ndevs 16 --memory 20 --strategy fast --json -o " +
                           dir.file("s.json"));
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  nlohmann::json out = nlohmann::json::parse(result.out);
  CHECK(out["status"] == "found");
  CHECK(out["strategy"] == "fast");
  CHECK(out["verified"] == true);
  CHECK(out["proven_lower_bound"] == out["lower_bound"]);
  CHECK(out["gap_to_lower_bound"].get<int>() == out["period"].get<int>() - out["lower_bound"].get<int>());
  CHECK(out["optimal"] == (out["period"] == out["lower_bound"]));
  CHECK_FALSE(out["construction"].get<std::string>().empty());
  CHECK(out["makespan_at_total"].get<int>() >= out["makespan_bound_at_total"].get<int>());
  auto verified = run_tessel("verify " + dir.file("s.json"));
  CHECK(verified.exit_code == 0);
  // The file holds the best shape at N: a repetend unrolls to any count,
  // any other shape holds exactly N = 128 micro-batches.
  if (out["shape"] == "repetend") {
    auto unrolled = run_tessel("unroll " + dir.file("s.json") + " --nmicros 100 -o " + dir.file("u.json"));
    CHECK(unrolled.exit_code == 0);
    CHECK(run_tessel("verify " + dir.file("u.json")).exit_code == 0);
  } else {
    CHECK(tessel::read_schedule_file(dir.file("s.json")).nmicros == 128);
  }

  // Text: period above L is "not proven optimal"; at L it is (P = L needs no search).
  auto text = run_tessel("search --case mshape --ndevs 16 --memory 20 --strategy fast");
  REQUIRE(text.exit_code == 0);
  if (out["period"] != out["lower_bound"]) {
    CHECK_THAT(text.out, Catch::Contains("not proven optimal"));
  }
  CHECK_THAT(text.out, Catch::Contains("gap to L"));
  auto at_bound = run_tessel("search --case kshape --ndevs 8 --memory 20 --strategy fast");
  REQUIRE(at_bound.exit_code == 0);
  CHECK_THAT(at_bound.out, Catch::Contains("proven optimal (P = L)"));
}

TEST_CASE("fast cli: 64 devices answer quickly", "[fast][cli]") {
  for (const char* name : {"mshape", "xshape"}) {
    auto result = run_tessel(std::string("search --case ") + name + " --ndevs 64 --memory 20 --strategy fast --json");
    INFO(name << ": " << result.err);
    REQUIRE(result.exit_code == 0);
    nlohmann::json out = nlohmann::json::parse(result.out);
    CHECK(out["verified"] == true);
    // A guard against a hang, not a speed measurement (cases/bench measures
    // speed): the construction takes milliseconds, the makespan portfolio
    // after it about 2 s on a quiet machine, several under load.
    CHECK(out["solve_seconds"].get<double>() < 30);
  }
}

TEST_CASE("fast cli: impossible memory is a proven no, bad options exit 2", "[fast][cli]") {
  auto none = run_tessel("search --case vshape --ndevs 4 --memory 0 --strategy fast");
  CHECK(none.exit_code == 1);
  CHECK_THAT(none.err, Catch::Contains("even for one micro-batch"));
  auto window = run_tessel("search --case vshape --ndevs 4 --memory 4 --strategy fast --micros-per-window 2");
  CHECK(window.exit_code == 2);
  auto growing = run_tessel("search --case vshape --ndevs 4 --memory 4 --strategy fastest");
  CHECK(growing.exit_code == 2);
  CHECK_THAT(growing.err, Catch::Contains("repetend, full, fast"));
}

TEST_CASE("fast cli: the text answer's timeline is an excerpt within 120 columns", "[fast][cli]") {
  auto result = run_tessel("search --case mshape --ndevs 16 --memory 16 --strategy fast");
  REQUIRE(result.exit_code == 0);
  std::istringstream lines(result.out);
  int rows = 0;
  for (std::string line; std::getline(lines, line);) {
    if (line.rfind("dev ", 0) != 0) continue;
    ++rows;
    CHECK(line.size() <= 120);
  }
  CHECK(rows == 16);
  CHECK_THAT(result.out, Catch::Contains("(showing steps 0.."));
  CHECK_THAT(result.out, Catch::Contains("tessel show FILE"));
}
