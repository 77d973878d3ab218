// The repetend's period decided with a recompute chosen per offering
// forward (docs/algorithms.md, "Memory traded for time"): the modulo
// encoding (solver/modulo/modulo_encoding.hpp) over a placement that holds every
// offered recompute as a block of its own, each run only when its Boolean is
// chosen (solver/modulo/optional_recompute.hpp). A period refuted here is refuted
// for every choice of keeping or recomputing, so it is a true bound again;
// a period found comes with the blocks that recompute.
//
// Windows of one micro-batch only (k = 1): every micro-batch of a block
// makes the same choice. Offload is not chosen here (a copy runs beside
// compute, on a channel the encoding does not have): on a placement that
// offers offload too, a refutation says nothing about offloading schedules.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/schedule.hpp"
#include "sat/answer.hpp"
#include "sat/deadline.hpp"
#include "solver/makespan/recompute_all.hpp"
#include "solver/modulo/modulo_encoding.hpp"

namespace tessel {

// The original blocks first (same indices, same memory), then one run per
// forward offering recomputation (the offer's span, its devices, memory 0:
// the encoding counts what choosing it saves).
struct RecomputeChoicePlacement {
  Placement placement;
  std::vector<OptionalRecompute> optional;
  RecomputedPlacement runs;  // maps the runs' blocks back to their forwards
};

// nullopt when no block offers recomputation.
std::optional<RecomputeChoicePlacement> recompute_choice_placement(const Placement& original);

struct RecomputeChoiceQuestion {
  const Placement* placement = nullptr;     // static memory taken off, as the period search sees it
  std::vector<long long> memory_limit;      // per device, what static memory leaves
  std::string backend = "cadical";
  PeriodRange periods;                      // decided from first up, stopping at the first found
  int max_in_flight = 1;
  bool minimise_latency = true;
};

struct RecomputeChoiceAnswer {
  Time proven_lower_bound = 0;  // every period below it refuted, for every choice
  std::optional<Time> period;   // the least period found in the range
  std::vector<int> starts;      // per block of the choice placement (a run's only meaningful if chosen)
  std::vector<bool> chosen;     // per offering forward, in RecomputeChoicePlacement::optional's order
  Time latency = 0;
  bool latency_minimal = false;
  bool decided = true;          // false: the deadline struck before the range was decided
  int refuted = 0;              // periods refuted
};

// Periods periods.first .. periods.last, one encoding, each by assumption.
RecomputeChoiceAnswer decide_periods_choosing_recompute(const RecomputeChoiceQuestion& question,
                                                        const Deadline& deadline);

// The repetend's micro-batches one period apart (`nmicros` of them), the
// chosen recomputes listed, as a schedule of `original` under `limits`
// (valid whenever the repetend is: a micro-batch holds nothing negative, so
// fewer in flight never hold more).
Schedule unrolled_choosing_recompute(const RecomputeChoicePlacement& choice, const RecomputeChoiceAnswer& answer,
                                     const Placement& original, const std::vector<Memory>& limits, int nmicros);

// The same schedule with every instance and recompute as early as its
// inputs and the order on its devices allow (solver/makespan/improvements/
// neighbourhood.hpp's compaction, on the placement holding the chosen
// recomputes as blocks). Compaction ignores what a forward holds while it
// runs, so the caller judges it with the verifier.
Schedule compacted_choosing_recompute(const RecomputeChoicePlacement& choice, const RecomputeChoiceAnswer& answer,
                                      const Placement& original, const std::vector<Memory>& limits, int nmicros);

// "f0, f2 recomputed (2 of 4 offering forwards)".
std::string chosen_text(const RecomputeChoicePlacement& choice, const RecomputeChoiceAnswer& answer);

}  // namespace tessel
