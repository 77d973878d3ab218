// Import of the Python Tessel's `SchedPlan.save()` JSON: a hand-made file in
// that format (1F1B on 2 devices, blocks saved in arbitrary order, a window
// longer than its period) imports, passes the verifier and unrolls; a file
// that disagrees with the placement is rejected naming the field.
#include <catch2/catch.hpp>

#include "cases/builtin_cases.hpp"
#include "model/formats/tessel_json.hpp"
#include "model/input_error.hpp"
#include "model/unroll.hpp"
#include "tests/support.hpp"

using namespace tessel;

namespace {

// What `SchedPlan.save()` writes for the vshape premise on 2 devices: gids
// 0 f0, 1 f1, 2 b1, 3 b0 (the order of their steps in one micro-batch).
nlohmann::json saved_vshape2() {
  return nlohmann::json::parse(R"({"ndevs": 2, "blocks": [
    {"mid": 1, "span": 3, "memory": -1, "btype": "backward", "gid": 3, "step": 10, "device": [0]},
    {"mid": 0, "span": 1, "memory": 1, "btype": "forward", "gid": 0, "step": 0, "device": [0]},
    {"mid": 0, "span": 3, "memory": -1.0, "btype": "backward", "gid": 2, "step": 2, "device": [1]},
    {"mid": 1, "span": 1, "memory": 1.0, "btype": "forward", "gid": 0, "step": 4, "device": [0]},
    {"mid": 0, "span": 1, "memory": 1, "btype": "forward", "gid": 1, "step": 1, "device": [1]},
    {"mid": 1, "span": 1, "memory": 1, "btype": "forward", "gid": 1, "step": 5, "device": [1]},
    {"mid": 0, "span": 3, "memory": -1, "btype": "backward", "gid": 3, "step": 5, "device": [0]},
    {"mid": 1, "span": 3, "memory": -1, "btype": "backward", "gid": 2, "step": 7, "device": [1]}],
    "repetend": [2, 7]})");
}

