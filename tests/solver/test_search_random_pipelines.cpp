// Property: on random pipelines (chain, V, interleaved; staged and not;
// decimal spans, delays 0-1, static memory, tensor-parallel stages) every
// phase of the search times its instances by the placement's rules, so
// that the verifier rejects none of the candidates the portfolio weighs.
// The test main sets TESSEL_STRICT_CANDIDATES=1: a rejected candidate or
// offer is then an internal error (solve throws), before the portfolio
// could choose it. Every offer is verified here as well, the report lists
// no rejected candidate, and the answer is verified.
#include <catch2/catch.hpp>

#include <mutex>

#include "model/unroll.hpp"
#include "solver/makespan/build_candidates.hpp"
#include "solver/search.hpp"
#include "solver/solve/unit_step_problem.hpp"
#include "solver/strategies/repetend_search.hpp"
#include "tests/solver/random_pipelines.hpp"
#include "tests/support.hpp"

using namespace tessel;

namespace {

struct CheckingProgress : Progress {
  int total_micros = 0;
  std::mutex mutex;
  int offers = 0;
  bool all_valid = true;

  void improved(const Schedule& schedule, Shape shape, Time) override {
    const Schedule at_total = shape == Shape::Repetend ? unroll(schedule, total_micros) : schedule;
    const bool valid = testing::verify_schedule(at_total).valid;
    std::lock_guard<std::mutex> lock(mutex);
    ++offers;
    all_valid = all_valid && valid;
  }
};

void check_search(const testing::RandomPipeline& pipeline, Strategy strategy, int total_micros) {
  SearchRequest request;
  request.placement = pipeline.placement;
  request.memory_limit = pipeline.limits;
  request.strategy = strategy;
  request.total_micros = total_micros;
  request.threads = 1;
  request.deadline = Deadline::after_seconds(1.5);
  CheckingProgress progress;
  progress.total_micros = total_micros;
  INFO(pipeline.description << ", strategy " << strategy_name(strategy) << ", N " << total_micros);
  SearchReport report;
  REQUIRE_NOTHROW(report = solve(request, progress));
  INFO("outcome " << outcome_name(report.outcome) << ": " << report.message);
  CHECK((report.outcome == Outcome::Found || report.outcome == Outcome::Timeout));
  CHECK(report.rejected.empty());
  CHECK(progress.all_valid);
  REQUIRE(report.best);
  const Schedule answer = report.best->repetend ? unroll(*report.best, total_micros) : *report.best;
  CHECK(testing::verify_schedule(answer).valid);
}

}  // namespace

TEST_CASE("random staged and unstaged pipelines: no phase offers an invalid candidate", "[solver][property]") {
  std::mt19937 random(4747);
  for (int round = 0; round < 12; ++round) {
    const bool staged = round % 2 == 0;
    const testing::RandomPipeline pipeline = testing::random_pipeline(random, staged);
    check_search(pipeline, round % 4 == 3 ? Strategy::Fast : Strategy::Repetend, round % 3 == 0 ? 8 : 16);
  }
}

TEST_CASE("a candidate the judge rejects is listed and dropped, the others stay", "[solver][property]") {
  // A judge that rejects every aperiodic schedule stands for a phase's bug:
  // the constructions are listed as rejected with no schedule, the
  // repetend stays the only candidate with a makespan.
  std::mt19937 random(47);
  const testing::RandomPipeline pipeline = testing::random_pipeline(random, true);
  Placement placement = pipeline.placement;
  placement.static_memory.clear();
  SearchOptions options;
  options.memory_limit = unit_step_limits(pipeline.placement, pipeline.limits);
  options.threads = 1;
  options.deadline = Deadline::after_seconds(5);
  const SearchResult period = search_repetend(placement, options);
  REQUIRE(period.schedule);
  CandidateInput input;
  input.placement = &placement;
  input.total_micros = 8;
  input.period = &period;
  input.options = options;
  input.judge = [](const Schedule& schedule) -> std::optional<std::string> {
    if (schedule.repetend) return std::nullopt;
    return std::string("dependency: a test's stand-in violation");
  };
  const Candidates built = build_candidates(input);
  REQUIRE_FALSE(built.rejected.empty());
  for (const RejectedCandidate& rejected : built.rejected) CHECK(rejected.violation.find("stand-in") != std::string::npos);
  for (const BuiltCandidate& candidate : built.built) {
    INFO(candidate.summary.name << ": " << candidate.summary.note);
    if (candidate.summary.shape == Shape::Repetend) continue;
    CHECK_FALSE(candidate.summary.makespan);
    CHECK_FALSE(candidate.at_total);
  }
  CHECK(built.built.front().summary.makespan);
}

TEST_CASE("strict mode reads TESSEL_STRICT_CANDIDATES=1 only", "[solver][property]") {
  const char* saved = std::getenv("TESSEL_STRICT_CANDIDATES");
  const std::string before = saved ? saved : "";
  unsetenv("TESSEL_STRICT_CANDIDATES");
  CHECK_FALSE(strict_candidates());
  setenv("TESSEL_STRICT_CANDIDATES", "0", 1);
  CHECK_FALSE(strict_candidates());
  setenv("TESSEL_STRICT_CANDIDATES", "1", 1);
  CHECK(strict_candidates());
  if (saved) setenv("TESSEL_STRICT_CANDIDATES", before.c_str(), 1);
  else unsetenv("TESSEL_STRICT_CANDIDATES");
}
