// Orders of other tools become timed schedules: a PyTorch action table and a
// Megatron-LM order list are read into per-rank orders over a stage graph
// and run as soon as possible (classic/order_execution). A table that can
// never run throws DeadlockError naming the ranks, the cells and what each
// waits for; a table that is not a pipeline (a stage on two ranks that do
// not mirror each other, a duplicated action, a missing stage) is an
// InputError naming the cell.
//
// Facts relied on: PyTorch's torch/distributed/pipelining/schedules.py
// (_Action.from_str: `(a;b)OVERLAP_F_B` holds sub-actions; _ComputationType:
// B = FULL_BACKWARD; _PipelineScheduleRuntime._step_microbatches runs an
// OVERLAP_F_B's sub-actions one after the other unless a custom function is
// registered); its legacy comms artifact
// test/distributed/pipelining/artifacts/zb1p_2rank_2stagep_comms.csv (BW =
// full backward next to B/W pairs); DeepSeek's dualpipe.py (stage s of the
// two directions on ranks s and R-1-s); Megatron's cuda_graphs.py
// (get_overlap_moe_expert_parallel_comm_order: one entry per layer, -k.5 a
// layer's weight gradient).
#pragma once

#include <string>
#include <vector>

#include "classic/stage_graph.hpp"
#include "model/formats/megatron_order.hpp"
#include "model/formats/pytorch_csv.hpp"
#include "model/schedule.hpp"

namespace tessel::classic {

// Which costs a table's actions use, so that a span or memory the user gave
// and the table never uses is not silent.
struct PytorchCostUse {
  bool forward = false;
  bool full_backward = false;         // span B: some B cell
  bool full_backward_memory = false;  // memory B: a B cell of an unsplit stage
  bool input = false;                 // I (or a B of a split stage, which frees what I and W free)
  bool weight = false;
  bool overlap = false;               // span FB: some OVERLAP_F_B cell
};

// Spans and memory of PyTorch's actions in the current meaning: F, B (full
// backward), I (input backward), W (weight backward). A stage whose cells use
// I or W (in the legacy dialect: W) is split; in the legacy dialect its B
// cells are its I and BW cells its full backward. A full backward of a split
// stage runs as its I and W fused into one unit of span B; the actions of an
// OVERLAP_F_B cell run as one fused unit of span FB (costs.overlap_span,
// default the sum of their spans). A table whose stages each live on two
// ranks, s and R-1-s, is a bidirectional pipeline (DualPipe): the copy on
// rank s is the "down" direction, the other the "up" one, whose micro-batches
// are numbered like the down ones or after them (stage_graph.hpp).
//
// `overlap` sequential runs the actions of an OVERLAP_F_B cell one after the
// other instead, each when its own input is there: what PyTorch's runtime
// does unless a custom function is registered for OVERLAP_F_B.
enum class OverlapMode { fused, sequential };

Schedule schedule_from_pytorch_table(const PytorchTable& table, PytorchDialect dialect,
                                     const StageCosts& costs, const std::string& file,
                                     PytorchCostUse* used = nullptr, OverlapMode overlap = OverlapMode::fused);

// The shape of a Megatron order: chunk-wise (`chunks` per rank, the "loop"
// stage map), or layer-wise (Megatron's MoE overlap,
// get_overlap_moe_expert_parallel_comm_order): chunk c of each rank split
// into layers_per_chunk[c] layers, each its own pipeline stage, the layers of
// one virtual stage consecutive.
struct MegatronShape {
  int chunks = 1;
  std::vector<int> layers_per_chunk;  // empty: chunk-wise
};

// A Megatron order (per rank: +k forward / -k backward of local chunk or
// layer k, -(k + 0.5) the weight gradient of layer k). `nmicros` is checked
// against the counts in the order. With weight-gradient entries the stages
// that have them are split (each -k their input backward); else `split`
// puts a W right after every backward. A chunk-wise reading that deadlocks
// says that a layer-wise order reads like this. Errors name `file` and the
// entry.
Schedule schedule_from_megatron_order(const MegatronOrders& orders, const MegatronShape& shape, int nmicros,
                                      bool split, const StageCosts& costs, const std::string& file);

}  // namespace tessel::classic
