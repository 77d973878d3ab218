// The period decided on cyclic orders (solver/period/order_period_search.hpp)
// against the unit-step encoding it stands in for: the maximum cycle ratio
// on graphs whose answer is known by hand, and on the paper's 4-device
// placements with unequal spans the same proven optimal period from both
// methods, every schedule passing the verifier. The two methods share no
// encoding, so a wrong cycle clause (one that cuts off a real schedule)
// shows as a larger period here, and a wrong theory as a verifier failure.
#include <cstdlib>

#include <catch2/catch.hpp>

#include "cases/builtin_cases.hpp"
#include "model/unroll.hpp"
#include "solver/modulo/max_cycle_ratio.hpp"
#include "solver/strategies/repetend_search.hpp"
#include "tests/support.hpp"

using namespace tessel;

namespace {

// Runs the repetend search with the period method forced (the tuning knob
// period_method), k = 1.
SearchResult search_with(PeriodMethodChoice method, const Placement& placement, long long memory) {
  SearchOptions options;
  options.period_method = method;
  options.memory_limit.assign(placement.ndevs, memory);
  options.boundary_seconds = 0.5;
  return search_repetend(placement, options);
}

// True when some solver call of the result was a question on cyclic orders.
bool asked_orders(const SearchResult& result) {
  for (const SolverCall& call : result.calls)
    if (call.what.find("period <= ") != std::string::npos) return true;
  return false;
}

void check_verified(const SearchResult& result) {
  REQUIRE(result.schedule);
  for (int n : {result.in_flight, 2 * result.in_flight + 3}) {
    verify::Report report = testing::verify_schedule(unroll(*result.schedule, n));
    for (const verify::Violation& violation : report.violations) UNSCOPED_INFO(violation.message);
    CHECK(report.valid);
  }
}

// Spans moved off the unit grid the way measured times are: each span
// times 3, plus -1, 0 or +1 by position (deterministic).
Placement uneven(Placement placement) {
  for (size_t b = 0; b < placement.blocks.size(); ++b)
    placement.blocks[b].span = placement.blocks[b].span * 3 + static_cast<Time>(b % 3) - 1;
  return placement;
}

}  // namespace

TEST_CASE("maximum cycle ratio: the largest sum(c) / sum(h) over the cycles", "[orders]") {
  // Two cycles through node 0: 0->1->0 with 5 + 2 = 7 over 2 crossings and
  // 0->2->0 with 3 + 0 = 3 over 1 crossing; 7/2 is the larger.
  const std::vector<DifferenceEdge> edges{{0, 1, 5, 1}, {1, 0, 2, 1}, {0, 2, 3, 0}, {2, 0, 0, 1}};
  const MaxRatio found = max_cycle_ratio(3, edges, {0, 1});
  CHECK(found.value == Ratio{7, 2});
  REQUIRE(found.critical);
  CHECK(found.critical->edges.size() == 2);
  CHECK(found.critical->constant == 7);
  CHECK(found.critical->crossings == 2);
  CHECK(Ratio{7, 2}.ceiling() == 4);

  // At 3 the 7/2 cycle is positive; at 4 none is, and the potentials
  // satisfy every edge at 4.
  CHECK_FALSE(check_period(3, edges, {3, 1}).feasible());
  const PeriodCheck at_four = check_period(3, edges, {4, 1});
  REQUIRE(at_four.feasible());
  for (const DifferenceEdge& edge : edges)
    CHECK(at_four.potentials[edge.to] - at_four.potentials[edge.from] >= edge.constant - 4 * edge.crossings);
}

TEST_CASE("maximum cycle ratio: a positive cycle that never crosses rules out every period", "[orders]") {
  const std::vector<DifferenceEdge> edges{{0, 1, 2, 0}, {1, 0, -1, 0}};
  const MaxRatio found = max_cycle_ratio(2, edges, {0, 1});
  CHECK(found.value.infinite());
  CHECK_FALSE(check_period(2, edges, {1000000, 1}).feasible());
}

TEST_CASE("cyclic orders and unit steps prove the same optimal period on uneven spans", "[orders]") {
  for (const char* name : {"vshape", "xshape", "mshape", "kshape"})
    for (long long memory : {4, 2})
      for (bool even : {true, false}) {
        INFO(name << (even ? " unit spans" : " uneven spans") << ", memory " << memory);
        const Placement unit = make_case(name, 4, false);
        const Placement placement = even ? unit : uneven(unit);
        const SearchResult by_steps = search_with(PeriodMethodChoice::UnitStep, placement, memory);
        const SearchResult by_orders = search_with(PeriodMethodChoice::CyclicOrder, placement, memory);
        REQUIRE(by_steps.status == SearchStatus::Found);
        REQUIRE(by_orders.status == SearchStatus::Found);
        CHECK_FALSE(asked_orders(by_steps));
        CHECK(asked_orders(by_orders));
        CHECK(by_orders.period == by_steps.period);
        CHECK(by_orders.proven_lower_bound == by_orders.period);
        CHECK(by_steps.proven_lower_bound == by_steps.period);
        check_verified(by_steps);
        check_verified(by_orders);
      }
}

TEST_CASE("spans x1000 on cyclic orders: the period within one unit of 1000 times the unit-span one", "[orders]") {
  // The exact ratio of the best order scales with the spans; the integer
  // period rounds it up, so it lies in (1000 (P - 1), 1000 P].
  for (const char* name : {"vshape", "mshape"}) {
    INFO(name);
    const Placement unit = make_case(name, 4, false);
    Placement scaled = unit;
    for (Block& block : scaled.blocks) block.span *= 1000;
    const SearchResult small = search_with(PeriodMethodChoice::UnitStep, unit, 4);
    const SearchResult large = search_with(PeriodMethodChoice::CyclicOrder, scaled, 4);
    REQUIRE(small.status == SearchStatus::Found);
    REQUIRE(large.status == SearchStatus::Found);
    CHECK(large.proven_lower_bound == large.period);
    CHECK(large.period <= 1000 * small.period);
    CHECK(large.period > 1000 * (small.period - 1));
    check_verified(large);
  }
}
