// The period decided with a recompute chosen per offering forward
// (solver/solve/recompute_choice.hpp): where keeping everything needs a long
// period, choosing recomputes reaches a shorter one, both backends agree on
// the least period (every shorter one refuted for every choice), the
// repetend unrolled passes the verifier, and with room nothing is
// recomputed; inside the search the proven period bound is the one decided
// with the choice, on both backends.
#include <catch2/catch.hpp>

#include "cases/builtin_cases.hpp"
#include "sat/backend.hpp"
#include "solver/modulo/window_placement.hpp"
#include "solver/solve/recompute_choice.hpp"
#include "solver/search.hpp"
#include "tests/solver/choice_questions.hpp"
#include "tests/support.hpp"

using namespace tessel;

namespace {

RecomputeChoiceAnswer decide(const Placement& placement, long long memory, const std::string& backend, int first,
                             int last) {
  RecomputeChoiceQuestion question;
  question.placement = &placement;
  question.memory_limit.assign(placement.ndevs, memory);
  question.backend = backend;
  question.periods = {first, last};
  question.max_in_flight = static_cast<int>(placement.blocks.size());
  return decide_periods_choosing_recompute(question, Deadline::after_seconds(60));
}

verify::Report unrolled_verdict(const Placement& placement, const RecomputeChoiceAnswer& answer, long long memory,
                                int nmicros, int& recomputes) {
  const std::optional<RecomputeChoicePlacement> choice = recompute_choice_placement(placement);
  REQUIRE(choice);
  const Schedule schedule = unrolled_choosing_recompute(*choice, answer, placement,
                                                        std::vector<Memory>(placement.ndevs, memory), nmicros);
  recomputes = static_cast<int>(schedule.recomputes.size());
  return testing::verify_schedule(schedule);
}

}  // namespace

TEST_CASE("vshape 4/2: recomputing reaches a shorter period, proven by both backends", "[solver][memory-choice]") {
  const Placement placement = testing::offering_recompute(make_case("vshape", 4, false));
  const Time load = period_lower_bound(placement);
  std::optional<Time> least;
  for (const std::string backend : {"cadical", "z3"}) {
    INFO(backend);
    const RecomputeChoiceAnswer answer = decide(placement, 2, backend, static_cast<int>(load), 8);
    REQUIRE(answer.decided);
    REQUIRE(answer.period);
    CHECK(*answer.period < 8);  // keeping everything needs 8 (below)
    CHECK(answer.proven_lower_bound == *answer.period);
    if (least) CHECK(*least == *answer.period);
    least = answer.period;
    CHECK(std::count(answer.chosen.begin(), answer.chosen.end(), true) > 0);
    int recomputes = 0;
    const verify::Report report = unrolled_verdict(placement, answer, 2, 12, recomputes);
    for (const verify::Violation& violation : report.violations) FAIL(violation.kind + ": " + violation.message);
    CHECK(report.valid);
    CHECK(recomputes > 0);
    CHECK(report.makespan == 11 * *answer.period + answer.latency);
  }
}

TEST_CASE("vshape 4/2 keeping everything: every period below 8 refuted", "[solver][memory-choice]") {
  // What makes the choice needed: the same encoding without recomputes to choose.
  const Placement placement = make_case("vshape", 4, false);
  std::unique_ptr<Backend> backend = make_backend("cadical");
  const int first = static_cast<int>(period_lower_bound(placement));
  const ModuloEncoding encoding = encode_modulo(*backend, placement, std::vector<long long>(4, 2), {first, 8},
                                                static_cast<int>(placement.blocks.size()));
  for (int period = first; period < 8; ++period)
    CHECK(backend->solve({period_assumption(encoding, period)}, Deadline::after_seconds(60)) == Answer::Unsat);
  CHECK(backend->solve({period_assumption(encoding, 8)}, Deadline::after_seconds(60)) == Answer::Sat);
}

