// Reading the action ranges of a pipeline run's Chrome traces: what
// `torch.profiler` exports (a JSON list of events, or an object with
// "traceEvents"), one file per rank or one file with a process per rank.
// Only complete ("X") events named `PP:<action>` are kept -- the names
// PyTorch's `_PipelineScheduleRuntime` (and `tessel run`) give the actions
// it runs, `<stage><kind><micro-batch>` as in the CSV tables (`PP:0F1`,
// `PP:1SEND_F3`). Times are microseconds, as the files hold them.
// `tessel run` also names each recomputation of a forward, nested inside
// the backward that needed it: `tessel:recompute <stage>F<micro>`; those
// ranges are kept too, with kind kRecomputeKind and the range's whole name.
#pragma once

#include <string>
#include <vector>

namespace tessel {

inline constexpr const char* kRecomputeRange = "tessel:recompute ";
inline constexpr const char* kRecomputeKind = "RECOMPUTE";

struct TracedAction {
  int rank = 0;
  std::string name;    // the action, without "PP:" (`1SEND_F3`); a recompute: the range's name
                       // (`tessel:recompute 1F3`)
  int stage = 0;
  std::string kind;    // F, B, I, W, SEND_F, RECV_F, SEND_B, RECV_B, ..., RECOMPUTE
  int micro = 0;
  double start = 0;    // microseconds
  double duration = 0;
};

// The actions of one rank in one file, ordered by start (ties: the outer,
// longer range first). `rank` < 0: the file holds several ranks, told
// apart by "pid" (integers 0..R-1 as `tessel run` writes them, or any
// process ids, numbered in increasing order). A PP: range whose name is not
// `<stage><kind><micro>` or an event without numeric ts/dur is an InputError
// naming the file and the event.
std::vector<TracedAction> read_traced_actions(const std::string& text, const std::string& file, int rank);

// The actions of every rank from a path: a directory of per-rank files
// (`*.json`; the rank from the file's "otherData.rank" or "distributedInfo.rank",
// else the last number in its name), or one file (its processes are the
// ranks). Returned per rank, 0..R-1; a rank missing is an InputError.
std::vector<std::vector<TracedAction>> read_trace_ranks(const std::string& path);

}  // namespace tessel
