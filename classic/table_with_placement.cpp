// Cells to blocks through (stage, action letter), then the ASAP execution.
#include "classic/table_with_placement.hpp"

#include <map>

#include "classic/order_execution.hpp"
#include "model/input_error.hpp"
#include "model/formats/pytorch_sidecar.hpp"

namespace tessel::classic {

namespace {

std::string place_of(const PytorchAction& action) {
  return "row " + std::to_string(action.rank) + ", column " + std::to_string(action.column);
}

}  // namespace

Schedule schedule_from_table_and_placement(const PytorchTable& table, const Schedule& sidecar,
                                           const std::string& file) {
  const Placement& placement = sidecar.placement;
  std::map<std::pair<int, std::string>, int> block_of;
  for (size_t b = 0; b < placement.blocks.size(); ++b) {
    const Block& block = placement.blocks[b];
    if (block.stage) block_of[{*block.stage, std::string(1, kind_letter(block.kind))}] = static_cast<int>(b);
  }
  if (table.ranks > placement.ndevs)
    throw InputError(file, "", "the table has " + std::to_string(table.ranks) + " ranks, its sidecar's placement " +
                                   std::to_string(placement.ndevs) + " devices");
  DeviceOrders orders(placement.ndevs);
  for (const PytorchAction& action : table.actions) {
    if (!action.compute()) continue;
    auto found = block_of.find({action.stage, action.action});
    if (found == block_of.end())
      throw InputError(file, place_of(action), "no block of stage " + std::to_string(action.stage) + " does " +
                                                   action.action + " in the sidecar's placement");
    const Block& block = placement.blocks[found->second];
    if (block.devices != std::vector<int>{action.rank})
      throw InputError(file, place_of(action), "block '" + block.id + "' runs on another rank in the sidecar");
    if (action.micro >= sidecar.nmicros)
      throw InputError(file, place_of(action), "micro-batch " + std::to_string(action.micro) + " of " +
                                                   std::to_string(sidecar.nmicros) + " in the sidecar");
    orders[action.rank].push_back({found->second, action.micro});
  }
  TimedOrders timed = run_as_soon_as_possible(placement, orders);
  Schedule schedule = empty_schedule(placement, sidecar.memory_limit, sidecar.nmicros);
  schedule.uniform_limit = sidecar.uniform_limit;
  schedule.instances = timed.instances;
  schedule.meta = {{"imported_from", "pytorch-csv"}, {"file", file}, {"sidecar", sidecar_path(file)}};
  sort_instances(schedule);
  return schedule;
}

}  // namespace tessel::classic
