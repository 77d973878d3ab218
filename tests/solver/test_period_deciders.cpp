// The period deciders (solver/period/decider.hpp) and the choice of them
// (solver/period/choose_deciders.hpp): every decider answers a period as the
// modulo encoding does, its Sat starts a repetend the definition accepts;
// the programs promise their time and the SAT decider does not; the choice
// gives a window its program only where it applies; and consecutive periods
// on one solver (periods_per_solver) give the scheduler's one-solver-a-period
// answer.
#include <catch2/catch.hpp>

#include <memory>

#include "cases/builtin_cases.hpp"
#include "solver/modulo_check.hpp"
#include "solver/period/choose_deciders.hpp"
#include "solver/period/modulo_decider.hpp"
#include "solver/period/order_decider.hpp"
#include "solver/period/program_decider.hpp"
#include "solver/period/scheduler.hpp"
#include "solver/repetend_search.hpp"
#include "tests/solver/race_options.hpp"

using namespace tessel;

namespace {

// `decider` against the modulo encoding on periods L .. L + 4: the same
// answer, and a Sat answer's starts a repetend of that period.
void same_as_modulo(const PeriodDecider& decider, const Placement& placement, const std::vector<long long>& limits,
                    int in_flight) {
  const ModuloSatDecider modulo({&placement, limits, in_flight, {}, "cadical", {}});
  const int lower = period_lower_bound(placement);
  int sat = 0;
  for (int period = lower; period <= lower + 4; ++period) {
    INFO(decider.name() << ", period " << period);
    const ChainPeriod by_decider = decide_alone(decider, period, Deadline::after_seconds(60));
    const ChainPeriod by_modulo = decide_alone(modulo, period, Deadline::after_seconds(60));
    REQUIRE(by_modulo.answer != Answer::Unknown);
    CHECK(by_decider.answer == by_modulo.answer);
    if (by_decider.answer != Answer::Sat) continue;
    ++sat;
    const ModuloSolution solution = modulo_solution(placement, period, by_decider.starts);
    const std::optional<std::string> violation = modulo_violation(placement, limits, solution, in_flight);
    INFO(violation.value_or(""));
    CHECK_FALSE(violation);
  }
  CHECK(sat >= 1);  // the range reaches a satisfiable period
}

}  // namespace

TEST_CASE("period deciders: each program answers its periods as the modulo encoding does", "[period][deciders]") {
  for (long long memory : {4, 6}) {
    INFO("memory " << memory);
    const Placement chain_case = make_case("nnshape", 4, false);
    const std::vector<long long> limits(chain_case.ndevs, memory);
    const int in_flight = static_cast<int>(chain_case.blocks.size());
    std::unique_ptr<PeriodDecider> chain = period_program(chain_case, limits, in_flight);
    REQUIRE(chain);
    CHECK(chain->kind() == DeciderKind::ChainProgram);
    same_as_modulo(*chain, chain_case, limits, in_flight);

    const Placement crossed_case = make_case("xshape", 4, false);
    std::unique_ptr<PeriodDecider> crossed = period_program(crossed_case, limits, 40);
    REQUIRE(crossed);
    CHECK(crossed->kind() == DeciderKind::CrossedChains);
    same_as_modulo(*crossed, crossed_case, limits, 40);
  }
}

TEST_CASE("period deciders: difference logic answers every period as the modulo encoding does", "[period][deciders]") {
  // Shapes without a program too; an answer at a smaller period comes
  // stretched to the period asked.
  for (const char* name : {"kshape", "mshape", "vshape"})
    for (long long memory : {3, 5}) {
      INFO(name << ", memory " << memory);
      const Placement placement = make_case(name, 4, false);
      const std::vector<long long> limits(placement.ndevs, memory);
      const int in_flight = static_cast<int>(placement.blocks.size());
      const DifferenceLogicDecider decider(placement, limits, in_flight);
      CHECK(decider.kind() == DeciderKind::DifferenceLogic);
      same_as_modulo(decider, placement, limits, in_flight);
    }
}

