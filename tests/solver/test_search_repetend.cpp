// Strategy `repetend` on the paper's 4-device cases: the period, its proof,
// and a schedule the verifier accepts for any number of micro-batches.
#include <catch2/catch.hpp>

#include "cases/builtin_cases.hpp"
#include "model/input_error.hpp"
#include "model/unroll.hpp"
#include "solver/modulo/memory_rate_bound.hpp"
#include "solver/strategies/repetend_search.hpp"
#include "tests/support.hpp"

using namespace tessel;

namespace {

SearchResult repetend(const Placement& placement, long long memory, std::optional<int> nmicros = std::nullopt) {
  SearchOptions options;
  options.memory_limit.assign(placement.ndevs, memory);
  options.in_flight = nmicros;
  options.boundary_seconds = 2;  // enough to exercise the shortening; the bench runs it in full
  return search_repetend(placement, options);
}

// The search's schedule and its unrolled forms all pass the verifier.
void check_valid_for_any_length(const SearchResult& result) {
  REQUIRE(result.schedule);
  const Schedule& schedule = *result.schedule;
  REQUIRE(schedule.repetend);
  CHECK(schedule.repetend->period == result.period);
  CHECK(schedule.repetend->micros_per_period == 1);
  const int k = result.in_flight;
  CHECK(schedule.nmicros == k);
  for (int n : {k, k + 1, 2 * k + 3, 64}) {
    INFO("unrolled to " << n << " micro-batches");
    Schedule unrolled = unroll(schedule, n);
    verify::Report report = testing::verify_schedule(unrolled);
    CHECK(report.valid);
    for (const verify::Violation& violation : report.violations) UNSCOPED_INFO(violation.message);
    for (int d = 0; d < schedule.placement.ndevs; ++d) CHECK(report.peak_memory[d] <= schedule.memory_limit[d]);
  }
}

// Every period from L up to the answer was decided unsat by the solver, or
// lies below the memory-rate bound, which the report then lists.
void check_proof(const SearchResult& result) {
  REQUIRE(result.schedule);
  const Time bound = memory_rate_bound(result.schedule->placement, result.schedule->memory_limit).period;
  bool bound_listed = false;
  for (const SolverCall& call : result.calls)
    bound_listed |= call.what.find("memory-rate bound") != std::string::npos && call.answer == Answer::Unsat;
  CHECK(bound_listed == (bound > result.lower_bound));
  for (int period = std::max<Time>(result.lower_bound, bound); period < result.period; ++period) {
    bool unsat = false;
    for (const SolverCall& call : result.calls)
      unsat |= (call.what == "period " + std::to_string(period) ||
                call.what == "period " + std::to_string(period) + " (chain program)") &&
               call.answer == Answer::Unsat;
    CHECK(unsat);
  }
  CHECK(result.proven_lower_bound == result.period);
}

void check_case(const std::string& name, bool infer, long long memory, std::optional<int> expected_period) {
  INFO(name << (infer ? " inference" : " training") << ", memory " << memory);
  Placement placement = make_case(name, 4, infer);
  SearchResult result = repetend(placement, memory);
  REQUIRE(result.status == SearchStatus::Found);
  CHECK(result.lower_bound == period_lower_bound(placement));
  if (expected_period) CHECK(result.period == *expected_period);
  check_proof(result);
  check_valid_for_any_length(result);
}

}  // namespace

// Periods where the Python Tessel also found a schedule of period L
// (the Python Tessel's results CSV, suite a), so a period-L
// schedule exists: ours must be L.
TEST_CASE("repetend: vshape and kshape reach L", "[search][repetend]") {
  check_case("vshape", false, 4, 4);
  check_case("kshape", false, 6, 6);
}

TEST_CASE("repetend: mshape reaches L at memory 6", "[search][repetend]") { check_case("mshape", false, 6, 6); }

TEST_CASE("repetend: xshape reaches L at memory 4", "[search][repetend]") { check_case("xshape", false, 4, 8); }

TEST_CASE("repetend: nnshape reaches L at memory 6", "[search][repetend]") { check_case("nnshape", false, 6, 8); }

