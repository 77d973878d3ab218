// Reading tessel.placement/1: valid files load, malformed ones name the field.
#include <catch2/catch.hpp>

#include "model/input_error.hpp"
#include "model/placement_json.hpp"

using namespace tessel;

namespace {

nlohmann::json chain_placement() {
  return nlohmann::json::parse(R"({
    "format": "tessel.placement/1", "name": "chain", "ndevs": 2,
    "blocks": [ {"id": "f0", "kind": "forward", "span": 1, "memory": 1, "devices": [0]},
                {"id": "f1", "kind": "forward", "span": 1, "memory": 1, "devices": [1]},
                {"id": "b1", "kind": "backward", "span": 2, "memory": -1, "devices": [1]},
                {"id": "b0", "kind": "backward", "span": 2, "memory": -1, "devices": [0]} ],
    "edges": [ ["f0", "f1"], ["f1", "b1"], ["b1", "b0"] ] })");
}

std::string error_of(const nlohmann::json& document) {
  try {
    placement_from_json(document, JsonPlace{"p.json", ""});
  } catch (const InputError& error) {
    return error.what();
  }
  return "";
}

}  // namespace

TEST_CASE("a valid placement reads and writes back unchanged", "[model]") {
  Placement placement = placement_from_json(chain_placement(), JsonPlace{"p.json", ""});
  CHECK(placement.blocks.size() == 4);
  CHECK(device_load(placement) == std::vector<Time>{3, 3});
  CHECK(period_lower_bound(placement) == 3);
  CHECK(critical_path(placement) == 6);
  CHECK(placement_to_json(placement) == chain_placement());
}

TEST_CASE("malformed placements name the file, the field and the problem", "[model]") {
  nlohmann::json doc = chain_placement();
  SECTION("unknown format") {
    doc["format"] = "other/1";
    CHECK_THAT(error_of(doc), Catch::Contains("p.json") && Catch::Contains("unknown format"));
  }
  SECTION("unknown version") {
    doc["format"] = "tessel.placement/9";
    CHECK_THAT(error_of(doc), Catch::Contains("unsupported version"));
  }
  SECTION("missing field") {
    doc["blocks"][1].erase("span");
    CHECK_THAT(error_of(doc), Catch::Contains("blocks[1].span") && Catch::Contains("missing"));
  }
  SECTION("wrong type") {
    doc["blocks"][0]["span"] = "one";
    CHECK_THAT(error_of(doc), Catch::Contains("blocks[0].span") && Catch::Contains("expected a number"));
  }
  SECTION("duplicate id") {
    doc["blocks"][2]["id"] = "f0";
    CHECK_THAT(error_of(doc), Catch::Contains("blocks[2].id") && Catch::Contains("duplicate"));
  }
  SECTION("span below one") {
    doc["blocks"][3]["span"] = 0;
    CHECK_THAT(error_of(doc), Catch::Contains("blocks[3].span") && Catch::Contains("> 0"));
  }
  SECTION("empty device set") {
    doc["blocks"][0]["devices"] = nlohmann::json::array();
    CHECK_THAT(error_of(doc), Catch::Contains("blocks[0].devices"));
  }
  SECTION("device out of range") {
    doc["blocks"][0]["devices"] = {2};
    CHECK_THAT(error_of(doc), Catch::Contains("blocks[0].devices[0]") && Catch::Contains("outside"));
  }
  SECTION("edge naming an unknown block") {
    doc["edges"][1] = {"f1", "zz"};
    CHECK_THAT(error_of(doc), Catch::Contains("edges[1][1]") && Catch::Contains("unknown block 'zz'"));
  }
  SECTION("a cycle is printed") {
    doc["edges"].push_back({"b0", "f0"});
    CHECK_THAT(error_of(doc), Catch::Contains("cycle") && Catch::Contains("f0 -> f1 -> b1 -> b0 -> f0"));
  }
}
