// The verifier's plain encoding of a period claim (see the header for what and
// why). Variables, for each block b of the window and its largest start
// S(b) = T - span(b), T the latency bound (K P, or the latency claim):
//   ge(b,t), t in 1..S(b): s(b) >= t (order encoding; ge(b,0) is true);
//   at(b,t), t in 0..S(b): s(b) = t;
//   ph(b,p), p in 0..P-1:  s(b) mod P = p;
//   occ(b,u):              b occupies point u of the circle of length P;
//   le(b,f):               s(b) mod P <= f (memory, signed form only).
// Then, implied by these (certify/phase_view): order literals of the phase
// and quotient gaps with the clauses that reason on phases; and the memory
// by allocation/free pairs where a device's deltas split so
// (certify/held_memory), else the signed sum as the definition writes it.
#include "certify/encoder.hpp"

#include <algorithm>
#include <numeric>

#include "certify/held_memory.hpp"
#include "certify/phase_view.hpp"
#include "certify/symmetry.hpp"

namespace tessel::certify {
namespace {

struct Layout {
  long long period = 0, horizon = 0;  // P, T
  std::vector<long long> last;        // S(b)
  std::vector<int> ge_base, at_base, ph_base;  // first variable of each family
};

long long horizon_of(const Claim& claim) {
  long long horizon = claim.period * claim.max_in_flight;
  if (claim.latency_at_most) horizon = std::min(horizon, *claim.latency_at_most);
  return horizon;
}

// ge(b,t) for t >= 1 (0 is true: returned as 0 meaning "true", callers handle).
int ge(const Layout& layout, int b, long long t) { return layout.ge_base[b] + static_cast<int>(t) - 1; }
int at(const Layout& layout, int b, long long t) { return layout.at_base[b] + static_cast<int>(t); }
int ph(const Layout& layout, int b, long long p) { return layout.ph_base[b] + static_cast<int>(p); }

// Starts: ge is a ladder, at(b,t) <-> ge(b,t) and not ge(b,t+1), the phase
// is the start modulo P, and some block starts at 0 (a time shift is free).
void encode_starts(Builder& builder, Layout& layout, const Placement& window) {
  const long long period = layout.period;
  std::vector<int> at_zero;
  for (size_t b = 0; b < window.blocks.size(); ++b) {
    const long long last = layout.last[b];
    layout.ge_base.push_back(builder.cnf.variables + 1);
    for (long long t = 1; t <= last; ++t) builder.fresh();
    layout.at_base.push_back(builder.cnf.variables + 1);
    for (long long t = 0; t <= last; ++t) builder.fresh();
    layout.ph_base.push_back(builder.cnf.variables + 1);
    for (long long p = 0; p < period; ++p) builder.fresh();
    const int i = static_cast<int>(b);
    for (long long t = 2; t <= last; ++t) builder.add({-ge(layout, i, t), ge(layout, i, t - 1)});
    for (long long t = 0; t <= last; ++t) {
      std::vector<int> exact = {at(layout, i, t)};
      if (t >= 1) builder.add({-at(layout, i, t), ge(layout, i, t)}), exact.push_back(-ge(layout, i, t));
      if (t < last) builder.add({-at(layout, i, t), -ge(layout, i, t + 1)}), exact.push_back(ge(layout, i, t + 1));
      builder.add(exact);
      builder.add({-at(layout, i, t), ph(layout, i, t % period)});
    }
    for (long long p = 0; p < period; ++p) {
      std::vector<int> some = {-ph(layout, i, p)};
      for (long long t = p; t <= last; t += period) some.push_back(at(layout, i, t));
      builder.add(some);
    }
    at_zero.push_back(at(layout, i, 0));
  }
  builder.add(at_zero);
}

// Each edge a -> b: s(b) >= s(a) + span(a) + delay, for every start of a.
void encode_edges(Builder& builder, const Layout& layout, const Placement& window) {
  for (const Edge& edge : window.edges) {
    const long long gap = window.blocks[edge.from].span + edge.delay;
    for (long long t = 0; t <= layout.last[edge.from]; ++t) {
      std::vector<int> clause;
      if (t >= 1) clause.push_back(-ge(layout, edge.from, t));
      const long long need = t + gap;
      if (need > layout.last[edge.to]) {
        builder.add(clause);  // a cannot start at t or later
        break;
      }
      if (need >= 1) clause.push_back(ge(layout, edge.to, need));
      if (need >= 1) builder.add(clause);
    }
  }
}

// Exclusivity: a block at phase p occupies points p .. p + span - 1 of the
// circle (mod P); on each device no point is occupied twice.
void encode_circles(Builder& builder, const Layout& layout, const Placement& window, const PhaseLadders& phases) {
  const long long period = layout.period;
  std::vector<int> occ_base(window.blocks.size());
  for (size_t b = 0; b < window.blocks.size(); ++b) {
    occ_base[b] = builder.cnf.variables + 1;
    for (long long u = 0; u < period; ++u) builder.fresh();
    for (long long p = 0; p < period; ++p)
      for (long long i = 0; i < window.blocks[b].span; ++i)
        builder.add({-ph(layout, static_cast<int>(b), p), occ_base[b] + static_cast<int>((p + i) % period)});
    encode_phase_occupancy(builder, phases, static_cast<int>(b), window.blocks[b].span, occ_base[b]);
  }
  std::vector<std::vector<int>> on(window.ndevs);
  for (size_t b = 0; b < window.blocks.size(); ++b)
    for (int d : window.blocks[b].devices) on[d].push_back(static_cast<int>(b));
  std::vector<std::pair<int, int>> pairs;
  for (const std::vector<int>& blocks : on)
    for (size_t i = 0; i < blocks.size(); ++i)
      for (size_t j = i + 1; j < blocks.size(); ++j) pairs.push_back({blocks[i], blocks[j]});
  std::sort(pairs.begin(), pairs.end());
  pairs.erase(std::unique(pairs.begin(), pairs.end()), pairs.end());
  for (const auto& [a, b] : pairs)
    for (long long u = 0; u < period; ++u)
      builder.add({-(occ_base[a] + static_cast<int>(u)), -(occ_base[b] + static_cast<int>(u))});
}

// Memory of device d at phase f of the steady state:
//   -sum_b mem(b) q(b) + sum_{b: s(b) mod P <= f} mem(b) <= limit - static,
// q(b) = floor(s(b) / P) = the number of j in 1..K-1 with ge(b, jP). By
// allocation/free pairs when the device's deltas split into them (the same
// sum as non-negative counts, certify/held_memory), else as written here.
void encode_memory(Builder& builder, const Layout& layout, const StartLadders& ladders, const Placement& window,
                   const std::vector<long long>& memory_limit, const Placement& placement, int k) {
  const long long period = layout.period;
  for (int d = 0; d < window.ndevs; ++d) {
    const DevicePairs paired = pair_memory(placement, d);
    if (paired.paired) {
      encode_paired_memory(builder, ladders, paired.pairs, k, static_cast<int>(placement.blocks.size()),
                           memory_limit[d] - window.static_memory[d]);
      continue;
    }
    std::vector<int> mine;
    for (size_t b = 0; b < window.blocks.size(); ++b) {
      const Block& block = window.blocks[b];
      if (block.memory != 0 && std::count(block.devices.begin(), block.devices.end(), d)) mine.push_back(static_cast<int>(b));
    }
    if (mine.empty()) continue;
    for (long long f = 0; f < period; ++f) {
      std::vector<std::pair<long long, int>> terms;  // (weight, literal), any sign for now
      for (int b : mine) {
        const long long memory = window.blocks[b].memory;
        for (long long j = 1; j * period <= layout.last[b]; ++j) terms.push_back({-memory, ge(layout, b, j * period)});
        const int le = builder.fresh();  // s(b) mod P <= f
        std::vector<int> some = {-le};
        for (long long p = 0; p < period; ++p) {
          if (p <= f) builder.add({-ph(layout, b, p), le}), some.push_back(ph(layout, b, p));
          else builder.add({-ph(layout, b, p), -le});
        }
        builder.add(some);
        terms.push_back({memory, le});
      }
      long long bound = memory_limit[d] - window.static_memory[d];
      for (auto& [weight, literal] : terms)
        if (weight < 0) bound -= weight, weight = -weight, literal = -literal;  // w l = w - |w| (not l)
      at_most(builder, terms, bound);
    }
  }
}

// The symmetry rules (certify/symmetry.hpp; docs/algorithms.md says why each
// keeps a repetend of every claim): each component that may move by whole
// periods has a block starting before P, and the copies of a component
// start their first blocks in copy order.
void encode_symmetry(Builder& builder, const Layout& layout, const WindowSymmetry& symmetry) {
  const int n = symmetry.n;
  for (const Component& part : symmetry.components) {
    for (int c = 0; c < symmetry.k && part.shiftable; ++c) {
      std::vector<int> early;  // stays short when some block always starts before P
      for (int b : part.blocks)
        if (layout.last[c * n + b] >= layout.period) early.push_back(-ge(layout, c * n + b, layout.period));
      if (early.size() == part.blocks.size()) builder.add(early);
    }
    const int first = part.blocks.front();
    for (int c = 0; c + 1 < symmetry.k; ++c)
      for (long long t = 1; t <= layout.last[first]; ++t)
        builder.add({-ge(layout, c * n + first, t), ge(layout, (c + 1) * n + first, t)});
  }
}

void require_balance(const Placement& placement) {
  std::vector<long long> balance(placement.ndevs, 0);
  for (const Block& block : placement.blocks)
    for (int d : block.devices) balance[d] += block.memory;
  for (int d = 0; d < placement.ndevs; ++d)
    if (balance[d] != 0)
      throw MalformedError("the memory of device " + std::to_string(d) +
                           " does not balance over one micro-batch: no repetend exists and none is claimed");
}

Layout layout_of(const Placement& window, const Claim& claim) {
  Layout layout;
  layout.period = claim.period;
  layout.horizon = horizon_of(claim);
  for (const Block& block : window.blocks) layout.last.push_back(layout.horizon - block.span);
  return layout;
}

}  // namespace

Cnf encode_claim(const Placement& placement, const std::vector<long long>& memory_limit, const Claim& claim) {
  if (claim.period < 1 || claim.k < 1 || claim.max_in_flight < 1)
    throw MalformedError("a claim needs period, k and max_in_flight >= 1");
  if (!memory_limit.empty() && static_cast<int>(memory_limit.size()) != placement.ndevs)
    throw MalformedError("memory_limit: not one per device");
  if (!memory_limit.empty()) require_balance(placement);
  const Placement window = window_of(placement, claim.k);
  Builder builder;
  const Layout shape = layout_of(window, claim);
  for (const Block& block : window.blocks)
    if (block.span > claim.period || block.span > shape.horizon) {
      builder.add({});  // a block longer than the period (or the latency bound) never fits
      return builder.cnf;
    }
  Layout layout = shape;
  encode_starts(builder, layout, window);
  const StartLadders ladders{layout.period, layout.last, layout.ge_base};
  const PhaseLadders phases = encode_phase_ladders(builder, ladders, layout.ph_base);
  encode_edges(builder, layout, window);
  encode_phase_edges(builder, ladders, phases, window);
  encode_circles(builder, layout, window, phases);
  if (!memory_limit.empty()) encode_memory(builder, layout, ladders, window, memory_limit, placement, claim.k);
  encode_symmetry(builder, layout, window_symmetry(placement, claim.k, !memory_limit.empty()));
  return builder.cnf;
}

int start_literal(const Placement& placement, const Claim& claim, int block, long long t) {
  const Placement window = window_of(placement, claim.k);
  const long long horizon = horizon_of(claim);
  int next = 1;
  for (int b = 0; b < static_cast<int>(window.blocks.size()); ++b) {
    const long long last = horizon - window.blocks[b].span;
    if (b == block) return t < 0 || t > last ? 0 : next + static_cast<int>(last) + static_cast<int>(t);
    next += static_cast<int>(last) + static_cast<int>(last + 1) + static_cast<int>(claim.period);
  }
  return 0;
}

std::string dimacs_text(const Cnf& cnf) {
  std::string text = "p cnf " + std::to_string(cnf.variables) + " " + std::to_string(cnf.clauses.size()) + "\n";
  for (const std::vector<int>& clause : cnf.clauses) {
    for (int literal : clause) text += std::to_string(literal) + " ";
    text += "0\n";
  }
  return text;
}

}  // namespace tessel::certify
