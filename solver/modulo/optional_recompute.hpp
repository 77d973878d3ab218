// The parts of the modulo encoding (solver/modulo/modulo_encoding.hpp) that a
// recompute or an offload chosen per block adds (docs/algorithms.md, "Memory
// traded for time"): the recompute run's exclusivity only when it is chosen,
// and what choosing a recompute or an offload saves in each phase's memory
// bound. Kept apart so that the encoding without choices reads as before.
// (The copies' channels are optional_offload.hpp's.)
//
// Memory. A chosen choice holds `saved` less on the forward's devices over
// an interval of every micro-batch, from a release event E to a block T
// starting (recompute: E the forward's end, T the recompute; offload: E the
// copy out's end, T the copy in). At phase phi of the window the
// micro-batches whose E happened and whose T did not start number
// (q(T) - q(E)) + [tau(E) <= phi] - [tau(T) <= phi] (as in the header's count
// of started copies), so the bound of phase phi loses saved x c x that,
// exactly. E is a marker block of span 0 placed no earlier than the event
// (the encoding may put it at the event itself, so nothing is lost, and a
// later marker only makes the encoding hold more than the schedule does).
// One exception keeps the encoding as it was: a recompute on devices where
// no copy can start may stand E by the forward's start, counted at phase
// phi - 1: of the micro-batches whose forward started by phi, the one that
// started at phi still runs and holds everything, and since nothing else
// starts on the device while the forward runs, every bound that matters
// (taken at a start) is exact. A copy in starts beside compute, so there
// the forward's end needs its marker.
//
// The quotient part is an integer y <= q(T) - q(E), 0 unless chosen (the
// bound only wants it large); the phase parts are literals tied to c one way
// each (x -> c and x -> [tau(E) <= phi]; c and [tau(T) <= phi] -> w), written
// with positive coefficients (-a x = a not-x - a) as the pseudo-Boolean sums
// want.
#pragma once

#include <vector>

#include "model/placement.hpp"
#include "sat/backend.hpp"
#include "solver/modulo/modulo_variables.hpp"

namespace tessel {

// guard implies the intervals [a, a + span_a) and [b, b + span_b) do not
// meet on the circle of `period` (phases lie in [0, period)); spans that
// cannot share it make the guard false.
void add_circle_pair(Backend& backend, IntVar a, int span_a, IntVar b, int span_b, int period,
                     const std::vector<Lit>& guard);

// Optional intervals on device's circle: each chosen recompute against
// every other block of the device's compute (and the other chosen
// recomputes), for every period of the encoding. A recompute that cannot fit
// beside a block at some period is simply not chosen there.
void add_optional_exclusivity(Backend& backend, const ModuloEncoding& encoding, const Placement& placement,
                              int device);

// One interval of every micro-batch in which a chosen choice holds `saved`
// less on the forward's devices: from `from` (shifted by `shift` phases, 0
// or -1) to `to`'s start.
struct Release {
  Lit chosen;
  int forward = 0;
  int from = 0;
  int shift = 0;
  int to = 0;
  long long saved = 0;
  IntVar quotient;  // y <= q(to) - q(from), 0 unless chosen
};
struct Savings {
  std::vector<Release> releases;
};
Savings define_savings(Backend& backend, const ModuloEncoding& encoding,
                       const std::vector<OptionalRecompute>& optional, const std::vector<OptionalOffload>& offloads);

// One phase's memory bound: sum <= bound.
struct PhaseBound {
  LinearSum sum;
  long long bound = 0;
};

// Adds to `phase_bound` (the constants moved across into its bound) what the
// releases whose forward is on `device` save at `phase`.
void add_savings(Backend& backend, const ModuloEncoding& encoding, const Savings& savings, const Placement& placement,
                 int device, int phase, PhaseBound& phase_bound);

// Whether any release to choose has its forward on `device`.
bool device_may_release(const Savings& savings, const Placement& placement, int device);

}  // namespace tessel
