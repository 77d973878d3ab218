// The memory-trading list scheduler (solver/makespan/memory_trading.hpp):
// where memory binds it recomputes, its schedules pass the verifier, and a
// roomy limit leaves every activation kept.
#include <catch2/catch.hpp>

#include "cases/builtin_cases.hpp"
#include "solver/makespan/constructions/list_scheduling.hpp"
#include "solver/makespan/constructions/memory_trading.hpp"
#include "tests/support.hpp"

using namespace tessel;

namespace {

// Every forward with memory offers recomputation at its own span, before the
// first later block on its devices that frees its memory (what
// cases/bench/offer_recompute.py does to a file).
Placement offering(Placement placement) {
  const std::vector<std::vector<char>> after = descendants(placement);
  for (size_t f = 0; f < placement.blocks.size(); ++f) {
    Block& block = placement.blocks[f];
    if (block.kind != BlockKind::Forward || block.memory <= 0) continue;
    for (int b : topological_order(placement)) {
      const Block& other = placement.blocks[b];
      if (!after[f][b] || other.devices != block.devices || other.memory > -block.memory) continue;
      block.recompute = RecomputeOffer{block.span, b, 0};
      break;
    }
  }
  return placement;
}

int recomputed(const Schedule& schedule) { return static_cast<int>(schedule.recomputes.size()); }

}  // namespace

TEST_CASE("under a binding limit the trading scheduler recomputes, verified", "[solver][memory-choice]") {
  const Placement placement = offering(make_case("nnshape", 4, false));
  REQUIRE(offers_memory_choice(placement));
  const int nmicros = 16;
  const std::vector<Memory> limits(4, 4);
  std::optional<TradingBest> best = best_trading_schedule(placement, limits, nmicros);
  REQUIRE(best);
  const verify::Report report = testing::verify_schedule(best->schedule);
  INFO((report.violations.empty() ? "" : report.violations.front().message));
  CHECK(report.valid);
  CHECK(recomputed(best->schedule) > 0);
  CHECK(report.makespan == makespan(best->schedule));
  for (const verify::Violation& violation : report.violations) FAIL(violation.kind + ": " + violation.message);
  // Every run of the portfolio is a schedule the judge accepts, whatever it chose.
  for (double pressure : {0.5, 0.8, 1.0}) {
    std::optional<Schedule> run = trading_list_schedule(placement, limits, nmicros, {false, 8, pressure});
    if (run) CHECK(testing::verify_schedule(*run).valid);
  }
}

TEST_CASE("a pressure above the limit never recomputes and is a plain list schedule", "[solver][memory-choice]") {
  const Placement placement = offering(make_case("mshape", 4, false));
  const std::vector<Memory> limits(4, 8);
  std::optional<Schedule> run = trading_list_schedule(placement, limits, 8, {true, 4, 1.0});
  REQUIRE(run);
  CHECK(recomputed(*run) == 0);
  CHECK(testing::verify_schedule(*run).valid);
}

TEST_CASE("the choice counts name each block and the device time added", "[solver][memory-choice]") {
  const Placement placement = offering(make_case("nnshape", 4, false));
  std::optional<TradingBest> best = best_trading_schedule(placement, std::vector<Memory>(4, 4), 8);
  REQUIRE(best);
  const ChoiceCounts counts = count_choices(best->schedule);
  int total = 0;
  Time time = 0;
  for (size_t b = 0; b < counts.recomputed.size(); ++b) {
    total += counts.recomputed[b];
    time += counts.recomputed[b] * (counts.recomputed[b] ? placement.blocks[b].recompute->span : 0);
  }
  CHECK(total == recomputed(best->schedule));
  CHECK(counts.recompute_time == time);
  CHECK(choices_summary(best->schedule).rfind(total ? "recomputes " : "recomputes nothing", 0) == 0);
}
