// Recomputes chosen inside the modulo encoding (optional_recompute.hpp).
#include "solver/modulo/optional_recompute.hpp"

namespace tessel {

namespace {

// guard implies the intervals [a, a + span_a) and [b, b + span_b) do not
// meet on the circle of `period`: b lies in [a + span_a, a + period - span_b]
// or a in [b + span_b, b + period - span_a] (phases lie in [0, period)).
void add_circle_pair(Backend& backend, IntVar a, int span_a, IntVar b, int span_b, int period,
                     const std::vector<Lit>& guard) {
  if (span_a + span_b > period) {
    std::vector<Lit> never;
    for (Lit lit : guard) never.push_back(~lit);
    backend.add_clause(never);
    return;
  }
  const Lit b_after = backend.new_bool();
  std::vector<Lit> after = guard, before = guard;
  after.push_back(b_after);
  before.push_back(~b_after);
  backend.add_difference(b, a, span_a, after);
  backend.add_difference(a, b, span_b - period, after);
  backend.add_difference(a, b, span_b, before);
  backend.add_difference(b, a, span_a - period, before);
}

}  // namespace

void add_optional_exclusivity(Backend& backend, const ModuloEncoding& encoding, const Placement& placement,
                              int device) {
  std::vector<int> on;
  for (size_t b = 0; b < placement.blocks.size(); ++b)
    if (on_device(placement.blocks[b], device)) on.push_back(static_cast<int>(b));
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

Savings define_savings(Backend& backend, const ModuloEncoding& encoding,
                       const std::vector<OptionalRecompute>& optional) {
  Savings savings;
  savings.optional = &optional;
  std::vector<IntVar>& saved = savings.quotients;
  const int top = encoding.max_in_flight - 1;
  for (size_t i = 0; i < optional.size(); ++i) {
    const IntVar y = backend.new_int(0, top);
    const IntVar q_f = encoding.quotients[optional[i].forward], q_r = encoding.quotients[optional[i].recompute];
    for (int v = 1; v <= top; ++v) backend.add_difference(q_r, q_f, v, {~backend.at_most(y, v - 1)});
    if (top > 0) backend.add_clause({encoding.chosen[i], backend.at_most(y, 0)});
    saved.push_back(y);
  }
  return savings;
}

bool device_may_recompute(const std::vector<OptionalRecompute>& optional, const Placement& placement, int device) {
  for (const OptionalRecompute& choice : optional)
    if (on_device(placement.blocks[choice.forward], device)) return true;
  return false;
}

void add_savings(Backend& backend, const ModuloEncoding& encoding, const Savings& savings, const Placement& placement,
                 int device, int phase, PhaseBound& phase_bound) {
  const std::vector<OptionalRecompute>& optional = *savings.optional;
  const std::vector<IntVar>& saved_quotients = savings.quotients;
  LinearSum& sum = phase_bound.sum;
  long long& bound = phase_bound.bound;
  const int top = encoding.max_in_flight - 1;
  for (size_t i = 0; i < optional.size(); ++i) {
    const OptionalRecompute& choice = optional[i];
    if (!on_device(placement.blocks[choice.forward], device) || choice.saved <= 0) continue;
    const long long a = choice.saved;
    const Lit c = encoding.chosen[i];
    // -a y = a sum_{v < top} [y <= v] - a top
    for (int v = 0; v < top; ++v) sum.bools.push_back({a, backend.at_most(saved_quotients[i], v)});
    bound += a * top;
    // -a x, x = c and [tau(f) <= phase - 1]: a not-x - a
    const Lit x = backend.new_bool();
    backend.add_clause({~x, c});
    backend.add_clause({~x, backend.at_most(encoding.phases[choice.forward], phase - 1)});
    sum.bools.push_back({a, ~x});
    bound += a;
    // +a w, w >= c and [tau(R) <= phase]
    const Lit w = backend.new_bool();
    backend.add_clause({~c, ~backend.at_most(encoding.phases[choice.recompute], phase), w});
    sum.bools.push_back({a, w});
  }
}

}  // namespace tessel
