// Arithmetic on the circle of one period, shared by the dynamic programs
// that decide periods (chain_period, crossed_chains): phases are residues
// modulo the period, and a block occupies an arc of its span.
#pragma once

#include "model/placement.hpp"

namespace tessel {

// value mod period in [0, period).
inline long long modulo(long long value, int period) {
  const long long rest = value % period;
  return rest < 0 ? rest + period : rest;
}

// The least gap g >= least with g = residue (mod period): the shortest
// distance from a block to its successor that puts the successor at the
// phase `residue` later. A longer gap of the same residue moves no phase.
inline long long least_gap(Time least, long long residue, int period) {
  return least + modulo(residue - least, period);
}

// [x, x + x_span) and [y, y + y_span) meet on the circle of length `period`.
inline bool arcs_meet(long long x, Time x_span, long long y, Time y_span, int period) {
  return modulo(y - x, period) < x_span || modulo(x - y, period) < y_span;
}

}  // namespace tessel
