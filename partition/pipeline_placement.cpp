// Stages on ranks with physical costs: spans in steps of a resolution,
// memory in bytes (rounded up to a granule so that the memory constraints of
// the search stay small: at most 64 granules for the largest stage), static
// memory exact.
#include "partition/pipeline_placement.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <tuple>

namespace tessel {

namespace {

int steps(double compute, long long resolution) {
  double value = std::round(compute / static_cast<double>(resolution));
  return static_cast<int>(std::clamp(value, 1.0, 1000000.0));
}

long long round_up(long long bytes, long long granule) { return (bytes + granule - 1) / granule * granule; }

// An operator with a weight gradient: it holds parameters, or it is a
// linear or convolution whose weight lives elsewhere -- a tied weight (GPT-2's
// language-model head uses the token embedding's) is counted once, at the
// operator that holds it, yet every operator using it computes a gradient
// for it.
bool has_weight_gradient(const GraphNode& node) {
  return node.param_bytes > 0 || node.op == "linear" || node.op.rfind("conv", 0) == 0;
}

// Per stage: the compute of the operators with a weight gradient (it costs
// about their forward) and the bytes of their inputs (what the weight
// gradient keeps alive after the input gradient ran).
struct WeightShare {
  std::vector<long long> compute;
  std::vector<long long> input_bytes;
  bool any_parameters = false;
};

WeightShare weight_share(const Graph& graph, const Partition& partition) {
  WeightShare share{std::vector<long long>(partition.stages, 0), std::vector<long long>(partition.stages, 0), false};
  std::vector<std::vector<int>> inputs = node_predecessors(graph);
  for (size_t v = 0; v < graph.nodes.size(); ++v) {
    if (!has_weight_gradient(graph.nodes[v])) continue;
    share.any_parameters = true;
    int stage = partition.stage_of[v];
    share.compute[stage] += graph.nodes[v].compute;
    for (int input : inputs[v]) share.input_bytes[stage] += graph.nodes[input].output_bytes;
  }
  return share;
}

// The exact compute of every block a stage gets (F, then B or I and W).
std::vector<std::vector<double>> block_compute(const PartitionCosts& costs, const WeightShare& weights,
                                               const PipelineOptions& options) {
  std::vector<std::vector<double>> blocks;
  for (size_t s = 0; s < costs.stage_compute.size(); ++s) {
    double forward = static_cast<double>(costs.stage_compute[s]);
    double backward = options.backward_ratio * forward;
    if (!options.split_backward) {
      blocks.push_back({forward, backward});
      continue;
    }
    double weight = weights.any_parameters ? std::min(static_cast<double>(weights.compute[s]), backward / 2)
                                           : backward / 2;
    blocks.push_back({forward, backward - weight, weight});
  }
  return blocks;
}

// The default step. It starts at a quarter of the ideal stage (total / S),
// so that the stages of a many-chunk mapping keep their proportions, and is
// halved (down to a 32nd) while the busiest rank's rounded work is more than
// 3% off its exact work: the busiest rank sets the pace of the pipeline, and
// rounding there -- a heavy stage rounded up, a stage of no compute still
// taking one step per block -- would be charged to every micro-batch. A
// language-model head next to an embedding on the first rank of a V is such
// a case.
long long default_resolution(const std::vector<std::vector<double>>& blocks, const PipelineOptions& options) {
  const int S = static_cast<int>(blocks.size());
  double total = 0;
  for (const auto& stage : blocks) total += stage.front();
  const long long coarsest = std::max(1LL, static_cast<long long>(total / (4.0 * S)));
  const long long finest = std::max(1LL, coarsest / 8);
  auto error = [&](long long resolution) {
    std::vector<double> exact(options.devices, 0), rounded(options.devices, 0);
    for (int s = 0; s < S; ++s)
      for (double compute : blocks[s]) {
        int rank = rank_of_stage(options.mapping, options.devices, s);
        exact[rank] += compute;
        rounded[rank] += static_cast<double>(steps(compute, resolution)) * static_cast<double>(resolution);
      }
    double busiest = *std::max_element(exact.begin(), exact.end());
    return busiest > 0 ? std::abs(*std::max_element(rounded.begin(), rounded.end()) - busiest) / busiest : 0.0;
  };
  long long resolution = coarsest;
  while (resolution > finest && error(resolution) > 0.03) resolution = std::max(finest, resolution / 2);
  return resolution;
}

// Per stage, the bytes a recompute must keep to run the stage again: the
// outputs of earlier stages it reads, and the graph's own inputs it holds
// (an operator without predecessors, such as the token ids).
std::vector<long long> stage_input_bytes(const Graph& graph, const Partition& partition) {
  std::vector<long long> bytes(partition.stages, 0);
  std::vector<std::vector<int>> inputs = node_predecessors(graph);
  std::vector<std::vector<int>> readers = node_successors(graph);
  for (size_t v = 0; v < graph.nodes.size(); ++v) {
    const int own = partition.stage_of[v];
    if (inputs[v].empty()) bytes[own] += graph.nodes[v].output_bytes;
    std::vector<int> read_at;
    for (int w : readers[v])
      if (partition.stage_of[w] != own) read_at.push_back(partition.stage_of[w]);
    std::sort(read_at.begin(), read_at.end());
    read_at.erase(std::unique(read_at.begin(), read_at.end()), read_at.end());
    for (int stage : read_at) bytes[stage] += graph.nodes[v].output_bytes;
  }
  return bytes;
}

// Every forward offers to be run again before its stage's backward,
// keeping its inputs (recompute Auto and All).
void offer_recompute(PipelinePlacement& result, const std::vector<Memory>& forward_memory) {
  Placement& placement = result.placement;
  for (size_t s = 0; s < forward_memory.size(); ++s) {
    Block& forward = placement.blocks[s];
    const Memory checkpoint = std::min(forward_memory[s], round_up(result.stage_input_bytes[s], result.memory_granule));
    forward.recompute = RecomputeOffer{forward.span, result.backward_of_stage[s], checkpoint};
  }
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

std::optional<RecomputeMode> parse_recompute_mode(const std::string& text) {
  if (text == "none") return RecomputeMode::None;
  if (text == "auto") return RecomputeMode::Auto;
  if (text == "all") return RecomputeMode::All;
  return std::nullopt;
}

const char* recompute_mode_name(RecomputeMode mode) {
  switch (mode) {
    case RecomputeMode::None: return "none";
    case RecomputeMode::Auto: return "auto";
    case RecomputeMode::All: return "all";
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
    return "optimizer bytes per parameter must be in [0, 1e6)";
  if (options.bytes_per_param < 1 || options.bytes_per_param > 16) return "bytes per parameter must be in [1, 16]";
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

namespace {

// Per rank: the bytes of tied parameters its operators use while their
// holder sits on another rank (graph.hpp, TiedParameter). The rank keeps its
// own copy with gradient and optimizer state (the gradients of the copies
// are summed across ranks, docs/runtime.md), once however many of its
// operators use it; a rank that holds the parameter counts it once, as
// its holder's param_bytes.
std::vector<long long> tied_copies(const Graph& graph, const Partition& partition, const PipelineOptions& options,
                                   int D) {
  std::vector<long long> bytes(D, 0);
  std::set<std::tuple<int, int, long long>> counted;  // (rank, holder, bytes)
  for (size_t v = 0; v < graph.nodes.size(); ++v) {
    const int rank = rank_of_stage(options.mapping, D, partition.stage_of[v]);
    for (const TiedParameter& tie : graph.nodes[v].tied) {
      if (rank_of_stage(options.mapping, D, partition.stage_of[tie.holder]) == rank) continue;
      if (counted.insert({rank, tie.holder, tie.bytes}).second) bytes[rank] += tie.bytes;
    }
  }
  return bytes;
}

}  // namespace

PipelinePlacement pipeline_placement(const Graph& graph, const Partition& partition, const PipelineOptions& options) {
  const int S = partition.stages;
  const int D = options.devices;
  PartitionCosts costs = partition_costs(graph, partition);
  WeightShare weights = weight_share(graph, partition);
  PipelinePlacement result;
  result.resolution =
      options.resolution > 0 ? options.resolution : default_resolution(block_compute(costs, weights, options), options);
  result.stage_activation_bytes = costs.stage_output_bytes;
  result.stage_input_bytes = stage_input_bytes(graph, partition);
  result.backward_of_stage.assign(S, -1);
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
    result.block_compute.push_back(static_cast<double>(costs.stage_compute[s]));
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
    result.backward_of_stage[s] = first;
    if (!options.split_backward) {
      result.block_compute.push_back(backward);
      placement.blocks.push_back({"B" + std::to_string(s), BlockKind::Backward, steps(backward, result.resolution),
                                  -forward_memory[s], s, {rank}});
    } else {
      double weight = weights.any_parameters ? std::min(static_cast<double>(weights.compute[s]), backward / 2)
                                             : backward / 2;
      weight_memory[s] = std::min(forward_memory[s], round_up(std::min(weights.input_bytes[s], costs.stage_output_bytes[s]),
                                                              result.memory_granule));
      result.block_compute.push_back(backward - weight);
      result.block_compute.push_back(weight);
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
  // Per byte of the graph's fp32 parameters: weight + gradient + optimizer state.
  double per_byte = (2.0 * options.bytes_per_param + options.optimizer_bytes_per_param) / kGraphBytesPerParam;
  std::vector<long long> held = tied_copies(graph, partition, options, D);
  for (int s = 0; s < S; ++s) held[rank_of_stage(options.mapping, D, s)] += costs.stage_param_bytes[s];
  for (int r = 0; r < D; ++r)
    result.static_bytes[r] = static_cast<long long>(std::ceil(per_byte * static_cast<double>(held[r])));
  placement.static_memory = result.static_bytes;
  if (options.recompute != RecomputeMode::None) offer_recompute(result, forward_memory);
  return result;
}

}  // namespace tessel
