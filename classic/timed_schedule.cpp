// Orders of a stage graph become a timed, self-contained schedule.
#include "classic/timed_schedule.hpp"

#include "classic/steady_state.hpp"

#include <algorithm>
#include <functional>
#include <stdexcept>

namespace tessel::classic {

std::string pytorch_instance_name(const Placement& placement, const OrderedInstance& instance) {
  const Block& block = placement.blocks[instance.block];
  char letter = '?';
  if (block.kind == BlockKind::Forward) letter = 'F';
  if (block.kind == BlockKind::Backward) letter = 'B';
  if (block.kind == BlockKind::BackwardInput) letter = 'I';
  if (block.kind == BlockKind::BackwardWeight) letter = 'W';
  std::string name = block.id.size() > 1 ? block.id.substr(1) : block.id;
  name.push_back(letter);
  return name.append(std::to_string(instance.micro));
}

Schedule schedule_from_orders(const StageGraph& graph, const RankOrders& orders,
                              const std::string& name, int nmicros,
                              const std::optional<std::vector<long long>>& memory_limit) {
  StagePlacement stages = build_stage_placement(graph, name);
  DeviceOrders device_orders(graph.ranks);
  for (int rank = 0; rank < static_cast<int>(orders.size()) && rank < graph.ranks; ++rank)
    for (const Action& action : orders[rank]) {
      int block = stages.block_of(action);
      if (block < 0) throw std::invalid_argument("action " + action_name(action) + " has no block");
      device_orders[rank].push_back({block, action.micro});
    }
  Schedule schedule;
  schedule.instances = run_as_soon_as_possible(stages.placement, device_orders, pytorch_instance_name);
  schedule.placement = std::move(stages.placement);
  schedule.nmicros = nmicros;
  schedule.memory_limit = memory_limit ? *memory_limit : peak_memory(schedule.placement, schedule.instances);
  schedule.uniform_limit = std::adjacent_find(schedule.memory_limit.begin(), schedule.memory_limit.end(),
                                              std::not_equal_to<>()) == schedule.memory_limit.end();
  sort_instances(schedule);
  schedule.repetend = find_steady_state(schedule);
  return schedule;
}

}  // namespace tessel::classic
