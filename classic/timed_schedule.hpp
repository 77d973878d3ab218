// From per-rank orders of a stage graph to a tessel.schedule/1: build the
// stage placement, run the orders as soon as possible, and record the memory
// the result needs as its limit (or the user's limit), and its steady state
// as the repetend, so that the verifier judges it like any schedule the
// search finds.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "classic/order_execution.hpp"
#include "classic/stage_graph.hpp"
#include "model/schedule.hpp"

namespace tessel::classic {

// Throws DeadlockError (instances named like PyTorch writes them, "1F2").
Schedule schedule_from_orders(const StageGraph& graph, const RankOrders& orders,
                              const std::string& name, int nmicros,
                              const std::optional<std::vector<long long>>& memory_limit = std::nullopt);

// The block-level lists of rank orders: a B of a split stage becomes its I
// and W joined into one unit of the backward span; an overlapped pair of
// actions becomes one unit of the overlap span (default: the sum of the
// actions' spans). Throws std::invalid_argument for an action without block.
// `origin`, when given, receives for every entry of every device list the
// index of the action it comes from in that rank's order.
DeviceOrders device_orders_of(const StageGraph& graph, const StagePlacement& stages, const RankOrders& orders,
                              std::vector<std::vector<int>>* origin = nullptr);

// "1F2" / "0I3" / "2W0": the PyTorch name of a stage-placement instance
// ("3F1r" for the "up" copy of a bidirectional stage).
std::string pytorch_instance_name(const Placement& placement, const OrderedInstance& instance);

}  // namespace tessel::classic
