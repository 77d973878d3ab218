// Memory traded for time in the model (docs/formats.md, "Memory traded for
// time"): the offers of a placement and the choices of a schedule read,
// write back unchanged, are drawn, and every malformed one names its field.
#include <fstream>

#include <catch2/catch.hpp>

#include "model/formats/svg_timeline.hpp"
#include "model/input_error.hpp"
#include "model/placement_json.hpp"
#include "model/schedule_json.hpp"
#include "model/timeline_text.hpp"
#include "tests/support.hpp"

using namespace tessel;

namespace {

nlohmann::json traded() {
  std::ifstream file(std::string(TESSEL_SOURCE_DIR) + "/tests/data/memory_choices.json");
  return nlohmann::json::parse(file);
}

std::string error_of(const nlohmann::json& document) { return testing::schedule_read_error(document); }

}  // namespace

TEST_CASE("offers and choices read, write back unchanged and verify", "[model][memory-choice]") {
  const Schedule schedule = schedule_from_json(traded(), JsonPlace{"s.json", ""});
  const Block& f0 = schedule.placement.blocks[0];
  REQUIRE(f0.recompute);
  REQUIRE(f0.offload);
  CHECK(f0.recompute->span == 1);
  CHECK(f0.recompute->before == 3);  // b0
  CHECK(f0.offload->in == 1);
  CHECK(schedule.recomputes.size() == 1);
  CHECK(schedule.transfers.size() == 2);
  CHECK(makespan(schedule) == 12);
  const nlohmann::json written = schedule_to_json(schedule);
  CHECK(schedule_from_json(written, JsonPlace{"w.json", ""}).recomputes.size() == 1);
  CHECK(written["instances"][0]["recompute"] == true);
  CHECK(written["placement"]["blocks"][0]["recompute"] == nlohmann::json({{"span", 1}, {"before", "b0"}}));
  CHECK(testing::verify_schedule(schedule).valid);
}

TEST_CASE("times of offers and runs share the placement's decimals", "[model][memory-choice]") {
  nlohmann::json document = traded();
  document["placement"]["blocks"][0]["recompute"]["span"] = 0.5;
  document["recomputes"][0]["start"] = 5.25;
  const Schedule schedule = schedule_from_json(document, JsonPlace{"s.json", ""});
  CHECK(schedule.placement.time_decimals == 2);
  CHECK(schedule.placement.blocks[0].recompute->span == 50);
  CHECK(schedule.placement.blocks[0].span == 200);
  CHECK(schedule.recomputes[0].start == 525);
  CHECK(testing::verify_schedule(schedule).valid);
}

TEST_CASE("malformed offers and choices are format errors naming the field", "[model][memory-choice]") {
  nlohmann::json document = traded();
  document["placement"]["blocks"][0]["recompute"]["before"] = "b00";
  CHECK(error_of(document).find("placement.blocks[0].recompute.before") != std::string::npos);
  CHECK(error_of(document).find("did you mean") != std::string::npos);

  document = traded();
  document["placement"]["blocks"][0]["recompute"]["before"] = "f0";
  CHECK(error_of(document).find("does not depend on") != std::string::npos);

  document = traded();
  document["placement"]["blocks"][3]["recompute"] = {{"span", 1}, {"before", "b1"}};
  CHECK(error_of(document).find("only a forward block") != std::string::npos);

  document = traded();
  document["placement"]["blocks"][0]["offload"]["inn"] = 1;
  CHECK(error_of(document).find("did you mean 'in'") != std::string::npos);

  document = traded();
  document["instances"][0].erase("recompute");
  CHECK(error_of(document).find("not marked") != std::string::npos);

  document = traded();
  document["transfers"].erase(1);
  CHECK(error_of(document).find("lists no copy in") != std::string::npos);

  document = traded();
  document["transfers"][0]["direction"] = "ot";
  CHECK(error_of(document).find("did you mean 'out'") != std::string::npos);

  document = traded();
  document["recomputes"].push_back(document["recomputes"][0]);
  CHECK(error_of(document).find("a second recompute") != std::string::npos);
}

TEST_CASE("pictures draw recomputes on the device and copies on a copy track", "[model][memory-choice]") {
  const Schedule schedule = schedule_from_json(traded(), JsonPlace{"s.json", ""});
  const std::string text = render_timeline(schedule, 0);
  CHECK(text.find("Rf0:0") != std::string::npos);
  CHECK(text.find("\ncp") != std::string::npos);
  CHECK(text.find(">f0:1") != std::string::npos);
  CHECK(text.find("<f0:1") != std::string::npos);
  const std::string svg = svg_timeline(schedule);
  CHECK(svg.find("recompute f0 micro 0") != std::string::npos);
  CHECK(svg.find("copy out f0 micro 1") != std::string::npos);
  CHECK(svg.find("copy in f0 micro 1") != std::string::npos);
}
