// `tessel show`: a schedule as a text timeline (model/timeline_text), with a
// summary line. It reads the file with full validation but does not judge
// the schedule: that is `tessel verify`.
#include <algorithm>
#include <iostream>

#include "model/schedule_json.hpp"
#include "model/timeline_text.hpp"
#include "tools/cli.hpp"
#include "tools/commands.hpp"
#include "tools/time_window.hpp"

namespace tessel::cli {

namespace {

constexpr long long kMaxTimelineCells = 20000000;

}  // namespace

int run_show(int argc, char** argv) {
  po::options_description options("options");
  options.add_options()
      ("schedule", po::value<std::string>()->required(), "a tessel.schedule/1 file")
      ("max-steps", po::value<int>()->default_value(0), "show at most this many steps (0 = all)");
  add_time_window_options(options);
  po::positional_options_description positional;
  positional.add("schedule", 1);
  po::variables_map values;
  const std::string usage =
      "tessel show SCHEDULE [--max-steps N] [--start T] [--end T]\n\n"
      "Prints a row per device and a cell per step naming the block and the micro-batch running\n"
      "there: f0:3 = block f0 of micro-batch 3 (a key under the rows gives each block's kind;\n"
      "blocks with long ids are numbered). . idle, # two instances on one step, + the members\n"
      "of a fused unit, | the repetend's start and end. --start/--end show a part of a long\n"
      "schedule. The summary line gives the repetend's period and, for a window of k > 1\n"
      "micro-batches, k and the average period P / k. Does not check the schedule: use\n"
      "'tessel verify'. Pictures: 'tessel export --to svg' or '--to chrome-trace'.";
  if (auto code = parse(argc, argv, usage, options, positional, values)) return *code;
  return guarded("show", [&] {
    int max_steps = values["max-steps"].as<int>();
    if (max_steps < 0) throw InputError("", "--max-steps", "must be >= 0");
    const std::string file = values["schedule"].as<std::string>();
    Schedule schedule = read_schedule_file(file);
    const TimeWindow window = time_window(values, schedule);
    // A character or more per device and step: bound the text before building it.
    const long long shown = (window.to > 0 ? std::min(window.to, makespan(schedule)) : makespan(schedule)) - window.from;
    const long long steps = max_steps > 0 ? std::min<long long>(max_steps, shown) : shown;
    const long long cells = steps * schedule.placement.ndevs;
    if (cells > kMaxTimelineCells)
      throw InputError(file, "--max-steps",
                       "the timeline would have " + std::to_string(cells) + " cells (" +
                           std::to_string(schedule.placement.ndevs) + " devices x " + std::to_string(steps) +
                           " steps), more than " + std::to_string(kMaxTimelineCells) +
                           "; pass a smaller --max-steps or use 'tessel export --to svg'");
    std::cout << (schedule.placement.name.empty() ? "schedule" : schedule.placement.name) << ": "
              << schedule.placement.ndevs << " devices, " << schedule.nmicros << " micro-batches, makespan "
              << format_ticks(makespan(schedule), schedule.placement.time_decimals);
    if (schedule.repetend)
      std::cout << ", " << repetend_summary(*schedule.repetend, schedule.placement.time_decimals);
    std::cout << "\n" << render_timeline(schedule, TimelineOptions{max_steps, window.from, window.to});
    return kSuccess;
  });
}

}  // namespace tessel::cli
