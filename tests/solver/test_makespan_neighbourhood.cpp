// The large-neighbourhood search on a schedule of N micro-batches
// (solver/makespan/neighbourhood.hpp): from a deliberately bad start (the
// GPipe list schedule) on a small placement it finds a shorter schedule
// (CaDiCaL; Z3 runs the same windows); what it returns is never longer and always passes the
// verifier within the memory limits, with delays and a tensor-parallel
// block too; the compaction keeps every peak; and it returns at its
// deadline or on the stop flag.
#include <catch2/catch.hpp>

#include <chrono>

#include "cases/builtin_cases.hpp"
#include "solver/makespan/list_scheduling.hpp"
#include "solver/makespan/neighbourhood.hpp"
#include "tests/placements.hpp"
#include "tests/support.hpp"

using namespace tessel;

namespace {

// Four stages in a chain: forward (1 tick, +1 memory), backward (2 ticks,
// frees it), like 1F1B's placement.
Placement four_stages() {
  Placement placement;
  placement.name = "four-stages";
  placement.ndevs = 4;
  for (int stage = 0; stage < 4; ++stage)
    placement.blocks.push_back({"f" + std::to_string(stage), BlockKind::Forward, 1, 1, stage, {stage}});
  for (int stage = 3; stage >= 0; --stage)
    placement.blocks.push_back({"b" + std::to_string(stage), BlockKind::Backward, 2, -1, stage, {stage}});
  for (int b = 0; b + 1 < 8; ++b) placement.edges.push_back({b, b + 1, 0});
  return placement;
}

Schedule list_start(const Placement& placement, const std::vector<Memory>& limits, int nmicros, ListRule rule) {
  std::optional<std::vector<Instance>> instances = list_schedule(placement, limits, nmicros, {rule, nmicros, true});
  REQUIRE(instances);
  Schedule schedule = empty_schedule(placement, limits, nmicros);
  schedule.instances = *instances;
  sort_instances(schedule);
  return schedule;
}

verify::Report checked(const Schedule& schedule) {
  verify::Report report = testing::verify_schedule(schedule);
  INFO(verify::report_to_text(report));
  REQUIRE(report.valid);
  return report;
}

SearchOptions options_for(const std::string& backend, const std::vector<Memory>& limits, double seconds) {
  SearchOptions options;
  options.backend = backend;
  options.memory_limit = limits;
  options.deadline = Deadline::after_seconds(seconds);
  return options;
}

}  // namespace

TEST_CASE("neighbourhoods: a GPipe start shortened, valid, within memory, on both backends", "[makespan][lns]") {
  const Placement placement = four_stages();
  const std::vector<Memory> limits(4, 4);
  const int nmicros = 16;  // 128 instances: more than one window
  const Schedule start = list_start(placement, limits, nmicros, ListRule::GPipe);
  const Time before = checked(start).makespan;
  for (const std::string backend : {"cadical", "z3"}) {
    INFO(backend);
    NeighbourhoodStats stats;
    const Schedule improved = improve_by_neighbourhoods(start, options_for(backend, limits, 5), 0, &stats);
    const verify::Report report = checked(improved);
    // Z3 answers few windows in time (its no-overlap is pairwise); the
    // default backend must find the shorter schedule, both a valid one.
    if (backend == "cadical") CHECK(report.makespan < before);
    CHECK(report.makespan <= before);
    CHECK(stats.windows > 0);
    for (long long peak : report.peak_memory) CHECK(peak <= 4);
  }
}

TEST_CASE("neighbourhoods: never longer than a good start, on a built-in case", "[makespan][lns]") {
  Placement placement = make_case("mllm", 4, false);
  placement.static_memory.clear();
  std::vector<Memory> limits(4, 0);
  for (const Block& block : placement.blocks)
    for (int device : block.devices) limits[device] += std::max<Memory>(0, block.memory);
  for (Memory& limit : limits) limit *= 2;
  std::optional<ListBest> best = best_list_schedule(placement, limits, 24);
  REQUIRE(best);
  const Time before = checked(best->schedule).makespan;
  const Schedule improved = improve_by_neighbourhoods(best->schedule, options_for("cadical", limits, 2), 0);
  const verify::Report report = checked(improved);
  CHECK(report.makespan <= before);
  for (int device = 0; device < 4; ++device) CHECK(report.peak_memory[device] <= limits[device]);
}

TEST_CASE("neighbourhoods: delays and a tensor-parallel block kept", "[makespan][lns]") {
  const Placement placement = tessel::testing::tensor_parallel_with_delays();
  const std::vector<Memory> limits = {2, 4, 4};
  const int nmicros = 16;
  const Schedule start = list_start(placement, limits, nmicros, ListRule::GPipe);
  const Schedule improved = improve_by_neighbourhoods(start, options_for("cadical", limits, 2), 0);
  CHECK(makespan(improved) <= makespan(start));
  // The delays by hand as well as by the verifier below.
  std::vector<Time> begin(placement.blocks.size() * nmicros);
  for (const Instance& instance : improved.instances) begin[instance.micro * 5 + instance.block] = instance.start;
  for (int micro = 0; micro < nmicros; ++micro)
    for (const Edge& edge : placement.edges)
      CHECK(begin[micro * 5 + edge.to] >= begin[micro * 5 + edge.from] + placement.blocks[edge.from].span + edge.delay);
  const verify::Report report = checked(improved);
  for (int device = 0; device < 3; ++device) CHECK(report.peak_memory[device] <= limits[device]);
}

TEST_CASE("neighbourhoods: the compaction keeps validity and every memory peak", "[makespan][lns]") {
  const Placement placement = four_stages();
  const std::vector<Memory> limits(4, 4);
  Schedule spread = list_start(placement, limits, 8, ListRule::OneFOneB);
  for (Instance& instance : spread.instances) instance.start *= 3;  // gaps everywhere, same order
  const verify::Report before = checked(spread);
  const verify::Report after = checked(compacted(spread));
  CHECK(after.makespan < before.makespan);
  CHECK(after.peak_memory == before.peak_memory);
}

TEST_CASE("neighbourhoods: return at the deadline and on the stop flag", "[makespan][lns]") {
  Placement placement = make_case("nnshape", 16, false);
  placement.static_memory.clear();
  const std::vector<Memory> limits(16, 32);
  std::optional<ListBest> best = best_list_schedule(placement, limits, 128);
  REQUIRE(best);
  const auto begin = std::chrono::steady_clock::now();
  const Schedule timed = improve_by_neighbourhoods(best->schedule, options_for("cadical", limits, 0.3), 0);
  // Generous: one window's encoding is built past the deadline at most.
  CHECK(seconds_since(begin) < 5);
  CHECK(checked(timed).makespan <= makespan(best->schedule));

  StopFlag stop{true};
  SearchOptions options = options_for("cadical", limits, 3600);
  options.deadline.stop = &stop;
  NeighbourhoodStats stats;
  const Schedule stopped = improve_by_neighbourhoods(best->schedule, options, 0, &stats);
  CHECK(stats.windows == 0);
  CHECK(checked(stopped).makespan <= makespan(best->schedule));
}
