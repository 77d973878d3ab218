// A repetend of period P stretches into one of P + 1 (solver/modulo/period_stretch):
// the fact that lets a refuted period settle every smaller one in the
// period race. Where the answer is known (small placements, each period
// decided on its own solver): the minimal period's solution stretched at
// every cut is a repetend of P + 1 by the definition (modulo_check, with no
// more micro-batches in flight than the original) and by the verifier (its
// schedule of K + 2 micro-batches); and the answers of consecutive periods
// are monotone (no unsatisfiable period in the three above the first
// satisfiable one), on placements with communication delays and random
// pipelines too. The race with cubes split at once gives the same period
// and proven bound as one thread, with every period below it refuted by a
// call, by cubes, or implied by a larger refuted one (or by the memory-rate
// bound). Negative starts are refused.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <random>
#include <stdexcept>

#include "cases/builtin_cases.hpp"
#include "solver/modulo/modulo_check.hpp"
#include "solver/modulo/modulo_encoding.hpp"
#include "solver/modulo/period_stretch.hpp"
#include "solver/strategies/repetend_search.hpp"
#include "tests/solver/pipelines.hpp"
#include "tests/solver/race_options.hpp"
#include "tests/support.hpp"

using namespace tessel;

namespace {

// Period `period` of `placement` on a fresh CaDiCaL solver: its solution
// (earliest start at 0), or nothing when the period is refuted.
std::optional<ModuloSolution> solve_period(const Placement& placement, const std::vector<long long>& limits,
                                           int period) {
  std::unique_ptr<Backend> backend = make_backend("cadical");
  const int kmax = static_cast<int>(placement.blocks.size());
  ModuloEncoding encoding = encode_modulo(*backend, placement, limits, {period, period}, kmax);
  const Answer answer = backend->solve({period_assumption(encoding, period)}, Deadline::after_seconds(60));
  REQUIRE(answer != Answer::Unknown);
  if (answer == Answer::Unsat) return std::nullopt;
  return modulo_solution(placement, period, decode_starts(*backend, encoding, period));
}

// Periods from L up: answers monotone, and the first satisfiable one
// stretched at every cut valid by the definition and the verifier.
void check_stretching(const Placement& placement, const std::vector<long long>& limits) {
  const int kmax = static_cast<int>(placement.blocks.size());
  const int lower = static_cast<int>(std::max<Time>(1, period_lower_bound(placement)));
  std::optional<ModuloSolution> first;
  for (int period = lower; period <= lower + 12; ++period) {
    INFO("period " << period);
    std::optional<ModuloSolution> solution = solve_period(placement, limits, period);
    if (first) {
      CHECK(solution.has_value());  // monotone: satisfiable above a satisfiable period
      if (period > first->period + 2) break;
      continue;
    }
    if (solution) first = solution;
  }
  REQUIRE(first);
  REQUIRE_FALSE(modulo_violation(placement, limits, *first, kmax));
  for (int cut = 0; cut <= first->period; ++cut) {
    INFO("cut " << cut);
    const ModuloSolution longer = stretched(placement, *first, cut);
    CHECK(longer.period == first->period + 1);
    // No more micro-batches in flight than before: Kmax = the original K.
    CHECK(longer.in_flight <= first->in_flight);
    const std::optional<std::string> broken = modulo_violation(placement, limits, longer, first->in_flight);
    INFO(broken.value_or(""));
    CHECK_FALSE(broken);
    const Schedule schedule = truncated_modulo_schedule(placement, limits, longer, longer.in_flight + 2);
    verify::Report report = testing::verify_schedule(schedule);
    INFO(verify::report_to_text(report));
    CHECK(report.valid);
  }
}

// "period P", "period P (...)" or "periods A .. B by ..." naming `period`.
bool covers(const std::string& what, long long period) {
  long long first = 0, last = 0;
  if (std::sscanf(what.c_str(), "periods %lld .. %lld", &first, &last) == 2) return first <= period && period <= last;
  if (std::sscanf(what.c_str(), "period %lld", &first) == 1) return first == period;
  return false;
}

}  // namespace

TEST_CASE("period stretch: a repetend of P stretched at any cut is one of P + 1", "[period_stretch]") {
  struct Row {
    const char* name;
    int ndevs;
    long long memory;
  };
  for (const Row& row : {Row{"vshape", 4, 2}, Row{"xshape", 4, 2}, Row{"nnshape", 6, 3}, Row{"mshape", 4, 2},
                         Row{"kshape", 4, 2}, Row{"mllm", 4, 4}}) {
    INFO(row.name << " " << row.ndevs << " devices, memory " << row.memory);
    const Placement placement = make_case(row.name, row.ndevs, false);
    check_stretching(placement, std::vector<long long>(placement.ndevs, row.memory));
  }
}

TEST_CASE("period stretch: with communication delays and on random pipelines", "[period_stretch]") {
  Placement delayed = make_case("vshape", 4, false);
  for (size_t e = 0; e < delayed.edges.size(); ++e) delayed.edges[e].delay = static_cast<Time>(e % 3);
  check_stretching(delayed, std::vector<long long>(4, 3));
  std::mt19937 random(17);
  for (int round = 0; round < 6; ++round) {
    INFO("round " << round);
    const Placement placement = testing::random_pipeline(random, 2 + round % 2, 4, round % 2 == 0);
    check_stretching(placement, testing::one_micro_peaks(placement));
  }
}

TEST_CASE("period race: every period below the answer refuted, by a call, cubes or implied", "[period_stretch][period_race]") {
  struct Row {
    const char* name;
    int ndevs;
    long long memory;
  };
  for (const Row& row : {Row{"nnshape", 8, 4}, Row{"xshape", 8, 4}, Row{"mshape", 8, 4}}) {
    INFO(row.name << " " << row.ndevs << " devices, memory " << row.memory);
    const Placement placement = make_case(row.name, row.ndevs, false);
    const SearchResult one = search_repetend(placement, testing::timing_free("cadical", placement, row.memory, 1));
    REQUIRE(one.status == SearchStatus::Found);
    SearchOptions options = testing::timing_free("cadical", placement, row.memory, 2);
    options.cubes = {3, 0, 1};  // split at once, into up to 8 cubes
    const SearchResult raced = search_repetend(placement, options);
    REQUIRE(raced.status == SearchStatus::Found);
    CHECK(raced.period == one.period);
    CHECK(raced.proven_lower_bound == one.proven_lower_bound);
    // Every period from the first asked up to the answer is refuted by a
    // solver call, by cubes, or implied by a larger refuted one.
    for (long long period = raced.lower_bound; period < raced.period; ++period) {
      INFO("period " << period);
      const bool refuted = std::any_of(raced.calls.begin(), raced.calls.end(), [&](const SolverCall& call) {
        return call.answer == Answer::Unsat && covers(call.what, period);
      });
      CHECK(refuted);
    }
    REQUIRE(raced.schedule);
    verify::Report report = testing::verify_schedule(*raced.schedule);
    INFO(verify::report_to_text(report));
    CHECK(report.valid);
  }
}

TEST_CASE("period stretch: negative starts or a cut outside the period are refused", "[period_stretch]") {
  const Placement placement = make_case("vshape", 2, false);
  const ModuloSolution solution{4, std::vector<int>(placement.blocks.size(), 0), 1, 1};
  CHECK_NOTHROW(stretched(placement, solution, 4));
  CHECK_THROWS_AS(stretched(placement, solution, 5), std::invalid_argument);
  ModuloSolution negative = solution;
  negative.starts[0] = -1;
  CHECK_THROWS_AS(stretched(placement, negative, 0), std::invalid_argument);
}
