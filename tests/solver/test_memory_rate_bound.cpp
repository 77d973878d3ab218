// The memory-rate bound on the period (solver/modulo/memory_rate_bound.hpp): its
// value on chains where it is known by hand, and its soundness — every period
// between L and the bound must be one the solver refutes, and the period the
// repetend search proves optimal is never below it. Checked on random
// pipelines under tight memory, on hand-made families' placements at their
// own peak memory, and on windows of two micro-batches, with both backends
// (the unit-step encoding asked directly, below the bound, where the search
// itself no longer asks). Every schedule goes through the verifier.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <tuple>

#include "cases/builtin_cases.hpp"
#include "classic/schemes.hpp"
#include "sat/backend.hpp"
#include "solver/modulo/memory_rate_bound.hpp"
#include "solver/modulo/modulo_encoding.hpp"
#include "solver/modulo/window_placement.hpp"
#include "solver/strategies/repetend_search.hpp"
#include "tests/support.hpp"

using namespace tessel;

namespace {

int add_block(Placement& placement, const std::string& id, int device, Time span, Memory memory) {
  return testing::add_block(placement, id, {device}, span, memory);
}

// A random pipeline of one micro-batch: `stages` stages on `ndevs` devices
// (stage i on device i mod ndevs, or folded back as a V), each a forward
// that allocates 1-2, then a backward that frees part of it (or none) and a
// weight gradient that frees the rest, in reverse; spans 1-3, and on some
// edges a delay.
Placement random_pipeline(std::mt19937& random, int ndevs, int stages, bool fold) {
  std::uniform_int_distribution<int> span(1, 3), amount(1, 2), coin(0, 1), delay(0, 3);
  Placement placement;
  placement.name = "random pipeline";
  placement.ndevs = ndevs;
  std::vector<int> forward;
  std::vector<Memory> held;
  for (int i = 0; i < stages; ++i) {
    const int device = fold && i >= ndevs ? 2 * ndevs - 1 - i : i % ndevs;
    held.push_back(amount(random));
    forward.push_back(add_block(placement, "f" + std::to_string(i), device, span(random), held.back()));
    if (i > 0) placement.edges.push_back({forward[i - 1], forward[i], delay(random) == 0 ? 1 : 0});
  }
  int previous = forward.back();
  for (int i = stages - 1; i >= 0; --i) {
    const int device = placement.blocks[forward[i]].devices[0];
    const Memory at_backward = coin(random) ? 0 : -1;
    const int backward = add_block(placement, "b" + std::to_string(i), device, span(random), at_backward);
    const int weight = add_block(placement, "w" + std::to_string(i), device, span(random), -held[i] - at_backward);
    placement.edges.push_back({previous, backward});
    placement.edges.push_back({backward, weight});
    previous = backward;
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

// Every period first .. last of `window` refuted by the unit-step modulo
// encoding (at most as many windows in flight as blocks), on `backend`.
bool all_refuted(const Placement& window, const std::vector<long long>& limits, int copies, int first, int last,
                 const std::string& backend_name) {
  if (first > last) return true;
  std::unique_ptr<Backend> backend = make_backend(backend_name);
  const ModuloEncoding encoding = encode_modulo(*backend, window, limits, {first, last},
                                                static_cast<int>(window.blocks.size()), {true, copies});
  for (int period = first; period <= last; ++period)
    if (backend->solve({period_assumption(encoding, period)}, Deadline::after_seconds(60)) != Answer::Unsat)
      return false;
  return true;
}

SearchResult proven_period(const Placement& placement, const std::vector<long long>& limits,
                           const std::string& backend, int k) {
  SearchOptions options;
  options.backend = backend;
  options.memory_limit = limits;
  options.micros_per_window = k;
  options.boundary_seconds = 0;
  options.latency_budget = false;
  options.deadline = Deadline::after_seconds(120);
  return search_repetend(placement, options);
}

// The bound against the solver on one placement and window size; true when
// the bound is above k L (it decided something).
bool check_sound(const Placement& placement, const std::vector<long long>& limits, int k, bool with_z3) {
  const Placement window = window_placement(placement, k);
  const long long load = period_lower_bound(window);
  const MemoryRateBound bound = memory_rate_bound(window, limits);
  const int last_refuted = static_cast<int>(std::min<long long>(bound.period - 1, 4 * load));
  CHECK(all_refuted(window, limits, k, static_cast<int>(load), last_refuted, "cadical"));
  if (with_z3) CHECK(all_refuted(window, limits, k, static_cast<int>(load), last_refuted, "z3"));
  for (const std::string backend : {"cadical", "z3"}) {
    if (backend == "z3" && !with_z3) continue;
    INFO(backend);
    const SearchResult found = proven_period(placement, limits, backend, k);
    if (found.status == SearchStatus::Infeasible) continue;
    REQUIRE(found.status == SearchStatus::Found);
    REQUIRE(found.period == found.proven_lower_bound);
    CHECK(found.period >= bound.period);
    CHECK(testing::verify_schedule(*found.schedule).valid);
  }
  return bound.period > load;
}

// A hand-made family's placement (static memory taken off) and its peaks.
std::pair<Placement, std::vector<long long>> hand_made(const std::string& scheme, int stages, Time f, Time b, Time w) {
  classic::SchemeRequest request;
  request.scheme = scheme;
  request.ranks = stages;
  request.nmicros = 2 * stages;
  request.split = w > 0;
  request.costs.forward_span = f;
  request.costs.input_span = b;
  request.costs.weight_span = std::max<Time>(1, w);
  request.costs.backward_span = b + w;
  const Schedule schedule = classic::generate_scheme(request);
  const verify::Report report = testing::verify_schedule(schedule);
  REQUIRE(report.valid);
  Placement placement = schedule.placement;
  std::vector<long long> peaks;
  for (int d = 0; d < placement.ndevs; ++d) peaks.push_back(report.peak_memory[d] - static_memory_of(placement, d));
  placement.static_memory.clear();
  return {placement, peaks};
}

}  // namespace

TEST_CASE("memory-rate bound: a 1F1B chain's first device holds each activation for the whole chain",
          "[bound][period]") {
  // vshape, 8 devices: f0 .. f7 (span 1), b7 .. b0 (span 3); device 0 holds
  // f0's activation at least 1 + 7 + 21 = 29 steps.
  const Placement vshape = make_case("vshape", 8, false);
  const MemoryRateBound at4 = memory_rate_bound(vshape, std::vector<long long>(8, 4));
  CHECK(at4.period == 8);  // ceil(29 / 4), twice L = 4
  CHECK(at4.device == 0);
  CHECK(static_cast<long long>(at4.held) == 29);
  CHECK(memory_rate_bound(vshape, std::vector<long long>(8, 2)).period == 15);
  CHECK(memory_rate_bound(vshape, std::vector<long long>(8, 8)).period == 4);
  // Two micro-batches per window: twice the pairs.
  CHECK(memory_rate_bound(window_placement(vshape, 2), std::vector<long long>(8, 4)).period == 15);
  // Where memory does not bind the steady state it stays at or below L:
  // xshape's device holds 4D - 2 memory-steps under D/2.
  const Placement xshape = make_case("xshape", 32, false);
  CHECK(memory_rate_bound(xshape, std::vector<long long>(32, 16)).period == 8);
  // No limit, no bound.
  CHECK(memory_rate_bound(vshape, {}).period == 0);
}

TEST_CASE("memory-rate bound: the search starts at the bound and proves the same optimum", "[bound][period]") {
  // vshape 8 devices, memory 4: the optimum is the bound itself.
  const Placement vshape = make_case("vshape", 8, false);
  const std::vector<long long> limits(8, 4);
  CHECK(all_refuted(vshape, limits, 1, 4, 7, "cadical"));
  CHECK(all_refuted(vshape, limits, 1, 4, 7, "z3"));
  for (const char* backend : {"cadical", "z3"}) {
    const SearchResult found = proven_period(vshape, limits, backend, 1);
    REQUIRE(found.status == SearchStatus::Found);
    CHECK(found.period == 8);
    CHECK(found.proven_lower_bound == 8);
    CHECK(testing::verify_schedule(*found.schedule).valid);
  }
}

TEST_CASE("memory-rate bound: never above the proven optimal period of random pipelines under tight memory",
          "[bound][period][search]") {
  std::mt19937 random(20261127);
  int raised = 0;
  for (int round = 0; round < 24; ++round) {
    const int ndevs = 2 + round % 3;
    const bool fold = round % 3 == 1;
    const Placement placement = random_pipeline(random, ndevs, fold ? 2 * ndevs : ndevs + round % 2, fold);
    std::vector<long long> limits = one_micro_peaks(placement);
    for (long long& limit : limits) limit += round % 4 == 0 ? 1 : 0;
    INFO("round " << round << ", " << ndevs << " devices, " << placement.blocks.size() << " blocks");
    if (check_sound(placement, limits, 1, round % 4 == 1)) ++raised;
  }
  CHECK(raised >= 6);  // the bound does lift the first period on some
}

TEST_CASE("memory-rate bound: never above the proven optimal period of hand-made families, own and half peaks",
          "[bound][period][search][families]") {
  // Their own peak memory, then half of it (at least one micro-batch's
  // peak): the families' placements under tight memory.
  int raised = 0;
  struct Family {
    const char* scheme;
    int stages;
    Time f, b, w;
  };
  for (const Family& family : {Family{"1f1b", 3, 1, 2, 0}, Family{"1f1b", 4, 2, 2, 0}, Family{"zb-h1", 3, 1, 1, 1},
                               Family{"zb-h1", 4, 2, 2, 1}, Family{"v-min", 2, 1, 1, 1}, Family{"v-half", 2, 2, 1, 1},
                               Family{"interleaved-1f1b", 2, 1, 2, 0}}) {
    INFO(family.scheme << " on " << family.stages << " stages");
    const auto [placement, peaks] = hand_made(family.scheme, family.stages, family.f, family.b, family.w);
    // At their own peaks the families run at L (the bound stays below it);
    // at half of it, down to one micro-batch's peak, memory binds.
    check_sound(placement, peaks, 1, true);
    std::vector<long long> tight = one_micro_peaks(placement);
    for (size_t d = 0; d < tight.size(); ++d) tight[d] = std::max(tight[d], peaks[d] / 2);
    if (check_sound(placement, tight, 1, true)) ++raised;
  }
  CHECK(raised >= 3);
}

TEST_CASE("memory-rate bound: windows of two micro-batches, both backends", "[bound][period][search][windows]") {
  std::mt19937 random(31);
  int raised = 0;
  for (int round = 0; round < 6; ++round) {
    const Placement placement = random_pipeline(random, 2, 2 + round % 2, false);
    const std::vector<long long> limits = one_micro_peaks(placement);
    INFO("round " << round);
    if (check_sound(placement, limits, 2, round % 2 == 0)) ++raised;
  }
  // Chains whose first device holds the whole chain: the bound binds.
  for (const auto& [name, ndevs, memory] : {std::tuple{"vshape", 3, 1}, std::tuple{"vshape", 4, 2},
                                            std::tuple{"vshape", 5, 2}, std::tuple{"mshape", 4, 2}}) {
    INFO(name << " on " << ndevs << " devices, memory " << memory);
    if (check_sound(make_case(name, ndevs, false), std::vector<long long>(ndevs, memory), 2, true)) ++raised;
  }
  CHECK(raised >= 4);
}
