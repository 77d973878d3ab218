// Fused units (docs/formats.md, "fused") through the verifier, the judge:
// a unit occupies [start, start + span) once on its device, its members
// start together and count as finished at the unit's end, an edge inside a
// unit holds, memory is as usual; every way to break that is rejected for
// its own reason, and the model's reader and writer keep units and their
// decimals.
#include <catch2/catch.hpp>

#include <set>

#include "classic/schemes.hpp"
#include "model/schedule_json.hpp"
#include "tests/support.hpp"

using namespace tessel;
using tessel::testing::verify_schedule;

namespace {

using nlohmann::json;

// A fused unit's member, [block id, micro] (spelled out: nlohmann reads
// {{"a", 1}} as an object).
json member(const std::string& id, long long micro) { return json::array({id, micro}); }
json unit(std::vector<json> members, json span) { return {{"instances", json(members)}, {"span", span}}; }

// Two devices: a (span 2, +1) and c (span 1, 0) on device 0, b (span 2, -1) on
// device 1; a -> b. Two micro-batches; a:1 and c:0 run fused for 3 steps.
nlohmann::json toy(long long b1_start = 5, nlohmann::json fused = nullptr) {
  nlohmann::json placement = {
      {"format", "tessel.placement/1"},
      {"name", "toy"},
      {"ndevs", 2},
      {"blocks",
       {{{"id", "a"}, {"kind", "forward"}, {"span", 2}, {"memory", 1}, {"devices", {0}}},
        {{"id", "c"}, {"kind", "other"}, {"span", 1}, {"memory", 0}, {"devices", {0}}},
        {{"id", "b"}, {"kind", "backward"}, {"span", 2}, {"memory", -1}, {"devices", {1}}}}},
      {"edges", json::array({json::array({"a", "b"})})}};
  if (fused.is_null()) fused = json::array({unit({member("a", 1), member("c", 0)}, 3)});
  return {{"format", "tessel.schedule/1"},
          {"placement", placement},
          {"memory_limit", nullptr},
          {"nmicros", 2},
          {"instances",
           {{{"block", "a"}, {"micro", 0}, {"start", 0}},
            {{"block", "a"}, {"micro", 1}, {"start", 2}},
            {{"block", "c"}, {"micro", 0}, {"start", 2}},
            {{"block", "c"}, {"micro", 1}, {"start", 5}},
            {{"block", "b"}, {"micro", 0}, {"start", 2}},
            {{"block", "b"}, {"micro", 1}, {"start", b1_start}}}},
          {"fused", fused}};
}

std::set<std::string> kinds(const verify::Report& report) {
  std::set<std::string> found;
  for (const auto& [kind, count] : report.violation_counts)
    if (count > 0) found.insert(kind);
  return found;
}

std::string messages(const verify::Report& report) { return verify::report_to_text(report); }

}  // namespace

TEST_CASE("a fused unit holds its device for its span, and its members end with it", "[verify][fused]") {
  verify::Report report = verify::check_schedule(toy());
  INFO(messages(report));
  REQUIRE(report.valid);
  CHECK(report.makespan == 7);  // b:1 [5, 7)
  // Device 0: a:0 [0,2), the unit [2,5), c:1 [5,6): 6 busy steps, the unit counted once.
  CHECK(report.busy_steps == std::vector<long long>{6, 4});
  CHECK(report.peak_memory == std::vector<long long>{2, 0});
}

TEST_CASE("what depends on a member waits for the unit's end, not the member's", "[verify][fused]") {
  // a:1 alone would end at 4; in its unit it ends at 5.
  verify::Report report = verify::check_schedule(toy(4));
  CHECK(kinds(report) == std::set<std::string>{"dependency"});
  CHECK_THAT(messages(report), Catch::Contains("b:1 starts at step 4 but a:1 runs until step 5"));
}

