// The parts of the modulo encoding (solver/modulo/modulo_encoding.hpp) that a
// recompute chosen per block adds (docs/algorithms.md, "Memory traded for
// time"): the recompute run's exclusivity only when it is chosen, and what
// choosing it saves in each phase's memory bound. Kept apart so that the
// encoding without choices reads as before.
//
// Memory. Chosen, forward f (on device d) keeps only its checkpoint from
// its end until its recompute R starts, `saved` = memory - checkpoint less.
// At phase phi of the window the micro-batches whose f started and whose R
// did not number (q(R) - q(f)) + [tau(f) <= phi] - [tau(R) <= phi] (as in
// the header's count of started copies); of these, the one whose f started
// at phi itself still runs and holds everything, and since nothing else
// starts on d while f runs, every bound that matters is taken at a start.
// So the bound of phase phi loses saved x c x ((q(R) - q(f)) + [tau(f) <=
// phi - 1] - [tau(R) <= phi]), exactly. The quotient part is an integer y
// <= q(R) - q(f), 0 unless chosen (the bound only wants it large); the
// phase parts are literals tied to c one way each (x -> c and x -> [tau(f)
// <= phi - 1]; c and [tau(R) <= phi] -> w), written with positive
// coefficients (-a x = a not-x - a) as the pseudo-Boolean sums want.
#pragma once

#include <vector>

#include "model/placement.hpp"
#include "sat/backend.hpp"
#include "solver/modulo/modulo_variables.hpp"

namespace tessel {

// Optional intervals on device's circle: each chosen recompute against
// every other block of the device (and the other chosen recomputes), for
// every period of the encoding. A recompute that cannot fit beside a block
// at some period is simply not chosen there.
void add_optional_exclusivity(Backend& backend, const ModuloEncoding& encoding, const Placement& placement,
                              int device);

// What the chosen recomputes save: per recompute, y <= q(R) - q(f), y = 0
// unless chosen (indexed as ModuloRules::optional).
struct Savings {
  const std::vector<OptionalRecompute>* optional = nullptr;
  std::vector<IntVar> quotients;
};
Savings define_savings(Backend& backend, const ModuloEncoding& encoding,
                       const std::vector<OptionalRecompute>& optional);

// One phase's memory bound: sum <= bound.
struct PhaseBound {
  LinearSum sum;
  long long bound = 0;
};

// Adds to `phase_bound` (the constants moved across into its bound) what the
// recomputes whose forward is on `device` save at `phase`.
void add_savings(Backend& backend, const ModuloEncoding& encoding, const Savings& savings, const Placement& placement,
                 int device, int phase, PhaseBound& phase_bound);

// Whether any recompute to choose has its forward on `device`.
bool device_may_recompute(const std::vector<OptionalRecompute>& optional, const Placement& placement, int device);

}  // namespace tessel
