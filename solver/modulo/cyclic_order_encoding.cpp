// The repetend as cyclic orders and quotients (see the header for the idea).
#include "solver/modulo/cyclic_order_encoding.hpp"

#include <algorithm>
#include <array>
#include <set>
#include <stdexcept>

#include "solver/modulo/component_shift.hpp"
#include "solver/modulo/memory_rate_bound.hpp"
#include "solver/modulo/placement_symmetry.hpp"
#include "solver/modulo/steady_memory.hpp"

namespace tessel {
namespace {

std::vector<std::vector<int>> blocks_per_device(const Placement& placement) {
  std::vector<std::vector<int>> result(placement.ndevs);
  for (size_t b = 0; b < placement.blocks.size(); ++b)
    for (int device : placement.blocks[b].devices) result[device].push_back(static_cast<int>(b));
  return result;
}

// [tau(x) < tau(y)] for two blocks that share a device.
Lit before(const CyclicOrderEncoding& encoding, int x, int y) {
  if (x < y) return encoding.before.at({x, y});
  return ~encoding.before.at({y, x});
}

//------------------------------------------------------------------------------
// Orders: one literal per pair of blocks sharing a device, and no cycle of
// length three among them (with that, every cycle is excluded: the blocks of
// a device are then in a linear order). Triples are taken per device, where
// all three pairs have literals.

// False when the deadline passed first: thousands of blocks on one device
// make billions of triples, so the clock is read once per pair.
bool add_orders(Backend& backend, CyclicOrderEncoding& encoding, const Placement& placement,
                const Deadline& deadline) {
  const std::vector<std::vector<int>> on = blocks_per_device(placement);
  for (const std::vector<int>& blocks : on)
    for (size_t i = 0; i < blocks.size(); ++i) {
      if (deadline.expired()) return false;
      for (size_t j = i + 1; j < blocks.size(); ++j) {
        const auto key = std::minmax(blocks[i], blocks[j]);
        if (!encoding.before.count(key)) encoding.before.emplace(key, backend.new_bool());
      }
    }
  std::set<std::array<int, 3>> triples;
  for (const std::vector<int>& blocks : on)
    for (size_t i = 0; i < blocks.size(); ++i)
      for (size_t j = i + 1; j < blocks.size(); ++j) {
        if (deadline.expired()) return false;
        for (size_t k = j + 1; k < blocks.size(); ++k) {
          std::array<int, 3> triple{blocks[i], blocks[j], blocks[k]};
          std::sort(triple.begin(), triple.end());
          if (!triples.insert(triple).second) continue;
          const auto [x, y, z] = triple;
          backend.add_clause({~before(encoding, x, y), ~before(encoding, y, z), ~before(encoding, z, x)});
          backend.add_clause({~before(encoding, y, x), ~before(encoding, z, y), ~before(encoding, x, z)});
        }
      }
  return true;
}

//------------------------------------------------------------------------------
// Dependencies: the gap literals of modulo_encoding.cpp, as many levels as
// the shortest period (L) needs; which difference they select is the
// theory's (implied_differences). A gap of 0 between blocks on one device
// puts the successor after the predecessor in the window: said eagerly, it
// saves the solver a round trip per pair.

void add_dependencies(Backend& backend, CyclicOrderEncoding& encoding, const Placement& placement) {
  for (const Edge& edge : placement.edges) {
    OrderDependency dependency{edge.from, edge.to, placement.blocks[edge.from].span + edge.delay, {}};
    const IntVar q_from = encoding.quotients[edge.from], q_to = encoding.quotients[edge.to];
    const long long levels_needed = (dependency.constant - 1 + encoding.period_floor - 1) / encoding.period_floor + 1;
    const int levels = static_cast<int>(std::min<long long>(std::max<long long>(1, levels_needed), encoding.max_in_flight));
    backend.add_difference(q_to, q_from, 0);
    dependency.at_least.assign(levels + 1, backend.true_lit());
    for (int j = 1; j <= levels; ++j) {
      const Lit at_least = backend.new_bool();
      dependency.at_least[j] = at_least;
      backend.add_difference(q_to, q_from, j, {at_least});
      backend.add_difference(q_from, q_to, -(j - 1), {~at_least});
      if (j > 1) backend.add_clause({~at_least, dependency.at_least[j - 1]});
    }
    if (encoding.before.count(std::minmax(edge.from, edge.to)))
      backend.add_clause({dependency.at_least[1], before(encoding, edge.from, edge.to)});
    encoding.dependencies.push_back(std::move(dependency));
  }
}

//------------------------------------------------------------------------------
// Memory: per device, `held` plus, at the start of each allocating block x,
// x's delta and those of the blocks before it. The curve only rises at such
// starts, and before the first start and after the last it is `held`.

bool add_memory(Backend& backend, const CyclicOrderEncoding& encoding, const Placement& placement,
                const std::vector<long long>& memory_limit, const Deadline& deadline) {
  if (memory_limit.empty()) return true;
  for (int device = 0; device < placement.ndevs; ++device) {
    if (deadline.expired()) return false;
    const long long limit = memory_limit[device];
    const std::optional<DeviceMemory> memory =
        encode_device_memory(backend, placement, device, encoding.quotients, encoding.max_in_flight, limit);
    if (!memory) continue;
    const std::vector<size_t>& blocks = memory->blocks;
    const HeldMemory& held = memory->held;
    if (!held.held.ints.empty()) backend.add_linear_at_most(held.held, limit);
    for (size_t x : blocks) {
      const long long own = placement.blocks[x].memory;
      if (own <= 0) continue;
      LinearSum sum = held.held;
      for (size_t b : blocks)
        if (b != x) sum.bools.push_back({placement.blocks[b].memory, before(encoding, (int)b, (int)x)});
      backend.add_linear_at_most(sum, limit - own);
    }
  }
  return true;
}

//------------------------------------------------------------------------------
// Symmetry rules (the argument for each is in modulo_encoding.cpp): some
// source block starts at s = 0, so at quotient 0, phase 0, before every
// other block of its devices, block 0 itself on a mirrored placement
// (placement_symmetry.hpp); the copies of a window placement in increasing
// (quotient, phase) of their first blocks; a source at quotient 0 in every
// part that may be moved by whole periods (component_shift.hpp).

void add_symmetry_rules(Backend& backend, CyclicOrderEncoding& encoding, const Placement& placement,
                        const std::vector<long long>& memory_limit, int copies) {
  const std::optional<int> fixed = first_source_fixed(placement, memory_limit, copies);
  std::vector<bool> has_predecessor(placement.blocks.size(), false);
  for (const Edge& edge : placement.edges) has_predecessor[edge.to] = true;
  const std::vector<std::vector<int>> on = blocks_per_device(placement);
  std::vector<Lit> some_source_first;
  for (size_t b = 0; b < placement.blocks.size(); ++b) {
    if (has_predecessor[b]) continue;
    const Lit first = backend.new_bool();
    encoding.first[b] = first;
    backend.add_clause({~first, backend.at_most(encoding.quotients[b], 0)});
    std::set<int> neighbours;
    for (int device : placement.blocks[b].devices)
      for (int other : on[device])
        if (other != (int)b) neighbours.insert(other);
    for (int other : neighbours) backend.add_clause({~first, before(encoding, (int)b, other)});
    if (fixed && *fixed == static_cast<int>(b)) backend.add_clause({first});
    some_source_first.push_back(first);
  }
  backend.add_clause(some_source_first);
  add_shiftable_part_rule(backend, encoding.quotients, placement, copies);

  if (copies < 2) return;
  const size_t per_copy = placement.blocks.size() / copies;
  for (int copy = 0; copy + 1 < copies; ++copy) {
    const int earlier = static_cast<int>(copy * per_copy), later = static_cast<int>((copy + 1) * per_copy);
    const Lit same_quotient = backend.new_bool();
    backend.add_difference(encoding.quotients[later], encoding.quotients[earlier], 0);
    backend.add_difference(encoding.quotients[later], encoding.quotients[earlier], 1, {~same_quotient});
    backend.add_clause({~same_quotient, before(encoding, earlier, later)});
  }
}

}  // namespace

CyclicOrderEncoding encode_cyclic_order(Backend& backend, const Placement& placement,
                                        const std::vector<long long>& memory_limit, int max_in_flight,
                                        const ModuloRules& rules, const Deadline& deadline) {
  if (max_in_flight < 1) throw std::invalid_argument("encode_cyclic_order: Kmax >= 1");
  CyclicOrderEncoding encoding;
  encoding.max_in_flight = max_in_flight;
  // L, or the memory-rate bound when it is above (memory_rate_bound.hpp).
  encoding.period_floor =
      std::max<Time>({1, period_lower_bound(placement), memory_rate_bound(placement, memory_limit).period});
  encoding.first.assign(placement.blocks.size(), std::nullopt);
  for (size_t b = 0; b < placement.blocks.size(); ++b) {
    // Thousands of blocks, each an order encoding over Kmax values: the
    // clock is read per block so that a time limit holds while encoding.
    if (deadline.expired()) {
      encoding.complete = false;
      return encoding;
    }
    encoding.quotients.push_back(backend.new_int(0, max_in_flight - 1));
  }
  if (!add_orders(backend, encoding, placement, deadline) || deadline.expired()) {
    encoding.complete = false;
    return encoding;
  }
  add_dependencies(backend, encoding, placement);
  if (!add_memory(backend, encoding, placement, memory_limit, deadline)) {
    encoding.complete = false;
    return encoding;
  }
  if (rules.symmetry) add_symmetry_rules(backend, encoding, placement, memory_limit, rules.copies);
  return encoding;
}

//------------------------------------------------------------------------------
// The theory: the differences a Boolean answer selects.

std::vector<ImpliedDifference> implied_differences(Backend& backend, const CyclicOrderEncoding& encoding,
                                                   const Placement& placement,
                                                   const std::optional<LatencyBound>& latency) {
  std::vector<ImpliedDifference> result;
  const int window = window_node();
  std::vector<int> quotient(placement.blocks.size());
  for (size_t b = 0; b < placement.blocks.size(); ++b) quotient[b] = backend.value(encoding.quotients[b]);
  // [q(b) >= j] as a literal (none when j <= 0: always true).
  auto at_least = [&](size_t b, int j) {
    return j <= 0 ? std::vector<Lit>{} : std::vector<Lit>{~backend.at_most(encoding.quotients[b], j - 1)};
  };

  for (size_t b = 0; b < placement.blocks.size(); ++b) {
    const int node = block_node(b);
    const Time span = placement.blocks[b].span;
    result.push_back({{window, node, 0, 0}, {}});   // tau(b) >= 0
    result.push_back({{node, window, 1, 1}, {}});   // tau(b) <= P - 1
    if (quotient[b] == encoding.max_in_flight - 1)  // s(b) + span(b) <= Kmax P
      result.push_back({{node, window, span, 1}, at_least(b, encoding.max_in_flight - 1)});
    if (encoding.first[b] && backend.value(*encoding.first[b]))  // tau(b) <= 0
      result.push_back({{node, window, 0, 0}, {*encoding.first[b]}});
  }
  for (const auto& [pair, literal] : encoding.before) {
    const auto [x, y] = pair;
    const bool x_first = backend.value(literal);
    const int early = x_first ? x : y, late = x_first ? y : x;
    const Lit because = x_first ? literal : ~literal;
    result.push_back({{block_node(early), block_node(late), placement.blocks[early].span, 0}, {because}});
    result.push_back({{block_node(late), block_node(early), placement.blocks[late].span, 1}, {because}});
  }
  for (const OrderDependency& dependency : encoding.dependencies) {
    const int gap = quotient[dependency.to] - quotient[dependency.from];
    const int levels = static_cast<int>(dependency.at_least.size()) - 1;
    if (gap >= levels) continue;  // void at every period from L on
    result.push_back({{block_node(dependency.from), block_node(dependency.to), dependency.constant, gap},
                      {~dependency.at_least[gap + 1]}});
  }
  if (latency && backend.value(latency->literal)) {
    for (size_t b = 0; b < placement.blocks.size(); ++b) {
      ImpliedDifference bound{{block_node(b), window,
                               placement.blocks[b].span + quotient[b] * latency->period - latency->latency, 0},
                              at_least(b, quotient[b]),
                              true};
      bound.because.push_back(latency->literal);
      result.push_back(std::move(bound));
    }
  }
  return result;
}

std::vector<ImpliedDifference> guarded_differences(Backend& backend, const CyclicOrderEncoding& encoding,
                                                   const Placement& placement) {
  std::vector<ImpliedDifference> result;
  const int window = window_node();
  const int last = encoding.max_in_flight - 1;
  for (size_t b = 0; b < placement.blocks.size(); ++b) {
    const int node = block_node(b);
    result.push_back({{window, node, 0, 0}, {}});
    result.push_back({{node, window, 1, 1}, {}});
    std::vector<Lit> in_last;  // [q(b) >= Kmax - 1]
    if (last > 0) in_last.push_back(~backend.at_most(encoding.quotients[b], last - 1));
    result.push_back({{node, window, placement.blocks[b].span, 1}, in_last});
    if (encoding.first[b]) result.push_back({{node, window, 0, 0}, {*encoding.first[b]}});
  }
  for (const auto& [pair, literal] : encoding.before) {
    const auto [x, y] = pair;
    result.push_back({{block_node(x), block_node(y), placement.blocks[x].span, 0}, {literal}});
    result.push_back({{block_node(y), block_node(x), placement.blocks[y].span, 1}, {literal}});
    result.push_back({{block_node(y), block_node(x), placement.blocks[y].span, 0}, {~literal}});
    result.push_back({{block_node(x), block_node(y), placement.blocks[x].span, 1}, {~literal}});
  }
  for (const OrderDependency& dependency : encoding.dependencies) {
    const int levels = static_cast<int>(dependency.at_least.size()) - 1;
    for (int gap = 0; gap < levels; ++gap)
      result.push_back({{block_node(dependency.from), block_node(dependency.to), dependency.constant, gap},
                        {~dependency.at_least[gap + 1]}});
  }
  return result;
}

std::vector<Time> order_starts(Backend& backend, const CyclicOrderEncoding& encoding,
                               const std::vector<ImpliedDifference>& differences, Time period) {
  std::vector<DifferenceEdge> edges;
  for (const ImpliedDifference& difference : differences) edges.push_back(difference.edge);
  const int nodes = static_cast<int>(encoding.quotients.size()) + 1;
  PeriodCheck check = check_period(nodes, edges, {period, 1});
  if (!check.feasible()) throw std::logic_error("order_starts: the period is not feasible for this answer");
  std::vector<Time> starts;
  for (size_t b = 0; b < encoding.quotients.size(); ++b) {
    const Time phase = check.potentials[block_node(b)] - check.potentials[window_node()];
    starts.push_back(backend.value(encoding.quotients[b]) * period + phase);
  }
  return starts;
}

}  // namespace tessel
