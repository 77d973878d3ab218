// `tessel plan` as a library function (docs/plan.md): from an operator graph
// to a schedule PyTorch runs, in one call. Partition the graph into
// devices x chunks stages (the exact bottleneck cut, or a cut balanced for
// the ranks when the mapping puts several stages on one rank and that is
// lighter for the busiest rank), map the stages on ranks, cost the blocks
// physically (partition/pipeline_placement.hpp), search the best makespan at N
// micro-batches with solve(), and have the verifier judge the answer. The
// command line, the Python module and the tests all call this; writing the
// files is write_plan_files.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "model/graph.hpp"
#include "partition/partition.hpp"
#include "partition/pipeline_placement.hpp"
#include "solver/search.hpp"

namespace tessel {

struct PlanRequest {
  PipelineOptions pipeline;
  std::string memory;      // the limit per rank as a user writes it: "40GiB", "2e9", "8GiB,8GiB,6GiB,6GiB"
  int nmicros = 16;        // N: micro-batches per training step, the makespan is judged here
  Deadline deadline = Deadline::none();
  std::string backend = "cadical";
  int threads = 0;
};

enum class CutKind { Exact, RankBalanced };
const char* cut_name(CutKind cut);  // "exact bottleneck" | "rank-balanced"

struct PlanResult {
  Outcome outcome = Outcome::Infeasible;  // of the whole plan; Found needs a verified schedule
  std::string message;                    // why not found, or notes
  Partition partition;
  CutKind cut = CutKind::Exact;
  PartitionCosts costs;
  std::vector<long long> rank_compute;    // per rank, the sum of its stages
  PipelinePlacement staged;
  std::vector<Memory> memory_limit;       // bytes per rank
  SearchReport search;
  std::optional<Schedule> schedule;       // the answer at N, verified
  Time makespan = 0;                      // steps
  double makespan_compute = 0;            // makespan x resolution: compute units, comparable across plans
  double bubble_ratio = 0;
  std::vector<long long> peak_memory;     // bytes per rank, static memory included
};

// Throws InputError for a request that is wrong in itself (options, memory
// text); an infeasible memory limit is an answer (outcome Infeasible with the
// reason), a deadline that strikes leaves the best schedule so far.
PlanResult plan_pipeline(const Graph& graph, const PlanRequest& request, Progress& progress);

// DIR/placement.json, schedule.json, schedule.csv (compute-only),
// schedule_comms.csv, schedule.svg, report.md (and the CSV sidecars).
// Requires a schedule. Creates DIR.
void write_plan_files(const Graph& graph, const PlanRequest& request, const PlanResult& result,
                      const std::string& directory);

// The report.md text.
std::string plan_report(const Graph& graph, const PlanRequest& request, const PlanResult& result);

}  // namespace tessel
