// The built-in placements (docs/formats.md, "Built-in placements"): block counts and per-device loads
// that each definition implies, the reference CSV's lower bounds, the gid
// order, and the rejection of unknown names and device counts.
#include <catch2/catch.hpp>

#include <algorithm>
#include <tuple>

#include "cases/builtin_cases.hpp"
#include "model/input_error.hpp"
#include "model/placement_json.hpp"
#include "tests/support.hpp"

using namespace tessel;

namespace {

struct Expected {
  std::string name;
  int blocks_per_device_factor;  // blocks = factor * D + constant
  int blocks_constant;
  int load;  // the same on every device
  int infer_blocks_factor;
  int infer_blocks_constant;
  int infer_load;
};

// Counts and loads as the definitions imply them: e.g. mshape has fs, D
// forwards, D backwards and bs; every device runs fs, its F (1), its B (3)
// and bs: load 6.
const std::vector<Expected> kExpected = {
    {"vshape", 2, 0, 4, 1, 0, 1},    {"xshape", 4, 0, 8, 2, 0, 2},
    {"mshape", 2, 2, 6, 1, 1, 2},    {"nnshape", 2, 4, 8, 1, 2, 3},
    {"kshape", 2, 2, 6, 1, 1, 2},    {"mllm", 2, 4, 8, 1, 2, 3},
    {"finetune", 2, 1, 4, 1, 1, 2},  {"alphafold", 4, 0, 4, 3, 0, 3},
};

std::string input_error(const std::string& name, int ndevs) {
  try {
    make_case(name, ndevs, false);
  } catch (const InputError& error) {
    return error.field + ": " + error.reason;
  }
  return "";
}

}  // namespace

TEST_CASE("each built-in case has the blocks and loads its definition implies", "[cases]") {
  for (const Expected& expected : kExpected)
    for (int ndevs : {2, 4, 6, 8}) {
      INFO(expected.name << " on " << ndevs << " devices");
      Placement training = make_case(expected.name, ndevs, false);
      CHECK(static_cast<int>(training.blocks.size()) ==
            expected.blocks_per_device_factor * ndevs + expected.blocks_constant);
      CHECK(device_load(training) == std::vector<Time>(ndevs, expected.load));
      CHECK(memory_balance(training) == std::vector<long long>(ndevs, 0));
      CHECK_FALSE(find_cycle(training));

      Placement inference = make_case(expected.name, ndevs, true);
      CHECK(static_cast<int>(inference.blocks.size()) ==
            expected.infer_blocks_factor * ndevs + expected.infer_blocks_constant);
      CHECK(device_load(inference) == std::vector<Time>(ndevs, expected.infer_load));
      for (const Block& block : inference.blocks) {
        CHECK(block.kind == BlockKind::Forward);
        CHECK(block.memory == 0);
      }
    }
}

TEST_CASE("mshape on 4 devices: 10 blocks, load 6 everywhere, one dependency chain", "[cases]") {
  Placement placement = make_case("mshape", 4, false);
  REQUIRE(placement.blocks.size() == 10);
  CHECK(device_load(placement) == std::vector<Time>{6, 6, 6, 6});
  std::vector<std::string> ids;
  for (const Block& block : placement.blocks) ids.push_back(block.id);
  CHECK(ids == std::vector<std::string>{"fs", "f0", "f1", "f2", "f3", "b3", "b2", "b1", "b0", "bs"});
  CHECK(placement.edges.size() == 9);
  CHECK(critical_path(placement) == 1 + 4 + 12 + 1);
  CHECK(placement.blocks.front().devices == std::vector<int>{0, 1, 2, 3});
  CHECK(placement.blocks.front().memory == 0);
  CHECK(placement.blocks[1].memory == 1);
  CHECK(placement.blocks[5].span == 3);
  CHECK(placement.blocks[5].memory == -1);
}

