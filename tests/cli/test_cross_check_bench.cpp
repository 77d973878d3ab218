// `tessel bench` as a user runs it: one small problem set on both backends,
// the JSON rows (both backends, the same optimum, a verified schedule, a
// ratio), the CSV header, and bad usage answered with exit 2 and a message
// naming the option.
#include <catch2/catch.hpp>

#include "tests/support.hpp"

using tessel::testing::run_tessel;

TEST_CASE("bench --json: both backends, same optimum, verified, with ratios", "[cross-check][bench][cli]") {
  auto result = run_tessel("bench --cases vshape,kshape-infer --ndevs 4 --memory 4 --time-limit 20 --json");
  INFO(result.err);
  REQUIRE(result.exit_code == 0);
  nlohmann::json out = nlohmann::json::parse(result.out);
  REQUIRE(out["rows"].size() == 4);  // (vshape M=4, kshape inference) x (cadical, z3)
  CHECK(out["disagreements"].empty());
  for (size_t i = 0; i < out["rows"].size(); i += 2) {
    const auto& a = out["rows"][i];
    const auto& b = out["rows"][i + 1];
    CHECK(a["problem"] == b["problem"]);
    CHECK(a["backend"] == "cadical");
    CHECK(b["backend"] == "z3");
    CHECK(a["result"] == "optimum");
    CHECK(b["result"] == "optimum");
    CHECK(a["value"] == b["value"]);
    CHECK(a["proven_lower_bound"] == b["proven_lower_bound"]);
    CHECK(a["verified"] == "valid");
    CHECK(b["verified"] == "valid");
    CHECK(a["ratio_to_fastest"].get<std::string>().back() == 'x');
  }
  CHECK(out["rows"][0]["value"] == 4);  // vshape, 4 devices: period = L = 4
}

TEST_CASE("bench --csv and the table", "[cross-check][bench][cli]") {
  auto csv = run_tessel("bench --cases vshape-infer --ndevs 2 --backends cadical --csv");
  REQUIRE(csv.exit_code == 0);
  CHECK(csv.out.rfind("problem,case,ndevs,memory,strategy,nmicros,backend,result,", 0) == 0);
  CHECK(csv.out.find("vshape-infer D=2 M=- repetend,vshape,2,,repetend,,cadical,optimum,1,1,") != std::string::npos);
  auto table = run_tessel("bench --cases mshape --ndevs 4 --memory 4 --strategies full --nmicros 2 --backends cadical");
  REQUIRE(table.exit_code == 0);
  CHECK(table.out.find("mshape D=4 M=4 full N=2") != std::string::npos);
  CHECK(table.out.find("optimum 24") != std::string::npos);
}

TEST_CASE("bench: bad usage exits 2 naming the option", "[cross-check][bench][cli]") {
  struct Case {
    const char* args;
    const char* names;
  } cases[] = {
      {"bench --cases vshape --backends cadical,minisat", "minisat"},
      {"bench --cases nosuchcase", "--case"},
      {"bench --cases vshape --json --csv", "--json/--csv"},
      {"bench --cases vshape --time-limit 0", "--time-limit"},
      {"bench --cases vshape --ndevs 4,x", "--ndevs"},
      {"bench --cases vshape --strategies greedy", "--strategies"},
      {"bench --hard --cases vshape", "--hard"},
      {"bench", "--cases"},
  };
  for (const Case& c : cases) {
    auto result = run_tessel(c.args);
    INFO(c.args << " -> " << result.err);
    CHECK(result.exit_code == 2);
    CHECK(result.err.find(c.names) != std::string::npos);
  }
}
