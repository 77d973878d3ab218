// The full search choosing a recompute per forward and micro-batch
// (solver/strategies/full_encoding.hpp, docs/algorithms.md "Memory traded
// for time"): where memory binds it finds shorter schedules than keeping
// everything and proves them optimal for every choice, both backends agree,
// every schedule passes the verifier, and with memory to spare nothing is
// recomputed.
#include <catch2/catch.hpp>

#include "cases/builtin_cases.hpp"
#include "solver/makespan/closed_bound/makespan_bound.hpp"
#include "solver/search.hpp"
#include "solver/strategies/full_search.hpp"
#include "tests/solver/choice_questions.hpp"
#include "tests/support.hpp"

using namespace tessel;

namespace {

using testing::full_choosing;

void check_valid(const SearchResult& result) {
  REQUIRE(result.schedule);
  const verify::Report report = testing::verify_schedule(*result.schedule);
  for (const verify::Violation& violation : report.violations) FAIL(violation.kind + ": " + violation.message);
  CHECK(report.valid);
  CHECK(report.makespan == result.makespan);
}

}  // namespace

TEST_CASE("full: recomputing shortens xshape 4 at memory 2, proven for every choice", "[search][full][recompute]") {
  // Keeping everything, two micro-batches take 29 steps and three 42; the
  // memory-free bound is 20 and 28. With a recompute to choose per forward
  // and micro-batch, 24 and 32, each proven by refuting one step less.
  const Placement kept = make_case("xshape", 4, false);
  const Placement offered = testing::offering_recompute(kept);
  for (auto [nmicros, expected] : {std::pair{2, 24LL}, std::pair{3, 32LL}}) {
    INFO("nmicros " << nmicros);
    const SearchResult keeping = full_choosing(kept, nmicros, 2);
    REQUIRE(keeping.status == SearchStatus::Found);
    CHECK(keeping.makespan > expected);
    CHECK(keeping.schedule->recomputes.empty());
    const SearchResult choosing = full_choosing(offered, nmicros, 2);
    REQUIRE(choosing.status == SearchStatus::Found);
    check_valid(choosing);
    CHECK(choosing.makespan == expected);
    CHECK_FALSE(choosing.schedule->recomputes.empty());
    CHECK(choosing.proven_lower_bound == expected);
    CHECK(choosing.refutes_traded);
    // The bound it started from is the one without memory, below the answer:
    // the proof is the encoding's refutation.
    CHECK(makespan_bound(offered, nmicros).value < expected);
  }
}

namespace {

// Strategy full on both backends: both found, the same makespan, both
// schedules valid; the two results, CaDiCaL's first.
std::pair<SearchResult, SearchResult> on_both_backends(const Placement& placement, int nmicros, long long memory) {
  std::pair<SearchResult, SearchResult> results{full_choosing(placement, nmicros, memory, "cadical"),
                                                full_choosing(placement, nmicros, memory, "z3")};
  const SearchResult& sat = results.first;
  const SearchResult& smt = results.second;
  REQUIRE(sat.status == SearchStatus::Found);
  REQUIRE(smt.status == SearchStatus::Found);
  CHECK(sat.makespan == smt.makespan);
  check_valid(sat);
  check_valid(smt);
  return results;
}

}  // namespace

TEST_CASE("full: CaDiCaL and Z3 agree on the optimum with recomputes", "[search][full][recompute]") {
  const auto [sat, smt] = on_both_backends(testing::offering_recompute(make_case("xshape", 4, false)), 2, 2);
  CHECK(sat.proven_lower_bound == smt.proven_lower_bound);
  // vshape 4 at memory 1: every activation kept, two micro-batches take 32.
  const auto [v_sat, v_smt] = on_both_backends(testing::offering_recompute(make_case("vshape", 4, false)), 2, 1);
  CHECK(v_sat.makespan < full_choosing(make_case("vshape", 4, false), 2, 1).makespan);
}

