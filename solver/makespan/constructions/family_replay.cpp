// Recognising the stage shape of a placement and replaying the families of
// classic/ on it. The family orders are built on classic/'s own stage graph
// (same stage map, the placement's costs of stage 0 for the families that
// simulate costs), then their blocks are renamed to this placement's blocks
// of the same stage and kind and the lists run as soon as possible here.
#include "solver/makespan/constructions/family_replay.hpp"

#include <algorithm>
#include <functional>
#include <new>
#include <optional>
#include <stdexcept>

#include "classic/order_execution.hpp"
#include "classic/schemes.hpp"
#include "classic/stage_graph.hpp"
#include "classic/timed_schedule.hpp"

namespace tessel {
namespace {

using classic::RankOrders;
using classic::StageGraph;

// This placement's blocks per stage (-1: none) and the device of each stage.
struct StageShape {
  std::vector<int> forward, backward, weight, device;
  std::vector<bool> split;
  int stages() const { return static_cast<int>(forward.size()); }
  bool all_split() const { return std::find(split.begin(), split.end(), false) == split.end(); }
};

std::vector<int>* slot_of(StageShape& shape, BlockKind kind) {
  switch (kind) {
    case BlockKind::Forward: return &shape.forward;
    case BlockKind::Backward:
    case BlockKind::BackwardInput: return &shape.backward;
    case BlockKind::BackwardWeight: return &shape.weight;
    case BlockKind::Other: return nullptr;
  }
  return nullptr;
}

// One forward and one backward (or input + weight backward) per stage, all
// on one device; anything else is not a family's shape.
std::optional<StageShape> stage_shape(const Placement& placement) {
  int stages = 0;
  for (const Block& block : placement.blocks) {
    if (!block.stage || *block.stage < 0 || block.devices.size() != 1) return std::nullopt;
    stages = std::max(stages, *block.stage + 1);
  }
  if (stages == 0 || stages > static_cast<int>(placement.blocks.size())) return std::nullopt;
  StageShape shape;
  shape.forward.assign(stages, -1);
  shape.backward.assign(stages, -1);
  shape.weight.assign(stages, -1);
  shape.device.assign(stages, -1);
  shape.split.assign(stages, false);
  for (int index = 0; index < static_cast<int>(placement.blocks.size()); ++index) {
    const Block& block = placement.blocks[index];
    std::vector<int>* slot = slot_of(shape, block.kind);
    int stage = *block.stage;
    if (!slot || (*slot)[stage] >= 0) return std::nullopt;
    if (shape.device[stage] >= 0 && shape.device[stage] != block.devices[0]) return std::nullopt;
    (*slot)[stage] = index;
    shape.device[stage] = block.devices[0];
    if (block.kind == BlockKind::BackwardInput) shape.split[stage] = true;
  }
  for (int stage = 0; stage < stages; ++stage) {
    if (shape.forward[stage] < 0 || shape.backward[stage] < 0) return std::nullopt;
    if (shape.split[stage] != (shape.weight[stage] >= 0)) return std::nullopt;
  }
  return shape;
}

classic::StageCosts costs_of(const Placement& placement, const StageShape& shape) {
  classic::StageCosts costs;
  const Block& forward = placement.blocks[shape.forward[0]];
  const Block& backward = placement.blocks[shape.backward[0]];
  costs.forward_span = forward.span;
  costs.forward_memory = forward.memory;
  costs.time_decimals = placement.time_decimals;
  costs.memory_decimals = placement.memory_decimals;
  if (!shape.split[0]) {
    costs.backward_span = backward.span;
    costs.backward_memory = backward.memory;
    return costs;
  }
  const Block& weight = placement.blocks[shape.weight[0]];
  costs.input_span = backward.span;
  costs.input_memory = backward.memory;
  costs.weight_span = weight.span;
  costs.weight_memory = weight.memory;
  costs.backward_span = backward.span + weight.span;
  costs.backward_memory = backward.memory + weight.memory;
  return costs;
}

struct Family {
  std::string name;
  std::function<RankOrders(const StageGraph&)> orders;
};

std::vector<Family> chain_families(int ranks, int total_micros, bool split, const std::vector<Memory>& limits) {
  std::vector<Family> families = {
      {"1f1b", [=](const StageGraph&) { return classic::one_f_one_b_orders(ranks, total_micros, split); }},
      {"gpipe", [=](const StageGraph&) { return classic::gpipe_orders(ranks, total_micros, split); }},
      {"zb-h1", [=](const StageGraph& graph) { return classic::zb_h1_orders(graph, total_micros); }},
      {"zb-h2", [=](const StageGraph& graph) { return classic::zb_h2_orders(graph, total_micros); }}};
  const Memory smallest = *std::min_element(limits.begin(), limits.end());
  families.push_back({"zb-auto", [=](const StageGraph& graph) {
                        return classic::zb_auto_orders(graph, total_micros, smallest);
                      }});
  return families;
}

RankOrders megatron_orders(int ranks, int chunks, int total_micros, int group, bool split) {
  classic::check_megatron_group(ranks, total_micros, group);
  std::vector<std::vector<int>> codes;
  for (int rank = 0; rank < ranks; ++rank)
    codes.push_back(classic::megatron_rank_order(ranks, rank, chunks, total_micros, group));
  return classic::megatron_actions(codes, ranks, split);
}

std::vector<Family> loop_families(int ranks, int chunks, int total_micros, bool split) {
  return {{"interleaved-1f1b (megatron)",
           [=](const StageGraph&) { return megatron_orders(ranks, chunks, total_micros, ranks, split); }},
          {"interleaved-1f1b (pytorch)",
           [=](const StageGraph&) {
             return megatron_orders(ranks, chunks, total_micros, classic::pytorch_round_size(ranks, total_micros), split);
           }},
          {"looped-bfs", [=](const StageGraph&) { return classic::looped_bfs_orders(ranks, chunks, total_micros, split); }},
          {"interleaved-zb", [=](const StageGraph&) {
             RankOrders orders;
             for (int rank = 0; rank < ranks; ++rank)
               orders.push_back(classic::interleaved_zb_rank_order(ranks, rank, chunks, total_micros));
             return orders;
           }}};
}

std::vector<Family> v_families(int ranks, int total_micros) {
  return {{"zb-v", [=](const StageGraph& graph) { return classic::zb_v_orders(graph, total_micros); }},
          {"v-half", [=](const StageGraph&) { return classic::v_schedule_orders(ranks, total_micros, false); }},
          {"v-min", [=](const StageGraph&) { return classic::v_schedule_orders(ranks, total_micros, true); }},
          {"dualpipev", [=](const StageGraph&) { return classic::dualpipev_orders(ranks, total_micros); }}};
}

std::vector<Family> families_for(const StageShape& shape, int ranks, int total_micros, const std::vector<Memory>& limits) {
  const int stages = shape.stages();
  if (stages % ranks != 0) return {};
  const int chunks = stages / ranks;
  if (shape.device == classic::loop_stage_map(ranks, chunks))
    return chunks == 1 ? chain_families(ranks, total_micros, shape.all_split(), limits)
                       : loop_families(ranks, chunks, total_micros, shape.all_split());
  if (chunks == 2 && shape.device == classic::v_stage_map(ranks)) return v_families(ranks, total_micros);
  return {};
}

// The family's device lists with this placement's blocks; a fused unit
// (a split backward run whole, an overlapped pair) lasts its members' spans.
classic::DeviceOrders renamed_orders(const Placement& placement, const StageShape& shape, const StageGraph& graph,
                                     const RankOrders& orders) {
  classic::StagePlacement stages = classic::build_stage_placement(graph, "replay");
  std::vector<int> ours(stages.placement.blocks.size(), -1);
  for (int stage = 0; stage < shape.stages(); ++stage) {
    ours[stages.forward_block[stage]] = shape.forward[stage];
    ours[stages.backward_block[stage]] = shape.backward[stage];
    if (stages.weight_block[stage] >= 0) ours[stages.weight_block[stage]] = shape.weight[stage];
  }
  classic::DeviceOrders lists = classic::device_orders_of(graph, stages, orders);
  for (auto& list : lists) {
    Time unit_span = 0;
    for (classic::OrderedInstance& entry : list) {
      entry.block = ours[entry.block];
      unit_span += placement.blocks[entry.block].span;
      if (entry.joins_next) continue;
      if (entry.fused_span > 0) entry.fused_span = unit_span;
      unit_span = 0;
    }
  }
  return lists;
}

bool within(const std::vector<long long>& peak, const std::vector<Memory>& limits) {
  for (size_t device = 0; device < peak.size(); ++device)
    if (peak[device] > limits[device]) return false;
  return true;
}

std::optional<Replay> replay(const Placement& placement, const StageShape& shape, const StageGraph& graph,
                             const Family& family, const std::vector<Memory>& limits, int total_micros) {
  try {
    classic::DeviceOrders lists = renamed_orders(placement, shape, graph, family.orders(graph));
    classic::TimedOrders timed = classic::run_as_soon_as_possible(placement, lists);
    if (timed.instances.size() != placement.blocks.size() * static_cast<size_t>(total_micros)) return std::nullopt;
    if (!within(classic::peak_memory(placement, timed.instances), limits)) return std::nullopt;
    Replay result{family.name, empty_schedule(placement, limits, total_micros)};
    result.schedule.instances = std::move(timed.instances);
    result.schedule.fused = std::move(timed.fused);
    return result;
  } catch (const std::bad_alloc&) {
    throw;  // out of memory ends the search (tools/memory_reserve.hpp), never "no replay"
  } catch (const std::exception&) {
    return std::nullopt;  // sizes the family refuses, or an order that deadlocks here
  }
}

}  // namespace

std::vector<Replay> family_replays(const Placement& placement, const std::vector<Memory>& limits, int total_micros) {
  std::optional<StageShape> shape = stage_shape(placement);
  if (!shape || placement.ndevs < 1 || total_micros < 1 || static_cast<int>(limits.size()) != placement.ndevs) return {};
  StageGraph graph;
  graph.ranks = placement.ndevs;
  graph.stage_rank = shape->device;
  graph.split = shape->split;
  graph.costs = costs_of(placement, *shape);
  std::vector<Replay> replays;
  for (const Family& family : families_for(*shape, placement.ndevs, total_micros, limits))
    if (std::optional<Replay> found = replay(placement, *shape, graph, family, limits, total_micros))
      replays.push_back(std::move(*found));
  return replays;
}

}  // namespace tessel
