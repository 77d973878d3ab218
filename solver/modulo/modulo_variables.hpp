// The variables of the modulo encoding (solver/modulo/modulo_encoding.hpp),
// apart from the function that writes them: the pieces the encoding calls
// (solver/modulo/optional_recompute.hpp) read them, and the encoding calls
// those pieces, so the types sit one level below both.
#pragma once

#include <optional>
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
// `release` (when >= 0) is a marker block of span 0 no earlier than the
// forward's end and no later than the recompute's start: where copies may
// start on the forward's devices while it runs, the forward's start no
// longer stands for its end (optional_recompute.hpp says why).
struct OptionalRecompute {
  int forward = 0;
  int recompute = 0;
  long long saved = 0;  // memory - checkpoint_memory, in the limit's units
  int release = -1;
};

// An offload the repetend may choose: three blocks of the placement, each
// present only when the offload's literal is chosen. `out` and `in` are the
// copies (spans the offer's out and in, on the forward's devices' copy
// channels: never on their compute), `released` a marker of span 0, with
// edges forward -> out -> released -> in -> before. The forward's whole
// memory (`saved`) is not held from `released` (no earlier than the copy
// out's end) until the copy in starts.
struct OptionalOffload {
  int forward = 0;
  int out = 0;
  int released = 0;
  int in = 0;
  long long saved = 0;
};

// Where a block runs: on its devices' compute (the placement's blocks and
// the recomputes), on their copy channels (the copies), or nowhere (a
// marker of span 0 that only times a release of memory).
enum class Lane : char { Compute, Channel, Marker };

struct ModuloEncoding {
  int first_period = 0;
  int last_period = 0;
  int max_in_flight = 0;             // Kmax: q(b) < Kmax
  std::vector<IntVar> quotients;     // q(b) in [0, Kmax)
  std::vector<IntVar> phases;        // tau(b) in [0, last_period)
  std::vector<Lit> period_selectors; // [p - first_period]: "the period is p"
  std::vector<Lit> chosen;           // per ModuloRules::optional: the recompute runs
  std::vector<Lit> offloaded;        // per ModuloRules::offloads: the copies run
  std::vector<int> optional_of;      // per block: its index in ModuloRules::optional (a run or its marker), or -1
  std::vector<int> offload_of;       // per block: its index in ModuloRules::offloads, or -1
  std::vector<Lane> lanes;           // per block
  bool complete = true;              // false: the deadline struck while encoding
};

// The literal a block of a choice is present under; nullopt for the
// placement's own blocks, which always are.
inline std::optional<Lit> presence(const ModuloEncoding& encoding, size_t block) {
  if (encoding.optional_of[block] >= 0) return encoding.chosen[encoding.optional_of[block]];
  if (encoding.offload_of[block] >= 0) return encoding.offloaded[encoding.offload_of[block]];
  return std::nullopt;
}

// The assumption selecting `period` (first_period <= period <= last_period).
inline Lit period_assumption(const ModuloEncoding& encoding, int period) {
  if (period < encoding.first_period || period > encoding.last_period)
    throw std::invalid_argument("period_assumption: period " + std::to_string(period) + " is not encoded");
  return encoding.period_selectors[period - encoding.first_period];
}

}  // namespace tessel
