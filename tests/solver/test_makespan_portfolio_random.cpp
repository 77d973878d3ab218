// Property of the makespan portfolio (solver/makespan/portfolio): on random
// pipelines (chain, V, interleaved; staged and not; decimal spans, delays
// 0-1, static memory, tensor-parallel stages) every candidate each phase
// hands to the portfolio and every schedule it offers while searching is
// valid by the verifier, on one thread and on two (the side thread), and
// the portfolio's rules hold: the repetend is listed first, the bound comes
// from the placement facts, and no improvement's candidate is below it.
#include <catch2/catch.hpp>

#include <mutex>

#include "model/unroll.hpp"
#include "solver/makespan/build_candidates.hpp"
#include "solver/makespan/portfolio/placement_facts.hpp"
#include "solver/solve/unit_step_problem.hpp"
#include "solver/strategies/repetend_search.hpp"
#include "tests/solver/random_pipelines.hpp"
#include "tests/support.hpp"

using namespace tessel;

namespace {

// What the judge and the offers saw: every schedule verified in the user's
// view (static memory and the request's limits restored).
struct Seen {
  std::mutex mutex;
  std::vector<std::string> invalid;  // "phase: violation"
  int offers = 0;
};

std::optional<std::string> violation_of(const Schedule& schedule, const testing::RandomPipeline& pipeline) {
  Schedule user = schedule;
  user.placement = pipeline.placement;
  user.memory_limit = pipeline.limits;  // per device: the search's view had them uniform
  user.uniform_limit = false;
  const verify::Report report = testing::verify_schedule(user);
  if (report.valid) return std::nullopt;
  return report.violations.empty() ? std::string("invalid")
                                   : report.violations.front().kind + ": " + report.violations.front().message;
}

Candidates run_portfolio(const testing::RandomPipeline& pipeline, int total_micros, int threads, Seen& seen) {
  Placement placement = pipeline.placement;
  placement.static_memory.clear();
  SearchOptions options;
  options.memory_limit = unit_step_limits(pipeline.placement, pipeline.limits);
  options.threads = threads;
  options.deadline = Deadline::after_seconds(3);
  const SearchResult period = search_repetend(placement, options);
  CandidateInput input;
  input.placement = &placement;
  input.total_micros = total_micros;
  input.period = &period;
  input.options = options;
  input.options.tuning.list_seconds = 0.3;
  input.options.tuning.lns_seconds = 0.3;
  input.options.tuning.order_seconds = 0.3;
  input.options.tuning.improve_seconds = 0.3;
  input.judge = [&](const Schedule& schedule) {
    std::optional<std::string> violation = violation_of(schedule, pipeline);
    std::lock_guard<std::mutex> lock(seen.mutex);
    if (violation) seen.invalid.push_back("judged: " + *violation);
    return violation;
  };
  input.offer = [&](const Schedule& schedule, Shape shape, Time, const std::string& phase) {
    const Schedule at_total = shape == Shape::Repetend ? unroll(schedule, total_micros) : schedule;
    std::optional<std::string> violation = violation_of(at_total, pipeline);
    std::lock_guard<std::mutex> lock(seen.mutex);
    ++seen.offers;
    if (violation) seen.invalid.push_back(phase + " (offered): " + *violation);
  };
  return build_candidates(input);
}

}  // namespace