TEST_CASE("repetend: inference reaches L on every case", "[search][repetend]") {
  check_case("vshape", true, 4, 1);
  check_case("xshape", true, 4, 2);
  check_case("kshape", true, 4, 2);
  check_case("nnshape", true, 4, 3);
  check_case("mshape", true, 4, 2);  // the Python Tessel found none here
}

// Under tighter memory the period rises above L, and every period below it
// is backed by an unsat answer.
TEST_CASE("repetend: mshape at memory 4 proves L impossible", "[search][repetend]") {
  Placement placement = make_case("mshape", 4, false);
  SearchResult result = repetend(placement, 4);
  REQUIRE(result.status == SearchStatus::Found);
  CHECK(result.period > result.lower_bound);
  check_proof(result);
  check_valid_for_any_length(result);
}

TEST_CASE("repetend: vshape at memory 2 (1F1B with two in flight)", "[search][repetend]") {
  Placement placement = make_case("vshape", 4, false);
  SearchResult result = repetend(placement, 2);
  REQUIRE(result.status == SearchStatus::Found);
  CHECK(result.period > 4);
  check_proof(result);
  check_valid_for_any_length(result);
}

TEST_CASE("repetend: --nmicros caps the micro-batches in flight", "[search][repetend]") {
  Placement placement = make_case("vshape", 4, false);
  SearchResult free = repetend(placement, 8);
  SearchResult capped = repetend(placement, 8, 2);
  REQUIRE(free.status == SearchStatus::Found);
  REQUIRE(capped.status == SearchStatus::Found);
  CHECK(capped.in_flight <= 2);
  CHECK(capped.period > free.period);  // 1F1B needs 4 in flight for period 4
  check_proof(capped);
  check_valid_for_any_length(capped);
}

TEST_CASE("repetend: too little memory for one micro-batch is infeasible", "[search][repetend]") {
  Placement placement = make_case("vshape", 4, false);
  SearchResult result = repetend(placement, 0);
  CHECK(result.status == SearchStatus::Infeasible);
  CHECK_THAT(result.message, Catch::Contains("needs 1,1,1,1"));
  CHECK_FALSE(result.schedule);
}

TEST_CASE("repetend: memory that never returns to zero is bad input", "[search][repetend]") {
  Placement placement = make_case("vshape", 4, false);
  placement.blocks[0].memory = 2;  // allocates 2, frees 1
  CHECK_THROWS_AS(repetend(placement, 8), InputError);
}

TEST_CASE("repetend: an expired deadline returns the fallback, marked as a timeout", "[search][repetend]") {
  Placement placement = make_case("nnshape", 4, false);
  SearchOptions options;
  options.memory_limit.assign(4, 6);
  options.deadline = Deadline{Deadline::Clock::now()};
  SearchResult result = search_repetend(placement, options);
  CHECK(result.status == SearchStatus::Timeout);
  CHECK(result.proven_lower_bound == result.lower_bound);  // nothing was proven
  check_valid_for_any_length(result);
}

TEST_CASE("repetend: the solver shortens warmup and cooldown to the makespan bound on kshape", "[search][repetend]") {
  Placement placement = make_case("kshape", 4, false);
  SearchOptions options;
  options.memory_limit.assign(4, 6);
  options.boundary_seconds = 0;
  SearchResult squeezed = search_repetend(placement, options);
  options.boundary_seconds = 8;
  SearchResult solved = search_repetend(placement, options);
  REQUIRE(squeezed.status == SearchStatus::Found);
  REQUIRE(solved.status == SearchStatus::Found);
  CHECK(solved.period == squeezed.period);
  int squeezed_length = makespan(unroll(*squeezed.schedule, 128));
  int solved_length = makespan(unroll(*solved.schedule, 128));
  CHECK(solved_length <= squeezed_length);
  CHECK(solved_length == 772);  // the bound max_d(head_d + 128 load(d) + tail_d)
  CHECK(solved.boundary.proven_minimal);
  check_valid_for_any_length(solved);
}
