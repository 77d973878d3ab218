// Stages on ranks with physical costs: spans in steps of a resolution,
// memory in bytes (rounded up to a granule so that the memory constraints of
// the search stay small: at most 64 granules for the largest stage), static
// memory exact.
#include "partition/pipeline_placement.hpp"

#include <algorithm>
#include <cmath>

namespace tessel {

namespace {

int steps(double compute, long long resolution) {
  double value = std::round(compute / static_cast<double>(resolution));
  return static_cast<int>(std::clamp(value, 1.0, 1000000.0));
}

long long round_up(long long bytes, long long granule) { return (bytes + granule - 1) / granule * granule; }

// Per stage: the compute of the operators that hold parameters (their weight
// gradient) and the bytes of their inputs (what the weight gradient keeps
// alive after the input gradient ran).
struct WeightShare {
  std::vector<long long> compute;
  std::vector<long long> input_bytes;
  bool any_parameters = false;
};

WeightShare weight_share(const Graph& graph, const Partition& partition) {
  WeightShare share{std::vector<long long>(partition.stages, 0), std::vector<long long>(partition.stages, 0), false};
  std::vector<std::vector<int>> inputs = node_predecessors(graph);
  for (size_t v = 0; v < graph.nodes.size(); ++v) {
    if (graph.nodes[v].param_bytes <= 0) continue;
    share.any_parameters = true;
    int stage = partition.stage_of[v];
    share.compute[stage] += graph.nodes[v].compute;
    for (int input : inputs[v]) share.input_bytes[stage] += graph.nodes[input].output_bytes;
  }
  return share;
}

long long granule_for(long long largest) {
  long long granule = 1;
  while (largest / granule > 64) granule *= 2;
  return granule;
}

}  // namespace

std::optional<StageMapping> parse_mapping(const std::string& text) {
  if (text == "chain") return StageMapping::Chain;
  if (text == "interleaved") return StageMapping::Interleaved;
  if (text == "v") return StageMapping::V;
  return std::nullopt;
}

const char* mapping_name(StageMapping mapping) {
  switch (mapping) {
    case StageMapping::Chain: return "chain";
    case StageMapping::Interleaved: return "interleaved";
    case StageMapping::V: return "v";
  }
  return "?";
}

int pipeline_stages(const PipelineOptions& options) { return options.devices * options.chunks; }

std::string pipeline_options_problem(const PipelineOptions& options) {
  if (options.devices < 1 || options.devices > 1024) return "devices must be in [1, 1024]";
  if (options.chunks < 1 || options.chunks > 64) return "chunks must be in [1, 64]";
  if (options.mapping == StageMapping::Chain && options.chunks != 1)
    return "the chain mapping has one chunk per rank (use interleaved for more)";
  if (options.mapping == StageMapping::V && options.chunks != 2) return "the v mapping has exactly 2 chunks per rank";
  if (!(options.backward_ratio > 0 && options.backward_ratio < 1e6)) return "the backward ratio must be > 0";
  if (options.resolution < 0) return "the resolution must be >= 0";
  if (!(options.optimizer_bytes_per_param >= 0 && options.optimizer_bytes_per_param < 1e6))
    return "optimizer bytes per parameter must be >= 0";
  if (options.bytes_per_param < 1) return "bytes per parameter must be >= 1";
  return "";
}

int rank_of_stage(StageMapping mapping, int devices, int stage) {
  switch (mapping) {
    case StageMapping::Chain: return stage;
    case StageMapping::Interleaved: return stage % devices;
    case StageMapping::V: return stage < devices ? stage : 2 * devices - 1 - stage;
  }
  return 0;
}

PipelinePlacement pipeline_placement(const Graph& graph, const Partition& partition, const PipelineOptions& options) {
  const int S = partition.stages;
  const int D = options.devices;
  PartitionCosts costs = partition_costs(graph, partition);
  WeightShare weights = weight_share(graph, partition);
  PipelinePlacement result;
  // The default step: a quarter of the ideal stage (total / S), so that the
  // stages of a many-chunk mapping keep their proportions when rounded.
  long long total = 0;
  for (long long compute : costs.stage_compute) total += compute;
  result.resolution = options.resolution > 0 ? options.resolution : std::max(1LL, total / (4LL * S));
  result.stage_activation_bytes = costs.stage_output_bytes;
  long long largest = *std::max_element(costs.stage_output_bytes.begin(), costs.stage_output_bytes.end());
  result.memory_granule = granule_for(largest);
  result.weight_cost = !options.split_backward        ? ""
                       : weights.any_parameters ? "W = forward compute of the operators holding parameters"
                                                : "W = half of the backward (the graph has no parameters)";

  Placement& placement = result.placement;
  placement.name = graph.name.empty() ? "pipeline" : graph.name;
  placement.ndevs = D;
  std::vector<Memory> forward_memory(S), weight_memory(S, 0);
  for (int s = 0; s < S; ++s) {
    int rank = rank_of_stage(options.mapping, D, s);
    forward_memory[s] = round_up(costs.stage_output_bytes[s], result.memory_granule);
    placement.blocks.push_back({"F" + std::to_string(s), BlockKind::Forward,
                                steps(static_cast<double>(costs.stage_compute[s]), result.resolution),
                                forward_memory[s], s, {rank}});
    if (s > 0) placement.edges.push_back({s - 1, s});
  }
  int previous = S - 1;
  for (int s = S - 1; s >= 0; --s) {
    int rank = rank_of_stage(options.mapping, D, s);
    double backward = options.backward_ratio * static_cast<double>(costs.stage_compute[s]);
    int first = static_cast<int>(placement.blocks.size());
    if (!options.split_backward) {
      placement.blocks.push_back({"B" + std::to_string(s), BlockKind::Backward, steps(backward, result.resolution),
                                  -forward_memory[s], s, {rank}});
    } else {
      double weight = weights.any_parameters ? std::min(static_cast<double>(weights.compute[s]), backward / 2)
                                             : backward / 2;
      weight_memory[s] = std::min(forward_memory[s], round_up(std::min(weights.input_bytes[s], costs.stage_output_bytes[s]),
                                                              result.memory_granule));
      placement.blocks.push_back({"I" + std::to_string(s), BlockKind::BackwardInput,
                                  steps(backward - weight, result.resolution), weight_memory[s] - forward_memory[s],
                                  s, {rank}});
      placement.blocks.push_back({"W" + std::to_string(s), BlockKind::BackwardWeight, steps(weight, result.resolution),
                                  -weight_memory[s], s, {rank}});
      placement.edges.push_back({first, first + 1});
    }
    placement.edges.push_back({previous, first});
    previous = first;
  }

  result.static_bytes.assign(D, 0);
  double per_byte = 2.0 + options.optimizer_bytes_per_param / options.bytes_per_param;
  for (int s = 0; s < S; ++s)
    result.static_bytes[rank_of_stage(options.mapping, D, s)] +=
        static_cast<long long>(std::ceil(per_byte * static_cast<double>(costs.stage_param_bytes[s])));
  placement.static_memory = result.static_bytes;
  return result;
}

}  // namespace tessel
