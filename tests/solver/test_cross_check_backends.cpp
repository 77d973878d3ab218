// Cross-checking the two backends (docs/algorithms.md, "Backends": "both backends
// must give the same optimum on every case; a difference is a bug in one of
// them, and the verifier decides which"). Every built-in case on 4 devices
// whose Z3 run takes seconds, under training memory 4 and 6 and as
// inference: the repetend search on CaDiCaL and on Z3 must report the same
// optimal period, the same proven lower bound and the same minimal latency;
// the full search the same optimal makespan; and every schedule either
// produces must pass the independent verifier.
#include <catch2/catch.hpp>

#include <optional>

#include "cases/builtin_cases.hpp"
#include "solver/strategies/full_search.hpp"
#include "solver/strategies/repetend_search.hpp"
#include "tests/support.hpp"

using namespace tessel;

namespace {

void require_verified(const Schedule& schedule, const std::string& what) {
  verify::Report report = testing::verify_schedule(schedule);
  INFO(what << ": " << verify::report_to_text(report));
  REQUIRE(report.valid);
}

SearchResult run(const std::string& backend, const Placement& placement, std::optional<long long> memory,
                 std::optional<int> nmicros, bool full) {
  SearchOptions options;
  options.backend = backend;
  if (memory) options.memory_limit.assign(placement.ndevs, *memory);
  if (full) options.total_micros = nmicros.value_or(1);
  else options.in_flight = nmicros;
  options.deadline = Deadline::after_seconds(30);
  // The backends' encodings, not the chain program (which needs no backend).
  options.period_method = PeriodMethodChoice::UnitStep;
  return full ? search_full(placement, options) : search_repetend(placement, options);
}

void cross_check_repetend(const std::string& name, bool infer, std::optional<long long> memory) {
  Placement placement = make_case(name, 4, infer);
  SearchResult sat = run("cadical", placement, memory, std::nullopt, false);
  SearchResult smt = run("z3", placement, memory, std::nullopt, false);
  INFO(name << (infer ? " inference" : " training") << " memory " << (memory ? std::to_string(*memory) : "-"));
  REQUIRE(sat.status == SearchStatus::Found);
  REQUIRE(smt.status == SearchStatus::Found);
  CHECK(sat.period == smt.period);
  CHECK(sat.proven_lower_bound == smt.proven_lower_bound);
  CHECK(sat.period == sat.proven_lower_bound);  // the search stops at the first feasible period
  CHECK(sat.latency == smt.latency);
  REQUIRE(sat.schedule);
  REQUIRE(smt.schedule);
  require_verified(*sat.schedule, name + " on cadical");
  require_verified(*smt.schedule, name + " on z3");
}

void cross_check_full(const std::string& name, long long memory, int nmicros) {
  Placement placement = make_case(name, 4, false);
  SearchResult sat = run("cadical", placement, memory, nmicros, true);
  SearchResult smt = run("z3", placement, memory, nmicros, true);
  INFO(name << " full, memory " << memory << ", " << nmicros << " micro-batches");
  REQUIRE(sat.status == SearchStatus::Found);
  REQUIRE(smt.status == SearchStatus::Found);
  CHECK(sat.makespan == smt.makespan);
  CHECK(sat.proven_lower_bound == smt.proven_lower_bound);
  CHECK(sat.makespan == sat.proven_lower_bound);
  REQUIRE(sat.schedule);
  REQUIRE(smt.schedule);
  require_verified(*sat.schedule, name + " full on cadical");
  require_verified(*smt.schedule, name + " full on z3");
}

}  // namespace

// Split by case so that each test stays within seconds (Z3 takes 1-5 s on
// some of them). Left to `tessel bench`, where Z3 needs 7-20 s or more on 4
// devices: xshape, nnshape, nnshape_eager and mllm in training.

TEST_CASE("cross-check: every case as inference", "[cross-check]") {
  for (const CaseInfo& info : builtin_cases()) cross_check_repetend(info.name, true, std::nullopt);
}

TEST_CASE("cross-check: vshape, finetune and alphafold in training", "[cross-check]") {
  for (const char* name : {"vshape", "finetune", "alphafold"})
    for (long long memory : {4, 6}) cross_check_repetend(name, false, memory);
}

TEST_CASE("cross-check: kshape in training", "[cross-check]") {
  for (long long memory : {4, 6}) cross_check_repetend("kshape", false, memory);
}

TEST_CASE("cross-check: mshape in training, memory 4", "[cross-check]") {
  cross_check_repetend("mshape", false, 4);
}

TEST_CASE("cross-check: mshape in training, memory 6", "[cross-check]") {
  cross_check_repetend("mshape", false, 6);
}

TEST_CASE("cross-check: full search makespans", "[cross-check]") {
  cross_check_full("vshape", 4, 3);
  cross_check_full("mshape", 4, 2);
  cross_check_full("kshape", 4, 3);
}
