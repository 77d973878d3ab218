// The large-neighbourhood search on a schedule of N micro-batches
// (solver/makespan/improvements/neighbourhood.hpp): from a deliberately bad start (the
// GPipe list schedule) on a small placement it finds a shorter schedule
// (CaDiCaL; Z3 runs the same windows); what it returns is never longer and always passes the
// verifier within the memory limits, with delays and a tensor-parallel
// block too; the compaction keeps every peak; it returns at its deadline or
// on the stop flag; it beats the hand-made interleaved 1F1B on its own
// placement and memory, handing over every gain as it comes; it goes on
// after a round without gain; it starts from a schedule with fused units;
// and on a deadline carrying the portfolio's stall it gives up after
// lns_stall_windows windows in a row that moved nothing.
#include <catch2/catch.hpp>

#include <chrono>

#include "cases/builtin_cases.hpp"
#include "solver/makespan/constructions/list_scheduling.hpp"
#include "solver/makespan/improvements/neighbourhood.hpp"
#include "tests/placements.hpp"
#include "tests/solver/pipelines.hpp"
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

using testing::options_for;

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

namespace {

// A hand-made schedule and its placement, written by `tessel generate`.
struct HandMade {
  Schedule schedule;
  verify::Report report;
};

HandMade generated(const testing::TempDir& dir, const std::string& scheme_args) {
  auto generate = testing::run_tessel("generate " + scheme_args + " --placement-out " + dir.file("pl.json") + " -o " +
                                      dir.file("hand.json"));
  REQUIRE(generate.exit_code == 0);
  HandMade hand{read_schedule_file(dir.file("hand.json")), {}};
  hand.report = checked(hand.schedule);
  hand.schedule.memory_limit = hand.report.peak_memory;  // its own peaks as the limits
  hand.schedule.repetend.reset();
  return hand;
}

}  // namespace

TEST_CASE("neighbourhoods: shorter than interleaved 1F1B on its own placement and peak memory", "[makespan][lns]") {
  // 4 ranks x 2 chunks, F=2 B=2 W=1, 16 micro-batches: the hand-made order
  // takes 172 steps, the bound says 168; a long full-solver run found 171,
  // and the windows at the tail reach it from the hand-made schedule.
  testing::TempDir dir;
  const HandMade hand = generated(dir, "interleaved-1f1b --stages 4 --nmicros 16 --span F=2,B=2,W=1");
  REQUIRE(hand.report.makespan == 172);
  NeighbourhoodStats stats;
  std::vector<Time> offered;
  const Schedule improved =
      improve_by_neighbourhoods(std::vector<Schedule>{hand.schedule}, options_for("cadical", hand.schedule.memory_limit, 20),
                                0, &stats, [&](const Schedule& shorter) {
                                  checked(shorter);
                                  offered.push_back(makespan(shorter));
                                });
  const verify::Report report = checked(improved);
  CHECK(report.makespan < 172);
  for (int device = 0; device < 4; ++device) CHECK(report.peak_memory[device] <= hand.report.peak_memory[device]);
  CHECK(stats.improvements > 0);
  // Every gain was handed over as it came, each shorter than the one before.
  REQUIRE(!offered.empty());
  CHECK(offered.back() == report.makespan);
  for (size_t i = 1; i < offered.size(); ++i) CHECK(offered[i] < offered[i - 1]);
}

TEST_CASE("neighbourhoods: a round without gain grows the windows and moves to the next start", "[makespan][lns]") {
  // Without a shorter schedule to find quickly, the search goes on until its
  // budget (it used to stop after one pass), and tries the other starts.
  const Placement placement = four_stages();
  const std::vector<Memory> limits(4, 4);
  const Schedule good = list_start(placement, limits, 12, ListRule::OneFOneB);
  const Schedule bad = list_start(placement, limits, 12, ListRule::GPipe);
  NeighbourhoodStats stats;
  const auto begin = std::chrono::steady_clock::now();
  const Schedule result = improve_by_neighbourhoods(std::vector<Schedule>{good, bad}, options_for("cadical", limits, 1.5),
                                                    0, &stats);
  CHECK(seconds_since(begin) >= 1.4);  // no early stop: the bound 0 is out of reach
  CHECK(stats.rounds >= 2);
  CHECK(stats.restarts >= 1);
  CHECK(checked(result).makespan <= std::min(makespan(good), makespan(bad)));
}

TEST_CASE("neighbourhoods: a start with fused units runs unfused, valid", "[makespan][lns]") {
  // DualPipeV overlaps a forward and a backward as one unit: the search lays
  // the members one after the other, compacts, and goes on from there.
  testing::TempDir dir;
  const HandMade hand = generated(dir, "dualpipev --stages 4 --nmicros 8");
  REQUIRE(!hand.schedule.fused.empty());
  const Schedule result =
      improve_by_neighbourhoods(hand.schedule, options_for("cadical", hand.schedule.memory_limit, 1), 0);
  CHECK(result.fused.empty());
  const verify::Report report = checked(result);
  CHECK(result.nmicros == hand.schedule.nmicros);
  CHECK(result.instances.size() == hand.schedule.instances.size());
  for (size_t device = 0; device < report.peak_memory.size(); ++device)
    CHECK(report.peak_memory[device] <= hand.report.peak_memory[device]);
}

TEST_CASE("neighbourhoods: on a stalling deadline they give up after windows that moved nothing",
          "[makespan][lns][stall]") {
  // nnshape 16 at N 128 from the list schedule: the first windows are too
  // large or move nothing at one window of patience; a stall without a
  // stretch in seconds, so that only the count ends it (the 120 s deadline
  // is a hang guard).
  Placement placement = make_case("nnshape", 16, false);
  placement.static_memory.clear();
  const std::vector<Memory> limits(16, 32);
  std::optional<ListBest> best = best_list_schedule(placement, limits, 128);
  REQUIRE(best);
  SearchOptions options = options_for("cadical", limits, 120);
  options.tuning.lns_stall_windows = 1;
  const Stall stall(0);
  options.deadline.stall = &stall;
  NeighbourhoodStats stats;
  const Schedule found = improve_by_neighbourhoods(best->schedule, options, 0, &stats);
  CHECK(stall.given_up());
  CHECK(options.deadline.expired());
  CHECK(checked(found).makespan <= makespan(best->schedule));
  // Every window but the last moved something (one of patience).
  CHECK(stats.moves + 1 >= stats.windows);
}
