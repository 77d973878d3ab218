// The search's one budget (solver/solve/budget.hpp): a phase with a budget of its
// own gets its knob's seconds, at most its share of what the deadline it is
// cut from has left, never past that deadline, and every grant is logged
// with what limited it; strategy full's first schedule is granted so and
// shows in the report.
#include <catch2/catch.hpp>

#include "cases/builtin_cases.hpp"
#include "solver/search.hpp"
#include "solver/solve/budget.hpp"

using namespace tessel;

namespace {

Budget fresh_budget(const Deadline& limit) {
  return make_budget(limit, Deadline::Clock::now(), Tuning{}, 0);
}

}  // namespace

TEST_CASE("budget: a phase's own seconds, its share of the time left, the deadline it is cut from", "[budget]") {
  Budget unlimited = fresh_budget(Deadline::none());
  const Deadline free = grant_phase(unlimited, BudgetPhase::FullStart, Deadline::none(), 10, 0.25);
  CHECK(free.seconds_left() == Approx(10).margin(0.1));
  REQUIRE(unlimited.log.granted.size() == 1);
  CHECK(unlimited.log.granted[0].phase == BudgetPhase::FullStart);
  CHECK(unlimited.log.granted[0].limited_by == BudgetLimit::PhaseSeconds);
  REQUIRE(unlimited.log.granted[0].until);
  CHECK(*unlimited.log.granted[0].until - unlimited.log.granted[0].from == Approx(10).margin(0.1));

  const Deadline limit = Deadline::after_seconds(8);
  Budget budget = fresh_budget(limit);
  const Deadline shared = grant_phase(budget, BudgetPhase::FullStart, limit, 10, 0.25);
  CHECK(shared.seconds_left() == Approx(2).margin(0.1));
  CHECK(budget.log.granted.back().limited_by == BudgetLimit::ShareOfLeft);

  const Deadline own = grant_phase(budget, BudgetPhase::FullList, limit, 0.5, 0.125);
  CHECK(own.seconds_left() == Approx(0.5).margin(0.1));
  CHECK(budget.log.granted.back().limited_by == BudgetLimit::PhaseSeconds);

  const Deadline capped = grant_phase(budget, BudgetPhase::RecomputeAll, limit, 60);
  CHECK(capped.at == limit.at);
  CHECK(budget.log.granted.back().limited_by == BudgetLimit::TimeLimit);
  CHECK(budget.log.granted.size() == 3);
}

TEST_CASE("budget: strategy full's first schedule is granted by the budget and reported", "[budget][full]") {
  SearchRequest request;
  request.placement = make_case("vshape", 4, false);
  request.memory_limit.assign(4, 4);
  request.strategy = Strategy::Full;
  request.total_micros = 8;
  request.threads = 1;
  request.deadline = Deadline::after_seconds(20);
  request.tuning.full_start_share = 0.1;
  Progress quiet;
  const SearchReport report = solve(request, quiet);
  REQUIRE(report.best);
  const BudgetGrant* start = nullptr;
  const BudgetGrant* list = nullptr;
  for (const BudgetGrant& grant : report.budget) {
    if (grant.phase == BudgetPhase::FullStart) start = &grant;
    if (grant.phase == BudgetPhase::FullList) list = &grant;
  }
  REQUIRE(start);
  REQUIRE(list);
  CHECK(std::string(budget_phase_name(start->phase)) == "full_start");
  // A tenth of the (almost) 20 s left: below full_start_seconds' 10.
  CHECK(start->limited_by == BudgetLimit::ShareOfLeft);
  REQUIRE(start->until);
  CHECK(*start->until - start->from == Approx(2).margin(0.2));
  CHECK(list->limited_by == BudgetLimit::PhaseSeconds);
}