TEST_CASE("broken fused units are rejected for their own reason", "[verify][fused]") {
  SECTION("members that start apart") {
    nlohmann::json document = toy();
    document["instances"][2]["start"] = 3;  // c:0
    verify::Report report = verify::check_schedule(document);
    CHECK(kinds(report).count("fused"));
    CHECK_THAT(messages(report), Catch::Contains("members start together"));
  }
  SECTION("members on other devices") {
    verify::Report report = verify::check_schedule(toy(5, json::array({unit({member("a", 1), member("b", 0)}, 3)})));
    CHECK(kinds(report).count("fused"));
    CHECK_THAT(messages(report), Catch::Contains("runs on other devices"));
  }
  SECTION("an instance in two units") {
    json twice = json::array({unit({member("a", 1), member("c", 0)}, 3), unit({member("c", 0), member("a", 0)}, 2)});
    verify::Report report = verify::check_schedule(toy(5, twice));
    CHECK(kinds(report).count("fused"));
    CHECK_THAT(messages(report), Catch::Contains("c:0 is in fused[1] and in fused[0]"));
  }
  SECTION("a member that is not scheduled") {
    nlohmann::json document = toy();
    document["instances"].erase(2);  // c:0
    verify::Report report = verify::check_schedule(document);
    CHECK(kinds(report) == std::set<std::string>{"missing", "fused"});
  }
  SECTION("a unit overlapping another instance") {
    nlohmann::json document = toy();
    document["instances"][3]["start"] = 4;  // c:1 inside the unit [2, 5)
    verify::Report report = verify::check_schedule(document);
    CHECK(kinds(report) == std::set<std::string>{"overlap"});
  }
  SECTION("a repetend claimed over fused units") {
    nlohmann::json document = toy();
    document["repetend"] = {{"start", 0}, {"end", 7}, {"period", 7}};
    CHECK(kinds(verify::check_schedule(document)).count("repetend"));
  }
}

TEST_CASE("unreadable fused lists are format errors naming the field", "[verify][fused]") {
  auto field_of = [](const nlohmann::json& fused) {
    try {
      verify::check_schedule(toy(5, fused));
    } catch (const verify::FormatError& error) {
      return error.field;
    }
    return std::string("no error");
  };
  CHECK(field_of(json::array({unit({member("a", 1)}, 3)})) == "fused[0].instances");
  CHECK(field_of(json::array({unit({member("zz", 1), member("c", 0)}, 3)})) == "fused[0].instances[0]");
  CHECK(field_of(json::array({unit({member("a", 1), member("c", 0)}, 0)})) == "fused[0].span");
  json spam = unit({member("a", 1), member("c", 0)}, 3);
  spam["spam"] = 1;
  CHECK(field_of(json::array({spam})) == "fused[0].spam");
  CHECK(field_of(json::array({unit({json("a"), json(1)}, 3)})) == "fused[0].instances[0]");
  CHECK(field_of(json::object()) == "fused");
}

TEST_CASE("the model keeps fused units through its files, decimals included", "[model][fused]") {
  Schedule schedule = schedule_from_json(toy(), JsonPlace{"toy.json", ""});
  REQUIRE(schedule.fused.size() == 1);
  CHECK(schedule.fused[0].span == 3);
  CHECK(makespan(schedule) == 7);
  CHECK(schedule_to_json(schedule)["fused"] == toy()["fused"]);
  // A span with more decimals than the placement's raises the time scale.
  Schedule decimal = schedule_from_json(toy(5, json::array({unit({member("a", 1), member("c", 0)}, 2.5)})),
                                        JsonPlace{"toy.json", ""});
  CHECK(decimal.placement.time_decimals == 1);
  CHECK(decimal.fused[0].span == 25);
  CHECK(decimal.placement.blocks[0].span == 20);
  CHECK(schedule_to_json(decimal)["fused"][0]["span"] == 2.5);
  CHECK_THROWS_AS(schedule_from_json(toy(5, json::array({unit({member("a", 7), member("c", 0)}, 3)})),
                                     JsonPlace{"toy.json", ""}),
                  InputError);
}

TEST_CASE("dualpipe and dualpipev pass the verifier with their fused units", "[verify][fused][classic]") {
  for (std::string scheme : {"dualpipe", "dualpipev"})
    for (int ranks : {2, 4, 6, 8}) {
      INFO(scheme << " " << ranks);
      classic::SchemeRequest request;
      request.scheme = scheme;
      request.ranks = ranks;
      request.nmicros = 2 * ranks + 4;
      request.costs.backward_span = 3;
      request.costs.input_span = 2;
      request.costs.overlap_span = 3;
      Schedule schedule = classic::generate_scheme(request);
      verify::Report report = verify_schedule(schedule);
      INFO(verify::report_to_text(report));
      CHECK(report.valid);
      CHECK(report.makespan == makespan(schedule));
      CHECK_FALSE(schedule.fused.empty());
      // Without the units the same starts collide: the verifier sees them.
      schedule.fused.clear();
      CHECK_FALSE(verify_schedule(schedule).valid);
    }
}
