// classic/'s orders mapped onto the plan's blocks by (stage, action letter),
// then timed (plan/plan_time.hpp) and judged.
#include "plan/chain_orders.hpp"

#include <algorithm>
#include <map>

#include "classic/order_execution.hpp"
#include "classic/schemes.hpp"
#include "model/schedule_json.hpp"
#include "plan/plan_time.hpp"
#include "verify/verify.hpp"

namespace tessel {

namespace {

bool split_placement(const Placement& placement) {
  return std::any_of(placement.blocks.begin(), placement.blocks.end(),
                     [](const Block& block) { return block.kind == BlockKind::BackwardWeight; });
}

// 1F1B with at most `cap` micro-batches in flight per rank: rank r warms up
// with min(D - r - 1, cap - 1) forwards, so a later rank never waits for a
// forward its predecessor holds back (the warm-ups do not grow down the
// chain). cap >= D is the textbook 1F1B; a split backward runs W right
// after its I.
classic::RankOrders capped_one_f_one_b(int ranks, int nmicros, int cap, bool split) {
  classic::RankOrders orders(ranks);
  for (int rank = 0; rank < ranks; ++rank) {
    std::vector<classic::Action>& order = orders[rank];
    auto backward = [&](int micro) {
      order.push_back({split ? 'I' : 'B', rank, micro});
      if (split) order.push_back({'W', rank, micro});
    };
    int warmup = std::min({ranks - rank - 1, cap - 1, nmicros});
    for (int micro = 0; micro < warmup; ++micro) order.push_back({'F', rank, micro});
    for (int step = 0; step + warmup < nmicros; ++step) {
      order.push_back({'F', rank, warmup + step});
      backward(step);
    }
    for (int micro = std::max(nmicros - warmup, 0); micro < nmicros; ++micro) backward(micro);
  }
  return orders;
}

classic::RankOrders zb_h1(int ranks, int nmicros) {
  classic::StageCosts costs;  // the order only; the real spans time it
  costs.forward_span = 2, costs.backward_span = 4, costs.input_span = 2, costs.weight_span = 2;
  costs.forward_memory = 2, costs.input_memory = -1, costs.weight_memory = -1, costs.backward_memory = -2;
  return classic::zb_h1_orders(
      classic::uniform_stage_graph(ranks, classic::loop_stage_map(ranks, 1), true, costs), nmicros);
}

// The orders tried, best first: (ZB-H1 when split), then 1F1B with fewer
// and fewer micro-batches in flight until one fits the memory.
std::vector<std::pair<std::string, classic::RankOrders>> orders_to_try(const Placement& placement, int nmicros) {
  const int ranks = placement.ndevs;
  const bool split = split_placement(placement);
  std::vector<std::pair<std::string, classic::RankOrders>> tried;
  if (split) tried.push_back({"ZB-H1 order", zb_h1(ranks, nmicros)});
  const std::string name = split ? "1F1B order (W after its I)" : "1F1B order";
  tried.push_back({name, capped_one_f_one_b(ranks, nmicros, ranks, split)});
  for (int cap = std::min(ranks, nmicros) - 1; cap >= 1; --cap)
    tried.push_back({name + ", at most " + std::to_string(cap) + (cap == 1 ? " micro-batch" : " micro-batches") + " in flight",
                     capped_one_f_one_b(ranks, nmicros, cap, split)});
  return tried;
}

// A chain's placement has one forward per stage; a second forward of a
// stage is its recompute (--recompute all, solver/makespan/recompute_all.hpp),
// listed after the blocks it copies. Per block it feeds: that recompute.
std::map<int, int> recompute_feeding(const Placement& placement) {
  std::map<int, int> seen_forward, feeding;
  for (size_t b = 0; b < placement.blocks.size(); ++b) {
    const Block& block = placement.blocks[b];
    if (block.kind != BlockKind::Forward || !block.stage) continue;
    if (!seen_forward.emplace(*block.stage, static_cast<int>(b)).second)
      for (const Edge& edge : placement.edges)
        if (edge.from == static_cast<int>(b)) feeding[edge.to] = static_cast<int>(b);
  }
  return feeding;
}

// Per-rank block lists for classic actions on the plan's blocks; a
// recompute runs right before the block that needs it, as activation
// checkpointing does inside the backward.
classic::DeviceOrders device_orders(const Placement& placement, const classic::RankOrders& orders) {
  std::map<std::pair<int, char>, int> block_of;
  for (size_t b = 0; b < placement.blocks.size(); ++b)
    if (placement.blocks[b].stage) block_of.emplace(std::make_pair(*placement.blocks[b].stage, kind_letter(placement.blocks[b].kind)), static_cast<int>(b));
  const std::map<int, int> recompute_of = recompute_feeding(placement);
  classic::DeviceOrders lists(placement.ndevs);
  for (const std::vector<classic::Action>& order : orders)
    for (const classic::Action& action : order) {
      bool whole = action.kind == 'B' && !block_of.count({action.stage, 'B'});
      for (char letter : whole ? std::vector<char>{'I', 'W'} : std::vector<char>{action.kind}) {
        int block = block_of.at({action.stage, letter});
        std::vector<classic::OrderedInstance>& list = lists[placement.blocks[block].devices.front()];
        if (auto recompute = recompute_of.find(block); recompute != recompute_of.end())
          list.push_back({recompute->second, action.micro});
        list.push_back({block, action.micro});
      }
    }
  return lists;
}

}  // namespace

std::optional<Schedule> chain_order_schedule(const Placement& placement, int nmicros,
                                             const std::vector<Memory>& limits, std::string& name, std::string& why,
                                             const FinishOrder& finish) {
  // Timed without delays first (a consistent start order), then with them.
  Placement undelayed = placement;
  for (Edge& edge : undelayed.edges) edge.delay = 0;
  for (auto& [label, orders] : orders_to_try(placement, nmicros)) {
    classic::TimedOrders timed = classic::run_as_soon_as_possible(undelayed, device_orders(placement, orders));
    Schedule schedule = empty_schedule(placement, limits, nmicros);
    schedule.instances = timed.instances;
    sort_instances(schedule);
    schedule = retimed_schedule(schedule);
    if (finish) {
      std::optional<Schedule> finished = finish(schedule);
      if (!finished) continue;
      schedule = std::move(*finished);
    }
    verify::Report check = verify::check_schedule(schedule_to_json(schedule));
    if (check.valid) {
      name = label;
      return schedule;
    }
    if (why.empty()) why = check.violations.empty() ? "rejected by the verifier" : check.violations.front().message;
  }
  return std::nullopt;
}

}  // namespace tessel
