// The repetend as a modulo schedule (ALGORITHMS.md sections 2 and 4): for a
// run of periods P, one encoding decides, under the assumption selecting P,
// whether some repetend with every block once per period, at most Kmax
// micro-batches in flight and the memory limit exists.
//
// Why this shape: the Python Tessel enumerates offset assignments one by one
// and asks the solver about each; here the offsets are integers of the same
// question. An earlier version used one start s(b) over a horizon of Kmax P,
// which made every dependency O(Kmax P) clauses and every memory constraint
// a sum of Kmax-literal chains per block and phase (4 GB on 64 devices). With
// the phase tau(b) and the quotient q(b) apart (s = q P + tau), a dependency
// is two literals that say which of three cases holds, the memory's offset
// part is counted once per device, and only three things depend on the
// period: tau < P, the "quotient gap 1" dependency case and the circle of
// exclusivity — each guarded by the period's selector literal.
#include "solver/modulo_encoding.hpp"

#include <algorithm>
#include <map>
#include <optional>
#include <stdexcept>

namespace tessel {
namespace {

bool on_device(const Block& block, int device) {
  return std::find(block.devices.begin(), block.devices.end(), device) != block.devices.end();
}

//------------------------------------------------------------------------------
// Dependency a -> b: s(b) - s(a) >= span(a), i.e. with the quotient gap
// g = q(b) - q(a): g P + tau(b) - tau(a) >= span(a). As tau lies in [0, P)
// and span <= P, g >= 0 always; g = 0 needs tau(b) - tau(a) >= span(a);
// g = 1 needs tau(b) - tau(a) >= span(a) - P; g >= 2 always holds. Two
// literals G1 = [g >= 1] and G2 = [g >= 2], defined both ways so that they
// propagate, select the case; only the g = 1 case depends on P.

void add_dependencies(Backend& backend, const ModuloEncoding& encoding, const Placement& placement) {
  for (const Edge& edge : placement.edges) {
    const IntVar q_from = encoding.quotients[edge.from], q_to = encoding.quotients[edge.to];
    const IntVar t_from = encoding.phases[edge.from], t_to = encoding.phases[edge.to];
    const int span = placement.blocks[edge.from].span;
    const Lit gap1 = backend.new_bool(), gap2 = backend.new_bool();
    backend.add_difference(q_to, q_from, 0);
    backend.add_difference(q_to, q_from, 1, {gap1});
    backend.add_difference(q_to, q_from, 2, {gap2});
    backend.add_difference(q_from, q_to, 0, {~gap1});
    backend.add_difference(q_from, q_to, -1, {~gap2});
    backend.add_clause({~gap2, gap1});
    backend.add_difference(t_to, t_from, span, {~gap1});
    // tau(b) - tau(a) >= span - P is void when span - P <= -(P - 1).
    if (span < 2) continue;
    for (int period = encoding.first_period; period <= encoding.last_period; ++period) {
      if (span > period) continue;  // the period is impossible anyway
      backend.add_difference(t_to, t_from, span - period, {~gap2, period_assumption(encoding, period)});
    }
  }
}

//------------------------------------------------------------------------------
// Exclusivity: on each device the blocks' phases do not overlap on the
// circle of the period, one circle per period of the run.

bool add_exclusivity(Backend& backend, const ModuloEncoding& encoding, const Placement& placement,
                     const Deadline& deadline) {
  for (int device = 0; device < placement.ndevs; ++device) {
    if (deadline.expired()) return false;
    std::vector<IntVar> phases;
    std::vector<int> spans;
    for (size_t b = 0; b < placement.blocks.size(); ++b)
      if (on_device(placement.blocks[b], device)) {
        phases.push_back(encoding.phases[b]);
        spans.push_back(placement.blocks[b].span);
      }
    if (phases.size() < 2) continue;
    for (int period = encoding.first_period; period <= encoding.last_period; ++period)
      backend.add_no_overlap_modulo(phases, spans, period, {period_assumption(encoding, period)});
  }
  return true;
}

//------------------------------------------------------------------------------
// Memory in the steady state. At steady step S + n P + phi the copies of b
// started number n + sum_{j < Kmax} [s(b) <= phi + j P]
//              = n + Kmax - q(b) - [tau(b) > phi];
// the n- and Kmax-terms cancel on each device because its memory deltas sum
// to zero over one micro-batch, so the memory at phase phi is
//   -sum_b mem(b) q(b) - sum_b mem(b) [tau(b) > phi]
//   = held + sum_b mem(b) [tau(b) <= phi],   held = -sum_b mem(b) q(b)
// (the balance again): `held` is what the micro-batches in flight hold at the
// end of a period, and each phase adds a sum of as many literals as the
// device has blocks. None of it depends on P: for phases at or past P - 1
// every tau(b) <= phi and the bound says held <= M, as phase P - 1 does.
//
// How `held` is counted matters most for the size of the encoding. As a
// signed sum of Kmax-literal chains it is a counter with a bound near
// Kmax * sum |mem|. But a device's allocations and frees usually pair up:
// a block f that allocates m and a later block b (a descendant of f) that
// frees it contribute m (q(b) - q(f)) = m d >= 0, the micro-batches started
// between them. With the deltas split into such pairs, held = sum m d is a
// sum of non-negative terms, so held <= M bounds each gap d by M / m (a
// binary-clause difference), and the counter of every phase is cut at about
// M. Each gap is an integer whose order literal [d <= v] implies
// q(b) - q(f) <= v, so the counter sees it as one sorted leaf. Devices whose
// deltas do not split so (an allocation freed by no descendant on the
// device) keep the signed sum, through one integer `held` per device.

// Above this many values the signed `held` is not worth an integer (memory
// in bytes): the offset terms then go into every phase's sum directly.
constexpr long long kHeldDomainLimit = 4096;

struct MemoryPair {
  size_t allocates;
  size_t frees;
  long long amount;
};

// The device's deltas as allocation/free pairs, each free matched to the
// latest (in topological order) ancestor allocation with something left;
// nullopt when some free has no such ancestor.
std::optional<std::vector<MemoryPair>> memory_pairs(const Placement& placement, const std::vector<size_t>& blocks,
                                                    const std::vector<int>& rank,
                                                    const std::vector<std::vector<int>>& preds) {
  std::vector<size_t> order = blocks;
  std::sort(order.begin(), order.end(), [&](size_t x, size_t y) { return rank[x] < rank[y]; });
  std::vector<long long> left(placement.blocks.size(), 0);
  for (size_t b : blocks) left[b] = std::max<long long>(0, placement.blocks[b].memory);
  std::vector<MemoryPair> pairs;
  std::vector<char> ancestor(placement.blocks.size());
  for (size_t b : order) {
    long long need = -placement.blocks[b].memory;
    if (need <= 0) continue;
    std::fill(ancestor.begin(), ancestor.end(), 0);
    std::vector<int> stack(preds[b].begin(), preds[b].end());
    while (!stack.empty()) {
      int a = stack.back();
      stack.pop_back();
      if (ancestor[a]) continue;
      ancestor[a] = 1;
      for (int p : preds[a]) stack.push_back(p);
    }
    for (auto f = order.rbegin(); f != order.rend() && need > 0; ++f) {
      if (!ancestor[*f] || left[*f] == 0) continue;
      const long long amount = std::min(need, left[*f]);
      pairs.push_back({*f, b, amount});
      left[*f] -= amount;
      need -= amount;
    }
    if (need > 0) return std::nullopt;
  }
  return pairs;
}

// Implied constraints that tie a pair's gap to its phases without the chain
// of dependencies between them (they only speed up the proofs): the free
// starts at least `distance` (the longest path) after the allocation, so
// q(free) - q(alloc) >= ceil((distance - P + 1) / P), and with the gap at
// most v, tau(free) - tau(alloc) >= distance - v P.
void add_distance_implications(Backend& backend, const ModuloEncoding& encoding, const MemoryPair& pair,
                               long long distance, std::optional<IntVar> gap) {
  const IntVar q_alloc = encoding.quotients[pair.allocates], q_free = encoding.quotients[pair.frees];
  const IntVar t_alloc = encoding.phases[pair.allocates], t_free = encoding.phases[pair.frees];
  if (distance <= 0) return;
  for (int period = encoding.first_period; period <= encoding.last_period; ++period) {
    const Lit selected = period_assumption(encoding, period);
    const long long least_gap = (distance - period + 1 + period - 1) / period;
    if (least_gap > 0) backend.add_difference(q_free, q_alloc, static_cast<int>(least_gap), {selected});
    const int last = gap ? std::min<int>(encoding.max_in_flight - 1, (distance + period - 2) / period) : 0;
    for (int v = std::max<long long>(0, least_gap); v <= last; ++v) {
      const long long need = distance - (long long)v * period;
      if (need <= -(period - 1)) break;
      std::vector<Lit> guard{selected};
      if (gap) guard.push_back(backend.at_most(*gap, v));
      backend.add_difference(t_free, t_alloc, static_cast<int>(need), guard);
    }
  }
}

bool add_memory_bounds(Backend& backend, const ModuloEncoding& encoding, const Placement& placement,
                       const std::vector<long long>& memory_limit, const Deadline& deadline) {
  if (memory_limit.empty()) return true;
  const long long top = encoding.max_in_flight - 1;
  std::vector<int> rank(placement.blocks.size());
  {
    std::vector<int> order = topological_order(placement);
    for (size_t i = 0; i < order.size(); ++i) rank[order[i]] = static_cast<int>(i);
  }
  const std::vector<std::vector<int>> preds = predecessors(placement);
  // Longest paths from one block, computed once per allocating block.
  const std::vector<int> topo = topological_order(placement);
  const std::vector<std::vector<int>> succs = successors(placement);
  std::map<size_t, std::vector<long long>> distance_cache;
  auto distances = [&](size_t from) -> const std::vector<long long>& {
    auto found = distance_cache.find(from);
    if (found != distance_cache.end()) return found->second;
    std::vector<long long> dist(placement.blocks.size(), -1);
    dist[from] = 0;
    for (int a : topo) {
      if (dist[a] < 0) continue;
      for (int b : succs[a]) dist[b] = std::max(dist[b], dist[a] + placement.blocks[a].span);
    }
    return distance_cache.emplace(from, std::move(dist)).first->second;
  };
  for (int device = 0; device < placement.ndevs; ++device) {
    if (deadline.expired()) return false;
    std::vector<size_t> blocks;
    long long held_lo = 0, held_hi = 0;
    for (size_t b = 0; b < placement.blocks.size(); ++b) {
      const Block& block = placement.blocks[b];
      if (block.memory == 0 || !on_device(block, device)) continue;
      blocks.push_back(b);
      (block.memory > 0 ? held_lo : held_hi) -= block.memory * top;
    }
    const long long limit = memory_limit[device];
    if (blocks.empty()) {
      if (limit < 0) backend.add_clause({});
      continue;
    }
    LinearSum held;  // what every phase's sum starts from
    if (auto pairs = memory_pairs(placement, blocks, rank, preds)) {
      if (limit < 0) {
        backend.add_clause({});
        continue;
      }
      for (const MemoryPair& pair : *pairs) {
        const IntVar q_alloc = encoding.quotients[pair.allocates], q_free = encoding.quotients[pair.frees];
        const long long widest = std::min(top, limit / pair.amount);
        backend.add_difference(q_alloc, q_free, static_cast<int>(-widest));
        if (widest == 0) {
          add_distance_implications(backend, encoding, pair, distances(pair.allocates)[pair.frees], std::nullopt);
          continue;
        }
        const IntVar gap = backend.new_int(0, static_cast<int>(widest));
        for (int v = 0; v < widest; ++v) backend.add_difference(q_alloc, q_free, -v, {backend.at_most(gap, v)});
        held.ints.push_back({pair.amount, gap});
        add_distance_implications(backend, encoding, pair, distances(pair.allocates)[pair.frees], gap);
      }
    } else {
      LinearSum offsets;
      for (size_t b : blocks) offsets.ints.push_back({-placement.blocks[b].memory, encoding.quotients[b]});
      if (held_hi - held_lo < kHeldDomainLimit) {
        if (limit < held_lo) {
          backend.add_clause({});
          continue;
        }
        const IntVar held_var =
            backend.new_int(static_cast<int>(held_lo), static_cast<int>(std::min(held_hi, limit)));
        offsets.ints.push_back({-1, held_var});
        backend.add_linear_at_most(offsets, 0);
        held.ints.push_back({1, held_var});
      } else {
        held = offsets;
      }
    }
    for (int phase = 0; phase + 1 < encoding.last_period; ++phase) {
      LinearSum sum = held;
      for (size_t b : blocks)
        sum.bools.push_back({placement.blocks[b].memory, backend.at_most(encoding.phases[b], phase)});
      backend.add_linear_at_most(sum, limit);
    }
    // The end of a period (every tau <= phase): held alone.
    if (!held.ints.empty()) backend.add_linear_at_most(held, limit);
  }
  return true;
}

//------------------------------------------------------------------------------
// "Every s(b) + span(b) <= bound" for one period: for each quotient value j,
// [q(b) >= j] implies tau(b) <= bound - span(b) - j P.

void add_start_bound(Backend& backend, const ModuloEncoding& encoding, const Placement& placement, int period,
                     int bound, Lit guard) {
  for (size_t b = 0; b < placement.blocks.size(); ++b) {
    const int span = placement.blocks[b].span;
    for (int j = 0; j < encoding.max_in_flight; ++j) {
      const int last_phase = bound - span - j * period;
      if (last_phase >= period - 1) continue;
      const Lit below_j = j == 0 ? ~backend.true_lit() : backend.at_most(encoding.quotients[b], j - 1);
      if (last_phase < 0) {
        backend.add_clause({~guard, below_j});  // larger j follow from the order of q
        break;
      }
      backend.add_clause({~guard, below_j, backend.at_most(encoding.phases[b], last_phase)});
    }
  }
}

//------------------------------------------------------------------------------
// Symmetry rules, each keeping at least one solution of every (period,
// latency) pair that has one:
//  - Some source block starts at s = 0. Adding a constant to every s(b)
//    shifts the schedule in time and keeps every constraint (differences,
//    the circle, the memory curve, which only moves in phase), so the
//    earliest block may be moved to 0; the earliest block can be taken to
//    be a source, because a predecessor never starts later than its
//    successor. It also makes "s(b) + span <= lambda" the latency bound.
//  - The copies of a window placement start in increasing order of their
//    first block. The copies are interchangeable (same blocks, no edge
//    between them, the same memory on the same devices), so renaming them
//    maps a solution to one of the same period and latency; any solution can
//    be renamed into this order, which is strict because two copies of one
//    block share its devices. The shift commutes with the renaming.

void add_symmetry_rules(Backend& backend, const ModuloEncoding& encoding, const Placement& placement,
                        int copies) {
  std::vector<bool> has_predecessor(placement.blocks.size(), false);
  for (const Edge& edge : placement.edges) has_predecessor[edge.to] = true;
  std::vector<Lit> some_source_first;
  for (size_t b = 0; b < placement.blocks.size(); ++b) {
    if (has_predecessor[b]) continue;
    const Lit first = backend.new_bool();
    backend.add_clause({~first, backend.at_most(encoding.quotients[b], 0)});
    backend.add_clause({~first, backend.at_most(encoding.phases[b], 0)});
    some_source_first.push_back(first);
  }
  backend.add_clause(some_source_first);

  if (copies < 2) return;
  const size_t per_copy = placement.blocks.size() / copies;
  for (int copy = 0; copy + 1 < copies; ++copy) {
    const size_t earlier = copy * per_copy, later = (copy + 1) * per_copy;
    // (q, tau) of the later copy lexicographically above the earlier one's.
    const Lit same_quotient = backend.new_bool();
    backend.add_difference(encoding.quotients[later], encoding.quotients[earlier], 0);
    backend.add_difference(encoding.quotients[later], encoding.quotients[earlier], 1, {~same_quotient});
    backend.add_difference(encoding.phases[later], encoding.phases[earlier], 1, {same_quotient});
  }
}

}  // namespace

ModuloEncoding encode_modulo(Backend& backend, const Placement& placement,
                             const std::vector<long long>& memory_limit, int first_period, int last_period,
                             int max_in_flight, const ModuloRules& rules, const Deadline& deadline) {
  if (first_period < 1 || last_period < first_period || max_in_flight < 1)
    throw std::invalid_argument("encode_modulo: need 1 <= first_period <= last_period and Kmax >= 1");
  ModuloEncoding encoding{first_period, last_period, max_in_flight, {}, {}, {}};
  const bool single = first_period == last_period;
  for (int period = first_period; period <= last_period; ++period)
    encoding.period_selectors.push_back(single ? backend.true_lit() : backend.new_bool());
  for (size_t b = 0; b < placement.blocks.size(); ++b) {
    encoding.quotients.push_back(backend.new_int(0, max_in_flight - 1));
    encoding.phases.push_back(backend.new_int(0, last_period - 1));
  }

  for (int period = first_period; period <= last_period; ++period) {
    const Lit selected = period_assumption(encoding, period);
    for (size_t b = 0; b < placement.blocks.size(); ++b) {
      // A block longer than the period can never repeat every P steps.
      if (placement.blocks[b].span > period) {
        backend.add_clause({~selected});
        break;
      }
      if (period < last_period) backend.add_clause({~selected, backend.at_most(encoding.phases[b], period - 1)});
    }
    // At most Kmax micro-batches in flight: s(b) + span(b) <= Kmax P.
    add_start_bound(backend, encoding, placement, period, max_in_flight * period, selected);
  }

  add_dependencies(backend, encoding, placement);
  if (!add_exclusivity(backend, encoding, placement, deadline) ||
      !add_memory_bounds(backend, encoding, placement, memory_limit, deadline)) {
    encoding.complete = false;
    return encoding;
  }
  if (rules.symmetry) add_symmetry_rules(backend, encoding, placement, rules.copies);
  return encoding;
}

Lit period_assumption(const ModuloEncoding& encoding, int period) {
  if (period < encoding.first_period || period > encoding.last_period)
    throw std::invalid_argument("period_assumption: period " + std::to_string(period) + " is not encoded");
  return encoding.period_selectors[period - encoding.first_period];
}

Lit latency_literal(Backend& backend, const ModuloEncoding& encoding, const Placement& placement, int period,
                    int latency) {
  const Lit bounded = backend.new_bool();
  add_start_bound(backend, encoding, placement, period, latency, bounded);
  return bounded;
}

std::vector<int> decode_starts(Backend& backend, const ModuloEncoding& encoding, int period) {
  std::vector<int> starts;
  for (size_t b = 0; b < encoding.phases.size(); ++b)
    starts.push_back(backend.value(encoding.quotients[b]) * period + backend.value(encoding.phases[b]));
  return starts;
}

}  // namespace tessel