TEST_CASE("full: with memory to spare nothing is recomputed", "[search][full][recompute]") {
  const Placement offered = testing::offering_recompute(make_case("vshape", 4, false));
  // Memory 3 binds for three micro-batches (the choices are encoded) but
  // keeping everything already reaches the optimum; memory 8 cannot bind.
  for (long long memory : {3LL, 8LL}) {
    INFO("memory " << memory);
    const SearchResult result = full_choosing(offered, 3, memory);
    REQUIRE(result.status == SearchStatus::Found);
    check_valid(result);
    CHECK(result.schedule->recomputes.empty());
    CHECK(result.makespan == full_choosing(make_case("vshape", 4, false), 3, memory).makespan);
  }
}

TEST_CASE("full: too little memory even to recompute is infeasible, proven", "[search][full][recompute]") {
  // Memory 0: a forward allocates its activation at its start whatever it
  // chooses after, so nothing fits.
  const Placement offered = testing::offering_recompute(make_case("vshape", 4, false));
  const SearchResult result = full_choosing(offered, 2, 0);
  CHECK(result.status == SearchStatus::Infeasible);
  CHECK_FALSE(result.schedule);
}

TEST_CASE("full strategy: the report keeps the proof when every choice was encoded", "[search][full][recompute]") {
  SearchRequest request;
  request.placement = testing::offering_recompute(make_case("xshape", 4, false));
  request.strategy = Strategy::Full;
  request.total_micros = 2;
  request.threads = 1;
  request.memory_limit = std::vector<Memory>(4, 2);
  Progress quiet;
  const SearchReport report = solve(request, quiet);
  REQUIRE(report.best);
  REQUIRE(report.makespan);
  CHECK(testing::verify_schedule(*report.best).valid);
  CHECK(report.makespan->makespan == 24);
  CHECK(report.makespan->proven_lower_bound == 24);
  CHECK(report.makespan->proven_optimal);
  CHECK(report.makespan->bound.value == 20);  // the bound without memory
  REQUIRE(report.makespan->candidates.size() == 1);
  CHECK(report.makespan->candidates.front().note.rfind("recomputes ", 0) == 0);
}

namespace {

// Offload offered on every forward that offers recomputation (same `before`),
// each copy one step; `keep_recompute` false drops the recompute offers.
Placement offering_offload(Placement placement, bool keep_recompute) {
  for (Block& block : placement.blocks) {
    if (!block.recompute) continue;
    block.offload = OffloadOffer{1, 1, block.recompute->before};
    if (!keep_recompute) block.recompute.reset();
  }
  return placement;
}

}  // namespace

TEST_CASE("full: offload chosen per micro-batch on the copy channel, proven by both backends",
          "[search][full][recompute][offload]") {
  // xshape 4 at memory 2, two micro-batches: kept 29, recomputing 24, and
  // copying out and back (one step each, beside compute) 22; the bound
  // without memory is 20, so 21 is refuted for every choice.
  const Placement offered = testing::offering_recompute(make_case("xshape", 4, false));
  for (bool both : {false, true}) {
    INFO((both ? "recompute and offload offered" : "offload offered"));
    const Placement placement = offering_offload(offered, both);
    for (const std::string backend : {"cadical", "z3"}) {
      INFO(backend);
      const SearchResult result = full_choosing(placement, 2, 2, backend);
      REQUIRE(result.status == SearchStatus::Found);
      check_valid(result);
      CHECK(result.makespan == 22);
      CHECK(result.proven_lower_bound == 22);
      CHECK(result.refutes_traded);
      CHECK_FALSE(result.schedule->transfers.empty());
    }
  }
  // With memory to spare nothing is copied.
  const SearchResult roomy = full_choosing(offering_offload(testing::offering_recompute(make_case("vshape", 4, false)), false), 3, 3);
  REQUIRE(roomy.status == SearchStatus::Found);
  check_valid(roomy);
  CHECK(roomy.schedule->transfers.empty());
}
