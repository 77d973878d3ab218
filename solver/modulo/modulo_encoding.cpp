// The repetend as a modulo schedule (docs/algorithms.md, "The repetend as a modulo schedule"): for a
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
#include "solver/modulo/modulo_encoding.hpp"

#include "solver/modulo/component_shift.hpp"
#include "solver/modulo/optional_offload.hpp"
#include "solver/modulo/optional_recompute.hpp"
#include "solver/modulo/placement_symmetry.hpp"
#include "solver/modulo/steady_memory.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <optional>
#include <stdexcept>

namespace tessel {
namespace {

//------------------------------------------------------------------------------
// One encoding being written: the backend that takes its constraints, the
// encoding's variables, the placement and the deadline that may cut the
// building short. Each rule below says what it states in the encoding's
// terms (a quotient's or a phase's bound, a period's selector, a block's
// presence), and this is the one place that turns those into the backend's
// verbs, so the rules need not each carry the backend, the encoding and the
// placement along.
struct Writer {
  Backend& backend;
  const ModuloEncoding& encoding;  // the variables made so far
  const Placement& placement;
  Deadline deadline;

  bool out_of_time() const { return deadline.expired(); }
  Lit fresh() { return backend.new_bool(); }
  Lit truth() { return backend.true_lit(); }
  Lit falsity() { return ~backend.true_lit(); }
  IntVar integer(int lo, int hi) { return backend.new_int(lo, hi); }
  // [q(b) <= value] and [tau(b) <= value].
  Lit quotient_at_most(size_t block, int value) { return backend.at_most(encoding.quotients[block], value); }
  Lit phase_at_most(size_t block, int value) { return backend.at_most(encoding.phases[block], value); }
  Lit at_most(IntVar x, int value) { return backend.at_most(x, value); }
  // "The period is `period`" (the assumption a question selects it by).
  Lit selected(int period) const { return period_assumption(encoding, period); }
  // The literal a block of a choice is present under (none for the
  // placement's own blocks).
  std::optional<Lit> present(size_t block) const { return presence(encoding, block); }
  void clause(const std::vector<Lit>& lits) { backend.add_clause(lits); }
  // guard implies x - y >= c.
  void difference(IntVar x, IntVar y, int c, const std::vector<Lit>& guard = {}) {
    backend.add_difference(x, y, c, guard);
  }
  void sum_at_most(const LinearSum& sum, long long bound) { backend.add_linear_at_most(sum, bound); }
  // The phases do not overlap on the circle of `period`, when it is selected.
  void circle(const std::vector<IntVar>& phases, const std::vector<int>& spans, int period) {
    backend.add_no_overlap_modulo(phases, spans, period, {selected(period)});
  }
};

//------------------------------------------------------------------------------
// Dependency a -> b with communication delay d: s(b) - s(a) >= c = span(a) + d,
// i.e. with the quotient gap g = q(b) - q(a): g P + tau(b) - tau(a) >= c. As
// tau lies in [0, P), g >= 0 always (when c >= 1); the gap g = j needs
// tau(b) - tau(a) >= c - j P, which holds anyway once c - j P <= -(P - 1).
// Literals G_j = [g >= j], defined both ways so that they propagate, select
// the case; without a delay (c <= P) only g = 0 and g = 1 constrain, and
// only the g >= 1 cases depend on P. With a delay longer than a period
// more levels constrain: as many as the shortest period of the run needs.

// The literals an edge of a recompute to choose holds under (none for the
// placement's own edges).
std::vector<Lit> edge_presence(const Writer& w, const Edge& edge) {
  std::vector<Lit> when;
  for (int b : {edge.from, edge.to})
    if (const std::optional<Lit> present = w.present(b)) when.push_back(*present);
  return when;
}

std::vector<Lit> with(std::vector<Lit> guard, const std::vector<Lit>& more) {
  guard.insert(guard.end(), more.begin(), more.end());
  return guard;
}

// Gap levels that can constrain edge constant c at periods >= period.
int dependency_levels(long long c, int period) { return static_cast<int>(std::max<long long>(1, (c - 1 + period - 1) / period + 1)); }

// False when the deadline struck first (a placement of thousands of blocks
// with a thousand micro-batches in flight takes seconds here).
bool add_dependencies(Writer& w) {
  const ModuloEncoding& encoding = w.encoding;
  const Placement& placement = w.placement;
  for (const Edge& edge : placement.edges) {
    if (w.out_of_time()) return false;
    const IntVar q_from = encoding.quotients[edge.from], q_to = encoding.quotients[edge.to];
    const IntVar t_from = encoding.phases[edge.from], t_to = encoding.phases[edge.to];
    const long long c = placement.blocks[edge.from].span + edge.delay;
    const int levels = std::min(dependency_levels(c, encoding.first_period), encoding.max_in_flight);
    const std::vector<Lit> when = edge_presence(w, edge);
    w.difference(q_to, q_from, 0, when);
    std::vector<Lit> at_least(levels + 1);  // at_least[j] = G_j, j >= 1
    for (int j = 1; j <= levels; ++j) {
      at_least[j] = w.fresh();
      w.difference(q_to, q_from, j, with({at_least[j]}, when));
      w.difference(q_from, q_to, -(j - 1), with({~at_least[j]}, when));
      if (j > 1) w.clause({~at_least[j], at_least[j - 1]});
    }
    for (int j = 0; j < levels; ++j) {
      if (j == 0) {
        w.difference(t_to, t_from, static_cast<int>(c), with({~at_least[1]}, when));
        continue;
      }
      for (int period = encoding.first_period; period <= encoding.last_period; ++period) {
        if (placement.blocks[edge.from].span > period) continue;  // the period is impossible anyway
        const long long need = c - static_cast<long long>(j) * period;
        if (need <= -(period - 1)) continue;  // void at this period
        w.difference(t_to, t_from, static_cast<int>(need), with({~at_least[j + 1], w.selected(period)}, when));
      }
    }
  }
  return true;
}

//------------------------------------------------------------------------------
// Exclusivity: on each device the blocks' phases do not overlap on the
// circle of the period, one circle per period of the run.

bool add_exclusivity(Writer& w) {
  const ModuloEncoding& encoding = w.encoding;
  const Placement& placement = w.placement;
  for (int device = 0; device < placement.ndevs; ++device) {
    if (w.out_of_time()) return false;
    std::vector<IntVar> phases;
    std::vector<int> spans;
    for (size_t b = 0; b < placement.blocks.size(); ++b)
      if (on_device(placement.blocks[b], device) && !w.present(b)) {
        phases.push_back(encoding.phases[b]);
        spans.push_back(placement.blocks[b].span);
      }
    if (!encoding.chosen.empty()) add_optional_exclusivity(w.backend, encoding, placement, device);
    if (!encoding.offloaded.empty()) add_channel_exclusivity(w.backend, encoding, placement, device);
    if (phases.size() < 2) continue;
    for (int period = encoding.first_period; period <= encoding.last_period; ++period) w.circle(phases, spans, period);
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
// How `held` is counted (pairs of an allocation and its free, each a
// non-negative gap) is steady_memory.hpp's; each phase adds a sum of as many
// literals as the device has blocks.

// Implied constraints that tie a pair's gap to its phases without the chain
// of dependencies between them (they only speed up the proofs): the free
// starts at least `distance` (the longest path) after the allocation, so
// q(free) - q(alloc) >= ceil((distance - P + 1) / P), and with the gap at
// most v, tau(free) - tau(alloc) >= distance - v P.
void add_distance_implications(Writer& w, const MemoryPair& pair, long long distance, std::optional<IntVar> gap) {
  const ModuloEncoding& encoding = w.encoding;
  const IntVar q_alloc = encoding.quotients[pair.allocates], q_free = encoding.quotients[pair.frees];
  const IntVar t_alloc = encoding.phases[pair.allocates], t_free = encoding.phases[pair.frees];
  if (distance <= 0) return;
  for (int period = encoding.first_period; period <= encoding.last_period; ++period) {
    const Lit selected = w.selected(period);
    const long long least_gap = (distance - period + 1 + period - 1) / period;
    if (least_gap > 0) w.difference(q_free, q_alloc, static_cast<int>(least_gap), {selected});
    const int last = gap ? std::min<int>(encoding.max_in_flight - 1, (distance + period - 2) / period) : 0;
    for (int v = std::max<long long>(0, least_gap); v <= last; ++v) {
      const long long need = distance - (long long)v * period;
      if (need <= -(period - 1)) break;
      std::vector<Lit> guard{selected};
      if (gap) guard.push_back(w.at_most(*gap, v));
      w.difference(t_free, t_alloc, static_cast<int>(need), guard);
    }
  }
}

bool add_memory_bounds(Writer& w, const std::vector<long long>& memory_limit, const ModuloRules& rules) {
  if (memory_limit.empty()) return true;
  Backend& backend = w.backend;
  const ModuloEncoding& encoding = w.encoding;
  const Placement& placement = w.placement;
  // Longest paths from one block, computed once per allocating block (on
  // the placement without recomputes to choose: their paths hold only when
  // chosen).
  const Placement& paths = rules.without_optional ? *rules.without_optional : placement;
  std::map<size_t, std::vector<Time>> distance_cache;
  auto distances = [&](size_t from) -> const std::vector<Time>& {
    auto found = distance_cache.find(from);
    if (found != distance_cache.end()) return found->second;
    return distance_cache.emplace(from, start_distances_from(paths, static_cast<int>(from))).first->second;
  };
  const Savings savings = define_savings(backend, encoding, rules.optional, rules.offloads);
  for (int device = 0; device < placement.ndevs; ++device) {
    if (w.out_of_time()) return false;
    const long long limit = memory_limit[device];
    // Where a forward may recompute or offload, what the pairs hold with
    // everything kept may pass the limit: their gaps are not cut by it.
    const bool saves = device_may_release(savings, placement, device);
    const long long pair_limit = saves ? std::numeric_limits<long long>::max() / 4 : limit;
    const std::optional<DeviceMemory> memory =
        encode_device_memory(backend, placement, device, encoding.quotients, encoding.max_in_flight, pair_limit);
    if (!memory) continue;
    const std::vector<size_t>& blocks = memory->blocks;
    const HeldMemory& held = memory->held;
    for (const MemoryGap& gap : held.gaps)
      add_distance_implications(w, gap.pair, distances(gap.pair.allocates)[gap.pair.frees], gap.gap);
    for (int phase = 0; phase + 1 < encoding.last_period; ++phase) {
      // Per phase too: each bound may be a diagram of 200,000 nodes, and a
      // long period (a delay of 100 steps under memory 125) built 3.5 GB in
      // 50 s past a 5 s limit between two checks per device.
      if (w.out_of_time()) return false;
      PhaseBound at{held.held, limit};
      for (size_t b : blocks) at.sum.bools.push_back({placement.blocks[b].memory, w.phase_at_most(b, phase)});
      if (saves) add_savings(backend, encoding, savings, placement, device, phase, at);
      w.sum_at_most(at.sum, at.bound);
    }
    // The end of a period (every tau <= phase): held alone.
    PhaseBound end{held.held, limit};
    if (saves) add_savings(backend, encoding, savings, placement, device, encoding.last_period - 1, end);
    if (!end.sum.ints.empty() || (saves && !end.sum.bools.empty())) w.sum_at_most(end.sum, end.bound);
  }
  return true;
}

//------------------------------------------------------------------------------
// "Every s(b) + span(b) <= bound" for one period: for each quotient value j,
// [q(b) >= j] implies tau(b) <= bound - span(b) - j P.

void add_start_bound(Writer& w, int period, int bound, Lit guard) {
  const Placement& placement = w.placement;
  for (size_t b = 0; b < placement.blocks.size(); ++b) {
    const int span = placement.blocks[b].span;
    // A recompute or copy to choose is bound only when chosen.
    std::vector<Lit> unless{~guard};
    if (const std::optional<Lit> present = w.present(b)) unless.push_back(~*present);
    for (int j = 0; j < w.encoding.max_in_flight; ++j) {
      const int last_phase = bound - span - j * period;
      if (last_phase >= period - 1) continue;
      const Lit below_j = j == 0 ? w.falsity() : w.quotient_at_most(b, j - 1);
      if (last_phase < 0) {
        w.clause(with(unless, {below_j}));  // larger j follow from the order of q
        break;
      }
      w.clause(with(unless, {below_j, w.phase_at_most(b, last_phase)}));
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
//  - On a mirrored placement (placement_symmetry.hpp) that source is block
//    0 of the first copy. A device renaming that maps the placement onto
//    itself (an automorphism pi) maps a schedule s to s o pi, a schedule of
//    the same period and latency: every dependency, span and memory change
//    is kept, the circle of device d becomes that of its image, and the
//    memory limits of the two are equal. Given any solution, shift it so
//    that its earliest source x starts at 0; when x is in the orbit of block
//    0 (first_source_fixed checks that every source is), some g of the
//    automorphisms and copy renamings has g(block 0) = x, and s o g starts
//    block 0 at 0. Sorting the copies then keeps that copy first (its block
//    0 is the earliest source, and no two copies' block 0 start together,
//    sharing devices), so all three rules hold at once.
//  - The copies of a window placement start in increasing order of their
//    first block. The copies are interchangeable (same blocks, no edge
//    between them, the same memory on the same devices), so renaming them
//    maps a solution to one of the same period and latency; any solution can
//    be renamed into this order, which is strict because two copies of one
//    block share its devices. The shift commutes with the renaming.
//  - In every part of the placement that may be moved by whole periods
//    (component_shift.hpp: no edge to the rest, memory balanced per device),
//    some source has quotient 0. Applied last: take a solution obeying the
//    rules above and move each such part by -(its least quotient) periods.
//    Phases, dependencies and every device's memory stay (the header says
//    why); no start goes below 0 or above where it was, so the latency and
//    the in-flight bound still hold; the source at s = 0 keeps its quotient
//    0 (its part's least), and the parts holding a copy's first block are not
//    moved, so the copies' order stays. A part's least quotient is a
//    source's, since a dependency never lowers the quotient.

void add_symmetry_rules(Writer& w, const std::vector<long long>& memory_limit, int copies) {
  const ModuloEncoding& encoding = w.encoding;
  const Placement& placement = w.placement;
  const std::optional<int> fixed = first_source_fixed(placement, memory_limit, copies);
  std::vector<bool> has_predecessor(placement.blocks.size(), false);
  for (const Edge& edge : placement.edges) has_predecessor[edge.to] = true;
  std::vector<Lit> some_source_first;
  for (size_t b = 0; b < placement.blocks.size(); ++b) {
    if (has_predecessor[b]) continue;
    const Lit first = w.fresh();
    w.clause({~first, w.quotient_at_most(b, 0)});
    w.clause({~first, w.phase_at_most(b, 0)});
    if (fixed && *fixed == static_cast<int>(b)) w.clause({first});
    some_source_first.push_back(first);
  }
  w.clause(some_source_first);
  add_shiftable_part_rule(w.backend, encoding.quotients, placement, copies);

  if (copies < 2) return;
  const size_t per_copy = placement.blocks.size() / copies;
  for (int copy = 0; copy + 1 < copies; ++copy) {
    const size_t earlier = copy * per_copy, later = (copy + 1) * per_copy;
    // (q, tau) of the later copy lexicographically above the earlier one's.
    const Lit same_quotient = w.fresh();
    w.difference(encoding.quotients[later], encoding.quotients[earlier], 0);
    w.difference(encoding.quotients[later], encoding.quotients[earlier], 1, {~same_quotient});
    w.difference(encoding.phases[later], encoding.phases[earlier], 1, {same_quotient});
  }
}

// The literals of the recomputes and offloads to choose, which block
// belongs to which, and where each block runs. A forward offering both
// chooses one at most.
void add_choices(Writer& w, const ModuloRules& rules, ModuloEncoding& encoding) {
  const Placement& placement = w.placement;
  encoding.optional_of.assign(placement.blocks.size(), -1);
  encoding.offload_of.assign(placement.blocks.size(), -1);
  encoding.lanes.assign(placement.blocks.size(), Lane::Compute);
  for (size_t i = 0; i < rules.optional.size(); ++i) {
    const OptionalRecompute& recompute = rules.optional[i];
    encoding.optional_of[recompute.recompute] = static_cast<int>(i);
    if (recompute.release >= 0) {
      encoding.optional_of[recompute.release] = static_cast<int>(i);
      encoding.lanes[recompute.release] = Lane::Marker;
    }
    encoding.chosen.push_back(w.fresh());
  }
  for (size_t i = 0; i < rules.offloads.size(); ++i) {
    const OptionalOffload& offload = rules.offloads[i];
    for (int b : {offload.out, offload.released, offload.in}) encoding.offload_of[b] = static_cast<int>(i);
    encoding.lanes[offload.out] = encoding.lanes[offload.in] = Lane::Channel;
    encoding.lanes[offload.released] = Lane::Marker;
    encoding.offloaded.push_back(w.fresh());
    for (size_t r = 0; r < rules.optional.size(); ++r)
      if (rules.optional[r].forward == offload.forward) w.clause({~encoding.chosen[r], ~encoding.offloaded.back()});
  }
}

// The period selectors (the constant true for a run of one period), then
// each block's quotient and phase. False when the deadline struck first.
bool add_variables(Writer& w, ModuloEncoding& encoding) {
  const bool single = encoding.first_period == encoding.last_period;
  for (int period = encoding.first_period; period <= encoding.last_period; ++period)
    encoding.period_selectors.push_back(single ? w.truth() : w.fresh());
  // The deadline is read per block and per period as well: with a thousand
  // micro-batches in flight each integer is a thousand literals.
  for (size_t b = 0; b < w.placement.blocks.size(); ++b) {
    if (w.out_of_time()) return false;
    encoding.quotients.push_back(w.integer(0, encoding.max_in_flight - 1));
    encoding.phases.push_back(w.integer(0, encoding.last_period - 1));
  }
  return true;
}

// Per period of the run, under its selector: every phase below it, no
// block longer than it, and at most Kmax micro-batches in flight. False when
// the deadline struck first.
bool add_period_rules(Writer& w) {
  const ModuloEncoding& encoding = w.encoding;
  const Placement& placement = w.placement;
  for (int period = encoding.first_period; period <= encoding.last_period; ++period) {
    if (w.out_of_time()) return false;
    const Lit selected = w.selected(period);
    for (size_t b = 0; b < placement.blocks.size(); ++b) {
      // A block longer than the period can never repeat every P steps (a
      // recompute to choose is then not chosen).
      const std::optional<Lit> present = w.present(b);
      if (placement.blocks[b].span > period && present) {
        w.clause({~selected, ~*present});
      } else if (placement.blocks[b].span > period) {
        w.clause({~selected});
        break;
      }
      if (period < encoding.last_period) w.clause({~selected, w.phase_at_most(b, period - 1)});
    }
    // At most Kmax micro-batches in flight: s(b) + span(b) <= Kmax P.
    add_start_bound(w, period, encoding.max_in_flight * period, selected);
  }
  return true;
}

}  // namespace

ModuloEncoding encode_modulo(Backend& backend, const Placement& placement,
                             const std::vector<long long>& memory_limit, PeriodRange periods, int max_in_flight,
                             const ModuloRules& rules, const Deadline& deadline) {
  const int first_period = periods.first, last_period = periods.last;
  if (first_period < 1 || last_period < first_period || max_in_flight < 1)
    throw std::invalid_argument("encode_modulo: need 1 <= first_period <= last_period and Kmax >= 1");
  if (!rules.optional.empty() && rules.copies != 1)
    throw std::invalid_argument("encode_modulo: recomputes are chosen without the copies' order (copies must be 1)");
  if (!rules.offloads.empty() && rules.copies != 1)
    throw std::invalid_argument("encode_modulo: offloads are chosen without the copies' order (copies must be 1)");
  ModuloEncoding encoding;
  encoding.first_period = first_period;
  encoding.last_period = last_period;
  encoding.max_in_flight = max_in_flight;
  Writer w{backend, encoding, placement, deadline};
  add_choices(w, rules, encoding);
  // Cut short by the deadline: no answer of the solver may be read from it.
  encoding.complete = add_variables(w, encoding) && add_period_rules(w) && add_dependencies(w) &&
                      add_exclusivity(w) && add_memory_bounds(w, memory_limit, rules);
  if (encoding.complete && rules.symmetry) add_symmetry_rules(w, memory_limit, rules.copies);
  return encoding;
}

Lit latency_literal(Backend& backend, const ModuloEncoding& encoding, const Placement& placement, int period,
                    int latency) {
  Writer w{backend, encoding, placement, Deadline::none()};
  const Lit bounded = w.fresh();
  add_start_bound(w, period, latency, bounded);
  return bounded;
}

std::vector<int> decode_starts(Backend& backend, const ModuloEncoding& encoding, int period) {
  std::vector<int> starts;
  for (size_t b = 0; b < encoding.phases.size(); ++b)
    starts.push_back(backend.value(encoding.quotients[b]) * period + backend.value(encoding.phases[b]));
  return starts;
}

}  // namespace tessel