std::string import_error(const nlohmann::json& document, const Placement& placement) {
  try {
    import_tessel_json(document, placement, "saved.json");
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

void require_valid(const Schedule& schedule) {
  verify::Report report = testing::verify_schedule(schedule);
  INFO(verify::report_to_text(report));
  REQUIRE(report.valid);
}

}  // namespace

TEST_CASE("a saved Python Tessel schedule imports, verifies and unrolls", "[tessel-json]") {
  Placement placement = make_case("vshape", 2, false);
  Schedule schedule = import_tessel_json(saved_vshape2(), placement, "saved.json", {2});
  CHECK(schedule.nmicros == 2);
  CHECK(schedule.instances.size() == 8);
  CHECK(schedule.memory_limit == std::vector<long long>{2, 2});
  CHECK(makespan(schedule) == 13);
  // The Python window [2, 7) is 5 steps long but repeats every 4 (= L); its
  // first 4 steps run every block once, which is the repetend claimed.
  CHECK(schedule.meta["tessel_repetend"] == nlohmann::json{2, 7});
  CHECK(schedule.meta["tessel_period"] == 4);
  REQUIRE(schedule.repetend);
  CHECK(schedule.repetend->start == 2);
  CHECK(schedule.repetend->end == 6);
  CHECK(schedule.repetend->period == 4);
  CHECK(schedule.repetend->micros_per_period == 1);
  require_valid(schedule);
  for (int nmicros : {3, 5, 8}) {
    Schedule unrolled = unroll(schedule, nmicros);
    INFO("N = " << nmicros);
    CHECK(makespan(unrolled) == 13 + 4 * (nmicros - 2));
    require_valid(unrolled);
  }
}

TEST_CASE("a Python schedule can be imported unrolled", "[tessel-json]") {
  Placement placement = make_case("vshape", 2, false);
  Schedule schedule = import_tessel_json(saved_vshape2(), placement, "saved.json", {2}, 6);
  CHECK(schedule.nmicros == 6);
  CHECK(schedule.meta["unrolled_from_nmicros"] == 2);
  CHECK(makespan(schedule) == 13 + 4 * 4);
  REQUIRE(schedule.repetend);
  CHECK(schedule.repetend->period == 4);
  require_valid(schedule);
  std::string error;
  try {
    import_tessel_json(saved_vshape2(), placement, "saved.json", {2}, 1);
  } catch (const InputError& caught) {
    error = caught.what();
  }
  CHECK_THAT(error, Catch::Contains("--nmicros"));
}

TEST_CASE("a window wider than two periods gets a repetend only once unrolled", "[tessel-json]") {
  // Window [2, 10): b1:0 at 2, f0:1 at 4, f1:1 at 5, b0:0 at 9 - one of each
  // block over 8 steps, repeating every 4; no 4 steps of the saved file run
  // every block once.
  nlohmann::json document = nlohmann::json::parse(R"({"ndevs": 2, "blocks": [
    {"mid": 0, "span": 1, "memory": 1, "btype": "forward", "gid": 0, "step": 0, "device": [0]},
    {"mid": 0, "span": 1, "memory": 1, "btype": "forward", "gid": 1, "step": 1, "device": [1]},
    {"mid": 0, "span": 3, "memory": -1, "btype": "backward", "gid": 2, "step": 2, "device": [1]},
    {"mid": 1, "span": 1, "memory": 1, "btype": "forward", "gid": 0, "step": 4, "device": [0]},
    {"mid": 1, "span": 1, "memory": 1, "btype": "forward", "gid": 1, "step": 5, "device": [1]},
    {"mid": 0, "span": 3, "memory": -1, "btype": "backward", "gid": 3, "step": 9, "device": [0]},
    {"mid": 1, "span": 3, "memory": -1, "btype": "backward", "gid": 2, "step": 10, "device": [1]},
    {"mid": 1, "span": 3, "memory": -1, "btype": "backward", "gid": 3, "step": 13, "device": [0]}],
    "repetend": [2, 10]})");
  Placement placement = make_case("vshape", 2, false);
  Schedule as_saved = import_tessel_json(document, placement, "wide.json", {3});
  require_valid(as_saved);
  CHECK(as_saved.meta["tessel_period"] == 4);
  CHECK_FALSE(as_saved.repetend);
  CHECK_THAT(as_saved.meta["repetend_note"].get<std::string>(), Catch::Contains("unrolled"));

  Schedule unrolled = import_tessel_json(document, placement, "wide.json", {3}, 8);
  CHECK(unrolled.nmicros == 8);
  CHECK(makespan(unrolled) == 16 + 4 * 6);
  REQUIRE(unrolled.repetend);
  CHECK(unrolled.repetend->period == 4);
  require_valid(unrolled);
  // Its repetend is the usual kind: unroll continues from it.
  Schedule longer = unroll(unrolled, 12);
  CHECK(makespan(longer) == 16 + 4 * 10);
  require_valid(longer);
}

TEST_CASE("a Python schedule imports without a memory limit as unlimited", "[tessel-json]") {
  Schedule schedule = import_tessel_json(saved_vshape2(), make_case("vshape", 2, false), "saved.json");
  CHECK(schedule.memory_limit.empty());
  REQUIRE(schedule.repetend);
  CHECK(schedule.repetend->period == 4);
  require_valid(schedule);
}

