// Orders of a stage graph become a timed, self-contained schedule.
#include "classic/timed_schedule.hpp"

#include "classic/steady_state.hpp"

#include <algorithm>
#include <functional>
#include <stdexcept>

namespace tessel::classic {

std::string pytorch_instance_name(const Placement& placement, const OrderedInstance& instance) {
  const Block& block = placement.blocks[instance.block];
  std::string name = block.stage ? std::to_string(*block.stage) : block.id;
  name.push_back(kind_letter(block.kind));
  name.append(std::to_string(instance.micro));
  // The "up" copy of a bidirectional pipeline's stage.
  if (block.id.size() > 1 && block.id[1] == 'r') name.push_back('r');
  return name;
}

namespace {

Time own_span(const StageGraph& graph, const Action& action) {
  const StageCosts& costs = graph.costs;
  if (action.kind == 'F') return costs.forward_span;
  if (action.kind == 'I') return costs.input_span;
  if (action.kind == 'W') return costs.weight_span;
  return costs.backward_span;
}

// The instances of one action: its block, or for a full backward of a split
// stage its I and W joined into one unit of the backward span.
void add_instances(const StagePlacement& stages, const Action& action, std::vector<OrderedInstance>& list) {
  int block = stages.block_of(action);
  if (block >= 0) {
    list.push_back({block, action.micro});
    return;
  }
  if (action.kind != 'B')
    throw std::invalid_argument("action " + action_name(action) + " has no block in this stage graph");
  int input = stages.block_of({'I', action.stage, action.micro, action.reverse});
  int weight = stages.block_of({'W', action.stage, action.micro, action.reverse});
  if (input < 0 || weight < 0) throw std::invalid_argument("action " + action_name(action) + " has no block");
  list.push_back({input, action.micro, true});
  list.push_back({weight, action.micro});
}

}  // namespace

DeviceOrders device_orders_of(const StageGraph& graph, const StagePlacement& stages, const RankOrders& orders,
                              std::vector<std::vector<int>>* origin) {
  DeviceOrders device_orders(graph.ranks);
  if (origin) origin->assign(graph.ranks, {});
  for (int rank = 0; rank < static_cast<int>(orders.size()) && rank < graph.ranks; ++rank) {
    std::vector<OrderedInstance>& list = device_orders[rank];
    Time overlap = 0;      // summed spans of the actions of an open overlapped unit
    size_t unit_first = 0;  // its first entry in `list`
    bool open = false;
    for (size_t index = 0; index < orders[rank].size(); ++index) {
      const Action& action = orders[rank][index];
      if (!open) unit_first = list.size();
      size_t before = list.size();
      add_instances(stages, action, list);
      if (origin) (*origin)[rank].resize(list.size(), static_cast<int>(index));
      bool fused_backward = list.size() - before > 1;
      if (fused_backward) list.back().fused_span = graph.costs.backward_span;
      overlap += own_span(graph, action);
      if (action.overlaps_next) {
        list.back().joins_next = true;
        open = true;
        continue;
      }
      if (open) {
        for (size_t i = unit_first; i + 1 < list.size(); ++i) list[i].joins_next = true;
        list.back().fused_span = graph.costs.overlap_span > 0 ? graph.costs.overlap_span : overlap;
      }
      open = false;
      overlap = 0;
    }
    if (open) throw std::invalid_argument("rank " + std::to_string(rank) + "'s order ends in an open overlap");
  }
  return device_orders;
}

Schedule schedule_from_orders(const StageGraph& graph, const RankOrders& orders,
                              const std::string& name, int nmicros,
                              const std::optional<std::vector<long long>>& memory_limit) {
  StagePlacement stages = build_stage_placement(graph, name);
  DeviceOrders device_orders = device_orders_of(graph, stages, orders);
  TimedOrders timed = run_as_soon_as_possible(stages.placement, device_orders, pytorch_instance_name);
  Schedule schedule;
  schedule.instances = std::move(timed.instances);
  schedule.fused = std::move(timed.fused);
  schedule.placement = std::move(stages.placement);
  schedule.nmicros = nmicros;
  schedule.memory_limit = memory_limit ? *memory_limit : peak_memory(schedule.placement, schedule.instances);
  schedule.uniform_limit = std::adjacent_find(schedule.memory_limit.begin(), schedule.memory_limit.end(),
                                              std::not_equal_to<>()) == schedule.memory_limit.end();
  sort_instances(schedule);
  // The steady-state window is looked for in schedules without fused units
  // only: a repetend of fused units is not part of the format.
  if (schedule.fused.empty()) schedule.repetend = find_steady_state(schedule);
  return schedule;
}

}  // namespace tessel::classic