namespace {

void check_random_portfolios(int threads) {
  std::mt19937 random(4848);
  for (int round = 0; round < 8; ++round) {
    const bool staged = round % 2 == 0;
    const testing::RandomPipeline pipeline = testing::random_pipeline(random, staged);
    const int total_micros = round % 3 == 0 ? 8 : 32;
    INFO(pipeline.description << ", threads " << threads << ", N " << total_micros);
    Seen seen;
    const Candidates built = run_portfolio(pipeline, total_micros, threads, seen);
    for (const std::string& bad : seen.invalid) UNSCOPED_INFO(bad);
    CHECK(seen.invalid.empty());
    CHECK(built.rejected.empty());
    REQUIRE_FALSE(built.built.empty());
    CHECK(built.built.front().summary.name == "repetend");
    CHECK(seen.offers >= 1);
    Placement solver_view = pipeline.placement;
    solver_view.static_memory.clear();
    const PlacementFacts facts =
        placement_facts(solver_view, total_micros, unit_step_limits(pipeline.placement, pipeline.limits));
    CHECK(built.bound.value >= facts.bound.value);
    for (const BuiltCandidate& candidate : built.built) {
      INFO(candidate.summary.name << ": " << candidate.summary.note);
      if (!candidate.at_total) continue;
      // Each listed schedule, verified here again, is at least the bound.
      CHECK_FALSE(violation_of(*candidate.at_total, pipeline));
      CHECK(*candidate.summary.makespan >= built.bound.value);
    }
  }
}

}  // namespace

// Once hidden: violation_of put the user's per-device limits back but kept
// the search view's "uniform" flag, so the schedule was written with device
// 0's limit for every device and the verifier judged device 1 against it.
TEST_CASE("portfolio on random pipelines: every phase's candidate and offer is valid", "[solver][property][makespan]") {
  check_random_portfolios(1);
}

// The same on two threads (the side thread).
TEST_CASE("portfolio on random pipelines, two threads", "[solver][property][makespan]") {
  check_random_portfolios(2);
}

TEST_CASE("placement facts: computed once, the same as the placement's own functions", "[solver][makespan]") {
  std::mt19937 random(7);
  for (int round = 0; round < 6; ++round) {
    const testing::RandomPipeline pipeline = testing::random_pipeline(random, round % 2 == 0);
    const PlacementFacts facts = placement_facts(pipeline.placement, 16, pipeline.limits);
    CHECK(facts.critical_path == critical_path(pipeline.placement));
    CHECK(facts.earliest == earliest_starts(pipeline.placement));
    CHECK(facts.tails == chain_tails(pipeline.placement));
    CHECK(facts.load == device_load(pipeline.placement));
    CHECK(facts.bound.value == makespan_lower_bound(pipeline.placement, 16, pipeline.limits));
    CHECK(facts.bound.value >= facts.critical_path);
  }
}

// A period search that used the whole limit (a loaded machine) may leave no
// repetend that unrolls; past the deadline the list construction is then
// the last resort, so that a time-out still writes a schedule (once, the
// strategy fast reproducer of tests/cli/test_trust_limits.cpp lost its
// schedule this way). An interrupt still ends everything at once.
TEST_CASE("portfolio past the deadline with nothing at N: a list schedule is the last resort", "[solver][makespan]") {
  std::mt19937 random(49);
  for (int round = 0; round < 4; ++round) {
    const testing::RandomPipeline pipeline = testing::random_pipeline(random, round % 2 == 0);
    INFO(pipeline.description);
    Placement placement = pipeline.placement;
    placement.static_memory.clear();
    const SearchResult no_repetend;  // the period search timed out
    StopFlag interrupt{false};
    CandidateInput input;
    input.placement = &placement;
    input.total_micros = 16;
    input.period = &no_repetend;
    input.options.memory_limit = unit_step_limits(pipeline.placement, pipeline.limits);
    input.options.deadline = Deadline::after_seconds(0, &interrupt);
    const Candidates built = build_candidates(input);
    const BuiltCandidate* at_total = nullptr;
    for (const BuiltCandidate& candidate : built.built)
      if (candidate.at_total) at_total = &candidate;
    REQUIRE(at_total);
    CHECK(at_total->summary.name.rfind("list", 0) == 0);
    CHECK_FALSE(violation_of(*at_total->at_total, pipeline));

    interrupt = true;
    for (const BuiltCandidate& candidate : build_candidates(input).built) CHECK_FALSE(candidate.at_total);
  }
}
