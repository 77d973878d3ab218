// The variables of the modulo encoding (solver/modulo/modulo_encoding.hpp),
// apart from the function that writes them: the pieces the encoding calls
// (solver/modulo/optional_recompute.hpp) read them, and the encoding calls
// those pieces, so the types sit one level below both.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

#include "sat/backend.hpp"

namespace tessel {

// A recompute the repetend may choose (docs/algorithms.md, "Memory traded
// for time"): `recompute` is a block of the placement (the offer's span on
// the forward's devices, edges forward -> recompute -> before) that runs
// only when its literal is chosen; its edges and exclusivity hold only
// then. Its memory is 0 in the placement: chosen, the forward keeps only
// its checkpoint from its end until the recompute starts, `saved` less,
// which the memory bounds subtract (solver/solve/recompute_choice.hpp builds it).
struct OptionalRecompute {
  int forward = 0;
  int recompute = 0;
  long long saved = 0;  // memory - checkpoint_memory, in the limit's units
};

struct ModuloEncoding {
  int first_period = 0;
  int last_period = 0;
  int max_in_flight = 0;             // Kmax: q(b) < Kmax
  std::vector<IntVar> quotients;     // q(b) in [0, Kmax)
  std::vector<IntVar> phases;        // tau(b) in [0, last_period)
  std::vector<Lit> period_selectors; // [p - first_period]: "the period is p"
  std::vector<Lit> chosen;           // per ModuloRules::optional: the recompute runs
  std::vector<int> optional_of;      // per block: its index in ModuloRules::optional, or -1
  bool complete = true;              // false: the deadline struck while encoding
};

// The assumption selecting `period` (first_period <= period <= last_period).
inline Lit period_assumption(const ModuloEncoding& encoding, int period) {
  if (period < encoding.first_period || period > encoding.last_period)
    throw std::invalid_argument("period_assumption: period " + std::to_string(period) + " is not encoded");
  return encoding.period_selectors[period - encoding.first_period];
}

}  // namespace tessel
