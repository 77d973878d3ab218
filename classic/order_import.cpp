// PyTorch tables and Megatron orders as stage-graph orders.
#include "classic/order_import.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

#include "classic/schemes.hpp"
#include "classic/stage_graph.hpp"
#include "classic/timed_schedule.hpp"
#include "model/input_error.hpp"

namespace tessel::classic {

namespace {

std::string cell_place(const PytorchAction& action) { return pytorch_cell_place(action.rank, action.column); }

// Re-words a deadlock in the table's terms: ranks and steps (from 0, as in
// PyTorch) of the cells.
[[noreturn]] void rethrow_with_cells(const DeadlockError& error, const Placement& placement,
                                     const std::vector<std::vector<int>>& columns) {
  std::ostringstream text;
  text << "deadlock: this table can never run (no rank can take its next action); stuck:";
  for (const StuckDevice& stuck : error.stuck) {
    text << "\n  rank " << stuck.device << " at " << pytorch_instance_name(placement, stuck.head)
         << " (step " << columns[stuck.device][stuck.position] << ") waits for";
    for (size_t i = 0; i < stuck.waits_for.size(); ++i) {
      const StuckDevice::Wait& wait = stuck.waits_for[i];
      text << (i ? "," : "") << " " << pytorch_instance_name(placement, wait.instance);
      if (wait.device < 0)
        text << " (in no rank's row)";
      else
        text << " (rank " << wait.device << ", step " << columns[wait.device][wait.position] << ")";
    }
  }
  throw DeadlockError(text.str(), error.stuck);
}

}  // namespace

namespace {

// Where each stage lives: one rank, or (a bidirectional table) ranks s and
// R-1-s. Returns the graph's two rank maps; throws InputError otherwise.
struct StageHomes {
  std::vector<int> down;
  std::vector<int> up;  // empty unless bidirectional
};

StageHomes stage_homes(const PytorchTable& table, const std::vector<const PytorchAction*>& compute,
                       const std::string& file) {
  std::map<int, std::map<int, const PytorchAction*>> cells;  // stage -> rank -> first cell
  for (const PytorchAction* action : compute) cells[action->stage].emplace(action->rank, action);
  int stages = cells.rbegin()->first + 1;
  for (int s = 0; s < stages; ++s)
    if (!cells.count(s))
      throw InputError(file, "", "stage " + std::to_string(s) + " never appears, but stage " +
                                     std::to_string(stages - 1) + " does: stages must be 0.." +
                                     std::to_string(stages - 1));
  StageHomes homes;
  bool bidirectional = false;
  for (const auto& [stage, on] : cells) bidirectional |= on.size() > 1;
  int ranks = table.ranks;
  auto mirrored = [&](int s) {
    const auto& on = cells[s];
    return stages == ranks && ranks % 2 == 0 && on.size() == 2 && on.count(s) && on.count(ranks - 1 - s);
  };
  for (const auto& [stage, on] : cells) {
    if (!bidirectional) {
      homes.down.push_back(on.begin()->first);
      continue;
    }
    if (mirrored(stage)) {
      homes.down.push_back(stage);
      homes.up.push_back(ranks - 1 - stage);
      continue;
    }
    const char* shape =
        "; a stage lives on one rank, or, in a bidirectional table (DualPipe), every stage s lives on "
        "ranks s and R-1-s of R ranks (R even, R stages)";
    const PytorchAction* first = on.begin()->second;
    if (on.size() > 1) {
      const PytorchAction* other = std::next(on.begin())->second;
      throw InputError(file, cell_place(*other),
                       "stage " + std::to_string(stage) + " appears on rank " + std::to_string(other->rank) +
                           " but also on rank " + std::to_string(first->rank) + " (" + cell_place(*first) + ")" +
                           shape);
    }
    throw InputError(file, cell_place(*first),
                     "stage " + std::to_string(stage) + " appears on rank " + std::to_string(first->rank) +
                         " only, while other stages appear on two ranks" + shape);
  }
  return homes;
}

// The table's actions in the current meaning: F, B (full), I, W.
char current_kind(const PytorchAction& action, PytorchDialect dialect, bool split) {
  const std::string& kind = action.action;
  if (kind == "BW") return 'B';
  if (dialect == PytorchDialect::legacy && kind == "B") return split ? 'I' : 'B';
  return kind[0];
}

// The micro-batch numbering of the "up" direction: the same numbers as the
// "down" one (offset 0) or the numbers after them (offset = down count).
int up_offset(const std::vector<const PytorchAction*>& compute, const StageHomes& homes, const std::string& file) {
  if (homes.up.empty()) return 0;
  int down_count = 0, up_low = -1;
  for (const PytorchAction* action : compute) {
    bool down = homes.down[action->stage] == action->rank;
    if (down) down_count = std::max(down_count, action->micro + 1);
    else up_low = up_low < 0 ? action->micro : std::min(up_low, action->micro);
  }
  if (up_low >= down_count) return down_count;
  for (const PytorchAction* action : compute)
    if (homes.down[action->stage] != action->rank && action->micro >= down_count)
      throw InputError(file, cell_place(*action),
                       "the up direction's micro-batches must be numbered like the down direction's (0.." +
                           std::to_string(down_count - 1) + ") or after them (" + std::to_string(down_count) +
                           ".." + std::to_string(2 * down_count - 1) + ")");
  return 0;
}

struct TableOrders {
  StageGraph graph;
  RankOrders orders;
  std::vector<std::vector<int>> columns;  // per rank, per action: its column
  int nmicros = 0;
  int offset = 0;
};

// A B includes its stage's I and W: claiming an action twice, or a B and a
// part of it, is an error, with the dialect trap named when it is likely.
void claim(std::map<std::tuple<char, int, int, bool>, const PytorchAction*>& seen, const PytorchAction& cell,
           const Action& action, PytorchDialect dialect, const std::string& file) {
  std::vector<char> parts = action.kind == 'B' ? std::vector<char>{'I', 'W'} : std::vector<char>{action.kind};
  for (char part : parts) {
    auto [found, fresh] = seen.emplace(std::make_tuple(part, action.stage, action.micro, action.reverse), &cell);
    if (fresh) continue;
    std::string text = "action " + action_name(action) + " appears twice";
    if (found->second->action != cell.action || action.kind == 'B')
      text = "action " + std::to_string(cell.stage) + cell.action + std::to_string(cell.micro) +
             " repeats work of " + std::to_string(found->second->stage) + found->second->action +
             std::to_string(found->second->micro) + " (" + cell_place(*found->second) +
             "): a B is the whole backward, I + W";
    if (dialect == PytorchDialect::current && (cell.action == "W" || found->second->action == "W"))
      text += "; in tables of PyTorch ~2.4/2.5, B meant I: try --dialect legacy";
    throw InputError(file, cell_place(cell), text);
  }
}

TableOrders table_orders(const PytorchTable& table, PytorchDialect dialect, const StageCosts& costs,
                         const std::vector<const PytorchAction*>& compute, const std::string& file) {
  StageHomes homes = stage_homes(table, compute, file);
  TableOrders result;
  StageGraph& graph = result.graph;
  graph.ranks = table.ranks;
  graph.costs = costs;
  graph.stage_rank = homes.down;
  graph.reverse_rank = homes.up;
  graph.split.assign(homes.down.size(), false);
  for (const PytorchAction* action : compute) {
    bool splits = action->action == "W" || (dialect == PytorchDialect::current && action->action == "I");
    if (splits) graph.split[action->stage] = true;
  }
  result.offset = up_offset(compute, homes, file);
  result.orders.resize(table.ranks);
  result.columns.resize(table.ranks);
  std::map<std::tuple<char, int, int, bool>, const PytorchAction*> seen;
  for (const PytorchAction* cell : compute) {
    bool up = !homes.up.empty() && homes.down[cell->stage] != cell->rank;
    Action action{current_kind(*cell, dialect, graph.split[cell->stage]), cell->stage,
                  cell->micro - (up ? result.offset : 0), up, cell->overlaps_next};
    if ((action.kind == 'I' || action.kind == 'W') && !graph.split[cell->stage])
      throw InputError(file, cell_place(*cell), "internal: unsplit stage with an I or W");
    claim(seen, *cell, action, dialect, file);
    result.nmicros = std::max(result.nmicros, action.micro + 1);
    result.orders[cell->rank].push_back(action);
    result.columns[cell->rank].push_back(cell->column);
  }
  return result;
}

// Which of the user's costs the table uses (for the CLI's unused-span warning).
PytorchCostUse cost_use(const TableOrders& table) {
  PytorchCostUse use;
  for (const auto& order : table.orders)
    for (const Action& action : order) {
      bool split = table.graph.split[action.stage];
      use.forward |= action.kind == 'F';
      use.input |= action.kind == 'I' || (action.kind == 'B' && split);
      use.weight |= action.kind == 'W' || (action.kind == 'B' && split);
      use.full_backward |= action.kind == 'B';
      use.full_backward_memory |= action.kind == 'B' && !split;
      use.overlap |= action.overlaps_next;
    }
  return use;
}

}  // namespace

Schedule schedule_from_pytorch_table(const PytorchTable& table, PytorchDialect dialect,
                                     const StageCosts& costs, const std::string& file, PytorchCostUse* used,
                                     OverlapMode overlap) {
  std::vector<const PytorchAction*> compute;
  for (const PytorchAction& action : table.actions)
    if (action.compute()) compute.push_back(&action);
  if (compute.empty()) throw InputError(file, "", "the table holds no compute action (F, I, B, W)");
  for (const PytorchAction& action : table.actions)
    if (action.overlaps_next && !action.compute())
      throw InputError(file, cell_place(action), "an OVERLAP_F_B cell holds the non-compute action " + action.action);

  TableOrders orders = table_orders(table, dialect, costs, compute, file);
  if (overlap == OverlapMode::sequential)
    for (auto& order : orders.orders)
      for (Action& action : order) action.overlaps_next = false;
  if (used) *used = cost_use(orders);
  try {
    Schedule schedule = schedule_from_orders(orders.graph, orders.orders, "pytorch-table", orders.nmicros);
    schedule.meta = {{"imported_from", "pytorch-csv"}, {"file", file},
                     {"dialect", dialect == PytorchDialect::current ? "current" : "legacy"}};
    if (orders.graph.bidirectional())
      schedule.meta["bidirectional"] = {{"pairs", orders.nmicros}, {"up_micro_offset", orders.offset}};
    return schedule;
  } catch (const DeadlockError& error) {
    StagePlacement stages = build_stage_placement(orders.graph, "pytorch");
    std::vector<std::vector<int>> origin;
    device_orders_of(orders.graph, stages, orders.orders, &origin);
    std::vector<std::vector<int>> columns(orders.graph.ranks);
    for (int rank = 0; rank < orders.graph.ranks; ++rank)
      for (int action : origin[rank]) columns[rank].push_back(orders.columns[rank][action]);
    rethrow_with_cells(error, stages.placement, columns);
  }
}

namespace {

// The global stage of unit k (1-based) of a rank: chunk-wise, chunk k-1 is
// virtual stage (k-1) R + r; layer-wise, layer k lies in chunk c at index i,
// and the layers of the virtual stages before c R + r come first.
int megatron_stage(const MegatronShape& shape, int ranks, int rank, int unit) {
  if (shape.layers_per_chunk.empty()) return (unit - 1) * ranks + rank;
  int before = 0, chunk = 0;
  while (unit > before + shape.layers_per_chunk[chunk]) before += shape.layers_per_chunk[chunk++];
  return ranks * before + rank * shape.layers_per_chunk[chunk] + (unit - before - 1);
}

}  // namespace

namespace {

// The stage graph of an order, checking every entry against the shape and
// the micro-batch count.
StageGraph megatron_graph(const MegatronOrders& orders, const MegatronShape& shape, int nmicros, bool split,
                          const StageCosts& costs, const std::string& file) {
  int ranks = static_cast<int>(orders.size());
  bool layer_wise = !shape.layers_per_chunk.empty();
  int units = layer_wise ? 0 : shape.chunks;
  for (int layers : shape.layers_per_chunk) units += layers;
  std::string unit_name = layer_wise ? "layer" : "chunk";
  StageGraph graph;
  graph.ranks = ranks;
  graph.costs = costs;
  graph.stage_rank.assign(static_cast<size_t>(ranks) * units, 0);
  graph.split.assign(graph.stage_rank.size(), split && !megatron_has_weights(orders));
  for (int rank = 0; rank < ranks; ++rank) {
    std::map<std::pair<char, int>, int> count;
    for (size_t i = 0; i < orders[rank].size(); ++i) {
      const MegatronStep& step = orders[rank][i];
      std::string where = std::string(1, '[').append(std::to_string(rank)).append("][").append(std::to_string(i)).append("]");
      if (step.chunk > units)
        throw InputError(file, where, unit_name + " " + std::to_string(step.chunk) + " is not in 1.." +
                                          std::to_string(units) + " (" +
                                          (layer_wise ? "--layers-per-chunk" : "--chunks") + ")");
      if (++count[{step.kind, step.chunk}] > nmicros)
        throw InputError(file, where, unit_name + " " + std::to_string(step.chunk) + " has more " +
                                          (step.kind == 'F' ? "forwards" : step.kind == 'B' ? "backwards" : "weight gradients") +
                                          " on rank " + std::to_string(rank) + " than --nmicros " + std::to_string(nmicros));
      int stage = megatron_stage(shape, ranks, rank, step.chunk);
      graph.stage_rank[stage] = rank;
      if (step.kind == 'W') graph.split[stage] = true;
    }
    for (int unit = 1; unit <= units; ++unit)
      for (char kind : {'F', 'B'})
        if (count[{kind, unit}] != nmicros)
          throw InputError(file, "[" + std::to_string(rank) + "]",
                           "rank " + std::to_string(rank) + " has " + std::to_string(count[{kind, unit}]) + " " +
                               (kind == 'F' ? "forwards" : "backwards") + " of " + unit_name + " " +
                               std::to_string(unit) + ", expected --nmicros " + std::to_string(nmicros));
  }
  return graph;
}

}  // namespace

Schedule schedule_from_megatron_order(const MegatronOrders& orders, const MegatronShape& shape, int nmicros,
                                      bool split, const StageCosts& costs, const std::string& file) {
  int ranks = static_cast<int>(orders.size());
  if (ranks == 0) throw InputError(file, "", "the order lists no rank");
  bool layer_wise = !shape.layers_per_chunk.empty();
  if (!layer_wise && megatron_has_weights(orders))
    throw InputError(file, "", "the order has weight-gradient entries -(k + 0.5): it is a layer-wise order "
                               "(Megatron's MoE overlap); give --layers-per-chunk");
  StageGraph graph = megatron_graph(orders, shape, nmicros, split, costs, file);
  RankOrders actions(ranks);
  for (int rank = 0; rank < ranks; ++rank) {
    std::map<std::pair<char, int>, int> next;  // (kind, stage) -> micro-batch
    for (const MegatronStep& step : orders[rank]) {
      int stage = megatron_stage(shape, ranks, rank, step.chunk);
      char kind = step.kind == 'B' && graph.split[stage] ? 'I' : step.kind;
      int micro = next[{step.kind, stage}]++;
      actions[rank].push_back({kind, stage, micro});
      // A split requested with --span W on an order without W entries: each W right after its I.
      if (kind == 'I' && !megatron_has_weights(orders)) actions[rank].push_back({'W', stage, micro});
    }
  }
  try {
    Schedule schedule = schedule_from_orders(graph, actions, "megatron-order", nmicros);
    schedule.meta = {{"imported_from", "megatron-order"}, {"file", file}, {"chunks", shape.chunks}};
    if (layer_wise) schedule.meta["layers_per_chunk"] = shape.layers_per_chunk;
    return schedule;
  } catch (const DeadlockError& error) {
    if (layer_wise) throw;
    throw DeadlockError(std::string(error.what()) +
                            "\n(a layer-wise order of Megatron's MoE overlap reads as chunks like this: if it is one, "
                            "give --layers-per-chunk)",
                        error.stuck);
  }
}

}  // namespace tessel::classic
