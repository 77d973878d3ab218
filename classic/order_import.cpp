// PyTorch tables and Megatron orders as stage-graph orders.
#include "classic/order_import.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "classic/schemes.hpp"
#include "classic/timed_schedule.hpp"
#include "model/input_error.hpp"

namespace tessel::classic {

namespace {

std::string cell_place(const PytorchAction& action) {
  return "row " + std::to_string(action.rank) + " (rank " + std::to_string(action.rank) + "), column " +
         std::to_string(action.column);
}

// Re-words a deadlock in the table's terms: rows and columns of the cells.
[[noreturn]] void rethrow_with_cells(const DeadlockError& error, const Placement& placement,
                                     const std::vector<std::vector<int>>& columns) {
  std::ostringstream text;
  text << "deadlock: this table can never run (no rank can take its next action); stuck:";
  for (const StuckDevice& stuck : error.stuck) {
    text << "\n  rank " << stuck.device << " at " << pytorch_instance_name(placement, stuck.head)
         << " (column " << columns[stuck.device][stuck.position] << ") waits for";
    for (size_t i = 0; i < stuck.waits_for.size(); ++i) {
      const StuckDevice::Wait& wait = stuck.waits_for[i];
      text << (i ? "," : "") << " " << pytorch_instance_name(placement, wait.instance);
      if (wait.device < 0)
        text << " (in no rank's row)";
      else
        text << " (rank " << wait.device << ", column " << columns[wait.device][wait.position] << ")";
    }
  }
  throw DeadlockError(text.str(), error.stuck);
}

}  // namespace

Schedule schedule_from_pytorch_table(const PytorchTable& table, PytorchDialect dialect,
                                     const StageCosts& costs, const std::string& file) {
  std::vector<const PytorchAction*> compute;
  for (const PytorchAction& action : table.actions)
    if (action.compute()) compute.push_back(&action);
  if (compute.empty()) throw InputError(file, "", "the table holds no compute action (F, I, B, W)");

  // Stages and where they live: a stage is on exactly one rank.
  std::map<int, const PytorchAction*> first_cell;
  for (const PytorchAction* action : compute) {
    auto [found, fresh] = first_cell.emplace(action->stage, action);
    if (!fresh && found->second->rank != action->rank)
      throw InputError(file, cell_place(*action),
                       "stage " + std::to_string(action->stage) + " appears on rank " +
                           std::to_string(action->rank) + " but also on rank " +
                           std::to_string(found->second->rank) + " (" + cell_place(*found->second) +
                           "); a stage lives on one rank");
  }
  int stages = first_cell.rbegin()->first + 1;
  for (int s = 0; s < stages; ++s)
    if (!first_cell.count(s))
      throw InputError(file, "", "stage " + std::to_string(s) + " never appears, but stage " +
                                     std::to_string(stages - 1) + " does: stages must be 0.." +
                                     std::to_string(stages - 1));

  StageGraph graph;
  graph.ranks = table.ranks;
  graph.costs = costs;
  graph.split.assign(stages, false);
  for (const auto& [stage, cell] : first_cell) graph.stage_rank.push_back(cell->rank);
  for (const PytorchAction* action : compute) {
    bool splits = action->action == "I" || action->action == "W";
    if (dialect == PytorchDialect::legacy) splits = action->action == "W";
    if (splits) graph.split[action->stage] = true;
  }

  int nmicros = 0;
  for (const PytorchAction* action : compute) nmicros = std::max(nmicros, action->micro + 1);

  RankOrders orders(table.ranks);
  std::vector<std::vector<int>> columns(table.ranks);
  std::set<std::tuple<char, int, int>> seen;
  auto add = [&](const PytorchAction& cell, char kind) {
    Action action{kind, cell.stage, cell.micro};
    if (!seen.insert({kind, cell.stage, cell.micro}).second)
      throw InputError(file, cell_place(cell), "action " + action_name(action) + " appears twice");
    orders[cell.rank].push_back(action);
    columns[cell.rank].push_back(cell.column);
  };
  for (const PytorchAction* cell : compute) {
    const std::string& kind = cell->action;
    bool split = graph.split[cell->stage];
    if (kind == "F") add(*cell, 'F');
    if (kind == "I") add(*cell, 'B');
    if (kind == "W") add(*cell, 'W');
    if (kind != "B") continue;
    add(*cell, 'B');  // full backward, or the legacy name of the input backward
    if (split && dialect == PytorchDialect::current) add(*cell, 'W');
  }

  try {
    Schedule schedule = schedule_from_orders(graph, orders, "pytorch-table", nmicros);
    schedule.meta = {{"imported_from", "pytorch-csv"}, {"file", file},
                     {"dialect", dialect == PytorchDialect::current ? "current" : "legacy"}};
    return schedule;
  } catch (const DeadlockError& error) {
    rethrow_with_cells(error, build_stage_placement(graph, "pytorch").placement, columns);
  }
}

Schedule schedule_from_megatron_order(const std::vector<std::vector<int>>& orders, int chunks,
                                      int nmicros, bool split, const StageCosts& costs,
                                      const std::string& file) {
  int ranks = static_cast<int>(orders.size());
  if (ranks == 0) throw InputError(file, "", "the order lists no rank");
  for (int rank = 0; rank < ranks; ++rank) {
    std::map<int, int> count;
    for (size_t i = 0; i < orders[rank].size(); ++i) {
      int code = orders[rank][i];
      std::string where = std::string(1, '[').append(std::to_string(rank)).append("][").append(std::to_string(i)).append("]");
      if (code == 0 || std::abs(code) > chunks)
        throw InputError(file, where, "entry " + std::to_string(code) + " is not +k or -k with k in 1.." +
                                          std::to_string(chunks) + " (--chunks)");
      if (++count[code] > nmicros)
        throw InputError(file, where, "chunk " + std::to_string(std::abs(code)) + " has more " +
                                          (code > 0 ? "forwards" : "backwards") + " on rank " +
                                          std::to_string(rank) + " than --nmicros " + std::to_string(nmicros));
    }
  }
  StageGraph graph = uniform_stage_graph(ranks, loop_stage_map(ranks, chunks), split, costs);
  RankOrders actions = megatron_actions(orders, ranks, split);
  Schedule schedule = schedule_from_orders(graph, actions, "megatron-order", nmicros);
  schedule.meta = {{"imported_from", "megatron-order"}, {"file", file}, {"chunks", chunks}};
  return schedule;
}

}  // namespace tessel::classic