TEST_CASE("lower bounds L match the Python Tessel's reference results", "[cases]") {
  // the Python Tessel's results CSV, column lb_period, 4 devices.
  CHECK(period_lower_bound(make_case("mshape", 4, false)) == 6);
  CHECK(period_lower_bound(make_case("nnshape", 4, false)) == 8);
  CHECK(period_lower_bound(make_case("vshape", 4, false)) == 4);
  CHECK(period_lower_bound(make_case("xshape", 4, false)) == 8);
  CHECK(period_lower_bound(make_case("kshape", 4, false)) == 6);
  CHECK(period_lower_bound(make_case("vshape", 4, true)) == 1);
  CHECK(period_lower_bound(make_case("xshape", 4, true)) == 2);
  CHECK(period_lower_bound(make_case("kshape", 4, true)) == 2);
  CHECK(period_lower_bound(make_case("mshape", 4, true)) == 2);
  CHECK(period_lower_bound(make_case("nnshape", 4, true)) == 3);
  // Suites c and e: larger device counts keep the same L.
  CHECK(period_lower_bound(make_case("vshape", 7, false)) == 4);
  CHECK(period_lower_bound(make_case("mshape", 16, false)) == 6);
  CHECK(period_lower_bound(make_case("nnshape", 16, false)) == 8);
}

TEST_CASE("blocks are listed in gid order: ASAP start step, then lowest device", "[cases]") {
  for (const CaseInfo& info : builtin_cases())
    for (bool infer : {false, true}) {
      int ndevs = info.name == "nnshape_eager" ? 4 : 6;
      INFO(info.name << (infer ? " --infer" : ""));
      Placement placement = make_case(info.name, ndevs, infer);
      std::vector<Time> start = earliest_starts(placement);
      for (size_t i = 1; i < placement.blocks.size(); ++i)
        CHECK(std::make_tuple(start[i - 1], placement.blocks[i - 1].devices.front()) <=
              std::make_tuple(start[i], placement.blocks[i].devices.front()));
    }
  // kshape: both branches advance together, as the Python tool numbers them.
  Placement kshape = make_case("kshape", 4, false);
  std::vector<std::string> ids;
  for (const Block& block : kshape.blocks) ids.push_back(block.id);
  CHECK(ids == std::vector<std::string>{"f0", "f2", "f1", "f3", "fa", "ba", "b1", "b3", "b0", "b2"});
  CHECK(kshape.blocks[4].devices == std::vector<int>{0, 1, 2, 3});
  // xshape on 3 devices: f1 and fr1 both start at step 1 on device 1 (the
  // Python tool cannot lay this out); the V chain is numbered first.
  std::vector<std::string> xshape_ids;
  for (const Block& block : make_case("xshape", 3, true).blocks) xshape_ids.push_back(block.id);
  CHECK(xshape_ids == std::vector<std::string>{"f0", "fr2", "f1", "fr1", "fr0", "f2"});
  CHECK(kshape.blocks[4].memory == 1);
  CHECK(kshape.blocks[5].memory == -1);
}

TEST_CASE("nnshape and nnshape_eager place the second all-device block as defined", "[cases]") {
  auto ids_of = [](const Placement& placement) {
    std::vector<std::string> ids;
    for (const Block& block : placement.blocks) ids.push_back(block.id);
    return ids;
  };
  CHECK(ids_of(make_case("nnshape", 4, false)) ==
        std::vector<std::string>{"fs1", "f0", "f1", "fs2", "f2", "f3", "b3", "b2", "bs2", "b1", "b0", "bs1"});
  CHECK(ids_of(make_case("nnshape_eager", 4, false)) ==
        std::vector<std::string>{"fs1", "f0", "fs2", "f1", "f2", "f3", "b3", "b2", "b1", "bs2", "b0", "bs1"});
  CHECK(ids_of(make_case("nnshape", 4, true)) == std::vector<std::string>{"fs1", "f0", "f1", "fs2", "f2", "f3"});
  // Odd D: the first half is D//2 devices and bs2 comes after D//2
  // backward blocks, as the Python Tessel builds it (no mirror of the forward).
  Placement five = make_case("nnshape", 5, false);
  CHECK(ids_of(five) == std::vector<std::string>{"fs1", "f0", "f1", "fs2", "f2", "f3", "f4", "b4", "b3", "bs2", "b2",
                                                 "b1", "b0", "bs1"});
  CHECK(five.blocks[find_block(five, "f2")].devices == std::vector<int>{2});
  CHECK(five.blocks[find_block(five, "fs2")].devices == std::vector<int>{0, 1, 2, 3, 4});
  CHECK(period_lower_bound(five) == 8);  // device 0: fs1, f0, fs2, b0, bs2, bs1 = 1+1+1+3+1+1
  CHECK(ids_of(make_case("nnshape", 3, false)) ==
        std::vector<std::string>{"fs1", "f0", "fs2", "f1", "f2", "b2", "bs2", "b1", "b0", "bs1"});
}

