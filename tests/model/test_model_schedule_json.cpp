// Reading tessel.schedule/1: a valid file round-trips; every malformed one
// names the file, the field and the problem, through the library and through
// the real binary (`tessel show`, `tessel unroll`: exit 2, message on stderr).
#include <catch2/catch.hpp>

#include <functional>

#include "model/input_error.hpp"
#include "model/schedule_json.hpp"
#include "tests/support.hpp"

using namespace tessel;

namespace {

// 1F1B on 2 devices, 2 micro-batches: valid, with a repetend.
nlohmann::json small_schedule() {
  return nlohmann::json::parse(R"({
    "format": "tessel.schedule/1",
    "placement": { "format": "tessel.placement/1", "name": "v2", "ndevs": 2,
      "blocks": [ {"id": "f0", "kind": "forward", "span": 1, "memory": 1, "devices": [0]},
                  {"id": "f1", "kind": "forward", "span": 1, "memory": 1, "devices": [1]},
                  {"id": "b1", "kind": "backward", "span": 3, "memory": -1, "devices": [1]},
                  {"id": "b0", "kind": "backward", "span": 3, "memory": -1, "devices": [0]} ],
      "edges": [ ["f0", "f1"], ["f1", "b1"], ["b1", "b0"] ] },
    "memory_limit": 2, "nmicros": 2,
    "instances": [ {"block": "f0", "micro": 0, "start": 0}, {"block": "f1", "micro": 0, "start": 1},
                   {"block": "b1", "micro": 0, "start": 2}, {"block": "f0", "micro": 1, "start": 4},
                   {"block": "f1", "micro": 1, "start": 5}, {"block": "b0", "micro": 0, "start": 5},
                   {"block": "b1", "micro": 1, "start": 6}, {"block": "b0", "micro": 1, "start": 9} ],
    "repetend": {"start": 2, "end": 6, "period": 4, "micros_per_period": 1} })");
}

std::string error_of(const nlohmann::json& document) { return testing::schedule_read_error(document); }

}  // namespace

TEST_CASE("a valid schedule reads and writes back unchanged", "[model]") {
  Schedule schedule = schedule_from_json(small_schedule(), JsonPlace{"s.json", ""});
  CHECK(schedule.nmicros == 2);
  CHECK(schedule.instances.size() == 8);
  CHECK(schedule.memory_limit == std::vector<long long>{2, 2});
  REQUIRE(schedule.repetend);
  CHECK(schedule.repetend->period == 4);
  CHECK(makespan(schedule) == 12);
  CHECK(schedule_to_json(schedule) == small_schedule());
}

// The file writer prints the instances itself (millions of them would
// otherwise be one JSON object each): its text must be the library's.
TEST_CASE("a schedule file's text is the document's own printing", "[model]") {
  const std::string data = std::string(TESSEL_SOURCE_DIR) + "/tests/data/";
  std::vector<Schedule> schedules = {schedule_from_json(small_schedule(), JsonPlace{"s.json", ""}),
                                     read_schedule_file(data + "measured_1f1b.schedule.json"),
                                     read_schedule_file(data + "memory_choices.json"),
                                     read_schedule_file(data + "windows_vshape3_k2.schedule.json")};
  Schedule odd_names = schedules.front();
  odd_names.placement.blocks[0].id = "f \"0\"\\ \u00e9";
  odd_names.search = {{"strategy", "repetend"}};
  schedules.push_back(odd_names);
  Schedule empty = schedules.front();
  empty.instances.clear();
  empty.repetend.reset();
  schedules.push_back(empty);
  for (const Schedule& schedule : schedules) {
    INFO(schedule.placement.name);
    CHECK(schedule_json_text(schedule) == schedule_to_json(schedule).dump(1) + "\n");
  }
}

