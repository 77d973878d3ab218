// Recomputes and offloads chosen inside the modulo encoding: compute
// exclusivity of the recomputes and the memory they save
// (optional_recompute.hpp).
#include "solver/modulo/optional_recompute.hpp"

namespace tessel {

void add_circle_pair(Backend& backend, IntVar a, int span_a, IntVar b, int span_b, int period,
                     const std::vector<Lit>& guard) {
  if (span_a + span_b > period) {
    std::vector<Lit> never;
    for (Lit lit : guard) never.push_back(~lit);
    backend.add_clause(never);
    return;
  }
  // b lies in [a + span_a, a + period - span_b] or a in [b + span_b, b + period - span_a].
  const Lit b_after = backend.new_bool();
  std::vector<Lit> after = guard, before = guard;
  after.push_back(b_after);
  before.push_back(~b_after);
  backend.add_difference(b, a, span_a, after);
  backend.add_difference(a, b, span_b - period, after);
  backend.add_difference(a, b, span_b, before);
  backend.add_difference(b, a, span_a - period, before);
}

void add_optional_exclusivity(Backend& backend, const ModuloEncoding& encoding, const Placement& placement,
                              int device) {
  std::vector<int> on;
  for (size_t b = 0; b < placement.blocks.size(); ++b)
    if (on_device(placement.blocks[b], device) && encoding.lanes[b] == Lane::Compute) on.push_back(static_cast<int>(b));
  for (size_t i = 0; i < on.size(); ++i) {
    const int r = on[i];
    if (encoding.optional_of[r] < 0) continue;
    for (size_t j = 0; j < on.size(); ++j) {
      const int other = on[j];
      const int other_choice = encoding.optional_of[other];
      if (other == r || (other_choice >= 0 && j < i)) continue;  // each pair of recomputes once
      for (int period = encoding.first_period; period <= encoding.last_period; ++period) {
        std::vector<Lit> guard{encoding.chosen[encoding.optional_of[r]], period_assumption(encoding, period)};
        if (other_choice >= 0) guard.push_back(encoding.chosen[other_choice]);
        add_circle_pair(backend, encoding.phases[r], placement.blocks[r].span, encoding.phases[other],
                        placement.blocks[other].span, period, guard);
      }
    }
  }
}

namespace {

// y <= q(to) - q(from), y = 0 unless `chosen`.
IntVar release_quotient(Backend& backend, const ModuloEncoding& encoding, int from, int to, Lit chosen) {
  const int top = encoding.max_in_flight - 1;
  const IntVar y = backend.new_int(0, top);
  const IntVar q_from = encoding.quotients[from], q_to = encoding.quotients[to];
  for (int v = 1; v <= top; ++v) backend.add_difference(q_to, q_from, v, {~backend.at_most(y, v - 1)});
  if (top > 0) backend.add_clause({chosen, backend.at_most(y, 0)});
  return y;
}

}  // namespace

Savings define_savings(Backend& backend, const ModuloEncoding& encoding,
                       const std::vector<OptionalRecompute>& optional, const std::vector<OptionalOffload>& offloads) {
  Savings savings;
  for (size_t i = 0; i < optional.size(); ++i) {
    const OptionalRecompute& choice = optional[i];
    Release release{encoding.chosen[i], choice.forward, choice.release, 0, choice.recompute, choice.saved, {}};
    if (choice.release < 0) release.from = choice.forward, release.shift = -1;  // the forward's start stands for its end
    release.quotient = release_quotient(backend, encoding, release.from, release.to, release.chosen);
    savings.releases.push_back(release);
  }
  for (size_t i = 0; i < offloads.size(); ++i) {
    const OptionalOffload& choice = offloads[i];
    Release release{encoding.offloaded[i], choice.forward, choice.released, 0, choice.in, choice.saved, {}};
    release.quotient = release_quotient(backend, encoding, release.from, release.to, release.chosen);
    savings.releases.push_back(release);
  }
  return savings;
}

bool device_may_release(const Savings& savings, const Placement& placement, int device) {
  for (const Release& release : savings.releases)
    if (on_device(placement.blocks[release.forward], device)) return true;
  return false;
}

void add_savings(Backend& backend, const ModuloEncoding& encoding, const Savings& savings, const Placement& placement,
                 int device, int phase, PhaseBound& phase_bound) {
  LinearSum& sum = phase_bound.sum;
  long long& bound = phase_bound.bound;
  const int top = encoding.max_in_flight - 1;
  for (const Release& release : savings.releases) {
    if (!on_device(placement.blocks[release.forward], device) || release.saved <= 0) continue;
    const long long a = release.saved;
    const Lit c = release.chosen;
    // -a y = a sum_{v < top} [y <= v] - a top
    for (int v = 0; v < top; ++v) sum.bools.push_back({a, backend.at_most(release.quotient, v)});
    bound += a * top;
    // -a x, x = c and [tau(E) <= phase]: a not-x - a
    const Lit x = backend.new_bool();
    backend.add_clause({~x, c});
    backend.add_clause({~x, backend.at_most(encoding.phases[release.from], phase + release.shift)});
    sum.bools.push_back({a, ~x});
    bound += a;
    // +a w, w >= c and [tau(T) <= phase]
    const Lit w = backend.new_bool();
    backend.add_clause({~c, ~backend.at_most(encoding.phases[release.to], phase), w});
    sum.bools.push_back({a, w});
  }
}

}  // namespace tessel
