// Stage costs to placement blocks: rounding compute to steps and bytes to
// memory units, never below one step (a block always takes time) and never
// rounding a non-zero activation down to nothing.
#include "partition/stage_placement.hpp"

#include <algorithm>
#include <cmath>

namespace tessel {

namespace {

int steps(double compute, long long resolution) {
  double value = std::round(compute / static_cast<double>(resolution));
  return static_cast<int>(std::clamp(value, 1.0, 1000000.0));
}

}  // namespace

StagePlacement stage_placement(const Graph& graph, const Partition& partition,
                               const StagePlacementOptions& options) {
  PartitionCosts costs = partition_costs(graph, partition);
  StagePlacement result;
  result.resolution = options.resolution > 0 ? options.resolution : std::max(1LL, (costs.bottleneck + 3) / 4);
  long long largest_activation = *std::max_element(costs.stage_output_bytes.begin(), costs.stage_output_bytes.end());
  result.memory_unit = options.memory_unit > 0 ? options.memory_unit : std::max(1LL, largest_activation);

  Placement& placement = result.placement;
  placement.name = graph.name.empty() ? "partition" : graph.name;
  placement.ndevs = partition.stages;
  const int S = partition.stages;
  for (int s = 0; s < S; ++s) {
    long long activation = costs.stage_output_bytes[s];
    long long memory = (activation + result.memory_unit - 1) / result.memory_unit;
    Block forward{"f" + std::to_string(s), BlockKind::Forward,
                  steps(static_cast<double>(costs.stage_compute[s]), result.resolution), memory, s, {s}};
    placement.blocks.push_back(forward);
  }
  for (int s = S - 1; s >= 0; --s) {
    Block backward{"b" + std::to_string(s), BlockKind::Backward,
                   steps(options.backward_ratio * static_cast<double>(costs.stage_compute[s]), result.resolution),
                   -placement.blocks[s].memory, s, {s}};
    placement.blocks.push_back(backward);
  }
  for (int i = 0; i + 1 < 2 * S; ++i) placement.edges.push_back({i, i + 1});
  return result;
}

}  // namespace tessel