TEST_CASE("malformed schedules name the file, the field and the problem", "[model]") {
  nlohmann::json doc = small_schedule();
  SECTION("unknown format") {
    doc["format"] = "tessel.plan/1";
    CHECK_THAT(error_of(doc), Catch::Contains("s.json") && Catch::Contains("unknown format"));
  }
  SECTION("unknown version") {
    doc["format"] = "tessel.schedule/2";
    CHECK_THAT(error_of(doc), Catch::Contains("unsupported version"));
  }
  SECTION("instance naming an unknown block") {
    doc["instances"][3]["block"] = "f9";
    CHECK_THAT(error_of(doc), Catch::Contains("instances[3].block") && Catch::Contains("unknown block 'f9'"));
  }
  SECTION("micro-batch at nmicros") {
    doc["instances"][2]["micro"] = 2;
    CHECK_THAT(error_of(doc), Catch::Contains("instances[2].micro") && Catch::Contains("outside [0, 2)"));
  }
  SECTION("negative micro-batch") {
    doc["instances"][0]["micro"] = -1;
    CHECK_THAT(error_of(doc), Catch::Contains("instances[0].micro") && Catch::Contains("outside"));
  }
  SECTION("negative start") {
    doc["instances"][1]["start"] = -4;
    CHECK_THAT(error_of(doc), Catch::Contains("instances[1].start") && Catch::Contains(">= 0"));
  }
  SECTION("memory_limit list of the wrong length") {
    doc["memory_limit"] = {2, 2, 2};
    CHECK_THAT(error_of(doc), Catch::Contains("memory_limit") && Catch::Contains("one entry per device"));
  }
  SECTION("memory_limit of the wrong type") {
    doc["memory_limit"] = "lots";
    CHECK_THAT(error_of(doc), Catch::Contains("memory_limit") && Catch::Contains("expected a number"));
  }
  SECTION("missing nmicros") {
    doc.erase("nmicros");
    CHECK_THAT(error_of(doc), Catch::Contains("nmicros") && Catch::Contains("missing"));
  }
  SECTION("instances not a list") {
    doc["instances"] = {{"block", "f0"}};
    CHECK_THAT(error_of(doc), Catch::Contains("instances") && Catch::Contains("expected a list"));
  }
  SECTION("an instance that is not an object") {
    doc["instances"][4] = 7;
    CHECK_THAT(error_of(doc), Catch::Contains("instances[4]") && Catch::Contains("object"));
  }
  SECTION("embedded placement with a duplicate block id") {
    doc["placement"]["blocks"][2]["id"] = "f1";
    CHECK_THAT(error_of(doc), Catch::Contains("placement.blocks[2].id") && Catch::Contains("duplicate"));
  }
  SECTION("embedded placement with a cycle") {
    doc["placement"]["edges"].push_back({"b0", "f0"});
    CHECK_THAT(error_of(doc), Catch::Contains("placement.edges") && Catch::Contains("f0 -> f1 -> b1 -> b0 -> f0"));
  }
  SECTION("embedded placement with an edge to an unknown block") {
    doc["placement"]["edges"][0][1] = "f7";
    CHECK_THAT(error_of(doc), Catch::Contains("placement.edges[0][1]") && Catch::Contains("unknown block 'f7'"));
  }
  SECTION("embedded placement with span 0") {
    doc["placement"]["blocks"][0]["span"] = 0;
    CHECK_THAT(error_of(doc), Catch::Contains("placement.blocks[0].span") && Catch::Contains("> 0"));
  }
  SECTION("embedded placement with a device out of range") {
    doc["placement"]["blocks"][1]["devices"] = {5};
    CHECK_THAT(error_of(doc), Catch::Contains("placement.blocks[1].devices[0]") && Catch::Contains("outside [0, 2)"));
  }
  SECTION("repetend with a zero period") {
    doc["repetend"]["period"] = 0;
    CHECK_THAT(error_of(doc), Catch::Contains("repetend.period") && Catch::Contains("> 0"));
  }
  SECTION("repetend start beyond any time tessel holds") {
    doc["repetend"]["start"] = 5000000000000000000LL;
    CHECK_THAT(error_of(doc), Catch::Contains("repetend.start") && Catch::Contains("too large"));
  }
  SECTION("repetend ending before it starts") {
    doc["repetend"]["end"] = 1;
    CHECK_THAT(error_of(doc), Catch::Contains("repetend.end") && Catch::Contains(">= start"));
  }
  SECTION("repetend that is not an object") {
    doc["repetend"] = {2, 6};
    CHECK_THAT(error_of(doc), Catch::Contains("repetend"));
  }
}

TEST_CASE("tessel show and tessel unroll reject bad files with exit 2 and the field", "[model][cli]") {
  testing::TempDir dir;
  struct Bad {
    std::string what;
    std::function<void(nlohmann::json&)> corrupt;
    std::string expected;
  };
  const std::vector<Bad> cases = {
      {"unknown block", [](nlohmann::json& d) { d["instances"][0]["block"] = "zz"; }, "unknown block 'zz'"},
      {"micro out of range", [](nlohmann::json& d) { d["instances"][0]["micro"] = 7; }, "instances[0].micro"},
      {"negative start", [](nlohmann::json& d) { d["instances"][2]["start"] = -1; }, "instances[2].start"},
      {"wrong limit length", [](nlohmann::json& d) { d["memory_limit"] = {1}; }, "memory_limit"},
      {"cycle", [](nlohmann::json& d) { d["placement"]["edges"].push_back({"b0", "f0"}); }, "cycle"},
      {"duplicate id", [](nlohmann::json& d) { d["placement"]["blocks"][3]["id"] = "f0"; }, "duplicate"},
      {"unknown format", [](nlohmann::json& d) { d["format"] = "x/1"; }, "unknown format"},
  };
  for (const Bad& bad : cases) {
    INFO(bad.what);
    nlohmann::json doc = small_schedule();
    bad.corrupt(doc);
    std::string path = dir.file("bad.json");
    testing::write_text(path, doc.dump());
    auto shown = testing::run_tessel("show " + path);
    CHECK(shown.exit_code == 2);
    CHECK_THAT(shown.err, Catch::Contains(path) && Catch::Contains(bad.expected));
    auto unrolled = testing::run_tessel("unroll " + path + " --nmicros 4");
    CHECK(unrolled.exit_code == 2);
    CHECK_THAT(unrolled.err, Catch::Contains(path) && Catch::Contains(bad.expected));
  }
  testing::write_text(dir.file("broken.json"), "{\"format\": ");
  auto broken = testing::run_tessel("show " + dir.file("broken.json"));
  CHECK(broken.exit_code == 2);
  CHECK_THAT(broken.err, Catch::Contains("not valid JSON"));
  auto absent = testing::run_tessel("show " + dir.file("absent.json"));
  CHECK(absent.exit_code == 2);
  CHECK_THAT(absent.err, Catch::Contains("cannot open"));
}
