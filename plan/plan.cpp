// The plan pipeline: cut, map, cost, search, judge. Each step is a function
// of its own so that what the plan decided (which cut, which limit) is
// visible in the result and the report.
#include "plan/plan.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <sstream>

#include "model/formats/pytorch_csv.hpp"
#include "model/formats/pytorch_sidecar.hpp"
#include "model/formats/svg_timeline.hpp"
#include "model/input_error.hpp"
#include "model/json_file.hpp"
#include "model/output_file.hpp"
#include "model/memory_limits.hpp"
#include "model/placement_json.hpp"
#include "model/schedule_json.hpp"
#include "model/unroll.hpp"
#include "partition/partition_search.hpp"
#include "partition/rank_balanced_cut.hpp"
#include "verify/verify.hpp"

namespace tessel {

namespace {

std::vector<int> stage_ranks(const PipelineOptions& options) {
  std::vector<int> ranks(pipeline_stages(options));
  for (int s = 0; s < static_cast<int>(ranks.size()); ++s) ranks[s] = rank_of_stage(options.mapping, options.devices, s);
  return ranks;
}

long long busiest(const std::vector<long long>& loads) { return *std::max_element(loads.begin(), loads.end()); }

// The exact bottleneck cut (a share of the time), and the rank-balanced cut;
// the one whose busiest rank is lighter wins, the exact one on a tie.
void choose_cut(const Graph& graph, const PlanRequest& request, Progress& progress, PlanResult& result) {
  const int S = pipeline_stages(request.pipeline);
  std::vector<int> ranks = stage_ranks(request.pipeline);
  PartitionRequest cut_request;
  cut_request.stages = S;
  Deadline share = request.deadline.within(std::max(1.0, std::min(10.0, request.deadline.seconds_left() / 4)));
  PartitionAnswer answer = solve_partition(graph, cut_request, "exact", request.backend, share,
                                           [&](const std::string& text) { progress.line("partition: " + text); });
  Partition balanced = rank_balanced_cut(graph, S, ranks);
  std::vector<long long> balanced_load = rank_loads(partition_costs(graph, balanced), ranks);
  result.partition = balanced;
  result.cut = CutKind::RankBalanced;
  if (answer.partition) {
    std::vector<long long> exact_load = rank_loads(partition_costs(graph, *answer.partition), ranks);
    if (busiest(exact_load) <= busiest(balanced_load)) {
      result.partition = *answer.partition;
      result.cut = CutKind::Exact;
    }
  }
  result.costs = partition_costs(graph, result.partition);
  result.rank_compute = rank_loads(result.costs, ranks);
}

// A rank whose static memory alone passes the limit: no schedule exists.
std::string static_memory_problem(const PlanResult& result) {
  for (size_t r = 0; r < result.memory_limit.size(); ++r)
    if (result.staged.static_bytes[r] > result.memory_limit[r])
      return "rank " + std::to_string(r) + " holds " + std::to_string(result.staged.static_bytes[r]) +
             " bytes of parameters, gradients and optimizer state, more than its limit of " +
             std::to_string(result.memory_limit[r]) + " bytes";
  return "";
}

// The verifier judges the schedule against the whole limit: it counts the
// placement's static memory itself, so its peaks include it.
void judge(PlanResult& result) {
  verify::Report check = verify::check_schedule(schedule_to_json(*result.schedule), result.memory_limit);
  if (!check.valid) throw std::logic_error("the planned schedule failed the verifier: " + check.violations.front().message);
  result.makespan = check.makespan;
  result.makespan_compute = static_cast<double>(check.makespan) * static_cast<double>(result.staged.resolution);
  result.bubble_ratio = check.bubble_ratio;
  result.peak_memory = check.peak_memory;
}

std::string join(const std::vector<long long>& values) {
  std::string text;
  for (size_t i = 0; i < values.size(); ++i) text += (i ? ", " : "") + std::to_string(values[i]);
  return text;
}

std::string gib(long long bytes) {
  std::ostringstream text;
  text << std::fixed << std::setprecision(2) << static_cast<double>(bytes) / (1024.0 * 1024.0 * 1024.0) << " GiB";
  return text.str();
}

void write_text(const std::string& path, const std::string& text) { write_output_file(path, text); }

}  // namespace

const char* cut_name(CutKind cut) { return cut == CutKind::Exact ? "exact bottleneck" : "rank-balanced"; }

PlanResult plan_pipeline(const Graph& graph, const PlanRequest& request, Progress& progress) {
  std::string problem = pipeline_options_problem(request.pipeline);
  if (!problem.empty()) throw InputError("", "devices", problem);
  if (pipeline_stages(request.pipeline) > static_cast<int>(graph.nodes.size()))
    throw InputError("", "devices", std::to_string(pipeline_stages(request.pipeline)) + " stages for a graph of " +
                                        std::to_string(graph.nodes.size()) + " operators");
  if (request.nmicros < 1 || request.nmicros > 4096) throw InputError("", "nmicros", "must be in [1, 4096]");
  PlanResult result;
  choose_cut(graph, request, progress, result);
  result.staged = pipeline_placement(graph, result.partition, request.pipeline);
  SearchRequest search;
  search.placement = result.staged.placement;
  search.memory_limit = memory_limits_for(search.placement, request.memory, "memory");
  result.memory_limit = search.memory_limit;
  result.staged.placement = search.placement;
  if (std::string reason = static_memory_problem(result); !reason.empty()) {
    result.message = reason;
    return result;
  }
  search.total_micros = request.nmicros;
  search.backend = request.backend;
  search.deadline = request.deadline;
  search.threads = request.threads;
  result.search = solve(search, progress);
  result.outcome = result.search.outcome;
  result.message = result.search.message;
  if (!result.search.best) return result;
  // A repetend answer is unrollable; PyTorch's table needs all N micro-batches.
  result.schedule = result.search.best->nmicros == request.nmicros ? *result.search.best
                                                                    : unroll(*result.search.best, request.nmicros);
  judge(result);
  return result;
}

std::string plan_report(const Graph& graph, const PlanRequest& request, const PlanResult& result) {
  const PipelineOptions& options = request.pipeline;
  std::ostringstream out;
  out << "# Pipeline plan: " << (graph.name.empty() ? "graph" : graph.name) << "\n\n";
  out << "- mapping: " << mapping_name(options.mapping) << ", " << options.devices << " ranks x " << options.chunks
      << " chunks = " << pipeline_stages(options) << " stages, backward "
      << (options.split_backward ? "split into I and W (" + result.staged.weight_cost + ")" : "whole (B)") << "\n";
  out << "- cut: " << cut_name(result.cut) << "; compute per stage [" << join(result.costs.stage_compute)
      << "], per rank [" << join(result.rank_compute) << "]\n";
  out << "- one step = " << result.staged.resolution << " compute units (the graph's unit)\n";
  out << "- memory limit per rank [" << join(result.memory_limit) << "] bytes; static (parameters, gradients, "
      << options.bytes_per_param << " B/param each, optimizer " << options.optimizer_bytes_per_param << " B/param) [" << join(result.staged.static_bytes)
      << "] bytes; activations rounded up to " << result.staged.memory_granule << " bytes\n";
  out << "- micro-batches N = " << request.nmicros << "\n\n";
  if (!result.schedule) {
    out << "No schedule: " << result.message << "\n";
    return out.str();
  }
  out << "| makespan (steps) | makespan (compute) | bubble ratio | outcome | proven lower bound |\n";
  out << "|---|---|---|---|---|\n";
  out << "| " << result.makespan << " | " << std::setprecision(6) << result.makespan_compute << " | "
      << std::fixed << std::setprecision(3) << result.bubble_ratio << " | " << outcome_name(result.outcome) << " | ";
  if (result.search.makespan) out << result.search.makespan->proven_lower_bound;
  out << " |\n\n";
  out << "Peak memory per rank (static + activations): ";
  for (size_t r = 0; r < result.peak_memory.size(); ++r)
    out << (r ? ", " : "") << gib(result.peak_memory[r]) << " of " << gib(result.memory_limit[r]);
  out << ".\n\n";
  if (result.search.makespan) out << "Answer: " << result.search.makespan->construction << " ("
                                  << shape_name(result.search.makespan->shape) << ").\n\n";
  out << "![schedule](schedule.svg)\n\n";
  out << "Files: placement.json, schedule.json (verified), schedule.csv (PyTorch compute-only table), "
         "schedule_comms.csv (with SEND/RECV), each CSV with its .tessel.json sidecar.\n";
  return out.str();
}

void write_plan_files(const Graph& graph, const PlanRequest& request, const PlanResult& result,
                      const std::string& directory) {
  create_output_directory(directory);
  const Schedule& schedule = *result.schedule;
  auto path = [&](const std::string& name) { return (std::filesystem::path(directory) / name).string(); };
  write_json_file(path("placement.json"), placement_to_json(schedule.placement));
  write_schedule_file(path("schedule.json"), schedule);
  write_text(path("schedule.csv"), write_pytorch_csv_staged(schedule, false));
  write_json_file(sidecar_path(path("schedule.csv")), sidecar_json(schedule));
  write_text(path("schedule_comms.csv"), write_pytorch_csv_staged(schedule, true));
  write_json_file(sidecar_path(path("schedule_comms.csv")), sidecar_json(schedule));
  write_text(path("schedule.svg"), svg_timeline(schedule));
  write_text(path("report.md"), plan_report(graph, request, result));
}

}  // namespace tessel
