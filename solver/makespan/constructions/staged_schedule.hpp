// A schedule outside the repetend form: the blocks that run on every device
// and hold no memory (the tensor-parallel embeddings of mshape, nnshape)
// are taken out of the pipeline, run for every micro-batch at the start
// (those before the rest) and at the end (those after it), and the
// remaining placement gets its own repetend search in between.
//
// Why: such a block costs every device the same step wherever it runs, so
// batching it loses nothing, yet inside a repetend it must find a step that
// is free on all devices at once, which under tight memory can cost a whole
// extra period. Measured: mshape, 4 devices, memory 4: the best repetend
// has period 7 (6 proven impossible), 905 steps at 128 micro-batches; the
// staged schedule takes 128 + 524 + 128 = 780, the lower bound. Its
// prefix grows with N, so it does not unroll: it is built for one N.
#pragma once

#include <optional>

#include "model/schedule.hpp"
#include "solver/types/search_result.hpp"

namespace tessel {

struct StagedSchedule {
  Schedule schedule;        // total_micros = N, no repetend
  int middle_period = 0;    // the repetend period of the remaining placement
  int prefix_blocks = 0;    // blocks batched at the start
  int suffix_blocks = 0;    // and at the end
};

// nullopt when the placement has no such block at either end, the middle
// search finds nothing within `options` (its deadline, boundary budget), or
// N is below what the middle's repetend unrolls to.
std::optional<StagedSchedule> staged_schedule(const Placement& placement, const SearchOptions& options,
                                              int total_micros);

// No staged schedule of N micro-batches is shorter than this: the batched
// blocks' steps, N times, plus the middle's makespan bound under `limits`
// (solver/makespan/closed_bound/makespan_bound.hpp). 0 when there is nothing to batch. Cheap: the
// makespan search skips the middle's repetend search when this is not below
// the best schedule it already has.
long long staged_lower_bound(const Placement& placement, const std::vector<Memory>& limits, int total_micros);

}  // namespace tessel
