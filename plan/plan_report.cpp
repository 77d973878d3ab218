// What a plan tells its user: report.md, the `--json` object, and the
// directory of files. Every makespan is in the plan's unit (milliseconds of
// a training step, or GFLOP of compute) and compared with the 1F1B chain at
// the same memory.
#include <cmath>
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
#include "model/placement_json.hpp"
#include "model/schedule_json.hpp"
#include "plan/memory_choices.hpp"
#include "solver/makespan/constructions/memory_trading.hpp"
#include "plan/plan.hpp"

namespace tessel {

namespace {

const std::vector<std::string> kFiles = {"stages.json", "placement.json", "schedule.json", "schedule.csv",
                                         "schedule_comms.csv", "schedule.svg", "report.md", "memory_choices.json"};

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

// The unit a user reads: milliseconds for time (the files keep seconds).
double shown(double value, const PlanClock& clock) { return clock.unit == PlanUnit::Seconds ? value * 1000 : value; }
const char* shown_unit(const PlanClock& clock) { return clock.unit == PlanUnit::Seconds ? "ms" : "GFLOP"; }

std::string ratio_text(double makespan, const std::optional<double>& one_f_one_b) {
  if (!one_f_one_b || *one_f_one_b <= 0) return "-";
  std::ostringstream text;
  text << std::fixed << std::setprecision(3) << makespan / *one_f_one_b << "x";
  return text.str();
}

double gap_of(double makespan, double bound) { return bound > 0 ? makespan / bound - 1 : 0; }

void write_text(const std::string& path, const std::string& text) { write_output_file(path, text); }

std::string unit_line(const PlanClock& clock) {
  if (clock.unit == PlanUnit::Gflop)
    return "GFLOP: compute of the graph, not time (give --device-flops F, or trace with --profile, for milliseconds)";
  std::ostringstream text;
  text << "milliseconds of a training step (schedule.json in seconds): ";
  // A measured graph's compute is time already; a FLOP graph's is divided
  // by the rate given (which may be 1e9 too: the rate alone does not say).
  if (clock.measured) text << "compute as measured (the graph's nanoseconds, tessel_fx.py --profile)";
  else text << "compute at " << std::setprecision(4) << 1.0 / clock.seconds_per_compute << " FLOP/s per device";
  if (clock.link_bandwidth > 0)
    text << ", each activation or gradient between ranks a delay of bytes / " << clock.link_bandwidth
         << " B/s + " << clock.link_latency << " s";
  else
    text << ", transfers between ranks free (give --link-bandwidth to cost them)";
  return text.str();
}

void comparison_table(std::ostringstream& out, const PlanAnswer& answer) {
  out << "| plan | how | makespan (" << shown_unit(answer.clock) << ") | vs 1F1B chain | status |\n";
  out << "|---|---|---:|---:|---|\n";
  for (const PlanRow& row : answer.compared) {
    out << "| " << row.label << " | " << (row.construction.empty() ? "-" : row.construction) << " | ";
    if (row.makespan) out << std::setprecision(6) << shown(*row.makespan, answer.clock) << " | "
                          << ratio_text(*row.makespan, answer.one_f_one_b);
    else out << "- | -";
    out << " | " << row.status << (row.note.empty() ? "" : ": " + row.note) << " |\n";
  }
  out << "\n";
}

}  // namespace

std::string plan_choices_text(const Schedule& schedule, const PlanClock& clock) {
  return choices_summary(schedule, [&](Time ticks) {
    return format_makespan(ticks_to_double(ticks, schedule.placement.time_decimals), clock);
  });
}

namespace {

// "--recompute auto, offload at 1.2e+10 B/s: recomputes F1 x12 (...)".
std::string trade_text(const PlanRequest& request, const PlanResult& result) {
  std::ostringstream text;
  text << "--recompute " << recompute_mode_name(result.pipeline.recompute);
  if (request.host_bandwidth > 0) text << ", --offload auto at " << request.host_bandwidth << " B/s";
  text << (result.schedule ? ": " + plan_choices_text(*result.schedule, result.clock) : std::string());
  return text.str();
}

// stages.json with each stage's recomputed and offloaded micro-batches.
nlohmann::json with_choices(nlohmann::json document, const std::vector<StageChoices>& choices) {
  for (nlohmann::json& stage : document["stages"]) {
    const StageChoices& own = choices[stage["stage"].get<int>()];
    stage["recompute"] = own.recompute;
    stage["offload"] = own.offload;
  }
  return document;
}

}  // namespace

std::string format_makespan(double value, const PlanClock& clock) {
  std::ostringstream text;
  text << std::setprecision(5) << shown(value, clock) << " " << shown_unit(clock);
  return text.str();
}

nlohmann::json plan_stages_json(const Graph& graph, const PlanResult& result) {
  return with_choices(stages_to_json(graph, result.pipeline, result.stages),
                      stage_choices(*result.schedule, pipeline_stages(result.pipeline)));
}

std::string plan_table(const PlanResult& result, bool with_comms) {
  return write_pytorch_csv_staged(compute_actions_only(*result.schedule), with_comms);
}

nlohmann::json plan_memory_choices(const PlanResult& result) {
  return memory_choices_json(*result.schedule, pipeline_stages(result.pipeline));
}

std::string plan_report(const Graph& graph, const PlanRequest& request, const PlanAnswer& answer) {
  const PlanResult& result = answer.chosen;
  const PipelineOptions& options = result.pipeline;
  std::ostringstream out;
  out << "# Pipeline plan: " << (graph.name.empty() ? "graph" : graph.name) << "\n\n";
  if (!answer.choice.empty()) out << "- " << answer.choice << "\n";
  out << "- mapping: " << plan_label(options) << ", " << options.devices << " ranks x " << options.chunks
      << " chunks = " << pipeline_stages(options) << " stages, backward "
      << (options.split_backward ? "split into I and W (" + result.staged.weight_cost + ")" : "whole (B)") << "\n";
  out << "- unit: " << unit_line(answer.clock) << "\n";
  out << "- cut: " << cut_name(result.cut) << "; compute per stage [" << join(result.costs.stage_compute)
      << "], per rank [" << join(result.rank_compute) << "] (graph units); stages.json lists each stage's "
      << "operators and modules\n";
  out << "- memory limit per rank [" << join(result.memory_limit) << "] bytes; static (parameters, gradients, "
      << options.bytes_per_param << " B/param each, optimizer " << options.optimizer_bytes_per_param
      << " B/param) [" << join(result.staged.static_bytes) << "] bytes; activations rounded up to "
      << result.staged.memory_granule << " bytes\n";
  out << "- micro-batches N = " << request.nmicros << "\n";
  out << "- memory traded for time: " << trade_text(request, result) << "\n\n";
  if (!result.schedule) {
    out << "No schedule: " << (answer.message.empty() ? result.message : answer.message) << "\n\n";
    comparison_table(out, answer);
    return out.str();
  }
  out << "| makespan (" << shown_unit(answer.clock) << ") | vs 1F1B chain | proven lower bound | gap | bubble ratio | outcome |\n";
  out << "|---|---|---|---|---|---|\n";
  out << "| " << std::setprecision(6) << shown(result.makespan, answer.clock) << " | "
      << ratio_text(result.makespan, answer.one_f_one_b) << " | ";
  if (result.lower_bound > 0) out << shown(result.lower_bound, answer.clock);
  else out << "-";
  out << " | " << std::fixed << std::setprecision(3);
  if (result.lower_bound > 0) out << gap_of(result.makespan, result.lower_bound);
  else out << "-";  // no bound, no gap (not a gap of 0)
  out << " | " << result.bubble_ratio << " | " << outcome_name(answer.outcome) << " |\n\n";
  out.unsetf(std::ios::fixed);
  if (!answer.one_f_one_b) out << "The 1F1B chain does not fit: " << answer.one_f_one_b_note << ".\n\n";
  else out << "The yardstick, the 1F1B chain at the same memory: " << answer.one_f_one_b_order << ", "
           << format_makespan(*answer.one_f_one_b, answer.clock) << ".\n\n";
  if (!answer.message.empty()) out << answer.message << ".\n\n";
  out << "Every plan compared (the chain's textbook orders are built first -- 1F1B and, with split backward, "
         "ZB-H1 -- then searched briefly when not asked for; the fastest verified plan is written):\n\n";
  comparison_table(out, answer);
  out << "Peak memory per rank (static + activations): ";
  for (size_t r = 0; r < result.peak_memory.size(); ++r)
    out << (r ? ", " : "") << gib(result.peak_memory[r]) << " of " << gib(result.memory_limit[r]);
  out << ".\n\nAnswer: " << result.construction << ".\n\n";
  out << "![schedule](schedule.svg)\n\n";
  out << "Files: stages.json (the operators and modules of each stage), placement.json, schedule.json (verified), "
         "schedule.csv (PyTorch compute-only table), schedule_comms.csv (with SEND/RECV), each CSV with its "
         ".tessel.json sidecar.\n";
  return out.str();
}

nlohmann::json plan_json(const PlanRequest& request, const PlanAnswer& answer, const std::string& directory) {
  const PlanResult& result = answer.chosen;
  auto number = [&](std::optional<double> value) -> nlohmann::json {
    return value ? nlohmann::json(shown(*value, answer.clock)) : nlohmann::json(nullptr);
  };
  nlohmann::json compared = nlohmann::json::array();
  for (const PlanRow& row : answer.compared)
    compared.push_back({{"plan", row.label}, {"mapping", mapping_name(row.pipeline.mapping)},
                        {"recompute_all", row.recompute_all},
                        {"chunks", row.pipeline.chunks}, {"split_backward", row.pipeline.split_backward},
                        {"status", row.status}, {"construction", row.construction},
                        {"makespan", number(row.makespan)},
                        {"lower_bound", row.lower_bound > 0 ? number(row.lower_bound) : nullptr},
                        {"ratio_to_1f1b", row.makespan && answer.one_f_one_b ? nlohmann::json(*row.makespan / *answer.one_f_one_b) : nullptr},
                        {"peak_memory", row.peak_memory}, {"note", row.note}});
  nlohmann::json files = nlohmann::json::array();
  if (result.schedule && !directory.empty())
    for (const std::string& name : kFiles) files.push_back((std::filesystem::path(directory) / name).string());
  bool found = result.schedule.has_value();
  return {{"mapping", mapping_name(result.pipeline.mapping)},
          {"split_backward", result.pipeline.split_backward},
          {"chunks", result.pipeline.chunks},
          {"ranks", result.pipeline.devices},
          {"nmicros", request.nmicros},
          {"unit", shown_unit(answer.clock)},
          {"makespan", found ? number(result.makespan) : nullptr},
          {"lower_bound", found && result.lower_bound > 0 ? number(result.lower_bound) : nullptr},
          {"gap", found && result.lower_bound > 0 ? nlohmann::json(gap_of(result.makespan, result.lower_bound)) : nullptr},
          {"bubble_ratio", found ? nlohmann::json(result.bubble_ratio) : nullptr},
          {"status", outcome_name(answer.outcome)},
          {"construction", result.construction},
          {"one_f_one_b", number(answer.one_f_one_b)},
          {"one_f_one_b_order", answer.one_f_one_b_order},
          {"ratio_to_1f1b", found && answer.one_f_one_b ? nlohmann::json(result.makespan / *answer.one_f_one_b) : nullptr},
          {"choice", answer.choice},
          {"recompute", recompute_mode_name(result.pipeline.recompute)},
          {"host_bandwidth", request.host_bandwidth > 0 ? nlohmann::json(request.host_bandwidth) : nullptr},
          {"recomputed", found ? nlohmann::json(result.schedule->recomputes.size()) : nullptr},
          {"offloaded", found ? nlohmann::json(result.schedule->transfers.size() / 2) : nullptr},
          {"memory_traded", found ? plan_choices_text(*result.schedule, result.clock) : ""},
          {"message", answer.message.empty() ? result.message : answer.message},
          {"peak_memory", result.peak_memory},
          {"memory_limit", result.memory_limit},
          {"compared", compared},
          {"files", files},
          {"seconds", seconds_to_json(answer.seconds)}};
}

void write_plan_files(const Graph& graph, const PlanRequest& request, const PlanAnswer& answer,
                      const std::string& directory) {
  create_output_directory(directory);
  const PlanResult& result = answer.chosen;
  const Schedule& schedule = *result.schedule;
  auto path = [&](const std::string& name) { return (std::filesystem::path(directory) / name).string(); };
  write_json_file(path("stages.json"), plan_stages_json(graph, result));
  write_json_file(path("placement.json"), placement_to_json(schedule.placement));
  write_schedule_file(path("schedule.json"), schedule);
  // PyTorch's table has no recompute or copy action: the CSVs hold the
  // compute order, memory_choices.json what a runtime adds to it.
  const Schedule compute = compute_actions_only(schedule);
  write_text(path("schedule.csv"), plan_table(result, false));
  write_json_file(sidecar_path(path("schedule.csv")), sidecar_json(compute));
  write_text(path("schedule_comms.csv"), plan_table(result, true));
  write_json_file(sidecar_path(path("schedule_comms.csv")), sidecar_json(compute));
  write_json_file(path("memory_choices.json"), plan_memory_choices(result));
  SvgOptions svg;
  svg.title = (graph.name.empty() ? std::string("plan") : graph.name) + ": " + plan_label(result.pipeline) + ", N = " +
              std::to_string(schedule.nmicros) + ", " + format_makespan(result.makespan, answer.clock) +
              (answer.clock.unit == PlanUnit::Seconds ? " (axis in ms)" : " (axis in GFLOP)");
  if (answer.clock.unit == PlanUnit::Seconds) svg.axis_shift = 3;
  svg.axis_unit = answer.clock.unit == PlanUnit::Seconds ? "ms" : "GFLOP";
  write_text(path("schedule.svg"), svg_timeline(schedule, svg));
  write_text(path("report.md"), plan_report(graph, request, answer));
}

}  // namespace tessel
