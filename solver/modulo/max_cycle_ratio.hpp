// The exact period of a fixed order (docs/algorithms.md, "Measured costs").
//
// Once a Boolean answer fixes every device's order in the window and every
// block's quotient, each constraint of a modulo schedule is a difference
// t(to) - t(from) >= c - P h with integers c and h >= 0 (h counts how often
// the constraint crosses the window's end). Such a system is feasible for a
// period P exactly when no cycle of the constraint graph has positive
// weight sum(c) - P sum(h), so the smallest feasible P is the largest ratio
// sum(c) / sum(h) over the cycles (a cycle with sum(h) = 0 and sum(c) > 0
// rules out every period). Feasibility only gets easier as P grows.
//
// Why this and not the unit-step encoding: nothing here depends on the
// magnitude of the numbers. A spans of 3.712 ms in ticks of a microsecond
// costs what a span of 4 costs: the work is a Bellman-Ford pass per ratio
// tried, exact in 128-bit integers (ticks are at most 2^50, a cycle's
// crossings a few thousand). With integer data and an integer P the
// longest-path potentials are integers, so a feasible P gives start times on
// the input's tick grid.
//
// The maximum ratio is found by cycle jumping: at a ratio r, Bellman-Ford
// either proves no cycle is positive at r (then r is the maximum when it is
// the ratio of some cycle) or finds a positive cycle, whose own ratio is
// strictly larger and becomes the next r. Each jump lands on a cycle's
// ratio, so the loop ends; in practice after a handful of jumps.
#pragma once

#include <optional>
#include <vector>

namespace tessel {

// t(to) - t(from) >= constant - period * crossings.
struct DifferenceEdge {
  int from = 0;
  int to = 0;
  long long constant = 0;
  long long crossings = 0;  // >= 0
};

// numerator / denominator with denominator >= 0; denominator 0 stands for
// +infinity (a positive cycle that never crosses the window).
struct Ratio {
  long long numerator = 0;
  long long denominator = 1;

  bool infinite() const { return denominator == 0; }
  // The smallest integer >= the ratio (requires a finite ratio).
  long long ceiling() const;
};

bool operator<(const Ratio& a, const Ratio& b);
inline bool operator>(const Ratio& a, const Ratio& b) { return b < a; }
inline bool operator<=(const Ratio& a, const Ratio& b) { return !(b < a); }
bool operator==(const Ratio& a, const Ratio& b);

// A cycle of the graph: its edges in order, and its sums.
struct Cycle {
  std::vector<int> edges;  // indices into the edge list
  long long constant = 0;
  long long crossings = 0;
  Ratio ratio() const { return {constant, crossings}; }
};

// At `period` (a finite ratio): a cycle whose weight at `period` is
// positive, or none (feasible). When feasible and the period is an integer
// (denominator 1), also the least non-negative integer potentials with
// p(to) - p(from) >= constant - period * crossings on every edge.
struct PeriodCheck {
  std::optional<Cycle> positive_cycle;
  std::vector<long long> potentials;  // feasible at an integer period only
  bool feasible() const { return !positive_cycle; }
};
PeriodCheck check_period(int nodes, const std::vector<DifferenceEdge>& edges, const Ratio& period);

// The largest cycle ratio, found by jumping from `start`, which must not
// exceed it (a ratio some cycle has, or a proven lower bound of it). The
// critical cycle is the last one jumped to (none when `start` was already
// feasible: then the maximum is `start` itself).
struct MaxRatio {
  Ratio value;
  std::optional<Cycle> critical;
};
MaxRatio max_cycle_ratio(int nodes, const std::vector<DifferenceEdge>& edges, const Ratio& start);

}  // namespace tessel