TEST_CASE("with room (memory 2D) the period is the load and nothing is recomputed", "[solver][memory-choice]") {
  for (const char* name : {"vshape", "nnshape"}) {
    INFO(name);
    const Placement placement = testing::offering_recompute(make_case(name, 4, false));
    const int load = static_cast<int>(period_lower_bound(placement));
    const RecomputeChoiceAnswer answer = decide(placement, 8, "cadical", load, load);
    REQUIRE(answer.period);
    CHECK(*answer.period == load);
    CHECK(std::count(answer.chosen.begin(), answer.chosen.end(), true) == 0);
    int recomputes = -1;
    const verify::Report report = unrolled_verdict(placement, answer, 8, 8, recomputes);
    CHECK(report.valid);
    CHECK(recomputes == 0);
  }
}

TEST_CASE("the search proves its period with the choice, and with room decides nothing", "[solver][memory-choice]") {
  SearchRequest request;
  request.placement = testing::offering_recompute(make_case("nnshape", 4, false));
  request.total_micros = 16;
  request.threads = 1;
  Progress quiet;
  for (const std::string backend : {"cadical", "z3"}) {
    INFO(backend);
    request.backend = backend;
    request.memory_limit = std::vector<Memory>(4, 4);  // D
    const SearchReport tight = solve(request, quiet);
    REQUIRE(tight.period);
    REQUIRE(tight.best);
    CHECK(testing::verify_schedule(*tight.best).valid);
    // Decided with the choice: every period below the bound refuted for every choice.
    REQUIRE(tight.period->period > tight.period->lower_bound);  // memory binds when everything is kept
    CHECK(tight.period->recompute_decided);
    const Time least = tight.period->recompute_period.value_or(tight.period->period);
    CHECK(tight.period->proven_lower_bound == least);
    CHECK(tight.period->optimal == !tight.period->recompute_period.has_value());
    request.memory_limit = std::vector<Memory>(4, 8);  // 2D
    const SearchReport roomy = solve(request, quiet);
    REQUIRE(roomy.period);
    REQUIRE(roomy.best);
    CHECK(roomy.period->period == roomy.period->lower_bound);
    CHECK_FALSE(roomy.period->recompute_period);
    CHECK(roomy.best->recomputes.empty());
    CHECK(testing::verify_schedule(*roomy.best).valid);
  }
}

namespace {

RecomputeChoiceAnswer decide_window(const Placement& placement, int k, long long memory, const std::string& backend,
                                    int first, int last) {
  // The period is the question (Z3 bisects the latency slowly).
  return testing::decide_choosing(placement, k, memory, backend, first, last, false);
}

}  // namespace

