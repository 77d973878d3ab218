// The period deciders (solver/period/decider.hpp) and the choice of them
// (solver/period/choose_deciders.hpp): every decider answers a period as the
// modulo encoding does on both backends, its Sat starts a repetend the
// definition accepts and, built into a schedule with warmup and cooldown,
// the verifier accepts; every decider answers Unknown at a spent deadline;
// the programs promise their time and the SAT decider does not; the choice
// gives a window its program only where it applies; and consecutive periods
// on one solver (periods_per_solver) give the scheduler's one-solver-a-period
// answer.
#include <catch2/catch.hpp>

#include <memory>

#include "cases/builtin_cases.hpp"
#include "solver/modulo/modulo_check.hpp"
#include "solver/modulo/warmup_cooldown.hpp"
#include "solver/period/choose_deciders.hpp"
#include "solver/period/modulo_decider.hpp"
#include "solver/period/order_decider.hpp"
#include "solver/period/program_decider.hpp"
#include "solver/period/scheduler.hpp"
#include "solver/strategies/repetend_search.hpp"
#include "tests/solver/race_options.hpp"
#include "tests/support.hpp"

using namespace tessel;

namespace {

// A Sat answer's starts: a repetend the definition accepts, and the
// schedule built around it (warmup and cooldown) unrolled to K and 2K + 3
// micro-batches passes the verifier.
void check_starts(const Placement& placement, const std::vector<long long>& limits, int in_flight, int period,
                  const std::vector<int>& starts) {
  const ModuloSolution solution = modulo_solution(placement, period, starts);
  const std::optional<std::string> violation = modulo_violation(placement, limits, solution, in_flight);
  INFO(violation.value_or(""));
  REQUIRE_FALSE(violation);
  const WarmupCooldown built = build_warmup_cooldown(placement, limits, solution);
  if (!built.valid) return;  // the period stands, the warmup does not fit memory (unusable_warmup_reason)
  for (int n : {solution.in_flight, 2 * solution.in_flight + 3}) {
    INFO("unrolled to " << n << " micro-batches");
    const verify::Report report = testing::verify_schedule(unroll(built.schedule, n));
    for (const verify::Violation& broken : report.violations) UNSCOPED_INFO(broken.message);
    CHECK(report.valid);
  }
}

// `decider` against the modulo encoding on CaDiCaL and on Z3 on periods
// L .. L + 4: the same answer (so an Unsat agrees across deciders and
// backends), and a Sat answer's starts checked as above.
void same_as_modulo(const PeriodDecider& decider, const Placement& placement, const std::vector<long long>& limits,
                    int in_flight) {
  const ModuloSatDecider modulo({&placement, limits, in_flight, {}, "cadical", {}});
  const ModuloSatDecider on_z3({&placement, limits, in_flight, {}, "z3", {}});
  const int lower = period_lower_bound(placement);
  int sat = 0, unsat = 0;
  for (int period = lower; period <= lower + 4; ++period) {
    INFO(decider.name() << ", period " << period);
    const ChainPeriod by_decider = decide_alone(decider, period, Deadline::after_seconds(60));
    const ChainPeriod by_modulo = decide_alone(modulo, period, Deadline::after_seconds(60));
    REQUIRE(by_modulo.answer != Answer::Unknown);
    CHECK(decide_alone(on_z3, period, Deadline::after_seconds(60)).answer == by_modulo.answer);
    CHECK(by_decider.answer == by_modulo.answer);
    if (by_decider.answer == Answer::Unsat) ++unsat;
    if (by_decider.answer != Answer::Sat) continue;
    ++sat;
    check_starts(placement, limits, in_flight, period, by_decider.starts);
    check_starts(placement, limits, in_flight, period, by_modulo.starts);
  }
  CHECK(sat >= 1);  // the range reaches a satisfiable period
  UNSCOPED_INFO(decider.name() << ": " << unsat << " periods refuted");
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

TEST_CASE("period deciders: the cyclic orders and difference logic answer every period as the modulo encoding does", "[period][deciders]") {
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
      const CyclicOrdersDecider orders(placement, 1, in_flight, testing::timing_free("cadical", placement, memory, 1));
      CHECK(orders.kind() == DeciderKind::CyclicOrders);
      same_as_modulo(orders, placement, limits, in_flight);
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

TEST_CASE("period deciders: every decider answers Unknown at a spent deadline", "[period][deciders][time-limit]") {
  const Placement chain_case = make_case("nnshape", 4, false);
  const std::vector<long long> limits(chain_case.ndevs, 4);
  const int in_flight = static_cast<int>(chain_case.blocks.size());
  const Placement crossed_case = make_case("xshape", 4, false);
  std::vector<std::unique_ptr<PeriodDecider>> deciders;
  deciders.push_back(period_program(chain_case, limits, in_flight));
  deciders.push_back(period_program(crossed_case, limits, 40));
  deciders.push_back(std::make_unique<ModuloSatDecider>(ModuloQuestion{&chain_case, limits, in_flight, {}, "cadical", {}}));
  deciders.push_back(std::make_unique<ModuloSatDecider>(ModuloQuestion{&chain_case, limits, in_flight, {}, "z3", {}}));
  deciders.push_back(std::make_unique<DifferenceLogicDecider>(chain_case, limits, in_flight));
  deciders.push_back(
      std::make_unique<CyclicOrdersDecider>(chain_case, 1, in_flight, testing::timing_free("cadical", chain_case, 4, 1)));
  StopFlag stop{true};
  const Deadline spent = Deadline::none(&stop);
  for (size_t i = 0; i < deciders.size(); ++i) {
    REQUIRE(deciders[i]);
    INFO(deciders[i]->name());
    // A satisfiable period (well above L), so that Unknown is not a
    // refutation in disguise.
    const int period = period_lower_bound(i == 1 ? crossed_case : chain_case) + 6;
    const ChainPeriod decided = decide_alone(*deciders[i], period, spent);
    CHECK(decided.answer == Answer::Unknown);
    CHECK(decided.starts.empty());
    CHECK(decide_alone(*deciders[i], period, Deadline::after_seconds(60)).answer == Answer::Sat);
  }
}