TEST_CASE("period deciders: programs promise their time, the SAT decider does not", "[period][deciders]") {
  const Placement placement = make_case("nnshape", 4, false);
  const std::vector<long long> limits(placement.ndevs, 4);
  const int in_flight = static_cast<int>(placement.blocks.size());
  std::unique_ptr<PeriodDecider> chain = period_program(placement, limits, in_flight);
  REQUIRE(chain);
  const int lower = period_lower_bound(placement);
  CHECK(chain->estimate(lower, 1.0).exact);
  CHECK(chain->estimate(lower, 1.0).within);
  CHECK_FALSE(chain->estimate(lower, 0.0).within);  // nothing is decided in no time
  CHECK(last_affordable(*chain, lower, lower + 3, 1.0) == lower + 3);
  CHECK(last_affordable(*chain, lower, lower + 3, 0.0) == lower - 1);
  const ModuloSatDecider modulo({&placement, limits, in_flight, {}, "cadical", {}});
  CHECK_FALSE(modulo.estimate(lower, 1e9).within);
  CHECK_FALSE(modulo.estimate(lower, 1e9).exact);
  // kshape is neither a mirrored chain nor two crossed ones.
  const Placement other = make_case("kshape", 4, false);
  CHECK_FALSE(period_program(other, std::vector<long long>(other.ndevs, 4), 16));
}

TEST_CASE("period deciders: a program only for one micro-batch a window under the automatic method",
          "[period][deciders]") {
  const Placement placement = make_case("nnshape", 4, false);
  SearchOptions options = testing::timing_free("cadical", placement, 4, 2);
  options.period_method = PeriodMethodChoice::Automatic;
  const int lower = period_lower_bound(placement);
  const WindowPeriods periods{&placement, 1, static_cast<int>(placement.blocks.size()), lower, lower + 6, true, ""};
  PeriodPlan plan = plan_periods(periods, options);
  REQUIRE(plan.program);
  CHECK(plan.question.program == plan.program.get());
  CHECK(plan.question.program_last >= lower);
  CHECK(plan.question.program_reach >= plan.question.program_last);
  CHECK(plan.question.threads == 2);
  CHECK_FALSE(decided_by_orders(placement, options));

  WindowPeriods wider = periods;
  wider.k = 2;
  CHECK_FALSE(plan_periods(wider, options).program);
  WindowPeriods solver_only = periods;
  solver_only.programs = false;
  CHECK_FALSE(plan_periods(solver_only, options).question.program);
  options.period_method = PeriodMethodChoice::UnitStep;
  CHECK_FALSE(plan_periods(periods, options).program);
  options.period_method = PeriodMethodChoice::CyclicOrder;
  CHECK(decided_by_orders(placement, options));
  // Consecutive periods on one solver are decided on one thread.
  options.period_method = PeriodMethodChoice::Automatic;
  options.periods_per_solver = 3;
  CHECK(plan_periods(periods, options).question.threads == 1);
}

TEST_CASE("period scheduler: consecutive periods on one solver give the one-solver-a-period answer",
          "[period][deciders]") {
  for (const char* name : {"mshape", "kshape"}) {
    const Placement placement = make_case(name, 6, false);
    SearchOptions one = testing::timing_free("cadical", placement, 6, 1);
    const SearchResult reference = search_repetend(placement, one);
    REQUIRE(reference.status == SearchStatus::Found);
    SearchOptions chunked = one;
    chunked.periods_per_solver = 3;
    const SearchResult result = search_repetend(placement, chunked);
    INFO(name);
    REQUIRE(result.status == SearchStatus::Found);
    CHECK(result.period == reference.period);
    CHECK(result.proven_lower_bound == reference.proven_lower_bound);
    CHECK(result.latency == reference.latency);
    // The answer's period was asked of a solver and found satisfiable.
    bool asked = false;
    for (const SolverCall& call : result.calls)
      asked |= call.what == "period " + std::to_string(result.period) && call.answer == Answer::Sat;
    CHECK(asked);
  }
}
