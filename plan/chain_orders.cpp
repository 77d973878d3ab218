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

classic::RankOrders orders_for(const Placement& placement, int nmicros) {
  const int ranks = placement.ndevs;
  if (!split_placement(placement)) return classic::one_f_one_b_orders(ranks, nmicros, false);
  classic::StageCosts costs;  // the order only; the real spans time it below
  costs.forward_span = 2, costs.backward_span = 4, costs.input_span = 2, costs.weight_span = 2;
  costs.forward_memory = 2, costs.input_memory = -1, costs.weight_memory = -1, costs.backward_memory = -2;
  return classic::zb_h1_orders(
      classic::uniform_stage_graph(ranks, classic::loop_stage_map(ranks, 1), true, costs), nmicros);
}

}  // namespace

std::optional<Schedule> chain_order_schedule(const Placement& placement, int nmicros,
                                             const std::vector<Memory>& limits, std::string& why) {
  std::map<std::pair<int, char>, int> block_of;
  for (size_t b = 0; b < placement.blocks.size(); ++b)
    if (placement.blocks[b].stage) block_of[{*placement.blocks[b].stage, kind_letter(placement.blocks[b].kind)}] = static_cast<int>(b);
  classic::DeviceOrders orders(placement.ndevs);
  for (const std::vector<classic::Action>& order : orders_for(placement, nmicros))
    for (const classic::Action& action : order) {
      std::vector<char> letters = action.kind == 'B' && !block_of.count({action.stage, 'B'}) ? std::vector<char>{'I', 'W'}
                                                                                              : std::vector<char>{action.kind};
      for (char letter : letters) {
        int block = block_of.at({action.stage, letter});
        orders[placement.blocks[block].devices.front()].push_back({block, action.micro});
      }
    }
  // Timed without delays first (a consistent start order), then with them.
  Placement undelayed = placement;
  for (Edge& edge : undelayed.edges) edge.delay = 0;
  classic::TimedOrders timed = classic::run_as_soon_as_possible(undelayed, orders);
  Schedule schedule = empty_schedule(placement, limits, nmicros);
  schedule.instances = timed.instances;
  sort_instances(schedule);
  schedule = retimed_schedule(schedule);
  verify::Report check = verify::check_schedule(schedule_to_json(schedule));
  if (check.valid) return schedule;
  why = check.violations.empty() ? "rejected by the verifier" : check.violations.front().message;
  return std::nullopt;
}

}  // namespace tessel
