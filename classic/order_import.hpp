// Orders of other tools become timed schedules: a PyTorch action table and a
// Megatron-LM order list are read into per-rank orders over a stage graph
// and run as soon as possible (classic/order_execution). A table that can
// never run throws DeadlockError naming the ranks, the cells and what each
// waits for; a table that is not a pipeline (a stage on two ranks, a
// duplicated action, a missing stage) is an InputError naming the cell.
#pragma once

#include <string>
#include <vector>

#include "classic/stage_graph.hpp"
#include "model/formats/pytorch_csv.hpp"
#include "model/schedule.hpp"

namespace tessel::classic {

// Spans and memory of PyTorch's actions in the current meaning: F, B (full
// backward), I (input backward), W (weight backward). A stage whose cells use
// I or W (in the legacy dialect: W) is split; in the legacy dialect its B
// cells are its I; in the current dialect a B of a split stage is run as its
// I followed by its W.
Schedule schedule_from_pytorch_table(const PytorchTable& table, PytorchDialect dialect,
                                     const StageCosts& costs, const std::string& file);

// A Megatron order (per rank: +k forward / -k backward of local chunk k-1) on
// the "loop" stage map with `chunks` chunks per rank. `nmicros` is checked
// against the counts in the order. Errors name `file` and the entry.
Schedule schedule_from_megatron_order(const std::vector<std::vector<int>>& orders, int chunks,
                                      int nmicros, bool split, const StageCosts& costs,
                                      const std::string& file);

}  // namespace tessel::classic