TEST_CASE("a window that cannot repeat is imported without a repetend, saying why", "[tessel-json]") {
  Placement placement = make_case("vshape", 2, false);
  SECTION("window holding one block twice") {
    nlohmann::json document = saved_vshape2();
    document["repetend"] = {2, 8};
    Schedule schedule = import_tessel_json(document, placement, "saved.json");
    CHECK_FALSE(schedule.repetend);
    CHECK_THAT(schedule.meta["repetend_note"].get<std::string>(), Catch::Contains("equally often"));
    require_valid(schedule);
  }
  SECTION("a memory limit the schedule itself exceeds") {
    Schedule schedule = import_tessel_json(saved_vshape2(), placement, "saved.json", {1});
    CHECK_FALSE(schedule.repetend);
    CHECK_THAT(schedule.meta["repetend_note"].get<std::string>(), Catch::Contains("no period"));
  }
}

TEST_CASE("a saved schedule that disagrees with the placement names the field", "[tessel-json]") {
  Placement placement = make_case("vshape", 2, false);
  nlohmann::json document = saved_vshape2();
  SECTION("span") {
    document["blocks"][2]["span"] = 2;
    CHECK_THAT(import_error(document, placement),
               Catch::Contains("saved.json") && Catch::Contains("blocks[2].span") && Catch::Contains("'b1'"));
  }
  SECTION("memory") {
    document["blocks"][1]["memory"] = 2;
    CHECK_THAT(import_error(document, placement), Catch::Contains("blocks[1].memory") && Catch::Contains("'f0'"));
  }
  SECTION("fractional memory") {
    document["blocks"][1]["memory"] = 0.5;
    CHECK_THAT(import_error(document, placement), Catch::Contains("blocks[1].memory") && Catch::Contains("integer"));
  }
  SECTION("devices") {
    document["blocks"][4]["device"] = {0};
    CHECK_THAT(import_error(document, placement), Catch::Contains("blocks[4].device") && Catch::Contains("[1]"));
  }
  SECTION("btype") {
    document["blocks"][0]["btype"] = "forward";
    CHECK_THAT(import_error(document, placement), Catch::Contains("blocks[0].btype"));
  }
  SECTION("gid beyond the placement") {
    document["blocks"][5]["gid"] = 4;
    CHECK_THAT(import_error(document, placement), Catch::Contains("blocks[5].gid") && Catch::Contains("outside"));
  }
  SECTION("missing step") {
    document["blocks"][3].erase("step");
    CHECK_THAT(import_error(document, placement), Catch::Contains("blocks[3].step") && Catch::Contains("missing"));
  }
  SECTION("negative step") {
    document["blocks"][3]["step"] = -2;
    CHECK_THAT(import_error(document, placement), Catch::Contains("blocks[3].step") && Catch::Contains(">= 0"));
  }
  SECTION("device count") {
    CHECK_THAT(import_error(document, make_case("vshape", 4, false)),
               Catch::Contains("ndevs") && Catch::Contains("2 devices"));
  }
  SECTION("repetend not a pair") {
    document["repetend"] = {2};
    CHECK_THAT(import_error(document, placement), Catch::Contains("repetend") && Catch::Contains("[start, end]"));
  }
  SECTION("not an object") {
    CHECK_THAT(import_error(nlohmann::json::array(), placement), Catch::Contains("SchedPlan.save()"));
  }
  SECTION("a memory limit per device of the wrong length") {
    std::string error;
    try {
      import_tessel_json(document, placement, "saved.json", {2, 2, 2});
    } catch (const InputError& caught) {
      error = caught.what();
    }
    CHECK_THAT(error, Catch::Contains("--memory"));
  }
}

