// The order encoding of a bounded integer (Tamura et al., "Compiling finite
// linear CSP into SAT", 2009): x in [lo, hi] is represented by the literals
// [x <= v] for v in [lo, hi), chained by [x <= v] -> [x <= v + 1].
//
// Why this encoding: every constraint a schedule search needs is monotone in
// start steps and phases. A difference x - y >= c becomes one binary clause
// per value, "x starts at or before t" is a single literal (the occupancy of
// a step is two), and the memory in use at a phase is a sum over exactly
// these literals (docs/algorithms.md, "Backends"). Propagation on the chain gives the
// solver bounds reasoning for free.
#pragma once

#include <vector>

#include "sat/cnf_sink.hpp"

namespace tessel::cnf {

struct OrderVar {
  int lo = 0;
  int hi = 0;
  std::vector<Lit> le;  // le[v - lo] = [x <= v] for v in [lo, hi)
};

// A fresh integer with its chain clauses.
OrderVar make_order_var(Sink& sink, int lo, int hi);

// [x <= value]; the sink's constants outside [lo, hi).
Lit order_at_most(const Sink& sink, const OrderVar& x, long long value);

// guard implies x - y >= c, as: for every value v of x, [x <= v] -> [y <= v - c].
void add_order_difference(Sink& sink, const OrderVar& x, const OrderVar& y, long long c,
                          const std::vector<Lit>& guard);

// The value of x in a model given as a literal evaluator.
template <typename Evaluate>
int order_value(const OrderVar& x, Evaluate&& is_true) {
  for (int v = x.lo; v < x.hi; ++v)
    if (is_true(x.le[v - x.lo])) return v;
  return x.hi;
}

}  // namespace tessel::cnf
