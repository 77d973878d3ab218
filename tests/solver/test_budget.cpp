// The search's one budget (solver/solve/budget.hpp): a phase with a budget of its
// own gets its knob's seconds, at most its share of what the deadline it is
// cut from has left, never past that deadline, and every grant is logged
// with what limited it; strategy full's first schedule is granted so and
// shows in the report.
#include <catch2/catch.hpp>

#include <chrono>

#include "cases/builtin_cases.hpp"
#include "solver/search.hpp"
#include "solver/solve/budget.hpp"
#include "tests/support.hpp"

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

TEST_CASE("budget: the phases trading memory end with the whole plan, at their floor when it is spent",
          "[budget][recompute]") {
  const auto now = Deadline::Clock::now();
  const auto ago = [now](double seconds) {
    return now - std::chrono::duration_cast<Deadline::Clock::duration>(std::chrono::duration<double>(seconds));
  };
  // Off the plan: the knob's seconds.
  Budget unplanned = make_budget(Deadline::none(), ago(3), Tuning{}, 0);
  CHECK(grant_traded(unplanned, BudgetPhase::RecomputeAll, Deadline::none(), 2, 0.5).seconds_left() ==
        Approx(2).margin(0.1));
  CHECK(unplanned.log.granted.back().limited_by == BudgetLimit::PhaseSeconds);

  // The plan began 3 s ago and lasts 4.5 s: 1.5 s are left, below the knob's 2.
  Budget budget = make_budget(Deadline::none(), ago(3), Tuning{}, 0);
  budget.whole_plan_seconds = 4.5;
  CHECK(traded_seconds(budget, 2, 0.5) == Approx(1.5).margin(0.1));
  CHECK(grant_traded(budget, BudgetPhase::RecomputeAll, Deadline::none(), 2, 0.5).seconds_left() ==
        Approx(1.5).margin(0.1));
  CHECK(budget.log.granted.back().limited_by == BudgetLimit::Plan);
  // The knob's own seconds when they are less.
  CHECK(grant_traded(budget, BudgetPhase::RecomputeChoice, Deadline::none(), 1, 0.5).seconds_left() ==
        Approx(1).margin(0.1));
  CHECK(budget.log.granted.back().limited_by == BudgetLimit::PhaseSeconds);

  // The plan is spent: the floor, or nothing without one.
  Budget spent = make_budget(Deadline::none(), ago(6), Tuning{}, 0);
  spent.whole_plan_seconds = 4.5;
  CHECK(grant_traded(spent, BudgetPhase::RecomputeAll, Deadline::none(), 2, 0.5).seconds_left() ==
        Approx(0.5).margin(0.1));
  CHECK(spent.log.granted.back().limited_by == BudgetLimit::TradedLeast);
  CHECK(std::string(budget_limit_name(BudgetLimit::TradedLeast)) == "traded_least_seconds");
  CHECK(traded_seconds(spent, 0.5, 0) == 0);
  // Never past the deadline it is cut from.
  const Deadline limit = Deadline::after_seconds(0.2);
  CHECK(grant_traded(budget, BudgetPhase::Shifts, limit, 2, 0.5).at == limit.at);
}

TEST_CASE("budget: the default search offering recomputation ends its traded phases with the plan",
          "[budget][recompute]") {
  // nnshape on 4 devices at memory 4 with every forward offering recomputation at its own span: the
  // period binds, so the choice inside the repetend and the recompute-all search both run.
  SearchRequest request;
  request.placement = testing::offering_recompute(make_case("nnshape", 4, false));
  request.memory_limit.assign(4, 4);
  request.total_micros = 32;
  request.threads = 1;
  // A short plan, spent before the traded phases start: each gets its floor, not its knob's seconds.
  request.tuning.plan_seconds = 0.2;
  Progress quiet;
  const SearchReport report = solve(request, quiet);
  REQUIRE(report.best);
  const double plan = request.tuning.plan_seconds;
  int traded = 0;
  const double least = request.tuning.traded_least_seconds;
  for (const BudgetGrant& grant : report.budget) {
    if (grant.phase != BudgetPhase::RecomputeChoice && grant.phase != BudgetPhase::RecomputeAll &&
        grant.phase != BudgetPhase::Shifts && grant.phase != BudgetPhase::TradedNeighbourhoods)
      continue;
    INFO(budget_phase_name(grant.phase) << " from " << grant.from);
    REQUIRE(grant.until);
    CHECK(*grant.until <= std::max(plan, grant.from + least) + 0.01);
    ++traded;
  }
  CHECK(traded >= 2);
}
