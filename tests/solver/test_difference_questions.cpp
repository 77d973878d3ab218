// The period questions of the cyclic-order search asked as guarded
// differences (solver/period/difference_logic_period.hpp) against the two methods
// they stand beside: the learned cycles on the same orders and the
// unit-step encoding, which shares no code with either. On the paper's
// 4-device placements with uneven spans, with communication delays, and
// with spans x1000: the same proven optimal period from every path, on
// CaDiCaL (the differences on a side Z3) and on Z3 itself, every schedule
// passing the verifier. A difference constraint that cuts off a real
// schedule shows as a larger period or a wrong "impossible"; one that lets
// a bad one through, as a verifier failure (or the search's own re-check).
#include <catch2/catch.hpp>

#include "cases/builtin_cases.hpp"
#include "model/unroll.hpp"
#include "solver/strategies/repetend_search.hpp"
#include "tests/support.hpp"

using namespace tessel;

namespace {

struct Path {
  const char* name;
  const char* backend;
  PeriodMethodChoice method;
  OrderQuestions questions;
};

const Path kPaths[] = {
    {"unit steps", "cadical", PeriodMethodChoice::UnitStep, OrderQuestions::Automatic},
    {"learned cycles", "cadical", PeriodMethodChoice::CyclicOrder, OrderQuestions::LearnedCycles},
    {"differences on a side z3", "cadical", PeriodMethodChoice::CyclicOrder, OrderQuestions::Differences},
    {"automatic on cadical", "cadical", PeriodMethodChoice::CyclicOrder, OrderQuestions::Automatic},
    {"differences on z3", "z3", PeriodMethodChoice::CyclicOrder, OrderQuestions::Automatic},
};

SearchResult search_on(const Path& path, const Placement& placement, long long memory) {
  SearchOptions options;
  options.backend = path.backend;
  options.period_method = path.method;
  options.order_questions = path.questions;
  options.memory_limit.assign(placement.ndevs, memory);
  options.boundary_seconds = 0;
  options.wider_window_seconds = 0;
  return search_repetend(placement, options);
}

// True when some period question was answered by the guarded differences.
bool asked_differences(const SearchResult& result) {
  for (const SolverCall& call : result.calls)
    if (call.what.find("period <= ") != std::string::npos && call.what.find("by differences") != std::string::npos)
      return true;
  return false;
}

bool forced_differences(const Path& path) {
  return path.method == PeriodMethodChoice::CyclicOrder &&
         (path.questions == OrderQuestions::Differences || std::string(path.backend) == "z3");
}

void check_verified(const SearchResult& result) {
  REQUIRE(result.schedule);
  verify::Report report = testing::verify_schedule(unroll(*result.schedule, 2 * result.in_flight + 3));
  for (const verify::Violation& violation : report.violations) UNSCOPED_INFO(violation.message);
  CHECK(report.valid);
}

// Spans moved off the unit grid (times 3, plus -1, 0 or +1 by position),
// and, when asked, a delay of 1 or 2 on every other edge.
Placement measured(Placement placement, bool delays) {
  for (size_t b = 0; b < placement.blocks.size(); ++b)
    placement.blocks[b].span = placement.blocks[b].span * 3 + static_cast<Time>(b % 3) - 1;
  if (delays)
    for (size_t e = 0; e < placement.edges.size(); ++e) placement.edges[e].delay = e % 2 == 0 ? 1 + (e / 2) % 2 : 0;
  return placement;
}

// Every path proves the same optimal period on `placement`.
void check_all_paths_agree(const Placement& placement, long long memory) {
  std::optional<Time> period;
  for (const Path& path : kPaths) {
    INFO(path.name);
    const SearchResult result = search_on(path, placement, memory);
    REQUIRE(result.status == SearchStatus::Found);
    CHECK(result.proven_lower_bound == result.period);
    CHECK(asked_differences(result) == forced_differences(path));
    if (!period) period = result.period;
    CHECK(result.period == *period);
    check_verified(result);
  }
}

}  // namespace

TEST_CASE("guarded differences, learned cycles and unit steps prove the same period", "[orders][differences]") {
  for (const char* name : {"vshape", "xshape", "mshape", "kshape"})
    for (long long memory : {4, 2})
      for (bool delays : {false, true}) {
        INFO(name << ", memory " << memory << (delays ? ", with delays" : ""));
        check_all_paths_agree(measured(make_case(name, 4, false), delays), memory);
      }
}

TEST_CASE("guarded differences on spans x1000 with noise agree with the learned cycles", "[orders][differences]") {
  // Too many ticks for the unit-step encoding: the order paths only.
  for (const char* name : {"mshape", "nnshape"}) {
    INFO(name);
    Placement placement = make_case(name, 4, false);
    for (size_t b = 0; b < placement.blocks.size(); ++b)
      placement.blocks[b].span = placement.blocks[b].span * 1000 + static_cast<Time>((b * 37) % 101) - 50;
    std::optional<Time> period;
    for (const Path& path : kPaths) {
      if (path.method == PeriodMethodChoice::UnitStep) continue;
      INFO(path.name);
      const SearchResult result = search_on(path, placement, 4);
      REQUIRE(result.status == SearchStatus::Found);
      CHECK(result.proven_lower_bound == result.period);
      if (forced_differences(path)) CHECK(asked_differences(result));
      if (path.questions == OrderQuestions::LearnedCycles) CHECK_FALSE(asked_differences(result));
      if (!period) period = result.period;
      CHECK(result.period == *period);
      check_verified(result);
    }
  }
}
