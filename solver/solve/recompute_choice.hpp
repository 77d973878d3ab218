// The repetend's period decided with a recompute or an offload chosen per
// offering forward (docs/algorithms.md, "Memory traded for time"): the
// modulo encoding (solver/modulo/modulo_encoding.hpp) over a placement that
// holds every offered recompute and every offered copy as blocks of their
// own, each run only when its Boolean is chosen
// (solver/modulo/optional_recompute.hpp, optional_offload.hpp). A period
// refuted here is refuted for every choice of keeping, recomputing or
// offloading, so it is a true bound again; a period found comes with the
// blocks that recompute and those that offload.
//
// A window of k micro-batches (solver/modulo/window_placement.hpp) chooses
// per window position: the choice placement is built on the window
// placement, so copy c of a forward has a Boolean of its own, and micro-batch
// k g + c recomputes (offloads) that forward when copy c chose to.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/schedule.hpp"
#include "sat/answer.hpp"
#include "sat/deadline.hpp"
#include "solver/types/search_types.hpp"
#include "solver/modulo/modulo_encoding.hpp"

namespace tessel {

// The window placement's blocks first (same indices, same memory: for k = 1
// the original placement's), then per window forward offering recomputation
// its run (the offer's span, its devices, memory 0: the encoding counts what
// choosing it saves) and, where copies may start on its devices, a marker
// of its end; then per window forward offering offload its copy out, a
// marker of the copy out's end and its copy in.
struct RecomputeChoicePlacement {
  int micros_per_window = 1;  // k
  int blocks_per_copy = 0;    // n, the original placement's blocks
  Placement window;           // the window placement, without runs
  Placement placement;
  std::vector<OptionalRecompute> optional;
  std::vector<OptionalOffload> offloads;
};

// nullopt when no block offers recomputation or offload.
std::optional<RecomputeChoicePlacement> recompute_choice_placement(const Placement& original, int k = 1);

// A window forward's block in the original placement and its window
// position: window block c n + b is block b of position c.
inline int original_block(const RecomputeChoicePlacement& choice, int window_block) {
  return window_block % choice.blocks_per_copy;
}
inline int window_position(const RecomputeChoicePlacement& choice, int window_block) {
  return window_block / choice.blocks_per_copy;
}

struct RecomputeChoiceQuestion {
  const Placement* placement = nullptr;     // static memory taken off, as the period search sees it
  int micros_per_window = 1;                // k: periods are a window's, choices per position
  std::vector<long long> memory_limit;      // per device, what static memory leaves
  std::string backend = "cadical";
  PeriodRange periods;                      // the periods decided (see decide_periods_choosing_recompute)
  int max_in_flight = 1;
  bool minimise_latency = true;
};

struct RecomputeChoiceAnswer {
  Time proven_lower_bound = 0;  // every period below it refuted, for every choice
  std::optional<Time> period;   // the least period found in the range
  std::vector<int> starts;      // per block of the choice placement (a run's only meaningful if chosen)
  std::vector<bool> chosen;     // per offering forward, in RecomputeChoicePlacement::optional's order
  std::vector<bool> offloaded;  // per offering forward, in RecomputeChoicePlacement::offloads' order
  Time latency = 0;
  bool latency_minimal = false;
  bool decided = true;          // every period below `period` (or the range) refuted; false: the deadline struck first
  int refuted = 0;              // periods refuted
};

// The size of the question's encoding, estimated before it is built (the
// modulo encoding watches its deadline only between its parts), in the
// terms of affords_encoding (solver/knobs/encoding_budget.hpp): what
// dominates is one memory bound per device and phase of the longest
// period, a counter over the device's memory changes, each allocation's
// quotient gap and each offer's count of releases (both unary up to Kmax),
// about its terms squared; then every start bounded at every quotient
// value, per period. Measured (CaDiCaL, fast on nnshape offering
// recomputation): 5.5 million terms built in 0.55 s on 32 devices, 45
// million in 4.3 s on 64, about the 10 million a second of
// encoding_terms_per_second.
double choice_encoding_terms(const RecomputeChoicePlacement& choice, const RecomputeChoiceQuestion& question);

// Periods periods.first .. periods.last, one encoding, each by assumption:
// from the first up until one is found (after the first, within half the
// time then left); where that does not end, from the last down with the
// rest, keeping the least found (a period refuted on the way down is not claimed: only the
// rising refutations make the proven bound). The least found gets its
// least latency.
RecomputeChoiceAnswer decide_periods_choosing_recompute(const RecomputeChoiceQuestion& question,
                                                        const Deadline& deadline);

// The repetend's windows one period apart (`nmicros` micro-batches: the last
// window may be cut short), the chosen recomputes and copies listed, as a schedule of
// `original` under `limits` (valid whenever the repetend is: a micro-batch
// holds nothing negative, so fewer in flight never hold more).
Schedule unrolled_choosing_recompute(const RecomputeChoicePlacement& choice, const RecomputeChoiceAnswer& answer,
                                     const Placement& original, const std::vector<Memory>& limits, int nmicros);

// The same schedule with every instance and recompute as early as its
// inputs and the order on its devices allow (solver/makespan/improvements/
// neighbourhood.hpp's compaction, on the window placement holding the chosen
// recomputes as blocks; a last window cut short is compacted whole and its
// micro-batches past `nmicros` dropped, which frees memory only). Compaction
// ignores what a forward holds while it runs, so the caller judges it with
// the verifier. Compaction knows no channel: an offloading forward's
// dependants wait for both copies' time, and the copies are laid on the
// channels afterwards (channel_copies.hpp); where they find no room, the
// schedule comes back unrolled as above.
Schedule compacted_choosing_recompute(const RecomputeChoicePlacement& choice, const RecomputeChoiceAnswer& answer,
                                      const Placement& original, const std::vector<Memory>& limits, int nmicros);

// The forwards the answer recomputes, each with its window positions, in
// the original placement's block order (tools/ words them).
std::vector<ChosenRecompute> chosen_recomputes(const RecomputeChoicePlacement& choice,
                                               const RecomputeChoiceAnswer& answer);
// The same for the forwards it offloads.
std::vector<ChosenRecompute> chosen_offloads(const RecomputeChoicePlacement& choice,
                                             const RecomputeChoiceAnswer& answer);

}  // namespace tessel
