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
  if (action.stage < 0 || action.stage >= static_cast<int>(forward_block.size())) return -1;
  if (action.kind == 'F') return forward_block[action.stage];
  if (action.kind == 'B') return backward_block[action.stage];
  if (action.kind == 'W') return weight_block[action.stage];
  return -1;
}

StagePlacement build_stage_placement(const StageGraph& graph, const std::string& name) {
  StagePlacement result;
  Placement& placement = result.placement;
  placement.name = name;
  placement.ndevs = graph.ranks;
  const StageCosts& costs = graph.costs;
  int stages = graph.stages();
  placement.time_decimals = costs.time_decimals;
  placement.memory_decimals = costs.memory_decimals;
  auto add_block = [&](const std::string& id, BlockKind kind, Time span, Memory memory, int rank, int stage) {
    if (rank < 0 || rank >= graph.ranks) throw std::invalid_argument("stage rank outside [0, ranks)");
    placement.blocks.push_back({id, kind, span, memory, stage, {rank}});
    return static_cast<int>(placement.blocks.size()) - 1;
  };
  // Forward blocks first, then the backward blocks from the last stage down:
  // the blocks are listed in the order one micro-batch runs them.
  for (int s = 0; s < stages; ++s)
    result.forward_block.push_back(add_block(std::string(1, 'f').append(std::to_string(s)), BlockKind::Forward,
                                             costs.forward_span, costs.forward_memory, graph.stage_rank[s], s));
  result.backward_block.assign(stages, -1);
  result.weight_block.assign(stages, -1);
  for (int s = stages - 1; s >= 0; --s) {
    std::string number = std::to_string(s);
    if (!graph.split[s]) {
      result.backward_block[s] = add_block("b" + number, BlockKind::Backward, costs.backward_span,
                                           costs.backward_memory, graph.stage_rank[s], s);
      continue;
    }
    result.backward_block[s] = add_block("b" + number, BlockKind::BackwardInput, costs.input_span,
                                         costs.input_memory, graph.stage_rank[s], s);
    result.weight_block[s] = add_block("w" + number, BlockKind::BackwardWeight, costs.weight_span,
                                       costs.weight_memory, graph.stage_rank[s], s);
  }
  for (int s = 1; s < stages; ++s) placement.edges.push_back({result.forward_block[s - 1], result.forward_block[s]});
  if (stages > 0) placement.edges.push_back({result.forward_block[stages - 1], result.backward_block[stages - 1]});
  for (int s = stages - 2; s >= 0; --s)
    placement.edges.push_back({result.backward_block[s + 1], result.backward_block[s]});
  for (int s = 0; s < stages; ++s)
    if (result.weight_block[s] >= 0) placement.edges.push_back({result.backward_block[s], result.weight_block[s]});
  return result;
}

std::string action_name(const Action& action) {
  return std::to_string(action.stage) + action.kind + std::to_string(action.micro);
}

}  // namespace tessel::classic
