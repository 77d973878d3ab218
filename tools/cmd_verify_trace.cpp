// `tessel verify --trace DIR --schedule schedule.json [--json] [--svg FILE]`:
// a run's per-rank Chrome traces checked against the plan's schedule
// (trace/trace_check.hpp). Exit 0 the run conforms, 1 it does not (the rank,
// position and the two actions are named), 2 unreadable input.
#include <iostream>

#include "model/formats/chrome_trace_read.hpp"
#include "model/input_error.hpp"
#include "model/output_file.hpp"
#include "model/schedule_json.hpp"
#include "tools/cli.hpp"
#include "tools/commands.hpp"
#include "trace/trace_check.hpp"
#include "trace/trace_report.hpp"
#include "trace/trace_svg.hpp"

namespace tessel::cli {

int run_verify_trace(int argc, char** argv) {
  po::options_description options("options");
  options.add_options()
      ("trace", po::value<std::string>()->required(),
       "a directory of per-rank Chrome traces (rankR.json), or one trace with a process per rank")
      ("schedule", po::value<std::string>()->required(), "the plan's schedule.json (tessel.schedule/1)")
      ("json", po::bool_switch(), "print one JSON object instead of text")
      ("svg", po::value<std::string>(), "write the planned and the achieved timelines, one above the other");
  po::positional_options_description positional;
  po::variables_map values;
  const std::string usage =
      "tessel verify --trace DIR --schedule SCHEDULE [--json] [--svg FILE]\n\n"
      "Matches every PP:<action> range of a pipeline run's traces (tessel run --trace-dir, or\n"
      "PyTorch's _PipelineScheduleRuntime under torch.profiler) to the plan: each rank must run\n"
      "its planned actions (the comms table's order) once per step, none missing or extra; a\n"
      "planned recompute is the 'tessel:recompute <stage>F<micro>' range inside its backward. Then\n"
      "the achieved step time against the planned makespan and the lower bound, and per rank\n"
      "where the time went (compute and how much over plan, communication, waiting for a\n"
      "receive or a dependency, the rest), naming the slowest actions (docs/runtime.md).\n"
      "Exit 0 conforms, 1 does not, 2 unreadable input.";
  if (auto done = parse(argc, argv, usage, options, positional, values)) return *done;
  return guarded("verify", [&]() -> int {
    const Schedule schedule = read_schedule_file(values["schedule"].as<std::string>());
    const auto trace = read_trace_ranks(values["trace"].as<std::string>());
    const TraceCheck check = check_trace(schedule, trace);
    if (values.count("svg")) {
      write_output_file(values["svg"].as<std::string>(), trace_svg(schedule, trace, check));
    }
    if (values["json"].as<bool>())
      std::cout << trace_check_json(check).dump(1) << "\n";
    else
      std::cout << trace_check_text(check);
    return check.mismatch.conforms ? kSuccess : kNegative;
  });
}

}  // namespace tessel::cli
