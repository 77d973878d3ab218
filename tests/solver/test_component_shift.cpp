// Independent parts moved by whole periods (solver/modulo/component_shift.hpp): the
// parts found are the ones whose every device balances, the parts holding a
// copy's first block are left to the copies' order, and fixing a source of
// each part at quotient 0 changes no optimum — period, proven bound and
// latency equal with and without the symmetry rules, on both backends, on
// the unit-step and the cyclic-order encodings, on placements made of
// several independent pipelines under tight memory. Every schedule goes
// through the verifier.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>

#include "cases/builtin_cases.hpp"
#include "solver/modulo/component_shift.hpp"
#include "solver/modulo/window_placement.hpp"
#include "solver/strategies/repetend_search.hpp"
#include "tests/support.hpp"

using namespace tessel;

namespace {

using testing::add_block;

// One pipeline appended to `placement`: forwards over `devices` in order,
// each allocating 1-2, then the backwards in reverse, each freeing what its
// forward allocated; spans 1-3.
void add_pipeline(Placement& placement, std::mt19937& random, const std::vector<int>& devices,
                  const std::string& name) {
  std::uniform_int_distribution<int> span(1, 3), amount(1, 2);
  std::vector<int> forward;
  std::vector<Memory> held;
  for (size_t i = 0; i < devices.size(); ++i) {
    held.push_back(amount(random));
    forward.push_back(add_block(placement, name + "f" + std::to_string(i), {devices[i]}, span(random), held.back()));
    if (i > 0) placement.edges.push_back({forward[i - 1], forward[i]});
  }
  int previous = forward.back();
  for (size_t i = devices.size(); i-- > 0;) {
    const int backward =
        add_block(placement, name + "b" + std::to_string(i), {devices[i]}, span(random), -held[i]);
    placement.edges.push_back({previous, backward});
    previous = backward;
  }
}

// Two or three independent pipelines over the same devices, in random
// directions and lengths: several parts that may each be moved by periods.
Placement random_parts(std::mt19937& random, int ndevs) {
  Placement placement;
  placement.name = "independent pipelines";
  placement.ndevs = ndevs;
  std::uniform_int_distribution<int> parts(2, 3), coin(0, 1);
  const int count = parts(random);
  for (int part = 0; part < count; ++part) {
    std::vector<int> devices(ndevs);
    for (int d = 0; d < ndevs; ++d) devices[d] = d;
    if (coin(random)) std::reverse(devices.begin(), devices.end());
    if (part > 0 && coin(random)) devices.pop_back();  // a shorter one
    add_pipeline(placement, random, devices, "p" + std::to_string(part));
  }
  return placement;
}

// The least limit per device that lets one micro-batch run at all.
std::vector<long long> one_micro_peaks(const Placement& placement) {
  std::vector<long long> level(placement.ndevs, 0), peak(placement.ndevs, 0);
  for (int b : topological_order(placement))
    for (int d : placement.blocks[b].devices) peak[d] = std::max(peak[d], level[d] += placement.blocks[b].memory);
  return peak;
}

SearchResult search(const Placement& placement, const std::vector<long long>& limits, const std::string& backend,
                    bool symmetry, int k, PeriodMethodChoice method) {
  SearchOptions options;
  options.backend = backend;
  options.memory_limit = limits;
  options.micros_per_window = k;
  options.boundary_seconds = 0;
  options.symmetry = symmetry;
  options.period_method = method;
  options.latency_budget = false;  // the latency is compared: decide it fully
  options.deadline = Deadline::after_seconds(120);
  return search_repetend(placement, options);
}

void check_same_optimum(const Placement& placement, const std::vector<long long>& limits, const std::string& backend,
                        int k, PeriodMethodChoice method) {
  const SearchResult with = search(placement, limits, backend, true, k, method);
  const SearchResult without = search(placement, limits, backend, false, k, method);
  REQUIRE(with.status == without.status);
  if (with.status == SearchStatus::Infeasible) return;
  REQUIRE(with.status == SearchStatus::Found);
  CHECK(with.period == without.period);
  CHECK(with.proven_lower_bound == with.period);
  CHECK(without.proven_lower_bound == without.period);
  CHECK(with.latency == without.latency);
  CHECK(testing::verify_schedule(*with.schedule).valid);
  CHECK(testing::verify_schedule(*without.schedule).valid);
}

}  // namespace