TEST_CASE("unknown cases and unsupported device counts are rejected clearly", "[cases]") {
  CHECK_THAT(input_error("wshape", 4), Catch::Contains("--case") && Catch::Contains("unknown case 'wshape'") && Catch::Contains("did you mean 'vshape'") &&
                                           Catch::Contains("mshape") && Catch::Contains("alphafold"));
  CHECK(input_error("nnshape", 5).empty());
  CHECK_THAT(input_error("kshape", 3), Catch::Contains("--ndevs") && Catch::Contains("even"));
  CHECK_THAT(input_error("nnshape_eager", 8), Catch::Contains("--ndevs") && Catch::Contains("D = 4"));
  CHECK_THAT(input_error("vshape", 1), Catch::Contains("--ndevs"));
  CHECK_THAT(input_error("vshape", 0), Catch::Contains("--ndevs"));
  CHECK_THAT(input_error("vshape", -3), Catch::Contains("--ndevs"));
  CHECK(input_error("vshape", 5).empty());
}

TEST_CASE("every built-in placement survives its own file format", "[cases]") {
  for (const CaseInfo& info : builtin_cases()) {
    Placement placement = make_case(info.name, 4, false);
    nlohmann::json document = placement_to_json(placement);
    Placement again = placement_from_json(document, JsonPlace{"case.json", ""});
    CHECK(placement_to_json(again) == document);
  }
}

TEST_CASE("tessel cases and tessel placement on the command line", "[cases][cli]") {
  auto listed = testing::run_tessel("cases");
  CHECK(listed.exit_code == 0);
  for (const CaseInfo& info : builtin_cases()) CHECK_THAT(listed.out, Catch::Contains(info.name));

  auto written = testing::run_tessel("placement --case mshape --ndevs 4");
  REQUIRE(written.exit_code == 0);
  Placement placement = placement_from_json(nlohmann::json::parse(written.out), JsonPlace{"stdout", ""});
  CHECK(placement.blocks.size() == 10);

  testing::TempDir dir;
  auto to_file = testing::run_tessel("placement --case kshape --ndevs 4 --infer -o " + dir.file("k.json"));
  REQUIRE(to_file.exit_code == 0);
  Placement inference = read_placement_file(dir.file("k.json"));
  CHECK(inference.blocks.size() == 5);
  CHECK(period_lower_bound(inference) == 2);

  auto odd = testing::run_tessel("placement --case kshape --ndevs 5");
  CHECK(odd.exit_code == 2);
  CHECK_THAT(odd.err, Catch::Contains("--ndevs") && Catch::Contains("even"));
  auto unknown = testing::run_tessel("placement --case nope --ndevs 4");
  CHECK(unknown.exit_code == 2);
  CHECK_THAT(unknown.err, Catch::Contains("unknown case 'nope'"));
  auto missing = testing::run_tessel("placement --case vshape");
  CHECK(missing.exit_code == 2);
  CHECK_THAT(missing.err, Catch::Contains("--ndevs"));
  CHECK(testing::run_tessel("placement --help").exit_code == 0);
  CHECK(testing::run_tessel("cases --help").exit_code == 0);
}
