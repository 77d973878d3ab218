// The memory-trading list scheduler (solver/makespan/constructions/memory_trading.hpp):
// where memory binds it recomputes, its schedules pass the verifier, and a
// roomy limit leaves every activation kept.
#include <catch2/catch.hpp>

#include "cases/builtin_cases.hpp"
#include "solver/makespan/closed_bound/makespan_bound.hpp"
#include "solver/makespan/constructions/list_scheduling.hpp"
#include "solver/makespan/constructions/memory_trading.hpp"
#include "solver/search.hpp"
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

// The period and full searches keep every activation: with recomputation
// offered, what they refute is no bound, and "proven" may rest only on L
// and the bound without memory (vshape 4 at memory 2: period 8 is the
// least without recomputing, but recomputing every forward reaches about 5).
TEST_CASE("with recomputation offered, nothing refuted without it is called proven", "[solver][memory-choice]") {
  const Placement plain = make_case("vshape", 4, false);
  SearchRequest request;
  request.placement = offering(plain);
  request.memory_limit = std::vector<Memory>(4, 2);
  request.total_micros = 32;
  request.threads = 1;
  Progress quiet;
  const SearchReport offered = solve(request, quiet);
  REQUIRE(offered.period);
  REQUIRE(offered.makespan);
  CHECK(offered.period->proven_lower_bound == offered.period->lower_bound);
  CHECK(offered.period->optimal == (offered.period->period == offered.period->lower_bound));
  for (const WindowAttempt& window : offered.period->windows) {
    CHECK(window.status != WindowStatus::NotBetter);
    CHECK(window.status != WindowStatus::Infeasible);
    CHECK(window.proven_lower_bound <= window.k * offered.period->lower_bound);
  }
  CHECK(offered.makespan->proven_lower_bound == makespan_bound(request.placement, 32).value);
  REQUIRE(offered.best);
  CHECK(testing::verify_schedule(*offered.best).valid);
  // The same placement without offers proves its period above L.
  request.placement = plain;
  const SearchReport kept = solve(request, quiet);
  REQUIRE(kept.period);
  CHECK(kept.period->proven_lower_bound > kept.period->lower_bound);
  // Strategy full: its refutations keep every activation too.
  request.placement = offering(plain);
  request.strategy = Strategy::Full;
  request.total_micros = 4;
  const SearchReport full = solve(request, quiet);
  REQUIRE(full.makespan);
  CHECK(full.makespan->proven_lower_bound == makespan_bound(request.placement, 4).value);
  CHECK(full.makespan->gap.cause != GapCause::ProvenOptimal);
}

namespace {

// One device: two forwards of one memory each, so a
// micro-batch needs 2 with every activation kept.
Placement one_device() {
  Placement placement;
  placement.name = "one-device";
  placement.ndevs = 1;
  auto block = [](const std::string& id, BlockKind kind, Time span, Memory memory) {
    Block made;
    made.id = id;
    made.kind = kind;
    made.span = span;
    made.memory = memory;
    made.devices = {0};
    return made;
  };
  placement.blocks = {block("f0", BlockKind::Forward, 1, 1), block("f1", BlockKind::Forward, 1, 1),
                      block("b1", BlockKind::Backward, 2, -1), block("b0", BlockKind::Backward, 2, -1)};
  placement.edges = {{0, 1}, {1, 2}, {2, 3}};
  return placement;
}

// Every forward that offers recomputation also offers offload before the
// same block, its copies each taking `copy` ticks.
Placement offering_both(Placement placement, Time copy) {
  placement = offering(std::move(placement));
  for (Block& block : placement.blocks)
    if (block.recompute) block.offload = OffloadOffer{copy, copy, block.recompute->before};
  return placement;
}

int offloaded(const Schedule& schedule) {
  int outs = 0;
  for (const Transfer& copy : schedule.transfers) outs += copy.direction == TransferDirection::Out;
  return outs;
}

}  // namespace

