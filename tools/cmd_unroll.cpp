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
      ("nmicros", po::value<int>()->required(), "micro-batches N of the result, any N >= 1")
      ("output,o", po::value<std::string>(), "write to this file instead of stdout");
  po::positional_options_description positional;
  positional.add("schedule", 1);
  po::variables_map values;
  const std::string usage =
      "tessel unroll SCHEDULE --nmicros N [-o FILE]\n\n"
      "The repetend {start, end, period P, micros_per_period k} says that [start, end) is whole\n"
      "periods, each the one before shifted by P steps and k micro-batches. Unrolling keeps the\n"
      "warmup (instances before start), lays out as many periods as N needs and moves the\n"
      "cooldown by the periods added or removed. Whole periods reach the schedule's micro-batches\n"
      "minus the extra periods it already holds, and every k-th count above. Any other N >= 1 (a\n"
      "partial last window of a k > 1 schedule, or fewer micro-batches than the warmup holds) is\n"
      "the next count whole periods reach with the micro-batches >= N dropped; the memory is\n"
      "checked again (exit 2 if dropping would break the limit). The result claims its whole\n"
      "periods as its repetend (none when no whole period is left), so it can be unrolled again.";
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
