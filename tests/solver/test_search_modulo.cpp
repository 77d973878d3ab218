// The compact modulo encoding (issue 8 items 2-3): its symmetry rules change
// no optimum (period, proven bound, latency) on the 4- and 8-device built-in
// cases under small memories, on both backends; one incremental solver for a
// run of periods answers what one solver per period answers; the re-check
// of decoded answers catches a broken solution; and what the tests compute
// goes through the verifier.
#include <catch2/catch.hpp>

#include <algorithm>
#include <chrono>

#include <nlohmann/json.hpp>

#include "cases/builtin_cases.hpp"
#include "solver/modulo/modulo_check.hpp"
#include "solver/strategies/repetend_search.hpp"
#include "tests/support.hpp"

using namespace tessel;

namespace {

struct Probe {
  const char* name;
  int ndevs;
  long long memory;
};

SearchResult search(const Placement& placement, long long memory, const std::string& backend, bool symmetry,
                    int periods_per_solver = 1) {
  SearchOptions options;
  options.backend = backend;
  options.memory_limit.assign(placement.ndevs, memory);
  options.micros_per_window = 1;
  options.boundary_seconds = 0;
  options.symmetry = symmetry;
  options.periods_per_solver = periods_per_solver;
  options.latency_budget = false;  // the latency is compared: decide it fully
  options.period_method = PeriodMethodChoice::UnitStep;  // the modulo encoding, chains too
  return search_repetend(placement, options);
}

void check_same_optimum(const Probe& probe, const std::string& backend) {
  INFO(probe.name << " on " << probe.ndevs << " devices, memory " << probe.memory << ", " << backend);
  Placement placement = make_case(probe.name, probe.ndevs, false);
  SearchResult with = search(placement, probe.memory, backend, true);
  SearchResult without = search(placement, probe.memory, backend, false);
  REQUIRE(with.status == SearchStatus::Found);
  REQUIRE(without.status == SearchStatus::Found);
  CHECK(with.period == without.period);
  CHECK(with.proven_lower_bound == with.period);
  CHECK(without.proven_lower_bound == without.period);
  CHECK(with.latency == without.latency);
  CHECK(with.latency_minimal);
  CHECK(without.latency_minimal);
  CHECK(testing::verify_schedule(*with.schedule).valid);
  CHECK(testing::verify_schedule(*without.schedule).valid);
}

const std::vector<Probe> kFourDevices = {
    {"vshape", 4, 2}, {"vshape", 4, 4}, {"xshape", 4, 4},  {"mshape", 4, 4},
    {"mshape", 4, 6}, {"nnshape", 4, 4}, {"kshape", 4, 4}, {"kshape", 4, 3},
};
const std::vector<Probe> kEightDevices = {
    {"vshape", 8, 4}, {"xshape", 8, 8}, {"mshape", 8, 4}, {"mshape", 8, 8}, {"nnshape", 8, 4}, {"kshape", 8, 4},
};

}  // namespace

TEST_CASE("modulo: symmetry rules change no optimum, 4 devices, both backends", "[search][modulo][symmetry]") {
  for (const Probe& probe : kFourDevices)
    for (const char* backend : {"cadical", "z3"}) check_same_optimum(probe, backend);
}

TEST_CASE("modulo: symmetry rules change no optimum, 8 devices, cadical", "[search][modulo][symmetry]") {
  for (const Probe& probe : kEightDevices) check_same_optimum(probe, "cadical");
}

TEST_CASE("modulo: symmetry rules change no optimum, 8 devices, z3", "[search][modulo][symmetry]") {
  for (const Probe& probe : {Probe{"mshape", 8, 8}, Probe{"kshape", 8, 4}, Probe{"vshape", 8, 4}})
    check_same_optimum(probe, "z3");
}

TEST_CASE("modulo: the two backends agree on 8 devices", "[search][modulo][cross-check]") {
  for (const Probe& probe : {Probe{"mshape", 8, 4}, Probe{"xshape", 8, 8}, Probe{"kshape", 8, 8}}) {
    INFO(probe.name << " memory " << probe.memory);
    Placement placement = make_case(probe.name, probe.ndevs, false);
    SearchResult z3 = search(placement, probe.memory, "z3", true);
    SearchResult cadical = search(placement, probe.memory, "cadical", true);
    REQUIRE(z3.status == SearchStatus::Found);
    REQUIRE(cadical.status == SearchStatus::Found);
    CHECK(z3.period == cadical.period);
    CHECK(z3.proven_lower_bound == cadical.proven_lower_bound);
    CHECK(z3.latency == cadical.latency);
  }
}