// One device holding two forwards' activations: with every activation kept
// a micro-batch needs 2, so at limit 1 no schedule keeps everything; with
// f0 recomputed before b0 one does. "No schedule exists" would be wrong
// there; where one block alone passes the limit it is right.
namespace {

// The one-device pipeline at limit 1 with 8 micro-batches, one thread.
SearchRequest one_device_at_limit_one(const Placement& placement) {
  SearchRequest request;
  request.placement = placement;
  request.memory_limit = {1};
  request.total_micros = 8;
  request.threads = 1;
  return request;
}

// Solves `request`, requires an answer and that the verifier accepts it.
SearchReport found_and_valid(const SearchRequest& request) {
  Progress quiet;
  SearchReport report = solve(request, quiet);
  INFO(report.message);
  REQUIRE(report.outcome == Outcome::Found);
  REQUIRE(report.best);
  CHECK(testing::verify_schedule(*report.best).valid);
  return report;
}

}  // namespace

TEST_CASE("a limit only recomputation meets is answered, never called infeasible", "[solver][memory-choice]") {
  Placement placement = one_device();
  placement.blocks[0].recompute = RecomputeOffer{1, 3, 0};
  SearchRequest request = one_device_at_limit_one(placement);
  Progress quiet;
  const SearchReport traded = found_and_valid(request);
  CHECK(recomputed(*traded.best) > 0);
  // Without the offer the same limit is proven infeasible.
  request.placement.blocks[0].recompute.reset();
  CHECK(solve(request, quiet).outcome == Outcome::Infeasible);
  // A block that alone passes the limit: infeasible under any choice.
  request.placement = placement;
  request.placement.blocks[1].memory = 2;
  request.placement.blocks[2].memory = -2;
  const SearchReport alone = solve(request, quiet);
  CHECK(alone.outcome == Outcome::Infeasible);
  CHECK(alone.message.find("under any choice") != std::string::npos);
}

// Offload only: at limit 1 f0's activation must leave the device while f1
// runs, and copying it out and back is the only way (no recompute offered).
TEST_CASE("a limit only offload meets is answered with copies, verified", "[solver][memory-choice][offload]") {
  Placement placement = one_device();
  placement.blocks[0].offload = OffloadOffer{1, 1, 3};
  REQUIRE(offers_memory_choice(placement));
  std::optional<TradingBest> best = best_trading_schedule(placement, {1}, 8);
  REQUIRE(best);
  const verify::Report direct = testing::verify_schedule(best->schedule);
  for (const verify::Violation& violation : direct.violations) FAIL(violation.kind + ": " + violation.message);
  CHECK(offloaded(best->schedule) == 8);
  CHECK(best->schedule.recomputes.empty());
  SearchRequest request = one_device_at_limit_one(placement);
  Progress quiet;
  const SearchReport searched = found_and_valid(request);
  CHECK(offloaded(*searched.best) > 0);
  CHECK(choices_summary(*searched.best).find("offloads f0 x") != std::string::npos);
  // Without the offer no schedule exists.
  request.placement.blocks[0].offload.reset();
  CHECK(solve(request, quiet).outcome == Outcome::Infeasible);
}

// Both offered: free copies (one tick, a channel beside compute) beat
// recomputing, so the scheduler offloads; copies as long as the forward
// compete for one channel per device, and it recomputes where the channel
// is taken. Every run is a schedule the judge accepts.
TEST_CASE("with recompute and offload offered the trading scheduler uses the channel, verified",
          "[solver][memory-choice][offload]") {
  const Placement base = make_case("nnshape", 4, false);
  const std::vector<Memory> limits(4, 4);
  const int nmicros = 16;
  std::optional<TradingBest> recompute_only = best_trading_schedule(offering(base), limits, nmicros);
  REQUIRE(recompute_only);
  for (Time copy : {Time{1}, Time{4}}) {
    std::optional<TradingBest> both = best_trading_schedule(offering_both(base, copy), limits, nmicros);
    REQUIRE(both);
    const verify::Report report = testing::verify_schedule(both->schedule);
    for (const verify::Violation& violation : report.violations) FAIL(violation.kind + ": " + violation.message);
    CHECK(offloaded(both->schedule) > 0);
    if (copy == 1) CHECK(makespan(both->schedule) <= makespan(recompute_only->schedule));
    for (double pressure : {0.5, 0.8, 1.0})
      for (bool backward_first : {false, true}) {
        std::optional<Schedule> run =
            trading_list_schedule(offering_both(base, copy), limits, nmicros, {backward_first, 8, pressure});
        if (run) CHECK(testing::verify_schedule(*run).valid);
      }
  }
}
