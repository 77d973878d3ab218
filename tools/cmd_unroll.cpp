// `tessel unroll`: expands a repetend schedule to N micro-batches
// (model/unroll.hpp has the exact rule) and writes tessel.schedule/1.
#include <iostream>

#include "model/schedule_json.hpp"
#include "model/unroll.hpp"
#include "tools/cli.hpp"
#include "tools/commands.hpp"

namespace tessel::cli {

int run_unroll(int argc, char** argv) {
  po::options_description options("options");
  options.add_options()
      ("schedule", po::value<std::string>()->required(), "a tessel.schedule/1 file with a repetend")
      ("nmicros", po::value<int>()->required(), "micro-batches N of the result")
      ("output,o", po::value<std::string>(), "write to this file instead of stdout");
  po::positional_options_description positional;
  positional.add("schedule", 1);
  po::variables_map values;
  const std::string usage =
      "tessel unroll SCHEDULE --nmicros N [-o FILE]\n\n"
      "Keeps the warmup (instances before the repetend), repeats the window [start, end) every\n"
      "period steps with micro-batches advanced by micros_per_period (k), and shifts the cooldown.\n"
      "N can be any count from the schedule's micro-batches minus the window copies it already\n"
      "holds, in steps of k. The result keeps the first window as its repetend.";
  if (auto code = parse(argc, argv, usage, options, positional, values)) return *code;
  const std::string path = values["schedule"].as<std::string>();
  return guarded("unroll", [&] {
    Schedule schedule = read_schedule_file(path);
    Schedule unrolled;
    try {
      unrolled = unroll(schedule, values["nmicros"].as<int>());
    } catch (const InputError& error) {
      // Problems of the repetend are problems of the file.
      if (error.field == "repetend") throw InputError(path, error.field, error.reason);
      throw;
    }
    if (values.count("output"))
      write_schedule_file(values["output"].as<std::string>(), unrolled);
    else
      std::cout << schedule_to_json(unrolled).dump(1) << "\n";
    return kSuccess;
  });
}

}  // namespace tessel::cli
