// Building the placement of a classic scheme from its stage -> rank map.
#include "classic/stage_graph.hpp"

#include <stdexcept>

namespace tessel::classic {

std::vector<int> loop_stage_map(int ranks, int chunks) {
  std::vector<int> map;
  for (int stage = 0; stage < ranks * chunks; ++stage) map.push_back(stage % ranks);
  return map;
}

std::vector<int> v_stage_map(int ranks) {
  std::vector<int> map;
  for (int rank = 0; rank < ranks; ++rank) map.push_back(rank);
  for (int rank = ranks - 1; rank >= 0; --rank) map.push_back(rank);
  return map;
}

StageGraph uniform_stage_graph(int ranks, std::vector<int> stage_rank, bool split,
                               const StageCosts& costs) {
  StageGraph graph;
  graph.ranks = ranks;
  graph.split.assign(stage_rank.size(), split);
  graph.stage_rank = std::move(stage_rank);
  graph.costs = costs;
  return graph;
}

int StagePlacement::block_of(const Action& action) const {
  const std::vector<int>& forwards = action.reverse ? up.forward : forward_block;
  const std::vector<int>& backwards = action.reverse ? up.backward : backward_block;
  const std::vector<int>& weights = action.reverse ? up.weight : weight_block;
  if (action.stage < 0 || action.stage >= static_cast<int>(forwards.size())) return -1;
  bool split = weights[action.stage] >= 0;
  if (action.kind == 'F') return forwards[action.stage];
  if (action.kind == 'B') return split ? -1 : backwards[action.stage];
  if (action.kind == 'I') return split ? backwards[action.stage] : -1;
  if (action.kind == 'W') return weights[action.stage];
  return -1;
}

namespace {

// Adds the blocks and edges of one direction: forwards first, then the
// backwards from the last stage down, the order one micro-batch runs them.
DirectionBlocks add_direction(const StageGraph& graph, const std::vector<int>& stage_rank,
                              const std::string& suffix, Placement& placement) {
  const StageCosts& costs = graph.costs;
  int stages = graph.stages();
  auto add_block = [&](char letter, int stage, BlockKind kind, Time span, Memory memory) {
    int rank = stage_rank[stage];
    if (rank < 0 || rank >= graph.ranks) throw std::invalid_argument("stage rank outside [0, ranks)");
    std::string id = std::string(1, letter) + suffix + std::to_string(stage);
    placement.blocks.push_back({id, kind, span, memory, stage, {rank}, {}, {}});
    return static_cast<int>(placement.blocks.size()) - 1;
  };
  DirectionBlocks blocks;
  for (int s = 0; s < stages; ++s)
    blocks.forward.push_back(add_block('f', s, BlockKind::Forward, costs.forward_span, costs.forward_memory));
  blocks.backward.assign(stages, -1);
  blocks.weight.assign(stages, -1);
  for (int s = stages - 1; s >= 0; --s) {
    if (!graph.split[s]) {
      blocks.backward[s] = add_block('b', s, BlockKind::Backward, costs.backward_span, costs.backward_memory);
      continue;
    }
    blocks.backward[s] = add_block('b', s, BlockKind::BackwardInput, costs.input_span, costs.input_memory);
    blocks.weight[s] = add_block('w', s, BlockKind::BackwardWeight, costs.weight_span, costs.weight_memory);
  }
  for (int s = 1; s < stages; ++s) placement.edges.push_back({blocks.forward[s - 1], blocks.forward[s]});
  if (stages > 0) placement.edges.push_back({blocks.forward[stages - 1], blocks.backward[stages - 1]});
  for (int s = stages - 2; s >= 0; --s) placement.edges.push_back({blocks.backward[s + 1], blocks.backward[s]});
  for (int s = 0; s < stages; ++s)
    if (blocks.weight[s] >= 0) placement.edges.push_back({blocks.backward[s], blocks.weight[s]});
  return blocks;
}

}  // namespace

StagePlacement build_stage_placement(const StageGraph& graph, const std::string& name) {
  StagePlacement result;
  Placement& placement = result.placement;
  placement.name = name;
  placement.ndevs = graph.ranks;
  placement.time_decimals = graph.costs.time_decimals;
  placement.memory_decimals = graph.costs.memory_decimals;
  DirectionBlocks down = add_direction(graph, graph.stage_rank, "", placement);
  result.forward_block = down.forward;
  result.backward_block = down.backward;
  result.weight_block = down.weight;
  if (graph.bidirectional()) {
    if (graph.reverse_rank.size() != graph.stage_rank.size())
      throw std::invalid_argument("the up direction needs a rank for every stage");
    result.up = add_direction(graph, graph.reverse_rank, "r", placement);
  }
  return result;
}

std::string action_name(const Action& action) {
  return std::to_string(action.stage) + action.kind + std::to_string(action.micro) + (action.reverse ? "r" : "");
}

}  // namespace tessel::classic
