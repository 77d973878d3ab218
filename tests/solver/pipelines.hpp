// What the makespan-bound tests share: hand-made families on their own
// placement at their own peaks, random pipelines of forwards and split
// backwards, and the full solver's proven optimum to check a bound against.
#pragma once

#include <optional>
#include <random>
#include <string>
#include <vector>

#include <catch2/catch.hpp>

#include "classic/schemes.hpp"
#include "solver/makespan/bounds/device_relaxation.hpp"
#include "solver/makespan/closed_bound/makespan_bound.hpp"
#include "solver/makespan/constructions/list_scheduling.hpp"
#include "solver/strategies/full_search.hpp"
#include "tests/support.hpp"

namespace tessel::testing {

struct HandMade {
  Schedule schedule;          // verified valid
  Placement placement;        // the solver's view: static memory taken off
  std::vector<Memory> peaks;  // the hand-made peak per device, static memory taken off
};

inline HandMade hand_made(const std::string& scheme, int stages, int nmicros, Time f, Time b, Time w) {
  classic::SchemeRequest request;
  request.scheme = scheme;
  request.ranks = stages;
  request.nmicros = nmicros;
  request.split = true;
  request.costs.forward_span = f;
  request.costs.input_span = b;
  request.costs.weight_span = w;
  request.costs.backward_span = b + w;
  HandMade made{classic::generate_scheme(request), {}, {}};
  const verify::Report report = verify_schedule(made.schedule);
  REQUIRE(report.valid);
  made.placement = made.schedule.placement;
  for (int d = 0; d < made.placement.ndevs; ++d)
    made.peaks.push_back(report.peak_memory[d] - static_memory_of(made.placement, d));
  made.placement.static_memory.clear();
  return made;
}

inline SearchResult proven_full(const Placement& placement, int nmicros, const std::vector<Memory>& memory,
                                const std::string& backend) {
  SearchOptions options;
  options.backend = backend;
  options.memory_limit = memory;
  options.total_micros = nmicros;
  // A hang guard, not a time target: these proofs take a few seconds on a
  // quiet machine, and several times that when the machine is shared.
  options.deadline = Deadline::after_seconds(180);
  return search_full(placement, options);
}

// A hand-made family at small N, for a bound to be checked against the full
// solver's optimum.
struct FamilyRow {
  const char* scheme;
  int stages, nmicros;
  Time f, b, w;
};

// Each row at its hand-made peaks and at one above them, with the full
// solver's proven optimum (verified): check(row, made, nmicros, limits,
// optimum) runs inside the row's INFO scope.
template <class Check>
void for_each_proven_family(const std::vector<FamilyRow>& rows, Check check) {
  for (const FamilyRow& row : rows) {
    HandMade made = hand_made(row.scheme, row.stages, row.nmicros, row.f, row.b, row.w);
    const int nmicros = made.schedule.nmicros;
    for (Memory extra : {0, 1}) {
      INFO(row.scheme << ", " << row.stages << " ranks, N=" << nmicros << ", F=" << row.f << " B=" << row.b
                      << " W=" << row.w << ", memory peaks + " << extra);
      std::vector<Memory> limits = made.peaks;
      for (Memory& limit : limits) limit += extra;
      SearchResult optimum = proven_full(made.placement, nmicros, limits, "cadical");
      REQUIRE(optimum.status == SearchStatus::Found);
      REQUIRE(optimum.makespan == optimum.proven_lower_bound);
      CHECK(verify_schedule(*optimum.schedule).valid);
      check(row, made, nmicros, limits, optimum);
    }
  }
}

// A solved bound's question: `placement` at `nmicros` under `limits` on
// `backend`, 60 s.
inline BoundQuestion test_question(const Placement& placement, long long nmicros, const std::vector<Memory>& limits,
                                   const std::string& backend) {
  return {&placement, nmicros, limits, backend, {}, Deadline::after_seconds(60)};
}

// The one-device relaxation's question (and its ends'): the closed bounds
// as the floor, `target` the makespan in hand.
inline DeviceRelaxationInput relaxation_input(const Placement& placement, long long nmicros,
                                              const std::vector<Memory>& limits, long long target,
                                              const std::string& backend = "cadical") {
  DeviceRelaxationInput input;
  static_cast<BoundQuestion&>(input) = test_question(placement, nmicros, limits, backend);
  input.floor = makespan_lower_bound(placement, nmicros, limits);
  input.target = target;
  return input;
}

// Options for the searches that improve a schedule in hand: a backend, the
// limits, a deadline `seconds` from now.
inline SearchOptions options_for(const std::string& backend, const std::vector<Memory>& limits, double seconds) {
  SearchOptions options;
  options.backend = backend;
  options.memory_limit = limits;
  options.deadline = Deadline::after_seconds(seconds);
  return options;
}

// The GPipe rule's list schedule (every forward first) when it fits the
// limits, else the best of the list portfolio: an improvement's start with
// room to shorten.
inline Schedule poor_start(const Placement& placement, const std::vector<Memory>& limits, int nmicros) {
  std::optional<std::vector<Instance>> gpipe =
      list_schedule(placement, limits, nmicros, {ListRule::GPipe, nmicros, true});
  Schedule schedule = empty_schedule(placement, limits, nmicros);
  if (gpipe) {
    schedule.instances = *gpipe;
    sort_instances(schedule);
    if (verify_schedule(schedule).valid) return schedule;
  }
  std::optional<ListBest> best = best_list_schedule(placement, limits, nmicros);
  REQUIRE(best);
  return best->schedule;
}

// A hand-made schedule as an improvement's start: the solver's view of its
// placement, its own peaks as the limits, no repetend.
inline Schedule hand_start(const HandMade& hand) {
  Schedule start = hand.schedule;
  start.placement = hand.placement;
  start.memory_limit = hand.peaks;
  start.repetend.reset();
  return start;
}

// Every span, delay and start times `factor` (written here, not with the
// code under test): the same schedule on a finer clock.
inline Schedule times(const Schedule& schedule, Time factor) {
  Schedule out = schedule;
  for (Block& block : out.placement.blocks) block.span *= factor;
  for (Edge& edge : out.placement.edges) edge.delay *= factor;
  for (Instance& instance : out.instances) instance.start *= factor;
  return out;
}

// The verifier's report on `schedule`, required valid, its peaks checked
// against `limits`.
inline verify::Report checked_within(const Schedule& schedule, const std::vector<Memory>& limits) {
  verify::Report report = verify_schedule(schedule);
  INFO(verify::report_to_text(report));
  REQUIRE(report.valid);
  for (size_t device = 0; device < limits.size(); ++device) CHECK(report.peak_memory[device] <= limits[device]);
  return report;
}

// Blocks in one dependency chain, the i-th on devices[i] with spans[i] and
// memory[i] (the small worked examples of the bound tests).
inline Placement block_chain(const std::string& name, int ndevs, const std::vector<std::string>& ids,
                             const std::vector<int>& devices, const std::vector<Time>& spans,
                             const std::vector<Memory>& memory) {
  Placement placement;
  placement.name = name;
  placement.ndevs = ndevs;
  for (size_t b = 0; b < ids.size(); ++b) {
    Block block;
    block.id = ids[b];
    block.devices = {devices[b]};
    block.span = spans[b];
    block.memory = memory[b];
    placement.blocks.push_back(block);
    if (b > 0) placement.edges.push_back({static_cast<int>(b) - 1, static_cast<int>(b)});
  }
  return placement;
}

// A random pipeline of one micro-batch: `stages` stages on `ndevs` devices
// (stage i on i mod ndevs, or folded back as a V), each a forward that
// allocates, an input-gradient backward and a weight gradient that free it
// between them; spans 1-3.
inline Placement random_pipeline(std::mt19937& random, int ndevs, int stages, bool fold) {
  std::uniform_int_distribution<int> span(1, 3), allocation(1, 2), coin(0, 1);
  Placement placement;
  placement.name = "random pipeline";
  placement.ndevs = ndevs;
  auto add = [&](const std::string& id, int device, Time length, Memory memory) {
    Block block;
    block.id = id;
    block.devices = {device};
    block.span = length;
    block.memory = memory;
    placement.blocks.push_back(block);
    return static_cast<int>(placement.blocks.size()) - 1;
  };
  std::vector<int> forward, backward;
  std::vector<Memory> held;
  for (int i = 0; i < stages; ++i) {
    const int device = fold && i >= ndevs ? 2 * ndevs - 1 - i : i % ndevs;
    held.push_back(allocation(random));
    forward.push_back(add("f" + std::to_string(i), device, span(random), held.back()));
    if (i > 0) placement.edges.push_back({forward[i - 1], forward[i]});
  }
  backward.resize(stages);
  for (int i = stages - 1; i >= 0; --i) {
    const int device = placement.blocks[forward[i]].devices[0];
    const Memory at_b = coin(random) ? 0 : -1;
    backward[i] = add("b" + std::to_string(i), device, span(random), at_b);
    const int weight = add("w" + std::to_string(i), device, span(random), -held[i] - at_b);
    placement.edges.push_back({i == stages - 1 ? forward[i] : backward[i + 1], backward[i]});
    placement.edges.push_back({backward[i], weight});
  }
  return placement;
}

// The peak memory of one micro-batch alone on each device (the least limit
// that lets any schedule exist is at least this).
inline std::vector<Memory> one_micro_peaks(const Placement& placement) {
  std::vector<Memory> level(placement.ndevs, 0), peak(placement.ndevs, 0);
  for (int b : topological_order(placement))
    for (int d : placement.blocks[b].devices) peak[d] = std::max(peak[d], level[d] += placement.blocks[b].memory);
  return peak;
}


// One round of the bound-against-optimum tests: a random pipeline on 2 or 3
// devices (a V every third round), 2-4 micro-batches, limits at one
// micro-batch's peaks (one more every fourth round), and its optimum proven
// by the full solver (CaDiCaL), verified. Nothing when no schedule fits.
struct ProvenRound {
  Placement placement;
  int nmicros = 0;
  std::vector<Memory> limits;
  SearchResult optimum;  // Found, makespan == proven lower bound
};

inline std::optional<ProvenRound> proven_round(std::mt19937& random, int round) {
  const int ndevs = 2 + round % 2;
  const bool fold = round % 3 == 0;
  ProvenRound proven;
  proven.placement = random_pipeline(random, ndevs, fold ? 2 * ndevs : ndevs + round % 2, fold);
  proven.nmicros = 2 + round % 3;
  proven.limits = one_micro_peaks(proven.placement);
  for (Memory& limit : proven.limits) limit += round % 4 == 0 ? 1 : 0;
  INFO("round " << round << ", " << ndevs << " devices, N=" << proven.nmicros);
  proven.optimum = proven_full(proven.placement, proven.nmicros, proven.limits, "cadical");
  if (proven.optimum.status == SearchStatus::Infeasible) return std::nullopt;
  REQUIRE(proven.optimum.status == SearchStatus::Found);
  REQUIRE(proven.optimum.makespan == proven.optimum.proven_lower_bound);
  CHECK(verify_schedule(*proven.optimum.schedule).valid);
  return proven;
}

}  // namespace tessel::testing