TEST_CASE("a saved 4-device kshape inference schedule matches the case by gid", "[tessel-json]") {
  // kshape --infer on 4 devices, gids 0 f0, 1 f2, 2 f1, 3 f3, 4 fa; one
  // micro-batch every 2 steps (L = 2), three micro-batches, window [2, 4),
  // the last head one step late so that the cooldown is not a plain copy.
  Placement placement = make_case("kshape", 4, true);
  nlohmann::json blocks = nlohmann::json::array();
  const std::vector<std::vector<int>> devices = {{0}, {2}, {1}, {3}, {0, 1, 2, 3}};
  const int offset[] = {0, 0, 2, 2, 3};
  for (int mid = 0; mid < 3; ++mid)
    for (int gid = 0; gid < 5; ++gid)
      blocks.push_back({{"mid", mid}, {"span", 1}, {"memory", 0}, {"btype", "forward"}, {"gid", gid},
                        {"step", 2 * mid + offset[gid] + (gid == 4 && mid == 2 ? 1 : 0)}, {"device", devices[gid]}});
  nlohmann::json document = {{"ndevs", 4}, {"blocks", blocks}, {"repetend", {2, 4}}};
  Schedule schedule = import_tessel_json(document, placement, "kshape.json");
  require_valid(schedule);
  REQUIRE(schedule.repetend);
  CHECK(schedule.repetend->period == 2);
  Schedule unrolled = unroll(schedule, 10);
  require_valid(unrolled);
  CHECK(makespan(unrolled) == makespan(schedule) + 2 * 7);
}

namespace {

// One block of the Python Tessel's nnshape premise as its file lists it.
struct PythonBlock {
  std::vector<int> devices;
  int span, memory;
  std::string btype;
};

// The Python Tessel's nnshape premise in its chain (gid) order, built the
// way it builds it, independently of cases/: a forward per device, a
// backward per device from the last device down; the second all-device
// block inserted at index D//2 of both lists; the first all-device forward
// in front and the first all-device backward at the end. On an odd D its
// backward is no mirror of its forward (5 devices: b4 b3 ALL b2 b1 b0).
std::vector<PythonBlock> python_nnshape(int d) {
  std::vector<int> all(d);
  for (int i = 0; i < d; ++i) all[i] = i;
  std::vector<PythonBlock> forward, backward;
  for (int i = 0; i < d; ++i) forward.push_back({{i}, 1, 1, "forward"});
  for (int i = 0; i < d; ++i) backward.push_back({{d - 1 - i}, 3, -1, "backward"});
  forward.insert(forward.begin() + d / 2, {all, 1, 0, "forward"});
  backward.insert(backward.begin() + d / 2, {all, 1, 0, "backward"});
  forward.insert(forward.begin(), {all, 1, 0, "forward"});
  backward.push_back({all, 1, 0, "backward"});
  forward.insert(forward.end(), backward.begin(), backward.end());
  return forward;
}

}  // namespace

TEST_CASE("Python Tessel nnshape schedules import on odd and even device counts", "[tessel-json]") {
  // Two micro-batches one after the other, each block right after its
  // chain predecessor: the shape of what SchedPlan.save() writes. Before
  // the built-in nnshape put bs2 where the forward's mirror has it, block
  // 9 of the 5-device file (all devices) met b2 (device 2) and was refused.
  for (int d : {3, 4, 5, 7, 8}) {
    INFO("nnshape on " << d << " devices");
    const std::vector<PythonBlock> chain = python_nnshape(d);
    nlohmann::json blocks = nlohmann::json::array();
    int step = 0;
    for (int micro = 0; micro < 2; ++micro)
      for (size_t gid = 0; gid < chain.size(); ++gid) {
        const PythonBlock& block = chain[gid];
        blocks.push_back({{"mid", micro}, {"span", block.span}, {"memory", block.memory}, {"btype", block.btype},
                          {"gid", gid}, {"step", step}, {"device", block.devices}});
        step += block.span;
      }
    nlohmann::json saved = {{"ndevs", d}, {"blocks", blocks}, {"repetend", {0, step / 2}}};
    Schedule schedule = import_tessel_json(saved, make_case("nnshape", d, false), "saved.json", {2});
    CHECK(schedule.nmicros == 2);
    CHECK(schedule.instances.size() == 2 * chain.size());
    CHECK(makespan(schedule) == step);
    require_valid(schedule);
    Schedule unrolled = unroll(schedule, 6);
    require_valid(unrolled);
  }
}
