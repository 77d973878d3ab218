// From stages to the schedule search's input (issue 7, step 6): a
// `tessel.placement/1` with a forward and a backward block per stage, stage
// s on device s, chained f0 -> ... -> f(S-1) -> b(S-1) -> ... -> b0 (the
// 1F1B "vshape" of the partitioned model). Spans are stage compute in
// integer steps of `resolution` compute units; memory is the stage's
// activations (the output bytes of its nodes) in units of `memory_unit`
// bytes, held from the forward's start until the backward's start frees it.
#pragma once

#include <string>

#include "model/graph.hpp"
#include "model/placement.hpp"
#include "partition/partition.hpp"

namespace tessel {

struct StagePlacementOptions {
  long long resolution = 0;   // compute per step; 0 = slowest stage's compute / 4 (its forward is 4 steps)
  double backward_ratio = 2;  // backward compute = ratio * forward compute
  long long memory_unit = 0;  // bytes per memory unit; 0 = the largest stage's activations (so 1 each)
};

struct StagePlacement {
  Placement placement;
  long long resolution = 0;   // what was used
  long long memory_unit = 0;  // what was used
};

// Requires a valid partition; options must be >= 0 (ratio > 0).
StagePlacement stage_placement(const Graph& graph, const Partition& partition,
                               const StagePlacementOptions& options);

}  // namespace tessel
