// What a plan is asked and what it answers (plan/plan.hpp runs it): plain
// data, apart from the entry so that the steps of a plan
// (plan/plan_candidate.hpp) share it without including the entry that calls
// them.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "partition/partition.hpp"
#include "partition/pipeline_placement.hpp"
#include "plan/plan_stages.hpp"
#include "plan/plan_time.hpp"
#include "solver/makespan/recompute_all.hpp"
#include "solver/search.hpp"

namespace tessel {

struct PlanRequest {
  PipelineOptions pipeline;
  bool auto_mapping = false;  // plan chain, interleaved and v, each with and without split; keep the fastest
  std::string memory;      // the limit per rank as a user writes it: "40GiB", "2e9", "8GiB,8GiB,6GiB,6GiB"
  int nmicros = 16;        // N: micro-batches per training step, the makespan is judged here
  Deadline deadline = Deadline::none();
  std::string backend = "cadical";
  int threads = 0;
  double device_flops = 0;    // FLOP/s of one device; > 0: times in seconds
  double link_bandwidth = 0;  // bytes/s between ranks; > 0: cross-rank transfers are edge delays
  double link_latency = 0;    // seconds per transfer
  double host_bandwidth = 0;  // bytes/s to host memory; > 0: every forward offers offload (--offload auto)
  // A search report's message in words, its notes included
  // (tools/search_note_text.hpp): plan/ sits below tools/, so the words come
  // in as a parameter. Without it the strategy's message alone is shown.
  std::string (*search_words)(const SearchReport&) = nullptr;
};

enum class CutKind { Exact, RankBalanced };
const char* cut_name(CutKind cut);  // "exact bottleneck" | "rank-balanced"

// "chain", "chain, split", "interleaved x4, split", "v".
std::string plan_label(const PipelineOptions& options);

// One plan of one mapping: its cut, placement and verified schedule.
struct PlanResult {
  PipelineOptions pipeline;               // this plan's mapping (the written one may differ from the asked)
  Outcome outcome = Outcome::Infeasible;  // Found needs a verified schedule
  std::string message;                    // why not found, or notes
  // The search answered but its schedule could not be written at N on the
  // plan's placement (re-timing with the delays would move its copies, or
  // fused units under --recompute all): nothing is proven, the row says so.
  bool unwritten = false;
  Partition partition;
  CutKind cut = CutKind::Exact;
  PartitionCosts costs;
  std::vector<PlanStage> stages;          // operators and modules of each stage (stages.json)
  std::vector<long long> rank_compute;    // per rank, the sum of its stages
  PipelinePlacement staged;               // costs in steps (the search's grid)
  TimedPlacement timed;                   // the same in the plan's unit, delays included
  // --recompute all, and under auto the candidate that recomputes all: the
  // placement in which every forward's recompute is a block of its own
  // (solver/makespan/recompute_all.hpp); the chain's order and the search
  // run on it and their answers are mapped back.
  std::optional<RecomputedPlacement> forced;
  // --recompute auto: the recompute-all placement of this mapping is a
  // candidate of its own (searched with its own share, as --recompute all
  // searches it), so this placement's search skips its derived one.
  bool all_apart = false;
  PlanClock clock;
  std::vector<Memory> memory_limit;       // bytes per rank
  SearchReport search;
  std::string construction;               // how the schedule was made ("search: ...", "1F1B order", ...)
  std::optional<Schedule> schedule;       // the answer at N, verified
  double makespan = 0;                    // in the clock's unit (seconds or GFLOP)
  double lower_bound = 0;                 // proven, same unit; 0 when none
  double bubble_ratio = 0;
  std::vector<long long> peak_memory;     // bytes per rank, static memory included
};

// The label of one candidate: plan_label, and ", recompute all" for the
// candidate that recomputes every forward under --recompute auto.
std::string plan_label(const PlanResult& result);

// A line of the comparison: one candidate plan.
struct PlanRow {
  std::string label;                 // plan_label (of the result)
  bool recompute_all = false;        // the candidate that recomputes every forward (its `forced`)
  PipelineOptions pipeline;
  std::string status;                // found | timeout | infeasible | interrupted
  std::string construction;
  std::optional<double> makespan;    // unit
  double lower_bound = 0;
  std::vector<long long> peak_memory;
  std::string note;                  // why none
};

// What a plan call answers: the plan written, every candidate compared, and
// the 1F1B chain as the yardstick.
struct PlanAnswer {
  PlanResult chosen;                 // has a schedule when any candidate found one
  Outcome outcome = Outcome::Infeasible;
  std::string message;
  std::vector<PlanRow> compared;
  std::optional<double> one_f_one_b; // the 1F1B chain's makespan at the same memory (unit)
  std::string one_f_one_b_note;      // why there is none
  std::string one_f_one_b_order;     // which order it is ("1F1B order, at most 5 micro-batches in flight")
  std::string choice;                // what was asked, what is written and why, in words
  PlanClock clock;
  double seconds = 0;                // wall time of the whole plan
};

// Phases as they end: one line each with the elapsed time and the best so far.
using PlanProgressLine = std::function<void(const std::string&)>;

}  // namespace tessel