TEST_CASE("modulo: one solver for a run of periods answers as one per period", "[search][modulo][incremental]") {
  for (const Probe& probe : {Probe{"mshape", 4, 4}, Probe{"mshape", 8, 4}, Probe{"nnshape", 8, 4}}) {
    for (const char* backend : {"cadical", "z3"}) {
      if (probe.ndevs == 8 && std::string(backend) == "z3" && std::string(probe.name) == "nnshape") continue;
      INFO(probe.name << " on " << probe.ndevs << " devices, memory " << probe.memory << ", " << backend);
      Placement placement = make_case(probe.name, probe.ndevs, false);
      SearchResult single = search(placement, probe.memory, backend, true, 1);
      SearchResult run = search(placement, probe.memory, backend, true, 4);
      REQUIRE(single.status == SearchStatus::Found);
      REQUIRE(run.status == SearchStatus::Found);
      // Periods L .. answer - 1 all decided unsat, so the proof is the same.
      CHECK(single.period > single.lower_bound);
      CHECK(run.period == single.period);
      CHECK(run.proven_lower_bound == single.proven_lower_bound);
      CHECK(run.latency == single.latency);
      CHECK(testing::verify_schedule(*run.schedule).valid);
    }
  }
}

TEST_CASE("modulo: the re-check of decoded answers catches broken solutions", "[search][modulo]") {
  Placement placement = make_case("mshape", 4, false);
  SearchResult found = search(placement, 4, "cadical", true);
  REQUIRE(found.status == SearchStatus::Found);
  const std::vector<long long> memory(placement.ndevs, 4);
  // The search's own answer, read back from the schedule's first micro-batch.
  std::vector<int> starts(placement.blocks.size(), 0);
  for (const Instance& instance : found.schedule->instances)
    if (instance.micro == 0) starts[instance.block] = instance.start;
  auto solution = [&](int period, const std::vector<int>& at) { return modulo_solution(placement, period, at); };
  const int kmax = static_cast<int>(placement.blocks.size());
  CHECK_FALSE(modulo_violation(placement, memory, solution(found.period, starts), kmax));
  // Less memory than it needs, a period below the proven bound, a broken
  // dependency, Kmax below what is in flight: each is caught.
  CHECK(modulo_violation(placement, std::vector<long long>(placement.ndevs, 2), solution(found.period, starts), kmax));
  CHECK(modulo_violation(placement, memory, solution(found.period - 1, starts), kmax));
  const Edge edge = placement.edges.front();
  std::vector<int> early = starts;
  early[edge.to] = starts[edge.from];
  CHECK(modulo_violation(placement, memory, solution(found.period, early), kmax));
  CHECK(modulo_violation(placement, memory, solution(found.period, starts), found.in_flight - 1));
}

TEST_CASE("modulo: a wider window left undecided keeps a decided answer (exit 0)", "[search][modulo][windows]") {
  auto result = testing::run_tessel(
      "search --case mshape --ndevs 8 --memory 8 --tune boundary_seconds=0 --tune window_seconds=0.0001 --json");
  REQUIRE(result.exit_code == 0);
  nlohmann::json out = nlohmann::json::parse(result.out);
  CHECK(out["status"] == "found");
  CHECK(out["period"] == 8);
  CHECK(out["optimal"] == true);
  REQUIRE(out["windows"].size() == 2);
  CHECK(out["windows"][1]["k"] == 2);
  CHECK(out["windows"][1]["status"] == "undecided");
  CHECK_THAT(result.err, Catch::Contains("not fully decided"));
}

TEST_CASE("modulo: the time limit holds while encoding a large placement", "[search][modulo][time-limit]") {
  // vshape on 256 devices: 1024 blocks. Before the deadline was checked
  // between encoding steps (and with the old horizon encoding) a 3 s limit
  // ran past 60 s.
  const auto start = std::chrono::steady_clock::now();
  auto result = testing::run_tessel("search --case vshape --ndevs 256 --memory 4 --time-limit 1 --json");
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  INFO(result.err);
  CHECK(result.exit_code == 3);
  CHECK(seconds < 8.0);
}