TEST_CASE("part shift: xshape's two chains may each be moved; copies keep their first chain", "[symmetry][parts]") {
  const Placement xshape = make_case("xshape", 4, false);
  const auto parts = shiftable_part_sources(xshape, 1);
  REQUIRE(parts.size() == 2);
  for (const auto& sources : parts) CHECK(sources.size() == 1);
  // Two copies: the chain holding each copy's block 0 is left out.
  const Placement window = window_placement(xshape, 2);
  const auto window_parts = shiftable_part_sources(window, 2);
  REQUIRE(window_parts.size() == 2);
  const size_t per_copy = xshape.blocks.size();
  for (const auto& sources : window_parts) {
    REQUIRE(sources.size() == 1);
    CHECK(sources[0] % per_copy != 0);
    CHECK(window.blocks[sources[0]].id.rfind("fr", 0) == 0);
  }
  // One chain: one part (the rule then restates "a source at quotient 0").
  CHECK(shiftable_part_sources(make_case("nnshape", 4, false), 1).size() == 1);
}

TEST_CASE("part shift: a part whose device memory does not balance on its own is not moved", "[symmetry][parts]") {
  // Device 0: a allocates 1 and c frees it, but a and c are in different
  // parts (no path between them); moving one part alone would change what
  // device 0 holds.
  Placement placement;
  placement.name = "unbalanced parts";
  placement.ndevs = 2;
  const int a = add_block(placement, "a", {0}, 1, 1);
  const int b = add_block(placement, "b", {1}, 1, 0);
  const int c = add_block(placement, "c", {0}, 1, -1);
  const int d = add_block(placement, "d", {1}, 1, 0);
  placement.edges = {{a, b}, {c, d}};
  CHECK(shiftable_part_sources(placement, 1).empty());
  placement.blocks[c].memory = 0;
  placement.blocks[a].memory = 0;
  CHECK(shiftable_part_sources(placement, 1).size() == 2);
}

TEST_CASE("part shift: the rule changes no optimum of independent pipelines under tight memory, unit steps",
          "[symmetry][parts][search]") {
  std::mt19937 random(20261126);
  int compared = 0;
  for (int round = 0; round < 12; ++round) {
    const int ndevs = 2 + round % 2;
    const Placement placement = random_parts(random, ndevs);
    std::vector<long long> limits = one_micro_peaks(placement);
    for (long long& limit : limits) limit += round % 3;
    const std::string backend = round % 4 == 0 ? "z3" : "cadical";
    INFO("round " << round << ", " << ndevs << " devices, " << placement.blocks.size() << " blocks, " << backend);
    check_same_optimum(placement, limits, backend, 1, PeriodMethodChoice::UnitStep);
    ++compared;
  }
  CHECK(compared == 12);
}

TEST_CASE("part shift: the rule changes no optimum on cyclic orders and in windows of two copies",
          "[symmetry][parts][search]") {
  std::mt19937 random(77);
  for (int round = 0; round < 4; ++round) {
    const Placement placement = random_parts(random, 2);
    std::vector<long long> limits = one_micro_peaks(placement);
    INFO("round " << round << ", " << placement.blocks.size() << " blocks");
    check_same_optimum(placement, limits, "cadical", 1, PeriodMethodChoice::CyclicOrder);
    if (round < 2) check_same_optimum(placement, limits, "z3", 1, PeriodMethodChoice::CyclicOrder);
    check_same_optimum(placement, limits, "cadical", 2, PeriodMethodChoice::UnitStep);
  }
}

TEST_CASE("part shift: both backends agree on xshape under memory D/2 with the rule", "[symmetry][parts][cross-check]") {
  for (int ndevs : {6, 8}) {
    INFO("xshape on " << ndevs << " devices");
    const Placement placement = make_case("xshape", ndevs, false);
    const std::vector<long long> limits(ndevs, ndevs / 2);
    const SearchResult z3 = search(placement, limits, "z3", true, 1, PeriodMethodChoice::UnitStep);
    const SearchResult cadical = search(placement, limits, "cadical", true, 1, PeriodMethodChoice::UnitStep);
    REQUIRE(z3.status == SearchStatus::Found);
    REQUIRE(cadical.status == SearchStatus::Found);
    CHECK(z3.period == cadical.period);
    CHECK(z3.period == z3.proven_lower_bound);
    CHECK(cadical.period == cadical.proven_lower_bound);
    CHECK(z3.latency == cadical.latency);
    CHECK(testing::verify_schedule(*z3.schedule).valid);
    CHECK(testing::verify_schedule(*cadical.schedule).valid);
  }
}
