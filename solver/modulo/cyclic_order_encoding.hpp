// The repetend with the time values taken out of the Boolean problem
// (docs/algorithms.md, "Measured costs"): the SAT part decides what the
// unit-step modulo encoding decides except the phases themselves.
//
// Per block the quotient q(b) in [0, Kmax) as before, and per pair of blocks
// that share a device one literal [tau(x) < tau(y)], "x starts before y in
// the window" (transitive, so each device's blocks are in a linear order in
// the window, hence a cyclic order on the circle). Everything else follows:
//  - exclusivity: for x before y, tau(y) - tau(x) >= span(x) (x ends before
//    y starts) and tau(x) - tau(y) >= span(y) - P (y, maybe wrapping past
//    the window's end, ends before x's next copy starts);
//  - a dependency a -> b with quotient gap g = q(b) - q(a) is
//    tau(b) - tau(a) >= span(a) + delay - g P, with gap literals as in the
//    unit-step encoding (modulo_encoding.hpp);
//  - the window: 0 <= tau(b) <= P - 1; at most Kmax micro-batches in flight:
//    tau(b) + span(b) <= P when q(b) = Kmax - 1;
//  - memory depends on the order alone: at the start of block x the device
//    holds `held` (steady_memory.hpp) plus the deltas of x and of every block
//    before x in the window, a pseudo-Boolean bound over order literals with
//    no time value in it.
// So a Boolean answer fixes a system of differences t(to) - t(from) >=
// c - P h (max_cycle_ratio.hpp), whose smallest feasible period is exact.
// The search (order_period_search.hpp) asks the SAT solver for answers and
// turns every positive cycle into a clause: the size of this encoding, and
// of every clause learned, is independent of the time values.
#pragma once

#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "model/placement.hpp"
#include "sat/backend.hpp"
#include "solver/modulo/max_cycle_ratio.hpp"
#include "solver/modulo/modulo_encoding.hpp"

namespace tessel {

struct OrderDependency {
  int from = 0;
  int to = 0;
  Time constant = 0;          // span(from) + delay
  std::vector<Lit> at_least;  // at_least[j] = [q(to) - q(from) >= j] for j >= 1 ([0] unused)
};

struct CyclicOrderEncoding {
  int max_in_flight = 0;
  Time period_floor = 0;           // L or the memory-rate bound: no answer has a shorter period
  std::vector<IntVar> quotients;   // q(b) in [0, Kmax)
  std::map<std::pair<int, int>, Lit> before;  // (x, y), x < y, sharing a device: [tau(x) < tau(y)]
  std::vector<OrderDependency> dependencies;
  std::vector<std::optional<Lit>> first;      // symmetry: [s(b) = 0] for source blocks
  bool complete = true;                        // false: the deadline struck while encoding
};

// Requires every device's memory balance to be zero (checked by the caller).
CyclicOrderEncoding encode_cyclic_order(Backend& backend, const Placement& placement,
                                        const std::vector<long long>& memory_limit, int max_in_flight,
                                        const ModuloRules& rules = {}, const Deadline& deadline = {});

// Node of the constraint graph: 0 is the window's start, block b is b + 1.
inline int window_node() { return 0; }
inline int block_node(size_t block) { return static_cast<int>(block) + 1; }

// A difference the Boolean answer implies, with the true literals that
// imply it (empty: always holds). `fixed_period`: its constant was computed
// for one period (the latency bound) and must not be read at another.
struct ImpliedDifference {
  DifferenceEdge edge;
  std::vector<Lit> because;
  bool fixed_period = false;
};

// "Every s(b) + span(b) <= latency at period `period`", as one literal.
struct LatencyBound {
  Time period = 0;
  Time latency = 0;
  Lit literal;
};

// The differences of the last Sat answer (backend values), plus the latency
// bound's when it is given and its literal is true.
std::vector<ImpliedDifference> implied_differences(Backend& backend, const CyclicOrderEncoding& encoding,
                                                   const Placement& placement,
                                                   const std::optional<LatencyBound>& latency = std::nullopt);

// Every difference some Boolean answer may select, each with the literals
// that select it (a conjunction; empty: always): what implied_differences
// reads off one answer, for a solver that reasons on all of them at once
// (difference_logic_period.hpp). A dependency's gap of at most j gives one
// edge per j, the strongest true one being the answer's gap.
std::vector<ImpliedDifference> guarded_differences(Backend& backend, const CyclicOrderEncoding& encoding,
                                                   const Placement& placement);

// The starts s(b) = q(b) P + tau(b) of the last Sat answer at period P, the
// phases from the least potentials of its differences (P must be feasible).
std::vector<Time> order_starts(Backend& backend, const CyclicOrderEncoding& encoding,
                               const std::vector<ImpliedDifference>& differences, Time period);

}  // namespace tessel