TEST_CASE("vshape 4/2 in windows of 2: recomputing chosen per window position, proven by both backends",
          "[solver][memory-choice]") {
  const Placement placement = testing::offering_recompute(make_case("vshape", 4, false));
  const int load = static_cast<int>(period_lower_bound(placement));
  const std::optional<RecomputeChoicePlacement> choice = recompute_choice_placement(placement, 2);
  REQUIRE(choice);
  CHECK(choice->optional.size() == 8);  // 4 offering forwards x 2 positions
  {
    // Keeping everything, a window of two needs period 16: the plain encoding
    // of the window placement refutes 8 .. 15.
    const Placement plain = window_placement(make_case("vshape", 4, false), 2);
    std::unique_ptr<Backend> backend = make_backend("cadical");
    const ModuloEncoding encoding = encode_modulo(*backend, plain, std::vector<long long>(4, 2), {2 * load, 16},
                                                  static_cast<int>(plain.blocks.size()) / 2);
    for (int period = 2 * load; period < 16; ++period)
      CHECK(backend->solve({period_assumption(encoding, period)}, Deadline::after_seconds(60)) == Answer::Unsat);
    CHECK(backend->solve({period_assumption(encoding, 16)}, Deadline::after_seconds(60)) == Answer::Sat);
  }
  std::optional<Time> least;
  for (const std::string backend : {"cadical", "z3"}) {
    INFO(backend);
    // Decided up to 10, the least period: 8 and 9 refuted for every choice
    // per position (Z3 takes seconds per period more above it).
    const RecomputeChoiceAnswer answer = decide_window(placement, 2, 2, backend, 2 * load, 10);
    REQUIRE(answer.decided);
    REQUIRE(answer.period);
    CHECK(*answer.period == 2 * 5);  // as two windows of one (above): position by position no shorter
    CHECK(answer.proven_lower_bound == *answer.period);
    if (least) CHECK(*least == *answer.period);
    least = answer.period;
    for (int nmicros : {12, 13}) {  // whole windows, and a last window cut short
      INFO(nmicros);
      const Schedule unrolled = unrolled_choosing_recompute(*choice, answer, placement, std::vector<Memory>(4, 2), nmicros);
      const verify::Report report = testing::verify_schedule(unrolled);
      for (const verify::Violation& violation : report.violations) FAIL(violation.kind + ": " + violation.message);
      CHECK(report.valid);
      CHECK_FALSE(unrolled.recomputes.empty());
      for (const RecomputeRun& run : unrolled.recomputes) {  // as its window position chose
        bool chosen = false;
        for (size_t i = 0; i < choice->optional.size(); ++i)
          chosen = chosen || (answer.chosen[i] && choice->optional[i].forward == (run.micro % 2) * choice->blocks_per_copy + run.block);
        CHECK(chosen);
      }
      const Schedule tight = compacted_choosing_recompute(*choice, answer, placement, std::vector<Memory>(4, 2), nmicros);
      CHECK(tight.instances.size() == unrolled.instances.size());
      CHECK(tight.recomputes.size() == unrolled.recomputes.size());
      const verify::Report tight_report = testing::verify_schedule(tight);
      if (tight_report.valid) CHECK(tight_report.makespan <= report.makespan);
    }
  }
}

TEST_CASE("the search in windows of 2 proves its period with a choice per position", "[solver][memory-choice]") {
  SearchRequest request;
  request.placement = testing::offering_recompute(make_case("vshape", 4, false));
  request.memory_limit = std::vector<Memory>(4, 2);
  request.total_micros = 25;  // the last window cut short
  request.micros_per_window = 2;
  request.threads = 1;
  Progress quiet;
  const SearchReport report = solve(request, quiet);
  REQUIRE(report.period);
  REQUIRE(report.best);
  CHECK(report.period->micros_per_window == 2);
  CHECK(report.period->period == 16);  // keeping everything (above)
  REQUIRE(report.period->recompute_period);
  CHECK(*report.period->recompute_period == 10);
  CHECK(report.period->recompute_decided);
  CHECK(report.period->proven_lower_bound == 10);
  CHECK_FALSE(report.period->optimal);
  // The choice as data: forwards of the placement, positions of the window.
  CHECK(report.period->recompute_offers == 4);
  REQUIRE_FALSE(report.period->recompute_chosen.empty());
  for (const ChosenRecompute& chosen : report.period->recompute_chosen) {
    CHECK(chosen.block.find('@') == std::string::npos);
    REQUIRE_FALSE(chosen.positions.empty());
    for (int position : chosen.positions) CHECK((position == 0 || position == 1));
  }
  // A named phase of the budget, within its knob's seconds.
  const BudgetGrant* grant = nullptr;
  for (const BudgetGrant& granted : report.budget)
    if (granted.phase == BudgetPhase::RecomputeChoice) grant = &granted;
  REQUIRE(grant);
  CHECK(std::string(budget_phase_name(grant->phase)) == "recompute_choice");
  CHECK(grant->limited_by == BudgetLimit::PhaseSeconds);
  REQUIRE(grant->until);
  CHECK(*grant->until - grant->from == Approx(request.tuning.recompute_choice_seconds).margin(0.05));
  CHECK(testing::verify_schedule(*report.best).valid);
  bool offered = false;
  for (const Candidate& candidate : report.makespan->candidates)
    offered = offered || (candidate.name.rfind("repetend, recompute chosen", 0) == 0 && candidate.makespan);
  CHECK(offered);
}
