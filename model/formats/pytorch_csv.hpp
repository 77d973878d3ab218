// The per-rank action table of PyTorch's `torch.distributed.pipelining`
// (`PipelineScheduleMulti._dump_csv` / `_load_csv`): plain CSV without a
// header, one row per rank, one cell per step, an empty cell is idle. A cell
// is `<stage><action>[<micro-batch>]` (docs/formats.md, "pytorch-csv"). Reading keeps every cell
// with its row and column so that errors and deadlocks can name them;
// turning the table into a timed schedule is classic/'s job.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "model/schedule.hpp"

namespace tessel {

enum class PytorchDialect {
  current,  // F, I (input backward), W (weight backward), B (full backward = I + W)
  legacy,   // PyTorch ~2.4/2.5: no I; B is the input backward when W is used, BW the full backward
};

struct PytorchAction {
  int rank = 0;    // row
  int column = 0;  // step of that rank
  int stage = 0;
  std::string action;  // F|I|B|W, or a non-compute action (SEND_F, UNSHARD, ...)
  int micro = -1;      // -1 when the cell has none (UNSHARD, RESHARD, REDUCE_GRAD)
  // Runs overlapped with the next action of the same cell: every action of a
  // `(a;b)OVERLAP_F_B` cell but the last.
  bool overlaps_next = false;
  bool compute() const {
    return action == "F" || action == "I" || action == "B" || action == "W" || action == "BW";
  }
};

struct PytorchTable {
  int ranks = 0;  // rows
  std::vector<PytorchAction> actions;  // row by row, column by column
};

// Parses the CSV text. An unknown action, a compute action without a
// micro-batch or a malformed cell is an InputError naming `file`, the cell
// (pytorch_cell_place) and its text as written (shortened when long). `(a;b)OVERLAP_F_B` cells give both actions,
// the first marked `overlaps_next`. `BW` (the legacy full backward) is read
// in the legacy dialect only; in the current one it is an error suggesting
// --dialect legacy.
PytorchTable read_pytorch_csv(const std::string& text, const std::string& file, PytorchDialect dialect);

// Where a cell is, as errors name it: "row 2, column 3 (rank 1, step 2)".
// Rows and columns count from 1 as in a spreadsheet; ranks and steps from 0
// as in PyTorch.
std::string pytorch_cell_place(int rank, int column);
PytorchTable read_pytorch_csv_file(const std::string& path, PytorchDialect dialect);

// The compute-only table in the current dialect: each block must run on one
// device; forward blocks are stages 0.. in dependency order, backward (or
// input-backward) blocks the same stages counted from the last, a weight
// block takes the stage of its input-backward. Each action sits in the
// column of its start step (a span > 1 leaves the following cells empty); a
// fused unit is one cell at its start: B for the I and W of one stage and
// micro-batch, else (a;b)OVERLAP_F_B. A bidirectional placement (every
// (stage, kind) twice) writes its stages, the up copies' micro-batches after
// the down ones.
// Throws InputError (field "placement") when the schedule has no such shape.
std::string write_pytorch_csv(const Schedule& schedule);

// True when every block carries a stage and no (stage, kind) repeats: the
// cells come from the blocks themselves (model/formats/pytorch_csv_staged.cpp).
bool carries_stages(const Placement& placement);

// The table of such a placement: compute-only (each action in the column of
// its start step) or with PyTorch's communication actions (SEND_F, RECV_F,
// SEND_B, RECV_B; each row a sequence, as PyTorch's runtime reads it), for
// any stage graph: a stage sends to every stage on another rank that
// consumes its output, branches and skips included. Throws InputError when a
// stage would need two ranks or a block several devices, the schedule has
// fused units, or (with comms) an edge between ranks is neither F -> F nor
// gradient -> gradient.
std::string write_pytorch_csv_staged(const Schedule& schedule, bool with_comms);

// The column of each start time of `schedule` in a written table: the step
// itself for schedules in steps; the rank of the start among all distinct
// starts for decimal times (seconds, GFLOP) or sparse ones, so that the
// table keeps every rank's order and the alignment across ranks without a
// column per tick.
std::map<Time, Time> start_columns(const Schedule& schedule);

}  // namespace tessel
