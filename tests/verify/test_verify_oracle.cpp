// The verifier against a brute-force oracle: random corruptions of a small
// schedule (instances moved, dropped, duplicated, renumbered) are judged by
// the verifier's linear sweeps and by a dense step-by-step grid written here
// independently; both must agree on which kinds of violation are present.
#include <map>
#include <random>
#include <set>

#include <catch2/catch.hpp>

#include "verify/verify.hpp"

namespace {

// 3 devices: a tensor-parallel block "all" on every device, then a 1F1B chain.
nlohmann::json base_schedule() {
  nlohmann::json document = nlohmann::json::parse(R"({
    "format": "tessel.schedule/1",
    "placement": {
      "format": "tessel.placement/1", "ndevs": 3,
      "blocks": [ {"id": "all", "span": 1, "memory": 0, "devices": [0, 1, 2]},
                  {"id": "f0", "span": 1, "memory": 1, "devices": [0]},
                  {"id": "f1", "span": 1, "memory": 1, "devices": [1]},
                  {"id": "f2", "span": 1, "memory": 1, "devices": [2]},
                  {"id": "b2", "span": 2, "memory": -1, "devices": [2]},
                  {"id": "b1", "span": 2, "memory": -1, "devices": [1]},
                  {"id": "b0", "span": 2, "memory": -1, "devices": [0]} ],
      "edges": [ ["all", "f0"], ["f0", "f1"], ["f1", "f2"], ["f2", "b2"], ["b2", "b1"], ["b1", "b0"] ] },
    "memory_limit": [3, 2, 1],
    "nmicros": 4,
    "instances": [] })");
  // A valid GPipe-like layout, micro-batch m shifted by 10 m steps.
  const std::vector<std::pair<std::string, int>> one = {{"all", 0}, {"f0", 1}, {"f1", 2}, {"f2", 3},
                                                        {"b2", 4},  {"b1", 6}, {"b0", 8}};
  for (int micro = 0; micro < 4; ++micro)
    for (const auto& [block, offset] : one)
      document["instances"].push_back({{"block", block}, {"micro", micro}, {"start", 10 * micro + offset}});
  return document;
}

// The kinds of violation, decided the slow and obvious way.
std::set<std::string> oracle_kinds(const nlohmann::json& document) {
  const nlohmann::json& placement = document["placement"];
  const int ndevs = placement["ndevs"];
  const long long nmicros = document["nmicros"];
  std::map<std::string, const nlohmann::json*> blocks;
  for (const nlohmann::json& block : placement["blocks"]) blocks[block["id"]] = &block;

  std::set<std::string> kinds;
  std::map<std::pair<std::string, long long>, long long> start;  // first occurrence
  for (const nlohmann::json& instance : document["instances"]) {
    std::string block = instance["block"];
    long long micro = instance["micro"];
    if (!blocks.count(block) || micro < 0 || micro >= nmicros) {
      kinds.insert("unknown");
      continue;
    }
    if (!start.emplace(std::make_pair(block, micro), instance["start"].get<long long>()).second)
      kinds.insert("duplicate");
  }
  std::set<long long> complete;
  for (long long micro = 0; micro < nmicros; ++micro) {
    bool all = true;
    for (const auto& [id, block] : blocks) all &= start.count({id, micro}) > 0;
    if (all) complete.insert(micro);
    else kinds.insert("missing");
  }

  long long horizon = 0;
  for (const auto& [key, step] : start) horizon = std::max(horizon, step + (*blocks[key.first])["span"].get<long long>());
  std::vector<std::vector<int>> busy(ndevs, std::vector<int>(horizon + 1, 0));
  std::vector<std::vector<long long>> memory(ndevs, std::vector<long long>(horizon + 1, 0));
  for (const auto& [key, step] : start) {
    const nlohmann::json& block = *blocks[key.first];
    for (int device : block["devices"]) {
      for (long long t = step; t < step + block["span"].get<long long>(); ++t) ++busy[device][t];
      if (complete.count(key.second))
        for (long long t = step; t <= horizon; ++t) memory[device][t] += block["memory"].get<long long>();
    }
  }
  for (int device = 0; device < ndevs; ++device)
    for (long long t = 0; t <= horizon; ++t) {
      if (busy[device][t] > 1) kinds.insert("overlap");
      if (memory[device][t] > document["memory_limit"][device].get<long long>()) kinds.insert("memory");
    }
  for (const nlohmann::json& edge : placement["edges"])
    for (long long micro = 0; micro < nmicros; ++micro) {
      auto a = start.find({edge[0], micro});
      auto b = start.find({edge[1], micro});
      if (a == start.end() || b == start.end()) continue;
      if (a->second + (*blocks[edge[0]])["span"].get<long long>() > b->second) kinds.insert("dependency");
    }
  return kinds;
}

std::set<std::string> verifier_kinds(const tessel::verify::Report& report) {
  std::set<std::string> kinds;
  for (const auto& [kind, count] : report.violation_counts)
    if (count > 0) kinds.insert(kind);
  return kinds;
}

// One random corruption of one instance.
void corrupt(nlohmann::json& document, std::mt19937& random) {
  nlohmann::json& instances = document["instances"];
  size_t pick = std::uniform_int_distribution<size_t>(0, instances.size() - 1)(random);
  switch (std::uniform_int_distribution<int>(0, 5)(random)) {
    case 0:
    case 1: {  // move by a few steps, never below 0
      long long step = instances[pick]["start"].get<long long>() + std::uniform_int_distribution<int>(-3, 3)(random);
      instances[pick]["start"] = std::max(0LL, step);
      break;
    }
    case 2: instances.erase(pick); break;
    case 3: {
      nlohmann::json copy = instances[pick];
      copy["start"] = std::uniform_int_distribution<int>(0, 40)(random);
      instances.push_back(copy);
      break;
    }
    case 4: instances[pick]["micro"] = std::uniform_int_distribution<int>(-1, 4)(random); break;
    case 5: instances[pick]["start"] = std::uniform_int_distribution<int>(0, 40)(random); break;
  }
}

}  // namespace

TEST_CASE("the verifier agrees with a brute-force oracle on random corruptions", "[verify]") {
  REQUIRE(oracle_kinds(base_schedule()).empty());
  REQUIRE(tessel::verify::check_schedule(base_schedule()).valid);
  std::mt19937 random(20240);
  std::map<std::string, int> seen;  // how often each kind came up, so the test covers them all
  for (int round = 0; round < 1500; ++round) {
    nlohmann::json document = base_schedule();
    int corruptions = std::uniform_int_distribution<int>(1, 3)(random);
    for (int i = 0; i < corruptions && !document["instances"].empty(); ++i) corrupt(document, random);
    std::set<std::string> expected = oracle_kinds(document);
    tessel::verify::Report report = tessel::verify::check_schedule(document);
    INFO("round " << round << ": " << document["instances"].dump());
    CHECK(verifier_kinds(report) == expected);
    CHECK(report.valid == expected.empty());
    for (const std::string& kind : expected) ++seen[kind];
  }
  for (const char* kind : {"missing", "duplicate", "unknown", "overlap", "dependency", "memory"}) {
    INFO(kind);
    CHECK(seen[kind] > 20);
  }
}
